//! Fuzzing throughput of mutation-guided fuzzing against coverage-guided fuzzing, on every
//! fuzz example, side by side in one run: `cargo mutfuzz eval --no-score` with the configs
//! `mu2` and `coverage`, equal wall time each, and the ratio of their trials per second.
//! The ratio is the price of running the reached mutants in every trial (Mu2 Alg. 2).
//!
//! Run: `cargo bench -p cargo-mutfuzz --bench throughput [-- SECONDS [EXAMPLE…]]`.
//!
//! Each example is copied (without build output and corpus) into the bench's scratch
//! directory under the target dir, whose harness builds are kept between runs.

use std::path::{Path, PathBuf};
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
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("throughput");
    let mut rows = Vec::new();
    for (example, target) in EXAMPLES {
        if !only.is_empty() && !only.contains(&example) {
            continue;
        }
        let dir = scratch.join(example);
        sync(&examples.join(example), &dir);
        eprintln!("== {example}: {target}, {seconds}s per guidance");
        let report = eval(&dir, target, seconds);
        rows.push((example, target, report));
    }
    println!("{seconds}s per guidance and example, one seed; trials/s over the whole campaign");
    println!(
        "{:<16}{:<16}{:>9}{:>12}{:>12}{:>10}{:>16}",
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
            "{:<16}{:<16}{:>9}{:>12.0}{:>12.0}{:>10.3}{:>16.1}",
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

/// Make `to` a copy of the example `from`, keeping `to/target` (its builds).
fn sync(from: &Path, to: &Path) {
    if to.exists() {
        for entry in std::fs::read_dir(to).unwrap() {
            let entry = entry.unwrap();
            if entry.file_name() != "target" {
                let p: PathBuf = entry.path();
                if p.is_dir() {
                    std::fs::remove_dir_all(&p).unwrap();
                } else {
                    std::fs::remove_file(&p).unwrap();
                }
            }
        }
    }
    copy_dir(from, to);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" || name == "corpus" || name == "Cargo.lock" {
            continue;
        }
        let dest = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}
