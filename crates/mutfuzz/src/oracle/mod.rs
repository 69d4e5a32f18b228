//! Oracles: how a mutant's output is compared with the original's on the same input, and
//! the rules a generated target is judged by beyond them (`Judging`).
//!
//! The default ([`DebugHash`]) compares the outputs' `Debug` renderings through a
//! streamed hash; [`Compare`] applies a user relation to the two values; [`AnyOutput`]
//! lets any two outputs agree (a generated target found nondeterministic). An output of
//! `()` renders the same always, which leaves only panics, timeouts and discards as
//! kills: the implicit oracle.

mod hash;

use std::fmt::Debug;

pub use hash::debug_hash;
pub use mutfuzz_contract::{StreamHash, content_name};

/// Decides whether a mutant's output agrees with the original's.
///
/// The original's output value is kept for the whole trial, so an oracle may look at
/// it directly; `fingerprint` lets it precompute something once per trial instead.
pub trait Oracle<O> {
    /// Something computed once from the original's output and passed back to [`agrees`](Oracle::agrees).
    fn fingerprint(&self, original: &O) -> u64;
    /// Whether `mutant`'s output counts as the same as `original`'s.
    fn agrees(&self, original: &O, fingerprint: u64, mutant: &O) -> bool;
}

/// Equality of the outputs' `Debug` renderings, as 64-bit stream hashes (no allocation).
#[derive(Clone, Copy, Debug, Default)]
pub struct DebugHash;

impl<O: Debug> Oracle<O> for DebugHash {
    fn fingerprint(&self, original: &O) -> u64 {
        debug_hash(original)
    }

    fn agrees(&self, _original: &O, fingerprint: u64, mutant: &O) -> bool {
        debug_hash(mutant) == fingerprint
    }
}

/// A user-given relation: `compare(original, mutant)` is `true` when they agree.
#[derive(Clone, Copy, Debug)]
pub struct Compare<O>(pub fn(&O, &O) -> bool);

impl<O> Oracle<O> for Compare<O> {
    fn fingerprint(&self, _original: &O) -> u64 {
        0
    }

    fn agrees(&self, original: &O, _fingerprint: u64, mutant: &O) -> bool {
        (self.0)(original, mutant)
    }
}

/// Any two returned outputs agree: a mutant is killed only by a panic, a runaway, a crash
/// or a discard. The oracle of a generated target whose original disagrees with itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnyOutput;

impl<O> Oracle<O> for AnyOutput {
    fn fingerprint(&self, _original: &O) -> u64 {
        0
    }

    fn agrees(&self, _original: &O, _fingerprint: u64, _mutant: &O) -> bool {
        true
    }
}

/// How a target is judged beyond its oracle: the rules of a generated target.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Judging {
    /// The original's panics are outcomes by contract, not failures.
    pub(crate) panics_by_contract: bool,
    /// Generated: nondeterminism leaves panics and runaways to judge by.
    pub(crate) generated: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hash_agrees_exactly_when_renderings_are_equal() {
        let o = DebugHash;
        let fp = Oracle::<Vec<u8>>::fingerprint(&o, &vec![1, 2]);
        assert!(o.agrees(&vec![1, 2], fp, &vec![1, 2]));
        assert!(!o.agrees(&vec![1, 2], fp, &vec![2, 1]));
        let unit = Oracle::<()>::fingerprint(&o, &());
        assert!(o.agrees(&(), unit, &()));
    }

    #[test]
    fn any_output_agrees_with_any_other() {
        let o = AnyOutput;
        assert!(o.agrees(&vec![1u8], Oracle::<Vec<u8>>::fingerprint(&o, &vec![1u8]), &vec![2u8, 3]));
    }

    #[test]
    fn a_custom_compare_sees_both_values() {
        let o = Compare::<(u8, u8)>(|a, b| a.0 == b.0);
        assert!(o.agrees(&(1, 2), 0, &(1, 9)));
        assert!(!o.agrees(&(1, 2), 0, &(2, 2)));
    }
}
