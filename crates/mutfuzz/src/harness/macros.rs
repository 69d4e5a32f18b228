//! The macros that declare a harness's targets: [`targets!`](crate::targets) and
//! [`generated_targets!`](crate::generated_targets).

/// Declare a harness's targets and generate its `main`.
///
/// Each target is a function taking one generated value (any [`Gen`](crate::Gen) +
/// `Debug` type, so failing inputs can be shown) and returning an output that implements `Debug` (or `()` for panic-only checking);
/// `name(compare = path)` judges its outputs with `fn(&O, &O) -> bool` instead.
/// Whether the input type implements `arbitrary::Arbitrary` (cargo-fuzz's files, see
/// [`raw`](crate::raw)) and [`Reflect`](crate::Reflect) (value trees for `values`) is
/// found here, with the concrete type in hand; a type implementing neither still works.
///
/// ```
/// use mutfuzz::Gen;
///
/// #[derive(Debug, Gen)]
/// struct Order {
///     #[mutfuzz(range = 1..=100)]
///     quantity: u32,
///     express: Option<bool>,
/// }
///
/// fn price(order: Order) -> u64 {
///     mutfuzz::assume(order.quantity < 50); // discard inputs the target does not accept
///     u64::from(order.quantity) * if order.express == Some(true) { 3 } else { 2 }
/// }
///
/// // Compared by a function of the outputs instead of their `Debug` text.
/// fn close(a: &f64, b: &f64) -> bool {
///     (a - b).abs() < 1e-9
/// }
/// fn mean(v: Vec<u8>) -> f64 {
///     v.iter().map(|&b| f64::from(b)).sum::<f64>() / (v.len() as f64).max(1.0)
/// }
///
/// mutfuzz::targets!(price, mean(compare = close));
///
/// // `main` runs the harness's command line for `cargo mutfuzz`; the registry behind it:
/// let registry = mutfuzz_targets();
/// assert_eq!(registry.is_generated("price"), Some(false));
/// assert_eq!(registry.is_generated("missing"), None);
/// ```
///
/// A leading `generated = module` registers the targets that `module` declares with
/// [`generated_targets!`](crate::generated_targets) (the module `cargo mutfuzz init --auto`
/// writes from the crate's public API), then the hand-written ones that follow, if any:
///
/// ```no_run
/// mod auto {
///     pub fn reverse(v: Vec<u8>) -> Vec<u8> {
///         v.into_iter().rev().collect()
///     }
///     mutfuzz::generated_targets!(reverse);
/// }
///
/// fn mine(x: u32) -> u64 {
///     u64::from(x) * 3
/// }
///
/// mutfuzz::targets!(generated = auto, mine);
/// ```
///
/// Besides `main`, it defines `mutfuzz_targets()`, the [`Registry`](super::Registry), through which the
/// regression tests that `cargo mutfuzz export` writes replay inputs.
#[macro_export]
macro_rules! targets {
    (generated = $module:ident $(, $name:ident $(( compare = $cmp:path ))?)* $(,)?) => {
        /// The targets of this harness.
        #[allow(dead_code)]
        pub(crate) fn mutfuzz_targets() -> $crate::harness::Registry {
            let mut registry = $crate::harness::Registry::new();
            $module::add_targets(&mut registry);
            $( $crate::__mutfuzz_add_target!(registry, $name $(, $cmp)?); )*
            registry
        }

        fn main() {
            mutfuzz_targets().main()
        }
    };
    ($($name:ident $(( compare = $cmp:path ))?),+ $(,)?) => {
        /// The targets of this harness.
        #[allow(dead_code)]
        pub(crate) fn mutfuzz_targets() -> $crate::harness::Registry {
            let mut registry = $crate::harness::Registry::new();
            $( $crate::__mutfuzz_add_target!(registry, $name $(, $cmp)?); )+
            registry
        }

        fn main() {
            mutfuzz_targets().main()
        }
    };
}

/// Declare the targets generated from a crate's public API, in the module that
/// `cargo mutfuzz init --auto` writes; [`targets!`](crate::targets)`(generated = module)`
/// registers them.
///
/// The syntax is [`targets!`](crate::targets)'s (`name`, `name(compare = path)`); it
/// defines `pub fn add_targets(registry: &mut mutfuzz::harness::Registry)`, which
/// registers each as a generated target ([`Registry::add_generated_target`](super::Registry::add_generated_target)): the
/// original's panic on an input is that input's outcome by contract, not a failure
/// (`--panic-is-failure` restores the strict rule), and a target whose original
/// disagrees with itself is judged by panics and runaways only instead of stopping the
/// campaign. Wrap an output holding hash maps or sets in [`SortedDebug`](crate::SortedDebug).
///
/// ```
/// mod auto {
///     use std::collections::HashMap;
///
///     pub fn checked_div((a, b): (i32, i32)) -> i32 {
///         a / b // panics on b == 0: by contract
///     }
///     pub fn counts(text: String) -> mutfuzz::SortedDebug<HashMap<char, usize>> {
///         let mut m = HashMap::new();
///         for c in text.chars() {
///             *m.entry(c).or_insert(0) += 1;
///         }
///         mutfuzz::SortedDebug(m)
///     }
///     fn same(a: &i32, b: &i32) -> bool {
///         a == b
///     }
///     mutfuzz::generated_targets!(checked_div(compare = same), counts);
/// }
///
/// let mut registry = mutfuzz::harness::Registry::new();
/// auto::add_targets(&mut registry);
/// assert_eq!(registry.is_generated("counts"), Some(true));
/// ```
#[macro_export]
macro_rules! generated_targets {
    ($($name:ident $(( compare = $cmp:path ))?),* $(,)?) => {
        /// Registers this module's generated targets.
        #[allow(unused_variables)]
        pub fn add_targets(registry: &mut $crate::harness::Registry) {
            $( $crate::__mutfuzz_add_target!(@generated registry, $name $(, $cmp)?); )*
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __mutfuzz_add_target {
    ($registry:ident, $name:ident) => {
        $registry.add_target(
            stringify!($name),
            $name as fn(_) -> _,
            None,
            $crate::__mutfuzz_raw_decoder!($name),
            $crate::__mutfuzz_reflector!($name),
        )
    };
    ($registry:ident, $name:ident, $cmp:path) => {
        $registry.add_target(
            stringify!($name),
            $name as fn(_) -> _,
            Some($cmp),
            $crate::__mutfuzz_raw_decoder!($name),
            $crate::__mutfuzz_reflector!($name),
        )
    };
    (@generated $registry:ident, $name:ident) => {
        $registry.add_generated_target(
            stringify!($name),
            $name as fn(_) -> _,
            None,
            $crate::__mutfuzz_raw_decoder!($name),
            $crate::__mutfuzz_reflector!($name),
        )
    };
    (@generated $registry:ident, $name:ident, $cmp:path) => {
        $registry.add_generated_target(
            stringify!($name),
            $name as fn(_) -> _,
            Some($cmp),
            $crate::__mutfuzz_raw_decoder!($name),
            $crate::__mutfuzz_reflector!($name),
        )
    };
}
