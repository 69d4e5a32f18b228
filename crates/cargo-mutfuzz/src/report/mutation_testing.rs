//! The shared report format: a [`ReportModel`] written as Stryker's
//! `mutation-testing-report-schema` (schema version 2), the `mutation.json` that the
//! Stryker Dashboard hosts, `mutation-testing-elements` renders and other mutation tools
//! read.
//!
//! Our fixed status vocabulary maps onto the schema's in [`schema_status`]; the mapping
//! keeps the schema's score (Killed + Timeout over Killed + Timeout + Survived +
//! NoCoverage) equal to ours, so a dashboard shows the number `test` and `score` print.
//! Each mutant's `statusReason` starts with our own outcome name, so nothing the mapping
//! merges is lost. Columns are converted from our chars to the schema's UTF-16 units.

use std::collections::BTreeMap;
use std::path::Path;

use mutfuzz_contract::KillKind;
use mutfuzz_mutate::LineCol;
use serde::{Deserialize, Serialize};

use super::{Mode, ReportModel, ReportedMutant, Status};

/// The schema's major version we write (npm's `mutation-testing-report-schema` 3.x
/// validates majors 1 and 2).
pub const SCHEMA_VERSION: &str = "2";

/// The file's default name, beside `report.html`.
pub const FILE_NAME: &str = "mutation.json";

/// The score colours of the schema (`high`/`low` in percent): Stryker's defaults, which
/// the dashboard and the elements colour green above `high` and red below `low`.
pub const THRESHOLDS: Thresholds = Thresholds { high: 80, low: 60 };

/// A whole report (`MutationTestResult` in the schema).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MutationTestResult {
    /// [`SCHEMA_VERSION`].
    pub schema_version: String,
    /// Score colours.
    pub thresholds: Thresholds,
    /// The workspace root the file paths are relative to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_root: Option<String>,
    /// Each source file with mutants, by its path relative to the workspace root.
    pub files: BTreeMap<String, FileResult>,
    /// The tests (or fuzz inputs) that `killedBy`/`coveredBy` name, by test binary (or
    /// fuzz target).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub test_files: BTreeMap<String, TestFile>,
    /// mutfuzz and its version.
    pub framework: Framework,
    /// Where it ran.
    pub system: System,
    /// What was measured (free-form in the schema): the command and the report's notes.
    pub config: serde_json::Value,
}

/// `thresholds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thresholds {
    /// At or above: good.
    pub high: u8,
    /// Below: bad.
    pub low: u8,
}

/// One source file (`FileResult`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileResult {
    /// Always `rust` (a Prism language name).
    pub language: String,
    /// The file's whole text, as the mutants' locations count it.
    pub source: String,
    /// Its mutants, in catalog order.
    pub mutants: Vec<MutantResult>,
}

/// One mutant (`MutantResult`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MutantResult {
    /// Our mutant id, as a string (stable for the same source).
    pub id: String,
    /// Our operator name (`relational_boundary`), as `mutfuzz.toml` and `--json` spell it.
    pub mutator_name: String,
    /// The text the mutant puts in place of the located text (empty: a deletion).
    pub replacement: String,
    /// Our one-line description.
    pub description: String,
    /// The replaced text.
    pub location: Location,
    /// The schema's status ([`schema_status`]).
    pub status: MutantStatus,
    /// Our outcome and its evidence, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_reason: Option<String>,
    /// Test ids (of `testFiles`) that killed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub killed_by: Option<Vec<String>>,
    /// Test ids that execute it; absent where coverage was not measured (`[]`: none does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered_by: Option<Vec<String>>,
}

/// `location`: start inclusive, end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// First character.
    pub start: Position,
    /// Just past the last.
    pub end: Position,
}

/// A 1-based line and a 1-based column counted in UTF-16 code units, as the schema and
/// the JavaScript that renders it count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// From 1.
    pub line: usize,
    /// From 1, in UTF-16 units.
    pub column: usize,
}

