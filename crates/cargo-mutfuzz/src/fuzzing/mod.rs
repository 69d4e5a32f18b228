//! Fuzzing a built harness, shared by the commands that fuzz (`fuzz`, `fuzz --all`,
//! `eval`): one target's supervised campaign (`campaign`), the budget schedule that
//! shares one budget among many targets (`slices`, pure), and the campaign of every
//! target of a harness within that budget (`all`).

pub mod all;
pub(crate) mod auto_harness;
pub mod campaign;
pub(crate) mod cmin;
pub(crate) mod cover;
pub(crate) mod harness;
pub(crate) mod mutants_first;
pub(crate) mod records;
pub(crate) mod shrinking;
pub mod slices;
pub(crate) mod supervision;

pub use campaign::{
    Ended, Files, Stop, campaign, check_hang_timeout, count_files, disk_full_error, kill_factor,
    listed_mutants, mutant_sample, warn_skipped_inputs, with_strategy,
};
