//! Runs each covered, viable mutant against the tests that execute its site: one process
//! per test binary with exact test filters and the mutant id in the environment, cheapest
//! binary first, stopping at the first failure.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;
use mutfuzz_mutate::Mutant;
use mutfuzz_rt::{EXHAUSTED_EXIT_CODE, env};

use crate::baseline::{TestCase, TestRecord, test_command};
use crate::compile::TestBinary;
use crate::console::Console;
use crate::outcome::{MutantOutcome, Outcome};
use crate::process::{self, Exit};

/// Fuel every mutant run may spend on top of the multiple of its tests' baseline, so a
/// test that barely enters the code under test still has room.
const FUEL_FLOOR: u64 = 100_000;
/// Stack bytes every mutant run may use on top of twice its tests' baseline: far below
/// the 2 MiB of a test thread, so runaway recursion ends as a timeout, not an overflow.
const DEPTH_FLOOR: usize = 256 * 1024;
/// Most tests named on one command line.
const MAX_FILTERS: usize = 500;

/// Limits of one mutant run, relative to the baseline.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Fuel and wall time may be this many times the baseline's.
    pub multiplier: f64,
    /// Smallest wall-clock timeout of one process.
    pub minimum_timeout: Duration,
}

/// Everything the mutant runs need.
pub struct Lab<'a> {
    /// Test binaries.
    pub binaries: &'a [TestBinary],
    /// Tests.
    pub cases: &'a [TestCase],
    /// Baseline records, parallel to `cases`.
    pub records: &'a [TestRecord],
    /// Limits.
    pub limits: Limits,
    /// Directory for per-mutant logs.
    pub log_dir: &'a Path,
}

impl Lab<'_> {
    /// Run `mutants` (each with the tests covering it), `jobs` at a time.
    pub fn run(
        &self,
        mutants: &[(&Mutant, Vec<usize>)],
        jobs: usize,
        console: &Console,
    ) -> Result<Vec<MutantOutcome>> {
        let results = crate::pool::run(
            mutants,
            jobs,
            |(mutant, tests)| {
                let r = self.run_one(mutant, tests);
                if let Ok(o) = &r
                    && matches!(o.outcome, Outcome::Missed | Outcome::Timeout)
                {
                    console.message(&format!("{:<8} {}", o.outcome.name().to_uppercase(), mutant.name()));
                }
                console.step(&mutant.name());
                r
            },
            |r| r.is_err(),
        );
        results.into_iter().flatten().collect()
    }

    fn run_one(&self, mutant: &Mutant, tests: &[usize]) -> Result<MutantOutcome> {
        let start = Instant::now();
        let log = self.log_dir.join(format!("{}.log", mutant.id));
        let _ = std::fs::remove_file(&log);
        // Group by binary; run the binary whose tests took least time first.
        let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &t in tests {
            groups.entry(self.cases[t].binary).or_default().push(t);
        }
        let mut groups: Vec<Vec<usize>> = groups
            .into_values()
            .flat_map(|g| g.chunks(MAX_FILTERS).map(<[usize]>::to_vec).collect::<Vec<_>>())
            .collect();
        groups.sort_by_key(|g| g.iter().map(|&t| self.records[t].duration).sum::<Duration>());
        let mut tests_run = 0;
        // A timeout in one group does not end the mutant: a later group may catch it,
        // and a catch is the stronger verdict.
        let mut timed_out: Option<String> = None;
        for group in groups {
            let bin = &self.binaries[self.cases[group[0]].binary];
            let names: Vec<&str> = group.iter().map(|&t| self.cases[t].filter.as_str()).collect();
            let fuel: u64 = group.iter().map(|&t| self.records[t].seen.fuel).sum();
            let depth: usize = group.iter().map(|&t| self.records[t].seen.depth).max().unwrap_or(0);
            let time: Duration = group.iter().map(|&t| self.records[t].duration).sum();
            let m = self.limits.multiplier;
            let fuel_limit = (fuel as f64 * m) as u64 + FUEL_FLOOR;
            let depth_limit = depth.saturating_mul(2).saturating_add(DEPTH_FLOOR);
            let timeout = time.mul_f64(m).max(self.limits.minimum_timeout);
            let mut cmd = test_command(bin, &names);
            cmd.env(env::ACTIVE, mutant.id.to_string())
                .env(env::FUEL, fuel_limit.to_string())
                .env(env::DEPTH, depth_limit.to_string())
                .env(env::ON_EXHAUST, "exit")
                .env_remove(env::RECORD);
            let log_start = std::fs::metadata(&log).map_or(0, |m| m.len());
            let (exit, _) = process::run(&mut cmd, timeout, Some(&log))?;
            tests_run += group.len();
            match exit {
                Exit::Code(0) => {}
                Exit::Code(EXHAUSTED_EXIT_CODE) => timed_out = Some("fuel or depth exhausted".to_owned()),
                Exit::TimedOut => timed_out = Some(format!("killed after {:.1}s", timeout.as_secs_f64())),
                // A test process run by another (a doctest under rustdoc, a child the test
                // spawned) that exhausted its limit shows up as a plain failure: the
                // run-time's message in the output tells.
                _ if exhausted_in_log(&log, log_start) => {
                    timed_out = Some("fuel or depth exhausted".to_owned())
                }
                other => {
                    return Ok(MutantOutcome {
                        mutant: mutant.clone(),
                        outcome: Outcome::Caught,
                        tests_run,
                        failing_tests: failed_tests(&log),
                        seconds: start.elapsed().as_secs_f64(),
                        detail: Some(format!("{} :: {other}", bin.target)),
                    });
                }
            }
        }
        Ok(MutantOutcome {
            mutant: mutant.clone(),
            outcome: if timed_out.is_some() { Outcome::Timeout } else { Outcome::Missed },
            tests_run,
            failing_tests: Vec::new(),
            seconds: start.elapsed().as_secs_f64(),
            detail: timed_out,
        })
    }
}

/// Did a process in this run print the run-time's exhaustion message?
fn exhausted_in_log(log: &Path, from: u64) -> bool {
    let text = std::fs::read(log).unwrap_or_default();
    let tail = String::from_utf8_lossy(text.get(from as usize..).unwrap_or_default());
    tail.contains("exhausted its fuel limit") || tail.contains("exhausted its depth limit")
}

/// Names of the tests libtest reported as failed: the list after its last `failures:`
/// line (`test name ... FAILED` lines are not printed with `-q`). Doctest names have
/// spaces, so a name is the whole indented line.
fn failed_tests(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let mut names: Vec<String> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if *line == "failures:" {
            names.extend(
                lines[i + 1..]
                    .iter()
                    .skip_while(|l| l.is_empty())
                    .take_while(|l| l.starts_with("    "))
                    .map(|l| l.trim().to_owned()),
            );
        }
    }
    names.sort();
    names.dedup();
    names
}
