//! The byte encoding of single choices: how wide a choice is and how its bytes map to a value.
//!
//! Every choice reads a fixed number of bytes that depends only on the range the
//! generator asked for (never on the bytes themselves or on the remaining budget),
//! and takes its value from those bytes modulo the range. So any byte string
//! decodes to some value, the same bytes always decode to the same value, and a
//! zero-filled choice decodes to the simplest value of its range.

/// Number of bytes a choice among `max_index + 1` values occupies: 0, 1, 2, 4, 8 or 16.
///
/// A choice with a single possible value takes no bytes at all.
pub(crate) fn width(max_index: u128) -> usize {
    match max_index {
        0 => 0,
        1..=0xFF => 1,
        0x100..=0xFFFF => 2,
        0x1_0000..=0xFFFF_FFFF => 4,
        0x1_0000_0000..=0xFFFF_FFFF_FFFF_FFFF => 8,
        _ => 16,
    }
}

/// Reads up to 16 bytes as a little-endian number.
pub(crate) fn read_le(bytes: &[u8]) -> u128 {
    bytes.iter().rev().fold(0u128, |acc, &b| (acc << 8) | u128::from(b))
}

/// Writes the low `out.len()` bytes of `value` little-endian.
pub(crate) fn write_le(value: u128, out: &mut [u8]) {
    let bytes = value.to_le_bytes();
    out.copy_from_slice(&bytes[..out.len()]);
}

/// Reduces raw choice bits to an index in `0..=max_index`.
pub(crate) fn index_from_raw(raw: u128, max_index: u128) -> u128 {
    match max_index.checked_add(1) {
        Some(count) => raw % count,
        None => raw,
    }
}

mod sealed {
    pub trait Sealed {}
}

/// The primitive integer types a choice can be drawn as (`u8`…`u128`, `i8`…`i128`,
/// `usize`, `isize`). Sealed: implemented only by this crate.
pub trait Int: Copy + Ord + sealed::Sealed {
    /// Whether the type is signed.
    #[doc(hidden)]
    const SIGNED: bool;
    /// The smallest value of the type.
    #[doc(hidden)]
    const MIN: Self;
    /// The largest value of the type.
    #[doc(hidden)]
    const MAX: Self;
    /// The value as 128 bits, sign-extended for signed types.
    #[doc(hidden)]
    fn to_bits(self) -> u128;
    /// The value from 128 bits, truncating.
    #[doc(hidden)]
    fn from_bits(bits: u128) -> Self;
    /// `self + 1` if it does not overflow.
    #[doc(hidden)]
    fn checked_succ(self) -> Option<Self>;
    /// `self - 1` if it does not overflow.
    #[doc(hidden)]
    fn checked_pred(self) -> Option<Self>;
}

macro_rules! impl_int {
    ($signed:literal: $($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Int for $t {
            const SIGNED: bool = $signed;
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
            // `as` is the point here: sign extension in, truncation out.
            #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation, clippy::cast_lossless)]
            fn to_bits(self) -> u128 {
                self as u128
            }
            #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
            fn from_bits(bits: u128) -> Self {
                bits as $t
            }
            fn checked_succ(self) -> Option<Self> {
                self.checked_add(1)
            }
            fn checked_pred(self) -> Option<Self> {
                self.checked_sub(1)
            }
        }
    )*};
}
impl_int!(false: u8, u16, u32, u64, u128, usize);
impl_int!(true: i8, i16, i32, i64, i128, isize);

/// An inclusive integer range in 128-bit form, with the index order of its values.
///
/// Index 0 is the value closest to zero; indices then alternate outwards
/// (0, 1, -1, 2, -2, …) until one side of the range runs out, and continue on the
/// other. So zero bytes mean the simplest value, and small byte values mean
/// small magnitudes, which makes zero-fill and byte-lowering edits shrink.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IntRange {
    signed: bool,
    lo: u128,
    hi: u128,
}

impl IntRange {
    /// The range `lo..=hi`; callers guarantee `lo <= hi`.
    pub(crate) fn new<I: Int>(lo: I, hi: I) -> Self {
        IntRange { signed: I::SIGNED, lo: lo.to_bits(), hi: hi.to_bits() }
    }

    /// The range from bits already in 128-bit form (as a `Leaf` keeps them).
    pub(crate) fn from_bits(lo: u128, hi: u128, signed: bool) -> Self {
        IntRange { signed, lo, hi }
    }

    /// The largest index, i.e. the number of values minus one.
    pub(crate) fn max_index(&self) -> u128 {
        // Two's complement subtraction gives the distance for signed ranges too.
        self.hi.wrapping_sub(self.lo)
    }

