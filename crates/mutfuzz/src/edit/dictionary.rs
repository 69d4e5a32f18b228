//! Dictionary edits: write a literal of the crate under test into one primitive span of
//! the parent (a whole string, char or integer), or splice a string literal into a
//! string span at a char boundary.

use std::sync::Arc;

use super::Parent;
use crate::input::{Dictionary, Leaf, Rng, Value};

/// Replaces the bytes of span `index` of `parent` with the encoding of `value`, into
/// `out`; `false` (and `out` unspecified) when the value does not fit the leaf.
pub(crate) fn write_value(
    parent: &Parent,
    index: usize,
    leaf: Leaf,
    value: &Value,
    out: &mut Vec<u8>,
) -> bool {
    let bytes = parent.input.as_bytes();
    let Some(span) = parent.spans.get(index) else { return false };
    if span.end > bytes.len() {
        return false;
    }
    out.clear();
    out.extend_from_slice(&bytes[..span.start]);
    if !leaf.encode(value, out) {
        return false;
    }
    out.extend_from_slice(&bytes[span.end..]);
    true
}

/// The leaf spans of `parent` (inside span `scope`, if given) whose bytes are exactly one
/// leaf's encoding, with their current values.
pub(crate) fn leaves_in(parent: &Parent, scope: Option<usize>) -> Vec<(usize, Leaf, Value)> {
    let bytes = parent.input.as_bytes();
    parent
        .spans
        .leaves()
        .filter(|&(i, span, _)| span.end <= bytes.len() && scope.is_none_or(|s| parent.spans.within(i, s)))
        .filter_map(|(i, span, leaf)| leaf.decode(&bytes[span.range()]).map(|v| (i, leaf, v)))
        .collect()
}

/// Writes dictionary literals into primitive spans.
#[derive(Clone, Debug)]
pub struct DictionaryEdit {
    dictionary: Arc<Dictionary>,
}

impl DictionaryEdit {
    /// Edits with the literals of `dictionary`.
    pub fn new(dictionary: Arc<Dictionary>) -> DictionaryEdit {
        DictionaryEdit { dictionary }
    }

    /// Writes one literal into one primitive span of `parent` (inside `scope`, if given);
    /// `false` when no literal fits any such span.
    pub fn edit_within(
        &self,
        parent: &Parent,
        scope: Option<usize>,
        rng: &mut Rng,
        out: &mut Vec<u8>,
    ) -> bool {
        let d = &self.dictionary;
        if d.is_empty() {
            return false;
        }
        let leaves = leaves_in(parent, scope);
        if leaves.is_empty() {
            return false;
        }
        // A few tries: a literal of the wrong kind or range does not fit a given span.
        for _ in 0..8 {
            let (index, leaf, current) = &leaves[rng.below(leaves.len() as u64) as usize];
            let Some(literal) = d.value(rng.below(d.len() as u64) as usize) else { continue };
            let value = match (current, &literal) {
                // Half the time a string literal goes inside the string, not over it: text
                // parsers look for keywords among other text.
                (Value::Str(s), Value::Str(_) | Value::Char(_)) if !s.is_empty() && rng.chance(0.5) => {
                    splice_str(s, &literal, rng)
                }
                _ => literal,
            };
            if write_value(parent, *index, *leaf, &value, out) {
                return true;
            }
        }
        false
    }
}

/// `s` with `literal` inserted at, or written over the chars from, a random char boundary.
fn splice_str(s: &str, literal: &Value, rng: &mut Rng) -> Value {
    let word = match literal {
        Value::Str(w) => w.clone(),
        Value::Char(c) => c.to_string(),
        Value::Int(_) => return literal.clone(),
    };
    let chars: Vec<char> = s.chars().collect();
    let at = rng.below(chars.len() as u64 + 1) as usize;
    let over = if rng.chance(0.5) { word.chars().count().min(chars.len() - at) } else { 0 };
    let mut out: String = chars[..at].iter().collect();
    out.push_str(&word);
    out.extend(&chars[at + over..]);
    Value::Str(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::corpus::CorpusEntry;
    use crate::guidance::Energy;
    use crate::{Gen, Source, Spans};

    #[derive(Debug, Gen, PartialEq)]
    enum Item {
        Word(String),
        Pair { code: u16, flag: bool },
    }

    pub(crate) fn entry_of<T: Gen>(seed: u64) -> (T, CorpusEntry, Spans) {
        let mut src = Source::new(Vec::new(), Rng::new(seed));
        let value = src.draw::<T>();
        let (input, spans) = src.into_input();
        let entry = CorpusEntry {
            input,
            name: String::new(),
            sites: 0,
            favoured: false,
            energy: Energy::Zest,
            kills: 0,
            trial: seed,
        };
        (value, entry, spans)
    }

    #[test]
    fn dictionary_edits_put_literals_into_deep_fields_and_keep_the_value_valid() {
        let d = Arc::new(Dictionary::new(vec!["magic-keyword".into()], vec![], vec![0x5eed], 1.0));
        let edit = DictionaryEdit::new(d);
        let (mut words, mut codes) = (0, 0);
        let mut rng = Rng::new(7);
        let mut out = Vec::new();
        for seed in 0..200 {
            let (_, parent, spans) = entry_of::<Vec<Item>>(seed);
            let parent = Parent::new(&parent, &spans);
            if !edit.edit_within(&parent, None, &mut rng, &mut out) {
                continue;
            }
            // Every child replays (any bytes do); the literal shows up in a field.
            let child: Vec<Item> = Source::new(out.clone(), Rng::new(0)).draw();
            words +=
                usize::from(child.iter().any(|i| matches!(i, Item::Word(w) if w.contains("magic-keyword"))));
            codes += usize::from(child.iter().any(|i| matches!(i, Item::Pair { code: 0x5eed, .. })));
        }
        assert!(words > 20 && codes > 20, "{words} {codes}");
    }

    #[test]
    fn fresh_strings_and_integers_come_from_the_dictionary_with_its_probability() {
        let d = Arc::new(Dictionary::new(vec!["magic-keyword".into()], vec![], vec![0x5eed], 0.5));
        let mut hits = (0, 0);
        for seed in 0..400 {
            let mut src = Source::new(Vec::new(), Rng::new(seed)).with_dictionary(Some(d.clone()));
            let (word, code): (String, u16) = src.draw();
            hits.0 += usize::from(word == "magic-keyword");
            hits.1 += usize::from(code == 0x5eed);
            // The stored bytes replay to the same value without the dictionary.
            let (input, _) = src.into_input();
            assert_eq!(Source::new(input.into_bytes(), Rng::new(1)).draw::<(String, u16)>(), (word, code));
        }
        assert!((150..250).contains(&hits.0) && (150..250).contains(&hits.1), "{hits:?}");
    }
}
