//! The names of the isolation rules, which `cargo mutfuzz fuzz --isolate` accepts and
//! passes on to the harness: defined once, here.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Which mutant runs go to a worker process instead of the harness, so that a mutant
/// that takes its process down (abort, out of memory) costs a worker, not the harness
/// with its in-memory corpus and coverage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Isolate {
    /// None: every run may happen in the harness (workers only share the work).
    None,
    /// Each mutant's first run: a mutant that aborts or exhausts memory usually does so
    /// on the first input that infects it (infection pruning runs it on no other), and it
    /// is killed then and never runs again.
    #[default]
    FirstRuns,
    /// Every run (the libFuzzer command line, which has no supervisor to restart it).
    All,
}

impl Isolate {
    /// Every rule, the default first.
    pub const ALL: [Isolate; 3] = [Isolate::FirstRuns, Isolate::None, Isolate::All];

    /// Its name on command lines and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Isolate::None => "none",
            Isolate::FirstRuns => "first-runs",
            Isolate::All => "all",
        }
    }

    /// `first-runs|none|all`, for usage messages.
    pub fn names() -> String {
        Isolate::ALL.map(Isolate::name).join("|")
    }
}

impl fmt::Display for Isolate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Isolate {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Isolate::ALL
            .into_iter()
            .find(|i| i.name() == s)
            .ok_or_else(|| format!("unknown isolation rule `{s}`: expected one of {}", Isolate::names()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_unknown_names_are_refused() {
        for i in Isolate::ALL {
            assert_eq!(i.name().parse::<Isolate>(), Ok(i));
        }
        assert!("some".parse::<Isolate>().unwrap_err().contains("first-runs|none|all"));
        assert_eq!(Isolate::default(), Isolate::FirstRuns);
    }
}
