//! The run-time switch that every mutfuzz schema links: which mutant is active, which
//! sites ran, and how much fuel and stack a run may spend.
//!
//! A schema is the crate under test rewritten so that it contains all of its mutants.
//! Every function body starts with `let __m = enter();`, which reads the active mutant
//! once; each site then asks [`at`] which of its alternatives to evaluate, and each loop
//! body calls [`tick`]. On the original path (active mutant 0, not recording) `enter` is
//! one relaxed atomic load and one compare, and each site and loop head is one compare
//! of a local that the optimiser sees is loop-invariant.
//!
//! ```
//! // What the schema writes for `a + b` with mutants `-` (id 7) and `*` (id 8):
//! let (a, b) = (2, 3);
//! let __m = mutfuzz_rt::enter();
//! let v = { let (l, r) = (a, b); match mutfuzz_rt::at(__m, 7, 2) { 1 => l - r, 2 => l * r, _ => l + r } };
//! assert_eq!(v, 5); // no mutant is active
//! ```
//!
//! The active mutant is process-global, not thread-local, so threads that the code
//! under test spawns (rayon, scoped threads) run the same mutant as the thread that
//! spawned them. Parallel mutant runs therefore use separate processes.
//!
//! Runaways are bounded by *fuel* (one unit per function entry and loop iteration) and
//! by *depth*, measured as the bytes of stack used below the first instrumented frame of
//! each thread, so no guard object is needed and unwinding cannot skew it.
//!
//! Configuration comes from the environment on first use (see [`env`]), or from the
//! control functions ([`activate`], [`start_recording`], …) for an in-process engine.

mod infection;
mod range_limit;

pub use infection::{arith, infect, infect_if, infected, PROBE};
pub use range_limit::{pred, succ, RangeLimit};

/// Serialises the unit tests that drive the process-global switch.
#[cfg(test)]
pub(crate) static TEST_LOCK: Mutex<()> = Mutex::new(());

use std::cell::Cell;
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, Once, OnceLock};

/// Environment variables read on first use.
pub mod env {
    /// Id of the mutant to activate; absent or `0` runs the original.
    pub const ACTIVE: &str = "MUTFUZZ_ACTIVE";
    /// Path of a file to which a recording run writes its site hits, fuel and depth at exit.
    pub const RECORD: &str = "MUTFUZZ_RECORD";
    /// Number of mutant ids (largest id + 1): the size of the site-hit table.
    pub const MUTANTS: &str = "MUTFUZZ_MUTANTS";
    /// Fuel a run may spend (ticks at function entries and loop heads) before it is ended.
    pub const FUEL: &str = "MUTFUZZ_FUEL";
    /// Stack bytes a run may use below its first instrumented frame before it is ended.
    pub const DEPTH: &str = "MUTFUZZ_DEPTH";
    /// `exit` ends the process with [`super::EXHAUSTED_EXIT_CODE`] when a limit runs out;
    /// anything else (the default) panics with an [`super::Exhausted`] payload.
    pub const ON_EXHAUST: &str = "MUTFUZZ_ON_EXHAUST";
}

/// Exit code of a process ended because a mutant exhausted its fuel or depth
/// (with `MUTFUZZ_ON_EXHAUST=exit`).
pub const EXHAUSTED_EXIT_CODE: i32 = 86;

/// `ACTIVE` before the environment has been read.
const UNINIT: u32 = u32::MAX;
/// `ACTIVE` while the original runs and site hits, fuel and depth are recorded.
const RECORDING: u32 = u32::MAX - 1;
/// Largest usable mutant id.
pub const MAX_MUTANT_ID: u32 = u32::MAX - 2;
/// Fuel is counted per thread and added to the shared total in batches of this size,
/// so the hot path never contends on one atomic.
const FUEL_BATCH: u64 = 256;

