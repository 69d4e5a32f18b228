//! Command-line options, parsed with clap; `cargo mutfuzz <command>` and `cargo-mutfuzz <command>`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Mutation testing and mutant-killing fuzzing for Rust crates, from one schema build.
#[derive(Debug, Parser)]
#[command(name = "cargo-mutfuzz", bin_name = "cargo mutfuzz", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the mutants of the package, one per line (or the catalog as JSON).
    Mutants(MutantsArgs),
    /// Mutation-test the package's own test suite, with one build for every mutant.
    Test(TestArgs),
}

/// Which package, shared by every command.
#[derive(Debug, Clone, Args)]
pub struct PackageArgs {
    /// Path to Cargo.toml of the package or workspace.
    #[arg(long, value_name = "PATH", help_heading = "Package")]
    pub manifest_path: Option<PathBuf>,
    /// Package(s) to mutate (default: the current package, or every default member).
    #[arg(long, short = 'p', value_name = "SPEC", help_heading = "Package")]
    pub package: Vec<String>,
}

/// `cargo mutfuzz mutants`.
#[derive(Debug, Args)]
pub struct MutantsArgs {
    #[command(flatten)]
    pub package: PackageArgs,
    /// Print the catalog as JSON (id, file, span, function, operator, original, replacement).
    #[arg(long)]
    pub json: bool,
}

/// `cargo mutfuzz test`.
#[derive(Debug, Args)]
pub struct TestArgs {
    #[command(flatten)]
    pub package: PackageArgs,
    /// Run this many test processes at once (default: the number of CPUs).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// A mutant times out when it spends this many times the fuel or wall time of the
    /// unmutated tests (default 5, or `timeout_multiplier` in mutfuzz.toml).
    #[arg(long, value_name = "K")]
    pub timeout_multiplier: Option<f64>,
    /// Smallest wall-clock timeout of one test process, in seconds (default 10).
    #[arg(long, value_name = "SECS")]
    pub minimum_timeout: Option<f64>,
    /// Features to enable in the package, as for cargo.
    #[arg(long, short = 'F', value_name = "FEATURES", help_heading = "Build")]
    pub features: Vec<String>,
    /// Enable all features.
    #[arg(long, help_heading = "Build")]
    pub all_features: bool,
    /// Do not enable the default features.
    #[arg(long, help_heading = "Build")]
    pub no_default_features: bool,
    /// Directory for results (default: `mutfuzz.out` in the workspace root).
    #[arg(long, short = 'o', value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Arguments for the test binaries' listing (filters, `--skip`, `--include-ignored`).
    #[arg(last = true, value_name = "TEST ARGS")]
    pub test_args: Vec<String>,
}
