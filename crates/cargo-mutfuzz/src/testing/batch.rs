//! Runs many mutants in one test process, each on a test of its own: libtest runs each
//! test on a thread named after it, and the run-time activates that test's mutant on
//! that thread alone, so one process start serves a whole batch.
//!
//! A batch decides only what it can vouch for: a mutant whose test failed is caught, one
//! whose test passed need not run that test again. A mutant it cannot vouch for (its
//! test ran away, or the process crashed, was killed or gave no verdict) goes on to the
//! one-mutant runs as if no batch had been.

use std::collections::HashSet;
use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::Result;
use mutfuzz_mutate::Mutant;
use mutfuzz_rt::env;

use crate::process::{self, Exit, interrupt};
use crate::testing::baseline::libtest_summary;
use crate::testing::lab::{Catchers, Lab, exhausted_in, failed_tests, named_safely};

/// Most mutants in one batch: a batch that cannot vouch for its mutants costs each of
/// them its test's time again.
const MOST_MUTANTS: usize = 64;
/// Most test time (the baseline's, beyond the process start) in one batch.
const MOST_TIME: Duration = Duration::from_secs(2);
/// How many of a mutant's best tests may stand for it in a batch.
const CANDIDATES: usize = 8;

/// Mutants that share one test process, each with the one test it runs there.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Batch {
    /// Positions in the mutants given to [`pack`], and the test each runs.
    pub runs: Vec<(usize, usize)>,
}

/// What a batch learned about one mutant.
#[derive(Debug, PartialEq)]
pub(super) enum Verdict {
    /// Its test failed.
    Caught {
        /// The test.
        test: usize,
        /// How the process ended, for the outcome's detail.
        detail: String,
    },
    /// Its test passed: the one-mutant runs leave it out.
    Passed(usize),
    /// Nothing the one-mutant runs may go by.
    Unknown,
}

