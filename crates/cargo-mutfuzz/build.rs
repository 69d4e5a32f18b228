//! Embeds the engine crates (mutfuzz-rt, mutfuzz, mutfuzz-derive, mutfuzz-contract) in
//! the binary, so an installed `cargo mutfuzz` builds harnesses with no checkout of this
//! repository, as cargo-fuzz carries libfuzzer-sys.
//!
//! The crates are ordinary dependencies of this package. Each declares `links` and prints
//! its own directory as build-script metadata, which cargo hands to this script as
//! `DEP_<LINKS>_ROOT`: the sources come from wherever cargo put the dependency (this
//! repository, or the registry when installed from crates.io), never from a path
//! relative to this package.
//!
//! Writes `$OUT_DIR/engine_files.rs`: `FILES`, a table of relative path → contents
//! holding every file under each crate's `src/` (by `include_str!`) and a standalone
//! `Cargo.toml` per crate; `VERSION`, the engine's version; and `CRATES`, their names.
//! A standalone manifest has workspace inheritance resolved, the engine crates depending
//! on each other by `../<name>` paths, and no `links`, build script, lints, tests or
//! dev-dependencies: a schema build runs none of this.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, TableLike, Value};

/// The crates carried: package name and the `links` name that carries its directory.
const CRATES: [(&str, &str); 4] = [
    ("mutfuzz-rt", "mutfuzz_rt_sources"),
    ("mutfuzz", "mutfuzz_sources"),
    ("mutfuzz-derive", "mutfuzz_derive_sources"),
    ("mutfuzz-contract", "mutfuzz_contract_sources"),
];

