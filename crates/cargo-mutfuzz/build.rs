//! Embeds the engine crates (mutfuzz-rt, mutfuzz, mutfuzz-derive) in the binary, so an
//! installed `cargo mutfuzz` can build harnesses with no checkout of this repository.
//!
//! Writes `$OUT_DIR/engine_files.rs`: `FILES`, a table of relative path → contents,
//! holding every file under each crate's `src/` (by `include_str!`) and a standalone
//! `Cargo.toml` per crate with the workspace inheritance resolved.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, TableLike, Value};

/// The crates shipped, by directory name under `crates/`.
const CRATES: [&str; 3] = ["mutfuzz-rt", "mutfuzz", "mutfuzz-derive"];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let crates_dir = manifest_dir.parent().expect("crates/ directory");
    let ws_manifest = crates_dir.parent().expect("workspace root").join("Cargo.toml");
    rerun_if_changed(&ws_manifest);
    let ws: DocumentMut = read(&ws_manifest).parse().expect("the workspace manifest parses");

    let mut out = String::from(
        "/// Every file of the embedded engine crates: path relative to the engine directory, contents.\n\
         pub static FILES: &[(&str, &str)] = &[\n",
    );
    for name in CRATES {
        let dir = crates_dir.join(name);
        let manifest_path = dir.join("Cargo.toml");
        rerun_if_changed(&manifest_path);
        let manifest = standalone_manifest(&read(&manifest_path), &ws, name);
        writeln!(out, "    ({:?}, {:?}),", format!("{name}/Cargo.toml"), manifest).unwrap();
        let src = dir.join("src");
        // A directory makes cargo rescan it, so added files are noticed too.
        rerun_if_changed(&src);
        let mut files = Vec::new();
        collect(&src, &mut files);
        files.sort();
        for file in files {
            rerun_if_changed(&file);
            if fs::read_to_string(&file).is_err() {
                panic!("{} is not UTF-8 text; the engine embeds only text files", file.display());
            }
            let rel: Vec<String> = file
                .strip_prefix(&dir)
                .expect("under the crate")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            writeln!(
                out,
                "    ({:?}, include_str!({:?})),",
                format!("{name}/{}", rel.join("/")),
                file.to_string_lossy()
            )
            .unwrap();
        }
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("engine_files.rs");
    fs::write(&dest, out).expect("write engine_files.rs");
}

fn rerun_if_changed(path: &Path) {
    println!("cargo:rerun-if-changed={}", path.display());
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.is_file() {
            files.push(path);
        }
    }
}

/// The crate's manifest with `workspace = true` fields and dependencies replaced by the
/// workspace's values, and everything that only matters inside this repository dropped.
fn standalone_manifest(text: &str, ws: &DocumentMut, name: &str) -> String {
    let mut doc: DocumentMut = text.parse().unwrap_or_else(|e| panic!("{name}/Cargo.toml: {e}"));
    let ws_package = ws["workspace"]["package"].as_table_like().expect("[workspace.package]");
    let ws_deps = ws["workspace"]["dependencies"].as_table_like().expect("[workspace.dependencies]");
    let package = doc["package"].as_table_like_mut().expect("[package]");
    let inherited: Vec<String> =
        package.iter().filter(|(_, v)| inherits(v)).map(|(k, _)| k.to_owned()).collect();
    for key in inherited {
        let v = ws_package.get(&key).unwrap_or_else(|| panic!("workspace.package.{key} is missing")).clone();
        package.insert(&key, v);
    }
    // Tests, benches and lints belong to the repository, not to the shipped sources.
    for key in ["lints", "dev-dependencies", "test", "bench", "example"] {
        doc.remove(key);
    }
    for key in ["dependencies", "build-dependencies"] {
        let Some(deps) = doc.get_mut(key).and_then(Item::as_table_like_mut) else { continue };
        let names: Vec<String> = deps.iter().map(|(k, _)| k.to_owned()).collect();
        for dep in names {
            let item = deps.get(&dep).expect("listed").clone();
            let resolved = resolve_dep(&dep, &item, ws_deps);
            deps.insert(&dep, Item::Value(Value::InlineTable(resolved)));
        }
    }
    // Its own workspace: never pulled into a workspace that happens to lie above it.
    doc.insert("workspace", Item::Table(Table::new()));
    doc.to_string()
}

fn inherits(item: &Item) -> bool {
    item.as_table_like().and_then(|t| t.get("workspace")).and_then(Item::as_bool) == Some(true)
}

/// One dependency as an inline table, inheriting from the workspace when it says so.
fn resolve_dep(name: &str, item: &Item, ws_deps: &dyn TableLike) -> InlineTable {
    let own = as_inline(item);
    if !inherits(item) {
        return own;
    }
    let mut spec = as_inline(ws_deps.get(name).unwrap_or_else(|| panic!("workspace dependency {name}")));
    if let Some(path) = spec.get("path").and_then(Value::as_str) {
        // Workspace paths are `crates/<dir>`; the shipped crates sit side by side.
        let dir = Path::new(path).file_name().expect("dependency directory").to_string_lossy().into_owned();
        spec.insert("path", format!("../{dir}").into());
    }
    for (k, v) in own.iter() {
        match k {
            "workspace" => {}
            "features" => {
                let mut all: Vec<String> = Vec::new();
                for f in spec
                    .get("features")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .chain(v.as_array().into_iter().flatten())
                {
                    if let Some(s) = f.as_str()
                        && !all.iter().any(|a| a == s)
                    {
                        all.push(s.to_owned());
                    }
                }
                spec.insert("features", Value::Array(all.into_iter().collect::<Array>()));
            }
            _ => {
                spec.insert(k, v.clone());
            }
        }
    }
    spec
}

fn as_inline(item: &Item) -> InlineTable {
    match item {
        Item::Value(Value::String(s)) => {
            let mut t = InlineTable::new();
            t.insert("version", s.value().as_str().into());
            t
        }
        Item::Value(Value::InlineTable(t)) => t.clone(),
        Item::Table(t) => t.clone().into_inline_table(),
        other => panic!("unexpected dependency specification {other}"),
    }
}
