//! Package layouts: module files found as rustc finds them, crate roots, cfg regions,
//! syntax errors.

use std::path::Path;
use std::process::Command;

use super::*;

#[test]
fn modules_are_followed_through_files_mod_rs_path_attributes_and_inline_modules() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "src/lib.rs",
        "mod a;\n#[path = \"other/b_impl.rs\"]\nmod b;\nmod c { mod d; }\n#[cfg(test)]\nmod tests;\nmod missing;\n",
    );
    write("src/a.rs", "mod deep;\npub fn fa() -> bool { true }\n");
    write("src/a/deep.rs", "pub fn fdeep() -> u8 { 1 }\n");
    write("src/other/b_impl.rs", "pub fn fb() -> u8 { 2 }\n");
    write("src/c/d/mod.rs", "pub fn fd() -> u8 { 3 }\n");
    write("src/tests.rs", "fn never() -> u8 { 4 }\n");
    let spec = PackageSpec {
        name: "p".into(),
        root: root.to_owned(),
        crate_roots: vec![CrateRoot { path: root.join("src/lib.rs") }],
        edition_2015: false,
    };
    let mut d = Discovery::default();
    d.add_package(&spec, root, &Config::default()).unwrap();
    let files: Vec<&str> = d.files.iter().map(|f| f.rel_path.as_str()).collect();
    assert_eq!(files, ["src/lib.rs", "src/a.rs", "src/a/deep.rs", "src/other/b_impl.rs", "src/c/d/mod.rs"]);
    let mut functions: Vec<&str> = d.mutants.iter().map(|m| m.function.as_str()).collect();
    functions.dedup();
    assert_eq!(functions, ["a::fa", "a::deep::fdeep", "b::fb", "c::d::fd"]);
    assert_eq!(d.skipped.cfg_test, 1);
    assert_eq!(
        d.warnings,
        [
            "src/lib.rs:7: no file found for `mod missing` (looked for src/missing.rs and src/missing/mod.rs); its code is not mutated"
        ]
    );
    // Ids run on without gaps across files.
    let ids: Vec<u32> = d.mutants.iter().map(|m| m.id).collect();
    assert_eq!(ids, (1..=d.mutants.len() as u32).collect::<Vec<_>>());
}

#[test]
fn edition_2015_crate_roots_get_extern_crate_after_their_doc_comments() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        "//! Crate docs.\n\n/// Adds.\npub fn add(a: u8) -> u8 { a + 1 }\n",
    )
    .unwrap();
    let spec = PackageSpec {
        name: "old".into(),
        root: root.to_owned(),
        crate_roots: vec![CrateRoot { path: root.join("src/lib.rs") }],
        edition_2015: true,
    };
    let mut d = Discovery::default();
    d.add_package(&spec, root, &Config::default()).unwrap();
    let text = d.render(0, &|_| true).text;
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("#![allow(") && lines[0].ends_with("//! Crate docs."), "{text}");
    assert!(lines[2].starts_with("extern crate mutfuzz_rt; /// Adds."), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lib.rs");
    std::fs::write(&file, &text).unwrap();
    let out = Command::new(rustc())
        .args(["--edition", "2015", "--crate-type", "lib", "--emit", "metadata", "-Dwarnings", "--extern"])
        .arg(format!("mutfuzz_rt={}", rt_rlib().display()))
        .arg("--out-dir")
        .arg(dir.path())
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}\n{text}", String::from_utf8_lossy(&out.stderr));
}

/// Write `files` under a fresh directory.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let p = tmp.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    tmp
}

fn package(root: &Path) -> PackageSpec {
    PackageSpec {
        name: "p".into(),
        root: root.to_owned(),
        crate_roots: vec![CrateRoot { path: root.join("src/lib.rs") }],
        edition_2015: false,
    }
}

