//! [`debug_unaddressed`]: a value's `Debug` text with the memory addresses in it masked.

use std::fmt::{Debug, Display};

use mutfuzz_contract::ADDRESS_MASK;

/// Fewer hex digits after `0x` are taken for a number, not an address.
const ADDRESS_DIGITS: usize = 8;

/// `value`'s `Debug` text (`{:?}`) with every `0x` followed by 8 or more lowercase hex
/// digits, as pointers print, replaced by [`ADDRESS_MASK`] (fewer digits are taken for a
/// number; a heap below 2^28, as a non-PIE executable's may be, keeps its addresses). A
/// heap address differs from one run to the next, so a type whose `Debug` shows one
/// (fixedbitset's `FixedBitSet { data: 0x55c289198af0, … }`) would make its generated
/// target nondeterministic, and such a target is judged by panics and runaways only. Generated targets render the
/// value a call sequence built with it; a test written from such a rendering asserts on
/// it only where nothing was masked.
///
/// ```
/// let p = Box::new(7);
/// let text = mutfuzz::debug_unaddressed(&(&*p as *const i32, 0x10));
/// assert_eq!(text, "(0x…, 16)");
/// ```
pub fn debug_unaddressed<T: Debug + ?Sized>(value: &T) -> String {
    mask_addresses(&format!("{value:?}"))
}

/// `value`'s `Display` text and its `Debug` text unaddressed: a crate type shown by hand
/// that compares with nothing, whose `Display` is what the crate computes and whose derived
/// `Debug` shows what the first may leave out.
///
/// ```
/// assert_eq!(mutfuzz::shown(&'a'), ("a".to_owned(), "'a'".to_owned()));
/// ```
pub fn shown<T: Display + Debug + ?Sized>(value: &T) -> (String, String) {
    (value.to_string(), debug_unaddressed(value))
}

/// `text` with its addresses masked (see [`debug_unaddressed`]).
fn mask_addresses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("0x") {
        let digits = rest[at + 2..].bytes().take_while(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')).count();
        let end = at + 2 + digits;
        // Not part of a longer word or number (`a0x1234…`, `10x…`, `0xdeadbeefCAFE`).
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let alone = !rest[..at].ends_with(word) && !rest[end..].starts_with(word);
        out.push_str(&rest[..at]);
        if digits >= ADDRESS_DIGITS && alone {
            out.push_str(ADDRESS_MASK);
        } else {
            out.push_str(&rest[at..end]);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_masked_and_short_or_embedded_hex_is_kept() {
        assert_eq!(
            mask_addresses("FixedBitSet { data: 0x55c289198af0, capacity: 340, length: 43444 }"),
            "FixedBitSet { data: 0x…, capacity: 340, length: 43444 }"
        );
        assert_eq!(mask_addresses("[0x7f00deadbeef, 0x7f00cafebabe]"), "[0x…, 0x…]");
        // Short hex, a word holding `0x`, upper-case hex and `0x` at the end stay.
        for kept in
            ["0xff", "0x1234567", "ab0x55c289198af0", "0x55c289198af0G", "0XDEADBEEFCAFE", "text ends 0x"]
        {
            assert_eq!(mask_addresses(kept), kept);
        }
        assert_eq!(mask_addresses("é0x55c289198af0é"), "é0x…é");
    }
}
