//! One target's campaign: the fuzz loop of a built harness as a supervised child process,
//! restarted after every crash or hang (a crash or hang while a mutant runs kills that
//! mutant; one while the original runs is a failure of the code under test), until its
//! budget is spent. `fuzz`, `eval` and `fuzz --all` run campaigns through this module.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use mutfuzz_contract::command::{FuzzRequest, HarnessCommand, Probability, WorkerLimits};
use mutfuzz_contract::{
    CampaignDir, EditKind, FailureRecord, KillKind, KillLimit, KillRecord, Line, ScheduleKind, Stats,
    append_record, content_name, store_new,
};

use crate::console::exit_code;
use crate::console::status::{Progress, StatusLine};
use crate::fuzzing::handover::disk_full_error;
use crate::fuzzing::harness::Built;
use crate::fuzzing::mutants_first;
use crate::fuzzing::records;
use crate::fuzzing::settings::{FuzzSettings, Strategy};
use crate::fuzzing::supervision::{Observe, Until, Watch, supervise_until_done};
use crate::process::supervise::{Ending, Supervised};

/// What the harness is doing, from the last lines it printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Running {
    /// Nothing attributable (starting up, or finished).
    #[default]
    Nothing,
    /// The original, on the last trial's input.
    Original,
    /// This mutant, on the last trial's input.
    Mutant(u32),
}

/// Follows one harness process's `fuzz` output.
#[derive(Clone, Debug, Default)]
pub struct CampaignTracker {
    /// What runs now.
    pub running: Running,
    /// The last trial's input bytes.
    pub input: Vec<u8>,
    /// `trial` lines seen.
    pub trial_lines: u64,
    /// The last counters.
    pub stats: Option<Stats>,
    /// Whether it printed `done`.
    pub done: bool,
    /// `note` lines not shown yet.
    pub notes: Vec<String>,
}

impl Observe for CampaignTracker {
    fn observe(&mut self, line: Line<'static>) {
        match line {
            Line::Trial(bytes) => {
                self.input = bytes.into_owned();
                self.running = Running::Original;
                self.trial_lines += 1;
            }
            Line::Mutant(id) => self.running = Running::Mutant(id),
            // Printed between trials only: nothing runs now. A harness that stops with an
            // error prints one first, so the error is not blamed on the last mutant.
            Line::Stats(r) => {
                self.stats = Some(r.stats);
                self.running = Running::Nothing;
            }
            Line::Done(r) => {
                self.stats = Some(r.stats);
                self.done = true;
                self.running = Running::Nothing;
            }
            // What dies next is the engine or a generator, or the original on an input it
            // ran before (recording again), not a trial.
            Line::Engine => self.running = Running::Nothing,
            Line::Note(text) => self.notes.push(text.into_owned()),
            // The supervisor takes `keep` lines before they come here.
            Line::Input(_) | Line::Alive | Line::Keep { .. } | Line::Other(_) => {}
        }
    }
}

impl CampaignTracker {
    /// Trials this process ran.
    pub fn trials(&self) -> u64 {
        self.trial_lines.max(self.stats.map_or(0, |s| s.trials))
    }
}

/// The campaign's files.
#[derive(Clone, Debug)]
pub struct Files {
    /// State directory: `kills.jsonl`, `failures/`, `failures.jsonl`, `stats.csv`.
    pub state: CampaignDir,
    /// Corpus directory.
    pub corpus: PathBuf,
}

/// What the supervisor recorded for one death.
#[derive(Debug, PartialEq, Eq)]
pub enum Blame {
    /// A new kill of this mutant, by this input.
    Kill { mutant: u32, kind: KillKind, input: String },
    /// A mutant killed before by its output (re-run under μZest) took the process down:
    /// recorded again as a crash or hang, so the engine never re-runs it.
    Rerun { mutant: u32, kind: KillKind },
    /// A new failure of the original on this input.
    Failure { input: String },
    /// Nothing new: nothing was running, or it was recorded before.
    Nothing,
}

