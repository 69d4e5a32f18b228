//! Comparison feedback (input-to-state replacement on typed spans, as RedQueen does on
//! bytes): the operands that the original compared while it ran a saved input are kept
//! with that input; an edit finds a primitive span whose value equals one operand and
//! writes the other operand's value (or it ±1) there.
//!
//! Only the most recently saved or recorded inputs keep theirs ([`HELD_INPUTS`]): an
//! input whose operands were let go is run again, recording, when it next becomes a
//! parent ([`CompareEdit::needs_record`]), so memory stays flat as the corpus grows.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};

use mutfuzz_rt::Operand;

use super::Parent;
use super::dictionary::{leaves_in, write_value};
use crate::corpus::{CorpusEntry, HELD_INPUTS};
use crate::input::{Rng, Value};

/// Distinct pairs the table holds at most, per input whose operands it holds (4 MiB for
/// [`HELD_INPUTS`]): a recording run keeps up to [`mutfuzz_rt::RING`] pairs, but most
/// of a child's comparisons are its parent's, so inputs share most of theirs.
const PAIRS_PER_HELD_INPUT: usize = 32;

/// Operand pairs per saved input, and the edit that uses them.
///
/// A recording run fills the run-time's ring, and a child compares mostly what its
/// parent did; a pair at full width (room for a string) is larger than most inputs.
/// So each distinct pair is kept once, and a saved input holds the indices of its pairs,
/// in the order recorded.
#[derive(Debug)]
pub struct CompareEdit {
    /// Every distinct pair recorded, once (fewer than 2^32: at most a ring per input).
    pairs: Vec<(Operand, Operand)>,
    /// Where each pair is in `pairs`, by its hash. A pair whose hash another pair has
    /// already is stored again, unindexed: rare, and still correct.
    by_hash: HashMap<u64, u32>,
    /// By the trial that saved the input (unique per corpus entry): its pairs.
    operands: HashMap<u64, Box<[u32]>>,
    /// The trials in `operands`, oldest first: the first let go.
    held: VecDeque<u64>,
    capacity: usize,
    /// The inputs that had operands and were let go: recorded again before their children.
    let_go: HashSet<u64>,
    scratch: Vec<(Operand, Operand)>,
    /// Compaction's map from a pair's old index to its new one, kept between compactions.
    renumbered: Vec<u32>,
}

impl Default for CompareEdit {
    fn default() -> Self {
        CompareEdit::holding(HELD_INPUTS)
    }
}

impl CompareEdit {
    /// An edit with no operands recorded yet.
    pub fn new() -> CompareEdit {
        CompareEdit::default()
    }

    /// An edit that keeps the operands of at most `capacity` inputs.
    pub fn holding(capacity: usize) -> CompareEdit {
        CompareEdit {
            pairs: Vec::new(),
            by_hash: HashMap::new(),
            operands: HashMap::new(),
            held: VecDeque::new(),
            capacity: capacity.max(1),
            let_go: HashSet::new(),
            scratch: Vec::new(),
            renumbered: Vec::new(),
        }
    }

    /// Whether `entry` had operands that were let go, so that the original must run on
    /// it again, recording, before [`saved`](CompareEdit::saved) keeps them again.
    pub fn needs_record(&self, entry: &CorpusEntry) -> bool {
        self.let_go.contains(&entry.trial)
    }

    /// Keeps the operands of the last recording run (the run of `entry`, just saved, or
    /// run again because [`needs_record`](CompareEdit::needs_record) said so).
    pub fn saved(&mut self, entry: &CorpusEntry) {
        let mut recorded = std::mem::take(&mut self.scratch);
        mutfuzz_rt::comparisons(&mut recorded);
        if recorded.is_empty() {
            self.let_go.remove(&entry.trial);
        } else {
            self.keep(entry, &recorded);
        }
        self.scratch = recorded;
    }

    /// Keeps `pairs` as the operands of `entry` (what [`saved`](CompareEdit::saved) reads
    /// from the run-time).
    pub fn set_operands(&mut self, entry: &CorpusEntry, pairs: Vec<(Operand, Operand)>) {
        self.keep(entry, &pairs);
    }

