//! cargo-mutants' `.cargo/mutants.toml`, read when a package has no `mutfuzz.toml`: the
//! keys that mean the same here are used, the others are named as not used.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use serde::Deserialize;

use super::{Config, ConfigFile, Source, regexes};

/// Where cargo-mutants keeps its config, relative to the tree root.
pub const CARGO_MUTANTS_FILE: &str = ".cargo/mutants.toml";

/// The keys mutfuzz uses, with cargo-mutants' meaning.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct CargoMutantsFile {
    exclude_globs: Vec<String>,
    examine_globs: Vec<String>,
    exclude_re: Vec<String>,
    examine_re: Vec<String>,
    error_values: Vec<String>,
    skip_calls: Vec<String>,
    skip_calls_defaults: Option<bool>,
    additional_cargo_args: Vec<String>,
    additional_cargo_test_args: Vec<String>,
    timeout_multiplier: Option<f64>,
    minimum_test_timeout: Option<f64>,
}

const USED_KEYS: [&str; 11] = [
    "exclude_globs",
    "examine_globs",
    "exclude_re",
    "examine_re",
    "error_values",
    "skip_calls",
    "skip_calls_defaults",
    "additional_cargo_args",
    "additional_cargo_test_args",
    "timeout_multiplier",
    "minimum_test_timeout",
];

/// Read the cargo-mutants config at `path`.
pub(super) fn load(path: &Path) -> Result<Config> {
    let text = std::fs::read_to_string(path).with_context(|| format!("failed to read {}", path.display()))?;
    // The tree root: the directory that holds `.cargo/`.
    let root = path.parent().and_then(Path::parent).unwrap_or(Path::new("."));
    parse(&text, path, root).with_context(|| format!("in {}", path.display()))
}

fn parse(text: &str, path: &Path, root: &Path) -> Result<Config> {
    let mut table: toml::Table = toml::from_str(text).context("not valid TOML")?;
    let mut ignored: Vec<String> =
        table.keys().filter(|k| !USED_KEYS.contains(&k.as_str())).cloned().collect();
    ignored.sort();
    for k in &ignored {
        table.remove(k);
    }
    let mut used: Vec<String> = table.keys().cloned().collect();
    used.sort_by_key(|k| USED_KEYS.iter().position(|u| u == k));
    let cm: CargoMutantsFile = table.try_into().context("a key has a value of the wrong type")?;
    let file = ConfigFile {
        error_values: cm.error_values,
        skip_calls: cm.skip_calls,
        skip_calls_defaults: cm.skip_calls_defaults,
        timeout_multiplier: cm.timeout_multiplier,
        minimum_timeout: cm.minimum_test_timeout,
        ..ConfigFile::default()
    };
    let mut config = Config::new(file)?;
    config.additional_cargo_args = cm.additional_cargo_args;
    config.additional_cargo_test_args = cm.additional_cargo_test_args;
    config.examine_mutants = regexes(&cm.examine_re, "examine_re")?;
    config.exclude_mutants = regexes(&cm.exclude_re, "exclude_re")?;
    if !cm.examine_globs.is_empty() || !cm.exclude_globs.is_empty() {
        config.tree_globs = Some(TreeGlobs {
            root: root.to_owned(),
            examine: (!cm.examine_globs.is_empty())
                .then(|| TreeGlob::new(&cm.examine_globs, "examine_globs"))
                .transpose()?,
            exclude: TreeGlob::new(&cm.exclude_globs, "exclude_globs")?,
        });
    }
    config.source = Source::CargoMutants { path: path.to_owned(), used, ignored };
    Ok(config)
}

/// cargo-mutants' file filters: a file is mutated if it matches an `examine_globs` glob
/// (when there are any) and no `exclude_globs` glob.
#[derive(Clone, Debug)]
pub(super) struct TreeGlobs {
    root: PathBuf,
    examine: Option<TreeGlob>,
    exclude: TreeGlob,
}

impl TreeGlobs {
    /// Is the source file at `path` mutated?
    pub fn examines(&self, path: &Path) -> bool {
        let rel = path.strip_prefix(&self.root).unwrap_or(path);
        let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        self.examine.as_ref().is_none_or(|g| g.matches(&rel)) && !self.exclude.matches(&rel)
    }
}

/// Globs with cargo-mutants' meaning: one with a `/` matches the path from the tree root
/// (`*` stays within a directory, `**` crosses them); one without matches any file or
/// directory name on the path (`console` excludes everything under a `console/`).
#[derive(Clone, Debug)]
struct TreeGlob {
    paths: GlobSet,
    names: GlobSet,
}

