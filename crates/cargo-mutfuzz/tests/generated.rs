//! Generated targets end to end, on the `generated` fixture (a harness as `cargo mutfuzz
//! init --auto` writes it: `targets!(generated = auto, total)`): a panic by contract of
//! the original is the input's outcome, listed apart and never a failure unless
//! `--panic-is-failure`; a nondeterministic generated target is said so once and judged
//! by panics and runaways only, by `fuzz`, a restarted `fuzz` and `score`; an output
//! holding a `HashMap` is compared through `SortedDebug`.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

mod common;

fn fixture() -> common::SharedCopy {
    common::shared_copy("tests/fixtures/generated")
}

/// `cargo mutfuzz <args>` in `cwd`: exit code, stdout, stderr.
fn mutfuzz(cwd: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = common::mutfuzz_command(cwd, args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display())))
        .collect()
}

/// Each scored mutant of `function` that some input reaches: its outcome, and how it was killed.
fn verdicts(state: &Path, function: &str) -> BTreeMap<String, String> {
    let score: Value =
        serde_json::from_str(&std::fs::read_to_string(state.join("score.json")).unwrap()).unwrap();
    score["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| {
            m["name"].as_str().unwrap().ends_with(&format!(" in {function}"))
                || m["name"].as_str().unwrap().contains(&format!("replace {function} "))
        })
        .filter(|m| m["outcome"] != "unviable")
        .map(|m| {
            let name = m["name"].as_str().unwrap().split(": ").nth(1).unwrap().to_owned();
            let kind = m["kind"].as_str().map(|k| format!(" by {k}")).unwrap_or_default();
            (name, format!("{}{kind}", m["outcome"].as_str().unwrap()))
        })
        .collect()
}

const CONTRACT_LINE: &str = "1 message; --panic-is-failure makes them failures";

