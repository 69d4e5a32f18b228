//! What the config changes in discovery: extra error values, skipped calls, mutants
//! filtered by name or file; and the equivalent mutants never generated.

use super::*;
use crate::config::ConfigFile;

fn with(config: ConfigFile, src: &str) -> Discovery {
    Discovery::from_source("src/lib.rs", src, &Config::new(config).unwrap()).unwrap()
}

#[test]
fn error_values_add_err_mutants_to_functions_returning_result() {
    let src =
        "pub fn parse(s: &str) -> Result<u8, String> {\n    s.parse::<u8>().map_err(|e| e.to_string())\n}\n";
    let config = ConfigFile { error_values: vec!["\"mutant\".to_owned()".into()], ..ConfigFile::default() };
    let d = with(config, src);
    let names: Vec<String> = d.mutants.iter().map(|m| m.name()).collect();
    assert_eq!(
        names,
        [
            "src/lib.rs:2:5: replace parse -> Result<u8, String> with Ok(0)",
            "src/lib.rs:2:5: replace parse -> Result<u8, String> with Ok(1)",
            "src/lib.rs:2:5: replace parse -> Result<u8, String> with Err(\"mutant\".to_owned())",
        ]
    );
    compile(&d.render(0, &|_| true).text, false, &[]);
}

#[test]
fn skipped_calls_keep_their_arguments_and_their_statement() {
    let src = "pub fn f(v: &mut Vec<u8>, n: usize) {\n    let mut w: Vec<u8> = Vec::with_capacity(n + 1);\n    v.reserve(2 * n);\n    w.push(1);\n}\n";
    let fn_return = || vec!["fn_return".to_owned()];
    // By default, `with_capacity`'s argument is not mutated.
    let d = with(ConfigFile { exclude_operators: fn_return(), ..ConfigFile::default() }, src);
    let names: Vec<String> = d.mutants.iter().map(|m| m.name()).collect();
    assert!(!names.iter().any(|n| n.starts_with("src/lib.rs:2:")), "{names:#?}");
    assert!(names.contains(&"src/lib.rs:3:5: delete v.reserve(2 * n); in f".to_owned()), "{names:#?}");
    assert!(names.contains(&"src/lib.rs:3:17: replace * with + in f".to_owned()), "{names:#?}");
    assert_eq!(d.skipped.skipped_calls, 1);
    // Named calls are left whole: no deletion, no mutant of their arguments.
    let config = ConfigFile {
        exclude_operators: fn_return(),
        skip_calls: vec!["reserve".into()],
        skip_calls_defaults: Some(false),
        ..ConfigFile::default()
    };
    let d = with(config, src);
    let names: Vec<String> = d.mutants.iter().map(|m| m.name()).collect();
    assert!(!names.iter().any(|n| n.starts_with("src/lib.rs:3:")), "{names:#?}");
    assert!(names.contains(&"src/lib.rs:2:47: replace + with - in f".to_owned()), "{names:#?}");
    assert!(names.contains(&"src/lib.rs:4:5: delete w.push(1); in f".to_owned()), "{names:#?}");
    assert_eq!(d.skipped.skipped_calls, 1);
}

#[test]
fn a_cargo_mutants_config_filters_mutants_by_name_and_file() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("src/lib.rs", "mod gen;\npub fn keep(a: u8) -> u8 { a + 1 }\npub fn noisy() -> bool { true }\n");
    write("src/gen.rs", "pub fn generated(a: u8) -> u8 { a * 2 }\n");
    write(".cargo/mutants.toml", "exclude_globs = ['gen.rs']\nexclude_re = ['noisy', 'with 1$']\n");
    let config = Config::load(&[root]).unwrap();
    let spec = PackageSpec {
        name: "p".into(),
        root: root.to_owned(),
        crate_roots: vec![CrateRoot { path: root.join("src/lib.rs") }],
        edition_2015: false,
    };
    let mut d = Discovery::default();
    d.add_package(&spec, root, &config).unwrap();
    // The catalog is the whole package's (ids do not depend on a filter); the filter
    // says which of its mutants a run covers.
    let kept: Vec<String> =
        d.mutants.iter().filter(|m| config.filter().keeps(m, "")).map(|m| m.name()).collect();
    assert_eq!(
        kept,
        [
            "src/lib.rs:2:28: replace keep -> u8 with 0",
            "src/lib.rs:2:30: replace + with - in keep",
            "src/lib.rs:2:30: replace + with * in keep",
            "src/lib.rs:2:32: replace 1 with 0 in keep",
            "src/lib.rs:2:32: replace 1 with 2 in keep",
        ]
    );
    assert!(d.mutants.iter().any(|m| m.file == "src/gen.rs"), "gen.rs is in the catalog");
    assert!(d.mutants.iter().any(|m| m.function == "noisy"));
    assert_eq!(d.notes.len(), 1);
    assert!(d.notes[0].contains("exclude_globs, exclude_re"), "{:?}", d.notes);
    compile(&d.render(0, &|_| true).text.replace("mod gen;", ""), false, &[]);
}

#[test]
fn identity_operands_and_folded_range_starts_make_no_mutants() {
    let src = "pub fn f(x: u32, n: u64) -> u64 {\n    let a = x + 0;\n    let b = x * 1;\n    let mut acc = 1;\n    for i in 1..=n {\n        acc *= i;\n    }\n    (2..=n).product::<u64>() + (0..n).sum::<u64>() + acc + (a | b) as u64\n}\n";
    let config = ConfigFile { exclude_operators: vec!["fn_return".into()], ..ConfigFile::default() };
    let d = with(config, src);
    let names: Vec<String> = d.mutants.iter().map(|m| m.name()).collect();
    let has = |n: &str| names.iter().any(|m| m == n);
    // Kept: they change the value.
    for n in [
        "src/lib.rs:2:15: replace + with * in f",
        "src/lib.rs:2:17: replace 0 with 1 in f",
        "src/lib.rs:3:15: replace * with + in f",
        "src/lib.rs:5:14: replace 1 with 0 in f",
        "src/lib.rs:8:6: replace 2 with 0 in f",
        "src/lib.rs:8:6: replace 2 with 3 in f",
    ] {
        assert!(has(n), "missing {n}: {names:#?}");
    }
    // Not generated: they change nothing.
    for n in [
        "src/lib.rs:2:15: replace + with - in f",
        "src/lib.rs:3:15: replace * with / in f",
        "src/lib.rs:5:14: replace 1 with 2 in f",
        "src/lib.rs:8:6: replace 2 with 1 in f",
        "src/lib.rs:8:33: replace 0 with 1 in f",
    ] {
        assert!(!has(n), "{n} is equivalent: {names:#?}");
    }
    assert_eq!(d.skipped.equivalent, 5);
    compile(&d.render(0, &|_| true).text, false, &[]);
}
