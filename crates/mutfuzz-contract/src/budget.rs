//! The run budget: how much fuel and stack a mutant run may use, relative to what the
//! original used on the same input (or the same tests). One formula for fuzzing, scoring
//! and `cargo mutfuzz test`; only the constants differ.

/// Fuel and depth bounds of a mutant run, relative to the original's usage.
///
/// Fuel allowed is `original × fuel_multiple + fuel_floor`, stack bytes allowed are
/// `2 × original + depth_floor`: a runaway mutant ends deterministically, by counting,
/// however fast or loaded the machine is (μZest's `t × (1 + r)`, in ticks, not seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Multiple of the original's fuel allowed (μZest's `1 + r`).
    pub fuel_multiple: f64,
    /// Fuel always allowed on top, so code the original barely entered still has room.
    pub fuel_floor: u64,
    /// Stack bytes always allowed on top of twice the original's: far below a thread's
    /// stack, so runaway recursion ends as a timeout, not as a stack overflow.
    pub depth_floor: usize,
}

impl Budget {
    /// Mutant runs during a fuzzing trial: three times the original's fuel.
    pub const FUZZ: Budget = Budget { fuel_multiple: 3.0, fuel_floor: 100_000, depth_floor: 256 * 1024 };

    /// Scoring a corpus: eleven times the original's fuel, so slow but finite mutants
    /// are not mistaken for runaways in the final number.
    pub const SCORE: Budget = Budget { fuel_multiple: 11.0, fuel_floor: 1_000_000, depth_floor: 1024 * 1024 };

    /// A mutant run of `cargo mutfuzz test`: `multiplier` times its tests' baseline fuel.
    pub fn test(multiplier: f64) -> Budget {
        Budget { fuel_multiple: multiplier, ..Budget::FUZZ }
    }

    /// The (fuel, depth) limits of a mutant, given the original's usage.
    pub fn limits(&self, fuel: u64, depth: usize) -> (u64, usize) {
        let scaled = (fuel as f64 * self.fuel_multiple.max(0.0)) as u64;
        (scaled.saturating_add(self.fuel_floor), depth.saturating_mul(2).saturating_add(self.depth_floor))
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::FUZZ
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_scales_the_original_and_adds_floors() {
        let b = Budget { fuel_multiple: 2.0, fuel_floor: 10, depth_floor: 100 };
        assert_eq!(b.limits(50, 7), (110, 114));
        assert_eq!(Budget::FUZZ.limits(u64::MAX, usize::MAX), (u64::MAX, usize::MAX));
        assert_eq!(Budget::FUZZ.limits(1000, 10), (103_000, 256 * 1024 + 20));
        assert_eq!(Budget::SCORE.limits(1000, 0), (1_011_000, 1024 * 1024));
        assert_eq!(Budget::test(5.0).limits(1000, 0), (105_000, 256 * 1024));
        // A nonsensical multiple allows the floor only.
        assert_eq!(Budget::test(-1.0).limits(1000, 0).0, 100_000);
    }
}
