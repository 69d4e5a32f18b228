//! Generated targets (`generated_targets!`, `targets!(generated = …)`) over hand-written
//! schemas: the original's panics are outcomes by contract, recorded apart and never
//! failures (unless `--panic-is-failure`), and a nondeterministic generated target is
//! judged by panics and runaways only, where a hand-written one stops the campaign.
//!
//! The run-time's active mutant is process-global: every test takes `LOCK`.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use mutfuzz::contract::{
    CampaignDir, ContractPanicRecord, FailureRecord, NondeterministicRecord, read_jsonl,
};
use mutfuzz::harness::Registry;
use mutfuzz::{Campaign, CampaignConfig, KillKind, KillRecord, MutantInfo, ScoreLine, ScoreOutcome};
use mutfuzz_rt::{at, enter};

static LOCK: Mutex<()> = Mutex::new(());

// Panics by design on x < 10 ("small: <parity>"): two messages.
// site 1: mutant 1 `x % 2` → `x / 2` in the message (killed by its panic's message)
// site 2: mutant 2 `x.wrapping_add(1)` → `x.wrapping_sub(1)` (killed by output)
fn checked(x: u8) -> u8 {
    let __m = enter();
    let parity = match at(__m, 1, 1) {
        1 => x / 2,
        _ => x % 2,
    };
    if x < 10 {
        panic!("small: {parity}");
    }
    match at(__m, 2, 1) {
        1 => x.wrapping_sub(1),
        _ => x.wrapping_add(1),
    }
}

static CALLS: AtomicU64 = AtomicU64::new(0);

// Returns a call counter beside its value: no two runs agree.
// site 1: mutant 1 panics on x == 7 (killed by panic whatever the oracle)
// site 2: mutant 2 flips the value's low bit (only an output-comparing oracle sees it)
fn noisy(x: u8) -> (u8, u64) {
    let __m = enter();
    let calls = CALLS.fetch_add(1, Ordering::Relaxed);
    if at(__m, 1, 1) == 1 {
        assert!(x != 7, "seven");
    }
    let y = match at(__m, 2, 1) {
        1 => x ^ 1,
        _ => x,
    };
    (y, calls)
}

static RARE_CALLS: AtomicU64 = AtomicU64::new(0);

// As `noisy`, but only on inputs above 250, as a map whose iteration stops early at a key
// with no values disagrees with itself only where one is inserted.
fn rarely_noisy(x: u8) -> (u8, u64) {
    let (y, _) = noisy(x);
    (y, if x > 250 { RARE_CALLS.fetch_add(1, Ordering::Relaxed) + 1 } else { 0 })
}

// As `noisy`, but only on odd inputs: too many to leave out.
fn often_noisy(x: u8) -> (u8, u64) {
    let (y, calls) = noisy(x);
    (y, if x % 2 == 1 { calls } else { 0 })
}

mod auto {
    use super::{checked, noisy, often_noisy, rarely_noisy};
    mutfuzz::generated_targets!(checked, noisy, rarely_noisy, often_noisy);
}

fn catalog() -> &'static str {
    r#"[{"id":1,"site":1,"file":"src/lib.rs"},{"id":2,"site":2}]"#
}

