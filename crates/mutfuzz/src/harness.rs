//! The harness binary: its targets ([`targets!`](crate::targets)) and the command line
//! that `cargo mutfuzz` drives (`list`, `fuzz`, `score`, `run`, `outputs`, `values`, `shrink`, `tmin`,
//! `cmin`, …).
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
use std::collections::{BTreeSet, HashSet};
use std::ffi::OsString;
use std::fmt::Debug;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mutfuzz_contract::command::{
    COMPARE_CHANCE, CorpusRequest, DICTIONARY_CHANCE, FuzzRequest, HarnessCommand, InputFormat, ParseError,
    ReplayRequest, RunRequest, ScoreRequest,
};
use mutfuzz_contract::{
    CampaignDir, ContractPanicRecord, EXIT_DRIFT, EXIT_ERROR, EXIT_PANIC, EXIT_SUCCESS, FileError,
    JsonlWriter, Line, NondeterministicRecord, ReplayRecord, Report, ScoreLine, Stats, read_jsonl,
    score_contract_panic_log,
};

use std::sync::Arc;

use mutfuzz_contract::Hints;

use crate::campaign::{Campaign, Event};
use crate::clock::Clock;
use crate::config::CampaignConfig;
use crate::edit::{DictionaryEdit, Informed, TypeTargets};
use crate::r#gen::Gen;
use crate::input::Dictionary;
use crate::input::{Limits, Rng, Source};
use crate::mutants::MutantInfo;
use crate::oracle::{AnyOutput, Compare, DebugHash, Judging, Oracle};
use crate::raw::RawDecoder;
use crate::reflect::Reflector;
use crate::score::{SCORE_BUDGET, ScoreEvent, ScoreHooks, ScoreStop, score};
use crate::workers::Workers;

mod cmin;
mod values;

