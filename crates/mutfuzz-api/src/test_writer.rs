//! A kept input of a generated target written as a `#[test]` a person would commit: the
//! input as Rust source (literals, constructor calls, the method sequence), the call,
//! and an assertion on the recorded result — by value where the result is a plain value,
//! else on its `Debug` text — or `#[should_panic(expected = …)]`. A kept input of a
//! hand-written target is written by [`hand`], and the file includes the harness then.

pub mod hand;
mod table;

pub use table::tabulated;

use std::collections::{BTreeMap, BTreeSet};

use crate::names::snake;
use crate::plan::{Adapter, Arg, Buildable, Call, CtorKind, INTEGERS, Output, PRIMITIVES, Plan, ValueEnum};
use crate::render::{Generated, TargetKind, collected, method_variants, replace_ident};
use crate::scan::Function;
use crate::ty::{Bound, Ty};

/// A generated value, as the harness reports it (see `mutfuzz::Reflect`).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer: its digits (with sign) and type name.
    Int(String, String),
    /// A float and its type name.
    Float(f64, String),
    Bool(bool),
    Char(char),
    Str(String),
    /// `Vec`, `VecDeque`, sets: the elements.
    Seq(Vec<Value>),
    /// Maps: the entries.
    Map(Vec<(Value, Value)>),
    Tuple(Vec<Value>),
    Array(Vec<Value>),
    Option(Option<Box<Value>>),
    Result(Result<Box<Value>, Box<Value>>),
    /// A variant of a generated enum (`MakeX`, `XCall`): its name and fields in order.
    Variant(String, Vec<Value>),
    Unit,
    /// Anything else, as `Debug` text: not written as source.
    Opaque(String),
}

/// One kept input to write.
pub struct Kept<'a> {
    pub target: &'a str,
    pub value: &'a Value,
    /// How the original ended: the output's `Debug` text, or `panic: <message>`.
    pub ending: &'a str,
    /// One line per mutant it kills, for the comment above it.
    pub kills: &'a [String],
}

/// One written test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestFn {
    pub name: String,
    pub text: String,
    /// The name before a number made it unique (`triple` of `triple_3`).
    pub base: String,
    /// It calls a target of the harness the file includes (a hand-written target).
    pub harness: bool,
    /// The paths it names through a `use` line of the file (`harness::Order`).
    pub uses: Vec<String>,
    /// Its arguments as a name's end, where they are short literals (`2_9` of
    /// `checked_pow(2, 9)`): what tells apart tests of one function better than a number.
    pub args_name: Option<String>,
    /// The same test without the assertions on a call sequence's last state (its
    /// `Debug` and `Display`), which the check keeps instead where it catches as much.
    pub lean: Option<String>,
}

impl TestFn {
    /// This test in its lean form, under its own name.
    pub fn leaner(mut self) -> TestFn {
        if let Some(text) = self.lean.take() {
            self.text = text;
        }
        self
    }

    /// This test with its comment naming `kills` instead: the mutants the check saw it
    /// catch, which may differ from those its input killed while fuzzing (another test
    /// of the file may fail first on one of those).
    pub fn with_kills(mut self, kills: &[String]) -> TestFn {
        fn rewrite(text: &str, kills: &[String]) -> String {
            let mut out = String::new();
            push_kills(&mut out, kills);
            let comment = |l: &&str| l.starts_with("// Kills ") || l.starts_with("//    ");
            for line in text.lines().skip_while(comment) {
                out.push_str(line);
                out.push('\n');
            }
            out
        }
        self.text = rewrite(&self.text, kills);
        self.lean = self.lean.as_deref().map(|lean| rewrite(lean, kills));
        self
    }
}

/// Names the tests of one base name again, in order, so that tests dropped after they
/// were written leave no gaps: one alone is named for its base (`triple`); of several,
/// each whose arguments no other of them shares is named for them (`triple_2`,
/// `triple_minus_1`), and the rest are numbered (`triple`, `triple_2`, …).
pub fn renumber<'a>(tests: impl IntoIterator<Item = &'a mut TestFn>) {
    let mut tests: Vec<&mut TestFn> = tests.into_iter().collect();
    let mut groups: std::collections::BTreeMap<&str, Vec<Option<&str>>> = Default::default();
    for t in &tests {
        groups.entry(t.base.as_str()).or_default().push(t.args_name.as_deref());
    }
    let by_args: BTreeSet<(String, String)> = groups
        .iter()
        .filter(|(_, names)| names.len() > 1)
        .flat_map(|(base, names)| {
            names
                .iter()
                .flatten()
                .filter(|a| names.iter().flatten().filter(|b| b == a).count() == 1)
                .map(|a| ((*base).to_owned(), (*a).to_owned()))
        })
        .collect();
    let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
    let mut taken = BTreeSet::new();
    for t in &mut tests {
        let by_args = t.args_name.as_deref().filter(|a| by_args.contains(&(t.base.clone(), (*a).to_owned())));
        let mut name =
            by_args.map(|a| format!("{}_{a}", t.base)).filter(|n| !taken.contains(n)).unwrap_or_default();
        let n = seen.entry(t.base.clone()).or_insert(0);
        while name.is_empty() || !taken.insert(name.clone()) {
            *n += 1;
            name = if *n == 1 { t.base.clone() } else { format!("{}_{n}", t.base) };
        }
        if name != t.name {
            let (from, to) = (format!("fn {}()", t.name), format!("fn {name}()"));
            t.text = t.text.replacen(&from, &to, 1);
            t.lean = t.lean.as_deref().map(|lean| lean.replacen(&from, &to, 1));
            t.name = name;
        }
    }
}

/// `args` as the end of a test's name, where each is a short literal: `2_9`,
/// `minus_1_true`, `empty`, `a`; `None` where any is something else.
fn args_name(args: &[&Value]) -> Option<String> {
    fn one(v: &Value) -> Option<String> {
        Some(match v {
            // A long number (`u64::MAX` in the body) says nothing in a name.
            Value::Int(digits, _) if digits.len() > 6 => return None,
            Value::Int(digits, _) => match digits.strip_prefix('-') {
                Some(d) => format!("minus_{d}"),
                None => digits.clone(),
            },
            Value::Bool(b) => b.to_string(),
            Value::Char(c) if c.is_ascii_alphanumeric() => c.to_ascii_lowercase().to_string(),
            Value::Str(s) if s.is_empty() => "empty".to_owned(),
            Value::Str(s) if s.len() <= 12 && s.bytes().all(|b| b.is_ascii_alphanumeric()) => {
                s.to_lowercase()
            }
            Value::Seq(items) | Value::Array(items) if items.is_empty() => "empty".to_owned(),
            Value::Option(None) => "none".to_owned(),
            Value::Option(Some(v)) => one(v)?,
            _ => return None,
        })
    }
    if args.is_empty() || args.len() > 3 {
        return None;
    }
    let name = args.iter().map(|a| one(a)).collect::<Option<Vec<_>>>()?.join("_");
    (name.len() <= 20).then_some(name)
}

/// Writes `kept` as a test; an error says why it cannot be written.
pub fn write(
    plan: &Plan,
    module: &Generated,
    kept: &Kept<'_>,
    taken: &mut BTreeSet<String>,
) -> Result<TestFn, String> {
    let kind =
        module.kind_of(kept.target).ok_or_else(|| format!("`{}` is not a generated target", kept.target))?;
    let panic = kept.ending.strip_prefix("panic: ");
    let w =
        Writer { plan, typed_ints: std::cell::Cell::new(false), bytes_by_ref: std::cell::Cell::new(false) };
    // A rejected input: in a plain test a constructor's `.unwrap()` panics, with its
    // error, where the harness rejected the input.
    if panic == Some(mutfuzz_contract::DISCARD_MESSAGE) {
        let TargetKind::Make(t) = kind else {
            return Err(
                "the original rejects this input: which of its constructors failed is not known".into()
            );
        };
        let ty = &plan.types[t];
        let body = vec![format!("assert!({}.is_err());", w.failing_make(ty, kept.value)?)];
        return Ok(finish(format!("make_{}", snake(&ty.name)), body, kept, None, taken));
    }
    let (mut by_args, mut lean_body) = (None, None);
    let (base, body) = match kind {
        TargetKind::Call(i) => {
            let call = &plan.calls[i];
            let mut args = params(kept.value, call.args.len() + usize::from(!call.steps.is_empty()))?;
            let steps = if call.steps.is_empty() { Vec::new() } else { steps_of(call, args.pop())? };
            let mut name = match (&call.function.extension, w.imported(&call.function)) {
                // `big_endian_read_u16` of `BigEndian::read_u16`.
                (_, Some((path, _))) => test_name(&path),
                (Some(_), None) => call.function.name.clone(),
                (None, None) => test_name(&call.function.path),
            };
            // A finished builder's test is named for its calls: `encode_with_check_into_string`.
            let mut named = Vec::new();
            for (step, _) in &steps {
                let step = step.function.name.trim_start_matches("r#");
                if named.len() < 2 && !named.contains(&step) {
                    named.push(step);
                    name = format!("{name}_{step}");
                }
            }
            if let Some(a) = &call.adapter {
                name = format!("{name}_{}", a.method());
            }
            if steps.is_empty() {
                by_args = args_name(&args);
            }
            let body = w.single(call, &args, &steps, kept.ending, panic)?;
            if call.output == Output::Shown {
                lean_body = display_only(&body);
            }
            (name, body)
        }
        TargetKind::Constructor(t, c) => {
            let ty = &plan.types[t];
            let ctor = &ty.constructors[c];
            let args = params(kept.value, ctor.args.len())?;
            let rendered: Vec<String> = ctor
                .args
                .iter()
                .zip(args)
                .enumerate()
                .map(|(i, (a, v))| w.ctor_arg(&ctor.kind, i, a, v))
                .collect::<Result<_, _>>()?;
            let call = match (&ctor.kind, &rendered[..]) {
                // As a person writes it: `"1h".parse::<humantime::Duration>()`.
                (CtorKind::FromStr, [text]) => format!("{text}.parse::<{}>()", ty.path),
                (CtorKind::Function { path, .. }, _) => format!("{path}({})", rendered.join(", ")),
                _ => return Err("not a fallible constructor".into()),
            };
            let body = w.expect_debug(&call, kept.ending, panic)?;
            (format!("{}_{}", snake(&ty.name), snake(&ctor.variant)), body)
        }
        TargetKind::Calls(t) => {
            let (name, body, state) = w.sequence(&plan.types[t], kept.value, kept.ending, panic)?;
            // Without the last state's assertions, if anything else is asserted; else
            // without its `Debug`, where its `Display` is asserted after it.
            let lean = &body[..body.len() - state];
            // (A step's block, `{ let shown = …; assert… }`, asserts too.)
            if state > 0 && lean.iter().any(|l| l.starts_with("assert") || l.starts_with('{')) {
                lean_body = Some(hash_last_use_by_value(lean.to_vec()));
            } else if state == 2 {
                let mut lean = body.clone();
                lean.remove(body.len() - 2);
                lean_body = Some(hash_last_use_by_value(lean));
            }
            (name, hash_last_use_by_value(body))
        }
        TargetKind::Make(t) => {
            let ty = &plan.types[t];
            let made = w.make(ty, kept.value)?;
            let call = if ty.display { format!("{made}.to_string()") } else { made };
            let body = if ty.display {
                w.expect_value(&call, kept.ending, panic, true)?
            } else {
                w.expect_debug(&call, kept.ending, panic)?
            };
            (format!("make_{}", snake(&ty.name)), body)
        }
    };
    let mut test = finish(base, body, kept, panic, taken);
    test.args_name = by_args;
    test.lean = lean_body.map(|body| text_of(&test.name, &body, kept, panic));
    if calls_deprecated(plan, &test.text) {
        // Else `cargo test` warns of each call.
        let (from, to) = (format!("fn {}()", test.name), format!("#[allow(deprecated)]\nfn {}()", test.name));
        test.text = test.text.replacen(&from, &to, 1);
        test.lean = test.lean.map(|lean| lean.replacen(&from, &to, 1));
    }
    if let TargetKind::Call(i) = kind {
        let f = &plan.calls[i].function;
        match w.imported(f) {
            Some((_, tr)) => test.uses.push(tr),
            None if method_syntax(f) || buffer_method(&plan.calls[i]) => {
                test.uses.extend(f.extension.clone())
            }
            None => {}
        }
    }
    Ok(test)
}

/// Whether `text` calls a `#[deprecated]` function of the plan: one called by path, or
/// a method whose name no other method of the plan has.
fn calls_deprecated(plan: &Plan, text: &str) -> bool {
    let ctors = plan.types.iter().flat_map(|t| &t.constructors).filter_map(|c| match &c.kind {
        CtorKind::Function { function, .. } => Some(&**function),
        _ => None,
    });
    let calls = plan.calls.iter().chain(plan.calls.iter().flat_map(|c| &c.steps));
    let methods = plan.types.iter().flat_map(|t| &t.methods);
    let functions: Vec<&Function> = calls.chain(methods).map(|c| &c.function).chain(ctors).collect();
    functions.iter().filter(|f| f.deprecated).any(|f| match f.receiver {
        None => text.contains(&format!("{}(", f.path)),
        Some(_) => {
            functions.iter().all(|g| g.deprecated || g.name != f.name)
                && text.contains(&format!(".{}(", f.name))
        }
    })
}

/// The test named `base` (numbered past the names `taken`) with its comment and body.
fn finish(
    base: String,
    body: Vec<String>,
    kept: &Kept<'_>,
    panic: Option<&str>,
    taken: &mut BTreeSet<String>,
) -> TestFn {
    let mut name = base.clone();
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{base}_{n}");
        n += 1;
    }
    let text = text_of(&name, &body, kept, panic);
    TestFn { name, text, base, harness: false, uses: Vec::new(), args_name: None, lean: None }
}

/// The text of test `name`: its comment, attributes and body.
fn text_of(name: &str, body: &[String], kept: &Kept<'_>, panic: Option<&str>) -> String {
    let mut text = String::new();
    push_kills(&mut text, kept.kills);
    text.push_str(&attributes(panic));
    // `nth(0)` of an iterator whose own `nth` is the code under test: clippy would have
    // it `next()`, which runs other code.
    if body.iter().any(|line| line.contains(".nth(0)")) {
        text.push_str("#[allow(clippy::iter_nth_zero)]\n");
    }
    text.push_str(&format!("fn {name}() {{\n"));
    for line in body {
        text.push_str(&format!("    {line}\n"));
    }
    text.push_str("}\n");
    text
}

/// A test's attributes: `#[test]`, and `#[should_panic]` when it expects the `panic`
/// message. A panic on arithmetic overflow happens only where overflow checks are on, as
/// in the dev profile where the test was checked: such a test is for debug builds only,
/// or `cargo test --release` would fail it. A division's overflow is checked always.
pub(crate) fn attributes(panic: Option<&str>) -> String {
    let Some(message) = panic else { return "#[test]\n".to_owned() };
    let overflow = message.strip_prefix("attempt to ").and_then(|m| m.strip_suffix(" with overflow"));
    let gate = if overflow.is_some_and(|op| !matches!(op, "divide" | "calculate the remainder")) {
        "#[cfg(debug_assertions)]\n"
    } else {
        ""
    };
    format!("{gate}#[test]\n#[should_panic(expected = {message:?})]\n")
}

/// The header of `amplify`'s file for `package`.
pub fn amplify_header(package: &str) -> String {
    format!(
        "//! Tests written by `cargo mutfuzz amplify` for `{package}`: each one kills mutants the\n\
         //! rest of the suite does not (listed above it), and passes on the code as it is.\n"
    )
}

/// The top of a test file: its doc lines, and how it includes the harness when a test
/// calls a hand-written target.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileHead {
    /// Inner doc lines (`//! …`).
    pub doc: String,
    /// How the harness is included, for the tests of hand-written targets.
    pub include: Option<Include>,
    /// Cargo features the tests were written with that a plain build leaves off: the file
    /// is `#![cfg(…)]` on them, so a `cargo test` without them builds none of its tests
    /// (they call items behind those features).
    pub features: Vec<String>,
    /// Features a plain build turns on that the tests were written without
    /// (`--no-default-features`): the file's `cfg` asks for them off, as the tests may
    /// call items behind `cfg(not(feature = "std"))`.
    pub features_off: Vec<String>,
}

/// The harness included as the module `harness`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Include {
    /// Its `src/main.rs`, from the test file's directory (`../mutfuzz/src/main.rs`).
    pub main: String,
    /// The crates its `use` paths name, declared with `extern crate` for edition 2015,
    /// where such a path starts at the crate root (`mutfuzz` first); none in later editions.
    pub extern_crates: Vec<String>,
}

/// The whole test file: the head, then the tests.
pub fn file(head: &FileHead, tests: &[TestFn]) -> String {
    let mut out = head.doc.clone();
    if let Some(predicate) = features_cfg(&head.features, &head.features_off) {
        out.push_str(&format!(
            "\n// Written with these features on: without them, the file holds no test.\n#![cfg({predicate})]\n"
        ));
    }
    if let Some(include) = head.include.as_ref().filter(|_| tests.iter().any(|t| t.harness)) {
        out.push('\n');
        for name in &include.extern_crates {
            out.push_str(&format!("extern crate {name};\n"));
        }
        if !include.extern_crates.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!(
            "// The harness's targets and types, compiled into these tests.\n#[path = {:?}]\n#[allow(dead_code)]\nmod harness;\n",
            include.main
        ));
    }
    let uses = use_lines(tests);
    if !uses.is_empty() {
        out.push('\n');
        out.push_str(&uses);
    }
    for t in tests {
        out.push('\n');
        out.push_str(&t.text);
    }
    out
}

/// The `cfg` predicate that holds when every feature of `on` is on and every one of `off`
/// is off.
fn features_cfg(on: &[String], off: &[String]) -> Option<String> {
    let each: Vec<String> = on
        .iter()
        .map(|f| format!("feature = {f:?}"))
        .chain(off.iter().map(|f| format!("not(feature = {f:?})")))
        .collect();
    match each.len() {
        0 => None,
        1 => Some(each[0].clone()),
        _ => Some(format!("all({})", each.join(", "))),
    }
}

/// `use` lines for the paths the tests name, one per first segment.
fn use_lines(tests: &[TestFn]) -> String {
    let mut by_root: std::collections::BTreeMap<&str, BTreeSet<&str>> = Default::default();
    for path in tests.iter().flat_map(|t| &t.uses) {
        let (root, rest) = path.split_once("::").unwrap_or((path.as_str(), ""));
        by_root.entry(root).or_default().insert(rest);
    }
    let mut out = String::new();
    for (root, rest) in by_root {
        let rest: Vec<&str> = rest.into_iter().collect();
        match rest.as_slice() {
            [one] => out.push_str(&format!("use {root}::{one};\n")),
            many => out.push_str(&format!("use {root}::{{{}}};\n", many.join(", "))),
        }
    }
    out
}

/// Methods of the prelude's traits (`Ord`'s, `Iterator`'s most used), which a type's path
/// could mean beside a crate trait's.
const PRELUDE_METHODS: [&str; 40] = [
    "clamp",
    "clone_into",
    "collect",
    "count",
    "ge",
    "gt",
    "last",
    "le",
    "len",
    "lt",
    "map",
    "next_back",
    "nth",
    "rev",
    "size_hint",
    "sum",
    "as_mut",
    "as_ref",
    "clone",
    "clone_from",
    "cmp",
    "default",
    "eq",
    "extend",
    "fmt",
    "from",
    "from_iter",
    "hash",
    "into",
    "into_iter",
    "max",
    "min",
    "ne",
    "next",
    "partial_cmp",
    "to_owned",
    "to_string",
    "try_from",
    "try_into",
    "drop",
];

/// Methods of `str`, its own and those of the prelude's traits: a crate trait's method
/// of one of these names, called with the method syntax, would call `str`'s (or be
/// ambiguous).
const STR_METHODS: [&str; 64] = [
    "as_bytes",
    "as_ptr",
    "as_ref",
    "borrow",
    "bytes",
    "ceil_char_boundary",
    "char_indices",
    "chars",
    "clone",
    "cmp",
    "contains",
    "encode_utf16",
    "ends_with",
    "eq",
    "eq_ignore_ascii_case",
    "escape_debug",
    "escape_default",
    "escape_unicode",
    "find",
    "fmt",
    "floor_char_boundary",
    "get",
    "hash",
    "into",
    "is_ascii",
    "is_char_boundary",
    "is_empty",
    "len",
    "lines",
    "match_indices",
    "matches",
    "ne",
    "parse",
    "partial_cmp",
    "repeat",
    "replace",
    "replacen",
    "rfind",
    "rmatch_indices",
    "rmatches",
    "rsplit",
    "rsplit_once",
    "rsplit_terminator",
    "rsplitn",
    "split",
    "split_ascii_whitespace",
    "split_at",
    "split_inclusive",
    "split_once",
    "split_terminator",
    "split_whitespace",
    "splitn",
    "starts_with",
    "strip_prefix",
    "strip_suffix",
    "to_ascii_lowercase",
    "to_ascii_uppercase",
    "to_lowercase",
    "to_owned",
    "to_string",
    "to_uppercase",
    "trim",
    "trim_end",
    "trim_start",
];

/// Whether `call` is a method of the crate's trait taking a reader or a writer, a buffer
/// in memory here (a `Cursor` of the generated bytes, a `Vec<u8>` written into), which a
/// test calls with the method syntax and the trait imported, where neither buffer has a
/// method of that name (byteorder's `ReadBytesExt::read_u16`).
fn buffer_method(call: &Call) -> bool {
    let f = &call.function;
    let Some(first) = call.args.first() else { return false };
    let reader = first.expr.starts_with("&mut std::io::Cursor::new(");
    let writer = first.mutated && first.gen_ty == "Vec<u8>" && matches!(f.params[0].1, Ty::Ref { .. });
    f.self_param
        && f.owner.is_none()
        && f.extension.is_some()
        && (reader || writer)
        && !BUFFER_METHODS.contains(&f.name.as_str())
        && !STR_METHODS.contains(&f.name.as_str())
}

/// Methods a `Vec<u8>` (its own and its slice's) or a `Cursor` has, or `Read`'s and
/// `Write`'s: a crate trait's method of one of these names stays called through its path.
const BUFFER_METHODS: [&str; 58] = [
    "append",
    "as_mut_slice",
    "as_slice",
    "binary_search",
    "bytes",
    "capacity",
    "chain",
    "chunks",
    "clear",
    "concat",
    "contains",
    "dedup",
    "drain",
    "ends_with",
    "extend_from_slice",
    "fill",
    "first",
    "flush",
    "get",
    "get_mut",
    "get_ref",
    "insert",
    "into_inner",
    "is_empty",
    "iter",
    "iter_mut",
    "join",
    "last",
    "len",
    "pop",
    "position",
    "push",
    "read",
    "read_exact",
    "read_to_end",
    "read_to_string",
    "read_vectored",
    "remove",
    "repeat",
    "reserve",
    "resize",
    "retain",
    "reverse",
    "seek",
    "set_position",
    "sort",
    "split",
    "split_off",
    "starts_with",
    "swap",
    "take",
    "to_vec",
    "truncate",
    "windows",
    "write",
    "write_all",
    "write_fmt",
    "write_vectored",
];

/// Methods of `char` beside those [`STR_METHODS`] names.
const CHAR_METHODS: [&str; 31] = [
    "as_ascii",
    "encode_utf16",
    "encode_utf8",
    "is_alphabetic",
    "is_alphanumeric",
    "is_ascii_alphabetic",
    "is_ascii_alphanumeric",
    "is_ascii_control",
    "is_ascii_digit",
    "is_ascii_graphic",
    "is_ascii_hexdigit",
    "is_ascii_lowercase",
    "is_ascii_octdigit",
    "is_ascii_punctuation",
    "is_ascii_uppercase",
    "is_ascii_whitespace",
    "is_control",
    "is_digit",
    "is_lowercase",
    "is_numeric",
    "is_uppercase",
    "is_whitespace",
    "len_utf16",
    "len_utf8",
    "make_ascii_lowercase",
    "make_ascii_uppercase",
    "max",
    "min",
    "to_digit",
    "to_lowercase",
    "to_uppercase",
];

/// Whether a written test calls `f` as a method, with its trait imported: a crate trait's
/// method on `&str` or `char` (`"A b".to_snake_case()`, `'a'.width()`) of a name neither
/// has. Others, and on other types (`-5.halve()` would negate the result; an integer
/// literal would not pick the impl), keep the harness's qualified path
/// (`<u8 as k::Halve>::halve(7)`).
fn method_syntax(f: &Function) -> bool {
    let (name, first) = (f.name.as_str(), f.params.first().map(|(_, t)| t));
    let on = match first {
        Some(Ty::Ref { inner, mutable: false }) if inner.plain_name() == Some("str") => true,
        Some(t) if t.plain_name() == Some("char") => !CHAR_METHODS.contains(&name),
        _ => false,
    };
    f.self_param && f.owner.is_none() && on && !STR_METHODS.contains(&name)
}

/// `k::text::first_word` → `first_word` (`k::collect::<String>` → `collect`).
fn test_name(path: &str) -> String {
    let from = from_path(path).map(|ty| format!("{ty}::from"));
    let path = from.as_deref().unwrap_or(path);
    let path = path.split_once("::<").map_or(path, |(name, _)| name);
    let parts: Vec<&str> = path.split("::").skip(1).collect();
    match parts.as_slice() {
        [.., ty, f] if ty.chars().next().is_some_and(char::is_uppercase) => format!("{}_{}", snake(ty), f),
        [.., f] => (*f).to_owned(),
        [] => "generated".to_owned(),
    }
}