/// The schema's mutant statuses, as far as we write them (never `Pending`, which is for
/// streaming reports and which the dashboard refuses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MutantStatus {
    /// Detected by a test or input.
    Killed,
    /// Covered and not detected.
    Survived,
    /// Nothing executes it.
    NoCoverage,
    /// Does not compile.
    CompileError,
    /// An error that is neither a kill nor a survival (not written: see [`schema_status`]).
    RuntimeError,
    /// Ran out of time (detected in the score).
    Timeout,
    /// Left out of the score.
    Ignored,
}

/// A test binary's (or fuzz target's) tests (`TestFile`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestFile {
    /// Its tests.
    pub tests: Vec<TestDefinition>,
}

/// One test (`TestDefinition`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestDefinition {
    /// What `killedBy`/`coveredBy` say.
    pub id: String,
    /// What a person reads.
    pub name: String,
}

/// `framework`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Framework {
    /// `mutfuzz`.
    pub name: String,
    /// This binary's version.
    pub version: String,
}

/// `system`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct System {
    /// Whether `CI` was set (as CI services set it).
    pub ci: bool,
    /// The operating system.
    pub os: Os,
    /// The processor.
    pub cpu: Cpu,
}

/// `system.os`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Os {
    /// Rust's name for it (`linux`).
    pub platform: String,
}

/// `system.cpu`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cpu {
    /// Threads available to this process.
    pub logical_cores: usize,
}

/// The schema's status of a report entry. The mapping, in both vocabularies:
///
/// | ours (`test` / `score`) | schema |
/// |---|---|
/// | `caught` / `killed` (by output, panic, discard or crash) | `Killed` |
/// | `killed` by `timeout` (score) | `Timeout` |
/// | `timeout` (test) | `Timeout` |
/// | `missed` / `survived` | `Survived` |
/// | `not-covered` | `NoCoverage` |
/// | `unviable` | `CompileError` |
/// | `not-run` (interrupted, or no verdict in the score) | `Ignored` |
///
/// A `crash` is a kill in our score (the mutant took the process down and the original
/// did not), so it is `Killed`, not `RuntimeError`, which the schema leaves out of the
/// score; `RuntimeError` is never written. A fuzz target's timeout is a kill in our score
/// and `Timeout` counts as detected in the schema's, so both scores stay equal.
pub fn schema_status(e: &ReportedMutant) -> MutantStatus {
    match e.status {
        Status::Killed if e.how.as_deref() == Some(KillKind::Timeout.name()) => MutantStatus::Timeout,
        Status::Killed => MutantStatus::Killed,
        Status::Survived => MutantStatus::Survived,
        Status::Timeout => MutantStatus::Timeout,
        Status::NotCovered => MutantStatus::NoCoverage,
        Status::Unviable => MutantStatus::CompileError,
        Status::NotRun => MutantStatus::Ignored,
    }
}

/// `statusReason`: our outcome's name first, then its evidence — the failing tests, the
/// kill kind with the input, its value and both outputs, the compiler's message.
fn status_reason(e: &ReportedMutant, mode: Mode) -> String {
    let label = e.status.label(mode);
    let mut text = match (e.status, mode) {
        (Status::Killed, Mode::Test) if e.by.is_empty() => label.to_owned(),
        (Status::Killed, Mode::Test) => format!("{label} by {}", e.by.join(", ")),
        (Status::Killed, Mode::Score) => {
            let mut t = format!("{label} by {}", e.how.as_deref().unwrap_or("an input"));
            if let Some(input) = e.by.first() {
                t.push_str(&format!(" on input {input}"));
            }
            if let Some(value) = &e.input_value {
                t.push_str(&format!("\ninput value: {value}"));
            }
            if let Some((original, mutant)) = &e.outputs {
                t.push_str(&format!("\noriginal: {original}\nmutant: {mutant}"));
            }
            t
        }
        (Status::Survived, Mode::Test) => {
            format!("{label}: the {} tests that execute it passed", e.covered_by.len())
        }
        (Status::Survived, Mode::Score) => format!("{label}: some input reaches it, none kills it"),
        (Status::NotCovered, Mode::Test) => format!("{label}: no test executes its site"),
        (Status::NotCovered, Mode::Score) => format!("{label}: no input reaches its site"),
        (Status::NotRun, _) => format!("{label}: no verdict (the run was interrupted first)"),
        (Status::Timeout | Status::Unviable, _) => label.to_owned(),
    };
    if let Some(detail) = &e.detail {
        // A bare outcome name reads on into its detail; evidence already said goes above it.
        let sep = if text == label { ": " } else { "\n" };
        text.push_str(&format!("{sep}{detail}"));
    }
    if let Some(note) = &e.amplified {
        text.push_str(&format!("\n{note}"));
    }
    text
}

