//! The harness's `score` command: every stored input's original once and each undecided
//! mutant whose site it reaches (and, under infection pruning, that it infects), one
//! `score.jsonl` line per decided mutant.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::time::Duration;

use mutfuzz_contract::command::ScoreRequest;
use mutfuzz_contract::{
    CampaignDir, ContractPanicRecord, EXIT_DRIFT, EXIT_SUCCESS, FileError, JsonlWriter, Line,
    NondeterministicRecord, ScoreLine, Stats, read_jsonl, score_contract_panic_log, score_progress_log,
};

use super::{oracle_for, protocol, read_corpus, report, targets};
use crate::error::HarnessError;
use crate::r#gen::Gen;
use crate::input::Limits;
use crate::mutants::MutantInfo;
use crate::oracle::{AnyOutput, Judging};
use crate::raw::RawDecoder;
use crate::score::{SCORE_BUDGET, ScoreEvent, ScoreHooks, ScoreSetup, ScoreStop, score};
use crate::workers::Workers;

pub(super) fn score_corpus<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &ScoreRequest,
    target: fn(T) -> O,
    compare: Option<fn(&O, &O) -> bool>,
    raw: Option<RawDecoder<T>>,
    judging: Judging,
) -> Result<i32, HarnessError> {
    let (corpus, out) = (r.corpus.as_path(), r.out.as_path());
    let mut mutants = MutantInfo::load(&r.mutants)?;
    if let Some(targets) = targets(r.mutants_file.as_deref(), &mutants)? {
        // The others get no line: neither run nor counted.
        mutants.retain(|m| targets.contains(&m.id));
    }
    let mut inputs = read_corpus(corpus)?;
    if let Some(decode) = raw {
        // As cargo-fuzz's `fuzz_target!` does, the target never sees a rejected file.
        let before = inputs.len();
        inputs.retain(|(_, bytes)| decode(bytes).is_some());
        if inputs.len() < before {
            eprintln!(
                "{} of {before} files left out: `Arbitrary` rejects them (shorter than the type's \
                 size hint, or refused), so cargo-fuzz's target never runs on them",
                before - inputs.len()
            );
        }
    }
    // Mutants already decided by an earlier (interrupted) run are kept. Opening the
    // writer first cuts off a line a killed run left incomplete.
    let (mut file, _) = JsonlWriter::open(out)?;
    let done: HashSet<u32> = read_jsonl::<ScoreLine>(out)?.records.iter().map(|l| l.mutant).collect();
    let mut write_error = None;
    let mut oracle = oracle_for(compare);
    let drift = drift_path(out);
    // A generated target found nondeterministic (by `fuzz`, or a score before) keeps
    // being judged by panics and runaways only.
    let nondeterministic_file = r.state.as_ref().map(|s| CampaignDir::new(s).nondeterministic());
    if judging.generated
        && let Some(path) = &nondeterministic_file
        && let Some(record) = NondeterministicRecord::read(path)?
    {
        protocol(Line::Note(Cow::Owned(record.describe(&r.target))));
        oracle = Box::new(AnyOutput);
    }
    let mut found_nondeterministic = |record: &NondeterministicRecord| {
        protocol(Line::Note(Cow::Owned(record.describe(&r.target))));
        if let Some(path) = &nondeterministic_file {
            // Not saved, the next score judges strictly again and stops at once: say why.
            if let Err(e) = record.write(path) {
                eprintln!("warning: {e}");
            }
        }
    };
    // Panics by contract: one record per message (those of a run before this restart
    // kept), and every input counted in the `done` line.
    let mut contract = ContractPanics::open(&score_contract_panic_log(out))?;
    let mut original_panic = |name: &str, message: &str, location: Option<&str>| {
        if let Err(e) = contract.add(name, message, location) {
            write_error.get_or_insert(e);
        }
    };
    // First runs in a worker process: a mutant that aborts ends it, not this process.
    // With `--jobs N`, N - 1 workers also take their share of each input's other runs.
    let jobs = r.jobs.unwrap_or(1).clamp(1, 256) as usize;
    let mut workers = if raw.is_none() {
        // Each batch checked for drift, as this process checks each input.
        match Workers::of_harness_checking(jobs.saturating_sub(1).max(1), &r.target, &r.workers, true) {
            Ok(w) => Some(w.with_heartbeat(|| protocol(Line::Alive))),
            Err(e) => {
                eprintln!("warning: mutants run in this process only: {e}");
                None
            }
        }
    } else {
        None
    };
    let hooks = ScoreHooks {
        original_panic: if judging.panics_by_contract { Some(&mut original_panic) } else { None },
        nondeterministic: if judging.generated { Some(&mut found_nondeterministic) } else { None },
        first_runs: workers.as_mut(),
    };
    let mut line_error = None;
    let scored = score(
        hooks,
        target,
        &*oracle,
        &mutants,
        &inputs,
        &done,
        ScoreSetup {
            limits: Limits::default(),
            budget: SCORE_BUDGET,
            prune: r.prune,
            jobs,
            drift: Some(&drift),
            progress: Some(&score_progress_log(out)),
        },
        raw,
        |line| {
            if let Err(e) = file.append(line) {
                line_error.get_or_insert(e);
            }
        },
        |e| match e {
            ScoreEvent::Input(name) => protocol(Line::Input(Cow::Borrowed(name))),
            ScoreEvent::Mutant(id) => protocol(Line::Mutant(id)),
        },
    );
    if let Some(e) = line_error.or(write_error) {
        return Err(e.into());
    }
    match scored {
        Ok(()) => {
            // The end, said: exit code 0 alone could be a mutant's `process::exit(0)`.
            let stats = Stats { contract_panics: contract.inputs, ..Stats::default() };
            protocol(Line::Done(report(stats, Duration::ZERO)));
            Ok(EXIT_SUCCESS)
        }
        Err(ScoreStop::Drift(drifted)) => {
            eprintln!("error: {drifted}");
            // Nothing runs any more: the supervisor restarts a clean process, blaming nothing.
            protocol(Line::Stats(report(Stats::default(), Duration::ZERO)));
            Ok(EXIT_DRIFT)
        }
        Err(ScoreStop::Error(e)) => {
            protocol(Line::Stats(report(Stats::default(), Duration::ZERO)));
            Err(HarnessError::Invalid(e))
        }
    }
}

