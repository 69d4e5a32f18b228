//! The compiler: a checked program to bytecode for the stack VM. Locals live in numbered
//! slots of their function's frame; `&&`, `||`, `?:` and the loops become jumps; every
//! instruction keeps the span of the source it came from, for run-time errors.

use crate::ast::*;
use crate::builtins;
use crate::span::Span;
use crate::value::Value;

/// One instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Push constant number `n`.
    Const(u32),
    /// Push a small int.
    Int(i64),
    Bool(bool),
    /// Push the zero value of a type.
    Zero(Type),
    Load(u32),
    Store(u32),
    Unary(UnOp),
    Binary(BinOp),
    Jump(u32),
    /// Pop; jump if false.
    JumpIfFalse(u32),
    /// Pop; jump if true.
    JumpIfTrue(u32),
    /// Call user function `f` with `argc` arguments from the stack.
    Call(u32, u8),
    /// Call built-in number `b` with `argc` arguments.
    Builtin(u32, u8),
    Return,
    Print,
    Pop,
    Halt,
}

/// A compiled function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnCode {
    pub name: String,
    pub arity: u8,
    pub locals: u32,
    pub entry: u32,
}

/// A compiled program: `functions[main]` is the top level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Module {
    pub code: Vec<Op>,
    pub spans: Vec<Span>,
    pub consts: Vec<Value>,
    pub functions: Vec<FnCode>,
    pub main: u32,
}

impl Module {
    /// The listing: one instruction per line, jump targets as addresses.
    pub fn disassemble(&self) -> String {
        let mut out = String::new();
        for (i, f) in self.functions.iter().enumerate() {
            out.push_str(&format!("fn#{i} {} arity {} locals {} at {}\n", f.name, f.arity, f.locals, f.entry));
        }
        for (addr, op) in self.code.iter().enumerate() {
            let text = match op {
                Op::Const(n) => format!("const {:?}", self.consts[*n as usize]),
                Op::Call(f, argc) => format!("call {} {argc}", self.functions[*f as usize].name),
                Op::Builtin(b, argc) => format!("builtin {} {argc}", builtins::BUILTINS[*b as usize].0),
                Op::Binary(op) => format!("binary {}", op.symbol()),
                Op::Unary(op) => format!("unary {}", op.symbol()),
                other => format!("{other:?}").to_lowercase(),
            };
            out.push_str(&format!("{addr:04} {text}\n"));
        }
        out
    }
}

/// Small ints are immediate; others go to the constant pool.
const IMMEDIATE: std::ops::RangeInclusive<i64> = -32768..=32767;

struct Loop {
    breaks: Vec<usize>,
    continues: Vec<usize>,
}

struct Compiler<'a> {
    program: &'a Program,
    module: Module,
    scopes: Vec<Vec<(String, u32)>>,
    next_slot: u32,
    loops: Vec<Loop>,
}

impl<'a> Compiler<'a> {
    fn emit(&mut self, op: Op, span: Span) -> usize {
        self.module.code.push(op);
        self.module.spans.push(span);
        self.module.code.len() - 1
    }

    fn here(&self) -> u32 {
        self.module.code.len() as u32
    }

    /// Point the jump at `at` to the next instruction.
    fn patch(&mut self, at: usize) {
        let target = self.here();
        self.patch_to(at, target);
    }

    fn patch_to(&mut self, at: usize, target: u32) {
        self.module.code[at] = match self.module.code[at] {
            Op::Jump(_) => Op::Jump(target),
            Op::JumpIfFalse(_) => Op::JumpIfFalse(target),
            Op::JumpIfTrue(_) => Op::JumpIfTrue(target),
            other => unreachable!("patching {other:?}"),
        };
    }

    fn constant(&mut self, v: Value) -> u32 {
        if let Some(i) = self.module.consts.iter().position(|c| *c == v) {
            return i as u32;
        }
        self.module.consts.push(v);
        (self.module.consts.len() - 1) as u32
    }

    fn declare(&mut self, name: &str) -> u32 {
        let slot = self.next_slot;
        self.next_slot += 1;
        self.scopes.last_mut().expect("a scope").push((name.to_string(), slot));
        slot
    }

