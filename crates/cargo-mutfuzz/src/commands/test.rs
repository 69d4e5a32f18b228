//! `cargo mutfuzz test`: mutation-test the crate's own tests (see [`crate::testing`]).

use anyhow::Result;

use crate::commands::options::TestArgs;

/// Run the command; returns the exit code.
pub fn run(args: &TestArgs) -> Result<i32> {
    crate::testing::run(&args.into(), None)
}
