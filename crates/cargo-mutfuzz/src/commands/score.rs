//! `cargo mutfuzz score`: run a corpus against every viable mutant with a generous budget
//! (the harness's `score` command), under the same supervision as `fuzz`: each mutant's
//! first run is in a worker process, where a crash or hang kills it; one on a later
//! input kills the mutant running, which is recorded and the harness restarted, and it
//! resumes after the mutants already scored. Prints the table and writes `score.json`.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;
use mutfuzz_contract::write_atomic;

use crate::catalog::filter::RunFilter;
use crate::catalog::selection::Selection;
use crate::commands::options::ScoreArgs;
use crate::console::exit_code;
use crate::fuzzing::harness;
use crate::process::interrupt;
use crate::report::score_file::{FuzzOutcome, ScoreFile, min_score_exit};
use crate::score::{ScoreHow, contract_panics_line, score_corpus};

/// Run the command; returns the exit code.
pub fn run(args: &ScoreArgs) -> Result<i32> {
    if let Some(code) = super::check_before_build(args.hang_timeout, &args.package, &args.filter)? {
        return Ok(code);
    }
    if args.all {
        return run_all(args);
    }
    let start = Instant::now();
    let mut built = harness::build(&args.package, &args.target, args.dev, args.no_sandbox)?;
    built.set_caps(args.max_memory.as_deref(), args.max_output.as_deref())?;
    let corpus = match &args.corpus {
        Some(dir) => std::path::absolute(dir)?,
        None => built.default_corpus(&args.target),
    };
    let hang = Duration::from_secs_f64(args.hang_timeout);
    let filter = RunFilter::new(&built.ws, &args.filter)?;
    let mut selection = Selection::from_args(
        &built.discovery.mutants,
        args.ci.in_diff.as_deref(),
        Some(&filter),
        args.ci.shard,
    )?;
    if let Some(file) = &args.mutants_file {
        selection.restrict_to_file(&built.discovery.mutants, file)?;
    }
    if let Some(text) = selection.describe() {
        eprintln!("{text}");
    }
    // The campaign's state for this corpus, where a nondeterministic target is recorded.
    let state = if args.corpus.is_none() {
        built.state.clone()
    } else {
        built.layout.campaign_on(&args.target, &corpus)
    };
    let how = ScoreHow {
        selection: &selection,
        format: args.format,
        state: state.path(),
        panic_is_failure: args.panic_is_failure,
        prune: args.prune,
        jobs: args.jobs,
    };
    let Some(scored) = score_corpus(&built, &args.target, &corpus, &built.state.score_lines(), hang, &how)?
    else {
        eprintln!("interrupted: the score is incomplete");
        return Ok(interrupt::EXIT_CODE);
    };
    print!("{}", scored.table.render());
    print_contract_panics(scored.contract_panics, &built.state.score_lines(), "");
    let file = scored.score_file(&built, &args.target, &corpus, &selection, start.elapsed().as_secs_f64());
    let path = built.state.score();
    write_score(&path, &file)?;
    annotate(args, &built, &file);
    eprintln!("Scores in {}", path.display());
    Ok(min_score_exit(&scored.table, args.ci.min_score))
}

