//! Dev-dependencies that no test build needs, found by name and dropped from the
//! scratch copy's manifests.
//!
//! `cargo test --no-run` builds every dev-dependency, including those only benchmarks
//! use (criterion and its plotting stack are typical): on a cold build of a small crate
//! they can take most of the time a whole mutation-testing run takes. Benchmarks are
//! never run by `test`, so a dev-dependency whose crate name appears in no file of the
//! package outside its benchmarks is left out of the copy. The check is textual and
//! conservative (a name in a comment keeps the dependency); a dependency that is also a
//! normal or build dependency is always kept, since dropping its dev entry could change
//! the features it is built with. If the trimmed copy does not build, the caller builds
//! again with every dev-dependency.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, Item, TableLike};

/// Files larger than this are not read for names: data, not code.
const MAX_SCANNED_BYTES: u64 = 4 << 20;

/// The dev-dependencies of the manifest `doc` (of the package at `root`) that no file
/// of the package outside its benchmarks (and outside `ignored`, e.g. the results
/// directory) names, as written in the manifest (their keys).
pub fn unused(doc: &DocumentMut, root: &Path, ignored: &[PathBuf]) -> Vec<String> {
    let dev = dependency_keys(doc, "dev-dependencies");
    if dev.is_empty() {
        return Vec::new();
    }
    let kept: HashSet<String> = dependency_keys(doc, "dependencies")
        .into_iter()
        .chain(dependency_keys(doc, "build-dependencies"))
        .collect();
    // The manifest and lock file name every dependency; they are not code. Nor is
    // `Cargo.toml.orig`, the manifest as written, which crates.io packages carry.
    let mut skipped = vec![
        root.join("benches"),
        root.join("target"),
        root.join("Cargo.toml"),
        root.join("Cargo.toml.orig"),
        root.join("Cargo.lock"),
    ];
    skipped.extend(bench_paths(doc, root));
    skipped.extend(ignored.iter().cloned());
    let mut words = HashSet::new();
    collect_words(root, &skipped, &mut words);
    let mut unused: Vec<String> = dev
        .into_iter()
        .filter(|key| !kept.contains(key) && !words.contains(&key.replace('-', "_")))
        .collect();
    unused.sort();
    unused.dedup();
    unused
}

/// Removes the dev-dependencies `keys` from `doc`, in `[dev-dependencies]` and in every
/// `[target.'cfg(..)'.dev-dependencies]`.
pub fn remove(doc: &mut DocumentMut, keys: &[String]) {
    for table in dev_tables_mut(doc) {
        for key in keys {
            table.remove(key);
        }
    }
}

/// The keys of `kind` tables, top-level and per target.
fn dependency_keys(doc: &DocumentMut, kind: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut add = |table: Option<&dyn TableLike>| {
        if let Some(table) = table {
            keys.extend(table.iter().map(|(k, _)| k.to_owned()));
        }
    };
    add(doc.get(kind).and_then(Item::as_table_like));
    if let Some(targets) = doc.get("target").and_then(Item::as_table_like) {
        for (_, target) in targets.iter() {
            add(target.get(kind).and_then(Item::as_table_like));
        }
    }
    keys
}

fn dev_tables_mut(doc: &mut DocumentMut) -> Vec<&mut dyn TableLike> {
    let mut tables: Vec<&mut dyn TableLike> = Vec::new();
    let root = doc.as_table_mut();
    let (top, targets) = {
        // Borrow both entries at once: they are distinct keys of the same table.
        let mut top = None;
        let mut targets = None;
        for (key, item) in root.iter_mut() {
            match key.get() {
                "dev-dependencies" => top = item.as_table_like_mut(),
                "target" => targets = item.as_table_like_mut(),
                _ => {}
            }
        }
        (top, targets)
    };
    tables.extend(top);
    if let Some(targets) = targets {
        for (_, target) in targets.iter_mut() {
            if let Some(dev) = target.get_mut("dev-dependencies").and_then(Item::as_table_like_mut) {
                tables.push(dev);
            }
        }
    }
    tables
}

