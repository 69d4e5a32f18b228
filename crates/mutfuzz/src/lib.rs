//! Mutation-guided fuzzing engine: inputs as choice sequences, the generators that
//! turn them into typed values, and the in-process Mu2 campaign that keeps the inputs
//! which kill mutants.
//!
//! An [`Input`] is a sequence of choice bytes. A [`Source`] replays those bytes
//! through a generator ([`Gen`], usually derived) and extends them with fresh random
//! choices when they run out; it records a [`Span`] for every typed sub-value, so
//! the engine can edit inputs at the level of whole values (splice, resample,
//! zero-fill, drop) as well as bytes. Any byte string is a valid input, and the
//! same bytes always give the same value.
//!
//! ```
//! use mutfuzz::{Gen, Rng, Source};
//!
//! #[derive(Debug, Gen)]
//! struct Order {
//!     #[mutfuzz(range = 1..=100)]
//!     quantity: u32,
//!     #[mutfuzz(len = 0..=8)]
//!     note: String,
//!     express: Option<bool>,
//! }
//!
//! // Generate a fresh value; its input is the bytes of the choices made.
//! let mut src = Source::new(Vec::new(), Rng::new(42));
//! let order: Order = src.draw();
//! let (input, spans) = src.into_input();
//! assert!((1..=100).contains(&order.quantity));
//! assert_eq!(spans[0].type_name, std::any::type_name::<Order>());
//!
//! // Replaying the input gives the same value, whatever the generator's seed.
//! let again: Order = Source::new(input.as_bytes(), Rng::new(7)).draw();
//! assert_eq!(format!("{order:?}"), format!("{again:?}"));
//! ```
//!
//! # Writing a harness
//!
//! A fuzz harness (the `mutfuzz/` package that `cargo mutfuzz init` scaffolds) is a
//! binary whose `main.rs` lists its targets with [`targets!`]: plain functions taking one
//! generated value ([`Gen`]) and returning an output the oracle compares by its `Debug`
//! text. [`assume`] discards an input a target does not accept, [`Arb`] brings any
//! `arbitrary::Arbitrary` type in, and [`SortedDebug`] makes an output holding hash maps
//! deterministic. The user guide is the book in the repository's `book/` directory.
//!
//! ```no_run
//! use mutfuzz::{Arb, Gen};
//!
//! #[derive(Debug, Gen)]
//! enum Command {
//!     Push(#[mutfuzz(range = 0..=9)] u8),
//!     Pop,
//! }
//!
//! fn stack(commands: Vec<Command>) -> Vec<u8> {
//!     let mut stack = Vec::new();
//!     for c in commands {
//!         match c {
//!             Command::Push(x) => stack.push(x),
//!             Command::Pop => {
//!                 mutfuzz::assume(!stack.is_empty());
//!                 stack.pop();
//!             }
//!         }
//!     }
//!     stack
//! }
//!
//! fn checksum(data: Arb<Vec<u8>>) -> u32 {
//!     data.0.iter().map(|&b| u32::from(b)).sum()
//! }
//!
//! mutfuzz::targets!(stack, checksum);
//! ```
//!
//! # Derive attributes
//!
//! `#[derive(Gen)]` works on structs (named, tuple, unit) and enums. Fields take
//! `#[mutfuzz(...)]` with one of:
//! - `range = 1..=100`: an integer field drawn from the range;
//! - `len = 0..=8`: a collection or string field whose length lies in the range ([`GenLen`]);
//! - `with = path::to::fn`: a custom generator, `fn(&mut Source) -> FieldType`;
//! - `arbitrary`: an `arbitrary::Arbitrary` field drawn as one opaque byte string;
//! - `default`: `Default::default()`, drawing nothing.
//!
//! Enum variants take `#[mutfuzz(skip)]` (never generated) and
//! `#[mutfuzz(recursive)]` (treat as recursive for the depth budget; variants
//! whose fields name the enum itself are recursive already). The container takes
//! `#[mutfuzz(crate = path)]` when `mutfuzz` is re-exported under another path.
//!
//! The helper attribute is `mutfuzz`, not `gen`, because `gen` is a reserved
//! keyword from edition 2024 on.
//!
//! # Values as data
//!
//! [`Reflect`] turns a generated value into a [`ValueTree`](contract::ValueTree)
//! (integers with their type, floats by their bits, collections by kind, structs and
//! enum variants by name, opaque `Debug` text for [`Arb<T>`] and types without
//! reflection), so a kept input can be written as Rust source. It is implemented for the
//! std types that have a [`Gen`] impl and emitted by `#[derive(Gen)]`, each field
//! reflected by its type whatever its attribute; it is not a supertrait of `Gen`. The
//! harness's `values` command writes the tree of every stored input of a target whose
//! input type implements it ([`targets!`] finds out).
//!
//! # Campaigns
//!
//! A [`Campaign`] fuzzes a target `fn(T) -> O` linked against a schema (the crate under
//! test rewritten by `mutfuzz-mutate`, whose sites ask `mutfuzz_rt` which mutant is
//! active). Each trial makes an input, runs the original while recording the sites it
//! hits, runs the surviving mutants of those sites (Mu2's execution pruning) within fuel
//! and depth budgets, and keeps the input when it hits a new site or kills a mutant no
//! kept input killed (Mu2's Alg. 2). The pieces are behind small traits: [`Schedule`]
//! (parent choice and energy), [`Edit`] (child inputs), [`Selector`] (which mutants a
//! trial runs), [`Guidance`] (what to keep), [`Oracle`] (output comparison).