/// What a target's runner is asked to do.
pub(crate) enum Call<'a> {
    /// One of the commands `cargo mutfuzz` gives (never `list`, which names no target).
    Command(&'a HarnessCommand),
    /// libFuzzer's command line (see [`crate::libfuzzer`]).
    LibFuzzer(&'a [String]),
}

type Runner = Box<dyn Fn(Call<'_>) -> Result<i32, String>>;

/// One registered target: the function, its oracle, its cargo-fuzz decoder and its
/// input's reflection.
struct Target<T, O> {
    target: fn(T) -> O,
    compare: Option<fn(&O, &O) -> bool>,
    raw: Option<RawDecoder<T>>,
    /// The input as data, for `values`, when its type implements [`Reflect`](crate::Reflect).
    reflect: Option<Reflector<T>>,
    /// Generated from the crate's public API ([`generated_targets!`](crate::generated_targets)):
    /// the original's panics are outcomes by contract (unless `--panic-is-failure`), and
    /// nondeterminism leaves panics and runaways to judge by instead of stopping.
    generated: bool,
}

/// The targets of one harness binary; built by [`targets!`](crate::targets).
#[derive(Default)]
pub struct Registry {
    targets: Vec<(&'static str, Runner)>,
    /// Per target, in order: whether it is generated.
    generated: Vec<bool>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Register `target`, judged by equal `Debug` renderings of its outputs. `values`
    /// writes `null` for its inputs' values: a generic function cannot tell whether `T`
    /// is [`Reflect`](crate::Reflect); [`targets!`](crate::targets) can.
    pub fn add<T: Gen + Debug + 'static, O: Debug + 'static>(
        &mut self,
        name: &'static str,
        target: fn(T) -> O,
    ) {
        self.add_target(name, target, None, None, None);
    }

    /// Register `target`, judged by `compare(original, mutant)` (true when they agree).
    pub fn add_with_compare<T: Gen + Debug + 'static, O: Debug + 'static>(
        &mut self,
        name: &'static str,
        target: fn(T) -> O,
        compare: fn(&O, &O) -> bool,
    ) {
        self.add_target(name, target, Some(compare), None, None);
    }

    /// Replay the inputs of a data file written by `cargo mutfuzz export` through
    /// `target`, checking that each ends as recorded (the `Debug` rendering of its output,
    /// or its panic). Returns how many inputs were replayed, or the differences found.
    /// This is what an exported regression test calls.
    pub fn replay(&self, target: &str, data: &Path) -> Result<usize, String> {
        let Some((_, runner)) = self.targets.iter().find(|(n, _)| *n == target) else {
            return Err(format!("the harness has no target named {target:?}"));
        };
        let command =
            HarnessCommand::Replay(ReplayRequest { target: target.to_owned(), file: data.to_owned() });
        runner(Call::Command(&command)).map(|n| n as usize)
    }

    /// Register `target`, judged by `compare` (or equal `Debug` renderings), reading
    /// files in cargo-fuzz's format with `raw` (`--format arbitrary`) when its input
    /// type implements `Arbitrary`, and writing its inputs' value trees with `reflect`
    /// (`values`) when it implements [`Reflect`](crate::Reflect)
    /// ([`targets!`](crate::targets) finds both out).
    pub fn add_target<T: Gen + Debug + 'static, O: Debug + 'static>(
        &mut self,
        name: &'static str,
        target: fn(T) -> O,
        compare: Option<fn(&O, &O) -> bool>,
        raw: Option<RawDecoder<T>>,
        reflect: Option<Reflector<T>>,
    ) {
        self.push(name, Target { target, compare, raw, reflect, generated: false });
    }

    /// Register a target generated from the crate's public API, as
    /// [`add_target`](Registry::add_target) does a hand-written one. Its original may
    /// panic by design on arbitrary arguments: such a panic is the input's outcome (a
    /// mutant is judged by its own panic message), recorded apart in
    /// `contract-panics.jsonl`, not a failure, unless the command has
    /// `--panic-is-failure`. A generated target found nondeterministic is judged by
    /// panics and runaways only from then on, where a hand-written one stops the campaign.
    /// [`generated_targets!`](crate::generated_targets) calls this.
    pub fn add_generated_target<T: Gen + Debug + 'static, O: Debug + 'static>(
        &mut self,
        name: &'static str,
        target: fn(T) -> O,
        compare: Option<fn(&O, &O) -> bool>,
        raw: Option<RawDecoder<T>>,
        reflect: Option<Reflector<T>>,
    ) {
        self.push(name, Target { target, compare, raw, reflect, generated: true });
    }

    fn push<T: Gen + Debug + 'static, O: Debug + 'static>(&mut self, name: &'static str, t: Target<T, O>) {
        self.generated.push(t.generated);
        self.targets.push((name, Box::new(move |call| dispatch(name, call, &t))));
    }

    /// Whether the target `name` was registered as generated (`None`: no such target).
    pub fn is_generated(&self, name: &str) -> Option<bool> {
        self.targets.iter().position(|(n, _)| *n == name).map(|i| self.generated[i])
    }

    /// Run the command line and exit: `cargo mutfuzz`'s commands, or libFuzzer's
    /// command line (see [`crate::libfuzzer`]).
    pub fn main(self) -> ! {
        // ClusterFuzz takes a binary holding this symbol name for a fuzz target.
        std::hint::black_box(&crate::libfuzzer::MARKER);
        let mut all = std::env::args_os();
        let argv0 = all.next().map(|a| a.to_string_lossy().into_owned()).unwrap_or_default();
        let argv: Vec<OsString> = all.collect();
        // libFuzzer's flags are text; our commands' paths need not be.
        let words: Vec<String> = argv.iter().map(|a| a.to_string_lossy().into_owned()).collect();
        let result = match self.libfuzzer_target(&argv0, &words, std::env::var("MUTFUZZ_TARGET").ok()) {
            Some(Ok(target)) => self
                .targets
                .iter()
                .find(|(n, _)| *n == target)
                .map_or(Ok(EXIT_ERROR), |(_, runner)| runner(Call::LibFuzzer(&words))),
            Some(Err(message)) => Err(message),
            None => self.run(argv),
        };
        let code = match result {
            Ok(code) => code,
            Err(message) => {
                eprintln!("error: {message}");
                EXIT_ERROR
            }
        };
        let _ = std::io::stdout().flush();
        std::process::exit(code)
    }

    /// The target a libFuzzer command line runs, when `argv` is one: not one of our
    /// commands, and the binary named after a target (`<target>` or `<target>_fuzzer`),
    /// or `MUTFUZZ_TARGET` set, or libFuzzer flags or paths given to a one-target harness.
    fn libfuzzer_target(
        &self,
        argv0: &str,
        argv: &[String],
        env_target: Option<String>,
    ) -> Option<Result<&'static str, String>> {
        if argv.first().is_some_and(|a| HarnessCommand::NAMES.contains(&a.as_str())) {
            return None;
        }
        let find = |name: &str| self.targets.iter().map(|(n, _)| *n).find(|n| *n == name);
        let file = Path::new(argv0).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if let Some(t) = find(&file).or_else(|| file.strip_suffix("_fuzzer").and_then(find)) {
            return Some(Ok(t));
        }
        if let Some(name) = env_target {
            return Some(find(&name).ok_or_else(|| {
                let names: Vec<&str> = self.targets.iter().map(|(n, _)| *n).collect();
                format!("MUTFUZZ_TARGET={name:?} is not a target; targets: {}", names.join(", "))
            }));
        }
        let libfuzzer_like = argv.first().is_some_and(|a| a.starts_with('-') || Path::new(a).exists());
        match &self.targets[..] {
            _ if !libfuzzer_like => None,
            [(only, _)] => Some(Ok(*only)),
            many => {
                let names: Vec<&str> = many.iter().map(|(n, _)| *n).collect();
                Some(Err(format!(
                    "a libFuzzer command line runs one target: name the binary after it (<target> or \
                     <target>_fuzzer) or set MUTFUZZ_TARGET; targets: {}",
                    names.join(", ")
                )))
            }
        }
    }

    /// Run one command line (without the program name); returns the exit code.
    pub fn run<I, A>(&self, argv: I) -> Result<i32, String>
    where
        I: IntoIterator<Item = A>,
        A: Into<OsString>,
    {
        let usage = || {
            let names: Vec<&str> = self.targets.iter().map(|(n, _)| *n).collect();
            format!("usage: <harness> {}; targets: {}", HarnessCommand::usage(), names.join(", "))
        };
        let command = HarnessCommand::parse(argv).map_err(|e| match e {
            ParseError::NoCommand | ParseError::UnknownCommand(_) => format!("{e}\n{}", usage()),
            e => e.to_string(),
        })?;
        // Every command but `list` names its target.
        let Some(target) = command.target() else {
            for (name, _) in &self.targets {
                println!("{name}");
            }
            return Ok(EXIT_SUCCESS);
        };
        let Some((_, runner)) = self.targets.iter().find(|(n, _)| *n == target) else {
            return Err(format!("no target named {target:?}; {}", usage()));
        };
        let code = runner(Call::Command(&command))?;
        // `replay` answers how many inputs it replayed (for [`Registry::replay`]); as a
        // process, it succeeded.
        Ok(if matches!(command, HarnessCommand::Replay(_)) { EXIT_SUCCESS } else { code })
    }
}

/// The mutant ids of a `--mutants-file`: one a line; blank lines and lines starting with
/// `#` are skipped, and a line's first word is the id (so `ID description` lines work).
pub fn read_mutants_file(path: &Path) -> Result<BTreeSet<u32>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut ids = BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        let Some(word) = line.split_whitespace().next().filter(|w| !w.starts_with('#')) else { continue };
        let id = word.parse::<u32>().ok().filter(|&id| id > 0).ok_or_else(|| {
            format!("{}:{}: {word:?} is not a mutant id (one id a line)", path.display(), n + 1)
        })?;
        ids.insert(id);
    }
    if ids.is_empty() {
        return Err(format!("{} lists no mutant id", path.display()));
    }
    Ok(ids)
}