/// Record the death of a harness process that `t` followed. `sites` maps mutant → site.
pub fn attribute(
    t: &CampaignTracker,
    ending: &Ending,
    how: &str,
    trial: u64,
    files: &Files,
    sites: &HashMap<u32, u32>,
) -> Result<Blame> {
    let name = content_name(&t.input);
    match t.running {
        Running::Nothing => Ok(Blame::Nothing),
        Running::Mutant(id) => {
            let kills = files.state.kills();
            let before: Vec<KillKind> = records::read::<KillRecord>(&kills)?
                .iter()
                .filter(|k| k.mutant == id)
                .map(|k| k.kind)
                .collect();
            if before.iter().any(|k| matches!(k, KillKind::Crash | KillKind::Timeout)) {
                return Ok(Blame::Nothing);
            }
            // The input first: a kill record must never name an input that is not stored.
            store_new(&files.corpus, &name, &t.input)?;
            let hung = matches!(ending, Ending::Hung(_));
            let kind = if hung { KillKind::Timeout } else { KillKind::Crash };
            let record = KillRecord {
                mutant: id,
                site: sites.get(&id).copied().unwrap_or(id),
                kind,
                limit: hung.then_some(KillLimit::Wall),
                input: name.clone(),
                trial,
            };
            append_record(&kills, &record)?;
            if before.is_empty() {
                Ok(Blame::Kill { mutant: id, kind, input: name })
            } else {
                Ok(Blame::Rerun { mutant: id, kind })
            }
        }
        Running::Original => {
            let (_, new) = store_new(&files.state.failures(), &name, &t.input)?;
            let log = files.state.failure_log();
            if !new && records::read::<FailureRecord>(&log)?.iter().any(|f| f.input == name) {
                return Ok(Blame::Nothing);
            }
            let record = FailureRecord {
                input: name.clone(),
                message: format!("process died: {how}"),
                location: None,
                trial,
                mutant: None,
            };
            append_record(&log, &record)?;
            Ok(Blame::Failure { input: name })
        }
    }
}

/// Why the loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The time or trial budget is spent.
    Budget,
    /// Every mutant the campaign was aimed at (`--mutants-file`) is killed.
    AllKilled,
    /// Ctrl-C, SIGTERM or SIGHUP.
    Interrupted,
}

/// How a campaign ended: the numbers the summary and `eval` report.
#[derive(Clone, Copy, Debug)]
pub struct Ended {
    /// Why it stopped.
    pub stop: Stop,
    /// Wall time of the fuzz loop (harness starts and restarts included); with
    /// `--cpu-time`, the harness processes' CPU time.
    pub elapsed: Duration,
    /// Trials over every harness process.
    pub trials: u64,
    /// The last counters a harness process printed.
    pub last: Option<Stats>,
    /// Inputs on which a generated target's original panicked (by contract), over every
    /// harness process.
    pub contract_panics: u64,
}

/// The campaign `args.strategy` asks for: the original alone, or mutants first and then
/// the original with the rest of the budget. Trials and time count every phase; the
/// counters are the original phase's.
pub fn with_strategy(built: &Built, args: &FuzzSettings, files: &Files) -> Result<Ended> {
    if args.strategy != Strategy::MutantsFirst {
        return campaign(built, args, files);
    }
    if args.time.is_none() && args.trials.is_none() {
        return Err(exit_code::usage(anyhow::anyhow!(
            "--strategy mutants-first splits a budget: give --time or --trials"
        )));
    }
    let phases = mutants_first::mutant_phases(built, args, files)?;
    let phase_trials: u64 = phases.mutants.iter().map(|p| p.1).sum();
    if phases.interrupted {
        return Ok(Ended {
            stop: Stop::Interrupted,
            elapsed: phases.elapsed,
            trials: phase_trials,
            last: None,
            contract_panics: 0,
        });
    }
    let mut rest = args.clone();
    rest.time = args.time.map(|t| t.saturating_sub(phases.elapsed));
    rest.trials = args.trials.map(|n| n.saturating_sub(phase_trials));
    eprintln!("Phase: the original");
    let ended = campaign(built, &rest, files)?;
    Ok(Ended { elapsed: ended.elapsed + phases.elapsed, trials: ended.trials + phase_trials, ..ended })
}

