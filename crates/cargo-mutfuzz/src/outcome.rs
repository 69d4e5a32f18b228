//! The fixed vocabulary of mutant outcomes in test mode, and their tally.

use serde::Serialize;

use mutfuzz_mutate::Mutant;

/// What the test suite did about one mutant (names as in cargo-mutants).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
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
}

impl Outcome {
    /// Every outcome, in report order.
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
        }
    }
}

/// One mutant's outcome, with how it was reached.
#[derive(Clone, Debug, Serialize)]
pub struct MutantOutcome {
    /// The mutant.
    pub mutant: Mutant,
    /// Its outcome.
    pub outcome: Outcome,
    /// Tests run with the mutant active.
    pub tests_run: usize,
    /// Tests that failed (for `caught`), as libtest named them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failing_tests: Vec<String>,
    /// Time spent running it, in seconds.
    pub seconds: f64,
    /// More about the outcome: the compiler error of an unviable mutant, how a run ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// Counts by outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
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
}

impl Summary {
    /// Tally `outcomes`.
    pub fn of(outcomes: &[MutantOutcome]) -> Summary {
        let mut s = Summary { total: outcomes.len(), ..Summary::default() };
        for o in outcomes {
            *match o.outcome {
                Outcome::Caught => &mut s.caught,
                Outcome::Missed => &mut s.missed,
                Outcome::Timeout => &mut s.timeout,
                Outcome::Unviable => &mut s.unviable,
                Outcome::NotCovered => &mut s.not_covered,
            } += 1;
        }
        s
    }

    /// The exit code for these counts (see [`crate::exit_code`]).
    pub fn exit_code(&self) -> i32 {
        if self.missed > 0 || self.not_covered > 0 {
            crate::exit_code::FOUND_PROBLEMS
        } else if self.timeout > 0 {
            crate::exit_code::TIMEOUT
        } else {
            crate::exit_code::SUCCESS
        }
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} mutants: {} caught, {} missed, {} timeout, {} unviable, {} not covered",
            self.total, self.caught, self.missed, self.timeout, self.unviable, self.not_covered
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(caught: usize, missed: usize, timeout: usize, not_covered: usize) -> Summary {
        Summary { caught, missed, timeout, not_covered, ..Summary::default() }
    }

    #[test]
    fn exit_code_reports_missed_before_timeouts() {
        assert_eq!(summary(3, 0, 0, 0).exit_code(), 0);
        assert_eq!(summary(3, 1, 1, 0).exit_code(), 2);
        assert_eq!(summary(3, 0, 0, 1).exit_code(), 2);
        assert_eq!(summary(3, 0, 1, 0).exit_code(), 3);
    }
}
