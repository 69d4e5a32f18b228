//! `cargo mutfuzz fuzz`: build the harness against the schema, then run its campaign as a
//! supervised child process. A crash or hang while a mutant runs kills that mutant (a
//! kill record and the input, saved where the engine resumes from them); one while the
//! original runs is a failure of the code under test. Either way the harness restarts
//! with what is left of the budget.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use anyhow::Result;
use mutfuzz::EditKind;
use mutfuzz_contract::{ContractPanicRecord, FailureRecord, KillRecord};

use crate::commands::options::FuzzArgs;
use crate::console::exit_code;
use crate::console::status;
use crate::fuzzing::all::{self, AllEnded, Unit};
use crate::fuzzing::harness::{self, Built};
use crate::fuzzing::records;
use crate::fuzzing::settings::FuzzSettings;
use crate::fuzzing::{
    Ended, Files, Stop, count_files, disk_full_error, kill_factor, listed_mutants, mutant_sample,
    warn_skipped_inputs, with_strategy,
};
use crate::score::contract_panics_line;

/// Failures of the original the summary lists one by one; the rest are counted (a
/// message that holds the input makes one bug as many failures as inputs).
const FAILURES_SHOWN: usize = 10;

/// Run the command; returns the exit code.
pub fn run(args: &FuzzArgs) -> Result<i32> {
    if let Some(code) = super::check_before_build(args.hang_timeout, &args.package, &args.filter)? {
        return Ok(code);
    }
    if args.all {
        return run_all(args);
    }
    // A corpus directory the user names is checked before the build, which takes a while.
    let check_corpus = |dir: &Path| {
        crate::workspace::fs_util::ensure_writable_dir(
            dir,
            "the corpus directory",
            "pass a writable one with --corpus DIR",
        )
    };
    if let Some(dir) = &args.corpus {
        check_corpus(&std::path::absolute(dir)?)?;
    }
    let mut built = harness::build(&args.package, &args.target, args.dev, args.no_sandbox)?;
    built.set_caps(args.max_memory.as_deref(), args.max_output.as_deref())?;
    let filtered = filtered_args(args, &built)?;
    let args = &filtered;
    let corpus = match &args.corpus {
        Some(dir) => std::path::absolute(dir)?,
        None => built.default_corpus(&args.target),
    };
    // Kills belong to the corpus that made them: a campaign on another corpus keeps its
    // records apart, so resuming one never credits it with the other's kills.
    let state = if args.corpus.is_none() {
        built.state.clone()
    } else {
        built.layout.campaign_on(&args.target, &corpus)
    };
    check_corpus(&corpus)?;
    warn_skipped_inputs(&corpus)?;
    let files = Files { state, corpus };
    let ended = with_strategy(&built, &FuzzSettings::from(args), &files).map_err(|e| {
        // A write of the supervisor's own (a crash's record) may meet the full disk too.
        let text = format!("{e:#}");
        if text.contains("No space left on device") && !text.contains("the disk is full") {
            disk_full_error(&text)
        } else {
            e
        }
    })?;
    let why = match ended.stop {
        Stop::Budget => "budget spent",
        Stop::AllKilled => "every aimed mutant killed",
        Stop::Interrupted => "interrupted",
    };
    print_summary(&built, args, &files, &ended, why)?;
    Ok(exit_code::SUCCESS)
}

/// `fuzz --all`: the harness built once, every target fuzzed within the one budget.
fn run_all(args: &FuzzArgs) -> Result<i32> {
    // The flags are checked before the build, which takes a while (the target count
    // is checked once the harness lists them).
    all::budget(&FuzzSettings::from(args), None)?;
    let (mut built, targets) = harness::build_all(&args.package, args.dev, args.no_sandbox)?;
    built.set_caps(args.max_memory.as_deref(), args.max_output.as_deref())?;
    let filtered = filtered_args(args, &built)?;
    let args = &filtered;
    let files_of = |t: &str| Files { state: built.layout.campaign(t), corpus: built.default_corpus(t) };
    for t in &targets {
        let corpus = files_of(t).corpus;
        crate::workspace::fs_util::ensure_writable_dir(&corpus, "the corpus directory", "make it writable")?;
        warn_skipped_inputs(&corpus)?;
    }
    let ended = all::fuzz_all(&built, &targets, &FuzzSettings::from(args), &files_of).map_err(|e| {
        let text = format!("{e:#}");
        if text.contains("No space left on device") && !text.contains("the disk is full") {
            disk_full_error(&text)
        } else {
            e
        }
    })?;
    print_all_summary(&built, args, &ended)?;
    Ok(ended.failed.unwrap_or(exit_code::SUCCESS))
}

