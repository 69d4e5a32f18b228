//! The saved inputs' spans: packed, held for a bounded number of inputs, and generated
//! again from an input's bytes when one that was let go is needed.
//!
//! Spans are most of what a kept input costs in memory, and an input's bytes replay to
//! the same value and so to the same spans: keeping them all would make a campaign's
//! memory grow with its corpus. Which types an input holds is kept for every input, so
//! a search for a donor of a type regenerates only inputs that have one.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::Arc;

use crate::input::{PackedSpans, Spans};

/// Generates the spans of a saved input from its bytes (the campaign's generator, with
/// the limits it ran under). It must give the spans the input was saved with.
pub type Respan = Arc<dyn Fn(&[u8]) -> Spans + Send + Sync>;

/// How many saved inputs keep their spans (once a [`Respan`] is set) and their comparison
/// operands; older ones have theirs made again when they are needed. Enough for the
/// parents a schedule picks in a row, a few MiB.
pub const HELD_INPUTS: usize = 1024;

/// The spans of each saved input, by its index in the corpus.
#[derive(Clone, Default)]
pub(super) struct SpanStore {
    /// Each input's distinct span types, as sorted indices into `type_names`.
    types: Vec<Box<[u32]>>,
    type_names: Vec<&'static str>,
    type_ids: HashMap<&'static str, u32>,
    held: RefCell<Held>,
    /// What an input saved without spans (none were recorded) reads.
    none: PackedSpans,
    /// `None`: every input's spans are held (nothing could generate them again).
    respan: Option<Respan>,
    capacity: usize,
}

#[derive(Clone, Default)]
struct Held {
    packed: Vec<Option<Box<PackedSpans>>>,
    /// The indices whose spans are held, oldest first: the first let go.
    order: VecDeque<usize>,
    /// How many times an input's spans were generated again.
    regenerated: u64,
}

impl fmt::Debug for SpanStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let held = self.held.borrow();
        f.debug_struct("SpanStore")
            .field("inputs", &self.types.len())
            .field("held", &held.order.len())
            .field("regenerated", &held.regenerated)
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

impl SpanStore {
    /// From now on holds at most `capacity` inputs' spans, and regenerates the others
    /// with `respan` when they are needed.
    pub(super) fn regenerate_with(&mut self, respan: Respan, capacity: usize) {
        self.respan = Some(respan);
        self.capacity = capacity.max(1);
        let_go(self.held.get_mut(), self.capacity);
    }

    /// Adds the spans of the input just saved (the next index).
    pub(super) fn push(&mut self, spans: Spans) {
        let mut types: Vec<u32> = spans.iter().map(|s| self.type_id(s.type_name)).collect();
        types.sort_unstable();
        types.dedup();
        self.types.push(types.into());
        let held = self.held.get_mut();
        // Spans are recorded for every input or for none: none cost nothing to hold.
        if spans.is_empty() {
            held.packed.push(None);
            return;
        }
        held.packed.push(Some(Box::new(spans.into())));
        held.order.push_back(held.packed.len() - 1);
        if self.respan.is_some() {
            let_go(held, self.capacity);
        }
    }

    fn type_id(&mut self, type_name: &'static str) -> u32 {
        *self.type_ids.entry(type_name).or_insert_with(|| {
            self.type_names.push(type_name);
            (self.type_names.len() - 1) as u32
        })
    }

    /// Whether input `index` has a span of type `type_name`.
    pub(super) fn has_type(&self, index: usize, type_name: &str) -> bool {
        self.type_ids.get(type_name).is_some_and(|id| self.types[index].binary_search(id).is_ok())
    }

    /// Calls `f` with the spans of input `index` (whose bytes are `bytes`), generated
    /// again if they were let go.
    pub(super) fn with<R>(&self, index: usize, bytes: &[u8], f: impl FnOnce(&PackedSpans) -> R) -> R {
        if self.types[index].is_empty() {
            return f(&self.none);
        }
        let mut held = self.held.borrow_mut();
        if held.packed[index].is_none() {
            let respan = self.respan.as_ref().expect("spans are let go only when they can be regenerated");
            held.packed[index] = Some(Box::new(respan(bytes).into()));
            held.order.push_back(index);
            held.regenerated += 1;
            // The spans just made are the newest, so they stay.
            let_go(&mut held, self.capacity);
        }
        f(held.packed[index].as_deref().expect("held above"))
    }

    /// How many times spans were generated again.
    pub(super) fn regenerated(&self) -> u64 {
        self.held.borrow().regenerated
    }
}

/// Lets the oldest spans go while more than `capacity` are held.
fn let_go(held: &mut Held, capacity: usize) {
    while held.order.len() > capacity {
        if let Some(oldest) = held.order.pop_front() {
            held.packed[oldest] = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Corpus, CorpusEntry};
    use crate::edit::entry_of;
    use crate::input::{Rng, Source, Spans};

    #[derive(Debug, crate::Gen)]
    enum Shape {
        Dot(u8),
        Path(Vec<(u16, bool)>),
        Group(Vec<Shape>),
    }

    /// A saved input of a fresh `Shape` drawn with `seed`, and its spans.
    fn shape(seed: u64) -> (CorpusEntry, Spans) {
        let (_, entry, spans) = entry_of::<Shape>(seed);
        (entry, spans)
    }

    fn respan() -> Respan {
        Arc::new(|bytes: &[u8]| {
            let mut src = Source::new(bytes, Rng::new(0));
            let _: Shape = src.draw();
            src.into_input().1
        })
    }

    #[test]
    fn spans_let_go_are_generated_again_as_they_were() {
        let mut corpus = Corpus::new();
        corpus.regenerate_spans(respan(), 2);
        let mut recorded = Vec::new();
        for seed in 0..6 {
            let (entry, spans) = shape(seed);
            corpus.push(entry, spans.clone());
            recorded.push(spans);
        }
        assert_eq!(corpus.spans.held.borrow().order, [4, 5]);
        // Every entry's, the oldest first: each read lets the oldest held go, so the
        // last two were let go too by the time they are read.
        for (index, spans) in recorded.iter().enumerate() {
            assert_eq!(corpus.with_spans(index, |p| p.unpack()), *spans, "entry {index}");
        }
        assert_eq!(corpus.spans_regenerated(), 6);
        assert_eq!(corpus.spans.held.borrow().order, [4, 5]);
        assert_eq!(corpus.with_spans(5, |p| p.len()), recorded[5].len());
        assert_eq!(corpus.spans_regenerated(), 6);
        // Types are known without the spans.
        for (index, spans) in recorded.iter().enumerate() {
            for span in spans.iter() {
                assert!(corpus.has_type(index, span.type_name));
            }
            let group = std::any::type_name::<Vec<Shape>>();
            assert_eq!(corpus.has_type(index, group), spans.iter().any(|s| s.type_name == group));
        }
        assert!(!corpus.has_type(0, "u128"));
        // An input saved without spans (recording was off) has none to generate.
        let entry = CorpusEntry { trial: 9, ..corpus.entries()[0].clone() };
        let index = corpus.push(entry, Spans::default());
        assert!(corpus.with_spans(index, |p| p.is_empty()));
        assert_eq!(corpus.spans_regenerated(), 6);
    }

    #[test]
    fn without_a_way_to_generate_them_every_entrys_spans_are_held() {
        let mut corpus = Corpus::new();
        for seed in 0..3 {
            let (entry, spans) = shape(seed);
            corpus.push(entry, spans);
        }
        assert_eq!(corpus.spans.held.borrow().order.len(), 3);
    }
}
