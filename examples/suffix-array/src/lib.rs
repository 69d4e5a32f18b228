//! Suffix arrays over byte strings.
//!
//! [`suffix_array`] sorts the suffixes of a text by prefix doubling (O(n log² n)):
//! each round sorts the suffixes by the ranks of their first `k` and next `k` bytes,
//! doubling `k` until all ranks differ. [`lcp_array`] computes the longest common
//! prefixes of neighbouring suffixes with Kasai's algorithm (O(n)). A [`SuffixIndex`]
//! keeps both and answers substring queries by binary search over the sorted suffixes.
//!
//! It is a benchmark crate for mutfuzz.

use std::cmp::Ordering;

/// The start positions of the suffixes of `text`, in lexicographic order.
pub fn suffix_array(text: &[u8]) -> Vec<usize> {
    let n = text.len();
    let mut sa: Vec<usize> = (0..n).collect();
    let mut rank: Vec<usize> = text.iter().map(|&b| usize::from(b)).collect();
    let mut next = vec![0; n];
    let mut k = 1;
    while k < n {
        sa.sort_by_key(|&i| pair_key(&rank, i, k));
        next[sa[0]] = 0;
        for i in 1..n {
            let step = pair_key(&rank, sa[i - 1], k) < pair_key(&rank, sa[i], k);
            next[sa[i]] = next[sa[i - 1]] + usize::from(step);
        }
        rank.copy_from_slice(&next);
        if rank[sa[n - 1]] == n - 1 {
            break;
        }
        k *= 2;
    }
    sa
}

/// The sort key of suffix `i` in a doubling round: its rank, then the rank of the
/// suffix `k` further on (0 when there is none, so shorter suffixes sort first).
fn pair_key(rank: &[usize], i: usize, k: usize) -> (usize, usize) {
    let second = if i + k < rank.len() { rank[i + k] + 1 } else { 0 };
    (rank[i], second)
}

/// Kasai's algorithm: `lcp[i]` is the length of the longest common prefix of the
/// suffixes at `sa[i - 1]` and `sa[i]`; `lcp[0]` is 0.
pub fn lcp_array(text: &[u8], sa: &[usize]) -> Vec<usize> {
    let n = text.len();
    let mut rank = vec![0; n];
    for (i, &start) in sa.iter().enumerate() {
        rank[start] = i;
    }
    let mut lcp = vec![0; n];
    let mut h = 0;
    for i in 0..n {
        if rank[i] == 0 {
            h = 0;
            continue;
        }
        let j = sa[rank[i] - 1];
        while i + h < n && j + h < n && text[i + h] == text[j + h] {
            h += 1;
        }
        lcp[rank[i]] = h;
        h = h.saturating_sub(1);
    }
    lcp
}

/// A text with its suffix array and LCP array, for substring queries.
#[derive(Clone, Debug)]
pub struct SuffixIndex {
    text: Vec<u8>,
    sa: Vec<usize>,
    lcp: Vec<usize>,
}

impl SuffixIndex {
    /// Indexes `text`.
    pub fn new(text: &[u8]) -> SuffixIndex {
        let sa = suffix_array(text);
        let lcp = lcp_array(text, &sa);
        SuffixIndex { text: text.to_vec(), sa, lcp }
    }

    /// The suffix array.
    pub fn suffix_array(&self) -> &[usize] {
        &self.sa
    }

    /// The LCP array.
    pub fn lcp(&self) -> &[usize] {
        &self.lcp
    }

    /// Compares the first `pattern.len()` bytes of the suffix at `start` with `pattern`.
    fn compare_prefix(&self, start: usize, pattern: &[u8]) -> Ordering {
        let end = (start + pattern.len()).min(self.text.len());
        self.text[start..end].cmp(pattern)
    }

    /// The first rank whose suffix does not sort before `pattern`.
    fn lower_bound(&self, pattern: &[u8]) -> usize {
        let (mut lo, mut hi) = (0, self.sa.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.compare_prefix(self.sa[mid], pattern) == Ordering::Less {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The first rank whose suffix sorts after every suffix starting with `pattern`.
    fn upper_bound(&self, pattern: &[u8]) -> usize {
        let (mut lo, mut hi) = (0, self.sa.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.compare_prefix(self.sa[mid], pattern) == Ordering::Greater {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// Whether `pattern` occurs in the text (the empty pattern always does).
    pub fn contains(&self, pattern: &[u8]) -> bool {
        if pattern.is_empty() {
            return true;
        }
        let i = self.lower_bound(pattern);
        i < self.sa.len() && self.compare_prefix(self.sa[i], pattern) == Ordering::Equal
    }

    /// How many times `pattern` occurs (overlaps included); the empty pattern counts
    /// once per suffix.
    pub fn count(&self, pattern: &[u8]) -> usize {
        self.upper_bound(pattern) - self.lower_bound(pattern)
    }

    /// The start positions of every occurrence of `pattern`, ascending.
    pub fn find_all(&self, pattern: &[u8]) -> Vec<usize> {
        let mut found = self.sa[self.lower_bound(pattern)..self.upper_bound(pattern)].to_vec();
        found.sort_unstable();
        found
    }

    /// The longest substring that occurs at least twice (the leftmost in suffix order
    /// among the longest), or `None` if no byte repeats.
    pub fn longest_repeated(&self) -> Option<&[u8]> {
        let mut best = 0;
        for i in 1..self.lcp.len() {
            if self.lcp[i] > self.lcp[best] {
                best = i;
            }
        }
        let len = *self.lcp.get(best)?;
        if len == 0 {
            return None;
        }
        let start = self.sa[best];
        Some(&self.text[start..start + len])
    }

    /// The number of distinct nonempty substrings of the text.
    pub fn distinct_substrings(&self) -> usize {
        let n = self.text.len();
        n * (n + 1) / 2 - self.lcp.iter().sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_array_of_banana() {
        assert_eq!(suffix_array(b"banana"), vec![5, 3, 1, 0, 4, 2]);
    }

    #[test]
    fn suffix_array_of_short_texts() {
        assert_eq!(suffix_array(b""), Vec::<usize>::new());
        assert_eq!(suffix_array(b"a"), vec![0]);
    }

    #[test]
    fn lcp_of_banana() {
        let sa = suffix_array(b"banana");
        assert_eq!(lcp_array(b"banana", &sa), vec![0, 1, 3, 0, 0, 2]);
    }

    #[test]
    fn contains_and_count() {
        let index = SuffixIndex::new(b"mississippi");
        assert!(index.contains(b"ssi"));
        assert!(!index.contains(b"spi"));
        assert_eq!(index.count(b"ss"), 2);
        assert_eq!(index.find_all(b"i"), vec![1, 4, 7, 10]);
    }

    #[test]
    fn longest_repeated_substring() {
        assert_eq!(SuffixIndex::new(b"banana").longest_repeated(), Some(&b"ana"[..]));
        assert_eq!(SuffixIndex::new(b"abc").longest_repeated(), None);
    }

    #[test]
    fn counts_distinct_substrings() {
        assert_eq!(SuffixIndex::new(b"aaa").distinct_substrings(), 3);
    }
}