/// The arguments of a filtered campaign: the mutants the filters keep (of those
/// `--mutants-file` lists, if given) written as the harness's mutants file, so no other
/// mutant runs and the counts are of them only; `args` as they are without a filter.
fn filtered_args(args: &FuzzArgs, built: &Built) -> Result<FuzzArgs> {
    let filter = crate::catalog::filter::RunFilter::new(&built.ws, &args.filter)?;
    if !filter.is_active() {
        return Ok(args.clone());
    }
    let path = built.layout.root().join("filtered-mutants.txt");
    let n = crate::catalog::filter::write_mutants_file(
        &filter,
        &built.discovery.mutants,
        listed_mutants(&FuzzSettings::from(args))?.as_ref(),
        &path,
    )?;
    eprintln!("Matching {}: {n} of {} mutants", filter.describe(), built.discovery.mutants.len());
    Ok(FuzzArgs { mutants_file: Some(path), ..args.clone() })
}

/// One line per target, then the total: trials, corpus, kills (the union over targets).
fn print_all_summary(built: &Built, args: &FuzzArgs, ended: &AllEnded) -> Result<()> {
    let viable: HashSet<u32> = built.viable().map(|m| m.id).collect();
    let total = viable.len() as u64;
    let why = match ended.stop {
        Stop::Budget => "budget spent",
        Stop::AllKilled => "every aimed mutant killed",
        Stop::Interrupted => "interrupted",
    };
    eprintln!(
        "Fuzzing {} stopped ({why}) after {}: {} trials",
        crate::console::count(ended.runs.len(), "target"),
        crate::console::duration(ended.elapsed),
        ended.trials()
    );
    let w = ended.runs.iter().map(|r| r.target.len()).max().unwrap_or(0);
    let mut union: HashSet<u32> = HashSet::new();
    for r in &ended.runs {
        let killed = r.killed(&viable)?;
        let failures = records::read::<FailureRecord>(&r.files.state.failure_log())?.len();
        let budget = match ended.unit {
            Unit::Trials => String::new(),
            Unit::Seconds => format!(" in {}", crate::console::duration(r.elapsed)),
        };
        let dropped = r.dropped.as_ref().map(|why| format!("; dropped: {why}")).unwrap_or_default();
        eprintln!(
            "  {:<w$}  {} trials{budget} in {} slice{}; corpus {}; {} killed ({}); failures {failures}{dropped}",
            r.target,
            r.trials,
            r.slices,
            if r.slices == 1 { "" } else { "s" },
            count_files(&r.files.corpus),
            killed.len(),
            status::percent(killed.len() as u64, total),
        );
        union.extend(killed);
        print_contract_panics(args, &r.files, r.contract_panics, "    ")?;
    }
    let killed = union.len() as u64;
    eprintln!(
        "Total: {} trials over {} targets ({} dropped); mutants: {total} viable ({} unviable): {killed} killed \
         by some target; score {}",
        ended.trials(),
        ended.runs.len(),
        ended.runs.iter().filter(|r| r.dropped.is_some()).count(),
        built.unviable.len(),
        status::percent(killed, total)
    );
    eprintln!("The final number: cargo mutfuzz score --all{}", manifest_arg(args));
    Ok(())
}

