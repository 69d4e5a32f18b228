//! The types of an API's signatures, reduced to what harness generation asks of them:
//! a path with its type arguments, a reference, a slice, an array, a tuple, `impl Trait`.

use std::fmt;

use quote::ToTokens;

/// The integer types' names.
pub(crate) const INTEGERS: [&str; 12] =
    ["u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize"];

/// Whether a path segment names one of std's hash containers (`HashMap`, `HashSet`),
/// whose order differs between runs.
pub(crate) fn hash_container(segment: &str) -> bool {
    matches!(segment, "HashMap" | "HashSet")
}

/// Whether a path segment names the module of one of std's hash containers (`hash_map`,
/// `hash_set`), whose iterators follow that order.
pub(crate) fn hash_module(segment: &str) -> bool {
    matches!(segment, "hash_map" | "hash_set")
}

/// A type as a signature writes it, without lifetimes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `a::b::Name<Args, Assoc = T>`; `lifetimes` when it names a lifetime argument.
    Path { segments: Vec<String>, args: Vec<Ty>, assoc: Vec<(String, Ty)>, lifetimes: bool },
    /// `&T` / `&mut T`.
    Ref { mutable: bool, inner: Box<Ty> },
    /// `[T]`.
    Slice(Box<Ty>),
    /// `[T; N]` with `N` as written.
    Array(Box<Ty>, String),
    /// `(A, B)`; `()` is the empty tuple.
    Tuple(Vec<Ty>),
    /// `impl A + B` in argument or return position.
    Impl(Vec<Bound>),
    /// Anything else (function pointers, `dyn`, raw pointers, `!`, macros), as written.
    Other(String),
}

/// One trait bound: `Name<Args, Assoc = T>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The trait's last path segment.
    pub name: String,
    pub args: Vec<Ty>,
    pub assoc: Vec<(String, Ty)>,
    /// `Fn(A) -> B` style arguments.
    pub parenthesized: bool,
}

impl Ty {
    /// Converts a `syn` type.
    pub fn from_syn(ty: &syn::Type) -> Ty {
        match ty {
            syn::Type::Path(p) if p.qself.is_none() => {
                let segments: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
                let (args, assoc, lifetimes, _) =
                    p.path.segments.last().map(|s| arguments(&s.arguments)).unwrap_or_default();
                Ty::Path { segments, args, assoc, lifetimes }
            }
            syn::Type::Reference(r) => {
                Ty::Ref { mutable: r.mutability.is_some(), inner: Box::new(Ty::from_syn(&r.elem)) }
            }
            syn::Type::Slice(s) => Ty::Slice(Box::new(Ty::from_syn(&s.elem))),
            syn::Type::Array(a) => {
                Ty::Array(Box::new(Ty::from_syn(&a.elem)), a.len.to_token_stream().to_string())
            }
            syn::Type::Tuple(t) => Ty::Tuple(t.elems.iter().map(Ty::from_syn).collect()),
            syn::Type::Paren(p) => Ty::from_syn(&p.elem),
            syn::Type::Group(g) => Ty::from_syn(&g.elem),
            syn::Type::ImplTrait(i) => Ty::Impl(bounds(i.bounds.iter())),
            other => Ty::Other(other.to_token_stream().to_string()),
        }
    }

    /// The last path segment, for a path type.
    pub fn name(&self) -> Option<&str> {
        match self {
            Ty::Path { segments, .. } => segments.last().map(String::as_str),
            _ => None,
        }
    }

    /// The type arguments of a path type (none for others).
    pub fn args(&self) -> &[Ty] {
        match self {
            Ty::Path { args, .. } => args,
            _ => &[],
        }
    }

    /// A path of one segment with no arguments: a type parameter's name, `Self`, `u8`.
    pub fn plain_name(&self) -> Option<&str> {
        match self {
            Ty::Path { segments, args, .. } if segments.len() == 1 && args.is_empty() => Some(&segments[0]),
            _ => None,
        }
    }

    /// A plain name, or a std type's through its path without arguments: `Path` of
    /// `std::path::Path` (the scan writes out what a module imports from std).
    pub fn plain_or_std_name(&self) -> Option<&str> {
        match self {
            Ty::Path { segments, args, .. }
                if args.is_empty() && matches!(segments[0].as_str(), "std" | "core" | "alloc") =>
            {
                segments.last().map(String::as_str)
            }
            _ => self.plain_name(),
        }
    }

    /// Whether this type or a part of it borrows: a reference or a lifetime argument.
    pub fn borrows(&self) -> bool {
        match self {
            Ty::Ref { .. } => true,
            Ty::Path { args, assoc, lifetimes, .. } => {
                *lifetimes || args.iter().any(Ty::borrows) || assoc.iter().any(|(_, t)| t.borrows())
            }
            Ty::Slice(t) | Ty::Array(t, _) => t.borrows(),
            Ty::Tuple(ts) => ts.iter().any(Ty::borrows),
            Ty::Impl(_) | Ty::Other(_) => true,
        }
    }

