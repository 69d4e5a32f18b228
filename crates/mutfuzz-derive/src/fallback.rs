//! What the derive emits when the input is rejected: the errors, plus a stand-in impl.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

/// The compile errors, and an impl of `Gen` with the same signature so that uses of the
/// type elsewhere do not pile up secondary "`Gen` is not implemented" errors.
pub fn expand(input: &DeriveInput, error: syn::Error) -> TokenStream {
    let errors = error.into_compile_error();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #errors
        #[automatically_derived]
        impl #impl_generics ::mutfuzz::Gen for #ident #ty_generics #where_clause {
            fn generate(_: &mut ::mutfuzz::Source) -> Self {
                // Never runs: the compile errors above stop the build.
                ::core::unreachable!()
            }
        }
    }
}
