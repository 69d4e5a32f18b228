//! The `infection` guidance: Mu2's, plus feedback from the infection probes. An input
//! that infects a surviving target in a class no saved input infected it in (a new
//! mutant, or a known one whose value now differs the other way: a condition made true
//! instead of false, a number made higher instead of lower, an overflow) is kept, even
//! when it kills nothing and reaches no new code, and gets more children: it took the
//! mutant one step of three (reach, infect, propagate) further, or along a new path,
//! and its children are where a propagating input is likeliest to be.
//!
//! Only mutants whose site has a probe count: an unprobed mutant "infected" is only
//! "reached", which coverage already rewards. The campaign counts the new infections
//! (`TrialFacts::new_infections`) from the run-time's marks, as infection pruning reads
//! them, and remembers the infected mutants of every saved input in the `MutantTable`.
//! Beside this decision, the campaign gives a share of the parents to the live targets
//! in turn, each from the saved inputs that infect it ([`crate::schedule::Focus`]).

use super::{Decision, Energy, Guidance, TrialFacts};

/// How many times more children an input gets that infects a target no saved input
/// infected (and kills none). Below Mu2's kill factor: an infection is a weaker promise
/// than a kill, and with a large factor the many inputs that each infect one of a few
/// hundred mutants would take every child from the rest of the corpus.
pub const INFECT_FACTOR: u32 = 2;

/// Mu2's feedback plus new infections: save on new coverage, a new kill or a new
/// infection; killers get `kill_factor` times the children, other new infectors
/// `infect_factor` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Infection {
    /// The factor on a killer's children.
    pub kill_factor: u32,
    /// The factor on the children of an input that infects a new target and kills none.
    pub infect_factor: u32,
}

impl Guidance for Infection {
    fn name(&self) -> &'static str {
        "infection"
    }

    fn runs_mutants(&self) -> bool {
        true
    }

    fn tracks_infections(&self) -> bool {
        true
    }

    fn decide(&mut self, facts: &TrialFacts) -> Decision {
        let factor = if facts.new_kills > 0 {
            self.kill_factor
        } else if facts.new_infections > 0 {
            self.infect_factor
        } else {
            1
        };
        Decision {
            save: facts.new_sites > 0
                || facts.new_edges > 0
                || facts.new_kills > 0
                || facts.new_infections > 0,
            favoured: false,
            energy: if factor > 1 { Energy::Times(factor) } else { Energy::Zest },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guidance::{GuidanceKind, build};

    fn facts(new_edges: usize, new_kills: usize, new_infections: usize) -> TrialFacts {
        TrialFacts { new_edges, new_kills, new_infections, ..TrialFacts::default() }
    }

    fn decision(save: bool, energy: Energy) -> Decision {
        Decision { save, favoured: false, energy }
    }

    #[test]
    fn a_new_infection_alone_keeps_an_input_with_the_infect_factor() {
        let mut g = Infection { kill_factor: 4, infect_factor: 2 };
        assert_eq!(g.decide(&facts(0, 0, 0)), decision(false, Energy::Zest));
        assert_eq!(g.decide(&facts(0, 0, 1)), decision(true, Energy::Times(2)));
        assert_eq!(g.decide(&facts(3, 0, 2)), decision(true, Energy::Times(2)), "coverage and infection");
        // Coverage only, as Mu2: kept with the schedule's energy.
        assert_eq!(g.decide(&facts(1, 0, 0)), decision(true, Energy::Zest));
        assert!(g.runs_mutants() && g.tracks_infections() && !g.reruns_killed());
    }

    #[test]
    fn a_kill_takes_the_kill_factor_whatever_it_infects() {
        let mut g = Infection { kill_factor: 4, infect_factor: 2 };
        assert_eq!(g.decide(&facts(0, 1, 0)), decision(true, Energy::Times(4)));
        assert_eq!(g.decide(&facts(0, 1, 5)), decision(true, Energy::Times(4)));
        // Factors of one keep the inputs without more children.
        let mut g = Infection { kill_factor: 1, infect_factor: 1 };
        assert_eq!(g.decide(&facts(0, 0, 1)), decision(true, Energy::Zest));
        assert_eq!(g.decide(&facts(0, 1, 0)), decision(true, Energy::Zest));
    }

    #[test]
    fn the_built_kind_has_mu2s_kill_factor_and_the_default_infect_factor() {
        let mut g = build(GuidanceKind::Infection, None, None);
        assert_eq!(g.name(), "infection");
        assert_eq!(g.decide(&facts(0, 1, 0)).energy, Energy::Times(crate::guidance::MU2_KILL_FACTOR));
        assert_eq!(g.decide(&facts(0, 0, 1)).energy, Energy::Times(INFECT_FACTOR));
        let mut g = build(GuidanceKind::Infection, Some(6), Some(3));
        assert_eq!(g.decide(&facts(0, 0, 1)).energy, Energy::Times(3));
        // Only the infection guidance asks the campaign for infections.
        for kind in [GuidanceKind::Mu2, GuidanceKind::Coverage, GuidanceKind::MuzestP, GuidanceKind::MuzestN]
        {
            assert!(!build(kind, None, Some(3)).tracks_infections(), "{kind}");
        }
    }
}
