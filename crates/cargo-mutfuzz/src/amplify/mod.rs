//! `cargo mutfuzz amplify`: tests that kill the mutants the crate's own tests leave
//! alive — the harness's targets fuzzed at those survivors only, each killing input
//! shrunk while it keeps its kills, a small set chosen, written as readable `#[test]`s,
//! and checked before the one file is written.

pub mod export;
mod gate;
mod settings;
pub mod survivors;
pub mod verify;
pub mod write;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use mutfuzz_contract::command::{HarnessCommand, Keep, ShrinkLimits, ShrinkRequest, WorkerLimits};
use mutfuzz_contract::{
    EXIT_NOT_KEPT, EXIT_SUCCESS, Kept, KillRecord, ScoreOutcome, ShrinkLine, write_atomic,
};

use crate::catalog::selection::Selection;
use crate::console::exit_code;
use crate::console::{count, duration};
use crate::fuzzing::Files;
use crate::fuzzing::all;
use crate::fuzzing::harness;
use crate::fuzzing::records;
use crate::fuzzing::settings::FuzzSettings;
use crate::fuzzing::shrinking;
use crate::process::interrupt;
use crate::score::{self, ScoreHow};
use crate::testing::outcome::Outcome;
use crate::workspace::layout::Layout;
use crate::workspace::{Features, PackageChoice, Workspace};

use crate::fuzzing::cover::{self, Candidate};
pub use settings::{AmplifySettings, ExportSettings};
use survivors::Survivors;

/// The hang timeout of scoring the corpora on the survivors left.
pub(crate) const SCORE_HANG: std::time::Duration = std::time::Duration::from_secs(30);

/// Most seconds spent shrinking one input: on a slow target (libm's `jn`, whose loop
/// turns as often as its first argument says) the input ends as small as it got by then.
const SHRINK_SECONDS: f64 = 10.0;

/// Written tests past which `amplify` points at `--max-tests`.
const MANY_TESTS: usize = 100;

