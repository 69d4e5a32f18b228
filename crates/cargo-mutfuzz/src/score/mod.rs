//! The score of a corpus: scoring it with the harness's `score` command under
//! supervision (a crash or hang kills the mutant running, which is recorded and the
//! harness restarted; it resumes after the mutants already scored), and the model of
//! `score.json` — one target's, or the combination of every target's (`score --all`),
//! in the one type [`ScoreFile`].

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use mutfuzz_contract::command::{HarnessCommand, InputFormat, ScoreRequest};
use mutfuzz_contract::{KillKind, Line, ScoreLine, ScoreOutcome, append_record, read_jsonl, write_atomic};
use serde::{Deserialize, Serialize};

use crate::catalog::selection::{Selection, Shard};
use crate::console::exit_code;
use crate::console::status::percent;
use crate::fuzzing::harness::Built;
use crate::fuzzing::records;
use crate::fuzzing::supervision::{Until, Watch, supervise_until_done};
use crate::fuzzing::{count_files, warn_skipped_inputs};
use crate::process::supervise::{Ending, Supervised};

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

impl ScoreTracker {
    /// Take in one line.
    pub fn observe(&mut self, line: Line<'static>) {
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
            // A harness that stops (a drift) says so first: nothing runs any more.
            Line::Stats(_) => self.mutant = None,
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
    notes_shown: HashSet<String>,
    /// Inputs on which a generated target's original panicked by contract, by the last process.
    contract_inputs: u64,
}

impl ScoreWatch<'_> {
    fn show_notes(&mut self, notes: &[String]) {
        // A note (a nondeterministic target) is said once, however many restarts.
        for note in notes {
            if self.notes_shown.insert(note.clone()) {
                eprintln!("{note}");
            }
        }
    }
}

impl Watch for ScoreWatch<'_> {
    type Tracker = ScoreTracker;
    const REFUSED: &'static str = "the harness refused to score";
    const PROGRESS: &'static str = "scoring a mutant";

    fn observe(tracker: &mut ScoreTracker, line: Line<'static>) {
        tracker.observe(line);
    }

    fn next(&mut self, _restarts: u32) -> Result<Option<std::process::Command>> {
        self.decided_before = records::read::<ScoreLine>(self.out)?.len();
        self.built.sandboxed_command(&self.command, &[self.corpus]).map(Some)
    }

    fn tick(&mut self, t: &mut ScoreTracker) {
        let notes = std::mem::take(&mut t.notes);
        self.show_notes(&notes);
        if self.last_note.elapsed() >= Duration::from_secs(5) {
            // Kills are written as they are found; survivors only at the end.
            // Quietly: a line being appended right now may look torn.
            let decided = read_jsonl::<ScoreLine>(self.out).map_or(self.decided_before, |l| l.records.len());
            eprintln!(
                "scoring: input {} of {}, {} mutant runs; {decided} of {} mutants decided",
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

/// The numbers of the score table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Killed because the output differed.
    pub output_differs: u64,
    /// Killed by a panic.
    pub panic: u64,
    /// Killed by running out of fuel, depth or wall time.
    pub timeout: u64,
    /// Killed by a crash of the process.
    pub crash: u64,
    /// Killed because it discarded an input the original accepted (or the reverse).
    pub discard: u64,
    /// Reached by some input, killed by none.
    pub survived: u64,
    /// No input reaches the site.
    pub not_covered: u64,
    /// Does not compile.
    pub unviable: u64,
    /// Every mutant.
    pub total: u64,
}

impl Table {
    /// Mutants killed, by any kind.
    pub fn killed(&self) -> u64 {
        self.output_differs + self.panic + self.timeout + self.crash + self.discard
    }

    /// Killed over viable mutants.
    pub fn score(&self) -> String {
        percent(self.killed(), self.total - self.unviable)
    }

    /// The score in percent (0 with no viable mutant, as `score.json` has it).
    pub fn score_percent(&self) -> f64 {
        let viable = self.total - self.unviable;
        if viable == 0 { 0.0 } else { self.killed() as f64 * 100.0 / viable as f64 }
    }

    /// Count one verdict (a valid line: a kill has its kind).
    pub fn count(&mut self, line: &ScoreLine) {
        *match (line.outcome, line.kind) {
            (ScoreOutcome::Killed, Some(KillKind::OutputDiffers)) => &mut self.output_differs,
            (ScoreOutcome::Killed, Some(KillKind::Panic)) => &mut self.panic,
            (ScoreOutcome::Killed, Some(KillKind::Timeout)) => &mut self.timeout,
            (ScoreOutcome::Killed, Some(KillKind::Crash)) => &mut self.crash,
            (ScoreOutcome::Killed, Some(KillKind::Discard)) => &mut self.discard,
            (ScoreOutcome::Killed, None) => unreachable!("score lines are checked when read"),
            (ScoreOutcome::Survived, _) => &mut self.survived,
            (ScoreOutcome::NotCovered, _) => &mut self.not_covered,
        } += 1;
        self.total += 1;
    }

    /// The table as printed.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let rows = [
            ("killed by output", self.output_differs),
            ("killed by panic", self.panic),
            ("killed by timeout", self.timeout),
            ("killed by crash", self.crash),
            ("killed by discard", self.discard),
            ("survived", self.survived),
            ("not covered", self.not_covered),
            ("unviable", self.unviable),
        ];
        for (what, n) in rows {
            let _ = writeln!(out, "{what:<20}{n:>6}");
        }
        let _ = writeln!(out, "{:<20}{:>6}", "total", self.total);
        let _ = writeln!(
            out,
            "score {} ({} killed of {} viable mutants)",
            self.score(),
            self.killed(),
            self.total - self.unviable
        );
        out
    }
}

