//! minilang: a small statically typed language, from source text to results. A lexer,
//! a parser to an AST, a checker (names, types, control flow), a range analysis, a
//! constant folder, a tree-walking interpreter, a compiler to bytecode with a peephole
//! optimizer, a binary module format and a stack VM, a pretty printer and metrics.
//! Every stage reports diagnostics with spans; the back ends must agree.

pub mod ast;
pub mod builtins;
pub mod check;
pub mod compile;
pub mod encode;
pub mod fold;
pub mod interp;
pub mod lexer;
pub mod metrics;
pub mod parser;
pub mod peephole;
pub mod pretty;
pub mod ranges;
pub mod span;
pub mod stdlib;
pub mod value;
pub mod vm;

use span::Diagnostic;

/// How a run ended, as the user sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It ran to the end.
    Finished,
    /// A run-time error, rendered `line:col: message`.
    Failed(String),
    /// A limit (steps, depth, lines) stopped it.
    Stopped(String),
}

/// One back end's run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    pub output: Vec<String>,
    pub ending: Ending,
}

/// Everything the pipeline makes of a source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Tokens, `Eof` included.
    pub tokens: usize,
    /// Lexer, parser and checker errors, rendered with line and column.
    pub errors: Vec<String>,
    /// Checker and range-analysis warnings.
    pub warnings: Vec<String>,
    /// The program printed back (only for a program that parses).
    pub pretty: Option<String>,
    /// The folded program, and the folder's and the peephole optimizer's counts.
    pub folded: Option<String>,
    pub folds: usize,
    pub peephole: usize,
    /// Instructions, and the size of the encoded module.
    pub code: usize,
    pub bytes: usize,
    pub metrics: Vec<String>,
    /// The interpreter's run, and the VM's on the optimized code (for a checked program).
    pub interp: Option<Execution>,
    pub vm: Option<Execution>,
}

fn is_limit(message: &str) -> bool {
    message.contains("limit of") || message.contains("lines printed") || message == "stack overflow"
}

fn execution(output: Vec<String>, error: Option<Diagnostic>, source: &str) -> Execution {
    let ending = match error {
        None => Ending::Finished,
        Some(d) if is_limit(&d.message) => Ending::Stopped(d.message),
        Some(d) => Ending::Failed(d.render(source)),
    };
    Execution { output, ending }
}

/// Run `source` through every stage that applies: lex, parse, check, analyse, fold,
/// compile, optimize, encode and decode, and run on both back ends.
pub fn pipeline(source: &str) -> Outcome {
    let (tokens, lex_errors) = lexer::lex(source);
    let (program, parse_errors) = parser::parse(&tokens);
    let mut errors: Vec<Diagnostic> = lex_errors;
    errors.extend(parse_errors);
    let mut out = Outcome {
        tokens: tokens.len(),
        errors: Vec::new(),
        warnings: Vec::new(),
        pretty: None,
        folded: None,
        folds: 0,
        peephole: 0,
        code: 0,
        bytes: 0,
        metrics: Vec::new(),
        interp: None,
        vm: None,
    };
    if !errors.is_empty() {
        out.errors = errors.iter().map(|d| d.render(source)).collect();
        // The first error shown in full, with its source lines.
        if let Some(first) = errors.first() {
            out.errors.push(first.excerpt(source));
        }
        return out;
    }
    out.pretty = Some(pretty::program(&program));
    out.metrics = metrics::summary(&metrics::measure(&program));
    let report = check::check(&program);
    out.warnings = report.warnings.iter().map(|d| d.render_as(source, "warning")).collect();
    if !report.errors.is_empty() {
        out.errors = report.errors.iter().map(|d| d.render(source)).collect();
        return out;
    }
    out.warnings.extend(ranges::analyse(&program).iter().map(|d| d.render_as(source, "warning")));
    let (folded, stats) = fold::fold(&program);
    out.folded = Some(pretty::program(&folded));
    out.folds = stats.total();
    let module = compile::compile(&folded);
    let (optimized, pstats) = peephole::optimize(&module);
    out.peephole = pstats.folded + pstats.branches + pstats.threaded + pstats.removed;
    out.code = optimized.code.len();
    let bytes = encode::encode(&optimized);
    out.bytes = bytes.len();
    let loaded = encode::decode(&bytes).expect("a module encoded here decodes");
    let it = interp::run(&program, interp::Limits::default());
    out.interp = Some(execution(it.output, it.error, source));
    let run = vm::run(&loaded, vm::Limits::default());
    out.vm = Some(execution(run.output, run.error, source));
    out
}

/// Whether the two back ends agree: same lines and same error, unless a limit (which
/// each counts its own way) stopped one of them.
pub fn agree(o: &Outcome) -> bool {
    match (&o.interp, &o.vm) {
        (Some(a), Some(b)) => match (&a.ending, &b.ending) {
            (Ending::Stopped(_), _) | (_, Ending::Stopped(_)) => {
                let n = a.output.len().min(b.output.len());
                a.output[..n] == b.output[..n]
            }
            _ => a == b,
        },
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_goes_through_every_stage() {
        let o = pipeline("fn sq(n: int) -> int { return n * n; }\nvar t = 0;\nfor i in 0..4 { t += sq(i) + 0; }\nprint t;\nprint roman(t);\n");
        assert!(o.errors.is_empty(), "{:?}", o.errors);
        assert_eq!(o.interp.as_ref().unwrap().output, ["14", "XIV"]);
        assert_eq!(o.interp, o.vm);
        assert!(agree(&o));
        assert_eq!(o.folds, 1);
        assert!(o.bytes > o.code && o.metrics.len() == 2);
    }

    #[test]
    fn errors_stop_the_pipeline_where_they_are_found() {
        let o = pipeline("print 1 +;");
        assert_eq!(o.errors[0], "1:10: Parse error: expected an expression, found `;`");
        assert_eq!(o.errors[1], format!("{}\n1 | print 1 +;\n  |          ^\n", o.errors[0]));
        assert!(o.pretty.is_none());
        let o = pipeline("let x = 1;\nprint y;");
        assert_eq!(o.errors, ["2:7: Check error: undeclared variable `y`"]);
        assert_eq!(o.warnings, ["1:1: Check warning: unused variable `x`"]);
        let o = pipeline("print 1;\nprint 10 / (2 - 2);");
        let failed = Ending::Failed("2:7: Run error: division by zero".into());
        assert_eq!(o.interp.as_ref().unwrap().ending, failed);
        assert_eq!(o.vm.as_ref().unwrap().ending, failed);
    }

    #[test]
    fn limits_are_reported_apart_from_errors() {
        let o = pipeline("var i = 0; while true { i += 1; }");
        assert!(matches!(o.interp.as_ref().unwrap().ending, Ending::Stopped(_)));
        assert!(matches!(o.vm.as_ref().unwrap().ending, Ending::Stopped(_)));
        assert!(agree(&o));
    }
}
