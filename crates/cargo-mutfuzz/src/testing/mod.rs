//! Mutation-testing a crate's own tests: one schema build, one recorded baseline, then
//! each mutant run against only the tests that execute its site (`cargo mutfuzz test`,
//! and `amplify`'s check of the tests it writes).
//!
//! The schema build: [`schema_build::build_schema`] (the viability loop over cargo).
//! Interrupted (Ctrl-C, SIGTERM, SIGHUP), it stops every test process and still writes
//! `mutfuzz.out/` with every outcome decided so far; the rest are `not-run`, the summary
//! says `interrupted`, and the exit code is 130.
//!
//! With `--iterate`, the previous results in the output directory are read before it is
//! moved aside: a mutant they show caught (matched by name, as cargo-mutants matches) is
//! carried over as caught, not run again, unless the build now finds it unviable.

pub(crate) mod baseline;
mod batch;
mod history;
mod settings;

pub use settings::TestSettings;
pub(crate) mod lab;
pub(crate) mod loader;
pub(crate) mod outcome;
pub(crate) mod output;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;
use mutfuzz_mutate::{Discovery, Mutant};

use crate::catalog::selection::Selection;
use crate::console::exit_code;
use crate::console::{Console, duration};
use crate::process::Exit;
use crate::process::caps::Caps;
use crate::process::interrupt;
use crate::process::sandbox::{Policy, Sandbox};
use crate::schema::cargo_build::{self, BuildFlags, BuildWhat};
use crate::schema::doctest_target::{self, DoctestTarget};
use crate::schema::lint_check;
use crate::schema::lints;
use crate::schema::schema_build;
use crate::schema::viability::{BuildFailure, Round};
use crate::testing::baseline::TestRecord;
use crate::testing::lab::{Lab, Limits};
use crate::testing::outcome::{BaselineSummary, MutantOutcome, Outcome, OutcomesFile, Summary, TestInfo};
use crate::testing::output::OutputDir;
use crate::workspace::Workspace;
use crate::workspace::scratch::Scratch;
use history::History;

const DEFAULT_TIMEOUT_MULTIPLIER: f64 = 5.0;
/// Seconds: enough for a test process to start on a loaded 2-core machine; a runaway
/// that sleeps (not burning fuel) costs this, or `K ×` its tests' baseline time.
const DEFAULT_MINIMUM_TIMEOUT: f64 = 3.0;
/// Seconds one unmutated test may run before the baseline is declared hung.
const DEFAULT_BASELINE_TIMEOUT: f64 = 300.0;

/// What is known so far; written out at the end, or when interrupted.
struct Results<'a> {
    start: Instant,
    out: &'a OutputDir,
    mutants: &'a [Mutant],
    /// Per mutant, in catalog order: its outcome once decided.
    outcomes: Vec<Option<MutantOutcome>>,
    rounds: Vec<Round>,
    viability_cached: bool,
    baseline: Option<BaselineSummary>,
    /// The baseline's tests, once listed and recorded.
    tests: Vec<TestInfo>,
    /// The mutants this run covers (`--in-diff`, `--shard`); the others get no outcome.
    selection: Selection,
    min_score: Option<f64>,
    /// `--annotations`: the path of the workspace root in its repository, when on.
    annotate: Option<String>,
    /// The feature flags, recorded for `amplify`.
    features: crate::workspace::Features,
    /// Each package's manifest, by name: which features its build turns on.
    manifests: BTreeMap<String, PathBuf>,
}

impl Results<'_> {
    /// Write `outcomes.json` and the lists, print the summary; returns the exit code.
    /// Mutants with no outcome yet are `not-run`.
    fn finish(self, console: &Console) -> Result<i32> {
        let selection = &self.selection;
        let outcomes: Vec<MutantOutcome> = self
            .outcomes
            .into_iter()
            .zip(self.mutants)
            .enumerate()
            .filter(|(i, _)| selection.selected(*i))
            .map(|(_, (o, m))| o.unwrap_or_else(|| MutantOutcome::fixed(m, Outcome::NotRun, None)))
            .collect();
        let baseline_failed = self.baseline.as_ref().is_some_and(|b| b.failure.is_some());
        let mut summary = Summary::of(&outcomes);
        // Mutants left unrun by a failed baseline were not interrupted.
        summary.interrupted &= interrupt::interrupted();
        let file = OutcomesFile {
            mutfuzz_version: env!("CARGO_PKG_VERSION").to_owned(),
            summary: summary.clone(),
            total_seconds: self.start.elapsed().as_secs_f64(),
            schema_build: self.rounds,
            schema_build_cached: self.viability_cached,
            baseline: self.baseline,
            shard: selection.shard,
            feature_flags: self.features,
            tests: self.tests,
            outcomes,
        };
        self.out.write_json("outcomes.json", &file)?;
        self.out.write_lists(&file.outcomes)?;
        let carried: Vec<&MutantOutcome> = file.outcomes.iter().filter(|o| o.previously_caught).collect();
        if !carried.is_empty() {
            // As cargo-mutants' `previously_caught.txt`: caught before, not tested now.
            let text: String = carried.iter().map(|o| o.mutant.name() + "\n").collect();
            mutfuzz_contract::write_atomic(&self.out.path.join("previously_caught.txt"), text.as_bytes())?;
        }
        if let Some(prefix) = &self.annotate {
            for o in &file.outcomes {
                let what = match o.outcome {
                    Outcome::Missed => "Missed mutant",
                    // cargo-mutants calls these missed too: no test fails with them.
                    Outcome::NotCovered => "Missed mutant (no test reaches it)",
                    _ => continue,
                };
                println!("{}", crate::console::annotations::warning(prefix, &o.mutant, what));
            }
        }
        if summary.interrupted {
            console.message("interrupted: stopped every process it had started");
        }
        if summary.interrupted || !baseline_failed {
            console.message(&format!("{summary} in {}", duration(self.start.elapsed())));
            if let Some(note) = features_off(&file.outcomes, &file.feature_flags, &self.manifests) {
                console.message(&note);
            }
        }
        if let Some(min) = self.min_score.filter(|_| !summary.interrupted && !baseline_failed) {
            let verdict = if summary.score_percent() < min { "below" } else { "at or above" };
            console.message(&format!(
                "Mutation score {:.1}% (caught and timeout over viable mutants): {verdict} --min-score {min}",
                summary.score_percent()
            ));
        }
        console.message(&format!("Results in {}", self.out.path.display()));
        Ok(summary.exit_code_with(self.min_score))
    }
}

