//! The harness commands `shrink <target> FILE (--mutants IDS | --catalog FILE) --out FILE`
//! (keep the input's kills) and `tmin <target> FILE --out FILE` (keep the original's
//! panic): read the input, check it has the property, shrink it, write the result and
//! print one [`ShrinkLine`].

use std::fmt::Debug;
use std::path::Path;
use std::time::Duration;

use mutfuzz_contract::command::{Keep, ShrinkLimits, ShrinkRequest, TminRequest};
use mutfuzz_contract::{
    CampaignDir, EXIT_NOT_KEPT, EXIT_SUCCESS, Kept, NondeterministicRecord, ShrinkLine, write_atomic,
};

use crate::error::HarnessError;
use crate::r#gen::Gen;
use crate::input::Limits;
use crate::mutants::MutantInfo;
use crate::oracle::{AnyOutput, Judging, Oracle};
use crate::shrink::property::{Judge, KeepsFailure, KeepsKills};
use crate::shrink::{DEFAULT_MAX_RUNS, ShrinkBudget, normalize_replay, shrink};
use crate::trial::Executor;
use crate::trial::RunGuard;
use crate::workers::Workers;

/// Smallest site table the original records with (as the campaign's).
const MIN_SITE_TABLE: usize = 1024;

fn budget(limits: &ShrinkLimits) -> ShrinkBudget {
    ShrinkBudget {
        max_runs: Some(limits.max_runs.unwrap_or(DEFAULT_MAX_RUNS)),
        time: limits.time.map(|t| Duration::from_secs_f64(t.max(0.0))),
    }
}

fn read_input(file: &Path) -> Result<Vec<u8>, HarnessError> {
    std::fs::read(file).map_err(|e| HarnessError::io(format!("read input {}", file.display()), e))
}

fn finish(out: &Path, before: usize, bytes: &[u8], runs: u64, kept: Kept) -> Result<i32, HarnessError> {
    write_atomic(out, bytes)?;
    println!("{}", ShrinkLine { before, after: bytes.len(), runs, kept });
    Ok(EXIT_SUCCESS)
}

/// `shrink <target> FILE (--mutants IDS | --catalog FILE) [--state DIR] [--max-runs N]
/// [--time SECS] --out FILE`: the smallest input found that still kills the mutants (with
/// `--catalog`: every mutant of the catalog that the input kills). Exit code
/// [`EXIT_NOT_KEPT`] when the input does not kill them all. A generated target that the
/// campaign in `--state` found nondeterministic is judged as it is there, by panics and
/// runaways only.
pub(crate) fn shrink_kills<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &ShrinkRequest,
    target: fn(T) -> O,
    mut oracle: Box<dyn Oracle<O>>,
    judging: Judging,
) -> Result<i32, HarnessError> {
    let file = r.file.display();
    let raw = read_input(&r.file)?;
    let limits = Limits::default();
    let (catalog, named) = match &r.keep {
        Keep::Catalog(path) => (Some(MutantInfo::load(path)?), Vec::new()),
        Keep::Mutants(ids) => {
            let mut ids = ids.clone();
            ids.sort_unstable();
            ids.dedup();
            (None, ids)
        }
    };
    let top = catalog.iter().flatten().map(|m| m.id).chain(named.iter().copied()).max().unwrap_or(0);
    let mut workers = Workers::of_harness(1, &r.target, &r.workers)?;
    let nondeterministic = r.state.as_ref().map(|s| CampaignDir::new(s).nondeterministic());
    if judging.generated
        && let Some(path) = &nondeterministic
        && NondeterministicRecord::read(path)?.is_some()
    {
        oracle = Box::new(AnyOutput);
        workers.judge_any_output();
    }
    let _quiet = RunGuard::start();
    let mut judge = Judge {
        exec: Executor::new(Box::new(target), limits),
        oracle,
        runs: Box::new(workers),
        n_ids: (top as usize + 1).max(MIN_SITE_TABLE),
        panics_by_contract: judging.panics_by_contract,
        budget: mutfuzz_contract::Budget::FUZZ,
    };
    let bytes = normalize_replay::<T>(&raw, limits);
    let original = judge.original(&bytes);
    if !original.valid {
        eprintln!("error: the original's run on {file} is not valid ({}): it kills nothing", original.ending);
        return Ok(EXIT_NOT_KEPT);
    }
    let mutants = match &catalog {
        // Only a mutant whose site the original reaches can behave differently.
        Some(catalog) => {
            let reached: Vec<u32> = catalog
                .iter()
                .filter(|m| original.hits.binary_search(&m.site).is_ok())
                .map(|m| m.id)
                .collect();
            let kills = judge.kills(&bytes, &reached);
            if kills.is_empty() {
                eprintln!(
                    "error: {file} kills none of the catalog's mutants ({} reached by the original)",
                    reached.len()
                );
                return Ok(EXIT_NOT_KEPT);
            }
            kills
        }
        None => {
            let kills = judge.kills(&bytes, &named);
            if kills != named {
                let missed: Vec<String> =
                    named.iter().filter(|id| !kills.contains(id)).map(u32::to_string).collect();
                eprintln!("error: {file} does not kill mutant(s) {}", missed.join(", "));
                return Ok(EXIT_NOT_KEPT);
            }
            named
        }
    };
    let mut property = KeepsKills::new(judge, &mutants);
    let shrunk = shrink::<T>(&bytes, limits, budget(&r.limits), &mut |b| property.holds(b));
    finish(&r.out, raw.len(), shrunk.input.as_bytes(), shrunk.runs, Kept::Kills(mutants))
}

/// `tmin <target> FILE [--max-runs N] [--time SECS] --out FILE`: the smallest input found
/// on which the original still panics with the same message. Exit code
/// [`EXIT_NOT_KEPT`] when the original does not panic on the input.
pub(crate) fn shrink_failure<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &TminRequest,
    target: fn(T) -> O,
) -> Result<i32, HarnessError> {
    let file = r.file.display();
    let raw = read_input(&r.file)?;
    let limits = Limits::default();
    let _quiet = RunGuard::start();
    let bytes = normalize_replay::<T>(&raw, limits);
    let mut property = match KeepsFailure::of(Executor::new(Box::new(target), limits), &bytes) {
        Ok(p) => p,
        Err(end) => {
            eprintln!(
                "error: the original does not panic on {file} (it ends with {}): no failure to keep",
                end.render_bounded(mutfuzz_contract::RENDER_LIMIT)
            );
            return Ok(EXIT_NOT_KEPT);
        }
    };
    let message = property.message().to_owned();
    let shrunk = shrink::<T>(&bytes, limits, budget(&r.limits), &mut |b| property.holds(b));
    finish(&r.out, raw.len(), shrunk.input.as_bytes(), shrunk.runs, Kept::Panic(message))
}
