//! The harness binary: its targets ([`targets!`](crate::targets)) and the command line
//! that `cargo mutfuzz` drives (`list`, `fuzz`, `score`, `run`).
//!
//! A harness is a package `mutfuzz/` in the crate under test (like cargo-fuzz's
//! `fuzz/`). Its `main.rs` holds plain functions that take one generated value and
//! return an output, and registers them:
//!
//! ```no_run
//! fn sort(mut v: Vec<i64>) -> Vec<i64> {
//!     v.sort();
//!     v
//! }
//! fn parses(s: String) -> bool {
//!     s.parse::<i64>().is_ok()
//! }
//! fn same_len(a: &Vec<i64>, b: &Vec<i64>) -> bool {
//!     a.len() == b.len()
//! }
//! mutfuzz::targets!(sort(compare = same_len), parses);
//! ```
//!
//! The binary speaks a line protocol on stdout ([`mutfuzz_contract::protocol`]) so that
//! a supervisor can tell what was running if the process dies: `trial <hex input>`
//! before each original run, `mutant <id>` before each mutant run, `stats <json>` about
//! once a second and `done <json>` at the end (`score` prints `input <name>` and
//! `mutant <id>`).

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Debug;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mutfuzz_contract::{
    CampaignDir, GuidanceKind, JsonlWriter, Line, Prune, Report, ScoreLine, Stats, read_jsonl,
};

use std::sync::Arc;

use mutfuzz_contract::Hints;

use crate::campaign::{Campaign, Config, Event};
use crate::edit::{DictionaryEdit, Informed, TypeTargets};
use crate::r#gen::Gen;
use crate::input::Dictionary;
use crate::input::{Limits, Rng, Source};
use crate::mutants::MutantInfo;
use crate::oracle::{Compare, DebugHash, Oracle};
use crate::score::{SCORE_BUDGET, ScoreEvent, score};
use crate::workers::Workers;

/// Exit code for bad arguments or a campaign that cannot go on (e.g. a nondeterministic target).
pub const EXIT_ERROR: i32 = 2;

type Runner = Box<dyn Fn(&Args) -> Result<i32, String>>;

/// The targets of one harness binary; built by [`targets!`](crate::targets).
#[derive(Default)]
pub struct Registry {
    targets: Vec<(&'static str, Runner)>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Register `target`, judged by equal `Debug` renderings of its outputs.
    pub fn add<T: Gen + Debug + 'static, O: Debug + 'static>(
        &mut self,
        name: &'static str,
        target: fn(T) -> O,
    ) {
        self.targets.push((name, Box::new(move |args| dispatch(args, target, None))));
    }

    /// Register `target`, judged by `compare(original, mutant)` (true when they agree).
    pub fn add_with_compare<T: Gen + Debug + 'static, O: Debug + 'static>(
        &mut self,
        name: &'static str,
        target: fn(T) -> O,
        compare: fn(&O, &O) -> bool,
    ) {
        self.targets.push((name, Box::new(move |args| dispatch(args, target, Some(compare)))));
    }

    /// Run the command line and exit.
    pub fn main(self) -> ! {
        let argv: Vec<String> = std::env::args().skip(1).collect();
        let code = match self.run(&argv) {
            Ok(code) => code,
            Err(message) => {
                eprintln!("error: {message}");
                EXIT_ERROR
            }
        };
        let _ = std::io::stdout().flush();
        std::process::exit(code)
    }

    /// Run one command line (without the program name); returns the exit code.
    pub fn run(&self, argv: &[String]) -> Result<i32, String> {
        let usage = || {
            let names: Vec<&str> = self.targets.iter().map(|(n, _)| *n).collect();
            format!(
                "usage: <harness> list | fuzz <target> --state DIR --corpus DIR --mutants FILE [--seed S] \
                 [--trials N] [--time SECS] [--guidance {}] [--prune {}] [--sample K] [--kill-factor F] [--background MUTANT] [--jobs N] [--worker-timeout SECS] [--hints FILE] [--dictionary P] [--compare P] [--target-types] | worker <target> | score <target> --corpus DIR \
                 --mutants FILE --out FILE | run <target> FILE; targets: {}",
                GuidanceKind::names(),
                Prune::names(),
                names.join(", ")
            )
        };
        let Some(command) = argv.first() else { return Err(usage()) };
        if command == "list" {
            for (name, _) in &self.targets {
                println!("{name}");
            }
            return Ok(0);
        }
        let Some(target) = argv.get(1) else { return Err(usage()) };
        let Some((_, runner)) = self.targets.iter().find(|(n, _)| n == target) else {
            return Err(format!("no target named {target:?}; {}", usage()));
        };
        let mut args = Args::parse(command, &argv[2..])?;
        args.target = target.clone();
        runner(&args)
    }
}

/// A parsed command line of one target.
#[derive(Debug, Default)]
pub struct Args {
    command: String,
    target: String,
    positional: Vec<String>,
    state: Option<PathBuf>,
    corpus: Option<PathBuf>,
    mutants: Option<PathBuf>,
    out: Option<PathBuf>,
    seed: u64,
    trials: Option<u64>,
    time: Option<f64>,
    guidance: GuidanceKind,
    prune: Prune,
    sample: Option<usize>,
    kill_factor: Option<u32>,
    background: Option<u32>,
    verify_pruning: bool,
    jobs: Option<usize>,
    worker_timeout: Option<f64>,
    hints: Option<PathBuf>,
    dictionary: Option<f64>,
    compare: Option<f64>,
    target_types: bool,
}

impl Args {
    fn parse(command: &str, rest: &[String]) -> Result<Args, String> {
        let mut a = Args { command: command.to_owned(), ..Args::default() };
        let mut it = rest.iter();
        while let Some(word) = it.next() {
            let mut value = |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
            match word.as_str() {
                "--state" => a.state = Some(value(word)?.into()),
                "--corpus" => a.corpus = Some(value(word)?.into()),
                "--mutants" => a.mutants = Some(value(word)?.into()),
                "--out" => a.out = Some(value(word)?.into()),
                "--seed" => a.seed = number(word, &value(word)?)?,
                "--trials" => a.trials = Some(number(word, &value(word)?)?),
                "--time" => a.time = Some(number(word, &value(word)?)?),
                "--guidance" => a.guidance = value(word)?.parse()?,
                "--prune" => a.prune = value(word)?.parse()?,
                "--sample" => a.sample = Some(number(word, &value(word)?)?),
                "--verify-pruning" => a.verify_pruning = true,
                "--kill-factor" => a.kill_factor = Some(number(word, &value(word)?)?),
                "--background" => a.background = Some(number(word, &value(word)?)?),
                "--jobs" => a.jobs = Some(number(word, &value(word)?)?),
                "--worker-timeout" => a.worker_timeout = Some(number(word, &value(word)?)?),
                "--hints" => a.hints = Some(value(word)?.into()),
                "--dictionary" => a.dictionary = Some(probability(word, &value(word)?)?),
                "--compare" => a.compare = Some(probability(word, &value(word)?)?),
                "--target-types" => a.target_types = true,
                flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
                _ => a.positional.push(word.clone()),
            }
        }
        Ok(a)
    }

