//! One trial's executions: the recording run of the original, each mutant's bounded
//! run on the same input bytes, and the judgement of a mutant against the original (its
//! [`Verdict`]); `RunGuard` sets the run-time up for in-process runs.
//!
//! The target consumes its value, so every run regenerates the value from the input's
//! bytes (replay is exact; the bytes were trimmed to what the generator consumed). A
//! scratch buffer is reused for that, so a mutant run allocates only what the
//! generator and the target themselves allocate.

use std::any::Any;
use std::fmt::{self, Debug};
use std::panic::{AssertUnwindSafe, catch_unwind};

use mutfuzz_contract::{KillKind, KillLimit};
use mutfuzz_rt::{Exhausted, Limit};

use crate::r#gen::Gen;
use crate::input::{Limits, Rng, Source};
use crate::oracle::Oracle;
use crate::panics::{Discard, QuietPanics, in_target, payload_message, take_location};
use crate::raw::RawDecoder;

/// How one run ended; the panic payload is kept unformatted until it is compared.
pub(crate) enum RunEnd<O> {
    Returned(O),
    Panicked(Box<dyn Any + Send>),
    Discarded,
    Exhausted(Exhausted),
}

/// How the original ended on an input; kept for the whole trial.
pub(crate) enum OriginalEnd<O> {
    Returned { output: O, fingerprint: u64 },
    Panicked { message: String, location: Option<String> },
    Discarded,
}

impl<O: Debug> OriginalEnd<O> {
    /// Whether two runs of the original agree (the determinism check).
    pub(crate) fn agrees_with(&self, other: &OriginalEnd<O>, oracle: &dyn Oracle<O>) -> bool {
        match (self, other) {
            (OriginalEnd::Returned { output: a, fingerprint }, OriginalEnd::Returned { output: b, .. }) => {
                oracle.agrees(a, *fingerprint, b)
            }
            (OriginalEnd::Panicked { message: a, .. }, OriginalEnd::Panicked { message: b, .. }) => a == b,
            (OriginalEnd::Discarded, OriginalEnd::Discarded) => true,
            _ => false,
        }
    }

    /// A human-readable rendering, for error messages.
    pub(crate) fn render(&self) -> String {
        match self {
            OriginalEnd::Returned { output, .. } => format!("{output:?}"),
            OriginalEnd::Panicked { message, .. } => format!("panic: {message}"),
            OriginalEnd::Discarded => "discarded".to_owned(),
        }
    }
}

/// What the recording run of the original saw.
pub(crate) struct OriginalRun<O> {
    pub(crate) end: OriginalEnd<O>,
    pub(crate) fuel: u64,
    pub(crate) depth: usize,
    /// Base ids of the sites that ran, increasing.
    pub(crate) hits: Vec<u32>,
}

/// The target under test with the generation limits its inputs are replayed under.
pub(crate) struct Executor<T, O> {
    target: Box<dyn Fn(T) -> O>,
    limits: Limits,
    scratch: Vec<u8>,
    /// A mutant that stands in for the original in every run ("first, fuzz the mutants"),
    /// or 0.
    background: u32,
    /// Inputs are files in cargo-fuzz's format, decoded by this (see [`crate::raw`]),
    /// not choice sequences.
    raw: Option<RawDecoder<T>>,
}

/// Fuel and stack bytes of a run of the background mutant, which has no original run to
/// be measured against: generous, and below the smallest main-thread stack.
pub(crate) const BACKGROUND_FUEL: u64 = 100_000_000;
pub(crate) const BACKGROUND_DEPTH: usize = 4 << 20;

impl<T: Gen, O: Debug> Executor<T, O> {
    pub(crate) fn new(target: Box<dyn Fn(T) -> O>, limits: Limits) -> Self {
        Executor { target, limits, scratch: Vec::new(), background: 0, raw: None }
    }

    /// Read inputs with `decode` (cargo-fuzz's format). Each input must decode: the
    /// caller leaves out those it rejects.
    pub(crate) fn with_raw(mut self, decode: RawDecoder<T>) -> Self {
        self.raw = Some(decode);
        self
    }

    /// Runs mutant `id` in place of the original from now on (0: the original again).
    pub(crate) fn set_background(&mut self, id: u32) {
        self.background = id;
    }

    /// Replays `bytes` into a value (no spans, no fresh choices needed).
    pub(crate) fn regenerate(&mut self, bytes: &[u8]) -> T {
        if let Some(decode) = self.raw {
            // Decoding runs the original code (no mutant is active yet), so it decides
            // as it did when the input was checked.
            return decode(bytes).expect("an input the decoder rejected was left out before");
        }
        self.scratch.clear();
        self.scratch.extend_from_slice(bytes);
        let mut src = Source::new(std::mem::take(&mut self.scratch), Rng::new(0))
            .with_limits(self.limits)
            .with_spans(false);
        let value = src.draw::<T>();
        self.scratch = src.into_input().0.into_bytes();
        value
    }

