//! The records of a campaign's files: kills (`kills.jsonl`), failures of the original
//! (`failures.jsonl`), panics by contract of generated targets (`contract-panics.jsonl`),
//! a generated target found nondeterministic (`nondeterministic.json`), unviable mutants (`unviable.json`) and score verdicts
//! (`score.jsonl`). The engine appends most of them; the supervisor in `cargo mutfuzz`
//! appends the kills and failures of a harness process that died.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::files::Record;

/// What a generated target's rendering holds in place of a memory address (the engine's
/// `debug_unaddressed`): a test written from such a rendering does not assert it.
pub const ADDRESS_MASK: &str = "0x…";

/// The panic message of a discarded input (`mutfuzz::assume`, a generated target's
/// rejected constructor) outside the engine's runs, as in a plain test.
pub const DISCARD_MESSAGE: &str = "mutfuzz::assume: the input does not satisfy an assumption of the target";

/// How a mutant was killed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KillKind {
    /// Both returned, and the oracle says the outputs differ.
    OutputDiffers,
    /// Exactly one of original and mutant panicked, or both did with different messages.
    Panic,
    /// The mutant ran out of fuel or stack depth (or, under a supervisor, wall time).
    Timeout,
    /// Exactly one of original and mutant discarded the input (`mutfuzz::assume`).
    Discard,
    /// The mutant took the whole process down (abort, segfault, stack overflow, out of
    /// memory); recorded by the supervisor that restarts the harness.
    Crash,
}

impl KillKind {
    /// Every kind, in report order.
    pub const ALL: [KillKind; 5] =
        [KillKind::OutputDiffers, KillKind::Panic, KillKind::Timeout, KillKind::Crash, KillKind::Discard];

    /// The kind's name in files and reports: `output-differs`, `panic`, ….
    pub fn name(self) -> &'static str {
        match self {
            KillKind::OutputDiffers => "output-differs",
            KillKind::Panic => "panic",
            KillKind::Timeout => "timeout",
            KillKind::Discard => "discard",
            KillKind::Crash => "crash",
        }
    }
}

impl fmt::Display for KillKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which limit a `timeout` kill ran out of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KillLimit {
    /// The fuel budget (function entries plus loop iterations).
    Fuel,
    /// The stack-depth bound.
    Depth,
    /// The supervisor's wall clock: the harness printed nothing for too long.
    Wall,
}

impl fmt::Display for KillLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KillLimit::Fuel => "fuel",
            KillLimit::Depth => "depth",
            KillLimit::Wall => "wall",
        })
    }
}

/// The first kill of a mutant: by which input, how, and when. One line of `kills.jsonl`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KillRecord {
    /// The mutant killed.
    pub mutant: u32,
    /// Its site's base id.
    pub site: u32,
    /// How it was killed.
    pub kind: KillKind,
    /// For a timeout, the limit that ran out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<KillLimit>,
    /// Name (content hash) of the stored input that killed it.
    pub input: String,
    /// The trial, from 0, that killed it.
    pub trial: u64,
}

impl Record for KillRecord {
    const WHAT: &'static str = "kill record";

    fn check(&self) -> Result<(), String> {
        if self.mutant == 0 || self.site == 0 || self.site > self.mutant {
            return Err(format!(
                "mutant {} with site {}: ids start at 1, a site at most its mutant",
                self.mutant, self.site
            ));
        }
        if self.limit.is_some() && self.kind != KillKind::Timeout {
            return Err(format!("a {} kill has no limit", self.kind));
        }
        if self.input.is_empty() {
            return Err("no input named".to_owned());
        }
        Ok(())
    }
}

/// An input on which the original panicked or died: a bug in the code under test. One
/// line of `failures.jsonl`; the input is stored as `failures/<input>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailureRecord {
    /// Name (content hash) of the failing input.
    pub input: String,
    /// The panic message, or how the process died.
    pub message: String,
    /// Where it panicked (`file:line:column`), when known.
    pub location: Option<String>,
    /// The trial, from 0, that found it.
    pub trial: u64,
    /// In `mutant-panics.jsonl`: the mutant that was the program (a mutants-first phase)
    /// and panicked on an input on which the original does not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutant: Option<u32>,
}

