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
/// `--min-score P` was given and the mutation score is below P (whatever else was found:
/// with a minimum, the score decides, not single missed mutants).
pub const BELOW_MIN_SCORE: i32 = 5;
/// mutfuzz itself failed (an I/O error, cargo could not be run, …).
pub const SOFTWARE: i32 = 70;
/// Interrupted by Ctrl-C, SIGTERM or SIGHUP (as a shell reports Ctrl-C: 128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// An error that decides the exit code: [`USAGE`] for what the user asked for (a missing
/// manifest, an unknown package, a bad `mutfuzz.toml`), [`BASELINE_FAILED`] when the package
/// or its harness does not build without mutants. Any other error is [`SOFTWARE`].
#[derive(Debug)]
pub struct CodedError {
    /// The exit code.
    pub code: i32,
    message: String,
}

impl std::fmt::Display for CodedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CodedError {}

/// Mark an error as the user's.
pub fn usage(e: impl Into<anyhow::Error>) -> anyhow::Error {
    let e = e.into();
    anyhow::Error::new(CodedError { code: USAGE, message: format!("{e:#}") })
}

/// Mark an error as a build failure of the unmutated package.
pub fn baseline(e: anyhow::Error) -> anyhow::Error {
    anyhow::Error::new(CodedError { code: BASELINE_FAILED, message: format!("{e:#}") })
}

/// The error of a step that stopped because the command was interrupted.
pub fn interrupted() -> anyhow::Error {
    anyhow::Error::new(CodedError { code: INTERRUPTED, message: "interrupted".to_owned() })
}

/// The exit code for an error that ended a command.
pub fn of_error(e: &anyhow::Error) -> i32 {
    e.downcast_ref::<CodedError>().map_or(SOFTWARE, |c| c.code)
}
