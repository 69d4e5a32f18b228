//! The syntax tree: items, statements and expressions, each with its span.

use crate::span::Span;

/// A type written in the source, or inferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Bool,
    Str,
    Unit,
}

impl Type {
    pub fn name(self) -> &'static str {
        match self {
            Type::Int => "int",
            Type::Bool => "bool",
            Type::Str => "str",
            Type::Unit => "unit",
        }
    }

    pub fn from_name(name: &str) -> Option<Type> {
        match name {
            "int" => Some(Type::Int),
            "bool" => Some(Type::Bool),
            "str" => Some(Type::Str),
            "unit" => Some(Type::Unit),
            _ => None,
        }
    }
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
}

impl BinOp {
    pub const ALL: [BinOp; 18] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::And,
        BinOp::Or,
        BinOp::BitAnd,
        BinOp::BitOr,
        BinOp::BitXor,
        BinOp::Shl,
        BinOp::Shr,
    ];

    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
        }
    }

    /// Binding power: higher binds tighter. All binary operators are left-associative.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne => 3,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 4,
            BinOp::BitOr => 5,
            BinOp::BitXor => 6,
            BinOp::BitAnd => 7,
            BinOp::Shl | BinOp::Shr => 8,
            BinOp::Add | BinOp::Sub => 9,
            BinOp::Mul | BinOp::Div | BinOp::Rem => 10,
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }

    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::And | BinOp::Or)
    }
}

/// The precedence of prefix operators, above every binary operator.
pub const UNARY_PRECEDENCE: u8 = 11;
/// The precedence of `c ? a : b`, below every binary operator.
pub const TERNARY_PRECEDENCE: u8 = 0;

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Not,
}

impl UnOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Not => "!",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Str(String),
    Var(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// Whether evaluating it can have no effect but its value and no error: no calls
    /// (they may print or fail), no division, no shifts (they may fail).
    pub fn is_pure(&self) -> bool {
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Var(_) => true,
            ExprKind::Unary(_, e) => e.is_pure(),
            ExprKind::Binary(op, l, r) => {
                !matches!(op, BinOp::Div | BinOp::Rem | BinOp::Shl | BinOp::Shr) && l.is_pure() && r.is_pure()
            }
            ExprKind::Ternary(c, a, b) => c.is_pure() && a.is_pure() && b.is_pure(),
            ExprKind::Call(..) => false,
        }
    }

    /// The same tree, spans aside.
    pub fn same(&self, other: &Expr) -> bool {
        match (&self.kind, &other.kind) {
            (ExprKind::Int(a), ExprKind::Int(b)) => a == b,
            (ExprKind::Bool(a), ExprKind::Bool(b)) => a == b,
            (ExprKind::Str(a), ExprKind::Str(b)) => a == b,
            (ExprKind::Var(a), ExprKind::Var(b)) => a == b,
            (ExprKind::Unary(o, a), ExprKind::Unary(p, b)) => o == p && a.same(b),
            (ExprKind::Binary(o, a, c), ExprKind::Binary(p, b, d)) => o == p && a.same(b) && c.same(d),
            (ExprKind::Ternary(a, c, e), ExprKind::Ternary(b, d, f)) => a.same(b) && c.same(d) && e.same(f),
            (ExprKind::Call(f, a), ExprKind::Call(g, b)) => {
                f == g && a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y))
            }
            _ => false,
        }
    }

    /// Nodes in the tree.
    pub fn size(&self) -> usize {
        1 + match &self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Var(_) => 0,
            ExprKind::Unary(_, e) => e.size(),
            ExprKind::Binary(_, l, r) => l.size() + r.size(),
            ExprKind::Ternary(c, a, b) => c.size() + a.size() + b.size(),
            ExprKind::Call(_, args) => args.iter().map(Expr::size).sum(),
        }
    }
}

/// The place of a compound assignment's operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
    Mul,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// `let x: T = e;` (immutable) or `var x: T = e;` (mutable).
    Let { name: String, mutable: bool, ty: Option<Type>, value: Expr },
    Assign { name: String, op: AssignOp, value: Expr },
    If { cond: Expr, then: Vec<Stmt>, otherwise: Option<Vec<Stmt>> },
    While { cond: Expr, body: Vec<Stmt> },
    /// `for i in a..b { }`: `i` runs from `a` up to, not including, `b`.
    For { var: String, from: Expr, to: Expr, body: Vec<Stmt> },
    Break,
    Continue,
    Return(Option<Expr>),
    Print(Expr),
    Expr(Expr),
    Block(Vec<Stmt>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    pub params: Vec<Param>,
    pub ret: Type,
    pub body: Vec<Stmt>,
    pub span: Span,
}

/// A whole program: functions, and the statements that run at the top.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub functions: Vec<Function>,
    pub main: Vec<Stmt>,
}

impl Program {
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
}
