//! Mu2's guidance (Alg. 2): keep inputs that add coverage or kill a mutant that no
//! saved input killed, and favour the killers.

use super::{Energy, Guidance, TrialFacts, Verdict};

/// Mutation-analysis feedback: save on new site coverage or a new kill; favour killers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mu2;

impl Guidance for Mu2 {
    fn name(&self) -> &'static str {
        "mu2"
    }

    fn runs_mutants(&self) -> bool {
        true
    }

    fn judge(&mut self, facts: &TrialFacts) -> Verdict {
        Verdict {
            save: facts.new_sites > 0 || facts.new_edges > 0 || facts.new_kills > 0,
            favoured: facts.new_kills > 0,
            energy: Energy::Zest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guidance::Zest;

    #[test]
    fn mu2_saves_on_coverage_or_kills_and_favours_only_killers() {
        let mut g = Mu2;
        let f = |new_sites, new_kills| TrialFacts { new_sites, new_kills, ..TrialFacts::default() };
        assert_eq!(g.judge(&f(0, 0)), Verdict { save: false, favoured: false, energy: Energy::Zest });
        assert_eq!(g.judge(&f(1, 0)), Verdict { save: true, favoured: false, energy: Energy::Zest });
        assert_eq!(g.judge(&f(0, 2)), Verdict { save: true, favoured: true, energy: Energy::Zest });
        assert!(g.runs_mutants());
    }

    #[test]
    fn zest_saves_on_coverage_only_and_runs_no_mutants() {
        let mut g = Zest;
        let f = |new_sites, new_kills| TrialFacts { new_sites, new_kills, ..TrialFacts::default() };
        assert!(!g.judge(&f(0, 3)).save);
        assert!(g.judge(&f(2, 0)).save);
        assert!(!g.runs_mutants());
    }
}
