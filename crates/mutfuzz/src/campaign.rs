//! The campaign: Mu2's fuzz loop (Alg. 2) with execution pruning (Alg. 3), its
//! configuration, statistics and records.
//!
//! The loop only wires the strategies together: a [`Schedule`] picks the parent, an
//! [`Edit`] makes the child, the original runs once recording site hits and fuel, a
//! [`Selector`] chooses mutants from the [`MutantTable`] (by default the surviving ones
//! whose site was hit), they run within budgets derived from the original's usage, an
//! [`Oracle`] judges them, and a [`Guidance`] decides what to keep. Buffers
//! for the input bytes and the mutants to run are reused across trials, and nothing on
//! the trial path takes a lock.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mutfuzz_contract::protocol::decode_hex;
use mutfuzz_contract::{
    Budget, ContractPanicRecord, DriftRecord, FailureRecord, Isolate, KillKind, KillLimit, KillRecord,
    NondeterministicRecord, RENDER_LIMIT, Stats, encode_hex, read_jsonl,
};

use crate::corpus::{Corpus, CorpusEntry, Store};
use crate::coverage::EdgeMap;
use crate::drift::{Sentinel, find_cause, read_drift, write_drift};
use crate::edit::{Edit, EditKind};
pub use crate::error::Error;
use crate::r#gen::Gen;
use crate::guidance::{self, Energy, Guidance, GuidanceKind, TrialFacts};
use crate::input::{Dictionary, Input, Limits, Rng, Source};
use crate::mutants::{MutantInfo, MutantStatus, MutantTable};
use crate::oracle::{AnyOutput, Compare, DebugHash, Oracle, content_name};
use crate::schedule::{self, Observation, Schedule, ScheduleKind};
use crate::select::{self, Prune, Selector, TrialSites};
use crate::trial::{Executor, OriginalEnd, OriginalRun, RunGuard, Verdict, judge};
use crate::workers::Workers;

/// Smallest site-hit table the campaign asks the run-time for. The run-time sizes its
/// table once per process, so a generous first size lets later campaigns in the same
/// process (with larger catalogs) still record every site.
const MIN_SITE_TABLE: usize = 1024;

/// Mutant runs between two drift checks of a trial's end (a kill is checked at once).
pub const DRIFT_CHECK_RUNS: usize = 64;

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
    /// `None`: the guidance's own ([`guidance::default_kill_factor`]).
    pub kill_factor: Option<u32>,
    /// With workers, a trial runs its mutants in parallel only when their number times the
    /// original's fuel reaches this (see [`PARALLEL_MIN_WORK`]).
    pub parallel_min_work: u64,
    /// "First, fuzz the mutants": this mutant stands in for the original in every run, and
    /// the campaign is coverage-guided (no mutant runs, no site hits). Inputs on which it
    /// panics and the original does not are kept apart in `mutant-panics/`.
    pub background: Option<u32>,
    /// Also run every mutant that infection pruning skipped, and stop with
    /// [`Error::UnsoundPruning`] if one is killed (a check of the probes, for tests and
    /// benchmarks; it costs every pruned run).
    pub verify_pruning: bool,
    /// Which mutant runs go to a worker process, when there are workers, so that a
    /// mutant that takes its process down (abort, out of memory) costs a worker and not
    /// this process with its corpus and coverage.
    pub isolate: Isolate,
    /// Re-run the original on the first input and on every new corpus entry, and stop
    /// with [`Error::Nondeterministic`] if it disagrees with itself.
    pub check_determinism: bool,
    /// After every trial that ran mutants in this process, re-run the original on the
    /// process's first input and stop with [`Error::Drift`] if its result changed (a
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
    /// [`Stats::contract_panics`], never a [`Failure`].
    pub panics_by_contract: bool,
    /// The target is generated: when the original returns two different outputs on one
    /// input, the campaign does not stop with [`Error::Nondeterministic`] but judges by
    /// panics and runaways only from then on ([`AnyOutput`]), says so once
    /// ([`Event::Nondeterministic`]) and keeps that in `nondeterministic.json`.
    pub tolerate_nondeterminism: bool,
    /// The ids of the mutants the campaign is about (`--mutants-file`): no other mutant
    /// is ever selected to run, and the counts ([`Stats::mutants_total`], `_seen`,
    /// `_killed`, `_reached`) are of these only. Ids not in the catalog are ignored.
    /// `None`: every mutant of the catalog.
    pub targets: Option<Arc<BTreeSet<u32>>>,
    /// How many times more children an input gets that infects a target no saved input
    /// infected (the `infection` guidance; `None`: [`guidance::INFECT_FACTOR`]).
    pub infect_factor: Option<u32>,
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
        }
    }
}

