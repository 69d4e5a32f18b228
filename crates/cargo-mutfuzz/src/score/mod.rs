//! The score of a corpus: scoring it with the harness's `score` command under
//! supervision (a crash or hang kills the mutant running, which is recorded and the
//! harness restarted; it resumes after the mutants already scored), and one target's
//! `score.json` made from it (the model is `report::score_file`).

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use mutfuzz_contract::command::{HarnessCommand, InputFormat, ScoreRequest, WorkerLimits};
use mutfuzz_contract::{
    KillKind, Line, Prune, ScoreLine, ScoreOutcome, append_record, read_jsonl, write_atomic,
};

use crate::catalog::selection::Selection;
use crate::console::exit_code;
use crate::fuzzing::harness::Built;
use crate::fuzzing::records;
use crate::fuzzing::supervision::{Observe, Until, Watch, supervise_until_done};
use crate::fuzzing::{count_files, warn_skipped_inputs};
use crate::process::supervise::{Ending, Supervised};
use crate::report::score_file::{FuzzOutcome, MutantScore, ScoreFile, Table};

/// Follows one harness process's `score` output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScoreTracker {
    /// The mutant being scored.
    pub mutant: Option<u32>,
    /// The stored input running on it.
    pub input: Option<String>,
    /// Inputs started by this harness process.
    pub inputs: u64,
    /// Mutant runs started by this harness process (a mutant runs on many inputs).
    pub mutant_runs: u64,
    /// Whether it said it scored everything (`done`).
    pub done: bool,
    /// Inputs on which a generated target's original panicked, by contract (from `done`).
    pub contract_panics: u64,
    /// `note` lines not shown yet.
    pub notes: Vec<String>,
}

impl Observe for ScoreTracker {
    fn observe(&mut self, line: Line<'static>) {
        // The harness runs each stored input's original, then the undecided mutants
        // whose site it reaches: `input` starts an original run, `mutant` a mutant run.
        match line {
            Line::Mutant(id) => {
                self.mutant = Some(id);
                self.mutant_runs += 1;
            }
            Line::Input(name) => {
                self.input = Some(name.into_owned());
                self.inputs += 1;
                self.mutant = None;
            }
            // A harness that stops (a drift) says so first: nothing runs any more; nor does
            // one whose engine or generator panicked outside a run.
            Line::Stats(_) | Line::Engine => self.mutant = None,
            Line::Done(r) => {
                self.mutant = None;
                self.done = true;
                self.contract_panics = r.stats.contract_panics;
            }
            Line::Note(text) => self.notes.push(text.into_owned()),
            _ => {}
        }
    }
}

/// What a score watches in its harness's `score` output: the input and mutant running,
/// for the progress line and for blaming a death on the mutant.
struct ScoreWatch<'a> {
    built: &'a Built,
    corpus: &'a Path,
    /// `score.jsonl`.
    out: &'a Path,
    command: HarnessCommand,
    /// Stored inputs in the corpus.
    inputs: usize,
    /// Viable mutants scored.
    viable: usize,
    /// Verdicts already written when the running process started (after a restart).
    decided_before: usize,
    last_note: Instant,
    /// Inputs on which a generated target's original panicked by contract, by the last process.
    contract_inputs: u64,
}

impl ScoreWatch<'_> {
    fn show_notes(&mut self, notes: &[String]) {
        // A note (a nondeterministic target) is said once, however many restarts.
        for note in notes {
            if crate::console::first_time(note) {
                eprintln!("{note}");
            }
        }
    }
}

