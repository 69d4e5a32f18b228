//! `cargo mutfuzz eval`: compare fuzzing configurations the way the Mu2 paper does. The
//! harness is built once; each configuration × seed fuzzes for the same wall time into a
//! corpus of its own; every corpus is scored on the same mutants; then the per-config
//! numbers and Table I (mutants killed by any / all repetitions of one configuration and
//! none of another) are printed and written to `target/mutfuzz/eval/<target>/eval.json`.
//! With `--all` a run is `fuzz --all` over every target of the harness within the time,
//! scored as `score --all` combines (a mutant is killed if any target's corpus kills
//! it), in `target/mutfuzz/eval/@all/`.
//!
//! With `--survivors` the runs aim at what `cargo mutfuzz test` left alive, as `amplify`
//! does: every target (the harness's, or one generated from the API when there is none)
//! is fuzzed with `--mutants-file` naming the survivors, and a corpus's score counts the
//! survivors it kills; the default configurations are then `infection` and `mu2`.
//!
//! A configuration is data: a name and the `fuzz` arguments it adds, so a new strategy
//! flag of `fuzz` is a new configuration without a change here.

use std::collections::{BTreeSet, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Parser;
use mutfuzz_contract::{CampaignDir, GuidanceKind, KillKind, Stats, write_atomic};
use serde::Serialize;

use crate::amplify::survivors::Survivors;
use crate::catalog::selection::Selection;
use crate::commands::options::{Cli, Command, EvalArgs, FuzzArgs};
use crate::console::exit_code;
use crate::fuzzing::harness::{self, Built};
use crate::fuzzing::settings::FuzzSettings;
use crate::fuzzing::{self, Files, Stop, all};
use crate::process::interrupt;
use crate::report::score_file::{FuzzOutcome, MutantScore, ScoreFile};
use crate::score;

/// How long the harness may print nothing while it scores a mutant.
const SCORE_HANG: Duration = Duration::from_secs(30);

/// `fuzz` flags that the evaluation sets itself, so a configuration may not.
const OWN_FLAGS: [&str; 8] =
    ["--seed", "--time", "--trials", "--corpus", "--manifest-path", "--package", "-p", "--all"];

/// One configuration: a name and the `fuzz` arguments it adds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EvalConfig {
    /// Its name, in reports and as a directory name.
    pub name: String,
    /// `fuzz` arguments, as words.
    pub args: Vec<String>,
}

impl EvalConfig {
    /// Parse `NAME=ARGS` (ARGS split at white space; no quoting).
    pub fn parse(text: &str) -> Result<EvalConfig, String> {
        let Some((name, args)) = text.split_once('=') else {
            return Err(format!("--config {text:?}: write NAME=ARGS, as in mu2=\"--guidance mu2\""));
        };
        let name = name.trim();
        let ok_name = !name.is_empty()
            && !name.starts_with('.')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        if !ok_name {
            return Err(format!("--config {text:?}: a name is letters, digits, `_`, `-` and `.`"));
        }
        let args: Vec<String> = args.split_whitespace().map(str::to_owned).collect();
        if let Some(a) = args.iter().find(|a| a.contains(['"', '\''])) {
            return Err(format!("--config {name}: quotes are not supported in the arguments ({a})"));
        }
        for a in &args {
            let flag = a.split('=').next().unwrap_or(a);
            if OWN_FLAGS.contains(&flag) {
                return Err(format!(
                    "--config {name}: {flag} is set by eval itself (--seeds, --first-seed, --time, --manifest-path, --all)"
                ));
            }
        }
        Ok(EvalConfig { name: name.to_owned(), args })
    }

    /// The default set: one configuration per guidance, named after it, then the input
    /// strategies under the default guidance: `structure` (`--edit structure`) and
    /// `mutagen` (`--schedule mutagen`).
    pub fn defaults() -> Vec<EvalConfig> {
        let mut configs: Vec<EvalConfig> = GuidanceKind::ALL.map(EvalConfig::guidance).to_vec();
        for (name, flag, value) in
            [("structure", "--edit", "structure"), ("mutagen", "--schedule", "mutagen")]
        {
            configs.push(EvalConfig { name: name.into(), args: vec![flag.into(), value.into()] });
        }
        configs
    }

