//! The harness's command line: every command `cargo mutfuzz` gives a harness binary, with
//! its request, as one type ([`HarnessCommand`]). The CLI builds a value and runs the
//! harness with [`HarnessCommand::to_args`]; the engine reads its arguments back with
//! [`HarnessCommand::parse`] and dispatches on the variant. Each request names its
//! arguments once, in its `fields` method, which writing, parsing and the usage text
//! ([`HarnessCommand::usage`]) all walk; the command names are listed once, in
//! [`HarnessCommand::NAMES`]'s definition below.
//!
//! ```
//! use mutfuzz_contract::command::{HarnessCommand, ReplayRequest};
//!
//! let replay = HarnessCommand::Replay(ReplayRequest { target: "sort".into(), file: "data.jsonl".into() });
//! let args = replay.to_args();
//! assert_eq!(args, ["replay", "sort", "data.jsonl"]);
//! assert_eq!(HarnessCommand::parse(args), Ok(replay));
//! assert_eq!(
//!     HarnessCommand::parse(["run", "sort"]).unwrap_err().to_string(),
//!     "`run` needs FILE"
//! );
//! ```

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use crate::{EditKind, GuidanceKind, Isolate, Prune, ScheduleKind};

/// Declares [`HarnessCommand`] (with `List`, which has no request) and the functions that
/// go over every command: one line per command, its name and its request.
macro_rules! harness_commands {
    ($( $(#[$doc:meta])* $name:literal => $variant:ident($request:ty), )*) => {
        /// One command line of a harness binary (without the program name): the command
        /// and its request.
        #[derive(Clone, Debug, PartialEq)]
        pub enum HarnessCommand {
            /// `list`: the target names, one a line.
            List,
            $( $(#[$doc])* $variant($request), )*
        }

        impl HarnessCommand {
            /// Every command's name, as its first argument. Any other first argument may be
            /// libFuzzer's (see the engine's `libfuzzer` module).
            pub const NAMES: [&'static str; 1 + [$($name),*].len()] = [LIST, $($name),*];

            /// The command's name, its first argument.
            pub fn name(&self) -> &'static str {
                match self {
                    HarnessCommand::List => LIST,
                    $( HarnessCommand::$variant(_) => $name, )*
                }
            }

            /// The target the command is for (`list` has none).
            pub fn target(&self) -> Option<&str> {
                match self {
                    HarnessCommand::List => None,
                    $( HarnessCommand::$variant(r) => Some(&r.target), )*
                }
            }

            /// The command `name` with every argument at its default, to be filled.
            fn empty(name: &str) -> Option<HarnessCommand> {
                match name {
                    LIST => Some(HarnessCommand::List),
                    $( $name => Some(HarnessCommand::$variant(<$request>::default())), )*
                    _ => None,
                }
            }

            fn visit<V: Visitor>(&mut self, v: &mut V) {
                match self {
                    HarnessCommand::List => {}
                    $( HarnessCommand::$variant(r) => r.fields(v), )*
                }
            }
        }
    };
}

const LIST: &str = "list";

harness_commands! {
    /// `fuzz`: the trial loop of one campaign, resumed from its state directory.
    "fuzz" => Fuzz(FuzzRequest),
    /// `worker`: a worker process of `fuzz`, `shrink` or `cmin`, answering `run` requests
    /// on stdin (see the engine's `workers` module).
    "worker" => Worker(WorkerRequest),
    /// `score`: every stored input's original, and each undecided mutant it reaches.
    "score" => Score(ScoreRequest),
    /// `outputs`: how the original ends on every stored input ([`ReplayRecord`](crate::ReplayRecord)s).
    "outputs" => Outputs(CorpusRequest),
    /// `values`: every stored input's value and ending ([`ValueRecord`](crate::ValueRecord)s).
    "values" => Values(CorpusRequest),
    /// `replay`: every input of an exported data file ends as recorded.
    "replay" => Replay(ReplayRequest),
    /// `run`: the original on one input, its value and output (or panic) printed.
    "run" => Run(RunRequest),
    /// `shrink`: one input made smaller while it kills the same mutants.
    "shrink" => Shrink(ShrinkRequest),
    /// `tmin`: one input made smaller while the original panics with the same message.
    "tmin" => Tmin(TminRequest),
    /// `cmin`: what each stored input covers and kills ([`CminRecord`](crate::CminRecord)s).
    "cmin" => Cmin(CminRequest),
}

/// `fuzz <target> --state DIR --corpus DIR --mutants FILE …`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FuzzRequest {
    /// The target.
    pub target: String,
    /// The campaign's state directory (kills, failures, counters, …).
    pub state: PathBuf,
    /// The corpus directory: stored inputs, read on start and written as kept (unless
    /// `hand_over`).
    pub corpus: PathBuf,
    /// The viable mutant catalog.
    pub mutants: PathBuf,
    /// The random seed.
    pub seed: u64,
    /// Stop after this many trials.
    pub trials: Option<u64>,
    /// Stop after this many seconds.
    pub time: Option<f64>,
    /// `time` and the reported times are CPU time (the harness's and its workers'), not wall time.
    pub cpu_time: bool,
    /// Which inputs to keep.
    pub guidance: GuidanceKind,
    /// How a child input is made from a saved one.
    pub edit: EditKind,
    /// Which inputs are edited, and how often.
    pub schedule: ScheduleKind,
    /// Which surviving mutants of the sites an input reaches run.
    pub prune: Prune,
    /// Run at most this many mutants per trial.
    pub sample: Option<u64>,
    /// Run the pruned mutants too and count those that the pruning wrongly skipped.
    pub verify_pruning: bool,
    /// Skip the check that the original's result stays the same (drift).
    pub no_drift_check: bool,
    /// μZest's factor of children for an input that kills.
    pub kill_factor: Option<u32>,
    /// The `infection` guidance's factor of children for an input that infects.
    pub infect_factor: Option<u32>,
    /// The `infection` guidance's focus: one parent in N chosen for a live target.
    pub focus: Option<u32>,
    /// The targets: one mutant id a line (no other mutant runs).
    pub mutants_file: Option<PathBuf>,
    /// Run with this mutant active in the background (`--strategy mutants-first`).
    pub background: Option<u32>,
    /// Restarted by the CLI: replay the stored corpus with the original only.
    pub resumed: bool,
    /// The corpus is the supervisor's, read-only here: each input to keep is handed to it
    /// (a `keep` line, see [`crate::protocol`]) and its answer awaited on stdin.
    pub hand_over: bool,
    /// A generated target's original panic is a failure, as a hand-written one's.
    pub panic_is_failure: bool,
    /// Processes that run mutants, this one included.
    pub jobs: Option<u64>,
    /// Which mutant runs go to a worker process.
    pub isolate: Isolate,
    /// The limits of the worker processes.
    pub workers: WorkerLimits,
    /// The static pass's hints file (`hints.json`).
    pub hints: Option<PathBuf>,
    /// The chance that a fresh value is a literal of the crate (with `hints`; default
    /// [`DICTIONARY_CHANCE`]).
    pub dictionary: Option<Probability>,
    /// The chance of an edit by comparison feedback (default [`COMPARE_CHANCE`]).
    pub compare: Option<Probability>,
    /// Edit the types of uncovered branches first (with `hints`).
    pub target_types: bool,
}

impl Fields for FuzzRequest {
    fn fields<V: Visitor>(&mut self, v: &mut V) {
        v.positional(TARGET, &mut self.target);
        v.required(flag("--state", "DIR"), &mut self.state);
        v.required(flag("--corpus", "DIR"), &mut self.corpus);
        v.required(flag("--mutants", "FILE"), &mut self.mutants);
        v.defaulted(flag("--seed", "S"), &mut self.seed);
        v.optional(flag("--trials", "N"), &mut self.trials);
        v.optional(flag("--time", "SECS"), &mut self.time);
        v.switch("--cpu-time", &mut self.cpu_time);
        v.defaulted(flag("--guidance", "GUIDANCE"), &mut self.guidance);
        v.defaulted(flag("--edit", "EDIT"), &mut self.edit);
        v.defaulted(flag("--schedule", "SCHEDULE"), &mut self.schedule);
        v.defaulted(flag("--prune", "RULE"), &mut self.prune);
        v.optional(flag("--sample", "K"), &mut self.sample);
        v.switch("--verify-pruning", &mut self.verify_pruning);
        v.switch("--no-drift-check", &mut self.no_drift_check);
        v.optional(flag("--kill-factor", "F"), &mut self.kill_factor);
        v.optional(flag("--infect-factor", "F"), &mut self.infect_factor);
        v.optional(flag("--focus", "N"), &mut self.focus);
        v.optional(flag("--mutants-file", "FILE"), &mut self.mutants_file);
        v.optional(flag("--background", "MUTANT"), &mut self.background);
        v.switch("--resumed", &mut self.resumed);
        v.switch("--hand-over", &mut self.hand_over);
        v.switch("--panic-is-failure", &mut self.panic_is_failure);
        v.optional(flag("--jobs", "N"), &mut self.jobs);
        v.defaulted(flag("--isolate", "RULE"), &mut self.isolate);
        self.workers.fields(v);
        v.optional(flag("--hints", "FILE"), &mut self.hints);
        v.optional(flag("--dictionary", "P"), &mut self.dictionary);
        v.optional(flag("--compare", "P"), &mut self.compare);
        v.switch("--target-types", &mut self.target_types);
    }
}

/// `--dictionary`'s default: a fresh value is a literal of the crate one time in ten.
pub const DICTIONARY_CHANCE: f64 = 0.1;
/// `--compare`'s default.
pub const COMPARE_CHANCE: f64 = 0.2;

/// The limits of the worker processes that run mutants for `fuzz`, `shrink` and `cmin`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorkerLimits {
    /// Seconds a worker may print nothing while a mutant runs before it is killed by
    /// `timeout` (default: 10).
    pub timeout: Option<f64>,
    /// Output cap of one mutant run in a worker, in bytes (`0`: none; default: the engine's).
    pub max_output: Option<u64>,
}

impl Fields for WorkerLimits {
    fn fields<V: Visitor>(&mut self, v: &mut V) {
        v.optional(flag("--worker-timeout", "SECS"), &mut self.timeout);
        v.optional(flag("--max-output", "BYTES"), &mut self.max_output);
    }
}

/// `worker <target>`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerRequest {
    /// The target.
    pub target: String,
    /// Check for drift at the end of each batch too, not only after each kill: a mutant
    /// that changes global state and survives is found on the input it ran on.
    pub drift_each_batch: bool,
}

impl Fields for WorkerRequest {
    fn fields<V: Visitor>(&mut self, v: &mut V) {
        v.positional(TARGET, &mut self.target);
        v.switch("--drift-each-batch", &mut self.drift_each_batch);
    }
}

/// `score <target> --corpus DIR --mutants FILE --out FILE …`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScoreRequest {
    /// The target.
    pub target: String,
    /// The stored inputs.
    pub corpus: PathBuf,
    /// The mutant catalog to score.
    pub mutants: PathBuf,
    /// `score.jsonl`: one [`ScoreLine`](crate::ScoreLine) per mutant decided (kept across restarts).
    pub out: PathBuf,
    /// Only these mutants (one id a line) are scored.
    pub mutants_file: Option<PathBuf>,
    /// The campaign's state directory, to read whether the target is nondeterministic.
    pub state: Option<PathBuf>,
    /// How the files encode inputs.
    pub format: InputFormat,
    /// A generated target's original panic is a failure, as a hand-written one's.
    pub panic_is_failure: bool,
    /// Which undecided mutants of the sites an input reaches run on it.
    pub prune: Prune,
    /// Processes that share an input's mutant runs, this one included (default 1).
    pub jobs: Option<u64>,
    /// The worker processes: each mutant's first run is in one of them.
    pub workers: WorkerLimits,
}

