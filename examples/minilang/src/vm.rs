//! The stack VM: runs a compiled [`Module`]. It must print what the interpreter prints
//! and fail with the same messages; its own limit counts instructions.

use crate::builtins;
use crate::compile::{Module, Op};
use crate::span::{Diagnostic, Span, Stage};
use crate::value::{self, Value};

/// Limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub instructions: u64,
    pub depth: usize,
    pub lines: usize,
    pub stack: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { instructions: 100_000, depth: 48, lines: 200, stack: 4096 }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    pub output: Vec<String>,
    pub error: Option<Diagnostic>,
    pub instructions: u64,
    /// The highest the value stack grew.
    pub max_stack: usize,
}

struct Frame {
    ret: usize,
    base: usize,
}

struct Vm<'a> {
    module: &'a Module,
    stack: Vec<Value>,
    slots: Vec<Value>,
    frames: Vec<Frame>,
    output: Vec<String>,
    count: u64,
    max_stack: usize,
    limits: Limits,
}

impl<'a> Vm<'a> {
    fn fail<T>(&self, ip: usize, message: impl Into<String>) -> Result<T, Diagnostic> {
        let span = self.module.spans.get(ip).copied().unwrap_or(Span::default());
        Err(Diagnostic::new(Stage::Run, span, message))
    }

    fn pop(&mut self, ip: usize) -> Result<Value, Diagnostic> {
        match self.stack.pop() {
            Some(v) => Ok(v),
            None => self.fail(ip, "stack underflow"),
        }
    }

    fn push(&mut self, v: Value, ip: usize) -> Result<(), Diagnostic> {
        if self.stack.len() >= self.limits.stack {
            return self.fail(ip, "stack overflow");
        }
        self.stack.push(v);
        self.max_stack = self.max_stack.max(self.stack.len());
        Ok(())
    }

    fn base(&self) -> usize {
        self.frames.last().map_or(0, |f| f.base)
    }

    fn enter(&mut self, function: u32, ret: usize, ip: usize) -> Result<usize, Diagnostic> {
        let f = &self.module.functions[function as usize];
        if self.frames.len() > self.limits.depth {
            return self.fail(ip, format!("call depth limit of {} reached", self.limits.depth));
        }
        let base = self.slots.len();
        let arity = usize::from(f.arity);
        if self.stack.len() < arity {
            return self.fail(ip, "stack underflow");
        }
        let args = self.stack.split_off(self.stack.len() - arity);
        self.slots.extend(args);
        let extra = (f.locals as usize).saturating_sub(arity);
        self.slots.extend(std::iter::repeat_n(Value::Unit, extra));
        self.frames.push(Frame { ret, base });
        Ok(f.entry as usize)
    }

