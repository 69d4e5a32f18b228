//! `cargo mutfuzz fuzz --strategy mutants-first` ("First, fuzz the mutants", Groce et
//! al.): spend a share of the budget fuzzing selected mutants one at a time — each the
//! program in every run, coverage-guided, no rebuild — then fuzz the original seeded with
//! the corpus those phases grew.
//!
//! `cumulative` carries one corpus from mutant to mutant; `parallel` starts each mutant
//! from the original's corpus and merges what they found. Inputs on which a mutant
//! panics and the original does not go to the phase's `mutant-panics/` (fault-prone
//! code), never to the failures of the original.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use mutfuzz_contract::{CampaignDir, store_new};

use crate::catalog::fpf;
use crate::fuzzing::harness::Built;
use crate::fuzzing::settings::{Carry, FuzzSettings, Select};
use crate::fuzzing::{self, Ended, Files, Stop};

/// Mutants fuzzed when no `--per-mutant` budget says how many fit.
pub const DEFAULT_MUTANTS: u64 = 8;

/// One mutant phase's share of the budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Share {
    /// Wall time.
    Time(Duration),
    /// Trials.
    Trials(u64),
}

/// The budget of each mutant phase and how many phases there are, from the whole
/// campaign's budget (`time` or `trials`), the mutant share and `--per-mutant`.
pub fn plan(
    time: Option<Duration>,
    trials: Option<u64>,
    share: f64,
    per_mutant: Option<Duration>,
) -> (Share, u64) {
    match (time, trials) {
        (Some(total), _) => {
            let phase = total.mul_f64(share);
            let per = per_mutant.unwrap_or(phase / DEFAULT_MUTANTS as u32).max(Duration::from_secs(1));
            (Share::Time(per), (phase.as_secs_f64() / per.as_secs_f64()).floor() as u64)
        }
        (None, Some(total)) => {
            let phase = (total as f64 * share) as u64;
            let per = (phase / DEFAULT_MUTANTS).max(1);
            (Share::Trials(per), phase / per)
        }
        (None, None) => (Share::Trials(0), 0),
    }
}