#[test]
fn panics_by_contract_are_outcomes_listed_apart_and_nondeterminism_leaves_panics_to_judge() {
    let tmp = fixture();
    let dir = tmp.path();
    let fuzz = |target: &str, extra: &[&str]| {
        let mut args = vec!["fuzz", target, "--trials", "300", "--dev"];
        if !extra.contains(&"--seed") {
            args.extend(["--seed", "1"]);
        }
        args.extend(extra);
        let (code, _, stderr) = mutfuzz(dir, &args);
        assert_eq!(code, Some(0), "{stderr}");
        stderr
    };

    // `mean` panics on an empty slice by contract: the outcome, not a failure.
    let stderr = fuzz("mean", &[]);
    let state = dir.join("target/mutfuzz/mean");
    assert!(stderr.contains("Failures of the original: none"), "{stderr}");
    assert!(stderr.contains("Panics by contract (generated targets): "), "{stderr}");
    assert!(stderr.contains(CONTRACT_LINE), "{stderr}");
    let panics = jsonl(&state.join("contract-panics.jsonl"));
    assert_eq!(panics.len(), 1, "{panics:?}");
    assert_eq!(panics[0]["message"], "mean of nothing");
    assert!(state.join("contract-panics").join(panics[0]["input"].as_str().unwrap()).is_file());
    assert!(jsonl(&state.join("failures.jsonl")).is_empty());

    let (code, stdout, stderr) = mutfuzz(dir, &["score", "mean", "--dev"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("Panics by contract (generated targets): "), "{stdout}");
    assert!(stdout.contains(CONTRACT_LINE), "{stdout}");
    // The original's panic is compared by its message: a mutant panicking otherwise, or
    // returning where the original panics, is killed by panic.
    let expected: BTreeMap<String, String> = [
        ("replace mean -> u32 with 0", "killed by panic"),
        ("replace mean -> u32 with 1", "killed by panic"),
        ("replace if condition v.is_empty() with true in mean", "killed by panic"),
        ("replace if condition v.is_empty() with false in mean", "killed by panic"),
        ("replace / with % in mean", "killed by output-differs"),
        ("replace / with * in mean", "killed by output-differs"),
    ]
    .into_iter()
    .map(|(m, o)| (m.to_owned(), o.to_owned()))
    .collect();
    assert_eq!(verdicts(&state, "mean"), expected, "{stdout}");

    // --panic-is-failure restores the strict rule.
    let stderr = fuzz("mean", &["--panic-is-failure"]);
    assert!(stderr.contains("Failures of the original: 1"), "{stderr}");
    assert!(!stderr.contains("Panics by contract"), "{stderr}");
    assert_eq!(jsonl(&state.join("failures.jsonl"))[0]["message"], "mean of nothing");
    let (code, stdout, stderr) = mutfuzz(dir, &["score", "mean", "--dev", "--panic-is-failure"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stdout.contains("Panics by contract"), "{stdout}");

    // `ticket` numbers its tickets: said once, then judged by panics and runaways only.
    let note = "target ticket is nondeterministic (input ";
    let stderr = fuzz("ticket", &[]);
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");
    assert!(stderr.contains("): judged by panics and runaways only"), "{stderr}");
    let ticket = dir.join("target/mutfuzz/ticket");
    assert!(ticket.join("nondeterministic.json").is_file());
    let kinds: Vec<Value> = jsonl(&ticket.join("kills.jsonl")).iter().map(|k| k["kind"].clone()).collect();
    assert!(!kinds.is_empty() && kinds.iter().all(|k| k == "panic"), "{kinds:?}");
    // A new command says it again, once; the kills stay panics.
    let stderr = fuzz("ticket", &["--seed", "2"]);
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");
    assert!(jsonl(&ticket.join("kills.jsonl")).iter().all(|k| k["kind"] == "panic"));
    let (code, stdout, stderr) = mutfuzz(dir, &["score", "ticket", "--dev"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");
    assert!(stdout.contains("killed by output         0"), "{stdout}");
    // The mutants that change only the output survive: every output agrees.
    let survivors: Vec<String> =
        verdicts(&ticket, "ticket").into_iter().filter(|(_, o)| o == "survived").map(|(m, _)| m).collect();
    assert_eq!(
        survivors,
        [
            "replace / with % in ticket",
            "replace 1 with 0 in ticket",
            "replace 1 with 2 in ticket",
            "replace 2 with 1 in ticket",
            "replace 2 with 3 in ticket",
        ],
        "{stdout}"
    );

    // `counts` returns a HashMap through SortedDebug: deterministic, judged by output.
    let stderr = fuzz("counts", &[]);
    assert!(!stderr.contains("nondeterministic"), "{stderr}");
    assert!(!dir.join("target/mutfuzz/counts/nondeterministic.json").exists());
    let kills = jsonl(&dir.join("target/mutfuzz/counts/kills.jsonl"));
    assert!(kills.iter().any(|k| k["kind"] == "output-differs"), "{kills:?}");

    // A hand-written target beside them is unchanged.
    let stderr = fuzz("total", &[]);
    assert!(!stderr.contains("Panics by contract"), "{stderr}");
}

/// The line of `target` in the per-target summary of `fuzz --all` (stderr) or `score
/// --all` (stdout), and the lines under it up to the next target's.
fn target_block<'a>(text: &'a str, target: &str, targets: &[&str]) -> Vec<&'a str> {
    let starts = |l: &str, t: &str| l.trim_start().starts_with(&format!("{t} ")) && !l.contains(": ");
    let mut lines = text.lines().skip_while(|l| !starts(l, target));
    let first = lines.next().unwrap_or_else(|| panic!("no line of {target}: {text}"));
    let mut block = vec![first];
    block.extend(lines.take_while(|l| {
        l.starts_with("    ") || (l.starts_with("  ") && !targets.iter().any(|t| starts(l, t)))
    }));
    block
}

#[test]
fn under_all_generated_targets_say_their_contract_panics_and_notes_and_panic_is_failure_applies() {
    let tmp = fixture();
    let dir = tmp.path();
    let targets = ["mean", "counts", "ticket", "total"];
    let note = "target ticket is nondeterministic (input ";
    let fuzz_all = |extra: &[&str]| {
        let mut args = vec!["fuzz", "--all", "--trials", "1200", "--dev", "--seed", "1"];
        args.extend(extra);
        let (code, _, stderr) = mutfuzz(dir, &args);
        assert_eq!(code, Some(0), "{stderr}");
        stderr
    };

    // Over slices of every target: each target's panics by contract under its line (`mean`'s
    // on an empty vector, `ticket`'s on 255), `ticket`'s note once, however many of its
    // slices started a harness.
    let stderr = fuzz_all(&[]);
    assert!(stderr.contains("Fuzzing 4 targets:"), "{stderr}");
    let mean = target_block(&stderr, "mean", &targets).join("\n");
    assert!(mean.contains("failures 0"), "{mean}");
    assert!(mean.contains("\n    Panics by contract (generated targets): "), "{mean}");
    assert!(mean.contains(CONTRACT_LINE), "{mean}");
    assert!(mean.contains("contract-panics") && mean.contains(": mean of nothing"), "{mean}");
    assert!(!mean.contains("sold out"), "{mean}");
    let ticket = target_block(&stderr, "ticket", &targets).join("\n");
    assert!(ticket.contains("\n    Panics by contract (generated targets): "), "{ticket}");
    assert!(ticket.contains(": sold out at ") && !ticket.contains("mean of nothing"), "{ticket}");
    for t in ["counts", "total"] {
        let block = target_block(&stderr, t, &targets).join("\n");
        assert!(!block.contains("Panics by contract"), "{t}: {block}");
    }
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");
    assert!(dir.join("target/mutfuzz/ticket/nondeterministic.json").is_file());
    assert!(jsonl(&dir.join("target/mutfuzz/mean/failures.jsonl")).is_empty());

    // score --all: the same, each target's under its line.
    let (code, stdout, stderr) = mutfuzz(dir, &["score", "--all", "--dev"]);
    assert_eq!(code, Some(0), "{stderr}");
    let mean = target_block(&stdout, "mean", &targets).join("\n");
    assert!(mean.contains("\n  Panics by contract (generated targets): "), "{stdout}");
    assert!(mean.contains(CONTRACT_LINE), "{stdout}");
    for t in ["counts", "total"] {
        let block = target_block(&stdout, t, &targets).join("\n");
        assert!(!block.contains("Panics by contract"), "{t}: {stdout}");
    }
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");

    // --panic-is-failure makes them failures in every target's campaign and score.
    let stderr = fuzz_all(&["--panic-is-failure"]);
    assert!(!stderr.contains("Panics by contract"), "{stderr}");
    let mean = target_block(&stderr, "mean", &targets).join("\n");
    assert!(!mean.contains("failures 0"), "{mean}");
    // (Each slice's harness records the failure again: the engine does not read the
    // failures of an earlier process back, as it does its panics by contract.)
    let failures = jsonl(&dir.join("target/mutfuzz/mean/failures.jsonl"));
    assert!(
        !failures.is_empty() && failures.iter().all(|f| f["message"] == "mean of nothing"),
        "{failures:?}"
    );
    let (code, stdout, stderr) = mutfuzz(dir, &["score", "--all", "--dev", "--panic-is-failure"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stdout.contains("Panics by contract"), "{stdout}");
}
