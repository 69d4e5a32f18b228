//! Tests of the source: replay, extension, decoding of edge bytes, budgets and repeats.

use super::*;

#[test]
fn an_empty_input_is_extended_and_the_extension_replays() {
    let mut src = Source::new(Vec::new(), Rng::new(11));
    let values: Vec<u32> = (0..10).map(|_| src.int_in_range(0..=1000u32)).collect();
    assert_eq!(src.fresh_len(), 20);
    let (input, _) = src.into_input();
    assert_eq!(input.len(), 20);
    let mut again = Source::new(input.into_bytes(), Rng::new(12));
    let replayed: Vec<u32> = (0..10).map(|_| again.int_in_range(0..=1000u32)).collect();
    assert_eq!(values, replayed);
    assert_eq!(again.fresh_len(), 0);
}

#[test]
fn any_bytes_decode_to_an_in_range_value() {
    let mut src = Source::new(vec![0xFF; 64], Rng::new(0));
    for _ in 0..8 {
        let v = src.int_in_range(-3i16..=1000);
        assert!((-3..=1000).contains(&v));
    }
    assert_eq!(src.fresh_len(), 0);
}

#[test]
fn zero_bytes_decode_to_the_value_nearest_zero() {
    let mut src = Source::new(vec![0; 64], Rng::new(0));
    assert_eq!(src.int_in_range(-50i32..=50), 0);
    assert_eq!(src.int_in_range(10u8..=20), 10);
    assert_eq!(src.int_in_range(-20i64..=-10), -10);
    assert!(!src.bool());
    assert_eq!(src.choose(5), 0);
}

#[test]
fn empty_and_single_value_ranges_draw_no_bytes() {
    let mut src = Source::new(Vec::new(), Rng::new(0));
    assert_eq!(src.int_in_range(5u8..5), 5);
    assert_eq!(src.int_in_range(7i32..=7), 7);
    assert_eq!(src.choose(1), 0);
    assert_eq!(src.position(), 0);
}

#[test]
fn a_choice_cut_off_by_the_end_of_the_input_keeps_its_low_bytes() {
    let mut src = Source::new(vec![0x34], Rng::new(0));
    let v = src.int_in_range(0..=u16::MAX);
    assert_eq!(v & 0xFF, 0x34);
    let (input, _) = src.into_input();
    assert_eq!(input.as_bytes()[0], 0x34);
    assert_eq!(input.len(), 2);
}

#[test]
fn unread_replay_bytes_are_dropped_from_the_returned_input() {
    let mut src = Source::new(vec![1, 2, 3, 4], Rng::new(0));
    src.bool();
    let (input, _) = src.into_input();
    assert_eq!(input.as_bytes(), &[1]);
}

#[test]
fn byte_strings_respect_their_length_bounds_and_the_size_budget() {
    let mut rng = Rng::new(4);
    for _ in 0..200 {
        let mut src = Source::new(Vec::new(), Rng::new(rng.next_u64()));
        let bytes = src.bytes(3..=9);
        assert!((3..=9).contains(&bytes.len()));
    }
    let limits = Limits { max_depth: 8, max_len: 10 };
    let mut src = Source::new(vec![0xFF; 400], Rng::new(0)).with_limits(limits);
    let bytes = src.bytes(0..=300);
    assert!(src.position() <= 10, "{} bytes drawn", bytes.len());
}

#[test]
fn an_exhausted_source_picks_only_leaf_variants() {
    let limits = Limits { max_depth: 0, max_len: 1024 };
    let mut rng = Rng::new(8);
    for _ in 0..100 {
        let mut src = Source::new(Vec::new(), Rng::new(rng.next_u64())).with_limits(limits);
        assert!(src.is_exhausted());
        assert!([1, 3].contains(&src.choose_variant(4, &[1, 3])));
    }
    // A stored non-leaf index is mapped onto a leaf.
    let mut src = Source::new(vec![2], Rng::new(0)).with_limits(limits);
    assert_eq!(src.choose_variant(4, &[1, 3]), 1);
    // A stored leaf index keeps its meaning.
    let mut src = Source::new(vec![3], Rng::new(0)).with_limits(limits);
    assert_eq!(src.choose_variant(4, &[1, 3]), 3);
}

#[test]
fn repeat_draws_at_least_min_and_at_most_max_elements() {
    let mut rng = Rng::new(21);
    for _ in 0..200 {
        let mut src = Source::new(Vec::new(), Rng::new(rng.next_u64()));
        let mut repeat = src.repeat(2..5);
        let mut n = 0;
        while repeat.more(&mut src) {
            src.bool();
            n += 1;
        }
        assert!((2..5).contains(&n), "{n} elements");
        assert_eq!(repeat.count(), n);
    }
}

#[test]
fn a_zero_continuation_byte_ends_a_collection() {
    let mut src = Source::new(vec![0], Rng::new(0));
    let mut repeat = src.repeat(..);
    assert!(!repeat.more(&mut src));
    assert_eq!(src.position(), 1);
}

#[test]
fn repeated_rejections_end_a_collection() {
    let mut src = Source::new(Vec::new(), Rng::new(0));
    let mut repeat = src.repeat(100..=200);
    let mut calls = 0;
    while repeat.more(&mut src) {
        calls += 1;
        repeat.reject();
    }
    assert!(calls <= 101);
}

#[test]
fn spans_can_be_switched_off_without_changing_the_value() {
    let mut with = Source::new(Vec::new(), Rng::new(5));
    let a: Vec<(u8, i64)> = with.draw();
    let mut without = Source::new(Vec::new(), Rng::new(5)).with_spans(false);
    let b: Vec<(u8, i64)> = without.draw();
    assert_eq!(a, b);
    assert!(without.into_input().1.is_empty());
    assert!(!with.into_input().1.is_empty());
}
