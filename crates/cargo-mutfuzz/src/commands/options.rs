//! Command-line options, parsed with clap; `cargo mutfuzz <command>` and `cargo-mutfuzz <command>`.

use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use mutfuzz_contract::command::{COMPARE_CHANCE, DICTIONARY_CHANCE};
use mutfuzz_contract::{EditKind, GuidanceKind, InputFormat, Isolate, Prune, ScheduleKind};

use crate::catalog::filter::FilterPatterns;
use crate::fuzzing::settings::{Carry, FuzzSettings, Select, Strategy};
use crate::workspace::{Features, PackageChoice};

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
    /// Make a fuzz harness package, `mutfuzz/`, with one example target.
    ///
    /// The harness depends on the package with the feature flags given (`--features`,
    /// `--all-features`, `--no-default-features`; default: the package's default
    /// features), and `--auto` reads the API with the same features on.
    Init(InitArgs),
    /// Fuzz a harness target, growing a corpus of inputs that kill mutants.
    Fuzz(FuzzArgs),
    /// Run a corpus against every mutant with a generous budget: the final mutation score.
    Score(ScoreArgs),
    /// Run a target's original code on one stored input (to reproduce a failure).
    Run(RunArgs),
    /// Shrink one input while it keeps its kills (every viable mutant it kills), or, when
    /// the original panics on it, its panic; writes `<input>.min`.
    Tmin(TminArgs),
    /// Keep the smallest subset of a target's corpus found with the same coverage and
    /// the same kills; writes `<corpus>.cmin` (or `--output DIR`), or `--in-place`.
    Cmin(CminArgs),
    /// Compare fuzzing configurations: equal-time campaigns per seed, each corpus scored.
    Eval(EvalArgs),
    /// Write tests that kill the mutants `cargo mutfuzz test` left alive: fuzz at them,
    /// shrink the killing inputs, and write `tests/mutfuzz_amplified.rs` once checked.
    ///
    /// The feature flags are those `test` ran with (its results record them): the API is
    /// read, the harness built and the written tests checked with them. `--features`,
    /// `--all-features` or `--no-default-features` given here win instead, with a note
    /// when they differ from the results'. Tests written with features the defaults leave
    /// off start with `#![cfg(feature = ...)]`, so a plain `cargo test` skips them.
    Amplify(AmplifyArgs),
    /// Write the HTML report of `test` results, or of a fuzz target's score.
    Report(ReportArgs),
    /// Write a target's corpus as readable tests under tests/ (`--replay`: a replay test).
    Export(ExportArgs),
    /// Build the harness and copy it out as one libFuzzer-style binary per target (with
    /// its mutant catalog), for ClusterFuzzLite and OSS-Fuzz.
    Build(BuildArgs),
    /// Combine the results of `test --shard k/n` (or `score --shard k/n`) runs into one.
    Merge(MergeArgs),
}

/// The switches that make a run a CI step, shared by `test` and `score`.
#[derive(Debug, Clone, Default, Args)]
pub struct CiArgs {
    /// Exit with code 5 when the mutation score is below P percent (test: caught and
    /// timed-out mutants over viable ones; score: killed over viable).
    #[arg(long, value_name = "P", value_parser = crate::catalog::selection::parse_min_score, help_heading = "CI")]
    pub min_score: Option<f64>,
    /// Run only the k-th of n parts of the mutants (whole sites, dealt round-robin in
    /// catalog order); combine the parts with `cargo mutfuzz merge`.
    #[arg(long, value_name = "k/n", help_heading = "CI")]
    pub shard: Option<crate::catalog::selection::Shard>,
    /// Only the mutants on lines this unified diff adds or changes (`git diff` output).
    #[arg(long, value_name = "FILE", help_heading = "CI")]
    pub in_diff: Option<PathBuf>,
}

/// Which of the catalog's mutants a run covers, with cargo-mutants' flags and meaning
/// (shared by `mutants`, `test`, `fuzz` and `score`; `mutfuzz.toml`'s `examine_re`,
/// `exclude_re`, `examine_globs` and `exclude_globs` add to them).
#[derive(Debug, Clone, Default, Args)]
pub struct FilterArgs {
    /// Only mutants whose name (as `cargo mutfuzz mutants` prints it:
    /// `src/lib.rs:12:5: replace foo -> bool with true`) matches this regex; repeat to
    /// match any of several.
    #[arg(long = "re", short = 'F', value_name = "REGEX", help_heading = "Filters")]
    pub re: Vec<String>,
    /// Leave out mutants whose name matches this regex (applied after --re); repeatable.
    #[arg(long, short = 'E', value_name = "REGEX", help_heading = "Filters")]
    pub exclude_re: Vec<String>,
    /// Only mutants in files matching this glob (with a `/`: the path from the workspace
    /// or package root, `src/*.rs`; without: a file or directory name anywhere); repeatable.
    #[arg(long, short = 'f', value_name = "GLOB", help_heading = "Filters")]
    pub file: Vec<String>,
    /// Leave out mutants in files matching this glob (applied after --file); repeatable.
    #[arg(long, short = 'e', value_name = "GLOB", help_heading = "Filters")]
    pub exclude: Vec<String>,
}

impl From<&FilterArgs> for FilterPatterns {
    fn from(args: &FilterArgs) -> FilterPatterns {
        FilterPatterns {
            re: args.re.clone(),
            exclude_re: args.exclude_re.clone(),
            file: args.file.clone(),
            exclude: args.exclude.clone(),
        }
    }
}

