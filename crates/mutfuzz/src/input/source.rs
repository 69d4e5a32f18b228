//! The source of choices: replays an input's bytes, extends them with fresh random
//! choices when they run out, tracks the size and depth budget, and records spans.

use std::any::type_name;
use std::ops::{Bound, RangeBounds};
use std::sync::Arc;

use super::Input;
use super::dictionary::Dictionary;
use super::encoding::{self, Int, IntRange};
use super::rewrite::{Active, Fill, Rewrite};
use super::rng::Rng;
use super::span::{Span, SpanKind, Spans};
use super::value::{Leaf, encode_char, encode_str};
use crate::r#gen::{Gen, GenLen, arbitrary_from_bytes};

/// Budgets that make generation terminate.
///
/// Once the current span depth reaches `max_depth` or the input reaches
/// `max_len` bytes, the source is *exhausted*: collections stop at their
/// minimum length, `Option` picks `None` and derived recursive enums pick a
/// variant that does not refer back to the enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Span depth at which values are kept minimal.
    pub max_depth: usize,
    /// Input length in bytes after which values are kept minimal.
    pub max_len: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: 32, max_len: 8 * 1024 }
    }
}

/// Largest length an unbounded `bytes` draw may pick; keeps the length choice 2 bytes wide.
const UNBOUNDED_BYTES: usize = 0xFFFF;
/// How many bytes beyond `arbitrary`'s lower size hint an opaque leaf may take.
const ARBITRARY_EXTRA: usize = 1024;
/// Cap on `arbitrary`'s lower size hint, so that a huge hint cannot widen the choice.
const ARBITRARY_MAX_HINT: usize = 64 * 1024;
/// Mean number of optional elements a fresh collection gets.
const MEAN_EXTRA_ELEMENTS: f64 = 6.0;

/// Where a generator's choices come from.
///
/// A `Source` replays the bytes of a stored [`Input`] choice by choice; when they
/// run out it draws fresh random choices from its [`Rng`] and appends their
/// bytes, so [`into_input`](Source::into_input) always returns bytes that replay
/// to the same value. Every value drawn through [`draw`](Source::draw) (and the
/// other `draw_*` methods) is recorded as a [`Span`].
///
/// ```
/// use mutfuzz::{Rng, Source};
///
/// let mut src = Source::new(Vec::new(), Rng::new(1));
/// let pair: (u8, bool) = src.draw();
/// let (input, spans) = src.into_input();
///
/// let mut again = Source::new(input.as_bytes(), Rng::new(99));
/// assert_eq!(again.draw::<(u8, bool)>(), pair);
/// assert_eq!(spans[0].type_name, "(u8, bool)");
/// ```
#[derive(Debug)]
pub struct Source {
    bytes: Vec<u8>,
    pos: usize,
    fresh: usize,
    rng: Rng,
    limits: Limits,
    record: bool,
    spans: Vec<Span>,
    kinds: Vec<(usize, SpanKind)>,
    open: Vec<usize>,
    depth: usize,
    /// Spans opened so far (recorded or not): the pre-order index of the next one.
    opened: usize,
    rewrite: Option<Box<Active>>,
    /// Spans holding one primitive value, and how it was drawn (recorded with the spans).
    leaves: Vec<(usize, Leaf)>,
    /// Literals that fresh strings, chars and integers may be drawn from.
    dictionary: Option<Arc<Dictionary>>,
}

impl Source {
    /// A source that replays `bytes` and then extends them with choices from `rng`.
    ///
    /// Any byte string is valid: each choice takes its value from its bytes
    /// modulo its range.
    pub fn new(bytes: impl Into<Vec<u8>>, rng: Rng) -> Self {
        Source {
            bytes: bytes.into(),
            pos: 0,
            fresh: 0,
            rng,
            limits: Limits::default(),
            record: true,
            spans: Vec::new(),
            kinds: Vec::new(),
            open: Vec::new(),
            depth: 0,
            opened: 0,
            rewrite: None,
            leaves: Vec::new(),
            dictionary: None,
        }
    }

    /// Replays one span as `rewrite` says: the span a structure-preserving edit replaced
    /// ends where its new content ends, and choices it reads past that are filled in
    /// (see [`Rewrite`]).
    pub fn with_rewrite(mut self, rewrite: Rewrite) -> Self {
        self.rewrite = Some(Box::new(Active::new(rewrite)));
        self
    }

