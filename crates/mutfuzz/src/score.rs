//! Scoring a corpus: every mutant against the stored inputs with a generous budget,
//! the honest final number that compares corpora from different guidances.

use std::collections::HashSet;
use std::fmt::Debug;

use std::path::Path;

use mutfuzz_contract::protocol::decode_hex;
use mutfuzz_contract::{
    Budget, DriftRecord, JsonlWriter, KillKind, NondeterministicRecord, Prune, RENDER_LIMIT, ScoreLine,
    ScoreOutcome, ScoreProgressRecord, encode_hex, read_jsonl,
};

use crate::workers::Workers;

use crate::drift::{Sentinel, find_cause, read_drift, write_drift};
use crate::r#gen::Gen;
use crate::input::Limits;
use crate::mutants::MutantInfo;
use crate::oracle::{AnyOutput, Oracle};
use crate::raw::RawDecoder;
use crate::trial::OriginalEnd;
use crate::trial::RunGuard;
use crate::trial::{Executor, judge, render_bounded};

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

/// Called with an input's name, the original's panic message and its location.
pub type OriginalPanicHook<'a> = &'a mut dyn FnMut(&str, &str, Option<&str>);

/// What scoring a generated target adds (the harness's `score` command); the default adds nothing.
#[derive(Default)]
pub struct ScoreHooks<'a> {
    /// Called with the name, message and location of each input on which the original
    /// panics. Every input's original then runs, even once every mutant is decided, so
    /// that each is seen.
    pub original_panic: Option<OriginalPanicHook<'a>>,
    /// When set, a target whose original returns two different outputs on the first
    /// input is judged by panics and runaways only ([`AnyOutput`]) instead of ending the
    /// score; this is called once with what was found.
    pub nondeterministic: Option<&'a mut dyn FnMut(&NondeterministicRecord)>,
    /// When set, each mutant's first run happens in this worker process (its first
    /// worker) instead of this one, as `fuzz --isolate first-runs` does: a mutant that
    /// aborts, overflows its stack or hangs there is killed by `crash` or `timeout`
    /// without ending the scoring process, which would have to start again and run every
    /// input's original up to where it was. Inputs must be choice sequences (not `raw`).
    pub first_runs: Option<&'a mut Workers>,
}

/// How a corpus is scored: what [`score`] needs beside the target and its inputs.
#[derive(Clone, Copy, Debug)]
pub struct ScoreSetup<'a> {
    /// The generation limits the inputs are replayed under.
    pub limits: Limits,
    /// Each mutant run's fuel and depth, relative to the original's on the input.
    pub budget: Budget,
    /// Which undecided mutants of the sites an input reaches run on it: under
    /// [`Prune::Infection`] a mutant whose site has a probe runs only on the inputs whose
    /// original run infected it (on the others it behaves as the original does).
    pub prune: Prune,
    /// Processes that share an input's runs: this one and `jobs - 1` of the
    /// [`ScoreHooks::first_runs`] workers (at most that many), each mutant's share
    /// chosen from the list alone, so the verdicts are the same whatever it is (the
    /// workers check for drift after each batch; a share that drifted runs again here).
    pub jobs: usize,
    /// Where a drift is kept while a clean process settles it; `None`: no drift check.
    pub drift: Option<&'a Path>,
    /// The progress log ([`score_progress_log`](mutfuzz_contract::score_progress_log)):
    /// the inputs done, on which a restarted process runs no mutant again; `None`: none kept.
    pub progress: Option<&'a Path>,
}

