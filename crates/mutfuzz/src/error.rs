//! The engine's errors: why a campaign could not start or had to stop ([`Error`]), and
//! why a harness command failed ([`HarnessError`], whose text the harness prints after
//! `error: `).

use std::io;
use std::path::Path;

use mutfuzz_contract::{FileError, KillKind};

/// Why a campaign could not start or had to stop.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing the campaign directory failed, or one of its records is not valid.
    #[error("{0}")]
    File(#[from] FileError),
    /// The mutant catalog is malformed.
    #[error("{0}")]
    Catalog(String),
    /// The run-time's site-hit table, sized by an earlier campaign in this process, is
    /// too small for this catalog's site ids.
    #[error(
        "the site-hit table of this process was sized for fewer sites than site {site}; \
         run campaigns with larger catalogs in their own process"
    )]
    SiteTable {
        /// The largest site id of this catalog.
        site: u32,
    },
    /// A mutant that infection pruning skipped was killed when run anyway: the probe of
    /// its site is wrong.
    #[error(
        "infection pruning skipped mutant {mutant} on input {input}, but running it kills it \
         ({kind}): its site's infection probe is wrong; run with --prune execution"
    )]
    UnsoundPruning {
        /// The mutant.
        mutant: u32,
        /// The input's name (content hash).
        input: String,
        /// How it was killed.
        kind: KillKind,
    },
    /// The original's result on the process's first input changed after mutants ran:
    /// one of them changed global state (a `static`, a cache) that later runs read. The
    /// trial is not kept; `drift.json` names the suspects, and the process must end.
    #[error(
        "global state drifted: after mutants {} ran, the original gave `{now}` where it \
         gave `{recorded}` before; the process must restart clean",
        ids(suspects)
    )]
    Drift {
        /// The mutants that ran in this process since the last check (or, when settling,
        /// the one found to cause it).
        suspects: Vec<u32>,
        /// The original's result as recorded, rendered.
        recorded: String,
        /// Its result now, rendered.
        now: String,
    },
    /// The supervisor that owns the corpus did not store an input handed to it.
    #[error("the supervisor did not store input {input}: {reason}")]
    HandOver {
        /// The input's name (content hash).
        input: String,
        /// Why (it refused the line, or it is gone).
        reason: String,
    },
    /// The original gave two different results on the same input.
    #[error(
        "the target is nondeterministic: input {input} (bytes {}) gave `{first}` \
         and then `{second}`; mutants cannot be judged against it \
         (look for HashMap order, time, addresses or global state in the output)",
        shown_bytes(bytes)
    )]
    Nondeterministic {
        /// The input's name (content hash).
        input: String,
        /// The input's bytes.
        bytes: Vec<u8>,
        /// The first result, rendered.
        first: String,
        /// The second result, rendered.
        second: String,
    },
}

impl Error {
    pub(crate) fn io(path: &Path, source: io::Error) -> Error {
        Error::File(FileError::io(path, source))
    }
}

/// Why a harness command failed.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// The command line is not one the harness takes, or names no target it has (the
    /// message says why, with the usage when that helps).
    #[error("{0}")]
    Usage(String),
    /// A campaign could not start or had to stop, or the mutant catalog is not valid.
    #[error("{0}")]
    Engine(#[from] crate::Error),
    /// A file of the campaign or the corpus could not be read or written, or holds an
    /// invalid record.
    #[error("{0}")]
    File(#[from] FileError),
    /// A record could not be written as JSON.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// Something the command needs could not be done: what, and the system's reason.
    #[error("cannot {what}: {source}")]
    Io {
        /// What could not be done (`read input <file>`, `write <file>`, …).
        what: String,
        /// The system's reason.
        source: io::Error,
    },
    /// A file or input the command was given is not what it must be (the message says
    /// which and what to do).
    #[error("{0}")]
    Invalid(String),
    /// Inputs of an exported test's data file no longer end as recorded.
    #[error("{0}")]
    Replay(String),
}

impl HarnessError {
    /// `cannot <what>: <source>`.
    pub(crate) fn io(what: impl Into<String>, source: io::Error) -> HarnessError {
        HarnessError::Io { what: what.into(), source }
    }
}

/// The suspects of a drift, as the message lists them.
fn ids(suspects: &[u32]) -> String {
    let ids: Vec<String> = suspects.iter().map(u32::to_string).collect();
    ids.join(", ")
}

/// The first 64 bytes of an input in hex, and `…` when there are more.
fn shown_bytes(bytes: &[u8]) -> String {
    let shown = &bytes[..bytes.len().min(64)];
    let hex: String = shown.iter().map(|b| format!("{b:02x}")).collect();
    let more = if bytes.len() > shown.len() { "…" } else { "" };
    format!("{hex}{more}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_before() {
        let drift = Error::Drift { suspects: vec![3, 9], recorded: "a".into(), now: "b".into() };
        assert_eq!(
            drift.to_string(),
            "global state drifted: after mutants 3, 9 ran, the original gave `b` where it gave `a` \
             before; the process must restart clean"
        );
        let nondeterministic = Error::Nondeterministic {
            input: "n".into(),
            bytes: vec![1; 65],
            first: "x".into(),
            second: "y".into(),
        };
        assert_eq!(
            nondeterministic.to_string(),
            format!(
                "the target is nondeterministic: input n (bytes {}…) gave `x` and then `y`; mutants \
                 cannot be judged against it (look for HashMap order, time, addresses or global state \
                 in the output)",
                "01".repeat(64)
            )
        );
    }
}