/// A note on the mutants no test covers whose code a `cfg` leaves out of this build: a
/// feature it asks for is off (`#[cfg(feature = "serde")] mod serde;`), so no test can
/// reach them, whatever the suite holds.
fn features_off(
    outcomes: &[MutantOutcome],
    flags: &crate::workspace::Features,
    manifests: &BTreeMap<String, PathBuf>,
) -> Option<String> {
    let mut enabled: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut off_features = BTreeSet::new();
    let mut nightly = BTreeSet::new();
    let mut count = 0;
    for o in outcomes.iter().filter(|o| o.outcome == Outcome::NotCovered && !o.mutant.features.is_empty()) {
        let package = o.mutant.package.as_str();
        let on = enabled.entry(package).or_insert_with(|| match manifests.get(package) {
            Some(manifest) => {
                nightly.extend(nightly_features(manifest));
                flags.enabled(manifest, package)
            }
            None => BTreeSet::new(),
        });
        let off: Vec<&String> = o.mutant.features.iter().filter(|f| !on.contains(*f)).collect();
        if !off.is_empty() {
            count += 1;
            off_features.extend(off.into_iter().cloned());
        }
    }
    if count == 0 {
        return None;
    }
    let names: Vec<String> = off_features.iter().map(|f| format!("`{f}`")).collect();
    // A feature that turns on a `#![feature(…)]` builds on nightly alone: not suggested.
    let (unstable, stable): (Vec<String>, Vec<String>) =
        off_features.into_iter().partition(|f| nightly.contains(f));
    let builds = match (stable.is_empty(), unstable.is_empty()) {
        (false, true) => format!("`--features {}` builds them", stable.join(",")),
        (false, false) => format!(
            "`--features {}` builds them, but for {}, which need a nightly compiler",
            stable.join(","),
            unstable.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
        ),
        (true, _) => "they need a nightly compiler".to_owned(),
    };
    Some(format!(
        "  ({count} of the not covered are behind features this build leaves off: {}; {builds})",
        names.join(", "),
    ))
}

/// The features of the package at `manifest` that turn on an unstable feature of the
/// compiler at its library's root (`#![cfg_attr(feature = "specialization",
/// feature(specialization))]`): a stable compiler refuses to build with them.
fn nightly_features(manifest: &Path) -> BTreeSet<String> {
    let lib = manifest.with_file_name("src/lib.rs");
    let Some(file) = std::fs::read_to_string(lib).ok().and_then(|text| syn::parse_file(&text).ok()) else {
        return BTreeSet::new();
    };
    let mut out = BTreeSet::new();
    for attr in file.attrs.iter().filter(|a| a.path().is_ident("cfg_attr")) {
        let Ok(metas) =
            attr.parse_args_with(syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
        else {
            continue;
        };
        let mut metas = metas.into_iter();
        let Some(syn::Meta::NameValue(cfg)) = metas.next() else { continue };
        if cfg.path.is_ident("feature")
            && metas.any(|m| m.path().is_ident("feature"))
            && let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(name), .. }) = &cfg.value
        {
            out.insert(name.value());
        }
    }
    out
}

