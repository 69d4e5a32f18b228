//! Range analysis: an abstract interpretation of a checked program over intervals of
//! ints and three-valued bools. It finds divisions by a divisor that is always zero,
//! shifts always out of range, and conditions that are always true or always false.
//! Loops are analysed until their state is stable, widening after a few rounds.

use std::collections::BTreeMap;

use crate::ast::*;
use crate::span::{Diagnostic, Span, Stage};

/// Rounds of a loop before its changing bounds are widened to the whole range.
const WIDEN_AFTER: usize = 3;

/// A closed interval of ints, `lo <= hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub lo: i64,
    pub hi: i64,
}

impl Interval {
    pub const TOP: Interval = Interval { lo: i64::MIN, hi: i64::MAX };

    pub fn new(lo: i64, hi: i64) -> Interval {
        debug_assert!(lo <= hi);
        Interval { lo, hi }
    }

    pub fn exact(n: i64) -> Interval {
        Interval { lo: n, hi: n }
    }

    pub fn is_exact(&self) -> Option<i64> {
        (self.lo == self.hi).then_some(self.lo)
    }

    pub fn contains(&self, n: i64) -> bool {
        self.lo <= n && n <= self.hi
    }

    pub fn join(self, o: Interval) -> Interval {
        Interval { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi) }
    }

    /// Widen: a bound that moved goes to the end of the range.
    pub fn widen(self, newer: Interval) -> Interval {
        Interval {
            lo: if newer.lo < self.lo { i64::MIN } else { self.lo },
            hi: if newer.hi > self.hi { i64::MAX } else { self.hi },
        }
    }

    /// Both bounds computed without overflow, or the whole range (arithmetic wraps).
    fn from_checked(lo: Option<i64>, hi: Option<i64>) -> Interval {
        match (lo, hi) {
            (Some(lo), Some(hi)) if lo <= hi => Interval { lo, hi },
            _ => Interval::TOP,
        }
    }

    pub fn add(self, o: Interval) -> Interval {
        Interval::from_checked(self.lo.checked_add(o.lo), self.hi.checked_add(o.hi))
    }

    pub fn sub(self, o: Interval) -> Interval {
        Interval::from_checked(self.lo.checked_sub(o.hi), self.hi.checked_sub(o.lo))
    }

    pub fn mul(self, o: Interval) -> Interval {
        let products = [
            self.lo.checked_mul(o.lo),
            self.lo.checked_mul(o.hi),
            self.hi.checked_mul(o.lo),
            self.hi.checked_mul(o.hi),
        ];
        if products.iter().any(Option::is_none) {
            return Interval::TOP;
        }
        let p = products.map(|x| x.expect("checked"));
        Interval { lo: p.iter().copied().min().expect("four"), hi: p.iter().copied().max().expect("four") }
    }

    pub fn neg(self) -> Interval {
        Interval::from_checked(self.hi.checked_neg(), self.lo.checked_neg())
    }

    /// Division by a divisor that excludes zero; otherwise the whole range.
    pub fn div(self, o: Interval) -> Interval {
        if o.contains(0) {
            return Interval::TOP;
        }
        let q = [self.lo.checked_div(o.lo), self.lo.checked_div(o.hi), self.hi.checked_div(o.lo), self.hi.checked_div(o.hi)];
        if q.iter().any(Option::is_none) {
            return Interval::TOP;
        }
        let q = q.map(|x| x.expect("checked"));
        Interval { lo: q.iter().copied().min().expect("four"), hi: q.iter().copied().max().expect("four") }
    }

    /// The remainder has the dividend's sign and is smaller than the divisor.
    pub fn rem(self, o: Interval) -> Interval {
        let m = o.lo.unsigned_abs().max(o.hi.unsigned_abs());
        if m == 0 {
            return Interval::TOP;
        }
        let bound = i64::try_from(m - 1).unwrap_or(i64::MAX);
        let lo = if self.lo < 0 { -bound.min(self.lo.unsigned_abs().min(i64::MAX as u64) as i64) } else { 0 };
        let hi = if self.hi > 0 { bound.min(self.hi) } else { 0 };
        Interval::new(lo.min(hi), hi)
    }

    /// `&` of two non-negative ranges is at most the smaller top.
    pub fn bitand(self, o: Interval) -> Interval {
        if self.lo >= 0 && o.lo >= 0 {
            Interval::new(0, self.hi.min(o.hi))
        } else if self.lo >= 0 {
            Interval::new(0, self.hi)
        } else if o.lo >= 0 {
            Interval::new(0, o.hi)
        } else {
            Interval::TOP
        }
    }

    pub fn shr(self, o: Interval) -> Interval {
        if o.lo < 0 || o.hi > 63 {
            return Interval::TOP;
        }
        let (a, b) = (o.lo as u32, o.hi as u32);
        let c = [self.lo >> a, self.lo >> b, self.hi >> a, self.hi >> b];
        Interval { lo: c.iter().copied().min().expect("four"), hi: c.iter().copied().max().expect("four") }
    }
}

