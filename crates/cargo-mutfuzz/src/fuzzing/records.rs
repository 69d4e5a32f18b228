//! Reading a campaign's record files for `cargo mutfuzz`: every record, strictly (an
//! invalid line is an error naming the file and line), with a warning on stderr for a
//! last line cut short.

use std::path::Path;

use anyhow::Result;
use mutfuzz_contract::{Record, read_jsonl};

/// The records of the `.jsonl` file at `path` (none if it does not exist).
pub fn read<T: Record>(path: &Path) -> Result<Vec<T>> {
    let jsonl = read_jsonl::<T>(path)?;
    if let Some(torn) = &jsonl.torn {
        eprintln!("warning: {torn}");
    }
    Ok(jsonl.records)
}
