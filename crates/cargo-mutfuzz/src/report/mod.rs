//! The HTML report (`cargo mutfuzz report`): one self-contained file made from typed
//! records — the outcomes of `cargo mutfuzz test`, or a fuzz target's score verdicts,
//! unviable records and `stats.csv` — so any command that holds such records (a merge of
//! shards, say) can build a [`ReportModel`] and render it.
//!
//! [`ReportModel`] is the model: every mutant with its [`Status`], how and by what it was
//! killed, both outputs of an output kill, the compiler's message of an unviable one,
//! the source files and the campaign's counters over time. [`html`] renders it, [`plot`]
//! draws the counters as inline SVG, [`mutation_testing`] writes it as Stryker's shared
//! `mutation-testing-report-schema` JSON.

pub mod html;
pub mod mutation_testing;
pub mod plot;
pub(crate) mod score_file;

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use mutfuzz_contract::{
    CampaignDir, KillKind, ScoreLine, ScoreOutcome, StatsRow, UnviableRecord, parse_stats_csv,
};
use mutfuzz_mutate::Mutant;

use crate::fuzzing::records;
use crate::testing::outcome::{MutantOutcome, Outcome, TestInfo};

/// What the report is about: the crate's own tests, or a fuzz target's corpus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `cargo mutfuzz test`: caught / missed.
    Test,
    /// `cargo mutfuzz score <target>`: killed / survived.
    Score,
}

/// One mutant's place in the report, of either mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Reached and not killed: the to-do list.
    Survived,
    /// Ran out of its time or fuel (test mode; a fuzz target's timeout is a kill).
    Timeout,
    /// No test or input reaches its site.
    NotCovered,
    /// No verdict: the run was interrupted first.
    NotRun,
    /// Killed (caught by a test, or killed by an input).
    Killed,
    /// Does not compile.
    Unviable,
}

impl Status {
    /// Every status, in the order the summary lists them.
    pub const ALL: [Status; 6] = [
        Status::Killed,
        Status::Survived,
        Status::Timeout,
        Status::NotCovered,
        Status::Unviable,
        Status::NotRun,
    ];

    /// The CSS class and `data-status` value.
    pub fn key(self) -> &'static str {
        match self {
            Status::Killed => "killed",
            Status::Survived => "survived",
            Status::Timeout => "timeout",
            Status::NotCovered => "not-covered",
            Status::Unviable => "unviable",
            Status::NotRun => "not-run",
        }
    }

    /// The outcome's name in `mode`'s vocabulary (`caught`/`missed` for tests).
    pub fn label(self, mode: Mode) -> &'static str {
        match (self, mode) {
            (Status::Killed, Mode::Test) => "caught",
            (Status::Survived, Mode::Test) => "missed",
            (s, _) => s.key(),
        }
    }
}

/// One mutant with its status and the evidence for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportedMutant {
    /// The mutant.
    pub mutant: Mutant,
    /// Its status.
    pub status: Status,
    /// How a fuzz target's input killed it: a kill kind (`output-differs`, `panic`, …).
    pub how: Option<String>,
    /// What killed it: the input's name, or the failing tests.
    pub by: Vec<String>,
    /// The value the killing input generates (`Debug`), when recorded.
    pub input_value: Option<String>,
    /// For an output (or panic) kill: how the original and the mutant ended.
    pub outputs: Option<(String, String)>,
    /// The compiler's message of an unviable mutant, or more about a run's end.
    pub detail: Option<String>,
    /// What `cargo mutfuzz amplify` did about a mutant the tests left alive: the test it
    /// wrote for it, or that no fuzz target reaches it.
    pub amplified: Option<String>,
    /// The [`ReportTest`]s (by id) that execute its site: test mode, when recorded.
    pub covered_by: Vec<String>,
    /// The [`ReportTest`]s (by id) that killed it: the failing tests, or the killing
    /// input of a fuzz target.
    pub killed_by: Vec<String>,
}

