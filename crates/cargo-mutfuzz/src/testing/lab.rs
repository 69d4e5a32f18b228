//! Runs each covered, viable mutant against the tests that execute its site: first in
//! batches of mutants that share a process ([`super::batch`]), then, for what a batch did
//! not decide, one process per test binary with exact test filters and the mutant id in
//! the environment, cheapest binary first, stopping at the first failure.
//!
//! A run that the run-time ended for exhausting its fuel or depth is a `timeout`: the
//! process exits with the run-time's [`EXHAUSTED_EXIT_CODE`], or, when another process
//! runs the test (rustdoc runs each doctest in a child), the log holds the run-time's
//! own line for this mutant ([`Exhausted`]'s rendering, whole).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Result;
use mutfuzz_contract::Budget;
use mutfuzz_mutate::Mutant;
use mutfuzz_rt::{
    AFTER_PANIC_IN, EXHAUSTED_AFTER_PANIC_EXIT_CODE, EXHAUSTED_EXIT_CODE, Exhausted, Limit, env,
};

use crate::console::Console;
use crate::process::caps::Caps;
use crate::process::interrupt;
use crate::process::sandbox::Sandbox;
use crate::process::{self, Exit};
use crate::schema::binaries::TestBinary;
use crate::testing::baseline::{TestCase, TestRecord, all_passed, log_since, test_command};
use crate::testing::batch::Verdict;
use crate::testing::outcome::{MutantOutcome, Outcome};

/// The tests covering a mutant, in the baseline's order (`outcomes.json` keeps them so).
pub(super) fn covered_by(tests: &[usize]) -> Vec<usize> {
    let mut sorted = tests.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted
}

/// Most tests named on one command line.
const MAX_FILTERS: usize = 500;

/// Batches a mutant may take part in, one test each, before its own runs.
const BATCH_ROUNDS: usize = 4;

/// Limits of one mutant run, relative to the baseline.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Fuel and wall time may be this many times the baseline's.
    pub multiplier: f64,
    /// Smallest wall-clock timeout of one process.
    pub minimum_timeout: Duration,
    /// Memory and output caps of each process.
    pub caps: Caps,
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
    /// Where the test processes run.
    pub sandbox: &'a Sandbox,
    /// Run mutants in batches first (see [`super::batch`]).
    pub batch: bool,
}

