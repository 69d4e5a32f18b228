//! The checker: resolves names, infers and checks types, and checks control flow
//! (`break` outside a loop, a function that may end without returning its value). It
//! reports every error it finds, using a poison type so one mistake is reported once,
//! and warns about unused variables, unreachable statements and shadowing.

use crate::ast::*;
use crate::builtins;
use crate::span::{Diagnostic, Span, Stage};
use crate::value;

/// What checking found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

/// A type, or the poison of an expression already in error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Known(Type),
    Error,
}

struct Local {
    name: String,
    ty: Ty,
    mutable: bool,
    used: bool,
    span: Span,
}

struct Checker<'a> {
    program: &'a Program,
    scopes: Vec<Vec<Local>>,
    loops: usize,
    /// The return type of the function being checked; `None` at the top level.
    ret: Option<Type>,
    report: Report,
}

impl<'a> Checker<'a> {
    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.report.errors.push(Diagnostic::new(Stage::Check, span, message));
    }

    fn warn(&mut self, span: Span, message: impl Into<String>) {
        self.report.warnings.push(Diagnostic::new(Stage::Check, span, message));
    }

    fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    fn pop_scope(&mut self) {
        let scope = self.scopes.pop().expect("a scope to pop");
        for local in scope {
            if !local.used && !local.name.starts_with('_') {
                self.warn(local.span, format!("unused variable `{}`", local.name));
            }
        }
    }

    fn declare(&mut self, name: &str, ty: Ty, mutable: bool, span: Span) {
        let shadows = self.scopes.iter().rev().skip(1).any(|s| s.iter().any(|l| l.name == name));
        if shadows {
            self.warn(span, format!("`{name}` shadows an outer variable"));
        }
        let scope = self.scopes.last_mut().expect("a scope");
        if let Some(old) = scope.iter_mut().rev().find(|l| l.name == name) {
            // Redeclared in the same scope: the old one is gone, used or not.
            old.used = true;
        }
        scope.push(Local { name: name.to_string(), ty, mutable, used: false, span });
    }

    fn lookup(&mut self, name: &str) -> Option<&mut Local> {
        self.scopes.iter_mut().rev().flat_map(|s| s.iter_mut().rev()).find(|l| l.name == name)
    }

    /// The closest known name to a misspelt one, if it is close enough to suggest.
    fn suggest(&self, name: &str, functions: bool) -> String {
        let candidates: Vec<String> = if functions {
            let user = self.program.functions.iter().map(|f| f.name.clone());
            user.chain(builtins::BUILTINS.iter().map(|(n, _, _)| n.to_string())).collect()
        } else {
            self.scopes.iter().flat_map(|s| s.iter().map(|l| l.name.clone())).collect()
        };
        let limit = (name.chars().count() / 3) as i64;
        let best = candidates
            .into_iter()
            .filter(|c| c.chars().count() >= 3)
            .map(|c| (crate::stdlib::distance(name, &c), c))
            .filter(|(d, _)| *d > 0 && *d <= limit)
            .min();
        match best {
            Some((_, c)) => format!("; did you mean `{c}`?"),
            None => String::new(),
        }
    }

    fn expect_type(&mut self, got: Ty, want: Type, span: Span, what: &str) {
        if let Ty::Known(t) = got {
            if t != want {
                self.error(span, format!("{what} must be {}, found {}", want.name(), t.name()));
            }
        }
    }

    fn check_functions(&mut self) {
        let fns = &self.program.functions;
        for (i, f) in fns.iter().enumerate() {
            if fns[..i].iter().any(|g| g.name == f.name) {
                self.error(f.span, format!("function `{}` is defined twice", f.name));
            }
            if builtins::signature(&f.name).is_some() {
                self.error(f.span, format!("`{}` is a built-in function", f.name));
            }
        }
        for f in fns {
            self.ret = Some(f.ret);
            self.push_scope();
            for (i, p) in f.params.iter().enumerate() {
                if f.params[..i].iter().any(|q| q.name == p.name) {
                    self.error(p.span, format!("parameter `{}` is declared twice", p.name));
                }
                if p.ty == Type::Unit {
                    self.error(p.span, "a parameter cannot have type unit");
                }
                self.declare(&p.name, Ty::Known(p.ty), false, p.span);
            }
            self.block(&f.body);
            self.pop_scope();
            if f.ret != Type::Unit && !always_returns(&f.body) {
                self.error(f.span, format!("`{}` may end without returning a {}", f.name, f.ret.name()));
            }
        }
        self.ret = None;
    }

    fn block(&mut self, stmts: &[Stmt]) {
        self.push_scope();
        self.stmts(stmts);
        self.pop_scope();
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        let mut ended = false;
        for s in stmts {
            if ended {
                self.warn(s.span, "unreachable statement");
                ended = false;
            }
            self.stmt(s);
            if matches!(s.kind, StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue) {
                ended = true;
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { name, mutable, ty, value } => {
                let got = self.expr(value);
                let ty = match (ty, got) {
                    (Some(want), got) => {
                        self.expect_type(got, *want, value.span, "the value");
                        Ty::Known(*want)
                    }
                    (None, Ty::Known(Type::Unit)) => {
                        self.error(value.span, "cannot bind a value of type unit");
                        Ty::Error
                    }
                    (None, got) => got,
                };
                self.declare(name, ty, *mutable, s.span);
            }
            StmtKind::Assign { name, op, value } => {
                let got = self.expr(value);
                let Some(local) = self.lookup(name) else {
                    self.error(s.span, format!("assignment to undeclared variable `{name}`"));
                    return;
                };
                let (ty, mutable) = (local.ty, local.mutable);
                if !mutable {
                    self.error(s.span, format!("`{name}` is declared with `let`; use `var` to assign to it"));
                }
                let Ty::Known(t) = ty else { return };
                match op {
                    AssignOp::Set => self.expect_type(got, t, value.span, "the assigned value"),
                    AssignOp::Add if t == Type::Str => self.expect_type(got, t, value.span, "the appended value"),
                    AssignOp::Add | AssignOp::Sub | AssignOp::Mul => {
                        if t != Type::Int {
                            self.error(s.span, format!("compound assignment to a {}", t.name()));
                        } else {
                            self.expect_type(got, Type::Int, value.span, "the operand");
                        }
                    }
                }
            }
            StmtKind::If { cond, then, otherwise } => {
                let c = self.expr(cond);
                self.expect_type(c, Type::Bool, cond.span, "an `if` condition");
                self.block(then);
                if let Some(e) = otherwise {
                    self.block(e);
                }
            }
            StmtKind::While { cond, body } => {
                let c = self.expr(cond);
                self.expect_type(c, Type::Bool, cond.span, "a `while` condition");
                if cond.kind == ExprKind::Bool(false) {
                    self.warn(cond.span, "this loop never runs");
                }
                self.loops += 1;
                self.block(body);
                self.loops -= 1;
            }
            StmtKind::For { var, from, to, body } => {
                let a = self.expr(from);
                let b = self.expr(to);
                self.expect_type(a, Type::Int, from.span, "a range start");
                self.expect_type(b, Type::Int, to.span, "a range end");
                self.push_scope();
                self.declare(var, Ty::Known(Type::Int), false, s.span);
                self.loops += 1;
                self.block(body);
                self.loops -= 1;
                self.pop_scope();
            }
            StmtKind::Break | StmtKind::Continue => {
                if self.loops == 0 {
                    let word = if s.kind == StmtKind::Break { "break" } else { "continue" };
                    self.error(s.span, format!("`{word}` outside a loop"));
                }
            }
            StmtKind::Return(value) => {
                let got = match value {
                    Some(e) => self.expr(e),
                    None => Ty::Known(Type::Unit),
                };
                match self.ret {
                    None if value.is_some() => self.error(s.span, "a value can only be returned from a function"),
                    None => {}
                    Some(want) => {
                        let span = value.as_ref().map_or(s.span, |e| e.span);
                        self.expect_type(got, want, span, "the returned value");
                    }
                }
            }
            StmtKind::Print(e) => {
                if self.expr(e) == Ty::Known(Type::Unit) {
                    self.error(e.span, "cannot print a value of type unit");
                }
            }
            StmtKind::Expr(e) => {
                let t = self.expr(e);
                if !matches!(e.kind, ExprKind::Call(..)) && t != Ty::Error {
                    self.warn(e.span, "expression statement has no effect");
                }
            }
            StmtKind::Block(stmts) => self.block(stmts),
        }
    }

    fn expr(&mut self, e: &Expr) -> Ty {
        match &e.kind {
            ExprKind::Int(_) => Ty::Known(Type::Int),
            ExprKind::Bool(_) => Ty::Known(Type::Bool),
            ExprKind::Str(s) => {
                if s.len() > value::MAX_STR {
                    self.error(e.span, "string literal too long");
                }
                Ty::Known(Type::Str)
            }
            ExprKind::Var(name) => match self.lookup(name) {
                Some(local) => {
                    local.used = true;
                    local.ty
                }
                None => {
                    let hint = self.suggest(name, false);
                    self.error(e.span, format!("undeclared variable `{name}`{hint}"));
                    Ty::Error
                }
            },
            ExprKind::Unary(op, inner) => {
                let t = self.expr(inner);
                let Ty::Known(t) = t else { return Ty::Error };
                match value::unary_type(*op, t) {
                    Some(r) => Ty::Known(r),
                    None => {
                        self.error(e.span, format!("cannot apply `{}` to {}", op.symbol(), t.name()));
                        Ty::Error
                    }
                }
            }
            ExprKind::Binary(op, l, r) => {
                let (lt, rt) = (self.expr(l), self.expr(r));
                let (Ty::Known(lt), Ty::Known(rt)) = (lt, rt) else { return Ty::Error };
                match value::binary_type(*op, lt, rt) {
                    Some(t) => {
                        if op.is_comparison() && l.same(r) && l.is_pure() {
                            self.warn(e.span, "both sides of this comparison are the same");
                        }
                        Ty::Known(t)
                    }
                    None => {
                        self.error(
                            e.span,
                            format!("cannot apply `{}` to {} and {}", op.symbol(), lt.name(), rt.name()),
                        );
                        Ty::Error
                    }
                }
            }
            ExprKind::Ternary(c, a, b) => {
                let ct = self.expr(c);
                self.expect_type(ct, Type::Bool, c.span, "a `?` condition");
                let (at, bt) = (self.expr(a), self.expr(b));
                match (at, bt) {
                    (Ty::Known(x), Ty::Known(y)) if x == y => Ty::Known(x),
                    (Ty::Known(x), Ty::Known(y)) => {
                        self.error(e.span, format!("the branches of `?` differ: {} and {}", x.name(), y.name()));
                        Ty::Error
                    }
                    _ => Ty::Error,
                }
            }
            ExprKind::Call(name, args) => {
                let arg_types: Vec<Ty> = args.iter().map(|a| self.expr(a)).collect();
                let sig: Option<(Vec<Type>, Type)> = match self.program.function(name) {
                    Some(f) => Some((f.params.iter().map(|p| p.ty).collect(), f.ret)),
                    None => builtins::signature(name).map(|(p, r)| (p.to_vec(), r)),
                };
                let Some((params, ret)) = sig else {
                    let hint = self.suggest(name, true);
                    self.error(e.span, format!("undeclared function `{name}`{hint}"));
                    return Ty::Error;
                };
                if params.len() != args.len() {
                    let s = if params.len() == 1 { "" } else { "s" };
                    self.error(
                        e.span,
                        format!("`{name}` takes {} argument{s}, but {} were given", params.len(), args.len()),
                    );
                    return Ty::Known(ret);
                }
                for (i, ((arg, got), want)) in args.iter().zip(arg_types).zip(params).enumerate() {
                    self.expect_type(got, want, arg.span, &format!("argument {} of `{name}`", i + 1));
                }
                Ty::Known(ret)
            }
        }
    }
}

