//! Writes the `Gen` impl: one draw per field in declaration order, one variant choice per enum.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident, Path};

use crate::ast::{Body, Container, Field, Fields, Style, Variant};
use crate::attr::Strategy;
use crate::error::Errors;
use crate::valid;

/// The whole derive: read, check, then expand `Gen` and `Reflect`.
pub fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let container = Container::from_ast(input, &mut errors)?;
    valid::check(&container, &mut errors);
    errors.finish()?;
    let reflect = crate::reflect::expand(&container);
    let generate = expand(&container);
    Ok(quote!(#generate #reflect))
}

/// The source parameter of the generated `generate`, named so it cannot clash with user code.
fn src() -> Ident {
    Ident::new("__mutfuzz_src", Span::call_site())
}

fn expand(container: &Container) -> TokenStream {
    let krate = &container.krate;
    let ident = container.ident;
    let mut generics = container.generics.clone();
    // Every type parameter must itself be generatable; the usual derive rule.
    let params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    let where_clause = generics.make_where_clause();
    for param in params {
        where_clause.predicates.push(syn::parse_quote!(#param: #krate::Gen));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let src = src();
    let body = match &container.body {
        Body::Struct(fields) => construct(krate, &quote!(Self), fields),
        Body::Enum(variants) => expand_enum(krate, variants),
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::Gen for #ident #ty_generics #where_clause {
            fn generate(#src: &mut #krate::Source) -> Self {
                #body
            }
        }
    }
}

/// A `match` on one variant choice; leaves are the variants that never lead back to the enum.
fn expand_enum(krate: &Path, variants: &[Variant]) -> TokenStream {
    let src = src();
    let generated: Vec<&Variant> = variants.iter().filter(|v| !v.skip).collect();
    let count = generated.len();
    let leaves =
        generated.iter().enumerate().filter(|(_, variant)| !variant.recursive).map(|(index, _)| index);
    let mut arms: Vec<TokenStream> = generated
        .iter()
        .map(|variant| {
            let name = variant.ident;
            construct(krate, &quote!(Self::#name), &variant.fields)
        })
        .collect();
    // The last arm is `_` so the match is exhaustive without an unreachable branch.
    let last = arms.pop();
    let indices = 0..arms.len();
    quote! {
        const LEAVES: &[usize] = &[#(#leaves),*];
        match #krate::Source::choose_variant(#src, #count, LEAVES) {
            #(#indices => #arms,)*
            _ => #last,
        }
    }
}

/// A struct or variant expression whose fields are drawn in declaration order.
fn construct(krate: &Path, path: &TokenStream, fields: &Fields) -> TokenStream {
    let values = fields.fields.iter().map(|field| draw(krate, field));
    match fields.style {
        Style::Named => {
            let members = fields.fields.iter().map(|field| &field.member);
            quote!(#path { #(#members: #values,)* })
        }
        Style::Tuple => quote!(#path(#(#values,)*)),
        Style::Unit => quote!(#path),
    }
}

/// The expression that produces one field, recorded as a span of the field's type.
fn draw(krate: &Path, field: &Field) -> TokenStream {
    let src = src();
    let ty = field.ty;
    // Spans on the generated call make type errors point at the user's field or attribute.
    match &field.strategy {
        Strategy::Draw => quote_spanned!(ty.span()=> #krate::Source::draw::<#ty>(#src)),
        Strategy::Range(range) => {
            quote_spanned!(range.span()=> #krate::Source::draw_in_range::<#ty>(#src, #range))
        }
        Strategy::Len(len) => {
            quote_spanned!(len.span()=> #krate::Source::draw_len::<#ty>(#src, #len))
        }
        Strategy::With(function) => {
            quote_spanned!(function.span()=> #krate::Source::spanned::<#ty>(#src, #function))
        }
        Strategy::Arbitrary => {
            quote_spanned!(ty.span()=> #krate::Source::draw_arbitrary::<#ty>(#src))
        }
        Strategy::Default => {
            quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default())
        }
    }
}
