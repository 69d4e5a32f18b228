//! A kept input of a hand-written target written as a `#[test]`: the generated value as
//! a Rust expression built from its [`ValueTree`] (the harness's own types by name,
//! through a `use harness::…` line; std values as literals and constructor calls), the
//! call of the target in the included harness, and the assertion on the recorded result
//! that a generated target's test makes.

use std::collections::BTreeSet;

use mutfuzz_contract::{Fields, FloatType, MapKind, PointerKind, SeqKind, ValueTree};

use super::{
    TestFn, assert_debug, assert_value, byte_string_of, dereferenced, float_literal, int_literal, literal,
    plain, repeated,
};
use crate::hand::{HandHarness, Item};

/// One kept input of a hand-written target.
pub struct Kept<'a> {
    pub target: &'a str,
    pub value: &'a ValueTree,
    /// How the original ended: the output's `Debug` text, `panic: <message>` or `discarded`.
    pub ending: &'a str,
    /// One line per mutant it kills, for the comment above it.
    pub kills: &'a [String],
}

/// A written test, and the items of the harness it names that the including file cannot
/// see (the test compiles once they are `pub(crate)`).
pub struct Written {
    pub test: TestFn,
    pub private: BTreeSet<Item>,
}

/// Names the file does not import from the harness: a harness type of one of these names
/// would shadow what the written values use.
const STD_NAMES: [&str; 16] = [
    "Box", "Rc", "Arc", "Vec", "String", "Option", "Some", "None", "Result", "Ok", "Err", "VecDeque",
    "BTreeSet", "BTreeMap", "HashSet", "HashMap",
];

/// Above this length, or holding a struct literal (which rustfmt spreads over lines), the
/// value gets a `let` of its own before the call.
const INLINE_UP_TO: usize = 32;

/// Writes `kept` as a test of the harness `h`; an error says why it cannot be written.
pub fn write(h: &HandHarness, kept: &Kept<'_>, taken: &mut BTreeSet<String>) -> Result<Written, String> {
    if kept.ending == "discarded" {
        return Err("the target discards it".into());
    }
    let target = h.target(kept.target)?;
    let mut w = Writer { h, uses: BTreeSet::new(), private: BTreeSet::new() };
    if !target.item.visible {
        w.private.insert(target.item.clone());
    }
    let value = w.expr(kept.value)?;
    let mut body = Vec::new();
    let arg = if value.len() > INLINE_UP_TO || value.contains('{') {
        let name = target.param.clone().unwrap_or_else(|| "input".to_owned());
        body.push(format!("let {name} = {value};"));
        name
    } else {
        value
    };
    let call = format!("harness::{}({arg})", kept.target);
    let panic = kept.ending.strip_prefix("panic: ");
    match (&target.output, panic) {
        (_, Some(_)) | (None, None) => body.push(format!("{call};")),
        (Some(ty), None) if plain(ty, &[]) && literal(kept.ending) => {
            body.push(assert_value(&dereferenced(&call, ty), kept.ending))
        }
        (Some(_), None) => body.push(assert_debug(&call, kept.ending)),
    }
    let base = kept.target.to_owned();
    let mut name = base.clone();
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{base}_{n}");
        n += 1;
    }
    let mut text = String::new();
    for k in kept.kills {
        text.push_str(&format!("// Kills {k}\n"));
    }
    text.push_str(&super::attributes(panic));
    text.push_str(&format!("fn {name}() {{\n"));
    for line in body {
        text.push_str(&format!("    {line}\n"));
    }
    text.push_str("}\n");
    let test = TestFn {
        name,
        text,
        base,
        harness: true,
        uses: w.uses.into_iter().collect(),
        args_name: None,
        lean: None,
    };
    Ok(Written { test, private: w.private })
}

struct Writer<'a> {
    h: &'a HandHarness,
    uses: BTreeSet<String>,
    private: BTreeSet<Item>,
}

