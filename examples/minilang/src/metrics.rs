//! Program metrics: per function, its size, nesting, cyclomatic complexity and Halstead
//! counts; for the program, the call graph, which functions are recursive and which are
//! never called.

use std::collections::{BTreeMap, BTreeSet};

use crate::ast::*;

/// The numbers of one function (or of the top level, named `<main>`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FnMetrics {
    pub name: String,
    pub statements: usize,
    pub max_nesting: usize,
    /// 1 + the decisions: `if`, loops, `&&`, `||`, `?:`.
    pub cyclomatic: usize,
    pub loops: usize,
    pub calls: usize,
    pub max_expr_depth: usize,
    /// Halstead: distinct operators and operands, and their total uses.
    pub distinct_operators: usize,
    pub distinct_operands: usize,
    pub total_operators: usize,
    pub total_operands: usize,
}

impl FnMetrics {
    /// Halstead volume `N × log2(n)`, with the log rounded up.
    pub fn volume(&self) -> usize {
        let n = self.distinct_operators + self.distinct_operands;
        let total = self.total_operators + self.total_operands;
        if n < 2 {
            return 0;
        }
        let log = usize::BITS - (n - 1).leading_zeros();
        total * log as usize
    }

    /// Halstead difficulty `(n1 / 2) × (N2 / n2)`, in hundredths.
    pub fn difficulty(&self) -> usize {
        if self.distinct_operands == 0 {
            return 0;
        }
        self.distinct_operators * self.total_operands * 100 / (2 * self.distinct_operands)
    }
}

#[derive(Default)]
struct Counter {
    m: FnMetrics,
    operators: BTreeSet<String>,
    operands: BTreeSet<String>,
    callees: BTreeSet<String>,
}

impl Counter {
    fn operator(&mut self, op: &str) {
        self.m.total_operators += 1;
        if !self.operators.contains(op) {
            self.operators.insert(op.to_string());
        }
    }

    fn operand(&mut self, text: String) {
        self.m.total_operands += 1;
        self.operands.insert(text);
    }

    fn stmts(&mut self, stmts: &[Stmt], depth: usize) {
        if depth > self.m.max_nesting {
            self.m.max_nesting = depth;
        }
        for s in stmts {
            self.stmt(s, depth);
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        self.m.statements += 1;
        match &s.kind {
            StmtKind::Let { name, value, .. } => {
                self.operator("=");
                self.operand(name.clone());
                self.expr(value, 1);
            }
            StmtKind::Assign { name, op, value } => {
                self.operator(match op {
                    AssignOp::Set => "=",
                    AssignOp::Add => "+=",
                    AssignOp::Sub => "-=",
                    AssignOp::Mul => "*=",
                });
                self.operand(name.clone());
                self.expr(value, 1);
            }
            StmtKind::If { cond, then, otherwise } => {
                self.m.cyclomatic += 1;
                self.operator("if");
                self.expr(cond, 1);
                self.stmts(then, depth + 1);
                if let Some(e) = otherwise {
                    self.operator("else");
                    self.stmts(e, depth + 1);
                }
            }
            StmtKind::While { cond, body } => {
                self.m.cyclomatic += 1;
                self.m.loops += 1;
                self.operator("while");
                self.expr(cond, 1);
                self.stmts(body, depth + 1);
            }
            StmtKind::For { var, from, to, body } => {
                self.m.cyclomatic += 1;
                self.m.loops += 1;
                self.operator("for");
                self.operand(var.clone());
                self.expr(from, 1);
                self.expr(to, 1);
                self.stmts(body, depth + 1);
            }
            StmtKind::Break => self.operator("break"),
            StmtKind::Continue => self.operator("continue"),
            StmtKind::Return(value) => {
                self.operator("return");
                if let Some(e) = value {
                    self.expr(e, 1);
                }
            }
            StmtKind::Print(e) => {
                self.operator("print");
                self.expr(e, 1);
            }
            StmtKind::Expr(e) => self.expr(e, 1),
            StmtKind::Block(b) => self.stmts(b, depth + 1),
        }
    }

    fn expr(&mut self, e: &Expr, depth: usize) {
        self.m.max_expr_depth = self.m.max_expr_depth.max(depth);
        match &e.kind {
            ExprKind::Int(n) => self.operand(n.to_string()),
            ExprKind::Bool(b) => self.operand(b.to_string()),
            ExprKind::Str(s) => self.operand(format!("{s:?}")),
            ExprKind::Var(v) => self.operand(v.clone()),
            ExprKind::Unary(op, x) => {
                self.operator(op.symbol());
                self.expr(x, depth + 1);
            }
            ExprKind::Binary(op, l, r) => {
                if op.is_logical() {
                    self.m.cyclomatic += 1;
                }
                self.operator(op.symbol());
                self.expr(l, depth + 1);
                self.expr(r, depth + 1);
            }
            ExprKind::Ternary(c, a, b) => {
                self.m.cyclomatic += 1;
                self.operator("?:");
                self.expr(c, depth + 1);
                self.expr(a, depth + 1);
                self.expr(b, depth + 1);
            }
            ExprKind::Call(name, args) => {
                self.m.calls += 1;
                self.operator(name);
                self.callees.insert(name.clone());
                for a in args {
                    self.expr(a, depth + 1);
                }
            }
        }
    }

    fn finish(mut self, name: &str) -> (FnMetrics, BTreeSet<String>) {
        self.m.name = name.to_string();
        self.m.cyclomatic += 1;
        self.m.distinct_operators = self.operators.len();
        self.m.distinct_operands = self.operands.len();
        (self.m, self.callees)
    }
}

/// The metrics of a whole program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    pub functions: Vec<FnMetrics>,
    /// Caller → user functions it calls.
    pub calls: BTreeMap<String, BTreeSet<String>>,
    /// Functions on a cycle of the call graph.
    pub recursive: BTreeSet<String>,
    /// Functions the top level never reaches.
    pub unused: BTreeSet<String>,
}

