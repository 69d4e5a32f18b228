//! Why discovery or a configuration failed: [`Error`], and [`SyntaxError`], a source
//! file that does not parse, located for the user.

use std::path::PathBuf;

/// A source file that does not parse: the user's error, located for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Path of the file relative to the workspace root, with `/` separators.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in chars.
    pub column: usize,
    /// What the parser expected.
    pub message: String,
}

impl SyntaxError {
    /// The error `syn` gave for the file `file`.
    pub(crate) fn new(file: &str, e: &syn::Error) -> SyntaxError {
        let start = e.span().start();
        let mut message = e.to_string();
        if message == "cannot parse string into token stream" {
            // The lexer's words; it stops where delimiters stop matching.
            message =
                "unbalanced delimiters: a `(`, `[` or `{` before here is not closed, or this closes none"
                    .to_owned();
        }
        SyntaxError { file: file.to_owned(), line: start.line, column: start.column + 1, message }
    }
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// Why discovering mutants or reading a configuration failed. Each variant's text is one
/// link of the message; what it wraps is its [`source`](std::error::Error::source), so
/// `{:#}` of an `anyhow` error made from it reads `context: cause`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A source file of the package does not parse.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// A source file could not be read.
    #[error("failed to read source file {}", path.display())]
    ReadSource {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A configuration file could not be read.
    #[error("failed to read {}", path.display())]
    ReadConfig {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// `mutfuzz.toml` is not valid TOML or has an unknown key.
    #[error("failed to parse {}", path.display())]
    ParseConfig {
        /// The file.
        path: PathBuf,
        /// Why.
        source: toml::de::Error,
    },
    /// cargo-mutants' config is not valid TOML, or a key has a value of the wrong type.
    #[error("{what}")]
    CargoMutantsToml {
        /// `not valid TOML` or `a key has a value of the wrong type`.
        what: &'static str,
        /// Why.
        source: toml::de::Error,
    },
    /// A regex of the configuration or the command line does not compile.
    #[error("bad regex {pattern:?} in {origin}")]
    Regex {
        /// The pattern.
        pattern: String,
        /// Where it was given (`--re`, `exclude_re`, …).
        origin: String,
        /// Why.
        source: regex::Error,
    },
    /// A glob of the configuration or the command line does not compile.
    #[error("bad glob {pattern:?} in {origin}")]
    Glob {
        /// The pattern.
        pattern: String,
        /// Where it was given (`--exclude`, `exclude_files`, …).
        origin: String,
        /// Why.
        source: globset::Error,
    },
    /// A set of globs could not be built.
    #[error(transparent)]
    GlobSet(#[from] globset::Error),
    /// `exclude_operators` names an operator that does not exist.
    #[error("unknown operator {name:?} in exclude_operators; known: {known}")]
    UnknownOperator {
        /// The name given.
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// An error in a configuration file, said with where it is (`in <file>` or
    /// `in <file>, line <n>`).
    #[error("{place}")]
    In {
        /// Where.
        place: String,
        /// The error.
        source: Box<Error>,
    },
}

impl Error {
    /// This error placed in a configuration file.
    pub(crate) fn within(self, place: String) -> Error {
        Error::In { place, source: Box::new(self) }
    }
}

/// The whole chain of `e`'s messages, joined by `: ` (as `anyhow` shows it with `{:#}`).
pub(crate) fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut next = e.source();
    while let Some(cause) = next {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        next = cause.source();
    }
    text
}
