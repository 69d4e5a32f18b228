//! The schema build: cargo run on the scratch copy rewritten into the schema
//! (`schema_build`, `cargo_build`), the viability loop and its cache (`viability`,
//! `viability_cache`), compiler errors located (`diagnostics`), doctests as a test target
//! (`doctest_target`), the lint check (`lints`, `lint_check`), the rustc wrapper of harness
//! builds (`rustc_wrapper`) and what a build produced to run (`binaries`).

pub(crate) mod binaries;
pub(crate) mod cargo_build;
pub(crate) mod diagnostics;
pub(crate) mod doctest_target;
pub(crate) mod lint_check;
pub(crate) mod lints;
pub mod rustc_wrapper;
pub mod schema_build;
pub(crate) mod viability;
pub(crate) mod viability_cache;
