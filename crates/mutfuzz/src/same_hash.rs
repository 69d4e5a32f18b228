//! [`same_hash`] and [`same_hash_checked`]: whether two values hash alike, the check a
//! generated call sequence makes of a type's hand-written `Hash`.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// Whether `a` and `b` have the same hash. The hasher's keys are fixed, so the answer is
/// the same on every run (a `RandomState` would make the target nondeterministic). Equal
/// values must hash alike; unequal ones almost never do, so a `hash` that leaves a field
/// out, or hashes nothing, answers `true` where the original answers `false`.
///
/// ```
/// assert!(mutfuzz::same_hash(&[1, 2][..], &vec![1, 2]));
/// assert!(!mutfuzz::same_hash("one", "two"));
/// ```
pub fn same_hash<T: Hash + ?Sized>(a: &T, b: &T) -> bool {
    let hash = |value: &T| {
        let mut hasher = DefaultHasher::new();
        value.hash(&mut hasher);
        hasher.finish()
    };
    hash(a) == hash(b)
}

/// [`same_hash`] for a type that also compares: `None` where `a == b` and their hashes
/// differ. That breaks `Hash`'s contract with `PartialEq` (equal values must hash alike),
/// so a test should report it, not assert it.
///
/// ```
/// assert_eq!(mutfuzz::same_hash_checked(&1, &1), Some(true));
/// assert_eq!(mutfuzz::same_hash_checked(&1, &2), Some(false));
/// ```
pub fn same_hash_checked<T: Hash + PartialEq + ?Sized>(a: &T, b: &T) -> Option<bool> {
    let same = same_hash(a, b);
    (same || a != b).then_some(same)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `Hash` that, as a mutant might, leaves its only field out.
    struct Careless(#[allow(dead_code)] u8);

    impl Hash for Careless {
        fn hash<H: Hasher>(&self, _: &mut H) {}
    }

    #[test]
    fn a_hash_that_leaves_a_field_out_answers_true_for_unequal_values() {
        assert!(!same_hash(&1u8, &2u8));
        assert!(same_hash(&Careless(1), &Careless(2)));
    }

    /// Equal whatever it holds, hashed by what it holds: `Hash` disagrees with `PartialEq`.
    struct Disagrees(u8);

    impl PartialEq for Disagrees {
        fn eq(&self, _: &Self) -> bool {
            true
        }
    }

    impl Hash for Disagrees {
        fn hash<H: Hasher>(&self, state: &mut H) {
            self.0.hash(state);
        }
    }

    #[test]
    fn equal_values_that_hash_apart_answer_none() {
        assert_eq!(same_hash_checked(&Disagrees(1), &Disagrees(2)), None);
        assert_eq!(same_hash_checked(&Disagrees(1), &Disagrees(1)), Some(true));
        assert_eq!(same_hash_checked("one", "two"), Some(false));
    }
}
