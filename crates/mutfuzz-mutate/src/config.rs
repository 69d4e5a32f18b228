//! The package's config: `mutfuzz.toml`, or else cargo-mutants' `.cargo/mutants.toml`,
//! read from the package root and then the workspace root: what to leave unmutated, which
//! extra mutants to make, which of them a run covers (the filters, see [`crate::filter`]),
//! and how to run.

use std::path::{Path, PathBuf};

use crate::error::{Error, chain};
use globset::{Glob, GlobSet, GlobSetBuilder};
use regex::Regex;
use serde::Deserialize;

use crate::Operator;
use crate::filter::{MutantFilter, PatternKind};

mod cargo_mutants;

pub use cargo_mutants::CARGO_MUTANTS_FILE;

/// The name of the config file, looked for in the package root and then the workspace root.
pub const CONFIG_FILE: &str = "mutfuzz.toml";

/// Calls whose arguments are never mutated unless `skip_calls_defaults = false`: their
/// mutants change only performance (as in cargo-mutants).
pub const DEFAULT_SKIP_CALLS: [&str; 1] = ["with_capacity"];

/// The config as written in `mutfuzz.toml`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// Globs, relative to the package root, of source files not to mutate (`src/gen/**`).
    #[serde(default)]
    pub exclude_files: Vec<String>,
    /// Regexes matched against qualified function names (`Parser::parse_.*`).
    #[serde(default)]
    pub exclude_functions: Vec<String>,
    /// Operators to leave out, by stable name (`int_literal`).
    #[serde(default)]
    pub exclude_operators: Vec<String>,
    /// Mutate inside `unsafe` blocks and functions too.
    #[serde(default)]
    pub mutate_unsafe: bool,
    /// Multiplier on the baseline's time and fuel before a mutant counts as a timeout.
    pub timeout_multiplier: Option<f64>,
    /// Smallest wall-clock timeout, in seconds, for one test process.
    pub minimum_timeout: Option<f64>,
    /// Memory cap of each process that runs mutants (`"2GiB"`; `"0"`: none).
    pub max_memory: Option<String>,
    /// Output cap of one mutant run, stdout and stderr together (`"64MiB"`; `"0"`: none).
    pub max_output: Option<String>,
    /// Expressions of an error type: a function returning `Result` also gets a `fn_return`
    /// mutant returning `Err(value)` for each (`"anyhow::anyhow!(\"mutated\")"`).
    #[serde(default)]
    pub error_values: Vec<String>,
    /// Names of functions and methods whose calls are not mutated, arguments included.
    #[serde(default)]
    pub skip_calls: Vec<String>,
    /// Skip [`DEFAULT_SKIP_CALLS`] too (default true).
    pub skip_calls_defaults: Option<bool>,
    /// Paths (relative to the directory of `mutfuzz.toml`, or absolute) that the processes
    /// running mutants may write besides `target/mutfuzz/` and their temp directory.
    #[serde(default)]
    pub sandbox_writable: Vec<String>,
    /// Let the processes running mutants open TCP connections (default false).
    #[serde(default)]
    pub sandbox_network: bool,
    /// Regexes on mutant names (`src/lib.rs:3:5: replace …`): a run covers only the
    /// mutants matching one (cargo-mutants' key; `--re` adds more).
    #[serde(default)]
    pub examine_re: Vec<String>,
    /// Regexes on mutant names: a run leaves out the mutants matching one (`--exclude-re`).
    #[serde(default)]
    pub exclude_re: Vec<String>,
    /// Globs on source files: a run covers only the mutants of files matching one (`--file`).
    #[serde(default)]
    pub examine_globs: Vec<String>,
    /// Globs on source files: a run leaves out their mutants (`--exclude`).
    #[serde(default)]
    pub exclude_globs: Vec<String>,
}

/// Where the config came from.
#[derive(Clone, Debug, Default, PartialEq)]
enum Source {
    /// No config file: the defaults.
    #[default]
    Default,
    /// `mutfuzz.toml`; a cargo-mutants config beside it, if any, was not read.
    Mutfuzz { ignored_cargo_mutants: Option<PathBuf> },
    /// cargo-mutants' `.cargo/mutants.toml`, with the keys used and those left unread.
    CargoMutants { path: PathBuf, used: Vec<String>, ignored: Vec<String> },
}

