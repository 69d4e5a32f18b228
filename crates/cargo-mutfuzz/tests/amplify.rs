//! End-to-end tests of `cargo mutfuzz amplify` on the bundled `textstats` (no harness):
//! the tests it writes pass under plain `cargo test`, are literals and calls, catch the
//! survivors they name, and nothing else in the tree changes; on a fixture with a
//! hand-written harness, whose tests build its derived types and call its targets; and
//! its bad inputs.

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use common::{copy_dir, mutfuzz_command};

/// A copy of a crate, and the directory of the temporary files of the commands run on it
/// (`TMPDIR`: amplify's check copies the workspace there), both removed when the test ends.
struct Copied {
    krate: tempfile::TempDir,
    tmp: tempfile::TempDir,
}

impl Copied {
    fn of(from: &Path) -> Copied {
        let copied = Copied { krate: tempfile::tempdir().unwrap(), tmp: tempfile::tempdir().unwrap() };
        copy_dir(from, copied.krate.path());
        copied
    }

    fn root(&self) -> &Path {
        self.krate.path()
    }

    fn mutfuzz(&self, args: &[&str]) -> Output {
        mutfuzz_command(self.root(), args)
            .env("RUST_BACKTRACE", "1")
            .env("TMPDIR", self.tmp.path())
            .output()
            .unwrap()
    }
}

fn copy_of_textstats() -> Copied {
    Copied::of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/textstats"))
}