    fn run(&mut self) -> Result<(), Diagnostic> {
        let main = self.module.main;
        let mut ip = self.enter(main, usize::MAX, 0)?;
        loop {
            self.count += 1;
            if self.count > self.limits.instructions {
                return self.fail(ip, format!("instruction limit of {} reached", self.limits.instructions));
            }
            let Some(&op) = self.module.code.get(ip) else {
                return self.fail(ip, format!("jump out of the code to {ip}"));
            };
            let mut next = ip + 1;
            match op {
                Op::Const(n) => {
                    let v = self.module.consts[n as usize].clone();
                    self.push(v, ip)?;
                }
                Op::Int(n) => self.push(Value::Int(n), ip)?,
                Op::Bool(b) => self.push(Value::Bool(b), ip)?,
                Op::Zero(t) => self.push(Value::zero(t), ip)?,
                Op::Load(slot) => {
                    let v = self.slots[self.base() + slot as usize].clone();
                    self.push(v, ip)?;
                }
                Op::Store(slot) => {
                    let v = self.pop(ip)?;
                    let at = self.base() + slot as usize;
                    self.slots[at] = v;
                }
                Op::Unary(op) => {
                    let v = self.pop(ip)?;
                    let r = value::unary(op, &v).or_else(|m| self.fail(ip, m))?;
                    self.push(r, ip)?;
                }
                Op::Binary(op) => {
                    let r = self.pop(ip)?;
                    let l = self.pop(ip)?;
                    let v = value::binary(op, &l, &r).or_else(|m| self.fail(ip, m))?;
                    self.push(v, ip)?;
                }
                Op::Jump(to) => next = to as usize,
                Op::JumpIfFalse(to) => {
                    let c = self.pop(ip)?.as_bool().or_else(|m| self.fail(ip, m))?;
                    if !c {
                        next = to as usize;
                    }
                }
                Op::JumpIfTrue(to) => {
                    let c = self.pop(ip)?.as_bool().or_else(|m| self.fail(ip, m))?;
                    if c {
                        next = to as usize;
                    }
                }
                Op::Call(f, argc) => {
                    if self.module.functions[f as usize].arity != argc {
                        return self.fail(ip, "wrong number of arguments");
                    }
                    next = self.enter(f, ip + 1, ip)?;
                }
                Op::Builtin(b, argc) => {
                    let argc = usize::from(argc);
                    if self.stack.len() < argc {
                        return self.fail(ip, "stack underflow");
                    }
                    let args = self.stack.split_off(self.stack.len() - argc);
                    let name = builtins::BUILTINS[b as usize].0;
                    let v = builtins::call(name, &args).or_else(|m| self.fail(ip, m))?;
                    self.push(v, ip)?;
                }
                Op::Return => {
                    let v = self.pop(ip)?;
                    let frame = self.frames.pop().expect("a frame to return from");
                    self.slots.truncate(frame.base);
                    if frame.ret == usize::MAX {
                        return Ok(());
                    }
                    self.push(v, ip)?;
                    next = frame.ret;
                }
                Op::Print => {
                    let v = self.pop(ip)?;
                    if self.output.len() >= self.limits.lines {
                        return self.fail(ip, format!("more than {} lines printed", self.limits.lines));
                    }
                    self.output.push(v.to_string());
                }
                Op::Pop => {
                    self.pop(ip)?;
                }
                Op::Halt => return Ok(()),
            }
            ip = next;
        }
    }
}

/// Run a module.
pub fn run(module: &Module, limits: Limits) -> Run {
    let mut vm = Vm {
        module,
        stack: Vec::new(),
        slots: Vec::new(),
        frames: Vec::new(),
        output: Vec::new(),
        count: 0,
        max_stack: 0,
        limits,
    };
    let error = vm.run().err();
    Run { output: vm.output, error, instructions: vm.count, max_stack: vm.max_stack }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::interp;
    use crate::lexer::lex;
    use crate::parser::parse;

    fn both(src: &str) -> (Run, interp::Run) {
        let (program, errors) = parse(&lex(src).0);
        assert!(errors.is_empty(), "{errors:?}");
        assert!(crate::check::check(&program).errors.is_empty());
        (run(&compile(&program), Limits::default()), interp::run(&program, interp::Limits::default()))
    }

    #[test]
    fn the_vm_agrees_with_the_interpreter() {
        let programs = [
            "fn fib(n: int) -> int { return n < 2 ? n : fib(n - 1) + fib(n - 2); } print fib(12);",
            "var s = \"\"; for i in 0..10 { if i % 3 == 0 { continue; } if i > 7 { break; } s += str(i); } print s;",
            "var k = 5; while k > 0 { k -= 2; print k; } print k > 0 || 1 / 0 == 0;",
            "fn g(a: str) { print a; return; } g(\"x\"); print 9223372036854775807 + 1; print 1 << 64;",
            "fn h() { } h(); let big = 100000 * 100000; print big; return; print 1;",
        ];
        for p in programs {
            let (vm, it) = both(p);
            assert_eq!(vm.output, it.output, "{p}");
            assert_eq!(vm.error.map(|e| (e.message, e.span)), it.error.map(|e| (e.message, e.span)), "{p}");
        }
    }

    #[test]
    fn limits_end_the_run() {
        let (vm, _) = both("while true { }");
        assert_eq!(vm.error.unwrap().message, "instruction limit of 100000 reached");
        let (vm, it) = both("fn f(n: int) -> int { return f(n); } print f(1);");
        assert_eq!(vm.error.unwrap().message, it.error.unwrap().message);
        assert!(vm.max_stack > 0);
    }
}
