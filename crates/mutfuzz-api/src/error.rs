//! What can go wrong reading a crate's API.

use std::path::PathBuf;

/// An error of the static pass.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A source file could not be read.
    #[error("failed to read {0}: {1}")]
    Read(PathBuf, #[source] std::io::Error),
    /// A source file is not valid Rust (as `syn` parses it).
    #[error("failed to parse {0}: {1}")]
    Parse(PathBuf, String),
}