impl Record for FailureRecord {
    const WHAT: &'static str = "failure record";

    fn check(&self) -> Result<(), String> {
        if self.input.is_empty() { Err("no input named".to_owned()) } else { Ok(()) }
    }
}

/// A panic of a generated target's original on an input: by contract, not a failure (a
/// public function given arbitrary arguments may panic by design). One line of
/// `contract-panics.jsonl` per distinct message; the input is stored as
/// `contract-panics/<input>` (while fuzzing).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContractPanicRecord {
    /// Name (content hash) of the first input found panicking with this message.
    pub input: String,
    /// The panic message.
    pub message: String,
    /// Where it panicked (`file:line:column`), when known.
    pub location: Option<String>,
}

impl Record for ContractPanicRecord {
    const WHAT: &'static str = "contract panic record";

    fn check(&self) -> Result<(), String> {
        if self.input.is_empty() { Err("no input named".to_owned()) } else { Ok(()) }
    }
}

/// A generated target whose original disagreed with itself on one input
/// (`nondeterministic.json`): from then on any two of its returned outputs agree, and its
/// mutants are killed only by panics, runaways, crashes and discards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NondeterministicRecord {
    /// The input's name (content hash).
    pub input: String,
    /// The first ending, rendered (cut to [`RENDER_LIMIT`] bytes).
    pub first: String,
    /// The second ending, rendered the same way.
    pub second: String,
}

impl NondeterministicRecord {
    /// The record in `path` (`nondeterministic.json`), or `None` when there is none. A
    /// file that is not such a record is an error naming it.
    pub fn read(path: &std::path::Path) -> Result<Option<NondeterministicRecord>, crate::FileError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(crate::FileError::io(path, e)),
        };
        serde_json::from_str(&text).map(Some).map_err(|e| crate::FileError::Record {
            path: path.to_owned(),
            line: 1,
            what: "nondeterministic-target record",
            problem: e.to_string(),
        })
    }

    /// Writes the record to `path` atomically.
    pub fn write(&self, path: &std::path::Path) -> Result<(), crate::FileError> {
        let text = serde_json::to_string(self).map_err(|e| crate::FileError::io(path, e.into()))? + "\n";
        crate::write_atomic(path, text.as_bytes())
    }

    /// The one line that says so, naming `target`: each rendering from a little before
    /// where the two first differ.
    pub fn describe(&self, target: &str) -> String {
        let (first, second) = self.difference();
        format!(
            "target {target} is nondeterministic (input {} gave `{first}` then `{second}`): judged by \
             panics and runaways only",
            self.input,
        )
    }

    /// The line that says this input alone was left out, its target judged by outputs still.
    pub fn describe_input(&self, target: &str) -> String {
        let (first, second) = self.difference();
        format!(
            "target {target} gave two results on input {} (`{first}` then `{second}`): such inputs are \
             not kept, the others are judged by their outputs still",
            self.input,
        )
    }

    /// Each rendering from a little before where the two first differ.
    fn difference(&self) -> (String, String) {
        let same = self.first.chars().zip(self.second.chars()).take_while(|(a, b)| a == b).count();
        let from = same.saturating_sub(DIFFERENCE_CONTEXT);
        let near = |text: &str| {
            let at = text.char_indices().nth(from).map_or(text.len(), |(i, _)| i);
            let rest = shorten(&text[at..]);
            if from > 0 { format!("…{rest}") } else { rest }
        };
        (near(&self.first), near(&self.second))
    }
}

/// How many chars the two renderings share that the message shows before they differ.
const DIFFERENCE_CONTEXT: usize = 20;

/// At most 80 chars of a rendering, for a one-line message.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// A mutant that does not compile, with the compiler's reason: an entry of `unviable.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnviableRecord {
    /// The mutant.
    pub id: u32,
    /// The compiler's message.
    pub reason: String,
}

/// A mutant's verdict over a whole corpus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScoreOutcome {
    /// Some input kills it.
    Killed,
    /// Some input reaches its site, none kills it.
    Survived,
    /// No input reaches its site.
    NotCovered,
}