/// An input on which the original panicked: a bug in the code under test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The failing input's bytes.
    pub input: Input,
    /// Its name (content hash); the file name under `failures/`.
    pub name: String,
    /// The panic message.
    pub message: String,
    /// Where it panicked (`file:line:column`), when known.
    pub location: Option<String>,
    /// The trial, from 0, that found it.
    pub trial: u64,
}

impl Failure {
    /// Its line in `failures.jsonl`.
    pub fn record(&self) -> FailureRecord {
        FailureRecord {
            input: self.name.clone(),
            message: self.message.clone(),
            location: self.location.clone(),
            trial: self.trial,
            mutant: None,
        }
    }
}

/// Mutant runs × the original's fuel below which a trial runs its mutants in this
/// process only, even with workers.
pub const PARALLEL_MIN_WORK: u64 = 50_000;

/// Mutants a μZest trial samples when no sample size is configured (the μZest paper's 10).
pub const MUZEST_SAMPLE: usize = 10;

/// A kill found in the current trial, recorded only if its input is saved.
struct PendingKill {
    mutant: u32,
    kind: KillKind,
    limit: Option<KillLimit>,
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
    guidance: Box<dyn Guidance>,
    schedule: Box<dyn Schedule>,
    edit: Box<dyn Edit>,
    rng: Rng,
    corpus: Corpus,
    store: Option<Store>,
    seeds: VecDeque<Vec<u8>>,
    table: MutantTable,
    selector: Box<dyn Selector>,
    /// Size of the run-time's site-hit table requested.
    n_ids: usize,
    kills: Vec<KillRecord>,
    failures: Vec<Failure>,
    failure_messages: HashSet<String>,
    /// Messages of the panics by contract recorded (this process's and, resumed, before).
    contract_messages: HashSet<String>,
    /// The target was found nondeterministic: the oracle is [`AnyOutput`].
    any_output: bool,
    stats: Stats,
    buf: Vec<u8>,
    to_run: Vec<u32>,
    pending: Vec<PendingKill>,
    /// Worker processes for parallel or isolated mutant runs, and each trial's verdicts
    /// by position.
    workers: Option<Workers>,
    /// Whether the workers share a trial's runs ([`Campaign::with_workers`]) or take
    /// only the isolated ones ([`Campaign::with_sentry`]).
    split: bool,
    /// The process of each position of the trial's list: 0 here, `w + 1` worker `w`.
    assigned: Vec<usize>,
    verdicts: Vec<Option<Verdict>>,
    /// One worker's share of a trial's mutant ids, reused across trials.
    worker_ids: Vec<u32>,
    /// The current trial's original fuel (the work estimate of its mutant runs).
    last_fuel: u64,
    events: Option<EventSink>,
    edges: EdgeMap,
    /// The first input this process ran, and the original's result on it before any
    /// mutant ran here (the drift check's reference).
    sentinel: Option<Sentinel<O>>,
    /// Ids of the mutants run in this process since the last drift check.
    ran_here: Vec<u32>,
    /// A drift found after a kill during this trial's mutant runs (the results then).
    drifted: Option<(String, String)>,
    /// The targets that this trial's original run infected in a class no saved input
    /// infected them in, with those classes (kept only when the guidance
    /// [tracks infections](Guidance::tracks_infections)).
    new_infected: Vec<(u32, u8)>,
    /// Resumed after a restart: how many mutants each stored input killed first (by
    /// content name), so that its replay keeps it as the killer it was.
    prior_kills: HashMap<String, u32>,
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
    /// The (generated) target was found nondeterministic: from now on it is judged by
    /// panics and runaways only (see [`CampaignConfig::tolerate_nondeterminism`]).
    Nondeterministic(&'a NondeterministicRecord),
}

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

