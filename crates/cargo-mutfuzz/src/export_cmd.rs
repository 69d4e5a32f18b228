//! `cargo mutfuzz export <target>`: the corpus as a regression test of the user's crate.
use anyhow::Result;

use crate::options::ExportArgs;

/// Run the command; returns the exit code.
pub fn run(_args: &ExportArgs) -> Result<i32> {
    anyhow::bail!("not yet")
}
