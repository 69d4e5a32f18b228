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
//! With a mutant active (or while recording) both stay on an inlined fast path too: each
//! thread spends fuel from its own countdown, refilled in batches from the shared budget,
//! and compares the stack pointer against a window `[low, base]` precomputed for the run
//! (the limit below its base, or while recording the deepest point seen so far). Only an
//! empty countdown, a frame outside the window, or a thread's first frame of a run take
//! the out-of-line path. A single-threaded run therefore stops at exactly the same tick
//! and frame for the same code, input and limits.
//!
//! Configuration comes from the environment on first use (see [`env`](mod@env)), or from the
//! control functions ([`activate`], [`start_recording`], …) for an in-process engine.

mod compare;
mod infection;
mod range_limit;

pub use compare::{compared, comparisons, record_comparisons, Operand, RING, STR_CAP};
pub use infection::{
    arith, class, infect, infect_as, infect_bool, infect_if, infected, infection_classes, PROBE,
};
pub use range_limit::{pred, succ, RangeLimit};

/// Serialises the unit tests that drive the process-global switch.
#[cfg(test)]
pub(crate) static TEST_LOCK: Mutex<()> = Mutex::new(());

use std::cell::Cell;
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
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
    /// Fuel one thread may spend in a run (on top of the shared [`FUEL`] budget): a
    /// process that runs several tests, each on a thread named after it (libtest), ends
    /// a runaway test after its own share instead of the whole process's. `N` for every
    /// thread, or `N;name=M;…`: `M` for a thread of that name, `N` for the others.
    pub const THREAD_FUEL: &str = "MUTFUZZ_THREAD_FUEL";
    /// `exit` ends the process with [`super::EXHAUSTED_EXIT_CODE`] when a limit runs out;
    /// `say` writes [`super::Exhausted`]'s line to stderr and panics with it, ending only
    /// the thread's test; anything else (the default) panics without a word.
    pub const ON_EXHAUST: &str = "MUTFUZZ_ON_EXHAUST";
    /// Mutants by thread name, for a process that runs several mutants at once, each
    /// on tests of its own (libtest runs each test on a thread named after it):
    /// `N;name=ID;…`, mutant `ID` on a thread of that name, `N` (`0`: the original) on
    /// the others, or [`ACTIVE`] when `N` is empty. Needs a nonzero [`ACTIVE`].
    pub const THREAD_ACTIVE: &str = "MUTFUZZ_THREAD_ACTIVE";
}

/// Exit code of a process ended because a mutant exhausted its fuel or depth
/// (with `MUTFUZZ_ON_EXHAUST=exit`).
pub const EXHAUSTED_EXIT_CODE: i32 = 86;

/// Exit code of a process ended as with [`EXHAUSTED_EXIT_CODE`], on a thread that had
/// panicked before: a property-test runner (quickcheck, proptest) caught a failed
/// assertion and was shrinking the input when the fuel ran out. The run-time's line
/// [`Exhausted`] is followed by `mutfuzz: after a panic in <thread name>`.
pub const EXHAUSTED_AFTER_PANIC_EXIT_CODE: i32 = 87;

/// The line after [`Exhausted`]'s that names the thread that had panicked.
pub const AFTER_PANIC_IN: &str = "mutfuzz: after a panic in ";

/// The active id before the environment has been read.
const UNINIT: u32 = u32::MAX;
/// The active id while the original runs and site hits, fuel and depth are recorded.
const RECORDING: u32 = u32::MAX - 1;
/// Largest usable mutant id.
pub const MAX_MUTANT_ID: u32 = u32::MAX - 2;
/// Fuel a thread takes from the shared budget at a time, so the hot path never touches
/// a shared atomic.
const FUEL_BATCH: u64 = 1024;

/// The switch word: the active id in the low 32 bits, the *epoch* in the high 32 bits.
/// Every control call that starts a run or changes its rules bumps the epoch, so that a
/// thread's first frame after it sees a word it has not set itself up for.
static STATE: AtomicU64 = AtomicU64::new(UNINIT as u64);
const EPOCH: u64 = 1 << 32;
static INIT: Once = Once::new();
/// Fuel granted to threads in this run, minus what they gave back unspent.
static FUEL_USED: AtomicU64 = AtomicU64::new(0);
static FUEL_LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);
static THREAD_FUEL_LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);
/// Per-thread fuel caps by thread name (see [`env::THREAD_FUEL`]), read once at start.
static NAMED_THREAD_FUEL: OnceLock<Vec<(String, u64)>> = OnceLock::new();
/// Mutants by thread name (see [`env::THREAD_ACTIVE`]), read once at start.
static NAMED_THREAD_ACTIVE: OnceLock<ThreadTable> = OnceLock::new();
/// Threads that ran instrumented code while recording (in this run).
static THREADS_SEEN: AtomicUsize = AtomicUsize::new(0);
static DEPTH_LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
static MAX_DEPTH: AtomicUsize = AtomicUsize::new(0);
static EXIT_ON_EXHAUST: AtomicBool = AtomicBool::new(false);
static SAY_ON_EXHAUST: AtomicBool = AtomicBool::new(false);
static HITS: OnceLock<Hits> = OnceLock::new();
static RECORD_PATH: Mutex<Option<String>> = Mutex::new(None);
/// Whether a recording run runs the infection probes: not in a test process that
/// records for `cargo mutfuzz test`, which reads only hits and fuel. Probes evaluate
/// every alternative of every arithmetic site, which in an unoptimized test build can
/// make a number-crunching test many times slower.
static PROBES: AtomicBool = AtomicBool::new(true);

