//! Structure-preserving edits over spans (as MUTAGEN edits values): replace a span with a
//! same-typed descendant, switch an enum's variant, minimise, re-draw, splice from
//! another input, duplicate or drop a collection element; and [`Structure`], the edit
//! that picks one of them (or havoc) at random.
//!
//! Each edit replaces the bytes of one span and hands the source a [`Rewrite`], so the
//! new value ends where its content ends and everything after it replays unchanged.

use super::{Edit, Havoc, Parent};
use crate::corpus::Corpus;
use crate::input::{Donor, Fill, Rewrite, Rng, SpanKind, Spans, choice_width};

/// One structure-preserving edit of one span; indices are pre-order span indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpanEdit {
    /// Replace the span with its descendant span `0` of the same type.
    Subterm(usize),
    /// Switch the enum to variant `0`, reusing the old fields by type, the simplest value elsewhere.
    Variant(usize),
    /// Replace the value with the simplest one of its type.
    Minimise,
    /// Draw a fresh random value of its type (a random edit).
    Resample,
    /// Copy a same-typed span of another saved input (a random edit).
    Splice,
    /// Insert a copy of element span `0` into the collection.
    Duplicate(usize),
    /// Remove element span `0` (an optional one) from the collection.
    Drop(usize),
}

impl SpanEdit {
    /// Whether the edit gives a different child each time (MUTAGEN's random edits).
    pub fn is_random(self) -> bool {
        matches!(self, SpanEdit::Resample | SpanEdit::Splice)
    }
}

/// Whether `j` lies inside span `at` (pre-order: descendants follow `at` contiguously).
fn descendants(spans: &Spans, at: usize) -> std::ops::Range<usize> {
    let depth = spans[at].depth;
    let end = (at + 1..spans.len()).find(|&j| spans[j].depth <= depth).unwrap_or(spans.len());
    at + 1..end
}

/// The variant an enum span's first choice picks, as the derived generator reads it.
fn variant_of(bytes: &[u8], start: usize, n: usize) -> usize {
    let width = variant_width(n);
    let mut raw = 0u128;
    for (k, &b) in bytes.iter().skip(start).take(width).enumerate() {
        raw |= u128::from(b) << (8 * k);
    }
    (raw % n as u128) as usize
}

/// Bytes of a variant choice among `n` (the width of the index choice `0..n`).
fn variant_width(n: usize) -> usize {
    choice_width(n.saturating_sub(1) as u128)
}

/// Bytes between element `child` and the end of its previous sibling (or the collection's
/// start): 1 for an optional element (its continuation byte), 0 for a required one.
fn gap_before(spans: &Spans, at: usize, child: usize) -> usize {
    let prev_end =
        spans.children(at).take_while(|&(j, _)| j < child).last().map_or(spans[at].start, |(_, s)| s.end);
    spans[child].start - prev_end
}

/// Lists every structure-preserving edit of span `at` (MUTAGEN's edits of one position).
pub fn edits_at(bytes: &[u8], spans: &Spans, at: usize, out: &mut Vec<SpanEdit>) {
    let span = spans[at];
    // Nearest same-typed descendants: no span of the type between them and `at`.
    for j in descendants(spans, at) {
        if spans[j].type_name != span.type_name || spans[j].end > bytes.len() {
            continue;
        }
        let mut p = spans[j].parent;
        let mut nearest = true;
        while let Some(q) = p.filter(|&q| q != at) {
            nearest &= spans[q].type_name != span.type_name;
            p = spans[q].parent;
        }
        if nearest {
            out.push(SpanEdit::Subterm(j));
        }
    }
    match spans.kind(at) {
        Some(SpanKind::Enum(n)) => {
            let current = variant_of(bytes, span.start, n);
            out.extend((0..n).filter(|&v| v != current).map(SpanEdit::Variant));
        }
        Some(SpanKind::Collection) => {
            for (j, _) in spans.children(at) {
                if gap_before(spans, at, j) == 1 {
                    out.push(SpanEdit::Drop(j));
                }
                out.push(SpanEdit::Duplicate(j));
            }
        }
        None => {}
    }
    if !span.is_empty() {
        out.push(SpanEdit::Minimise);
        out.push(SpanEdit::Resample);
        out.push(SpanEdit::Splice);
    }
}