/// A mutant's verdict in `score.json`: a scoring verdict, or `unviable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Some input kills it.
    Killed,
    /// Some input reaches it, none kills it.
    Survived,
    /// No input reaches its site.
    NotCovered,
    /// It does not compile.
    Unviable,
}

impl From<ScoreOutcome> for Verdict {
    fn from(o: ScoreOutcome) -> Verdict {
        match o {
            ScoreOutcome::Killed => Verdict::Killed,
            ScoreOutcome::Survived => Verdict::Survived,
            ScoreOutcome::NotCovered => Verdict::NotCovered,
        }
    }
}

/// One mutant in `score.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MutantScore {
    /// Its id.
    pub id: u32,
    /// Its name, as `cargo mutfuzz mutants` prints it.
    pub name: String,
    /// Its verdict.
    pub outcome: Verdict,
    /// How it was killed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<KillKind>,
    /// The stored input that killed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// The value that input generates, as the report shows it (`Debug`, bounded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_value: Option<String>,
    /// The original's output on it, for a kill the report sets side by side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_output: Option<String>,
    /// The mutant's output on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutant_output: Option<String>,
    /// In a combined score (`score --all`), the target whose corpus holds `input`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

impl MutantScore {
    /// The verdict as a score line (`None` for an unviable mutant, which has none).
    pub fn line(&self) -> Option<ScoreLine> {
        let outcome = match self.outcome {
            Verdict::Killed => ScoreOutcome::Killed,
            Verdict::Survived => ScoreOutcome::Survived,
            Verdict::NotCovered => ScoreOutcome::NotCovered,
            Verdict::Unviable => return None,
        };
        Some(ScoreLine {
            mutant: self.id,
            outcome,
            kind: self.kind,
            input: self.input.clone(),
            input_value: self.input_value.clone(),
            original_output: self.original_output.clone(),
            mutant_output: self.mutant_output.clone(),
        })
    }
}

