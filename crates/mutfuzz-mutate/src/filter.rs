//! Which of the catalog's mutants a run covers, by name and by file, with cargo-mutants'
//! meaning: `--re`/`examine_re` and `--exclude-re`/`exclude_re` (regexes on the mutant's
//! name), `--file`/`examine_globs` and `--exclude`/`exclude_globs` (globs on its file).
//!
//! A filter never changes the catalog (ids, the schema and the viability cache stay
//! those of the whole package): it only says which mutants a run covers, so runs with
//! different filters share one build, and their results can be compared by id.
//!
//! The rules, as cargo-mutants states them: with any examine glob, only files matching
//! one are considered; then files matching an exclude glob are dropped; then, with any
//! examine regex, only mutants whose name matches one are kept; then those matching an
//! exclude regex are dropped. Patterns of one kind OR together, and patterns from the
//! config and the command line add up (cargo-mutants appends the config's lists to the
//! command line's).

use crate::error::Error;
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use regex::Regex;

use crate::Mutant;

/// The four kinds of pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatternKind {
    /// A regex a mutant's name must match (one of them, when any are given).
    ExamineRe,
    /// A regex that drops the mutants whose name matches it.
    ExcludeRe,
    /// A glob a mutant's file must match (one of them, when any are given).
    ExamineGlob,
    /// A glob that drops the mutants of the files matching it.
    ExcludeGlob,
}

/// Compiled name and file patterns; the default keeps every mutant.
#[derive(Clone, Debug, Default)]
pub struct MutantFilter {
    examine_re: Vec<Regex>,
    exclude_re: Vec<Regex>,
    examine_files: FileGlobs,
    exclude_files: FileGlobs,
    /// Each pattern as given, with its kind, for messages.
    given: Vec<(PatternKind, String)>,
}

impl MutantFilter {
    /// Add `patterns` of `kind`; `origin` names where they come from in an error
    /// (`--re`, `examine_re`), so a bad one can be found and fixed.
    pub fn add(&mut self, kind: PatternKind, patterns: &[String], origin: &str) -> Result<(), Error> {
        for p in patterns {
            match kind {
                PatternKind::ExamineRe | PatternKind::ExcludeRe => {
                    let re = Regex::new(p).map_err(|source| Error::Regex {
                        pattern: p.clone(),
                        origin: origin.to_owned(),
                        source,
                    })?;
                    if kind == PatternKind::ExamineRe { &mut self.examine_re } else { &mut self.exclude_re }
                        .push(re);
                }
                PatternKind::ExamineGlob | PatternKind::ExcludeGlob => {
                    let files = if kind == PatternKind::ExamineGlob {
                        &mut self.examine_files
                    } else {
                        &mut self.exclude_files
                    };
                    files.add(p).map_err(|source| Error::Glob {
                        pattern: p.clone(),
                        origin: origin.to_owned(),
                        source,
                    })?;
                }
            }
            self.given.push((kind, p.clone()));
        }
        Ok(())
    }

    /// Whether any pattern was given (with none, every mutant is kept).
    pub fn is_active(&self) -> bool {
        !self.given.is_empty()
    }

    /// Whether the run covers `m`. `package_dir` is the directory of `m`'s package,
    /// relative to the workspace root (`""` for a package at the root): a glob with a
    /// `/` matches the file's path from the workspace root (cargo-mutants' tree root)
    /// or from its package's root.
    pub fn keeps(&self, m: &Mutant, package_dir: &str) -> bool {
        let in_package = m
            .file
            .strip_prefix(package_dir)
            .and_then(|rest| rest.strip_prefix('/'))
            .filter(|_| !package_dir.is_empty());
        let paths: Vec<&str> = std::iter::once(m.file.as_str()).chain(in_package).collect();
        if !self.examine_files.is_empty() && !paths.iter().any(|p| self.examine_files.matches(p)) {
            return false;
        }
        if paths.iter().any(|p| self.exclude_files.matches(p)) {
            return false;
        }
        if self.examine_re.is_empty() && self.exclude_re.is_empty() {
            return true;
        }
        let name = m.name();
        (self.examine_re.is_empty() || self.examine_re.iter().any(|r| r.is_match(&name)))
            && !self.exclude_re.iter().any(|r| r.is_match(&name))
    }

    /// The patterns as a user gives them on the command line: `--re 'parse' -e 'gen.rs'`.
    pub fn describe(&self) -> String {
        let words: Vec<String> = self
            .given
            .iter()
            .map(|(kind, p)| {
                let flag = match kind {
                    PatternKind::ExamineRe => "--re",
                    PatternKind::ExcludeRe => "--exclude-re",
                    PatternKind::ExamineGlob => "--file",
                    PatternKind::ExcludeGlob => "--exclude",
                };
                format!("{flag} {p:?}")
            })
            .collect();
        words.join(" ")
    }
}

/// Globs with cargo-mutants' meaning: one with a `/` matches a path (`*` stays within a
/// directory, `**` crosses them); one without matches any file or directory name on the
/// path (`console` takes everything under a `console/`, `t*.rs` any file so named).
#[derive(Clone, Debug, Default)]
struct FileGlobs {
    paths: Vec<globset::Glob>,
    names: Vec<globset::Glob>,
    compiled: Option<(GlobSet, GlobSet)>,
}

