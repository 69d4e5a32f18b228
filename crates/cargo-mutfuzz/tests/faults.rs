//! The fault matrix, end to end: the `faults` fixture has one mutant per way a mutant can
//! go wrong (runaway loops in and out of instrumented code, recursion, stack overflow,
//! abort, segfault, out of memory, `process::exit(0)` and `exit(3)`, an output flood, a
//! thread that never ends, global state poisoned for later runs) plus ordinary mutants.
//! `test`, `fuzz` and `score` must give each its exact outcome, leave every other verdict
//! alone and go on; the nondeterministic target must stop `fuzz` with a clear error.
//! Every command runs with `RUST_BACKTRACE=1`, as CI shells often have it.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

mod common;
use common::copy_dir;

fn copy_of_fixture() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/faults"), tmp.path());
    tmp
}

/// `cargo mutfuzz <args>` in `cwd`, clean of our variables, with `RUST_BACKTRACE=1`.
fn mutfuzz(cwd: &Path, args: &[&str]) -> Output {
    let mut cmd = common::mutfuzz_command(cwd, args);
    cmd.env("RUST_BACKTRACE", "1").output().unwrap()
}

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display())))
        .collect()
}

#[test]
fn test_gives_every_fault_its_outcome_and_leaves_the_other_mutants_alone() {
    let tmp = copy_of_fixture();
    let out = mutfuzz(tmp.path(), &["test", "-j", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("Caps per test process: memory 1.0 GiB, output 1.0 MiB"), "{stderr}");
    assert!(
        stderr.contains("28 mutants: 10 caught, 14 missed, 4 timeout, 0 unviable, 0 not covered"),
        "{stderr}"
    );
    let dir = tmp.path().join("mutfuzz.out");
    let outcomes: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("outcomes.json")).unwrap()).unwrap();
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/faults_outcomes.txt"),
    )
    .unwrap();
    assert_eq!(common::outcome_lines(&outcomes), expected);

    // How each fault ended, as the outcome's detail says it.
    let detail = |function: &str| -> String {
        let o = outcomes["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| {
                o["mutant"]["description"] == format!("replace if condition armed with true in {function}")
            })
            .unwrap();
        o["detail"].as_str().unwrap_or_default().to_owned()
    };
    assert_eq!(detail("spin"), "fuel exhausted");
    assert_eq!(detail("descend"), "stack depth exhausted");
    assert!(detail("copy_forever").starts_with("killed after "), "{}", detail("copy_forever"));
    assert!(detail("wait_forever").starts_with("killed after "), "{}", detail("wait_forever"));
    assert_eq!(detail("big_frame"), "test faults :: signal 6");
    assert_eq!(detail("give_up"), "test faults :: signal 6");
    assert_eq!(detail("peek"), "test faults :: signal 11");
    assert_eq!(detail("hoard"), "test faults :: signal 6");
    // Exit code 0 is no pass: libtest never reported the test.
    assert_eq!(
        detail("quit_quietly"),
        "test faults :: exit code 0 before every selected test reported passing"
    );
    assert_eq!(detail("quit_loudly"), "test faults :: exit code 3");
    assert_eq!(detail("flood"), "test faults :: killed after writing more than 1.0 MiB of output");
    // The logs say why, and the flood's stops at the cap.
    let log = |function: &str| -> String {
        let o = outcomes["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| {
                o["mutant"]["description"] == format!("replace if condition armed with true in {function}")
            })
            .unwrap();
        let bytes = std::fs::read(dir.join(format!("log/{}.log", o["mutant"]["id"]))).unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    assert!(log("hoard").contains("memory allocation of 4294967296 bytes failed"), "{}", log("hoard"));
    assert!(log("big_frame").contains("has overflowed its stack"), "{}", log("big_frame"));
    let flood = log("flood");
    assert!(
        flood.len() < (1 << 20) + 1000 && flood.ends_with("the process was killed]\n"),
        "{}",
        flood.len()
    );
    // No test process outlives the command (the stuck thread's, the endless copy's).
    assert!(common::processes_under(tmp.path()).is_empty(), "{:?}", common::processes_under(tmp.path()));
}

/// Kind (and limit) of each mutant's verdict, by id.
fn kinds(records: &[Value]) -> BTreeMap<u64, String> {
    records
        .iter()
        .filter(|r| r["outcome"] != "survived" && r["outcome"] != "not-covered")
        .map(|r| {
            let limit = r["limit"].as_str().map(|l| format!(" ({l})")).unwrap_or_default();
            (r["mutant"].as_u64().unwrap(), format!("{}{limit}", r["kind"].as_str().unwrap()))
        })
        .collect()
}

/// Outcome, kind and killing input of each mutant's score line, by id.
fn verdicts(lines: &[Value]) -> BTreeMap<u64, (Value, Value, Value)> {
    let verdict = |l: &Value| (l["outcome"].clone(), l["kind"].clone(), l["input"].clone());
    lines.iter().map(|l| (l["mutant"].as_u64().unwrap(), verdict(l))).collect()
}

