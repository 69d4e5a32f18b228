//! MUTAGEN's schedule: when an input is interesting, every structure-preserving edit of
//! it is queued once as a batch; batches wait in two priority queues (valid, discarded),
//! highest novelty first and newest first among equals; random edits are sampled R
//! times each, and R doubles whenever a threshold of uninteresting trials passes.

use std::collections::BinaryHeap;

use super::{Next, Observation, Schedule};
use crate::corpus::Corpus;
use crate::edit::{SpanEdit, apply, edits_at};
use crate::input::{Input, Rng, Spans};

/// Deepest span whose edits a batch holds (spans are listed in level order up to it).
pub const DEPTH_LIMIT: usize = 16;
/// Uninteresting trials after which the trace log is reset and R doubles (the paper's 1000).
pub const RESET_THRESHOLD: u64 = 1000;
/// With both queues empty, the share of inputs that re-sample a spent valid batch's random
/// edits rather than being generated fresh.
pub const RECYCLE_SHARE: f64 = 0.5;
/// Spent valid inputs kept for recycling (the oldest go first).
const MAX_SPENT: usize = 1024;

/// The queued edits of one interesting input.
#[derive(Debug)]
struct Batch {
    input: Input,
    spans: Spans,
    /// `(span, edit)` in level order of the spans.
    edits: Vec<(usize, SpanEdit)>,
    /// The next edit, and how many children it has given (random edits give R).
    next: usize,
    given: u32,
    /// R when the batch was made.
    repeat: u32,
    /// Whether its input was valid (its discarded children may then be queued).
    valid: bool,
}

impl Batch {
    /// Children still to come.
    fn remaining(&self) -> u64 {
        let each = |e: &SpanEdit| if e.is_random() { u64::from(self.repeat) } else { 1 };
        let rest: u64 = self.edits.iter().skip(self.next).map(|(_, e)| each(e)).sum();
        rest - u64::from(self.given)
    }
}

/// A batch in a queue: ordered by priority, then by age (newest first).
#[derive(Debug)]
struct Queued {
    priority: u64,
    seq: u64,
    batch: Batch,
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        (self.priority, self.seq) == (other.priority, other.seq)
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.priority, self.seq).cmp(&(other.priority, other.seq))
    }
}

/// MUTAGEN's scheduler (the paper's Algorithms 1–5) over the campaign's trials.
///
/// *Interesting* means the trace (sites hit, edge hit-count buckets) has something the
/// schedule's own trace log lacks, or the input killed a mutant no saved input killed;
/// the priority is how many such novelties it has. The log is the schedule's, apart
/// from the guidance's: resetting it (adaptive R) lets old inputs be queued again
/// without changing what the guidance saves. With both queues empty, inputs are fresh.
#[derive(Debug)]
pub struct MutagenSchedule {
    valid: BinaryHeap<Queued>,
    discarded: BinaryHeap<Queued>,
    seq: u64,
    /// Sites and edge buckets seen since the last reset.
    sites: Vec<bool>,
    edges: Vec<u8>,
    /// R, and the uninteresting trials in a row and the threshold that doubles it.
    repeat: u32,
    boring: u64,
    threshold: u64,
    /// Whether the parent of the input just handed out was valid (`None`: no parent).
    parent_valid: Option<bool>,
    queued: u64,
    depth_limit: usize,
    order: Vec<usize>,
    scratch: Vec<SpanEdit>,
    /// Valid inputs whose batches are done, and the next to recycle.
    spent: std::collections::VecDeque<(Input, Spans)>,
    recycle: usize,
}

impl Default for MutagenSchedule {
    fn default() -> Self {
        MutagenSchedule::new()
    }
}

impl MutagenSchedule {
    /// A schedule with R = 1, the paper's threshold of 1000 and batches down to depth 16.
    pub fn new() -> Self {
        MutagenSchedule::with(RESET_THRESHOLD, DEPTH_LIMIT)
    }

