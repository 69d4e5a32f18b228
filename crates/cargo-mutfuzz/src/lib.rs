//! `cargo mutfuzz`: mutation testing of a crate's own test suite from one schema build,
//! and mutation-guided fuzzing of a harness built against the same schema.
//!
//! The binary is a thin wrapper over [`run`]; the library exists so that benchmarks and
//! tests can drive the same code.

pub mod amplify;
mod amplify_cmd;
pub mod annotations;
mod auto_harness;
pub mod baseline;
pub mod binaries;
mod build_cmd;
pub mod caps;
pub mod cargo_build;
pub mod cmin;
mod cmin_cmd;
pub mod console;
pub mod dev_deps;
pub mod diagnostics;
pub mod doctest_target;
pub mod engine;
mod eval_cmd;
pub mod exit_code;
mod export_cmd;
pub mod filter;
pub mod fpf;
pub mod fs_util;
mod fuzz_cmd;
pub mod fuzzing;
pub mod harness;
mod init_cmd;
pub mod interrupt;
pub mod lab;
pub mod layout;
pub mod lint_check;
pub mod lints;
pub mod list;
pub mod loader;
pub mod lock;
mod merge_cmd;
mod mutants_cmd;
pub mod mutants_first;
pub mod options;
pub mod outcome;
pub mod output;
mod pool;
pub mod process;
pub mod records;
pub mod report;
mod report_cmd;
mod run_cmd;
pub mod rustc_wrapper;
pub mod sandbox;
pub mod schema_build;
pub mod score;
mod score_cmd;
pub mod scratch;
pub mod selection;
pub mod shrinking;
pub mod status;
pub mod supervise;
mod test_cmd;
pub mod testing;
mod tmin_cmd;
pub mod viability;
pub mod viability_cache;
pub mod workspace;

use std::ffi::OsString;

use clap::Parser;

use options::{Cli, Command};

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
    let result = match &cli.command {
        Command::Mutants(a) => mutants_cmd::run(a),
        Command::Test(a) => test_cmd::run(a),
        Command::Init(a) => init_cmd::run(a),
        Command::Fuzz(a) => fuzz_cmd::run(a),
        Command::Score(a) => score_cmd::run(a),
        Command::Run(a) => run_cmd::run(a),
        Command::Tmin(a) => tmin_cmd::run(a),
        Command::Cmin(a) => cmin_cmd::run(a),
        Command::Eval(a) => eval_cmd::run(a),
        Command::Amplify(a) => amplify_cmd::run(a),
        Command::Report(a) => report_cmd::run(a),
        Command::Export(a) => export_cmd::run(a),
        Command::Merge(a) => merge_cmd::run(a),
        Command::Build(a) => build_cmd::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            exit_code::of_error(&e)
        }
    }
}
