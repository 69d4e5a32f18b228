//! `amplify`'s files: the harness it fuzzes with (the user's, or one generated from the
//! API into `target/mutfuzz/amplify/harness/`, the user's tree untouched), the chosen
//! inputs written as tests (their values read back from the harness; those of the user's
//! hand-written targets call them in the harness, included as a module), and the record
//! of which survivors gained a test, for the report.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use mutfuzz_api::hand::{HandHarness, Item};
use mutfuzz_api::test_writer::{self, Include, Kept, TestFn, Value};
use mutfuzz_contract::command::{CorpusRequest, HarnessCommand};
use mutfuzz_contract::{FloatType, ValueRecord, ValueTree, value_tree::Fields};
use serde::{Deserialize, Serialize};

use super::survivors::Survivors;
use super::verify::Verified;
use crate::console::count;
use crate::fuzzing::auto_harness;
use crate::fuzzing::cover::Candidate;
use crate::fuzzing::harness::{self, Built, Harness};
use crate::fuzzing::records;
use crate::testing::TestSettings;
use crate::testing::outcome::MutantOutcome;
use crate::testing::output::read_outcomes;
use crate::workspace::engine;
use crate::workspace::layout::Layout;
use crate::workspace::{Features, PackageChoice};
use crate::workspace::{Package, Workspace};

/// The harness `amplify` fuzzes with, and the generated module its tests are written from.
pub struct Generated {
    /// Where a harness generated for this run is (`None`: the user's own).
    pub location: Option<Harness>,
    pub harness: mutfuzz_api::Harness,
}

/// The user's harness when there is one, else a harness generated from the API into
/// `target/mutfuzz/amplify/harness/` (its dependency on the package relative, so that
/// in the scratch copy it names the schema, and with `features`, as the API is read).
pub fn harness(ws: &Workspace, package: &Package, layout: &Layout, features: &Features) -> Result<Generated> {
    let checked = auto_harness::generate(package, layout, features)?;
    if harness::find(ws, package).is_ok() {
        return Ok(Generated { location: None, harness: checked.harness });
    }
    if checked.harness.module.targets.is_empty() {
        // Not a fault of the tool: the user's API offers nothing to call, as `init --auto` says.
        return Err(crate::console::exit_code::usage(anyhow::anyhow!(
            "{} has no harness and no item of its public API can be driven (`cargo mutfuzz init \
             --auto --explain` lists why); write targets of your own with `cargo mutfuzz init`",
            package.name
        )));
    }
    let dir = layout.amplify().join("harness");
    let up = relative(&dir, &package.root).with_context(|| {
        format!("{} and the package {} share no root", dir.display(), package.root.display())
    })?;
    let manifest = manifest(&package.name, &package.root.join("Cargo.toml"), &up, features);
    crate::workspace::fs_util::write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    crate::workspace::fs_util::write_if_changed(
        &dir.join("src/main.rs"),
        &auto_harness::main_rs(&package.name),
    )?;
    crate::workspace::fs_util::write_if_changed(&auto_harness::module_path(&dir), &checked.text)?;
    let h = &checked.harness;
    let driven = match h.plan.skipped.len() {
        0 => format!("{} driven", crate::console::count(h.plan.found, "API item")),
        skipped => format!(
            "{}: {} driven, {skipped} skipped, which `cargo mutfuzz init --auto --explain` lists with why",
            crate::console::count(h.plan.found, "API item"),
            h.driven(),
        ),
    };
    eprintln!(
        "No harness in the package: generated one from its public API into {} ({}, {driven})",
        dir.display(),
        crate::console::count(h.module.targets.len(), "target"),
    );
    Ok(Generated {
        location: Some(Harness { manifest: dir.join("Cargo.toml"), dir }),
        harness: checked.harness,
    })
}

