//! `cargo mutfuzz score`: run a corpus against every viable mutant with a generous budget
//! (the harness's `score` command), under the same supervision as `fuzz`: a crash or hang
//! kills the mutant running, which is recorded and the harness restarted; it resumes
//! after the mutants already scored. Prints the table and writes `score.json`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::{Value, json};

use crate::exit_code;
use crate::fuzz_cmd::{MAX_STALLED_RESTARTS, count_files};
use crate::harness::{self, write_atomic};
use crate::options::ScoreArgs;
use crate::process::Exit;
use crate::protocol::Line;
use crate::records;
use crate::status::percent;
use crate::supervise::{self, Ending};

/// Follows one harness process's `score` output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScoreTracker {
    /// The mutant being scored.
    pub mutant: Option<u32>,
    /// The stored input running on it.
    pub input: Option<String>,
}

impl ScoreTracker {
    /// Take in one line.
    pub fn observe(&mut self, line: Line) {
        // The harness runs each stored input's original, then the undecided mutants
        // whose site it reaches: `input` starts an original run, `mutant` a mutant run.
        match line {
            Line::Mutant(id) => self.mutant = Some(id),
            Line::Input(name) => {
                self.input = Some(name);
                self.mutant = None;
            }
            _ => {}
        }
    }
}

/// The numbers of the score table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Table {
    /// Killed because the output differed.
    pub output_differs: u64,
    /// Killed by a panic.
    pub panic: u64,
    /// Killed by running out of fuel, depth or wall time.
    pub timeout: u64,
    /// Killed by a crash of the process.
    pub crash: u64,
    /// Killed because it discarded an input the original accepted (or the reverse).
    pub discard: u64,
    /// Reached by some input, killed by none.
    pub survived: u64,
    /// No input reaches the site.
    pub not_covered: u64,
    /// Does not compile.
    pub unviable: u64,
    /// Every mutant.
    pub total: u64,
}

impl Table {
    /// Mutants killed, by any kind.
    pub fn killed(&self) -> u64 {
        self.output_differs + self.panic + self.timeout + self.crash + self.discard
    }

    /// Killed over viable mutants.
    pub fn score(&self) -> String {
        percent(self.killed(), self.total - self.unviable)
    }

    /// Count one outcome line of the harness.
    fn count(&mut self, line: &Value) {
        match (line["outcome"].as_str(), line["kind"].as_str()) {
            (Some("killed"), Some("output-differs")) => self.output_differs += 1,
            (Some("killed"), Some("panic")) => self.panic += 1,
            (Some("killed"), Some("timeout")) => self.timeout += 1,
            (Some("killed"), Some("crash")) => self.crash += 1,
            (Some("killed"), Some("discard")) => self.discard += 1,
            (Some("survived"), _) => self.survived += 1,
            _ => self.not_covered += 1,
        }
        self.total += 1;
    }

    /// The table as printed.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let rows = [
            ("killed by output", self.output_differs),
            ("killed by panic", self.panic),
            ("killed by timeout", self.timeout),
            ("killed by crash", self.crash),
            ("killed by discard", self.discard),
            ("survived", self.survived),
            ("not covered", self.not_covered),
            ("unviable", self.unviable),
        ];
        for (what, n) in rows {
            let _ = writeln!(out, "{what:<20}{n:>6}");
        }
        let _ = writeln!(out, "{:<20}{:>6}", "total", self.total);
        let _ = writeln!(
            out,
            "score {} ({} killed of {} viable mutants)",
            self.score(),
            self.killed(),
            self.total - self.unviable
        );
        out
    }
}

#[derive(Serialize)]
struct MutantScore {
    id: u32,
    name: String,
    outcome: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input: Option<String>,
}

#[derive(Serialize)]
struct ScoreFile<'a> {
    target: &'a str,
    corpus: &'a Path,
    inputs: usize,
    seconds: f64,
    summary: &'a Table,
    score_percent: f64,
    mutants: Vec<MutantScore>,
}

