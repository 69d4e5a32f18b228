//! `cargo mutfuzz cmin <target>`: build the harness, record what each input of the
//! corpus covers and kills (the harness's `cmin`), and keep the smallest subset found with
//! the same coverage and kills ([`crate::fuzzing::cmin`]): written to `<corpus>.cmin` (or
//! `--output DIR`), or, with `--in-place`, the other inputs removed from the corpus.

use anyhow::{Result, anyhow};

use crate::commands::options::CminArgs;
use crate::console::exit_code;
use crate::fuzzing::cmin;
use crate::fuzzing::harness;

/// Run the command; returns the exit code.
pub fn run(args: &CminArgs) -> Result<i32> {
    let mut built = harness::build(&args.package, &args.target, args.dev, args.no_sandbox)?;
    built.set_caps(None, None)?;
    let corpus = match &args.corpus {
        Some(dir) => std::path::absolute(dir)?,
        None => built.default_corpus(&args.target),
    };
    crate::fuzzing::warn_skipped_inputs(&corpus)?;
    let records = cmin::records(&built, &args.target, &corpus)?;
    if records.is_empty() {
        return Err(exit_code::usage(anyhow!(
            "no inputs in {}: run cargo mutfuzz fuzz {} first, or pass --corpus DIR",
            corpus.display(),
            args.target
        )));
    }
    let m = cmin::choose(&records);
    eprintln!(
        "Kept {} of {} inputs ({} of {} bytes): the same {} kills, {} edges and {} mutant sites",
        m.kept.len(),
        m.inputs,
        m.bytes.1,
        m.bytes.0,
        m.kills,
        m.edges,
        m.sites
    );
    if args.in_place {
        let removed = cmin::remove_others(&corpus, &records, &m.kept)?;
        eprintln!("Removed {removed} inputs from {}", corpus.display());
    } else {
        let output = match &args.output {
            Some(dir) => std::path::absolute(dir)?,
            None => cmin::default_output(&corpus),
        };
        cmin::write_to(&corpus, &m.kept, &output)?;
        eprintln!("Wrote {}", output.display());
    }
    Ok(exit_code::SUCCESS)
}
