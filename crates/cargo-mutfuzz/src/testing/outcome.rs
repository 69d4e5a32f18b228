//! The fixed vocabulary of mutant outcomes in test mode, their tally, and
//! `outcomes.json` as a type (written by `test`, read back by `merge`).

use serde::{Deserialize, Serialize};

use mutfuzz_mutate::Mutant;

use crate::catalog::selection::Shard;
use crate::schema::viability::Round;
use crate::workspace::Features;

/// What the test suite did about one mutant (names as in cargo-mutants).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// A test failed with the mutant active.
    Caught,
    /// Every test that executes the mutant's site passed.
    Missed,
    /// The mutant ran out of fuel or depth, or past the wall-clock backstop.
    Timeout,
    /// The mutant does not compile.
    Unviable,
    /// No test executes the mutant's site; it was not run.
    NotCovered,
    /// The command was interrupted before the mutant's runs finished: no verdict.
    NotRun,
}

impl Outcome {
    /// Every verdict, in report order (not [`Outcome::NotRun`], which is none).
    pub const ALL: [Outcome; 5] =
        [Outcome::Caught, Outcome::Missed, Outcome::Timeout, Outcome::Unviable, Outcome::NotCovered];

    /// The outcome's name, as in files and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Caught => "caught",
            Outcome::Missed => "missed",
            Outcome::Timeout => "timeout",
            Outcome::Unviable => "unviable",
            Outcome::NotCovered => "not-covered",
            Outcome::NotRun => "not-run",
        }
    }

    /// The list file in `mutfuzz.out/`.
    pub fn file_name(self) -> &'static str {
        match self {
            Outcome::Caught => "caught.txt",
            Outcome::Missed => "missed.txt",
            Outcome::Timeout => "timeout.txt",
            Outcome::Unviable => "unviable.txt",
            Outcome::NotCovered => "not_covered.txt",
            Outcome::NotRun => "not_run.txt",
        }
    }
}

/// One mutant's outcome, with how it was reached.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MutantOutcome {
    /// The mutant.
    pub mutant: Mutant,
    /// Its outcome.
    pub outcome: Outcome,
    /// Tests run with the mutant active.
    pub tests_run: usize,
    /// Tests that failed (for `caught`), as libtest named them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failing_tests: Vec<String>,
    /// The tests that execute the mutant's site in the baseline run, as positions in
    /// [`OutcomesFile::tests`] (empty when none does or it was not run). Recorded so a
    /// report can say which tests cover a mutant without the baseline's records.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub covered_by: Vec<usize>,
    /// The tests that failed with it active (for `caught`), as positions in
    /// [`OutcomesFile::tests`]: `failing_tests` qualified by their binary.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub killed_by: Vec<usize>,
    /// Time spent running it, in seconds.
    pub seconds: f64,
    /// More about the outcome: the compiler error of an unviable mutant, how a run ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Why a real build of this mutant may not compile although the schema did: the
    /// crate denies a lint that the deleted code can trigger (see `lints`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lint_risk: Option<String>,
    /// Caught in an earlier run and carried over by `--iterate`, not tested in this one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub previously_caught: bool,
    /// Taken from the outcome history: nothing that decides it changed since the run that
    /// tested it (see `testing::history`), so it was not tested in this one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_history: bool,
}

impl MutantOutcome {
    /// An outcome decided without running the mutant's tests (unviable, not covered, not
    /// run), with `detail` saying why.
    pub fn fixed(m: &Mutant, outcome: Outcome, detail: Option<String>) -> MutantOutcome {
        MutantOutcome {
            mutant: m.clone(),
            outcome,
            tests_run: 0,
            failing_tests: Vec::new(),
            covered_by: Vec::new(),
            killed_by: Vec::new(),
            seconds: 0.0,
            detail,
            lint_risk: None,
            previously_caught: false,
            from_history: false,
        }
    }
}

/// Counts by outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Total mutants.
    pub total: usize,
    /// Caught.
    pub caught: usize,
    /// Missed.
    pub missed: usize,
    /// Timed out.
    pub timeout: usize,
    /// Unviable.
    pub unviable: usize,
    /// Not covered.
    pub not_covered: usize,
    /// Not run: the command was interrupted first (only in an interrupted run).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub not_run: usize,
    /// Whether the command was interrupted (Ctrl-C, SIGTERM, SIGHUP) before every
    /// mutant had its outcome.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

