//! Generated values as data: the [`ValueTree`] of one value (what `mutfuzz::Reflect`
//! builds) and the [`ValueRecord`] lines of the harness's `values` command, from which
//! a kept input can be written as Rust source.
//!
//! A tree says what the value is, not how it was generated: integers with their type,
//! floats by their bits (NaN, infinities and `-0.0` survive the round trip), collections
//! with their kind, structs and enum variants by the names written in the source (the
//! last path segment), and an [`Opaque`](ValueTree::Opaque) leaf holding `Debug` text for
//! values without reflection (`mutfuzz::Arb<T>`, types with a hand-written `Gen`).
//!
//! In JSON a tree is externally tagged (`{"unsigned":{"type":"u8","value":7}}`, `"unit"`)
//! and struct or variant fields are an object (named, in declaration order), an array
//! (positional) or `null` (none), which keeps the nesting shallow: `serde_json` refuses
//! documents nested deeper than 128 levels.

use std::fmt;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::files::Record;

/// One generated value, as a tree of the Rust values it is built from.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueTree {
    /// A signed integer.
    Signed {
        /// Its type.
        #[serde(rename = "type")]
        ty: SignedType,
        /// Its value, which fits `ty`.
        value: i128,
    },
    /// An unsigned integer.
    Unsigned {
        /// Its type.
        #[serde(rename = "type")]
        ty: UnsignedType,
        /// Its value, which fits `ty`.
        value: u128,
    },
    /// A float, exactly: its bits (an `f32`'s in the low 32), and how `Debug` shows it.
    Float {
        /// Its type.
        #[serde(rename = "type")]
        ty: FloatType,
        /// `to_bits()`, widened to 64 bits.
        bits: u64,
        /// `{:?}` of the value: `1.5`, `-0.0`, `NaN`, `inf`, `1e-7`.
        display: String,
    },
    /// A `bool`.
    Bool(bool),
    /// A `char`.
    Char(char),
    /// A `String`.
    String(String),
    /// `()`.
    Unit,
    /// A sequence or set: its elements in iteration order (hash sets: in the trees' order,
    /// so the same set always gives the same tree).
    Seq {
        /// Which collection.
        kind: SeqKind,
        /// The elements.
        items: Vec<ValueTree>,
    },
    /// A map: its entries in iteration order (hash maps: in the trees' order).
    Map {
        /// Which map.
        kind: MapKind,
        /// The entries, as `[key, value]` pairs.
        entries: Vec<(ValueTree, ValueTree)>,
    },
    /// A tuple of one or more elements (`()` is [`Unit`](ValueTree::Unit)).
    Tuple(Vec<ValueTree>),
    /// An array `[T; N]`.
    Array(Vec<ValueTree>),
    /// An `Option`: `null` for `None`.
    Option(Option<Box<ValueTree>>),
    /// A `Result`: `{"Ok": …}` or `{"Err": …}`.
    Result(Result<Box<ValueTree>, Box<ValueTree>>),
    /// A `Box`, `Rc` or `Arc` around a value.
    Pointer {
        /// Which pointer.
        kind: PointerKind,
        /// The value pointed to.
        value: Box<ValueTree>,
    },
    /// A struct (also `PhantomData`, a unit struct).
    Struct {
        /// The type's name as written in source, without its path or generic arguments.
        name: String,
        /// Its fields.
        fields: Fields,
    },
    /// A variant of an enum.
    Variant {
        /// The enum's name as written in source, without its path or generic arguments.
        name: String,
        /// The variant's name.
        variant: String,
        /// Its fields.
        fields: Fields,
    },
    /// A value without reflection: its type and `Debug` text (`None` when it has no `Debug`).
    Opaque {
        /// `std::any::type_name` of its type.
        #[serde(rename = "type")]
        ty: String,
        /// `{:?}` of the value.
        debug: Option<String>,
    },
}

/// The fields of a struct or enum variant; in JSON an object, an array or `null`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fields {
    /// `{ a: …, b: … }`, in declaration order.
    Named(Vec<(String, ValueTree)>),
    /// `(…, …)`, in order.
    Tuple(Vec<ValueTree>),
    /// No fields.
    Unit,
}

