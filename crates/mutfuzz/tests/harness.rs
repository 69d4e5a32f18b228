//! The harness command line over a hand-written schema: `fuzz` writes corpus, kills and
//! stats and resumes from them (crash kills included); `score` judges a corpus; `run`
//! replays one input.
//!
//! The run-time's active mutant is process-global: every test takes `LOCK`.

use std::sync::Mutex;

use mutfuzz::harness::Registry;
use mutfuzz::{Campaign, CampaignConfig, KillKind, MutantInfo, ScoreLine, ScoreOutcome};
use mutfuzz_rt::{at, enter};

static LOCK: Mutex<()> = Mutex::new(());

// site 1: mutant 1 `x > 200` → `>=` (killed only by x == 200, by output)
// site 2: mutant 2 `x * 2` → `x + 2` (killed by output); mutant 3 → `x - 2` (panics on
//         underflow for x < 2, else output): both killable
// site 4: mutant 4 never reached
fn target(x: u8) -> (bool, u16) {
    let __m = enter();
    let big = {
        let (l, r) = (&x, &200u8);
        match at(__m, 1, 1) {
            1 => l >= r,
            _ => l > r,
        }
    };
    let (l, r) = (u16::from(x), 2u16);
    let twice = match at(__m, 2, 2) {
        1 => l + r,
        2 => l - r,
        _ => l * r,
    };
    if x == 255 && big && twice == 0 {
        let _ = at(__m, 4, 1);
    }
    (big, twice)
}

fn catalog_json() -> &'static str {
    r#"[{"id":1,"site":1,"file":"src/lib.rs"},{"id":2,"site":2},{"id":3,"site":2},{"id":4,"site":4}]"#
}

fn argv(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

#[test]
fn fuzz_writes_corpus_kills_and_stats_then_score_and_run_read_them() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let (state, corpus, mutants) =
        (tmp.path().join("state"), tmp.path().join("corpus"), tmp.path().join("m.json"));
    std::fs::write(&mutants, catalog_json()).unwrap();
    let mut registry = Registry::new();
    registry.add("target", target);
    let s = |p: &std::path::Path| p.to_string_lossy().into_owned();
    let code = registry
        .run(argv(&[
            "fuzz",
            "target",
            "--state",
            &s(&state),
            "--corpus",
            &s(&corpus),
            "--mutants",
            &s(&mutants),
            "--trials",
            "3000",
            "--seed",
            "3",
        ]))
        .unwrap();
    assert_eq!(code, 0);
    let kills = std::fs::read_to_string(state.join("kills.jsonl")).unwrap();
    let killed: Vec<u64> = kills
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["mutant"].as_u64().unwrap())
        .collect();
    for id in [1, 2, 3] {
        assert!(killed.contains(&id), "mutant {id} not killed: {kills}");
    }
    assert!(!killed.contains(&4));
    let files = std::fs::read_dir(&corpus).unwrap().count();
    assert!(files >= 2, "corpus has {files} files");
    let csv = std::fs::read_to_string(state.join("stats.csv")).unwrap();
    assert!(csv.starts_with(mutfuzz_contract::Stats::CSV_HEADER), "{csv}");
    // The last counters make a row even when the campaign took less than a second.
    let rows = mutfuzz::contract::parse_stats_csv(&csv).unwrap();
    assert!(rows.last().is_some_and(|r| r.mutants_killed >= 3), "{csv}");

    // Score the corpus: the same three killed, mutant 4 not covered.
    let out = tmp.path().join("score.jsonl");
    let score = || {
        registry.run(argv(&[
            "score",
            "target",
            "--corpus",
            &s(&corpus),
            "--mutants",
            &s(&mutants),
            "--out",
            &s(&out),
        ]))
    };
    assert_eq!(score().unwrap(), 0);
    let lines: Vec<ScoreLine> =
        std::fs::read_to_string(&out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let outcome = |id| lines.iter().find(|l| l.mutant == id).map(|l| l.outcome);
    assert_eq!(outcome(1), Some(ScoreOutcome::Killed));
    assert_eq!(outcome(2), Some(ScoreOutcome::Killed));
    assert_eq!(outcome(3), Some(ScoreOutcome::Killed));
    assert_eq!(outcome(4), Some(ScoreOutcome::NotCovered));
    assert_eq!(lines.len(), 4);
    // Each kill says what the input was and, for an output or panic kill, how both ended.
    for l in lines.iter().filter(|l| l.outcome == ScoreOutcome::Killed) {
        assert!(l.input_value.is_some(), "{l:?}");
        if matches!(l.kind, Some(mutfuzz::KillKind::OutputDiffers | mutfuzz::KillKind::Panic)) {
            assert!(l.original_output.is_some() && l.original_output != l.mutant_output, "{l:?}");
        }
    }
    // A second score run decides nothing again.
    assert_eq!(score().unwrap(), 0);
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 4);

    // `run` replays a stored input.
    let first = std::fs::read_dir(&corpus).unwrap().next().unwrap().unwrap().path();
    assert_eq!(registry.run(argv(&["run", "target", &s(&first)])).unwrap(), 0);
}

