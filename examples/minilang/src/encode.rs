//! The bytecode file format: a [`Module`] as bytes and back. A header (magic, version),
//! then the constant pool, the functions and the code, with LEB128 varints (zigzag for
//! signed numbers), and an Adler-32 checksum at the end. Decoding checks everything:
//! corrupt input is an error, never a panic or a module that jumps out of its code.

use crate::ast::{BinOp, Type, UnOp};
use crate::compile::{FnCode, Module, Op};
use crate::span::Span;
use crate::value::Value;

pub const MAGIC: &[u8; 4] = b"MLBC";
pub const VERSION: u8 = 2;

/// Largest count of anything (constants, functions, instructions) in a file.
const MAX_COUNT: u64 = 1 << 20;

struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn byte(&mut self, b: u8) {
        self.out.push(b);
    }

    fn uvar(&mut self, mut n: u64) {
        loop {
            let low = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                self.out.push(low);
                return;
            }
            self.out.push(low | 0x80);
        }
    }

    fn ivar(&mut self, n: i64) {
        self.uvar(zigzag(n));
    }

    fn bytes(&mut self, b: &[u8]) {
        self.uvar(b.len() as u64);
        self.out.extend_from_slice(b);
    }
}

/// Signed to unsigned, small magnitudes small: 0, -1, 1, -2, … → 0, 1, 2, 3, ….
pub fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

pub fn unzigzag(n: u64) -> i64 {
    ((n >> 1) as i64) ^ -((n & 1) as i64)
}