/// A position of ours (1-based, chars) as the schema's (1-based, UTF-16 units) on the
/// line of `lines` it names; past the line's end each missing char counts one unit.
fn position(lines: &[&str], p: LineCol) -> Position {
    let column = match lines.get(p.line.wrapping_sub(1)) {
        Some(text) => {
            let mut chars = text.chars();
            1 + (1..p.column).map(|_| chars.next().map_or(1, char::len_utf16)).sum::<usize>()
        }
        None => p.column,
    };
    Position { line: p.line.max(1), column: column.max(1) }
}

impl MutationTestResult {
    /// The report in the shared format. Load the report's sources first
    /// ([`ReportModel::load_sources`]): an unreadable file is written with an empty source and
    /// its columns unconverted.
    pub fn from_report(report: &ReportModel, project_root: &Path) -> MutationTestResult {
        let mode = report.mode();
        // Coverage per test is known for `test` results that recorded their tests; for
        // anything else `coveredBy` is left out, which the schema reads as "not measured".
        let coverage_known = mode == Mode::Test && !report.tests.is_empty();
        let mut files: BTreeMap<String, FileResult> = BTreeMap::new();
        for e in &report.entries {
            let m = &e.mutant;
            let file = files.entry(m.file.clone()).or_insert_with(|| FileResult {
                language: "rust".to_owned(),
                source: report.sources.get(&m.file).cloned().flatten().unwrap_or_default(),
                mutants: Vec::new(),
            });
            let lines: Vec<&str> = file.source.split('\n').collect();
            let location =
                Location { start: position(&lines, m.span.start), end: position(&lines, m.span.end) };
            let ran = !matches!(e.status, Status::Unviable | Status::NotRun);
            file.mutants.push(MutantResult {
                id: m.id.to_string(),
                mutator_name: m.operator.name().to_owned(),
                replacement: m.replacement.clone(),
                description: m.description.clone(),
                location,
                status: schema_status(e),
                status_reason: Some(status_reason(e, mode)),
                killed_by: (!e.killed_by.is_empty()).then(|| e.killed_by.clone()),
                covered_by: (coverage_known && ran).then(|| e.covered_by.clone()),
            });
        }
        let mut test_files: BTreeMap<String, TestFile> = BTreeMap::new();
        for t in &report.tests {
            test_files
                .entry(t.group.clone())
                .or_insert_with(|| TestFile { tests: Vec::new() })
                .tests
                .push(TestDefinition { id: t.id.clone(), name: t.name.clone() });
        }
        MutationTestResult {
            schema_version: SCHEMA_VERSION.to_owned(),
            thresholds: THRESHOLDS,
            project_root: Some(project_root.display().to_string()),
            files,
            test_files,
            framework: Framework {
                name: "mutfuzz".to_owned(),
                version: env!("CARGO_PKG_VERSION").to_owned(),
            },
            system: System {
                ci: std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false"),
                os: Os { platform: std::env::consts::OS.to_owned() },
                cpu: Cpu { logical_cores: std::thread::available_parallelism().map_or(1, |n| n.get()) },
            },
            config: serde_json::json!({
                "command": match mode { Mode::Test => "test", Mode::Score => "score" },
                "subject": report.subject,
                "notes": report.notes,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::mutant;
    use crate::testing::outcome::{MutantOutcome, Outcome, TestInfo};
    use mutfuzz_contract::{ScoreLine, ScoreOutcome, UnviableRecord};

    fn outcome(id: u32, outcome: Outcome, covered_by: Vec<usize>, killed_by: Vec<usize>) -> MutantOutcome {
        MutantOutcome {
            mutant: mutant(id, "src/lib.rs", 2, "f"),
            outcome,
            tests_run: covered_by.len(),
            failing_tests: killed_by.iter().map(|&i| ["it_counts", "it_clamps"][i].to_owned()).collect(),
            covered_by,
            killed_by,
            seconds: 0.1,
            detail: (outcome == Outcome::Unviable).then(|| "error[E0308]: mismatched types".to_owned()),
            lint_risk: None,
            previously_caught: false,
            from_history: false,
        }
    }

    fn suite() -> Vec<TestInfo> {
        ["it_counts", "it_clamps"]
            .iter()
            .map(|n| TestInfo { package: "p".into(), target: "lib".into(), name: (*n).into(), seconds: 0.1 })
            .collect()
    }

    fn by_id(r: &MutationTestResult) -> BTreeMap<String, MutantResult> {
        r.files.values().flat_map(|f| &f.mutants).map(|m| (m.id.clone(), m.clone())).collect()
    }

    #[test]
    fn test_outcomes_map_to_the_schemas_statuses_with_their_tests() {
        let outcomes = [
            outcome(1, Outcome::Caught, vec![0, 1], vec![1]),
            outcome(2, Outcome::Missed, vec![0], vec![]),
            outcome(3, Outcome::Timeout, vec![1], vec![]),
            outcome(4, Outcome::NotCovered, vec![], vec![]),
            outcome(5, Outcome::Unviable, vec![], vec![]),
            outcome(6, Outcome::NotRun, vec![], vec![]),
        ];
        let mut r = ReportModel::from_test("the tests of p".into(), &outcomes, &suite());
        r.sources.insert("src/lib.rs".into(), Some("fn f() {\n    a < b\n}\n".into()));
        let out = MutationTestResult::from_report(&r, Path::new("/ws"));
        let m = by_id(&out);
        let status: Vec<MutantStatus> = (1..=6).map(|i| m[&i.to_string()].status).collect();
        use MutantStatus::*;
        assert_eq!(status, [Killed, Survived, Timeout, NoCoverage, CompileError, Ignored]);
        assert_eq!(m["1"].killed_by.as_deref(), Some(&["p/lib/it_clamps".to_owned()][..]));
        assert_eq!(m["1"].covered_by.as_ref().map(Vec::len), Some(2));
        assert_eq!(m["1"].status_reason.as_deref(), Some("caught by it_clamps"));
        // Measured and none: `[]`; not measured (it never ran): absent.
        assert_eq!(m["4"].covered_by.as_deref(), Some(&[][..]));
        assert_eq!((m["5"].covered_by.as_ref(), m["6"].covered_by.as_ref()), (None, None));
        assert_eq!(m["5"].status_reason.as_deref(), Some("unviable: error[E0308]: mismatched types"));
        assert_eq!(m["2"].status_reason.as_deref(), Some("missed: the 1 tests that execute it passed"));
        let tests = &out.test_files["p/lib"].tests;
        assert_eq!(
            tests.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
            ["p/lib/it_counts", "p/lib/it_clamps"]
        );
        assert_eq!(
            (m["1"].mutator_name.as_str(), m["1"].replacement.as_str()),
            ("relational_boundary", "<=")
        );

        // The field names are the schema's.
        let json = serde_json::to_value(&out).unwrap();
        assert_eq!(json["schemaVersion"], "2");
        assert_eq!(json["thresholds"], serde_json::json!({"high": 80, "low": 60}));
        assert_eq!(json["framework"]["name"], "mutfuzz");
        assert_eq!(json["projectRoot"], "/ws");
        assert_eq!(json["files"]["src/lib.rs"]["language"], "rust");
        let first = &json["files"]["src/lib.rs"]["mutants"][0];
        for key in [
            "id",
            "mutatorName",
            "replacement",
            "location",
            "status",
            "statusReason",
            "killedBy",
            "coveredBy",
        ] {
            assert!(first.get(key).is_some(), "{key}: {first}");
        }
        assert_eq!(first["location"]["start"], serde_json::json!({"line": 2, "column": 5}));
        assert!(json["testFiles"]["p/lib"]["tests"].is_array());
        // What it writes reads back the same.
        let back: MutationTestResult = serde_json::from_value(json).unwrap();
        assert_eq!(back, out);
        let statuses: Vec<MutantStatus> =
            out.files.values().flat_map(|f| &f.mutants).map(|m| m.status).collect();
        let count = |s: MutantStatus| statuses.iter().filter(|&&x| x == s).count();
        assert_eq!((count(Killed), count(RuntimeError)), (1, 0));
    }

    #[test]
    fn a_score_gives_its_kills_inputs_as_tests_and_its_timeouts_as_timeout() {
        let catalog: Vec<_> = (1..=4).map(|i| mutant(i, "src/lib.rs", 1, "sort")).collect();
        let line = |id, outcome, kind: Option<KillKind>| ScoreLine {
            mutant: id,
            outcome,
            kind,
            input: kind.map(|_| "ab12".to_owned()),
            input_value: kind.map(|_| "[2, 1]".to_owned()),
            original_output: (kind == Some(KillKind::OutputDiffers)).then(|| "[1, 2]".to_owned()),
            mutant_output: (kind == Some(KillKind::OutputDiffers)).then(|| "[2, 1]".to_owned()),
        };
        let verdicts = [
            line(1, ScoreOutcome::Killed, Some(KillKind::OutputDiffers)),
            line(2, ScoreOutcome::Killed, Some(KillKind::Timeout)),
            line(3, ScoreOutcome::Killed, Some(KillKind::Crash)),
        ];
        let unviable = [UnviableRecord { id: 4, reason: "error".into() }];
        let mut r =
            ReportModel::from_score("fuzz target sort".into(), &catalog, &unviable, &verdicts, Vec::new());
        r.name_killing_inputs(|_| Some("sort"));
        let out = MutationTestResult::from_report(&r, Path::new("/ws"));
        let m = by_id(&out);
        use MutantStatus::*;
        assert_eq!(
            [m["1"].status, m["2"].status, m["3"].status, m["4"].status],
            [Killed, Timeout, Killed, CompileError]
        );
        assert_eq!(
            m["1"].status_reason.as_deref(),
            Some(
                "killed by output-differs on input ab12\ninput value: [2, 1]\noriginal: [1, 2]\nmutant: [2, 1]"
            )
        );
        assert!(m["3"].status_reason.as_deref().unwrap().contains("took the harness process down"));
        assert_eq!(m["2"].killed_by.as_deref(), Some(&["sort/ab12".to_owned()][..]));
        // One input, named once; no coverage per input is known.
        assert_eq!(
            out.test_files["sort"].tests,
            [TestDefinition { id: "sort/ab12".into(), name: "input ab12".into() }]
        );
        assert!(m.values().all(|m| m.covered_by.is_none()));
        assert_eq!(out.config["command"], "score");
    }

    #[test]
    fn columns_count_utf16_units_and_the_end_is_exclusive() {
        // `é` is one UTF-16 unit, `𝄞` two: the `<` after them is char 17 but unit 18.
        let lines = ["let s = \"é𝄞\"; a < b", "x"];
        assert_eq!(position(&lines, LineCol { line: 1, column: 17 }), Position { line: 1, column: 18 });
        assert_eq!(position(&lines, LineCol { line: 1, column: 1 }), Position { line: 1, column: 1 });
        // Just past the end of a line, and a line past the file's end, stay as they were.
        assert_eq!(position(&lines, LineCol { line: 2, column: 2 }), Position { line: 2, column: 2 });
        assert_eq!(position(&lines, LineCol { line: 9, column: 3 }), Position { line: 9, column: 3 });
    }
}
