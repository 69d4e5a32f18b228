//! The shrinker: reduces one input (a choice sequence) in shortlex order while a property
//! of it keeps holding, with Hypothesis's passes over the spans the generator records.
//!
//! Candidates are edits of the current input: a whole span deleted, a collection element
//! or a string's char dropped, a span replaced by its simplest value, a collection's
//! elements sorted, a run of 8, 4, 2 or 1 bytes deleted, an integer leaf or a single byte
//! lowered toward 0 by binary search.
//! Any byte string replays to a value, so every candidate runs; before it does it is
//! *normalized*: replayed through the generator with the choices past its end drawn as
//! the simplest ones (zero bytes, the first non-recursive variant) and cut to what the
//! generator read. Only a normalized candidate that is smaller than the current input
//! and was not tried before is run, so the shrink terminates, and the passes repeat until
//! a round improves nothing or the budget ([`ShrinkBudget`]) is spent.
//!
//! "Smaller" is shortlex (shorter, or as long and lexicographically smaller) on the
//! input's *order key*: its bytes with each multi-byte integer and char choice read most
//! significant byte first ([`order_key`]). Choices are stored little-endian, and on the
//! raw bytes 1024 (`00 04`) would come before 1000 (`e8 03`): a shrink would then stop at
//! values no person would write. A char choice is keyed by how simply the char reads in a
//! test ([`char_rank`]): letters, digits, space and punctuation before control chars, so a
//! string shrinks to `"ab"` rather than to the `"a\0"` whose raw choice is smaller.
//!
//! The properties the harness keeps (`shrink`: the input still kills a set of mutants,
//! `tmin`: the original still panics with the same message) are in `property.rs`; the
//! harness commands that run it are in `harness/shrink.rs`.

pub(crate) mod property;

use std::collections::{BTreeMap, HashSet};
use std::ops::Range;
use std::time::{Duration, Instant};

use crate::r#gen::Gen;
use crate::input::{
    Fill, Input, Leaf, Limits, Rewrite, Rng, Source, SpanKind, Spans, choice_width, decode_char, encode_char,
};

/// How much work a shrink may do: it stops after `max_runs` runs of the property or once
/// `time` has passed (checked before each run), whichever comes first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShrinkBudget {
    /// Most runs of the property (`None`: no limit).
    pub max_runs: Option<u64>,
    /// Longest time the shrink may take (`None`: no limit).
    pub time: Option<Duration>,
}

/// The runs of the property a harness command allows when `--max-runs` is not given: each
/// run costs the original plus one run per kept mutant, and the passes reach a fixpoint
/// on inputs of a few hundred bytes well within it.
pub const DEFAULT_MAX_RUNS: u64 = 10_000;

/// The result of a shrink.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shrunk {
    /// The smallest input found that has the property (the normalized original if none).
    pub input: Input,
    /// Runs of the property.
    pub runs: u64,
    /// Candidates accepted (each smaller than the one before).
    pub shrinks: u64,
    /// Whether the budget ran out before the passes reached a fixpoint.
    pub exhausted: bool,
}

/// Whether `a` comes before `b` in shortlex order: shorter first, then bytewise.
pub fn shortlex_less(a: &[u8], b: &[u8]) -> bool {
    (a.len(), a) < (b.len(), b)
}

/// The bytes `input` replays to as a `T` is generated from them the way every run does
/// (extended by `Rng::new(0)` when too short, cut to what the generator read).
pub fn normalize_replay<T: Gen>(input: &[u8], limits: Limits) -> Vec<u8> {
    let mut src = Source::new(input.to_vec(), Rng::new(0)).with_limits(limits).with_spans(false);
    let _: T = src.draw();
    src.into_input().0.into_bytes()
}

