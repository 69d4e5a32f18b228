//! Sites and the text edits that turn one source file into its schema.
//!
//! A schema is written by splicing text into the user's file, never by re-printing the
//! syntax tree: everything that is not a site keeps its exact bytes, and every edit keeps
//! the number of newlines it replaces, so each line of the schema is the same line of the
//! user's file. Panics and compiler messages therefore point at the user's line.

/// One place in the source where one or more mutants apply.
#[derive(Clone, Debug)]
pub struct Site {
    /// Id of the first mutant; the site's mutants are `base .. base + count`.
    pub base: u32,
    /// Number of mutants.
    pub count: u32,
}

/// A change to the source text: replace `start..end` (bytes) with a rendered piece.
#[derive(Clone, Debug)]
pub(crate) struct Edit {
    pub start: usize,
    pub end: usize,
    /// The site this edit belongs to; `None` for fuel instrumentation, which is always on.
    pub site: Option<usize>,
    pub piece: Piece,
}

/// What an edit writes.
#[derive(Clone, Debug)]
pub(crate) enum Piece {
    /// Fixed text.
    Text(String),
    /// `{before}::mutfuzz_rt::at(__m, BASE, N){after}`, for sites with one mutant.
    Call { before: String, after: String },
    /// `{head}match ::mutfuzz_rt::at(__m, BASE, N) { k => ARM_k, … _ => {default}{tail}`,
    /// with an arm for each enabled mutant only.
    Dispatch { head: String, arms: Vec<String>, default: String, tail: String },
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

/// Render `source` with `edits` (sorted by start) for the sites whose mutants pass `enabled`.
pub(crate) fn render(
    source: &str,
    edits: &[Edit],
    sites: &[Site],
    enabled: &dyn Fn(u32) -> bool,
) -> Rendered {
    let active: Vec<bool> = sites.iter().map(|s| (s.base..s.base + s.count).any(enabled)).collect();
    let mut out = String::with_capacity(source.len() + edits.len() * 64);
    let mut owners = Vec::new();
    let mut site_range: Vec<Option<(usize, usize)>> = vec![None; sites.len()];
    let mut pos = 0;
    for edit in edits {
        if let Some(s) = edit.site
            && !active[s]
        {
            continue;
        }
        if edit.start < pos {
            // Overlapping edits are dropped by discovery; never reached.
            continue;
        }
        out.push_str(&source[pos..edit.start]);
        let begin = out.len();
        match &edit.piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Call { before, after } => {
                let site = &sites[edit.site.expect("call pieces belong to sites")];
                out.push_str(before);
                out.push_str(&format!("::mutfuzz_rt::at(__m, {}, {})", site.base, site.count));
                out.push_str(after);
            }
            Piece::Dispatch { head, arms, default, tail } => {
                let site = &sites[edit.site.expect("dispatch pieces belong to sites")];
                out.push_str(head);
                out.push_str(&format!("match ::mutfuzz_rt::at(__m, {}, {}) {{ ", site.base, site.count));
                for (k, arm) in arms.iter().enumerate() {
                    let id = site.base + k as u32;
                    if enabled(id) {
                        let arm_start = out.len();
                        out.push_str(&format!("{} => {arm}", k + 1));
                        owners.push((arm_start..out.len(), Owner::Mutant(id)));
                        out.push_str(", ");
                    }
                }
                out.push_str("_ => ");
                out.push_str(default);
                out.push_str(tail);
            }
        }
        // Keep every line where it was.
        let replaced = &source[edit.start..edit.end];
        for _ in replaced.matches('\n') {
            out.push('\n');
        }
        if let Some(s) = edit.site {
            let r = site_range[s].get_or_insert((begin, out.len()));
            r.1 = out.len();
        }
        pos = edit.end;
    }
    out.push_str(&source[pos..]);
    for (i, r) in site_range.into_iter().enumerate() {
        if let Some((start, end)) = r {
            owners.push((start..end, Owner::Site(i)));
        }
    }
    Rendered { text: out, owners }
}
