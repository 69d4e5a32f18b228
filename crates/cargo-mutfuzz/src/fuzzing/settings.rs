//! What a fuzz campaign is asked to do, as plain values: the target, the budget, the
//! strategies and their parameters (`cargo mutfuzz fuzz`'s options less the package, the
//! filter and the build, which the command resolves before a campaign starts).

use std::path::PathBuf;
use std::time::Duration;

use mutfuzz_contract::{EditKind, GuidanceKind, Isolate, Prune, ScheduleKind};

/// One campaign's settings (from `fuzz`'s options, an `eval` configuration, or `amplify`).
#[derive(Clone, Debug)]
pub struct FuzzSettings {
    /// The target: a function named in the harness's `mutfuzz::targets!` (or `--all`).
    pub target: String,
    /// Stop after this long: `90`, `30s`, `5m`, `1h` (default: run until Ctrl-C or --trials).
    pub time: Option<Duration>,
    /// Stop after this many trials.
    pub trials: Option<u64>,
    /// Which inputs to keep.
    pub guidance: GuidanceKind,
    /// How a child input is made from a saved one. Works with every guidance and schedule.
    pub edit: EditKind,
    /// Which inputs are edited, and how often. `mutagen` makes its children itself with
    /// the structure-preserving edits (whatever `--edit` says); works with every guidance.
    pub schedule: ScheduleKind,
    /// Which surviving mutants of the sites an input reaches run: `infection` skips those
    /// whose site computed the original's value on it (Mu2's infection pruning),
    /// `execution` runs them all.
    pub prune: Prune,
    /// Run at most K of those mutants per trial: under `mu2` the K that ran least so far
    /// (ties at random), under `muzest-p`/`muzest-n` a uniform random sample (μZest's
    /// random selection). Default: 4 under `mu2` (so an input that reaches hundreds of
    /// mutants does not stall the campaign), 10 under `muzest-p`/`muzest-n` (the μZest
    /// paper's); 0 runs every one.
    pub mutant_sample: Option<u64>,
    /// Children of an input that kills a new mutant are multiplied by F (μZest's
    /// KILL_FACTOR; `muzest-n` also divides those of inputs that kill only mutants
    /// killed before). Default: 20 under `muzest-p`/`muzest-n` (the μZest paper's), 4
    /// under `mu2` (the Mu2 paper favours killers with Zest's 20, which starves the rest
    /// of the corpus in short campaigns).
    pub kill_factor: Option<u32>,
    /// Fuzz for these mutants only: a file of mutant ids, one a line (`#` comments), e.g.
    /// those `cargo mutfuzz test` left missed. No other mutant runs, and the summary
    /// counts these only.
    pub mutants_file: Option<PathBuf>,
    /// Also run every mutant that infection pruning skips and stop if one is killed (a
    /// check of the infection probes; slow).
    pub verify_pruning: bool,
    /// Which mutant runs happen in a worker process, not in the harness: `first-runs`
    /// (each mutant's first, in one extra process when `--jobs` is 1), so that a mutant
    /// that aborts or exhausts memory on the first input that infects it costs a worker,
    /// not a harness restart; `all`; or `none`.
    pub isolate: Isolate,
    /// Do not re-run the original on the process's first input after each trial that ran
    /// mutants (the check that no mutant changed global state that later runs read).
    pub no_drift_check: bool,
    /// A panic of a generated target's original (`targets!(generated = …)`) is a failure,
    /// as a hand-written target's is, not an outcome by contract listed apart.
    pub panic_is_failure: bool,
    /// Seed of every random choice.
    pub seed: u64,
    /// Kill and restart the harness when it prints nothing for this many seconds; the
    /// mutant running then is killed by `timeout`.
    pub hang_timeout: f64,
    /// Run each trial's mutants in N processes (the harness and N - 1 workers). The same
    /// seed and trials give the same kills, corpus and statistics whatever N is.
    pub jobs: u64,
    /// Count `--time` in CPU seconds of the harness and its workers, not wall seconds:
    /// runs compared "for equal time" on a shared or loaded machine then get equal work.
    pub cpu_time: bool,
    /// `original` fuzzes the original; `mutants-first` first spends `--mutant-share` of
    /// the budget fuzzing selected mutants one at a time (each the program, coverage-
    /// guided), then fuzzes the original seeded with what they found.
    pub strategy: Strategy,
    /// Share of the budget (`--time` or `--trials`) spent on mutants.
    pub mutant_share: f64,
    /// Budget of each mutant (default: the mutant share over 8 mutants).
    pub per_mutant: Option<Duration>,
    /// Which mutants: `random` (by the seed) or `fpf` (most dissimilar first).
    pub select: Select,
    /// `cumulative`: each mutant starts from the corpus the previous ones grew;
    /// `parallel`: each from the original's corpus, merged at the end.
    pub carry: Carry,
    /// Fuzz with this mutant as the program (one mutants-first phase).
    pub background: Option<u32>,
    /// SpotOn's type targeting: half the edits pick a type that flows into a branch no
    /// saved input has covered (weighted by its static distance, adapted as it is found
    /// or not) and edit only inside a span of that type.
    pub target_types: bool,
    /// Probability that a fresh string, char or integer, and an edit, takes a literal of
    /// the crate under test (0 turns the dictionary off).
    pub dictionary: f64,
    /// Probability that an edit writes a comparison operand the original saw on the
    /// parent where the parent held the other operand (input-to-state on typed spans;
    /// 0 turns it off, and then operands are not recorded). On by default: on
    /// examples/magic-command it reached guarded code in 7 of 8 runs against 1 of 8 with the
    /// dictionary alone; on semver it kills as many mutants and covers 10 % more edges.
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
