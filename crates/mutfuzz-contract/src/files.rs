//! How campaign files are written and read, so that a process killed at any moment
//! (even with SIGKILL) leaves nothing half-written that a reader could misread:
//!
//! - whole files ([`write_atomic`], [`store_new`]) go to a temporary name in the same
//!   directory, are synced and renamed into place: a reader sees no file or all of it;
//! - records are appended to `.jsonl` files as one line with one `write` on an
//!   append-mode file ([`JsonlWriter`], [`append_record`]): lines never interleave;
//! - a reader ([`read_jsonl`]) refuses a malformed or unknown record with an error that
//!   names the file and line. The one exception is a last line without its newline that
//!   does not parse: a write cut short (a full disk, a crash of the machine). It is
//!   skipped and reported as [`Torn`], and the next writer to open the file cuts it off
//!   before appending, so it never ends up in the middle of the file.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A record type of a `.jsonl` file.
pub trait Record: DeserializeOwned {
    /// What one record is called in error messages (`kill record`).
    const WHAT: &'static str;

    /// Refuse a record that parses but contradicts itself.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// A campaign file that could not be read or written.
#[derive(Debug)]
pub enum FileError {
    /// The file system refused.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// A line is not a valid record.
    Record {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What the record was meant to be.
        what: &'static str,
        /// What is wrong with it.
        problem: String,
    },
}

impl FileError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: io::Error) -> FileError {
        FileError::Io { path: path.to_owned(), source }
    }

    /// The file concerned.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Io { path, .. } | FileError::Record { path, .. } => path,
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io { path, source } => write!(f, "cannot read or write {}: {source}", path.display()),
            FileError::Record { path, line, what, problem } => write!(
                f,
                "{}:{line}: not a valid {what} ({problem}); it was not written by this version of mutfuzz \
                 or was edited: fix or remove the line, or remove the file to start afresh",
                path.display()
            ),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Io { source, .. } => Some(source),
            FileError::Record { .. } => None,
        }
    }
}

/// A last line cut short, skipped by [`read_jsonl`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Torn {
    /// The file.
    pub path: PathBuf,
    /// The line, from 1.
    pub line: usize,
}

impl fmt::Display for Torn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: skipped an incomplete last line (a write was cut short)",
            self.path.display(),
            self.line
        )
    }
}

/// The records of a `.jsonl` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Jsonl<T> {
    /// Every record, in file order.
    pub records: Vec<T>,
    /// The last line, if it was cut short and skipped.
    pub torn: Option<Torn>,
}

/// Read every record of a `.jsonl` file; a missing file has none. Blank lines are
/// ignored; any other line must be a valid `T`, except a last line without its newline
/// (see [`Torn`]).
pub fn read_jsonl<T: Record>(path: &Path) -> Result<Jsonl<T>, FileError> {
    let text = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Jsonl { records: Vec::new(), torn: None });
        }
        Err(e) => return Err(FileError::io(path, e)),
    };
    let terminated = text.last().is_none_or(|&b| b == b'\n');
    let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    // `split` yields an empty piece after the final newline.
    let count = if terminated { lines.len() - 1 } else { lines.len() };
    let mut records = Vec::new();
    let mut torn = None;
    for (i, line) in lines[..count].iter().enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        // Lossy: a mutant that corrupts memory can render an output whose `String` holds
        // bytes that are not UTF-8, and the line is still the harness's record.
        let line = String::from_utf8_lossy(line);
        let parsed =
            serde_json::from_str::<T>(&line).map_err(|e| e.to_string()).and_then(|r| r.check().map(|()| r));
        match parsed {
            Ok(r) => records.push(r),
            Err(_) if !terminated && i + 1 == count => {
                torn = Some(Torn { path: path.to_owned(), line: i + 1 })
            }
            Err(problem) => {
                return Err(FileError::Record { path: path.to_owned(), line: i + 1, what: T::WHAT, problem });
            }
        }
    }
    Ok(Jsonl { records, torn })
}

/// An open `.jsonl` file that records are appended to, one whole line per write.
#[derive(Debug)]
pub struct JsonlWriter {
    path: PathBuf,
    file: File,
}