fn copy_of_fixture(name: &str) -> Copied {
    Copied::of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Files of the tree, but for build output and results.
fn tree(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![root.to_owned()];
    while let Some(dir) = todo.pop() {
        for e in fs::read_dir(&dir).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name == "target" || name.starts_with("mutfuzz.out") || name == "Cargo.lock" {
                continue;
            }
            if e.file_type().unwrap().is_dir() {
                todo.push(e.path());
            } else {
                out.push(e.path().strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn amplify_writes_checked_readable_tests_for_the_survivors_and_nothing_else() {
    let krate = copy_of_textstats();
    let root = krate.root();

    // Before any test run: it says what to do.
    let out = krate.mutfuzz(&["amplify", "--trials", "100"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("run `cargo mutfuzz test` first"), "{}", stderr(&out));

    let out = krate.mutfuzz(&["test"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let before = tree(root);

    // A budget too small for the generated targets fails before their harness is built.
    let out = krate.mutfuzz(&["eval", "--survivors", "--time", "1s", "--seeds", "1"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--time 1 gives each of the ") && err.contains(" targets less than 1 second"),
        "{err}"
    );
    assert!(!err.contains("Caps per harness process"), "{err}");

    // The infection feedback against plain Mu2, aimed at the same survivors: each run's
    // kills are survivors only.
    let out = krate.mutfuzz(&["eval", "--survivors", "--time", "12s", "--seeds", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let eval: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(root.join("target/mutfuzz/eval/@survivors/eval.json")).unwrap(),
    )
    .unwrap();
    let outcomes: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(root.join("mutfuzz.out/outcomes.json")).unwrap()).unwrap();
    let alive: Vec<u64> = outcomes["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["outcome"] == "missed" || o["outcome"] == "not-covered")
        .map(|o| o["mutant"]["id"].as_u64().unwrap())
        .collect();
    assert_eq!(
        (eval["survivors"].as_bool(), eval["viable"].as_u64(), alive.len()),
        (Some(true), Some(16), 16)
    );
    let configs: Vec<&str> =
        eval["configs"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(configs, ["infection", "mu2"]);
    for c in eval["configs"].as_array().unwrap() {
        let killed = c["runs"][0]["score"]["killed_ids"].as_array().unwrap();
        assert!(!killed.is_empty() && killed.iter().all(|id| alive.contains(&id.as_u64().unwrap())), "{c}");
    }

    let out = krate.mutfuzz(&["amplify", "--trials", "6000", "--seed", "0"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("Amplifying the tests of textstats: 16 survivors (9 missed, 7 not covered, 0 timed out"),
        "{err}"
    );
    assert!(err.contains("No harness in the package: generated one from its public API"), "{err}");
    // What is left are the four equivalent mutants of clamp_percent (see its doc comment).
    assert!(err.contains("missed 9 → 4; not covered 7 → 0; score 82.6 % → 95.7 %;"), "{err}");
    assert!(!err.contains("panicked"), "the target's own panics are no news:\n{err}");

    // One file more in the tree, and only that.
    let mut after = before.clone();
    after.push("tests/mutfuzz_amplified.rs".to_owned());
    after.sort();
    assert_eq!(tree(root), after);
    let text = fs::read_to_string(root.join("tests/mutfuzz_amplified.rs")).unwrap();
    assert!(text.contains("fn triple() {\n    assert_eq!(textstats::triple("), "{text}");
    assert!(text.contains("// Kills src/lib.rs:76:"), "{text}");
    assert!(text.contains("fn clamp_percent() {"), "{text}");
    for blob in ["include_bytes", "mutfuzz", "0x"] {
        assert!(!text.replace("cargo mutfuzz amplify", "").contains(blob), "{blob} in:\n{text}");
    }
    let fmt = std::process::Command::new("rustfmt")
        .args(["--check", "--edition", "2021"])
        .arg(root.join("tests/mutfuzz_amplified.rs"))
        .status();
    if let Ok(status) = fmt {
        assert!(status.success(), "not rustfmt-clean:\n{text}");
    }

    // Results older than the file: its tests are not in them, so nothing is written again.
    let out = krate.mutfuzz(&["amplify", "--trials", "5"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("mutfuzz_amplified.rs is no older than"), "{}", stderr(&out));

    // Plain cargo passes them; the mutation test with them catches what amplify said.
    let cargo = std::process::Command::new(env!("CARGO"))
        .args(["test", "--quiet", "--test", "mutfuzz_amplified"])
        .current_dir(root)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert!(cargo.status.success(), "{}", String::from_utf8_lossy(&cargo.stdout));
    let out = krate.mutfuzz(&["test"]);
    assert!(
        stderr(&out).contains("95 mutants: 85 caught, 4 missed, 3 timeout, 3 unviable, 0 not covered"),
        "{}",
        stderr(&out)
    );

    // Only the equivalent mutants are left: another amplify writes nothing new, and says
    // that no survivor is left to a target it cannot reach. Five trials are too few for
    // every target to have its least: it fuzzes that least instead.
    let out = krate.mutfuzz(&["amplify", "--trials", "5", "--seed", "1"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(" trials, 10 trials each: fuzzing for that instead of 5 trials"), "{err}");
    assert!(err.contains("Amplifying the tests of textstats: 4 survivors (4 missed"), "{err}");
    assert!(err.contains("0 of 4 survivors killed"), "{err}");
    assert_eq!(fs::read_to_string(root.join("tests/mutfuzz_amplified.rs")).unwrap(), text);
}

#[test]
fn tests_of_hand_written_targets_build_derived_values_and_call_the_included_harness() {
    let krate = copy_of_fixture("hand");
    let root = krate.root();
    let out = krate.mutfuzz(&["test"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let before = tree(root);

    // The harness keeps `Bounds` and `clamp` private and the package has no `mutfuzz`:
    // their tests are left out, and amplify says what to add.
    let amplify = ["amplify", "--trials", "2000", "--seed", "0"];
    let out = krate.mutfuzz(&amplify);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("Fuzzed 2 targets in"), "{err}");
    let version = env!("CARGO_PKG_VERSION");
    let notes = format!(
        "note: a test of a hand-written target includes the harness (mutfuzz/src/main.rs) as a module, so the \
         package's tests need its dependencies: add to Cargo.toml\n  [dev-dependencies]\n  mutfuzz = \"{version}\"\n\
         note: a test that includes the harness as a module sees only what the harness makes visible: add \
         `pub(crate)` to\n  mutfuzz/src/main.rs:29: struct Bounds\n  mutfuzz/src/main.rs:31: field x of Bounds\n  \
         mutfuzz/src/main.rs:33: field lo of Bounds\n  mutfuzz/src/main.rs:35: field hi of Bounds\n  \
         mutfuzz/src/main.rs:38: fn clamp\n\
         No test could be written: 6 input(s) of hand-written targets: left out until their tests can build (see the notes)\n"
    );
    assert!(err.contains(&notes), "{err}");
    assert_eq!(tree(root), before);

    // Done as the notes say, the tests are written.
    let manifest = root.join("Cargo.toml");
    let text = fs::read_to_string(&manifest).unwrap();
    fs::write(&manifest, format!("{text}\n[dev-dependencies]\nmutfuzz = \"{version}\"\n")).unwrap();
    let main = root.join("mutfuzz/src/main.rs");
    let mut text = fs::read_to_string(&main).unwrap();
    for item in ["struct Bounds", "    x: i64", "    lo: i64", "    hi: i64", "fn clamp"] {
        let at = text.find(&format!("\n{item}")).unwrap() + 1 + item.len() - item.trim_start().len();
        text.insert_str(at, "pub(crate) ");
    }
    fs::write(&main, text).unwrap();
    let out = krate.mutfuzz(&amplify);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    // What is left are the three equivalent mutants of clamp (see its doc comment).
    assert!(err.contains("missed 0 → 3; not covered 25 → 0; score 10.7 % → 89.3 %; "), "{err}");
    // Six candidates, one of which may catch only what the others catch: the check credits
    // a caught mutant to the test that failed first, which the test threads decide.
    let written =
        fs::read_to_string(root.join("tests/mutfuzz_amplified.rs")).unwrap().matches("#[test]").count();
    let redundant = err.matches(": catches only mutants the tests kept catch\n").count();
    assert!(written + redundant == 6 && redundant <= 1, "{err}");
    assert!(err.contains(&format!("89.3 %; {written} tests,")), "{err}");
    let text = fs::read_to_string(root.join("tests/mutfuzz_amplified.rs")).unwrap();
    assert!(
        text.contains(
            "// The harness's targets and types, compiled into these tests.\n#[path = \"../mutfuzz/src/main.rs\"]\n\
             #[allow(dead_code)]\nmod harness;\n\nuse harness::{Bounds, Term};\n"
        ),
        "{text}"
    );
    // The value a derived type's expression, not bytes; the call the harness's target.
    assert!(text.contains("fn value() {\n    let term = Term::"), "{text}");
    assert!(text.contains("Box::new(Term::Num("), "{text}");
    assert!(text.contains("assert_eq!(harness::value(term), "), "{text}");
    assert!(text.contains("let bounds = Bounds { x: "), "{text}");
    assert!(text.contains("assert_eq!(harness::clamp(bounds), "), "{text}");
    for blob in ["include_bytes", "0x", "b\"", "replay"] {
        assert!(!text.contains(blob), "{blob} in:\n{text}");
    }
    let fmt = std::process::Command::new("rustfmt")
        .args(["--check", "--edition", "2021"])
        .arg(root.join("tests/mutfuzz_amplified.rs"))
        .status();
    if let Ok(status) = fmt {
        assert!(status.success(), "not rustfmt-clean:\n{text}");
    }

    // Plain cargo passes them. A user's `cargo test` takes `mutfuzz` from the registry;
    // this one patches it, as a user could, to the engine `cargo mutfuzz` wrote out.
    let engine = root.join("target/mutfuzz/engine/mutfuzz");
    let cargo = std::process::Command::new(env!("CARGO"))
        .args(["test", "--test", "mutfuzz_amplified", "--config"])
        .arg(format!("patch.crates-io.mutfuzz.path={:?}", engine.display().to_string()))
        .current_dir(root)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&cargo.stdout);
    assert!(cargo.status.success(), "{stdout}{}", String::from_utf8_lossy(&cargo.stderr));
    assert!(
        stdout.contains("test value ... ok") && stdout.contains(&format!("{written} passed")),
        "{stdout}"
    );

    // Aimed at mutants that die at once, `fuzz --all` stops before its budget is spent:
    // here one that `clamp` killed above, out of a budget of four rounds.
    let kills =
        fs::read_to_string(root.join("target/mutfuzz/amplify/campaigns/clamp/state/kills.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(kills.lines().next().unwrap()).unwrap();
    let aim = tempfile::NamedTempFile::new().unwrap();
    fs::write(aim.path(), format!("{}\n", first["mutant"])).unwrap();
    let aim = aim.path().to_str().unwrap();
    let out = krate.mutfuzz(&["fuzz", "--all", "--trials", "2000", "--seed", "0", "--mutants-file", aim]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("Every aimed mutant is killed: the rest of the budget is not spent"), "{err}");
    assert!(!err.contains("round 2/4"), "{err}");
    assert!(err.contains("Fuzzing 2 targets stopped (every aimed mutant killed)"), "{err}");
}

#[test]
fn an_input_whose_smaller_forms_abort_the_original_is_kept_whole() {
    // The fixture's original aborts on one-byte inputs, which shrinking a killing input
    // tries: the harness dies while shrinking, and `amplify` goes on with the input whole.
    let krate = copy_of_fixture("shrink-abort");
    let out = krate.mutfuzz(&["test"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = krate.mutfuzz(&["amplify", "--trials", "3000", "--seed", "0"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    // (`signal: 6 (SIGABRT) (core dumped)` where core dumps are on.)
    let died = "note: the harness died while shrinking (signal: 6 (SIGABRT)";
    let words = "): memory allocation of 72057594037927935 bytes failed\n  \
                 (on a smaller form of count_large's input ";
    assert!(err.contains(died) && err.contains(words) && err.contains(", which is kept whole)"), "{err}");
    assert!(err.contains("not covered 14 → 0;"), "{err}");
    let text = fs::read_to_string(krate.root().join("tests/mutfuzz_amplified.rs")).unwrap();
    assert!(text.contains("assert_eq!(shrink_abort::count_large(b\""), "{text}");
}

#[test]
fn a_crate_whose_tests_fail_unmutated_is_refused_as_test_refuses_it() {
    let krate = copy_of_textstats();
    let root = krate.root();
    let lib = root.join("src/lib.rs");
    let text = fs::read_to_string(&lib)
        .unwrap()
        .replace("(a.x - b.x).abs() + (a.y - b.y).abs()", "(a.x - b.x).abs()");
    fs::write(&lib, text).unwrap();
    let out = krate.mutfuzz(&["test"]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let out = krate.mutfuzz(&["amplify", "--trials", "100"]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("`cargo mutfuzz test` stopped before any mutant ran: test "), "{err}");
    assert!(err.contains("with no mutant active (see "), "{err}");
    assert!(err.contains("fix what `cargo mutfuzz test` reported, run `cargo mutfuzz test`"), "{err}");
    assert!(!root.join("tests/mutfuzz_amplified.rs").exists());
}
