//! The harness's `cmin <target> --corpus DIR --catalog FILE [--state DIR] --out FILE`:
//! what each stored input covers (the mutant sites and edges the original reaches) and
//! kills (every reached mutant of the catalog, run in a worker process and judged with
//! the score's budget), one [`CminRecord`] per line, for `cargo mutfuzz cmin`, which
//! chooses the subset to keep.
//!
//! Unlike `score`, which stops running a mutant once an input kills it, every reached
//! mutant runs on every input: choosing a small subset needs each input's whole kill set.
//! The mutants run in a worker, as `shrink`'s do, so one that aborts is a `crash` kill
//! and the command goes on.

use std::fmt::Debug;

use mutfuzz_contract::command::CminRequest;
use mutfuzz_contract::{Budget, CampaignDir, CminRecord, EXIT_SUCCESS, NondeterministicRecord};

use super::read_corpus;
use crate::coverage::EdgeMap;
use crate::error::HarnessError;
use crate::r#gen::Gen;
use crate::input::Limits;
use crate::mutants::MutantInfo;
use crate::oracle::{AnyOutput, Judging, Oracle};
use crate::shrink::property::Judge;
use crate::trial::Executor;
use crate::trial::RunGuard;
use crate::workers::Workers;

/// Smallest site table the original records with (as the campaign's).
const MIN_SITE_TABLE: usize = 1024;

/// Writes every input's record, in name order, to `--out` (whole, atomically).
pub(super) fn write_cmin<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &CminRequest,
    target: fn(T) -> O,
    mut oracle: Box<dyn Oracle<O>>,
    judging: Judging,
) -> Result<i32, HarnessError> {
    let catalog = MutantInfo::load(&r.catalog)?;
    let top = catalog.iter().map(|m| m.id).max().unwrap_or(0);
    let mut workers = Workers::of_harness(1, &r.target, &r.workers)?;
    // A generated target the campaign found nondeterministic is judged as it is there.
    if judging.generated
        && let Some(state) = &r.state
        && NondeterministicRecord::read(&CampaignDir::new(state).nondeterministic())?.is_some()
    {
        oracle = Box::new(AnyOutput);
        workers.judge_any_output();
    }
    let _quiet = RunGuard::start();
    let mut judge = Judge {
        exec: Executor::new(Box::new(target), Limits::default()),
        oracle,
        runs: Box::new(workers),
        n_ids: (top as usize + 1).max(MIN_SITE_TABLE),
        panics_by_contract: judging.panics_by_contract,
        budget: Budget::SCORE,
    };
    let mut edges = EdgeMap::default();
    let mut text = String::new();
    for (name, bytes) in read_corpus(&r.corpus)? {
        edges.reset();
        let original = judge.original(&bytes);
        edges.read();
        let covered: Vec<u64> = edges
            .last_hits()
            .iter()
            .map(|&i| u64::from(i) * 8 + u64::from(edges.last()[i as usize].trailing_zeros()))
            .collect();
        let kills = if original.valid {
            let (fuel, depth) = original.limits;
            let reached: Vec<u32> = catalog
                .iter()
                .filter(|m| original.hits.binary_search(&m.site).is_ok())
                .map(|m| m.id)
                .collect();
            let verdicts = judge.runs.verdicts(&bytes, fuel, depth, &reached);
            reached.iter().zip(verdicts).filter(|(_, v)| v.is_some()).map(|(&id, _)| id).collect()
        } else {
            Vec::new()
        };
        let record =
            CminRecord { input: name, size: bytes.len(), sites: original.hits, edges: covered, kills };
        text.push_str(&serde_json::to_string(&record)?);
        text.push('\n');
    }
    mutfuzz_contract::write_atomic(&r.out, text.as_bytes())?;
    Ok(EXIT_SUCCESS)
}