    /// Draws fresh strings, chars and integers from `dictionary` with its probability.
    ///
    /// Only fresh draws: replayed bytes decode as before, and a dictionary value is
    /// written as the bytes that replay to it, so the input stays self-contained.
    pub fn with_dictionary(mut self, dictionary: Option<Arc<Dictionary>>) -> Self {
        self.dictionary = dictionary.filter(|d| !d.is_empty() && d.chance > 0.0);
        self
    }

    /// Replaces the default size and depth budget.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Turns span recording on (the default) or off; off is cheaper when only the value is needed.
    pub fn with_spans(mut self, record: bool) -> Self {
        self.record = record;
        self
    }

    /// The size and depth budget in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Number of bytes consumed so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Number of bytes drawn fresh from the generator because the replayed bytes ran out.
    pub fn fresh_len(&self) -> usize {
        self.fresh
    }

    /// Current span depth: how many recorded values enclose the next choice.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Whether the size or depth budget is spent, so values should be kept minimal.
    pub fn is_exhausted(&self) -> bool {
        self.depth >= self.limits.max_depth || self.pos >= self.limits.max_len
    }

    /// The bytes consumed (replayed plus fresh) and the spans recorded.
    ///
    /// Replayed bytes that no choice read are dropped, so the input is the
    /// shortest one that replays to the same value.
    pub fn into_input(mut self) -> (Input, Spans) {
        self.bytes.truncate(self.pos);
        (Input::new(self.bytes), Spans::with_parts(self.spans, self.kinds, self.leaves))
    }

    // ---- spans -------------------------------------------------------------

    /// Draws a `T` with its generator, recorded as one span.
    pub fn draw<T: Gen>(&mut self) -> T {
        self.spanned(T::generate)
    }

    /// Runs a custom generator `f` for a `T`, recording what it draws as one span of type `T`.
    pub fn spanned<T>(&mut self, f: impl FnOnce(&mut Source) -> T) -> T {
        let ordinal = self.opened;
        self.opened += 1;
        let rewritten = self.rewrite.is_some() && self.enter_rewrite(ordinal, type_name::<T>());
        let index = self.record.then(|| {
            let index = self.spans.len();
            self.spans.push(Span {
                start: self.pos,
                end: self.pos,
                type_name: type_name::<T>(),
                depth: self.depth,
                parent: self.open.last().copied(),
            });
            self.open.push(index);
            index
        });
        self.depth += 1;
        let value = f(self);
        self.depth -= 1;
        if rewritten {
            self.leave_rewrite();
        }
        if let Some(index) = index {
            self.open.pop();
            self.spans[index].end = self.pos;
        }
        value
    }

    /// Whether the span about to open (the `ordinal`-th, of type `name`) is the rewritten
    /// one, or a field of it that takes a donor's bytes; either ends where its content does.
    #[cold]
    fn enter_rewrite(&mut self, ordinal: usize, name: &'static str) -> bool {
        let Some(rw) = self.rewrite.as_deref_mut() else { return false };
        if rw.open {
            // A field of the new variant that starts past the content: reuse an old field
            // of its type, once.
            if self.depth != rw.inner_depth || self.pos < rw.limit {
                return false;
            }
            let Some(k) = (0..rw.used.len()).find(|&k| !rw.used[k] && rw.plan.donors[k].type_name == name)
            else {
                return false;
            };
            rw.used[k] = true;
            let at = rw.limit;
            let bytes = &rw.plan.donors[k].bytes;
            self.bytes.splice(at..at, bytes.iter().copied());
            rw.limit += bytes.len();
            return true;
        }
        if rw.done || ordinal != rw.plan.span || self.pos != rw.plan.start {
            return false;
        }
        rw.open = true;
        rw.inner_depth = self.depth + 1;
        true
    }

    /// Ends the rewritten span (or a donor field): drops the content it left unread.
    #[cold]
    fn leave_rewrite(&mut self) {
        let Some(rw) = self.rewrite.as_deref_mut() else { return };
        if rw.limit > self.pos {
            self.bytes.drain(self.pos..rw.limit);
            rw.limit = self.pos;
        }
        if self.depth + 1 == rw.inner_depth {
            rw.open = false;
            rw.done = true;
        }
    }

