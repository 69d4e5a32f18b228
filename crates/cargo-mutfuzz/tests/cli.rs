//! End-to-end tests: run the `cargo-mutfuzz` binary on copies of the bundled example
//! crates and assert exact mutant outcomes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

mod common;
use common::copy_dir;

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// Copy an example crate (without build output) to a fresh temp dir.
fn copy_example(name: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&examples_dir().join(name), tmp.path());
    tmp
}

/// `cargo mutfuzz <args>` with a clean environment.
fn mutfuzz(args: &[&str]) -> Output {
    let mut cmd = Command::cargo_bin("cargo-mutfuzz").unwrap();
    cmd.arg("mutfuzz").args(args);
    for (k, _) in std::env::vars() {
        if k.starts_with("MUTFUZZ_") || k == "CARGO_TARGET_DIR" {
            cmd.env_remove(k);
        }
    }
    cmd.output().unwrap()
}

fn manifest(dir: &Path) -> String {
    dir.join("Cargo.toml").to_string_lossy().into_owned()
}

#[test]
fn test_command_gives_every_mutant_of_the_example_its_exact_outcome() {
    let tmp = copy_example("textstats");
    let src_before = std::fs::read_to_string(tmp.path().join("src/lib.rs")).unwrap();
    let out = mutfuzz(&["test", "--manifest-path", &manifest(tmp.path()), "-j", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Missed and not-covered mutants exist, so the exit code is 2.
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let dir = tmp.path().join("mutfuzz.out");
    let outcomes: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("outcomes.json")).unwrap()).unwrap();
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/textstats_outcomes.txt"),
    )
    .unwrap();
    assert_eq!(common::outcome_lines(&outcomes), expected);

    // The runaway mutants end by fuel, quickly, not by the 10 s wall clock.
    for o in outcomes["outcomes"].as_array().unwrap().iter().filter(|o| o["outcome"] == "timeout") {
        assert_eq!(o["detail"], "fuel exhausted", "{o}");
        assert!(o["seconds"].as_f64().unwrap() < 5.0, "{o}");
    }
    // Unviable mutants carry the compiler's reason.
    let greet_minus = outcomes["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["mutant"]["description"] == "replace + with - in greet")
        .unwrap();
    assert_eq!(greet_minus["detail"], "cannot subtract `&str` from `String`");
    // The lists agree with outcomes.json, and the summary counts them.
    let missed = std::fs::read_to_string(dir.join("missed.txt")).unwrap();
    assert_eq!(missed.lines().count(), outcomes["summary"]["missed"].as_u64().unwrap() as usize);
    assert!(missed.contains("src/lib.rs:45:10: replace < with <= in clamp_percent"));
    for f in ["caught.txt", "timeout.txt", "unviable.txt", "not_covered.txt", "mutants.json"] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    assert!(
        stderr.contains("95 mutants: 73 caught, 9 missed, 3 timeout, 3 unviable, 7 not covered"),
        "{stderr}"
    );
    // A mutant reached only by a doctest is caught by it: the doctest was compiled once
    // into the schema build, as an ordinary test.
    let doctest_only = outcomes["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["mutant"]["description"] == "replace stats::longest_word -> Option<&str> with None")
        .unwrap();
    assert_eq!(doctest_only["outcome"], "caught");
    assert_eq!(
        doctest_only["detail"].as_str().unwrap().split(" :: ").next(),
        Some("test __mutfuzz_doctests")
    );
    assert_eq!(doctest_only["failing_tests"][0], "doctest_src_stats_rs_line_21");
    // The user's source is untouched.
    assert_eq!(std::fs::read_to_string(tmp.path().join("src/lib.rs")).unwrap(), src_before);
}

#[test]
fn a_second_test_run_reuses_the_viability_and_gives_the_same_outcomes_under_rust_backtrace() {
    let tmp = copy_example("textstats");
    let run = || {
        let mut cmd = Command::cargo_bin("cargo-mutfuzz").unwrap();
        cmd.args(["mutfuzz", "test", "--manifest-path", &manifest(tmp.path()), "-j", "2"]);
        for (k, _) in std::env::vars() {
            if k.starts_with("MUTFUZZ_") || k == "CARGO_TARGET_DIR" {
                cmd.env_remove(k);
            }
        }
        // The user's debugging environment never reaches the test processes.
        let out = cmd.env("RUST_BACKTRACE", "1").output().unwrap();
        let outcomes: Value = serde_json::from_str(
            &std::fs::read_to_string(tmp.path().join("mutfuzz.out/outcomes.json")).unwrap(),
        )
        .unwrap();
        (String::from_utf8_lossy(&out.stderr).into_owned(), outcomes)
    };
    let (first_err, first) = run();
    assert!(first_err.contains("Schema built in 2 round(s)"), "{first_err}");
    assert_eq!(first["schema_build_cached"], false);
    let (second_err, second) = run();
    assert!(
        second_err.contains("Schema built in 1 build with the viability cache, no round"),
        "{second_err}"
    );
    assert!(!second_err.contains("(round 1)"), "{second_err}");
    assert_eq!(second["schema_build_cached"], true);
    assert_eq!(second["schema_build"], first["schema_build"]);
    assert_eq!(common::outcome_lines(&second), common::outcome_lines(&first));
    // No caught mutant's log holds a backtrace.
    let logs = tmp.path().join("mutfuzz.out/log");
    for entry in std::fs::read_dir(&logs).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!text.contains("stack backtrace:"), "{text}");
    }
}

