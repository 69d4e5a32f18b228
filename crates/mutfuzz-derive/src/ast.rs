//! The derive's model of the input type: fields with their strategies, variants with
//! their flags, and which variants lead back to the enum.

use syn::visit::Visit;
use syn::{Data, DeriveInput, Generics, Ident, Index, Member, Path, Type};

use crate::attr::{self, Strategy};
use crate::error::Errors;

/// The type `#[derive(Gen)]` is applied to.
pub struct Container<'a> {
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    /// Path of the `mutfuzz` crate in generated code.
    pub krate: Path,
    /// `#[repr(packed)]`: its fields cannot be borrowed, so it gets no `Reflect` impl.
    pub packed: bool,
    pub body: Body<'a>,
}

pub enum Body<'a> {
    Struct(Fields<'a>),
    Enum(Vec<Variant<'a>>),
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub fields: Fields<'a>,
    pub skip: bool,
    /// Whether the variant can lead back to the enum, so it must be avoided once
    /// the depth budget is spent.
    pub recursive: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Named,
    Tuple,
    Unit,
}

pub struct Fields<'a> {
    pub style: Style,
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    pub member: Member,
    pub ty: &'a Type,
    pub strategy: Strategy,
}

impl<'a> Container<'a> {
    /// Builds the model; attribute errors go to `errors`, a union is fatal.
    pub fn from_ast(input: &'a DeriveInput, errors: &mut Errors) -> syn::Result<Self> {
        let attrs = attr::container(&input.attrs, errors);
        let body = match &input.data {
            Data::Struct(data) => Body::Struct(Fields::from_ast(&data.fields, errors)),
            Data::Enum(data) => Body::Enum(
                data.variants
                    .iter()
                    .map(|variant| Variant::from_ast(variant, &input.ident, errors))
                    .collect(),
            ),
            Data::Union(_) => {
                return Err(syn::Error::new_spanned(
                    input,
                    "#[derive(Gen)] does not support unions: which field holds the value is not \
                     known",
                ));
            }
        };
        Ok(Container {
            ident: &input.ident,
            generics: &input.generics,
            krate: attrs.krate.unwrap_or_else(|| syn::parse_quote!(::mutfuzz)),
            packed: input.attrs.iter().any(|attr| {
                attr.path().is_ident("repr") && quote::quote!(#attr).to_string().contains("packed")
            }),
            body,
        })
    }
}

impl<'a> Variant<'a> {
    fn from_ast(variant: &'a syn::Variant, enum_ident: &Ident, errors: &mut Errors) -> Self {
        let attrs = attr::variant(&variant.attrs, errors);
        let fields = Fields::from_ast(&variant.fields, errors);
        let names_the_enum = fields
            .fields
            .iter()
            .filter(|field| !matches!(field.strategy, Strategy::Default))
            .any(|field| mentions(field.ty, enum_ident));
        Variant {
            ident: &variant.ident,
            fields,
            skip: attrs.skip,
            recursive: attrs.recursive || names_the_enum,
        }
    }
}

impl<'a> Fields<'a> {
    fn from_ast(fields: &'a syn::Fields, errors: &mut Errors) -> Self {
        let style = match fields {
            syn::Fields::Named(_) => Style::Named,
            syn::Fields::Unnamed(_) => Style::Tuple,
            syn::Fields::Unit => Style::Unit,
        };
        let fields = fields
            .iter()
            .enumerate()
            .map(|(i, field)| Field {
                member: match &field.ident {
                    Some(ident) => Member::Named(ident.clone()),
                    None => Member::Unnamed(Index::from(i)),
                },
                ty: &field.ty,
                strategy: attr::field(&field.attrs, errors).strategy,
            })
            .collect();
        Fields { style, fields }
    }
}

/// Whether `ty` names `ident` (or `Self`) anywhere, e.g. `Box<Expr>` or `Vec<Option<Self>>`.
fn mentions(ty: &Type, ident: &Ident) -> bool {
    struct Finder<'i> {
        ident: &'i Ident,
        found: bool,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_ident(&mut self, i: &'ast Ident) {
            if i == self.ident || i == "Self" {
                self.found = true;
            }
        }
    }
    let mut finder = Finder { ident, found: false };
    finder.visit_type(ty);
    finder.found
}