/// One thread's share of the run: its fuel countdown and its stack window.
struct Local {
    /// The switch word the rest was set up for (`STALE`: none).
    key: Cell<u64>,
    /// The id this thread runs under that word: the word's own, or, when mutants are
    /// chosen by thread name, this thread's.
    id: Cell<u32>,
    /// Fuel granted to this thread and not spent yet.
    fuel: Cell<u64>,
    /// Stack address of this thread's first (or shallowest) instrumented frame in the run.
    base: Cell<usize>,
    /// The fast path accepts a frame whose stack pointer is in `[low, low + span]`.
    low: Cell<usize>,
    span: Cell<usize>,
}

/// A `key` that no switch word equals (its id would be `UNINIT` in a late epoch).
const STALE: u64 = u64::MAX;

/// Panics in this process so far (with the hook of [`count_panics`] set).
static PANICS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// This thread panicked (with the hook of [`count_panics`] set).
    static PANICKED: Cell<bool> = const { Cell::new(false) };
    static LOCAL: Local = const {
        Local {
            key: Cell::new(STALE),
            id: Cell::new(0),
            fuel: Cell::new(0),
            base: Cell::new(0),
            low: Cell::new(0),
            span: Cell::new(0),
        }
    };
    /// Touched once per thread off the fast path: gives unspent fuel back when a thread
    /// ends, so that a spawned thread's fuel counts exactly once it has been joined.
    static GIVE_BACK: GiveBack = const { GiveBack };
    /// Fuel granted to this thread in this run (in batches), and what it may be granted.
    /// Apart from [`LOCAL`], which the inlined fast path reads: only the slow path
    /// touches these.
    static GRANTED: Cell<(u64, u64)> = const { Cell::new((0, u64::MAX)) };
}

struct GiveBack;

impl Drop for GiveBack {
    fn drop(&mut self) {
        let _ = LOCAL.try_with(settle);
    }
}

/// Give this thread's unspent fuel back to the run and forget its setup.
fn settle(t: &Local) {
    if t.key.get() == STATE.load(Relaxed) {
        let _ = FUEL_USED.fetch_update(Relaxed, Relaxed, |used| Some(used.saturating_sub(t.fuel.get())));
    }
    t.key.set(STALE);
    t.fuel.set(0);
}

/// The current stack pointer, or near enough: depth is only compared with itself.
#[inline(always)]
fn stack_pointer() -> usize {
    let sp: usize;
    #[cfg(target_arch = "x86_64")]
    // SAFETY: reads a register; touches no memory, stack or flags.
    unsafe {
        std::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack, preserves_flags));
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: as above.
    unsafe {
        std::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags));
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let marker = 0u8;
        sp = std::hint::black_box(&marker) as *const u8 as usize;
    }
    sp
}

/// Enter a function (or closure) of the code under test: returns the active mutant id
/// for the body's sites, and outside the original path spends fuel and checks depth.
#[inline(always)]
pub fn enter() -> u32 {
    let state = STATE.load(Relaxed);
    if state as u32 == 0 {
        return 0;
    }
    enter_run(state, stack_pointer())
}

// Not inlined, and not generic. Inlined, `enter` made the crate under test instantiate
// `LocalKey::with`, which the optimiser left out of line wherever mutants run (the
// harness builds of minilang and bst; an unoptimized test build): every function
// entry of a mutant run paid two calls, one through the key's accessor pointer. Here
// the thread-local is one direct access and the entry one direct call; only an
// optimized build without counters, which inlined the access, pays more.
#[inline(never)]
fn enter_run(state: u64, sp: usize) -> u32 {
    LOCAL.with(|t| {
        let fuel = t.fuel.get();
        if t.key.get() == state && fuel != 0 && sp.wrapping_sub(t.low.get()) <= t.span.get() {
            t.fuel.set(fuel - 1);
            return t.id.get();
        }
        enter_slow(state, sp)
    })
}

#[cold]
#[inline(never)]
fn enter_slow(mut state: u64, sp: usize) -> u32 {
    if state as u32 == UNINIT {
        init();
        state = STATE.load(Relaxed);
        if state as u32 == 0 {
            return 0;
        }
    }
    LOCAL.with(|t| {
        if t.key.get() != state {
            begin(t, state, sp);
        }
        spend(t, state);
        check_depth(t, state, sp);
        t.id.get()
    })
}

/// Set up this thread for the run that `state` names, with its first frame at `sp`.
fn begin(t: &Local, state: u64, sp: usize) {
    let _ = GIVE_BACK.try_with(|_| {});
    t.key.set(state);
    t.id.set(thread_id(state as u32));
    t.fuel.set(0);
    let _ = GRANTED.try_with(|g| g.set((0, thread_cap())));
    t.base.set(sp);
    t.low.set(sp);
    t.span.set(0);
    if state as u32 != RECORDING {
        widen_to_limit(t);
    } else {
        THREADS_SEEN.fetch_add(1, Relaxed);
    }
}

