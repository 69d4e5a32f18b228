//! Mutant selection: which mutants a trial runs on its input. Each strategy is one
//! implementation of [`Selector`]: Mu2's execution and infection pruning
//! ([`ExecutionPruning`], [`InfectionPruning`]), and a bound of k per trial
//! ([`Sample`]): μZest's random subset, or the k that ran least so far.

mod execution;
mod infection;
mod sample;

pub use execution::ExecutionPruning;
pub use infection::InfectionPruning;
pub use sample::Sample;

use mutfuzz_contract::KillKind;
pub use mutfuzz_contract::Prune;

use crate::input::Rng;
use crate::mutants::MutantTable;

/// The selection a [`CampaignConfig`](crate::CampaignConfig) asks for: its pruning rule, sampled to
/// `sample` mutants per trial when set, at random (`random`, μZest) or the least run.
pub fn build(prune: Prune, sample: Option<usize>, random: bool) -> Box<dyn Selector> {
    let pruning: Box<dyn Selector> = match prune {
        Prune::Execution => Box::new(ExecutionPruning),
        Prune::Infection => Box::new(InfectionPruning),
    };
    match sample {
        Some(k) if random => Box::new(Sample::random(pruning, k)),
        Some(k) => Box::new(Sample::least_run(pruning, k)),
        None => pruning,
    }
}

/// What the original's run on this trial's input tells a selector.
#[derive(Clone, Copy, Debug)]
pub struct TrialSites<'a> {
    /// Base ids of the sites the original hit, increasing.
    pub hits: &'a [u32],
    /// Whether mutants already killed are candidates too (μZest re-runs them).
    pub rerun_killed: bool,
}

impl TrialSites<'_> {
    /// Whether mutant `index` is a candidate as far as targets and kills go: one of the
    /// campaign's targets, and surviving, or (when killed mutants run again) killed in a
    /// way that ends one run, not the process or the budget — a mutant that crashed or
    /// hung would take every trial down with it. Every selector filters by this, so a
    /// bound such as [`Sample`]'s k is spent on targets only.
    #[inline]
    pub fn candidate(&self, table: &MutantTable, index: u32) -> bool {
        if !table.is_target(index) {
            return false;
        }
        match table.killed(index) {
            None => true,
            Some(KillKind::OutputDiffers | KillKind::Panic | KillKind::Discard) => self.rerun_killed,
            Some(KillKind::Timeout | KillKind::Crash) => false,
        }
    }
}

/// Chooses the mutants to run on one trial's input.
pub trait Selector {
    /// Short name for reports (`execution`, `sample`).
    fn name(&self) -> &'static str;

    /// Appends to `out` (empty on entry) the catalog indices of the mutants to run, in
    /// the order to run them. Called once per trial on the trial path: no allocation
    /// beyond `out`'s reused capacity.
    fn select(&mut self, sites: &TrialSites<'_>, table: &MutantTable, rng: &mut Rng, out: &mut Vec<u32>);
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::MutantInfo;
    use crate::mutants::MutantTable;

    /// Sites 1 (mutants 1, 2, 3), 4 (mutant 4) and 5 (mutants 5, 6).
    pub(crate) fn three_sites() -> MutantTable {
        let pairs = [(1, 1), (2, 1), (3, 1), (4, 4), (5, 5), (6, 5)];
        MutantTable::new(pairs.iter().map(|&(id, site)| MutantInfo::new(id, site)).collect()).unwrap()
    }
}
