//! The mutant table: every mutant of the catalog indexed by site, with what the
//! campaign knows of each (target, seen, runs, killed, infected by a saved input) and
//! which sites saved inputs cover.
//!
//! Selectors read it to choose a trial's mutants; the campaign is its only writer.
//! Mutants are addressed by their *index* in the catalog (a `u32`, so the per-trial
//! list of mutants to run stays small); ids appear only at the edges (records, events).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use mutfuzz_contract::KillKind;
use serde::{Deserialize, Serialize};

use crate::error::Error;

/// What the engine needs to know of a mutant: its id and its site's base id.
///
/// Deserializes from the entries of a `mutants.json` catalog, ignoring other fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MutantInfo {
    /// Stable mutant id, from 1.
    pub id: u32,
    /// Id of the first mutant of this mutant's site (the site's base id).
    pub site: u32,
    /// Whether its site has an infection probe (the catalog's `probe`).
    #[serde(default)]
    pub probe: bool,
}

impl MutantInfo {
    /// A mutant whose site has no infection probe.
    pub const fn new(id: u32, site: u32) -> MutantInfo {
        MutantInfo { id, site, probe: false }
    }

    /// Parses a `mutants.json` catalog (a JSON array of mutants).
    pub fn from_json(text: &str) -> Result<Vec<MutantInfo>, Error> {
        serde_json::from_str(text).map_err(|e| Error::Catalog(format!("mutant catalog is not valid: {e}")))
    }

    /// Reads a `mutants.json` catalog.
    pub fn load(path: &Path) -> Result<Vec<MutantInfo>, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        MutantInfo::from_json(&text).map_err(|e| Error::Catalog(format!("{}: {e}", path.display())))
    }
}

/// One mutant's state in the campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MutantStatus {
    /// The mutant.
    pub info: MutantInfo,
    /// Whether its site was hit by the original on some input.
    pub seen: bool,
    /// How many times it ran.
    pub runs: u64,
    /// How it was killed, if it was.
    pub killed: Option<KillKind>,
    /// Whether it is one of the campaign's targets (every mutant, unless
    /// [`CampaignConfig::targets`](crate::CampaignConfig::targets) names some).
    pub target: bool,
}

/// The catalog's mutants by site, and their state.
///
/// ```
/// use mutfuzz::{MutantInfo, MutantTable};
///
/// // Site 1 has mutants 1 and 2, site 3 has mutant 3.
/// let catalog = [(1, 1), (2, 1), (3, 3)].map(|(id, site)| MutantInfo::new(id, site));
/// let mut table = MutantTable::new(catalog.to_vec()).unwrap();
/// assert_eq!(table.at_site(1), &[0, 1]);
/// assert_eq!(table.see(&[3]), 1); // one site no saved input covers yet
/// table.kill(2, mutfuzz::KillKind::Panic);
/// assert_eq!((table.seen_count(), table.killed_count()), (1, 1));
/// ```
#[derive(Clone, Debug)]
pub struct MutantTable {
    mutants: Vec<MutantInfo>,
    /// Mutant indices sorted by site, and per site id the start of its run in `by_site`
    /// (a flat counting-sort table: no allocation per site).
    by_site: Vec<u32>,
    site_start: Vec<u32>,
    killed: Vec<Option<KillKind>>,
    seen: Vec<bool>,
    runs: Vec<u64>,
    /// Per site id: whether a saved input hit it.
    covered: Vec<bool>,
    /// Whether each mutant may run at all: the campaign's targets.
    target: Vec<bool>,
    /// The infection classes (`mutfuzz_rt::class` bits) in which saved inputs' recording
    /// runs infected each mutant (the `infection` guidance's feedback).
    infected_kept: Vec<u8>,
    /// Killed and seen mutants among the targets only: the counts a campaign reports.
    killed_count: usize,
    seen_count: usize,
    target_count: usize,
    /// The largest mutant id plus one.
    id_bound: usize,
}

