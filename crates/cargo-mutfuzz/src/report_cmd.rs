//! `cargo mutfuzz report`: the HTML report of `cargo mutfuzz test`'s results
//! (`mutfuzz.out/outcomes.json`), or of a fuzz target's score
//! (`target/mutfuzz/<target>/`), written as one self-contained file.

use anyhow::{Context, Result};
use mutfuzz_contract::{CampaignDir, ScoreLine, UnviableRecord, write_atomic};

use crate::exit_code;
use crate::harness;
use crate::layout::Layout;
use crate::options::ReportArgs;
use crate::output::read_outcomes;
use crate::report::Report;
use crate::score_cmd::{ScoreFile, Verdict};
use crate::workspace::Workspace;

/// Run the command; returns the exit code.
pub fn run(args: &ReportArgs) -> Result<i32> {
    let ws = Workspace::open(&args.package)?;
    let names: Vec<&str> = ws.packages.iter().map(|p| p.name.as_str()).collect();
    let (mut report, default_out) = match &args.target {
        None => {
            let dir = args.results.clone().unwrap_or_else(|| ws.root.join("mutfuzz.out"));
            let outcomes = read_outcomes(&dir).map_err(exit_code::usage)?;
            let mut r = Report::from_test(format!("the tests of {}", names.join(", ")), &outcomes);
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
                    let r = score_file_report(subject, &file, &state).map_err(exit_code::usage)?;
                    let out = file.with_file_name("report.html");
                    (r, out)
                }
                None => {
                    let mut r = Report::read_score(subject, &state).map_err(exit_code::usage)?;
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
    let out = args.output.clone().unwrap_or(default_out);
    write_atomic(&out, report.to_html().as_bytes())?;
    let c = report.counts();
    eprintln!(
        "{} mutants, score {}; report in {}",
        c.total(),
        c.score().map_or("-".to_owned(), |s| format!("{s:.1}%")),
        out.display()
    );
    Ok(exit_code::SUCCESS)
}

/// The report of a `score.json` (the `score` command's summary file, or a merge of
/// shards), over the target's catalog in `state`.
fn score_file_report(subject: String, file: &std::path::Path, state: &CampaignDir) -> Result<Report> {
    let text = std::fs::read_to_string(file).with_context(|| {
        format!("cannot read {}: pass a score.json or a directory holding one", file.display())
    })?;
    let score: ScoreFile =
        serde_json::from_str(&text).with_context(|| format!("{} is not a score.json", file.display()))?;
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
        .filter(|m| m.outcome == Verdict::Unviable)
        .map(|m| UnviableRecord { id: m.id, reason: "does not compile (see unviable.json)".to_owned() })
        .collect();
    let mut r = Report::from_score(subject, &catalog, &unviable, &verdicts, Vec::new());
    r.notes.push(format!(
        "score of {} inputs of {} · from {}",
        score.inputs,
        score.corpus.display(),
        file.display()
    ));
    Ok(r)
}
