//! `#[derive(Gen)]` for mutfuzz: generators for structs and enums, with
//! `#[mutfuzz(...)]` attributes to bound lengths and ranges or plug in custom generators,
//! and beside each generator the type's `Reflect` impl (its values as data).
//!
//! Use it through the facade, `#[derive(mutfuzz::Gen)]`; the attributes are
//! documented there. The macro works in phases: `attr` reads the attributes,
//! `ast` builds the model, `valid` checks it, `expand` writes the `Gen` impl and
//! `reflect` the `Reflect` impl beside it, and `fallback` keeps errors readable.

mod ast;
mod attr;
mod error;
mod expand;
mod fallback;
mod reflect;
#[cfg(test)]
mod tests;
mod valid;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `mutfuzz::Gen` and `mutfuzz::Reflect`; see the `mutfuzz` crate for the `#[mutfuzz(...)]` attributes.
#[proc_macro_derive(Gen, attributes(mutfuzz))]
pub fn derive_gen(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).unwrap_or_else(|error| fallback::expand(&input, error)).into()
}