/// The targets `--mutants-file` names, if given: says on stderr how many of them the
/// catalog does not have (unviable, or cut by `--shard`), which never run.
fn targets(
    mutants_file: Option<&Path>,
    catalog: &[MutantInfo],
) -> Result<Option<Arc<BTreeSet<u32>>>, String> {
    let Some(path) = mutants_file else { return Ok(None) };
    let ids = read_mutants_file(path)?;
    let known: HashSet<u32> = catalog.iter().map(|m| m.id).collect();
    let missing: Vec<String> = ids.iter().filter(|id| !known.contains(id)).map(u32::to_string).collect();
    if !missing.is_empty() {
        eprintln!(
            "warning: {} of the {} mutants in {} are not in the catalog and never run: {}",
            missing.len(),
            ids.len(),
            path.display(),
            missing.join(", ")
        );
    }
    Ok(Some(Arc::new(ids)))
}

/// The input strategies the static pass's hints allow: the dictionary for generators
/// (in `config`) and the informed edit. Without a hints file, plain havoc.
fn strategies(r: &FuzzRequest, config: &mut CampaignConfig) -> Result<Informed, String> {
    let compare = r.compare.map_or(COMPARE_CHANCE, |p| p.get());
    let mut edit = Informed::new().with_compare(compare);
    let Some(path) = &r.hints else { return Ok(edit) };
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let hints: Hints = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} is not a valid hints file ({e}); run `cargo mutfuzz fuzz` again to rewrite it",
            path.display()
        )
    })?;
    let chance = r.dictionary.map_or(DICTIONARY_CHANCE, |p| p.get());
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
    if r.target_types {
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
    name: &str,
    call: Call<'_>,
    t: &Target<T, O>,
) -> Result<i32, String> {
    let (target, compare) = (t.target, t.compare);
    // Read once per command, never per trial.
    let judging = |panic_is_failure: bool| Judging {
        panics_by_contract: t.generated && !panic_is_failure,
        generated: t.generated,
    };
    let command = match call {
        Call::LibFuzzer(argv) => return crate::libfuzzer::run(name, argv, target, || oracle_for(compare)),
        Call::Command(command) => command,
    };
    match command {
        HarnessCommand::List => Err("`list` runs no target".to_owned()),
        HarnessCommand::Fuzz(r) => fuzz(r, target, compare, judging(r.panic_is_failure)),
        HarnessCommand::Score(r) => score_corpus(
            r,
            target,
            compare,
            raw_decoder(&r.target, r.format, t)?,
            judging(r.panic_is_failure),
        ),
        HarnessCommand::Run(r) => run_one(r, target, raw_decoder(&r.target, r.format, t)?),
        HarnessCommand::Outputs(r) => write_outputs(r, target),
        HarnessCommand::Values(r) => values::write_values(r, target, t.reflect),
        HarnessCommand::Replay(r) => replay(r, target),
        HarnessCommand::Shrink(r) => {
            crate::shrink::command::shrink_kills(r, target, oracle_for(compare), judging(r.panic_is_failure))
        }
        HarnessCommand::Tmin(r) => crate::shrink::command::shrink_failure(r, target),
        HarnessCommand::Cmin(r) => {
            cmin::write_cmin(r, target, oracle_for(compare), judging(r.panic_is_failure))
        }
        HarnessCommand::Worker(_) => {
            Ok(crate::workers::serve(Box::new(target), oracle_for(compare), Limits::default()))
        }
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

/// Ends a campaign that cannot go on in this process: the error on stderr, the counters
/// (no run is under way any more, the supervisor learns), and the exit code: a drift is
/// [`EXIT_DRIFT`] (restart clean), anything else [`EXIT_ERROR`].
fn stop<T: Gen, O: Debug + 'static>(
    campaign: &Campaign<T, O>,
    e: &crate::error::Error,
    clock: &Clock,
) -> i32 {
    eprintln!("error: {e}");
    protocol(Line::Stats(report(campaign.stats(), clock.elapsed())));
    if matches!(e, crate::error::Error::Drift { .. }) { EXIT_DRIFT } else { EXIT_ERROR }
}

fn report(stats: Stats, elapsed: Duration) -> Report {
    Report { elapsed: elapsed.as_secs_f64(), stats }
}

fn fuzz<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &FuzzRequest,
    target: fn(T) -> O,
    compare: Option<fn(&O, &O) -> bool>,
    judging: Judging,
) -> Result<i32, String> {
    let state = r.state.clone();
    let corpus = r.corpus.clone();
    let mutants = MutantInfo::load(&r.mutants).map_err(|e| e.to_string())?;
    let config = CampaignConfig {
        seed: r.seed,
        guidance: r.guidance,
        edit: r.edit,
        schedule: r.schedule,
        prune: r.prune,
        sample: r.sample.map(|k| usize::try_from(k).unwrap_or(usize::MAX)),
        verify_pruning: r.verify_pruning,
        check_drift: !r.no_drift_check,
        resumed: r.resumed,
        kill_factor: r.kill_factor,
        infect_factor: r.infect_factor,
        targets: targets(r.mutants_file.as_deref(), &mutants)?,
        background: r.background,
        isolate: r.isolate,
        // A tuning knob (and what tests use to force parallel runs on small targets).
        parallel_min_work: std::env::var("MUTFUZZ_PARALLEL_MIN_WORK")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(crate::config::PARALLEL_MIN_WORK),
        dir: Some(state.clone()),
        corpus_dir: Some(corpus),
        panics_by_contract: judging.panics_by_contract,
        tolerate_nondeterminism: judging.generated,
        ..CampaignConfig::default()
    };
    let mut config = config;
    let edit = strategies(r, &mut config)?;
    let mut campaign = Campaign::new(config, mutants, target)
        .map_err(|e| e.to_string())?
        .with_oracle(oracle_for(compare))
        .with_edit(Box::new(edit))
        .with_events({
            let target = r.target.clone();
            move |e| match e {
                Event::Trial(bytes) => protocol(Line::Trial(Cow::Borrowed(bytes))),
                Event::Mutant(id) => protocol(Line::Mutant(id)),
                Event::Nondeterministic(record) => protocol(Line::Note(Cow::Owned(record.describe(&target)))),
            }
        });
    let jobs = usize::try_from(r.jobs.unwrap_or(1)).unwrap_or(usize::MAX);
    // One worker, a sentry for the isolated runs, when there are no workers to share the
    // runs: not for a guidance that runs no mutants, nor for a background mutant.
    let sentry = jobs <= 1
        && r.isolate != crate::Isolate::None
        && r.background.is_none()
        && crate::guidance::build(r.guidance, None, None).runs_mutants();
    if jobs > 1 || sentry {
        let workers = Workers::of_harness(jobs.max(2) - 1, &r.target, &r.workers)?
            // Waiting for a worker, this process prints nothing else: say it is alive.
            .with_heartbeat(|| protocol(Line::Alive));
        campaign = if sentry { campaign.with_sentry(workers) } else { campaign.with_workers(workers) };
    }
    campaign.resume_from_dir().map_err(|e| e.to_string())?;
    if campaign.judges_any_output() {
        // Found by an earlier process: said again, the supervisor shows it once per command.
        let path = CampaignDir::new(&state).nondeterministic();
        if let Ok(Some(record)) = NondeterministicRecord::read(&path) {
            protocol(Line::Note(Cow::Owned(record.describe(&r.target))));
        }
    }
    let clock = Clock::start(r.cpu_time);
    // A drift found by the process before: find its cause here, in a clean process.
    if let Err(e) = campaign.settle_drift() {
        return Ok(stop(&campaign, &e, &clock));
    }

    let csv_path = CampaignDir::new(&state).stats_csv();
    let mut csv = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&csv_path)
        .map_err(|e| format!("cannot write {}: {e}", csv_path.display()))?;
    if csv.metadata().map(|m| m.len() == 0).unwrap_or(false) {
        let _ = csv.write_all(Stats::CSV_HEADER.as_bytes());
    }
    let budget = r.time.map(|t| Duration::from_secs_f64(t.max(0.0)));
    let mut last_report = Instant::now();
    loop {
        let stats = campaign.stats();
        let trials_left = r.trials.map(|n| n.saturating_sub(stats.trials));
        if trials_left == Some(0) || budget.is_some_and(|b| clock.elapsed() >= b) {
            break;
        }
        // Small slices keep the stats line and the stop conditions timely.
        let step = trials_left.unwrap_or(u64::MAX).min(16);
        if let Err(e) = campaign.run_trials(step) {
            return Ok(stop(&campaign, &e, &clock));
        }
        if last_report.elapsed() >= Duration::from_secs(1) {
            last_report = Instant::now();
            let s = campaign.stats();
            let elapsed = clock.elapsed();
            protocol(Line::Stats(report(s, elapsed)));
            let _ = csv.write_all(s.csv_row(elapsed.as_secs_f64()).as_bytes());
        }
    }
    // The last counters always make a row: a short campaign has one at least.
    let _ = csv.write_all(campaign.stats().csv_row(clock.elapsed().as_secs_f64()).as_bytes());
    protocol(Line::Done(report(campaign.stats(), clock.elapsed())));
    Ok(EXIT_SUCCESS)
}

