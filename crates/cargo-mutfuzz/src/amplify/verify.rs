//! Tests checked before they are written: in a copy of the workspace, the test file must
//! compile and pass on the code as it is (tests that do not are dropped, round by round),
//! and then a mutation test of the written tests alone, on the survivors only, must show
//! each kept test catching a mutant it was written for.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use mutfuzz_api::test_writer::{self, FileHead, TestFn};

use crate::fuzzing::cover::{self, Candidate};
use crate::schema::cargo_build::cargo;
use crate::testing::TestSettings;
use crate::testing::outcome::{Outcome, OutcomesFile};
use crate::workspace::PackageChoice;
use crate::workspace::scratch::copy_tree;
use crate::workspace::{Features, Package, Workspace};

/// The test file's name, under the package's `tests/`; a later run that has more to add
/// writes `mutfuzz_amplified_2.rs`, and so on.
pub const FILE: &str = "mutfuzz_amplified.rs";

/// The name of the file this run writes under `tests`: the first of [`FILE`],
/// `mutfuzz_amplified_2.rs`, … that is not there, so that no earlier run's tests (which
/// `cargo mutfuzz test` has counted since) are lost. An error where any of them is not
/// older than the results `made` at: its tests are not in them, and their survivors would
/// get the same tests again.
pub fn file_name(tests: &Path, made: std::time::SystemTime, results: &Path) -> Result<String> {
    let name = |n: usize| if n == 1 { FILE.to_owned() } else { FILE.replace(".rs", &format!("_{n}.rs")) };
    let stem = FILE.trim_end_matches(".rs");
    let earlier = std::fs::read_dir(tests).into_iter().flatten().flatten().filter(|e| {
        let file = e.file_name();
        let file = file.to_string_lossy();
        file.strip_prefix(stem)
            .and_then(|rest| rest.strip_suffix(".rs"))
            .is_some_and(|n| n.is_empty() || n.strip_prefix('_').is_some_and(|n| n.parse::<usize>().is_ok()))
    });
    for entry in earlier {
        // Equal times too: a coarse clock may give the file and the results one stamp.
        if entry.metadata().and_then(|m| m.modified()).is_ok_and(|written| written >= made) {
            return Err(crate::console::exit_code::usage(anyhow::anyhow!(
                "{} is no older than {}, the results of `cargo mutfuzz test`: the mutants its tests catch \
                 are survivors there, and would get tests again. Run `cargo mutfuzz test`, then amplify",
                entry.path().display(),
                results.display()
            )));
        }
    }
    Ok((1..).map(name).find(|n| !tests.join(n).exists()).expect("some name is free"))
}

/// At most this many rounds of dropping tests that do not compile or fail.
const MAX_ROUNDS: usize = 6;

/// Tests dropped: (name, why).
pub type Dropped = Vec<(String, String)>;

/// What the check found.
pub struct Verified {
    /// The tests kept, each with the survivors it catches.
    pub kept: Vec<(TestFn, BTreeSet<u32>)>,
    /// Tests dropped.
    pub dropped: Dropped,
    /// The file's text, as written.
    pub text: String,
    /// The mutation test of the written tests alone, on the survivors: one they do not
    /// reach is not covered there, whatever the crate's suite did with it.
    pub after: OutcomesFile,
}

/// A copy of the workspace to check tests in, `target/mutfuzz/amplify/check-…` (its root
/// manifest made a workspace of its own), kept between runs so its builds are incremental
/// and removed with the rest of `target/`.
#[derive(Clone)]
pub struct Copy {
    /// The name of the test file under `tests/` (see [`file_name`]).
    pub file: String,
    root: PathBuf,
    package: PathBuf,
    /// `--config` values pointing the engine crates at the copy this binary carries, when
    /// a manifest depends on them by version (a test that includes the harness needs
    /// `mutfuzz`), as every build of `cargo mutfuzz` resolves them.
    engine_patch: Vec<String>,
    /// The feature flags the tests are built with, as cargo arguments.
    feature_args: Vec<String>,
}

