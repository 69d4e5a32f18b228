//! Fuzz targets for `typed-expr`: generated expression trees are type-checked,
//! evaluated, simplified and printed, and every result is returned for comparison.

use mutfuzz::{Gen, Source};
use typed_expr::{BinOp, EvalError, Expr, Type, TypeError, Value};

/// Expressions at most this many levels deep (the root is level 0); deeper subtrees
/// are cut to leaves, which keeps most generated programs small enough to be well-typed.
const MAX_LEVEL: usize = 6;

/// A generated expression, mirroring [`Expr`] with small literals and three variable names.
#[derive(Debug, Gen)]
enum GExpr {
    Int(#[mutfuzz(range = -10..=10)] i64),
    Bool(bool),
    Var(GName),
    Not(#[mutfuzz(with = sub)] Box<GExpr>),
    Bin(GOp, #[mutfuzz(with = sub)] Box<GExpr>, #[mutfuzz(with = sub)] Box<GExpr>),
    If(
        #[mutfuzz(with = sub)] Box<GExpr>,
        #[mutfuzz(with = sub)] Box<GExpr>,
        #[mutfuzz(with = sub)] Box<GExpr>,
    ),
    Let(GName, #[mutfuzz(with = sub)] Box<GExpr>, #[mutfuzz(with = sub)] Box<GExpr>),
}

/// A leaf expression, used where the depth bound is reached.
#[derive(Debug, Gen)]
enum GLeaf {
    Int(#[mutfuzz(range = -10..=10)] i64),
    Bool(bool),
    Var(GName),
}

/// One of the variable names `x`, `y`, `z`.
#[derive(Debug, Gen)]
struct GName(#[mutfuzz(range = 0..=2)] u8);

#[derive(Debug, Gen)]
enum GOp {
    Add,
    Sub,
    Mul,
    Div,
    Lt,
    Eq,
    And,
    Or,
}

/// A subexpression: any expression above the depth bound, a leaf at it. Each level of
/// the tree is two spans deep (the box and the expression).
fn sub(src: &mut Source) -> Box<GExpr> {
    if src.depth() >= 2 * MAX_LEVEL {
        let leaf = match src.draw::<GLeaf>() {
            GLeaf::Int(n) => GExpr::Int(n),
            GLeaf::Bool(b) => GExpr::Bool(b),
            GLeaf::Var(name) => GExpr::Var(name),
        };
        Box::new(leaf)
    } else {
        Box::new(src.draw())
    }
}

impl GName {
    fn name(&self) -> String {
        ["x", "y", "z"][usize::from(self.0)].to_string()
    }
}

impl GOp {
    fn op(&self) -> BinOp {
        match self {
            GOp::Add => BinOp::Add,
            GOp::Sub => BinOp::Sub,
            GOp::Mul => BinOp::Mul,
            GOp::Div => BinOp::Div,
            GOp::Lt => BinOp::Lt,
            GOp::Eq => BinOp::Eq,
            GOp::And => BinOp::And,
            GOp::Or => BinOp::Or,
        }
    }
}

impl GExpr {
    fn expr(&self) -> Expr {
        let b = |e: &GExpr| Box::new(e.expr());
        match self {
            GExpr::Int(n) => Expr::Int(*n),
            GExpr::Bool(v) => Expr::Bool(*v),
            GExpr::Var(name) => Expr::Var(name.name()),
            GExpr::Not(e) => Expr::Not(b(e)),
            GExpr::Bin(op, l, r) => Expr::Bin(op.op(), b(l), b(r)),
            GExpr::If(c, t, e) => Expr::If(b(c), b(t), b(e)),
            GExpr::Let(name, v, body) => Expr::Let(name.name(), b(v), b(body)),
        }
    }
}

/// Type check, then evaluate if well-typed.
fn check_and_eval(e: GExpr) -> (Result<Type, TypeError>, Option<Result<Value, EvalError>>) {
    let expr = e.expr();
    let ty = typed_expr::type_of(&expr);
    let value = ty.is_ok().then(|| typed_expr::eval(&expr));
    (ty, value)
}

/// Evaluate without type checking: exercises the evaluator's dynamic errors.
fn eval_untyped(e: GExpr) -> Result<Value, EvalError> {
    typed_expr::eval(&e.expr())
}

/// Simplify, print the result, and (for well-typed programs) check that simplifying
/// keeps the value and the type.
fn simplify(e: GExpr) -> (String, Option<Result<Value, EvalError>>) {
    let expr = e.expr();
    let simple = typed_expr::simplify(&expr);
    let value = match typed_expr::type_of(&expr) {
        Ok(ty) => {
            let value = typed_expr::eval(&simple);
            assert_eq!(value, typed_expr::eval(&expr), "simplify changed the value of {expr}");
            assert_eq!(typed_expr::type_of(&simple), Ok(ty), "simplify changed the type of {expr}");
            Some(value)
        }
        Err(_) => None,
    };
    (simple.to_string(), value)
}

/// Print an expression.
fn display(e: GExpr) -> String {
    e.expr().to_string()
}

mutfuzz::targets!(check_and_eval, eval_untyped, simplify, display);
