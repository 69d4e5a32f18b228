//! The results directory, `mutfuzz.out/`: the catalog, outcomes and one list per outcome.
//! The previous run's directory is kept as `mutfuzz.out.old`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use crate::outcome::{MutantOutcome, Outcome};

/// The results directory of one run.
pub struct OutputDir {
    /// Its path.
    pub path: PathBuf,
}

impl OutputDir {
    /// Create `path` afresh, moving an existing one to `<path>.old`.
    pub fn create(path: &Path) -> Result<OutputDir> {
        if path.exists() {
            let mut old = path.as_os_str().to_owned();
            old.push(".old");
            let old = PathBuf::from(old);
            if old.exists() {
                fs::remove_dir_all(&old).with_context(|| format!("failed to remove {}", old.display()))?;
            }
            fs::rename(path, &old).with_context(|| format!("failed to move {} aside", path.display()))?;
        }
        fs::create_dir_all(path.join("log"))
            .with_context(|| format!("failed to create {}", path.display()))?;
        Ok(OutputDir { path: path.to_owned() })
    }

    /// Directory for per-mutant logs.
    pub fn log_dir(&self) -> PathBuf {
        self.path.join("log")
    }

    /// Write `value` as pretty JSON to `name`, atomically (write then rename).
    pub fn write_json(&self, name: &str, value: &impl Serialize) -> Result<()> {
        let text = serde_json::to_string_pretty(value)? + "\n";
        self.write(name, &text)
    }

    fn write(&self, name: &str, text: &str) -> Result<()> {
        let dest = self.path.join(name);
        let tmp = self.path.join(format!(".{name}.tmp"));
        fs::write(&tmp, text).with_context(|| format!("failed to write {}", tmp.display()))?;
        fs::rename(&tmp, &dest).with_context(|| format!("failed to write {}", dest.display()))?;
        Ok(())
    }

    /// Write one `<outcome>.txt` per outcome, each listing its mutants' names in id order.
    pub fn write_lists(&self, outcomes: &[MutantOutcome]) -> Result<()> {
        for kind in Outcome::ALL {
            let mut text = String::new();
            for o in outcomes.iter().filter(|o| o.outcome == kind) {
                text.push_str(&o.mutant.name());
                text.push('\n');
            }
            self.write(kind.file_name(), &text)?;
        }
        Ok(())
    }
}