impl Copy {
    /// Copies `ws` (without build output, results, `.git`, or the harness's corpus and
    /// build output: its sources stay, for tests that include it), where tests are built
    /// with `features`.
    pub fn make(ws: &Workspace, package: &Package, features: &Features, file: &str) -> Result<Copy> {
        let layout = crate::workspace::layout::Layout::new(&ws.target_dir);
        // Named for the workspace: a target dir outside it may serve several.
        let key = mutfuzz_contract::content_name(ws.root.to_string_lossy().as_bytes());
        let root = layout.amplify().join(format!("check-{}", &key[..16]));
        let mut excluded = vec![
            ws.target_dir.clone(),
            ws.root.join("target"),
            ws.root.join(".git"),
            ws.root.join("mutfuzz.out"),
            ws.root.join("mutfuzz.out.old"),
        ];
        for dir in [&package.root, &ws.root] {
            let harness = dir.join(crate::workspace::layout::HARNESS_DIR);
            excluded.extend([harness.join("corpus"), harness.join("target")]);
        }
        copy_tree(&ws.root, &root, &excluded)?;
        own_workspace(&root.join("Cargo.toml"))?;
        let rel = package.root.strip_prefix(&ws.root).unwrap_or(Path::new(""));
        let package_copy = root.join(rel);
        let by_version = [root.join("Cargo.toml"), package_copy.join("Cargo.toml")]
            .iter()
            .any(|m| crate::workspace::scratch::manifest_depends_on_the_engine_by_version(m));
        let mut engine_patch = Vec::new();
        if by_version {
            crate::workspace::engine::write(&layout)?;
            for name in crate::workspace::engine::crates() {
                let path = layout.engine_crate(name);
                engine_patch.push(format!("patch.crates-io.{name}.path={:?}", path.to_string_lossy()));
            }
        }
        Ok(Copy {
            file: file.to_owned(),
            package: package_copy,
            root,
            engine_patch,
            feature_args: features.cargo_args(),
        })
    }

    /// Writes `tests/<name>` into the copy, declaring it as a test target when the
    /// manifest turns off `autotests` (every package normalized for crates.io does),
    /// where cargo would not find it by itself.
    fn write_test(&self, name: &str, text: &str) -> Result<()> {
        write(&self.test_file(name), text)?;
        self.edit_manifest(|doc| {
            if crate::workspace::tests_listed_only(doc) {
                declare_test(doc, name);
            }
        })
    }

    /// Makes the copy's package test with the written tests `name` alone: no unit tests of
    /// the library, no examples, benches or other test targets. Each survivor was missed by
    /// the whole suite already, so whether the written tests catch it is all the check
    /// asks; the suite would only run again to the end for every survivor they miss.
    /// Binaries stay: their code holds mutants too.
    fn only_written_tests(&self, name: &str) -> Result<()> {
        self.edit_manifest(|doc| {
            let package = doc.entry("package").or_insert(toml_edit::table());
            for key in ["autoexamples", "autotests", "autobenches"] {
                package[key] = toml_edit::value(false);
            }
            for key in ["example", "bench", "test"] {
                doc.remove(key);
            }
            let lib = doc.entry("lib").or_insert(toml_edit::table());
            lib["test"] = toml_edit::value(false);
            lib["doctest"] = toml_edit::value(false);
            declare_test(doc, name);
        })
    }

    fn edit_manifest(&self, edit: impl FnOnce(&mut toml_edit::DocumentMut)) -> Result<()> {
        let manifest = self.package.join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest)
            .with_context(|| format!("failed to read {}", manifest.display()))?;
        let mut doc: toml_edit::DocumentMut =
            text.parse().with_context(|| format!("failed to parse {}", manifest.display()))?;
        edit(&mut doc);
        crate::workspace::fs_util::write_if_changed(&manifest, &doc.to_string())?;
        Ok(())
    }

    fn test_file(&self, name: &str) -> PathBuf {
        self.package.join("tests").join(name)
    }
}

/// Declares `tests/<name>` as a test target, unless it is already.
fn declare_test(doc: &mut toml_edit::DocumentMut, name: &str) {
    let stem = name.trim_end_matches(".rs");
    let tests = doc.entry("test").or_insert(toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()));
    let Some(tests) = tests.as_array_of_tables_mut() else { return };
    if lists(tests, stem) {
        return;
    }
    let mut target = toml_edit::Table::new();
    target.insert("name", toml_edit::value(stem));
    target.insert("path", toml_edit::value(format!("tests/{name}")));
    tests.push(target);
}

/// Whether `[[test]]` entries `tests` have one named `stem`.
fn lists(tests: &toml_edit::ArrayOfTables, stem: &str) -> bool {
    tests.iter().any(|t| t.get("name").and_then(|n| n.as_str()) == Some(stem))
}

