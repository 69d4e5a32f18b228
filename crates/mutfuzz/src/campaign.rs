//! The campaign: Mu2's fuzz loop (Alg. 2) with execution pruning (Alg. 3) over one
//! target, trial after trial (building and resuming one: `setup.rs`).
//!
//! The loop only wires the strategies together: a [`Schedule`] picks the parent, an
//! [`Edit`] makes the child, the original runs once recording site hits and fuel, a
//! [`Selector`] chooses mutants from the [`MutantTable`] (by default the surviving ones
//! whose site was hit), they run within budgets derived from the original's usage, here
//! or in workers (`workers::Dispatch`), an [`Oracle`] judges them, and a [`Guidance`]
//! decides what to keep. The drift guard (`drift::DriftGuard`) checks that the process
//! stays clean, and `findings::Findings` keeps what was found. Buffers for the input
//! bytes and the mutants to run are reused across trials, and nothing on the trial path
//! takes a lock.

use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;
use std::time::{Duration, Instant};

use mutfuzz_contract::protocol::decode_hex;
use mutfuzz_contract::{
    DriftRecord, KillKind, KillLimit, KillRecord, NondeterministicRecord, RENDER_LIMIT, Stats,
};

use crate::config::CampaignConfig;
use crate::corpus::{Corpus, CorpusEntry};
use crate::coverage::EdgeMap;
use crate::drift::{DriftGuard, Sentinel, find_cause, read_drift, write_drift};
use crate::edit::Edit;
use crate::error::Error;
pub use crate::findings::Failure;
use crate::findings::Findings;
use crate::r#gen::Gen;
use crate::guidance::{Decision, Energy, Guidance, TrialFacts};
use crate::input::{Input, Rng, Source, Spans};
use crate::mutants::MutantTable;
use crate::oracle::{AnyOutput, Oracle, content_name};
use crate::schedule::{self, Focus, Next, Observation, ParentSpans, Schedule};
use crate::select::{Selector, TrialSites};
use crate::trial::{Executor, OriginalEnd, OriginalRun, RunGuard, judge};
use crate::workers::Dispatch;

mod setup;

/// Every this many trials the original runs twice on the input, saved or not: a sample
/// of how often the target gives two results (saved inputs are no sample: one that gives
/// two seems to kill whatever runs on it).
pub const DETERMINISM_SAMPLE: u64 = 32;

/// Sampled inputs a generated target may give two results on before it is judged by
/// panics and runaways alone (while they are also under a quarter of those sampled).
pub const DOUBTFUL_SAMPLES: u32 = 4;

/// The record of input `bytes`, on which the original ended as `first` and then as `second`.
fn disagreement<O: Debug>(
    bytes: &[u8],
    first: &OriginalEnd<O>,
    second: &OriginalEnd<O>,
) -> NondeterministicRecord {
    NondeterministicRecord {
        input: content_name(bytes),
        first: first.render_bounded(RENDER_LIMIT),
        second: second.render_bounded(RENDER_LIMIT),
    }
}

/// How often the original disagreed with itself (see [`Campaign::check_determinism`]).
#[derive(Clone, Copy, Debug, Default)]
struct Determinism {
    /// Inputs sampled, and those of them the original gave two results on.
    sampled: u32,
    sampled_noisy: u32,
    /// Inputs left out for giving two results.
    left_out: u32,
}

/// A kill found in the current trial, recorded only if its input is saved.
#[derive(Clone, Copy)]
struct PendingKill {
    mutant: u32,
    kind: KillKind,
    limit: Option<KillLimit>,
}

/// The buffers of one trial, reused across trials.
#[derive(Default)]
struct Scratch {
    /// The input's bytes (the next child is made in them).
    bytes: Vec<u8>,
    /// The mutants to run (indices into the table).
    to_run: Vec<u32>,
    /// The trial's first kills, kept only if the input is.
    pending: Vec<PendingKill>,
    /// The targets that this trial's original run infected in a class no saved input
    /// infected them in, with those classes (kept only when the guidance
    /// [tracks infections](Guidance::tracks_infections)).
    new_infected: Vec<(u32, u8)>,
    /// The live targets a saved input infects (for the focus).
    infected: Vec<u32>,
    /// The live target this trial's parent was chosen for by the focus.
    focused: Option<u32>,
    /// The spans of the last parent edited.
    parent_spans: ParentSpans,
}

