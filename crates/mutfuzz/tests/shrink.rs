//! The harness's `shrink` and `tmin` commands end to end. This test binary is the
//! harness: run with a harness command (`shrink`, `tmin`, `worker`) it runs it, as the
//! `main` of `targets!` would; run plainly it runs the checks, each a child process of
//! itself, so the shrink's mutants run in real worker processes (one of them aborts).

use std::path::Path;
use std::process::Command;

use mutfuzz::contract::{CampaignDir, EXIT_NOT_KEPT, Kept, NondeterministicRecord, ShrinkLine};
use mutfuzz::harness::Registry;
use mutfuzz_rt::{at, enter};

// site 1: mutant 1 `len` → `len.min(2)`: killed (output) by three elements or more
// site 2: mutant 2 `max` → `max.min(9)`: killed (output) by an element of 10 or more;
//         mutant 3 aborts the process on an element of 200 or more (a `crash` kill)
// site 4: mutant 4, never reached
fn summary(v: Vec<u8>) -> (usize, u8) {
    let m = enter();
    let len = match at(m, 1, 1) {
        1 => v.len().min(2),
        _ => v.len(),
    };
    let max = v.iter().copied().max().unwrap_or(0);
    let max = match at(m, 2, 2) {
        1 => max.min(9),
        2 if max >= 200 => std::process::abort(),
        _ => max,
    };
    if len == usize::MAX {
        let _ = at(m, 4, 1);
    }
    (len, max)
}

fn picky(s: String) -> usize {
    assert!(!s.contains("zz"), "two z in a row");
    s.len()
}

// `targets!` defines `main` too, unused here.
mod generated {
    use std::sync::atomic::{AtomicU64, Ordering};

    use mutfuzz_rt::{at, enter};

    static CALLS: AtomicU64 = AtomicU64::new(0);

    // Its output counts its calls: nondeterministic. Site 1: mutant 1 panics on more than
    // one element; mutant 2 adds one to the length (an output difference only).
    pub fn counted(v: Vec<u8>) -> (u64, usize) {
        let m = enter();
        let len = match at(m, 1, 2) {
            1 if v.len() > 1 => panic!("long"),
            2 => v.len() + 1,
            _ => v.len(),
        };
        (CALLS.fetch_add(1, Ordering::Relaxed), len)
    }

    mutfuzz::generated_targets!(counted);
}

fn registry() -> Registry {
    let mut r = Registry::new();
    generated::add_targets(&mut r);
    r.add("summary", summary);
    r.add("picky", picky);
    r
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|c| ["worker", "shrink", "tmin"].contains(&c.as_str())) {
        let code = registry().run(&args).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            2
        });
        std::process::exit(code);
    }
    let dir = tempfile::tempdir().unwrap();
    shrink_keeps_the_named_kills_a_crash_among_them(dir.path());
    shrink_with_a_catalog_keeps_every_kill_of_the_input(dir.path());
    tmin_keeps_the_panic_message();
    inputs_without_the_property_are_refused_with_exit_not_kept(dir.path());
    a_nondeterministic_generated_target_keeps_only_kills_by_panic(dir.path());
    println!("shrink: 5 checks passed");
}

/// A vector's choice bytes: each element after a continuation byte, then the end byte.
fn vector(elements: &[u8]) -> Vec<u8> {
    elements.iter().flat_map(|&b| [1, b]).chain([0]).collect()
}

/// Runs this binary as the harness; returns its exit code, stdout and the output file.
fn harness(args: &[&str], input: &[u8], dir: &Path) -> (i32, String, Option<Vec<u8>>) {
    let (file, out) = (dir.join("input"), dir.join("out"));
    std::fs::write(&file, input).unwrap();
    let _ = std::fs::remove_file(&out);
    let mut words: Vec<String> = args[..2].iter().map(|w| (*w).to_owned()).collect();
    words.push(file.to_string_lossy().into_owned());
    words.extend(args[2..].iter().map(|w| (*w).to_owned()));
    words.extend(["--out".to_owned(), out.to_string_lossy().into_owned()]);
    let output = Command::new(std::env::current_exe().unwrap()).args(&words).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (output.status.code().unwrap_or(-1), stdout, std::fs::read(&out).ok())
}