impl Lab<'_> {
    /// May `test` run in a batch? Its binary must be libtest's own, its name fit the
    /// run-time's table, and, in the baseline, only its own thread ran the crate's code:
    /// a thread it spawns is not named after it and would run the original.
    fn batchable(&self, test: usize) -> bool {
        let case = &self.cases[test];
        let bin = &self.binaries[case.binary];
        !bin.is_plain()
            && !bin.is_doctests()
            && named_safely(&case.name)
            && self.records[test].seen.threads <= 1
    }

    /// Pack the `eligible` of `mutants` into batches, first fit: each joins the first
    /// batch where one of its best batchable covering tests is free (a thread runs one
    /// mutant) and fits the batch's time, and runs the best such test there. The best are
    /// those that caught another mutant of its site, then the cheapest; the tests it
    /// `passed` in earlier batches are not candidates. A mutant left alone in its batch
    /// gains nothing from one and waits for the next round or its own runs.
    pub(super) fn pack(
        &self,
        mutants: &[(&Mutant, Vec<usize>)],
        eligible: impl Fn(usize) -> bool,
        passed: &[Vec<usize>],
        catchers: &Catchers,
    ) -> Vec<Batch> {
        let start = self.process_starts();
        let cost = |t: usize| self.records[t].duration.saturating_sub(start[&self.cases[t].binary]);
        struct Open {
            binary: usize,
            batch: Batch,
            tests: HashSet<usize>,
            time: Duration,
        }
        let mut open: Vec<Open> = Vec::new();
        for (i, (mutant, tests)) in mutants.iter().enumerate().filter(|&(i, _)| eligible(i)) {
            let mut candidates: Vec<usize> =
                tests.iter().copied().filter(|&t| self.batchable(t) && !passed[i].contains(&t)).collect();
            let known = catchers.of(mutant.site, &candidates);
            candidates.sort_by_key(|&t| (!known.contains(&t), cost(t), t));
            candidates.truncate(CANDIDATES);
            let Some(&best) = candidates.first() else { continue };
            let fits = |o: &Open, t: usize| {
                o.binary == self.cases[t].binary
                    && o.batch.runs.len() < MOST_MUTANTS
                    && o.time + cost(t) <= MOST_TIME
                    && !o.tests.contains(&t)
            };
            let place =
                open.iter_mut().find_map(|o| candidates.iter().find(|&&t| fits(o, t)).map(|&t| (o, t)));
            match place {
                Some((o, t)) => {
                    o.batch.runs.push((i, t));
                    o.tests.insert(t);
                    o.time += cost(t);
                }
                None => open.push(Open {
                    binary: self.cases[best].binary,
                    batch: Batch { runs: vec![(i, best)] },
                    tests: HashSet::from([best]),
                    time: cost(best),
                }),
            }
        }
        open.into_iter().map(|o| o.batch).filter(|b| b.runs.len() > 1).collect()
    }

    /// Run one batch: a verdict per run and each run's share of the time, or `None` when
    /// the command was interrupted.
    pub(super) fn run_batch(
        &self,
        batch: &Batch,
        mutants: &[(&Mutant, Vec<usize>)],
    ) -> Result<Option<(Vec<Verdict>, f64)>> {
        if interrupt::interrupted() {
            return Ok(None);
        }
        let started = Instant::now();
        let tests: Vec<usize> = batch.runs.iter().map(|&(_, t)| t).collect();
        let ids: Vec<u32> = batch.runs.iter().map(|&(i, _)| mutants[i].0.id).collect();
        let (mut cmd, timeout) = self.command(&tests);
        let mut table = "0".to_owned();
        for (&t, id) in tests.iter().zip(&ids) {
            table.push_str(&format!(";{}={id}", self.cases[t].name));
        }
        // Any of the ids: it only switches the run-time on; the table says who runs what.
        cmd.env(env::ACTIVE, ids[0].to_string()).env(env::THREAD_ACTIVE, table).env(env::ON_EXHAUST, "say");
        let log = self.log_dir.join(format!("batch-{}.log", ids[0]));
        let _ = std::fs::remove_file(&log);
        let (exit, _) = process::run(&mut cmd, timeout, Some(&log), &self.limits.caps)?;
        if interrupt::interrupted() {
            let _ = std::fs::remove_file(&log);
            return Ok(None);
        }
        let output = String::from_utf8_lossy(&std::fs::read(&log).unwrap_or_default()).into_owned();
        // A verdict needs libtest's own count of every test: a crash, a kill or an
        // early exit leaves some tests unreported, and so every mutant unknown.
        let reported = matches!(exit, Exit::Code(0 | 101)) && libtest_counts(&output) == Some(tests.len());
        let failing = if reported { failed_tests(&output) } else { Vec::new() };
        let bin = &self.binaries[self.cases[tests[0]].binary];
        let share = started.elapsed().as_secs_f64() / tests.len() as f64;
        // Each mutant's log gathers its batches' parts; its own runs append theirs.
        let note = |id: u32, text: &str| {
            let path = self.log_dir.join(format!("{id}.log"));
            let file = std::fs::OpenOptions::new().create(true).append(true).open(path);
            let _ = file.and_then(|mut f| f.write_all(text.as_bytes()));
        };
        let verdicts = tests
            .iter()
            .zip(&ids)
            .map(|(&t, &id)| {
                let name = &self.cases[t].name;
                if !reported || exhausted_in(&output, id) {
                    Verdict::Unknown
                } else if failing.contains(name) {
                    note(id, test_output(&output, name));
                    Verdict::Caught { test: t, detail: format!("{} :: {exit}", bin.target) }
                } else {
                    note(id, &format!("test {name} ... ok (in a batch of {} mutants)\n", tests.len()));
                    Verdict::Passed(t)
                }
            })
            .collect();
        let _ = std::fs::remove_file(&log);
        Ok(Some((verdicts, share)))
    }
}

/// How many tests libtest's closing line (`test result: ok. 3 passed; 1 failed; …`, the
/// last line of its output) says ran to a verdict: passed and failed.
fn libtest_counts(output: &str) -> Option<usize> {
    let last = output.lines().rev().map(str::trim).find(|l| !l.is_empty())?;
    let (_, passed, failed) = libtest_summary(last)?;
    Some(passed + failed)
}

