//! The harness's `fuzz` command: a campaign over one target, with its workers, its
//! protocol lines on stdout and its `stats.csv`.

use std::borrow::Cow;
use std::fmt::Debug;
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mutfuzz_contract::command::{COMPARE_CHANCE, DICTIONARY_CHANCE, FuzzRequest};
use mutfuzz_contract::{
    CampaignDir, EXIT_DRIFT, EXIT_ERROR, EXIT_SUCCESS, Hints, Line, NondeterministicRecord, Stats,
};

use super::{oracle_for, protocol, report, targets};
use crate::campaign::{Campaign, Event};
use crate::clock::Clock;
use crate::config::CampaignConfig;
use crate::edit::{DictionaryEdit, EditKind, Informed, TypeTargets};
use crate::error::HarnessError;
use crate::r#gen::Gen;
use crate::input::Dictionary;
use crate::mutants::MutantInfo;
use crate::oracle::Judging;
use crate::workers::Workers;

pub(super) fn fuzz<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &FuzzRequest,
    target: fn(T) -> O,
    compare: Option<fn(&O, &O) -> bool>,
    judging: Judging,
) -> Result<i32, HarnessError> {
    let state = r.state.clone();
    let corpus = r.corpus.clone();
    let mutants = MutantInfo::load(&r.mutants)?;
    let config = CampaignConfig {
        seed: r.seed,
        guidance: r.guidance,
        edit: r.edit,
        schedule: r.schedule,
        prune: r.prune,
        sample: r.sample.map(|k| usize::try_from(k).unwrap_or(usize::MAX)),
        verify_pruning: r.verify_pruning,
        check_drift: !r.no_drift_check,
        resumed: r.resumed,
        kill_factor: r.kill_factor,
        infect_factor: r.infect_factor,
        focus: r.focus,
        targets: targets(r.mutants_file.as_deref(), &mutants)?,
        background: r.background,
        isolate: r.isolate,
        // A tuning knob (and what tests use to force parallel runs on small targets).
        parallel_min_work: std::env::var("MUTFUZZ_PARALLEL_MIN_WORK")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(crate::config::PARALLEL_MIN_WORK),
        dir: Some(state.clone()),
        corpus_dir: Some(corpus),
        panics_by_contract: judging.panics_by_contract,
        tolerate_nondeterminism: judging.generated,
        ..CampaignConfig::default()
    };
    let mut config = config;
    let edit = strategies(r, &mut config)?;
    let mut campaign = Campaign::new(config, mutants, target)?
        .with_oracle(oracle_for(compare))
        .with_edit(Box::new(edit))
        .with_events({
            let target = r.target.clone();
            move |e| match e {
                Event::Trial(bytes) => protocol(Line::Trial(Cow::Borrowed(bytes))),
                Event::Mutant(id) => protocol(Line::Mutant(id)),
                // Not a trial: a death there is blamed on no mutant and no input.
                Event::RecordAgain => protocol(Line::Engine),
                Event::Nondeterministic(record) => protocol(Line::Note(Cow::Owned(record.describe(&target)))),
                Event::NondeterministicInput(record) => {
                    protocol(Line::Note(Cow::Owned(record.describe_input(&target))))
                }
            }
        });
    if r.hand_over {
        campaign = campaign.with_hand_over(super::hand_over);
    }
    let jobs = usize::try_from(r.jobs.unwrap_or(1)).unwrap_or(usize::MAX);
    // One worker, a sentry for the isolated runs, when there are no workers to share the
    // runs: not for a guidance that runs no mutants, nor for a background mutant.
    let sentry = jobs <= 1
        && r.isolate != crate::Isolate::None
        && r.background.is_none()
        && crate::guidance::build(r.guidance, None, None).runs_mutants();
    if jobs > 1 || sentry {
        let workers = Workers::of_harness(jobs.max(2) - 1, &r.target, &r.workers)?
            // Waiting for a worker, this process prints nothing else: say it is alive.
            .with_heartbeat(|| protocol(Line::Alive));
        campaign = if sentry { campaign.with_sentry(workers) } else { campaign.with_workers(workers) };
    }
    campaign.resume_from_dir()?;
    if campaign.judges_any_output() {
        // Found by an earlier process: said again, the supervisor shows it once per command.
        let path = CampaignDir::new(&state).nondeterministic();
        if let Ok(Some(record)) = NondeterministicRecord::read(&path) {
            protocol(Line::Note(Cow::Owned(record.describe(&r.target))));
        }
    }
    let clock = Clock::start(r.cpu_time);
    // A drift found by the process before: find its cause here, in a clean process.
    if let Err(e) = campaign.settle_drift() {
        return Ok(stop(&campaign, &e, &clock));
    }

    let csv_path = CampaignDir::new(&state).stats_csv();
    let mut csv = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&csv_path)
        .map_err(|e| HarnessError::io(format!("write {}", csv_path.display()), e))?;
    if csv.metadata().map(|m| m.len() == 0).unwrap_or(false) {
        let _ = csv.write_all(Stats::CSV_HEADER.as_bytes());
    }
    let budget = r.time.map(|t| Duration::from_secs_f64(t.max(0.0)));
    // A campaign aimed at given mutants (`amplify`'s survivors) ends once all are killed:
    // the rest of its budget could kill nothing.
    let aimed = r.mutants_file.is_some();
    let mut last_report = Instant::now();
    loop {
        let stats = campaign.stats();
        let trials_left = r.trials.map(|n| n.saturating_sub(stats.trials));
        if trials_left == Some(0)
            || budget.is_some_and(|b| clock.elapsed() >= b)
            || (aimed && stats.all_killed())
        {
            break;
        }
        // Small slices keep the stats line and the stop conditions timely.
        let step = trials_left.unwrap_or(u64::MAX).min(16);
        if let Err(e) = campaign.run_trials(step) {
            return Ok(stop(&campaign, &e, &clock));
        }
        if last_report.elapsed() >= Duration::from_secs(1) {
            last_report = Instant::now();
            let s = campaign.stats();
            let elapsed = clock.elapsed();
            protocol(Line::Stats(report(s, elapsed)));
            let _ = csv.write_all(s.csv_row(elapsed.as_secs_f64()).as_bytes());
        }
    }
    // The last counters always make a row: a short campaign has one at least.
    let _ = csv.write_all(campaign.stats().csv_row(clock.elapsed().as_secs_f64()).as_bytes());
    protocol(Line::Done(report(campaign.stats(), clock.elapsed())));
    Ok(EXIT_SUCCESS)
}

