//! Generated values as data: the [`Reflect`] trait, its impls for the std types that have
//! a [`Gen`](crate::Gen) impl, and the autoref probes that find it for a derived type's
//! fields and a target's input type.
//!
//! `#[derive(Gen)]` implements `Reflect` beside `Gen` (for a generic type, when every
//! type parameter is `Reflect`). Each field reflects by its type, whatever its
//! `#[mutfuzz(...)]` attribute says about generating it: by `Reflect` when the type
//! implements it, else as [`ValueTree::Opaque`] with the value's `Debug` text, else as an
//! opaque value without text. `Reflect` is not a supertrait of `Gen`, so a type with a
//! hand-written `Gen` impl needs none; [`targets!`](crate::targets) finds whether a
//! target's input type implements it with the concrete type in hand, as it finds
//! `Arbitrary` (see [`raw`](crate::raw)): a method call on `&Probe<T>` picks
//! [`ViaReflect`] when `T: Reflect` and falls back to [`NoReflect`].

use std::any::type_name;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::Arc;

use mutfuzz_contract::{Fields, MapKind, PointerKind, SeqKind, SignedType, UnsignedType, ValueTree};

use crate::r#gen::Arb;

/// A value that can describe itself as a [`ValueTree`], so a kept input can be shown as
/// data and written back as Rust source.
///
/// Derived with `#[derive(mutfuzz::Gen)]`; implemented for every std type that has a
/// [`Gen`](crate::Gen) impl, and for [`Arb<T>`] as an opaque value.
///
/// ```
/// use mutfuzz::contract::{Fields, UnsignedType, ValueTree};
/// use mutfuzz::{Gen, Reflect};
///
/// #[derive(Debug, Gen)]
/// struct Point {
///     x: u8,
///     #[mutfuzz(default)]
///     label: Option<String>,
/// }
///
/// let tree = Point { x: 3, label: None }.reflect();
/// assert_eq!(
///     tree,
///     ValueTree::Struct {
///         name: "Point".to_owned(),
///         fields: Fields::Named(vec![
///             ("x".to_owned(), ValueTree::Unsigned { ty: UnsignedType::U8, value: 3 }),
///             ("label".to_owned(), ValueTree::Option(None)),
///         ]),
///     }
/// );
/// ```
pub trait Reflect {
    /// The value as a tree.
    fn reflect(&self) -> ValueTree;
}

macro_rules! reflect_int {
    ($variant:ident, $kind:ident, $wide:ty: $($t:ty => $ty:ident),*) => {$(
        impl Reflect for $t {
            fn reflect(&self) -> ValueTree {
                ValueTree::$variant { ty: $kind::$ty, value: *self as $wide }
            }
        }
    )*};
}
reflect_int!(Signed, SignedType, i128: i8 => I8, i16 => I16, i32 => I32, i64 => I64, i128 => I128, isize => Isize);
reflect_int!(Unsigned, UnsignedType, u128: u8 => U8, u16 => U16, u32 => U32, u64 => U64, u128 => U128, usize => Usize);

impl Reflect for f32 {
    fn reflect(&self) -> ValueTree {
        ValueTree::f32(*self)
    }
}

impl Reflect for f64 {
    fn reflect(&self) -> ValueTree {
        ValueTree::f64(*self)
    }
}

impl Reflect for bool {
    fn reflect(&self) -> ValueTree {
        ValueTree::Bool(*self)
    }
}

impl Reflect for char {
    fn reflect(&self) -> ValueTree {
        ValueTree::Char(*self)
    }
}

impl Reflect for () {
    fn reflect(&self) -> ValueTree {
        ValueTree::Unit
    }
}

impl Reflect for String {
    fn reflect(&self) -> ValueTree {
        ValueTree::String(self.clone())
    }
}

/// The trees of `items`, in order.
fn trees<'a, T: Reflect + 'a>(items: impl IntoIterator<Item = &'a T>) -> Vec<ValueTree> {
    items.into_iter().map(Reflect::reflect).collect()
}

/// The trees of `items` in the trees' order: hash collections iterate in an order that
/// changes from process to process.
fn sorted<'a, T: Reflect + 'a>(items: impl IntoIterator<Item = &'a T>) -> Vec<ValueTree> {
    let mut trees = trees(items);
    trees.sort();
    trees
}

impl<T: Reflect> Reflect for Vec<T> {
    fn reflect(&self) -> ValueTree {
        ValueTree::Seq { kind: SeqKind::Vec, items: trees(self) }
    }
}