/// Adler-32 of the bytes.
pub fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65_521;
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5552) {
        for &x in chunk {
            a += u32::from(x);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

fn type_code(t: Type) -> u8 {
    match t {
        Type::Int => 0,
        Type::Bool => 1,
        Type::Str => 2,
        Type::Unit => 3,
    }
}

fn type_of_code(c: u8) -> Option<Type> {
    Some(match c {
        0 => Type::Int,
        1 => Type::Bool,
        2 => Type::Str,
        3 => Type::Unit,
        _ => return None,
    })
}

fn binop_code(op: BinOp) -> u8 {
    BinOp::ALL.iter().position(|&o| o == op).expect("every operator is listed") as u8
}

/// Opcodes.
mod opcode {
    pub const CONST: u8 = 0x01;
    pub const INT: u8 = 0x02;
    pub const TRUE: u8 = 0x03;
    pub const FALSE: u8 = 0x04;
    pub const ZERO: u8 = 0x05;
    pub const LOAD: u8 = 0x06;
    pub const STORE: u8 = 0x07;
    pub const NEG: u8 = 0x08;
    pub const NOT: u8 = 0x09;
    pub const BINARY: u8 = 0x0a;
    pub const JUMP: u8 = 0x0b;
    pub const JUMP_IF_FALSE: u8 = 0x0c;
    pub const JUMP_IF_TRUE: u8 = 0x0d;
    pub const CALL: u8 = 0x0e;
    pub const BUILTIN: u8 = 0x0f;
    pub const RETURN: u8 = 0x10;
    pub const PRINT: u8 = 0x11;
    pub const POP: u8 = 0x12;
    pub const HALT: u8 = 0x13;
}

fn write_op(w: &mut Writer, op: &Op) {
    use opcode::*;
    match *op {
        Op::Const(n) => {
            w.byte(CONST);
            w.uvar(u64::from(n));
        }
        Op::Int(n) => {
            w.byte(INT);
            w.ivar(n);
        }
        Op::Bool(true) => w.byte(TRUE),
        Op::Bool(false) => w.byte(FALSE),
        Op::Zero(t) => {
            w.byte(ZERO);
            w.byte(type_code(t));
        }
        Op::Load(s) => {
            w.byte(LOAD);
            w.uvar(u64::from(s));
        }
        Op::Store(s) => {
            w.byte(STORE);
            w.uvar(u64::from(s));
        }
        Op::Unary(UnOp::Neg) => w.byte(NEG),
        Op::Unary(UnOp::Not) => w.byte(NOT),
        Op::Binary(b) => {
            w.byte(BINARY);
            w.byte(binop_code(b));
        }
        Op::Jump(t) => {
            w.byte(JUMP);
            w.uvar(u64::from(t));
        }
        Op::JumpIfFalse(t) => {
            w.byte(JUMP_IF_FALSE);
            w.uvar(u64::from(t));
        }
        Op::JumpIfTrue(t) => {
            w.byte(JUMP_IF_TRUE);
            w.uvar(u64::from(t));
        }
        Op::Call(f, argc) => {
            w.byte(CALL);
            w.uvar(u64::from(f));
            w.byte(argc);
        }
        Op::Builtin(b, argc) => {
            w.byte(BUILTIN);
            w.uvar(u64::from(b));
            w.byte(argc);
        }
        Op::Return => w.byte(RETURN),
        Op::Print => w.byte(PRINT),
        Op::Pop => w.byte(POP),
        Op::Halt => w.byte(HALT),
    }
}

/// The module as bytes.
pub fn encode(m: &Module) -> Vec<u8> {
    let mut w = Writer { out: Vec::new() };
    w.out.extend_from_slice(MAGIC);
    w.byte(VERSION);
    w.uvar(m.consts.len() as u64);
    for c in &m.consts {
        match c {
            Value::Int(n) => {
                w.byte(b'i');
                w.ivar(*n);
            }
            Value::Str(s) => {
                w.byte(b's');
                w.bytes(s.as_bytes());
            }
            Value::Bool(b) => {
                w.byte(b'b');
                w.byte(u8::from(*b));
            }
            Value::Unit => w.byte(b'u'),
        }
    }
    w.uvar(m.functions.len() as u64);
    for f in &m.functions {
        w.bytes(f.name.as_bytes());
        w.byte(f.arity);
        w.uvar(u64::from(f.locals));
        w.uvar(u64::from(f.entry));
    }
    w.uvar(u64::from(m.main));
    w.uvar(m.code.len() as u64);
    for op in &m.code {
        write_op(&mut w, op);
    }
    // Spans as deltas: starts mostly grow, lengths are short.
    let mut last = 0i64;
    for s in &m.spans {
        w.ivar(s.start as i64 - last);
        w.uvar(s.len() as u64);
        last = s.start as i64;
    }
    let sum = adler32(&w.out);
    w.out.extend_from_slice(&sum.to_be_bytes());
    w.out
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

type D<T> = Result<T, String>;

impl<'a> Reader<'a> {
    fn byte(&mut self) -> D<u8> {
        let b = *self.data.get(self.pos).ok_or_else(|| format!("truncated at byte {}", self.pos))?;
        self.pos += 1;
        Ok(b)
    }

    fn uvar(&mut self) -> D<u64> {
        let start = self.pos;
        let mut n: u64 = 0;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            if shift == 63 && b > 1 {
                return Err(format!("varint at byte {start} overflows"));
            }
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
            shift += 7;
            if shift > 63 {
                return Err(format!("varint at byte {start} is too long"));
            }
        }
    }

    fn ivar(&mut self) -> D<i64> {
        Ok(unzigzag(self.uvar()?))
    }

    fn count(&mut self, what: &str) -> D<usize> {
        let n = self.uvar()?;
        if n > MAX_COUNT {
            return Err(format!("{n} {what} is too many"));
        }
        Ok(n as usize)
    }

    fn u32(&mut self, what: &str) -> D<u32> {
        let n = self.uvar()?;
        u32::try_from(n).map_err(|_| format!("{what} {n} is out of range"))
    }

    fn bytes(&mut self) -> D<&'a [u8]> {
        let n = self.count("bytes")?;
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len()).ok_or("truncated string")?;
        let b = &self.data[self.pos..end];
        self.pos = end;
        Ok(b)
    }

    fn text(&mut self) -> D<String> {
        let b = self.bytes()?;
        String::from_utf8(b.to_vec()).map_err(|_| "a string is not UTF-8".to_string())
    }

    fn op(&mut self) -> D<Op> {
        use opcode::*;
        let at = self.pos;
        let code = self.byte()?;
        Ok(match code {
            CONST => Op::Const(self.u32("constant")?),
            INT => Op::Int(self.ivar()?),
            TRUE => Op::Bool(true),
            FALSE => Op::Bool(false),
            ZERO => {
                let c = self.byte()?;
                Op::Zero(type_of_code(c).ok_or_else(|| format!("bad type code {c}"))?)
            }
            LOAD => Op::Load(self.u32("slot")?),
            STORE => Op::Store(self.u32("slot")?),
            NEG => Op::Unary(UnOp::Neg),
            NOT => Op::Unary(UnOp::Not),
            BINARY => {
                let c = self.byte()?;
                let op = BinOp::ALL.get(usize::from(c)).ok_or_else(|| format!("bad operator code {c}"))?;
                Op::Binary(*op)
            }
            JUMP => Op::Jump(self.u32("jump target")?),
            JUMP_IF_FALSE => Op::JumpIfFalse(self.u32("jump target")?),
            JUMP_IF_TRUE => Op::JumpIfTrue(self.u32("jump target")?),
            CALL => Op::Call(self.u32("function")?, self.byte()?),
            BUILTIN => Op::Builtin(self.u32("built-in")?, self.byte()?),
            RETURN => Op::Return,
            PRINT => Op::Print,
            POP => Op::Pop,
            HALT => Op::Halt,
            other => return Err(format!("unknown opcode {other:#04x} at byte {at}")),
        })
    }
}

