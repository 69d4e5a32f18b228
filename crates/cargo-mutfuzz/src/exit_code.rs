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
