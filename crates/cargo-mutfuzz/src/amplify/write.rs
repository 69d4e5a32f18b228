//! `amplify`'s files: the harness it fuzzes with (the user's, or one generated from the
//! API into `target/mutfuzz/amplify/harness/`, the user's tree untouched), the chosen
//! inputs written as tests (their values read back from the harness), and the record of
//! which survivors gained a test, for the report.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use mutfuzz_api::test_writer::{self, Kept, TestFn, Value};
use mutfuzz_contract::command::{CorpusRequest, HarnessCommand};
use mutfuzz_contract::{FloatType, ValueRecord, ValueTree, value_tree::Fields};
use serde::{Deserialize, Serialize};

use super::survivors::Survivors;
use super::verify::Verified;
use crate::fuzzing::auto_harness;
use crate::fuzzing::cover::Candidate;
use crate::fuzzing::harness::{self, Built, Harness};
use crate::fuzzing::records;
use crate::testing::TestSettings;
use crate::workspace::PackageChoice;
use crate::workspace::engine;
use crate::workspace::layout::Layout;
use crate::workspace::{Package, Workspace};

/// The harness `amplify` fuzzes with, and the generated module its tests are written from.
pub struct Generated {
    /// Where a harness generated for this run is (`None`: the user's own).
    pub location: Option<Harness>,
    pub harness: mutfuzz_api::Harness,
}

/// The user's harness when there is one, else a harness generated from the API into
/// `target/mutfuzz/amplify/harness/` (its dependency on the package relative, so that
/// in the scratch copy it names the schema).
pub fn harness(ws: &Workspace, package: &Package, layout: &Layout) -> Result<Generated> {
    let checked = auto_harness::generate(package, layout)?;
    if harness::find(ws, package).is_ok() {
        return Ok(Generated { location: None, harness: checked.harness });
    }
    if checked.harness.module.targets.is_empty() {
        bail!(
            "{} has no harness and no item of its public API can be driven (`cargo mutfuzz init --auto --explain` lists why)",
            package.name
        );
    }
    let dir = layout.amplify().join("harness");
    let up = relative(&dir, &package.root).with_context(|| {
        format!("{} and the package {} share no root", dir.display(), package.root.display())
    })?;
    let manifest = format!(
        "[package]\nname = \"{0}-mutfuzz-amplify\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [package.metadata]\nmutfuzz = true\n\n[dependencies]\n{0} = {{ path = {up:?} }}\nmutfuzz = \"{1}\"\n\n[workspace]\n",
        package.name,
        engine::VERSION
    );
    crate::workspace::fs_util::write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    crate::workspace::fs_util::write_if_changed(
        &dir.join("src/main.rs"),
        &auto_harness::main_rs(&package.name),
    )?;
    crate::workspace::fs_util::write_if_changed(&auto_harness::module_path(&dir), &checked.text)?;
    eprintln!(
        "No harness in the package: generated one from its public API into {} ({} targets)",
        dir.display(),
        checked.harness.module.targets.len()
    );
    Ok(Generated {
        location: Some(Harness { manifest: dir.join("Cargo.toml"), dir }),
        harness: checked.harness,
    })
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
}

/// Writes each chosen input as a test: its value and the original's ending read back
/// from the harness (`values`), rendered by `mutfuzz_api::test_writer`.
pub fn tests(
    built: &Built,
    generated: &Generated,
    chosen: &[Candidate<(String, PathBuf)>],
    dir: &Path,
) -> Result<Tests> {
    let mut by_target: BTreeMap<&str, Vec<&Candidate<(String, PathBuf)>>> = BTreeMap::new();
    for c in chosen {
        by_target.entry(c.item.0.as_str()).or_default().push(c);
    }
    let h = &generated.harness;
    let mut taken = BTreeSet::new();
    let mut written = Vec::new();
    let mut kill_sets = BTreeMap::new();
    let mut why = Vec::new();
    for (target, picks) in by_target {
        if h.module.kind_of(target).is_none() {
            why.push(format!(
                "{} input(s) of the hand-written target `{target}`: tests of hand-written targets need the harness as a dev-dependency",
                picks.len()
            ));
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
        for record in records::read::<ValueRecord>(&out)? {
            let Some(c) = names.get(&record.input) else { continue };
            let Some(tree) = &record.value else {
                why.push(format!("an input of `{target}`: its type has no reflection"));
                continue;
            };
            let value = value(tree);
            let kills: Vec<String> = c.kills.iter().map(|id| describe(built, *id)).collect();
            let kept = Kept { target, value: &value, ending: &record.output, kills: &kills };
            match test_writer::write(&h.plan, &h.module, &kept, &mut taken) {
                Ok(t) => {
                    kill_sets.insert(t.name.clone(), c.kills.clone());
                    written.push(t)
                }
                Err(e) => why.push(format!("an input of `{target}`: {e}")),
            }
        }
    }
    Ok(Tests { written, kills: kill_sets, why })
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

/// The options of the check's mutation test.
pub fn test_args(args: &super::AmplifySettings, package: &Package) -> TestSettings {
    TestSettings {
        package: PackageChoice { manifest_path: Some(package.root.join("Cargo.toml")), packages: Vec::new() },
        jobs: args.jobs,
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
            return Some(format!("gained a test: {} in tests/{}", t.name, super::verify::FILE));
        }
        if self.unreached.contains(&id) {
            return Some("no fuzz target reaches it (cargo mutfuzz amplify)".to_owned());
        }
        self.not_killed
            .contains(&id)
            .then(|| "reached by fuzz targets, killed by none (cargo mutfuzz amplify)".to_owned())
    }

    /// Reads `amplified.json` of a results directory, if there is one.
    pub fn read(results: &Path) -> Option<AmplifiedFile> {
        serde_json::from_str(&std::fs::read_to_string(results.join("amplified.json")).ok()?).ok()
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
    survivors: &Survivors,
    verified: &Verified,
    caught: &BTreeSet<u32>,
    killed: &BTreeSet<u32>,
    reached: &BTreeSet<u32>,
) -> Result<()> {
    let file = AmplifiedFile {
        tests: verified
            .kept
            .iter()
            .map(|(t, ids)| AmplifiedTest { name: t.name.clone(), catches: ids.iter().copied().collect() })
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
    fn the_harness_names_the_package_relative_to_where_it_is() {
        let up = relative(Path::new("/w/p/target/mutfuzz/amplify/harness"), Path::new("/w/p"));
        assert_eq!(up.as_deref(), Some("../../../.."));
        let member = relative(Path::new("/w/target/mutfuzz/amplify/harness"), Path::new("/w/crates/p"));
        assert_eq!(member.as_deref(), Some("../../../../crates/p"));
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
