//! `cargo mutfuzz export <target>`: a target's corpus as a regression test of the user's
//! crate, runnable with plain `cargo test`: readable tests of a generated target (see
//! [`crate::amplify::export`]), or with `--replay` the replay test described here.
//!
//! It writes `tests/mutfuzz_<target>.jsonl`, the inputs with how the original ended on
//! each (the output's `Debug` rendering, or its panic), and `tests/mutfuzz_<target>.rs`,
//! which compiles the harness's `src/main.rs` as a module (so the test calls the target
//! function itself) and replays every input through it with
//! [`mutfuzz::harness::Registry::replay`]. The test needs the engine to generate the
//! values, so the package gets `mutfuzz = "<version>"` (the version of the engine this
//! binary carries) and the harness's other dependencies as dev-dependencies: an ordinary
//! dependency, which the user's `cargo test` takes from the registry. With `--vendor` the
//! engine crates this binary carries are written into the harness as `engine/` and the
//! dev-dependency points there by path instead (for a machine without the registry).
//! Under `cargo mutfuzz test` the scratch copy points that dependency, either way, at
//! the engine the schema links. The test file uses no syntax newer than edition 2015,
//! since it compiles in the package's edition.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use mutfuzz_contract::command::{CorpusRequest, HarnessCommand};
use mutfuzz_contract::{ReplayRecord, read_jsonl, write_atomic};
use toml_edit::{DocumentMut, InlineTable, Item, Table, value};

use crate::commands::options::ExportArgs;
use crate::console::exit_code;
use crate::fuzzing::harness::{self, Harness};
use crate::workspace::engine;
use crate::workspace::fs_util::write_if_changed;

/// Where the harness keeps the engine crates an exported test builds with.
pub const ENGINE_DIR: &str = "engine";

