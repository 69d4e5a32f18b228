//! The corpus: saved inputs in memory, and the on-disk store that writes them (and the
//! kill and failure records) atomically as they are found.
//!
//! Layout of a campaign directory:
//! - `corpus/<name>`: one file per saved input, its choice bytes, named by a 128-bit
//!   content hash, so the same input is never stored twice under two names;
//! - `failures/<name>`: inputs on which the original panicked;
//! - `kills.jsonl`, `failures.jsonl`: one JSON record per line, each line appended with
//!   a single write, so a campaign killed mid-way leaves only whole lines.
//!
//! Files are written to a temporary name in the same directory, synced and renamed into
//! place: a reader sees either no file or the whole file.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::input::{Input, Spans};

/// One saved input.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The choice bytes.
    pub input: Input,
    /// Spans of the value the bytes generate.
    pub spans: Spans,
    /// Content-hash name (the file name in `corpus/`).
    pub name: String,
    /// Number of sites the original hit on it.
    pub sites: u32,
    /// Whether the guidance favoured it.
    pub favoured: bool,
    /// Mutants it killed first.
    pub kills: u32,
    /// The trial (from 0) that made it.
    pub trial: u64,
}

/// The saved inputs, in the order they were saved.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    entries: Vec<Entry>,
    max_sites: u32,
}

impl Corpus {
    /// An empty corpus.
    pub fn new() -> Self {
        Corpus::default()
    }

    /// Adds an entry; returns its index.
    pub fn push(&mut self, entry: Entry) -> usize {
        self.max_sites = self.max_sites.max(entry.sites);
        self.entries.push(entry);
        self.entries.len() - 1
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry at `index`.
    pub fn get(&self, index: usize) -> Option<&Entry> {
        self.entries.get(index)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is saved yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The most sites any entry hit (Zest's `maxCoverage`).
    pub fn max_sites(&self) -> u32 {
        self.max_sites
    }
}

/// The on-disk store of one campaign directory.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    corpus: PathBuf,
    kills: File,
    failures: File,
}

impl Store {
    /// Directory of saved inputs, under the campaign directory.
    pub const CORPUS: &'static str = "corpus";
    /// Directory of failing inputs.
    pub const FAILURES: &'static str = "failures";
    /// Kill records, one JSON object per line.
    pub const KILLS: &'static str = "kills.jsonl";
    /// Failure records, one JSON object per line.
    pub const FAILURE_LOG: &'static str = "failures.jsonl";

    /// Opens (creating as needed) the store in `dir`, with the corpus in `dir/corpus`.
    pub fn open(dir: &Path) -> io::Result<Store> {
        Store::open_with_corpus(dir, &dir.join(Self::CORPUS))
    }

    /// Opens the store in `dir` with the saved inputs in `corpus` (which may live
    /// elsewhere, such as `mutfuzz/corpus/<target>/` beside the harness).
    pub fn open_with_corpus(dir: &Path, corpus: &Path) -> io::Result<Store> {
        fs::create_dir_all(corpus)?;
        fs::create_dir_all(dir.join(Self::FAILURES))?;
        let append = |name: &str| OpenOptions::new().create(true).append(true).open(dir.join(name));
        Ok(Store {
            dir: dir.to_path_buf(),
            corpus: corpus.to_path_buf(),
            kills: append(Self::KILLS)?,
            failures: append(Self::FAILURE_LOG)?,
        })
    }

    /// The campaign directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The directory of saved inputs.
    pub fn corpus_dir(&self) -> &Path {
        &self.corpus
    }

    /// Writes a saved input to the corpus directory as `<name>`; returns its path.
    pub fn save_input(&self, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        write_atomically(&self.corpus, name, bytes)
    }

    /// Writes a failing input to `failures/<name>`; returns its path.
    pub fn save_failure(&self, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        write_atomically(&self.dir.join(Self::FAILURES), name, bytes)
    }

    /// Appends one kill record (a JSON object without newline) to `kills.jsonl`.
    pub fn append_kill(&mut self, json: &str) -> io::Result<()> {
        append_line(&mut self.kills, json)
    }

    /// Appends one failure record to `failures.jsonl`.
    pub fn append_failure(&mut self, json: &str) -> io::Result<()> {
        append_line(&mut self.failures, json)
    }
}

fn append_line(file: &mut File, json: &str) -> io::Result<()> {
    let mut line = String::with_capacity(json.len() + 1);
    line.push_str(json);
    line.push('\n');
    // One write of the whole line on an O_APPEND file: lines never interleave or tear
    // (short writes do not happen on regular files).
    file.write_all(line.as_bytes())
}

/// Writes `bytes` to `dir/name` through a temporary file and a rename.
fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    let path = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let result = (|| {
        let mut file = File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map(|()| path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_writes_whole_files_and_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let path = store.save_input("abc", b"\x01\x02").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"\x01\x02");
        // Saving again replaces the file in one step.
        store.save_input("abc", b"\x01\x02").unwrap();
        let names: Vec<_> = fs::read_dir(dir.path().join(Store::CORPUS))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["abc"]);
        store.append_kill("{\"mutant\":1}").unwrap();
        store.append_kill("{\"mutant\":2}").unwrap();
        let text = fs::read_to_string(dir.path().join(Store::KILLS)).unwrap();
        assert_eq!(text, "{\"mutant\":1}\n{\"mutant\":2}\n");
    }

    #[test]
    fn the_corpus_tracks_the_largest_coverage() {
        let mut c = Corpus::new();
        let e = |sites| Entry {
            input: Input::default(),
            spans: Spans::default(),
            name: String::new(),
            sites,
            favoured: false,
            kills: 0,
            trial: 0,
        };
        c.push(e(3));
        c.push(e(7));
        c.push(e(5));
        assert_eq!((c.len(), c.max_sites()), (3, 7));
    }
}
