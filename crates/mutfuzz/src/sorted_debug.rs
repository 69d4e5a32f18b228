//! [`SortedDebug`]: an output wrapper whose `Debug` rendering is the same whatever the
//! iteration order of the hash maps and sets inside it, so that the default oracle (equal
//! `Debug` renderings) can judge a function returning a `HashMap` or a struct holding one.
//!
//! A `HashMap` or `HashSet` iterates in an order drawn at random per map, so two runs of
//! the same code on the same input render differently and every mutant would be "killed"
//! by the order. `cargo mutfuzz init --auto` wraps such outputs in `SortedDebug`.

use std::fmt::{self, Debug};

/// Wraps an output so that its `Debug` text is made canonical: the entries of every brace
/// group `{…}` that no type name precedes — the `Debug` of a map (`{k: v, …}`) or a set
/// (`{a, b}`), as `HashMap` and `HashSet` print — are sorted (as text), at any depth, so a
/// map inside a struct's derived `Debug` is sorted too. Struct braces (`Point { x: 1 }`)
/// keep their field order. String and char literals are copied as they are, whatever
/// braces, commas or quotes they hold. The rendering is always the compact one (`{:?}`).
///
/// ```
/// use std::collections::HashMap;
///
/// #[derive(Debug)]
/// struct Counts {
///     words: HashMap<String, usize>,
/// }
///
/// let words: HashMap<String, usize> = [("b", 2), ("a", 1), ("c", 3)]
///     .into_iter()
///     .map(|(w, n)| (w.to_owned(), n))
///     .collect();
/// let out = mutfuzz::SortedDebug(Counts { words });
/// assert_eq!(format!("{out:?}"), r#"Counts { words: {"a": 1, "b": 2, "c": 3} }"#);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SortedDebug<T>(pub T);

impl<T: Debug> Debug for SortedDebug<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&canonical(&format!("{:?}", self.0)))
    }
}

/// The items of an iterator over a hash container, rendered as a list (`[a, b]`) of
/// their `Debug` texts (each [`SortedDebug`]'s) in sorted order: the same list however
/// the container happens to order them. `cargo mutfuzz init --auto` renders such an
/// iterator, returned by a method of a type holding a hash container, with it. Items
/// past [`DEBUG_BOUND`](crate::DEBUG_BOUND) bytes are only counted, and the rendering is
/// their number and `…` (which first ones fit would differ between runs).
///
/// ```
/// use std::collections::HashSet;
///
/// let set: HashSet<u32> = [30, 4, 100].into_iter().collect();
/// assert_eq!(mutfuzz::debug_unordered(set.iter()), "[100, 30, 4]");
/// ```
pub fn debug_unordered<I: IntoIterator>(items: I) -> String
where
    I::Item: Debug,
{
    let mut texts = Vec::new();
    let (mut len, mut count) = (0, 0usize);
    for item in items {
        count += 1;
        if len <= crate::DEBUG_BOUND {
            let text = crate::debug_bounded(&SortedDebug(&item));
            len += text.len() + 2;
            texts.push(text);
        }
    }
    if len > crate::DEBUG_BOUND {
        return format!("{count} items…");
    }
    texts.sort_unstable();
    format!("[{}]", texts.join(", "))
}

/// `text` with the entries of its map and set groups sorted (see [`SortedDebug`]).
///
/// One pass over `text` into one output buffer: each group's entries are written there
/// (their own groups sorted first), then appended again in sorted order and the unsorted
/// copy removed. A byte is moved once per enclosing sorted group, and only the entry
/// boundaries are sorted, so the work is linear in the text times the nesting depth.
pub(crate) fn canonical(text: &str) -> String {
    let mut c =
        Canon { src: text.as_bytes(), at: 0, out: Vec::with_capacity(text.len()), entries: Vec::new() };
    while c.at < c.src.len() {
        // A closer with no opener is plain text at the top level.
        c.fill(false);
        if c.at < c.src.len() {
            c.copy(1);
        }
    }
    // Only whole UTF-8 sequences are moved (every split is at an ASCII byte).
    String::from_utf8(c.out).unwrap_or_else(|_| text.to_owned())
}

struct Canon<'a> {
    src: &'a [u8],
    at: usize,
    out: Vec<u8>,
    /// The entry ranges in `out` of the groups being read, innermost last.
    entries: Vec<(usize, usize)>,
}

