//! Scheduling: which saved input is the parent of the next trial's input, and how
//! many children each parent gets. Each strategy is one implementation of [`Schedule`].

mod focus;
mod mutagen;
mod zest;

pub use focus::{FOCUS_CAP, FOCUS_EVERY, Focus};
pub use mutagen::{DEPTH_LIMIT, MutagenSchedule, RESET_THRESHOLD};
pub use zest::ZestSchedule;

use crate::corpus::Corpus;
use crate::edit::{Edit, Parent};
use crate::input::{Input, Rewrite, Rng, Spans};

/// Where the next trial's input comes from.
#[derive(Debug)]
pub enum Next {
    /// The campaign's edit makes a child of this saved input.
    Parent(usize),
    /// The schedule wrote the child's bytes itself; replay them with this rewrite, if any.
    Child(Option<Rewrite>),
    /// A freshly generated input.
    Fresh,
}

/// What one trial's input did, as a schedule that learns from every trial sees it.
#[derive(Clone, Copy, Debug)]
pub struct Observation<'a> {
    /// The input as replayed (trimmed to what the generator read).
    pub input: &'a Input,
    /// Its spans (recorded when the schedule [needs them](Schedule::needs_spans)).
    pub spans: &'a Spans,
    /// Base ids of the sites the original hit.
    pub hits: &'a [u32],
    /// Hit-count bucket bits of every edge counter (empty without instrumentation).
    pub edges: &'a [u8],
    /// The counters hit, as indices into `edges`.
    pub edge_hits: &'a [u32],
    /// Mutants it killed that no saved input had killed.
    pub new_kills: usize,
    /// Whether the original discarded it (`assume`).
    pub discarded: bool,
}

/// Chooses parents from the corpus.
pub trait Schedule {
    /// The index of the next parent in `corpus`, or `None` to generate a fresh input.
    fn next_parent(&mut self, corpus: &Corpus, rng: &mut Rng) -> Option<usize>;

    /// Where the next input comes from; a schedule that makes children itself writes
    /// them into `out`. By default, a parent from [`next_parent`](Schedule::next_parent).
    fn next(&mut self, corpus: &Corpus, rng: &mut Rng, out: &mut Vec<u8>) -> Next {
        let _ = out;
        match self.next_parent(corpus, rng) {
            Some(i) => Next::Parent(i),
            None => Next::Fresh,
        }
    }

    /// Learns what the last trial's input did (called after every trial).
    fn observe(&mut self, trial: &Observation<'_>) {
        let _ = trial;
    }

    /// Whether [`observe`](Schedule::observe) needs the input's spans.
    fn needs_spans(&self) -> bool {
        false
    }

    /// Children waiting in the schedule's queues (0 for a schedule without queues).
    fn queued(&self) -> u64 {
        0
    }

    /// How many times each random edit of a batch is sampled (MUTAGEN's R; 0 if none).
    fn random_edits(&self) -> u32 {
        0
    }
}

pub use mutfuzz_contract::ScheduleKind;

/// The schedule of `kind` (the names are the contract's: the CLI passes them on).
pub fn build(kind: ScheduleKind) -> Box<dyn Schedule> {
    match kind {
        ScheduleKind::Zest => Box::new(ZestSchedule::new()),
        ScheduleKind::Mutagen => Box::new(MutagenSchedule::new()),
    }
}

/// The spans of the last parent, unpacked: a schedule gives a parent many children in a
/// row, so they are unpacked once for all of them, not per child.
#[derive(Debug, Default)]
pub struct ParentSpans {
    /// Index of the corpus entry they are of (entries never change once saved).
    of: Option<usize>,
    spans: Spans,
}

impl ParentSpans {
    /// The spans of entry `index` of `corpus`, unpacked.
    pub fn of(&mut self, corpus: &Corpus, index: usize) -> &Spans {
        if self.of != Some(index) {
            corpus.with_spans(index, |spans| spans.unpack_into(&mut self.spans));
            self.of = Some(index);
        }
        &self.spans
    }
}

/// Makes the child `next` asks for: the edit's child of a parent, the schedule's own, or
/// none (a fresh input: `out` cleared). Returns the rewrite to replay it with.
pub fn make_child(
    next: Next,
    corpus: &Corpus,
    edit: &mut dyn Edit,
    unpacked: &mut ParentSpans,
    rng: &mut Rng,
    out: &mut Vec<u8>,
) -> Option<Rewrite> {
    match next {
        Next::Parent(i) => {
            let entry = &corpus.entries()[i];
            edit.edit_structured(&Parent::new(entry, unpacked.of(corpus, i)), corpus, rng, out)
        }
        Next::Child(rewrite) => rewrite,
        Next::Fresh => {
            out.clear();
            None
        }
    }
}