/// `cargo mutfuzz build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The targets: functions named in the harness's `mutfuzz::targets!`.
    #[arg(required = true, value_name = "TARGET")]
    pub targets: Vec<String>,
    #[command(flatten)]
    pub package: PackageArgs,
    /// Where to put `<TARGET>` (the harness, taking libFuzzer's command line when named
    /// so) and `<TARGET>.mutants.json` (its mutant catalog), as into `$OUT`.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: PathBuf,
    /// Build the schema and harness unoptimized (the dev profile).
    #[arg(long, help_heading = "Build")]
    pub dev: bool,
}

/// `cargo mutfuzz merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' results: `mutfuzz.out` directories of `test --shard`, or `score.json`
    /// files (or directories holding one) of `score --shard`; one per shard.
    #[arg(required = true, value_name = "SHARD")]
    pub inputs: Vec<PathBuf>,
    /// Where to write the merged result: a directory with the files of an unsharded run.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub output: PathBuf,
    /// Exit with code 5 when the merged score is below P percent.
    #[arg(long, value_name = "P", value_parser = crate::catalog::selection::parse_min_score)]
    pub min_score: Option<f64>,
}

/// Cargo's feature flags for the package, shared by `test`, `amplify` and `init` (`test`
/// records them in its results, and `amplify` uses them unless given its own).
#[derive(Debug, Clone, Default, Args)]
pub struct FeatureArgs {
    /// Features to enable in the package, as for cargo: `--features a,b` (no `-F`: that
    /// is `--re`, as in cargo-mutants).
    #[arg(long, value_name = "FEATURES", help_heading = "Feature Selection")]
    pub features: Vec<String>,
    /// Enable all features.
    #[arg(long, help_heading = "Feature Selection")]
    pub all_features: bool,
    /// Do not enable the default features.
    #[arg(long, help_heading = "Feature Selection")]
    pub no_default_features: bool,
}

impl From<&FeatureArgs> for Features {
    fn from(args: &FeatureArgs) -> Features {
        Features {
            features: args.features.clone(),
            all_features: args.all_features,
            no_default_features: args.no_default_features,
        }
    }
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

impl From<&PackageArgs> for PackageChoice {
    fn from(args: &PackageArgs) -> PackageChoice {
        PackageChoice { manifest_path: args.manifest_path.clone(), packages: args.package.clone() }
    }
}

/// `cargo mutfuzz mutants`.
#[derive(Debug, Args)]
pub struct MutantsArgs {
    #[command(flatten)]
    pub package: PackageArgs,
    /// Print the catalog as JSON (id, file, span, function, operator, original, replacement).
    #[arg(long)]
    pub json: bool,
    /// Print the mutants in this order: `fpf` ranks dissimilar mutants first (Furthest
    /// Point First with the Universal Mutator's distance, statement deletions first).
    #[arg(long, value_name = "ORDER", value_parser = ["catalog", "fpf"], default_value = "catalog")]
    pub rank: String,
    /// With `--rank fpf`: only the first N.
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,
    #[command(flatten)]
    pub filter: FilterArgs,
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
    /// Smallest wall-clock timeout of one test process with a mutant active, in seconds
    /// (default 3; the timeout is otherwise K × the baseline time of its tests).
    #[arg(long, value_name = "SECS", value_parser = positive_seconds)]
    pub minimum_timeout: Option<f64>,
    /// Longest time one test may take without any mutant before the baseline is declared
    /// hung (exit code 4), in seconds (default 300).
    #[arg(long, value_name = "SECS", value_parser = positive_seconds)]
    pub baseline_timeout: Option<f64>,
    /// Memory cap of each test process (`512MiB`, `4GiB`; `0`: none). Default: half the
    /// machine's memory, or `max_memory` in mutfuzz.toml.
    #[arg(long, value_name = "SIZE", value_parser = size)]
    pub max_memory: Option<String>,
    /// Output cap of one test process, stdout and stderr together; past it the process is
    /// killed and its mutant caught (default 64MiB, or `max_output` in mutfuzz.toml; `0`: none).
    #[arg(long, value_name = "SIZE", value_parser = size)]
    pub max_output: Option<String>,
    #[command(flatten)]
    pub features: FeatureArgs,
    /// Do not check mutants that delete code, one `cargo check` each, against the lints
    /// the crate denies (`#![deny(warnings)]`, …); mark them `lint_risk` instead.
    #[arg(long)]
    pub no_lint_check: bool,
    /// Run each mutant in test processes of its own. By default mutants first share
    /// processes, each on its cheapest test, activated on that test's thread alone.
    #[arg(long)]
    pub no_batch: bool,
    /// Do not run doctests (they are compiled per run, so they cost more than unit tests).
    #[arg(long)]
    pub no_doctests: bool,
    /// Build every dev-dependency, even those that only benchmarks name (by default they
    /// are left out of the scratch copy, and put back if the tests do not build without).
    #[arg(long)]
    pub keep_dev_deps: bool,
    /// Directory for results (default: `mutfuzz.out` in the workspace root).
    #[arg(long, short = 'o', value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Run mutants without the sandbox, which otherwise keeps them from writing outside
    /// `target/mutfuzz/` (and what `sandbox_writable` in mutfuzz.toml grants) and from
    /// opening network connections.
    #[arg(long)]
    pub no_sandbox: bool,
    #[command(flatten)]
    pub ci: CiArgs,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Test only the mutants the previous results in the output directory did not show
    /// caught (missed, timed out, not covered, new or changed); the caught ones are
    /// carried over, so the results still cover every mutant (cargo-mutants' --iterate).
    #[arg(long)]
    pub iterate: bool,
    /// Test every mutant, ignoring the outcome history in `target/mutfuzz/history.json`
    /// (by default a mutant is not tested again while nothing that decides its outcome
    /// has changed: its function, the code its tests run, the tests, the flags).
    #[arg(long)]
    pub no_history: bool,
    /// GitHub Actions workflow commands (`::warning file=…`) for each missed mutant:
    /// `auto` (on when GITHUB_ACTIONS=true), `github` or `none`.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "github", "none"])]
    pub annotations: String,
    /// Arguments for the test binaries' listing (filters, `--skip`, `--include-ignored`).
    #[arg(last = true, value_name = "TEST ARGS")]
    pub test_args: Vec<String>,
}

impl From<&TestArgs> for crate::testing::TestSettings {
    fn from(a: &TestArgs) -> Self {
        crate::testing::TestSettings {
            package: (&a.package).into(),
            jobs: a.jobs,
            timeout_multiplier: a.timeout_multiplier,
            minimum_timeout: a.minimum_timeout,
            baseline_timeout: a.baseline_timeout,
            max_memory: a.max_memory.clone(),
            max_output: a.max_output.clone(),
            features: (&a.features).into(),
            no_lint_check: a.no_lint_check,
            no_batch: a.no_batch,
            no_doctests: a.no_doctests,
            keep_dev_deps: a.keep_dev_deps,
            output: a.output.clone(),
            no_sandbox: a.no_sandbox,
            min_score: a.ci.min_score,
            shard: a.ci.shard,
            in_diff: a.ci.in_diff.clone(),
            filter: (&a.filter).into(),
            iterate: a.iterate,
            no_history: a.no_history,
            annotations: a.annotations.clone(),
            test_args: a.test_args.clone(),
            quiet: false,
        }
    }
}

/// `cargo mutfuzz init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    #[command(flatten)]
    pub package: PackageArgs,
    /// Name of the example target function.
    #[arg(long, value_name = "NAME", default_value = "example", conflicts_with = "auto")]
    pub target: String,
    /// Generate the targets from the crate's public API (into `mutfuzz/src/auto.rs`; run
    /// it again after the API changes: it rewrites only that file).
    #[arg(long)]
    pub auto: bool,
    /// With `--auto`: list every API item left out, with its reason.
    #[arg(long, requires = "auto")]
    pub explain: bool,
    #[command(flatten)]
    pub features: FeatureArgs,
}

