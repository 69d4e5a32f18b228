//! Tests of the derive's phases on token input: accepted shapes and every error message.

use syn::{DeriveInput, ItemImpl, parse_quote};

use crate::expand;

fn error_of(input: DeriveInput) -> String {
    match expand::derive(&input) {
        Ok(tokens) => panic!("expected an error, got {tokens}"),
        Err(error) => error.into_iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"),
    }
}

/// The expansion's impls: `Gen`, then `Reflect`.
fn impls_of(input: DeriveInput) -> (ItemImpl, ItemImpl) {
    let tokens = expand::derive(&input).expect("derive succeeds");
    let file: syn::File = syn::parse2(tokens).expect("the expansion is items");
    match &file.items[..] {
        [syn::Item::Impl(generate), syn::Item::Impl(reflect)] => (generate.clone(), reflect.clone()),
        items => panic!("expected two impls, got {}", items.len()),
    }
}

fn impl_of(input: DeriveInput) -> ItemImpl {
    impls_of(input).0
}

fn trait_of(item: &ItemImpl) -> String {
    let path = &item.trait_.as_ref().expect("a trait impl").0;
    quote::quote!(#path).to_string()
}

#[test]
fn structs_of_every_style_expand_to_one_gen_impl() {
    for input in [
        parse_quote!(
            struct Named {
                a: u8,
                #[mutfuzz(len = 0..=3)]
                b: Vec<u8>,
            }
        ),
        parse_quote!(
            struct Tuple(u8, #[mutfuzz(range = 1..=9)] i32);
        ),
        parse_quote!(
            struct Unit;
        ),
    ] {
        let (generate, reflect) = impls_of(input);
        assert_eq!(
            (trait_of(&generate), trait_of(&reflect)),
            (":: mutfuzz :: Gen".to_owned(), ":: mutfuzz :: Reflect".to_owned())
        );
    }
}

#[test]
fn type_parameters_get_a_gen_bound() {
    let item = impl_of(parse_quote!(
        struct Wrap<T, U: Clone> {
            t: T,
            u: U,
        }
    ));
    let bounds = item.generics.where_clause.expect("a where clause");
    let text = quote::quote!(#bounds).to_string();
    assert!(text.contains("T : :: mutfuzz :: Gen"), "{text}");
    assert!(text.contains("U : :: mutfuzz :: Gen"), "{text}");
}

/// The body of the `Reflect` impl of `input`, as tokens.
fn reflect_body(input: DeriveInput) -> String {
    let (_, reflect) = impls_of(input);
    let syn::ImplItem::Fn(function) = &reflect.items[0] else { panic!("a method") };
    let block = &function.block;
    quote::quote!(#block).to_string()
}

/// How the derive reflects field `b`.
fn field(b: &str) -> String {
    format!("(&& & :: mutfuzz :: reflect :: Field ({b})) . field_tree ()")
}

#[test]
fn a_struct_with_named_fields_reflects_each_field_by_name_whatever_its_attribute() {
    let body = reflect_body(parse_quote!(
        struct Order {
            #[mutfuzz(range = 1..=100)]
            quantity: u32,
            #[mutfuzz(default)]
            note: Secret,
        }
    ));
    let expected = format!(
        "{{ # [allow (unused_imports)] use :: mutfuzz :: reflect :: {{ ByDebug as _ , ByNothing as _ , ByReflect as _ }} ; \
         match self {{ Self {{ quantity : __mutfuzz_0 , note : __mutfuzz_1 , }} => :: mutfuzz :: contract :: ValueTree :: Struct {{ \
         name : :: std :: string :: String :: from (\"Order\") , fields : :: mutfuzz :: contract :: Fields :: Named (:: std :: vec ! [\
         (:: std :: string :: String :: from (\"quantity\") , {}) , (:: std :: string :: String :: from (\"note\") , {}) ,]) , }} , }} }}",
        field("__mutfuzz_0"),
        field("__mutfuzz_1"),
    );
    assert_eq!(body, expected);
}

#[test]
fn a_tuple_struct_reflects_its_fields_in_order() {
    let body = reflect_body(parse_quote!(
        struct Pair(u8, #[mutfuzz(with = make)] Vec<Option<(u8, String)>>);
    ));
    let expected = format!(
        "{{ # [allow (unused_imports)] use :: mutfuzz :: reflect :: {{ ByDebug as _ , ByNothing as _ , ByReflect as _ }} ; \
         match self {{ Self (__mutfuzz_0 , __mutfuzz_1 ,) => :: mutfuzz :: contract :: ValueTree :: Struct {{ \
         name : :: std :: string :: String :: from (\"Pair\") , fields : :: mutfuzz :: contract :: Fields :: Tuple (:: std :: vec ! [{} , {} ,]) , }} , }} }}",
        field("__mutfuzz_0"),
        field("__mutfuzz_1"),
    );
    assert_eq!(body, expected);
}

#[test]
fn an_enum_reflects_every_variant_skipped_ones_too() {
    let body = reflect_body(parse_quote!(
        enum Shape {
            Empty,
            Dot(i8),
            #[mutfuzz(skip)]
            Box {
                w: u8,
                h: u8,
            },
        }
    ));
    let variant = |name: &str, pattern: &str, fields: &str| {
        format!(
            "{pattern} => :: mutfuzz :: contract :: ValueTree :: Variant {{ name : :: std :: string :: String :: from (\"Shape\") , \
             variant : :: std :: string :: String :: from (\"{name}\") , fields : {fields} , }}"
        )
    };
    let arms = [
        variant("Empty", "Self :: Empty", ":: mutfuzz :: contract :: Fields :: Unit"),
        variant(
            "Dot",
            "Self :: Dot (__mutfuzz_0 ,)",
            &format!(
                ":: mutfuzz :: contract :: Fields :: Tuple (:: std :: vec ! [{} ,])",
                field("__mutfuzz_0")
            ),
        ),
        variant(
            "Box",
            "Self :: Box { w : __mutfuzz_0 , h : __mutfuzz_1 , }",
            &format!(
                ":: mutfuzz :: contract :: Fields :: Named (:: std :: vec ! [(:: std :: string :: String :: from (\"w\") , {}) , \
                 (:: std :: string :: String :: from (\"h\") , {}) ,])",
                field("__mutfuzz_0"),
                field("__mutfuzz_1")
            ),
        ),
    ];
    let expected = format!(
        "{{ # [allow (unused_imports)] use :: mutfuzz :: reflect :: {{ ByDebug as _ , ByNothing as _ , ByReflect as _ }} ; \
         match self {{ {} , {} , {} , }} }}",
        arms[0], arms[1], arms[2]
    );
    assert_eq!(body, expected);
}

#[test]
fn type_parameters_get_a_reflect_bound_and_the_crate_path_is_used() {
    let (_, reflect) = impls_of(parse_quote!(
        #[mutfuzz(crate = my::fuzz)]
        struct Wrap<T> {
            t: T,
        }
    ));
    assert_eq!(trait_of(&reflect), "my :: fuzz :: Reflect");
    let bounds = reflect.generics.where_clause.expect("a where clause");
    assert_eq!(quote::quote!(#bounds).to_string(), "where T : my :: fuzz :: Reflect");
}

#[test]
fn only_variants_that_name_the_enum_are_kept_from_exhausted_sources() {
    let item = impl_of(parse_quote! {
        enum Expr {
            Num(i64),
            Add(Box<Expr>, Box<Self>),
            #[mutfuzz(recursive)]
            Call(Vec<Stmt>),
            Lit(#[mutfuzz(default)] Option<Box<Expr>>),
            #[mutfuzz(skip)]
            Hole(NotGen),
        }
    });
    let text = quote::quote!(#item).to_string();
    // Generated variants are numbered 0..4 without the skipped one; 0 and 3 are leaves.
    assert!(text.contains("const LEAVES : & [usize] = & [0usize , 3usize]"), "{text}");
    assert!(text.contains("choose_variant (__mutfuzz_src , 4usize , LEAVES)"), "{text}");
    assert!(!text.contains("Hole"), "{text}");
}

#[test]
fn unions_are_rejected() {
    let message = error_of(parse_quote!(union U { a: u8, b: f32 }));
    assert!(message.contains("does not support unions"), "{message}");
}

#[test]
fn empty_and_fully_skipped_enums_are_rejected() {
    let message = error_of(parse_quote!(
        enum Never {}
    ));
    assert!(message.contains("needs at least one variant"), "{message}");
    let message = error_of(parse_quote!(
        enum AllSkipped {
            #[mutfuzz(skip)]
            A,
        }
    ));
    assert!(message.contains("every variant is `#[mutfuzz(skip)]`"), "{message}");
}

#[test]
fn unknown_attributes_are_rejected_with_the_expected_keys() {
    let message = error_of(parse_quote!(
        struct S {
            #[mutfuzz(size = 3)]
            a: u8,
        }
    ));
    assert!(message.contains("unknown field attribute `size`"), "{message}");
    let message = error_of(parse_quote!(
        enum E {
            #[mutfuzz(range = 1..2)]
            A,
        }
    ));
    assert!(message.contains("unknown variant attribute `range`"), "{message}");
    let message = error_of(parse_quote!(
        #[mutfuzz(skip)]
        struct S;
    ));
    assert!(message.contains("unknown container attribute `skip`"), "{message}");
}

#[test]
fn conflicting_and_duplicate_field_attributes_are_rejected() {
    let message = error_of(parse_quote!(
        struct S {
            #[mutfuzz(range = 1..2, len = 0..3)]
            a: u8,
        }
    ));
    assert!(message.contains("`len` conflicts with `range`"), "{message}");
    let message = error_of(parse_quote!(
        struct S {
            #[mutfuzz(default)]
            #[mutfuzz(default)]
            a: u8,
        }
    ));
    assert!(message.contains("duplicate `default` attribute"), "{message}");
    let message = error_of(parse_quote!(
        enum E {
            #[mutfuzz(skip, skip)]
            A,
            B,
        }
    ));
    assert!(message.contains("duplicate `skip` attribute"), "{message}");
}

#[test]
fn every_error_in_the_input_is_reported_at_once() {
    let message = error_of(parse_quote! {
        enum E {
            #[mutfuzz(bogus)]
            A(#[mutfuzz(nope)] u8),
        }
    });
    assert!(message.contains("`bogus`"), "{message}");
    assert!(message.contains("`nope`"), "{message}");
}

#[test]
fn a_rejected_input_still_gets_a_stand_in_impl() {
    let input: DeriveInput = parse_quote!(union U { a: u8 });
    let error = expand::derive(&input).expect_err("unions are rejected");
    let text = crate::fallback::expand(&input, error).to_string();
    assert!(text.contains("compile_error"), "{text}");
    assert!(text.contains("impl :: mutfuzz :: Gen for U"), "{text}");
}
