//! Original-path overhead of the schema: the same workload built plain and built as a
//! schema (every mutant compiled in, none active), timed side by side in one run and
//! reported as ratios. Also reports a mutant run (a mutant active that the workload
//! never reaches), where every site takes the slow path and fuel is counted.
//!
//! Run: `cargo bench -p cargo-mutfuzz --bench schema_overhead [-- ROUNDS REPEATS]`.
//! With `--keep`, the copies are kept and their path printed, to read the schema and its
//! optimised code (`cargo rustc --release -- --emit asm` in the scratch copy).

use std::path::{Path, PathBuf};
use std::process::Command;

use cargo_mutfuzz::{PackageChoice, Scratch, Workspace, write_schema};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let rounds: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let repeats: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(7);
    let keep = std::env::args().any(|a| a == "--keep");

    let tmp = tempfile::tempdir().expect("temp dir");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/workload");
    let plain_dir = tmp.path().join("workload");
    copy_dir(&example, &plain_dir);

    // Plain build.
    let plain = build_release(&plain_dir.join("Cargo.toml"), &plain_dir.join("target"));

    // Schema build, every mutant enabled.
    let ws = Workspace::open(PackageChoice {
        manifest_path: Some(plain_dir.join("Cargo.toml")),
        packages: vec![],
    })
    .expect("open workspace");
    let (discovery, _) = ws.discover().expect("discover");
    let scratch = Scratch::new(&ws);
    scratch.prepare(&ws, &discovery, &[]).expect("prepare scratch");
    write_schema(&scratch, &discovery, &|_| true).expect("write schema");
    let schema = build_release(&scratch.work.join("Cargo.toml"), &scratch.layout.schema_target());
    // An id no site has: every site takes the mutant-run path, none is mutated.
    let unreached = discovery.mutants.last().map_or(1, |m| m.id + 1).to_string();

    let mut t_plain = Vec::new();
    let mut t_schema = Vec::new();
    let mut t_mutant = Vec::new();
    let mut sums = Vec::new();
    for _ in 0..repeats {
        // Interleave the three so machine noise hits each alike.
        let (s0, a) = run(&plain, rounds, None);
        let (s1, b) = run(&schema, rounds, None);
        let (s2, c) = run(&schema, rounds, Some(&unreached));
        sums.extend([s0, s1, s2]);
        t_plain.push(a);
        t_schema.push(b);
        t_mutant.push(c);
    }
    assert!(sums.windows(2).all(|w| w[0] == w[1]), "the schema must compute what the plain build does");
    let (p, s, m) = (median(&mut t_plain), median(&mut t_schema), median(&mut t_mutant));
    println!(
        "workload: {} mutants compiled in, {rounds} rounds, median of {repeats}",
        discovery.mutants.len()
    );
    println!("plain build                      {:>10.2} ms", p / 1e6);
    println!("schema, original (active id 0)   {:>10.2} ms   ratio {:.3}", s / 1e6, s / p);
    println!("schema, a mutant run (no site hit)  {:>10.2} ms   ratio {:.3}", m / 1e6, m / p);
    if keep {
        println!("kept: plain {}, schema {}", plain_dir.display(), scratch.work.display());
        std::mem::forget(tmp);
    }
}

fn build_release(manifest: &Path, target_dir: &Path) -> PathBuf {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "-q", "--manifest-path"])
        .arg(manifest)
        .arg("--target-dir")
        .arg(target_dir)
        .status()
        .expect("run cargo");
    assert!(status.success(), "build of {} failed", manifest.display());
    target_dir.join("release/workload")
}

/// Returns (checksum, elapsed ns as the workload measured it).
fn run(bin: &Path, rounds: u64, mutant: Option<&str>) -> (u64, f64) {
    let mut cmd = Command::new(bin);
    cmd.arg(rounds.to_string()).env_remove("MUTFUZZ_RECORD");
    match mutant {
        Some(id) => cmd.env("MUTFUZZ_ACTIVE", id),
        None => cmd.env_remove("MUTFUZZ_ACTIVE"),
    };
    let out = cmd.output().expect("run workload");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut words = text.split_whitespace();
    let sum = words.next().and_then(|w| w.parse().ok()).expect("checksum");
    let ns = words.next().and_then(|w| w.parse().ok()).expect("elapsed");
    (sum, ns)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() == "target" {
            continue;
        }
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}