/// The panics by contract of a score: `score.jsonl.contract-panics.jsonl`, one record per
/// distinct message, and the inputs counted.
struct ContractPanics {
    path: PathBuf,
    writer: Option<JsonlWriter>,
    messages: HashSet<String>,
    inputs: u64,
}

impl ContractPanics {
    fn open(path: &Path) -> Result<ContractPanics, HarnessError> {
        let records = read_jsonl::<ContractPanicRecord>(path)?;
        let messages = records.records.into_iter().map(|r| r.message).collect();
        Ok(ContractPanics { path: path.to_owned(), writer: None, messages, inputs: 0 })
    }

    fn add(&mut self, name: &str, message: &str, location: Option<&str>) -> Result<(), FileError> {
        self.inputs += 1;
        if self.messages.contains(message) {
            return Ok(());
        }
        let writer = match &mut self.writer {
            Some(w) => w,
            slot => slot.insert(JsonlWriter::open(&self.path)?.0),
        };
        let record = ContractPanicRecord {
            input: name.to_owned(),
            message: message.to_owned(),
            location: location.map(str::to_owned),
        };
        writer.append(&record)?;
        self.messages.insert(message.to_owned());
        Ok(())
    }
}

/// Where `score` keeps a pending drift: beside its output, `<out>.drift.json`.
fn drift_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".drift.json");
    out.with_file_name(name)
}