/// A note for the user when `package`'s manifest turns off `autotests`: the written
/// `tests/<name>` runs only once declared, which it is not yet.
pub fn undeclared_note(package_root: &Path, name: &str) -> Option<String> {
    let doc: toml_edit::DocumentMut =
        std::fs::read_to_string(package_root.join("Cargo.toml")).ok()?.parse().ok()?;
    let stem = name.trim_end_matches(".rs");
    let listed = doc.get("test").and_then(|t| t.as_array_of_tables()).is_some_and(|tests| lists(tests, stem));
    (crate::workspace::tests_listed_only(&doc) && !listed).then(|| {
        format!(
            "note: Cargo.toml turns off `autotests`, so cargo runs only the tests it lists: add\n  \
             [[test]]\n  name = \"{stem}\"\n  path = \"tests/{name}\""
        )
    })
}

/// Checks `tests` (each written for the survivors in `written_for`) in `copy`, with the
/// test run's options `like`.
///
/// A call sequence's test is checked lean first, without its assertions on the last
/// state (most kills show in a call's result): where a survivor it was written for is
/// then caught by no test, its full form is checked on those survivors, and kept if it
/// catches one.
pub fn verify(
    copy: &Copy,
    head: &FileHead,
    tests: Vec<TestFn>,
    written_for: &BTreeMap<String, BTreeSet<u32>>,
    survivors: &BTreeSet<u32>,
    like: &TestSettings,
) -> Result<Verified> {
    let (tests, mut dropped) = passing(copy, &copy.file, head, tests)?;
    copy.only_written_tests(&copy.file)?;
    let mut lean: Vec<bool> = tests.iter().map(|t| t.lean.is_some()).collect();
    let forms = |lean: &[bool]| -> Vec<TestFn> {
        tests.iter().zip(lean).map(|(t, &l)| if l { t.clone().leaner() } else { t.clone() }).collect()
    };
    let mut after = mutation_check(copy, head, &forms(&lean), survivors, like, "mutfuzz.out")?;
    let first: BTreeSet<u32> = after
        .outcomes
        .iter()
        .filter(|o| matches!(o.outcome, Outcome::Caught | Outcome::Timeout))
        .map(|o| o.mutant.id)
        .collect();
    let mut again = BTreeSet::new();
    let mut swapped = Vec::new();
    for (i, t) in tests.iter().enumerate() {
        let missing: Vec<u32> = written_for
            .get(&t.name)
            .into_iter()
            .flatten()
            .filter(|id| !first.contains(id))
            .copied()
            .collect();
        if lean[i] && !missing.is_empty() {
            lean[i] = false;
            swapped.push(i);
            again.extend(missing);
        }
    }
    if !again.is_empty() {
        let full = mutation_check(copy, head, &forms(&lean), &again, like, "mutfuzz.out-full")?;
        let credited = credits(&full, written_for);
        // A full form that catches nothing more than its lean one goes back to lean.
        for i in swapped {
            if credited.get(&tests[i].name).is_none_or(|ids| ids.is_disjoint(&again)) {
                lean[i] = true;
            }
        }
        let by_id: BTreeMap<u32, _> = full.outcomes.into_iter().map(|o| (o.mutant.id, o)).collect();
        for o in &mut after.outcomes {
            if let Some(checked) = by_id.get(&o.mutant.id) {
                *o = checked.clone();
            }
        }
    }
    let mut caught = credits(&after, written_for);
    let names: BTreeMap<u32, String> =
        after.outcomes.iter().map(|o| (o.mutant.id, o.mutant.name())).collect();
    let mut catching = Vec::new();
    for t in forms(&lean) {
        let ids = caught.remove(&t.name).unwrap_or_default();
        if ids.is_empty() {
            dropped.push((t.name.clone(), "catches none of the mutants it was written for".to_owned()));
        } else {
            catching.push((t, ids));
        }
    }
    let mut kept = Vec::new();
    for (t, ids, needed) in fewest(catching) {
        if needed {
            // Its comment names what the check saw it catch.
            let kills: Vec<String> = ids.iter().filter_map(|id| names.get(id).cloned()).collect();
            kept.push((t.with_kills(&kills), ids));
        } else {
            dropped.push((t.name.clone(), REDUNDANT.to_owned()));
        }
    }
    test_writer::renumber(kept.iter_mut().map(|(t, _)| t));
    let text = test_writer::file(head, &kept.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>());
    Ok(Verified { kept, dropped, text, after })
}

/// Why a test that passes and catches survivors is dropped all the same.
pub const REDUNDANT: &str = "catches only mutants the tests kept catch";

