//! `cargo mutfuzz report`: the report of `cargo mutfuzz test`'s results
//! (`mutfuzz.out/outcomes.json`), of a fuzz target's score (`target/mutfuzz/<target>/`),
//! or of every target's combined score (`--all`: `target/mutfuzz/score.json`): one
//! self-contained HTML file and, beside it, `mutation.json` in the shared format
//! (`--format mutation-testing`: that file alone, or on stdout with `-o -`).

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result};
use mutfuzz_contract::{CampaignDir, ScoreLine, UnviableRecord, write_atomic};

use crate::commands::options::{ReportArgs, ReportFormat};
use crate::console::exit_code;
use crate::fuzzing::harness;
use crate::report::ReportModel;
use crate::report::mutation_testing::{self, MutationTestResult};
use crate::report::score_file::{FuzzOutcome, ScoreFile};
use crate::testing::output::read_outcomes;
use crate::workspace::Workspace;
use crate::workspace::layout::Layout;

/// Run the command; returns the exit code.
pub fn run(args: &ReportArgs) -> Result<i32> {
    let ws = Workspace::open(&args.package)?;
    let names: Vec<&str> = ws.packages.iter().map(|p| p.name.as_str()).collect();
    let (mut report, default_out) = match &args.target {
        None if args.all => {
            let layout = Layout::new(&ws.target_dir);
            let file = match &args.results {
                Some(path) if path.is_dir() => path.join("score.json"),
                Some(path) => path.clone(),
                None => layout.combined_score(),
            };
            let r = combined_report(format!("every fuzz target of {}", names.join(", ")), &file, &layout)
                .map_err(exit_code::usage)?;
            (r, file.with_file_name("report.html"))
        }
        None => {
            let dir = args.results.clone().unwrap_or_else(|| ws.root.join("mutfuzz.out"));
            let combined = Layout::new(&ws.target_dir).combined_score();
            let read = read_outcomes(&dir)
                .map_err(|e| {
                    // `report` alone is `cargo mutfuzz test`'s, as `cargo mutants` users expect;
                    // a user who scored fuzz targets is pointed at their report.
                    if args.results.is_none() && combined.is_file() {
                        anyhow::anyhow!(
                            "{e:#}; for the combined score of the fuzz targets ({}), run `cargo mutfuzz report --all`",
                            combined.display()
                        )
                    } else {
                        e
                    }
                })
                .map_err(exit_code::usage)?;
            let mut r = ReportModel::from_test(
                format!("the tests of {}", names.join(", ")),
                &read.outcomes,
                &read.tests,
            );
            if let Some(amplified) = crate::amplify::write::AmplifiedFile::read_latest(&dir, &read.outcomes) {
                for e in &mut r.entries {
                    e.amplified = amplified.note(e.mutant.id);
                }
                r.notes.push(format!("cargo mutfuzz amplify wrote {} tests", amplified.tests.len()));
            }
            r.notes.push(format!("cargo mutfuzz test · results in {}", dir.display()));
            (r, dir.join("report.html"))
        }
        Some(target) => {
            harness::check_target_name(target).map_err(exit_code::usage)?;
            let state = Layout::new(&ws.target_dir).campaign(target);
            let subject = format!("fuzz target {target} of {}", names.join(", "));
            match &args.results {
                // A score.json, e.g. merged from shards: the verdicts are its, the catalog
                // the target's (the same mutants on every machine).
                Some(path) => {
                    let file = if path.is_dir() { path.join("score.json") } else { path.clone() };
                    let score = read_score_file(&file).map_err(exit_code::usage)?;
                    let mut r =
                        score_file_report(subject, &file, &score, &state).map_err(exit_code::usage)?;
                    r.name_killing_inputs(|_| Some(target.as_str()));
                    let out = file.with_file_name("report.html");
                    (r, out)
                }
                None => {
                    let stats = stats_state(&Layout::new(&ws.target_dir), target, &state);
                    let mut r = ReportModel::read_score(subject, &state, &stats).map_err(exit_code::usage)?;
                    r.name_killing_inputs(|_| Some(target.as_str()));
                    r.notes.push(format!(
                        "cargo mutfuzz score {target} · records in {}",
                        state.path().display()
                    ));
                    (r, state.report())
                }
            }
        }
    };
    report.load_sources(&ws.root);
    let shared = MutationTestResult::from_report(&report, &ws.root);
    let json = serde_json::to_string_pretty(&shared)? + "\n";
    let written = match args.format {
        ReportFormat::Html => {
            let out = args.output.clone().unwrap_or(default_out);
            if out.as_os_str() == "-" {
                return Err(exit_code::usage(anyhow::anyhow!(
                    "`--output -` writes mutation.json to stdout: add --format mutation-testing"
                )));
            }
            write_atomic(&out, report.to_html().as_bytes())?;
            // Beside every HTML report, so a CI step can upload it without asking for it.
            let beside = out.with_file_name(mutation_testing::FILE_NAME);
            write_atomic(&beside, json.as_bytes())?;
            format!("report in {}; {} beside it", out.display(), mutation_testing::FILE_NAME)
        }
        ReportFormat::MutationTesting => match &args.output {
            Some(path) if path.as_os_str() == "-" => {
                use std::io::Write as _;
                std::io::stdout().lock().write_all(json.as_bytes())?;
                "mutation-testing report on stdout".to_owned()
            }
            out => {
                let out =
                    out.clone().unwrap_or_else(|| default_out.with_file_name(mutation_testing::FILE_NAME));
                write_atomic(&out, json.as_bytes())?;
                format!("mutation-testing report in {}", out.display())
            }
        },
    };
    let c = report.counts();
    eprintln!(
        "{} mutants, score {}; {written}",
        c.total(),
        c.score().map_or("-".to_owned(), |s| format!("{s:.1}%"))
    );
    Ok(exit_code::SUCCESS)
}