/// `--guidance`: the names and descriptions the contract defines, one per strategy.
fn guidance_parser() -> impl TypedValueParser<Value = GuidanceKind> {
    PossibleValuesParser::new(GuidanceKind::ALL.map(|k| PossibleValue::new(k.name()).help(k.describe())))
        .map(|name| GuidanceKind::from_name(&name).expect("a possible value"))
}

/// `--edit`: each edit strategy with its one-line description.
fn edit_parser() -> impl TypedValueParser<Value = EditKind> {
    PossibleValuesParser::new(EditKind::ALL.map(|k| PossibleValue::new(k.name()).help(k.description())))
        .map(|name| name.parse::<EditKind>().expect("a possible value"))
}

/// `--schedule`: each schedule with its one-line description.
fn schedule_parser() -> impl TypedValueParser<Value = ScheduleKind> {
    PossibleValuesParser::new(ScheduleKind::ALL.map(|k| PossibleValue::new(k.name()).help(k.description())))
        .map(|name| name.parse::<ScheduleKind>().expect("a possible value"))
}

/// `--format`: how files encode inputs, by the names the contract defines.
fn format_parser() -> impl TypedValueParser<Value = InputFormat> {
    PossibleValuesParser::new(InputFormat::ALL.map(InputFormat::name))
        .map(|name| name.parse::<InputFormat>().expect("a possible value"))
}

