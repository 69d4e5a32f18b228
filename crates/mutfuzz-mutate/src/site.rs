//! Sites and the source splices that turn one source file into its schema.
//!
//! A schema is written by splicing text into the user's file, never by re-printing the
//! syntax tree: everything that is not a site keeps its exact bytes, and every splice keeps
//! the number of newlines it replaces, so each line of the schema is the same line of the
//! user's file. Panics and compiler messages therefore point at the user's line.

use crate::shape::{Part, Piece, Probe};

/// One place in the source where one or more mutants apply.
#[derive(Clone, Debug)]
pub struct Site {
    /// Id of the first mutant; the site's mutants are `base .. base + count`.
    pub base: u32,
    /// Number of mutants.
    pub count: u32,
}

/// A splice of the source text: replace `start..end` (bytes) with a rendered piece.
#[derive(Clone, Debug)]
pub(crate) struct Splice {
    pub start: usize,
    pub end: usize,
    /// The site this splice belongs to; `None` for fuel instrumentation, which is always on.
    pub site: Option<usize>,
    pub piece: Piece,
}

/// Which part of the schema a byte range of rendered output belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The replacement arm of one mutant.
    Mutant(u32),
    /// The wrapper of a site (index into the file's sites) outside any mutant's arm.
    Site(usize),
}

/// A rendered schema file and the map from its byte ranges to mutants and sites.
#[derive(Clone, Debug, Default)]
pub struct Rendered {
    /// The schema text.
    pub text: String,
    /// Output ranges, innermost last for nested ranges starting later.
    pub owners: Vec<(std::ops::Range<usize>, Owner)>,
}

impl Rendered {
    /// The innermost owner of the output byte range `start..end`, if any.
    pub fn owner_of(&self, start: usize, end: usize) -> Option<Owner> {
        self.owners
            .iter()
            .filter(|(r, _)| r.start <= start && end <= r.end)
            .min_by_key(|(r, o)| (r.end - r.start, matches!(o, Owner::Site(_))))
            .map(|(_, o)| *o)
    }
}

/// Render `source` with `splices` (sorted by start, never overlapping) for the sites
/// whose mutants pass `enabled`.
pub(crate) fn render(
    source: &str,
    splices: &[Splice],
    sites: &[Site],
    enabled: &dyn Fn(u32) -> bool,
) -> Rendered {
    let active: Vec<bool> = sites.iter().map(|s| (s.base..s.base + s.count).any(enabled)).collect();
    let mut out = String::with_capacity(source.len() + splices.len() * 64);
    let mut owners = Vec::new();
    let mut site_range: Vec<Option<(usize, usize)>> = vec![None; sites.len()];
    let mut pos = 0;
    for splice in splices {
        if let Some(s) = splice.site
            && !active[s]
        {
            continue;
        }
        if splice.start < pos {
            // Discovery removes overlapping splices, and warns; never reached.
            continue;
        }
        out.push_str(&source[pos..splice.start]);
        let begin = out.len();
        for part in &splice.piece.0 {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::At => {
                    let site = &sites[splice.site.expect("a dispatch belongs to a site")];
                    out.push_str(&format!("::mutfuzz_rt::at(__m, {}, {})", site.base, site.count));
                }
                Part::Within(range) => {
                    let lo = range.clone().next().map_or(0, |i| sites[i].base);
                    let hi = range.clone().next_back().map_or(lo, |i| sites[i].base + sites[i].count);
                    out.push_str(&format!("{lo}, {}", hi - lo));
                }
                Part::Arms(arms, probe) => {
                    let site = &sites[splice.site.expect("a dispatch belongs to a site")];
                    let at = if probe.is_some() { "at_probe" } else { "at" };
                    out.push_str(&format!(
                        "match ::mutfuzz_rt::{at}(__m, {}, {}) {{ ",
                        site.base, site.count
                    ));
                    let ids =
                        || (0..arms.len()).map(|k| (k, site.base + k as u32)).filter(|&(_, id)| enabled(id));
                    for (k, id) in ids() {
                        let arm_start = out.len();
                        out.push_str(&format!("{} => {}", k + 1, arms[k]));
                        owners.push((arm_start..out.len(), Owner::Mutant(id)));
                        out.push_str(", ");
                    }
                    match probe {
                        None => {}
                        Some(Probe::Compare { original }) => {
                            // Both operands go to the comparison feedback first (a no-op unless it is on).
                            out.push_str(&format!(
                                "::mutfuzz_rt::PROBE => {{ ::mutfuzz_rt::compared(__l, __r); let __o = {original}; "
                            ));
                            for (k, id) in ids() {
                                // The arm's own code again: an error in it is that mutant's.
                                out.push_str(&format!("::mutfuzz_rt::infect_bool({id}, "));
                                let arm_start = out.len();
                                out.push_str(&format!("({})", arms[k]));
                                owners.push((arm_start..out.len(), Owner::Mutant(id)));
                                out.push_str(", __o); ");
                            }
                            out.push_str("__o }, ");
                        }
                        // Written after the hole, by `Part::ForcedTail`.
                        Some(Probe::Forced) => {}
                        Some(Probe::Arith { op, replacements, original }) => {
                            let alternatives: Vec<String> =
                                ids().map(|(k, id)| format!("({id}, \"{}\")", replacements[k])).collect();
                            out.push_str(&format!(
                                "::mutfuzz_rt::PROBE => {{ ::mutfuzz_rt::arith(&__l, &__r, \"{op}\", &[{}]); {original} }}, ",
                                alternatives.join(", ")
                            ));
                        }
                    }
                    if matches!(probe, Some(Probe::Forced)) {
                        // The user's condition follows, evaluated in this arm only.
                        out.push_str("__k => { let __o: bool = ");
                    } else {
                        out.push_str("_ => ");
                    }
                }
                Part::ForcedTail(arms) => {
                    let site = &sites[splice.site.expect("a probe belongs to a site")];
                    out.push_str("; if __k == ::mutfuzz_rt::PROBE { ");
                    for (k, arm) in arms.iter().enumerate() {
                        let id = site.base + k as u32;
                        if enabled(id) {
                            out.push_str(&format!("::mutfuzz_rt::infect_bool({id}, ({arm}), __o); "));
                        }
                    }
                    out.push_str("} __o");
                }
            }
        }
        // Keep every line where it was.
        for _ in source[splice.start..splice.end].matches('\n') {
            out.push('\n');
        }
        if let Some(s) = splice.site {
            let r = site_range[s].get_or_insert((begin, out.len()));
            r.1 = out.len();
        }
        pos = splice.end;
    }
    out.push_str(&source[pos..]);
    for (i, r) in site_range.into_iter().enumerate() {
        if let Some((start, end)) = r {
            owners.push((start..end, Owner::Site(i)));
        }
    }
    Rendered { text: out, owners }
}