    /// One configuration per input strategy, each alone, then all together: `havoc`
    /// (Zest's byte edits only), `dictionary`, `compare`, `target-types`, `all`.
    pub fn input_strategies() -> Vec<EvalConfig> {
        let config = |name: &str, args: &str| EvalConfig {
            name: name.to_owned(),
            args: args.split_whitespace().map(str::to_owned).collect(),
        };
        vec![
            config("havoc", "--dictionary 0 --compare 0"),
            config("dictionary", "--dictionary 0.1 --compare 0"),
            config("compare", "--dictionary 0 --compare 0.2"),
            config("target-types", "--dictionary 0 --compare 0 --target-types"),
            config("all", "--dictionary 0.1 --compare 0.2 --target-types"),
        ]
    }

    /// The default set of `--survivors`: the infection feedback against plain Mu2.
    pub fn survivor_defaults() -> Vec<EvalConfig> {
        [GuidanceKind::Infection, GuidanceKind::Mu2].map(EvalConfig::guidance).to_vec()
    }

    /// The guidance `kind` alone, named after it.
    fn guidance(kind: GuidanceKind) -> EvalConfig {
        EvalConfig { name: kind.name().to_owned(), args: vec!["--guidance".into(), kind.name().into()] }
    }

    /// Its `fuzz` arguments for one run, parsed as `cargo mutfuzz fuzz` parses them
    /// (`fuzz --all` for the target `""`).
    pub fn fuzz_args(&self, target: &str, seed: u64, time: Duration) -> Result<FuzzArgs, String> {
        let target = if target.is_empty() { "--all" } else { target };
        let mut argv: Vec<String> = vec!["cargo-mutfuzz".into(), "fuzz".into(), target.into()];
        argv.extend(self.args.iter().cloned());
        argv.extend(["--seed".into(), seed.to_string(), "--time".into(), format!("{}s", time.as_secs_f64())]);
        match Cli::try_parse_from(&argv) {
            Ok(Cli { command: Command::Fuzz(a) }) => Ok(a),
            Ok(_) => unreachable!("the first word is `fuzz`"),
            Err(e) => Err(format!(
                "--config {}: not `fuzz` arguments: {}",
                self.name,
                e.render().to_string().trim()
            )),
        }
    }
}

/// One campaign of one configuration, and its corpus's score.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// The seed.
    pub seed: u64,
    /// Seconds of fuzzing.
    pub seconds: f64,
    /// Trials run.
    pub trials: u64,
    /// Trials per second.
    pub trials_per_sec: f64,
    /// Trials whose input the original discarded (`assume`).
    pub discards: u64,
    /// Trials per second whose input was not discarded.
    pub valid_per_sec: f64,
    /// Inputs in the corpus.
    pub corpus: usize,
    /// Edges the corpus covers (the engine's count at the end).
    pub edges: usize,
    /// Mutant runs made while fuzzing.
    pub mutant_runs: u64,
    /// The score (absent with `--no-score`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<RunScore>,
}

/// A corpus's score.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RunScore {
    /// Mutants killed.
    pub killed: u64,
    /// Of them, killed because the output differed.
    pub output_differs: u64,
    /// Reached, not killed.
    pub survived: u64,
    /// Not reached.
    pub not_covered: u64,
    /// The ids killed.
    pub killed_ids: BTreeSet<u32>,
    /// The ids reached (killed or survived).
    #[serde(skip)]
    pub reached_ids: BTreeSet<u32>,
}

/// A configuration's runs and their means.
#[derive(Clone, Debug, Serialize)]
pub struct ConfigReport {
    /// The configuration.
    #[serde(flatten)]
    pub config: EvalConfig,
    /// One per seed.
    pub runs: Vec<RunReport>,
    /// Mean mutants killed over the runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_killed: Option<f64>,
    /// Kills by output difference over all kills, over the runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_differs_share: Option<f64>,
    /// Mean edges covered.
    pub mean_edges: f64,
    /// Mean trials per second.
    pub mean_trials_per_sec: f64,
    /// Mean trials per second whose input was not discarded.
    pub mean_valid_per_sec: f64,
}

/// Table I of the Mu2 paper for one pair of configurations.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pair {
    /// The first configuration.
    pub a: String,
    /// The second.
    pub b: String,
    /// Killed by any run of `a` and no run of `b`.
    pub any_a_no_b: u64,
    /// Killed by every run of `a` and no run of `b`.
    pub all_a_no_b: u64,
    /// Killed by any run of `b` and no run of `a`.
    pub any_b_no_a: u64,
    /// Killed by every run of `b` and no run of `a`.
    pub all_b_no_a: u64,
}