/// `cargo mutfuzz fuzz`.
#[derive(Debug, Clone, Args)]
pub struct FuzzArgs {
    /// The target: a function named in the harness's `mutfuzz::targets!` (or `--all`).
    #[arg(required_unless_present = "all", default_value = "", hide_default_value = true)]
    pub target: String,
    /// Fuzz every target of the harness within one budget (`--time`, `--trials`), shared
    /// by recent progress: an even first round, then slices by new kills and inputs per
    /// unit of budget, with a floor for each target.
    #[arg(long, conflicts_with_all = ["target", "corpus"])]
    pub all: bool,
    #[command(flatten)]
    pub package: PackageArgs,
    /// Stop after this long: `90`, `30s`, `5m`, `1h` (default: run until Ctrl-C or --trials).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Stop after this many trials.
    #[arg(long, value_name = "N")]
    pub trials: Option<u64>,
    /// Which inputs to keep.
    #[arg(long, default_value = "mu2", value_parser = guidance_parser())]
    pub guidance: GuidanceKind,
    /// How a child input is made from a saved one. Works with every guidance and schedule.
    #[arg(long, default_value = "havoc", value_parser = edit_parser())]
    pub edit: EditKind,
    /// Which inputs are edited, and how often. `mutagen` makes its children itself with
    /// the structure-preserving edits (whatever `--edit` says); works with every guidance.
    #[arg(long, default_value = "zest", value_parser = schedule_parser())]
    pub schedule: ScheduleKind,
    /// Which surviving mutants of the sites an input reaches run: `infection` skips those
    /// whose site computed the original's value on it (Mu2's infection pruning),
    /// `execution` runs them all.
    #[arg(long, value_name = "RULE", default_value_t = Prune::default())]
    pub prune: Prune,
    /// Run at most K of those mutants per trial: under `mu2` the K that ran least so far
    /// (ties at random), under `muzest-p`/`muzest-n` a uniform random sample (μZest's
    /// random selection). Default: 4 under `mu2` (so an input that reaches hundreds of
    /// mutants does not stall the campaign), 10 under `muzest-p`/`muzest-n` (the μZest
    /// paper's); 0 runs every one.
    #[arg(long, value_name = "K")]
    pub mutant_sample: Option<u64>,
    /// Children of an input that kills a new mutant are multiplied by F (μZest's
    /// KILL_FACTOR; `muzest-n` also divides those of inputs that kill only mutants
    /// killed before). Default: 20 under `muzest-p`/`muzest-n` (the μZest paper's), 4
    /// under `mu2` (the Mu2 paper favours killers with Zest's 20, which starves the rest
    /// of the corpus in short campaigns).
    #[arg(long, value_name = "F", value_parser = clap::value_parser!(u32).range(1..))]
    pub kill_factor: Option<u32>,
    /// Under `infection`: children of an input that infects a target in a new way (and
    /// kills none) are multiplied by F. Default: 2.
    #[arg(long, value_name = "F", value_parser = clap::value_parser!(u32).range(1..))]
    pub infect_factor: Option<u32>,
    /// Under `infection`: one parent in N is chosen for a surviving target (each in turn,
    /// from the inputs that infect it) instead of round-robin; 0 turns this off.
    /// Default: 2.
    #[arg(long, value_name = "N")]
    pub focus: Option<u32>,
    /// Fuzz for these mutants only: a file of mutant ids, one a line (`#` comments), e.g.
    /// those `cargo mutfuzz test` left missed. No other mutant runs, the summary counts
    /// these only, and fuzzing ends once all are killed (with --all, by any target).
    #[arg(long, value_name = "FILE")]
    pub mutants_file: Option<PathBuf>,
    /// Also run every mutant that infection pruning skips and stop if one is killed (a
    /// check of the infection probes; slow).
    #[arg(long, hide = true)]
    pub verify_pruning: bool,
    /// Which mutant runs happen in a worker process, not in the harness: `first-runs`
    /// (each mutant's first, in one extra process when `--jobs` is 1), so that a mutant
    /// that aborts or exhausts memory on the first input that infects it costs a worker,
    /// not a harness restart; `all`; or `none`.
    #[arg(long, value_name = "RULE", default_value_t = Isolate::default())]
    pub isolate: Isolate,
    /// Do not re-run the original on the process's first input after each trial that ran
    /// mutants (the check that no mutant changed global state that later runs read).
    #[arg(long)]
    pub no_drift_check: bool,
    /// A panic of a generated target's original (`targets!(generated = …)`) is a failure,
    /// as a hand-written target's is, not an outcome by contract listed apart.
    #[arg(long)]
    pub panic_is_failure: bool,
    /// Seed of every random choice.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Corpus directory (default: `mutfuzz/corpus/<TARGET>` in the harness).
    #[arg(long, value_name = "DIR")]
    pub corpus: Option<PathBuf>,
    /// Kill and restart the harness when it prints nothing for this many seconds; the
    /// mutant running then is killed by `timeout`.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub hang_timeout: f64,
    /// Memory cap of each harness process (`512MiB`, `4GiB`; `0`: none). Default: half
    /// the machine's memory, or `max_memory` in mutfuzz.toml.
    #[arg(long, value_name = "SIZE", value_parser = size)]
    pub max_memory: Option<String>,
    /// Output cap of one run (the original or a mutant on one input), stdout and stderr
    /// together; past it the harness is killed and the mutant running killed by `crash`
    /// (default 64MiB, or `max_output` in mutfuzz.toml; `0`: none).
    #[arg(long, value_name = "SIZE", value_parser = size)]
    pub max_output: Option<String>,
    /// Run each trial's mutants in N processes (the harness and N - 1 workers). The same
    /// seed and trials give the same kills, corpus and statistics whatever N is.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// Count `--time` in CPU seconds of the harness and its workers, not wall seconds:
    /// runs compared "for equal time" on a shared or loaded machine then get equal work.
    #[arg(long)]
    pub cpu_time: bool,
    /// Build the schema and harness unoptimized (the dev profile), as `cargo fuzz --dev`:
    /// faster to compile, several times slower to run.
    #[arg(long, help_heading = "Build")]
    pub dev: bool,
    /// `original` fuzzes the original; `mutants-first` first spends `--mutant-share` of
    /// the budget fuzzing selected mutants one at a time (each the program, coverage-
    /// guided), then fuzzes the original seeded with what they found.
    #[arg(long, value_enum, default_value_t = Strategy::Original, help_heading = "Mutants first")]
    pub strategy: Strategy,
    /// Share of the budget (`--time` or `--trials`) spent on mutants.
    #[arg(long, value_name = "SHARE", default_value_t = 0.5, value_parser = parse_share, help_heading = "Mutants first")]
    pub mutant_share: f64,
    /// Budget of each mutant (default: the mutant share over 8 mutants).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, help_heading = "Mutants first")]
    pub per_mutant: Option<Duration>,
    /// Which mutants: `random` (by the seed) or `fpf` (most dissimilar first).
    #[arg(long, value_enum, default_value_t = Select::Fpf, help_heading = "Mutants first")]
    pub select: Select,
    /// `cumulative`: each mutant starts from the corpus the previous ones grew;
    /// `parallel`: each from the original's corpus, merged at the end.
    #[arg(long, value_enum, default_value_t = Carry::Cumulative, help_heading = "Mutants first")]
    pub carry: Carry,
    /// Fuzz with this mutant as the program (one mutants-first phase).
    #[arg(long, value_name = "MUTANT", hide = true)]
    pub background: Option<u32>,
    /// Run mutants without the sandbox, which otherwise keeps them from writing outside
    /// `target/mutfuzz/` (and what `sandbox_writable` in mutfuzz.toml grants) and from
    /// opening network connections.
    #[arg(long)]
    pub no_sandbox: bool,
    /// SpotOn's type targeting: half the edits pick a type that flows into a branch no
    /// saved input has covered (weighted by its static distance, adapted as it is found
    /// or not) and edit only inside a span of that type.
    #[arg(long, help_heading = "Input strategies")]
    pub target_types: bool,
    /// Probability that a fresh string, char or integer, and an edit, takes a literal of
    /// the crate under test (0 turns the dictionary off).
    #[arg(long, value_name = "P", default_value_t = DICTIONARY_CHANCE, value_parser = parse_share, help_heading = "Input strategies")]
    pub dictionary: f64,
    /// Probability that an edit writes a comparison operand the original saw on the
    /// parent where the parent held the other operand (input-to-state on typed spans;
    /// 0 turns it off, and then operands are not recorded). On by default: on
    /// examples/magic-command it reached guarded code in 7 of 8 runs against 1 of 8 with the
    /// dictionary alone; on semver it kills as many mutants and covers 10 % more edges.
    #[arg(long, value_name = "P", default_value_t = COMPARE_CHANCE, value_parser = parse_share, help_heading = "Input strategies")]
    pub compare: f64,
    #[command(flatten)]
    pub filter: FilterArgs,
}

