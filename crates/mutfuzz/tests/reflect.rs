//! `Reflect` as `#[derive(Gen)]` emits it: derived values as trees, each field by its type.

// The test types exist to be reflected; their fields are never read by name.
#![allow(dead_code)]

use std::any::type_name;

use mutfuzz::contract::{Fields, SeqKind, SignedType, UnsignedType, ValueTree};
use mutfuzz::{Arb, Gen, Reflect, Source};

fn u8_tree(value: u8) -> ValueTree {
    ValueTree::Unsigned { ty: UnsignedType::U8, value: value.into() }
}

fn string(text: &str) -> ValueTree {
    ValueTree::String(text.to_owned())
}

fn named(fields: Vec<(&str, ValueTree)>) -> Fields {
    Fields::Named(fields.into_iter().map(|(name, tree)| (name.to_owned(), tree)).collect())
}

/// A type with a hand-written `Gen` and no `Reflect`.
#[derive(Debug, PartialEq)]
struct Celsius(i16);

impl Gen for Celsius {
    fn generate(src: &mut Source) -> Self {
        Celsius(src.draw())
    }
}

/// Neither `Reflect` nor `Debug`.
#[derive(Default)]
struct Handle;

fn seven(_: &mut Source) -> u32 {
    7
}

#[derive(Gen)]
struct Order {
    #[mutfuzz(range = 1..=100)]
    quantity: u32,
    #[mutfuzz(len = 0..=8)]
    note: String,
    #[mutfuzz(with = seven)]
    fixed: u32,
    #[mutfuzz(arbitrary)]
    code: u16,
    #[mutfuzz(default)]
    handle: Handle,
    temperature: Celsius,
    raw: Arb<u8>,
}

#[test]
fn a_struct_with_named_fields_reflects_every_field_by_its_type() {
    let order = Order {
        quantity: 3,
        note: "hi".to_owned(),
        fixed: 7,
        code: 513,
        handle: Handle,
        temperature: Celsius(-4),
        raw: Arb(9),
    };
    let u32_tree = |value| ValueTree::Unsigned { ty: UnsignedType::U32, value };
    assert_eq!(
        order.reflect(),
        ValueTree::Struct {
            name: "Order".to_owned(),
            fields: named(vec![
                ("quantity", u32_tree(3)),
                ("note", string("hi")),
                ("fixed", u32_tree(7)),
                ("code", ValueTree::Unsigned { ty: UnsignedType::U16, value: 513 }),
                ("handle", ValueTree::Opaque { ty: type_name::<Handle>().to_owned(), debug: None }),
                (
                    "temperature",
                    ValueTree::Opaque {
                        ty: type_name::<Celsius>().to_owned(),
                        debug: Some("Celsius(-4)".to_owned())
                    }
                ),
                (
                    "raw",
                    ValueTree::Opaque { ty: type_name::<Arb<u8>>().to_owned(), debug: Some("9".to_owned()) }
                ),
            ]),
        }
    );
}

#[derive(Debug, Gen)]
struct Pair(i8, Vec<Option<(u8, String)>>);

#[test]
fn a_tuple_struct_reflects_nested_collections_options_and_tuples() {
    let pair = Pair(-1, vec![Some((2, "x".to_owned())), None]);
    assert_eq!(
        pair.reflect(),
        ValueTree::Struct {
            name: "Pair".to_owned(),
            fields: Fields::Tuple(vec![
                ValueTree::Signed { ty: SignedType::I8, value: -1 },
                ValueTree::Seq {
                    kind: SeqKind::Vec,
                    items: vec![
                        ValueTree::Option(Some(Box::new(ValueTree::Tuple(vec![u8_tree(2), string("x")])))),
                        ValueTree::Option(None),
                    ],
                },
            ]),
        }
    );
}

#[derive(Debug, Gen)]
enum Shape {
    Empty,
    Circle(u8),
    Rect {
        w: u8,
        #[mutfuzz(range = 1..=9)]
        h: u8,
    },
    #[mutfuzz(skip)]
    Custom(Celsius),
}

#[test]
fn an_enum_reflects_its_unit_tuple_and_struct_variants() {
    let variant = |name: &str, fields| ValueTree::Variant {
        name: "Shape".to_owned(),
        variant: name.to_owned(),
        fields,
    };
    assert_eq!(Shape::Empty.reflect(), variant("Empty", Fields::Unit));
    assert_eq!(Shape::Circle(5).reflect(), variant("Circle", Fields::Tuple(vec![u8_tree(5)])));
    assert_eq!(
        Shape::Rect { w: 2, h: 3 }.reflect(),
        variant("Rect", named(vec![("w", u8_tree(2)), ("h", u8_tree(3))]))
    );
    assert_eq!(
        Shape::Custom(Celsius(1)).reflect(),
        variant(
            "Custom",
            Fields::Tuple(vec![ValueTree::Opaque {
                ty: type_name::<Celsius>().to_owned(),
                debug: Some("Celsius(1)".to_owned())
            }])
        )
    );
}

#[derive(Debug, Gen)]
struct Tagged<T> {
    tag: char,
    value: Box<T>,
}

#[test]
fn a_generic_type_reflects_when_its_parameters_do() {
    let tagged = Tagged { tag: 'k', value: Box::new(Shape::Empty) };
    assert_eq!(
        tagged.reflect(),
        ValueTree::Struct {
            name: "Tagged".to_owned(),
            fields: named(vec![
                ("tag", ValueTree::Char('k')),
                (
                    "value",
                    ValueTree::Pointer {
                        kind: mutfuzz::contract::PointerKind::Box,
                        value: Box::new(ValueTree::Variant {
                            name: "Shape".to_owned(),
                            variant: "Empty".to_owned(),
                            fields: Fields::Unit,
                        }),
                    }
                ),
            ]),
        }
    );
    // `Tagged<Celsius>` still generates; only its reflection is missing.
    let generated = mutfuzz::generate::<Tagged<Celsius>>(vec![0; 8], mutfuzz::Rng::new(1)).value;
    assert_eq!(*generated.value, Celsius(0));
}
