//! Zest's schedule: cycle through the corpus round-robin, giving each parent a number
//! of children proportional to its coverage, twenty times more when favoured.

use super::Schedule;
use crate::corpus::{Corpus, CorpusEntry};
use crate::input::Rng;

/// Children for a parent with the most coverage (Zest's `NUM_CHILDREN_BASELINE`).
pub const BASE_CHILDREN: u64 = 50;
/// Multiplier for favoured parents (Zest's `NUM_CHILDREN_MULTIPLIER_FAVORED`).
pub const FAVOURED_MULTIPLIER: u64 = 20;

/// Round-robin over the corpus with Zest's energy; fresh inputs while it is empty.
#[derive(Clone, Debug, Default)]
pub struct ZestSchedule {
    current: usize,
    children: u64,
}

impl ZestSchedule {
    /// A schedule that starts at the first saved input.
    pub fn new() -> Self {
        ZestSchedule::default()
    }

    /// Children a parent gets per cycle: `50 × sites / max_sites` (at least one), ×20 when
    /// favoured, then scaled by the entry's [`Energy`](crate::guidance::Energy) (μZest).
    pub fn energy(entry: &CorpusEntry, max_sites: u32) -> u64 {
        let base = if max_sites == 0 {
            BASE_CHILDREN
        } else {
            (BASE_CHILDREN * u64::from(entry.sites) / u64::from(max_sites)).max(1)
        };
        let children = if entry.favoured { base * FAVOURED_MULTIPLIER } else { base };
        entry.energy.apply(children)
    }
}

impl Schedule for ZestSchedule {
    fn next_parent(&mut self, corpus: &Corpus, _rng: &mut Rng) -> Option<usize> {
        if corpus.is_empty() {
            return None;
        }
        // The corpus only grows, so the index stays valid; wrap when the cycle ends.
        let entry = corpus.get(self.current)?;
        if self.children >= Self::energy(entry, corpus.max_sites()) {
            self.current = (self.current + 1) % corpus.len();
            self.children = 0;
        }
        self.children += 1;
        Some(self.current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guidance::Energy;
    use crate::input::{Input, Spans};

    fn entry(sites: u32, favoured: bool) -> CorpusEntry {
        CorpusEntry {
            input: Input::default(),
            name: String::new(),
            sites,
            favoured,
            energy: Energy::Zest,
            kills: 0,
            trial: 0,
        }
    }

    #[test]
    fn energy_follows_coverage_and_favour() {
        assert_eq!(ZestSchedule::energy(&entry(10, false), 10), 50);
        assert_eq!(ZestSchedule::energy(&entry(5, false), 10), 25);
        assert_eq!(ZestSchedule::energy(&entry(5, true), 10), 500);
        assert_eq!(ZestSchedule::energy(&entry(0, false), 10), 1);
        let boosted = CorpusEntry { energy: Energy::Times(20), ..entry(5, false) };
        assert_eq!(ZestSchedule::energy(&boosted, 10), 500);
        let reduced = CorpusEntry { energy: Energy::DividedBy(20), ..entry(5, false) };
        assert_eq!(ZestSchedule::energy(&reduced, 10), 1);
    }

    #[test]
    fn parents_come_round_robin_with_their_energy() {
        let mut corpus = Corpus::new();
        let mut s = ZestSchedule::new();
        let mut rng = Rng::new(1);
        assert_eq!(s.next_parent(&corpus, &mut rng), None);
        corpus.push(entry(2, false), Spans::default());
        corpus.push(entry(1, false), Spans::default());
        let picks: Vec<_> = (0..80).map(|_| s.next_parent(&corpus, &mut rng).unwrap()).collect();
        assert!(picks[..50].iter().all(|&p| p == 0));
        assert!(picks[50..75].iter().all(|&p| p == 1));
        assert!(picks[75..].iter().all(|&p| p == 0));
    }
}