    fn keep(&mut self, entry: &CorpusEntry, pairs: &[(Operand, Operand)]) {
        let budget = self.capacity * PAIRS_PER_HELD_INPUT;
        if self.pairs.len() + pairs.len() > budget {
            self.make_room(budget / 2);
        }
        let indices = pairs.iter().map(|&pair| self.intern(pair)).collect();
        if self.operands.insert(entry.trial, indices).is_none() {
            self.held.push_back(entry.trial);
        }
        self.let_go.remove(&entry.trial);
        while self.held.len() > self.capacity {
            self.let_go_oldest();
        }
    }

    /// Lets go of the operands of the input held longest.
    fn let_go_oldest(&mut self) {
        if let Some(oldest) = self.held.pop_front() {
            self.operands.remove(&oldest);
            self.let_go.insert(oldest);
        }
    }

    /// Compacts the table to at most `target` pairs: the pairs no held input uses go
    /// first, then the operands of the inputs held longest, a quarter at a time. So the
    /// table never outgrows its budget, however many distinct pairs the held inputs have
    /// between them (which grows as the corpus diversifies), and its memory is flat.
    fn make_room(&mut self, target: usize) {
        self.compact();
        while self.pairs.len() > target && !self.held.is_empty() {
            for _ in 0..self.held.len().div_ceil(4) {
                self.let_go_oldest();
            }
            self.compact();
        }
    }

    /// Drops the pairs no held input uses, renumbering the rest in their order. It works
    /// in place: the table's allocations are kept, so that a long campaign's memory stays
    /// at their largest size instead of a new table's being allocated beside the old one
    /// at each compaction (which the allocator keeps after the old one is freed).
    fn compact(&mut self) {
        const UNUSED: u32 = u32::MAX;
        let renumbered = &mut self.renumbered;
        renumbered.clear();
        renumbered.resize(self.pairs.len(), UNUSED);
        for indices in self.operands.values() {
            for &k in indices.iter() {
                renumbered[k as usize] = 0;
            }
        }
        // A used pair moves down to its rank among the used ones.
        let mut used = 0;
        for (old, new) in renumbered.iter_mut().enumerate() {
            if *new != UNUSED {
                *new = used as u32;
                self.pairs[used] = self.pairs[old];
                used += 1;
            }
        }
        self.pairs.truncate(used);
        for indices in self.operands.values_mut() {
            for k in indices.iter_mut() {
                *k = renumbered[*k as usize];
            }
        }
        self.by_hash.clear();
        for (k, pair) in self.pairs.iter().enumerate() {
            self.by_hash.entry(hash_of(pair)).or_insert(k as u32);
        }
    }

    /// The index of `pair` in `pairs`, added if new.
    fn intern(&mut self, pair: (Operand, Operand)) -> u32 {
        let hash = hash_of(&pair);
        if let Some(&k) = self.by_hash.get(&hash)
            && self.pairs[k as usize] == pair
        {
            return k;
        }
        let k = self.pairs.len() as u32;
        self.pairs.push(pair);
        self.by_hash.entry(hash).or_insert(k);
        k
    }

    /// Whether operands were recorded for `entry`.
    pub fn has_operands(&self, entry: &CorpusEntry) -> bool {
        self.operands.contains_key(&entry.trial)
    }

    /// Writes one operand where the parent (inside `scope`, if given) holds the other;
    /// `false` when no span's value matches any recorded operand.
    pub fn edit_within(
        &self,
        parent: &Parent,
        scope: Option<usize>,
        rng: &mut Rng,
        out: &mut Vec<u8>,
    ) -> bool {
        let Some(indices) = self.operands.get(&parent.trial) else { return false };
        let leaves = leaves_in(parent, scope);
        let mut candidates: Vec<(usize, crate::input::Leaf, Value)> = Vec::new();
        for (index, leaf, current) in &leaves {
            for &k in indices.iter() {
                let (a, b) = &self.pairs[k as usize];
                for (from, to) in [(a, b), (b, a)] {
                    replacements(current, from, to, &mut |v| candidates.push((*index, *leaf, v)));
                }
            }
        }
        // Try candidates in random order until one fits its span.
        while !candidates.is_empty() {
            let k = rng.below(candidates.len() as u64) as usize;
            let (index, leaf, value) = candidates.swap_remove(k);
            if write_value(parent, index, leaf, &value, out) {
                return true;
            }
        }
        false
    }
}

