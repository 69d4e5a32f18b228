//! μZest (P-μZest and N-μZest, Alg. 3 and 4 of the μZest paper): trials also run mutants
//! killed before, and a kept input's number of children is multiplied or divided by
//! KILL_FACTOR according to what it killed.
//!
//! Inputs are kept as Mu2 keeps them (new sites, edges or kills). The paper's Alg. 3 also
//! keeps every input that kills an *old* mutant; where some mutant dies on nearly every
//! input that keeps nearly every input (2,262 of 3,000 trials on the json-lite example),
//! so here such kills only set the energy of inputs kept for other reasons.

use super::{Decision, Energy, Guidance, TrialFacts};

/// KILL_FACTOR of the μZest paper: Zest's multiplier for favoured inputs.
pub const KILL_FACTOR: u32 = 20;

/// P-μZest (`positive`) or N-μZest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MuZest {
    /// P-μZest rewards every kill; N-μZest rewards new kills and penalises old ones.
    pub positive: bool,
    /// The factor on the number of children.
    pub kill_factor: u32,
}

impl Guidance for MuZest {
    fn name(&self) -> &'static str {
        if self.positive { "muzest-p" } else { "muzest-n" }
    }

    fn runs_mutants(&self) -> bool {
        true
    }

    fn reruns_killed(&self) -> bool {
        true
    }

    fn decide(&mut self, facts: &TrialFacts) -> Decision {
        let kills = facts.new_kills + facts.old_kills;
        let energy = match (self.positive, facts.new_kills > 0, kills > 0) {
            (true, _, true) | (false, true, _) => Energy::Times(self.kill_factor),
            (false, false, true) => Energy::DividedBy(self.kill_factor),
            _ => Energy::Zest,
        };
        Decision {
            save: facts.new_sites > 0 || facts.new_edges > 0 || facts.new_kills > 0,
            favoured: false,
            energy,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(new_edges: usize, new_kills: usize, old_kills: usize) -> TrialFacts {
        TrialFacts { new_edges, new_kills, old_kills, ..TrialFacts::default() }
    }

    #[test]
    fn p_muzest_rewards_any_kill_and_n_muzest_only_new_ones() {
        let mut p = MuZest { positive: true, kill_factor: 20 };
        let mut n = MuZest { positive: false, kill_factor: 20 };
        // Coverage only: kept with Zest's energy by both.
        for g in [&mut p, &mut n] {
            assert_eq!(
                g.decide(&facts(1, 0, 0)),
                Decision { save: true, favoured: false, energy: Energy::Zest }
            );
            assert!(!g.decide(&facts(0, 0, 0)).save);
            assert!(g.reruns_killed() && g.runs_mutants());
        }
        // Kills only old mutants: not kept for that alone; P rewards, N penalises.
        assert_eq!(p.decide(&facts(1, 0, 2)).energy, Energy::Times(20));
        assert_eq!(n.decide(&facts(1, 0, 2)).energy, Energy::DividedBy(20));
        assert!(!n.decide(&facts(0, 0, 2)).save && !p.decide(&facts(0, 0, 2)).save);
        // Kills a new mutant: both reward.
        assert_eq!(p.decide(&facts(0, 1, 1)).energy, Energy::Times(20));
        assert_eq!(n.decide(&facts(0, 1, 1)).energy, Energy::Times(20));
        assert_eq!((p.name(), n.name()), ("muzest-p", "muzest-n"));
    }
}