/// The config, compiled for matching.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// What was read (a cargo-mutants config is translated into it).
    pub file: ConfigFile,
    /// Extra arguments for every cargo invocation (cargo-mutants' `additional_cargo_args`).
    pub additional_cargo_args: Vec<String>,
    /// Extra arguments for `cargo test` (cargo-mutants' `additional_cargo_test_args`).
    pub additional_cargo_test_args: Vec<String>,
    source: Source,
    /// The directory of the config file read, if any.
    dir: Option<PathBuf>,
    exclude_files: GlobSet,
    exclude_functions: Vec<Regex>,
    exclude_operators: Vec<Operator>,
    /// `examine_re`, `exclude_re`, `examine_globs`, `exclude_globs`, compiled.
    filter: MutantFilter,
}

impl Config {
    /// Compile a config, reporting bad globs, regexes and operator names.
    pub fn new(file: ConfigFile) -> Result<Config, Error> {
        let mut globs = GlobSetBuilder::new();
        for g in &file.exclude_files {
            globs.add(Glob::new(g).map_err(|source| Error::Glob {
                pattern: g.clone(),
                origin: "exclude_files".to_owned(),
                source,
            })?);
        }
        let exclude_functions = regexes(&file.exclude_functions, "exclude_functions")?;
        let exclude_operators = file
            .exclude_operators
            .iter()
            .map(|name| {
                Operator::from_name(name).ok_or_else(|| {
                    let names: Vec<_> = Operator::ALL.iter().map(|o| o.name()).collect();
                    Error::UnknownOperator { name: name.clone(), known: names.join(", ") }
                })
            })
            .collect::<Result<_, Error>>()?;
        let mut filter = MutantFilter::default();
        filter.add(PatternKind::ExamineGlob, &file.examine_globs, "examine_globs")?;
        filter.add(PatternKind::ExcludeGlob, &file.exclude_globs, "exclude_globs")?;
        filter.add(PatternKind::ExamineRe, &file.examine_re, "examine_re")?;
        filter.add(PatternKind::ExcludeRe, &file.exclude_re, "exclude_re")?;
        Ok(Config {
            exclude_files: globs.build()?,
            exclude_functions,
            exclude_operators,
            filter,
            file,
            ..Config::default()
        })
    }

    /// Read `mutfuzz.toml` from the first of `dirs` that has one; if none has, cargo-mutants'
    /// `.cargo/mutants.toml` from the first that has one; the default config if neither.
    pub fn load(dirs: &[&Path]) -> Result<Config, Error> {
        let cargo_mutants = dirs.iter().map(|d| d.join(CARGO_MUTANTS_FILE)).find(|p| p.is_file());
        for dir in dirs {
            let path = dir.join(CONFIG_FILE);
            if path.is_file() {
                let text = std::fs::read_to_string(&path)
                    .map_err(|source| Error::ReadConfig { path: path.clone(), source })?;
                let file: ConfigFile = toml::from_str(&text)
                    .map_err(|source| Error::ParseConfig { path: path.clone(), source })?;
                let mut config = Config::new(file).map_err(|e| {
                    // The value is wrong, not the TOML: point at the key's line.
                    let text_of_error = chain(&e);
                    let line = [
                        "exclude_files",
                        "exclude_functions",
                        "exclude_operators",
                        "examine_re",
                        "exclude_re",
                        "examine_globs",
                        "exclude_globs",
                    ]
                    .iter()
                    .filter(|k| text_of_error.contains(&format!("in {k}")))
                    .find_map(|k| key_line(&text, k));
                    match line {
                        Some(n) => e.within(format!("in {}, line {n}", path.display())),
                        None => e.within(format!("in {}", path.display())),
                    }
                })?;
                config.source = Source::Mutfuzz { ignored_cargo_mutants: cargo_mutants };
                config.dir = Some(dir.to_path_buf());
                return Ok(config);
            }
        }
        match cargo_mutants {
            Some(path) => cargo_mutants::load(&path),
            None => Ok(Config::default()),
        }
    }