/// Run the command; returns the exit code.
pub fn run(args: &AmplifySettings) -> Result<i32> {
    let start = Instant::now();
    interrupt::install();
    let ws = Workspace::open(&args.package)?;
    let package = harness::single_package(&ws)?.clone();
    let results = args.results.clone().unwrap_or_else(|| ws.root.join("mutfuzz.out"));
    let survivors = Survivors::read(&results)?;
    survivors.check_package(&package.name, &results)?;
    if let Some(failure) = survivors.baseline_failed() {
        return Err(exit_code::baseline(anyhow!(
            "`cargo mutfuzz test` stopped before any mutant ran: {} (see {}); {}, run `cargo mutfuzz test`, then amplify",
            failure.describe(),
            results.join("outcomes.json").display(),
            failure.remedy()
        )));
    }
    let (missed, uncovered, timeouts) = survivors.counts();
    if survivors.file.outcomes.is_empty() {
        eprintln!(
            "Nothing to amplify: `cargo mutfuzz test` found no mutant in {} (its `Found 0 mutants` line \
             says which regions it leaves alone: the bodies of `macro_rules!` macros, `const` code, …)",
            package.name
        );
        return Ok(exit_code::SUCCESS);
    }
    let not_run = survivors.file.summary.not_run;
    if survivors.ids.is_empty() && not_run > 0 {
        eprintln!(
            "Nothing to amplify yet: `cargo mutfuzz test` was interrupted with {} not run, and \
             left none of those it ran alive; run it to the end, then amplify",
            count(not_run, "mutant")
        );
        return Ok(exit_code::SUCCESS);
    }
    if survivors.ids.is_empty() {
        eprintln!(
            "Nothing to amplify: `cargo mutfuzz test` left no mutant alive (no missed, not-covered or wall-clock timeout)"
        );
        return Ok(exit_code::SUCCESS);
    }
    let made = std::fs::metadata(results.join("outcomes.json"))
        .and_then(|m| m.modified())
        .with_context(|| format!("failed to read the time of {}", results.join("outcomes.json").display()))?;
    let file = verify::file_name(&package.root.join("tests"), made, &results)?;
    let (features, note) = chosen_features(args.features.as_ref(), &survivors.file.feature_flags);
    if let Some(note) = note {
        eprintln!("{note}");
    }
    let with = if features.is_default() { String::new() } else { format!(" with {}", features.describe()) };
    eprintln!(
        "Amplifying the tests of {}{with}: {} survivors ({missed} missed, {uncovered} not covered, {timeouts} timed out by the wall clock)",
        package.name,
        survivors.ids.len()
    );
    if not_run > 0 {
        eprintln!(
            "warning: the results are of an interrupted `cargo mutfuzz test`: {} not run are no survivors \
             here, and the scores count them as not caught; run it to the end for all of them",
            count(not_run, "mutant")
        );
    }

    // The harness: the user's, else one generated from the API into target/.
    let layout = Layout::new(&ws.target_dir);
    let dir = layout.amplify();
    let (generated, built, targets, aimed) = build_aimed(
        &ws,
        &package,
        &args.package,
        &survivors,
        &features,
        args.no_sandbox,
        // Raised to what the targets need, with a note, once they are built.
        &|_| Ok(()),
    )?;
    if aimed.is_empty() {
        eprintln!("No survivor builds with the harness (all unviable there): nothing to fuzz");
        return Ok(exit_code::SUCCESS);
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("failed to create {}", dir.display()))?;
    let mutants_file = dir.join("survivors.txt");
    let list: String = aimed.iter().map(|id| format!("{id}\n")).collect();
    mutfuzz_contract::write_atomic(&mutants_file, list.as_bytes())?;

    // Fuzz every target at the survivors only.
    let fuzz = fuzz_args(args, &mutants_file, targets.len());
    let campaigns = dir.join("campaigns");
    if campaigns.exists() && !args.resume {
        std::fs::remove_dir_all(&campaigns)
            .with_context(|| format!("failed to clear {}", campaigns.display()))?;
    }
    let files_of = |t: &str| Files {
        state: mutfuzz_contract::CampaignDir::new(campaigns.join(t).join("state")),
        corpus: campaigns.join(t).join("corpus"),
    };
    let ended = all::fuzz_all(&built, &targets, &fuzz, &files_of)?;
    if interrupt::interrupted() {
        return Err(exit_code::interrupted());
    }

    // The inputs that killed survivors while fuzzing; then each corpus scored on the
    // survivors left (a trial runs a few mutants only, so a kept input may kill more than
    // it did then), which also tells which survivors no target reaches.
    let mut by_input: BTreeMap<(String, String), BTreeSet<u32>> = BTreeMap::new();
    for run in &ended.runs {
        for k in records::read::<KillRecord>(&run.files.state.kills())?
            .into_iter()
            .filter(|k| aimed.contains(&k.mutant))
        {
            by_input.entry((run.target.clone(), k.input)).or_default().insert(k.mutant);
        }
    }
    let fuzzed: BTreeSet<u32> = by_input.values().flatten().copied().collect();
    let left: BTreeSet<u32> = aimed.difference(&fuzzed).copied().collect();
    let mut reached: BTreeSet<u32> = fuzzed.clone();
    if !left.is_empty() {
        let selection = Selection::all(&built.discovery.mutants).only(&built.discovery.mutants, &left);
        for run in &ended.runs {
            let how = ScoreHow {
                selection: &selection,
                format: mutfuzz_contract::InputFormat::Mutfuzz,
                state: run.files.state.path(),
                panic_is_failure: false,
                prune: mutfuzz_contract::Prune::default(),
                jobs: crate::process::pool::jobs_or_cpus(args.jobs) as u64,
            };
            let out = run.files.state.path().join("amplify-score.jsonl");
            let Some(scored) =
                score::score_corpus(&built, &run.target, &run.files.corpus, &out, SCORE_HANG, &how)?
            else {
                return Err(exit_code::interrupted());
            };
            for (id, line) in scored.verdicts {
                match line.outcome {
                    ScoreOutcome::NotCovered => {}
                    ScoreOutcome::Survived => {
                        reached.insert(id);
                    }
                    ScoreOutcome::Killed => {
                        reached.insert(id);
                        if let Some(input) = line.input {
                            by_input.entry((run.target.clone(), input)).or_default().insert(id);
                        }
                    }
                }
            }
        }
    }

    // Each killing input shrunk while it keeps its kills.
    let files: BTreeMap<String, &Files> = ended.runs.iter().map(|r| (r.target.clone(), &r.files)).collect();
    let candidates = shrunk(&built, by_input, &files, args.shrink_runs, &dir.join("shrunk"))?;
    let mut chosen = cover::choose(&candidates);
    let killed: BTreeSet<u32> = chosen.iter().flat_map(|c| c.kills.iter().copied()).collect();
    eprintln!(
        "Fuzzed {} in {}: {} of {} survivors killed; {} chosen to keep one kill each",
        count(targets.len(), "target"),
        duration(ended.elapsed),
        killed.len(),
        aimed.len(),
        count(chosen.len(), "input")
    );
    if let Some(max) = args.max_tests
        && chosen.len() > max
    {
        let all = chosen.len();
        let left_out = cap(&mut chosen, max);
        eprintln!(
            "Keeping {max} of the {all} inputs (--max-tests), those that kill the most: {} scored as killed by the other {} alone may go without a test",
            count(left_out.len(), "survivor"),
            all - max
        );
    }
    // A survivor in code this build leaves out says so: no target could reach it.
    let on = features.enabled(&package.root.join("Cargo.toml"), &package.name);
    let unreached: Vec<String> = survivors
        .file
        .outcomes
        .iter()
        .filter(|o| aimed.contains(&o.mutant.id) && !reached.contains(&o.mutant.id))
        .map(|o| match o.mutant.features.iter().find(|f| !on.contains(*f)) {
            Some(off) => format!("{} (behind feature `{off}`, off in this build)", o.mutant.name()),
            None => o.mutant.name(),
        })
        .collect();
    /// Lines of survivors no target reaches shown before the rest are only counted.
    const SHOWN: usize = 20;
    // An earlier run's list would be taken for this one's.
    let list = dir.join("unreached.txt");
    let _ = std::fs::remove_file(&list);
    if !unreached.is_empty() {
        eprintln!("{} not reached by any target:", count(unreached.len(), "survivor"));
        for name in unreached.iter().take(SHOWN) {
            eprintln!("  {name}");
        }
        if unreached.len() > SHOWN {
            // Every one, for the user who wants to know where the rest are.
            std::fs::write(&list, unreached.iter().map(|n| format!("{n}\n")).collect::<String>())
                .with_context(|| format!("failed to write {}", list.display()))?;
            eprintln!("  … and {} more (all of them in {})", unreached.len() - SHOWN, list.display());
        }
    }

    // The chosen inputs as tests, checked in a copy of the workspace.
    // Targets whose results differed between two runs of the original: judged by panics
    // and runaways alone, so their tests assert nothing.
    let nondeterministic: BTreeSet<String> = ended
        .runs
        .iter()
        .filter(|r| r.files.state.nondeterministic().exists())
        .map(|r| r.target.clone())
        .collect();
    let mut tests = write::tests(&built, &generated, &package, &chosen, &nondeterministic, &dir)?;
    for note in &tests.notes {
        eprintln!("{note}");
    }
    if chosen.is_empty() {
        eprintln!("No input killed a survivor: no test to write");
        return Ok(exit_code::SUCCESS);
    }
    if tests.written.is_empty() {
        eprintln!("No test could be written: {}", tests.why.join("; "));
        return Ok(exit_code::SUCCESS);
    }
    let gated = gate::default_gated(&package, &features)?;
    tests.written = tests.written.into_iter().map(|t| gate::apply(t, &gated)).collect();
    // Fewer tests than inputs, said here: inputs that shrank to another's value are one
    // test, and those that could not be written are listed with the check's drops.
    let merged = chosen.len().saturating_sub(tests.written.len() + tests.why.len());
    let mut fewer = Vec::new();
    if merged > 0 {
        fewer.push(format!("{} shrank to another's value", count(merged, "input")));
    }
    if !tests.why.is_empty() {
        fewer.push(format!("{} could not be written, listed below", count(tests.why.len(), "input")));
    }
    let fewer = if fewer.is_empty() { String::new() } else { format!(" ({})", fewer.join("; ")) };
    eprintln!(
        "Checking {}{fewer} in a copy of the workspace: they must pass, then catch their survivors",
        count(tests.written.len(), "written test")
    );
    let copy = verify::Copy::make(&ws, &package, &features, &file)?;
    let test_like = write::test_args(args, &package, &features);
    let (on, off) = features.gate(&package.root.join("Cargo.toml"), &package.name);
    let head = mutfuzz_api::test_writer::FileHead {
        doc: mutfuzz_api::test_writer::amplify_header(&package.name),
        include: tests.include.clone(),
        features: on.clone(),
        features_off: off.clone(),
    };
    // Every candidate as written before the check, which the list of dropped ones names.
    let candidates = dir.join("candidates.rs");
    write_atomic(&candidates, mutfuzz_api::test_writer::file(&head, &tests.written).as_bytes())?;
    let verified = verify::verify(&copy, &head, tests.written, &tests.kills, &aimed, &test_like)?;
    let target_file = package.root.join("tests").join(&file);
    if verified.kept.is_empty() {
        print_dropped(&verified, &tests.why, &candidates);
        let compiled = verified.dropped.iter().any(|(_, why)| !why.starts_with("does not compile"));
        if !compiled && !verified.dropped.is_empty() {
            // What it wrote is wrong, not what the crate does.
            eprintln!(
                "error: no candidate test compiled, a defect of cargo mutfuzz's test writer: nothing \
                 written (the candidates are in {})",
                candidates.display()
            );
            return Ok(exit_code::SOFTWARE);
        }
        eprintln!("No written test catches the mutants it was written for: nothing written");
        return Ok(exit_code::SUCCESS);
    }
    if let Some(parent) = target_file.parent() {
        std::fs::create_dir_all(parent)?;
    }
    // Written with features the defaults leave off, the file is `#![cfg]` on them, unless
    // with only the tests that call code behind them `#[cfg]` on it, it passes a plain
    // `cargo test` too.
    let mut text = verified.text.clone();
    let mut written: Vec<_> = verified.kept.iter().map(|(t, _)| t.clone()).collect();
    let mut written_head = head.clone();
    let mut file_gated = !on.is_empty() || !off.is_empty();
    let mut gated_tests = 0;
    if !on.is_empty() && off.is_empty() {
        let gated = gate::extra_gated(&package, &features)?;
        let tests: Vec<_> = verified.kept.iter().map(|(t, _)| gate::apply(t.clone(), &gated)).collect();
        let plain_head = mutfuzz_api::test_writer::FileHead { features: Vec::new(), ..head.clone() };
        let plain = mutfuzz_api::test_writer::file(&plain_head, &tests);
        if verify::passes_plain(&copy, &plain)? {
            gated_tests =
                tests.iter().zip(&verified.kept).filter(|(t, (kept, _))| t.text != kept.text).count();
            (text, file_gated) = (plain, false);
            (written, written_head) = (tests, plain_head);
        }
    }
    // Tests of one call on literals become one table-driven test each, where the file
    // still passes so.
    let (mut merged_note, mut renamed) = (None, std::collections::BTreeMap::new());
    if let Some((tables, names)) = mutfuzz_api::test_writer::tabulated(&written) {
        let merged = mutfuzz_api::test_writer::file(&written_head, &tables);
        if verify::passes(&copy, &merged, !file_gated)? {
            let loops = tables.iter().filter(|t| !written.iter().any(|w| w.text == t.text)).count();
            merged_note = Some(format!(
                "  ({} asserting one call on literals each are written as {} looping over their cases)",
                count(written.len() - (tables.len() - loops), "test"),
                count(loops, "table-driven test")
            ));
            (text, written, renamed) = (merged, tables, names);
        }
    }
    let text = crate::fuzzing::auto_harness::rustfmt(&text, &package.root, &package.edition);
    mutfuzz_contract::write_atomic(&target_file, text.as_bytes())?;
    if let Some(note) = verify::undeclared_note(&package.root, &file) {
        eprintln!("{note}");
    }
    if gated_tests > 0 {
        let (call, are, them) =
            if gated_tests == 1 { ("calls", "is", "it") } else { ("call", "are", "them") };
        eprintln!(
            "note: {} {call} code behind features the defaults leave off, and {are} `#[cfg]` on them; \
             run {them} with `cargo test -p {} {} --test {}`",
            count(gated_tests, "test"),
            package.name,
            features.describe(),
            file.trim_end_matches(".rs")
        );
    }
    if file_gated {
        let quoted = |fs: &[String]| fs.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ");
        let gate = match (on.is_empty(), off.is_empty()) {
            (false, true) => quoted(&on),
            (true, false) => format!("{} off", quoted(&off)),
            _ => format!("{}, with {} off", quoted(&on), quoted(&off)),
        };
        eprintln!(
            "note: the tests were written with features a plain build differs in: the file is \
             `#![cfg(...)]` on {gate}, so a plain `cargo test` skips it; run it with \
             `cargo test -p {} {} --test {}`",
            package.name,
            features.describe(),
            file.trim_end_matches(".rs")
        );
    }

    // Before and after, as `cargo mutfuzz test` counts them.
    // As `cargo mutfuzz test` counts them now: a survivor the new tests catch or make run
    // away is detected.
    let caught: BTreeSet<u32> = verified
        .after
        .outcomes
        .iter()
        .filter(|o| matches!(o.outcome, Outcome::Caught | Outcome::Timeout))
        .map(|o| o.mutant.id)
        .collect();
    let before = &survivors.file.summary;
    let viable_total = before.total - before.unviable;
    let score = |caught: usize, timeout: usize| {
        if viable_total == 0 { 100.0 } else { 100.0 * (caught + timeout) as f64 / viable_total as f64 }
    };
    // The check ran the written tests alone: a survivor they catch is caught; one they
    // reach but do not catch is missed, no longer not covered; the rest keep the outcome
    // the crate's suite gave them.
    // A survivor the check did not run keeps its outcome too.
    let checked: BTreeMap<u32, Outcome> =
        verified.after.outcomes.iter().map(|o| (o.mutant.id, o.outcome)).collect();
    let after_outcomes: Vec<Outcome> = survivors
        .file
        .outcomes
        .iter()
        .filter(|o| aimed.contains(&o.mutant.id))
        .map(|o| match (checked.get(&o.mutant.id), o.outcome) {
            (Some(after @ (Outcome::Caught | Outcome::Timeout)), _) => *after,
            (Some(after), Outcome::NotCovered) => *after,
            (_, before) => before,
        })
        .collect();
    let after_count = |outcome: Outcome| after_outcomes.iter().filter(|o| **o == outcome).count();
    let (missed_after, not_covered_after) = (after_count(Outcome::Missed), after_count(Outcome::NotCovered));
    // As the file has them: a table-driven test is one.
    let lines: usize = written.iter().map(|t| t.text.lines().count()).sum();
    eprintln!(
        "missed {} → {missed_after}; not covered {} → {}; score {:.1} % → {:.1} %; {}, {:.0} lines each on average",
        before.missed,
        before.not_covered,
        not_covered_after,
        score(before.caught, before.timeout),
        score(before.caught + caught.len(), before.timeout),
        count(written.len(), "test"),
        lines as f64 / written.len() as f64
    );
    if let Some(note) = merged_note {
        eprintln!("{note}");
    }
    // A file of hundreds of tests is one no one reviews: say how to keep fewer.
    if args.max_tests.is_none() && written.len() > MANY_TESTS {
        eprintln!(
            "  ({} is more than a reviewer reads: `--max-tests N` keeps the N that kill the most)",
            count(written.len(), "test")
        );
    }
    // More missed than before reads as a loss: say where they come from.
    let newly_reached = survivors
        .file
        .outcomes
        .iter()
        .filter(|o| o.outcome == Outcome::NotCovered && checked.get(&o.mutant.id) == Some(&Outcome::Missed))
        .count();
    if missed_after > before.missed && newly_reached > 0 {
        eprintln!(
            "  ({newly_reached} of the missed were not covered before: the new tests reach them, \
             and do not catch them)"
        );
    }
    print_dropped(&verified, &tests.why, &candidates);
    write::record(&results, &file, &survivors, &verified, &renamed, [&caught, &killed, &reached])?;
    eprintln!("Wrote {} in {}", target_file.display(), duration(start.elapsed()));
    Ok(exit_code::SUCCESS)
}

