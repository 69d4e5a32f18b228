//! The catalog entry of one mutant: where it is, what it changes, and its stable id.

use serde::{Deserialize, Serialize};

use crate::Operator;

/// A 1-based line and 1-based column (in chars) in the user's source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LineCol {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, counted in chars.
    pub column: usize,
}

/// A range of the user's source file (a *span* is a range of an input's choices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceRange {
    /// First character.
    pub start: LineCol,
    /// Just past the last character.
    pub end: LineCol,
}

impl From<proc_macro2::Span> for SourceRange {
    fn from(span: proc_macro2::Span) -> SourceRange {
        let (s, e) = (span.start(), span.end());
        SourceRange {
            start: LineCol { line: s.line, column: s.column + 1 },
            end: LineCol { line: e.line, column: e.column + 1 },
        }
    }
}

/// One mutant: `⟨site, operator, replacement⟩` with a stable id.
///
/// Ids start at 1 (0 is the original program) and are assigned in discovery order, so
/// the same source gives the same ids. The mutants of one site have consecutive ids; the
/// site is named by the first of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mutant {
    /// Stable id, from 1.
    pub id: u32,
    /// Id of the first mutant of this mutant's site.
    pub site: u32,
    /// Package the file belongs to.
    pub package: String,
    /// Path of the source file relative to the workspace root, with `/` separators.
    pub file: String,
    /// Where the change is, in the user's source. (The JSON name `span` is kept for
    /// existing catalogs.)
    pub span: SourceRange,
    /// The enclosing function, qualified by module and type (`parse::Lexer::next`).
    pub function: String,
    /// What kind of change this is.
    pub operator: Operator,
    /// The text the mutant replaces (squashed to one line).
    pub original: String,
    /// The text it puts in its place (empty for a deletion).
    pub replacement: String,
    /// One-line description, in cargo-mutants' wording where an operator matches theirs.
    pub description: String,
    /// Whether the schema probes this mutant's site for infection while the original
    /// records (so a run that never infected it can skip it).
    #[serde(default)]
    pub probe: bool,
    /// The cargo features the `cfg`s around it ask for (`#[cfg(feature = "serde")] mod
    /// serde;`): with one of them off, its code is not built, and no test can reach it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
}

impl Mutant {
    /// `src/lib.rs:64:22: replace != with == in generic_hamming`.
    pub fn name(&self) -> String {
        format!("{}:{}:{}: {}", self.file, self.span.start.line, self.span.start.column, self.description)
    }
}
