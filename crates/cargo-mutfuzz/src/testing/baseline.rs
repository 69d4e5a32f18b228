//! The unmutated test suite, run once: lists every test, then runs each test alone in a
//! recording process, so every site hit (from the test's own thread or any thread it
//! spawns) is attributed to that test, with its fuel, depth and wall time.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use mutfuzz_rt::{Record, env};

use crate::console::Console;
use crate::process::caps::Caps;
use crate::process::sandbox::Sandbox;
use crate::process::{self, Exit};
use crate::schema::binaries::{Runner, TestBinary};

/// One test: a libtest test of a binary, or a whole harness-less binary (empty name).
#[derive(Clone, Debug)]
pub struct TestCase {
    /// Index into the test binaries.
    pub binary: usize,
    /// libtest's name for it.
    pub name: String,
    /// What selects it on the command line: the name (with `--exact`), or for a doctest
    /// a word of its name that no other doctest's name contains, since rustdoc splits
    /// test arguments at spaces and doctest names have spaces.
    pub filter: String,
}

/// What the unmutated run of one test recorded.
#[derive(Clone, Debug, Default)]
pub struct TestRecord {
    /// Wall time of its process.
    pub duration: Duration,
    /// Fuel, depth and the sites it executed (from the test and every thread it spawned).
    pub seen: Record,
}

/// List the tests of every binary (applying the user's test args, skipping ignored tests).
pub fn list_tests(binaries: &[TestBinary], test_args: &[String]) -> Result<Vec<TestCase>> {
    let include_ignored = test_args.iter().any(|a| a == "--include-ignored" || a == "--ignored");
    let mut cases = Vec::new();
    for (i, bin) in binaries.iter().enumerate() {
        if bin.is_plain() {
            cases.push(TestCase { binary: i, name: String::new(), filter: String::new() });
            continue;
        }
        let listed = list(bin, test_args, false)?;
        let ignored = if include_ignored { Vec::new() } else { list(bin, test_args, true)? };
        let filters: Vec<String> = if bin.is_doctests() {
            listed.iter().map(|n| doctest_filter(n, &listed)).collect()
        } else {
            listed.clone()
        };
        cases.extend(
            listed
                .into_iter()
                .zip(filters)
                .filter(|(n, _)| !ignored.contains(n))
                .map(|(name, filter)| TestCase { binary: i, name, filter }),
        );
    }
    Ok(cases)
}

