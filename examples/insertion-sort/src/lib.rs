//! Insertion sort, the running example of the Mu2 paper (Fig. 2), in a few flavours:
//! the paper's shifting version on `i64` slices, a generic swapping version with a
//! comparator (stable, so it can sort records by key), and binary insertion sort.
//!
//! It is a benchmark crate for mutfuzz: its unit tests check the obvious cases, and a
//! differential harness (`mutfuzz/`) compares every mutant's output with the original's.

use std::cmp::Ordering;

/// Sorts `arr` in ascending order, shifting larger elements right (the paper's Fig. 2).
pub fn insertion_sort(arr: &mut [i64]) {
    for j in 1..arr.len() {
        let key = arr[j];
        let mut i = j;
        while i > 0 && key < arr[i - 1] {
            arr[i] = arr[i - 1];
            i -= 1;
        }
        arr[i] = key;
    }
}

/// Returns `v` sorted in ascending order.
pub fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    insertion_sort(&mut v);
    v
}

/// Sorts `v` with the comparator `cmp`, keeping equal elements in their original order.
pub fn insertion_sort_by<T, F>(v: &mut [T], mut cmp: F)
where
    F: FnMut(&T, &T) -> Ordering,
{
    for j in 1..v.len() {
        let mut i = j;
        while i > 0 && cmp(&v[i - 1], &v[i]) == Ordering::Greater {
            v.swap(i - 1, i);
            i -= 1;
        }
    }
}

/// Sorts any totally ordered elements in ascending order.
pub fn insertion_sort_generic<T: Ord>(v: &mut [T]) {
    insertion_sort_by(v, |a, b| a.cmp(b));
}

/// Sorts `v` by the key `key` extracts, stably.
pub fn insertion_sort_by_key<T, K: Ord, F>(v: &mut [T], mut key: F)
where
    F: FnMut(&T) -> K,
{
    insertion_sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` in descending order.
pub fn insertion_sort_desc<T: Ord>(v: &mut [T]) {
    insertion_sort_by(v, |a, b| b.cmp(a));
}

/// Binary insertion sort: finds each element's place by binary search, then rotates it in.
///
/// Stable: an element goes after every equal element already placed.
pub fn binary_insertion_sort<T: Ord>(v: &mut [T]) {
    for j in 1..v.len() {
        let pos = upper_bound(&v[..j], &v[j]);
        v[pos..=j].rotate_right(1);
    }
}

/// The index of the first element of the sorted `v` that is greater than `x`.
pub fn upper_bound<T: Ord>(v: &[T], x: &T) -> usize {
    let mut lo = 0;
    let mut hi = v.len();
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if v[mid] <= *x {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Whether `v` is in ascending order.
pub fn is_sorted<T: Ord>(v: &[T]) -> bool {
    v.windows(2).all(|w| w[0] <= w[1])
}

/// Counts the inversions of `v`: pairs `i < j` with `v[i] > v[j]`, the number of
/// shifts insertion sort performs.
pub fn inversions<T: Ord>(v: &[T]) -> usize {
    let mut count = 0;
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            if v[i] > v[j] {
                count += 1;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_the_papers_example() {
        let mut input = [42, 8, 23, 4, 16, 15];
        insertion_sort(&mut input);
        assert_eq!(input, [4, 8, 15, 16, 23, 42]);
    }

    #[test]
    fn sorted_handles_empty_and_single() {
        assert_eq!(sorted(vec![]), Vec::<i64>::new());
        assert_eq!(sorted(vec![7]), vec![7]);
    }

    #[test]
    fn generic_sorts_strings() {
        let mut words = vec!["pear", "apple", "fig"];
        insertion_sort_generic(&mut words);
        assert_eq!(words, ["apple", "fig", "pear"]);
    }

    #[test]
    fn by_key_sorts_by_the_key() {
        let mut pairs = vec![(3, 'a'), (1, 'b'), (2, 'c')];
        insertion_sort_by_key(&mut pairs, |p| p.0);
        assert_eq!(pairs, [(1, 'b'), (2, 'c'), (3, 'a')]);
    }

    #[test]
    fn descending() {
        let mut v = vec![1, 3, 2];
        insertion_sort_desc(&mut v);
        assert_eq!(v, [3, 2, 1]);
    }

    #[test]
    fn binary_insertion_sort_sorts() {
        let mut v = vec![5, 1, 4, 2, 3];
        binary_insertion_sort(&mut v);
        assert!(is_sorted(&v));
    }

    #[test]
    fn upper_bound_finds_the_end_of_a_run() {
        assert_eq!(upper_bound(&[1, 2, 2, 3], &2), 3);
        assert_eq!(upper_bound(&[1, 2, 3], &0), 0);
    }

    #[test]
    fn is_sorted_and_inversions() {
        assert!(is_sorted(&[1, 2, 2]));
        assert!(!is_sorted(&[2, 1]));
        assert_eq!(inversions(&[3, 2, 1]), 3);
    }
}
