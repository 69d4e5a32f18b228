//! The files of one campaign's state directory (`target/mutfuzz/<target>/` under
//! `cargo mutfuzz`; any directory when the engine runs on its own). The engine writes
//! some, `cargo mutfuzz` others; both name them through [`CampaignDir`].

use std::path::{Path, PathBuf};

/// Kill records, one [`KillRecord`](crate::KillRecord) per line.
pub const KILLS: &str = "kills.jsonl";
/// Failure records, one [`FailureRecord`](crate::FailureRecord) per line.
pub const FAILURE_LOG: &str = "failures.jsonl";
/// Directory of the inputs on which the original failed, named by content.
pub const FAILURES: &str = "failures";
/// Records of inputs on which a mutant that was the program panicked and the original
/// does not ([`FailureRecord`](crate::FailureRecord)s with their `mutant`): they point at
/// fault-prone code, and are kept apart from failures of the original.
pub const MUTANT_PANIC_LOG: &str = "mutant-panics.jsonl";
/// Directory of those inputs, named by content.
pub const MUTANT_PANICS: &str = "mutant-panics";
/// Records of the panics of a generated target's original (`cargo mutfuzz init --auto`),
/// one [`ContractPanicRecord`](crate::ContractPanicRecord) per distinct message: a
/// public function given arbitrary arguments may panic by design, so these are the
/// inputs' outcomes, kept apart from failures.
pub const CONTRACT_PANIC_LOG: &str = "contract-panics.jsonl";
/// Directory of those inputs, named by content.
pub const CONTRACT_PANICS: &str = "contract-panics";
/// A generated target found nondeterministic ([`NondeterministicRecord`](crate::NondeterministicRecord)):
/// while it exists, the campaign and `score` judge the target by panics and runaways only.
pub const NONDETERMINISTIC: &str = "nondeterministic.json";
/// One row of counters about once a second (see [`Stats::CSV_HEADER`](crate::Stats::CSV_HEADER)).
pub const STATS_CSV: &str = "stats.csv";
/// Verdicts of a scoring run as they are decided, one [`ScoreLine`](crate::ScoreLine) per line.
pub const SCORE_LINES: &str = "score.jsonl";
/// The report of the last scoring run.
pub const SCORE: &str = "score.json";
/// Suffix of a scoring run's progress log, beside its verdicts (see [`score_progress_log`]).
pub const SCORE_PROGRESS_LOG: &str = "progress.jsonl";
/// The whole mutant catalog.
pub const CATALOG: &str = "mutants.json";
/// The catalog of viable mutants, given to the harness.
pub const VIABLE: &str = "viable.json";
/// Unviable mutants with the compiler's reason, [`UnviableRecord`](crate::UnviableRecord)s.
pub const UNVIABLE: &str = "unviable.json";
/// The harness processes' stderr.
pub const HARNESS_LOG: &str = "harness.log";
/// The HTML report of the last score (`cargo mutfuzz report <target>`).
pub const REPORT: &str = "report.html";
/// The endings recorded by `cargo mutfuzz export`, before they are copied to `tests/`.
pub const EXPORT: &str = "export.jsonl";
/// The static pass's result for input strategies (see [`Hints`](crate::Hints)).
pub const HINTS: &str = "hints.json";
/// Stored inputs, when the corpus is not kept elsewhere.
pub const CORPUS: &str = "corpus";
/// A pending drift: the mutants that may have changed the harness's global state.
pub const DRIFT: &str = "drift.json";

/// A campaign's state directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CampaignDir {
    path: PathBuf,
}

impl CampaignDir {
    /// The state directory at `path`.
    pub fn new(path: impl Into<PathBuf>) -> CampaignDir {
        CampaignDir { path: path.into() }
    }

    /// The directory itself.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `kills.jsonl`.
    pub fn kills(&self) -> PathBuf {
        self.path.join(KILLS)
    }

    /// `failures.jsonl`.
    pub fn failure_log(&self) -> PathBuf {
        self.path.join(FAILURE_LOG)
    }

    /// `failures/`.
    pub fn failures(&self) -> PathBuf {
        self.path.join(FAILURES)
    }

