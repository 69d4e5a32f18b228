//! Furthest-Point-First ranking of mutants ("First, fuzz the mutants", after the Universal
//! Mutator's metric): dissimilar mutants first, so a budget that reaches only the first
//! few still spreads over different changes and places.
//!
//! The distance between two mutants is
//! `5.0 × d(change) + 0.1 × d(original line) + 0.1 × d(mutant line) + 0.5 × different
//! files + min(0.25, line distance / 10)` (same file only), where `d` is one minus the
//! Levenshtein similarity ratio (`2 × LCS / total length`, the ratio of edits that insert
//! and delete) and the change is `original==>replacement`. Statement deletions are ranked
//! first, among themselves; the rest follow, each time the one furthest from all ranked.

use mutfuzz_mutate::{Discovery, Mutant, Operator};

/// What the metric reads of one mutant.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// `original==>replacement`.
    pub change: String,
    /// The source line the mutant starts on, trimmed.
    pub original_line: String,
    /// That line with the mutant's replacement in place, trimmed.
    pub mutant_line: String,
    /// The file, relative to the workspace root.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// Whether the mutant deletes a statement (ranked first).
    pub deletion: bool,
}

impl Point {
    /// The point of `mutant`, whose file's text is `source`.
    pub fn of(mutant: &Mutant, source: &str) -> Point {
        let (start, end) = (&mutant.span.start, &mutant.span.end);
        let lines: Vec<&str> = source.lines().collect();
        let line_at = |n: usize| lines.get(n.saturating_sub(1)).copied().unwrap_or("");
        let first = line_at(start.line);
        let last = line_at(end.line);
        // Columns count chars from 0; the mutant line is the first line up to the change,
        // the replacement, and the last line after it.
        let prefix: String = first.chars().take(start.column).collect();
        let suffix: String = last.chars().skip(end.column).collect();
        Point {
            change: format!("{}==>{}", mutant.original, mutant.replacement),
            original_line: first.trim().to_owned(),
            mutant_line: format!("{prefix}{}{suffix}", mutant.replacement).trim().to_owned(),
            file: mutant.file.clone(),
            line: start.line,
            deletion: mutant.operator == Operator::CallDelete,
        }
    }
}

/// The points of every mutant of a discovery, in catalog order (files that cannot be read
/// count as empty: only the line terms change).
pub fn points(discovery: &Discovery) -> Vec<Point> {
    let texts: std::collections::HashMap<&str, String> = discovery
        .files
        .iter()
        .map(|f| (f.rel_path.as_str(), std::fs::read_to_string(&f.path).unwrap_or_default()))
        .collect();
    discovery
        .mutants
        .iter()
        .map(|m| Point::of(m, texts.get(m.file.as_str()).map_or("", String::as_str)))
        .collect()
}

/// Levenshtein similarity ratio of `a` and `b`: `2 × LCS / (|a| + |b|)`, in `0.0..=1.0`
/// (1.0 for two empty strings).
pub fn similarity(a: &str, b: &str) -> f64 {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let total = a.len() + b.len();
    if total == 0 {
        return 1.0;
    }
    // Longest common subsequence, one row at a time.
    let mut row = vec![0usize; b.len() + 1];
    for &x in &a {
        let mut diagonal = 0;
        for (j, &y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y { diagonal + 1 } else { above.max(row[j]) };
            diagonal = above;
        }
    }
    2.0 * row[b.len()] as f64 / total as f64
}

/// The metric between two mutants.
pub fn distance(a: &Point, b: &Point) -> f64 {
    let d = |x: &str, y: &str| 1.0 - similarity(x, y);
    let place = if a.file != b.file { 0.5 } else { (a.line.abs_diff(b.line) as f64 / 10.0).min(0.25) };
    5.0 * d(&a.change, &b.change)
        + 0.1 * d(&a.original_line, &b.original_line)
        + 0.1 * d(&a.mutant_line, &b.mutant_line)
        + place
}

