//! End to end: `cargo mutfuzz cmin` on a campaign's corpus of `examples/insertion-sort`
//! keeps fewer inputs that kill exactly the mutants the whole corpus kills and reach the
//! same ones (scored before and after), and the run filters of `score` and `fuzz` select
//! by name with nothing run when nothing matches.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

mod common;

fn mutfuzz(cwd: &Path, args: &[&str]) -> Output {
    common::mutfuzz_command(cwd, args).output().unwrap()
}

fn ok(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    stderr
}

/// The ids of a score.json's mutants with this outcome.
fn ids(score: &Value, outcome: &str) -> BTreeSet<u64> {
    score["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["outcome"] == outcome)
        .map(|m| m["id"].as_u64().unwrap())
        .collect()
}

fn score_json(root: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(root.join("target/mutfuzz/sort/score.json")).unwrap())
        .unwrap()
}

#[test]
fn cmin_keeps_every_kill_and_the_coverage_with_fewer_inputs() {
    let tmp = common::shared_copy("../../examples/insertion-sort");
    let root = tmp.path();
    ok(&mutfuzz(root, &["fuzz", "sort", "--trials", "3000", "--seed", "3"]));
    let corpus = root.join("mutfuzz/corpus/sort");
    let inputs = std::fs::read_dir(&corpus).unwrap().count();
    ok(&mutfuzz(root, &["score", "sort"]));
    let whole = score_json(root);

    let stderr = ok(&mutfuzz(root, &["cmin", "sort"]));
    let kept_dir = root.join("mutfuzz/corpus/sort.cmin");
    let kept = std::fs::read_dir(&kept_dir).unwrap().count();
    assert!(kept >= 1 && kept < inputs, "kept {kept} of {inputs}: {stderr}");
    let killed = ids(&whole, "killed");
    assert!(
        stderr.contains(&format!("Kept {kept} of {inputs} inputs ("))
            && stderr.contains(&format!("the same {} kills", killed.len())),
        "{stderr}"
    );
    // The corpus itself is untouched.
    assert_eq!(std::fs::read_dir(&corpus).unwrap().count(), inputs);

    ok(&mutfuzz(root, &["score", "sort", "--corpus", kept_dir.to_str().unwrap()]));
    let min = score_json(root);
    assert_eq!(ids(&min, "killed"), killed, "every kill kept, and no other");
    assert_eq!(ids(&min, "survived"), ids(&whole, "survived"), "the same mutants reached");
    assert_eq!(ids(&min, "not-covered"), ids(&whole, "not-covered"));
    assert_eq!(min["summary"]["total"], whole["summary"]["total"]);

    // In place: the corpus becomes the kept inputs.
    ok(&mutfuzz(root, &["cmin", "sort", "--in-place"]));
    let mut after: Vec<String> =
        std::fs::read_dir(&corpus).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    let mut expected: Vec<String> = std::fs::read_dir(&kept_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    after.sort();
    expected.sort();
    assert_eq!(after, expected);

    // The run filters of `score`: only the mutants of `insertion_sort`'s comparisons.
    let out = mutfuzz(root, &["score", "sort", "--re", "replace > with", "-E", "in binary"]);
    let stderr = ok(&out);
    assert!(stderr.contains("Matching --re \"replace > with\" --exclude-re \"in binary\": "), "{stderr}");
    let filtered = score_json(root);
    for m in filtered["mutants"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        assert!(name.contains("replace > with") && !name.contains("in binary"), "{name}");
    }
    assert!(!filtered["mutants"].as_array().unwrap().is_empty());
    // A filter that matches nothing says so, runs nothing and exits 0.
    for args in [
        &["score", "sort", "--re", "no such mutant"][..],
        &["fuzz", "sort", "--re", "no such mutant", "--trials", "10"],
    ] {
        let command = args[0];
        let stderr = ok(&mutfuzz(root, args));
        assert!(stderr.contains("No mutant matches --re \"no such mutant\" (of "), "{command}: {stderr}");
        assert!(!stderr.contains("Caps per harness process"), "{command} built nothing: {stderr}");
    }
}
