//! The mutants `amplify` writes tests for: those `cargo mutfuzz test` left alive —
//! missed, not covered by any test, or timed out only by the wall clock (a fuel or
//! depth timeout is already a catch in all but name).

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Result;
use mutfuzz_mutate::Mutant;

use crate::console::exit_code;
use crate::testing::outcome::{BaselineFailed, Outcome, OutcomesFile};

/// The test run's result and its survivors.
pub struct Survivors {
    pub file: OutcomesFile,
    /// Ids of the mutants to kill.
    pub ids: BTreeSet<u32>,
}

impl Survivors {
    /// Reads `outcomes.json` of the results directory `dir`.
    pub fn read(dir: &Path) -> Result<Survivors> {
        let path = dir.join("outcomes.json");
        let text = std::fs::read_to_string(&path).map_err(|_| {
            exit_code::usage(anyhow::anyhow!(
                "no results of `cargo mutfuzz test` in {}: run `cargo mutfuzz test` first, then amplify \
                 writes tests for the mutants it leaves alive",
                dir.display()
            ))
        })?;
        let file: OutcomesFile = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{} is not a results file of this version: {e}", path.display()))?;
        let ids = file
            .outcomes
            .iter()
            .filter(|o| alive(o.outcome, o.detail.as_deref()))
            .map(|o| o.mutant.id)
            .collect();
        Ok(Survivors { file, ids })
    }

    /// Whether the crate's tests failed with no mutant (then there is nothing to amplify).
    pub fn baseline_failed(&self) -> Option<&BaselineFailed> {
        self.file.baseline.as_ref().and_then(|b| b.failure.as_ref())
    }

    /// Checks that the results are of `package` alone: a whole workspace's results number
    /// every member's mutants together, which the package's own catalog does not.
    pub fn check_package(&self, package: &str, dir: &Path) -> Result<()> {
        let others: BTreeSet<&str> =
            self.file.outcomes.iter().map(|o| o.mutant.package.as_str()).filter(|p| *p != package).collect();
        if others.is_empty() {
            return Ok(());
        }
        Err(exit_code::usage(anyhow::anyhow!(
            "{} holds the results of more packages than {package} (also {}): run `cargo mutfuzz test -p \
             {package}`, then amplify",
            dir.display(),
            others.into_iter().collect::<Vec<_>>().join(", ")
        )))
    }

    /// Checks that the results describe the mutants found now: the sources have not
    /// changed since the test run.
    pub fn check_catalog(&self, mutants: &[Mutant]) -> Result<()> {
        for o in &self.file.outcomes {
            let now = mutants.iter().find(|m| m.id == o.mutant.id);
            if now.is_none_or(|m| m.name() != o.mutant.name()) {
                return Err(exit_code::usage(anyhow::anyhow!(
                    "the sources changed since `cargo mutfuzz test` ran (mutant {} is now {}): run it again",
                    o.mutant.name(),
                    now.map_or("gone".to_owned(), Mutant::name)
                )));
            }
        }
        Ok(())
    }

    /// Survivors by outcome, for the summary.
    pub fn counts(&self) -> (usize, usize, usize) {
        let count = |want: Outcome| {
            self.file.outcomes.iter().filter(|o| o.outcome == want && self.ids.contains(&o.mutant.id)).count()
        };
        (count(Outcome::Missed), count(Outcome::NotCovered), count(Outcome::Timeout))
    }
}

fn alive(outcome: Outcome, detail: Option<&str>) -> bool {
    match outcome {
        Outcome::Missed | Outcome::NotCovered => true,
        Outcome::Timeout => detail.is_some_and(|d| d.starts_with("killed after")),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn survivors_are_missed_uncovered_and_wall_clock_timeouts() {
        assert!(alive(Outcome::Missed, None));
        assert!(alive(Outcome::NotCovered, None));
        assert!(alive(Outcome::Timeout, Some("killed after 3.0s")));
        assert!(!alive(Outcome::Timeout, Some("fuel or depth exhausted")));
        assert!(!alive(Outcome::Caught, None));
        assert!(!alive(Outcome::Unviable, None));
    }

    #[test]
    fn a_whole_workspaces_results_are_refused_with_the_command_for_one_package() {
        let outcome = |id: u32, package: &str| {
            let mut mutant = crate::report::tests::mutant(id, "src/lib.rs", 1, "f");
            mutant.package = package.to_owned();
            crate::testing::outcome::MutantOutcome::fixed(&mutant, Outcome::Missed, None)
        };
        let file = OutcomesFile {
            mutfuzz_version: String::new(),
            summary: Default::default(),
            total_seconds: 0.0,
            schema_build: Vec::new(),
            schema_build_cached: false,
            baseline: None,
            shard: None,
            feature_flags: Default::default(),
            tests: Vec::new(),
            outcomes: vec![outcome(1, "calc"), outcome(2, "other")],
        };
        let survivors = Survivors { file, ids: BTreeSet::from([1, 2]) };
        let err = survivors.check_package("calc", Path::new("mutfuzz.out")).unwrap_err().to_string();
        assert_eq!(
            err,
            "mutfuzz.out holds the results of more packages than calc (also other): run `cargo mutfuzz \
             test -p calc`, then amplify"
        );
        let mut alone = survivors;
        alone.file.outcomes.truncate(1);
        assert!(alone.check_package("calc", Path::new("mutfuzz.out")).is_ok());
    }
}
