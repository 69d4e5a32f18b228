//! Where a trial's mutant runs go: this process or worker processes of the harness
//! (`Dispatch`), a trial's mutants shared with the main process (`fuzz --jobs N`) or the
//! runs it isolates (`--isolate`); the workers ([`Workers`]) and their side ([`serve`]).
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
//! A worker that dies while a mutant runs (abort, stack overflow, out of memory) or
//! writes more than the output cap in one run (stdout and stderr, both read here and
//! never passed on) kills that mutant by `crash`; one that prints nothing for the hang
//! timeout is ended and kills it by `timeout`. Either way a fresh worker runs the rest of
//! the batch. While the main process waits, each line it reads from a worker calls a
//! heartbeat (the harness prints `alive`), so its supervisor never takes a worker's long
//! batch for a hung harness.
//!
//! Protocol, one line each: request `run <hex bytes> <fuel> <depth> <id> …` (`run-any`:
//! judged with [`AnyOutput`], for a nondeterministic generated target); answers
//! `mutant <id>` before each run, `verdict <id> <kind> <limit>` after it (`-` for
//! survived or no limit), `end` after the batch. A worker checks for drift as the main
//! process does, after each kill (the original on its first input must give what it
//! gave): if it drifted, the kill is answered as survived, followed by `drift`, and the
//! worker exits; a fresh one runs the rest of the batch.

use std::fmt::Debug;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mutfuzz_contract::command::{HarnessCommand, WorkerLimits, WorkerRequest};
use mutfuzz_contract::{EXIT_SUCCESS, Isolate, KillKind, KillLimit, read_line_capped};

use crate::drift::Sentinel;
use crate::error::HarnessError;
use crate::r#gen::Gen;
use crate::input::Limits;
use crate::mutants::MutantTable;
use crate::oracle::{AnyOutput, Oracle};
use crate::trial::{Executor, RunGuard, Verdict, judge};

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

/// Process ids of the live workers, for [`workers_cpu_time`] (ended ones are in this
/// process's `RUSAGE_CHILDREN`, since every worker ended is waited for).
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// When the workers' CPU time was last read, and what it was.
static LAST_READ: Mutex<Option<(std::time::Instant, Duration)>> = Mutex::new(None);

/// How long a reading of [`workers_cpu_time`] is reused: `/proc` counts in 10 ms ticks,
/// and a budget read every few trials of a fast target must not pay a file read each.
const READ_EVERY: Duration = Duration::from_millis(10);

/// CPU time (user + system) that this process's workers used, live and ended: read
/// every few trials by a CPU-time budget, so that runs given to workers count.
pub fn workers_cpu_time() -> Duration {
    let mut last = LAST_READ.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((at, total)) = *last
        && at.elapsed() < READ_EVERY
    {
        return total;
    }
    // SAFETY: `usage` is a valid, writable rusage; RUSAGE_CHILDREN is a constant.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut total = if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } == 0 {
        let micros =
            |t: libc::timeval| Duration::new(t.tv_sec.max(0) as u64, (t.tv_usec.max(0) as u32) * 1000);
        micros(usage.ru_utime) + micros(usage.ru_stime)
    } else {
        Duration::ZERO
    };
    if let Ok(live) = LIVE.lock() {
        total += live.iter().map(|&pid| live_cpu_time(pid)).sum::<Duration>();
    }
    *last = Some((std::time::Instant::now(), total));
    total
}

/// CPU time of the live process `pid`, from `/proc/<pid>/stat` (zero where there is no
/// such file: the worker's time then counts once it has ended and been waited for).
fn live_cpu_time(pid: u32) -> Duration {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return Duration::ZERO };
    // Fields after the command name (which may hold spaces), from the state (field 3):
    // utime and stime are fields 14 and 15, in clock ticks.
    let Some((_, rest)) = stat.rsplit_once(')') else { return Duration::ZERO };
    let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    let t = ticks(11) + ticks(12);
    Duration::from_secs(t / hz) + Duration::from_nanos((t % hz) * 1_000_000_000 / hz)
}

/// What a worker's reader threads pass on.
enum Message {
    Line(String),
    /// The running mutant wrote more than the output cap.
    Flood,
    Eof,
}

