//! Reads `#[mutfuzz(...)]` attributes on the container, its variants and its fields.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, Path};

use crate::error::Errors;

/// The helper attribute's name (`gen` is a reserved keyword from edition 2024 on).
pub const ATTR: &str = "mutfuzz";

/// Attributes on the struct or enum itself.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `crate = path`: where the `mutfuzz` crate is, if not `::mutfuzz`.
    pub krate: Option<Path>,
}

/// Attributes on an enum variant.
#[derive(Default)]
pub struct VariantAttrs {
    /// `skip`: never generate this variant.
    pub skip: bool,
    /// `recursive`: the variant can lead back to the enum (e.g. through another type).
    pub recursive: bool,
}

/// How one field's value is produced.
pub enum Strategy {
    /// The field type's own `Gen` impl.
    Draw,
    /// `range = EXPR`: an integer in the range.
    Range(Expr),
    /// `len = EXPR`: a collection or string with a length in the range.
    Len(Expr),
    /// `with = EXPR`: a custom generator function.
    With(Expr),
    /// `arbitrary`: an opaque leaf built by `arbitrary`.
    Arbitrary,
    /// `default`: `Default::default()`, drawing nothing.
    Default,
}

/// Attributes on a field.
pub struct FieldAttrs {
    pub strategy: Strategy,
}

fn ours(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|attr| attr.path().is_ident(ATTR))
}

/// The key of a nested meta as written, for messages.
fn key(meta: &ParseNestedMeta) -> String {
    meta.path.get_ident().map_or_else(|| "this".to_owned(), ToString::to_string)
}

/// Reads the container's attributes.
pub fn container(attrs: &[Attribute], errors: &mut Errors) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    for attr in ours(attrs) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                if out.krate.is_some() {
                    return Err(meta.error("duplicate `crate` attribute"));
                }
                out.krate = Some(meta.value()?.parse()?);
                Ok(())
            } else {
                Err(meta.error(format!("unknown container attribute `{}`; expected `crate`", key(&meta))))
            }
        });
        if let Err(error) = result {
            errors.push(error);
        }
    }
    out
}

/// Reads a variant's attributes.
pub fn variant(attrs: &[Attribute], errors: &mut Errors) -> VariantAttrs {
    let mut out = VariantAttrs::default();
    for attr in ours(attrs) {
        let result = attr.parse_nested_meta(|meta| {
            let flag = if meta.path.is_ident("skip") {
                &mut out.skip
            } else if meta.path.is_ident("recursive") {
                &mut out.recursive
            } else {
                return Err(meta.error(format!(
                    "unknown variant attribute `{}`; expected `skip` or `recursive`",
                    key(&meta)
                )));
            };
            if *flag {
                return Err(meta.error(format!("duplicate `{}` attribute", key(&meta))));
            }
            *flag = true;
            Ok(())
        });
        if let Err(error) = result {
            errors.push(error);
        }
    }
    out
}

/// Reads a field's attributes; at most one generator attribute is allowed.
pub fn field(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut chosen: Option<(String, Strategy)> = None;
    for attr in ours(attrs) {
        let result = attr.parse_nested_meta(|meta| {
            let name = key(&meta);
            let strategy = match name.as_str() {
                "range" => Strategy::Range(meta.value()?.parse()?),
                "len" => Strategy::Len(meta.value()?.parse()?),
                "with" => Strategy::With(meta.value()?.parse()?),
                "arbitrary" => Strategy::Arbitrary,
                "default" => Strategy::Default,
                _ => {
                    return Err(meta.error(format!(
                        "unknown field attribute `{name}`; expected `range`, `len`, `with`, \
                         `arbitrary` or `default`"
                    )));
                }
            };
            if let Some((previous, _)) = &chosen {
                let message = if *previous == name {
                    format!("duplicate `{name}` attribute")
                } else {
                    format!("`{name}` conflicts with `{previous}`: a field takes one generator")
                };
                return Err(syn::Error::new_spanned(&meta.path, message));
            }
            chosen = Some((name, strategy));
            Ok(())
        });
        if let Err(error) = result {
            errors.push(error);
        }
    }
    FieldAttrs { strategy: chosen.map_or(Strategy::Draw, |(_, strategy)| strategy) }
}
