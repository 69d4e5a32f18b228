//! Writes the `Reflect` impl emitted beside `Gen`: each field by its type (`Reflect`, else
//! its `Debug` text, else its type alone), whatever its generator attribute.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Ident, Path};

use crate::ast::{Body, Container, Fields, Style};

/// The `Reflect` impl of `container`; bounded by `Reflect` on every type parameter.
pub fn expand(container: &Container) -> TokenStream {
    let krate = &container.krate;
    let ident = container.ident;
    let mut generics = container.generics.clone();
    let params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    let where_clause = generics.make_where_clause();
    for param in params {
        where_clause.predicates.push(syn::parse_quote!(#param: #krate::Reflect));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let name = ident.to_string();
    let arms: Vec<TokenStream> = match &container.body {
        Body::Struct(fields) => {
            let (pattern, tree) = fields_of(krate, &quote!(Self), fields);
            vec![quote!(#pattern => #krate::contract::ValueTree::Struct {
                name: ::std::string::String::from(#name),
                fields: #tree,
            })]
        }
        Body::Enum(variants) => variants
            .iter()
            .map(|variant| {
                let variant_ident = variant.ident;
                let variant_name = variant_ident.to_string();
                let (pattern, tree) = fields_of(krate, &quote!(Self::#variant_ident), &variant.fields);
                quote!(#pattern => #krate::contract::ValueTree::Variant {
                    name: ::std::string::String::from(#name),
                    variant: ::std::string::String::from(#variant_name),
                    fields: #tree,
                })
            })
            .collect(),
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::Reflect for #ident #ty_generics #where_clause {
            fn reflect(&self) -> #krate::contract::ValueTree {
                #[allow(unused_imports)]
                use #krate::reflect::{ByDebug as _, ByNothing as _, ByReflect as _};
                match self {
                    #(#arms,)*
                }
            }
        }
    }
}

/// The pattern binding every field of a struct or variant at `path`, and the `Fields`
/// expression of their trees.
fn fields_of(krate: &Path, path: &TokenStream, fields: &Fields) -> (TokenStream, TokenStream) {
    let bindings: Vec<Ident> =
        (0..fields.fields.len()).map(|i| Ident::new(&format!("__mutfuzz_{i}"), Span::call_site())).collect();
    // The autoref probe picks `ByReflect`, `ByDebug` or `ByNothing` for each field's type.
    let trees = bindings.iter().map(|b| quote!((&&&#krate::reflect::Field(#b)).field_tree()));
    let members = fields.fields.iter().map(|field| &field.member);
    match fields.style {
        Style::Named => {
            let names = fields.fields.iter().map(|field| {
                let syn::Member::Named(name) = &field.member else { unreachable!("named fields have names") };
                name.to_string()
            });
            (
                quote!(#path { #(#members: #bindings,)* }),
                quote!(#krate::contract::Fields::Named(::std::vec![
                    #((::std::string::String::from(#names), #trees),)*
                ])),
            )
        }
        Style::Tuple => {
            (quote!(#path(#(#bindings,)*)), quote!(#krate::contract::Fields::Tuple(::std::vec![#(#trees,)*])))
        }
        Style::Unit => (quote!(#path), quote!(#krate::contract::Fields::Unit)),
    }
}