        let store = match &config.dir {
            Some(dir) => {
                let corpus = config
                    .corpus_dir
                    .clone()
                    .unwrap_or_else(|| mutfuzz_contract::CampaignDir::new(dir).corpus());
                Some(Store::open_with_corpus(dir, &corpus)?)
            }
            None => None,
        };
        let (n, targets) = (table.len(), table.target_count());
        let edit = crate::edit::build(config.edit);
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
        let mut exec = Executor::new(Box::new(target), config.limits);
        exec.set_background(config.background.unwrap_or(0));
        Ok(Campaign {
            exec,
            oracle: Box::new(DebugHash),
            guidance,
            schedule: schedule::build(config.schedule),
            selector: select::build(config.prune, sample, random_sample),
            edit,
            rng: Rng::new(config.seed),
            corpus: Corpus::new(),
            store,
            seeds: VecDeque::new(),
            n_ids,
            table,
            kills: Vec::new(),
            failures: Vec::new(),
            failure_messages: HashSet::new(),
            contract_messages: HashSet::new(),
            any_output: false,
            stats: Stats { mutants_total: targets, ..Stats::default() },
            buf: Vec::new(),
            to_run: Vec::with_capacity(n),
            new_infected: Vec::with_capacity(n),
            pending: Vec::new(),
            workers: None,
            split: false,
            assigned: Vec::new(),
            verdicts: Vec::new(),
            worker_ids: Vec::new(),
            last_fuel: 0,
            events: None,
            edges: EdgeMap::default(),
            sentinel: None,
            prior_kills: HashMap::new(),
            ran_here: Vec::new(),
            drifted: None,
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
    /// [`AnyOutput`] can judge).
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
        self.workers = Some(workers).filter(|w| !w.is_empty());
        self.tell_workers();
        self.split = true;
        self
    }

    /// Gives `workers` only the runs that [`CampaignConfig::isolate`] keeps out of this process
    /// (one worker is enough: a single-core campaign that never dies of a mutant).
    pub fn with_sentry(mut self, workers: Workers) -> Self {
        self.workers = Some(workers).filter(|w| !w.is_empty());
        self.tell_workers();
        self.split = false;
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
        let Some(store) = &self.store else { return Ok(0) };
        if self.config.tolerate_nondeterminism
            && NondeterministicRecord::read(&store.files().nondeterministic())?.is_some()
        {
            // Found before (a restarted harness): judged as then; the harness says so again.
            self.judge_any_output();
        }
        let Some(store) = &self.store else { return Ok(0) };
        if self.config.panics_by_contract {
            let panics = read_jsonl::<ContractPanicRecord>(&store.files().contract_panic_log())?;
            self.contract_messages.extend(panics.records.into_iter().map(|r| r.message));
        }
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
                self.kills.push(record);
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

    /// The counters so far (the edit's own included).
    pub fn stats(&self) -> Stats {
        let mut stats = self.stats;
        self.edit.report(&mut stats);
        stats
    }

    /// The first kill of each killed mutant, in the order found.
    pub fn kills(&self) -> &[KillRecord] {
        &self.kills
    }

    /// Distinct failures of the original, in the order found.
    pub fn failures(&self) -> &[Failure] {
        &self.failures
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

    /// One trial: Alg. 2's loop body.
    fn trial(&mut self) -> Result<(), Error> {
        let trial = self.stats.trials;
        self.stats.trials += 1;

        let mut bytes = std::mem::take(&mut self.buf);
        let mut rewrite = None;
        let mut replay = false;
        let mut prior_kills = 0;
        if let Some(seed) = self.seeds.pop_front() {
            replay = self.config.resumed;
            if replay {
                prior_kills = self.prior_kills.get(&content_name(&seed)).copied().unwrap_or(0);
            }
            bytes = seed;
        } else {
            let next = self.schedule.next(&self.corpus, &mut self.rng, &mut bytes);
            rewrite = schedule::make_child(next, &self.corpus, &mut *self.edit, &mut self.rng, &mut bytes);
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

        if let Some(events) = &mut self.events {
            events(Event::Trial(input.as_bytes()));
        }
        self.edges.reset();
        let original = self.exec.run_original(value, self.n_ids, &*self.oracle);
        let edges = self.edges.read();
        if self.sentinel.is_none() && self.drift_checked() {
            // No mutant ran in this process yet: what the original gives now is clean,
            // unless the target disagrees with itself (then it is no reference of drift).
            let sentinel = Sentinel::take(&mut self.exec, input.as_bytes(), &*self.oracle);
            let agrees = sentinel.end.agrees_with(&original.end, &*self.oracle)
                || self.tolerate(input.as_bytes(), &original.end, &sentinel.end)?;
            if agrees {
                self.sentinel = Some(sentinel);
            } else if self.config.check_determinism {
                return Err(Error::Nondeterministic {
                    input: content_name(input.as_bytes()),
                    bytes: input.as_bytes().to_vec(),
                    first: original.end.render(),
                    second: sentinel.end.render(),
                });
            } else {
                self.config.check_drift = false;
            }
        }
        let seen_before = self.table.seen_count();
        let new_sites = self.table.see(&original.hits);
        self.stats.mutants_seen += self.table.seen_count() - seen_before;
        // Read now, from the recording run's marks (mutant runs and drift checks follow).
        let new_infections = if self.guidance.tracks_infections() && self.config.background.is_none() {
            self.collect_infections(&original.hits)
        } else {
            0
        };
        match &original.end {
            OriginalEnd::Discarded => self.stats.discards += 1,
            OriginalEnd::Panicked { message, location } => {
                self.stats.panics += 1;
                if let Some(mutant) = self.config.background
                    && !self.exec.original_panics(input.as_bytes())
                {
                    self.record_mutant_panic(&input, mutant, message.clone(), location.clone(), trial)?;
                } else if self.config.panics_by_contract {
                    // A replayed input's panic was counted and recorded when first tried.
                    if !replay {
                        self.stats.contract_panics += 1;
                        if !self.contract_messages.contains(message) {
                            self.record_contract_panic(&input, message.clone(), location.clone())?;
                        }
                    }
                } else if !self.failure_messages.contains(message) {
                    self.record_failure(&input, message.clone(), location.clone(), trial)?;
                }
            }
            OriginalEnd::Returned { .. } => {}
        }

        self.pending.clear();
        let mut mutants_run = 0;
        let mut old_kills = 0;
        if self.guidance.runs_mutants() && !replay {
            self.to_run.clear();
            self.stats.mutants_reached += self.surviving_at(&original.hits);
            let sites = TrialSites { hits: &original.hits, rerun_killed: self.guidance.reruns_killed() };
            self.selector.select(&sites, &self.table, &mut self.rng, &mut self.to_run);
            // A mutant this input infects in a new way runs on it whatever the sample chose:
            // the sample prefers mutants that ran least, and one infected often before (in
            // another class) would wait while the input that may propagate it is at hand.
            // New infections are rare, so the trial's bound grows by a few runs at most.
            for k in 0..new_infections {
                let mi = self.new_infected[k].0;
                if !self.to_run.contains(&mi) {
                    self.to_run.push(mi);
                }
            }
            let (fuel, depth) = self.config.budget.limits(original.fuel, original.depth);
            self.last_fuel = original.fuel;
            self.run_selected(input.as_bytes(), &original.end, fuel, depth);
            for k in 0..self.to_run.len() {
                let mi = self.to_run[k];
                self.table.ran(mi);
                if let Some(Some((kind, limit))) = self.verdicts[k] {
                    if self.table.killed(mi).is_some() {
                        old_kills += 1;
                    } else {
                        self.pending.push(PendingKill { mutant: mi, kind, limit });
                    }
                }
            }
            if self.config.verify_pruning {
                self.verify_pruning(&original, input.as_bytes(), fuel, depth)?;
            }
            mutants_run = self.to_run.len();
            self.stats.mutant_runs += mutants_run as u64;
            mutfuzz_rt::set_limits(u64::MAX, usize::MAX);
            // Before anything of this trial is kept: its verdicts may be false if drifted.
            self.check_drift(input.as_bytes())?;
        }

        let facts = TrialFacts {
            sites: original.hits.len(),
            new_sites,
            edges: edges.edges,
            new_edges: edges.new,
            mutants_run,
            // Pending kills are of mutants no saved input killed; a replayed input's
            // are the ones it made before the restart (the guidance keeps it for them).
            new_kills: self.pending.len() + prior_kills as usize,
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
            new_kills: self.pending.len(),
            discarded: facts.discarded,
        });
        self.stats.queued = self.schedule.queued();
        self.stats.random_edits = self.schedule.random_edits();
        // Check every new corpus entry, and the first input, so that a target whose
        // output drifts is caught even when nothing is saved.
        if self.config.check_determinism && (decision.save || trial == 0) {
            self.check_determinism(&input, &original)?;
        }
        if !decision.save {
            // Kills count only for saved inputs (KILLED(P, corpus) in Alg. 2).
            self.buf = input.into_bytes();
            return Ok(());
        }

        let name = content_name(input.as_bytes());
        self.stats.edges = self.edges.keep_last();
        self.table.cover(&original.hits);
        // Whatever it was kept for, this input now infected them (killed ones included:
        // they are no longer candidates anyway).
        for k in 0..new_infections {
            let (mi, classes) = self.new_infected[k];
            if self.table.infect_saved(mi, classes) {
                self.stats.mutants_infected += 1;
            }
        }
        if let Some(store) = &self.store {
            store.save_input(&name, input.as_bytes())?;
        }
        for k in 0..self.pending.len() {
            let PendingKill { mutant, kind, limit } = self.pending[k];
            // Pending kills are first kills, and each mutant ran once per trial.
            self.table.kill(mutant, kind);
            self.stats.mutants_killed = self.table.killed_count();
            let info = self.table.info(mutant);
            let record =
                KillRecord { mutant: info.id, site: info.site, kind, limit, input: name.clone(), trial };
            if let Some(store) = &mut self.store {
                store.append_kill(&record)?;
            }
            self.kills.push(record);
        }
        self.corpus.push(CorpusEntry {
            input,
            spans,
            name,
            // Zest's energy scales with what an input covers: sites and edges alike.
            sites: (original.hits.len() + edges.edges) as u32,
            favoured: decision.favoured,
            energy: decision.energy,
            kills: self.pending.len() as u32 + prior_kills,
            trial,
        });
        if let Some(entry) = self.corpus.entries().last() {
            self.edit.saved(entry, &self.table);
        }
        self.stats.corpus = self.corpus.len();
        self.stats.favoured += usize::from(decision.favoured);
        self.stats.boosted += usize::from(matches!(decision.energy, Energy::Times(_)));
        self.stats.reduced += usize::from(matches!(decision.energy, Energy::DividedBy(_)));
        Ok(())
    }

    /// Runs the selected mutants (`to_run`) and puts their verdicts in `verdicts`, by
    /// position: the workers' shares in their processes while this one runs its own.
    fn run_selected(&mut self, bytes: &[u8], original: &OriginalEnd<O>, fuel: u64, depth: usize) {
        let n = self.to_run.len();
        self.verdicts.clear();
        self.verdicts.resize(n, None);
        self.assign(n);
        if let Some(workers) = &mut self.workers {
            let ids = &mut self.worker_ids;
            for w in 0..workers.len() {
                ids.clear();
                ids.extend(
                    (0..n).filter(|&p| self.assigned[p] == w + 1).map(|p| self.table.info(self.to_run[p]).id),
                );
                workers.start(w, bytes, fuel, depth, ids);
            }
        }
        for p in 0..n {
            if self.assigned[p] != 0 {
                continue;
            }
            let id = self.table.info(self.to_run[p]).id;
            if let Some(events) = &mut self.events {
                events(Event::Mutant(id));
            }
            let end = self.exec.run_mutant(id, bytes, fuel, depth);
            let verdict = judge(&*self.oracle, original, &end);
            self.verdicts[p] = Some(verdict);
            self.ran_here.push(id);
            // A kill is what drift fakes: check at once, before the next mutant runs.
            if verdict.is_some()
                && let Some(sentinel) = &self.sentinel
                && let Some(results) = sentinel.drifted(&mut self.exec, &*self.oracle)
            {
                self.drifted = Some(results);
                break;
            }
        }
        if let Some(workers) = &mut self.workers {
            // Ids are unique in one trial's list: map each answer back to its position.
            let (to_run, table, verdicts) = (&self.to_run, &self.table, &mut self.verdicts);
            for w in 0..workers.len() {
                workers.finish(w, bytes, fuel, depth, &mut |id, v| {
                    if let Some(p) = (0..n).find(|&p| table.info(to_run[p]).id == id) {
                        verdicts[p] = Some(v);
                    }
                });
            }
        }
    }

    /// Chooses the process of each of the trial's `n` mutant runs (`assigned`). The
    /// choice depends on the list, the mutants' run counts and the original's fuel only,
    /// never on timing, so verdicts are the same whatever the number of workers.
    fn assign(&mut self, n: usize) {
        self.assigned.clear();
        self.assigned.resize(n, 0);
        let n_workers = self.workers.as_ref().map_or(0, Workers::len);
        if n_workers == 0 {
            return;
        }
        if self.config.isolate == Isolate::All {
            // Every run in a worker: this process runs only the original.
            for (p, a) in self.assigned.iter_mut().enumerate() {
                *a = p % n_workers + 1;
            }
            return;
        }
        // A round trip to a worker costs tens of microseconds: sharing is worth it only
        // when the trial's mutant runs are long (measured by the original's fuel).
        let work = (n as u64).saturating_mul(self.last_fuel.max(1));
        if self.split && n > 1 && work >= self.config.parallel_min_work {
            // Position p goes to process p mod (workers + 1).
            for (p, a) in self.assigned.iter_mut().enumerate() {
                *a = p % (n_workers + 1);
            }
        }
        if self.config.isolate == Isolate::FirstRuns {
            let mut next = 0;
            for p in 0..n {
                if self.assigned[p] == 0 && self.table.runs(self.to_run[p]) == 0 {
                    self.assigned[p] = next % n_workers + 1;
                    next += 1;
                }
            }
        }
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
                if !pruned || skipped || self.to_run.contains(&mi) {
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

    /// Puts in `new_infected` the probed, surviving targets of the sites `hits` that the
    /// original's last recording run infected in a class (which way the value differs)
    /// no saved input infected them in; returns how many. Reads the marks as [`InfectionPruning`](crate::select::InfectionPruning)
    /// does: no lock, and no allocation past the buffer's capacity (the catalog's size).
    fn collect_infections(&mut self, hits: &[u32]) -> usize {
        self.new_infected.clear();
        let table = &self.table;
        for &site in hits {
            for &mi in table.at_site(site) {
                let info = table.info(mi);
                if !info.probe || !table.is_target(mi) || table.killed(mi).is_some() {
                    continue;
                }
                let new = mutfuzz_rt::infection_classes(info.id) & !table.saved_infection_classes(mi);
                if new != 0 {
                    self.new_infected.push((mi, new));
                }
            }
        }
        self.new_infected.len()
    }

    /// The surviving targets of the sites `hits` (what execution pruning would run).
    fn surviving_at(&self, hits: &[u32]) -> u64 {
        let table = &self.table;
        hits.iter()
            .map(|&s| {
                let surviving = |&&mi: &&u32| table.is_target(mi) && table.killed(mi).is_none();
                table.at_site(s).iter().filter(surviving).count() as u64
            })
            .sum()
    }

    /// Whether this campaign checks for drift: a background mutant stands in for the
    /// original, and its runs are not the original's.
    fn drift_checked(&self) -> bool {
        self.config.check_drift && self.config.background.is_none()
    }

    /// The original on the sentinel input must give what it gave before any mutant ran
    /// here (checked after each kill in this process, and after a trial once
    /// [`DRIFT_CHECK_RUNS`] mutants ran since the last check); if not, one of the mutants run here since the last check changed global
    /// state. `drift.json` then names them (with the trial's `input`), for a clean
    /// process to find the one (see [`Campaign::settle_drift`]).
    fn check_drift(&mut self, input: &[u8]) -> Result<(), Error> {
        // A kill was checked when it happened (`drifted` holds what it found); otherwise
        // one sentinel run per DRIFT_CHECK_RUNS mutant runs, not per trial: on a target
        // whose original is costly that run was most of a `mu2` trial's price. In
        // between, drift can only hide kills (survivals are never final while fuzzing).
        if self.ran_here.is_empty() || (self.drifted.is_none() && self.ran_here.len() < DRIFT_CHECK_RUNS) {
            return Ok(());
        }
        let Some(sentinel) = &self.sentinel else { return Ok(()) };
        let found = self.drifted.take().or_else(|| sentinel.drifted(&mut self.exec, &*self.oracle));
        let Some((recorded, now)) = found else {
            self.ran_here.clear();
            return Ok(());
        };
        let suspects = std::mem::take(&mut self.ran_here);
        if let Some(store) = &self.store {
            let record = DriftRecord {
                suspects: suspects.clone(),
                input: encode_hex(input),
                sentinel: encode_hex(&sentinel.bytes),
            };
            write_drift(&store.files().drift(), Some(&record))?;
        }
        Err(Error::Drift { suspects, recorded, now })
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
        let Some(store) = &self.store else { return Ok(()) };
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
        if let Some(store) = &mut self.store {
            // The input first: a kill record never names an input that is not stored.
            store.save_input(&name, &input)?;
            store.append_kill(&kill)?;
        }
        if self.table.kill(mi, kind) {
            self.stats.mutants_killed = self.table.killed_count();
            self.kills.push(kill);
        } else {
            self.table.ended_process(mi, kind);
        }
        let rest = DriftRecord { suspects: record.suspects[cause.position + 1..].to_vec(), ..record };
        write_drift(&path, Some(&rest))?;
        let (recorded, now) = cause.results;
        Err(Error::Drift { suspects: vec![cause.mutant], recorded, now })
    }

    fn check_determinism(&mut self, input: &Input, original: &OriginalRun<O>) -> Result<(), Error> {
        let again = self.exec.rerun_original(input.as_bytes(), self.n_ids, &*self.oracle);
        if original.end.agrees_with(&again.end, &*self.oracle)
            || self.tolerate(input.as_bytes(), &original.end, &again.end)?
        {
            return Ok(());
        }
        Err(Error::Nondeterministic {
            input: content_name(input.as_bytes()),
            bytes: input.as_bytes().to_vec(),
            first: original.end.render(),
            second: again.end.render(),
        })
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
        let both_returned =
            matches!((first, second), (OriginalEnd::Returned { .. }, OriginalEnd::Returned { .. }));
        if !self.config.tolerate_nondeterminism || !both_returned || self.any_output {
            return Ok(false);
        }
        let record = NondeterministicRecord {
            input: content_name(bytes),
            first: first.render_bounded(RENDER_LIMIT),
            second: second.render_bounded(RENDER_LIMIT),
        };
        if let Some(store) = &self.store {
            // The input first: the record names it.
            store.save_input(&record.input, bytes)?;
            record.write(&store.files().nondeterministic())?;
        }
        self.judge_any_output();
        if let Some(events) = &mut self.events {
            events(Event::Nondeterministic(&record));
        }
        Ok(true)
    }

    /// From now on any two returned outputs agree, here and in the workers.
    fn judge_any_output(&mut self) {
        self.any_output = true;
        self.oracle = Box::new(AnyOutput);
        self.tell_workers();
    }

    fn tell_workers(&mut self) {
        if let (true, Some(workers)) = (self.any_output, &mut self.workers) {
            workers.judge_any_output();
        }
    }

    /// Records a panic by contract of a generated target's original with a new message.
    fn record_contract_panic(
        &mut self,
        input: &Input,
        message: String,
        location: Option<String>,
    ) -> Result<(), Error> {
        let name = content_name(input.as_bytes());
        if let Some(store) = &mut self.store {
            let record = ContractPanicRecord { input: name.clone(), message: message.clone(), location };
            store.save_contract_panic(&name, input.as_bytes(), &record)?;
        }
        self.contract_messages.insert(message);
        Ok(())
    }

    /// Keeps an input on which the background mutant panics and the original does not
    /// (once per message): it points at fault-prone code, and is no failure.
    fn record_mutant_panic(
        &mut self,
        input: &Input,
        mutant: u32,
        message: String,
        location: Option<String>,
        trial: u64,
    ) -> Result<(), Error> {
        if !self.failure_messages.insert(format!("mutant {mutant}: {message}")) {
            return Ok(());
        }
        self.stats.mutant_panics += 1;
        if let Some(store) = &mut self.store {
            let name = content_name(input.as_bytes());
            let record =
                FailureRecord { input: name.clone(), message, location, trial, mutant: Some(mutant) };
            store.save_mutant_panic(&name, input.as_bytes(), &record)?;
        }
        Ok(())
    }

    fn record_failure(
        &mut self,
        input: &Input,
        message: String,
        location: Option<String>,
        trial: u64,
    ) -> Result<(), Error> {
        let failure =
            Failure { input: input.clone(), name: content_name(input.as_bytes()), message, location, trial };
        if let Some(store) = &mut self.store {
            store.save_failure(&failure.name, input.as_bytes())?;
            store.append_failure(&failure.record())?;
        }
        self.failure_messages.insert(failure.message.clone());
        self.failures.push(failure);
        self.stats.failures = self.failures.len();
        Ok(())
    }
}

/// Checks that the run-time records hits of site `max_site` with a table of `table` ids.
fn probe_site_table(table: usize, max_site: u32) -> Result<(), Error> {
    mutfuzz_rt::start_recording(table);
    let m = mutfuzz_rt::enter();
    mutfuzz_rt::at(m, max_site, 1);
    let ok = mutfuzz_rt::site_hits().contains(&max_site);
    mutfuzz_rt::activate(0);
    if ok || max_site == 0 { Ok(()) } else { Err(Error::SiteTable { site: max_site }) }
}