/// The feature flags `amplify` reads the API, builds the harness and checks the written
/// tests with: those given to it, else those `test` ran with (`recorded`, from its
/// results). Given and different, the given ones win, and the note says so.
fn chosen_features(given: Option<&Features>, recorded: &Features) -> (Features, Option<String>) {
    match given {
        None => (recorded.clone(), None),
        Some(given) if given.same_as(recorded) => (given.clone(), None),
        Some(given) => (
            given.clone(),
            Some(format!(
                "note: `cargo mutfuzz test` ran with {}; amplify uses the flags given to it, {}: \
                 survivors in code those leave out are not reached, and the check runs with them",
                recorded.describe(),
                given.describe()
            )),
        ),
    }
}

/// Keeps the first `max` of the cover's picks (each killed the most survivors the picks
/// before it left alive); returns the survivors only the others kill.
fn cap<T>(chosen: &mut Vec<Candidate<T>>, max: usize) -> BTreeSet<u32> {
    let rest = chosen.split_off(max.min(chosen.len()));
    let kept: BTreeSet<u32> = chosen.iter().flat_map(|c| c.kills.iter().copied()).collect();
    rest.iter().flat_map(|c| c.kills.iter().copied()).filter(|id| !kept.contains(id)).collect()
}

/// The candidate tests the check dropped and those that could not be written, each with
/// why. Inputs that shrank to one value are one test, not a drop: only the listed count.
/// The names are those of the `candidates` file, before the kept ones were numbered again.
fn print_dropped(verified: &verify::Verified, unwritten: &[String], candidates: &Path) {
    let dropped = verified.dropped.len() + unwritten.len();
    if dropped > 0 {
        eprintln!("Dropped {} (named as in {}):", count(dropped, "candidate test"), candidates.display());
        let (redundant, other): (Vec<_>, Vec<_>) =
            verified.dropped.iter().partition(|(_, why)| why == verify::REDUNDANT);
        for (name, why) in other {
            eprintln!("  {name}: {why}");
        }
        // Inputs of one target left out for one reason: one line, counted.
        let mut counted: Vec<(&String, usize)> = Vec::new();
        for why in unwritten {
            match counted.iter_mut().find(|(seen, _)| *seen == why) {
                Some((_, n)) => *n += 1,
                None => counted.push((why, 1)),
            }
        }
        for (why, n) in counted {
            match n {
                1 => eprintln!("  {why}"),
                n => eprintln!("  {why} ({n} inputs)"),
            }
        }
        // Often many, and each for the same reason: one line.
        match &redundant[..] {
            [] => {}
            [(name, why)] => eprintln!("  {name}: {why}"),
            many => {
                let names: Vec<&str> = many.iter().take(6).map(|(name, _)| name.as_str()).collect();
                let more = if many.len() > names.len() { ", …" } else { "" };
                eprintln!(
                    "  {} that catch only mutants the tests kept catch: {}{more}",
                    many.len(),
                    names.join(", ")
                );
            }
        }
    }
}