/// Mutation-test the workspace `args` names, every mutant or `only` those; writes the
/// results directory and returns the exit code.
pub fn run(args: &TestSettings, only: Option<&std::collections::BTreeSet<u32>>) -> Result<i32> {
    let start = Instant::now();
    interrupt::install();
    let mut console = if args.quiet { Console::quiet() } else { Console::default() };
    let ws = Workspace::open(&args.package)?;
    let (discovery, config) = ws.discover()?;
    crate::catalog::list::report(&console, &discovery);
    for p in ws.packages.iter().filter(|p| p.proc_macro) {
        console.message(&format!(
            "note: {} is a proc-macro crate: a macro expanded while the schema builds runs with no \
             mutant active, so only its unit tests and doctests (expanded as they run) reach its \
             mutants, not expansions in other tests",
            p.name
        ));
    }
    let multiplier =
        args.timeout_multiplier.or(config.file.timeout_multiplier).unwrap_or(DEFAULT_TIMEOUT_MULTIPLIER);
    let minimum_timeout =
        args.minimum_timeout.or(config.file.minimum_timeout).unwrap_or(DEFAULT_MINIMUM_TIMEOUT);
    let jobs = crate::process::pool::jobs_or_cpus(args.jobs);

    let layout = crate::workspace::layout::Layout::new(&ws.target_dir);
    crate::workspace::scratch::check_writable(&layout)?;
    // Before `mutfuzz.out/` is touched: a second run would rotate the first's results.
    crate::workspace::lock::hold(layout.root())?;
    let out_path = args.output.clone().unwrap_or_else(|| ws.root.join("mutfuzz.out"));
    let filter = crate::catalog::filter::RunFilter::new(&ws, &args.filter)?;
    let mut selection =
        Selection::from_args(&discovery.mutants, args.in_diff.as_deref(), Some(&filter), args.shard)?;
    if let Some(ids) = only {
        selection = selection.only(&discovery.mutants, ids);
    }
    if let Some(text) = selection.describe() {
        console.message(&text);
    }
    let previous = if args.iterate { previously_caught(&out_path, &console) } else { HashMap::new() };
    let out = OutputDir::create(&out_path).map_err(|e| {
        exit_code::usage(anyhow::anyhow!(
            "cannot write the results directory {} ({:#}): pass a writable one with --output DIR",
            out_path.display(),
            e.root_cause()
        ))
    })?;
    // The run's mutant set (every shard writes the same catalog, as an unsharded run).
    let set: Vec<&Mutant> =
        discovery.mutants.iter().enumerate().filter(|(i, _)| selection.in_set(*i)).map(|(_, m)| m).collect();
    out.write_json("mutants.json", &set)?;
    let mut results = Results {
        start,
        out: &out,
        mutants: &discovery.mutants,
        outcomes: vec![None; discovery.mutants.len()],
        rounds: Vec::new(),
        viability_cached: false,
        baseline: None,
        tests: Vec::new(),
        selection,
        min_score: args.min_score,
        annotate: crate::console::annotations::enabled(&args.annotations)
            .then(|| crate::console::annotations::repository_prefix(&ws.root)),
        features: args.features.clone(),
        manifests: ws.packages.iter().map(|p| (p.name.clone(), p.root.join("Cargo.toml"))).collect(),
    };

    let caps = Caps::resolve(args.max_memory.as_deref(), args.max_output.as_deref(), &config.file, false)
        .map_err(exit_code::usage)?;
    console.message(&format!("Caps per test process: {}", caps.describe()));
    // What changes how the tests run, for the history's keys; amplify's check of new
    // tests (`only`) neither reads nor writes it.
    let history = (!args.no_history && only.is_none()).then(|| {
        let settings = vec![
            {
                let f = &args.features;
                format!("features {:?} {} {}", f.features, f.all_features, f.no_default_features)
            },
            format!("test args {:?}", args.test_args),
            format!("timeouts {multiplier} {minimum_timeout}"),
            format!("caps {}", caps.describe()),
            format!("sandbox {} doctests {}", !args.no_sandbox, !args.no_doctests),
        ];
        (History::load(history::path(layout.root())), settings)
    });
    let limits = Limits { multiplier, minimum_timeout: Duration::from_secs_f64(minimum_timeout), caps };
    let env = Env { limits, jobs, config: &config, previous, history };
    match mutation_test(args, &ws, &discovery, env, &mut console, &mut results) {
        // The baseline failed: its result is still recorded, every mutant `not-run`.
        Ok(Some(code)) => results.finish(&console).map(|_| code),
        Ok(None) => results.finish(&console),
        // Whatever a step made of being cut short, what finished is kept.
        Err(_) if interrupt::interrupted() => results.finish(&console),
        Err(e) => Err(e),
    }
}

/// How the tests run: limits, parallelism, the config (for the sandbox), with
/// `--iterate` the previous run's caught mutants by name, and unless `--no-history` the
/// outcome history with the settings its keys hold.
struct Env<'a> {
    limits: Limits,
    jobs: usize,
    config: &'a mutfuzz_mutate::Config,
    previous: HashMap<String, MutantOutcome>,
    history: Option<(History, Vec<String>)>,
}

/// `--iterate`: the mutants the results in `dir` show caught, by name (carried-over ones
/// included, so the loop accumulates as cargo-mutants' does). None when there are none.
fn previously_caught(dir: &std::path::Path, console: &Console) -> HashMap<String, MutantOutcome> {
    match crate::testing::output::read_outcomes(dir) {
        Ok(read) => read
            .outcomes
            .into_iter()
            .filter(|o| o.outcome == Outcome::Caught)
            .map(|o| (o.mutant.name(), o))
            .collect(),
        Err(_) => {
            console.message(&format!(
                "note: --iterate: no previous results in {}: every mutant is tested",
                dir.display()
            ));
            HashMap::new()
        }
    }
}