/// The id this thread runs while `active` is the switch's: `active` itself, unless the
/// process runs mutants by thread name (see [`env::THREAD_ACTIVE`]). Once per thread
/// and run, off the hot path.
fn thread_id(active: u32) -> u32 {
    match NAMED_THREAD_ACTIVE.get() {
        Some((default, named)) if active != RECORDING => {
            let current = std::thread::current();
            let name = current.name().unwrap_or_default();
            let id = named.iter().find(|(n, _)| n == name).map(|&(_, id)| id).or(*default);
            id.map_or(active, |id| id.min(u64::from(MAX_MUTANT_ID)) as u32)
        }
        _ => active,
    }
}

/// This thread's fuel cap for the run: its name's, if the table names it, else the
/// default. Once per thread and run, off the hot path.
fn thread_cap() -> u64 {
    let default = THREAD_FUEL_LIMIT.load(Relaxed);
    match NAMED_THREAD_FUEL.get() {
        Some(named) if !named.is_empty() => {
            let current = std::thread::current();
            let name = current.name().unwrap_or_default();
            named.iter().find(|(n, _)| n == name).map_or(default, |&(_, cap)| cap)
        }
        _ => default,
    }
}

/// A value for every thread (if given) and values by thread name.
type ThreadTable = (Option<u64>, Vec<(String, u64)>);

/// `N;name=M;…` (see [`env::THREAD_FUEL`]): the default and the named values.
fn parse_thread_table(text: &str) -> ThreadTable {
    let mut parts = text.split(';');
    let default = parts.next().and_then(|d| d.trim().parse().ok());
    let named = parts
        .filter_map(|p| {
            let (name, cap) = p.rsplit_once('=')?;
            Some((name.to_owned(), cap.trim().parse().ok()?))
        })
        .collect();
    (default, named)
}

/// A mutant run's window: every frame down to the depth limit.
fn widen_to_limit(t: &Local) {
    let base = t.base.get();
    let low = base.saturating_sub(DEPTH_LIMIT.load(Relaxed));
    t.low.set(low);
    t.span.set(base - low);
}

/// Spend one unit of fuel, taking a batch from the shared budget when the thread has none.
fn spend(t: &Local, state: u64) {
    let mut fuel = t.fuel.get();
    if fuel == 0 {
        let prev = FUEL_USED.fetch_add(FUEL_BATCH, Relaxed);
        fuel = FUEL_BATCH;
        if state as u32 != RECORDING {
            let limit = FUEL_LIMIT.load(Relaxed);
            if prev >= limit {
                FUEL_USED.fetch_sub(FUEL_BATCH, Relaxed);
                if may_end() {
                    exhausted(Limit::Fuel, t.id.get());
                }
            } else if limit - prev < FUEL_BATCH {
                // The last batch: exactly what is left, so a run ends on the same tick.
                fuel = limit - prev;
                FUEL_USED.fetch_sub(FUEL_BATCH - fuel, Relaxed);
            }
            // This thread's own cap, checked per batch (all it was granted is spent): a
            // thread that ran past it ends at the same batch every time.
            let (granted, cap) = GRANTED.try_with(Cell::get).unwrap_or((0, u64::MAX));
            if granted >= cap && may_end() {
                exhausted(Limit::Fuel, t.id.get());
            }
            let _ = GRANTED.try_with(|g| g.set((granted + fuel, cap)));
        }
    }
    t.fuel.set(fuel - 1);
}

/// A frame outside the thread's window: a new base, a new deepest point, or too deep.
fn check_depth(t: &Local, state: u64, sp: usize) {
    let recording = state as u32 == RECORDING;
    if sp > t.base.get() {
        // Shallower than the thread's first frame in this run: the new base.
        t.base.set(sp);
        t.low.set(sp);
        t.span.set(0);
        if !recording {
            widen_to_limit(t);
        }
        return;
    }
    let depth = t.base.get() - sp;
    if recording {
        MAX_DEPTH.fetch_max(depth, Relaxed);
        t.low.set(t.low.get().min(sp));
        t.span.set(t.base.get() - t.low.get());
    } else if depth > DEPTH_LIMIT.load(Relaxed) && may_end() {
        exhausted(Limit::Depth, t.id.get());
    }
}

/// Whether an exhausted limit may end the run now. A thread that is already unwinding
/// (from a limit, say, through a `Drop` of the code under test) is let finish: a second
/// panic would abort the whole process, the engine's with it.
fn may_end() -> bool {
    EXIT_ON_EXHAUST.load(Relaxed) || !std::thread::panicking()
}

/// What a schema passes to [`at`] and [`tick`]: the id that [`enter`] returned, or, in
/// the original copy of a body that [`twice!`] compiled twice, that id as [`Pristine`].
pub trait Active: Copy + sealed::Sealed {
    /// The id the body's sites dispatch on.
    fn sites(self) -> u32;
    /// The id the body's loops spend fuel under.
    fn fuel(self) -> u32;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for super::Pristine {}
}

impl Active for u32 {
    #[inline(always)]
    fn sites(self) -> u32 {
        self
    }
    #[inline(always)]
    fn fuel(self) -> u32 {
        self
    }
}