    /// Inside a rewritten span, puts the `width` bytes of the next choice in place when
    /// they run past the content: `minimal` or a `fresh` value, as the rewrite fills.
    /// Returns the fresh closure back when there is nothing to fill.
    fn fill_choice<F: FnOnce(&mut Rng) -> u128>(
        &mut self,
        width: usize,
        minimal: u128,
        fresh: F,
    ) -> Option<F> {
        let end = self.pos + width;
        let Some(rw) = self.rewrite.as_deref_mut().filter(|rw| rw.open && end > rw.limit) else {
            return Some(fresh);
        };
        let have = rw.limit - self.pos;
        let value = match rw.plan.fill {
            Fill::Minimal => minimal,
            Fill::Fresh => fresh(&mut self.rng),
        };
        let mut buf = [0u8; 16];
        encoding::write_le(value, &mut buf[..width]);
        let at = rw.limit;
        self.bytes.splice(at..at, buf[have..width].iter().copied());
        rw.limit = end;
        self.fresh += width - have;
        None
    }

    /// Notes what the generator of the span just opened draws first, for edits.
    fn note_kind(&mut self, kind: SpanKind) {
        if !self.record {
            return;
        }
        if let Some(&open) = self.open.last()
            && self.spans.len() == open + 1
            && self.spans[open].start == self.pos
            && self.kinds.last().is_none_or(|&(i, _)| i != open)
        {
            self.kinds.push((open, kind));
        }
    }

    /// Draws an integer in `range`, recorded as one span.
    pub fn draw_in_range<I: Int>(&mut self, range: impl RangeBounds<I>) -> I {
        self.spanned(|src| src.int_in_range(range))
    }

    /// Draws a collection or string whose length lies in `len`, recorded as one span.
    pub fn draw_len<T: GenLen>(&mut self, len: impl RangeBounds<usize>) -> T {
        self.spanned(|src| T::generate_len(src, len))
    }

    /// Draws any [`arbitrary::Arbitrary`] type as an opaque leaf: one byte-string
    /// choice, handed to `arbitrary`, recorded as one span of type `T`.
    ///
    /// # Panics
    ///
    /// Only if `T`'s `Arbitrary` impl rejects both the drawn bytes and an
    /// all-zero buffer; plug in a custom generator for such a type instead.
    pub fn draw_arbitrary<T: for<'a> arbitrary::Arbitrary<'a>>(&mut self) -> T {
        self.spanned(|src| {
            let lower = T::try_size_hint(0).map_or(0, |(lower, _)| lower).min(ARBITRARY_MAX_HINT);
            let bytes = src.bytes(lower..=lower + ARBITRARY_EXTRA);
            arbitrary_from_bytes(&bytes, lower)
        })
    }

    // ---- typed choices -----------------------------------------------------

    /// Draws a fair coin: one byte, `true` when its lowest bit is set.
    pub fn bool(&mut self) -> bool {
        self.biased_bool(0.5)
    }

    /// Draws a coin whose fresh draws come up `true` with probability `p`.
    ///
    /// The byte encoding is the same as [`bool`](Source::bool); only fresh draws are biased.
    pub fn biased_bool(&mut self, p: f64) -> bool {
        self.raw_choice(1, |rng| u128::from(rng.chance(p))) & 1 == 1
    }

    /// Draws an integer in `range` (any `RangeBounds`: `1..=100`, `..10`, `..`).
    ///
    /// Takes 1, 2, 4, 8 or 16 bytes depending on the size of the range, and
    /// none for a one-value range. Zero bytes give the value nearest zero; an
    /// empty range (such as `5..5`) draws nothing and returns its start.
    pub fn int_in_range<I: Int>(&mut self, range: impl RangeBounds<I>) -> I {
        match inclusive(&range) {
            Ok((lo, hi)) => {
                let range = IntRange::new(lo, hi);
                let start = self.pos;
                if start == self.bytes.len()
                    && let Some(v) = self.dictionary_pick(|d| d.ints.len(), |d, i| d.ints[i])
                {
                    // Written as the bytes that replay to it; skipped when out of range.
                    Leaf::int(lo, hi).encode(&super::Value::Int(v), &mut self.bytes);
                    self.fresh += self.bytes.len() - start;
                }
                let value = I::from_bits(self.int_choice(range, fresh_int_index));
                self.note_leaf(start, Leaf::int(lo, hi));
                value
            }
            Err(start) => start,
        }
    }

