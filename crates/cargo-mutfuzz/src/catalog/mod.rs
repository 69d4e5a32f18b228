//! The catalog of mutants and which of them a run covers: listing it (`list`), the run
//! filter (`filter`), the selection by diff, filter and shard (`selection`), and the
//! Furthest-Point-First ranking (`fpf`).

pub(crate) mod filter;
pub(crate) mod fpf;
pub(crate) mod list;
pub(crate) mod selection;