    fn slot(&self, name: &str) -> u32 {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|&(_, slot)| slot)
            .unwrap_or_else(|| panic!("`{name}` is declared: the program was checked"))
    }

    fn function(&mut self, f: &Function) -> FnCode {
        let entry = self.here();
        self.scopes = vec![Vec::new()];
        self.next_slot = 0;
        for p in &f.params {
            self.declare(&p.name);
        }
        self.stmts(&f.body);
        // Falling off the end returns the zero value.
        self.emit(Op::Zero(f.ret), f.span);
        self.emit(Op::Return, f.span);
        FnCode { name: f.name.clone(), arity: f.params.len() as u8, locals: self.next_slot, entry }
    }

    fn main(&mut self, stmts: &[Stmt]) -> FnCode {
        let entry = self.here();
        self.scopes = vec![Vec::new()];
        self.next_slot = 0;
        self.stmts(stmts);
        self.emit(Op::Halt, Span::default());
        FnCode { name: "<main>".into(), arity: 0, locals: self.next_slot, entry }
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        self.scopes.push(Vec::new());
        for s in stmts {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    fn stmt(&mut self, s: &Stmt) {
        let span = s.span;
        match &s.kind {
            StmtKind::Let { name, value, .. } => {
                self.expr(value);
                let slot = self.declare(name);
                self.emit(Op::Store(slot), span);
            }
            StmtKind::Assign { name, op, value } => {
                let slot = self.slot(name);
                let bin = match op {
                    AssignOp::Set => None,
                    AssignOp::Add => Some(BinOp::Add),
                    AssignOp::Sub => Some(BinOp::Sub),
                    AssignOp::Mul => Some(BinOp::Mul),
                };
                if let Some(bin) = bin {
                    self.emit(Op::Load(slot), span);
                    self.expr(value);
                    self.emit(Op::Binary(bin), span);
                } else {
                    self.expr(value);
                }
                self.emit(Op::Store(slot), span);
            }
            StmtKind::If { cond, then, otherwise } => {
                self.expr(cond);
                let to_else = self.emit(Op::JumpIfFalse(0), span);
                self.stmts(then);
                match otherwise {
                    Some(e) => {
                        let to_end = self.emit(Op::Jump(0), span);
                        self.patch(to_else);
                        self.stmts(e);
                        self.patch(to_end);
                    }
                    None => self.patch(to_else),
                }
            }
            StmtKind::While { cond, body } => {
                let top = self.here();
                self.expr(cond);
                let exit = self.emit(Op::JumpIfFalse(0), span);
                self.loops.push(Loop { breaks: Vec::new(), continues: Vec::new() });
                self.stmts(body);
                self.emit(Op::Jump(top), span);
                let l = self.loops.pop().expect("the loop");
                self.patch(exit);
                for b in l.breaks {
                    self.patch(b);
                }
                for c in l.continues {
                    self.patch_to(c, top);
                }
            }
            StmtKind::For { var, from, to, body } => {
                self.scopes.push(Vec::new());
                self.expr(from);
                let i = self.declare(var);
                self.emit(Op::Store(i), span);
                self.expr(to);
                let end = self.declare(" end");
                self.emit(Op::Store(end), span);
                let top = self.here();
                self.emit(Op::Load(i), span);
                self.emit(Op::Load(end), span);
                self.emit(Op::Binary(BinOp::Lt), span);
                let exit = self.emit(Op::JumpIfFalse(0), span);
                self.loops.push(Loop { breaks: Vec::new(), continues: Vec::new() });
                self.stmts(body);
                let step = self.here();
                self.emit(Op::Load(i), span);
                self.emit(Op::Int(1), span);
                self.emit(Op::Binary(BinOp::Add), span);
                self.emit(Op::Store(i), span);
                self.emit(Op::Jump(top), span);
                let l = self.loops.pop().expect("the loop");
                self.patch(exit);
                for b in l.breaks {
                    self.patch(b);
                }
                for c in l.continues {
                    self.patch_to(c, step);
                }
                self.scopes.pop();
            }
            StmtKind::Break => {
                let at = self.emit(Op::Jump(0), span);
                self.loops.last_mut().expect("checked: inside a loop").breaks.push(at);
            }
            StmtKind::Continue => {
                let at = self.emit(Op::Jump(0), span);
                self.loops.last_mut().expect("checked: inside a loop").continues.push(at);
            }
            StmtKind::Return(value) => match value {
                Some(e) => {
                    self.expr(e);
                    self.emit(Op::Return, span);
                }
                None if self.module.functions.len() == self.program.functions.len() => {
                    // At the top level, `return;` ends the program.
                    self.emit(Op::Halt, span);
                }
                None => {
                    self.emit(Op::Zero(Type::Unit), span);
                    self.emit(Op::Return, span);
                }
            },
            StmtKind::Print(e) => {
                self.expr(e);
                self.emit(Op::Print, span);
            }
            StmtKind::Expr(e) => {
                self.expr(e);
                self.emit(Op::Pop, span);
            }
            StmtKind::Block(stmts) => self.stmts(stmts),
        }
    }

    fn expr(&mut self, e: &Expr) {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(n) if IMMEDIATE.contains(n) => {
                self.emit(Op::Int(*n), span);
            }
            ExprKind::Int(n) => {
                let c = self.constant(Value::Int(*n));
                self.emit(Op::Const(c), span);
            }
            ExprKind::Bool(b) => {
                self.emit(Op::Bool(*b), span);
            }
            ExprKind::Str(s) => {
                let c = self.constant(Value::Str(s.clone()));
                self.emit(Op::Const(c), span);
            }
            ExprKind::Var(name) => {
                let slot = self.slot(name);
                self.emit(Op::Load(slot), span);
            }
            ExprKind::Unary(op, inner) => {
                self.expr(inner);
                self.emit(Op::Unary(*op), span);
            }
            ExprKind::Binary(BinOp::And, l, r) => {
                // l && r: if l is false the result is false, without evaluating r.
                self.expr(l);
                let short = self.emit(Op::JumpIfFalse(0), span);
                self.expr(r);
                let end = self.emit(Op::Jump(0), span);
                self.patch(short);
                self.emit(Op::Bool(false), span);
                self.patch(end);
            }
            ExprKind::Binary(BinOp::Or, l, r) => {
                self.expr(l);
                let short = self.emit(Op::JumpIfTrue(0), span);
                self.expr(r);
                let end = self.emit(Op::Jump(0), span);
                self.patch(short);
                self.emit(Op::Bool(true), span);
                self.patch(end);
            }
            ExprKind::Binary(op, l, r) => {
                self.expr(l);
                self.expr(r);
                self.emit(Op::Binary(*op), span);
            }
            ExprKind::Ternary(c, a, b) => {
                self.expr(c);
                let to_b = self.emit(Op::JumpIfFalse(0), span);
                self.expr(a);
                let end = self.emit(Op::Jump(0), span);
                self.patch(to_b);
                self.expr(b);
                self.patch(end);
            }
            ExprKind::Call(name, args) => {
                for a in args {
                    self.expr(a);
                }
                let argc = args.len() as u8;
                match self.program.functions.iter().position(|f| f.name == *name) {
                    Some(f) => self.emit(Op::Call(f as u32, argc), span),
                    None => {
                        let b = builtins::index(name).expect("checked: a known function");
                        self.emit(Op::Builtin(b as u32, argc), span)
                    }
                };
            }
        }
    }
}