/// The decoder `--format` asks for: none for choice sequences, cargo-fuzz's for
/// `arbitrary` (an error when the target's input type is not `Arbitrary`).
fn raw_decoder<T: 'static, O>(
    name: &str,
    format: InputFormat,
    t: &Target<T, O>,
) -> Result<Option<RawDecoder<T>>, String> {
    if format != InputFormat::Arbitrary {
        return Ok(None);
    }
    match t.raw {
        Some(decode) => Ok(Some(decode)),
        None => Err(format!(
            "the input type of target {:?}, `{}`, does not implement `arbitrary::Arbitrary`, so files in \
             cargo-fuzz's format cannot be decoded for it; give the target a type that implements \
             both `Gen` and `Arbitrary` (the type of the cargo-fuzz target, or `mutfuzz::Arb<T>`)",
            name,
            std::any::type_name::<T>()
        )),
    }
}

fn score_corpus<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &ScoreRequest,
    target: fn(T) -> O,
    compare: Option<fn(&O, &O) -> bool>,
    raw: Option<RawDecoder<T>>,
    judging: Judging,
) -> Result<i32, String> {
    let (corpus, out) = (r.corpus.as_path(), r.out.as_path());
    let mut mutants = MutantInfo::load(&r.mutants).map_err(|e| e.to_string())?;
    if let Some(targets) = targets(r.mutants_file.as_deref(), &mutants)? {
        // The others get no line: neither run nor counted.
        mutants.retain(|m| targets.contains(&m.id));
    }
    let mut inputs = read_corpus(corpus)?;
    if let Some(decode) = raw {
        // As cargo-fuzz's `fuzz_target!` does, the target never sees a rejected file.
        let before = inputs.len();
        inputs.retain(|(_, bytes)| decode(bytes).is_some());
        if inputs.len() < before {
            eprintln!(
                "{} of {before} files left out: `Arbitrary` rejects them (shorter than the type's \
                 size hint, or refused), so cargo-fuzz's target never runs on them",
                before - inputs.len()
            );
        }
    }
    // Mutants already decided by an earlier (interrupted) run are kept. Opening the
    // writer first cuts off a line a killed run left incomplete.
    let (mut file, _) = JsonlWriter::open(out).map_err(|e| e.to_string())?;
    let done: HashSet<u32> =
        read_jsonl::<ScoreLine>(out).map_err(|e| e.to_string())?.records.iter().map(|l| l.mutant).collect();
    let mut write_error = None;
    let mut oracle = oracle_for(compare);
    let drift = drift_path(out);
    // A generated target found nondeterministic (by `fuzz`, or a score before) keeps
    // being judged by panics and runaways only.
    let nondeterministic_file = r.state.as_ref().map(|s| CampaignDir::new(s).nondeterministic());
    if judging.generated
        && let Some(path) = &nondeterministic_file
        && let Some(record) = NondeterministicRecord::read(path).map_err(|e| e.to_string())?
    {
        protocol(Line::Note(Cow::Owned(record.describe(&r.target))));
        oracle = Box::new(AnyOutput);
    }
    let mut found_nondeterministic = |record: &NondeterministicRecord| {
        protocol(Line::Note(Cow::Owned(record.describe(&r.target))));
        if let Some(path) = &nondeterministic_file {
            // Not saved, the next score judges strictly again and stops at once: say why.
            if let Err(e) = record.write(path) {
                eprintln!("warning: {e}");
            }
        }
    };
    // Panics by contract: one record per message (those of a run before this restart
    // kept), and every input counted in the `done` line.
    let mut contract = ContractPanics::open(&score_contract_panic_log(out))?;
    let mut original_panic = |name: &str, message: &str, location: Option<&str>| {
        if let Err(e) = contract.add(name, message, location) {
            write_error.get_or_insert(e);
        }
    };
    let hooks = ScoreHooks {
        original_panic: if judging.panics_by_contract { Some(&mut original_panic) } else { None },
        nondeterministic: if judging.generated { Some(&mut found_nondeterministic) } else { None },
    };
    let mut line_error = None;
    let scored = score(
        hooks,
        target,
        &*oracle,
        &mutants,
        &inputs,
        &done,
        Limits::default(),
        SCORE_BUDGET,
        Some(&drift),
        raw,
        |line| {
            if let Err(e) = file.append(line) {
                line_error.get_or_insert(e);
            }
        },
        |e| match e {
            ScoreEvent::Input(name) => protocol(Line::Input(Cow::Borrowed(name))),
            ScoreEvent::Mutant(id) => protocol(Line::Mutant(id)),
        },
    );
    if let Some(e) = line_error.or(write_error) {
        return Err(e.to_string());
    }
    match scored {
        Ok(()) => {
            // The end, said: exit code 0 alone could be a mutant's `process::exit(0)`.
            let stats = Stats { contract_panics: contract.inputs, ..Stats::default() };
            protocol(Line::Done(report(stats, Duration::ZERO)));
            Ok(EXIT_SUCCESS)
        }
        Err(ScoreStop::Drift(drifted)) => {
            eprintln!("error: {drifted}");
            // Nothing runs any more: the supervisor restarts a clean process, blaming nothing.
            protocol(Line::Stats(report(Stats::default(), Duration::ZERO)));
            Ok(EXIT_DRIFT)
        }
        Err(ScoreStop::Error(e)) => {
            protocol(Line::Stats(report(Stats::default(), Duration::ZERO)));
            Err(e)
        }
    }
}