/// Each killing input (target, input name → the survivors it kills) shrunk while it
/// keeps its kills, with the target's campaign `files`; inputs that shrink to the same
/// bytes become one candidate with both kill sets.
pub fn shrunk(
    built: &harness::Built,
    by_input: BTreeMap<(String, String), BTreeSet<u32>>,
    files: &BTreeMap<String, &Files>,
    max_runs: u64,
    out_dir: &Path,
) -> Result<Vec<Candidate<(String, PathBuf)>>> {
    let mut candidates: Vec<Candidate<(String, PathBuf)>> = Vec::new();
    std::fs::create_dir_all(out_dir).with_context(|| format!("failed to create {}", out_dir.display()))?;
    for ((target, input), ids) in by_input {
        let Some(run) = files.get(&target) else { continue };
        let path = run.corpus.join(&input);
        if !path.is_file() {
            continue;
        }
        let out = out_dir.join(format!("{target}-{input}"));
        let command = HarnessCommand::Shrink(ShrinkRequest {
            target: target.clone(),
            file: path.clone(),
            keep: Keep::Mutants(ids.iter().copied().collect()),
            state: Some(run.state.path().to_owned()),
            limits: ShrinkLimits { max_runs: Some(max_runs), time: Some(SHRINK_SECONDS) },
            workers: WorkerLimits::default(),
            panic_is_failure: false,
            out: out.clone(),
        });
        // A candidate the original aborts on (an allocation that fails) ends the shrinking
        // process: the input, which the original ran through in the campaign, stays whole.
        let (code, line) = match shrinking::shrink_with(built, &command, shrinking::Quiet::Unless) {
            Err(e) if e.is::<shrinking::HarnessDied>() => {
                eprintln!(
                    "note: {e}\n  (on a smaller form of {target}'s input {input}, which is kept whole)"
                );
                (EXIT_NOT_KEPT, None)
            }
            result => result?,
        };
        let (file, size, kept) = match line.filter(|_| code == EXIT_SUCCESS) {
            Some(ShrinkLine { after, kept: Kept::Kills(k), .. }) => (out, after, k.into_iter().collect()),
            // Not shrunk (a kill that does not repeat alone): the input as it is.
            _ => (path.clone(), std::fs::metadata(&path).map_or(0, |m| m.len() as usize), ids),
        };
        let bytes = std::fs::read(&file).unwrap_or_default();
        match candidates
            .iter_mut()
            .find(|c| c.item.0 == target && std::fs::read(&c.item.1).ok().as_ref() == Some(&bytes))
        {
            Some(same) => same.kills.extend(kept),
            None => candidates.push(Candidate { item: (target, file), size, kills: kept }),
        }
    }
    Ok(candidates)
}

