//! Panics during a campaign: the quiet panic hook, the location it captures, and
//! [`assume`]'s discard marker.
//!
//! Every mutant that panics or runs out of fuel unwinds through the hook; printing each
//! one would drown the user and cost a write per kill. While a campaign runs on a
//! thread, the hook only notes the location of a panic of the code under test (inside
//! [`in_target`]) for that thread; panics on other threads, and the engine's own (or a
//! generator's) outside a run, go to the previous hook as before: such a panic ends the
//! harness, and its message is what says why.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{self, PanicHookInfo};
use std::sync::{Arc, OnceLock};

thread_local! {
    /// Whether this thread is inside a campaign (panics are captured, `assume` discards).
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    /// `file:line:column` of the last panic captured on this thread.
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
    /// Whether this thread is running the code under test ([`in_target`]).
    static IN_TARGET: Cell<bool> = const { Cell::new(false) };
}

/// What the harness does first when a panic outside a run is about to end it: say so
/// to its supervisor, which then blames no mutant and no input for the death.
static ON_PANIC_OUTSIDE: OnceLock<fn()> = OnceLock::new();

/// Sets what a panic outside a run calls first (once per process: the harness's).
pub(crate) fn on_panic_outside_a_run(tell: fn()) {
    let _ = ON_PANIC_OUTSIDE.set(tell);
}

/// Runs `run`, a call of the target that catches its own unwinding, as the code under
/// test: a panic in it is a verdict, noted quietly while capturing.
pub(crate) fn in_target<R>(run: impl FnOnce() -> R) -> R {
    let outer = IN_TARGET.replace(true);
    let result = run();
    IN_TARGET.set(outer);
    result
}

/// The unwind payload of a discarded input; private so only [`assume`] can make it.
pub(crate) struct Discard;

/// Discards the current input unless `cond` holds: the input is invalid for the target.
///
/// Inside a campaign the run ends at once and counts as a *discard*, neither passing
/// nor failing (no panic message is formatted). Outside a campaign, such as in an
/// exported regression test, a failed assumption panics with a clear message.
///
/// ```
/// fn target(pair: (u8, u8)) -> u8 {
///     let (a, b) = pair;
///     mutfuzz::assume(b != 0);
///     a / b
/// }
/// assert_eq!(target((6, 3)), 2);
/// ```
pub fn assume(cond: bool) {
    if !cond {
        discard();
    }
}

/// Discards the current input, as a failed [`assume`] does; for an expression that must
/// have a value, such as the error arm of a constructor the input cannot satisfy.
///
/// ```
/// fn target(text: String) -> u8 {
///     text.parse().unwrap_or_else(|_| mutfuzz::reject())
/// }
/// assert_eq!(target("7".to_owned()), 7);
/// ```
pub fn reject() -> ! {
    discard()
}

#[cold]
#[inline(never)]
fn discard() -> ! {
    if CAPTURING.with(Cell::get) {
        // `resume_unwind` skips the panic hook: a discard costs no formatting.
        panic::resume_unwind(Box::new(Discard))
    }
    panic!("{}", mutfuzz_contract::DISCARD_MESSAGE)
}

type Hook = Box<dyn Fn(&PanicHookInfo<'_>) + Send + Sync + 'static>;

/// Installs the quiet hook for the current thread's campaign; restores the previous
/// hook when dropped.
pub(crate) struct QuietPanics {
    previous: Option<Arc<Hook>>,
}

impl QuietPanics {
    pub(crate) fn install() -> QuietPanics {
        let previous: Arc<Hook> = Arc::new(panic::take_hook());
        let fallback = Arc::clone(&previous);
        panic::set_hook(Box::new(move |info| {
            let capturing = CAPTURING.with(Cell::get);
            if capturing && IN_TARGET.with(Cell::get) {
                let at = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                LOCATION.with(|c| *c.borrow_mut() = at);
                return;
            }
            if let (true, Some(tell)) = (capturing, ON_PANIC_OUTSIDE.get()) {
                tell();
            }
            fallback(info);
        }));
        CAPTURING.with(|c| c.set(true));
        QuietPanics { previous: Some(previous) }
    }
}

impl Drop for QuietPanics {
    fn drop(&mut self) {
        CAPTURING.with(|c| c.set(false));
        // `take_hook`/`set_hook` panic on a panicking thread; our hook then stays, but it
        // forwards to the previous one, since this thread no longer captures.
        if std::thread::panicking() {
            return;
        }
        drop(panic::take_hook());
        if let Some(previous) = self.previous.take() {
            match Arc::try_unwrap(previous) {
                Ok(hook) => panic::set_hook(hook),
                Err(shared) => panic::set_hook(Box::new(move |info| shared(info))),
            }
        }
    }
}

/// Takes the location of the last panic captured on this thread.
pub(crate) fn take_location() -> Option<String> {
    LOCATION.with(|c| c.borrow_mut().take())
}

/// The text of a panic payload (`panic!` with a literal or a formatted message).
pub(crate) fn payload_message(payload: &(dyn Any + Send)) -> &str {
    if let Some(s) = payload.downcast_ref::<&'static str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s
    } else {
        "Box<dyn Any>"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_assumption_outside_a_campaign_panics_with_a_message() {
        let err = panic::catch_unwind(|| assume(false)).unwrap_err();
        assert!(payload_message(&*err).contains("assume"), "{}", payload_message(&*err));
        assume(true);
    }

    #[test]
    fn inside_a_campaign_a_failed_assumption_unwinds_with_the_discard_marker() {
        CAPTURING.with(|c| c.set(true));
        let err = panic::catch_unwind(|| assume(false)).unwrap_err();
        CAPTURING.with(|c| c.set(false));
        assert!(err.is::<Discard>());
    }

    #[test]
    fn a_panic_outside_the_target_is_said_while_the_targets_are_noted_quietly() {
        use std::sync::Mutex;
        static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());
        let said = || -> Vec<String> {
            let all = SAID.lock().unwrap();
            // Other tests of this binary may panic meanwhile: only ours count.
            all.iter().filter(|m| m.starts_with("quiet-test:")).cloned().collect()
        };
        use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
        static TOLD: AtomicUsize = AtomicUsize::new(0);
        on_panic_outside_a_run(|| {
            TOLD.fetch_add(1, SeqCst);
        });
        panic::set_hook(Box::new(|info| {
            let message = payload_message(info.payload()).to_owned();
            SAID.lock().unwrap().push(message);
        }));
        let quiet = QuietPanics::install();
        let told = TOLD.load(SeqCst);
        let inside = in_target(|| panic::catch_unwind(|| panic!("quiet-test: a mutant")));
        assert!(inside.is_err());
        assert!(take_location().is_some_and(|at| at.contains("panics.rs")));
        assert_eq!(said(), Vec::<String>::new(), "a run's panic is noted, not said");
        assert_eq!(TOLD.load(SeqCst), told, "nor told: the death it causes is the mutant's");
        let outside = panic::catch_unwind(|| panic!("quiet-test: an engine bug"));
        assert!(outside.is_err());
        assert!(TOLD.load(SeqCst) > told, "the supervisor is told first");
        drop(quiet);
        assert_eq!(said(), ["quiet-test: an engine bug"]);
        let _ = panic::take_hook();
    }
}
