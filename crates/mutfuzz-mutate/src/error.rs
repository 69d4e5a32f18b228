//! Errors in the user's source that stop discovery.

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