/// The whole evaluation, as written to `eval.json`.
#[derive(Clone, Debug, Serialize)]
pub struct EvalReport {
    /// The fuzz target (`--all`: every target, listed in `targets`).
    pub target: String,
    /// With `--all`, the targets each run fuzzed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub targets: Option<Vec<String>>,
    /// Seconds of fuzzing per run.
    pub seconds_per_run: f64,
    /// The seeds of every configuration.
    pub seeds: Vec<u64>,
    /// Viable mutants (each count below is at most this); with `--survivors`, the
    /// survivors of `cargo mutfuzz test` that are viable with the harness.
    pub viable: u64,
    /// Whether the runs aimed at the survivors of `cargo mutfuzz test` only.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub survivors: bool,
    /// Unviable mutants.
    pub unviable: u64,
    /// Mutants reached by some run of some configuration (the paper's "executed").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reached_by_any: Option<u64>,
    /// Mutants killed by some run of some configuration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub killed_by_any: Option<u64>,
    /// Per configuration.
    pub configs: Vec<ConfigReport>,
    /// Table I, for each pair of configurations (in the order given).
    pub pairs: Vec<Pair>,
}

/// The scores of a configuration's runs.
fn scores(c: &ConfigReport) -> Vec<&RunScore> {
    c.runs.iter().filter_map(|r| r.score.as_ref()).collect()
}

/// The killed sets of a configuration's runs.
fn killed_sets(c: &ConfigReport) -> Vec<&BTreeSet<u32>> {
    scores(c).into_iter().map(|s| &s.killed_ids).collect()
}

/// Table I for configurations `a` and `b`, from each run's killed set.
pub fn compare(a: &str, a_runs: &[&BTreeSet<u32>], b: &str, b_runs: &[&BTreeSet<u32>]) -> Pair {
    let any =
        |runs: &[&BTreeSet<u32>]| -> BTreeSet<u32> { runs.iter().flat_map(|r| r.iter().copied()).collect() };
    let all = |runs: &[&BTreeSet<u32>]| -> BTreeSet<u32> {
        let mut it = runs.iter();
        let Some(first) = it.next() else { return BTreeSet::new() };
        it.fold((*first).clone(), |acc, r| acc.intersection(r).copied().collect())
    };
    let (any_a, any_b) = (any(a_runs), any(b_runs));
    let (all_a, all_b) = (all(a_runs), all(b_runs));
    let count = |s: &BTreeSet<u32>, none: &BTreeSet<u32>| s.difference(none).count() as u64;
    Pair {
        a: a.to_owned(),
        b: b.to_owned(),
        any_a_no_b: count(&any_a, &any_b),
        all_a_no_b: count(&all_a, &any_b),
        any_b_no_a: count(&any_b, &any_a),
        all_b_no_a: count(&all_b, &any_a),
    }
}

impl EvalReport {
    /// Fill in the means, the totals and the pairs from the runs.
    fn summarize(&mut self) {
        for c in &mut self.configs {
            let n = c.runs.len().max(1) as f64;
            c.mean_edges = c.runs.iter().map(|r| r.edges as f64).sum::<f64>() / n;
            c.mean_trials_per_sec = c.runs.iter().map(|r| r.trials_per_sec).sum::<f64>() / n;
            c.mean_valid_per_sec = c.runs.iter().map(|r| r.valid_per_sec).sum::<f64>() / n;
            let done = scores(c);
            if !done.is_empty() && done.len() == c.runs.len() {
                let killed: u64 = done.iter().map(|s| s.killed).sum();
                let by_output: u64 = done.iter().map(|s| s.output_differs).sum();
                c.mean_killed = Some(killed as f64 / n);
                c.output_differs_share =
                    Some(if killed == 0 { 0.0 } else { by_output as f64 / killed as f64 });
            }
        }
        let scored = self.configs.iter().all(|c| c.mean_killed.is_some());
        if !scored {
            return;
        }
        let mut reached = HashSet::new();
        let mut killed = HashSet::new();
        for c in &self.configs {
            for s in scores(c) {
                reached.extend(s.reached_ids.iter().copied());
                killed.extend(s.killed_ids.iter().copied());
            }
        }
        self.reached_by_any = Some(reached.len() as u64);
        self.killed_by_any = Some(killed.len() as u64);
        self.pairs.clear();
        for (i, a) in self.configs.iter().enumerate() {
            for b in &self.configs[i + 1..] {
                self.pairs.push(compare(&a.config.name, &killed_sets(a), &b.config.name, &killed_sets(b)));
            }
        }
    }

