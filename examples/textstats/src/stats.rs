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

/// The longest word, the first of equal length. Only its doctest covers it, so its
/// mutants are caught (or missed) by the doctest alone.
///
/// ```
/// assert_eq!(textstats::stats::longest_word("a bbb cc"), Some("bbb"));
/// ```
pub fn longest_word(s: &str) -> Option<&str> {
    let mut best: Option<&str> = None;
    for w in s.split_whitespace() {
        if best.is_none_or(|b| w.len() > b.len()) {
            best = Some(w);
        }
    }
    best
}