/// `tests` in their order, each with whether it is needed: a few that catch every
/// survivor any of them catches, by the set cover of the inputs ([`cover::choose`]) over
/// what the check saw each catch, the shorter test first among equals. Shrinking makes
/// some inputs alike, so that a test chosen for one survivor may catch another's too.
fn fewest(tests: Vec<(TestFn, BTreeSet<u32>)>) -> Vec<(TestFn, BTreeSet<u32>, bool)> {
    let candidates: Vec<Candidate<usize>> = tests
        .iter()
        .enumerate()
        .map(|(i, (t, ids))| Candidate { item: i, size: t.text.lines().count(), kills: ids.clone() })
        .collect();
    let needed: BTreeSet<usize> = cover::choose(&candidates).into_iter().map(|c| c.item).collect();
    tests.into_iter().enumerate().map(|(i, (t, ids))| (t, ids, needed.contains(&i))).collect()
}

/// Whether `text`, a file of tests checked with the run's features, also builds and
/// passes in `copy` with the package's default features (each test that calls code behind
/// the run's features `#[cfg]` on them).
pub fn passes_plain(copy: &Copy, text: &str) -> Result<bool> {
    passes(copy, text, true)
}

/// Whether `text` builds and passes in `copy`, with the run's features or (`plain`) the
/// package's defaults.
pub fn passes(copy: &Copy, text: &str, plain: bool) -> Result<bool> {
    copy.write_test(&copy.file, text)?;
    let features = if plain { Vec::new() } else { copy.feature_args.clone() };
    let with = Copy { feature_args: features, ..copy.clone() };
    // A file that does not build says so as an error: then it does not pass.
    Ok(run_tests(&with, &copy.file).is_ok_and(|failing| failing.is_empty()))
}

/// The mutation test of `tests` alone in `copy`, on the survivors `ids`, its results in
/// `<copy>/<out>`.
fn mutation_check(
    copy: &Copy,
    head: &FileHead,
    tests: &[TestFn],
    ids: &BTreeSet<u32>,
    like: &TestSettings,
    out: &str,
) -> Result<OutcomesFile> {
    copy.write_test(&copy.file, &test_writer::file(head, tests))?;
    let out = copy.root.join(out);
    let mut args = like_args(like);
    args.package =
        PackageChoice { manifest_path: Some(copy.package.join("Cargo.toml")), packages: Vec::new() };
    args.output = Some(out.clone());
    let code = crate::testing::run(&args, Some(ids))?;
    if code == crate::console::exit_code::BASELINE_FAILED {
        // The same exit code as the `test` it ran: the build or a run without mutants failed.
        return Err(crate::console::exit_code::baseline(anyhow::anyhow!(
            "the check's `cargo mutfuzz test` in the copy with the written tests did not get past \
             the build and run without mutants (its error is above; results in {}); nothing was written",
            out.display()
        )));
    }
    Ok(serde_json::from_str(
        &std::fs::read_to_string(out.join("outcomes.json")).context("the check wrote no outcomes.json")?,
    )?)
}

/// The survivors each test catches: those it failed first on, and those it was written
/// for that now time out (a runaway names no test).
fn credits(
    after: &OutcomesFile,
    written_for: &BTreeMap<String, BTreeSet<u32>>,
) -> BTreeMap<String, BTreeSet<u32>> {
    let mut caught: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    for o in after.outcomes.iter().filter(|o| o.outcome == Outcome::Caught) {
        for t in &o.failing_tests {
            let name = t.rsplit("::").next().unwrap_or(t);
            caught.entry(name.to_owned()).or_default().insert(o.mutant.id);
        }
    }
    let timed_out: BTreeSet<u32> =
        after.outcomes.iter().filter(|o| o.outcome == Outcome::Timeout).map(|o| o.mutant.id).collect();
    for (name, mine) in written_for {
        let runaways: Vec<u32> = mine.intersection(&timed_out).copied().collect();
        if !runaways.is_empty() {
            caught.entry(name.clone()).or_default().extend(runaways);
        }
    }
    caught
}

/// The tests that compile and pass on the code as it is, in `copy`'s `tests/<file>`;
/// the others dropped, round by round, each with why.
pub fn passing(
    copy: &Copy,
    file: &str,
    head: &FileHead,
    mut tests: Vec<TestFn>,
) -> Result<(Vec<TestFn>, Dropped)> {
    let mut dropped = Vec::new();
    for _ in 0..MAX_ROUNDS {
        if tests.is_empty() {
            break;
        }
        let text = test_writer::file(head, &tests);
        copy.write_test(file, &text)?;
        let mut failing = run_tests(copy, file)?;
        // An error outside every test (in the included harness, or its `use` line) is
        // the harness's: every test that includes it goes.
        if let Some(why) = failing.remove(HARNESS_ERROR) {
            for t in tests.iter().filter(|t| t.harness) {
                failing.insert(t.name.clone(), why.clone());
            }
        }
        if failing.is_empty() {
            break;
        }
        let before = tests.len();
        tests.retain(|t| match failing.get(&t.name) {
            Some(why) => {
                dropped.push((t.name.clone(), why.clone()));
                false
            }
            None => true,
        });
        if tests.len() == before {
            let (name, why) = failing.iter().next().expect("not empty");
            bail!("the written tests do not build or pass, and no single test is to blame ({name}: {why})");
        }
    }
    let text = test_writer::file(head, &tests);
    copy.write_test(file, &text)?;
    Ok((tests, dropped))
}