/// `score --all`: every target's corpus scored on the one catalog (each target's
/// `score.json` written as `score <target>` writes it), then the combined result.
fn run_all(args: &ScoreArgs) -> Result<i32> {
    let start = Instant::now();
    let (mut built, targets) = harness::build_all(&args.package, args.dev, args.no_sandbox)?;
    built.set_caps(args.max_memory.as_deref(), args.max_output.as_deref())?;
    let hang = Duration::from_secs_f64(args.hang_timeout);
    let filter = RunFilter::new(&built.ws, &args.filter)?;
    let selection = Selection::from_args(
        &built.discovery.mutants,
        args.ci.in_diff.as_deref(),
        Some(&filter),
        args.ci.shard,
    )?;
    if let Some(text) = selection.describe() {
        eprintln!("{text}");
    }
    let mut scores = Vec::new();
    // Each target's panics by contract, printed under its line.
    let mut contract = Vec::new();
    let mut skipped = Vec::new();
    for target in &targets {
        let corpus = built.default_corpus(target);
        if !corpus.is_dir() {
            eprintln!("{target}: no corpus at {}: not scored", corpus.display());
            skipped.push(target.as_str());
            continue;
        }
        // The target's own state holds its log, its score lines and its score.json.
        built.state = built.layout.campaign(target);
        let how = ScoreHow {
            selection: &selection,
            format: args.format,
            state: built.state.path(),
            panic_is_failure: args.panic_is_failure,
            prune: args.prune,
            jobs: args.jobs,
        };
        let target_start = Instant::now();
        let Some(scored) = score_corpus(&built, target, &corpus, &built.state.score_lines(), hang, &how)?
        else {
            eprintln!("interrupted: the score is incomplete");
            return Ok(interrupt::EXIT_CODE);
        };
        let file =
            scored.score_file(&built, target, &corpus, &selection, target_start.elapsed().as_secs_f64());
        write_score(&built.state.score(), &file)?;
        scores.push(file);
        contract.push((scored.contract_panics, built.state.score_lines()));
    }
    if scores.is_empty() {
        return Err(exit_code::usage(anyhow::anyhow!(
            "no target has a corpus ({}): run `cargo mutfuzz fuzz --all` first",
            skipped.join(", ")
        )));
    }
    let corpus_root = built.harness.dir.join("corpus");
    let combined = ScoreFile::combine(&scores, &corpus_root, start.elapsed().as_secs_f64())?;
    print_targets(&combined, &contract);
    print!("{}", combined.summary.render());
    let path = built.layout.combined_score();
    write_score(&path, &combined)?;
    annotate(args, &built, &combined);
    eprintln!("Combined scores of {} targets in {}", scores.len(), path.display());
    Ok(min_score_exit(&combined.summary, args.ci.min_score))
}

/// One line per target of a combined score, on stdout above the combined table, each
/// followed by its panics by contract if it had any (`contract`: each target's count of
/// them and its score lines, in the same order).
fn print_targets(combined: &ScoreFile, contract: &[((u64, usize), std::path::PathBuf)]) {
    let targets = combined.targets.as_deref().unwrap_or_default();
    let w = targets.iter().map(|t| t.target.len()).max().unwrap_or(0);
    for (t, (panics, lines)) in targets.iter().zip(contract) {
        println!("{:<w$}  {:>6} inputs  {}", t.target, t.inputs, t.summary.line());
        print_contract_panics(*panics, lines, "  ");
    }
}

/// The line of a score's panics by contract (`Scored::contract_panics`: inputs and
/// messages) on stdout after `indent`, and where they are on stderr, if there were any.
fn print_contract_panics((inputs, messages): (u64, usize), score_lines: &Path, indent: &str) {
    if let Some(line) = contract_panics_line(inputs, messages) {
        println!("{indent}{line}");
        eprintln!(
            "{indent}  messages and inputs in {}",
            mutfuzz_contract::score_contract_panic_log(score_lines).display()
        );
    }
}

/// `--annotations`: a warning per surviving mutant (reached, not killed) on stdout.
fn annotate(args: &ScoreArgs, built: &harness::Built, file: &ScoreFile) {
    if !crate::console::annotations::enabled(&args.annotations) {
        return;
    }
    let prefix = crate::console::annotations::repository_prefix(&built.ws.root);
    let by_id: std::collections::HashMap<u32, &mutfuzz_mutate::Mutant> =
        built.discovery.mutants.iter().map(|m| (m.id, m)).collect();
    for s in file.mutants.iter().filter(|s| s.outcome == FuzzOutcome::Survived) {
        if let Some(m) = by_id.get(&s.id) {
            println!("{}", crate::console::annotations::warning(&prefix, m, "Surviving mutant"));
        }
    }
}

fn write_score(path: &Path, file: &ScoreFile) -> Result<()> {
    write_atomic(path, (serde_json::to_string_pretty(file)? + "\n").as_bytes())?;
    Ok(())
}
