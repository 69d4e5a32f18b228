//! Spans: which contiguous bytes of an input produced which typed sub-value.

use std::ops::{Deref, Range};

use super::value::Leaf;

/// One typed sub-value of a generated value and the input bytes that produced it.
///
/// Spans nest like the value does: a struct's span contains its fields' spans.
/// `start..end` are byte offsets into the [`Input`](crate::Input), so an edit can
/// copy, replace, zero-fill or drop exactly the bytes of one sub-value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// Offset of the first byte of the sub-value.
    pub start: usize,
    /// Offset one past the last byte of the sub-value.
    pub end: usize,
    /// The Rust type of the sub-value, as given by [`std::any::type_name`].
    pub type_name: &'static str,
    /// Nesting depth: 0 for a top-level value, parent's depth + 1 otherwise.
    pub depth: usize,
    /// Index of the enclosing span in the same [`Spans`], if any.
    pub parent: Option<usize>,
}

impl Span {
    /// The span's byte range.
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// Number of bytes in the span.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the sub-value took no bytes (e.g. `()` or a one-value range).
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// What the generator of a span drew first, when it tells how the span's bytes are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpanKind {
    /// A derived enum: its first choice picks one of this many variants, its children are
    /// the variant's fields in declaration order.
    Enum(usize),
    /// A collection drawn with [`Source::repeat`](crate::Source::repeat): its children are
    /// its elements, each optional one preceded by one continuation byte.
    Collection,
}

/// The spans recorded while generating one value, in pre-order.
///
/// A parent always comes before its children, so `spans[i].parent < Some(i)`.
/// Spans that hold one primitive value also carry its [`Leaf`] (sorted by span index).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spans(Vec<Span>, Vec<(usize, SpanKind)>, Vec<(usize, Leaf)>);

/// Values of some spans, by span index (increasing), each distinct value stored once:
/// how a saved input keeps its kinds and leaves ([`PackedSpans`]). As `(usize, Leaf)` a
/// leaf takes 64 bytes and a kind 24, while an input holds a few distinct ones (its
/// types' ranges, its enums' variant counts), so each span names its value by a `u32`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ByIndex<T> {
    /// Span index, index into `values`.
    at: Vec<(u32, u32)>,
    values: Vec<T>,
}

impl<T> Default for ByIndex<T> {
    fn default() -> Self {
        ByIndex { at: Vec::new(), values: Vec::new() }
    }
}

/// Distinct values looked for among the last this many stored; past them a value is
/// stored again (still correct), so that recording stays linear whatever the generator.
const DISTINCT_SEARCH: usize = 32;

impl<T: Copy + PartialEq> ByIndex<T> {
    /// From pairs sorted by span index, one per index.
    fn new(pairs: &[(usize, T)]) -> Self {
        let mut by = ByIndex { at: Vec::with_capacity(pairs.len()), values: Vec::new() };
        for &(index, value) in pairs {
            // A span index fits: 2^32 spans would take hundreds of GiB.
            let index = u32::try_from(index).expect("fewer than 2^32 spans");
            let n = by.values.len();
            let known = by.values[n.saturating_sub(DISTINCT_SEARCH)..].iter().rposition(|v| *v == value);
            let k = match known {
                Some(k) => n.saturating_sub(DISTINCT_SEARCH) + k,
                None => {
                    by.values.push(value);
                    n
                }
            };
            by.at.push((index, k as u32));
        }
        by.values.shrink_to_fit();
        by
    }

    /// The pairs again, as [`new`](ByIndex::new) was given them.
    fn iter(&self) -> impl Iterator<Item = (usize, T)> + '_ {
        self.at.iter().map(|&(i, k)| (i as usize, self.values[k as usize]))
    }
}

impl Spans {
    /// Wraps spans recorded in pre-order with the kinds known of some of them (by index,
    /// increasing) and the leaves of the primitive ones.
    pub(crate) fn with_parts(
        spans: Vec<Span>,
        kinds: Vec<(usize, SpanKind)>,
        mut leaves: Vec<(usize, Leaf)>,
    ) -> Self {
        leaves.sort_by_key(|&(i, _)| i);
        leaves.dedup_by_key(|&mut (i, _)| i);
        Spans(spans, kinds, leaves)
    }

