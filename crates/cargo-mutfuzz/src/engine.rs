//! The engine crates carried inside this binary (see `build.rs`), written out to
//! `target/mutfuzz/engine/` where both the schema and the harness link them: one
//! `mutfuzz-rt` for both, so the harness and the schema share one active-mutant switch.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::scratch::write_if_changed;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/engine_files.rs"));
}

/// Every embedded file: path relative to the engine directory, contents.
pub fn files() -> &'static [(&'static str, &'static str)] {
    embedded::FILES
}

/// The engine directory of a target dir: `<target>/mutfuzz/engine`.
pub fn dir(target_dir: &Path) -> PathBuf {
    target_dir.join("mutfuzz").join("engine")
}

/// Write the engine crates under `dir`; unchanged files are left alone so builds that
/// use them stay incremental.
pub fn write(dir: &Path) -> Result<()> {
    for (rel, text) in files() {
        write_if_changed(&dir.join(rel), text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_crates_are_embedded_with_standalone_manifests() {
        for name in ["mutfuzz-rt", "mutfuzz", "mutfuzz-derive"] {
            let manifest = files()
                .iter()
                .find(|(p, _)| *p == format!("{name}/Cargo.toml"))
                .map(|(_, t)| *t)
                .unwrap_or_else(|| panic!("{name}/Cargo.toml is embedded"));
            assert!(!manifest.contains("workspace = true"), "{manifest}");
            assert!(manifest.contains("\n[workspace]\n"), "{manifest}");
            assert!(files().iter().any(|(p, _)| *p == format!("{name}/src/lib.rs")), "{name} lib.rs");
        }
        let engine = files().iter().find(|(p, _)| *p == "mutfuzz/Cargo.toml").unwrap().1;
        assert!(engine.contains("path = \"../mutfuzz-rt\""), "{engine}");
        assert!(engine.contains("path = \"../mutfuzz-derive\""), "{engine}");
        let derive = files().iter().find(|(p, _)| *p == "mutfuzz-derive/Cargo.toml").unwrap().1;
        assert!(derive.contains("syn = {") && derive.contains("\"proc-macro\""), "{derive}");
    }

    #[test]
    fn writing_twice_leaves_files_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path()).unwrap();
        let lib = tmp.path().join("mutfuzz-rt/src/lib.rs");
        let before = std::fs::metadata(&lib).unwrap().modified().unwrap();
        write(tmp.path()).unwrap();
        assert_eq!(std::fs::metadata(&lib).unwrap().modified().unwrap(), before);
    }
}
