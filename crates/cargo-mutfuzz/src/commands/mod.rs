//! One thin file per subcommand: its arguments (`options`, clap) made into the plain
//! values the stages take, the stage run, the result printed. No command imports another;
//! what two commands share lives in the stage folders below.

mod amplify;
mod build;
mod cmin;
mod eval;
pub(crate) mod export;
mod fuzz;
mod init;
mod merge;
mod mutants;
pub(crate) mod options;
mod report;
mod run;
mod score;
mod test;
mod tmin;
use anyhow::Result;

use options::{Command, FilterArgs, PackageArgs};

/// Run one parsed command; its exit code.
pub(crate) fn run(command: &Command) -> Result<i32> {
    match command {
        Command::Mutants(a) => mutants::run(a),
        Command::Test(a) => test::run(a),
        Command::Init(a) => init::run(a),
        Command::Fuzz(a) => fuzz::run(a),
        Command::Score(a) => score::run(a),
        Command::Run(a) => run::run(a),
        Command::Tmin(a) => tmin::run(a),
        Command::Cmin(a) => cmin::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Amplify(a) => amplify::run(a),
        Command::Report(a) => report::run(a),
        Command::Export(a) => export::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Build(a) => build::run(a),
    }
}

/// What `fuzz` and `score` check before they build: the hang timeout, and whether the
/// filters match no mutant at all (said; then the exit code is 0 and nothing is built).
fn check_before_build(hang_timeout: f64, package: &PackageArgs, filter: &FilterArgs) -> Result<Option<i32>> {
    crate::process::interrupt::install();
    crate::fuzzing::check_hang_timeout(hang_timeout)?;
    if let Some(message) = crate::catalog::filter::matches_nothing_before_build(package, filter)? {
        eprintln!("{message}");
        return Ok(Some(crate::console::exit_code::SUCCESS));
    }
    Ok(None)
}
