//! Campaigns over a small hand-written schema: which mutants Mu2 kills and how,
//! determinism, coverage guidance, failures, discards and the on-disk store.
//!
//! The run-time's active mutant is process-global, so every test here takes `LOCK`
//! and campaigns never overlap.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use mutfuzz::{
    Campaign, CampaignConfig, Error, Gen, GuidanceKind, KillKind, KillLimit, MutantInfo, MutantTable, Rng,
    Selector, Source, TrialSites,
};
use mutfuzz_rt::{at, enter, tick};

static LOCK: Mutex<()> = Mutex::new(());

fn lock() -> std::sync::MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

// ---- the schema, written as mutfuzz-mutate would write it ----------------------
//
// site 1: mutant 1   `x / 4 < 25` → `<=`        killed only by x in 100..=103, by output
// site 2: mutant 2   delete `i += 1`            loops for ever: timeout (fuel)
// site 3: mutant 3   `n == 0` → `false`         recurses without end: timeout (depth)
// site 4: mutant 4   `idx` → `idx + 4`          index out of bounds: panic
// site 5: mutant 5   `n > 0` → `n != 0`         equivalent for u8: survives
// site 6: mutant 6   in `never_reached`         never run (execution pruning)
// site 7: mutants 7, 8  `a + b` → `a - b`, `a * b`   killed by output
// site 9: mutant 9   `x % 2 == 0` → `!=`        (discard target) killed by discard
// site 10: mutant 10 `x < 16` → `<=`            (failure target)

fn catalog() -> Vec<MutantInfo> {
    [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 7), (9, 9), (10, 10)]
        .into_iter()
        .map(|(id, site)| MutantInfo::new(id, site))
        .collect()
}

#[derive(Debug, Gen)]
struct Data {
    x: u8,
    #[mutfuzz(range = 0..=7)]
    n: u8,
    i: u8,
    a: u16,
    b: u16,
}

fn bucket(x: u8) -> u32 {
    let __m = enter();
    let small = {
        let (l, r) = (&(x / 4), &25u8);
        match at(__m, 1, 1) {
            1 => l <= r,
            _ => l < r,
        }
    };
    if small { 0 } else { 1 }
}

fn sum_to(n: u8) -> u32 {
    let __m = enter();
    let (mut i, mut s) = (0u32, 0u32);
    while i < u32::from(n) {
        tick(__m);
        s += i;
        if at(__m, 2, 1) == 0 {
            i += 1;
        }
    }
    s
}

fn countdown(n: u8) -> u32 {
    let __m = enter();
    let done = {
        let (l, r) = (&n, &0u8);
        match at(__m, 3, 1) {
            1 => false,
            _ => l == r,
        }
    };
    if done { 0 } else { 1 + countdown(n.wrapping_sub(1)) }
}

fn lookup(i: u8) -> u32 {
    let __m = enter();
    let table = [10u32, 20, 30, 40];
    let idx = usize::from(i % 4);
    let idx = match at(__m, 4, 1) {
        1 => idx + 4,
        _ => idx,
    };
    table[idx]
}

fn positive(n: u8) -> bool {
    let __m = enter();
    let (l, r) = (&n, &0u8);
    match at(__m, 5, 1) {
        1 => l != r,
        _ => l > r,
    }
}

fn never_reached() -> u32 {
    let __m = enter();
    match at(__m, 6, 1) {
        1 => 0,
        _ => 1,
    }
}

fn add(a: u16, b: u16) -> u32 {
    let __m = enter();
    let (l, r) = (u32::from(a), u32::from(b));
    match at(__m, 7, 2) {
        1 => l.wrapping_sub(r),
        2 => l.wrapping_mul(r),
        _ => l + r,
    }
}

type Output = (u32, u32, u32, u32, bool, u32);

fn target(d: Data) -> Output {
    let _m = enter();
    let out = (bucket(d.x), sum_to(d.n), countdown(d.n), lookup(d.i), positive(d.n), add(d.a, d.b));
    // `n` is at most 7: the call is never made.
    if d.n > 100 {
        never_reached();
    }
    out
}

fn halve(d: Data) -> u8 {
    let __m = enter();
    let even = {
        let (l, r) = (&(d.x % 2), &0u8);
        match at(__m, 9, 1) {
            1 => l != r,
            _ => l == r,
        }
    };
    mutfuzz::assume(even);
    d.x / 2
}

