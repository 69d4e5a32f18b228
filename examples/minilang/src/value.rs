//! Run-time values and the operators on them, shared by the interpreter, the VM and the
//! constant folder, so that all three compute the same thing.

use std::fmt;

use crate::ast::{BinOp, Type, UnOp};

/// Longest string a program may build, in bytes.
pub const MAX_STR: usize = 4096;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Unit,
    Bool(bool),
    Int(i64),
    Str(String),
}

impl Value {
    pub fn ty(&self) -> Type {
        match self {
            Value::Unit => Type::Unit,
            Value::Bool(_) => Type::Bool,
            Value::Int(_) => Type::Int,
            Value::Str(_) => Type::Str,
        }
    }

    pub fn as_int(&self) -> Result<i64, String> {
        match self {
            Value::Int(n) => Ok(*n),
            other => Err(format!("expected an int, found {}", other.ty().name())),
        }
    }

    pub fn as_bool(&self) -> Result<bool, String> {
        match self {
            Value::Bool(b) => Ok(*b),
            other => Err(format!("expected a bool, found {}", other.ty().name())),
        }
    }

    pub fn as_str(&self) -> Result<&str, String> {
        match self {
            Value::Str(s) => Ok(s),
            other => Err(format!("expected a str, found {}", other.ty().name())),
        }
    }