/// Output cap of one mutant run in a worker when none is given (the CLI's default).
pub const DEFAULT_MAX_OUTPUT: u64 = 64 << 20;

/// Longest line read at once; a longer one (the target's own output) comes in pieces, so
/// a mutant that prints without newlines cannot grow the main process.
const MAX_LINE: usize = 4096;

/// One worker process and the lines it prints.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Message>,
}

/// Bytes the running mutant wrote (both streams), and whether the cap was reported.
struct Output {
    run_bytes: AtomicU64,
    flooded: AtomicBool,
    cap: u64,
}

impl Output {
    /// Counts `n` more bytes; the first time the run goes past the cap, says so.
    fn add(&self, n: u64, tx: &Sender<Message>) {
        let total = self.run_bytes.fetch_add(n, Ordering::SeqCst) + n;
        if total > self.cap && !self.flooded.swap(true, Ordering::SeqCst) {
            let _ = tx.send(Message::Flood);
        }
    }
}

impl Worker {
    fn spawn(command: &dyn Fn() -> Command, max_output: u64) -> std::io::Result<Worker> {
        let mut child =
            command().stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (tx, lines) = channel();
        let output = Arc::new(Output {
            run_bytes: AtomicU64::new(0),
            flooded: AtomicBool::new(false),
            cap: max_output,
        });
        {
            let (tx, output) = (tx.clone(), Arc::clone(&output));
            std::thread::spawn(move || {
                let mut chunk = vec![0u8; 64 * 1024];
                loop {
                    match stderr.read(&mut chunk) {
                        Ok(0) => break,
                        Ok(n) => output.add(n as u64, &tx),
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
            });
        }
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            while let Some(len) = read_line_capped(&mut reader, &mut buf, MAX_LINE) {
                let line = String::from_utf8_lossy(&buf).trim_end().to_owned();
                if line.starts_with("mutant ") {
                    // A new run: its own output starts from nothing.
                    output.run_bytes.store(0, Ordering::SeqCst);
                } else if !line.starts_with("verdict ") && line != "end" && line != "drift" {
                    output.add(len, &tx);
                    continue;
                }
                if tx.send(Message::Line(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Message::Eof);
        });
        if let Ok(mut live) = LIVE.lock() {
            live.push(child.id());
        }
        Ok(Worker { child, stdin, lines })
    }

    fn send(&mut self, bytes: &[u8], fuel: u64, depth: usize, ids: &[u32], any_output: bool) -> bool {
        use std::fmt::Write as _;
        // Written in place: a request goes out on every trial with a first run.
        let mut line = String::with_capacity(bytes.len() * 2 + ids.len() * 6 + 32);
        line.push_str(if any_output { "run-any " } else { "run " });
        for b in bytes {
            let _ = write!(line, "{b:02x}");
        }
        if bytes.is_empty() {
            line.push('-');
        }
        let _ = write!(line, " {fuel} {depth}");
        for id in ids {
            let _ = write!(line, " {id}");
        }
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).and_then(|()| self.stdin.flush()).is_ok()
    }

    fn end(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Waited for: its time is in RUSAGE_CHILDREN from now on.
        let id = self.child.id();
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|&p| p != id);
        }
    }
}

/// The worker processes of one campaign.
pub struct Workers {
    command: Box<dyn Fn() -> Command>,
    workers: Vec<Option<Worker>>,
    hang: Duration,
    /// Output cap of one mutant run in a worker (stdout and stderr together).
    max_output: u64,
    /// Called for each line read from a worker while waiting for a batch.
    heartbeat: Option<Box<dyn FnMut()>>,
    /// Per worker: the ids sent in the current batch.
    batches: Vec<Vec<u32>>,
    /// Requests ask for the [`AnyOutput`] oracle (a nondeterministic generated target).
    any_output: bool,
}

/// How long a worker may print nothing while a mutant runs before it is killed by
/// `timeout`, when the command line does not say (`--worker-timeout`).
pub const DEFAULT_WORKER_TIMEOUT: Duration = Duration::from_secs(10);

impl Workers {
    /// Starts `n` workers, each this harness executable running `worker <target>`, within
    /// the command line's `limits`.
    pub(crate) fn of_harness(n: usize, target: &str, limits: &WorkerLimits) -> Result<Workers, HarnessError> {
        Workers::of_harness_checking(n, target, limits, false)
    }

