//! Zest's coverage-only guidance (the baseline): keep inputs that hit a new site or edge.

use super::{Decision, Energy, Guidance, TrialFacts};

/// Coverage-only feedback: save an input when it hits a site, an edge, or an edge's
/// hit-count bucket that no saved input hit.
///
/// Zest favours every input that is "responsible" for some coverage; since each saved
/// input here starts responsible for its new sites, that favours all of them alike,
/// so nothing is marked favoured.
#[derive(Clone, Copy, Debug, Default)]
pub struct Zest;

impl Guidance for Zest {
    fn name(&self) -> &'static str {
        "coverage"
    }

    fn runs_mutants(&self) -> bool {
        false
    }

    fn decide(&mut self, facts: &TrialFacts) -> Decision {
        Decision { save: facts.new_sites > 0 || facts.new_edges > 0, favoured: false, energy: Energy::Zest }
    }
}