/// Mutants a `mu2` trial runs at most when `--mutant-sample` is not given: an input of a
/// large crate can reach hundreds of surviving mutants, and running them all made `mu2`
/// keep about 5 % of `coverage`'s trials (2,316 against 46,218 in 60 s) and kill fewer (3,163 against 3,715 in 60 s) on the minilang example.
pub const MU2_MUTANT_SAMPLE: u64 = 4;

/// The sample size passed to the harness (`None`: the engine's default, μZest's 10).
pub fn mutant_sample(args: &FuzzSettings) -> Option<u64> {
    match (args.mutant_sample, args.guidance) {
        (Some(k), _) => Some(k),
        // `infection` is `mu2` with more inputs kept: the same bound.
        (None, mutfuzz_contract::GuidanceKind::Mu2 | mutfuzz_contract::GuidanceKind::Infection) => {
            Some(MU2_MUTANT_SAMPLE)
        }
        (None, _) => None,
    }
}

/// The ids `--mutants-file` lists, read as the harness reads them.
pub fn listed_mutants(args: &FuzzSettings) -> Result<Option<std::collections::BTreeSet<u32>>> {
    let Some(file) = &args.mutants_file else { return Ok(None) };
    let ids = mutfuzz::harness::read_mutants_file(file).map_err(|e| exit_code::usage(anyhow::anyhow!(e)))?;
    Ok(Some(ids))
}

/// The factor on the children of an input that kills: the flag's, or the guidance's.
pub fn kill_factor(args: &FuzzSettings) -> u32 {
    args.kill_factor.unwrap_or(mutfuzz::guidance::default_kill_factor(args.guidance))
}

/// CPU time (user + system) of every child process this one has waited for.
fn children_cpu_time() -> Duration {
    // SAFETY: `usage` is a valid, writable rusage; RUSAGE_CHILDREN is a constant.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    let tv =
        |t: libc::timeval| Duration::new(t.tv_sec.max(0) as u64, (t.tv_usec.clamp(0, 999_999) * 1000) as u32);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// `--hang-timeout` must be a positive number of seconds.
pub fn check_hang_timeout(secs: f64) -> Result<()> {
    if !secs.is_finite() || secs <= 0.0 {
        return Err(exit_code::usage(anyhow::anyhow!("--hang-timeout must be a positive number of seconds")));
    }
    Ok(())
}

/// How a campaign starts: afresh (`fuzz <target>`), or as a later slice of `fuzz --all`,
/// which goes on from a corpus whose mutants already ran in an earlier slice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Start {
    /// The stored corpus already ran its mutants: the first harness process replays it
    /// with the original only (`--resumed`), as a restart does.
    pub resumed: bool,
    /// Added to `--seed`, so that a later slice does not make the edits of an earlier one.
    pub seed_offset: u64,
    /// Trials the first harness process spends replaying the stored corpus: added to a
    /// `--trials` budget and left out of the trials the campaign reports, so that a slice
    /// of N trials makes N new inputs however large the corpus has grown (a time budget
    /// pays for the replay).
    pub replay: u64,
    /// No header line: `fuzz --all` prints one line per slice instead.
    pub quiet: bool,
}

/// Fuzz `args.target` of a built harness into `files` until the budget is spent or the
/// user interrupts, restarting the harness after every crash or hang (the harness is
/// built and the files are chosen).
pub fn campaign(built: &Built, args: &FuzzSettings, files: &Files) -> Result<Ended> {
    campaign_from(built, args, files, Start::default())
}

