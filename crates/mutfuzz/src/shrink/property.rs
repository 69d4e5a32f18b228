//! The properties a shrink keeps: the input still kills a set of mutants, judged as the
//! campaign judges ([`KeepsKills`]), or the original still panics with the same message
//! ([`KeepsFailure`]).
//!
//! The original runs in this process (recording, for the fuel and depth its mutants are
//! allowed); the mutants run through [`MutantRuns`], which in a harness is a worker
//! process ([`Workers`]): a mutant that aborts or overflows its stack ends the worker,
//! not the shrink, and counts as killed by `crash`, as in the campaign.

use std::fmt::Debug;

use mutfuzz_contract::Budget;

use crate::r#gen::Gen;
use crate::oracle::{AnyOutput, Oracle};
use crate::trial::Verdict;
use crate::trial::{Executor, OriginalEnd};
use crate::workers::Workers;

/// Runs mutants on one input and says how each ended against the original.
pub(crate) trait MutantRuns {
    /// The verdicts of `ids` on `bytes` within the `fuel` and `depth` limits, in order.
    fn verdicts(&mut self, bytes: &[u8], fuel: u64, depth: usize, ids: &[u32]) -> Vec<Verdict>;
}

impl MutantRuns for Workers {
    fn verdicts(&mut self, bytes: &[u8], fuel: u64, depth: usize, ids: &[u32]) -> Vec<Verdict> {
        let mut out = vec![None; ids.len()];
        self.start(0, bytes, fuel, depth, ids);
        self.finish(0, bytes, fuel, depth, &mut |id, v| {
            if let Some(i) = ids.iter().position(|&x| x == id) {
                out[i] = v;
            }
        });
        out
    }
}

/// What the original's recording run on an input allows its mutants.
pub(crate) struct OriginalCheck {
    /// The run is valid: not discarded, and not a panic unless panics are outcomes.
    pub(crate) valid: bool,
    /// Fuel and depth limits of the mutant runs (the judge's budget of the original's).
    pub(crate) limits: (u64, usize),
    /// Base ids of the sites the original reached.
    pub(crate) hits: Vec<u32>,
    /// The original's ending, rendered (for messages).
    pub(crate) ending: String,
}

/// The original run (in this process) and the mutant runs (isolated) of one target.
pub(crate) struct Judge<T, O> {
    pub(crate) exec: Executor<T, O>,
    pub(crate) oracle: Box<dyn Oracle<O>>,
    pub(crate) runs: Box<dyn MutantRuns>,
    /// Size of the run-time's site table: above every site id that can be hit.
    pub(crate) n_ids: usize,
    /// A generated target's panics are outcomes (see `harness::Judging`).
    pub(crate) panics_by_contract: bool,
    /// The mutant runs' fuel and depth relative to the original's: [`Budget::FUZZ`] for a
    /// shrink (as the campaign judged), [`Budget::SCORE`] for `cmin` (as `score` judges).
    pub(crate) budget: Budget,
}

impl<T: Gen, O: Debug> Judge<T, O> {
    /// Runs the original on `bytes`, recording.
    pub(crate) fn original(&mut self, bytes: &[u8]) -> OriginalCheck {
        let value = self.exec.regenerate(bytes);
        let run = self.exec.run_original(value, self.n_ids, &*self.oracle);
        let valid = match run.end {
            OriginalEnd::Discarded => false,
            OriginalEnd::Panicked { .. } => self.panics_by_contract,
            OriginalEnd::Returned { .. } => true,
        };
        OriginalCheck {
            valid,
            limits: self.budget.limits(run.fuel, run.depth),
            hits: run.hits,
            ending: run.end.render_bounded(mutfuzz_contract::RENDER_LIMIT),
        }
    }

    /// The mutants of `ids` that `bytes` kills, in order (none if the original's run is
    /// not valid).
    pub(crate) fn kills(&mut self, bytes: &[u8], ids: &[u32]) -> Vec<u32> {
        let original = self.original(bytes);
        if !original.valid {
            return Vec::new();
        }
        let (fuel, depth) = original.limits;
        let verdicts = self.runs.verdicts(bytes, fuel, depth, ids);
        ids.iter().zip(verdicts).filter(|(_, v)| v.is_some()).map(|(&id, _)| id).collect()
    }
}

/// The property of `shrink`: the original's run is valid and every mutant of a set is
/// killed (any kill kind, `crash` and `timeout` included).
pub(crate) struct KeepsKills<T, O> {
    pub(crate) judge: Judge<T, O>,
    /// The mutants to keep killing; the one that survived last goes first, so most
    /// failing candidates cost one mutant run.
    order: Vec<u32>,
}

impl<T: Gen, O: Debug> KeepsKills<T, O> {
    pub(crate) fn new(judge: Judge<T, O>, mutants: &[u32]) -> Self {
        KeepsKills { judge, order: mutants.to_vec() }
    }

    /// Whether `bytes` keeps every kill.
    pub(crate) fn holds(&mut self, bytes: &[u8]) -> bool {
        let original = self.judge.original(bytes);
        if !original.valid {
            return false;
        }
        let (fuel, depth) = original.limits;
        // The last survivor alone first: most failing candidates end there, after one
        // mutant run; the rest in one batch (one request to the worker).
        let (first, rest) = self.order.split_at(self.order.len().min(1));
        if self.judge.runs.verdicts(bytes, fuel, depth, first).iter().any(Option::is_none) {
            return false;
        }
        let verdicts = self.judge.runs.verdicts(bytes, fuel, depth, rest);
        match verdicts.iter().position(Option::is_none) {
            Some(i) => {
                self.order[..=i + 1].rotate_right(1);
                false
            }
            None => true,
        }
    }
}

/// The property of `tmin`: the original panics on the input with the same message.
pub(crate) struct KeepsFailure<T, O> {
    exec: Executor<T, O>,
    message: String,
}

impl<T: Gen, O: Debug> KeepsFailure<T, O> {
    /// The property of keeping the panic the original shows on `bytes`, if it panics.
    pub(crate) fn of(mut exec: Executor<T, O>, bytes: &[u8]) -> Result<Self, OriginalEnd<O>> {
        match exec.run_plain_original(bytes, &AnyOutput) {
            OriginalEnd::Panicked { message, .. } => Ok(KeepsFailure { exec, message }),
            other => Err(other),
        }
    }

    /// The panic message kept.
    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// Whether the original panics on `bytes` with the message.
    pub(crate) fn holds(&mut self, bytes: &[u8]) -> bool {
        matches!(self.exec.run_plain_original(bytes, &AnyOutput),
            OriginalEnd::Panicked { message, .. } if message == self.message)
    }
}
