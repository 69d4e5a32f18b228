//! End-to-end tests on small fixture crates (`tests/fixtures/`) of layouts that users
//! have: a proc-macro crate that forbids unused code, a package whose build reads paths
//! outside itself (a path dependency, a cargo config, a build script's include file,
//! symlinked test data), and code that sleeps (runaway mutants and a hanging baseline).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

mod common;

/// A copy of fixture `name` in a fresh temp dir.
fn fixture(name: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name), tmp.path());
    tmp
}

/// `cargo mutfuzz <args>` run in `dir`, as a user in their package, with a clean environment.
fn command_in(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("cargo-mutfuzz"));
    cmd.arg("mutfuzz").args(args).current_dir(dir);
    for (k, _) in std::env::vars() {
        if k.starts_with("MUTFUZZ_") || k == "CARGO_TARGET_DIR" {
            cmd.env_remove(k);
        }
    }
    cmd
}

fn mutfuzz_in(dir: &Path, args: &[&str]) -> Output {
    command_in(dir, args).output().unwrap()
}

fn outcomes(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("mutfuzz.out/outcomes.json")).unwrap()).unwrap()
}

fn find<'a>(outcomes: &'a Value, description: &str) -> &'a Value {
    outcomes["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["mutant"]["description"] == description)
        .unwrap_or_else(|| panic!("no mutant {description:?}"))
}

