//! Infection (Mu2, Section IV-B): while the original runs and records, which mutants
//! would have computed a different value at their site on this input. A mutant that was
//! never infected on an input behaves exactly as the original does on it, so it need not
//! run.
//!
//! A probed site dispatches with [`at_probe`](crate::at_probe), which returns [`PROBE`]
//! while recording; the schema's probe arm then evaluates the site's alternatives and
//! calls [`infect`] for each one that differs, before computing the original value.
//! Comparisons evaluate their alternatives directly (the operands are bound references);
//! arithmetic, bitwise and shift operators go through [`arith`], which evaluates the
//! alternatives only on primitive numbers, with checked operations, so a probe never
//! panics. Anything it cannot evaluate counts as infected.
//!
//! An infection also has a *class*: which way the mutant's value differs (a condition
//! the original found false and the mutant true, or the reverse; a number the mutant
//! made lower, higher, or could not compute). Two inputs that infect one mutant in
//! different classes are different steps toward a kill: the `infection` guidance keeps
//! the first input of each class.

use std::any::type_name;
use std::cmp::Ordering;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;

/// What [`at_probe`](crate::at_probe) returns while the original records: run the probe arm.
pub const PROBE: u32 = u32::MAX;

/// The classes of an infection, one bit each (see the module's doc).
pub mod class {
    /// Differs in a way no other class names (an unevaluated operand, a float).
    pub const OTHER: u8 = 1;
    /// A condition the original computed `false` and the mutant `true`.
    pub const MADE_TRUE: u8 = 1 << 1;
    /// A condition the original computed `true` and the mutant `false`.
    pub const MADE_FALSE: u8 = 1 << 2;
    /// A number the mutant computed lower than the original.
    pub const LOWER: u8 = 1 << 3;
    /// A number the mutant computed higher than the original.
    pub const HIGHER: u8 = 1 << 4;
    /// An operation the mutant could not compute (it would overflow or divide by zero).
    pub const FAULT: u8 = 1 << 5;
}

/// Per mutant id, the recording run (its stamp, the high 32 bits) in which it was last
/// infected and the classes of its infections in that run (the low 8 bits), so a new
/// run starts clean without clearing the table.
static TABLE: OnceLock<Box<[AtomicU64]>> = OnceLock::new();
static STAMP: AtomicU32 = AtomicU32::new(1);

pub(crate) fn allocate(ids: usize) {
    let _ = TABLE.set((0..ids).map(|_| AtomicU64::new(0)).collect());
}

/// Starts a new recording run: every mutant uninfected.
pub(crate) fn new_run() {
    // Skip 0, the value of a never-infected slot.
    if STAMP.fetch_add(1, Relaxed) == u32::MAX {
        STAMP.store(1, Relaxed);
    }
}

/// Mutant `id` computes a different value than the original at its site on this input.
#[cold]
#[inline(never)]
pub fn infect(id: u32) {
    infect_as(id, class::OTHER);
}

/// Mutant `id` computes a different value, of the [`class`] bits `classes`.
#[cold]
#[inline(never)]
pub fn infect_as(id: u32, classes: u8) {
    if let Some(slot) = TABLE.get().and_then(|t| t.get(id as usize)) {
        // One recording run runs on one thread at a time: load-then-store is enough.
        let stamp = u64::from(STAMP.load(Relaxed)) << 8;
        let seen = slot.load(Relaxed);
        let kept = if seen & !0xff == stamp { seen & 0xff } else { 0 };
        slot.store(stamp | kept | u64::from(classes), Relaxed);
    }
}

/// [`infect`] when `differs`.
#[inline]
pub fn infect_if(id: u32, differs: bool) {
    if differs {
        infect(id);
    }
}

/// The probe of one alternative of a condition: infects mutant `id` when its value
/// `mutant` is not the original's, with the direction as its class.
#[inline]
pub fn infect_bool(id: u32, mutant: bool, original: bool) {
    if mutant != original {
        infect_as(id, if mutant { class::MADE_TRUE } else { class::MADE_FALSE });
    }
}

/// Whether mutant `id` was infected in the last recording run. Meaningful only for
/// mutants whose site has a probe; the others are never marked.
#[inline]
pub fn infected(id: u32) -> bool {
    infection_classes(id) != 0
}

/// The [`class`] bits of mutant `id`'s infections in the last recording run (0: not
/// infected).
#[inline]
pub fn infection_classes(id: u32) -> u8 {
    let Some(slot) = TABLE.get().and_then(|t| t.get(id as usize)) else { return 0 };
    let seen = slot.load(Relaxed);
    if seen >> 8 == u64::from(STAMP.load(Relaxed)) {
        seen as u8
    } else {
        0
    }
}