    /// The tables as printed.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let w = self.configs.iter().map(|c| c.config.name.len()).max().unwrap_or(0).max(6);
        let _ = writeln!(
            out,
            "{:<w$}  {:>12}  {:<20}  {:>9}  {:>7}  {:>9}  {:>9}",
            "config", "killed(mean)", "killed per seed", "by output", "edges", "trials/s", "valid/s"
        );
        for c in &self.configs {
            let per_seed: Vec<String> = c
                .runs
                .iter()
                .map(|r| r.score.as_ref().map_or_else(|| "-".to_owned(), |s| s.killed.to_string()))
                .collect();
            let _ = writeln!(
                out,
                "{:<w$}  {:>12}  {:<20}  {:>9}  {:>7.0}  {:>9.0}  {:>9.0}",
                c.config.name,
                c.mean_killed.map_or_else(|| "-".to_owned(), |k| format!("{k:.1}")),
                per_seed.join(" "),
                c.output_differs_share.map_or_else(|| "-".to_owned(), |s| format!("{:.1}%", s * 100.0)),
                c.mean_edges,
                c.mean_trials_per_sec,
                c.mean_valid_per_sec
            );
        }
        if let (Some(reached), Some(killed)) = (self.reached_by_any, self.killed_by_any) {
            let what = if self.survivors { "survivors of `cargo mutfuzz test`" } else { "viable" };
            let _ = writeln!(
                out,
                "\nMutants: {} {what}; covered by any run {reached}; killed by any run {killed}",
                self.viable
            );
        }
        if !self.pairs.is_empty() {
            let _ = writeln!(out, "\nMutants killed by (Mu2 paper, Table I):");
            let _ = writeln!(
                out,
                "{:<w$}  {:<w$}  {:>11}  {:>11}  {:>11}  {:>11}",
                "A", "B", "any A no B", "all A no B", "any B no A", "all B no A"
            );
            for p in &self.pairs {
                let _ = writeln!(
                    out,
                    "{:<w$}  {:<w$}  {:>11}  {:>11}  {:>11}  {:>11}",
                    p.a, p.b, p.any_a_no_b, p.all_a_no_b, p.any_b_no_a, p.all_b_no_a
                );
            }
        }
        out
    }
}

/// Where one run keeps its corpus, its campaign state and its score lines (with `--all`,
/// a directory of each per target inside them).
struct RunDir {
    corpus: PathBuf,
    state: CampaignDir,
    score_lines: PathBuf,
}

impl RunDir {
    fn new(eval_dir: &std::path::Path, config: &str, seed: u64) -> RunDir {
        let dir = eval_dir.join(config).join(format!("seed-{seed}"));
        RunDir {
            corpus: dir.join("corpus"),
            state: CampaignDir::new(dir.join("state")),
            score_lines: dir.join("score.jsonl"),
        }
    }

    /// A target's corpus and campaign state in an `--all` run.
    fn of_target(&self, target: &str) -> Files {
        Files { state: CampaignDir::new(self.state.path().join(target)), corpus: self.corpus.join(target) }
    }

    /// A target's score lines in an `--all` run.
    fn score_lines_of(&self, target: &str) -> PathBuf {
        self.score_lines.with_file_name("score").join(format!("{target}.jsonl"))
    }
}

/// A run's numbers from its campaigns' last counters (one per target), summed.
fn run_report(seed: u64, elapsed: Duration, trials: u64, lasts: &[Stats], corpus: usize) -> RunReport {
    let secs = elapsed.as_secs_f64();
    let per_sec = |n: u64| if secs > 0.0 { n as f64 / secs } else { 0.0 };
    let discards: u64 = lasts.iter().map(|s| s.discards).sum();
    RunReport {
        seed,
        seconds: secs,
        trials,
        trials_per_sec: per_sec(trials),
        discards,
        valid_per_sec: per_sec(trials.saturating_sub(discards)),
        corpus,
        // Over targets: edges of different targets' harness processes, summed.
        edges: lasts.iter().map(|s| s.edges).sum(),
        mutant_runs: lasts.iter().map(|s| s.mutant_runs).sum(),
        score: None,
    }
}