fn print_summary(built: &Built, args: &FuzzArgs, files: &Files, ended: &Ended, why: &str) -> Result<()> {
    let (elapsed, trials, last) = (ended.elapsed, ended.trials, ended.last);
    let mut viable: HashSet<u32> = built.viable().map(|m| m.id).collect();
    if let Some(listed) = listed_mutants(&FuzzSettings::from(args))? {
        // The harness ran and counted these only: so does the summary.
        viable.retain(|id| listed.contains(id));
    }
    // By name, so the kinds print in alphabetical order.
    let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
    let mut killed: HashSet<u32> = HashSet::new();
    for k in records::read::<KillRecord>(&files.state.kills())? {
        if viable.contains(&k.mutant) && killed.insert(k.mutant) {
            *kinds.entry(k.kind.name()).or_default() += 1;
        }
    }
    let total = viable.len() as u64;
    let killed = killed.len() as u64;
    let seen = last.map_or(0, |s| s.mutants_seen as u64).max(killed);
    let corpus = count_files(&files.corpus);
    eprintln!(
        "Fuzzing {} stopped ({why}) after {}: {trials} trials; corpus {corpus} inputs in {}",
        args.target,
        crate::console::duration(elapsed),
        files.corpus.display()
    );
    let by_kind: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
    eprintln!(
        "Mutants: {total} viable{} ({} unviable): {killed} killed{}, {} survived (covered, not killed), {} not covered",
        if args.mutants_file.is_some() { " listed in the mutants file" } else { "" },
        built.unviable.len(),
        if by_kind.is_empty() { String::new() } else { format!(" ({})", by_kind.join(", ")) },
        seen - killed,
        total.saturating_sub(seen)
    );
    eprintln!("Score: {} of viable mutants killed", status::percent(killed, total));
    if let Some(s) = last.filter(|s| s.mutants_reached > 0) {
        let verified = if s.pruned_verified > 0 {
            format!("; {} pruned runs checked, every one survived", s.pruned_verified)
        } else {
            String::new()
        };
        let rerun = if s.mutant_runs > s.mutants_reached { "; killed mutants run again" } else { "" };
        eprintln!(
            "Mutant runs: {} of {} surviving mutants at covered sites ({:.2} per trial, {} pruning{}{rerun}{verified})",
            s.mutant_runs,
            s.mutants_reached,
            s.mutant_runs as f64 / s.trials.max(1) as f64,
            args.prune,
            mutant_sample(&FuzzSettings::from(args))
                .filter(|&k| k > 0)
                .map(|k| format!(", at most {k} per trial"))
                .unwrap_or_default(),
        );
    }
    if let Some(s) = last.filter(|s| s.discards > 0 || s.random_edits > 0 || args.edit != EditKind::default())
    {
        let r = if s.random_edits > 0 {
            format!(" (random edits sampled {} times each, {} children queued)", s.random_edits, s.queued)
        } else {
            String::new()
        };
        eprintln!(
            "Inputs: edit {}, schedule {}{r}; {} of {} trials valid ({} discarded by assume)",
            args.edit,
            args.schedule,
            s.trials.saturating_sub(s.discards),
            s.trials,
            s.discards
        );
    }
    if let Some(s) = last.filter(|s| s.boosted + s.reduced > 0) {
        eprintln!(
            "Children ({}, kill factor {}): {} kept inputs got more for their {}, {} fewer",
            args.guidance,
            kill_factor(&FuzzSettings::from(args)),
            s.boosted,
            if args.guidance == mutfuzz_contract::GuidanceKind::Infection {
                format!(
                    "kills or new infections (infect factor {}; {} surviving mutants infected by kept inputs)",
                    mutfuzz::guidance::INFECT_FACTOR,
                    s.mutants_infected
                )
            } else {
                "kills".to_owned()
            },
            s.reduced
        );
    }
    if let Some(s) = last.filter(|s| s.spans_regenerated + s.recorded_again > 0) {
        eprintln!(
            "Parents beyond the {} most recent inputs: spans generated again {} times, comparisons recorded again {} times",
            mutfuzz::corpus::HELD_INPUTS,
            s.spans_regenerated,
            s.recorded_again
        );
    }
    let failures = records::read::<FailureRecord>(&files.state.failure_log())?;
    if failures.is_empty() {
        eprintln!("Failures of the original: none");
    } else {
        eprintln!("Failures of the original: {}", failures.len());
        for f in failures.iter().take(FAILURES_SHOWN) {
            let path = files.state.failures().join(&f.input);
            let at = f.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
            eprintln!("  {}: {}{at}", path.display(), f.message);
            eprintln!(
                "    reproduce: cargo mutfuzz run {} {}{}",
                args.target,
                path.display(),
                manifest_arg(args)
            );
        }
        if failures.len() > FAILURES_SHOWN {
            let log = files.state.failure_log();
            eprintln!("  … and {} more, listed in {}", failures.len() - FAILURES_SHOWN, log.display());
        }
    }
    print_contract_panics(args, files, ended.contract_panics, "")?;
    eprintln!(
        "Kills in {}; the final number: cargo mutfuzz score {}",
        files.state.kills().display(),
        args.target
    );
    Ok(())
}

/// A generated target's panics by contract, apart from its failures: the count of the
/// `inputs` this run met, then each message with the first input that gave it (as
/// `contract-panics.jsonl` has them) two spaces further in; the lines start with `indent`.
/// Nothing when there were none, or under `--panic-is-failure`, which makes them failures,
/// listed as such (a file of an earlier run is not this one's).
fn print_contract_panics(args: &FuzzArgs, files: &Files, inputs: u64, indent: &str) -> Result<()> {
    let contract = if args.panic_is_failure {
        Vec::new()
    } else {
        records::read::<ContractPanicRecord>(&files.state.contract_panic_log())?
    };
    if let Some(line) = contract_panics_line(inputs, contract.len()) {
        eprintln!("{indent}{line}");
        for p in &contract {
            let at = p.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
            eprintln!(
                "{indent}  {}: {}{at}",
                files.state.contract_panics().join(&p.input).display(),
                p.message
            );
        }
    }
    Ok(())
}

fn manifest_arg(args: &FuzzArgs) -> String {
    args.package
        .manifest_path
        .as_ref()
        .map(|p| format!(" --manifest-path {}", p.display()))
        .unwrap_or_default()
}