/// [`campaign`], started as `start` says. A `note` line (a nondeterministic target) is
/// shown once in the process ([`console::first_time`](crate::console::first_time)).
pub fn campaign_from(built: &Built, args: &FuzzSettings, files: &Files, start_as: Start) -> Result<Ended> {
    for dir in [&files.corpus, &files.state.path().to_owned()] {
        std::fs::create_dir_all(dir).with_context(|| format!("failed to create {}", dir.display()))?;
        // A write cut short (Ctrl-C, a killed harness) leaves its hidden temporary file;
        // nothing else would ever remove it.
        let removed = mutfuzz_contract::remove_stale_temps(dir)?;
        if !removed.is_empty() {
            eprintln!(
                "note: removed {} temporary file(s) of interrupted writes from {}",
                removed.len(),
                dir.display()
            );
        }
    }
    let forgotten = forget_kills_of_deleted_inputs(files)?;
    if forgotten > 0 {
        eprintln!(
            "note: {forgotten} mutant(s) killed before by inputs no longer in {}: they run again",
            files.corpus.display()
        );
    }
    let sites: HashMap<u32, u32> = built.viable().map(|m| (m.id, m.site)).collect();
    // The harness counts the listed mutants only: so does the status line.
    let (total, listed) = match listed_mutants(args)? {
        Some(ids) => {
            let n = sites.keys().filter(|id| ids.contains(id)).count() as u64;
            (n, format!(", {n} of them listed in the mutants file"))
        }
        None => (sites.len() as u64, String::new()),
    };
    if !start_as.quiet {
        eprintln!(
            "Fuzzing {}: {} viable mutants{listed} ({} unviable); corpus {}; state {}",
            args.target,
            sites.len(),
            built.unviable.len(),
            files.corpus.display(),
            files.state.path().display()
        );
    }
    let trial_budget = args.trials.map(|n| n.saturating_add(start_as.replay));
    let hang = Duration::from_secs_f64(args.hang_timeout);
    let log = files.state.harness_log();
    let mut status_line = StatusLine::new(Duration::from_secs(5));
    if start_as.quiet {
        status_line = status_line.slice_of(&args.target);
    }
    let mut watch = CampaignWatch {
        built,
        args,
        files,
        start_as,
        sites,
        status_line,
        progress: Progress { total, ..Progress::default() },
        trial_budget,
        start: Instant::now(),
        // With --cpu-time the budget is spent by the harness processes, counted when each ends.
        cpu_before: children_cpu_time(),
        restarts: 0,
        trials_before: 0,
        trial: 0,
        killed_before: 0,
        last: None,
        contract_panics: 0,
    };
    let stop = match supervise_until_done(&mut watch, hang, &log, &built.caps)? {
        Until::Done if args.mutants_file.is_some() && watch.last.is_some_and(|s| s.all_killed()) => {
            Stop::AllKilled
        }
        Until::Done => Stop::Budget,
        Until::Interrupted => Stop::Interrupted,
    };
    Ok(Ended {
        stop,
        elapsed: watch.spent(),
        trials: watch.trials_before.saturating_sub(start_as.replay),
        last: watch.last,
        contract_panics: watch.contract_panics,
    })
}

/// What a campaign watches in its harness's `fuzz` output: the trials and counters for
/// the status line and the budget, and what ran when a process died.
struct CampaignWatch<'a> {
    built: &'a Built,
    args: &'a FuzzSettings,
    files: &'a Files,
    start_as: Start,
    /// Mutant → site, for the kill records of crashes and hangs.
    sites: HashMap<u32, u32>,
    status_line: StatusLine,
    progress: Progress,
    /// The trials to run (those replayed on resuming included), if the budget is trials.
    trial_budget: Option<u64>,
    start: Instant,
    cpu_before: Duration,
    restarts: u32,
    /// Trials of the processes before the running one.
    trials_before: u64,
    /// The number of the last process's last trial.
    trial: u64,
    /// Mutants killed before the last process, by its predecessors' counters.
    killed_before: usize,
    /// The last counters any process printed.
    last: Option<Stats>,
    contract_panics: u64,
}