/// The panics by contract of a score: `score.jsonl.contract-panics.jsonl`, one record per
/// distinct message, and the inputs counted.
struct ContractPanics {
    path: PathBuf,
    writer: Option<JsonlWriter>,
    messages: HashSet<String>,
    inputs: u64,
}

impl ContractPanics {
    fn open(path: &Path) -> Result<ContractPanics, String> {
        let records = read_jsonl::<ContractPanicRecord>(path).map_err(|e| e.to_string())?;
        let messages = records.records.into_iter().map(|r| r.message).collect();
        Ok(ContractPanics { path: path.to_owned(), writer: None, messages, inputs: 0 })
    }

    fn add(&mut self, name: &str, message: &str, location: Option<&str>) -> Result<(), FileError> {
        self.inputs += 1;
        if self.messages.contains(message) {
            return Ok(());
        }
        let writer = match &mut self.writer {
            Some(w) => w,
            slot => slot.insert(JsonlWriter::open(&self.path)?.0),
        };
        let record = ContractPanicRecord {
            input: name.to_owned(),
            message: message.to_owned(),
            location: location.map(str::to_owned),
        };
        writer.append(&record)?;
        self.messages.insert(message.to_owned());
        Ok(())
    }
}

/// Where `score` keeps a pending drift: beside its output, `<out>.drift.json`.
fn drift_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".drift.json");
    out.with_file_name(name)
}