impl Canon<'_> {
    fn copy(&mut self, n: usize) {
        let end = (self.at + n).min(self.src.len());
        self.out.extend_from_slice(&self.src[self.at..end]);
        self.at = end;
    }

    /// Copies text up to (not including) a closer (`)`, `]`, `}`) of the enclosing level
    /// or the end, or, `in_group`, a comma of this level; brace groups are canonicalized
    /// on the way and literals copied whole.
    fn fill(&mut self, in_group: bool) {
        // Brackets and parentheses opened at this level, and generic angle brackets of a
        // type name (`PhantomData<HashMap<u8, u8>>`), whose commas split no entry.
        let (mut depth, mut angles) = (0usize, 0usize);
        while let Some(&b) = self.src.get(self.at) {
            match b {
                b'"' => self.string(),
                b'\'' => self.char_literal(),
                b'{' => self.group(),
                b'(' | b'[' => {
                    depth += 1;
                    self.copy(1);
                }
                b')' | b']' | b'}' if depth == 0 => return,
                b')' | b']' => {
                    depth -= 1;
                    self.copy(1);
                }
                b'<' if self.out.last().is_some_and(|&p| is_name_byte(p)) => {
                    angles += 1;
                    self.copy(1);
                }
                b'>' if angles > 0 && self.out.last() != Some(&b'-') => {
                    angles -= 1;
                    self.copy(1);
                }
                b',' if in_group && depth == 0 && angles == 0 => return,
                _ => self.copy(1),
            }
        }
    }

    /// A brace group at `{`: a map or set (no type name before it) has its entries
    /// sorted; a struct's fields keep their order. Either way its contents are canonical.
    fn group(&mut self) {
        let after_name = self.out.iter().rev().find(|&&b| b != b' ').is_some_and(|&b| is_name_byte(b));
        self.copy(1);
        let base = self.entries.len();
        let start = self.out.len();
        loop {
            let entry = self.out.len();
            self.fill(true);
            self.entries.push((entry, self.out.len()));
            match self.src.get(self.at) {
                Some(b',') if !after_name => {
                    // Separators are written again after sorting.
                    self.at += 1;
                    if self.src.get(self.at) == Some(&b' ') {
                        self.at += 1;
                    }
                }
                Some(b',') => self.copy(1),
                Some(b'}') => {
                    if !after_name {
                        self.sort_entries(base, start);
                    }
                    self.entries.truncate(base);
                    self.copy(1);
                    return;
                }
                // An unclosed group (a `Debug` that prints a lone `{`) is not sorted: its
                // entries may not be entries. The separators dropped are put back.
                _ => {
                    if !after_name {
                        self.rejoin(base, start);
                    }
                    self.entries.truncate(base);
                    return;
                }
            }
        }
    }

    /// Appends the group's entries (`entries[base..]`, written from `start`) in sorted
    /// order, separated by `, `, and removes the unsorted copy before them.
    fn sort_entries(&mut self, base: usize, start: usize) {
        let out = &self.out;
        self.entries[base..].sort_unstable_by(|a, b| out[a.0..a.1].cmp(&out[b.0..b.1]));
        self.rejoin(base, start);
    }

    fn rejoin(&mut self, base: usize, start: usize) {
        let end = self.out.len();
        for k in base..self.entries.len() {
            if k > base {
                self.out.extend_from_slice(b", ");
            }
            let (a, b) = self.entries[k];
            self.out.extend_from_within(a..b);
        }
        self.out.drain(start..end);
    }

    /// A string literal from its `"` to the closing one, escapes included.
    fn string(&mut self) {
        let mut j = self.at + 1;
        while let Some(&b) = self.src.get(j) {
            match b {
                b'\\' => j += 2,
                b'"' => break,
                _ => j += 1,
            }
        }
        self.copy(j + 1 - self.at);
    }

    /// A char literal (`'a'`, `'\''`, `'\u{1f600}'`) copied whole; a `'` that starts
    /// none is plain text.
    fn char_literal(&mut self) {
        let rest = &self.src[self.at..];
        let len = match rest.get(1) {
            Some(b'\\') => rest.iter().skip(3).take(10).position(|&b| b == b'\'').map(|p| p + 4),
            Some(&lead) => {
                let width = utf8_width(lead);
                (rest.get(1 + width) == Some(&b'\'')).then_some(width + 2)
            }
            None => None,
        };
        self.copy(len.unwrap_or(1));
    }
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The length of the UTF-8 sequence that `lead` starts.
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xf0.. => 4,
        0xe0.. => 3,
        0xc0.. => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap, HashSet};

    use super::*;

    fn sorted<T: Debug>(value: T) -> String {
        format!("{:?}", SortedDebug(value))
    }

    #[test]
    fn unordered_items_render_alike_in_any_order_and_a_long_list_as_its_count() {
        let texts = ["b".to_owned(), "a".to_owned()];
        assert_eq!(debug_unordered(texts.iter()), debug_unordered(texts.iter().rev()));
        assert_eq!(debug_unordered(texts.iter()), r#"["a", "b"]"#);
        assert_eq!(debug_unordered(std::iter::empty::<u8>()), "[]");
        let long = debug_unordered((0..10_000u32).rev());
        assert_eq!(long, "10000 items…");
    }

    #[test]
    fn maps_and_sets_render_sorted_whatever_their_order() {
        let map: HashMap<String, usize> = (0..40).map(|i| (format!("k{i}"), i)).collect();
        let mut keys: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        keys.sort();
        assert_eq!(sorted(&map), format!("{{{}}}", keys.join(", ")));
        // Another map with the same entries iterates in another order, renders the same.
        let again: HashMap<String, usize> = (0..40).rev().map(|i| (format!("k{i}"), i)).collect();
        assert_eq!(sorted(&again), sorted(&map));
        let set: HashSet<u32> = [30, 4, 100, 2].into();
        assert_eq!(sorted(set), "{100, 2, 30, 4}");
        assert_eq!(sorted(HashMap::<u8, u8>::new()), "{}");
        assert_eq!(sorted(BTreeMap::from([(1, 'b'), (2, 'a')])), "{1: 'b', 2: 'a'}");
    }

    // Their fields are read through `Debug` only.
    #[allow(dead_code)]
    #[derive(Debug)]
    struct Inner {
        tags: HashSet<&'static str>,
    }

    #[allow(dead_code)]
    #[derive(Debug)]
    struct Outer {
        name: String,
        by_key: HashMap<char, Vec<Inner>>,
        pair: (u8, HashSet<u8>),
    }

    #[test]
    fn nested_groups_are_sorted_and_struct_fields_keep_their_order() {
        let value = Outer {
            name: "z {b, a} \"q\" ' ,".into(),
            by_key: HashMap::from([
                ('}', vec![Inner { tags: ["y", "x"].into() }]),
                ('\'', vec![Inner { tags: ["b,c", "a}"].into() }, Inner { tags: HashSet::new() }]),
                ('{', vec![]),
            ]),
            pair: (7, [9, 8].into()),
        };
        assert_eq!(
            sorted(&value),
            r#"Outer { name: "z {b, a} \"q\" ' ,", by_key: {'\'': [Inner { tags: {"a}", "b,c"} }, Inner { tags: {} }], '{': [], '}': [Inner { tags: {"x", "y"} }]}, pair: (7, {8, 9}) }"#
        );
        let maps: Vec<Option<HashMap<u8, &str>>> =
            vec![Some([(2, "}, {"), (1, "\\")].into()), None, Some([(3, "'")].into())];
        assert_eq!(sorted(maps), r#"[Some({1: "\\", 2: "}, {"}), None, Some({3: "'"})]"#);
    }

    #[test]
    fn text_that_is_no_literal_or_group_is_kept_as_it_is() {
        struct Odd;
        impl Debug for Odd {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("it's: {b, a")
            }
        }
        // An unclosed group is not sorted; a lone quote is plain text.
        assert_eq!(sorted(Odd), "it's: {b, a");
        assert_eq!(sorted(("é", 'é', '\u{1f600}', "}")), r#"("é", 'é', '😀', "}")"#);
        assert_eq!(canonical("{PhantomData<fn(u8) -> u8>, A<B, C>}"), "{A<B, C>, PhantomData<fn(u8) -> u8>}");
        assert_eq!(canonical(") {b, a} ]"), ") {a, b} ]");
    }
}