/// Everything after the results directory exists: the schema build, the baseline and
/// the mutant runs, filling `results`. `Some(code)` ends the command without results
/// (the package does not build, or its tests fail, unmutated).
fn mutation_test(
    args: &TestSettings,
    ws: &Workspace,
    discovery: &Discovery,
    env: Env<'_>,
    console: &mut Console,
    results: &mut Results<'_>,
) -> Result<Option<i32>> {
    if results.selection.count() == 0 {
        match &results.selection.filtered {
            Some(f) if results.selection.set_count() == 0 => console.message(&format!(
                "No mutant matches {f} (of {} mutants): nothing built, nothing run",
                results.mutants.len()
            )),
            _ if results.mutants.is_empty() => console.message(
                "No mutants in the package: its code is all in regions that are not mutated (the line \
                 above); nothing built, nothing run",
            ),
            _ => console.message("No mutants to test in this selection: nothing built, nothing run"),
        }
        return Ok(None);
    }
    let out_path = results.out.path.clone();
    let baseline_timeout = Duration::from_secs_f64(args.baseline_timeout.unwrap_or(DEFAULT_BASELINE_TIMEOUT));
    let mut scratch = Scratch::new(ws);
    scratch.trim_dev_deps = !args.keep_dev_deps;
    // Declared, then removed below as stale, the doctest target would stop cargo before
    // any build.
    scratch.doctests = !args.no_doctests;
    let mut old = out_path.clone().into_os_string();
    old.push(".old");
    let skip = [out_path.clone(), PathBuf::from(old)];
    let trimmed = scratch.prepare(ws, discovery, &skip)?;
    if !trimmed.is_empty() {
        console.message(&format!(
            "Dev-dependencies that no test names are not built: {} (--keep-dev-deps builds them)",
            trimmed.join("; ")
        ));
    }
    let Env { limits, jobs, config, previous, history } = env;
    let policy = Policy::of(&scratch.layout, config, args.no_sandbox);
    let sandbox = Sandbox::of(policy.as_ref())?;

    let flags = BuildFlags { features: args.features.clone(), what: BuildWhat::Tests, dev: false };
    // Doctests compile once into a test target of the schema build.
    let mut doctests =
        if args.no_doctests { Vec::new() } else { DoctestTarget::collect(ws, &scratch, discovery) };
    for p in &ws.packages {
        let stale = scratch.in_work(&p.root.join("tests").join(format!("{}.rs", doctest_target::TARGET)));
        if !doctests.iter().any(|t| t.path == stale) && stale.exists() {
            std::fs::remove_file(&stale)?;
        }
    }
    let mut build =
        schema_build::build_schema(ws, &scratch, discovery, &flags, &mut doctests, &skip, console);
    if matches!(build, Err(BuildFailure::Baseline(_))) && !trimmed.is_empty() && !interrupt::interrupted() {
        // A dependency was needed after all (named in a way the scan cannot see).
        console.message(
            "The build failed; building again with every dev-dependency, in case the tests need one left out",
        );
        scratch.trim_dev_deps = false;
        scratch.prepare(ws, discovery, &skip)?;
        build = schema_build::build_schema(ws, &scratch, discovery, &flags, &mut doctests, &skip, console);
    }
    let build = match build {
        Ok(b) => b,
        Err(BuildFailure::Baseline(schema_text)) => {
            return Ok(unbuildable(ws, &scratch, discovery, &flags, &doctests, schema_text, results));
        }
        Err(BuildFailure::Internal(e)) => return Err(e),
    };
    results.rounds = build.rounds.clone();
    results.viability_cached = build.found == crate::schema::schema_build::Found::Cache;
    console.message(&format!("Schema built {}; {} test binaries", build.describe(), build.binaries.len()));
    for (o, m) in results.outcomes.iter_mut().zip(&discovery.mutants) {
        if let Some(reason) = build.unviable.get(&m.id) {
            *o = Some(MutantOutcome::fixed(m, Outcome::Unviable, Some(reason.clone())));
        }
    }
    if !args.no_lint_check {
        lint_verdicts(ws, &scratch, discovery, &flags, console, results)?;
    }
    if args.iterate {
        carry_over(&previous, discovery, console, results);
    }
    let mut binaries = build.binaries.clone();
    if args.no_doctests {
        console.message("note: doctests are not run (--no-doctests)");
    } else {
        for p in ws.packages.iter().filter(|p| p.lib_name.is_some()) {
            binaries.push(cargo_build::doctests(ws, &scratch, &flags, &p.name));
        }
    }

    let mut cases = baseline::list_tests(&binaries, &args.test_args)?;
    // Doctests compiled into the schema build are not run through rustdoc again.
    let compiled = format!("test {}", doctest_target::TARGET);
    if binaries.iter().any(|b| b.target == compiled) {
        cases.retain(|c| !binaries[c.binary].is_doctests() || !doctests.iter().any(|t| t.covers(&c.name)));
    }
    let baseline_start = Instant::now();
    console.start(cases.len() as u64, "baseline");
    let max_id = discovery.mutants.last().map_or(0, |m| m.id) as usize;
    let records = baseline::record(
        &binaries,
        &cases,
        max_id + 1,
        &scratch.layout.baseline(),
        baseline::Runs { timeout: baseline_timeout, jobs, sandbox: &sandbox, caps: &limits.caps },
        console,
    );
    console.finish();
    if interrupt::interrupted() {
        return Ok(None);
    }
    let baseline_time = baseline_start.elapsed();
    let records: Vec<TestRecord> = match records? {
        Ok(r) => r,
        Err(failed) => {
            let f = &failed[0];
            let doctest = binaries[f.binary].is_doctests() || binaries[f.binary].target == compiled;
            let (what, hint) = failure_reason(
                &f.exit,
                &f.output,
                (&cases[f.case].name, doctest),
                baseline_timeout,
                limits.caps.memory.is_some(),
            );
            // A doctest compiled into our test target is named where the user wrote it.
            let test = doctests
                .iter()
                .flat_map(|t| &t.entries)
                .find(|e| doctest && f.test.starts_with(&format!("{} (", e.test_name())))
                .map_or(format!("test {}", f.test), |e| {
                    format!("the doctest at {}:{}", e.file, e.fence_line)
                });
            let no_doctests = if doctest { "; to leave doctests out, run with --no-doctests" } else { "" };
            // A test that passes outside the sandbox writes where it may not, or uses the
            // network: say so, and how to allow it.
            let dir = scratch.layout.baseline().join("unsandboxed");
            let passes_unsandboxed = sandbox.is_on()
                && f.exit != Exit::TimedOut
                && std::fs::create_dir_all(&dir).is_ok()
                && matches!(
                    baseline::record_one(
                        &binaries,
                        &cases[f.case],
                        f.case,
                        max_id + 1,
                        &dir,
                        baseline_timeout,
                        &Sandbox::off(),
                        &limits.caps
                    ),
                    Ok(Ok(_))
                );
            if passes_unsandboxed {
                eprintln!(
                    "error: {test} fails in the sandbox but passes without it: it writes outside \
                     target/mutfuzz/ or opens a network connection. Grant what it needs in \
                     mutfuzz.toml (`sandbox_writable = [\"DIR\"]`, `sandbox_network = true`) or run \
                     with --no-sandbox:\n{}",
                    f.output
                );
            } else {
                eprintln!(
                    "error: {test} {what} without any mutant{hint}; mutation testing needs a passing \
                     suite{no_doctests}:\n{}",
                    f.output
                );
            }
            let stopped_early = failed.len() >= baseline::MAX_FAILURES_LISTED
                || failed.iter().any(|f| f.exit == Exit::TimedOut);
            if failed.len() > 1 {
                let others: Vec<&str> = failed[1..].iter().map(|f| cases[f.case].name.as_str()).collect();
                let skips: Vec<String> =
                    others.iter().map(|name| format!("--skip {}", shell_word(name))).collect();
                let more = if others.len() == 1 {
                    "1 more test fails".to_owned()
                } else {
                    format!("{} more tests fail", others.len())
                };
                eprintln!(
                    "{more} without any mutant{}: {} (to leave them out: -- {})",
                    if stopped_early { ", and perhaps others" } else { "" },
                    others.join(", "),
                    skips.join(" ")
                );
            }
            let f = &failed[0];
            let mut summary = BaselineSummary::failed(Some(f.test.clone()), &what, f.output.clone());
            (summary.binaries, summary.tests, summary.seconds) =
                (binaries.len(), cases.len(), baseline_time.as_secs_f64());
            results.baseline = Some(summary);
            return Ok(Some(exit_code::BASELINE_FAILED));
        }
    };
    results.baseline = Some(BaselineSummary {
        binaries: binaries.len(),
        tests: cases.len(),
        seconds: baseline_time.as_secs_f64(),
        failure: None,
    });
    console.message(&format!(
        "Baseline: {} passed in {}",
        crate::console::count(cases.len(), "test"),
        duration(baseline_time)
    ));
    results.tests = cases
        .iter()
        .zip(&records)
        .map(|(c, r)| TestInfo {
            package: binaries[c.binary].package.clone(),
            target: binaries[c.binary].target.clone(),
            name: c.name.clone(),
            seconds: r.duration.as_secs_f64(),
        })
        .collect();

    let covering = covering_tests(records.iter().map(|r| &r.seen.hits[..]));
    let undecided = |i: usize| results.outcomes[i].is_none() && results.selection.selected(i);
    let (mut to_run, not_covered) = plan(&discovery.mutants, &covering, undecided);
    for i in not_covered {
        results.outcomes[i] = Some(MutantOutcome::fixed(&discovery.mutants[i], Outcome::NotCovered, None));
    }
    // Listed like missed mutants: each is a gap in the tests.
    for o in results.outcomes.iter().flatten().filter(|o| o.outcome == Outcome::NotCovered) {
        console.message(&format!("NOT-COVERED {}", o.mutant.name()));
    }
    let mut history = match history {
        Some((history, settings)) => {
            let keys = history::Keys::new(ws, discovery, &settings, &skip)?;
            Some(recall(history, &keys, &records, discovery, &mut to_run, console, results))
        }
        None => None,
    };
    let lab = Lab {
        sandbox: &sandbox,
        binaries: &binaries,
        cases: &cases,
        records: &records,
        limits,
        log_dir: &results.out.log_dir(),
        batch: !args.no_batch,
    };
    console.start(to_run.len() as u64, "mutants");
    let runs: Vec<_> = to_run.iter().map(|(i, tests)| (&discovery.mutants[*i], tests.clone())).collect();
    let ran = lab.run(&runs, jobs, console);
    console.finish();
    for ((i, _), r) in to_run.iter().zip(ran?) {
        if let (Some((history, keys)), Some(o)) = (&mut history, &r) {
            history.remember(keys[*i].clone(), o, &results.tests);
        }
        results.outcomes[*i] = r;
    }
    if let Some((history, _)) = history {
        history.save()?;
    }
    if args.no_lint_check {
        mark_lint_risks(ws, console, &mut results.outcomes);
    }
    Ok(None)
}