/// The generated harness's manifest: a dependency on the package `name` (its manifest at
/// `package_manifest`, at `up` from the harness) built with `features`, and the engine.
fn manifest(name: &str, package_manifest: &Path, up: &str, features: &Features) -> String {
    let dependency = features.dependency(up, package_manifest, name);
    format!(
        "[package]\nname = \"{name}-mutfuzz-amplify\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [package.metadata]\nmutfuzz = true\n\n[dependencies]\n{name} = {dependency}\nmutfuzz = \"{0}\"\n\n[workspace]\n",
        engine::VERSION
    )
}

/// The relative path from the directory `from` to `to` (both absolute).
fn relative(from: &Path, to: &Path) -> Option<String> {
    let (a, b): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return None;
    }
    let mut parts: Vec<String> = vec!["..".to_owned(); a.len() - common];
    parts.extend(b[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    Some(if parts.is_empty() { ".".to_owned() } else { parts.join("/") })
}

/// Tests written from the chosen inputs, and why the others could not be.
pub struct Tests {
    pub written: Vec<TestFn>,
    /// The survivors each written test's input kills, by test name.
    pub kills: BTreeMap<String, BTreeSet<u32>>,
    pub why: Vec<String>,
    /// How the file includes the harness, for the tests of hand-written targets.
    pub include: Option<Include>,
    /// What to change so that the tests of hand-written targets left out can be written.
    pub notes: Vec<String>,
}

/// Writes each chosen input as a test: its value and the original's ending read back
/// from the harness (`values`), rendered by `mutfuzz_api::test_writer` (a generated
/// target's) or `test_writer::hand` (a hand-written target's, which calls the target in
/// the harness included into the test file).
pub fn tests(
    built: &Built,
    generated: &Generated,
    package: &Package,
    chosen: &[Candidate<(String, PathBuf)>],
    nondeterministic: &BTreeSet<String>,
    dir: &Path,
) -> Result<Tests> {
    let mut by_target: BTreeMap<&str, Vec<&Candidate<(String, PathBuf)>>> = BTreeMap::new();
    for c in chosen {
        by_target.entry(c.item.0.as_str()).or_default().push(c);
    }
    let h = &generated.harness;
    // The user's harness, read once (none for a harness generated for this run).
    let mut hand: Option<Result<Hand, String>> = None;
    let mut left_out = LeftOut::default();
    let mut taken = BTreeSet::new();
    let mut written = Vec::new();
    let mut kill_sets = BTreeMap::new();
    let mut why = Vec::new();
    let mut unasserted = 0;
    for (target, picks) in by_target {
        // The user's harness says which targets are hand-written; the rest are generated.
        if generated.location.is_none() && hand.is_none() {
            hand = Some(Hand::read(built, package).map_err(|e| format!("{e:#}")));
        }
        let hand_side = hand
            .as_ref()
            .and_then(|h| h.as_ref().ok())
            .filter(|s| s.harness.targets.iter().any(|t| t == target));
        if hand_side.is_none() && h.module.kind_of(target).is_none() {
            let e = match &hand {
                Some(Err(e)) => e.clone(),
                _ => "not a target the crate's API generates, nor one the harness lists by hand".to_owned(),
            };
            why.push(format!("{} input(s) of `{target}`: {e}", picks.len()));
            continue;
        }
        let corpus = dir.join("values").join(target);
        if corpus.exists() {
            std::fs::remove_dir_all(&corpus)?;
        }
        std::fs::create_dir_all(&corpus)?;
        let mut names = BTreeMap::new();
        for (i, c) in picks.iter().enumerate() {
            let name = format!("{i:04}");
            std::fs::copy(&c.item.1, corpus.join(&name))
                .with_context(|| format!("failed to copy {}", c.item.1.display()))?;
            names.insert(name, *c);
        }
        let out = dir.join("values").join(format!("{target}.jsonl"));
        let command = HarnessCommand::Values(CorpusRequest {
            target: target.to_owned(),
            corpus: corpus.clone(),
            out: out.clone(),
        });
        let status = built
            .sandboxed_command(&command, &[])?
            .status()
            .with_context(|| format!("failed to run the harness {}", built.binary.display()))?;
        if !status.success() {
            bail!("the harness's `values {target}` failed ({status})");
        }
        let records = records::read::<ValueRecord>(&out)?;
        for (record, killed) in one_per_value(records, |input| names.get(input).map(|c| &c.kills)) {
            let Some(tree) = &record.value else {
                why.push(format!("an input of `{target}`: its type has no reflection"));
                continue;
            };
            let kills: Vec<String> = killed.iter().map(|id| describe(built, *id)).collect();
            let result = match hand_side {
                Some(side) => {
                    let kept = test_writer::hand::Kept {
                        target,
                        value: tree,
                        ending: &record.output,
                        kills: &kills,
                    };
                    test_writer::hand::write(&side.harness, &kept, &mut taken).map(|w| {
                        if side.missing.is_empty() && w.private.is_empty() {
                            return Some(w.test);
                        }
                        // It would not compile yet: left out, and what to change said once.
                        taken.remove(&w.test.name);
                        left_out.inputs += 1;
                        left_out.private.extend(w.private);
                        None
                    })
                }
                None => {
                    let value = value(tree);
                    let kept = Kept { target, value: &value, ending: &record.output, kills: &kills };
                    test_writer::write(&h.plan, &h.module, &kept, &mut taken).map(Some)
                }
            };
            match result {
                Ok(Some(t)) => {
                    kill_sets.insert(t.name.clone(), killed);
                    if nondeterministic.contains(target) {
                        unasserted += 1;
                        written.push(test_writer::without_assertions(t));
                    } else {
                        written.push(t);
                    }
                }
                Ok(None) => {}
                Err(e) => why.push(format!("an input of `{target}`: {e}")),
            }
        }
    }
    let side = hand.and_then(Result::ok);
    let mut notes = Vec::new();
    if unasserted > 0 {
        notes.push(format!(
            "{} of targets whose results differ from run to run assert nothing: they catch \
             the mutants that make the code panic or run away",
            count(unasserted, "test")
        ));
    }
    if let Some(side) = &side
        && left_out.inputs > 0
    {
        notes.extend(side.notes(&left_out));
        why.push(format!(
            "{} input(s) of hand-written targets: left out until their tests can build (see the notes)",
            left_out.inputs
        ));
    }
    let include = side.map(|s| s.include).filter(|_| written.iter().any(|t| t.harness));
    Ok(Tests { written, kills: kill_sets, why, include, notes })
}

/// The records of the chosen inputs, with the mutants each kills (`kills_of` its input),
/// one per value and ending: inputs whose bytes differ may shrink to one value, which
/// is one test killing what they kill.
fn one_per_value<'a>(
    records: Vec<ValueRecord>,
    kills_of: impl Fn(&str) -> Option<&'a BTreeSet<u32>>,
) -> Vec<(ValueRecord, BTreeSet<u32>)> {
    let mut out: Vec<(ValueRecord, BTreeSet<u32>)> = Vec::new();
    for record in records {
        let Some(kills) = kills_of(&record.input) else { continue };
        let same =
            |r: &ValueRecord| record.value.is_some() && r.value == record.value && r.output == record.output;
        match out.iter_mut().find(|(r, _)| same(r)) {
            Some((_, all)) => all.extend(kills),
            None => out.push((record, kills.clone())),
        }
    }
    out
}

