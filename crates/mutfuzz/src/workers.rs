//! Parallel mutant runs: worker processes of the harness that run a trial's mutants
//! beside the main process (`fuzz --jobs N`).
//!
//! The active mutant is process-global, so parallel runs need processes. Each worker is
//! the harness itself (`HARNESS worker <target>`) reading requests on stdin: an input's
//! bytes, the fuel and depth bounds from the main process's recording run, and the ids
//! of the mutants to run. It runs the original once (not recording) and each mutant,
//! judges them with the target's own oracle, and answers one verdict per mutant. A verdict
//! depends only on the input, the mutant and the bounds, so the main process merges them
//! in the order it chose the mutants: kills, corpus and statistics are the same whatever
//! the number of workers.
//!
//! A worker that dies while a mutant runs (abort, stack overflow, out of memory) kills
//! that mutant by `crash`; one that prints nothing for the hang timeout is ended and kills
//! it by `timeout`. Either way a fresh worker runs the rest of the batch.
//!
//! Protocol, one line each: request `run <hex bytes> <fuel> <depth> <id> …`; answers
//! `mutant <id>` before each run, `verdict <id> <kind> <limit>` after it (`-` for
//! survived or no limit), `end` after the batch.

use std::fmt::Debug;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use mutfuzz_contract::{KillKind, KillLimit};

use crate::r#gen::Gen;
use crate::input::Limits;
use crate::oracle::Oracle;
use crate::trial::{Executor, judge};

/// A mutant's verdict on one input: how it was killed, or `None` if it survived.
pub type Verdict = Option<(KillKind, Option<KillLimit>)>;

const KINDS: [KillKind; 5] =
    [KillKind::OutputDiffers, KillKind::Panic, KillKind::Timeout, KillKind::Discard, KillKind::Crash];
const LIMITS: [KillLimit; 3] = [KillLimit::Fuel, KillLimit::Depth, KillLimit::Wall];

fn encode(verdict: Verdict) -> (String, String) {
    match verdict {
        None => ("-".to_owned(), "-".to_owned()),
        Some((kind, limit)) => (kind.name().to_owned(), limit.map_or("-".to_owned(), |l| l.to_string())),
    }
}

fn decode(kind: &str, limit: &str) -> Option<Verdict> {
    if kind == "-" {
        return Some(None);
    }
    let kind = *KINDS.iter().find(|k| k.name() == kind)?;
    let limit = if limit == "-" { None } else { Some(*LIMITS.iter().find(|l| l.to_string() == limit)?) };
    Some(Some((kind, limit)))
}

/// What a worker's reader thread passes on.
enum Message {
    Line(String),
    Eof,
}

/// One worker process and the lines it prints.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Message>,
}