    /// One line for the user when the config is cargo-mutants' (which keys were used, and
    /// which mutfuzz does not read), or when `mutfuzz.toml` hides one; `None` otherwise.
    pub fn source_note(&self) -> Option<String> {
        match &self.source {
            Source::Default | Source::Mutfuzz { ignored_cargo_mutants: None } => None,
            Source::Mutfuzz { ignored_cargo_mutants: Some(path) } => {
                Some(format!("{} is not read: mutfuzz.toml takes its place", path.display()))
            }
            Source::CargoMutants { path, used, ignored } => {
                let used = if used.is_empty() { "no keys".to_owned() } else { used.join(", ") };
                let ignored = if ignored.is_empty() {
                    String::new()
                } else {
                    format!("; not used: {}", ignored.join(", "))
                };
                Some(format!("config from {} (cargo-mutants'): {used}{ignored}", path.display()))
            }
        }
    }

    /// Is the file at `rel_path` (relative to the package root) excluded by `mutfuzz.toml`?
    pub fn excludes_file(&self, rel_path: &str) -> bool {
        self.exclude_files.is_match(rel_path)
    }

    /// Is the source file at `path` left unmutated by `exclude_files` (relative to
    /// `package_root`)? (`examine_globs`/`exclude_globs` only filter a run: [`Config::filter`].)
    pub fn skips_source(&self, path: &Path, package_root: &Path) -> bool {
        let rel = path.strip_prefix(package_root).unwrap_or(path);
        let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        self.excludes_file(&rel)
    }

    /// Is the function with this qualified name excluded?
    pub fn excludes_function(&self, name: &str) -> bool {
        self.exclude_functions.iter().any(|r| r.is_match(name))
    }

    /// Is this operator excluded?
    pub fn excludes_operator(&self, op: Operator) -> bool {
        self.exclude_operators.contains(&op)
    }

    /// The run filter of `examine_re`, `exclude_re`, `examine_globs` and `exclude_globs`
    /// (from `mutfuzz.toml` or cargo-mutants' config); the command line adds to it.
    pub fn filter(&self) -> &MutantFilter {
        &self.filter
    }

    /// Error values for functions returning `Result`.
    pub fn error_values(&self) -> &[String] {
        &self.file.error_values
    }

    /// `sandbox_writable`, each relative path resolved against the config's directory.
    pub fn sandbox_writable(&self) -> Vec<PathBuf> {
        let base = self.dir.as_deref().unwrap_or(Path::new("."));
        self.file.sandbox_writable.iter().map(|p| base.join(p)).collect()
    }

    /// Are calls to functions or methods named `name` left unmutated?
    pub fn skips_call(&self, name: &str) -> bool {
        self.file.skip_calls.iter().any(|s| s == name)
            || (self.file.skip_calls_defaults != Some(false) && DEFAULT_SKIP_CALLS.contains(&name))
    }
}

/// The line (from 1) where `key` is set in the TOML `text`.
fn key_line(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|l| l.trim_start().strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('=')))
        .map(|i| i + 1)
}

