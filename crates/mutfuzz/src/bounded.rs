//! [`debug_bounded`]: a value's `Debug` text cut at a bound, its formatting stopped there.

use std::fmt::Debug;

/// The most bytes of a rendering [`debug_bounded`] keeps.
pub const DEBUG_BOUND: usize = 4096;

/// `value`'s `Debug` text (`{:?}`), cut at [`DEBUG_BOUND`] bytes (on a char boundary) with
/// `…` appended. The formatting stops once the bound is passed, so a value whose text is
/// huge costs no more than the bound: generated targets render a returned iterator's items
/// with it (each item of bit-vec's `iter_mut` shows the whole vector). A test written from
/// such an output asserts on it only where it was not cut, and `format!("{:?}")` then
/// gives the same text.
///
/// ```
/// assert_eq!(mutfuzz::debug_bounded(&[1, 2]), "[1, 2]");
/// let long = mutfuzz::debug_bounded(&vec![0u8; 10_000]);
/// assert!(long.len() <= mutfuzz::DEBUG_BOUND + '…'.len_utf8() && long.ends_with('…'));
/// ```
pub fn debug_bounded<T: Debug + ?Sized>(value: &T) -> String {
    crate::trial::render_bounded(format_args!("{value:?}"), DEBUG_BOUND)
}