/// The user's harness as the tests of its hand-written targets need it.
struct Hand {
    harness: HandHarness,
    /// Where the harness is, from the package's root (`mutfuzz`).
    shown: String,
    /// `key = value` lines the package's `[dev-dependencies]` lacks for a test that
    /// includes the harness.
    missing: Vec<String>,
    include: Include,
}

/// The inputs of hand-written targets whose tests would not compile yet.
#[derive(Default)]
struct LeftOut {
    inputs: usize,
    /// Items of the harness those tests name that it keeps private.
    private: BTreeSet<Item>,
}

impl Hand {
    fn read(built: &Built, package: &Package) -> Result<Hand> {
        let main = built.harness.dir.join("src/main.rs");
        let harness = HandHarness::read(&main, &package.root)?;
        let shown = crate::commands::export::relative_dir(&built.harness.dir, &package.root);
        let manifest = package.root.join("Cargo.toml");
        let missing = missing_dev_dependencies(&manifest, &package.name, &built.harness.manifest, &shown)?;
        let tests_dir = package.root.join("tests");
        let main_from_tests = relative(&tests_dir, &main).unwrap_or_else(|| main.display().to_string());
        let mut extern_crates = Vec::new();
        if package.spec.edition_2015 {
            let lib = package.lib_name.clone().unwrap_or_else(|| package.name.replace('-', "_"));
            extern_crates = harness_crates(&built.harness.manifest, &package.name, &lib)?;
        }
        Ok(Hand { harness, shown, missing, include: Include { main: main_from_tests, extern_crates } })
    }