/// The active id in the original copy of a body (see [`twice!`]): every site there
/// runs the original code, known at compile time, while loops still spend fuel.
#[derive(Clone, Copy, Debug)]
pub struct Pristine(pub u32);

impl Active for Pristine {
    #[inline(always)]
    fn sites(self) -> u32 {
        0
    }
    #[inline(always)]
    fn fuel(self) -> u32 {
        self.0
    }
}

/// Which alternative of a site to evaluate, given the `active` id from [`enter`].
///
/// A site whose mutants have ids `base ..= base + n - 1` calls `at(active, base, n)`: it
/// returns `0` for the original code, or `k` in `1..=n` when mutant `base + k - 1` is
/// active. While recording it notes that the site ran.
#[inline(always)]
pub fn at<A: Active>(active: A, base: u32, n: u32) -> u32 {
    dispatch(active.sites(), base, n, 0)
}

/// [`at`] and [`at_probe`]: `recording` is what a recording run gets after noting the hit.
#[inline(always)]
fn dispatch(active: u32, base: u32, n: u32, recording: u32) -> u32 {
    if active == 0 {
        return 0;
    }
    let k = active.wrapping_sub(base);
    if k < n {
        return k + 1;
    }
    if active == RECORDING {
        hit(base);
        // `recording` is a constant at each call site: this test folds away for `at`.
        return if recording == PROBE && !PROBES.load(Relaxed) { 0 } else { recording };
    }
    0
}

/// Whether a body whose sites have the ids `base .. base + n` runs its schema copy: one
/// of its mutants is active, or the run is recording. Otherwise it runs the original
/// copy, which the optimiser compiles as if there were no sites at all.
#[inline(always)]
pub fn within(active: u32, base: u32, n: u32) -> bool {
    active.wrapping_sub(base) < n || active == RECORDING
}

/// A function body written once and compiled twice: `twice!((__m, BASE, N) BODY)` is
///
/// ```text
/// if within(__m, BASE, N) { BODY } else { let __m = Pristine(__m); BODY }
/// ```
///
/// In the second copy every site's dispatch is the constant 0, so the original path,
/// and a mutant run outside this body, run the user's code plus only fuel and depth
/// checks. The body's tokens keep their spans: panics and `line!()` report the user's
/// lines. The body must not define items that may exist once only (`impl`, `static`):
/// the schema writer leaves such bodies single.
///
/// ```
/// fn double(x: u32) -> u32 {
///     let __m = mutfuzz_rt::enter();
///     mutfuzz_rt::twice!((__m, 7, 1) match mutfuzz_rt::at(__m, 7, 1) { 1 => x + x + 1, _ => x + x })
/// }
/// assert_eq!(double(4), 8);
/// ```
#[macro_export]
macro_rules! twice {
    (($m:ident, $base:expr, $n:expr) $($body:tt)*) => {
        if $crate::within($m, $base, $n) {
            $($body)*
        } else {
            let $m = $crate::Pristine($m);
            $($body)*
        }
    };
}

/// [`at`] for a site with an infection probe: while the original records, it notes the
/// hit and returns [`PROBE`], so the site runs its probe arm (which computes the original
/// value too), unless the process records for `cargo mutfuzz test` (which needs no
/// infections); otherwise it is `at`.
#[inline(always)]
pub fn at_probe<A: Active>(active: A, base: u32, n: u32) -> u32 {
    dispatch(active.sites(), base, n, PROBE)
}

/// The site-hit table of a recording run.
struct Hits {
    /// Whether the site with this base id ran.
    seen: Box<[AtomicBool]>,
    /// Base id + 1 of each site in the order of its first hit (0: not written yet).
    order: Box<[AtomicU32]>,
    /// How many entries of `order` are taken.
    len: AtomicUsize,
}

// Cold: a recording run is one per input; the call must not cost a mutant run registers.
#[cold]
#[inline(never)]
fn hit(base: u32) {
    let Some(hits) = HITS.get() else { return };
    if let Some(seen) = hits.seen.get(base as usize) {
        if !seen.load(Relaxed) && !seen.swap(true, Relaxed) {
            // Each base gets here once per recording, so `order` cannot overflow.
            let i = hits.len.fetch_add(1, Relaxed);
            if let Some(slot) = hits.order.get(i) {
                slot.store(base + 1, Relaxed);
            }
        }
    }
}

/// Spend one unit of fuel at the head of a loop body; `active` is from [`enter`].
#[inline(always)]
pub fn tick<A: Active>(active: A) {
    if active.fuel() != 0 {
        tick_run();
    }
}

/// [`tick`] in a run, out of line for the reason [`enter_run`] is.
#[inline(never)]
fn tick_run() {
    // One `sub`-and-branch on the thread's countdown: an empty one wraps, and the slow
    // path puts it right.
    LOCAL.with(|t| {
        let (fuel, empty) = t.fuel.get().overflowing_sub(1);
        t.fuel.set(fuel);
        if empty {
            tick_slow();
        }
    })
}