/// The package does not build even without mutants: say why, from a build of the
/// user's untouched sources (so every message shows their code), and record it as the
/// baseline's failure. `None` when interrupted meanwhile.
fn unbuildable(
    ws: &Workspace,
    scratch: &Scratch,
    discovery: &Discovery,
    flags: &BuildFlags,
    doctests: &[DoctestTarget],
    schema_text: String,
    results: &mut Results<'_>,
) -> Option<i32> {
    let text = match schema_build::unmutated_report(ws, scratch, discovery, flags, doctests) {
        Ok(Some(text)) => text,
        Ok(None) => format!(
            "(the untouched sources build: the schema's rewriting broke them, a bug of \
             cargo-mutfuzz; please report it with this message)\n{schema_text}"
        ),
        Err(_) if interrupt::interrupted() => return None,
        Err(e) => format!("(the untouched sources could not be built either: {e:#})\n{schema_text}"),
    };
    if text.starts_with(schema_build::CARGO_REFUSED) {
        eprintln!("error: {text}");
    } else if in_tests(&text) {
        // matchit's tests call a method behind its `__test_helpers` feature.
        let off: Vec<String> = ws
            .packages
            .iter()
            .flat_map(|p| flags.features.left_off(&p.root.join("Cargo.toml"), &p.name))
            .collect();
        let hint = match &off[..] {
            [] => String::new(),
            off => format!(
                "\n(if they need a feature this build leaves off, pass it with --features: {})",
                off.join(", ")
            ),
        };
        eprintln!("error: the package's tests do not build without mutants; fix them first:\n{text}{hint}");
    } else {
        // Inflector 0.11.4: `#![deny(warnings)]` and lints newer than the crate.
        let hint = if text.contains("implied by `#[deny(warnings)]`") {
            "\n(the crate denies warnings, and this compiler warns of more than it did: \
             RUSTFLAGS=\"--cap-lints=warn\" cargo mutfuzz test builds it as a dependent would)"
        } else {
            ""
        };
        eprintln!("error: the package does not build without mutants; fix it first:\n{text}{hint}");
    }
    results.baseline = Some(BaselineSummary::failed(None, "does not build", text));
    Some(exit_code::BASELINE_FAILED)
}