/// A `score.json`.
/// The campaign state holding the `stats.csv` of the corpus `target`'s last score scored:
/// the target's own, or for a corpus given as `--corpus DIR` the state `fuzz` kept apart
/// for it.
fn stats_state(layout: &Layout, target: &str, state: &CampaignDir) -> CampaignDir {
    if state.stats_csv().is_file() {
        return state.clone();
    }
    match read_score_file(&state.score()) {
        Ok(score) => layout.campaign_on(target, &score.corpus),
        Err(_) => state.clone(),
    }
}

fn read_score_file(file: &Path) -> Result<ScoreFile> {
    let text = std::fs::read_to_string(file).with_context(|| {
        format!("cannot read {}: pass a score.json or a directory holding one", file.display())
    })?;
    serde_json::from_str(&text).with_context(|| format!("{} is not a score.json", file.display()))
}

/// The report of a combined score (`score --all`, or a merge of its shards): the
/// verdicts over the first target's catalog (every target has the same), each kill
/// naming the target whose corpus holds its input, and each target's counts as notes.
fn combined_report(subject: String, file: &Path, layout: &Layout) -> Result<ReportModel> {
    let score = read_score_file(file).with_context(|| {
        format!("no combined score: run `cargo mutfuzz score --all` first (it writes {})", file.display())
    })?;
    let Some(targets) = score.targets.as_deref().filter(|t| !t.is_empty()) else {
        anyhow::bail!(
            "{} is the score of the target {}, not of every target: report it with `cargo mutfuzz report {} \
             --results {}`, or run `cargo mutfuzz score --all`",
            file.display(),
            score.target,
            score.target,
            file.display()
        );
    };
    let state = layout.campaign(&targets[0].target);
    let mut r = score_file_report(subject, file, &score, &state)?;
    let by_target: HashMap<u32, &str> =
        score.mutants.iter().filter_map(|m| Some((m.id, m.target.as_deref()?))).collect();
    r.name_killing_inputs(|id| by_target.get(&id).copied());
    for e in &mut r.entries {
        if let Some(target) = by_target.get(&e.mutant.id) {
            // An input's name is its target's corpus file: `<target>/<name>`.
            e.by = e.by.iter().map(|input| format!("{target}/{input}")).collect();
        }
    }
    for t in targets {
        r.notes.push(format!("{}: {} inputs; {}", t.target, t.inputs, t.summary.line()));
    }
    Ok(r)
}

/// The report of a `score.json` (the `score` command's summary file, or a merge of
/// shards), over the target's catalog in `state`.
fn score_file_report(
    subject: String,
    file: &Path,
    score: &ScoreFile,
    state: &CampaignDir,
) -> Result<ReportModel> {
    let catalog: Vec<mutfuzz_mutate::Mutant> =
        serde_json::from_str(&std::fs::read_to_string(state.catalog()).with_context(|| {
            format!(
                "no mutant catalog at {}: run `cargo mutfuzz score` (or `build`) here first",
                state.catalog().display()
            )
        })?)?;
    let verdicts: Vec<ScoreLine> = score.mutants.iter().filter_map(|m| m.line()).collect();
    let unviable: Vec<UnviableRecord> = score
        .mutants
        .iter()
        .filter(|m| m.outcome == FuzzOutcome::Unviable)
        .map(|m| UnviableRecord { id: m.id, reason: "does not compile (see unviable.json)".to_owned() })
        .collect();
    let mut r = ReportModel::from_score(subject, &catalog, &unviable, &verdicts, Vec::new());
    r.notes.push(format!(
        "score of {} inputs of {} · from {}",
        score.inputs,
        score.corpus.display(),
        file.display()
    ));
    Ok(r)
}
