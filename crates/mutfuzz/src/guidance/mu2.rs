//! Mu2's guidance (Alg. 2): keep inputs that add coverage or kill a mutant that no
//! saved input killed, and give the killers more children.

use super::{Decision, Energy, Guidance, TrialFacts};

/// How many times more children Mu2 gives an input that killed a new mutant. The Mu2
/// paper favours killers with Zest's 20 (`--kill-factor 20`): on the minilang example,
/// where about half the corpus kills (1,514 of 3,099 inputs in 60 s), that made one round
/// of the corpus about ten times the children, and 60 s campaigns reached fewer mutants (killed 3,565 and
/// 3,711 on two seeds, against 3,740 and 3,714 with 4, and 3,671 and 3,613 with 1).
pub const MU2_KILL_FACTOR: u32 = 4;

/// Mutation-analysis feedback: save on new coverage or a new kill; killers get
/// `kill_factor` times the children.
#[derive(Clone, Copy, Debug)]
pub struct Mu2 {
    /// The factor on a killer's children (1: as many as any input).
    pub kill_factor: u32,
}

impl Default for Mu2 {
    fn default() -> Self {
        Mu2 { kill_factor: MU2_KILL_FACTOR }
    }
}

impl Guidance for Mu2 {
    fn name(&self) -> &'static str {
        "mu2"
    }

    fn runs_mutants(&self) -> bool {
        true
    }

    fn decide(&mut self, facts: &TrialFacts) -> Decision {
        let killer = facts.new_kills > 0 && self.kill_factor > 1;
        Decision {
            save: facts.new_sites > 0 || facts.new_edges > 0 || facts.new_kills > 0,
            favoured: false,
            energy: if killer { Energy::Times(self.kill_factor) } else { Energy::Zest },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guidance::Zest;

    #[test]
    fn mu2_saves_on_coverage_or_kills_and_multiplies_only_the_children_of_killers() {
        let mut g = Mu2 { kill_factor: 5 };
        let f = |new_sites, new_kills| TrialFacts { new_sites, new_kills, ..TrialFacts::default() };
        assert_eq!(g.decide(&f(0, 0)), Decision { save: false, favoured: false, energy: Energy::Zest });
        assert_eq!(g.decide(&f(1, 0)), Decision { save: true, favoured: false, energy: Energy::Zest });
        assert_eq!(g.decide(&f(0, 2)), Decision { save: true, favoured: false, energy: Energy::Times(5) });
        assert!(g.runs_mutants());
        // A factor of one keeps killers without more children.
        let mut g = Mu2 { kill_factor: 1 };
        assert_eq!(g.decide(&f(0, 2)), Decision { save: true, favoured: false, energy: Energy::Zest });
    }

    #[test]
    fn zest_saves_on_coverage_only_and_runs_no_mutants() {
        let mut g = Zest;
        let f = |new_sites, new_kills| TrialFacts { new_sites, new_kills, ..TrialFacts::default() };
        assert!(!g.decide(&f(0, 3)).save);
        assert!(g.decide(&f(2, 0)).save);
        assert!(!g.runs_mutants());
    }
}
