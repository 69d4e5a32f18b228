//! Building a campaign (its strategies, workers and events), resuming it from its
//! directory, and what it tells about itself.

use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;
use std::sync::Arc;

use mutfuzz_contract::{KillRecord, NondeterministicRecord, Stats, read_jsonl};

use super::{Campaign, Determinism, Event, Scratch};
use crate::config::{CampaignConfig, MUZEST_SAMPLE};
use crate::corpus::{Corpus, HELD_INPUTS, Respan};
use crate::coverage::EdgeMap;
use crate::drift::DriftGuard;
use crate::edit::Edit;
use crate::error::Error;
use crate::findings::{Failure, Findings};
use crate::r#gen::Gen;
use crate::guidance::{self, Guidance, GuidanceKind};
use crate::input::{Limits, Rng, Source};
use crate::mutants::{MutantInfo, MutantStatus, MutantTable};
use crate::oracle::{Compare, DebugHash, Oracle};
use crate::schedule::{self, FOCUS_CAP, FOCUS_EVERY, Focus, Schedule};
use crate::select::{self, Selector};
use crate::trial::Executor;
use crate::workers::{Dispatch, Workers};

/// Generates a saved input's spans again, as the campaign recorded them: its value drawn
/// from its bytes under the same limits. A saved input's bytes are all its choices, so
/// nothing is drawn fresh.
fn respan<T: Gen>(limits: Limits) -> Respan {
    Arc::new(move |bytes: &[u8]| {
        let mut src = Source::new(bytes, Rng::new(0)).with_limits(limits);
        drop(src.draw::<T>());
        src.into_input().1
    })
}

/// Smallest site-hit table the campaign asks the run-time for. The run-time sizes its
/// table once per process, so a generous first size lets later campaigns in the same
/// process (with larger catalogs) still record every site.
const MIN_SITE_TABLE: usize = 1024;