/// Run the command; returns the exit code.
pub fn run(args: &EvalArgs) -> Result<i32> {
    interrupt::install();
    let configs = if args.input_strategies {
        EvalConfig::input_strategies()
    } else if args.configs.is_empty() && args.survivors {
        EvalConfig::survivor_defaults()
    } else if args.configs.is_empty() {
        EvalConfig::defaults()
    } else {
        args.configs
            .iter()
            .map(|c| EvalConfig::parse(c))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| exit_code::usage(anyhow::anyhow!(e)))?
    };
    let mut names = HashSet::new();
    for c in &configs {
        if !names.insert(c.name.as_str()) {
            return Err(exit_code::usage(anyhow::anyhow!(
                "--config {}: two configurations have this name",
                c.name
            )));
        }
        // Check every configuration before spending any time.
        c.fuzz_args(&args.target, 0, args.time).map_err(|e| exit_code::usage(anyhow::anyhow!(e)))?;
    }
    if args.seeds == 0 {
        return Err(exit_code::usage(anyhow::anyhow!("--seeds must be at least 1")));
    }
    let budget = FuzzSettings::from(&configs[0].fuzz_args("", 0, args.time).map_err(|e| anyhow::anyhow!(e))?);
    // Built once: every run fuzzes and is scored on the same schema and mutants.
    let (built, targets, aimed) = if args.survivors {
        let (built, targets, aimed) =
            build_for_survivors(args, &|n| all::budget(&budget, Some(n)).map(drop))?;
        (built, Some(targets), Some(aimed))
    } else if args.all {
        let (built, targets) = harness::build_all(&args.package, false, args.no_sandbox)?;
        (built, Some(targets), None)
    } else {
        (harness::build(&args.package, &args.target, false, args.no_sandbox)?, None, None)
    };
    if let Some(targets) = &targets {
        all::budget(&budget, Some(targets.len()))?;
    }
    // `@` is in no target's name: the whole harness's runs never mix with a target's.
    let eval_dir = built.layout.eval(match (args.survivors, args.all) {
        (true, _) => "@survivors",
        (false, true) => "@all",
        (false, false) => &args.target,
    });
    std::fs::create_dir_all(&eval_dir).with_context(|| format!("failed to create {}", eval_dir.display()))?;
    let seeds: Vec<u64> = (0..args.seeds).map(|i| args.first_seed.wrapping_add(i)).collect();
    let mut selection = Selection::all(&built.discovery.mutants);
    let mut mutants_file = None;
    if let Some(aimed) = &aimed {
        selection = selection.only(&built.discovery.mutants, aimed);
        let file = eval_dir.join("survivors.txt");
        let list: String = aimed.iter().map(|id| format!("{id}\n")).collect();
        write_atomic(&file, list.as_bytes())?;
        mutants_file = Some(file);
    }
    let viable = aimed.as_ref().map_or_else(|| built.viable().count(), BTreeSet::len) as u64;
    eprintln!(
        "Evaluating {}: {} configurations × {} seeds × {}s; {viable} viable mutants; runs in {}",
        targets
            .as_ref()
            .map_or_else(|| args.target.clone(), |t| format!("{} targets ({})", t.len(), t.join(", "))),
        configs.len(),
        seeds.len(),
        args.time.as_secs_f64(),
        eval_dir.display()
    );
    let mut report = EvalReport {
        target: if args.all { "--all".to_owned() } else { args.target.clone() },
        targets: targets.clone(),
        seconds_per_run: args.time.as_secs_f64(),
        seeds: seeds.clone(),
        viable,
        survivors: args.survivors,
        unviable: built.unviable.len() as u64,
        reached_by_any: None,
        killed_by_any: None,
        configs: configs
            .iter()
            .map(|c| ConfigReport {
                config: c.clone(),
                runs: Vec::new(),
                mean_killed: None,
                output_differs_share: None,
                mean_edges: 0.0,
                mean_trials_per_sec: 0.0,
                mean_valid_per_sec: 0.0,
            })
            .collect(),
        pairs: Vec::new(),
    };
    // Seeds outermost, so a machine slowing down over the evaluation hits every
    // configuration alike.
    for &seed in &seeds {
        for (i, config) in configs.iter().enumerate() {
            let mut fuzz = config.fuzz_args(&args.target, seed, args.time).map_err(|e| anyhow::anyhow!(e))?;
            fuzz.cpu_time |= args.cpu_time;
            fuzz.panic_is_failure |= args.panic_is_failure;
            if mutants_file.is_some() {
                fuzz.mutants_file.clone_from(&mutants_file);
            }
            let dir = RunDir::new(&eval_dir, &config.name, seed);
            let root = dir.state.path().parent().expect("a run directory").to_owned();
            // A fresh start: an evaluation never resumes an older run.
            if root.exists() {
                std::fs::remove_dir_all(&root)
                    .with_context(|| format!("failed to clear {}", root.display()))?;
            }
            eprintln!("== {} seed {seed}", config.name);
            let mut run = match &targets {
                None => {
                    let files = Files { state: dir.state.clone(), corpus: dir.corpus.clone() };
                    let ended = fuzzing::with_strategy(&built, &FuzzSettings::from(&fuzz), &files)?;
                    if ended.stop == Stop::Interrupted {
                        return Err(exit_code::interrupted());
                    }
                    let last = ended.last.unwrap_or_default();
                    run_report(seed, ended.elapsed, ended.trials, &[last], fuzzing::count_files(&dir.corpus))
                }
                Some(targets) => {
                    let ended =
                        all::fuzz_all(&built, targets, &FuzzSettings::from(&fuzz), &|t| dir.of_target(t))?;
                    if ended.stop == Stop::Interrupted {
                        return Err(exit_code::interrupted());
                    }
                    let lasts: Vec<Stats> = ended.runs.iter().map(|r| r.last.unwrap_or_default()).collect();
                    let corpus = ended.runs.iter().map(|r| fuzzing::count_files(&r.files.corpus)).sum();
                    run_report(seed, ended.elapsed, ended.trials(), &lasts, corpus)
                }
            };
            if !args.no_score {
                let scoring = Scoring {
                    selection: &selection,
                    panic_is_failure: fuzz.panic_is_failure,
                    jobs: args.jobs,
                };
                run.score = Some(match &targets {
                    None => score_run(&built, &args.target, &dir, &scoring)?,
                    Some(targets) => score_all_run(&built, targets, &dir, &scoring)?,
                });
            }
            eprintln!("{}", run_line(&run));
            report.configs[i].runs.push(run);
        }
    }
    report.summarize();
    print!("{}", report.render());
    let path = eval_dir.join("eval.json");
    write_atomic(&path, (serde_json::to_string_pretty(&report)? + "\n").as_bytes())?;
    eprintln!("Results in {}", path.display());
    Ok(exit_code::SUCCESS)
}