    /// The value (as bits) at index `k`, for `k <= max_index()`.
    pub(crate) fn value_at(&self, k: u128) -> u128 {
        if !self.signed {
            return self.lo.wrapping_add(k);
        }
        let (lo, hi) = (self.lo as i128, self.hi as i128);
        if lo > 0 {
            return self.lo.wrapping_add(k);
        }
        if hi < 0 {
            return self.hi.wrapping_sub(k);
        }
        let (neg, pos) = (lo.unsigned_abs(), hi as u128);
        // m < 2^127 because at most one side can reach 2^127, so 2m cannot overflow.
        let m = neg.min(pos);
        let magnitude_is_negative;
        let magnitude;
        if k <= 2 * m {
            if k % 2 == 1 {
                magnitude_is_negative = false;
                magnitude = k.div_ceil(2);
            } else {
                magnitude_is_negative = true;
                magnitude = k / 2;
            }
        } else {
            magnitude_is_negative = pos <= neg;
            magnitude = m + (k - 2 * m);
        }
        if magnitude_is_negative {
            // Wrapping handles the magnitude 2^127 of i128::MIN.
            (magnitude as i128).wrapping_neg() as u128
        } else {
            magnitude
        }
    }

    /// The index of one of the range's edges: 0 → `lo`, 1 → `hi`, 2 → `lo + 1`, 3 → `hi - 1`.
    ///
    /// The neighbours fall back to `lo` in a one-value range.
    pub(crate) fn edge_index(&self, which: u64) -> u128 {
        let spacious = self.max_index() >= 1;
        let value = match which {
            1 => self.hi,
            2 if spacious => self.lo.wrapping_add(1),
            3 if spacious => self.hi.wrapping_sub(1),
            _ => self.lo,
        };
        self.index_of(value)
    }

    /// The index of `value` (as bits), which must lie in the range.
    pub(crate) fn index_of(&self, value: u128) -> u128 {
        if !self.signed {
            return value.wrapping_sub(self.lo);
        }
        let (lo, hi, v) = (self.lo as i128, self.hi as i128, value as i128);
        if lo > 0 {
            return value.wrapping_sub(self.lo);
        }
        if hi < 0 {
            return self.hi.wrapping_sub(value);
        }
        let m = lo.unsigned_abs().min(hi as u128);
        let a = v.unsigned_abs();
        if a == 0 {
            0
        } else if a > m {
            2 * m + (a - m)
        } else if v > 0 {
            2 * a - 1
        } else {
            2 * a
        }
    }
}

/// Floats that edge-case code tends to mishandle; index 0 (zero bytes) is `0.0`.
const SPECIAL_F64: [f64; 14] = [
    0.0,
    1.0,
    -1.0,
    -0.0,
    0.5,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    f64::MIN_POSITIVE,
    f64::MAX,
    f64::MIN,
    f64::EPSILON,
    5e-324, // the smallest subnormal
    1e15,
];

const SPECIAL_F32: [f32; 14] = [
    0.0,
    1.0,
    -1.0,
    -0.0,
    0.5,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    f32::MIN_POSITIVE,
    f32::MAX,
    f32::MIN,
    f32::EPSILON,
    1e-45, // the smallest subnormal
    1e7,
];

/// Decodes zigzag order (0, -1, 1, -2, …) from an unsigned number.
fn unzigzag(n: u64) -> i64 {
    ((n >> 1) as i64) ^ -((n & 1) as i64)
}

/// Decodes an 8-byte float choice.
///
/// Bits 4 to 7 (the first byte's high half) pick a class so that havoc on raw bytes and
/// fresh draws both reach interesting floats often: 1/16 special values, 7/16 small
/// dyadic rationals (`n / 2^d`, e.g. 3, 1.5, -0.25), and 8/16 raw IEEE bit patterns. The
/// class is the first byte's most significant half because the shrinker orders inputs by
/// their bytes, first byte first: a special value then comes before any rational, and a
/// rational (1.0) before any raw pattern (the subnormal `4e-323` that a low first byte
/// would give).
pub(crate) fn decode_f64(raw: u64) -> f64 {
    let (tag, rest) = (raw >> 4 & 0xF, raw & 0xF | raw >> 8 << 4);
    match tag {
        0 => SPECIAL_F64[(rest % SPECIAL_F64.len() as u64) as usize],
        1..=7 => {
            let numerator = unzigzag(rest & 0xFFFF) as f64;
            let shift = (rest >> 16) & 0xF;
            numerator / (1u64 << shift) as f64
        }
        _ => f64::from_bits(raw),
    }
}

/// Decodes a 4-byte float choice, with the same classes as [`decode_f64`].
pub(crate) fn decode_f32(raw: u32) -> f32 {
    let (tag, rest) = (raw >> 4 & 0xF, raw & 0xF | raw >> 8 << 4);
    match tag {
        0 => SPECIAL_F32[(rest % SPECIAL_F32.len() as u32) as usize],
        1..=7 => {
            let numerator = unzigzag(u64::from(rest & 0xFFFF)) as f32;
            let shift = (rest >> 16) & 0xF;
            numerator / (1u32 << shift) as f32
        }
        _ => f32::from_bits(raw),
    }
}