fn fragile(d: &Data) -> u32 {
    let __m = enter();
    let small = {
        let (l, r) = (&d.x, &16u8);
        match at(__m, 10, 1) {
            1 => l <= r,
            _ => l < r,
        }
    };
    if small {
        panic!("x is too small");
    }
    bucket(d.x)
}

fn config(seed: u64) -> CampaignConfig {
    CampaignConfig { seed, ..CampaignConfig::default() }
}

fn replay(bytes: &[u8]) -> Data {
    Source::new(bytes, Rng::new(0)).draw()
}

fn corpus_bytes<T: Gen, O: std::fmt::Debug + 'static>(c: &Campaign<T, O>) -> Vec<Vec<u8>> {
    c.corpus().entries().iter().map(|e| e.input.as_bytes().to_vec()).collect()
}

// ---- tests -------------------------------------------------------------------

#[test]
fn mu2_kills_exactly_the_killable_mutants_within_a_bounded_number_of_trials() {
    let _g = lock();
    let mut c = Campaign::new(config(1), catalog(), target).unwrap();
    c.run_trials(1000).unwrap();

    let status: BTreeMap<u32, _> = c.mutants().map(|m| (m.info.id, m)).collect();
    let killed: Vec<u32> = status.values().filter(|m| m.killed.is_some()).map(|m| m.info.id).collect();
    assert_eq!(killed, [1, 2, 3, 4, 7, 8], "stats {:?}", c.stats());

    let kill = |id: u32| c.kills().iter().find(|k| k.mutant == id).unwrap();
    assert_eq!(kill(1).kind, KillKind::OutputDiffers);
    assert_eq!((kill(2).kind, kill(2).limit), (KillKind::Timeout, Some(KillLimit::Fuel)));
    assert_eq!((kill(3).kind, kill(3).limit), (KillKind::Timeout, Some(KillLimit::Depth)));
    assert_eq!(kill(4).kind, KillKind::Panic);
    assert_eq!(kill(7).kind, KillKind::OutputDiffers);
    assert_eq!(kill(8).kind, KillKind::OutputDiffers);

    // The boundary mutant's killer lies in the one range that tells `<` from `<=`.
    let killer = c.corpus().entries().iter().find(|e| e.name == kill(1).input).unwrap();
    assert!((100..=103).contains(&replay(killer.input.as_bytes()).x));
    // It counts its kill, and gets Mu2's factor on its children.
    assert!(killer.kills >= 1);
    let factor = mutfuzz::guidance::MU2_KILL_FACTOR;
    let energy =
        if factor > 1 { mutfuzz::guidance::Energy::Times(factor) } else { mutfuzz::guidance::Energy::Zest };
    assert_eq!(killer.energy, energy);

    // The equivalent mutant ran and survived; unreached code never ran.
    assert!(status[&5].seen && status[&5].runs > 100 && status[&5].killed.is_none());
    for id in [6, 9, 10] {
        assert!(!status[&id].seen && status[&id].runs == 0, "mutant {id}: {:?}", status[&id]);
    }
    // A killed mutant is never run again: each ran until its first kill only.
    assert_eq!(status[&4].runs, 1);
    let stats = c.stats();
    assert_eq!(
        (stats.trials, stats.mutants_total, stats.mutants_seen, stats.mutants_killed),
        (1000, 10, 7, 6)
    );
    assert_eq!(stats.failures, 0);
}

#[test]
fn the_same_seed_gives_the_same_corpus_and_the_same_kills() {
    let _g = lock();
    let run = |seed| {
        let mut c = Campaign::new(config(seed), catalog(), target).unwrap();
        c.run_trials(600).unwrap();
        (corpus_bytes(&c), c.kills().to_vec())
    };
    let (corpus_a, kills_a) = run(7);
    let (corpus_b, kills_b) = run(7);
    assert!(!kills_a.is_empty());
    assert_eq!(corpus_a, corpus_b);
    assert_eq!(kills_a, kills_b);
    let (corpus_c, _) = run(8);
    assert_ne!(corpus_a, corpus_c);
}