/// Run the command; returns the exit code.
pub fn run(args: &ScoreArgs) -> Result<i32> {
    supervise::stop_on_interrupt();
    if !args.hang_timeout.is_finite() || args.hang_timeout <= 0.0 {
        return Err(exit_code::usage(anyhow::anyhow!("--hang-timeout must be a positive number of seconds")));
    }
    let start = Instant::now();
    let built = harness::build(&args.package, &args.target)?;
    let corpus = match &args.corpus {
        Some(dir) => std::path::absolute(dir)?,
        None => built.default_corpus(&args.target),
    };
    if !corpus.is_dir() {
        return Err(exit_code::usage(anyhow::anyhow!(
            "no corpus at {}: run `cargo mutfuzz fuzz {}` first, or pass --corpus DIR",
            corpus.display(),
            args.target
        )));
    }
    let inputs = count_files(&corpus);
    let out = built.state.join("score.jsonl");
    // A new score: the corpus may have changed since the last one.
    if out.exists() {
        std::fs::remove_file(&out).with_context(|| format!("failed to remove {}", out.display()))?;
    }
    let viable = built.viable().count();
    eprintln!("Scoring {} viable mutants on {inputs} inputs from {}", viable, corpus.display());
    let hang = Duration::from_secs_f64(args.hang_timeout);
    let log = built.state.join("harness.log");
    let mut stalled = 0u32;
    loop {
        let a: [&OsStr; 8] = [
            "score".as_ref(),
            args.target.as_ref(),
            "--corpus".as_ref(),
            corpus.as_os_str(),
            "--mutants".as_ref(),
            built.viable_catalog.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ];
        let tracker = RefCell::new(ScoreTracker::default());
        let scored = RefCell::new(0usize);
        let mut last_note = Instant::now();
        let outcome = supervise::run(
            built.command(&a),
            hang,
            &log,
            &mut |line| {
                if matches!(line, Line::Mutant(_)) {
                    *scored.borrow_mut() += 1;
                }
                tracker.borrow_mut().observe(line);
            },
            &mut || {
                if last_note.elapsed() >= Duration::from_secs(5) {
                    eprintln!("scoring: mutant {} of {viable}", scored.borrow());
                    last_note = Instant::now();
                }
            },
        )?;
        let t = tracker.into_inner();
        match outcome.ending {
            Ending::Interrupted => {
                eprintln!("interrupted: the score is incomplete");
                return Ok(130);
            }
            Ending::Exited(Exit::Code(0)) => break,
            Ending::Exited(Exit::Code(2)) if t.mutant.is_none() => {
                return Err(exit_code::usage(anyhow::anyhow!(
                    "the harness refused to score (exit code 2):\n{}",
                    outcome.stderr_tail.join("\n")
                )));
            }
            ending => {
                let how = ending.describe();
                let recorded = match t.mutant {
                    Some(id) if !records::read_lines(&out)?.iter().any(|l| l["mutant"] == id) => {
                        let kind = if matches!(ending, Ending::Hung(_)) { "timeout" } else { "crash" };
                        records::append_line(
                            &out,
                            &json!({"mutant": id, "outcome": "killed", "kind": kind, "input": t.input}),
                        )?;
                        eprintln!("mutant {id} killed by {kind} ({how}); restarting the harness");
                        true
                    }
                    _ => false,
                };
                stalled = if recorded { 0 } else { stalled + 1 };
                if stalled >= MAX_STALLED_RESTARTS {
                    bail!(
                        "the harness died {stalled} times in a row without scoring a mutant (last: {how}); \
                         its log is {}:\n{}",
                        log.display(),
                        outcome.stderr_tail.join("\n")
                    );
                }
            }
        }
    }

    let lines = records::read_lines(&out)?;
    let mut by_id: HashMap<u32, &Value> = HashMap::new();
    for l in &lines {
        if let Some(id) = l["mutant"].as_u64() {
            by_id.entry(id as u32).or_insert(l);
        }
    }
    let mut table = Table::default();
    let mut mutants = Vec::new();
    let mut missing = Vec::new();
    for m in &built.discovery.mutants {
        let (outcome, kind, input) = if built.unviable.contains_key(&m.id) {
            table.unviable += 1;
            table.total += 1;
            ("unviable".to_owned(), None, None)
        } else if let Some(l) = by_id.get(&m.id) {
            table.count(l);
            let s = |k: &str| l[k].as_str().map(str::to_owned);
            (s("outcome").unwrap_or_default(), s("kind"), s("input"))
        } else {
            missing.push(m.id);
            continue;
        };
        mutants.push(MutantScore { id: m.id, name: m.name(), outcome, kind, input });
    }
    if !missing.is_empty() {
        bail!(
            "the harness ended without scoring {} mutants (first: {}); see {}",
            missing.len(),
            missing[0],
            log.display()
        );
    }
    print!("{}", table.render());
    let viable_n = table.total - table.unviable;
    let file = ScoreFile {
        target: &args.target,
        corpus: &corpus,
        inputs,
        seconds: start.elapsed().as_secs_f64(),
        summary: &table,
        score_percent: if viable_n == 0 { 0.0 } else { table.killed() as f64 * 100.0 / viable_n as f64 },
        mutants,
    };
    let path: PathBuf = built.state.join("score.json");
    write_atomic(&path, &(serde_json::to_string_pretty(&file)? + "\n"))?;
    eprintln!("Scores in {}", path.display());
    Ok(exit_code::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tracker_follows_mutants_and_inputs() {
        let mut t = ScoreTracker::default();
        for l in ["input aa", "mutant 3", "mutant 4"] {
            t.observe(crate::protocol::parse(l));
        }
        assert_eq!(t, ScoreTracker { mutant: Some(4), input: Some("aa".into()) });
        // A new input: its original runs, no mutant is to blame yet.
        t.observe(crate::protocol::parse("input bb"));
        assert_eq!(t, ScoreTracker { mutant: None, input: Some("bb".into()) });
    }

    #[test]
    fn the_table_adds_up() {
        let mut t = Table::default();
        for l in [
            json!({"outcome": "killed", "kind": "output-differs"}),
            json!({"outcome": "killed", "kind": "panic"}),
            json!({"outcome": "killed", "kind": "crash"}),
            json!({"outcome": "survived"}),
            json!({"outcome": "not-covered"}),
        ] {
            t.count(&l);
        }
        t.unviable += 1;
        t.total += 1;
        assert_eq!((t.killed(), t.total, t.score()), (3, 6, "60.0%".to_owned()));
        let text = t.render();
        assert!(text.contains("killed by crash          1\n"), "{text}");
        assert!(text.contains("total                    6\n"), "{text}");
        assert!(text.ends_with("score 60.0% (3 killed of 5 viable mutants)\n"), "{text}");
    }
}
