//! The drift guard (`DriftGuard`) and the settling of a drift (`find_cause`, `drift.json`).
//!
//! Mutants run in the process that runs the original, so one can change global
//! state that outlives its run (a `static`, a cache, a `OnceLock` it filled) and make
//! every later verdict false. The `Sentinel` is the original's result on the process's
//! first input, taken before any mutant ran there; re-run after mutants, it must not
//! change. When it does, `drift.json` ([`DriftRecord`]) names the mutants run since the
//! last check, the process ends, and a clean one runs them one at a time, each followed
//! by the sentinel, to find the one that causes it (`find_cause`).

use std::fmt::Debug;
use std::io;
use std::path::Path;

use mutfuzz_contract::protocol::decode_hex;
use mutfuzz_contract::{Budget, DriftRecord, FileError, encode_hex, write_atomic};

use crate::corpus::Store;
use crate::error::Error;
use crate::r#gen::Gen;
use crate::oracle::Oracle;
use crate::trial::Verdict;
use crate::trial::{Executor, OriginalEnd, judge};

/// Mutant runs between two drift checks of a trial's end (a kill is checked at once).
pub const DRIFT_CHECK_RUNS: usize = 64;

/// The drift check of the process that runs a campaign: the sentinel, the mutants run
/// here since the last check, and a drift found after a kill.
pub(crate) struct DriftGuard<O> {
    /// Whether the campaign checks for drift at all.
    on: bool,
    /// The first input this process ran, and the original's result on it before any
    /// mutant ran here (the check's reference).
    sentinel: Option<Sentinel<O>>,
    /// Ids of the mutants run in this process since the last check.
    ran_here: Vec<u32>,
    /// A drift found after a kill during this trial's mutant runs (the results then).
    drifted: Option<(String, String)>,
}

impl<O: Debug> DriftGuard<O> {
    /// A guard that checks (`on`) or never does.
    pub(crate) fn new(on: bool) -> Self {
        DriftGuard { on, sentinel: None, ran_here: Vec::new(), drifted: None }
    }

    /// Whether the sentinel is still to be taken (the process's first trial, no mutant
    /// having run here).
    pub(crate) fn wants_sentinel(&self) -> bool {
        self.on && self.sentinel.is_none()
    }

    /// The reference of every later check.
    pub(crate) fn set_sentinel(&mut self, sentinel: Sentinel<O>) {
        self.sentinel = Some(sentinel);
    }

    /// Never checks again: the target disagrees with itself, so no result of the
    /// original is a reference.
    pub(crate) fn turn_off(&mut self) {
        self.on = false;
    }

    /// After mutant `id` ran in this process: a kill is what drift fakes, so a kill is
    /// checked at once. Returns `false` when the process drifted: nothing more may run.
    pub(crate) fn ran<T: Gen>(
        &mut self,
        id: u32,
        killed: bool,
        exec: &mut Executor<T, O>,
        oracle: &dyn Oracle<O>,
    ) -> bool {
        let Some(sentinel) = &self.sentinel else { return true };
        self.ran_here.push(id);
        if killed && let Some(results) = sentinel.drifted(exec, oracle) {
            self.drifted = Some(results);
            return false;
        }
        true
    }

    /// The original on the sentinel input must give what it gave before any mutant ran
    /// here (checked after each kill in this process, and after a trial once
    /// [`DRIFT_CHECK_RUNS`] mutants ran since the last check); if not, one of the mutants
    /// run here since the last check changed global state. `drift.json` then names them
    /// (with the trial's `input`), for a clean process to find the one
    /// (`Campaign::settle_drift`), and the error is [`Error::Drift`].
    pub(crate) fn check<T: Gen>(
        &mut self,
        input: &[u8],
        exec: &mut Executor<T, O>,
        oracle: &dyn Oracle<O>,
        store: Option<&Store>,
    ) -> Result<(), Error> {
        // A kill was checked when it happened (`drifted` holds what it found); otherwise
        // one sentinel run per DRIFT_CHECK_RUNS mutant runs, not per trial: on a target
        // whose original is costly that run was most of a `mu2` trial's price. In
        // between, drift can only hide kills (survivals are never final while fuzzing).
        if self.ran_here.is_empty() || (self.drifted.is_none() && self.ran_here.len() < DRIFT_CHECK_RUNS) {
            return Ok(());
        }
        let Some(sentinel) = &self.sentinel else { return Ok(()) };
        let found = self.drifted.take().or_else(|| sentinel.drifted(exec, oracle));
        let Some((recorded, now)) = found else {
            self.ran_here.clear();
            return Ok(());
        };
        let suspects = std::mem::take(&mut self.ran_here);
        if let Some(store) = store {
            let record = DriftRecord {
                suspects: suspects.clone(),
                input: encode_hex(input),
                sentinel: encode_hex(&sentinel.bytes),
            };
            write_drift(&store.files().drift(), Some(&record))?;
        }
        Err(Error::Drift { suspects, recorded, now })
    }
}