    /// What to add for the tests left out, in the style of the `autotests` note.
    fn notes(&self, left_out: &LeftOut) -> Vec<String> {
        let mut notes = Vec::new();
        if !self.missing.is_empty() {
            notes.push(format!(
                "note: a test of a hand-written target includes the harness ({}/src/main.rs) as a module, so the \
                 package's tests need its dependencies: add to Cargo.toml\n  [dev-dependencies]\n  {}",
                self.shown,
                self.missing.join("\n  ")
            ));
        }
        if !left_out.private.is_empty() {
            let lines: Vec<String> =
                left_out.private.iter().map(|i| format!("{}: {}", i.location, i.what)).collect();
            notes.push(format!(
                "note: a test that includes the harness as a module sees only what the harness makes visible: \
                 add `pub(crate)` to\n  {}",
                lines.join("\n  ")
            ));
        }
        notes
    }
}

/// The `key = value` lines of the dependencies the package (`name`, its manifest at
/// `manifest`) lacks for a test that includes the harness whose manifest is
/// `harness_manifest` (at `harness_rel` from the package): `mutfuzz` and the harness's others.
fn missing_dev_dependencies(
    manifest: &Path,
    name: &str,
    harness_manifest: &Path,
    harness_rel: &str,
) -> Result<Vec<String>> {
    let read = |path: &Path| -> Result<toml_edit::DocumentMut> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("failed to read {}", path.display()))?;
        text.parse().with_context(|| format!("failed to parse {}", path.display()))
    };
    let harness = read(harness_manifest)?;
    let manifest = read(manifest)?;
    let has = |key: &str| {
        ["dependencies", "dev-dependencies"]
            .iter()
            .any(|t| manifest.get(t).and_then(|d| d.as_table_like()).is_some_and(|d| d.contains_key(key)))
    };
    let wanted = crate::commands::export::wanted_dev_dependencies(
        &harness,
        name,
        harness_rel,
        crate::commands::export::Engine::Registry,
    );
    Ok(wanted
        .into_iter()
        .filter(|(key, _)| !has(key))
        .map(|(key, item)| format!("{key} = {}", item.to_string().trim()))
        .collect())
}

/// The crates the harness's `use` paths may name, as edition 2015 declares them: the
/// engine, the package's library (package `name`, library `lib`) and the harness's other
/// dependencies.
fn harness_crates(harness_manifest: &Path, name: &str, lib: &str) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(harness_manifest)
        .with_context(|| format!("failed to read {}", harness_manifest.display()))?;
    let doc: toml_edit::DocumentMut =
        text.parse().with_context(|| format!("failed to parse {}", harness_manifest.display()))?;
    let mut crates = vec!["mutfuzz".to_owned()];
    let Some(deps) = doc.get("dependencies").and_then(|d| d.as_table_like()) else { return Ok(crates) };
    for (key, item) in deps.iter() {
        let package = item.get("package").and_then(|p| p.as_str()).unwrap_or(key);
        let krate = if package == name { lib.to_owned() } else { key.replace('-', "_") };
        if !crates.contains(&krate) {
            crates.push(krate);
        }
    }
    Ok(crates)
}

