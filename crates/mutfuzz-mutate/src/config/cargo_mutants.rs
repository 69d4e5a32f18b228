//! cargo-mutants' `.cargo/mutants.toml`, read when a package has no `mutfuzz.toml`: the
//! keys that mean the same here are used, the others are named as not used.

use std::path::Path;

use crate::error::Error;
use serde::Deserialize;

use super::{Config, ConfigFile, Source};

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
pub(super) fn load(path: &Path) -> Result<Config, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| Error::ReadConfig { path: path.to_owned(), source })?;
    parse(&text, path).map_err(|e| e.within(format!("in {}", path.display())))
}

fn parse(text: &str, path: &Path) -> Result<Config, Error> {
    let mut table: toml::Table =
        toml::from_str(text).map_err(|source| Error::CargoMutantsToml { what: "not valid TOML", source })?;
    let mut ignored: Vec<String> =
        table.keys().filter(|k| !USED_KEYS.contains(&k.as_str())).cloned().collect();
    ignored.sort();
    for k in &ignored {
        table.remove(k);
    }
    let mut used: Vec<String> = table.keys().cloned().collect();
    used.sort_by_key(|k| USED_KEYS.iter().position(|u| u == k));
    let cm: CargoMutantsFile = table
        .try_into()
        .map_err(|source| Error::CargoMutantsToml { what: "a key has a value of the wrong type", source })?;
    // The filters keep cargo-mutants' names and meaning in `mutfuzz.toml` too; their
    // globs match paths from the workspace root, which is cargo-mutants' tree root when
    // its `.cargo/` sits there.
    let file = ConfigFile {
        error_values: cm.error_values,
        skip_calls: cm.skip_calls,
        skip_calls_defaults: cm.skip_calls_defaults,
        timeout_multiplier: cm.timeout_multiplier,
        minimum_timeout: cm.minimum_test_timeout,
        examine_re: cm.examine_re,
        exclude_re: cm.exclude_re,
        examine_globs: cm.examine_globs,
        exclude_globs: cm.exclude_globs,
        ..ConfigFile::default()
    };
    let mut config = Config::new(file)?;
    config.additional_cargo_args = cm.additional_cargo_args;
    config.additional_cargo_test_args = cm.additional_cargo_test_args;
    config.source = Source::CargoMutants { path: path.to_owned(), used, ignored };
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Config {
        parse(text, Path::new("/ws/.cargo/mutants.toml")).unwrap()
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
        // The filters go to the run filter (see `filter`'s tests for their matching).
        assert_eq!(
            c.filter().describe(),
            "--file \"src/**/*.rs\" --exclude \"src/gen/*.rs\" --exclude \"console\" --re \"parse\" \
             --exclude-re \"impl Debug\""
        );
        assert!(!c.skips_source(Path::new("/ws/src/gen/a.rs"), Path::new("/ws")), "the catalog keeps them");
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
        let err = parse("exclude_re = ['(']", Path::new("m.toml")).unwrap_err();
        assert!(crate::error::chain(&err).contains("bad regex \"(\" in exclude_re"), "{err}");
        let err = parse("error_values = 3", Path::new("m.toml")).unwrap_err();
        assert!(crate::error::chain(&err).contains("wrong type"), "{err}");
    }

    #[test]
    fn it_is_read_where_no_mutfuzz_toml_is() {
        let tmp = tempfile::tempdir().unwrap();
        let (pkg, ws) = (tmp.path().join("p"), tmp.path());
        std::fs::create_dir_all(pkg.join("src")).unwrap();
        std::fs::create_dir(ws.join(".cargo")).unwrap();
        std::fs::write(ws.join(CARGO_MUTANTS_FILE), "exclude_globs = ['p/src/skip.rs']\n").unwrap();
        let c = Config::load(&[&pkg, ws]).unwrap();
        assert_eq!(c.filter().describe(), "--exclude \"p/src/skip.rs\"");
        assert!(c.source_note().unwrap().contains("exclude_globs"));
    }
}