/// The original's result on one input, recorded in a clean process.
pub(crate) struct Sentinel<O> {
    /// The input's bytes.
    pub(crate) bytes: Vec<u8>,
    /// What the original gave on it.
    pub(crate) end: OriginalEnd<O>,
}

impl<O: Debug> Sentinel<O> {
    /// Records the original on `bytes` (call it before any mutant ran in the process).
    pub(crate) fn take<T: Gen>(exec: &mut Executor<T, O>, bytes: &[u8], oracle: &dyn Oracle<O>) -> Self {
        Sentinel { bytes: bytes.to_vec(), end: exec.run_plain_original(bytes, oracle) }
    }

    /// `None` if the original still gives what it gave; else the two results, rendered.
    pub(crate) fn drifted<T: Gen>(
        &self,
        exec: &mut Executor<T, O>,
        oracle: &dyn Oracle<O>,
    ) -> Option<(String, String)> {
        let now = exec.run_plain_original(&self.bytes, oracle);
        (!self.end.agrees_with(&now, oracle)).then(|| (self.end.render(), now.render()))
    }
}

/// The mutant found to cause a drift.
pub(crate) struct Cause {
    /// Its position among the record's suspects.
    pub(crate) position: usize,
    /// Its id.
    pub(crate) mutant: u32,
    /// Its own verdict on the record's input.
    pub(crate) verdict: Verdict,
    /// The sentinel's results before and after it ran, rendered.
    pub(crate) results: (String, String),
}

/// In a clean process: runs each suspect of `record` on its input (within `budget` of
/// the original's fuel and depth there), then the original on the sentinel input; the
/// first suspect after which that changes is the cause. `mutant` is told of each run
/// first (a supervisor must know what runs). `None` when no suspect reproduces it.
pub(crate) fn find_cause<T: Gen, O: Debug>(
    exec: &mut Executor<T, O>,
    oracle: &dyn Oracle<O>,
    record: &DriftRecord,
    n_ids: usize,
    budget: Budget,
    mutant: &mut dyn FnMut(u32),
) -> Option<Cause> {
    let (input, sentinel) = (decode_hex(&record.input)?, decode_hex(&record.sentinel)?);
    let reference = Sentinel::take(exec, &sentinel, oracle);
    // A target that disagrees with itself is nondeterministic, not drifted.
    if reference.drifted(exec, oracle).is_some() {
        return None;
    }
    let original = exec.rerun_original(&input, n_ids, oracle);
    let (fuel, depth) = budget.limits(original.fuel, original.depth);
    for (position, &id) in record.suspects.iter().enumerate() {
        mutant(id);
        let end = exec.run_mutant(id, &input, fuel, depth);
        mutfuzz_rt::set_limits(u64::MAX, usize::MAX);
        let verdict = judge(oracle, &original.end, &end);
        if let Some(results) = reference.drifted(exec, oracle) {
            return Some(Cause { position, mutant: id, verdict, results });
        }
    }
    None
}

/// The pending drift in `path`; `None` when there is none or it cannot be read (a
/// record cut short: the check finds the drift again).
pub fn read_drift(path: &Path) -> Result<Option<DriftRecord>, FileError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(serde_json::from_str(&text).ok()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(FileError::io(path, e)),
    }
}

/// Writes `path` atomically, or removes it when `record` is `None` or has no suspect.
pub fn write_drift(path: &Path, record: Option<&DriftRecord>) -> Result<(), FileError> {
    match record.filter(|r| !r.suspects.is_empty()) {
        Some(r) => {
            let text = serde_json::to_string(r).map_err(|e| FileError::io(path, io::Error::other(e)))? + "\n";
            write_atomic(path, text.as_bytes())
        }
        None => match std::fs::remove_file(path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(FileError::io(path, e)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drift_record_is_written_whole_read_back_and_removed_when_settled() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("drift.json");
        assert_eq!(read_drift(&path).unwrap(), None);
        let record = DriftRecord { suspects: vec![3, 9], input: "0102".into(), sentinel: "".into() };
        write_drift(&path, Some(&record)).unwrap();
        assert_eq!(read_drift(&path).unwrap(), Some(record.clone()));
        // A record cut short is no drift: the check finds it again.
        std::fs::write(&path, "{\"suspects\":[3,").unwrap();
        assert_eq!(read_drift(&path).unwrap(), None);
        write_drift(&path, Some(&DriftRecord { suspects: Vec::new(), ..record })).unwrap();
        assert!(!path.exists());
        write_drift(&path, None).unwrap();
    }
}
