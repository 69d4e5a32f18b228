//! The std generators: replay determinism, bounds, termination and distribution basics.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use mutfuzz::{Arb, GenLen, Limits, Rng, Source, generate};

fn seeds(n: u64) -> impl Iterator<Item = Rng> {
    let mut meta = Rng::new(0xB0B);
    (0..n).map(move |_| Rng::new(meta.next_u64()))
}

type Scalars = (u8, i16, u32, i64, u128, isize, usize, f32, f64, bool, char, ());
type Structured = (
    String,
    Vec<u8>,
    VecDeque<i8>,
    BTreeMap<u8, String>,
    BTreeSet<i32>,
    Option<u8>,
    Result<u8, bool>,
    Box<u16>,
    [i128; 3],
    std::rc::Rc<Option<Vec<char>>>,
);
type Hashed = (HashMap<u16, bool>, HashSet<String>);

#[test]
fn every_std_generator_replays_to_an_equal_value() {
    for rng in seeds(200) {
        let first = generate::<(Scalars, Structured, Hashed)>(Vec::new(), rng);
        let again = generate::<(Scalars, Structured, Hashed)>(first.input.as_bytes(), Rng::new(1));
        // Debug-equal covers NaN floats; hashed collections print in a random order, so compare by value.
        let (s1, t1, h1) = &first.value;
        let (s2, t2, h2) = &again.value;
        assert_eq!(format!("{s1:?} {t1:?}"), format!("{s2:?} {t2:?}"));
        assert_eq!(h1, h2);
        assert_eq!(first.input, again.input);
        assert_eq!(first.spans, again.spans);
    }
}

#[test]
fn any_byte_string_is_a_valid_input_and_replays_canonically() {
    let mut rng = Rng::new(2024);
    for _ in 0..300 {
        let mut bytes = vec![0u8; rng.below(300) as usize];
        rng.fill_bytes(&mut bytes);
        let first = generate::<(Structured, Hashed)>(bytes.clone(), Rng::new(rng.next_u64()));
        // The returned input replays to the same value and is itself a fixed point.
        let again = generate::<(Structured, Hashed)>(first.input.as_bytes(), Rng::new(0));
        assert_eq!(first.input, again.input);
        assert_eq!(format!("{:?}", first.value.0), format!("{:?}", again.value.0));
        // Replayed bytes are kept as they were: the input only grows past their end.
        let shared = bytes.len().min(first.input.len());
        assert_eq!(&first.input.as_bytes()[..shared], &bytes[..shared]);
    }
}

#[test]
fn collection_lengths_respect_their_bounds() {
    for rng in seeds(300) {
        let mut src = Source::new(Vec::new(), rng);
        let v = Vec::<u8>::generate_len(&mut src, 3..=5);
        let d = VecDeque::<u8>::generate_len(&mut src, 0..2);
        let s = String::generate_len(&mut src, 4..=4);
        let m = BTreeMap::<u32, u8>::generate_len(&mut src, 1..=2);
        let h = HashSet::<u64>::generate_len(&mut src, 2..=3);
        assert!((3..=5).contains(&v.len()));
        assert!(d.len() < 2);
        assert_eq!(s.chars().count(), 4);
        assert!((1..=2).contains(&m.len()));
        assert!((2..=3).contains(&h.len()));
    }
}

#[test]
fn a_set_of_a_small_type_with_a_large_minimum_still_terminates() {
    let mut src = Source::new(Vec::new(), Rng::new(5));
    let set = BTreeSet::<bool>::generate_len(&mut src, 10..=20);
    assert_eq!(set.len(), 2);
}

#[test]
fn nested_collections_stop_growing_once_the_size_budget_is_spent() {
    let limits = Limits::default();
    // Every continuation byte says "one more", so only the budget ends the collections.
    let generated = generate::<Vec<Vec<Vec<u8>>>>(vec![0xFF; 200_000], Rng::new(0));
    assert!(generated.input.len() <= limits.max_len + 16, "{} bytes", generated.input.len());
}

#[test]
fn options_are_none_and_collections_empty_once_the_budget_is_spent() {
    let limits = Limits { max_depth: 1, max_len: 1024 };
    for rng in seeds(50) {
        let mut src = Source::new(Vec::new(), rng).with_limits(limits);
        let (option, vec): (Option<u8>, Vec<u8>) = src.draw();
        assert_eq!(option, None);
        assert!(vec.is_empty());
    }
}

#[test]
fn zero_bytes_give_the_simplest_values() {
    let value =
        generate::<(i32, Option<u8>, Vec<u8>, String, bool, char, f64)>(vec![0; 64], Rng::new(0)).value;
    assert_eq!(format!("{value:?}"), "(0, None, [], \"\", false, 'a', 0.0)");
}

#[test]
fn integers_reach_both_ends_of_their_range() {
    let mut seen_i8 = BTreeSet::new();
    let mut seen_u64 = BTreeSet::new();
    for rng in seeds(2000) {
        let mut src = Source::new(Vec::new(), rng);
        seen_i8.insert(src.int_in_range(-3i8..=3));
        let v: u64 = src.draw();
        if v == 0 || v == u64::MAX {
            seen_u64.insert(v);
        }
    }
    assert_eq!(seen_i8.into_iter().collect::<Vec<_>>(), (-3..=3).collect::<Vec<_>>());
    assert_eq!(seen_u64.len(), 2);
}

#[test]
fn floats_and_chars_reach_special_and_non_ascii_values() {
    let (mut nan, mut infinite, mut fractional, mut non_ascii) = (false, false, false, false);
    for rng in seeds(500) {
        let mut src = Source::new(Vec::new(), rng);
        let x: f64 = src.draw();
        let c: char = src.draw();
        nan |= x.is_nan();
        infinite |= x.is_infinite();
        fractional |= x.is_finite() && x.fract() != 0.0 && x.abs() < 100.0;
        non_ascii |= !c.is_ascii();
    }
    assert!(nan && infinite && fractional && non_ascii);
}

#[test]
fn results_and_options_reach_every_case() {
    let (mut ok, mut err, mut some, mut none) = (false, false, false, false);
    for rng in seeds(100) {
        let (r, o): (Result<u8, i8>, Option<()>) = generate(Vec::new(), rng).value;
        ok |= r.is_ok();
        err |= r.is_err();
        some |= o.is_some();
        none |= o.is_none();
    }
    assert!(ok && err && some && none);
}

#[test]
fn the_arb_wrapper_is_one_span_around_its_inner_type() {
    let generated = generate::<Arb<(u32, String)>>(Vec::new(), Rng::new(1));
    let spans = &generated.spans;
    assert_eq!(spans.len(), 2);
    assert_eq!(spans[0].type_name, std::any::type_name::<Arb<(u32, String)>>());
    assert_eq!(spans[1].type_name, std::any::type_name::<(u32, String)>());
    assert_eq!((spans[1].parent, spans[1].depth), (Some(0), 1));
    assert_eq!(spans[1].range(), spans[0].range());
    let again = generate::<Arb<(u32, String)>>(generated.input.as_bytes(), Rng::new(2));
    assert_eq!(generated.value, again.value);
}

#[test]
fn usize_is_drawn_as_eight_bytes_on_every_platform() {
    let generated = generate::<usize>(Vec::new(), Rng::new(4));
    assert_eq!(generated.input.len(), 8);
}