impl CampaignWatch<'_> {
    /// The budget spent: wall time, or with `--cpu-time` the harness processes' CPU time.
    fn spent(&self) -> Duration {
        if self.args.cpu_time {
            children_cpu_time().saturating_sub(self.cpu_before)
        } else {
            self.start.elapsed()
        }
    }

    fn show_notes(&mut self, notes: &[String]) {
        for note in notes {
            if crate::console::first_time(note) {
                self.status_line.message(note);
            }
        }
    }
}

impl Watch for CampaignWatch<'_> {
    type Tracker = CampaignTracker;
    const REFUSED: &'static str = "the harness stopped the campaign";
    const PROGRESS: &'static str = "finding anything new";

    fn next(&mut self, restarts: u32) -> Result<Option<std::process::Command>> {
        self.restarts = restarts;
        let remaining_trials = self.trial_budget.map(|n| n.saturating_sub(self.trials_before));
        let remaining_time = self.args.time.map(|t| t.saturating_sub(self.spent()));
        if remaining_trials == Some(0) || remaining_time.is_some_and(|t| t < Duration::from_millis(500)) {
            return Ok(None);
        }
        self.progress = Progress { total: self.progress.total, ..Progress::default() };
        let (built, args, files) = (self.built, self.args, self.files);
        fuzz_command(built, args, files, restarts, self.start_as, remaining_trials, remaining_time).map(Some)
    }

    fn tick(&mut self, t: &mut CampaignTracker) {
        let notes = std::mem::take(&mut t.notes);
        self.show_notes(&notes);
        let p = &mut self.progress;
        p.elapsed = self.start.elapsed();
        p.trials = self.trials_before + t.trials();
        p.restarts = self.restarts;
        if let Some(s) = t.stats.or(self.last) {
            p.corpus = s.corpus as u64;
            p.edges = s.edges as u64;
            p.killed = s.mutants_killed as u64;
            p.covered = s.mutants_seen.max(s.mutants_killed) as u64;
            p.failures = s.failures as u64;
            p.discards = s.discards;
            p.queued = s.queued;
            p.random_edits = s.random_edits;
            p.edits = [s.dictionary_edits, s.compare_edits, s.targeted_edits];
        }
        // Strategies other than the defaults are named on the line.
        p.edit = if self.args.edit == EditKind::default() { "" } else { self.args.edit.name() };
        p.schedule =
            if self.args.schedule == ScheduleKind::default() { "" } else { self.args.schedule.name() };
        self.status_line.show(p);
    }

    fn ended(&mut self, t: &CampaignTracker, run: &Supervised) -> Result<()> {
        self.show_notes(&t.notes);
        self.contract_panics += t.stats.map_or(0, |s| s.contract_panics);
        self.trial = (self.trials_before + t.trial_lines).saturating_sub(1);
        self.trials_before += t.trials();
        self.killed_before = self.last.map_or(0, |s| s.mutants_killed);
        if t.stats.is_some() {
            self.last = t.stats;
        }
        match disk_full(&run.stderr_tail) {
            Some(line) => Err(disk_full_error(line)),
            None => Ok(()),
        }
    }

    fn finished(&self, t: &CampaignTracker) -> bool {
        t.done || t.running == Running::Nothing
    }

    fn idle(&self, t: &CampaignTracker) -> bool {
        t.running == Running::Nothing
    }

    fn no_mutant(&self, t: &CampaignTracker) -> bool {
        !matches!(t.running, Running::Mutant(_))
    }

    fn drifted(&mut self, t: &CampaignTracker) -> Result<bool> {
        Ok(t.stats.is_some_and(|s| s.mutants_killed > self.killed_before))
    }

    fn blame(&mut self, t: &CampaignTracker, run: &Supervised) -> Result<(bool, String)> {
        let mut how = run.ending.describe();
        if let Some(words) = run.last_words() {
            how = format!("{how}: {}", words.chars().take(200).collect::<String>());
        }
        let blame = attribute(t, &run.ending, &how, self.trial, self.files, &self.sites)?;
        let progressed =
            blame != Blame::Nothing || t.stats.is_some_and(|s| s.mutants_killed > self.killed_before);
        self.status_line.message(&match &blame {
            Blame::Kill { mutant, kind, input } => {
                format!("mutant {mutant} killed by {kind} ({how}) on input {input}; restarting the harness")
            }
            Blame::Rerun { mutant, kind } => format!(
                "mutant {mutant}, killed before, died ({how}) when run again; recorded as {kind}, \
                 never run again; restarting the harness"
            ),
            Blame::Failure { input } => format!(
                "FAILURE: the original died ({how}) on input {input}; saved in {}; restarting the harness",
                self.files.state.failures().display()
            ),
            Blame::Nothing => format!("the harness died ({how}); restarting it"),
        });
        Ok((progressed, how))
    }

    fn say(&mut self, message: &str) {
        self.status_line.message(message);
    }

    fn corpus(&self) -> Option<&Path> {
        Some(&self.files.corpus)
    }

    fn close(&mut self) {
        self.status_line.finish();
    }
}