fn argv(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

struct Dirs {
    _tmp: tempfile::TempDir,
    state: std::path::PathBuf,
    corpus: std::path::PathBuf,
    mutants: std::path::PathBuf,
}

fn dirs() -> Dirs {
    let tmp = tempfile::tempdir().unwrap();
    let (state, corpus, mutants) =
        (tmp.path().join("state"), tmp.path().join("corpus"), tmp.path().join("m.json"));
    std::fs::write(&mutants, catalog()).unwrap();
    Dirs { _tmp: tmp, state, corpus, mutants }
}

fn fuzz(registry: &Registry, target: &str, d: &Dirs, extra: &[&str]) -> Result<i32, String> {
    let mut words = vec![
        "fuzz".to_owned(),
        target.to_owned(),
        "--state".to_owned(),
        s(&d.state),
        "--corpus".to_owned(),
        s(&d.corpus),
        "--mutants".to_owned(),
        s(&d.mutants),
        "--trials".to_owned(),
        "1500".to_owned(),
        "--seed".to_owned(),
        "4".to_owned(),
        // Workers would be this test binary.
        "--isolate".to_owned(),
        "none".to_owned(),
    ];
    words.extend(argv(extra));
    registry.run(&words).map_err(|e| e.to_string())
}

fn killed(state: &Path) -> Vec<(u32, KillKind)> {
    let kills = read_jsonl::<KillRecord>(&CampaignDir::new(state).kills()).unwrap().records;
    kills.iter().map(|k| (k.mutant, k.kind)).collect()
}

// `targets!` defines `main` too, unused here.
#[allow(dead_code)]
mod harnesses {
    pub mod only_generated {
        mutfuzz::targets!(generated = auto,);
        mod auto {
            use crate::checked;
            mutfuzz::generated_targets!(checked,);
        }
    }

    pub mod mixed {
        fn mine(x: u8) -> u16 {
            u16::from(x) * 2
        }
        fn close(a: &u16, b: &u16) -> bool {
            a.abs_diff(*b) < 2
        }
        mutfuzz::targets!(generated = auto, mine(compare = close), other);
        fn other(x: u8) -> u8 {
            x
        }
        mod auto {
            use crate::{checked, noisy};
            fn same(a: &u8, b: &u8) -> bool {
                a == b
            }
            mutfuzz::generated_targets!(checked(compare = same), noisy);
        }
    }
}

#[test]
fn targets_takes_a_generated_module_with_or_without_targets_of_its_own() {
    let only = harnesses::only_generated::mutfuzz_targets();
    assert_eq!((only.is_generated("checked"), only.is_generated("noisy")), (Some(true), None));
    let mixed = harnesses::mixed::mutfuzz_targets();
    let kinds: Vec<Option<bool>> =
        ["checked", "noisy", "mine", "other"].iter().map(|t| mixed.is_generated(t)).collect();
    assert_eq!(kinds, [Some(true), Some(true), Some(false), Some(false)]);
}

#[test]
fn the_macros_register_generated_targets_beside_hand_written_ones() {
    fn mine(x: u8) -> u8 {
        x
    }
    let mut registry = Registry::new();
    auto::add_targets(&mut registry);
    registry.add("mine", mine);
    assert_eq!(registry.is_generated("checked"), Some(true));
    assert_eq!(registry.is_generated("noisy"), Some(true));
    assert_eq!(registry.is_generated("mine"), Some(false));
    assert_eq!(registry.is_generated("nope"), None);
}

#[test]
fn a_generated_targets_panics_are_outcomes_recorded_once_per_message_not_failures() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut registry = Registry::new();
    auto::add_targets(&mut registry);
    let d = dirs();
    assert_eq!(fuzz(&registry, "checked", &d, &[]), Ok(0));
    let files = CampaignDir::new(&d.state);
    let panics = read_jsonl::<ContractPanicRecord>(&files.contract_panic_log()).unwrap().records;
    let messages: BTreeSet<&str> = panics.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(messages, BTreeSet::from(["small: 0", "small: 1"]));
    assert_eq!(panics.len(), 2, "one record per message: {panics:?}");
    for p in &panics {
        assert!(files.contract_panics().join(&p.input).is_file(), "{p:?}");
        assert!(p.location.as_deref().is_some_and(|l| l.contains("generated.rs")), "{p:?}");
    }
    assert!(read_jsonl::<FailureRecord>(&files.failure_log()).unwrap().records.is_empty());
    assert_eq!(std::fs::read_dir(files.failures()).unwrap().count(), 0);
    // The panic's message is the outcome: a mutant that changes it is killed by it.
    let kills = killed(&d.state);
    assert!(kills.contains(&(1, KillKind::Panic)), "{kills:?}");
    assert!(kills.contains(&(2, KillKind::OutputDiffers)), "{kills:?}");

    // A restarted harness records no message twice.
    assert_eq!(fuzz(&registry, "checked", &d, &["--resumed", "--seed", "9"]), Ok(0));
    let again = read_jsonl::<ContractPanicRecord>(&files.contract_panic_log()).unwrap().records;
    assert_eq!(again, panics);

    // `score` records them beside its verdicts.
    let out = d.state.join("score.jsonl");
    let code = registry.run(argv(&[
        "score",
        "checked",
        "--corpus",
        &s(&d.corpus),
        "--mutants",
        &s(&d.mutants),
        "--out",
        &s(&out),
    ]));
    assert_eq!(code.map_err(|e| e.to_string()), Ok(0));
    // The kill of mutant 1 was by a panicking input, which the corpus keeps.
    let scored =
        read_jsonl::<ContractPanicRecord>(&mutfuzz::contract::score_contract_panic_log(&out)).unwrap();
    assert!(!scored.records.is_empty());
    assert!(scored.records.iter().all(|r| messages.contains(r.message.as_str())), "{scored:?}");
}

#[test]
fn panic_is_failure_makes_a_generated_targets_panics_failures() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut registry = Registry::new();
    auto::add_targets(&mut registry);
    let d = dirs();
    assert_eq!(fuzz(&registry, "checked", &d, &["--panic-is-failure"]), Ok(0));
    let files = CampaignDir::new(&d.state);
    let failures = read_jsonl::<FailureRecord>(&files.failure_log()).unwrap().records;
    let messages: BTreeSet<&str> = failures.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(messages, BTreeSet::from(["small: 0", "small: 1"]));
    assert!(!files.contract_panic_log().exists());
}