/// Shrinks `input` while `property` holds, returning the shortlex-smallest input found.
///
/// `property` gets normalized bytes (a run regenerates the same value from them without
/// fresh choices); the caller has checked that it holds on `input`, which is normalized
/// as a run replays it first (see [`normalize_replay`]). `limits` are the generation
/// limits the runs use.
///
/// ```
/// use mutfuzz::shrink::{ShrinkBudget, shrink};
/// use mutfuzz::{Limits, Rng, Source};
///
/// // The smallest vector with a byte of at least 10 and three elements.
/// let holds = |bytes: &[u8]| {
///     let v: Vec<u8> = Source::new(bytes.to_vec(), Rng::new(0)).draw();
///     v.len() >= 3 && v.iter().any(|&b| b >= 10)
/// };
/// let big: Vec<u8> = (0..40).flat_map(|i| [1, 30 + i]).chain([0]).collect();
/// let shrunk = shrink::<Vec<u8>>(&big, Limits::default(), ShrinkBudget::default(), &mut |b| holds(b));
/// let v: Vec<u8> = Source::new(shrunk.input.into_bytes(), Rng::new(0)).draw();
/// assert_eq!(v, [0, 0, 10]);
/// ```
pub fn shrink<T: Gen>(
    input: &[u8],
    limits: Limits,
    budget: ShrinkBudget,
    property: &mut dyn FnMut(&[u8]) -> bool,
) -> Shrunk {
    let current = normalize_replay::<T>(input, limits);
    let spans = record_spans::<T>(&current, limits);
    let mut s = Shrinker {
        key: order_key(&current, &spans),
        current,
        spans,
        limits,
        budget,
        started: Instant::now(),
        property,
        tried: HashSet::new(),
        runs: 0,
        shrinks: 0,
        normalize: normalize_minimal::<T>,
    };
    loop {
        // `|`, not `||`: every pass runs each round, in this order.
        let improved = s.delete_spans()
            | s.drop_elements()
            | s.simplest_spans()
            | s.sort_elements()
            | s.delete_runs()
            | s.lower_integers()
            | s.lower_chars()
            | s.lower_bytes();
        if !improved || s.spent() {
            break;
        }
    }
    let exhausted = s.spent();
    Shrunk { input: Input::new(s.current), runs: s.runs, shrinks: s.shrinks, exhausted }
}

/// The spans of the value `bytes` replay to (normalized bytes: nothing fresh is drawn).
fn record_spans<T: Gen>(bytes: &[u8], limits: Limits) -> Spans {
    let mut src = Source::new(bytes.to_vec(), Rng::new(0)).with_limits(limits);
    let _: T = src.draw();
    src.into_input().1
}

/// A candidate replayed with choices past its end drawn as the simplest ones, and with
/// `rewrite` (one span replaced by its simplest value) applied first when given; returns
/// its normalized bytes and spans.
fn normalize_minimal<T: Gen>(
    candidate: Vec<u8>,
    rewrite: Option<Rewrite>,
    limits: Limits,
) -> (Vec<u8>, Spans) {
    let candidate = match rewrite {
        Some(rw) => {
            let mut src =
                Source::new(candidate, Rng::new(0)).with_limits(limits).with_spans(false).with_rewrite(rw);
            let _: T = src.draw();
            src.into_input().0.into_bytes()
        }
        None => candidate,
    };
    // The whole value (span 0) is rewritten with the candidate as its content: what it
    // reads past the end is the simplest value, not fresh random choices, so a deletion
    // near the end shortens the input instead of growing random bytes.
    let len = candidate.len();
    let whole = Rewrite { span: 0, start: 0, len, fill: Fill::Minimal, donors: Vec::new() };
    let mut src = Source::new(candidate, Rng::new(0)).with_limits(limits).with_rewrite(whole);
    let _: T = src.draw();
    let (input, _) = src.into_input();
    // Spans of the bytes as a plain replay reads them (no rewrite in force).
    let bytes = input.into_bytes();
    let spans = record_spans::<T>(&bytes, limits);
    (bytes, spans)
}

type Normalize = fn(Vec<u8>, Option<Rewrite>, Limits) -> (Vec<u8>, Spans);

/// One shrink in progress: the current input, its spans, and the candidates tried.
struct Shrinker<'p> {
    current: Vec<u8>,
    /// The order key of `current`.
    key: Vec<u8>,
    spans: Spans,
    limits: Limits,
    budget: ShrinkBudget,
    started: Instant,
    property: &'p mut dyn FnMut(&[u8]) -> bool,
    /// Normalized candidates that were run and failed: never run twice.
    tried: HashSet<Vec<u8>>,
    runs: u64,
    shrinks: u64,
    normalize: Normalize,
}