impl JsonlWriter {
    /// Open `path` for appending (creating it), first cutting off an incomplete last line
    /// left by a writer that was cut short, so the next record starts a line of its own
    /// (a last line that is whole but for its newline gets its newline instead).
    /// Returns the writer and the number of bytes cut off.
    pub fn open(path: &Path) -> Result<(JsonlWriter, u64), FileError> {
        let io = |e| FileError::io(path, e);
        let mut file = OpenOptions::new().create(true).read(true).append(true).open(path).map_err(io)?;
        let cut = repair_tail(&mut file).map_err(io)?;
        Ok((JsonlWriter { path: path.to_owned(), file }, cut))
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append `record` as one line.
    pub fn append<T: Serialize>(&mut self, record: &T) -> Result<(), FileError> {
        let mut line = serde_json::to_vec(record).map_err(|e| FileError::io(&self.path, e.into()))?;
        line.push(b'\n');
        // One write of the whole line on an O_APPEND file: lines never interleave or
        // tear (short writes do not happen on regular files).
        self.file.write_all(&line).map_err(|e| FileError::io(&self.path, e))
    }
}

/// Append one record to the `.jsonl` file at `path` (opening and closing it); returns
/// the bytes of an incomplete last line cut off first (see [`JsonlWriter::open`]).
pub fn append_record<T: Serialize>(path: &Path, record: &T) -> Result<u64, FileError> {
    let (mut writer, cut) = JsonlWriter::open(path)?;
    writer.append(record)?;
    Ok(cut)
}

/// Make the file end with a newline: an incomplete last line is cut off, unless it is a
/// whole JSON value that only lacks its newline, which is then completed. Returns how
/// many bytes were cut off.
fn repair_tail(file: &mut File) -> io::Result<u64> {
    let len = file.metadata()?.len();
    // Search backwards, block by block, for the last newline.
    let mut keep = 0;
    let mut end = len;
    let mut block = [0u8; 4096];
    while end > 0 {
        let start = end.saturating_sub(block.len() as u64);
        let n = (end - start) as usize;
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut block[..n])?;
        if let Some(i) = block[..n].iter().rposition(|&b| b == b'\n') {
            keep = start + i as u64 + 1;
            break;
        }
        end = start;
    }
    if keep == len {
        return Ok(0);
    }
    let mut tail = Vec::new();
    file.seek(SeekFrom::Start(keep))?;
    file.read_to_end(&mut tail)?;
    if serde_json::from_slice::<serde::de::IgnoredAny>(&tail).is_ok() {
        file.write_all(b"\n")?;
        return Ok(0);
    }
    file.set_len(keep)?;
    Ok(len - keep)
}

/// Write `bytes` to `path` through a temporary file in the same directory, synced and
/// renamed into place: a reader sees the old file or the new one, never part of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let written = (|| {
        let mut file = File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(FileError::io(path, e));
    }
    Ok(())
}

/// Whether `name` is a temporary file of [`write_atomic`] (`.<name>.tmp<pid>`), and the
/// pid of its writer.
fn temp_writer(name: &str) -> Option<u32> {
    let (stem, pid) = name.strip_prefix('.')?.rsplit_once(".tmp")?;
    (!stem.is_empty() && !pid.is_empty()).then_some(())?;
    pid.parse().ok()
}

/// How old a temporary file must be to be stale whoever wrote it: a [`write_atomic`] takes
/// milliseconds, and a pid can be reused (or belong to another pid namespace).
const STALE_TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(600);

/// Remove the temporary files that interrupted [`write_atomic`]s left in `dir` (a writer
/// killed between create and rename: Ctrl-C, SIGKILL, a crash): those whose writer is no
/// longer running, or older than ten minutes. A live writer's file stays, so a process
/// writing the same directory meanwhile is not disturbed. Returns the paths removed; a
/// missing `dir` has none.
pub fn remove_stale_temps(dir: &Path) -> Result<Vec<PathBuf>, FileError> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(FileError::io(dir, e)),
    };
    let mut removed = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| FileError::io(dir, e))?;
        let Some(pid) = temp_writer(&entry.file_name().to_string_lossy()) else { continue };
        let old = entry.metadata().ok().and_then(|m| m.modified().ok()).and_then(|t| t.elapsed().ok());
        if !running(pid) || old.is_some_and(|age| age > STALE_TEMP_AGE) {
            let path = entry.path();
            match fs::remove_file(&path) {
                Ok(()) => removed.push(path),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(FileError::io(&path, e)),
            }
        }
    }
    removed.sort();
    Ok(removed)
}

/// Whether process `pid` is running. Only Linux says (`/proc`); elsewhere every writer
/// counts as running and only age makes a temporary file stale.
fn running(pid: u32) -> bool {
    if cfg!(target_os = "linux") { Path::new("/proc").join(pid.to_string()).exists() } else { true }
}

/// Store `bytes` as `dir/name` (creating `dir`) unless that file exists: inputs are
/// named by their content, so an existing file already holds these bytes — unless it was
/// damaged (see [`read_corpus`]), and then it is written again. Returns the path and
/// whether it was written now.
pub fn store_new(dir: &Path, name: &str, bytes: &[u8]) -> Result<(PathBuf, bool), FileError> {
    let path = dir.join(name);
    if path.is_file() && fs::read(&path).is_ok_and(|old| old == bytes) {
        return Ok((path, false));
    }
    fs::create_dir_all(dir).map_err(|e| FileError::io(dir, e))?;
    write_atomic(&path, bytes)?;
    Ok((path, true))
}

