//! Helpers shared by the end-to-end tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Whether a crate tree's entry is its build output, a corpus or results: not copied.
fn generated(name: &std::ffi::OsStr) -> bool {
    name == "target" || name == "corpus" || name.to_string_lossy().starts_with("mutfuzz.out")
}

/// Copy a crate tree without its build output, corpus or results.
#[allow(dead_code)]
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if generated(&name) {
            continue;
        }
        let dest = to.join(&name);
        let ty = entry.file_type().unwrap();
        if ty.is_symlink() {
            // Kept a link, as the user's tree has it.
            #[cfg(unix)]
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), dest).unwrap();
        } else if ty.is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// A copy of `dir` (relative to this crate) shared by the tests that only fuzz, score and
/// run it, held by the caller alone: building the schema and the harness is most of such a
/// test's time, and this copy keeps its build from one holder to the next, in every test
/// binary of this crate and from one test run to the next (it lives in cargo's temp dir
/// for these tests). Each holder starts from the sources as the working tree has them,
/// with no corpus and no campaign state.
#[allow(dead_code)]
pub fn shared_copy(dir: &'static str) -> SharedCopy {
    static COPIES: Mutex<BTreeMap<&str, &'static Mutex<PathBuf>>> = Mutex::new(BTreeMap::new());
    let copy = *COPIES.lock().unwrap_or_else(PoisonError::into_inner).entry(dir).or_insert_with(|| {
        // Named for the whole relative path: two fixtures may share a last name.
        let name = dir.trim_start_matches("../").replace(['/', '.'], "-");
        Box::leak(Box::new(Mutex::new(Path::new(env!("CARGO_TARGET_TMPDIR")).join("shared").join(name))))
    });
    // A test that failed while holding it poisons the lock; the next one starts afresh anyway.
    let root = copy.lock().unwrap_or_else(PoisonError::into_inner);
    // Other test binaries (cargo runs them one after another, a developer maybe not).
    std::fs::create_dir_all(&*root).unwrap();
    let lock = std::fs::File::create(root.with_extension("lock")).unwrap();
    // SAFETY: flock on a descriptor this function owns; the lock goes with the file.
    assert_eq!(unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX) }, 0);
    // A campaign an earlier holder left running (it failed before stopping it) would hold
    // the copy's lock and write into the next holder's corpus.
    let running = processes_under(&root);
    assert!(running.is_empty(), "an earlier test left processes in {}: {running:?}", root.display());
    sync_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &root);
    // The build (schema, harness, engine, viability cache) stays; the campaigns go.
    if let Err(e) = std::fs::remove_dir_all(root.join("mutfuzz/corpus")) {
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "{e}");
    }
    let build = ["engine", "lock", "target", "target-fuzz", "tmp", "viability", "work"];
    for path in entries(&root.join("target/mutfuzz")) {
        if !build.iter().any(|b| path.file_name().unwrap() == *b) {
            remove(&path);
        }
    }
    SharedCopy { root, _lock: lock }
}

/// What [`shared_copy`] gives: the copy's root, held until dropped.
#[allow(dead_code)]
pub struct SharedCopy {
    root: MutexGuard<'static, PathBuf>,
    _lock: std::fs::File,
}

#[allow(dead_code)]
impl SharedCopy {
    /// The copy's root, as [`tempfile::TempDir::path`].
    pub fn path(&self) -> &Path {
        &self.root
    }
}

/// Make `to` hold what `from` holds, besides `target/` and a corpus, writing only the files
/// whose bytes differ (so cargo sees the rest unchanged) and removing what `from` lacks.
fn sync_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for path in entries(to) {
        let name = path.file_name().unwrap();
        let results = name.to_string_lossy().starts_with("mutfuzz.out");
        if name != "target" && name != "corpus" && (results || !from.join(name).exists()) {
            remove(&path);
        }
    }
    for source in entries(from) {
        let name = source.file_name().unwrap();
        let dest = to.join(name);
        if generated(name) {
            continue;
        } else if source.is_dir() {
            sync_tree(&source, &dest);
        } else if std::fs::read(&dest).ok() != Some(std::fs::read(&source).unwrap()) {
            std::fs::copy(&source, &dest).unwrap();
        }
    }
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir).map(|rd| rd.map(|e| e.unwrap().path()).collect()).unwrap_or_default()
}

fn remove(path: &Path) {
    let dir = std::fs::symlink_metadata(path).unwrap().is_dir();
    let removed = if dir { std::fs::remove_dir_all(path) } else { std::fs::remove_file(path) };
    removed.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// `cargo mutfuzz <args>` in `cwd`, without the variables of ours (`MUTFUZZ_*`,
/// `CARGO_TARGET_DIR`) that the environment running the tests may set.
#[allow(dead_code)]
pub fn mutfuzz_command(cwd: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("cargo-mutfuzz").unwrap();
    cmd.arg("mutfuzz").args(args).current_dir(cwd);
    for (k, _) in std::env::vars() {
        if k.starts_with("MUTFUZZ_") || k == "CARGO_TARGET_DIR" {
            cmd.env_remove(k);
        }
    }
    cmd
}

/// Processes whose command line mentions `dir` (test binaries of its copy, cargo).
// Each test crate includes this module and uses part of it.
#[allow(dead_code)]
#[cfg(target_os = "linux")]
pub fn processes_under(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(&needle) {
            found.push(format!("{}: {cmdline}", entry.file_name().to_string_lossy()));
        }
    }
    found
}

