//! Checks the model for types that cannot be generated, with errors on the offending tokens.

use crate::ast::{Body, Container};
use crate::error::Errors;

/// Reports every problem in `container` to `errors`.
pub fn check(container: &Container, errors: &mut Errors) {
    if let Body::Enum(variants) = &container.body {
        if variants.is_empty() {
            errors.push(syn::Error::new_spanned(
                container.ident,
                "#[derive(Gen)] needs at least one variant: an empty enum has no values",
            ));
        } else if variants.iter().all(|variant| variant.skip) {
            errors.push(syn::Error::new_spanned(
                container.ident,
                "every variant is `#[mutfuzz(skip)]`; at least one must be generated",
            ));
        }
    }
}