fn regexes(patterns: &[String], key: &str) -> Result<Vec<Regex>, Error> {
    patterns
        .iter()
        .map(|r| {
            Regex::new(r).map_err(|source| Error::Regex {
                pattern: r.clone(),
                origin: key.to_owned(),
                source,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_matches_files_functions_and_operators() {
        let file: ConfigFile = toml::from_str(
            r#"
            exclude_files = ["src/gen/**"]
            exclude_functions = ["^fmt$", "Parser::"]
            exclude_operators = ["int_literal"]
            "#,
        )
        .unwrap();
        let c = Config::new(file).unwrap();
        assert!(c.excludes_file("src/gen/a.rs"));
        assert!(!c.excludes_file("src/lib.rs"));
        assert!(c.skips_source(Path::new("/p/src/gen/a.rs"), Path::new("/p")));
        assert!(!c.skips_source(Path::new("/p/src/lib.rs"), Path::new("/p")));
        assert!(c.excludes_function("fmt"));
        assert!(c.excludes_function("Parser::next"));
        assert!(!c.excludes_function("format"));
        assert!(c.excludes_operator(Operator::IntLiteral));
        assert!(!c.excludes_operator(Operator::BoolLiteral));
        assert!(!c.filter().is_active());
        assert_eq!(c.source_note(), None);
    }

    #[test]
    fn unknown_operator_is_an_error_that_lists_the_names() {
        let file = ConfigFile { exclude_operators: vec!["nope".into()], ..Default::default() };
        let err = Config::new(file).unwrap_err().to_string();
        assert!(err.contains("unknown operator \"nope\""), "{err}");
        assert!(err.contains("arith_swap"), "{err}");
    }

    #[test]
    fn with_capacity_calls_are_skipped_unless_the_defaults_are_off() {
        let c = Config::default();
        assert!(c.skips_call("with_capacity"));
        assert!(!c.skips_call("push"));
        let file: ConfigFile = toml::from_str("skip_calls = ['push']\nskip_calls_defaults = false").unwrap();
        let c = Config::new(file).unwrap();
        assert!(c.skips_call("push"));
        assert!(!c.skips_call("with_capacity"));
    }

    #[test]
    fn sandbox_paths_are_relative_to_the_config_file() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(
            tmp.path().join(CONFIG_FILE),
            "sandbox_writable = ['out', '/abs']\nsandbox_network = true\n",
        )
        .unwrap();
        let c = Config::load(&[tmp.path()]).unwrap();
        assert_eq!(c.sandbox_writable(), [tmp.path().join("out"), PathBuf::from("/abs")]);
        assert!(c.file.sandbox_network);
        assert!(!Config::default().file.sandbox_network);
    }

    #[test]
    fn a_bad_key_is_named_with_its_line() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join(CONFIG_FILE), "mutate_unsafe = true\nsandbox_writeable = ['x']\n")
            .unwrap();
        let err = chain(&Config::load(&[tmp.path()]).unwrap_err());
        assert!(err.contains("mutfuzz.toml") && err.contains("line 2"), "{err}");
        assert!(
            err.contains("unknown field `sandbox_writeable`") && err.contains("sandbox_writable"),
            "{err}"
        );
    }

    #[test]
    fn a_bad_value_is_named_with_its_key_and_line() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join(CONFIG_FILE), "mutate_unsafe = true\n\nexclude_files = ['a[b']\n")
            .unwrap();
        let err = chain(&Config::load(&[tmp.path()]).unwrap_err());
        assert!(err.contains("mutfuzz.toml, line 3: bad glob \"a[b\" in exclude_files"), "{err}");
    }

    #[test]
    fn the_filter_keys_of_mutfuzz_toml_compile_into_the_run_filter_and_bad_ones_name_their_line() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join(CONFIG_FILE), "examine_re = ['parse']\nexclude_globs = ['gen.rs']\n")
            .unwrap();
        let c = Config::load(&[tmp.path()]).unwrap();
        assert_eq!(c.filter().describe(), "--exclude \"gen.rs\" --re \"parse\"");
        std::fs::write(tmp.path().join(CONFIG_FILE), "mutate_unsafe = true\nexclude_re = ['(']\n").unwrap();
        let err = chain(&Config::load(&[tmp.path()]).unwrap_err());
        assert!(err.contains("mutfuzz.toml, line 2: bad regex \"(\" in exclude_re"), "{err}");
    }

    #[test]
    fn mutfuzz_toml_takes_the_place_of_a_cargo_mutants_config() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join(".cargo")).unwrap();
        std::fs::write(tmp.path().join(CARGO_MUTANTS_FILE), "exclude_re = ['.']\n").unwrap();
        std::fs::write(tmp.path().join(CONFIG_FILE), "mutate_unsafe = true\n").unwrap();
        let c = Config::load(&[tmp.path()]).unwrap();
        assert!(c.file.mutate_unsafe);
        assert!(!c.filter().is_active());
        let note = c.source_note().unwrap();
        assert!(note.ends_with("mutants.toml is not read: mutfuzz.toml takes its place"), "{note}");
    }
}