#[test]
fn coverage_guidance_runs_no_mutants() {
    let _g = lock();
    let cfg = CampaignConfig { guidance: GuidanceKind::Coverage, ..config(1) };
    let mut c = Campaign::new(cfg, catalog(), target).unwrap();
    c.run_trials(500).unwrap();
    assert_eq!(c.guidance_name(), "coverage");
    let stats = c.stats();
    assert_eq!((stats.mutant_runs, stats.mutants_killed), (0, 0));
    assert!(c.mutants().all(|m| m.runs == 0));
    assert!(c.kills().is_empty());
    assert!(stats.corpus >= 1 && stats.mutants_seen == 7, "{stats:?}");
}

#[test]
fn the_original_panicking_is_recorded_as_a_failure_and_the_campaign_goes_on() {
    let _g = lock();
    let mut c = Campaign::new_by_ref(config(3), catalog(), fragile).unwrap();
    c.run_trials(400).unwrap();
    assert_eq!(c.stats().trials, 400);
    // One distinct failure, however many inputs hit it.
    let [failure] = c.failures() else { panic!("failures: {:?}", c.failures()) };
    assert_eq!(failure.message, "x is too small");
    assert!(failure.location.as_deref().is_some_and(|l| l.contains("campaign.rs")), "{failure:?}");
    assert!(replay(failure.input.as_bytes()).x < 16);
    // Mutants ran against failing originals too: the boundary mutant of the failing
    // check was judged (it agrees with the original's panic below 16).
    let m10 = c.mutants().find(|m| m.info.id == 10).unwrap();
    assert!(m10.runs > 0);
}

/// The lines of `failures.jsonl`, asserted to have a message each.
fn distinct_failure_lines(dir: &std::path::Path) -> Vec<mutfuzz::FailureRecord> {
    let text = std::fs::read_to_string(dir.join("failures.jsonl")).unwrap();
    let lines: Vec<mutfuzz::FailureRecord> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let distinct: std::collections::BTreeSet<&str> = lines.iter().map(|r| r.message.as_str()).collect();
    assert_eq!(distinct.len(), lines.len(), "a message recorded twice");
    lines
}

/// Fails with a message of its own for every `x` from 64 on.
fn fails_per_value(d: &Data) -> u32 {
    let _m = enter();
    if d.x >= 64 {
        panic!("x is {}", d.x);
    }
    bucket(d.x)
}

#[test]
fn a_campaign_with_a_directory_holds_its_first_failures_in_memory_and_every_one_on_disk() {
    let _g = lock();
    let dir = tempfile::tempdir().unwrap();
    let cfg = CampaignConfig { dir: Some(dir.path().to_path_buf()), ..config(4) };
    let mut c = Campaign::new_by_ref(cfg, catalog(), fails_per_value).unwrap();
    c.run_trials(2000).unwrap();
    // Each message once, however many inputs hit it.
    let messages = distinct_failure_lines(dir.path());
    assert!(messages.len() > mutfuzz::HELD_FAILURES, "{} failures", messages.len());
    assert_eq!(c.stats().failures, messages.len());
    assert_eq!(c.failures().len(), mutfuzz::HELD_FAILURES);
    let held: Vec<&str> = c.failures().iter().map(|f| f.message.as_str()).collect();
    let first: Vec<&str> = messages[..mutfuzz::HELD_FAILURES].iter().map(|r| r.message.as_str()).collect();
    assert_eq!(held, first);

    // Resumed (a restarted harness), it knows them: none is recorded twice, and all count.
    let cfg = CampaignConfig { dir: Some(dir.path().to_path_buf()), ..config(5) };
    let mut again = Campaign::new_by_ref(cfg, catalog(), fails_per_value).unwrap();
    again.resume_from_dir().unwrap();
    assert_eq!(again.stats().failures, messages.len());
    again.run_trials(500).unwrap();
    assert_eq!(again.stats().failures, distinct_failure_lines(dir.path()).len());
}

#[test]
fn inputs_rejected_by_assume_are_discards_and_a_changed_assumption_is_killed_by_discard() {
    let _g = lock();
    let mut c = Campaign::new(config(5), catalog(), halve).unwrap();
    c.run_trials(200).unwrap();
    let stats = c.stats();
    assert!(stats.discards > 20 && stats.discards < 180, "{stats:?}");
    assert_eq!(stats.failures, 0);
    let [kill] = c.kills() else { panic!("kills: {:?}", c.kills()) };
    assert_eq!((kill.mutant, kill.kind), (9, KillKind::Discard));
}

