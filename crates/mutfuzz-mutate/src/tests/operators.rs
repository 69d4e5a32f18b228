//! Per-operator tests: the exact mutants found in small snippets, their schemas compiled
//! and run.

use super::*;

#[test]
fn arithmetic_bitwise_and_shift_swaps() {
    let src = "pub fn f(a: u32, b: u32) -> u32 {\n    (a + b) * (a % b) ^ (a << 2) & b\n}\n";
    assert_eq!(
        names(src),
        [
            "src/lib.rs:2:5: replace f -> u32 with 0",
            "src/lib.rs:2:5: replace f -> u32 with 1",
            "src/lib.rs:2:23: replace ^ with | in f",
            "src/lib.rs:2:23: replace ^ with & in f",
            "src/lib.rs:2:13: replace * with + in f",
            "src/lib.rs:2:13: replace * with / in f",
            "src/lib.rs:2:8: replace + with - in f",
            "src/lib.rs:2:8: replace + with * in f",
            "src/lib.rs:2:18: replace % with / in f",
            "src/lib.rs:2:18: replace % with + in f",
            "src/lib.rs:2:34: replace & with | in f",
            "src/lib.rs:2:34: replace & with ^ in f",
            "src/lib.rs:2:28: replace << with >> in f",
            "src/lib.rs:2:31: replace 2 with 0 in f",
            "src/lib.rs:2:31: replace 2 with 3 in f",
            "src/lib.rs:2:31: replace 2 with 1 in f",
        ]
    );
    assert_schema_compiles(src);
}

#[test]
fn comparisons_borrow_their_operands_and_logical_ops_short_circuit() {
    let src = "pub struct P { pub name: String, pub n: u8 }\npub fn f(p: &P, q: &P) -> bool {\n    p.name == q.name || p.n < q.n && p.n >= 3\n}\n";
    assert_eq!(
        names(src),
        [
            "src/lib.rs:3:5: replace f -> bool with true",
            "src/lib.rs:3:5: replace f -> bool with false",
            "src/lib.rs:3:22: replace || with && in f",
            "src/lib.rs:3:12: replace == with != in f",
            "src/lib.rs:3:35: replace && with || in f",
            "src/lib.rs:3:29: replace < with <= in f",
            "src/lib.rs:3:29: replace < with >= in f",
            "src/lib.rs:3:29: replace < with == in f",
            "src/lib.rs:3:29: replace < with > in f",
            "src/lib.rs:3:42: replace >= with > in f",
            "src/lib.rs:3:42: replace >= with < in f",
            "src/lib.rs:3:45: replace 3 with 0 in f",
            "src/lib.rs:3:45: replace 3 with 4 in f",
            "src/lib.rs:3:45: replace 3 with 2 in f",
        ]
    );
    assert_schema_compiles(src);
}

#[test]
fn unary_deletion_and_if_conditions() {
    let src = "pub fn f(a: bool, b: i32) -> i32 {\n    if !a { -b } else { b }\n}\n";
    assert_eq!(
        names(src),
        [
            "src/lib.rs:2:5: replace f -> i32 with 0",
            "src/lib.rs:2:5: replace f -> i32 with 1",
            "src/lib.rs:2:5: replace f -> i32 with -1",
            "src/lib.rs:2:8: replace if condition !a with true in f",
            "src/lib.rs:2:8: replace if condition !a with false in f",
            "src/lib.rs:2:8: delete ! in f",
            "src/lib.rs:2:13: delete - in f",
        ]
    );
    assert_schema_compiles(src);
}

#[test]
fn compound_assignment_evaluates_the_right_side_first_and_calls_can_be_deleted() {
    let src =
        "pub fn f(mut x: u64, v: &mut Vec<u64>) {\n    x += x * 2;\n    v[0] -= 1;\n    v.push(x);\n}\n";
    assert_eq!(
        names(src),
        [
            "src/lib.rs:2:5: replace f with ()",
            "src/lib.rs:2:7: replace += with -= in f",
            "src/lib.rs:2:7: replace += with *= in f",
            "src/lib.rs:2:12: replace * with + in f",
            "src/lib.rs:2:12: replace * with / in f",
            "src/lib.rs:2:14: replace 2 with 0 in f",
            "src/lib.rs:2:14: replace 2 with 3 in f",
            "src/lib.rs:2:14: replace 2 with 1 in f",
            "src/lib.rs:3:10: replace -= with += in f",
            "src/lib.rs:3:10: replace -= with /= in f",
            "src/lib.rs:3:7: replace 0 with 1 in f",
            "src/lib.rs:3:13: replace 1 with 0 in f",
            "src/lib.rs:3:13: replace 1 with 2 in f",
            "src/lib.rs:4:5: delete v.push(x); in f",
        ]
    );
    assert_schema_compiles(src);
}

