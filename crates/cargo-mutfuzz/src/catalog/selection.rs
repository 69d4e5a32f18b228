//! Which mutants one run covers: `--in-diff FILE` (the mutants on lines a unified diff
//! adds or changes), the name and file filters (`--re`, `--file`, … in [`crate::catalog::filter`])
//! and `--shard k/n` (one of n parts, the sites dealt round-robin, k from 0 as in
//! cargo-mutants).
//!
//! A shard is a set of whole sites, dealt in catalog order, so it depends only on the
//! catalog (stable for the same source) and not on the machine; keeping a site's mutants
//! together keeps the order in which a site's tests run, so n shards merged give the
//! outcomes one unsharded run gives.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::str::FromStr;

use anyhow::{Context, Result};
use mutfuzz_mutate::Mutant;
use serde::{Deserialize, Serialize};

use crate::catalog::filter::RunFilter;
use crate::console::exit_code;

/// `--shard k/n`: part k of n, k counted from 0 as cargo-mutants counts it (`0/4` …
/// `3/4`), so a CI matrix written for cargo-mutants runs every part here too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Shard {
    /// Which part, from 0.
    pub k: u32,
    /// How many parts.
    pub n: u32,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("{text:?} is not a shard: write k/n with 0 <= k < n, as in 0/4");
        let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let (k, n): (u32, u32) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if n == 0 {
            return Err(bad());
        }
        // An old 1-based matrix (`1/4` … `4/4`) must fail loudly on its last shard rather
        // than silently skip shard 0: name the convention.
        if k >= n {
            return Err(format!(
                "{text:?} is not a shard of {n}: shards count from 0 as in cargo-mutants: use 0/{n} … {}/{n}",
                n - 1
            ));
        }
        Ok(Shard { k, n })
    }
}

impl TryFrom<String> for Shard {
    type Error = String;

    fn try_from(text: String) -> Result<Shard, String> {
        text.parse()
    }
}

impl From<Shard> for String {
    fn from(s: Shard) -> String {
        s.to_string()
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// The lines a unified diff adds or changes, per file of the new side (the path as the
/// diff names it, without its `b/` prefix).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangedLines {
    files: BTreeMap<String, Vec<u32>>,
}

impl ChangedLines {
    /// Parse `git diff` (or `diff -u`) output. Lines of the new side that start with `+`
    /// are changed; context and removed lines are not (a removal alone changes no line
    /// that is still there, as in cargo-mutants).
    pub fn parse(text: &str) -> Result<ChangedLines, String> {
        let mut files: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        let mut current: Option<String> = None;
        let mut next_line = 0u32;
        let mut in_hunk = false;
        let mut saw_header = false;
        for (i, line) in text.lines().enumerate() {
            if let Some(path) = line.strip_prefix("+++ ") {
                saw_header = true;
                in_hunk = false;
                // `+++ b/src/lib.rs\t2024-…` (diff -u puts a date after a tab).
                let path = path.split('\t').next().unwrap_or("").trim_end();
                current = if path == "/dev/null" {
                    None
                } else {
                    Some(path.strip_prefix("b/").unwrap_or(path).to_owned())
                };
                continue;
            }
            if line.starts_with("--- ") && !in_hunk {
                continue;
            }
            if let Some(rest) = line.strip_prefix("@@ ") {
                // `@@ -a,b +c,d @@ context`
                let plus = rest
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix('+'))
                    .ok_or_else(|| format!("line {}: a hunk header without +start: {line:?}", i + 1))?;
                let start = plus.split(',').next().unwrap_or("");
                next_line = start
                    .parse()
                    .map_err(|_| format!("line {}: a hunk header without +start: {line:?}", i + 1))?;
                in_hunk = true;
                continue;
            }
            if !in_hunk {
                continue;
            }
            match line.as_bytes().first() {
                Some(b'+') => {
                    if let Some(file) = &current {
                        files.entry(file.clone()).or_default().push(next_line);
                    }
                    next_line += 1;
                }
                Some(b' ') | None => next_line += 1,
                // Removed lines and `\ No newline at end of file` take no new line.
                Some(b'-') | Some(b'\\') => {}
                // `diff --git`, `index …`: the next file's header.
                _ => in_hunk = false,
            }
        }
        if !saw_header && !text.trim().is_empty() {
            return Err(
                "this is not a unified diff: it has no `+++ FILE` line (make it with `git diff`)".into()
            );
        }
        Ok(ChangedLines { files })
    }

