//! The `infection` guidance's focus: a share of the parents chosen for a surviving
//! target rather than round-robin. Each saved input is remembered as an *infector* of
//! the live targets its recording run infected; a focused pick takes the next live
//! target in turn and one of its infectors at random, and the trial runs that target on
//! the child whenever the child infects it. So every infected survivor gets the same
//! attention, however many inputs infect it, and a target that many children infected
//! without a kill (likely equivalent) stops taking children after `cap`.

use crate::input::Rng;
use crate::mutants::MutantTable;

/// One parent in this many is a focused pick (when any target is live).
pub const FOCUS_EVERY: u32 = 2;
/// Children a target gets before focus gives up on it.
pub const FOCUS_CAP: u32 = 2000;
/// Infectors remembered per target; later ones replace a random one.
const INFECTORS_PER_TARGET: usize = 16;

/// Which saved inputs infect which live targets, and whose turn it is.
#[derive(Debug)]
pub struct Focus {
    /// Per mutant index: corpus indices of saved inputs that infected it.
    infectors: Vec<Vec<u32>>,
    /// Per mutant index: children made for it.
    tries: Vec<u32>,
    /// Targets with an infector, in the order they were first infected.
    turns: Vec<u32>,
    next: usize,
    tick: u32,
    every: u32,
    cap: u32,
}

impl Focus {
    /// Focus over a table of `mutants` mutants.
    pub fn new(mutants: usize, every: u32, cap: u32) -> Focus {
        Focus {
            infectors: vec![Vec::new(); mutants],
            tries: vec![0; mutants],
            turns: Vec::new(),
            next: 0,
            tick: 0,
            every: every.max(1),
            cap,
        }
    }

    /// Remembers corpus entry `entry` as an infector of the live targets `infected`
    /// (mutant indices: what `MutantTable::infected_targets` found in its run).
    pub fn saved(&mut self, entry: u32, infected: &[u32], rng: &mut Rng) {
        for &mi in infected {
            if self.tries[mi as usize] >= self.cap {
                continue;
            }
            let list = &mut self.infectors[mi as usize];
            if list.is_empty() {
                self.turns.push(mi);
            }
            if list.len() < INFECTORS_PER_TARGET {
                list.push(entry);
            } else {
                let slot = rng.below(list.len() as u64) as usize;
                list[slot] = entry;
            }
        }
    }

    /// The parent of the next child and the target it is chosen for (a mutant index),
    /// when it is focus's turn and a live target is left under its cap; `None` leaves
    /// the choice to the schedule.
    pub fn pick(&mut self, table: &MutantTable, rng: &mut Rng) -> Option<(usize, u32)> {
        self.tick += 1;
        if self.tick < self.every {
            return None;
        }
        self.tick = 0;
        while !self.turns.is_empty() {
            if self.next >= self.turns.len() {
                self.next = 0;
            }
            let mi = self.turns[self.next];
            if table.killed(mi).is_some() || self.tries[mi as usize] >= self.cap {
                // Killed or given up: out of the turns for good, so a pick stays O(1).
                self.turns.swap_remove(self.next);
                self.infectors[mi as usize] = Vec::new();
                continue;
            }
            self.next += 1;
            self.tries[mi as usize] += 1;
            let list = &self.infectors[mi as usize];
            return Some((list[rng.below(list.len() as u64) as usize] as usize, mi));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MutantInfo;
    use mutfuzz_contract::KillKind;

    #[test]
    fn focus_takes_turns_among_live_infected_targets_and_gives_up_at_the_cap() {
        // Site 1 holds probed mutants 1 and 2 (indices 0 and 1).
        let catalog =
            vec![MutantInfo { id: 1, site: 1, probe: true }, MutantInfo { id: 2, site: 1, probe: true }];
        let mut table = MutantTable::new(catalog).unwrap();
        let mut rng = Rng::new(0);
        let mut focus = Focus::new(table.len(), 1, 3);
        focus.saved(7, &[0], &mut rng);
        focus.saved(9, &[1], &mut rng);
        // Mutant 1's infector, then mutant 2's, in turn.
        let picks: Vec<_> = (0..4).map(|_| focus.pick(&table, &mut rng)).collect();
        assert_eq!(picks, [Some((7, 0)), Some((9, 1)), Some((7, 0)), Some((9, 1))]);
        // A killed target leaves the turns; the other stops at its cap of 3 children.
        table.kill(0, KillKind::OutputDiffers);
        assert_eq!(focus.pick(&table, &mut rng), Some((9, 1)));
        assert_eq!(focus.pick(&table, &mut rng), None);
    }
}
