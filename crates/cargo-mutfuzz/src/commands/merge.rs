//! `cargo mutfuzz merge`: the results of the n shards of a run (`test --shard k/n`, or
//! `score --shard k/n`) combined into the files one unsharded run writes.
//!
//! Every shard built the same schema and decided its mutants on their own, so the merge
//! is a union: it checks that the shards are the n parts of one catalog (the same
//! `mutants.json`, each k once), puts the outcomes back in catalog order and counts them.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use mutfuzz_contract::write_atomic;

use crate::catalog::selection::Shard;
use crate::commands::options::MergeArgs;
use crate::console::exit_code;
use crate::report::score_file::{self, FuzzOutcome, ScoreFile, Table};
use crate::testing::outcome::{MutantOutcome, OutcomesFile, Summary, TestInfo};
use crate::testing::output::OutputDir;

/// Run the command; returns the exit code.
pub fn run(args: &MergeArgs) -> Result<i32> {
    let mut tests = Vec::new();
    let mut scores = Vec::new();
    for input in &args.inputs {
        if input.join("outcomes.json").is_file() {
            tests.push(input.clone());
        } else if input.is_file() {
            scores.push(input.clone());
        } else if input.join("score.json").is_file() {
            scores.push(input.join("score.json"));
        } else {
            return Err(usage(format!(
                "{} is neither a `test` result (a directory with outcomes.json) nor a `score` result \
                 (score.json, or a directory with one)",
                input.display()
            )));
        }
    }
    match (tests.is_empty(), scores.is_empty()) {
        (false, true) => merge_tests(&tests, &args.output, args.min_score),
        (true, false) => merge_scores(&scores, &args.output, args.min_score),
        _ => Err(usage("the shards mix `test` and `score` results; merge each kind on its own".into())),
    }
}

fn usage(message: String) -> anyhow::Error {
    exit_code::usage(anyhow::anyhow!(message))
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let text = fs::read_to_string(path).with_context(|| format!("failed to read {}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        usage(format!(
            "{} is not a result of this cargo-mutfuzz ({e}); was it written by another version?",
            path.display()
        ))
    })
}

/// Check that `shards` (one per input, in input order) are the n parts of one run, each
/// once; returns the inputs' indices in shard order.
fn shard_order(inputs: &[PathBuf], shards: &[Option<Shard>]) -> Result<Vec<usize>> {
    let mut n = None;
    let mut by_k: Vec<Option<usize>> = Vec::new();
    for (i, (input, shard)) in inputs.iter().zip(shards).enumerate() {
        let Some(s) = shard else {
            return Err(usage(format!(
                "{} is the result of an unsharded run (no --shard): there is nothing to merge it with",
                input.display()
            )));
        };
        if *n.get_or_insert(s.n) != s.n {
            return Err(usage(format!(
                "{} is shard {s}, but an earlier input is a shard of {}: merge the shards of one run",
                input.display(),
                n.unwrap_or(0)
            )));
        }
        by_k.resize(s.n as usize, None);
        if let Some(j) = by_k[s.k as usize].replace(i) {
            return Err(usage(format!("{} and {} are both shard {s}", inputs[j].display(), input.display())));
        }
    }
    let missing: Vec<String> = by_k
        .iter()
        .enumerate()
        .filter(|(_, i)| i.is_none())
        .map(|(k, _)| format!("{k}/{}", by_k.len()))
        .collect();
    if !missing.is_empty() {
        return Err(usage(format!("shard {} missing: give every shard's result", missing.join(", "))));
    }
    Ok(by_k.into_iter().flatten().collect())
}

/// The suite the shards ran, with every outcome's `covered_by`/`killed_by` pointing into
/// it. Every shard lists the whole suite (one with nothing to run lists none), but in the
/// order its build finished the test binaries, which varies from run to run: the lists
/// must hold the same tests, and each shard's positions are moved to the first list's.
fn one_suite(files: &mut [OutcomesFile]) -> Result<Vec<TestInfo>> {
    let Some(first) = files.iter().find(|f| !f.tests.is_empty()) else { return Ok(Vec::new()) };
    let suite = first.tests.clone();
    let position: HashMap<String, usize> = suite.iter().enumerate().map(|(i, t)| (t.id(), i)).collect();
    for f in files.iter_mut().filter(|f| !f.tests.is_empty()) {
        let mut ids: Vec<String> = f.tests.iter().map(TestInfo::id).collect();
        let moved: Vec<Option<usize>> = ids.iter().map(|id| position.get(id).copied()).collect();
        ids.sort();
        ids.dedup();
        if ids.len() != suite.len() || moved.contains(&None) {
            return Err(usage(
                "the shards ran different test suites (their lists of tests differ): merge the shards of one run"
                    .to_owned(),
            ));
        }
        for o in &mut f.outcomes {
            for list in [&mut o.covered_by, &mut o.killed_by] {
                // A position out of the shard's list is dropped, as `report` drops it.
                *list = list.iter().filter_map(|&i| moved.get(i).copied().flatten()).collect();
                list.sort_unstable();
            }
        }
        f.tests = suite.clone();
    }
    Ok(suite)
}