#[test]
fn the_corpus_files_on_disk_are_exactly_the_saved_inputs_and_kills_are_json_lines() {
    let _g = lock();
    let dir = tempfile::tempdir().unwrap();
    let cfg = CampaignConfig { dir: Some(dir.path().to_path_buf()), ..config(11) };
    let mut c = Campaign::new(cfg.clone(), catalog(), target).unwrap();
    c.run_trials(300).unwrap();

    let mut on_disk = BTreeMap::new();
    for entry in std::fs::read_dir(dir.path().join("corpus")).unwrap() {
        let entry = entry.unwrap();
        on_disk.insert(entry.file_name().into_string().unwrap(), std::fs::read(entry.path()).unwrap());
    }
    let saved: BTreeMap<_, _> =
        c.corpus().entries().iter().map(|e| (e.name.clone(), e.input.as_bytes().to_vec())).collect();
    assert!(!saved.is_empty());
    assert_eq!(on_disk, saved);

    let text = std::fs::read_to_string(dir.path().join("kills.jsonl")).unwrap();
    let lines: Vec<mutfuzz::KillRecord> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines, c.kills());
    assert!(lines.iter().all(|k| saved.contains_key(&k.input)));

    // A new campaign on the same directory resumes from the stored inputs.
    let mut again = Campaign::new(cfg, catalog(), target).unwrap();
    assert_eq!(again.resume_from_dir().unwrap(), saved.len());
    again.run_trials(saved.len() as u64).unwrap();
    assert!(again.stats().mutants_killed >= 1);
}

/// Inputs handed over, each with the number of kill records written before it.
type Handed = std::rc::Rc<std::cell::RefCell<Vec<(String, Vec<u8>, usize)>>>;