/// `score.json`: a corpus's score (written by `score`, read back by `merge`), or the
/// combined score of every target (`score --all`, with `targets`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScoreFile {
    /// The fuzz target (`all` for a combined score).
    pub target: String,
    /// The corpus scored (for a combined score, the directory of the targets' corpora).
    pub corpus: std::path::PathBuf,
    /// Files in it.
    pub inputs: usize,
    /// Wall time (of a merged score: its longest shard's).
    pub seconds: f64,
    /// The counts.
    pub summary: Table,
    /// Killed over viable mutants, in percent.
    pub score_percent: f64,
    /// The part of the mutants this score covers (`--shard k/n`); absent for every mutant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Every mutant it covers, in catalog order.
    pub mutants: Vec<MutantScore>,
    /// A combined score's targets, each with its own counts, in the harness's order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targets: Option<Vec<TargetScore>>,
}

/// One target's part of a combined score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TargetScore {
    /// The target.
    pub target: String,
    /// Its corpus.
    pub corpus: std::path::PathBuf,
    /// Files in it.
    pub inputs: usize,
    /// Its counts, as its own `score.json` has them.
    pub summary: Table,
    /// Killed over viable mutants, in percent.
    pub score_percent: f64,
}

impl ScoreFile {
    /// The score of one target's corpus: every selected mutant of the catalog with its
    /// verdict (a viable mutant's from `scored`, else unviable), in catalog order.
    pub fn of_target(
        built: &Built,
        target: &str,
        corpus: &Path,
        selection: &Selection,
        scored: &Scored,
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
                outcome: Verdict::Unviable,
                kind: None,
                input: None,
                input_value: None,
                original_output: None,
                mutant_output: None,
                target: None,
            };
            if let Some(l) = scored.verdicts.get(&m.id).filter(|_| !built.unviable.contains_key(&m.id)) {
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
            summary: scored.table.clone(),
            score_percent: scored.table.score_percent(),
            shard: selection.shard,
            mutants,
            targets: None,
        }
    }

    /// The counts of a list of mutant verdicts.
    pub fn table_of(mutants: &[MutantScore]) -> Table {
        let mut table = Table::default();
        for m in mutants {
            match m.line() {
                Some(line) => table.count(&line),
                None => {
                    table.unviable += 1;
                    table.total += 1;
                }
            }
        }
        table
    }

    /// Every target's score combined (`score --all`): a mutant is killed if some
    /// target's corpus kills it (the first such target in `scores`' order gives the kind,
    /// the input and the outputs, and is named), survived if some corpus reaches it and
    /// none kills it, not covered if none reaches it. Each target's counts are kept in
    /// `targets`. The scores must be of the same mutants (one catalog, one selection).
    pub fn combine(scores: &[ScoreFile], corpus: &Path, seconds: f64) -> Result<ScoreFile> {
        let Some(first) = scores.first() else { bail!("no target was scored: nothing to combine") };
        for s in scores {
            let same = s.mutants.len() == first.mutants.len()
                && s.shard == first.shard
                && s.mutants.iter().zip(&first.mutants).all(|(a, b)| a.id == b.id);
            if !same {
                bail!(
                    "the scores of {} and {} are not of the same mutants: score every target again \
                     with one command (`cargo mutfuzz score --all`)",
                    first.target,
                    s.target
                );
            }
        }
        let rank = |v: Verdict| match v {
            Verdict::Killed => 3,
            Verdict::Survived => 2,
            Verdict::NotCovered => 1,
            Verdict::Unviable => 0,
        };
        let mut mutants = Vec::with_capacity(first.mutants.len());
        for (i, m) in first.mutants.iter().enumerate() {
            // The best verdict over the targets; the first target that has it.
            let (best, score) = scores
                .iter()
                .map(|s| (s, &s.mutants[i]))
                .fold(None, |best: Option<(&ScoreFile, &MutantScore)>, (s, m)| match best {
                    Some((_, b)) if rank(b.outcome) >= rank(m.outcome) => best,
                    _ => Some((s, m)),
                })
                .expect("at least one score");
            let mut combined = score.clone();
            combined.target = (combined.outcome == Verdict::Killed).then(|| best.target.clone());
            debug_assert_eq!(combined.id, m.id);
            mutants.push(combined);
        }
        let summary = ScoreFile::table_of(&mutants);
        Ok(ScoreFile {
            target: "all".to_owned(),
            corpus: corpus.to_owned(),
            inputs: scores.iter().map(|s| s.inputs).sum(),
            seconds,
            score_percent: summary.score_percent(),
            summary,
            shard: first.shard,
            mutants,
            targets: Some(
                scores
                    .iter()
                    .map(|s| TargetScore {
                        target: s.target.clone(),
                        corpus: s.corpus.clone(),
                        inputs: s.inputs,
                        summary: s.summary.clone(),
                        score_percent: s.score_percent,
                    })
                    .collect(),
            ),
        })
    }
}

