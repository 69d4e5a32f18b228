//! The lexer: source text to tokens, with nested block comments, string escapes and
//! integer literals in decimal, hex and binary (with `_` separators).

use crate::span::{Diagnostic, Span, Stage};

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Int(i64),
    Str(String),
    Ident(String),
    // Keywords.
    Fn,
    Let,
    Var,
    If,
    Else,
    While,
    For,
    In,
    Break,
    Continue,
    Return,
    Print,
    True,
    False,
    // Punctuation.
    LParen,
    RParen,
    LBrace,
    RBrace,
    Comma,
    Semi,
    Colon,
    Question,
    Arrow,
    DotDot,
    Assign,
    PlusAssign,
    MinusAssign,
    StarAssign,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Bang,
    Amp,
    Pipe,
    Caret,
    Shl,
    Shr,
    AndAnd,
    OrOr,
    Eof,
}

/// A token and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// The keyword spelled `word`, if it is one.
pub fn keyword(word: &str) -> Option<Tok> {
    Some(match word {
        "fn" => Tok::Fn,
        "let" => Tok::Let,
        "var" => Tok::Var,
        "if" => Tok::If,
        "else" => Tok::Else,
        "while" => Tok::While,
        "for" => Tok::For,
        "in" => Tok::In,
        "break" => Tok::Break,
        "continue" => Tok::Continue,
        "return" => Tok::Return,
        "print" => Tok::Print,
        "true" => Tok::True,
        "false" => Tok::False,
        _ => return None,
    })
}

/// How a token is written (for error messages and the pretty printer).
pub fn spelling(tok: &Tok) -> String {
    let s = match tok {
        Tok::Int(n) => return n.to_string(),
        Tok::Str(s) => return format!("{s:?}"),
        Tok::Ident(s) => return s.clone(),
        Tok::Fn => "fn",
        Tok::Let => "let",
        Tok::Var => "var",
        Tok::If => "if",
        Tok::Else => "else",
        Tok::While => "while",
        Tok::For => "for",
        Tok::In => "in",
        Tok::Break => "break",
        Tok::Continue => "continue",
        Tok::Return => "return",
        Tok::Print => "print",
        Tok::True => "true",
        Tok::False => "false",
        Tok::LParen => "(",
        Tok::RParen => ")",
        Tok::LBrace => "{",
        Tok::RBrace => "}",
        Tok::Comma => ",",
        Tok::Semi => ";",
        Tok::Colon => ":",
        Tok::Question => "?",
        Tok::Arrow => "->",
        Tok::DotDot => "..",
        Tok::Assign => "=",
        Tok::PlusAssign => "+=",
        Tok::MinusAssign => "-=",
        Tok::StarAssign => "*=",
        Tok::Eq => "==",
        Tok::Ne => "!=",
        Tok::Lt => "<",
        Tok::Le => "<=",
        Tok::Gt => ">",
        Tok::Ge => ">=",
        Tok::Plus => "+",
        Tok::Minus => "-",
        Tok::Star => "*",
        Tok::Slash => "/",
        Tok::Percent => "%",
        Tok::Bang => "!",
        Tok::Amp => "&",
        Tok::Pipe => "|",
        Tok::Caret => "^",
        Tok::Shl => "<<",
        Tok::Shr => ">>",
        Tok::AndAnd => "&&",
        Tok::OrOr => "||",
        Tok::Eof => "end of input",
    };
    s.to_string()
}

fn is_ident_start(c: u8) -> bool {
    (b'a'..=b'z').contains(&c) || (b'A'..=b'Z').contains(&c) || c == b'_'
}