fn kill_lines(dir: &std::path::Path) -> Vec<mutfuzz::KillRecord> {
    let text = std::fs::read_to_string(dir.join("kills.jsonl")).unwrap_or_default();
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn handed_over_inputs_are_not_written_and_every_kill_names_one_handed_over_before_it() {
    let _g = lock();
    let dir = tempfile::tempdir().unwrap();
    let cfg = CampaignConfig { dir: Some(dir.path().to_path_buf()), ..config(11) };
    let handed = Handed::default();
    let taker = |handed: &Handed, dir: &std::path::Path| {
        let (handed, dir) = (handed.clone(), dir.to_owned());
        move |name: &str, bytes: &[u8]| {
            handed.borrow_mut().push((name.to_owned(), bytes.to_vec(), kill_lines(&dir).len()));
            Ok(())
        }
    };
    let mut c =
        Campaign::new(cfg.clone(), catalog(), target).unwrap().with_hand_over(taker(&handed, dir.path()));
    c.run_trials(300).unwrap();

    // Nothing in the corpus directory: every kept input went to the hand-over, once.
    assert_eq!(std::fs::read_dir(dir.path().join("corpus")).unwrap().count(), 0);
    let saved: BTreeMap<_, _> =
        c.corpus().entries().iter().map(|e| (e.name.clone(), e.input.as_bytes().to_vec())).collect();
    let got: BTreeMap<_, _> = handed.borrow().iter().map(|(n, b, _)| (n.clone(), b.clone())).collect();
    assert!(!saved.is_empty());
    assert_eq!((got, handed.borrow().len()), (saved.clone(), saved.len()));
    let kills = kill_lines(dir.path());
    assert_eq!(kills, c.kills());
    for (i, k) in kills.iter().enumerate() {
        let (_, _, before) = handed.borrow().iter().find(|(n, _, _)| *n == k.input).cloned().unwrap();
        assert!(before <= i, "kill {i} was written before its input {} was handed over", k.input);
    }

    // Resumed from what the owner stored: those inputs are not handed over again.
    for (name, bytes) in &saved {
        std::fs::write(dir.path().join("corpus").join(name), bytes).unwrap();
    }
    let again_handed = Handed::default();
    let mut again = Campaign::new(CampaignConfig { resumed: true, ..cfg.clone() }, catalog(), target)
        .unwrap()
        .with_hand_over(taker(&again_handed, dir.path()));
    assert_eq!(again.resume_from_dir().unwrap(), saved.len());
    again.run_trials(saved.len() as u64).unwrap();
    assert_eq!(again.corpus().len(), saved.len());
    assert!(again_handed.borrow().is_empty());

    // An input the owner does not store stops the campaign before anything names it.
    let empty = tempfile::tempdir().unwrap();
    let cfg = CampaignConfig { dir: Some(empty.path().to_path_buf()), ..config(11) };
    let mut refused =
        Campaign::new(cfg, catalog(), target).unwrap().with_hand_over(|name: &str, _: &[u8]| {
            Err(Error::HandOver { input: name.to_owned(), reason: "refused".into() })
        });
    let err = refused.run_trials(300).unwrap_err();
    assert!(matches!(err, Error::HandOver { .. }), "{err}");
    assert!(kill_lines(empty.path()).is_empty());
}

static CALLS: AtomicU32 = AtomicU32::new(0);

fn drifting(d: Data) -> (u8, u32) {
    (d.x, CALLS.fetch_add(1, Ordering::Relaxed))
}

#[test]
fn a_nondeterministic_target_stops_the_campaign_naming_the_input_and_both_outputs() {
    let _g = lock();
    let mut c = Campaign::new(config(2), catalog(), drifting).unwrap();
    let err = c.run_trials(50).unwrap_err();
    let Error::Nondeterministic { input, first, second, .. } = &err else { panic!("{err}") };
    assert_ne!(first, second);
    let msg = err.to_string();
    assert!(msg.contains(input.as_str()) && msg.contains(first.as_str()) && msg.contains(second.as_str()));
    assert!(msg.contains("nondeterministic"), "{msg}");
}

#[test]
fn a_custom_compare_decides_which_output_differences_kill() {
    let _g = lock();
    // Only the bucket counts: the arithmetic mutants' differences are ignored.
    let mut c = Campaign::new(config(1), catalog(), target).unwrap().with_compare(|a, b| a.0 == b.0);
    c.run_trials(1000).unwrap();
    let killed: Vec<u32> =
        c.kills().iter().map(|k| k.mutant).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    assert_eq!(killed, [1, 2, 3, 4]);
}

#[test]
fn sampling_k_mutants_bounds_the_runs_per_trial() {
    let _g = lock();
    let cfg = CampaignConfig { sample: Some(1), ..config(4) };
    let mut c = Campaign::new(cfg, catalog(), target).unwrap();
    c.run_trials(200).unwrap();
    let stats = c.stats();
    assert!(stats.mutant_runs <= stats.trials && stats.mutant_runs > 0, "{stats:?}");
}

#[test]
fn with_targets_only_they_run_and_the_counts_are_of_them_only() {
    let _g = lock();
    // Mutant 8 shares its site with 7; 6 is never reached; 42 is in no catalog.
    let targets = Some(std::sync::Arc::new([1, 5, 6, 8, 42].into_iter().collect()));
    let cfg = CampaignConfig { targets, sample: Some(1), ..config(1) };
    let mut c = Campaign::new(cfg, catalog(), target).unwrap();
    c.run_trials(1000).unwrap();
    let status: BTreeMap<u32, _> = c.mutants().map(|m| (m.info.id, m)).collect();
    let ran: Vec<u32> = status.values().filter(|m| m.runs > 0).map(|m| m.info.id).collect();
    assert_eq!(ran, [1, 5, 8], "only reached targets run");
    let targets: Vec<u32> = status.values().filter(|m| m.target).map(|m| m.info.id).collect();
    assert_eq!(targets, [1, 5, 6, 8]);
    let mut killed: Vec<u32> = c.kills().iter().map(|k| k.mutant).collect();
    killed.sort_unstable();
    assert_eq!(killed, [1, 8]);
    let stats = c.stats();
    assert_eq!((stats.mutants_total, stats.mutants_seen, stats.mutants_killed), (4, 3, 2));
    // The bound of one run per trial is spent on targets: mutant 5 (equivalent) took every
    // trial's run once 1 and 8 died, and each target of a hit site counts as reached.
    assert!(stats.mutant_runs <= stats.trials, "{stats:?}");
    assert_eq!(stats.mutant_runs, status.values().map(|m| m.runs).sum::<u64>());
    assert_eq!(status[&5].runs + status[&1].runs + status[&8].runs, stats.mutant_runs);
}

#[test]
fn muzest_reruns_killed_mutants_and_scales_the_children_of_killers() {
    let _g = lock();
    let run = |guidance| {
        let cfg = CampaignConfig { guidance, ..config(5) };
        let mut c = Campaign::new(cfg, catalog(), target).unwrap();
        c.run_trials(1500).unwrap();
        c
    };
    let p = run(GuidanceKind::MuzestP);
    let n = run(GuidanceKind::MuzestN);
    for c in [&p, &n] {
        // Mutant 4 (an index out of bounds) dies on nearly every input, and runs again
        // after its first kill: μZest rewards inputs that kill it again.
        let m4 = c.mutants().find(|m| m.info.id == 4).unwrap();
        assert!(m4.killed.is_some() && m4.runs > 1, "{m4:?}");
        // At most MUZEST_SAMPLE mutants per trial.
        let stats = c.stats();
        assert!(stats.mutant_runs <= stats.trials * mutfuzz::MUZEST_SAMPLE as u64, "{stats:?}");
        assert!(stats.boosted > 0, "{stats:?}");
    }
    // P-μZest never divides (N-μZest divides the children of inputs kept for new coverage
    // that kill only old mutants: the guidance's unit test shows it).
    assert_eq!(p.stats().reduced, 0);
    assert_eq!((p.guidance_name(), n.guidance_name()), ("muzest-p", "muzest-n"));
}

#[test]
fn a_background_mutant_is_the_program_and_its_panics_are_kept_apart_from_failures() {
    let _g = lock();
    let dir = tempfile::tempdir().unwrap();
    // Mutant 4 indexes out of bounds on every input; the original never panics.
    let cfg = CampaignConfig { background: Some(4), dir: Some(dir.path().to_path_buf()), ..config(2) };
    let mut c = Campaign::new(cfg, catalog(), target).unwrap();
    c.run_trials(300).unwrap();
    assert_eq!(c.guidance_name(), "coverage", "a mutants-first phase is coverage-guided");
    let stats = c.stats();
    assert_eq!((stats.mutant_runs, stats.failures, stats.mutants_killed), (0, 0, 0), "{stats:?}");
    // One record per distinct message (the index differs): at most four.
    assert!((1..=4).contains(&stats.mutant_panics), "{stats:?}");
    let files = mutfuzz::contract::CampaignDir::new(dir.path());
    let records = mutfuzz::contract::read_jsonl::<mutfuzz::FailureRecord>(&files.mutant_panic_log()).unwrap();
    assert_eq!(records.records.len(), stats.mutant_panics);
    for r in &records.records {
        assert_eq!(r.mutant, Some(4));
        assert!(r.message.contains("index out of bounds"), "{r:?}");
        assert!(files.mutant_panics().join(&r.input).is_file());
    }
    assert!(std::fs::read_to_string(files.failure_log()).unwrap_or_default().is_empty());
}

/// Runs only the mutants of one site: a selection strategy is a plug-in, not a loop edit.
struct OnlySite(u32);

impl Selector for OnlySite {
    fn name(&self) -> &'static str {
        "only-site"
    }

    fn select(&mut self, sites: &TrialSites<'_>, table: &MutantTable, _rng: &mut Rng, out: &mut Vec<u32>) {
        if sites.hits.contains(&self.0) {
            out.extend(table.at_site(self.0).iter().filter(|&&mi| table.killed(mi).is_none()));
        }
    }
}