impl From<&FuzzArgs> for FuzzSettings {
    fn from(args: &FuzzArgs) -> FuzzSettings {
        FuzzSettings {
            target: args.target.clone(),
            time: args.time,
            trials: args.trials,
            guidance: args.guidance,
            edit: args.edit,
            schedule: args.schedule,
            prune: args.prune,
            mutant_sample: args.mutant_sample,
            kill_factor: args.kill_factor,
            infect_factor: args.infect_factor,
            focus: args.focus,
            mutants_file: args.mutants_file.clone(),
            verify_pruning: args.verify_pruning,
            isolate: args.isolate,
            no_drift_check: args.no_drift_check,
            panic_is_failure: args.panic_is_failure,
            seed: args.seed,
            hang_timeout: args.hang_timeout,
            jobs: args.jobs,
            cpu_time: args.cpu_time,
            strategy: args.strategy,
            mutant_share: args.mutant_share,
            per_mutant: args.per_mutant,
            select: args.select,
            carry: args.carry,
            background: args.background,
            target_types: args.target_types,
            dictionary: args.dictionary,
            compare: args.compare,
        }
    }
}

impl std::fmt::Display for Carry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if *self == Carry::Cumulative { "cumulative" } else { "parallel" })
    }
}

/// A share of the budget: a number in `0..=1`.
fn parse_share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("expected a number from 0 to 1, not {text:?}")),
    }
}

/// `cargo mutfuzz score`.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// The target: a function named in the harness's `mutfuzz::targets!` (or `--all`).
    #[arg(required_unless_present = "all", default_value = "", hide_default_value = true)]
    pub target: String,
    /// Score every target's corpus on the one catalog, and write the combined result (a
    /// mutant is killed if any target's corpus kills it) to target/mutfuzz/score.json.
    #[arg(long, conflicts_with_all = ["target", "corpus"])]
    pub all: bool,
    #[command(flatten)]
    pub package: PackageArgs,
    /// Corpus directory (default: `mutfuzz/corpus/<TARGET>` in the harness).
    #[arg(long, value_name = "DIR")]
    pub corpus: Option<PathBuf>,
    /// Kill and restart the harness when it prints nothing for this many seconds; the
    /// mutant running then is killed by `timeout`.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    pub hang_timeout: f64,
    /// Memory cap of each harness process (`512MiB`, `4GiB`; `0`: none). Default: half
    /// the machine's memory, or `max_memory` in mutfuzz.toml.
    #[arg(long, value_name = "SIZE", value_parser = size)]
    pub max_memory: Option<String>,
    /// Output cap of one run (the original or a mutant on one input), stdout and stderr
    /// together; past it the harness is killed and the mutant running killed by `crash`
    /// (default 64MiB, or `max_output` in mutfuzz.toml; `0`: none).
    #[arg(long, value_name = "SIZE", value_parser = size)]
    pub max_output: Option<String>,
    /// How the corpus files encode inputs: `mutfuzz` (choice sequences, as `fuzz` stores
    /// them) or `arbitrary` (raw bytes, as cargo-fuzz and libFuzzer store them, decoded
    /// with `Arbitrary::arbitrary_take_rest` as `fuzz_target!(|x: T| …)` does).
    #[arg(long, value_name = "FORMAT", value_parser = format_parser(), default_value = "mutfuzz")]
    pub format: InputFormat,
    /// A panic of a generated target's original (`targets!(generated = …)`) is judged as
    /// a hand-written target's: not counted and listed apart as a panic by contract.
    #[arg(long)]
    pub panic_is_failure: bool,
    /// Score these mutants only: a file of mutant ids, one a line (as `fuzz` takes it).
    #[arg(long, value_name = "FILE")]
    pub mutants_file: Option<PathBuf>,
    /// Which undecided mutants of the sites an input reaches run on it: `infection` skips
    /// those whose site computed the original's value on that input (they cannot be
    /// killed there; the verdicts are the same), `execution` runs them all.
    #[arg(long, value_name = "RULE", default_value_t = Prune::default())]
    pub prune: Prune,
    /// Share each input's mutant runs among N processes (the harness and N - 1 workers).
    /// The verdicts are the same whatever N is.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    #[command(flatten)]
    pub ci: CiArgs,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// GitHub Actions workflow commands (`::warning file=…`) for each surviving mutant:
    /// `auto` (on when GITHUB_ACTIONS=true), `github` or `none`.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "github", "none"])]
    pub annotations: String,
    /// Build the schema and harness unoptimized (the dev profile), as `cargo fuzz --dev`:
    /// faster to compile, several times slower to run.
    #[arg(long, help_heading = "Build")]
    pub dev: bool,
    /// Run mutants without the sandbox, which otherwise keeps them from writing outside
    /// `target/mutfuzz/` (and what `sandbox_writable` in mutfuzz.toml grants) and from
    /// opening network connections.
    #[arg(long)]
    pub no_sandbox: bool,
}