fn is_ident_continue(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// The value of digit `c` in base `radix`, if it is one.
fn digit_value(c: u8, radix: u32) -> Option<u32> {
    let v = if c >= b'0' && c <= b'9' {
        u32::from(c - b'0')
    } else if c >= b'a' && c <= b'f' {
        u32::from(c - b'a') + 10
    } else if c >= b'A' && c <= b'F' {
        u32::from(c - b'A') + 10
    } else {
        return None;
    };
    if v < radix {
        Some(v)
    } else {
        None
    }
}

struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    tokens: Vec<Token>,
    errors: Vec<Diagnostic>,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> u8 {
        self.peek_at(0)
    }

    fn peek_at(&self, ahead: usize) -> u8 {
        self.src.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    fn error(&mut self, start: usize, message: impl Into<String>) {
        let end = self.pos.max(start + 1).min(self.src.len().max(start + 1));
        self.errors.push(Diagnostic::new(Stage::Lex, Span::new(start, end), message));
    }

    fn push(&mut self, tok: Tok, start: usize) {
        self.tokens.push(Token { tok, span: Span::new(start, self.pos) });
    }

    /// Skip white space and comments; `false` when a block comment is not closed.
    fn skip_trivia(&mut self) {
        loop {
            let c = self.peek();
            if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
                self.pos += 1;
            } else if c == b'/' && self.peek_at(1) == b'/' {
                while !self.at_end() && self.peek() != b'\n' {
                    self.pos += 1;
                }
            } else if c == b'/' && self.peek_at(1) == b'*' {
                let start = self.pos;
                self.pos += 2;
                let mut depth = 1;
                while depth > 0 {
                    if self.at_end() {
                        self.error(start, "unterminated block comment");
                        return;
                    }
                    if self.peek() == b'/' && self.peek_at(1) == b'*' {
                        depth += 1;
                        self.pos += 2;
                    } else if self.peek() == b'*' && self.peek_at(1) == b'/' {
                        depth -= 1;
                        self.pos += 2;
                    } else {
                        self.pos += 1;
                    }
                }
            } else {
                return;
            }
        }
    }

    fn number(&mut self) {
        let start = self.pos;
        let mut radix = 10;
        if self.peek() == b'0' && (self.peek_at(1) == b'x' || self.peek_at(1) == b'b') {
            radix = if self.peek_at(1) == b'x' { 16 } else { 2 };
            self.pos += 2;
        }
        let mut value: i64 = 0;
        let mut digits = 0;
        let mut overflow = false;
        let mut bad_digit = false;
        while !self.at_end() {
            let c = self.peek();
            if c == b'_' {
                self.pos += 1;
                continue;
            }
            if !is_ident_continue(c) {
                break;
            }
            match digit_value(c, radix) {
                Some(d) => match value.checked_mul(i64::from(radix)).and_then(|v| v.checked_add(i64::from(d))) {
                    Some(v) => value = v,
                    None => overflow = true,
                },
                None => bad_digit = true,
            }
            digits += 1;
            self.pos += 1;
        }
        if digits == 0 {
            self.error(start, "a number needs digits after its prefix");
        } else if bad_digit {
            self.error(start, format!("invalid digit in a base-{radix} number"));
        } else if overflow {
            self.error(start, "integer literal too large");
        }
        self.push(Tok::Int(value), start);
    }

    fn ident(&mut self) {
        let start = self.pos;
        while !self.at_end() && is_ident_continue(self.peek()) {
            self.pos += 1;
        }
        let word = &self.text[start..self.pos];
        let tok = keyword(word).unwrap_or_else(|| Tok::Ident(word.to_string()));
        self.push(tok, start);
    }

    fn hex_escape(&mut self, start: usize) -> Option<char> {
        let mut code: u32 = 0;
        for _ in 0..2 {
            match digit_value(self.peek(), 16) {
                Some(d) => {
                    code = code * 16 + d;
                    self.pos += 1;
                }
                None => {
                    self.error(start, "\\x needs two hex digits");
                    return None;
                }
            }
        }
        if code > 0x7f {
            self.error(start, "\\x escapes stop at 7f");
            return None;
        }
        char::from_u32(code)
    }

    fn string(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        loop {
            if self.at_end() || self.peek() == b'\n' {
                self.error(start, "unterminated string");
                break;
            }
            let c = self.peek();
            if c == b'"' {
                self.pos += 1;
                break;
            }
            if c == b'\\' {
                let esc_start = self.pos;
                self.pos += 1;
                let e = self.peek();
                self.pos += 1;
                match e {
                    b'n' => value.push('\n'),
                    b't' => value.push('\t'),
                    b'r' => value.push('\r'),
                    b'0' => value.push('\0'),
                    b'\\' => value.push('\\'),
                    b'"' => value.push('"'),
                    b'x' => {
                        if let Some(ch) = self.hex_escape(esc_start) {
                            value.push(ch);
                        }
                    }
                    _ => {
                        self.pos -= 1;
                        self.error(esc_start, "unknown escape");
                        if !self.at_end() {
                            self.pos += 1;
                        }
                    }
                }
                continue;
            }
            // Whole UTF-8 characters.
            let ch = self.text[self.pos..].chars().next().expect("not at the end");
            value.push(ch);
            self.pos += ch.len_utf8();
        }
        self.push(Tok::Str(value), start);
    }

    fn punct(&mut self) {
        let start = self.pos;
        let c = self.peek();
        let n = self.peek_at(1);
        let (tok, len) = match (c, n) {
            (b'-', b'>') => (Tok::Arrow, 2),
            (b'.', b'.') => (Tok::DotDot, 2),
            (b'=', b'=') => (Tok::Eq, 2),
            (b'!', b'=') => (Tok::Ne, 2),
            (b'<', b'=') => (Tok::Le, 2),
            (b'>', b'=') => (Tok::Ge, 2),
            (b'<', b'<') => (Tok::Shl, 2),
            (b'>', b'>') => (Tok::Shr, 2),
            (b'&', b'&') => (Tok::AndAnd, 2),
            (b'|', b'|') => (Tok::OrOr, 2),
            (b'+', b'=') => (Tok::PlusAssign, 2),
            (b'-', b'=') => (Tok::MinusAssign, 2),
            (b'*', b'=') => (Tok::StarAssign, 2),
            (b'(', _) => (Tok::LParen, 1),
            (b')', _) => (Tok::RParen, 1),
            (b'{', _) => (Tok::LBrace, 1),
            (b'}', _) => (Tok::RBrace, 1),
            (b',', _) => (Tok::Comma, 1),
            (b';', _) => (Tok::Semi, 1),
            (b':', _) => (Tok::Colon, 1),
            (b'?', _) => (Tok::Question, 1),
            (b'=', _) => (Tok::Assign, 1),
            (b'<', _) => (Tok::Lt, 1),
            (b'>', _) => (Tok::Gt, 1),
            (b'+', _) => (Tok::Plus, 1),
            (b'-', _) => (Tok::Minus, 1),
            (b'*', _) => (Tok::Star, 1),
            (b'/', _) => (Tok::Slash, 1),
            (b'%', _) => (Tok::Percent, 1),
            (b'!', _) => (Tok::Bang, 1),
            (b'&', _) => (Tok::Amp, 1),
            (b'|', _) => (Tok::Pipe, 1),
            (b'^', _) => (Tok::Caret, 1),
            _ => {
                let ch = self.text[self.pos..].chars().next().expect("not at the end");
                self.pos += ch.len_utf8();
                self.error(start, format!("unexpected character {ch:?}"));
                return;
            }
        };
        self.pos += len;
        self.push(tok, start);
    }
}