/// A bool that may be unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tri {
    True,
    False,
    Unknown,
}

impl Tri {
    fn of(b: bool) -> Tri {
        if b {
            Tri::True
        } else {
            Tri::False
        }
    }

    fn not(self) -> Tri {
        match self {
            Tri::True => Tri::False,
            Tri::False => Tri::True,
            Tri::Unknown => Tri::Unknown,
        }
    }

    fn join(self, o: Tri) -> Tri {
        if self == o {
            self
        } else {
            Tri::Unknown
        }
    }
}

/// The abstract value of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abs {
    Int(Interval),
    Bool(Tri),
    Other,
}

impl Abs {
    fn join(self, o: Abs) -> Abs {
        match (self, o) {
            (Abs::Int(a), Abs::Int(b)) => Abs::Int(a.join(b)),
            (Abs::Bool(a), Abs::Bool(b)) => Abs::Bool(a.join(b)),
            _ => Abs::Other,
        }
    }

    fn widen(self, o: Abs) -> Abs {
        match (self, o) {
            (Abs::Int(a), Abs::Int(b)) => Abs::Int(a.widen(b)),
            (a, b) => a.join(b),
        }
    }
}

type Env = BTreeMap<String, Abs>;

fn join_env(a: &Env, b: &Env) -> Env {
    a.iter().filter_map(|(k, v)| b.get(k).map(|w| (k.clone(), v.join(*w)))).collect()
}

/// The comparison `l op r` on intervals.
pub fn compare(op: BinOp, l: Interval, r: Interval) -> Tri {
    match op {
        BinOp::Lt if l.hi < r.lo => Tri::True,
        BinOp::Lt if l.lo >= r.hi => Tri::False,
        BinOp::Le if l.hi <= r.lo => Tri::True,
        BinOp::Le if l.lo > r.hi => Tri::False,
        BinOp::Gt => compare(BinOp::Lt, r, l),
        BinOp::Ge => compare(BinOp::Le, r, l),
        BinOp::Eq if l.is_exact().is_some() && l == r => Tri::True,
        BinOp::Eq if l.hi < r.lo || r.hi < l.lo => Tri::False,
        BinOp::Ne => compare(BinOp::Eq, l, r).not(),
        _ => Tri::Unknown,
    }
}

/// The range a built-in's int result is in, whatever its arguments.
fn builtin_range(name: &str) -> Interval {
    match name {
        "len" | "abs" | "gcd" | "isqrt" | "hash" | "count" | "distance" | "lcm" | "binom" => {
            Interval::new(0, i64::MAX)
        }
        "crc" => Interval::new(0, i64::from(u32::MAX)),
        "unroman" => Interval::new(1, 3999),
        "sign" => Interval::new(-1, 1),
        "bits" => Interval::new(0, 64),
        "log2" => Interval::new(0, 62),
        "digits" => Interval::new(1, 19),
        "ord" | "find" => Interval::new(-1, 0x10_ffff.max(i64::from(u32::MAX))),
        _ => Interval::TOP,
    }
}

struct Analysis {
    env: Env,
    warnings: Vec<Diagnostic>,
    /// Warnings are only reported on the last, stable round of a loop.
    quiet: usize,
}

impl Analysis {
    fn warn(&mut self, span: Span, message: impl Into<String>) {
        if self.quiet == 0 {
            let d = Diagnostic::new(Stage::Check, span, message);
            if !self.warnings.contains(&d) {
                self.warnings.push(d);
            }
        }
    }

    fn int(&mut self, e: &Expr) -> Interval {
        match self.expr(e) {
            Abs::Int(i) => i,
            _ => Interval::TOP,
        }
    }