#![deny(missing_docs)]

// Lets `#[derive(Gen)]` (which names `::mutfuzz`) work inside this crate's own tests.
extern crate self as mutfuzz;

mod bounded;
pub mod campaign;
pub mod clock;
pub mod config;
pub mod corpus;
pub mod coverage;
pub mod drift;
pub mod edit;
pub mod error;
mod findings;
mod r#gen;
pub mod guidance;
pub mod harness;
mod input;
mod ip_addr;
pub mod mutants;
pub mod oracle;
mod panics;
pub mod raw;
pub mod reflect;
mod same_hash;
pub mod schedule;
pub mod score;
pub mod select;
pub mod shrink;
mod sorted_debug;
pub mod trial;
mod unaddressed;
pub mod workers;

pub use harness::libfuzzer;

pub use bounded::{DEBUG_BOUND, debug_bounded};
pub use campaign::{Campaign, Event};
pub use config::{CampaignConfig, MUZEST_SAMPLE};
pub use corpus::{Corpus, CorpusEntry, Store};
pub use edit::{
    CompareEdit, DictionaryEdit, Edit, EditKind, Havoc, Informed, Resample, Structure, TypeTargets,
};
pub use error::Error;
pub use findings::{Failure, HELD_FAILURES};
pub use r#gen::{Arb, Gen, GenLen, Generated, generate};
pub use guidance::{Decision, Energy, Guidance, Mu2, MuZest, TrialFacts, Zest};
pub use input::{
    Dictionary, Donor, Fill, Input, Int, Leaf, Limits, PackedSpans, Repeat, Rewrite, Rng, Source, Span,
    SpanKind, Spans, Value,
};
pub use ip_addr::ip_addr;
pub use mutants::{MutantInfo, MutantStatus, MutantTable};
/// The files and lines shared with `cargo mutfuzz` (re-exported whole as [`contract`]).
pub use mutfuzz_contract as contract;
pub use mutfuzz_contract::{
    Budget, FailureRecord, GuidanceKind, Isolate, KillKind, KillLimit, KillRecord, ScoreLine, ScoreOutcome,
    Stats,
};
pub use mutfuzz_derive::Gen;
pub use oracle::{AnyOutput, Compare, DebugHash, Oracle, StreamHash, content_name, debug_hash};
pub use panics::{assume, reject};
pub use reflect::Reflect;
pub use same_hash::{same_hash, same_hash_checked};
pub use schedule::{MutagenSchedule, Schedule, ScheduleKind, ZestSchedule};
pub use select::{ExecutionPruning, InfectionPruning, Prune, Sample, Selector, TrialSites};
pub use sorted_debug::{SortedDebug, debug_unordered};
pub use unaddressed::{debug_unaddressed, shown};
pub use workers::Workers;