/// The paths of `[[bench]]` targets declared with an explicit `path`.
fn bench_paths(doc: &DocumentMut, root: &Path) -> Vec<PathBuf> {
    let Some(benches) = doc.get("bench").and_then(Item::as_array_of_tables) else {
        return Vec::new();
    };
    benches.iter().filter_map(|b| b.get("path").and_then(Item::as_str)).map(|p| root.join(p)).collect()
}

/// Every identifier-like word of the text files under `dir`, but not under `skipped`
/// nor in hidden directories.
fn collect_words(dir: &Path, skipped: &[PathBuf], words: &mut HashSet<String>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if skipped.contains(&path) || entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            collect_words(&path, skipped, words);
        } else if entry.metadata().is_ok_and(|m| m.len() <= MAX_SCANNED_BYTES)
            && let Ok(bytes) = fs::read(&path)
        {
            for word in bytes.split(|b| !(b.is_ascii_alphanumeric() || *b == b'_')) {
                if let Ok(w) = std::str::from_utf8(word)
                    && !w.is_empty()
                    && !words.contains(w)
                {
                    words.insert(w.to_owned());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(manifest: &str, files: &[(&str, &str)]) -> (tempfile::TempDir, DocumentMut) {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        (dir, manifest.parse().unwrap())
    }

    const MANIFEST: &str = r#"
[package]
name = "p"
version = "0.1.0"

[dependencies]
serde = "1"

[dev-dependencies]
criterion = "0.5"
pretty_assertions = "1"
serde = { version = "1", features = ["derive"] }
faster-hex = "0.9"
version-sync = "0.9"
quickcheck = "1"

[target.'cfg(unix)'.dev-dependencies]
libc = "0.2"

[[bench]]
name = "speed"
path = "perf/speed.rs"
harness = false
"#;

    #[test]
    fn dev_dependencies_named_only_by_benchmarks_are_unused() {
        let (dir, doc) = package(
            MANIFEST,
            &[
                ("src/lib.rs", "//! ```\n//! quickcheck::quickcheck(|| true);\n//! ```\npub fn f() {}"),
                ("tests/t.rs", "use pretty_assertions::assert_eq;\n#[test] fn t() { version_sync::x!(); }"),
                ("benches/b.rs", "use criterion::Criterion; use libc;"),
                ("perf/speed.rs", "use faster_hex::hex_encode;"),
                ("Cargo.toml.orig", MANIFEST),
            ],
        );
        assert_eq!(unused(&doc, dir.path(), &[]), ["criterion", "faster-hex", "libc"]);
    }

    #[test]
    fn a_dev_dependency_that_is_also_a_normal_one_is_kept_even_if_unnamed() {
        let (dir, doc) = package(MANIFEST, &[("src/lib.rs", "")]);
        assert!(!unused(&doc, dir.path(), &[]).contains(&"serde".to_owned()));
    }

    #[test]
    fn a_name_in_the_readme_keeps_the_dependency_for_doctests_that_include_it() {
        let (dir, doc) = package(MANIFEST, &[("README.md", "```\nlet x = libc::getpid();\n```")]);
        assert!(!unused(&doc, dir.path(), &[]).contains(&"libc".to_owned()));
    }

    #[test]
    fn removing_drops_the_entries_from_every_dev_table_and_nothing_else() {
        let (dir, mut doc) = package(MANIFEST, &[]);
        let keys = unused(&doc, dir.path(), &[]);
        remove(&mut doc, &keys);
        let text = doc.to_string();
        for gone in ["criterion", "faster-hex", "libc", "quickcheck", "pretty_assertions", "version-sync"] {
            assert!(!text.contains(&format!("{gone} =")), "{gone} still in:\n{text}");
        }
        assert!(text.contains("serde = { version = \"1\", features = [\"derive\"] }"), "{text}");
        assert!(text.contains("[dependencies]\nserde = \"1\""), "{text}");
        assert!(text.contains("path = \"perf/speed.rs\""), "{text}");
    }
}