    /// [`Workers::of_harness`], whose workers also check for drift at the end of each
    /// batch (`drift_each_batch`), and say so: see [`Workers::finish`].
    pub(crate) fn of_harness_checking(
        n: usize,
        target: &str,
        limits: &WorkerLimits,
        drift_each_batch: bool,
    ) -> Result<Workers, HarnessError> {
        let exe = std::env::current_exe().map_err(|e| HarnessError::io("find the harness executable", e))?;
        let request = WorkerRequest { target: target.to_owned(), drift_each_batch };
        let args = HarnessCommand::Worker(request).to_args();
        let hang = limits.timeout.map_or(DEFAULT_WORKER_TIMEOUT, |t| Duration::from_secs_f64(t.max(0.1)));
        let max_output = match limits.max_output {
            Some(0) => u64::MAX,
            Some(cap) => cap,
            None => DEFAULT_MAX_OUTPUT,
        };
        let command = move || {
            let mut c = Command::new(&exe);
            c.args(&args);
            c
        };
        Workers::spawn(n, command, hang, max_output)
            .map_err(|e| HarnessError::io("start mutant worker processes", e))
    }

    /// Starts `n` workers, each made by `command` (the harness with `worker <target>`;
    /// its stdin, stdout and stderr are left to us); `hang` is how long a worker may print
    /// nothing before its running mutant is killed by `timeout`, `max_output` how much one
    /// mutant run may write before it is killed by `crash`.
    pub fn spawn(
        n: usize,
        command: impl Fn() -> Command + 'static,
        hang: Duration,
        max_output: u64,
    ) -> std::io::Result<Workers> {
        let command: Box<dyn Fn() -> Command> = Box::new(command);
        let workers =
            (0..n).map(|_| Worker::spawn(&*command, max_output).map(Some)).collect::<Result<_, _>>()?;
        Ok(Workers {
            command,
            workers,
            hang,
            max_output,
            heartbeat: None,
            batches: vec![Vec::new(); n],
            any_output: false,
        })
    }

    /// Calls `heartbeat` for each line read from a worker while waiting for a batch: a
    /// supervisor that watches this process for silence then sees it alive.
    pub fn with_heartbeat(mut self, heartbeat: impl FnMut() + 'static) -> Self {
        self.heartbeat = Some(Box::new(heartbeat));
        self
    }

    /// Number of worker processes.
    pub fn len(&self) -> usize {
        self.workers.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }

    /// From now on the workers judge with [`AnyOutput`] (any two returned outputs agree)
    /// instead of the target's oracle: the campaign found its generated target
    /// nondeterministic. Said in each request, so a restarted worker judges the same.
    pub(crate) fn judge_any_output(&mut self) {
        self.any_output = true;
    }

    /// Sends worker `w` its batch: the mutants `ids` on `bytes`.
    pub(crate) fn start(&mut self, w: usize, bytes: &[u8], fuel: u64, depth: usize, ids: &[u32]) {
        self.batches[w].clear();
        self.batches[w].extend_from_slice(ids);
        if ids.is_empty() {
            return;
        }
        let any_output = self.any_output;
        if !self.worker(w).send(bytes, fuel, depth, ids, any_output) {
            // Dead before it started: a fresh one gets the batch.
            self.restart(w);
            let _ = self.worker(w).send(bytes, fuel, depth, ids, any_output);
        }
    }