/// Defines a field-less enum whose JSON names are `$text`, with `name()` giving them.
macro_rules! named_kinds {
    ($(#[$doc:meta] $kind:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)+ })+) => {$(
        #[$doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum $kind {
            $($(#[$vdoc])* #[serde(rename = $text)] $variant,)+
        }

        impl $kind {
            /// The name as written in Rust source.
            pub fn name(self) -> &'static str {
                match self {
                    $($kind::$variant => $text,)+
                }
            }
        }
    )+};
}

named_kinds! {
    /// A signed integer type.
    SignedType {
        /// `i8`
        I8 = "i8",
        /// `i16`
        I16 = "i16",
        /// `i32`
        I32 = "i32",
        /// `i64`
        I64 = "i64",
        /// `i128`
        I128 = "i128",
        /// `isize`
        Isize = "isize",
    }
    /// An unsigned integer type.
    UnsignedType {
        /// `u8`
        U8 = "u8",
        /// `u16`
        U16 = "u16",
        /// `u32`
        U32 = "u32",
        /// `u64`
        U64 = "u64",
        /// `u128`
        U128 = "u128",
        /// `usize`
        Usize = "usize",
    }
    /// A float type.
    FloatType {
        /// `f32`
        F32 = "f32",
        /// `f64`
        F64 = "f64",
    }
    /// A collection of single elements.
    SeqKind {
        /// `Vec`
        Vec = "Vec",
        /// `VecDeque`
        VecDeque = "VecDeque",
        /// `BTreeSet`
        BTreeSet = "BTreeSet",
        /// `HashSet`
        HashSet = "HashSet",
    }
    /// A map.
    MapKind {
        /// `BTreeMap`
        BTreeMap = "BTreeMap",
        /// `HashMap`
        HashMap = "HashMap",
    }
    /// An owning pointer.
    PointerKind {
        /// `Box`
        Box = "Box",
        /// `Rc`
        Rc = "Rc",
        /// `Arc`
        Arc = "Arc",
    }
}

impl SignedType {
    /// The type's values (`isize` as 64 bits, as mutfuzz generates it on every platform).
    pub fn range(self) -> (i128, i128) {
        match self {
            SignedType::I8 => (i8::MIN.into(), i8::MAX.into()),
            SignedType::I16 => (i16::MIN.into(), i16::MAX.into()),
            SignedType::I32 => (i32::MIN.into(), i32::MAX.into()),
            SignedType::I64 | SignedType::Isize => (i64::MIN.into(), i64::MAX.into()),
            SignedType::I128 => (i128::MIN, i128::MAX),
        }
    }
}

impl UnsignedType {
    /// The largest value (`usize` as 64 bits, as mutfuzz generates it on every platform).
    pub fn max_value(self) -> u128 {
        match self {
            UnsignedType::U8 => u8::MAX.into(),
            UnsignedType::U16 => u16::MAX.into(),
            UnsignedType::U32 => u32::MAX.into(),
            UnsignedType::U64 | UnsignedType::Usize => u64::MAX.into(),
            UnsignedType::U128 => u128::MAX,
        }
    }
}

impl ValueTree {
    /// The tree of an `f32`.
    pub fn f32(value: f32) -> ValueTree {
        ValueTree::Float { ty: FloatType::F32, bits: value.to_bits().into(), display: format!("{value:?}") }
    }

    /// The tree of an `f64`.
    pub fn f64(value: f64) -> ValueTree {
        ValueTree::Float { ty: FloatType::F64, bits: value.to_bits(), display: format!("{value:?}") }
    }