/// How a run's corpora are scored.
struct Scoring<'a> {
    /// The mutants scored.
    selection: &'a Selection,
    /// A generated target's original panic is a failure (`--panic-is-failure`).
    panic_is_failure: bool,
    /// Processes that share each input's runs (`--jobs`).
    jobs: u64,
}

/// The score of one target's corpus (`files.corpus`; `files.state` is its campaign's, where
/// a nondeterministic target is recorded).
fn score_target(
    built: &Built,
    target: &str,
    files: &Files,
    score_lines: &Path,
    scoring: &Scoring<'_>,
) -> Result<ScoreFile> {
    let how = score::ScoreHow {
        selection: scoring.selection,
        format: mutfuzz_contract::InputFormat::Mutfuzz,
        state: files.state.path(),
        panic_is_failure: scoring.panic_is_failure,
        prune: mutfuzz_contract::Prune::default(),
        jobs: scoring.jobs,
    };
    let Some(scored) = score::score_corpus(built, target, &files.corpus, score_lines, SCORE_HANG, &how)?
    else {
        return Err(exit_code::interrupted());
    };
    Ok(scored.score_file(built, target, &files.corpus, scoring.selection, 0.0))
}

fn score_run(built: &Built, target: &str, dir: &RunDir, scoring: &Scoring<'_>) -> Result<RunScore> {
    let files = Files { state: dir.state.clone(), corpus: dir.corpus.clone() };
    Ok(run_score(&score_target(built, target, &files, &dir.score_lines, scoring)?.mutants))
}