    fn call(&self, value: T) -> RunEnd<O> {
        match in_target(|| catch_unwind(AssertUnwindSafe(|| (self.target)(value)))) {
            Ok(output) => RunEnd::Returned(output),
            Err(payload) => {
                if payload.is::<Discard>() {
                    RunEnd::Discarded
                } else if let Some(e) = payload.downcast_ref::<Exhausted>() {
                    RunEnd::Exhausted(*e)
                } else {
                    RunEnd::Panicked(payload)
                }
            }
        }
    }

    /// Runs the original on `value` while recording site hits, fuel and depth.
    ///
    /// With a background mutant, that mutant runs instead, bounded and not recording
    /// (no site hits: edge coverage guides that phase); running out of fuel or stack
    /// discards the input.
    pub(crate) fn run_original(&mut self, value: T, n_ids: usize, oracle: &dyn Oracle<O>) -> OriginalRun<O> {
        let (end, fuel, depth, hits) = if self.background != 0 {
            mutfuzz_rt::set_limits(BACKGROUND_FUEL, BACKGROUND_DEPTH);
            mutfuzz_rt::activate(self.background);
            mutfuzz_rt::reset_run();
            let end = self.call(value);
            let fuel = mutfuzz_rt::fuel_used();
            mutfuzz_rt::activate(0);
            mutfuzz_rt::set_limits(u64::MAX, usize::MAX);
            let end = if let RunEnd::Exhausted(_) = end { RunEnd::Discarded } else { end };
            (end, fuel, 0, Vec::new())
        } else {
            mutfuzz_rt::start_recording(n_ids);
            let end = self.call(value);
            let (fuel, depth) = (mutfuzz_rt::fuel_used(), mutfuzz_rt::max_depth());
            // O(sites hit), not O(ids).
            let mut hits = Vec::new();
            mutfuzz_rt::site_hits_into(&mut hits);
            mutfuzz_rt::activate(0);
            (end, fuel, depth, hits)
        };
        let end = match end {
            // With a background mutant, the output may be one whose `Debug` panics.
            RunEnd::Returned(output) => match guarded(|| oracle.fingerprint(&output)) {
                Ok(fingerprint) => OriginalEnd::Returned { output, fingerprint },
                Err(p) => OriginalEnd::Panicked {
                    message: payload_message(&*p).to_owned(),
                    location: take_location(),
                },
            },
            RunEnd::Discarded => OriginalEnd::Discarded,
            // Only a target that raises `Exhausted` itself gets here: recording has no limits.
            RunEnd::Exhausted(e) => {
                OriginalEnd::Panicked { message: e.to_string(), location: take_location() }
            }
            RunEnd::Panicked(p) => {
                OriginalEnd::Panicked { message: payload_message(&*p).to_owned(), location: take_location() }
            }
        };
        OriginalRun { end, fuel, depth, hits }
    }

    /// Re-runs the original on stored bytes (the determinism check).
    pub(crate) fn rerun_original(
        &mut self,
        bytes: &[u8],
        n_ids: usize,
        oracle: &dyn Oracle<O>,
    ) -> OriginalRun<O> {
        let value = self.regenerate(bytes);
        self.run_original(value, n_ids, oracle)
    }

    /// Runs the original on `bytes`, not recording (a worker's run, to judge its mutants).
    pub(crate) fn run_plain_original(&mut self, bytes: &[u8], oracle: &dyn Oracle<O>) -> OriginalEnd<O> {
        let value = self.regenerate(bytes);
        mutfuzz_rt::activate(0);
        match self.call(value) {
            RunEnd::Returned(output) => {
                let fingerprint = oracle.fingerprint(&output);
                OriginalEnd::Returned { output, fingerprint }
            }
            RunEnd::Discarded => OriginalEnd::Discarded,
            RunEnd::Exhausted(e) => OriginalEnd::Panicked { message: e.to_string(), location: None },
            RunEnd::Panicked(p) => {
                OriginalEnd::Panicked { message: payload_message(&*p).to_owned(), location: take_location() }
            }
        }
    }

    /// Whether the original itself (no background mutant, not recording) panics on `bytes`.
    pub(crate) fn original_panics(&mut self, bytes: &[u8]) -> bool {
        let value = self.regenerate(bytes);
        mutfuzz_rt::activate(0);
        matches!(self.call(value), RunEnd::Panicked(_))
    }