    /// Refuse a tree that parses but contradicts itself: an integer out of its type's
    /// range, a float whose bits do not fit its type or whose display is not theirs, a
    /// struct or field without a name.
    pub fn check(&self) -> Result<(), String> {
        match self {
            ValueTree::Signed { ty, value } => {
                let (min, max) = ty.range();
                if !(min..=max).contains(value) {
                    return Err(format!("{value} is not an {}", ty.name()));
                }
            }
            ValueTree::Unsigned { ty, value } => {
                if *value > ty.max_value() {
                    return Err(format!("{value} is not a {}", ty.name()));
                }
            }
            ValueTree::Float { ty, bits, display } => {
                let expected = match ty {
                    FloatType::F32 => u32::try_from(*bits)
                        .map(|b| format!("{:?}", f32::from_bits(b)))
                        .map_err(|_| format!("bits {bits:#x} do not fit an f32"))?,
                    FloatType::F64 => format!("{:?}", f64::from_bits(*bits)),
                };
                if *display != expected {
                    return Err(format!(
                        "the {} of bits {bits:#x} shows as {expected}, not {display}",
                        ty.name()
                    ));
                }
            }
            ValueTree::Bool(_) | ValueTree::Char(_) | ValueTree::String(_) | ValueTree::Unit => {}
            ValueTree::Opaque { ty, .. } => {
                if ty.is_empty() {
                    return Err("an opaque value without its type".to_owned());
                }
            }
            ValueTree::Seq { items, .. } | ValueTree::Tuple(items) | ValueTree::Array(items) => {
                items.iter().try_for_each(ValueTree::check)?;
            }
            ValueTree::Map { entries, .. } => {
                entries.iter().try_for_each(|(k, v)| k.check().and_then(|()| v.check()))?;
            }
            ValueTree::Option(inner) => inner.as_deref().map_or(Ok(()), ValueTree::check)?,
            ValueTree::Result(Ok(inner) | Err(inner)) | ValueTree::Pointer { value: inner, .. } => {
                inner.check()?;
            }
            ValueTree::Struct { name, fields } => check_fields(name, fields)?,
            ValueTree::Variant { name, variant, fields } => {
                if variant.is_empty() {
                    return Err(format!("a variant of {name} without its name"));
                }
                check_fields(name, fields)?;
            }
        }
        Ok(())
    }
}

fn check_fields(name: &str, fields: &Fields) -> Result<(), String> {
    if name.is_empty() {
        return Err("a struct or enum without its name".to_owned());
    }
    match fields {
        Fields::Named(named) => named.iter().try_for_each(|(field, value)| {
            if field.is_empty() {
                return Err(format!("a field of {name} without its name"));
            }
            value.check()
        }),
        Fields::Tuple(values) => values.iter().try_for_each(ValueTree::check),
        Fields::Unit => Ok(()),
    }
}

impl Serialize for Fields {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Fields::Named(named) => {
                let mut map = serializer.serialize_map(Some(named.len()))?;
                for (name, value) in named {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
            Fields::Tuple(values) => {
                let mut seq = serializer.serialize_seq(Some(values.len()))?;
                for value in values {
                    seq.serialize_element(value)?;
                }
                seq.end()
            }
            Fields::Unit => serializer.serialize_unit(),
        }
    }
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Fields, D::Error> {
        struct FieldsVisitor;

        impl<'de> Visitor<'de> for FieldsVisitor {
            type Value = Fields;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("named fields (an object), positional fields (an array) or null")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
                let mut named: Vec<(String, ValueTree)> = Vec::new();
                while let Some((name, value)) = map.next_entry::<String, ValueTree>()? {
                    if named.iter().any(|(seen, _)| *seen == name) {
                        return Err(de::Error::custom(format!("field `{name}` appears twice")));
                    }
                    named.push((name, value));
                }
                Ok(Fields::Named(named))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Fields, A::Error> {
                let mut values = Vec::new();
                while let Some(value) = seq.next_element()? {
                    values.push(value);
                }
                Ok(Fields::Tuple(values))
            }

            fn visit_unit<E: de::Error>(self) -> Result<Fields, E> {
                Ok(Fields::Unit)
            }
        }

        deserializer.deserialize_any(FieldsVisitor)
    }
}

/// One line of the harness's `values <target> --corpus DIR --out FILE`: a stored input,
/// its value and how the original ends on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueRecord {
    /// The input's name (its file name) in the corpus.
    pub input: String,
    /// Its bytes, as hex digits.
    pub bytes: String,
    /// The value the bytes generate; `null` when the target's input type has no reflection.
    pub value: Option<ValueTree>,
    /// How the original ends on it, as in a [`ReplayRecord`](crate::ReplayRecord): the
    /// output's `Debug` rendering (`{:?}`), `panic: <message>` or `discarded`.
    pub output: String,
}

