//! The tree-walking interpreter: runs a checked program, collecting what it prints. Every
//! statement and expression costs a step; a program that runs out of steps or calls too
//! deep stops with an error, so every program ends.

use crate::ast::*;
use crate::builtins;
use crate::span::{Diagnostic, Span, Stage};
use crate::value::{self, Value};

/// Limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Statements and expressions evaluated.
    pub steps: u64,
    /// Nested function calls.
    pub depth: usize,
    /// Lines printed.
    pub lines: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { steps: 20_000, depth: 48, lines: 200 }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// The printed lines.
    pub output: Vec<String>,
    /// How it ended: `None` when it ran to the end (or returned at the top).
    pub error: Option<Diagnostic>,
    /// Steps used.
    pub steps: u64,
}

/// How a statement ended.
enum Flow {
    Next,
    Break,
    Continue,
    Return(Value),
}

struct Interp<'a> {
    program: &'a Program,
    frames: Vec<Vec<Vec<(String, Value)>>>,
    output: Vec<String>,
    steps: u64,
    limits: Limits,
}

type R<T> = Result<T, Diagnostic>;

fn fail<T>(span: Span, message: impl Into<String>) -> R<T> {
    Err(Diagnostic::new(Stage::Run, span, message))
}

impl<'a> Interp<'a> {
    fn tick(&mut self, span: Span) -> R<()> {
        self.steps += 1;
        if self.steps > self.limits.steps {
            return fail(span, format!("step limit of {} reached", self.limits.steps));
        }
        Ok(())
    }

    fn scopes(&mut self) -> &mut Vec<Vec<(String, Value)>> {
        self.frames.last_mut().expect("a frame")
    }

    fn get(&self, name: &str, span: Span) -> R<Value> {
        let frame = self.frames.last().expect("a frame");
        for scope in frame.iter().rev() {
            if let Some((_, v)) = scope.iter().rev().find(|(n, _)| n == name) {
                return Ok(v.clone());
            }
        }
        fail(span, format!("no variable `{name}`"))
    }

    fn set(&mut self, name: &str, v: Value, span: Span) -> R<()> {
        for scope in self.scopes().iter_mut().rev() {
            if let Some(slot) = scope.iter_mut().rev().find(|(n, _)| n == name) {
                slot.1 = v;
                return Ok(());
            }
        }
        fail(span, format!("no variable `{name}`"))
    }

    fn declare(&mut self, name: &str, v: Value) {
        self.scopes().last_mut().expect("a scope").push((name.to_string(), v));
    }

    fn block(&mut self, stmts: &[Stmt]) -> R<Flow> {
        self.scopes().push(Vec::new());
        let flow = self.stmts(stmts);
        self.scopes().pop();
        flow
    }