impl Shrinker<'_> {
    fn spent(&self) -> bool {
        self.budget.max_runs.is_some_and(|n| self.runs >= n)
            || self.budget.time.is_some_and(|t| self.started.elapsed() >= t)
    }

    /// Runs `candidate` (normalized) if it is smaller than the current input and new;
    /// makes it the current input if the property holds.
    fn consider(&mut self, candidate: Vec<u8>, rewrite: Option<Rewrite>) -> bool {
        if self.spent() {
            return false;
        }
        let (bytes, spans) = (self.normalize)(candidate, rewrite, self.limits);
        let key = order_key(&bytes, &spans);
        if !shortlex_less(&key, &self.key) || self.tried.contains(&bytes) {
            return false;
        }
        self.runs += 1;
        if (self.property)(&bytes) {
            self.current = bytes;
            self.key = key;
            self.spans = spans;
            self.shrinks += 1;
            true
        } else {
            self.tried.insert(bytes);
            false
        }
    }

    /// The current input without `range`.
    fn without(&self, range: Range<usize>) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.current.len() - range.len());
        v.extend_from_slice(&self.current[..range.start]);
        v.extend_from_slice(&self.current[range.end..]);
        v
    }

    /// Deletes each whole span (a collection's element with its continuation byte first),
    /// from the outermost: a deleted sub-value takes its inner spans with it.
    fn delete_spans(&mut self) -> bool {
        let mut improved = false;
        let mut i = 0;
        while i < self.spans.len() && !self.spent() {
            let span = self.spans[i];
            let mut ranges = Vec::new();
            if let Some(r) = span.parent.and_then(|p| element_range(&self.spans, p, i)) {
                ranges.push(r);
            }
            if !span.is_empty() {
                ranges.push(span.range());
            }
            let deleted = ranges.into_iter().any(|r| {
                let candidate = self.without(r);
                self.consider(candidate, None)
            });
            if deleted {
                improved = true;
            } else {
                i += 1;
            }
        }
        improved
    }

    /// Drops the elements of each collection and the chars of each string, one at a time,
    /// from the last: the ones before keep their place.
    fn drop_elements(&mut self) -> bool {
        let mut improved = false;
        let mut i = 0;
        while i < self.spans.len() && !self.spent() {
            let mut elements: Vec<Range<usize>> = match (self.spans.kind(i), self.spans.leaf(i)) {
                (Some(SpanKind::Collection), _) => {
                    let children: Vec<usize> = self.spans.children(i).map(|(c, _)| c).collect();
                    children.into_iter().filter_map(|c| element_range(&self.spans, i, c)).collect()
                }
                (_, Some(Leaf::Str { min, max })) => char_ranges(&self.spans[i].range(), min, max),
                _ => Vec::new(),
            };
            elements.reverse();
            let mut dropped = false;
            for r in elements {
                let candidate = self.without(r);
                if self.consider(candidate, None) {
                    dropped = true;
                    break;
                }
            }
            if dropped {
                // The spans changed: look at this collection again.
                improved = true;
            } else {
                i += 1;
            }
        }
        improved
    }

    /// Replaces each span by its simplest value (in place, the rest of the input kept),
    /// else zeroes its bytes (for an enum: the first variant, its fields kept).
    fn simplest_spans(&mut self) -> bool {
        let mut improved = false;
        let mut i = 0;
        while i < self.spans.len() && !self.spent() {
            let span = self.spans[i];
            if span.is_empty() {
                i += 1;
                continue;
            }
            let rewrite =
                Rewrite { span: i, start: span.start, len: 0, fill: Fill::Minimal, donors: Vec::new() };
            let simplest = self.without(span.range());
            let mut zeroed = self.current.clone();
            zeroed[span.range()].fill(0);
            if self.consider(simplest, Some(rewrite)) || self.consider(zeroed, None) {
                improved = true;
            }
            i += 1;
        }
        improved
    }

    /// Puts the elements of each collection in shortlex order of their bytes (Hypothesis's
    /// `reorder_spans`): a kill that needs one large element then keeps the small ones first.
    fn sort_elements(&mut self) -> bool {
        let mut improved = false;
        let mut i = 0;
        while i < self.spans.len() && !self.spent() {
            if self.spans.kind(i) == Some(SpanKind::Collection) {
                let slots: Vec<Range<usize>> = self.spans.children(i).map(|(_, s)| s.range()).collect();
                let mut elements: Vec<&[u8]> = slots.iter().map(|r| &self.current[r.clone()]).collect();
                elements.sort_by(|a, b| (a.len(), *a).cmp(&(b.len(), *b)));
                // The bytes between elements (continuation bytes) stay where they are.
                let mut candidate = Vec::with_capacity(self.current.len());
                let mut at = 0;
                for (slot, element) in slots.iter().zip(&elements) {
                    candidate.extend_from_slice(&self.current[at..slot.start]);
                    candidate.extend_from_slice(element);
                    at = slot.end;
                }
                candidate.extend_from_slice(&self.current[at..]);
                improved |= self.consider(candidate, None);
            }
            i += 1;
        }
        improved
    }

    /// Deletes runs of 8, 4, 2 and 1 bytes at each position.
    fn delete_runs(&mut self) -> bool {
        let mut improved = false;
        for k in [8, 4, 2, 1] {
            let mut at = 0;
            while at + k <= self.current.len() && !self.spent() {
                let candidate = self.without(at..at + k);
                if self.consider(candidate, None) {
                    improved = true;
                } else {
                    at += 1;
                }
            }
        }
        improved
    }

    /// Lowers each integer leaf toward its simplest value (index 0: the value nearest
    /// zero) by binary search over its index.
    fn lower_integers(&mut self) -> bool {
        let mut improved = false;
        let mut i = 0;
        while i < self.spans.len() && !self.spent() {
            let span = self.spans[i];
            i += 1;
            let Some(Leaf::Int { lo, hi, signed }) = self.spans.leaf(i - 1) else { continue };
            let max = crate::input::int_max_index(lo, hi, signed);
            let width = choice_width(max);
            if span.len() != width || width == 0 {
                continue;
            }
            let raw = read_le(&self.current[span.range()]);
            let index = if max == u128::MAX { raw } else { raw % (max + 1) };
            let at = span.start;
            let with_index = |s: &Self, v: u128| {
                let mut c = s.current.clone();
                c[at..at + width].copy_from_slice(&v.to_le_bytes()[..width]);
                c
            };
            improved |= self.binary_lower(index, with_index);
        }
        improved
    }

    /// Lowers each char toward the simplest-reading one ([`char_rank`]) by binary search
    /// over the ranks: first every place of one char together (Hypothesis's duplicated
    /// blocks: a char two strings must share, `edit_distance("ab", "ba")`, lowers only
    /// where both do, which lowering one at a time never finds), then each place of a
    /// shared char alone. A char's value decides no layout, so the places stay put.
    fn lower_chars(&mut self) -> bool {
        let mut places: BTreeMap<char, Vec<usize>> = BTreeMap::new();
        for (_, span, leaf) in self.spans.leaves() {
            let chars = char_choices(leaf, &span.range());
            for at in chars.into_iter().map(|r| r.start).filter(|&at| at + 4 <= self.current.len()) {
                places.entry(char_at(&self.current, at)).or_default().push(at);
            }
        }
        let shared = places.values().filter(|at| at.len() > 1).flatten().map(|&at| vec![at]);
        let groups: Vec<Vec<usize>> = places.values().cloned().chain(shared).collect();
        let mut improved = false;
        for starts in groups {
            if self.spent() {
                break;
            }
            // An earlier group may have changed this one's char.
            let rank = char_rank(char_at(&self.current, starts[0]));
            let with_rank = |s: &Self, v: u128| {
                let mut c = s.current.clone();
                let bytes = encode_char(char_of_rank(v as u32));
                for &at in &starts {
                    c[at..at + 4].copy_from_slice(&bytes);
                }
                c
            };
            // Its own encoding first: a random choice that decodes to the char has a larger
            // key and no lower char may keep the property.
            let own = with_rank(self, u128::from(rank));
            improved |= self.consider(own, None);
            improved |= self.binary_lower(u128::from(rank), with_rank);
        }
        improved
    }

    /// Lowers each byte toward 0 by binary search.
    fn lower_bytes(&mut self) -> bool {
        let mut improved = false;
        let mut at = 0;
        while at < self.current.len() && !self.spent() {
            let byte = u128::from(self.current[at]);
            let with_byte = |s: &Self, v: u128| {
                let mut c = s.current.clone();
                c[at] = v as u8;
                c
            };
            improved |= self.binary_lower(byte, with_byte);
            at += 1;
        }
        improved
    }

    /// Finds a small `v < value` for which `make(v)` keeps the property: 0 first, then a
    /// binary search between a value that fails and one that holds (a heuristic: the
    /// property need not be monotone, but every accepted candidate is smaller).
    fn binary_lower(&mut self, value: u128, make: impl Fn(&Self, u128) -> Vec<u8>) -> bool {
        if value == 0 {
            return false;
        }
        let zero = make(self, 0);
        if self.consider(zero, None) {
            return true;
        }
        // Invariant: `lo` fails, `hi` holds (the current value).
        let (mut lo, mut hi) = (0u128, value);
        let mut improved = false;
        while hi - lo > 1 && !self.spent() {
            let mid = lo + (hi - lo) / 2;
            let candidate = make(self, mid);
            if self.consider(candidate, None) {
                hi = mid;
                improved = true;
            } else {
                lo = mid;
            }
        }
        improved
    }
}