/// `outcomes.json`: a `test` run's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OutcomesFile {
    /// The version of cargo-mutfuzz that wrote it.
    pub mutfuzz_version: String,
    /// Counts by outcome.
    pub summary: Summary,
    /// Wall time of the run (of a merged run: its longest shard's).
    pub total_seconds: f64,
    /// The rounds of the schema build.
    pub schema_build: Vec<Round>,
    /// The viability cache held `schema_build`'s result: this run built once.
    pub schema_build_cached: bool,
    /// `None` when interrupted before the baseline ran.
    pub baseline: Option<BaselineSummary>,
    /// The part of the mutants this run covered (`--shard k/n`); absent for every mutant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The feature flags the packages were built and tested with (`amplify` builds with
    /// the same); absent for the defaults, and in results of versions that did not record them.
    #[serde(default, skip_serializing_if = "Features::is_default")]
    pub feature_flags: Features,
    /// Every test of the baseline, in the order it listed them; `covered_by` and
    /// `killed_by` of an outcome point into this list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<TestInfo>,
    /// Every mutant the run covered, in catalog order.
    pub outcomes: Vec<MutantOutcome>,
}

/// One test of the suite, as `outcomes.json` lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestInfo {
    /// The package its binary tests.
    pub package: String,
    /// Its binary: `lib`, `bin foo`, `test integration`, `doctests`, ….
    pub target: String,
    /// libtest's name for it (empty for a whole binary without a test harness).
    pub name: String,
    /// Wall time of its recorded baseline run (one process running it alone).
    pub seconds: f64,
}

impl TestInfo {
    /// The binary, as one name across the workspace: `textstats/test integration`.
    pub fn binary(&self) -> String {
        format!("{}/{}", self.package, self.target)
    }

    /// The test, as one name across the workspace: `textstats/lib/tests::counts`;
    /// a whole binary is named by its binary.
    pub fn id(&self) -> String {
        if self.name.is_empty() { self.binary() } else { format!("{}/{}", self.binary(), self.name) }
    }
}

/// The unmutated tests' run, as `outcomes.json` records it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BaselineSummary {
    /// Test binaries (and doctest runners).
    pub binaries: usize,
    /// Tests.
    pub tests: usize,
    /// Wall time.
    pub seconds: f64,
    /// Why the unmutated package cannot serve as a baseline (exit code 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<BaselineFailed>,
}

/// The baseline's failure, as `outcomes.json` records it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BaselineFailed {
    /// The failing (or hanging) test; none when the package does not build.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    /// `does not build`, `fails (exit code 101)`, `did not finish within 5m`.
    pub reason: String,
    /// The compiler's messages, or the end of the test's output.
    pub output: String,
}

impl BaselineFailed {
    /// What failed, for a message: `the package does not build`, `test t (in lib) did
    /// not finish within 5m00s`.
    pub fn describe(&self) -> String {
        match &self.test {
            Some(test) => format!("test {test} {} with no mutant active", self.reason),
            None => format!("the package {}", self.reason),
        }
    }

    /// What to do about it, for a message.
    pub fn remedy(&self) -> String {
        match &self.test {
            Some(test) if self.reason.starts_with("did not finish") => {
                let name = test.split(" (in ").next().unwrap_or(test);
                format!("give it longer (`--baseline-timeout SECS`) or skip it (`-- --skip {name}`)")
            }
            Some(_) => "fix what `cargo mutfuzz test` reported".to_owned(),
            None => "fix the build".to_owned(),
        }
    }
}