impl Lab<'_> {
    /// Run `mutants` (each with the tests covering it), `jobs` at a time. A mutant whose
    /// runs did not finish (the command was interrupted) has no outcome: `None`.
    pub fn run(
        &self,
        mutants: &[(&Mutant, Vec<usize>)],
        jobs: usize,
        console: &Console,
    ) -> Result<Vec<Option<MutantOutcome>>> {
        let catchers = Catchers::default();
        let mut outcomes: Vec<Option<MutantOutcome>> = vec![None; mutants.len()];
        // What the batches learned of each mutant: the tests it passed there, which its
        // own runs leave out, the time they took, and whether it may join another batch
        // (not after a batch could not vouch for it).
        let mut passed: Vec<Vec<usize>> = vec![Vec::new(); mutants.len()];
        let mut spent: Vec<f64> = vec![0.0; mutants.len()];
        let mut batching: Vec<bool> = vec![self.batch; mutants.len()];
        for _ in 0..BATCH_ROUNDS {
            let eligible = |i: usize| batching[i] && outcomes[i].is_none();
            let batches = self.pack(mutants, eligible, &passed, &catchers);
            if batches.is_empty() {
                break;
            }
            let verdicts = crate::process::pool::run(
                &batches,
                jobs,
                |batch| self.run_batch(batch, mutants),
                |r| r.is_err() || interrupt::interrupted(),
            );
            for (batch, verdicts) in batches.iter().zip(verdicts) {
                let Some((verdicts, share)) = verdicts.transpose()?.flatten() else { continue };
                for (&(i, _), verdict) in batch.runs.iter().zip(verdicts) {
                    let (mutant, tests) = &mutants[i];
                    spent[i] += share;
                    match verdict {
                        Verdict::Caught { test, detail } => {
                            catchers.add(mutant.site, [test].into_iter());
                            outcomes[i] = Some(MutantOutcome {
                                mutant: (*mutant).clone(),
                                outcome: Outcome::Caught,
                                tests_run: passed[i].len() + 1,
                                failing_tests: vec![self.cases[test].name.clone()],
                                covered_by: covered_by(tests),
                                killed_by: vec![test],
                                seconds: spent[i],
                                detail: Some(detail),
                                lint_risk: None,
                                previously_caught: false,
                                from_history: false,
                            });
                            console.step(&mutant.name());
                        }
                        Verdict::Passed(test) => passed[i].push(test),
                        Verdict::Unknown => batching[i] = false,
                    }
                }
            }
            if interrupt::interrupted() {
                return Ok(outcomes);
            }
        }
        let rest: Vec<usize> = (0..mutants.len()).filter(|&i| outcomes[i].is_none()).collect();
        let results = crate::process::pool::run(
            &rest,
            jobs,
            |&i| {
                let (mutant, tests) = &mutants[i];
                let mut r = self.run_one(mutant, tests, &passed[i], &catchers);
                if let Ok(Some(o)) = &mut r {
                    o.seconds += spent[i];
                    if matches!(o.outcome, Outcome::Missed | Outcome::Timeout) {
                        console.message(&format!("{:<8} {}", o.outcome.name().to_uppercase(), mutant.name()));
                    }
                    console.step(&mutant.name());
                }
                r
            },
            |r| r.is_err() || interrupt::interrupted(),
        );
        for (i, r) in rest.into_iter().zip(results) {
            outcomes[i] = r.transpose()?.flatten();
        }
        Ok(outcomes)
    }

    /// Run `mutant` against `tests`, but for `passed`, which it passed in batches.
    fn run_one(
        &self,
        mutant: &Mutant,
        tests: &[usize],
        passed: &[usize],
        catchers: &Catchers,
    ) -> Result<Option<MutantOutcome>> {
        if interrupt::interrupted() {
            return Ok(None);
        }
        let start = Instant::now();
        let log = self.log_dir.join(format!("{}.log", mutant.id));
        if passed.is_empty() {
            let _ = std::fs::remove_file(&log);
        }
        // Group by binary; run the binary whose tests took least time first.
        let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &t in tests.iter().filter(|t| !passed.contains(t)) {
            groups.entry(self.cases[t].binary).or_default().push(t);
        }
        let mut groups: Vec<Vec<usize>> = groups
            .into_values()
            .flat_map(|g| g.chunks(MAX_FILTERS).map(<[usize]>::to_vec).collect::<Vec<_>>())
            .collect();
        // The site's other mutants were caught by these tests: this one most likely is too.
        let known = catchers.of(mutant.site, tests);
        groups.sort_by_key(|g| {
            let time = g.iter().map(|&t| self.records[t].duration).sum::<Duration>();
            (!g.iter().any(|t| known.contains(t)), time)
        });
        // libtest runs every test it is given, even after a failure: the best catcher
        // alone first, when the rest of its process would cost more than a process start.
        let probe = known
            .first()
            .copied()
            .filter(|&t| groups.first().is_some_and(|g| g.len() > 1 && self.rest_outweighs_a_start(g, t)));
        if let Some(t) = probe {
            groups[0].retain(|&x| x != t);
            groups.insert(0, vec![t]);
        }
        let mut tests_run = passed.len();
        // A timeout in one group does not end the mutant: a later group may catch it,
        // and a catch is the stronger verdict.
        let mut timed_out: Option<String> = None;
        let mut i = 0;
        while i < groups.len() {
            let group = groups[i].clone();
            i += 1;
            let bin = &self.binaries[self.cases[group[0]].binary];
            let (mut cmd, timeout) = self.command(&group);
            cmd.env(env::ACTIVE, mutant.id.to_string()).env(env::ON_EXHAUST, "exit");
            let log_start = std::fs::metadata(&log).map_or(0, |m| m.len());
            let (mut exit, _) = process::run(&mut cmd, timeout, Some(&log), &self.limits.caps)?;
            // Exit code 0 passes only with libtest's word that every selected test passed.
            if exit.success() && !all_passed(bin, group.len(), &log_since(&log, log_start)) {
                exit = Exit::NoVerdict;
            }
            if interrupt::interrupted() {
                // Killed by the interrupt, or not: either way not a verdict.
                return Ok(None);
            }
            tests_run += group.len();
            let probing = probe.is_some() && i == 1;
            // A test panicked, then its thread ran out of fuel: a property-test runner
            // shrinking the input the mutant made fail. A catch, unless one of these
            // tests panics unmutated too (`should_panic`, a caught panic).
            let failed_then_ran_out = exit == Exit::Code(EXHAUSTED_AFTER_PANIC_EXIT_CODE)
                && group.iter().all(|&t| self.records[t].seen.panics == 0);
            // A catch: the failing tests' names, which of this group's tests they are, and
            // how the process ended.
            let caught: Option<(Vec<String>, Vec<usize>, String)> = match exit {
                Exit::Code(0) => None,
                _ if failed_then_ran_out => {
                    let text = log_since(&log, log_start);
                    let thread = text.lines().rev().find_map(|l| l.trim().strip_prefix(AFTER_PANIC_IN));
                    let killed_by: Vec<usize> = match group.as_slice() {
                        [one] => vec![*one],
                        _ => group
                            .iter()
                            .copied()
                            .filter(|&t| Some(self.cases[t].name.as_str()) == thread)
                            .collect(),
                    };
                    let failing = killed_by.iter().map(|&t| self.cases[t].name.clone()).collect();
                    let how = "a test failed, then ran out of fuel (a property test shrinking its input)";
                    Some((failing, killed_by, format!("{} :: {how}", bin.target)))
                }
                // The probe decides only a catch: anything else runs it again with the
                // rest of its process, under that process's budget, as without the probe.
                _ if probing
                    && (exit == Exit::TimedOut
                        || exit == Exit::Code(EXHAUSTED_EXIT_CODE)
                        || exit == Exit::Code(EXHAUSTED_AFTER_PANIC_EXIT_CODE)
                        || exhausted_in_log(&log, log_start, mutant.id)) =>
                {
                    tests_run -= group.len();
                    groups[1].insert(0, group[0]);
                    None
                }
                Exit::Code(EXHAUSTED_EXIT_CODE) => {
                    timed_out = Some(exhausted_detail(&log_since(&log, log_start), mutant.id).to_owned());
                    None
                }
                Exit::Code(EXHAUSTED_AFTER_PANIC_EXIT_CODE) => {
                    let limit = exhausted_detail(&log_since(&log, log_start), mutant.id);
                    timed_out =
                        Some(format!("{limit} after a panic (a test of the run panics unmutated too)"));
                    None
                }
                Exit::TimedOut => {
                    timed_out = Some(format!("killed after {:.1}s", timeout.as_secs_f64()));
                    None
                }
                // A test process run by another (a doctest under rustdoc, a child the test
                // spawned) that exhausted its limit shows up as a plain failure: the
                // run-time's line in the output tells.
                _ if exhausted_in_log(&log, log_start, mutant.id) => {
                    timed_out = Some(exhausted_detail(&log_since(&log, log_start), mutant.id).to_owned());
                    None
                }
                other => {
                    let failing = failed_tests(&std::fs::read_to_string(&log).unwrap_or_default());
                    let killed_by =
                        group.iter().copied().filter(|&t| failing.contains(&self.cases[t].name)).collect();
                    Some((failing, killed_by, format!("{} :: {other}", bin.target)))
                }
            };
            if let Some((failing_tests, killed_by, detail)) = caught {
                catchers.add(mutant.site, killed_by.iter().copied());
                return Ok(Some(MutantOutcome {
                    mutant: mutant.clone(),
                    outcome: Outcome::Caught,
                    tests_run,
                    failing_tests,
                    covered_by: covered_by(tests),
                    killed_by,
                    seconds: start.elapsed().as_secs_f64(),
                    detail: Some(detail),
                    lint_risk: None,
                    previously_caught: false,
                    from_history: false,
                }));
            }
        }
        Ok(Some(MutantOutcome {
            mutant: mutant.clone(),
            outcome: if timed_out.is_some() { Outcome::Timeout } else { Outcome::Missed },
            tests_run,
            failing_tests: Vec::new(),
            covered_by: covered_by(tests),
            killed_by: Vec::new(),
            seconds: start.elapsed().as_secs_f64(),
            detail: timed_out,
            lint_risk: None,
            previously_caught: false,
            from_history: false,
        }))
    }
}