/// The type of a conversion called through its trait: `k::Tokenizer` of
/// `<k::Tokenizer as From<&str>>::from`.
fn from_path(path: &str) -> Option<&str> {
    let (ty, _) = path.strip_prefix('<')?.strip_suffix(">>::from")?.split_once(" as From<")?;
    Some(ty)
}

/// The steps a finished builder's input chose (its last element), each with its arguments'
/// values.
fn steps_of<'a>(call: &'a Call, value: Option<&'a Value>) -> Result<Vec<(&'a Call, &'a [Value])>, String> {
    let Some(Value::Seq(steps)) = value else {
        return Err("the input does not have the target's shape".into());
    };
    steps
        .iter()
        .map(|s| match s {
            Value::Variant(_, fields) => {
                Ok((method_of(&call.steps, s).ok_or("a step names no method")?, &fields[..]))
            }
            _ => Err("a step is not a variant".to_owned()),
        })
        .collect()
}

/// The method of `methods` whose variant `call` is.
fn method_of<'a>(methods: &'a [Call], call: &Value) -> Option<&'a Call> {
    let Value::Variant(name, _) = call else { return None };
    let variants = method_variants(methods);
    variants.iter().position(|v| v == name).map(|i| &methods[i])
}

/// The values of `n` parameters: the tuple's elements, or the one value.
fn params(value: &Value, n: usize) -> Result<Vec<&Value>, String> {
    match (n, value) {
        (0, _) => Ok(Vec::new()),
        (1, v) => Ok(vec![v]),
        (_, Value::Tuple(items)) if items.len() == n => Ok(items.iter().collect()),
        _ => Err("the input does not have the target's shape".into()),
    }
}

struct Writer<'a> {
    plan: &'a Plan,
    /// Integer and `f32` literals carry their type (`3i64`, `0.1f32`): the parameter is
    /// generic, instantiated by the harness, and an unsuffixed literal would be inferred
    /// as `i32` or `f64`.
    typed_ints: std::cell::Cell<bool>,
    /// The parameter takes any `AsRef<[u8]>`: bytes that are mostly text are a byte
    /// string as they are (`k::decode(b"=F0")`), not an owned copy.
    bytes_by_ref: std::cell::Cell<bool>,
}

impl Writer<'_> {
    /// `<k::Big as k::Order>::read` as a person writes it, `k::Big::read` with the trait
    /// imported (its path the second), where the name can mean nothing else: no function
    /// of the type's own or of another of its traits has it, nor a prelude trait.
    fn imported(&self, f: &Function) -> Option<(String, String)> {
        let (ty, rest) = f.path.strip_prefix('<')?.split_once(" as ")?;
        let (tr, tail) = rest.split_once(">::")?;
        let p = self.plan;
        // A std type's own methods are not known here (`<str as k::ToSnake>::trim`).
        let crate_type = ty.strip_prefix(&p.krate).is_some_and(|t| t.starts_with("::"));
        if !crate_type || ty.contains('<') || tr.contains('<') || PRELUDE_METHODS.contains(&f.name.as_str()) {
            return None;
        }
        let functions = p.calls.iter().chain(p.types.iter().flat_map(|t| &t.methods)).map(|c| &c.function);
        let others = format!("<{ty} as ");
        let own = format!("{ty}::{}", f.name);
        let clash = functions
            .filter(|g| g.name == f.name && g.path != f.path)
            .any(|g| g.path.starts_with(&others) || g.path.split("::<").next() == Some(&own));
        // An inherent function returning the type is a constructor only.
        let ctor = p.types.iter().flat_map(|t| &t.constructors).any(
            |c| matches!(&c.kind, CtorKind::Function { path, .. } if path.split("::<").next() == Some(&own)),
        );
        let ty_name = ty.rsplit("::").next().unwrap_or(ty);
        let skipped = p.skipped.iter().any(|s| s.item.ends_with(&format!("{ty_name}::{}", f.name)));
        (!clash && !ctor && !skipped).then(|| (format!("{ty}::{tail}"), tr.to_owned()))
    }

    /// A single call's test body, the builder's `steps` chained after it.
    fn single(
        &self,
        call: &Call,
        args: &[&Value],
        steps: &[(&Call, &[Value])],
        ending: &str,
        panic: Option<&str>,
    ) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        let mut rendered = Vec::new();
        let mut mutated = Vec::new();
        for ((a, v), (_, ty)) in call.args.iter().zip(args).zip(&call.function.params) {
            if a.mutated {
                // `let mut slice = vec![…]` for a `&mut [T]`: its literals say `T`.
                self.typed_ints.set(generic_param(&call.function, ty));
                let own = self.owned(a, v);
                self.typed_ints.set(false);
                let own = own?;
                lines.push(format!("let mut {} = {own};", a.name));
                rendered.push(format!("&mut {}", a.name));
                mutated.push(a.name.clone());
            } else {
                rendered.push(self.generic_arg(&call.function, a, v, ty)?);
            }
        }
        let mut call_text = match rendered.split_first() {
            // A method of the crate's trait on `str` or `char`, called as one with the
            // trait imported: `"A b".to_snake_case()`.
            Some((value, rest)) if method_syntax(&call.function) => {
                format!("{value}.{}({})", call.function.name, rest.join(", "))
            }
            // An extension of readers or writers on its buffer, as a crate's docs call
            // it: `std::io::Cursor::new(vec![1u8, 2]).read_u16::<byteorder::BigEndian>()`.
            Some((value, rest)) if buffer_method(call) => {
                let f = &call.function;
                let turbofish = f
                    .path
                    .rsplit_once(&format!("::{}::<", f.name))
                    .map_or(String::new(), |(_, t)| format!("::<{t}"));
                let receiver = value.strip_prefix("&mut ").unwrap_or(value);
                format!("{receiver}.{}{turbofish}({})", f.name, rest.join(", "))
            }
            // A text literal picks the `From<&str>` impl alone: `k::Tokenizer::from("<a/>")`.
            _ if let Some(ty) = from_path(&call.function.path)
                && call.function.path.ends_with(" as From<&str>>::from")
                && rendered.iter().all(|r| r.starts_with('"')) =>
            {
                format!("{ty}::from({})", rendered.join(", "))
            }
            _ => {
                let path =
                    self.imported(&call.function).map_or_else(|| call.function.path.clone(), |(p, _)| p);
                format!("{path}({})", rendered.join(", "))
            }
        };
        for (step, values) in steps {
            let args: Vec<String> = step
                .args
                .iter()
                .zip(*values)
                .zip(&step.function.params)
                .map(|((a, v), (_, ty))| self.generic_arg(&step.function, a, v, ty))
                .collect::<Result<_, _>>()?;
            call_text = step.function.call_moving(&call_text, &args);
        }
        call_text.push_str(&call.adapter_call());
        if panic.is_some() {
            lines.push(discarded(&call_text, &call.output));
            return Ok(lines);
        }
        if !mutated.is_empty() {
            let parts = split_tuple(ending, mutated.len() + usize::from(call.output != Output::Unit));
            let mut parts =
                parts.ok_or("the recorded result does not split into the call's parts")?.into_iter();
            if call.output != Output::Unit {
                let first = parts.next().unwrap_or_default();
                lines.extend(self.expect_output(&call_text, call, &first)?);
            } else {
                lines.push(format!("{call_text};"));
            }
            for (name, text) in mutated.iter().zip(parts) {
                lines.push(assert_value(name, &text));
            }
            return Ok(lines);
        }
        lines.extend(self.expect_output(&call_text, call, ending)?);
        Ok(lines)
    }

    /// Assertions on `call`'s result (written `call_text`) as the target rendered it.
    fn expect_output(&self, call_text: &str, m: &Call, ending: &str) -> Result<Vec<String>, String> {
        let (call, ty) = (call_text, m.result.as_ref());
        Ok(match &m.output {
            Output::Value(_) if let Some(line) = ty.and_then(|t| special_float(call, t, ending)) => {
                vec![line]
            }
            Output::Unit => vec![format!("{call};")],
            Output::Value(_) if let Some(bytes) = ty.and_then(|t| byte_string_result(t, ending)) => {
                vec![format!("assert_eq!({call}, {bytes});")]
            }
            Output::Value(_)
                if let Some(ty) = ty.filter(|t| plain(t, &self.plan.enums))
                    && literal(ending)
                    && let Some(text) = with_paths(Some(ty), ending, &self.plan.enums) =>
            {
                vec![assert_value(&dereferenced(call, ty), &text)]
            }
            Output::Value(_)
                if let Some(line) = ty.and_then(|t| result_part(call, t, ending, &self.plan.enums)) =>
            {
                vec![line]
            }
            Output::Value(_) => vec![assert_debug(call, ending)],
            Output::Sorted(_) | Output::Debug { sorted: true } => {
                return Err("the result holds a hash container".into());
            }
            Output::Debug { sorted: false } => {
                let text = unquote(ending)?;
                if let Some(line) = ty.and_then(|t| result_part(call, t, &text, &self.plan.enums)) {
                    vec![line]
                } else if let Some(ty) = ty.filter(|t| plain(t, &self.plan.enums))
                    && literal(&text)
                    && let Some(text) = with_paths(Some(ty), &text, &self.plan.enums)
                {
                    vec![assert_value(&dereferenced(call, ty), &text)]
                } else {
                    vec![assert_debug(call, &text)]
                }
            }
            Output::Collected => {
                let text = unquote(ending)?;
                if cut(&text) {
                    return Err("the result's rendering was cut at its bound".into());
                }
                vec![assert_collected(call, &text, m.items_by_value)]
            }
            Output::Unordered => {
                let text = unquote(ending)?;
                if cut(&text) {
                    return Err("the result's rendering was cut at its bound".into());
                }
                assert_unordered(call, &text)
            }
            Output::Display => vec![format!("assert_eq!({call}.to_string(), {});", long_literal(ending))],
            Output::Shown => shown(call, ending, false)?,
        })
    }

    fn expect_debug(&self, call: &str, ending: &str, panic: Option<&str>) -> Result<Vec<String>, String> {
        if panic.is_some() {
            return Ok(vec![format!("let _ = {call};")]);
        }
        Ok(vec![assert_debug(call, &unquote(ending)?)])
    }

    fn expect_value(
        &self,
        call: &str,
        ending: &str,
        panic: Option<&str>,
        _string: bool,
    ) -> Result<Vec<String>, String> {
        if panic.is_some() {
            return Ok(vec![format!("let _ = {call};")]);
        }
        Ok(vec![format!("assert_eq!({call}, {});", long_literal(ending))])
    }

    /// A call sequence's test: the value built, each call with its result, the last state.
    fn sequence(
        &self,
        t: &Buildable,
        value: &Value,
        ending: &str,
        panic: Option<&str>,
    ) -> Result<(String, Vec<String>, usize), String> {
        let Value::Tuple(parts) = value else {
            return Err("the input does not have the target's shape".into());
        };
        let [make, Value::Seq(calls)] = parts.as_slice() else {
            return Err("the input does not have the target's shape".into());
        };
        let named = snake(&t.name);
        // Not the crate's own name (either's `Either`): `let either = either::Either::…`
        // compiles (a path's first segment is no local), but reads as if it did not; nor
        // a primitive type's (half's `f16`, which std has too).
        let primitive = INTEGERS.contains(&named.as_str())
            || PRIMITIVES.contains(&named.as_str())
            || matches!(named.as_str(), "str" | "f16" | "f128");
        let binding = if named == self.plan.krate || primitive { "value".to_owned() } else { named.clone() };
        let results = if panic.is_some() { Vec::new() } else { string_list(ending)? };
        let mut lines = Vec::new();
        let mutates = calls.iter().any(|c| method_of(&t.methods, c).is_some_and(Call::changes_value));
        // Fields set on a default value, as statements of the test: not a block that
        // binds the same name inside.
        match self.default_with(t, make)? {
            Some(sets) => {
                lines.push(format!("let mut {binding} = {}::default();", t.path));
                lines.extend(sets.iter().map(|(field, value)| format!("{binding}.{field} = {value};")));
            }
            None => lines.push(format!(
                "let {}{binding} = {};",
                if mutates { "mut " } else { "" },
                self.make(t, make)?
            )),
        }
        let mut names = Vec::new();
        for (i, c) in calls.iter().enumerate() {
            let m = method_of(&t.methods, c).ok_or("a call names no method")?;
            let Value::Variant(_, fields) = c else { return Err("a call is not a variant".into()) };
            let name = m.function.name.trim_start_matches("r#");
            names.push(match &m.adapter {
                Some(a) => format!("{name}_{}", a.method()),
                None => name.to_owned(),
            });
            let args: Vec<String> = m
                .args
                .iter()
                .zip(fields)
                .zip(&m.function.params)
                .map(|((a, v), (_, ty))| self.generic_arg(&m.function, a, v, ty))
                .collect::<Result<_, _>>()?;
            if m.hashes() {
                lines.extend(
                    results
                        .get(i)
                        .map(|text| hash_step(&binding, &args[0], text))
                        .transpose()?
                        .unwrap_or_default(),
                );
                continue;
            }
            // `f16 /= x;` as a person writes it, not `std::ops::DivAssign::div_assign(…)`.
            if let (Some(op), [arg], Output::Unit) = (assign_operator(m), &args[..], &m.output) {
                lines.push(format!("{binding} {op} {arg};"));
                continue;
            }
            let call = m.method_call(&binding, &args);
            match results.get(i) {
                None => lines.push(discarded(&call, &m.output)),
                Some(text) => lines.extend(self.sequence_step(&call, m, text)?),
            }
        }
        let mut rest = results.iter().skip(calls.len());
        let before_state = lines.len();
        if panic.is_none() {
            if t.debug {
                let text = rest.next().ok_or("the recorded result is shorter than the calls")?;
                // With an address masked, the text is no `Debug` a test can compare with;
                // nor is a hash container's of more than one entry, whose order differs
                // between runs (the harness sorted it).
                let unordered = t.hashed && text.contains(", ");
                if !text.contains(mutfuzz_contract::ADDRESS_MASK) && !unordered {
                    lines.push(assert_debug(&binding, text));
                }
            }
            if t.display {
                let text = rest.next().ok_or("the recorded result is shorter than the calls")?;
                lines.push(format!("assert_eq!({binding}.to_string(), {});", string(text)));
            }
        }
        names.truncate(3);
        // Short enough to read: httparse's three setters made a name of 166 chars.
        while names.len() > 1 && named.len() + names.iter().map(|n| n.len() + 1).sum::<usize>() > NAME_WIDTH {
            names.pop();
        }
        // No call: named for how the value is built (`arena_from_iter`, not `arena`).
        if names.is_empty()
            && let Value::Variant(built, _) = make
        {
            names.push(snake(built));
        }
        // Built from one of a crate enum's variants, named for it too: rust-stemmers'
        // `Stemmer::create(Algorithm::Greek)` then `stem` is `stemmer_greek_stem`.
        let named = match self.enum_variant_arg(t, make) {
            Some(variant) => format!("{named}_{}", snake(&variant)),
            None => named,
        };
        let name = if names.is_empty() { named } else { format!("{named}_{}", names.join("_")) };
        let state = lines.len() - before_state;
        Ok((name, lines, state))
    }

    /// The variant of a crate enum that `t`'s constructor in `make` takes, if one of its
    /// arguments is such a variant without fields.
    fn enum_variant_arg(&self, t: &Buildable, make: &Value) -> Option<String> {
        let Value::Variant(built, fields) = make else { return None };
        let c = t.constructors.iter().find(|c| &c.variant == built)?;
        c.args.iter().zip(fields).find_map(|(a, v)| {
            let Value::Variant(variant, inner) = v else { return None };
            let ty = self.plan.types.iter().find(|t| a.gen_ty == format!("Make{}", t.name))?;
            let unit = ty.constructors.iter().any(|c| {
                &c.variant == variant && c.args.is_empty() && matches!(c.kind, CtorKind::Variant { .. })
            });
            (unit && inner.is_empty()).then(|| variant.clone())
        })
    }

    /// An argument of `f`, whose integer and `f32` literals carry their type where the
    /// parameter is generic, and in every argument of a function tried at a further type.
    fn generic_arg(&self, f: &Function, a: &Arg, v: &Value, ty: &Ty) -> Result<String, String> {
        let generic = generic_param(f, ty);
        let bounds = match ty {
            Ty::Impl(bounds) => Some(bounds),
            Ty::Path { segments, args, .. } if segments.len() == 1 && args.is_empty() => {
                f.generics.iter().find(|(g, _)| *g == segments[0]).map(|(_, bounds)| bounds)
            }
            _ => None,
        };
        let as_ref_bytes = bounds.is_some_and(|bounds| {
            matches!(&bounds[..], [b] if b.name == "AsRef"
                && matches!(&b.args[..], [Ty::Slice(item)] if item.plain_name() == Some("u8")))
        });
        // `RangeBounds<u32>` names its ends' type already: `1..=2` needs no suffix; nor
        // does a closure's number, which its arguments' type gives.
        let ends_named = bounds.is_some_and(|bounds| {
            bounds.iter().any(|b| b.name == "RangeBounds" || (b.parenthesized && !b.args.is_empty()))
        });
        // A `String` passed where a `&str` meets every bound (`AsRef<str>`, `AsRef<Path>`,
        // `Into<String>`, `Display`) is written as the literal: `"ab"`, not `"ab".to_owned()`.
        let str_meets = bounds.is_some_and(|bounds| bounds.iter().all(str_meets));
        self.typed_ints.set(generic && !ends_named);
        self.bytes_by_ref.set(as_ref_bytes);
        let arg = self.arg(a, v, Some(ty), str_meets && a.gen_ty == "String" && a.expr == a.name);
        self.typed_ints.set(false);
        self.bytes_by_ref.set(false);
        arg
    }

    /// One step of a sequence, its result as the sequence rendered it (a `String`).
    fn sequence_step(&self, call: &str, m: &Call, text: &str) -> Result<Vec<String>, String> {
        Ok(match &m.output {
            Output::Unit => vec![format!("{call};")],
            // With an address masked, the text is no `Debug` a test can compare with: the
            // call stays, for what it does to the value.
            _ if m.masked && text.contains(mutfuzz_contract::ADDRESS_MASK) => {
                vec![format!("let _ = {call};")]
            }
            Output::Display => vec![format!("assert_eq!({call}.to_string(), {});", string(text))],
            Output::Shown => shown(call, text, true)?,
            Output::Sorted(_) | Output::Debug { sorted: true } => {
                return Err("a result holds a hash container".into());
            }
            // Cut at its bound, the text says nothing a test can assert: the call stays,
            // for what it does to the value.
            Output::Collected if cut(text) => vec![format!("let _ = {};", collected(call))],
            Output::Collected => vec![assert_collected(call, text, m.items_by_value)],
            Output::Unordered if cut(text) => vec![format!("let _ = {call};")],
            Output::Unordered => assert_unordered(call, text),
            _ if matches!(m.adapter, Some(Adapter::SizeHint | Adapter::Count | Adapter::Len))
                && literal(text) =>
            {
                vec![assert_value(call, &pointer_sized_bounds(text))]
            }
            _ if let Some(ty) = m.result.as_ref().filter(|t| plain(t, &self.plan.enums))
                && literal(text)
                && let Some(text) = with_paths(Some(ty), text, &self.plan.enums) =>
            {
                vec![assert_value(&dereferenced(call, ty), &text)]
            }
            _ if let Some(line) =
                m.result.as_ref().and_then(|t| result_part(call, t, text, &self.plan.enums)) =>
            {
                vec![line]
            }
            _ => vec![assert_debug(call, text)],
        })
    }

    /// `path` collected from the items in `items`, each made as `item` says, their type
    /// `ty` stated: a type may collect from more than one item type. From an array where
    /// the type is `From` one.
    fn collected_from(
        &self,
        (item, ty, array): (&Arg, &str, bool),
        items: &Value,
        path: &str,
    ) -> Result<String, String> {
        let Value::Seq(items) = items else { return Err("the items are not a list".into()) };
        let mut written: Vec<String> =
            items.iter().map(|v| self.arg(item, v, None, false)).collect::<Result<_, _>>()?;
        let Some(first) = written.first() else {
            return Ok(format!("std::iter::empty::<{ty}>().collect::<{path}>()"));
        };
        // The first number typed, so that the collection's item type is known.
        let suffix = match INTEGERS.contains(&ty)
            && first.trim_start_matches('-').chars().all(|c| c.is_ascii_digit())
        {
            true => ty,
            false => "",
        };
        let list = match repeated(&written) {
            Some((item, n)) => format!("{item}{suffix}; {n}"),
            None => {
                written[0].push_str(suffix);
                written.join(", ")
            }
        };
        Ok(match array {
            true => format!("{path}::from([{list}])"),
            false => format!("vec![{list}].into_iter().collect::<{path}>()"),
        })
    }

    /// The expression that builds `t` the way the `Make…` variant in `value` does.
    fn make(&self, t: &Buildable, value: &Value) -> Result<String, String> {
        let Value::Variant(variant, fields) = value else {
            return Err("a constructor is not a variant".into());
        };
        let c = t.constructors.iter().find(|c| &c.variant == variant).ok_or("an unknown constructor")?;
        // `half::f16::from(3i8)`: of several `From` impls, an unsuffixed number would pick
        // the `i32` one, if there is one.
        let kind = std::mem::discriminant(&c.kind);
        let conversions = t.constructors.iter().filter(|d| std::mem::discriminant(&d.kind) == kind).count();
        self.typed_ints.set(matches!(c.kind, CtorKind::From | CtorKind::TryFrom) && conversions > 1);
        let args: Result<Vec<String>, String> = c
            .args
            .iter()
            .zip(fields)
            .enumerate()
            .map(|(i, (a, v))| self.ctor_arg(&c.kind, i, a, v))
            .collect();
        self.typed_ints.set(false);
        let args = args?;
        Ok(match &c.kind {
            CtorKind::Function { path, fallible, .. } => {
                format!("{path}({}){}", args.join(", "), if *fallible { ".unwrap()" } else { "" })
            }
            CtorKind::Default => format!("{}::default()", t.path),
            CtorKind::FromStr => format!("{}.parse::<{}>().unwrap()", args[0], t.path),
            CtorKind::From => format!("{}::from({})", t.path, args[0]),
            CtorKind::FromIter { item, ty, array } => {
                self.collected_from((item, ty, *array), &fields[0], &t.path)?
            }
            CtorKind::TryFrom => format!("{}::try_from({}).unwrap()", t.path, args[0]),
            CtorKind::Literal => {
                let fields: Vec<String> = c.args.iter().zip(&args).map(|(a, v)| field(&a.name, v)).collect();
                format!("{} {{ {} }}", t.path, fields.join(", "))
            }
            CtorKind::DefaultWith => {
                let set: Vec<Arg> =
                    c.args.iter().zip(args).map(|(a, v)| Arg { expr: v, ..a.clone() }).collect();
                crate::render::set_fields(&format!("{}::default()", t.path), &set, &snake(&t.name))
            }
            CtorKind::Variant { name, named: true } => {
                let fields: Vec<String> = c.args.iter().zip(&args).map(|(a, v)| field(&a.name, v)).collect();
                format!("{}::{name} {{ {} }}", t.path, fields.join(", "))
            }
            CtorKind::Variant { name, named: false } if args.is_empty() => format!("{}::{name}", t.path),
            CtorKind::Variant { name, named: false } => format!("{}::{name}({})", t.path, args.join(", ")),
            CtorKind::Const { path, by_ref: false } => path.clone(),
            CtorKind::Const { path, by_ref: true } => format!("{path}.clone()"),
        })
    }

    /// The fields and values that `value` sets on a default `t`, where it is built so.
    fn default_with(&self, t: &Buildable, value: &Value) -> Result<Option<Vec<(String, String)>>, String> {
        let Value::Variant(variant, fields) = value else { return Ok(None) };
        let Some(c) =
            t.constructors.iter().find(|c| &c.variant == variant && matches!(c.kind, CtorKind::DefaultWith))
        else {
            return Ok(None);
        };
        let written = c
            .args
            .iter()
            .zip(fields)
            .enumerate()
            .map(|(i, (a, v))| Ok((a.name.clone(), self.ctor_arg(&c.kind, i, a, v)?)));
        Ok(Some(written.collect::<Result<_, String>>()?))
    }

    /// [`make`](Self::make) without its last `.unwrap()`: the constructor call that fails
    /// on an input the original rejected. Only when it is the one fallible constructor of
    /// the expression; with another among its arguments, which one failed is not known.
    fn failing_make(&self, t: &Buildable, value: &Value) -> Result<String, String> {
        let made = self.make(t, value)?;
        match made.strip_suffix(".unwrap()") {
            Some(call) if !call.contains(".unwrap()") => Ok(call.to_owned()),
            _ if made.contains(".unwrap()") => {
                Err("the original rejects this input, and more than one of its constructors can fail".into())
            }
            _ => Err("the original rejects this input, though none of its constructors can fail".into()),
        }
    }

    /// Argument `i` of a constructor of `kind`, `a` given `v`: a function's as a call's
    /// arguments are written (`SmolStr::new("a")`, `from_utf8(&[2])`, by its parameter's
    /// type), a field or a conversion's value as the harness builds it.
    fn ctor_arg(&self, kind: &CtorKind, i: usize, a: &Arg, v: &Value) -> Result<String, String> {
        match kind {
            CtorKind::FromStr => self.arg(a, v, None, true),
            CtorKind::Function { function, .. } => match function.params.get(i) {
                Some((_, ty)) => self.generic_arg(function, a, v, ty),
                None => self.arg(a, v, None, false),
            },
            // A field the harness builds from its value (a `Duration` from nanoseconds).
            CtorKind::Literal
            | CtorKind::DefaultWith
            | CtorKind::Variant { .. }
            | CtorKind::From
            | CtorKind::TryFrom
                if a.expr != a.name =>
            {
                self.arg(a, v, None, false)
            }
            _ => self.owned(a, v),
        }
    }

    /// The argument expression: the generated value written so that it means what the
    /// harness's `expr` did with it.
    fn arg(&self, a: &Arg, v: &Value, param: Option<&Ty>, str_literal: bool) -> Result<String, String> {
        let name = a.name.as_str();
        let expr = a.expr.as_str();
        if a.convert.is_none() {
            if let Value::Str(s) = v {
                let lit = format!("{s:?}");
                // A `&String` (a method of a trait implemented for `String`, taking `&self`)
                // is no `&str` a literal is.
                let string_ref = param.is_some_and(|p| {
                    matches!(p, Ty::Ref { inner, .. } if matches!(inner.plain_name(), Some("String" | "Self")))
                });
                if expr == format!("&{name}") && string_ref {
                    return Ok(format!("&String::from({lit})"));
                }
                if str_literal || expr == format!("&{name}") {
                    return Ok(lit);
                }
                if expr == format!("{name}.chars()") || expr == format!("{name}.into()") {
                    return Ok(format!("{lit}{}", &expr[name.len()..]));
                }
                // A path made from the text: `Path::new("a/b")`, `PathBuf::from("a/b")`.
                for made in
                    [format!("std::path::Path::new(&{name})"), format!("std::path::PathBuf::from({name})")]
                {
                    if let Some(borrow) = expr.strip_suffix(&made) {
                        let call = made.split_once('(').map_or("", |(call, _)| call);
                        return Ok(format!("{borrow}{call}({lit})"));
                    }
                }
            }
            if let Value::Int(digits, _) = v
                && expr == format!("usize::from({name})")
            {
                return Ok(digits.clone());
            }
            if expr == format!("{name}.as_deref()") {
                return Ok(match v {
                    Value::Option(None) => "None".into(),
                    Value::Option(Some(s)) => format!("Some({})", self.arg(a, s, None, true)?),
                    _ => return Err("an unexpected value".into()),
                });
            }
            let slice =
                param.is_some_and(|p| matches!(p, Ty::Ref { inner, .. } if matches!(**inner, Ty::Slice(_))));
            if expr == format!("&{name}")
                && slice
                && let Value::Seq(items) = v
            {
                let elem =
                    a.gen_ty.strip_prefix("Vec<").and_then(|t| t.strip_suffix('>')).unwrap_or(&a.gen_ty);
                if elem == "u8"
                    && let Some(text) = byte_string(items)
                {
                    return Ok(text);
                }
                let items: Vec<String> =
                    items.iter().map(|i| self.literal(i, elem)).collect::<Result<_, _>>()?;
                if let Some((item, n)) = repeated(&items) {
                    return Ok(format!("&[{item}; {n}]"));
                }
                return Ok(format!("&[{}]", items.join(", ")));
            }
        }
        if let Some(array) = self.borrowed_items(a, v)? {
            return Ok(array);
        }
        // One of a type's constants, by reference.
        if let (Some(set), Value::Variant(variant, _)) = (
            a.gen_ty.strip_prefix("Const").and_then(|n| self.plan.const_sets.iter().find(|s| s.name == n)),
            v,
        ) && a.expr == format!("{name}.get()")
        {
            let (_, expr) = set.consts.iter().find(|(c, _)| c == variant).ok_or("an unknown constant")?;
            return Ok(expr.clone());
        }
        if let Some(range) = self.range(a, v)? {
            return Ok(range);
        }
        let from_nanos = format!("std::time::Duration::from_nanos({name})");
        if let Value::Int(digits, _) = v
            && expr.contains(&from_nanos)
            && let Ok(nanos) = digits.parse::<u64>()
        {
            let time = expr.replacen(&from_nanos, &duration(nanos), 1);
            // A `SystemTime` at the epoch itself.
            return Ok(time
                .replace("(std::time::UNIX_EPOCH + std::time::Duration::ZERO)", "std::time::UNIX_EPOCH")
                .replace("std::time::UNIX_EPOCH + std::time::Duration::ZERO", "std::time::UNIX_EPOCH"));
        }
        if let Value::Int(digits, _) = v
            && let Some(written) = nonzero(expr, name, digits).or_else(|| ip(expr, name, digits))
        {
            return Ok(written);
        }
        let own = self.owned(a, v)?;
        // A slice lent (mutably, where its value after the call is not compared) as an
        // array, not a `vec!` (clippy's `useless_vec`): `&mut [0, 1]`, unicode-bidi's
        // `&[Level::rtl()]`.
        if let Some(Ty::Ref { mutable, inner }) = param
            && matches!(**inner, Ty::Slice(_))
        {
            let borrow = if *mutable { "&mut " } else { "&" };
            if expr == format!("{borrow}{name}")
                && let Some(items) = own.strip_prefix("vec!")
            {
                return Ok(format!("{borrow}{items}"));
            }
        }
        Ok(replace_ident(expr, name, &own))
    }

    /// A range the harness joined from a pair of ends (`r.0..=r.1`), written with each
    /// end as its own argument would be: `3..=9`, `'a'..'f'`.
    fn range(&self, a: &Arg, v: &Value) -> Result<Option<String>, String> {
        let name = a.name.as_str();
        let (Value::Tuple(ends), None) = (v, &a.convert) else { return Ok(None) };
        // A borrowed range (`&(r.0..r.1)`) is written borrowed: `&(0..4)`.
        let (expr, borrowed) = match a.expr.strip_prefix("&(").and_then(|e| e.strip_suffix(')')) {
            Some(range) => (range, true),
            None => (a.expr.as_str(), false),
        };
        let Some((op, left)) = ["..=", ".."].iter().find_map(|op| Some((*op, expr.split_once(op)?.0))) else {
            return Ok(None);
        };
        let end_ty = split_types(a.gen_ty.trim_start_matches('(').trim_end_matches(')'));
        let first = format!("{name}.0");
        if ends.len() != 2 || end_ty.len() != 2 || !left.contains(&first) {
            return Ok(None);
        }
        let end = Arg::simple(name, end_ty[0].clone(), left.replace(&first, name));
        let range = format!(
            "{}{op}{}",
            self.arg(&end, &ends[0], None, false)?,
            self.arg(&end, &ends[1], None, false)?
        );
        Ok(Some(if borrowed { format!("&({range})") } else { range }))
    }

    /// An `IntoIterator` of borrowed items (which the harness borrowed from a `Vec`) as
    /// an array of them: `["a b", "c"]`, `[b"ab".as_slice()]`, `[1, 2].iter()`.
    fn borrowed_items(&self, a: &Arg, v: &Value) -> Result<Option<String>, String> {
        let Some(map) = a.expr.strip_prefix(&format!("{}.iter()", a.name)) else { return Ok(None) };
        let (Value::Seq(items), None) = (v, &a.convert) else { return Ok(None) };
        let elem = a.gen_ty.strip_prefix("Vec<").and_then(|t| t.strip_suffix('>')).unwrap_or(&a.gen_ty);
        let written: Vec<String> = match map {
            ".map(String::as_str)" => items
                .iter()
                .map(|i| match i {
                    Value::Str(s) => Ok(format!("{s:?}")),
                    _ => Err("an unexpected value".to_owned()),
                })
                .collect::<Result<_, _>>()?,
            ".map(Vec::as_slice)" => {
                let of = elem.strip_prefix("Vec<").and_then(|t| t.strip_suffix('>')).unwrap_or(elem);
                items
                    .iter()
                    .map(|i| {
                        let Value::Seq(xs) = i else { return Err("an unexpected value".to_owned()) };
                        if of == "u8" {
                            match byte_string(xs) {
                                Some(text) => return Ok(format!("{text}.as_slice()")),
                                None if xs.is_empty() => return Ok("b\"\".as_slice()".to_owned()),
                                None => {}
                            }
                        }
                        let xs: Vec<String> =
                            xs.iter().map(|x| self.literal(x, of)).collect::<Result<_, _>>()?;
                        Ok(format!("[{}].as_slice()", xs.join(", ")))
                    })
                    .collect::<Result<_, _>>()?
            }
            "" => {
                let items: Vec<String> =
                    items.iter().map(|i| self.literal(i, elem)).collect::<Result<_, _>>()?;
                return Ok(Some(format!("[{}].iter()", items.join(", "))));
            }
            _ => return Ok(None),
        };
        Ok(Some(format!("[{}]", written.join(", "))))
    }

    /// The owned value the harness passed (after building crate types).
    fn owned(&self, a: &Arg, v: &Value) -> Result<String, String> {
        if a.convert.is_some() {
            // `Make…` values, or a `Vec`/`Option` of them.
            let make_name =
                a.gen_ty.trim_start_matches("Vec<").trim_start_matches("Option<").trim_end_matches('>');
            let ty = self.buildable(make_name).ok_or("an unknown built type")?;
            return match v {
                Value::Seq(items) => {
                    let items: Vec<String> =
                        items.iter().map(|i| self.make(ty, i)).collect::<Result<_, _>>()?;
                    Ok(format!("vec![{}]", items.join(", ")))
                }
                Value::Option(None) => Ok("None".into()),
                Value::Option(Some(i)) => Ok(format!("Some({})", self.make(ty, i)?)),
                other => self.make(ty, other),
            };
        }
        self.literal(v, &a.gen_ty)
    }

    fn buildable(&self, make: &str) -> Option<&Buildable> {
        let name = make.strip_prefix("Make")?;
        self.plan.types.iter().find(|t| t.name == name)
    }

    /// A plain generated value as a Rust expression of type `ty` (as the harness wrote it).
    fn literal(&self, v: &Value, ty: &str) -> Result<String, String> {
        let inner = |ty: &str| -> String {
            let open = ty.find('<').map_or(ty.len(), |i| i + 1);
            ty[open..ty.len().saturating_sub(usize::from(ty.ends_with('>')))].to_owned()
        };
        Ok(match v {
            Value::Int(digits, t) if self.typed_ints.get() => format!("{digits}{t}"),
            Value::Int(digits, t) => int_literal(digits, t),
            Value::Float(f, t) if self.typed_ints.get() && t == "f32" && f.is_finite() => {
                format!("{}f32", float_literal(*f, t))
            }
            Value::Float(f, t) => float_literal(*f, t),
            Value::Bool(b) => b.to_string(),
            Value::Char(c) => format!("{c:?}"),
            Value::Str(s) if s.is_empty() => "String::new()".into(),
            Value::Str(s) => format!("{s:?}.to_owned()"),
            Value::Unit => "()".into(),
            Value::Seq(items) => {
                let e = inner(ty);
                // Where a generic parameter takes it, `vec![]` leaves its items' type open.
                if items.is_empty() && self.typed_ints.get() && ty.starts_with("Vec<") {
                    return Ok(format!("Vec::<{e}>::new()"));
                }
                if ty == "Vec<u8>"
                    && let Some(text) = byte_string(items)
                {
                    return Ok(if self.bytes_by_ref.get() { text } else { format!("{text}.to_vec()") });
                }
                let mut written: Vec<String> =
                    items.iter().map(|i| self.literal(i, &e)).collect::<Result<_, _>>()?;
                if let Some((item, n)) = repeated(&written).filter(|_| ty.starts_with("Vec<")) {
                    return Ok(format!("vec![{item}; {n}]"));
                }
                // The first number's suffix types them all: `vec![128u8, 128, 1]`.
                for (w, item) in written.iter_mut().zip(items).skip(1) {
                    if let Value::Int(digits, t) = item {
                        *w = int_literal(digits, t);
                    }
                }
                let items = written;
                if ty.starts_with("Vec<") || !ty.contains('<') {
                    format!("vec![{}]", items.join(", "))
                } else {
                    format!("{}::from([{}])", ty.split('<').next().unwrap_or(ty), items.join(", "))
                }
            }
            Value::Array(items) => {
                let e = ty.trim_start_matches('[').split(';').next().unwrap_or("").trim().to_owned();
                let items: Vec<String> =
                    items.iter().map(|i| self.literal(i, &e)).collect::<Result<_, _>>()?;
                format!("[{}]", items.join(", "))
            }
            Value::Option(None) => "None".into(),
            Value::Option(Some(i)) => format!("Some({})", self.literal(i, &inner(ty))?),
            Value::Result(r) => {
                let types = split_types(&inner(ty));
                match r {
                    Ok(v) => format!("Ok({})", self.literal(v, types.first().map_or("", String::as_str))?),
                    Err(e) => format!("Err({})", self.literal(e, types.get(1).map_or("", String::as_str))?),
                }
            }
            Value::Tuple(items) => {
                let types = split_types(ty.trim_start_matches('(').trim_end_matches(')'));
                let items: Vec<String> = items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| self.literal(v, types.get(i).map_or("", String::as_str)))
                    .collect::<Result<_, _>>()?;
                if items.len() == 1 { format!("({},)", items[0]) } else { format!("({})", items.join(", ")) }
            }
            Value::Map(entries) => {
                let types = split_types(&inner(ty));
                let (k, val) =
                    (types.first().cloned().unwrap_or_default(), types.get(1).cloned().unwrap_or_default());
                let items: Vec<String> = entries
                    .iter()
                    .map(|(a, b)| Ok(format!("({}, {})", self.literal(a, &k)?, self.literal(b, &val)?)))
                    .collect::<Result<_, String>>()?;
                format!("{}::from([{}])", ty.split('<').next().unwrap_or(ty), items.join(", "))
            }
            Value::Variant(..) => return Err("a built value where a plain one was expected".into()),
            Value::Opaque(text) => return Err(format!("a value with no source form ({text})")),
        })
    }
}

