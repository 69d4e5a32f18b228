//! The `infection` guidance on a hand-written schema whose mutant is easy to infect and
//! hard to propagate: the guidance keeps the first input that infects it (which neither
//! kills nor reaches new code, so `mu2` drops it), and its children kill the mutant on
//! seeds where `mu2` finds nothing.
//!
//! The run-time's active mutant is process-global: every test takes `LOCK`.

use std::sync::Mutex;

use mutfuzz::guidance::{Energy, INFECT_FACTOR};
use mutfuzz::{Campaign, CampaignConfig, Gen, GuidanceKind, MutantInfo, Rng, Source};
use mutfuzz_rt::{PROBE, arith, at_probe, class, enter, infect_if};

static LOCK: Mutex<()> = Mutex::new(());

#[derive(Debug, Gen)]
struct Pair {
    x: u8,
    y: u8,
}

// site 1: mutant 1, `x > 10` → `x >= 10`: infected by x == 10 only (the outcome flips),
// and the flip reaches the output only when also y == 0xab.
fn target(p: Pair) -> bool {
    let __m = enter();
    let big = {
        let (__l, __r) = (&p.x, &10u8);
        match at_probe(__m, 1, 1) {
            1 => __l >= __r,
            PROBE => {
                let __o = __l > __r;
                infect_if(1, (__l >= __r) != __o);
                __o
            }
            _ => __l > __r,
        }
    };
    big && p.y == 0xab
}

fn catalog() -> Vec<MutantInfo> {
    vec![MutantInfo { id: 1, site: 1, probe: true }]
}

fn pair(bytes: &[u8]) -> Pair {
    Source::new(bytes, Rng::new(0)).draw()
}

fn campaign(guidance: GuidanceKind, seed: u64, trials: u64) -> Campaign<Pair, bool> {
    let config = CampaignConfig { guidance, seed, ..CampaignConfig::default() };
    let mut c = Campaign::new(config, catalog(), target).unwrap();
    c.run_trials(trials).unwrap();
    c
}

/// The kept inputs that infect mutant 1 without killing it, with their energy.
fn infectors(c: &Campaign<Pair, bool>) -> Vec<Energy> {
    let entries = c.corpus().entries().iter();
    entries
        .filter(|e| {
            let p = pair(e.input.as_bytes());
            p.x == 10 && p.y != 0xab
        })
        .map(|e| e.energy)
        .collect()
}

#[test]
fn the_infection_guidance_keeps_the_first_infecting_input_and_mu2_does_not() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    // Seed 0's first input has x == 4; x == 10 comes at trial 680, the kill after 2,000.
    let c = campaign(GuidanceKind::Infection, 0, 1000);
    assert_eq!(infectors(&c), [Energy::Times(INFECT_FACTOR)], "one input, kept for its infection");
    assert_eq!(c.stats().mutants_infected, 1);
    assert!(c.table().infected_by_saved(0));
    let c = campaign(GuidanceKind::Mu2, 0, 1000);
    assert_eq!(infectors(&c), []);
    assert_eq!(c.stats().mutants_infected, 0, "mu2 does not track infections");
}

#[test]
fn the_infecting_inputs_children_propagate_where_mu2s_do_not() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let killed = |guidance| {
        let seeds = (0..8).filter(|&seed| !campaign(guidance, seed, 4000).kills().is_empty());
        seeds.collect::<Vec<u64>>()
    };
    // Mu2 kills only where the first input has x == 10 (seed 3); the infecting inputs
    // kept, and the focus on the live mutant they infect, kill on most seeds.
    assert_eq!(killed(GuidanceKind::Infection), [2, 4, 5, 6, 7]);
    assert_eq!(killed(GuidanceKind::Mu2), [3]);
}

// site 1: mutant 1, `x + y` → `x - y`, whose result never reaches the output: infected
// lower (0 < y <= x), as a fault (y > x: the subtraction would overflow) or unclassified
// (x + y > 255: the probe cannot compute the original either); never killed.
fn hidden_sum(p: Pair) -> bool {
    let __m = enter();
    let (__l, __r) = (p.x, p.y);
    let sum = match at_probe(__m, 1, 1) {
        1 => __l.wrapping_sub(__r),
        PROBE => {
            arith(&__l, &__r, "+", &[(1, "-")]);
            __l.wrapping_add(__r)
        }
        _ => __l.wrapping_add(__r),
    };
    let _ = sum;
    true
}

#[test]
fn an_input_that_infects_a_mutant_in_a_new_class_is_kept_too() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let run = |guidance| {
        let config = CampaignConfig { guidance, seed: 0, ..CampaignConfig::default() };
        let mut c = Campaign::new(config, catalog(), hidden_sum).unwrap();
        c.run_trials(2000).unwrap();
        c
    };
    let c = run(GuidanceKind::Infection);
    assert!(c.kills().is_empty());
    assert_eq!(c.table().saved_infection_classes(0), class::OTHER | class::LOWER | class::FAULT);
    assert_eq!(c.stats().mutants_infected, 1, "one mutant, in three classes");
    let kept: Vec<Pair> = c.corpus().entries().iter().map(|e| pair(e.input.as_bytes())).collect();
    assert!(kept.iter().any(|p| p.y > p.x), "{kept:?}");
    assert!(kept.iter().any(|p| 0 < p.y && p.y <= p.x), "{kept:?}");
    assert_eq!(run(GuidanceKind::Mu2).table().saved_infection_classes(0), 0);
}

// site 1: mutants 1 to 12, each infected by every input and none reaching the output.
fn twelve_infected(p: Pair) -> (u8, u8) {
    let __m = enter();
    if at_probe(__m, 1, 12) == PROBE {
        for id in 1..=12 {
            infect_if(id, true);
        }
    }
    (p.x, p.y)
}

#[test]
fn a_child_made_for_a_focused_target_runs_it_beside_the_sample() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let trials = 1000;
    let runs = |guidance| {
        // At most 4 mutant runs a trial, the least run first, as `fuzz` runs them.
        let config = CampaignConfig { guidance, seed: 0, sample: Some(4), ..CampaignConfig::default() };
        let catalog = (1..=12).map(|id| MutantInfo { id, site: 1, probe: true }).collect();
        let mut c = Campaign::new(config, catalog, twelve_infected).unwrap();
        c.run_trials(trials).unwrap();
        assert!(c.kills().is_empty());
        c.stats().mutant_runs
    };
    // Every input infects all twelve; `mu2`, which does not track infections, runs the
    // 4 that ran least.
    assert_eq!(runs(GuidanceKind::Mu2), 4 * trials);
    // One trial in two is a child made for a target, which runs when the sample left
    // it out (two times in three).
    let focused = runs(GuidanceKind::Infection);
    assert!(focused > 4 * trials + 200, "{focused} runs in {trials} trials");
}
