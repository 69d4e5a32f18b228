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
//! `mutant <id>`). Under `fuzz --hand-over` each input to keep goes the same way
//! (`keep <name> <hex>`), and the supervisor's answer comes back on stdin.

use std::collections::{BTreeSet, HashSet};
use std::ffi::OsString;
use std::fmt::Debug;
use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Duration;

use mutfuzz_contract::command::{HarnessCommand, InputFormat, ParseError, ReplayRequest};
use mutfuzz_contract::{EXIT_ERROR, EXIT_SUCCESS, Line, MAX_LINE, Reply, Report, Stats};

use std::sync::Arc;

use crate::r#gen::Gen;
use crate::input::{Limits, Rng, Source};
use crate::mutants::MutantInfo;
use crate::oracle::{Compare, DebugHash, Judging, Oracle};
use crate::raw::RawDecoder;
use crate::reflect::Reflector;

pub use crate::error::HarnessError;

mod cmin;
mod fuzz;
pub mod libfuzzer;
mod macros;
mod replay;
mod score;
mod shrink;
mod values;

/// What a target's runner is asked to do.
pub(crate) enum Call<'a> {
    /// One of the commands `cargo mutfuzz` gives (never `list`, which names no target).
    Command(&'a HarnessCommand),
    /// libFuzzer's command line (see [`libfuzzer`]).
    LibFuzzer(&'a [String]),
}

type Runner = Box<dyn Fn(Call<'_>) -> Result<i32, HarnessError>>;

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
    pub fn replay(&self, target: &str, data: &Path) -> Result<usize, HarnessError> {
        let Some((_, runner)) = self.targets.iter().find(|(n, _)| *n == target) else {
            return Err(HarnessError::Usage(format!("the harness has no target named {target:?}")));
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
    /// command line (see [`libfuzzer`]).
    pub fn main(self) -> ! {
        // ClusterFuzz takes a binary holding this symbol name for a fuzz target.
        std::hint::black_box(&libfuzzer::MARKER);
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
            None => {
                // Our commands are supervised: a death the engine causes is no mutant's.
                crate::panics::on_panic_outside_a_run(|| protocol(Line::Engine));
                self.run(argv)
            }
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
    ) -> Option<Result<&'static str, HarnessError>> {
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
                HarnessError::Usage(format!(
                    "MUTFUZZ_TARGET={name:?} is not a target; targets: {}",
                    names.join(", ")
                ))
            }));
        }
        let libfuzzer_like = argv.first().is_some_and(|a| a.starts_with('-') || Path::new(a).exists());
        match &self.targets[..] {
            _ if !libfuzzer_like => None,
            [(only, _)] => Some(Ok(*only)),
            many => {
                let names: Vec<&str> = many.iter().map(|(n, _)| *n).collect();
                Some(Err(HarnessError::Usage(format!(
                    "a libFuzzer command line runs one target: name the binary after it (<target> or \
                     <target>_fuzzer) or set MUTFUZZ_TARGET; targets: {}",
                    names.join(", ")
                ))))
            }
        }
    }

    /// Run one command line (without the program name); returns the exit code.
    pub fn run<I, A>(&self, argv: I) -> Result<i32, HarnessError>
    where
        I: IntoIterator<Item = A>,
        A: Into<OsString>,
    {
        let usage = || {
            let names: Vec<&str> = self.targets.iter().map(|(n, _)| *n).collect();
            format!("usage: <harness> {}; targets: {}", HarnessCommand::usage(), names.join(", "))
        };
        let command = HarnessCommand::parse(argv).map_err(|e| {
            HarnessError::Usage(match e {
                ParseError::NoCommand | ParseError::UnknownCommand(_) => format!("{e}\n{}", usage()),
                e => e.to_string(),
            })
        })?;
        // Every command but `list` names its target.
        let Some(target) = command.target() else {
            for (name, _) in &self.targets {
                println!("{name}");
            }
            return Ok(EXIT_SUCCESS);
        };
        let Some((_, runner)) = self.targets.iter().find(|(n, _)| *n == target) else {
            return Err(HarnessError::Usage(format!("no target named {target:?}; {}", usage())));
        };
        let code = runner(Call::Command(&command))?;
        // `replay` answers how many inputs it replayed (for [`Registry::replay`]); as a
        // process, it succeeded.
        Ok(if matches!(command, HarnessCommand::Replay(_)) { EXIT_SUCCESS } else { code })
    }
}