    /// A schedule with another reset threshold and depth limit.
    pub fn with(threshold: u64, depth_limit: usize) -> Self {
        MutagenSchedule {
            valid: BinaryHeap::new(),
            discarded: BinaryHeap::new(),
            seq: 0,
            sites: Vec::new(),
            edges: Vec::new(),
            repeat: 1,
            boring: 0,
            threshold: threshold.max(1),
            parent_valid: None,
            queued: 0,
            depth_limit,
            order: Vec::new(),
            scratch: Vec::new(),
            spent: std::collections::VecDeque::new(),
            recycle: 0,
        }
    }

    /// Novelties of a trace against the log (merging it in): new sites and edge buckets.
    fn novelty(&mut self, trial: &Observation<'_>) -> u64 {
        let mut new = 0;
        for &site in trial.hits {
            let i = site as usize;
            if i >= self.sites.len() {
                self.sites.resize(i + 1, false);
            }
            new += u64::from(!self.sites[i]);
            self.sites[i] = true;
        }
        if self.edges.len() < trial.edges.len() {
            self.edges.resize(trial.edges.len(), 0);
        }
        // Only the counters the run hit: the map may have many thousands.
        for &i in trial.edge_hits {
            let (i, b) = (i as usize, trial.edges[i as usize]);
            new += u64::from(b & !self.edges[i] != 0);
            self.edges[i] |= b;
        }
        new
    }

    /// Every edit of every span of `spans` down to the depth limit, spans in level order
    /// (only the random ones when `random_only`).
    fn batch(&mut self, input: &Input, spans: &Spans, valid: bool, random_only: bool) -> Batch {
        self.order.clear();
        self.order.extend((0..spans.len()).filter(|&i| spans[i].depth <= self.depth_limit));
        // Stable: spans of one level keep their pre-order.
        self.order.sort_by_key(|&i| spans[i].depth);
        let mut edits = Vec::new();
        for k in 0..self.order.len() {
            let at = self.order[k];
            self.scratch.clear();
            edits_at(input.as_bytes(), spans, at, &mut self.scratch);
            edits.extend(self.scratch.iter().filter(|e| !random_only || e.is_random()).map(|&e| (at, e)));
        }
        Batch {
            input: input.clone(),
            spans: spans.clone(),
            edits,
            next: 0,
            given: 0,
            repeat: self.repeat,
            valid,
        }
    }

    fn enqueue(&mut self, batch: Batch, priority: u64, valid_queue: bool) {
        if batch.edits.is_empty() {
            return;
        }
        self.seq += 1;
        self.queued += batch.remaining();
        let queued = Queued { priority, seq: self.seq, batch };
        if valid_queue { self.valid.push(queued) } else { self.discarded.push(queued) }
    }

    /// Takes the next child of the best batch of `queue` into `out`; `None` when empty.
    fn pick(
        queue: &mut BinaryHeap<Queued>,
        queued: &mut u64,
        spent: &mut std::collections::VecDeque<(Input, Spans)>,
        corpus: &Corpus,
        rng: &mut Rng,
        out: &mut Vec<u8>,
    ) -> Option<(Next, bool)> {
        while let Some(mut top) = queue.peek_mut() {
            let b = &mut top.batch;
            if b.next >= b.edits.len() {
                let done = std::collections::binary_heap::PeekMut::pop(top).batch;
                if done.valid {
                    if spent.len() == MAX_SPENT {
                        spent.pop_front();
                    }
                    spent.push_back((done.input, done.spans));
                }
                continue;
            }
            let (at, edit) = b.edits[b.next];
            b.given += 1;
            if !edit.is_random() || b.given >= b.repeat {
                b.next += 1;
                b.given = 0;
            }
            *queued = queued.saturating_sub(1);
            let valid = b.valid;
            let (bytes, spans) = (b.input.as_bytes(), &b.spans);
            if let Some(rewrite) = apply(edit, at, bytes, spans, corpus, rng, out) {
                return Some((Next::Child(Some(rewrite)), valid));
            }
        }
        None
    }
}

