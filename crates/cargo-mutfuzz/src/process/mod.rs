//! Child processes with a wall-clock backstop: each runs in its own process group, and a
//! timeout (or an interrupt, see [`crate::process::interrupt`]) kills the whole group, so stray
//! grandchildren die with it. Under [`Caps`], the memory cap is set in the child and its
//! output goes through a pipe that a thread copies into the log up to the output cap:
//! past it the group is killed. Below: the sandbox (`sandbox`), the caps (`caps`),
//! interrupts (`interrupt`), one harness process under watch (`supervise`) and a pool of
//! worker threads (`pool`).

pub(crate) mod caps;
pub(crate) mod interrupt;
pub(crate) mod pool;
pub mod sandbox;
pub(crate) mod supervise;

use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use wait_timeout::ChildExt;

use crate::process::caps::{Caps, human};

/// How a child process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
    /// It ran past its timeout and was killed.
    TimedOut,
    /// It wrote more than this many bytes of output and was killed.
    TooMuchOutput(u64),
    /// It exited with code 0 before libtest reported every selected test passing (a
    /// test called `std::process::exit(0)`).
    NoVerdict,
}

/// Environment set for every process that runs mutants (test processes, baseline and
/// mutant runs, and the harness), whatever the user's shell has: a caught mutant's
/// failing test panics, and with `RUST_BACKTRACE=1` (common in CI) each panic captures
/// and symbolicates a backtrace, which on real crates triples the whole run and changes
/// no outcome. `RUST_LIB_BACKTRACE` does the same for
/// `std::backtrace::Backtrace::capture` (anyhow, eyre errors). `RUST_LOG` is left alone:
/// a test may read it, and logging only costs what the user asked for.
pub const QUIET_ENV: [(&str, &str); 2] = [("RUST_BACKTRACE", "0"), ("RUST_LIB_BACKTRACE", "0")];

/// The last non-empty line of a process's stderr, for a one-line reason. Rust's closing
/// `note: run with RUST_BACKTRACE=…` hint says nothing of the cause (and is wrong when the
/// variable is set): the line before it does.
pub fn last_words<'a>(lines: impl DoubleEndedIterator<Item = &'a str>) -> Option<&'a str> {
    lines.rev().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("note: "))
}

impl Exit {
    /// Did it exit with code 0?
    pub fn success(self) -> bool {
        self == Exit::Code(0)
    }
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exit::Code(c) => write!(f, "exit code {c}"),
            Exit::Signal(s) => write!(f, "signal {s}"),
            Exit::TimedOut => f.write_str("timed out"),
            Exit::NoVerdict => f.write_str("exit code 0 before every selected test reported passing"),
            Exit::TooMuchOutput(cap) => write!(f, "killed after writing more than {} of output", human(*cap)),
        }
    }
}

