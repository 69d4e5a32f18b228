//! `Gen` and `GenLen` for strings and collections: `String`, `Vec`, `VecDeque`, maps and sets.
//!
//! Every collection is drawn element by element through [`Source::repeat`]:
//! one continuation byte before each optional element, each element its own
//! span (a map entry is one `(K, V)` span).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};
use std::ops::RangeBounds;

use super::{Gen, GenLen};
use crate::input::{Leaf, Source};

impl Gen for String {
    fn generate(src: &mut Source) -> Self {
        Self::generate_len(src, ..)
    }
}

impl GenLen for String {
    /// `len` counts chars, not bytes. Each char is its own span, so edits can
    /// re-draw, copy or drop single chars.
    fn generate_len(src: &mut Source, len: impl RangeBounds<usize>) -> Self {
        let mut repeat = src.repeat(len);
        let (min, max) = repeat.bounds();
        let start = src.position();
        src.fresh_dictionary_str(min, max);
        let mut out = String::new();
        while repeat.more(src) {
            // Each char its own span (an element a structure edit can copy or drop).
            out.push(src.draw::<char>());
        }
        src.note_leaf(start, Leaf::Str { min, max });
        out
    }
}

macro_rules! gen_sequence {
    ($($seq:ident :: $push:ident),*) => {$(
        impl<T: Gen> Gen for $seq<T> {
            fn generate(src: &mut Source) -> Self {
                Self::generate_len(src, ..)
            }
        }

        impl<T: Gen> GenLen for $seq<T> {
            fn generate_len(src: &mut Source, len: impl RangeBounds<usize>) -> Self {
                let mut repeat = src.repeat(len);
                let mut out = $seq::new();
                while repeat.more(src) {
                    out.$push(src.draw());
                }
                out
            }
        }
    )*};
}
gen_sequence!(Vec::push, VecDeque::push_back);

impl<T: Gen + Ord> Gen for BTreeSet<T> {
    fn generate(src: &mut Source) -> Self {
        Self::generate_len(src, ..)
    }
}

impl<T: Gen + Ord> GenLen for BTreeSet<T> {
    fn generate_len(src: &mut Source, len: impl RangeBounds<usize>) -> Self {
        let mut repeat = src.repeat(len);
        let mut out = BTreeSet::new();
        while repeat.more(src) {
            if !out.insert(src.draw()) {
                repeat.reject();
            }
        }
        out
    }
}

impl<T: Gen + Eq + Hash, S: BuildHasher + Default> Gen for HashSet<T, S> {
    fn generate(src: &mut Source) -> Self {
        Self::generate_len(src, ..)
    }
}

impl<T: Gen + Eq + Hash, S: BuildHasher + Default> GenLen for HashSet<T, S> {
    fn generate_len(src: &mut Source, len: impl RangeBounds<usize>) -> Self {
        let mut repeat = src.repeat(len);
        let mut out = HashSet::default();
        while repeat.more(src) {
            if !out.insert(src.draw()) {
                repeat.reject();
            }
        }
        out
    }
}

impl<K: Gen + Ord, V: Gen> Gen for BTreeMap<K, V> {
    fn generate(src: &mut Source) -> Self {
        Self::generate_len(src, ..)
    }
}

impl<K: Gen + Ord, V: Gen> GenLen for BTreeMap<K, V> {
    /// A repeated key replaces the earlier entry and does not count towards the length.
    fn generate_len(src: &mut Source, len: impl RangeBounds<usize>) -> Self {
        let mut repeat = src.repeat(len);
        let mut out = BTreeMap::new();
        while repeat.more(src) {
            let (key, value) = src.draw::<(K, V)>();
            if out.insert(key, value).is_some() {
                repeat.reject();
            }
        }
        out
    }
}

impl<K: Gen + Eq + Hash, V: Gen, S: BuildHasher + Default> Gen for HashMap<K, V, S> {
    fn generate(src: &mut Source) -> Self {
        Self::generate_len(src, ..)
    }
}

impl<K: Gen + Eq + Hash, V: Gen, S: BuildHasher + Default> GenLen for HashMap<K, V, S> {
    /// A repeated key replaces the earlier entry and does not count towards the length.
    fn generate_len(src: &mut Source, len: impl RangeBounds<usize>) -> Self {
        let mut repeat = src.repeat(len);
        let mut out = HashMap::default();
        while repeat.more(src) {
            let (key, value) = src.draw::<(K, V)>();
            if out.insert(key, value).is_some() {
                repeat.reject();
            }
        }
        out
    }
}
