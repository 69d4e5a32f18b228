//! Two commands on one crate at once: the second refuses, naming the first, and the
//! first's records stay its own.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

fn command_in(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("cargo-mutfuzz"));
    cmd.arg("mutfuzz").args(args).current_dir(dir);
    for (k, _) in std::env::vars() {
        if k.starts_with("MUTFUZZ_") || k == "CARGO_TARGET_DIR" {
            cmd.env_remove(k);
        }
    }
    cmd
}

#[test]
fn a_second_command_on_the_same_crate_refuses_naming_the_first() {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sleepy"), tmp.path());
    let mut first = command_in(tmp.path(), &["test", "-j", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Mutant 4 sleeps for a minute: while its log exists the first is mid-run.
    let log = tmp.path().join("mutfuzz.out/log/4.log");
    let deadline = Instant::now() + Duration::from_secs(300);
    while !log.exists() {
        assert!(Instant::now() < deadline, "the sleeping mutant never ran");
        assert!(first.try_wait().unwrap().is_none(), "the first run ended early");
        std::thread::sleep(Duration::from_millis(5));
    }
    let before = std::fs::read_dir(tmp.path().join("mutfuzz.out/log")).unwrap().count();

    let second = command_in(tmp.path(), &["test", "-j", "2"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{stderr}");
    let expected = format!(
        "another cargo mutfuzz command is using {} (pid {}: cargo mutfuzz test -j 1)",
        tmp.path().join("target/mutfuzz").display(),
        first.id()
    );
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(stderr.contains("wait for it to end (or stop it)"), "{stderr}");
    // The refused commands wrote nothing of the first one's: no log came or went.
    assert_eq!(std::fs::read_dir(tmp.path().join("mutfuzz.out/log")).unwrap().count(), before);
    assert!(first.try_wait().unwrap().is_none(), "the first run was disturbed");

    // SAFETY: sends a signal to our own child.
    assert_eq!(unsafe { libc::kill(first.id() as libc::pid_t, libc::SIGTERM) }, 0);
    let out = first.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    let outcomes: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("mutfuzz.out/outcomes.json")).unwrap())
            .unwrap();
    assert_eq!(outcomes["summary"]["interrupted"], true);

    // Its holder gone, the lock file left behind locks nothing.
    let lock = std::fs::File::open(tmp.path().join("target/mutfuzz/lock")).unwrap();
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a file this test holds open.
    assert_eq!(unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) }, 0);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !common::processes_under(tmp.path()).is_empty() {
        assert!(Instant::now() < deadline, "still running: {:?}", common::processes_under(tmp.path()));
        std::thread::sleep(Duration::from_millis(100));
    }
}