/// Run `cmd` to completion or until `timeout`, with stdout and stderr appended to `log`
/// (or discarded), under `caps`.
pub fn run(
    cmd: &mut Command,
    timeout: Duration,
    log: Option<&Path>,
    caps: &Caps,
) -> Result<(Exit, Duration)> {
    let mut copier = None;
    match log {
        Some(path) => {
            let file = File::options()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("failed to open log {}", path.display()))?;
            match caps.output {
                // One pipe for both streams keeps their interleaving, as one file would.
                Some(cap) => {
                    let (reader, writer) = std::io::pipe().context("failed to make a pipe")?;
                    cmd.stdout(Stdio::from(writer.try_clone()?)).stderr(Stdio::from(writer));
                    copier = Some((reader, file, cap));
                }
                None => {
                    cmd.stdout(Stdio::from(file.try_clone()?)).stderr(Stdio::from(file));
                }
            }
        }
        None => {
            cmd.stdout(Stdio::null()).stderr(Stdio::null());
        }
    }
    cmd.stdin(Stdio::null());
    interrupt::own_group(cmd);
    caps.limit_memory(cmd);
    let start = Instant::now();
    let spawned = cmd.spawn();
    // The command holds our ends of the pipe's writer: drop them, or the copy never ends.
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child = spawned.with_context(|| format!("failed to run {:?}", cmd.get_program()))?;
    // Dropped (unregistered) only after the child is reaped: its id may be reused after.
    let _registered = interrupt::register(child.id());
    let capped = Arc::new(AtomicBool::new(false));
    let copied = copier.map(|(reader, file, cap)| {
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let capped = Arc::clone(&capped);
        let pid = child.id();
        std::thread::spawn(move || {
            copy_capped(reader, file, cap, || {
                capped.store(true, Ordering::SeqCst);
                interrupt::kill_group(pid);
            });
            let _ = done_tx.send(());
        });
        (done_rx, cap)
    });
    let status = match child.wait_timeout(timeout) {
        Ok(s) => s,
        Err(e) => {
            kill_group(&mut child);
            let _ = child.wait();
            return Err(e.into());
        }
    };
    let mut exit = match status {
        Some(status) => exit_of(status),
        None => {
            kill_group(&mut child);
            let _ = child.wait();
            Exit::TimedOut
        }
    };
    if let Some((done, cap)) = copied {
        // Grandchildren left in the group may hold the pipe open: they end with it.
        if done.recv_timeout(Duration::from_millis(500)).is_err() {
            interrupt::kill_group(child.id());
            let _ = done.recv_timeout(Duration::from_secs(2));
        }
        if capped.load(Ordering::SeqCst) {
            exit = Exit::TooMuchOutput(cap);
        }
    }
    Ok((exit, start.elapsed()))
}

/// Copy `from` into `to` until its end or past `cap` bytes; then write a line saying so
/// and call `over` (which kills the writers).
fn copy_capped(mut from: impl Read, mut to: File, cap: u64, over: impl FnOnce()) {
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        let room = cap.saturating_sub(total);
        let keep = (n as u64).min(room) as usize;
        let _ = to.write_all(&buf[..keep]);
        total += n as u64;
        if total > cap {
            let _ = writeln!(
                to,
                "\n[cargo mutfuzz: output past the cap of {}: the process was killed]",
                human(cap)
            );
            over();
            return;
        }
    }
}

/// How an exited child ended.
pub(crate) fn exit_of(status: std::process::ExitStatus) -> Exit {
    if let Some(code) = status.code() {
        return Exit::Code(code);
    }
    #[cfg(unix)]
    if let Some(sig) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return Exit::Signal(sig);
    }
    Exit::Code(-1)
}

fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    interrupt::kill_group(child.id());
    #[cfg(not(unix))]
    {
        let _ = child.kill();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_hanging_process_group_is_killed_at_the_timeout() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 30 & sleep 30"]);
        let (exit, took) = run(&mut cmd, Duration::from_millis(200), None, &Caps::default()).unwrap();
        assert_eq!(exit, Exit::TimedOut);
        assert!(took < Duration::from_secs(10));
    }

    #[test]
    fn exit_codes_and_output_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo err >&2; exit 3"]);
        let (exit, _) = run(&mut cmd, Duration::from_secs(10), Some(&log), &Caps::default()).unwrap();
        assert_eq!(exit, Exit::Code(3));
        let text = std::fs::read_to_string(log).unwrap();
        assert!(text.contains("out") && text.contains("err"), "{text}");
    }

    #[test]
    fn output_past_the_cap_kills_the_process_and_the_log_keeps_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let caps = Caps { memory: None, output: Some(100_000) };
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo start; yes flood >&2; echo never"]);
        let (exit, took) = run(&mut cmd, Duration::from_secs(30), Some(&log), &caps).unwrap();
        assert_eq!(exit, Exit::TooMuchOutput(100_000));
        assert!(took < Duration::from_secs(20));
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.starts_with("start\nflood\n"), "{}", &text[..40]);
        assert!(text.len() < 100_200 && text.ends_with("the process was killed]\n"), "{}", text.len());
        // Under the cap, nothing changes: both streams in order, the exit code kept.
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo err >&2; exit 3"]);
        let (exit, _) = run(&mut cmd, Duration::from_secs(10), Some(&log), &caps).unwrap();
        assert_eq!(exit, Exit::Code(3));
        assert!(std::fs::read_to_string(&log).unwrap().ends_with("killed]\nout\nerr\n"));
    }
}
