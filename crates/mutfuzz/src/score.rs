//! Scoring a corpus: every mutant against the stored inputs with a generous budget,
//! the honest final number that compares corpora from different guidances.

use std::collections::HashSet;
use std::fmt::Debug;

use mutfuzz_contract::{Budget, ScoreLine, ScoreOutcome};

use crate::campaign::RunGuard;
use crate::r#gen::Gen;
use crate::input::Limits;
use crate::mutants::MutantInfo;
use crate::oracle::Oracle;
use crate::raw::RawDecoder;
use crate::trial::{Executor, judge};

/// The budget of a scoring run ([`Budget::SCORE`]): slow but finite mutants are not
/// mistaken for runaways.
pub const SCORE_BUDGET: Budget = Budget::SCORE;

/// What scoring is about to run, for a supervisor that attributes a crash.
#[derive(Clone, Copy, Debug)]
pub enum ScoreEvent<'a> {
    /// The original is about to run on this input.
    Input(&'a str),
    /// This mutant is about to run on the current input.
    Mutant(u32),
}

/// Score `inputs` (name, bytes) against every mutant not in `done`: each input's
/// original run once, then each undecided mutant whose site it reaches. `line` receives
/// each verdict as it is decided (kills at once, survivors and uncovered at the end).
/// With `raw`, inputs are files in cargo-fuzz's format, each one the decoder accepts.
#[allow(clippy::too_many_arguments)]
pub fn score<T: Gen, O: Debug>(
    target: impl Fn(T) -> O + 'static,
    oracle: &dyn Oracle<O>,
    mutants: &[MutantInfo],
    inputs: &[(String, Vec<u8>)],
    done: &HashSet<u32>,
    limits: Limits,
    budget: Budget,
    raw: Option<RawDecoder<T>>,
    mut line: impl FnMut(&ScoreLine),
    mut events: impl FnMut(ScoreEvent<'_>),
) {
    let _guard = RunGuard::start();
    let mut exec = Executor::new(Box::new(target), limits);
    if let Some(decode) = raw {
        exec = exec.with_raw(decode);
    }
    let table = mutants.iter().map(|m| m.site as usize + 1).max().unwrap_or(1).max(1024);
    let mut open: Vec<MutantInfo> = mutants.iter().copied().filter(|m| !done.contains(&m.id)).collect();
    let mut seen: HashSet<u32> = HashSet::new();
    for (name, bytes) in inputs {
        if open.is_empty() {
            break;
        }
        events(ScoreEvent::Input(name));
        let value = exec.regenerate(bytes);
        let original = exec.run_original(value, table, oracle);
        let (fuel, depth) = budget.limits(original.fuel, original.depth);
        open.retain(|m| {
            if original.hits.binary_search(&m.site).is_err() {
                return true;
            }
            seen.insert(m.id);
            events(ScoreEvent::Mutant(m.id));
            let end = exec.run_mutant(m.id, bytes, fuel, depth);
            match judge(oracle, &original.end, &end) {
                Some((kind, _)) => {
                    line(&ScoreLine {
                        mutant: m.id,
                        outcome: ScoreOutcome::Killed,
                        kind: Some(kind),
                        input: Some(name.clone()),
                    });
                    false
                }
                None => true,
            }
        });
        mutfuzz_rt::set_limits(u64::MAX, usize::MAX);
    }
    for m in open {
        let outcome = if seen.contains(&m.id) { ScoreOutcome::Survived } else { ScoreOutcome::NotCovered };
        line(&ScoreLine { mutant: m.id, outcome, kind: None, input: None });
    }
}