    /// Whether the mutant's span holds a changed line. `file` is relative to the
    /// workspace root; a diff made in a directory above it names the file with more
    /// leading components, so a path that ends with `/file` matches too.
    pub fn touches(&self, m: &Mutant) -> bool {
        let (first, last) = (m.span.start.line as u32, m.span.end.line as u32);
        self.files.iter().any(|(path, lines)| {
            (path == &m.file || path.ends_with(&format!("/{}", m.file)))
                && lines.iter().any(|&l| (first..=last).contains(&l))
        })
    }
}

/// The mutants one run covers, by position in the catalog.
#[derive(Clone, Debug)]
pub struct Selection {
    /// Per catalog entry: in the run's mutant set (`--in-diff`).
    in_set: Vec<bool>,
    /// Per catalog entry: in the set and in this shard.
    selected: Vec<bool>,
    /// The shard, if any.
    pub shard: Option<Shard>,
    /// Whether `--in-diff` restricted the set.
    pub in_diff: bool,
    /// Whether `--mutants-file` restricted the set.
    pub listed: bool,
    /// The filters that restricted the set (`--re "parse"` …), if any.
    pub filtered: Option<String>,
}

impl Selection {
    /// Every mutant.
    pub fn all(mutants: &[Mutant]) -> Selection {
        Selection {
            in_set: vec![true; mutants.len()],
            selected: vec![true; mutants.len()],
            shard: None,
            in_diff: false,
            listed: false,
            filtered: None,
        }
    }

    /// The mutants of `mutants` on lines `diff` changes that `filter` keeps, then the
    /// shard's part of them (shards split what the filters leave, as cargo-mutants').
    pub fn filtered(
        mutants: &[Mutant],
        diff: Option<&ChangedLines>,
        filter: Option<&RunFilter>,
        shard: Option<Shard>,
    ) -> Selection {
        let filter = filter.filter(|f| f.is_active());
        let in_set: Vec<bool> = mutants
            .iter()
            .map(|m| diff.is_none_or(|d| d.touches(m)) && filter.is_none_or(|f| f.keeps(m)))
            .collect();
        // Sites in catalog order, numbered among those in the set.
        let mut site_index: HashMap<u32, u32> = HashMap::new();
        let selected = mutants
            .iter()
            .zip(&in_set)
            .map(|(m, &in_set)| {
                if !in_set {
                    return false;
                }
                let next = site_index.len() as u32;
                let index = *site_index.entry(m.site).or_insert(next);
                shard.is_none_or(|s| index % s.n == s.k)
            })
            .collect();
        Selection {
            in_set,
            selected,
            shard,
            in_diff: diff.is_some(),
            listed: false,
            filtered: filter.map(|f| f.describe()),
        }
    }

    /// Keeps only the mutants whose ids `--mutants-file FILE` lists (read with the
    /// harness's reader, so both accept the same files).
    pub fn restrict_to_file(&mut self, mutants: &[Mutant], file: &Path) -> Result<()> {
        let ids =
            mutfuzz::harness::read_mutants_file(file).map_err(|e| exit_code::usage(anyhow::anyhow!(e)))?;
        for (i, m) in mutants.iter().enumerate() {
            if !ids.contains(&m.id) {
                self.in_set[i] = false;
                self.selected[i] = false;
            }
        }
        self.listed = true;
        Ok(())
    }

