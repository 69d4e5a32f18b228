//! Mu2's infection pruning (Section IV-B): of the surviving mutants whose site ran, only
//! those that the original's recording run infected. A mutant whose alternative computed
//! the same value as the original at every visit of its site behaves like the original
//! on this input, so running it cannot kill it. Sites without a probe count as infected.

use super::{Selector, TrialSites};
use crate::input::Rng;
use crate::mutants::MutantTable;

/// Every surviving, infected (or unprobed) mutant of every site the original hit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfectionPruning;

impl Selector for InfectionPruning {
    fn name(&self) -> &'static str {
        "infection"
    }

    fn select(&mut self, sites: &TrialSites<'_>, table: &MutantTable, _rng: &mut Rng, out: &mut Vec<u32>) {
        for &site in sites.hits {
            out.extend(table.at_site(site).iter().copied().filter(|&mi| {
                let info = table.info(mi);
                sites.candidate(table, mi) && (!info.probe || mutfuzz_rt::infected(info.id))
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MutantInfo;

    #[test]
    fn probed_mutants_run_only_when_infected_and_unprobed_ones_always() {
        // Site 1: probed mutants 1, 2; site 3: unprobed mutant 3.
        let catalog = [(1, 1, true), (2, 1, true), (3, 3, false)]
            .map(|(id, site, probe)| MutantInfo { id, site, probe })
            .to_vec();
        let table = MutantTable::new(catalog).unwrap();
        // The only unit test of this crate that drives the process-global run-time.
        mutfuzz_rt::start_recording(16);
        // The recording run's probe found that only mutant 2 differs.
        mutfuzz_rt::infect(2);
        let mut out = Vec::new();
        InfectionPruning.select(
            &TrialSites { hits: &[1, 3], rerun_killed: false },
            &table,
            &mut Rng::new(0),
            &mut out,
        );
        mutfuzz_rt::activate(0);
        assert_eq!(out, [1, 2]);
    }
}
