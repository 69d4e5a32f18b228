//! The harness commands `shrink <target> FILE (--mutants IDS | --catalog FILE) --out FILE`
//! (keep the input's kills) and `tmin <target> FILE --out FILE` (keep the original's
//! panic): read the input, check it has the property, shrink it, write the result and
//! print one [`ShrinkLine`].

use std::fmt::Debug;
use std::path::Path;
use std::time::Duration;

use mutfuzz_contract::{CampaignDir, EXIT_NOT_KEPT, Kept, NondeterministicRecord, ShrinkLine, write_atomic};

use super::property::{Judge, KeepsFailure, KeepsKills};
use super::{DEFAULT_MAX_RUNS, ShrinkBudget, normalize_replay, shrink};
use crate::campaign::RunGuard;
use crate::r#gen::Gen;
use crate::harness::{Args, Judging};
use crate::input::Limits;
use crate::mutants::MutantInfo;
use crate::oracle::{AnyOutput, Oracle};
use crate::trial::Executor;
use crate::workers::Workers;

/// Smallest site table the original records with (as the campaign's).
const MIN_SITE_TABLE: usize = 1024;

/// How long a worker may print nothing while a mutant runs before it is killed by
/// `timeout`, when `--worker-timeout` is not given (as `fuzz`'s).
const WORKER_TIMEOUT: f64 = 10.0;

fn budget(args: &Args) -> ShrinkBudget {
    ShrinkBudget {
        max_runs: Some(args.max_runs.unwrap_or(DEFAULT_MAX_RUNS)),
        time: args.time.map(|t| Duration::from_secs_f64(t.max(0.0))),
    }
}

/// The input file (the first positional argument) and `--out`.
fn files<'a>(args: &'a Args, command: &str) -> Result<(&'a str, &'a Path), String> {
    let Some(file) = args.positional.first() else {
        return Err(format!("`{command}` needs the input file: {command} <target> FILE --out FILE"));
    };
    let out = args.out.as_deref().ok_or_else(|| format!("`{command}` needs --out FILE"))?;
    Ok((file, out))
}

fn read_input(file: &str) -> Result<Vec<u8>, String> {
    std::fs::read(file).map_err(|e| format!("cannot read input {file}: {e}"))
}

/// `--mutants 3,17,40`: the ids (the flag holds a list here, not a catalog file).
fn mutant_ids(text: &str) -> Result<Vec<u32>, String> {
    let mut ids = text
        .split(',')
        .map(|w| {
            w.trim().parse::<u32>().map_err(|_| format!("--mutants takes ids like 3,17,40, not {text:?}"))
        })
        .collect::<Result<Vec<u32>, String>>()?;
    ids.sort_unstable();
    ids.dedup();
    if ids.contains(&0) {
        return Err("--mutants: 0 is the original, not a mutant".to_owned());
    }
    Ok(ids)
}

/// One worker process running this harness's `worker <target>`.
pub(crate) fn worker(args: &Args) -> Result<Workers, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the harness executable: {e}"))?;
    let target = args.target.clone();
    let hang = Duration::from_secs_f64(args.worker_timeout.unwrap_or(WORKER_TIMEOUT).max(0.1));
    let max_output = match args.max_output {
        Some(0) => u64::MAX,
        Some(cap) => cap,
        None => crate::workers::DEFAULT_MAX_OUTPUT,
    };
    Workers::spawn(
        1,
        move || {
            let mut c = std::process::Command::new(&exe);
            c.args(["worker", &target]);
            c
        },
        hang,
        max_output,
    )
    .map_err(|e| format!("cannot start a mutant worker process: {e}"))
}

fn finish(out: &Path, before: usize, bytes: &[u8], runs: u64, kept: Kept) -> Result<i32, String> {
    write_atomic(out, bytes).map_err(|e| e.to_string())?;
    println!("{}", ShrinkLine { before, after: bytes.len(), runs, kept });
    Ok(0)
}

/// `shrink <target> FILE (--mutants IDS | --catalog FILE) [--state DIR] [--max-runs N]
/// [--time SECS] --out FILE`: the smallest input found that still kills the mutants (with
/// `--catalog`: every mutant of the catalog that the input kills). Exit code
/// [`EXIT_NOT_KEPT`] when the input does not kill them all. A generated target that the
/// campaign in `--state` found nondeterministic is judged as it is there, by panics and
/// runaways only.
pub(crate) fn shrink_kills<T: Gen + Debug + 'static, O: Debug + 'static>(
    args: &Args,
    target: fn(T) -> O,
    mut oracle: Box<dyn Oracle<O>>,
    judging: Judging,
) -> Result<i32, String> {
    let (file, out) = files(args, "shrink")?;
    let raw = read_input(file)?;
    let limits = Limits::default();
    let catalog = match &args.catalog {
        Some(path) => Some(MutantInfo::load(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let named = match (&args.mutants, &catalog) {
        (Some(text), None) => mutant_ids(&text.to_string_lossy())?,
        (None, Some(_)) => Vec::new(),
        _ => return Err("`shrink` needs either --mutants IDS or --catalog FILE".to_owned()),
    };
    let top = catalog.iter().flatten().map(|m| m.id).chain(named.iter().copied()).max().unwrap_or(0);
    let mut workers = worker(args)?;
    let nondeterministic = args.state.as_ref().map(|s| CampaignDir::new(s).nondeterministic());
    if judging.generated
        && let Some(path) = &nondeterministic
        && NondeterministicRecord::read(path).map_err(|e| e.to_string())?.is_some()
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
    let shrunk = shrink::<T>(&bytes, limits, budget(args), &mut |b| property.holds(b));
    finish(out, raw.len(), shrunk.input.as_bytes(), shrunk.runs, Kept::Kills(mutants))
}

/// `tmin <target> FILE [--max-runs N] [--time SECS] --out FILE`: the smallest input found
/// on which the original still panics with the same message. Exit code
/// [`EXIT_NOT_KEPT`] when the original does not panic on the input.
pub(crate) fn shrink_failure<T: Gen + Debug + 'static, O: Debug + 'static>(
    args: &Args,
    target: fn(T) -> O,
) -> Result<i32, String> {
    let (file, out) = files(args, "tmin")?;
    let raw = read_input(file)?;
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
    let shrunk = shrink::<T>(&bytes, limits, budget(args), &mut |b| property.holds(b));
    finish(out, raw.len(), shrunk.input.as_bytes(), shrunk.runs, Kept::Panic(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutant_lists_parse_sorted_and_bad_ones_are_explained() {
        assert_eq!(mutant_ids("40,3,17,3"), Ok(vec![3, 17, 40]));
        assert_eq!(mutant_ids("3,x"), Err("--mutants takes ids like 3,17,40, not \"3,x\"".to_owned()));
        assert_eq!(mutant_ids("0,1"), Err("--mutants: 0 is the original, not a mutant".to_owned()));
    }
}