impl Record for ValueRecord {
    const WHAT: &'static str = "value record";

    fn check(&self) -> Result<(), String> {
        if crate::protocol::decode_hex(&self.bytes).is_none() {
            return Err(format!("input {}: the bytes are not hex digits", self.input));
        }
        match &self.value {
            Some(tree) => tree.check().map_err(|e| format!("input {}: {e}", self.input)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u8_tree(value: u8) -> ValueTree {
        ValueTree::Unsigned { ty: UnsignedType::U8, value: value.into() }
    }

    /// One tree of every shape.
    fn every_shape() -> ValueTree {
        ValueTree::Tuple(vec![
            ValueTree::Signed { ty: SignedType::I128, value: i128::MIN },
            ValueTree::Unsigned { ty: UnsignedType::U128, value: u128::MAX },
            ValueTree::f64(f64::NAN),
            ValueTree::f64(-0.0),
            ValueTree::f32(f32::NEG_INFINITY),
            ValueTree::f32(1.5),
            ValueTree::Bool(true),
            ValueTree::Char('é'),
            ValueTree::String("a\"b\n".to_owned()),
            ValueTree::Unit,
            ValueTree::Seq { kind: SeqKind::VecDeque, items: vec![u8_tree(1), u8_tree(2)] },
            ValueTree::Map { kind: MapKind::HashMap, entries: vec![(ValueTree::Char('k'), u8_tree(3))] },
            ValueTree::Array(vec![ValueTree::Bool(false)]),
            ValueTree::Option(None),
            ValueTree::Option(Some(Box::new(u8_tree(4)))),
            ValueTree::Result(Ok(Box::new(ValueTree::Unit))),
            ValueTree::Result(Err(Box::new(ValueTree::String(String::new())))),
            ValueTree::Pointer { kind: PointerKind::Arc, value: Box::new(u8_tree(5)) },
            ValueTree::Struct {
                name: "Order".to_owned(),
                fields: Fields::Named(vec![("b".to_owned(), u8_tree(6)), ("a".to_owned(), ValueTree::Unit)]),
            },
            ValueTree::Struct { name: "PhantomData".to_owned(), fields: Fields::Unit },
            ValueTree::Variant {
                name: "Expr".to_owned(),
                variant: "Num".to_owned(),
                fields: Fields::Tuple(vec![ValueTree::Signed { ty: SignedType::I64, value: -9 }]),
            },
            ValueTree::Opaque { ty: "mutfuzz::Arb<u32>".to_owned(), debug: Some("7".to_owned()) },
            ValueTree::Opaque { ty: "Secret".to_owned(), debug: None },
        ])
    }

    #[test]
    fn every_shape_round_trips_through_json_exactly() {
        let tree = every_shape();
        let json = serde_json::to_string(&tree).unwrap();
        let back: ValueTree = serde_json::from_str(&json).unwrap();
        assert_eq!(back, tree);
        assert_eq!(back.check(), Ok(()));
        let ValueTree::Tuple(items) = &back else { panic!("a tuple") };
        let ValueTree::Float { bits, .. } = &items[2] else { panic!("a float") };
        assert!(f64::from_bits(*bits).is_nan());
        let ValueTree::Float { bits, display, .. } = &items[3] else { panic!("a float") };
        assert_eq!((f64::from_bits(*bits).to_bits(), display.as_str()), ((-0.0f64).to_bits(), "-0.0"));
    }

    #[test]
    fn the_json_reads_as_the_value() {
        let json = |tree: &ValueTree| serde_json::to_string(tree).unwrap();
        assert_eq!(json(&u8_tree(7)), r#"{"unsigned":{"type":"u8","value":7}}"#);
        assert_eq!(
            json(&ValueTree::Unsigned { ty: UnsignedType::U128, value: u128::MAX }),
            r#"{"unsigned":{"type":"u128","value":340282366920938463463374607431768211455}}"#
        );
        assert_eq!(
            json(&ValueTree::f32(f32::INFINITY)),
            r#"{"float":{"type":"f32","bits":2139095040,"display":"inf"}}"#
        );
        assert_eq!(json(&ValueTree::Unit), r#""unit""#);
        assert_eq!(json(&ValueTree::Option(None)), r#"{"option":null}"#);
        assert_eq!(
            json(&ValueTree::Result(Ok(Box::new(ValueTree::Bool(true))))),
            r#"{"result":{"Ok":{"bool":true}}}"#
        );
        let shapes = every_shape();
        let ValueTree::Tuple(items) = &shapes else { panic!("a tuple") };
        assert_eq!(
            json(&items[18]),
            r#"{"struct":{"name":"Order","fields":{"b":{"unsigned":{"type":"u8","value":6}},"a":"unit"}}}"#
        );
        assert_eq!(json(&items[19]), r#"{"struct":{"name":"PhantomData","fields":null}}"#);
        assert_eq!(
            json(&items[20]),
            r#"{"variant":{"name":"Expr","variant":"Num","fields":[{"signed":{"type":"i64","value":-9}}]}}"#
        );
        assert_eq!(
            json(&items[11]),
            r#"{"map":{"kind":"HashMap","entries":[[{"char":"k"},{"unsigned":{"type":"u8","value":3}}]]}}"#
        );
    }

    #[test]
    fn contradictory_trees_and_records_are_refused() {
        let bad = ValueTree::Unsigned { ty: UnsignedType::U8, value: 256 };
        assert_eq!(bad.check(), Err("256 is not a u8".to_owned()));
        let bad = ValueTree::Signed { ty: SignedType::Isize, value: i128::from(i64::MIN) - 1 };
        assert_eq!(bad.check(), Err("-9223372036854775809 is not an isize".to_owned()));
        let bad = ValueTree::Float { ty: FloatType::F32, bits: 1 << 40, display: "0.0".to_owned() };
        assert_eq!(bad.check(), Err("bits 0x10000000000 do not fit an f32".to_owned()));
        let bad = ValueTree::Float { ty: FloatType::F64, bits: 0, display: "1.0".to_owned() };
        assert_eq!(bad.check(), Err("the f64 of bits 0x0 shows as 0.0, not 1.0".to_owned()));
        let nested = ValueTree::Option(Some(Box::new(ValueTree::Struct {
            name: "S".to_owned(),
            fields: Fields::Named(vec![(String::new(), ValueTree::Unit)]),
        })));
        assert_eq!(nested.check(), Err("a field of S without its name".to_owned()));
        let twice = r#"{"struct":{"name":"S","fields":{"a":"unit","a":"unit"}}}"#;
        let err = serde_json::from_str::<ValueTree>(twice).unwrap_err().to_string();
        assert!(err.starts_with("field `a` appears twice"), "{err}");
        assert!(serde_json::from_str::<ValueTree>(r#"{"signed":{"type":"u8","value":1}}"#).is_err());

        let record = ValueRecord {
            input: "ab".into(),
            bytes: "07".into(),
            value: Some(u8_tree(7)),
            output: "7".into(),
        };
        assert_eq!(record.check(), Ok(()));
        let line = serde_json::to_string(&record).unwrap();
        assert_eq!(
            line,
            r#"{"input":"ab","bytes":"07","value":{"unsigned":{"type":"u8","value":7}},"output":"7"}"#
        );
        assert_eq!(serde_json::from_str::<ValueRecord>(&line).unwrap(), record);
        let opaque = ValueRecord { value: None, ..record.clone() };
        assert_eq!(
            serde_json::to_string(&opaque).unwrap(),
            r#"{"input":"ab","bytes":"07","value":null,"output":"7"}"#
        );
        assert_eq!(
            ValueRecord { bytes: "0".into(), ..record.clone() }.check(),
            Err("input ab: the bytes are not hex digits".to_owned())
        );
        assert_eq!(
            ValueRecord { value: Some(bad), ..record }.check(),
            Err("input ab: the f64 of bits 0x0 shows as 0.0, not 1.0".to_owned())
        );
    }
}