/// `cargo mutfuzz eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The target: a function named in the harness's `mutfuzz::targets!` (or `--all`).
    #[arg(required_unless_present_any = ["all", "survivors"], default_value = "", hide_default_value = true)]
    pub target: String,
    /// Compare the configurations on the whole harness: each run is `fuzz --all` within
    /// the time, scored as `score --all` (a mutant is killed if any target's corpus kills it).
    #[arg(long, conflicts_with = "target")]
    pub all: bool,
    /// Compare the configurations at the mutants `cargo mutfuzz test` left alive, as
    /// `amplify` fuzzes them: every target (of a harness generated from the API when the
    /// package has none), `--mutants-file` naming the survivors, each corpus scored on
    /// them. Default configurations: `infection` and `mu2`.
    #[arg(long, conflicts_with_all = ["target", "input_strategies"])]
    pub survivors: bool,
    /// The results of `cargo mutfuzz test` whose survivors `--survivors` aims at
    /// (default: `mutfuzz.out/`).
    #[arg(long, value_name = "DIR", requires = "survivors")]
    pub results: Option<PathBuf>,
    #[command(flatten)]
    pub package: PackageArgs,
    /// A configuration: a name and the `fuzz` arguments it adds, as in
    /// `--config zest="--guidance coverage"`. Repeat it; default: one per guidance, then `structure` (`--edit structure`) and `mutagen` (`--schedule mutagen`).
    #[arg(long = "config", value_name = "NAME=ARGS")]
    pub configs: Vec<String>,
    /// Compare the input strategies instead of the guidances: `havoc` (no dictionary),
    /// `dictionary`, `compare`, `target-types` and `all` (each under the default guidance).
    #[arg(long, conflicts_with = "configs")]
    pub input_strategies: bool,
    /// Campaigns per configuration, with seeds FIRST-SEED, FIRST-SEED + 1, ….
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub seeds: u64,
    /// The first seed.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub first_seed: u64,
    /// Wall time of every campaign: `90`, `30s`, `5m`.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "30s")]
    pub time: Duration,
    /// Fuzz only, do not score the corpora (for throughput: trials/s, edges).
    #[arg(long)]
    pub no_score: bool,
    /// Score each corpus in N processes (as `score -j N`; the campaigns themselves run
    /// as their configurations say).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// Every campaign's `--time` counts the harness's CPU time (see `fuzz --cpu-time`), and
    /// trials/s are per CPU second: a fair comparison on a loaded machine.
    #[arg(long)]
    pub cpu_time: bool,
    /// Every campaign and score counts a panic of a generated target's original as a
    /// failure (see `fuzz --panic-is-failure`); a configuration may also say it.
    #[arg(long)]
    pub panic_is_failure: bool,
    /// Run mutants without the sandbox, which otherwise keeps them from writing outside
    /// `target/mutfuzz/` (and what `sandbox_writable` in mutfuzz.toml grants) and from
    /// opening network connections.
    #[arg(long)]
    pub no_sandbox: bool,
}

/// `cargo mutfuzz run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The target: a function named in the harness's `mutfuzz::targets!`.
    pub target: String,
    /// The stored input file (from the corpus or `failures/`).
    pub input: PathBuf,
    #[command(flatten)]
    pub package: PackageArgs,
    /// How the file encodes its input: `mutfuzz` (a choice sequence) or `arbitrary`
    /// (raw bytes, as cargo-fuzz keeps a corpus or a crash).
    #[arg(long, value_name = "FORMAT", value_parser = format_parser(), default_value = "mutfuzz")]
    pub format: InputFormat,
    /// Build the schema and harness unoptimized (the dev profile), as `cargo fuzz --dev`:
    /// faster to compile, several times slower to run.
    #[arg(long, help_heading = "Build")]
    pub dev: bool,
    /// Run mutants without the sandbox, which otherwise keeps them from writing outside
    /// `target/mutfuzz/` (and what `sandbox_writable` in mutfuzz.toml grants) and from
    /// opening network connections.
    #[arg(long)]
    pub no_sandbox: bool,
}

/// `cargo mutfuzz tmin`.
#[derive(Debug, Args)]
pub struct TminArgs {
    /// The target: a function named in the harness's `mutfuzz::targets!`.
    pub target: String,
    /// The input file to shrink (a choice sequence, from the corpus or `failures/`).
    pub input: PathBuf,
    #[command(flatten)]
    pub package: PackageArgs,
    /// Where to write the shrunk input (default: `<input>.min` beside it).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Most runs of the input's check (one run: the original and each kept mutant).
    #[arg(long, value_name = "N")]
    pub max_runs: Option<u64>,
    /// Stop shrinking after this many seconds, keeping the smallest input found.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Build the schema and harness unoptimized (the dev profile), as `cargo fuzz --dev`.
    #[arg(long, help_heading = "Build")]
    pub dev: bool,
    /// Run mutants without the sandbox (see `run --no-sandbox`).
    #[arg(long)]
    pub no_sandbox: bool,
}

