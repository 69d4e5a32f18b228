//! The corpus: saved inputs in memory (the spans of the [`HELD_INPUTS`] most recent), and
//! the on-disk store that writes them (and the kill and failure records) as they are
//! found.
//!
//! The campaign directory's layout and the way its files are written are the contract's
//! ([`mutfuzz_contract::layout`], [`mutfuzz_contract::files`]):
//! - `corpus/<name>` (or another corpus directory): one file per saved input, its choice
//!   bytes, named by a 128-bit content hash, so the same input is never stored twice;
//! - `failures/<name>`: inputs on which the original panicked;
//! - `contract-panics/<name>`, `contract-panics.jsonl`: those of a generated target,
//!   whose panics are outcomes by contract, one per distinct message;
//! - `kills.jsonl`, `failures.jsonl`: one record per line, each line appended with a
//!   single write, so a campaign killed mid-way leaves only whole lines.
//!
//! Under `cargo mutfuzz fuzz` the corpus directory is the supervisor's: the harness may
//! only read it, and hands each input to keep over ([`HandOver`]).

mod spans;

use std::fs;
use std::path::{Path, PathBuf};

use mutfuzz_contract::{
    CampaignDir, ContractPanicRecord, FailureRecord, FileError, JsonlWriter, KillRecord, store_new,
};

use crate::error::Error;
use crate::guidance::Energy;
use crate::input::{Input, PackedSpans, Spans};

pub use spans::{HELD_INPUTS, Respan};

/// Stores an input in a corpus directory this process may not write, on its behalf, and
/// returns once it is stored (an error if it is not): nothing names the input before.
pub type HandOver = Box<dyn FnMut(&str, &[u8]) -> Result<(), Error>>;

/// One saved input.
#[derive(Clone, Debug)]
pub struct CorpusEntry {
    /// The choice bytes.
    pub input: Input,
    /// Content-hash name (the file name in `corpus/`).
    pub name: String,
    /// Number of sites the original hit on it.
    pub sites: u32,
    /// Whether the guidance favoured it.
    pub favoured: bool,
    /// Its children relative to the schedule's count (μZest's KILL_FACTOR).
    pub energy: Energy,
    /// Mutants it killed first.
    pub kills: u32,
    /// The trial (from 0) that made it.
    pub trial: u64,
}

/// The saved inputs, in the order they were saved.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    entries: Vec<CorpusEntry>,
    max_sites: u32,
    spans: spans::SpanStore,
}

impl Corpus {
    /// An empty corpus.
    pub fn new() -> Self {
        Corpus::default()
    }

    /// From now on holds the spans of at most `capacity` entries (the most recently
    /// saved or used), and generates the others' again with `respan` when they are
    /// needed. Without it every entry's spans are held.
    pub fn regenerate_spans(&mut self, respan: Respan, capacity: usize) {
        self.spans.regenerate_with(respan, capacity);
    }

    /// Adds an entry and the spans of the value its input generates; returns its index.
    pub fn push(&mut self, entry: CorpusEntry, spans: Spans) -> usize {
        self.max_sites = self.max_sites.max(entry.sites);
        self.entries.push(entry);
        self.spans.push(spans);
        self.entries.len() - 1
    }

    /// Calls `f` with the spans of entry `index`.
    pub fn with_spans<R>(&self, index: usize, f: impl FnOnce(&PackedSpans) -> R) -> R {
        self.spans.with(index, self.entries[index].input.as_bytes(), f)
    }

    /// Whether entry `index` has a span of type `type_name` (without its spans at hand).
    pub fn has_type(&self, index: usize, type_name: &str) -> bool {
        self.spans.has_type(index, type_name)
    }

