//! Child processes with a wall-clock backstop: each runs in its own process group, and a
//! timeout (or an interrupt, see [`crate::interrupt`]) kills the whole group, so stray
//! grandchildren die with it.

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use wait_timeout::ChildExt;

use crate::interrupt;

/// How a child process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
    /// It ran past its timeout and was killed.
    TimedOut,
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
        }
    }
}

/// Run `cmd` to completion or until `timeout`, with stdout and stderr appended to `log`
/// (or discarded).
pub fn run(cmd: &mut Command, timeout: Duration, log: Option<&Path>) -> Result<(Exit, Duration)> {
    match log {
        Some(path) => {
            let file = File::options()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("failed to open log {}", path.display()))?;
            cmd.stdout(Stdio::from(file.try_clone()?)).stderr(Stdio::from(file));
        }
        None => {
            cmd.stdout(Stdio::null()).stderr(Stdio::null());
        }
    }
    cmd.stdin(Stdio::null());
    interrupt::own_group(cmd);
    let start = Instant::now();
    let mut child = cmd.spawn().with_context(|| format!("failed to run {:?}", cmd.get_program()))?;
    // Dropped (unregistered) only after the child is reaped: its id may be reused after.
    let _registered = interrupt::register(child.id());
    let status = match child.wait_timeout(timeout) {
        Ok(s) => s,
        Err(e) => {
            kill_group(&mut child);
            let _ = child.wait();
            return Err(e.into());
        }
    };
    let exit = match status {
        Some(status) => exit_of(status),
        None => {
            kill_group(&mut child);
            let _ = child.wait();
            Exit::TimedOut
        }
    };
    Ok((exit, start.elapsed()))
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
        let (exit, took) = run(&mut cmd, Duration::from_millis(200), None).unwrap();
        assert_eq!(exit, Exit::TimedOut);
        assert!(took < Duration::from_secs(10));
    }

    #[test]
    fn exit_codes_and_output_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo err >&2; exit 3"]);
        let (exit, _) = run(&mut cmd, Duration::from_secs(10), Some(&log)).unwrap();
        assert_eq!(exit, Exit::Code(3));
        let text = std::fs::read_to_string(log).unwrap();
        assert!(text.contains("out") && text.contains("err"), "{text}");
    }
}
