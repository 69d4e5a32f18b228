//! `export`'s readable form: a target's corpus as `#[test]`s a person would commit — the
//! corpus scored so each mutant it kills keeps one killing input, each shrunk while it
//! keeps its kills, a small set chosen, written as `amplify` writes tests (a generated
//! target's as calls of the crate, a hand-written one's as calls of the harness, which
//! the file includes), and checked to pass on the code as it is. Nothing is vendored.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result};
use mutfuzz_api::test_writer;
use mutfuzz_contract::ScoreOutcome;

use super::{shrunk, verify, write};
use crate::catalog::selection::Selection;
use crate::console::{count, exit_code};
use crate::fuzzing::Files;
use crate::fuzzing::cover;
use crate::fuzzing::harness;
use crate::score::{self, ScoreHow};

/// Most runs spent shrinking each input.
const SHRINK_RUNS: u64 = 2000;

/// Run the readable export; returns the exit code.
pub fn readable(args: &super::ExportSettings) -> Result<i32> {
    let built = harness::build(&args.package, &args.target, args.dev, false)?;
    let corpus = match &args.corpus {
        Some(dir) => std::path::absolute(dir)?,
        None => built.default_corpus(&args.target),
    };
    if !corpus.is_dir() {
        return Err(exit_code::usage(anyhow::anyhow!(
            "no corpus at {}: run `cargo mutfuzz fuzz {}` first, or pass --corpus DIR",
            corpus.display(),
            args.target
        )));
    }
    let package = harness::single_package(&built.ws)?.clone();
    // The generated module as the user's harness builds the package: with its features.
    let features = crate::workspace::Features::of_dependency(&built.harness.manifest, &package.name);
    let generated = write::harness(&built.ws, &package, &built.layout, &features)?;
    let selection = Selection::all(&built.discovery.mutants);
    let how = ScoreHow {
        selection: &selection,
        format: mutfuzz_contract::InputFormat::Mutfuzz,
        state: built.state.path(),
        panic_is_failure: false,
        prune: mutfuzz_contract::Prune::default(),
        jobs: 1,
    };
    let out = built.state.path().join("export-score.jsonl");
    let scored = score::score_corpus(&built, &args.target, &corpus, &out, super::SCORE_HANG, &how)?
        .ok_or_else(exit_code::interrupted)?;
    let mut by_input: BTreeMap<(String, String), BTreeSet<u32>> = BTreeMap::new();
    for (id, line) in scored.verdicts {
        if let (ScoreOutcome::Killed, Some(input)) = (line.outcome, line.input) {
            by_input.entry((args.target.clone(), input)).or_default().insert(id);
        }
    }
    let killed: usize = by_input.values().map(BTreeSet::len).sum();
    let files = Files { state: built.state.clone(), corpus };
    let runs = BTreeMap::from([(args.target.clone(), &files)]);
    let dir = built.layout.amplify().join("export");
    let candidates = shrunk(&built, by_input, &runs, SHRINK_RUNS, &dir.join("shrunk"))?;
    let chosen = cover::choose(&candidates);
    let nondeterministic: BTreeSet<String> =
        files.state.nondeterministic().exists().then(|| args.target.clone()).into_iter().collect();
    let tests = write::tests(&built, &generated, &package, &chosen, &nondeterministic, &dir)?;
    for note in &tests.notes {
        eprintln!("{note}");
    }
    let file = format!("mutfuzz_{}.rs", args.target);
    let gate = features.gate(&package.root.join("Cargo.toml"), &package.name);
    let head = test_writer::FileHead {
        doc: format!(
            "//! Tests written by `cargo mutfuzz export {}` for `{}`: the inputs of the target's corpus\n\
             //! that kill mutants, shrunk, one per mutant they kill (listed above each).\n",
            args.target, package.name
        ),
        include: tests.include.clone(),
        features: gate.0,
        features_off: gate.1,
    };
    let copy = verify::Copy::make(&built.ws, &package, &features, &file)?;
    // As `amplify`'s: a test of an item behind a default feature is `cfg`'d on it.
    let gated = super::gate::default_gated(&package, &features)?;
    let written = tests.written.into_iter().map(|t| super::gate::apply(t, &gated)).collect();
    let (mut kept, dropped) = verify::passing(&copy, &file, &head, written)?;
    test_writer::renumber(&mut kept);
    if kept.is_empty() {
        eprintln!("No test of {}'s corpus could be written: {}", args.target, tests.why.join("; "));
        return Ok(exit_code::SUCCESS);
    }
    let text = crate::fuzzing::auto_harness::rustfmt(
        &test_writer::file(&head, &kept),
        &package.root,
        &package.edition,
    );
    let path = package.root.join("tests").join(&file);
    std::fs::create_dir_all(package.root.join("tests")).context("failed to create tests/")?;
    mutfuzz_contract::write_atomic(&path, text.as_bytes())?;
    if let Some(note) = verify::undeclared_note(&package.root, &file) {
        eprintln!("{note}");
    }
    let lines: usize = kept.iter().map(|t| t.text.lines().count()).sum();
    eprintln!(
        "Wrote {}: {}, {:.0} lines each on average, for the {killed} mutants the corpus kills",
        path.display(),
        count(kept.len(), "test"),
        lines as f64 / kept.len() as f64
    );
    for (name, why) in dropped {
        eprintln!("  dropped {name}: {why}");
    }
    for why in &tests.why {
        eprintln!("  not written: {why}");
    }
    Ok(exit_code::SUCCESS)
}
