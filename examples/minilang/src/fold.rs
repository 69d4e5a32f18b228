//! The constant folder: evaluates what is known before the program runs and simplifies
//! by algebraic identities, keeping every effect and every run-time error (an operation
//! that would fail is left for the run, and an operand with an effect is never dropped).

use crate::ast::*;
use crate::builtins;
use crate::span::Span;
use crate::value::{self, Value};

/// What the folder did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Operations on literals computed.
    pub constants: usize,
    /// Identities applied (`x + 0`, `x * 1`, `!!x`, …).
    pub identities: usize,
    /// Branches and loops decided by a literal condition.
    pub branches: usize,
    /// Statements removed (unreachable, or without effect).
    pub removed: usize,
}

impl Stats {
    pub fn total(&self) -> usize {
        self.constants + self.identities + self.branches + self.removed
    }
}

struct Folder {
    stats: Stats,
}

fn literal(v: &Value) -> Option<ExprKind> {
    match v {
        Value::Int(n) => Some(ExprKind::Int(*n)),
        Value::Bool(b) => Some(ExprKind::Bool(*b)),
        Value::Str(s) => Some(ExprKind::Str(s.clone())),
        Value::Unit => None,
    }
}

fn as_value(e: &Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Int(n) => Some(Value::Int(*n)),
        ExprKind::Bool(b) => Some(Value::Bool(*b)),
        ExprKind::Str(s) => Some(Value::Str(s.clone())),
        _ => None,
    }
}

fn is_int(e: &Expr, n: i64) -> bool {
    e.kind == ExprKind::Int(n)
}

fn is_bool(e: &Expr, b: bool) -> bool {
    e.kind == ExprKind::Bool(b)
}

fn is_empty_str(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Str(s) if s.is_empty())
}

/// Whether a statement can leave its block early, so the ones after it never run.
fn ends_block(s: &Stmt) -> bool {
    matches!(s.kind, StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue)
}

