//! Leaf values of spans: what kind of primitive choice produced a span (an integer in a
//! range, a char, a string with length bounds), and how to read its value from the span's
//! bytes or write another value of the same kind into them.
//!
//! This is what lets an edit put a chosen value (a literal of the code, an operand the
//! program compared against) into one typed sub-value of an input, instead of hoping
//! random bytes spell it.

use super::encoding::{self, IntRange, decode_char};

/// How the choices of one span were drawn, when the span is a single primitive value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// One integer choice in `lo..=hi` (bits; sign-extended when `signed`).
    Int {
        /// Lowest value, as bits.
        lo: u128,
        /// Highest value, as bits.
        hi: u128,
        /// Whether the integer type is signed.
        signed: bool,
    },
    /// One 4-byte char choice.
    Char,
    /// A `String` of `min..=max` chars: a char choice per char, with a continuation
    /// byte before each char beyond the minimum and one ending byte below the maximum.
    Str {
        /// Fewest chars.
        min: usize,
        /// Most chars.
        max: usize,
    },
}

/// A value an edit can write into a leaf span.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// An integer (wide enough for every primitive integer).
    Int(i128),
    /// A char.
    Char(char),
    /// A string.
    Str(String),
}

impl Leaf {
    pub(crate) fn int<I: super::Int>(lo: I, hi: I) -> Leaf {
        Leaf::Int { lo: lo.to_bits(), hi: hi.to_bits(), signed: I::SIGNED }
    }

    fn range(lo: u128, hi: u128, signed: bool) -> IntRange {
        IntRange::from_bits(lo, hi, signed)
    }

    /// Whether `bytes` can be this leaf's whole encoding (an integer or char has a fixed width).
    pub fn fits(&self, bytes: &[u8]) -> bool {
        match *self {
            Leaf::Int { lo, hi, signed } => {
                bytes.len() == encoding::width(Leaf::range(lo, hi, signed).max_index())
            }
            Leaf::Char => bytes.len() == 4,
            Leaf::Str { .. } => !bytes.is_empty() || matches!(self, Leaf::Str { max: 0, .. }),
        }
    }

    /// The value the span's bytes replay to, if they are this leaf's whole encoding.
    pub fn decode(&self, bytes: &[u8]) -> Option<Value> {
        if !self.fits(bytes) {
            return None;
        }
        match *self {
            Leaf::Int { lo, hi, signed } => {
                let range = Leaf::range(lo, hi, signed);
                let max = range.max_index();
                let bits = range.value_at(encoding::index_from_raw(encoding::read_le(bytes), max));
                Some(Value::Int(if signed { bits as i128 } else { i128::try_from(bits).ok()? }))
            }
            Leaf::Char => Some(Value::Char(decode_char(encoding::read_le(bytes) as u32))),
            Leaf::Str { min, max } => decode_str(bytes, min, max).map(Value::Str),
        }
    }

    /// Appends the encoding of `value` to `out`; `false` (and nothing written) when the
    /// value is not of this leaf's kind or out of its range.
    pub fn encode(&self, value: &Value, out: &mut Vec<u8>) -> bool {
        match (*self, value) {
            (Leaf::Int { lo, hi, signed }, &Value::Int(v)) => {
                let inside = if signed {
                    (lo as i128) <= v && v <= (hi as i128)
                } else {
                    v >= 0 && lo <= v as u128 && v as u128 <= hi
                };
                if !inside {
                    return false;
                }
                let range = Leaf::range(lo, hi, signed);
                let width = encoding::width(range.max_index());
                let mut buf = [0u8; 16];
                encoding::write_le(range.index_of(v as u128), &mut buf[..width]);
                out.extend_from_slice(&buf[..width]);
                true
            }
            // A char compared as a number (`c as u32 == 0x41`) is still a char.
            (Leaf::Char, &Value::Char(c)) => {
                out.extend_from_slice(&encode_char(c));
                true
            }
            (Leaf::Char, &Value::Int(v)) => match u32::try_from(v).ok().and_then(char::from_u32) {
                Some(c) => {
                    out.extend_from_slice(&encode_char(c));
                    true
                }
                None => false,
            },
            (Leaf::Str { min, max }, Value::Str(s)) => encode_str(s.chars(), min, max, out),
            (Leaf::Str { min, max }, &Value::Char(c)) => encode_str(std::iter::once(c), min, max, out),
            _ => false,
        }
    }
}

