//! The names of the guidance strategies, which `cargo mutfuzz fuzz --guidance` accepts
//! and passes on to the harness: defined once, here.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A built-in guidance strategy: which inputs a campaign keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GuidanceKind {
    /// Zest's coverage-only feedback: no mutants run while fuzzing.
    Coverage,
    /// Mu2: keep inputs that reach new code or kill a mutant no kept input killed.
    #[default]
    Mu2,
    /// P-μZest: keep inputs that reach new code or kill any mutant (killed before or not),
    /// and give those that kill KILL_FACTOR times the children.
    MuzestP,
    /// N-μZest: as P-μZest, but KILL_FACTOR times the children only for inputs that kill
    /// a new mutant, and KILL_FACTOR times fewer for those that kill only old ones.
    MuzestN,
    /// As Mu2, and also keep inputs that infect a surviving mutant no kept input infected
    /// (its site computed another value while the original recorded), with more children.
    Infection,
}

impl GuidanceKind {
    /// Every kind, the default first.
    pub const ALL: [GuidanceKind; 5] = [
        GuidanceKind::Mu2,
        GuidanceKind::Coverage,
        GuidanceKind::MuzestP,
        GuidanceKind::MuzestN,
        GuidanceKind::Infection,
    ];

    /// Its name on command lines and in reports.
    pub fn name(self) -> &'static str {
        match self {
            GuidanceKind::Coverage => "coverage",
            GuidanceKind::Mu2 => "mu2",
            GuidanceKind::MuzestP => "muzest-p",
            GuidanceKind::MuzestN => "muzest-n",
            GuidanceKind::Infection => "infection",
        }
    }

    /// One line for `--help`.
    pub fn describe(self) -> &'static str {
        match self {
            GuidanceKind::Coverage => "keep inputs that reach new sites or edges only (Zest)",
            GuidanceKind::Mu2 => "keep inputs that reach new sites or edges or kill new mutants (Mu2)",
            GuidanceKind::MuzestP => {
                "keep inputs that reach new sites or edges or kill any mutant; more children for killers (P-μZest)"
            }
            GuidanceKind::MuzestN => {
                "as muzest-p, but more children only for new kills and fewer for old ones (N-μZest)"
            }
            GuidanceKind::Infection => {
                "as mu2, and keep inputs that infect a surviving mutant no kept input infected; more children for them"
            }
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<GuidanceKind> {
        GuidanceKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// `mu2|coverage|muzest-p|muzest-n|infection`, for usage messages.
    pub fn names() -> String {
        GuidanceKind::ALL.map(GuidanceKind::name).join("|")
    }
}

impl fmt::Display for GuidanceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GuidanceKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GuidanceKind::from_name(s)
            .ok_or_else(|| format!("unknown guidance {s:?}: use {}", GuidanceKind::names()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_everywhere() {
        for k in GuidanceKind::ALL {
            assert_eq!(k.name().parse::<GuidanceKind>(), Ok(k));
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{k}\""));
        }
        assert_eq!(GuidanceKind::names(), "mu2|coverage|muzest-p|muzest-n|infection");
        assert_eq!(
            "zest".parse::<GuidanceKind>().unwrap_err(),
            "unknown guidance \"zest\": use mu2|coverage|muzest-p|muzest-n|infection"
        );
    }
}