#[test]
fn raw_identifiers_path_files_and_inline_path_modules_resolve_as_rustc_does() {
    let tmp = tree(&[
        ("src/lib.rs", "mod r#match;\n#[path = \"gen/util.rs\"]\nmod util;\nmod a;\n"),
        ("src/match.rs", "pub fn m() -> u8 { 1 }\n"),
        // A `#[path]` file's own modules are its siblings.
        ("src/gen/util.rs", "mod sib;\npub fn u() -> u8 { 2 }\n"),
        ("src/gen/sib.rs", "pub fn s() -> u8 { 3 }\n"),
        // In a non-mod-rs file, an inline module's `#[path]` is relative to the file's
        // directory, and its plain inline modules are under `a/`.
        (
            "src/a.rs",
            "#[path = \"thread_files\"]\nmod thread {\n    #[path = \"tls.rs\"]\n    mod local;\n}\nmod inner {\n    mod r#deep;\n}\n",
        ),
        ("src/thread_files/tls.rs", "pub fn t() -> u8 { 4 }\n"),
        ("src/a/inner/deep.rs", "pub fn d() -> u8 { 5 }\n"),
    ]);
    let root = tmp.path();
    // rustc agrees that this layout is complete.
    let out = Command::new(rustc())
        .args(["--edition", "2024", "--crate-type", "lib", "--emit", "metadata", "-Adead_code", "--out-dir"])
        .arg(root)
        .arg(root.join("src/lib.rs"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut d = Discovery::default();
    d.add_package(&package(root), root, &Config::default()).unwrap();
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
    let files: Vec<&str> = d.files.iter().map(|f| f.rel_path.as_str()).collect();
    assert_eq!(
        files,
        [
            "src/lib.rs",
            "src/match.rs",
            "src/gen/util.rs",
            "src/gen/sib.rs",
            "src/a.rs",
            "src/thread_files/tls.rs",
            "src/a/inner/deep.rs"
        ]
    );
    let mut functions: Vec<&str> = d.mutants.iter().map(|m| m.function.as_str()).collect();
    functions.dedup();
    assert_eq!(
        functions,
        ["r#match::m", "util::u", "util::sib::s", "a::thread::local::t", "a::inner::r#deep::d"]
    );
}

#[test]
fn a_missing_module_file_is_a_warning_at_its_declaration() {
    let tmp = tree(&[("src/lib.rs", "pub fn f() {}\n\nmod inner {\n    #[cfg(unix)]\n    mod gone;\n}\n")]);
    let root = tmp.path();
    let mut d = Discovery::default();
    d.add_package(&package(root), root, &Config::default()).unwrap();
    assert_eq!(
        d.warnings,
        [
            "src/lib.rs:5: no file found for `mod gone` (looked for src/inner/gone.rs and src/inner/gone/mod.rs); its code is not mutated"
        ]
    );
}

#[test]
fn only_test_only_cfgs_are_skipped_and_each_is_named() {
    let src = "#[cfg(not(test))]\npub fn live() -> u8 { 1 }\n#[cfg(all(test, unix))]\nmod t { pub fn x() -> u8 { 2 } }\n#[cfg(test)]\nfn y() -> u8 { 3 }\n#[cfg(any(test, feature = \"testing\"))]\npub fn helper() -> u8 { 4 }\n";
    let d = discover(src);
    let mut functions: Vec<&str> = d.mutants.iter().map(|m| m.function.as_str()).collect();
    functions.dedup();
    assert_eq!(functions, ["live", "helper"]);
    assert_eq!(d.skipped.cfg_test, 2);
    let cfgs: Vec<(&str, usize)> = d.skipped.cfgs.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(cfgs, [("#[cfg(all(test, unix))]", 1), ("#[cfg(test)]", 1)]);
}

#[test]
fn a_syntax_error_is_located_in_the_users_file() {
    let err = Discovery::from_source(
        "src/lib.rs",
        "pub fn f() -> u8 {\n    let x = ;\n    x\n}\n",
        &Config::default(),
    )
    .unwrap_err();
    let crate::Error::Syntax(e) = &err else { panic!("not a syntax error: {err}") };
    assert_eq!((e.file.as_str(), e.line, e.column), ("src/lib.rs", 2, 13));
    assert!(err.to_string().starts_with("src/lib.rs:2:13: "), "{err}");
    // Unbalanced delimiters are found where they stop matching.
    let err =
        Discovery::from_source("src/lib.rs", "fn f() {\n    g(1;\n}\n", &Config::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "src/lib.rs:3:1: unbalanced delimiters: a `(`, `[` or `{` before here is not closed, or this closes none"
    );
    // The same from a package, named relative to the workspace.
    let tmp = tree(&[("src/lib.rs", "mod m;\n"), ("src/m.rs", "fn g( {}\n")]);
    let root = tmp.path();
    let err = Discovery::default().add_package(&package(root), root, &Config::default()).unwrap_err();
    let crate::Error::Syntax(e) = &err else { panic!("not a syntax error: {err}") };
    assert_eq!((e.file.as_str(), e.line), ("src/m.rs", 1));
}

/// Every example crate of the repository: discovery warns of nothing (no overlapping
/// splices, no misplaced shape, every module file found), and each schema file keeps its
/// lines and parses, with all mutants and with none.
#[test]
fn the_example_crates_discover_cleanly() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&examples).unwrap() {
        let root = entry.unwrap().path();
        let roots: Vec<CrateRoot> = ["src/lib.rs", "src/main.rs"]
            .iter()
            .map(|r| root.join(r))
            .filter(|p| p.is_file())
            .map(|path| CrateRoot { path })
            .collect();
        if roots.is_empty() {
            continue;
        }
        let spec = PackageSpec {
            name: "example".into(),
            root: root.clone(),
            crate_roots: roots,
            edition_2015: false,
        };
        let mut d = Discovery::default();
        d.add_package(&spec, &root, &Config::default()).unwrap();
        assert!(d.warnings.is_empty(), "{}: {:?}", root.display(), d.warnings);
        for (i, f) in d.files.iter().enumerate() {
            for enabled in [true, false] {
                let text = d.render(i, &|_| enabled).text;
                assert_eq!(text.lines().count(), f.source().lines().count(), "{}", f.rel_path);
                syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", f.rel_path));
            }
        }
        checked += 1;
    }
    assert!(checked >= 5, "found {checked} examples");
}