impl<T: Reflect> Reflect for VecDeque<T> {
    fn reflect(&self) -> ValueTree {
        ValueTree::Seq { kind: SeqKind::VecDeque, items: trees(self) }
    }
}

impl<T: Reflect> Reflect for BTreeSet<T> {
    fn reflect(&self) -> ValueTree {
        ValueTree::Seq { kind: SeqKind::BTreeSet, items: trees(self) }
    }
}

impl<T: Reflect, S> Reflect for HashSet<T, S> {
    fn reflect(&self) -> ValueTree {
        ValueTree::Seq { kind: SeqKind::HashSet, items: sorted(self) }
    }
}

impl<K: Reflect, V: Reflect> Reflect for BTreeMap<K, V> {
    fn reflect(&self) -> ValueTree {
        let entries = self.iter().map(|(k, v)| (k.reflect(), v.reflect())).collect();
        ValueTree::Map { kind: MapKind::BTreeMap, entries }
    }
}

impl<K: Reflect, V: Reflect, S> Reflect for HashMap<K, V, S> {
    fn reflect(&self) -> ValueTree {
        let mut entries: Vec<_> = self.iter().map(|(k, v)| (k.reflect(), v.reflect())).collect();
        entries.sort();
        ValueTree::Map { kind: MapKind::HashMap, entries }
    }
}

macro_rules! reflect_tuple {
    ($($t:ident $i:tt),+) => {
        impl<$($t: Reflect),+> Reflect for ($($t,)+) {
            fn reflect(&self) -> ValueTree {
                ValueTree::Tuple(vec![$(self.$i.reflect()),+])
            }
        }
    };
}
reflect_tuple!(A 0);
reflect_tuple!(A 0, B 1);
reflect_tuple!(A 0, B 1, C 2);
reflect_tuple!(A 0, B 1, C 2, D 3);
reflect_tuple!(A 0, B 1, C 2, D 3, E 4);
reflect_tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
reflect_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
reflect_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
reflect_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
reflect_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
reflect_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
reflect_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);

impl<T: Reflect, const N: usize> Reflect for [T; N] {
    fn reflect(&self) -> ValueTree {
        ValueTree::Array(trees(self))
    }
}

impl<T: Reflect> Reflect for Option<T> {
    fn reflect(&self) -> ValueTree {
        ValueTree::Option(self.as_ref().map(|v| Box::new(v.reflect())))
    }
}

impl<T: Reflect, E: Reflect> Reflect for Result<T, E> {
    fn reflect(&self) -> ValueTree {
        ValueTree::Result(match self {
            Ok(v) => Ok(Box::new(v.reflect())),
            Err(e) => Err(Box::new(e.reflect())),
        })
    }
}

macro_rules! reflect_pointer {
    ($($p:ident),*) => {$(
        impl<T: Reflect> Reflect for $p<T> {
            fn reflect(&self) -> ValueTree {
                ValueTree::Pointer { kind: PointerKind::$p, value: Box::new((**self).reflect()) }
            }
        }
    )*};
}
reflect_pointer!(Box, Rc, Arc);

impl<T: ?Sized> Reflect for PhantomData<T> {
    fn reflect(&self) -> ValueTree {
        ValueTree::Struct { name: "PhantomData".to_owned(), fields: Fields::Unit }
    }
}

/// Opaque: `arbitrary` builds the value from bytes, and its type's structure is not known.
impl<T: Debug> Reflect for Arb<T> {
    fn reflect(&self) -> ValueTree {
        opaque::<Self>(Some(format!("{self:?}")))
    }
}

fn opaque<T: ?Sized>(debug: Option<String>) -> ValueTree {
    ValueTree::Opaque { ty: type_name::<T>().to_owned(), debug }
}

/// A field of a derived type, for choosing how it reflects: the derive calls
/// `(&&&Field(&value)).field_tree()`, which picks [`ByReflect`], then [`ByDebug`], then
/// [`ByNothing`], the first whose bound the field's type meets.
#[doc(hidden)]
pub struct Field<'a, T>(pub &'a T);

/// Chosen for fields whose type implements [`Reflect`].
#[doc(hidden)]
pub trait ByReflect {
    /// The field's tree.
    fn field_tree(&self) -> ValueTree;
}

impl<T: Reflect> ByReflect for &&Field<'_, T> {
    fn field_tree(&self) -> ValueTree {
        self.0.reflect()
    }
}