    /// Draws an index in `0..n`, uniformly when fresh; returns 0 without drawing when `n <= 1`.
    pub fn choose(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let range = IntRange::new(0, n - 1);
        let index = self.int_choice(range, |rng, range| rng.below_u128(range.max_index() + 1));
        usize::from_bits(index)
    }

    /// Draws an enum variant index in `0..n`; once the budget is spent, only one of `leaves`.
    ///
    /// `leaves` lists the variants that do not lead back to the enum (every
    /// entry must be below `n`). The choice has the same width either way, and a
    /// stored index that is already a leaf keeps its meaning when the budget
    /// runs out, so edits that shrink an input do not reshuffle its leaves.
    pub fn choose_variant(&mut self, n: usize, leaves: &[usize]) -> usize {
        if n > 1 {
            self.note_kind(SpanKind::Enum(n));
        }
        // The simplest value of a rewritten span takes the first variant that does not recurse.
        let minimal = self.rewrite.as_deref().is_some_and(|rw| rw.open && rw.plan.fill == Fill::Minimal);
        if minimal
            && n > 1
            && let Some(&leaf) = leaves.first()
        {
            let range = IntRange::new(0, n - 1);
            let width = encoding::width(range.max_index());
            if self.fill_choice(width, leaf as u128, |_| 0).is_none() {
                let raw = encoding::read_le(&self.bytes[self.pos..self.pos + width]);
                self.pos += width;
                return usize::from_bits(range.value_at(encoding::index_from_raw(raw, range.max_index())));
            }
        }
        if !self.is_exhausted() || leaves.is_empty() {
            return self.choose(n);
        }
        if n <= 1 {
            return 0;
        }
        let range = IntRange::new(0, n - 1);
        let index = self.int_choice(range, |rng, _| leaves[rng.below(leaves.len() as u64) as usize] as u128);
        let index = usize::from_bits(index);
        if leaves.contains(&index) { index } else { leaves[index % leaves.len()] }
    }

    /// Draws an `f64`: 8 bytes; special values, small dyadic rationals or raw IEEE bits.
    pub fn f64(&mut self) -> f64 {
        let raw = self.raw_choice(8, |rng| u128::from(rng.next_u64()));
        encoding::decode_f64(raw as u64)
    }

    /// Draws an `f32`: 4 bytes; special values, small dyadic rationals or raw IEEE bits.
    pub fn f32(&mut self) -> f32 {
        let raw = self.raw_choice(4, |rng| u128::from(rng.next_u64()));
        encoding::decode_f32(raw as u32)
    }

    /// Draws a `char`: 4 bytes; half ASCII, the rest any Unicode scalar value.
    pub fn char(&mut self) -> char {
        let start = self.pos;
        let c = self.raw_char();
        self.note_leaf(start, Leaf::Char);
        c
    }

    /// A char choice that is not a value of its own (a string's char): no leaf noted.
    pub(crate) fn raw_char(&mut self) -> char {
        if self.pos == self.bytes.len()
            && let Some(c) = self.dictionary_pick(|d| d.chars.len(), |d, i| d.chars[i])
        {
            self.bytes.extend_from_slice(&encode_char(c));
            self.fresh += 4;
        }
        let raw = self.raw_choice(4, |rng| u128::from(rng.next_u64()));
        encoding::decode_char(raw as u32)
    }

    /// Draws a byte string whose length lies in `len` (unbounded means at most 65 535).
    ///
    /// One length choice followed by the bytes themselves, verbatim. Once the
    /// budget is spent the length drops to the minimum; it never runs past the
    /// size budget otherwise.
    pub fn bytes(&mut self, len: impl RangeBounds<usize>) -> Vec<u8> {
        let (lo, hi) = length_bounds(&len, UNBOUNDED_BYTES);
        let range = IntRange::new(lo, hi);
        let drawn = usize::from_bits(self.int_choice(range, fresh_len_index));
        let n = if self.is_exhausted() {
            lo
        } else {
            drawn.min(self.limits.max_len.saturating_sub(self.pos)).max(lo)
        };
        self.raw_bytes(n).to_vec()
    }

    /// Starts drawing a collection whose length lies in `len`; see [`Repeat`].
    pub fn repeat(&mut self, len: impl RangeBounds<usize>) -> Repeat {
        self.note_kind(SpanKind::Collection);
        let (min, max) = length_bounds(&len, usize::MAX);
        Repeat { min, max, count: 0, rejected: 0 }
    }

