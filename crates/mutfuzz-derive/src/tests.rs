//! Tests of the derive's phases on token input: accepted shapes and every error message.

use syn::{DeriveInput, ItemImpl, parse_quote};

use crate::expand;

fn error_of(input: DeriveInput) -> String {
    match expand::derive(&input) {
        Ok(tokens) => panic!("expected an error, got {tokens}"),
        Err(error) => error.into_iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"),
    }
}

fn impl_of(input: DeriveInput) -> ItemImpl {
    let tokens = expand::derive(&input).expect("derive succeeds");
    syn::parse2(tokens).expect("the expansion is one impl")
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
        let item = impl_of(input);
        let path = item.trait_.expect("a trait impl").0;
        assert_eq!(quote::quote!(#path).to_string(), ":: mutfuzz :: Gen");
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