/// Whether a build's errors all point into the package's tests (`--> tests/match.rs`).
fn in_tests(errors: &str) -> bool {
    let places: Vec<&str> = errors.lines().filter_map(|l| l.trim_start().strip_prefix("--> ")).collect();
    !places.is_empty() && places.iter().all(|p| p.starts_with("tests/") || p.contains("/tests/"))
}

/// Why a baseline test failed, and the hint that goes with it: (what, hint).
/// `test` is the test's name and whether it is a doctest (which `--no-doctests` leaves
/// out, as the caller says).
fn failure_reason(
    exit: &Exit,
    output: &str,
    (test, doctest): (&str, bool),
    timeout: Duration,
    memory_capped: bool,
) -> (String, String) {
    if *exit == Exit::TimedOut {
        (
            format!("did not finish within {}", duration(timeout)),
            " (the baseline notes each mutation site a test runs, which can make a tight loop several \
             times slower than under `cargo test`: a longer limit, --baseline-timeout SECS; or skip it: \
             -- --skip NAME)"
                .to_owned(),
        )
    } else if let Exit::TooMuchOutput(_) = exit {
        (
            format!("fails ({exit})"),
            " (a higher cap: --max-output SIZE, or max_output in mutfuzz.toml)".to_owned(),
        )
    } else if *exit == Exit::Signal(libc::SIGSEGV) || output.contains("has overflowed its stack") {
        // Each function of the schema also holds its mutants' code, so its frames are
        // larger than the user's build's: a test that recurses to just under its stack's
        // end overflows.
        (
            format!("fails ({exit}: its stack overflowed)"),
            format!(
                " (the schema's functions need more stack than yours; leave the test out: -- --skip {test})"
            ),
        )
    } else if matches!(exit, Exit::Signal(_)) && memory_capped {
        (
            format!("fails ({exit})"),
            " (if it needs more memory than the cap: --max-memory SIZE, or max_memory in mutfuzz.toml)"
                .to_owned(),
        )
    } else if doctest {
        (format!("fails ({exit})"), String::new())
    } else {
        // It may fail under plain `cargo test` too (one that needs another user than
        // root, say): how to go on without it.
        (format!("fails ({exit})"), format!(" (to leave it out: -- --skip {test})"))
    }
}

/// Which tests execute each site: the sites each test's baseline run hit, by test.
fn covering_tests<'a>(hits: impl Iterator<Item = &'a [u32]>) -> HashMap<u32, Vec<usize>> {
    let mut covering: HashMap<u32, Vec<usize>> = HashMap::new();
    for (t, sites) in hits.enumerate() {
        for &site in sites {
            covering.entry(site).or_default().push(t);
        }
    }
    covering
}

/// The runs to make: each `undecided` mutant (by catalog position) with the tests that
/// execute its site; and the undecided mutants no test executes (not covered).
fn plan(
    mutants: &[Mutant],
    covering: &HashMap<u32, Vec<usize>>,
    undecided: impl Fn(usize) -> bool,
) -> (Vec<(usize, Vec<usize>)>, Vec<usize>) {
    let (mut to_run, mut not_covered) = (Vec::new(), Vec::new());
    for (i, m) in mutants.iter().enumerate().filter(|(i, _)| undecided(*i)) {
        match covering.get(&m.site) {
            Some(tests) => to_run.push((i, tests.clone())),
            None => not_covered.push(i),
        }
    }
    (to_run, not_covered)
}

/// The outcome history: each mutant of `to_run` whose key it holds gets that outcome and
/// leaves `to_run`. Returns the history and every mutant's key (by catalog position; empty
/// for those not run), to remember this run's outcomes under.
fn recall(
    mut history: History,
    keys: &history::Keys,
    records: &[TestRecord],
    discovery: &Discovery,
    to_run: &mut Vec<(usize, Vec<usize>)>,
    console: &Console,
    results: &mut Results<'_>,
) -> (History, Vec<String>) {
    let fingerprints = keys.fingerprints(records);
    let mut by_mutant = vec![String::new(); discovery.mutants.len()];
    let before = to_run.len();
    to_run.retain(|(i, tests)| {
        let m = &discovery.mutants[*i];
        let key = keys.mutant_key(*i, m, tests, &results.tests, &fingerprints);
        match history.recall(&key, m, tests, &results.tests) {
            Some(o) => {
                results.outcomes[*i] = Some(o);
                false
            }
            None => {
                by_mutant[*i] = key;
                true
            }
        }
    });
    let reused = before - to_run.len();
    if reused > 0 {
        console.message(&format!(
            "History: {reused} mutants unchanged since an earlier run keep their outcome; {} to test \
             (--no-history tests every one)",
            to_run.len()
        ));
    }
    (history, by_mutant)
}