/// The bytes of an input as the shrinker orders them: each integer choice wider than a
/// byte reversed to read most significant byte first, so a lower value has a smaller key;
/// each char choice (a `char`'s or one of a string's) replaced by its char's
/// [`char_rank`], most significant byte first, with a last bit set where the choice is
/// not the char's own encoding (another choice that decodes to it).
pub fn order_key(bytes: &[u8], spans: &Spans) -> Vec<u8> {
    let mut key = bytes.to_vec();
    for (_, span, leaf) in spans.leaves() {
        if matches!(leaf, Leaf::Int { .. }) && span.end <= key.len() {
            key[span.range()].reverse();
        }
        for r in
            char_choices(leaf, &span.range()).into_iter().filter(|r| r.end <= bytes.len() && r.len() == 4)
        {
            let c = char_at(bytes, r.start);
            let other_encoding = bytes[r.clone()] != encode_char(c);
            key[r].copy_from_slice(&(char_rank(c) << 1 | u32::from(other_encoding)).to_be_bytes());
        }
    }
    key
}

/// The ASCII chars in the order a test reads them most simply: lowercase letters, digits,
/// uppercase letters, space, punctuation; then the control chars.
const ASCII_BY_RANK: &[u8; 128] = b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ \
    !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\
    \x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\
    \x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f";