/// `cargo mutfuzz cmin`.
#[derive(Debug, Args)]
pub struct CminArgs {
    /// The target: a function named in the harness's `mutfuzz::targets!`.
    pub target: String,
    #[command(flatten)]
    pub package: PackageArgs,
    /// The corpus to minimize (default: `mutfuzz/corpus/<TARGET>` in the harness).
    #[arg(long, value_name = "DIR")]
    pub corpus: Option<PathBuf>,
    /// Where to write the kept inputs (default: `<corpus>.cmin` beside the corpus); it
    /// must not exist or be empty.
    #[arg(long, short = 'o', value_name = "DIR", conflicts_with = "in_place")]
    pub output: Option<PathBuf>,
    /// Remove the other inputs from the corpus itself instead of writing a new directory.
    #[arg(long)]
    pub in_place: bool,
    /// Build the schema and harness unoptimized (the dev profile), as `cargo fuzz --dev`.
    #[arg(long, help_heading = "Build")]
    pub dev: bool,
    /// Run mutants without the sandbox (see `run --no-sandbox`).
    #[arg(long)]
    pub no_sandbox: bool,
}

/// `cargo mutfuzz amplify`.
#[derive(Debug, Args)]
// One package: its tests are the ones amplified.
#[command(mut_arg("package", |a| a.help("Package to amplify the tests of (default: the current package)")))]
pub struct AmplifyArgs {
    #[command(flatten)]
    pub package: PackageArgs,
    /// Fuzzing time over every target: `90`, `30s`, `5m` (default 5m).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Fuzz this many trials over every target instead of a time (repeatable with `--seed`).
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub trials: Option<u64>,
    /// `--time` counts the CPU time of the harness processes, not wall time.
    #[arg(long)]
    pub cpu_time: bool,
    /// The guidance: `infection` keeps inputs that infect a survivor no kept input
    /// infected, and gives them more children; `mu2` is plain Mu2.
    #[arg(long, value_parser = guidance_parser(), default_value = "infection")]
    pub guidance: GuidanceKind,
    /// Seed of the campaigns.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Most runs spent shrinking each killing input.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub shrink_runs: u64,
    /// Write at most N tests: those that kill the most survivors no test before them
    /// kills (the survivors only the others would kill are counted, and the report
    /// shows them as killed without a test).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_tests: Option<u64>,
    /// The results of `cargo mutfuzz test` to amplify (default: `mutfuzz.out/`).
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// Keep the campaigns of the last `amplify` and go on from them.
    #[arg(long)]
    pub resume: bool,
    /// Processes at once: the test processes of the check of the written tests, and
    /// those that score each corpus (as `score -j`). Default: the CPUs.
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Run mutants without the sandbox (see `run --no-sandbox`).
    #[arg(long)]
    pub no_sandbox: bool,
    #[command(flatten)]
    pub features: FeatureArgs,
}

impl From<&AmplifyArgs> for crate::amplify::AmplifySettings {
    fn from(a: &AmplifyArgs) -> Self {
        crate::amplify::AmplifySettings {
            package: (&a.package).into(),
            time: a.time,
            trials: a.trials,
            cpu_time: a.cpu_time,
            guidance: a.guidance,
            seed: a.seed,
            shrink_runs: a.shrink_runs,
            max_tests: a.max_tests.map(|n| n as usize),
            results: a.results.clone(),
            resume: a.resume,
            jobs: a.jobs,
            no_sandbox: a.no_sandbox,
            features: {
                let f = &a.features;
                (!f.features.is_empty() || f.all_features || f.no_default_features).then(|| f.into())
            },
            fuzz_settings: |words| {
                FuzzSettings::from(&parse_fuzz_args(words).expect("amplify's fuzz options parse"))
            },
        }
    }
}

impl From<&ExportArgs> for crate::amplify::ExportSettings {
    fn from(a: &ExportArgs) -> Self {
        crate::amplify::ExportSettings {
            target: a.target.clone(),
            package: (&a.package).into(),
            corpus: a.corpus.clone(),
            dev: a.dev,
        }
    }
}

/// `fuzz` options from words, as a command line would give them (for `amplify`).
pub fn parse_fuzz_args(words: &[String]) -> Result<FuzzArgs, clap::Error> {
    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        fuzz: FuzzArgs,
    }
    Wrapper::try_parse_from(words).map(|w| w.fuzz)
}

/// `cargo mutfuzz report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A fuzz target whose score to report (after `cargo mutfuzz score <target>`);
    /// without it (and without `--all`), the results of `cargo mutfuzz test`.
    pub target: Option<String>,
    /// The combined score of every target (after `cargo mutfuzz score --all`):
    /// target/mutfuzz/score.json, with each target's counts.
    #[arg(long, conflicts_with = "target")]
    pub all: bool,
    #[command(flatten)]
    pub package: PackageArgs,
    /// The results directory of `cargo mutfuzz test` (default: mutfuzz.out in the workspace
    /// root); with a TARGET or `--all`, a `score.json` (or a directory holding one), e.g. what
    /// `cargo mutfuzz merge` wrote for `score --shard` runs.
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// Where to write the report (default: report.html, or mutation.json with `--format
    /// mutation-testing`, in the results directory or in `target/mutfuzz/<target>/`); `-`
    /// writes mutation.json to stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// What to write: `html`, the HTML report with mutation.json beside it; or
    /// `mutation-testing`, only mutation.json (Stryker's mutation-testing-report-schema).
    #[arg(long, value_enum, default_value_t = ReportFormat::Html)]
    pub format: ReportFormat,
}

