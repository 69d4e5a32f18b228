//! The harness run until its work is done, whatever its processes die of: one process at
//! a time under watch ([`supervise::run`]), restarted after a crash, a hang or a drift.
//! What a command reads from the protocol lines, and how it blames a death on what ran
//! (a mutant killed by `crash` or `timeout`, a failure of the original), is its [`Watch`]:
//! the campaign's (`fuzz`) and the score's (`score`) are the two. A watch that names a
//! corpus directory has the inputs its harness hands over stored there
//! ([`handover`](crate::fuzzing::handover)).

use std::cell::RefCell;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use anyhow::{Result, bail};
use mutfuzz_contract::{EXIT_DRIFT, EXIT_ERROR, EXIT_SUCCESS, Line};

use crate::console::exit_code;
use crate::fuzzing::handover::Inbox;
use crate::process::Exit;
use crate::process::caps::Caps;
use crate::process::interrupt;
use crate::process::supervise::{self, Ending, Keep, Supervised};

/// Restarts in a row that record nothing new before the supervisor gives up.
pub const MAX_STALLED_RESTARTS: u32 = 20;

/// Why the supervisor stopped (an error aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// The work is done: the harness finished it, or the budget is spent.
    Done,
    /// Ctrl-C, SIGTERM or SIGHUP.
    Interrupted,
}

/// What a command reads from one harness process's stdout, line by line.
pub trait Observe: Default {
    /// Take in one protocol line.
    fn observe(&mut self, line: Line<'static>);
}

/// What one command watches in its harness's output, and how it blames a death.
pub trait Watch {
    /// What it reads from one harness process's stdout.
    type Tracker: Observe;
    /// Words for the harness's refusal (an error exit while no mutant ran).
    const REFUSED: &'static str;
    /// What a process that dies records when it makes progress (for the error after
    /// [`MAX_STALLED_RESTARTS`] deaths that record nothing).
    const PROGRESS: &'static str;

    /// The next harness process, after `restarts` restarts; `None` when the budget is spent.
    fn next(&mut self, restarts: u32) -> Result<Option<Command>>;
    /// A few times a second while a process runs (notes, the status line).
    fn tick(&mut self, tracker: &mut Self::Tracker);
    /// After each process, however it ended (its counters taken in, its notes shown).
    fn ended(&mut self, tracker: &Self::Tracker, run: &Supervised) -> Result<()>;
    /// Whether a process that exited with code 0 did what it was asked (if not, a
    /// mutant's `process::exit(0)` ended it).
    fn finished(&self, tracker: &Self::Tracker) -> bool;
    /// Whether nothing ran when the process stopped: a drift is then the harness's own.
    fn idle(&self, tracker: &Self::Tracker) -> bool;
    /// Whether no mutant ran when the process stopped: an error exit is then the harness's.
    fn no_mutant(&self, tracker: &Self::Tracker) -> bool;
    /// After a drift: whether the process recorded anything new.
    fn drifted(&mut self, tracker: &Self::Tracker) -> Result<bool>;
    /// After a crash or hang: record it against what ran and say so. Whether anything new
    /// was recorded, and the death in words.
    fn blame(&mut self, tracker: &Self::Tracker, run: &Supervised) -> Result<(bool, String)>;
    /// Show a message.
    fn say(&mut self, message: &str);
    /// The corpus directory this supervisor owns, whose inputs the harness hands over
    /// (`keep` lines) instead of writing them; none if it writes no corpus.
    fn corpus(&self) -> Option<&Path> {
        None
    }
    /// When the supervisor stops, however.
    fn close(&mut self) {}
}

/// Run the harness processes `watch` asks for until its work is done, restarting after
/// every death; give up after [`MAX_STALLED_RESTARTS`] deaths or drifts in a row that
/// record nothing new. Stderr goes to `log`; silence longer than `hang` is a hang.
pub fn supervise_until_done<W: Watch>(
    watch: &mut W,
    hang: Duration,
    log: &Path,
    caps: &Caps,
) -> Result<Until> {
    let until = restart_loop(watch, hang, log, caps);
    watch.close();
    until
}

fn restart_loop<W: Watch>(watch: &mut W, hang: Duration, log: &Path, caps: &Caps) -> Result<Until> {
    let mut restarts = 0u32;
    let mut stalled = 0u32;
    let mut inbox = watch.corpus().map(Inbox::new);
    loop {
        if interrupt::interrupted() {
            return Ok(Until::Interrupted);
        }
        let Some(cmd) = watch.next(restarts)? else { return Ok(Until::Done) };
        let tracker = RefCell::new(W::Tracker::default());
        let refused = inbox.as_ref().map_or(0, Inbox::refused);
        let run = supervise::run(
            cmd,
            hang,
            log,
            caps,
            inbox.as_mut().map(|i| i as &mut dyn Keep),
            &mut |line| tracker.borrow_mut().observe(line),
            &mut || watch.tick(&mut tracker.borrow_mut()),
        )?;
        let t = tracker.into_inner();
        let refused = inbox.as_ref().map_or(0, Inbox::refused) - refused;
        if refused > 0 {
            watch.say(&format!(
                "refused {refused} input(s) handed over with a name that is not their content's \
                 (a line garbled by the target's own output, or printed by it)"
            ));
        }
        watch.ended(&t, &run)?;
        match run.ending {
            Ending::Interrupted => return Ok(Until::Interrupted),
            Ending::Exited(Exit::Code(EXIT_SUCCESS)) if watch.finished(&t) => return Ok(Until::Done),
            Ending::Exited(Exit::Code(EXIT_DRIFT)) if watch.idle(&t) => {
                // The harness found its global state changed by a mutant; it recorded
                // the suspects (or the culprit's kill) itself. A clean process goes on.
                restarts += 1;
                stalled = if watch.drifted(&t)? { 0 } else { stalled + 1 };
                let words = run.last_words().unwrap_or("global state drifted");
                watch.say(&format!(
                    "{}; restarting the harness in a clean process",
                    words.trim_start_matches("error: ").chars().take(300).collect::<String>()
                ));
                if stalled >= MAX_STALLED_RESTARTS {
                    bail!(
                        "the harness drifted {stalled} times in a row without finding the mutant that \
                         causes it; its log is {}",
                        log.display()
                    );
                }
            }
            Ending::Exited(Exit::Code(EXIT_ERROR)) if watch.no_mutant(&t) => {
                return Err(exit_code::usage(anyhow::anyhow!(
                    "{} (exit code {EXIT_ERROR}):\n{}",
                    W::REFUSED,
                    run.stderr_tail.join("\n")
                )));
            }
            _ => {
                let (progressed, how) = watch.blame(&t, &run)?;
                restarts += 1;
                stalled = if progressed { 0 } else { stalled + 1 };
                if stalled >= MAX_STALLED_RESTARTS {
                    bail!(
                        "the harness died {stalled} times in a row without {} (last: {how}); its log is {}:\n{}",
                        W::PROGRESS,
                        log.display(),
                        run.stderr_tail.join("\n")
                    );
                }
            }
        }
    }
}