#[test]
fn guards_ranges_jumps_and_literals() {
    let src = "pub fn f(v: &[i32]) -> i32 {\n    let mut t = 0;\n    for i in 0..v.len() {\n        match v[i] {\n            0 => continue,\n            n if n > 9 => break,\n            n => t += n,\n        }\n    }\n    let ok = true;\n    if ok { t } else { 0 }\n}\n";
    let all = names(src);
    let has = |n: &str| all.iter().any(|m| m == n);
    assert_eq!(all.len(), 23, "{all:#?}");
    for n in [
        "src/lib.rs:2:17: replace 0 with 1 in f",
        "src/lib.rs:3:15: replace .. with ..= in f",
        "src/lib.rs:5:18: replace continue with break in f",
        "src/lib.rs:6:18: replace match guard n > 9 with true in f",
        "src/lib.rs:6:18: replace match guard n > 9 with false in f",
        "src/lib.rs:6:27: replace break with continue in f",
        "src/lib.rs:7:20: replace += with -= in f",
        "src/lib.rs:10:14: replace true with false in f",
        "src/lib.rs:11:8: replace if condition ok with false in f",
    ] {
        assert!(has(n), "missing {n}: {all:#?}");
    }
    assert_schema_compiles(src);
}

#[test]
fn match_arms_are_deleted_only_beside_a_wildcard() {
    let src = "pub fn f(x: Option<u8>, y: u8) -> &'static str {\n    match x {\n        Some(0) => \"zero\",\n        None => \"none\",\n        _ => \"other\",\n    };\n    match y { 1 => \"one\", _n => \"many\" }\n}\n";
    let all: Vec<String> = names(src).into_iter().filter(|n| n.contains("match arm")).collect();
    assert_eq!(
        all,
        ["src/lib.rs:3:9: delete match arm Some(0) in f", "src/lib.rs:4:9: delete match arm None in f"]
    );
    assert_schema_compiles(src);
}

#[test]
fn range_limits_swap_both_ways_and_without_a_start() {
    let src = "pub fn f(v: &[u8], n: usize) -> usize {\n    v[..n].len() + (1..=n).sum::<usize>()\n}\n";
    let all: Vec<String> = names(src).into_iter().filter(|n| n.contains("..")).collect();
    assert_eq!(
        all,
        ["src/lib.rs:2:7: replace .. with ..= in f", "src/lib.rs:2:22: replace ..= with .. in f"]
    );
    assert_schema_compiles(src);
}

