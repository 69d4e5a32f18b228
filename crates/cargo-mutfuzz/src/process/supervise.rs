//! Runs one harness process under watch: its own process group, its stdout parsed line
//! by line in a thread, its stderr kept in a log (and the last lines in memory), a
//! watchdog that kills the group after a stretch of silence, and Ctrl-C (see
//! [`crate::process::interrupt`]) that stops it. Under [`Caps`] it runs with the memory cap, and
//! output past the output cap since the last `trial`, `mutant` or `input` line (one run's
//! output, whatever the stream) kills the group; a line longer than [`MAX_LINE`] is cut.
//! Given a [`Keep`], it takes the inputs the process hands over (`keep` lines) and
//! answers each on the process's stdin.
//!
//! What a death means (which mutant or input to blame) is the caller's business: it
//! sees every line, in order, before it learns how the process ended.

use std::collections::VecDeque;
use std::fs::OpenOptions;
use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use mutfuzz_contract::{Line, Reply, read_line_capped};
use mutfuzz_rt::env;
use wait_timeout::ChildExt;

use crate::process::Exit;
use crate::process::caps::Caps;
use crate::process::interrupt::{self, interrupted};

/// Lines of the harness's stderr kept for error messages.
const STDERR_TAIL: usize = 40;
/// Longest stdout line kept whole: far longer than any protocol line (an input's hex).
pub const MAX_LINE: usize = mutfuzz_contract::MAX_LINE;

/// Takes the inputs a harness process hands over (`keep` lines), for the corpus it may
/// not write.
pub trait Keep {
    /// Store `bytes` as `name`: whether it was stored (`false`: refused, the name is not
    /// the bytes'). An error ends the process, and [`run`] returns it.
    fn keep(&mut self, name: &str, bytes: &[u8]) -> Result<bool>;
}

/// Longest name a `refused` answer repeats: a harness's own names are far shorter, and
/// an answer must fit one atomic pipe write.
const MAX_ANSWERED_NAME: usize = 256;

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
            Ending::Exited(other) => other.to_string(),
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

/// How one supervised process ended, and its last words.
pub struct Supervised {
    /// How it ended.
    pub ending: Ending,
    /// The last lines it wrote to stderr.
    pub stderr_tail: Vec<String>,
}

impl Supervised {
    /// The last non-empty stderr line, for a one-line reason.
    pub fn last_words(&self) -> Option<&str> {
        super::last_words(self.stderr_tail.iter().map(String::as_str))
    }
}

