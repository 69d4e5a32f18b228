//! Mutants that are equivalent to the original, recognised from syntax alone: discovery
//! does not generate them (and counts them in [`crate::SkipCounts::equivalent`]).
//!
//! No test can kill an equivalent mutant: it only costs run time and turns a perfect test
//! suite's exit code into "missed". Only forms whose equivalence the syntax proves are
//! listed, where an integer literal is the identity of the operation around it:
//!
//! - `x + 0` → `x - 0`, `x - 0` → `x + 0`, `x * 1` → `x / 1`, `x / 1` → `x * 1`,
//!   `x | 0` ↔ `x ^ 0` (either side), `x << 0` ↔ `x >> 0`, and the compound assignments;
//! - the start of a range that is summed or multiplied: `(0..n).sum()` ↔ `(1..n).sum()`,
//!   `(1..=n).product()` ↔ `(2..=n).product()`, and a `for` loop whose whole body is
//!   `acc += i` or `acc *= i` over the range.

use syn::{BinOp, Expr, Pat, Stmt};

use crate::syntax::{int_value, is_integer_type, unparen};

/// What a range's elements are folded into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fold {
    Sum,
    Product,
}

impl Fold {
    /// Does replacing the start `from` with `to` leave the fold's value unchanged? It does
    /// when the elements added or removed are all the fold's identity.
    pub fn same_start(self, from: u128, to: u128) -> bool {
        let identity = match self {
            Fold::Sum => 0,
            Fold::Product => 1,
        };
        (from == identity && to == identity + 1) || (from == identity + 1 && to == identity)
    }
}

/// The replacement operators of `left OP right` that leave its value unchanged, because an
/// integer literal operand is the identity of both the operator and the replacement.
pub(crate) fn identity_swaps(op: &str, left: &Expr, right: &Expr) -> &'static [&'static str] {
    let (l, r) = (int_value(left), int_value(right));
    match (op, r) {
        ("+", Some(0)) => &["-"],
        ("-", Some(0)) => &["+"],
        ("*", Some(1)) => &["/"],
        ("/", Some(1)) => &["*"],
        ("<<", Some(0)) => &[">>"],
        (">>", Some(0)) => &["<<"],
        ("+=", Some(0)) => &["-="],
        ("-=", Some(0)) => &["+="],
        ("*=", Some(1)) => &["/="],
        ("/=", Some(1)) => &["*="],
        ("^=", Some(0)) => &["|="],
        ("<<=", Some(0)) => &[">>="],
        (">>=", Some(0)) => &["<<="],
        ("|", _) if r == Some(0) || l == Some(0) => &["^"],
        ("^", _) if r == Some(0) || l == Some(0) => &["|"],
        _ => &[],
    }
}

/// The range whose elements `e` folds, and how: `(a..b).sum()`, `(a..=b).rev().product()`,
/// or `for i in a..b { acc += i; }`.
pub(crate) fn folded_range(e: &Expr) -> Option<(&syn::ExprRange, Fold)> {
    match e {
        Expr::MethodCall(m) if m.args.is_empty() => {
            let fold = match m.method.to_string().as_str() {
                "sum" => Fold::Sum,
                "product" => Fold::Product,
                _ => return None,
            };
            // Reordering the elements does not change a sum or a product.
            let mut receiver = unparen(&m.receiver);
            while let Expr::MethodCall(inner) = receiver
                && inner.args.is_empty()
                && matches!(inner.method.to_string().as_str(), "rev" | "into_iter")
            {
                receiver = unparen(&inner.receiver);
            }
            match receiver {
                Expr::Range(r) => Some((r, fold)),
                _ => None,
            }
        }
        Expr::ForLoop(f) => {
            let Expr::Range(range) = unparen(&f.expr) else { return None };
            let Pat::Ident(var) = &*f.pat else { return None };
            if var.by_ref.is_some() || var.subpat.is_some() {
                return None;
            }
            let [stmt] = f.body.stmts.as_slice() else { return None };
            let Stmt::Expr(Expr::Binary(b), _) = stmt else { return None };
            let fold = match b.op {
                BinOp::AddAssign(_) => Fold::Sum,
                BinOp::MulAssign(_) => Fold::Product,
                _ => return None,
            };
            is_var_or_int_cast(&b.right, &var.ident).then_some((range, fold))
        }
        _ => None,
    }
}

/// `i`, or `i as u64` (a conversion to another integer type keeps 0 and 1).
fn is_var_or_int_cast(e: &Expr, var: &syn::Ident) -> bool {
    match unparen(e) {
        Expr::Path(p) => p.qself.is_none() && p.path.is_ident(var),
        Expr::Cast(c) => {
            let integer = match &*c.ty {
                syn::Type::Path(t) => t.path.get_ident().is_some_and(|i| is_integer_type(&i.to_string())),
                _ => false,
            };
            integer && is_var_or_int_cast(&c.expr, var)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(s: &str) -> Expr {
        syn::parse_str(s).unwrap()
    }

    fn swaps(s: &str) -> &'static [&'static str] {
        let Expr::Binary(b) = expr(s) else { panic!("{s} is not binary") };
        let op = quote::ToTokens::to_token_stream(&b.op).to_string().replace(' ', "");
        identity_swaps(&op, &b.left, &b.right)
    }

    #[test]
    fn identity_literals_make_their_swaps_equivalent() {
        assert_eq!(swaps("x + 0"), ["-"]);
        assert_eq!(swaps("x * (1)"), ["/"]);
        assert_eq!(swaps("0 | x"), ["^"]);
        assert_eq!(swaps("x >>= 0"), ["<<="]);
        assert_eq!(swaps("x *= 1u64"), ["/="]);
        // `0 - x` is `-x`, `1 / x` is not `x`; `x + 1` has no identity; floats keep the sign of zero.
        assert!(swaps("0 - x").is_empty());
        assert!(swaps("1 / x").is_empty());
        assert!(swaps("x + 1").is_empty());
        assert!(swaps("x + 0.0").is_empty());
    }

    fn fold_of(s: &str) -> Option<(u128, Fold)> {
        let e = expr(s);
        folded_range(&e).map(|(r, f)| (int_value(r.start.as_deref().unwrap()).unwrap(), f))
    }

    #[test]
    fn summed_and_multiplied_ranges_are_recognised() {
        assert_eq!(fold_of("(1..=n).product::<u64>()"), Some((1, Fold::Product)));
        assert_eq!(fold_of("(0..n).rev().sum()"), Some((0, Fold::Sum)));
        assert_eq!(fold_of("for i in 2..=n { acc *= i as u64; }"), Some((2, Fold::Product)));
        assert_eq!(fold_of("for k in 0..n { s += k }"), Some((0, Fold::Sum)));
        // The elements are transformed, or the body does more than fold them.
        assert_eq!(fold_of("(1..=n).map(|i| i * 2).product::<u64>()"), None);
        assert_eq!(fold_of("for i in 1..=n { acc *= i; log(i); }"), None);
        assert_eq!(fold_of("for i in 1..=n { acc *= i + 1; }"), None);
        assert_eq!(fold_of("for i in 1..=n { acc *= i as f64; }"), None);
        assert!(Fold::Product.same_start(2, 1) && Fold::Product.same_start(1, 2));
        assert!(!Fold::Product.same_start(1, 0) && !Fold::Product.same_start(2, 3));
        assert!(Fold::Sum.same_start(0, 1) && Fold::Sum.same_start(1, 0) && !Fold::Sum.same_start(1, 2));
    }
}