#[test]
fn skipped_regions_are_counted_not_mutated() {
    let src = r#"
const C: u32 = 1 + 2;
static S: [u8; 2] = [0; 2];
pub const fn k() -> u32 { 3 + 4 }
pub unsafe fn u(p: *const u8) -> u8 { *p + 1 }
#[mutants::skip]
pub fn s() -> u32 { 5 + 6 }
#[mutfuzz::skip]
pub fn s2() -> u32 { 5 + 6 }
pub fn m() -> Vec<u8> { let a = [0u8; 4]; vec![1 + 2; a.len()] }
pub fn g() -> usize { std::mem::size_of::<[u8; 3]>() }
#[cfg(test)]
mod tests { #[test] fn t() { assert!(1 + 1 == 2); } }
#[test]
fn t2() { let _ = 1 + 1; }
"#;
    let d = discover(src);
    let names: Vec<String> = d.mutants.iter().map(|m| m.name()).collect();
    // Only the two functions outside any skipped region have mutants: their return values.
    assert_eq!(
        names,
        [
            "src/lib.rs:10:25: replace m -> Vec<u8> with vec![]",
            "src/lib.rs:10:25: replace m -> Vec<u8> with vec![0]",
            "src/lib.rs:10:25: replace m -> Vec<u8> with vec![1]",
            "src/lib.rs:10:34: replace 0u8 with 1u8 in m",
            "src/lib.rs:11:23: replace g -> usize with 0",
            "src/lib.rs:11:23: replace g -> usize with 1"
        ]
    );
    let s = &d.skipped;
    assert_eq!(
        (s.const_context, s.unsafe_code, s.skip_attribute, s.cfg_test, s.test_fn, s.macro_body),
        (4, 1, 2, 1, 1, 1)
    );
    // Render compiles with every skipped region left exactly as it was.
    let text = d.render(0, &|_| true).text;
    assert!(text.contains("const C: u32 = 1 + 2;"));
    assert!(text.contains("mod tests { #[test] fn t() { assert!(1 + 1 == 2); } }"));
}

#[test]
fn config_excludes_functions_and_operators() {
    let file: config::ConfigFile =
        toml::from_str("exclude_functions = ['^skip_me$']\nexclude_operators = ['fn_return', 'int_literal']")
            .unwrap();
    let config = Config::new(file).unwrap();
    let d = Discovery::from_source(
        "src/lib.rs",
        "fn skip_me() -> u8 { 1 + 1 }\nfn keep() -> u8 { 2 * 2 }\n",
        &config,
    )
    .unwrap();
    let names: Vec<String> = d.mutants.iter().map(|m| m.name()).collect();
    assert_eq!(
        names,
        ["src/lib.rs:2:21: replace * with + in keep", "src/lib.rs:2:21: replace * with / in keep"]
    );
    assert_eq!(d.skipped.config, 1);
}

#[test]
fn methods_are_named_by_type_and_trait() {
    let src = "struct A;\nimpl A { fn get(&self) -> bool { true } }\nimpl std::fmt::Display for A { fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { write!(f, \"a\") } }\nmod inner { pub fn h() {} pub fn i() { h() } }\n";
    let names: Vec<String> = discover(src).mutants.iter().map(|m| m.name()).collect();
    assert_eq!(
        names,
        [
            "src/lib.rs:2:34: replace A::get -> bool with false",
            "src/lib.rs:2:34: replace true with false in A::get",
            "src/lib.rs:3:97: replace <impl Display for A>::fmt -> std::fmt::Result with Ok(Default::default())",
            "src/lib.rs:4:40: replace inner::i with ()",
        ]
    );
}

/// Every shape, run: the original and each mutant compute what the mutated source would.
#[test]
fn schema_runs_each_mutant_as_its_own_program() {
    let src = r#"fn calc(a: i64, b: i64) -> i64 {
    let mut s = a - b;
    if a < b && b != 0 { s *= 2; }
    for i in 0..3 { if i == 1 { break; } s += i; }
    s
}
fn main() { println!("{}", calc(3, 5)); }
"#;
    let d = discover(src);
    let schema = d.render(0, &|_| true).text;
    let ids: Vec<u32> = std::iter::once(0).chain(d.mutants.iter().map(|m| m.id)).collect();
    let outputs = compile(&schema, true, &ids);
    let by_name: std::collections::HashMap<String, String> =
        d.mutants.iter().map(|m| m.name()).zip(outputs[1..].iter().cloned()).collect();
    // original: s = -2; 3<5 && 5!=0 → s = -4; i=0 → s = -4; i=1 breaks → -4
    assert_eq!(outputs[0], "-4");
    let expect = [
        ("src/lib.rs:2:5: replace calc -> i64 with 1", "1"),
        ("src/lib.rs:2:19: replace - with + in calc", "16"),
        ("src/lib.rs:3:10: replace < with >= in calc", "-2"),
        ("src/lib.rs:3:14: replace && with || in calc", "-4"),
        ("src/lib.rs:3:28: replace *= with += in calc", "0"),
        ("src/lib.rs:4:33: replace break with continue in calc", "-2"),
        ("src/lib.rs:4:44: replace += with -= in calc", "-4"),
        ("src/lib.rs:4:15: replace .. with ..= in calc", "-4"),
        ("src/lib.rs:4:29: replace 1 with 2 in calc", "-3"),
    ];
    for (name, want) in expect {
        assert_eq!(by_name.get(name).map(String::as_str), Some(want), "{name}: {by_name:#?}");
    }
}

#[test]
fn forced_conditions_are_probed_only_when_evaluating_them_does_nothing_else() {
    let src = r#"pub struct P { pos: usize, toks: Vec<u8> }
impl P {
    pub fn eat(&mut self, t: u8) -> bool {
        let hit = self.toks.get(self.pos) == Some(&t);
        self.pos += usize::from(hit);
        hit
    }
    pub fn f(&mut self, k: Option<u8>, n: usize) -> usize {
        if self.pos >= self.toks.len() && !self.toks.is_empty() { return 0; }
        if matches!(k, Some(b'a'..=b'z') if n > 2) { return 1; }
        if (1..=12).contains(&n) || k.is_none() { return 2; }
        if self.eat(b'x') { return 3; }
        if self.toks[0] == 1 { return 4; }
        if n + 1 > 5 { return 5; }
        match n { m if m as u8 == b'q' => 6, m if self.eat(b'y') => m, _ => 7 }
    }
}
"#;
    let d = assert_schema_compiles(src);
    let probed = |line: usize, operator: Operator| -> Vec<bool> {
        let at = d.mutants.iter().filter(|m| m.span.start.line == line && m.operator == operator);
        at.map(|m| m.probe).collect()
    };
    use Operator::{IfCondition, MatchGuard};
    // Reads of fields and locals, std's predicates, `matches!`, ranges: probed.
    assert_eq!(probed(9, IfCondition), [true, true]);
    assert_eq!(probed(10, IfCondition), [true, true]);
    assert_eq!(probed(11, IfCondition), [true, true]);
    // A call that changes state, indexing and arithmetic (which may panic): the mutant
    // skips what the original does, so a probe comparing values would miss it.
    assert_eq!(probed(12, IfCondition), [false, false]);
    assert_eq!(probed(13, IfCondition), [false, false]);
    assert_eq!(probed(14, IfCondition), [false, false]);
    assert_eq!(probed(15, MatchGuard), [true, true, false, false]);
    let schema = d.render(0, &|_| true).text;
    assert!(schema.contains("match ::mutfuzz_rt::at(__m, "), "an unprobed condition dispatches plainly");
}

