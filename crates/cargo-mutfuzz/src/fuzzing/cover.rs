//! Greedy set cover, the smallest candidate first on ties: the inputs `cmin` keeps (their
//! coverage and kills the elements), and the tests `amplify` keeps (a small set of shrunk
//! inputs such that every survivor some input kills keeps one killing test).

use std::collections::BTreeSet;

/// One candidate: its size (bytes of its input) and what it covers: the survivors it
/// kills (for `cmin`, its coverage and kills).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate<T, K = u32> {
    pub item: T,
    pub size: usize,
    pub kills: BTreeSet<K>,
}

/// Picks candidates until no pick kills a survivor not yet killed; each pick kills the
/// most survivors not yet killed, the smaller input first among equals.
pub fn choose<T: Clone, K: Ord + Clone>(candidates: &[Candidate<T, K>]) -> Vec<Candidate<T, K>> {
    let mut covered = BTreeSet::new();
    let mut chosen = Vec::new();
    let mut left: Vec<&Candidate<T, K>> = candidates.iter().collect();
    left.sort_by_key(|c| c.size);
    loop {
        let best = left
            .iter()
            .enumerate()
            .map(|(i, c)| (i, c.kills.difference(&covered).count()))
            .filter(|(_, n)| *n > 0)
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)));
        let Some((i, _)) = best else { break };
        let c = left.remove(i);
        covered.extend(c.kills.iter().cloned());
        chosen.push(c.clone());
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(item: &'static str, size: usize, kills: &[u32]) -> Candidate<&'static str> {
        Candidate { item, size, kills: kills.iter().copied().collect() }
    }

    #[test]
    fn every_killed_survivor_keeps_one_test_the_smallest_first() {
        let all = [
            c("big", 40, &[1, 2, 3]),
            c("small", 4, &[1, 2, 3]),
            c("one", 2, &[4]),
            c("dup", 9, &[4]),
            c("none", 1, &[]),
        ];
        let picked: Vec<&str> = choose(&all).iter().map(|c| c.item).collect();
        assert_eq!(picked, ["small", "one"]);
    }
}