/// `src/lib.rs:45:10: replace < with <= in clamp_percent`.
fn describe(built: &Built, id: u32) -> String {
    built.discovery.mutants.iter().find(|m| m.id == id).map_or_else(|| format!("mutant {id}"), |m| m.name())
}

/// A reflected value as the test writer reads it.
fn value(tree: &ValueTree) -> Value {
    let all = |items: &[ValueTree]| items.iter().map(value).collect();
    match tree {
        ValueTree::Signed { ty, value } => Value::Int(value.to_string(), ty.name().to_owned()),
        ValueTree::Unsigned { ty, value } => Value::Int(value.to_string(), ty.name().to_owned()),
        ValueTree::Float { ty, bits, .. } => match ty {
            FloatType::F32 => Value::Float(f64::from(f32::from_bits(*bits as u32)), "f32".into()),
            FloatType::F64 => Value::Float(f64::from_bits(*bits), "f64".into()),
        },
        ValueTree::Bool(b) => Value::Bool(*b),
        ValueTree::Char(c) => Value::Char(*c),
        ValueTree::String(s) => Value::Str(s.clone()),
        ValueTree::Unit => Value::Unit,
        ValueTree::Seq { items, .. } => Value::Seq(all(items)),
        ValueTree::Map { entries, .. } => {
            Value::Map(entries.iter().map(|(k, v)| (value(k), value(v))).collect())
        }
        ValueTree::Tuple(items) => Value::Tuple(all(items)),
        ValueTree::Array(items) => Value::Array(all(items)),
        ValueTree::Option(o) => Value::Option(o.as_ref().map(|v| Box::new(value(v)))),
        ValueTree::Result(r) => Value::Result(match r {
            Ok(v) => Ok(Box::new(value(v))),
            Err(e) => Err(Box::new(value(e))),
        }),
        ValueTree::Variant { variant, fields, .. } => Value::Variant(
            variant.clone(),
            match fields {
                Fields::Named(f) => f.iter().map(|(_, v)| value(v)).collect(),
                Fields::Tuple(f) => all(f),
                Fields::Unit => Vec::new(),
            },
        ),
        other => Value::Opaque(format!("{other:?}")),
    }
}

/// The options of the check's mutation test, with the feature flags `features`.
pub fn test_args(args: &super::AmplifySettings, package: &Package, features: &Features) -> TestSettings {
    TestSettings {
        package: PackageChoice { manifest_path: Some(package.root.join("Cargo.toml")), packages: Vec::new() },
        jobs: args.jobs,
        features: features.clone(),
        no_lint_check: true,
        no_doctests: true,
        no_sandbox: args.no_sandbox,
        // No annotations of its own missed mutants.
        annotations: "none".to_owned(),
        ..TestSettings::default()
    }
}

/// `mutfuzz.out/amplified.json`: the tests written and the survivors each catches, and
/// the survivors left, for the report.
#[derive(Debug, Serialize, Deserialize)]
pub struct AmplifiedFile {
    /// The file under `tests/` (`None`, from an older build: the first name).
    #[serde(default)]
    pub file: Option<String>,
    /// Each written test and the survivors it catches.
    pub tests: Vec<AmplifiedTest>,
    /// Survivors no written test catches, though a target's input killed them.
    pub killed_untested: Vec<u32>,
    /// Survivors no input killed.
    pub not_killed: Vec<u32>,
    /// Survivors whose site no target's input reached.
    #[serde(default)]
    pub unreached: Vec<u32>,
}

