//! The harness's commands on single inputs and stored corpora: `run` (one input's value
//! and output), `outputs` (how the original ends on each stored input) and `replay` (an
//! exported test's data file ends as recorded); `values` is in `values.rs`.

use std::fmt::Debug;

use mutfuzz_contract::command::{CorpusRequest, ReplayRequest, RunRequest};
use mutfuzz_contract::{EXIT_PANIC, EXIT_SUCCESS, ReplayRecord, read_jsonl};

use super::{ending, hex, read_corpus};
use crate::error::HarnessError;
use crate::r#gen::Gen;
use crate::input::{Limits, Rng, Source};
use crate::raw::RawDecoder;

pub(super) fn run_one<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &RunRequest,
    target: fn(T) -> O,
    raw: Option<RawDecoder<T>>,
) -> Result<i32, HarnessError> {
    let file = r.file.display();
    let bytes = std::fs::read(&r.file).map_err(|e| HarnessError::io(format!("read input {file}"), e))?;
    let value: T = match raw {
        Some(decode) => match decode(&bytes) {
            Some(value) => value,
            None => {
                println!("input: rejected by `Arbitrary`: cargo-fuzz's target does not run on it");
                return Ok(EXIT_SUCCESS);
            }
        },
        None => Source::new(bytes, Rng::new(0)).with_limits(Limits::default()).draw(),
    };
    println!("input: {value:#?}");
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| target(value))) {
        Ok(output) => {
            println!("output: {output:#?}");
            Ok(EXIT_SUCCESS)
        }
        // The panic hook has printed the message and location.
        Err(_) => Ok(EXIT_PANIC),
    }
}

/// `outputs <target> --corpus DIR --out FILE`: the original's ending on every stored
/// input, one [`ReplayRecord`] per line (what `cargo mutfuzz export` writes).
pub(super) fn write_outputs<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &CorpusRequest,
    target: fn(T) -> O,
) -> Result<i32, HarnessError> {
    let mut text = String::new();
    for (name, bytes) in read_corpus(&r.corpus)? {
        let record = ReplayRecord { output: ending(target, &bytes), bytes: hex(&bytes), input: name };
        text.push_str(&serde_json::to_string(&record)?);
        text.push('\n');
    }
    mutfuzz_contract::write_atomic(&r.out, text.as_bytes())?;
    Ok(EXIT_SUCCESS)
}

/// The most differences a replay lists before it stops: a mutant that breaks every
/// input is told apart quickly, and the message stays readable.
const MAX_DIFFERENCES: usize = 5;

/// `replay <target> FILE`: every input of the data file ends as recorded; the number of
/// inputs replayed, or the differences.
pub(super) fn replay<T: Gen + Debug + 'static, O: Debug + 'static>(
    r: &ReplayRequest,
    target: fn(T) -> O,
) -> Result<i32, HarnessError> {
    let file = r.file.display();
    let records = read_jsonl::<ReplayRecord>(&r.file)?;
    if let Some(torn) = records.torn {
        return Err(HarnessError::Invalid(torn.to_string()));
    }
    let mut differences = Vec::new();
    for r in &records.records {
        let bytes = mutfuzz_contract::protocol::decode_hex(&r.bytes).unwrap_or_default();
        let now = ending(target, &bytes);
        if now != r.output {
            differences.push(format!("input {}:\n  recorded: {}\n  now:      {now}", r.input, r.output));
            if differences.len() == MAX_DIFFERENCES {
                break;
            }
        }
    }
    if differences.is_empty() {
        Ok(records.records.len() as i32)
    } else {
        Err(HarnessError::Replay(format!(
            "{} of {} replayed inputs of {file} no longer end as recorded{}:\n{}",
            differences.len(),
            records.records.len(),
            if differences.len() == MAX_DIFFERENCES { " (the first ones)" } else { "" },
            differences.join("\n")
        )))
    }
}
