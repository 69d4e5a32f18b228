//! `Gen` for tuples (up to 12 elements) and arrays.

use super::Gen;
use crate::input::Source;

macro_rules! gen_tuple {
    ($($t:ident),+) => {
        impl<$($t: Gen),+> Gen for ($($t,)+) {
            fn generate(src: &mut Source) -> Self {
                // Tuple expressions evaluate left to right, so the choices are in field order.
                ($(src.draw::<$t>(),)+)
            }
        }
    };
}
gen_tuple!(A);
gen_tuple!(A, B);
gen_tuple!(A, B, C);
gen_tuple!(A, B, C, D);
gen_tuple!(A, B, C, D, E);
gen_tuple!(A, B, C, D, E, F);
gen_tuple!(A, B, C, D, E, F, G);
gen_tuple!(A, B, C, D, E, F, G, H);
gen_tuple!(A, B, C, D, E, F, G, H, I);
gen_tuple!(A, B, C, D, E, F, G, H, I, J);
gen_tuple!(A, B, C, D, E, F, G, H, I, J, K);
gen_tuple!(A, B, C, D, E, F, G, H, I, J, K, L);

impl<T: Gen, const N: usize> Gen for [T; N] {
    fn generate(src: &mut Source) -> Self {
        std::array::from_fn(|_| src.draw())
    }
}
