//! Edge coverage from SanitizerCoverage's inline 8-bit counters: the callback that
//! receives the counter regions, and per-trial reading into AFL-style hit-count buckets.
//!
//! `cargo mutfuzz fuzz` builds the crate under test and its dependencies (never
//! mutfuzz's own crates) with `-Cpasses=sancov-module
//! -Cllvm-args=-sanitizer-coverage-level=3 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters`;
//! each instrumented module's constructor then calls
//! [`__sanitizer_cov_8bit_counters_init`] before `main`. A binary built without those
//! flags has no regions and reports no edges; site coverage still guides it.

use std::sync::Mutex;

/// Counter regions `(start, len)` registered by instrumented modules.
static REGIONS: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

/// Called by each instrumented module's constructor with its counters.
///
/// # Safety
/// `start..stop` must be a region of counters that stays valid for the whole process,
/// as the sanitizer-coverage instrumentation guarantees.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __sanitizer_cov_8bit_counters_init(start: *mut u8, stop: *mut u8) {
    let (s, e) = (start as usize, stop as usize);
    if e > s {
        let mut regions = REGIONS.lock().unwrap_or_else(|p| p.into_inner());
        if !regions.iter().any(|&(rs, _)| rs == s) {
            regions.push((s, e - s));
        }
    }
}

/// AFL's hit-count classes: a loop that runs 4 times and one that runs 5 look alike,
/// one that runs 1 and one that runs 2 do not.
fn bucket(count: u8) -> u8 {
    match count {
        0 => 0,
        1 => 1,
        2 => 2,
        3 => 4,
        4..=7 => 8,
        8..=15 => 16,
        16..=31 => 32,
        32..=127 => 64,
        _ => 128,
    }
}

/// The edges seen so far, as bucket bits per counter, and the reading of each run.
#[derive(Debug, Default)]
pub struct EdgeMap {
    /// Bucket bits seen on any saved input, per counter across all regions.
    seen: Vec<u8>,
    /// Bucket bits of the last run.
    last: Vec<u8>,
    /// Indices of the counters the last run hit (reused: no allocation once grown).
    hit: Vec<u32>,
}

/// What one run covered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EdgeReading {
    /// Counters (edges) that fired.
    pub edges: usize,
    /// Edges, or hit-count buckets of edges, that no saved input reached.
    pub new: usize,
}

impl EdgeMap {
    /// Whether this process has any instrumented code.
    pub fn instrumented() -> bool {
        !REGIONS.lock().unwrap_or_else(|p| p.into_inner()).is_empty()
    }

    /// Zero every counter, before a run.
    pub fn reset(&self) {
        for &(start, len) in REGIONS.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            // SAFETY: the region was registered by the instrumentation and lives as long
            // as the process; counters are plain bytes.
            unsafe { std::ptr::write_bytes(start as *mut u8, 0, len) };
        }
    }

    /// Read the counters of the run just finished: edges hit and new buckets.
    pub fn read(&mut self) -> EdgeReading {
        let regions = REGIONS.lock().unwrap_or_else(|p| p.into_inner());
        let total: usize = regions.iter().map(|r| r.1).sum();
        if self.seen.len() < total {
            self.seen.resize(total, 0);
            self.last.resize(total, 0);
        }
        let mut reading = EdgeReading::default();
        self.hit.clear();
        let mut at = 0;
        for &(start, len) in regions.iter() {
            // SAFETY: as in `reset`; other threads of the target may still write, which
            // only makes a count approximate.
            let counters = unsafe { std::slice::from_raw_parts(start as *const u8, len) };
            for (i, &c) in counters.iter().enumerate() {
                let b = bucket(c);
                self.last[at + i] = b;
                if b != 0 {
                    self.hit.push((at + i) as u32);
                    reading.edges += 1;
                    reading.new += usize::from(self.seen[at + i] & b == 0);
                }
            }
            at += len;
        }
        reading
    }

    /// The last run's hit-count bucket bits, one byte per counter (its trace).
    pub fn last(&self) -> &[u8] {
        &self.last
    }

    /// The counters the last run hit, as indices into [`last`](EdgeMap::last).
    pub fn last_hits(&self) -> &[u32] {
        &self.hit
    }

    /// Remember the last run's buckets as seen (its input was saved); returns how many
    /// edges the saved inputs now cover.
    pub fn keep_last(&mut self) -> usize {
        let mut covered = 0;
        for (s, l) in self.seen.iter_mut().zip(&self.last) {
            *s |= *l;
            covered += usize::from(*s != 0);
        }
        covered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_follow_afl() {
        let got: Vec<u8> = [0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 127, 128, 255].map(bucket).to_vec();
        assert_eq!(got, [0, 1, 2, 4, 8, 8, 16, 16, 32, 32, 64, 64, 128, 128]);
    }

    #[test]
    fn registered_counters_are_read_reset_and_remembered() {
        // Stands in for an instrumented module's counters.
        let counters: &'static mut [u8; 4] = Box::leak(Box::new([0u8; 4]));
        let start = counters.as_mut_ptr();
        // SAFETY: a leaked array lives for the whole process.
        unsafe { __sanitizer_cov_8bit_counters_init(start, start.add(4)) };
        let mut map = EdgeMap::default();
        map.reset();
        // SAFETY: the counters are ours; the instrumentation would increment them.
        unsafe {
            *start += 1;
            *start.add(2) += 5;
        }
        let first = map.read();
        assert_eq!(first.edges, 2);
        assert_eq!(first.new, 2);
        assert_eq!(map.last_hits(), [0, 2]);
        assert_eq!(map.last()[..3], [1, 0, 8]);
        map.keep_last();
        map.reset();
        unsafe { *start += 1 };
        assert_eq!(map.read(), EdgeReading { edges: 1, new: 0 });
        // The same edge with another hit-count bucket is new.
        map.reset();
        unsafe { *start += 3 };
        assert_eq!(map.read().new, 1);
        assert!(EdgeMap::instrumented());
    }
}