/// The 4 bytes of a char choice that decode to `c` (the inverse of `decode_char`).
pub(crate) fn encode_char(c: char) -> [u8; 4] {
    let code = c as u32;
    let raw = if code < 128 {
        // ASCII class, rotated so that zero bytes give 'a'.
        ((code + 128 - u32::from(b'a')) % 128) << 2
    } else {
        let n = if code >= 0xE000 { code - 0x800 } else { code };
        if n < 0x1_0000 - 0x800 { (n << 2) | 2 } else { (n << 2) | 3 }
    };
    raw.to_le_bytes()
}

/// Appends the choices of a string of `chars` with `min..=max` chars; `false` if the
/// count is out of bounds.
pub(crate) fn encode_str(
    chars: impl Iterator<Item = char> + Clone,
    min: usize,
    max: usize,
    out: &mut Vec<u8>,
) -> bool {
    let n = chars.clone().count();
    if n < min || n > max {
        return false;
    }
    for (i, c) in chars.enumerate() {
        if i >= min {
            out.push(1);
        }
        out.extend_from_slice(&encode_char(c));
    }
    if n < max {
        out.push(0);
    }
    true
}

/// Reads a string's choices back; `None` unless `bytes` are exactly one string's.
fn decode_str(bytes: &[u8], min: usize, max: usize) -> Option<String> {
    let mut out = String::new();
    let mut pos = 0;
    let mut count = 0;
    loop {
        if count >= max {
            break;
        }
        if count >= min {
            let more = *bytes.get(pos)? & 1 == 1;
            pos += 1;
            if !more {
                break;
            }
        }
        let raw = bytes.get(pos..pos + 4)?;
        out.push(decode_char(encoding::read_le(raw) as u32));
        pos += 4;
        count += 1;
    }
    (pos == bytes.len()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Gen, Rng, Source};

    fn leaf_of<T: Gen>(bytes: Vec<u8>) -> (T, Leaf, Vec<u8>) {
        let mut src = Source::new(bytes, Rng::new(1));
        let value = src.draw::<T>();
        let (input, spans) = src.into_input();
        let leaf = spans.leaf(0).expect("a primitive's span is a leaf");
        (value, leaf, input.into_bytes())
    }

    #[test]
    fn every_char_class_round_trips_through_its_encoding() {
        for c in
            ['a', 'z', '\0', '~', 'é', '\u{D7FF}', '\u{E000}', '\u{FFFF}', '\u{10000}', '\u{10FFFF}', '🦀']
        {
            assert_eq!(decode_char(u32::from_le_bytes(encode_char(c))), c, "{c:?}");
        }
    }

    #[test]
    fn a_written_integer_replays_to_that_integer_in_signed_and_unsigned_ranges() {
        let (_, leaf, _) = leaf_of::<i16>(vec![]);
        let mut out = Vec::new();
        assert!(leaf.encode(&Value::Int(-1234), &mut out));
        assert_eq!(Source::new(out.clone(), Rng::new(0)).draw::<i16>(), -1234);
        assert_eq!(leaf.decode(&out), Some(Value::Int(-1234)));
        let (_, leaf, _) = leaf_of::<u16>(vec![]);
        out.clear();
        assert!(!leaf.encode(&Value::Int(-1), &mut out));
        assert!(!leaf.encode(&Value::Int(70_000), &mut out));
        assert!(leaf.encode(&Value::Int(0x5eed), &mut out));
        assert_eq!(Source::new(out, Rng::new(0)).draw::<u16>(), 0x5eed);
    }

    #[test]
    fn a_written_string_replays_to_that_string_and_decodes_back() {
        let (_, leaf, bytes) = leaf_of::<String>(vec![]);
        assert_eq!(leaf, Leaf::Str { min: 0, max: usize::MAX });
        assert!(leaf.decode(&bytes).is_some());
        let mut out = Vec::new();
        assert!(leaf.encode(&Value::Str("magic-keyword".into()), &mut out));
        assert_eq!(Source::new(out.clone(), Rng::new(0)).draw::<String>(), "magic-keyword");
        assert_eq!(leaf.decode(&out), Some(Value::Str("magic-keyword".into())));
        let bounded = Leaf::Str { min: 2, max: 3 };
        out.clear();
        assert!(!bounded.encode(&Value::Str("abcd".into()), &mut out));
        assert!(bounded.encode(&Value::Str("xyz".into()), &mut out));
        assert_eq!(bounded.decode(&out), Some(Value::Str("xyz".into())));
    }
}