/// What kills or covers mutants, named once: a test of the suite, or a fuzz target's
/// stored input (which plays a test's part in the shared report format).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportTest {
    /// Unique in the report: `textstats/lib/tests::counts`, `sort/<input>`.
    pub id: String,
    /// Where it lives: the test binary (`textstats/lib`) or the fuzz target (`sort`).
    pub group: String,
    /// What a person calls it: libtest's name, or `input <name>`.
    pub name: String,
}

/// Counts per status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Per [`Status::ALL`] position.
    pub by_status: [usize; 6],
}

impl Counts {
    fn add(&mut self, s: Status) {
        let i = Status::ALL.iter().position(|&x| x == s).expect("every status is listed");
        self.by_status[i] += 1;
    }

    /// Mutants with status `s`.
    pub fn get(&self, s: Status) -> usize {
        self.by_status[Status::ALL.iter().position(|&x| x == s).expect("every status is listed")]
    }

    /// Every mutant counted.
    pub fn total(&self) -> usize {
        self.by_status.iter().sum()
    }

    /// Mutants that count towards the score: all but unviable and not run.
    pub fn scored(&self) -> usize {
        self.total() - self.get(Status::Unviable) - self.get(Status::NotRun)
    }

    /// Killed (and, in test mode, timed out: the suite did not let the mutant pass).
    pub fn detected(&self) -> usize {
        self.get(Status::Killed) + self.get(Status::Timeout)
    }

    /// The score in percent, `None` when nothing counts.
    pub fn score(&self) -> Option<f64> {
        let n = self.scored();
        (n > 0).then(|| self.detected() as f64 * 100.0 / n as f64)
    }
}

/// Everything the HTML report shows.
#[derive(Clone, Debug, Default)]
pub struct ReportModel {
    /// What was measured, for the title (`tests of insertion-sort`, `fuzz target sort`).
    pub subject: String,
    /// Test or score vocabulary.
    pub mode: Option<Mode>,
    /// Lines of context shown under the title (`corpus: …`, `results: …`).
    pub notes: Vec<String>,
    /// Every mutant, in catalog order.
    pub entries: Vec<ReportedMutant>,
    /// Each source file named by a mutant (path relative to the workspace root) and its
    /// text, or `None` when it could not be read.
    pub sources: BTreeMap<String, Option<String>>,
    /// The campaign's counters over time (empty in test mode).
    pub stats: Vec<StatsRow>,
    /// The tests (or inputs) that `covered_by` and `killed_by` of the entries name.
    pub tests: Vec<ReportTest>,
}

impl ReportModel {
    /// The mode (test unless set).
    pub fn mode(&self) -> Mode {
        self.mode.unwrap_or(Mode::Test)
    }

    /// The report of `cargo mutfuzz test` outcomes; `tests` is the suite that
    /// `covered_by` and `killed_by` of each outcome point into.
    pub fn from_test(subject: String, outcomes: &[MutantOutcome], tests: &[TestInfo]) -> ReportModel {
        // A position out of the list (a hand-edited file) names no test rather than panic.
        let ids = |positions: &[usize]| -> Vec<String> {
            positions.iter().filter_map(|&i| tests.get(i)).map(TestInfo::id).collect()
        };
        let entries = outcomes
            .iter()
            .map(|o| {
                let status = match o.outcome {
                    Outcome::Caught => Status::Killed,
                    Outcome::Missed => Status::Survived,
                    Outcome::Timeout => Status::Timeout,
                    Outcome::Unviable => Status::Unviable,
                    Outcome::NotCovered => Status::NotCovered,
                    Outcome::NotRun => Status::NotRun,
                };
                let mut detail = o.detail.clone();
                if let Some(risk) = &o.lint_risk {
                    detail = Some(detail.map_or(risk.clone(), |d| format!("{d}\n{risk}")));
                }
                ReportedMutant {
                    mutant: o.mutant.clone(),
                    status,
                    how: None,
                    by: o.failing_tests.clone(),
                    input_value: None,
                    outputs: None,
                    detail,
                    amplified: None,
                    covered_by: ids(&o.covered_by),
                    killed_by: ids(&o.killed_by),
                }
            })
            .collect();
        let tests = tests
            .iter()
            .map(|t| ReportTest {
                id: t.id(),
                group: t.binary(),
                name: if t.name.is_empty() { t.binary() } else { t.name.clone() },
            })
            .collect();
        ReportModel { subject, mode: Some(Mode::Test), entries, tests, ..ReportModel::default() }
    }