/// Whether `f`'s parameter of type `ty` is generic (an `impl Trait`, a type parameter, or
/// any of an instantiated method's): an untyped literal passed to it may infer another type.
fn generic_param(f: &Function, ty: &Ty) -> bool {
    let mut names = Vec::new();
    ty.names(&mut names);
    matches!(ty, Ty::Impl(_))
        || f.instantiated.is_some()
        || f.generics.iter().any(|(g, _)| names.iter().any(|n| n == g))
}

/// From how many equal elements a list is written `[x; n]`.
const REPEAT_FROM: usize = 4;

/// The element and count of a list of at least [`REPEAT_FROM`] equal elements.
fn repeated(items: &[String]) -> Option<(&str, usize)> {
    let first = items.first()?;
    (items.len() >= REPEAT_FROM && items.iter().all(|i| i == first)).then_some((first.as_str(), items.len()))
}

/// Bytes as a byte string literal (`b"GET /\r\n"`) when most of them are text, which
/// reads better than a list of numbers; `None` otherwise, or when one is no `u8`.
fn byte_string(items: &[Value]) -> Option<String> {
    let bytes: Vec<u8> = items
        .iter()
        .map(|v| match v {
            Value::Int(digits, t) if t == "u8" => digits.parse().ok(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    byte_string_of(&bytes)
}

/// [`byte_string`] of the bytes themselves.
fn byte_string_of(bytes: &[u8]) -> Option<String> {
    let text = |b: &u8| b.is_ascii_graphic() || b" \n\t\r\0".contains(b);
    let one_repeated = bytes.len() >= REPEAT_FROM && bytes.iter().all(|&b| b == bytes[0]);
    if bytes.is_empty() || one_repeated || bytes.iter().filter(|b| text(b)).count() * 2 < bytes.len() {
        return None;
    }
    let mut out = String::from("b\"");
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            // `b"\000"` is NUL and two zeros, but reads as an octal escape.
            0 if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => out.push_str("\\x00"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            0 => out.push_str("\\0"),
            b if b.is_ascii_graphic() || b == b' ' => out.push(char::from(b)),
            b => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    Some(out)
}

/// Whether a `&str` meets `bound`, as the `String` the harness passes does.
fn str_meets(bound: &Bound) -> bool {
    let arg = bound.args.first();
    let named = |names: &[&str]| arg.and_then(Ty::plain_or_std_name).is_some_and(|n| names.contains(&n));
    match bound.name.as_str() {
        "AsRef" => {
            named(&["str", "Path", "OsStr"])
                || matches!(arg, Some(Ty::Slice(t)) if t.plain_name() == Some("u8"))
        }
        "Into" => named(&["String"]),
        "Borrow" => named(&["str"]),
        name => {
            bound.args.is_empty()
                && matches!(
                    name,
                    "ToString"
                        | "Display"
                        | "Debug"
                        | "Clone"
                        | "Copy"
                        | "Hash"
                        | "PartialEq"
                        | "Eq"
                        | "PartialOrd"
                        | "Ord"
                        | "Sized"
                        | "Send"
                        | "Sync"
                )
        }
    }
}

/// An IP address the harness made from its bits, written as a person writes it:
/// `std::net::Ipv4Addr::new(10, 0, 0, 1)`, `"::1".parse::<std::net::IpAddr>().unwrap()`.
fn ip(expr: &str, name: &str, digits: &str) -> Option<String> {
    let bits: u128 = digits.parse().ok()?;
    let made = |f: &str| format!("{f}({name})");
    let (from, written) = if expr.contains(&made("std::net::Ipv4Addr::from")) {
        let [a, b, c, d] = std::net::Ipv4Addr::from(u32::try_from(bits).ok()?).octets();
        ("std::net::Ipv4Addr::from", format!("std::net::Ipv4Addr::new({a}, {b}, {c}, {d})"))
    } else if expr.contains(&made("std::net::Ipv6Addr::from")) {
        let text = std::net::Ipv6Addr::from(bits);
        ("std::net::Ipv6Addr::from", format!("\"{text}\".parse::<std::net::Ipv6Addr>().unwrap()"))
    } else if expr.contains(&made("mutfuzz::ip_addr")) {
        // As `mutfuzz::ip_addr` makes it, which the test does not depend on.
        let text = match u32::try_from(bits) {
            Ok(v4) => std::net::Ipv4Addr::from(v4).to_string(),
            Err(_) => std::net::Ipv6Addr::from(bits).to_string(),
        };
        ("mutfuzz::ip_addr", format!("\"{text}\".parse::<std::net::IpAddr>().unwrap()"))
    } else {
        return None;
    };
    Some(expr.replacen(&made(from), &written, 1))
}

/// A `NonZero…` the harness made from its integer (`0` made `MIN`), written as a person
/// writes it: `std::num::NonZeroUsize::new(3).unwrap()`, or `…::MIN` for a `0`.
fn nonzero(expr: &str, name: &str, digits: &str) -> Option<String> {
    let start = expr.find("std::num::NonZero")?;
    let ty = &expr[start..start + expr[start..].find("::new(")?];
    let made = [format!("usize::from({name})"), name.to_owned()]
        .into_iter()
        .map(|int| format!("{ty}::new({int}).unwrap_or({ty}::MIN)"))
        .find(|made| expr.contains(made.as_str()))?;
    let written = match digits {
        "0" => format!("{ty}::MIN"),
        _ => format!("{ty}::new({digits}).unwrap()"),
    };
    Some(expr.replacen(&made, &written, 1))
}

/// A `Duration` of `nanos` in the largest unit that holds it whole: `from_secs(3600)`,
/// not `from_nanos(3600000000000)`.
fn duration(nanos: u64) -> String {
    if nanos == 0 {
        return "std::time::Duration::ZERO".to_owned();
    }
    let (unit, name) = [(1_000_000_000, "secs"), (1_000_000, "millis"), (1_000, "micros")]
        .into_iter()
        .find(|(unit, _)| nanos.is_multiple_of(*unit))
        .unwrap_or((1, "nanos"));
    format!("std::time::Duration::from_{name}({})", nanos / unit)
}

fn field(name: &str, value: &str) -> String {
    if name == value { name.to_owned() } else { format!("{name}: {value}") }
}

/// Whether a result of type `ty` compares by value with the literal its `Debug` text is:
/// primitives, strings (a `Cow<str>` too: it equals a `&str`), the crate's `enums` whose
/// variants hold such values, and `Option`s and `Vec`s of them.
fn plain(ty: &Ty, enums: &[ValueEnum]) -> bool {
    let plain = |t: &Ty| plain(t, enums);
    match ty {
        Ty::Ref { inner, .. } => matches!(inner.plain_name(), Some("str")) || plain(inner),
        Ty::Path { .. } => match (ty.name(), ty.args()) {
            (Some(n), []) => {
                INTEGERS.contains(&n)
                    || PRIMITIVES.contains(&n)
                    || matches!(n, "str" | "Ordering")
                    // `fmt::Result`: `Ok(())`.
                    || ty.is_fmt_result()
                    || value_enum(ty, enums).is_some()
            }
            (Some("Option"), [a]) => {
                let str_ref =
                    matches!(a, Ty::Ref { inner, mutable: false } if inner.plain_name() == Some("str"));
                (str_ref || !matches!(a, Ty::Ref { .. }))
                    && plain(a)
                    && (!matches!(a.name(), Some("Vec" | "Cow")) || vec_inside(ty))
            }
            (Some("Vec"), [a]) => a.args().is_empty() && plain(a) && !matches!(a, Ty::Ref { .. }),
            (Some("Cow"), [a]) => a.plain_name() == Some("str"),
            // `Ok(())`, `Err(3)`, `Ok(Some(2))`: a `Result` compares only with its own type,
            // so no `String` or `Vec` that a literal would be another type of.
            (Some("Result"), [_, _]) if vec_inside(ty) => {
                plain(&ty.args()[1]) && ty.args()[1].args().is_empty()
            }
            (Some("Result"), [ok, err]) => [ok, err].iter().all(|t| {
                let bare = |t: &Ty| {
                    !matches!(t, Ty::Ref { .. })
                        && plain(t)
                        && t.args().is_empty()
                        && t.plain_name() != Some("String")
                };
                match t {
                    Ty::Tuple(items) => items.is_empty(),
                    t if t.name() == Some("Option") => t.args().iter().all(bare),
                    t => bare(t),
                }
            }),
            // A generic crate enum at scalar types (bimap's `Overwritten<i64, i64>`).
            _ if value_enum(ty, enums).is_some() => true,
            _ => false,
        },
        // `&[char]` and `[u8; 16]` compare with an array, as a `Vec` does.
        Ty::Slice(a) | Ty::Array(a, _) => a.args().is_empty() && plain(a) && !matches!(**a, Ty::Ref { .. }),
        // A tuple compares only with one of its own types: no `&str` for a `String`.
        Ty::Tuple(items) => {
            !items.is_empty()
                && items.iter().all(|t| {
                    t.plain_name()
                        .is_some_and(|n| INTEGERS.contains(&n) || (PRIMITIVES.contains(&n) && n != "String"))
                })
        }
        _ => false,
    }
}

/// The crate enum of `enums` that `ty` names, with its variants whose fields are numbers,
/// `char`s, `bool`s or `&str`s (a `String`'s text is a `&str`, a `Vec`'s an array): a
/// result's text naming only those is written as source (matchit's `Err(InvalidParam)`,
/// though `Conflict { with: String }` is not). Named alone or through `crate::` (a path
/// through another crate is that crate's type of the name: `io::Error`).
fn value_enum<'e>(ty: &Ty, enums: &'e [ValueEnum]) -> Option<(&'e ValueEnum, Vec<&'e str>)> {
    let Ty::Path { segments, args, .. } = ty else { return None };
    let own = segments.len() == 1 || matches!(segments[0].as_str(), "crate" | "self" | "super");
    let name = segments.last()?;
    if !own {
        return None;
    }
    // A field of a type parameter holds what the result's type names there.
    let field = |e: &ValueEnum, ty: &Ty| {
        let ty = match e.params.iter().position(|p| ty.plain_name() == Some(p.as_str())) {
            Some(i) => &args[i],
            None => ty,
        };
        scalar(ty) || matches!(ty, Ty::Ref { inner, mutable: false } if inner.plain_name() == Some("str"))
    };
    let e = enums.iter().find(|e| &e.name == name && e.params.len() == args.len())?;
    let writable: Vec<&str> = e
        .variants
        .iter()
        .filter(|(_, fields)| fields.iter().all(|f| field(e, f)))
        .map(|(v, _)| v.as_str())
        .collect();
    (!writable.is_empty()).then_some((e, writable))
}

fn scalar(ty: &Ty) -> bool {
    ty.plain_name().is_some_and(|n| INTEGERS.contains(&n) || (PRIMITIVES.contains(&n) && n != "String"))
}

/// An `Option` or a `Result` of a `Vec` of what a literal writes but a `String`, which a
/// `vec!` of string literals would not compare with.
fn vec_inside(ty: &Ty) -> bool {
    let vec = ty.args().first().filter(|_| matches!(ty.name(), Some("Option" | "Result")));
    vec.filter(|v| v.name() == Some("Vec")).and_then(|v| v.args().first()).is_some_and(|item| {
        item.args().is_empty() && !matches!(item, Ty::Ref { .. }) && item.plain_name() != Some("String")
    })
}

/// `text`, a value's `Debug`, as source where `ty` holds an `Ordering` or one of the
/// crate's `enums`, whose `Debug` is the variant alone: `Some(Greater)` is
/// `Some(std::cmp::Ordering::Greater)`, `Err(PreContext(11))` is
/// `Err(k::Incomplete::PreContext(11))`. `None` where the text names anything else (an
/// atomic `Ordering`'s `SeqCst`), or a variant two of them have. A `Vec` in an `Option`
/// or a `Result` is written `Some(vec![…])`.
fn with_paths(ty: Option<&Ty>, text: &str, enums: &[ValueEnum]) -> Option<String> {
    let text = enum_paths(ty, text, enums)?;
    let text = match ty.is_some_and(pointer_sized_only) {
        true => pointer_sized_bounds(&text),
        false => text,
    };
    // An array compares with no `Option<Vec<_>>`: `Some([0, 0])` is `Some(vec![0, 0])`.
    let wrapper = match ty.filter(|t| vec_inside(t)).and_then(Ty::name) {
        Some("Option") => "Some",
        Some(_) => "Ok",
        None => return Some(text),
    };
    match text.strip_prefix(wrapper).and_then(|t| t.strip_prefix("([")) {
        Some(rest) => Some(format!("{wrapper}(vec![{rest}")),
        None => Some(text),
    }
}

/// Whether the only integers `ty` holds are `usize` and `isize`, so that a bound of a
/// 64-bit one in its text is theirs (see [`pointer_sized_bounds`]).
fn pointer_sized_only(ty: &Ty) -> bool {
    let mut names = Vec::new();
    ty.names(&mut names);
    names.iter().all(|n| !INTEGERS.contains(&n.as_str()) || n == "usize" || n == "isize")
}

/// `text` with the 64-bit bounds of `usize` and `isize` written by name (`usize::MAX`), so
/// that a test compiles, and means the same, where they are 32 bits wide.
fn pointer_sized_bounds(text: &str) -> String {
    let tokens = [
        ("-9223372036854775808", "isize::MIN"),
        ("18446744073709551615", "usize::MAX"),
        ("9223372036854775807", "isize::MAX"),
    ];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'outer: while !rest.is_empty() {
        let boundary = out.chars().last().is_none_or(|c| !c.is_alphanumeric() && c != '_' && c != '-');
        for (digits, name) in tokens {
            if boundary
                && let Some(after) = rest.strip_prefix(digits)
                && !after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                out.push_str(name);
                rest = after;
                continue 'outer;
            }
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// [`with_paths`] but for a `Vec` inside: the variants of `ty`'s enums given their paths.
fn enum_paths(ty: Option<&Ty>, text: &str, enums: &[ValueEnum]) -> Option<String> {
    fn parts<'t>(ty: &'t Ty, out: &mut Vec<&'t Ty>) {
        out.push(ty);
        match ty {
            Ty::Path { args, .. } => args.iter().for_each(|a| parts(a, out)),
            Ty::Ref { inner, .. } | Ty::Slice(inner) | Ty::Array(inner, _) => parts(inner, out),
            Ty::Tuple(items) => items.iter().for_each(|t| parts(t, out)),
            Ty::Impl(_) | Ty::Other(_) => {}
        }
    }
    let mut types = Vec::new();
    if let Some(ty) = ty {
        parts(ty, &mut types);
    }
    let mut variants: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    if types.iter().any(|t| t.name() == Some("Ordering")) {
        for v in ["Less", "Equal", "Greater"] {
            variants.entry(v).or_default().push(format!("std::cmp::Ordering::{v}"));
        }
    }
    // A variant the text may not name (its fields are no literals) is left out: its
    // word then stops the writing.
    for (e, writable) in types.iter().filter_map(|t| value_enum(t, enums)) {
        for v in writable {
            let path = format!("{}::{v}", e.path);
            let paths = variants.entry(v).or_default();
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
    }
    if variants.is_empty() {
        return Some(text.to_owned());
    }
    let mut out = String::new();
    let mut word = String::new();
    let mut chars = text.chars().chain(std::iter::once(' ')).peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        // A named field (`offset: 3`) is written as it is.
        let field = c == ':' && chars.peek() != Some(&':');
        match (word.as_str(), variants.get(word.as_str()).map(Vec::as_slice)) {
            // A crate's variant named `None` would be read as the prelude's.
            ("Some" | "None" | "Ok" | "Err" | "true" | "false", Some(_)) => return None,
            ("Some" | "None" | "Ok" | "Err" | "true" | "false", None) => out.push_str(&word),
            (w, _) if field => out.push_str(w),
            (_, Some([path])) => out.push_str(path),
            (w, _) if w.starts_with(|c: char| c.is_alphabetic()) => return None,
            (w, _) => out.push_str(w),
        }
        word.clear();
        out.push(c);
        // A string's or a char's text is written as it is.
        if c == '"' || c == '\'' {
            let mut escaped = false;
            for d in chars.by_ref() {
                out.push(d);
                if escaped {
                    escaped = false;
                } else if d == '\\' {
                    escaped = true;
                } else if d == c {
                    break;
                }
            }
        }
    }
    out.pop();
    Some(out)
}

/// A call whose result is not asserted (it panics first): `let _ =` where there is one,
/// which may be `#[must_use]`.
fn discarded(call: &str, output: &Output) -> String {
    match output {
        Output::Unit => format!("{call};"),
        // An iterator is taken as far as the harness took it: a panic of its `next` (of
        // priority-queue's `iter_mut().rev()`) happens only then.
        Output::Collected => format!("let _ = {};", crate::render::collected(call)),
        Output::Unordered => format!("let _ = {call}.collect::<Vec<_>>();"),
        _ => format!("let _ = {call};"),
    }
}

/// The assertion on a float result that no literal is: `f32::INFINITY`, or `is_nan()`.
fn special_float(call: &str, ty: &Ty, text: &str) -> Option<String> {
    let float = ty.plain_name().filter(|n| matches!(*n, "f32" | "f64"))?;
    Some(match text {
        "NaN" => format!("assert!({call}.is_nan());"),
        "inf" => format!("assert_eq!({call}, {float}::INFINITY);"),
        "-inf" => format!("assert_eq!({call}, {float}::NEG_INFINITY);"),
        _ => return None,
    })
}

/// A `Vec<u8>` result whose bytes are mostly text, as a byte string to compare it with
/// (`b"'\0'"` rather than `[39, 0, 39]`).
fn byte_string_result(ty: &Ty, text: &str) -> Option<String> {
    let is_bytes = ty.name() == Some("Vec") && ty.args().first().and_then(Ty::plain_name) == Some("u8");
    let list = text.strip_prefix('[')?.strip_suffix(']')?;
    if !is_bytes {
        return None;
    }
    if list.is_empty() {
        // `[]` would leave the item type to infer.
        return Some("b\"\"".to_owned());
    }
    let bytes: Vec<u8> = list.split(", ").map(|b| b.parse().ok()).collect::<Option<_>>()?;
    byte_string_of(&bytes)
}

/// Whether `Debug` text reads back as the same value in Rust source.
fn literal(text: &str) -> bool {
    !text.contains("NaN") && !text.contains("inf") && syn::parse_str::<syn::Expr>(text).is_ok()
}

/// `call`, of type `ty`, as the value a literal compares with: a `&u8` or a `&Kind`
/// does not equal `3` or `Kind::A`, where a `&str` and a `&[u8]` equal theirs as they are.
fn dereferenced(call: &str, ty: &Ty) -> String {
    match ty {
        Ty::Ref { inner, .. } if !matches!(**inner, Ty::Slice(_)) && inner.plain_name() != Some("str") => {
            format!("*{}", dereferenced(call, inner))
        }
        _ => call.to_owned(),
    }
}

fn assert_value(expr: &str, text: &str) -> String {
    match text {
        "true" => format!("assert!({expr});"),
        "false" => format!("assert!(!{expr});"),
        _ => format!("assert_eq!({expr}, {});", long_literal(text)),
    }
}

/// A comparison of two values' hashes, as the harness's `mutfuzz::same_hash` (or
/// `same_hash_checked`) made it, with std alone: one `RandomState` hashes both. Equal
/// values that hash apart break `Hash`'s contract: a test would assert the defect.
fn hash_step(binding: &str, other: &str, text: &str) -> Result<Vec<String>, String> {
    if text == "None" {
        return Err(
            "the original's `Hash` disagrees with its `PartialEq` here: equal values hash apart".into()
        );
    }
    // Named apart from the value's own binding (a type `HashState`'s is `hash_state`).
    let state = if binding == "hash_state" { "hasher_state" } else { "hash_state" };
    let hash = |value: &str| format!("std::hash::BuildHasher::hash_one(&{state}, {value})");
    let check = if matches!(text, "true" | "Some(true)") { "assert_eq" } else { "assert_ne" };
    // `hash_one` takes any `Hash` by value: a temporary needs no borrow (clippy's
    // `needless_borrows_for_generic_args`); a binding or a path (`k::STATIC`, not moved
    // out of) keeps it.
    let other = match other.strip_prefix('&') {
        Some(value) if !value.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':') => value,
        _ => other,
    };
    Ok(vec![
        format!("let {state} = std::collections::hash_map::RandomState::new();"),
        format!("{check}!({}, {});", hash(&format!("&{binding}")), hash(other)),
    ])
}

/// The compound assignment operator of a method of std's `…Assign` traits (`/=` of
/// `DivAssign::div_assign`), called on the value itself.
fn assign_operator(m: &Call) -> Option<&'static str> {
    let ops = [
        ("AddAssign", "+="),
        ("SubAssign", "-="),
        ("MulAssign", "*="),
        ("DivAssign", "/="),
        ("RemAssign", "%="),
        ("BitAndAssign", "&="),
        ("BitOrAssign", "|="),
        ("BitXorAssign", "^="),
        ("ShlAssign", "<<="),
        ("ShrAssign", ">>="),
    ];
    let name = m.function.trait_?.name;
    let receiver = m.function.receiver == Some(crate::scan::Receiver::RefMut);
    ops.iter()
        .find(|(t, _)| *t == name)
        .filter(|_| receiver && !m.rebinds && m.adapter.is_none())
        .map(|(_, op)| *op)
}

/// `lines` with a binding hashed at its last use passed by value (`hash_one(&hash_state,
/// ratio)`): clippy's `needless_borrows_for_generic_args` asks so of a borrow nothing
/// after needs, as in a test without its assertions on the last state.
fn hash_last_use_by_value(mut lines: Vec<String>) -> Vec<String> {
    for state in ["hash_state", "hasher_state"] {
        let borrow = format!("hash_one(&{state}, &");
        for i in 0..lines.len() {
            let Some(at) = lines[i].find(&borrow) else { continue };
            let start = at + borrow.len();
            let name: String =
                lines[i][start..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let after = &lines[i][start + name.len()..];
            let names_it = |l: &str| reached_words(l).any(|w| w == name);
            // Not where the other side of the comparison, or a later line, names it too.
            let used_after = names_it(after) || lines[i + 1..].iter().any(|l| names_it(l));
            if name.is_empty() || !after.starts_with(')') || used_after {
                continue;
            }
            lines[i].replace_range(start - 1..start, "");
        }
    }
    lines
}

/// The words of a line of code.
fn reached_words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty())
}