fn merge_tests(inputs: &[PathBuf], output: &Path, min_score: Option<f64>) -> Result<i32> {
    let mut files: Vec<OutcomesFile> =
        inputs.iter().map(|d| read_json(&d.join("outcomes.json"))).collect::<Result<_>>()?;
    let order = shard_order(inputs, &files.iter().map(|f| f.shard).collect::<Vec<_>>())?;
    // In shard order, so the merged suite lists the tests as the first shard did.
    files[..].swap(0, order[0]);
    let tests = one_suite(&mut files)?;
    files[..].swap(0, order[0]);
    let catalog = fs::read(inputs[order[0]].join("mutants.json"))
        .with_context(|| format!("failed to read {}", inputs[order[0]].join("mutants.json").display()))?;
    for &i in &order[1..] {
        let other = fs::read(inputs[i].join("mutants.json")).unwrap_or_default();
        if other != catalog {
            return Err(usage(format!(
                "{} and {} have different mutants.json: the shards ran on different sources, or \
                 with different --in-diff",
                inputs[order[0]].display(),
                inputs[i].display()
            )));
        }
    }
    let flags = &files[order[0]].feature_flags;
    if let Some(&i) = order[1..].iter().find(|&&i| !files[i].feature_flags.same_as(flags)) {
        return Err(usage(format!(
            "{} ran with {} and {} with {}: merge the shards of one run",
            inputs[order[0]].display(),
            flags.describe(),
            inputs[i].display(),
            files[i].feature_flags.describe()
        )));
    }
    let mut outcomes: Vec<MutantOutcome> = files.iter().flat_map(|f| f.outcomes.iter().cloned()).collect();
    outcomes.sort_by_key(|o| o.mutant.id);
    if let Some(w) = outcomes.windows(2).find(|w| w[0].mutant.id == w[1].mutant.id) {
        return Err(usage(format!(
            "mutant {} is in two shards: were they run with different versions of cargo-mutfuzz?",
            w[0].mutant.id
        )));
    }
    let first = &files[order[0]];
    let summary = Summary::of(&outcomes);
    let merged = OutcomesFile {
        mutfuzz_version: first.mutfuzz_version.clone(),
        summary: summary.clone(),
        total_seconds: files.iter().map(|f| f.total_seconds).fold(0.0, f64::max),
        schema_build: first.schema_build.clone(),
        schema_build_cached: files.iter().all(|f| f.schema_build_cached),
        baseline: first.baseline.clone(),
        shard: None,
        feature_flags: first.feature_flags.clone(),
        tests,
        outcomes,
    };
    let out = OutputDir::create(output)?;
    write_atomic(&out.path.join("mutants.json"), &catalog)?;
    out.write_json("outcomes.json", &merged)?;
    out.write_lists(&merged.outcomes)?;
    for input in inputs {
        let Ok(logs) = fs::read_dir(input.join("log")) else { continue };
        for log in logs.flatten() {
            fs::copy(log.path(), out.log_dir().join(log.file_name()))
                .with_context(|| format!("failed to copy {}", log.path().display()))?;
        }
    }
    eprintln!("Merged {} shards: {summary}", inputs.len());
    if let Some(min) = min_score {
        let verdict = if summary.score_percent() < min { "below" } else { "at or above" };
        eprintln!(
            "Mutation score {:.1}% (caught and timeout over viable mutants): {verdict} --min-score {min}",
            summary.score_percent()
        );
    }
    eprintln!("Results in {}", out.path.display());
    Ok(summary.exit_code_with(min_score))
}