static ACTIVE: AtomicU32 = AtomicU32::new(UNINIT);
static INIT: Once = Once::new();
static FUEL_USED: AtomicU64 = AtomicU64::new(0);
static FUEL_LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);
static DEPTH_LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
static MAX_DEPTH: AtomicUsize = AtomicUsize::new(0);
/// Bumped by [`reset_run`] so that every thread restarts its stack base and fuel batch.
static RUN: AtomicU64 = AtomicU64::new(0);
static EXIT_ON_EXHAUST: AtomicBool = AtomicBool::new(false);
static HITS: OnceLock<Box<[AtomicU8]>> = OnceLock::new();
static RECORD_PATH: Mutex<Option<String>> = Mutex::new(None);

thread_local! {
    /// (run, stack address of this thread's first instrumented frame in that run).
    static STACK_BASE: Cell<(u64, usize)> = const { Cell::new((u64::MAX, 0)) };
    /// (run, fuel spent by this thread and not yet added to `FUEL_USED`).
    static FUEL_LOCAL: Cell<(u64, u64)> = const { Cell::new((u64::MAX, 0)) };
}

/// Enter a function (or closure) of the code under test: returns the active mutant id
/// for the body's sites, and outside the original path spends fuel and checks depth.
#[inline(always)]
pub fn enter() -> u32 {
    let active = ACTIVE.load(Relaxed);
    if active == 0 {
        return 0;
    }
    enter_slow(active)
}

#[cold]
#[inline(never)]
fn enter_slow(mut active: u32) -> u32 {
    if active == UNINIT {
        init();
        active = ACTIVE.load(Relaxed);
        if active == 0 {
            return 0;
        }
    }
    tick_slow(active);
    check_depth(active);
    active
}

/// Which alternative of a site to evaluate, given the `active` id from [`enter`].
///
/// A site whose mutants have ids `base ..= base + n - 1` calls `at(active, base, n)`: it
/// returns `0` for the original code, or `k` in `1..=n` when mutant `base + k - 1` is
/// active. While recording it notes that the site ran.
#[inline(always)]
pub fn at(active: u32, base: u32, n: u32) -> u32 {
    if active == 0 {
        return 0;
    }
    let k = active.wrapping_sub(base);
    if k < n {
        return k + 1;
    }
    if active == RECORDING {
        hit(base);
    }
    0
}

/// [`at`] for a site with an infection probe: while the original records, it notes the
/// hit and returns [`PROBE`], so the site runs its probe arm (which computes the original
/// value too); otherwise it is `at`.
#[inline(always)]
pub fn at_probe(active: u32, base: u32, n: u32) -> u32 {
    if active == 0 {
        return 0;
    }
    let k = active.wrapping_sub(base);
    if k < n {
        return k + 1;
    }
    if active == RECORDING {
        hit(base);
        return PROBE;
    }
    0
}

#[cold]
#[inline(never)]
fn hit(base: u32) {
    if let Some(slot) = HITS.get().and_then(|h| h.get(base as usize)) {
        slot.store(1, Relaxed);
    }
}

/// Spend one unit of fuel at the head of a loop body; `active` is from [`enter`].
#[inline(always)]
pub fn tick(active: u32) {
    if active != 0 {
        tick_slow(active);
    }
}

#[cold]
#[inline(never)]
fn tick_slow(active: u32) {
    let run = RUN.load(Relaxed);
    let spent = FUEL_LOCAL.with(|f| {
        let (r, n) = f.get();
        let n = if r == run { n + 1 } else { 1 };
        if n < FUEL_BATCH {
            f.set((run, n));
            return None;
        }
        f.set((run, 0));
        Some(n)
    });
    if let Some(n) = spent {
        let total = FUEL_USED.fetch_add(n, Relaxed) + n;
        if active != RECORDING && total > FUEL_LIMIT.load(Relaxed) {
            exhausted(Limit::Fuel, active);
        }
    }
}

