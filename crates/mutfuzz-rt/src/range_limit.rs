//! Saturating successor and predecessor of a range limit, for the schema's
//! `range_limit_swap` mutants: `a..b` → `a..=b` ends at `succ(b)`, `..=b` → `..b` at
//! `..=pred(b)`, so a mutant never overflows (a range at the type's end stays as it is:
//! `Range` cannot hold `a..=MAX`, nor `RangeToInclusive` an empty range).
//!
//! They are functions, not methods, so that `0..n` with an unsuffixed literal still
//! infers its type from later use: a method call on an integer of unknown type does not
//! type-check.

/// A type whose values have a next and a previous one: integers and `char`.
pub trait RangeLimit: Sized {
    /// The next value, or `self` at the largest.
    fn saturating_succ(self) -> Self;
    /// The previous value, or `self` at the smallest.
    fn saturating_pred(self) -> Self;
}

macro_rules! integer_limits {
    ($($t:ty)*) => {$(
        impl RangeLimit for $t {
            #[inline]
            fn saturating_succ(self) -> Self {
                self.saturating_add(1)
            }
            #[inline]
            fn saturating_pred(self) -> Self {
                self.saturating_sub(1)
            }
        }
    )*};
}

integer_limits!(u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize);

impl RangeLimit for char {
    /// Skips the surrogate gap, as `'\u{D7FF}'..='\u{E000}'` does.
    fn saturating_succ(self) -> Self {
        match self {
            '\u{D7FF}' => '\u{E000}',
            c => char::from_u32(c as u32 + 1).unwrap_or(c),
        }
    }

    fn saturating_pred(self) -> Self {
        match self {
            '\u{E000}' => '\u{D7FF}',
            c => (c as u32).checked_sub(1).and_then(char::from_u32).unwrap_or(c),
        }
    }
}

/// The value after `x`, or `x` if it is the largest.
#[inline]
pub fn succ<T: RangeLimit>(x: T) -> T {
    x.saturating_succ()
}

/// The value before `x`, or `x` if it is the smallest.
#[inline]
pub fn pred<T: RangeLimit>(x: T) -> T {
    x.saturating_pred()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_saturate_at_the_ends_of_their_type() {
        assert_eq!(succ(3u8), 4);
        assert_eq!(succ(u8::MAX), u8::MAX);
        assert_eq!(pred(0u32), 0);
        assert_eq!(pred(i64::MIN), i64::MIN);
        assert_eq!(pred(-3i8), -4);
        assert_eq!(succ('a'), 'b');
        assert_eq!(succ('\u{D7FF}'), '\u{E000}');
        assert_eq!(pred('\u{E000}'), '\u{D7FF}');
        assert_eq!(succ(char::MAX), char::MAX);
        assert_eq!(pred('\0'), '\0');
    }

    #[test]
    fn an_unsuffixed_limit_takes_its_type_from_later_use() {
        let v = [1u8, 2, 3];
        let end = succ(1);
        assert_eq!(v[..end].len(), 2);
    }
}