fn main() {
    let mut out = String::from(
        "/// Every file of the embedded engine crates: path relative to the engine directory, contents.\n\
         pub static FILES: &[(&str, &str)] = &[\n",
    );
    let mut engine_version = None;
    for (name, links) in CRATES {
        let var = format!("DEP_{}_ROOT", links.to_uppercase());
        let dir = PathBuf::from(std::env::var(&var).unwrap_or_else(|_| {
            panic!(
                "{var} is not set: {name} must be a dependency of cargo-mutfuzz with `links = \"{links}\"`"
            )
        }));
        let manifest_path = dir.join("Cargo.toml");
        rerun_if_changed(&manifest_path);
        let (manifest, version) = standalone_manifest(&manifest_path, name);
        if name == "mutfuzz" {
            engine_version = Some(version);
        }
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
    let version = engine_version.expect("the engine crate is embedded");
    writeln!(
        out,
        "/// The version of the embedded engine crate `mutfuzz`.\npub static VERSION: &str = {version:?};"
    )
    .unwrap();
    let names: Vec<&str> = CRATES.iter().map(|(n, _)| *n).collect();
    writeln!(out, "/// The embedded crates' package names.\npub static CRATES: &[&str] = &{names:?};")
        .unwrap();
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("engine_files.rs");
    fs::write(&dest, out).expect("write engine_files.rs");
}

fn rerun_if_changed(path: &Path) {
    println!("cargo::rerun-if-changed={}", path.display());
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

/// The workspace manifest a crate inherits from: `package.workspace` if set, else the
/// nearest `Cargo.toml` above it with a `[workspace]` table, as cargo finds it. Only a
/// crate built from a workspace checkout inherits; a published crate's manifest has
/// everything resolved.
fn workspace_of(manifest_path: &Path, doc: &DocumentMut) -> DocumentMut {
    let dir = manifest_path.parent().expect("manifest directory");
    let explicit = doc.get("package").and_then(|p| p.get("workspace")).and_then(Item::as_str);
    let candidates: Vec<PathBuf> = match explicit {
        Some(rel) => vec![dir.join(rel).join("Cargo.toml")],
        None => dir.ancestors().skip(1).map(|d| d.join("Cargo.toml")).collect(),
    };
    for path in candidates {
        let Ok(text) = fs::read_to_string(&path) else { continue };
        let ws: DocumentMut = text.parse().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if ws.contains_key("workspace") {
            rerun_if_changed(&path);
            return ws;
        }
    }
    panic!("{} inherits from a workspace, but none was found above it", manifest_path.display())
}

/// The crate's manifest made standalone (see the module docs), and its version.
fn standalone_manifest(manifest_path: &Path, name: &str) -> (String, String) {
    let mut doc: DocumentMut =
        read(manifest_path).parse().unwrap_or_else(|e| panic!("{name}/Cargo.toml: {e}"));
    let mut ws = None;
    let package = doc["package"].as_table_like().expect("[package]");
    let inherited: Vec<String> =
        package.iter().filter(|(_, v)| inherits(v)).map(|(k, _)| k.to_owned()).collect();
    if !inherited.is_empty() {
        let w = ws.get_or_insert_with(|| workspace_of(manifest_path, &doc));
        let ws_package = w["workspace"]["package"].clone();
        let ws_package = ws_package.as_table_like().expect("[workspace.package]");
        let package = doc["package"].as_table_like_mut().expect("[package]");
        for key in inherited {
            let v =
                ws_package.get(&key).unwrap_or_else(|| panic!("workspace.package.{key} is missing")).clone();
            package.insert(&key, v);
        }
    }
    let package = doc["package"].as_table_like_mut().expect("[package]");
    // Only this repository's build needs these: the copy runs no build script, and its
    // readme (the workspace's, or the published package's) is not written out.
    for key in ["links", "build", "workspace", "readme"] {
        package.remove(key);
    }
    let version = package.get("version").and_then(Item::as_str).expect("package.version").to_owned();
    for key in ["lints", "dev-dependencies", "test", "bench", "example"] {
        doc.remove(key);
    }
    for key in ["dependencies", "build-dependencies"] {
        let names: Vec<String> = match doc.get(key).and_then(Item::as_table_like) {
            Some(deps) => deps.iter().map(|(k, _)| k.to_owned()).collect(),
            None => continue,
        };
        for dep in names {
            let item = doc[key].as_table_like().expect("dependency table").get(&dep).expect("listed").clone();
            let spec = if inherits(&item) {
                let w = ws.get_or_insert_with(|| workspace_of(manifest_path, &doc));
                let ws_deps =
                    w["workspace"]["dependencies"].as_table_like().expect("[workspace.dependencies]");
                inherit_dep(&dep, &item, ws_deps)
            } else {
                as_inline(&item)
            };
            let spec = sibling_paths(&dep, spec, name);
            doc[key]
                .as_table_like_mut()
                .expect("dependency table")
                .insert(&dep, Item::Value(Value::InlineTable(spec)));
        }
    }
    // Its own workspace: never pulled into a workspace that happens to lie above it.
    doc.insert("workspace", Item::Table(Table::new()));
    // A published manifest opens with cargo's note about normalizing it: not true of this copy.
    if let Some(package) = doc.get_mut("package").and_then(Item::as_table_mut) {
        package.decor_mut().set_prefix(
            "# The mutfuzz engine carried by cargo-mutfuzz, written out for schema and harness builds.\n",
        );
    }
    (doc.to_string(), version)
}

/// An engine crate's dependency on another engine crate becomes `path = "../<name>"`
/// (the crates are written out side by side); any other path dependency cannot travel.
fn sibling_paths(dep: &str, mut spec: InlineTable, owner: &str) -> InlineTable {
    let package = spec.get("package").and_then(Value::as_str).unwrap_or(dep).to_owned();
    if CRATES.iter().any(|(n, _)| *n == package) {
        spec.insert("path", format!("../{package}").into());
    } else if spec.contains_key("path") {
        panic!("{owner} depends on {package} by path, which is not an embedded crate");
    }
    spec
}

fn inherits(item: &Item) -> bool {
    item.as_table_like().and_then(|t| t.get("workspace")).and_then(Item::as_bool) == Some(true)
}

/// One dependency as an inline table, inheriting from the workspace.
fn inherit_dep(name: &str, item: &Item, ws_deps: &dyn TableLike) -> InlineTable {
    let own = as_inline(item);
    let mut spec = as_inline(ws_deps.get(name).unwrap_or_else(|| panic!("workspace dependency {name}")));
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