#[test]
fn the_campaign_counts_every_input_that_panics_by_contract() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mutants = MutantInfo::from_json(catalog()).unwrap();
    let config = CampaignConfig { seed: 2, panics_by_contract: true, ..CampaignConfig::default() };
    let mut c = Campaign::new(config, mutants.clone(), checked).unwrap();
    c.run_trials(500).unwrap();
    assert!(c.stats().contract_panics >= 2, "{:?}", c.stats());
    assert_eq!((c.stats().failures, c.failures().len()), (0, 0));
    // Hand-written: the same panics are failures, and none is counted by contract.
    let mut strict =
        Campaign::new(CampaignConfig { seed: 2, ..CampaignConfig::default() }, mutants, checked).unwrap();
    strict.run_trials(500).unwrap();
    assert_eq!((strict.stats().failures, strict.stats().contract_panics), (2, 0));
}

#[test]
fn a_nondeterministic_generated_target_is_judged_by_panics_only_and_stays_so() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut registry = Registry::new();
    auto::add_targets(&mut registry);
    let d = dirs();
    assert_eq!(fuzz(&registry, "noisy", &d, &[]), Ok(0));
    let files = CampaignDir::new(&d.state);
    let record =
        NondeterministicRecord::read(&files.nondeterministic()).unwrap().expect("the record is kept");
    assert!(d.corpus.join(&record.input).is_file(), "{record:?}");
    assert_ne!(record.first, record.second);
    // Killed by its panic; the flipped bit is no kill (every output agrees).
    assert_eq!(killed(&d.state), [(1, KillKind::Panic)]);

    // A restarted harness and `score` judge the same way.
    assert_eq!(fuzz(&registry, "noisy", &d, &["--resumed", "--seed", "8"]), Ok(0));
    assert_eq!(killed(&d.state), [(1, KillKind::Panic)]);
    let out = d.state.join("score.jsonl");
    let score = |state: Option<&Path>| {
        let _ = std::fs::remove_file(&out);
        let mut words = argv(&[
            "score",
            "noisy",
            "--corpus",
            &s(&d.corpus),
            "--mutants",
            &s(&d.mutants),
            "--out",
            &s(&out),
        ]);
        if let Some(state) = state {
            words.extend(argv(&["--state", &s(state)]));
        }
        let code = registry.run(&words).map_err(|e| e.to_string());
        let lines = read_jsonl::<ScoreLine>(&out).unwrap().records;
        let mut verdicts: Vec<(u32, ScoreOutcome)> = lines.iter().map(|l| (l.mutant, l.outcome)).collect();
        verdicts.sort_by_key(|v| v.0);
        (code, verdicts)
    };
    let judged = vec![(1, ScoreOutcome::Killed), (2, ScoreOutcome::Survived)];
    assert_eq!(score(Some(&d.state)), (Ok(0), judged.clone()));
    // Without the state directory, `score` finds it nondeterministic itself.
    let elsewhere = tempfile::tempdir().unwrap();
    assert_eq!(score(Some(elsewhere.path())), (Ok(0), judged));
    assert!(CampaignDir::new(elsewhere.path()).nondeterministic().is_file());
}

#[test]
fn inputs_a_generated_target_gives_two_results_on_are_left_out_while_they_are_few() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut registry = Registry::new();
    auto::add_targets(&mut registry);
    let d = dirs();
    let before = RARE_CALLS.load(Ordering::Relaxed);
    assert_eq!(fuzz(&registry, "rarely_noisy", &d, &[]), Ok(0));
    assert!(RARE_CALLS.load(Ordering::Relaxed) > before, "no input above 250 was tried");
    // Still judged by outputs: the flipped bit is a kill, and no record says otherwise.
    let mut kills = killed(&d.state);
    kills.sort_by_key(|k| k.0);
    assert_eq!(kills, [(1, KillKind::Panic), (2, KillKind::OutputDiffers)]);
    assert!(!CampaignDir::new(&d.state).nondeterministic().exists());
    // No input above 250 is kept: each one's first byte is its value.
    for entry in std::fs::read_dir(&d.corpus).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert!(bytes.first().is_none_or(|x| *x <= 250), "{bytes:?}");
    }

    // Nondeterministic on half the inputs: judged by panics and runaways after a few.
    let d = dirs();
    assert_eq!(fuzz(&registry, "often_noisy", &d, &[]), Ok(0));
    assert!(CampaignDir::new(&d.state).nondeterministic().is_file());
    assert_eq!(killed(&d.state), [(1, KillKind::Panic)]);
}

#[test]
fn a_nondeterministic_hand_written_target_still_stops_the_campaign() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut registry = Registry::new();
    registry.add("noisy", noisy);
    let d = dirs();
    assert_eq!(fuzz(&registry, "noisy", &d, &[]), Ok(mutfuzz_contract::EXIT_ERROR));
    assert!(!CampaignDir::new(&d.state).nondeterministic().exists());
    let mutants = MutantInfo::from_json(catalog()).unwrap();
    let mut c = Campaign::new(CampaignConfig::default(), mutants, noisy).unwrap();
    let err = c.run_trials(10).unwrap_err();
    assert!(matches!(err, mutfuzz::Error::Nondeterministic { .. }), "{err}");
}
