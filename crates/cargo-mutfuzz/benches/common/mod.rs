//! What the benchmarks share: copies of the examples in the bench's scratch directory,
//! whose harness builds are kept between runs.

use std::path::{Path, PathBuf};

/// The bundled examples.
pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// Make `to` a copy of the example `from`, keeping `to/target` (its builds).
pub fn sync(from: &Path, to: &Path) {
    if to.exists() {
        for entry in std::fs::read_dir(to).unwrap() {
            let entry = entry.unwrap();
            if entry.file_name() != "target" {
                let p: PathBuf = entry.path();
                if p.is_dir() {
                    std::fs::remove_dir_all(&p).unwrap();
                } else {
                    std::fs::remove_file(&p).unwrap();
                }
            }
        }
    }
    copy_dir(from, to);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" || name == "corpus" || name == "Cargo.lock" {
            continue;
        }
        let dest = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}
