//! The parser: tokens to a [`Program`], by recursive descent for statements and
//! precedence climbing for expressions. It recovers at statement boundaries, so one
//! mistake gives one error and the rest of the program is still parsed.

use crate::ast::*;
use crate::lexer::{spelling, Tok, Token};
use crate::span::{Diagnostic, Span, Stage};

/// How deep expressions and blocks may nest before the parser gives up.
pub const MAX_NESTING: usize = 64;

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    errors: Vec<Diagnostic>,
    depth: usize,
}

/// A parse error that unwinds to the nearest statement boundary.
struct Bail;

type PResult<T> = Result<T, Bail>;

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        &self.tokens[self.pos.min(self.tokens.len() - 1)].tok
    }

    fn peek_at(&self, ahead: usize) -> &Tok {
        &self.tokens[(self.pos + ahead).min(self.tokens.len() - 1)].tok
    }

    fn span(&self) -> Span {
        self.tokens[self.pos.min(self.tokens.len() - 1)].span
    }

    fn prev_span(&self) -> Span {
        if self.pos == 0 {
            Span::default()
        } else {
            self.tokens[self.pos - 1].span
        }
    }

    fn bump(&mut self) -> Token {
        let t = self.tokens[self.pos.min(self.tokens.len() - 1)].clone();
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == tok {
            self.bump();
            true
        } else {
            false
        }
    }

    fn fail<T>(&mut self, message: String) -> PResult<T> {
        let span = self.span();
        self.errors.push(Diagnostic::new(Stage::Parse, span, message));
        Err(Bail)
    }

    fn expect(&mut self, tok: &Tok, context: &str) -> PResult<Span> {
        if self.peek() == tok {
            Ok(self.bump().span)
        } else {
            let found = spelling(self.peek());
            self.fail(format!("expected `{}` {context}, found `{found}`", spelling(tok)))
        }
    }

    fn ident(&mut self, what: &str) -> PResult<(String, Span)> {
        match self.peek().clone() {
            Tok::Ident(name) => {
                let span = self.bump().span;
                Ok((name, span))
            }
            other => self.fail(format!("expected {what}, found `{}`", spelling(&other))),
        }
    }

    fn ty(&mut self) -> PResult<Type> {
        let (name, _) = self.ident("a type")?;
        match Type::from_name(&name) {
            Some(t) => Ok(t),
            None => {
                let span = self.prev_span();
                self.errors.push(Diagnostic::new(Stage::Parse, span, format!("unknown type `{name}`")));
                Err(Bail)
            }
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return self.fail("nesting too deep".to_string());
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Skip to just after the next `;` or to the next `}` or statement keyword.
    fn recover(&mut self) {
        loop {
            match self.peek() {
                Tok::Eof | Tok::RBrace => return,
                Tok::Semi => {
                    self.bump();
                    return;
                }
                Tok::Fn | Tok::Let | Tok::Var | Tok::If | Tok::While | Tok::For | Tok::Return | Tok::Print => {
                    return
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    fn program(&mut self) -> Program {
        let mut program = Program::default();
        while self.peek() != &Tok::Eof {
            let before = self.pos;
            if self.peek() == &Tok::RBrace {
                // Fall through to the stray `}` below.
            } else if self.peek() == &Tok::Fn {
                match self.function() {
                    Ok(f) => program.functions.push(f),
                    Err(Bail) => self.recover(),
                }
            } else {
                match self.stmt() {
                    Ok(s) => program.main.push(s),
                    Err(Bail) => self.recover(),
                }
            }
            if self.pos == before {
                // A stray `}`: report it and move on.
                let span = self.bump().span;
                self.errors.push(Diagnostic::new(Stage::Parse, span, "unmatched `}`"));
            }
        }
        program
    }

    fn function(&mut self) -> PResult<Function> {
        let start = self.expect(&Tok::Fn, "")?;
        let (name, _) = self.ident("a function name")?;
        self.expect(&Tok::LParen, "after the function name")?;
        let mut params = Vec::new();
        while self.peek() != &Tok::RParen {
            let (pname, pspan) = self.ident("a parameter name")?;
            self.expect(&Tok::Colon, "after the parameter name")?;
            let ty = self.ty()?;
            params.push(Param { name: pname, ty, span: pspan.to(self.prev_span()) });
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, "after the parameters")?;
        let ret = if self.eat(&Tok::Arrow) { self.ty()? } else { Type::Unit };
        let body = self.block()?;
        Ok(Function { name, params, ret, body, span: start.to(self.prev_span()) })
    }

    fn block(&mut self) -> PResult<Vec<Stmt>> {
        self.expect(&Tok::LBrace, "to open a block")?;
        self.enter()?;
        let mut stmts = Vec::new();
        while self.peek() != &Tok::RBrace && self.peek() != &Tok::Eof {
            match self.stmt() {
                Ok(s) => stmts.push(s),
                Err(Bail) => {
                    self.recover();
                    if self.depth > MAX_NESTING {
                        self.leave();
                        return Err(Bail);
                    }
                }
            }
        }
        self.leave();
        self.expect(&Tok::RBrace, "to close the block")?;
        Ok(stmts)
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let kind = match self.peek().clone() {
            Tok::Let | Tok::Var => {
                let mutable = self.bump().tok == Tok::Var;
                let (name, _) = self.ident("a variable name")?;
                let ty = if self.eat(&Tok::Colon) { Some(self.ty()?) } else { None };
                self.expect(&Tok::Assign, "in a declaration")?;
                let value = self.expr()?;
                self.expect(&Tok::Semi, "after the declaration")?;
                StmtKind::Let { name, mutable, ty, value }
            }
            Tok::If => return self.if_stmt(),
            Tok::While => {
                self.bump();
                let cond = self.expr()?;
                let body = self.block()?;
                StmtKind::While { cond, body }
            }
            Tok::For => {
                self.bump();
                let (var, _) = self.ident("a loop variable")?;
                self.expect(&Tok::In, "after the loop variable")?;
                let from = self.expr()?;
                self.expect(&Tok::DotDot, "in the range")?;
                let to = self.expr()?;
                let body = self.block()?;
                StmtKind::For { var, from, to, body }
            }
            Tok::Break => {
                self.bump();
                self.expect(&Tok::Semi, "after `break`")?;
                StmtKind::Break
            }
            Tok::Continue => {
                self.bump();
                self.expect(&Tok::Semi, "after `continue`")?;
                StmtKind::Continue
            }
            Tok::Return => {
                self.bump();
                let value = if self.peek() == &Tok::Semi { None } else { Some(self.expr()?) };
                self.expect(&Tok::Semi, "after `return`")?;
                StmtKind::Return(value)
            }
            Tok::Print => {
                self.bump();
                let value = self.expr()?;
                self.expect(&Tok::Semi, "after `print`")?;
                StmtKind::Print(value)
            }
            Tok::LBrace => StmtKind::Block(self.block()?),
            Tok::Ident(name) if self.is_assignment() => {
                self.bump();
                let op = match self.bump().tok {
                    Tok::Assign => AssignOp::Set,
                    Tok::PlusAssign => AssignOp::Add,
                    Tok::MinusAssign => AssignOp::Sub,
                    Tok::StarAssign => AssignOp::Mul,
                    _ => unreachable!("checked by is_assignment"),
                };
                let value = self.expr()?;
                self.expect(&Tok::Semi, "after the assignment")?;
                StmtKind::Assign { name, op, value }
            }
            _ => {
                let e = self.expr()?;
                self.expect(&Tok::Semi, "after the expression")?;
                StmtKind::Expr(e)
            }
        };
        Ok(Stmt { kind, span: start.to(self.prev_span()) })
    }

    fn is_assignment(&self) -> bool {
        matches!(self.peek_at(1), Tok::Assign | Tok::PlusAssign | Tok::MinusAssign | Tok::StarAssign)
    }

    fn if_stmt(&mut self) -> PResult<Stmt> {
        let start = self.expect(&Tok::If, "")?;
        let cond = self.expr()?;
        let then = self.block()?;
        let otherwise = if self.eat(&Tok::Else) {
            if self.peek() == &Tok::If {
                self.enter()?;
                let nested = self.if_stmt();
                self.leave();
                Some(vec![nested?])
            } else {
                Some(self.block()?)
            }
        } else {
            None
        };
        Ok(Stmt { kind: StmtKind::If { cond, then, otherwise }, span: start.to(self.prev_span()) })
    }

    fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let e = self.ternary();
        self.leave();
        e
    }

    fn ternary(&mut self) -> PResult<Expr> {
        let cond = self.binary(1)?;
        if !self.eat(&Tok::Question) {
            return Ok(cond);
        }
        let then = self.expr()?;
        self.expect(&Tok::Colon, "in `c ? a : b`")?;
        let otherwise = self.expr()?;
        let span = cond.span.to(otherwise.span);
        Ok(Expr::new(ExprKind::Ternary(Box::new(cond), Box::new(then), Box::new(otherwise)), span))
    }

    fn binop(tok: &Tok) -> Option<BinOp> {
        Some(match tok {
            Tok::Plus => BinOp::Add,
            Tok::Minus => BinOp::Sub,
            Tok::Star => BinOp::Mul,
            Tok::Slash => BinOp::Div,
            Tok::Percent => BinOp::Rem,
            Tok::Eq => BinOp::Eq,
            Tok::Ne => BinOp::Ne,
            Tok::Lt => BinOp::Lt,
            Tok::Le => BinOp::Le,
            Tok::Gt => BinOp::Gt,
            Tok::Ge => BinOp::Ge,
            Tok::AndAnd => BinOp::And,
            Tok::OrOr => BinOp::Or,
            Tok::Amp => BinOp::BitAnd,
            Tok::Pipe => BinOp::BitOr,
            Tok::Caret => BinOp::BitXor,
            Tok::Shl => BinOp::Shl,
            Tok::Shr => BinOp::Shr,
            _ => return None,
        })
    }

    /// Precedence climbing: operators binding at least `min`.
    fn binary(&mut self, min: u8) -> PResult<Expr> {
        let mut left = self.unary()?;
        while let Some(op) = Self::binop(self.peek()) {
            let prec = op.precedence();
            if prec < min {
                break;
            }
            self.bump();
            // Comparisons do not chain: `a < b < c` is an error.
            let right = self.binary(prec + 1)?;
            if op.is_comparison() {
                if let Some(next) = Self::binop(self.peek()) {
                    if next.precedence() == prec {
                        return self.fail(format!("comparison operators cannot be chained (`{}`)", next.symbol()));
                    }
                }
            }
            let span = left.span.to(right.span);
            left = Expr::new(ExprKind::Binary(op, Box::new(left), Box::new(right)), span);
        }
        Ok(left)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let op = match self.peek() {
            Tok::Minus => UnOp::Neg,
            Tok::Bang => UnOp::Not,
            _ => return self.primary(),
        };
        let start = self.bump().span;
        self.enter()?;
        let operand = self.unary();
        self.leave();
        let operand = operand?;
        // `-5` (no space) is a literal, which the folder and the printer keep as one.
        if op == UnOp::Neg {
            if let ExprKind::Int(n) = operand.kind {
                if operand.span.start == start.end {
                    return Ok(Expr::new(ExprKind::Int(n.wrapping_neg()), start.to(operand.span)));
                }
            }
        }
        let span = start.to(operand.span);
        Ok(Expr::new(ExprKind::Unary(op, Box::new(operand)), span))
    }

    fn primary(&mut self) -> PResult<Expr> {
        let t = self.bump();
        let kind = match t.tok {
            Tok::Int(n) => ExprKind::Int(n),
            Tok::Str(s) => ExprKind::Str(s),
            Tok::True => ExprKind::Bool(true),
            Tok::False => ExprKind::Bool(false),
            Tok::Ident(name) => {
                if self.eat(&Tok::LParen) {
                    let mut args = Vec::new();
                    while self.peek() != &Tok::RParen {
                        args.push(self.expr()?);
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(&Tok::RParen, "after the arguments")?;
                    ExprKind::Call(name, args)
                } else {
                    ExprKind::Var(name)
                }
            }
            Tok::LParen => {
                let inner = self.expr()?;
                self.expect(&Tok::RParen, "to close the parenthesis")?;
                return Ok(Expr::new(inner.kind, t.span.to(self.prev_span())));
            }
            other => {
                self.pos -= usize::from(other != Tok::Eof);
                return self.fail(format!("expected an expression, found `{}`", spelling(&other)));
            }
        };
        Ok(Expr::new(kind, t.span.to(self.prev_span())))
    }
}

/// Parse tokens (ending with `Eof`) into a program and the errors found.
pub fn parse(tokens: &[Token]) -> (Program, Vec<Diagnostic>) {
    assert!(matches!(tokens.last(), Some(Token { tok: Tok::Eof, .. })), "tokens end with Eof");
    let mut p = Parser { tokens, pos: 0, errors: Vec::new(), depth: 0 };
    let program = p.program();
    (program, p.errors)
}

/// Parse one expression (the whole of `tokens`).
pub fn parse_expr(tokens: &[Token]) -> Result<Expr, Vec<Diagnostic>> {
    let mut p = Parser { tokens, pos: 0, errors: Vec::new(), depth: 0 };
    match p.expr() {
        Ok(e) if p.peek() == &Tok::Eof => Ok(e),
        Ok(_) => {
            let _ = p.fail::<()>(format!("expected the end of the expression, found `{}`", spelling(p.peek())));
            Err(p.errors)
        }
        Err(Bail) => Err(p.errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn expr(src: &str) -> Expr {
        parse_expr(&lex(src).0).unwrap_or_else(|e| panic!("{src}: {e:?}"))
    }

    fn shape(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(n) => n.to_string(),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Str(s) => format!("{s:?}"),
            ExprKind::Var(v) => v.clone(),
            ExprKind::Unary(op, e) => format!("({}{})", op.symbol(), shape(e)),
            ExprKind::Binary(op, l, r) => format!("({} {} {})", shape(l), op.symbol(), shape(r)),
            ExprKind::Ternary(c, a, b) => format!("({} ? {} : {})", shape(c), shape(a), shape(b)),
            ExprKind::Call(f, args) => format!("{f}({})", args.iter().map(shape).collect::<Vec<_>>().join(", ")),
        }
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(shape(&expr("1 + 2 * 3 - 4")), "((1 + (2 * 3)) - 4)");
        assert_eq!(shape(&expr("a || b && c == d")), "(a || (b && (c == d)))");
        assert_eq!(shape(&expr("1 << 2 + 3 & 4 | 5 ^ 6")), "(((1 << (2 + 3)) & 4) | (5 ^ 6))");
        assert_eq!(shape(&expr("-x * -3")), "((-x) * -3)");
        assert_eq!(shape(&expr("!a ? f(1, 2) : b ? 3 : 4")), "((!a) ? f(1, 2) : (b ? 3 : 4))");
        assert_eq!(shape(&expr("(1 + 2) * 3")), "((1 + 2) * 3)");
        assert_eq!(shape(&expr("- 5")), "(-5)");
        assert_eq!(shape(&expr("-9223372036854775807")), "-9223372036854775807");
    }

    #[test]
    fn comparisons_do_not_chain() {
        let errors = parse_expr(&lex("1 < 2 < 3").0).unwrap_err();
        assert_eq!(errors[0].message, "comparison operators cannot be chained (`<`)");
        assert!(parse_expr(&lex("1 < 2 == true").0).is_ok());
    }

    #[test]
    fn statements_and_functions() {
        let src = "fn f(a: int, b: str) -> int { return a; } var x = 1; x += 2; for i in 0..3 { print i; } \
                   if x > 1 { } else if x < 0 { break; } else { continue; } while false { }";
        let (program, errors) = parse(&lex(src).0);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(program.functions[0].params.len(), 2);
        assert_eq!(program.functions[0].ret, Type::Int);
        assert_eq!(program.main.len(), 5);
        let StmtKind::If { otherwise: Some(e), .. } = &program.main[3].kind else { panic!() };
        assert!(matches!(e[0].kind, StmtKind::If { otherwise: Some(_), .. }));
    }

    #[test]
    fn errors_recover_at_statement_boundaries() {
        let (program, errors) = parse(&lex("let = 3; print 1; let y: float = 2; print (2; }").0);
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "expected a variable name, found `=`",
                "unknown type `float`",
                "expected `)` to close the parenthesis, found `;`",
                "unmatched `}`"
            ]
        );
        assert_eq!(program.main.len(), 1);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let src = format!("print {}1{};", "(".repeat(200), ")".repeat(200));
        let (_, errors) = parse(&lex(&src).0);
        assert_eq!(errors[0].message, "nesting too deep");
    }
}