/// The assertion on an iterator's items as the target rendered them: compared as a `Vec`
/// where they are values (`by_value`: not references, which a literal is not) written as
/// plain literals and fewer than the bound (so the iterator ended and needs no `take`):
/// `assert_eq!(k::decode(b"%f0").collect::<Vec<_>>(), [240]);`.
fn assert_collected(call: &str, text: &str, by_value: bool) -> String {
    let items = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')).map(split_top).unwrap_or_default();
    let plain = |item: &String| match syn::parse_str::<syn::Expr>(item) {
        Ok(e) => plain_literal(&e),
        Err(_) => false,
    };
    // Fewer items than the harness takes: the iterator ended, and needs no bound. Only
    // where every item reads as Rust, so that none was miscounted (`->` in an item).
    let ended = items.len() < crate::render::ITEMS_RENDERED
        && items.iter().all(|i| syn::parse_str::<syn::Expr>(i).is_ok());
    if text == "[]" {
        // No items: `[]` would leave their type to infer, and a count needs none.
        format!("assert_eq!({call}.count(), 0);")
    } else if by_value && !items.is_empty() && ended && items.iter().all(plain) {
        format!("assert_eq!({call}.collect::<Vec<_>>(), {});", long_literal(text))
    } else if ended {
        assert_debug(&format!("{call}.collect::<Vec<_>>()"), text)
    } else {
        assert_debug(&collected(call), text)
    }
}

/// Assertions on the items of an iterator over a hash container, which come in an order
/// that differs between runs: sorted by their `Debug` texts, as the harness sorts them.
fn assert_unordered(call: &str, text: &str) -> Vec<String> {
    if text == "[]" {
        return vec![format!("assert_eq!({call}.count(), 0);")];
    }
    vec![
        format!("let mut items: Vec<_> = {call}.collect();"),
        "items.sort_by_key(|item| format!(\"{item:?}\"));".to_owned(),
        assert_debug("items", text),
    ]
}

/// A literal (negated, in `Some` or a tuple), or `None`: what compares with a result as
/// written.
fn plain_literal(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Tuple(t) => !t.elems.is_empty() && t.elems.iter().all(plain_literal),
        syn::Expr::Lit(l) => !matches!(l.lit, syn::Lit::Verbatim(_)),
        syn::Expr::Unary(u) => matches!(u.op, syn::UnOp::Neg(_)) && plain_literal(&u.expr),
        syn::Expr::Path(p) => p.path.is_ident("None"),
        syn::Expr::Call(c) => {
            matches!(&*c.func, syn::Expr::Path(p) if p.path.is_ident("Some"))
                && c.args.len() == 1
                && c.args.iter().all(plain_literal)
        }
        _ => false,
    }
}

/// Whether a collected iterator's rendering was cut at its bound (whole, a `Vec`'s `Debug`
/// ends with `]`).
fn cut(text: &str) -> bool {
    text.ends_with('…')
}

/// A `Result` the whole of which no literal compares with, by the part it was:
/// [`ok_value`], or an `Err` of a plain error (punycode's `Result<String, ()>`:
/// `assert_eq!(punycode::decode("\u{80}-"), Err(()));`).
fn result_part(call: &str, ty: &Ty, text: &str, enums: &[ValueEnum]) -> Option<String> {
    if let Some(line) = ok_value(call, ty, text, enums) {
        return Some(line);
    }
    let [_, err] = ty.args() else { return None };
    if ty.name() != Some("Result") {
        return None;
    }
    let inner = text.strip_prefix("Err(")?.strip_suffix(')')?;
    let unit = matches!(err, Ty::Tuple(items) if items.is_empty()) && inner == "()";
    let written = match unit {
        true => "()".to_owned(),
        false if plain(err, enums) && literal(inner) && err.plain_name() != Some("String") => {
            with_paths(Some(err), inner, enums)?
        }
        false => return None,
    };
    Some(format!("assert_eq!({call}, Err({written}));"))
}

/// A `Result` whose error type compares with nothing (`io::Result<u16>`) that was `Ok`:
/// unwrapped, and the value compared where it is plain (`assert_eq!(call.unwrap(), 258);`,
/// `call.unwrap();` for `Ok(())`).
fn ok_value(call: &str, ty: &Ty, text: &str, enums: &[ValueEnum]) -> Option<String> {
    let ok = ty.args().first().filter(|_| ty.name() == Some("Result"))?;
    let inner = text.strip_prefix("Ok(")?.strip_suffix(')')?;
    match ok {
        Ty::Tuple(items) if items.is_empty() && inner == "()" => Some(format!("{call}.unwrap();")),
        _ if plain(ok, enums) && literal(inner) => with_paths(Some(ok), inner, enums)
            .map(|v| assert_value(&dereferenced(&format!("{call}.unwrap()"), ok), &v)),
        _ => None,
    }
}

/// A body whose result [`shown`] asserted on, with its `Display` alone, unbound:
/// `assert_eq!(k::stamp(3).to_string(), "3s");`. `None` where it has no `Debug` line.
fn display_only(body: &[String]) -> Option<Vec<String>> {
    let at = body.iter().position(|l| l.starts_with("let shown = "))?;
    let call = body[at].strip_prefix("let shown = ")?.strip_suffix(';')?;
    let display = body.get(at + 1)?.strip_prefix("assert_eq!(shown.to_string(), ")?;
    if !body.get(at + 2)?.starts_with("assert_eq!(format!(\"{shown:?}\")") {
        return None;
    }
    let mut lean = body[..at].to_vec();
    lean.push(format!("assert_eq!({call}.to_string(), {display}"));
    lean.extend_from_slice(&body[at + 3..]);
    Some(lean)
}

/// Assertions on a value `mutfuzz::shown` rendered (`text`, its `Debug`): its `Display`,
/// then its `Debug` where no address was masked in it and it is the same on every
/// platform. Bound to `shown`, in a block of its own inside a sequence (whose bindings a
/// later step may use).
fn shown(call: &str, text: &str, in_block: bool) -> Result<Vec<String>, String> {
    let strings: Vec<String> = match syn::parse_str::<syn::ExprTuple>(text) {
        Ok(t) => t
            .elems
            .iter()
            .map(|e| match e {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Ok(s.value()),
                _ => Err(()),
            })
            .collect::<Result<_, _>>()
            .map_err(|()| format!("not a rendered pair of strings: {text}"))?,
        Err(_) => return Err(format!("not a rendered pair of strings: {text}")),
    };
    let [display, debug] = &strings[..] else {
        return Err(format!("not a rendered pair of strings: {text}"));
    };
    // Nor where it shows std's clock types, whose `Debug` differs between platforms
    // (`SystemTime { tv_sec: 0, tv_nsec: 0 }` on Unix).
    let portable = !["SystemTime {", "Instant {"].iter().any(|t| debug.contains(t));
    if debug.contains(mutfuzz_contract::ADDRESS_MASK) || !portable {
        return Ok(vec![format!("assert_eq!({call}.to_string(), {});", string(display))]);
    }
    let lines = [
        format!("let shown = {call};"),
        format!("assert_eq!(shown.to_string(), {});", string(display)),
        assert_debug("shown", debug),
    ];
    if in_block {
        return Ok(vec![format!("{{\n        {}\n    }}", lines.join("\n        "))]);
    }
    Ok(lines.to_vec())
}

fn assert_debug(expr: &str, text: &str) -> String {
    let simple = expr.chars().all(|c| c.is_alphanumeric() || c == '_');
    // A text of many lines (a type's internal table) is no assertion a reviewer reads:
    // the call stays, for a panic, and the check drops a test that then catches nothing.
    if text.chars().count() > LONGEST_DEBUG {
        return match simple {
            true => format!("// `{expr}`'s `Debug` ({} characters) is not compared.", text.chars().count()),
            false => format!("let _ = {expr};"),
        };
    }
    if simple {
        format!("assert_eq!(format!(\"{{{expr}:?}}\"), {});", string(text))
    } else {
        format!("assert_eq!(format!(\"{{:?}}\", {expr}), {});", string(text))
    }
}

/// The longest `Debug` text compared: about eight lines of `concat!`.
const LONGEST_DEBUG: usize = 600;

/// Escaped characters of a piece of a long string literal, at most: with the
/// indentation rustfmt gives `concat!`'s arguments in an assertion, a line stays within
/// its 100 columns, which it does not break string literals to keep.
const PIECE_WIDTH: usize = 72;
/// The longest string literal written whole: on a line of its own in an assertion, it
/// fits.
const WHOLE_WIDTH: usize = 90;

/// `text` as a string literal; a long one as `concat!` of pieces ending at spaces where
/// it can, one a line once formatted.
fn string(text: &str) -> String {
    let whole = format!("{text:?}");
    if whole.chars().count() <= WHOLE_WIDTH {
        return whole;
    }
    let mut pieces = Vec::new();
    let mut piece = String::new();
    let mut width = 0;
    // Split after a space where one is in the last half of a piece, else anywhere: a
    // `Debug` text's field names run to 40 chars (httparse's
    // `ignore_invalid_headers_in_responses`).
    for c in text.chars() {
        let w = c.escape_debug().count();
        if width + w > PIECE_WIDTH {
            let cut = piece.rfind(' ').filter(|&i| i + 1 >= piece.len() / 2).map_or(piece.len(), |i| i + 1);
            let rest = piece.split_off(cut);
            pieces.push(std::mem::replace(&mut piece, rest));
            width = piece.chars().map(|c| c.escape_debug().count()).sum();
        }
        piece.push(c);
        width += w;
    }
    pieces.push(piece);
    let literals: Vec<String> = pieces.iter().map(|p| format!("{p:?}")).collect();
    format!("concat!({})", literals.join(", "))
}

/// A literal as written, or through [`string`] where it is a string literal.
fn long_literal(literal: &str) -> String {
    match syn::parse_str::<syn::LitStr>(literal) {
        Ok(s) => string(&s.value()),
        Err(_) => literal.to_owned(),
    }
}

/// The string a `Debug`-rendered `String` holds.
fn unquote(text: &str) -> Result<String, String> {
    syn::parse_str::<syn::LitStr>(text)
        .map(|l| l.value())
        .map_err(|_| format!("not a rendered string: {text}"))
}

/// The strings of a `Debug`-rendered `Vec<String>`.
fn string_list(text: &str) -> Result<Vec<String>, String> {
    let array: syn::ExprArray = syn::parse_str(text).map_err(|_| format!("not a rendered list: {text}"))?;
    array
        .elems
        .iter()
        .map(|e| match e {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Ok(s.value()),
            _ => Err("not a list of strings".to_owned()),
        })
        .collect()
}

/// The top-level parts of `Debug` text of a tuple `(a, b)` (or the text, for one part).
fn split_tuple(text: &str, n: usize) -> Option<Vec<String>> {
    if n == 1 {
        return Some(vec![text.to_owned()]);
    }
    let inner = text.strip_prefix('(')?.strip_suffix(')')?;
    let parts = split_top(inner);
    (parts.len() == n).then_some(parts)
}

/// Splits at commas outside brackets and quotes.
/// `t` with each assertion made a plain evaluation of what it checked: `assert_eq!(f(x),
/// 3);` becomes `let _ = f(x);`. For a target whose results differ from run to run, which
/// kills by panics and runaways alone: the test still runs the code, and fails where the
/// mutant panics.
pub fn without_assertions(mut t: TestFn) -> TestFn {
    let mut out = String::new();
    let mut rest = t.text.as_str();
    while let Some(start) =
        ["assert_eq!(", "assert_ne!(", "assert!("].iter().filter_map(|m| rest.find(m)).min()
    {
        out.push_str(&rest[..start]);
        let open = start + rest[start..].find('(').unwrap_or(0);
        let Some(close) = matching_paren(&rest[open..]).map(|c| open + c) else {
            out.push_str(&rest[start..]);
            rest = "";
            break;
        };
        let parts = split_top(&rest[open + 1..close]);
        let checked = parts.first().map_or("()", String::as_str);
        rest = rest[close + 1..].strip_prefix(';').unwrap_or(&rest[close + 1..]);
        // The built value's `Debug` (`format!("{rng:?}")`) runs nothing worth a line.
        let debug_of_binding = checked
            .strip_prefix("format!(\"{")
            .and_then(|c| c.strip_suffix(":?}\")"))
            .is_some_and(|name| name.chars().all(|c| c.is_alphanumeric() || c == '_'));
        if debug_of_binding {
            out.truncate(out.trim_end_matches(' ').len());
            rest = rest.strip_prefix('\n').unwrap_or(rest);
            continue;
        }
        out.push_str(&format!("let _ = {};", checked.strip_prefix('!').unwrap_or(checked)));
    }
    out.push_str(rest);
    t.text = out;
    t.lean = None;
    t
}

/// The index of the `)` closing the `(` that `text` starts with, past string and char
/// literals.
fn matching_paren(text: &str) -> Option<usize> {
    source_walk(text).find(|&(_, c, code, depth)| code && c == ')' && depth == 0).map(|(i, ..)| i)
}

/// `text` split at its top-level commas, each part trimmed.
fn split_top(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    for (_, c, code, depth) in source_walk(text) {
        if code && c == ',' && depth == 0 {
            parts.push(std::mem::take(&mut cur).trim().to_owned());
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        parts.push(cur.trim().to_owned());
    }
    parts
}

/// Each character of `text` read as Rust source: its byte index, whether it is code
/// (outside a string or char literal), and the bracket depth after it.
fn source_walk(text: &str) -> impl Iterator<Item = (usize, char, bool, i32)> + '_ {
    let (mut depth, mut quote, mut escaped) = (0i32, None::<char>, false);
    text.char_indices().map(move |(i, c)| {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            return (i, c, false, depth);
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            _ => {}
        }
        (i, c, true, depth)
    })
}

fn split_types(text: &str) -> Vec<String> {
    split_top(text)
}

fn int_literal(digits: &str, ty: &str) -> String {
    let bounds = [("MIN", int_min(ty)), ("MAX", int_max(ty))];
    for (name, b) in bounds {
        if b.as_deref() == Some(digits) {
            return format!("{ty}::{name}");
        }
    }
    // `9223372036854775808` says less than `1 << 63` (unsigned: a signed one may overflow).
    if ty.starts_with('u')
        && let Ok(v) = digits.parse::<u128>()
        && v.is_power_of_two()
        && v >= 1 << 32
    {
        return format!("1 << {}", v.trailing_zeros());
    }
    digits.to_owned()
}