impl Fields for ScoreRequest {
    fn fields<V: Visitor>(&mut self, v: &mut V) {
        v.positional(TARGET, &mut self.target);
        v.required(flag("--corpus", "DIR"), &mut self.corpus);
        v.required(flag("--mutants", "FILE"), &mut self.mutants);
        v.required(flag("--out", "FILE"), &mut self.out);
        v.optional(flag("--mutants-file", "FILE"), &mut self.mutants_file);
        v.optional(flag("--state", "DIR"), &mut self.state);
        v.defaulted(flag("--format", "FORMAT"), &mut self.format);
        v.switch("--panic-is-failure", &mut self.panic_is_failure);
        v.defaulted(flag("--prune", "RULE"), &mut self.prune);
        v.optional(flag("--jobs", "N"), &mut self.jobs);
        self.workers.fields(v);
    }
}

/// `outputs <target> --corpus DIR --out FILE` and `values <target> --corpus DIR --out FILE`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CorpusRequest {
    /// The target.
    pub target: String,
    /// The stored inputs.
    pub corpus: PathBuf,
    /// The records, one per input in name order, written whole.
    pub out: PathBuf,
}

impl Fields for CorpusRequest {
    fn fields<V: Visitor>(&mut self, v: &mut V) {
        v.positional(TARGET, &mut self.target);
        v.required(flag("--corpus", "DIR"), &mut self.corpus);
        v.required(flag("--out", "FILE"), &mut self.out);
    }
}