impl Writer<'_> {
    /// The value as a Rust expression.
    fn expr(&mut self, tree: &ValueTree) -> Result<String, String> {
        Ok(match tree {
            ValueTree::Signed { ty, value } => int_literal(&value.to_string(), ty.name()),
            ValueTree::Unsigned { ty, value } => int_literal(&value.to_string(), ty.name()),
            ValueTree::Float { ty, bits, .. } => match ty {
                FloatType::F32 => float_literal(f64::from(f32::from_bits(*bits as u32)), "f32"),
                FloatType::F64 => float_literal(f64::from_bits(*bits), "f64"),
            },
            ValueTree::Bool(b) => b.to_string(),
            ValueTree::Char(c) => format!("{c:?}"),
            ValueTree::String(s) => format!("{s:?}.to_owned()"),
            ValueTree::Unit => "()".into(),
            ValueTree::Seq { kind, items } => self.seq(*kind, items)?,
            ValueTree::Map { kind, entries } => {
                let name = match kind {
                    MapKind::BTreeMap => "BTreeMap",
                    MapKind::HashMap => "HashMap",
                };
                self.uses.insert(format!("std::collections::{name}"));
                let entries: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| Ok(format!("({}, {})", self.expr(k)?, self.expr(v)?)))
                    .collect::<Result<_, String>>()?;
                if entries.is_empty() {
                    format!("{name}::new()")
                } else {
                    format!("{name}::from([{}])", entries.join(", "))
                }
            }
            ValueTree::Tuple(items) => {
                let items = self.all(items)?;
                if items.len() == 1 { format!("({},)", items[0]) } else { format!("({})", items.join(", ")) }
            }
            ValueTree::Array(items) => {
                let items = self.all(items)?;
                match repeated(&items) {
                    Some((item, n)) => format!("[{item}; {n}]"),
                    None => format!("[{}]", items.join(", ")),
                }
            }
            ValueTree::Option(None) => "None".into(),
            ValueTree::Option(Some(v)) => format!("Some({})", self.expr(v)?),
            ValueTree::Result(Ok(v)) => format!("Ok({})", self.expr(v)?),
            ValueTree::Result(Err(v)) => format!("Err({})", self.expr(v)?),
            ValueTree::Pointer { kind, value } => {
                let name = match kind {
                    PointerKind::Box => "Box",
                    PointerKind::Rc => {
                        self.uses.insert("std::rc::Rc".into());
                        "Rc"
                    }
                    PointerKind::Arc => {
                        self.uses.insert("std::sync::Arc".into());
                        "Arc"
                    }
                };
                format!("{name}::new({})", self.expr(value)?)
            }
            ValueTree::Struct { name, fields: Fields::Unit } if name == "PhantomData" => {
                self.uses.insert("std::marker::PhantomData".into());
                "PhantomData".into()
            }
            ValueTree::Struct { name, fields } => {
                let def = self.h.type_named(name)?;
                let path = self.type_path(def);
                // A struct literal names every field.
                for (_, item) in def.fields.iter().filter(|(_, i)| !i.visible) {
                    self.private.insert(item.clone());
                }
                self.fields(&path, fields)?
            }
            ValueTree::Variant { name, variant, fields } => {
                let def = self.h.type_named(name)?;
                let path = format!("{}::{variant}", self.type_path(def));
                self.fields(&path, fields)?
            }
            ValueTree::Opaque { ty, debug } => {
                return Err(match debug {
                    Some(text) => {
                        format!("a value of `{ty}` has no Rust form here (it has no reflection): {text}")
                    }
                    None => format!("a value of `{ty}` has no Rust form here (no reflection, no Debug)"),
                });
            }
        })
    }

    fn all(&mut self, items: &[ValueTree]) -> Result<Vec<String>, String> {
        items.iter().map(|i| self.expr(i)).collect()
    }

    fn seq(&mut self, kind: SeqKind, items: &[ValueTree]) -> Result<String, String> {
        if kind == SeqKind::Vec {
            let bytes: Option<Vec<u8>> = items
                .iter()
                .map(|i| match i {
                    ValueTree::Unsigned { ty: mutfuzz_contract::UnsignedType::U8, value } => {
                        u8::try_from(*value).ok()
                    }
                    _ => None,
                })
                .collect();
            if let Some(text) = bytes.as_deref().and_then(byte_string_of) {
                return Ok(format!("{text}.to_vec()"));
            }
            let items = self.all(items)?;
            return Ok(match repeated(&items) {
                Some((item, n)) => format!("vec![{item}; {n}]"),
                None => format!("vec![{}]", items.join(", ")),
            });
        }
        let name = match kind {
            SeqKind::VecDeque => "VecDeque",
            SeqKind::BTreeSet => "BTreeSet",
            SeqKind::HashSet => "HashSet",
            SeqKind::Vec => unreachable!("written above"),
        };
        self.uses.insert(format!("std::collections::{name}"));
        let items = self.all(items)?;
        Ok(if items.is_empty() {
            format!("{name}::new()")
        } else {
            format!("{name}::from([{}])", items.join(", "))
        })
    }

    /// How the tests name a harness type: imported by a `use` line, unless its name is
    /// one the written values use from std. The type and the modules on its way must be
    /// visible to the including file.
    fn type_path(&mut self, def: &crate::hand::TypeDef) -> String {
        for item in def.modules.iter().chain([&def.item]).filter(|i| !i.visible) {
            self.private.insert(item.clone());
        }
        let name = def.path.last().cloned().unwrap_or_default();
        let full = format!("harness::{}", def.path.join("::"));
        if STD_NAMES.contains(&name.as_str()) {
            return full;
        }
        self.uses.insert(full);
        name
    }

    /// `path { a: …, b: … }`, `path(…, …)` or `path`.
    fn fields(&mut self, path: &str, fields: &Fields) -> Result<String, String> {
        Ok(match fields {
            Fields::Named(named) => {
                let parts: Vec<String> = named
                    .iter()
                    .map(|(name, v)| Ok(format!("{name}: {}", self.expr(v)?)))
                    .collect::<Result<_, String>>()?;
                format!("{path} {{ {} }}", parts.join(", "))
            }
            Fields::Tuple(items) => format!("{path}({})", self.all(items)?.join(", ")),
            Fields::Unit => path.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use mutfuzz_contract::{SignedType, UnsignedType};

    use super::*;
    use crate::test_writer::{FileHead, Include, file};

    const HARNESS: &str = "use mutfuzz::Gen;\n\
        #[derive(Debug, Gen)]\n\
        pub(crate) enum Term {\n    Num(i64),\n    Add(Box<Term>, Box<Term>),\n}\n\
        #[derive(Debug, Gen)]\n\
        pub(crate) struct Window {\n    pub(crate) x: i64,\n    lo: i8,\n}\n\
        #[derive(Debug, Gen)]\n\
        struct Box(u8);\n\
        pub(crate) fn eval(term: Term) -> i64 { 0 }\n\
        pub(crate) fn show(term: Term) -> String { String::new() }\n\
        fn clamp(w: Window) -> Vec<i64> { vec![] }\n\
        pub(crate) fn bytes(b: (Vec<u8>, std::collections::BTreeSet<char>)) {}\n\
        pub(crate) fn boxed(b: Box) -> u8 { 0 }\n\
        mutfuzz::targets!(eval, show, clamp, bytes, boxed);\n";

    fn harness() -> HandHarness {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("mutfuzz/src/main.rs");
        fs::create_dir_all(main.parent().unwrap()).unwrap();
        fs::write(&main, HARNESS).unwrap();
        HandHarness::read(&main, dir.path()).unwrap()
    }

    fn num(n: i128) -> ValueTree {
        let tree = ValueTree::Signed { ty: SignedType::I64, value: n };
        ValueTree::Variant { name: "Term".into(), variant: "Num".into(), fields: Fields::Tuple(vec![tree]) }
    }

    fn boxed(t: ValueTree) -> ValueTree {
        ValueTree::Pointer { kind: PointerKind::Box, value: Box::new(t) }
    }

    fn add(a: ValueTree, b: ValueTree) -> ValueTree {
        ValueTree::Variant {
            name: "Term".into(),
            variant: "Add".into(),
            fields: Fields::Tuple(vec![boxed(a), boxed(b)]),
        }
    }

    fn written(h: &HandHarness, target: &str, value: &ValueTree, ending: &str) -> Result<Written, String> {
        let kills = ["src/lib.rs:3:5: replace + with - in eval".to_owned()];
        write(h, &Kept { target, value, ending, kills: &kills }, &mut BTreeSet::new())
    }

    #[test]
    fn a_derived_value_is_written_as_the_expression_that_builds_it() {
        let h = harness();
        let w =
            written(&h, "eval", &add(num(2), add(num(-3), num(i128::from(i64::MAX)))), "i64::MIN").unwrap();
        assert_eq!(
            w.test.text,
            "// Kills src/lib.rs:3:5: replace + with - in eval\n#[test]\nfn eval() {\n    \
             let term = Term::Add(Box::new(Term::Num(2)), Box::new(Term::Add(Box::new(Term::Num(-3)), Box::new(Term::Num(i64::MAX)))));\n    \
             assert_eq!(harness::eval(term), i64::MIN);\n}\n"
        );
        assert_eq!(w.test.uses, ["harness::Term"]);
        assert!(w.test.harness && w.private.is_empty());

        // A short value inline; a result compared by its `Debug` text; a panic.
        let w = written(&h, "show", &num(1), "\"1\"").unwrap();
        assert!(w.test.text.contains("assert_eq!(harness::show(Term::Num(1)), \"1\");"), "{}", w.test.text);
        let w = written(&h, "eval", &num(0), "panic: division by zero").unwrap();
        assert!(
            w.test.text.contains(
                "#[test]\n#[should_panic(expected = \"division by zero\")]\nfn eval() {\n    harness::eval(Term::Num(0));\n}"
            ),
            "{}",
            w.test.text
        );
        assert_eq!(
            written(&h, "eval", &num(0), "discarded").err().as_deref(),
            Some("the target discards it")
        );
    }

    #[test]
    fn the_items_a_test_names_that_the_harness_keeps_private_are_listed() {
        let h = harness();
        let window = ValueTree::Struct {
            name: "Window".into(),
            fields: Fields::Named(vec![
                ("x".into(), ValueTree::Signed { ty: SignedType::I64, value: 5 }),
                ("lo".into(), ValueTree::Signed { ty: SignedType::I8, value: -1 }),
            ]),
        };
        let w = written(&h, "clamp", &window, "[5]").unwrap();
        assert!(
            w.test.text.contains("let w = Window { x: 5, lo: -1 };\n    assert_eq!(harness::clamp(w), [5]);"),
            "{}",
            w.test.text
        );
        let private: Vec<String> = w.private.iter().map(|i| format!("{}: {}", i.location, i.what)).collect();
        assert_eq!(
            private,
            ["mutfuzz/src/main.rs:10: field lo of Window", "mutfuzz/src/main.rs:16: fn clamp"]
        );

        // A harness type named as a std one is not imported; bytes and sets.
        let b = ValueTree::Struct {
            name: "Box".into(),
            fields: Fields::Tuple(vec![ValueTree::Unsigned { ty: UnsignedType::U8, value: 7 }]),
        };
        let w = written(&h, "boxed", &b, "7").unwrap();
        assert!(w.test.text.contains("assert_eq!(harness::boxed(harness::Box(7)), 7);"), "{}", w.test.text);
        assert!(w.test.uses.is_empty());
        let private: Vec<String> = w.private.iter().map(|i| i.what.clone()).collect();
        assert_eq!(private, ["field 0 of Box", "struct Box"]);
        let bytes = ValueTree::Tuple(vec![
            ValueTree::Seq {
                kind: SeqKind::Vec,
                items: b"ok\n"
                    .iter()
                    .map(|b| ValueTree::Unsigned { ty: UnsignedType::U8, value: (*b).into() })
                    .collect(),
            },
            ValueTree::Seq { kind: SeqKind::BTreeSet, items: vec![ValueTree::Char('a')] },
        ]);
        let w = written(&h, "bytes", &bytes, "()").unwrap();
        assert!(
            w.test
                .text
                .contains("let b = (b\"ok\\n\".to_vec(), BTreeSet::from(['a']));\n    harness::bytes(b);"),
            "{}",
            w.test.text
        );
        assert_eq!(w.test.uses, ["std::collections::BTreeSet"]);

        let opaque = ValueTree::Opaque { ty: "k::Thing".into(), debug: Some("Thing".into()) };
        let e = written(&h, "eval", &opaque, "0").err().unwrap();
        assert_eq!(e, "a value of `k::Thing` has no Rust form here (it has no reflection): Thing");
        assert!(written(&h, "missing", &num(1), "0").err().unwrap().contains("not a function defined"));
    }

    #[test]
    fn the_file_includes_the_harness_and_imports_what_its_tests_name() {
        let h = harness();
        let mut taken = BTreeSet::new();
        let kept = |value, ending| Kept { target: "eval", value, ending, kills: &[] };
        let (small, big) = (num(1), add(num(1), num(2)));
        let one = write(&h, &kept(&small, "1"), &mut taken).unwrap().test;
        let two = write(&h, &kept(&big, "3"), &mut taken).unwrap().test;
        assert_eq!(two.name, "eval_2");
        let head = FileHead {
            doc: "//! Tests.\n".into(),
            include: Some(Include { main: "../mutfuzz/src/main.rs".into(), extern_crates: Vec::new() }),
            ..FileHead::default()
        };
        let text = file(&head, &[one.clone(), two]);
        assert!(
            text.starts_with(
                "//! Tests.\n\n// The harness's targets and types, compiled into these tests.\n\
                 #[path = \"../mutfuzz/src/main.rs\"]\n#[allow(dead_code)]\nmod harness;\n\nuse harness::Term;\n\n#[test]\nfn eval() {"
            ),
            "{text}"
        );
        // Edition 2015: the crates the harness's `use` paths name are declared.
        let head = FileHead {
            include: Some(Include {
                main: "../mutfuzz/src/main.rs".into(),
                extern_crates: vec!["mutfuzz".into(), "calc".into()],
            }),
            ..head
        };
        let text = file(&head, &[one]);
        assert!(
            text.contains("//! Tests.\n\nextern crate mutfuzz;\nextern crate calc;\n\n// The harness's"),
            "{text}"
        );
        // No test of the harness: no module.
        assert_eq!(file(&head, &[]), "//! Tests.\n");
    }
}
