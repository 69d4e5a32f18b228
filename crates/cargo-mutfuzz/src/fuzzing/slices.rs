//! The budget schedule of `fuzz --all`: how one budget (trials, or seconds) is cut into
//! slices for the targets of a harness. Pure: the progress history in, the next round's
//! slices out.
//!
//! The budget is spent in at most [`ROUNDS`] rounds of equal size. The first round gives
//! every target an equal slice: nothing is known yet. A later round is a bandit's
//! allocation with a floor: [`FLOOR_SHARE`] of it is split equally among the targets still
//! scheduled, so a target that found nothing lately still gets budget (progress often
//! comes after a plateau), and the rest in proportion to each target's recent progress
//! rate — new kills and new corpus inputs per unit of budget, each slice weighted
//! [`DECAY`] times less per slice it is older — so budget goes where it pays now.

/// Rounds the budget is spent in, when it is large enough for every target to get
/// [`next_round`]'s minimum slice in each: one to measure, three to exploit.
pub const ROUNDS: u64 = 4;

/// The share of a later round split equally among the targets still scheduled.
pub const FLOOR_SHARE: f64 = 0.25;

/// The weight of a slice's progress relative to the slice after it: recent slices count
/// most, since a target's rate falls as its easy mutants die.
pub const DECAY: f64 = 0.5;

/// What one slice of one target gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceResult {
    /// Budget units spent (trials, or seconds).
    pub spent: u64,
    /// New kills plus new corpus inputs.
    pub finds: u64,
}

/// One target as the schedule sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arm {
    /// Its slices so far, oldest first.
    pub history: Vec<SliceResult>,
    /// Out of the schedule (every input discarded, or its campaign failed).
    pub dropped: bool,
}

impl Arm {
    /// Recent progress: finds per unit of budget over its slices, each weighted
    /// `DECAY^age` (the last slice has age 0). `None` before its first slice.
    pub fn rate(&self) -> Option<f64> {
        let (mut finds, mut spent, mut weight) = (0.0, 0.0, 1.0);
        for s in self.history.iter().rev() {
            finds += weight * s.finds as f64;
            spent += weight * s.spent as f64;
            weight *= DECAY;
        }
        if self.history.is_empty() {
            None
        } else if spent > 0.0 {
            Some(finds / spent)
        } else {
            // A slice that spent nothing (the budget ended) says nothing of the rate.
            Some(0.0)
        }
    }

    /// Budget units spent so far.
    pub fn spent(&self) -> u64 {
        self.history.iter().map(|s| s.spent).sum()
    }
}

/// The rounds a budget of `total` units is spent in among `targets`: [`ROUNDS`], or fewer
/// so that each target's slice of a first round is at least `min_slice`. `None` when
/// even one round cannot give every target `min_slice`.
pub fn rounds(total: u64, targets: usize, min_slice: u64) -> Option<u64> {
    let per_round = (targets as u64).max(1).saturating_mul(min_slice.max(1));
    let fit = total / per_round;
    (fit > 0).then(|| fit.min(ROUNDS))
}

