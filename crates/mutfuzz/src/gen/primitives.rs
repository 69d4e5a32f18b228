//! `Gen` for the primitive types: integers, floats, `bool`, `char` and `()`.

use super::Gen;
use crate::input::Source;

macro_rules! gen_full_range_int {
    ($($t:ty),*) => {$(
        impl Gen for $t {
            fn generate(src: &mut Source) -> Self {
                src.int_in_range(<$t>::MIN..=<$t>::MAX)
            }
        }
    )*};
}
gen_full_range_int!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);

// Pointer-sized integers are drawn as 64-bit ones so that stored inputs mean
// the same on every platform.
impl Gen for usize {
    #[allow(clippy::cast_possible_truncation)]
    fn generate(src: &mut Source) -> Self {
        src.int_in_range(u64::MIN..=u64::MAX) as usize
    }
}

impl Gen for isize {
    #[allow(clippy::cast_possible_truncation)]
    fn generate(src: &mut Source) -> Self {
        src.int_in_range(i64::MIN..=i64::MAX) as isize
    }
}

impl Gen for bool {
    fn generate(src: &mut Source) -> Self {
        src.bool()
    }
}

impl Gen for f32 {
    fn generate(src: &mut Source) -> Self {
        src.f32()
    }
}

impl Gen for f64 {
    fn generate(src: &mut Source) -> Self {
        src.f64()
    }
}

impl Gen for char {
    fn generate(src: &mut Source) -> Self {
        src.char()
    }
}

impl Gen for () {
    fn generate(_: &mut Source) -> Self {}
}