/// `replay <target> FILE`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplayRequest {
    /// The target.
    pub target: String,
    /// The data file of an exported test ([`ReplayRecord`](crate::ReplayRecord)s).
    pub file: PathBuf,
}

impl Fields for ReplayRequest {
    fn fields<V: Visitor>(&mut self, v: &mut V) {
        v.positional(TARGET, &mut self.target);
        v.positional(FILE, &mut self.file);
    }
}

/// `run <target> FILE [--format FORMAT]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunRequest {
    /// The target.
    pub target: String,
    /// The input file.
    pub file: PathBuf,
    /// How the file encodes its input.
    pub format: InputFormat,
}

impl Fields for RunRequest {
    fn fields<V: Visitor>(&mut self, v: &mut V) {
        v.positional(TARGET, &mut self.target);
        v.positional(FILE, &mut self.file);
        v.defaulted(flag("--format", "FORMAT"), &mut self.format);
    }
}

/// `shrink <target> FILE (--mutants IDS | --catalog FILE) --out FILE …`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShrinkRequest {
    /// The target.
    pub target: String,
    /// The input file.
    pub file: PathBuf,
    /// The kills to keep.
    pub keep: Keep,
    /// The campaign's state directory, to read whether the target is nondeterministic.
    pub state: Option<PathBuf>,
    /// How long to shrink.
    pub limits: ShrinkLimits,
    /// The limits of the worker process that runs the mutants.
    pub workers: WorkerLimits,
    /// A generated target's original panic is a failure, as a hand-written one's.
    pub panic_is_failure: bool,
    /// The shrunk input, written whole.
    pub out: PathBuf,
}

impl Fields for ShrinkRequest {
    fn fields<V: Visitor>(&mut self, v: &mut V) {
        v.positional(TARGET, &mut self.target);
        v.positional(FILE, &mut self.file);
        v.one_of(&mut self.keep);
        v.optional(flag("--state", "DIR"), &mut self.state);
        self.limits.fields(v);
        self.workers.fields(v);
        v.switch("--panic-is-failure", &mut self.panic_is_failure);
        v.required(flag("--out", "FILE"), &mut self.out);
    }
}

/// The kills a `shrink` keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Keep {
    /// `--mutants 3,17,40`: the input must kill each of these (0 is not a mutant).
    Mutants(Vec<u32>),
    /// `--catalog FILE`: every mutant of this catalog that the input kills.
    Catalog(PathBuf),
}

impl Default for Keep {
    fn default() -> Keep {
        Keep::Mutants(Vec::new())
    }
}

impl OneOf for Keep {
    const FLAGS: [Flag; 2] = [flag("--mutants", "IDS"), flag("--catalog", "FILE")];

    fn which(&self) -> usize {
        match self {
            Keep::Mutants(_) => 0,
            Keep::Catalog(_) => 1,
        }
    }

    fn to_arg(&self) -> OsString {
        match self {
            Keep::Mutants(ids) => ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",").into(),
            Keep::Catalog(path) => path.to_arg(),
        }
    }

    fn from_arg(which: usize, arg: &OsStr) -> Result<Keep, String> {
        if which == 1 {
            return PathBuf::from_arg(arg).map(Keep::Catalog);
        }
        let text = text(arg)?;
        let ids = text
            .split(',')
            .map(|w| w.trim().parse::<u32>())
            .collect::<Result<Vec<u32>, _>>()
            .map_err(|_| format!("takes ids like 3,17,40, not {text:?}"))?;
        if ids.contains(&0) {
            return Err("takes mutant ids: 0 is the original, not a mutant".to_owned());
        }
        Ok(Keep::Mutants(ids))
    }
}