/// The next round's slices: `(arm index, units)` for every arm still scheduled, in index
/// order, summing to this round's share of `left` (`left / rounds_left`, all of it in the
/// last round) and each at least `min_slice` (while `left` allows). Empty when no arm is
/// scheduled or nothing is left.
pub fn next_round(arms: &[Arm], left: u64, rounds_left: u64, min_slice: u64) -> Vec<(usize, u64)> {
    let active: Vec<usize> = (0..arms.len()).filter(|&i| !arms[i].dropped).collect();
    let n = active.len() as u64;
    if n == 0 || left == 0 {
        return Vec::new();
    }
    let min_slice = min_slice.max(1);
    let share = if rounds_left <= 1 { left } else { left / rounds_left };
    // A round never gives a target less than the minimum: a shorter slice would be all
    // harness start-up. Only the budget's end can cut it.
    let round = share.max(n * min_slice).min(left);
    if round < n * min_slice {
        // Too little left for everyone: the minimum to those that had least so far.
        let mut order = active.clone();
        order.sort_by_key(|&i| (arms[i].spent(), i));
        let mut slices: Vec<(usize, u64)> = order
            .into_iter()
            .take((round / min_slice).max(1) as usize)
            .map(|i| (i, min_slice.min(round)))
            .collect();
        slices.sort_unstable();
        return slices;
    }
    let rates: Vec<Option<f64>> = active.iter().map(|&i| arms[i].rate()).collect();
    // A target not tried yet is as promising as the best: the first round is even.
    let best = rates.iter().flatten().copied().fold(0.0, f64::max);
    let weights: Vec<f64> = rates.iter().map(|r| r.unwrap_or(best)).collect();
    let total_weight: f64 = weights.iter().sum();
    let explore = rates.iter().all(Option::is_none) || total_weight <= 0.0;
    let floor = if explore { round / n } else { ((round as f64 * FLOOR_SHARE) as u64 / n).max(min_slice) };
    let pool = round - floor * n;
    let mut slices: Vec<u64> = if explore {
        vec![floor; active.len()]
    } else {
        weights.iter().map(|w| floor + (pool as f64 * w / total_weight) as u64).collect()
    };
    // What rounding left over: one unit each, to the highest weight first (ties by index).
    let mut rest = round - slices.iter().sum::<u64>();
    let mut by_weight: Vec<usize> = (0..active.len()).collect();
    by_weight.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]).then(a.cmp(&b)));
    for &k in by_weight.iter().cycle() {
        if rest == 0 {
            break;
        }
        slices[k] += 1;
        rest -= 1;
    }
    active.into_iter().zip(slices).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arm(history: &[(u64, u64)]) -> Arm {
        Arm {
            history: history.iter().map(|&(spent, finds)| SliceResult { spent, finds }).collect(),
            dropped: false,
        }
    }

    fn sum(slices: &[(usize, u64)]) -> u64 {
        slices.iter().map(|s| s.1).sum()
    }

    #[test]
    fn the_first_round_is_even_and_spends_a_round_s_share() {
        let arms = vec![Arm::default(); 3];
        assert_eq!(next_round(&arms, 1000, 4, 10), vec![(0, 84), (1, 83), (2, 83)]);
        // The last round spends everything left.
        assert_eq!(sum(&next_round(&arms, 1000, 1, 10)), 1000);
    }

    #[test]
    fn later_rounds_follow_recent_progress_and_starve_no_one() {
        let arms = vec![arm(&[(100, 50)]), arm(&[(100, 0)]), arm(&[(100, 10)])];
        let slices = next_round(&arms, 900, 3, 10);
        assert_eq!(sum(&slices), 300);
        let got: Vec<u64> = slices.iter().map(|s| s.1).collect();
        // The floor is a quarter of the round, split evenly (25 each); the other 225 go
        // 5:0:1 by rate.
        assert_eq!(got, vec![25 + 188, 25, 25 + 37]);
        assert!(got[1] >= 10, "a target that found nothing still gets its floor");
    }

    #[test]
    fn recent_slices_weigh_more_than_old_ones() {
        // Both found 60 in 200 units; one early, one lately.
        let early = arm(&[(100, 60), (100, 0)]);
        let late = arm(&[(100, 0), (100, 60)]);
        assert!(late.rate().unwrap() > early.rate().unwrap());
        let slices = next_round(&[early, late], 400, 2, 10);
        assert!(slices[1].1 > slices[0].1, "{slices:?}");
        assert_eq!(sum(&slices), 200);
    }

    #[test]
    fn with_no_progress_anywhere_the_round_is_even() {
        let arms = vec![arm(&[(50, 0)]), arm(&[(50, 0)])];
        assert_eq!(next_round(&arms, 200, 2, 10), vec![(0, 50), (1, 50)]);
    }

    #[test]
    fn dropped_targets_get_nothing_and_the_others_share_the_round() {
        let mut arms = vec![arm(&[(10, 3)]), arm(&[(10, 0)]), arm(&[(10, 3)])];
        arms[1].dropped = true;
        let slices = next_round(&arms, 100, 1, 10);
        assert_eq!(slices, vec![(0, 50), (2, 50)]);
        arms[0].dropped = true;
        arms[2].dropped = true;
        assert!(next_round(&arms, 100, 1, 10).is_empty());
        assert!(next_round(&[Arm::default()], 0, 1, 10).is_empty());
    }

    #[test]
    fn a_round_gives_each_target_at_least_the_minimum_while_the_budget_lasts() {
        let arms = vec![arm(&[(10, 100)]), arm(&[(10, 0)]), arm(&[(10, 0)])];
        // A quarter of a 40-unit round is less than 3 × 10: the floor is the minimum.
        let slices = next_round(&arms, 160, 4, 10);
        assert_eq!(sum(&slices), 40);
        assert!(slices.iter().all(|s| s.1 >= 10), "{slices:?}");
        // Less left than a minimum each: the minimum to those that had least so far.
        let arms = vec![arm(&[(30, 1)]), arm(&[(10, 0)]), arm(&[(20, 0)])];
        assert_eq!(next_round(&arms, 25, 1, 10), vec![(1, 10), (2, 10)]);
        assert_eq!(next_round(&arms, 5, 1, 10), vec![(1, 5)]);
    }

    #[test]
    fn rounds_fit_the_minimum_slice() {
        assert_eq!(rounds(1000, 5, 10), Some(ROUNDS));
        assert_eq!(rounds(100, 5, 10), Some(2));
        assert_eq!(rounds(49, 5, 10), None);
        assert_eq!(rounds(50, 5, 10), Some(1));
    }

    #[test]
    fn over_a_whole_budget_every_target_gets_slices_and_the_budget_is_spent_exactly() {
        // Target 0 keeps finding, target 2 never does: 2 still gets a slice every round.
        let find_rate = [0.5, 0.1, 0.0];
        let mut arms = vec![Arm::default(); 3];
        let (total, min) = (1200u64, 10u64);
        let n_rounds = rounds(total, arms.len(), min).unwrap();
        let mut left = total;
        for r in 0..n_rounds {
            let slices = next_round(&arms, left, n_rounds - r, min);
            assert_eq!(slices.len(), 3, "round {r}: {slices:?}");
            for (i, units) in slices {
                assert!(units >= min);
                left -= units;
                let finds = (units as f64 * find_rate[i]) as u64;
                arms[i].history.push(SliceResult { spent: units, finds });
            }
        }
        assert_eq!(left, 0);
        assert!(arms[0].spent() > arms[1].spent() && arms[1].spent() > arms[2].spent(), "{arms:?}");
        assert!(arms[2].spent() >= n_rounds * min);
    }
}