/// The line of `span` in the file `name`, or of the macro call it was expanded from
/// (`assert_eq!`'s comparison is in `core`, its call in the test).
fn line_in(span: &serde_json::Value, name: &str) -> Option<u64> {
    let mut span = span;
    loop {
        if span["file_name"].as_str().is_some_and(|f| f.ends_with(name)) {
            return span["line_start"].as_u64();
        }
        span = span.get("expansion")?.get("span")?;
    }
}

/// The options of the check's mutation test: those of the user's run that still apply.
fn like_args(like: &TestSettings) -> TestSettings {
    TestSettings {
        no_lint_check: true,
        output: None,
        // The check covers exactly the survivors it is given: no selection, no filter,
        // nothing carried over, and no annotations of its own missed mutants.
        min_score: None,
        shard: None,
        in_diff: None,
        filter: Default::default(),
        iterate: false,
        annotations: "none".to_owned(),
        test_args: Vec::new(),
        // Its per-mutant lines and results are the check's, not the user's.
        quiet: true,
        // A written test counts only if it fails with its survivor: every test that
        // catches a mutant must run, where a batch stops at the first.
        no_batch: true,
        ..like.clone()
    }
}

/// Makes the copy's root manifest a workspace of its own, so that cargo does not take the
/// copy, which lies under the user's tree, for a member of the user's workspace.
fn own_workspace(manifest: &Path) -> Result<()> {
    let text = std::fs::read_to_string(manifest)
        .with_context(|| format!("failed to read {}", manifest.display()))?;
    let mut doc: toml_edit::DocumentMut =
        text.parse().with_context(|| format!("failed to parse {}", manifest.display()))?;
    if !doc.contains_key("workspace") {
        doc.insert("workspace", toml_edit::Item::Table(toml_edit::Table::new()));
        crate::workspace::fs_util::write_if_changed(manifest, &doc.to_string())?;
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("failed to create {}", dir.display()))?;
    }
    mutfuzz_contract::write_atomic(path, text.as_bytes())?;
    Ok(())
}

/// The key of [`run_tests`]'s answer for a compile error outside every test.
const HARNESS_ERROR: &str = "";

/// Runs the test file; the tests that do not compile or fail, with why, and under
/// [`HARNESS_ERROR`] the first compile error outside every test of a file that includes
/// the harness.
fn run_tests(copy: &Copy, name: &str) -> Result<BTreeMap<String, String>> {
    let file = copy.test_file(name);
    let text = std::fs::read_to_string(&file)?;
    let includes_harness = text.contains("\nmod harness;\n");
    let mut command = Command::new(cargo());
    command
        .args(["test", "--quiet", "--message-format=json", "--no-fail-fast", "--test"])
        .arg(name.trim_end_matches(".rs"))
        .arg("--manifest-path")
        .arg(copy.package.join("Cargo.toml"))
        .args(&copy.feature_args);
    for patch in &copy.engine_patch {
        command.arg("--config").arg(patch);
    }
    let out = command
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .context("failed to run cargo test on the written tests")?;
    let mut failing = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) {
            if msg["reason"] == "compiler-message" && msg["message"]["level"] == "error" {
                let spans = msg["message"]["spans"].as_array().cloned().unwrap_or_default();
                let at = spans.iter().find_map(|s| line_in(s, name));
                let why = msg["message"]["message"].as_str().unwrap_or("does not compile");
                match at.and_then(|l| test_at_line(&text, l as usize)) {
                    Some(name) => {
                        failing.entry(name).or_insert_with(|| format!("does not compile: {why}"));
                    }
                    None if includes_harness && !spans.is_empty() => {
                        let place = spans
                            .iter()
                            .find(|s| s["is_primary"] == true)
                            .map(|s| {
                                format!(" ({}:{})", s["file_name"].as_str().unwrap_or("?"), s["line_start"])
                            })
                            .unwrap_or_default();
                        failing.entry(HARNESS_ERROR.to_owned()).or_insert_with(|| {
                            format!("does not compile: the harness, as a module of the package's tests{place}: {why}")
                        });
                    }
                    None => {}
                }
            }
            continue;
        }
    }
    for (name, why) in failed_tests(&String::from_utf8_lossy(&out.stdout)) {
        failing.entry(name).or_insert(why);
    }
    if failing.is_empty() && !out.status.success() {
        // A test that ends the process (an abort, a stack overflow) takes libtest's report
        // of every test with it: each runs alone to find it.
        if let Some(binary) = test_binary(&String::from_utf8_lossy(&out.stdout), name) {
            failing = ending_the_process(&binary, &copy.package)?;
        }
        if failing.is_empty() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            bail!("cargo test of the written tests failed:\n{}", stderr.trim_end());
        }
    }
    Ok(failing)
}

