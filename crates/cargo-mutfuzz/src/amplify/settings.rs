//! What `amplify` and the readable `export` are asked to do, as plain values (the
//! commands' arguments).

use std::path::PathBuf;
use std::time::Duration;

use mutfuzz_contract::GuidanceKind;

use crate::fuzzing::settings::FuzzSettings;
use crate::workspace::{Features, PackageChoice};

/// The settings of `amplify` (see `cargo mutfuzz amplify --help` for each).
#[derive(Clone, Debug)]
pub struct AmplifySettings {
    /// The workspace and package.
    pub package: PackageChoice,
    /// Fuzzing time over every target.
    pub time: Option<Duration>,
    /// Trials over every target, instead of a time.
    pub trials: Option<u64>,
    /// `time` is CPU time.
    pub cpu_time: bool,
    /// The guidance.
    pub guidance: GuidanceKind,
    /// The first seed.
    pub seed: u64,
    /// Runs each kept input's shrinking may take.
    pub shrink_runs: u64,
    /// Most tests written, in the cover's order (most new kills first).
    pub max_tests: Option<usize>,
    /// `cargo mutfuzz test`'s results directory.
    pub results: Option<PathBuf>,
    /// Go on from the corpora of an earlier run.
    pub resume: bool,
    /// Test processes at once in the check.
    pub jobs: Option<usize>,
    /// Run mutants without the sandbox.
    pub no_sandbox: bool,
    /// Feature flags given to `amplify` itself; `None`: those the results record.
    pub features: Option<Features>,
    /// `fuzz` options from words, as the `fuzz` command parses them: amplify fuzzes
    /// with that command's defaults.
    pub fuzz_settings: fn(&[String]) -> FuzzSettings,
}

/// The settings of `export` without `--replay`.
#[derive(Clone, Debug)]
pub struct ExportSettings {
    /// The target.
    pub target: String,
    /// The workspace and package.
    pub package: PackageChoice,
    /// The corpus (default: the target's).
    pub corpus: Option<PathBuf>,
    /// The harness's dev profile.
    pub dev: bool,
}