/// How long a `shrink` or `tmin` goes on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShrinkLimits {
    /// Most runs of the property (default: the engine's).
    pub max_runs: Option<u64>,
    /// Most seconds.
    pub time: Option<f64>,
}

impl Fields for ShrinkLimits {
    fn fields<V: Visitor>(&mut self, v: &mut V) {
        v.optional(flag("--max-runs", "N"), &mut self.max_runs);
        v.optional(flag("--time", "SECS"), &mut self.time);
    }
}

/// `tmin <target> FILE --out FILE …`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TminRequest {
    /// The target.
    pub target: String,
    /// The input file.
    pub file: PathBuf,
    /// How long to shrink.
    pub limits: ShrinkLimits,
    /// The shrunk input, written whole.
    pub out: PathBuf,
}

impl Fields for TminRequest {
    fn fields<V: Visitor>(&mut self, v: &mut V) {
        v.positional(TARGET, &mut self.target);
        v.positional(FILE, &mut self.file);
        self.limits.fields(v);
        v.required(flag("--out", "FILE"), &mut self.out);
    }
}

/// `cmin <target> --corpus DIR --catalog FILE --out FILE …`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CminRequest {
    /// The target.
    pub target: String,
    /// The stored inputs.
    pub corpus: PathBuf,
    /// The mutants each input's kills are looked for among.
    pub catalog: PathBuf,
    /// The campaign's state directory, to read whether the target is nondeterministic.
    pub state: Option<PathBuf>,
    /// The limits of the worker process that runs the mutants.
    pub workers: WorkerLimits,
    /// A generated target's original panic is a failure, as a hand-written one's.
    pub panic_is_failure: bool,
    /// The [`CminRecord`](crate::CminRecord)s, written whole.
    pub out: PathBuf,
}

impl Fields for CminRequest {
    fn fields<V: Visitor>(&mut self, v: &mut V) {
        v.positional(TARGET, &mut self.target);
        v.required(flag("--corpus", "DIR"), &mut self.corpus);
        v.required(flag("--catalog", "FILE"), &mut self.catalog);
        v.optional(flag("--state", "DIR"), &mut self.state);
        self.workers.fields(v);
        v.switch("--panic-is-failure", &mut self.panic_is_failure);
        v.required(flag("--out", "FILE"), &mut self.out);
    }
}

/// How corpus files encode inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InputFormat {
    /// Choice sequences, as `fuzz` stores them.
    #[default]
    Mutfuzz,
    /// Raw bytes, as cargo-fuzz and libFuzzer store them, decoded with
    /// `Arbitrary::arbitrary_take_rest` as `fuzz_target!` does.
    Arbitrary,
}

impl InputFormat {
    /// Every format, the default first.
    pub const ALL: [InputFormat; 2] = [InputFormat::Mutfuzz, InputFormat::Arbitrary];

    /// Its name on command lines.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Mutfuzz => "mutfuzz",
            InputFormat::Arbitrary => "arbitrary",
        }
    }

    /// `mutfuzz|arbitrary`, for usage messages.
    pub fn names() -> String {
        InputFormat::ALL.map(InputFormat::name).join("|")
    }
}

impl fmt::Display for InputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for InputFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        InputFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown input format `{s}`: expected one of {}", InputFormat::names()))
    }
}

/// A probability, from 0 to 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Probability(f64);

impl Probability {
    /// `p`, if it is from 0 to 1.
    pub fn new(p: f64) -> Option<Probability> {
        (0.0..=1.0).contains(&p).then_some(Probability(p))
    }

    /// The probability.
    pub fn get(self) -> f64 {
        self.0
    }
}

/// What is wrong with a harness command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// No argument at all.
    NoCommand,
    /// The first argument is not a command.
    UnknownCommand(String),
    /// A flag the command does not take.
    UnknownFlag {
        /// The command.
        command: &'static str,
        /// The flag as given.
        flag: String,
    },
    /// A flag that takes a value came last.
    MissingValue {
        /// The flag.
        flag: &'static str,
    },
    /// A value (or positional argument) that does not parse.
    BadValue {
        /// The flag, or the positional argument's name (`<target>`, `FILE`).
        argument: &'static str,
        /// Why, as words that follow the argument: `takes a number, not "x"`.
        reason: String,
    },
    /// A required argument is missing.
    Missing {
        /// The command.
        command: &'static str,
        /// What it needs: `--state DIR`, `<target>`, `FILE`.
        argument: String,
    },
    /// Two flags of which the command takes one.
    Conflict {
        /// The command.
        command: &'static str,
        /// The flags.
        flags: [&'static str; 2],
    },
    /// A positional argument the command does not take.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The argument.
        argument: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let commands = || HarnessCommand::NAMES.join(", ");
        match self {
            ParseError::NoCommand => write!(f, "no command given: use {}", commands()),
            ParseError::UnknownCommand(name) => write!(f, "unknown command {name:?}: use {}", commands()),
            ParseError::UnknownFlag { command, flag } => write!(f, "unknown option {flag} for `{command}`"),
            ParseError::MissingValue { flag } => write!(f, "{flag} needs a value"),
            ParseError::BadValue { argument, reason } => write!(f, "{argument} {reason}"),
            ParseError::Missing { command, argument } => write!(f, "`{command}` needs {argument}"),
            ParseError::Conflict { command, flags: [a, b] } => {
                write!(f, "`{command}` takes either {a} or {b}, not both")
            }
            ParseError::Unexpected { command, argument } => {
                write!(f, "unexpected argument {argument:?} for `{command}`")
            }
        }
    }
}