#[test]
fn with_a_mutants_file_fuzz_and_score_run_and_count_the_listed_mutants_only() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let (state, corpus, mutants, listed) = (
        tmp.path().join("state"),
        tmp.path().join("corpus"),
        tmp.path().join("m.json"),
        tmp.path().join("targets.txt"),
    );
    std::fs::write(&mutants, catalog_json()).unwrap();
    // Mutant 2 (killed on almost every input) is not listed; 99 is in no catalog.
    std::fs::write(&listed, "# missed by the tests\n1\n\n3 replace * with -\n99\n").unwrap();
    let mut registry = Registry::new();
    registry.add("target", target);
    let s = |p: &std::path::Path| p.to_string_lossy().into_owned();
    let fuzz = [
        "fuzz",
        "target",
        "--state",
        &s(&state),
        "--corpus",
        &s(&corpus),
        "--mutants",
        &s(&mutants),
        "--mutants-file",
        &s(&listed),
        "--trials",
        "3000",
        "--seed",
        "3",
    ];
    assert_eq!(registry.run(argv(&fuzz)).unwrap(), 0);
    let kills = std::fs::read_to_string(state.join("kills.jsonl")).unwrap();
    let mut killed: Vec<u64> = kills
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["mutant"].as_u64().unwrap())
        .collect();
    killed.sort_unstable();
    assert_eq!(killed, [1, 3], "{kills}");
    let csv = std::fs::read_to_string(state.join("stats.csv")).unwrap();
    let last = *mutfuzz::contract::parse_stats_csv(&csv).unwrap().last().unwrap();
    assert_eq!((last.mutants_seen, last.mutants_killed), (2, 2), "{csv}");

    let out = tmp.path().join("score.jsonl");
    let score = ["score", "target", "--corpus", &s(&corpus), "--mutants", &s(&mutants), "--out", &s(&out)];
    let mut with_file = argv(&score);
    with_file.extend(argv(&["--mutants-file", &s(&listed)]));
    assert_eq!(registry.run(&with_file).unwrap(), 0);
    let lines: Vec<ScoreLine> =
        std::fs::read_to_string(&out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let mut scored: Vec<(u32, ScoreOutcome)> = lines.iter().map(|l| (l.mutant, l.outcome)).collect();
    scored.sort_unstable_by_key(|&(id, _)| id);
    assert_eq!(scored, [(1, ScoreOutcome::Killed), (3, ScoreOutcome::Killed)]);

    // A file with no id, or with a word that is no id, is refused before anything runs.
    std::fs::write(&listed, "# nothing\n").unwrap();
    assert!(registry.run(&with_file).unwrap_err().to_string().ends_with("targets.txt lists no mutant id"));
    std::fs::write(&listed, "1\nmutant-2\n").unwrap();
    let err = registry.run(&with_file).unwrap_err().to_string();
    assert!(err.ends_with("targets.txt:2: \"mutant-2\" is not a mutant id (one id a line)"), "{err}");
}

