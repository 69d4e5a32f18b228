//! The bridge to `arbitrary`: any `Arbitrary` type as an opaque leaf drawn from one byte string.

use std::any::type_name;
use std::fmt;
use std::ops::{Deref, DerefMut};

use arbitrary::{Arbitrary, Unstructured};

use super::Gen;
use crate::input::Source;

/// A `T: arbitrary::Arbitrary` used as an opaque leaf generator.
///
/// Its value is built by `arbitrary` from one byte-string choice, so edits see
/// it as a single span of type `T`. The field attribute `#[mutfuzz(arbitrary)]`
/// does the same without the wrapper.
///
/// ```
/// use mutfuzz::{Arb, Rng};
///
/// let generated = mutfuzz::generate::<Arb<(u32, String)>>(Vec::new(), Rng::new(1));
/// let (_number, _text): (u32, String) = generated.value.0;
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Arb<T>(pub T);

impl<T> Arb<T> {
    /// The wrapped value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: for<'a> Arbitrary<'a>> Gen for Arb<T> {
    fn generate(src: &mut Source) -> Self {
        Arb(src.draw_arbitrary())
    }
}

// So a target taking `Arb<T>` reads cargo-fuzz's files as one taking `T` does.
impl<'a, T: Arbitrary<'a>> Arbitrary<'a> for Arb<T> {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        T::arbitrary(u).map(Arb)
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Self> {
        T::arbitrary_take_rest(u).map(Arb)
    }

    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        T::size_hint(depth)
    }
}

impl<T: fmt::Debug> fmt::Debug for Arb<T> {
    // Transparent, so outputs compared by `Debug` do not depend on the wrapper.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T> Deref for Arb<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Arb<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

/// Builds a `T` from `bytes` with `arbitrary`, falling back to zero bytes if it refuses.
///
/// `lower` is `T`'s lower size hint; the fallback buffer is at least that long.
pub(crate) fn arbitrary_from_bytes<T: for<'a> Arbitrary<'a>>(bytes: &[u8], lower: usize) -> T {
    if let Ok(value) = T::arbitrary_take_rest(Unstructured::new(bytes)) {
        return value;
    }
    // Most impls accept all-zero data of sufficient length; this keeps
    // generation total without inventing a second encoding.
    let zeros = vec![0u8; lower.max(bytes.len()).max(64)];
    match T::arbitrary_take_rest(Unstructured::new(&zeros)) {
        Ok(value) => value,
        Err(err) => panic!(
            "`{}`'s Arbitrary impl rejected both the drawn bytes and zero bytes ({err}); \
             give it a custom generator with #[mutfuzz(with = path::to::fn)]",
            type_name::<T>()
        ),
    }
}
