//! `cargo mutfuzz run`: build the harness and run a target's original code on one stored
//! input, showing its output or panic (to reproduce a failure).

use anyhow::{Context, Result};
use mutfuzz_contract::command::{HarnessCommand, RunRequest};

use crate::commands::options::RunArgs;
use crate::console::exit_code;
use crate::fuzzing::harness;

/// Run the command; returns the harness's exit code (0, or 101 for a panic).
pub fn run(args: &RunArgs) -> Result<i32> {
    if !args.input.is_file() {
        return Err(exit_code::usage(anyhow::anyhow!(
            "no input file at {}: pass a file from the corpus or from failures/",
            args.input.display()
        )));
    }
    let input = std::path::absolute(&args.input)?;
    let built = harness::build(&args.package, &args.target, args.dev, args.no_sandbox)?;
    // The original only reads the input: nothing but target/mutfuzz/ is writable.
    let status = built
        .sandboxed_command(
            &HarnessCommand::Run(RunRequest {
                target: args.target.clone(),
                file: input,
                format: args.format,
            }),
            &[],
        )?
        .status()
        .with_context(|| format!("failed to run the harness {}", built.binary.display()))?;
    Ok(match status.code() {
        Some(code) => code,
        None => {
            eprintln!("the target died: {status}");
            exit_code::SOFTWARE
        }
    })
}