/// The first `limit` indices of `points` in FPF order: statement deletions first (from the
/// first of them), then the others, each time the point whose least distance to every
/// point ranked so far is largest (ties: the earlier in the catalog).
pub fn rank(points: &[Point], limit: usize) -> Vec<usize> {
    let limit = limit.min(points.len());
    let mut ranked = Vec::with_capacity(limit);
    let mut taken = vec![false; points.len()];
    // Least distance of each point to the ranked ones (infinite before the first).
    let mut least = vec![f64::INFINITY; points.len()];
    for deletions in [true, false] {
        while ranked.len() < limit {
            let next = (0..points.len()).filter(|&i| !taken[i] && points[i].deletion == deletions).fold(
                None,
                |best: Option<usize>, i| match best {
                    Some(b) if least[b] >= least[i] => Some(b),
                    _ => Some(i),
                },
            );
            let Some(next) = next else { break };
            taken[next] = true;
            ranked.push(next);
            for (i, p) in points.iter().enumerate() {
                if !taken[i] {
                    least[i] = least[i].min(distance(p, &points[next]));
                }
            }
        }
    }
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(change: &str, original: &str, mutant: &str, file: &str, line: usize) -> Point {
        Point {
            change: change.to_owned(),
            original_line: original.to_owned(),
            mutant_line: mutant.to_owned(),
            file: file.to_owned(),
            line,
            deletion: false,
        }
    }

    #[test]
    fn similarity_is_the_ratio_of_insert_and_delete_edits() {
        assert_eq!(similarity("", ""), 1.0);
        assert_eq!(similarity("abc", "abc"), 1.0);
        assert_eq!(similarity("abc", "xyz"), 0.0);
        // LCS("+==>-", "+==>*") = "+==>" (4 of 5 + 5 chars): 8 / 10.
        assert!((similarity("+==>-", "+==>*") - 0.8).abs() < 1e-12);
        // LCS("kitten", "sitting") = "ittn": 8 / 13.
        assert!((similarity("kitten", "sitting") - 8.0 / 13.0).abs() < 1e-12);
    }

    #[test]
    fn the_distance_is_the_papers_sum_computed_by_hand() {
        let a = point("+==>-", "x = a + b;", "x = a - b;", "src/lib.rs", 10);
        let b = point("+==>*", "x = a + b;", "x = a * b;", "src/lib.rs", 12);
        // change: 1 - 0.8 = 0.2 → 1.0; original lines equal → 0; mutant lines: LCS of
        // "x = a - b;" and "x = a * b;" is 9 of 10 + 10 → 1 - 0.9 = 0.1 → 0.01;
        // two lines apart → 0.2.
        assert!((distance(&a, &b) - (1.0 + 0.0 + 0.01 + 0.2)).abs() < 1e-12, "{}", distance(&a, &b));
        // Far apart in the same file: the line term is capped at 0.25.
        let c = point("+==>-", "x = a + b;", "x = a - b;", "src/lib.rs", 90);
        assert!((distance(&a, &c) - 0.25).abs() < 1e-12);
        // Another file: 0.5, whatever the lines.
        let d = point("+==>-", "x = a + b;", "x = a - b;", "src/main.rs", 10);
        assert!((distance(&a, &d) - 0.5).abs() < 1e-12);
        assert_eq!(distance(&a, &a), 0.0);
        assert_eq!(distance(&a, &b), distance(&b, &a));
    }

    #[test]
    fn the_order_is_furthest_point_first_as_computed_by_hand() {
        // Equal lines: only the change and the place count.
        let p = |change: &str, line| point(change, "x", "x", "src/lib.rs", line);
        let points = vec![p("a", 1), p("a", 2), p("b", 1), p("a", 50)];
        // From 0: least distances 0.1 (1), 5.0 (2), 0.25 (3) → 2; then 1 stays 0.1 and
        // 3 stays 0.25 → 3; then 1.
        assert_eq!(rank(&points, 4), [0, 2, 3, 1]);
        assert_eq!(rank(&points, 2), [0, 2]);

        // A statement deletion comes first. From it: 5.0, 5.1, 5.0, 5.25 → 3; then
        // 0.25, 0.25, 5.0 → 2; then 0 and 1 tie at 0.25 → the earlier, 0.
        let mut with_deletion = points.clone();
        with_deletion.push(Point { deletion: true, ..p("del", 1) });
        assert_eq!(rank(&with_deletion, 5), [4, 3, 2, 0, 1]);
    }
}