impl<T: Gen, O: Debug + 'static> Campaign<T, O> {
    /// A campaign over `target`, which consumes its input value.
    pub fn new(
        config: CampaignConfig,
        mutants: Vec<MutantInfo>,
        target: impl Fn(T) -> O + 'static,
    ) -> Result<Self, Error> {
        let mut table = MutantTable::new(mutants)?;
        if let Some(targets) = &config.targets {
            table.restrict_to(targets);
        }
        let max_site = (table.site_ids() - 1) as u32;
        // The run-time's tables are indexed by site id (hits) and by mutant id
        // (infection marks): the largest id bounds both, since a site's base id is at most
        // its mutants'. Sized by sites only, a probed mutant past the last site id would
        // never be marked infected, so infection pruning would never run it.
        let n_ids = table.id_bound().max(MIN_SITE_TABLE);
        probe_site_table(n_ids, max_site)?;

        let findings = Findings::open(&config)?;
        let (n, targets) = (table.len(), table.target_count());
        // A background mutant is the program: only coverage can guide that phase.
        let kind = if config.background.is_some() { GuidanceKind::Coverage } else { config.guidance };
        let guidance = guidance::build(kind, config.kill_factor, config.infect_factor);
        let sample = match config.sample {
            // Zero asks for every selected mutant, even under μZest.
            Some(0) => None,
            Some(k) => Some(k),
            None => guidance.reruns_killed().then_some(MUZEST_SAMPLE),
        };
        let random_sample = guidance.reruns_killed();
        let focus = focus(&*guidance, &config, n);
        let mut exec = Executor::new(Box::new(target), config.limits);
        exec.set_background(config.background.unwrap_or(0));
        // A background mutant stands in for the original: its runs are no reference.
        let drift = DriftGuard::new(config.check_drift && config.background.is_none());
        let mut corpus = Corpus::new();
        // Whichever edit is set later: inputs saved without spans regenerate none.
        corpus.regenerate_spans(respan::<T>(config.limits), HELD_INPUTS);
        Ok(Campaign {
            exec,
            oracle: Box::new(DebugHash),
            any_output: false,
            determinism: Determinism::default(),
            guidance,
            schedule: schedule::build(config.schedule),
            focus,
            edit: crate::edit::build(config.edit),
            selector: select::build(config.prune, sample, random_sample),
            rng: Rng::new(config.seed),
            corpus,
            seeds: VecDeque::new(),
            prior_kills: HashMap::new(),
            table,
            n_ids,
            findings,
            stats: Stats { mutants_total: targets, ..Stats::default() },
            scratch: Scratch {
                to_run: Vec::with_capacity(n),
                new_infected: Vec::with_capacity(n),
                infected: Vec::with_capacity(n),
                ..Scratch::default()
            },
            dispatch: Dispatch::new(config.isolate, config.parallel_min_work),
            drift,
            events: None,
            edges: EdgeMap::default(),
            config,
        })
    }

    /// A campaign over a target that borrows its input value.
    pub fn new_by_ref(
        config: CampaignConfig,
        mutants: Vec<MutantInfo>,
        target: impl Fn(&T) -> O + 'static,
    ) -> Result<Self, Error> {
        Campaign::new(config, mutants, move |value: T| target(&value))
    }

    /// Judges outputs with `compare(original, mutant)` (true when they agree) instead
    /// of comparing `Debug` renderings.
    pub fn with_compare(self, compare: fn(&O, &O) -> bool) -> Self {
        self.with_oracle(Box::new(Compare(compare)))
    }

    /// Uses another oracle (unless the target was found nondeterministic, which only
    /// [`AnyOutput`](crate::AnyOutput) can judge).
    pub fn with_oracle(mut self, oracle: Box<dyn Oracle<O>>) -> Self {
        if !self.any_output {
            self.oracle = oracle;
        }
        self
    }

    /// Whether the target was found nondeterministic and is judged by panics and
    /// runaways only (see [`CampaignConfig::tolerate_nondeterminism`]).
    pub fn judges_any_output(&self) -> bool {
        self.any_output
    }

    /// Uses another guidance strategy than the configured one.
    pub fn with_guidance(mut self, guidance: Box<dyn Guidance>) -> Self {
        self.focus = focus(&*guidance, &self.config, self.table.len());
        self.guidance = guidance;
        self
    }

    /// Uses another schedule than Zest's.
    pub fn with_schedule(mut self, schedule: Box<dyn Schedule>) -> Self {
        self.schedule = schedule;
        self
    }

    /// Uses other edits than Zest's havoc.
    pub fn with_edit(mut self, edit: Box<dyn Edit>) -> Self {
        self.edit = edit;
        self
    }

    /// Uses another mutant selection than the configured one (Mu2's execution pruning,
    /// sampled when [`CampaignConfig::sample`] is set).
    pub fn with_selector(mut self, selector: Box<dyn Selector>) -> Self {
        self.selector = selector;
        self
    }

    /// Runs a trial's mutants on `workers` as well as in this process: position `p` of the
    /// trial's list goes to process `p mod (workers + 1)` (0 is this one). Verdicts are
    /// merged in list order, so the campaign is the same whatever the number of workers.
    pub fn with_workers(mut self, workers: Workers) -> Self {
        self.dispatch.set_workers(workers, true);
        if self.any_output {
            self.dispatch.judge_any_output();
        }
        self
    }

    /// Gives `workers` only the runs that [`CampaignConfig::isolate`] keeps out of this process
    /// (one worker is enough: a single-core campaign that never dies of a mutant).
    pub fn with_sentry(mut self, workers: Workers) -> Self {
        self.dispatch.set_workers(workers, false);
        if self.any_output {
            self.dispatch.judge_any_output();
        }
        self
    }

    /// Hands each input to keep to `hand_over` instead of writing it into the corpus
    /// directory, which another process owns (see [`HandOver`](crate::corpus::HandOver)).
    pub fn with_hand_over(
        mut self,
        hand_over: impl FnMut(&str, &[u8]) -> Result<(), Error> + 'static,
    ) -> Self {
        self.findings.hand_over = Some(Box::new(hand_over));
        self
    }

    /// Calls `events` before each original run and each mutant run. One dynamic call
    /// each; meant for writing a line that a supervisor reads.
    pub fn with_events(mut self, events: impl FnMut(Event<'_>) + 'static) -> Self {
        self.events = Some(Box::new(events));
        self
    }

    /// Queues an input to be tried before any generated one (as Zest runs its seeds first).
    pub fn add_seed(&mut self, bytes: impl Into<Vec<u8>>) {
        self.seeds.push_back(bytes.into());
    }

    /// Resumes a stopped campaign from its directory: every mutant in `kills.jsonl`
    /// (including kills a supervisor appended, such as crashes) counts as killed and is
    /// not run again, and every stored corpus input is queued as a seed (in name order).
    /// Returns how many inputs were queued.
    ///
    /// A record that is not valid is an error naming the file and line; kills of mutants
    /// not in the catalog are ignored.
    pub fn resume_from_dir(&mut self) -> Result<usize, Error> {
        let Some(store) = &self.findings.store else { return Ok(0) };
        if self.config.tolerate_nondeterminism
            && NondeterministicRecord::read(&store.files().nondeterministic())?.is_some()
        {
            // Found before (a restarted harness): judged as then; the harness says so again.
            self.judge_any_output();
        }
        if self.config.panics_by_contract {
            self.findings.resume_contract_panics()?;
        }
        self.findings.resume_failures()?;
        let Some(store) = &self.findings.store else { return Ok(0) };
        // The store cut off any torn last line when it opened the file.
        let kills = read_jsonl::<KillRecord>(&store.files().kills())?;
        if let Some(torn) = &kills.torn {
            eprintln!("warning: {torn}");
        }
        let index = self.table.index_by_id();
        for record in kills.records {
            let Some(&i) = index.get(&record.mutant) else { continue };
            if self.config.resumed {
                *self.prior_kills.entry(record.input.clone()).or_default() += 1;
            }
            if self.table.kill(i, record.kind) {
                self.findings.kills.push(record);
            } else {
                // A later record of a mutant killed before: it crashed or hung when run
                // again (μZest), and must not run again.
                self.table.ended_process(i, record.kind);
            }
        }
        // A damaged or unreadable file is skipped (the CLI warned about it), never fatal.
        let corpus = mutfuzz_contract::read_corpus(store.corpus_dir())?;
        for skipped in &corpus.skipped {
            eprintln!("warning: {skipped}");
        }
        // Kills of mutants that are not targets (a campaign before with others) stay
        // in the file and in `kills()`, but not in the counts.
        self.stats.mutants_killed = self.table.killed_count();
        let count = corpus.inputs.len();
        self.seeds.extend(corpus.inputs.into_iter().map(|(_, bytes)| bytes));
        Ok(count)
    }

    /// The counters so far (the edit's own included).
    pub fn stats(&self) -> Stats {
        let mut stats = self.stats;
        stats.failures = self.findings.failure_count;
        self.edit.report(&mut stats);
        stats.spans_regenerated = self.corpus.spans_regenerated();
        stats
    }

    /// The first kill of each killed mutant, in the order found.
    pub fn kills(&self) -> &[KillRecord] {
        &self.findings.kills
    }

    /// Distinct failures of the original this process found, in the order found: all of
    /// them in a campaign without a directory, the first
    /// [`HELD_FAILURES`](crate::HELD_FAILURES) in one with a directory
    /// (`failures.jsonl` has every one, those of earlier processes on it too, and
    /// [`Stats::failures`] counts them all).
    pub fn failures(&self) -> &[Failure] {
        &self.findings.failures
    }

    /// The saved inputs.
    pub fn corpus(&self) -> &Corpus {
        &self.corpus
    }

    /// The configuration.
    pub fn config(&self) -> &CampaignConfig {
        &self.config
    }

    /// The name of the guidance in use.
    pub fn guidance_name(&self) -> &'static str {
        self.guidance.name()
    }

    /// Every mutant's state, in catalog order.
    pub fn mutants(&self) -> impl Iterator<Item = MutantStatus> + '_ {
        self.table.statuses()
    }

    /// The mutant table (what selectors see).
    pub fn table(&self) -> &MutantTable {
        &self.table
    }

    /// The name of the mutant selection in use.
    pub fn selector_name(&self) -> &'static str {
        self.selector.name()
    }
}

/// The focus of a guidance that tracks infections (none in a background phase).
fn focus(guidance: &dyn Guidance, config: &CampaignConfig, mutants: usize) -> Option<Focus> {
    let every = config.focus.unwrap_or(FOCUS_EVERY);
    (guidance.tracks_infections() && config.background.is_none() && every > 0)
        .then(|| Focus::new(mutants, every, FOCUS_CAP))
}

fn probe_site_table(table: usize, max_site: u32) -> Result<(), Error> {
    mutfuzz_rt::start_recording(table);
    let m = mutfuzz_rt::enter();
    mutfuzz_rt::at(m, max_site, 1);
    let ok = mutfuzz_rt::site_hits().contains(&max_site);
    mutfuzz_rt::activate(0);
    if ok || max_site == 0 { Ok(()) } else { Err(Error::SiteTable { site: max_site }) }
}
