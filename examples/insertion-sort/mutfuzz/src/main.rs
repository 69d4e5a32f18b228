//! Differential fuzz targets for `insertion-sort` (the Mu2 paper's Fig. 3 driver): each
//! target returns the sorted output, and a mutant is killed when its output differs.

use mutfuzz::Gen;

/// A record with a small key (so equal keys are common) and a tag that shows the order
/// equal keys end up in: a stable sort keeps the tags of equal keys in input order.
#[derive(Debug, Gen)]
struct Record {
    #[mutfuzz(range = 0..=3)]
    key: u8,
    tag: u8,
}

/// The paper's driver: sort the generated array, return it.
fn sort(v: Vec<i64>) -> Vec<i64> {
    insertion_sort::sorted(v)
}

/// The generic swapping sort on bytes.
fn sort_generic(mut v: Vec<u8>) -> Vec<u8> {
    insertion_sort::insertion_sort_generic(&mut v);
    v
}

/// Stable sort by key: the output shows whether equal keys kept their order.
fn sort_by_key(records: Vec<Record>) -> Vec<(u8, u8)> {
    let mut pairs: Vec<(u8, u8)> = records.iter().map(|r| (r.key, r.tag)).collect();
    insertion_sort::insertion_sort_by_key(&mut pairs, |p| p.0);
    pairs
}

/// Descending sort of small numbers.
fn sort_desc(mut v: Vec<i8>) -> Vec<i8> {
    insertion_sort::insertion_sort_desc(&mut v);
    v
}

/// Binary insertion sort on records (stable too), plus the inversion count of the input.
fn binary_sort(records: Vec<Record>) -> (usize, Vec<(u8, u8)>) {
    let keys: Vec<u8> = records.iter().map(|r| r.key).collect();
    let inversions = insertion_sort::inversions(&keys);
    let mut pairs: Vec<(u8, u8)> = records.iter().map(|r| (r.key, r.tag)).collect();
    // Compare by key only, through a wrapper whose order ignores the tag.
    let mut keyed: Vec<ByKey> = pairs.drain(..).map(ByKey).collect();
    insertion_sort::binary_insertion_sort(&mut keyed);
    (inversions, keyed.into_iter().map(|k| k.0).collect())
}

/// Orders a `(key, tag)` pair by its key alone.
#[derive(Debug)]
struct ByKey((u8, u8));

impl PartialEq for ByKey {
    fn eq(&self, other: &Self) -> bool {
        self.0 .0 == other.0 .0
    }
}

impl Eq for ByKey {}

impl PartialOrd for ByKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0 .0.cmp(&other.0 .0)
    }
}

mutfuzz::targets!(sort, sort_generic, sort_by_key, sort_desc, binary_sort);