/// Read a module, checking its checksum and that every index in it is in range.
pub fn decode(data: &[u8]) -> D<Module> {
    if data.len() < MAGIC.len() + 1 + 4 {
        return Err("too short for a module".into());
    }
    let (body, sum) = data.split_at(data.len() - 4);
    let expected = u32::from_be_bytes([sum[0], sum[1], sum[2], sum[3]]);
    if adler32(body) != expected {
        return Err("checksum mismatch".into());
    }
    if &body[..4] != MAGIC {
        return Err("not a minilang module".into());
    }
    if body[4] != VERSION {
        return Err(format!("version {} is not {VERSION}", body[4]));
    }
    let mut r = Reader { data: body, pos: 5 };
    let nconsts = r.count("constants")?;
    let mut consts = Vec::with_capacity(nconsts.min(1024));
    for _ in 0..nconsts {
        let tag = r.byte()?;
        consts.push(match tag {
            b'i' => Value::Int(r.ivar()?),
            b's' => Value::Str(r.text()?),
            b'b' => Value::Bool(r.byte()? != 0),
            b'u' => Value::Unit,
            other => return Err(format!("bad constant tag {other}")),
        });
    }
    let nfns = r.count("functions")?;
    let mut functions = Vec::with_capacity(nfns.min(1024));
    for _ in 0..nfns {
        let name = r.text()?;
        let arity = r.byte()?;
        let locals = r.u32("locals")?;
        let entry = r.u32("entry")?;
        if u32::from(arity) > locals {
            return Err(format!("function {name} has {arity} parameters but {locals} locals"));
        }
        functions.push(FnCode { name, arity, locals, entry });
    }
    let main = r.u32("main")?;
    let ncode = r.count("instructions")?;
    let mut code = Vec::with_capacity(ncode.min(1 << 16));
    for _ in 0..ncode {
        code.push(r.op()?);
    }
    let mut spans = Vec::with_capacity(ncode.min(1 << 16));
    let mut last = 0i64;
    for _ in 0..ncode {
        let start = last.checked_add(r.ivar()?).filter(|&s| s >= 0).ok_or("bad span")?;
        let len = r.uvar()?;
        let end = (start as u64).checked_add(len).ok_or("bad span")?;
        spans.push(Span::new(start as usize, end as usize));
        last = start;
    }
    if r.pos != body.len() {
        return Err(format!("{} bytes after the code", body.len() - r.pos));
    }
    let m = Module { code, spans, consts, functions, main };
    validate(&m)?;
    Ok(m)
}

