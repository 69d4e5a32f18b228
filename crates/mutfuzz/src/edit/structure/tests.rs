use super::*;
use crate::corpus::CorpusEntry;
use crate::guidance::Energy;
use crate::input::{Input, Limits};
use crate::{Gen, Source};

#[derive(Clone, Debug, PartialEq, Gen)]
enum Expr {
    Num(u8),
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
    Pair(u8, Vec<u16>),
}

#[derive(Clone, Debug, PartialEq, Gen)]
struct Doc {
    title: String,
    items: Vec<Expr>,
    flag: Option<u32>,
    tail: u16,
}

fn limits() -> Limits {
    Limits { max_depth: 12, max_len: 512 }
}

/// Generates a `T` from `bytes` (extended at random by `seed`) with its spans.
fn record<T: Gen>(bytes: Vec<u8>, seed: u64) -> (T, Input, Spans) {
    let mut src = Source::new(bytes, Rng::new(seed)).with_limits(limits());
    let value = src.draw::<T>();
    let (input, spans) = src.into_input();
    (value, input, spans)
}

/// Replays a child with its rewrite, then checks that the bytes it returns replay alone
/// to the same value and spans (they are plain choice bytes again, so a saved input's
/// spans can be generated again from them).
fn replay<T: Gen + PartialEq + std::fmt::Debug>(child: &[u8], rewrite: Option<Rewrite>) -> (T, Input, Spans) {
    replay_with(child, rewrite, 77)
}

/// [`replay`] with fresh choices from `seed`.
fn replay_with<T: Gen + PartialEq + std::fmt::Debug>(
    child: &[u8],
    rewrite: Option<Rewrite>,
    seed: u64,
) -> (T, Input, Spans) {
    let mut src = Source::new(child.to_vec(), Rng::new(seed)).with_limits(limits());
    if let Some(rewrite) = rewrite {
        src = src.with_rewrite(rewrite);
    }
    let value = src.draw::<T>();
    let (input, spans) = src.into_input();
    let (again, input2, spans2) = record::<T>(input.as_bytes().to_vec(), 5);
    assert_eq!(again, value);
    assert_eq!(input2, input);
    assert_eq!(spans2, spans);
    (value, input, spans)
}

fn entry(input: Input) -> CorpusEntry {
    CorpusEntry {
        input,
        name: String::new(),
        sites: 1,
        favoured: false,
        energy: Energy::Zest,
        kills: 0,
        trial: 0,
    }
}

/// The single edit of `kind` at span `at` (the first one listed).
fn first(bytes: &[u8], spans: &Spans, at: usize, pick: impl Fn(&SpanEdit) -> bool) -> SpanEdit {
    let mut edits = Vec::new();
    edits_at(bytes, spans, at, &mut edits);
    *edits.iter().find(|e| pick(e)).unwrap_or_else(|| panic!("no such edit at {at}: {edits:?}"))
}

#[test]
fn every_edit_of_every_span_of_derived_values_replays_to_a_value_of_the_type() {
    let mut corpus = Corpus::new();
    for seed in 0..6 {
        let (_, input, spans) = record::<Doc>(Vec::new(), 100 + seed);
        corpus.push(entry(input), spans);
    }
    let mut rng = Rng::new(3);
    let mut out = Vec::new();
    let mut kinds = std::collections::HashSet::new();
    let mut applied = 0;
    for seed in 0..40 {
        let (_, input, spans) = record::<Doc>(Vec::new(), seed);
        let bytes = input.as_bytes();
        for at in 0..spans.len() {
            let mut edits = Vec::new();
            edits_at(bytes, &spans, at, &mut edits);
            for edit in edits {
                let Some(rewrite) = apply(edit, at, bytes, &spans, &corpus, &mut rng, &mut out) else {
                    continue;
                };
                // Bytes before the edited span are the parent's.
                assert_eq!(out[..spans[at].start], bytes[..spans[at].start]);
                replay::<Doc>(&out, Some(rewrite));
                kinds.insert(std::mem::discriminant(&edit));
                applied += 1;
            }
        }
    }
    // Subterm, variant, minimise, resample, splice, duplicate, drop.
    assert_eq!(kinds.len(), 7, "{kinds:?}");
    assert!(applied > 1000, "{applied}");
}