impl MutantTable {
    /// Indexes a catalog; refuses ids of 0, duplicate ids, and sites after their mutants.
    pub fn new(mutants: Vec<MutantInfo>) -> Result<MutantTable, Error> {
        let mut ids = std::collections::HashSet::new();
        for m in &mutants {
            if m.id == 0 || m.site == 0 || m.site > m.id || m.id > mutfuzz_rt::MAX_MUTANT_ID {
                return Err(Error::Catalog(format!(
                    "mutant {} has site {}: ids start at 1 and a site's base id is at most its mutants' ids",
                    m.id, m.site
                )));
            }
            if !ids.insert(m.id) {
                return Err(Error::Catalog(format!("mutant id {} appears twice in the catalog", m.id)));
            }
        }
        let sites = mutants.iter().map(|m| m.site).max().unwrap_or(0) as usize + 1;
        let mut site_start = vec![0u32; sites + 1];
        for m in &mutants {
            site_start[m.site as usize + 1] += 1;
        }
        for i in 1..site_start.len() {
            site_start[i] += site_start[i - 1];
        }
        let mut next = site_start.clone();
        let mut by_site = vec![0u32; mutants.len()];
        for (i, m) in mutants.iter().enumerate() {
            let slot = &mut next[m.site as usize];
            by_site[*slot as usize] = i as u32;
            *slot += 1;
        }
        let n = mutants.len();
        let id_bound = mutants.iter().map(|m| m.id as usize + 1).max().unwrap_or(1);
        Ok(MutantTable {
            mutants,
            by_site,
            site_start,
            killed: vec![None; n],
            seen: vec![false; n],
            runs: vec![0; n],
            covered: vec![false; sites],
            target: vec![true; n],
            infected_kept: vec![0; n],
            killed_count: 0,
            seen_count: 0,
            target_count: n,
            id_bound,
        })
    }

    /// Makes the mutants with the ids `ids` the only targets: no other is ever selected
    /// to run, seen or killed in the counts. Call it before anything is seen or killed.
    /// Returns the ids of `ids` that are not in the catalog (ignored), increasing.
    pub fn restrict_to(&mut self, ids: &BTreeSet<u32>) -> Vec<u32> {
        let mut known = BTreeSet::new();
        for (i, m) in self.mutants.iter().enumerate() {
            self.target[i] = ids.contains(&m.id);
            if self.target[i] {
                known.insert(m.id);
            }
        }
        self.target_count = known.len();
        ids.difference(&known).copied().collect()
    }

    /// Whether mutant `index` is one of the targets.
    #[inline]
    pub fn is_target(&self, index: u32) -> bool {
        self.target[index as usize]
    }

    /// How many mutants are targets (all of them unless [`restrict_to`](Self::restrict_to)).
    pub fn target_count(&self) -> usize {
        self.target_count
    }

    /// The largest mutant id plus one: the size of a table indexed by mutant id (the
    /// run-time's infection marks).
    pub fn id_bound(&self) -> usize {
        self.id_bound
    }

    /// Whether a saved input infected mutant `index`.
    #[inline]
    pub fn infected_by_saved(&self, index: u32) -> bool {
        self.infected_kept[index as usize] != 0
    }

    /// The infection classes in which saved inputs infected mutant `index`.
    #[inline]
    pub fn saved_infection_classes(&self, index: u32) -> u8 {
        self.infected_kept[index as usize]
    }

    /// Records that a saved input infected mutant `index` in the `classes`; returns
    /// whether it is the first saved input to infect it at all.
    pub fn infect_saved(&mut self, index: u32, classes: u8) -> bool {
        let kept = &mut self.infected_kept[index as usize];
        let first = *kept == 0;
        *kept |= classes;
        first
    }

    /// Number of mutants.
    pub fn len(&self) -> usize {
        self.mutants.len()
    }

    /// Whether the catalog is empty.
    pub fn is_empty(&self) -> bool {
        self.mutants.is_empty()
    }

    /// The largest site id plus one: the size of a table indexed by site id.
    pub fn site_ids(&self) -> usize {
        self.covered.len()
    }

    /// The mutant at catalog index `index`.
    pub fn info(&self, index: u32) -> MutantInfo {
        self.mutants[index as usize]
    }

    /// The catalog indices of the mutants of site `site` (empty for an unknown site).
    #[inline]
    pub fn at_site(&self, site: u32) -> &[u32] {
        let s = site as usize;
        match (self.site_start.get(s), self.site_start.get(s + 1)) {
            (Some(&lo), Some(&hi)) => &self.by_site[lo as usize..hi as usize],
            _ => &[],
        }
    }

    /// How mutant `index` was killed, if it was.
    #[inline]
    pub fn killed(&self, index: u32) -> Option<KillKind> {
        self.killed[index as usize]
    }

    /// Whether a saved input hit site `site`.
    pub fn is_covered(&self, site: u32) -> bool {
        self.covered.get(site as usize).copied().unwrap_or(false)
    }