/// Score `inputs` (name, bytes) against every mutant not in `done`: each input's
/// original run once, then each undecided mutant whose site it reaches and that
/// `setup.prune` runs there. `line` receives each verdict as it is decided (an input's
/// kills once the drift check after them passed, survivors and uncovered at the end). A
/// mutant reached but never run (never infected) survives: it is covered.
///
/// Drift (see [`crate::drift`]): the first input's original result is the sentinel,
/// checked after each kill and after each input's mutants. A drift writes `drift` and ends scoring with
/// the error's words (that input's kills unsaid); the next process, clean, first finds
/// the mutant that causes it, says its verdict (its own kill on that input, else
/// `crash`), and ends again: its process has drifted too.
///
/// Progress: once an input's kills are said, the progress log records it. A process
/// started again (after a drift, or a crash that killed the mutant running) replays the
/// originals of the inputs up to the last one recorded, for what they cover, and runs
/// mutants from the input after it: those undecided survived every input before.
/// With `raw`, inputs are files in cargo-fuzz's format, each one the decoder accepts.
#[allow(clippy::too_many_arguments)]
pub fn score<T: Gen + Debug, O: Debug>(
    hooks: ScoreHooks<'_>,
    target: impl Fn(T) -> O + 'static,
    oracle: &dyn Oracle<O>,
    mutants: &[MutantInfo],
    inputs: &[(String, Vec<u8>)],
    done: &HashSet<u32>,
    setup: ScoreSetup<'_>,
    raw: Option<RawDecoder<T>>,
    mut line: impl FnMut(&ScoreLine),
    mut events: impl FnMut(ScoreEvent<'_>),
) -> Result<(), ScoreStop> {
    let _guard = RunGuard::start();
    let ScoreHooks { mut original_panic, mut nondeterministic, mut first_runs } = hooks;
    let ScoreSetup { limits, budget, prune, jobs, drift, progress: progress_path } = setup;
    if raw.is_some() {
        first_runs = None;
    }
    let jobs = first_runs.as_ref().map_or(1, |w| jobs.clamp(1, w.len() + 1));
    let mut oracle = oracle;
    let mut exec = Executor::new(Box::new(target), limits);
    if let Some(decode) = raw {
        exec = exec.with_raw(decode);
    }
    // The run-time's tables are indexed by site id (hits) and by mutant id (infection
    // marks): sized by sites only, a probed mutant past the last site id would never be
    // marked infected, and pruning would never run it.
    let table = mutants.iter().map(|m| m.id.max(m.site) as usize + 1).max().unwrap_or(1).max(1024);
    if let Some(path) = drift {
        settle(&mut exec, oracle, inputs, done, table, budget, path, &mut line, &mut events)?;
    }
    let (mut progress, resume) = match progress_path {
        Some(path) => {
            let (log, resume) = open_progress(path, inputs, done.len()).map_err(ScoreStop::file)?;
            (Some(log), resume)
        }
        None => (None, None),
    };
    let mut decided = done.len();
    let mut open: Vec<MutantInfo> = mutants.iter().copied().filter(|m| !done.contains(&m.id)).collect();
    // Mutants some input reached (covered), and those that ran at least once.
    let mut covered: HashSet<u32> = HashSet::new();
    let mut run_before: HashSet<u32> = HashSet::new();
    // The open mutants the current input reaches and the pruning rule runs on it.
    let mut selected: HashSet<u32> = HashSet::new();
    let mut sentinel: Option<Sentinel<O>> = None;
    let mut kills: Vec<ScoreLine> = Vec::new();
    let mut ran: Vec<u32> = Vec::new();
    let mut drifted: Option<(String, String)> = None;
    // The mutants a worker ran on the current input and found surviving.
    let mut survived_first: HashSet<u32> = HashSet::new();
    // The mutants whose first run, in the worker, is on the current input.
    let mut first_now: HashSet<u32> = HashSet::new();
    // The mutants of the current input that the other workers run (`jobs` > 1).
    let mut away: HashSet<u32> = HashSet::new();
    // Their ids, by worker.
    let mut shares: Vec<Vec<u32>> = vec![Vec::new(); jobs - 1];
    for (position, (name, bytes)) in inputs.iter().enumerate() {
        if open.is_empty() && original_panic.is_none() {
            break;
        }
        events(ScoreEvent::Input(name));
        let value = exec.regenerate(bytes);
        let original = exec.run_original(value, table, oracle);
        // An input done before a restart: its original only, for what it covers.
        let replayed = resume.is_some_and(|r| position <= r);
        // Read now, while the infection marks are this recording run's.
        selected.clear();
        for m in &open {
            if original.hits.binary_search(&m.site).is_ok() {
                covered.insert(m.id);
                let runs = prune == Prune::Execution || !m.probe || mutfuzz_rt::infected(m.id);
                if runs && !replayed {
                    selected.insert(m.id);
                }
            }
        }
        if let (Some(hook), OriginalEnd::Panicked { message, location }) =
            (&mut original_panic, &original.end)
        {
            hook(name, message, location.as_deref());
        }
        if drift.is_some() && sentinel.is_none() {
            let s = Sentinel::take(&mut exec, bytes, oracle);
            let both_returned = matches!(
                (&s.end, &original.end),
                (OriginalEnd::Returned { .. }, OriginalEnd::Returned { .. })
            );
            if let Some(tell) = &mut nondeterministic
                && both_returned
                && !s.end.agrees_with(&original.end, oracle)
            {
                tell(&NondeterministicRecord {
                    input: name.clone(),
                    first: original.end.render_bounded(RENDER_LIMIT),
                    second: s.end.render_bounded(RENDER_LIMIT),
                });
                oracle = &AnyOutput;
                if let Some(w) = &mut first_runs {
                    w.judge_any_output();
                }
            }
            if !s.end.agrees_with(&original.end, oracle) {
                return Err(ScoreStop::Error(format!(
                    "the target is nondeterministic: input {name} gave `{}` and then `{}`; mutants \
                     cannot be judged against it (look for HashMap order, time, addresses or global \
                     state in the output)",
                    original.end.render(),
                    s.end.render()
                )));
            }
            sentinel = Some(s);
        }
        if replayed {
            continue;
        }
        let (fuel, depth) = budget.limits(original.fuel, original.depth);
        survived_first.clear();
        first_now.clear();
        away.clear();
        shares.iter_mut().for_each(Vec::clear);
        let mut ended: Vec<(u32, KillKind)> = Vec::new();
        if let Some(workers) = &mut first_runs {
            first_now.extend(
                open.iter().filter(|m| selected.contains(&m.id) && !run_before.contains(&m.id)).map(|m| m.id),
            );
            let first: Vec<u32> = open.iter().map(|m| m.id).filter(|id| first_now.contains(id)).collect();
            workers.start(0, bytes, fuel, depth, &first);
            let drifted = workers.finish(0, bytes, fuel, depth, &mut |id, verdict| {
                // Another kill runs again here anyway: it is neither ended nor survived.
                worker_verdict(id, verdict, &mut ended, &mut survived_first);
            });
            if drifted {
                // One of them changed global state, and a kill may have been answered as
                // survived: all but the crashes run again here, where the drift check
                // after this input finds and settles it.
                survived_first.clear();
            }
            run_before.extend(first);
            // The other runs shared: position p goes to process p mod jobs (0: this
            // one, w + 1: worker w), a choice that depends on nothing but the list.
            if jobs > 1 {
                let shared = open
                    .iter()
                    .map(|m| m.id)
                    .filter(|id| selected.contains(id) && !first_now.contains(id))
                    .enumerate();
                for (p, id) in shared.filter(|(p, _)| p % jobs != 0) {
                    shares[p % jobs - 1].push(id);
                    away.insert(id);
                }
                for (w, ids) in shares.iter().enumerate() {
                    workers.start(w, bytes, fuel, depth, ids);
                }
            }
        }
        let mut run_here = |m: &MutantInfo| -> bool {
            if drifted.is_some() {
                return true;
            }
            run_before.insert(m.id);
            events(ScoreEvent::Mutant(m.id));
            ran.push(m.id);
            let end = exec.run_mutant(m.id, bytes, fuel, depth);
            match judge(oracle, &original.end, &end) {
                Some((kind, _)) => {
                    // What the report shows beside the kill; a timeout's story is its limit.
                    let (original_output, mutant_output) = if kind == KillKind::Timeout {
                        (None, None)
                    } else {
                        (
                            Some(original.end.render_bounded(RENDER_LIMIT)),
                            Some(end.render_bounded(RENDER_LIMIT)),
                        )
                    };
                    let value = exec.regenerate(bytes);
                    kills.push(ScoreLine {
                        mutant: m.id,
                        outcome: ScoreOutcome::Killed,
                        kind: Some(kind),
                        input: Some(name.clone()),
                        input_value: Some(render_bounded(format_args!("{value:?}"), RENDER_LIMIT)),
                        original_output,
                        mutant_output,
                    });
                    // A kill is what drift fakes: check at once, before the next mutant.
                    if let Some(s) = &sentinel {
                        drifted = s.drifted(&mut exec, oracle);
                    }
                    false
                }
                None => true,
            }
        };
        open.retain(|m| {
            let elsewhere = !selected.contains(&m.id)
                || survived_first.contains(&m.id)
                || away.contains(&m.id)
                || ended.iter().any(|&(id, _)| id == m.id);
            elsewhere || run_here(m)
        });
        if let Some(workers) = first_runs.as_mut().filter(|_| !away.is_empty()) {
            // A worker's other kills run again here, for the outputs beside them.
            let mut again = HashSet::new();
            for (w, share) in shares.iter().enumerate() {
                let drifted = workers.finish(w, bytes, fuel, depth, &mut |id, verdict| {
                    if worker_verdict(id, verdict, &mut ended, &mut survived_first) {
                        again.insert(id);
                    }
                });
                if drifted {
                    // One of its mutants changed global state (a kill may have been answered
                    // as survived): its share runs here, where the drift check after this
                    // input finds and settles it as alone.
                    again.extend(share.iter().filter(|id| !ended.iter().any(|(e, _)| e == *id)));
                }
            }
            open.retain(|m| !again.contains(&m.id) || run_here(m));
        }
        if !ended.is_empty() {
            let value = exec.regenerate(bytes);
            let value = render_bounded(format_args!("{value:?}"), RENDER_LIMIT);
            for &(id, kind) in &ended {
                kills.push(ScoreLine {
                    mutant: id,
                    outcome: ScoreOutcome::Killed,
                    kind: Some(kind),
                    input: Some(name.clone()),
                    input_value: Some(value.clone()),
                    original_output: None,
                    mutant_output: None,
                });
            }
            open.retain(|m| !ended.iter().any(|&(id, _)| id == m.id));
        }
        mutfuzz_rt::set_limits(u64::MAX, usize::MAX);
        if let (Some(path), Some(s)) = (drift, &sentinel)
            && !ran.is_empty()
            && let Some((recorded, now)) = drifted.take().or_else(|| s.drifted(&mut exec, oracle))
        {
            let record =
                DriftRecord { suspects: ran, input: encode_hex(bytes), sentinel: encode_hex(&s.bytes) };
            write_drift(path, Some(&record)).map_err(ScoreStop::file)?;
            let ids: Vec<String> = record.suspects.iter().map(u32::to_string).collect();
            return Err(ScoreStop::Drift(format!(
                "global state drifted: after mutants {} ran, the original gave `{now}` where it gave \
                 `{recorded}` before; the process must restart clean",
                ids.join(", ")
            )));
        }
        ran.clear();
        for k in kills.drain(..) {
            line(&k);
            decided += 1;
        }
        if let Some(log) = &mut progress {
            log.append(&ScoreProgressRecord { input: name.clone(), decided }).map_err(ScoreStop::file)?;
        }
    }
    for m in open {
        let outcome = if covered.contains(&m.id) { ScoreOutcome::Survived } else { ScoreOutcome::NotCovered };
        line(&ScoreLine {
            mutant: m.id,
            outcome,
            kind: None,
            input: None,
            input_value: None,
            original_output: None,
            mutant_output: None,
        });
    }
    // Every mutant is decided: nothing is left to resume.
    if let (Some(log), Some(path)) = (progress.take(), progress_path) {
        drop(log);
        std::fs::remove_file(path).map_err(|e| ScoreStop::file(mutfuzz_contract::FileError::io(path, e)))?;
    }
    Ok(())
}

/// Notes a worker's verdict on mutant `id`: a crash or timeout, which only the worker
/// could see, is `ended`; a survivor is noted as such. Returns whether it is another
/// kill, which runs again here for the outputs beside it.
fn worker_verdict(
    id: u32,
    verdict: crate::trial::Verdict,
    ended: &mut Vec<(u32, KillKind)>,
    survived: &mut HashSet<u32>,
) -> bool {
    match verdict {
        None => {
            survived.insert(id);
            false
        }
        Some((kind @ (KillKind::Crash | KillKind::Timeout), _)) => {
            ended.push((id, kind));
            false
        }
        Some(_) => true,
    }
}

/// Opens the progress log at `path` for appending, and reads where an earlier process of
/// this score got to: the position in `inputs` of the last input it recorded. A log
/// written when more mutants were decided than the `decided` now known belongs to
/// another score, and is ignored.
fn open_progress(
    path: &Path,
    inputs: &[(String, Vec<u8>)],
    decided: usize,
) -> Result<(JsonlWriter, Option<usize>), mutfuzz_contract::FileError> {
    // Opening first cuts off a line a killed process left incomplete.
    let (log, _) = JsonlWriter::open(path)?;
    let records = read_jsonl::<ScoreProgressRecord>(path)?.records;
    let resume = records
        .last()
        .filter(|r| r.decided <= decided)
        .and_then(|r| inputs.iter().position(|(name, _)| *name == r.input));
    Ok((log, resume))
}

/// Settles the drift recorded in `path`, if any (see [`score`]).
#[allow(clippy::too_many_arguments)]
fn settle<T: Gen, O: Debug>(
    exec: &mut Executor<T, O>,
    oracle: &dyn Oracle<O>,
    inputs: &[(String, Vec<u8>)],
    done: &HashSet<u32>,
    n_ids: usize,
    budget: Budget,
    path: &Path,
    line: &mut impl FnMut(&ScoreLine),
    events: &mut impl FnMut(ScoreEvent<'_>),
) -> Result<(), ScoreStop> {
    let Some(mut record) = read_drift(path).map_err(ScoreStop::file)? else {
        return write_drift(path, None).map_err(ScoreStop::file);
    };
    // Mutants decided since (by a crash the supervisor recorded) are no suspects.
    record.suspects.retain(|id| !done.contains(id));
    let name = decode_hex(&record.input).and_then(|b| inputs.iter().find(|(_, i)| *i == b)).map(|(n, _)| n);
    let Some(name) = name else { return write_drift(path, None).map_err(ScoreStop::file) };
    events(ScoreEvent::Input(name));
    let cause = find_cause(exec, oracle, &record, n_ids, budget, &mut |id| events(ScoreEvent::Mutant(id)));
    let Some(cause) = cause else { return write_drift(path, None).map_err(ScoreStop::file) };
    let kind = cause.verdict.map_or(KillKind::Crash, |(kind, _)| kind);
    line(&ScoreLine {
        mutant: cause.mutant,
        outcome: ScoreOutcome::Killed,
        kind: Some(kind),
        input: Some(name.clone()),
        // The original's result changed, not the output on this input: nothing to set side by side.
        input_value: None,
        original_output: None,
        mutant_output: None,
    });
    let rest = DriftRecord { suspects: record.suspects[cause.position + 1..].to_vec(), ..record };
    write_drift(path, Some(&rest)).map_err(ScoreStop::file)?;
    let (recorded, now) = cause.results;
    Err(ScoreStop::Drift(format!(
        "global state drifted: mutant {} changes it (the original gave `{now}` where it gave `{recorded}`); \
         killed by {kind}; the process must restart clean",
        cause.mutant
    )))
}

/// Why scoring stopped before the end.
#[derive(Debug)]
pub enum ScoreStop {
    /// Global state drifted: a clean process must go on (see [`crate::drift`]).
    Drift(String),
    /// It cannot go on: a nondeterministic target, a file that cannot be written.
    Error(String),
}

impl ScoreStop {
    fn file(e: mutfuzz_contract::FileError) -> ScoreStop {
        ScoreStop::Error(e.to_string())
    }
}

impl std::fmt::Display for ScoreStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScoreStop::Drift(m) | ScoreStop::Error(m) => f.write_str(m),
        }
    }
}
