//! `fuzz --all`: every target of a harness fuzzed within one budget, slice by slice as
//! [`slices`] schedules them. Each target keeps its own campaign (state
//! directory and corpus), which its next slice resumes; a target that accepts no input
//! (every input discarded by `mutfuzz::assume`, or the original panicking on each) or
//! whose campaign fails is reported and dropped from the schedule.

use std::collections::{BTreeSet, HashSet};
use std::time::{Duration, Instant};

use anyhow::Result;
use mutfuzz_contract::{KillRecord, Stats};

use super::campaign::{Ended, Files, Start, Stop, campaign_from, count_files};
use super::slices::{self, Arm, SliceResult};
use crate::console;
use crate::console::exit_code;
use crate::fuzzing::harness::Built;
use crate::fuzzing::records;
use crate::fuzzing::settings::{FuzzSettings, Strategy};
use crate::process::interrupt;

/// The smallest slice of a trial budget: fewer trials would be mostly harness start-up.
pub const MIN_SLICE_TRIALS: u64 = 10;

/// The smallest slice of a time budget, in seconds: the harness counts whole seconds.
pub const MIN_SLICE_SECS: u64 = 1;

/// Trials a target must have run, every one discarded or panicking, before it is dropped:
/// a target with a strict `assume` that some inputs pass shows one well before this.
pub const DROP_AFTER_TRIALS: u64 = 100;

/// What the budget counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Trials (`--trials`; a `--time` given too is a deadline over every slice).
    Trials,
    /// Whole seconds of wall time, or of CPU time with `--cpu-time` (`--time`).
    Seconds,
}

/// One target's part of the run.
#[derive(Debug)]
pub struct TargetRun {
    /// The target.
    pub target: String,
    /// Its corpus and state.
    pub files: Files,
    /// Slices it got.
    pub slices: u32,
    /// Trials it ran (a later slice's replay of the stored corpus not counted).
    pub trials: u64,
    /// Time its slices took (CPU time with `--cpu-time`).
    pub elapsed: Duration,
    /// The last counters its harness printed.
    pub last: Option<Stats>,
    /// Trials over its slices' last harness processes, and how many of them the original
    /// discarded or panicked on.
    pub seen: u64,
    pub invalid: u64,
    /// Why it left the schedule, if it did.
    pub dropped: Option<String>,
    /// Inputs on which its original panicked by contract (a generated target), over its
    /// slices.
    pub contract_panics: u64,
    /// The most mutants of those it was aimed at that one of its processes reached (a
    /// process counts from its start, replaying the corpus first).
    pub reached: usize,
}

impl TargetRun {
    /// Viable mutants its campaign killed (kills recorded in its state, over all time).
    pub fn killed(&self, viable: &HashSet<u32>) -> Result<HashSet<u32>> {
        let kills = records::read::<KillRecord>(&self.files.state.kills())?;
        Ok(kills.into_iter().map(|k| k.mutant).filter(|m| viable.contains(m)).collect())
    }
}

/// How `fuzz --all` ended.
#[derive(Debug)]
pub struct AllEnded {
    /// Why it stopped.
    pub stop: Stop,
    /// The budget's unit.
    pub unit: Unit,
    /// Time over every slice (CPU time with `--cpu-time`).
    pub elapsed: Duration,
    /// Every target, in the harness's order.
    pub runs: Vec<TargetRun>,
    /// The exit code of the first campaign that failed (the others went on).
    pub failed: Option<i32>,
}

impl AllEnded {
    /// Trials over every target.
    pub fn trials(&self) -> u64 {
        self.runs.iter().map(|r| r.trials).sum()
    }
}

/// The budget's unit, size and smallest slice, or what is wrong with the flags for
/// `--all`; with the number of `targets`, also whether each can get that slice (without,
/// before the harness is built and lists them, the flags alone are checked).
pub fn budget(args: &FuzzSettings, targets: Option<usize>) -> Result<(Unit, u64, u64)> {
    if args.strategy == Strategy::MutantsFirst {
        return Err(exit_code::usage(anyhow::anyhow!(
            "--strategy mutants-first splits one target's budget into phases and cannot run in the \
             slices of --all: fuzz a target with it alone (`cargo mutfuzz fuzz <target> --strategy \
             mutants-first`)"
        )));
    }
    let (unit, total, min) = match (args.trials, args.time) {
        (Some(n), _) => (Unit::Trials, n, MIN_SLICE_TRIALS),
        (None, Some(t)) => (Unit::Seconds, t.as_secs(), MIN_SLICE_SECS),
        (None, None) => {
            return Err(exit_code::usage(anyhow::anyhow!(
                "--all shares one budget among the targets: give --time or --trials"
            )));
        }
    };
    if let Some(targets) = targets.filter(|&n| slices::rounds(total, n, min).is_none()) {
        let (flag, what) = match unit {
            Unit::Trials => ("--trials", "trial"),
            Unit::Seconds => ("--time", "second"),
        };
        return Err(exit_code::usage(anyhow::anyhow!(
            "{flag} {total} gives each of the {targets} targets less than {}: give at least {} \
             (or fuzz fewer targets, one at a time)",
            console::count(min as usize, what),
            min * targets as u64
        )));
    }
    Ok((unit, total, min))
}