fn merge_scores(inputs: &[PathBuf], output: &Path, min_score: Option<f64>) -> Result<i32> {
    let files: Vec<ScoreFile> = inputs.iter().map(|f| read_json(f)).collect::<Result<_>>()?;
    let order = shard_order(inputs, &files.iter().map(|f| f.shard).collect::<Vec<_>>())?;
    let first = &files[order[0]];
    if let Some(other) = files.iter().find(|f| f.target != first.target) {
        return Err(usage(format!(
            "the shards score different targets ({} and {}): merge the shards of one score",
            first.target, other.target
        )));
    }
    let mut mutants: Vec<_> = files.iter().flat_map(|f| f.mutants.iter().cloned()).collect();
    mutants.sort_by_key(|m| m.id);
    if let Some(w) = mutants.windows(2).find(|w| w[0].id == w[1].id) {
        return Err(usage(format!("mutant {} is in two shards", w[0].id)));
    }
    let mut table = Table::default();
    for m in &mutants {
        match m.line() {
            Some(line) if line.outcome != mutfuzz_contract::ScoreOutcome::Killed || line.kind.is_some() => {
                table.count(&line)
            }
            Some(_) => return Err(usage(format!("mutant {} is killed without a kind", m.id))),
            None => {
                debug_assert_eq!(m.outcome, FuzzOutcome::Unviable);
                table.unviable += 1;
                table.total += 1;
            }
        }
    }
    // A combined score's shards (`score --all --shard k/n`): each target's counts are
    // the sums of its counts in the shards.
    let targets = match &first.targets {
        None => None,
        Some(first_targets) => {
            let mut merged = first_targets.clone();
            for t in &mut merged {
                t.summary = Table::default();
            }
            for f in &files {
                let names =
                    |ts: &[score_file::TargetScore]| ts.iter().map(|t| t.target.clone()).collect::<Vec<_>>();
                let same = f.targets.as_deref().is_some_and(|ts| names(ts) == names(first_targets));
                if !same {
                    return Err(usage(
                        "the shards combine different targets: merge the shards of one `score --all`"
                            .to_owned(),
                    ));
                }
                for (m, t) in merged.iter_mut().zip(f.targets.iter().flatten()) {
                    m.summary.add(&t.summary);
                }
            }
            for t in &mut merged {
                t.score_percent = t.summary.score_percent();
            }
            Some(merged)
        }
    };
    let merged = ScoreFile {
        target: first.target.clone(),
        corpus: first.corpus.clone(),
        inputs: first.inputs,
        seconds: files.iter().map(|f| f.seconds).fold(0.0, f64::max),
        summary: table.clone(),
        score_percent: table.score_percent(),
        shard: None,
        mutants,
        targets,
    };
    fs::create_dir_all(output).with_context(|| format!("failed to create {}", output.display()))?;
    let path = output.join("score.json");
    write_atomic(&path, (serde_json::to_string_pretty(&merged)? + "\n").as_bytes())?;
    eprintln!("Merged {} shards of the score of {}", inputs.len(), first.target);
    print!("{}", table.render());
    eprintln!("Scores in {}", path.display());
    Ok(score_file::min_score_exit(&table, min_score))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shards_suites_are_one_in_any_order_and_their_positions_follow_the_first() {
        let test = |name: &str, seconds| TestInfo {
            package: "p".into(),
            target: "lib".into(),
            name: name.into(),
            seconds,
        };
        let file = |tests: Vec<TestInfo>, covered_by: Vec<usize>, killed_by: Vec<usize>| -> OutcomesFile {
            let mut f: OutcomesFile = serde_json::from_value(serde_json::json!({
                "mutfuzz_version": "0", "summary": Summary::default(), "total_seconds": 0.0,
                "schema_build": [], "schema_build_cached": false, "baseline": null, "outcomes": [{
                    "mutant": serde_json::to_value(crate::report::tests::mutant(1, "src/lib.rs", 1, "f")).unwrap(),
                    "outcome": "caught", "tests_run": 1, "seconds": 0.0
                }]
            }))
            .unwrap();
            f.tests = tests;
            (f.outcomes[0].covered_by, f.outcomes[0].killed_by) = (covered_by, killed_by);
            f
        };
        // The second shard's binaries finished building in the other order, and took
        // other times: the same suite. Its positions 0 and 1 are the first's 1 and 0.
        let mut files = [
            file(vec![test("a", 0.1), test("b", 0.2)], vec![0], vec![]),
            file(vec![], vec![], vec![]),
            file(vec![test("b", 0.3), test("a", 0.1)], vec![0, 1], vec![0]),
        ];
        let suite = one_suite(&mut files).unwrap();
        assert_eq!(suite.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(
            (&files[2].outcomes[0].covered_by[..], &files[2].outcomes[0].killed_by[..]),
            (&[0, 1][..], &[1][..])
        );
        assert_eq!(files[0].outcomes[0].covered_by, [0]);
        // Another test in a shard's list: not the same run.
        let mut other =
            [file(vec![test("a", 0.1)], vec![], vec![]), file(vec![test("c", 0.1)], vec![], vec![])];
        let e = one_suite(&mut other).unwrap_err();
        assert!(e.to_string().contains("different test suites"), "{e}");
        assert!(one_suite(&mut [file(vec![], vec![], vec![])]).unwrap().is_empty());
    }

    #[test]
    fn shards_must_be_the_parts_of_one_run_each_once() {
        let inputs: Vec<PathBuf> = ["a", "b", "c"].iter().map(PathBuf::from).collect();
        let s = |k, n| Some(Shard { k, n });
        assert_eq!(shard_order(&inputs, &[s(1, 3), s(2, 3), s(0, 3)]).unwrap(), [2, 0, 1]);
        let err =
            |shards: &[Option<Shard>]| shard_order(&inputs[..shards.len()], shards).unwrap_err().to_string();
        assert!(err(&[s(0, 3), s(1, 3)]).contains("shard 2/3 missing"));
        assert!(err(&[s(1, 3), s(2, 3)]).contains("shard 0/3 missing"));
        assert!(err(&[s(0, 2), s(0, 2)]).contains("are both shard 0/2"));
        assert!(err(&[s(0, 2), s(1, 3)]).contains("a shard of 2"));
        assert!(err(&[s(0, 2), None]).contains("unsharded"));
    }

    #[test]
    fn the_shards_of_a_combined_score_merge_with_each_target_s_counts_summed() {
        use crate::report::score_file::{MutantScore, TargetScore};
        let mutant = |id: u32, outcome: FuzzOutcome| MutantScore {
            id,
            name: format!("m{id}"),
            outcome,
            kind: (outcome == FuzzOutcome::Killed).then_some(mutfuzz_contract::KillKind::Panic),
            input: (outcome == FuzzOutcome::Killed).then(|| "i".to_owned()),
            input_value: None,
            original_output: None,
            mutant_output: None,
            target: (outcome == FuzzOutcome::Killed).then(|| "a".to_owned()),
        };
        let counts = |killed: u64, survived: u64| Table {
            panic: killed,
            survived,
            total: killed + survived,
            ..Table::default()
        };
        let shard = |k: u32, mutants: Vec<MutantScore>, a: Table, b: Table| {
            let summary = ScoreFile::table_of(&mutants);
            let target = |name: &str, summary: Table| TargetScore {
                target: name.to_owned(),
                corpus: name.into(),
                inputs: 3,
                score_percent: summary.score_percent(),
                summary,
            };
            ScoreFile {
                target: "all".to_owned(),
                corpus: "corpus".into(),
                inputs: 6,
                seconds: 1.0,
                score_percent: summary.score_percent(),
                summary,
                shard: Some(Shard { k, n: 2 }),
                mutants,
                targets: Some(vec![target("a", a), target("b", b)]),
            }
        };
        let dir = tempfile::tempdir().unwrap();
        let one = shard(
            0,
            vec![mutant(1, FuzzOutcome::Killed), mutant(3, FuzzOutcome::Survived)],
            counts(1, 1),
            counts(0, 2),
        );
        let two = shard(1, vec![mutant(2, FuzzOutcome::Killed)], counts(1, 0), counts(1, 0));
        let mut inputs = Vec::new();
        for (i, f) in [two, one].iter().enumerate() {
            let path = dir.path().join(format!("{i}.json"));
            fs::write(&path, serde_json::to_string(f).unwrap()).unwrap();
            inputs.push(path);
        }
        let out = dir.path().join("merged");
        assert_eq!(merge_scores(&inputs, &out, None).unwrap(), exit_code::SUCCESS);
        let merged: ScoreFile = read_json(&out.join("score.json")).unwrap();
        assert_eq!(merged.mutants.iter().map(|m| m.id).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!((merged.summary.killed(), merged.summary.survived, merged.shard), (2, 1, None));
        let targets = merged.targets.unwrap();
        assert_eq!(
            (targets[0].summary.killed(), targets[0].summary.survived, targets[0].summary.total),
            (2, 1, 3)
        );
        assert_eq!(
            (targets[1].summary.killed(), targets[1].summary.survived, targets[1].summary.total),
            (1, 2, 3)
        );
        assert_eq!(targets[1].score_percent, 100.0 / 3.0);

        // A shard of one target's score does not merge with a combined one.
        let mut single = shard(1, vec![mutant(2, FuzzOutcome::Killed)], counts(1, 0), counts(1, 0));
        single.targets = None;
        fs::write(&inputs[0], serde_json::to_string(&single).unwrap()).unwrap();
        let err = merge_scores(&inputs, &out, None).unwrap_err().to_string();
        assert!(err.contains("combine different targets"), "{err}");
    }
}