/// Chosen for fields whose type implements `Debug` only.
#[doc(hidden)]
pub trait ByDebug {
    /// An opaque tree with the field's `Debug` text.
    fn field_tree(&self) -> ValueTree;
}

impl<T: Debug> ByDebug for &Field<'_, T> {
    fn field_tree(&self) -> ValueTree {
        opaque::<T>(Some(format!("{:?}", self.0)))
    }
}

/// Chosen for every other field.
#[doc(hidden)]
pub trait ByNothing {
    /// An opaque tree with the field's type only.
    fn field_tree(&self) -> ValueTree;
}

impl<T> ByNothing for Field<'_, T> {
    fn field_tree(&self) -> ValueTree {
        opaque::<T>(None)
    }
}

/// Makes a target's input into its tree.
pub type Reflector<T> = fn(&T) -> ValueTree;

/// A target's input type, for finding its [`Reflector`].
#[doc(hidden)]
pub struct Probe<T>(PhantomData<T>);

/// The probe of `target`'s input type.
#[doc(hidden)]
pub fn probe<T, O>(_target: fn(T) -> O) -> Probe<T> {
    Probe(PhantomData)
}

/// Chosen for input types that implement [`Reflect`].
#[doc(hidden)]
pub trait ViaReflect<T> {
    /// `T::reflect`.
    fn reflector(&self) -> Option<Reflector<T>>;
}

impl<T: Reflect> ViaReflect<T> for Probe<T> {
    fn reflector(&self) -> Option<Reflector<T>> {
        Some(<T as Reflect>::reflect)
    }
}

/// Chosen for every other input type.
#[doc(hidden)]
pub trait NoReflect<T> {
    /// None: the inputs have no value tree.
    fn reflector(&self) -> Option<Reflector<T>>;
}

impl<T> NoReflect<T> for &Probe<T> {
    fn reflector(&self) -> Option<Reflector<T>> {
        None
    }
}