    fn need<'a>(&self, value: &'a Option<PathBuf>, flag: &str) -> Result<&'a Path, String> {
        value.as_deref().ok_or_else(|| format!("`{}` needs {flag}", self.command))
    }
}

fn number<N: std::str::FromStr>(flag: &str, text: &str) -> Result<N, String> {
    text.parse().map_err(|_| format!("{flag} takes a number, not {text:?}"))
}

fn probability(flag: &str, text: &str) -> Result<f64, String> {
    let p: f64 = number(flag, text)?;
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(format!("{flag} takes a probability from 0 to 1, not {text}"))
    }
}

/// Dictionary probability when `--dictionary` is not given: on by default.
pub const DICTIONARY_CHANCE: f64 = 0.1;
/// Comparison-feedback probability when `--compare` is not given.
pub const COMPARE_CHANCE: f64 = 0.2;

/// The input strategies the static pass's hints allow: the dictionary for generators
/// (in `config`) and the informed edit. Without a hints file, plain havoc.
fn strategies(args: &Args, config: &mut Config) -> Result<Informed, String> {
    let compare = args.compare.unwrap_or(COMPARE_CHANCE);
    let mut edit = Informed::new().with_compare(compare);
    let Some(path) = &args.hints else { return Ok(edit) };
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let hints: Hints = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} is not a valid hints file ({e}); run `cargo mutfuzz fuzz` again to rewrite it",
            path.display()
        )
    })?;
    let chance = args.dictionary.unwrap_or(DICTIONARY_CHANCE);
    let lit = &hints.literals;
    let mut strings = lit.strings.clone();
    strings.extend(lit.bytes.iter().filter_map(|b| String::from_utf8(b.clone()).ok()));
    strings.retain(|s| !s.is_empty());
    strings.dedup();
    let dictionary = Arc::new(Dictionary::new(strings, lit.chars.clone(), lit.ints.clone(), chance));
    if chance > 0.0 && !dictionary.is_empty() {
        config.dictionary = Some(dictionary.clone());
        edit = edit.with_dictionary(DictionaryEdit::new(dictionary), chance);
    }
    if args.target_types {
        edit = edit.with_targets(TypeTargets::new(&hints));
    }
    Ok(edit)
}

fn oracle_for<O: Debug + 'static>(compare: Option<fn(&O, &O) -> bool>) -> Box<dyn Oracle<O>> {
    match compare {
        Some(c) => Box::new(Compare(c)),
        None => Box::new(DebugHash),
    }
}