impl AmplifiedFile {
    /// What the report says of mutant `id`, if amplify did something about it.
    pub fn note(&self, id: u32) -> Option<String> {
        if let Some(t) = self.tests.iter().find(|t| t.catches.contains(&id)) {
            let file = self.file.as_deref().unwrap_or(super::verify::FILE);
            return Some(format!("gained a test: {} in tests/{file}", t.name));
        }
        if self.unreached.contains(&id) {
            return Some("no fuzz target reaches it (cargo mutfuzz amplify)".to_owned());
        }
        if self.killed_untested.contains(&id) {
            return Some("killed by a fuzz target, no test kept (cargo mutfuzz amplify)".to_owned());
        }
        self.not_killed
            .contains(&id)
            .then(|| "reached by fuzz targets, killed by none (cargo mutfuzz amplify)".to_owned())
    }

    /// Reads `amplified.json` of a results directory, if there is one.
    pub fn read(results: &Path) -> Option<AmplifiedFile> {
        serde_json::from_str(&std::fs::read_to_string(results.join("amplified.json")).ok()?).ok()
    }

    /// The `amplified.json` that speaks of the run in `results`: its own, or that of the
    /// run before (`<results>.old`) when both tested the same mutants. The usual next step
    /// after `amplify` is `cargo mutfuzz test`, to see the tests catch, and it moves the
    /// amplified run aside; its notes (which survivors gained a test, which no target
    /// reaches) still hold while the code is unchanged.
    pub fn read_latest(results: &Path, outcomes: &[MutantOutcome]) -> Option<AmplifiedFile> {
        if let Some(own) = Self::read(results) {
            return Some(own);
        }
        let mut old = results.as_os_str().to_owned();
        old.push(".old");
        let old = PathBuf::from(old);
        let before = read_outcomes(&old).ok()?;
        let same = before.outcomes.len() == outcomes.len()
            && before.outcomes.iter().zip(outcomes).all(|(a, b)| a.mutant == b.mutant);
        if same { Self::read(&old) } else { None }
    }
}

/// One written test.
#[derive(Debug, Serialize, Deserialize)]
pub struct AmplifiedTest {
    pub name: String,
    pub catches: Vec<u32>,
}

