//! minilang: a small statically typed language, from source text to results. A lexer,
//! a parser to an AST, a checker (names, types, control flow), a constant folder, a
//! tree-walking interpreter, a compiler to bytecode with a stack VM, and a pretty
//! printer. Every stage reports diagnostics with spans; both back ends must agree.

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod span;
pub mod builtins;
pub mod check;
pub mod value;
pub mod fold;
pub mod interp;
pub mod pretty;
pub mod compile;
pub mod vm;
pub mod ranges;
pub mod stdlib;