#[test]
fn the_crate_root_allowance_follows_inner_attributes_but_not_doc_comments() {
    let src = "//! Docs.\n#![deny(warnings)]\n//! More docs.\npub fn f(a: u8) -> u8 { a + 1 }\n";
    let text = discover(src).render(0, &|_| true).text;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "//! Docs.");
    assert!(lines[1].starts_with("#![deny(warnings)]#![allow("), "{text}");
    assert_eq!(lines[2], "//! More docs.");
    compile(&text, false, &[]);
    let doc_only = discover("//! Docs.\npub fn f(a: u8) -> u8 { a + 1 }\n").render(0, &|_| true).text;
    assert!(doc_only.starts_with("#![allow("), "{doc_only}");
    compile(&doc_only, false, &[]);
}

#[test]
fn closures_and_async_blocks_that_outlive_their_function_compile() {
    let src = "pub fn adder(k: u8) -> impl Fn(u8) -> u8 { move |x| x + k }\npub fn inc() -> impl Fn(u8) -> u8 { |x| x + 1 }\npub fn fut() -> impl std::future::Future<Output = u8> { async { 1 + 2 } }\npub fn nested() -> u8 { fn inner(a: u8) -> u8 { a * 2 } inner(3) }\n";
    let d = assert_schema_compiles(src);
    assert!(d.mutants.iter().any(|m| m.name() == "src/lib.rs:2:43: replace + with - in inc"));
    assert!(d.mutants.iter().any(|m| m.name() == "src/lib.rs:4:51: replace * with + in inner"));
}

/// Every shape's snippet compiles with all its mutants enabled.
#[test]
fn every_shape_snippet_compiles() {
    for (name, src) in crate::shape::tests::SNIPPETS {
        let d = crate::shape::tests::discover(name, src);
        compile(&d.render(0, &|_| true).text, false, &[]);
    }
}

/// `..` ↔ `..=` never overflows: an inclusive range ending at the type's minimum becomes
/// empty, and an end at the type's maximum saturates; `char` ranges swap too.
#[test]
fn range_limit_swaps_run_without_overflow() {
    let src = r#"fn main() {
    let z = 0u32;
    let a = (0..=z).count();
    let v = [1u8, 2, 3];
    let b = v[..=0].len();
    let m = u8::MAX;
    let c = (250..m).count();
    let d = (250u8..254).count();
    let e = ('a'..='c').count();
    let f = v[1..=1].len();
    println!("{a} {b} {c} {d} {e} {f}");
}
"#;
    let config = Config::new(config::ConfigFile {
        exclude_operators: vec!["fn_return".into(), "int_literal".into(), "call_delete".into()],
        ..Default::default()
    })
    .unwrap();
    let d = Discovery::from_source("src/main.rs", src, &config).unwrap();
    let names: Vec<String> = d.mutants.iter().map(|m| m.name()).collect();
    assert_eq!(
        names,
        [
            "src/main.rs:3:15: replace ..= with .. in main",
            "src/main.rs:5:15: replace ..= with .. in main",
            "src/main.rs:7:17: replace .. with ..= in main",
            "src/main.rs:8:19: replace .. with ..= in main",
            "src/main.rs:9:17: replace ..= with .. in main",
            "src/main.rs:10:16: replace ..= with .. in main",
        ]
    );
    let outputs = compile(&d.render(0, &|_| true).text, true, &[0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(
        outputs,
        [
            "1 1 5 4 3 1",
            // `0..=0` → `0..0`: empty, not `0..=(0 - 1)`.
            "0 1 5 4 3 1",
            // `v[..=0]` is `v[0..=0]`, which becomes empty.
            "1 0 5 4 3 1",
            // `250..MAX` cannot become `250..=MAX` in a `Range`: it saturates.
            "1 1 5 4 3 1",
            "1 1 5 5 3 1",
            "1 1 5 4 2 1",
            "1 1 5 4 3 0",
        ]
    );
}
