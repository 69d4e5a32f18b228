//! Test mode's outcome history: the outcomes of earlier runs in
//! `target/mutfuzz/history.json`, each under a key of what decides it, so a run after an
//! edit tests again only the mutants whose key changed and takes the rest from there.
//!
//! A mutant's key hashes:
//! - what holds for the whole run: this tool's version, the compiler and `RUSTFLAGS`,
//!   the flags that change how tests run (features, test arguments, timeouts, caps,
//!   sandbox), every file of the workspace but the crate sources (manifests,
//!   `Cargo.lock`, `mutfuzz.toml`, build scripts, integration tests, data files), and
//!   each crate source with its *units* cut out: everything but the bodies, so docs,
//!   attributes, types, constants, macros and unit tests count for every mutant;
//! - the mutant itself: its function, operator and texts, its place within its unit,
//!   and the unit's text;
//! - each test that executes its site in this run's baseline: its binary and name, and
//!   the text of every unit the test executes.
//!
//! A *unit* is a function whose entry the baseline records (it has a body-replacing
//! mutant, whose site runs at each call), outside any other such function. A function
//! without one is not a unit: its text is in every key, so an edit there tests again
//! every mutant. So an edit to one unit tests again its own mutants and those of the
//! tests that run it. Not in the key: code that a test reaches only with the mutant
//! active (a mutant that makes a test call a function it never called), and what the
//! tests read from outside the workspace.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Result;
use mutfuzz_contract::write_atomic;
use mutfuzz_mutate::{Discovery, Mutant, Operator};
use serde::{Deserialize, Serialize};
use syn::spanned::Spanned;

use crate::schema::viability_cache::{KeyHash, excluded, hash_toolchain, hash_tree};
use crate::testing::baseline::TestRecord;
use crate::testing::outcome::{MutantOutcome, Outcome, TestInfo};
use crate::workspace::Workspace;

/// Bump when the meaning of a remembered outcome changes.
const FORMAT: &str = "mutfuzz outcome history 1";
/// Outcomes not used for this many runs are forgotten (a branch switched back to within
/// a few runs still finds its outcomes).
const KEEP_RUNS: u64 = 8;

/// The history file.
pub fn path(target_root: &Path) -> PathBuf {
    target_root.join("history.json")
}

#[derive(Default, Serialize, Deserialize)]
struct HistoryFile {
    format: String,
    /// Runs that wrote it so far.
    run: u64,
    /// By mutant key.
    outcomes: BTreeMap<String, Remembered>,
}

/// One remembered outcome of a mutant that ran.
#[derive(Clone, Serialize, Deserialize)]
struct Remembered {
    /// The last run that wrote or used it.
    run: u64,
    outcome: Outcome,
    tests_run: usize,
    failing_tests: Vec<String>,
    /// The tests that failed, as (package, target, name).
    killed_by: Vec<[String; 3]>,
    detail: Option<String>,
}

/// The outcomes of earlier runs, and this run's, to be saved.
pub struct History {
    path: PathBuf,
    file: HistoryFile,
}

fn test_id(t: &TestInfo) -> [String; 3] {
    [t.package.clone(), t.target.clone(), t.name.clone()]
}

/// Whether `t` is the test named by `id`.
fn is_test(t: &TestInfo, [package, target, name]: &[String; 3]) -> bool {
    t.package == *package && t.target == *target && t.name == *name
}

impl History {
    /// The history at `path`; empty when there is none, or it is unreadable or of
    /// another format.
    pub fn load(path: PathBuf) -> History {
        let file = fs::read_to_string(&path)
            .ok()
            .and_then(|text| serde_json::from_str::<HistoryFile>(&text).ok())
            .filter(|f| f.format == FORMAT)
            .unwrap_or_default();
        History { path, file: HistoryFile { run: file.run + 1, ..file } }
    }

    /// The outcome remembered under `key`, for mutant `m` covered by `covering` (positions
    /// in `tests`); only outcomes of runs (caught, missed, timeout) are remembered.
    pub fn recall(
        &mut self,
        key: &str,
        m: &Mutant,
        covering: &[usize],
        tests: &[TestInfo],
    ) -> Option<MutantOutcome> {
        let r = self.file.outcomes.get_mut(key)?;
        r.run = self.file.run;
        let mut killed_by: Vec<usize> =
            r.killed_by.iter().filter_map(|id| tests.iter().position(|t| is_test(t, id))).collect();
        killed_by.sort_unstable();
        Some(MutantOutcome {
            mutant: m.clone(),
            outcome: r.outcome,
            tests_run: r.tests_run,
            failing_tests: r.failing_tests.clone(),
            covered_by: super::lab::covered_by(covering),
            killed_by,
            seconds: 0.0,
            detail: r.detail.clone(),
            lint_risk: None,
            previously_caught: false,
            from_history: true,
        })
    }