/// How simply `c` reads in a test, 0 the simplest (`'a'`): lowercase letters, digits,
/// uppercase letters, space, punctuation, the control chars, then every other char by
/// code point (surrogates skipped, so ranks are dense).
pub fn char_rank(c: char) -> u32 {
    let code = u32::from(c);
    if c.is_ascii() {
        ASCII_BY_RANK.iter().position(|&b| u32::from(b) == code).expect("every ASCII char has a rank") as u32
    } else if code >= 0xE000 {
        code - 0x800
    } else {
        code
    }
}

/// The char of rank `rank` ([`char_rank`]'s inverse; past the last rank, the last char).
pub fn char_of_rank(rank: u32) -> char {
    let code = match rank {
        0..128 => u32::from(ASCII_BY_RANK[rank as usize]),
        128..0xD800 => rank,
        _ => (rank + 0x800).min(u32::from(char::MAX)),
    };
    char::from_u32(code).expect("ranks skip the surrogates")
}

/// The bytes that make child `c` of collection span `p` one element: its own, with the
/// continuation byte before it when it is an optional element (its span starts past the
/// end of its previous sibling, or of the collection's start). `None` when `p` is no
/// collection or `c` took no bytes.
fn element_range(spans: &Spans, p: usize, c: usize) -> Option<Range<usize>> {
    if spans.kind(p) != Some(SpanKind::Collection) || spans[c].is_empty() {
        return None;
    }
    let previous_end =
        spans.children(p).take_while(|&(i, _)| i < c).last().map_or(spans[p].start, |(_, s)| s.end);
    let start = spans[c].start;
    Some(if start > previous_end { start - 1..spans[c].end } else { start..spans[c].end })
}

/// The 4-byte char choices of a leaf's span: a `char`'s, or a string's ([`string_chars`]).
fn char_choices(leaf: Leaf, span: &Range<usize>) -> Vec<Range<usize>> {
    match leaf {
        Leaf::Char => vec![span.clone()],
        Leaf::Str { min, max } => string_chars(span, min, max),
        Leaf::Int { .. } => Vec::new(),
    }
}

/// The char the 4-byte choice at `at` decodes to.
fn char_at(bytes: &[u8], at: usize) -> char {
    decode_char(read_le(&bytes[at..at + 4]) as u32)
}

/// The 4-byte char choices of a string span: its first `min` chars, then each optional
/// one after its continuation byte.
fn string_chars(span: &Range<usize>, min: usize, max: usize) -> Vec<Range<usize>> {
    let required =
        (0..min).map(|c| span.start + 4 * c).take_while(|&at| at + 4 <= span.end).map(|at| at..at + 4);
    let optional = char_ranges(span, min, max).into_iter().map(|r| r.start + 1..r.end);
    required.chain(optional).collect()
}

/// The byte ranges of the chars of a string span beyond its `min` (each a continuation
/// byte and a 4-byte char), in order; the first `min` chars cannot be dropped.
fn char_ranges(span: &Range<usize>, min: usize, max: usize) -> Vec<Range<usize>> {
    let mut at = span.start + 4 * min;
    let mut out = Vec::new();
    let mut count = min;
    while count < max && at + 5 <= span.end {
        out.push(at..at + 5);
        at += 5;
        count += 1;
    }
    out
}

fn read_le(bytes: &[u8]) -> u128 {
    bytes.iter().rev().fold(0u128, |acc, &b| (acc << 8) | u128::from(b))
}

#[cfg(test)]
mod tests;