/// Fuzz every one of `targets` within `args`' budget, each into `files_of(target)`,
/// printing a line per slice. `args` applies to every target (its `target` is set per
/// slice). Stops early when interrupted or when every target is dropped.
pub fn fuzz_all(
    built: &Built,
    targets: &[String],
    args: &FuzzSettings,
    files_of: &dyn Fn(&str) -> Files,
) -> Result<AllEnded> {
    let (unit, total, min) = budget(args, Some(targets.len()))?;
    let n_rounds = slices::rounds(total, targets.len(), min).expect("checked by budget");
    let viable: HashSet<u32> = built.viable().map(|m| m.id).collect();
    let mut arms = vec![Arm::default(); targets.len()];
    let mut runs: Vec<TargetRun> = targets
        .iter()
        .map(|t| TargetRun {
            target: t.clone(),
            files: files_of(t),
            slices: 0,
            trials: 0,
            elapsed: Duration::ZERO,
            last: None,
            seen: 0,
            invalid: 0,
            dropped: None,
            contract_panics: 0,
            reached: 0,
        })
        .collect();
    // Aimed at given mutants (`amplify`'s survivors), one kill of each is enough: a slice
    // aims at those no other target has killed yet, and the rounds end when none is left.
    let aimed = match &args.mutants_file {
        Some(file) => {
            let ids = mutfuzz::harness::read_mutants_file(file)
                .map_err(|e| exit_code::usage(anyhow::anyhow!(e)))?;
            Some(ids.into_iter().filter(|id| viable.contains(id)).collect::<BTreeSet<u32>>())
        }
        None => None,
    }
    .filter(|aimed| !aimed.is_empty());
    let aimed_at = aimed.as_ref().map_or_else(String::new, |ids| format!(", aimed at {}", ids.len()));
    eprintln!(
        "Fuzzing {}: {} viable mutants ({} unviable){aimed_at}; {} {} in up to {n_rounds} rounds",
        crate::console::count(targets.len(), "target"),
        viable.len(),
        built.unviable.len(),
        total,
        match unit {
            Unit::Trials => "trials",
            Unit::Seconds if args.cpu_time => "CPU seconds",
            Unit::Seconds => "seconds",
        }
    );
    let wall = Instant::now();
    // What the budget has spent: trials, and time as the campaigns count it.
    let (mut spent_trials, mut spent_time) = (0u64, Duration::ZERO);
    let left = |spent_trials: u64, spent_time: Duration| match unit {
        Unit::Trials => total.saturating_sub(spent_trials),
        // A part of a second is no slice: the harness counts whole seconds.
        Unit::Seconds => Duration::from_secs(total).saturating_sub(spent_time).as_secs(),
    };
    let deadline_left = |spent_time: Duration| args.time.map(|t| t.saturating_sub(spent_time));
    let mut failed = None;
    let mut stop = Stop::Budget;
    let mut slice_no = 0u64;
    'rounds: for round in 0..n_rounds {
        let plan = slices::next_round(&arms, left(spent_trials, spent_time), n_rounds - round, min);
        if plan.is_empty() {
            break;
        }
        let planned = plan.len();
        for (k, (i, units)) in plan.into_iter().enumerate() {
            if interrupt::interrupted() {
                stop = Stop::Interrupted;
                break 'rounds;
            }
            // Slices of a time budget overrun theirs by the harness's start-up, so a slice
            // leaves the minimum for each one after it in the round. The first round gives
            // every target its slice even past the budget, so none is starved; a later one
            // stops where the budget ends.
            let left_now = left(spent_trials, spent_time);
            let later = (planned - k - 1) as u64;
            let mut units = units.min(left_now.saturating_sub(min * later)).max(min);
            if round > 0 {
                units = units.min(left_now);
            }
            let mut deadline = deadline_left(spent_time);
            let ended_budget = left_now == 0 || deadline.is_some_and(|t| t < Duration::from_millis(500));
            if ended_budget && round > 0 {
                break 'rounds;
            }
            if round == 0 {
                deadline = deadline.map(|t| t.max(Duration::from_secs(MIN_SLICE_SECS)));
            }
            let mut a = args.clone();
            let own = runs[i].killed(&viable)?;
            if let Some(aimed) = &aimed {
                let mut by_others = HashSet::new();
                for (j, run) in runs.iter().enumerate() {
                    if j != i {
                        by_others.extend(run.killed(&viable)?);
                    }
                }
                if aimed.iter().all(|id| by_others.contains(id) || own.contains(id)) {
                    eprintln!("Every aimed mutant is killed: the rest of the budget is not spent");
                    stop = Stop::AllKilled;
                    break 'rounds;
                }
                // Its own kills stay in its list, so its counts (and `stats.csv`) only grow.
                let left = aimed.iter().filter(|id| !by_others.contains(id) || own.contains(id));
                let file = runs[i].files.state.path().join("aimed-mutants.txt");
                let text: String = left.map(|id| format!("{id}\n")).collect();
                std::fs::create_dir_all(runs[i].files.state.path())?;
                std::fs::write(&file, text)?;
                a.mutants_file = Some(file);
            }
            let run = &mut runs[i];
            a.target = run.target.clone();
            match unit {
                Unit::Trials => {
                    a.trials = Some(units);
                    a.time = deadline;
                }
                Unit::Seconds => a.time = Some(Duration::from_secs(units)),
            }
            let resumed = run.slices > 0;
            let start = Start {
                resumed,
                // Far apart, so no slice's seed is another's restart seed (seed + restarts).
                seed_offset: slice_no.wrapping_mul(1 << 20),
                replay: if resumed { stored_inputs(&run.files)? } else { 0 },
                quiet: true,
            };
            slice_no += 1;
            let killed_before = own.len();
            let corpus_before = count_files(&run.files.corpus);
            let ended = match campaign_from(built, &a, &run.files, start) {
                Ok(ended) => ended,
                Err(_) if interrupt::interrupted() => {
                    stop = Stop::Interrupted;
                    break 'rounds;
                }
                // A full disk stops every target alike.
                Err(e) if format!("{e:#}").contains("the disk is full") => return Err(e),
                Err(e) => {
                    failed.get_or_insert(exit_code::of_error(&e));
                    let why = format!("its campaign failed: {e:#}");
                    eprintln!("{}: {why}; dropped from the schedule", run.target);
                    run.dropped = Some(why);
                    arms[i].dropped = true;
                    continue;
                }
            };
            let Ended { stop: slice_stop, elapsed, trials, last, contract_panics } = ended;
            run.slices += 1;
            run.trials += trials;
            run.contract_panics += contract_panics;
            run.elapsed += elapsed;
            spent_trials += trials;
            spent_time += elapsed;
            if let Some(s) = last {
                run.last = Some(s);
                run.reached = run.reached.max(s.mutants_seen);
                run.seen += s.trials;
                run.invalid += s.discards + s.panics;
            }
            let killed_now = run.killed(&viable)?.len();
            let corpus_now = count_files(&run.files.corpus);
            let new_kills = killed_now.saturating_sub(killed_before) as u64;
            let new_inputs = corpus_now.saturating_sub(corpus_before) as u64;
            let spent = match unit {
                Unit::Trials => trials,
                Unit::Seconds => elapsed.as_secs_f64().round() as u64,
            };
            arms[i].history.push(SliceResult { spent, finds: new_kills + new_inputs });
            eprintln!(
                "round {}/{n_rounds}  {}: {} in {}: +{new_kills} killed, +{new_inputs} inputs \
                 (killed {killed_now}, corpus {corpus_now})",
                round + 1,
                run.target,
                match unit {
                    Unit::Trials => format!("{units} trials"),
                    Unit::Seconds => format!("{units}s"),
                },
                console::duration(elapsed),
            );
            let why = no_valid_input(run.seen, run.invalid, run.last)
                .or_else(|| aimed.as_ref().and_then(|_| reaches_none(run.seen, run.reached, run.last)));
            if let Some(why) = why {
                eprintln!("{}: {why}; dropped from the schedule", run.target);
                run.dropped = Some(why);
                arms[i].dropped = true;
            }
            if slice_stop == Stop::Interrupted {
                stop = Stop::Interrupted;
                break 'rounds;
            }
        }
    }
    let elapsed = if args.cpu_time { spent_time } else { wall.elapsed() };
    Ok(AllEnded { stop, unit, elapsed, runs, failed })
}

