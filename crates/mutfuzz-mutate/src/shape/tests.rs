//! Snapshots of every shape: the schema of a small snippet with all of its mutants
//! enabled and with none, and proof that each keeps its lines and parses.

use super::*;
use crate::config::ConfigFile;
use crate::{Config, Discovery};

/// One snippet per shape (a shape may need a few lines to show each of its forms). Return
/// values are left out except where they are the shape shown (with an error value), to
/// keep the others small.
pub(crate) const SNIPPETS: &[(&str, &str)] = &[
    ("binary", "pub fn f(a: u32, b: u32, c: u32) -> u32 {\n    (a + b) * c\n}\n"),
    ("comparison", "pub fn f(s: &String, t: &str, a: u8, b: u8) -> bool {\n    s == t && a < b\n}\n"),
    ("short_circuit", "pub fn f(a: bool, b: bool, c: bool) -> bool {\n    a && b || c\n}\n"),
    (
        "compound_assign",
        "pub fn f(v: &mut Vec<u32>, i: usize, mut x: u32) -> u32 {\n    v[i] -= 3;\n    x <<= i;\n    x\n}\n",
    ),
    ("unary_delete", "pub fn f(a: bool, b: i32) -> i32 {\n    if !a { -b } else { b }\n}\n"),
    (
        "return_values",
        "pub fn f(x: u8) -> Option<u8> {\n    Some(x)\n}\npub fn g() -> Result<(), String> {\n    Ok(())\n}\n",
    ),
    ("call_delete", "pub fn f(v: &mut Vec<u8>) {\n    v.push(0);\n    v.clear()\n    ;\n}\n"),
    ("int_literal", "pub fn f() -> u64 {\n    let k = 7u64;\n    k\n}\n"),
    ("bool_literal", "pub fn f() -> (bool, bool) {\n    (true, false)\n}\n"),
    ("if_condition", "pub fn f(x: i32) -> i32 {\n    if x > 0 { 1 } else if let 0 = x { 0 } else { 2 }\n}\n"),
    (
        "match_guard_and_arm_delete",
        "pub fn f(x: u8) -> u8 {\n    match x {\n        0 => 10,\n        n if n > 5 => 20,\n        _ => 30,\n    }\n}\n",
    ),
    (
        "range_limit_swap",
        "pub fn f(v: &[u8], n: usize) -> usize {\n    let a = (1..=n).count();\n    let b = (0..n).count();\n    let c = v[..=n].len() + v[..n].len();\n    let d = (..=n).contains(&a);\n    a + b + c + d as usize\n}\n",
    ),
    (
        "break_continue_swap",
        "pub fn f(n: u32) -> u32 {\n    let mut t = 0;\n    'outer: for i in 0..n {\n        if i == 2 {\n            continue;\n        }\n        loop {\n            t += i;\n            break 'outer;\n        }\n    }\n    t\n}\n",
    ),
    (
        "frame_and_tick",
        "pub fn f(n: u32) -> impl Fn(u32) -> u32 {\n    #![allow(unused)]\n    while n > 9 {}\n    let g = |x: u32| { x };\n    let _ = async {};\n    move |x| x + n\n}\n",
    ),
    (
        "body_compiled_once",
        "pub fn f(n: u32) -> u32 {\n    static S: u32 = 1;\n    n + S\n}\npub fn g() -> u32 {\n    thread_local! { static T: u32 = 1; }\n    T.with(|t| *t + 2)\n}\n",
    ),
    (
        "closures_compiled_twice",
        "pub fn f(v: &[u32]) -> u32 {\n    let a = v.iter().map(|x| x + 1).sum::<u32>();\n    let b = |y: u32| { y * 2 };\n    let c = |z: u32| move || z - 1;\n    a + b(3) + c(4)()\n}\n",
    ),
];

fn config(name: &str) -> Config {
    let file = if name == "return_values" {
        ConfigFile { error_values: vec!["String::new()".to_owned()], ..ConfigFile::default() }
    } else {
        ConfigFile { exclude_operators: vec!["fn_return".to_owned()], ..ConfigFile::default() }
    };
    Config::new(file).unwrap()
}

pub(crate) fn discover(name: &str, src: &str) -> Discovery {
    Discovery::from_source("src/lib.rs", src, &config(name)).unwrap()
}

#[test]
fn every_shape_renders_as_its_snapshot() {
    for (name, src) in SNIPPETS {
        let d = discover(name, src);
        assert!(!d.mutants.is_empty(), "{name} has mutants");
        let all = d.render(0, &|_| true).text;
        let none = d.render(0, &|_| false).text;
        let mutants: Vec<String> = d.mutants.iter().map(|m| format!("{}: {}", m.id, m.name())).collect();
        let text = format!(
            "--- source\n{src}--- mutants\n{}\n--- all mutants enabled\n{all}--- no mutant enabled\n{none}",
            mutants.join("\n")
        );
        insta::assert_snapshot!(*name, text);
    }
}

#[test]
fn every_schema_keeps_its_lines_and_parses() {
    for (name, src) in SNIPPETS {
        let d = discover(name, src);
        for (what, enabled) in [("all", true), ("none", false)] {
            let text = d.render(0, &|_| enabled).text;
            assert_eq!(text.lines().count(), src.lines().count(), "{name} ({what}) keeps its lines:\n{text}");
            if let Err(e) = syn::parse_file(&text) {
                panic!("{name} ({what}) does not parse: {e}\n{text}");
            }
        }
        assert!(d.warnings.is_empty(), "{name}: {:?}", d.warnings);
    }
}

#[test]
fn each_mutant_alone_keeps_every_other_site_on_its_original_path() {
    let (name, src) = SNIPPETS[0];
    let d = discover(name, src);
    let one = d.render(0, &|id| id == d.mutants[0].id).text;
    // The first mutant is the outer `*` → `+`; the inner `a + b` keeps the user's code.
    assert!(
        one.contains(
            "match ::mutfuzz_rt::at_probe(__m, 1, 2) { 1 => __l + __r, ::mutfuzz_rt::PROBE => { \
             ::mutfuzz_rt::arith(&__l, &__r, \"*\", &[(1, \"+\")]); __l * __r }, _ => __l * __r }"
        ),
        "{one}"
    );
    assert!(one.contains("((a + b), c)"), "{one}");
}

#[test]
fn shapes_have_the_holes_their_sites_fill() {
    let reps = vec!["-".to_owned()];
    for (shape, holes) in [
        (binary("+", &reps), 2),
        (comparison("<", &reps), 2),
        (short_circuit(true), 2),
        (compound_assign("+=", &reps), 2),
        (unary_delete("!"), 1),
        (return_values(&reps), 0),
        (call_delete(), 1),
        (int_literal("1", &reps), 0),
        (bool_literal(true), 0),
        (forced_bool(&reps, true), 1),
        (forced_bool(&reps, false), 1),
        (match_arm_delete(), 0),
        (range_limit_swap(RangeForm::StartClosed), 2),
        (range_limit_swap(RangeForm::StartHalfOpen), 2),
        (range_limit_swap(RangeForm::Closed), 1),
        (range_limit_swap(RangeForm::IndexClosed), 1),
        (range_limit_swap(RangeForm::HalfOpen), 1),
        (jump_swap("break", "continue", None), 0),
        (frame(), 0),
        (closure_frame(), 1),
        (twice_frame(0..1), 0),
        (twice_close(), 0),
        (twice_closure_frame(0..1), 1),
        (tick(), 0),
    ] {
        assert_eq!(shape.holes(), holes, "{shape:?}");
        assert_eq!(shape.into_pieces().len(), holes + 1);
    }
}