/// The mutant ids of a `--mutants-file`: one a line; blank lines and lines starting with
/// `#` are skipped, and a line's first word is the id (so `ID description` lines work).
pub fn read_mutants_file(path: &Path) -> Result<BTreeSet<u32>, HarnessError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| HarnessError::io(format!("read {}", path.display()), e))?;
    let mut ids = BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        let Some(word) = line.split_whitespace().next().filter(|w| !w.starts_with('#')) else { continue };
        let id = word.parse::<u32>().ok().filter(|&id| id > 0).ok_or_else(|| {
            HarnessError::Invalid(format!(
                "{}:{}: {word:?} is not a mutant id (one id a line)",
                path.display(),
                n + 1
            ))
        })?;
        ids.insert(id);
    }
    if ids.is_empty() {
        return Err(HarnessError::Invalid(format!("{} lists no mutant id", path.display())));
    }
    Ok(ids)
}

/// The targets `--mutants-file` names, if given: says on stderr how many of them the
/// catalog does not have (unviable, or cut by `--shard`), which never run.
fn targets(
    mutants_file: Option<&Path>,
    catalog: &[MutantInfo],
) -> Result<Option<Arc<BTreeSet<u32>>>, HarnessError> {
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
) -> Result<i32, HarnessError> {
    let (target, compare) = (t.target, t.compare);
    // Read once per command, never per trial.
    let judging = |panic_is_failure: bool| Judging {
        panics_by_contract: t.generated && !panic_is_failure,
        generated: t.generated,
    };
    let command = match call {
        Call::LibFuzzer(argv) => return libfuzzer::run(name, argv, target, || oracle_for(compare)),
        Call::Command(command) => command,
    };
    match command {
        HarnessCommand::List => Err(HarnessError::Usage("`list` runs no target".to_owned())),
        HarnessCommand::Fuzz(r) => fuzz::fuzz(r, target, compare, judging(r.panic_is_failure)),
        HarnessCommand::Score(r) => score::score_corpus(
            r,
            target,
            compare,
            raw_decoder(&r.target, r.format, t)?,
            judging(r.panic_is_failure),
        ),
        HarnessCommand::Run(r) => replay::run_one(r, target, raw_decoder(&r.target, r.format, t)?),
        HarnessCommand::Outputs(r) => replay::write_outputs(r, target),
        HarnessCommand::Values(r) => values::write_values(r, target, t.reflect),
        HarnessCommand::Replay(r) => replay::replay(r, target),
        HarnessCommand::Shrink(r) => {
            shrink::shrink_kills(r, target, oracle_for(compare), judging(r.panic_is_failure))
        }
        HarnessCommand::Tmin(r) => shrink::shrink_failure(r, target),
        HarnessCommand::Cmin(r) => {
            cmin::write_cmin(r, target, oracle_for(compare), judging(r.panic_is_failure))
        }
        HarnessCommand::Worker(r) => Ok(crate::workers::serve(
            Box::new(target),
            oracle_for(compare),
            Limits::default(),
            r.drift_each_batch,
        )),
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

/// Times a `keep` line is sent before the harness gives up: the supervisor refuses a
/// line garbled on the way, as one the target's own output broke into may be.
const HAND_OVER_ATTEMPTS: usize = 3;

/// Hands an input to keep to the supervisor, which owns the corpus directory (`fuzz
/// --hand-over`): a `keep` line on stdout, then its answer on stdin. Answers to lines
/// that were not this one (a target printing `keep …` itself) are passed over.
fn hand_over(name: &str, bytes: &[u8]) -> Result<(), crate::Error> {
    let fail = |reason: String| crate::Error::HandOver { input: name.to_owned(), reason };
    if "keep  \n".len() + name.len() + 2 * bytes.len() > MAX_LINE {
        return Err(fail(format!("its {} bytes do not fit on one protocol line", bytes.len())));
    }
    let stdin = std::io::stdin();
    let mut answer = String::new();
    for _ in 0..HAND_OVER_ATTEMPTS {
        protocol(Line::Keep { name: name.into(), bytes: bytes.into() });
        loop {
            answer.clear();
            match stdin.lock().read_line(&mut answer) {
                Ok(0) | Err(_) => return Err(fail("no answer came (its end of stdin is closed)".into())),
                Ok(_) => {}
            }
            match Reply::parse(&answer) {
                Some(Reply::Stored(n)) if n == name => return Ok(()),
                Some(Reply::Refused(n)) if n == name => break,
                _ => {}
            }
        }
    }
    Err(fail(format!("it refused the line {HAND_OVER_ATTEMPTS} times")))
}

fn report(stats: Stats, elapsed: Duration) -> Report {
    Report { elapsed: elapsed.as_secs_f64(), stats }
}

/// The decoder `--format` asks for: none for choice sequences, cargo-fuzz's for
/// `arbitrary` (an error when the target's input type is not `Arbitrary`).
fn raw_decoder<T: 'static, O>(
    name: &str,
    format: InputFormat,
    t: &Target<T, O>,
) -> Result<Option<RawDecoder<T>>, HarnessError> {
    if format != InputFormat::Arbitrary {
        return Ok(None);
    }
    match t.raw {
        Some(decode) => Ok(Some(decode)),
        None => Err(HarnessError::Invalid(format!(
            "the input type of target {:?}, `{}`, does not implement `arbitrary::Arbitrary`, so files in \
             cargo-fuzz's format cannot be decoded for it; give the target a type that implements \
             both `Gen` and `Arbitrary` (the type of the cargo-fuzz target, or `mutfuzz::Arb<T>`)",
            name,
            std::any::type_name::<T>()
        ))),
    }
}

/// The stored inputs of `corpus` (name, bytes), in name order; a missing directory holds none.
fn read_corpus(corpus: &Path) -> Result<Vec<(String, Vec<u8>)>, HarnessError> {
    // A damaged or unreadable file is skipped (the CLI warned about it), never fatal.
    let read = mutfuzz_contract::read_corpus(corpus)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use mutfuzz_contract::{ReplayRecord, read_jsonl};

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
        assert!(
            r.run(argv(&["worker", "nope"])).unwrap_err().to_string().contains("no target named \"nope\"")
        );
        assert_eq!(r.run(argv(&["fuzz", "double"])).unwrap_err().to_string(), "`fuzz` needs --state DIR");
        assert_eq!(
            r.run(argv(&["fuzz", "double", "--seed"])).unwrap_err().to_string(),
            "--seed needs a value"
        );
        // A wrong command is shown the usage, generated from the command line's type.
        let err = r.run(argv(&["fuz", "double"])).unwrap_err().to_string();
        assert!(err.starts_with("unknown command \"fuz\": use list, fuzz, worker"), "{err}");
        assert!(err.contains("\nusage: <harness> list | fuzz <target> --state DIR"), "{err}");
        assert!(err.ends_with("; targets: double"), "{err}");
        assert!(r.run(Vec::<String>::new()).unwrap_err().to_string().starts_with("no command given"));
        assert_eq!(r.run(argv(&["list"])).map_err(|e| e.to_string()), Ok(EXIT_SUCCESS));
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
        assert_eq!(r.run(argv(&words)).map_err(|e| e.to_string()), Ok(EXIT_SUCCESS));
        let records = read_jsonl::<ReplayRecord>(&data).unwrap().records;
        let ending =
            |i: usize| (records[i].input.as_str(), records[i].bytes.as_str(), records[i].output.as_str());
        assert_eq!((ending(0), ending(1)), (("a", "08", "4"), ("b", "07", "panic: seven")));
        assert_eq!(r.replay("halve", &data).map_err(|e| e.to_string()), Ok(2));
        let err = r.replay("halve_wrongly", &data).unwrap_err().to_string();
        assert!(err.starts_with("2 of 2 replayed inputs"), "{err}");
        assert!(err.contains("input a:\n  recorded: 4\n  now:      2"), "{err}");
        assert!(r.replay("nope", &data).unwrap_err().to_string().contains("no target named"));
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
                .map(|r| r.map_err(|e| e.to_string()))
        };
        assert_eq!(lf("/out/triple", &["-runs=10", "corpus"], None), Some(Ok("triple")));
        assert_eq!(lf("/out/double_fuzzer", &[], None), Some(Ok("double")));
        assert_eq!(lf("/out/harness", &["-runs=1"], Some("double")), Some(Ok("double")));
        // Our own commands are never libFuzzer's, whatever the binary is called.
        for command in HarnessCommand::NAMES {
            assert_eq!(lf("/out/triple", &[command, "triple"], None), None, "{command}");
        }
        assert_eq!(lf("/out/harness", &[], None), None);
        assert!(
            lf("/out/harness", &["-runs=1"], None)
                .unwrap()
                .unwrap_err()
                .to_string()
                .contains("MUTFUZZ_TARGET")
        );
        let mut one = Registry::new();
        one.add("double", double);
        assert_eq!(
            one.libfuzzer_target("h", &argv(&["-runs=1"]), None).map(Result::ok),
            Some(Some("double"))
        );
    }
}