impl Folder {
    fn expr(&mut self, e: Expr) -> Expr {
        let span = e.span;
        let kind = match e.kind {
            ExprKind::Unary(op, inner) => {
                let inner = self.expr(*inner);
                if let Some(v) = as_value(&inner) {
                    if let Some(k) = value::unary(op, &v).ok().as_ref().and_then(literal) {
                        self.stats.constants += 1;
                        return Expr::new(k, span);
                    }
                }
                // `--x` and `!!x` are `x`.
                if let ExprKind::Unary(op2, x) = &inner.kind {
                    if *op2 == op {
                        self.stats.identities += 1;
                        return (**x).clone();
                    }
                }
                ExprKind::Unary(op, Box::new(inner))
            }
            ExprKind::Binary(op, l, r) => {
                let l = self.expr(*l);
                let r = self.expr(*r);
                return self.binary(op, l, r, span);
            }
            ExprKind::Ternary(c, a, b) => {
                let c = self.expr(*c);
                let a = self.expr(*a);
                let b = self.expr(*b);
                if let ExprKind::Bool(v) = c.kind {
                    self.stats.branches += 1;
                    return if v { a } else { b };
                }
                if is_bool(&a, true) && is_bool(&b, false) {
                    self.stats.identities += 1;
                    return c;
                }
                if is_bool(&a, false) && is_bool(&b, true) {
                    self.stats.identities += 1;
                    return Expr::new(ExprKind::Unary(UnOp::Not, Box::new(c)), span);
                }
                if a.same(&b) && c.is_pure() && a.is_pure() {
                    self.stats.identities += 1;
                    return a;
                }
                ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b))
            }
            ExprKind::Call(name, args) => {
                let args: Vec<Expr> = args.into_iter().map(|a| self.expr(a)).collect();
                let values: Option<Vec<Value>> = args.iter().map(as_value).collect();
                // Built-ins are pure: one called on literals is a literal (unless it fails).
                if let (Some(values), true) = (values, builtins::signature(&name).is_some()) {
                    if let Some(k) = builtins::call(&name, &values).ok().as_ref().and_then(literal) {
                        self.stats.constants += 1;
                        return Expr::new(k, span);
                    }
                }
                ExprKind::Call(name, args)
            }
            other => other,
        };
        Expr::new(kind, span)
    }

    fn binary(&mut self, op: BinOp, l: Expr, r: Expr, span: Span) -> Expr {
        if let (Some(a), Some(b)) = (as_value(&l), as_value(&r)) {
            if let Ok(v) = value::binary(op, &a, &b) {
                if let Some(k) = literal(&v) {
                    self.stats.constants += 1;
                    return Expr::new(k, span);
                }
            }
        }
        let keep_left = |f: &mut Folder, l: Expr| {
            f.stats.identities += 1;
            l
        };
        match op {
            BinOp::And if is_bool(&l, true) => return keep_left(self, r),
            BinOp::And if is_bool(&l, false) => return keep_left(self, l),
            BinOp::And if is_bool(&r, true) => return keep_left(self, l),
            BinOp::And if is_bool(&r, false) && l.is_pure() => return keep_left(self, r),
            BinOp::Or if is_bool(&l, false) => return keep_left(self, r),
            BinOp::Or if is_bool(&l, true) => return keep_left(self, l),
            BinOp::Or if is_bool(&r, false) => return keep_left(self, l),
            BinOp::Or if is_bool(&r, true) && l.is_pure() => return keep_left(self, r),
            BinOp::Add if is_int(&r, 0) || is_empty_str(&r) => return keep_left(self, l),
            BinOp::Add if is_int(&l, 0) || is_empty_str(&l) => return keep_left(self, r),
            BinOp::Sub if is_int(&r, 0) => return keep_left(self, l),
            BinOp::Mul if is_int(&r, 1) => return keep_left(self, l),
            BinOp::Mul if is_int(&l, 1) => return keep_left(self, r),
            BinOp::Mul if is_int(&r, 0) && l.is_pure() => return keep_left(self, r),
            BinOp::Mul if is_int(&l, 0) && r.is_pure() => return keep_left(self, l),
            BinOp::Div if is_int(&r, 1) => return keep_left(self, l),
            BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr if is_int(&r, 0) => {
                return keep_left(self, l)
            }
            BinOp::BitAnd if is_int(&r, -1) => return keep_left(self, l),
            BinOp::Sub if l.same(&r) && matches!(l.kind, ExprKind::Var(_)) => {
                self.stats.identities += 1;
                return Expr::new(ExprKind::Int(0), span);
            }
            _ => {}
        }
        Expr::new(ExprKind::Binary(op, Box::new(l), Box::new(r)), span)
    }

    fn stmts(&mut self, stmts: Vec<Stmt>) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(stmts.len());
        let total = stmts.len();
        for (i, s) in stmts.into_iter().enumerate() {
            let ends = ends_block(&s);
            out.extend(self.stmt(s));
            if ends {
                self.stats.removed += total - i - 1;
                break;
            }
        }
        out
    }

    /// A statement folded: none, one, or (a decided `if`) a block.
    fn stmt(&mut self, s: Stmt) -> Option<Stmt> {
        let span = s.span;
        let kind = match s.kind {
            StmtKind::Let { name, mutable, ty, value } => {
                StmtKind::Let { name, mutable, ty, value: self.expr(value) }
            }
            StmtKind::Assign { name, op, value } => StmtKind::Assign { name, op, value: self.expr(value) },
            StmtKind::If { cond, then, otherwise } => {
                let cond = self.expr(cond);
                let then = self.stmts(then);
                let otherwise = otherwise.map(|e| self.stmts(e));
                match cond.kind {
                    ExprKind::Bool(true) => {
                        self.stats.branches += 1;
                        StmtKind::Block(then)
                    }
                    ExprKind::Bool(false) => {
                        self.stats.branches += 1;
                        match otherwise {
                            Some(e) => StmtKind::Block(e),
                            None => return None,
                        }
                    }
                    _ => {
                        let otherwise = otherwise.filter(|e| !e.is_empty());
                        StmtKind::If { cond, then, otherwise }
                    }
                }
            }
            StmtKind::While { cond, body } => {
                let cond = self.expr(cond);
                if is_bool(&cond, false) {
                    self.stats.branches += 1;
                    return None;
                }
                StmtKind::While { cond, body: self.stmts(body) }
            }
            StmtKind::For { var, from, to, body } => {
                let from = self.expr(from);
                let to = self.expr(to);
                if let (ExprKind::Int(a), ExprKind::Int(b)) = (&from.kind, &to.kind) {
                    if a >= b {
                        self.stats.branches += 1;
                        return None;
                    }
                }
                StmtKind::For { var, from, to, body: self.stmts(body) }
            }
            StmtKind::Return(value) => StmtKind::Return(value.map(|e| self.expr(e))),
            StmtKind::Print(e) => StmtKind::Print(self.expr(e)),
            StmtKind::Expr(e) => {
                let e = self.expr(e);
                if e.is_pure() {
                    self.stats.removed += 1;
                    return None;
                }
                StmtKind::Expr(e)
            }
            StmtKind::Block(stmts) => {
                let stmts = self.stmts(stmts);
                if stmts.is_empty() {
                    self.stats.removed += 1;
                    return None;
                }
                StmtKind::Block(stmts)
            }
            k @ (StmtKind::Break | StmtKind::Continue) => k,
        };
        Some(Stmt { kind, span })
    }
}

