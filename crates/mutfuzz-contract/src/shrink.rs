//! What the harness's `shrink` and `tmin` commands tell `cargo mutfuzz`: their one result
//! line on stdout ([`ShrinkLine`]) and the exit code of an input that does not have the
//! property to keep ([`EXIT_NOT_KEPT`](crate::EXIT_NOT_KEPT)).

use std::fmt;

/// What a shrink kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kept {
    /// These mutants are still killed (increasing ids).
    Kills(Vec<u32>),
    /// The original still panics with this message.
    Panic(String),
}

/// The result line of `shrink` and `tmin`:
/// `shrunk 120 -> 9 bytes in 412 runs; kills 3,17,40` or
/// `shrunk 120 -> 9 bytes in 412 runs; panics "message"` (the message as a JSON string,
/// so that it stays on one line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShrinkLine {
    /// Bytes of the input given.
    pub before: usize,
    /// Bytes of the shrunk input.
    pub after: usize,
    /// Runs of the property.
    pub runs: u64,
    /// What the shrunk input still does.
    pub kept: Kept,
}

impl fmt::Display for ShrinkLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "shrunk {} -> {} bytes in {} runs; ", self.before, self.after, self.runs)?;
        match &self.kept {
            Kept::Kills(ids) => {
                let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
                write!(f, "kills {}", ids.join(","))
            }
            Kept::Panic(message) => {
                write!(f, "panics {}", serde_json::to_string(message).map_err(|_| fmt::Error)?)
            }
        }
    }
}

impl ShrinkLine {
    /// Parses a result line (a trailing newline is ignored); `None` for any other line.
    pub fn parse(line: &str) -> Option<ShrinkLine> {
        let rest = line.trim_end_matches(['\r', '\n']).strip_prefix("shrunk ")?;
        let (sizes, kept) = rest.split_once(" runs; ")?;
        let (before, rest) = sizes.split_once(" -> ")?;
        let (after, runs) = rest.split_once(" bytes in ")?;
        let kept = if let Some(ids) = kept.strip_prefix("kills ") {
            Kept::Kills(ids.split(',').map(|id| id.parse().ok()).collect::<Option<_>>()?)
        } else {
            Kept::Panic(serde_json::from_str(kept.strip_prefix("panics ")?).ok()?)
        };
        Some(ShrinkLine {
            before: before.parse().ok()?,
            after: after.parse().ok()?,
            runs: runs.parse().ok()?,
            kept,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lines_round_trip_and_others_do_not_parse() {
        let kills = ShrinkLine { before: 120, after: 9, runs: 412, kept: Kept::Kills(vec![3, 17, 40]) };
        assert_eq!(kills.to_string(), "shrunk 120 -> 9 bytes in 412 runs; kills 3,17,40");
        let panic = ShrinkLine { before: 7, after: 1, runs: 5, kept: Kept::Panic("bad\n\"x\"".to_owned()) };
        assert_eq!(panic.to_string(), r#"shrunk 7 -> 1 bytes in 5 runs; panics "bad\n\"x\"""#);
        for line in [kills, panic] {
            assert_eq!(ShrinkLine::parse(&format!("{line}\n")), Some(line));
        }
        for other in [
            "shrunk",
            "shrunk 1 -> 2 bytes in 3 runs; kills 4,x",
            "trial 00",
            "shrunk a -> 1 bytes in 1 runs; kills 1",
        ] {
            assert_eq!(ShrinkLine::parse(other), None, "{other}");
        }
    }
}