impl Worker {
    fn spawn(command: &dyn Fn() -> Command) -> std::io::Result<Worker> {
        let mut child = command().stdin(Stdio::piped()).stdout(Stdio::piped()).spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(Message::Line(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Message::Eof);
        });
        Ok(Worker { child, stdin, lines })
    }

    fn send(&mut self, bytes: &[u8], fuel: u64, depth: usize, ids: &[u32]) -> bool {
        let mut line = String::with_capacity(bytes.len() * 2 + ids.len() * 6 + 32);
        line.push_str("run ");
        for b in bytes {
            line.push_str(&format!("{b:02x}"));
        }
        if bytes.is_empty() {
            line.push('-');
        }
        line.push_str(&format!(" {fuel} {depth}"));
        for id in ids {
            line.push_str(&format!(" {id}"));
        }
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).and_then(|()| self.stdin.flush()).is_ok()
    }

    fn end(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The worker processes of one campaign.
pub struct Workers {
    command: Box<dyn Fn() -> Command>,
    workers: Vec<Option<Worker>>,
    hang: Duration,
    /// Per worker: the ids sent in the current batch.
    batches: Vec<Vec<u32>>,
}

impl Workers {
    /// Starts `n` workers, each made by `command` (the harness with `worker <target>`
    /// and its stdin and stdout left to us); `hang` is how long a worker may print
    /// nothing before its running mutant is killed by `timeout`.
    pub fn spawn(
        n: usize,
        command: impl Fn() -> Command + 'static,
        hang: Duration,
    ) -> std::io::Result<Workers> {
        let command: Box<dyn Fn() -> Command> = Box::new(command);
        let workers = (0..n).map(|_| Worker::spawn(&*command).map(Some)).collect::<Result<_, _>>()?;
        Ok(Workers { command, workers, hang, batches: vec![Vec::new(); n] })
    }

    /// Number of worker processes.
    pub fn len(&self) -> usize {
        self.workers.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }

    /// Sends worker `w` its batch: the mutants `ids` on `bytes`.
    pub(crate) fn start(&mut self, w: usize, bytes: &[u8], fuel: u64, depth: usize, ids: &[u32]) {
        self.batches[w].clear();
        self.batches[w].extend_from_slice(ids);
        if ids.is_empty() {
            return;
        }
        if !self.worker(w).send(bytes, fuel, depth, ids) {
            // Dead before it started: a fresh one gets the batch.
            self.restart(w);
            let _ = self.worker(w).send(bytes, fuel, depth, ids);
        }
    }

    /// Waits for worker `w`'s verdicts on its batch, calling `verdict(id, v)` for each.
    pub(crate) fn finish(
        &mut self,
        w: usize,
        bytes: &[u8],
        fuel: u64,
        depth: usize,
        verdict: &mut dyn FnMut(u32, Verdict),
    ) {
        let mut left: Vec<u32> = std::mem::take(&mut self.batches[w]);
        if left.is_empty() {
            return;
        }
        let mut running: Option<u32> = None;
        // Until the batch's `end`: reading it here keeps it from ending the next batch.
        loop {
            let hang = self.hang;
            let message = self.worker(w).lines.recv_timeout(hang);
            let blamed = match message {
                Ok(Message::Line(line)) => {
                    let mut words = line.split_ascii_whitespace();
                    match (words.next(), words.next().and_then(|id| id.parse::<u32>().ok())) {
                        (Some("mutant"), Some(id)) => running = Some(id),
                        (Some("verdict"), Some(id)) => {
                            let decoded = match (words.next(), words.next()) {
                                (Some(k), Some(l)) => decode(k, l),
                                _ => None,
                            };
                            if let Some(v) = decoded
                                && left.contains(&id)
                            {
                                verdict(id, v);
                                left.retain(|&x| x != id);
                                running = None;
                            }
                        }
                        (Some("end"), None) => {
                            // Anything not answered did not run: it survived.
                            for id in left.drain(..) {
                                verdict(id, None);
                            }
                            return;
                        }
                        // The target's own output on stdout is not ours to read.
                        _ => {}
                    }
                    None
                }
                Ok(Message::Eof) | Err(RecvTimeoutError::Disconnected) => Some(KillKind::Crash),
                Err(RecvTimeoutError::Timeout) => Some(KillKind::Timeout),
            };
            if let Some(kind) = blamed {
                // The worker is gone or stuck: the mutant it ran is killed, the rest go
                // to a fresh worker.
                let limit = (kind == KillKind::Timeout).then_some(KillLimit::Wall);
                match running.take() {
                    Some(id) if left.contains(&id) => {
                        verdict(id, Some((kind, limit)));
                        left.retain(|&x| x != id);
                    }
                    // Died before it ran anything (it could not start): nothing to blame,
                    // and nothing gained by trying again forever.
                    _ => {
                        for id in left.drain(..) {
                            verdict(id, None);
                        }
                    }
                }
                self.restart(w);
                if left.is_empty() {
                    return;
                }
                let _ = self.worker(w).send(bytes, fuel, depth, &left);
            }
        }
    }

    fn worker(&mut self, w: usize) -> &mut Worker {
        if self.workers[w].is_none() {
            self.restart(w);
        }
        self.workers[w].as_mut().expect("a worker after a restart")
    }

    fn restart(&mut self, w: usize) {
        if let Some(old) = self.workers[w].take() {
            old.end();
        }
        self.workers[w] = Worker::spawn(&*self.command).ok();
        if self.workers[w].is_none() {
            // Spawning failed (out of processes?): try again on the next use.
            std::thread::sleep(Duration::from_millis(100));
            self.workers[w] = Worker::spawn(&*self.command).ok();
        }
        assert!(self.workers[w].is_some(), "cannot start a mutant worker process");
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        for w in self.workers.drain(..).flatten() {
            w.end();
        }
    }
}

/// The worker side: answers requests on stdin until it closes. Returns the exit code.
pub fn serve<T: Gen, O: Debug + 'static>(
    target: Box<dyn Fn(T) -> O>,
    oracle: Box<dyn Oracle<O>>,
    limits: Limits,
) -> i32 {
    let _quiet = crate::campaign::RunGuard::start();
    let mut exec = Executor::new(target, limits);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut bytes = Vec::new();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let mut words = line.split_ascii_whitespace();
        if words.next() != Some("run") {
            continue;
        }
        let (Some(hex), Some(fuel), Some(depth)) = (words.next(), words.next(), words.next()) else {
            continue;
        };
        bytes.clear();
        if hex != "-" {
            bytes.extend(
                (0..hex.len() / 2).filter_map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()),
            );
        }
        let (Ok(fuel), Ok(depth)) = (fuel.parse::<u64>(), depth.parse::<usize>()) else { continue };
        let original = exec.run_plain_original(&bytes, &*oracle);
        for id in words.filter_map(|w| w.parse::<u32>().ok()) {
            if writeln!(out, "mutant {id}").and_then(|()| out.flush()).is_err() {
                return 0;
            }
            let end = exec.run_mutant(id, &bytes, fuel, depth);
            mutfuzz_rt::set_limits(u64::MAX, usize::MAX);
            let (kind, limit) = encode(judge(&*oracle, &original, &end));
            if writeln!(out, "verdict {id} {kind} {limit}").and_then(|()| out.flush()).is_err() {
                return 0;
            }
        }
        if writeln!(out, "end").and_then(|()| out.flush()).is_err() {
            return 0;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_round_trip_through_the_protocol() {
        let mut all: Vec<Verdict> = vec![None];
        for kind in KINDS {
            all.push(Some((kind, None)));
            for limit in LIMITS {
                all.push(Some((kind, Some(limit))));
            }
        }
        for v in all {
            let (k, l) = encode(v);
            assert_eq!(decode(&k, &l), Some(v), "{k} {l}");
        }
        assert_eq!(decode("exploded", "-"), None);
    }
}