fn run_one<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &RunRequest,
    target: fn(T) -> O,
    raw: Option<RawDecoder<T>>,
) -> Result<i32, String> {
    let file = r.file.display();
    let bytes = std::fs::read(&r.file).map_err(|e| format!("cannot read input {file}: {e}"))?;
    let value: T = match raw {
        Some(decode) => match decode(&bytes) {
            Some(value) => value,
            None => {
                println!("input: rejected by `Arbitrary`: cargo-fuzz's target does not run on it");
                return Ok(EXIT_SUCCESS);
            }
        },
        None => Source::new(bytes, Rng::new(0)).with_limits(Limits::default()).draw(),
    };
    println!("input: {value:#?}");
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| target(value))) {
        Ok(output) => {
            println!("output: {output:#?}");
            Ok(EXIT_SUCCESS)
        }
        // The panic hook has printed the message and location.
        Err(_) => Ok(EXIT_PANIC),
    }
}

/// The stored inputs of `corpus` (name, bytes), in name order; a missing directory holds none.
fn read_corpus(corpus: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    // A damaged or unreadable file is skipped (the CLI warned about it), never fatal.
    let read = mutfuzz_contract::read_corpus(corpus).map_err(|e| e.to_string())?;
    for skipped in &read.skipped {
        eprintln!("warning: {skipped}");
    }
    Ok(read.inputs)
}

/// How the target ends on the value `bytes` generate, as an exported test records it:
/// the output's `Debug` rendering, `panic: <message>`, or `discarded`. Whatever mutant
/// the process runs stays active (a test process of `cargo mutfuzz test`).
fn ending<T: Gen, O: Debug>(target: fn(T) -> O, bytes: &[u8]) -> String {
    ending_on(target, value_of(bytes))
}

/// The value `bytes` generate, as the commands replaying stored inputs draw it.
fn value_of<T: Gen>(bytes: &[u8]) -> T {
    Source::new(bytes.to_vec(), Rng::new(0)).with_limits(Limits::default()).draw()
}