fn check_depth(active: u32) {
    let marker = 0u8;
    let here = std::hint::black_box(&marker) as *const u8 as usize;
    let run = RUN.load(Relaxed);
    let base = STACK_BASE.with(|b| match b.get() {
        (r, base) if r == run && base >= here => base,
        // This thread's first frame in this run, or one shallower than it: the new base.
        _ => {
            b.set((run, here));
            here
        }
    });
    let depth = base - here;
    if active == RECORDING {
        MAX_DEPTH.fetch_max(depth, Relaxed);
    } else if depth > DEPTH_LIMIT.load(Relaxed) {
        exhausted(Limit::Depth, active);
    }
}

/// Which limit a runaway mutant ran out of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The fuel budget (function entries plus loop iterations).
    Fuel,
    /// The call-depth bound.
    Depth,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Fuel => "fuel",
            Limit::Depth => "depth",
        })
    }
}

/// The panic payload of a run that exhausted a limit (unless the process exits instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exhausted {
    /// The mutant that was active.
    pub mutant: u32,
    /// The limit it ran out of.
    pub limit: Limit,
}

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mutfuzz: mutant {} exhausted its {} limit", self.mutant, self.limit)
    }
}

#[cold]
#[inline(never)]
fn exhausted(limit: Limit, mutant: u32) -> ! {
    let payload = Exhausted { mutant, limit };
    if EXIT_ON_EXHAUST.load(Relaxed) {
        let _ = writeln!(std::io::stderr(), "{payload}");
        std::process::exit(EXHAUSTED_EXIT_CODE);
    }
    std::panic::panic_any(payload)
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// Read the configuration from the environment, once per process.
#[cold]
fn init() {
    INIT.call_once(|| {
        if let Some(limit) = env_u64(env::FUEL) {
            FUEL_LIMIT.store(limit, Relaxed);
        }
        if let Some(limit) = env_u64(env::DEPTH) {
            DEPTH_LIMIT.store(usize::try_from(limit).unwrap_or(usize::MAX), Relaxed);
        }
        if std::env::var(env::ON_EXHAUST).is_ok_and(|v| v == "exit") {
            EXIT_ON_EXHAUST.store(true, Relaxed);
        }
        let mut mode = env_u64(env::ACTIVE).map_or(0, |id| id.min(MAX_MUTANT_ID as u64) as u32);
        if let Ok(path) = std::env::var(env::RECORD) {
            let mutants = env_u64(env::MUTANTS).unwrap_or(0) as usize;
            allocate_hits(mutants);
            *RECORD_PATH.lock().unwrap_or_else(|e| e.into_inner()) = Some(path);
            register_exit_hook();
            mode = RECORDING;
        }
        // Only replace UNINIT: a control call made before first use wins.
        let _ = ACTIVE.compare_exchange(UNINIT, mode, Relaxed, Relaxed);
    });
}

fn allocate_hits(mutants: usize) {
    infection::allocate(mutants);
    let _ = HITS.set((0..mutants).map(|_| AtomicU8::new(0)).collect());
}

#[cfg(any(unix, windows))]
fn register_exit_hook() {
    extern "C" {
        fn atexit(callback: extern "C" fn()) -> std::os::raw::c_int;
    }
    extern "C" fn write_at_exit() {
        let path = RECORD_PATH.lock().ok().and_then(|p| p.clone());
        if let Some(path) = path {
            let _ = write_record(&path);
        }
    }
    // SAFETY: `atexit` is the C standard library's; the callback is a plain extern fn that
    // does not unwind (write errors are ignored).
    unsafe {
        atexit(write_at_exit);
    }
}

#[cfg(not(any(unix, windows)))]
fn register_exit_hook() {}

/// Append what a recording run saw to `path`, as one block of lines: `fuel N`,
/// `depth N`, `hits ID ID …` (the base ids of the sites that ran). Appending lets child
/// processes of a test (which inherit the environment) add their hits to the parent's.
pub fn write_record(path: &str) -> std::io::Result<()> {
    let mut text = format!("fuel {}\ndepth {}\nhits", fuel_used(), max_depth());
    for id in site_hits() {
        text.push(' ');
        text.push_str(&id.to_string());
    }
    text.push('\n');
    // One write call, so blocks from concurrent processes do not interleave.
    std::fs::OpenOptions::new().create(true).append(true).open(path)?.write_all(text.as_bytes())
}

/// What a recording run wrote: see [`write_record`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Fuel spent.
    pub fuel: u64,
    /// Most stack used, in bytes below the first instrumented frame.
    pub depth: usize,
    /// Base ids of the sites that ran, sorted.
    pub hits: Vec<u32>,
}

