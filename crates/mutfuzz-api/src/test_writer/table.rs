//! Tests of one function that differ only in their literals, merged into one
//! table-driven test: a reviewer reads one loop over a list of cases, not a thousand
//! one-line tests (unicode-normalization's quick-check tables, libm's functions).

use std::collections::BTreeMap;

use quote::ToTokens;
use syn::punctuated::Punctuated;

use super::{TestFn, push_kills_and};

/// Tests of one shape merged, from this many on.
const FEWEST: usize = 3;

/// A table's names of a call's arguments, where it has more than one.
const ARG_NAMES: [&str; 6] = ["a", "b", "c", "d", "e", "f"];

/// `tests` with each group of at least three tests that assert one call of the same
/// function on literals (`assert_eq!(k::f("a", 2), Some(1));`, `assert!(!k::g('x'));`)
/// merged into one test looping over the cases, in the place of the group's first, and
/// the name each merged test has now; `None` where no group is that large.
pub fn tabulated(tests: &[TestFn]) -> Option<(Vec<TestFn>, BTreeMap<String, String>)> {
    let cases: Vec<Option<Case>> = tests.iter().map(|t| case(&t.text)).collect();
    let mut groups: BTreeMap<(String, usize), Vec<usize>> = BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        if let Some(c) = c {
            groups.entry((c.callee.clone(), c.args.len())).or_default().push(i);
        }
    }
    groups.retain(|_, members| members.len() >= FEWEST);
    if groups.is_empty() {
        return None;
    }
    let merged_into: BTreeMap<usize, &Vec<usize>> = groups.values().map(|m| (m[0], m)).collect();
    let in_group: Vec<usize> = groups.values().flatten().copied().collect();
    let mut taken: Vec<String> = tests
        .iter()
        .enumerate()
        .filter(|(i, _)| !in_group.contains(i))
        .map(|(_, t)| t.name.clone())
        .collect();
    let mut out = Vec::new();
    let mut renamed = BTreeMap::new();
    for (i, t) in tests.iter().enumerate() {
        match merged_into.get(&i) {
            Some(members) => {
                let group: Vec<(&TestFn, &Case)> =
                    members.iter().map(|&m| (&tests[m], cases[m].as_ref().expect("a case"))).collect();
                let merged = table(&group, &mut taken);
                renamed.extend(group.iter().map(|(t, _)| (t.name.clone(), merged.name.clone())));
                out.push(merged);
            }
            None if in_group.contains(&i) => {}
            None => out.push(t.clone()),
        }
    }
    Some((out, renamed))
}

/// One test's call and expected value, as source.
struct Case {
    callee: String,
    args: Vec<String>,
    expected: String,
}

/// The case a test is, if it is one plain `#[test]` asserting one call on literals.
fn case(text: &str) -> Option<Case> {
    let code: String = text.lines().filter(|l| !l.starts_with("//")).collect::<Vec<_>>().join("\n");
    let item: syn::ItemFn = syn::parse_str(&code).ok()?;
    let [attr] = item.attrs.as_slice() else { return None };
    if !attr.path().is_ident("test") {
        return None;
    }
    let [syn::Stmt::Macro(m)] = item.block.stmts.as_slice() else { return None };
    let args = m.mac.parse_body_with(Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated).ok()?;
    let args: Vec<&syn::Expr> = args.iter().collect();
    let (call, expected) = match (m.mac.path.get_ident()?.to_string().as_str(), args.as_slice()) {
        ("assert_eq", [call, expected]) if literal(expected) => {
            (*call, expected.to_token_stream().to_string())
        }
        ("assert", [syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Not(_), expr, .. })]) => {
            (&**expr, "false".to_owned())
        }
        ("assert", [call]) => (*call, "true".to_owned()),
        _ => return None,
    };
    let syn::Expr::Call(call) = call else { return None };
    let syn::Expr::Path(callee) = &*call.func else { return None };
    if !call.args.iter().all(literal) || call.args.is_empty() || call.args.len() > ARG_NAMES.len() {
        return None;
    }
    Some(Case {
        callee: callee.to_token_stream().to_string().replace(' ', ""),
        args: call.args.iter().map(|a| a.to_token_stream().to_string()).collect(),
        expected,
    })
}

/// A value every case writes the same way, so that the cases make one array: a number,
/// a `bool`, a `char` or a `&str` literal (not a byte string: its arrays differ in
/// length), a negative number, a path (`u64::MAX`, `None`), a text's `chars()`, or `Some`,
/// `Ok` or `Err` of one.
fn literal(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Lit(l) => !matches!(l.lit, syn::Lit::ByteStr(_) | syn::Lit::CStr(_)),
        syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) => literal(expr),
        syn::Expr::Path(_) => true,
        // A text's chars or bytes, or it owned: of one type for every case.
        syn::Expr::MethodCall(m) => {
            m.args.is_empty()
                && m.turbofish.is_none()
                && ["chars", "bytes", "to_owned", "to_string"].iter().any(|n| m.method == n)
                && matches!(&*m.receiver, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(_), .. }))
        }
        syn::Expr::Call(c) => {
            matches!(&*c.func, syn::Expr::Path(p) if ["Some", "Ok", "Err"].iter().any(|n| p.path.is_ident(n)))
                && c.args.len() == 1
                && c.args.iter().all(literal)
        }
        _ => false,
    }
}