/// An `--all` run's score: every target's corpus scored, combined as `score --all` does.
fn score_all_run(built: &Built, targets: &[String], dir: &RunDir, scoring: &Scoring<'_>) -> Result<RunScore> {
    let mut scores = Vec::new();
    for t in targets {
        let files = dir.of_target(t);
        // A target dropped before its first slice has no corpus: it killed nothing.
        if !files.corpus.is_dir() {
            continue;
        }
        let lines = dir.score_lines_of(t);
        if let Some(parent) = lines.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("failed to create {}", parent.display()))?;
        }
        scores.push(score_target(built, t, &files, &lines, scoring)?);
    }
    if scores.is_empty() {
        return Ok(RunScore::default());
    }
    Ok(run_score(&ScoreFile::combine(&scores, &dir.corpus, 0.0)?.mutants))
}

/// The harness for `--survivors` (the package's own, else one generated from its API, as
/// `amplify` builds it), its targets, and the survivors of `cargo mutfuzz test` that are
/// viable with it; `check_targets` as [`crate::amplify::build_aimed`] calls it.
fn build_for_survivors(
    args: &EvalArgs,
    check_targets: &dyn Fn(usize) -> Result<()>,
) -> Result<(Built, Vec<String>, BTreeSet<u32>)> {
    let ws = crate::workspace::Workspace::open(&args.package)?;
    let package = harness::single_package(&ws)?.clone();
    let results = args.results.clone().unwrap_or_else(|| ws.root.join("mutfuzz.out"));
    let survivors = Survivors::read(&results)?;
    survivors.check_package(&package.name, &results)?;
    let (_, built, targets, aimed) = crate::amplify::build_aimed(
        &ws,
        &package,
        &(&args.package).into(),
        &survivors,
        &survivors.file.feature_flags,
        args.no_sandbox,
        check_targets,
    )?;
    if aimed.is_empty() {
        return Err(exit_code::usage(anyhow::anyhow!(
            "no survivor of `cargo mutfuzz test` in {} is viable with the harness: nothing to compare",
            results.display()
        )));
    }
    Ok((built, targets, aimed))
}

/// The numbers of a score: each mutant's verdict.
fn run_score(mutants: &[MutantScore]) -> RunScore {
    let mut s = RunScore::default();
    for m in mutants {
        match m.outcome {
            FuzzOutcome::Killed => {
                s.killed += 1;
                s.killed_ids.insert(m.id);
                s.reached_ids.insert(m.id);
                if m.kind == Some(KillKind::OutputDiffers) {
                    s.output_differs += 1;
                }
            }
            FuzzOutcome::Survived => {
                s.survived += 1;
                s.reached_ids.insert(m.id);
            }
            FuzzOutcome::NotCovered => s.not_covered += 1,
            FuzzOutcome::Unviable => {}
        }
    }
    s
}

