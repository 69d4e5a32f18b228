//! End-to-end tests of bad input in `cargo mutfuzz test` (and `report`): each gives one error that names
//! the problem and the way out, a documented exit code, and no panic. (Fuzzing's bad
//! input is in tests/harness.rs, which builds harnesses.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn textstats() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/textstats"), tmp.path());
    tmp
}

/// `cargo mutfuzz <args>` in `cwd`, with a clean environment.
fn command(cwd: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("cargo-mutfuzz"));
    cmd.arg("mutfuzz").args(args).current_dir(cwd);
    for (k, _) in std::env::vars() {
        if k.starts_with("MUTFUZZ_") || k == "CARGO_TARGET_DIR" {
            cmd.env_remove(k);
        }
    }
    cmd
}

/// The one error line, checked to be a clean error: `error: …` first, no panic.
fn error_of(out: &Output, code: i32) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{stderr}");
    assert!(!stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"), "{stderr}");
    let line = stderr.lines().find(|l| l.starts_with("error: ")).unwrap_or_else(|| panic!("{stderr}"));
    line.to_owned()
}

/// Run `cmd` able to write only under `writable` (and cargo's and rustup's homes, and a
/// temp directory): everything else is read-only to it, as to a user without the right,
/// even when the tests run as root.
#[cfg(target_os = "linux")]
fn confined(mut cmd: Command, writable: &[&Path]) -> Output {
    use cargo_mutfuzz::sandbox::{Policy, Sandbox};
    let tmp = tempfile::tempdir().unwrap();
    let home = PathBuf::from(std::env::var_os("HOME").unwrap());
    let mut dirs: Vec<PathBuf> = writable.iter().map(|p| p.to_path_buf()).collect();
    for (var, default) in [("CARGO_HOME", ".cargo"), ("RUSTUP_HOME", ".rustup")] {
        let dir = std::env::var_os(var).map_or_else(|| home.join(default), PathBuf::from);
        if dir.exists() {
            dirs.push(dir);
        }
    }
    let policy = Policy { writable: dirs, tmp: tmp.path().join("t"), network: true };
    Sandbox::new(&policy).unwrap().apply(&mut cmd);
    cmd.output().unwrap()
}

#[test]
fn a_report_format_that_does_not_exist_lists_those_that_do() {
    let tmp = textstats();
    let out = command(tmp.path(), &["report", "--format", "nosuch"]).output().unwrap();
    let line = error_of(&out, 1);
    assert!(line.contains("invalid value 'nosuch' for '--format <FORMAT>'"), "{line}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("[possible values: html, mutation-testing]"), "{stderr}");
}

#[test]
fn outside_a_cargo_package_the_error_says_where_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = command(dir.path(), &["test"]).output().unwrap();
    let line = error_of(&out, 1);
    assert!(line.contains("is not inside a Cargo package"), "{line}");
    assert!(line.contains("pass --manifest-path"), "{line}");
}

#[test]
fn a_bad_key_in_mutfuzz_toml_is_named_with_its_line() {
    let tmp = textstats();
    std::fs::write(
        tmp.path().join("mutfuzz.toml"),
        "mutate_unsafe = true\nexclude_operator = ['int_literal']\n",
    )
    .unwrap();
    let out = command(tmp.path(), &["test"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = error_of(&out, 1);
    assert!(line.contains("mutfuzz.toml: TOML parse error at line 2"), "{line}");
    assert!(stderr.contains("unknown field `exclude_operator`, expected one of"), "{stderr}");
    assert!(stderr.contains("`exclude_operators`"), "{stderr}");
    // A value the TOML accepts but mutfuzz does not: named with its key and line too.
    std::fs::write(tmp.path().join("mutfuzz.toml"), "\nexclude_functions = ['(']\n").unwrap();
    let line = error_of(&command(tmp.path(), &["test"]).output().unwrap(), 1);
    assert!(line.contains("mutfuzz.toml, line 2: bad regex \"(\" in exclude_functions"), "{line}");
}

#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_output_directory_is_named_with_the_way_out() {
    let tmp = textstats();
    let elsewhere = tempfile::tempdir().unwrap();
    let out_dir = elsewhere.path().join("results");
    let cmd = command(tmp.path(), &["test", "--output", out_dir.to_str().unwrap()]);
    let line = error_of(&confined(cmd, &[tmp.path()]), 1);
    assert!(line.contains(&format!("cannot write the results directory {}", out_dir.display())), "{line}");
    assert!(
        line.contains("Permission denied") && line.ends_with("pass a writable one with --output DIR"),
        "{line}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_read_only_crate_directory_is_named_and_works_with_target_and_output_elsewhere() {
    let tmp = textstats();
    let src_before = std::fs::read_to_string(tmp.path().join("src/lib.rs")).unwrap();
    let out = confined(command(tmp.path(), &["test"]), &[]);
    let line = error_of(&out, 1);
    assert!(line.contains("Permission denied"), "{line}");
    assert!(line.contains("set CARGO_TARGET_DIR to a writable directory"), "{line}");

    // With the target directory elsewhere, the results directory is next.
    let elsewhere = tempfile::tempdir().unwrap();
    let mut cmd = command(tmp.path(), &["test"]);
    cmd.env("CARGO_TARGET_DIR", elsewhere.path().join("target"));
    let line = error_of(&confined(cmd, &[elsewhere.path()]), 1);
    assert!(line.contains("cannot write the results directory") && line.contains("--output DIR"), "{line}");

    // With both elsewhere, the read-only crate is tested.
    let mut cmd = command(tmp.path(), &["test", "--output", elsewhere.path().join("out").to_str().unwrap()]);
    cmd.env("CARGO_TARGET_DIR", elsewhere.path().join("target"));
    let out = confined(cmd, &[elsewhere.path()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(elsewhere.path().join("out/outcomes.json").is_file());
    assert_eq!(std::fs::read_to_string(tmp.path().join("src/lib.rs")).unwrap(), src_before);
    assert!(!tmp.path().join("target").exists() && !tmp.path().join("mutfuzz.out").exists());
}