/// Run the command; returns the exit code.
pub fn run(args: &ExportArgs) -> Result<i32> {
    if !args.replay {
        return crate::amplify::export::readable(&args.into());
    }
    // The original runs (no mutant), in the sandbox all the same.
    let built = harness::build(&args.package, &args.target, args.dev, false)?;
    let corpus = match &args.corpus {
        Some(dir) => std::path::absolute(dir)?,
        None => built.default_corpus(&args.target),
    };
    if !corpus.is_dir() {
        return Err(exit_code::usage(anyhow::anyhow!(
            "no corpus at {}: run `cargo mutfuzz fuzz {}` first, or pass --corpus DIR",
            corpus.display(),
            args.target
        )));
    }
    let package = harness::single_package(&built.ws)?.clone();
    let main_rs = built.harness.dir.join("src/main.rs");
    if !main_rs.is_file() {
        bail!(
            "the exported test compiles the harness's targets from {}, which is missing",
            main_rs.display()
        );
    }

    // How the original ends on each input, from the harness built against the schema
    // (no mutant active: the original code).
    let recorded = built.state.export();
    let command = HarnessCommand::Outputs(CorpusRequest {
        target: args.target.clone(),
        corpus: corpus.clone(),
        out: recorded.clone(),
    });
    let out = built
        .sandboxed_command(&command, &[])?
        .output()
        .with_context(|| format!("failed to run the harness {}", built.binary.display()))?;
    if !out.status.success() {
        bail!(
            "the harness could not record the outputs ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let records = read_jsonl::<ReplayRecord>(&recorded)?.records;

    let tests = package.root.join("tests");
    let stem = format!("mutfuzz_{}", args.target.replace('-', "_"));
    let data = tests.join(format!("{stem}.jsonl"));
    let test = tests.join(format!("{stem}.rs"));
    fs::create_dir_all(&tests).with_context(|| format!("failed to create {}", tests.display()))?;
    write_atomic(&data, &fs::read(&recorded)?)?;
    let harness_rel = relative_dir(&built.harness.dir, &package.root);
    write_atomic(&test, test_rs(&args.target, &stem, &harness_rel, records.len()).as_bytes())?;

    let engine = if args.vendor {
        vendor_engine(&built.harness.dir)?;
        exclude_from_workspace(
            &built.ws.root.join("Cargo.toml"),
            &built.harness.dir.join(ENGINE_DIR),
            &built.ws.root,
        )?;
        Engine::Vendored
    } else {
        Engine::Registry
    };
    let manifest = package.root.join("Cargo.toml");
    let added = add_dev_dependencies(&manifest, &built.harness, &package.name, &harness_rel, engine)?;

    eprintln!(
        "Exported {} inputs of {} as {} (data: {})",
        records.len(),
        args.target,
        test.display(),
        data.display()
    );
    if !added.is_empty() {
        eprintln!("Added to [dev-dependencies] of {}: {}", manifest.display(), added.join(", "));
    }
    let vendored = built.harness.dir.join(ENGINE_DIR);
    if args.vendor {
        eprintln!("Engine crates for the test written to {}", vendored.display());
    } else {
        eprintln!(
            "The test depends on mutfuzz {} from the registry (`--vendor` writes the engine into the \
             harness instead, for a machine without it)",
            engine::VERSION
        );
        if vendored.join("mutfuzz/Cargo.toml").is_file() {
            eprintln!(
                "note: {} holds the engine an earlier `export --replay` wrote; nothing uses it now, \
                 so you can delete it",
                vendored.display()
            );
        }
    }
    eprintln!("Run it with `cargo test --test {stem}`");
    Ok(exit_code::SUCCESS)
}

/// Where the exported test's `mutfuzz` dev-dependency comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Engine {
    /// `mutfuzz = "<version>"`: the registry.
    Registry,
    /// `mutfuzz = { path = "<harness>/engine/mutfuzz" }`: the copy `--vendor` wrote.
    Vendored,
}

/// `dir` relative to `base` with `/` separators when it lies inside it, else absolute.
pub(crate) fn relative_dir(dir: &Path, base: &Path) -> String {
    match dir.strip_prefix(base) {
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => dir.to_string_lossy().into_owned(),
    }
}

/// The path of `to` (relative to the package root when not absolute) as seen from `tests/`.
fn from_tests(to: &str) -> String {
    if Path::new(to).is_absolute() { to.to_owned() } else { format!("../{to}") }
}

/// The exported test file.
fn test_rs(target: &str, stem: &str, harness_rel: &str, inputs: usize) -> String {
    let main = from_tests(&format!("{harness_rel}/src/main.rs"));
    format!(
        r#"//! Regression test exported by `cargo mutfuzz export {target}`: each of the {inputs}
//! inputs in `{stem}.jsonl` is replayed through the fuzz target `{target}`, and how it
//! ends (its output's `Debug` rendering, or its panic) must be what was recorded.
//! Run `cargo mutfuzz export {target}` again to record a new corpus or new outputs.

// The harness's targets, compiled into this test so it calls the target itself.
#[path = "{main}"]
#[allow(dead_code, unused_imports)]
mod harness;

#[test]
fn {fn_name}_ends_as_recorded_on_every_input_of_its_corpus() {{
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/{stem}.jsonl");
    if let Err(differences) = harness::mutfuzz_targets().replay("{target}", &data) {{
        panic!("{{}}", differences);
    }}
}}
"#,
        fn_name = target.replace('-', "_"),
    )
}

/// Write the engine crates into `<harness>/engine/`, replacing an older copy.
fn vendor_engine(harness_dir: &Path) -> Result<()> {
    let dir = harness_dir.join(ENGINE_DIR);
    if dir.exists() {
        let carried: Vec<PathBuf> = engine::files().iter().map(|(rel, _)| dir.join(rel)).collect();
        // Files of an older engine that this one no longer has must not linger.
        for name in engine::crates() {
            remove_stale(&dir.join(name), &carried)?;
        }
    }
    for (rel, text) in engine::files() {
        write_if_changed(&dir.join(rel), text)?;
    }
    write_if_changed(
        &dir.join("README.md"),
        "The mutfuzz engine crates, written by `cargo mutfuzz export` for the exported \
         regression tests (tests/mutfuzz_*.rs); `cargo mutfuzz export` rewrites them.\n",
    )?;
    Ok(())
}

fn remove_stale(dir: &Path, keep: &[PathBuf]) -> Result<()> {
    let Ok(entries) = fs::read_dir(dir) else { return Ok(()) };
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            remove_stale(&path, keep)?;
        } else if !keep.contains(&path) {
            fs::remove_file(&path).with_context(|| format!("failed to remove {}", path.display()))?;
        }
    }
    Ok(())
}

/// Keep the vendored engine crates (each its own workspace) out of the user's workspace:
/// cargo would take path dependencies inside its directory for members, and refuse two
/// roots. Nothing to do when the root manifest declares no workspace.
fn exclude_from_workspace(root_manifest: &Path, engine_dir: &Path, root: &Path) -> Result<()> {
    let Ok(text) = fs::read_to_string(root_manifest) else { return Ok(()) };
    let mut doc: DocumentMut =
        text.parse().with_context(|| format!("failed to parse {}", root_manifest.display()))?;
    let Some(workspace) = doc.get_mut("workspace").and_then(Item::as_table_like_mut) else { return Ok(()) };
    let rel = relative_dir(engine_dir, root);
    let exclude = workspace.entry("exclude").or_insert(value(toml_edit::Array::new()));
    let Some(list) = exclude.as_array_mut() else {
        bail!("{}: workspace.exclude is not a list", root_manifest.display())
    };
    if !list.iter().any(|v| v.as_str() == Some(rel.as_str())) {
        list.push(rel.as_str());
        write_atomic(root_manifest, doc.to_string().as_bytes())?;
    }
    Ok(())
}