/// Split `source` into tokens (ending with `Eof`), and the errors found on the way. A
/// token in error is still produced where possible, so the parser can go on.
pub fn lex(source: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut lx = Lexer { src: source.as_bytes(), text: source, pos: 0, tokens: Vec::new(), errors: Vec::new() };
    loop {
        lx.skip_trivia();
        if lx.at_end() {
            break;
        }
        let c = lx.peek();
        if c.is_ascii_digit() {
            lx.number();
        } else if is_ident_start(c) {
            lx.ident();
        } else if c == b'"' {
            lx.string();
        } else {
            lx.punct();
        }
    }
    let end = source.len();
    lx.tokens.push(Token { tok: Tok::Eof, span: Span::new(end, end) });
    (lx.tokens, lx.errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        let (tokens, errors) = lex(src);
        assert!(errors.is_empty(), "{errors:?}");
        tokens.into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_in_every_base() {
        assert_eq!(toks("12 0x1F 0b101 1_000"), [Tok::Int(12), Tok::Int(31), Tok::Int(5), Tok::Int(1000), Tok::Eof]);
        assert_eq!(toks("9223372036854775807")[0], Tok::Int(i64::MAX));
        let (_, errors) = lex("9223372036854775808 0b12 0x");
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            ["integer literal too large", "invalid digit in a base-2 number", "a number needs digits after its prefix"]
        );
    }

    #[test]
    fn operators_take_the_longest_match() {
        assert_eq!(
            toks("<= << < -> -= - .. && & || |"),
            [
                Tok::Le,
                Tok::Shl,
                Tok::Lt,
                Tok::Arrow,
                Tok::MinusAssign,
                Tok::Minus,
                Tok::DotDot,
                Tok::AndAnd,
                Tok::Amp,
                Tok::OrOr,
                Tok::Pipe,
                Tok::Eof
            ]
        );
    }

    #[test]
    fn strings_escape_and_comments_nest() {
        assert_eq!(toks(r#""a\n\"\x41é""#)[0], Tok::Str("a\n\"Aé".into()));
        assert_eq!(toks("a /* x /* y */ z */ b // c\nd").len(), 4);
        assert_eq!(toks("while whiles")[..2], [Tok::While, Tok::Ident("whiles".into())]);
        let (_, errors) = lex("\"abc");
        assert_eq!(errors[0].message, "unterminated string");
        let (_, errors) = lex("/* /* */");
        assert_eq!(errors[0].message, "unterminated block comment");
        let (_, errors) = lex("\"\\q\" # \"\\x80\"");
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(messages, ["unknown escape", "unexpected character '#'", "\\x escapes stop at 7f"]);
    }

    #[test]
    fn spans_cover_the_token_text() {
        let (tokens, _) = lex("let xy = 42;");
        let spans: Vec<(usize, usize)> = tokens.iter().map(|t| (t.span.start, t.span.end)).collect();
        assert_eq!(spans, [(0, 3), (4, 6), (7, 8), (9, 11), (11, 12), (12, 12)]);
        assert_eq!(spelling(&Tok::Shr), ">>");
        assert_eq!(keyword("return"), Some(Tok::Return));
    }
}