    /// Runs mutant `id` on `bytes` within the limits derived from the original's run.
    pub(crate) fn run_mutant(&mut self, id: u32, bytes: &[u8], fuel: u64, depth: usize) -> RunEnd<O> {
        let value = self.regenerate(bytes);
        mutfuzz_rt::set_limits(fuel, depth);
        mutfuzz_rt::activate(id);
        mutfuzz_rt::reset_run();
        let end = self.call(value);
        // Judge (and drop outputs) with the original code active.
        mutfuzz_rt::activate(0);
        end
    }
}

/// A rendering cut to `limit` bytes (at a char boundary, with `…` appended when cut):
/// the `Debug` formatter stops as soon as the limit is passed, so a huge output costs
/// no more than the limit.
pub(crate) fn render_bounded(value: fmt::Arguments<'_>, limit: usize) -> String {
    struct Bounded {
        text: String,
        limit: usize,
        cut: bool,
    }
    impl fmt::Write for Bounded {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            // A `Debug` that ignores the error below writes on: nothing more is kept.
            if self.cut {
                return Err(fmt::Error);
            }
            let room = self.limit - self.text.len();
            if s.len() <= room {
                self.text.push_str(s);
                return Ok(());
            }
            let mut end = room;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.text.push_str(&s[..end]);
            self.cut = true;
            Err(fmt::Error)
        }
    }
    let mut b = Bounded { text: String::new(), limit, cut: false };
    let _ = fmt::write(&mut b, value);
    if b.cut {
        b.text.push('…');
    }
    b.text
}

impl<O: Debug> OriginalEnd<O> {
    /// How the original ended, as a score line records it (at most `limit` bytes).
    pub(crate) fn render_bounded(&self, limit: usize) -> String {
        match self {
            OriginalEnd::Returned { output, .. } => render_bounded(format_args!("{output:?}"), limit),
            OriginalEnd::Panicked { message, .. } => render_bounded(format_args!("panic: {message}"), limit),
            OriginalEnd::Discarded => "discarded".to_owned(),
        }
    }
}

/// Runs `f` on a mutant's output as the code under test: a mutant's unsafe code may
/// leave a value whose `Debug` panics (a `str` that is not UTF-8), and that panic is the
/// mutant's verdict, not the harness's end.
fn guarded<R>(f: impl FnOnce() -> R) -> Result<R, Box<dyn Any + Send>> {
    in_target(|| catch_unwind(AssertUnwindSafe(f)))
}

impl<O: Debug> RunEnd<O> {
    /// How a mutant run ended, rendered as [`OriginalEnd::render_bounded`] renders the original.
    pub(crate) fn render_bounded(&self, limit: usize) -> String {
        match self {
            RunEnd::Returned(output) => guarded(|| render_bounded(format_args!("{output:?}"), limit))
                .unwrap_or_else(|p| {
                    render_bounded(
                        format_args!("panic rendering its output: {}", payload_message(&*p)),
                        limit,
                    )
                }),
            RunEnd::Panicked(p) => render_bounded(format_args!("panic: {}", payload_message(&**p)), limit),
            RunEnd::Discarded => "discarded".to_owned(),
            RunEnd::Exhausted(e) => render_bounded(format_args!("{e}"), limit),
        }
    }
}

/// A mutant's verdict on one input: how it was killed, or `None` if it survived.
pub type Verdict = Option<(KillKind, Option<KillLimit>)>;

/// Judges a mutant's run against the original's: the kind of kill, and for a timeout
/// which limit ran out; `None` when the mutant survived this input.
pub(crate) fn judge<O>(oracle: &dyn Oracle<O>, original: &OriginalEnd<O>, mutant: &RunEnd<O>) -> Verdict {
    let kind = match (original, mutant) {
        (_, RunEnd::Exhausted(e)) => return Some((KillKind::Timeout, Some(kill_limit(e.limit)))),
        (OriginalEnd::Discarded, RunEnd::Discarded) => return None,
        (OriginalEnd::Discarded, _) | (_, RunEnd::Discarded) => KillKind::Discard,
        (OriginalEnd::Panicked { message, .. }, RunEnd::Panicked(p)) => {
            if payload_message(&**p) == message {
                return None;
            }
            KillKind::Panic
        }
        (OriginalEnd::Panicked { .. }, RunEnd::Returned(_))
        | (OriginalEnd::Returned { .. }, RunEnd::Panicked(_)) => KillKind::Panic,
        (OriginalEnd::Returned { output, fingerprint }, RunEnd::Returned(out)) => {
            match guarded(|| oracle.agrees(output, *fingerprint, out)) {
                Ok(true) => return None,
                Ok(false) => KillKind::OutputDiffers,
                Err(_) => KillKind::Panic,
            }
        }
    };
    Some((kind, None))
}

