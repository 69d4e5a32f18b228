//! Source text with a line index: converts `syn` line/column positions to byte offsets.

use proc_macro2::LineColumn;

/// The text of one source file and the byte offset where each line starts.
#[derive(Debug, Clone)]
pub struct SourceText {
    text: String,
    line_starts: Vec<usize>,
}

impl SourceText {
    /// Index `text`.
    pub fn new(text: String) -> SourceText {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceText { text, line_starts }
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Byte offset of a `proc_macro2` position (1-based line, 0-based column in chars).
    pub fn offset(&self, pos: LineColumn) -> usize {
        let Some(&start) = self.line_starts.get(pos.line.saturating_sub(1)) else {
            return self.text.len();
        };
        let line = &self.text[start..];
        start + line.char_indices().nth(pos.column).map_or(line.len(), |(i, _)| i)
    }

    /// The text between two positions.
    pub fn slice(&self, start: LineColumn, end: LineColumn) -> &str {
        let (s, e) = (self.offset(start), self.offset(end));
        &self.text[s..e.max(s)]
    }
}

/// Collapse runs of whitespace (including newlines) to one space, for one-line descriptions.
pub fn squash(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.trim().chars() {
        if c.is_whitespace() {
            space = true;
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_columns_in_chars() {
        let s = SourceText::new("ab\nçd e\n".to_owned());
        assert_eq!(s.offset(LineColumn { line: 1, column: 1 }), 1);
        assert_eq!(s.offset(LineColumn { line: 2, column: 0 }), 3);
        // 'ç' is two bytes.
        assert_eq!(s.offset(LineColumn { line: 2, column: 2 }), 6);
        assert_eq!(s.slice(LineColumn { line: 2, column: 1 }, LineColumn { line: 2, column: 3 }), "d ");
    }

    #[test]
    fn squash_joins_lines() {
        assert_eq!(squash("  a +\n     b  "), "a + b");
    }
}
