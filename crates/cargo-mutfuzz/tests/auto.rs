//! End-to-end tests of `cargo mutfuzz init --auto`: the harness generated from a fixture
//! crate's public API (one item of each kind the pass drives or skips), regenerated
//! without touching the user's `main.rs`, refused for a crate with nothing to drive.

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use common::{copy_dir, mutfuzz_command};

fn copy_of(fixture: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(fixture), dir.path());
    dir
}

fn mutfuzz(cwd: &Path, args: &[&str]) -> Output {
    mutfuzz_command(cwd, args).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn init_auto_writes_the_targets_of_the_public_api_and_explains_every_skip() {
    let krate = copy_of("api");
    let root = krate.path();
    let out = mutfuzz(root, &["init", "--auto", "--explain"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let expected_lines = [
        // `Halve`'s impl for `u8` is driven: `<u8 as api_zoo::Halve>::halve(value)`.
        // `apply`'s closure is made from a number: `|x| x.wrapping_add(f)`.
        "Read the public API of api-zoo: 27 items, 22 driven, 5 skipped",
        "  skipped first_unchecked (src/lib.rs:38): is an `unsafe fn`",
        "  skipped halve (src/lib.rs:56): does not compile: the trait bound `i64: Halve` is not satisfied",
        "  skipped load (src/lib.rs:27): touches the file system",
        // `Window<const N: usize>` is built at 16; `Ring<T, K, const CAP: usize>` at `K =
        // i64` fails only where the targets render it (its `Debug` asks `K: Order`), and
        // goes whole.
        "  skipped window::Ring::<i64, i64, 16>::new (src/window.rs:45): does not compile: \
         `api_zoo::window::Ring::<i64, i64, 16>` does not meet its impls' bounds",
        "  skipped window::Ring::len (src/window.rs:50): a method of `Ring`, which no public constructor builds",
    ];
    for line in expected_lines {
        assert!(err.lines().any(|l| l == line), "missing {line:?} in:\n{err}");
    }
    // `halve` fails at every tried type, then at the fallback `u64` in a third round;
    // `Ring`'s constructor, then its calls, in two more.
    assert!(err.contains("auto.rs: 12 targets (checked with cargo check in 5 rounds)"), "{err}");
    let module = fs::read_to_string(root.join("mutfuzz/src/auto.rs")).unwrap();
    let expected = include_str!("expected/api_zoo_auto.rs");
    assert_eq!(
        module, expected,
        "the generated module changed; if on purpose, update tests/expected/api_zoo_auto.rs"
    );
    let main = fs::read_to_string(root.join("mutfuzz/src/main.rs")).unwrap();
    assert!(main.contains("mod auto;") && main.contains("mutfuzz::targets!(generated = auto);"), "{main}");

    // Again, after the user added a target of their own: only `auto.rs` is rewritten.
    let own =
        main.replace("generated = auto);", "generated = auto, mine);\n\nfn mine(x: u8) -> u8 {\n    x\n}");
    fs::write(root.join("mutfuzz/src/main.rs"), &own).unwrap();
    fs::write(root.join("mutfuzz/src/auto.rs"), "// stale\n").unwrap();
    let out = mutfuzz(root, &["init", "--auto"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("5 skipped\n  skipped: "), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(root.join("mutfuzz/src/main.rs")).unwrap(), own);
    assert_eq!(fs::read_to_string(root.join("mutfuzz/src/auto.rs")).unwrap(), expected);
}

#[test]
fn a_crate_with_nothing_to_drive_says_why_item_by_item() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir(root.join("src")).unwrap();
    fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"io-only\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    fs::write(
        root.join("src/lib.rs"),
        "pub fn size(p: &std::path::Path) -> u64 { std::fs::metadata(p).map(|m| m.len()).unwrap_or(0) }\n\
         pub fn now() -> u64 { std::time::SystemTime::now().elapsed().map(|d| d.as_secs()).unwrap_or(0) }\n",
    )
    .unwrap();
    let out = mutfuzz(root, &["init", "--auto"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no item of io-only's public API can be driven, so no harness was written:"),
        "{err}"
    );
    assert!(err.contains("  now (src/lib.rs:2): touches the clock"), "{err}");
    assert!(err.contains("  size (src/lib.rs:1): touches the file system"), "{err}");
    assert!(!root.join("mutfuzz").exists());
}

#[test]
fn a_generated_targets_corpus_exports_as_readable_tests_that_pass() {
    let krate = copy_of("api");
    let root = krate.path();
    // The check's copy of the workspace goes to `TMPDIR`, removed when the test ends.
    let tmp = tempfile::tempdir().unwrap();
    let export =
        |target: &str| mutfuzz_command(root, &["export", target]).env("TMPDIR", tmp.path()).output().unwrap();
    assert!(mutfuzz(root, &["init", "--auto"]).status.success());
    let out = mutfuzz(root, &["fuzz", "counter_calls", "--trials", "2000", "--seed", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = export("counter_calls");
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("tests/mutfuzz_counter_calls.rs: "), "{err}");
    let text = fs::read_to_string(root.join("tests/mutfuzz_counter_calls.rs")).unwrap();
    assert!(text.contains("let mut counter = api_zoo::Counter::new("), "{text}");
    assert!(text.contains("// Kills src/counter.rs:"), "{text}");
    assert!(!root.join("tests/mutfuzz_counter_calls.jsonl").exists());
    assert!(!root.join("mutfuzz/engine").exists(), "nothing vendored");
    let cargo = std::process::Command::new(env!("CARGO"))
        .args(["test", "--quiet", "--test", "mutfuzz_counter_calls"])
        .current_dir(root)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert!(cargo.status.success(), "{}", String::from_utf8_lossy(&cargo.stdout));
    // A hand-written target's test calls it in the harness, included as a module: until
    // the package has `mutfuzz` and the target is `pub(crate)`, export says so and
    // writes nothing.
    let main = fs::read_to_string(root.join("mutfuzz/src/main.rs")).unwrap();
    let own = main.replace(
        "generated = auto);",
        "generated = auto, mine);\n\nfn mine(mut v: Vec<u8>) -> (usize, Vec<u8>) {\n    \
         (api_zoo::sort_count(&mut v), v)\n}",
    );
    fs::write(root.join("mutfuzz/src/main.rs"), own).unwrap();
    let out = export("mine");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("run `cargo mutfuzz fuzz mine` first"), "{}", stderr(&out));
    let out = mutfuzz(root, &["fuzz", "mine", "--trials", "500", "--seed", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = export("mine");
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let line = main.lines().count() + 2;
    let notes = format!(
        "  [dev-dependencies]\n  mutfuzz = \"{}\"\nnote: a test that includes the harness as a module sees only \
         what the harness makes visible: add `pub(crate)` to\n  mutfuzz/src/main.rs:{line}: fn mine\n",
        env!("CARGO_PKG_VERSION")
    );
    assert!(err.contains(&notes), "{err}");
    assert!(err.contains("left out until their tests can build (see the notes)"), "{err}");
    assert!(!root.join("tests/mutfuzz_mine.rs").exists());
}
