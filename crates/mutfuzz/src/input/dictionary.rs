//! The constant dictionary: literals of the crate under test (strings, byte strings,
//! chars, integers) that generators draw fresh values from and edits write into spans,
//! each with a configurable probability (SpotOn's constant strings, extended to every
//! primitive kind).

use super::value::Value;

/// Literals to draw from, and how often.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dictionary {
    /// String literals, and byte-string literals that are UTF-8.
    pub strings: Vec<String>,
    /// Char literals.
    pub chars: Vec<char>,
    /// Integer literals (and, for each, its neighbours are not added: the compare
    /// feedback tries ±1 where it matters).
    pub ints: Vec<i128>,
    /// Probability that a fresh string, char or integer comes from the dictionary when it
    /// has a value of that kind.
    pub chance: f64,
}

impl Dictionary {
    /// A dictionary of the given literals, drawn with probability `chance`.
    pub fn new(strings: Vec<String>, chars: Vec<char>, ints: Vec<i128>, chance: f64) -> Dictionary {
        Dictionary { strings, chars, ints, chance: chance.clamp(0.0, 1.0) }
    }

    /// Whether it holds no literal at all.
    pub fn is_empty(&self) -> bool {
        self.strings.is_empty() && self.chars.is_empty() && self.ints.is_empty()
    }

    /// Number of literals.
    pub fn len(&self) -> usize {
        self.strings.len() + self.chars.len() + self.ints.len()
    }

    /// The literal at `index` of `0..len()`, as a value an edit can write.
    pub fn value(&self, index: usize) -> Option<Value> {
        let (s, c) = (self.strings.len(), self.chars.len());
        if index < s {
            Some(Value::Str(self.strings[index].clone()))
        } else if index < s + c {
            Some(Value::Char(self.chars[index - s]))
        } else {
            self.ints.get(index - s - c).map(|&v| Value::Int(v))
        }
    }
}
