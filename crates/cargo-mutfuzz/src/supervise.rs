//! Runs one harness process under watch: its own process group, its stdout parsed line
//! by line in a thread, its stderr kept in a log (and the last lines in memory), a
//! watchdog that kills the group after a stretch of silence, and Ctrl-C (see
//! [`crate::interrupt`]) that stops it.
//!
//! What a death means (which mutant or input to blame) is the caller's business: it
//! sees every line, in order, before it learns how the process ended.

use std::collections::VecDeque;
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use mutfuzz_contract::Line;
use mutfuzz_rt::env;
use wait_timeout::ChildExt;

use crate::interrupt::{self, interrupted};
use crate::process::Exit;

/// Lines of the harness's stderr kept for error messages.
const STDERR_TAIL: usize = 40;

/// How a harness process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It exited (normally or not) or a signal ended it.
    Exited(Exit),
    /// It printed nothing for this long and was killed.
    Hung(Duration),
    /// Ctrl-C: it was killed.
    Interrupted,
}

impl Ending {
    /// Words for a report: `killed by signal 6 (SIGABRT)`, `no output for 10s`, ….
    pub fn describe(&self) -> String {
        match self {
            Ending::Exited(Exit::Signal(s)) => format!("killed by signal {s}{}", signal_name(*s)),
            Ending::Exited(Exit::Code(c)) => format!("exited with code {c}"),
            Ending::Exited(Exit::TimedOut) => "timed out".to_owned(),
            Ending::Hung(d) => format!("no output for {}s (hung)", d.as_secs()),
            Ending::Interrupted => "interrupted".to_owned(),
        }
    }
}

fn signal_name(s: i32) -> &'static str {
    match s {
        4 => " (SIGILL)",
        6 => " (SIGABRT)",
        7 => " (SIGBUS)",
        8 => " (SIGFPE)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        15 => " (SIGTERM)",
        _ => "",
    }
}

/// One harness run's result.
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// The last lines it wrote to stderr.
    pub stderr_tail: Vec<String>,
}

impl Outcome {
    /// The last non-empty stderr line, for a one-line reason.
    pub fn last_words(&self) -> Option<&str> {
        self.stderr_tail.iter().rev().map(|l| l.trim()).find(|l| !l.is_empty())
    }
}

/// Run `cmd` to its end. Each stdout line goes to `on_line` as it arrives; `on_tick`
/// runs a few times a second (for the status line). Silence longer than `hang` kills
/// the process group. Stderr is appended to `log`.
pub fn run(
    mut cmd: Command,
    hang: Duration,
    log: &Path,
    on_line: &mut dyn FnMut(Line<'static>),
    on_tick: &mut dyn FnMut(),
) -> Result<Outcome> {
    for var in [env::ACTIVE, env::RECORD, env::MUTANTS, env::FUEL, env::DEPTH, env::ON_EXHAUST] {
        cmd.env_remove(var);
    }
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    interrupt::own_group(&mut cmd);
    let mut child =
        cmd.spawn().with_context(|| format!("failed to run the harness {:?}", cmd.get_program()))?;
    let pid = child.id();
    let registered = interrupt::register(pid);
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");

    let (tx, rx) = mpsc::channel::<Option<String>>();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim_end_matches('\n').to_owned();
                    if tx.send(Some(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(None);
    });
    let (tail_tx, tail_rx) = mpsc::channel::<Vec<String>>();
    let log_file = OpenOptions::new().create(true).append(true).open(log);
    std::thread::spawn(move || {
        let mut log_file = log_file.ok();
        let mut tail: VecDeque<String> = VecDeque::new();
        let mut reader = BufReader::new(stderr);
        let mut buf = Vec::new();
        while reader.by_ref().read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
            if let Some(f) = log_file.as_mut() {
                let _ = f.write_all(&buf);
            }
            if tail.len() == STDERR_TAIL {
                tail.pop_front();
            }
            tail.push_back(String::from_utf8_lossy(&buf).trim_end().to_owned());
            buf.clear();
        }
        let _ = tail_tx.send(tail.into());
    });

    const TICK: Duration = Duration::from_millis(100);
    let mut last_output = Instant::now();
    let mut last_tick = Instant::now();
    let mut ending = None;
    loop {
        match rx.recv_timeout(TICK) {
            Ok(Some(line)) => {
                last_output = Instant::now();
                on_line(Line::parse(&line));
                // A busy harness never leaves the channel empty: tick by the clock.
                if last_tick.elapsed() < TICK {
                    continue;
                }
            }
            Ok(None) | Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {}
        }
        last_tick = Instant::now();
        on_tick();
        if interrupted() {
            interrupt::kill_group(pid);
            ending = Some(Ending::Interrupted);
            break;
        }
        if last_output.elapsed() >= hang {
            interrupt::kill_group(pid);
            ending = Some(Ending::Hung(hang));
            break;
        }
    }
    // Stdout closed: the process is ending. One that lingers past the watchdog is hung.
    let status = match child.wait_timeout(hang)? {
        Some(s) => s,
        None => {
            interrupt::kill_group(pid);
            ending.get_or_insert(Ending::Hung(hang));
            child.wait()?
        }
    };
    drop(registered);
    let ending = match ending {
        Some(e) => e,
        None if interrupted() => Ending::Interrupted,
        None => Ending::Exited(crate::process::exit_of(status)),
    };
    // Grandchildren may hold stderr open: do not wait for it for long.
    let stderr_tail = tail_rx.recv_timeout(Duration::from_secs(1)).unwrap_or_default();
    Ok(Outcome { ending, stderr_tail })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", script]);
        cmd
    }

    #[test]
    fn lines_arrive_in_order_and_an_abort_is_a_signal() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let mut lines = Vec::new();
        let out = run(
            sh("echo 'trial 0102'; echo 'mutant 3'; echo oops >&2; kill -ABRT $$"),
            Duration::from_secs(10),
            &log,
            &mut |l| lines.push(l),
            &mut || {},
        )
        .unwrap();
        assert_eq!(lines, [Line::Trial(vec![1, 2].into()), Line::Mutant(3)]);
        assert_eq!(out.ending, Ending::Exited(Exit::Signal(6)));
        assert_eq!(out.ending.describe(), "killed by signal 6 (SIGABRT)");
        assert_eq!(out.last_words(), Some("oops"));
        assert_eq!(std::fs::read_to_string(log).unwrap(), "oops\n");
    }

    #[test]
    fn silence_past_the_watchdog_kills_the_group() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let out = run(
            sh("echo 'mutant 1'; sleep 30 & sleep 30"),
            Duration::from_millis(300),
            &dir.path().join("log"),
            &mut |_| {},
            &mut || {},
        )
        .unwrap();
        assert_eq!(out.ending, Ending::Hung(Duration::from_millis(300)));
        assert!(start.elapsed() < Duration::from_secs(10));
    }
}
