//! `cargo mutfuzz build`: the harness built against the schema, copied out as one
//! libFuzzer-style binary per target (`<out>/<target>`) with its mutant catalog beside
//! it (`<target>.mutants.json`), for ClusterFuzzLite, OSS-Fuzz or any runner that
//! speaks libFuzzer's command line (see the engine's `libfuzzer` module).

use std::fs;

use anyhow::{Context, Result};

use crate::commands::options::BuildArgs;
use crate::console::exit_code;
use crate::fuzzing::harness;

/// Run the command; returns the exit code.
pub fn run(args: &BuildArgs) -> Result<i32> {
    crate::process::interrupt::install();
    let built = harness::build(&args.package, &args.targets[0], args.dev, false)?;
    let targets = harness::list_targets(&built)?;
    for t in &args.targets {
        if !targets.contains(t) {
            return Err(exit_code::usage(anyhow::anyhow!(
                "the harness has no target {t:?}; its targets are: {}",
                targets.join(", ")
            )));
        }
    }
    fs::create_dir_all(&args.out).with_context(|| format!("failed to create {}", args.out.display()))?;
    let catalog = built.state.viable();
    for t in &args.targets {
        let binary = args.out.join(t);
        // A fresh file: the runner may still have the old one open.
        let _ = fs::remove_file(&binary);
        fs::copy(&built.binary, &binary)
            .with_context(|| format!("failed to copy {} to {}", built.binary.display(), binary.display()))?;
        let mutants = args.out.join(format!("{t}.mutants.json"));
        fs::copy(&catalog, &mutants).with_context(|| format!("failed to write {}", mutants.display()))?;
        eprintln!("{} (libFuzzer's command line) and {}", binary.display(), mutants.display());
    }
    Ok(exit_code::SUCCESS)
}
