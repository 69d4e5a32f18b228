//! Zest's byte havoc on the choice bytes: a geometric number of edits, each
//! overwriting a geometric run of bytes with random values or zeros.

use super::{Edit, Parent};
use crate::input::Rng;

/// Zest's byte-level edits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Havoc {
    /// Mean number of edits per child (Zest's `MEAN_MUTATION_COUNT`).
    pub mean_edits: f64,
    /// Mean number of bytes per edit (Zest's `MEAN_MUTATION_SIZE`).
    pub mean_len: f64,
    /// Probability that a child's edits write zeros instead of random bytes.
    pub zero_chance: f64,
}

impl Default for Havoc {
    fn default() -> Self {
        Havoc { mean_edits: 8.0, mean_len: 4.0, zero_chance: 0.1 }
    }
}

/// A Geometric sample with the given mean (at least 1): `ceil(ln(1-u) / ln(1-1/mean))`.
pub fn geometric(rng: &mut Rng, mean: f64) -> usize {
    if mean <= 1.0 {
        return 1;
    }
    let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
    let n = ((1.0 - u).ln() / (1.0 - 1.0 / mean).ln()).ceil();
    // `u` near 1 gives a huge sample; the cast saturates and callers clamp.
    (n as usize).max(1)
}

impl Edit for Havoc {
    fn edit(&mut self, parent: &Parent, rng: &mut Rng, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(parent.input.as_bytes());
        if out.is_empty() {
            return;
        }
        // Zest decides zero-fill once per child, not per edit.
        let zero = rng.chance(self.zero_chance);
        for _ in 0..geometric(rng, self.mean_edits) {
            let at = rng.below(out.len() as u64) as usize;
            let len = geometric(rng, self.mean_len).min(out.len() - at);
            let run = &mut out[at..at + len];
            if zero {
                run.fill(0);
            } else {
                rng.fill_bytes(run);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::CorpusEntry;
    use crate::guidance::Energy;
    use crate::input::{Input, Spans};

    #[test]
    fn geometric_samples_have_the_asked_mean() {
        let mut rng = Rng::new(11);
        let n = 20_000;
        let sum: usize = (0..n).map(|_| geometric(&mut rng, 8.0)).sum();
        let mean = sum as f64 / n as f64;
        assert!((7.5..8.5).contains(&mean), "{mean}");
        assert_eq!(geometric(&mut rng, 1.0), 1);
    }

    #[test]
    fn havoc_keeps_the_length_and_changes_some_bytes() {
        let parent = CorpusEntry {
            input: Input::new(vec![0x55; 64]),
            name: String::new(),
            sites: 1,
            favoured: false,
            energy: Energy::Zest,
            kills: 0,
            trial: 0,
        };
        let mut rng = Rng::new(3);
        let mut out = Vec::new();
        let mut changed = 0;
        let mut zeroed = 0;
        for _ in 0..200 {
            Havoc::default().edit(&Parent::new(&parent, &Spans::default()), &mut rng, &mut out);
            assert_eq!(out.len(), 64);
            changed += usize::from(out != parent.input.as_bytes());
            zeroed += usize::from(out.iter().filter(|&&b| b != 0x55).all(|&b| b == 0) && out.contains(&0));
        }
        assert!(changed > 190, "{changed}");
        assert!((5..50).contains(&zeroed), "{zeroed}");
        let empty = CorpusEntry { input: Input::default(), ..parent };
        Havoc::default().edit(&Parent::new(&empty, &Spans::default()), &mut rng, &mut out);
        assert!(out.is_empty());
    }
}