/// Run `cmd` to its end. Each stdout line goes to `on_line` as it arrives, but `keep`
/// lines go to `keep` when given (and are answered on the process's stdin, which is
/// empty otherwise); `on_tick` runs a few times a second (for the status line). Silence
/// longer than `hang` kills the process group. Stderr is appended to `log`.
#[allow(clippy::too_many_arguments)]
pub fn run(
    mut cmd: Command,
    hang: Duration,
    log: &Path,
    caps: &Caps,
    mut keep: Option<&mut dyn Keep>,
    on_line: &mut dyn FnMut(Line<'static>),
    on_tick: &mut dyn FnMut(),
) -> Result<Supervised> {
    for var in [
        env::ACTIVE,
        env::RECORD,
        env::MUTANTS,
        env::FUEL,
        env::THREAD_FUEL,
        env::THREAD_ACTIVE,
        env::DEPTH,
        env::ON_EXHAUST,
    ] {
        cmd.env_remove(var);
    }
    // A mutant that aborts (out of memory, stack overflow) must not print a backtrace
    // where its last words belong, whatever the user's shell sets.
    for (key, value) in crate::process::QUIET_ENV {
        cmd.env(key, value);
    }
    let stdin = if keep.is_some() { Stdio::piped() } else { Stdio::null() };
    cmd.stdin(stdin).stdout(Stdio::piped()).stderr(Stdio::piped());
    interrupt::own_group(&mut cmd);
    caps.limit_memory(&mut cmd);
    let mut child =
        cmd.spawn().with_context(|| format!("failed to run the harness {:?}", cmd.get_program()))?;
    let pid = child.id();
    let registered = interrupt::register(pid);
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    let mut answers = child.stdin.take().map(non_blocking);
    // Bytes the current run wrote (both streams); set past the cap, once.
    let cap = caps.output.unwrap_or(u64::MAX);
    let run_bytes = Arc::new(AtomicU64::new(0));
    let capped = Arc::new(AtomicBool::new(false));
    let over_cap = Arc::clone(&capped);
    let over = {
        let capped = Arc::clone(&capped);
        move |total: u64| {
            if total > cap && !capped.swap(true, Ordering::SeqCst) {
                interrupt::kill_group(pid);
            }
        }
    };

    let (tx, rx) = mpsc::channel::<Option<Line<'static>>>();
    {
        let run_bytes = Arc::clone(&run_bytes);
        let over = over.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            while let Some(len) = read_line_capped(&mut reader, &mut buf, MAX_LINE) {
                let line = Line::parse(String::from_utf8_lossy(&buf).trim_end_matches('\n'));
                if matches!(line, Line::Trial(_) | Line::Mutant(_) | Line::Input(_)) {
                    run_bytes.store(0, Ordering::SeqCst);
                } else if matches!(line, Line::Other(_)) {
                    over(run_bytes.fetch_add(len, Ordering::SeqCst) + len);
                }
                if tx.send(Some(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(None);
        });
    }
    let (tail_tx, tail_rx) = mpsc::channel::<Vec<String>>();
    let log_file = OpenOptions::new().create(true).append(true).open(log);
    {
        let run_bytes = Arc::clone(&run_bytes);
        std::thread::spawn(move || {
            let mut log_file = log_file.ok();
            let mut tail: VecDeque<String> = VecDeque::new();
            let mut reader = stderr;
            let mut chunk = vec![0u8; 64 * 1024];
            // The line being written, for the tail (a flood's first MAX_LINE bytes).
            let mut line: Vec<u8> = Vec::new();
            loop {
                let n = match reader.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                let total = run_bytes.fetch_add(n as u64, Ordering::SeqCst) + n as u64;
                // Past the cap the log stops growing; the process is being killed.
                if total <= cap
                    && let Some(f) = log_file.as_mut()
                {
                    let _ = f.write_all(&chunk[..n]);
                }
                over(total);
                for piece in chunk[..n].split_inclusive(|&b| b == b'\n') {
                    let room = MAX_LINE.saturating_sub(line.len());
                    line.extend_from_slice(&piece[..piece.len().min(room)]);
                    if piece.ends_with(b"\n") {
                        if tail.len() == STDERR_TAIL {
                            tail.pop_front();
                        }
                        tail.push_back(String::from_utf8_lossy(&line).trim_end().to_owned());
                        line.clear();
                    }
                }
            }
            if !line.is_empty() {
                tail.push_back(String::from_utf8_lossy(&line).trim_end().to_owned());
            }
            if capped.load(Ordering::SeqCst)
                && let Some(f) = log_file.as_mut()
            {
                let _ = writeln!(
                    f,
                    "[cargo mutfuzz: a run's output went past the cap of {}: killed]",
                    crate::process::caps::human(cap)
                );
            }
            let _ = tail_tx.send(tail.into());
        });
    }

    const TICK: Duration = Duration::from_millis(100);
    let mut last_output = Instant::now();
    let mut last_tick = Instant::now();
    let mut ending = None;
    let mut failure = None;
    loop {
        match rx.recv_timeout(TICK) {
            Ok(Some(Line::Keep { name, bytes })) if keep.is_some() => {
                last_output = Instant::now();
                let taken = keep.as_mut().map(|k| k.keep(&name, &bytes)).expect("given");
                match taken {
                    Ok(stored) => answer(&mut answers, &name, stored),
                    Err(e) => {
                        // Nothing it did after waiting for this answer may be kept.
                        interrupt::kill_group(pid);
                        failure = Some(e);
                        break;
                    }
                }
                if last_tick.elapsed() < TICK {
                    continue;
                }
            }
            Ok(Some(line)) => {
                last_output = Instant::now();
                on_line(line);
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
    if let Some(e) = failure {
        return Err(e);
    }
    let ending = match ending {
        Some(e) => e,
        None if interrupted() => Ending::Interrupted,
        None if over_cap.load(Ordering::SeqCst) => Ending::Exited(Exit::TooMuchOutput(cap)),
        None => Ending::Exited(crate::process::exit_of(status)),
    };
    // Grandchildren may hold stderr open: do not wait for it for long.
    let stderr_tail = tail_rx.recv_timeout(Duration::from_secs(1)).unwrap_or_default();
    Ok(Supervised { ending, stderr_tail })
}

/// The process's stdin, written without blocking: a process that reads none of its
/// answers (a target printing `keep` lines of its own) must not stall the supervisor.
fn non_blocking(stdin: std::process::ChildStdin) -> std::process::ChildStdin {
    use std::os::fd::AsRawFd;
    let fd = stdin.as_raw_fd();
    // SAFETY: flag changes on a descriptor this function owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
    stdin
}

/// Answer a `keep` line on the process's stdin: one write of a short line, which a pipe
/// takes whole or not at all. An answer that finds the pipe full or closed is dropped:
/// the process waiting for it is then silent, and the watchdog ends it.
fn answer(answers: &mut Option<std::process::ChildStdin>, name: &str, stored: bool) {
    let Some(stdin) = answers else { return };
    if name.len() > MAX_ANSWERED_NAME {
        return;
    }
    let reply = if stored { Reply::Stored(name.to_owned()) } else { Reply::Refused(name.to_owned()) };
    let _ = stdin.write(format!("{reply}\n").as_bytes());
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
            sh("echo 'trial 0102'; echo 'mutant 3'; echo oops >&2; echo 'note: run with RUST_BACKTRACE=1' >&2; kill -ABRT $$"),
            Duration::from_secs(10),
            &log,
            &Caps::default(),
            None,
            &mut |l| lines.push(l),
            &mut || {},
        )
        .unwrap();
        assert_eq!(lines, [Line::Trial(vec![1, 2].into()), Line::Mutant(3)]);
        assert_eq!(out.ending, Ending::Exited(Exit::Signal(6)));
        assert_eq!(out.ending.describe(), "killed by signal 6 (SIGABRT)");
        assert_eq!(out.last_words(), Some("oops"));
        assert_eq!(std::fs::read_to_string(log).unwrap(), "oops\nnote: run with RUST_BACKTRACE=1\n");
    }

    /// Keeps what is named `good…`, refuses the rest, and fails on `full…`.
    #[derive(Default)]
    struct Kept(Vec<(String, Vec<u8>)>);

    impl Keep for Kept {
        fn keep(&mut self, name: &str, bytes: &[u8]) -> Result<bool> {
            if name.starts_with("full") {
                anyhow::bail!("no space left for {name}");
            }
            self.0.push((name.to_owned(), bytes.to_vec()));
            Ok(name.starts_with("good"))
        }
    }

    #[test]
    fn handed_over_inputs_are_answered_on_stdin_and_a_failure_to_keep_one_ends_the_process() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let script = "echo 'trial 01'; echo 'keep good1 0102'; read a; echo \"got $a\"; \
                      echo 'keep bad 03'; read b; echo \"got $b\"; echo 'keep full 04'; read c; echo \"got $c\"";
        let mut kept = Kept::default();
        let mut lines = Vec::new();
        let err = run(
            sh(script),
            Duration::from_secs(30),
            &log,
            &Caps::default(),
            Some(&mut kept),
            &mut |l| lines.push(l),
            &mut || {},
        )
        .err()
        .expect("the failure to keep is the run's error");
        assert_eq!(err.to_string(), "no space left for full");
        let other = |t: &str| Line::Other(t.to_owned().into());
        // The keep lines went to the keeper, not to `on_line`; nothing after the failure came.
        assert_eq!(lines, [Line::Trial(vec![1].into()), other("got stored good1"), other("got refused bad")]);
        assert_eq!(kept.0, [("good1".to_owned(), vec![1, 2]), ("bad".to_owned(), vec![3])]);

        // Without a keeper the line is like any other, and stdin is empty.
        let mut lines = Vec::new();
        let out = run(
            sh("echo 'keep good2 05'; read a || echo eof"),
            Duration::from_secs(30),
            &log,
            &Caps::default(),
            None,
            &mut |l| lines.push(l),
            &mut || {},
        )
        .unwrap();
        assert_eq!(out.ending, Ending::Exited(Exit::Code(0)));
        assert_eq!(lines, [Line::Keep { name: "good2".into(), bytes: vec![5].into() }, other("eof")]);
    }

    #[test]
    fn answers_nobody_reads_never_stall_the_supervisor() {
        // A process that prints more `keep` lines than a pipe holds answers for, reads
        // none and then stays silent: the supervisor drops the answers that do not fit,
        // and its watchdog still ends the process.
        let dir = tempfile::tempdir().unwrap();
        let mut kept = Kept::default();
        let script = "i=0; while [ $i -lt 5000 ]; do echo \"keep good$i 00\"; i=$((i+1)); done; sleep 60";
        let hang = Duration::from_secs(1);
        let out = run(
            sh(script),
            hang,
            &dir.path().join("log"),
            &Caps::default(),
            Some(&mut kept),
            &mut |_| {},
            &mut || {},
        )
        .unwrap();
        assert_eq!((out.ending, kept.0.len()), (Ending::Hung(hang), 5000));
    }

    #[test]
    fn silence_past_the_watchdog_kills_the_group() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let out = run(
            sh("echo 'mutant 1'; sleep 30 & sleep 30"),
            Duration::from_millis(300),
            &dir.path().join("log"),
            &Caps::default(),
            None,
            &mut |_| {},
            &mut || {},
        )
        .unwrap();
        assert_eq!(out.ending, Ending::Hung(Duration::from_millis(300)));
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_run_writing_past_the_output_cap_is_killed_and_the_count_restarts_at_each_run() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let caps = Caps { memory: None, output: Some(50_000) };
        // Three runs of 15,000 bytes each stay under the cap (even all three together:
        // stderr and stdout are read apart, so one run's stderr may be counted after the
        // next run's line); the fourth floods stdout with one endless line.
        let script = "for i in 1 2 3; do echo \"mutant $i\"; head -c 15000 /dev/zero | tr '\\0' e >&2; done; \
                      echo 'mutant 4'; tr '\\0' o < /dev/zero";
        let mut lines = Vec::new();
        let start = Instant::now();
        let out =
            run(sh(script), Duration::from_secs(30), &log, &caps, None, &mut |l| lines.push(l), &mut || {})
                .unwrap();
        assert_eq!(out.ending, Ending::Exited(Exit::TooMuchOutput(50_000)));
        assert_eq!(out.ending.describe(), "killed after writing more than 48.8 KiB of output");
        let protocol: Vec<&Line> = lines.iter().filter(|l| !matches!(l, Line::Other(_))).collect();
        assert_eq!(protocol.last(), Some(&&Line::Mutant(4)));
        // The endless line arrived in pieces of at most MAX_LINE bytes.
        assert!(lines.iter().all(|l| !matches!(l, Line::Other(t) if t.len() > MAX_LINE)));
        assert!(start.elapsed() < Duration::from_secs(20));
        let text = std::fs::read_to_string(&log).unwrap();
        assert_eq!(
            text.bytes().take_while(|&b| b == b'e').count(),
            45_000,
            "the runs under the cap are logged whole"
        );
    }
}