impl Lab<'_> {
    /// The process that runs `tests` (of one binary), with the limits of a mutant run
    /// and its wall-clock timeout; the caller says which mutants run.
    pub(super) fn command(&self, tests: &[usize]) -> (Command, Duration) {
        let bin = &self.binaries[self.cases[tests[0]].binary];
        let names: Vec<&str> = tests.iter().map(|&t| self.cases[t].filter.as_str()).collect();
        let fuel: u64 = tests.iter().map(|&t| self.records[t].seen.fuel).sum();
        let depth: usize = tests.iter().map(|&t| self.records[t].seen.depth).max().unwrap_or(0);
        let time: Duration = tests.iter().map(|&t| self.records[t].duration).sum();
        let m = self.limits.multiplier;
        let (fuel_limit, depth_limit) = Budget::test(m).limits(fuel, depth);
        // libtest runs each test on a thread named after it: that thread may spend
        // what its test may, so a runaway test ends after its own share of the
        // budget, not after the whole process's. Other threads (ones a test spawns)
        // may spend what the costliest test may.
        let costliest: u64 = tests.iter().map(|&t| self.records[t].seen.fuel).max().unwrap_or(0);
        let mut thread_fuel = Budget::test(m).limits(costliest, depth).0.to_string();
        for &t in tests {
            let name = &self.cases[t].name;
            if named_safely(name) {
                let cap = Budget::test(m).limits(self.records[t].seen.fuel, depth).0;
                thread_fuel.push_str(&format!(";{name}={cap}"));
            }
        }
        let timeout = time.mul_f64(m).max(self.limits.minimum_timeout);
        let mut cmd = test_command(bin, &names);
        self.sandbox.apply(&mut cmd);
        cmd.env(env::FUEL, fuel_limit.to_string())
            .env(env::THREAD_FUEL, &thread_fuel)
            .env(env::DEPTH, depth_limit.to_string())
            .env_remove(env::RECORD);
        (cmd, timeout)
    }

    /// Would running `group` without test `t` cost more than starting one more process?
    /// A baseline record's time is a whole process running one test: the cheapest such
    /// process of the binary stands for the start-up, the rest of a record is its test.
    fn rest_outweighs_a_start(&self, group: &[usize], t: usize) -> bool {
        let start = self.process_starts()[&self.cases[t].binary];
        let rest: Duration =
            group.iter().filter(|&&x| x != t).map(|&x| self.records[x].duration.saturating_sub(start)).sum();
        rest > start
    }
}