/// The test executable built for `tests/<name>`, from cargo's JSON messages.
fn test_binary(messages: &str, name: &str) -> Option<PathBuf> {
    let stem = name.trim_end_matches(".rs");
    messages.lines().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()).find_map(|msg| {
        let built = msg["reason"] == "compiler-artifact" && msg["target"]["name"] == stem;
        built.then(|| msg["executable"].as_str().map(PathBuf::from)).flatten()
    })
}

/// The tests of `binary` that end its process when run alone, each with how.
fn ending_the_process(binary: &Path, dir: &Path) -> Result<BTreeMap<String, String>> {
    let listed = Command::new(binary)
        .args(["--list", "--format", "terse"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("failed to run {}", binary.display()))?;
    let mut ending = BTreeMap::new();
    for test in test_names(&String::from_utf8_lossy(&listed.stdout)) {
        let out = Command::new(binary)
            .args(["--exact", &test, "--quiet", "--nocapture"])
            .current_dir(dir)
            .env("RUST_BACKTRACE", "0")
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("failed to run {}", binary.display()))?;
        if out.status.code().is_none() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            // Its last words: what std prints as it aborts, or the test's own.
            let why = match stderr.lines().rfind(|l| !l.trim().is_empty()) {
                Some(line) => format!("ends the test process ({}): {line}", out.status),
                None => format!("ends the test process ({})", out.status),
            };
            ending.insert(test, why);
        }
    }
    Ok(ending)
}

/// The tests libtest's `--list --format terse` names (`name: test` lines).
fn test_names(listed: &str) -> Vec<String> {
    listed.lines().filter_map(|l| l.strip_suffix(": test")).map(str::to_owned).collect()
}

/// The tests that libtest's output says failed, each with why: the first line of its
/// panic's message, or libtest's note (`test did not panic as expected`). Read from the
/// `---- name stdout ----` block of each, which the quiet format prints too (it has no
/// `test name ... FAILED` lines).
fn failed_tests(out: &str) -> BTreeMap<String, String> {
    const FAILS: &str = "fails on the code as it is";
    let mut failed = BTreeMap::new();
    let mut current: Option<(String, bool)> = None;
    for line in out.lines() {
        if let Some(name) = line.strip_prefix("---- ").and_then(|l| l.strip_suffix(" stdout ----")) {
            failed.insert(name.to_owned(), FAILS.to_owned());
            current = Some((name.to_owned(), false));
            continue;
        }
        if line == "failures:" {
            current = None;
        }
        let Some((name, panicked)) = &mut current else { continue };
        if line.starts_with("thread '") && line.contains(" panicked at ") {
            *panicked = true;
            continue;
        }
        let why = match line.strip_prefix("note: ") {
            Some(note) if !*panicked => note,
            _ if *panicked => line,
            _ => continue,
        };
        failed.insert(name.clone(), format!("{FAILS}: {why}"));
        current = None;
    }
    failed
}

