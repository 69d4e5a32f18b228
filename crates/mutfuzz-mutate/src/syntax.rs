//! Small questions about `syn` syntax trees that discovery asks.

use syn::{Attribute, BinOp, Expr, Lit, UnOp};

/// Is this a compound assignment (`+=`, `<<=`, …)?
pub(crate) fn is_compound(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
            | BinOp::RemAssign(_)
            | BinOp::BitXorAssign(_)
            | BinOp::BitAndAssign(_)
            | BinOp::BitOrAssign(_)
            | BinOp::ShlAssign(_)
            | BinOp::ShrAssign(_)
    )
}

/// Is this a comparison, which takes its operands by reference?
pub(crate) fn is_comparison(op: &BinOp) -> bool {
    matches!(op, BinOp::Eq(_) | BinOp::Ne(_) | BinOp::Lt(_) | BinOp::Le(_) | BinOp::Gt(_) | BinOp::Ge(_))
}

/// Does this condition bind with `let` (an `if let` or a let chain)?
pub(crate) fn contains_let(e: &Expr) -> bool {
    match e {
        Expr::Let(_) => true,
        Expr::Binary(b) if matches!(b.op, BinOp::And(_) | BinOp::Or(_)) => {
            contains_let(&b.left) || contains_let(&b.right)
        }
        Expr::Paren(p) => contains_let(&p.expr),
        Expr::Group(g) => contains_let(&g.expr),
        _ => false,
    }
}

/// Whether evaluating the condition `e` does nothing but compute its value, as far as its
/// syntax shows: locals, constants, fields, literals, casts, references and ranges of
/// such, joined by `!`, comparisons, `&&`, `||`, `&`, `|` and `^`; calls only of a few of
/// std's predicates (`len`, `is_empty`, `contains`, …) and `matches!`. Any other call (it
/// may change state), indexing, division or arithmetic that overflows (it may panic),
/// assignment, block or macro makes it impure. A forced condition's mutant skips the
/// condition, so comparing the forced value with the condition's tells whether the
/// mutant behaves differently only when the condition is pure.
pub(crate) fn is_pure_condition(e: &Expr) -> bool {
    /// Methods of std that only read (slices, strings, maps, sets, `Option`, `Result`,
    /// `char`, floats): by name, as the syntax cannot tell the type.
    const PREDICATES: &[&str] = &[
        "len",
        "is_empty",
        "contains",
        "contains_key",
        "starts_with",
        "ends_with",
        "is_some",
        "is_none",
        "is_ok",
        "is_err",
        "is_ascii",
        "is_ascii_digit",
        "is_ascii_hexdigit",
        "is_ascii_alphabetic",
        "is_ascii_alphanumeric",
        "is_ascii_whitespace",
        "is_ascii_uppercase",
        "is_ascii_lowercase",
        "is_ascii_punctuation",
        "is_alphabetic",
        "is_alphanumeric",
        "is_numeric",
        "is_whitespace",
        "is_control",
        "is_nan",
        "is_finite",
        "is_infinite",
    ];
    match e {
        Expr::Lit(_) | Expr::Path(_) => true,
        Expr::Paren(p) => is_pure_condition(&p.expr),
        Expr::Group(g) => is_pure_condition(&g.expr),
        Expr::Field(f) => is_pure_condition(&f.base),
        Expr::Reference(r) => is_pure_condition(&r.expr),
        Expr::Cast(c) => is_pure_condition(&c.expr),
        // `-x` overflows on the type's minimum.
        Expr::Unary(u) => matches!(u.op, UnOp::Not(_) | UnOp::Deref(_)) && is_pure_condition(&u.expr),
        Expr::Binary(b) => {
            let reads = is_comparison(&b.op)
                || matches!(
                    b.op,
                    BinOp::And(_) | BinOp::Or(_) | BinOp::BitAnd(_) | BinOp::BitOr(_) | BinOp::BitXor(_)
                );
            reads && is_pure_condition(&b.left) && is_pure_condition(&b.right)
        }
        Expr::Range(r) => r.start.iter().chain(r.end.iter()).all(|x| is_pure_condition(x)),
        Expr::Tuple(t) => t.elems.iter().all(is_pure_condition),
        Expr::Array(a) => a.elems.iter().all(is_pure_condition),
        Expr::MethodCall(m) => {
            PREDICATES.contains(&m.method.to_string().as_str())
                && m.turbofish.is_none()
                && is_pure_condition(&m.receiver)
                && m.args.iter().all(is_pure_condition)
        }
        Expr::Macro(m) if m.mac.path.is_ident("matches") => pure_matches(&m.mac),
        _ => false,
    }
}