impl Lab<'_> {
    /// What starting a process of each binary costs: a baseline record's time is a whole
    /// process running one test, so the binary's cheapest record stands for its start.
    pub(super) fn process_starts(&self) -> HashMap<usize, Duration> {
        let mut starts: HashMap<usize, Duration> = HashMap::new();
        for (case, record) in self.cases.iter().zip(self.records) {
            let s = starts.entry(case.binary).or_insert(record.duration);
            *s = (*s).min(record.duration);
        }
        starts
    }
}

/// Can a run-time table (`name=value;…`) name a thread called `name`?
pub(super) fn named_safely(name: &str) -> bool {
    !name.contains(['=', ';'])
}

/// Which tests caught mutants of each site so far, the latest first (shared by the
/// workers; taken once per mutant, never while a test runs).
#[derive(Default)]
pub(super) struct Catchers(Mutex<HashMap<u32, Vec<usize>>>);

impl Catchers {
    /// The catchers of `site` among `tests`.
    pub(super) fn of(&self, site: u32, tests: &[usize]) -> Vec<usize> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&site).map(|c| c.iter().copied().filter(|t| tests.contains(t)).collect()).unwrap_or_default()
    }

    /// `tests` caught a mutant of `site`.
    pub(super) fn add(&self, site: u32, tests: impl Iterator<Item = usize>) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let known = map.entry(site).or_default();
        for t in tests {
            known.retain(|&k| k != t);
            known.insert(0, t);
        }
    }
}

