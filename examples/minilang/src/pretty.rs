//! The pretty printer: a program back to source text, indented four spaces, with only
//! the parentheses the grammar needs. Printing what it parses gives the same tree.

use crate::ast::*;

/// How a string literal is written: the lexer's escapes for quotes, backslashes and
/// control characters.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The precedence an expression prints at (higher binds tighter; atoms highest).
fn precedence(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary(op, _, _) => op.precedence(),
        ExprKind::Unary(..) => UNARY_PRECEDENCE,
        ExprKind::Ternary(..) => TERNARY_PRECEDENCE,
        ExprKind::Int(n) if *n < 0 => UNARY_PRECEDENCE,
        _ => UNARY_PRECEDENCE + 1,
    }
}

fn paren(text: String, needed: bool) -> String {
    if needed {
        format!("({text})")
    } else {
        text
    }
}

/// One expression.
pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Str(s) => quote(s),
        ExprKind::Var(v) => v.clone(),
        ExprKind::Unary(op, inner) => {
            let text = paren(expr(inner), precedence(inner) < UNARY_PRECEDENCE);
            // `-5` would lex as one literal, `--x` is fine but `- -5` needs the space.
            let space = *op == UnOp::Neg && (text.starts_with('-') || text.starts_with(|c: char| c.is_ascii_digit()));
            format!("{}{}{text}", op.symbol(), if space { " " } else { "" })
        }
        ExprKind::Binary(op, l, r) => {
            let p = op.precedence();
            let lp = precedence(l);
            let rp = precedence(r);
            // Left-associative: the left operand may have the same precedence, the right
            // may not; comparisons do not chain at all.
            let left_needs = lp < p || (op.is_comparison() && lp == p);
            let right_needs = rp <= p;
            format!("{} {} {}", paren(expr(l), left_needs), op.symbol(), paren(expr(r), right_needs))
        }
        ExprKind::Ternary(c, a, b) => {
            let cond = paren(expr(c), precedence(c) <= TERNARY_PRECEDENCE);
            format!("{cond} ? {} : {}", expr(a), expr(b))
        }
        ExprKind::Call(name, args) => {
            let args: Vec<String> = args.iter().map(expr).collect();
            format!("{name}({})", args.join(", "))
        }
    }
}

struct Printer {
    out: String,
    indent: usize,
}

impl Printer {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn block(&mut self, head: &str, stmts: &[Stmt]) {
        self.line(&format!("{head}{{"));
        self.indent += 1;
        for s in stmts {
            self.stmt(s);
        }
        self.indent -= 1;
    }

    fn if_chain(&mut self, head: &str, cond: &Expr, then: &[Stmt], otherwise: &Option<Vec<Stmt>>) {
        self.block(&format!("{head}if {} ", expr(cond)), then);
        match otherwise.as_deref() {
            None => self.line("}"),
            Some([Stmt { kind: StmtKind::If { cond, then, otherwise }, .. }]) => {
                self.if_chain("} else ", cond, then, otherwise);
            }
            Some(e) => {
                self.block("} else ", e);
                self.line("}");
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { name, mutable, ty, value } => {
                let kw = if *mutable { "var" } else { "let" };
                let ty = ty.map_or(String::new(), |t| format!(": {}", t.name()));
                self.line(&format!("{kw} {name}{ty} = {};", expr(value)));
            }
            StmtKind::Assign { name, op, value } => {
                let op = match op {
                    AssignOp::Set => "=",
                    AssignOp::Add => "+=",
                    AssignOp::Sub => "-=",
                    AssignOp::Mul => "*=",
                };
                self.line(&format!("{name} {op} {};", expr(value)));
            }
            StmtKind::If { cond, then, otherwise } => self.if_chain("", cond, then, otherwise),
            StmtKind::While { cond, body } => {
                self.block(&format!("while {} ", expr(cond)), body);
                self.line("}");
            }
            StmtKind::For { var, from, to, body } => {
                self.block(&format!("for {var} in {}..{} ", expr(from), expr(to)), body);
                self.line("}");
            }
            StmtKind::Break => self.line("break;"),
            StmtKind::Continue => self.line("continue;"),
            StmtKind::Return(None) => self.line("return;"),
            StmtKind::Return(Some(e)) => self.line(&format!("return {};", expr(e))),
            StmtKind::Print(e) => self.line(&format!("print {};", expr(e))),
            StmtKind::Expr(e) => self.line(&format!("{};", expr(e))),
            StmtKind::Block(stmts) => {
                self.block("", stmts);
                self.line("}");
            }
        }
    }

    fn function(&mut self, f: &Function) {
        let params: Vec<String> = f.params.iter().map(|p| format!("{}: {}", p.name, p.ty.name())).collect();
        let ret = if f.ret == Type::Unit { String::new() } else { format!(" -> {}", f.ret.name()) };
        self.block(&format!("fn {}({}){ret} ", f.name, params.join(", ")), &f.body);
        self.line("}");
    }
}

/// A whole program: its functions, then its top-level statements.
pub fn program(p: &Program) -> String {
    let mut printer = Printer { out: String::new(), indent: 0 };
    for f in &p.functions {
        printer.function(f);
    }
    for s in &p.main {
        printer.stmt(s);
    }
    printer.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use crate::parser::{parse, parse_expr};

    fn round(src: &str) -> String {
        expr(&parse_expr(&lex(src).0).unwrap())
    }

    #[test]
    fn only_needed_parentheses() {
        assert_eq!(round("(1 + 2) * 3"), "(1 + 2) * 3");
        assert_eq!(round("1 + (2 * 3)"), "1 + 2 * 3");
        assert_eq!(round("a - (b - c)"), "a - (b - c)");
        assert_eq!(round("(a - b) - c"), "a - b - c");
        assert_eq!(round("(a < b) == (c < d)"), "a < b == c < d");
        assert_eq!(round("(a == b) == c"), "(a == b) == c");
        assert_eq!(round("-(a + b)"), "-(a + b)");
        assert_eq!(round("- (5)"), "- 5");
        assert_eq!(round("(c ? a : b) ? 1 : 2"), "(c ? a : b) ? 1 : 2");
        assert_eq!(round("c ? a : (b ? 1 : 2)"), "c ? a : b ? 1 : 2");
        assert_eq!(round("f(a, -3, \"x\\n\\x01\")"), "f(a, -3, \"x\\n\\x01\")");
    }

    #[test]
    fn programs_print_and_reparse_to_the_same_text() {
        let src = "fn f(a: int, b: str) -> str { if a > 0 { return b; } else if a < 0 { return \"\"; } \
                   else { while true { break; } } return b + b; } var x: int = 1; for i in 0..3 { x *= i; } \
                   { print f(x, \"q\"); }";
        let text = program(&parse(&lex(src).0).0);
        assert_eq!(
            text,
            "fn f(a: int, b: str) -> str {\n    if a > 0 {\n        return b;\n    } else if a < 0 {\n        \
             return \"\";\n    } else {\n        while true {\n            break;\n        }\n    }\n    \
             return b + b;\n}\nvar x: int = 1;\nfor i in 0..3 {\n    x *= i;\n}\n{\n    print f(x, \"q\");\n}\n"
        );
        assert_eq!(program(&parse(&lex(&text).0).0), text);
    }
}