/// What libtest printed for the failed test `name` (its `---- name stdout ----`
/// section), for the mutant's own log.
fn test_output<'o>(output: &'o str, name: &str) -> &'o str {
    let header = format!("---- {name} stdout ----");
    let Some(from) = output.find(&header) else { return "" };
    let body = &output[from + header.len()..];
    let end =
        [body.find("\n---- "), body.find("\nfailures:\n")].into_iter().flatten().min().unwrap_or(body.len());
    &output[from..from + header.len() + end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::caps::Caps;
    use crate::process::sandbox::Sandbox;
    use crate::schema::binaries::{Runner, TestBinary};
    use crate::testing::baseline::{TestCase, TestRecord};
    use crate::testing::lab::Limits;
    use mutfuzz_rt::Record;

    #[test]
    fn each_mutant_gets_its_cheapest_batchable_test_and_no_test_serves_two_in_a_batch() {
        let binary = |target: &str, runner: Runner| TestBinary {
            package: "p".into(),
            target: target.into(),
            cwd: ".".into(),
            runner,
        };
        let binaries =
            [binary("lib", Runner::Libtest("t".into())), binary("bench", Runner::Plain("b".into()))];
        let case = |binary: usize, name: &str| TestCase { binary, name: name.into(), filter: name.into() };
        let cases = [case(0, "a"), case(0, "b"), case(0, "spawns"), case(0, "x=y"), case(1, "")];
        let record = |ms: u64, threads: usize| TestRecord {
            duration: Duration::from_millis(ms),
            seen: Record { threads, ..Record::default() },
        };
        let records = [record(10, 1), record(30, 1), record(11, 2), record(12, 1), record(5, 1)];
        let sandbox = Sandbox::off();
        let dir = tempfile::tempdir().unwrap();
        let lab = Lab {
            binaries: &binaries,
            cases: &cases,
            records: &records,
            limits: Limits {
                multiplier: 5.0,
                minimum_timeout: Duration::from_secs(3),
                caps: Caps::default(),
            },
            log_dir: dir.path(),
            sandbox: &sandbox,
            batch: true,
        };
        let d = mutfuzz_mutate::Discovery::from_source(
            "src/lib.rs",
            "pub fn f(a: u32, b: u32) -> u32 { a + b * 2 - 1 }\n",
            &mutfuzz_mutate::Config::default(),
        )
        .unwrap();
        assert!(d.mutants.len() >= 7);
        let tests: [&[usize]; 7] = [
            &[1, 2], // `spawns` runs code on a thread not named after it: `b`
            &[0, 1], // `a`, the cheaper
            &[1],    // `b` is taken in the first batch
            &[4],    // a plain program: no batch
            &[0],    // `a` is free in the second
            &[3, 1], // `x=y` cannot be named in the table: `b`, in a third batch of its own
            &[],
        ];
        let mutants: Vec<(&Mutant, Vec<usize>)> =
            d.mutants.iter().zip(tests).map(|(m, t)| (m, t.to_vec())).collect();
        let none = vec![Vec::new(); mutants.len()];
        let catchers = Catchers::default();
        let batches = lab.pack(&mutants, |_| true, &none, &catchers);
        assert_eq!(batches, [Batch { runs: vec![(0, 1), (1, 0)] }, Batch { runs: vec![(2, 1), (4, 0)] }]);
        // Where its cheapest is taken, a mutant takes a dearer test.
        let same: Vec<(&Mutant, Vec<usize>)> = [0, 1, 2].map(|m| (&d.mutants[m], vec![0, 1])).to_vec();
        let batches = lab.pack(&same, |_| true, &none, &catchers);
        assert_eq!(batches, [Batch { runs: vec![(0, 0), (1, 1)] }]);
        // A test that caught a mutant of the site comes first; a test passed in an
        // earlier batch is no candidate; only the eligible take part.
        catchers.add(d.mutants[0].site, [1].into_iter());
        let passed = vec![vec![], vec![], vec![1]];
        let batches = lab.pack(&same, |i| i != 1, &passed, &catchers);
        assert_eq!(batches, [Batch { runs: vec![(0, 1), (2, 0)] }]);
    }

    const FAILED: &str = "\nrunning 3 tests\n..F\nfailures:\n\n---- a::one stdout ----\nthread 'a::one' \
        panicked at src/lib.rs:3:5:\nboom\n\n---- a::two stdout ----\nbang\n\nfailures:\n    a::one\n    \
        a::two\n\ntest result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 5 filtered out; \
        finished in 0.01s\n\n";

    #[test]
    fn libtests_closing_line_counts_the_tests_that_reached_a_verdict() {
        assert_eq!(libtest_counts(FAILED), Some(3));
        let ok = "running 2 tests\n..\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n";
        assert_eq!(libtest_counts(ok), Some(2));
        assert_eq!(libtest_counts("running 2 tests\n.\nthread 'x' has overflowed its stack\n"), None);
        assert_eq!(libtest_counts(""), None);
    }

    #[test]
    fn a_failed_tests_section_is_its_own_output_alone() {
        assert_eq!(
            test_output(FAILED, "a::one"),
            "---- a::one stdout ----\nthread 'a::one' panicked at src/lib.rs:3:5:\nboom\n"
        );
        assert_eq!(test_output(FAILED, "a::two"), "---- a::two stdout ----\nbang\n");
        assert_eq!(test_output(FAILED, "a::three"), "");
    }
}