    // ---- leaves and the dictionary --------------------------------------------

    /// Notes that the innermost open span, if it starts at `start`, holds one primitive
    /// value drawn as `leaf` (an edit checks the span's width before trusting it).
    pub(crate) fn note_leaf(&mut self, start: usize, leaf: Leaf) {
        if self.record
            && let Some(&index) = self.open.last()
            && self.spans[index].start == start
        {
            self.leaves.push((index, leaf));
        }
    }

    /// With the dictionary's probability, one of its values of a kind (`len` of them).
    fn dictionary_pick<V>(
        &mut self,
        len: impl Fn(&Dictionary) -> usize,
        get: impl Fn(&Dictionary, usize) -> V,
    ) -> Option<V> {
        let d = self.dictionary.as_ref()?;
        let n = len(d);
        if n == 0 || !self.rng.chance(d.chance) {
            return None;
        }
        Some(get(d, self.rng.below(n as u64) as usize))
    }

    /// Before a fresh string of `min..=max` chars: with the dictionary's probability,
    /// writes the choices of one of its strings that fits, so the string replays to it.
    pub(crate) fn fresh_dictionary_str(&mut self, min: usize, max: usize) {
        if self.pos != self.bytes.len() || self.is_exhausted() {
            return;
        }
        let Some(word) = self.dictionary_pick(|d| d.strings.len(), |_, i| i) else { return };
        let Some(d) = self.dictionary.clone() else { return };
        let start = self.bytes.len();
        if encode_str(d.strings[word].chars(), min, max, &mut self.bytes) {
            self.fresh += self.bytes.len() - start;
        }
    }

    // ---- raw choices -------------------------------------------------------

    /// Draws an index of `range` and returns the value there, as bits.
    fn int_choice(&mut self, range: IntRange, fresh: impl FnOnce(&mut Rng, &IntRange) -> u128) -> u128 {
        let max = range.max_index();
        let raw = self.raw_choice(encoding::width(max), |rng| fresh(rng, &range));
        range.value_at(encoding::index_from_raw(raw, max))
    }

    /// Reads one `width`-byte choice, extending the input with `fresh` if it runs out.
    ///
    /// A choice cut off by the end of the input keeps the bytes it has as its
    /// low bytes and takes the rest from the fresh value, so the returned
    /// input is always an extension of the replayed one.
    fn raw_choice(&mut self, width: usize, fresh: impl FnOnce(&mut Rng) -> u128) -> u128 {
        if width == 0 {
            return 0;
        }
        let end = self.pos + width;
        let fresh = if self.rewrite.is_some() {
            match self.fill_choice(width, 0, fresh) {
                Some(fresh) => fresh,
                None => {
                    let raw = encoding::read_le(&self.bytes[self.pos..end]);
                    self.pos = end;
                    return raw;
                }
            }
        } else {
            fresh
        };
        if end > self.bytes.len() {
            let have = self.bytes.len() - self.pos;
            let mut buf = [0u8; 16];
            encoding::write_le(fresh(&mut self.rng), &mut buf[..width]);
            self.bytes.extend_from_slice(&buf[have..width]);
            self.fresh += width - have;
        }
        let raw = encoding::read_le(&self.bytes[self.pos..end]);
        self.pos = end;
        raw
    }

    /// Reads `n` verbatim bytes, extending the input with random bytes if it runs out.
    fn raw_bytes(&mut self, n: usize) -> &[u8] {
        let start = self.pos;
        let end = start + n;
        if let Some(rw) = self.rewrite.as_deref_mut().filter(|rw| rw.open && end > rw.limit) {
            let at = rw.limit;
            let missing = end - at;
            match rw.plan.fill {
                Fill::Minimal => drop(self.bytes.splice(at..at, std::iter::repeat_n(0, missing))),
                Fill::Fresh => {
                    let mut fill = vec![0; missing];
                    self.rng.fill_bytes(&mut fill);
                    drop(self.bytes.splice(at..at, fill));
                }
            }
            rw.limit = end;
            self.fresh += missing;
        }
        if end > self.bytes.len() {
            let have = self.bytes.len();
            self.bytes.resize(end, 0);
            self.rng.fill_bytes(&mut self.bytes[have..]);
            self.fresh += end - have;
        }
        self.pos = end;
        &self.bytes[start..end]
    }
}