impl std::error::Error for ParseError {}

impl HarnessCommand {
    /// The arguments that run this command (without the program name).
    pub fn to_args(&self) -> Vec<OsString> {
        let mut writer = Writer { args: vec![self.name().into()] };
        // The visitor takes each field by `&mut` (parsing fills them): a copy is walked.
        self.clone().visit(&mut writer);
        writer.args
    }

    /// Reads a command line (without the program name): the command, then its target and
    /// arguments, flags in any order (the last of a repeated flag counts).
    pub fn parse<I, A>(args: I) -> Result<HarnessCommand, ParseError>
    where
        I: IntoIterator<Item = A>,
        A: Into<OsString>,
    {
        let mut args = args.into_iter().map(Into::into);
        let first = args.next().ok_or(ParseError::NoCommand)?;
        let name = first.to_string_lossy();
        let mut command =
            HarnessCommand::empty(&name).ok_or_else(|| ParseError::UnknownCommand(name.into_owned()))?;
        let mut spec = Spec::default();
        command.visit(&mut spec);
        let mut reader = Reader { command: command.name(), ..Reader::default() };
        while let Some(word) = args.next() {
            match word.to_str().filter(|w| w.starts_with("--")) {
                Some(given) => {
                    let Some(&(flag, takes_value)) = spec.flags.iter().find(|(f, _)| *f == given) else {
                        return Err(ParseError::UnknownFlag {
                            command: command.name(),
                            flag: given.to_owned(),
                        });
                    };
                    let value = match takes_value {
                        true => Some(args.next().ok_or(ParseError::MissingValue { flag })?),
                        false => None,
                    };
                    reader.flags.insert(flag, value);
                }
                None if reader.positional.len() == spec.positional.len() => {
                    let argument = word.to_string_lossy().into_owned();
                    return Err(ParseError::Unexpected { command: command.name(), argument });
                }
                None => reader.positional.push(word),
            }
        }
        command.visit(&mut reader);
        match reader.error {
            Some(e) => Err(e),
            None => Ok(command),
        }
    }

    /// Every command with its arguments, for a usage message:
    /// `list | fuzz <target> --state DIR … | worker <target> | …`.
    pub fn usage() -> String {
        let synopses: Vec<String> = HarnessCommand::NAMES
            .iter()
            .map(|name| {
                let mut spec = Spec::default();
                HarnessCommand::empty(name).expect("a command name").visit(&mut spec);
                std::iter::once(*name)
                    .chain(spec.usage.iter().map(String::as_str))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        synopses.join(" | ")
    }
}

/// A flag that takes a value: its name and the value's placeholder in usage messages.
#[derive(Clone, Copy, Debug)]
struct Flag {
    name: &'static str,
    placeholder: &'static str,
}

const fn flag(name: &'static str, placeholder: &'static str) -> Flag {
    Flag { name, placeholder }
}

/// The name of the positional argument every command but `list` starts with.
const TARGET: &str = "<target>";
/// The name of an input file's positional argument.
const FILE: &str = "FILE";

/// A request's arguments, each named once: writing, parsing and usage walk them.
trait Fields {
    fn fields<V: Visitor>(&mut self, v: &mut V);
}

/// What is done with each argument of a request.
trait Visitor {
    /// The next positional argument (required).
    fn positional<T: Value>(&mut self, name: &'static str, value: &mut T);
    /// `--flag VALUE`, required.
    fn required<T: Value>(&mut self, flag: Flag, value: &mut T);
    /// `--flag VALUE`, the value's default when not given (always written).
    fn defaulted<T: Value>(&mut self, flag: Flag, value: &mut T);
    /// `--flag VALUE`, optional.
    fn optional<T: Value>(&mut self, flag: Flag, value: &mut Option<T>);
    /// `--flag`, present or not.
    fn switch(&mut self, flag: &'static str, value: &mut bool);
    /// Exactly one of two flags.
    fn one_of<C: OneOf>(&mut self, value: &mut C);
}

/// A value of one argument.
trait Value: Sized {
    fn from_arg(arg: &OsStr) -> Result<Self, String>;
    fn to_arg(&self) -> OsString;
    /// The names it takes, when it is one of a few (`mu2|coverage|…`).
    fn choices() -> Option<String> {
        None
    }
}

/// A value given by exactly one of two flags ([`Keep`]).
trait OneOf: Sized {
    const FLAGS: [Flag; 2];
    /// The index of the flag that gives it.
    fn which(&self) -> usize;
    fn to_arg(&self) -> OsString;
    fn from_arg(which: usize, arg: &OsStr) -> Result<Self, String>;
}

fn text(arg: &OsStr) -> Result<&str, String> {
    arg.to_str().ok_or_else(|| format!("is not UTF-8: {arg:?}"))
}

impl Value for PathBuf {
    fn from_arg(arg: &OsStr) -> Result<Self, String> {
        Ok(PathBuf::from(arg))
    }
    fn to_arg(&self) -> OsString {
        self.as_os_str().to_owned()
    }
}

impl Value for String {
    fn from_arg(arg: &OsStr) -> Result<Self, String> {
        text(arg).map(str::to_owned)
    }
    fn to_arg(&self) -> OsString {
        self.into()
    }
}

macro_rules! number_values {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn from_arg(arg: &OsStr) -> Result<Self, String> {
                let text = text(arg)?;
                text.parse().map_err(|_| format!("takes a number, not {text:?}"))
            }
            fn to_arg(&self) -> OsString {
                self.to_string().into()
            }
        }
    )*};
}

number_values!(u32, u64, f64);

impl Value for Probability {
    fn from_arg(arg: &OsStr) -> Result<Self, String> {
        let p = f64::from_arg(arg)?;
        Probability::new(p).ok_or_else(|| format!("takes a probability from 0 to 1, not {p}"))
    }
    fn to_arg(&self) -> OsString {
        self.0.to_arg()
    }
}

macro_rules! named_values {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn from_arg(arg: &OsStr) -> Result<Self, String> {
                let text = text(arg)?;
                text.parse().map_err(|_| format!("takes {}, not {text:?}", <$t>::names()))
            }
            fn to_arg(&self) -> OsString {
                self.name().into()
            }
            fn choices() -> Option<String> {
                Some(<$t>::names())
            }
        }
    )*};
}

