//! The peephole optimizer: rewrites short runs of bytecode (constant operations, jumps on
//! constants, jumps to jumps, negated conditions) and removes unreachable instructions,
//! renumbering every jump target and function entry. Never across a jump target: an
//! instruction that is jumped to must stay where control can arrive.

use crate::ast::UnOp;
use crate::compile::{Module, Op};
use crate::value::{self, Value};

/// Passes before the optimizer stops even if it could go on.
const MAX_PASSES: usize = 8;

/// What the optimizer did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub folded: usize,
    pub branches: usize,
    pub threaded: usize,
    pub removed: usize,
    pub passes: usize,
}

fn target(op: &Op) -> Option<u32> {
    match *op {
        Op::Jump(t) | Op::JumpIfFalse(t) | Op::JumpIfTrue(t) => Some(t),
        _ => None,
    }
}

fn retarget(op: Op, t: u32) -> Op {
    match op {
        Op::Jump(_) => Op::Jump(t),
        Op::JumpIfFalse(_) => Op::JumpIfFalse(t),
        Op::JumpIfTrue(_) => Op::JumpIfTrue(t),
        other => other,
    }
}

/// Whether control never falls through to the next instruction.
fn ends_flow(op: &Op) -> bool {
    matches!(op, Op::Jump(_) | Op::Return | Op::Halt)
}

/// Addresses that control can arrive at other than by falling through.
fn labels(m: &Module) -> Vec<bool> {
    let mut l = vec![false; m.code.len() + 1];
    for op in &m.code {
        if let Some(t) = target(op) {
            if let Some(slot) = l.get_mut(t as usize) {
                *slot = true;
            }
        }
    }
    for f in &m.functions {
        if let Some(slot) = l.get_mut(f.entry as usize) {
            *slot = true;
        }
    }
    l
}

fn int_of(op: &Op, m: &Module) -> Option<Value> {
    match *op {
        Op::Int(n) => Some(Value::Int(n)),
        Op::Const(c) => match m.consts.get(c as usize) {
            Some(Value::Int(n)) => Some(Value::Int(*n)),
            _ => None,
        },
        _ => None,
    }
}

/// One pass of rewrites in place; `Nop`s are marked in `dead`.
fn rewrite(m: &mut Module, dead: &mut [bool], stats: &mut Stats) -> bool {
    let labels = labels(m);
    let mut changed = false;
    let n = m.code.len();
    let mut i = 0;
    while i < n {
        if dead[i] {
            i += 1;
            continue;
        }
        // Int a; Int b; Binary op → Int (a op b), when it does not fail.
        if i + 2 < n && !labels[i + 1] && !labels[i + 2] && !dead[i + 1] && !dead[i + 2] {
            if let (Some(a), Some(b), Op::Binary(op)) = (int_of(&m.code[i], m), int_of(&m.code[i + 1], m), m.code[i + 2]) {
                if !op.is_logical() {
                    if let Ok(Value::Int(r)) = value::binary(op, &a, &b) {
                        m.code[i + 2] = Op::Int(r);
                        dead[i] = true;
                        dead[i + 1] = true;
                        stats.folded += 1;
                        changed = true;
                        i += 3;
                        continue;
                    }
                    if let Ok(Value::Bool(r)) = value::binary(op, &a, &b) {
                        m.code[i + 2] = Op::Bool(r);
                        dead[i] = true;
                        dead[i + 1] = true;
                        stats.folded += 1;
                        changed = true;
                        i += 3;
                        continue;
                    }
                }
            }
        }
        if i + 1 < n && !labels[i + 1] && !dead[i + 1] {
            match (m.code[i], m.code[i + 1]) {
                // A jump on a constant: always taken, or never.
                (Op::Bool(b), Op::JumpIfFalse(t)) | (Op::Bool(b), Op::JumpIfTrue(t)) => {
                    let taken = matches!(m.code[i + 1], Op::JumpIfTrue(_)) == b;
                    dead[i] = true;
                    if taken {
                        m.code[i + 1] = Op::Jump(t);
                    } else {
                        dead[i + 1] = true;
                    }
                    stats.branches += 1;
                    changed = true;
                    i += 2;
                    continue;
                }
                // `!c` then a jump: jump on `c` the other way.
                (Op::Unary(UnOp::Not), Op::JumpIfFalse(t)) => {
                    dead[i] = true;
                    m.code[i + 1] = Op::JumpIfTrue(t);
                    stats.branches += 1;
                    changed = true;
                }
                (Op::Unary(UnOp::Not), Op::JumpIfTrue(t)) => {
                    dead[i] = true;
                    m.code[i + 1] = Op::JumpIfFalse(t);
                    stats.branches += 1;
                    changed = true;
                }
                // Negating twice.
                (Op::Unary(a), Op::Unary(b)) if a == b => {
                    dead[i] = true;
                    dead[i + 1] = true;
                    stats.folded += 1;
                    changed = true;
                    i += 2;
                    continue;
                }
                _ => {}
            }
        }
        // A jump to a jump goes straight to the end of the chain.
        if let Some(mut t) = target(&m.code[i]) {
            let mut hops = 0;
            while let Some(Op::Jump(next)) = m.code.get(t as usize) {
                if *next == t || hops > n {
                    break;
                }
                t = *next;
                hops += 1;
            }
            if hops > 0 {
                m.code[i] = retarget(m.code[i], t);
                stats.threaded += 1;
                changed = true;
            }
            // A jump to the next live instruction does nothing.
            if let Op::Jump(t) = m.code[i] {
                let next_live = (i + 1..n).find(|&j| !dead[j]).unwrap_or(n);
                if t as usize == next_live {
                    dead[i] = true;
                    stats.removed += 1;
                    changed = true;
                }
            }
        }
        i += 1;
    }
    // Unreachable: after an instruction that ends the flow, until the next label.
    let mut reachable = true;
    for j in 0..n {
        if labels[j] {
            reachable = true;
        }
        if !reachable && !dead[j] {
            dead[j] = true;
            stats.removed += 1;
            changed = true;
        }
        if !dead[j] && ends_flow(&m.code[j]) {
            reachable = false;
        }
    }
    changed
}