#[test]
fn mutants_command_lists_the_catalog_as_text_and_json() {
    let tmp = copy_example("textstats");
    let out = mutfuzz(&["mutants", "--manifest-path", &manifest(tmp.path())]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/textstats_outcomes.txt"),
    )
    .unwrap();
    let names: Vec<&str> = expected.lines().map(|l| l[12..].trim_start()).collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), names);

    let out = mutfuzz(&["mutants", "--json", "--manifest-path", &manifest(tmp.path())]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &json[0];
    assert_eq!(first["id"], 1);
    assert_eq!(first["file"], "src/lib.rs");
    assert_eq!(first["function"], "point");
    assert_eq!(first["operator"], "fn_return");
    assert_eq!(first["replacement"], "Default::default()");
    assert_eq!(first["span"]["start"]["line"], 18);
    assert_eq!(json.as_array().unwrap().len(), names.len());
}

#[test]
fn a_test_that_overflows_its_stack_is_named_with_the_way_to_leave_it_out() {
    let tmp = copy_example("textstats");
    let tests = tmp.path().join("tests/api.rs");
    let mut text = std::fs::read_to_string(&tests).unwrap();
    text.push_str(
        "\n#[test]\nfn deep() {\n    fn down(n: u64) -> u64 {\n        if n == 0 { 0 } else { 1 + down(n - 1) }\n    }\n    \
         assert!(down(u64::MAX) > 0);\n}\n",
    );
    std::fs::write(&tests, text).unwrap();
    let out = mutfuzz(&["test", "--manifest-path", &manifest(tmp.path())]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains(
            "test deep (in test api) fails (signal 6: its stack overflowed) without any mutant (the \
             schema's functions need more stack than yours; leave the test out: -- --skip deep)"
        ),
        "{stderr}"
    );
}