/// The merged test of `group`: its comment the kills of all, its name the first's base
/// (with `_cases`, then a number, where a test or table has that name), now `taken`.
fn table(group: &[(&TestFn, &Case)], taken: &mut Vec<String>) -> TestFn {
    let (first, case) = group[0];
    let names: Vec<&str> = match case.args.len() {
        1 => vec!["input"],
        n => ARG_NAMES[..n].to_vec(),
    };
    // Two functions of one name in two modules make two tables: the second is numbered.
    let mut name = first.base.clone();
    let mut n = 2;
    while taken.contains(&name) {
        name = format!("{}_cases{}", first.base, if n == 2 { String::new() } else { n.to_string() });
        n += 1;
    }
    taken.push(name.clone());
    let pattern = format!("({}, expected)", names.join(", "));
    let mut kills: Vec<String> = Vec::new();
    let mut more = 0;
    for (t, _) in group {
        for kill in kill_lines(&t.text) {
            match kill.split_once(" more (").and_then(|(n, _)| n.parse::<usize>().ok()) {
                Some(n) => more += n,
                None if !kills.contains(&kill) => kills.push(kill),
                None => {}
            }
        }
    }
    let mut text = String::new();
    push_kills_and(&mut text, &kills, more);
    text.push_str(&format!("#[test]\nfn {name}() {{\n    for {pattern} in [\n"));
    for (_, c) in group {
        text.push_str(&format!("        ({}, {}),\n", c.args.join(", "), c.expected));
    }
    text.push_str(&format!(
        "    ] {{\n        assert_eq!({}({}), expected);\n    }}\n}}\n",
        case.callee,
        names.join(", ")
    ));
    TestFn {
        name: name.clone(),
        text,
        base: name,
        harness: group.iter().any(|(t, _)| t.harness),
        uses: group.iter().flat_map(|(t, _)| t.uses.clone()).collect(),
        args_name: None,
        lean: None,
    }
}

/// The mutants a test's comment names, one per entry (a wrapped line joined).
fn kill_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        if let Some(kill) = line.strip_prefix("// Kills ") {
            out.push(kill.to_owned());
        } else if let Some(rest) = line.strip_prefix("//   ")
            && let Some(last) = out.last_mut()
        {
            last.push(' ');
            last.push_str(rest.trim_start());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(name: &str, body: &str, kills: &[&str]) -> TestFn {
        let mut text = String::new();
        push_kills_and(&mut text, kills, 0);
        text.push_str(&format!("#[test]\nfn {name}() {{\n    {body}\n}}\n"));
        TestFn {
            name: name.into(),
            text,
            base: "is_nfc".into(),
            harness: false,
            uses: Vec::new(),
            args_name: None,
            lean: None,
        }
    }

    #[test]
    fn tests_of_one_call_on_literals_become_one_table() {
        let tests = [
            test("is_nfc", "assert!(k::is_nfc(\"a\"));", &["src/a.rs:1:1: replace x"]),
            test("is_nfc_2", "assert!(!k::is_nfc(\"\\u{301}\"));", &["src/a.rs:2:1: replace y"]),
            test("other", "assert_eq!(k::len(\"a\"), 1);", &[]),
            test("is_nfc_3", "assert_eq!(k::is_nfc(\"b\"), true);", &["src/a.rs:1:1: replace x"]),
            // Not a literal: stays a test of its own.
            test("is_nfc_4", "assert!(k::is_nfc(&s()));", &[]),
        ];
        let (merged, renamed) = tabulated(&tests).expect("one group of three");
        assert_eq!(renamed["is_nfc_3"], "is_nfc");
        let names: Vec<&str> = merged.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["is_nfc", "other", "is_nfc_4"]);
        assert_eq!(
            merged[0].text,
            "// Kills src/a.rs:1:1: replace x\n// Kills src/a.rs:2:1: replace y\n#[test]\nfn is_nfc() {\n    \
             for (input, expected) in [\n        (\"a\", true),\n        (\"\\u{301}\", false),\n        \
             (\"b\", true),\n    ] {\n        assert_eq!(k::is_nfc(input), expected);\n    }\n}\n"
        );
        // Two functions of one name in two modules make two tables, named apart.
        let in_module = |m: &str, i: u8| TestFn {
            base: "f".into(),
            ..test(&format!("f_{m}{i}"), &format!("assert!(k::{m}::f({i}));"), &[])
        };
        let both: Vec<TestFn> =
            (0..3).map(|i| in_module("a", i)).chain((0..3).map(|i| in_module("b", i))).collect();
        let names: Vec<String> = tabulated(&both).unwrap().0.into_iter().map(|t| t.name).collect();
        assert_eq!(names, ["f", "f_cases"]);
        // Two of a shape stay as they are.
        assert_eq!(tabulated(&tests[..2]), None);
    }

    #[test]
    fn byte_strings_and_attributes_keep_a_test_apart() {
        let gated = TestFn {
            text: "#[cfg(debug_assertions)]\n#[test]\nfn f() {\n    assert!(k::f(1));\n}\n".into(),
            ..test("f", "", &[])
        };
        assert!(case(&gated.text).is_none());
        assert!(case("#[test]\nfn f() {\n    assert_eq!(k::f(b\"ab\"), 1);\n}\n").is_none());
        // More arguments than a table names.
        assert!(case("#[test]\nfn f() {\n    assert!(k::f(1, 2, 3, 4, 5, 6, 7));\n}\n").is_none());
        let c = case("#[test]\nfn f() {\n    assert_eq!(k::f(-1, u64::MAX), Some(Err(2)));\n}\n").unwrap();
        assert_eq!((c.callee.as_str(), c.args.len()), ("k::f", 2));
        let c = case("#[test]\nfn f() {\n    assert_eq!(k::f(\"ι\".chars()), k::Is::No);\n}\n").unwrap();
        assert_eq!((c.args[0].as_str(), c.expected.as_str()), ("\"ι\" . chars ()", "k :: Is :: No"));
    }
}