fn fuzz_command(
    built: &Built,
    args: &FuzzSettings,
    files: &Files,
    restarts: u32,
    start: Start,
    trials: Option<u64>,
    time: Option<Duration>,
) -> Result<std::process::Command> {
    let probability = |p: f64| {
        Probability::new(p)
            .ok_or_else(|| exit_code::usage(anyhow::anyhow!("{p} is not a probability from 0 to 1")))
    };
    let request = FuzzRequest {
        target: args.target.clone(),
        state: files.state.path().to_owned(),
        corpus: files.corpus.clone(),
        mutants: built.state.viable(),
        // A restart resumes from the corpus; a new seed keeps it from replaying the same edits.
        seed: args.seed.wrapping_add(start.seed_offset).wrapping_add(u64::from(restarts)),
        trials,
        time: time.map(|t| t.as_secs_f64().ceil().max(1.0)),
        cpu_time: time.is_some() && args.cpu_time,
        guidance: args.guidance,
        edit: args.edit,
        schedule: args.schedule,
        prune: args.prune,
        sample: mutant_sample(args),
        verify_pruning: args.verify_pruning,
        no_drift_check: args.no_drift_check,
        kill_factor: Some(kill_factor(args)),
        infect_factor: args.infect_factor,
        focus: args.focus,
        mutants_file: args.mutants_file.as_ref().map(std::path::absolute).transpose()?,
        background: args.background,
        // The corpus on disk already ran its mutants; a restart only rebuilds coverage.
        resumed: restarts > 0 || start.resumed,
        // The corpus is the supervisor's (see `handover`): read-only in the sandbox.
        hand_over: true,
        panic_is_failure: args.panic_is_failure,
        jobs: (args.jobs > 1).then_some(args.jobs),
        isolate: args.isolate,
        workers: WorkerLimits {
            // Half the hang timeout: a stuck worker (for `--jobs` or `--isolate`) is ended, and
            // its mutant killed by timeout, before the harness, waiting for it, looks hung.
            timeout: Some(args.hang_timeout / 2.0),
            // A worker's output is read by the harness, not by the supervisor: the same cap.
            max_output: Some(built.caps.output.unwrap_or(0)),
        },
        hints: Some(built.state.hints()),
        dictionary: Some(probability(args.dictionary)?),
        compare: Some(probability(args.compare)?),
        target_types: args.target_types,
    };
    built.sandboxed_command(&HarnessCommand::Fuzz(request), &[&files.corpus])
}

/// The harness's line saying it could not write because the disk is full, if any.
pub fn disk_full(stderr_tail: &[String]) -> Option<&str> {
    // ENOSPC, as the standard library words it.
    stderr_tail.iter().rev().map(String::as_str).find(|l| l.contains("No space left on device"))
}

/// Warn about each corpus file the harness will skip (damaged or unreadable); the
/// harness's own warnings go to its log, which the user may never read. A corpus
/// directory that cannot be read is an error.
pub fn warn_skipped_inputs(corpus: &Path) -> Result<()> {
    let read = mutfuzz_contract::read_corpus(corpus).map_err(|e| {
        exit_code::usage(anyhow::anyhow!(
            "{e}: make the corpus directory readable, or pass another with --corpus DIR"
        ))
    })?;
    for skipped in &read.skipped {
        eprintln!("warning: {skipped}");
    }
    Ok(())
}

