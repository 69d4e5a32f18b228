//! Fuzz targets for `minilang`. `program` generates typed syntax trees (int, bool and
//! str expressions over a fixed set of variables, statements, an optional function) and
//! renders them as source text, so most programs are well-typed and run through every
//! stage: lexer, parser, checker, range analysis, folder, compiler, peephole optimizer,
//! bytecode format, interpreter and VM. `source` feeds raw text and `tokens` near-valid
//! token soups, which exercise the lexer's and the parser's error paths. Every target
//! returns the whole [`Outcome`]; `program` also requires the two back ends to agree.

use minilang::builtins::BUILTINS;
use minilang::Outcome;
use minilang::ast::Type;
use mutfuzz::{Gen, Source};

/// Expressions at most this many levels deep; deeper subtrees are cut to leaves. Each
/// level is two spans (the box and the expression).
const MAX_LEVEL: usize = 4;
/// Statement nesting depth (in spans) past which blocks are empty.
const MAX_BLOCK_DEPTH: usize = 12;

#[derive(Debug, Gen)]
enum IntE {
    Lit(#[mutfuzz(range = -12..=12)] i64),
    Wide(i64),
    Var(IVar),
    Neg(#[mutfuzz(with = sub_int)] Box<IntE>),
    Bin(IOp, #[mutfuzz(with = sub_int)] Box<IntE>, #[mutfuzz(with = sub_int)] Box<IntE>),
    Cond(#[mutfuzz(with = sub_bool)] Box<BoolE>, #[mutfuzz(with = sub_int)] Box<IntE>, #[mutfuzz(with = sub_int)] Box<IntE>),
    Len(#[mutfuzz(with = sub_str)] Box<StrE>),
    Builtin(#[mutfuzz(range = 0..=63)] u8, #[mutfuzz(with = sub_args)] Args),
    User(#[mutfuzz(with = sub_int)] Box<IntE>, #[mutfuzz(with = sub_int)] Box<IntE>),
}

#[derive(Debug, Gen)]
enum BoolE {
    Lit(bool),
    Var,
    Not(#[mutfuzz(with = sub_bool)] Box<BoolE>),
    Cmp(COp, #[mutfuzz(with = sub_int)] Box<IntE>, #[mutfuzz(with = sub_int)] Box<IntE>),
    StrCmp(COp, #[mutfuzz(with = sub_str)] Box<StrE>, #[mutfuzz(with = sub_str)] Box<StrE>),
    Logic(LOp, #[mutfuzz(with = sub_bool)] Box<BoolE>, #[mutfuzz(with = sub_bool)] Box<BoolE>),
    Builtin(#[mutfuzz(range = 0..=63)] u8, #[mutfuzz(with = sub_args)] Args),
}

#[derive(Debug, Gen)]
enum StrE {
    Lit(Text),
    Var,
    Cat(#[mutfuzz(with = sub_str)] Box<StrE>, #[mutfuzz(with = sub_str)] Box<StrE>),
    Of(#[mutfuzz(with = sub_int)] Box<IntE>),
    Cond(#[mutfuzz(with = sub_bool)] Box<BoolE>, #[mutfuzz(with = sub_str)] Box<StrE>, #[mutfuzz(with = sub_str)] Box<StrE>),
    Builtin(#[mutfuzz(range = 0..=63)] u8, #[mutfuzz(with = sub_args)] Args),
}

/// Arguments for a built-in: taken in order by the parameter types it has; missing ones
/// are filled with a fixed value.
#[derive(Debug, Gen)]
struct Args {
    #[mutfuzz(len = 0..=3)]
    ints: Vec<IntLeaf>,
    #[mutfuzz(len = 0..=2)]
    strs: Vec<Text>,
    deep: Option<Box<IntE>>,
}

#[derive(Debug, Gen)]
enum IntLeaf {
    Lit(#[mutfuzz(range = -3..=40)] i64),
    Wide(i64),
    Var(IVar),
}

/// One of the int variables: `a`, `b`, or the loop variable `i` inside a `for`.
#[derive(Debug, Gen)]
enum IVar {
    A,
    B,
    I,
}

#[derive(Debug, Gen)]
enum IOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

#[derive(Debug, Gen)]
enum COp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Gen)]
enum LOp {
    And,
    Or,
    BitAnd,
    BitXor,
}

/// A string literal from pieces that the built-ins care about.
#[derive(Debug, Gen)]
struct Text(#[mutfuzz(len = 0..=3)] Vec<Piece>);

#[derive(Debug, Gen)]
struct Piece(#[mutfuzz(range = 0..=17)] u8);

const PIECES: [&str; 18] = [
    "a", "b", "Hello", " ", "\\n", "\\\"", "MCMXCIV", "2024-02-29", "Zm9v", "-12", "é", "*", "?", "XIV", "ab",
    "978-0-306-40615-7", "\\x41", "0",
];

#[derive(Debug, Gen)]
enum Stmt {
    Set(IVar, AOp, IntE),
    Append(StrE),
    Flag(BoolE),
    Print(Printable),
    If(BoolE, #[mutfuzz(with = sub_block)] Vec<Stmt>, #[mutfuzz(with = sub_else)] Option<Vec<Stmt>>),
    For(#[mutfuzz(range = -2..=3)] i8, #[mutfuzz(range = 0..=7)] i8, #[mutfuzz(with = sub_block)] Vec<Stmt>),
    While(BoolE, #[mutfuzz(with = sub_block)] Vec<Stmt>),
    Break,
    Continue,
    Return(IntE),
}

#[derive(Debug, Gen)]
enum AOp {
    Set,
    Add,
    Sub,
    Mul,
}

#[derive(Debug, Gen)]
enum Printable {
    Int(IntE),
    Str(StrE),
    Bool(BoolE),
}

/// A program: an optional function `f(x, y) -> int`, then the top-level statements.
#[derive(Debug, Gen)]
struct Program {
    f: Option<Body>,
    #[mutfuzz(len = 0..=6)]
    main: Vec<Stmt>,
}

#[derive(Debug, Gen)]
struct Body {
    #[mutfuzz(len = 0..=4)]
    stmts: Vec<Stmt>,
    result: IntE,
}

fn deep(src: &Source) -> bool {
    src.depth() >= 2 * MAX_LEVEL
}

fn sub_int(src: &mut Source) -> Box<IntE> {
    if deep(src) {
        Box::new(match src.draw::<IntLeaf>() {
            IntLeaf::Lit(n) => IntE::Lit(n),
            IntLeaf::Wide(n) => IntE::Wide(n),
            IntLeaf::Var(v) => IntE::Var(v),
        })
    } else {
        Box::new(src.draw())
    }
}

fn sub_bool(src: &mut Source) -> Box<BoolE> {
    if deep(src) {
        Box::new(if src.bool() { BoolE::Lit(src.bool()) } else { BoolE::Var })
    } else {
        Box::new(src.draw())
    }
}

fn sub_str(src: &mut Source) -> Box<StrE> {
    if deep(src) {
        Box::new(if src.bool() { StrE::Lit(src.draw()) } else { StrE::Var })
    } else {
        Box::new(src.draw())
    }
}

fn sub_args(src: &mut Source) -> Args {
    if deep(src) {
        Args { ints: src.draw_len(0..=1), strs: src.draw_len(0..=1), deep: None }
    } else {
        src.draw()
    }
}

fn sub_block(src: &mut Source) -> Vec<Stmt> {
    if src.depth() >= MAX_BLOCK_DEPTH {
        Vec::new()
    } else {
        src.draw_len(0..=3)
    }
}

fn sub_else(src: &mut Source) -> Option<Vec<Stmt>> {
    if src.depth() >= MAX_BLOCK_DEPTH || !src.bool() {
        None
    } else {
        Some(src.draw_len(0..=2))
    }
}

/// Renders generated trees as minilang source.
struct Render {
    out: String,
    indent: usize,
    loops: usize,
    in_fn: bool,
    has_f: bool,
    counters: usize,
}

impl Render {
    fn line(&mut self, text: &str) {
        self.out.push_str(&"    ".repeat(self.indent));
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn ivar(&self, v: &IVar) -> &'static str {
        match v {
            IVar::A => "a",
            IVar::B => "b",
            IVar::I if self.loops > 0 => "i",
            IVar::I => "b",
        }
    }

    fn text(t: &Text) -> String {
        let body: String = t.0.iter().map(|p| PIECES[usize::from(p.0)]).collect();
        format!("\"{body}\"")
    }

    /// A call of the `k`-th built-in returning `ret`, its arguments taken from `args`.
    fn builtin(&self, k: u8, args: &Args, ret: Type) -> String {
        let candidates: Vec<&(&str, &[Type], Type)> = BUILTINS.iter().filter(|b| b.2 == ret).collect();
        let (name, params, _) = candidates[usize::from(k) % candidates.len()];
        let mut ints = args.ints.iter().map(|l| match l {
            IntLeaf::Lit(n) => n.to_string(),
            IntLeaf::Wide(n) => format!("({n})"),
            IntLeaf::Var(v) => self.ivar(v).to_string(),
        });
        let mut deep = args.deep.iter().map(|e| self.int(e));
        let mut strs = args.strs.iter().map(Render::text);
        let rendered: Vec<String> = params
            .iter()
            .map(|t| match t {
                Type::Int => deep.next().or_else(|| ints.next()).unwrap_or_else(|| "3".into()),
                Type::Str => strs.next().unwrap_or_else(|| "s".into()),
                _ => "p".into(),
            })
            .collect();
        format!("{name}({})", rendered.join(", "))
    }

    fn int(&self, e: &IntE) -> String {
        match e {
            IntE::Lit(n) => n.to_string(),
            IntE::Wide(n) => format!("({n})"),
            IntE::Var(v) => self.ivar(v).to_string(),
            IntE::Neg(x) => format!("-({})", self.int(x)),
            IntE::Bin(op, l, r) => {
                let op = match op {
                    IOp::Add => "+",
                    IOp::Sub => "-",
                    IOp::Mul => "*",
                    IOp::Div => "/",
                    IOp::Rem => "%",
                    IOp::And => "&",
                    IOp::Or => "|",
                    IOp::Xor => "^",
                    IOp::Shl => "<<",
                    IOp::Shr => ">>",
                };
                format!("({} {op} {})", self.int(l), self.int(r))
            }
            IntE::Cond(c, a, b) => format!("({} ? {} : {})", self.bool(c), self.int(a), self.int(b)),
            IntE::Len(s) => format!("len({})", self.str(s)),
            IntE::Builtin(k, args) => self.builtin(*k, args, Type::Int),
            IntE::User(a, b) => {
                let name = if self.has_f { "f" } else { "max" };
                format!("{name}({}, {})", self.int(a), self.int(b))
            }
        }
    }

    fn bool(&self, e: &BoolE) -> String {
        let cmp = |op: &COp| match op {
            COp::Eq => "==",
            COp::Ne => "!=",
            COp::Lt => "<",
            COp::Le => "<=",
            COp::Gt => ">",
            COp::Ge => ">=",
        };
        match e {
            BoolE::Lit(b) => b.to_string(),
            BoolE::Var => "p".into(),
            BoolE::Not(x) => format!("!{}", self.bool(x)),
            BoolE::Cmp(op, l, r) => format!("({} {} {})", self.int(l), cmp(op), self.int(r)),
            BoolE::StrCmp(op, l, r) => format!("({} {} {})", self.str(l), cmp(op), self.str(r)),
            BoolE::Logic(op, l, r) => {
                let op = match op {
                    LOp::And => "&&",
                    LOp::Or => "||",
                    LOp::BitAnd => "&",
                    LOp::BitXor => "^",
                };
                format!("({} {op} {})", self.bool(l), self.bool(r))
            }
            BoolE::Builtin(k, args) => self.builtin(*k, args, Type::Bool),
        }
    }

    fn str(&self, e: &StrE) -> String {
        match e {
            StrE::Lit(t) => Render::text(t),
            StrE::Var => "s".into(),
            StrE::Cat(a, b) => format!("({} + {})", self.str(a), self.str(b)),
            StrE::Of(x) => format!("str({})", self.int(x)),
            StrE::Cond(c, a, b) => format!("({} ? {} : {})", self.bool(c), self.str(a), self.str(b)),
            StrE::Builtin(k, args) => self.builtin(*k, args, Type::Str),
        }
    }

    fn block(&mut self, head: &str, stmts: &[Stmt]) {
        self.line(&format!("{head} {{"));
        self.indent += 1;
        for s in stmts {
            self.stmt(s);
        }
        self.indent -= 1;
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Set(v, op, e) => {
                let op = match op {
                    AOp::Set => "=",
                    AOp::Add => "+=",
                    AOp::Sub => "-=",
                    AOp::Mul => "*=",
                };
                // The loop variable is immutable: assign to `a` inside loops instead.
                let name = match v {
                    IVar::I => "a",
                    v => self.ivar(v),
                };
                let text = format!("{name} {op} {};", self.int(e));
                self.line(&text);
            }
            Stmt::Append(e) => {
                let text = format!("s += {};", self.str(e));
                self.line(&text);
            }
            Stmt::Flag(e) => {
                let text = format!("p = {};", self.bool(e));
                self.line(&text);
            }
            Stmt::Print(p) => {
                let text = match p {
                    Printable::Int(e) => self.int(e),
                    Printable::Str(e) => self.str(e),
                    Printable::Bool(e) => self.bool(e),
                };
                self.line(&format!("print {text};"));
            }
            Stmt::If(c, then, otherwise) => {
                let head = format!("if {}", self.bool(c));
                self.block(&head, then);
                if let Some(e) = otherwise {
                    self.block("} else", e);
                }
                self.line("}");
            }
            Stmt::For(from, to, body) => {
                self.loops += 1;
                self.block(&format!("for i in {from}..{to}"), body);
                self.loops -= 1;
                self.line("}");
            }
            Stmt::While(c, body) => {
                // Bounded by a counter of its own, so most loops end before the step limit.
                let w = format!("w{}", self.counters);
                self.counters += 1;
                self.line(&format!("var {w} = 0;"));
                let head = format!("while {w} < 4 && {}", self.bool(c));
                self.loops += 1;
                self.block(&head, body);
                self.indent += 1;
                self.line(&format!("{w} += 1;"));
                self.indent -= 1;
                self.loops -= 1;
                self.line("}");
            }
            Stmt::Break if self.loops > 0 => self.line("break;"),
            Stmt::Continue if self.loops > 0 => self.line("continue;"),
            Stmt::Break | Stmt::Continue => self.line("print a;"),
            Stmt::Return(e) if self.in_fn => {
                let text = format!("return {};", self.int(e));
                self.line(&text);
            }
            Stmt::Return(_) => self.line("return;"),
        }
    }

    fn program(p: &Program) -> String {
        let mut r = Render { out: String::new(), indent: 0, loops: 0, in_fn: false, has_f: p.f.is_some(), counters: 0 };
        if let Some(f) = &p.f {
            r.in_fn = true;
            r.line("fn f(x: int, y: int) -> int {");
            r.indent += 1;
            for decl in ["var a = x;", "var b = y;", "var s = \"\";", "var p = x < y;"] {
                r.line(decl);
            }
            for s in &f.stmts {
                r.stmt(s);
            }
            let ret = format!("return {};", r.int(&f.result));
            r.line(&ret);
            r.indent -= 1;
            r.line("}");
            r.in_fn = false;
        }
        for decl in ["var a = 3;", "var b = -2;", "var s = \"ab\";", "var p = true;"] {
            r.line(decl);
        }
        for s in &p.main {
            r.stmt(s);
        }
        r.out
    }
}

/// A generated program, rendered and run through the whole pipeline.
fn program(p: Program) -> (String, Outcome) {
    let text = Render::program(&p);
    let outcome = minilang::pipeline(&text);
    assert!(minilang::agree(&outcome), "the interpreter and the VM disagree on\n{text}\n{outcome:#?}");
    (text, outcome)
}

/// Raw text: mostly lexer and parser errors.
fn source(text: String) -> Outcome {
    minilang::pipeline(&text)
}

/// A fragment of (mostly) minilang; a sequence of them makes near-valid programs.
#[derive(Debug, Gen)]
struct Frag(#[mutfuzz(range = 0..=39)] u8);

const FRAGMENTS: [&str; 40] = [
    "var ", "let ", "a", "b", " = ", "1", "0x1f", "-7", "\"x\\n\"", ";", "\n", "print ", "if ", "else ", "while ", "for ",
    "i in 0..3 ", "{ ", "} ", "(", ")", " + ", " * ", " < ", " == ", " && ", " ? ", " : ", "true", "len(\"abc\")",
    "fn g(n: int) -> int ", "return ", "g(2)", "break;", "/* c */", "// c\n", "a += 2;", "1 / 0", " << ", "roman(a)",
];

/// Token soups: programs that are often almost right.
fn tokens(frags: Vec<Frag>) -> (String, Outcome) {
    let text: String = frags.iter().map(|f| FRAGMENTS[usize::from(f.0)]).collect();
    let outcome = minilang::pipeline(&text);
    (text, outcome)
}

mutfuzz::targets!(program, source, tokens);