    /// Targets killed so far.
    pub fn killed_count(&self) -> usize {
        self.killed_count
    }

    /// Targets whose site the original hit on some input.
    pub fn seen_count(&self) -> usize {
        self.seen_count
    }

    /// Catalog index of each mutant id (for reading records back; not for the trial path).
    pub fn index_by_id(&self) -> HashMap<u32, u32> {
        self.mutants.iter().enumerate().map(|(i, m)| (m.id, i as u32)).collect()
    }

    /// Marks the mutants of the sites `hits` as seen; returns how many of those sites no
    /// saved input covers yet.
    pub fn see(&mut self, hits: &[u32]) -> usize {
        let mut new_sites = 0;
        for &site in hits {
            let Some(&covered) = self.covered.get(site as usize) else { continue };
            new_sites += usize::from(!covered);
            let s = site as usize;
            let (lo, hi) = (self.site_start[s] as usize, self.site_start[s + 1] as usize);
            for &mi in &self.by_site[lo..hi] {
                let seen = &mut self.seen[mi as usize];
                self.seen_count += usize::from(!*seen && self.target[mi as usize]);
                *seen = true;
            }
        }
        new_sites
    }

    /// Marks the sites `hits` as covered by a saved input.
    pub fn cover(&mut self, hits: &[u32]) {
        for &site in hits {
            if let Some(c) = self.covered.get_mut(site as usize) {
                *c = true;
            }
        }
    }

    /// How many times mutant `index` ran.
    #[inline]
    pub fn runs(&self, index: u32) -> u64 {
        self.runs[index as usize]
    }

    /// Counts one run of mutant `index`.
    #[inline]
    pub fn ran(&mut self, index: u32) {
        self.runs[index as usize] += 1;
    }

    /// Records mutant `index` killed; returns `false` (and changes nothing) when it
    /// already was.
    pub fn kill(&mut self, index: u32, kind: KillKind) -> bool {
        let slot = &mut self.killed[index as usize];
        if slot.is_some() {
            return false;
        }
        *slot = Some(kind);
        self.killed_count += usize::from(self.target[index as usize]);
        true
    }

    /// Records that mutant `index`, killed before, later crashed or hung the process (a
    /// second record in `kills.jsonl`): from now on it counts as killed that way, so it is
    /// never run again.
    pub fn ended_process(&mut self, index: u32, kind: KillKind) {
        let slot = &mut self.killed[index as usize];
        if slot.is_some() && matches!(kind, KillKind::Crash | KillKind::Timeout) {
            *slot = Some(kind);
        }
    }

    /// The surviving targets of the sites `hits` (what execution pruning would run).
    pub(crate) fn surviving_at(&self, hits: &[u32]) -> u64 {
        hits.iter()
            .map(|&s| {
                let surviving = |&&mi: &&u32| self.is_target(mi) && self.killed(mi).is_none();
                self.at_site(s).iter().filter(surviving).count() as u64
            })
            .sum()
    }

    /// Puts in `out` the probed, surviving targets of the sites `hits` that the
    /// original's last recording run infected in a class (which way the value differs)
    /// no saved input infected them in, with those classes; returns how many. Reads the
    /// marks as [`InfectionPruning`](crate::InfectionPruning) does: no lock, and
    /// no allocation past the buffer's capacity (the catalog's size).
    pub(crate) fn new_infections(&self, hits: &[u32], out: &mut Vec<(u32, u8)>) -> usize {
        out.clear();
        for &site in hits {
            for &mi in self.at_site(site) {
                let info = self.info(mi);
                if !info.probe || !self.is_target(mi) || self.killed(mi).is_some() {
                    continue;
                }
                let new = mutfuzz_rt::infection_classes(info.id) & !self.saved_infection_classes(mi);
                if new != 0 {
                    out.push((mi, new));
                }
            }
        }
        out.len()
    }

    /// Puts in `out` every probed, surviving target of the sites `hits` that the
    /// original's last recording run infected (in any class).
    pub(crate) fn infected_targets(&self, hits: &[u32], out: &mut Vec<u32>) {
        out.clear();
        for &site in hits {
            for &mi in self.at_site(site) {
                let info = self.info(mi);
                if info.probe
                    && self.is_target(mi)
                    && self.killed(mi).is_none()
                    && mutfuzz_rt::infected(info.id)
                {
                    out.push(mi);
                }
            }
        }
    }

