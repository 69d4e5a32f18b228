//! Every path under `target/mutfuzz/`, the one directory `cargo mutfuzz` writes besides
//! `mutfuzz.out/`:
//!
//! ```text
//! target/mutfuzz/
//!   work/          copy of the workspace, rewritten into the schema
//!   target/        cargo target dir of schema builds (`cargo mutfuzz test`)
//!   target-fuzz/   cargo target dir of harness builds (coverage-instrumented; cargo keeps
//!                  the optimized and the `--dev` build apart in it)
//!   engine/        the engine crates this binary carries, written out
//!   baseline/      per-test records of the unmutated run
//!   eval/<target>/ `cargo mutfuzz eval`: eval.json, and <config>/seed-<s>/{corpus,state,score.jsonl}
//!   viability/     the viability cache: `tests.json`, `harness.json`, `harness-dev.json`
//!   tmp/           the temp directory (`TMPDIR`) of sandboxed processes (see `sandbox`)
//!   auto-check/    the harness `init --auto` generates, compile-checked against the package
//!   amplify/       `amplify`: its generated harness, campaigns, shrunk inputs and values
//!   <target>/      one fuzz target's campaign state (see mutfuzz_contract::layout),
//!     corpus-<key>/  the state of a campaign on another corpus directory
//! ```
//!
//! A fuzz target's name becomes a directory here, so the names above are reserved.

use std::path::{Path, PathBuf};

use mutfuzz_contract::{CampaignDir, content_name};

/// Directory name of the harness package, inside the package (or workspace) root.
pub const HARNESS_DIR: &str = "mutfuzz";

/// The scratch copy of the workspace.
const WORK: &str = "work";
/// The target dir of schema builds.
const SCHEMA_TARGET: &str = "target";
/// The target dir of harness builds.
const HARNESS_TARGET: &str = "target-fuzz";
/// The engine crates.
const ENGINE: &str = "engine";
/// The baseline's records.
const BASELINE: &str = "baseline";
/// Evaluations.
const EVAL: &str = "eval";

/// The viability cache.
const VIABILITY: &str = "viability";
/// The sandbox's temp directory.
const TMP: &str = "tmp";
/// The package `init --auto` compile-checks its generated harness in.
const AUTO_CHECK: &str = "auto-check";
/// `amplify`'s harness, campaigns and shrunk inputs.
const AMPLIFY: &str = "amplify";
/// The copy of this executable that harness builds run as their rustc wrapper.
const WRAPPER: &str = "wrapper";

/// Names a fuzz target may not have: each is a directory of ours.
pub const RESERVED: [&str; 11] = [
    WORK,
    SCHEMA_TARGET,
    HARNESS_TARGET,
    ENGINE,
    BASELINE,
    EVAL,
    VIABILITY,
    TMP,
    AUTO_CHECK,
    AMPLIFY,
    WRAPPER,
];

/// `target/mutfuzz/` of one workspace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    root: PathBuf,
}

impl Layout {
    /// The layout inside cargo's target directory `target_dir`.
    pub fn new(target_dir: &Path) -> Layout {
        Layout { root: target_dir.join("mutfuzz") }
    }

    /// `target/mutfuzz/` itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The copy of the workspace root, where the schema is written.
    pub fn work(&self) -> PathBuf {
        self.root.join(WORK)
    }

    /// Cargo's target dir for schema builds (kept between runs, so rebuilds are incremental).
    pub fn schema_target(&self) -> PathBuf {
        self.root.join(SCHEMA_TARGET)
    }

    /// Cargo's target dir for harness builds: their crates carry SanitizerCoverage, which
    /// cargo cannot see (a rustc wrapper adds it), so they never share the schema's.
    pub fn harness_target(&self) -> PathBuf {
        self.root.join(HARNESS_TARGET)
    }

    /// Where the copy of this executable that harness builds run as their rustc wrapper is.
    pub fn wrapper(&self) -> PathBuf {
        self.root.join(WRAPPER)
    }

    /// `amplify`'s directory.
    pub fn amplify(&self) -> PathBuf {
        self.root.join(AMPLIFY)
    }

    /// The package `init --auto` compile-checks its generated harness in.
    pub fn auto_check(&self) -> PathBuf {
        self.root.join(AUTO_CHECK)
    }

    /// Where the engine crates are written out.
    pub fn engine(&self) -> PathBuf {
        self.root.join(ENGINE)
    }

    /// One engine crate, by package name (`mutfuzz`, `mutfuzz-rt`, …).
    pub fn engine_crate(&self, name: &str) -> PathBuf {
        self.engine().join(name)
    }

    /// The baseline's per-test records and logs.
    pub fn baseline(&self) -> PathBuf {
        self.root.join(BASELINE)
    }

    /// The runs and results of `cargo mutfuzz eval` on `target`.
    pub fn eval(&self, target: &str) -> PathBuf {
        self.root.join(EVAL).join(target)
    }

    /// The viability cache, one file per build kind (see `viability_cache`).
    pub fn viability(&self) -> PathBuf {
        self.root.join(VIABILITY)
    }

    /// The temp directory of the processes that run mutants (their `TMPDIR`).
    pub fn tmp(&self) -> PathBuf {
        self.root.join(TMP)
    }

    /// `score.json` of every target combined (`score --all`), beside the targets' state.
    pub fn combined_score(&self) -> PathBuf {
        self.root.join("score.json")
    }

    /// The state of fuzz target `target` (a name checked by the caller, not reserved).
    pub fn campaign(&self, target: &str) -> CampaignDir {
        debug_assert!(!RESERVED.contains(&target), "{target} is reserved");
        CampaignDir::new(self.root.join(target))
    }

    /// The state of a campaign of `target` on the corpus directory `corpus` (not the
    /// default one): kills belong to the corpus that made them.
    pub fn campaign_on(&self, target: &str, corpus: &Path) -> CampaignDir {
        let key = content_name(corpus.to_string_lossy().as_bytes());
        CampaignDir::new(self.campaign(target).path().join(format!("corpus-{}", &key[..12])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_directory_of_ours_is_reserved_and_distinct() {
        let l = Layout::new(Path::new("/t"));
        let ours = [
            l.work(),
            l.schema_target(),
            l.harness_target(),
            l.engine(),
            l.baseline(),
            l.root().join("eval"),
            l.viability(),
            l.tmp(),
            l.auto_check(),
            l.amplify(),
            l.wrapper(),
        ];
        assert_eq!(l.eval("sort"), Path::new("/t/mutfuzz/eval/sort"));
        for (dir, name) in ours.iter().zip(RESERVED) {
            assert_eq!(dir, &Path::new("/t/mutfuzz").join(name));
        }
        assert_eq!(l.campaign("sort").path(), Path::new("/t/mutfuzz/sort"));
        assert_eq!(l.engine_crate("mutfuzz-rt"), Path::new("/t/mutfuzz/engine/mutfuzz-rt"));
        let other = l.campaign_on("sort", Path::new("/elsewhere"));
        assert_eq!(other.path().parent(), Some(Path::new("/t/mutfuzz/sort")));
        assert!(other.path().file_name().unwrap().to_string_lossy().starts_with("corpus-"));
        assert_ne!(other, l.campaign_on("sort", Path::new("/elsewhere2")));
    }
}
