//! The mutants of a walked file, numbered: drafts become mutants with consecutive ids,
//! once every site of the file is known, so a site left out leaves no gap.

use std::collections::HashSet;

use super::FileContext;
use super::FileDiscovery;
use crate::Operator;
use crate::mutant::{Mutant, SourceRange};
use crate::site::{Site, Splice};
use crate::skip::SkipCounts;

/// A mutant of a site being built, before it has an id.
pub(crate) struct Draft {
    pub range: SourceRange,
    pub operator: Operator,
    pub original: String,
    pub replacement: String,
    pub description: String,
    /// Whether its site's shape carries an infection probe (the catalog's `probe`).
    pub probe: bool,
}

/// A site and its drafts, numbered when the file is done.
pub(super) struct PlannedSite {
    pub function: String,
    /// The features the `cfg`s around it ask for.
    pub features: Vec<String>,
    pub drafts: Vec<Draft>,
    /// Its shape could not be placed; it is left out, with a warning.
    pub cancelled: bool,
}

/// What the walk of one file produced, before numbering.
#[derive(Default)]
pub(super) struct Walked {
    pub sites: Vec<PlannedSite>,
    pub splices: Vec<Splice>,
    pub skipped: SkipCounts,
    pub external_mods: Vec<super::ExternalMod>,
    pub warnings: Vec<String>,
}

impl Walked {
    /// Drop the sites whose splices overlap (never expected: every nested site lies inside
    /// a hole of its parent's shape), saying so, and give the others consecutive ids.
    pub fn number(mut self, cx: &FileContext<'_>, next_id: &mut u32) -> FileDiscovery {
        self.splices.sort_by_key(|s| s.start);
        for s in overlapping_sites(&self.splices) {
            self.cancel(cx, s, "its schema splices overlap another site's");
        }
        let planned = std::mem::take(&mut self.sites);
        let dropped: HashSet<usize> = (0..planned.len()).filter(|&i| planned[i].cancelled).collect();
        self.splices.retain(|s| s.site.is_none_or(|i| !dropped.contains(&i)));
        let mut out = FileDiscovery {
            splices: self.splices,
            skipped: self.skipped,
            external_mods: self.external_mods,
            warnings: self.warnings,
            ..FileDiscovery::default()
        };
        for site in planned {
            let base = *next_id;
            let count = if site.cancelled { 0 } else { site.drafts.len() as u32 };
            out.sites.push(Site { base, count });
            if site.cancelled {
                continue;
            }
            *next_id += count;
            for (k, d) in site.drafts.into_iter().enumerate() {
                out.mutants.push(Mutant {
                    id: base + k as u32,
                    site: base,
                    package: cx.package.to_owned(),
                    file: cx.rel_path.to_owned(),
                    span: d.range,
                    function: site.function.clone(),
                    operator: d.operator,
                    original: d.original,
                    replacement: d.replacement,
                    description: d.description,
                    probe: d.probe,
                    features: site.features.clone(),
                });
            }
        }
        out
    }

    /// Leave site `index` out, with a warning that names it.
    pub fn cancel(&mut self, cx: &FileContext<'_>, index: usize, why: &str) {
        let site = &mut self.sites[index];
        if site.cancelled {
            return;
        }
        site.cancelled = true;
        let at = site.drafts[0].range.start;
        self.warnings.push(format!(
            "{}:{}:{}: internal error: {why}; its {} mutant(s) are left out (please report this)",
            cx.rel_path,
            at.line,
            at.column,
            site.drafts.len()
        ));
    }
}

/// Sites with a splice that starts inside an earlier splice's replaced range.
fn overlapping_sites(sorted: &[Splice]) -> Vec<usize> {
    let mut bad = Vec::new();
    let mut widest: Option<&Splice> = None;
    for s in sorted {
        if let Some(w) = widest
            && s.start < w.end
        {
            bad.extend(s.site);
            bad.extend(w.site);
        }
        if widest.is_none_or(|w| s.end > w.end) {
            widest = Some(s);
        }
    }
    bad.sort_unstable();
    bad.dedup();
    bad
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Piece;

    fn splice(start: usize, end: usize, site: Option<usize>) -> Splice {
        Splice { start, end, site, piece: Piece::text("x") }
    }

    fn draft(line: usize) -> Draft {
        Draft {
            range: SourceRange {
                start: crate::LineCol { line, column: 5 },
                end: crate::LineCol { line, column: 6 },
            },
            operator: Operator::ArithSwap,
            original: "+".into(),
            replacement: "-".into(),
            description: "replace + with - in f".into(),
            probe: true,
        }
    }

    /// Even in a release build, a site with overlapping splices is dropped with a
    /// warning that names it, and the other sites' ids stay consecutive.
    #[test]
    fn an_overlapping_site_is_dropped_with_a_warning_and_no_gap_in_ids() {
        let site = |line| PlannedSite {
            function: "f".into(),
            features: Vec::new(),
            drafts: vec![draft(line), draft(line)],
            cancelled: false,
        };
        let walked = Walked {
            sites: vec![site(1), site(2), site(3)],
            splices: vec![splice(0, 4, Some(0)), splice(2, 3, Some(1)), splice(8, 9, Some(2))],
            ..Walked::default()
        };
        let config = crate::Config::default();
        let cx = FileContext {
            rel_path: "src/lib.rs",
            package: "p",
            namespace: Vec::new(),
            mod_dir: crate::modules::ModDir::of_file(std::path::Path::new("src/lib.rs"), true, ""),
            config: &config,
            features: Vec::new(),
        };
        let mut next_id = 10;
        let out = walked.number(&cx, &mut next_id);
        assert_eq!(out.warnings.len(), 2, "{:?}", out.warnings);
        assert!(
            out.warnings[0].starts_with("src/lib.rs:1:5: internal error: its schema splices overlap"),
            "{:?}",
            out.warnings
        );
        let ids: Vec<(u32, u32)> = out.mutants.iter().map(|m| (m.id, m.site)).collect();
        assert_eq!(ids, [(10, 10), (11, 10)]);
        assert_eq!(out.mutants[0].span.start.line, 3);
        assert_eq!(out.sites.iter().map(|s| s.count).collect::<Vec<_>>(), [0, 0, 2]);
        assert_eq!(next_id, 12);
        // Only the kept site's splices are left to render.
        assert_eq!(out.splices.iter().map(|s| s.site).collect::<Vec<_>>(), [Some(2)]);
    }

    #[test]
    fn overlapping_splices_name_their_sites() {
        // Nested and adjacent splices are fine.
        let ok = [splice(0, 0, Some(0)), splice(0, 0, Some(1)), splice(3, 5, Some(1)), splice(5, 5, None)];
        assert!(overlapping_sites(&ok).is_empty());
        // A splice inside another's replaced range, even an empty one, is not.
        let bad = [splice(0, 4, Some(0)), splice(2, 2, None), splice(3, 6, Some(2)), splice(7, 8, Some(3))];
        assert_eq!(overlapping_sites(&bad), [0, 2]);
    }
}