/// The length bounds of a collection being drawn, one element at a time.
///
/// Before each optional element (beyond the minimum) the source draws one
/// continuation byte: lowest bit set means "one more". So dropping an element's
/// bytes together with the continuation byte just before them removes exactly
/// that element, and a zero byte ends the collection.
///
/// ```
/// use mutfuzz::{Rng, Source};
///
/// let mut src = Source::new(Vec::new(), Rng::new(3));
/// let mut repeat = src.repeat(1..=4);
/// let mut items = Vec::new();
/// while repeat.more(&mut src) {
///     items.push(src.draw::<u8>());
/// }
/// assert!((1..=4).contains(&items.len()));
/// ```
#[derive(Clone, Debug)]
pub struct Repeat {
    min: usize,
    max: usize,
    count: usize,
    rejected: usize,
}

impl Repeat {
    /// Whether to draw another element.
    ///
    /// The first `min` calls say yes without drawing; after that one
    /// continuation choice is drawn per call, until `max` or until the
    /// budget is spent.
    pub fn more(&mut self, src: &mut Source) -> bool {
        if self.count >= self.max {
            return false;
        }
        if self.count < self.min {
            self.count += 1;
            return true;
        }
        if src.is_exhausted() {
            return false;
        }
        let room = (self.max - self.min) as f64;
        let mean = MEAN_EXTRA_ELEMENTS.min(room / 2.0).max(0.5);
        if src.biased_bool(mean / (mean + 1.0)) {
            self.count += 1;
            true
        } else {
            false
        }
    }

    /// Says the element just drawn was not kept (e.g. a duplicate set key), so it does not count.
    ///
    /// After too many rejections the collection ends, so a set of a small
    /// type with a large minimum still terminates.
    pub fn reject(&mut self) {
        self.count = self.count.saturating_sub(1);
        self.rejected += 1;
        if self.rejected > self.min.max(32) {
            self.max = self.count;
        }
    }

    /// Number of elements accepted so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The length bounds, `(min, max)`.
    pub(crate) fn bounds(&self) -> (usize, usize) {
        (self.min, self.max)
    }
}

/// Resolves integer bounds to `Ok((lo, hi))`, or `Err(start)` for an empty range.
fn inclusive<I: Int>(range: &impl RangeBounds<I>) -> Result<(I, I), I> {
    let lo = match range.start_bound() {
        Bound::Included(&x) => Some(x),
        Bound::Excluded(&x) => x.checked_succ(),
        Bound::Unbounded => Some(I::MIN),
    };
    let hi = match range.end_bound() {
        Bound::Included(&x) => Some(x),
        Bound::Excluded(&x) => x.checked_pred(),
        Bound::Unbounded => Some(I::MAX),
    };
    let start = match range.start_bound() {
        Bound::Included(&x) | Bound::Excluded(&x) => x,
        Bound::Unbounded => I::MIN,
    };
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo <= hi => Ok((lo, hi)),
        _ => Err(start),
    }
}

/// Resolves length bounds; an unbounded end becomes `unbounded`, an empty range its start.
fn length_bounds(len: &impl RangeBounds<usize>, unbounded: usize) -> (usize, usize) {
    let lo = match len.start_bound() {
        Bound::Included(&x) => x,
        Bound::Excluded(&x) => x.saturating_add(1),
        Bound::Unbounded => 0,
    };
    let hi = match len.end_bound() {
        Bound::Included(&x) => x,
        Bound::Excluded(&x) => x.saturating_sub(1),
        Bound::Unbounded => unbounded,
    };
    (lo, hi.max(lo))
}

/// A fresh integer index: 1/8 range ends, 3/8 small magnitudes, 1/2 uniform.
fn fresh_int_index(rng: &mut Rng, range: &IntRange) -> u128 {
    let max = range.max_index();
    match rng.below(8) {
        0 => range.edge_index(rng.below(4)),
        1..=3 => rng.below_u128(max.min(15) + 1),
        _ => match max.checked_add(1) {
            Some(count) => rng.below_u128(count),
            None => rng.next_u128(),
        },
    }
}

/// A fresh length index: usually short, sometimes anywhere in the range.
fn fresh_len_index(rng: &mut Rng, range: &IntRange) -> u128 {
    let cap = match rng.below(4) {
        0 | 1 => 16,
        2 => 256,
        _ => u128::MAX,
    };
    rng.below_u128(range.max_index().min(cap - 1) + 1)
}

#[cfg(test)]
mod tests;
