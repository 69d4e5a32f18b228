//! μZest's random strategy: run a uniform random subset of at most k of the mutants
//! another selector chose, so one trial's cost stays bounded however many mutants an
//! input reaches.

use super::{Selector, TrialSites};
use crate::input::Rng;
use crate::mutants::MutantTable;

/// At most `k` of the mutants `inner` chooses, uniformly at random.
pub struct Sample {
    inner: Box<dyn Selector>,
    k: usize,
}

impl Sample {
    /// A sample of at most `k` of `inner`'s choice.
    pub fn new(inner: Box<dyn Selector>, k: usize) -> Sample {
        Sample { inner, k }
    }
}

impl Selector for Sample {
    fn name(&self) -> &'static str {
        "sample"
    }

    fn select(&mut self, sites: &TrialSites<'_>, table: &MutantTable, rng: &mut Rng, out: &mut Vec<u32>) {
        self.inner.select(sites, table, rng, out);
        if out.len() > self.k {
            // Partial Fisher–Yates: the first k are a uniform sample.
            for i in 0..self.k {
                let j = i + rng.below((out.len() - i) as u64) as usize;
                out.swap(i, j);
            }
            out.truncate(self.k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::ExecutionPruning;
    use crate::select::tests::three_sites;

    #[test]
    fn a_sample_has_k_distinct_eligible_mutants_and_every_one_gets_chosen() {
        let table = three_sites();
        let mut sample = Sample::new(Box::new(ExecutionPruning), 2);
        let mut rng = Rng::new(5);
        let mut chosen = [0u32; 6];
        let mut out = Vec::new();
        for _ in 0..600 {
            out.clear();
            sample.select(&TrialSites { hits: &[1, 5], rerun_killed: false }, &table, &mut rng, &mut out);
            assert_eq!(out.len(), 2);
            assert_ne!(out[0], out[1]);
            for &mi in &out {
                assert_ne!(mi, 3, "site 4 did not run");
                chosen[mi as usize] += 1;
            }
        }
        // Five eligible mutants, two per trial: each about 240 times.
        for (mi, &n) in chosen.iter().enumerate() {
            if mi != 3 {
                assert!((150..330).contains(&n), "mutant index {mi} chosen {n} times");
            }
        }
    }

    #[test]
    fn fewer_eligible_mutants_than_k_all_run() {
        let table = three_sites();
        let mut out = Vec::new();
        Sample::new(Box::new(ExecutionPruning), 10).select(
            &TrialSites { hits: &[5], rerun_killed: false },
            &table,
            &mut Rng::new(1),
            &mut out,
        );
        assert_eq!(out, [4, 5]);
    }
}
