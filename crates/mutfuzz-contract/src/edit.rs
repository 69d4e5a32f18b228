//! The names of the edit strategies, which `cargo mutfuzz fuzz --edit` accepts and passes
//! on to the harness: defined once, here (the engine builds each one).

use std::fmt;
use std::str::FromStr;

/// The edits a user can select (`--edit`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EditKind {
    /// Zest's byte havoc (the default).
    #[default]
    Havoc,
    /// Structure-preserving edits over spans, with some havoc.
    Structure,
}

impl EditKind {
    /// Every kind, in the order `--help` lists them.
    pub const ALL: [EditKind; 2] = [EditKind::Havoc, EditKind::Structure];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EditKind::Havoc => "havoc",
            EditKind::Structure => "structure",
        }
    }

    /// One line for `--help`.
    pub fn description(self) -> &'static str {
        match self {
            EditKind::Havoc => "Zest's byte havoc: random runs of choice bytes overwritten",
            EditKind::Structure => {
                "structure-preserving edits of one typed span (subterm, variant switch, minimise, \
                 re-draw, splice, duplicate/drop an element), one child in five havoc"
            }
        }
    }

    /// `havoc|structure`, for usage messages.
    pub fn names() -> String {
        EditKind::ALL.map(EditKind::name).join("|")
    }
}

impl FromStr for EditKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        EditKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            let names: Vec<_> = EditKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown edit `{s}`; choose one of: {}", names.join(", "))
        })
    }
}

impl fmt::Display for EditKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_unknown_names_are_refused() {
        for k in EditKind::ALL {
            assert_eq!(k.name().parse::<EditKind>(), Ok(k));
        }
        assert_eq!(
            "afl".parse::<EditKind>().unwrap_err(),
            "unknown edit `afl`; choose one of: havoc, structure"
        );
        assert_eq!(EditKind::default(), EditKind::Havoc);
    }
}