    /// Read `--in-diff FILE` and select what `filter` keeps of it.
    pub fn from_args(
        mutants: &[Mutant],
        in_diff: Option<&Path>,
        filter: Option<&RunFilter>,
        shard: Option<Shard>,
    ) -> Result<Selection> {
        let diff = match in_diff {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("failed to read the diff {}", path.display()))
                    .map_err(exit_code::usage)?;
                let diff = ChangedLines::parse(&text)
                    .map_err(|e| exit_code::usage(anyhow::anyhow!("{}: {e}", path.display())))?;
                Some(diff)
            }
            None => None,
        };
        Ok(Selection::filtered(mutants, diff.as_ref(), filter, shard))
    }

    /// Only the mutants `keep` names by id (`amplify`'s check of its tests).
    pub fn only(self, mutants: &[Mutant], keep: &std::collections::BTreeSet<u32>) -> Selection {
        let pick = |flags: Vec<bool>| {
            flags.into_iter().zip(mutants).map(|(f, m)| f && keep.contains(&m.id)).collect()
        };
        Selection { in_set: pick(self.in_set), selected: pick(self.selected), ..self }
    }

    /// Whether the run covers the `i`-th mutant of the catalog.
    pub fn selected(&self, i: usize) -> bool {
        self.selected[i]
    }

    /// Whether the `i`-th mutant is in the run's mutant set (before sharding).
    pub fn in_set(&self, i: usize) -> bool {
        self.in_set[i]
    }

    /// Whether every mutant is covered.
    pub fn is_all(&self) -> bool {
        self.selected.iter().all(|&s| s)
    }

    /// Mutants in the run's set, before sharding.
    pub fn set_count(&self) -> usize {
        self.in_set.iter().filter(|&&s| s).count()
    }

    /// Mutants covered.
    pub fn count(&self) -> usize {
        self.selected.iter().filter(|&&s| s).count()
    }

    /// `In the diff: 12 of 713 mutants; shard 1/2: 6 of them`, or `None` for every mutant.
    pub fn describe(&self) -> Option<String> {
        let total = self.in_set.len();
        let in_set = self.in_set.iter().filter(|&&s| s).count();
        if self.listed {
            let shard =
                self.shard.map(|s| format!("; shard {s}: {} of them", self.count())).unwrap_or_default();
            return Some(format!("Listed in the mutants file: {in_set} of {total} mutants{shard}"));
        }
        let set = match (self.in_diff, &self.filtered) {
            (false, None) => None,
            (true, None) => Some("In the diff".to_owned()),
            (false, Some(f)) => Some(format!("Matching {f}")),
            (true, Some(f)) => Some(format!("In the diff and matching {f}")),
        };
        match (set, self.shard) {
            (None, None) => None,
            (Some(set), None) => Some(format!("{set}: {in_set} of {total} mutants")),
            (None, Some(s)) => Some(format!("Shard {s}: {} of {total} mutants", self.count())),
            (Some(set), Some(s)) => {
                Some(format!("{set}: {in_set} of {total} mutants; shard {s}: {} of them", self.count()))
            }
        }
    }
}