    /// Remember the outcome `o` of a run, under `key`.
    pub fn remember(&mut self, key: String, o: &MutantOutcome, tests: &[TestInfo]) {
        if !matches!(o.outcome, Outcome::Caught | Outcome::Missed | Outcome::Timeout) {
            return;
        }
        let remembered = Remembered {
            run: self.file.run,
            outcome: o.outcome,
            tests_run: o.tests_run,
            failing_tests: o.failing_tests.clone(),
            killed_by: o.killed_by.iter().filter_map(|&t| tests.get(t)).map(test_id).collect(),
            detail: o.detail.clone(),
        };
        self.file.outcomes.insert(key, remembered);
    }

    /// Write it back, without the outcomes no recent run used.
    pub fn save(mut self) -> Result<()> {
        let run = self.file.run;
        self.file.outcomes.retain(|_, r| r.run + KEEP_RUNS > run);
        self.file.format = FORMAT.to_owned();
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
        }
        write_atomic(&self.path, serde_json::to_string(&self.file)?.as_bytes())?;
        Ok(())
    }
}

/// One unit: a function whose entry the baseline records (see the module doc).
struct Unit {
    /// Hash of its text.
    hash: String,
    /// Its first line (1-based), so a mutant's place in it does not move with edits above.
    line: usize,
}

/// What decides the outcomes of one run: the part every key shares, and the units.
pub struct Keys {
    global: String,
    units: Vec<Unit>,
    /// Per mutant, by position in the catalog: the unit it is in.
    unit_of_mutant: Vec<Option<usize>>,
    /// Per site: the unit it is in.
    unit_of_site: HashMap<u32, usize>,
}

impl Keys {
    /// The keys of a run of `discovery` in `ws` with `settings` (the flags that change how
    /// tests run); `skip` are the workspace paths the scratch copy leaves out.
    pub fn new(ws: &Workspace, discovery: &Discovery, settings: &[String], skip: &[PathBuf]) -> Result<Keys> {
        let mut h = KeyHash::new();
        h.field(FORMAT.as_bytes());
        h.field(env!("CARGO_PKG_VERSION").as_bytes());
        hash_toolchain(&mut h);
        for s in settings {
            h.field(s.as_bytes());
        }
        let mut skipped: HashSet<PathBuf> = excluded(ws, skip);
        for f in &discovery.files {
            skipped.insert(f.path.clone());
            skipped.extend(fs::canonicalize(&f.path).ok());
        }
        hash_tree(&mut h, &ws.root, &ws.root, &skipped, &mut HashSet::new())?;

        let mut units = Vec::new();
        let mut unit_of_mutant = vec![None; discovery.mutants.len()];
        for f in &discovery.files {
            let mine: Vec<usize> = (0..discovery.mutants.len())
                .filter(|&i| {
                    discovery.mutants[i].file == f.rel_path && discovery.mutants[i].package == f.package
                })
                .collect();
            let found = file_units(f.source(), mine.iter().map(|&i| &discovery.mutants[i]));
            h.field(f.rel_path.as_bytes());
            h.field(found.rest.as_bytes());
            for (&i, unit) in mine.iter().zip(found.unit_of_mutant) {
                unit_of_mutant[i] = unit.map(|u| units.len() + u);
            }
            units.extend(found.units);
        }
        let unit_of_site = discovery
            .mutants
            .iter()
            .zip(&unit_of_mutant)
            .filter_map(|(m, u)| Some((m.site, (*u)?)))
            .collect();
        Ok(Keys { global: h.finish(), units, unit_of_mutant, unit_of_site })
    }

    /// Per test (parallel to `records`): the hash of the units it executes.
    pub fn fingerprints(&self, records: &[TestRecord]) -> Vec<String> {
        records
            .iter()
            .map(|r| {
                let ran: BTreeSet<usize> =
                    r.seen.hits.iter().filter_map(|site| self.unit_of_site.get(site).copied()).collect();
                let mut h = KeyHash::new();
                for u in ran {
                    h.field(self.units[u].hash.as_bytes());
                }
                h.finish()
            })
            .collect()
    }