    /// Waits for worker `w`'s verdicts on its batch, calling `verdict(id, v)` for each.
    /// Returns whether a worker found drift while running it (after a kill, which it then
    /// answered as survived, or at the batch's end): a mutant of the batch changed global
    /// state, and the worker was replaced.
    pub(crate) fn finish(
        &mut self,
        w: usize,
        bytes: &[u8],
        fuel: u64,
        depth: usize,
        verdict: &mut dyn FnMut(u32, Verdict),
    ) -> bool {
        let any_output = self.any_output;
        let mut left: Vec<u32> = std::mem::take(&mut self.batches[w]);
        if left.is_empty() {
            return false;
        }
        let mut running: Option<u32> = None;
        let mut drifted = false;
        // Until the batch's `end`: reading it here keeps it from ending the next batch.
        loop {
            let hang = self.hang;
            let message = self.worker(w).lines.recv_timeout(hang);
            if let (Ok(Message::Line(_)), Some(heartbeat)) = (&message, &mut self.heartbeat) {
                heartbeat();
            }
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
                        (Some("drift"), None) => {
                            // The worker ended itself: a fresh one runs the rest.
                            drifted = true;
                            self.restart(w);
                            if left.is_empty() {
                                return drifted;
                            }
                            let _ = self.worker(w).send(bytes, fuel, depth, &left, any_output);
                        }
                        (Some("end"), None) => {
                            // Anything not answered did not run: it survived.
                            for id in left.drain(..) {
                                verdict(id, None);
                            }
                            return drifted;
                        }
                        // The target's own output on stdout is not ours to read.
                        _ => {}
                    }
                    None
                }
                Ok(Message::Eof | Message::Flood) | Err(RecvTimeoutError::Disconnected) => {
                    Some(KillKind::Crash)
                }
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
                    return drifted;
                }
                let _ = self.worker(w).send(bytes, fuel, depth, &left, any_output);
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
        self.workers[w] = Worker::spawn(&*self.command, self.max_output).ok();
        if self.workers[w].is_none() {
            // Spawning failed (out of processes?): try again on the next use.
            std::thread::sleep(Duration::from_millis(100));
            self.workers[w] = Worker::spawn(&*self.command, self.max_output).ok();
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

/// Where a trial's mutant runs go: this process or a worker, and their verdicts by
/// position in the trial's list. Its buffers are reused across trials.
pub(crate) struct Dispatch {
    /// Worker processes for parallel or isolated mutant runs.
    workers: Option<Workers>,
    /// Whether the workers share a trial's runs (`Campaign::with_workers`) or take
    /// only the isolated ones (`Campaign::with_sentry`).
    split: bool,
    /// Which runs go to a worker to keep this process alive.
    isolate: Isolate,
    /// Mutant runs × the original's fuel from which a trial's runs are shared.
    parallel_min_work: u64,
    /// The process of each position of the trial's list: 0 here, `w + 1` worker `w`.
    assigned: Vec<usize>,
    /// The trial's verdicts by position (`None`: not run).
    verdicts: Vec<Option<Verdict>>,
    /// One worker's share of a trial's mutant ids.
    ids: Vec<u32>,
}

impl Dispatch {
    /// Every run in this process until workers are given.
    pub(crate) fn new(isolate: Isolate, parallel_min_work: u64) -> Dispatch {
        Dispatch {
            workers: None,
            split: false,
            isolate,
            parallel_min_work,
            assigned: Vec::new(),
            verdicts: Vec::new(),
            ids: Vec::new(),
        }
    }

    /// Uses `workers` (none if empty): sharing every trial's runs (`split`) or taking
    /// only the isolated ones.
    pub(crate) fn set_workers(&mut self, workers: Workers, split: bool) {
        self.workers = Some(workers).filter(|w| !w.is_empty());
        self.split = split;
    }

    /// From now on the workers judge with [`AnyOutput`].
    pub(crate) fn judge_any_output(&mut self) {
        if let Some(workers) = &mut self.workers {
            workers.judge_any_output();
        }
    }

    /// The last trial's verdicts, by position in its list.
    pub(crate) fn verdicts(&self) -> &[Option<Verdict>] {
        &self.verdicts
    }

    /// Runs the mutants `to_run` (indices into `table`) on `bytes` within `fuel` and
    /// `depth`: the workers' shares in their processes while `here(id)` runs the rest in
    /// this one, in list order, returning each verdict and whether to go on (a drift
    /// stops this process's runs). `work` is the original's fuel, the estimate of a run's
    /// cost.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run(
        &mut self,
        to_run: &[u32],
        table: &MutantTable,
        bytes: &[u8],
        fuel: u64,
        depth: usize,
        work: u64,
        mut here: impl FnMut(u32) -> (Verdict, bool),
    ) {
        let n = to_run.len();
        self.verdicts.clear();
        self.verdicts.resize(n, None);
        self.assign(to_run, table, work);
        if let Some(workers) = &mut self.workers {
            let ids = &mut self.ids;
            for w in 0..workers.len() {
                ids.clear();
                ids.extend((0..n).filter(|&p| self.assigned[p] == w + 1).map(|p| table.info(to_run[p]).id));
                workers.start(w, bytes, fuel, depth, ids);
            }
        }
        for (p, &mi) in to_run.iter().enumerate() {
            if self.assigned[p] != 0 {
                continue;
            }
            let (verdict, go_on) = here(table.info(mi).id);
            self.verdicts[p] = Some(verdict);
            if !go_on {
                break;
            }
        }
        if let Some(workers) = &mut self.workers {
            // Ids are unique in one trial's list: map each answer back to its position.
            let verdicts = &mut self.verdicts;
            for w in 0..workers.len() {
                workers.finish(w, bytes, fuel, depth, &mut |id, v| {
                    if let Some(p) = to_run.iter().position(|&mi| table.info(mi).id == id) {
                        verdicts[p] = Some(v);
                    }
                });
            }
        }
    }

    /// Chooses the process of each of the trial's runs (`assigned`). The choice depends
    /// on the list, the mutants' run counts and the original's fuel only, never on
    /// timing, so verdicts are the same whatever the number of workers.
    fn assign(&mut self, to_run: &[u32], table: &MutantTable, work: u64) {
        let n = to_run.len();
        self.assigned.clear();
        self.assigned.resize(n, 0);
        let n_workers = self.workers.as_ref().map_or(0, Workers::len);
        if n_workers == 0 {
            return;
        }
        if self.isolate == Isolate::All {
            // Every run in a worker: this process runs only the original.
            for (p, a) in self.assigned.iter_mut().enumerate() {
                *a = p % n_workers + 1;
            }
            return;
        }
        // A round trip to a worker costs tens of microseconds: sharing is worth it only
        // when the trial's mutant runs are long (measured by the original's fuel).
        let work = (n as u64).saturating_mul(work.max(1));
        if self.split && n > 1 && work >= self.parallel_min_work {
            // Position p goes to process p mod (workers + 1).
            for (p, a) in self.assigned.iter_mut().enumerate() {
                *a = p % (n_workers + 1);
            }
        }
        if self.isolate == Isolate::FirstRuns {
            let mut next = 0;
            for (a, &mi) in self.assigned.iter_mut().zip(to_run) {
                if *a == 0 && table.runs(mi) == 0 {
                    *a = next % n_workers + 1;
                    next += 1;
                }
            }
        }
    }
}

