//! The corpus directory is the supervisor's: the harness process, where mutants run, may
//! only read it (its sandbox says so), and hands each input to keep to the supervisor,
//! which checks it and stores it ([`Inbox`]).
//!
//! The channel is the harness's stdout, which the supervisor reads line by line already:
//! a `keep <name> <hex>` line, answered on the harness's stdin (`stored <name>` or
//! `refused <name>`, see `mutfuzz_contract::protocol`). The harness waits for the answer
//! before it writes anything that names the input (a kill record), so no record ever
//! names an input the corpus lacks, whichever process dies when: a supervisor killed
//! before it answers leaves the harness with its stdin closed and the record unwritten,
//! and once it answers the input is stored. A staging directory that the harness writes
//! and the supervisor drains would hold inputs that records already name until drained,
//! where a mutant could still change them, and would make the supervisor read whatever a
//! mutant plants there (a FIFO blocks the read, a symlink leads anywhere); a line is
//! bytes only, and a sandboxed process has no other way to the supervisor.
//!
//! The supervisor checks that the bytes hash to the name: a line garbled on the way (the
//! target's own output broke into it) or made up is refused, so no file is ever stored
//! under a name that is not its content's, and no name leads out of the directory. A
//! mutant may still hand over an input of its own, well named: it is then an input like
//! any the fuzzer finds. Stored inputs are never removed, and one is only rewritten whole
//! where its file was damaged.

use std::path::{Path, PathBuf};

use anyhow::Result;
use mutfuzz_contract::{FileError, content_name, store_new};

use crate::process::supervise::Keep;

/// The supervisor's side of one corpus directory: the inputs its harness hands over.
#[derive(Debug)]
pub struct Inbox {
    corpus: PathBuf,
    refused: u64,
}

impl Inbox {
    /// Takes inputs into `corpus` (which exists).
    pub fn new(corpus: &Path) -> Inbox {
        Inbox { corpus: corpus.to_owned(), refused: 0 }
    }

    /// `keep` lines refused so far.
    pub fn refused(&self) -> u64 {
        self.refused
    }
}

impl Keep for Inbox {
    fn keep(&mut self, name: &str, bytes: &[u8]) -> Result<bool> {
        if content_name(bytes) != name {
            self.refused += 1;
            return Ok(false);
        }
        store_new(&self.corpus, name, bytes).map_err(|e| match &e {
            FileError::Io { source, .. } if source.raw_os_error() == Some(libc::ENOSPC) => {
                disk_full_error(&e.to_string())
            }
            _ => anyhow::Error::new(e).context(format!("cannot store input {name} in the corpus")),
        })?;
        Ok(true)
    }
}

/// The error that ends a campaign on a full disk: nothing half-written is left (inputs are
/// written whole or not at all, a record line cut short is dropped when read), so it
/// resumes from everything saved once there is space.
pub fn disk_full_error(line: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "the disk is full, the campaign stopped ({}): free some space and run the same command \
         again; every input and kill saved so far is intact and the campaign resumes from them",
        line.trim().trim_start_matches("error: ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }

    #[test]
    fn an_input_is_stored_under_its_content_name_and_nothing_else_is() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpus");
        std::fs::create_dir(&corpus).unwrap();
        let mut inbox = Inbox::new(&corpus);
        let good = content_name(&[1, 2, 3]);
        assert!(inbox.keep(&good, &[1, 2, 3]).unwrap());
        assert_eq!(std::fs::read(corpus.join(&good)).unwrap(), [1, 2, 3]);
        // Handed over again (a replayed seed, or a mutant repeating it): the one file.
        assert!(inbox.keep(&good, &[1, 2, 3]).unwrap());

        // A name that is not the bytes' (other bytes, a garbled line, a path out of the
        // directory, an empty input named as another): refused, nothing written.
        let other = content_name(&[9]);
        for (name, bytes) in [
            (other.as_str(), &[1u8, 2, 3][..]),
            (&good[..31], &[1, 2, 3][..]),
            ("../escaped", &[1, 2, 3][..]),
            (".hidden", &[][..]),
            (other.as_str(), &[][..]),
        ] {
            assert!(!inbox.keep(name, bytes).unwrap(), "{name}");
        }
        assert_eq!(inbox.refused(), 5);
        assert_eq!(names(&corpus), std::slice::from_ref(&good));
        assert!(!dir.path().join("escaped").exists());
        // A refused line cannot change a stored input either.
        assert!(!inbox.keep(&good, &[1, 2]).unwrap());
        assert_eq!(std::fs::read(corpus.join(&good)).unwrap(), [1, 2, 3]);

        // A damaged file (cut short) is rewritten whole when its input comes again.
        std::fs::write(corpus.join(&other), [7, 7]).unwrap();
        assert!(inbox.keep(&other, &[9]).unwrap());
        assert_eq!(std::fs::read(corpus.join(&other)).unwrap(), [9]);
        assert_eq!(inbox.refused(), 6);
    }

    #[test]
    fn a_corpus_that_cannot_be_written_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, "").unwrap();
        let mut inbox = Inbox::new(&file.join("corpus"));
        let err = inbox.keep(&content_name(&[1]), &[1]).unwrap_err();
        let text = format!("{err:#}");
        assert!(
            text.starts_with(&format!("cannot store input {} in the corpus", content_name(&[1]))),
            "{text}"
        );
        assert!(text.contains("a-file"), "{text}");
    }
}
