//! `cargo mutfuzz amplify`: tests that kill the mutants the crate's own tests leave
//! alive — fuzzing directed at the survivors, each killing input shrunk, a small set
//! chosen, written as readable `#[test]`s, and checked before the file is written.

pub mod cover;
pub mod survivors;
pub mod verify;