/// The mutants to fuzz, in order: the first `n` viable ones by `select`.
pub fn choose(built: &Built, select: Select, seed: u64, n: usize) -> Vec<u32> {
    let viable: Vec<u32> = built.viable().map(|m| m.id).collect();
    match select {
        Select::Fpf => {
            let points = fpf::points(&built.discovery);
            let index: std::collections::HashMap<u32, usize> =
                built.discovery.mutants.iter().enumerate().map(|(i, m)| (m.id, i)).collect();
            let viable_points: Vec<fpf::Point> = viable.iter().map(|id| points[index[id]].clone()).collect();
            fpf::rank(&viable_points, n).into_iter().map(|i| viable[i]).collect()
        }
        Select::Random => {
            // A seeded Fisher–Yates shuffle (splitmix64): the same seed, the same mutants.
            let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
            let mut next = move || {
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            };
            let mut ids = viable;
            for i in (1..ids.len()).rev() {
                ids.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            ids.truncate(n);
            ids
        }
    }
}

/// What the mutant phases did, for the summary.
#[derive(Clone, Debug, Default)]
pub struct Phases {
    /// Per mutant: its id, trials, inputs its corpus gained, inputs on which it panicked.
    pub mutants: Vec<(u32, u64, usize, usize)>,
    /// Inputs the phases added to the original's corpus.
    pub carried: usize,
    /// Wall time of the mutant phases.
    pub elapsed: Duration,
    /// Whether an interrupt cut them short.
    pub interrupted: bool,
}

/// Runs the mutant phases, then merges their corpora into `files.corpus`.
pub fn mutant_phases(built: &Built, args: &FuzzSettings, files: &Files) -> Result<Phases> {
    let start = std::time::Instant::now();
    let (share, n) = plan(args.time, args.trials, args.mutant_share, args.per_mutant);
    let chosen = choose(built, args.select, args.seed, n as usize);
    let root = files.state.path().join("mutants-first");
    let carried_corpus = root.join("corpus");
    if args.carry == Carry::Cumulative {
        copy_inputs(&files.corpus, &carried_corpus)?;
    }
    let mut phases = Phases::default();
    eprintln!(
        "Mutants first: {} mutants ({} selection, {} corpus), {} each",
        chosen.len(),
        args.select,
        args.carry,
        match share {
            Share::Time(t) => crate::console::duration(t),
            Share::Trials(n) => format!("{n} trials"),
        }
    );
    for &id in &chosen {
        let phase_dir = root.join(format!("mutant-{id}"));
        let corpus = match args.carry {
            Carry::Cumulative => carried_corpus.clone(),
            Carry::Parallel => {
                let own = phase_dir.join("corpus");
                copy_inputs(&files.corpus, &own)?;
                own
            }
        };
        let before = fuzzing::count_files(&corpus);
        let mut phase_args = args.clone();
        phase_args.background = Some(id);
        phase_args.time = None;
        phase_args.trials = None;
        match share {
            Share::Time(t) => phase_args.time = Some(t),
            Share::Trials(n) => phase_args.trials = Some(n),
        }
        let state = CampaignDir::new(phase_dir.join("state"));
        let phase_files = Files { state: state.clone(), corpus: corpus.clone() };
        let name = built.discovery.mutants.iter().find(|m| m.id == id).map(|m| m.name()).unwrap_or_default();
        eprintln!("Phase: mutant {id} ({name})");
        let ended: Ended = match fuzzing::campaign(built, &phase_args, &phase_files) {
            Ok(ended) => ended,
            // A mutant that takes the process down on every input (a crash in the code
            // it feeds to `unsafe`, say) ends its own phase, not the campaign.
            Err(e) if !crate::process::interrupt::interrupted() => {
                eprintln!("  mutant {id}: {e:#}; its phase ends here");
                phases.mutants.push((id, 0, 0, 0));
                continue;
            }
            Err(e) => return Err(e),
        };
        let panics = fuzzing::count_files(&state.mutant_panics());
        let gained = fuzzing::count_files(&corpus).saturating_sub(before);
        eprintln!(
            "  {} trials; corpus +{gained}; {panics} inputs on which it panics and the original does not",
            ended.trials
        );
        phases.mutants.push((id, ended.trials, gained, panics));
        if matches!(ended.stop, Stop::Interrupted) {
            phases.interrupted = true;
            break;
        }
    }
    // Carry over: every input of the phases into the original's corpus.
    let before = fuzzing::count_files(&files.corpus);
    match args.carry {
        Carry::Cumulative => copy_inputs(&carried_corpus, &files.corpus)?,
        Carry::Parallel => {
            for &(id, ..) in &phases.mutants {
                copy_inputs(&root.join(format!("mutant-{id}")).join("corpus"), &files.corpus)?;
            }
        }
    }
    phases.carried = fuzzing::count_files(&files.corpus).saturating_sub(before);
    phases.elapsed = start.elapsed();
    eprintln!(
        "Mutants first: {} mutants fuzzed in {}; {} new inputs carried to the original's corpus",
        phases.mutants.len(),
        crate::console::duration(phases.elapsed),
        phases.carried
    );
    Ok(phases)
}

/// Copies every stored input of `from` (if it exists) into `to`, by name, once.
fn copy_inputs(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("failed to create {}", to.display()))?;
    let Ok(entries) = std::fs::read_dir(from) else { return Ok(()) };
    for entry in entries {
        let entry = entry.with_context(|| format!("failed to read {}", from.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let bytes: Vec<u8> = std::fs::read(entry.path())
            .with_context(|| format!("failed to read {}", entry.path().display()))?;
        store_new(to, &name, &bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_split_by_the_share_and_the_per_mutant_budget() {
        let s = Duration::from_secs;
        assert_eq!(plan(Some(s(80)), None, 0.5, None), (Share::Time(s(5)), 8));
        assert_eq!(plan(Some(s(80)), None, 0.5, Some(s(10))), (Share::Time(s(10)), 4));
        assert_eq!(plan(Some(s(80)), None, 0.25, Some(s(30))), (Share::Time(s(30)), 0), "no mutant fits");
        assert_eq!(plan(None, Some(16_000), 0.5, None), (Share::Trials(1000), 8));
        assert_eq!(plan(None, None, 0.5, None).1, 0);
    }
}