#[test]
fn a_resumed_campaign_treats_supervisor_crash_kills_as_killed_and_never_runs_them() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    std::fs::create_dir_all(&dir).unwrap();
    // What a supervisor appends after mutant 2 took the process down.
    std::fs::write(
        dir.join("kills.jsonl"),
        "{\"mutant\":2,\"site\":2,\"kind\":\"crash\",\"input\":\"00\",\"trial\":0}\n{\"mutant\":3,\"si",
    )
    .unwrap();
    let mutants = MutantInfo::from_json(catalog_json()).unwrap();
    let config = CampaignConfig { seed: 5, dir: Some(dir), ..CampaignConfig::default() };
    let mut c = Campaign::new(config, mutants, target).unwrap();
    c.resume_from_dir().unwrap();
    c.run_trials(300).unwrap();
    let two = c.mutants().find(|m| m.info.id == 2).unwrap();
    assert_eq!(two.killed, Some(KillKind::Crash));
    assert_eq!(two.runs, 0);
    // The torn line was skipped; mutant 3 was run (and killed) normally.
    assert!(c.mutants().find(|m| m.info.id == 3).unwrap().runs > 0);
}

#[test]
fn after_a_restart_the_stored_corpus_is_replayed_without_mutant_runs() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mutants = MutantInfo::from_json(catalog_json()).unwrap();
    // Two stored inputs, each reaching sites 1 and 2 (x = 7 and x = 40); the kills file
    // may say that x = 7 (replayed second, adding no coverage) killed mutant 2.
    let replayed = |resumed: bool, seven_killed: bool| {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("state");
        std::fs::create_dir_all(dir.join("corpus")).unwrap();
        for x in [7u8, 40] {
            std::fs::write(dir.join("corpus").join(format!("input-{x}")), [x]).unwrap();
        }
        if seven_killed {
            let record = format!(
                "{{\"mutant\":2,\"site\":2,\"kind\":\"output-differs\",\"input\":\"{}\",\"trial\":0}}\n",
                mutfuzz::content_name(&[7])
            );
            std::fs::write(dir.join("kills.jsonl"), record).unwrap();
        }
        let config = CampaignConfig { seed: 3, dir: Some(dir), resumed, ..CampaignConfig::default() };
        let mut c = Campaign::new(config, mutants.clone(), target).unwrap();
        assert_eq!(c.resume_from_dir().unwrap(), 2);
        c.run_trials(2).unwrap();
        (c.stats().mutant_runs, c.corpus().len())
    };
    // A first start tries the seeds' mutants; a restart only rebuilds coverage from them.
    assert!(replayed(false, false).0 > 0);
    assert_eq!(replayed(true, false), (0, 1));
    // ... and keeps the inputs that killed before it, whatever they cover.
    assert_eq!(replayed(true, true), (0, 2));
}

#[test]
fn an_invalid_kill_record_stops_the_resume_naming_file_and_line() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    std::fs::create_dir_all(&dir).unwrap();
    // A kind no version of mutfuzz writes, on a whole line: not "no kills".
    std::fs::write(
        dir.join("kills.jsonl"),
        "{\"mutant\":2,\"site\":2,\"kind\":\"crash\",\"input\":\"00\",\"trial\":0}\n\
         {\"mutant\":3,\"site\":2,\"kind\":\"exploded\",\"input\":\"00\",\"trial\":0}\n",
    )
    .unwrap();
    let mutants = MutantInfo::from_json(catalog_json()).unwrap();
    let config = CampaignConfig { seed: 5, dir: Some(dir), ..CampaignConfig::default() };
    let mut c = Campaign::new(config, mutants, target).unwrap();
    let err = c.resume_from_dir().unwrap_err().to_string();
    assert!(err.contains("kills.jsonl:2: not a valid kill record"), "{err}");
    assert!(err.contains("exploded"), "{err}");
}