    /// The key of mutant `m` (at position `i` of the catalog), covered by `covering`
    /// (positions in `tests` in increasing order, as the baseline lists them, whose units
    /// hash to `fingerprints`).
    pub fn mutant_key(
        &self,
        i: usize,
        m: &Mutant,
        covering: &[usize],
        tests: &[TestInfo],
        fingerprints: &[String],
    ) -> String {
        let mut h = KeyHash::new();
        h.field(self.global.as_bytes());
        for text in [&m.package, &m.file, &m.function, &m.original, &m.replacement, &m.description] {
            h.field(text.as_bytes());
        }
        h.field(format!("{:?}", m.operator).as_bytes());
        let (unit, line) = match self.unit_of_mutant[i] {
            Some(u) => (self.units[u].hash.as_str(), m.span.start.line - self.units[u].line),
            None => ("", m.span.start.line),
        };
        h.field(unit.as_bytes());
        h.field(format!("{line}:{}", m.span.start.column).as_bytes());
        for &t in covering {
            let test = &tests[t];
            for text in [&test.package, &test.target, &test.name] {
                h.field(text.as_bytes());
            }
            h.field(fingerprints[t].as_bytes());
        }
        h.finish()
    }
}

/// The units of one source file.
struct FileUnits {
    units: Vec<Unit>,
    /// Per mutant given, in order: its unit, by position in `units`.
    unit_of_mutant: Vec<Option<usize>>,
    /// The text with each unit cut out.
    rest: String,
}

/// The units of the source `text`, and in which one each of `mutants` (of this file) is.
/// A file `syn` cannot parse has none.
fn file_units<'a>(text: &str, mutants: impl Iterator<Item = &'a Mutant> + Clone) -> FileUnits {
    let functions = syn::parse_file(text).map(|f| functions_of(&f)).unwrap_or_default();
    let lines = LineStarts::of(text);
    // (line, column) with 1-based columns, as the catalog's.
    let inside = |f: &Function, m: &Mutant| {
        let at = (m.span.start.line, m.span.start.column);
        f.start <= at && at < f.end
    };
    // A function is a unit when it holds its own body-replacing mutant (the innermost
    // function around that mutant's start is this one), unless a unit holds it.
    let recorded: Vec<bool> = functions
        .iter()
        .enumerate()
        .map(|(i, f)| {
            mutants.clone().any(|m| {
                m.operator == Operator::FnReturn
                    && inside(f, m)
                    && !functions.iter().enumerate().any(|(j, g)| j != i && inside(g, m) && f.contains(g))
            })
        })
        .collect();
    let outermost: Vec<usize> = (0..functions.len())
        .filter(|&i| {
            recorded[i]
                && !(0..functions.len())
                    .any(|j| j != i && recorded[j] && functions[j].contains(&functions[i]))
        })
        .collect();
    let mut units = Vec::new();
    let mut rest = String::new();
    let mut at = 0;
    let mut ranges: Vec<(usize, usize, usize)> = outermost
        .iter()
        .map(|&i| (lines.offset(text, functions[i].start), lines.offset(text, functions[i].end), i))
        .collect();
    ranges.sort_unstable();
    let mut unit_index = HashMap::new();
    for (start, end, i) in ranges {
        if start < at || end <= start {
            continue;
        }
        rest.push_str(&text[at..start]);
        rest.push('\0');
        at = end;
        let mut h = KeyHash::new();
        h.field(&text.as_bytes()[start..end]);
        unit_index.insert(i, units.len());
        units.push(Unit { hash: h.finish(), line: functions[i].start.0 });
    }
    rest.push_str(&text[at..]);
    let unit_of_mutant = mutants
        .map(|m| {
            outermost.iter().find(|&&i| inside(&functions[i], m)).and_then(|i| unit_index.get(i).copied())
        })
        .collect();
    FileUnits { units, unit_of_mutant, rest }
}

/// A function with a body, from its signature to its closing brace, as (line, 1-based
/// column) positions: its docs and attributes stay outside, so a doctest's text is in
/// every key.
struct Function {
    start: (usize, usize),
    end: (usize, usize),
}

impl Function {
    fn contains(&self, other: &Function) -> bool {
        self.start <= other.start && other.end <= self.end
    }
}

fn functions_of(file: &syn::File) -> Vec<Function> {
    struct Collect(Vec<Function>);
    impl Collect {
        fn add(&mut self, sig: &syn::Signature, block: &syn::Block) {
            let (s, e) = (sig.span().start(), block.brace_token.span.close().end());
            self.0.push(Function { start: (s.line, s.column + 1), end: (e.line, e.column + 1) });
        }
    }
    impl<'ast> syn::visit::Visit<'ast> for Collect {
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            self.add(&f.sig, &f.block);
            syn::visit::visit_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            self.add(&f.sig, &f.block);
            syn::visit::visit_impl_item_fn(self, f);
        }
        fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
            if let Some(block) = &f.default {
                self.add(&f.sig, block);
            }
            syn::visit::visit_trait_item_fn(self, f);
        }
    }
    let mut c = Collect(Vec::new());
    syn::visit::Visit::visit_file(&mut c, file);
    c.0
}