/// `--min-score P`: a percentage from 0 to 100.
pub fn parse_min_score(text: &str) -> Result<f64, String> {
    let text = text.trim().trim_end_matches('%');
    match text.parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err(format!("{text:?} is not a score: write a percentage from 0 to 100, as in 80 or 92.5")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mutant(id: u32, site: u32, file: &str, line: usize) -> Mutant {
        serde_json::from_value(serde_json::json!({
            "id": id, "site": site, "package": "p", "file": file,
            "span": {"start": {"line": line, "column": 1}, "end": {"line": line, "column": 2}},
            "function": "f", "operator": "int_literal", "original": "1", "replacement": "0",
            "description": "replace 1 with 0 in f"
        }))
        .unwrap()
    }

    #[test]
    fn shards_parse_and_bad_ones_are_explained() {
        assert_eq!("2/3".parse(), Ok(Shard { k: 2, n: 3 }));
        assert_eq!("0/1".parse(), Ok(Shard { k: 0, n: 1 }));
        assert_eq!(Shard { k: 2, n: 3 }.to_string(), "2/3");
        for bad in ["1", "a/b", "1/0", "0/0", ""] {
            assert!(bad.parse::<Shard>().unwrap_err().contains("k/n"), "{bad}");
        }
        // The last shard of a 1-based matrix names the convention.
        for (bad, hint) in [("4/4", "use 0/4 … 3/4"), ("5/4", "use 0/4 … 3/4"), ("1/1", "use 0/1 … 0/1")]
        {
            let err = bad.parse::<Shard>().unwrap_err();
            assert!(err.contains("shards count from 0 as in cargo-mutants") && err.contains(hint), "{err}");
        }
    }

    #[test]
    fn shards_deal_whole_sites_and_together_cover_each_mutant_once() {
        // Sites 1 (ids 1-3), 4 (4-5), 6 (6), 7 (7-8), 9 (9).
        let sites = [1, 1, 1, 4, 4, 6, 7, 7, 9];
        let mutants: Vec<Mutant> =
            sites.iter().enumerate().map(|(i, &s)| mutant(i as u32 + 1, s, "src/lib.rs", 1)).collect();
        let one = Selection::filtered(&mutants, None, None, Some(Shard { k: 0, n: 2 }));
        let two = Selection::filtered(&mutants, None, None, Some(Shard { k: 1, n: 2 }));
        let picked =
            |s: &Selection| (0..9).filter(|&i| s.selected(i)).map(|i| mutants[i].id).collect::<Vec<_>>();
        assert_eq!(picked(&one), [1, 2, 3, 6, 9]);
        assert_eq!(picked(&two), [4, 5, 7, 8]);
        assert!(Selection::filtered(&mutants, None, None, None).is_all());
    }

    #[test]
    fn a_git_diff_selects_the_mutants_on_added_lines() {
        let diff = "diff --git a/src/lib.rs b/src/lib.rs\nindex 1..2 100644\n--- a/src/lib.rs\n+++ b/src/lib.rs\n\
                    @@ -10,4 +10,5 @@ fn f()\n ctx10\n-old11\n+new11\n+new12\n ctx13\n\\ No newline at end of file\n\
                    diff --git a/src/gone.rs b/src/gone.rs\n--- a/src/gone.rs\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n\
                    --- a/crates/p/src/m.rs\n+++ b/crates/p/src/m.rs\n@@ -1 +1 @@\n-a\n+b\n";
        let changed = ChangedLines::parse(diff).unwrap();
        assert_eq!(changed.files.len(), 2);
        assert!(changed.touches(&mutant(1, 1, "src/lib.rs", 11)));
        assert!(changed.touches(&mutant(1, 1, "src/lib.rs", 12)));
        assert!(!changed.touches(&mutant(1, 1, "src/lib.rs", 10)));
        assert!(!changed.touches(&mutant(1, 1, "src/lib.rs", 13)));
        assert!(!changed.touches(&mutant(1, 1, "src/gone.rs", 1)));
        // Named from a directory above the workspace.
        assert!(changed.touches(&mutant(1, 1, "src/m.rs", 1)));
        assert!(ChangedLines::parse("hello\n").unwrap_err().contains("not a unified diff"));
        assert_eq!(ChangedLines::parse("").unwrap().files.len(), 0);
    }

    #[test]
    fn a_mutants_file_keeps_the_listed_mutants_only() {
        let mutants: Vec<Mutant> = (1..=4).map(|id| mutant(id, id, "src/lib.rs", id as usize)).collect();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("targets.txt");
        std::fs::write(&file, "# missed\n2\n4 replace 1 with 0\n9\n").unwrap();
        let mut s = Selection::all(&mutants);
        s.restrict_to_file(&mutants, &file).unwrap();
        assert_eq!((0..4).map(|i| s.selected(i)).collect::<Vec<_>>(), [false, true, false, true]);
        assert_eq!(s.describe().as_deref(), Some("Listed in the mutants file: 2 of 4 mutants"));
        std::fs::write(&file, "two\n").unwrap();
        let err = Selection::all(&mutants).restrict_to_file(&mutants, &file).unwrap_err().to_string();
        assert!(err.ends_with("targets.txt:1: \"two\" is not a mutant id (one id a line)"), "{err}");
    }

    #[test]
    fn min_scores_are_percentages() {
        assert_eq!(parse_min_score("80"), Ok(80.0));
        assert_eq!(parse_min_score("92.5%"), Ok(92.5));
        assert!(parse_min_score("101").is_err() && parse_min_score("x").is_err());
    }
}
