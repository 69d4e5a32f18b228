//! Fuzzing throughput of mutation-guided fuzzing against coverage-guided fuzzing, on every
//! fuzz example, side by side in one run: `cargo mutfuzz eval --no-score` with the configs
//! `mu2` and `coverage`, equal CPU time each, and the ratio of their trials per CPU second.
//! The ratio is the price of running the reached mutants in every trial (Mu2 Alg. 2).
//!
//! Run: `cargo bench -p cargo-mutfuzz --bench throughput [-- SECONDS [EXAMPLE…]]`.
//!
//! Each example is copied (without build output and corpus) into the bench's scratch
//! directory under the target dir, whose harness builds are kept between runs.

mod common;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Each fuzz example and the target measured.
const EXAMPLES: [(&str, &str); 6] = [
    ("insertion-sort", "sort"),
    ("json-lite", "parse_tokens"),
    ("matrix", "determinant"),
    ("suffix-array", "build"),
    ("typed-expr", "check_and_eval"),
    ("minilang", "program"),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let seconds: f64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(10.0);
    let only: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
    let examples = common::examples();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("throughput");
    let mut rows = Vec::new();
    for (example, target) in EXAMPLES {
        if !only.is_empty() && !only.contains(&example) {
            continue;
        }
        let dir = scratch.join(example);
        common::sync(&examples.join(example), &dir);
        eprintln!("== {example}: {target}, {seconds}s per guidance");
        let report = eval(&dir, target, seconds);
        rows.push((example, target, report));
    }
    println!(
        "{seconds} CPU-s per guidance and example, one seed; trials per CPU second (harness and workers)"
    );
    println!(
        "{:<16}{:<16}{:>9}{:>12}{:>12}{:>10}{:>20}",
        "example", "target", "mutants", "mu2/s", "coverage/s", "ratio", "mutant runs/trial"
    );
    for (example, target, report) in &rows {
        let config = |name: &str| -> &Value {
            report["configs"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["name"] == name)
                .expect("both configs ran")
        };
        let (mu2, cov) = (config("mu2"), config("coverage"));
        let rate = |c: &Value| c["mean_trials_per_sec"].as_f64().unwrap();
        let run = &mu2["runs"][0];
        let per_trial = run["mutant_runs"].as_f64().unwrap() / run["trials"].as_f64().unwrap().max(1.0);
        println!(
            "{:<16}{:<16}{:>9}{:>12.0}{:>12.0}{:>10.3}{:>20.1}",
            example,
            target,
            report["viable"],
            rate(mu2),
            rate(cov),
            rate(mu2) / rate(cov),
            per_trial
        );
    }
}

/// `cargo mutfuzz eval` with both guidances, fuzzing only; its `eval.json`.
fn eval(dir: &Path, target: &str, seconds: f64) -> Value {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-mutfuzz"));
    cmd.args(["mutfuzz", "eval", target, "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .args(["--config", "mu2=--guidance mu2", "--config", "coverage=--guidance coverage"])
        .args(["--seeds", "1", "--time"])
        .arg(format!("{seconds}s"))
        // CPU seconds of the harness and its workers: `mu2`'s first runs in its sentry
        // worker count, and a second core does not flatter it.
        .arg("--cpu-time")
        .arg("--no-score");
    // The example's own target dir, not the bench's.
    cmd.env_remove("CARGO_TARGET_DIR");
    let out = cmd.output().expect("run cargo-mutfuzz");
    assert!(
        out.status.success(),
        "eval of {target} in {} failed:\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let path = dir.join("target/mutfuzz/eval").join(target).join("eval.json");
    serde_json::from_str(&std::fs::read_to_string(&path).expect("eval.json")).expect("valid eval.json")
}