impl Record {
    /// Parse the blocks written by [`write_record`] and merge them: fuel adds up, depth
    /// is the deepest, hits are the union. Missing lines read as zero / none.
    pub fn parse(text: &str) -> Record {
        let mut rec = Record::default();
        for line in text.lines() {
            let mut words = line.split_ascii_whitespace();
            let number = |w: Option<&str>| w.and_then(|w| w.parse::<u64>().ok()).unwrap_or(0);
            match words.next() {
                Some("fuel") => rec.fuel += number(words.next()),
                Some("depth") => rec.depth = rec.depth.max(number(words.next()) as usize),
                Some("hits") => rec.hits.extend(words.filter_map(|w| w.parse::<u32>().ok())),
                _ => {}
            }
        }
        rec.hits.sort_unstable();
        rec.hits.dedup();
        rec
    }
}

/// Run mutant `id` from now on (`0` for the original), not recording.
pub fn activate(id: u32) {
    INIT.call_once(|| {});
    ACTIVE.store(id.min(MAX_MUTANT_ID), Relaxed);
}

/// The active mutant id, `0` for the original (also while recording).
pub fn active() -> u32 {
    match ACTIVE.load(Relaxed) {
        UNINIT => {
            init();
            active()
        }
        RECORDING => 0,
        id => id,
    }
}

/// Run the original and record site hits, fuel and depth, with room for `mutants` ids.
///
/// The site-hit table is sized on the first call; later calls reuse it.
pub fn start_recording(mutants: usize) {
    INIT.call_once(|| {});
    allocate_hits(mutants);
    if let Some(hits) = HITS.get() {
        for h in hits.iter() {
            h.store(0, Relaxed);
        }
    }
    reset_run();
    infection::new_run();
    ACTIVE.store(RECORDING, Relaxed);
}

/// Base ids of the sites that ran since recording started, in increasing order.
pub fn site_hits() -> Vec<u32> {
    HITS.get()
        .map(|hits| {
            hits.iter().enumerate().filter(|(_, h)| h.load(Relaxed) != 0).map(|(i, _)| i as u32).collect()
        })
        .unwrap_or_default()
}

/// Reset the fuel spent and the deepest depth seen, before a new run.
pub fn reset_run() {
    RUN.fetch_add(1, Relaxed);
    FUEL_USED.store(0, Relaxed);
    MAX_DEPTH.store(0, Relaxed);
}

/// Fuel spent since the last reset: the shared total plus this thread's unflushed batch
/// (other threads' unflushed batches, under 256 each, are not seen).
pub fn fuel_used() -> u64 {
    let run = RUN.load(Relaxed);
    let local = FUEL_LOCAL.with(|f| match f.get() {
        (r, n) if r == run => n,
        _ => 0,
    });
    FUEL_USED.load(Relaxed) + local
}

/// Most stack, in bytes below the first instrumented frame, seen while recording.
pub fn max_depth() -> usize {
    MAX_DEPTH.load(Relaxed)
}

/// Bound the fuel and the stack depth (bytes) of mutant runs.
pub fn set_limits(fuel: u64, depth: usize) {
    FUEL_LIMIT.store(fuel, Relaxed);
    DEPTH_LIMIT.store(depth, Relaxed);
}