#[test]
fn a_subterm_edit_lifts_a_descendant_of_the_same_type() {
    let (_, input, spans) = record::<(Expr, u32)>(Vec::new(), 1);
    // Neg(Num(5)), 9: variant 1, Box<Expr> → Expr variant 0 with 5; then the u32.
    let bytes = [1, 0, 5, 9, 0, 0, 0];
    let (value, input2, spans2) = record::<(Expr, u32)>(bytes.to_vec(), 1);
    assert_eq!(value, (Expr::Neg(Box::new(Expr::Num(5))), 9));
    let _ = (input, spans);
    let mut out = Vec::new();
    let edit = first(input2.as_bytes(), &spans2, 1, |e| matches!(e, SpanEdit::Subterm(_)));
    let rewrite = apply(edit, 1, input2.as_bytes(), &spans2, &Corpus::new(), &mut Rng::new(0), &mut out);
    let (child, ..) = replay::<(Expr, u32)>(&out, rewrite);
    assert_eq!(child, (Expr::Num(5), 9));
}

#[test]
fn a_variant_switch_reuses_fields_by_type_and_fills_the_rest_with_the_simplest_value() {
    // Add(Num(3), Num(4)), then 0xAB.
    let bytes = vec![2, 0, 3, 0, 4, 0xAB];
    let (value, input, spans) = record::<(Expr, u8)>(bytes, 1);
    assert_eq!(value, (Expr::Add(Box::new(Expr::Num(3)), Box::new(Expr::Num(4))), 0xAB));
    assert_eq!(spans.kind(1), Some(SpanKind::Enum(4)));
    let mut out = Vec::new();
    let mut rng = Rng::new(0);
    let to = |v: usize| first(input.as_bytes(), &spans, 1, move |e| *e == SpanEdit::Variant(v));
    let rewrite = apply(to(1), 1, input.as_bytes(), &spans, &Corpus::new(), &mut rng, &mut out);
    assert_eq!(replay::<(Expr, u8)>(&out, rewrite).0, (Expr::Neg(Box::new(Expr::Num(3))), 0xAB));
    // No u8 or Vec<u16> field to reuse: the simplest values, and the tail is kept.
    let rewrite = apply(to(3), 1, input.as_bytes(), &spans, &Corpus::new(), &mut rng, &mut out);
    assert_eq!(replay::<(Expr, u8)>(&out, rewrite).0, (Expr::Pair(0, Vec::new()), 0xAB));
    // Num(7) grown into Add: both boxes take the simplest Expr, the first leaf Num(0).
    let (_, input, spans) = record::<(Expr, u8)>(vec![0, 7, 0xCD], 1);
    let edit = first(input.as_bytes(), &spans, 1, |e| *e == SpanEdit::Variant(2));
    let rewrite = apply(edit, 1, input.as_bytes(), &spans, &Corpus::new(), &mut rng, &mut out);
    let num = |n| Box::new(Expr::Num(n));
    assert_eq!(replay::<(Expr, u8)>(&out, rewrite).0, (Expr::Add(num(0), num(0)), 0xCD));
}

#[test]
fn minimising_gives_the_simplest_value_and_keeps_what_follows() {
    let (value, input, spans) = record::<(Doc, u32)>(Vec::new(), 12);
    let doc_span = 1;
    assert_eq!(spans[doc_span].type_name, std::any::type_name::<Doc>());
    let mut out = Vec::new();
    let rewrite = apply(
        SpanEdit::Minimise,
        doc_span,
        input.as_bytes(),
        &spans,
        &Corpus::new(),
        &mut Rng::new(0),
        &mut out,
    );
    let (child, ..) = replay::<(Doc, u32)>(&out, rewrite);
    let simplest = Doc { title: String::new(), items: Vec::new(), flag: None, tail: 0 };
    assert_eq!(child, (simplest, value.1));
}