/// The probe of an arithmetic, bitwise or shift site `l OP r`: for each
/// `(id, replacement operator)`, infects mutant `id` unless `l REPLACEMENT r` is exactly
/// the original `l OP r`. Evaluates only primitive numbers (and `bool` for `& | ^`),
/// recognised by their type names; any other type infects every alternative.
pub fn arith<L, R>(l: &L, r: &R, op: &str, alternatives: &[(u32, &str)]) {
    if !evaluate(l, r, op, alternatives) {
        for &(id, _) in alternatives {
            infect(id);
        }
    }
}

/// A primitive value read from a generic reference whose type name says what it is.
#[derive(Clone, Copy, PartialEq)]
enum Value {
    Int(i128),
    Float(u64),
    Bool(bool),
}

impl Value {
    /// The class of an infection whose mutant computes `self` where the original
    /// computed `original` (which differs).
    fn class_from(self, original: Value) -> u8 {
        match (self, original) {
            (Value::Int(m), Value::Int(o)) => match m.cmp(&o) {
                Ordering::Less => class::LOWER,
                _ => class::HIGHER,
            },
            (Value::Bool(m), Value::Bool(_)) => {
                if m {
                    class::MADE_TRUE
                } else {
                    class::MADE_FALSE
                }
            }
            _ => class::OTHER,
        }
    }
}

/// Reads `*x` as the primitive type named by `T`.
///
/// # Safety
/// `T` must be exactly `$t`: guaranteed by the caller comparing `type_name::<T>()` with
/// the primitive's own name (a user type's name always carries its path).
macro_rules! read_as {
    ($x:expr, $t:ty) => {
        // SAFETY: see the macro's doc: the type names are equal, so the types are.
        unsafe { *($x as *const _ as *const $t) }
    };
}

/// Evaluates every alternative; `false` when the operands are not primitive.
fn evaluate<L, R>(l: &L, r: &R, op: &str, alternatives: &[(u32, &str)]) -> bool {
    let (lt, rt) = (type_name::<L>(), type_name::<R>());
    macro_rules! ints {
        ($($t:ident)*) => {$(
            if lt == stringify!($t) {
                let a: $t = read_as!(l, $t);
                let same: Option<$t> = if rt == lt { Some(read_as!(r, $t)) } else { None };
                let shift = int_value(r);
                let eval = |op: &str| -> Option<Value> {
                    let v: Option<$t> = match op {
                        "+" => same.and_then(|b| a.checked_add(b)),
                        "-" => same.and_then(|b| a.checked_sub(b)),
                        "*" => same.and_then(|b| a.checked_mul(b)),
                        "/" => same.and_then(|b| a.checked_div(b)),
                        "%" => same.and_then(|b| a.checked_rem(b)),
                        "&" => same.map(|b| a & b),
                        "|" => same.map(|b| a | b),
                        "^" => same.map(|b| a ^ b),
                        "<<" => shift.and_then(|s| u32::try_from(s).ok()).and_then(|s| a.checked_shl(s)),
                        ">>" => shift.and_then(|s| u32::try_from(s).ok()).and_then(|s| a.checked_shr(s)),
                        _ => None,
                    };
                    // `as i128` is one-to-one on every type here (u128 too), so
                    // equal results stay equal and different ones different.
                    v.map(|v| Value::Int(v as i128))
                };
                compare_all(eval, op, alternatives);
                return true;
            }
        )*};
    }
    ints!(u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize);
    macro_rules! floats {
        ($($t:ident)*) => {$(
            if lt == stringify!($t) && rt == lt {
                let (a, b): ($t, $t) = (read_as!(l, $t), read_as!(r, $t));
                let eval = |op: &str| -> Option<Value> {
                    let v = match op {
                        "+" => a + b,
                        "-" => a - b,
                        "*" => a * b,
                        "/" => a / b,
                        "%" => a % b,
                        _ => return None,
                    };
                    // Bits, not `==`: NaN is not equal to itself, and -0.0 is to 0.0.
                    Some(Value::Float(v.to_bits() as u64))
                };
                compare_all(eval, op, alternatives);
                return true;
            }
        )*};
    }
    floats!(f32 f64);
    if lt == "bool" && rt == "bool" {
        let (a, b): (bool, bool) = (read_as!(l, bool), read_as!(r, bool));
        let eval = |op: &str| match op {
            "&" => Some(Value::Bool(a & b)),
            "|" => Some(Value::Bool(a | b)),
            "^" => Some(Value::Bool(a ^ b)),
            _ => None,
        };
        compare_all(eval, op, alternatives);
        return true;
    }
    false
}

/// Infects each alternative whose value is not the original's (or that, like the
/// original, cannot be evaluated: it would panic, or the operator is unknown).
fn compare_all(eval: impl Fn(&str) -> Option<Value>, op: &str, alternatives: &[(u32, &str)]) {
    let original = eval(op);
    for &(id, alternative) in alternatives {
        match (eval(alternative), original) {
            (_, None) => infect(id),
            (None, Some(_)) => infect_as(id, class::FAULT),
            (Some(v), Some(o)) if v != o => infect_as(id, v.class_from(o)),
            _ => {}
        }
    }
}