/// Measure a parsed program.
pub fn measure(p: &Program) -> Metrics {
    let user: BTreeSet<&str> = p.functions.iter().map(|f| f.name.as_str()).collect();
    let mut out = Metrics::default();
    let add = |name: &str, body: &[Stmt], out: &mut Metrics| {
        let mut c = Counter::default();
        c.stmts(body, 0);
        let (m, callees) = c.finish(name);
        let callees: BTreeSet<String> = callees.into_iter().filter(|c| user.contains(c.as_str())).collect();
        out.calls.entry(name.to_string()).or_default().extend(callees);
        out.functions.push(m);
    };
    for f in &p.functions {
        add(&f.name, &f.body, &mut out);
    }
    add("<main>", &p.main, &mut out);
    out.recursive = recursive(&out.calls);
    let reached = reachable(&out.calls, "<main>");
    out.unused = user.iter().filter(|f| !reached.contains(**f)).map(|f| f.to_string()).collect();
    out
}

/// Every function reachable from `from` (itself included).
fn reachable(calls: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(f) = stack.pop() {
        if !seen.insert(f.clone()) {
            continue;
        }
        if let Some(next) = calls.get(&f) {
            stack.extend(next.iter().filter(|n| !seen.contains(*n)).cloned());
        }
    }
    seen
}

/// Functions that can reach themselves.
fn recursive(calls: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<String> {
    calls
        .iter()
        .filter(|(f, callees)| callees.iter().any(|c| reachable(calls, c).contains(*f)))
        .map(|(f, _)| f.clone())
        .collect()
}

/// A one-line summary per function.
pub fn summary(m: &Metrics) -> Vec<String> {
    m.functions
        .iter()
        .map(|f| {
            let mut tags = Vec::new();
            if m.recursive.contains(&f.name) {
                tags.push("recursive");
            }
            if m.unused.contains(&f.name) {
                tags.push("unused");
            }
            format!(
                "{}: {} stmts, nesting {}, complexity {}, volume {}, difficulty {}.{:02}{}",
                f.name,
                f.statements,
                f.max_nesting,
                f.cyclomatic,
                f.volume(),
                f.difficulty() / 100,
                f.difficulty() % 100,
                if tags.is_empty() { String::new() } else { format!(" [{}]", tags.join(", ")) }
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use crate::parser::parse;

    fn measured(src: &str) -> Metrics {
        measure(&parse(&lex(src).0).0)
    }

    #[test]
    fn complexity_and_nesting() {
        let m = measured("fn f(n: int) -> int { if n > 0 && n < 9 { while n > 0 { return n; } } return n > 1 ? 1 : 2; }");
        let f = &m.functions[0];
        assert_eq!((f.cyclomatic, f.max_nesting, f.loops, f.statements), (5, 2, 1, 4));
        assert_eq!(f.max_expr_depth, 3);
        assert!(f.volume() > 0 && f.difficulty() > 0);
    }

    #[test]
    fn call_graph_finds_recursion_and_unused_functions() {
        let m = measured(
            "fn a() { b(); } fn b() { a(); } fn c() { c(); } fn d() { print len(\"x\"); } fn e() { d(); } a();",
        );
        assert_eq!(m.recursive, ["a", "b", "c"].map(String::from).into());
        assert_eq!(m.unused, ["c", "d", "e"].map(String::from).into());
        assert_eq!(m.calls["<main>"], ["a"].map(String::from).into());
        let lines = summary(&m);
        assert!(lines[0].starts_with("a: 1 stmts, nesting 0, complexity 1"), "{lines:?}");
        assert!(lines[2].ends_with("[recursive, unused]"), "{lines:?}");
    }

    #[test]
    fn halstead_counts() {
        let m = measured("let x = 1 + 2 * x;");
        let f = &m.functions[0];
        assert_eq!((f.distinct_operators, f.total_operators), (3, 3));
        assert_eq!((f.distinct_operands, f.total_operands), (3, 4));
        // n = 6 → log2 rounded up is 3; N = 7.
        assert_eq!(f.volume(), 21);
        assert_eq!(f.difficulty(), 3 * 4 * 100 / 6);
    }
}