fn hash_of(pair: &(Operand, Operand)) -> u64 {
    let mut hasher = DefaultHasher::new();
    pair.hash(&mut hasher);
    hasher.finish()
}

/// The values that put `to` where `current` holds `from`.
fn replacements(current: &Value, from: &Operand, to: &Operand, push: &mut dyn FnMut(Value)) {
    match (current, from, to) {
        (Value::Int(v), Operand::Int(f), Operand::Int(t)) if v == f => {
            // ±1 for `<`, `<=` and off-by-one bounds.
            for d in [0, 1, -1] {
                if let Some(x) = t.checked_add(d) {
                    push(Value::Int(x));
                }
            }
        }
        (Value::Int(v), Operand::Int(f), Operand::Char(t)) if *v == *f => push(Value::Int(*t as i128)),
        (Value::Char(c), Operand::Char(f), Operand::Char(t)) if c == f => push(Value::Char(*t)),
        (Value::Char(c), Operand::Int(f), Operand::Int(t)) if *c as i128 == *f => {
            if let Some(t) = u32::try_from(*t).ok().and_then(char::from_u32) {
                push(Value::Char(t));
            }
        }
        (Value::Str(s), Operand::Str { .. }, Operand::Str { .. }) => {
            let (Some(f), Some(t)) = (from.as_str(), to.as_str()) else { return };
            if s == f {
                push(Value::Str(t.to_owned()));
            } else if !f.is_empty()
                && let Some(at) = s.find(f)
            {
                // A token of a longer text: replace that occurrence.
                push(Value::Str(format!("{}{t}{}", &s[..at], &s[at + f.len()..])));
            } else if f.is_empty() {
                push(Value::Str(format!("{s}{t}")));
            }
        }
        (Value::Str(s), Operand::Char(f), Operand::Char(t)) => {
            if let Some(at) = s.find(*f) {
                let mut x = String::with_capacity(s.len() + 4);
                x.push_str(&s[..at]);
                x.push(*t);
                x.push_str(&s[at + f.len_utf8()..]);
                push(Value::Str(x));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::dictionary::tests::entry_of;
    use crate::{Source, Spans};

    #[derive(Debug, crate::Gen, PartialEq)]
    struct Command {
        name: String,
        code: u16,
    }

    fn str_op(s: &str) -> Operand {
        let mut bytes = [0u8; mutfuzz_rt::STR_CAP];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        Operand::Str { len: s.len() as u8, bytes }
    }

    #[test]
    fn an_operand_is_written_where_the_input_held_the_other_one() {
        let (value, parent, spans): (Vec<Command>, CorpusEntry, Spans) = entry_of(3);
        let parent = Parent::new(&parent, &spans);
        assert!(!value.is_empty());
        let mut edit = CompareEdit::new();
        let first = &value[0];
        edit.set_operands(
            &parent,
            vec![
                (str_op(&first.name), str_op("magic-keyword")),
                (Operand::Int(i128::from(first.code)), Operand::Int(0x5eed)),
            ],
        );
        let mut out = Vec::new();
        let mut rng = Rng::new(1);
        let (mut names, mut codes) = (0, 0);
        for _ in 0..60 {
            assert!(edit.edit_within(&parent, None, &mut rng, &mut out));
            let child: Vec<Command> = Source::new(out.clone(), Rng::new(0)).draw();
            assert_eq!(child.len(), value.len());
            names += usize::from(child[0].name == "magic-keyword");
            codes += usize::from((0x5eec..=0x5eee).contains(&child[0].code));
        }
        assert!(names > 5 && codes > 5, "{names} {codes}");
    }

    #[test]
    fn inputs_share_each_distinct_pair_and_keep_their_own_order() {
        let (_, a, _): (Vec<Command>, CorpusEntry, Spans) = entry_of(5);
        let b = CorpusEntry { trial: 6, ..a.clone() };
        let (p, q, r) = (Operand::Int(1), Operand::Int(2), Operand::Char('x'));
        let mut edit = CompareEdit::new();
        edit.set_operands(&a, vec![(p, q), (q, r), (p, q)]);
        edit.set_operands(&b, vec![(q, r), (r, p)]);
        assert_eq!(edit.pairs, [(p, q), (q, r), (r, p)]);
        let of = |edit: &CompareEdit, e: &CorpusEntry| -> Vec<(Operand, Operand)> {
            edit.operands[&e.trial].iter().map(|&k| edit.pairs[k as usize]).collect()
        };
        assert_eq!(of(&edit, &a), [(p, q), (q, r), (p, q)]);
        assert_eq!(of(&edit, &b), [(q, r), (r, p)]);
        // A pair whose hash is taken by another pair is stored again, and read back right.
        let s = (Operand::Int(3), Operand::Int(4));
        edit.by_hash.insert(hash_of(&s), 0);
        edit.set_operands(&a, vec![s, (p, q)]);
        assert_eq!(edit.pairs.len(), 4);
        assert_eq!(of(&edit, &a), [s, (p, q)]);
    }

    #[test]
    fn operands_let_go_are_recorded_again_and_unused_pairs_dropped() {
        let (_, a, _): (Vec<Command>, CorpusEntry, Spans) = entry_of(5);
        let entry = |trial| CorpusEntry { trial, ..a.clone() };
        let (e1, e2, e3) = (entry(1), entry(2), entry(3));
        let pair = |n| (Operand::Int(n), Operand::Int(n + 1000));
        let mut edit = CompareEdit::holding(2);
        edit.set_operands(&e1, vec![pair(1), pair(2)]);
        edit.set_operands(&e2, vec![pair(2), pair(3)]);
        assert!(!edit.needs_record(&e1));
        edit.set_operands(&e3, vec![pair(4)]);
        // The oldest is let go, and asks to be recorded again.
        assert!(edit.needs_record(&e1) && !edit.has_operands(&e1));
        assert!(!edit.needs_record(&e2) && edit.has_operands(&e2));
        edit.set_operands(&e1, vec![pair(1), pair(2)]);
        assert!(!edit.needs_record(&e1) && edit.needs_record(&e2));
        // Pair 3 only e2 used: compaction drops it and renumbers the rest, in place.
        assert_eq!(edit.pairs.len(), 4);
        let capacity = edit.pairs.capacity();
        edit.compact();
        assert_eq!(edit.pairs.len(), 3);
        assert_eq!(edit.pairs.capacity(), capacity);
        let of = |edit: &CompareEdit, e: &CorpusEntry| -> Vec<(Operand, Operand)> {
            edit.operands[&e.trial].iter().map(|&k| edit.pairs[k as usize]).collect()
        };
        assert_eq!(of(&edit, &e1), [pair(1), pair(2)]);
        assert_eq!(of(&edit, &e3), [pair(4)]);
        // Pairs interned after compaction are found again, not stored twice.
        edit.set_operands(&e2, vec![pair(2), pair(3)]);
        assert_eq!(edit.pairs.len(), 4);
        assert_eq!(of(&edit, &e2), [pair(2), pair(3)]);
    }

    #[test]
    fn the_table_stays_within_its_budget_as_held_inputs_bring_new_pairs() {
        let (_, a, _): (Vec<Command>, CorpusEntry, Spans) = entry_of(5);
        let mut edit = CompareEdit::holding(4);
        let budget = 4 * PAIRS_PER_HELD_INPUT;
        // Every input has 40 pairs no other has: four of them would need 160.
        for trial in 0..50u64 {
            let pairs =
                (0..40).map(|n| (Operand::Int((trial * 100 + n) as i128), Operand::Int(-1))).collect();
            edit.set_operands(&CorpusEntry { trial, ..a.clone() }, pairs);
            assert!(edit.pairs.len() <= budget, "{} pairs after input {trial}", edit.pairs.len());
            assert!(edit.pairs.capacity() <= budget, "{} allocated", edit.pairs.capacity());
            // The newest input keeps its operands, whole.
            assert_eq!(edit.operands[&trial].len(), 40);
        }
        // Inputs let go to make room ask to be recorded again.
        let held = edit.held.len();
        assert!(held < 4, "{held} held");
        assert_eq!(edit.let_go.len(), 50 - held);
    }

    #[test]
    fn without_recorded_operands_the_edit_does_nothing() {
        let (_, parent, spans): (Vec<Command>, CorpusEntry, Spans) = entry_of(4);
        let parent = Parent::new(&parent, &spans);
        assert!(!CompareEdit::new().edit_within(&parent, None, &mut Rng::new(1), &mut Vec::new()));
    }
}
