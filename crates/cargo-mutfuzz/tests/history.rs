//! The outcome history of `cargo mutfuzz test`: after an edit to one function, a run
//! tests again only the mutants whose key changed, and its outcomes are a full run's.

mod common;

use std::path::Path;

use serde_json::Value;

fn test_run(dir: &Path, extra: &[&str]) -> (String, Value) {
    let mut args = vec!["test", "-j", "2"];
    args.extend(extra);
    let out = common::mutfuzz_command(dir, &args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    // Missed and not-covered mutants exist: exit 2.
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let outcomes = std::fs::read_to_string(dir.join("mutfuzz.out/outcomes.json")).unwrap();
    (stderr, serde_json::from_str(&outcomes).unwrap())
}

fn from_history(outcomes: &Value) -> usize {
    outcomes["outcomes"].as_array().unwrap().iter().filter(|o| o["from_history"] == true).count()
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from:?} not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn after_a_one_function_edit_only_the_affected_mutants_run_and_the_outcomes_are_a_full_run_s() {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/textstats"), tmp.path());
    let dir = tmp.path();
    let (stderr, first) = test_run(dir, &[]);
    assert!(!stderr.contains("History:"), "nothing to reuse yet: {stderr}");
    assert_eq!(from_history(&first), 0);

    // Nothing changed: every mutant that ran keeps its outcome (the 3 unviable and 7 not
    // covered are decided without running, as in every run).
    let (stderr, again) = test_run(dir, &[]);
    assert!(
        stderr.contains("History: 85 mutants unchanged since an earlier run keep their outcome; 0 to test")
    );
    assert_eq!(common::outcome_lines(&again), common::outcome_lines(&first));

    // One function edited, a line added: its mutants and those of the tests running it
    // are tested again; the mutants below it move down a line and keep their outcomes.
    edit(
        &dir.join("src/lib.rs"),
        "    } else if x > 100 {",
        "    } else if x >= 100 {\n        // 100 and up.",
    );
    let (stderr, incremental) = test_run(dir, &[]);
    assert!(
        stderr.contains("History: 62 mutants unchanged since an earlier run keep their outcome; 21 to test"),
        "{stderr}"
    );
    assert_eq!(from_history(&incremental), 62);
    let (stderr, full) = test_run(dir, &["--no-history"]);
    assert!(!stderr.contains("History:"), "{stderr}");
    assert_eq!(from_history(&full), 0);
    assert_eq!(common::outcome_lines(&incremental), common::outcome_lines(&full));
    assert_eq!(incremental["summary"], full["summary"]);

    // A doc comment is outside every function's body: it may be a doctest, so every
    // mutant is tested again. (`--no-history` above wrote nothing: the history is the
    // incremental run's.)
    edit(&dir.join("src/lib.rs"), "/// No test calls this", "/// Nothing calls this");
    let (stderr, _) = test_run(dir, &[]);
    assert!(!stderr.contains("History:"), "{stderr}");
}