/// Make sure the package's manifest has the dev-dependencies the exported test needs:
/// `mutfuzz` (from the registry, or the vendored engine), and every other dependency of
/// the harness (but the package itself). Returns the names added.
fn add_dev_dependencies(
    manifest: &Path,
    harness: &Harness,
    package: &str,
    harness_rel: &str,
    engine: Engine,
) -> Result<Vec<String>> {
    let text =
        fs::read_to_string(manifest).with_context(|| format!("failed to read {}", manifest.display()))?;
    let mut doc: DocumentMut =
        text.parse().with_context(|| format!("failed to parse {}", manifest.display()))?;
    let harness_text = fs::read_to_string(&harness.manifest)
        .with_context(|| format!("failed to read {}", harness.manifest.display()))?;
    let harness_doc: DocumentMut =
        harness_text.parse().with_context(|| format!("failed to parse {}", harness.manifest.display()))?;
    let wanted = wanted_dev_dependencies(&harness_doc, package, harness_rel, engine);
    // Integration tests also see the package's own dependencies.
    let normal: Vec<String> = doc
        .get("dependencies")
        .and_then(Item::as_table_like)
        .map(|t| t.iter().map(|(k, _)| k.to_owned()).collect())
        .unwrap_or_default();
    let dev = doc.entry("dev-dependencies").or_insert(Item::Table(Table::new()));
    let Some(dev) = dev.as_table_like_mut() else {
        bail!("{}: [dev-dependencies] is not a table", manifest.display())
    };
    let path_of = |i: Option<&Item>| i.and_then(|i| i.get("path")).and_then(Item::as_str).map(str::to_owned);
    let mut added = Vec::new();
    for (key, item) in wanted {
        let needed = if key == "mutfuzz" {
            match engine {
                Engine::Vendored => path_of(dev.get(&key)) != path_of(Some(&item)),
                // A vendored path (an earlier export) gives way; a requirement the carried
                // engine meets stays as the user wrote it.
                Engine::Registry => dev.get(&key).is_none_or(|d| {
                    path_of(Some(d)).is_some() || !requirement_of(d).is_some_and(carried_engine_meets)
                }),
            }
        } else {
            !dev.contains_key(&key) && !normal.contains(&key)
        };
        if needed {
            dev.insert(&key, item);
            added.push(key);
        }
    }
    let new = doc.to_string();
    if new != text {
        write_atomic(manifest, new.as_bytes())?;
    }
    Ok(added)
}

/// The version requirement of a dependency: `"0.1"` or `{ version = "0.1", … }`.
fn requirement_of(item: &Item) -> Option<&str> {
    item.as_str().or_else(|| item.get("version").and_then(Item::as_str))
}

/// Whether the engine this binary carries meets the requirement `req`.
fn carried_engine_meets(req: &str) -> bool {
    use cargo_metadata::semver::{Version, VersionReq};
    let carried = Version::parse(engine::VERSION).expect("the engine's version is semver");
    VersionReq::parse(req).is_ok_and(|r| r.matches(&carried))
}