impl Schedule for MutagenSchedule {
    fn next_parent(&mut self, _corpus: &Corpus, _rng: &mut Rng) -> Option<usize> {
        None
    }

    fn next(&mut self, corpus: &Corpus, rng: &mut Rng, out: &mut Vec<u8>) -> Next {
        let (valid, discarded, spent) = (&mut self.valid, &mut self.discarded, &mut self.spent);
        let mut picked = MutagenSchedule::pick(valid, &mut self.queued, spent, corpus, rng, out)
            .or_else(|| MutagenSchedule::pick(discarded, &mut self.queued, spent, corpus, rng, out));
        if picked.is_none() && !self.spent.is_empty() && rng.chance(RECYCLE_SHARE) {
            // Generation rarely passes a sparse precondition: re-sample the random edits
            // of a valid input instead (with today's R), round-robin over the spent ones.
            self.recycle = (self.recycle + 1) % self.spent.len();
            let (input, spans) = self.spent[self.recycle].clone();
            let batch = self.batch(&input, &spans, true, true);
            self.enqueue(batch, 0, true);
            let (valid, spent) = (&mut self.valid, &mut self.spent);
            picked = MutagenSchedule::pick(valid, &mut self.queued, spent, corpus, rng, out);
        }
        match picked {
            Some((next, valid)) => {
                self.parent_valid = Some(valid);
                next
            }
            None => {
                self.parent_valid = None;
                out.clear();
                Next::Fresh
            }
        }
    }

    fn observe(&mut self, trial: &Observation<'_>) {
        if self.boring > self.threshold {
            // Adaptive R: the log forgets, so inputs found before are queued again with
            // twice the random samples.
            self.sites.iter_mut().for_each(|s| *s = false);
            self.edges.iter_mut().for_each(|e| *e = 0);
            self.threshold = self.threshold.saturating_mul(2);
            self.repeat = self.repeat.saturating_mul(2);
            self.boring = 0;
        }
        let priority = self.novelty(trial) + trial.new_kills as u64;
        if priority == 0 {
            self.boring += 1;
            return;
        }
        self.boring = 0;
        if !trial.discarded {
            let batch = self.batch(trial.input, trial.spans, true, false);
            self.enqueue(batch, priority, true);
        } else if self.parent_valid == Some(true) {
            // Only "almost valid" discarded inputs: those whose parent was valid.
            let batch = self.batch(trial.input, trial.spans, false, false);
            self.enqueue(batch, priority, false);
        }
    }

    fn needs_spans(&self) -> bool {
        true
    }

    fn queued(&self) -> u64 {
        self.queued
    }

