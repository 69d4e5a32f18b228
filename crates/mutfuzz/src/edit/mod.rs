//! Edits: how a child input is made from a parent. Each strategy is one
//! implementation of [`Edit`]; an edit is a change to an input, never a "mutation".

mod havoc;
mod resample;

pub use havoc::{Havoc, geometric};
pub use resample::Resample;

use crate::corpus::Entry;
use crate::input::Rng;

/// Makes a child input from a parent.
pub trait Edit {
    /// Writes the child's choice bytes into `out` (cleared first by the implementation).
    ///
    /// The child may be shorter or longer than the parent: missing choices are drawn
    /// fresh when the value is generated, and unread bytes are dropped.
    fn edit(&mut self, parent: &Entry, rng: &mut Rng, out: &mut Vec<u8>);

    /// Whether the edit reads the parent's [`spans`](Entry::spans). Spans are recorded
    /// (and stored with each saved input) only for edits that use them, since recording
    /// costs time on every trial.
    fn needs_spans(&self) -> bool {
        false
    }
}