#[cold]
#[inline(never)]
fn tick_slow() {
    // The countdown was empty and wrapped: it is empty.
    LOCAL.with(|t| t.fuel.set(0));
    let state = STATE.load(Relaxed);
    if matches!(state as u32, 0 | UNINIT) {
        return;
    }
    LOCAL.with(|t| {
        if t.key.get() != state {
            // A loop that moved to another thread (an async body): set this one up here.
            begin(t, state, stack_pointer());
        }
        spend(t, state);
    });
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
    let exit = EXIT_ON_EXHAUST.load(Relaxed);
    if exit || SAY_ON_EXHAUST.load(Relaxed) {
        // Straight to stderr: libtest captures a test's `eprintln!`, not this.
        let _ = writeln!(std::io::stderr(), "{payload}");
    }
    if exit {
        if PANICKED.with(Cell::get) {
            let thread = std::thread::current();
            let _ = writeln!(std::io::stderr(), "{AFTER_PANIC_IN}{}", thread.name().unwrap_or("?"));
            std::process::exit(EXHAUSTED_AFTER_PANIC_EXIT_CODE);
        }
        std::process::exit(EXHAUSTED_EXIT_CODE);
    }
    std::panic::panic_any(payload)
}

/// Counts the process's panics and marks the threads that panicked, before the hook
/// that was set (libtest's) runs: in a test process, so that a mutant run that runs out
/// of fuel after a caught panic tells so ([`EXHAUSTED_AFTER_PANIC_EXIT_CODE`]), and a
/// recording run writes how many panics the unmutated tests caught.
fn count_panics() {
    // `set_hook` panics on a thread that is unwinding (a crate's `Drop` may be the first
    // instrumented code a process runs): then the panics go uncounted.
    if std::thread::panicking() {
        return;
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICKED.with(|p| p.set(true));
        PANICS.fetch_add(1, Relaxed);
        previous(info);
    }));
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
        if let Ok(text) = std::env::var(env::THREAD_FUEL) {
            let (default, named) = parse_thread_table(&text);
            if let Some(limit) = default {
                THREAD_FUEL_LIMIT.store(limit, Relaxed);
            }
            let _ = NAMED_THREAD_FUEL.set(named);
        }
        if let Some(limit) = env_u64(env::DEPTH) {
            DEPTH_LIMIT.store(usize::try_from(limit).unwrap_or(usize::MAX), Relaxed);
        }
        match std::env::var(env::ON_EXHAUST).as_deref() {
            Ok("exit") => EXIT_ON_EXHAUST.store(true, Relaxed),
            Ok("say") => SAY_ON_EXHAUST.store(true, Relaxed),
            _ => {}
        }
        if let Ok(text) = std::env::var(env::THREAD_ACTIVE) {
            let _ = NAMED_THREAD_ACTIVE.set(parse_thread_table(&text));
        }
        let mut mode = env_u64(env::ACTIVE).map_or(0, |id| id.min(MAX_MUTANT_ID as u64) as u32);
        if let Ok(path) = std::env::var(env::RECORD) {
            let mutants = env_u64(env::MUTANTS).unwrap_or(0) as usize;
            allocate_hits(mutants);
            *RECORD_PATH.lock().unwrap_or_else(|e| e.into_inner()) = Some(path);
            register_exit_hook();
            PROBES.store(false, Relaxed);
            mode = RECORDING;
        }
        // One hook, in a mutant's test process and in a recording one alike.
        if EXIT_ON_EXHAUST.load(Relaxed) || mode == RECORDING {
            count_panics();
        }
        // Only replace UNINIT: a control call made before first use wins.
        let _ = STATE.compare_exchange(UNINIT as u64, u64::from(mode), Relaxed, Relaxed);
    });
}