    fn random_edits(&self) -> u32 {
        self.repeat
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Source;

    fn observed(bytes: Vec<u8>) -> (Input, Spans) {
        let mut src = Source::new(bytes, Rng::new(0));
        let _: (u8, Vec<u16>) = src.draw();
        src.into_input()
    }

    fn see<'a>(input: &'a Input, spans: &'a Spans, hits: &'a [u32], discarded: bool) -> Observation<'a> {
        Observation { input, spans, hits, edges: &[], edge_hits: &[], new_kills: 0, discarded }
    }

    #[test]
    fn an_interesting_input_queues_every_edit_once_in_level_order() {
        let mut s = MutagenSchedule::new();
        let (input, spans) = observed(vec![5, 1, 7, 0, 1, 9, 0, 0]);
        let mut rng = Rng::new(1);
        let mut out = Vec::new();
        assert!(matches!(s.next(&Corpus::new(), &mut rng, &mut out), Next::Fresh));
        s.observe(&see(&input, &spans, &[1], false));
        let batch = &s.valid.peek().unwrap().batch;
        let depths: Vec<_> = batch.edits.iter().map(|&(at, _)| spans[at].depth).collect();
        assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
        let total = s.queued();
        assert_eq!(total as usize, batch.edits.len());
        let mut children = 0;
        while let Next::Child(Some(_)) = s.next(&Corpus::new(), &mut rng, &mut out) {
            children += 1;
        }
        // Splices find no donor in an empty corpus and are skipped.
        let splices = batch_splices(&spans);
        assert_eq!(children + splices, total as usize);
        assert_eq!(s.queued(), 0);
    }

    fn batch_splices(spans: &Spans) -> usize {
        spans.iter().filter(|s| !s.is_empty()).count()
    }

    #[test]
    fn newer_and_more_novel_batches_come_first_and_valid_before_discarded() {
        let mut s = MutagenSchedule::new();
        let (a, sa) = observed(vec![1, 0]);
        let (b, sb) = observed(vec![2, 0]);
        let (c, sc) = observed(vec![3, 0]);
        s.observe(&see(&a, &sa, &[1], false));
        s.observe(&see(&b, &sb, &[2, 3], false));
        s.observe(&see(&c, &sc, &[4, 5], false));
        let order: Vec<u8> =
            std::iter::from_fn(|| s.valid.pop()).map(|q| q.batch.input.as_bytes()[0]).collect();
        // Priority 2 (newest first: c, b), then priority 1.
        assert_eq!(order, [3, 2, 1]);
        // A discarded input is queued only when its parent was valid.
        s.parent_valid = None;
        s.observe(&see(&a, &sa, &[9], true));
        assert!(s.discarded.is_empty());
        s.parent_valid = Some(true);
        s.observe(&see(&a, &sa, &[10], true));
        assert_eq!(s.discarded.len(), 1);
        s.parent_valid = Some(false);
        s.observe(&see(&a, &sa, &[11], true));
        assert_eq!(s.discarded.len(), 1);
    }

    #[test]
    fn new_edge_buckets_and_new_kills_are_novelty() {
        let mut s = MutagenSchedule::new();
        let (a, sa) = observed(vec![1, 0]);
        let edges = [0u8, 1, 0, 8];
        let seen = |s: &mut MutagenSchedule, edges: &[u8], hits: &[u32], kills| {
            let before = s.valid.len();
            s.observe(&Observation { edges, edge_hits: hits, new_kills: kills, ..see(&a, &sa, &[], false) });
            s.valid.len() > before
        };
        assert!(seen(&mut s, &edges, &[1, 3], 0));
        assert!(!seen(&mut s, &edges, &[1, 3], 0));
        // The same edge in another hit-count bucket is new.
        assert!(seen(&mut s, &[0, 2, 0, 8], &[1, 3], 0));
        assert!(seen(&mut s, &edges, &[1, 3], 2));
        // Two new edges, one new bucket, two new kills: the newest of the equals first.
        let order: Vec<(u64, u64)> =
            std::iter::from_fn(|| s.valid.pop()).map(|q| (q.priority, q.seq)).collect();
        assert_eq!(order, [(2, 3), (2, 1), (1, 2)]);
    }

    #[test]
    fn stalled_progress_resets_the_log_and_doubles_r_and_the_threshold() {
        let mut s = MutagenSchedule::with(3, DEPTH_LIMIT);
        let (a, sa) = observed(vec![1, 0]);
        s.observe(&see(&a, &sa, &[1], false));
        assert_eq!((s.random_edits(), s.valid.len()), (1, 1));
        for _ in 0..4 {
            s.observe(&see(&a, &sa, &[1], false));
        }
        assert_eq!(s.valid.len(), 1);
        // The fifth boring trial passes the threshold: the same trace is new again.
        s.observe(&see(&a, &sa, &[1], false));
        assert_eq!((s.random_edits(), s.threshold, s.valid.len()), (2, 6, 2));
        let resampled = s.valid.peek().unwrap().batch.remaining();
        let first = s.valid.iter().map(|q| q.batch.remaining()).min().unwrap();
        assert!(resampled > first, "{resampled} {first}");
    }
}