    /// What is known of the layout of the span at `index`: an enum or a collection.
    pub fn kind(&self, index: usize) -> Option<SpanKind> {
        self.1.binary_search_by_key(&index, |&(i, _)| i).ok().map(|k| self.1[k].1)
    }

    /// How the span at `index` was drawn, if it is one primitive value (an integer, a
    /// char or a string).
    pub fn leaf(&self, index: usize) -> Option<Leaf> {
        self.2.binary_search_by_key(&index, |&(i, _)| i).ok().map(|k| self.2[k].1)
    }

    /// The spans that hold one primitive value, with their indices and leaves.
    pub fn leaves(&self) -> impl Iterator<Item = (usize, &Span, Leaf)> + '_ {
        self.2.iter().filter_map(|&(i, leaf)| self.0.get(i).map(|span| (i, span, leaf)))
    }

    /// Whether the span at `index` lies inside the span at `ancestor` (or is it).
    pub fn within(&self, index: usize, ancestor: usize) -> bool {
        let mut at = Some(index);
        while let Some(i) = at {
            if i == ancestor {
                return true;
            }
            if i < ancestor {
                return false;
            }
            at = self.0.get(i).and_then(|s| s.parent);
        }
        false
    }

    /// The direct children of the span at `index`, with their indices.
    pub fn children(&self, index: usize) -> impl Iterator<Item = (usize, &Span)> + '_ {
        self.0.iter().enumerate().skip(index + 1).filter(move |(_, span)| span.parent == Some(index))
    }

    /// The spans whose type name is exactly `type_name`, with their indices.
    pub fn of_type<'a>(&'a self, type_name: &'a str) -> impl Iterator<Item = (usize, &'a Span)> {
        self.0.iter().enumerate().filter(move |(_, span)| span.type_name == type_name)
    }

    /// The spans as a vector.
    pub fn into_vec(self) -> Vec<Span> {
        self.0
    }
}

/// The spans of a saved input, packed: every saved input keeps them for the whole
/// campaign, while [`Span`]'s `usize` fields and `&'static str` fill 56 bytes that its
/// offsets, parent and depth (`u32` each) and type name (an index into the input's few
/// distinct ones) hold in 20. [`unpack`](PackedSpans::unpack) gives the [`Spans`] back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackedSpans {
    spans: Box<[Packed]>,
    type_names: Box<[&'static str]>,
    kinds: ByIndex<SpanKind>,
    leaves: ByIndex<Leaf>,
}

/// One [`Span`], its type name by index into [`PackedSpans::type_names`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packed {
    start: u32,
    end: u32,
    /// `NO_PARENT` for none.
    parent: u32,
    depth: u32,
    type_name: u32,
}

const NO_PARENT: u32 = u32::MAX;

/// A span's offset, depth or index as a `u32`: an input of 4 GiB (or as many spans, or a
/// value nested as deep) could not be generated, let alone kept.
fn packed(n: usize) -> u32 {
    u32::try_from(n).ok().filter(|&n| n != NO_PARENT).expect("spans fit in u32")
}

impl From<Spans> for PackedSpans {
    fn from(Spans(spans, kinds, leaves): Spans) -> Self {
        let mut type_names: Vec<&'static str> = Vec::new();
        let spans = spans
            .iter()
            .map(|s| {
                // An input has a few distinct types: a search is quicker than hashing.
                let type_name = match type_names.iter().rposition(|&t| t == s.type_name) {
                    Some(k) => k,
                    None => {
                        type_names.push(s.type_name);
                        type_names.len() - 1
                    }
                };
                Packed {
                    start: packed(s.start),
                    end: packed(s.end),
                    parent: s.parent.map_or(NO_PARENT, packed),
                    depth: packed(s.depth),
                    type_name: packed(type_name),
                }
            })
            .collect();
        let (kinds, leaves) = (ByIndex::new(&kinds), ByIndex::new(&leaves));
        PackedSpans { spans, type_names: type_names.into(), kinds, leaves }
    }
}

impl PackedSpans {
    /// Number of spans.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there are no spans (none were recorded).
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    fn span(&self, p: &Packed) -> Span {
        Span {
            start: p.start as usize,
            end: p.end as usize,
            type_name: self.type_names[p.type_name as usize],
            depth: p.depth as usize,
            parent: (p.parent != NO_PARENT).then_some(p.parent as usize),
        }
    }

