//! The names of the pruning rules, which `cargo mutfuzz fuzz --prune` accepts and passes
//! on to the harness: defined once, here.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Which of the surviving mutants a trial runs on its input (Mu2, Section IV-B).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Prune {
    /// Those whose site the original executed on the input.
    Execution,
    /// Of those, the ones the original's run infected: their site would have computed
    /// a different value (mutants whose site has no probe count as infected).
    #[default]
    Infection,
}

impl Prune {
    /// Every rule, the default first.
    pub const ALL: [Prune; 2] = [Prune::Infection, Prune::Execution];

    /// Its name on command lines and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Prune::Execution => "execution",
            Prune::Infection => "infection",
        }
    }

    /// `infection|execution`, for usage messages.
    pub fn names() -> String {
        Prune::ALL.map(Prune::name).join("|")
    }
}

impl fmt::Display for Prune {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Prune {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Prune::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown pruning rule `{s}`: expected one of {}", Prune::names()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_unknown_names_are_refused() {
        for p in Prune::ALL {
            assert_eq!(p.name().parse::<Prune>(), Ok(p));
        }
        assert!("none".parse::<Prune>().unwrap_err().contains("infection|execution"));
        assert_eq!(Prune::default(), Prune::Infection);
    }
}