impl Watch for ScoreWatch<'_> {
    type Tracker = ScoreTracker;
    const REFUSED: &'static str = "the harness refused to score";
    const PROGRESS: &'static str = "scoring a mutant";

    fn next(&mut self, _restarts: u32) -> Result<Option<std::process::Command>> {
        self.decided_before = records::read::<ScoreLine>(self.out)?.len();
        // The harness reads the corpus, and writes the score lines and the files beside
        // them: a corpus in a directory that holds those (`eval`'s) cannot be kept apart.
        let beside = self.out.parent().is_some_and(|dir| self.corpus.starts_with(dir));
        let read_only: &[&Path] = if beside { &[] } else { &[self.corpus] };
        self.built.sandboxed_command(&self.command, read_only).map(Some)
    }

    fn tick(&mut self, t: &mut ScoreTracker) {
        let notes = std::mem::take(&mut t.notes);
        self.show_notes(&notes);
        if self.last_note.elapsed() >= Duration::from_secs(5) {
            // Kills are written as they are found; survivors only at the end.
            // Quietly: a line being appended right now may look torn.
            let decided = read_jsonl::<ScoreLine>(self.out).map_or(self.decided_before, |l| l.records.len());
            eprintln!(
                "scoring: input {} of {}, {} mutant runs in the harness; {decided} of {} mutants decided",
                t.inputs, self.inputs, t.mutant_runs, self.viable
            );
            self.last_note = Instant::now();
        }
    }

    fn ended(&mut self, t: &ScoreTracker, _run: &Supervised) -> Result<()> {
        self.show_notes(&t.notes);
        // The process that ends ran every input's original: its count is whole.
        self.contract_inputs = t.contract_panics;
        Ok(())
    }

    fn finished(&self, t: &ScoreTracker) -> bool {
        // Exit code 0 without `done` is a mutant's `process::exit(0)`: a crash.
        t.done
    }

    fn idle(&self, t: &ScoreTracker) -> bool {
        t.mutant.is_none()
    }

    fn no_mutant(&self, t: &ScoreTracker) -> bool {
        t.mutant.is_none()
    }

    fn drifted(&mut self, _t: &ScoreTracker) -> Result<bool> {
        Ok(records::read::<ScoreLine>(self.out)?.len() > self.decided_before)
    }

    fn blame(&mut self, t: &ScoreTracker, run: &Supervised) -> Result<(bool, String)> {
        let how = run.ending.describe();
        let recorded = match t.mutant {
            Some(id) if !records::read::<ScoreLine>(self.out)?.iter().any(|l| l.mutant == id) => {
                let kind =
                    if matches!(run.ending, Ending::Hung(_)) { KillKind::Timeout } else { KillKind::Crash };
                let line = ScoreLine {
                    mutant: id,
                    outcome: ScoreOutcome::Killed,
                    kind: Some(kind),
                    input: t.input.clone(),
                    input_value: None,
                    original_output: None,
                    mutant_output: None,
                };
                append_record(self.out, &line)?;
                eprintln!("mutant {id} killed by {kind} ({how}); restarting the harness");
                true
            }
            _ => false,
        };
        Ok((recorded, how))
    }

    fn say(&mut self, message: &str) {
        eprintln!("{message}");
    }
}

/// A corpus scored: every mutant's verdict, and the table.
pub struct Scored {
    /// Each viable mutant's verdict, by id.
    pub verdicts: HashMap<u32, ScoreLine>,
    /// The counts (unviable mutants included).
    pub table: Table,
    /// Inputs on which a generated target's original panicked (by contract), and the
    /// distinct messages.
    pub contract_panics: (u64, usize),
}

impl Scored {
    /// The score of one target's corpus: every selected mutant of the catalog with its
    /// outcome (a viable mutant's from these verdicts, else unviable), in catalog order.
    pub fn score_file(
        &self,
        built: &Built,
        target: &str,
        corpus: &Path,
        selection: &Selection,
        seconds: f64,
    ) -> ScoreFile {
        let mut mutants = Vec::new();
        for (i, m) in built.discovery.mutants.iter().enumerate() {
            if !selection.selected(i) {
                continue;
            }
            let mut score = MutantScore {
                id: m.id,
                name: m.name(),
                outcome: FuzzOutcome::Unviable,
                kind: None,
                input: None,
                input_value: None,
                original_output: None,
                mutant_output: None,
                target: None,
            };
            if let Some(l) = self.verdicts.get(&m.id).filter(|_| !built.unviable.contains_key(&m.id)) {
                score.outcome = l.outcome.into();
                score.kind = l.kind;
                score.input = l.input.clone();
                score.input_value = l.input_value.clone();
                score.original_output = l.original_output.clone();
                score.mutant_output = l.mutant_output.clone();
            }
            mutants.push(score);
        }
        ScoreFile {
            target: target.to_owned(),
            corpus: corpus.to_owned(),
            inputs: count_files(corpus),
            seconds,
            summary: self.table.clone(),
            score_percent: self.table.score_percent(),
            shard: selection.shard,
            mutants,
            targets: None,
        }
    }
}