    /// The report of a fuzz target's score: the catalog, the unviable mutants with the
    /// compiler's reasons, the verdicts (the first line per mutant counts) and the
    /// campaign's counters. A viable mutant with no verdict is `not-run`.
    pub fn from_score(
        subject: String,
        catalog: &[Mutant],
        unviable: &[UnviableRecord],
        verdicts: &[ScoreLine],
        stats: Vec<StatsRow>,
    ) -> ReportModel {
        let reasons: HashMap<u32, &str> = unviable.iter().map(|u| (u.id, u.reason.as_str())).collect();
        let mut lines: HashMap<u32, &ScoreLine> = HashMap::new();
        for l in verdicts {
            lines.entry(l.mutant).or_insert(l);
        }
        let entries = catalog
            .iter()
            .map(|m| {
                let mut e = ReportedMutant {
                    mutant: m.clone(),
                    status: Status::NotRun,
                    how: None,
                    by: Vec::new(),
                    input_value: None,
                    outputs: None,
                    detail: None,
                    amplified: None,
                    covered_by: Vec::new(),
                    killed_by: Vec::new(),
                };
                if let Some(reason) = reasons.get(&m.id) {
                    e.status = Status::Unviable;
                    e.detail = Some((*reason).to_owned());
                } else if let Some(l) = lines.get(&m.id) {
                    e.status = match l.outcome {
                        ScoreOutcome::Killed => Status::Killed,
                        ScoreOutcome::Survived => Status::Survived,
                        ScoreOutcome::NotCovered => Status::NotCovered,
                    };
                    e.how = l.kind.map(|k| k.name().to_owned());
                    e.by = l.input.iter().cloned().collect();
                    e.input_value = l.input_value.clone();
                    if let (Some(o), Some(m)) = (&l.original_output, &l.mutant_output) {
                        e.outputs = Some((o.clone(), m.clone()));
                    }
                    if l.kind == Some(KillKind::Crash) {
                        e.detail = Some("the mutant took the harness process down".to_owned());
                    }
                }
                e
            })
            .collect();
        ReportModel { subject, mode: Some(Mode::Score), entries, stats, ..ReportModel::default() }
    }

    /// Read the score records of a fuzz target's state directory.
    /// `stats` is the state whose `stats.csv` is plotted: the campaign's that grew the
    /// corpus scored (for `fuzz --corpus DIR`, a state of its own).
    pub fn read_score(subject: String, state: &CampaignDir, stats: &CampaignDir) -> Result<ReportModel> {
        let verdicts = records::read::<ScoreLine>(&state.score_lines())?;
        if verdicts.is_empty() {
            anyhow::bail!(
                "no score in {}: run `cargo mutfuzz score <target>` first",
                state.score_lines().display()
            );
        }
        let catalog: Vec<Mutant> = read_json(&state.catalog())?;
        let unviable: Vec<UnviableRecord> =
            if state.unviable().exists() { read_json(&state.unviable())? } else { Vec::new() };
        let stats = match fs::read_to_string(stats.stats_csv()) {
            Ok(text) => {
                parse_stats_csv(&text).map_err(|e| anyhow::anyhow!("{}: {e}", stats.stats_csv().display()))?
            }
            Err(_) => Vec::new(),
        };
        Ok(ReportModel::from_score(subject, &catalog, &unviable, &verdicts, stats))
    }