fn run_line(r: &RunReport) -> String {
    let score = r.score.as_ref().map_or_else(String::new, |s| {
        format!(
            "; score: {} killed ({} by output), {} survived, {} not covered",
            s.killed, s.output_differs, s.survived, s.not_covered
        )
    });
    format!(
        "   {} trials in {:.1}s ({:.0}/s, {:.0} valid/s), corpus {}, edges {}{score}",
        r.trials, r.seconds, r.trials_per_sec, r.valid_per_sec, r.corpus, r.edges
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ids: &[u32]) -> BTreeSet<u32> {
        ids.iter().copied().collect()
    }

    #[test]
    fn table_one_counts_any_and_all_against_none() {
        let (a1, a2) = (set(&[1, 2, 3, 7]), set(&[1, 3, 4]));
        let (b1, b2) = (set(&[1, 5]), set(&[5, 6, 2]));
        let p = compare("a", &[&a1, &a2], "b", &[&b1, &b2]);
        // any a = {1,2,3,4,7}, all a = {1,3}; any b = {1,2,5,6}, all b = {5}.
        assert_eq!(
            p,
            Pair { a: "a".into(), b: "b".into(), any_a_no_b: 3, all_a_no_b: 1, any_b_no_a: 2, all_b_no_a: 1 }
        );
        assert!(p.any_a_no_b >= p.all_a_no_b && p.any_b_no_a >= p.all_b_no_a);
        let same = compare("x", &[&a1], "y", &[&a1]);
        assert_eq!((same.any_a_no_b, same.all_b_no_a), (0, 0));
    }

    #[test]
    fn configs_are_a_name_and_fuzz_arguments() {
        let c = EvalConfig::parse("zest=--guidance coverage").unwrap();
        assert_eq!(c, EvalConfig { name: "zest".into(), args: vec!["--guidance".into(), "coverage".into()] });
        let fuzz = c.fuzz_args("t", 4, Duration::from_secs(3)).unwrap();
        assert_eq!(
            (fuzz.guidance, fuzz.seed, fuzz.time),
            (GuidanceKind::Coverage, 4, Some(Duration::from_secs(3)))
        );
        assert_eq!(EvalConfig::parse("plain=").unwrap().args, Vec::<String>::new());
        assert!(EvalConfig::parse("noequals").unwrap_err().contains("NAME=ARGS"));
        assert!(EvalConfig::parse("../x=--guidance mu2").is_err());
        assert!(EvalConfig::parse("a=--seed 3").unwrap_err().contains("set by eval"));
        assert!(EvalConfig::parse("a=--time=3s").unwrap_err().contains("set by eval"));
        let bad = EvalConfig::parse("a=--guidance zest").unwrap().fuzz_args("t", 0, Duration::from_secs(1));
        assert!(bad.unwrap_err().contains("not `fuzz` arguments"));
        let names: Vec<String> = EvalConfig::defaults().into_iter().map(|c| c.name).collect();
        let mut expected: Vec<String> = GuidanceKind::ALL.map(|k| k.name().to_owned()).to_vec();
        expected.extend(["structure".to_owned(), "mutagen".to_owned()]);
        assert_eq!(names, expected);
        for c in EvalConfig::defaults() {
            assert!(c.fuzz_args("t", 0, Duration::from_secs(1)).is_ok(), "{c:?}");
        }
    }

    #[test]
    fn the_survivor_comparison_is_infection_against_mu2() {
        let configs = EvalConfig::survivor_defaults();
        let names: Vec<&str> = configs.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["infection", "mu2"]);
        for c in &configs {
            let fuzz = c.fuzz_args("", 0, Duration::from_secs(10)).unwrap();
            assert_eq!(fuzz.guidance.name(), c.name);
        }
    }

    #[test]
    fn every_input_strategy_configuration_is_valid_fuzz_arguments() {
        let configs = EvalConfig::input_strategies();
        let names: Vec<&str> = configs.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["havoc", "dictionary", "compare", "target-types", "all"]);
        let args: Vec<FuzzArgs> =
            configs.iter().map(|c| c.fuzz_args("t", 0, Duration::from_secs(1)).unwrap()).collect();
        assert_eq!((args[0].dictionary, args[0].compare, args[0].target_types), (0.0, 0.0, false));
        assert_eq!((args[4].dictionary, args[4].compare, args[4].target_types), (0.1, 0.2, true));
    }

    #[test]
    fn the_summary_is_consistent_with_the_runs() {
        let run = |killed: &[u32], by_output: u64| RunReport {
            seed: 0,
            seconds: 1.0,
            trials: 10,
            trials_per_sec: 10.0,
            discards: 0,
            valid_per_sec: 10.0,
            corpus: 1,
            edges: 4,
            mutant_runs: 0,
            score: Some(RunScore {
                killed: killed.len() as u64,
                output_differs: by_output,
                killed_ids: set(killed),
                reached_ids: set(killed),
                ..RunScore::default()
            }),
        };
        let config = |name: &str, runs| ConfigReport {
            config: EvalConfig { name: name.into(), args: vec![] },
            runs,
            mean_killed: None,
            output_differs_share: None,
            mean_edges: 0.0,
            mean_trials_per_sec: 0.0,
            mean_valid_per_sec: 0.0,
        };
        let mut r = EvalReport {
            target: "t".into(),
            targets: None,
            seconds_per_run: 1.0,
            seeds: vec![0, 1],
            viable: 10,
            survivors: false,
            unviable: 0,
            reached_by_any: None,
            killed_by_any: None,
            configs: vec![
                config("a", vec![run(&[1, 2], 1), run(&[1], 1)]),
                config("b", vec![run(&[3], 0), run(&[3, 4, 5], 3)]),
            ],
            pairs: vec![],
        };
        r.summarize();
        assert_eq!(r.configs[0].mean_killed, Some(1.5));
        assert_eq!(r.configs[1].output_differs_share, Some(0.75));
        assert_eq!((r.reached_by_any, r.killed_by_any), (Some(5), Some(5)));
        assert_eq!(r.pairs.len(), 1);
        let text = r.render();
        let line_a = text.lines().find(|l| l.starts_with("a ")).unwrap();
        assert!(line_a.contains("1.5") && line_a.contains("2 1") && line_a.contains("66.7%"), "{text}");
        assert!(text.contains("any A no B"), "{text}");
    }
}