    /// How many times an entry's spans were generated again.
    pub fn spans_regenerated(&self) -> u64 {
        self.spans.regenerated()
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> &[CorpusEntry] {
        &self.entries
    }

    /// The entry at `index`.
    pub fn get(&self, index: usize) -> Option<&CorpusEntry> {
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
    dir: CampaignDir,
    corpus: PathBuf,
    kills: JsonlWriter,
    failures: JsonlWriter,
    /// Opened on the first mutant panic: most campaigns have none.
    mutant_panics: Option<JsonlWriter>,
    /// Opened on the first panic by contract: only generated targets have them.
    contract_panics: Option<JsonlWriter>,
}

impl Store {
    /// Opens (creating as needed) the store in `dir`, with the corpus in `dir/corpus`.
    pub fn open(dir: &Path) -> Result<Store, FileError> {
        Store::open_with_corpus(dir, &CampaignDir::new(dir).corpus())
    }

    /// Opens the store in `dir` with the saved inputs in `corpus` (which may live
    /// elsewhere, such as `mutfuzz/corpus/<target>/` beside the harness). An incomplete
    /// last line of a record file (left by a process killed mid-write) is cut off with a
    /// warning on stderr.
    pub fn open_with_corpus(dir: &Path, corpus: &Path) -> Result<Store, FileError> {
        let dir = CampaignDir::new(dir);
        fs::create_dir_all(corpus).map_err(|e| FileError::io(corpus, e))?;
        fs::create_dir_all(dir.failures()).map_err(|e| FileError::io(&dir.failures(), e))?;
        let open = |path: PathBuf| -> Result<JsonlWriter, FileError> {
            let (writer, cut) = JsonlWriter::open(&path)?;
            if cut > 0 {
                eprintln!("warning: {}: cut off an incomplete last line ({cut} bytes)", path.display());
            }
            Ok(writer)
        };
        Ok(Store {
            kills: open(dir.kills())?,
            failures: open(dir.failure_log())?,
            mutant_panics: None,
            contract_panics: None,
            corpus: corpus.to_path_buf(),
            dir,
        })
    }

    /// The campaign directory.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The campaign directory's files.
    pub fn files(&self) -> &CampaignDir {
        &self.dir
    }

    /// The directory of saved inputs.
    pub fn corpus_dir(&self) -> &Path {
        &self.corpus
    }

    /// Stores a saved input in the corpus directory as `<name>` (once); returns its path.
    pub fn save_input(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, FileError> {
        store_new(&self.corpus, name, bytes).map(|(path, _)| path)
    }

    /// Whether the corpus holds `bytes` as `<name>` already.
    pub fn holds(&self, name: &str, bytes: &[u8]) -> bool {
        fs::read(self.corpus.join(name)).is_ok_and(|old| old == bytes)
    }

    /// Stores a failing input as `failures/<name>` (once); returns its path.
    pub fn save_failure(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, FileError> {
        store_new(&self.dir.failures(), name, bytes).map(|(path, _)| path)
    }

    /// Appends one record to `kills.jsonl`.
    pub fn append_kill(&mut self, record: &KillRecord) -> Result<(), FileError> {
        self.kills.append(record)
    }

    /// Stores an input on which a mutant panicked and the original does not as
    /// `mutant-panics/<name>` (once), and appends its record to `mutant-panics.jsonl`.
    pub fn save_mutant_panic(
        &mut self,
        name: &str,
        bytes: &[u8],
        record: &FailureRecord,
    ) -> Result<(), FileError> {
        store_new(&self.dir.mutant_panics(), name, bytes)?;
        let writer = match &mut self.mutant_panics {
            Some(w) => w,
            slot => slot.insert(JsonlWriter::open(&self.dir.mutant_panic_log())?.0),
        };
        writer.append(record)
    }

    /// Stores an input on which a generated target's original panicked (by contract) as
    /// `contract-panics/<name>` (once), and appends its record to `contract-panics.jsonl`.
    pub fn save_contract_panic(
        &mut self,
        name: &str,
        bytes: &[u8],
        record: &ContractPanicRecord,
    ) -> Result<(), FileError> {
        store_new(&self.dir.contract_panics(), name, bytes)?;
        let writer = match &mut self.contract_panics {
            Some(w) => w,
            slot => slot.insert(JsonlWriter::open(&self.dir.contract_panic_log())?.0),
        };
        writer.append(record)
    }

    /// Appends one record to `failures.jsonl`.
    pub fn append_failure(&mut self, record: &FailureRecord) -> Result<(), FileError> {
        self.failures.append(record)
    }
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
        // Saving again leaves the one file.
        store.save_input("abc", b"\x01\x02").unwrap();
        let names: Vec<_> = fs::read_dir(store.files().corpus())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["abc"]);
        assert!(store.holds("abc", b"\x01\x02"));
        assert!(!store.holds("abc", b"\x01") && !store.holds("abd", b"\x01\x02"));
        let kill = |mutant| KillRecord {
            mutant,
            site: 1,
            kind: mutfuzz_contract::KillKind::Panic,
            limit: None,
            input: "abc".into(),
            trial: 0,
        };
        store.append_kill(&kill(1)).unwrap();
        store.append_kill(&kill(2)).unwrap();
        let read = mutfuzz_contract::read_jsonl::<KillRecord>(&store.files().kills()).unwrap();
        assert_eq!(read.records, [kill(1), kill(2)]);
    }

    #[test]
    fn the_corpus_tracks_the_largest_coverage() {
        let mut c = Corpus::new();
        let e = |sites| CorpusEntry {
            input: Input::default(),
            name: String::new(),
            sites,
            favoured: false,
            energy: Energy::Zest,
            kills: 0,
            trial: 0,
        };
        c.push(e(3), Spans::default());
        c.push(e(7), Spans::default());
        c.push(e(5), Spans::default());
        assert_eq!((c.len(), c.max_sites()), (3, 7));
    }
}