/// Compile a checked program.
pub fn compile(program: &Program) -> Module {
    let mut c = Compiler { program, module: Module::default(), scopes: Vec::new(), next_slot: 0, loops: Vec::new() };
    for f in &program.functions {
        let code = c.function(f);
        c.module.functions.push(code);
    }
    let main = c.main(&program.main);
    c.module.main = c.module.functions.len() as u32;
    c.module.functions.push(main);
    c.module
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use crate::parser::parse;

    fn module(src: &str) -> Module {
        compile(&parse(&lex(src).0).0)
    }

    #[test]
    fn short_circuit_compiles_to_jumps() {
        let m = module("let a = true; print a && false;");
        assert_eq!(
            m.code,
            [
                Op::Bool(true),
                Op::Store(0),
                Op::Load(0),
                Op::JumpIfFalse(6),
                Op::Bool(false),
                Op::Jump(7),
                Op::Bool(false),
                Op::Print,
                Op::Halt
            ]
        );
    }

    #[test]
    fn constants_are_pooled_and_functions_have_frames() {
        let m = module("fn f(a: int, b: int) -> int { let c = a + b; return c; } print f(100000, 100000); print \"s\";");
        assert_eq!(m.consts, [Value::Int(100_000), Value::Str("s".into())]);
        assert_eq!(m.functions[0], FnCode { name: "f".into(), arity: 2, locals: 3, entry: 0 });
        assert_eq!(m.main, 1);
        assert!(m.disassemble().contains("call f 2"), "{}", m.disassemble());
        assert_eq!(m.code.len(), m.spans.len());
    }

    #[test]
    fn loops_patch_break_and_continue() {
        let m = module("for i in 0..3 { if i == 1 { continue; } if i == 2 { break; } print i; }");
        let jumps: Vec<&Op> = m.code.iter().filter(|op| matches!(op, Op::Jump(_))).collect();
        // continue → the increment (11 + 6 = 17 below), break → past the loop, loop back → the test.
        let listing = m.disassemble();
        assert_eq!(jumps.len(), 3, "{listing}");
        assert!(listing.contains("jump(4)"), "{listing}");
    }
}