/// `matches!(SCRUTINEE, PATTERN [if GUARD])` with a pure scrutinee and guard.
fn pure_matches(mac: &syn::Macro) -> bool {
    let parsed = mac.parse_body_with(|input: syn::parse::ParseStream<'_>| {
        let scrutinee: Expr = input.parse()?;
        input.parse::<syn::Token![,]>()?;
        syn::Pat::parse_multi_with_leading_vert(input)?;
        let guard = if input.peek(syn::Token![if]) {
            input.parse::<syn::Token![if]>()?;
            Some(input.parse::<Expr>()?)
        } else {
            None
        };
        input.parse::<Option<syn::Token![,]>>()?;
        Ok((scrutinee, guard))
    });
    parsed
        .is_ok_and(|(scrutinee, guard)| is_pure_condition(&scrutinee) && guard.iter().all(is_pure_condition))
}

/// The expression inside any parentheses.
pub(crate) fn unparen(mut e: &Expr) -> &Expr {
    loop {
        match e {
            Expr::Paren(p) => e = &p.expr,
            Expr::Group(g) => e = &g.expr,
            _ => return e,
        }
    }
}

/// The value of an integer literal (in parentheses or not).
pub(crate) fn int_value(e: &Expr) -> Option<u128> {
    match unparen(e) {
        Expr::Lit(syn::ExprLit { lit: Lit::Int(i), .. }) => i.base10_parse().ok(),
        _ => None,
    }
}

/// The name a call calls: the last segment of a function path, or a method's name.
pub(crate) fn callee_name(e: &Expr) -> Option<String> {
    match e {
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        },
        Expr::MethodCall(m) => Some(m.method.to_string()),
        _ => None,
    }
}

/// `s`, cut to at most 60 characters for a one-line description.
pub(crate) fn shorten(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        let cut: String = s.chars().take(MAX - 1).collect();
        format!("{cut}…")
    }
}

/// The features a `#[cfg(…)]` among `attrs` asks for: `feature = "x"`, alone or in an
/// `all(…)` (an `any` or `not` asks for none of them surely).
pub(crate) fn cfg_features(attrs: &[Attribute]) -> Vec<String> {
    fn needs(meta: &syn::Meta, out: &mut Vec<String>) {
        match meta {
            syn::Meta::NameValue(nv) if nv.path.is_ident("feature") => {
                if let Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) = &nv.value {
                    out.push(s.value());
                }
            }
            syn::Meta::List(list) if list.path.is_ident("all") => {
                let parser = syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated;
                for inner in list.parse_args_with(parser).into_iter().flatten() {
                    needs(&inner, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("cfg")) {
        if let Ok(meta) = attr.parse_args::<syn::Meta>() {
            needs(&meta, &mut out);
        }
    }
    out
}

/// The value of a `#[path = "…"]` attribute, if there is one.
pub fn path_attr(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find(|a| a.path().is_ident("path")).and_then(|a| match &a.meta {
        syn::Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// The outer attributes of an expression, where it can carry them.
pub(crate) fn expr_attrs(e: &Expr) -> &[Attribute] {
    match e {
        Expr::Array(x) => &x.attrs,
        Expr::Assign(x) => &x.attrs,
        Expr::Async(x) => &x.attrs,
        Expr::Await(x) => &x.attrs,
        Expr::Binary(x) => &x.attrs,
        Expr::Block(x) => &x.attrs,
        Expr::Break(x) => &x.attrs,
        Expr::Call(x) => &x.attrs,
        Expr::Cast(x) => &x.attrs,
        Expr::Closure(x) => &x.attrs,
        Expr::Continue(x) => &x.attrs,
        Expr::Field(x) => &x.attrs,
        Expr::ForLoop(x) => &x.attrs,
        Expr::If(x) => &x.attrs,
        Expr::Index(x) => &x.attrs,
        Expr::Lit(x) => &x.attrs,
        Expr::Loop(x) => &x.attrs,
        Expr::Match(x) => &x.attrs,
        Expr::MethodCall(x) => &x.attrs,
        Expr::Paren(x) => &x.attrs,
        Expr::Range(x) => &x.attrs,
        Expr::Reference(x) => &x.attrs,
        Expr::Return(x) => &x.attrs,
        Expr::Struct(x) => &x.attrs,
        Expr::Try(x) => &x.attrs,
        Expr::Tuple(x) => &x.attrs,
        Expr::Unary(x) => &x.attrs,
        Expr::While(x) => &x.attrs,
        _ => &[],
    }
}

/// Whether `name` is a primitive integer type (`u8` … `u128`, `usize`, `i8` … `isize`).
pub(crate) fn is_integer_type(name: &str) -> bool {
    matches!(
        name,
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128" | "isize"
    )
}