fn int_min(ty: &str) -> Option<String> {
    Some(match ty {
        "i8" => i8::MIN.to_string(),
        "i16" => i16::MIN.to_string(),
        "i32" => i32::MIN.to_string(),
        "i64" => i64::MIN.to_string(),
        "i128" => i128::MIN.to_string(),
        "isize" => isize::MIN.to_string(),
        _ => return None,
    })
}

fn int_max(ty: &str) -> Option<String> {
    Some(match ty {
        "i8" => i8::MAX.to_string(),
        "i16" => i16::MAX.to_string(),
        "i32" => i32::MAX.to_string(),
        "i64" => i64::MAX.to_string(),
        "i128" => i128::MAX.to_string(),
        "isize" => isize::MAX.to_string(),
        "u8" => u8::MAX.to_string(),
        "u16" => u16::MAX.to_string(),
        "u32" => u32::MAX.to_string(),
        "u64" => u64::MAX.to_string(),
        "u128" => u128::MAX.to_string(),
        "usize" => usize::MAX.to_string(),
        _ => return None,
    })
}

fn float_literal(f: f64, ty: &str) -> String {
    if f.is_nan() {
        format!("{ty}::NAN")
    } else if f.is_infinite() {
        format!("{}{ty}::INFINITY", if f < 0.0 { "-" } else { "" })
    } else if ty == "f32" {
        format!("{:?}", f as f32)
    } else {
        format!("{f:?}")
    }
}

/// Longest line of a written comment, as rustfmt's default `max_width`: rustfmt leaves
/// comments as they are, so a reviewer would otherwise scroll.
const COMMENT_WIDTH: usize = 100;

/// Appends `text` as `//` comment lines of at most [`COMMENT_WIDTH`] columns, broken
/// between words, continuation lines indented; a word longer than a line stays whole.
/// A test's comment of the mutants it kills: each, up to [`KILLS_LISTED`]; past that the
/// first of them and a count (one of rust-stemmers' tests kills 440), which the report of
/// `cargo mutfuzz test` lists in full.
fn push_kills(out: &mut String, kills: &[impl AsRef<str>]) {
    push_kills_and(out, kills, 0);
}

/// [`push_kills`] of `kills` and `unnamed` more the comment does not name.
fn push_kills_and(out: &mut String, kills: &[impl AsRef<str>], unnamed: usize) {
    let all = kills.len() + unnamed;
    let listed = if all > KILLS_LISTED { (KILLS_LISTED - 2).min(kills.len()) } else { kills.len() };
    for k in &kills[..listed] {
        push_wrapped_comment(out, &format!("Kills {}", k.as_ref()));
    }
    if listed < all {
        let more = all - listed;
        push_wrapped_comment(out, &format!("Kills {more} more (`cargo mutfuzz report` names each)"));
    }
}

/// The longest a call sequence's test name grows by its calls (the first is always in).
const NAME_WIDTH: usize = 60;

/// The most mutants a test's comment names one by one.
pub const KILLS_LISTED: usize = 12;

