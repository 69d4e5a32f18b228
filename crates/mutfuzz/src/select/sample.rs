//! A bound of k mutant runs per trial, so one trial's cost stays bounded however many
//! mutants an input reaches: μZest's random strategy (a uniform subset), or the k
//! candidates that ran least so far.
//!
//! Least-run first is `mu2`'s default. Where every input reaches the same few hundred
//! mutants, a uniform sample spends most runs on those that survive everything
//! (equivalent, or needing an input the campaign has not found), and gives a mutant
//! that only a rare input reaches 4 chances in a few hundred when that input comes.
//! Preferring the least run spreads the runs evenly over what inputs reach, and runs a
//! rarely reached mutant as soon as an input reaches it. Ties are broken at random.

use super::{Selector, TrialSites};
use crate::input::Rng;
use crate::mutants::MutantTable;

/// At most `k` of the mutants `inner` chooses.
pub struct Sample {
    inner: Box<dyn Selector>,
    k: usize,
    least_run: bool,
}

impl Sample {
    /// A uniform random sample of at most `k` of `inner`'s choice (μZest).
    pub fn random(inner: Box<dyn Selector>, k: usize) -> Sample {
        Sample { inner, k, least_run: false }
    }

    /// The at most `k` of `inner`'s choice that ran least so far, ties at random.
    pub fn least_run(inner: Box<dyn Selector>, k: usize) -> Sample {
        Sample { inner, k, least_run: true }
    }
}

impl Selector for Sample {
    fn name(&self) -> &'static str {
        if self.least_run { "least-run" } else { "sample" }
    }

    fn select(&mut self, sites: &TrialSites<'_>, table: &MutantTable, rng: &mut Rng, out: &mut Vec<u32>) {
        self.inner.select(sites, table, rng, out);
        if out.len() <= self.k {
            return;
        }
        if self.least_run {
            // A shuffle, then the k fewest runs: among equal counts, a random k.
            for i in 0..out.len() - 1 {
                let j = i + rng.below((out.len() - i) as u64) as usize;
                out.swap(i, j);
            }
            out.select_nth_unstable_by_key(self.k - 1, |&mi| table.runs(mi));
        } else {
            // Partial Fisher–Yates: the first k are a uniform sample.
            for i in 0..self.k {
                let j = i + rng.below((out.len() - i) as u64) as usize;
                out.swap(i, j);
            }
        }
        out.truncate(self.k);
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
        let mut sample = Sample::random(Box::new(ExecutionPruning), 2);
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
        Sample::random(Box::new(ExecutionPruning), 10).select(
            &TrialSites { hits: &[5], rerun_killed: false },
            &table,
            &mut Rng::new(1),
            &mut out,
        );
        assert_eq!(out, [4, 5]);
    }

    #[test]
    fn least_run_first_takes_the_mutants_that_ran_least_and_breaks_ties_at_random() {
        let mut table = three_sites();
        // Index 0 ran 3 times, index 1 once, the others never.
        for mi in [0, 0, 0, 1] {
            table.ran(mi);
        }
        let mut sample = Sample::least_run(Box::new(ExecutionPruning), 2);
        let mut rng = Rng::new(9);
        let mut out = Vec::new();
        let mut chosen = [0u32; 6];
        for _ in 0..300 {
            out.clear();
            // Sites 1 and 5 ran: candidates 0, 1, 2 (site 1) and 4, 5 (site 5).
            sample.select(&TrialSites { hits: &[1, 5], rerun_killed: false }, &table, &mut rng, &mut out);
            assert_eq!(out.len(), 2);
            for &mi in &out {
                chosen[mi as usize] += 1;
            }
        }
        // Only never-run candidates are taken, each about 200 of the 600 picks.
        assert_eq!((chosen[0], chosen[1], chosen[3]), (0, 0, 0), "{chosen:?}");
        for mi in [2, 4, 5] {
            assert!((140..260).contains(&chosen[mi]), "index {mi} chosen {} times: {chosen:?}", chosen[mi]);
        }
        // Once the others ran more, index 1 (one run) comes first.
        for mi in [2, 2, 4, 4, 5, 5] {
            table.ran(mi);
        }
        out.clear();
        Sample::least_run(Box::new(ExecutionPruning), 1).select(
            &TrialSites { hits: &[1, 5], rerun_killed: false },
            &table,
            &mut rng,
            &mut out,
        );
        assert_eq!(out, [1]);
    }
}
