//! The fixed set of mutation operators, each with a stable name used in the catalog and CLI.

use serde::{Deserialize, Serialize};

/// A mutation operator. The serialized name is stable: catalogs, configs and reports use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operator {
    /// `+ - * / %` swapped for one another (cargo-mutants' pairs).
    ArithSwap,
    /// `& | ^` swapped for one another.
    BitSwap,
    /// `<<` and `>>` swapped.
    ShiftSwap,
    /// `<`↔`<=`, `>`↔`>=`.
    RelationalBoundary,
    /// `<`→`>=`, `<=`→`>`, `>`→`<=`, `>=`→`<`.
    RelationalInvert,
    /// `<`→`==`/`>`, `>`→`==`/`<` (as cargo-mutants does).
    RelationalSwap,
    /// `==`↔`!=`.
    EqInvert,
    /// `&&`↔`||`.
    LogicalSwap,
    /// Delete unary `!` or `-`.
    UnaryDelete,
    /// `+=`→`-=` and the other compound assignments.
    CompoundAssignSwap,
    /// Replace a function body with a value of its return type.
    FnReturn,
    /// Delete a call statement (`f(x);`, `v.push(x);`).
    CallDelete,
    /// Force an `if` condition to `true` or `false`.
    IfCondition,
    /// Delete a match arm (only where a `_` arm exists).
    MatchArmDelete,
    /// Replace a match guard with `true` or `false`.
    MatchGuard,
    /// Replace an integer literal with 0, one more or one less.
    IntLiteral,
    /// Flip a bool literal.
    BoolLiteral,
    /// `..`↔`..=`.
    RangeLimitSwap,
    /// `break`↔`continue`.
    BreakContinueSwap,
}

impl Operator {
    /// Whether the schema shape of this operator's sites carries an infection probe
    /// (the binary, comparison and forced-condition shapes; see `shape::Probe`). A forced
    /// condition is probed only when it is pure (`syntax::is_pure_condition`).
    pub fn has_infection_probe(self) -> bool {
        matches!(
            self,
            Operator::IfCondition
                | Operator::MatchGuard
                | Operator::ArithSwap
                | Operator::BitSwap
                | Operator::ShiftSwap
                | Operator::RelationalBoundary
                | Operator::RelationalInvert
                | Operator::RelationalSwap
                | Operator::EqInvert
        )
    }

    /// Every operator, in catalog order.
    pub const ALL: [Operator; 19] = [
        Operator::ArithSwap,
        Operator::BitSwap,
        Operator::ShiftSwap,
        Operator::RelationalBoundary,
        Operator::RelationalInvert,
        Operator::RelationalSwap,
        Operator::EqInvert,
        Operator::LogicalSwap,
        Operator::UnaryDelete,
        Operator::CompoundAssignSwap,
        Operator::FnReturn,
        Operator::CallDelete,
        Operator::IfCondition,
        Operator::MatchArmDelete,
        Operator::MatchGuard,
        Operator::IntLiteral,
        Operator::BoolLiteral,
        Operator::RangeLimitSwap,
        Operator::BreakContinueSwap,
    ];

    /// The stable name, as in JSON and `mutfuzz.toml`.
    pub fn name(self) -> &'static str {
        match self {
            Operator::ArithSwap => "arith_swap",
            Operator::BitSwap => "bit_swap",
            Operator::ShiftSwap => "shift_swap",
            Operator::RelationalBoundary => "relational_boundary",
            Operator::RelationalInvert => "relational_invert",
            Operator::RelationalSwap => "relational_swap",
            Operator::EqInvert => "eq_invert",
            Operator::LogicalSwap => "logical_swap",
            Operator::UnaryDelete => "unary_delete",
            Operator::CompoundAssignSwap => "compound_assign_swap",
            Operator::FnReturn => "fn_return",
            Operator::CallDelete => "call_delete",
            Operator::IfCondition => "if_condition",
            Operator::MatchArmDelete => "match_arm_delete",
            Operator::MatchGuard => "match_guard",
            Operator::IntLiteral => "int_literal",
            Operator::BoolLiteral => "bool_literal",
            Operator::RangeLimitSwap => "range_limit_swap",
            Operator::BreakContinueSwap => "break_continue_swap",
        }
    }

    /// Look an operator up by its stable name.
    pub fn from_name(name: &str) -> Option<Operator> {
        Operator::ALL.into_iter().find(|op| op.name() == name)
    }
}

impl std::fmt::Display for Operator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Replacements for a binary operator token, with the operator that makes each.
pub(crate) fn binary_replacements(op: &str) -> &'static [(&'static str, Operator)] {
    use Operator::*;
    match op {
        "+" => &[("-", ArithSwap), ("*", ArithSwap)],
        "-" => &[("+", ArithSwap), ("/", ArithSwap)],
        "*" => &[("+", ArithSwap), ("/", ArithSwap)],
        "/" => &[("%", ArithSwap), ("*", ArithSwap)],
        "%" => &[("/", ArithSwap), ("+", ArithSwap)],
        "&" => &[("|", BitSwap), ("^", BitSwap)],
        "|" => &[("&", BitSwap), ("^", BitSwap)],
        "^" => &[("|", BitSwap), ("&", BitSwap)],
        "<<" => &[(">>", ShiftSwap)],
        ">>" => &[("<<", ShiftSwap)],
        "==" => &[("!=", EqInvert)],
        "!=" => &[("==", EqInvert)],
        "<" => &[
            ("<=", RelationalBoundary),
            (">=", RelationalInvert),
            ("==", RelationalSwap),
            (">", RelationalSwap),
        ],
        "<=" => &[("<", RelationalBoundary), (">", RelationalInvert)],
        ">" => &[
            (">=", RelationalBoundary),
            ("<=", RelationalInvert),
            ("==", RelationalSwap),
            ("<", RelationalSwap),
        ],
        ">=" => &[(">", RelationalBoundary), ("<", RelationalInvert)],
        "&&" => &[("||", LogicalSwap)],
        "||" => &[("&&", LogicalSwap)],
        "+=" => &[("-=", CompoundAssignSwap), ("*=", CompoundAssignSwap)],
        "-=" => &[("+=", CompoundAssignSwap), ("/=", CompoundAssignSwap)],
        "*=" => &[("+=", CompoundAssignSwap), ("/=", CompoundAssignSwap)],
        "/=" => &[("%=", CompoundAssignSwap), ("*=", CompoundAssignSwap)],
        "%=" => &[("/=", CompoundAssignSwap), ("+=", CompoundAssignSwap)],
        "&=" => &[("|=", CompoundAssignSwap)],
        "|=" => &[("&=", CompoundAssignSwap)],
        "^=" => &[("|=", CompoundAssignSwap), ("&=", CompoundAssignSwap)],
        "<<=" => &[(">>=", CompoundAssignSwap)],
        ">>=" => &[("<<=", CompoundAssignSwap)],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for op in Operator::ALL {
            assert_eq!(Operator::from_name(op.name()), Some(op));
            let json = serde_json::to_string(&op).unwrap();
            assert_eq!(json, format!("\"{}\"", op.name()));
        }
    }
}