/// A mutation-guided fuzzing campaign over one target.
///
/// `T` is the generated input type and `O` the target's output. The run-time switch is
/// process-global: run one campaign at a time per process.
///
/// ```
/// use mutfuzz::{Campaign, CampaignConfig, KillKind, MutantInfo};
///
/// // Schema code for `x > 9` with mutant 1 (`>=`), as mutfuzz-mutate writes it.
/// fn big(x: u8) -> bool {
///     let __m = mutfuzz_rt::enter();
///     let (l, r) = (&x, &9u8);
///     match mutfuzz_rt::at(__m, 1, 1) { 1 => l >= r, _ => l > r }
/// }
///
/// let mutants = vec![MutantInfo::new(1, 1)];
/// let mut campaign = Campaign::new(CampaignConfig::default(), mutants, big).unwrap();
/// campaign.run_trials(2000).unwrap();
/// // Only x == 9 tells `>` from `>=`; the campaign found it.
/// assert_eq!(campaign.kills()[0].kind, KillKind::OutputDiffers);
/// assert_eq!(campaign.stats().mutants_killed, 1);
/// ```
pub struct Campaign<T, O> {
    config: CampaignConfig,
    exec: Executor<T, O>,
    oracle: Box<dyn Oracle<O>>,
    /// The target was found nondeterministic: the oracle is [`AnyOutput`].
    any_output: bool,
    /// How often the original gave two results on one input.
    determinism: Determinism,
    guidance: Box<dyn Guidance>,
    schedule: Box<dyn Schedule>,
    /// The `infection` guidance's parents chosen for a live target.
    focus: Option<Focus>,
    edit: Box<dyn Edit>,
    selector: Box<dyn Selector>,
    rng: Rng,
    corpus: Corpus,
    seeds: VecDeque<Vec<u8>>,
    /// Resumed after a restart: how many mutants each stored input killed first (by
    /// content name), so that its replay keeps it as the killer it was.
    prior_kills: HashMap<String, u32>,
    table: MutantTable,
    /// Size of the run-time's site-hit table requested.
    n_ids: usize,
    findings: Findings,
    stats: Stats,
    scratch: Scratch,
    /// Where each mutant run goes: this process or a worker.
    dispatch: Dispatch,
    drift: DriftGuard<O>,
    events: Option<EventSink>,
    edges: EdgeMap,
}