    /// `mutant-panics.jsonl`.
    pub fn mutant_panic_log(&self) -> PathBuf {
        self.path.join(MUTANT_PANIC_LOG)
    }

    /// `mutant-panics/`.
    pub fn mutant_panics(&self) -> PathBuf {
        self.path.join(MUTANT_PANICS)
    }

    /// `contract-panics.jsonl`.
    pub fn contract_panic_log(&self) -> PathBuf {
        self.path.join(CONTRACT_PANIC_LOG)
    }

    /// `contract-panics/`.
    pub fn contract_panics(&self) -> PathBuf {
        self.path.join(CONTRACT_PANICS)
    }

    /// `nondeterministic.json`.
    pub fn nondeterministic(&self) -> PathBuf {
        self.path.join(NONDETERMINISTIC)
    }

    /// `stats.csv`.
    pub fn stats_csv(&self) -> PathBuf {
        self.path.join(STATS_CSV)
    }

    /// `score.jsonl`.
    pub fn score_lines(&self) -> PathBuf {
        self.path.join(SCORE_LINES)
    }

    /// `score.json`.
    pub fn score(&self) -> PathBuf {
        self.path.join(SCORE)
    }

    /// `mutants.json`.
    pub fn catalog(&self) -> PathBuf {
        self.path.join(CATALOG)
    }

    /// `viable.json`.
    pub fn viable(&self) -> PathBuf {
        self.path.join(VIABLE)
    }

    /// `unviable.json`.
    pub fn unviable(&self) -> PathBuf {
        self.path.join(UNVIABLE)
    }

    /// `hints.json`: literals and influencing types of the crate under test.
    pub fn hints(&self) -> PathBuf {
        self.path.join(HINTS)
    }

    /// `harness.log`.
    pub fn harness_log(&self) -> PathBuf {
        self.path.join(HARNESS_LOG)
    }

    /// `drift.json`: a [`DriftRecord`](crate::DriftRecord) while a drift is being settled.
    pub fn drift(&self) -> PathBuf {
        self.path.join(DRIFT)
    }

    /// `report.html`.
    pub fn report(&self) -> PathBuf {
        self.path.join(REPORT)
    }

    /// `export.jsonl`.
    pub fn export(&self) -> PathBuf {
        self.path.join(EXPORT)
    }

    /// `corpus/`, the default place of stored inputs.
    pub fn corpus(&self) -> PathBuf {
        self.path.join(CORPUS)
    }
}

/// Where a scoring run writing its verdicts to `score_lines` records the panics by
/// contract of its inputs: `<score_lines>.contract-panics.jsonl` (beside it, as its
/// pending drift is `<score_lines>.drift.json`), so a new score starts it afresh.
pub fn score_contract_panic_log(score_lines: &Path) -> PathBuf {
    beside(score_lines, CONTRACT_PANIC_LOG)
}

/// Where a scoring run writing its verdicts to `score_lines` records how far it got:
/// `<score_lines>.progress.jsonl`, one [`ScoreProgressRecord`](crate::ScoreProgressRecord)
/// per input done, so a restarted harness runs no mutant on those inputs again.
pub fn score_progress_log(score_lines: &Path) -> PathBuf {
    beside(score_lines, SCORE_PROGRESS_LOG)
}

/// `<score_lines>.<suffix>`.
fn beside(score_lines: &Path, suffix: &str) -> PathBuf {
    let mut name = score_lines.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".");
    name.push(suffix);
    score_lines.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scores_contract_panics_lie_beside_its_verdicts() {
        let dir = CampaignDir::new("/t/state");
        assert_eq!(
            score_contract_panic_log(&dir.score_lines()),
            Path::new("/t/state/score.jsonl.contract-panics.jsonl")
        );
        assert_eq!(score_progress_log(&dir.score_lines()), Path::new("/t/state/score.jsonl.progress.jsonl"));
        assert_eq!(dir.contract_panic_log(), Path::new("/t/state/contract-panics.jsonl"));
        assert_eq!(dir.nondeterministic(), Path::new("/t/state/nondeterministic.json"));
    }
}
