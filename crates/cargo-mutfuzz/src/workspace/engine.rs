//! The engine crates carried inside this binary (see `build.rs`), written out to
//! `target/mutfuzz/engine/` where both the schema and the harness link them: one
//! `mutfuzz-rt` for both, so the harness and the schema share one active-mutant switch.
//!
//! A harness says `mutfuzz = "<version>"` in its manifest, as a fuzz harness of
//! cargo-fuzz says `libfuzzer-sys = "…"`; `cargo mutfuzz` resolves that to this copy.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::workspace::fs_util::write_if_changed;
use crate::workspace::layout::Layout;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/engine_files.rs"));
}

/// The version of the engine crate `mutfuzz` carried.
pub const VERSION: &str = embedded::VERSION;

/// Every embedded file: path relative to the engine directory, contents.
pub fn files() -> &'static [(&'static str, &'static str)] {
    embedded::FILES
}

/// The package names of the embedded crates (`mutfuzz`, `mutfuzz-rt`, …).
pub fn crates() -> &'static [&'static str] {
    embedded::CRATES
}

/// Write the engine crates into `layout`'s engine directory; unchanged files are left
/// alone so builds that use them stay incremental. Source files an earlier version of
/// this binary wrote and this one does not carry are removed: a module moved from
/// `harness.rs` to `harness/mod.rs` would otherwise be found twice.
pub fn write(layout: &Layout) -> Result<()> {
    let dir = layout.engine();
    for (rel, text) in files() {
        write_if_changed(&dir.join(rel), text)?;
    }
    let carried: HashSet<PathBuf> = files().iter().map(|(rel, _)| dir.join(rel)).collect();
    for name in crates() {
        remove_stale(&dir.join(name).join("src"), &carried)?;
    }
    Ok(())
}

/// Removes every file under `dir` that is not in `carried`.
fn remove_stale(dir: &Path, carried: &HashSet<PathBuf>) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            remove_stale(&path, carried)?;
        } else if !carried.contains(&path) {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove the stale engine file {}", path.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(name: &str) -> &'static str {
        files()
            .iter()
            .find(|(p, _)| *p == format!("{name}/Cargo.toml"))
            .map(|(_, t)| *t)
            .unwrap_or_else(|| panic!("{name}/Cargo.toml is embedded"))
    }

    #[test]
    fn every_crate_is_embedded_with_a_standalone_manifest() {
        assert_eq!(crates(), ["mutfuzz-rt", "mutfuzz", "mutfuzz-derive", "mutfuzz-contract"]);
        for name in crates() {
            let text = manifest(name);
            let doc: toml_edit::DocumentMut = text.parse().unwrap();
            assert!(!text.contains("workspace = true"), "{text}");
            assert!(doc.contains_key("workspace"), "{text}");
            // Users' builds run no build script of ours, and no `links` can clash.
            assert!(!doc["package"].as_table().unwrap().contains_key("links"), "{text}");
            assert!(!doc["package"].as_table().unwrap().contains_key("build"), "{text}");
            assert!(!doc.contains_key("dev-dependencies") && !doc.contains_key("lints"), "{text}");
            assert!(files().iter().any(|(p, _)| *p == format!("{name}/src/lib.rs")), "{name} lib.rs");
            assert!(!files().iter().any(|(p, _)| *p == format!("{name}/build.rs")), "{name} build.rs");
        }
        let engine: toml_edit::DocumentMut = manifest("mutfuzz").parse().unwrap();
        assert_eq!(engine["package"]["version"].as_str(), Some(VERSION));
        for dep in ["mutfuzz-rt", "mutfuzz-derive", "mutfuzz-contract"] {
            assert_eq!(engine["dependencies"][dep]["path"].as_str(), Some(format!("../{dep}").as_str()));
        }
        let derive = manifest("mutfuzz-derive");
        assert!(derive.contains("syn = {") && derive.contains("\"proc-macro\""), "{derive}");
    }

    #[test]
    fn writing_twice_leaves_files_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let layout = Layout::new(tmp.path());
        write(&layout).unwrap();
        let lib = layout.engine_crate("mutfuzz-rt").join("src/lib.rs");
        let before = std::fs::metadata(&lib).unwrap().modified().unwrap();
        write(&layout).unwrap();
        assert_eq!(std::fs::metadata(&lib).unwrap().modified().unwrap(), before);
    }

    #[test]
    fn files_an_older_engine_wrote_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let layout = Layout::new(tmp.path());
        let stale = layout.engine_crate("mutfuzz").join("src/harness.rs");
        std::fs::create_dir_all(stale.parent().unwrap()).unwrap();
        std::fs::write(&stale, "// an older layout\n").unwrap();
        write(&layout).unwrap();
        assert!(!stale.exists());
        assert!(layout.engine_crate("mutfuzz").join("src/harness/mod.rs").exists());
    }
}