/// The harness (the user's, else one generated from the API into `target/`, reading the
/// API and building the package with `features`) built with its targets, and the
/// survivors that are viable with it: what `amplify` and `eval --survivors` fuzz at. A
/// generated harness's number of targets is known before its build, and goes to
/// `check_targets` then: a budget too small for them fails before minutes of building.
pub fn build_aimed(
    ws: &Workspace,
    package: &crate::workspace::Package,
    package_args: &PackageChoice,
    survivors: &Survivors,
    features: &Features,
    no_sandbox: bool,
    check_targets: &dyn Fn(usize) -> Result<()>,
) -> Result<(write::Generated, harness::Built, Vec<String>, BTreeSet<u32>)> {
    let layout = Layout::new(&ws.target_dir);
    let generated = write::harness(ws, package, &layout, features)?;
    if generated.location.is_some() {
        check_targets(generated.harness.module.targets.len())?;
    }
    let (built, targets) =
        harness::build_all_with(package_args, generated.location.as_ref(), false, no_sandbox)?;
    survivors.check_catalog(&built.discovery.mutants)?;
    let viable: HashSet<u32> = built.viable().map(|m| m.id).collect();
    let aimed = survivors.ids.iter().copied().filter(|id| viable.contains(id)).collect();
    Ok((generated, built, targets, aimed))
}