named_values!(GuidanceKind, EditKind, ScheduleKind, Prune, Isolate, InputFormat);

/// Writes the arguments.
struct Writer {
    args: Vec<OsString>,
}

impl Visitor for Writer {
    fn positional<T: Value>(&mut self, _: &'static str, value: &mut T) {
        self.args.push(value.to_arg());
    }
    fn required<T: Value>(&mut self, flag: Flag, value: &mut T) {
        self.args.extend([flag.name.into(), value.to_arg()]);
    }
    fn defaulted<T: Value>(&mut self, flag: Flag, value: &mut T) {
        self.required(flag, value);
    }
    fn optional<T: Value>(&mut self, flag: Flag, value: &mut Option<T>) {
        if let Some(value) = value {
            self.required(flag, value);
        }
    }
    fn switch(&mut self, flag: &'static str, value: &mut bool) {
        if *value {
            self.args.push(flag.into());
        }
    }
    fn one_of<C: OneOf>(&mut self, value: &mut C) {
        self.args.extend([C::FLAGS[value.which()].name.into(), value.to_arg()]);
    }
}

/// The arguments a command takes: its flags (and whether each takes a value), its
/// positional arguments, and its usage words.
#[derive(Default)]
struct Spec {
    flags: Vec<(&'static str, bool)>,
    positional: Vec<&'static str>,
    usage: Vec<String>,
}

impl Spec {
    fn with_value<T: Value>(&mut self, flag: Flag) -> String {
        self.flags.push((flag.name, true));
        format!("{} {}", flag.name, T::choices().unwrap_or_else(|| flag.placeholder.to_owned()))
    }
}

impl Visitor for Spec {
    fn positional<T: Value>(&mut self, name: &'static str, _: &mut T) {
        self.positional.push(name);
        self.usage.push(name.to_owned());
    }
    fn required<T: Value>(&mut self, flag: Flag, _: &mut T) {
        let words = self.with_value::<T>(flag);
        self.usage.push(words);
    }
    fn defaulted<T: Value>(&mut self, flag: Flag, _: &mut T) {
        let words = self.with_value::<T>(flag);
        self.usage.push(format!("[{words}]"));
    }
    fn optional<T: Value>(&mut self, flag: Flag, _: &mut Option<T>) {
        let words = self.with_value::<T>(flag);
        self.usage.push(format!("[{words}]"));
    }
    fn switch(&mut self, flag: &'static str, _: &mut bool) {
        self.flags.push((flag, false));
        self.usage.push(format!("[{flag}]"));
    }
    fn one_of<C: OneOf>(&mut self, _: &mut C) {
        let [a, b] = C::FLAGS;
        self.flags.extend([(a.name, true), (b.name, true)]);
        self.usage.push(format!("({} {} | {} {})", a.name, a.placeholder, b.name, b.placeholder));
    }
}

/// Fills the fields from the arguments given; keeps the first error.
#[derive(Default)]
struct Reader {
    command: &'static str,
    positional: Vec<OsString>,
    /// Positional arguments taken so far.
    taken: usize,
    /// The flags given, with their values (a switch has none).
    flags: HashMap<&'static str, Option<OsString>>,
    error: Option<ParseError>,
}

impl Reader {
    fn fail(&mut self, e: ParseError) {
        self.error.get_or_insert(e);
    }

