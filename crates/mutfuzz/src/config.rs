//! A campaign's settings ([`CampaignConfig`]): the strategies, budgets, checks and
//! where its records go.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use mutfuzz_contract::{Budget, Isolate};

use crate::edit::EditKind;
use crate::guidance::GuidanceKind;
use crate::input::{Dictionary, Limits};
use crate::schedule::ScheduleKind;
use crate::select::Prune;

/// Mutant runs × the original's fuel below which a trial runs its mutants in this
/// process only, even with workers.
pub const PARALLEL_MIN_WORK: u64 = 50_000;

/// Mutants a μZest trial samples when no sample size is configured (the μZest paper's 10).
pub const MUZEST_SAMPLE: usize = 10;

/// Settings of a campaign.
#[derive(Clone, Debug)]
pub struct CampaignConfig {
    /// Seed of every random choice: the same seed and trial count give the same run.
    pub seed: u64,
    /// The feedback strategy.
    pub guidance: GuidanceKind,
    /// How children are made from parents.
    pub edit: EditKind,
    /// Which inputs are edited, and how often.
    pub schedule: ScheduleKind,
    /// Where to write the corpus and records as they are found; `None` keeps them in memory only.
    pub dir: Option<PathBuf>,
    /// Where saved inputs go, if not `dir/corpus`.
    pub corpus_dir: Option<PathBuf>,
    /// Size and depth budget of generated values.
    pub limits: Limits,
    /// Fuel and depth bounds of mutant runs.
    pub budget: Budget,
    /// Which surviving mutants of the sites a trial reaches run (Mu2's pruning).
    pub prune: Prune,
    /// Run at most this many of the selected mutants per trial, chosen at random (μZest's k);
    /// `Some(0)` runs them all. A μZest guidance, which also re-runs killed mutants,
    /// samples [`MUZEST_SAMPLE`] when this is `None`, as the μZest paper's evaluation does.
    pub sample: Option<usize>,
    /// How many times more children an input that kills gets (μZest's KILL_FACTOR;
    /// `muzest-n` also gives that many times fewer to inputs that kill only old mutants).
    /// `None`: the guidance's own ([`crate::guidance::default_kill_factor`]).
    pub kill_factor: Option<u32>,
    /// With workers, a trial runs its mutants in parallel only when their number times the
    /// original's fuel reaches this (see [`PARALLEL_MIN_WORK`]).
    pub parallel_min_work: u64,
    /// "First, fuzz the mutants": this mutant stands in for the original in every run, and
    /// the campaign is coverage-guided (no mutant runs, no site hits). Inputs on which it
    /// panics and the original does not are kept apart in `mutant-panics/`.
    pub background: Option<u32>,
    /// Also run every mutant that infection pruning skipped, and stop with
    /// [`Error::UnsoundPruning`](crate::Error::UnsoundPruning) if one is killed (a check of the probes, for tests and
    /// benchmarks; it costs every pruned run).
    pub verify_pruning: bool,
    /// Which mutant runs go to a worker process, when there are workers, so that a
    /// mutant that takes its process down (abort, out of memory) costs a worker and not
    /// this process with its corpus and coverage.
    pub isolate: Isolate,
    /// Re-run the original on the first input and on every new corpus entry, and stop
    /// with [`Error::Nondeterministic`](crate::Error::Nondeterministic) if it disagrees with itself.
    pub check_determinism: bool,
    /// After every trial that ran mutants in this process, re-run the original on the
    /// process's first input and stop with [`Error::Drift`](crate::Error::Drift) if its result changed (a
    /// mutant changed global state that outlives its run).
    pub check_drift: bool,
    /// The campaign goes on after its harness was restarted (a mutant crashed or hung):
    /// the stored corpus it loads as seeds is replayed with the original only, to rebuild
    /// coverage, since its mutants ran when those inputs were first tried and their kills
    /// are in the kills file. Otherwise (a first start) seeds run mutants like any input.
    pub resumed: bool,
    /// The target is generated from a public API (`cargo mutfuzz init --auto`): a panic
    /// of the original is that input's outcome by contract (mutants are judged against its
    /// message), recorded once per message in `contract-panics.jsonl` and counted in
    /// [`Stats::contract_panics`](crate::Stats::contract_panics), never a [`Failure`](crate::Failure).
    pub panics_by_contract: bool,
    /// The target is generated: when the original returns two different outputs on one
    /// input, the campaign does not stop with [`Error::Nondeterministic`](crate::Error::Nondeterministic). While such
    /// inputs are few among a sample of all it leaves them out, saying so once
    /// ([`Event::NondeterministicInput`](crate::Event::NondeterministicInput)); on the first input, or once they are
    /// many, it judges by panics and runaways only from then on ([`AnyOutput`](crate::AnyOutput)), says so once
    /// ([`Event::Nondeterministic`](crate::Event::Nondeterministic)) and keeps that in `nondeterministic.json`.
    pub tolerate_nondeterminism: bool,
    /// The ids of the mutants the campaign is about (`--mutants-file`): no other mutant
    /// is ever selected to run, and the counts ([`Stats::mutants_total`](crate::Stats::mutants_total), `_seen`,
    /// `_killed`, `_reached`) are of these only. Ids not in the catalog are ignored.
    /// `None`: every mutant of the catalog.
    pub targets: Option<Arc<BTreeSet<u32>>>,
    /// How many times more children an input gets that infects a target no saved input
    /// infected (the `infection` guidance; `None`: [`crate::guidance::INFECT_FACTOR`]).
    pub infect_factor: Option<u32>,
    /// One parent in this many is chosen for a live target under the `infection`
    /// guidance (`None`: [`crate::schedule::FOCUS_EVERY`]; 0: never).
    pub focus: Option<u32>,
    /// Literals of the code under test that fresh strings, chars and integers are drawn
    /// from, with the dictionary's probability (edits use them through
    /// [`Informed`](crate::edit::Informed)).
    pub dictionary: Option<Arc<Dictionary>>,
}

impl Default for CampaignConfig {
    fn default() -> Self {
        CampaignConfig {
            seed: 0,
            guidance: GuidanceKind::Mu2,
            edit: EditKind::default(),
            schedule: ScheduleKind::default(),
            dir: None,
            corpus_dir: None,
            limits: Limits::default(),
            budget: Budget::default(),
            prune: Prune::default(),
            sample: None,
            kill_factor: None,
            background: None,
            parallel_min_work: PARALLEL_MIN_WORK,
            verify_pruning: false,
            isolate: Isolate::FirstRuns,
            check_determinism: true,
            check_drift: true,
            resumed: false,
            panics_by_contract: false,
            tolerate_nondeterminism: false,
            dictionary: None,
            targets: None,
            infect_factor: None,
            focus: None,
        }
    }
}
