//! Drift: mutants run in the process that runs the original, so one can change global
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
use mutfuzz_contract::{Budget, DriftRecord, FileError, write_atomic};

use crate::r#gen::Gen;
use crate::oracle::Oracle;
use crate::trial::Verdict;
use crate::trial::{Executor, OriginalEnd, judge};

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
