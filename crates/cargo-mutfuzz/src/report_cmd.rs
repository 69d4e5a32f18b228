//! `cargo mutfuzz report`: the HTML report of `cargo mutfuzz test`'s results
//! (`mutfuzz.out/outcomes.json`), or of a fuzz target's score
//! (`target/mutfuzz/<target>/`), written as one self-contained file.

use anyhow::Result;
use mutfuzz_contract::write_atomic;

use crate::exit_code;
use crate::harness;
use crate::layout::Layout;
use crate::options::ReportArgs;
use crate::output::read_outcomes;
use crate::report::Report;
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
            let mut r = Report::read_score(format!("fuzz target {target} of {}", names.join(", ")), &state)
                .map_err(exit_code::usage)?;
            r.notes.push(format!("cargo mutfuzz score {target} · records in {}", state.path().display()));
            (r, state.report())
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
