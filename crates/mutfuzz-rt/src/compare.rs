//! Comparison operands (input-to-state feedback): while the original records, the probe
//! arm of every `==`, `!=`, `<`, … site hands both bound operands to [`compared`], which
//! keeps primitive ones (integers, chars, short strings) in a small ring per thread. The
//! engine reads the ring after the run and tries writing one operand's value where the
//! input held the other.
//!
//! Off unless the engine asks ([`record_comparisons`]): then one relaxed load per probed
//! comparison. On, a fixed ring of [`RING`] entries, strings cut at [`STR_CAP`] bytes,
//! no allocation.

use std::any::type_name;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Entries the ring keeps per run (the most recent win).
pub const RING: usize = 128;
/// Longest string operand kept, in bytes; longer ones are cut at a char boundary.
pub const STR_CAP: usize = 48;

static ENABLED: AtomicBool = AtomicBool::new(false);

/// One primitive operand of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// An integer of any primitive type.
    Int(i128),
    /// A char.
    Char(char),
    /// A string (or its first [`STR_CAP`] bytes), UTF-8.
    Str {
        /// Bytes used.
        len: u8,
        /// The string's bytes.
        bytes: [u8; STR_CAP],
    },
}

impl Operand {
    /// The string, for a string operand.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Operand::Str { len, bytes } => std::str::from_utf8(&bytes[..*len as usize]).ok(),
            _ => None,
        }
    }

    fn str(s: &str) -> Operand {
        let mut end = s.len().min(STR_CAP);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0u8; STR_CAP];
        bytes[..end].copy_from_slice(&s.as_bytes()[..end]);
        Operand::Str { len: end as u8, bytes }
    }
}

struct Ring {
    entries: [Option<(Operand, Operand)>; RING],
    next: usize,
    len: usize,
}

thread_local! {
    static OPERANDS: RefCell<Ring> = const { RefCell::new(Ring { entries: [None; RING], next: 0, len: 0 }) };
}

/// Turns recording of comparison operands on or off (off by default).
pub fn record_comparisons(on: bool) {
    ENABLED.store(on, Relaxed);
}

/// Empties this thread's ring (at the start of each recording run).
pub(crate) fn new_run() {
    if ENABLED.load(Relaxed) {
        OPERANDS.with(|r| {
            let mut r = r.borrow_mut();
            r.next = 0;
            r.len = 0;
        });
    }
}

/// Copies the operand pairs this thread recorded in its last recording run into `out`
/// (cleared first), oldest first.
pub fn comparisons(out: &mut Vec<(Operand, Operand)>) {
    out.clear();
    OPERANDS.with(|r| {
        let r = r.borrow();
        let start = (r.next + RING - r.len) % RING;
        out.extend((0..r.len).filter_map(|k| r.entries[(start + k) % RING]));
    });
}

/// The probe of a comparison site: notes both operands if they are primitive and differ.
#[inline]
pub fn compared<L: ?Sized, R: ?Sized>(l: &L, r: &R) {
    if ENABLED.load(Relaxed) {
        note(l, r);
    }
}

#[cold]
#[inline(never)]
fn note<L: ?Sized, R: ?Sized>(l: &L, r: &R) {
    let (Some(a), Some(b)) = (operand(l), operand(r)) else { return };
    if a == b {
        return;
    }
    let _ = OPERANDS.try_with(|ring| {
        let Ok(mut ring) = ring.try_borrow_mut() else { return };
        // A loop comparing the same pair again adds nothing.
        let recent = ring.len.min(8);
        if (1..=recent).any(|k| ring.entries[(ring.next + RING - k) % RING] == Some((a, b))) {
            return;
        }
        let at = ring.next;
        ring.entries[at] = Some((a, b));
        ring.next = (at + 1) % RING;
        ring.len = (ring.len + 1).min(RING);
    });
}

/// A primitive operand read through its type name; `None` for any other type.
fn operand<T: ?Sized>(x: &T) -> Option<Operand> {
    let name = type_name::<T>();
    macro_rules! ints {
        ($($t:ident)*) => {$(
            if name == stringify!($t) {
                // SAFETY: the type name says `T` is `$t`, so `&T` is a thin `&$t`.
                let p: &$t = unsafe { std::mem::transmute_copy::<&T, &$t>(&x) };
                return Some(Operand::Int(*p as i128));
            }
            if name == concat!("&", stringify!($t)) {
                // SAFETY: as above, for `&$t`.
                let p: &&$t = unsafe { std::mem::transmute_copy::<&T, &&$t>(&x) };
                return Some(Operand::Int(**p as i128));
            }
        )*};
    }
    ints!(u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize);
    match name {
        // SAFETY (every arm): the type name says exactly what `T` is; `str` is the only
        // unsized one, and `&T` is then a fat pointer of the same layout as `&str`.
        "char" => Some(Operand::Char(*unsafe { std::mem::transmute_copy::<&T, &char>(&x) })),
        "&char" => Some(Operand::Char(**unsafe { std::mem::transmute_copy::<&T, &&char>(&x) })),
        "str" => Some(Operand::str(unsafe { std::mem::transmute_copy::<&T, &str>(&x) })),
        "&str" => Some(Operand::str(unsafe { std::mem::transmute_copy::<&T, &&str>(&x) })),
        "&&str" => Some(Operand::str(unsafe { std::mem::transmute_copy::<&T, &&&str>(&x) })),
        "alloc::string::String" => Some(Operand::str(unsafe { std::mem::transmute_copy::<&T, &String>(&x) })),
        "&alloc::string::String" => {
            Some(Operand::str(unsafe { std::mem::transmute_copy::<&T, &&String>(&x) }))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitive_operands_are_read_through_their_type_names() {
        assert_eq!(operand(&7u16), Some(Operand::Int(7)));
        assert_eq!(operand(&&-3i64), Some(Operand::Int(-3)));
        assert_eq!(operand(&'x'), Some(Operand::Char('x')));
        assert_eq!(operand("abc").and_then(|o| o.as_str().map(str::to_owned)).as_deref(), Some("abc"));
        assert_eq!(operand(&"abc").and_then(|o| o.as_str().map(str::to_owned)).as_deref(), Some("abc"));
        let s = String::from("magic");
        assert_eq!(operand(&s).and_then(|o| o.as_str().map(str::to_owned)).as_deref(), Some("magic"));
        assert_eq!(operand(&&s).and_then(|o| o.as_str().map(str::to_owned)).as_deref(), Some("magic"));
        assert_eq!(operand(&1.5f64), None);
        assert_eq!(operand(&vec![1u8]), None);
    }

    #[test]
    fn long_strings_are_cut_at_a_char_boundary() {
        let long = "é".repeat(40);
        let cut = Operand::str(&long);
        let s = cut.as_str().unwrap();
        assert!(s.len() <= STR_CAP && long.starts_with(s) && !s.is_empty());
    }
}