#[test]
fn a_custom_selector_decides_which_mutants_run() {
    let _g = lock();
    let all = {
        let mut c = Campaign::new(config(4), catalog(), target).unwrap();
        c.run_trials(400).unwrap();
        c.mutants().filter(|m| m.runs > 0).map(|m| m.info.site).collect::<std::collections::BTreeSet<_>>()
    };
    assert!(all.len() > 1, "{all:?}");
    let site = *all.iter().next().unwrap();
    let mut c = Campaign::new(config(4), catalog(), target).unwrap().with_selector(Box::new(OnlySite(site)));
    c.run_trials(400).unwrap();
    assert_eq!(c.selector_name(), "only-site");
    assert!(c.mutants().all(|m| m.runs == 0 || m.info.site == site));
    assert!(c.mutants().any(|m| m.runs > 0));
    assert!(c.kills().iter().all(|k| k.site == site));
}

#[test]
fn the_previous_panic_hook_is_back_after_a_run() {
    let _g = lock();
    static HOOK_CALLS: AtomicU32 = AtomicU32::new(0);
    let before = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {
        HOOK_CALLS.fetch_add(1, Ordering::Relaxed);
    }));
    let mut c = Campaign::new(config(1), catalog(), target).unwrap();
    c.run_trials(50).unwrap();
    // Mutant 4 panicked during the run, quietly.
    assert_eq!(HOOK_CALLS.load(Ordering::Relaxed), 0);
    let _ = std::panic::catch_unwind(|| panic!("after the campaign"));
    assert_eq!(HOOK_CALLS.load(Ordering::Relaxed), 1);
    std::panic::set_hook(before);
}

