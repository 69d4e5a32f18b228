//! Collects every error found while reading the input, so users see them all at once.

/// Errors accumulated across attributes, fields and variants.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    /// Adds one error.
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// `Ok` if nothing was pushed, otherwise all errors combined.
    pub fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}
