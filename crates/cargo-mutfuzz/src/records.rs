//! Records the supervisor adds to a campaign's files when the harness process dies:
//! inputs named by content hash (the engine's naming, so the same input is never stored
//! twice), written atomically, and JSON lines appended with one write each.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The engine's name of a stored input: a 128-bit hash of its bytes as 32 hex digits.
///
/// The same function as `mutfuzz::oracle::content_name` (two keyed stream hashes); the
/// unit test pins both to the same value.
pub fn content_name(bytes: &[u8]) -> String {
    format!(
        "{:016x}{:016x}",
        stream_hash(0x0123_4567_89AB_CDEF, bytes),
        stream_hash(0xFEDC_BA98_7654_3210, bytes)
    )
}

fn stream_hash(key: u64, bytes: &[u8]) -> u64 {
    const MUL: u64 = 0x9E37_79B9_7F4A_7C15;
    let mix = |s: u64, w: u64| (s ^ w).wrapping_mul(MUL).rotate_left(29);
    let mut state = key;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        state = mix(state, u64::from_le_bytes(w.try_into().expect("chunk of 8")));
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut word = 0u64;
        for (i, &b) in rest.iter().enumerate() {
            word |= u64::from(b) << (8 * i);
        }
        state = mix(state, word);
    }
    let mut z = state ^ (bytes.len() as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Write `bytes` to `dir/name` unless it is there already, through a temporary file and
/// a rename, so a reader (or a resumed campaign) sees the whole file or none. Returns the
/// path and whether it was new.
pub fn save_input(dir: &Path, name: &str, bytes: &[u8]) -> Result<(PathBuf, bool)> {
    let path = dir.join(name);
    if path.is_file() {
        return Ok((path, false));
    }
    fs::create_dir_all(dir).with_context(|| format!("failed to create {}", dir.display()))?;
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let written = (|| {
        let mut file = File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, &path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("failed to write {}", path.display()));
    }
    Ok((path, true))
}

/// Append one JSON value as a line with a single write on an append-mode file, so
/// concurrent writers (the engine) and a kill at any moment leave only whole lines.
pub fn append_line(path: &Path, value: &serde_json::Value) -> Result<()> {
    let mut line = serde_json::to_string(value)?;
    line.push('\n');
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("failed to open {}", path.display()))?;
    file.write_all(line.as_bytes()).with_context(|| format!("failed to append to {}", path.display()))
}

/// The JSON objects of a `.jsonl` file (missing file: none). A torn last line, which a
/// writer killed mid-write could leave on a filesystem without atomic appends, is skipped.
pub fn read_lines(path: &Path) -> Result<Vec<serde_json::Value>> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("failed to read {}", path.display())),
    };
    Ok(text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_engine() {
        // The values the engine's own test pins (crates/mutfuzz/src/oracle/hash.rs).
        assert_eq!(content_name(b"abc"), "d05bd0c05923978d70c94a45ef140772");
        assert_eq!(content_name(b"").len(), 32);
        assert_ne!(content_name(b"abcdefgh"), content_name(b"abcdefgh\0"));
    }

    #[test]
    fn inputs_are_saved_once_and_lines_appended_whole() {
        let dir = tempfile::tempdir().unwrap();
        let (path, new) = save_input(dir.path(), "n", b"xy").unwrap();
        assert!(new);
        assert_eq!(fs::read(&path).unwrap(), b"xy");
        assert!(!save_input(dir.path(), "n", b"xy").unwrap().1);
        let log = dir.path().join("kills.jsonl");
        append_line(&log, &serde_json::json!({"mutant": 1})).unwrap();
        append_line(&log, &serde_json::json!({"mutant": 2})).unwrap();
        fs::OpenOptions::new().append(true).open(&log).unwrap().write_all(b"{\"mut").unwrap();
        let lines = read_lines(&log).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1]["mutant"], 2);
        assert!(read_lines(&dir.path().join("none")).unwrap().is_empty());
    }
}