    /// The span at `index`.
    pub fn get(&self, index: usize) -> Option<Span> {
        self.spans.get(index).map(|p| self.span(p))
    }

    /// The spans whose type name is exactly `type_name`, with their indices (as
    /// [`Spans::of_type`] gives them).
    pub fn of_type(&self, type_name: &str) -> impl Iterator<Item = (usize, Span)> + '_ {
        let k = self.type_names.iter().position(|&t| t == type_name).map_or(u32::MAX, |k| k as u32);
        self.spans.iter().enumerate().filter(move |(_, p)| p.type_name == k).map(|(i, p)| (i, self.span(p)))
    }

    /// The spans, unpacked into `out` (whose vector is reused).
    pub fn unpack_into(&self, out: &mut Spans) {
        out.0.clear();
        out.0.extend(self.spans.iter().map(|p| self.span(p)));
        out.1.clear();
        out.1.extend(self.kinds.iter());
        out.2.clear();
        out.2.extend(self.leaves.iter());
    }

    /// The spans, unpacked.
    pub fn unpack(&self) -> Spans {
        let mut spans = Spans::default();
        self.unpack_into(&mut spans);
        spans
    }
}

impl Deref for Spans {
    type Target = [Span];

    fn deref(&self) -> &[Span] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a Spans {
    type Item = &'a Span;
    type IntoIter = std::slice::Iter<'a, Span>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for Spans {
    type Item = Span;
    type IntoIter = std::vec::IntoIter<Span>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Gen;

    #[test]
    fn values_by_index_read_back_as_stored_whatever_their_repeats() {
        // Few distinct values, then more distinct ones than the search looks through.
        let pairs: Vec<(usize, SpanKind)> = (0..40)
            .map(|i| (2 * i, SpanKind::Enum(i % 3)))
            .chain(
                (40..140).map(|i| (2 * i, if i % 2 == 0 { SpanKind::Collection } else { SpanKind::Enum(i) })),
            )
            .collect();
        let by = ByIndex::new(&pairs);
        assert_eq!(by.iter().collect::<Vec<_>>(), pairs);
        // Read back through the spans they are packed with.
        let spans = vec![Span { start: 0, end: 0, type_name: "t", depth: 0, parent: None }; 2 * 140];
        let unpacked = PackedSpans::from(Spans::with_parts(spans, pairs.clone(), Vec::new())).unpack();
        for &(i, kind) in &pairs {
            assert_eq!((unpacked.kind(i), unpacked.kind(i + 1)), (Some(kind), None));
        }
        assert_eq!(unpacked.kind(usize::MAX), None);
        // The repeats of the first 40 are stored once.
        assert!(by.values.len() < 3 + 100);
    }

    #[test]
    fn packed_spans_unpack_to_the_spans_and_answer_alike() {
        #[derive(Gen)]
        enum Node {
            Leaf(u8),
            Pair(Box<Node>, Box<Node>),
            List(Vec<(char, String)>),
        }
        let mut tested = 0;
        for seed in 0..50 {
            let mut src = crate::Source::new(Vec::new(), crate::Rng::new(seed)).with_spans(true);
            let _: Vec<Node> = src.draw();
            let (_, spans) = src.into_input();
            let packed = PackedSpans::from(spans.clone());
            assert_eq!(packed.unpack(), spans);
            assert_eq!(packed.len(), spans.len());
            for (i, span) in spans.iter().enumerate() {
                assert_eq!(packed.get(i), Some(*span));
                let of_type: Vec<_> = spans.of_type(span.type_name).map(|(j, s)| (j, *s)).collect();
                assert_eq!(packed.of_type(span.type_name).collect::<Vec<_>>(), of_type);
            }
            assert_eq!(packed.get(spans.len()), None);
            assert_eq!(packed.of_type("no such type").count(), 0);
            tested += usize::from(spans.len() > 10);
        }
        assert!(tested > 10, "{tested}");
        let empty = PackedSpans::from(Spans::default());
        assert!(empty.is_empty() && empty.unpack() == Spans::default());
    }
}