fn dispatch<T: Gen + Debug + 'static, O: Debug + 'static>(
    args: &Args,
    target: fn(T) -> O,
    compare: Option<fn(&O, &O) -> bool>,
) -> Result<i32, String> {
    match args.command.as_str() {
        "fuzz" => fuzz(args, target, compare),
        "score" => score_corpus(args, target, compare),
        "run" => run_one(args, target),
        "worker" => Ok(crate::workers::serve(Box::new(target), oracle_for(compare), Limits::default())),
        other => Err(format!("unknown command {other:?}: use list, fuzz, score, run or worker")),
    }
}

/// One protocol line on stdout, flushed at once: the supervisor must see it even if the
/// next run takes the process down. `trial` and `mutant` lines allocate nothing.
fn protocol(line: Line<'_>) {
    let mut out = std::io::stdout().lock();
    let written = writeln!(out, "{line}").and_then(|()| out.flush());
    if written.is_err() {
        // The supervisor is gone (killed, even with SIGKILL): stop rather than go on
        // fuzzing where nobody watches. Everything found is already on disk.
        std::process::exit(EXIT_ERROR);
    }
}

fn report(stats: Stats, elapsed: Duration) -> Report {
    Report { elapsed: elapsed.as_secs_f64(), stats }
}

fn fuzz<T: Gen + Debug + 'static, O: Debug + 'static>(
    args: &Args,
    target: fn(T) -> O,
    compare: Option<fn(&O, &O) -> bool>,
) -> Result<i32, String> {
    let state = args.need(&args.state, "--state DIR")?.to_path_buf();
    let corpus = args.need(&args.corpus, "--corpus DIR")?.to_path_buf();
    let mutants = MutantInfo::load(args.need(&args.mutants, "--mutants FILE")?).map_err(|e| e.to_string())?;
    let config = Config {
        seed: args.seed,
        guidance: args.guidance,
        prune: args.prune,
        sample: args.sample,
        verify_pruning: args.verify_pruning,
        kill_factor: args.kill_factor.unwrap_or(crate::guidance::KILL_FACTOR),
        background: args.background,
        // A tuning knob (and what tests use to force parallel runs on small targets).
        parallel_min_work: std::env::var("MUTFUZZ_PARALLEL_MIN_WORK")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(crate::campaign::PARALLEL_MIN_WORK),
        dir: Some(state.clone()),
        corpus_dir: Some(corpus),
        ..Config::default()
    };
    let mut config = config;
    let edit = strategies(args, &mut config)?;
    let mut campaign = Campaign::new(config, mutants, target)
        .map_err(|e| e.to_string())?
        .with_oracle(oracle_for(compare))
        .with_edit(Box::new(edit))
        .with_events(|e| match e {
            Event::Trial(bytes) => protocol(Line::Trial(Cow::Borrowed(bytes))),
            Event::Mutant(id) => protocol(Line::Mutant(id)),
        });
    if let Some(jobs) = args.jobs.filter(|&j| j > 1) {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find the harness executable: {e}"))?;
        let target = args.target.clone();
        let hang = Duration::from_secs_f64(args.worker_timeout.unwrap_or(10.0).max(0.1));
        let workers = Workers::spawn(
            jobs - 1,
            move || {
                let mut c = std::process::Command::new(&exe);
                c.args(["worker", &target]);
                c
            },
            hang,
        )
        .map_err(|e| format!("cannot start mutant worker processes: {e}"))?;
        campaign = campaign.with_workers(workers);
    }
    campaign.resume_from_dir().map_err(|e| e.to_string())?;

    let csv_path = CampaignDir::new(&state).stats_csv();
    let mut csv = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&csv_path)
        .map_err(|e| format!("cannot write {}: {e}", csv_path.display()))?;
    if csv.metadata().map(|m| m.len() == 0).unwrap_or(false) {
        let _ = csv.write_all(Stats::CSV_HEADER.as_bytes());
    }
    let start = Instant::now();
    let deadline = args.time.map(|t| start + Duration::from_secs_f64(t.max(0.0)));
    let mut last_report = start;
    loop {
        let stats = campaign.stats();
        let trials_left = args.trials.map(|n| n.saturating_sub(stats.trials));
        if trials_left == Some(0) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        // Small slices keep the stats line and the stop conditions timely.
        let step = trials_left.unwrap_or(u64::MAX).min(16);
        if let Err(e) = campaign.run_trials(step) {
            eprintln!("error: {e}");
            return Ok(EXIT_ERROR);
        }
        if last_report.elapsed() >= Duration::from_secs(1) {
            last_report = Instant::now();
            let s = campaign.stats();
            protocol(Line::Stats(report(s, start.elapsed())));
            let _ = csv.write_all(s.csv_row(start.elapsed().as_secs_f64()).as_bytes());
        }
    }
    protocol(Line::Done(report(campaign.stats(), start.elapsed())));
    Ok(0)
}

