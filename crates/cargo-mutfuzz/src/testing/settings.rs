//! What one mutation test is asked to do, as plain values: the `test` command's
//! arguments, or those of `amplify`'s check of the tests it writes.

use std::path::PathBuf;

use crate::catalog::filter::FilterPatterns;
use crate::catalog::selection::Shard;
use crate::workspace::{Features, PackageChoice};

/// The settings of a mutation test (see `cargo mutfuzz test --help` for each).
#[derive(Clone, Debug, Default)]
pub struct TestSettings {
    /// The workspace and packages.
    pub package: PackageChoice,
    /// Test processes at once (default: the number of CPUs).
    pub jobs: Option<usize>,
    /// A mutant's time limit, as a multiple of its tests' baseline time.
    pub timeout_multiplier: Option<f64>,
    /// The least time limit of a mutant, in seconds.
    pub minimum_timeout: Option<f64>,
    /// Seconds one unmutated test may run.
    pub baseline_timeout: Option<f64>,
    /// Memory cap per test process.
    pub max_memory: Option<String>,
    /// Output cap per test process.
    pub max_output: Option<String>,
    /// Cargo's feature flags for the packages (recorded in `outcomes.json`).
    pub features: Features,
    /// Mark lint risks instead of checking each code-deleting mutant alone.
    pub no_lint_check: bool,
    /// Run each mutant in processes of its own, never in a batch.
    pub no_batch: bool,
    /// Leave doctests out.
    pub no_doctests: bool,
    /// Build every dev-dependency.
    pub keep_dev_deps: bool,
    /// The results directory (default: `mutfuzz.out` in the workspace root).
    pub output: Option<PathBuf>,
    /// Run mutants without the sandbox.
    pub no_sandbox: bool,
    /// The score below which the exit code is 5.
    pub min_score: Option<f64>,
    /// Only this shard of the mutants.
    pub shard: Option<Shard>,
    /// Only the mutants on lines this diff changes.
    pub in_diff: Option<PathBuf>,
    /// Mutant name and file patterns.
    pub filter: FilterPatterns,
    /// Carry over the mutants the previous results show caught.
    pub iterate: bool,
    /// Ignore the outcome history.
    pub no_history: bool,
    /// GitHub workflow commands: `auto`, `github` or `none`.
    pub annotations: String,
    /// Arguments for the test binaries' listing.
    pub test_args: Vec<String>,
    /// Print errors only: `amplify`'s check, whose outcomes are not the user's results.
    pub quiet: bool,
}