#[test]
fn resampling_draws_a_fresh_value_of_any_length_in_place() {
    let (value, input, spans) = record::<(Vec<u16>, u32)>(vec![1, 1, 0, 0, 0xEE, 0, 0, 0], 2);
    assert_eq!(value, (vec![1], 0xEE));
    let mut out = Vec::new();
    let mut rng = Rng::new(8);
    let mut lengths = std::collections::HashSet::new();
    for seed in 0..50 {
        let rewrite =
            apply(SpanEdit::Resample, 1, input.as_bytes(), &spans, &Corpus::new(), &mut rng, &mut out);
        let (child, ..) = replay_with::<(Vec<u16>, u32)>(&out, rewrite, seed);
        assert_eq!(child.1, 0xEE);
        lengths.insert(child.0.len());
    }
    assert!(lengths.len() > 3, "{lengths:?}");
}

#[test]
fn splicing_copies_a_same_typed_span_of_another_input() {
    let (donor, dinput, dspans) = record::<(u8, String)>(Vec::new(), 5);
    assert!(!donor.1.is_empty());
    let mut corpus = Corpus::new();
    corpus.push(entry(dinput), dspans);
    let (_, input, spans) = record::<(String, u16)>(vec![1, b'x', 0, 0, 0, 0, 0x34, 0x12], 0);
    assert_eq!(spans[1].type_name, std::any::type_name::<String>());
    let mut out = Vec::new();
    let rewrite = apply(SpanEdit::Splice, 1, input.as_bytes(), &spans, &corpus, &mut Rng::new(1), &mut out);
    assert_eq!(replay::<(String, u16)>(&out, rewrite).0, (donor.1, 0x1234));
    // A type no saved input has cannot be spliced.
    let (_, input, spans) = record::<(i64, u16)>(Vec::new(), 0);
    assert!(
        apply(SpanEdit::Splice, 1, input.as_bytes(), &spans, &corpus, &mut Rng::new(1), &mut out).is_none()
    );
}

#[test]
fn elements_of_collections_and_chars_of_strings_are_duplicated_and_dropped() {
    let (value, input, spans) = record::<(Vec<u16>, String)>(Vec::new(), 21);
    let (v, s) = value;
    let bytes = input.as_bytes();
    let (vec_at, str_at) = (1, spans.children(0).nth(1).unwrap().0);
    assert_eq!(spans.kind(vec_at), Some(SpanKind::Collection));
    assert_eq!(spans.kind(str_at), Some(SpanKind::Collection));
    assert!(!v.is_empty() && !s.is_empty(), "{v:?} {s:?}");
    let mut out = Vec::new();
    let mut rng = Rng::new(0);
    let elem = spans.children(vec_at).next().unwrap().0;
    let rewrite = apply(SpanEdit::Duplicate(elem), vec_at, bytes, &spans, &Corpus::new(), &mut rng, &mut out);
    let mut longer = v.clone();
    longer.insert(0, v[0]);
    assert_eq!(replay::<(Vec<u16>, String)>(&out, rewrite).0, (longer, s.clone()));
    let rewrite = apply(SpanEdit::Drop(elem), vec_at, bytes, &spans, &Corpus::new(), &mut rng, &mut out);
    assert_eq!(replay::<(Vec<u16>, String)>(&out, rewrite).0, (v[1..].to_vec(), s.clone()));
    let last = spans.children(str_at).last().unwrap().0;
    let rewrite = apply(SpanEdit::Drop(last), str_at, bytes, &spans, &Corpus::new(), &mut rng, &mut out);
    let shorter: String = s.chars().take(s.chars().count() - 1).collect();
    assert_eq!(replay::<(Vec<u16>, String)>(&out, rewrite).0, (v.clone(), shorter));
}

#[test]
fn the_structure_edit_mixes_span_edits_with_havoc_and_always_replays() {
    let mut corpus = Corpus::new();
    let (_, input, spans) = record::<Doc>(Vec::new(), 4);
    corpus.push(entry(input), spans.clone());
    let mut edit = Structure::default();
    assert!(edit.needs_spans());
    let mut rng = Rng::new(6);
    let mut out = Vec::new();
    let (mut structured, mut havoc) = (0, 0);
    for _ in 0..500 {
        let parent = Parent::new(&corpus.entries()[0], &spans);
        let rewrite = edit.edit_structured(&parent, &corpus, &mut rng, &mut out);
        if rewrite.is_some() {
            structured += 1
        } else {
            havoc += 1
        }
        replay::<Doc>(&out, rewrite);
    }
    assert!(havoc > 50 && structured > 300, "{havoc} {structured}");
}