fn score_corpus<T: Gen + Debug + 'static, O: Debug + 'static>(
    args: &Args,
    target: fn(T) -> O,
    compare: Option<fn(&O, &O) -> bool>,
) -> Result<i32, String> {
    let corpus = args.need(&args.corpus, "--corpus DIR")?;
    let out = args.need(&args.out, "--out FILE")?;
    let mutants = MutantInfo::load(args.need(&args.mutants, "--mutants FILE")?).map_err(|e| e.to_string())?;
    let mut inputs = Vec::new();
    if corpus.is_dir() {
        let entries =
            std::fs::read_dir(corpus).map_err(|e| format!("cannot read {}: {e}", corpus.display()))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || !entry.path().is_file() {
                continue;
            }
            let bytes = std::fs::read(entry.path())
                .map_err(|e| format!("cannot read {}: {e}", entry.path().display()))?;
            inputs.push((name, bytes));
        }
    }
    inputs.sort();
    // Mutants already decided by an earlier (interrupted) run are kept. Opening the
    // writer first cuts off a line a killed run left incomplete.
    let (mut file, _) = JsonlWriter::open(out).map_err(|e| e.to_string())?;
    let done: HashSet<u32> =
        read_jsonl::<ScoreLine>(out).map_err(|e| e.to_string())?.records.iter().map(|l| l.mutant).collect();
    let mut write_error = None;
    let oracle = oracle_for(compare);
    score(
        target,
        &*oracle,
        &mutants,
        &inputs,
        &done,
        Limits::default(),
        SCORE_BUDGET,
        |line| {
            if let Err(e) = file.append(line) {
                write_error.get_or_insert(e);
            }
        },
        |e| match e {
            ScoreEvent::Input(name) => protocol(Line::Input(Cow::Borrowed(name))),
            ScoreEvent::Mutant(id) => protocol(Line::Mutant(id)),
        },
    );
    match write_error {
        Some(e) => Err(e.to_string()),
        None => Ok(0),
    }
}

fn run_one<T: Gen + Debug + 'static, O: Debug + 'static>(
    args: &Args,
    target: fn(T) -> O,
) -> Result<i32, String> {
    let Some(file) = args.positional.first() else {
        return Err("`run` needs the input file: run <target> FILE".to_owned());
    };
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read input {file}: {e}"))?;
    let value: T = Source::new(bytes, Rng::new(0)).with_limits(Limits::default()).draw();
    println!("input: {value:#?}");
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| target(value))) {
        Ok(output) => {
            println!("output: {output:#?}");
            Ok(0)
        }
        // The panic hook has printed the message and location.
        Err(_) => Ok(101),
    }
}

/// Declare a harness's targets and generate its `main`.
///
/// Each target is a function taking one generated value (any [`Gen`](crate::Gen) +
/// `Debug` type, so failing inputs can be shown) and returning an output that implements `Debug` (or `()` for panic-only checking);
/// `name(compare = path)` judges its outputs with `fn(&O, &O) -> bool` instead.
#[macro_export]
macro_rules! targets {
    ($($name:ident $(( compare = $cmp:path ))?),+ $(,)?) => {
        fn main() {
            let mut registry = $crate::harness::Registry::new();
            $( $crate::__mutfuzz_add_target!(registry, $name $(, $cmp)?); )+
            registry.main()
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __mutfuzz_add_target {
    ($registry:ident, $name:ident) => {
        $registry.add(stringify!($name), $name as fn(_) -> _)
    };
    ($registry:ident, $name:ident, $cmp:path) => {
        $registry.add_with_compare(stringify!($name), $name as fn(_) -> _, $cmp)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double(x: u8) -> u16 {
        u16::from(x) * 2
    }

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn arguments_parse_and_bad_ones_are_explained() {
        let a =
            Args::parse("fuzz", &argv(&["--seed", "7", "--trials", "10", "--guidance", "coverage"])).unwrap();
        assert_eq!((a.seed, a.trials, a.guidance), (7, Some(10), GuidanceKind::Coverage));
        assert_eq!(Args::parse("fuzz", &argv(&["--seed"])).unwrap_err(), "--seed needs a value");
        assert_eq!(Args::parse("fuzz", &argv(&["--bogus"])).unwrap_err(), "unknown option --bogus");
        let mut r = Registry::new();
        r.add("double", double);
        assert!(r.run(&argv(&["fuzz", "nope"])).unwrap_err().contains("no target named \"nope\""));
        assert!(r.run(&argv(&["fuzz", "double"])).unwrap_err().contains("needs --state DIR"));
    }
}