    /// Every path name in this type, outermost first.
    pub fn names(&self, out: &mut Vec<String>) {
        match self {
            Ty::Path { segments, args, assoc, .. } => {
                out.extend(segments.iter().cloned());
                args.iter().for_each(|a| a.names(out));
                assoc.iter().for_each(|(_, a)| a.names(out));
            }
            Ty::Ref { inner, .. } | Ty::Slice(inner) | Ty::Array(inner, _) => inner.names(out),
            Ty::Tuple(ts) => ts.iter().for_each(|t| t.names(out)),
            Ty::Impl(bs) => {
                for b in bs {
                    out.push(b.name.clone());
                    b.args.iter().for_each(|a| a.names(out));
                    b.assoc.iter().for_each(|(_, a)| a.names(out));
                }
            }
            Ty::Other(s) => out.push(s.clone()),
        }
    }

    /// This type with each path named by a pair's first (`T`, or `Self::Error`) replaced
    /// by its second, all at once: `(A, B)` under `[(A, B), (B, A)]` is `(B, A)`.
    pub fn substitute_all(&self, pairs: &[(String, Ty)]) -> Ty {
        self.map_paths(&|t| match t {
            Ty::Path { segments, args, .. } if args.is_empty() => pairs
                .iter()
                .find(|(from, _)| from.split("::").eq(segments.iter().map(String::as_str)))
                .map(|(_, to)| to.clone()),
            _ => None,
        })
    }

    /// This type with each path named `from` (one segment) named `to`: its arguments
    /// kept, or dropped where `to` takes none (an alias that puts them in).
    pub fn renamed(&self, from: &str, to: &str, keep_args: bool) -> Ty {
        self.map_paths(&|t| match t {
            Ty::Path { segments, .. } if segments.len() == 1 && segments[0] == from => {
                Some(t.with_name(to, keep_args))
            }
            _ => None,
        })
    }

    /// This type with each path that starts with `from` written through `path`
    /// (`Duration` as `std::time::Duration`, `time::Duration` as `std::time::Duration`
    /// where `time` is `std::time`), its arguments kept.
    pub fn qualified(&self, from: &str, path: &[String]) -> Ty {
        self.map_paths(&|t| match t {
            Ty::Path { segments, args, assoc, lifetimes } if segments[0] == from => Some(Ty::Path {
                segments: path.iter().chain(&segments[1..]).cloned().collect(),
                args: args.clone(),
                assoc: assoc.clone(),
                lifetimes: *lifetimes,
            }),
            _ => None,
        })
    }

    /// This path (of any length) named `to` alone, its arguments kept or dropped:
    /// `bytes::Quoter` → `BytesQuoter`.
    pub fn with_name(&self, to: &str, keep_args: bool) -> Ty {
        match self {
            Ty::Path { args, assoc, lifetimes, .. } => Ty::Path {
                segments: vec![to.to_owned()],
                args: if keep_args { args.clone() } else { Vec::new() },
                assoc: assoc.clone(),
                lifetimes: *lifetimes && keep_args,
            },
            ty => ty.clone(),
        }
    }

    /// This type with each path `f` maps replaced, and `f` applied inside the others.
    fn map_paths(&self, f: &dyn Fn(&Ty) -> Option<Ty>) -> Ty {
        if let Some(t) = f(self) {
            return t;
        }
        match self {
            Ty::Path { segments, args, assoc, lifetimes } => Ty::Path {
                segments: segments.clone(),
                args: args.iter().map(|a| a.map_paths(f)).collect(),
                assoc: assoc.iter().map(|(n, a)| (n.clone(), a.map_paths(f))).collect(),
                lifetimes: *lifetimes,
            },
            Ty::Ref { mutable, inner } => Ty::Ref { mutable: *mutable, inner: Box::new(inner.map_paths(f)) },
            Ty::Slice(t) => Ty::Slice(Box::new(t.map_paths(f))),
            // `[T; CAP]`: a const parameter's name is a path too.
            Ty::Array(t, n) => {
                let n = f(&Ty::named(n, vec![])).map_or_else(|| n.clone(), |to| to.to_string());
                Ty::Array(Box::new(t.map_paths(f)), n)
            }
            Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| t.map_paths(f)).collect()),
            other => other.clone(),
        }
    }

    /// This type with every path named `from` (one segment) replaced by `to`.
    pub fn substitute(&self, from: &str, to: &Ty) -> Ty {
        self.substitute_all(&[(from.to_owned(), to.clone())])
    }

    /// A one-segment path type.
    /// Whether it is `fmt::Result` (or `std::fmt::Result`), std's alias without arguments.
    pub fn is_fmt_result(&self) -> bool {
        matches!(self, Ty::Path { segments, args, .. }
            if args.is_empty() && segments.ends_with(&["fmt".to_owned(), "Result".to_owned()]))
    }

    pub fn named(name: &str, args: Vec<Ty>) -> Ty {
        Ty::Path { segments: vec![name.to_owned()], args, assoc: Vec::new(), lifetimes: false }
    }
}

