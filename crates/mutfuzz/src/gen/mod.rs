//! Generators: the `Gen` trait, its impls for std types, and the `arbitrary` bridge.

mod arb;
mod collections;
mod primitives;
mod tuples;
mod wrappers;

use std::ops::RangeBounds;

use crate::input::{Input, Rng, Source, Spans};

pub use arb::Arb;
pub(crate) use arb::arbitrary_from_bytes;

/// A type whose values can be generated from a [`Source`] of choices.
///
/// Implementations draw their parts with [`Source::draw`] (so each part is
/// recorded as a span) and the typed choices of [`Source`]. Generation must be
/// deterministic in the choices and must terminate: respect
/// [`Source::is_exhausted`] wherever the value could grow without bound
/// (collections via [`Source::repeat`] and recursive enums via
/// [`Source::choose_variant`] do this for you).
///
/// Derive it with `#[derive(mutfuzz::Gen)]`:
///
/// ```
/// use mutfuzz::{Gen, Rng};
///
/// #[derive(Debug, Gen)]
/// enum Expr {
///     Num(#[mutfuzz(range = -9..=9)] i64),
///     Add(Box<Expr>, Box<Expr>),
/// }
///
/// let expr = mutfuzz::generate::<Expr>(Vec::new(), Rng::new(5)).value;
/// # let _ = expr;
/// ```
///
/// Or write it by hand, drawing every part from the source:
///
/// ```
/// use mutfuzz::{Gen, Rng, Source};
///
/// #[derive(Debug)]
/// struct Span {
///     start: u16,
///     len: u16,
/// }
///
/// impl Gen for Span {
///     fn generate(src: &mut Source) -> Self {
///         let start = src.draw_in_range(0..=1000u16);
///         let len = src.draw_in_range(0..=(1000 - start));
///         Span { start, len }
///     }
/// }
///
/// let span = mutfuzz::generate::<Span>(Vec::new(), Rng::new(3)).value;
/// assert!(span.start + span.len <= 1000);
/// ```
pub trait Gen: Sized {
    /// Draws a value from `src`.
    fn generate(src: &mut Source) -> Self;
}

/// A collection or string that can be generated with a length in given bounds.
///
/// This is what `#[mutfuzz(len = 0..=8)]` on a field uses.
pub trait GenLen: Gen {
    /// Draws a value whose length (number of elements or chars) lies in `len`.
    ///
    /// Sets and maps may come out shorter than the minimum when the drawn
    /// elements keep repeating.
    fn generate_len(src: &mut Source, len: impl RangeBounds<usize>) -> Self;
}

/// A generated value with the input that replays to it and the spans of its parts.
#[derive(Clone, Debug)]
pub struct Generated<T> {
    /// The value.
    pub value: T,
    /// The choice bytes that replay to `value`.
    pub input: Input,
    /// The spans recorded while drawing `value`; the first covers the whole value.
    pub spans: Spans,
}

/// Generates a `T` by replaying `bytes` and extending them from `rng` where they run out.
///
/// ```
/// use mutfuzz::Rng;
///
/// let first = mutfuzz::generate::<Vec<u16>>(Vec::new(), Rng::new(1));
/// let again = mutfuzz::generate::<Vec<u16>>(first.input.as_bytes(), Rng::new(2));
/// assert_eq!(first.value, again.value);
/// assert_eq!(first.input, again.input);
/// ```
pub fn generate<T: Gen>(bytes: impl Into<Vec<u8>>, rng: Rng) -> Generated<T> {
    let mut src = Source::new(bytes, rng);
    let value = src.draw::<T>();
    let (input, spans) = src.into_input();
    Generated { value, input, spans }
}