/// Writes `amplified.json` into the results directory.
pub fn record(
    results: &Path,
    test_file: &str,
    survivors: &Survivors,
    verified: &Verified,
    renamed: &BTreeMap<String, String>,
    [caught, killed, reached]: [&BTreeSet<u32>; 3],
) -> Result<()> {
    // A test merged into a table-driven one is named as the table is.
    let name = |t: &str| renamed.get(t).cloned().unwrap_or_else(|| t.to_owned());
    let file = AmplifiedFile {
        file: Some(test_file.to_owned()),
        tests: verified
            .kept
            .iter()
            .map(|(t, ids)| AmplifiedTest { name: name(&t.name), catches: ids.iter().copied().collect() })
            .collect(),
        killed_untested: killed.difference(caught).copied().collect(),
        not_killed: survivors.ids.iter().copied().filter(|id| !killed.contains(id)).collect(),
        unreached: survivors.ids.iter().copied().filter(|id| !reached.contains(id)).collect(),
    };
    let text = serde_json::to_string_pretty(&file)? + "\n";
    mutfuzz_contract::write_atomic(&results.join("amplified.json"), text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_says_of_each_survivor_what_amplify_did_about_it() {
        let file = AmplifiedFile {
            file: None,
            tests: vec![AmplifiedTest { name: "encode".into(), catches: vec![1] }],
            killed_untested: vec![2],
            not_killed: vec![3, 4],
            unreached: vec![4],
        };
        let notes: Vec<Option<String>> = (1..=5).map(|id| file.note(id)).collect();
        assert_eq!(
            notes,
            [
                Some("gained a test: encode in tests/mutfuzz_amplified.rs".to_owned()),
                Some("killed by a fuzz target, no test kept (cargo mutfuzz amplify)".to_owned()),
                Some("reached by fuzz targets, killed by none (cargo mutfuzz amplify)".to_owned()),
                Some("no fuzz target reaches it (cargo mutfuzz amplify)".to_owned()),
                None,
            ]
        );
    }

    #[test]
    fn the_notes_of_amplify_carry_over_to_a_run_of_the_same_mutants() {
        let outcome = |function: &str| {
            let mutant = crate::report::tests::mutant(1, "src/lib.rs", 1, function);
            MutantOutcome::fixed(&mutant, crate::testing::outcome::Outcome::Missed, None)
        };
        let dir = tempfile::tempdir().unwrap();
        let (results, old) = (dir.path().join("mutfuzz.out"), dir.path().join("mutfuzz.out.old"));
        for d in [&results, &old] {
            std::fs::create_dir(d).unwrap();
            let outcomes = serde_json::json!({ "outcomes": [outcome("f")] });
            std::fs::write(d.join("outcomes.json"), outcomes.to_string()).unwrap();
        }
        let amplified =
            r#"{"tests": [{"name": "f_of_1", "catches": [1]}], "killed_untested": [], "not_killed": []}"#;
        std::fs::write(old.join("amplified.json"), amplified).unwrap();

        let carried = AmplifiedFile::read_latest(&results, &[outcome("f")]).unwrap();
        assert_eq!(carried.tests[0].name, "f_of_1");
        // Other mutants: the notes speak of code that changed since.
        assert!(AmplifiedFile::read_latest(&results, &[outcome("g")]).is_none());
    }

    #[test]
    fn the_harness_names_the_package_relative_to_where_it_is() {
        let up = relative(Path::new("/w/p/target/mutfuzz/amplify/harness"), Path::new("/w/p"));
        assert_eq!(up.as_deref(), Some("../../../.."));
        let member = relative(Path::new("/w/target/mutfuzz/amplify/harness"), Path::new("/w/crates/p"));
        assert_eq!(member.as_deref(), Some("../../../../crates/p"));
    }

    #[test]
    fn the_generated_harness_builds_the_package_with_the_features_of_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let package = dir.path().join("Cargo.toml");
        let text = "[package]\nname = \"bs58\"\n\n[features]\ndefault = [\"std\"]\nstd = []\ncheck = []\ncb58 = []\n";
        std::fs::write(&package, text).unwrap();
        let read = |features: &Features| -> toml_edit::DocumentMut {
            manifest("bs58", &package, "../../../..", features).parse().unwrap()
        };
        let plain = read(&Features::default());
        assert_eq!(plain["dependencies"]["bs58"]["path"].as_str(), Some("../../../.."));
        assert!(plain["dependencies"]["bs58"].get("features").is_none());
        assert_eq!(plain["package"]["metadata"]["mutfuzz"].as_bool(), Some(true));
        let checked = read(&Features { features: vec!["check,cb58".into()], ..Features::default() });
        let dep = &checked["dependencies"]["bs58"];
        let named: Vec<&str> =
            dep["features"].as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
        assert_eq!(named, ["check", "cb58"]);
        assert!(dep.get("default-features").is_none());
        let bare = read(&Features { no_default_features: true, ..Features::default() });
        assert_eq!(bare["dependencies"]["bs58"]["default-features"].as_bool(), Some(false));
    }

    #[test]
    fn the_notes_say_which_dependencies_and_items_the_tests_of_hand_written_targets_need() {
        let dir = tempfile::tempdir().unwrap();
        let (manifest, harness) = (dir.path().join("Cargo.toml"), dir.path().join("mutfuzz/Cargo.toml"));
        std::fs::create_dir_all(harness.parent().unwrap()).unwrap();
        std::fs::write(
            &harness,
            "[dependencies]\nmy-calc = { path = \"..\" }\nmutfuzz = \"0.1.0\"\nitoa = \"1\"\nhelp = { path = \"help\" }\n",
        )
        .unwrap();
        std::fs::write(&manifest, "[package]\nname = \"my-calc\"\n\n[dependencies]\nitoa = \"1.0\"\n")
            .unwrap();
        let missing = missing_dev_dependencies(&manifest, "my-calc", &harness, "mutfuzz").unwrap();
        let engine = format!("mutfuzz = \"{}\"", engine::VERSION);
        assert_eq!(missing, [engine.as_str(), "help = { path = \"mutfuzz/help\" }"]);
        let item = |location: &str, what: &str| Item {
            location: location.into(),
            what: what.into(),
            visible: false,
        };
        let hand = Hand {
            harness: HandHarness::default(),
            shown: "mutfuzz".into(),
            missing,
            include: Include { main: "../mutfuzz/src/main.rs".into(), extern_crates: Vec::new() },
        };
        let left_out = LeftOut {
            inputs: 2,
            private: [
                item("mutfuzz/src/main.rs:9", "struct Bounds"),
                item("mutfuzz/src/main.rs:8", "fn clamp"),
            ]
            .into(),
        };
        assert_eq!(
            hand.notes(&left_out),
            [
                format!(
                    "note: a test of a hand-written target includes the harness (mutfuzz/src/main.rs) as a module, so \
                     the package's tests need its dependencies: add to Cargo.toml\n  [dev-dependencies]\n  {engine}\n  \
                     help = {{ path = \"mutfuzz/help\" }}"
                ),
                "note: a test that includes the harness as a module sees only what the harness makes visible: add \
                 `pub(crate)` to\n  mutfuzz/src/main.rs:8: fn clamp\n  mutfuzz/src/main.rs:9: struct Bounds"
                    .to_owned(),
            ]
        );
        // Edition 2015 declares every crate the harness may `use`, the package's by its library's name.
        assert_eq!(harness_crates(&harness, "my-calc", "calc").unwrap(), ["mutfuzz", "calc", "itoa", "help"]);
    }

    #[test]
    fn inputs_that_shrank_to_one_value_make_one_test_with_their_kills() {
        let record = |input: &str, text: Option<&str>, output: &str| ValueRecord {
            input: input.into(),
            bytes: String::new(),
            value: text.map(|t| ValueTree::String(t.into())),
            output: output.into(),
        };
        let kills: BTreeMap<&str, BTreeSet<u32>> = [
            ("a", [1, 2].into()),
            ("b", [3].into()),
            ("c", [4].into()),
            ("d", [5].into()),
            ("e", [6].into()),
        ]
        .into();
        let records = vec![
            record("a", Some("aA"), "\"a-a\""),
            record("b", Some("aA"), "\"a-a\""),
            record("c", Some("aA"), "panic: other"),
            record("d", None, "0"),
            record("e", None, "0"),
            record("f", Some("aA"), "\"a-a\""),
        ];
        let merged = one_per_value(records, |input| kills.get(input));
        let got: Vec<(&str, Vec<u32>)> =
            merged.iter().map(|(r, k)| (r.input.as_str(), k.iter().copied().collect())).collect();
        // "f" was not chosen; values without reflection are never the same.
        assert_eq!(got, [("a", vec![1, 2, 3]), ("c", vec![4]), ("d", vec![5]), ("e", vec![6])]);
    }

    #[test]
    fn reflected_values_keep_their_types() {
        let tree = ValueTree::Tuple(vec![
            ValueTree::Signed { ty: mutfuzz_contract::SignedType::I32, value: -3 },
            ValueTree::f64(0.5),
            ValueTree::Variant {
                name: "MakeX".into(),
                variant: "New".into(),
                fields: Fields::Named(vec![("n".into(), ValueTree::Bool(true))]),
            },
        ]);
        assert_eq!(
            value(&tree),
            Value::Tuple(vec![
                Value::Int("-3".into(), "i32".into()),
                Value::Float(0.5, "f64".into()),
                Value::Variant("New".into(), vec![Value::Bool(true)]),
            ])
        );
    }
}