    /// The zero value of a type, which a declaration without a value would get.
    pub fn zero(ty: Type) -> Value {
        match ty {
            Type::Int => Value::Int(0),
            Type::Bool => Value::Bool(false),
            Type::Str => Value::Str(String::new()),
            Type::Unit => Value::Unit,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Unit => f.write_str("()"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(n) => write!(f, "{n}"),
            Value::Str(s) => f.write_str(s),
        }
    }
}

/// A unary operator applied to a value.
pub fn unary(op: UnOp, v: &Value) -> Result<Value, String> {
    match (op, v) {
        (UnOp::Neg, Value::Int(n)) => Ok(Value::Int(n.wrapping_neg())),
        (UnOp::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
        (UnOp::Not, Value::Int(n)) => Ok(Value::Int(!n)),
        (op, v) => Err(format!("cannot apply `{}` to {}", op.symbol(), v.ty().name())),
    }
}

/// A binary operator applied to two values (`&&` and `||` too, without short-circuit:
/// the callers short-circuit before they get here).
pub fn binary(op: BinOp, l: &Value, r: &Value) -> Result<Value, String> {
    use Value::{Bool, Int, Str};
    let v = match (op, l, r) {
        (BinOp::Add, Int(a), Int(b)) => Int(a.wrapping_add(*b)),
        (BinOp::Sub, Int(a), Int(b)) => Int(a.wrapping_sub(*b)),
        (BinOp::Mul, Int(a), Int(b)) => Int(a.wrapping_mul(*b)),
        (BinOp::Div, Int(a), Int(b)) => {
            if *b == 0 {
                return Err("division by zero".into());
            }
            if *a == i64::MIN && *b == -1 {
                return Err("overflow in division".into());
            }
            Int(a / b)
        }
        (BinOp::Rem, Int(a), Int(b)) => {
            if *b == 0 {
                return Err("remainder by zero".into());
            }
            Int(a.wrapping_rem(*b))
        }
        (BinOp::BitAnd, Int(a), Int(b)) => Int(a & b),
        (BinOp::BitOr, Int(a), Int(b)) => Int(a | b),
        (BinOp::BitXor, Int(a), Int(b)) => Int(a ^ b),
        (BinOp::BitAnd, Bool(a), Bool(b)) => Bool(*a & *b),
        (BinOp::BitOr, Bool(a), Bool(b)) => Bool(*a | *b),
        (BinOp::BitXor, Bool(a), Bool(b)) => Bool(*a ^ *b),
        (BinOp::Shl, Int(a), Int(b)) => Int(a << shift_amount(*b)?),
        (BinOp::Shr, Int(a), Int(b)) => Int(a >> shift_amount(*b)?),
        (BinOp::Add, Str(a), Str(b)) => {
            if a.len() + b.len() > MAX_STR {
                return Err(format!("string longer than {MAX_STR} bytes"));
            }
            Str(format!("{a}{b}"))
        }
        (BinOp::And, Bool(a), Bool(b)) => Bool(*a && *b),
        (BinOp::Or, Bool(a), Bool(b)) => Bool(*a || *b),
        (BinOp::Eq, a, b) if a.ty() == b.ty() && *a != Value::Unit => Bool(a == b),
        (BinOp::Ne, a, b) if a.ty() == b.ty() && *a != Value::Unit => Bool(a != b),
        (BinOp::Lt, Int(a), Int(b)) => Bool(a < b),
        (BinOp::Le, Int(a), Int(b)) => Bool(a <= b),
        (BinOp::Gt, Int(a), Int(b)) => Bool(a > b),
        (BinOp::Ge, Int(a), Int(b)) => Bool(a >= b),
        (BinOp::Lt, Str(a), Str(b)) => Bool(a < b),
        (BinOp::Le, Str(a), Str(b)) => Bool(a <= b),
        (BinOp::Gt, Str(a), Str(b)) => Bool(a > b),
        (BinOp::Ge, Str(a), Str(b)) => Bool(a >= b),
        (op, a, b) => {
            return Err(format!("cannot apply `{}` to {} and {}", op.symbol(), a.ty().name(), b.ty().name()))
        }
    };
    Ok(v)
}

/// A shift amount must be in 0..64.
fn shift_amount(b: i64) -> Result<u32, String> {
    if (0..64).contains(&b) {
        Ok(b as u32)
    } else {
        Err(format!("shift by {b} is out of range 0..64"))
    }
}

/// The type of `op` applied to operands of types `l` and `r`, if it applies.
pub fn binary_type(op: BinOp, l: Type, r: Type) -> Option<Type> {
    use Type::{Bool, Int, Str};
    match op {
        BinOp::Add => match (l, r) {
            (Int, Int) => Some(Int),
            (Str, Str) => Some(Str),
            _ => None,
        },
        BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::Shl | BinOp::Shr => {
            (l == Int && r == Int).then_some(Int)
        }
        BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => match (l, r) {
            (Int, Int) => Some(Int),
            (Bool, Bool) => Some(Bool),
            _ => None,
        },
        BinOp::And | BinOp::Or => (l == Bool && r == Bool).then_some(Bool),
        BinOp::Eq | BinOp::Ne => (l == r && l != Type::Unit).then_some(Bool),
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            (l == r && (l == Int || l == Str)).then_some(Bool)
        }
    }
}

/// The type of `op` applied to an operand of type `t`, if it applies.
pub fn unary_type(op: UnOp, t: Type) -> Option<Type> {
    match (op, t) {
        (UnOp::Neg, Type::Int) => Some(Type::Int),
        (UnOp::Not, Type::Bool) => Some(Type::Bool),
        (UnOp::Not, Type::Int) => Some(Type::Int),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_wraps_and_division_checks() {
        let i = Value::Int;
        assert_eq!(binary(BinOp::Add, &i(i64::MAX), &i(1)), Ok(i(i64::MIN)));
        assert_eq!(binary(BinOp::Div, &i(7), &i(-2)), Ok(i(-3)));
        assert_eq!(binary(BinOp::Rem, &i(-7), &i(2)), Ok(i(-1)));
        assert_eq!(binary(BinOp::Rem, &i(i64::MIN), &i(-1)), Ok(i(0)));
        assert_eq!(binary(BinOp::Div, &i(1), &i(0)), Err("division by zero".into()));
        assert_eq!(binary(BinOp::Div, &i(i64::MIN), &i(-1)), Err("overflow in division".into()));
        assert_eq!(binary(BinOp::Shl, &i(1), &i(63)), Ok(i(i64::MIN)));
        assert!(binary(BinOp::Shr, &i(1), &i(64)).is_err());
        assert!(binary(BinOp::Shr, &i(1), &i(-1)).is_err());
        assert_eq!(unary(UnOp::Not, &i(0)), Ok(i(-1)));
    }

    #[test]
    fn comparisons_and_strings() {
        let s = |x: &str| Value::Str(x.into());
        assert_eq!(binary(BinOp::Add, &s("ab"), &s("c")), Ok(s("abc")));
        assert_eq!(binary(BinOp::Lt, &s("ab"), &s("b")), Ok(Value::Bool(true)));
        assert_eq!(binary(BinOp::Ge, &Value::Int(2), &Value::Int(2)), Ok(Value::Bool(true)));
        assert_eq!(binary(BinOp::Eq, &s("a"), &s("a")), Ok(Value::Bool(true)));
        assert!(binary(BinOp::Eq, &s("1"), &Value::Int(1)).is_err());
        assert!(binary(BinOp::Add, &s(&"x".repeat(MAX_STR)), &s("y")).is_err());
    }

    #[test]
    fn operator_types_match_operator_values() {
        let samples = [Value::Int(3), Value::Bool(true), Value::Str("s".into()), Value::Unit];
        for op in BinOp::ALL {
            for l in &samples {
                for r in &samples {
                    let ty = binary_type(op, l.ty(), r.ty());
                    let v = binary(op, l, r);
                    match (ty, v) {
                        (Some(t), Ok(v)) => assert_eq!(v.ty(), t, "{op:?} {l:?} {r:?}"),
                        (None, Err(_)) => {}
                        (Some(_), Err(e)) => assert!(e.contains("shift") || e.contains("zero"), "{op:?}: {e}"),
                        (None, Ok(v)) => panic!("{op:?} {l:?} {r:?} = {v:?} but has no type"),
                    }
                }
            }
        }
    }
}