/// The inputs of a corpus directory.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CorpusFiles {
    /// Each usable input's file name and bytes, in name order.
    pub inputs: Vec<(String, Vec<u8>)>,
    /// One line per file skipped (damaged or unreadable), for a warning.
    pub skipped: Vec<String>,
}

/// Whether `name` has the form of [`crate::content_name`]: 32 lowercase hex digits.
fn is_content_name(name: &str) -> bool {
    name.len() == 32 && name.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Read every input of the corpus directory `dir` (none if it does not exist). Hidden
/// files and directories are not inputs. A file named by a content hash whose bytes do
/// not hash to its name was damaged (truncated, overwritten), and a file that cannot be
/// read is no input either: each is skipped and named in [`CorpusFiles::skipped`], never
/// deleted and never an error. Files of other names are inputs the user put there.
pub fn read_corpus(dir: &Path) -> Result<CorpusFiles, FileError> {
    let mut out = CorpusFiles::default();
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(FileError::io(dir, e)),
    };
    for entry in entries {
        let entry = entry.map_err(|e| FileError::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // A directory, or a symlink to one, is not an input.
        if name.starts_with('.') || entry.path().is_dir() {
            continue;
        }
        match fs::read(entry.path()) {
            Ok(bytes) if is_content_name(&name) && crate::content_name(&bytes) != name => {
                out.skipped.push(format!(
                    "{}: damaged (its {} bytes do not match its name); skipped",
                    entry.path().display(),
                    bytes.len()
                ))
            }
            Ok(bytes) => out.inputs.push((name, bytes)),
            Err(e) => out.skipped.push(format!("{}: cannot be read ({e}); skipped", entry.path().display())),
        }
    }
    out.inputs.sort();
    out.skipped.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::KillRecord;

    fn kill(mutant: u32) -> KillRecord {
        KillRecord {
            mutant,
            site: 1,
            kind: crate::KillKind::Panic,
            limit: None,
            input: "ab".into(),
            trial: 0,
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn temporary_files_of_interrupted_writes_are_removed_but_a_live_writers_stays() {
        let dir = tempfile::tempdir().unwrap();
        let input = crate::content_name(b"kept");
        fs::write(dir.path().join(&input), b"kept").unwrap();
        // A pid above the kernel's maximum (4194304) is never running.
        let dead = dir.path().join(format!(".{input}.tmp4194399"));
        let live = dir.path().join(format!(".{input}.tmp{}", std::process::id()));
        fs::write(&dead, b"ke").unwrap();
        fs::write(&live, b"k").unwrap();
        fs::write(dir.path().join(".hidden"), b"the user's").unwrap();
        fs::write(dir.path().join(".notes.tmpfile"), b"the user's").unwrap();
        assert_eq!(remove_stale_temps(dir.path()).unwrap(), vec![dead.clone()]);
        assert!(!dead.exists() && live.exists());
        assert!(dir.path().join(&input).exists() && dir.path().join(".hidden").exists());
        assert!(dir.path().join(".notes.tmpfile").exists());
        // Past the age limit, even a running pid's file is stale (pids are reused).
        let past = std::time::SystemTime::now() - STALE_TEMP_AGE * 2;
        fs::File::options().write(true).open(&live).unwrap().set_modified(past).unwrap();
        assert_eq!(remove_stale_temps(dir.path()).unwrap(), vec![live.clone()]);
        assert!(remove_stale_temps(&dir.path().join("absent")).unwrap().is_empty());
    }

    #[test]
    fn a_damaged_corpus_file_is_skipped_with_a_reason_and_left_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let good = crate::content_name(b"good input");
        let cut = crate::content_name(b"a longer input");
        fs::write(dir.path().join(&good), b"good input").unwrap();
        fs::write(dir.path().join(&cut), b"a longer").unwrap();
        fs::write(dir.path().join("seed-from-user"), b"anything").unwrap();
        fs::write(dir.path().join(".hidden"), b"x").unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        let read = read_corpus(dir.path()).unwrap();
        assert_eq!(
            read.inputs,
            [(good.clone(), b"good input".to_vec()), ("seed-from-user".to_owned(), b"anything".to_vec())]
        );
        assert_eq!(read.skipped.len(), 1);
        assert!(read.skipped[0].contains(&cut) && read.skipped[0].contains("damaged"), "{:?}", read.skipped);
        assert!(dir.path().join(&cut).exists());
        // Storing the input of that name again repairs the file.
        assert!(store_new(dir.path(), &cut, b"a longer input").unwrap().1);
        assert!(!store_new(dir.path(), &good, b"good input").unwrap().1);
        assert!(read_corpus(dir.path()).unwrap().skipped.is_empty());
        assert_eq!(read_corpus(&dir.path().join("missing")).unwrap(), CorpusFiles::default());
    }

    #[test]
    fn records_round_trip_and_a_missing_file_has_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kills.jsonl");
        assert_eq!(read_jsonl::<KillRecord>(&path).unwrap(), Jsonl { records: vec![], torn: None });
        let (mut w, cut) = JsonlWriter::open(&path).unwrap();
        assert_eq!(cut, 0);
        w.append(&kill(1)).unwrap();
        append_record(&path, &kill(2)).unwrap();
        let read = read_jsonl::<KillRecord>(&path).unwrap();
        assert_eq!(read.records, [kill(1), kill(2)]);
        assert_eq!(read.torn, None);
    }

    #[test]
    fn a_line_with_bytes_that_are_not_utf8_still_reads() {
        // As a memory-corrupting mutant's rendered output can write it.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kills.jsonl");
        let line = serde_json::to_string(&kill(1)).unwrap().replace("\"ab\"", "\"a\u{1}b\"");
        let mut bytes = line.replace("\\u0001", "\u{1}").into_bytes();
        let at = bytes.iter().position(|&b| b == 1).unwrap();
        bytes[at] = 0x8a;
        bytes.push(b'\n');
        fs::write(&path, &bytes).unwrap();
        let read = read_jsonl::<KillRecord>(&path).unwrap();
        assert_eq!(read.records[0].input, "a\u{fffd}b");
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_cut_off_by_the_next_writer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kills.jsonl");
        append_record(&path, &kill(1)).unwrap();
        OpenOptions::new().append(true).open(&path).unwrap().write_all(b"{\"mutant\":2,\"si").unwrap();
        let read = read_jsonl::<KillRecord>(&path).unwrap();
        assert_eq!(read.records, [kill(1)]);
        assert_eq!(read.torn, Some(Torn { path: path.clone(), line: 2 }));
        assert!(read.torn.unwrap().to_string().contains("kills.jsonl:2: skipped an incomplete last line"));
        // The next append starts on a line of its own.
        assert_eq!(append_record(&path, &kill(3)).unwrap(), 15);
        let read = read_jsonl::<KillRecord>(&path).unwrap();
        assert_eq!((read.records, read.torn), (vec![kill(1), kill(3)], None));
    }

    #[test]
    fn malformed_and_unknown_records_are_errors_naming_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kills.jsonl");
        let good = serde_json::to_string(&kill(1)).unwrap();
        for bad in [
            "{\"mutant\":2}".to_owned(),
            good.replace("panic", "fire"),
            good.replace("\"trial\"", "\"extra\":1,\"trial\""),
            "not json".to_owned(),
        ] {
            fs::write(&path, format!("{good}\n\n{bad}\n{good}\n")).unwrap();
            let err = read_jsonl::<KillRecord>(&path).unwrap_err();
            let FileError::Record { line, .. } = &err else { panic!("{err}") };
            assert_eq!(*line, 3, "{bad}");
            assert!(err.to_string().contains("kills.jsonl:3: not a valid kill record"), "{err}");
        }
        // A malformed last line with its newline was written whole: an error too.
        fs::write(&path, format!("{good}\nnot json\n")).unwrap();
        assert!(read_jsonl::<KillRecord>(&path).is_err());
        // So is an unreadable file.
        fs::create_dir_all(dir.path().join("dir.jsonl")).unwrap();
        assert!(matches!(read_jsonl::<KillRecord>(&dir.path().join("dir.jsonl")), Err(FileError::Io { .. })));
    }

    #[test]
    fn a_whole_last_record_without_its_newline_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kills.jsonl");
        fs::write(&path, serde_json::to_string(&kill(1)).unwrap()).unwrap();
        assert_eq!(read_jsonl::<KillRecord>(&path).unwrap().records, [kill(1)]);
        assert_eq!(append_record(&path, &kill(2)).unwrap(), 0);
        assert_eq!(read_jsonl::<KillRecord>(&path).unwrap().records, [kill(1), kill(2)]);
    }

    #[test]
    fn a_file_that_is_all_torn_tail_is_emptied() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.jsonl");
        fs::write(&path, vec![b'x'; 10_000]).unwrap();
        let (_, cut) = JsonlWriter::open(&path).unwrap();
        assert_eq!((cut, fs::metadata(&path).unwrap().len()), (10_000, 0));
    }

    #[test]
    fn whole_files_are_written_once_and_replaced_in_one_step() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = dir.path().join("corpus");
        let (path, new) = store_new(&inputs, "n", b"xy").unwrap();
        assert!(new);
        assert_eq!(fs::read(&path).unwrap(), b"xy");
        assert!(!store_new(&inputs, "n", b"xy").unwrap().1);
        write_atomic(&path, b"z").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"z");
        let names: Vec<_> = fs::read_dir(&inputs).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["n"]);
    }
}