/// Inputs the harness will queue from a target's corpus (the valid files).
fn stored_inputs(files: &Files) -> Result<u64> {
    if !files.corpus.is_dir() {
        return Ok(0);
    }
    Ok(mutfuzz_contract::read_corpus(&files.corpus)?.inputs.len() as u64)
}

/// Trials after which a target aimed at given mutants that reached none of them leaves
/// the schedule.
const UNREACHED_AFTER_TRIALS: u64 = 1000;

/// Why a target aimed at given mutants (`amplify`'s survivors) is to leave the schedule:
/// over at least [`UNREACHED_AFTER_TRIALS`] trials, none of its processes reached one of
/// those it was aimed at (`reached`, the most any did). Its time goes to the targets
/// that do.
fn reaches_none(seen: u64, reached: usize, last: Option<Stats>) -> Option<String> {
    let last = last?;
    (seen >= UNREACHED_AFTER_TRIALS && last.mutants_total > 0 && reached == 0).then(|| {
        format!("none of its {seen} inputs reached one of the {} mutants it was aimed at", last.mutants_total)
    })
}

/// Why a target that has run `seen` trials, `invalid` of them discarded or panicking the
/// original, is to leave the schedule: every one was, over at least
/// [`DROP_AFTER_TRIALS`]. Fuzzing it more would find nothing, since no mutant runs on an
/// input the original does not accept.
pub fn no_valid_input(seen: u64, invalid: u64, last: Option<Stats>) -> Option<String> {
    if seen < DROP_AFTER_TRIALS || invalid < seen {
        return None;
    }
    let (discards, panics) = last.map_or((0, 0), |s| (s.discards, s.panics));
    Some(if panics == 0 {
        format!(
            "every one of its {seen} inputs was discarded by `mutfuzz::assume`: loosen the assumption or \
             generate values that meet it (a `range`/`len` attribute, a custom `Gen`)"
        )
    } else if discards == 0 {
        format!(
            "the original panicked on every one of its {seen} inputs (its failures, or for a generated \
             target its contract panics, are in its state directory): fix the target or the code it calls"
        )
    } else {
        format!(
            "every one of its {seen} inputs was discarded by `mutfuzz::assume` or panicked the original: \
             fix the target"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_that_reaches_none_of_its_aimed_mutants_leaves_after_enough_trials() {
        let stats =
            |seen_mutants| Stats { mutants_total: 77, mutants_seen: seen_mutants, ..Stats::default() };
        let why = reaches_none(1000, 0, Some(stats(0))).unwrap();
        assert_eq!(why, "none of its 1000 inputs reached one of the 77 mutants it was aimed at");
        assert_eq!(reaches_none(999, 0, Some(stats(0))), None);
        // Reached in an earlier slice, if not by its last process.
        assert_eq!(reaches_none(5000, 1, Some(stats(0))), None);
        assert_eq!(reaches_none(5000, 0, None), None);
    }

    fn fuzz_args(flags: &[&str]) -> FuzzSettings {
        use clap::Parser;
        let argv = ["cargo-mutfuzz", "fuzz", "--all"].iter().chain(flags).copied();
        match crate::commands::options::Cli::try_parse_from(argv).unwrap().command {
            crate::commands::options::Command::Fuzz(a) => FuzzSettings::from(&a),
            _ => unreachable!(),
        }
    }

    #[test]
    fn the_budget_is_trials_or_whole_seconds_and_must_give_every_target_a_slice() {
        let err = |flags: &[&str], targets| budget(&fuzz_args(flags), targets).unwrap_err().to_string();
        assert_eq!(budget(&fuzz_args(&["--trials", "70"]), Some(7)).unwrap(), (Unit::Trials, 70, 10));
        // With --time too, trials are the unit and the time a deadline.
        let both = budget(&fuzz_args(&["--trials", "70", "--time", "1m"]), Some(7)).unwrap();
        assert_eq!(both, (Unit::Trials, 70, 10));
        assert_eq!(budget(&fuzz_args(&["--time", "1m"]), Some(7)).unwrap(), (Unit::Seconds, 60, 1));
        assert!(
            err(&["--trials", "69"], Some(7))
                .contains("--trials 69 gives each of the 7 targets less than 10 trials: give at least 70")
        );
        assert!(err(&["--time", "5s"], Some(7)).contains("give at least 7"));
        // Before the build the target count is unknown: the flags alone are checked.
        assert!(budget(&fuzz_args(&["--trials", "5"]), None).is_ok());
        assert!(err(&[], None).contains("give --time or --trials"));
        assert!(
            err(&["--trials", "100", "--strategy", "mutants-first"], None)
                .contains("--strategy mutants-first")
        );
    }

    #[test]
    fn a_target_is_dropped_only_after_enough_trials_all_invalid() {
        let stats = |discards, panics| Some(Stats { discards, panics, ..Stats::default() });
        assert_eq!(no_valid_input(99, 99, stats(99, 0)), None);
        assert_eq!(no_valid_input(500, 499, stats(499, 0)), None);
        let why = no_valid_input(100, 100, stats(100, 0)).unwrap();
        assert!(why.contains("discarded by `mutfuzz::assume`"), "{why}");
        let why = no_valid_input(120, 120, stats(0, 120)).unwrap();
        assert!(why.contains("panicked on every one of its 120 inputs"), "{why}");
        let why = no_valid_input(120, 120, stats(60, 60)).unwrap();
        assert!(why.contains("discarded") && why.contains("panicked"), "{why}");
    }
}