/// The fuzz options of the campaign: every one of the `targets`, the survivors only.
fn fuzz_args(args: &AmplifySettings, mutants_file: &Path, targets: usize) -> FuzzSettings {
    let mut words: Vec<String> = vec!["fuzz".into(), "--all".into()];
    let (budget, note) = least_budget(args.trials, args.time, targets);
    if let Some(note) = note {
        eprintln!("{note}");
    }
    words.extend(budget);
    if args.cpu_time {
        words.push("--cpu-time".into());
    }
    words.extend([
        "--guidance".into(),
        args.guidance.name().to_owned(),
        "--seed".into(),
        args.seed.to_string(),
    ]);
    words.extend(["--mutants-file".into(), mutants_file.display().to_string()]);
    if let Some(p) = &args.package.manifest_path {
        words.extend(["--manifest-path".into(), p.display().to_string()]);
    }
    (args.fuzz_settings)(&words)
}

/// The budget flag `fuzz --all` gets: the user's `--trials` or `--time` (five minutes by
/// default), raised to the least every one of `targets` needs for its smallest slice, with
/// a note when it was. A generated harness may have more targets than the time has
/// seconds (byteorder's 191 in 3m), and failing after its build would waste the build.
fn least_budget(
    trials: Option<u64>,
    time: Option<std::time::Duration>,
    targets: usize,
) -> ([String; 2], Option<String>) {
    let (flag, suffix, asked, min, unit, show): (_, _, _, _, _, fn(u64) -> String) = match (trials, time) {
        (Some(asked), _) => {
            ("--trials", "", asked, all::MIN_SLICE_TRIALS, "trial", |t| count(t as usize, "trial"))
        }
        (None, time) => {
            ("--time", "s", time.map_or(300, |t| t.as_secs().max(1)), all::MIN_SLICE_SECS, "second", |s| {
                duration(std::time::Duration::from_secs(s))
            })
        }
    };
    let least = min * targets as u64;
    let note = (asked < least).then(|| {
        format!(
            "{} {} at least {}, {} each: fuzzing for that instead of {}",
            count(targets, "target"),
            if targets == 1 { "needs" } else { "need" },
            show(least),
            count(min as usize, unit),
            show(asked)
        )
    });
    ([flag.to_owned(), format!("{}{suffix}", asked.max(least))], note)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_too_small_for_every_target_is_raised_to_the_least_with_a_note() {
        let secs = |s| Some(std::time::Duration::from_secs(s));
        assert_eq!(least_budget(None, secs(180), 120), (["--time".into(), "180s".into()], None));
        assert_eq!(
            least_budget(None, secs(180), 191),
            (
                ["--time".into(), "191s".into()],
                Some(
                    "191 targets need at least 3m11s, 1 second each: fuzzing for that instead of 3m00s"
                        .into()
                )
            )
        );
        // No --time: five minutes.
        assert_eq!(least_budget(None, None, 3).0, ["--time", "300s"]);
        assert_eq!(least_budget(Some(500), None, 7), (["--trials".into(), "500".into()], None));
        assert_eq!(
            least_budget(Some(3), None, 1).1.as_deref(),
            Some("1 target needs at least 10 trials, 10 trials each: fuzzing for that instead of 3 trials")
        );
        assert_eq!(
            least_budget(Some(69), secs(1), 7),
            (
                ["--trials".into(), "70".into()],
                Some("7 targets need at least 70 trials, 10 trials each: fuzzing for that instead of 69 trials".into())
            )
        );
    }

    #[test]
    fn a_cap_keeps_the_covers_first_picks_and_names_the_survivors_only_the_rest_kill() {
        let pick = |item: &'static str, kills: &[u32]| Candidate {
            item,
            size: 1,
            kills: kills.iter().copied().collect(),
        };
        let mut chosen = vec![pick("a", &[1, 2, 3]), pick("b", &[4, 5]), pick("c", &[2, 6]), pick("d", &[7])];
        let left_out = cap(&mut chosen, 2);
        assert_eq!(chosen.iter().map(|c| c.item).collect::<Vec<_>>(), ["a", "b"]);
        // `c` also kills 2, which `a` keeps a test for.
        assert_eq!(left_out, BTreeSet::from([6, 7]));
        assert!(cap(&mut chosen, 5).is_empty());
        assert_eq!(chosen.len(), 2);
    }

    #[test]
    fn the_features_are_the_results_unless_amplify_is_given_others_which_win_with_a_note() {
        let checked = Features { features: vec!["check,cb58".into()], ..Features::default() };
        assert_eq!(chosen_features(None, &checked), (checked.clone(), None));
        assert_eq!(chosen_features(None, &Features::default()), (Features::default(), None));
        assert_eq!(chosen_features(Some(&checked), &checked), (checked.clone(), None));
        let all = Features { all_features: true, ..Features::default() };
        let (chosen, note) = chosen_features(Some(&all), &checked);
        assert_eq!(chosen, all);
        assert_eq!(
            note.as_deref(),
            Some(
                "note: `cargo mutfuzz test` ran with --features check,cb58; amplify uses the flags given to it, \
                 --all-features: survivors in code those leave out are not reached, and the check runs with them"
            )
        );
    }
}
