//! Scheduling: which saved input is the parent of the next trial's input, and how
//! many children each parent gets. Each strategy is one implementation of [`Schedule`].

mod zest;

pub use zest::ZestSchedule;

use crate::corpus::Corpus;
use crate::input::Rng;

/// Chooses parents from the corpus.
pub trait Schedule {
    /// The index of the next parent in `corpus`, or `None` to generate a fresh input.
    fn next_parent(&mut self, corpus: &Corpus, rng: &mut Rng) -> Option<usize>;
}