/// The record's name for the run-time's limit.
fn kill_limit(limit: Limit) -> KillLimit {
    match limit {
        Limit::Fuel => KillLimit::Fuel,
        Limit::Depth => KillLimit::Depth,
    }
}

/// Sets the run-time up for in-process mutant runs and quiets panics for one
/// `run_*` call; puts the original back and restores the panic hook after.
pub(crate) struct RunGuard {
    _quiet: QuietPanics,
}

impl RunGuard {
    pub(crate) fn start() -> RunGuard {
        mutfuzz_rt::set_exit_on_exhaust(false);
        mutfuzz_rt::activate(0);
        RunGuard { _quiet: QuietPanics::install() }
    }
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        mutfuzz_rt::activate(0);
        mutfuzz_rt::set_limits(u64::MAX, usize::MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::DebugHash;

    fn returned(v: u8) -> OriginalEnd<u8> {
        OriginalEnd::Returned { output: v, fingerprint: crate::oracle::debug_hash(&v) }
    }

    fn panicked(m: &str) -> OriginalEnd<u8> {
        OriginalEnd::Panicked { message: m.to_owned(), location: None }
    }

    fn payload(m: &'static str) -> RunEnd<u8> {
        RunEnd::Panicked(Box::new(m))
    }

    #[test]
    fn every_pair_of_run_ends_gets_the_specified_verdict() {
        let o = &DebugHash;
        let kind = |orig: &OriginalEnd<u8>, m: &RunEnd<u8>| judge(o, orig, m).map(|(k, _)| k);
        let timeout = RunEnd::Exhausted(Exhausted { mutant: 3, limit: Limit::Depth });
        assert_eq!(judge(o, &returned(1), &timeout), Some((KillKind::Timeout, Some(KillLimit::Depth))));
        assert_eq!(kind(&returned(1), &RunEnd::Returned(1)), None);
        assert_eq!(kind(&returned(1), &RunEnd::Returned(2)), Some(KillKind::OutputDiffers));
        assert_eq!(kind(&returned(1), &payload("boom")), Some(KillKind::Panic));
        assert_eq!(kind(&panicked("boom"), &RunEnd::Returned(1)), Some(KillKind::Panic));
        assert_eq!(kind(&panicked("boom"), &payload("boom")), None);
        assert_eq!(kind(&panicked("boom"), &payload("bang")), Some(KillKind::Panic));
        assert_eq!(kind(&OriginalEnd::Discarded, &RunEnd::Discarded), None);
        assert_eq!(kind(&OriginalEnd::Discarded, &RunEnd::Returned(1)), Some(KillKind::Discard));
        assert_eq!(kind(&returned(1), &RunEnd::Discarded), Some(KillKind::Discard));
        assert_eq!(kind(&OriginalEnd::Discarded, &timeout), Some(KillKind::Timeout));
    }

    /// An output whose `Debug` panics, as a `str` a mutant's unsafe code left invalid does.
    #[derive(PartialEq)]
    struct Broken(bool);

    impl Debug for Broken {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            assert!(!self.0, "byte index 3 is not a char boundary");
            f.write_str("fine")
        }
    }

    #[test]
    fn a_mutant_output_whose_debug_panics_is_a_panic_kill_not_the_harness_end() {
        let o = &DebugHash;
        let fine = Broken(false);
        let original = OriginalEnd::Returned { fingerprint: o.fingerprint(&fine), output: fine };
        let mutant = RunEnd::Returned(Broken(true));
        assert_eq!(judge(o, &original, &mutant), Some((KillKind::Panic, None)));
        assert_eq!(
            mutant.render_bounded(100),
            "panic rendering its output: byte index 3 is not a char boundary"
        );
        assert_eq!(judge(o, &original, &RunEnd::Returned(Broken(false))), None);
    }

    #[test]
    fn renderings_are_cut_at_the_limit_on_a_char_boundary() {
        assert_eq!(render_bounded(format_args!("{:?}", vec![1, 2]), 100), "[1, 2]");
        assert_eq!(render_bounded(format_args!("{:?}", "ééé"), 4), "\"é…");
        let long = vec![7u8; 100_000];
        assert_eq!(render_bounded(format_args!("{long:?}"), 10), "[7, 7, 7, …");
        assert_eq!(returned(3).render_bounded(10), "3");
        assert_eq!(panicked("boom").render_bounded(100), "panic: boom");
        assert_eq!(payload("bang").render_bounded(100), "panic: bang");
    }
}