type EventSink = Box<dyn FnMut(Event<'_>)>;

/// What a campaign is about to do, for a supervisor that must know what was running
/// if the process dies (see [`Campaign::with_events`]).
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// The original is about to run on this input.
    Trial(&'a [u8]),
    /// This mutant is about to run on the current trial's input.
    Mutant(u32),
    /// The original is about to run again on a saved input, only to record what the edit
    /// let go of (see [`Edit::needs_record`]): no trial, and it ran on that input before.
    RecordAgain,
    /// The (generated) target was found nondeterministic: from now on it is judged by
    /// panics and runaways only (see [`CampaignConfig::tolerate_nondeterminism`]).
    Nondeterministic(&'a NondeterministicRecord),
    /// The first input the (generated) target gave two results on, left out while such
    /// inputs are few: the target is judged by its outputs still.
    NondeterministicInput(&'a NondeterministicRecord),
}

impl<T: Gen, O: Debug + 'static> Campaign<T, O> {
    /// Runs `n` trials.
    ///
    /// While it runs, panics on this thread are captured instead of printed, and the
    /// run-time is set to panic (not exit) when a mutant exhausts a limit; the previous
    /// panic hook is restored and the original made active when it returns.
    pub fn run_trials(&mut self, n: u64) -> Result<(), Error> {
        let _quiet = RunGuard::start();
        for _ in 0..n {
            self.trial()?;
        }
        Ok(())
    }

    /// Runs trials until `duration` has passed (checked between trials), like
    /// [`run_trials`](Campaign::run_trials).
    pub fn run_for(&mut self, duration: Duration) -> Result<(), Error> {
        let _quiet = RunGuard::start();
        let deadline = Instant::now() + duration;
        while Instant::now() < deadline {
            self.trial()?;
        }
        Ok(())
    }

    /// One trial: Alg. 2's loop body.
    fn trial(&mut self) -> Result<(), Error> {
        let trial = self.stats.trials;
        self.stats.trials += 1;

        // Make an input.
        let (value, input, spans, replay) = self.next_input();

        // Run the original, recording the sites it hits, edges, fuel and depth.
        if let Some(events) = &mut self.events {
            events(Event::Trial(input.as_bytes()));
        }
        self.edges.reset();
        let original = self.exec.run_original(value, self.n_ids, &*self.oracle);
        let edges = self.edges.read();
        if self.drift.wants_sentinel() {
            self.take_sentinel(&input, &original)?;
        }
        let seen_before = self.table.seen_count();
        let new_sites = self.table.see(&original.hits);
        self.stats.mutants_seen += self.table.seen_count() - seen_before;
        // Read now, from the recording run's marks (mutant runs and drift checks follow).
        let new_infections = if self.guidance.tracks_infections() && self.config.background.is_none() {
            self.table.new_infections(&original.hits, &mut self.scratch.new_infected)
        } else {
            0
        };
        self.record_original_end(&input, &original.end, trial, replay.is_some())?;

        // Pick mutants and run them; the oracle judges each against the original.
        self.scratch.pending.clear();
        let (mutants_run, old_kills) = match replay {
            None if self.guidance.runs_mutants() => self.run_mutants(&input, &original, new_infections)?,
            _ => (0, 0),
        };

        // The guidance decides whether to keep the input; the schedule learns.
        let prior_kills = replay.unwrap_or(0);
        let facts = TrialFacts {
            sites: original.hits.len(),
            new_sites,
            edges: edges.edges,
            new_edges: edges.new,
            mutants_run,
            // Pending kills are of mutants no saved input killed; a replayed input's
            // are the ones it made before the restart (the guidance keeps it for them).
            new_kills: self.scratch.pending.len() + prior_kills as usize,
            new_infections,
            old_kills,
            discarded: matches!(original.end, OriginalEnd::Discarded),
            failed: matches!(original.end, OriginalEnd::Panicked { .. }),
        };
        let decision = self.guidance.decide(&facts);
        self.schedule.observe(&Observation {
            input: &input,
            spans: &spans,
            hits: &original.hits,
            edges: self.edges.last(),
            edge_hits: self.edges.last_hits(),
            new_kills: self.scratch.pending.len(),
            discarded: facts.discarded,
        });
        self.stats.queued = self.schedule.queued();
        self.stats.random_edits = self.schedule.random_edits();
        // Check every new corpus entry, and the first input (and, of a generated target,
        // a sample), so that a target whose output drifts is caught even when nothing
        // is saved.
        let sampled =
            trial == 0 || (self.config.tolerate_nondeterminism && trial.is_multiple_of(DETERMINISM_SAMPLE));
        if self.config.check_determinism
            && (decision.save || sampled)
            && !self.check_determinism(&input, &original, sampled)?
        {
            // Its kills (pending until kept) may be the other result's.
            self.scratch.bytes = input.into_bytes();
            return Ok(());
        }
        if !decision.save {
            // Kills count only for saved inputs (KILLED(P, corpus) in Alg. 2).
            self.scratch.bytes = input.into_bytes();
            return Ok(());
        }
        self.keep(input, spans, &original, &facts, decision, prior_kills)
    }

    /// The trial's input and the value it generates: a queued seed, or a child the
    /// schedule and the edit make (in the reused buffer). A seed of a resumed campaign is
    /// a replay (run with the original only): then with the kills its stored input made
    /// before the restart.
    fn next_input(&mut self) -> (T, Input, Spans, Option<u32>) {
        let mut bytes = std::mem::take(&mut self.scratch.bytes);
        self.scratch.focused = None;
        let mut rewrite = None;
        let mut replay = None;
        if let Some(seed) = self.seeds.pop_front() {
            if self.config.resumed {
                replay = Some(self.prior_kills.get(&content_name(&seed)).copied().unwrap_or(0));
            }
            bytes = seed;
        } else {
            let focused = self.focus.as_mut().and_then(|f| f.pick(&self.table, &mut self.rng));
            self.scratch.focused = focused.map(|(_, target)| target);
            let next = match focused {
                Some((parent, _)) => Next::Parent(parent),
                None => self.schedule.next(&self.corpus, &mut self.rng, &mut bytes),
            };
            if let Next::Parent(i) = next {
                self.record_again(i);
            }
            let (corpus, unpacked) = (&self.corpus, &mut self.scratch.parent_spans);
            rewrite =
                schedule::make_child(next, corpus, &mut *self.edit, unpacked, &mut self.rng, &mut bytes);
        }
        let mut src = Source::new(bytes, Rng::new(self.rng.next_u64()))
            .with_limits(self.config.limits)
            .with_spans(self.edit.needs_spans() || self.schedule.needs_spans())
            .with_dictionary(self.config.dictionary.clone());
        if let Some(rewrite) = rewrite {
            src = src.with_rewrite(rewrite);
        }
        let value = src.draw::<T>();
        let (input, spans) = src.into_input();
        (value, input, spans, replay)
    }

    /// Runs the original on saved input `index` again, recording, when the edit let go of
    /// what it read from the run that saved it (see [`Edit::needs_record`]).
    fn record_again(&mut self, index: usize) {
        let entry = &self.corpus.entries()[index];
        if !self.edit.needs_record(entry) {
            return;
        }
        if let Some(events) = &mut self.events {
            events(Event::RecordAgain);
        }
        self.exec.rerun_original(entry.input.as_bytes(), self.n_ids, &*self.oracle);
        self.edit.recorded(entry);
        self.stats.recorded_again += 1;
    }

    /// Takes the drift check's reference on the process's first input: no mutant ran
    /// here yet, so what the original gives now is clean, unless the target disagrees
    /// with itself (then it is no reference of drift).
    fn take_sentinel(&mut self, input: &Input, original: &OriginalRun<O>) -> Result<(), Error> {
        let sentinel = Sentinel::take(&mut self.exec, input.as_bytes(), &*self.oracle);
        let agrees = sentinel.end.agrees_with(&original.end, &*self.oracle)
            || self.tolerate(input.as_bytes(), &original.end, &sentinel.end)?;
        if agrees {
            self.drift.set_sentinel(sentinel);
        } else if self.config.check_determinism {
            return Err(Error::Nondeterministic {
                input: content_name(input.as_bytes()),
                bytes: input.as_bytes().to_vec(),
                first: original.end.render(),
                second: sentinel.end.render(),
            });
        } else {
            self.config.check_drift = false;
            self.drift.turn_off();
        }
        Ok(())
    }

    /// Counts how the original ended and records a panic: a failure, a panic by contract
    /// (a generated target; a replayed input's was recorded when first tried), or the
    /// background mutant's panic where the original does not panic.
    fn record_original_end(
        &mut self,
        input: &Input,
        end: &OriginalEnd<O>,
        trial: u64,
        replay: bool,
    ) -> Result<(), Error> {
        let OriginalEnd::Panicked { message, location } = end else {
            if matches!(end, OriginalEnd::Discarded) {
                self.stats.discards += 1;
            }
            return Ok(());
        };
        self.stats.panics += 1;
        if let Some(mutant) = self.config.background
            && !self.exec.original_panics(input.as_bytes())
        {
            let new =
                self.findings.record_mutant_panic(input, mutant, message.clone(), location.clone(), trial)?;
            if new {
                self.stats.mutant_panics += 1;
            }
        } else if self.config.panics_by_contract {
            if !replay {
                self.stats.contract_panics += 1;
                if !self.findings.knows_contract_panic(message) {
                    self.findings.record_contract_panic(input, message.clone(), location.clone())?;
                }
            }
        } else if !self.findings.knows_failure(message) {
            self.findings.record_failure(input, message.clone(), location.clone(), trial)?;
        }
        Ok(())
    }

    /// Selects the mutants to run on the trial's input, runs them within the budget of
    /// the original's fuel and depth, and puts the first kills in `pending`; then checks
    /// for drift. Returns how many ran and how many of them, killed before, were killed
    /// again.
    fn run_mutants(
        &mut self,
        input: &Input,
        original: &OriginalRun<O>,
        new_infections: usize,
    ) -> Result<(usize, usize), Error> {
        let to_run = &mut self.scratch.to_run;
        to_run.clear();
        self.stats.mutants_reached += self.table.surviving_at(&original.hits);
        let sites = TrialSites { hits: &original.hits, rerun_killed: self.guidance.reruns_killed() };
        self.selector.select(&sites, &self.table, &mut self.rng, to_run);
        // A mutant this input infects in a new way runs on it whatever the sample chose:
        // the sample prefers mutants that ran least, and one infected often before (in
        // another class) would wait while the input that may propagate it is at hand.
        // New infections are rare, so the trial's bound grows by a few runs at most.
        for &(mi, _) in &self.scratch.new_infected[..new_infections] {
            if !to_run.contains(&mi) {
                to_run.push(mi);
            }
        }
        // So does the target the focus chose this input's parent for, when the input
        // infects it: the sample would give it a run on a few of its children only (it
        // is infected often, so it has run often), and its children are made for it.
        if let Some(mi) = self.scratch.focused {
            let live = self.table.killed(mi).is_none() && mutfuzz_rt::infected(self.table.info(mi).id);
            if live && !to_run.contains(&mi) {
                to_run.push(mi);
            }
        }
        let bytes = input.as_bytes();
        let (fuel, depth) = self.config.budget.limits(original.fuel, original.depth);
        let (exec, oracle, events, drift) =
            (&mut self.exec, &*self.oracle, &mut self.events, &mut self.drift);
        self.dispatch.run(to_run, &self.table, bytes, fuel, depth, original.fuel, |id| {
            if let Some(events) = events {
                events(Event::Mutant(id));
            }
            let end = exec.run_mutant(id, bytes, fuel, depth);
            let verdict = judge(oracle, &original.end, &end);
            (verdict, drift.ran(id, verdict.is_some(), exec, oracle))
        });
        let mut old_kills = 0;
        for (&mi, verdict) in self.scratch.to_run.iter().zip(self.dispatch.verdicts()) {
            self.table.ran(mi);
            if let Some(Some((kind, limit))) = *verdict {
                if self.table.killed(mi).is_some() {
                    old_kills += 1;
                } else {
                    self.scratch.pending.push(PendingKill { mutant: mi, kind, limit });
                }
            }
        }
        if self.config.verify_pruning {
            self.verify_pruning(original, bytes, fuel, depth)?;
        }
        let mutants_run = self.scratch.to_run.len();
        self.stats.mutant_runs += mutants_run as u64;
        mutfuzz_rt::set_limits(u64::MAX, usize::MAX);
        // Before anything of this trial is kept: its verdicts may be false if drifted.
        self.drift.check(bytes, &mut self.exec, &*self.oracle, self.findings.store.as_ref())?;
        Ok((mutants_run, old_kills))
    }

    /// Keeps the trial's input: stores it, then its pending kills (first kills: each
    /// mutant ran once per trial), marks its sites covered and its new infections saved,
    /// and adds it to the corpus with the guidance's decision.
    fn keep(
        &mut self,
        mut input: Input,
        spans: Spans,
        original: &OriginalRun<O>,
        facts: &TrialFacts,
        decision: Decision,
        prior_kills: u32,
    ) -> Result<(), Error> {
        let trial = self.stats.trials - 1;
        let name = content_name(input.as_bytes());
        self.stats.edges = self.edges.keep_last();
        self.table.cover(&original.hits);
        // Whatever it was kept for, this input now infected them (killed ones included:
        // they are no longer candidates anyway).
        for &(mi, classes) in &self.scratch.new_infected[..facts.new_infections] {
            if self.table.infect_saved(mi, classes) {
                self.stats.mutants_infected += 1;
            }
        }
        self.findings.save_input(&name, input.as_bytes())?;
        for &PendingKill { mutant, kind, limit } in &self.scratch.pending {
            self.table.kill(mutant, kind);
            self.stats.mutants_killed = self.table.killed_count();
            let info = self.table.info(mutant);
            let record =
                KillRecord { mutant: info.id, site: info.site, kind, limit, input: name.clone(), trial };
            self.findings.append_kill(&record)?;
            self.findings.kills.push(record);
        }
        // The trial's vectors grew by doubling; a kept input lives as long as the campaign.
        input.shrink_to_fit();
        self.corpus.push(
            CorpusEntry {
                input,
                name,
                // Zest's energy scales with what an input covers: sites and edges alike.
                sites: (facts.sites + facts.edges) as u32,
                favoured: decision.favoured,
                energy: decision.energy,
                kills: self.scratch.pending.len() as u32 + prior_kills,
                trial,
            },
            spans,
        );
        if let Some(entry) = self.corpus.entries().last() {
            self.edit.saved(entry, &self.table);
        }
        if let Some(focus) = &mut self.focus {
            self.table.infected_targets(&original.hits, &mut self.scratch.infected);
            focus.saved(self.corpus.len() as u32 - 1, &self.scratch.infected, &mut self.rng);
        }
        self.stats.corpus = self.corpus.len();
        self.stats.favoured += usize::from(decision.favoured);
        self.stats.boosted += usize::from(matches!(decision.energy, Energy::Times(_)));
        self.stats.reduced += usize::from(matches!(decision.energy, Energy::DividedBy(_)));
        Ok(())
    }

    /// Runs every surviving target of a hit site that the original's run did not infect
    /// and that did not run: each must survive.
    fn verify_pruning(
        &mut self,
        original: &OriginalRun<O>,
        bytes: &[u8],
        fuel: u64,
        depth: usize,
    ) -> Result<(), Error> {
        for &site in &original.hits {
            for k in 0..self.table.at_site(site).len() {
                let mi = self.table.at_site(site)[k];
                let info = self.table.info(mi);
                let pruned = info.probe && !mutfuzz_rt::infected(info.id);
                let skipped = !self.table.is_target(mi) || self.table.killed(mi).is_some();
                if !pruned || skipped || self.scratch.to_run.contains(&mi) {
                    continue;
                }
                if let Some(events) = &mut self.events {
                    events(Event::Mutant(info.id));
                }
                let end = self.exec.run_mutant(info.id, bytes, fuel, depth);
                self.stats.pruned_verified += 1;
                if let Some((kind, _)) = judge(&*self.oracle, &original.end, &end) {
                    return Err(Error::UnsoundPruning { mutant: info.id, input: content_name(bytes), kind });
                }
            }
        }
        Ok(())
    }

    /// Settles a drift found by an earlier process (`drift.json`), in this clean one:
    /// runs each suspect alone on the trial's input, then the original on the sentinel
    /// input. The first suspect after which the original's result changes caused the
    /// drift: it is recorded killed (by its own verdict on the input if it has one, else
    /// by `crash`: it took the process's usefulness down, and never runs again), the
    /// input stored first, and [`Error::Drift`] returned, since this process has drifted
    /// too; `drift.json` keeps the suspects not yet run. When no suspect reproduces the
    /// drift, the file is removed and the campaign goes on.
    pub fn settle_drift(&mut self) -> Result<(), Error> {
        let Some(store) = &self.findings.store else { return Ok(()) };
        let path = store.files().drift();
        let Some(record) = read_drift(&path)? else { return Ok(write_drift(&path, None)?) };
        let Some(input) = decode_hex(&record.input) else { return Ok(write_drift(&path, None)?) };
        let _quiet = RunGuard::start();
        if let Some(events) = &mut self.events {
            events(Event::Trial(&input));
        }
        let events = &mut self.events;
        let cause =
            find_cause(&mut self.exec, &*self.oracle, &record, self.n_ids, self.config.budget, &mut |id| {
                if let Some(events) = events {
                    events(Event::Mutant(id));
                }
            });
        let Some(cause) = cause else { return Ok(write_drift(&path, None)?) };
        let Some(&mi) = self.table.index_by_id().get(&cause.mutant) else {
            return Ok(write_drift(&path, None)?);
        };
        let (kind, limit) = match cause.verdict {
            Some((kind, limit)) if self.table.killed(mi).is_none() => (kind, limit),
            _ => (KillKind::Crash, None),
        };
        let name = content_name(&input);
        let info = self.table.info(mi);
        let kill = KillRecord {
            mutant: info.id,
            site: info.site,
            kind,
            limit,
            input: name.clone(),
            trial: self.stats.trials,
        };
        // The input first: a kill record never names an input that is not stored.
        self.findings.save_input(&name, &input)?;
        self.findings.append_kill(&kill)?;
        if self.table.kill(mi, kind) {
            self.stats.mutants_killed = self.table.killed_count();
            self.findings.kills.push(kill);
        } else {
            self.table.ended_process(mi, kind);
        }
        let rest = DriftRecord { suspects: record.suspects[cause.position + 1..].to_vec(), ..record };
        write_drift(&path, Some(&rest))?;
        let (recorded, now) = cause.results;
        Err(Error::Drift { suspects: vec![cause.mutant], recorded, now })
    }

    /// Runs the original on `input` again: whether it gave the same result, so that the
    /// input may be kept. A generated target that gives two results on a few inputs (a
    /// multimap whose iteration stops early at a key with no values, wherever the hash
    /// order puts it) loses those inputs only; once they are many among the `sampled`
    /// ones (a quarter, and at least [`DOUBTFUL_SAMPLES`]) it is judged by panics and
    /// runaways alone ([`Campaign::tolerate`]). After one such input, one agreement is
    /// weak evidence: each input is run twice more.
    fn check_determinism(
        &mut self,
        input: &Input,
        original: &OriginalRun<O>,
        sampled: bool,
    ) -> Result<bool, Error> {
        let doubted = self.determinism.left_out > 0 && !self.any_output;
        self.determinism.sampled += u32::from(sampled);
        for _ in 0..if doubted { 3 } else { 1 } {
            let again = self.exec.rerun_original(input.as_bytes(), self.n_ids, &*self.oracle);
            if original.end.agrees_with(&again.end, &*self.oracle) {
                continue;
            }
            self.determinism.sampled_noisy += u32::from(sampled);
            if self.leave_out(input.as_bytes(), &original.end, &again.end) {
                return Ok(false);
            }
            if self.tolerate(input.as_bytes(), &original.end, &again.end)? {
                return Ok(true);
            }
            return Err(Error::Nondeterministic {
                input: content_name(input.as_bytes()),
                bytes: input.as_bytes().to_vec(),
                first: original.end.render(),
                second: again.end.render(),
            });
        }
        Ok(true)
    }

    /// Whether the input the original ended on as `first` and then as `second` is left
    /// out alone (see [`Campaign::check_determinism`]); the first one left out is told.
    fn leave_out(&mut self, bytes: &[u8], first: &OriginalEnd<O>, second: &OriginalEnd<O>) -> bool {
        let d = &self.determinism;
        let many = d.sampled_noisy >= DOUBTFUL_SAMPLES && d.sampled_noisy * 4 >= d.sampled;
        if many || !self.tolerable(first, second) {
            return false;
        }
        self.determinism.left_out += 1;
        if self.determinism.left_out == 1
            && let Some(events) = &mut self.events
        {
            events(Event::NondeterministicInput(&disagreement(bytes, first, second)));
        }
        true
    }

    /// Whether two runs of the original that disagree may be tolerated: the target is
    /// generated, both returned, and outputs are still compared.
    fn tolerable(&self, first: &OriginalEnd<O>, second: &OriginalEnd<O>) -> bool {
        let both_returned =
            matches!((first, second), (OriginalEnd::Returned { .. }, OriginalEnd::Returned { .. }));
        self.config.tolerate_nondeterminism && both_returned && !self.any_output
    }

    /// The original ended as `first` and then as `second` on `bytes`, which the oracle
    /// says disagree. For a generated target whose two runs both returned, that is
    /// tolerated (see [`CampaignConfig::tolerate_nondeterminism`]): the oracle becomes
    /// [`AnyOutput`] for good, the record is written and the event sent; returns whether
    /// it was. Runs that disagree on a panic or a discard cannot be judged at all.
    fn tolerate(
        &mut self,
        bytes: &[u8],
        first: &OriginalEnd<O>,
        second: &OriginalEnd<O>,
    ) -> Result<bool, Error> {
        if !self.tolerable(first, second) {
            return Ok(false);
        }
        let record = disagreement(bytes, first, second);
        // The input first: the record names it.
        self.findings.save_input(&record.input, bytes)?;
        if let Some(store) = &self.findings.store {
            record.write(&store.files().nondeterministic())?;
        }
        self.judge_any_output();
        if let Some(events) = &mut self.events {
            events(Event::Nondeterministic(&record));
        }
        Ok(true)
    }

    /// From now on any two returned outputs agree, here and in the workers; this trial's
    /// kills by output are no kills then.
    fn judge_any_output(&mut self) {
        self.scratch.pending.retain(|k| k.kind != KillKind::OutputDiffers);
        self.any_output = true;
        self.oracle = Box::new(AnyOutput);
        self.dispatch.judge_any_output();
    }
}
