//! The names of the schedules, which `cargo mutfuzz fuzz --schedule` accepts and passes
//! on to the harness: defined once, here (the engine builds each one).

use std::fmt;
use std::str::FromStr;

/// The schedules a user can select (`--schedule`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ScheduleKind {
    /// Zest's round-robin with energy (the default).
    #[default]
    Zest,
    /// MUTAGEN's exhaustive batches in priority-LIFO queues with adaptive R.
    Mutagen,
}

impl ScheduleKind {
    /// Every kind, in the order `--help` lists them.
    pub const ALL: [ScheduleKind; 2] = [ScheduleKind::Zest, ScheduleKind::Mutagen];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ScheduleKind::Zest => "zest",
            ScheduleKind::Mutagen => "mutagen",
        }
    }

    /// One line for `--help`.
    pub fn description(self) -> &'static str {
        match self {
            ScheduleKind::Zest => {
                "Zest: saved inputs round-robin, children by coverage, the --edit makes them"
            }
            ScheduleKind::Mutagen => {
                "MUTAGEN: every structure-preserving edit of each interesting input once, newest and \
                 most novel first, valid inputs before discarded ones, random edits R times (R doubles \
                 when progress stalls)"
            }
        }
    }

    /// `zest|mutagen`, for usage messages.
    pub fn names() -> String {
        ScheduleKind::ALL.map(ScheduleKind::name).join("|")
    }
}

impl FromStr for ScheduleKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        ScheduleKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            let names: Vec<_> = ScheduleKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown schedule `{s}`; choose one of: {}", names.join(", "))
        })
    }
}

impl fmt::Display for ScheduleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_unknown_names_are_refused() {
        for k in ScheduleKind::ALL {
            assert_eq!(k.name().parse::<ScheduleKind>(), Ok(k));
        }
        assert_eq!(
            "afl".parse::<ScheduleKind>().unwrap_err(),
            "unknown schedule `afl`; choose one of: zest, mutagen"
        );
        assert_eq!(ScheduleKind::default(), ScheduleKind::Zest);
    }
}
