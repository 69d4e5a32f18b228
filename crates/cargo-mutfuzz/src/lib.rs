//! `cargo mutfuzz`: mutation testing of a crate's own test suite from one schema build,
//! and mutation-guided fuzzing of a harness built against the same schema.
//!
//! The binary is a thin wrapper over [`run`]; the library exists so that benchmarks and
//! tests can drive the same code.

pub(crate) mod amplify;
pub(crate) mod catalog;
mod commands;
pub(crate) mod console;
pub(crate) mod fuzzing;
pub(crate) mod process;
pub(crate) mod report;
pub(crate) mod schema;
pub(crate) mod score;
pub(crate) mod testing;
pub(crate) mod workspace;

// The public surface: what the binary, the benchmarks and the tests drive.
pub use process::sandbox;
pub use schema::rustc_wrapper;
pub use schema::schema_build::write_schema;
pub use workspace::scratch::Scratch;
pub use workspace::{PackageChoice, Workspace};

use std::ffi::OsString;

use clap::Parser;

use commands::options::Cli;
use console::exit_code;

/// Run `cargo mutfuzz` with `args` (including the program name); returns the exit code.
///
/// Accepts both `cargo mutfuzz <cmd>` (cargo passes `mutfuzz` as the first argument) and
/// `cargo-mutfuzz <cmd>`.
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    let mut args: Vec<OsString> = args.into_iter().collect();
    if args.get(1).is_some_and(|a| a == "mutfuzz") {
        args.remove(1);
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { exit_code::USAGE } else { exit_code::SUCCESS };
        }
    };
    let result = commands::run(&cli.command);
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            exit_code::of_error(&e)
        }
    }
}
