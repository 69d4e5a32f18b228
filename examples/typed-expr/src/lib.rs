//! A small typed expression language: integers and booleans, arithmetic, comparisons,
//! logic, `if`-`then`-`else` and `let` bindings with lexical scope and shadowing.
//!
//! [`type_of`] checks an [`Expr`] and returns its [`Type`] or the first [`TypeError`];
//! [`eval`] evaluates it (integer arithmetic wraps; dividing by zero is an
//! [`EvalError`]); [`simplify`] folds constants; `Display` prints an expression fully
//! parenthesized. A well-typed expression evaluates to a value of its type or fails
//! only by dividing by zero. It is a benchmark crate for mutfuzz.

use std::fmt;

/// The types of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// 64-bit integers.
    Int,
    /// Booleans.
    Bool,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// Integer `+` (wrapping).
    Add,
    /// Integer `-` (wrapping).
    Sub,
    /// Integer `*` (wrapping).
    Mul,
    /// Integer `/`, truncating (wrapping on overflow).
    Div,
    /// Integer `<`.
    Lt,
    /// `==` on two operands of the same type.
    Eq,
    /// Boolean `&&` (short-circuit).
    And,
    /// Boolean `||` (short-circuit).
    Or,
}

/// An expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// An integer literal.
    Int(i64),
    /// A boolean literal.
    Bool(bool),
    /// A variable bound by an enclosing `let`.
    Var(String),
    /// Boolean negation.
    Not(Box<Expr>),
    /// A binary operation.
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then t else e`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `let x = value in body`.
    Let(String, Box<Expr>, Box<Expr>),
}

/// Why an expression is ill-typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeError {
    /// A variable with no enclosing binding.
    Unbound(String),
    /// A subexpression of the wrong type.
    Mismatch {
        /// The type required there.
        expected: Type,
        /// The type it has.
        found: Type,
    },
    /// The branches of an `if` have different types.
    Branches {
        /// Type of the `then` branch.
        then: Type,
        /// Type of the `else` branch.
        otherwise: Type,
    },
}

/// The values of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

/// Why evaluation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A variable with no enclosing binding.
    Unbound(String),
    /// An operand of the wrong type (only ill-typed expressions get here).
    Stuck,
    /// Integer division by zero.
    DivisionByZero,
}

impl BinOp {
    /// The operand type and result type of every operator except `Eq`.
    fn signature(self) -> (Type, Type) {
        match self {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => (Type::Int, Type::Int),
            BinOp::Lt => (Type::Int, Type::Bool),
            BinOp::Eq | BinOp::And | BinOp::Or => (Type::Bool, Type::Bool),
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Lt => "<",
            BinOp::Eq => "==",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

/// The type of a closed expression.
pub fn type_of(expr: &Expr) -> Result<Type, TypeError> {
    check(expr, &mut Vec::new())
}

fn expect(found: Type, expected: Type) -> Result<(), TypeError> {
    if found == expected {
        Ok(())
    } else {
        Err(TypeError::Mismatch { expected, found })
    }
}

fn check(expr: &Expr, env: &mut Vec<(String, Type)>) -> Result<Type, TypeError> {
    match expr {
        Expr::Int(_) => Ok(Type::Int),
        Expr::Bool(_) => Ok(Type::Bool),
        Expr::Var(name) => match env.iter().rev().find(|(bound, _)| bound == name) {
            Some((_, ty)) => Ok(*ty),
            None => Err(TypeError::Unbound(name.clone())),
        },
        Expr::Not(inner) => {
            expect(check(inner, env)?, Type::Bool)?;
            Ok(Type::Bool)
        }
        Expr::Bin(op, left, right) => {
            let l = check(left, env)?;
            let r = check(right, env)?;
            if *op == BinOp::Eq {
                expect(r, l)?;
                return Ok(Type::Bool);
            }
            let (operand, result) = op.signature();
            expect(l, operand)?;
            expect(r, operand)?;
            Ok(result)
        }
        Expr::If(cond, then, otherwise) => {
            expect(check(cond, env)?, Type::Bool)?;
            let t = check(then, env)?;
            let e = check(otherwise, env)?;
            if t != e {
                return Err(TypeError::Branches { then: t, otherwise: e });
            }
            Ok(t)
        }
        Expr::Let(name, value, body) => {
            let ty = check(value, env)?;
            env.push((name.clone(), ty));
            let result = check(body, env);
            env.pop();
            result
        }
    }
}

/// Evaluates a closed expression.
pub fn eval(expr: &Expr) -> Result<Value, EvalError> {
    eval_in(expr, &mut Vec::new())
}

fn int(v: Value) -> Result<i64, EvalError> {
    match v {
        Value::Int(n) => Ok(n),
        Value::Bool(_) => Err(EvalError::Stuck),
    }
}

fn boolean(v: Value) -> Result<bool, EvalError> {
    match v {
        Value::Bool(b) => Ok(b),
        Value::Int(_) => Err(EvalError::Stuck),
    }
}

/// Applies a strict binary operator to two values.
fn apply(op: BinOp, l: Value, r: Value) -> Result<Value, EvalError> {
    Ok(match op {
        BinOp::Add => Value::Int(int(l)?.wrapping_add(int(r)?)),
        BinOp::Sub => Value::Int(int(l)?.wrapping_sub(int(r)?)),
        BinOp::Mul => Value::Int(int(l)?.wrapping_mul(int(r)?)),
        BinOp::Div => {
            let (a, b) = (int(l)?, int(r)?);
            if b == 0 {
                return Err(EvalError::DivisionByZero);
            }
            Value::Int(a.wrapping_div(b))
        }
        BinOp::Lt => Value::Bool(int(l)? < int(r)?),
        BinOp::Eq => match (l, r) {
            (Value::Int(a), Value::Int(b)) => Value::Bool(a == b),
            (Value::Bool(a), Value::Bool(b)) => Value::Bool(a == b),
            _ => return Err(EvalError::Stuck),
        },
        BinOp::And => Value::Bool(boolean(l)? && boolean(r)?),
        BinOp::Or => Value::Bool(boolean(l)? || boolean(r)?),
    })
}

fn eval_in(expr: &Expr, env: &mut Vec<(String, Value)>) -> Result<Value, EvalError> {
    match expr {
        Expr::Int(n) => Ok(Value::Int(*n)),
        Expr::Bool(b) => Ok(Value::Bool(*b)),
        Expr::Var(name) => match env.iter().rev().find(|(bound, _)| bound == name) {
            Some((_, value)) => Ok(*value),
            None => Err(EvalError::Unbound(name.clone())),
        },
        Expr::Not(inner) => Ok(Value::Bool(!boolean(eval_in(inner, env)?)?)),
        Expr::Bin(BinOp::And, left, right) => {
            if !boolean(eval_in(left, env)?)? {
                return Ok(Value::Bool(false));
            }
            Ok(Value::Bool(boolean(eval_in(right, env)?)?))
        }
        Expr::Bin(BinOp::Or, left, right) => {
            if boolean(eval_in(left, env)?)? {
                return Ok(Value::Bool(true));
            }
            Ok(Value::Bool(boolean(eval_in(right, env)?)?))
        }
        Expr::Bin(op, left, right) => {
            let l = eval_in(left, env)?;
            let r = eval_in(right, env)?;
            apply(*op, l, r)
        }
        Expr::If(cond, then, otherwise) => {
            if boolean(eval_in(cond, env)?)? {
                eval_in(then, env)
            } else {
                eval_in(otherwise, env)
            }
        }
        Expr::Let(name, value, body) => {
            let v = eval_in(value, env)?;
            env.push((name.clone(), v));
            let result = eval_in(body, env);
            env.pop();
            result
        }
    }
}

fn literal(v: Value) -> Expr {
    match v {
        Value::Int(n) => Expr::Int(n),
        Value::Bool(b) => Expr::Bool(b),
    }
}

fn as_literal(expr: &Expr) -> Option<Value> {
    match expr {
        Expr::Int(n) => Some(Value::Int(*n)),
        Expr::Bool(b) => Some(Value::Bool(*b)),
        _ => None,
    }
}

/// Folds constant subexpressions: operators on literals, `!` on a literal, and `if` on
/// a literal condition. Operations that would fail (division by zero) stay as they are.
pub fn simplify(expr: &Expr) -> Expr {
    match expr {
        Expr::Not(inner) => match simplify(inner) {
            Expr::Bool(b) => Expr::Bool(!b),
            other => Expr::Not(Box::new(other)),
        },
        Expr::Bin(op, left, right) => {
            let (l, r) = (simplify(left), simplify(right));
            if let (Some(a), Some(b)) = (as_literal(&l), as_literal(&r)) {
                if let Ok(v) = apply(*op, a, b) {
                    return literal(v);
                }
            }
            Expr::Bin(*op, Box::new(l), Box::new(r))
        }
        Expr::If(cond, then, otherwise) => match simplify(cond) {
            Expr::Bool(true) => simplify(then),
            Expr::Bool(false) => simplify(otherwise),
            c => Expr::If(Box::new(c), Box::new(simplify(then)), Box::new(simplify(otherwise))),
        },
        Expr::Let(name, value, body) => {
            Expr::Let(name.clone(), Box::new(simplify(value)), Box::new(simplify(body)))
        }
        Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) => expr.clone(),
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Type::Int => "int",
            Type::Bool => "bool",
        })
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Int(n) => write!(f, "{n}"),
            Expr::Bool(b) => write!(f, "{b}"),
            Expr::Var(name) => f.write_str(name),
            Expr::Not(inner) => write!(f, "!{inner}"),
            Expr::Bin(op, l, r) => write!(f, "({l} {} {r})", op.symbol()),
            Expr::If(c, t, e) => write!(f, "(if {c} then {t} else {e})"),
            Expr::Let(name, v, b) => write!(f, "(let {name} = {v} in {b})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(n: i64) -> Box<Expr> {
        Box::new(Expr::Int(n))
    }

    fn var(name: &str) -> Box<Expr> {
        Box::new(Expr::Var(name.to_string()))
    }

    fn bin(op: BinOp, l: Box<Expr>, r: Box<Expr>) -> Box<Expr> {
        Box::new(Expr::Bin(op, l, r))
    }

    #[test]
    fn arithmetic_types_and_evaluates() {
        let e = bin(BinOp::Add, int(2), bin(BinOp::Mul, int(3), int(4)));
        assert_eq!(type_of(&e), Ok(Type::Int));
        assert_eq!(eval(&e), Ok(Value::Int(14)));
    }

    #[test]
    fn let_binds_and_shadows() {
        let inner = Expr::Let("x".into(), int(10), bin(BinOp::Sub, var("x"), int(1)));
        let e = Expr::Let("x".into(), int(1), Box::new(inner));
        assert_eq!(type_of(&e), Ok(Type::Int));
        assert_eq!(eval(&e), Ok(Value::Int(9)));
    }

    #[test]
    fn if_evaluates_the_chosen_branch() {
        let e = Expr::If(bin(BinOp::Lt, int(1), int(2)), int(10), int(20));
        assert_eq!(type_of(&e), Ok(Type::Int));
        assert_eq!(eval(&e), Ok(Value::Int(10)));
    }

    #[test]
    fn logic_operators() {
        let t = || Box::new(Expr::Bool(true));
        assert_eq!(eval(&bin(BinOp::Or, t(), Box::new(Expr::Bool(false)))), Ok(Value::Bool(true)));
        assert_eq!(type_of(&bin(BinOp::And, t(), t())), Ok(Type::Bool));
    }

    #[test]
    fn if_requires_a_boolean_condition() {
        let e = Expr::If(int(1), int(2), int(3));
        assert_eq!(type_of(&e), Err(TypeError::Mismatch { expected: Type::Bool, found: Type::Int }));
    }

    #[test]
    fn if_branches_must_agree() {
        let e = Expr::If(Box::new(Expr::Bool(true)), int(1), Box::new(Expr::Bool(false)));
        assert!(matches!(type_of(&e), Err(TypeError::Branches { .. })));
    }

    #[test]
    fn unbound_variable() {
        assert_eq!(type_of(&Expr::Var("y".into())), Err(TypeError::Unbound("y".into())));
        assert_eq!(eval(&Expr::Var("y".into())), Err(EvalError::Unbound("y".into())));
    }

    #[test]
    fn comparison_and_division() {
        assert_eq!(eval(&bin(BinOp::Lt, int(1), int(2))), Ok(Value::Bool(true)));
        assert_eq!(eval(&bin(BinOp::Div, int(7), int(2))), Ok(Value::Int(3)));
        assert_eq!(eval(&bin(BinOp::Div, int(7), int(0))), Err(EvalError::DivisionByZero));
    }

    #[test]
    fn simplify_folds_constants() {
        let e = Expr::If(bin(BinOp::Lt, int(1), int(2)), bin(BinOp::Add, var("x"), int(0)), int(5));
        assert_eq!(simplify(&e).to_string(), "(x + 0)");
    }

    #[test]
    fn displays_expressions() {
        let e = Expr::Let("x".into(), int(1), Box::new(Expr::Not(Box::new(Expr::Bool(true)))));
        assert_eq!(e.to_string(), "(let x = 1 in !true)");
    }
}