/// Decodes a 4-byte char choice.
///
/// The low 2 bits pick a class: half the time ASCII (rotated so that zero bytes
/// give `'a'`), a quarter the Basic Multilingual Plane, a quarter any scalar
/// value. Surrogates are skipped by construction, so every raw value is valid.
pub(crate) fn decode_char(raw: u32) -> char {
    let rest = raw >> 2;
    let code = match raw & 3 {
        0 | 1 => (rest % 128 + u32::from(b'a')) % 128,
        2 => skip_surrogates(rest % (0x1_0000 - 0x800)),
        _ => skip_surrogates(rest % (0x11_0000 - 0x800)),
    };
    char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
}

fn skip_surrogates(n: u32) -> u32 {
    if n >= 0xD800 { n + 0x800 } else { n }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values<I: Int>(lo: I, hi: I) -> Vec<I> {
        let range = IntRange::new(lo, hi);
        (0..=range.max_index()).map(|k| I::from_bits(range.value_at(k))).collect()
    }

    #[test]
    fn widths_grow_in_whole_power_of_two_steps() {
        assert_eq!(width(0), 0);
        assert_eq!(width(1), 1);
        assert_eq!(width(255), 1);
        assert_eq!(width(256), 2);
        assert_eq!(width(u128::from(u32::MAX)), 4);
        assert_eq!(width(u128::from(u64::MAX)), 8);
        assert_eq!(width(u128::MAX), 16);
    }

    #[test]
    fn little_endian_round_trips() {
        let mut buf = [0u8; 4];
        write_le(0xA1B2_C3D4, &mut buf);
        assert_eq!(buf, [0xD4, 0xC3, 0xB2, 0xA1]);
        assert_eq!(read_le(&buf), 0xA1B2_C3D4);
        assert_eq!(read_le(&[]), 0);
    }

    #[test]
    fn signed_ranges_around_zero_are_ordered_by_magnitude() {
        assert_eq!(values(-2i8, 4), vec![0, 1, -1, 2, -2, 3, 4]);
        assert_eq!(values(-4i8, 1), vec![0, 1, -1, -2, -3, -4]);
    }

    #[test]
    fn ranges_away_from_zero_start_at_the_end_nearest_zero() {
        assert_eq!(values(3u8, 6), vec![3, 4, 5, 6]);
        assert_eq!(values(3i8, 6), vec![3, 4, 5, 6]);
        assert_eq!(values(-6i8, -3), vec![-3, -4, -5, -6]);
    }

    #[test]
    fn every_i8_index_maps_to_a_distinct_value_and_back() {
        let range = IntRange::new(i8::MIN, i8::MAX);
        let all = values(i8::MIN, i8::MAX);
        let mut sorted = all.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 256);
        for (k, v) in all.iter().enumerate() {
            assert_eq!(range.index_of(v.to_bits()), k as u128);
        }
    }

    #[test]
    fn extreme_128_bit_ranges_do_not_overflow() {
        let range = IntRange::new(i128::MIN, i128::MAX);
        assert_eq!(range.max_index(), u128::MAX);
        assert_eq!(i128::from_bits(range.value_at(u128::MAX)), i128::MIN);
        assert_eq!(range.index_of(i128::MIN.to_bits()), u128::MAX);
        assert_eq!(i128::from_bits(range.value_at(u128::MAX - 1)), -i128::MAX);
        assert_eq!(i128::from_bits(range.value_at(u128::MAX - 2)), i128::MAX);
        let unsigned = IntRange::new(0u128, u128::MAX);
        assert_eq!(unsigned.max_index(), u128::MAX);
        assert_eq!(index_from_raw(u128::MAX, u128::MAX), u128::MAX);
    }

    #[test]
    fn zero_bytes_decode_to_the_simplest_float_and_char() {
        assert_eq!(decode_f64(0).to_bits(), 0.0f64.to_bits());
        assert_eq!(decode_f32(0).to_bits(), 0.0f32.to_bits());
        assert_eq!(decode_char(0), 'a');
    }

    #[test]
    fn every_char_class_decodes_to_a_valid_scalar() {
        for raw in [0u32, 1, 2, 3, u32::MAX, 0xD800 << 2 | 2, 0xD800 << 2 | 3, 0x7FFF_FFFF] {
            let c = decode_char(raw);
            assert!(char::from_u32(c as u32).is_some());
        }
        assert!(decode_char(0x80 << 2).is_ascii());
    }

    #[test]
    fn small_float_class_gives_dyadic_rationals() {
        // tag 1, numerator zigzag(6) = 3, shift 1 → 1.5
        assert_eq!(decode_f64(6 | (1 << 4) | (1 << 20)), 1.5);
        assert_eq!(decode_f32(6 | (1 << 4) | (1 << 20)), 1.5);
        // Bytes `22 00 …`: 1.0, below every raw pattern (first byte from `80`).
        assert_eq!(decode_f64(0x22), 1.0);
        assert_eq!(decode_f64(0x80), f64::from_bits(0x80));
    }
}