#[test]
fn fuzz_and_score_give_every_fault_its_kill_and_the_poisoner_no_false_verdict() {
    let tmp = copy_of_fixture();
    let state = tmp.path().join("target/mutfuzz/all");
    // The dev profile builds faster; the faults are the same.
    let fuzz = |isolate: &str| {
        let args = [
            "fuzz",
            "all",
            "--trials",
            "300",
            "--seed",
            "1",
            "--hang-timeout",
            "2",
            "--dev",
            "--isolate",
            isolate,
        ];
        let out = mutfuzz(tmp.path(), &args);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(stderr.contains("stopped (budget spent)"), "{stderr}");
        stderr
    };
    // By default each mutant's first run is in a worker process, where every fault ends
    // the worker, not the harness: no restart but the drift's, and no false failure.
    let stderr = fuzz("first-runs");
    let restarts = stderr.matches("restarting the harness").count();
    let drifts = stderr.matches("restarting the harness in a clean process").count();
    assert_eq!(restarts, drifts, "{stderr}");
    assert!(!stderr.contains("FAILURE"), "{stderr}");
    let isolated = kinds(&jsonl(&state.join("kills.jsonl")));
    // Then every mutant's first run in the harness, for the supervisor's side.
    std::fs::remove_file(state.join("kills.jsonl")).unwrap();
    std::fs::remove_dir_all(tmp.path().join("mutfuzz/corpus/all")).unwrap();
    let stderr = fuzz("none");
    // Mutant 25 sets a global the original reads: found after it ran, and pinned on it
    // in a clean process.
    assert!(stderr.contains("global state drifted: after mutants "), "{stderr}");
    assert!(stderr.contains("restarting the harness in a clean process"), "{stderr}");
    assert!(!state.join("drift.json").exists());
    let kills = jsonl(&state.join("kills.jsonl"));
    // Site n's mutant n forces `if armed` true (the fault), n + 1 false (equivalent);
    // 1 and 2 are checksum's ordinary mutants, 27 is equivalent unless 25 poisoned the
    // process (it sets the global back), 28 is equivalent.
    let expected: BTreeMap<u64, String> = [
        (1, "output-differs"),
        (2, "output-differs"),
        (3, "timeout (fuel)"),  // spin
        (5, "timeout (wall)"),  // copy_forever: no fuel in std
        (7, "timeout (depth)"), // descend
        (9, "crash"),           // big_frame: stack overflow
        (11, "crash"),          // give_up: abort
        (13, "crash"),          // peek: segfault
        (15, "crash"),          // hoard: allocation past the memory cap
        (17, "crash"),          // quit_quietly: exit(0)
        (19, "crash"),          // quit_loudly: exit(3)
        (21, "crash"),          // flood: past the output cap
        (23, "timeout (wall)"), // wait_forever
        (25, "output-differs"), // scaled: its own output, and the drift
    ]
    .into_iter()
    .map(|(id, kind)| (id, kind.to_owned()))
    .collect();
    assert_eq!(kinds(&kills), expected, "{stderr}");
    assert_eq!(isolated, expected, "the same kills with first runs in a worker");
    assert_eq!(kills.len(), expected.len(), "each mutant recorded once: {kills:?}");
    for k in &kills {
        assert!(tmp.path().join("mutfuzz/corpus/all").join(k["input"].as_str().unwrap()).is_file(), "{k}");
    }
    assert!(
        stderr.contains("killed by crash (killed after writing more than 1.0 MiB of output)"),
        "{stderr}"
    );
    assert!(stderr.contains("killed by crash (exited with code 0)"), "{stderr}");
    assert!(stderr.contains("killed by crash (killed by signal 11 (SIGSEGV))"), "{stderr}");
    // The user's RUST_BACKTRACE does not reach the harness: last words, not a backtrace.
    assert!(!stderr.contains("RUST_BACKTRACE=full"), "{stderr}");

    // Score, on the corpus fuzz made: the same verdicts, with the same drift found.
    let out = mutfuzz(tmp.path(), &["score", "all", "--hang-timeout", "2", "--dev"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("global state drifted: mutant 25 changes it"), "{stderr}");
    // Each mutant's first run is in a worker process: the crashes end it, never the
    // harness, which is restarted only for the drift.
    assert!(!stderr.contains("killed by crash"), "{stderr}");
    let lines = jsonl(&state.join("score.jsonl"));
    assert_eq!(lines.len(), 28, "every mutant decided once: {lines:?}");
    let expected: BTreeMap<u64, String> =
        expected.into_iter().map(|(id, kind)| (id, kind.split(' ').next().unwrap().to_owned())).collect();
    assert_eq!(kinds(&lines), expected, "{stderr}");
    assert!(!state.join("score.jsonl.drift.json").exists());
    assert!(!state.join("score.jsonl.progress.jsonl").exists(), "a finished score leaves no progress");
    // Every reached mutant run on every input, not only where its site's value differs:
    // each verdict the same, to the killing input.
    let out = mutfuzz(tmp.path(), &["score", "all", "--hang-timeout", "2", "--dev", "--prune", "execution"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(verdicts(&jsonl(&state.join("score.jsonl"))), verdicts(&lines), "{stderr}");
    // Each input's runs shared among three processes: each verdict the same again, the
    // poisoner's too (a worker checks for drift after each batch, as the harness after
    // each input).
    let out = mutfuzz(tmp.path(), &["score", "all", "--hang-timeout", "2", "--dev", "-j", "3"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(verdicts(&jsonl(&state.join("score.jsonl"))), verdicts(&lines), "{stderr}");

    // A target whose output is not a function of its input stops the campaign, clearly.
    let out = mutfuzz(tmp.path(), &["fuzz", "clock", "--trials", "50", "--dev"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the target is nondeterministic"), "{stderr}");
    assert!(!stderr.contains("killed by"), "no mutant is blamed: {stderr}");
    assert!(jsonl(&tmp.path().join("target/mutfuzz/clock/kills.jsonl")).is_empty());
}