impl Table {
    /// Add another table's counts (a shard's, to the others').
    pub fn add(&mut self, other: &Table) {
        self.output_differs += other.output_differs;
        self.panic += other.panic;
        self.timeout += other.timeout;
        self.crash += other.crash;
        self.discard += other.discard;
        self.survived += other.survived;
        self.not_covered += other.not_covered;
        self.unviable += other.unviable;
        self.total += other.total;
    }

    /// One line of counts: `40 killed, 3 survived, 5 not covered, 2 unviable (score 88.9%)`.
    pub fn line(&self) -> String {
        format!(
            "{} killed, {} survived, {} not covered, {} unviable (score {})",
            self.killed(),
            self.survived,
            self.not_covered,
            self.unviable,
            self.score()
        )
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

/// The exit code of a score with `--min-score`: below it [`exit_code::BELOW_MIN_SCORE`].
/// A score of no viable mutant passes (there is nothing to kill).
pub fn min_score_exit(table: &Table, min_score: Option<f64>) -> i32 {
    let Some(min) = min_score else { return exit_code::SUCCESS };
    let viable = table.total - table.unviable;
    let below = viable > 0 && table.score_percent() < min;
    eprintln!(
        "Mutation score {:.1}% (killed over viable mutants): {} --min-score {min}",
        table.score_percent(),
        if below { "below" } else { "at or above" }
    );
    if below { exit_code::BELOW_MIN_SCORE } else { exit_code::SUCCESS }
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
    // …and so do the panics by contract it met.
    let contract_log = mutfuzz_contract::score_contract_panic_log(out);
    for path in [out, Path::new(&drift), &contract_log] {
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
    eprintln!("Scoring {viable} viable mutants on {inputs} inputs from {}{format}", corpus.display());
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
        }),
        inputs,
        viable,
        decided_before: 0,
        last_note: Instant::now(),
        notes_shown: HashSet::new(),
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
        t.observe(Line::parse("note target t is nondeterministic"));
        assert_eq!(t.notes, ["target t is nondeterministic"]);
        t.notes.clear();
        let stats = mutfuzz_contract::Stats { contract_panics: 3, ..Default::default() };
        t.observe(Line::Done(mutfuzz_contract::Report { elapsed: 0.0, stats }));
        assert_eq!(t, ScoreTracker { contract_panics: 3, ..tracker(None, "cc", 3, 4, true) });
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

    fn mutant(id: u32, outcome: Verdict, input: Option<&str>) -> MutantScore {
        MutantScore {
            id,
            name: format!("m{id}"),
            outcome,
            kind: (outcome == Verdict::Killed).then_some(KillKind::OutputDiffers),
            input: input.map(str::to_owned),
            input_value: None,
            original_output: None,
            mutant_output: None,
            target: None,
        }
    }

    fn target_score(target: &str, inputs: usize, mutants: Vec<MutantScore>) -> ScoreFile {
        let summary = ScoreFile::table_of(&mutants);
        ScoreFile {
            target: target.to_owned(),
            corpus: format!("corpus/{target}").into(),
            inputs,
            seconds: 1.0,
            score_percent: summary.score_percent(),
            summary,
            shard: None,
            mutants,
            targets: None,
        }
    }

    #[test]
    fn a_combined_score_kills_what_any_target_kills_and_keeps_each_target_s_counts() {
        use Verdict::*;
        let a = target_score(
            "a",
            3,
            vec![
                mutant(1, Killed, Some("a1")),
                mutant(2, Survived, None),
                mutant(3, NotCovered, None),
                mutant(4, NotCovered, None),
                mutant(5, Unviable, None),
            ],
        );
        let b = target_score(
            "b",
            2,
            vec![
                mutant(1, Killed, Some("b1")),
                mutant(2, Killed, Some("b2")),
                mutant(3, Survived, None),
                mutant(4, NotCovered, None),
                mutant(5, Unviable, None),
            ],
        );
        let c = ScoreFile::combine(&[a.clone(), b.clone()], Path::new("corpus"), 2.0).unwrap();
        let got: Vec<(u32, Verdict, Option<&str>, Option<&str>)> =
            c.mutants.iter().map(|m| (m.id, m.outcome, m.input.as_deref(), m.target.as_deref())).collect();
        assert_eq!(
            got,
            vec![
                // Killed by both: the first target's kill.
                (1, Killed, Some("a1"), Some("a")),
                (2, Killed, Some("b2"), Some("b")),
                (3, Survived, None, None),
                (4, NotCovered, None, None),
                (5, Unviable, None, None),
            ]
        );
        assert_eq!(
            (
                c.summary.killed(),
                c.summary.survived,
                c.summary.not_covered,
                c.summary.unviable,
                c.summary.total
            ),
            (2, 1, 1, 1, 5)
        );
        assert_eq!((c.target.as_str(), c.inputs, c.score_percent), ("all", 5, 50.0));
        let targets = c.targets.as_ref().unwrap();
        assert_eq!(targets.iter().map(|t| t.target.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!((targets[0].summary.killed(), targets[1].summary.killed()), (1, 2));
        // It reads back as a score.json.
        let text = serde_json::to_string(&c).unwrap();
        let back: ScoreFile = serde_json::from_str(&text).unwrap();
        assert_eq!(back.targets.unwrap()[1], targets[1]);
        // A target's own score.json has no `targets`, nor a `target` per mutant.
        let own = serde_json::to_value(&a).unwrap();
        assert!(own.get("targets").is_none() && own["mutants"][0].get("target").is_none(), "{own}");
        // Scores of different mutants do not combine.
        let mut other = b;
        other.mutants.pop();
        let err = ScoreFile::combine(&[a, other], Path::new("corpus"), 2.0).unwrap_err().to_string();
        assert!(err.contains("not of the same mutants"), "{err}");
    }

    #[test]
    fn the_table_adds_up() {
        let mut t = Table::default();
        let line = |outcome, kind| ScoreLine {
            mutant: 1,
            outcome,
            kind,
            input: None,
            input_value: None,
            original_output: None,
            mutant_output: None,
        };
        for l in [
            line(ScoreOutcome::Killed, Some(KillKind::OutputDiffers)),
            line(ScoreOutcome::Killed, Some(KillKind::Panic)),
            line(ScoreOutcome::Killed, Some(KillKind::Crash)),
            line(ScoreOutcome::Survived, None),
            line(ScoreOutcome::NotCovered, None),
        ] {
            t.count(&l);
        }
        t.unviable += 1;
        t.total += 1;
        assert_eq!((t.killed(), t.total, t.score()), (3, 6, "60.0%".to_owned()));
        let text = t.render();
        assert!(text.contains("killed by crash          1\n"), "{text}");
        assert!(text.contains("total                    6\n"), "{text}");
        assert!(text.ends_with("score 60.0% (3 killed of 5 viable mutants)\n"), "{text}");
    }
}
