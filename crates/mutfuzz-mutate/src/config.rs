//! `mutfuzz.toml`: what to leave unmutated and how to run, read from the package root.

use std::path::Path;

use anyhow::{Context, Result};
use globset::{Glob, GlobSet, GlobSetBuilder};
use regex::Regex;
use serde::Deserialize;

use crate::Operator;

/// The name of the config file, looked for in the package root and then the workspace root.
pub const CONFIG_FILE: &str = "mutfuzz.toml";

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
}

/// The config, compiled for matching.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// What was read.
    pub file: ConfigFile,
    exclude_files: GlobSet,
    exclude_functions: Vec<Regex>,
    exclude_operators: Vec<Operator>,
}

impl Config {
    /// Compile a config, reporting bad globs, regexes and operator names.
    pub fn new(file: ConfigFile) -> Result<Config> {
        let mut globs = GlobSetBuilder::new();
        for g in &file.exclude_files {
            globs.add(Glob::new(g).with_context(|| format!("bad glob {g:?} in exclude_files"))?);
        }
        let exclude_functions = file
            .exclude_functions
            .iter()
            .map(|r| Regex::new(r).with_context(|| format!("bad regex {r:?} in exclude_functions")))
            .collect::<Result<_>>()?;
        let exclude_operators = file
            .exclude_operators
            .iter()
            .map(|name| {
                Operator::from_name(name).with_context(|| {
                    let names: Vec<_> = Operator::ALL.iter().map(|o| o.name()).collect();
                    format!("unknown operator {name:?} in exclude_operators; known: {}", names.join(", "))
                })
            })
            .collect::<Result<_>>()?;
        Ok(Config { exclude_files: globs.build()?, exclude_functions, exclude_operators, file })
    }

    /// Read `mutfuzz.toml` from the first of `dirs` that has one; the default config if none.
    pub fn load(dirs: &[&Path]) -> Result<Config> {
        for dir in dirs {
            let path = dir.join(CONFIG_FILE);
            if path.is_file() {
                let text = std::fs::read_to_string(&path)
                    .with_context(|| format!("failed to read {}", path.display()))?;
                let file: ConfigFile =
                    toml::from_str(&text).with_context(|| format!("failed to parse {}", path.display()))?;
                return Config::new(file).with_context(|| format!("in {}", path.display()));
            }
        }
        Ok(Config::default())
    }

    /// Is the file at `rel_path` (relative to the package root) excluded?
    pub fn excludes_file(&self, rel_path: &str) -> bool {
        self.exclude_files.is_match(rel_path)
    }

    /// Is the function with this qualified name excluded?
    pub fn excludes_function(&self, name: &str) -> bool {
        self.exclude_functions.iter().any(|r| r.is_match(name))
    }

    /// Is this operator excluded?
    pub fn excludes_operator(&self, op: Operator) -> bool {
        self.exclude_operators.contains(&op)
    }
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
        assert!(c.excludes_function("fmt"));
        assert!(c.excludes_function("Parser::next"));
        assert!(!c.excludes_function("format"));
        assert!(c.excludes_operator(Operator::IntLiteral));
        assert!(!c.excludes_operator(Operator::BoolLiteral));
    }

    #[test]
    fn unknown_operator_is_an_error_that_lists_the_names() {
        let file = ConfigFile { exclude_operators: vec!["nope".into()], ..Default::default() };
        let err = Config::new(file).unwrap_err().to_string();
        assert!(err.contains("unknown operator \"nope\""), "{err}");
        assert!(err.contains("arith_swap"), "{err}");
    }
}
