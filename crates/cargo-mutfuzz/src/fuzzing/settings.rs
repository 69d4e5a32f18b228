//! What a fuzz campaign is asked to do, as plain values: the target, the budget, the
//! strategies and their parameters (`cargo mutfuzz fuzz`'s options less the package, the
//! filter and the build, which the command resolves before a campaign starts).

use std::path::PathBuf;
use std::time::Duration;

use mutfuzz_contract::{EditKind, GuidanceKind, Isolate, Prune, ScheduleKind};

/// One campaign's settings (from `fuzz`'s options, an `eval` configuration, or `amplify`),
/// each field the `fuzz` option of its name (see `cargo mutfuzz fuzz --help`).
#[derive(Clone, Debug)]
pub struct FuzzSettings {
    /// The target.
    pub target: String,
    /// `--time`.
    pub time: Option<Duration>,
    /// `--trials`.
    pub trials: Option<u64>,
    /// `--guidance`.
    pub guidance: GuidanceKind,
    /// `--edit`.
    pub edit: EditKind,
    /// `--schedule`.
    pub schedule: ScheduleKind,
    /// `--prune`.
    pub prune: Prune,
    /// `--mutant-sample`.
    pub mutant_sample: Option<u64>,
    /// `--kill-factor`.
    pub kill_factor: Option<u32>,
    /// `--infect-factor`.
    pub infect_factor: Option<u32>,
    /// `--focus`.
    pub focus: Option<u32>,
    /// `--mutants-file`.
    pub mutants_file: Option<PathBuf>,
    /// `--verify-pruning`.
    pub verify_pruning: bool,
    /// `--isolate`.
    pub isolate: Isolate,
    /// `--no-drift-check`.
    pub no_drift_check: bool,
    /// `--panic-is-failure`.
    pub panic_is_failure: bool,
    /// `--seed`.
    pub seed: u64,
    /// `--hang-timeout`.
    pub hang_timeout: f64,
    /// `--jobs`.
    pub jobs: u64,
    /// `--cpu-time`.
    pub cpu_time: bool,
    /// `--strategy`.
    pub strategy: Strategy,
    /// `--mutant-share`.
    pub mutant_share: f64,
    /// `--per-mutant`.
    pub per_mutant: Option<Duration>,
    /// `--select`.
    pub select: Select,
    /// `--carry`.
    pub carry: Carry,
    /// `--background`.
    pub background: Option<u32>,
    /// `--target-types`.
    pub target_types: bool,
    /// `--dictionary`.
    pub dictionary: f64,
    /// `--compare`.
    pub compare: f64,
}

/// `--strategy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Strategy {
    /// Fuzz the original only.
    Original,
    /// Fuzz selected mutants first, then the original.
    MutantsFirst,
}

/// `--select`: which mutants a mutants-first campaign fuzzes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Select {
    /// Uniformly at random, by the seed.
    Random,
    /// Furthest Point First: the most dissimilar first.
    Fpf,
}

/// `--carry`: how a mutants-first campaign's corpus moves from mutant to mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Carry {
    /// One corpus, carried from each mutant to the next.
    Cumulative,
    /// Each mutant from the original's corpus; merged at the end.
    Parallel,
}

impl std::fmt::Display for Select {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if *self == Select::Fpf { "fpf" } else { "random" })
    }
}