/// The dev-dependencies an exported test needs, from the harness's manifest.
pub(crate) fn wanted_dev_dependencies(
    harness: &DocumentMut,
    package: &str,
    harness_rel: &str,
    engine: Engine,
) -> Vec<(String, Item)> {
    let engine = match engine {
        Engine::Registry => value(self::engine::VERSION),
        Engine::Vendored => {
            let mut path = InlineTable::new();
            path.insert("path", format!("{harness_rel}/{ENGINE_DIR}/mutfuzz").into());
            value(path)
        }
    };
    let mut wanted = vec![("mutfuzz".to_owned(), engine)];
    let Some(deps) = harness.get("dependencies").and_then(Item::as_table_like) else { return wanted };
    for (key, item) in deps.iter() {
        let name = item.get("package").and_then(Item::as_str).unwrap_or(key);
        if name == package || name == "mutfuzz" {
            continue;
        }
        let mut item = item.clone();
        // A relative path in the harness's manifest is relative to the harness.
        if let Some(path) = item.get_mut("path")
            && let Some(p) = path.as_str().filter(|p| !Path::new(p).is_absolute())
        {
            *path = value(format!("{harness_rel}/{p}"));
        }
        if let Some(t) = item.as_table_mut() {
            // A `[dependencies.x]` table becomes an inline entry of [dev-dependencies].
            item = value(t.clone().into_inline_table());
        }
        wanted.push((key.to_owned(), item));
    }
    wanted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_file_compiles_the_harness_as_a_module_and_replays_its_data() {
        let t = test_rs("sort_by_key", "mutfuzz_sort_by_key", "mutfuzz", 12);
        assert!(
            t.contains(
                "#[path = \"../mutfuzz/src/main.rs\"]\n#[allow(dead_code, unused_imports)]\nmod harness;"
            ),
            "{t}"
        );
        assert!(t.contains("join(\"tests/mutfuzz_sort_by_key.jsonl\")"), "{t}");
        assert!(t.contains("harness::mutfuzz_targets().replay(\"sort_by_key\", &data)"), "{t}");
        assert!(t.contains("each of the 12\n//! inputs"), "{t}");
    }

    #[test]
    fn the_harness_dependencies_but_the_package_and_the_engine_become_dev_dependencies() {
        let harness: DocumentMut = r#"
[dependencies]
my-crate = { path = ".." }
mutfuzz = "0.1.0"
arbitrary = { version = "1", features = ["derive"] }
helper = { path = "helper" }
[dependencies.serde]
version = "1"
"#
        .parse()
        .unwrap();
        let shown = |engine| -> Vec<String> {
            let wanted = wanted_dev_dependencies(&harness, "my-crate", "mutfuzz", engine);
            wanted.iter().map(|(k, v)| format!("{k} = {}", v.to_string().trim())).collect()
        };
        let others = [
            "arbitrary = { version = \"1\", features = [\"derive\"] }",
            "helper = { path = \"mutfuzz/helper\" }",
            "serde = { version = \"1\" }",
        ];
        // An ordinary dependency on the engine from the registry, nothing vendored.
        let registry = format!("mutfuzz = \"{}\"", engine::VERSION);
        assert_eq!(shown(Engine::Registry), [&[registry.as_str()][..], &others].concat());
        let vendored = "mutfuzz = { path = \"mutfuzz/engine/mutfuzz\" }";
        assert_eq!(shown(Engine::Vendored), [&[vendored][..], &others].concat());
    }

    #[test]
    fn dev_dependencies_are_added_once_and_the_users_own_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = dir.path().join("Cargo.toml");
        fs::write(&manifest, "[package]\nname = \"p\"\n\n[dev-dependencies]\narbitrary = \"1.3\"\n").unwrap();
        let harness_manifest = dir.path().join("mutfuzz/Cargo.toml");
        fs::create_dir_all(harness_manifest.parent().unwrap()).unwrap();
        fs::write(
            &harness_manifest,
            "[dependencies]\np = { path = \"..\" }\nmutfuzz = \"0.1.0\"\narbitrary = \"1\"\n",
        )
        .unwrap();
        let h = Harness { dir: dir.path().join("mutfuzz"), manifest: harness_manifest };
        let add = |engine| add_dev_dependencies(&manifest, &h, "p", "mutfuzz", engine).unwrap();
        assert_eq!(add(Engine::Registry), ["mutfuzz"]);
        let text = fs::read_to_string(&manifest).unwrap();
        assert!(text.contains("arbitrary = \"1.3\""), "{text}");
        assert!(text.contains(&format!("mutfuzz = \"{}\"", engine::VERSION)), "{text}");
        assert!(add(Engine::Registry).is_empty());
        // The user's own requirement stays when the carried engine meets it.
        let major_minor = engine::VERSION.rsplit_once('.').unwrap().0;
        fs::write(
            &manifest,
            text.replace(&format!("\"{}\"", engine::VERSION), &format!("\"{major_minor}\"")),
        )
        .unwrap();
        assert!(add(Engine::Registry).is_empty());
        fs::write(&manifest, text.replace(&format!("\"{}\"", engine::VERSION), "\"99\"")).unwrap();
        assert_eq!(add(Engine::Registry), ["mutfuzz"]);
        // `--vendor` points it at the copy; a later export without it points it back.
        assert_eq!(add(Engine::Vendored), ["mutfuzz"]);
        let text = fs::read_to_string(&manifest).unwrap();
        assert!(text.contains("mutfuzz = { path = \"mutfuzz/engine/mutfuzz\" }"), "{text}");
        fs::write(dir.path().join("ws.toml"), "[workspace]\nmembers = [\"a\"]\n").unwrap();
        let engine = dir.path().join("mutfuzz/engine");
        exclude_from_workspace(&dir.path().join("ws.toml"), &engine, dir.path()).unwrap();
        exclude_from_workspace(&dir.path().join("ws.toml"), &engine, dir.path()).unwrap();
        let ws = fs::read_to_string(dir.path().join("ws.toml")).unwrap();
        assert_eq!(ws, "[workspace]\nmembers = [\"a\"]\nexclude = [\"mutfuzz/engine\"]\n");
        // Again: nothing new.
        assert!(add(Engine::Vendored).is_empty());
        assert_eq!(fs::read_to_string(&manifest).unwrap(), text);
        assert_eq!(add(Engine::Registry), ["mutfuzz"]);
        assert!(
            fs::read_to_string(&manifest).unwrap().contains(&format!("mutfuzz = \"{}\"", engine::VERSION))
        );
    }
}