/// The test function whose lines hold `line` (1-based).
fn test_at_line(text: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let upto = line.min(lines.len());
    // Down from the line to its `fn`, or up to the nearest `fn` before it.
    let fn_name =
        |l: &str| l.trim_start().strip_prefix("fn ").map(|r| r.split('(').next().unwrap_or("").to_owned());
    lines[upto.saturating_sub(1)..]
        .iter()
        .take_while(|l| !l.trim().is_empty())
        .find_map(|l| fn_name(l))
        .or_else(|| lines[..upto].iter().rev().find_map(|l| fn_name(l)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fewest_tests_that_catch_every_survivor_are_needed_the_shorter_first() {
        let test = |name: &str, lines: usize, ids: &[u32]| {
            let text = "    let _ = 1;\n".repeat(lines);
            let t = TestFn {
                name: name.into(),
                text,
                base: name.into(),
                harness: false,
                uses: Vec::new(),
                args_name: None,
                lean: None,
            };
            (t, ids.iter().copied().collect::<BTreeSet<u32>>())
        };
        // `drain_rev` catches what `extend_rev` does, in fewer lines; `wide` catches most.
        let tests = vec![
            test("extend_rev", 9, &[1, 2]),
            test("drain_rev", 5, &[1, 2]),
            test("wide", 12, &[2, 3, 4]),
            test("one_more", 4, &[5]),
            test("inside_wide", 3, &[3]),
        ];
        let needed: Vec<(String, bool)> = fewest(tests).into_iter().map(|(t, _, n)| (t.name, n)).collect();
        let expected = [
            ("extend_rev", false),
            ("drain_rev", true),
            ("wide", true),
            ("one_more", true),
            ("inside_wide", false),
        ];
        assert_eq!(needed, expected.map(|(n, b)| (n.to_owned(), b)));
    }

    #[test]
    fn a_run_writes_the_first_free_name_unless_an_earlier_file_is_newer_than_the_results() {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("mutfuzz.out");
        let long_ago = std::time::SystemTime::UNIX_EPOCH;
        assert_eq!(file_name(dir.path(), long_ago, &results).unwrap(), FILE);
        std::fs::write(dir.path().join(FILE), "").unwrap();
        let now = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        assert_eq!(file_name(dir.path(), now, &results).unwrap(), "mutfuzz_amplified_2.rs");
        std::fs::write(dir.path().join("mutfuzz_amplified_2.rs"), "").unwrap();
        assert_eq!(file_name(dir.path(), now, &results).unwrap(), "mutfuzz_amplified_3.rs");
        let err = file_name(dir.path(), long_ago, &results).unwrap_err().to_string();
        assert!(err.contains("mutfuzz_amplified.rs is no older than"), "{err}");
        // Every earlier file is checked, not only those before the first free name.
        std::fs::remove_file(dir.path().join(FILE)).unwrap();
        let err = file_name(dir.path(), long_ago, &results).unwrap_err().to_string();
        assert!(err.contains("mutfuzz_amplified_2.rs is no older than"), "{err}");
        assert_eq!(file_name(dir.path(), now, &results).unwrap(), FILE);
    }

    #[test]
    fn a_package_with_autotests_off_gets_the_test_declared_in_the_copy_and_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = "[package]\nname = \"p\"\nversion = \"0.1.0\"\nautotests = false\n\n[[test]]\nname = \"old\"\npath = \"tests/old.rs\"\n";
        std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        let copy = Copy {
            file: FILE.to_owned(),
            root: dir.path().to_owned(),
            package: dir.path().to_owned(),
            engine_patch: Vec::new(),
            feature_args: Vec::new(),
        };
        copy.write_test(FILE, "#[test]\nfn t() {}\n").unwrap();
        copy.write_test(FILE, "#[test]\nfn t() {}\n").unwrap();
        let doc: toml_edit::DocumentMut =
            std::fs::read_to_string(dir.path().join("Cargo.toml")).unwrap().parse().unwrap();
        let names: Vec<&str> =
            doc["test"].as_array_of_tables().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["old", "mutfuzz_amplified"]);
        // The user's manifest, without the test and with it.
        assert!(undeclared_note(dir.path(), FILE).is_none());
        std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        assert!(undeclared_note(dir.path(), FILE).unwrap().contains("name = \"mutfuzz_amplified\""));
        std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"p\"\n").unwrap();
        assert_eq!(undeclared_note(dir.path(), FILE), None);
        // In edition 2015 (no `edition`), a `[[test]]` listed turns discovery off too.
        let listed = "[[test]]\nname = \"old\"\npath = \"tests/old.rs\"\n";
        std::fs::write(dir.path().join("Cargo.toml"), format!("[package]\nname = \"p\"\n\n{listed}"))
            .unwrap();
        assert!(undeclared_note(dir.path(), FILE).is_some());
        let edition_2018 = format!("[package]\nname = \"p\"\nedition = \"2018\"\n\n{listed}");
        std::fs::write(dir.path().join("Cargo.toml"), edition_2018).unwrap();
        assert_eq!(undeclared_note(dir.path(), FILE), None);
    }

    #[test]
    fn an_error_inside_a_macro_is_placed_at_the_macros_call_in_the_test() {
        // `assert_eq!` of values that do not compare: rustc's span is in `core`, expanded
        // from the test's line.
        let span = serde_json::json!({
            "file_name": "/rustc/abc/library/core/src/cmp.rs",
            "line_start": 1876,
            "expansion": { "span": { "file_name": "tests/mutfuzz_amplified.rs", "line_start": 25 } }
        });
        assert_eq!(line_in(&span, FILE), Some(25));
        let elsewhere = serde_json::json!({ "file_name": "src/lib.rs", "line_start": 3 });
        assert_eq!(line_in(&elsewhere, FILE), None);
    }

    #[test]
    fn a_test_that_ends_its_process_is_found_by_running_each_alone() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = "[package]\nname = \"mutfuzz-check-ending\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n";
        std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
        let copy = Copy {
            file: FILE.to_owned(),
            root: dir.path().to_owned(),
            package: dir.path().to_owned(),
            engine_patch: Vec::new(),
            feature_args: Vec::new(),
        };
        let text = "// Kills a\n#[test]\nfn passes() {}\n\n#[test]\nfn aborts() {\n    eprintln!(\"gone\");\n    \
                    std::process::abort();\n}\n\n#[test]\n#[should_panic]\nfn panics() {\n    panic!();\n}\n";
        copy.write_test(FILE, text).unwrap();
        let failing = run_tests(&copy, FILE).unwrap();
        assert_eq!(failing.keys().collect::<Vec<_>>(), ["aborts"]);
        // (`signal: 6 (SIGABRT) (core dumped)` where core dumps are on.)
        let why = &failing["aborts"];
        assert!(
            why.starts_with("ends the test process (signal: 6 (SIGABRT)") && why.ends_with("): gone"),
            "{why}"
        );
    }

    #[test]
    fn the_check_builds_the_written_tests_and_no_other_target() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = "[package]\nname = \"p\"\nversion = \"0.1.0\"\n\n[lib]\npath = \"src/p.rs\"\n\n\
            [[bin]]\nname = \"tool\"\n\n[[test]]\nname = \"slow\"\n\n[[bench]]\nname = \"b\"\n";
        std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        let copy = Copy {
            file: FILE.to_owned(),
            root: dir.path().to_owned(),
            package: dir.path().to_owned(),
            engine_patch: Vec::new(),
            feature_args: Vec::new(),
        };
        copy.only_written_tests(FILE).unwrap();
        let doc: toml_edit::DocumentMut =
            std::fs::read_to_string(dir.path().join("Cargo.toml")).unwrap().parse().unwrap();
        for key in ["autoexamples", "autotests", "autobenches"] {
            assert_eq!(doc["package"][key].as_bool(), Some(false), "{key}");
        }
        // A binary's mutants are survivors too: it stays.
        assert_eq!(doc["bin"][0]["name"].as_str(), Some("tool"));
        assert!(doc["package"].get("autobins").is_none() && doc.get("bench").is_none());
        let names: Vec<&str> =
            doc["test"].as_array_of_tables().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["mutfuzz_amplified"]);
        assert_eq!(doc["lib"]["path"].as_str(), Some("src/p.rs"));
        assert_eq!(
            (doc["lib"]["test"].as_bool(), doc["lib"]["doctest"].as_bool()),
            (Some(false), Some(false))
        );
    }

    #[test]
    fn failed_tests_are_read_from_the_quiet_format_with_why() {
        let out = "\nrunning 3 tests\n.FF\nfailures:\n\n---- parse stdout ----\n\n\
            thread 'parse' (23754) panicked at tests/t.rs:132:60:\n\
            called `Result::unwrap()` on an `Err` value: OutOfRange\nstack backtrace:\n   0: x\n\
            note: panic did not contain expected string\n\
            ---- rejects stdout ----\nnote: test did not panic as expected\n\n\
            failures:\n    parse\n    rejects\n\ntest result: FAILED. 1 passed; 2 failed\n";
        let failed = failed_tests(out);
        assert_eq!(
            failed.into_iter().collect::<Vec<_>>(),
            [
                (
                    "parse".to_owned(),
                    "fails on the code as it is: called `Result::unwrap()` on an `Err` value: OutOfRange"
                        .to_owned()
                ),
                (
                    "rejects".to_owned(),
                    "fails on the code as it is: test did not panic as expected".to_owned()
                ),
            ]
        );
        assert!(failed_tests("running 1 test\n.\ntest result: ok.\n").is_empty());
    }

    #[test]
    fn an_error_line_names_its_test() {
        let text =
            "//! x\n\n// Kills a\n#[test]\nfn one() {\n    x();\n}\n\n#[test]\nfn two() {\n    y();\n}\n";
        assert_eq!(test_at_line(text, 6).as_deref(), Some("one"));
        assert_eq!(test_at_line(text, 3).as_deref(), Some("one"));
        assert_eq!(test_at_line(text, 11).as_deref(), Some("two"));
    }
}
