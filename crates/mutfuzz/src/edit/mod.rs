//! Edits: how a child input is made from a parent. Each strategy is one
//! implementation of [`Edit`]; an edit is a change to an input, never a "mutation".

mod compare;
mod dictionary;
mod havoc;
mod informed;
mod resample;
mod structure;
mod targeted;

pub use compare::CompareEdit;
pub use dictionary::DictionaryEdit;
/// A saved input of a fresh value, for other modules' tests.
#[cfg(test)]
pub(crate) use dictionary::tests::entry_of;
pub use havoc::{Havoc, geometric};
pub use informed::{Informed, TARGET_CHANCE};
pub use resample::Resample;
pub use structure::{SpanEdit, Structure, apply, edits_at};
pub use targeted::{TypeTargets, havoc_in, short_type_name};

use std::ops::Deref;

use crate::corpus::{Corpus, CorpusEntry};
use crate::input::{Rewrite, Rng, Spans};
use crate::mutants::MutantTable;
use mutfuzz_contract::Stats;

/// A saved input to edit, with its spans unpacked: an entry keeps them packed, and a
/// parent makes many children in a row, so they are unpacked once for all of them.
#[derive(Clone, Copy, Debug)]
pub struct Parent<'a> {
    /// The saved input.
    pub entry: &'a CorpusEntry,
    /// Its spans, unpacked (these, not the entry's packed ones, are what edits read).
    pub spans: &'a Spans,
}

impl<'a> Parent<'a> {
    /// `entry`, whose spans unpacked are `spans`.
    pub fn new(entry: &'a CorpusEntry, spans: &'a Spans) -> Self {
        Parent { entry, spans }
    }
}

impl Deref for Parent<'_> {
    type Target = CorpusEntry;

    fn deref(&self) -> &CorpusEntry {
        self.entry
    }
}

/// Makes a child input from a parent.
pub trait Edit {
    /// Writes the child's choice bytes into `out` (cleared first by the implementation).
    ///
    /// The child may be shorter or longer than the parent: missing choices are drawn
    /// fresh when the value is generated, and unread bytes are dropped.
    fn edit(&mut self, parent: &Parent, rng: &mut Rng, out: &mut Vec<u8>);

    /// Whether the edit reads the parent's [`spans`](Parent::spans). Spans are recorded
    /// (and stored with each saved input) only for edits that use them, since recording
    /// costs time on every trial.
    fn needs_spans(&self) -> bool {
        false
    }

    /// Told when the campaign saved `entry`, right after the original ran on it (so the
    /// run-time still holds that run's records), with the mutant table updated.
    fn saved(&mut self, _entry: &CorpusEntry, _table: &MutantTable) {}

    /// Whether the original must run on `entry` again, recording, before the edit makes
    /// its children: the edit let go of what it read from the run that saved it.
    fn needs_record(&self, _entry: &CorpusEntry) -> bool {
        false
    }

    /// Told when the original ran again on `entry` because
    /// [`needs_record`](Edit::needs_record) said so (the run-time holds that run's records).
    fn recorded(&mut self, _entry: &CorpusEntry) {}

    /// Adds the edit's own counters to `stats`.
    fn report(&self, _stats: &mut Stats) {}

    /// Like [`edit`](Edit::edit), with every saved input at hand (to splice from), and
    /// returning the [`Rewrite`] the child's source must replay it with, if any
    /// (structure-preserving edits); the campaign calls this one.
    fn edit_structured(
        &mut self,
        parent: &Parent,
        corpus: &Corpus,
        rng: &mut Rng,
        out: &mut Vec<u8>,
    ) -> Option<Rewrite> {
        let _ = corpus;
        self.edit(parent, rng, out);
        None
    }
}

pub use mutfuzz_contract::EditKind;

/// The edit strategy of `kind` (the names are the contract's: the CLI passes them on).
pub fn build(kind: EditKind) -> Box<dyn Edit> {
    match kind {
        EditKind::Havoc => Box::new(Havoc::default()),
        EditKind::Structure => Box::new(Structure::default()),
    }
}
