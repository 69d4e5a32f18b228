//! Mutant runs saved by infection pruning (Mu2, Section IV-B), on every fuzz example,
//! side by side in one run: the same campaign (seed and trials) with `--prune execution`
//! and `--prune infection`, and what each ran per trial. Both must kill the same mutants:
//! pruning skips only mutants that cannot be killed on the input.
//!
//! Run: `cargo bench -p cargo-mutfuzz --bench pruning [-- TRIALS [EXAMPLE…]]`.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// Each fuzz example and the target measured.
const EXAMPLES: [(&str, &str); 6] = [
    ("insertion-sort", "sort"),
    ("json-lite", "parse_text"),
    ("matrix", "inverse"),
    ("suffix-array", "build"),
    ("typed-expr", "check_and_eval"),
    ("minilang", "program"),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let trials: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let only: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pruning");
    let mut rows = Vec::new();
    for (example, target) in EXAMPLES {
        if (!only.is_empty() && !only.contains(&example)) || !common::examples().join(example).is_dir() {
            continue;
        }
        let dir = scratch.join(example);
        common::sync(&common::examples().join(example), &dir);
        eprintln!("== {example}: {target}, {trials} trials per rule");
        let execution = fuzz(&dir, target, trials, "execution");
        let infection = fuzz(&dir, target, trials, "infection");
        rows.push((example, target, execution, infection));
    }
    println!("{trials} trials, seed 1, per rule; mutant runs per trial and trials/s");
    println!(
        "{:<16}{:<16}{:>12}{:>12}{:>9}{:>12}{:>12}{:>9}  same kills",
        "example", "target", "execution", "infection", "ratio", "exec/s", "infect/s", "speed"
    );
    for (example, target, e, i) in &rows {
        println!(
            "{:<16}{:<16}{:>12.2}{:>12.2}{:>9.3}{:>12.0}{:>12.0}{:>9.2}  {}",
            example,
            target,
            e.runs_per_trial(),
            i.runs_per_trial(),
            i.runs_per_trial() / e.runs_per_trial().max(f64::MIN_POSITIVE),
            e.trials_per_sec(),
            i.trials_per_sec(),
            i.trials_per_sec() / e.trials_per_sec().max(f64::MIN_POSITIVE),
            if e.kills == i.kills { "yes" } else { "NO" },
        );
    }
}

/// One campaign's summary.
struct Run {
    runs: u64,
    trials: u64,
    seconds: f64,
    kills: String,
}

impl Run {
    fn runs_per_trial(&self) -> f64 {
        self.runs as f64 / self.trials.max(1) as f64
    }

    fn trials_per_sec(&self) -> f64 {
        self.trials as f64 / self.seconds.max(1e-9)
    }
}

/// `cargo mutfuzz fuzz` from an empty corpus with one pruning rule; its summary.
fn fuzz(dir: &Path, target: &str, trials: u64, prune: &str) -> Run {
    let corpus = dir.join(format!("corpus-{prune}"));
    let _ = std::fs::remove_dir_all(&corpus);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-mutfuzz"));
    cmd.args(["mutfuzz", "fuzz", target, "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        // Every reached mutant (no sample), so both rules see the same campaign.
        .args([
            "--trials",
            &trials.to_string(),
            "--seed",
            "1",
            "--mutant-sample",
            "0",
            "--prune",
            prune,
            "--corpus",
        ])
        .arg(&corpus);
    cmd.env_remove("CARGO_TARGET_DIR");
    // The build (cached after the first rule) is not part of the campaign's time: the
    // summary's "after …" is, so read it rather than timing the command.
    let started = Instant::now();
    let out = cmd.output().expect("run cargo-mutfuzz");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "fuzz {target} --prune {prune} failed:\n{stderr}");
    let line = |prefix: &str| {
        stderr
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in:\n{stderr}"))
    };
    let words: Vec<&str> = line("Mutant runs: ").split_whitespace().collect();
    let stopped = stderr
        .lines()
        .find(|l| l.starts_with("Fuzzing ") && l.contains(" stopped ("))
        .unwrap_or_else(|| panic!("no summary in:\n{stderr}"));
    let seconds = stopped
        .split(" after ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .and_then(parse_seconds)
        .unwrap_or_else(|| started.elapsed().as_secs_f64());
    Run { runs: words[2].parse().unwrap(), trials, seconds, kills: line("Mutants: ").to_owned() }
}

/// `250ms`, `8.4s` or `1m03s`, as the summary prints a duration.
fn parse_seconds(text: &str) -> Option<f64> {
    if let Some(ms) = text.strip_suffix("ms") {
        return ms.parse::<f64>().ok().map(|n| n / 1000.0);
    }
    let text = text.strip_suffix('s')?;
    match text.split_once('m') {
        Some((m, s)) => Some(m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?),
        None => text.parse().ok(),
    }
}