/// `--iterate`: each selected mutant still undecided (viable now) that the previous run
/// caught keeps that outcome, marked carried over, and is not run.
fn carry_over(
    previous: &HashMap<String, MutantOutcome>,
    discovery: &Discovery,
    console: &Console,
    results: &mut Results<'_>,
) {
    let mut carried = 0;
    for (i, m) in discovery.mutants.iter().enumerate() {
        if results.outcomes[i].is_some() || !results.selection.selected(i) {
            continue;
        }
        if let Some(before) = previous.get(&m.name()) {
            results.outcomes[i] = Some(MutantOutcome {
                mutant: m.clone(),
                seconds: 0.0,
                previously_caught: true,
                // Positions in the previous run's test list, not this one's: the names of
                // the tests that caught it (`failing_tests`) are kept.
                covered_by: Vec::new(),
                killed_by: Vec::new(),
                from_history: false,
                ..before.clone()
            });
            carried += 1;
        }
    }
    console.message(&format!(
        "--iterate: {carried} mutants caught in the previous run are carried over, not tested again"
    ));
}

/// The lints that package `p`'s crate roots (or `RUSTFLAGS`) deny and code a mutant
/// deletes can trigger, each named once.
fn denied_lints(p: &crate::workspace::Package) -> Vec<String> {
    let mut denied: Vec<String> = Vec::new();
    for lint in p.spec.crate_roots.iter().flat_map(|r| lints::denied_in(&r.path)) {
        if !denied.contains(&lint) {
            denied.push(lint);
        }
    }
    if lints::rustflags_deny_warnings(&std::env::var("RUSTFLAGS").unwrap_or_default()) {
        denied.push("warnings (RUSTFLAGS)".to_owned());
    }
    denied
}

/// Check each viable mutant that deletes code, in a package denying a lint such code can
/// trigger (see [`crate::schema::lints`]), alone with [`lint_check`]: those a lint rejects are
/// unviable and never run. Then the schema text is written back for the runs.
fn lint_verdicts(
    ws: &Workspace,
    scratch: &Scratch,
    discovery: &Discovery,
    flags: &BuildFlags,
    console: &mut Console,
    results: &mut Results<'_>,
) -> Result<()> {
    let mut checked = false;
    for p in &ws.packages {
        let denied = denied_lints(p);
        let at_risk: Vec<&Mutant> = discovery
            .mutants
            .iter()
            .zip(&results.outcomes)
            .enumerate()
            .filter(|(i, (m, o))| {
                results.selection.selected(*i)
                    && o.is_none()
                    && m.package == p.name
                    && lints::deletes_code(m.operator)
            })
            .map(|(_, (m, _))| m)
            .collect();
        if denied.is_empty() || at_risk.is_empty() {
            continue;
        }
        checked = true;
        let unviable = lint_check::check(scratch, discovery, flags, p, &at_risk, console)?;
        console.message(&format!(
            "Lint check: {} mutants of {} that delete code, each checked alone (the crate denies \
             {}): {} unviable",
            at_risk.len(),
            p.name,
            denied.join(", "),
            unviable.len()
        ));
        for (o, m) in results.outcomes.iter_mut().zip(&discovery.mutants) {
            if let Some(message) = unviable.get(&m.id) {
                *o = Some(MutantOutcome::fixed(m, Outcome::Unviable, Some(message.clone())));
            }
        }
    }
    if checked {
        // The same text the schema build compiled; only doctests run through rustdoc
        // rebuild the library (its files are newer).
        let viable: Vec<bool> = results.outcomes.iter().map(|o| o.is_none()).collect();
        let ids: HashMap<u32, bool> = discovery.mutants.iter().map(|m| m.id).zip(viable).collect();
        schema_build::write_schema(scratch, discovery, &|id| ids.get(&id).copied().unwrap_or(false))?;
    }
    Ok(())
}

/// With `--no-lint-check`: mark each mutant that ran and deletes code, in a package
/// denying a lint such code can trigger, `lint_risk`.
fn mark_lint_risks(ws: &Workspace, console: &Console, outcomes: &mut [Option<MutantOutcome>]) {
    for p in &ws.packages {
        let denied = denied_lints(p);
        if denied.is_empty() {
            continue;
        }
        let mut marked = 0;
        for o in outcomes.iter_mut().flatten() {
            if o.mutant.package == p.name
                && o.outcome != Outcome::Unviable
                && lints::deletes_code(o.mutant.operator)
            {
                o.lint_risk =
                    Some(format!("a real build may reject it: the crate denies {}", denied.join(", ")));
                marked += 1;
            }
        }
        if marked > 0 {
            console.message(&format!(
                "note: {marked} mutants of {} delete code in a crate that denies {}; not checked \
                 (--no-lint-check): a rebuild per mutant may find them unviable (`lint_risk` in outcomes.json)",
                p.name,
                denied.join(", ")
            ));
        }
    }
}

