//! Source positions and diagnostics: byte spans, their line and column, and the errors
//! every stage reports.

use std::fmt;

/// A byte range of the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

/// Which stage found a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    Lex,
    Parse,
    Check,
    Run,
}

/// A problem with the program, at a place in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub stage: Stage,
    pub span: Span,
    pub message: String,
}

impl Diagnostic {
    pub fn new(stage: Stage, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { stage, span, message: message.into() }
    }

    /// `line:col: message`, counted in the given source.
    pub fn render(&self, source: &str) -> String {
        self.render_as(source, "error")
    }

    /// `line:col: Stage severity: message`.
    pub fn render_as(&self, source: &str, severity: &str) -> String {
        let (line, col) = line_col(source, self.span.start);
        format!("{line}:{col}: {:?} {severity}: {}", self.stage, self.message)
    }

    /// The message with the source lines it covers (at most three), numbered in a
    /// gutter, and a caret line under the first.
    pub fn excerpt(&self, source: &str) -> String {
        let (first, _) = line_col(source, self.span.start);
        let (last, _) = line_col(source, self.span.end.max(self.span.start + 1) - 1);
        let last = last.min(first + 2);
        let width = last.to_string().len();
        let mut out = format!("{}\n", self.render(source));
        for n in first..=last {
            out.push_str(&format!("{n:>width$} | {}\n", line_text(source, n)));
            if n == first {
                out.push_str(&format!("{:>width$} | {}\n", "", underline(source, self.span)));
            }
        }
        out
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}: {}", self.span.start, self.span.end, self.message)
    }
}

/// The 1-based line and column (in chars) of byte offset `at`.
pub fn line_col(source: &str, at: usize) -> (usize, usize) {
    let mut line = 1;
    let mut col = 1;
    for (i, c) in source.char_indices() {
        if i >= at {
            break;
        }
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    (line, col)
}

/// The text of line `line` (1-based), without its newline.
pub fn line_text(source: &str, line: usize) -> &str {
    source.lines().nth(line.saturating_sub(1)).unwrap_or("")
}

/// A caret under the span's first line: `   ^^^`.
pub fn underline(source: &str, span: Span) -> String {
    let (line, col) = line_col(source, span.start);
    let text = line_text(source, line);
    let width = source.get(span.start..span.end).map_or(1, |s| s.chars().take_while(|&c| c != '\n').count());
    let available = text.chars().count().saturating_sub(col - 1);
    let carets = width.clamp(1, available.max(1));
    format!("{}{}", " ".repeat(col - 1), "^".repeat(carets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_chars() {
        let src = "ab\ncdé\nf";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 3), (2, 1));
        assert_eq!(line_col(src, 7), (2, 4));
        assert_eq!(line_col(src, 8), (3, 1));
        assert_eq!(line_text(src, 2), "cdé");
        assert_eq!(underline(src, Span::new(4, 5)), " ^");
        let d = Diagnostic::new(Stage::Check, Span::new(3, 9), "bad");
        assert_eq!(d.excerpt(src), "2:1: Check error: bad\n2 | cdé\n  | ^^^\n3 | f\n");
    }

    #[test]
    fn spans_join_and_measure() {
        let s = Span::new(3, 5).to(Span::new(1, 4));
        assert_eq!(s, Span::new(1, 5));
        assert_eq!(s.len(), 4);
        assert!(Span::new(2, 2).is_empty());
    }
}