/// `report --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// The self-contained HTML report, and mutation.json beside it.
    Html,
    /// mutation.json alone: Stryker's mutation-testing-report-schema, schema version 2.
    MutationTesting,
}

/// `cargo mutfuzz export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The target: a function named in the harness's `mutfuzz::targets!`.
    pub target: String,
    #[command(flatten)]
    pub package: PackageArgs,
    /// The corpus to export (default: the target's corpus, `mutfuzz/corpus/<target>`).
    #[arg(long, value_name = "DIR")]
    pub corpus: Option<PathBuf>,
    /// Build the schema and harness unoptimized (the dev profile).
    #[arg(long, help_heading = "Build")]
    pub dev: bool,
    /// Write the replay test instead of readable ones: every input replayed through the
    /// harness from a data file (any target, also one whose input type has no
    /// reflection). The package gets `mutfuzz = "<version>"` as a dev-dependency, from the
    /// registry.
    #[arg(long)]
    pub replay: bool,
    /// With --replay: write the engine crates this binary carries into the harness
    /// (`mutfuzz/engine/`) and depend on them by path, for a machine without the registry.
    #[arg(long, requires = "replay")]
    pub vendor: bool,
}

/// A size for `--max-memory`/`--max-output`, checked now and kept as written.
fn size(text: &str) -> Result<String, String> {
    crate::process::caps::parse_size(text).map(|_| text.to_owned())
}

/// A positive, finite number of seconds.
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 => Ok(n),
        _ => Err(format!("{text:?} is not a positive number of seconds")),
    }
}

/// `90` (seconds), `30s`, `5m`, `1h`, `1.5h`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let scale = match unit {
        "s" | "sec" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(format!("unknown unit {unit:?} in {text:?}: use s, m or h, as in 30s, 5m, 1h")),
    };
    let n: f64 =
        number.trim().parse().map_err(|_| format!("{text:?} is not a duration: write 30s, 5m or 1h"))?;
    if !n.is_finite() || n <= 0.0 {
        return Err(format!("{text:?}: the duration must be positive"));
    }
    Ok(Duration::from_secs_f64(n * scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guidance_names_come_from_the_contract() {
        let cli = Cli::try_parse_from(["cargo-mutfuzz", "fuzz", "t", "--guidance", "coverage"]).unwrap();
        let Command::Fuzz(a) = cli.command else { panic!() };
        assert_eq!(a.guidance, GuidanceKind::Coverage);
        let cli = Cli::try_parse_from(["cargo-mutfuzz", "fuzz", "t"]).unwrap();
        let Command::Fuzz(a) = cli.command else { panic!() };
        assert_eq!(a.guidance, GuidanceKind::default());
        let err = Cli::try_parse_from(["cargo-mutfuzz", "fuzz", "t", "--guidance", "zest"]).unwrap_err();
        assert!(err.to_string().contains("mu2") && err.to_string().contains("coverage"), "{err}");
    }

    #[test]
    fn edits_and_schedules_are_chosen_by_name_with_zest_havoc_by_default() {
        let parse = |extra: &[&str]| {
            let argv = ["cargo-mutfuzz", "fuzz", "t"].iter().chain(extra).copied();
            match Cli::try_parse_from(argv) {
                Ok(Cli { command: Command::Fuzz(a) }) => Ok((a.edit, a.schedule)),
                Ok(_) => unreachable!(),
                Err(e) => Err(e.to_string()),
            }
        };
        assert_eq!(parse(&[]), Ok((EditKind::Havoc, ScheduleKind::Zest)));
        let both = parse(&["--edit", "structure", "--schedule", "mutagen"]);
        assert_eq!(both, Ok((EditKind::Structure, ScheduleKind::Mutagen)));
        let err = parse(&["--schedule", "afl"]).unwrap_err();
        assert!(err.contains("zest") && err.contains("mutagen"), "{err}");
    }

    #[test]
    fn a_command_takes_a_target_or_all_but_not_both_nor_neither() {
        let parse = |argv: &[&str]| Cli::try_parse_from(["cargo-mutfuzz"].iter().chain(argv).copied());
        for command in ["fuzz", "score", "eval"] {
            assert!(parse(&[command]).is_err(), "{command} without a target");
            assert!(parse(&[command, "t", "--all"]).is_err(), "{command} with both");
        }
        let Command::Fuzz(a) = parse(&["fuzz", "--all", "--trials", "9"]).unwrap().command else { panic!() };
        assert!(a.all && a.target.is_empty() && a.trials == Some(9));
        let Command::Fuzz(a) = parse(&["fuzz", "t"]).unwrap().command else { panic!() };
        assert!(!a.all && a.target == "t");
        assert!(parse(&["fuzz", "--all", "--corpus", "c"]).is_err());
        let Command::Score(a) = parse(&["score", "--all"]).unwrap().command else { panic!() };
        assert!(a.all && a.target.is_empty());
        let Command::Eval(a) = parse(&["eval", "--all", "--seeds", "1"]).unwrap().command else { panic!() };
        assert!(a.all && a.target.is_empty());
        let Command::Report(a) = parse(&["report", "--all"]).unwrap().command else { panic!() };
        assert!(a.all && a.target.is_none());
        assert!(parse(&["report", "t", "--all"]).is_err());
    }

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration("1.5h"), Ok(Duration::from_secs(5400)));
        assert!(parse_duration("5d").is_err());
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("s").is_err());
    }
}
