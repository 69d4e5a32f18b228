//! The contract between mutfuzz's engine (the `mutfuzz` crate, linked into a user's fuzz
//! harness) and `cargo mutfuzz`, which builds and supervises that harness: every file and
//! every line one of them writes and the other reads is a type of this crate, written and
//! read by the functions here, so the two sides cannot drift apart.
//!
//! - [`layout`]: the names of the files in a campaign's state directory;
//! - [`records`]: kill, failure, unviable, score and replay records ([`KillRecord`], [`ScoreLine`], …);
//! - [`stats`]: a campaign's counters ([`Stats`]), as reported live and in `stats.csv`;
//! - [`command`]: the harness's command line, every command and its request as one type
//!   ([`HarnessCommand`]), written by `cargo mutfuzz` and parsed by the engine;
//! - [`protocol`]: the lines a harness prints on stdout for its supervisor ([`Line`]) and
//!   the harness's exit codes ([`EXIT_SUCCESS`], [`EXIT_ERROR`], [`EXIT_DRIFT`], …);
//! - [`content`]: the content hash that names stored inputs ([`content_name`]);
//! - [`guidance`], [`edit`], [`schedule`], [`prune`], [`isolate`]: the names of the
//!   strategies a campaign is run with ([`GuidanceKind`], [`EditKind`], …);
//! - [`budget`]: the fuel and depth bounds of a mutant run ([`Budget`]);
//! - [`shrink`]: the result line and exit code of the harness's `shrink` and `tmin` ([`ShrinkLine`]);
//! - [`value_tree`]: generated values as data ([`ValueTree`]) and the lines of the
//!   harness's `values` command ([`ValueRecord`]);
//! - [`files`]: atomic file writes, whole-line appends, and strict readers of `.jsonl`
//!   files whose errors name the file and line.
//!
//! It depends on `serde` and `serde_json` only, and travels with the engine: the harness
//! links it through the engine, `cargo mutfuzz` links it directly.

#![deny(missing_docs)]

pub mod budget;
pub mod command;
pub mod content;
pub mod edit;
pub mod files;
pub mod guidance;
pub mod hints;
pub mod isolate;
pub mod layout;
pub mod protocol;
pub mod prune;
pub mod records;
pub mod schedule;
pub mod shrink;
pub mod stats;
pub mod value_tree;

pub use budget::Budget;
pub use command::{HarnessCommand, InputFormat, ParseError, Probability};
pub use content::{StreamHash, content_name};
pub use edit::EditKind;
pub use files::{
    CorpusFiles, FileError, Jsonl, JsonlWriter, Record, Torn, append_record, read_corpus, read_jsonl,
    remove_stale_temps, store_new, write_atomic,
};
pub use guidance::GuidanceKind;
pub use hints::{Branch, Hints, Literals, TypeDistance, is_common_type};
pub use isolate::Isolate;
pub use layout::{CampaignDir, score_contract_panic_log, score_progress_log};
pub use protocol::{
    EXIT_DRIFT, EXIT_ERROR, EXIT_LIBFUZZER_CRASH, EXIT_LIBFUZZER_ERROR, EXIT_NOT_KEPT, EXIT_PANIC,
    EXIT_SUCCESS, Line, MAX_LINE, Reply, Report, encode_hex, read_line_capped,
};
pub use prune::Prune;
pub use records::{
    ADDRESS_MASK, CminRecord, ContractPanicRecord, DISCARD_MESSAGE, DriftRecord, FailureRecord, KillKind,
    KillLimit, KillRecord, NondeterministicRecord, RENDER_LIMIT, ReplayRecord, ScoreLine, ScoreOutcome,
    ScoreProgressRecord, UnviableRecord,
};
pub use schedule::ScheduleKind;
pub use shrink::{Kept, ShrinkLine};
pub use stats::{Stats, StatsRow, parse_stats_csv};
pub use value_tree::{
    Fields, FloatType, MapKind, PointerKind, SeqKind, SignedType, UnsignedType, ValueRecord, ValueTree,
};
