//! End-to-end tests of the commands over every target of a harness (`fuzz --all`,
//! `score --all`, `report --all`, `eval --all`), on a copy of `examples/insertion-sort`
//! (five targets) with two targets added that accept no input.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Output;

use serde_json::Value;

mod common;

/// The example's five targets, in the harness's order, then the two added ones.
const GOOD: [&str; 5] = ["sort", "sort_generic", "sort_by_key", "sort_desc", "binary_sort"];
const REJECTS: &str = "rejects_everything";
const PANICS: &str = "always_panics";

/// A copy of insertion-sort whose harness also has a target discarding every input and
/// one whose original panics on every input.
fn example_with_bad_targets() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/insertion-sort"),
        tmp.path(),
    );
    let main = tmp.path().join("mutfuzz/src/main.rs");
    let text = std::fs::read_to_string(&main).unwrap();
    let targets = "mutfuzz::targets!(sort, sort_generic, sort_by_key, sort_desc, binary_sort);";
    assert!(text.contains(targets), "the example's targets changed: update this test");
    let text = text.replace(
        targets,
        &format!(
            "/// Accepts no input: every one is discarded.\n\
             fn {REJECTS}(v: Vec<i64>) -> Vec<i64> {{\n    mutfuzz::assume(false);\n    insertion_sort::sorted(v)\n}}\n\n\
             /// The original panics on every input.\n\
             fn {PANICS}(v: Vec<i64>) -> Vec<i64> {{\n    drop(v);\n    panic!(\"no input is good\")\n}}\n\n\
             mutfuzz::targets!(sort, sort_generic, sort_by_key, sort_desc, binary_sort, {REJECTS}, {PANICS});"
        ),
    );
    std::fs::write(&main, text).unwrap();
    tmp
}

fn mutfuzz(cwd: &Path, args: &[&str]) -> Output {
    common::mutfuzz_command(cwd, args).output().unwrap()
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// A campaign's outcome: its kill records (mutant, kind, input) and its corpus file names.
type Campaign = (Vec<(u64, String, String)>, BTreeSet<String>);

/// Each target's campaign, to compare two runs with.
fn campaigns(root: &Path) -> BTreeMap<String, Campaign> {
    let mut all = BTreeMap::new();
    for t in GOOD.iter().chain(&[REJECTS, PANICS]) {
        let kills = std::fs::read_to_string(root.join("target/mutfuzz").join(t).join("kills.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                (v["mutant"].as_u64().unwrap(), v["kind"].to_string(), v["input"].to_string())
            })
            .collect();
        let corpus = std::fs::read_dir(root.join("mutfuzz/corpus").join(t))
            .map(|rd| rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        all.insert(t.to_string(), (kills, corpus));
    }
    all
}

/// The slice lines of one target in `fuzz --all`'s output: `round r/n  <target>: …`.
fn slice_lines<'a>(stderr: &'a str, target: &str) -> Vec<&'a str> {
    let tag = format!("  {target}: ");
    stderr.lines().filter(|l| l.starts_with("round ") && l.contains(&tag)).collect()
}

