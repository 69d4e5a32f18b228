//! Mu2's execution pruning (Alg. 3): run the surviving mutants whose site the
//! original executed on this input; a mutant whose site did not run cannot differ.

use super::{Selector, TrialSites};
use crate::input::Rng;
use crate::mutants::MutantTable;

/// Every surviving mutant of every site the original hit, in site order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExecutionPruning;

impl Selector for ExecutionPruning {
    fn name(&self) -> &'static str {
        "execution"
    }

    fn select(&mut self, sites: &TrialSites<'_>, table: &MutantTable, _rng: &mut Rng, out: &mut Vec<u32>) {
        for &site in sites.hits {
            out.extend(table.at_site(site).iter().copied().filter(|&mi| sites.candidate(table, mi)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KillKind;
    use crate::select::tests::three_sites;

    #[test]
    fn only_surviving_mutants_of_hit_sites_run() {
        let mut table = three_sites();
        table.kill(1, KillKind::Panic);
        let mut out = Vec::new();
        let sites = TrialSites { hits: &[1, 5, 99], rerun_killed: false };
        ExecutionPruning.select(&sites, &table, &mut Rng::new(0), &mut out);
        assert_eq!(out, [0, 2, 4, 5], "mutant 2 (index 1) is killed; site 4 did not run; 99 is no site");
    }

    #[test]
    fn killed_mutants_run_again_only_when_asked_and_never_after_a_crash_or_a_hang() {
        let mut table = three_sites();
        table.kill(0, KillKind::OutputDiffers);
        table.kill(1, KillKind::Crash);
        table.kill(2, KillKind::Timeout);
        let mut out = Vec::new();
        let sites = TrialSites { hits: &[1], rerun_killed: true };
        ExecutionPruning.select(&sites, &table, &mut Rng::new(0), &mut out);
        assert_eq!(out, [0]);
    }
}