    fn expr(&mut self, e: &Expr) -> Abs {
        match &e.kind {
            ExprKind::Int(n) => Abs::Int(Interval::exact(*n)),
            ExprKind::Bool(b) => Abs::Bool(Tri::of(*b)),
            ExprKind::Str(_) => Abs::Other,
            ExprKind::Var(name) => self.env.get(name).copied().unwrap_or(Abs::Other),
            ExprKind::Unary(UnOp::Neg, x) => Abs::Int(self.int(x).neg()),
            ExprKind::Unary(UnOp::Not, x) => match self.expr(x) {
                Abs::Bool(t) => Abs::Bool(t.not()),
                Abs::Int(i) => Abs::Int(Interval::from_checked(Some(!i.hi), Some(!i.lo))),
                Abs::Other => Abs::Other,
            },
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, e.span),
            ExprKind::Ternary(c, a, b) => {
                let t = self.condition(c, "`?` condition");
                match t {
                    Tri::True => self.expr(a),
                    Tri::False => self.expr(b),
                    Tri::Unknown => {
                        let x = self.expr(a);
                        let y = self.expr(b);
                        x.join(y)
                    }
                }
            }
            ExprKind::Call(name, args) => {
                for a in args {
                    self.expr(a);
                }
                match crate::builtins::signature(name) {
                    Some((_, Type::Int)) => Abs::Int(builtin_range(name)),
                    Some((_, Type::Bool)) => Abs::Bool(Tri::Unknown),
                    _ => Abs::Other,
                }
            }
        }
    }

    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr, span: Span) -> Abs {
        if op.is_logical() {
            let a = self.expr(l);
            let b = self.expr(r);
            return match (op, a, b) {
                (BinOp::And, Abs::Bool(Tri::False), _) | (BinOp::And, _, Abs::Bool(Tri::False)) => {
                    Abs::Bool(Tri::False)
                }
                (BinOp::Or, Abs::Bool(Tri::True), _) | (BinOp::Or, _, Abs::Bool(Tri::True)) => Abs::Bool(Tri::True),
                (_, Abs::Bool(Tri::True), Abs::Bool(Tri::True)) => Abs::Bool(Tri::True),
                (_, Abs::Bool(Tri::False), Abs::Bool(Tri::False)) => Abs::Bool(Tri::False),
                _ => Abs::Bool(Tri::Unknown),
            };
        }
        let (a, b) = (self.expr(l), self.expr(r));
        let (Abs::Int(x), Abs::Int(y)) = (a, b) else {
            return if op.is_comparison() { Abs::Bool(Tri::Unknown) } else { Abs::Other };
        };
        let v = match op {
            BinOp::Add => x.add(y),
            BinOp::Sub => x.sub(y),
            BinOp::Mul => x.mul(y),
            BinOp::Div | BinOp::Rem => {
                if y.is_exact() == Some(0) {
                    self.warn(span, "division by zero: the divisor is always 0");
                }
                if op == BinOp::Div {
                    x.div(y)
                } else {
                    x.rem(y)
                }
            }
            BinOp::BitAnd => x.bitand(y),
            BinOp::Shl | BinOp::Shr => {
                if y.hi < 0 || y.lo > 63 {
                    self.warn(span, "shift amount is always out of range 0..64");
                }
                if op == BinOp::Shr {
                    x.shr(y)
                } else {
                    Interval::TOP
                }
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                return Abs::Bool(compare(op, x, y))
            }
            _ => Interval::TOP,
        };
        Abs::Int(v)
    }

    fn condition(&mut self, c: &Expr, what: &str) -> Tri {
        let t = match self.expr(c) {
            Abs::Bool(t) => t,
            _ => Tri::Unknown,
        };
        // A literal says what it means; only a computed condition earns a warning.
        if !matches!(c.kind, ExprKind::Bool(_)) {
            match t {
                Tri::True => self.warn(c.span, format!("this {what} is always true")),
                Tri::False => self.warn(c.span, format!("this {what} is always false")),
                Tri::Unknown => {}
            }
        }
        t
    }

    /// Narrow the environment by a condition known to hold (`x < 5`, `n != 0`, …).
    fn refine(&mut self, c: &Expr, holds: bool) {
        let ExprKind::Binary(op, l, r) = &c.kind else { return };
        let op = if holds { *op } else { negate(*op) };
        if let (ExprKind::Var(name), Some(Abs::Int(bound))) = (&l.kind, Some(self.expr(r))) {
            if let Some(Abs::Int(cur)) = self.env.get(name).copied() {
                if let Some(n) = narrow(cur, op, bound) {
                    self.env.insert(name.clone(), Abs::Int(n));
                }
            }
        }
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { name, value, .. } => {
                let v = self.expr(value);
                self.env.insert(name.clone(), v);
            }
            StmtKind::Assign { name, op, value } => {
                let v = self.expr(value);
                let old = self.env.get(name).copied().unwrap_or(Abs::Other);
                let new = match (op, old, v) {
                    (AssignOp::Set, _, v) => v,
                    (AssignOp::Add, Abs::Int(a), Abs::Int(b)) => Abs::Int(a.add(b)),
                    (AssignOp::Sub, Abs::Int(a), Abs::Int(b)) => Abs::Int(a.sub(b)),
                    (AssignOp::Mul, Abs::Int(a), Abs::Int(b)) => Abs::Int(a.mul(b)),
                    _ => Abs::Other,
                };
                self.env.insert(name.clone(), new);
            }
            StmtKind::If { cond, then, otherwise } => {
                let t = self.condition(cond, "`if` condition");
                let before = self.env.clone();
                self.refine(cond, true);
                if t != Tri::False {
                    self.stmts(then);
                }
                let after_then = std::mem::replace(&mut self.env, before);
                self.refine(cond, false);
                if t != Tri::True {
                    if let Some(e) = otherwise {
                        self.stmts(e);
                    }
                }
                self.env = match t {
                    Tri::True => after_then,
                    Tri::False => self.env.clone(),
                    Tri::Unknown => join_env(&after_then, &self.env),
                };
            }
            StmtKind::While { cond, body } => self.looping(Some(cond), None, body),
            StmtKind::For { var, from, to, body } => {
                let a = self.int(from);
                let b = self.int(to);
                if compare(BinOp::Lt, a, b) == Tri::False {
                    self.warn(s.span, "this loop never runs: the range is empty");
                    return;
                }
                let hi = b.hi.checked_sub(1).unwrap_or(i64::MIN).max(a.lo);
                self.looping(None, Some((var, Interval::new(a.lo, hi))), body);
            }
            StmtKind::Return(Some(e)) | StmtKind::Print(e) | StmtKind::Expr(e) => {
                self.expr(e);
            }
            StmtKind::Block(b) => self.stmts(b),
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue => {}
        }
    }

    /// Run a loop body until the environment stops changing, then once more to report.
    fn looping(&mut self, cond: Option<&Expr>, var: Option<(&String, Interval)>, body: &[Stmt]) {
        let entry = self.env.clone();
        let mut state = entry.clone();
        let mut round = 0;
        self.quiet += 1;
        loop {
            self.env = state.clone();
            if let Some((v, range)) = var {
                self.env.insert(v.clone(), Abs::Int(range));
            }
            if let Some(c) = cond {
                if self.expr(c) == Abs::Bool(Tri::False) {
                    break;
                }
                self.refine(c, true);
            }
            self.stmts(body);
            let joined = join_env(&state, &self.env);
            let next: Env = if round >= WIDEN_AFTER {
                state.iter().filter_map(|(k, v)| joined.get(k).map(|w| (k.clone(), v.widen(*w)))).collect()
            } else {
                joined
            };
            if next == state {
                break;
            }
            state = next;
            round += 1;
        }
        self.quiet -= 1;
        // The reporting round, from the stable state.
        self.env = state.clone();
        if let Some((v, range)) = var {
            self.env.insert(v.clone(), Abs::Int(range));
        }
        if let Some(c) = cond {
            if !matches!(c.kind, ExprKind::Bool(true)) {
                self.condition(c, "loop condition");
            }
            self.refine(c, true);
        }
        self.stmts(body);
        self.env = join_env(&state, &entry);
        if let Some(c) = cond {
            self.refine(c, false);
        }
    }
}