impl FileGlobs {
    fn add(&mut self, pattern: &str) -> Result<(), globset::Error> {
        let glob = GlobBuilder::new(pattern).literal_separator(true).build()?;
        if pattern.contains('/') { &mut self.paths } else { &mut self.names }.push(glob);
        let set = |globs: &[globset::Glob]| {
            let mut b = GlobSetBuilder::new();
            for g in globs {
                b.add(g.clone());
            }
            b.build()
        };
        self.compiled = Some((set(&self.paths)?, set(&self.names)?));
        Ok(())
    }

    fn is_empty(&self) -> bool {
        self.compiled.is_none()
    }

    fn matches(&self, path: &str) -> bool {
        let Some((paths, names)) = &self.compiled else { return false };
        paths.is_match(path) || path.split('/').any(|name| names.is_match(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mutant(file: &str, description: &str) -> Mutant {
        serde_json::from_value(serde_json::json!({
            "id": 1, "site": 1, "package": "p", "file": file,
            "span": {"start": {"line": 12, "column": 5}, "end": {"line": 12, "column": 9}},
            "function": "f", "operator": "fn_return", "original": "x", "replacement": "true",
            "description": description
        }))
        .unwrap()
    }

    fn filter(kinds: &[(PatternKind, &str)]) -> MutantFilter {
        let mut f = MutantFilter::default();
        for (kind, p) in kinds {
            f.add(*kind, &[p.to_string()], "test").unwrap();
        }
        f
    }

    #[test]
    fn regexes_match_any_part_of_the_name_and_exclusions_come_last() {
        let parse = mutant("src/lib.rs", "replace parse -> bool with true");
        let lex = mutant(
            "src/lib.rs",
            "replace <impl Debug for Lexer>::fmt -> fmt::Result with Ok(Default::default())",
        );
        let f = filter(&[(PatternKind::ExamineRe, "parse"), (PatternKind::ExamineRe, "Lexer")]);
        assert!(f.keeps(&parse, "") && f.keeps(&lex, ""), "repeated --re OR together");
        let f = filter(&[(PatternKind::ExamineRe, "."), (PatternKind::ExcludeRe, "impl Debug")]);
        assert!(f.keeps(&parse, "") && !f.keeps(&lex, ""));
        // The name holds file, line and column: `src/lib.rs:12:5: replace parse …`.
        assert!(filter(&[(PatternKind::ExamineRe, r"^src/lib\.rs:12:5: replace parse")]).keeps(&parse, ""));
        assert!(
            !filter(&[(PatternKind::ExamineRe, "^parse")]).keeps(&parse, ""),
            "anchored at the name's start"
        );
        assert!(!MutantFilter::default().is_active() && MutantFilter::default().keeps(&lex, ""));
    }

    #[test]
    fn globs_with_a_slash_match_paths_and_without_match_names_anywhere() {
        let nested = mutant("crates/p/src/console/mod.rs", "replace f -> bool with true");
        let top = mutant("crates/p/src/console.rs", "replace f -> bool with true");
        let lib = mutant("crates/p/src/lib.rs", "replace f -> bool with true");
        let f = filter(&[(PatternKind::ExcludeGlob, "console")]);
        assert!(!f.keeps(&nested, "crates/p") && f.keeps(&top, "crates/p"), "a directory name");
        // A path from the package root or from the workspace root.
        for glob in ["src/lib.rs", "crates/p/src/lib.rs", "src/*.rs"] {
            let f = filter(&[(PatternKind::ExamineGlob, glob)]);
            assert!(f.keeps(&lib, "crates/p"), "{glob}");
            assert!(!f.keeps(&nested, "crates/p"), "{glob}: `*` stays in one directory");
        }
        assert!(filter(&[(PatternKind::ExamineGlob, "src/**/*.rs")]).keeps(&nested, "crates/p"));
        assert!(filter(&[(PatternKind::ExamineGlob, "l*.rs")]).keeps(&lib, "crates/p"));
        // Exclusion after inclusion.
        let f = filter(&[(PatternKind::ExamineGlob, "*.rs"), (PatternKind::ExcludeGlob, "lib.rs")]);
        assert!(!f.keeps(&lib, "crates/p") && f.keeps(&top, "crates/p"));
        // File filters first, then names.
        let f = filter(&[(PatternKind::ExamineGlob, "lib.rs"), (PatternKind::ExamineRe, "console")]);
        assert!(!f.keeps(&top, "crates/p") && !f.keeps(&lib, "crates/p"));
    }

    #[test]
    fn bad_patterns_name_their_origin_and_patterns_are_described_as_flags() {
        let err = MutantFilter::default().add(PatternKind::ExamineRe, &["(".into()], "--re").unwrap_err();
        assert!(crate::error::chain(&err).starts_with("bad regex \"(\" in --re"), "{err}");
        let err = MutantFilter::default().add(PatternKind::ExcludeGlob, &["a[b".into()], "exclude_globs");
        assert!(crate::error::chain(&err.unwrap_err()).starts_with("bad glob \"a[b\" in exclude_globs"));
        let f = filter(&[(PatternKind::ExamineRe, "parse"), (PatternKind::ExcludeGlob, "gen.rs")]);
        assert_eq!(f.describe(), "--re \"parse\" --exclude \"gen.rs\"");
    }
}
