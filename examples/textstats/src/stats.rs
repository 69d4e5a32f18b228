//! Word statistics.

/// Number of words.
pub fn word_count(s: &str) -> usize {
    s.split_whitespace().count()
}

/// Mean word length, rounded down; `None` for no words.
pub fn mean_word_len(s: &str) -> Option<usize> {
    let words = word_count(s);
    if words == 0 {
        return None;
    }
    let letters: usize = s.split_whitespace().map(str::len).sum();
    Some(letters / words)
}
