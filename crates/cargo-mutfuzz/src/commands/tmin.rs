//! `cargo mutfuzz tmin`: build the harness and shrink one input with it: keeping the
//! original's panic when it panics on the input (the harness's `tmin`), else keeping every
//! viable mutant it kills (the harness's `shrink --catalog`); writes `<input>.min`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use mutfuzz_contract::command::{
    HarnessCommand, Keep, ShrinkLimits, ShrinkRequest, TminRequest, WorkerLimits,
};
use mutfuzz_contract::{EXIT_NOT_KEPT, EXIT_SUCCESS, Kept, ShrinkLine};

use crate::commands::options::TminArgs;
use crate::console::exit_code;
use crate::fuzzing::harness::{self, Built};
use crate::fuzzing::shrinking::{Quiet, shrink_with};

/// Run the command; returns the exit code.
pub fn run(args: &TminArgs) -> Result<i32> {
    if !args.input.is_file() {
        return Err(exit_code::usage(anyhow!(
            "no input file at {}: pass a file from the corpus or from failures/",
            args.input.display()
        )));
    }
    let input = std::path::absolute(&args.input)?;
    let out = match &args.out {
        Some(out) => std::path::absolute(out)?,
        None => min_path(&input),
    };
    let built = harness::build(&args.package, &args.target, args.dev, args.no_sandbox)?;
    // The harness writes only under target/mutfuzz/ (the sandbox): a scratch file there,
    // copied out once it is complete.
    let tmp_dir = built.layout.tmp();
    std::fs::create_dir_all(&tmp_dir).with_context(|| format!("failed to create {}", tmp_dir.display()))?;
    let scratch = tmp_dir.join(format!("tmin-{}.out", std::process::id()));
    let limits = ShrinkLimits { max_runs: args.max_runs, time: args.time };
    let tmin = HarnessCommand::Tmin(TminRequest {
        target: args.target.clone(),
        file: input.clone(),
        limits,
        out: scratch.clone(),
    });
    eprintln!("Shrinking {} (the original's panic, if it panics on it)", input.display());
    // Its refusal of an input the original does not panic on is expected: kept quiet.
    let (mut code, mut line) = shrink_with(&built, &tmin, Quiet::OnRefusal)?;
    if code == EXIT_NOT_KEPT {
        eprintln!("The original does not panic on it: shrinking it while it keeps its kills");
        let shrink = HarnessCommand::Shrink(ShrinkRequest {
            target: args.target.clone(),
            file: input.clone(),
            keep: Keep::Catalog(built.state.viable()),
            // A generated target the campaign found nondeterministic is judged as it is there.
            state: Some(built.state.path().to_owned()),
            limits,
            // A mutant run writing more than the cap is killed by `crash`, as in `fuzz`.
            workers: WorkerLimits {
                max_output: Some(built.caps.output.unwrap_or(0)),
                ..WorkerLimits::default()
            },
            panic_is_failure: false,
            out: scratch.clone(),
        });
        (code, line) = shrink_with(&built, &shrink, Quiet::Never)?;
        if code == EXIT_NOT_KEPT {
            return Err(exit_code::usage(anyhow!(
                "{} kills no viable mutant and the original does not panic on it: nothing to keep",
                input.display()
            )));
        }
    }
    let Some(line) = line.filter(|_| code == EXIT_SUCCESS) else {
        return Err(anyhow!("the harness's shrink ended with exit code {code}, without a result"));
    };
    std::fs::copy(&scratch, &out)
        .with_context(|| format!("failed to write {} (from {})", out.display(), scratch.display()))?;
    let _ = std::fs::remove_file(&scratch);
    eprintln!("{}", describe(&line, &built));
    eprintln!("Wrote {}", out.display());
    Ok(exit_code::SUCCESS)
}

/// `<input>.min` beside the input.
fn min_path(input: &Path) -> PathBuf {
    let mut name = input.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".min");
    input.with_file_name(name)
}

/// The result for the user: sizes, runs, and what was kept (each mutant described).
fn describe(line: &ShrinkLine, built: &Built) -> String {
    let head = format!("Shrunk {} → {} bytes in {} runs", line.before, line.after, line.runs);
    match &line.kept {
        Kept::Panic(message) => format!("{head}; the original still panics: {message}"),
        Kept::Kills(ids) => {
            let mut text = format!("{head}; still kills {} mutant(s):", ids.len());
            for id in ids {
                match built.discovery.mutants.iter().find(|m| m.id == *id) {
                    Some(m) => text.push_str(&format!("\n  {id}: {}", m.description)),
                    None => text.push_str(&format!("\n  {id}")),
                }
            }
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_output_is_the_input_name_with_min_appended() {
        assert_eq!(min_path(Path::new("/c/corpus/0af3")), PathBuf::from("/c/corpus/0af3.min"));
        assert_eq!(min_path(Path::new("/f/crash.bin")), PathBuf::from("/f/crash.bin.min"));
    }
}
