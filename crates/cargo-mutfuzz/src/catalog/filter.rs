//! A command's run filter: cargo-mutants' `--re`, `--exclude-re`, `--file` and
//! `--exclude` (see [`mutfuzz_mutate::filter`] for the rules), added to the filter keys of
//! each package's config (`examine_re`, `exclude_re`, `examine_globs`, `exclude_globs`).
//!
//! Each package has its own config, so the filter is kept per package: a mutant is
//! judged by its package's config plus the command line. A filter never changes the
//! catalog, only which of its mutants a run covers (through `selection`).

use std::collections::HashMap;
use std::path::Path;

use anyhow::Result;
use mutfuzz_mutate::{Config, Mutant, MutantFilter, PatternKind};

use crate::console::exit_code;
use crate::workspace::{PackageChoice, Workspace};

/// The command line's patterns: cargo-mutants' `--re`, `--exclude-re`, `--file`, `--exclude`.
#[derive(Clone, Debug, Default)]
pub struct FilterPatterns {
    /// Mutant names to keep (regexes).
    pub re: Vec<String>,
    /// Mutant names to leave out (regexes).
    pub exclude_re: Vec<String>,
    /// Files to keep (globs).
    pub file: Vec<String>,
    /// Files to leave out (globs).
    pub exclude: Vec<String>,
}

impl From<&FilterPatterns> for FilterPatterns {
    fn from(patterns: &FilterPatterns) -> FilterPatterns {
        patterns.clone()
    }
}

/// The filter of one command, per package.
#[derive(Clone, Debug, Default)]
pub struct RunFilter {
    /// Per package name: its config's filter plus the command line's, and its directory
    /// relative to the workspace root.
    packages: HashMap<String, (MutantFilter, String)>,
    /// The command line's patterns alone (for a mutant of no known package).
    cli: MutantFilter,
}

impl RunFilter {
    /// The filter of `args` over the packages of `ws`, each with its own config.
    pub fn new(ws: &Workspace, args: impl Into<FilterPatterns>) -> Result<RunFilter> {
        let args = &args.into();
        let cli = cli_filter(args)?;
        let mut packages = HashMap::new();
        for p in &ws.packages {
            let config = Config::load(&[&p.root, &ws.root]).map_err(exit_code::usage)?;
            let mut filter = config.filter().clone();
            add_cli(&mut filter, args)?;
            let dir = p.root.strip_prefix(&ws.root).unwrap_or(Path::new(""));
            let dir = dir.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            packages.insert(p.name.clone(), (filter, dir));
        }
        Ok(RunFilter { packages, cli })
    }

    /// Whether any package's filter has a pattern.
    pub fn is_active(&self) -> bool {
        self.cli.is_active() || self.packages.values().any(|(f, _)| f.is_active())
    }

    /// Whether the run covers `m`.
    pub fn keeps(&self, m: &Mutant) -> bool {
        match self.packages.get(&m.package) {
            Some((filter, dir)) => filter.keeps(m, dir),
            None => self.cli.keeps(m, ""),
        }
    }

    /// The patterns, as flags: `--re "parse" --exclude "gen.rs"` (those of the config too;
    /// with packages whose configs differ, the first package's).
    pub fn describe(&self) -> String {
        let mut names: Vec<&String> = self.packages.keys().collect();
        names.sort();
        match names.first() {
            Some(first) => self.packages[*first].0.describe(),
            None => self.cli.describe(),
        }
    }

    /// What a command says when the filter leaves no mutant of `total`: nothing runs and
    /// the exit code is 0, as in cargo-mutants.
    pub fn matches_nothing(&self, total: usize) -> String {
        format!("No mutant matches {} (of {total} mutants): nothing to run", self.describe())
    }
}

/// Before a harness build (which takes a while): the message to print, when the filter
/// of `args` leaves none of the package's mutants; `None` when it keeps some, or there is
/// no filter. Discovery alone decides it, as the build would find the same catalog.
pub fn matches_nothing_before_build(
    package: impl Into<PackageChoice>,
    args: impl Into<FilterPatterns>,
) -> Result<Option<String>> {
    let ws = Workspace::open(package)?;
    let filter = RunFilter::new(&ws, args)?;
    if !filter.is_active() {
        return Ok(None);
    }
    let (discovery, _) = ws.discover()?;
    let kept = discovery.mutants.iter().any(|m| filter.keeps(m));
    Ok((!kept).then(|| filter.matches_nothing(discovery.mutants.len())))
}

fn cli_filter(args: &FilterPatterns) -> Result<MutantFilter> {
    let mut filter = MutantFilter::default();
    add_cli(&mut filter, args)?;
    Ok(filter)
}