fn list(bin: &TestBinary, test_args: &[String], ignored: bool) -> Result<Vec<String>> {
    let mut cmd = base_command(bin);
    cmd.args(["--list", "--format", "terse"]).args(test_args);
    if ignored {
        cmd.arg("--ignored");
    }
    let out = cmd.output().with_context(|| format!("failed to list the tests of {}", bin.describe()))?;
    if !out.status.success() {
        bail!(
            "listing the tests of {} ({}) failed:\n{}",
            bin.target,
            bin.describe(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(str::to_owned)
        .collect())
}

/// The command that runs `bin`, ready for libtest arguments: the executable itself, or
/// `cargo test --doc … --` for doctests (rustdoc compiles each doctest when it runs, and
/// links it against the schema library already built).
fn base_command(bin: &TestBinary) -> Command {
    let mut cmd = match &bin.runner {
        Runner::Doctests(d) => {
            let mut cmd = Command::new(&d.cargo);
            cmd.args(["test", "--doc", "--manifest-path"])
                .arg(&d.manifest)
                .arg("--target-dir")
                .arg(&d.target_dir)
                .args(["-p", &d.spec])
                .args(&d.cargo_args)
                .arg("--");
            cmd
        }
        Runner::Libtest(exe) | Runner::Plain(exe) => {
            let mut cmd = Command::new(exe);
            crate::testing::loader::set(&mut cmd, exe);
            cmd
        }
    };
    cmd.current_dir(&bin.cwd);
    cmd
}

/// Bytes of stack for each test thread: four times libtest's default.
const TEST_THREAD_STACK: usize = 8 << 20;

/// The command that runs the tests selected by `filters` (all from binary `bin`) and
/// nothing else.
pub fn test_command(bin: &TestBinary, filters: &[&str]) -> Command {
    let mut cmd = base_command(bin);
    cmd.env("CARGO_MANIFEST_DIR", &bin.cwd).env("CARGO_PKG_NAME", &bin.package);
    for (key, value) in crate::process::QUIET_ENV {
        cmd.env(key, value);
    }
    // The schema's functions also hold their mutants' code, so their frames are larger
    // than in the user's build: a test that recurses close to the end of libtest's
    // 2 MiB thread stack (a parser's nesting limit) would overflow. Unless the user
    // chose a size, test threads get more.
    if std::env::var_os("RUST_MIN_STACK").is_none() {
        cmd.env("RUST_MIN_STACK", TEST_THREAD_STACK.to_string());
    }
    match bin.runner {
        Runner::Doctests(_) => cmd.args(["--test-threads=1", "-q"]).args(filters),
        // Only listed tests are named, and an ignored one is listed only when the user
        // asked for ignored tests: so it must run when named.
        Runner::Libtest(_) => {
            cmd.args(["--exact", "--include-ignored", "--test-threads=1", "-q"]).args(filters)
        }
        Runner::Plain(_) => &mut cmd,
    };
    cmd
}

/// Did every one of the `selected` tests of a run of `bin` that exited with code 0
/// report passing? Exit code 0 alone does not say so: a test that calls
/// `std::process::exit(0)` ends its process with it before the rest ran. libtest ends
/// a finished run with `test result: ok. N passed; 0 failed; …`: in `output` (the run's
/// part of the log) its last such line, with no run started after it, must count every
/// selected test (doctest filters are words of their names and may select more). A plain
/// program has only its exit code.
pub fn all_passed(bin: &TestBinary, selected: usize, output: &str) -> bool {
    if bin.is_plain() {
        return true;
    }
    // The last summary, not the last line: a process a test started and left running
    // (shlex's doctest of `bash -i`) may still write to the log after it. But a run
    // started after it (`running 2 tests`) must have finished with one of its own.
    let summary = output.lines().rev().map(str::trim).find_map(|l| match libtest_summary(l) {
        None if started_run(l) => Some(None),
        other => other.map(Some),
    });
    let Some(Some((true, passed, 0))) = summary else { return false };
    passed >= selected && (bin.is_doctests() || passed == selected)
}

/// Whether `line` is libtest's opening line, `running 3 tests`.
fn started_run(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("running ") else { return false };
    let count = rest.strip_suffix(" tests").or_else(|| rest.strip_suffix(" test"));
    count.is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// libtest's closing line, `test result: ok. 3 passed; 0 failed; …` (or `FAILED. …`):
/// whether it says `ok`, and the tests passed and failed.
pub fn libtest_summary(line: &str) -> Option<(bool, usize, usize)> {
    let (verdict, counts) = line.strip_prefix("test result: ")?.split_once(". ")?;
    let count = |word: &str| -> Option<usize> {
        counts.split("; ").find_map(|part| part.strip_suffix(word)?.trim().parse().ok())
    };
    Some((verdict == "ok", count(" passed")?, count(" failed")?))
}

/// The part of `log` from byte `from` on (a run's own output; earlier runs of the same
/// mutant come before it).
pub fn log_since(log: &Path, from: u64) -> String {
    let text = std::fs::read(log).unwrap_or_default();
    String::from_utf8_lossy(text.get(from as usize..).unwrap_or_default()).into_owned()
}

/// The space-free word of doctest `name` found in the fewest of `all` names (ideally in
/// it alone), such as `672)` in `src/lib.rs - f (line 672)`: a substring filter that
/// selects it and, when no word is unique, as few others as can be.
pub fn doctest_filter(name: &str, all: &[String]) -> String {
    name.split_whitespace()
        .filter(|w| *w != "-")
        .min_by_key(|w| all.iter().filter(|n| n.contains(*w)).count())
        .unwrap_or(name)
        .to_owned()
}

/// Why the unmutated suite cannot serve as a baseline.
#[derive(Debug)]
pub struct BaselineFailure {
    /// Index of the test in the cases.
    pub case: usize,
    /// Index of its binary.
    pub binary: usize,
    /// Which test.
    pub test: String,
    /// How it ended.
    pub exit: Exit,
    /// The end of its output.
    pub output: String,
}

/// How the baseline's test processes run.
#[derive(Clone, Copy)]
pub struct Runs<'a> {
    /// The longest one test may take.
    pub timeout: Duration,
    /// How many run at once.
    pub jobs: usize,
    /// Where they run.
    pub sandbox: &'a Sandbox,
    /// Their memory and output caps.
    pub caps: &'a Caps,
}

/// Failing tests the baseline names at most before it stops.
pub const MAX_FAILURES_LISTED: usize = 20;

/// Run each test alone with recording on, `runs.jobs` at a time; on failures, every
/// failing test in the order of `cases` (at most [`MAX_FAILURES_LISTED`], and none after
/// a test that timed out).
pub fn record(
    binaries: &[TestBinary],
    cases: &[TestCase],
    mutant_ids: usize,
    record_dir: &Path,
    runs: Runs<'_>,
    console: &Console,
) -> Result<Result<Vec<TestRecord>, Vec<BaselineFailure>>> {
    let Runs { timeout, jobs, sandbox, caps } = runs;
    std::fs::create_dir_all(record_dir)?;
    let failures = AtomicUsize::new(0);
    let indexed: Vec<(usize, &TestCase)> = cases.iter().enumerate().collect();
    let results = crate::process::pool::run(
        &indexed,
        jobs,
        |&(i, case)| {
            let r = record_one(binaries, case, i, mutant_ids, record_dir, timeout, sandbox, caps);
            console.step(&case.name);
            r
        },
        // The baseline is unusable after one failure, but the user fixes or skips every
        // failing test before the next run: go on to name them all, up to a bound, unless
        // a test hangs (each more would cost a whole timeout).
        |r| match r {
            Ok(Ok(_)) => false,
            Ok(Err(f)) => {
                f.exit == Exit::TimedOut || failures.fetch_add(1, Relaxed) + 1 >= MAX_FAILURES_LISTED
            }
            Err(_) => true,
        },
    );
    let mut records = Vec::with_capacity(cases.len());
    let mut failed = Vec::new();
    for r in results {
        match r {
            Some(Ok(Ok(rec))) => records.push(rec),
            Some(Ok(Err(failure))) => failed.push(failure),
            Some(Err(e)) => return Err(e),
            None => {}
        }
    }
    if failed.is_empty() { Ok(Ok(records)) } else { Ok(Err(failed)) }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn record_one(
    binaries: &[TestBinary],
    case: &TestCase,
    index: usize,
    mutant_ids: usize,
    dir: &Path,
    timeout: Duration,
    sandbox: &Sandbox,
    caps: &Caps,
) -> Result<Result<TestRecord, BaselineFailure>> {
    let bin = &binaries[case.binary];
    let record = dir.join(format!("{index}.rec"));
    let log = dir.join(format!("{index}.log"));
    let _ = std::fs::remove_file(&record);
    let _ = std::fs::remove_file(&log);
    let mut cmd = test_command(bin, &[&case.filter]);
    cmd.env(env::RECORD, &record).env(env::MUTANTS, mutant_ids.to_string());
    sandbox.apply(&mut cmd);
    let (mut exit, duration) = process::run(&mut cmd, timeout, Some(&log), caps)?;
    if exit.success() && !all_passed(bin, 1, &log_since(&log, 0)) {
        exit = Exit::NoVerdict;
    }
    if !exit.success() {
        let output = std::fs::read_to_string(&log).unwrap_or_default();
        let tail: Vec<&str> = output.lines().rev().take(40).collect();
        return Ok(Err(BaselineFailure {
            case: index,
            binary: case.binary,
            test: format!("{} (in {})", case.name, bin.target),
            exit,
            output: tail.into_iter().rev().collect::<Vec<_>>().join("\n"),
        }));
    }
    // A test that never entered the code under test writes no record: no hits.
    let text = std::fs::read_to_string(&record).unwrap_or_default();
    Ok(Ok(TestRecord { duration, seen: Record::parse(&text) }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::binaries::{Runner, TestBinary};

    #[test]
    fn test_processes_never_capture_backtraces_whatever_the_users_environment() {
        let bin = TestBinary {
            package: "p".into(),
            target: "lib".into(),
            cwd: ".".into(),
            runner: Runner::Libtest("/bin/true".into()),
        };
        let cmd = test_command(&bin, &["t"]);
        let env: Vec<(String, Option<String>)> = cmd
            .get_envs()
            .map(|(k, v)| (k.to_string_lossy().into_owned(), v.map(|v| v.to_string_lossy().into_owned())))
            .collect();
        for var in ["RUST_BACKTRACE", "RUST_LIB_BACKTRACE"] {
            assert!(env.contains(&(var.to_owned(), Some("0".to_owned()))), "{var} in {env:?}");
        }
    }

    #[test]
    fn a_run_passes_only_when_libtest_counts_every_selected_test_passed() {
        let bin = |runner| TestBinary { package: "p".into(), target: "lib".into(), cwd: ".".into(), runner };
        let libtest = bin(Runner::Libtest("/bin/true".into()));
        let ok = "\nrunning 2 tests\n..\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 7 filtered out; finished in 0.00s\n";
        assert!(all_passed(&libtest, 2, ok));
        // `process::exit(0)` in the second test: one dot, no summary.
        assert!(!all_passed(&libtest, 2, "\nrunning 2 tests\n."));
        assert!(!all_passed(&libtest, 3, ok), "a selected test did not run");
        assert!(!all_passed(
            &libtest,
            2,
            &ok.replace("ok. 2 passed; 0 failed", "FAILED. 1 passed; 1 failed")
        ));
        // A run started after the summary must end with its own.
        assert!(!all_passed(&libtest, 2, &format!("{ok}\nrunning 2 tests\n.")));
        assert!(!all_passed(&libtest, 2, &format!("{ok}\nrunning 1 test\n")));
        // What a process the test left running writes after it is not the run's.
        assert!(all_passed(&libtest, 2, &format!("{ok}root@vm:~# echo hi\nhi\nrunning integration tests\n")));
        let doctests = bin(Runner::Doctests(crate::schema::binaries::Doctests {
            spec: "p@0.1.0".into(),
            cargo: "cargo".into(),
            manifest: "Cargo.toml".into(),
            target_dir: "t".into(),
            cargo_args: Vec::new(),
        }));
        assert!(all_passed(&doctests, 1, ok), "a doctest filter may select more");
        assert!(all_passed(&bin(Runner::Plain("/bin/true".into())), 1, ""));
    }

    #[test]
    fn a_doctest_is_selected_by_a_word_no_other_doctest_name_contains() {
        let all: Vec<String> = [
            "src/lib.rs - damerau_levenshtein (line 672)",
            "src/lib.rs - generic_damerau_levenshtein (line 348)",
            "src/lib.rs - hamming (line 77)",
            "src/a.rs - f (line 77)",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(doctest_filter(&all[0], &all), "672)");
        assert_eq!(doctest_filter(&all[1], &all), "generic_damerau_levenshtein");
        assert_eq!(doctest_filter(&all[2], &all), "hamming");
        assert_eq!(doctest_filter(&all[3], &all), "src/a.rs");
    }
}