impl ScoreOutcome {
    /// The outcome's name in files: `killed`, `survived`, `not-covered`.
    pub fn name(self) -> &'static str {
        match self {
            ScoreOutcome::Killed => "killed",
            ScoreOutcome::Survived => "survived",
            ScoreOutcome::NotCovered => "not-covered",
        }
    }
}

/// One verdict of a scoring run: a line of `score.jsonl`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreLine {
    /// The mutant.
    pub mutant: u32,
    /// Its verdict.
    pub outcome: ScoreOutcome,
    /// How it was killed (only for `killed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<KillKind>,
    /// The first input (by name order) that killed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// The value that input generates (its `Debug` rendering, cut to [`RENDER_LIMIT`]
    /// bytes), so a reader sees what killed the mutant without replaying it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_value: Option<String>,
    /// For a kill by output, panic or discard: how the original ended on that input
    /// (its output's `Debug` rendering, `panic: <message>` or `discarded`), cut to
    /// [`RENDER_LIMIT`] bytes; the report shows it beside the mutant's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_output: Option<String>,
    /// How the mutant ended on that input, rendered the same way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutant_output: Option<String>,
}

/// The most bytes of a rendered output kept in a [`ScoreLine`]: enough to see a
/// difference, bounded so that a mutant's output flood cannot bloat the record.
pub const RENDER_LIMIT: usize = 2048;

/// One stored input and how the original ended on it: a line of the data file that
/// `cargo mutfuzz export` writes beside the regression test it makes, which replays the
/// input and asserts the same ending.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayRecord {
    /// The input's name (its content hash) in the corpus.
    pub input: String,
    /// Its bytes, as hex digits.
    pub bytes: String,
    /// The original's output `Debug` rendering (`{:?}`), `panic: <message>` or `discarded`.
    pub output: String,
}

impl Record for ReplayRecord {
    const WHAT: &'static str = "replay record";

    fn check(&self) -> Result<(), String> {
        if crate::protocol::decode_hex(&self.bytes).is_none() {
            return Err(format!("input {}: the bytes are not hex digits", self.input));
        }
        Ok(())
    }
}

/// One line of the harness's `cmin <target> --corpus DIR --catalog FILE --out FILE`: what
/// one stored input covers and kills, for `cargo mutfuzz cmin` to choose a subset of the
/// corpus with the same coverage and the same kills.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CminRecord {
    /// The input's file name in the corpus.
    pub input: String,
    /// Its size in bytes.
    pub size: usize,
    /// Base ids of the mutant sites the original's run reached, increasing.
    pub sites: Vec<u32>,
    /// The edges it covered, each a counter's index times 8 plus its hit-count bucket's
    /// bit (AFL's classes, as the fuzz loop counts coverage), increasing.
    pub edges: Vec<u64>,
    /// The catalog's mutants it kills (any kind, judged with the score's budget), increasing.
    pub kills: Vec<u32>,
}

impl Record for CminRecord {
    const WHAT: &'static str = "cmin record";
}

impl Record for ScoreLine {
    const WHAT: &'static str = "score line";

    fn check(&self) -> Result<(), String> {
        match (self.outcome, self.kind) {
            (ScoreOutcome::Killed, None) => Err(format!("mutant {} is killed, but not how", self.mutant)),
            (ScoreOutcome::Survived | ScoreOutcome::NotCovered, Some(k)) => {
                Err(format!("mutant {} is {} yet killed by {k}", self.mutant, self.outcome.name()))
            }
            _ => Ok(()),
        }
    }
}

/// A drift of the harness's global state found after mutants ran in its process (the
/// original disagreed with its recorded result on `sentinel`), kept in `drift.json`
/// until a clean process has run each suspect alone to find the one that causes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriftRecord {
    /// Mutants that ran in the process since its last check, in the order they ran.
    pub suspects: Vec<u32>,
    /// Hex bytes of the input they ran on.
    pub input: String,
    /// Hex bytes of the input whose original result changed.
    pub sentinel: String,
}

