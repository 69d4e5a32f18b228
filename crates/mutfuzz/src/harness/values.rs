//! The harness's `values <target> --corpus DIR --out FILE`: every stored input with the
//! value it generates, as a [`ValueTree`](mutfuzz_contract::ValueTree) (`null` when the
//! input type is not [`Reflect`](crate::Reflect)), and how the original ends on it, one
//! [`ValueRecord`] per line, for writing kept inputs as readable tests.

use std::fmt::Debug;

use mutfuzz_contract::command::CorpusRequest;
use mutfuzz_contract::{EXIT_SUCCESS, ValueRecord};

use super::{ending_on, hex, read_corpus, value_of};
use crate::error::HarnessError;
use crate::r#gen::Gen;
use crate::reflect::Reflector;

/// Writes the records of every input of `--corpus`, in name order, to `--out` (whole,
/// atomically). The ending is the one `outputs` records, so the two files agree.
pub(super) fn write_values<T: Gen, O: Debug>(
    r: &CorpusRequest,
    target: fn(T) -> O,
    reflect: Option<Reflector<T>>,
) -> Result<i32, HarnessError> {
    // A panic is an input's recorded ending, not news: none is printed (a target's own
    // threads' panics included, which a thread-local hook would not catch).
    std::panic::set_hook(Box::new(|_| {}));
    let mut text = String::new();
    for (name, bytes) in read_corpus(&r.corpus)? {
        let value: T = value_of(&bytes);
        // Taken before the target consumes the value.
        let tree = reflect.map(|reflect| reflect(&value));
        let record =
            ValueRecord { input: name, bytes: hex(&bytes), value: tree, output: ending_on(target, value) };
        text.push_str(&serde_json::to_string(&record)?);
        text.push('\n');
    }
    mutfuzz_contract::write_atomic(&r.out, text.as_bytes())?;
    Ok(EXIT_SUCCESS)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use mutfuzz_contract::{
        EXIT_SUCCESS, ReplayRecord, SeqKind, UnsignedType, ValueRecord, ValueTree, read_jsonl,
    };

    use crate::harness::Registry;
    use crate::input::Source;

    /// Panics when the values add up past 100.
    fn total(items: Vec<Option<(u8, bool)>>) -> u32 {
        let sum = items.iter().flatten().map(|(n, _)| u32::from(*n)).sum();
        assert!(sum <= 100, "too big: {sum}");
        sum
    }

    /// A type with a hand-written `Gen` and no `Reflect`.
    #[derive(Debug)]
    struct Celsius(u8);

    impl crate::Gen for Celsius {
        fn generate(src: &mut Source) -> Self {
            Celsius(src.draw())
        }
    }

    fn warm(c: Celsius) -> bool {
        c.0 > 20
    }

    fn registry() -> Registry {
        let mut registry = Registry::new();
        crate::__mutfuzz_add_target!(registry, total);
        crate::__mutfuzz_add_target!(registry, warm);
        registry
    }

    fn run(
        registry: &Registry,
        command: &str,
        target: &str,
        corpus: &Path,
        out: &Path,
    ) -> Result<i32, String> {
        let words = [command, target, "--corpus", corpus.to_str().unwrap(), "--out", out.to_str().unwrap()];
        registry.run(words).map_err(|e| e.to_string())
    }

    fn u8_tree(value: u8) -> ValueTree {
        ValueTree::Unsigned { ty: UnsignedType::U8, value: value.into() }
    }

    fn item(n: u8, flag: bool) -> ValueTree {
        ValueTree::Option(Some(Box::new(ValueTree::Tuple(vec![u8_tree(n), ValueTree::Bool(flag)]))))
    }

    #[test]
    fn every_stored_input_gets_its_value_tree_and_the_ending_outputs_records() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpus");
        std::fs::create_dir(&corpus).unwrap();
        // More (odd), Some (odd), 5, true; more, None; stop.
        std::fs::write(corpus.join("a"), [1, 1, 5, 1, 1, 0, 0]).unwrap();
        // More, Some, 200, false; stop.
        std::fs::write(corpus.join("b"), [1, 1, 200, 0, 0]).unwrap();
        // Stop at once.
        std::fs::write(corpus.join("c"), [0]).unwrap();
        let r = registry();
        let values = dir.path().join("values.jsonl");
        assert_eq!(run(&r, "values", "total", &corpus, &values), Ok(EXIT_SUCCESS));
        let records = read_jsonl::<ValueRecord>(&values).unwrap().records;
        let seq = |items| Some(ValueTree::Seq { kind: SeqKind::Vec, items });
        let expected = [
            ("a", "01010501010000", seq(vec![item(5, true), ValueTree::Option(None)]), "5"),
            ("b", "0101c80000", seq(vec![item(200, false)]), "panic: too big: 200"),
            ("c", "00", seq(vec![]), "0"),
        ]
        .map(|(input, bytes, value, output)| ValueRecord {
            input: input.to_owned(),
            bytes: bytes.to_owned(),
            value,
            output: output.to_owned(),
        });
        assert_eq!(records, expected);
        let text = std::fs::read_to_string(&values).unwrap();
        assert_eq!(
            text.lines().next().unwrap(),
            r#"{"input":"a","bytes":"01010501010000","value":{"seq":{"kind":"Vec","items":[{"option":{"tuple":[{"unsigned":{"type":"u8","value":5}},{"bool":true}]}},{"option":null}]}},"output":"5"}"#
        );
        // The same endings as `outputs` writes for `cargo mutfuzz export`.
        let outputs = dir.path().join("outputs.jsonl");
        assert_eq!(run(&r, "outputs", "total", &corpus, &outputs), Ok(EXIT_SUCCESS));
        let replays = read_jsonl::<ReplayRecord>(&outputs).unwrap().records;
        let replayed: Vec<_> = replays.iter().map(|r| (&r.input, &r.bytes, &r.output)).collect();
        let valued: Vec<_> = records.iter().map(|r| (&r.input, &r.bytes, &r.output)).collect();
        assert_eq!(replayed, valued);
    }

    #[test]
    fn an_input_type_without_reflect_gets_null_values_and_flags_are_required() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpus");
        std::fs::create_dir(&corpus).unwrap();
        std::fs::write(corpus.join("hot"), [30]).unwrap();
        let r = registry();
        let values = dir.path().join("values.jsonl");
        assert_eq!(run(&r, "values", "warm", &corpus, &values), Ok(EXIT_SUCCESS));
        assert_eq!(
            std::fs::read_to_string(&values).unwrap(),
            "{\"input\":\"hot\",\"bytes\":\"1e\",\"value\":null,\"output\":\"true\"}\n"
        );
        let words = ["values", "warm", "--out", values.to_str().unwrap()].map(str::to_owned);
        assert_eq!(r.run(words).map_err(|e| e.to_string()), Err("`values` needs --corpus DIR".to_owned()));
        let words = ["values", "warm", "--corpus", corpus.to_str().unwrap()].map(str::to_owned);
        assert_eq!(r.run(words).map_err(|e| e.to_string()), Err("`values` needs --out FILE".to_owned()));
    }
}
