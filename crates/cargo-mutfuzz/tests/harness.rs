//! End-to-end tests of the harness commands (`init`, `fuzz`, `score`, `run`): each runs
//! the `cargo-mutfuzz` binary on a copy of an example or fixture crate, which builds the
//! schema and the harness against the engine the binary carries.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod common;
use common::{copy_dir, shared_copy};

/// A copy of `dir` (relative to this crate) in a fresh temp dir.
fn copy_of(dir: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), tmp.path());
    tmp
}

/// `cargo mutfuzz <args>` in `cwd`, with a clean environment.
fn mutfuzz(cwd: &Path, args: &[&str]) -> Output {
    let mut cmd = common::mutfuzz_command(cwd, args);
    cmd.output().unwrap()
}

/// `mutfuzz` with extra environment variables.
fn mutfuzz_env(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = common::mutfuzz_command(cwd, args);
    cmd.envs(env.iter().copied());
    cmd.output().unwrap()
}

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir).map(|rd| rd.map(|e| e.unwrap().path()).collect()).unwrap_or_default()
}

#[test]
fn fuzz_records_kills_and_a_corpus_and_score_adds_up() {
    let tmp = copy_of("../../examples/insertion-sort");
    // Release settings of the user's that would break the engine (it catches panics) or
    // hide kills (overflow checks) are overridden.
    let harness_manifest = tmp.path().join("mutfuzz/Cargo.toml");
    let mut text = std::fs::read_to_string(&harness_manifest).unwrap();
    text.push_str(
        "\n[profile.release]\npanic = \"abort\"\nopt-level = 0\ndebug-assertions = false\noverflow-checks = false\n",
    );
    std::fs::write(&harness_manifest, text).unwrap();
    let out = mutfuzz(tmp.path(), &["fuzz", "sort", "--trials", "2000", "--seed", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("stopped (budget spent)"), "{stderr}");
    assert!(stderr.contains("Schema and harness built in 1 round(s): clean"), "{stderr}");
    let state = tmp.path().join("target/mutfuzz/sort");
    let kills = jsonl(&state.join("kills.jsonl"));
    assert!(!kills.is_empty(), "{stderr}");
    let corpus = files_in(&tmp.path().join("mutfuzz/corpus/sort"));
    assert!(!corpus.is_empty(), "{stderr}");
    // Every kill names a stored input.
    for k in &kills {
        let name = k["input"].as_str().unwrap();
        assert!(corpus.iter().any(|p| p.file_name().unwrap() == name), "{k}");
    }
    let catalog: Value =
        serde_json::from_str(&std::fs::read_to_string(state.join("mutants.json")).unwrap()).unwrap();
    assert!(state.join("unviable.json").is_file());

    let out = mutfuzz(tmp.path(), &["score", "sort"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // The viability found by `fuzz` is reused: one build, no round.
    assert!(stderr.contains("Schema and harness built in 1 build with the viability cache"), "{stderr}");
    assert!(!stderr.contains("(round 1)"), "{stderr}");
    let table = String::from_utf8_lossy(&out.stdout);
    let row = |name: &str| -> u64 {
        let line = table.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name}: {table}"));
        line[name.len()..].trim().parse().unwrap()
    };
    let parts = [
        "killed by output",
        "killed by panic",
        "killed by timeout",
        "killed by crash",
        "killed by discard",
        "survived",
        "not covered",
        "unviable",
    ];
    let sum: u64 = parts.iter().map(|p| row(p)).sum();
    assert_eq!(sum, row("total"), "{table}");
    assert_eq!(row("total"), catalog.as_array().unwrap().len() as u64, "{table}");
    assert!(row("killed by output") > 0, "{table}");
    assert!(row("killed by panic") > 0, "{table}");
    let score: Value =
        serde_json::from_str(&std::fs::read_to_string(state.join("score.json")).unwrap()).unwrap();
    assert_eq!(score["summary"]["total"].as_u64(), Some(row("total")));
    assert_eq!(score["mutants"].as_array().unwrap().len() as u64, row("total"));

    // A stored input reproduces with `run`.
    let input = corpus[0].to_string_lossy().into_owned();
    let out = mutfuzz(tmp.path(), &["run", "sort", &input]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("with the viability cache"), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("output:"));

    // Editing a source file invalidates the cache, even where no mutant changes.
    let lib = tmp.path().join("src/lib.rs");
    let mut text = std::fs::read_to_string(&lib).unwrap();
    text.push_str("\n// edited\n");
    std::fs::write(&lib, text).unwrap();
    let out = mutfuzz(tmp.path(), &["run", "sort", &input]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("(round 1)") && !stderr.contains("viability cache"), "{stderr}");
}

#[test]
fn structure_edits_and_the_mutagen_schedule_fuzz_deterministically_and_report_their_counters() {
    let tmp = shared_copy("../../examples/insertion-sort");
    // The default corpus (state in target/mutfuzz/sort), then another one with the same seed.
    let run = |corpus: Option<&str>| {
        let mut args = vec!["fuzz", "sort", "--trials", "3000", "--seed", "4", "--edit", "structure"];
        args.extend(["--schedule", "mutagen"]);
        args.extend(corpus.map(|c| ["--corpus", c]).into_iter().flatten());
        let out = mutfuzz(tmp.path(), &args);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        let dir = tmp.path().join(corpus.unwrap_or("mutfuzz/corpus/sort"));
        let mut names: Vec<_> = files_in(&dir).iter().map(|p| p.file_name().unwrap().to_owned()).collect();
        names.sort();
        (stderr, names)
    };
    let (stderr, first) = run(None);
    assert!(!first.is_empty(), "{stderr}");
    // `sort` takes any Vec<i64>: nothing is discarded.
    assert!(stderr.contains("Inputs: edit structure, schedule mutagen (random edits sampled"), "{stderr}");
    assert!(stderr.contains("3000 of 3000 trials valid (0 discarded by assume)"), "{stderr}");
    let csv = std::fs::read_to_string(tmp.path().join("target/mutfuzz/sort/stats.csv")).unwrap();
    assert!(csv.starts_with(mutfuzz_contract::Stats::CSV_HEADER), "{csv}");
    assert!(csv.starts_with(
        "seconds,trials,corpus,mutants_seen,mutants_killed,failures,edges,discards,queued,random_edits,"
    ));
    let (_, second) = run(Some("c2"));
    assert_eq!(first, second);
    // The report of a score of the other corpus plots the campaign that grew it, whose
    // state `fuzz --corpus` kept apart (its stats.csv is not the target's own).
    std::fs::remove_file(tmp.path().join("target/mutfuzz/sort/stats.csv")).unwrap();
    for args in [&["score", "sort", "--corpus", "c2"][..], &["report", "sort"]] {
        let out = mutfuzz(tmp.path(), args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let html = std::fs::read_to_string(tmp.path().join("target/mutfuzz/sort/report.html")).unwrap();
    assert!(html.contains("<svg"), "no plot of the campaign in the report");
}

#[test]
fn a_mutants_first_campaign_hands_what_each_mutant_found_to_the_original() {
    let tmp = shared_copy("../../examples/insertion-sort");
    let args = [
        "fuzz",
        "sort",
        "--trials",
        "8000",
        "--strategy",
        "mutants-first",
        "--select",
        "random",
        "--carry",
        "parallel",
        "--seed",
        "4",
    ];
    let out = mutfuzz(tmp.path(), &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // Half of 8,000 trials over 8 mutants: 500 trials each, then the original.
    assert!(
        stderr.contains("Mutants first: 8 mutants (random selection, parallel corpus), 500 trials each"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("Phase: mutant ").count(), 8, "{stderr}");
    assert!(stderr.contains("Phase: the original"), "{stderr}");
    let root = tmp.path().join("target/mutfuzz/sort/mutants-first");
    let corpus = tmp.path().join("mutfuzz/corpus/sort");
    let names = |dir: &Path| -> Vec<std::ffi::OsString> {
        files_in(dir).iter().map(|p| p.file_name().unwrap().to_owned()).collect()
    };
    let original = names(&corpus);
    let mut phase_inputs = 0;
    for phase in files_in(&root) {
        // Each phase fuzzed with its mutant as the program: no kills, its own corpus.
        assert!(jsonl(&phase.join("state/kills.jsonl")).is_empty());
        for name in names(&phase.join("corpus")) {
            phase_inputs += 1;
            assert!(original.contains(&name), "{name:?} was not handed over");
        }
    }
    assert!(phase_inputs > 0, "{stderr}");
    assert!(!jsonl(&tmp.path().join("target/mutfuzz/sort/kills.jsonl")).is_empty());
}

#[test]
fn mutant_runs_in_worker_processes_give_the_same_campaign_and_a_crash_there_is_a_kill() {
    // Every trial's mutants spread over the workers, however little they cost.
    let env = [("MUTFUZZ_PARALLEL_MIN_WORK", "0")];
    let sort = shared_copy("../../examples/insertion-sort");
    let campaign = |jobs: &str| {
        let corpus = sort.path().join(format!("corpus-{jobs}")).to_string_lossy().into_owned();
        let args = ["fuzz", "sort", "--trials", "3000", "--seed", "6", "--jobs", jobs, "--corpus", &corpus];
        let out = mutfuzz_env(sort.path(), &args, &env);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        let mut names: Vec<_> =
            files_in(Path::new(&corpus)).iter().map(|p| p.file_name().unwrap().to_owned()).collect();
        names.sort();
        let summary: Vec<String> =
            stderr.lines().filter(|l| l.starts_with("Mutant")).map(str::to_owned).collect();
        (names, summary)
    };
    let one = campaign("1");
    assert!(!one.0.is_empty() && one.1.len() == 2, "{one:?}");
    assert_eq!(campaign("3"), one, "the same corpus, kills and mutant runs with three processes");

    // A worker that aborts: its mutant is killed by crash, the campaign goes on.
    drop(sort);
    let tmp = shared_copy("tests/fixtures/crasher");
    let out = mutfuzz_env(tmp.path(), &["fuzz", "check", "--trials", "300", "--seed", "3", "-j", "2"], &env);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let kills = jsonl(&tmp.path().join("target/mutfuzz/check/kills.jsonl"));
    assert!(kills.iter().any(|k| k["kind"] == "crash"), "{kills:?}");
    assert!(kills.iter().any(|k| k["kind"] == "output-differs"), "{kills:?}");
}

/// The numbers of the summary's `Mutant runs: R of N …` line, and its `Mutants:` line.
fn runs_and_kills(stderr: &str) -> (u64, u64, String) {
    let line = stderr.lines().find(|l| l.starts_with("Mutant runs: ")).unwrap_or_else(|| panic!("{stderr}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let kills = stderr.lines().find(|l| l.starts_with("Mutants: ")).unwrap().to_owned();
    (words[2].parse().unwrap(), words[4].parse().unwrap(), kills)
}

#[test]
fn infection_pruning_skips_only_mutants_that_survive_when_run_anyway() {
    let tmp = shared_copy("../../examples/insertion-sort");
    let fuzz = |corpus: &str, extra: &[&str]| {
        let corpus = tmp.path().join(corpus).to_string_lossy().into_owned();
        // Every reached mutant (no sample): the two rules must see the same campaign.
        let mut args = vec![
            "fuzz",
            "sort",
            "--trials",
            "3000",
            "--seed",
            "3",
            "--mutant-sample",
            "0",
            "--corpus",
            &corpus,
        ];
        args.extend(extra);
        let out = mutfuzz(tmp.path(), &args);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        stderr
    };
    // Every mutant that infection pruning skips is run anyway: none may be killed.
    let checked = fuzz("c1", &["--verify-pruning"]);
    assert!(checked.contains("pruned runs checked, every one survived"), "{checked}");
    let (runs, reached, kills) = runs_and_kills(&checked);
    assert!(runs < reached, "{checked}");
    // The same campaign with execution pruning runs every reached mutant and kills the same.
    let all = fuzz("c2", &["--prune", "execution"]);
    let (runs_all, reached_all, kills_all) = runs_and_kills(&all);
    assert_eq!((runs_all, reached_all), (reached, reached), "{all}");
    assert_eq!(kills_all, kills);
}

#[test]
fn a_mutant_that_aborts_is_killed_by_crash_and_the_campaign_goes_on() {
    let tmp = shared_copy("tests/fixtures/crasher");
    // Each mutant's first run in the harness too (by default it is in a worker): the
    // supervisor's side of a crash.
    let out = mutfuzz(tmp.path(), &["fuzz", "check", "--trials", "300", "--seed", "3", "--isolate", "none"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("killed by crash (killed by signal 6 (SIGABRT))"), "{stderr}");
    let state = tmp.path().join("target/mutfuzz/check");
    let kills = jsonl(&state.join("kills.jsonl"));
    let crashes: Vec<&Value> = kills.iter().filter(|k| k["kind"] == "crash").collect();
    assert!(!crashes.is_empty(), "{kills:?}");
    // Each mutant is recorded once, and the campaign went on to kill others by output.
    let mut ids: Vec<u64> = kills.iter().map(|k| k["mutant"].as_u64().unwrap()).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "{kills:?}");
    assert!(kills.iter().any(|k| k["kind"] == "output-differs"), "{kills:?}");
    // The crashing input is in the corpus, under the engine's name for it.
    for c in crashes {
        assert!(tmp.path().join("mutfuzz/corpus/check").join(c["input"].as_str().unwrap()).is_file(), "{c}");
    }
    assert!(stderr.contains("crash"), "{stderr}");

    // Score attributes the same crashes.
    let out = mutfuzz(tmp.path(), &["score", "check"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(!table.contains("killed by crash          0"), "{table}");
}

#[test]
fn init_scaffolds_a_harness_once() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("src")).unwrap();
    std::fs::write(
        tmp.path().join("Cargo.toml"),
        "[package]\nname = \"tiny\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(tmp.path().join("src/lib.rs"), "pub fn double(x: u8) -> u16 { u16::from(x) * 2 }\n")
        .unwrap();
    let out = mutfuzz(tmp.path(), &["init", "--target", "demo"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let manifest = std::fs::read_to_string(tmp.path().join("mutfuzz/Cargo.toml")).unwrap();
    assert!(
        manifest.contains("mutfuzz = true") && manifest.contains("tiny = { path = \"..\" }"),
        "{manifest}"
    );
    // The engine by version, as cargo-fuzz names libfuzzer-sys: no path of this machine.
    assert!(manifest.contains("\nmutfuzz = \"0.1.0\"\n"), "{manifest}");
    assert!(!manifest.contains(&*tmp.path().to_string_lossy()), "{manifest}");
    let main = std::fs::read_to_string(tmp.path().join("mutfuzz/src/main.rs")).unwrap();
    assert!(main.contains("mutfuzz::targets!(demo);"), "{main}");
    assert_eq!(std::fs::read_to_string(tmp.path().join("mutfuzz/.gitignore")).unwrap(), "target/\n");

    // It refuses to overwrite.
    let out = mutfuzz(tmp.path(), &["init"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists"));

    // The scaffold builds and fuzzes as it is, against the engine written out for it.
    let out = mutfuzz(tmp.path(), &["fuzz", "demo", "--trials", "50"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(tmp.path().join("target/mutfuzz/engine/mutfuzz/src/lib.rs").is_file());
    // A target the harness lacks is a usage error naming the ones it has.
    let out = mutfuzz(tmp.path(), &["fuzz", "nope", "--trials", "5"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("its targets are: demo"));
}

#[test]
fn fuzz_without_a_harness_says_how_to_make_one() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("src")).unwrap();
    std::fs::write(
        tmp.path().join("Cargo.toml"),
        "[package]\nname = \"bare\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(tmp.path().join("src/lib.rs"), "pub fn f() {}\n").unwrap();
    let out = mutfuzz(tmp.path(), &["fuzz", "x"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no fuzz harness") && stderr.contains("cargo mutfuzz init"), "{stderr}");
}

/// What a campaign has on disk: each corpus file's bytes, and the kill records (a last
/// line cut short by a kill is left out: the next writer cuts it off). A store the kill
/// cut short leaves its hidden temporary file, no input (the next start removes it).
fn campaign_files(corpus: &Path, kills: &Path) -> (BTreeMap<String, Vec<u8>>, Vec<Value>) {
    let files = files_in(corpus)
        .into_iter()
        .map(|f| (f.file_name().unwrap().to_string_lossy().into_owned(), f))
        .filter(|(name, _)| {
            let hidden = name.starts_with('.');
            assert!(!hidden || name.contains(".tmp"), "stray hidden corpus file {name}");
            !hidden
        })
        .map(|(name, f)| (name, std::fs::read(&f).unwrap()))
        .collect();
    let text = std::fs::read_to_string(kills).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let mut records = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        match serde_json::from_str(line) {
            Ok(v) => records.push(v),
            Err(e) => assert!(
                i + 1 == lines.len() && !text.ends_with('\n'),
                "line {} of {}: {e}",
                i + 1,
                kills.display()
            ),
        }
    }
    (files, records)
}

/// Every input and kill of `before` is in `after`, unchanged; every kill names a stored
/// input; no file in the corpus is anything but a stored input.
fn nothing_lost(
    before: &(BTreeMap<String, Vec<u8>>, Vec<Value>),
    after: &(BTreeMap<String, Vec<u8>>, Vec<Value>),
) {
    for (name, bytes) in &before.0 {
        assert_eq!(after.0.get(name), Some(bytes), "corpus file {name} lost or changed");
    }
    for k in &before.1 {
        assert!(after.1.contains(k), "lost the kill record {k}");
    }
    for k in &after.1 {
        assert!(after.0.contains_key(k["input"].as_str().unwrap()), "{k} names no stored input");
    }
    for name in after.0.keys() {
        assert!(name.len() == 32 && name.bytes().all(|b| b.is_ascii_hexdigit()), "stray corpus file {name}");
    }
}

#[test]
fn a_campaign_killed_with_sigkill_again_and_again_resumes_and_loses_no_corpus_file_and_no_kill() {
    let tmp = shared_copy("../../examples/insertion-sort");
    let state = tmp.path().join("target/mutfuzz/sort_by_key");
    let corpus_dir = tmp.path().join("mutfuzz/corpus/sort_by_key");
    let start = || {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("cargo-mutfuzz"))
            .args(["mutfuzz", "fuzz", "sort_by_key", "--time", "600"])
            .current_dir(tmp.path())
            .env_remove("CARGO_TARGET_DIR")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    // SIGKILL, as the OOM killer or a CI timeout does; the harness notices on its next
    // write and stops too. Nothing may run on before the next start.
    let kill = |mut child: std::process::Child| {
        child.kill().unwrap();
        child.wait().unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !common::processes_under(tmp.path()).is_empty() {
            assert!(std::time::Instant::now() < deadline, "{:?}", common::processes_under(tmp.path()));
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    };
    let child = start();
    // Let it build and find something, then kill it without warning.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while jsonl(&state.join("kills.jsonl")).len() < 5 || files_in(&corpus_dir).len() < 5 {
        assert!(std::time::Instant::now() < deadline, "the campaign found nothing in time");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    kill(child);
    let mut before = campaign_files(&corpus_dir, &state.join("kills.jsonl"));
    // Then at random moments (a fixed sequence of them): while cargo checks the build,
    // while the harness resumes, in the middle of trials and writes.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..4 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let child = start();
        std::thread::sleep(std::time::Duration::from_millis(300 + x % 4000));
        kill(child);
        let after = campaign_files(&corpus_dir, &state.join("kills.jsonl"));
        nothing_lost(&before, &after);
        before = after;
    }

    let out = mutfuzz(tmp.path(), &["fuzz", "sort_by_key", "--trials", "500"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let after = campaign_files(&corpus_dir, &state.join("kills.jsonl"));
    nothing_lost(&before, &after);
    // Re-read on resume: the records are whole, and no mutant was killed twice.
    let kills = jsonl(&state.join("kills.jsonl"));
    let mut ids: Vec<u64> = kills.iter().map(|k| k["mutant"].as_u64().unwrap()).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "a mutant was recorded killed twice: {kills:?}");
}

#[test]
fn a_crate_with_its_harness_fuzzes_again_after_it_moves_and_after_cargo_clean() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/insertion-sort"), &first);
    // The bundled harness names the engine as `init` does: by version only.
    let manifest = std::fs::read_to_string(first.join("mutfuzz/Cargo.toml")).unwrap();
    assert!(manifest.contains("\nmutfuzz = \"0.1.0\"\n"), "{manifest}");
    let out = mutfuzz(&first, &["fuzz", "sort", "--trials", "300", "--seed", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let corpus = files_in(&first.join("mutfuzz/corpus/sort"));
    assert!(!corpus.is_empty());

    // Elsewhere, with no build output at all: the harness's manifest is unchanged and
    // still builds, and the campaign resumes from the corpus that moved with it.
    let second = tmp.path().join("elsewhere/second");
    std::fs::create_dir_all(second.parent().unwrap()).unwrap();
    std::fs::rename(&first, &second).unwrap();
    let clean = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .arg("clean")
        .current_dir(&second)
        .env_remove("CARGO_TARGET_DIR")
        .status()
        .unwrap();
    assert!(clean.success());
    assert!(!second.join("target").exists());
    let out = mutfuzz(&second, &["fuzz", "sort", "--trials", "300", "--seed", "3"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("stopped (budget spent)"), "{stderr}");
    assert!(!jsonl(&second.join("target/mutfuzz/sort/kills.jsonl")).is_empty(), "{stderr}");
    assert_eq!(std::fs::read_to_string(second.join("mutfuzz/Cargo.toml")).unwrap(), manifest);
    // The copy sits under the names of the root and its parent (see `Scratch::new`).
    let copy =
        std::fs::read_to_string(second.join("target/mutfuzz/work/elsewhere/second/mutfuzz/Cargo.toml"))
            .unwrap();
    assert!(copy.contains("[patch.crates-io]") && copy.contains(&*second.to_string_lossy()), "{copy}");
}

#[test]
fn a_harness_asking_for_another_engine_version_is_told_which_one_is_carried() {
    let tmp = copy_of("../../examples/insertion-sort");
    let path = tmp.path().join("mutfuzz/Cargo.toml");
    let manifest =
        std::fs::read_to_string(&path).unwrap().replace("mutfuzz = \"0.1.0\"", "mutfuzz = \"7.0\"");
    std::fs::write(&path, manifest).unwrap();
    let out = mutfuzz(tmp.path(), &["fuzz", "sort", "--trials", "5"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("asks for mutfuzz \"7.0\", but this cargo-mutfuzz carries mutfuzz 0.1.0"),
        "{stderr}"
    );
}

#[test]
fn eval_fuzzes_each_config_and_seed_for_equal_time_and_its_table_adds_up() {
    let tmp = shared_copy("../../examples/insertion-sort");
    let out = mutfuzz(
        tmp.path(),
        &[
            "eval",
            "sort",
            "--config",
            "mu2=--guidance mu2",
            "--config",
            "zest=--guidance coverage",
            "--seeds",
            "2",
            "--first-seed",
            "5",
            "--time",
            "3s",
            // Each corpus scored in two processes.
            "-j",
            "2",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("any A no B") && stdout.contains("Table I"), "{stdout}");
    let eval = tmp.path().join("target/mutfuzz/eval/sort");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(eval.join("eval.json")).unwrap()).unwrap();
    let viable = report["viable"].as_u64().unwrap();
    assert_eq!(viable, 124);
    assert_eq!(report["seeds"], serde_json::json!([5, 6]));
    let configs = report["configs"].as_array().unwrap();
    let names: Vec<&str> = configs.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["mu2", "zest"]);
    let killed_by_any = report["killed_by_any"].as_u64().unwrap();
    let reached_by_any = report["reached_by_any"].as_u64().unwrap();
    assert!(killed_by_any <= reached_by_any && reached_by_any <= viable, "{report}");
    for c in configs {
        let runs = c["runs"].as_array().unwrap();
        assert_eq!(runs.iter().map(|r| r["seed"].as_u64().unwrap()).collect::<Vec<_>>(), [5, 6], "{c}");
        let mut sum = 0;
        for r in runs {
            // Each run fuzzed its own corpus for the time given, and was scored on every mutant.
            assert!(r["seconds"].as_f64().unwrap() >= 2.5, "{r}");
            assert!(r["trials"].as_u64().unwrap() > 0 && r["corpus"].as_u64().unwrap() > 0, "{r}");
            let s = &r["score"];
            let killed = s["killed"].as_u64().unwrap();
            assert_eq!(killed as usize, s["killed_ids"].as_array().unwrap().len(), "{r}");
            assert_eq!(killed + s["survived"].as_u64().unwrap() + s["not_covered"].as_u64().unwrap(), viable);
            assert!(killed > 0 && killed <= killed_by_any && s["output_differs"].as_u64().unwrap() <= killed);
            let dir = eval.join(c["name"].as_str().unwrap()).join(format!("seed-{}", r["seed"]));
            assert_eq!(files_in(&dir.join("corpus")).len() as u64, r["corpus"].as_u64().unwrap());
            assert_eq!(jsonl(&dir.join("score.jsonl")).len() as u64, viable);
            sum += killed;
        }
        assert_eq!(c["mean_killed"].as_f64().unwrap(), sum as f64 / 2.0, "{c}");
        let share = c["output_differs_share"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&share), "{c}");
    }
    let pairs = report["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1);
    let p = &pairs[0];
    assert_eq!((p["a"].as_str(), p["b"].as_str()), (Some("mu2"), Some("zest")));
    let n = |k: &str| p[k].as_u64().unwrap();
    assert!(n("any_a_no_b") >= n("all_a_no_b") && n("any_b_no_a") >= n("all_b_no_a"), "{p}");
    assert!(n("any_a_no_b") + n("any_b_no_a") <= killed_by_any, "{p}");
}

#[test]
fn eval_refuses_a_config_that_sets_what_eval_sets_before_building_anything() {
    let tmp = copy_of("../../examples/insertion-sort");
    let out = mutfuzz(tmp.path(), &["eval", "sort", "--config", "a=--guidance mu2 --seed 3"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--seed is set by eval itself"), "{stderr}");
    assert!(!tmp.path().join("target").exists(), "{stderr}");
}

#[test]
fn cpu_time_budgets_count_the_cpu_seconds_of_the_harness_and_its_workers() {
    let tmp = shared_copy("../../examples/insertion-sort");
    let csv = tmp.path().join("target/mutfuzz/sort/stats.csv");
    for jobs in ["1", "2"] {
        let _ = std::fs::remove_file(&csv);
        let started = std::time::Instant::now();
        let out = mutfuzz(tmp.path(), &["fuzz", "sort", "--cpu-time", "--time", "2", "--jobs", jobs]);
        let wall = started.elapsed().as_secs_f64();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        // stats.csv's clock is the budget's: CPU seconds of the harness and its worker
        // (one with --jobs 2, the sentry of first runs with --jobs 1), never more than
        // the two processes' wall time (build included), and the budget was spent.
        let csv = std::fs::read_to_string(&csv).unwrap();
        let last: f64 = csv.lines().last().unwrap().split(',').next().unwrap().parse().unwrap();
        assert!(last <= 2.0 * wall, "{last} CPU seconds in {wall} wall seconds:\n{csv}");
        assert!(stderr.contains("budget spent"), "{stderr}");
    }
}

/// Run `cargo mutfuzz <args>` in `cwd` with its corpus directory `corpus` on a file
/// system of `kib` KiB (a tmpfs in a mount namespace of its own, copied to `saved` when
/// the command ends); `None` where this system lets no user make one.
#[cfg(target_os = "linux")]
fn on_a_tiny_disk(cwd: &Path, corpus: &Path, saved: &Path, kib: u32, args: &[&str]) -> Option<Output> {
    let probe = std::process::Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c", "mount -t tmpfs none /mnt"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: no mount namespace for a tiny tmpfs here");
        return None;
    }
    std::fs::create_dir_all(corpus).unwrap();
    std::fs::create_dir_all(saved).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("cargo-mutfuzz");
    let mut cmd = std::process::Command::new("unshare");
    cmd.args(["--user", "--map-root-user", "--mount", "sh", "-c"])
        .arg(format!(
            "mount -t tmpfs -o size={kib}k none \"$1\" || exit 99; c=$1; s=$2; shift 2; \"$@\"; rc=$?; \
             cp -a \"$c\"/. \"$s\"/; exit $rc"
        ))
        .arg("sh")
        .arg(corpus)
        .arg(saved)
        .arg(bin)
        .arg("mutfuzz")
        .args(args)
        .current_dir(cwd)
        .env_remove("CARGO_TARGET_DIR");
    Some(cmd.output().unwrap())
}

#[cfg(target_os = "linux")]
#[test]
fn bad_corpus_input_a_full_disk_and_ctrl_c_stop_fuzzing_cleanly_and_keep_what_was_saved() {
    use std::time::{Duration, Instant};

    let tmp = shared_copy("tests/fixtures/crasher");
    let corpus = tmp.path().join("mutfuzz/corpus/check");
    std::fs::create_dir_all(&corpus).unwrap();
    // A stored input cut short: its bytes no longer hash to its name.
    let name = mutfuzz_contract::content_name(&[7, 7, 7, 7]);
    std::fs::write(corpus.join(&name), [7, 7]).unwrap();
    let out = mutfuzz(tmp.path(), &["fuzz", "check", "--trials", "100"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains(&format!("warning: {}: damaged", corpus.join(&name).display())), "{stderr}");
    assert_eq!(std::fs::read(corpus.join(&name)).unwrap(), [7, 7], "never deleted nor changed");
    assert!(files_in(&corpus).len() > 1, "the campaign went on and saved inputs");

    // A corpus directory that cannot be written: named, before any build.
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let bad = file.join("corpus");
    let out = mutfuzz(tmp.path(), &["fuzz", "check", "--trials", "5", "--corpus", bad.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with(&format!("error: cannot write the corpus directory {}", bad.display())),
        "{stderr}"
    );
    assert!(stderr.contains("pass a writable one with --corpus DIR"), "{stderr}");

    // A full disk under the corpus: the campaign stops with the reason, and every file
    // saved there is whole (named by its content).
    let small = tmp.path().join("small");
    let saved = tmp.path().join("saved");
    if let Some(out) = on_a_tiny_disk(
        tmp.path(),
        &small,
        &saved,
        12,
        &["fuzz", "check", "--trials", "100000", "--corpus", small.to_str().unwrap()],
    ) {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(70), "{stderr}");
        let line = stderr.lines().find(|l| l.starts_with("error: ")).unwrap_or_default();
        assert!(line.starts_with("error: the disk is full, the campaign stopped"), "{stderr}");
        assert!(
            line.contains("No space left on device") && line.contains("run the same command again"),
            "{line}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        // What the full disk held: whole inputs only, each named by its content.
        let kept = files_in(&saved);
        assert!(!kept.is_empty(), "nothing was saved before the disk filled");
        for f in kept {
            let bytes = std::fs::read(&f).unwrap();
            assert_eq!(
                mutfuzz_contract::content_name(&bytes),
                f.file_name().unwrap().to_string_lossy(),
                "{}",
                f.display()
            );
        }
    }

    // Ctrl-C in the middle of a campaign: it stops, no process of it is left, and the
    // records and corpus read back whole.
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("cargo-mutfuzz"));
    cmd.args(["mutfuzz", "fuzz", "check", "--jobs", "2"])
        .current_dir(tmp.path())
        .env_remove("CARGO_TARGET_DIR")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let before = files_in(&corpus).len();
    let deadline = Instant::now() + Duration::from_secs(300);
    while files_in(&corpus).len() == before && child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the campaign saved nothing in time");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: sends a signal to our own child.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "Ctrl-C is how an open-ended campaign ends: {stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !common::processes_under(tmp.path()).is_empty() {
        assert!(Instant::now() < deadline, "still running: {:?}", common::processes_under(tmp.path()));
        std::thread::sleep(Duration::from_millis(100));
    }
    jsonl(&tmp.path().join("target/mutfuzz/check/kills.jsonl"));
    for f in files_in(&corpus) {
        let bytes = std::fs::read(&f).unwrap();
        let file_name = f.file_name().unwrap().to_string_lossy().into_owned();
        if file_name.starts_with('.') {
            // A write the signal cut short leaves its hidden temp file, never a damaged
            // input: the rename that makes an input is atomic, and hidden files are not read.
            assert!(file_name.contains(".tmp"), "{}", f.display());
            continue;
        }
        assert!(file_name == name || mutfuzz_contract::content_name(&bytes) == file_name, "{}", f.display());
    }

    // The package stops building: the user's own error, exit code 4.
    let lib = tmp.path().join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap().replace("sum * 2", "sum * \"2\"");
    std::fs::write(&lib, text).unwrap();
    let out = mutfuzz(tmp.path(), &["fuzz", "check", "--trials", "5"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains("error: the harness does not build with the package, even without mutants"),
        "{stderr}"
    );
    assert!(stderr.contains("src/lib.rs:15"), "the user's line: {stderr}");
}

/// `HARNESS <args>` in `cwd`, without the environment of the tests.
fn harness_bin(bin: &Path, cwd: &Path, args: &[&str]) -> Output {
    let mut cmd = std::process::Command::new(bin);
    cmd.args(args).current_dir(cwd);
    for (k, _) in std::env::vars() {
        if k.starts_with("MUTFUZZ_") || k.starts_with("RUST_BACKTRACE") {
            cmd.env_remove(k);
        }
    }
    cmd.output().unwrap()
}

#[test]
fn a_cargo_fuzz_corpus_scores_and_the_harness_binary_speaks_libfuzzer_s_command_line() {
    let tmp = copy_of("tests/fixtures/scaler");
    let root = tmp.path();
    let out_dir = root.join("out");
    let out = mutfuzz(root, &["build", "scale", "--out", "out"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let bin = out_dir.join("scale");
    assert!(out_dir.join("scale.mutants.json").is_file());

    // A corpus as cargo-fuzz keeps it for `fuzz_target!(|x: u8| …)`: raw bytes, decoded by
    // `u8::arbitrary_take_rest`. The empty file is shorter than u8's size hint: skipped.
    let cf = root.join("cargo-fuzz-corpus");
    std::fs::create_dir_all(&cf).unwrap();
    for (name, bytes) in [("five", &[5u8][..]), ("max", &[255]), ("empty", &[]), ("two", &[7, 9])] {
        std::fs::write(cf.join(name), bytes).unwrap();
    }
    let score = |extra: &[&str]| {
        let mut args = vec!["score", "scale", "--corpus", "cargo-fuzz-corpus", "--format", "arbitrary"];
        args.extend_from_slice(extra);
        let out = mutfuzz(root, &args);
        let state = root.join("target/mutfuzz/scale/score.json");
        (out, serde_json::from_str::<Value>(&std::fs::read_to_string(state).unwrap()).unwrap())
    };
    let (out, whole) = score(&[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("killed by output         7\nkilled by panic          2\n"), "{stdout}");
    assert!(stdout.contains("killed by crash          3\n"), "{stdout}");
    assert!(stdout.ends_with("score 63.2% (12 killed of 19 viable mutants)\n"), "{stdout}");
    // The smallest file that kills each mutant is `five` (5: the first in name order).
    for m in whole["mutants"].as_array().unwrap().iter().filter(|m| m["outcome"] == "killed") {
        assert_eq!(m["input"], "five", "{m}");
    }
    let log = std::fs::read_to_string(root.join("target/mutfuzz/scale/harness.log")).unwrap();
    assert!(log.contains("1 of 4 files left out: `Arbitrary` rejects them"), "{log}");

    // Two shards of the score merge into the whole; --min-score decides the exit code.
    let mut shards = Vec::new();
    for k in ["0/2", "1/2"] {
        let (out, part) = score(&["--shard", k]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(part["shard"], k);
        let path = root.join(format!("score-{}.json", &k[..1]));
        std::fs::write(&path, part.to_string()).unwrap();
        shards.push(path.to_string_lossy().into_owned());
    }
    let out = mutfuzz(root, &["merge", "-o", "merged", &shards[1], &shards[0], "--min-score", "70"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{stderr}");
    assert!(
        stderr.contains("Mutation score 63.2% (killed over viable mutants): below --min-score 70"),
        "{stderr}"
    );
    let merged: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("merged/score.json")).unwrap()).unwrap();
    assert_eq!(merged["mutants"], whole["mutants"]);
    assert_eq!(merged["summary"], whole["summary"]);
    assert!(merged.get("shard").is_none());
    // The merged score renders as the report of the whole.
    let out = mutfuzz(root, &["report", "scale", "--results", "merged"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("mutants, score 63.2%; report in"), "{stderr}");
    assert!(root.join("merged/report.html").is_file());
    let (out, _) = score(&["--min-score", "60"]);
    assert_eq!(out.status.code(), Some(0));

    // libFuzzer's command line: a campaign into the first corpus directory, status lines,
    // and mutants that abort killed in the worker, never ending the fuzzer.
    let corpus = root.join("corpus");
    let lf = |args: &[&str]| {
        let out = harness_bin(&bin, root, args);
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, stderr) = lf(&["-runs=40", "-seed=1", "-timeout=25", "corpus"]);
    assert_eq!(code, Some(0), "{stderr}");
    for line in [
        "INFO: mutfuzz ignores the libFuzzer flag -timeout=25\n",
        "INFO: Seed: 1\n",
        "INFO: mutfuzz: target scale, 19 mutants from ",
        "#0\tINITED cov: 0 ft: 0 corp: 0/0b ",
        "#1\tNEW    cov: ",
        "#40\tDONE   cov: ",
        "Done 40 runs in ",
    ] {
        assert!(stderr.contains(line), "{line:?} not in:\n{stderr}");
    }
    let done = stderr.lines().find(|l| l.starts_with("#40\tDONE")).unwrap();
    let kills: u32 = done.rsplit("kills: ").next().unwrap().parse().unwrap();
    assert!(kills >= 3, "the aborting mutants are killed: {done}");
    let stored = files_in(&corpus);
    let bytes: u64 = stored.iter().map(|f| f.metadata().unwrap().len()).sum();
    assert!(!stored.is_empty(), "{stderr}");
    assert!(done.contains(&format!("corp: {}/{bytes}b", stored.len())), "{done}");

    // Seed 3 runs into the bug (0xAB) within 40 runs: `crash-<sha1>` under the prefix.
    std::fs::create_dir_all(root.join("art")).unwrap();
    let (code, stderr) = lf(&["-runs=40", "-seed=3", "-artifact_prefix=art/", "corpus"]);
    assert_eq!(code, Some(77), "{stderr}");
    assert!(stderr.contains("0xAB is not a scale"), "{stderr}");
    assert!(stderr.contains("== ERROR: libFuzzer: deadly signal"), "{stderr}");
    let artifacts = files_in(&root.join("art"));
    assert_eq!(artifacts.len(), 1);
    let bytes = std::fs::read(&artifacts[0]).unwrap();
    let name = format!("crash-{}", mutfuzz::libfuzzer::sha1_hex(&bytes));
    assert_eq!(artifacts[0].file_name().unwrap().to_string_lossy(), name);
    assert!(stderr.contains(&format!("Test unit written to art/{name}")), "{stderr}");
    // Not kept in the corpus; running the artifact alone reproduces the crash.
    assert!(!files_in(&corpus).iter().any(|f| std::fs::read(f).unwrap() == bytes));
    let (code, stderr) = lf(&[&format!("art/{name}")]);
    assert_eq!(code, Some(77), "{stderr}");
    assert!(
        stderr.contains(&format!("Running: art/{name}")) && stderr.contains("0xAB is not a scale"),
        "{stderr}"
    );

    // -merge=1: the inputs of the other directories that the guidance keeps.
    let (code, stderr) = lf(&["-merge=1", "merged-corpus", "corpus"]);
    assert_eq!(code, Some(0), "{stderr}");
    let merged = files_in(&root.join("merged-corpus")).len();
    assert!(merged > 0 && merged <= files_in(&corpus).len(), "{stderr}");
    assert!(stderr.contains("MERGE-OUTER: "), "{stderr}");

    // Three fuzzer processes on one corpus directory at once, as ClusterFuzzLite runs
    // jobs: every file they leave is whole (its bytes hash to its name), and no
    // temporary file is left.
    let jobs: Vec<_> = (10..13)
        .map(|seed| {
            let mut cmd = std::process::Command::new(&bin);
            cmd.args(["-runs=300", &format!("-seed={seed}"), "-artifact_prefix=art/", "shared"]);
            cmd.current_dir(root).stderr(std::process::Stdio::piped());
            cmd.env_remove("MUTFUZZ_TARGET").spawn().unwrap()
        })
        .collect();
    for job in jobs {
        let out = job.wait_with_output().unwrap();
        // 77: a seed that ran into the bug.
        assert!(matches!(out.status.code(), Some(0 | 77)), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let shared = files_in(&root.join("shared"));
    assert!(shared.len() > 1);
    for f in shared {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!name.starts_with('.'), "a temporary file is left: {name}");
        assert_eq!(name, mutfuzz_contract::content_name(&std::fs::read(&f).unwrap()));
    }
}