/// Choose whether an exhausted limit exits the process (`true`) or panics (`false`).
pub fn set_exit_on_exhaust(exit: bool) {
    EXIT_ON_EXHAUST.store(exit, Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    // One test drives the whole sequence: the switch is process-global state.
    #[test]
    fn switch_records_dispatches_and_bounds_runs() {
        let _g = TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        // Recording: sites report 0 and their base id is remembered; fuel and depth count.
        start_recording(16);
        let m = enter();
        assert_eq!(at(m, 3, 2), 0);
        assert_eq!(at(m, 9, 1), 0);
        tick(m);
        fn deeper() -> u32 {
            let m = enter();
            let pad = std::hint::black_box([0u8; 512]);
            m + u32::from(pad[0])
        }
        deeper();
        assert_eq!(at_probe(m, 11, 2), PROBE);
        assert_eq!(site_hits(), vec![3, 9, 11]);
        assert_eq!(fuel_used(), 3);
        assert!(max_depth() >= 512, "{}", max_depth());

        // Original: nothing dispatches or counts.
        activate(0);
        reset_run();
        let m = enter();
        assert_eq!(m, 0);
        assert_eq!(at(m, 3, 2), 0);
        tick(m);
        assert_eq!(fuel_used(), 0);

        // Mutant 4 is the second alternative of the site with base 3.
        activate(4);
        let m = enter();
        assert_eq!(at(m, 3, 2), 2);
        assert_eq!(at(m, 4, 1), 1);
        assert_eq!(at(m, 5, 3), 0);
        assert_eq!(at(m, 1, 3), 0);
        assert_eq!(at_probe(m, 3, 2), 2);
        assert_eq!(at_probe(m, 5, 3), 0);
        assert_eq!(active(), 4);

        // Fuel runs out: the run panics with an `Exhausted` payload.
        set_limits(1000, usize::MAX);
        reset_run();
        let err = std::panic::catch_unwind(|| {
            let m = enter();
            loop {
                tick(m);
            }
        })
        .unwrap_err();
        let payload = err.downcast_ref::<Exhausted>().expect("payload is Exhausted");
        assert_eq!(*payload, Exhausted { mutant: 4, limit: Limit::Fuel });

        // Runaway recursion runs out of depth long before the stack.
        set_limits(u64::MAX, 64 * 1024);
        reset_run();
        fn recurse(n: u32) -> u32 {
            let _m = enter();
            if n == u32::MAX {
                0
            } else {
                1 + recurse(n + 1)
            }
        }
        let err = std::panic::catch_unwind(|| recurse(0)).unwrap_err();
        assert_eq!(err.downcast_ref::<Exhausted>().unwrap().limit, Limit::Depth);

        // The switch follows the mutant into spawned threads.
        activate(7);
        let seen = std::thread::spawn(|| at(enter(), 7, 1)).join().unwrap();
        assert_eq!(seen, 1);
        activate(0);
    }

    #[test]
    fn records_parse_back() {
        let r = Record::parse("fuel 12\ndepth 3\nhits 9 1 4\n");
        assert_eq!(r, Record { fuel: 12, depth: 3, hits: vec![1, 4, 9] });
        // A child process appended its own block.
        let r = Record::parse("fuel 12\ndepth 3\nhits 9 1 4\nfuel 5\ndepth 7\nhits 4 2\n");
        assert_eq!(r, Record { fuel: 17, depth: 7, hits: vec![1, 2, 4, 9] });
        assert_eq!(Record::parse(""), Record::default());
    }

    #[test]
    fn exhausted_payload_names_the_mutant_and_limit() {
        let e = Exhausted { mutant: 12, limit: Limit::Depth };
        assert_eq!(e.to_string(), "mutfuzz: mutant 12 exhausted its depth limit");
    }
}