/// `word` as a shell reads it back whole: quoted where it holds anything but letters,
/// digits and `_:-./` (a doctest's name has spaces and parentheses).
fn shell_word(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "_:-./".contains(c)) {
        return word.to_owned();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_name_in_a_hint_is_quoted_where_a_shell_would_split_it() {
        assert_eq!(shell_word("tests::parse_ok"), "tests::parse_ok");
        assert_eq!(shell_word("src/a.rs - Pop::pop (line 310)"), "'src/a.rs - Pop::pop (line 310)'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
    }

    #[test]
    fn errors_all_in_test_files_are_the_tests() {
        let at = |place: &str| format!("error[E0599]: no method named `x`\n  --> {place}:82:16\n   |\n");
        assert!(in_tests(&at("tests/match.rs")));
        assert!(in_tests(&(at("tests/a.rs") + &at("crates/k/tests/b.rs"))));
        assert!(!in_tests(&(at("tests/a.rs") + &at("src/lib.rs"))));
        assert!(!in_tests("error: linking failed"));
    }

    #[test]
    fn not_covered_mutants_behind_a_feature_that_is_off_are_counted_in_a_note() {
        let tmp = tempfile::tempdir().unwrap();
        let manifest = tmp.path().join("Cargo.toml");
        std::fs::write(
            &manifest,
            "[package]\nname = \"p\"\n\n[features]\ndefault = [\"std\"]\nstd = []\nserde = []\n",
        )
        .unwrap();
        let source = "#[cfg(feature = \"serde\")]\nmod ser { pub fn s(a: u32) -> u32 { a + 1 } }\n\
                      #[cfg(feature = \"std\")]\npub fn f(a: u32) -> u32 { a + 1 }\n";
        let d = Discovery::from_source("src/lib.rs", source, &mutfuzz_mutate::Config::default()).unwrap();
        let outcomes: Vec<MutantOutcome> = d
            .mutants
            .iter()
            .map(|m| {
                MutantOutcome::fixed(&Mutant { package: "p".into(), ..m.clone() }, Outcome::NotCovered, None)
            })
            .collect();
        let serde = d.mutants.iter().filter(|m| m.features == ["serde"]).count();
        assert!(serde > 0 && d.mutants.iter().any(|m| m.features == ["std"]));
        let manifests = BTreeMap::from([("p".to_owned(), manifest)]);
        let note = features_off(&outcomes, &crate::workspace::Features::default(), &manifests);
        assert_eq!(
            note.as_deref(),
            Some(
                format!(
                    "  ({serde} of the not covered are behind features this build leaves off: `serde`; \
                     `--features serde` builds them)"
                )
                .as_str()
            )
        );
        // With it on, there is nothing to say.
        let on = crate::workspace::Features { features: vec!["serde".into()], ..Default::default() };
        assert_eq!(features_off(&outcomes, &on, &manifests), None);
        // A feature that turns on an unstable feature of the compiler is not suggested.
        std::fs::create_dir(tmp.path().join("src")).unwrap();
        let lib = "#![cfg_attr(feature = \"serde\", feature(specialization))]\n#![no_std]\n";
        std::fs::write(tmp.path().join("src/lib.rs"), lib).unwrap();
        let note = features_off(&outcomes, &crate::workspace::Features::default(), &manifests).unwrap();
        assert!(note.ends_with("`serde`; they need a nightly compiler)"), "{note}");
    }

    #[test]
    fn each_undecided_mutant_runs_with_the_tests_that_execute_its_site_or_is_not_covered() {
        let source = "pub fn f(a: u32) -> u32 { a + 1 }\npub fn g(b: bool) -> bool { !b }\n";
        let d = Discovery::from_source("src/lib.rs", source, &mutfuzz_mutate::Config::default()).unwrap();
        let sites_of = |function: &str| -> Vec<u32> {
            let mut sites: Vec<u32> =
                d.mutants.iter().filter(|m| m.function == function).map(|m| m.site).collect();
            sites.dedup();
            sites
        };
        // Tests 0 and 1 run every site of f (1 also one that is not ours); nothing runs g.
        let hits = [sites_of("f"), [sites_of("f"), vec![999]].concat()];
        let covering = covering_tests(hits.iter().map(|h| &h[..]));
        assert_eq!(covering[&sites_of("f")[0]], [0, 1]);
        let first_decided = |i: usize| i != 0;
        let (to_run, not_covered) = plan(&d.mutants, &covering, first_decided);
        for (i, tests) in &to_run {
            assert_eq!(d.mutants[*i].function, "f");
            assert_eq!(tests, &[0, 1]);
            assert_ne!(*i, 0, "decided already");
        }
        assert!(!not_covered.is_empty());
        assert!(not_covered.iter().all(|&i| d.mutants[i].function == "g"));
        assert_eq!(to_run.len() + not_covered.len(), d.mutants.len() - 1);
    }

    #[test]
    fn a_baseline_failure_says_what_and_how_to_get_past_it() {
        let t = Duration::from_secs(300);
        let reason = |exit: Exit, output: &str, capped: bool| {
            failure_reason(&exit, output, ("deep", false), t, capped)
        };
        let (what, hint) = reason(Exit::TimedOut, "", false);
        assert_eq!(what, "did not finish within 5m00s");
        assert!(hint.contains("--baseline-timeout"), "{hint}");
        let (what, hint) = reason(Exit::Signal(6), "thread 'deep' has overflowed its stack", true);
        assert_eq!(what, "fails (signal 6: its stack overflowed)");
        assert!(hint.ends_with("-- --skip deep)"), "{hint}");
        let (_, hint) = reason(Exit::Signal(9), "", true);
        assert!(hint.contains("--max-memory"), "{hint}");
        assert_eq!(reason(Exit::Signal(9), "", false).1, " (to leave it out: -- --skip deep)");
        assert_eq!(
            reason(Exit::Code(101), "", false),
            ("fails (exit code 101)".into(), " (to leave it out: -- --skip deep)".into())
        );
        // A doctest's way out is `--no-doctests`, said beside it; a hang keeps its hint.
        let doctest = |exit: Exit| failure_reason(&exit, "", ("src/lib.rs - f (line 3)", true), t, false).1;
        assert_eq!(doctest(Exit::Code(101)), "");
        assert!(doctest(Exit::TimedOut).contains("--baseline-timeout"));
    }
}