/// Drop the dead instructions, renumbering jump targets and entries.
fn compact(m: &mut Module, dead: &[bool]) {
    let n = m.code.len();
    let mut new_index = vec![0u32; n + 1];
    let mut next = 0u32;
    for i in 0..n {
        new_index[i] = next;
        if !dead[i] {
            next += 1;
        }
    }
    new_index[n] = next;
    // A target that was removed moves to the next live instruction: new_index says so.
    let mut code = Vec::with_capacity(next as usize);
    let mut spans = Vec::with_capacity(next as usize);
    for i in 0..n {
        if dead[i] {
            continue;
        }
        let op = match target(&m.code[i]) {
            Some(t) => retarget(m.code[i], new_index[(t as usize).min(n)]),
            None => m.code[i],
        };
        code.push(op);
        spans.push(m.spans[i]);
    }
    for f in &mut m.functions {
        f.entry = new_index[(f.entry as usize).min(n)];
    }
    m.code = code;
    m.spans = spans;
}

/// Optimize a module.
pub fn optimize(module: &Module) -> (Module, Stats) {
    let mut m = module.clone();
    let mut stats = Stats::default();
    for _ in 0..MAX_PASSES {
        let mut dead = vec![false; m.code.len()];
        let changed = rewrite(&mut m, &mut dead, &mut stats);
        stats.passes += 1;
        compact(&mut m, &dead);
        if !changed {
            break;
        }
    }
    (m, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::BinOp;
    use crate::compile::compile;
    use crate::lexer::lex;
    use crate::parser::parse;
    use crate::vm;

    fn opt(src: &str) -> (Module, Module, Stats) {
        let m = compile(&parse(&lex(src).0).0);
        let (o, s) = optimize(&m);
        (m, o, s)
    }

    #[test]
    fn folds_constants_and_branches() {
        let (_, o, s) = opt("print 2 * 3 + 1; if 1 < 2 { print 1; } else { print 2; }");
        assert_eq!(o.code, [Op::Int(7), Op::Print, Op::Int(1), Op::Print, Op::Halt]);
        assert_eq!((s.folded, s.branches), (3, 1));
        assert!(s.removed >= 2, "{s:?}");
    }

    #[test]
    fn keeps_failing_operations_and_labels() {
        let (_, o, _) = opt("print 1 / 0;");
        assert_eq!(o.code, [Op::Int(1), Op::Int(0), Op::Binary(BinOp::Div), Op::Print, Op::Halt]);
        let (_, o, s) = opt("var x = 1; while x < 3 { x += 1; } print x;");
        assert_eq!(s.folded, 0, "{}", o.disassemble());
    }

    #[test]
    fn optimized_code_computes_the_same() {
        let programs = [
            "fn f(n: int) -> int { if !(n > 1) { return 1; } return n * f(n - 1); } print f(10);",
            "for i in 0..6 { if i == 2 { continue; } if !(i < 5) { break; } print i * (3 - 1); }",
            "var s = \"\"; while true { s += \"a\"; if len(s) > 3 { break; } } print s; print !!true || false;",
            "print true ? 1 + 1 : 2; print false && true; fn g() { return; } g(); print --5;",
        ];
        for p in programs {
            let (m, o, _) = opt(p);
            assert!(o.code.len() <= m.code.len());
            crate::encode::validate(&o).unwrap();
            let a = vm::run(&m, vm::Limits::default());
            let b = vm::run(&o, vm::Limits::default());
            assert_eq!((a.output, a.error.map(|e| e.message)), (b.output, b.error.map(|e| e.message)), "{p}");
        }
    }
}
