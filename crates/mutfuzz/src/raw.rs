//! Inputs in cargo-fuzz's format: a file's raw bytes decoded by `arbitrary`, exactly as
//! libfuzzer-sys's `fuzz_target!(|x: T| …)` decodes them, for targets whose input type
//! implements `arbitrary::Arbitrary` (so a cargo-fuzz corpus scores on the same mutants).
//!
//! Whether a target's input type implements `Arbitrary` is found where
//! [`targets!`](crate::targets) registers it, with the concrete type in hand: a method
//! call on `&Probe<T>` picks [`ViaArbitrary`] when `T: Arbitrary` and falls back to
//! [`NoArbitrary`] on `&&Probe<T>` otherwise (autoref specialization, stable Rust).

use std::marker::PhantomData;

use arbitrary::{Arbitrary, Unstructured};

/// Decodes one corpus file into a target's input; `None` when the target would not run
/// on it (cargo-fuzz rejects the input).
pub type RawDecoder<T> = fn(&[u8]) -> Option<T>;

/// cargo-fuzz's decoding: inputs shorter than `T`'s lower size hint are skipped (as
/// libfuzzer-sys does, to spare the fuzzer the not-enough-data paths), the rest go
/// through `T::arbitrary_take_rest(Unstructured::new(bytes))`, and an error skips the
/// input.
pub fn decode_arbitrary<T: for<'a> Arbitrary<'a>>(bytes: &[u8]) -> Option<T> {
    if bytes.len() < T::size_hint(0).0 {
        return None;
    }
    T::arbitrary_take_rest(Unstructured::new(bytes)).ok()
}

/// A target's input type, for choosing its decoder.
#[doc(hidden)]
pub struct Probe<T>(PhantomData<T>);

/// The probe of `target`'s input type.
#[doc(hidden)]
pub fn probe<T, O>(_target: fn(T) -> O) -> Probe<T> {
    Probe(PhantomData)
}

/// Chosen for input types that implement `Arbitrary`.
#[doc(hidden)]
pub trait ViaArbitrary<T> {
    /// cargo-fuzz's decoder.
    fn raw_decoder(&self) -> Option<RawDecoder<T>>;
}

impl<T: for<'a> Arbitrary<'a>> ViaArbitrary<T> for Probe<T> {
    fn raw_decoder(&self) -> Option<RawDecoder<T>> {
        Some(decode_arbitrary::<T>)
    }
}

/// Chosen for every other input type.
#[doc(hidden)]
pub trait NoArbitrary<T> {
    /// None: files in cargo-fuzz's format cannot be decoded.
    fn raw_decoder(&self) -> Option<RawDecoder<T>>;
}

impl<T> NoArbitrary<T> for &Probe<T> {
    fn raw_decoder(&self) -> Option<RawDecoder<T>> {
        None
    }
}

/// The decoder of target `$name`'s input type, if it implements `Arbitrary`.
#[doc(hidden)]
#[macro_export]
macro_rules! __mutfuzz_raw_decoder {
    ($name:ident) => {{
        #[allow(unused_imports)]
        use $crate::raw::{NoArbitrary as _, ViaArbitrary as _};
        (&$crate::raw::probe($name)).raw_decoder()
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Arb;

    fn takes_bytes(v: Vec<u8>) -> usize {
        v.len()
    }
    fn takes_pair(p: (u8, Vec<i64>)) -> usize {
        p.1.len()
    }
    fn takes_wrapped(a: Arb<Vec<u16>>) -> usize {
        a.len()
    }
    struct Opaque;
    fn takes_opaque(_: Opaque) {}

    #[test]
    fn a_target_of_an_arbitrary_type_decodes_files_as_cargo_fuzz_does() {
        let bytes = __mutfuzz_raw_decoder!(takes_bytes).expect("Vec<u8> is Arbitrary");
        let file = b"abcdef";
        assert_eq!(bytes(file), Some(Vec::<u8>::arbitrary_take_rest(Unstructured::new(file)).unwrap()));
        let pair = __mutfuzz_raw_decoder!(takes_pair).unwrap();
        let file = [7u8, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0];
        let expected: (u8, Vec<i64>) =
            <(u8, Vec<i64>)>::arbitrary_take_rest(Unstructured::new(&file)).unwrap();
        assert_eq!(pair(&file), Some(expected));
        let wrapped = __mutfuzz_raw_decoder!(takes_wrapped).unwrap();
        let file = [1, 0, 2, 0, 3, 0, 4];
        let plain = Vec::<u16>::arbitrary_take_rest(Unstructured::new(&file)).unwrap();
        assert!(!plain.is_empty());
        assert_eq!(wrapped(&file).map(|a| a.0), Some(plain));
        // Shorter than the lower size hint: skipped, as libfuzzer-sys skips it.
        let pair_hint = <(u8, Vec<i64>)>::size_hint(0).0;
        assert!(pair_hint > 0 && pair(&[]).is_none());
    }

    #[test]
    fn a_target_of_another_type_has_no_decoder() {
        assert!(__mutfuzz_raw_decoder!(takes_opaque).is_none());
        takes_opaque(Opaque);
    }
}