/// The comparison that holds when `op` does not.
fn negate(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Ge => BinOp::Lt,
        BinOp::Eq => BinOp::Ne,
        BinOp::Ne => BinOp::Eq,
        other => other,
    }
}

/// `cur` narrowed by `x op bound`; `None` if nothing is known.
fn narrow(cur: Interval, op: BinOp, bound: Interval) -> Option<Interval> {
    let (lo, hi) = match op {
        BinOp::Lt => (cur.lo, cur.hi.min(bound.hi.checked_sub(1)?)),
        BinOp::Le => (cur.lo, cur.hi.min(bound.hi)),
        BinOp::Gt => (cur.lo.max(bound.lo.checked_add(1)?), cur.hi),
        BinOp::Ge => (cur.lo.max(bound.lo), cur.hi),
        BinOp::Eq => (cur.lo.max(bound.lo), cur.hi.min(bound.hi)),
        _ => return None,
    };
    (lo <= hi).then(|| Interval::new(lo, hi))
}

/// Analyse a checked program: the warnings, in order of discovery.
pub fn analyse(program: &Program) -> Vec<Diagnostic> {
    let mut a = Analysis { env: Env::new(), warnings: Vec::new(), quiet: 0 };
    for f in &program.functions {
        a.env = f
            .params
            .iter()
            .map(|p| {
                let v = match p.ty {
                    Type::Int => Abs::Int(Interval::TOP),
                    Type::Bool => Abs::Bool(Tri::Unknown),
                    _ => Abs::Other,
                };
                (p.name.clone(), v)
            })
            .collect();
        a.stmts(&f.body);
    }
    a.env = Env::new();
    a.stmts(&program.main);
    a.warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use crate::parser::parse;

    fn warnings(src: &str) -> Vec<String> {
        let (program, errors) = parse(&lex(src).0);
        assert!(errors.is_empty(), "{errors:?}");
        analyse(&program).into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn interval_arithmetic() {
        let i = Interval::new;
        assert_eq!(i(1, 3).add(i(10, 20)), i(11, 23));
        assert_eq!(i(1, 3).sub(i(10, 20)), i(-19, -7));
        assert_eq!(i(-2, 3).mul(i(-5, 4)), i(-15, 12));
        assert_eq!(i(10, 20).div(i(2, 5)), i(2, 10));
        assert_eq!(i(10, 20).div(i(-1, 1)), Interval::TOP);
        assert_eq!(i(-7, 9).rem(i(4, 4)), i(-3, 3));
        assert_eq!(i(i64::MAX - 1, i64::MAX).add(i(1, 1)), Interval::TOP);
        assert_eq!(i(0, 255).bitand(i(0, 15)), i(0, 15));
        assert_eq!(i(16, 64).shr(i(2, 3)), i(2, 16));
        assert_eq!(i(1, 5).neg(), i(-5, -1));
        assert_eq!(i(0, 3).widen(i(0, 4)), i(0, i64::MAX));
        assert_eq!(compare(BinOp::Lt, i(0, 3), i(4, 9)), Tri::True);
        assert_eq!(compare(BinOp::Ge, i(0, 3), i(4, 9)), Tri::False);
        assert_eq!(compare(BinOp::Ne, i(2, 2), i(2, 2)), Tri::False);
        assert_eq!(compare(BinOp::Eq, i(0, 3), i(2, 9)), Tri::Unknown);
    }

    #[test]
    fn finds_constant_conditions_and_bad_divisions() {
        assert_eq!(
            warnings("var x = 3; if x > 5 { print 1; } let z = x - 3; print 10 / z; print 1 << (x + 61);"),
            [
                "this `if` condition is always false",
                "division by zero: the divisor is always 0",
                "shift amount is always out of range 0..64"
            ]
        );
    }

    #[test]
    fn loops_reach_a_fixed_point() {
        assert_eq!(warnings("var i = 0; while i < 10 { i += 1; } if i >= 10 { print i; }"), ["this `if` condition is always true"]);
        assert_eq!(warnings("for k in 0..5 { if k < 5 { print k; } }"), ["this `if` condition is always true"]);
        assert_eq!(warnings("for k in 5..2 { print k; }"), ["this loop never runs: the range is empty"]);
        assert!(warnings("var n = 1; while n < 1000 { n *= 2; } print 100 / n;").is_empty());
        assert_eq!(warnings("fn f(a: int) -> int { if len(\"x\") < 0 { return 1; } return a; }"), ["this `if` condition is always false"]);
    }
}
