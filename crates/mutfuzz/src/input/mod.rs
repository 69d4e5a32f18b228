//! Inputs as choice sequences: the stored bytes, the source that replays and extends
//! them, the byte encoding of each choice, the spans recorded, and the engine's PRNG.

mod dictionary;
mod encoding;
mod rewrite;
mod rng;
mod source;
mod span;
mod value;

pub use dictionary::Dictionary;
pub use encoding::Int;
pub(crate) use encoding::decode_char;
pub(crate) use encoding::width as choice_width;
pub use rewrite::{Donor, Fill, Rewrite};
pub use rng::Rng;
pub use source::{Limits, Repeat, Source};
pub use span::{PackedSpans, Span, SpanKind, Spans};
pub(crate) use value::encode_char;
pub use value::{Leaf, Value};

/// Largest choice index of the integer range `lo..=hi` (bits, as a [`Leaf::Int`] keeps
/// them): the count of its values less one.
pub(crate) fn int_max_index(lo: u128, hi: u128, signed: bool) -> u128 {
    encoding::IntRange::from_bits(lo, hi, signed).max_index()
}

/// An input: the compact stored form of a generated value, a sequence of choice bytes.
///
/// Replaying the same bytes through a [`Source`] gives the same value; any byte
/// string is a valid input (it may just be extended with fresh choices).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Input(Vec<u8>);

impl Input {
    /// Wraps stored choice bytes.
    pub fn new(bytes: Vec<u8>) -> Self {
        Input(bytes)
    }

    /// The choice bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Number of bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the input has no bytes (every choice will be fresh).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Frees the buffer's room beyond the bytes (an input kept for long).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.0.shrink_to_fit();
    }

    /// The choice bytes, by value.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
}

impl From<Vec<u8>> for Input {
    fn from(bytes: Vec<u8>) -> Self {
        Input(bytes)
    }
}

impl From<&[u8]> for Input {
    fn from(bytes: &[u8]) -> Self {
        Input(bytes.to_vec())
    }
}

impl From<Input> for Vec<u8> {
    fn from(input: Input) -> Self {
        input.0
    }
}

impl AsRef<[u8]> for Input {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}
