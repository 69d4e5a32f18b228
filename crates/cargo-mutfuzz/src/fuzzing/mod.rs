//! A built harness fuzzed, shared by the commands that fuzz (`fuzz`, `fuzz --all`,
//! `eval`, `amplify`): the harness found, patched and built against the schema
//! (`harness`), run until done under supervision (`supervision`, one restart loop for
//! `fuzz` and `score`), the corpus the supervisor alone writes (`handover`), one
//! target's campaign (`campaign`), the budget schedule that
//! shares one budget among many targets (`slices`, pure) and the campaign of every target
//! within it (`all`), the mutants-first strategy (`mutants_first`), the record files read
//! back (`records`), shrinking (`shrinking`), corpus minimization (`cmin`, `cover`) and
//! the generated harness (`auto_harness`).

pub mod all;
pub(crate) mod auto_harness;
pub mod campaign;
pub(crate) mod cmin;
pub(crate) mod cover;
pub(crate) mod handover;
pub(crate) mod harness;
pub(crate) mod mutants_first;
pub(crate) mod records;
pub(crate) mod settings;
pub(crate) mod shrinking;
pub mod slices;
pub(crate) mod supervision;

pub use campaign::{
    Ended, Files, Stop, campaign, check_hang_timeout, count_files, kill_factor, listed_mutants,
    mutant_sample, warn_skipped_inputs, with_strategy,
};
pub use handover::disk_full_error;