/// The line that lists a generated target's panics by contract apart from failures, or
/// `None` when there were none (`fuzz` and `score` print it).
pub fn contract_panics_line(inputs: u64, messages: usize) -> Option<String> {
    (inputs > 0 || messages > 0).then(|| {
        format!(
            "Panics by contract (generated targets): {inputs} input{}, {messages} message{}; \
             --panic-is-failure makes them failures",
            if inputs == 1 { "" } else { "s" },
            if messages == 1 { "" } else { "s" }
        )
    })
}

/// What a score covers and how its corpus is read.
pub struct ScoreHow<'a> {
    /// The mutants scored; the others are left out of the table.
    pub selection: &'a Selection,
    /// Choice sequences, or cargo-fuzz's raw bytes.
    pub format: InputFormat,
    /// The campaign's state directory: a generated target found nondeterministic there is
    /// judged by panics and runaways only, and one found so while scoring is kept there.
    pub state: &'a Path,
    /// A generated target's original panics are not listed apart (`--panic-is-failure`).
    pub panic_is_failure: bool,
    /// Which undecided mutants of the sites an input reaches run on it (`--prune`).
    pub prune: Prune,
    /// Processes that share an input's mutant runs (`--jobs`).
    pub jobs: u64,
}

/// Score the inputs in `corpus` against every viable mutant of a built harness, writing
/// the verdicts to `out` (`score.jsonl`) as they are decided. `None` when interrupted.
pub fn score_corpus(
    built: &Built,
    target: &str,
    corpus: &Path,
    out: &Path,
    hang: Duration,
    how: &ScoreHow<'_>,
) -> Result<Option<Scored>> {
    if !corpus.is_dir() {
        return Err(exit_code::usage(anyhow::anyhow!(
            "no corpus at {}: run `cargo mutfuzz fuzz {target}` first, or pass --corpus DIR",
            corpus.display(),
        )));
    }
    warn_skipped_inputs(corpus)?;
    let inputs = count_files(corpus);
    // A new score: the corpus may have changed since the last one.
    // …and a drift the harness was settling belongs to the last one.
    let mut drift = out.as_os_str().to_owned();
    drift.push(".drift.json");
    // …and so do the panics by contract it met, and how far it got.
    let contract_log = mutfuzz_contract::score_contract_panic_log(out);
    let progress = mutfuzz_contract::score_progress_log(out);
    for path in [out, Path::new(&drift), &contract_log, &progress] {
        if path.exists() {
            std::fs::remove_file(path).with_context(|| format!("failed to remove {}", path.display()))?;
        }
    }
    let selection = how.selection;
    let viable = built
        .discovery
        .mutants
        .iter()
        .enumerate()
        .filter(|(i, m)| selection.selected(*i) && !built.unviable.contains_key(&m.id))
        .count();
    let format =
        if how.format == InputFormat::Mutfuzz { String::new() } else { format!(" (format {})", how.format) };
    eprintln!(
        "Scoring {} on {} from {}{format}",
        crate::console::count(viable, "viable mutant"),
        crate::console::count(inputs, "input"),
        corpus.display()
    );
    let log = built.state.harness_log();
    let viable_catalog = if selection.is_all() {
        built.state.viable()
    } else {
        // The harness scores the mutants of the catalog it is given.
        let path = built.state.path().join("viable-selected.json");
        let picked: Vec<&mutfuzz_mutate::Mutant> = built
            .discovery
            .mutants
            .iter()
            .enumerate()
            .filter(|(i, m)| selection.selected(*i) && !built.unviable.contains_key(&m.id))
            .map(|(_, m)| m)
            .collect();
        write_atomic(&path, (serde_json::to_string_pretty(&picked)? + "\n").as_bytes())?;
        path
    };
    std::fs::create_dir_all(how.state)
        .with_context(|| format!("failed to create {}", how.state.display()))?;
    let mut watch = ScoreWatch {
        built,
        corpus,
        out,
        command: HarnessCommand::Score(ScoreRequest {
            target: target.to_owned(),
            corpus: corpus.to_owned(),
            mutants: viable_catalog,
            out: out.to_owned(),
            mutants_file: None,
            state: Some(how.state.to_owned()),
            format: how.format,
            panic_is_failure: how.panic_is_failure,
            prune: how.prune,
            jobs: Some(how.jobs),
            workers: WorkerLimits {
                // Half the hang timeout: a stuck worker is ended, and its mutant killed by
                // timeout, before the harness, waiting for it, looks hung.
                timeout: Some(hang.as_secs_f64() / 2.0),
                max_output: Some(built.caps.output.unwrap_or(0)),
            },
        }),
        inputs,
        viable,
        decided_before: 0,
        last_note: Instant::now(),
        contract_inputs: 0,
    };
    if supervise_until_done(&mut watch, hang, &log, &built.caps)? == Until::Interrupted {
        return Ok(None);
    }
    let contract_inputs = watch.contract_inputs;

    let lines = records::read::<ScoreLine>(out)?;
    let mut verdicts: HashMap<u32, ScoreLine> = HashMap::new();
    for l in lines {
        verdicts.entry(l.mutant).or_insert(l);
    }
    let mut table = Table::default();
    let mut missing = Vec::new();
    for (i, m) in built.discovery.mutants.iter().enumerate() {
        if !selection.selected(i) {
            continue;
        }
        if built.unviable.contains_key(&m.id) {
            table.unviable += 1;
            table.total += 1;
        } else if let Some(l) = verdicts.get(&m.id) {
            table.count(l);
        } else {
            missing.push(m.id);
        }
    }
    if !missing.is_empty() {
        bail!(
            "the harness ended without scoring {} mutants (first: {}); see {}",
            missing.len(),
            missing[0],
            log.display()
        );
    }
    let messages = records::read::<mutfuzz_contract::ContractPanicRecord>(&contract_log)?.len();
    Ok(Some(Scored { verdicts, table, contract_panics: (contract_inputs, messages) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tracker_follows_mutants_and_inputs() {
        let mut t = ScoreTracker::default();
        for l in ["input aa", "mutant 3", "mutant 4"] {
            t.observe(Line::parse(l));
        }
        let tracker = |mutant, input: &str, inputs, mutant_runs, done| ScoreTracker {
            mutant,
            input: Some(input.into()),
            inputs,
            mutant_runs,
            done,
            contract_panics: 0,
            notes: Vec::new(),
        };
        assert_eq!(t, tracker(Some(4), "aa", 1, 2, false));
        // A new input: its original runs, no mutant is to blame yet.
        t.observe(Line::parse("input bb"));
        t.observe(Line::parse("mutant 3"));
        t.observe(Line::parse("input cc"));
        assert_eq!(t, tracker(None, "cc", 3, 3, false));
        // A stop (a drift) blames no mutant; only `done` is the end.
        t.observe(Line::parse("mutant 5"));
        t.observe(Line::Stats(Default::default()));
        assert_eq!(t, tracker(None, "cc", 3, 4, false));
        // So does one whose engine or generator panicked outside a run.
        t.observe(Line::parse("mutant 6"));
        t.observe(Line::parse("engine"));
        assert_eq!(t, tracker(None, "cc", 3, 5, false));
        t.observe(Line::parse("note target t is nondeterministic"));
        assert_eq!(t.notes, ["target t is nondeterministic"]);
        t.notes.clear();
        let stats = mutfuzz_contract::Stats { contract_panics: 3, ..Default::default() };
        t.observe(Line::Done(mutfuzz_contract::Report { elapsed: 0.0, stats }));
        assert_eq!(t, ScoreTracker { contract_panics: 3, ..tracker(None, "cc", 3, 5, true) });
    }

    #[test]
    fn panics_by_contract_make_one_line_only_when_there_are_some() {
        assert_eq!(contract_panics_line(0, 0), None);
        assert_eq!(
            contract_panics_line(3, 2).as_deref(),
            Some(
                "Panics by contract (generated targets): 3 inputs, 2 messages; --panic-is-failure makes them failures"
            )
        );
        assert!(contract_panics_line(1, 1).unwrap().contains(": 1 input, 1 message;"));
    }
}
