//! The results directory, `mutfuzz.out/`: the catalog, outcomes and one list per outcome
//! (and, after an interrupt, `not_run.txt`). The previous run's directory is kept as
//! `mutfuzz.out.old`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use mutfuzz_contract::write_atomic;
use serde::{Deserialize, Serialize};

use crate::testing::outcome::{MutantOutcome, Outcome, TestInfo};

/// The part of `outcomes.json` that is read back (by `cargo mutfuzz report`).
#[derive(Deserialize)]
pub struct OutcomesRead {
    /// Every mutant's outcome.
    pub outcomes: Vec<MutantOutcome>,
    /// The suite's tests, which the outcomes' `covered_by` and `killed_by` point into
    /// (absent from files written before they were recorded).
    #[serde(default)]
    pub tests: Vec<TestInfo>,
}

/// Every mutant's outcome, and the tests, from the `outcomes.json` of the results
/// directory `dir`.
pub fn read_outcomes(dir: &Path) -> Result<OutcomesRead> {
    let path = dir.join("outcomes.json");
    let text = fs::read_to_string(&path).with_context(|| {
        format!("no results at {}: run `cargo mutfuzz test` first, or pass --results DIR", path.display())
    })?;
    let read: OutcomesRead = serde_json::from_str(&text)
        .with_context(|| format!("{} is not the outcomes.json of `cargo mutfuzz test`", path.display()))?;
    Ok(read)
}

/// The results directory of one run.
pub struct OutputDir {
    /// Its path.
    pub path: PathBuf,
}

impl OutputDir {
    /// Create `path` afresh, moving an existing one to `<path>.old`.
    pub fn create(path: &Path) -> Result<OutputDir> {
        if path.exists() {
            let mut old = path.as_os_str().to_owned();
            old.push(".old");
            let old = PathBuf::from(old);
            // A file of that name (a shell's redirect, say) goes as a directory would.
            crate::workspace::fs_util::remove_any(&old)?;
            fs::rename(path, &old).with_context(|| format!("failed to move {} aside", path.display()))?;
        }
        fs::create_dir_all(path.join("log"))
            .with_context(|| format!("failed to create {}", path.display()))?;
        Ok(OutputDir { path: path.to_owned() })
    }

    /// Directory for per-mutant logs.
    pub fn log_dir(&self) -> PathBuf {
        self.path.join("log")
    }

    /// Write `value` as pretty JSON to `name`, atomically (write then rename).
    pub fn write_json(&self, name: &str, value: &impl Serialize) -> Result<()> {
        let text = serde_json::to_string_pretty(value)? + "\n";
        self.write(name, &text)
    }

    fn write(&self, name: &str, text: &str) -> Result<()> {
        Ok(write_atomic(&self.path.join(name), text.as_bytes())?)
    }

    /// Write one `<outcome>.txt` per outcome, each listing its mutants' names in id order;
    /// `not_run.txt` only when some mutants did not run.
    pub fn write_lists(&self, outcomes: &[MutantOutcome]) -> Result<()> {
        let not_run = outcomes.iter().any(|o| o.outcome == Outcome::NotRun).then_some(Outcome::NotRun);
        for kind in Outcome::ALL.into_iter().chain(not_run) {
            let mut text = String::new();
            for o in outcomes.iter().filter(|o| o.outcome == kind) {
                text.push_str(&o.mutant.name());
                text.push('\n');
            }
            self.write(kind.file_name(), &text)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_results_directory_moves_the_last_aside_over_an_older_file_or_directory() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("mutfuzz.out");
        let old = dir.path().join("mutfuzz.out.old");
        // A shell's `> mutfuzz.out` made a file that the first run then moved aside.
        fs::write(&old, "a redirected log").unwrap();
        fs::create_dir_all(out.join("log")).unwrap();
        fs::write(out.join("missed.txt"), "last run").unwrap();
        OutputDir::create(&out).unwrap();
        assert_eq!(fs::read_to_string(old.join("missed.txt")).unwrap(), "last run");
        assert!(out.join("log").is_dir() && !out.join("missed.txt").exists());
        // And again, over the directory it just made.
        OutputDir::create(&out).unwrap();
        assert!(old.join("log").is_dir() && !old.join("missed.txt").exists());
    }
}
