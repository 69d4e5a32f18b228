//! SpotOn's type targeting: the influencing types of the branches that no saved input
//! has covered yet, each with a distance; an edit picks one of them (weighted by inverse
//! distance), looks for a span of that type in the parent, and edits only inside it.
//! A type found gets closer (distance × 3/4), a type not found farther (× 4/3).

use mutfuzz_contract::Hints;

use super::Parent;
use super::geometric;
use crate::input::Rng;
use crate::mutants::MutantTable;

/// The last path segment of a type name without its generic arguments:
/// `my_crate::model::Item` → `Item`, `alloc::vec::Vec<my_crate::Item>` → `Vec`.
pub fn short_type_name(name: &str) -> &str {
    let base = name.split('<').next().unwrap_or(name);
    base.rsplit("::").next().unwrap_or(base)
}

/// The smallest distance a type can reach by being found (its weight at most 1/0.125 = 8
/// times that of a type at distance 1).
const MIN_DISTANCE: f64 = 0.125;

/// Influencing types with their distances, and which branches are still uncovered.
#[derive(Clone, Debug)]
pub struct TypeTargets {
    /// Type names (short) and their current distances.
    types: Vec<(String, f64)>,
    /// Per branch: its sites, and the indices of its types.
    branches: Vec<(Vec<u32>, Vec<usize>)>,
    /// Per type: whether some uncovered branch has it.
    live: Vec<bool>,
    /// Children made inside a span of a picked type, and picks that found none.
    pub(crate) matched: u64,
    pub(crate) missed: u64,
}

impl TypeTargets {
    /// The targets of a static pass, distances unified across branches as SpotOn does:
    /// a type in several branches takes its distance in the branch with the most types.
    pub fn new(hints: &Hints) -> TypeTargets {
        let mut types: Vec<(String, f64)> = Vec::new();
        // Per type: the size of the branch its distance came from.
        let mut from: Vec<usize> = Vec::new();
        let mut branches = Vec::new();
        for b in &hints.branches {
            let mut own = Vec::new();
            let kept: Vec<_> =
                b.types.iter().filter(|t| !mutfuzz_contract::is_common_type(&t.name)).collect();
            for t in kept.iter().copied() {
                let k = match types.iter().position(|(n, _)| *n == t.name) {
                    Some(k) => {
                        if kept.len() > from[k] {
                            types[k].1 = f64::from(t.distance.max(1));
                            from[k] = kept.len();
                        }
                        k
                    }
                    None => {
                        types.push((t.name.clone(), f64::from(t.distance.max(1))));
                        from.push(kept.len());
                        types.len() - 1
                    }
                };
                own.push(k);
            }
            branches.push((b.sites.clone(), own));
        }
        let live = vec![true; types.len()];
        TypeTargets { types, branches, live, matched: 0, missed: 0 }
    }

    /// Number of influencing types.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether there is no influencing type.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// The current distance of a type, by its short name.
    pub fn distance(&self, name: &str) -> Option<f64> {
        self.types.iter().find(|(n, _)| n == name).map(|&(_, d)| d)
    }

    /// Recomputes which types belong to uncovered branches: a branch is covered once a
    /// saved input reached every site in the code it guards (a branch without sites
    /// there counts as uncovered). When every branch is covered, every type stays live.
    pub fn update_coverage(&mut self, table: &MutantTable) {
        self.live.iter_mut().for_each(|l| *l = false);
        let mut any = false;
        for (sites, types) in &self.branches {
            if sites.is_empty() || sites.iter().any(|&s| !table.is_covered(s)) {
                any = true;
                for &k in types {
                    self.live[k] = true;
                }
            }
        }
        if !any {
            self.live.iter_mut().for_each(|l| *l = true);
        }
    }

    /// Picks a live type by inverse distance and a span of that type in `parent`; updates
    /// the type's distance (× 3/4 found, × 4/3 not). The span's index, if one was found.
    pub fn pick_span(&mut self, parent: &Parent, rng: &mut Rng) -> Option<usize> {
        let total: f64 =
            self.types.iter().zip(&self.live).filter(|(_, l)| **l).map(|((_, d), _)| 1.0 / d).sum();
        if total <= 0.0 {
            return None;
        }
        let mut x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        let mut pick = None;
        for (k, ((_, d), live)) in self.types.iter().zip(&self.live).enumerate() {
            if !*live {
                continue;
            }
            x -= 1.0 / d;
            pick = Some(k);
            if x <= 0.0 {
                break;
            }
        }
        let k = pick?;
        let len = parent.input.len();
        let name = self.types[k].0.as_str();
        let count = parent
            .spans
            .iter()
            .filter(|s| !s.is_empty() && s.end <= len && short_type_name(s.type_name) == name)
            .count();
        if count == 0 {
            // Bounded, so that a type absent for a while can come back.
            self.types[k].1 = (self.types[k].1 * 4.0 / 3.0).min(1e6);
            self.missed += 1;
            return None;
        }
        let nth = rng.below(count as u64) as usize;
        let found = parent
            .spans
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.is_empty() && s.end <= len && short_type_name(s.type_name) == name)
            .nth(nth)
            .map(|(i, _)| i);
        // Bounded too: a type present in every input (the top-level one, a common
        // element) would otherwise shrink towards zero and take every pick.
        self.types[k].1 = (self.types[k].1 * 3.0 / 4.0).max(MIN_DISTANCE);
        self.matched += 1;
        found
    }
}