/// Byte offsets of a text's lines, to turn (line, 1-based char column) into offsets.
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn of(text: &str) -> LineStarts {
        LineStarts(std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect())
    }

    fn offset(&self, text: &str, (line, column): (usize, usize)) -> usize {
        let Some(&start) = self.0.get(line.saturating_sub(1)) else { return text.len() };
        let line_text = &text[start..];
        start + line_text.char_indices().nth(column.saturating_sub(1)).map_or(line_text.len(), |(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "\
/// Doubles.
pub fn double(x: u32) -> u32 {
    x * 2
}

pub fn add(a: u32, b: u32) -> u32 {
    a + b
}

#[cfg(test)]
mod tests {
    #[test]
    fn t() {
        assert_eq!(super::double(2), 4);
    }
}
";

    fn keys_of(text: &str) -> (Discovery, FileUnits) {
        let config = mutfuzz_mutate::Config::default();
        let d = Discovery::from_source("src/lib.rs", text, &config).unwrap();
        let units = file_units(text, d.mutants.iter());
        (d, units)
    }

    #[test]
    fn each_function_with_a_body_mutant_is_a_unit_and_its_mutants_are_in_it() {
        let (d, f) = keys_of(SOURCE);
        assert_eq!(f.units.len(), 2, "double and add; the test function has no mutants");
        for (m, u) in d.mutants.iter().zip(&f.unit_of_mutant) {
            let expected = if m.function.contains("double") { 0 } else { 1 };
            assert_eq!(*u, Some(expected), "{}", m.name());
        }
        assert!(f.rest.contains("/// Doubles.") && f.rest.contains("fn t()"), "{}", f.rest);
        assert!(!f.rest.contains("x * 2") && !f.rest.contains("a + b"), "{}", f.rest);
    }

    #[test]
    fn an_edit_to_one_function_changes_its_unit_only_and_lines_above_do_not_move_places() {
        let (_, before) = keys_of(SOURCE);
        let edited = SOURCE.replace("x * 2", "x\n        * 2");
        let (d, after) = keys_of(&edited);
        assert_ne!(after.units[0].hash, before.units[0].hash);
        assert_eq!(after.units[1].hash, before.units[1].hash);
        assert_eq!(after.rest, before.rest);
        assert_eq!(after.units[1].line, before.units[1].line + 1);
        // A doc or test edit is in the rest, which every key holds.
        let (_, docs) = keys_of(&SOURCE.replace("Doubles.", "Twice."));
        assert_ne!(docs.rest, before.rest);
        assert!(d.mutants.iter().any(|m| m.function.contains("add")));
    }

    #[test]
    fn a_mutant_s_key_follows_its_unit_and_its_tests_units() {
        let (d, f) = keys_of(SOURCE);
        let keys = Keys {
            global: "g".into(),
            units: f.units,
            unit_of_mutant: f.unit_of_mutant,
            unit_of_site: d
                .mutants
                .iter()
                .map(|m| (m.site, if m.function.contains("double") { 0 } else { 1 }))
                .collect(),
        };
        let tests = vec![TestInfo {
            package: "main".into(),
            target: "lib".into(),
            name: "tests::t".into(),
            seconds: 0.1,
        }];
        let add = d.mutants.iter().position(|m| m.function.contains("add")).unwrap();
        let key =
            |keys: &Keys, prints: &[String]| keys.mutant_key(add, &d.mutants[add], &[0], &tests, prints);
        let one = key(&keys, &["p".into()]);
        assert_eq!(key(&keys, &["p".into()]), one);
        assert_ne!(key(&keys, &["q".into()]), one, "a unit its test runs changed");
        let mut other = keys;
        other.units[1].hash = "edited".into();
        assert_ne!(key(&other, &["p".into()]), one, "its own unit changed");
        other.units[1].hash = other.units[0].hash.clone();
        other.global = "h".into();
        assert_ne!(key(&other, &["p".into()]), one, "the rest changed");
    }

    #[test]
    fn columns_count_characters() {
        let text = "é = 1;\nab";
        let lines = LineStarts::of(text);
        assert_eq!(lines.offset(text, (1, 2)), 2);
        assert_eq!(lines.offset(text, (2, 2)), text.len() - 1);
        assert_eq!(lines.offset(text, (9, 1)), text.len());
    }
}