/// Makes the child of `parent` (its `bytes` and `spans`) that `edit` of span `at` gives:
/// its bytes in `out` and the rewrite its source replays them with. `None` when the edit
/// does not apply (a splice with no same-typed span elsewhere, a stale span).
pub fn apply(
    edit: SpanEdit,
    at: usize,
    bytes: &[u8],
    spans: &Spans,
    corpus: &Corpus,
    rng: &mut Rng,
    out: &mut Vec<u8>,
) -> Option<Rewrite> {
    let span = *spans.get(at)?;
    if span.end > bytes.len() {
        return None;
    }
    out.clear();
    out.extend_from_slice(&bytes[..span.start]);
    let mut fill = Fill::Minimal;
    let mut donors = Vec::new();
    match edit {
        SpanEdit::Subterm(j) => out.extend_from_slice(&bytes[spans.get(j)?.range()]),
        SpanEdit::Variant(v) => {
            let Some(SpanKind::Enum(n)) = spans.kind(at) else { return None };
            let width = variant_width(n);
            out.extend_from_slice(&(v as u64).to_le_bytes()[..width]);
            donors = spans
                .children(at)
                .map(|(_, s)| Donor { type_name: s.type_name, bytes: bytes[s.range()].to_vec() })
                .collect();
        }
        SpanEdit::Minimise => {}
        SpanEdit::Resample => fill = Fill::Fresh,
        SpanEdit::Splice => out.extend_from_slice(splice_donor(corpus, span.type_name, rng)?),
        SpanEdit::Duplicate(j) => {
            let child = *spans.get(j)?;
            // A copy goes right after an optional element; after the last element otherwise,
            // where the collection reads a continuation byte either way.
            let last_end = spans.children(at).last().map_or(span.start, |(_, s)| s.end);
            let insert = if gap_before(spans, at, j) == 1 { child.end } else { last_end };
            out.extend_from_slice(&bytes[span.start..insert]);
            out.push(1);
            out.extend_from_slice(&bytes[child.range()]);
            out.extend_from_slice(&bytes[insert..span.end]);
        }
        SpanEdit::Drop(j) => {
            let child = *spans.get(j)?;
            if gap_before(spans, at, j) != 1 {
                return None;
            }
            out.extend_from_slice(&bytes[span.start..child.start - 1]);
            out.extend_from_slice(&bytes[child.end..span.end]);
        }
    }
    let len = out.len() - span.start;
    out.extend_from_slice(&bytes[span.end..]);
    Some(Rewrite { span: at, start: span.start, len, fill, donors })
}

/// The bytes of a random span of type `type_name` in a random saved input that has one.
fn splice_donor<'c>(corpus: &'c Corpus, type_name: &str, rng: &mut Rng) -> Option<&'c [u8]> {
    if corpus.is_empty() {
        return None;
    }
    // A few random inputs, then give up: a type no other input has cannot be spliced.
    for _ in 0..8 {
        let index = rng.below(corpus.len() as u64) as usize;
        // Its spans may have to be generated again: only when it has one to give.
        if !corpus.has_type(index, type_name) {
            continue;
        }
        let bytes = corpus.entries()[index].input.as_bytes();
        let donor = corpus.with_spans(index, |spans| {
            let n = spans.of_type(type_name).filter(|(_, s)| s.end <= bytes.len()).count();
            if n == 0 {
                return None;
            }
            let pick = rng.below(n as u64) as usize;
            spans.of_type(type_name).filter(|(_, s)| s.end <= bytes.len()).nth(pick).map(|(_, s)| s.range())
        });
        match donor {
            Some(range) => return Some(&bytes[range]),
            None => continue,
        }
    }
    None
}

/// The structure-preserving edits, picked at random, mixed with Zest's havoc.
///
/// A child is havoc with probability `havoc_share`; otherwise one span of the parent,
/// chosen uniformly, gets one of its structure-preserving edits, chosen uniformly.
#[derive(Clone, Debug)]
pub struct Structure {
    /// The byte-level edits used for the havoc share.
    pub havoc: Havoc,
    /// Probability that a child is made by havoc instead.
    pub havoc_share: f64,
    candidates: Vec<SpanEdit>,
}

impl Default for Structure {
    fn default() -> Self {
        Structure { havoc: Havoc::default(), havoc_share: 0.2, candidates: Vec::new() }
    }
}

impl Edit for Structure {
    fn edit(&mut self, parent: &Parent, rng: &mut Rng, out: &mut Vec<u8>) {
        let _ = self.edit_structured(parent, &Corpus::new(), rng, out);
    }

    fn edit_structured(
        &mut self,
        parent: &Parent,
        corpus: &Corpus,
        rng: &mut Rng,
        out: &mut Vec<u8>,
    ) -> Option<Rewrite> {
        let bytes = parent.input.as_bytes();
        if !parent.spans.is_empty() && !rng.chance(self.havoc_share) {
            // A few tries: a span's edits may all fail (a splice with no donor).
            for _ in 0..4 {
                let at = rng.below(parent.spans.len() as u64) as usize;
                self.candidates.clear();
                edits_at(bytes, parent.spans, at, &mut self.candidates);
                if self.candidates.is_empty() {
                    continue;
                }
                let edit = self.candidates[rng.below(self.candidates.len() as u64) as usize];
                if let Some(rewrite) = apply(edit, at, bytes, parent.spans, corpus, rng, out) {
                    return Some(rewrite);
                }
            }
        }
        self.havoc.edit(parent, rng, out);
        None
    }

    fn needs_spans(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests;