fn killed_ids(score: &Value) -> BTreeSet<u64> {
    score["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["outcome"] == "killed")
        .map(|m| m["id"].as_u64().unwrap())
        .collect()
}

#[test]
fn fuzz_all_shares_one_budget_drops_targets_without_valid_input_and_score_all_is_the_union() {
    let tmp = example_with_bad_targets();
    let root = tmp.path();
    let args = ["fuzz", "--all", "--trials", "3000", "--seed", "7"];
    let out = mutfuzz(root, &args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("Fuzzing 7 targets:") && stderr.contains("in up to 4 rounds"), "{stderr}");
    // Every target got budget in the first round; the five good ones in each of the four.
    for t in GOOD {
        let lines = slice_lines(&stderr, t);
        assert_eq!(lines.len(), 4, "{t}: {stderr}");
        for (r, line) in lines.iter().enumerate() {
            assert!(line.starts_with(&format!("round {}/4", r + 1)), "{line}");
        }
    }
    // The two targets with no valid input were reported after their first slice (107
    // trials, past the 100 needed) and fuzzed no more.
    for (t, why) in [
        (REJECTS, "every one of its 107 inputs was discarded by `mutfuzz::assume`"),
        (PANICS, "the original panicked on every one of its 107 inputs"),
    ] {
        assert_eq!(slice_lines(&stderr, t).len(), 1, "{t}: {stderr}");
        assert!(stderr.contains(&format!("{t}: {why}")), "{t}: {stderr}");
        let summary = stderr.lines().find(|l| l.starts_with(&format!("  {t} "))).unwrap();
        assert!(
            summary.contains("107 trials")
                && summary.contains("in 1 slice; ")
                && summary.contains("dropped: "),
            "{summary}"
        );
    }
    // The budget is spent exactly: every slice's new trials add up to --trials.
    assert!(stderr.contains("Total: 3000 trials over 7 targets (2 dropped)"), "{stderr}");
    let first = campaigns(root);
    for t in GOOD {
        let (kills, corpus) = &first[t];
        assert!(!kills.is_empty() && !corpus.is_empty(), "{t}: {stderr}");
    }
    assert!(first[REJECTS].0.is_empty() && first[PANICS].0.is_empty());

    // The same seed and budget from scratch: the same campaigns, target by target.
    for t in GOOD.iter().chain(&[REJECTS, PANICS]) {
        for dir in [root.join("mutfuzz/corpus").join(t), root.join("target/mutfuzz").join(t)] {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    let again = mutfuzz(root, &args);
    assert_eq!(again.status.code(), Some(0), "{}", String::from_utf8_lossy(&again.stderr));
    assert_eq!(campaigns(root), first, "fuzz --all with one seed is not deterministic");

    let out = mutfuzz(root, &["score", "--all"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let combined = json(&root.join("target/mutfuzz/score.json"));
    let targets = combined["targets"].as_array().unwrap();
    let names: Vec<&str> = targets.iter().map(|t| t["target"].as_str().unwrap()).collect();
    assert_eq!(names, [&GOOD[..], &[REJECTS, PANICS]].concat());
    let catalog = json(&root.join("target/mutfuzz/sort/mutants.json"));
    let total = catalog.as_array().unwrap().len() as u64;
    let mut union = BTreeSet::new();
    let mut own_killed = BTreeMap::new();
    for t in targets {
        let name = t["target"].as_str().unwrap();
        // Each target's counts are its own score.json's, as `score <target>` writes it.
        let own = json(&root.join("target/mutfuzz").join(name).join("score.json"));
        assert_eq!(t["summary"], own["summary"], "{name}");
        assert_eq!(t["inputs"], own["inputs"], "{name}");
        assert_eq!(own["summary"]["total"].as_u64(), Some(total), "{name}");
        let killed = killed_ids(&own);
        let s = &t["summary"];
        let n = |k: &str| s[k].as_u64().unwrap();
        let kinds = n("output_differs") + n("panic") + n("timeout") + n("crash") + n("discard");
        assert_eq!(kinds, killed.len() as u64, "{name}");
        // Its line on stdout, in the words of the table.
        let line =
            format!("{} killed, {} survived, {} not covered", killed.len(), n("survived"), n("not_covered"));
        assert!(stdout.lines().any(|l| l.starts_with(name) && l.contains(&line)), "{name}: {stdout}");
        if GOOD.contains(&name) {
            assert!(!killed.is_empty(), "{name}");
        } else {
            assert!(killed.is_empty(), "{name}: killed without a valid input");
        }
        union.extend(killed.iter().copied());
        own_killed.insert(name.to_owned(), killed);
    }
    // Killed if any target's corpus kills it; the target named holds the killing input.
    assert_eq!(killed_ids(&combined), union);
    let n = |k: &str| combined["summary"][k].as_u64().unwrap();
    let kinds = n("output_differs") + n("panic") + n("timeout") + n("crash") + n("discard");
    assert_eq!(kinds, union.len() as u64);
    assert_eq!(n("total"), total);
    assert_eq!(kinds + n("survived") + n("not_covered") + n("unviable"), total);
    for m in combined["mutants"].as_array().unwrap().iter().filter(|m| m["outcome"] == "killed") {
        let t = m["target"].as_str().unwrap();
        let id = m["id"].as_u64().unwrap();
        assert!(own_killed[t].contains(&id), "{m}");
        // The first target (in the harness's order) whose corpus kills it.
        let first_killer = names.iter().find(|n| own_killed[**n].contains(&id)).unwrap();
        assert_eq!(t, *first_killer, "{m}");
        assert!(root.join("mutfuzz/corpus").join(t).join(m["input"].as_str().unwrap()).is_file(), "{m}");
    }
    // More than any one target kills: the targets reach different code.
    assert!(own_killed.values().all(|k| k.len() < union.len()), "{own_killed:?}");
    // The combined table, in the words of `score <target>`.
    let table_end = format!("({} killed of {} viable mutants)", union.len(), total - n("unviable"));
    assert!(stdout.contains(&table_end) && stdout.contains("killed by output"), "{stdout}");

    let out = mutfuzz(root, &["report", "--all"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let html = std::fs::read_to_string(root.join("target/mutfuzz/report.html")).unwrap();
    for t in targets {
        let name = t["target"].as_str().unwrap();
        assert!(html.contains(&format!("{name}: {} inputs; ", t["inputs"])), "{name}");
    }
    assert!(stderr.contains(&format!("{total} mutants")), "{stderr}");
    // mutation.json beside it: the combined verdicts, each kill naming the input of the
    // target that holds it, each target's killing inputs as its tests.
    let shared_path = root.join("target/mutfuzz/mutation.json");
    let shared = common::shared_mutants(&json(&shared_path));
    let mut statuses = Vec::new();
    for m in combined["mutants"].as_array().unwrap() {
        let s = &shared[&m["id"].as_u64().unwrap()];
        let status = common::schema_status(m["outcome"].as_str().unwrap(), m["kind"].as_str());
        assert_eq!(s["status"], status, "{s}");
        statuses.push(status);
        if m["outcome"] == "killed" {
            let test = format!("{}/{}", m["target"].as_str().unwrap(), m["input"].as_str().unwrap());
            assert_eq!(s["killedBy"], serde_json::json!([test]), "{s}");
        }
    }
    assert_eq!(shared.len() as u64, total);
    if let Some(rows) = common::mutation_report_check(&shared_path) {
        common::assert_rendered_counts(&rows, &statuses, combined["score_percent"].as_f64().unwrap());
    }

    // A whole-harness evaluation: a `fuzz --all` run per configuration, scored combined.
    let out =
        mutfuzz(root, &["eval", "--all", "--config", "mu2=--guidance mu2", "--seeds", "1", "--time", "7s"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let eval = json(&root.join("target/mutfuzz/eval/@all/eval.json"));
    assert_eq!(eval["targets"].as_array().unwrap().len(), 7, "{eval}");
    let run = &eval["configs"][0]["runs"][0];
    let killed = run["score"]["killed"].as_u64().unwrap();
    assert!(killed > 0 && Some(killed) == eval["killed_by_any"].as_u64(), "{eval}");
    let dir = root.join("target/mutfuzz/eval/@all/mu2/seed-0");
    for t in GOOD {
        assert!(
            dir.join("corpus").join(t).is_dir() && dir.join("score").join(format!("{t}.jsonl")).is_file(),
            "{t}"
        );
    }
}

#[test]
fn fuzz_all_needs_a_budget_to_share_and_says_so_before_building() {
    let tmp = example_with_bad_targets();
    let out = mutfuzz(tmp.path(), &["fuzz", "--all"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("give --time or --trials"), "{stderr}");
    assert!(!tmp.path().join("target").exists(), "it built before checking its flags");
    let out = mutfuzz(tmp.path(), &["fuzz", "--all", "--trials", "9", "--strategy", "mutants-first"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot run in the slices of --all"), "{stderr}");
}