/// Every index in range: constants, functions, built-ins, jump targets, slots.
pub fn validate(m: &Module) -> D<()> {
    let n = m.code.len() as u32;
    if m.main as usize >= m.functions.len() {
        return Err(format!("main function {} does not exist", m.main));
    }
    for f in &m.functions {
        if f.entry >= n {
            return Err(format!("function {} starts at {} outside the code", f.name, f.entry));
        }
    }
    // The function each instruction belongs to: the last entry at or before it.
    let mut entries: Vec<(u32, u32)> = m.functions.iter().map(|f| (f.entry, f.locals)).collect();
    entries.sort_unstable();
    for (addr, op) in m.code.iter().enumerate() {
        let addr = addr as u32;
        let locals = entries.iter().rev().find(|(e, _)| *e <= addr).map_or(0, |&(_, l)| l);
        match *op {
            Op::Const(c) if c as usize >= m.consts.len() => return Err(format!("{addr}: constant {c} out of range")),
            Op::Load(s) | Op::Store(s) if s >= locals => return Err(format!("{addr}: slot {s} out of range")),
            Op::Jump(t) | Op::JumpIfFalse(t) | Op::JumpIfTrue(t) if t >= n => {
                return Err(format!("{addr}: jump to {t} outside the code"))
            }
            Op::Call(f, _) if f as usize >= m.functions.len() => return Err(format!("{addr}: function {f} out of range")),
            Op::Builtin(b, _) if b as usize >= crate::builtins::BUILTINS.len() => {
                return Err(format!("{addr}: built-in {b} out of range"))
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::lexer::lex;
    use crate::parser::parse;

    fn module(src: &str) -> Module {
        compile(&parse(&lex(src).0).0)
    }

    #[test]
    fn varints_and_zigzag() {
        for n in [0, 1, -1, 63, -64, 64, i64::MAX, i64::MIN] {
            assert_eq!(unzigzag(zigzag(n)), n);
        }
        assert_eq!(zigzag(-1), 1);
        assert_eq!(zigzag(1), 2);
        let mut w = Writer { out: Vec::new() };
        w.uvar(300);
        assert_eq!(w.out, [0xac, 0x02]);
        let mut r = Reader { data: &[0xff; 11], pos: 0 };
        assert!(r.uvar().is_err());
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
    }

    #[test]
    fn modules_round_trip() {
        let m = module(
            "fn f(a: int) -> str { return a > 100000 ? \"big\" : str(-a); } var x = 7; \
             for i in 0..3 { x *= 100000; if x == 0 { break; } } print f(x) + \"!\"; print true && !false;",
        );
        let bytes = encode(&m);
        assert_eq!(&bytes[..4], MAGIC);
        assert_eq!(decode(&bytes), Ok(m));
    }

    #[test]
    fn corruption_is_detected() {
        let bytes = encode(&module("print 1 + 2;"));
        let mut flipped = bytes.clone();
        flipped[6] ^= 0x40;
        assert_eq!(decode(&flipped), Err("checksum mismatch".into()));
        assert!(decode(&bytes[..bytes.len() - 1]).is_err());
        assert!(decode(b"MLB").is_err());
        // A jump out of the code, with a correct checksum, is still refused.
        let mut m = module("while true { }");
        m.code[1] = Op::JumpIfFalse(99);
        assert_eq!(decode(&encode(&m)), Err("1: jump to 99 outside the code".into()));
    }
}
