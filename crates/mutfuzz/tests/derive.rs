//! `#[derive(Gen)]`: reachability, bounds, custom generators, recursion and replay.

// The test types exist to be generated and printed; most fields are never read by name.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::mem::discriminant;

use mutfuzz::{Arb, Gen, Limits, Rng, Source, generate};

fn seeds(n: u64) -> impl Iterator<Item = Rng> {
    let mut meta = Rng::new(0x5EED);
    (0..n).map(move |_| Rng::new(meta.next_u64()))
}

#[derive(Debug, Gen)]
enum Shape {
    Empty,
    Circle(u8),
    Rect { w: u16, h: u16 },
    Label(String, bool),
}

#[test]
fn every_variant_of_a_derived_enum_is_reachable() {
    let mut seen = Vec::new();
    for rng in seeds(200) {
        let shape = generate::<Shape>(Vec::new(), rng).value;
        let d = discriminant(&shape);
        if !seen.contains(&d) {
            seen.push(d);
        }
    }
    assert_eq!(seen.len(), 4);
}

#[derive(Debug, Gen)]
enum WithSkipped {
    Kept(u8),
    #[mutfuzz(skip)]
    #[allow(dead_code)]
    Skipped(std::fs::File),
    AlsoKept,
}

#[test]
fn skipped_variants_are_never_generated_and_need_no_generator() {
    for rng in seeds(200) {
        let value = generate::<WithSkipped>(Vec::new(), rng).value;
        assert!(!matches!(value, WithSkipped::Skipped(_)));
    }
}

#[derive(Debug, Gen)]
struct Bounded {
    #[mutfuzz(range = 1..=100)]
    percent: u32,
    #[mutfuzz(range = -5..5)]
    offset: i8,
    #[mutfuzz(len = 0..=8)]
    name: String,
    #[mutfuzz(len = 2..=4)]
    items: Vec<u64>,
    #[mutfuzz(len = 1..=3)]
    tags: BTreeSet<u8>,
    #[mutfuzz(len = ..=2)]
    table: BTreeMap<u16, bool>,
}

fn assert_bounded(value: &Bounded) {
    assert!((1..=100).contains(&value.percent), "{value:?}");
    assert!((-5..5).contains(&value.offset), "{value:?}");
    assert!(value.name.chars().count() <= 8, "{value:?}");
    assert!((2..=4).contains(&value.items.len()), "{value:?}");
    assert!((1..=3).contains(&value.tags.len()), "{value:?}");
    assert!(value.table.len() <= 2, "{value:?}");
}

#[test]
fn field_ranges_and_lengths_are_respected_for_fresh_draws() {
    for rng in seeds(300) {
        assert_bounded(&generate::<Bounded>(Vec::new(), rng).value);
    }
}

#[test]
fn field_ranges_and_lengths_are_respected_for_arbitrary_bytes() {
    let mut rng = Rng::new(77);
    for _ in 0..300 {
        let mut bytes = vec![0u8; rng.below(200) as usize];
        rng.fill_bytes(&mut bytes);
        assert_bounded(&generate::<Bounded>(bytes, Rng::new(rng.next_u64())).value);
    }
    assert_bounded(&generate::<Bounded>(vec![0xFF; 500], Rng::new(0)).value);
    assert_bounded(&generate::<Bounded>(vec![0; 500], Rng::new(0)).value);
}

fn even_number(src: &mut Source) -> u32 {
    src.int_in_range(0..=50u32) * 2
}

#[derive(Debug, Gen)]
struct Custom {
    #[mutfuzz(with = even_number)]
    even: u32,
    #[mutfuzz(with = |src: &mut Source| src.bool().then_some(7))]
    maybe_seven: Option<u8>,
    #[mutfuzz(default)]
    untouched: Vec<String>,
}

#[test]
fn custom_generator_functions_and_defaults_are_used_for_their_fields() {
    for rng in seeds(100) {
        let generated = generate::<Custom>(Vec::new(), rng);
        let value = generated.value;
        assert_eq!(value.even % 2, 0);
        assert!(value.even <= 100);
        assert!(matches!(value.maybe_seven, None | Some(7)));
        assert!(value.untouched.is_empty());
        // The custom draws are one span each, typed as the field; the default draws nothing.
        let names: Vec<&str> = generated.spans.iter().map(|s| s.type_name).collect();
        assert_eq!(names, [std::any::type_name::<Custom>(), "u32", "core::option::Option<u8>"]);
        assert_eq!(generated.spans[1].len(), 1);
    }
}

/// Accepts only zero bytes, to exercise the fallback of the `arbitrary` bridge.
#[derive(Debug, PartialEq)]
struct Picky(u8);

impl<'a> arbitrary::Arbitrary<'a> for Picky {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        match u8::arbitrary(u)? {
            0 => Ok(Picky(0)),
            _ => Err(arbitrary::Error::IncorrectFormat),
        }
    }
}

#[derive(Debug, Gen)]
struct Opaque {
    #[mutfuzz(arbitrary)]
    pair: (u32, String),
    wrapped: Arb<Vec<i16>>,
    #[mutfuzz(arbitrary)]
    picky: Picky,
}