    fn value<T: Value>(&mut self, flag: Flag) -> Option<T> {
        let arg = self.flags.get(flag.name)?.clone()?;
        match T::from_arg(&arg) {
            Ok(value) => Some(value),
            Err(reason) => {
                self.fail(ParseError::BadValue { argument: flag.name, reason });
                None
            }
        }
    }
}

impl Visitor for Reader {
    fn positional<T: Value>(&mut self, name: &'static str, value: &mut T) {
        let Some(arg) = self.positional.get(self.taken) else {
            return self.fail(ParseError::Missing { command: self.command, argument: name.to_owned() });
        };
        self.taken += 1;
        match T::from_arg(arg) {
            Ok(v) => *value = v,
            Err(reason) => self.fail(ParseError::BadValue { argument: name, reason }),
        }
    }
    fn required<T: Value>(&mut self, flag: Flag, value: &mut T) {
        if !self.flags.contains_key(flag.name) {
            let argument = format!("{} {}", flag.name, flag.placeholder);
            return self.fail(ParseError::Missing { command: self.command, argument });
        }
        self.defaulted(flag, value);
    }
    fn defaulted<T: Value>(&mut self, flag: Flag, value: &mut T) {
        if let Some(v) = self.value(flag) {
            *value = v;
        }
    }
    fn optional<T: Value>(&mut self, flag: Flag, value: &mut Option<T>) {
        *value = self.value(flag);
    }
    fn switch(&mut self, flag: &'static str, value: &mut bool) {
        *value = self.flags.contains_key(flag);
    }
    fn one_of<C: OneOf>(&mut self, value: &mut C) {
        let [a, b] = C::FLAGS;
        let given: Vec<usize> = (0..2).filter(|&i| self.flags.contains_key(C::FLAGS[i].name)).collect();
        let which = match given[..] {
            [which] => which,
            [] => {
                let argument = format!("either {} {} or {} {}", a.name, a.placeholder, b.name, b.placeholder);
                return self.fail(ParseError::Missing { command: self.command, argument });
            }
            _ => return self.fail(ParseError::Conflict { command: self.command, flags: [a.name, b.name] }),
        };
        let flag = C::FLAGS[which];
        let arg = self.flags[flag.name].clone().unwrap_or_default();
        match C::from_arg(which, &arg) {
            Ok(v) => *value = v,
            Err(reason) => self.fail(ParseError::BadValue { argument: flag.name, reason }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64) -> Probability {
        Probability::new(x).unwrap()
    }

    /// Every command, each with a value other than the default in every field.
    fn every_command() -> Vec<HarnessCommand> {
        let workers = WorkerLimits { timeout: Some(2.5), max_output: Some(4096) };
        let limits = ShrinkLimits { max_runs: Some(300), time: Some(7.25) };
        vec![
            HarnessCommand::List,
            HarnessCommand::Fuzz(FuzzRequest {
                target: "sort".into(),
                state: "/s/state".into(),
                corpus: "/s/corpus dir".into(),
                mutants: "/s/viable.json".into(),
                seed: 42,
                trials: Some(1000),
                time: Some(60.0),
                cpu_time: true,
                guidance: GuidanceKind::MuzestN,
                edit: EditKind::Structure,
                schedule: ScheduleKind::Mutagen,
                prune: Prune::Execution,
                sample: Some(3),
                verify_pruning: true,
                no_drift_check: true,
                kill_factor: Some(5),
                infect_factor: Some(6),
                focus: Some(3),
                mutants_file: Some("/s/targets.txt".into()),
                background: Some(17),
                resumed: true,
                hand_over: true,
                panic_is_failure: true,
                jobs: Some(4),
                isolate: Isolate::All,
                workers,
                hints: Some("/s/hints.json".into()),
                dictionary: Some(p(0.25)),
                compare: Some(p(0.0)),
                target_types: true,
            }),
            HarnessCommand::Worker(WorkerRequest { target: "w".into(), drift_each_batch: true }),
            HarnessCommand::Score(ScoreRequest {
                target: "sc".into(),
                corpus: "c".into(),
                mutants: "m.json".into(),
                out: "score.jsonl".into(),
                mutants_file: Some("ids.txt".into()),
                state: Some("st".into()),
                format: InputFormat::Arbitrary,
                panic_is_failure: true,
                prune: Prune::Execution,
                jobs: Some(2),
                workers,
            }),
            HarnessCommand::Outputs(CorpusRequest {
                target: "o".into(),
                corpus: "c1".into(),
                out: "o.jsonl".into(),
            }),
            HarnessCommand::Values(CorpusRequest {
                target: "v".into(),
                corpus: "c2".into(),
                out: "v.jsonl".into(),
            }),
            HarnessCommand::Replay(ReplayRequest { target: "r".into(), file: "tests/r.jsonl".into() }),
            HarnessCommand::Run(RunRequest {
                target: "x".into(),
                file: "crash-1".into(),
                format: InputFormat::Arbitrary,
            }),
            HarnessCommand::Shrink(ShrinkRequest {
                target: "sh".into(),
                file: "in".into(),
                keep: Keep::Mutants(vec![40, 3, 17]),
                state: Some("st".into()),
                limits,
                workers,
                panic_is_failure: true,
                out: "in.min".into(),
            }),
            HarnessCommand::Shrink(ShrinkRequest {
                target: "sh".into(),
                file: "in".into(),
                keep: Keep::Catalog("viable.json".into()),
                state: Some("st".into()),
                limits,
                workers,
                panic_is_failure: true,
                out: "in.min".into(),
            }),
            HarnessCommand::Tmin(TminRequest {
                target: "t".into(),
                file: "crash".into(),
                limits,
                out: "crash.min".into(),
            }),
            HarnessCommand::Cmin(CminRequest {
                target: "cm".into(),
                corpus: "c3".into(),
                catalog: "viable.json".into(),
                state: Some("st".into()),
                workers,
                panic_is_failure: true,
                out: "cmin.jsonl".into(),
            }),
        ]
    }

    #[test]
    fn every_command_round_trips_through_its_arguments() {
        let commands = every_command();
        let mut names: Vec<&str> = commands.iter().map(HarnessCommand::name).collect();
        names.dedup();
        assert_eq!(names, HarnessCommand::NAMES, "every command is tested, in order");
        for command in commands {
            let args = command.to_args();
            assert_eq!(HarnessCommand::parse(args.clone()), Ok(command.clone()), "{args:?}");
            // Every field differs from its default, so a field left out of `fields` fails above;
            // and each flag written is one the usage shows.
            let usage = HarnessCommand::usage();
            for word in args.iter().filter_map(|a| a.to_str()).filter(|a| a.starts_with("--")) {
                assert!(usage.contains(word), "{word}");
            }
        }
    }

    #[test]
    fn defaults_are_written_and_left_out_options_stay_unset() {
        let run =
            HarnessCommand::Run(RunRequest { target: "t".into(), file: "f".into(), ..Default::default() });
        assert_eq!(run.to_args(), ["run", "t", "f", "--format", "mutfuzz"]);
        assert_eq!(HarnessCommand::parse(["run", "t", "f"]), Ok(run));
        let parsed = HarnessCommand::parse(["fuzz", "t", "--state", "s", "--corpus", "c", "--mutants", "m"]);
        let expected = FuzzRequest {
            target: "t".into(),
            state: "s".into(),
            corpus: "c".into(),
            mutants: "m".into(),
            ..FuzzRequest::default()
        };
        assert_eq!(parsed, Ok(HarnessCommand::Fuzz(expected)));
        // Flags in any order, before or after the positional arguments; the last one counts.
        let parsed = HarnessCommand::parse(["tmin", "--out", "a", "t", "--out", "b", "f"]).unwrap();
        let HarnessCommand::Tmin(t) = parsed else { panic!("{parsed:?}") };
        assert_eq!((t.target.as_str(), t.file.to_str(), t.out.to_str()), ("t", Some("f"), Some("b")));
        assert_eq!(HarnessCommand::List.to_args(), ["list"]);
        let worker = WorkerRequest { target: "w".into(), drift_each_batch: false };
        assert_eq!(HarnessCommand::Worker(worker).target(), Some("w"));
    }

    #[test]
    fn bad_command_lines_say_what_is_wrong() {
        let err = |words: &[&str]| HarnessCommand::parse(words).unwrap_err().to_string();
        assert!(err(&[]).starts_with("no command given: use list, fuzz, worker, score"));
        assert!(err(&["bogus"]).starts_with("unknown command \"bogus\": use list, fuzz"));
        assert_eq!(err(&["fuzz"]), "`fuzz` needs <target>");
        assert_eq!(err(&["fuzz", "t"]), "`fuzz` needs --state DIR");
        assert_eq!(err(&["fuzz", "t", "--seed"]), "--seed needs a value");
        assert_eq!(err(&["fuzz", "t", "--bogus"]), "unknown option --bogus for `fuzz`");
        assert_eq!(err(&["tmin", "t", "f", "--catalog", "c"]), "unknown option --catalog for `tmin`");
        let fuzz = |extra: &[&str]| {
            let mut words = vec!["fuzz", "t", "--state", "s", "--corpus", "c", "--mutants", "m"];
            words.extend(extra);
            err(&words)
        };
        assert_eq!(fuzz(&["--seed", "x"]), "--seed takes a number, not \"x\"");
        assert_eq!(fuzz(&["--schedule", "afl"]), "--schedule takes zest|mutagen, not \"afl\"");
        assert_eq!(
            fuzz(&["--guidance", "zest"]),
            "--guidance takes mu2|coverage|muzest-p|muzest-n|infection, not \"zest\""
        );
        assert_eq!(fuzz(&["--dictionary", "1.5"]), "--dictionary takes a probability from 0 to 1, not 1.5");
        assert_eq!(
            err(&["run", "t", "f", "--format", "raw"]),
            "--format takes mutfuzz|arbitrary, not \"raw\""
        );
        assert_eq!(err(&["run", "t"]), "`run` needs FILE");
        assert_eq!(err(&["run", "t", "f", "g"]), "unexpected argument \"g\" for `run`");
        assert_eq!(err(&["values", "t", "--out", "o"]), "`values` needs --corpus DIR");
        let shrink = |extra: &[&str]| {
            let mut words = vec!["shrink", "t", "f", "--out", "o"];
            words.extend(extra);
            HarnessCommand::parse(words)
        };
        assert_eq!(
            shrink(&[]).unwrap_err().to_string(),
            "`shrink` needs either --mutants IDS or --catalog FILE"
        );
        assert_eq!(
            shrink(&["--mutants", "1", "--catalog", "c"]).unwrap_err().to_string(),
            "`shrink` takes either --mutants or --catalog, not both"
        );
        assert_eq!(
            shrink(&["--mutants", "3,x"]).unwrap_err().to_string(),
            "--mutants takes ids like 3,17,40, not \"3,x\""
        );
        assert_eq!(
            shrink(&["--mutants", "0,1"]).unwrap_err().to_string(),
            "--mutants takes mutant ids: 0 is the original, not a mutant"
        );
        let Ok(HarnessCommand::Shrink(s)) = shrink(&["--mutants", "40, 3,17"]) else { panic!() };
        assert_eq!(s.keep, Keep::Mutants(vec![40, 3, 17]));
    }

    #[cfg(unix)]
    #[test]
    fn paths_need_not_be_unicode() {
        use std::os::unix::ffi::OsStrExt;
        let odd = PathBuf::from(OsStr::from_bytes(b"corpus-\xff"));
        let command =
            HarnessCommand::Values(CorpusRequest { target: "t".into(), corpus: odd, out: "o".into() });
        assert_eq!(HarnessCommand::parse(command.to_args()), Ok(command));
        let bad = [OsStr::new("run"), OsStr::from_bytes(b"\xff"), OsStr::new("f")];
        let err = HarnessCommand::parse(bad).unwrap_err();
        assert!(matches!(err, ParseError::BadValue { argument: "<target>", .. }), "{err}");
    }

    #[test]
    fn the_usage_lists_every_command_with_its_arguments() {
        let usage = HarnessCommand::usage();
        assert!(
            usage.starts_with("list | fuzz <target> --state DIR --corpus DIR --mutants FILE [--seed S]"),
            "{usage}"
        );
        assert!(usage.contains("[--guidance mu2|coverage|muzest-p|muzest-n|infection]"), "{usage}");
        assert!(usage.contains(
            "| shrink <target> FILE (--mutants IDS | --catalog FILE) [--state DIR] [--max-runs N] [--time SECS]"
        ));
        for name in HarnessCommand::NAMES {
            assert!(
                usage.starts_with(&format!("{name} ")) || usage.contains(&format!("| {name} ")),
                "{name}"
            );
        }
    }
}