/// The [`Reflector`] of target `$name`'s input type, if it implements [`Reflect`].
#[doc(hidden)]
#[macro_export]
macro_rules! __mutfuzz_reflector {
    ($name:ident) => {{
        #[allow(unused_imports)]
        use $crate::reflect::{NoReflect as _, ViaReflect as _};
        (&$crate::reflect::probe($name)).reflector()
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u8_tree(value: u8) -> ValueTree {
        ValueTree::Unsigned { ty: UnsignedType::U8, value: value.into() }
    }

    fn string(text: &str) -> ValueTree {
        ValueTree::String(text.to_owned())
    }

    #[test]
    fn primitives_reflect_with_their_types() {
        assert_eq!((-5i8).reflect(), ValueTree::Signed { ty: SignedType::I8, value: -5 });
        assert_eq!(
            isize::MIN.reflect(),
            ValueTree::Signed { ty: SignedType::Isize, value: isize::MIN as i128 }
        );
        assert_eq!(u128::MAX.reflect(), ValueTree::Unsigned { ty: UnsignedType::U128, value: u128::MAX });
        assert_eq!(7usize.reflect(), ValueTree::Unsigned { ty: UnsignedType::Usize, value: 7 });
        assert_eq!((-0.0f64).reflect(), ValueTree::f64(-0.0));
        let ValueTree::Float { bits, display, .. } = f32::NAN.reflect() else { panic!("a float") };
        assert_eq!((bits, display.as_str()), (u64::from(f32::NAN.to_bits()), "NaN"));
        assert_eq!(
            (true.reflect(), 'x'.reflect(), ().reflect()),
            (ValueTree::Bool(true), ValueTree::Char('x'), ValueTree::Unit)
        );
        assert_eq!("hé".to_owned().reflect(), string("hé"));
    }

    #[test]
    fn collections_reflect_with_their_kinds_and_hash_ones_in_a_stable_order() {
        assert_eq!(
            vec![1u8, 2].reflect(),
            ValueTree::Seq { kind: SeqKind::Vec, items: vec![u8_tree(1), u8_tree(2)] }
        );
        assert_eq!(
            VecDeque::from([3u8]).reflect(),
            ValueTree::Seq { kind: SeqKind::VecDeque, items: vec![u8_tree(3)] }
        );
        assert_eq!(
            BTreeSet::from([2u8, 1]).reflect(),
            ValueTree::Seq { kind: SeqKind::BTreeSet, items: vec![u8_tree(1), u8_tree(2)] }
        );
        let set: HashSet<u8> = (0..40).rev().collect();
        assert_eq!(
            set.reflect(),
            ValueTree::Seq { kind: SeqKind::HashSet, items: (0..40).map(u8_tree).collect() }
        );
        assert_eq!(
            BTreeMap::from([(2u8, 'b'), (1, 'a')]).reflect(),
            ValueTree::Map {
                kind: MapKind::BTreeMap,
                entries: vec![(u8_tree(1), ValueTree::Char('a')), (u8_tree(2), ValueTree::Char('b'))]
            }
        );
        let map: HashMap<u8, bool> = (0..20).map(|k| (k, k % 2 == 0)).collect();
        assert_eq!(
            map.reflect(),
            ValueTree::Map {
                kind: MapKind::HashMap,
                entries: (0..20).map(|k| (u8_tree(k), ValueTree::Bool(k % 2 == 0))).collect()
            }
        );
    }

    #[test]
    fn tuples_arrays_and_wrappers_reflect_around_their_values() {
        let value: Vec<Option<(u8, String)>> = vec![Some((1, "a".to_owned())), None];
        assert_eq!(
            value.reflect(),
            ValueTree::Seq {
                kind: SeqKind::Vec,
                items: vec![
                    ValueTree::Option(Some(Box::new(ValueTree::Tuple(vec![u8_tree(1), string("a")])))),
                    ValueTree::Option(None),
                ],
            }
        );
        assert_eq!([true; 2].reflect(), ValueTree::Array(vec![ValueTree::Bool(true); 2]));
        assert_eq!(
            (1u8, 2u8, 3u8, 4u8, 5u8, 6u8, 7u8, 8u8, 9u8, 10u8, 11u8, 12u8).reflect(),
            ValueTree::Tuple((1..=12).map(u8_tree).collect())
        );
        let ok: Result<u8, String> = Ok(4);
        let err: Result<u8, String> = Err("e".to_owned());
        assert_eq!(ok.reflect(), ValueTree::Result(Ok(Box::new(u8_tree(4)))));
        assert_eq!(err.reflect(), ValueTree::Result(Err(Box::new(string("e")))));
        let rc = Rc::new(Box::new(5u8));
        assert_eq!(
            rc.reflect(),
            ValueTree::Pointer {
                kind: PointerKind::Rc,
                value: Box::new(ValueTree::Pointer { kind: PointerKind::Box, value: Box::new(u8_tree(5)) })
            }
        );
        assert_eq!(
            Arc::new(()).reflect(),
            ValueTree::Pointer { kind: PointerKind::Arc, value: Box::new(ValueTree::Unit) }
        );
        assert_eq!(
            PhantomData::<str>.reflect(),
            ValueTree::Struct { name: "PhantomData".to_owned(), fields: Fields::Unit }
        );
        assert_eq!(
            Arb((1u8, 'z')).reflect(),
            ValueTree::Opaque {
                ty: type_name::<Arb<(u8, char)>>().to_owned(),
                debug: Some("(1, 'z')".to_owned())
            }
        );
    }

    #[derive(Debug)]
    struct DebugOnly(u8);
    struct Nothing;

    // The three borrows are the probe, written as the derive writes them.
    #[allow(clippy::needless_borrow)]
    #[test]
    fn a_field_reflects_by_reflect_then_debug_then_its_type_alone() {
        assert_eq!((&&&Field(&7u8)).field_tree(), u8_tree(7));
        assert_eq!(
            (&&&Field(&DebugOnly(3))).field_tree(),
            ValueTree::Opaque {
                ty: type_name::<DebugOnly>().to_owned(),
                debug: Some("DebugOnly(3)".to_owned())
            }
        );
        assert_eq!(
            (&&&Field(&Nothing)).field_tree(),
            ValueTree::Opaque { ty: type_name::<Nothing>().to_owned(), debug: None }
        );
    }

    fn takes_pair(p: (u8, String)) -> usize {
        p.1.len() + usize::from(p.0)
    }
    fn takes_debug_only(d: DebugOnly) -> u8 {
        d.0
    }

    #[test]
    fn a_target_of_a_reflect_type_has_a_reflector_and_another_has_none() {
        let reflect = __mutfuzz_reflector!(takes_pair).expect("(u8, String) is Reflect");
        assert_eq!(reflect(&(2, "b".to_owned())), ValueTree::Tuple(vec![u8_tree(2), string("b")]));
        assert!(__mutfuzz_reflector!(takes_debug_only).is_none());
        assert_eq!(takes_pair((1, "a".to_owned())) + usize::from(takes_debug_only(DebugOnly(0))), 2);
    }
}
