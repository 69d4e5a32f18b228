//! File helpers of the trees mutfuzz writes: the files cargo builds from (the scratch
//! copy, the schema, the engine) written only when their text changes, so cargo's
//! fingerprints (file mtimes) stay valid and rebuilds stay incremental; a path removed
//! whatever it is.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

/// Remove `path` whatever it is (a link itself, not what it points to); nothing if absent.
pub fn remove_any(path: &Path) -> Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(_) => return Ok(()),
    }
    .with_context(|| format!("failed to remove {}", path.display()))
}

/// Write `text` unless the file already holds it; returns whether it was written.
pub fn write_if_changed(path: &Path, text: &str) -> Result<bool> {
    if fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(false);
    }
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).with_context(|| format!("failed to create {}", parent.display()))?;
    }
    fs::write(path, text).with_context(|| format!("failed to write {}", path.display()))?;
    Ok(true)
}

/// Make sure `dir` exists and files can be created in it, or fail with a usage error
/// naming `what` it is, the cause, and `fix` (what the user can do).
pub fn ensure_writable_dir(dir: &Path, what: &str, fix: &str) -> Result<()> {
    let probe = dir.join(format!(".mutfuzz-write-check-{}", std::process::id()));
    let checked =
        fs::create_dir_all(dir).and_then(|()| fs::write(&probe, b"")).and_then(|()| fs::remove_file(&probe));
    checked.map_err(|e| {
        crate::console::exit_code::usage(anyhow::anyhow!(
            "cannot write {what} {} ({e}): {fix}",
            dir.display()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_text_is_not_written_again() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b.rs");
        assert!(write_if_changed(&p, "x").unwrap());
        assert!(!write_if_changed(&p, "x").unwrap());
        assert!(write_if_changed(&p, "y").unwrap());
        assert_eq!(fs::read_to_string(&p).unwrap(), "y");
    }
}