// ---- drift: a mutant that changes global state the original reads -----------------
//
// site 11: mutant 11  `if false { LEVEL = 5 }` → `if true`   poisons every later run
// site 12: mutant 12  `if false { LEVEL = 1 }` → `if true`   equivalent in a clean process

static LEVEL: AtomicU32 = AtomicU32::new(1);

fn leveled(x: u8) -> u32 {
    let __m = enter();
    if at(__m, 11, 1) == 1 {
        LEVEL.store(5, Ordering::Relaxed);
    }
    if at(__m, 12, 1) == 1 {
        LEVEL.store(1, Ordering::Relaxed);
    }
    u32::from(x) * LEVEL.load(Ordering::Relaxed)
}

#[test]
fn a_mutant_that_poisons_global_state_is_found_in_a_clean_process_and_nothing_else_is_killed() {
    let _g = lock();
    let dir = tempfile::tempdir().unwrap();
    let catalog = || vec![MutantInfo::new(11, 11), MutantInfo::new(12, 12)];
    let cfg = CampaignConfig { dir: Some(dir.path().to_path_buf()), sample: Some(0), ..config(5) };
    LEVEL.store(1, Ordering::Relaxed);
    let mut c = Campaign::new(cfg.clone(), catalog(), leveled).unwrap();
    let err = c.run_trials(50).unwrap_err();
    let Error::Drift { suspects, .. } = &err else { panic!("{err}") };
    assert!(suspects.contains(&11), "{err}");
    assert!(err.to_string().starts_with("global state drifted: after mutants "), "{err}");
    // Nothing of the drifted trial was kept: mutant 12's kill there would be false.
    assert!(c.kills().iter().all(|k| k.mutant != 12), "{:?}", c.kills());
    let drift = dir.path().join("drift.json");
    let record: mutfuzz::contract::DriftRecord =
        serde_json::from_str(&std::fs::read_to_string(&drift).unwrap()).unwrap();
    assert_eq!(&record.suspects, suspects);

    // A clean process (the global as a fresh one has it) runs the suspects alone.
    LEVEL.store(1, Ordering::Relaxed);
    let mut c = Campaign::new(cfg.clone(), catalog(), leveled).unwrap();
    c.resume_from_dir().unwrap();
    let err = c.settle_drift().unwrap_err();
    assert!(matches!(&err, Error::Drift { suspects, .. } if suspects == &[11]), "{err}");
    let kill = c.kills().iter().find(|k| k.mutant == 11).expect("mutant 11 is killed");
    assert_eq!(kill.kind, KillKind::OutputDiffers);
    assert!(dir.path().join("corpus").join(&kill.input).is_file());

    // The next clean process settles what is left and fuzzes on: 12 survives.
    LEVEL.store(1, Ordering::Relaxed);
    let mut c = Campaign::new(cfg, catalog(), leveled).unwrap();
    c.resume_from_dir().unwrap();
    c.settle_drift().unwrap();
    assert!(!drift.exists());
    c.run_trials(200).unwrap();
    let killed: Vec<u32> = c.kills().iter().map(|k| k.mutant).collect();
    assert_eq!(killed, [11], "on disk: {}", std::fs::read_to_string(dir.path().join("kills.jsonl")).unwrap());
}