#[test]
fn a_failing_baseline_stops_with_exit_code_4() {
    let tmp = copy_example("textstats");
    let tests = tmp.path().join("tests/api.rs");
    let mut text = std::fs::read_to_string(&tests).unwrap();
    text.push_str("\n#[test]\nfn broken() { assert_eq!(textstats::greet(\"x\"), \"bye\"); }\n");
    text.push_str("\n#[test]\nfn broken_too() { assert_eq!(textstats::greet(\"y\"), \"bye\"); }\n");
    std::fs::write(&tests, text).unwrap();
    let out = mutfuzz(&["test", "--manifest-path", &manifest(tmp.path())]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains(
            "test broken (in test api) fails (exit code 101) without any mutant (to leave it out: -- \
             --skip broken); mutation testing needs a passing suite"
        ),
        "{stderr}"
    );
    // Every failing test is named at once, with the arguments that leave them out.
    assert!(
        stderr.contains(
            "1 more test fails without any mutant: broken_too (to leave them out: -- --skip broken_too)"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("--no-doctests"), "not a doctest: {stderr}");
    // The baseline's result is recorded; no mutant ran.
    let outcomes = read_outcomes(tmp.path());
    let failure = &outcomes["baseline"]["failure"];
    assert_eq!(failure["test"], "broken (in test api)", "{failure}");
    assert_eq!(failure["reason"], "fails (exit code 101)", "{failure}");
    assert!(failure["output"].as_str().unwrap().contains("bye"), "{failure}");
    let count = |k: &str| outcomes["summary"][k].as_u64().unwrap();
    assert_eq!(count("not_run") + count("unviable"), count("total"), "{}", outcomes["summary"]);
    assert!(outcomes["summary"].get("interrupted").is_none(), "{}", outcomes["summary"]);
}

#[test]
fn a_test_that_fails_then_shrinks_past_its_fuel_catches_the_mutant() {
    // A property test as quickcheck and proptest run one: a failure is caught, and the
    // input is shrunk with far more calls than a passing run makes.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("src")).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"shrinks\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        "pub fn double(x: u32) -> u32 {\n    x * 2\n}\n\n\
         #[cfg(test)]\nmod tests {\n    #[test]\n    fn double_is_x_plus_x() {\n        \
         for x in 0..10 {\n            \
         if std::panic::catch_unwind(|| assert_eq!(super::double(x), x + x)).is_err() {\n                \
         let shrunk = (0..10_000_000u32).map(|y| super::double(y % 10)).min();\n                \
         panic!(\"fails for {x} (shrunk: {shrunk:?})\");\n            }\n        }\n    }\n}\n",
    )
    .unwrap();
    let out = mutfuzz(&["test", "--manifest-path", &manifest(root)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let outcomes = read_outcomes(root);
    let all = outcomes["outcomes"].as_array().unwrap();
    assert!(all.len() >= 5, "{stderr}");
    for o in all {
        assert_eq!(o["outcome"], "caught", "{o}");
        assert_eq!(o["failing_tests"], serde_json::json!(["tests::double_is_x_plus_x"]), "{o}");
        assert!(o["detail"].as_str().unwrap().contains("a test failed, then ran out of fuel"), "{o}");
    }
}

fn read_outcomes(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("mutfuzz.out/outcomes.json")).unwrap()).unwrap()
}

#[test]
fn a_package_that_does_not_build_stops_with_exit_code_4() {
    let tmp = copy_example("textstats");
    let lib = tmp.path().join("src/stats.rs");
    let text = std::fs::read_to_string(&lib).unwrap().replace("s.split_whitespace().count()", "s.nope()");
    std::fs::write(&lib, text).unwrap();
    let out = mutfuzz(&["test", "--manifest-path", &manifest(tmp.path())]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("does not build without mutants"), "{stderr}");
    assert!(stderr.contains("no method named `nope`"), "{stderr}");
    // The user's code, never the schema's rewriting of it.
    assert!(!stderr.contains("mutfuzz_rt") && !stderr.contains("__m"), "{stderr}");
    let outcomes = read_outcomes(tmp.path());
    assert_eq!(outcomes["baseline"]["failure"]["reason"], "does not build");
    assert!(outcomes["baseline"]["failure"]["output"].as_str().unwrap().contains("no method named `nope`"));
}

#[test]
fn tests_that_do_not_build_are_said_to_be_the_tests_with_the_features_left_off() {
    // As matchit 0.9.2: a manifest listing its tests (crates.io writes them out), a
    // doctest, and a test that calls what a feature left off turns on.
    let tmp = copy_example("textstats");
    let manifest_text = std::fs::read_to_string(tmp.path().join("Cargo.toml"))
        .unwrap()
        .replace("edition = \"2021\"", "edition = \"2021\"\nautotests = false")
        + "\n[[test]]\nname = \"api\"\npath = \"tests/api.rs\"\n\n[features]\n__test_helpers = []\n";
    std::fs::write(tmp.path().join("Cargo.toml"), manifest_text).unwrap();
    let api = tmp.path().join("tests/api.rs");
    let text =
        std::fs::read_to_string(&api).unwrap().replace("greet(\"ann\")", "greet(\"ann\").check_priorities()");
    std::fs::write(&api, text).unwrap();
    let out = mutfuzz(&["test", "--manifest-path", &manifest(tmp.path())]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("the package's tests do not build without mutants"), "{stderr}");
    assert!(stderr.contains("no method named `check_priorities`"), "{stderr}");
    assert!(stderr.contains("pass it with --features: __test_helpers"), "{stderr}");
    // Not cargo's: the generated doctest target is declared and present.
    assert!(!stderr.contains("can't find"), "{stderr}");
}

#[test]
fn usage_errors_exit_1_and_help_lists_the_commands() {
    let out = mutfuzz(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(1));
    let out = mutfuzz(&["--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("mutants") && help.contains("test"), "{help}");
}

#[test]
fn a_missing_manifest_is_a_clear_error() {
    let out = mutfuzz(&["mutants", "--manifest-path", "/nonexistent/Cargo.toml"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no Cargo.toml at /nonexistent/Cargo.toml"), "{stderr}");
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_during_test_writes_every_finished_outcome_and_leaves_no_test_running() {
    use std::time::{Duration, Instant};

    let tmp = copy_example("textstats");
    let log_dir = tmp.path().join("mutfuzz.out/log");
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("cargo-mutfuzz"));
    cmd.args(["mutfuzz", "test", "--manifest-path", &manifest(tmp.path()), "-j", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    for (k, _) in std::env::vars() {
        if k.starts_with("MUTFUZZ_") || k == "CARGO_TARGET_DIR" {
            cmd.env_remove(k);
        }
    }
    let mut child = cmd.spawn().unwrap();
    // Each mutant run starts its log: a dozen logs, one at a time, is eleven finished.
    let deadline = Instant::now() + Duration::from_secs(300);
    while std::fs::read_dir(&log_dir).map_or(0, |d| d.count()) < 12 {
        assert!(Instant::now() < deadline, "no mutant ran in time");
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be interrupted");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: sends a signal to our own child.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("not run (interrupted)"), "{stderr}");

    let dir = tmp.path().join("mutfuzz.out");
    let outcomes: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("outcomes.json")).unwrap()).unwrap();
    assert_eq!(outcomes["summary"]["interrupted"], true);
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/textstats_outcomes.txt"),
    )
    .unwrap();
    // Every mutant is listed; each one that finished has exactly its uninterrupted outcome.
    let lines = common::outcome_lines(&outcomes);
    assert_eq!(lines.lines().count(), expected.lines().count());
    let (mut ran, mut not_run) = (0, 0);
    for (got, want) in lines.lines().zip(expected.lines()) {
        if got.starts_with("not-run ") {
            assert_eq!(got[12..], want[12..]);
            not_run += 1;
        } else {
            assert_eq!(got, want);
            ran += usize::from(["caught ", "missed ", "timeout "].iter().any(|o| got.starts_with(o)));
        }
    }
    assert!(ran >= 11 && not_run >= 1, "{ran} ran, {not_run} not run");
    assert_eq!(outcomes["summary"]["not_run"], not_run);
    assert_eq!(std::fs::read_to_string(dir.join("not_run.txt")).unwrap().lines().count(), not_run);
    // No test process of the copy outlives the command.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !common::processes_under(tmp.path()).is_empty() {
        assert!(Instant::now() < deadline, "still running: {:?}", common::processes_under(tmp.path()));
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_syntax_error_is_a_usage_error_at_its_line_and_column() {
    let tmp = copy_example("textstats");
    let stats = tmp.path().join("src/stats.rs");
    let text = std::fs::read_to_string(&stats).unwrap().replace("= word_count(s);", "= ;");
    std::fs::write(&stats, text).unwrap();
    let out = mutfuzz(&["mutants", "--manifest-path", &manifest(tmp.path())]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().next(), Some("error: src/stats.rs:10:17: expected an expression"), "{stderr}");
}

#[test]
fn a_cargo_mutants_config_is_read_and_named() {
    let tmp = copy_example("textstats");
    std::fs::create_dir(tmp.path().join(".cargo")).unwrap();
    std::fs::write(
        tmp.path().join(".cargo/mutants.toml"),
        "exclude_re = ['triple']\ntest_tool = 'nextest'\n",
    )
    .unwrap();
    let out = mutfuzz(&["mutants", "--manifest-path", &manifest(tmp.path())]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("(cargo-mutants'): exclude_re; not used: test_tool"), "{stderr}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("triple"), "{text}");
    assert!(text.contains("clamp_percent"), "{text}");
}

#[test]
fn filters_select_mutants_by_name_and_file_as_cargo_mutants_does() {
    let tmp = copy_example("textstats");
    let m = manifest(tmp.path());
    let listed = |args: &[&str]| {
        let out = mutfuzz(&[&["mutants", "--manifest-path", &m][..], args].concat());
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        (String::from_utf8(out.stdout).unwrap(), stderr)
    };
    let (all, _) = listed(&[]);
    assert_eq!(all.lines().count(), 95);
    // The regex sees each line `mutants` prints; repeated --re OR together; -E after -F.
    let (text, stderr) = listed(&["--re", "clamp_percent", "--re", "triple", "-E", "with 0"]);
    assert_eq!(text.lines().count(), 25, "{text}");
    assert!(stderr.contains(
        "25 mutants of 95 matching --re \"clamp_percent\" --re \"triple\" --exclude-re \"with 0\""
    ));
    let expected: Vec<&str> = all
        .lines()
        .filter(|l| (l.contains("clamp_percent") || l.contains("triple")) && !l.contains("with 0"))
        .collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), expected);
    let (text, _) = listed(&["-F", "^src/lib.rs:4[0-9]:"]);
    assert!(text.lines().all(|l| l.starts_with("src/lib.rs:4")) && text.lines().count() == 23, "{text}");
    // File globs: a name anywhere, or a path from the package root.
    let (text, _) = listed(&["-f", "stats.rs"]);
    assert_eq!(text.lines().count(), 20);
    assert!(text.lines().all(|l| l.starts_with("src/stats.rs:")));
    let (text, _) = listed(&["-e", "src/stats.rs"]);
    assert_eq!(text.lines().count(), 75);
    // The same keys in mutfuzz.toml add to the flags.
    std::fs::write(tmp.path().join("mutfuzz.toml"), "examine_re = ['triple']\n").unwrap();
    let (text, _) = listed(&["--re", "clamp_percent", "-E", "with 0"]);
    assert_eq!(text.lines().count(), 25, "{text}");
    std::fs::remove_file(tmp.path().join("mutfuzz.toml")).unwrap();

    // Nothing matches: said, nothing built or run, exit 0 (as cargo-mutants).
    let (text, stderr) = listed(&["--re", "clamp_percent", "-f", "src/stats.rs"]);
    assert!(text.is_empty());
    assert!(
        stderr.contains("No mutant matches --file \"src/stats.rs\" --re \"clamp_percent\" (of 95 mutants)")
    );
    let out = mutfuzz(&[
        "test",
        "--manifest-path",
        &m,
        "--re",
        "no such mutant",
        "-o",
        &tmp.path().join("o").to_string_lossy(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "No mutant matches --re \"no such mutant\" (of 95 mutants): nothing built, nothing run"
        ),
        "{stderr}"
    );
    assert!(!tmp.path().join("target/mutfuzz/target").exists(), "nothing was built");
    let bad = mutfuzz(&["mutants", "--manifest-path", &m, "-E", "("]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("bad regex \"(\" in --exclude-re"));

    // A shard numbered from 1 fails loudly, naming the convention.
    let out = mutfuzz(&["test", "--manifest-path", &m, "--shard", "4/4"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("shards count from 0 as in cargo-mutants: use 0/4 … 3/4")
    );
}

fn copy_dev_deps_fixture() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dev-deps"), tmp.path());
    tmp
}

#[test]
fn dev_dependencies_only_benchmarks_name_are_not_built_unless_kept() {
    let tmp = copy_dev_deps_fixture();
    let crate_dir = tmp.path().join("bench-only");
    let out = mutfuzz(&["test", "--manifest-path", &manifest(&crate_dir)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("Dev-dependencies that no test names are not built: bench-only: broken"),
        "{stderr}"
    );
    assert_eq!(
        common::outcome_lines(&read_outcomes(&crate_dir)),
        "caught      src/lib.rs:2:5: replace double -> u32 with 0\n\
         caught      src/lib.rs:2:5: replace double -> u32 with 1\n\
         caught      src/lib.rs:2:7: replace * with + in double\n\
         caught      src/lib.rs:2:7: replace * with / in double\n\
         caught      src/lib.rs:2:9: replace 2 with 0 in double\n\
         caught      src/lib.rs:2:9: replace 2 with 3 in double\n\
         caught      src/lib.rs:2:9: replace 2 with 1 in double\n"
    );
    // With no build of the user's to reuse, dependencies were built without debug info,
    // and every later run keeps that choice.
    assert!(crate_dir.join("target/mutfuzz/target/mutfuzz-cold-dependencies").is_file());

    // Kept, the broken dependency is built, and the package does not build.
    let out = mutfuzz(&["test", "--keep-dev-deps", "--manifest-path", &manifest(&crate_dir)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("the dev-dependency only benchmarks use was built"), "{stderr}");
}

#[test]
fn a_dev_dependency_needed_without_being_named_is_put_back() {
    let tmp = copy_dev_deps_fixture();
    let crate_dir = tmp.path().join("needs-hidden");
    let out = mutfuzz(&["test", "--manifest-path", &manifest(&crate_dir)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("not built: needs-hidden: hidden"), "{stderr}");
    assert!(stderr.contains("building again with every dev-dependency"), "{stderr}");
    let outcomes = read_outcomes(&crate_dir);
    assert_eq!(outcomes["summary"]["caught"], outcomes["summary"]["total"], "{}", outcomes["summary"]);
}

/// `outcomes.json` of the results directory `dir`.
fn outcomes_in(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("outcomes.json")).unwrap()).unwrap()
}

/// The files of a results directory that an unsharded run and a merge both write.
fn lists(dir: &Path) -> Vec<(String, String)> {
    ["mutants.json", "caught.txt", "missed.txt", "timeout.txt", "unviable.txt", "not_covered.txt"]
        .iter()
        .map(|f| (f.to_string(), std::fs::read_to_string(dir.join(f)).unwrap()))
        .collect()
}

#[test]
fn mutants_run_in_batches_get_the_outcomes_they_get_alone() {
    let tmp = copy_example("textstats");
    let m = manifest(tmp.path());
    let dir = |name: &str| tmp.path().join(name).to_string_lossy().into_owned();
    for (name, flags) in [("batched", &[][..]), ("alone", &["--no-batch"][..])] {
        let out_dir = dir(name);
        let args =
            [&["test", "--manifest-path", &m, "-j", "2", "--no-history", "-o", &out_dir][..], flags].concat();
        let out = mutfuzz(&args);
        assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let (batched, alone) = (outcomes_in(&tmp.path().join("batched")), outcomes_in(&tmp.path().join("alone")));
    assert_eq!(common::outcome_lines(&batched), common::outcome_lines(&alone));
    assert_eq!(batched["summary"], alone["summary"]);
    // Batches decided most of them: a caught mutant's log is its failed test's section
    // of the batch's output, and a missed one's starts with the test it passed there.
    let logs = |name: &str| -> Vec<String> {
        let entries = std::fs::read_dir(tmp.path().join(name).join("log")).unwrap();
        entries.map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap()).collect()
    };
    let in_a_batch = |logs: &[String]| logs.iter().filter(|l| l.contains("ok (in a batch of ")).count();
    let caught_in_a_batch = |logs: &[String]| {
        logs.iter().filter(|l| l.contains(" stdout ----") && !l.contains("running ")).count()
    };
    let (passed, caught) = (in_a_batch(&logs("batched")), caught_in_a_batch(&logs("batched")));
    assert!(passed >= 1 && caught >= 30, "{passed} passed and {caught} caught in a batch");
    assert_eq!(in_a_batch(&logs("alone")) + caught_in_a_batch(&logs("alone")), 0);
    assert_eq!(logs("batched").len(), logs("alone").len());
}

#[test]
fn two_test_shards_merged_give_the_outcomes_of_one_unsharded_run() {
    let tmp = copy_example("textstats");
    let m = manifest(tmp.path());
    let dir = |name: &str| tmp.path().join(name).to_string_lossy().into_owned();
    let mut shard_lines = Vec::new();
    for k in ["0/2", "1/2"] {
        let out = mutfuzz(&["test", "--manifest-path", &m, "-j", "2", "--shard", k, "-o", &dir(&k[..1])]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("Shard {k}: ")), "{stderr}");
        let outcomes = outcomes_in(&tmp.path().join(&k[..1]));
        assert_eq!(outcomes["shard"], k);
        shard_lines.push(common::outcome_lines(&outcomes));
    }
    // Each shard has part of the mutants, none twice.
    let (one, two) = (shard_lines[0].lines().count(), shard_lines[1].lines().count());
    assert!(one > 0 && two > 0 && one + two == 95, "{one} + {two}");

    let out = mutfuzz(&["merge", "-o", &dir("merged"), &dir("1"), &dir("0")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The exit code an unsharded run gives.
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("95 mutants: 73 caught, 9 missed, 3 timeout, 3 unviable, 7 not covered"),
        "{stderr}"
    );
    // Tested whole, not taken from the shards' outcome history, so it writes every log.
    let out = mutfuzz(&[
        "test",
        "--manifest-path",
        &m,
        "-j",
        "2",
        "-o",
        &dir("whole"),
        "--annotations",
        "github",
        "--no-history",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    // One GitHub warning per mutant no test catches: 9 missed, 7 not covered.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let warnings: Vec<&str> = stdout.lines().filter(|l| l.starts_with("::warning file=src/")).collect();
    assert_eq!(warnings.len(), 16, "{stdout}");
    assert_eq!(warnings.iter().filter(|l| l.contains("::Missed mutant: ")).count(), 9, "{stdout}");
    assert!(
        warnings.contains(
            &"::warning file=src/lib.rs,line=45,col=10,endLine=45,endColumn=11,title=Missed mutant::Missed \
              mutant: replace < with <= in clamp_percent"
        ),
        "{stdout}"
    );

    let merged = outcomes_in(&tmp.path().join("merged"));
    let whole = outcomes_in(&tmp.path().join("whole"));
    assert_eq!(common::outcome_lines(&merged), common::outcome_lines(&whole));
    assert!(merged.get("shard").is_none());
    assert_eq!(merged["summary"], whole["summary"]);
    assert_eq!(lists(&tmp.path().join("merged")), lists(&tmp.path().join("whole")));
    // The suite, and the tests covering each mutant (from the recorded baseline, which
    // does not depend on timing), are the whole run's: mutation.json's coveredBy holds.
    // (Each run lists the tests in the order its build finished the binaries.)
    let covered = |o: &Value| -> BTreeMap<u64, BTreeSet<String>> {
        let tests: Vec<String> = o["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| format!("{} {} {}", t["package"], t["target"], t["name"]))
            .collect();
        let mut by_mutant: BTreeMap<u64, BTreeSet<String>> = o["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                let ids = o["covered_by"].as_array().into_iter().flatten();
                (
                    o["mutant"]["id"].as_u64().unwrap(),
                    ids.map(|i| tests[i.as_u64().unwrap() as usize].clone()).collect(),
                )
            })
            .collect();
        by_mutant.insert(0, tests.into_iter().collect());
        by_mutant
    };
    let whole_covered = covered(&whole);
    assert!(whole_covered[&0].len() > 1 && whole_covered.values().filter(|c| !c.is_empty()).count() > 50);
    assert_eq!(covered(&merged), whole_covered);
    // (Which test catches a mutant first is not compared: the cheapest binary runs first,
    // by the baseline's times, which vary from run to run, sharded or not.)
    assert_eq!(
        std::fs::read_dir(tmp.path().join("merged/log")).unwrap().count(),
        std::fs::read_dir(tmp.path().join("whole/log")).unwrap().count()
    );

    // --iterate: the 73 caught are carried over, the rest tested again; the results still
    // cover every mutant, as the whole run's.
    let out = mutfuzz(&["test", "--manifest-path", &m, "-j", "2", "-o", &dir("whole"), "--iterate"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--iterate: 73 mutants caught in the previous run are carried over"), "{stderr}");
    let iterated = outcomes_in(&tmp.path().join("whole"));
    assert_eq!(common::outcome_lines(&iterated), common::outcome_lines(&whole));
    assert_eq!(iterated["summary"], whole["summary"]);
    let carried = iterated["outcomes"].as_array().unwrap().iter().filter(|o| o["previously_caught"] == true);
    assert_eq!(carried.count(), 73);
    let listed = std::fs::read_to_string(tmp.path().join("whole/previously_caught.txt")).unwrap();
    assert_eq!(listed, std::fs::read_to_string(tmp.path().join("whole.old/caught.txt")).unwrap());

    // A missing shard is named; the merge's score decides with --min-score.
    let out = mutfuzz(&["merge", "-o", &dir("bad"), &dir("0")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 1/2 missing"));
    // 76 of 92 viable mutants caught or timed out: 82.6 %.
    let out = mutfuzz(&["merge", "-o", &dir("m80"), &dir("0"), &dir("1"), "--min-score", "80"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let out = mutfuzz(&["merge", "-o", &dir("m90"), &dir("0"), &dir("1"), "--min-score", "90"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{stderr}");
    assert!(
        stderr
            .contains("Mutation score 82.6% (caught and timeout over viable mutants): below --min-score 90")
    );
}

#[test]
fn in_diff_tests_only_the_mutants_on_changed_lines_and_min_score_sets_the_exit_code() {
    let tmp = copy_example("textstats");
    let diff = tmp.path().join("change.diff");
    // `git diff` of a change to line 47 of src/lib.rs (`clamp_percent`'s `x > 100`).
    std::fs::write(
        &diff,
        "diff --git a/src/lib.rs b/src/lib.rs\nindex 3f1c2e0..9a7b4d1 100644\n--- a/src/lib.rs\n\
         +++ b/src/lib.rs\n@@ -46,3 +46,3 @@ pub fn clamp_percent(x: i32) -> i32 {\n         0\n\
         -    } else if x >= 100 {\n+    } else if x > 100 {\n         100\n",
    )
    .unwrap();
    let d = diff.to_string_lossy().into_owned();
    let out = mutfuzz(&[
        "test",
        "--manifest-path",
        &manifest(tmp.path()),
        "-j",
        "2",
        "--in-diff",
        &d,
        "--min-score",
        "80",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{stderr}");
    assert!(stderr.contains("In the diff: 12 of 95 mutants"), "{stderr}");
    let outcomes = outcomes_in(&tmp.path().join("mutfuzz.out"));
    // The mutants on line 47, and the replacements of the body that holds it.
    assert_eq!(
        common::outcome_lines(&outcomes),
        "caught      src/lib.rs:45:5: replace clamp_percent -> i32 with 0\n\
         caught      src/lib.rs:45:5: replace clamp_percent -> i32 with 1\n\
         caught      src/lib.rs:45:5: replace clamp_percent -> i32 with -1\n\
         caught      src/lib.rs:47:15: replace if condition x > 100 with true in clamp_percent\n\
         caught      src/lib.rs:47:15: replace if condition x > 100 with false in clamp_percent\n\
         missed      src/lib.rs:47:17: replace > with >= in clamp_percent\n\
         caught      src/lib.rs:47:17: replace > with <= in clamp_percent\n\
         caught      src/lib.rs:47:17: replace > with == in clamp_percent\n\
         caught      src/lib.rs:47:17: replace > with < in clamp_percent\n\
         caught      src/lib.rs:47:19: replace 100 with 0 in clamp_percent\n\
         missed      src/lib.rs:47:19: replace 100 with 101 in clamp_percent\n\
         missed      src/lib.rs:47:19: replace 100 with 99 in clamp_percent\n"
    );
    assert!(
        stderr
            .contains("Mutation score 75.0% (caught and timeout over viable mutants): below --min-score 80")
    );
    let mutants: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("mutfuzz.out/mutants.json")).unwrap())
            .unwrap();
    assert_eq!(mutants.as_array().unwrap().len(), 12);
    // Not a diff: a usage error that says what is expected.
    std::fs::write(&diff, "just text\n").unwrap();
    let out = mutfuzz(&["test", "--manifest-path", &manifest(tmp.path()), "--in-diff", &d]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a unified diff"));
}