/// The name a bound on `fmt::Write` (or `std::fmt::Write`) keeps.
pub const FMT_WRITE: &str = "fmt::Write";

/// The trait bounds of a bound list (lifetimes dropped).
pub fn bounds<'a>(list: impl Iterator<Item = &'a syn::TypeParamBound>) -> Vec<Bound> {
    list.filter_map(|b| match b {
        syn::TypeParamBound::Trait(t) if t.maybe.is_none() => {
            let last = t.path.segments.last()?;
            let (args, assoc, _, parenthesized) = arguments(&last.arguments);
            // `fmt::Write` is told apart from `io::Write`, which it shares its name with.
            let n = t.path.segments.len();
            let fmt = n > 1 && last.ident == "Write" && t.path.segments[n - 2].ident == "fmt";
            let name = if fmt { FMT_WRITE.to_owned() } else { last.ident.to_string() };
            Some(Bound { name, args, assoc, parenthesized })
        }
        _ => None,
    })
    .collect()
}

fn arguments(a: &syn::PathArguments) -> (Vec<Ty>, Vec<(String, Ty)>, bool, bool) {
    let mut args = Vec::new();
    let mut assoc = Vec::new();
    let mut lifetimes = false;
    match a {
        syn::PathArguments::None => {}
        syn::PathArguments::AngleBracketed(b) => {
            for arg in &b.args {
                match arg {
                    syn::GenericArgument::Type(t) => args.push(Ty::from_syn(t)),
                    syn::GenericArgument::AssocType(t) => {
                        assoc.push((t.ident.to_string(), Ty::from_syn(&t.ty)))
                    }
                    syn::GenericArgument::Lifetime(l) => lifetimes |= l.ident != "static",
                    other => args.push(Ty::Other(other.to_token_stream().to_string())),
                }
            }
        }
        syn::PathArguments::Parenthesized(p) => {
            args.extend(p.inputs.iter().map(|a| Ty::from_syn(&a.ty)));
            // `Fn(A) -> B`: the result as the trait's `Output`.
            if let syn::ReturnType::Type(_, t) = &p.output {
                assoc.push(("Output".to_owned(), Ty::from_syn(t)));
            }
            return (args, assoc, lifetimes, true);
        }
    }
    (args, assoc, lifetimes, false)
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Path { segments, args, assoc, .. } => {
                f.write_str(&segments.join("::"))?;
                if !args.is_empty() || !assoc.is_empty() {
                    f.write_str("<")?;
                    let mut first = true;
                    for a in args {
                        if !first {
                            f.write_str(", ")?;
                        }
                        first = false;
                        write!(f, "{a}")?;
                    }
                    for (n, a) in assoc {
                        if !first {
                            f.write_str(", ")?;
                        }
                        first = false;
                        write!(f, "{n} = {a}")?;
                    }
                    f.write_str(">")?;
                }
                Ok(())
            }
            Ty::Ref { mutable, inner } => write!(f, "&{}{inner}", if *mutable { "mut " } else { "" }),
            Ty::Slice(t) => write!(f, "[{t}]"),
            Ty::Array(t, n) => write!(f, "[{t}; {n}]"),
            Ty::Tuple(ts) if ts.len() == 1 => write!(f, "({},)", ts[0]),
            Ty::Tuple(ts) => {
                f.write_str("(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
            Ty::Impl(bs) => {
                f.write_str("impl ")?;
                for (i, b) in bs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" + ")?;
                    }
                    f.write_str(&b.name)?;
                }
                Ok(())
            }
            Ty::Other(s) => f.write_str(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> Ty {
        Ty::from_syn(&syn::parse_str(s).unwrap())
    }

    #[test]
    fn types_read_back_as_written_without_lifetimes() {
        assert_eq!(ty("&'a mut [u8]").to_string(), "&mut [u8]");
        assert_eq!(
            ty("std::collections::HashMap<String, Vec<(u8, char)>>").to_string(),
            "std::collections::HashMap<String, Vec<(u8, char)>>"
        );
        assert_eq!(
            ty("impl Iterator<Item = char>"),
            Ty::Impl(vec![Bound {
                name: "Iterator".into(),
                args: vec![],
                assoc: vec![("Item".into(), ty("char"))],
                parenthesized: false,
            }])
        );
        assert!(ty("Cow<'a, str>").borrows());
        assert!(!ty("Cow<'static, str>").borrows());
        assert!(!ty("Vec<[u8; 4]>").borrows());
        assert_eq!(ty("Vec<T>").substitute("T", &ty("i64")).to_string(), "Vec<i64>");
        assert_eq!(ty("(u8,)").to_string(), "(u8,)");
    }
}