/// The worker side: answers requests on stdin until it closes. Returns the exit code.
/// With `drift_each_batch`, each batch ends with a drift check too (after its last
/// verdict, for the survivors since the last kill).
pub fn serve<T: Gen, O: Debug + 'static>(
    target: Box<dyn Fn(T) -> O>,
    oracle: Box<dyn Oracle<O>>,
    limits: Limits,
    drift_each_batch: bool,
) -> i32 {
    let _quiet = RunGuard::start();
    let mut exec = Executor::new(target, limits);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut bytes = Vec::new();
    let mut sentinel: Option<Sentinel<O>> = None;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let mut words = line.split_ascii_whitespace();
        let any_output = match words.next() {
            Some("run") => false,
            Some("run-any") => true,
            _ => continue,
        };
        let oracle: &dyn Oracle<O> = if any_output { &AnyOutput } else { &*oracle };
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
        // The drift check's reference, before any mutant ran in this process.
        let sentinel = sentinel.get_or_insert_with(|| Sentinel::take(&mut exec, &bytes, oracle));
        let original = exec.run_plain_original(&bytes, oracle);
        // Whether a mutant ran since the last drift check (each kill has one).
        let mut unchecked = false;
        for id in words.filter_map(|w| w.parse::<u32>().ok()) {
            if writeln!(out, "mutant {id}").and_then(|()| out.flush()).is_err() {
                return EXIT_SUCCESS;
            }
            let end = exec.run_mutant(id, &bytes, fuel, depth);
            mutfuzz_rt::set_limits(u64::MAX, usize::MAX);
            let mut verdict = judge(oracle, &original, &end);
            // A kill is what drift fakes: a mutant run here changed global state that the
            // original reads. The kill does not count, and a fresh worker takes the rest.
            let drifted = verdict.is_some() && sentinel.drifted(&mut exec, oracle).is_some();
            if drifted {
                verdict = None;
            }
            let (kind, limit) = encode(verdict);
            if writeln!(out, "verdict {id} {kind} {limit}").and_then(|()| out.flush()).is_err() {
                return EXIT_SUCCESS;
            }
            if drifted {
                let _ = writeln!(out, "drift").and_then(|()| out.flush());
                return EXIT_SUCCESS;
            }
            unchecked = verdict.is_none();
        }
        if unchecked && drift_each_batch && sentinel.drifted(&mut exec, oracle).is_some() {
            // Every verdict is said; the process is no longer the original's.
            let _ = writeln!(out, "drift").and_then(|()| out.flush());
            return EXIT_SUCCESS;
        }
        if writeln!(out, "end").and_then(|()| out.flush()).is_err() {
            return EXIT_SUCCESS;
        }
    }
    EXIT_SUCCESS
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

    /// One worker that is this shell script.
    fn shell_worker(script: String) -> Workers {
        let command = move || {
            let mut c = Command::new("sh");
            c.args(["-c", &script]);
            c
        };
        Workers::spawn(1, command, Duration::from_secs(10), u64::MAX).unwrap()
    }

    #[test]
    fn after_judge_any_output_every_request_asks_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("requests");
        let script = format!("while read l; do echo \"$l\" >> '{}'; echo end; done", log.display());
        let mut workers = shell_worker(script);
        let batch = |workers: &mut Workers| {
            let mut verdicts = Vec::new();
            workers.start(0, &[10, 255], 7, 9, &[5, 6]);
            workers.finish(0, &[10, 255], 7, 9, &mut |id, v| verdicts.push((id, v)));
            verdicts
        };
        // Unanswered mutants survived; the request says how to judge them.
        assert_eq!(batch(&mut workers), [(5, None), (6, None)]);
        workers.judge_any_output();
        assert_eq!(batch(&mut workers), [(5, None), (6, None)]);
        drop(workers);
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "run 0aff 7 9 5 6\nrun-any 0aff 7 9 5 6\n");
    }

    #[test]
    fn a_worker_that_drifts_is_replaced_and_its_batch_says_so() {
        // Requests are numbered across processes: the first is answered for one mutant
        // and drifts; the third drifts after its last verdict; the others end.
        let dir = tempfile::tempdir().unwrap();
        let count = dir.path().join("requests");
        let script = format!(
            "while read l; do echo x >> '{c}'; n=$(wc -l < '{c}'); \
             for id in ${{l#* * * * }}; do echo \"verdict $id - -\"; [ $n = 1 ] && break; done; \
             case $n in 1|3) echo drift; exit 0;; *) echo end;; esac; done",
            c = count.display()
        );
        let mut workers = shell_worker(script);
        let mut batch = |ids: &[u32]| {
            let mut verdicts = Vec::new();
            workers.start(0, &[1], 7, 9, ids);
            let drifted = workers.finish(0, &[1], 7, 9, &mut |id, v| verdicts.push((id, v)));
            (verdicts, drifted)
        };
        // Drift after the first verdict: a fresh worker answers the rest and ends.
        assert_eq!(batch(&[5, 6]), (vec![(5, None), (6, None)], true));
        // Drift after the last verdict.
        assert_eq!(batch(&[7]), (vec![(7, None)], true));
        assert_eq!(batch(&[8]), (vec![(8, None)], false));
    }

    #[test]
    fn workers_cpu_time_counts_live_workers_and_keeps_ended_ones() {
        let before = workers_cpu_time();
        // A worker that only burns CPU (it never answers: nothing is sent to it).
        let workers = shell_worker("i=0; while :; do i=$((i+1)); done".to_owned());
        let start = std::time::Instant::now();
        let mut live = Duration::ZERO;
        while start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(50));
            live = workers_cpu_time().saturating_sub(before);
            if live >= Duration::from_millis(100) {
                break;
            }
        }
        assert!(live >= Duration::from_millis(100), "a busy worker counted {live:?} in 5 s");
        drop(workers);
        // Ended and waited for: its time is still counted (now through RUSAGE_CHILDREN).
        assert!(workers_cpu_time().saturating_sub(before) >= live, "{:?}", workers_cpu_time());
    }
}