fn push_wrapped_comment(out: &mut String, text: &str) {
    let mut line = String::from("//");
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.chars().count() + 1 + word.chars().count() > COMMENT_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = String::from("//   ");
        }
        line.push(' ');
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn api(src: &str) -> (Plan, Generated) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), src).unwrap();
        let api = crate::read(&dir.path().join("src/lib.rs"), "k", &BTreeSet::new()).unwrap();
        let h = crate::generate(&api, "k", &Default::default());
        (h.plan, h.module)
    }

    fn s(x: &str) -> Value {
        Value::Str(x.into())
    }

    fn int(x: &str, t: &str) -> Value {
        Value::Int(x.into(), t.into())
    }

    #[test]
    fn tests_left_after_a_drop_are_numbered_without_gaps() {
        let t = |name: &str, base: &str| TestFn {
            name: name.into(),
            text: format!("#[test]\nfn {name}() {{\n    {name}_helper();\n}}\n"),
            base: base.into(),
            harness: false,
            uses: Vec::new(),
            args_name: None,
            lean: None,
        };
        let mut tests = vec![t("f_2", "f"), t("f_4", "f"), t("g", "g"), t("f_2_2", "f_2")];
        renumber(&mut tests);
        let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["f", "f_2", "g", "f_2_2"]);
        assert_eq!(tests[1].text, "#[test]\nfn f_2() {\n    f_4_helper();\n}\n");

        // Told apart by their arguments where no other of the group shares them; the
        // rest numbered.
        let named = |name: &str, base: &str, args: Option<&str>| TestFn {
            args_name: args.map(str::to_owned),
            ..t(name, base)
        };
        let mut tests = vec![
            named("pow", "pow", Some("2_9")),
            named("pow_2", "pow", Some("minus_1_3")),
            named("inv", "inv", Some("0")),
            named("inv_2", "inv", None),
            named("len", "len", Some("empty")),
            named("neg", "neg", Some("1")),
            named("neg_2", "neg", Some("1")),
        ];
        renumber(&mut tests);
        let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["pow_2_9", "pow_minus_1_3", "inv_0", "inv", "len", "neg", "neg_2"]);
        let args = |v: &[Value]| args_name(&v.iter().collect::<Vec<_>>());
        assert_eq!(args(&[int("-1", "i32"), Value::Bool(true)]).as_deref(), Some("minus_1_true"));
        assert_eq!(args(&[s(""), Value::Char('Q'), Value::Option(None)]).as_deref(), Some("empty_q_none"));
        assert_eq!(args(&[s("a b")]), None);
        assert_eq!(args(&[int("7155785184261965967", "i64"), int("1", "i64")]), None);
    }

    #[test]
    fn bytes_that_are_mostly_text_are_written_as_a_byte_string() {
        let (plan, module) = api("pub fn crc(data: &[u8]) -> u32 { 0 }\n\
             pub fn decode(data: Vec<u8>) -> usize { 0 }\n\
             pub fn parse<R: AsRef<[u8]>>(input: R) -> usize { 0 }\n\
             pub fn scan(input: impl AsRef<[u8]>) -> usize { 0 }\n");
        let bytes = |b: &[u8]| Value::Seq(b.iter().map(|b| int(&b.to_string(), "u8")).collect());
        // Any `AsRef<[u8]>` takes the byte string as it is.
        for target in ["parse", "scan"] {
            let value = bytes(b"=F0");
            let kept = Kept { target, value: &value, ending: "7", kills: &[] };
            let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text;
            assert!(t.contains(&format!(r#"assert_eq!(k::{target}(b"=F0"), 7);"#)), "{t}");
        }
        let mut taken = BTreeSet::new();
        let mut test = |target: &str, value: &Value| {
            let kept = Kept { target, value, ending: "7", kills: &[] };
            write(&plan, &module, &kept, &mut taken).unwrap().text
        };
        let t = test("crc", &bytes(b"GET \"/\"\r\n\0\x7f"));
        assert!(t.contains(r#"assert_eq!(k::crc(b"GET \"/\"\r\n\0\x7f"), 7);"#), "{t}");
        let t = test("crc", &bytes(b"\x0000"));
        assert!(t.contains(r#"assert_eq!(k::crc(b"\x0000"), 7);"#), "{t}");
        let t = test("decode", &bytes(b"0\0"));
        assert!(t.contains(r#"assert_eq!(k::decode(b"0\0".to_vec()), 7);"#), "{t}");
        // Mostly not text: numbers; one number repeated: a repeat expression.
        let t = test("crc", &bytes(&[200, 1, 48]));
        assert!(t.contains("assert_eq!(k::crc(&[200, 1, 48]), 7);"), "{t}");
        let t = test("crc", &bytes(&[0; 6]));
        assert!(t.contains("assert_eq!(k::crc(&[0; 6]), 7);"), "{t}");
        let t = test("decode", &bytes(&[0; 4]));
        assert!(t.contains("assert_eq!(k::decode(vec![0; 4]), 7);"), "{t}");
        // A result of bytes is compared with a byte string where they are mostly text.
        let (plan, module) = api("pub fn quote(data: &[u8]) -> Vec<u8> { vec![] }\n");
        for (ending, expected) in [("[39, 0, 39]", r#"b"'\0'""#), ("[200, 1]", "[200, 1]"), ("[]", r#"b"""#)]
        {
            let kept = Kept { target: "quote", value: &bytes(b"\0"), ending, kills: &[] };
            let t = write(&plan, &module, &kept, &mut taken).unwrap().text;
            let line = format!(r#"assert_eq!(k::quote(b"\0"), {expected});"#);
            assert!(t.contains(&line), "{t}");
        }
    }

    #[test]
    fn a_slice_or_a_tuple_of_numbers_is_compared_by_value_and_one_holding_a_string_by_its_debug() {
        let (plan, module) = api("pub fn halves(x: u128) -> (u64, u64) { (0, 0) }\n\
             pub fn named(x: u8) -> (String, u8) { (String::new(), x) }\n\
             pub fn chars(x: u8) -> &'static [char] { &[] }\n\
             pub fn key(x: u8) -> [u8; 2] { [0; 2] }\n");
        let mut taken = BTreeSet::new();
        let mut test = |target: &str, ending: &str| {
            let kept = Kept { target, value: &int("1", "u8"), ending, kills: &[] };
            write(&plan, &module, &kept, &mut taken).unwrap().text
        };
        let t = test("halves", "(0, 1)");
        assert!(t.contains("assert_eq!(k::halves(1), (0, 1));"), "{t}");
        let t = test("chars", "\"['a', 'b']\"");
        assert!(t.contains("assert_eq!(k::chars(1), ['a', 'b']);"), "{t}");
        let t = test("key", "[0, 7]");
        assert!(t.contains("assert_eq!(k::key(1), [0, 7]);"), "{t}");
        let t = test("named", "(\"a\", 1)");
        assert!(t.contains(r#"assert_eq!(format!("{:?}", k::named(1)), "(\"a\", 1)");"#), "{t}");
    }

    #[test]
    fn a_long_expected_string_is_written_in_pieces_that_fit_a_line() {
        assert_eq!(string("Pattern { a: 1 }"), r#""Pattern { a: 1 }""#);
        let text = "Ok(Paths { dir_patterns: [Pattern { original: \"\", tokens: [], is_recursive: false, \
                    has_metachars: false }], require_dir: false, todo: [], scope: Some(\".\\n\") })";
        let written = string(text);
        let expr: syn::ExprMacro = syn::parse_str(&written).unwrap();
        assert!(expr.mac.path.is_ident("concat"), "{written}");
        let pieces: Vec<String> = expr
            .mac
            .parse_body_with(syn::punctuated::Punctuated::<syn::LitStr, syn::Token![,]>::parse_terminated)
            .unwrap()
            .iter()
            .map(syn::LitStr::value)
            .collect();
        assert_eq!(pieces.concat(), text);
        assert!(
            pieces.len() >= 2 && pieces.iter().all(|p| format!("{p:?}").len() <= PIECE_WIDTH + 2),
            "{pieces:?}"
        );
        // At a space where one is near the end of a piece.
        assert!(pieces[..pieces.len() - 1].iter().all(|p| p.ends_with(' ')), "{pieces:?}");
        assert_eq!(long_literal(&format!("{text:?}")), written);
        assert_eq!(long_literal("Some(3)"), "Some(3)");
    }

    #[test]
    fn large_unsigned_powers_of_two_are_written_as_shifts() {
        assert_eq!(int_literal("9223372036854775808", "u64"), "1 << 63");
        assert_eq!(int_literal("65536", "u64"), "65536");
        assert_eq!(int_literal("4294967296", "i64"), "4294967296");
        assert_eq!(int_literal("18446744073709551615", "u64"), "u64::MAX");
    }

    #[test]
    fn a_finished_builders_test_calls_the_function_then_the_finisher() {
        let (plan, module) = api("pub struct Encode<I> { input: I }\n\
             pub fn encode<I: AsRef<[u8]>>(input: I) -> Encode<I> { Encode { input } }\n\
             impl<I: AsRef<[u8]>> Encode<I> { pub fn into_string(self) -> String { String::new() } }\n");
        let value = Value::Seq(vec![int("1", "u8"), int("2", "u8")]);
        let kept = Kept { target: "encode_into_string", value: &value, ending: "\"5\"", kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert_eq!(
            t.text,
            "#[test]\nfn encode_into_string() {\n    assert_eq!(k::encode(vec![1u8, 2]).into_string(), \"5\");\n}\n"
        );
    }

    #[test]
    fn a_finished_builders_steps_are_chained_between_the_function_and_the_finisher() {
        let (plan, module) = api("pub struct Alphabet(u8);\n\
             impl Alphabet { pub const BITCOIN: &'static Self = &Alphabet(0); }\n\
             pub struct Encode<'a, I> { input: I, alpha: &'a Alphabet }\n\
             pub fn encode<I: AsRef<[u8]>>(input: I) -> Encode<'static, I> { todo!() }\n\
             impl<'a, I: AsRef<[u8]>> Encode<'a, I> {\n\
                 pub fn with_alphabet(self, alpha: &'a Alphabet) -> Self { self }\n\
                 pub fn with_check(self) -> Self { self }\n\
                 pub fn with_check_version(self, expected_ver: u8) -> Self { self }\n\
                 pub fn into_string(self) -> String { String::new() }\n\
             }\n");
        let step = |name: &str, fields: Vec<Value>| Value::Variant(name.into(), fields);
        let value = Value::Tuple(vec![
            Value::Seq(vec![int("1", "u8")]),
            Value::Seq(vec![
                step("WithCheck", vec![]),
                step("WithCheck", vec![]),
                step("WithAlphabet", vec![step("Bitcoin", vec![])]),
                step("WithCheckVersion", vec![int("3", "u8")]),
            ]),
        ]);
        let kept = Kept { target: "encode_into_string", value: &value, ending: "\"5\"", kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert_eq!(
            t.text,
            "#[test]\nfn encode_with_check_with_alphabet_into_string() {\n    assert_eq!(k::encode(vec![1u8])\
             .with_check().with_check().with_alphabet(k::Alphabet::BITCOIN).with_check_version(3).into_string(), \
             \"5\");\n}\n"
        );
        // With no step chosen, the two calls alone.
        let value = Value::Tuple(vec![Value::Seq(vec![int("1", "u8")]), Value::Seq(vec![])]);
        let kept = Kept { target: "encode_into_string", value: &value, ending: "\"5\"", kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert!(t.text.contains(
            "fn encode_into_string() {\n    assert_eq!(k::encode(vec![1u8]).into_string(), \"5\");"
        ));
    }

    #[test]
    fn calls_are_written_with_literals_and_value_assertions() {
        let (plan, module) = api("pub fn hamming(a: &str, b: &str) -> Option<usize> { None }\n\
             pub fn sum(v: &[i32], scale: i32) -> i64 { 0 }\n\
             pub fn sort_count(v: &mut Vec<u8>) -> usize { 0 }\n\
             pub fn nth(t: &str, n: usize) -> char { 'a' }\n\
             pub fn quote(s: &str) -> std::borrow::Cow<str> { s.into() }\n");
        let mut taken = BTreeSet::new();
        let kills = ["src/lib.rs:1:40: replace None with Some(0) in hamming".to_owned()];
        let value = Value::Tuple(vec![s("ab"), s("a\"c")]);
        let t = write(
            &plan,
            &module,
            &Kept { target: "hamming", value: &value, ending: "Some(1)", kills: &kills },
            &mut taken,
        )
        .unwrap();
        assert_eq!(
            t.text,
            "// Kills src/lib.rs:1:40: replace None with Some(0) in hamming\n#[test]\nfn hamming() {\n    \
             assert_eq!(k::hamming(\"ab\", \"a\\\"c\"), Some(1));\n}\n"
        );
        let value =
            Value::Tuple(vec![Value::Seq(vec![int("-3", "i32"), int("2147483647", "i32")]), int("2", "i32")]);
        let t = write(
            &plan,
            &module,
            &Kept { target: "sum", value: &value, ending: "4", kills: &[] },
            &mut taken,
        )
        .unwrap();
        assert!(t.text.contains("assert_eq!(k::sum(&[-3, i32::MAX], 2), 4);"), "{}", t.text);
        let value = Value::Seq(vec![int("3", "u8"), int("1", "u8")]);
        let t = write(
            &plan,
            &module,
            &Kept { target: "sort_count", value: &value, ending: "(2, [1, 3])", kills: &[] },
            &mut taken,
        )
        .unwrap();
        assert!(t.text.contains("let mut v = vec![3, 1];\n    assert_eq!(k::sort_count(&mut v), 2);\n    assert_eq!(v, [1, 3]);"), "{}", t.text);
        let value = Value::Tuple(vec![s(""), int("0", "usize")]);
        let t = write(
            &plan,
            &module,
            &Kept { target: "nth", value: &value, ending: "panic: too short", kills: &[] },
            &mut taken,
        )
        .unwrap();
        assert_eq!(
            t.text,
            // Its result, which it never returns, may be `#[must_use]`.
            "#[test]\n#[should_panic(expected = \"too short\")]\nfn nth() {\n    let _ = k::nth(\"\", 0);\n}\n"
        );
        let t = write(
            &plan,
            &module,
            &Kept { target: "hamming", value: &Value::Tuple(vec![s(""), s("")]), ending: "None", kills: &[] },
            &mut taken,
        )
        .unwrap();
        assert_eq!(t.name, "hamming_2");
        // A `Cow<str>` is rendered by `Debug`, and compared with a `&str`.
        let kept = Kept { target: "quote", value: &s(""), ending: r#""\"''\"""#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("assert_eq!(k::quote(\"\"), \"''\");"), "{}", t.text);
    }

    #[test]
    fn a_range_parameter_is_made_from_two_ends_and_written_as_a_range() {
        let (plan, module) = api("use std::ops::{Range, RangeBounds, RangeInclusive};\n\
             pub fn width(r: impl RangeBounds<u32>) -> u64 { 0 }\n\
             pub fn letters(r: RangeInclusive<char>) -> String { String::new() }\n\
             pub fn sum(r: Range<u8>) -> u32 { 0 }\n\
             pub fn cut<R: RangeBounds<usize>>(v: &[u8], r: R) -> usize { 0 }\n\
             pub fn within(r: &Range<i64>) -> bool { true }\n");
        assert!(module.text.contains("k::width(r.0..=r.1)"), "{}", module.text);
        assert!(module.text.contains("k::letters(r.0..=r.1)"), "{}", module.text);
        assert!(module.text.contains("k::sum(r.0..r.1)"), "{}", module.text);
        assert!(module.text.contains("usize::from(r.0)..=usize::from(r.1)"), "{}", module.text);
        let mut taken = BTreeSet::new();
        let mut one = |target: &str, value: Value| {
            write(&plan, &module, &Kept { target, value: &value, ending: "2", kills: &[] }, &mut taken)
                .unwrap()
                .text
        };
        let t = one("width", Value::Tuple(vec![int("1", "u32"), int("2", "u32")]));
        assert!(t.contains("assert_eq!(k::width(1..=2), 2);"), "{t}");
        let t = one("sum", Value::Tuple(vec![int("0", "u8"), int("2", "u8")]));
        assert!(t.contains("assert_eq!(k::sum(0..2), 2);"), "{t}");
        let t = one("letters", Value::Tuple(vec![Value::Char('a'), Value::Char('c')]));
        assert!(t.contains("k::letters('a'..='c')"), "{t}");
        let ends = Value::Tuple(vec![int("0", "u16"), int("3", "u16")]);
        let t = one("cut", Value::Tuple(vec![Value::Seq(vec![int("7", "u8")]), ends]));
        assert!(t.contains("assert_eq!(k::cut(&[7], 0..=3), 2);"), "{t}");
        // A borrowed range is made as one is, and written borrowed.
        assert!(module.text.contains("k::within(&(r.0..r.1))"), "{}", module.text);
        let t = one("within", Value::Tuple(vec![int("-1", "i64"), int("4", "i64")]));
        assert!(t.contains("assert_eq!(k::within(&(-1..4)), 2);"), "{t}");
    }

    #[test]
    fn literals_of_a_generic_parameter_say_their_type() {
        let (plan, module) = api("pub fn choice<I: IntoIterator>(iter: I) -> Option<I::Item> { None }\n\
             pub fn shuffle<T>(slice: &mut [T]) {}\n");
        let mut taken = BTreeSet::new();
        let mut one = |target: &str, value: Value, ending: &str| {
            write(&plan, &module, &Kept { target, value: &value, ending, kills: &[] }, &mut taken)
                .unwrap()
                .text
        };
        let t = one("choice", Value::Seq(vec![]), "\"None\"");
        assert!(t.contains("k::choice(Vec::<i64>::new())"), "{t}");
        let big = int("7155785184261965967", "i64");
        let t = one("shuffle", Value::Seq(vec![big, int("-5", "i64")]), "[-5, 7155785184261965967]");
        assert!(t.contains("vec![7155785184261965967i64, -5]"), "{t}");
    }

    #[test]
    fn a_generic_result_is_compared_by_value_at_the_type_the_harness_made() {
        let (plan, module) = api("pub trait Num {}\n\
             pub fn checked_pow<T: Clone + Num>(base: T, exp: usize) -> Option<T> { None }\n\
             pub fn double<T: Copy + std::ops::Add<Output = T>>(x: T) -> T { x + x }\n\
             pub fn inv(x: f32) -> f32 { 1.0 / x }\n\
             pub fn push<T: Copy>(x: T) -> Result<(), T> { Err(x) }\n\
             pub fn parse(s: &str) -> Result<u8, std::num::ParseIntError> { s.parse() }\n\
             pub fn order(a: u8, b: u8) -> Option<std::cmp::Ordering> { a.partial_cmp(&b) }\n\
             pub fn pick(r: Result<u8, bool>) -> u8 { 0 }\n\
             pub fn text(n: u8) -> Result<String, u8> { Err(n) }\n");
        let mut taken = BTreeSet::new();
        let mut one = |target: &str, value: Value, ending: &str| {
            write(&plan, &module, &Kept { target, value: &value, ending, kills: &[] }, &mut taken)
                .unwrap()
                .text
        };
        let t = one("checked_pow", Value::Tuple(vec![int("2", "i64"), int("9", "usize")]), "Some(512)");
        assert!(t.contains("assert_eq!(k::checked_pow(2i64, 9), Some(512));"), "{t}");
        let t = one("double", int("-4", "i64"), "-8");
        assert!(t.contains("assert_eq!(k::double(-4i64), -8);"), "{t}");
        let t = one("inv", Value::Float(0.0, "f32".into()), "inf");
        assert!(t.contains("assert_eq!(k::inv(0.0), f32::INFINITY);"), "{t}");
        let t = one("inv", Value::Float(f64::NAN, "f32".into()), "NaN");
        assert!(t.contains("assert!(k::inv(f32::NAN).is_nan());"), "{t}");
        // A `Result` of plain values too; not one holding an error type.
        let t = one("push", int("3", "i64"), "Err(3)");
        assert!(t.contains("assert_eq!(k::push(3i64), Err(3));"), "{t}");
        let t = one("parse", s("x"), "\"Err(ParseIntError { kind: InvalidDigit })\"");
        assert!(t.contains("format!(\"{:?}\", k::parse(\"x\"))"), "{t}");
        // Not a `Result` of a `String` whole, which a string literal is not: its `Ok` part.
        let t = one("text", int("1", "u8"), "Ok(\"a\")");
        assert!(t.contains("assert_eq!(k::text(1).unwrap(), \"a\");"), "{t}");
        // An `Ordering` whose text names another variant is no `std::cmp::Ordering`.
        let ordering = Ty::named("Ordering", vec![]);
        assert_eq!(with_paths(Some(&ordering), "SeqCst", &[]), None);
        assert_eq!(
            with_paths(Some(&ordering), "Ok(Less)", &[]).as_deref(),
            Some("Ok(std::cmp::Ordering::Less)")
        );
        let t = one("pick", Value::Result(Err(Box::new(Value::Bool(true)))), "0");
        assert!(t.contains("assert_eq!(k::pick(Err(true)), 0);"), "{t}");
        let t = one("order", Value::Tuple(vec![int("2", "u8"), int("1", "u8")]), "\"Some(Greater)\"");
        assert!(t.contains("assert_eq!(k::order(2, 1), Some(std::cmp::Ordering::Greater));"), "{t}");
    }

    #[test]
    fn a_crate_enum_with_derived_debug_and_partial_eq_is_compared_by_value() {
        let (plan, module) = api(
            "#[derive(Debug, PartialEq)] pub enum Incomplete { PreContext(usize), NextChunk, At { offset: u8, early: bool } }\n\
             #[derive(Debug, PartialEq)] pub enum Texty { Msg(String) }\n\
             #[derive(Debug)] pub enum Opaque { A }\n\
             pub fn next(n: u8) -> Result<Option<usize>, Incomplete> { Ok(None) }\n\
             pub fn texty(n: u8) -> Result<u8, Texty> { Ok(n) }\n\
             pub fn opaque(n: u8) -> Result<u8, Opaque> { Ok(n) }\n\
             pub fn kind(n: u8) -> &'static Incomplete { &Incomplete::NextChunk }\n\
             pub fn small(n: u8) -> &'static u8 { &0 }\n\
             #[cfg(unix)] #[derive(Debug, PartialEq)] pub enum Twice { A }\n\
             #[cfg(windows)] #[derive(Debug)] pub enum Twice { B(String) }\n\
             #[derive(Debug, PartialEq)] pub enum Error { Bad }\n\
             pub mod m { #[derive(Debug, PartialEq)] pub enum Error { Worse } }\n\
             #[derive(derive_more::Debug, PartialEq)] pub enum Shown { A }\n\
             pub mod shown { #[derive(Debug, PartialEq)] pub enum Imported { #[debug(\"B\")] A } use derive_more::Debug; }\n\
             pub mod globbed { use derive_more::*; #[derive(Debug, PartialEq)] pub enum Globbed { A } }\n\
             pub mod full { use derive_more::Debug; #[derive(std::fmt::Debug, PartialEq)] pub enum Full { A } }\n",
        );
        // Not an enum whose name another definition has (behind another `cfg`, in another
        // module), nor one whose `Debug` another crate derives.
        let names: Vec<&str> = plan.enums.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["Full", "Incomplete", "Texty"]);
        let mut taken = BTreeSet::new();
        let mut one = |target: &str, ending: &str| {
            let value = int("3", "u8");
            write(&plan, &module, &Kept { target, value: &value, ending, kills: &[] }, &mut taken)
                .unwrap()
                .text
        };
        let t = one("next", "Err(PreContext(11))");
        assert!(t.contains("assert_eq!(k::next(3), Err(k::Incomplete::PreContext(11)));"), "{t}");
        let t = one("next", "Ok(Some(2))");
        assert!(t.contains("assert_eq!(k::next(3), Ok(Some(2)));"), "{t}");
        // A named field keeps its name.
        let t = one("next", "Err(At { offset: 2, early: true })");
        assert!(t.contains("Err(k::Incomplete::At { offset: 2, early: true })"), "{t}");
        // Not an enum holding a `String` (a literal is a `&str`), nor one whose `Debug`
        // is written by hand.
        let t = one("texty", "Err(Msg(\"a\"))");
        assert!(t.contains("format!(\"{:?}\", k::texty(3))"), "{t}");
        let t = one("opaque", "Err(A)");
        assert!(t.contains("format!(\"{:?}\", k::opaque(3))"), "{t}");
        // A reference is compared by the value it points to.
        let t = one("kind", "\"NextChunk\"");
        assert!(t.contains("assert_eq!(*k::kind(3), k::Incomplete::NextChunk);"), "{t}");
        let t = one("small", "\"0\"");
        assert!(t.contains("assert_eq!(*k::small(3), 0);"), "{t}");
        let e = |name: &str, variants: &[&str]| ValueEnum {
            params: Vec::new(),
            name: name.into(),
            path: format!("k::{name}"),
            variants: variants.iter().map(|v| (v.to_string(), vec![Ty::named("u8", vec![])])).collect(),
        };
        let enums = [e("Error", &["Bad"]), e("Other", &["Bad", "Good"])];
        let error = Ty::Path {
            segments: vec!["io".into(), "Error".into()],
            args: vec![],
            assoc: vec![],
            lifetimes: false,
        };
        assert!(!plain(&error, &enums));
        let own = Ty::named("Error", vec![]);
        assert_eq!(with_paths(Some(&own), "Bad(3)", &enums).as_deref(), Some("k::Error::Bad(3)"));
        assert_eq!(
            with_paths(Some(&own), "Bad { code: 3 }", &enums).as_deref(),
            Some("k::Error::Bad { code: 3 }")
        );
        assert_eq!(
            with_paths(Some(&own), "Bad(\"a, b\")", &enums).as_deref(),
            Some("k::Error::Bad(\"a, b\")")
        );
        // A variant that two of the result's enums have is not written.
        let both = Ty::named("Result", vec![own.clone(), Ty::named("Other", vec![])]);
        assert_eq!(with_paths(Some(&both), "Err(Bad(1))", &enums), None);
        assert_eq!(
            with_paths(Some(&both), "Err(Good(1))", &enums).as_deref(),
            Some("Err(k::Other::Good(1))")
        );
        let mode = [e("Mode", &["None", "All"])];
        assert_eq!(with_paths(Some(&Ty::named("Mode", vec![])), "None", &mode), None);
        // A generic enum at scalar types compares as one that is not generic.
        let over = [ValueEnum {
            name: "Over".into(),
            path: "k::Over".into(),
            variants: vec![("Neither".into(), vec![]), ("Left".into(), vec![Ty::named("L", vec![]); 2])],
            params: vec!["L".into()],
        }];
        let at = |t: &str| Ty::named("Over", vec![Ty::named(t, vec![])]);
        assert!(plain(&at("i64"), &over));
        assert_eq!(with_paths(Some(&at("i64")), "Left(0, 1)", &over).as_deref(), Some("k::Over::Left(0, 1)"));
        // At `String`, its variant of no fields still is; the other's text is not source.
        assert!(plain(&at("String"), &over));
        assert_eq!(with_paths(Some(&at("String")), "Neither", &over).as_deref(), Some("k::Over::Neither"));
        assert_eq!(with_paths(Some(&at("String")), "Left(\"a\", \"b\")", &over), None);
        // matchit's `InsertError`: `InvalidParam` is written, `Conflict { with: String }` not.
        let insert = [ValueEnum {
            name: "InsertError".into(),
            path: "k::InsertError".into(),
            variants: vec![
                ("Conflict".into(), vec![Ty::named("String", vec![])]),
                ("InvalidParam".into(), vec![]),
            ],
            params: Vec::new(),
        }];
        let result = Ty::named("Result", vec![Ty::Tuple(Vec::new()), Ty::named("InsertError", vec![])]);
        assert!(plain(&result, &insert));
        let written = with_paths(Some(&result), "Err(InvalidParam)", &insert);
        assert_eq!(written.as_deref(), Some("Err(k::InsertError::InvalidParam)"));
        assert_eq!(with_paths(Some(&result), "Err(Conflict { with: \"/a\" })", &insert), None);
        // An `Option<Vec<u8>>` compares with a `vec!`; one of `String`s with none.
        let bytes = Ty::named("Option", vec![Ty::named("Vec", vec![Ty::named("u8", vec![])])]);
        assert!(plain(&bytes, &[]));
        assert_eq!(with_paths(Some(&bytes), "Some([0, 1])", &[]).as_deref(), Some("Some(vec![0, 1])"));
        assert_eq!(with_paths(Some(&bytes), "None", &[]).as_deref(), Some("None"));
        let strings = Ty::named("Option", vec![Ty::named("Vec", vec![Ty::named("String", vec![])])]);
        assert!(!plain(&strings, &[]));
        // A `Result` of one too, its error compared as written.
        let decoded = Ty::named("Result", vec![bytes.args()[0].clone(), own.clone()]);
        assert!(plain(&decoded, &enums));
        assert_eq!(with_paths(Some(&decoded), "Ok([7])", &enums).as_deref(), Some("Ok(vec![7])"));
        assert_eq!(
            with_paths(Some(&decoded), "Err(Bad(5))", &enums).as_deref(),
            Some("Err(k::Error::Bad(5))")
        );
    }

    #[test]
    fn a_duration_or_a_system_time_is_written_in_the_largest_unit_that_holds_it_whole() {
        let (plan, module) = api("pub fn seconds(d: std::time::Duration) -> u64 { d.as_secs() }\n\
             pub fn borrowed(d: &core::time::Duration) -> u64 { 0 }\n\
             pub fn stamp(t: std::time::SystemTime) -> u64 { 0 }\n\
             pub fn stamp_ref(t: &std::time::SystemTime) -> u64 { 0 }\n\
             #[derive(Debug)] pub struct Config { pub timeout: std::time::Duration }\n\
             pub fn limit(c: &Config) -> u64 { 0 }\n\
             #[derive(Debug)] pub struct Span(std::time::Duration);\n\
             impl From<std::time::Duration> for Span { fn from(d: std::time::Duration) -> Span { Span(d) } }\n\
             pub fn span_ms(s: Span) -> u128 { s.0.as_millis() }\n");
        let mut taken = BTreeSet::new();
        let mut one = |target: &str, nanos: &str| {
            let value = int(nanos, "u64");
            write(&plan, &module, &Kept { target, value: &value, ending: "1", kills: &[] }, &mut taken)
                .unwrap()
                .text
        };
        let t = one("seconds", "3600000000000");
        assert!(t.contains("k::seconds(std::time::Duration::from_secs(3600))"), "{t}");
        let t = one("borrowed", "1500000");
        assert!(t.contains("k::borrowed(&std::time::Duration::from_micros(1500))"), "{t}");
        let t = one("seconds", "0");
        assert!(t.contains("k::seconds(std::time::Duration::ZERO)"), "{t}");
        let t = one("seconds", "7");
        assert!(t.contains("k::seconds(std::time::Duration::from_nanos(7))"), "{t}");
        // A `SystemTime` is that long after the epoch: a value, not the clock's.
        let t = one("stamp", "60000000000");
        assert!(t.contains("k::stamp(std::time::UNIX_EPOCH + std::time::Duration::from_secs(60))"), "{t}");
        let t = one("stamp_ref", "0");
        assert!(t.contains("k::stamp_ref(&std::time::UNIX_EPOCH)"), "{t}");
        // A struct's field.
        let value = Value::Variant("Literal".into(), vec![int("60000000000", "u64")]);
        let kept = Kept { target: "limit", value: &value, ending: "1", kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text;
        assert!(t.contains("std::time::Duration::from_secs(60)"), "{t}");
        // A crate type made `From` one.
        let value = Value::Variant("From0".into(), vec![int("2000000", "u64")]);
        let kept = Kept { target: "span_ms", value: &value, ending: "2", kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text;
        assert!(t.contains("k::span_ms(k::Span::from(std::time::Duration::from_millis(2)))"), "{t}");
        // As the harness makes them.
        for made in [
            "k::Span::from(std::time::Duration::from_nanos(value))",
            "timeout: std::time::Duration::from_nanos(timeout)",
        ] {
            assert!(module.text.contains(made), "{made}");
        }
    }

    #[test]
    fn an_into_parameter_of_a_crate_type_is_passed_a_number_the_type_is_made_from() {
        let (plan, module) = api(
            "#[derive(Debug)] pub struct Options<'a> { pub width: usize, indent: &'a str }\n\
             impl From<usize> for Options<'_> { fn from(width: usize) -> Self { Options { width, indent: \"\" } } }\n\
             pub fn fill<'a, Opt: Into<Options<'a>>>(text: &str, width_or_options: Opt) -> String { String::new() }\n\
             pub fn wrap<'a>(text: &str, options: impl Into<Options<'a>>) -> usize { 0 }\n",
        );
        for target in ["fill", "wrap"] {
            let value = Value::Tuple(vec![s("a b"), int("20", "u16")]);
            let kept = Kept { target, value: &value, ending: "0", kills: &[] };
            let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text;
            assert!(t.contains(&format!("k::{target}(\"a b\", 20)")), "{t}");
        }
    }

    #[test]
    fn a_string_passed_where_a_str_meets_every_bound_is_written_as_the_literal() {
        let (plan, module) =
            api("pub fn compare_str<A: AsRef<str>, B: AsRef<str>>(a: A, b: B) -> bool { true }\n\
             pub fn compare_path<P: AsRef<std::path::Path>>(p: P) -> bool { true }\n\
             pub fn own<S: Into<String>>(s: S) -> usize { 0 }\n\
             pub fn grown<S: AsRef<String>>(s: S) -> usize { 0 }\n");
        let one = |target: &str, value: Value| {
            let kept = Kept { target, value: &value, ending: "true", kills: &[] };
            write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text
        };
        let t = one("compare_str", Value::Tuple(vec![s("40"), s("4")]));
        assert!(t.contains("k::compare_str(\"40\", \"4\")"), "{t}");
        assert!(one("compare_path", s("a/b")).contains("k::compare_path(\"a/b\")"));
        assert!(one("own", s("x")).contains("k::own(\"x\")"));
        // A bound a `&str` does not meet keeps the `String`.
        let t = one("grown", s("x"));
        assert!(t.contains("k::grown(\"x\".to_owned())"), "{t}");
    }

    #[test]
    fn a_sequence_of_no_call_is_named_for_how_its_value_is_built() {
        let (plan, module) = api("#[derive(Debug)] pub struct Bits(u8);\n\
             impl Bits { pub fn with_width(w: u8) -> Bits { Bits(w) } pub fn get(&self) -> u8 { self.0 } }\n");
        let value =
            Value::Tuple(vec![Value::Variant("WithWidth".into(), vec![int("3", "u8")]), Value::Seq(vec![])]);
        let kept = Kept { target: "bits_calls", value: &value, ending: r#"["Bits(3)"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert_eq!(t.name, "bits_with_width");
    }

    #[test]
    fn a_slice_lent_mutably_to_a_method_is_an_array() {
        let (plan, module) = api("#[derive(Debug)] pub struct Enc(u8);\n\
             impl Enc { pub fn new() -> Enc { Enc(0) } pub fn fill(&self, buffer: &mut [u8]) -> usize { buffer.len() } }\n");
        let fill = |items: Vec<Value>| Value::Variant("Fill".into(), vec![Value::Seq(items)]);
        let calls = vec![fill(vec![int("1", "u8"), int("2", "u8")]), fill(vec![])];
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![]), Value::Seq(calls)]);
        let kept = Kept { target: "enc_calls", value: &value, ending: r#"["2", "0", "Enc(0)"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text;
        assert!(t.contains("assert_eq!(enc.fill(&mut [1, 2]), 2);"), "{t}");
        assert!(t.contains("assert_eq!(enc.fill(&mut []), 0);"), "{t}");
    }

    #[test]
    fn the_64_bit_bounds_of_pointer_sized_integers_are_written_by_name() {
        assert_eq!(pointer_sized_bounds("(18446744073709551615, None)"), "(usize::MAX, None)");
        assert_eq!(
            pointer_sized_bounds("[-9223372036854775808, 9223372036854775807, 118446744073709551615]"),
            "[isize::MIN, isize::MAX, 118446744073709551615]"
        );
        let ty = |s: &str| Ty::from_syn(&syn::parse_str(s).unwrap());
        assert!(pointer_sized_only(&ty("(usize, Option<usize>)")));
        assert!(!pointer_sized_only(&ty("(usize, u64)")));
        assert_eq!(
            with_paths(Some(&ty("Option<usize>")), "Some(18446744073709551615)", &[]).unwrap(),
            "Some(usize::MAX)"
        );
        assert_eq!(
            with_paths(Some(&ty("u64")), "18446744073709551615", &[]).unwrap(),
            "18446744073709551615"
        );
    }

    #[test]
    fn a_test_of_nth_0_allows_what_clippy_would_change() {
        let value = int("0", "u8");
        let kept = Kept { target: "t", value: &value, ending: "None", kills: &[] };
        let text = text_of("t", &["assert_eq!(range.nth(0), None);".to_owned()], &kept, None);
        assert_eq!(
            text,
            "#[test]\n#[allow(clippy::iter_nth_zero)]\nfn t() {\n    assert_eq!(range.nth(0), None);\n}\n"
        );
        assert!(
            !text_of("t", &["assert_eq!(range.nth(1), None);".to_owned()], &kept, None).contains("allow")
        );
    }

    #[test]
    fn a_debug_text_of_many_lines_is_not_compared() {
        let (plan, module) = api("#[derive(Debug)] pub struct Table(Vec<u8>);\n\
             pub fn table(n: u8) -> Table { Table(vec![n; 256]) }\n");
        let short = "Table([1, 1])";
        let long = format!("Table([{}])", vec!["1"; 256].join(", "));
        let one = |ending: &str| {
            let kept = Kept { target: "table", value: &int("1", "u8"), ending, kills: &[] };
            write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text
        };
        assert!(one(short).contains("assert_eq!(format!(\"{:?}\", k::table(1)), \"Table([1, 1])\");"));
        let t = one(&long);
        assert!(t.contains("let _ = k::table(1);") && !t.contains("concat!"), "{t}");
    }

    #[test]
    fn an_ip_address_is_made_from_its_bits_and_written_as_a_person_writes_it() {
        let (plan, module) = api("use std::net::Ipv4Addr;\n\
             pub fn four(a: Ipv4Addr) -> bool { true }\n\
             pub fn six(a: &std::net::Ipv6Addr) -> bool { true }\n\
             pub fn any(a: core::net::IpAddr) -> bool { true }\n");
        let one = |target: &str, digits: &str, ty: &str| {
            let value = int(digits, ty);
            write(
                &plan,
                &module,
                &Kept { target, value: &value, ending: "true", kills: &[] },
                &mut BTreeSet::new(),
            )
            .unwrap()
            .text
        };
        assert!(one("four", "167772161", "u32").contains("k::four(std::net::Ipv4Addr::new(10, 0, 0, 1))"));
        let t = one("six", "1", "u128");
        assert!(t.contains("k::six(&\"::1\".parse::<std::net::Ipv6Addr>().unwrap())"), "{t}");
        let t = one("any", "167772161", "u128");
        assert!(t.contains("k::any(\"10.0.0.1\".parse::<std::net::IpAddr>().unwrap())"), "{t}");
        let t = one("any", "4294967296", "u128");
        assert!(t.contains("k::any(\"::1:0:0\".parse::<std::net::IpAddr>().unwrap())"), "{t}");
        assert!(module.text.contains("k::any(mutfuzz::ip_addr(a))"), "{}", module.text);
    }

    #[test]
    fn a_nonzero_integer_is_made_from_its_integer_and_written_as_a_person_writes_it() {
        let (plan, module) = api("use std::num::NonZeroUsize;\n\
             pub fn cap(n: NonZeroUsize) -> usize { n.get() }\n\
             pub fn small(n: &std::num::NonZeroU8) -> u8 { n.get() }\n\
             pub fn signed(n: core::num::NonZero<i32>) -> i32 { n.get() }\n");
        let mut taken = BTreeSet::new();
        let mut one = |target: &str, digits: &str, ty: &str| {
            let value = int(digits, ty);
            write(&plan, &module, &Kept { target, value: &value, ending: "1", kills: &[] }, &mut taken)
                .unwrap()
                .text
        };
        let t = one("cap", "3", "u16");
        assert!(t.contains("k::cap(std::num::NonZeroUsize::new(3).unwrap())"), "{t}");
        // The harness makes `0` the type's `MIN`, and the test says so.
        let t = one("cap", "0", "u16");
        assert!(t.contains("k::cap(std::num::NonZeroUsize::MIN)"), "{t}");
        let t = one("small", "200", "u8");
        assert!(t.contains("k::small(&std::num::NonZeroU8::new(200).unwrap())"), "{t}");
        let t = one("signed", "-4", "i32");
        assert!(t.contains("k::signed(std::num::NonZeroI32::new(-4).unwrap())"), "{t}");
        // A size is drawn below 65,536, as a `usize` is.
        let made = "std::num::NonZeroUsize::new(usize::from(n)).unwrap_or(std::num::NonZeroUsize::MIN)";
        assert!(module.text.contains(made), "{}", module.text);
    }

    #[test]
    fn a_closure_parameter_is_made_from_a_number_and_written_with_it() {
        let (plan, module) = api("pub fn count_if(v: &[u8], pred: impl Fn(&u8) -> bool) -> usize { 0 }\n\
             pub fn apply<F: FnOnce(i32) -> i64>(n: i32, f: F) -> i64 { f(n) }\n\
             pub fn bump(v: &mut Vec<u16>, f: impl FnMut(&mut u16)) {}\n\
             pub fn make(f: impl Fn() -> u32) -> u32 { f() }\n\
             pub fn index_of(p: impl Fn(usize) -> bool) -> usize { 0 }\n\
             pub fn named(f: impl Fn(&str) -> bool) -> bool { false }\n");
        for closure in [
            "k::count_if(&v, |x| *x > pred)",
            "k::apply(n, |x| (x as i64).wrapping_add(f))",
            "k::bump(&mut v, |x| *x = x.wrapping_add(f))",
            "k::make(|| f)",
            "k::index_of(|x| x > p)",
        ] {
            assert!(module.text.contains(closure), "no `{closure}` in:\n{}", module.text);
        }
        let why: Vec<&str> = plan.skipped.iter().map(|s| s.reason.as_str()).collect();
        assert_eq!(
            why,
            ["parameter `f: impl Fn` is a closure taking `&str` (closures are made over numbers only)"]
        );
        let mut taken = BTreeSet::new();
        let mut one = |target: &str, value: Value, ending: &str| {
            write(&plan, &module, &Kept { target, value: &value, ending, kills: &[] }, &mut taken)
                .unwrap()
                .text
        };
        let t = one(
            "count_if",
            Value::Tuple(vec![Value::Seq(vec![int("1", "u8"), int("2", "u8")]), int("1", "u8")]),
            "1",
        );
        assert!(t.contains("assert_eq!(k::count_if(&[1, 2], |x| *x > 1), 1);"), "{t}");
        let t = one("apply", Value::Tuple(vec![int("-2", "i32"), int("5", "i64")]), "3");
        assert!(t.contains("assert_eq!(k::apply(-2, |x| (x as i64).wrapping_add(5)), 3);"), "{t}");
    }

    #[test]
    fn an_iterator_is_collected_whole_only_where_its_items_were_counted_surely() {
        assert_eq!(
            assert_collected("it()", "[1, 2]", false),
            "assert_eq!(format!(\"{:?}\", it().collect::<Vec<_>>()), \"[1, 2]\");"
        );
        // `->` reads as a bracket: the count may be short, and the bound stays.
        let arrows = assert_collected("it()", "[a -> b, c]", false);
        assert!(arrows.contains("it().take(64).collect::<Vec<_>>()"), "{arrows}");
        assert_eq!(assert_collected("it()", "[]", true), "assert_eq!(it().count(), 0);");
        assert_eq!(
            assert_collected("it()", "[(0, \"a\"), (1, \"b c\")]", true),
            "assert_eq!(it().collect::<Vec<_>>(), [(0, \"a\"), (1, \"b c\")]);"
        );
        // A hash container's items are sorted by their `Debug` texts, as the harness sorts.
        assert_eq!(
            assert_unordered("map.keys()", "[1, 20]"),
            [
                "let mut items: Vec<_> = map.keys().collect();",
                "items.sort_by_key(|item| format!(\"{item:?}\"));",
                "assert_eq!(format!(\"{items:?}\"), \"[1, 20]\");",
            ]
        );
        assert_eq!(assert_unordered("map.keys()", "[]"), ["assert_eq!(map.keys().count(), 0);"]);
    }

    #[test]
    fn a_path_is_written_from_its_text() {
        let (plan, module) =
            api("pub fn depth(p: &std::path::Path, base: std::path::PathBuf) -> usize { 0 }\n");
        let value = Value::Tuple(vec![s("a/b"), s("a")]);
        let kept = Kept { target: "depth", value: &value, ending: "1", kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert!(
            t.text.contains("k::depth(std::path::Path::new(\"a/b\"), std::path::PathBuf::from(\"a\"))"),
            "{}",
            t.text
        );
    }

    #[test]
    fn a_deprecated_call_is_allowed_and_a_borrowing_value_is_built_from_literals() {
        let (plan, module) = api("#[deprecated(note = \"use `len`\")] pub fn size(s: &str) -> usize { 0 }\n\
             #[derive(Debug)] pub struct Words<'a> { text: &'a str }\n\
             impl<'a> Words<'a> { pub fn new(text: &'a str) -> Self { todo!() } pub fn first(&self) -> &'a str { \"\" } }\n\
             pub struct Toks<'a>(&'a str);\n\
             impl<'a> From<&'a str> for Toks<'a> { fn from(s: &'a str) -> Self { Toks(s) } }\n\
             impl Iterator for Toks<'_> { type Item = char; fn next(&mut self) -> Option<char> { None } }\n");
        // A conversion called through its trait in the harness, as its type's in a test.
        let value = s("ab");
        let kept = Kept { target: "toks_from", value: &value, ending: r#""['a', 'b']""#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert!(
            t.text.contains(
                "fn toks_from() {\n    assert_eq!(k::Toks::from(\"ab\").collect::<Vec<_>>(), ['a', 'b']);"
            ),
            "{}",
            t.text
        );
        let value = s("ab");
        let kept = Kept { target: "size", value: &value, ending: "2", kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert_eq!(
            t.text,
            "#[test]\n#[allow(deprecated)]\nfn size() {\n    assert_eq!(k::size(\"ab\"), 2);\n}\n"
        );
        let value = Value::Tuple(vec![
            Value::Variant("New".into(), vec![s("a b")]),
            Value::Seq(vec![Value::Variant("First".into(), vec![])]),
        ]);
        let ending = r#"["\"a\"", "Words { text: \"a b\" }"]"#;
        let kept = Kept { target: "words_calls", value: &value, ending, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert_eq!(
            t.text,
            "#[test]\nfn words_first() {\n    let words = k::Words::new(\"a b\");\n    \
             assert_eq!(words.first(), \"a\");\n    assert_eq!(format!(\"{words:?}\"), \"Words { text: \\\"a b\\\" }\");\n}\n"
        );
    }

    #[test]
    fn a_call_sequence_builds_the_value_and_checks_each_result() {
        let (plan, module) = api("#[derive(Debug, Clone)] pub struct Counter { n: u32 }\n\
             impl Counter { pub fn new(limit: u32) -> Counter { todo!() }\n\
             pub fn step(&mut self) -> bool { true }\n pub fn value(&self) -> u32 { 0 }\n pub fn name(&self) -> &str { \"\" } }\n");
        let value = Value::Tuple(vec![
            Value::Variant("New".into(), vec![int("3", "u32")]),
            Value::Seq(vec![
                Value::Variant("Step".into(), vec![]),
                Value::Variant("Value".into(), vec![]),
                Value::Variant("Name".into(), vec![]),
            ]),
        ]);
        let ending = r#"["true", "1", "\"c\"", "Counter { n: 1 }"]"#;
        let t = write(
            &plan,
            &module,
            &Kept { target: "counter_calls", value: &value, ending, kills: &[] },
            &mut BTreeSet::new(),
        )
        .unwrap();
        assert_eq!(
            t.text,
            "#[test]\nfn counter_step_value_name() {\n    let mut counter = k::Counter::new(3);\n    assert!(counter.step());\n    \
             assert_eq!(counter.value(), 1);\n    assert_eq!(counter.name(), \"c\");\n    \
             assert_eq!(format!(\"{counter:?}\"), \"Counter { n: 1 }\");\n}\n"
        );
        // Its lean form, which the check tries first, asserts the calls' results alone.
        let mut renamed = vec![t.clone()];
        renamed[0].base = "counter".into();
        renumber(&mut renamed);
        let lean = renamed.remove(0).leaner();
        assert_eq!(
            lean.text,
            "#[test]\nfn counter() {\n    let mut counter = k::Counter::new(3);\n    assert!(counter.step());\n    \
             assert_eq!(counter.value(), 1);\n    assert_eq!(counter.name(), \"c\");\n}\n"
        );
        assert_eq!(lean.lean, None);
    }

    #[test]
    fn a_default_value_with_public_fields_set_is_built_by_setting_them() {
        // `#[non_exhaustive]`: no literal builds it outside its crate; setting fields does.
        let (plan, module) = api(
            "#[derive(Debug, Default)] #[non_exhaustive] pub struct Opts { pub depth: Option<u8>, pub loud: bool }\n\
             impl Opts { pub fn deep(&self) -> bool { self.depth.is_some() } }\n",
        );
        assert!(
            module.text.contains(
                "{ let mut made = k::Opts::default(); made.depth = depth; made.loud = loud; made }"
            ),
            "{}",
            module.text
        );
        let value = Value::Tuple(vec![
            Value::Variant(
                "DefaultWith".into(),
                vec![Value::Option(Some(Box::new(int("2", "u8")))), Value::Bool(true)],
            ),
            Value::Seq(vec![Value::Variant("Deep".into(), vec![])]),
        ]);
        let ending = r#"["true", "Opts { depth: Some(2), loud: true }"]"#;
        let t = write(
            &plan,
            &module,
            &Kept { target: "opts_calls", value: &value, ending, kills: &[] },
            &mut BTreeSet::new(),
        )
        .unwrap();
        assert!(
            t.text.contains(
                "let mut opts = k::Opts::default();\n    opts.depth = Some(2);\n    opts.loud = true;\n"
            ),
            "{}",
            t.text
        );
        assert!(t.text.contains("assert!(opts.deep());"), "{}", t.text);
    }

    #[test]
    fn a_method_tried_at_a_further_type_is_written_with_typed_literals() {
        let (plan, module) = api("pub trait Integer {}\n\
             #[derive(Debug)] pub struct Buffer(u8);\n\
             impl Buffer { pub fn new() -> Buffer { Buffer(0) }\n\
             pub fn format<I: Integer>(&mut self, i: I) -> &str { \"\" } }\n");
        let call = Value::Variant("FormatU128".into(), vec![int(&u128::MAX.to_string(), "u128")]);
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![]), Value::Seq(vec![call])]);
        let ending = r#"["\"340282366920938463463374607431768211455\"", "Buffer(0)"]"#;
        let t = write(
            &plan,
            &module,
            &Kept { target: "buffer_calls", value: &value, ending, kills: &[] },
            &mut BTreeSet::new(),
        )
        .unwrap();
        // Untyped, the literal would be an `i32`: another instance, and too large for it.
        assert!(
            t.text.contains(
                "assert_eq!(buffer.format(340282366920938463463374607431768211455u128), \"340282366920938463463374607431768211455\");"
            ),
            "{}",
            t.text
        );
        // Untyped, a float literal would be an `f64`.
        let call = Value::Variant("FormatF32".into(), vec![Value::Float(f64::from(0.1f32), "f32".into())]);
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![]), Value::Seq(vec![call])]);
        let ending = r#"["\"0.1\"", "Buffer(0)"]"#;
        let kept = Kept { target: "buffer_calls", value: &value, ending, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert!(t.text.contains("assert_eq!(buffer.format(0.1f32), \"0.1\");"), "{}", t.text);
    }

    #[test]
    fn a_file_written_with_features_the_defaults_leave_off_is_gated_on_them() {
        let t = TestFn {
            name: "encode".into(),
            text: "#[test]\nfn encode() {}\n".into(),
            base: "encode".into(),
            harness: false,
            uses: Vec::new(),
            args_name: None,
            lean: None,
        };
        let head = |features: &[&str]| FileHead {
            doc: "//! Tests.\n".into(),
            features: features.iter().map(|f| f.to_string()).collect(),
            ..FileHead::default()
        };
        let bare = FileHead { features_off: vec!["std".into()], ..head(&["alloc"]) };
        assert!(
            file(&bare, std::slice::from_ref(&t))
                .contains("\n#![cfg(all(feature = \"alloc\", not(feature = \"std\")))]\n")
        );
        let text = file(&head(&["check", "cb58"]), std::slice::from_ref(&t));
        assert!(
            text.starts_with(
                "//! Tests.\n\n// Written with these features on: without them, the file holds no test.\n\
                 #![cfg(all(feature = \"check\", feature = \"cb58\"))]\n"
            ),
            "{text}"
        );
        assert!(
            file(&head(&["check"]), std::slice::from_ref(&t)).contains("\n#![cfg(feature = \"check\")]\n")
        );
        assert!(!file(&head(&[]), &[t]).contains("#![cfg"));
    }

    #[test]
    fn a_constructors_arguments_are_written_as_a_calls_are() {
        let (plan, module) = api("#[derive(Debug, PartialEq)] pub struct Smol(String);\n\
             impl Smol {\n\
                 pub fn new<T: AsRef<str>>(text: T) -> Smol { Smol(text.as_ref().to_owned()) }\n\
                 pub fn from_bytes(bytes: &[u8]) -> Smol { Smol(String::from_utf8_lossy(bytes).into_owned()) }\n\
                 pub fn parse_bytes(bytes: &[u8]) -> Result<Smol, ()> { Ok(Smol::from_bytes(bytes)) }\n\
                 pub fn len(&self) -> usize { self.0.len() }\n\
             }\n");
        let written = |variant: &str, arg: Value| {
            let value = Value::Tuple(vec![Value::Variant(variant.into(), vec![arg]), Value::Seq(Vec::new())]);
            let kept = Kept { target: "smol_calls", value: &value, ending: r#"["Smol(\"a\")"]"#, kills: &[] };
            write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text
        };
        // smol_str's `SmolStr::new("a".to_owned())` and `from_utf8(&vec![2])` drew clippy's
        // `unnecessary_to_owned` and `useless_vec`.
        let text = written("New", s("a"));
        assert!(text.contains("k::Smol::new(\"a\")"), "{text}");
        let text = written("FromBytes", Value::Seq(vec![int("2", "u8")]));
        assert!(text.contains("k::Smol::from_bytes(&[2])"), "{text}");
        // A fallible constructor's own target too.
        let value = Value::Seq(vec![int("2", "u8")]);
        let kept = Kept {
            target: "smol_parse_bytes",
            value: &value,
            ending: r#""Ok(Smol(\"\\u{2}\"))""#,
            kills: &[],
        };
        let text = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text;
        assert!(text.contains("k::Smol::parse_bytes(&[2])"), "{text}");
    }

    #[test]
    fn a_result_of_a_string_is_compared_by_the_part_it_was() {
        let (plan, module) = api("pub fn decode(s: &str) -> Result<String, ()> { Ok(s.to_owned()) }\n");
        let written = |ending: &str| {
            let kept = Kept { target: "decode", value: &s("a-"), ending, kills: &[] };
            write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text
        };
        // punycode's `decode`: no literal is a `Result<String, ()>`.
        let ok = written(r#"Ok("a")"#);
        assert!(ok.contains("assert_eq!(k::decode(\"a-\").unwrap(), \"a\");"), "{ok}");
        let err = written("Err(())");
        assert!(err.contains("assert_eq!(k::decode(\"a-\"), Err(()));"), "{err}");
    }

    #[test]
    fn a_slice_of_crate_values_is_lent_as_an_array() {
        let (plan, module) = api("#[derive(Debug, Clone, Copy)] pub struct Level(u8);\n\
             impl Level { pub fn new(n: u8) -> Level { Level(n) } }\n\
             pub fn runs(levels: &[Level]) -> usize { levels.len() }\n");
        let value = Value::Seq(vec![Value::Variant("New".into(), vec![int("1", "u8")])]);
        let kept = Kept { target: "runs", value: &value, ending: "1", kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        // unicode-bidi's `visual_runs(0..0, &vec![…])` drew clippy's `useless_vec`.
        assert!(t.text.contains("k::runs(&[k::Level::new(1)])"), "{}", t.text);
    }

    #[test]
    fn a_sequence_of_long_calls_is_named_for_as_many_as_fit() {
        let (plan, module) = api("#[derive(Debug, Default)] pub struct Config(u8);\n\
             impl Config {\n\
                 pub fn new() -> Config { Config(0) }\n\
                 pub fn allow_obsolete_multiline_headers_in_responses(&mut self, b: bool) { self.0 = b as u8 }\n\
                 pub fn allow_multiple_spaces_in_request_line_delimiters(&mut self, b: bool) { self.0 = b as u8 }\n\
             }\n");
        let call = |v: &str| Value::Variant(v.into(), vec![Value::Bool(true)]);
        let calls = vec![
            call("AllowObsoleteMultilineHeadersInResponses"),
            call("AllowMultipleSpacesInRequestLineDelimiters"),
        ];
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![]), Value::Seq(calls)]);
        let kept = Kept {
            target: "config_calls",
            value: &value,
            ending: r#"["()", "()", "Config(1)"]"#,
            kills: &[],
        };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert_eq!(t.name, "config_allow_obsolete_multiline_headers_in_responses", "{}", t.text);
    }

    #[test]
    fn a_sequence_built_from_an_enums_variant_is_named_for_it() {
        let (plan, module) = api("#[derive(Debug, Clone, Copy)] pub enum Algorithm { English, Greek }\n\
             #[derive(Debug)] pub struct Stemmer(Algorithm);\n\
             impl Stemmer {\n\
                 pub fn create(a: Algorithm) -> Stemmer { Stemmer(a) }\n\
                 pub fn stem(&self, w: &str) -> String { w.to_owned() }\n\
             }\n");
        let greek = Value::Variant("Greek".into(), vec![]);
        let calls = vec![Value::Variant("Stem".into(), vec![s("a")])];
        let value = Value::Tuple(vec![Value::Variant("Create".into(), vec![greek]), Value::Seq(calls)]);
        let ending = r#"["\"a\"", "Stemmer(Greek)"]"#;
        let kept = Kept { target: "stemmer_calls", value: &value, ending, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        // rust-stemmers' 358 tests were `stemmer_stem_2` … `stemmer_stem_358`.
        assert_eq!(t.name, "stemmer_greek_stem", "{}", t.text);
    }

    #[test]
    fn a_compound_assignment_is_written_with_its_operator() {
        let (plan, module) = api("#[derive(Debug, PartialEq)] pub struct Total(u32);\n\
             impl Total { pub fn new() -> Total { Total(0) } }\n\
             impl std::ops::AddAssign<u32> for Total { fn add_assign(&mut self, n: u32) { self.0 += n } }\n");
        let calls = vec![Value::Variant("AddAssign".into(), vec![int("3", "u32")])];
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![]), Value::Seq(calls)]);
        let kept = Kept { target: "total_calls", value: &value, ending: r#"["()", "Total(3)"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert!(t.text.contains("    let mut total = k::Total::new();\n    total += 3;\n"), "{}", t.text);
        // half's `f16` is no name for a binding: std has that type too.
        let (plan, module) =
            api("#[allow(non_camel_case_types)] #[derive(Debug, PartialEq)] pub struct f16(u16);\n\
             impl f16 { pub fn new() -> f16 { f16(0) } }\n\
             impl std::ops::AddAssign<u16> for f16 { fn add_assign(&mut self, n: u16) { self.0 += n } }\n");
        let calls = vec![Value::Variant("AddAssign".into(), vec![int("3", "u16")])];
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![]), Value::Seq(calls)]);
        let kept = Kept { target: "f16_calls", value: &value, ending: r#"["()", "f16(3)"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert!(t.text.contains("    let mut value = k::f16::new();\n    value += 3;\n"), "{}", t.text);
    }

    #[test]
    fn a_number_for_one_of_several_from_impls_carries_its_type() {
        let (plan, module) = api("#[derive(Debug, PartialEq)] pub struct Half(u16);\n\
             impl From<i8> for Half { fn from(v: i8) -> Half { Half(v as u16) } }\n\
             impl From<u8> for Half { fn from(v: u8) -> Half { Half(u16::from(v)) } }\n\
             impl Half { pub fn bits(&self) -> u16 { self.0 } }\n");
        let made = |variant: &str, n: Value| {
            let value = Value::Tuple(vec![Value::Variant(variant.into(), vec![n]), Value::Seq(Vec::new())]);
            let kept = Kept { target: "half_calls", value: &value, ending: r#"["Half(3)"]"#, kills: &[] };
            write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text
        };
        assert!(module.targets.contains(&"half_calls".to_owned()), "{:?}", module.targets);
        // Unsuffixed, `3` would be an `i32`, which `Half` has no `From` of (half's `f16`).
        let text = made("FromI8", int("-3", "i8"));
        assert!(text.contains("k::Half::from(-3i8)"), "{text}");
    }

    #[test]
    fn a_crate_traits_method_on_string_takes_a_string() {
        let (plan, module) = api("pub trait Shout { fn shout(&self) -> String; }\n\
             impl Shout for String { fn shout(&self) -> String { self.to_uppercase() } }\n\
             impl Shout for str { fn shout(&self) -> String { self.to_uppercase() } }\n");
        let on_string = |k: &TargetKind| matches!(k, TargetKind::Call(i) if plan.calls[*i].function.path.starts_with("<String as"));
        let target = &module.targets[module.kinds.iter().position(on_string).unwrap()];
        let kept = Kept { target, value: &s("a"), ending: r#""A""#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        // `deunicode`'s `AsciiChars`: a `&str` would not compile.
        assert!(t.text.contains("(&String::from(\"a\"))"), "{}", t.text);
    }

    #[test]
    fn a_crate_traits_method_on_a_std_type_is_called_through_the_trait_and_named_for_the_method() {
        let (plan, module) = api(
            "pub trait ToSnake { fn to_snake(&self) -> String; fn trim(&self) -> u8; }\n\
             impl ToSnake for str { fn to_snake(&self) -> String { self.to_lowercase() } fn trim(&self) -> u8 { 0 } }\n\
             pub trait Halve { fn halve(self, value: u8) -> Self; }\n\
             impl Halve for i8 { fn halve(self, value: u8) -> i8 { self / 2 } }\n",
        );
        let mut taken = BTreeSet::new();
        let kept = Kept { target: "to_snake", value: &s("A B"), ending: r#""a b""#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert_eq!(t.text, "#[test]\nfn to_snake() {\n    assert_eq!(\"A B\".to_snake(), \"a b\");\n}\n");
        assert_eq!(t.uses, ["k::ToSnake"]);
        assert_eq!(
            file(&FileHead::default(), &[t]).lines().find(|l| l.starts_with("use")),
            Some("use k::ToSnake;")
        );
        // `str` has a `trim`: the trait's is called through its path.
        let kept = Kept { target: "trim", value: &s("A"), ending: "0", kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("assert_eq!(<str as k::ToSnake>::trim(\"A\"), 0);"), "{}", t.text);
        assert!(t.uses.is_empty());
        // On a number too (`-6.halve(1)` would be `-(6.halve(1))`), and the receiver's
        // parameter is named apart from the method's `value`.
        let value = Value::Tuple(vec![int("-6", "i8"), int("1", "u8")]);
        let kept = Kept { target: "halve", value: &value, ending: "-3", kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("assert_eq!(<i8 as k::Halve>::halve(-6, 1), -3);"), "{}", t.text);
        let f = &plan.calls.iter().find(|c| c.function.name == "halve").unwrap().function;
        assert_eq!(f.params[0].0, "this");
        // A `char` by value, as unicode-width's `UnicodeWidthChar`.
        let (plan, module) = api(
            "pub trait Width { fn width(self) -> Option<usize>; fn is_digit(self) -> bool; }\n\
             impl Width for char { fn width(self) -> Option<usize> { None } fn is_digit(self) -> bool { true } }\n",
        );
        let kept = Kept { target: "width", value: &Value::Char('\u{7f}'), ending: "None", kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("assert_eq!('\\u{7f}'.width(), None);"), "{}", t.text);
        let kept = Kept { target: "is_digit", value: &Value::Char('a'), ending: "true", kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("assert!(<char as k::Width>::is_digit('a'));"), "{}", t.text);
    }

    #[test]
    fn a_crate_types_trait_function_is_called_on_the_type_with_the_trait_imported() {
        let (plan, module) = api(
            "pub trait Order { fn read(buf: &[u8]) -> u16; fn len(buf: &[u8]) -> usize; }\n\
             #[derive(Debug)] pub enum Big {}\n\
             impl Order for Big { fn read(buf: &[u8]) -> u16 { 0 } fn len(buf: &[u8]) -> usize { 0 } }\n\
             impl Big { pub fn len(buf: &[u8]) -> usize { 1 } }\n\
             pub trait ReadExt: std::io::Read { fn read_in<T: Order>(&mut self) -> std::io::Result<u16> { Ok(0) } }\n\
             impl<R: std::io::Read + ?Sized> ReadExt for R {}\n\
             pub trait WriteExt: std::io::Write {\n\
                 fn put(&mut self, n: u8) -> std::io::Result<()> { Ok(()) }\n\
                 fn flush(&mut self) -> std::io::Result<()> { Ok(()) }\n\
             }\n\
             impl<W: std::io::Write + ?Sized> WriteExt for W {}\n",
        );
        let mut taken = BTreeSet::new();
        let value = Value::Seq(vec![int("1", "u8"), int("2", "u8")]);
        let kept = Kept { target: "read", value: &value, ending: "258", kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert_eq!(t.name, "big_read");
        assert!(t.text.contains("assert_eq!(k::Big::read(&[1, 2]), 258);"), "{}", t.text);
        assert_eq!(t.uses, ["k::Order"]);
        // `Big::len` is its own function: the trait's stays qualified.
        let kept = Kept { target: "len", value: &value, ending: "0", kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("assert_eq!(<k::Big as k::Order>::len(&[1, 2]), 0);"), "{}", t.text);
        assert!(t.uses.is_empty());
        // A reader's and a writer's extension, on the buffer, unless the name is a buffer's.
        let kept = Kept { target: "read_in", value: &value, ending: r#""Ok(258)""#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        let read = "assert_eq!(std::io::Cursor::new(vec![1u8, 2]).read_in::<k::Big>().unwrap(), 258);";
        assert!(t.text.contains(read), "{}", t.text);
        assert_eq!(t.uses, ["k::ReadExt"]);
        let value = Value::Tuple(vec![Value::Seq(Vec::new()), int("7", "u8")]);
        let kept = Kept { target: "put", value: &value, ending: r#"("Ok(())", [7])"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("value.put(7).unwrap();\n    assert_eq!(value, [7]);"), "{}", t.text);
        assert_eq!(t.uses, ["k::WriteExt"]);
        let kept =
            Kept { target: "flush", value: &Value::Seq(Vec::new()), ending: r#"("Ok(())", [])"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("k::WriteExt::flush(&mut value).unwrap();"), "{}", t.text);
    }

    #[test]
    fn a_text_writer_starts_empty_and_a_fmt_result_is_compared_by_value() {
        let (plan, module) =
            api("pub fn hex<W: std::fmt::Write>(out: &mut W, b: u8) -> std::fmt::Result { Ok(()) }\n");
        let value = Value::Tuple(vec![s(""), int("1", "u8")]);
        let kept = Kept { target: "hex", value: &value, ending: r#"(Ok(()), "01")"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        let body = "    let mut out = String::new();\n    assert_eq!(k::hex(&mut out, 1), Ok(()));\n    assert_eq!(out, \"01\");\n";
        assert!(t.text.ends_with(&format!("{body}}}\n")), "{}", t.text);
    }

    #[test]
    fn an_ok_result_whose_error_compares_with_nothing_is_unwrapped() {
        let (plan, module) = api("use std::io;\n\
             pub fn read_u<R: io::Read>(r: &mut R) -> io::Result<u16> { Ok(0) }\n\
             pub fn put<W: io::Write>(w: &mut W) -> io::Result<()> { Ok(()) }\n\
             pub fn first(v: &[u8]) -> io::Result<&u8> { v.first().ok_or(io::ErrorKind::Other.into()) }\n");
        let bytes = Value::Seq(vec![int("1", "u8"), int("2", "u8")]);
        let text = |target: &str, value: &Value, ending: &str| {
            let kept = Kept { target, value, ending, kills: &[] };
            write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text
        };
        let t = text("read_u", &bytes, r#""Ok(258)""#);
        assert!(
            t.contains("assert_eq!(k::read_u(&mut std::io::Cursor::new(vec![1u8, 2])).unwrap(), 258);"),
            "{t}"
        );
        let t = text("read_u", &bytes, r#""Err(Kind(UnexpectedEof))""#);
        assert!(t.contains(r#"format!("{:?}", k::read_u("#), "{t}");
        let t = text("put", &Value::Seq(Vec::new()), r#"("Ok(())", [])"#);
        assert!(t.contains("k::put(&mut w).unwrap();"), "{t}");
        // A reference is compared by the value it points to.
        let t = text("first", &bytes, r#""Ok(1)""#);
        assert!(t.contains("assert_eq!(*k::first(&[1, 2]).unwrap(), 1);"), "{t}");
    }

    #[test]
    fn borrowed_items_of_an_into_iterator_are_written_as_an_array() {
        let (plan, module) =
            api("pub fn join<'a, I: IntoIterator<Item = &'a str>>(words: I) -> String { String::new() }\n\
             pub fn total<'a, I: IntoIterator<Item = &'a [u8]>>(chunks: I) -> usize { 0 }\n\
             pub fn sum<'a, I: IntoIterator<Item = &'a u16>>(xs: I) -> u16 { 0 }\n");
        let mut taken = BTreeSet::new();
        let words = Value::Seq(vec![s("a b"), s("c")]);
        let kept = Kept { target: "join", value: &words, ending: r#""'a b' c""#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains(r#"assert_eq!(k::join(["a b", "c"]), "'a b' c");"#), "{}", t.text);
        let bytes = |b: &[u8]| Value::Seq(b.iter().map(|b| int(&b.to_string(), "u8")).collect());
        let chunks = Value::Seq(vec![bytes(b"ab"), bytes(&[]), bytes(&[0xff, 0xfe])]);
        let kept = Kept { target: "total", value: &chunks, ending: "4", kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        let call = r#"k::total([b"ab".as_slice(), b"".as_slice(), [255u8, 254u8].as_slice()])"#;
        assert!(t.text.contains(call), "{}", t.text);
        let xs = Value::Seq(vec![int("1", "u16"), int("2", "u16")]);
        let kept = Kept { target: "sum", value: &xs, ending: "3", kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("assert_eq!(k::sum([1u16, 2u16].iter()), 3);"), "{}", t.text);
    }

    #[test]
    fn a_constant_chosen_for_a_borrowed_parameter_is_written_by_its_path() {
        let (plan, module) = api("#[derive(Debug)] pub struct Set { mask: u8 }\n\
             pub const CONTROLS: &Set = &Set { mask: 1 };\n\
             pub fn encode(input: &[u8], set: &'static Set) -> usize { 0 }\n");
        let mut taken = BTreeSet::new();
        let value =
            Value::Tuple(vec![Value::Seq(vec![int("97", "u8")]), Value::Variant("Controls".into(), vec![])]);
        let kept = Kept { target: "encode", value: &value, ending: "1", kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("assert_eq!(k::encode(b\"a\", k::CONTROLS), 1);"), "{}", t.text);
    }

    #[test]
    fn assertions_become_plain_evaluations_for_a_nondeterministic_target() {
        let t = TestFn {
            name: "f".into(),
            text: "// Kills a\n#[test]\nfn f() {\n    assert_eq!(k::f(\"a, )\"), concat!(\n\"x\",\n\"y\"));\n    \
                   assert!(!k::g(1));\n    let v = k::h();\n    assert_eq!(format!(\"{v:?}\"), \"V\");\n}\n"
                .into(),
            base: "f".into(),
            harness: false,
            uses: Vec::new(),
            args_name: None,
            lean: None,
        };
        let t = without_assertions(t);
        assert_eq!(
            t.text,
            "// Kills a\n#[test]\nfn f() {\n    let _ = k::f(\"a, )\");\n    let _ = k::g(1);\n    let v = k::h();\n}\n"
        );
    }

    #[test]
    fn a_std_trait_method_outside_the_prelude_is_written_through_its_path() {
        let (plan, module) = api("#[derive(Debug)] pub struct Sum(u64);\n\
             impl Sum { pub fn new() -> Sum { Sum(0) } }\n\
             impl std::hash::Hasher for Sum { fn finish(&self) -> u64 { self.0 }\n\
             fn write(&mut self, bytes: &[u8]) { self.0 += bytes.len() as u64 } }\n");
        let bytes = Value::Seq(vec![int("104", "u8"), int("105", "u8")]);
        let calls =
            vec![Value::Variant("Write".into(), vec![bytes]), Value::Variant("Finish".into(), vec![])];
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![]), Value::Seq(calls)]);
        let ending = r#"["()", "2", "Sum(2)"]"#;
        let kept = Kept { target: "sum_calls", value: &value, ending, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert!(t.text.contains("std::hash::Hasher::write(&mut sum, b\"hi\");"), "{}", t.text);
        assert!(t.text.contains("assert_eq!(std::hash::Hasher::finish(&sum), 2);"), "{}", t.text);
    }

    #[test]
    fn a_returned_iterator_is_asserted_on_its_items_unless_their_rendering_was_cut() {
        let (plan, module) = api("#[derive(Debug)] pub struct Bits(u8);\n\
             impl Bits { pub fn new() -> Bits { Bits(3) }\n\
             pub fn ones(&self) -> impl Iterator<Item = bool> + '_ { (0..8).map(|i| self.0 >> i & 1 == 1) } }\n");
        let value = Value::Tuple(vec![
            Value::Variant("New".into(), vec![]),
            Value::Seq(vec![Value::Variant("Ones".into(), vec![]), Value::Variant("Ones".into(), vec![])]),
        ]);
        let ending = r#"["[true, true]", "[true, tr…", "Bits(3)"]"#;
        let kept = Kept { target: "bits_calls", value: &value, ending, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        // Plain items, fewer than the bound: compared as a `Vec`, without `take`.
        let whole = "assert_eq!(bits.ones().collect::<Vec<_>>(), [true, true]);";
        assert!(t.text.contains(whole), "{}", t.text);
        assert!(t.text.contains("let _ = bits.ones().take(64).collect::<Vec<_>>();"), "{}", t.text);
        // A call that panicked in its items' `next` is taken as far as the harness took it:
        // an iterator not consumed would not panic.
        let kept = Kept { target: "bits_calls", value: &value, ending: "panic: gone", kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        let last = t.text.lines().rev().nth(1).unwrap();
        assert_eq!(last, "    let _ = bits.ones().take(64).collect::<Vec<_>>();", "{}", t.text);
    }

    #[test]
    fn items_compared_as_a_vec_only_where_the_iterator_yields_values() {
        let (plan, module) = api("pub struct Decode(Vec<u8>);\n\
             impl Iterator for Decode { type Item = u8; fn next(&mut self) -> Option<u8> { self.0.pop() } }\n\
             pub fn decode(input: &[u8]) -> Decode { Decode(input.to_vec()) }\n\
             pub fn refs(input: &[u8]) -> impl Iterator<Item = &u8> { input.iter() }\n\
             pub fn words(text: &str) -> impl Iterator<Item = &str> { text.split(' ') }\n");
        let mut taken = BTreeSet::new();
        let value = Value::Seq(vec![int("240", "u8")]);
        let kept = Kept { target: "decode", value: &value, ending: r#""[240]""#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("assert_eq!(k::decode(&[240]).collect::<Vec<_>>(), [240]);"), "{}", t.text);
        // `&u8` items: a `Vec<&u8>` is not equal to an array of numbers.
        let kept = Kept { target: "refs", value: &value, ending: r#""[240]""#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        let debug = r#"assert_eq!(format!("{:?}", k::refs(&[240]).collect::<Vec<_>>()), "[240]");"#;
        assert!(t.text.contains(debug), "{}", t.text);
        // `&str` items compare with string literals.
        let kept = Kept { target: "words", value: &s("a b"), ending: r#""[\"a\", \"b\"]""#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(
            t.text.contains(r#"assert_eq!(k::words("a b").collect::<Vec<_>>(), ["a", "b"]);"#),
            "{}",
            t.text
        );
    }

    #[test]
    fn an_adapted_iterator_is_asserted_on_its_size_hint_or_its_items_from_the_back() {
        let (plan, module) = api("#[derive(Debug)] pub struct Bits(u8);\n\
             impl Bits { pub fn new() -> Bits { Bits(3) }\n\
             pub fn ones(&self) -> impl ExactSizeIterator<Item = u8> + DoubleEndedIterator + '_ { 0..self.0 } }\n");
        let calls = ["OnesSizeHint", "OnesRev"].map(|v| Value::Variant(v.into(), vec![]));
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![]), Value::Seq(calls.to_vec())]);
        let ending = r#"["(3, Some(3))", "[2, 1, 0]", "Bits(3)"]"#;
        let kept = Kept { target: "bits_calls", value: &value, ending, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert!(t.text.contains("fn bits_ones_size_hint_ones_rev() {"), "{}", t.text);
        assert!(t.text.contains("assert_eq!(bits.ones().size_hint(), (3, Some(3)));"), "{}", t.text);
        let back = "assert_eq!(bits.ones().rev().collect::<Vec<_>>(), [2, 1, 0]);";
        assert!(t.text.contains(back), "{}", t.text);
        // Items that are not literals keep their `Debug` text.
        let ending = r#"["(3, Some(3))", "[Bit(2)]", "Bits(3)"]"#;
        let kept = Kept { target: "bits_calls", value: &value, ending, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        let debug = r#"assert_eq!(format!("{:?}", bits.ones().rev().collect::<Vec<_>>()), "[Bit(2)]");"#;
        assert!(t.text.contains(debug), "{}", t.text);
        // An iterator type of the crate's whose `count` is its own (lru's `Iter`).
        let (plan, module) = api("#[derive(Debug)] pub struct Bits(u8);\n\
             impl Bits { pub fn new() -> Bits { Bits(3) } pub fn ones(&self) -> Ones { Ones(self.0) } }\n\
             pub struct Ones(u8);\n\
             impl Iterator for Ones { type Item = u8;\n\
                 fn next(&mut self) -> Option<u8> { None } fn count(self) -> usize { 3 } }\n\
             impl ExactSizeIterator for Ones { fn len(&self) -> usize { 3 } }\n");
        let calls = ["OnesCount", "OnesLen"].map(|v| Value::Variant(v.into(), vec![]));
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![]), Value::Seq(calls.to_vec())]);
        let kept =
            Kept { target: "bits_calls", value: &value, ending: r#"["3", "3", "Bits(3)"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert!(t.text.contains("assert_eq!(bits.ones().count(), 3);"), "{}", t.text);
        assert!(t.text.contains("assert_eq!(bits.ones().len(), 3);"), "{}", t.text);
        assert!(module.text.contains("BitsCall::OnesCount => format!(\"{:?}\", bits.ones().count()),"));
    }

    #[test]
    fn a_value_collected_from_items_is_built_by_collect() {
        let (plan, module) = api("#[derive(Debug)] pub struct Set(Vec<u8>);\n\
             impl Set { pub fn len(&self) -> usize { self.0.len() } }\n\
             impl FromIterator<u8> for Set {\n\
                 fn from_iter<I: IntoIterator<Item = u8>>(i: I) -> Set { Set(i.into_iter().collect()) }\n\
             }\n\
             impl FromIterator<usize> for Set {\n\
                 fn from_iter<I: IntoIterator<Item = usize>>(i: I) -> Set { Set(vec![]) }\n\
             }\n");
        // Two item types: the first literal says which; a `usize` is written as digits.
        let items = Value::Seq(vec![int("0", "u16"), int("65535", "u16")]);
        let make = Value::Variant("FromIterUsize".into(), vec![items]);
        let value = Value::Tuple(vec![make, Value::Seq(vec![Value::Variant("Len".into(), vec![])])]);
        let kept = Kept { target: "set_calls", value: &value, ending: r#"["2", "Set([1, 2])"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        let built = "let set = vec![0usize, 65535].into_iter().collect::<k::Set>();";
        assert!(t.text.contains(built), "{}", t.text);
        assert!(t.text.contains("assert_eq!(set.len(), 2);"), "{}", t.text);
        let empty = Value::Tuple(vec![
            Value::Variant("FromIterUsize".into(), vec![Value::Seq(Vec::new())]),
            Value::Seq(Vec::new()),
        ]);
        let kept = Kept { target: "set_calls", value: &empty, ending: r#"["Set([])"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        let built = "let set = std::iter::empty::<usize>().collect::<k::Set>();";
        assert!(t.text.contains(built), "{}", t.text);
        // One item many times: `[0usize; 5]`, not five zeros.
        let zeros = Value::Tuple(vec![
            Value::Variant("FromIterUsize".into(), vec![Value::Seq(vec![int("0", "u16"); 5])]),
            Value::Seq(Vec::new()),
        ]);
        let kept = Kept { target: "set_calls", value: &zeros, ending: r#"["Set([])"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        let built = "let set = vec![0usize; 5].into_iter().collect::<k::Set>();";
        assert!(t.text.contains(built), "{}", t.text);
        // A type `From` an array of its items is built from one.
        let (plan, module) = api("#[derive(Debug)] pub struct Map<K, V>(Vec<(K, V)>);\n\
             impl<K, V> Map<K, V> { pub fn len(&self) -> usize { self.0.len() } }\n\
             impl<K, V> FromIterator<(K, V)> for Map<K, V> {\n\
                 fn from_iter<I: IntoIterator<Item = (K, V)>>(i: I) -> Self { Map(i.into_iter().collect()) }\n\
             }\n\
             impl<K, V, const N: usize> From<[(K, V); N]> for Map<K, V> {\n\
                 fn from(a: [(K, V); N]) -> Self { Map(a.into_iter().collect()) }\n\
             }\n");
        let pair = Value::Tuple(vec![int("0", "i64"), int("1", "i64")]);
        let make = Value::Variant("FromIter".into(), vec![Value::Seq(vec![pair])]);
        let value = Value::Tuple(vec![make, Value::Seq(vec![Value::Variant("Len".into(), vec![])])]);
        let kept =
            Kept { target: "map_calls", value: &value, ending: r#"["1", "Map([(0, 1)])"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        let built = "let map = k::Map::<i64, i64>::from([(0, 1)]);";
        assert!(t.text.contains(built), "{}", t.text);
        // Not `From` an array of one length only.
        let (plan, _) = api("#[derive(Debug)] pub struct Key(Vec<u8>);\n\
             impl FromIterator<u8> for Key { fn from_iter<I: IntoIterator<Item = u8>>(i: I) -> Self { Key(vec![]) } }\n\
             impl From<[u8; 4]> for Key { fn from(a: [u8; 4]) -> Self { Key(a.to_vec()) } }\n");
        let kinds: Vec<bool> = plan.types[0]
            .constructors
            .iter()
            .filter_map(|c| match c.kind {
                CtorKind::FromIter { array, .. } => Some(array),
                _ => None,
            })
            .collect();
        assert_eq!(kinds, [false]);
    }

    #[test]
    fn a_hash_comparison_is_written_with_std_alone() {
        let (plan, module) = api("#[derive(Debug)] pub struct Set(Vec<u8>);\n\
             impl Set { pub fn new() -> Set { Set(Vec::new()) } pub fn push(&mut self, b: u8) { self.0.push(b) } }\n\
             impl std::hash::Hash for Set { fn hash<H: std::hash::Hasher>(&self, h: &mut H) { self.0.hash(h) } }\n");
        let new = || Value::Variant("New".into(), vec![]);
        let calls = vec![
            Value::Variant("Push".into(), vec![int("1", "u8")]),
            Value::Variant("Hash".into(), vec![new()]),
        ];
        let value = Value::Tuple(vec![new(), Value::Seq(calls)]);
        let kept =
            Kept { target: "set_calls", value: &value, ending: r#"["()", "false", "Set([1])"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        let expected = "    set.push(1);\n    \
                        let hash_state = std::collections::hash_map::RandomState::new();\n    \
                        assert_ne!(std::hash::BuildHasher::hash_one(&hash_state, &set), \
                        std::hash::BuildHasher::hash_one(&hash_state, k::Set::new()));\n";
        assert!(t.text.contains(expected), "{}", t.text);
        assert_eq!(t.name, "set_push_hash");
        // Without the assertion on the last state after it, the hash takes the set itself.
        let lean = t.clone().leaner().text;
        assert!(lean.contains("hash_one(&hash_state, set), "), "{lean}");
        // A static is borrowed, not moved out of.
        let step = hash_step("set", "&k::EMPTY", "true").unwrap();
        assert!(step[1].ends_with("hash_one(&hash_state, &k::EMPTY));"), "{step:?}");
        // Checked against `PartialEq`: equal values that hash apart are not asserted.
        assert!(hash_step("set", "&other", "Some(false)").unwrap()[1].starts_with("assert_ne!("));
        let why = hash_step("set", "&other", "None").unwrap_err();
        assert!(why.contains("`Hash` disagrees with its `PartialEq`"), "{why}");
    }

    #[test]
    fn a_value_of_a_type_named_as_the_crate_is_not_bound_to_the_crates_name() {
        let (plan, module) = api("#[derive(Debug)] pub struct K(u8);\n\
             impl K { pub fn new() -> K { K(0) } pub fn get(&self) -> u8 { self.0 } }\n");
        let calls = vec![Value::Variant("Get".into(), vec![])];
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![]), Value::Seq(calls)]);
        let kept = Kept { target: "k_calls", value: &value, ending: r#"["0", "K(0)"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap();
        assert!(
            t.text.contains("    let value = k::K::new();\n    assert_eq!(value.get(), 0);\n"),
            "{}",
            t.text
        );
        assert_eq!(t.name, "k_get");
    }

    #[test]
    fn a_call_whose_result_showed_an_address_is_kept_but_not_asserted_on() {
        let (plan, module) = api("#[derive(Debug)] pub struct Buf(Vec<u8>);\n\
             impl Buf { pub fn new() -> Buf { Buf(Vec::new()) } pub fn len(&self) -> usize { self.0.len() } }\n\
             impl Clone for Buf { fn clone(&self) -> Self { Buf(self.0.clone()) } }\n");
        let calls = ["Clone", "Len"].map(|v| Value::Variant(v.into(), vec![]));
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![]), Value::Seq(calls.to_vec())]);
        let test = |ending: &str| {
            let kept = Kept { target: "buf_calls", value: &value, ending, kills: &[] };
            write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text
        };
        let plain = test(r#"["Buf([])", "0", "Buf([])"]"#);
        assert!(plain.contains(r#"assert_eq!(format!("{:?}", buf.clone()), "Buf([])");"#), "{plain}");
        let masked = test(r#"["Buf { data: 0x…, len: 0 }", "0", "Buf { data: 0x…, len: 0 }"]"#);
        assert!(masked.contains("let _ = buf.clone();"), "{masked}");
        assert!(masked.contains("assert_eq!(buf.len(), 0);"), "{masked}");
    }

    #[test]
    fn a_built_value_whose_rendering_held_an_address_is_not_asserted_on() {
        let (plan, module) = api("#[derive(Debug)] pub struct Buf(Vec<u8>);\n\
             impl Buf { pub fn new() -> Buf { Buf(Vec::new()) } pub fn push(&mut self, b: u8) { self.0.push(b) } }\n");
        let value = Value::Tuple(vec![
            Value::Variant("New".into(), vec![]),
            Value::Seq(vec![Value::Variant("Push".into(), vec![Value::Int("7".into(), "u8".into())])]),
        ]);
        let test = |ending: &str| {
            let kept = Kept { target: "buf_calls", value: &value, ending, kills: &[] };
            write(&plan, &module, &kept, &mut BTreeSet::new()).unwrap().text
        };
        let plain = test(r#"["()", "Buf([7])"]"#);
        assert!(plain.contains(r#"assert_eq!(format!("{buf:?}"), "Buf([7])");"#), "{plain}");
        let masked = test(r#"["()", "Buf { data: 0x…, len: 1 }"]"#);
        assert!(masked.contains("buf.push(7);") && !masked.contains("assert"), "{masked}");
    }

    #[test]
    fn an_input_the_original_rejects_is_a_test_that_its_constructor_fails() {
        let (plan, module) = api("#[derive(Debug)] pub struct Stamp(u64);\n\
             impl std::str::FromStr for Stamp { type Err = (); fn from_str(s: &str) -> Result<Stamp, ()> { Err(()) } }\n\
             impl std::fmt::Display for Stamp { fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { Ok(()) } }\n\
             pub fn span(a: Stamp, b: Stamp) -> u64 { 0 }\n");
        let ending = format!("panic: {}", mutfuzz_contract::DISCARD_MESSAGE);
        let stamp = |text: &str| Value::Variant("Parse".into(), vec![s(text)]);
        let mut taken = BTreeSet::new();
        let mut test = |target: &str, value: &Value| {
            write(&plan, &module, &Kept { target, value, ending: &ending, kills: &[] }, &mut taken)
        };
        // In a plain test `.unwrap()` would panic with the parse error, not the harness's
        // rejection: the test says that the parse fails.
        let t = test("make_stamp", &stamp("9999-11-31")).unwrap();
        assert_eq!(
            t.text,
            "#[test]\nfn make_stamp() {\n    assert!(\"9999-11-31\".parse::<k::Stamp>().is_err());\n}\n"
        );
        // Two stamps, either of which may have failed: no test.
        let value = Value::Tuple(vec![stamp("a"), stamp("b")]);
        let why = test("span", &value).unwrap_err();
        assert!(why.contains("which of its constructors failed is not known"), "{why}");
        // The constructor's own target: the parse as a person writes it.
        let t = write(
            &plan,
            &module,
            &Kept { target: "stamp_from_str", value: &s("x"), ending: "\"Err(())\"", kills: &[] },
            &mut taken,
        )
        .unwrap();
        assert!(t.text.contains(r#"format!("{:?}", "x".parse::<k::Stamp>())"#), "{}", t.text);
    }

    #[test]
    fn a_value_shown_by_hand_is_asserted_on_by_display_and_by_debug() {
        let (plan, module) = api("#[derive(Debug)] pub struct Stamp(u64);\n\
             impl Stamp { pub fn new(n: u64) -> Stamp { Stamp(n) } pub fn later(&self) -> Stamp { Stamp(self.0 + 1) } }\n\
             impl std::fmt::Display for Stamp { fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { write!(f, \"{}s\", self.0) } }\n\
             pub fn stamp(n: u64) -> Stamp { Stamp(n) }\n");
        let mut taken = BTreeSet::new();
        let value = int("3", "u64");
        let kept = Kept { target: "stamp", value: &value, ending: r#"("3s", "Stamp(3)")"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        let body = "    let shown = k::stamp(3);\n    assert_eq!(shown.to_string(), \"3s\");\n    \
                    assert_eq!(format!(\"{shown:?}\"), \"Stamp(3)\");\n";
        assert!(t.text.ends_with(&format!("{body}}}\n")), "{}", t.text);
        // Its lean form, which the check keeps where it catches as much, has the
        // `Display` alone.
        let lean = t.leaner().text;
        assert!(lean.ends_with("    assert_eq!(k::stamp(3).to_string(), \"3s\");\n}\n"), "{lean}");
        // Not a `Debug` that differs between platforms.
        let ending = r#"("3s", "Stamp(SystemTime { tv_sec: 3, tv_nsec: 0 })")"#;
        let kept = Kept { target: "stamp", value: &value, ending, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(
            t.text.contains("    assert_eq!(k::stamp(3).to_string(), \"3s\");\n}") && t.lean.is_none(),
            "{}",
            t.text
        );
        // In a sequence, in a block: the sequence's own bindings stay as they were.
        let calls = Value::Seq(vec![Value::Variant("Later".into(), vec![])]);
        let value = Value::Tuple(vec![Value::Variant("New".into(), vec![int("1", "u64")]), calls]);
        let ending = r#"["(\"2s\", \"Stamp(2)\")", "Stamp(1)", "1s"]"#;
        let kept = Kept { target: "stamp_calls", value: &value, ending, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains("    {\n        let shown = stamp.later();\n"), "{}", t.text);
        assert!(t.text.contains("assert_eq!(stamp.to_string(), \"1s\");"), "{}", t.text);
        // A value asserted on alone: the lean form keeps its `Display`, not its `Debug`.
        let value =
            Value::Tuple(vec![Value::Variant("New".into(), vec![int("1", "u64")]), Value::Seq(vec![])]);
        let kept = Kept { target: "stamp_calls", value: &value, ending: r#"["Stamp(1)", "1s"]"#, kills: &[] };
        let t = write(&plan, &module, &kept, &mut taken).unwrap();
        assert!(t.text.contains(r#"assert_eq!(format!("{stamp:?}"), "Stamp(1)");"#), "{}", t.text);
        let lean = t.leaner().text;
        assert!(
            lean.contains(r#"assert_eq!(stamp.to_string(), "1s");"#) && !lean.contains("{stamp:?}"),
            "{lean}"
        );
    }

    #[test]
    fn a_tests_kills_comment_is_written_again_from_what_it_was_seen_to_catch() {
        let mut text = String::new();
        push_wrapped_comment(
            &mut text,
            &format!("Kills src/lib.rs:1:1: {}", "replace a long thing ".repeat(6)),
        );
        text.push_str(
            "// Kills src/lib.rs:2:2: replace + with -\n#[cfg(feature = \"std\")]\n#[test]\nfn t() {}\n",
        );
        let t = TestFn {
            name: "t".into(),
            text: text.clone(),
            base: "t".into(),
            harness: false,
            uses: Vec::new(),
            args_name: None,
            lean: Some(text),
        };
        let t = t.with_kills(&["src/lib.rs:3:3: delete !".to_owned()]);
        let want = "// Kills src/lib.rs:3:3: delete !\n#[cfg(feature = \"std\")]\n#[test]\nfn t() {}\n";
        assert_eq!(t.text, want);
        assert_eq!(t.lean.as_deref(), Some(want));
    }

    #[test]
    fn a_long_string_is_cut_between_words() {
        let text = "ParserConfig { allow_spaces_after_header_name_in_responses: true, allow_space_before_first_header_name: true, ignore_invalid_headers_in_responses: false }";
        let written = string(text);
        let syn::Expr::Macro(m) = syn::parse_str::<syn::Expr>(&written).unwrap() else { panic!("{written}") };
        let pieces: syn::punctuated::Punctuated<syn::LitStr, syn::Token![,]> =
            m.mac.parse_body_with(syn::punctuated::Punctuated::parse_terminated).unwrap();
        let pieces: Vec<String> = pieces.iter().map(syn::LitStr::value).collect();
        assert_eq!(pieces.concat(), text);
        // httparse's `ignore_invalid_headers_in_re` / `sponses` was cut inside the word.
        assert!(pieces[..pieces.len() - 1].iter().all(|p| p.ends_with(' ')), "{pieces:?}");
    }

    #[test]
    fn a_long_list_of_kills_is_cut_to_a_count() {
        let kills: Vec<String> =
            (1..=440).map(|i| format!("src/lib.rs:{i}:1: replace 1 with 0 in f")).collect();
        let mut out = String::new();
        push_kills(&mut out, &kills);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), KILLS_LISTED - 1, "{out}");
        assert_eq!(lines[KILLS_LISTED - 2], "// Kills 430 more (`cargo mutfuzz report` names each)");
        let mut out = String::new();
        push_kills(&mut out, &kills[..KILLS_LISTED]);
        assert_eq!(out.lines().count(), KILLS_LISTED, "{out}");
    }

    #[test]
    fn kills_comments_wrap_at_a_hundred_columns_between_words() {
        let mut out = String::new();
        let long = "Kills src/lib.rs:477:12: replace if condition self.map.as_ref().expect(\"map should have been created\") with false in GrowingHashmapChar<ValueType>::get_mut";
        push_wrapped_comment(&mut out, long);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "// Kills src/lib.rs:477:12: replace if condition self.map.as_ref().expect(\"map should have been",
                "//    created\") with false in GrowingHashmapChar<ValueType>::get_mut",
            ]
        );
        assert!(lines.iter().all(|l| l.chars().count() <= COMMENT_WIDTH));
        let mut short = String::new();
        push_wrapped_comment(&mut short, "Kills src/lib.rs:1:1: replace + with -");
        assert_eq!(short, "// Kills src/lib.rs:1:1: replace + with -\n");
    }

    #[test]
    fn a_test_that_expects_an_overflow_check_is_for_debug_builds_only() {
        assert_eq!(attributes(None), "#[test]\n");
        assert_eq!(
            attributes(Some("attempt to shift left with overflow")),
            "#[cfg(debug_assertions)]\n#[test]\n#[should_panic(expected = \"attempt to shift left with overflow\")]\n"
        );
        // Checked in every profile.
        for message in ["attempt to divide with overflow", "attempt to divide by zero", "index out of bounds"]
        {
            assert!(attributes(Some(message)).starts_with("#[test]\n#[should_panic"), "{message}");
        }
    }
}