/// `outcome  file:line:col: description`, one line per mutant of an `outcomes.json`.
#[allow(dead_code)]
pub fn outcome_lines(outcomes: &serde_json::Value) -> String {
    let mut text = String::new();
    for o in outcomes["outcomes"].as_array().unwrap() {
        let m = &o["mutant"];
        text.push_str(&format!(
            "{:<12}{}:{}:{}: {}\n",
            o["outcome"].as_str().unwrap(),
            m["file"].as_str().unwrap(),
            m["span"]["start"]["line"],
            m["span"]["start"]["column"],
            m["description"].as_str().unwrap()
        ));
    }
    text
}

/// The schema status (Stryker's `mutation-testing-report-schema`) that `mutation.json`
/// must give a mutant of `outcome` (a `test` outcome or a score verdict) killed by `kind`:
/// the mapping README.md documents, written out again here so a change to the code's
/// mapping has to change this too.
#[allow(dead_code)]
pub fn schema_status(outcome: &str, kind: Option<&str>) -> &'static str {
    match (outcome, kind) {
        ("killed", Some("timeout")) => "Timeout",
        ("caught" | "killed", _) => "Killed",
        ("missed" | "survived", _) => "Survived",
        ("timeout", _) => "Timeout",
        ("not-covered", _) => "NoCoverage",
        ("unviable", _) => "CompileError",
        ("not-run", _) => "Ignored",
        (other, _) => panic!("no such outcome: {other}"),
    }
}

/// `scripts/mutation-report-check` run on `report`: the report validated against npm's
/// mutation-testing-report-schema and rendered by mutation-testing-elements in headless
/// Chromium; returns the metrics table it showed, by row (`All files`, then each file),
/// each row by column (`Killed`, `Survived`, …, `Total`, `Mutation score`).
///
/// Without node or the checker's `npm ci` it returns `None`, saying so, except under
/// `CI=true`, where `.ci/run` installs both: there it fails, so the check cannot pass by
/// being skipped.
#[allow(dead_code)]
pub fn mutation_report_check(report: &Path) -> Option<serde_json::Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/mutation-report-check");
    let node = std::process::Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let installed = dir.join("node_modules/mutation-testing-elements").is_dir();
    if !node || !installed {
        let why =
            if node { "npm ci has not run in scripts/mutation-report-check" } else { "no node installed" };
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "the mutation.json check cannot run under CI ({why}): .ci/run installs it"
        );
        println!("skipped the mutation.json check: {why} (see .ci/run)");
        return None;
    }
    let out = std::process::Command::new("node").arg(dir.join("check.mjs")).arg(report).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "mutation-report-check: {stdout}{}", String::from_utf8_lossy(&out.stderr));
    let checked: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(checked["valid"], true, "{checked}");
    Some(checked["rows"].clone())
}

/// The counts the checker's `All files` row must show for mutants of these schema
/// statuses, by the elements' column names.
#[allow(dead_code)]
pub fn expected_columns(statuses: &[&str]) -> serde_json::Value {
    let n = |s: &str| statuses.iter().filter(|&&x| x == s).count();
    serde_json::json!({
        "Killed": n("Killed"),
        "Survived": n("Survived"),
        "Timeout": n("Timeout"),
        "No coverage": n("NoCoverage"),
        "Ignored": n("Ignored"),
        "Runtime errors": n("RuntimeError"),
        "Compile errors": n("CompileError"),
        "Detected": n("Killed") + n("Timeout"),
        "Undetected": n("Survived") + n("NoCoverage"),
        "Total": statuses.len(),
    })
}

/// Check `rows["All files"]` against `statuses`: every count, and the score.
#[allow(dead_code)]
pub fn assert_rendered_counts(rows: &serde_json::Value, statuses: &[&str], score_percent: f64) {
    let all = &rows["All files"];
    let expected = expected_columns(statuses);
    for (column, n) in expected.as_object().unwrap() {
        assert_eq!(&all[column], n, "{column}: {all}");
    }
    let shown = all["Mutation score"].as_f64().unwrap_or_else(|| panic!("{all}"));
    assert!((shown - score_percent).abs() < 0.01, "shown {shown}, ours {score_percent}");
}

/// Every mutant of a `mutation.json`: id → the mutant, with `file` (its path) added.
#[allow(dead_code)]
pub fn shared_mutants(report: &serde_json::Value) -> std::collections::BTreeMap<u64, serde_json::Value> {
    let mut found = std::collections::BTreeMap::new();
    for (path, file) in report["files"].as_object().unwrap() {
        assert_eq!(file["language"], "rust");
        for m in file["mutants"].as_array().unwrap() {
            let mut m = m.clone();
            m["file"] = path.as_str().into();
            found.insert(m["id"].as_str().unwrap().parse().unwrap(), m);
        }
    }
    found
}