/// How the target ends on `value` (see [`ending`]).
fn ending_on<T, O: Debug>(target: fn(T) -> O, value: T) -> String {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| target(value))) {
        Ok(output) => format!("{output:?}"),
        Err(p) if p.is::<crate::panics::Discard>() => "discarded".to_owned(),
        Err(p) => format!("panic: {}", crate::panics::payload_message(&*p)),
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// `outputs <target> --corpus DIR --out FILE`: the original's ending on every stored
/// input, one [`ReplayRecord`] per line (what `cargo mutfuzz export` writes).
fn write_outputs<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &CorpusRequest,
    target: fn(T) -> O,
) -> Result<i32, String> {
    let mut text = String::new();
    for (name, bytes) in read_corpus(&r.corpus)? {
        let record = ReplayRecord { output: ending(target, &bytes), bytes: hex(&bytes), input: name };
        text.push_str(&serde_json::to_string(&record).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    mutfuzz_contract::write_atomic(&r.out, text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(EXIT_SUCCESS)
}

/// The most differences a replay lists before it stops: a mutant that breaks every
/// input is told apart quickly, and the message stays readable.
const MAX_DIFFERENCES: usize = 5;

/// `replay <target> FILE`: every input of the data file ends as recorded; the number of
/// inputs replayed, or the differences.
fn replay<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &ReplayRequest,
    target: fn(T) -> O,
) -> Result<i32, String> {
    let file = r.file.display();
    let records = read_jsonl::<ReplayRecord>(&r.file).map_err(|e| e.to_string())?;
    if let Some(torn) = records.torn {
        return Err(torn.to_string());
    }
    let mut differences = Vec::new();
    for r in &records.records {
        let bytes = mutfuzz_contract::protocol::decode_hex(&r.bytes).unwrap_or_default();
        let now = ending(target, &bytes);
        if now != r.output {
            differences.push(format!("input {}:\n  recorded: {}\n  now:      {now}", r.input, r.output));
            if differences.len() == MAX_DIFFERENCES {
                break;
            }
        }
    }
    if differences.is_empty() {
        Ok(records.records.len() as i32)
    } else {
        Err(format!(
            "{} of {} replayed inputs of {file} no longer end as recorded{}:\n{}",
            differences.len(),
            records.records.len(),
            if differences.len() == MAX_DIFFERENCES { " (the first ones)" } else { "" },
            differences.join("\n")
        ))
    }
}

/// Declare a harness's targets and generate its `main`.
///
/// Each target is a function taking one generated value (any [`Gen`](crate::Gen) +
/// `Debug` type, so failing inputs can be shown) and returning an output that implements `Debug` (or `()` for panic-only checking);
/// `name(compare = path)` judges its outputs with `fn(&O, &O) -> bool` instead.
/// Whether the input type implements `arbitrary::Arbitrary` (cargo-fuzz's files, see
/// [`raw`](crate::raw)) and [`Reflect`](crate::Reflect) (value trees for `values`) is
/// found here, with the concrete type in hand; a type implementing neither still works.
///
/// ```
/// use mutfuzz::Gen;
///
/// #[derive(Debug, Gen)]
/// struct Order {
///     #[mutfuzz(range = 1..=100)]
///     quantity: u32,
///     express: Option<bool>,
/// }
///
/// fn price(order: Order) -> u64 {
///     mutfuzz::assume(order.quantity < 50); // discard inputs the target does not accept
///     u64::from(order.quantity) * if order.express == Some(true) { 3 } else { 2 }
/// }
///
/// // Compared by a function of the outputs instead of their `Debug` text.
/// fn close(a: &f64, b: &f64) -> bool {
///     (a - b).abs() < 1e-9
/// }
/// fn mean(v: Vec<u8>) -> f64 {
///     v.iter().map(|&b| f64::from(b)).sum::<f64>() / (v.len() as f64).max(1.0)
/// }
///
/// mutfuzz::targets!(price, mean(compare = close));
///
/// // `main` runs the harness's command line for `cargo mutfuzz`; the registry behind it:
/// let registry = mutfuzz_targets();
/// assert_eq!(registry.is_generated("price"), Some(false));
/// assert_eq!(registry.is_generated("missing"), None);
/// ```
///
/// A leading `generated = module` registers the targets that `module` declares with
/// [`generated_targets!`](crate::generated_targets) (the module `cargo mutfuzz init --auto`
/// writes from the crate's public API), then the hand-written ones that follow, if any:
///
/// ```no_run
/// mod auto {
///     pub fn reverse(v: Vec<u8>) -> Vec<u8> {
///         v.into_iter().rev().collect()
///     }
///     mutfuzz::generated_targets!(reverse);
/// }
///
/// fn mine(x: u32) -> u64 {
///     u64::from(x) * 3
/// }
///
/// mutfuzz::targets!(generated = auto, mine);
/// ```
///
/// Besides `main`, it defines `mutfuzz_targets()`, the [`Registry`], through which the
/// regression tests that `cargo mutfuzz export` writes replay inputs.
#[macro_export]
macro_rules! targets {
    (generated = $module:ident $(, $name:ident $(( compare = $cmp:path ))?)* $(,)?) => {
        /// The targets of this harness.
        #[allow(dead_code)]
        pub(crate) fn mutfuzz_targets() -> $crate::harness::Registry {
            let mut registry = $crate::harness::Registry::new();
            $module::add_targets(&mut registry);
            $( $crate::__mutfuzz_add_target!(registry, $name $(, $cmp)?); )*
            registry
        }

        fn main() {
            mutfuzz_targets().main()
        }
    };
    ($($name:ident $(( compare = $cmp:path ))?),+ $(,)?) => {
        /// The targets of this harness.
        #[allow(dead_code)]
        pub(crate) fn mutfuzz_targets() -> $crate::harness::Registry {
            let mut registry = $crate::harness::Registry::new();
            $( $crate::__mutfuzz_add_target!(registry, $name $(, $cmp)?); )+
            registry
        }

        fn main() {
            mutfuzz_targets().main()
        }
    };
}

/// Declare the targets generated from a crate's public API, in the module that
/// `cargo mutfuzz init --auto` writes; [`targets!`](crate::targets)`(generated = module)`
/// registers them.
///
/// The syntax is [`targets!`](crate::targets)'s (`name`, `name(compare = path)`); it
/// defines `pub fn add_targets(registry: &mut mutfuzz::harness::Registry)`, which
/// registers each as a generated target ([`Registry::add_generated_target`]): the
/// original's panic on an input is that input's outcome by contract, not a failure
/// (`--panic-is-failure` restores the strict rule), and a target whose original
/// disagrees with itself is judged by panics and runaways only instead of stopping the
/// campaign. Wrap an output holding hash maps or sets in [`SortedDebug`](crate::SortedDebug).
///
/// ```
/// mod auto {
///     use std::collections::HashMap;
///
///     pub fn checked_div((a, b): (i32, i32)) -> i32 {
///         a / b // panics on b == 0: by contract
///     }
///     pub fn counts(text: String) -> mutfuzz::SortedDebug<HashMap<char, usize>> {
///         let mut m = HashMap::new();
///         for c in text.chars() {
///             *m.entry(c).or_insert(0) += 1;
///         }
///         mutfuzz::SortedDebug(m)
///     }
///     fn same(a: &i32, b: &i32) -> bool {
///         a == b
///     }
///     mutfuzz::generated_targets!(checked_div(compare = same), counts);
/// }
///
/// let mut registry = mutfuzz::harness::Registry::new();
/// auto::add_targets(&mut registry);
/// assert_eq!(registry.is_generated("counts"), Some(true));
/// ```
#[macro_export]
macro_rules! generated_targets {
    ($($name:ident $(( compare = $cmp:path ))?),* $(,)?) => {
        /// Registers this module's generated targets.
        #[allow(unused_variables)]
        pub fn add_targets(registry: &mut $crate::harness::Registry) {
            $( $crate::__mutfuzz_add_target!(@generated registry, $name $(, $cmp)?); )*
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __mutfuzz_add_target {
    ($registry:ident, $name:ident) => {
        $registry.add_target(
            stringify!($name),
            $name as fn(_) -> _,
            None,
            $crate::__mutfuzz_raw_decoder!($name),
            $crate::__mutfuzz_reflector!($name),
        )
    };
    ($registry:ident, $name:ident, $cmp:path) => {
        $registry.add_target(
            stringify!($name),
            $name as fn(_) -> _,
            Some($cmp),
            $crate::__mutfuzz_raw_decoder!($name),
            $crate::__mutfuzz_reflector!($name),
        )
    };
    (@generated $registry:ident, $name:ident) => {
        $registry.add_generated_target(
            stringify!($name),
            $name as fn(_) -> _,
            None,
            $crate::__mutfuzz_raw_decoder!($name),
            $crate::__mutfuzz_reflector!($name),
        )
    };
    (@generated $registry:ident, $name:ident, $cmp:path) => {
        $registry.add_generated_target(
            stringify!($name),
            $name as fn(_) -> _,
            Some($cmp),
            $crate::__mutfuzz_raw_decoder!($name),
            $crate::__mutfuzz_reflector!($name),
        )
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
    fn bad_command_lines_and_unknown_targets_are_explained() {
        let mut r = Registry::new();
        r.add("double", double);
        assert!(r.run(argv(&["worker", "nope"])).unwrap_err().contains("no target named \"nope\""));
        assert_eq!(r.run(argv(&["fuzz", "double"])).unwrap_err(), "`fuzz` needs --state DIR");
        assert_eq!(r.run(argv(&["fuzz", "double", "--seed"])).unwrap_err(), "--seed needs a value");
        // A wrong command is shown the usage, generated from the command line's type.
        let err = r.run(argv(&["fuz", "double"])).unwrap_err();
        assert!(err.starts_with("unknown command \"fuz\": use list, fuzz, worker"), "{err}");
        assert!(err.contains("\nusage: <harness> list | fuzz <target> --state DIR"), "{err}");
        assert!(err.ends_with("; targets: double"), "{err}");
        assert!(r.run(Vec::<String>::new()).unwrap_err().starts_with("no command given"));
        assert_eq!(r.run(argv(&["list"])), Ok(EXIT_SUCCESS));
    }

    fn halve(x: u8) -> u8 {
        assert!(x != 7, "seven");
        x / 2
    }

    fn halve_wrongly(x: u8) -> u8 {
        x / 3
    }

    #[test]
    fn recorded_outputs_replay_and_a_changed_output_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpus");
        std::fs::create_dir(&corpus).unwrap();
        std::fs::write(corpus.join("a"), [8u8]).unwrap();
        std::fs::write(corpus.join("b"), [7u8]).unwrap();
        let data = dir.path().join("halve.jsonl");
        let mut r = Registry::new();
        r.add("halve", halve);
        r.add("halve_wrongly", halve_wrongly);
        let words =
            ["outputs", "halve", "--corpus", corpus.to_str().unwrap(), "--out", data.to_str().unwrap()];
        assert_eq!(r.run(argv(&words)), Ok(EXIT_SUCCESS));
        let records = read_jsonl::<ReplayRecord>(&data).unwrap().records;
        let ending =
            |i: usize| (records[i].input.as_str(), records[i].bytes.as_str(), records[i].output.as_str());
        assert_eq!((ending(0), ending(1)), (("a", "08", "4"), ("b", "07", "panic: seven")));
        assert_eq!(r.replay("halve", &data), Ok(2));
        let err = r.replay("halve_wrongly", &data).unwrap_err();
        assert!(err.starts_with("2 of 2 replayed inputs"), "{err}");
        assert!(err.contains("input a:\n  recorded: 4\n  now:      2"), "{err}");
        assert!(r.replay("nope", &data).unwrap_err().contains("no target named"));
    }

    fn triple(x: u8) -> u16 {
        u16::from(x) * 3
    }

    #[test]
    fn a_libfuzzer_command_line_runs_the_target_the_binary_is_named_after() {
        let mut r = Registry::new();
        r.add("double", double);
        r.add("triple", triple);
        let lf = |argv0: &str, args: &[&str], env: Option<&str>| {
            r.libfuzzer_target(argv0, &argv(args), env.map(str::to_owned))
        };
        assert_eq!(lf("/out/triple", &["-runs=10", "corpus"], None), Some(Ok("triple")));
        assert_eq!(lf("/out/double_fuzzer", &[], None), Some(Ok("double")));
        assert_eq!(lf("/out/harness", &["-runs=1"], Some("double")), Some(Ok("double")));
        // Our own commands are never libFuzzer's, whatever the binary is called.
        for command in HarnessCommand::NAMES {
            assert_eq!(lf("/out/triple", &[command, "triple"], None), None, "{command}");
        }
        assert_eq!(lf("/out/harness", &[], None), None);
        assert!(lf("/out/harness", &["-runs=1"], None).unwrap().unwrap_err().contains("MUTFUZZ_TARGET"));
        let mut one = Registry::new();
        one.add("double", double);
        assert_eq!(one.libfuzzer_target("h", &argv(&["-runs=1"]), None), Some(Ok("double")));
    }
}