fn add_cli(filter: &mut MutantFilter, args: &FilterPatterns) -> Result<()> {
    let add = |filter: &mut MutantFilter, kind, patterns: &[String], flag| {
        filter.add(kind, patterns, flag).map_err(exit_code::usage)
    };
    add(filter, PatternKind::ExamineGlob, &args.file, "--file")?;
    add(filter, PatternKind::ExcludeGlob, &args.exclude, "--exclude")?;
    add(filter, PatternKind::ExamineRe, &args.re, "--re")?;
    add(filter, PatternKind::ExcludeRe, &args.exclude_re, "--exclude-re")
}

/// The ids of `mutants` the filter keeps, written one a line to `path` for the harness's
/// `--mutants-file` (with `listed`, only those it also lists), so a filtered `fuzz` runs
/// the kept mutants only.
pub fn write_mutants_file(
    filter: &RunFilter,
    mutants: &[Mutant],
    listed: Option<&std::collections::BTreeSet<u32>>,
    path: &Path,
) -> Result<usize> {
    let mut text = format!("# the mutants matching {}\n", filter.describe());
    let mut n = 0;
    for m in mutants.iter().filter(|m| filter.keeps(m) && listed.is_none_or(|l| l.contains(&m.id))) {
        text.push_str(&format!("{}\n", m.id));
        n += 1;
    }
    mutfuzz_contract::write_atomic(path, text.as_bytes())?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mutant(id: u32, package: &str, file: &str, description: &str) -> Mutant {
        serde_json::from_value(serde_json::json!({
            "id": id, "site": id, "package": package, "file": file,
            "span": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 2}},
            "function": "f", "operator": "int_literal", "original": "1", "replacement": "0",
            "description": description
        }))
        .unwrap()
    }

    #[test]
    fn the_command_line_adds_to_each_package_s_config_and_a_package_dir_anchors_its_paths() {
        let args = FilterPatterns {
            re: vec!["parse".into()],
            exclude: vec!["gen.rs".into()],
            file: vec!["src/*.rs".into()],
            ..FilterPatterns::default()
        };
        let mut config = MutantFilter::default();
        config.add(PatternKind::ExamineRe, &["lex".into()], "examine_re").unwrap();
        add_cli(&mut config, &args).unwrap();
        let filter = RunFilter {
            packages: HashMap::from([("a".to_owned(), (config, "crates/a".to_owned()))]),
            cli: cli_filter(&args).unwrap(),
        };
        assert!(filter.is_active());
        // `examine_re` of the config and `--re` OR together.
        assert!(filter.keeps(&mutant(1, "a", "crates/a/src/lib.rs", "replace lex -> u8 with 0")));
        assert!(filter.keeps(&mutant(2, "a", "crates/a/src/lib.rs", "replace parse -> u8 with 0")));
        assert!(!filter.keeps(&mutant(3, "a", "crates/a/src/lib.rs", "replace eval -> u8 with 0")));
        assert!(!filter.keeps(&mutant(4, "a", "crates/a/src/gen.rs", "replace parse -> u8 with 0")));
        // A package without a config of its own: the command line's alone.
        assert!(!filter.keeps(&mutant(5, "b", "src/lib.rs", "replace lex -> u8 with 0")));
        assert!(filter.keeps(&mutant(6, "b", "src/lib.rs", "replace parse -> u8 with 0")));
        assert_eq!(
            filter.matches_nothing(9),
            "No mutant matches --re \"lex\" --file \"src/*.rs\" --exclude \"gen.rs\" --re \"parse\" (of 9 \
             mutants): nothing to run"
        );

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ids.txt");
        let mutants: Vec<Mutant> = (1..=3)
            .map(|id| mutant(id, "b", "src/lib.rs", if id == 2 { "parse" } else { "x parse" }))
            .collect();
        let listed = std::collections::BTreeSet::from([1, 2]);
        assert_eq!(write_mutants_file(&filter, &mutants, Some(&listed), &path).unwrap(), 2);
        let ids = mutfuzz::harness::read_mutants_file(&path).unwrap();
        assert_eq!(ids.into_iter().collect::<Vec<_>>(), [1, 2]);
    }

    #[test]
    fn a_bad_pattern_is_a_usage_error_naming_its_flag() {
        let args = FilterPatterns { exclude_re: vec!["(".into()], ..FilterPatterns::default() };
        let err = cli_filter(&args).unwrap_err();
        assert_eq!(exit_code::of_error(&err), exit_code::USAGE);
        assert!(format!("{err:#}").contains("bad regex \"(\" in --exclude-re"), "{err:#}");
    }
}
