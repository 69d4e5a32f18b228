//! Content names: the one hash that names stored inputs ([`content_name`]), and the keyed
//! 64-bit stream hash it is made of ([`StreamHash`]), which the engine's oracle also uses.
//!
//! The engine compares outputs by hashing their `Debug` rendering as it is streamed, so no
//! `String` is built on the trial path. The hash must depend only on the concatenated
//! text, not on how a `Debug` impl splits it into `write_str` calls, so bytes are
//! gathered into 8-byte words across calls. The keys are fixed constants: the same
//! text hashes the same in every run and on every platform (unlike std's `RandomState`,
//! and without relying on `DefaultHasher`'s unspecified algorithm staying the same).

use std::fmt;

/// Multiplier from the 64-bit golden ratio; odd, so multiplication is a bijection.
const MUL: u64 = 0x9E37_79B9_7F4A_7C15;

/// A streaming 64-bit hash with a fixed key.
///
/// ```
/// use std::fmt::Write;
/// use mutfuzz_contract::StreamHash;
///
/// let mut a = StreamHash::new();
/// write!(a, "{:?}", (1, "two")).unwrap();
/// let mut b = StreamHash::new();
/// b.write_bytes(b"(1, \"two\")");
/// assert_eq!(a.finish(), b.finish());
/// ```
#[derive(Clone, Debug)]
pub struct StreamHash {
    state: u64,
    word: u64,
    fill: u32,
    len: u64,
}

impl Default for StreamHash {
    #[inline]
    fn default() -> Self {
        StreamHash::new()
    }
}

impl StreamHash {
    /// A hasher with the default key.
    #[inline]
    pub fn new() -> Self {
        StreamHash::with_key(0x6D75_7466_757A_7A31)
    }

    /// A hasher with another fixed key (two keys give a 128-bit content hash).
    #[inline]
    pub fn with_key(key: u64) -> Self {
        StreamHash { state: key, word: 0, fill: 0, len: 0 }
    }

    /// Feeds bytes.
    #[inline]
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        self.len += bytes.len() as u64;
        let mut rest = bytes;
        // Top up a partial word left by an earlier call.
        while self.fill != 0 && !rest.is_empty() {
            self.push_byte(rest[0]);
            rest = &rest[1..];
        }
        let mut words = rest.chunks_exact(8);
        for w in &mut words {
            self.mix(u64::from_le_bytes(w.try_into().expect("chunk of 8")));
        }
        for &b in words.remainder() {
            self.push_byte(b);
        }
    }

    #[inline]
    fn push_byte(&mut self, b: u8) {
        self.word |= u64::from(b) << (8 * self.fill);
        self.fill += 1;
        if self.fill == 8 {
            let w = self.word;
            self.word = 0;
            self.fill = 0;
            self.mix(w);
        }
    }

    #[inline]
    fn mix(&mut self, w: u64) {
        self.state = (self.state ^ w).wrapping_mul(MUL).rotate_left(29);
    }

    /// The hash of everything fed so far (the hasher can keep being fed).
    #[inline]
    pub fn finish(&self) -> u64 {
        let mut s = self.state;
        if self.fill != 0 {
            s = (s ^ self.word).wrapping_mul(MUL).rotate_left(29);
        }
        // SplitMix64's finaliser, with the length folded in so that trailing zero
        // bytes change the hash.
        let mut z = s ^ self.len.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl fmt::Write for StreamHash {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.write_bytes(s.as_bytes());
        Ok(())
    }
}

/// A 128-bit hash of bytes as 32 lowercase hex digits: the name of a stored input.
pub fn content_name(bytes: &[u8]) -> String {
    let mut a = StreamHash::with_key(0x0123_4567_89AB_CDEF);
    let mut b = StreamHash::with_key(0xFEDC_BA98_7654_3210);
    a.write_bytes(bytes);
    b.write_bytes(bytes);
    format!("{:016x}{:016x}", a.finish(), b.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_depends_on_the_text_not_on_how_it_is_split() {
        let text = b"Some(Order { quantity: 17, note: \"abc\" })";
        let mut whole = StreamHash::new();
        whole.write_bytes(text);
        for split in 0..text.len() {
            for split2 in split..text.len() {
                let mut parts = StreamHash::new();
                parts.write_bytes(&text[..split]);
                parts.write_bytes(&text[split..split2]);
                parts.write_bytes(&text[split2..]);
                assert_eq!(parts.finish(), whole.finish(), "split at {split}, {split2}");
            }
        }
    }

    #[test]
    fn different_texts_and_trailing_zeros_hash_differently() {
        let h = |b: &[u8]| {
            let mut s = StreamHash::new();
            s.write_bytes(b);
            s.finish()
        };
        assert_ne!(h(b"a"), h(b"b"));
        assert_ne!(h(b""), h(b"\0"));
        assert_ne!(h(b"\0"), h(b"\0\0"));
        assert_ne!(h(b"12345678"), h(b"12345678\0"));
    }

    #[test]
    fn content_names_are_fixed_128_bit_hex() {
        // Fixed keys: the value is the same in every run and on every platform.
        assert_eq!(content_name(b"abc"), "d05bd0c05923978d70c94a45ef140772");
        assert_eq!(content_name(b"abc").len(), 32);
        assert_eq!(content_name(b"abc"), content_name(b"abc"));
        assert_ne!(content_name(b"abc"), content_name(b"abd"));
    }
}
