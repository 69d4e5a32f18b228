//! Shrinking toy properties: each test states the shortlex-smallest input that keeps the
//! property and checks the shrinker reaches exactly it from a large random input.

use super::*;
use crate::Gen;

fn value<T: Gen>(bytes: &[u8]) -> T {
    Source::new(bytes.to_vec(), Rng::new(0)).draw()
}

/// A fresh input of a `T` from `seed`, grown until `keep` holds on it.
fn fresh<T: Gen>(keep: impl Fn(&T) -> bool) -> Vec<u8> {
    for seed in 0.. {
        let mut src = Source::new(Vec::new(), Rng::new(seed));
        let v: T = src.draw();
        if keep(&v) {
            return src.into_input().0.into_bytes();
        }
    }
    unreachable!()
}

fn run<T: Gen>(input: &[u8], keep: impl Fn(&T) -> bool) -> Shrunk {
    let mut property = |b: &[u8]| keep(&value::<T>(b));
    shrink::<T>(input, Limits::default(), ShrinkBudget::default(), &mut property)
}

#[test]
fn a_vector_shrinks_to_the_smallest_one_that_keeps_its_kills() {
    // "Mutant 1" is killed by more than two elements, "mutant 2" by an element of 10 or more.
    let kills = |v: &Vec<u8>| v.len() > 2 && v.iter().any(|&b| b >= 10);
    let input = fresh::<Vec<u8>>(|v| v.len() > 8 && kills(v));
    let shrunk = run::<Vec<u8>>(&input, kills);
    // Three elements, each preceded by its continuation byte, and the closing byte.
    assert_eq!(shrunk.input.as_bytes(), [1, 0, 1, 0, 1, 10, 0]);
    assert_eq!(value::<Vec<u8>>(shrunk.input.as_bytes()), [0, 0, 10]);
    assert!(!shrunk.exhausted);
}

#[test]
fn a_string_shrinks_to_its_smallest_killing_string() {
    let kills = |s: &String| s.matches('z').count() >= 2;
    let input = fresh::<String>(|s| s.chars().count() > 5 && kills(s));
    let input = [input.as_slice(), &[1, 100, 0, 0, 0, 1, 100, 0, 0, 0, 0]].concat();
    let shrunk = run::<String>(&input, kills);
    assert_eq!(value::<String>(shrunk.input.as_bytes()), "zz");
    // 'z' is the char choice 100 (zero bytes are 'a').
    assert_eq!(shrunk.input.as_bytes(), [1, 100, 0, 0, 0, 1, 100, 0, 0, 0, 0]);
}

#[test]
fn a_char_shrinks_to_the_one_a_test_reads_most_simply() {
    // Not a lowercase letter: '0', where the smallest choice would be '{' or a control.
    let kills = |s: &String| s.chars().any(|c| !c.is_ascii_lowercase());
    let input = fresh::<String>(|s| s.chars().count() > 3 && kills(s));
    assert_eq!(value::<String>(run::<String>(&input, kills).input.as_bytes()), "0");
    let not_alphanumeric = |s: &String| s.chars().any(|c| !c.is_alphanumeric());
    let input = fresh::<String>(|s| s.chars().count() > 3 && not_alphanumeric(s));
    assert_eq!(value::<String>(run::<String>(&input, not_alphanumeric).input.as_bytes()), " ");
}