    /// Every mutant's state, in catalog order.
    pub fn statuses(&self) -> impl Iterator<Item = MutantStatus> + '_ {
        self.mutants.iter().enumerate().map(|(i, &info)| MutantStatus {
            info,
            seen: self.seen[i],
            runs: self.runs[i],
            killed: self.killed[i],
            target: self.target[i],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(pairs: &[(u32, u32)]) -> MutantTable {
        MutantTable::new(pairs.iter().map(|&(id, site)| MutantInfo::new(id, site)).collect()).unwrap()
    }

    #[test]
    fn the_catalog_reads_id_and_site_and_ignores_the_rest() {
        let json = r#"[{"id": 1, "site": 1, "file": "src/lib.rs", "operator": "x"},
                       {"id": 2, "site": 1, "description": "replace + with -"}]"#;
        let m = MutantInfo::from_json(json).unwrap();
        assert_eq!(m, [MutantInfo::new(1, 1), MutantInfo::new(2, 1)]);
        assert!(MutantInfo::from_json("{").unwrap_err().to_string().contains("not valid"));
    }

    #[test]
    fn mutants_are_grouped_by_site_whatever_the_catalog_order() {
        let t = table(&[(5, 5), (1, 1), (6, 5), (2, 1), (9, 9)]);
        assert_eq!(t.at_site(1), &[1, 3]);
        assert_eq!(t.at_site(5), &[0, 2]);
        assert_eq!(t.at_site(9), &[4]);
        assert!(t.at_site(2).is_empty());
        assert!(t.at_site(1000).is_empty());
        assert_eq!(t.site_ids(), 10);
    }

    #[test]
    fn bad_catalogs_are_refused() {
        let bad = |pairs: &[(u32, u32)]| {
            MutantTable::new(pairs.iter().map(|&(id, site)| MutantInfo::new(id, site)).collect()).unwrap_err()
        };
        assert!(bad(&[(0, 0)]).to_string().contains("ids start at 1"));
        assert!(bad(&[(2, 3)]).to_string().contains("ids start at 1"));
        assert!(bad(&[(1, 1), (1, 1)]).to_string().contains("appears twice"));
    }

    #[test]
    fn restricted_to_targets_the_counts_are_of_targets_only() {
        let mut t = table(&[(1, 1), (2, 1), (3, 3), (7, 3)]);
        assert_eq!((t.target_count(), t.id_bound()), (4, 8));
        let ids = [2, 7, 9].into_iter().collect();
        assert_eq!(t.restrict_to(&ids), [9], "9 is not in the catalog");
        assert_eq!(t.target_count(), 2);
        assert_eq!((0..4).map(|i| t.is_target(i)).collect::<Vec<_>>(), [false, true, false, true]);
        assert_eq!(t.see(&[1, 3]), 2, "new sites count whatever their mutants");
        assert_eq!(t.seen_count(), 2);
        assert!(t.kill(0, KillKind::Panic), "a mutant not targeted (a kill read back) is recorded");
        assert!(t.kill(1, KillKind::Panic));
        assert_eq!(t.killed_count(), 1);
        let targets: Vec<u32> = t.statuses().filter(|s| s.target).map(|s| s.info.id).collect();
        assert_eq!(targets, [2, 7]);
        assert!(!t.infected_by_saved(3));
        assert!(t.infect_saved(3, 0b10));
        assert!(!t.infect_saved(3, 0b100), "a second class of a mutant already infected");
        assert!(t.infected_by_saved(3) && !t.infected_by_saved(1));
        assert_eq!(t.saved_infection_classes(3), 0b110);
    }

    #[test]
    fn seeing_covering_and_killing_count_each_mutant_once() {
        let mut t = table(&[(1, 1), (2, 1), (3, 3)]);
        assert_eq!(t.see(&[1, 3, 77]), 2, "77 is no site of the catalog");
        assert_eq!(t.see(&[1]), 1, "seen is not covered");
        t.cover(&[1]);
        assert_eq!(t.see(&[1, 3]), 1);
        assert!(t.is_covered(1) && !t.is_covered(3));
        assert_eq!(t.seen_count(), 3);
        assert!(t.kill(1, KillKind::OutputDiffers));
        assert!(!t.kill(1, KillKind::Panic), "the first kill stays");
        t.ran(1);
        t.ran(1);
        let s: Vec<_> = t.statuses().collect();
        assert_eq!(s[1].killed, Some(KillKind::OutputDiffers));
        assert_eq!(s[1].runs, 2);
        assert_eq!(t.killed_count(), 1);
        assert_eq!(t.index_by_id()[&3], 2);
    }
}