    /// Name each killing input of a score as a [`ReportTest`] of its fuzz target (given
    /// per mutant by `target_of`; `None` leaves the mutant's kill unnamed), so the shared
    /// format can say what killed it as it says which test did.
    pub fn name_killing_inputs<'t>(&mut self, target_of: impl Fn(u32) -> Option<&'t str>) {
        let ReportModel { entries, tests, .. } = self;
        let mut named: std::collections::HashSet<String> = tests.iter().map(|t| t.id.clone()).collect();
        for e in entries.iter_mut().filter(|e| e.status == Status::Killed) {
            let Some(target) = target_of(e.mutant.id) else { continue };
            for input in &e.by {
                let id = format!("{target}/{input}");
                if named.insert(id.clone()) {
                    tests.push(ReportTest {
                        id: id.clone(),
                        group: target.to_owned(),
                        name: format!("input {input}"),
                    });
                }
                e.killed_by.push(id);
            }
        }
    }

    /// Read every source file the mutants name, relative to the workspace `root`.
    pub fn load_sources(&mut self, root: &Path) {
        for e in &self.entries {
            self.sources
                .entry(e.mutant.file.clone())
                .or_insert_with(|| fs::read_to_string(root.join(&e.mutant.file)).ok());
        }
    }

    /// Counts over every mutant.
    pub fn counts(&self) -> Counts {
        self.counts_where(|_| true)
    }

    /// Counts over the mutants `keep` selects.
    pub fn counts_where(&self, keep: impl Fn(&ReportedMutant) -> bool) -> Counts {
        let mut c = Counts::default();
        for e in self.entries.iter().filter(|e| keep(e)) {
            c.add(e.status);
        }
        c
    }
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let text = fs::read_to_string(path).with_context(|| format!("failed to read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not what mutfuzz wrote there", path.display()))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A catalog entry at `line` of `file` in function `function`.
    pub(crate) fn mutant(id: u32, file: &str, line: usize, function: &str) -> Mutant {
        serde_json::from_value(serde_json::json!({
            "id": id, "site": id, "package": "p", "file": file,
            "span": {"start": {"line": line, "column": 5}, "end": {"line": line, "column": 6}},
            "function": function, "operator": "relational_boundary", "original": "<", "replacement": "<=",
            "description": format!("replace < with <= in {function}")
        }))
        .unwrap()
    }

    fn verdict(mutant: u32, outcome: ScoreOutcome, kind: Option<KillKind>) -> ScoreLine {
        ScoreLine {
            mutant,
            outcome,
            kind,
            input: kind.map(|_| "abc".to_owned()),
            input_value: kind.map(|_| "[2, 1]".to_owned()),
            original_output: (kind == Some(KillKind::OutputDiffers)).then(|| "[1, 2]".to_owned()),
            mutant_output: (kind == Some(KillKind::OutputDiffers)).then(|| "[2, 1]".to_owned()),
        }
    }

    #[test]
    fn a_score_report_gives_each_mutant_its_verdict_and_evidence() {
        let catalog: Vec<Mutant> = (1..=5).map(|i| mutant(i, "src/lib.rs", i as usize, "f")).collect();
        let unviable = [UnviableRecord { id: 4, reason: "error[E0308]: mismatched types".into() }];
        let verdicts = [
            verdict(1, ScoreOutcome::Killed, Some(KillKind::OutputDiffers)),
            verdict(2, ScoreOutcome::Survived, None),
            verdict(3, ScoreOutcome::NotCovered, None),
            // A later line for the same mutant does not override the first.
            verdict(1, ScoreOutcome::Survived, None),
        ];
        let r = ReportModel::from_score("t".into(), &catalog, &unviable, &verdicts, Vec::new());
        let status: Vec<Status> = r.entries.iter().map(|e| e.status).collect();
        assert_eq!(
            status,
            [Status::Killed, Status::Survived, Status::NotCovered, Status::Unviable, Status::NotRun]
        );
        assert_eq!(r.entries[0].outputs, Some(("[1, 2]".into(), "[2, 1]".into())));
        assert_eq!(r.entries[0].input_value.as_deref(), Some("[2, 1]"));
        assert_eq!(
            (r.entries[0].how.as_deref(), &r.entries[0].by[..]),
            (Some("output-differs"), &["abc".to_owned()][..])
        );
        assert_eq!(r.entries[3].detail.as_deref(), Some("error[E0308]: mismatched types"));
        let c = r.counts();
        assert_eq!((c.total(), c.scored(), c.detected()), (5, 3, 1));
        assert_eq!(Status::Killed.label(Mode::Test), "caught");
        assert_eq!(Status::Survived.label(Mode::Score), "survived");
    }
}