/// The input strategies the request and the static pass's hints allow: the dictionary
/// for generators (in `config`) and the informed edit over the requested one (havoc or
/// the structure edits). Without a hints file, that edit with comparison feedback only.
fn strategies(r: &FuzzRequest, config: &mut CampaignConfig) -> Result<Informed, HarnessError> {
    let compare = r.compare.map_or(COMPARE_CHANCE, |p| p.get());
    let mut edit = Informed::new().with_compare(compare);
    // The informed parts come on top of the edit asked for, never instead of it.
    edit = match r.edit {
        EditKind::Havoc => edit,
        EditKind::Structure => edit.with_structure(),
    };
    let Some(path) = &r.hints else { return Ok(edit) };
    let text =
        std::fs::read_to_string(path).map_err(|e| HarnessError::io(format!("read {}", path.display()), e))?;
    let hints: Hints = serde_json::from_str(&text).map_err(|e| {
        HarnessError::Invalid(format!(
            "{} is not a valid hints file ({e}); run `cargo mutfuzz fuzz` again to rewrite it",
            path.display()
        ))
    })?;
    let chance = r.dictionary.map_or(DICTIONARY_CHANCE, |p| p.get());
    let lit = &hints.literals;
    let mut strings = lit.strings.clone();
    strings.extend(lit.bytes.iter().filter_map(|b| String::from_utf8(b.clone()).ok()));
    strings.retain(|s| !s.is_empty());
    strings.dedup();
    let dictionary = Arc::new(Dictionary::new(strings, lit.chars.clone(), lit.ints.clone(), chance));
    if chance > 0.0 && !dictionary.is_empty() {
        config.dictionary = Some(dictionary.clone());
        edit = edit.with_dictionary(DictionaryEdit::new(dictionary), chance);
    }
    if r.target_types {
        edit = edit.with_targets(TypeTargets::new(&hints));
    }
    Ok(edit)
}

/// Ends a campaign that cannot go on in this process: the error on stderr, the counters
/// (no run is under way any more, the supervisor learns), and the exit code: a drift is
/// [`EXIT_DRIFT`] (restart clean), anything else [`EXIT_ERROR`].
fn stop<T: Gen, O: Debug + 'static>(
    campaign: &Campaign<T, O>,
    e: &crate::error::Error,
    clock: &Clock,
) -> i32 {
    eprintln!("error: {e}");
    protocol(Line::Stats(report(campaign.stats(), clock.elapsed())));
    if matches!(e, crate::error::Error::Drift { .. }) { EXIT_DRIFT } else { EXIT_ERROR }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::edit::{Edit, Parent, entry_of};
    use crate::input::Rng;

    /// How many of 50 children of one parent replay with a rewrite (structure edits only).
    fn rewrites(edit: EditKind) -> usize {
        let r = FuzzRequest { edit, ..FuzzRequest::default() };
        let mut informed = strategies(&r, &mut CampaignConfig::default()).unwrap();
        let (_, entry, spans) = entry_of::<Vec<(u8, Option<String>)>>(3);
        let parent = Parent::new(&entry, &spans);
        let (mut rng, mut out) = (Rng::new(1), Vec::new());
        (0..50)
            .filter(|_| informed.edit_structured(&parent, &Corpus::new(), &mut rng, &mut out).is_some())
            .count()
    }

    #[test]
    fn the_requested_edit_is_the_one_the_informed_parts_sit_on() {
        assert_eq!(rewrites(EditKind::Havoc), 0);
        assert!(rewrites(EditKind::Structure) > 20, "{}", rewrites(EditKind::Structure));
    }
}