/// Whether every path through `stmts` ends in `return`.
pub fn always_returns(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::If { then, otherwise: Some(e), .. } => always_returns(then) && always_returns(e),
        StmtKind::Block(b) => always_returns(b),
        StmtKind::While { cond, body } => cond.kind == ExprKind::Bool(true) && !breaks(body),
        _ => false,
    })
}

/// Whether a `break` in `stmts` leaves the loop they are the body of.
fn breaks(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Break => true,
        StmtKind::If { then, otherwise, .. } => breaks(then) || otherwise.as_deref().is_some_and(breaks),
        StmtKind::Block(b) => breaks(b),
        _ => false,
    })
}

/// Check a parsed program.
pub fn check(program: &Program) -> Report {
    let mut c = Checker { program, scopes: Vec::new(), loops: 0, ret: None, report: Report::default() };
    c.check_functions();
    c.push_scope();
    c.stmts(&program.main);
    c.pop_scope();
    c.report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use crate::parser::parse;

    fn report(src: &str) -> (Vec<String>, Vec<String>) {
        let (program, errors) = parse(&lex(src).0);
        assert!(errors.is_empty(), "{errors:?}");
        let r = check(&program);
        let m = |d: Vec<Diagnostic>| d.into_iter().map(|d| d.message).collect();
        (m(r.errors), m(r.warnings))
    }

    #[test]
    fn a_well_typed_program_has_no_errors() {
        let (errors, warnings) = report(
            "fn fact(n: int) -> int { if n < 2 { return 1; } return n * fact(n - 1); }
             var s = \"\"; for i in 0..3 { s += str(fact(i)); } print s + \"!\"; print len(s) > 2 ? 1 : 0;",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn type_errors_are_reported_once() {
        let (errors, _) = report("let a = 1 + true; let b = a * 2; print x; print 1 < \"a\"; let c: str = 3;");
        assert_eq!(
            errors,
            [
                "cannot apply `+` to int and bool",
                "undeclared variable `x`",
                "cannot apply `<` to int and str",
                "the value must be str, found int"
            ]
        );
    }

    #[test]
    fn assignment_and_control_flow() {
        let (errors, _) = report(
            "let a = 1; a = 2; var s = \"\"; s -= \"x\"; break; fn f() -> int { while x { } } \
             fn g(p: int, p: bool) { return 1; } y = 3; print f(1);",
        );
        assert_eq!(
            errors,
            [
                "undeclared variable `x`",
                "`f` may end without returning a int",
                "parameter `p` is declared twice",
                "the returned value must be unit, found int",
                "`a` is declared with `let`; use `var` to assign to it",
                "compound assignment to a str",
                "`break` outside a loop",
                "assignment to undeclared variable `y`",
                "`f` takes 0 arguments, but 1 were given"
            ]
        );
    }

    #[test]
    fn warnings_for_unused_unreachable_and_shadowed() {
        let (errors, warnings) = report(
            "fn f(n: int) -> int { while true { return n; } } var x = 1; { let x = 2; print x; } \
             while false { } for i in 0..2 { break; print 1; } print x == x; 3 + 4;",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            warnings,
            [
                "`x` shadows an outer variable",
                "this loop never runs",
                "unreachable statement",
                "unused variable `i`",
                "both sides of this comparison are the same",
                "expression statement has no effect"
            ]
        );
    }

    #[test]
    fn functions_may_not_take_builtin_names_or_repeat() {
        let (errors, _) = report("fn len(s: str) -> int { return 0; } fn f() { } fn f() { }");
        assert_eq!(errors, ["`len` is a built-in function", "function `f` is defined twice"]);
        let (errors, _) = report("var total = 1; print totl + lenght(\"x\") + len(rooman(1));");
        assert_eq!(
            errors,
            [
                "undeclared variable `totl`; did you mean `total`?",
                "undeclared function `lenght`",
                "undeclared function `rooman`; did you mean `roman`?"
            ]
        );
    }
}