/// Zest's havoc confined to the bytes of one span: a geometric number of runs of random
/// bytes (or zeros), each inside `start..end`.
pub fn havoc_in(out: &mut [u8], start: usize, end: usize, rng: &mut Rng) {
    let len = end.saturating_sub(start).min(out.len().saturating_sub(start));
    if len == 0 {
        return;
    }
    let zero = rng.chance(0.1);
    for _ in 0..geometric(rng, 4.0) {
        let at = start + rng.below(len as u64) as usize;
        let n = geometric(rng, 4.0).min(start + len - at);
        let run = &mut out[at..at + n];
        if zero {
            run.fill(0);
        } else {
            rng.fill_bytes(run);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::dictionary::tests::entry_of;
    use crate::mutants::MutantInfo;
    use mutfuzz_contract::{Branch, TypeDistance};

    // Only generated, never read: their spans are what the tests look at.
    #[allow(dead_code)]
    #[derive(Debug, crate::Gen)]
    struct Header {
        version: u8,
    }

    #[allow(dead_code)]
    #[derive(Debug, crate::Gen)]
    struct Doc {
        header: Header,
        pixels: Vec<u32>,
    }

    fn hints() -> Hints {
        let t = |name: &str, distance| TypeDistance { name: name.into(), distance };
        Hints {
            branches: vec![
                Branch { file: "a.rs".into(), line: 1, sites: vec![1], types: vec![t("Header", 1)] },
                Branch {
                    file: "a.rs".into(),
                    line: 2,
                    sites: vec![2],
                    types: vec![t("Header", 4), t("Missing", 1)],
                },
            ],
            ..Hints::default()
        }
    }

    #[test]
    fn short_type_names_drop_paths_and_generic_arguments() {
        assert_eq!(short_type_name("my_crate::model::Item"), "Item");
        assert_eq!(short_type_name("alloc::vec::Vec<my_crate::Item>"), "Vec");
        assert_eq!(short_type_name("u8"), "u8");
    }

    #[test]
    fn primitive_string_and_container_types_are_not_targets_as_in_spoton() {
        let t = |name: &str| TypeDistance { name: name.into(), distance: 1 };
        let hints = Hints {
            branches: vec![Branch {
                file: "a.rs".into(),
                line: 1,
                sites: vec![1],
                types: vec![t("u8"), t("String"), t("Vec"), t("bool"), t("(u8, u8)"), t("Header")],
            }],
            ..Hints::default()
        };
        let targets = TypeTargets::new(&hints);
        assert_eq!(targets.len(), 1);
        assert_eq!(targets.distance("Header"), Some(1.0));
        assert_eq!(targets.distance("u8"), None);
    }

    #[test]
    fn a_type_takes_its_distance_from_the_branch_with_the_most_types() {
        let t = TypeTargets::new(&hints());
        assert_eq!(t.distance("Header"), Some(4.0));
        assert_eq!(t.distance("Missing"), Some(1.0));
    }

    #[test]
    fn found_types_get_closer_and_missing_ones_farther() {
        let mut t = TypeTargets::new(&hints());
        let (_, parent, spans) = entry_of::<Doc>(5);
        let parent = Parent::new(&parent, &spans);
        let mut rng = Rng::new(2);
        for _ in 0..50 {
            if let Some(i) = t.pick_span(&parent, &mut rng) {
                assert_eq!(short_type_name(parent.spans[i].type_name), "Header");
            }
        }
        assert!(t.matched > 0 && t.missed > 0);
        assert!(t.distance("Header").unwrap() < 4.0);
        assert!(t.distance("Missing").unwrap() > 1.0);
    }

    #[test]
    fn only_types_of_uncovered_branches_are_picked() {
        let mut t = TypeTargets::new(&hints());
        let mut table = MutantTable::new(vec![MutantInfo::new(1, 1), MutantInfo::new(2, 2)]).unwrap();
        table.cover(&[2]);
        t.update_coverage(&table);
        let (_, parent, spans) = entry_of::<Doc>(6);
        let parent = Parent::new(&parent, &spans);
        let mut rng = Rng::new(3);
        for _ in 0..40 {
            t.pick_span(&parent, &mut rng);
        }
        // Branch 2 is covered: "Missing" is never picked, so it never misses.
        assert_eq!(t.missed, 0);
        assert_eq!(t.matched, 40);
    }

    #[test]
    fn havoc_in_a_span_leaves_every_other_byte() {
        let mut out = vec![7u8; 32];
        let mut rng = Rng::new(9);
        for _ in 0..50 {
            havoc_in(&mut out, 10, 14, &mut rng);
        }
        assert!(out[..10].iter().chain(&out[14..]).all(|&b| b == 7));
        assert!(out[10..14].iter().any(|&b| b != 7));
    }
}