fn shrink_keeps_the_named_kills_a_crash_among_them(dir: &Path) {
    let input = vector(&[5, 40, 3, 250, 8, 1, 90, 7, 230, 2, 11, 6]);
    let (code, stdout, out) = harness(&["shrink", "summary", "--mutants", "3,1,2"], &input, dir);
    assert_eq!(code, 0, "{stdout}");
    // Three elements (mutant 1), one of them 200 (mutants 2 and 3), the small ones first.
    let shrunk = vector(&[0, 0, 200]);
    assert_eq!(out.as_deref(), Some(&shrunk[..]));
    let line = ShrinkLine::parse(stdout.lines().last().unwrap()).unwrap();
    assert_eq!((line.before, line.after, line.kept), (25, 7, Kept::Kills(vec![1, 2, 3])));
}

fn shrink_with_a_catalog_keeps_every_kill_of_the_input(dir: &Path) {
    let catalog = dir.join("catalog.json");
    std::fs::write(&catalog, r#"[{"id":1,"site":1},{"id":2,"site":2},{"id":3,"site":2},{"id":4,"site":4}]"#)
        .unwrap();
    // Kills 1 and 2, not 3 (no element of 200) nor 4 (never reached).
    let input = vector(&[5, 40, 3, 25, 8]);
    let (code, stdout, out) =
        harness(&["shrink", "summary", "--catalog", catalog.to_str().unwrap()], &input, dir);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(out.as_deref(), Some(&vector(&[0, 0, 10])[..]));
    let line = ShrinkLine::parse(stdout.lines().last().unwrap()).unwrap();
    assert_eq!((line.before, line.after, line.kept), (11, 7, Kept::Kills(vec![1, 2])));
}

fn tmin_keeps_the_panic_message() {
    let dir = tempfile::tempdir().unwrap();
    // "azbzzqzz": a char is 4 bytes, 'a' is 0, 'z' is 100 (plus its continuation byte).
    let chars: &[u32] = &[0, 100, 4, 100, 100, 64, 100, 100];
    let input: Vec<u8> =
        chars.iter().flat_map(|c| [&[1u8][..], &c.to_le_bytes()].concat()).chain([0]).collect();
    let (code, stdout, out) = harness(&["tmin", "picky"], &input, dir.path());
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(out.as_deref(), Some(&[1, 100, 0, 0, 0, 1, 100, 0, 0, 0, 0][..]));
    let line = ShrinkLine::parse(stdout.lines().last().unwrap()).unwrap();
    assert_eq!((line.before, line.after, line.kept), (41, 11, Kept::Panic("two z in a row".to_owned())));
}

fn inputs_without_the_property_are_refused_with_exit_not_kept(dir: &Path) {
    // No element of 200: mutant 3 survives it.
    let (code, stdout, out) = harness(&["shrink", "summary", "--mutants", "1,3"], &vector(&[1, 2, 3]), dir);
    assert_eq!((code, stdout.as_str(), out), (EXIT_NOT_KEPT, "", None));
    let (code, stdout, out) = harness(&["tmin", "picky"], &[1, 100, 0, 0, 0, 0], dir);
    assert_eq!((code, stdout.as_str(), out), (EXIT_NOT_KEPT, "", None));
}

fn a_nondeterministic_generated_target_keeps_only_kills_by_panic(dir: &Path) {
    let state = dir.join("state");
    std::fs::create_dir_all(&state).unwrap();
    let input = vector(&[4, 5, 6]);
    // Judged strictly, each kill is followed by the worker's drift check, which the
    // changing output fails: the kill does not count.
    let (code, _, out) = harness(&["shrink", "counted", "--mutants", "1"], &input, dir);
    assert_eq!((code, out), (EXIT_NOT_KEPT, None));
    // Found nondeterministic by the campaign in `--state`: only mutant 1's panic kills.
    let record =
        NondeterministicRecord { input: "x".into(), first: "(0, 1)".into(), second: "(1, 1)".into() };
    record.write(&CampaignDir::new(&state).nondeterministic()).unwrap();
    let s = state.to_str().unwrap();
    let (code, _, out) = harness(&["shrink", "counted", "--mutants", "2", "--state", s], &input, dir);
    assert_eq!((code, out), (EXIT_NOT_KEPT, None));
    let (code, stdout, out) = harness(&["shrink", "counted", "--mutants", "1", "--state", s], &input, dir);
    assert_eq!((code, out.as_deref()), (0, Some(&vector(&[0, 0])[..])), "{stdout}");
}