#[test]
fn arbitrary_fields_are_opaque_leaves_of_one_span_each() {
    for rng in seeds(50) {
        let generated = generate::<Opaque>(Vec::new(), rng);
        let spans = &generated.spans;
        let fields: Vec<_> = spans.children(0).map(|(_, s)| s.type_name).collect();
        assert_eq!(
            fields,
            [
                std::any::type_name::<(u32, String)>(),
                std::any::type_name::<Arb<Vec<i16>>>(),
                std::any::type_name::<Picky>(),
            ]
        );
        // `#[mutfuzz(arbitrary)]` fields have no inner spans; `Arb<T>` has exactly one, for `T`.
        assert_eq!(spans.children(1).count(), 0);
        let inner: Vec<_> = spans.children(2).map(|(_, s)| s.type_name).collect();
        assert_eq!(inner, [std::any::type_name::<Vec<i16>>()]);
        assert_eq!(spans.children(inner.len() + 2).count(), 0);
        // A byte string the impl rejects falls back to zero bytes instead of failing.
        assert_eq!(generated.value.picky, Picky(0));

        let again = generate::<Opaque>(generated.input.as_bytes(), Rng::new(1));
        assert_eq!(format!("{:?}", generated.value), format!("{:?}", again.value));
    }
}

#[derive(Debug, Gen)]
enum Expr {
    Num(i64),
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
}

fn height(expr: &Expr) -> usize {
    match expr {
        Expr::Num(_) => 1,
        Expr::Neg(e) => 1 + height(e),
        Expr::Add(a, b) => 1 + height(a).max(height(b)),
    }
}

#[test]
fn recursive_enums_terminate_within_the_depth_budget() {
    let limits = Limits::default();
    // Each level of `Expr` is two spans deep (`Expr`, then `Box<Expr>`).
    let max_height = limits.max_depth / 2 + 1;
    for rng in seeds(300) {
        let expr = generate::<Expr>(Vec::new(), rng).value;
        assert!(height(&expr) <= max_height, "height {}", height(&expr));
    }
    // Bytes that always pick `Add` (index 2) still end in leaves, by depth and by size.
    let all_add = generate::<Expr>(vec![2; 100_000], Rng::new(0));
    assert!(matches!(all_add.value, Expr::Add(..)));
    assert!(height(&all_add.value) <= max_height);
    assert!(all_add.input.len() < limits.max_len * 2);
}

#[test]
fn a_tight_depth_budget_gives_leaves_immediately() {
    let limits = Limits { max_depth: 1, max_len: 1024 };
    for rng in seeds(100) {
        let mut src = Source::new(Vec::new(), rng).with_limits(limits);
        let expr: Expr = src.draw();
        assert!(height(&expr) <= 2, "{expr:?}");
    }
}

#[derive(Debug, Gen)]
enum Stmt {
    Pass,
    #[mutfuzz(recursive)]
    Block(Block),
}

#[derive(Debug, Gen)]
struct Block {
    first: Box<Stmt>,
}

fn stmt_height(stmt: &Stmt) -> usize {
    match stmt {
        Stmt::Pass => 1,
        Stmt::Block(block) => 1 + stmt_height(&block.first),
    }
}

#[test]
fn mutually_recursive_types_marked_recursive_terminate() {
    let stmt = generate::<Stmt>(vec![0xFF; 100_000], Rng::new(0)).value;
    assert!(stmt_height(&stmt) <= Limits::default().max_depth);
    assert!(stmt_height(&stmt) > 1);
}

#[derive(Debug, Gen)]
struct Tree<T> {
    value: T,
    children: Vec<Tree<T>>,
}

#[derive(Debug, Gen)]
struct Unit;

#[derive(Debug, Gen)]
struct Pair(u8, #[mutfuzz(range = 10..=20)] u16);

#[derive(Debug, Gen)]
struct Everything {
    tree: Tree<Option<char>>,
    unit: Unit,
    pair: Pair,
    shape: Shape,
    set: HashSet<i32>,
    floats: [f64; 3],
}

#[test]
fn replaying_a_derived_value_gives_a_debug_equal_value() {
    for rng in seeds(100) {
        let first = generate::<Everything>(Vec::new(), rng);
        let again = generate::<Everything>(first.input.as_bytes(), Rng::new(3));
        // `HashSet` debug order depends on its hasher's random state; compare it by value.
        assert_eq!(first.value.set, again.value.set);
        let debug =
            |e: &Everything| format!("{:?} {:?} {:?} {:?} {:?}", e.tree, e.unit, e.pair, e.shape, e.floats);
        assert_eq!(debug(&first.value), debug(&again.value));
        assert_eq!(first.input, again.input);
        assert_eq!(first.spans, again.spans);
        assert!((10..=20).contains(&first.value.pair.1));
    }
}

#[test]
fn spans_of_a_derived_struct_nest_its_fields() {
    let generated = generate::<Pair>(Vec::new(), Rng::new(9));
    let spans = &generated.spans;
    assert_eq!(spans.len(), 3);
    assert_eq!(spans[0].type_name, std::any::type_name::<Pair>());
    assert_eq!((spans[0].depth, spans[0].parent), (0, None));
    assert_eq!((spans[1].type_name, spans[1].depth, spans[1].parent), ("u8", 1, Some(0)));
    assert_eq!((spans[2].type_name, spans[2].depth, spans[2].parent), ("u16", 1, Some(0)));
    assert_eq!((spans[1].start, spans[1].end), (0, 1));
    // `10..=20` has 11 values, so the field is a 1-byte choice.
    assert_eq!((spans[2].start, spans[2].end), (1, 2));
    assert_eq!(spans[0].range(), 0..2);
}

mod renamed {
    pub use mutfuzz as engine;
}

#[derive(Debug, Gen)]
#[mutfuzz(crate = renamed::engine)]
struct ThroughAnotherPath(u8);

#[test]
fn the_crate_path_can_be_overridden() {
    let _ = generate::<ThroughAnotherPath>(Vec::new(), Rng::new(0)).value.0;
}