/// Did a process of this run (from byte `from` of the log on) end for exhausting a
/// limit with `mutant` active? The run-time prints one line, `Exhausted`'s rendering,
/// before it exits with [`EXHAUSTED_EXIT_CODE`]; the line is made by the run-time's own
/// `Display`, so it is matched whole and for this mutant only, never by a fragment of
/// its wording.
fn exhausted_in_log(log: &Path, from: u64, mutant: u32) -> bool {
    exhausted_in(&log_since(log, from), mutant)
}

/// Which limit the run-time's line in `output` says `mutant` ran out of, in words.
fn exhausted_detail(output: &str, mutant: u32) -> &'static str {
    match exhausted_limit(output, mutant) {
        Some(Limit::Depth) => "stack depth exhausted",
        Some(Limit::Fuel) => "fuel exhausted",
        None => "fuel or depth exhausted",
    }
}

/// Does `output` hold the run-time's line for `mutant` exhausting a limit (see
/// [`exhausted_in_log`])?
pub(super) fn exhausted_in(output: &str, mutant: u32) -> bool {
    exhausted_limit(output, mutant).is_some()
}

/// The limit of the run-time's line in `output` for `mutant`, if there is one.
fn exhausted_limit(output: &str, mutant: u32) -> Option<Limit> {
    let markers = [Limit::Fuel, Limit::Depth].map(|limit| (limit, Exhausted { mutant, limit }.to_string()));
    // libtest's `-q` progress (`..F`) has no newline of its own: the line may follow it.
    output
        .lines()
        .map(|l| l.trim().trim_start_matches(['.', 'F', 'i']))
        .find_map(|l| markers.iter().find(|(_, m)| l == m).map(|(limit, _)| *limit))
}

/// Names of the tests libtest reported as failed: the list after its last `failures:`
/// line (`test name ... FAILED` lines are not printed with `-q`). Doctest names have
/// spaces, so a name is the whole indented line.
pub(super) fn failed_tests(output: &str) -> Vec<String> {
    let lines: Vec<&str> = output.lines().collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exhaustion_is_the_run_times_whole_line_for_this_mutant() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("5.log");
        let line = Exhausted { mutant: 5, limit: Limit::Depth }.to_string();
        std::fs::write(&log, format!("earlier run\n---- doctest stdout ----\nstderr:\n  {line}\nFAILED\n"))
            .unwrap();
        assert!(exhausted_in_log(&log, 0, 5));
        assert!(!exhausted_in_log(&log, 0, 6), "another mutant's line");
        std::fs::write(&log, format!("{line}\nthe next run's output\n")).unwrap();
        assert!(!exhausted_in_log(&log, line.len() as u64 + 1, 5), "before this run's part of the log");
        std::fs::write(&log, format!("running 3 tests\n.F{line}\n")).unwrap();
        assert!(exhausted_in_log(&log, 0, 5), "after libtest's progress");
        std::fs::write(&log, format!("assertion failed: {line} was expected\n")).unwrap();
        assert!(!exhausted_in_log(&log, 0, 5), "a fragment is not the line");
    }
}