impl BaselineSummary {
    /// A baseline that failed.
    pub fn failed(test: Option<String>, reason: &str, output: String) -> BaselineSummary {
        BaselineSummary {
            binaries: 0,
            tests: 0,
            seconds: 0.0,
            failure: Some(BaselineFailed { test, reason: reason.to_owned(), output }),
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    /// Tally `outcomes`; a run with mutants [`Outcome::NotRun`] was interrupted.
    pub fn of(outcomes: &[MutantOutcome]) -> Summary {
        let mut s = Summary { total: outcomes.len(), ..Summary::default() };
        for o in outcomes {
            *match o.outcome {
                Outcome::Caught => &mut s.caught,
                Outcome::Missed => &mut s.missed,
                Outcome::Timeout => &mut s.timeout,
                Outcome::Unviable => &mut s.unviable,
                Outcome::NotCovered => &mut s.not_covered,
                Outcome::NotRun => &mut s.not_run,
            } += 1;
        }
        s.interrupted = s.not_run > 0;
        s
    }

    /// The mutation score, in percent: caught and timed-out mutants (a runaway the tests
    /// end is detected, as PIT counts it) over the viable ones that ran or are not
    /// covered. With no viable mutant, 100: there is nothing to detect.
    pub fn score_percent(&self) -> f64 {
        let viable = self.total - self.unviable - self.not_run;
        if viable == 0 { 100.0 } else { (self.caught + self.timeout) as f64 * 100.0 / viable as f64 }
    }

    /// The exit code for these counts with `--min-score` (see [`crate::console::exit_code`]): with
    /// a minimum, the score decides.
    pub fn exit_code_with(&self, min_score: Option<f64>) -> i32 {
        match min_score {
            Some(_) if self.interrupted => crate::process::interrupt::EXIT_CODE,
            Some(min) if self.score_percent() < min => crate::console::exit_code::BELOW_MIN_SCORE,
            Some(_) => crate::console::exit_code::SUCCESS,
            None => self.exit_code(),
        }
    }

    /// The exit code for these counts (see [`crate::console::exit_code`]).
    pub fn exit_code(&self) -> i32 {
        if self.interrupted {
            crate::process::interrupt::EXIT_CODE
        } else if self.missed > 0 || self.not_covered > 0 {
            crate::console::exit_code::FOUND_PROBLEMS
        } else if self.timeout > 0 {
            crate::console::exit_code::TIMEOUT
        } else {
            crate::console::exit_code::SUCCESS
        }
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} mutants: {} caught, {} missed, {} timeout, {} unviable, {} not covered",
            self.total, self.caught, self.missed, self.timeout, self.unviable, self.not_covered
        )?;
        if self.interrupted {
            write!(f, ", {} not run (interrupted)", self.not_run)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_baseline_failure_says_what_failed_and_what_to_do() {
        let hung = BaselineSummary::failed(
            Some("slow (in lib)".into()),
            "did not finish within 5m00s",
            String::new(),
        );
        let hung = hung.failure.unwrap();
        assert_eq!(hung.describe(), "test slow (in lib) did not finish within 5m00s with no mutant active");
        let skip = "give it longer (`--baseline-timeout SECS`) or skip it (`-- --skip slow`)";
        assert_eq!(hung.remedy(), skip);
        let build = BaselineSummary::failed(None, "does not build", String::new()).failure.unwrap();
        assert_eq!(build.describe(), "the package does not build");
        assert_eq!(build.remedy(), "fix the build");
    }

    fn summary(caught: usize, missed: usize, timeout: usize, not_covered: usize) -> Summary {
        Summary { caught, missed, timeout, not_covered, ..Summary::default() }
    }

    #[test]
    fn exit_code_reports_missed_before_timeouts() {
        assert_eq!(summary(3, 0, 0, 0).exit_code(), 0);
        assert_eq!(summary(3, 1, 1, 0).exit_code(), 2);
        assert_eq!(summary(3, 0, 0, 1).exit_code(), 2);
        assert_eq!(summary(3, 0, 1, 0).exit_code(), 3);
        assert_eq!(Summary { interrupted: true, ..summary(3, 1, 0, 0) }.exit_code(), 130);
    }

    #[test]
    fn a_minimum_score_decides_the_exit_code() {
        let s = Summary { total: 10, unviable: 2, ..summary(5, 2, 1, 0) };
        assert_eq!(s.score_percent(), 75.0);
        assert_eq!(s.exit_code_with(None), 2);
        assert_eq!(s.exit_code_with(Some(75.0)), 0);
        assert_eq!(s.exit_code_with(Some(75.1)), 5);
        assert_eq!(Summary::default().score_percent(), 100.0);
    }

    #[test]
    fn an_interrupted_summary_counts_what_did_not_run() {
        let mutant: Mutant = serde_json::from_value(serde_json::json!({
            "id": 1, "site": 1, "package": "p", "file": "src/lib.rs",
            "span": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 2}},
            "function": "f", "operator": "int_literal", "original": "1", "replacement": "0",
            "description": "replace 1 with 0 in f"
        }))
        .unwrap();
        let o = |outcome| MutantOutcome {
            mutant: mutant.clone(),
            outcome,
            tests_run: 0,
            failing_tests: vec![],
            covered_by: vec![],
            killed_by: vec![],
            seconds: 0.0,
            detail: None,
            lint_risk: None,
            previously_caught: false,
            from_history: false,
        };
        let done = Summary::of(&[o(Outcome::Caught), o(Outcome::Missed)]);
        let json = serde_json::to_value(&done).unwrap();
        assert!(json.get("interrupted").is_none() && json.get("not_run").is_none(), "{json}");
        let cut = Summary::of(&[o(Outcome::Caught), o(Outcome::NotRun), o(Outcome::NotRun)]);
        assert_eq!((cut.not_run, cut.interrupted), (2, true));
        assert_eq!(serde_json::to_value(&cut).unwrap()["interrupted"], true);
        assert!(cut.to_string().ends_with("0 not covered, 2 not run (interrupted)"), "{cut}");
    }
}
