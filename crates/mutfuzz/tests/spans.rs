//! Spans: nesting, type names, and that span-level edits of the bytes mean what they say.

use mutfuzz::{Rng, Spans, generate};

fn seeds(n: u64) -> impl Iterator<Item = Rng> {
    let mut meta = Rng::new(0x5BA7);
    (0..n).map(move |_| Rng::new(meta.next_u64()))
}

fn assert_well_nested(spans: &Spans, input_len: usize) {
    for (i, span) in spans.iter().enumerate() {
        assert!(span.start <= span.end && span.end <= input_len);
        match span.parent {
            None => assert_eq!(span.depth, 0),
            Some(p) => {
                assert!(p < i, "parent {p} of span {i} comes later");
                let parent = &spans[p];
                assert_eq!(span.depth, parent.depth + 1);
                assert!(parent.start <= span.start && span.end <= parent.end);
            }
        }
    }
    // Siblings do not overlap and come in input order.
    for i in 0..spans.len() {
        let children: Vec<_> = spans.children(i).map(|(_, s)| s).collect();
        for pair in children.windows(2) {
            assert!(pair[0].end <= pair[1].start);
        }
    }
}

#[test]
fn spans_nest_with_correct_parents_depths_and_ranges() {
    type T = (Vec<(u8, Option<Box<i32>>)>, String, [Option<u16>; 2]);
    for rng in seeds(200) {
        let generated = generate::<T>(Vec::new(), rng);
        assert_well_nested(&generated.spans, generated.input.len());
        let root = &generated.spans[0];
        assert_eq!((root.start, root.end), (0, generated.input.len()));
        assert_eq!(root.type_name, std::any::type_name::<T>());
    }
}

#[test]
fn spans_carry_the_rust_type_names_of_the_values() {
    let generated = generate::<(u8, Vec<u16>)>(vec![7, 1, 2, 0, 1, 3, 0, 0], Rng::new(0));
    let names: Vec<(&str, usize, Option<usize>)> =
        generated.spans.iter().map(|s| (s.type_name, s.depth, s.parent)).collect();
    assert_eq!(
        names,
        [
            ("(u8, alloc::vec::Vec<u16>)", 0, None),
            ("u8", 1, Some(0)),
            ("alloc::vec::Vec<u16>", 1, Some(0)),
            ("u16", 2, Some(2)),
            ("u16", 2, Some(2)),
        ]
    );
    assert_eq!(generated.value, (7, vec![2, 3]));
    // The second element's bytes, after its continuation byte.
    assert_eq!(generated.spans[4].range(), 5..7);
}

#[test]
fn replacing_a_span_changes_only_that_sub_value() {
    let original = generate::<(u8, Vec<u16>)>(vec![7, 1, 2, 0, 1, 3, 0, 0], Rng::new(0));
    let mut bytes = original.input.into_bytes();
    let element = original.spans[3].range();
    bytes[element].copy_from_slice(&[0x10, 0x00]);
    let edited = generate::<(u8, Vec<u16>)>(bytes, Rng::new(0));
    assert_eq!(edited.value, (7, vec![16, 3]));
}

#[test]
fn zero_filling_a_collection_span_empties_it() {
    let original = generate::<(u8, Vec<u16>)>(vec![7, 1, 2, 0, 1, 3, 0, 0], Rng::new(0));
    let mut bytes = original.input.into_bytes();
    let list = original.spans[2].range();
    bytes[list].fill(0);
    let edited = generate::<(u8, Vec<u16>)>(bytes, Rng::new(0));
    assert_eq!(edited.value, (7, vec![]));
}

#[test]
fn dropping_an_element_with_its_continuation_byte_removes_just_that_element() {
    let original = generate::<(u8, Vec<u16>)>(vec![7, 1, 2, 0, 1, 3, 0, 0], Rng::new(0));
    let mut bytes = original.input.into_bytes();
    let first = original.spans[3].range();
    bytes.drain(first.start - 1..first.end);
    let edited = generate::<(u8, Vec<u16>)>(bytes, Rng::new(0));
    assert_eq!(edited.value, (7, vec![3]));
}

#[test]
fn splicing_a_span_from_another_input_of_the_same_type_transplants_the_value() {
    type T = (String, Vec<i64>);
    for (a, b) in seeds(50).zip(seeds(51).skip(1)) {
        let donor = generate::<T>(Vec::new(), a);
        let host = generate::<T>(Vec::new(), b);
        // The Vec is the tuple's second child (the String's chars are spans too).
        let vec_span = |spans: &mutfuzz::Spans| spans.children(0).nth(1).unwrap().1.range();
        let (d, h) = (vec_span(&donor.spans), vec_span(&host.spans));
        let mut bytes = host.input.as_bytes()[..h.start].to_vec();
        bytes.extend_from_slice(&donor.input.as_bytes()[d]);
        bytes.extend_from_slice(&host.input.as_bytes()[h.end..]);
        let spliced = generate::<T>(bytes, Rng::new(0));
        assert_eq!(spliced.value.0, host.value.0);
        assert_eq!(spliced.value.1, donor.value.1);
    }
}