impl TreeGlob {
    fn new(globs: &[String], key: &str) -> Result<TreeGlob> {
        let (mut paths, mut names) = (GlobSetBuilder::new(), GlobSetBuilder::new());
        for g in globs {
            let glob = GlobBuilder::new(g)
                .literal_separator(true)
                .build()
                .with_context(|| format!("bad glob {g:?} in {key}"))?;
            if g.contains('/') {
                paths.add(glob)
            } else {
                names.add(glob)
            };
        }
        Ok(TreeGlob { paths: paths.build()?, names: names.build()? })
    }

    fn matches(&self, rel: &str) -> bool {
        self.paths.is_match(rel) || rel.split('/').any(|name| self.names.is_match(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Config {
        parse(text, Path::new("/ws/.cargo/mutants.toml"), Path::new("/ws")).unwrap()
    }

    #[test]
    fn every_used_key_is_read_and_the_others_are_named() {
        let c = config(
            r#"
            exclude_globs = ["src/gen/*.rs", "console"]
            examine_globs = ["src/**/*.rs"]
            exclude_re = ["impl Debug"]
            examine_re = ["parse"]
            error_values = ["anyhow::anyhow!(\"mutant\")"]
            skip_calls = ["reserve"]
            skip_calls_defaults = false
            additional_cargo_args = ["--all-features"]
            additional_cargo_test_args = ["--", "--test-threads=1"]
            timeout_multiplier = 3.0
            minimum_test_timeout = 20
            test_tool = "nextest"
            all_features = true
            "#,
        );
        assert_eq!(c.error_values(), ["anyhow::anyhow!(\"mutant\")"]);
        assert!(c.skips_call("reserve") && !c.skips_call("with_capacity"));
        assert_eq!(c.additional_cargo_args, ["--all-features"]);
        assert_eq!(c.additional_cargo_test_args, ["--", "--test-threads=1"]);
        assert_eq!(c.file.timeout_multiplier, Some(3.0));
        assert_eq!(c.file.minimum_timeout, Some(20.0));
        let pkg = Path::new("/ws/p");
        assert!(!c.skips_source(Path::new("/ws/src/lib.rs"), pkg));
        assert!(c.skips_source(Path::new("/ws/src/gen/a.rs"), pkg));
        assert!(!c.skips_source(Path::new("/ws/src/gen/deeper/a.rs"), pkg), "`*` stays in one directory");
        assert!(c.skips_source(Path::new("/ws/src/console/mod.rs"), pkg));
        assert!(!c.skips_source(Path::new("/ws/src/console.rs"), pkg));
        assert!(c.skips_source(Path::new("/ws/build.rs"), pkg), "not examined");
        assert!(!c.excludes_mutant("src/lib.rs:3:5: replace parse -> bool with true"));
        assert!(c.excludes_mutant("src/lib.rs:3:5: replace <impl Debug for X>::parse with ()"));
        assert!(c.excludes_mutant("src/lib.rs:3:5: replace lex -> bool with true"));
        let note = c.source_note().unwrap();
        assert_eq!(
            note,
            "config from /ws/.cargo/mutants.toml (cargo-mutants'): exclude_globs, examine_globs, \
             exclude_re, examine_re, error_values, skip_calls, skip_calls_defaults, \
             additional_cargo_args, additional_cargo_test_args, timeout_multiplier, \
             minimum_test_timeout; not used: all_features, test_tool"
        );
    }

    #[test]
    fn bad_values_are_errors_that_name_the_key() {
        let err = parse("exclude_re = ['(']", Path::new("m.toml"), Path::new(".")).unwrap_err();
        assert!(format!("{err:#}").contains("bad regex \"(\" in exclude_re"), "{err:#}");
        let err = parse("error_values = 3", Path::new("m.toml"), Path::new(".")).unwrap_err();
        assert!(format!("{err:#}").contains("wrong type"), "{err:#}");
    }

    #[test]
    fn it_is_read_where_no_mutfuzz_toml_is() {
        let tmp = tempfile::tempdir().unwrap();
        let (pkg, ws) = (tmp.path().join("p"), tmp.path());
        std::fs::create_dir_all(pkg.join("src")).unwrap();
        std::fs::create_dir(ws.join(".cargo")).unwrap();
        std::fs::write(ws.join(CARGO_MUTANTS_FILE), "exclude_globs = ['p/src/skip.rs']\n").unwrap();
        let c = Config::load(&[&pkg, ws]).unwrap();
        assert!(c.skips_source(&pkg.join("src/skip.rs"), &pkg));
        assert!(!c.skips_source(&pkg.join("src/lib.rs"), &pkg));
        assert!(c.source_note().unwrap().contains("exclude_globs"));
    }
}
