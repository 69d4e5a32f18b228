//! The process exit codes of `cargo mutfuzz`, one documented constant per meaning.
//!
//! They follow cargo-mutants where the meaning is the same, so CI scripts carry over.

/// Every mutant was caught (or was unviable): the tests detect every change they reach.
pub const SUCCESS: i32 = 0;
/// The command line or the config was wrong.
pub const USAGE: i32 = 1;
/// Some mutants were missed, or are not covered by any test.
pub const FOUND_PROBLEMS: i32 = 2;
/// No mutant was missed, but some timed out.
pub const TIMEOUT: i32 = 3;
/// The package does not build, or its tests fail, without any mutant active.
pub const BASELINE_FAILED: i32 = 4;
/// mutfuzz itself failed (an I/O error, cargo could not be run, …).
pub const SOFTWARE: i32 = 70;

/// An error in what the user asked for (a missing manifest, an unknown package, a bad
/// `mutfuzz.toml`): reported with exit code [`USAGE`] rather than [`SOFTWARE`].
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Mark an error as the user's.
pub fn usage(e: anyhow::Error) -> anyhow::Error {
    anyhow::Error::new(UsageError(format!("{e:#}")))
}

/// The package (or its harness) does not build without mutants: reported with exit code
/// [`BASELINE_FAILED`].
#[derive(Debug)]
pub struct BaselineError(pub String);

impl std::fmt::Display for BaselineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BaselineError {}

/// Mark an error as a build failure of the unmutated package.
pub fn baseline(e: anyhow::Error) -> anyhow::Error {
    anyhow::Error::new(BaselineError(format!("{e:#}")))
}