#[test]
fn a_proc_macro_crate_is_mutated_and_its_tests_run() {
    let tmp = fixture("proc-macro");
    let out = mutfuzz_in(tmp.path(), &["test", "-j", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("note: pm-fixture is a proc-macro crate"), "{stderr}");
    let outcomes = outcomes(tmp.path());
    // `#![forbid(unused)]`: each replaced body leaves a parameter unused, so a real build
    // rejects it (the lint check). The helper, unit-tested at run time, is caught.
    assert_eq!(
        common::outcome_lines(&outcomes),
        "\
unviable    src/lib.rs:11:5: replace name_len -> TokenStream with Default::default()
unviable    src/lib.rs:18:5: replace type_name -> Option<&str> with None
unviable    src/lib.rs:18:5: replace type_name -> Option<&str> with Some(\"\")
unviable    src/lib.rs:18:5: replace type_name -> Option<&str> with Some(\"xyzzy\")
caught      src/lib.rs:20:12: replace if condition w == \"struct\" || w == \"enum\" with true in type_name
caught      src/lib.rs:20:12: replace if condition w == \"struct\" || w == \"enum\" with false in type_name
caught      src/lib.rs:20:26: replace || with && in type_name
caught      src/lib.rs:20:14: replace == with != in type_name
caught      src/lib.rs:20:31: replace == with != in type_name
caught      src/lib.rs:21:91: replace && with || in type_name
caught      src/lib.rs:21:70: delete ! in type_name
caught      src/lib.rs:21:96: replace != with == in type_name
"
    );
    assert_eq!(
        find(&outcomes, "replace type_name -> Option<&str> with None")["detail"],
        "unused variable: `item`"
    );
    assert!(
        stderr.contains(
            "Lint check: 4 mutants of pm-fixture that delete code, each checked alone (the crate \
             denies unused): 4 unviable"
        ),
        "{stderr}"
    );

    // Unchecked, they run: the derive runs inside the compiler, where no test process
    // reaches it, so it is not covered (and listed on the console, as missed ones are).
    let out = mutfuzz_in(tmp.path(), &["test", "-j", "2", "--no-lint-check"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr
            .contains("NOT-COVERED src/lib.rs:11:5: replace name_len -> TokenStream with Default::default()"),
        "{stderr}"
    );
    let outcomes = self::outcomes(tmp.path());
    let none = find(&outcomes, "replace type_name -> Option<&str> with None");
    assert_eq!(none["outcome"], "caught");
    assert_eq!(none["lint_risk"], "a real build may reject it: the crate denies unused");
    assert!(find(&outcomes, "delete ! in type_name").get("lint_risk").is_none());
    assert!(
        stderr.contains("note: 4 mutants of pm-fixture delete code in a crate that denies unused"),
        "{stderr}"
    );
    let not_covered = std::fs::read_to_string(tmp.path().join("mutfuzz.out/not_covered.txt")).unwrap();
    assert_eq!(not_covered, "src/lib.rs:11:5: replace name_len -> TokenStream with Default::default()\n");
}

#[test]
fn paths_outside_the_package_and_symlinks_resolve_as_from_the_users_tree() {
    let tmp = fixture("paths");
    let app = tmp.path().join("app");
    // A sibling project the crate never names, as under `~/src`.
    std::fs::create_dir_all(tmp.path().join("other")).unwrap();
    std::fs::write(tmp.path().join("other/secret.txt"), "not the crate's").unwrap();
    let out = mutfuzz_in(&app, &["test", "-j", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        common::outcome_lines(&outcomes(&app)),
        "\
caught      src/lib.rs:7:5: replace greet -> String with String::new()
caught      src/lib.rs:7:5: replace greet -> String with \"xyzzy\".into()
caught      src/lib.rs:12:5: replace total -> u32 with 0
caught      src/lib.rs:12:5: replace total -> u32 with 1
"
    );
    // The user's links are untouched.
    assert_eq!(std::fs::read_link(app.join("tests/data/link.txt")).unwrap(), PathBuf::from("real.txt"));

    // A walk of `target/` that follows links (`grep -R`, `find -L`, a backup) never
    // leaves the workspace: what the crate reaches by `../` is copied above the scratch
    // copy, nothing else is there, and no link leads out.
    let root = std::fs::canonicalize(&app).unwrap();
    let mut seen = std::collections::HashSet::new();
    walk_following_links(&app.join("target"), &mut seen);
    let leaving: Vec<_> = seen.iter().filter(|p| !p.starts_with(&root)).collect();
    assert!(leaving.is_empty(), "a walk of target/ leaves the workspace: {leaving:?}");
    assert!(seen.iter().any(|p| p.ends_with("shared/greeting.txt")), "the build script's file was copied");
    assert!(!seen.iter().any(|p| p.ends_with("other/secret.txt")));
}

/// Every path under `dir` with links followed (a directory reached twice is walked
/// once), each canonicalized; a dangling link fails the test.
fn walk_following_links(dir: &Path, seen: &mut std::collections::HashSet<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let real = std::fs::canonicalize(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if seen.insert(real.clone()) && real.is_dir() {
            walk_following_links(&path, seen);
        }
    }
}

#[test]
fn a_runaway_that_sleeps_costs_seconds_not_ten() {
    let tmp = fixture("sleepy");
    let out = mutfuzz_in(tmp.path(), &["test", "-j", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let outcomes = outcomes(tmp.path());
    assert_eq!(
        common::outcome_lines(&outcomes),
        "\
missed      src/lib.rs:6:5: replace pause -> u32 with 0
caught      src/lib.rs:6:5: replace pause -> u32 with 1
missed      src/lib.rs:6:5: delete std::thread::sleep(std::time::Duration::from_secs(u64::from… in pause
timeout     src/lib.rs:6:72: replace * with + in pause
missed      src/lib.rs:6:72: replace * with / in pause
missed      src/lib.rs:6:74: replace 60 with 0 in pause
missed      src/lib.rs:6:74: replace 60 with 61 in pause
missed      src/lib.rs:6:74: replace 60 with 59 in pause
"
    );
    // Its test took milliseconds without the mutant: the floor, not ten seconds, ends it.
    let runaway = find(&outcomes, "replace * with + in pause");
    assert_eq!(runaway["detail"], "killed after 3.0s");
    assert!(runaway["seconds"].as_f64().unwrap() < 8.0, "{runaway}");
}

#[test]
fn a_hanging_baseline_ends_with_exit_code_4_naming_the_test() {
    let tmp = fixture("sleepy");
    let out = mutfuzz_in(tmp.path(), &["test", "--baseline-timeout", "1", "--", "--include-ignored"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains(
            "error: test a_long_pause (in test pause) did not finish within 1.0s without any mutant \
             (the baseline notes each mutation site a test runs, which can make a tight loop several \
             times slower than under `cargo test`: a longer limit, --baseline-timeout SECS"
        ),
        "{stderr}"
    );
    let failure = &outcomes(tmp.path())["baseline"]["failure"];
    assert_eq!(failure["test"], "a_long_pause (in test pause)");
    assert_eq!(failure["reason"], "did not finish within 1.0s");
}

#[test]
fn a_failing_doctest_baseline_suggests_no_doctests() {
    let tmp = fixture("sleepy");
    let lib = tmp.path().join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap().replace(
        "/// Wait `steps` minutes; returns `steps`.\n",
        "/// Wait `steps` minutes; returns `steps`.\n///\n/// ```\n/// assert_eq!(sleepy::pause(0), 1);\n/// ```\n",
    );
    std::fs::write(&lib, text).unwrap();
    let out = mutfuzz_in(tmp.path(), &["test"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains(
            "error: the doctest at src/lib.rs:6 fails (exit code 101) without any mutant; mutation \
             testing needs a passing suite; to leave doctests out, run with --no-doctests"
        ),
        "{stderr}"
    );
}

/// `sleepy` without autotests (as crates.io normalizes every published manifest: each
/// test listed, here none), so only a doctest of `pause` reaches it; `manifest` and `lib`
/// add to the manifest and the library.
fn sleepy_with_a_doctest(manifest: &str, lib: &str) -> tempfile::TempDir {
    let tmp = fixture("sleepy");
    let path = tmp.path().join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("publish = false\n", &format!("publish = false\nautotests = false\n{manifest}"));
    std::fs::write(&path, text).unwrap();
    let path = tmp.path().join("src/lib.rs");
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "/// Wait `steps` minutes; returns `steps`.\n",
        "/// Wait `steps` minutes; returns `steps`.\n///\n/// ```\n/// assert_eq!(sleepy::pause(0), 0);\n/// ```\n",
    );
    std::fs::write(&path, text + lib).unwrap();
    tmp
}

/// Runs `test` and returns how `pause`'s `1` mutant was caught (exit 2: the doctest misses
/// most mutants; it catches that one).
fn caught_pause_mutant(dir: &Path) -> Value {
    let out = mutfuzz_in(dir, &["test"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let caught = find(&outcomes(dir), "replace pause -> u32 with 1").clone();
    assert_eq!(caught["outcome"], "caught", "{caught}");
    caught
}

#[test]
fn doctests_of_a_package_without_autotests_are_compiled_not_left_to_rustdoc() {
    let tmp = sleepy_with_a_doctest("", "");
    let caught = caught_pause_mutant(tmp.path());
    assert!(caught["detail"].as_str().unwrap().starts_with("test __mutfuzz_doctests :: "), "{caught}");
    // The user's manifest is untouched.
    let manifest = std::fs::read_to_string(tmp.path().join("Cargo.toml")).unwrap();
    assert!(!manifest.contains("__mutfuzz_doctests"));
}

#[test]
fn no_doctests_in_a_package_without_autotests_builds_without_the_doctest_target() {
    // The copy must not declare a target it will not write (`amplify` checks its tests so).
    let tmp = sleepy_with_a_doctest("", "");
    let out = mutfuzz_in(tmp.path(), &["test", "--no-doctests"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let pause = find(&outcomes(tmp.path()), "replace pause -> u32 with 1").clone();
    assert_eq!(pause["outcome"], "not-covered", "{pause}");
}

#[test]
fn a_doctest_with_two_errors_as_a_test_drops_only_itself() {
    // rustdoc skips the doctest of an item its features leave out; as a test it does not
    // compile, with two errors. The other doctest is still compiled into the test target.
    let tmp = sleepy_with_a_doctest(
        "\n[features]\nextra = []\n",
        "\n/// ```\n/// sleepy::extra();\n/// sleepy::extra_too();\n/// ```\n#[cfg(feature = \"extra\")]\npub fn extra() {}\n",
    );
    let caught = caught_pause_mutant(tmp.path());
    assert!(caught["detail"].as_str().unwrap().starts_with("test __mutfuzz_doctests :: "), "{caught}");
}

#[cfg(target_os = "linux")]
#[test]
fn sigterm_and_sighup_stop_the_running_test_and_keep_what_finished() {
    use std::time::{Duration, Instant};

    for signal in [libc::SIGTERM, libc::SIGHUP] {
        let tmp = fixture("sleepy");
        let mut child = command_in(tmp.path(), &["test", "-j", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Mutant 4 sleeps for a minute; its log appears as its test process starts.
        let log = tmp.path().join("mutfuzz.out/log/4.log");
        let deadline = Instant::now() + Duration::from_secs(300);
        while !log.exists() {
            assert!(Instant::now() < deadline, "the sleeping mutant never ran");
            assert!(child.try_wait().unwrap().is_none(), "the run ended before the signal");
            std::thread::sleep(Duration::from_millis(5));
        }
        // SAFETY: sends a signal to our own child.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "signal {signal}: {stderr}");
        let outcomes = outcomes(tmp.path());
        assert_eq!(outcomes["summary"]["interrupted"], true);
        assert_eq!(find(&outcomes, "replace pause -> u32 with 1")["outcome"], "caught");
        assert_eq!(find(&outcomes, "replace * with + in pause")["outcome"], "not-run");
        let deadline = Instant::now() + Duration::from_secs(10);
        while !common::processes_under(tmp.path()).is_empty() {
            assert!(Instant::now() < deadline, "still running: {:?}", common::processes_under(tmp.path()));
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}