/// An integer shift amount of any primitive integer type.
fn int_value<R>(r: &R) -> Option<i128> {
    let rt = type_name::<R>();
    macro_rules! ints {
        ($($t:ident)*) => {$(
            if rt == stringify!($t) {
                let v: $t = read_as!(r, $t);
                return i128::try_from(v).ok();
            }
        )*};
    }
    ints!(u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize);
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the probe in a fresh run of a table of 16 ids; returns the infected ids.
    fn probe<L, R>(l: L, r: R, op: &str, alternatives: &[(u32, &str)]) -> Vec<u32> {
        allocate(16);
        new_run();
        arith(&l, &r, op, alternatives);
        (0..16).filter(|&id| infected(id)).collect()
    }

    // One test drives everything: the table and its stamp are process-global.
    #[test]
    fn probes_infect_exactly_the_alternatives_whose_value_differs() {
        let _g = crate::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        arithmetic_alternatives_infect_only_when_their_value_differs();
        operands_that_are_not_primitive_infect_every_alternative();
        a_new_run_forgets_the_last_runs_infections();
        infections_carry_the_direction_of_the_difference();
    }

    fn arithmetic_alternatives_infect_only_when_their_value_differs() {
        // 2 + 2 == 2 * 2: `*` is not infected; `-` is.
        assert_eq!(probe(2u32, 2u32, "+", &[(1, "-"), (2, "*")]), [1]);
        assert_eq!(probe(3i64, 1i64, "*", &[(1, "+"), (2, "/")]), [1]);
        // Division by zero or overflow would panic: infected, never evaluated as a value.
        assert_eq!(probe(7u8, 0u8, "+", &[(1, "/"), (2, "%")]), [1, 2]);
        assert_eq!(probe(200u8, 2u8, "+", &[(3, "*")]), [3]);
        // Shifts take any integer type on the right.
        assert_eq!(probe(0u16, 3u8, "<<", &[(4, ">>")]), Vec::<u32>::new());
        assert_eq!(probe(8u16, 3i32, "<<", &[(4, ">>")]), [4]);
        assert_eq!(probe(1u32, 40u32, ">>", &[(5, "<<")]), [5], "an overflowing shift would panic");
        assert_eq!(probe(u128::MAX, u128::MAX, "&", &[(6, "|"), (7, "^")]), [7]);
        assert_eq!(probe(true, false, "|", &[(8, "^"), (9, "&")]), [9]);
        assert_eq!(probe(1.5f64, 0.0f64, "+", &[(10, "-"), (11, "*")]), [11]);
        assert_eq!(probe(-0.0f32, 0.0f32, "+", &[(12, "-")]), [12], "-0.0 + 0.0 is 0.0, -0.0 - 0.0 is -0.0");
    }

    fn operands_that_are_not_primitive_infect_every_alternative() {
        #[allow(non_camel_case_types, dead_code)]
        #[derive(Clone, Copy)]
        struct u32(u8);
        assert_eq!(probe(u32(1), u32(1), "+", &[(1, "-"), (2, "*")]), [1, 2]);
        assert_eq!(probe("a", "b", "+", &[(3, "-")]), [3]);
        assert_eq!(probe(&5u8, &5u8, "+", &[(4, "-")]), [4], "references are not primitives");
        assert_eq!(probe(1u8, 1u16, "+", &[(5, "-")]), [5], "mixed types");
    }

    fn infections_carry_the_direction_of_the_difference() {
        use class::*;
        allocate(16);
        new_run();
        // 5 + 3 = 8: `-` computes lower, `*` higher, `/` by zero would panic.
        arith(&5i32, &3i32, "+", &[(1, "-"), (2, "*")]);
        arith(&5i32, &0i32, "+", &[(3, "/")]);
        assert_eq!(
            [infection_classes(1), infection_classes(2), infection_classes(3)],
            [LOWER, HIGHER, FAULT]
        );
        // A condition: the classes of one run add up, the next run starts from none.
        infect_bool(4, true, false);
        infect_bool(4, false, false);
        assert_eq!(infection_classes(4), MADE_TRUE);
        infect_bool(4, false, true);
        assert_eq!(infection_classes(4), MADE_TRUE | MADE_FALSE);
        arith(&true, &false, "|", &[(5, "&")]);
        assert_eq!(infection_classes(5), MADE_FALSE);
        new_run();
        infect(4);
        assert_eq!(infection_classes(4), OTHER);
        assert_eq!(infection_classes(1), 0);
    }

    fn a_new_run_forgets_the_last_runs_infections() {
        assert_eq!(probe(1u8, 1u8, "+", &[(1, "-")]), [1]);
        new_run();
        assert!(!infected(1));
        assert!(!infected(1000), "ids past the table are never infected");
    }
}