#[test]
fn a_char_two_strings_share_lowers_in_both() {
    // Killed where the strings share a char that is not in "ab" (an edit distance's
    // swap, found with a char far from ASCII).
    let kills = |(a, b): &(String, String)| {
        a.chars().count() == 1 && a == b && a.chars().all(|c| c != 'a' && c != 'b')
    };
    // One char each (continuation byte 1, four bytes, end byte 0): a choice of the class
    // of any scalar value (low bits 3), U+825A1.
    let one = [1, 0x87, 0x76, 0x20, 0, 0];
    let input = [one, one].concat();
    assert!(kills(&value::<(String, String)>(&input)));
    let (a, _) = value::<(String, String)>(&input);
    assert!(!a.is_ascii(), "{a:?}");
    let shrunk = run::<(String, String)>(&input, kills);
    let (a, b) = value::<(String, String)>(shrunk.input.as_bytes());
    // Lowered together (one at a time, a change breaks `a == b`) to the simplest char
    // that is neither 'a' nor 'b', in its own encoding.
    assert_eq!((a.as_str(), b.as_str()), ("c", "c"));
    assert_eq!(shrunk.input.as_bytes(), [1, 8, 0, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
}

#[derive(Debug, crate::Gen)]
enum Shape {
    Dot,
    Circle(u32),
    Poly(Vec<(i16, i16)>),
}

#[test]
fn integer_leaves_shrink_to_the_smallest_bytes_that_keep_the_kill() {
    // Killed by a circle of radius at least 1000, or a polygon with a vertex at x < -300.
    let kills = |s: &Shape| match s {
        Shape::Dot => false,
        Shape::Circle(r) => *r >= 1000,
        Shape::Poly(points) => points.iter().any(|&(x, _)| x < -300),
    };
    // From a polygon, the shrinker switches to the earlier variant.
    let poly = fresh::<Shape>(|s| matches!(s, Shape::Poly(p) if p.len() > 4) && kills(s));
    let shrunk = run::<Shape>(&poly, kills);
    // The order key reads the little-endian choice most significant byte first: 1000
    // (e8 03 00 00) is the boundary, not 1024 (00 04 00 00), whose raw bytes sort first.
    assert_eq!(shrunk.input.as_bytes(), [1, 232, 3, 0, 0]);
    assert_eq!(format!("{:?}", value::<Shape>(shrunk.input.as_bytes())), "Circle(1000)");
    // Polygons only: one vertex, x the value nearest zero below -300 (index 602, 5a 02).
    let only_polygons = |s: &Shape| matches!(s, Shape::Poly(_)) && kills(s);
    let shrunk = run::<Shape>(&poly, only_polygons);
    assert_eq!(format!("{:?}", value::<Shape>(shrunk.input.as_bytes())), "Poly([(-301, 0)])");
    assert_eq!(shrunk.input.as_bytes(), [2, 1, 0x5a, 2, 0, 0, 0]);
}

#[test]
fn the_budget_bounds_the_runs_and_the_result_always_has_the_property() {
    let kills = |v: &Vec<u8>| v.iter().filter(|&&b| b > 100).count() >= 3;
    let input = fresh::<Vec<u8>>(|v| v.len() > 20 && kills(v));
    let mut runs = 0;
    let mut property = |b: &[u8]| {
        runs += 1;
        kills(&value::<Vec<u8>>(b))
    };
    let budget = ShrinkBudget { max_runs: Some(5), time: None };
    let shrunk = shrink::<Vec<u8>>(&input, Limits::default(), budget, &mut property);
    assert_eq!((shrunk.runs, runs, shrunk.exhausted), (5, 5, true));
    assert!(kills(&value::<Vec<u8>>(shrunk.input.as_bytes())));
    assert!(shrunk.input.len() < input.len());
}

#[test]
fn an_input_that_cannot_shrink_is_returned_as_it_replays() {
    // Only the empty vector keeps it: nothing is smaller.
    let shrunk = run::<Vec<u8>>(&[0], |v: &Vec<u8>| v.is_empty());
    assert_eq!((shrunk.input.as_bytes(), shrunk.runs, shrunk.shrinks), (&[0u8][..], 0, 0));
    // A short input is extended as a run extends it, then shrunk from there.
    let shrunk = run::<(u8, u8)>(&[7], |&(a, _): &(u8, u8)| a == 7);
    assert_eq!(shrunk.input.as_bytes(), [7, 0]);
}

#[test]
fn the_order_key_reads_integers_most_significant_byte_first_and_chars_by_rank() {
    // A char choice 1 decodes to 'a' (rank 0), as 0 does: its key is 'a''s, with the bit
    // of a choice that is not the char's own encoding.
    let mut src = Source::new(vec![0xe8, 3, 7, 1, 0, 0, 0], Rng::new(0));
    let _: (u16, u8, char) = src.draw();
    let (input, spans) = src.into_input();
    assert_eq!(order_key(input.as_bytes(), &spans), [3, 0xe8, 7, 0, 0, 0, 1]);
    // '\0' (choice 31 << 2) ranks after 'b' and '0' although its choice is smaller.
    let key = |c: char| {
        let mut src = Source::new(encode_char(c).to_vec(), Rng::new(0));
        let _: char = src.draw();
        let (input, spans) = src.into_input();
        order_key(input.as_bytes(), &spans)
    };
    assert!(key('b') < key('0') && key('0') < key('A') && key('A') < key(' ') && key(' ') < key('\0'));
    assert!(key('\0') < key('é'));
}

#[test]
fn char_ranks_are_a_bijection_onto_the_chars() {
    for c in (0..0x3000).chain(0xD000..0xF000).chain(0x10_FF00..0x11_0000).filter_map(char::from_u32) {
        assert_eq!(char_of_rank(char_rank(c)), c, "{c:?}");
    }
    assert_eq!((char_rank('a'), char_rank('0'), char_rank('\u{E000}')), (0, 26, 0xD800));
}

#[test]
fn shortlex_orders_by_length_then_bytes() {
    assert!(shortlex_less(&[9], &[0, 0]));
    assert!(shortlex_less(&[0, 1], &[0, 2]));
    assert!(!shortlex_less(&[1, 0], &[1, 0]));
    assert!(!shortlex_less(&[0, 0, 0], &[255]));
}

#[test]
fn element_and_char_ranges_include_the_continuation_byte_of_optional_ones() {
    // A vector of `u8` with two elements: [1, 5, 1, 6, 0].
    let mut src = Source::new(vec![1, 5, 1, 6, 0], Rng::new(0));
    let _: Vec<u8> = src.draw();
    let spans = src.into_input().1;
    let children: Vec<usize> = spans.children(0).map(|(i, _)| i).collect();
    let ranges: Vec<_> = children.iter().map(|&c| element_range(&spans, 0, c)).collect();
    assert_eq!(ranges, [Some(0..2), Some(2..4)]);
    assert_eq!(char_ranges(&(0..11), 0, 5), [0..5, 5..10]);
    assert_eq!(char_ranges(&(0..9), 1, 2), vec![Range { start: 4, end: 9 }]);
}

#[test]
fn a_float_shrinks_to_a_number_a_person_writes() {
    // Killed by any positive float: a raw bit pattern shrinks to a special value, not to
    // the subnormal whose bits are smallest.
    let kills = |x: &f64| *x > 0.0 && x.is_finite();
    let input = fresh::<f64>(|x| kills(x) && x.fract() != 0.0 && *x > 1e6);
    assert_eq!(value::<f64>(&run::<f64>(&input, kills).input.into_bytes()), 0.5);
    let kills = |x: &f64| *x > 2.0 && x.is_finite() && x.fract() != 0.0;
    let input = fresh::<f64>(|x| kills(x) && *x > 1e6);
    assert_eq!(value::<f64>(&run::<f64>(&input, kills).input.into_bytes()), 2.5);
}
