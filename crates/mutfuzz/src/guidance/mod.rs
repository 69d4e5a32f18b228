//! Guidance: which inputs a campaign keeps, which it favours, and whether it runs
//! mutants at all. Each strategy is one implementation of [`Guidance`].

mod mu2;
mod zest;

pub use mu2::Mu2;
pub use zest::Zest;

/// What one trial found, as the guidance sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrialFacts {
    /// Sites the original hit on this input.
    pub sites: usize,
    /// Sites hit here that no saved input hit.
    pub new_sites: usize,
    /// Edges (SanitizerCoverage counters) the original hit on this input.
    pub edges: usize,
    /// Edges, or edge hit-count buckets, that no saved input reached.
    pub new_edges: usize,
    /// Mutants run on this input.
    pub mutants_run: usize,
    /// Mutants killed by this input that no saved input killed.
    pub new_kills: usize,
    /// Whether the original discarded the input.
    pub discarded: bool,
    /// Whether the original panicked (a failure).
    pub failed: bool,
}

/// Whether to keep an input, and whether to give it more children.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Add the input to the corpus.
    pub save: bool,
    /// Mark it favoured (the schedule gives favoured inputs more energy).
    pub favoured: bool,
}

/// A feedback strategy.
pub trait Guidance {
    /// Short name for reports (`coverage`, `mu2`).
    fn name(&self) -> &'static str;
    /// Whether trials run the surviving mutants whose sites the input hit.
    fn runs_mutants(&self) -> bool;
    /// Decides on one trial's input.
    fn judge(&mut self, facts: &TrialFacts) -> Verdict;
}

pub use mutfuzz_contract::GuidanceKind;

/// The strategy of a built-in kind.
pub fn build(kind: GuidanceKind) -> Box<dyn Guidance> {
    match kind {
        GuidanceKind::Coverage => Box::new(Zest),
        GuidanceKind::Mu2 => Box::new(Mu2),
    }
}
