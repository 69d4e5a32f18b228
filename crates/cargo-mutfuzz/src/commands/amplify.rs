//! `cargo mutfuzz amplify`: tests for the mutants `test` left alive (see [`crate::amplify`]).

use anyhow::Result;

use crate::commands::options::AmplifyArgs;

/// Run the command; returns the exit code.
pub fn run(args: &AmplifyArgs) -> Result<i32> {
    crate::amplify::run(&args.into())
}