/// Fold a checked program.
pub fn fold(program: &Program) -> (Program, Stats) {
    let mut f = Folder { stats: Stats::default() };
    let functions = program
        .functions
        .iter()
        .map(|func| Function { body: f.stmts(func.body.clone()), ..func.clone() })
        .collect();
    let main = f.stmts(program.main.clone());
    (Program { functions, main }, f.stats)
}

/// Fold one expression.
pub fn fold_expr(e: &Expr) -> (Expr, Stats) {
    let mut f = Folder { stats: Stats::default() };
    let e = f.expr(e.clone());
    (e, f.stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use crate::parser::{parse, parse_expr};

    fn folded(src: &str) -> String {
        let e = parse_expr(&lex(src).0).unwrap();
        let (e, _) = fold_expr(&e);
        crate::pretty::expr(&e)
    }

    #[test]
    fn constants_and_identities() {
        assert_eq!(folded("1 + 2 * 3"), "7");
        assert_eq!(folded("x * (3 - 2) + 0"), "x");
        assert_eq!(folded("\"a\" + \"b\" + s"), "\"ab\" + s");
        assert_eq!(folded("len(\"abc\") * 2"), "6");
        assert_eq!(folded("1 / 0"), "1 / 0");
        assert_eq!(folded("f(x) * 0"), "f(x) * 0");
        assert_eq!(folded("x * 0"), "0");
        assert_eq!(folded("!!b && true"), "b");
        assert_eq!(folded("c ? true : false"), "c");
        assert_eq!(folded("c ? false : true"), "!c");
        assert_eq!(folded("x - x"), "0");
        assert_eq!(folded("true ? a : b"), "a");
        assert_eq!(folded("- -x"), "x");
        assert_eq!(folded("x | 0 ^ 0"), "x");
    }

    #[test]
    fn statements_fold_and_dead_code_goes() {
        let (program, _) = parse(&lex(
            "if 1 < 2 { print 1; } else { print 2; } while 1 > 2 { print 3; } for i in 3..3 { } \
             fn f() -> int { return 1; print 9; } { } 1 + 2; print f();",
        ).0);
        let (p, stats) = fold(&program);
        assert_eq!(crate::pretty::program(&p), "fn f() -> int {\n    return 1;\n}\n{\n    print 1;\n}\nprint f();\n");
        assert_eq!(stats, Stats { constants: 3, identities: 0, branches: 3, removed: 3 });
        assert_eq!(stats.total(), 9);
    }
}
