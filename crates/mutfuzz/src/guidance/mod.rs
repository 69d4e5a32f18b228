//! Guidance: which inputs a campaign keeps, which it favours, and whether it runs
//! mutants at all. Each strategy is one implementation of [`Guidance`].

mod infection;
mod mu2;
mod muzest;
mod zest;

pub use infection::{INFECT_FACTOR, Infection};
pub use mu2::{MU2_KILL_FACTOR, Mu2};
pub use muzest::{KILL_FACTOR, MuZest};
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
    /// Surviving targets with a probe that the original's run on this input infected in
    /// a class no saved input infected them in (counted only for a guidance that
    /// [tracks infections](Guidance::tracks_infections)).
    pub new_infections: usize,
    /// Mutants killed by this input that a saved input had killed already (only for a
    /// guidance that [re-runs killed mutants](Guidance::reruns_killed)).
    pub old_kills: usize,
    /// Whether the original discarded the input.
    pub discarded: bool,
    /// Whether the original panicked (a failure).
    pub failed: bool,
}

/// Whether to keep an input, and whether to give it more children.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    /// Add the input to the corpus.
    pub save: bool,
    /// Mark it favoured (the schedule gives favoured inputs more energy).
    pub favoured: bool,
    /// How its number of children differs from what the schedule would give it.
    pub energy: Energy,
}

/// A saved input's number of children relative to the schedule's (μZest's KILL_FACTOR).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Energy {
    /// What the schedule gives it.
    #[default]
    Zest,
    /// That many times more.
    Times(u32),
    /// That many times fewer (at least one).
    DividedBy(u32),
}

impl Energy {
    /// `children` scaled: never below one.
    pub fn apply(self, children: u64) -> u64 {
        match self {
            Energy::Zest => children,
            Energy::Times(k) => children.saturating_mul(u64::from(k)),
            Energy::DividedBy(k) => (children / u64::from(k.max(1))).max(1),
        }
    }
}

/// A feedback strategy.
pub trait Guidance {
    /// Short name for reports (`coverage`, `mu2`).
    fn name(&self) -> &'static str;
    /// Whether trials run the surviving mutants whose sites the input hit.
    fn runs_mutants(&self) -> bool;
    /// Whether trials also run mutants that a saved input already killed (μZest rewards
    /// inputs that kill them again).
    fn reruns_killed(&self) -> bool {
        false
    }
    /// Whether the campaign counts each trial's [new infections](TrialFacts::new_infections)
    /// (a walk over the mutants of the sites hit, as infection pruning makes).
    fn tracks_infections(&self) -> bool {
        false
    }
    /// Decides on one trial's input.
    fn decide(&mut self, facts: &TrialFacts) -> Decision;
}

pub use mutfuzz_contract::GuidanceKind;

/// The factor on a killer's children that `kind` uses when none is given.
pub fn default_kill_factor(kind: GuidanceKind) -> u32 {
    match kind {
        GuidanceKind::Mu2 | GuidanceKind::Infection => MU2_KILL_FACTOR,
        _ => KILL_FACTOR,
    }
}

/// The strategy of a built-in kind; `kill_factor` multiplies the children of an input
/// that kills (`None`: the kind's [`default_kill_factor`]; Zest has no use for it), and
/// `infect_factor` those of an input that infects a new target (`infection` only;
/// `None`: [`INFECT_FACTOR`]).
pub fn build(kind: GuidanceKind, kill_factor: Option<u32>, infect_factor: Option<u32>) -> Box<dyn Guidance> {
    let kill_factor = kill_factor.unwrap_or(default_kill_factor(kind));
    match kind {
        GuidanceKind::Coverage => Box::new(Zest),
        GuidanceKind::Mu2 => Box::new(Mu2 { kill_factor }),
        GuidanceKind::MuzestP => Box::new(MuZest { positive: true, kill_factor }),
        GuidanceKind::MuzestN => Box::new(MuZest { positive: false, kill_factor }),
        GuidanceKind::Infection => {
            Box::new(Infection { kill_factor, infect_factor: infect_factor.unwrap_or(INFECT_FACTOR) })
        }
    }
}