fn allocate_hits(mutants: usize) {
    infection::allocate(mutants);
    let _ = HITS.get_or_init(|| Hits {
        seen: (0..mutants).map(|_| AtomicBool::new(false)).collect(),
        order: (0..mutants).map(|_| AtomicU32::new(0)).collect(),
        len: AtomicUsize::new(0),
    });
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
/// `depth N`, `threads N` (that ran instrumented code), `panics N` (that the hook set in
/// a test process counted), `hits ID ID …` (the base ids of the sites that ran).
/// Appending lets child processes of a test (which inherit the environment) add their
/// hits to the parent's.
pub fn write_record(path: &str) -> std::io::Result<()> {
    let threads = THREADS_SEEN.load(Relaxed);
    let panics = PANICS.load(Relaxed);
    let mut text =
        format!("fuel {}\ndepth {}\nthreads {threads}\npanics {panics}\nhits", fuel_used(), max_depth());
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
    /// Threads that ran instrumented code, in every process.
    pub threads: usize,
    /// Panics the tests caught (or that ended them), in every process.
    pub panics: u64,
    /// Base ids of the sites that ran, sorted.
    pub hits: Vec<u32>,
}

impl Record {
    /// Parse the blocks written by [`write_record`] and merge them: fuel adds up, depth
    /// is the deepest, threads add up, hits are the union. Missing lines read as zero / none.
    pub fn parse(text: &str) -> Record {
        let mut rec = Record::default();
        for line in text.lines() {
            let mut words = line.split_ascii_whitespace();
            let number = |w: Option<&str>| w.and_then(|w| w.parse::<u64>().ok()).unwrap_or(0);
            match words.next() {
                Some("fuel") => rec.fuel += number(words.next()),
                Some("depth") => rec.depth = rec.depth.max(number(words.next()) as usize),
                Some("threads") => rec.threads += number(words.next()) as usize,
                Some("panics") => rec.panics += number(words.next()),
                Some("hits") => rec.hits.extend(words.filter_map(|w| w.parse::<u32>().ok())),
                _ => {}
            }
        }
        rec.hits.sort_unstable();
        rec.hits.dedup();
        rec
    }
}

/// Make `id` the active id, in a new epoch (every thread sets itself up again).
fn switch_to(id: u32) {
    LOCAL.with(settle);
    let _ = STATE
        .fetch_update(Relaxed, Relaxed, |s| Some((s & !0xffff_ffff).wrapping_add(EPOCH) | u64::from(id)));
}

/// Start a new epoch with the same active id.
fn new_epoch() {
    LOCAL.with(settle);
    STATE.fetch_add(EPOCH, Relaxed);
}

/// Run mutant `id` from now on (`0` for the original), not recording.
pub fn activate(id: u32) {
    INIT.call_once(|| {});
    switch_to(id.min(MAX_MUTANT_ID));
}

/// The active mutant id, `0` for the original (also while recording).
pub fn active() -> u32 {
    match STATE.load(Relaxed) as u32 {
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
/// The site-hit table is sized on the first call; later calls reuse it, and clearing it
/// costs one store per site hit in the previous recording.
pub fn start_recording(mutants: usize) {
    INIT.call_once(|| {});
    allocate_hits(mutants);
    if let Some(hits) = HITS.get() {
        let len = hits.len.load(Relaxed).min(hits.order.len());
        for slot in &hits.order[..len] {
            let id = slot.swap(0, Relaxed);
            if let Some(seen) = id.checked_sub(1).and_then(|base| hits.seen.get(base as usize)) {
                seen.store(false, Relaxed);
            }
        }
        hits.len.store(0, Relaxed);
    }
    reset_run();
    infection::new_run();
    compare::new_run();
    switch_to(RECORDING);
}

/// Base ids of the sites that ran since recording started, in increasing order.
pub fn site_hits() -> Vec<u32> {
    let mut hits = Vec::new();
    site_hits_into(&mut hits);
    hits
}

/// Replace `buf`'s contents with [`site_hits`], in increasing order, without allocating
/// once `buf` has room: the cost is in the sites hit, not in the table's size. Threads
/// that are still running may not have written their latest hits yet.
pub fn site_hits_into(buf: &mut Vec<u32>) {
    buf.clear();
    if let Some(hits) = HITS.get() {
        let len = hits.len.load(Relaxed).min(hits.order.len());
        buf.extend(hits.order[..len].iter().filter_map(|slot| slot.load(Relaxed).checked_sub(1)));
        buf.sort_unstable();
    }
}

/// Reset the fuel spent and the deepest depth seen, before a new run.
pub fn reset_run() {
    new_epoch();
    FUEL_USED.store(0, Relaxed);
    MAX_DEPTH.store(0, Relaxed);
    THREADS_SEEN.store(0, Relaxed);
}

/// Fuel spent since the last reset: the shared total less this thread's unspent batch.
/// A spawned thread's unspent batch (under 1024) counts as spent until the thread ends.
pub fn fuel_used() -> u64 {
    let state = STATE.load(Relaxed);
    let unspent = LOCAL.with(|t| if t.key.get() == state { t.fuel.get() } else { 0 });
    FUEL_USED.load(Relaxed).saturating_sub(unspent)
}

/// Most stack, in bytes below the first instrumented frame, seen while recording.
pub fn max_depth() -> usize {
    MAX_DEPTH.load(Relaxed)
}

/// Bound the fuel and the stack depth (bytes) of mutant runs.
pub fn set_limits(fuel: u64, depth: usize) {
    FUEL_LIMIT.store(fuel, Relaxed);
    DEPTH_LIMIT.store(depth, Relaxed);
    // Threads recompute their stack window.
    new_epoch();
}

/// Bound the fuel one thread may spend in a run (checked per batch of 1024), on top of
/// the run's shared budget; `u64::MAX` (the default) leaves only the shared one.
pub fn set_thread_fuel_limit(fuel: u64) {
    THREAD_FUEL_LIMIT.store(fuel, Relaxed);
}

/// Choose whether an exhausted limit exits the process (`true`) or panics (`false`).
pub fn set_exit_on_exhaust(exit: bool) {
    EXIT_ON_EXHAUST.store(exit, Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The switch is process-global state: the tests that drive it take turns.
    fn switch() -> std::sync::MutexGuard<'static, ()> {
        TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner())
    }

    #[inline(never)]
    fn deeper() -> u32 {
        let m = enter();
        let pad = std::hint::black_box([0u8; 512]);
        m + u32::from(pad[0])
    }

    #[test]
    fn switch_records_dispatches_and_bounds_runs() {
        let _turn = switch();
        // Recording: sites report 0 and their base id is remembered; fuel and depth count.
        start_recording(16);
        let m = enter();
        assert_eq!(at(m, 9, 1), 0);
        assert_eq!(at(m, 3, 2), 0);
        assert_eq!(at(m, 9, 1), 0);
        tick(m);
        deeper();
        assert_eq!(at_probe(m, 11, 2), PROBE);
        // A test process recording for `cargo mutfuzz test` notes the hit, without the probe.
        PROBES.store(false, Relaxed);
        assert_eq!(at_probe(m, 13, 1), 0);
        PROBES.store(true, Relaxed);
        assert_eq!(site_hits(), vec![3, 9, 11, 13]);
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
        assert!(levels_until_exhausted() > 10);

        // The switch follows the mutant into spawned threads.
        activate(7);
        let seen = std::thread::spawn(|| at(enter(), 7, 1)).join().unwrap();
        assert_eq!(seen, 1);
        activate(0);
        set_limits(u64::MAX, usize::MAX);
    }

    /// Enters and ticks a runaway loop until the fuel runs out; returns the fuel it got.
    fn ticks_until_exhausted() -> u64 {
        let count = std::cell::Cell::new(0u64);
        let err = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let m = enter();
            count.set(1);
            loop {
                tick(m);
                count.set(count.get() + 1);
            }
        }))
        .unwrap_err();
        assert_eq!(err.downcast_ref::<Exhausted>().map(|e| e.limit), Some(Limit::Fuel));
        count.get()
    }

    /// Recurses until the depth runs out; returns the depth it reached.
    fn levels_until_exhausted() -> u32 {
        #[inline(never)]
        fn recurse(n: u32, reached: &Cell<u32>) -> u32 {
            let _m = enter();
            reached.set(n);
            let pad = std::hint::black_box([0u8; 64]);
            if n == u32::MAX {
                return 0;
            }
            1 + recurse(n + 1, reached) + u32::from(pad[0])
        }
        let reached = Cell::new(0);
        let err =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| recurse(0, &reached))).unwrap_err();
        assert_eq!(err.downcast_ref::<Exhausted>().map(|e| e.limit), Some(Limit::Depth));
        reached.get()
    }

    #[test]
    fn a_runaway_stops_at_the_same_point_for_the_same_limit() {
        let _turn = switch();
        activate(5);
        for limit in [1, 2, 1000, 1023, 1024, 1025, 5000] {
            set_limits(limit, usize::MAX);
            let stops: Vec<u64> = (0..3)
                .map(|_| {
                    reset_run();
                    ticks_until_exhausted()
                })
                .collect();
            assert_eq!(stops, vec![limit; 3], "fuel limit {limit}");
        }
        set_limits(u64::MAX, 32 * 1024);
        let depths: Vec<u32> = (0..3)
            .map(|_| {
                reset_run();
                levels_until_exhausted()
            })
            .collect();
        assert!(depths[0] > 10, "{depths:?}");
        assert!(depths.iter().all(|&d| d == depths[0]), "{depths:?}");
        activate(0);
        set_limits(u64::MAX, usize::MAX);
    }

    #[test]
    fn spawned_threads_spend_the_runs_fuel_and_have_their_own_depth() {
        let _turn = switch();
        activate(5);
        // Two threads share one budget and spend all of it, however they interleave.
        set_limits(10_000, usize::MAX);
        reset_run();
        let threads: Vec<_> = (0..2).map(|_| std::thread::spawn(ticks_until_exhausted)).collect();
        let stops: Vec<u64> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        assert_eq!(stops.iter().sum::<u64>(), 10_000, "{stops:?}");

        // A spawned thread's depth counts from its own first frame.
        set_limits(u64::MAX, 32 * 1024);
        reset_run();
        let here = levels_until_exhausted();
        let there = std::thread::spawn(levels_until_exhausted).join().unwrap();
        assert_eq!(here, there);

        // While recording, a spawned thread's hits, fuel and depth are all seen once it ends.
        start_recording(16);
        std::thread::spawn(|| {
            let m = enter();
            for _ in 0..10 {
                tick(m);
                at(m, 11, 1);
            }
            deeper();
        })
        .join()
        .unwrap();
        let mut hits = Vec::with_capacity(4);
        site_hits_into(&mut hits);
        assert_eq!(hits, vec![11]);
        assert_eq!(fuel_used(), 12);
        assert!(max_depth() >= 512, "{}", max_depth());
        activate(0);
        set_limits(u64::MAX, usize::MAX);
    }

    #[test]
    fn threads_named_in_the_table_run_their_own_mutants_and_recording_counts_threads() {
        let _turn = switch();
        // No default: threads the table does not name run the switch's id, so the
        // other tests of this process are not affected.
        let table = parse_thread_table(";batch-a=21;batch-b=0");
        assert_eq!(table, (None, vec![("batch-a".to_owned(), 21), ("batch-b".to_owned(), 0)]));
        NAMED_THREAD_ACTIVE.set(table).unwrap();
        activate(5);
        let id_on = |name: &str| {
            let named = std::thread::Builder::new().name(name.to_owned());
            named.spawn(|| (enter(), enter())).unwrap().join().unwrap()
        };
        assert_eq!(id_on("batch-a"), (21, 21));
        assert_eq!(id_on("batch-b"), (0, 0));
        assert_eq!(id_on("batch-c"), (5, 5));
        // A named thread's runaway is its own mutant's.
        set_limits(2_000, usize::MAX);
        reset_run();
        let named = std::thread::Builder::new().name("batch-a".to_owned());
        let runaway = named.spawn(|| {
            let m = enter();
            loop {
                tick(m);
            }
        });
        let err = runaway.unwrap().join().unwrap_err();
        assert_eq!(err.downcast_ref::<Exhausted>().map(|e| e.mutant), Some(21));
        set_limits(u64::MAX, usize::MAX);

        // Recording ignores the table and counts the threads that ran instrumented code.
        start_recording(16);
        assert_eq!(id_on("batch-a"), (RECORDING, RECORDING));
        enter();
        let dir = std::env::temp_dir().join(format!("mutfuzz-rt-threads-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        write_record(dir.to_str().unwrap()).unwrap();
        let record = Record::parse(&std::fs::read_to_string(&dir).unwrap());
        let _ = std::fs::remove_file(&dir);
        assert_eq!(record.threads, 2);
        activate(0);
    }

    #[test]
    fn a_thread_past_its_own_cap_ends_while_the_shared_budget_lasts() {
        let _turn = switch();
        activate(5);
        set_limits(1_000_000, usize::MAX);
        set_thread_fuel_limit(5000);
        // One thread runs away: it ends after its own cap, rounded up to a batch.
        reset_run();
        let stops: Vec<u64> =
            (0..2).map(|_| std::thread::spawn(ticks_until_exhausted).join().unwrap()).collect();
        assert!((5000..5000 + FUEL_BATCH).contains(&stops[0]), "{stops:?}");
        // A fresh thread has its own cap again (libtest runs each test on a new thread).
        assert_eq!(stops[0], stops[1]);
        // A thread named in the table gets its own cap.
        let (default, named) = parse_thread_table("5000;tests::small=2000;odd name (line 3)=100000");
        assert_eq!(default, Some(5000));
        assert_eq!(named, [("tests::small".to_owned(), 2000), ("odd name (line 3)".to_owned(), 100_000)]);
        let _ = NAMED_THREAD_FUEL.set(named);
        reset_run();
        let small = std::thread::Builder::new().name("tests::small".into()).spawn(ticks_until_exhausted);
        let small = small.unwrap().join().unwrap();
        assert!((2000..2000 + FUEL_BATCH).contains(&small), "{small}");
        let other = std::thread::spawn(ticks_until_exhausted).join().unwrap();
        assert_eq!(other, stops[0]);
        set_thread_fuel_limit(u64::MAX);
        activate(0);
        set_limits(u64::MAX, usize::MAX);
    }

    #[test]
    fn a_new_recording_forgets_the_last_ones_hits() {
        let _turn = switch();
        // The table is sized by the first recording in the process: 16 in every test.
        start_recording(16);
        let m = enter();
        for base in [14, 2, 9, 2] {
            at(m, base, 1);
        }
        assert_eq!(site_hits(), vec![2, 9, 14]);
        start_recording(16);
        let m = enter();
        at(m, 9, 3);
        at(m, 15, 1);
        at(m, 16, 1); // outside the table: ignored
        assert_eq!(site_hits(), vec![9, 15]);
        activate(0);
    }

    /// A body compiled twice, with sites 10 (two mutants) and 12; returns (site 10's
    /// choice, site 12's choice).
    fn twice_body(loops: u32) -> (u32, u32) {
        let __m = enter();
        crate::twice!((__m, 10, 3)
            for _ in 0..loops {
                tick(__m);
            }
            (at(__m, 10, 2), at(__m, 12, 1))
        )
    }

    #[test]
    fn a_body_compiled_twice_runs_its_original_copy_unless_its_mutant_is_active_or_recording() {
        let _turn = switch();
        // Inside the body's ids: the schema copy dispatches.
        activate(11);
        assert_eq!(twice_body(0), (2, 0));
        activate(12);
        assert_eq!(twice_body(0), (0, 1));
        // Outside them: the original copy, which still spends fuel in its loops.
        activate(13);
        set_limits(100, usize::MAX);
        reset_run();
        assert_eq!(twice_body(10), (0, 0));
        let err = std::panic::catch_unwind(|| twice_body(1000)).unwrap_err();
        assert_eq!(err.downcast_ref::<Exhausted>(), Some(&Exhausted { mutant: 13, limit: Limit::Fuel }));
        // Recording: the schema copy, so the hits are seen.
        set_limits(u64::MAX, usize::MAX);
        start_recording(16);
        assert_eq!(twice_body(3), (0, 0));
        assert_eq!(site_hits(), vec![10, 12]);
        assert_eq!(fuel_used(), 4);
        activate(0);
        assert_eq!(twice_body(3), (0, 0));
    }

    #[test]
    fn records_parse_back() {
        let r = Record::parse("fuel 12\ndepth 3\nhits 9 1 4\n");
        assert_eq!(r, Record { fuel: 12, depth: 3, threads: 0, panics: 0, hits: vec![1, 4, 9] });
        // A child process appended its own block.
        let r = Record::parse(
            "fuel 12\ndepth 3\nthreads 1\npanics 1\nhits 9 1 4\nfuel 5\ndepth 7\nthreads 2\npanics 2\nhits 4 2\n",
        );
        assert_eq!(r, Record { fuel: 17, depth: 7, threads: 3, panics: 3, hits: vec![1, 2, 4, 9] });
        assert_eq!(Record::parse(""), Record::default());
    }

    #[test]
    fn exhausted_payload_names_the_mutant_and_limit() {
        let e = Exhausted { mutant: 12, limit: Limit::Depth };
        assert_eq!(e.to_string(), "mutfuzz: mutant 12 exhausted its depth limit");
    }
}