/// A line of a score's progress log ([`score_progress_log`](crate::score_progress_log)):
/// the harness ran every mutant undecided then on `input` and on every input before it
/// (in name order) that its pruning rule runs there, and those that survived were still
/// undecided. A restarted harness replays those inputs' originals only (for what they
/// cover) and runs no mutant on them again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreProgressRecord {
    /// The stored input's name.
    pub input: String,
    /// Mutants decided (distinct mutants of `score.jsonl`) when it was written: a log whose
    /// `score.jsonl` holds fewer belongs to an earlier score and is ignored.
    pub decided: usize,
}

impl Record for ScoreProgressRecord {
    const WHAT: &'static str = "score progress record";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kill_records_keep_their_field_names() {
        let r = KillRecord {
            mutant: 3,
            site: 2,
            kind: KillKind::Timeout,
            limit: Some(KillLimit::Depth),
            input: "ab".into(),
            trial: 9,
        };
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json, r#"{"mutant":3,"site":2,"kind":"timeout","limit":"depth","input":"ab","trial":9}"#);
        assert_eq!(serde_json::from_str::<KillRecord>(&json).unwrap(), r);
        let crash = r#"{"mutant":5,"site":4,"kind":"crash","input":"cd","trial":0}"#;
        assert_eq!(serde_json::from_str::<KillRecord>(crash).unwrap().kind, KillKind::Crash);
        for k in KillKind::ALL {
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{}\"", k.name()));
        }
    }

    #[test]
    fn records_that_contradict_themselves_are_refused() {
        let kill = |kind, limit| KillRecord { mutant: 2, site: 1, kind, limit, input: "x".into(), trial: 0 };
        assert!(kill(KillKind::Timeout, Some(KillLimit::Wall)).check().is_ok());
        assert!(kill(KillKind::Panic, Some(KillLimit::Fuel)).check().is_err());
        assert!(KillRecord { site: 3, ..kill(KillKind::Panic, None) }.check().is_err());
        let line = |outcome, kind| ScoreLine {
            mutant: 1,
            outcome,
            kind,
            input: None,
            input_value: None,
            original_output: None,
            mutant_output: None,
        };
        assert!(line(ScoreOutcome::Killed, Some(KillKind::Panic)).check().is_ok());
        assert!(line(ScoreOutcome::Killed, None).check().is_err());
        assert!(line(ScoreOutcome::Survived, Some(KillKind::Panic)).check().is_err());
        assert!(line(ScoreOutcome::NotCovered, None).check().is_ok());
        let replay =
            |bytes: &str| ReplayRecord { input: "a".into(), bytes: bytes.into(), output: "1".into() };
        assert!(replay("00ff").check().is_ok() && replay("").check().is_ok());
        assert!(replay("0g").check().is_err());
        let panic = ContractPanicRecord { input: String::new(), message: "m".into(), location: None };
        assert!(panic.check().is_err());
        assert!(ContractPanicRecord { input: "ab".into(), ..panic }.check().is_ok());
    }

    #[test]
    fn a_nondeterministic_target_is_described_in_one_short_line() {
        let r =
            NondeterministicRecord { input: "ab".into(), first: "{1: 2}".into(), second: "x".repeat(100) };
        let text = r.describe("word_counts");
        assert!(
            text.starts_with("target word_counts is nondeterministic (input ab gave `{1: 2}` then `xxx"),
            "{text}"
        );
        assert!(text.ends_with("x…`): judged by panics and runaways only"), "{text}");
        // A long common start is cut: the message shows where they differ.
        let common = format!("[{}", "1, ".repeat(60));
        let r = NondeterministicRecord {
            input: "ab".into(),
            first: format!("{common}7, 8]"),
            second: format!("{common}9, 8]"),
        };
        assert!(
            r.describe("t").contains("gave `…, 1, 1, 1, 1, 1, 1, 7, 8]` then `…, 1, 1, 1, 1, 1, 1, 9, 8]`"),
            "{}",
            r.describe("t")
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nondeterministic.json");
        assert_eq!(NondeterministicRecord::read(&path).unwrap(), None);
        r.write(&path).unwrap();
        assert_eq!(NondeterministicRecord::read(&path).unwrap(), Some(r));
        std::fs::write(&path, "{}").unwrap();
        let err = NondeterministicRecord::read(&path).unwrap_err().to_string();
        assert!(err.contains("nondeterministic.json:1: not a valid nondeterministic-target record"), "{err}");
    }
}