/// Drops the kill records whose input is no longer in the corpus directory (the user
/// deleted it, or emptied the directory to start over): a kill counts only while the
/// input that shows it is kept, so those mutants run again. Returns how many mutants
/// lost their kill; the file is rewritten atomically, and only when one did.
pub fn forget_kills_of_deleted_inputs(files: &Files) -> Result<usize> {
    let path = files.state.kills();
    let kills = records::read::<KillRecord>(&path)?;
    let (kept, gone): (Vec<KillRecord>, Vec<KillRecord>) =
        kills.into_iter().partition(|k| files.corpus.join(&k.input).is_file());
    if gone.is_empty() {
        return Ok(0);
    }
    let mut text = String::new();
    for k in &kept {
        text.push_str(&serde_json::to_string(k)?);
        text.push('\n');
    }
    mutfuzz_contract::write_atomic(&path, text.as_bytes())?;
    let still: HashSet<u32> = kept.iter().map(|k| k.mutant).collect();
    Ok(gone.iter().map(|k| k.mutant).filter(|m| !still.contains(m)).collect::<HashSet<_>>().len())
}

/// Files (not temporaries) in a directory.
pub fn count_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.') && e.path().is_file())
                .count()
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::Exit;

    /// A state directory and a corpus path (not created) in a fresh temporary directory.
    fn temp_files() -> (tempfile::TempDir, Files) {
        let dir = tempfile::tempdir().unwrap();
        let files =
            Files { state: CampaignDir::new(dir.path().join("state")), corpus: dir.path().join("corpus") };
        std::fs::create_dir_all(files.state.path()).unwrap();
        (dir, files)
    }

    fn tracked(lines: &[&str]) -> CampaignTracker {
        let mut t = CampaignTracker::default();
        for l in lines {
            t.observe(Line::parse(l));
        }
        t
    }

    #[test]
    fn the_tracker_knows_what_runs() {
        let t = tracked(&["trial 0a0b", "mutant 4", "mutant 7"]);
        assert_eq!((t.running, t.input.as_slice(), t.trial_lines), (Running::Mutant(7), &[10u8, 11][..], 1));
        let t = tracked(&["trial 0a", "mutant 4", "trial 0c"]);
        assert_eq!((t.running, t.input.as_slice()), (Running::Original, &[12u8][..]));
        // The engine or a generator panicked after mutant 4 ran: nothing under test runs.
        let t = tracked(&["trial 0a", "mutant 4", "engine"]);
        assert_eq!(t.running, Running::Nothing);
        let done = Line::Done(mutfuzz_contract::Report {
            elapsed: 1.0,
            stats: Stats { trials: 9, ..Stats::default() },
        })
        .to_string();
        let t = tracked(&["trial 0a", &done]);
        assert_eq!((t.running, t.done, t.trials()), (Running::Nothing, true, 9));
        // A note is kept for the supervisor to show; what runs stays as it was.
        let t = tracked(&["trial 0a", "note target t is nondeterministic"]);
        assert_eq!(
            (t.running, t.notes.as_slice()),
            (Running::Original, &["target t is nondeterministic".to_owned()][..])
        );
    }

    #[test]
    fn kills_whose_input_was_deleted_are_forgotten() {
        let (_dir, files) = temp_files();
        let (kept, gone) = (content_name(b"kept"), content_name(b"gone"));
        store_new(&files.corpus, &kept, b"kept").unwrap();
        let kill = |mutant, input: &str| KillRecord {
            mutant,
            site: 1,
            kind: KillKind::OutputDiffers,
            limit: None,
            input: input.to_owned(),
            trial: 0,
        };
        // Mutant 3 was killed by both: it keeps the kill of the input still there.
        let records = [kill(2, &kept), kill(3, &gone), kill(3, &kept), kill(4, &gone)];
        for r in &records {
            append_record(&files.state.kills(), r).unwrap();
        }
        assert_eq!(forget_kills_of_deleted_inputs(&files).unwrap(), 1);
        let left = records::read::<KillRecord>(&files.state.kills()).unwrap();
        assert_eq!(left, [kill(2, &kept), kill(3, &kept)]);
        assert_eq!(forget_kills_of_deleted_inputs(&files).unwrap(), 0, "nothing more to forget");
        // The whole corpus deleted: every kill goes, and the campaign starts over.
        std::fs::remove_dir_all(&files.corpus).unwrap();
        assert_eq!(forget_kills_of_deleted_inputs(&files).unwrap(), 2);
        assert!(records::read::<KillRecord>(&files.state.kills()).unwrap().is_empty());
    }

    #[test]
    fn a_crash_in_a_mutant_is_a_kill_once_and_in_the_original_a_failure() {
        let (_dir, files) = temp_files();
        let sites = HashMap::from([(5, 4)]);
        let died = Ending::Exited(Exit::Signal(6));
        let t = tracked(&["trial 0102", "mutant 5"]);
        let blame = attribute(&t, &died, "killed by signal 6", 3, &files, &sites).unwrap();
        let name = content_name(&[1, 2]);
        assert_eq!(blame, Blame::Kill { mutant: 5, kind: KillKind::Crash, input: name.clone() });
        assert_eq!(std::fs::read(files.corpus.join(&name)).unwrap(), [1, 2]);
        let text = std::fs::read_to_string(files.state.kills()).unwrap();
        assert_eq!(
            text,
            format!("{{\"mutant\":5,\"site\":4,\"kind\":\"crash\",\"input\":\"{name}\",\"trial\":3}}\n")
        );
        // Recorded once, even if it somehow runs again.
        assert_eq!(attribute(&t, &died, "again", 4, &files, &sites).unwrap(), Blame::Nothing);
        // A mutant killed by its output and run again (μZest) that crashes is recorded a
        // second time, as a crash, and then never again.
        append_record(
            &files.state.kills(),
            &KillRecord {
                mutant: 7,
                site: 7,
                kind: KillKind::OutputDiffers,
                limit: None,
                input: name.clone(),
                trial: 1,
            },
        )
        .unwrap();
        let rerun = tracked(&["trial 0102", "mutant 7"]);
        let blame = attribute(&rerun, &died, "killed by signal 6", 5, &files, &sites).unwrap();
        assert_eq!(blame, Blame::Rerun { mutant: 7, kind: KillKind::Crash });
        assert_eq!(attribute(&rerun, &died, "again", 6, &files, &sites).unwrap(), Blame::Nothing);

        let hung = tracked(&["trial 09", "mutant 6"]);
        let blame =
            attribute(&hung, &Ending::Hung(Duration::from_secs(1)), "hung", 7, &files, &sites).unwrap();
        assert!(matches!(blame, Blame::Kill { mutant: 6, kind: KillKind::Timeout, .. }), "{blame:?}");
        let kills = records::read::<KillRecord>(&files.state.kills()).unwrap();
        let last = kills.last().unwrap();
        assert_eq!((last.mutant, last.limit), (6, Some(KillLimit::Wall)));

        let t = tracked(&["trial ff"]);
        let blame = attribute(&t, &died, "killed by signal 6", 9, &files, &sites).unwrap();
        let name = content_name(&[255]);
        assert_eq!(blame, Blame::Failure { input: name.clone() });
        assert!(files.state.failures().join(&name).is_file());
        let failures = records::read::<FailureRecord>(&files.state.failure_log()).unwrap();
        assert_eq!(failures[0].message, "process died: killed by signal 6");
        assert_eq!(attribute(&t, &died, "again", 10, &files, &sites).unwrap(), Blame::Nothing);
        assert_eq!(
            attribute(&CampaignTracker::default(), &died, "x", 0, &files, &sites).unwrap(),
            Blame::Nothing
        );
    }
}