    fn stmts(&mut self, stmts: &[Stmt]) -> R<Flow> {
        for s in stmts {
            match self.stmt(s)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    fn stmt(&mut self, s: &Stmt) -> R<Flow> {
        self.tick(s.span)?;
        match &s.kind {
            StmtKind::Let { name, value, .. } => {
                let v = self.expr(value)?;
                self.declare(name, v);
            }
            StmtKind::Assign { name, op, value } => {
                let v = self.expr(value)?;
                let new = match op {
                    AssignOp::Set => v,
                    AssignOp::Add => self.apply(BinOp::Add, &self.get(name, s.span)?, &v, s.span)?,
                    AssignOp::Sub => self.apply(BinOp::Sub, &self.get(name, s.span)?, &v, s.span)?,
                    AssignOp::Mul => self.apply(BinOp::Mul, &self.get(name, s.span)?, &v, s.span)?,
                };
                self.set(name, new, s.span)?;
            }
            StmtKind::If { cond, then, otherwise } => {
                if self.truth(cond)? {
                    return self.block(then);
                } else if let Some(e) = otherwise {
                    return self.block(e);
                }
            }
            StmtKind::While { cond, body } => {
                while self.truth(cond)? {
                    match self.block(body)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Next | Flow::Continue => {}
                    }
                    self.tick(s.span)?;
                }
            }
            StmtKind::For { var, from, to, body } => {
                let a = self.int(from)?;
                let b = self.int(to)?;
                let mut i = a;
                while i < b {
                    self.scopes().push(vec![(var.clone(), Value::Int(i))]);
                    let flow = self.block(body);
                    self.scopes().pop();
                    match flow? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Next | Flow::Continue => {}
                    }
                    self.tick(s.span)?;
                    i += 1;
                }
            }
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Return(value) => {
                let v = match value {
                    Some(e) => self.expr(e)?,
                    None => Value::Unit,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::Print(e) => {
                let v = self.expr(e)?;
                if self.output.len() >= self.limits.lines {
                    return fail(s.span, format!("more than {} lines printed", self.limits.lines));
                }
                self.output.push(v.to_string());
            }
            StmtKind::Expr(e) => {
                self.expr(e)?;
            }
            StmtKind::Block(stmts) => return self.block(stmts),
        }
        Ok(Flow::Next)
    }

    fn apply(&self, op: BinOp, l: &Value, r: &Value, span: Span) -> R<Value> {
        value::binary(op, l, r).or_else(|m| fail(span, m))
    }

    fn truth(&mut self, e: &Expr) -> R<bool> {
        let v = self.expr(e)?;
        v.as_bool().or_else(|m| fail(e.span, m))
    }

    fn int(&mut self, e: &Expr) -> R<i64> {
        let v = self.expr(e)?;
        v.as_int().or_else(|m| fail(e.span, m))
    }

    fn expr(&mut self, e: &Expr) -> R<Value> {
        self.tick(e.span)?;
        match &e.kind {
            ExprKind::Int(n) => Ok(Value::Int(*n)),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::Var(name) => self.get(name, e.span),
            ExprKind::Unary(op, inner) => {
                let v = self.expr(inner)?;
                value::unary(*op, &v).or_else(|m| fail(e.span, m))
            }
            ExprKind::Binary(BinOp::And, l, r) => {
                let l = self.truth(l)?;
                Ok(Value::Bool(l && self.truth(r)?))
            }
            ExprKind::Binary(BinOp::Or, l, r) => {
                let l = self.truth(l)?;
                Ok(Value::Bool(l || self.truth(r)?))
            }
            ExprKind::Binary(op, l, r) => {
                let l = self.expr(l)?;
                let r = self.expr(r)?;
                self.apply(*op, &l, &r, e.span)
            }
            ExprKind::Ternary(c, a, b) => {
                if self.truth(c)? {
                    self.expr(a)
                } else {
                    self.expr(b)
                }
            }
            ExprKind::Call(name, args) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.expr(a)?);
                }
                self.call(name, values, e.span)
            }
        }
    }

    fn call(&mut self, name: &str, args: Vec<Value>, span: Span) -> R<Value> {
        let Some(f) = self.program.function(name) else {
            return builtins::call(name, &args).or_else(|m| fail(span, m));
        };
        if args.len() != f.params.len() {
            return fail(span, format!("`{name}` takes {} arguments", f.params.len()));
        }
        if self.frames.len() > self.limits.depth {
            return fail(span, format!("call depth limit of {} reached", self.limits.depth));
        }
        let scope = f.params.iter().zip(args).map(|(p, v)| (p.name.clone(), v)).collect();
        self.frames.push(vec![scope]);
        let flow = self.stmts(&f.body);
        self.frames.pop();
        match flow? {
            Flow::Return(v) => Ok(v),
            _ => Ok(Value::zero(f.ret)),
        }
    }
}

/// Run a program (checked, or at least parsed: type errors show as run-time errors).
pub fn run(program: &Program, limits: Limits) -> Run {
    let mut it = Interp { program, frames: vec![vec![Vec::new()]], output: Vec::new(), steps: 0, limits };
    let error = match it.stmts(&program.main) {
        Ok(_) => None,
        Err(d) => Some(d),
    };
    Run { output: it.output, error, steps: it.steps }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use crate::parser::parse;

    fn exec(src: &str) -> (Vec<String>, Option<String>) {
        let (program, errors) = parse(&lex(src).0);
        assert!(errors.is_empty(), "{errors:?}");
        let r = run(&program, Limits::default());
        (r.output, r.error.map(|e| e.message))
    }

    #[test]
    fn runs_loops_functions_and_strings() {
        let (out, err) = exec(
            "fn fib(n: int) -> int { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
             var s = \"\"; for i in 0..8 { if i % 2 == 0 { continue; } s += str(fib(i)) + \",\"; }
             print s; var k = 10; while true { k -= 3; if k < 0 { break; } } print k; print upper(\"ab\") + \"c\";",
        );
        assert_eq!(err, None);
        assert_eq!(out, ["1,2,5,13,", "-2", "ABc"]);
    }

    #[test]
    fn short_circuit_skips_errors() {
        let (out, err) = exec("print false && 1 / 0 == 1; print true || 1 / 0 == 1; print 1 / 0;");
        assert_eq!(out, ["false", "true"]);
        assert_eq!(err.as_deref(), Some("division by zero"));
    }

    #[test]
    fn limits_end_runaway_programs() {
        let (_, err) = exec("while true { }");
        assert_eq!(err.as_deref(), Some("step limit of 20000 reached"));
        let (_, err) = exec("fn f(n: int) -> int { return f(n + 1); } print f(0);");
        assert_eq!(err.as_deref(), Some("call depth limit of 48 reached"));
        let (out, err) = exec("for i in 0..1000 { print i; }");
        assert_eq!((out.len(), err.as_deref()), (200, Some("more than 200 lines printed")));
    }

    #[test]
    fn functions_without_return_give_zero_values_and_top_level_return_stops() {
        let (out, err) = exec("fn f() { print 1; } f(); print 2; return; print 3;");
        assert_eq!((out, err), (vec!["1".to_string(), "2".to_string()], None));
    }
}