#[test]
fn mutants_behind_a_feature_cfg_name_the_features_it_asks_for() {
    let tmp = tree(&[
        (
            "src/lib.rs",
            "#[cfg(feature = \"serde\")]\nmod ser;\n\
             pub fn plain(x: u8) -> u8 { x + 1 }\n\
             #[cfg(all(feature = \"std\", unix))]\n\
             impl Wide { pub fn wide(&self) -> u8 { 2 } }\n\
             #[cfg(any(feature = \"a\", feature = \"b\"))]\n\
             pub fn either() -> u8 { 3 }\n",
        ),
        ("src/ser.rs", "#[cfg(feature = \"derive\")]\npub fn both() -> u8 { 4 }\npub fn one() -> u8 { 5 }\n"),
    ]);
    let mut d = Discovery::default();
    d.add_package(&package(tmp.path()), tmp.path(), &Config::default()).unwrap();
    let mut features: Vec<(&str, Vec<String>)> =
        d.mutants.iter().map(|m| (m.function.as_str(), m.features.clone())).collect();
    features.dedup();
    let s = |fs: &[&str]| fs.iter().map(|f| f.to_string()).collect::<Vec<_>>();
    assert_eq!(
        features,
        [
            ("plain", s(&[])),
            ("Wide::wide", s(&["std"])),
            // Either feature builds it: neither is needed.
            ("either", s(&[])),
            ("ser::both", s(&["serde", "derive"])),
            ("ser::one", s(&["serde"])),
        ]
    );
}
