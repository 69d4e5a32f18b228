//! Walks one parsed source file: finds its sites and mutants, and plans the schema edits.

use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{AttrStyle, Attribute, BinOp, Block, Expr, Lit, Pat, ReturnType, Stmt, UnOp};

use crate::Operator;
use crate::config::Config;
use crate::fnvalue::return_values;
use crate::mutant::{Mutant, Span};
use crate::site::{Edit, Piece, Site};
use crate::skip::{SkipCounts, SkipReason, attrs_skip_reason};
use crate::source::{SourceText, squash};

/// A `mod name;` declaration whose file is still to be found.
#[derive(Clone, Debug)]
pub(crate) struct ExternalMod {
    /// Inline modules around the declaration, then the declared module, with any `#[path]`.
    pub path: Vec<(String, Option<String>)>,
}

/// What discovery found in one file.
#[derive(Debug, Default)]
pub(crate) struct FileDiscovery {
    pub sites: Vec<Site>,
    pub edits: Vec<Edit>,
    pub mutants: Vec<Mutant>,
    pub skipped: SkipCounts,
    pub external_mods: Vec<ExternalMod>,
}

/// Where a file sits: for naming functions and mutants.
pub(crate) struct FileContext<'a> {
    pub rel_path: &'a str,
    pub package: &'a str,
    /// Module path of the file from the crate root (`["parse", "lexer"]`).
    pub namespace: Vec<String>,
    pub config: &'a Config,
}

/// Discover the mutants of `file`, numbering them from `*next_id`.
pub(crate) fn discover_file(
    src: &SourceText,
    file: &syn::File,
    cx: &FileContext<'_>,
    next_id: &mut u32,
) -> FileDiscovery {
    let mut w = Walker {
        src,
        cx,
        next_id,
        namespace: cx.namespace.clone(),
        mod_stack: Vec::new(),
        function: None,
        labels: Vec::new(),
        in_default_impl: false,
        out: FileDiscovery::default(),
    };
    if let Some(reason) = attrs_skip_reason(&file.attrs) {
        w.out.skipped.add(reason);
        return w.out;
    }
    for item in &file.items {
        w.visit_item(item);
    }
    let mut out = w.out;
    out.edits.sort_by_key(|e| e.start);
    drop_overlapping(&mut out);
    out
}

/// Overlapping edits would corrupt the schema; a site that produced one is dropped whole
/// with its mutants. Discovery never plans one today; this keeps a future operator honest.
fn drop_overlapping(out: &mut FileDiscovery) {
    let mut bad_sites = Vec::new();
    let mut end = 0;
    for e in &out.edits {
        if e.start < end && e.start != e.end {
            bad_sites.extend(e.site);
        }
        end = end.max(e.end);
    }
    if bad_sites.is_empty() {
        return;
    }
    debug_assert!(false, "overlapping schema edits");
    let bad_bases: Vec<u32> = bad_sites.iter().map(|&s| out.sites[s].base).collect();
    out.edits.retain(|e| e.site.is_none_or(|s| !bad_sites.contains(&s)));
    out.mutants.retain(|m| !bad_bases.contains(&m.site));
    for &s in &bad_sites {
        out.sites[s].count = 0;
    }
}

struct Walker<'a, 'c> {
    src: &'a SourceText,
    cx: &'a FileContext<'c>,
    next_id: &'a mut u32,
    namespace: Vec<String>,
    mod_stack: Vec<(String, Option<String>)>,
    /// Qualified name of the function being walked.
    function: Option<String>,
    /// Labels in scope, and whether each names a loop (not a block).
    labels: Vec<(String, bool)>,
    in_default_impl: bool,
    out: FileDiscovery,
}

/// A mutant of a site being built, before it has an id.
struct Draft {
    span: Span,
    operator: Operator,
    original: String,
    replacement: String,
    description: String,
    /// The code evaluated when this mutant is active (for dispatching sites).
    arm: String,
}

/// Opens every function, closure and async body: reads the active mutant once into a
/// local that the body's sites compare against, and spends fuel off the original path.
const FRAME: &str = "let __m = ::mutfuzz_rt::enter(); ";
/// Opens every loop body.
const TICK: &str = "::mutfuzz_rt::tick(__m); ";

impl Walker<'_, '_> {
    fn start(&self, node: &impl Spanned) -> usize {
        self.src.offset(node.span().start())
    }

    fn end(&self, node: &impl Spanned) -> usize {
        self.src.offset(node.span().end())
    }

    fn text(&self, node: &impl Spanned) -> String {
        let span = node.span();
        squash(self.src.slice(span.start(), span.end()))
    }

    fn edit(&mut self, start: usize, end: usize, site: Option<usize>, piece: Piece) {
        self.out.edits.push(Edit { start, end, site, piece });
    }

    fn text_edit(&mut self, start: usize, end: usize, site: Option<usize>, text: impl Into<String>) {
        self.edit(start, end, site, Piece::Text(text.into()));
    }

    fn skip(&mut self, reason: SkipReason) {
        self.out.skipped.add(reason);
    }

    fn qualify(&self, name: &str) -> String {
        let mut parts = self.namespace.clone();
        parts.push(name.to_owned());
        parts.join("::")
    }

    fn draft(&self, span: Span, operator: Operator, original: &str, replacement: &str, arm: &str) -> Draft {
        let in_fn = self.function.as_deref().unwrap_or("?");
        let description = match operator {
            Operator::UnaryDelete => format!("delete {original} in {in_fn}"),
            Operator::CallDelete => format!("delete {} in {in_fn}", shorten(original)),
            Operator::IfCondition => {
                format!("replace if condition {} with {replacement} in {in_fn}", shorten(original))
            }
            Operator::MatchArmDelete => format!("delete match arm {} in {in_fn}", shorten(original)),
            Operator::MatchGuard => {
                format!("replace match guard {} with {replacement} in {in_fn}", shorten(original))
            }
            _ => format!("replace {original} with {replacement} in {in_fn}"),
        };
        Draft {
            span,
            operator,
            original: original.to_owned(),
            replacement: replacement.to_owned(),
            description,
            arm: arm.to_owned(),
        }
    }

    /// Make a site of the drafts that the config keeps; returns the site and its arms.
    fn site(&mut self, drafts: Vec<Draft>) -> Option<(usize, Vec<String>)> {
        let function = self.function.clone()?;
        let drafts: Vec<Draft> =
            drafts.into_iter().filter(|d| !self.cx.config.excludes_operator(d.operator)).collect();
        if drafts.is_empty() {
            return None;
        }
        let base = *self.next_id;
        *self.next_id += drafts.len() as u32;
        let index = self.out.sites.len();
        self.out.sites.push(Site { base, count: drafts.len() as u32 });
        let mut arms = Vec::with_capacity(drafts.len());
        for (k, d) in drafts.into_iter().enumerate() {
            arms.push(d.arm);
            self.out.mutants.push(Mutant {
                id: base + k as u32,
                site: base,
                package: self.cx.package.to_owned(),
                file: self.cx.rel_path.to_owned(),
                span: d.span,
                function: function.clone(),
                operator: d.operator,
                original: d.original,
                replacement: d.replacement,
                description: d.description,
            });
        }
        Some((index, arms))
    }

    /// Where statements can be inserted at the top of a body: after `{` and inner attributes.
    fn body_insert_point(&self, block: &Block, attrs: &[Attribute]) -> usize {
        let brace = self.src.offset(block.brace_token.span.open().end());
        attrs
            .iter()
            .filter(|a| matches!(a.style, AttrStyle::Inner(_)))
            .map(|a| self.end(a))
            .filter(|&e| e > brace)
            .fold(brace, usize::max)
    }

    /// A function, unless it is skipped: a test, `const fn`, `unsafe fn`, or marked to skip.
    fn function(&mut self, attrs: &[Attribute], sig: &syn::Signature, block: &Block, fn_value: bool) {
        if let Some(reason) = attrs_skip_reason(attrs) {
            return self.skip(reason);
        }
        if sig.constness.is_some() {
            return self.skip(SkipReason::ConstContext);
        }
        if matches!(sig.safety, syn::Safety::Unsafe(_)) && !self.cx.config.file.mutate_unsafe {
            return self.skip(SkipReason::Unsafe);
        }
        let name = self.qualify(&sig.ident.to_string());
        self.function_body(name, &sig.output, block, attrs, fn_value);
    }

    /// A function body: a depth/fuel frame, the return-value mutants, then the statements.
    fn function_body(
        &mut self,
        name: String,
        output: &ReturnType,
        block: &Block,
        attrs: &[Attribute],
        fn_value: bool,
    ) {
        if self.cx.config.excludes_function(&name) {
            self.skip(SkipReason::Config);
            return;
        }
        let saved_fn = self.function.replace(name.clone());
        let saved_labels = std::mem::take(&mut self.labels);
        let at = self.body_insert_point(block, attrs);
        self.text_edit(at, at, None, FRAME);
        if fn_value && let (Some(first), Some(last)) = (block.stmts.first(), block.stmts.last()) {
            let (s, e) = (first.span().start(), last.span().end());
            let body = squash(self.src.slice(s, e));
            let span = Span::from(first.span().join(last.span()).unwrap_or(first.span()));
            let span = Span { start: span.start, end: Span::from(last.span()).end };
            let ret = match output {
                ReturnType::Default => String::new(),
                ReturnType::Type(_, ty) => format!(" -> {}", self.text(ty)),
            };
            let drafts: Vec<Draft> = return_values(output)
                .into_iter()
                .filter(|v| *v != body)
                .map(|v| {
                    let mut d = self.draft(span, Operator::FnReturn, &body, &v, &format!("return {v}"));
                    d.description = format!("replace {name}{ret} with {v}");
                    d
                })
                .collect();
            if let Some((site, arms)) = self.site(drafts) {
                let piece =
                    Piece::Dispatch { head: String::new(), arms, default: "{}".into(), tail: " } ".into() };
                self.edit(at, at, Some(site), piece);
            }
        }
        for stmt in &block.stmts {
            self.visit_stmt(stmt);
        }
        self.labels = saved_labels;
        self.function = saved_fn;
    }

    /// A loop body: one unit of fuel per iteration.
    fn loop_body(&mut self, label: Option<&syn::Label>, block: &Block, attrs: &[Attribute]) {
        let at = self.body_insert_point(block, attrs);
        self.text_edit(at, at, None, TICK);
        self.labels.push((label.map(|l| l.name.ident.to_string()).unwrap_or_default(), true));
        for stmt in &block.stmts {
            self.visit_stmt(stmt);
        }
        self.labels.pop();
    }

    fn binary(&mut self, b: &syn::ExprBinary) {
        let op = b.op.to_token_stream().to_string().replace(' ', "");
        let (left, right) = (&*b.left, &*b.right);
        let op_span = Span::from(b.op.span());
        let replacements = crate::operator::binary_replacements(&op);
        let is_logical = matches!(b.op, BinOp::And(_) | BinOp::Or(_));
        if replacements.is_empty() || (is_logical && (contains_let(left) || contains_let(right))) {
            visit::visit_expr_binary(self, b);
            return;
        }
        let drafts = replacements
            .iter()
            .map(|&(rep, operator)| {
                let arm = if is_compound(&b.op) {
                    format!("__place!() {rep} __r")
                } else {
                    format!("__l {rep} __r")
                };
                self.draft(op_span, operator, &op, rep, &arm)
            })
            .collect();
        let Some((site, arms)) = self.site(drafts) else {
            visit::visit_expr_binary(self, b);
            return;
        };
        let (l_start, l_end, r_start, r_end) =
            (self.start(left), self.end(left), self.start(right), self.end(right));
        let s = Some(site);
        if is_logical {
            // `a && b` is `if a == false { a } else { b }`; the mutant flips the test.
            let want = if matches!(b.op, BinOp::And(_)) { "== 1" } else { "!= 1" };
            self.text_edit(l_start, l_start, s, "({ let __l: bool = ");
            self.visit_expr(left);
            let piece =
                Piece::Call { before: "; if __l == (".into(), after: format!(" {want}) {{ __l }} else {{ ") };
            self.edit(l_end, r_start, s, piece);
            self.visit_expr(right);
            self.text_edit(r_end, r_end, s, " } })");
            return;
        }
        let (open, mid, head, default, tail) = if is_compound(&b.op) {
            // The right side is evaluated first, as for primitive compound assignment; the
            // place is written once, inside a local macro, so it is not copied.
            (
                "{ macro_rules! __place { () => (",
                ") } let __r = ",
                "; ",
                format!("__place!() {op} __r"),
                " } }",
            )
        } else if is_comparison(&b.op) {
            // Comparisons take their operands by reference.
            ("({ let (__l, __r) = (&(", "), &(", ")); ", format!("__l {op} __r"), " } })")
        } else {
            ("({ let (__l, __r) = (", ", ", "); ", format!("__l {op} __r"), " } })")
        };
        self.text_edit(l_start, l_start, s, open);
        self.visit_expr(left);
        self.text_edit(l_end, r_start, s, mid);
        self.visit_expr(right);
        let piece = Piece::Dispatch { head: head.into(), arms, default, tail: tail.into() };
        self.edit(r_end, r_end, s, piece);
    }

    fn unary(&mut self, u: &syn::ExprUnary) {
        let op = match u.op {
            UnOp::Not(_) => "!",
            UnOp::Neg(_) => "-",
            _ => {
                visit::visit_expr_unary(self, u);
                return;
            }
        };
        let draft = self.draft(Span::from(u.op.span()), Operator::UnaryDelete, op, "", "__v");
        let Some((site, arms)) = self.site(vec![draft]) else {
            visit::visit_expr_unary(self, u);
            return;
        };
        let (start, inner_start, inner_end) = (self.start(u), self.start(&*u.expr), self.end(&*u.expr));
        self.text_edit(start, inner_start, Some(site), "({ let __v = ");
        self.visit_expr(&u.expr);
        let piece =
            Piece::Dispatch { head: "; ".into(), arms, default: format!("{op}__v"), tail: " } })".into() };
        self.edit(inner_end, inner_end, Some(site), piece);
    }

    fn literal(&mut self, l: &syn::ExprLit) {
        let (start, end) = (self.start(l), self.end(l));
        let span = Span::from(l.span());
        let original = self.src.text()[start..end].to_owned();
        match &l.lit {
            Lit::Int(int) => {
                let Ok(v) = int.base10_parse::<u128>() else { return };
                let suffix = int.suffix();
                let mut values = Vec::new();
                if v != 0 {
                    values.push(0);
                }
                values.extend(v.checked_add(1));
                if v > 1 {
                    values.push(v - 1);
                }
                let drafts = values
                    .into_iter()
                    .map(|n| {
                        let rep = format!("{n}{suffix}");
                        self.draft(span, Operator::IntLiteral, &original, &rep, &rep)
                    })
                    .collect();
                if let Some((site, arms)) = self.site(drafts) {
                    let piece = Piece::Dispatch {
                        head: "(".into(),
                        arms,
                        default: original.clone(),
                        tail: " })".into(),
                    };
                    self.edit(start, end, Some(site), piece);
                }
            }
            Lit::Bool(b) => {
                let rep = if b.value { "false" } else { "true" };
                let draft = self.draft(span, Operator::BoolLiteral, &original, rep, rep);
                if let Some((site, _)) = self.site(vec![draft]) {
                    let after = if b.value { " == 0)" } else { " != 0)" };
                    let piece = Piece::Call { before: "(".into(), after: after.into() };
                    self.edit(start, end, Some(site), piece);
                }
            }
            _ => {}
        }
    }

    /// `(match at(..) { 1 => true, 2 => false, _ => COND })` around a condition or guard.
    fn forced_bool(&mut self, cond: &Expr, operator: Operator) {
        if contains_let(cond) {
            self.visit_expr(cond);
            return;
        }
        let original = self.text(cond);
        let span = Span::from(cond.span());
        let drafts = ["true", "false"].iter().map(|v| self.draft(span, operator, &original, v, v)).collect();
        let Some((site, arms)) = self.site(drafts) else {
            self.visit_expr(cond);
            return;
        };
        let (start, end) = (self.start(cond), self.end(cond));
        let piece = Piece::Dispatch { head: "(".into(), arms, default: String::new(), tail: String::new() };
        self.edit(start, start, Some(site), piece);
        self.visit_expr(cond);
        self.text_edit(end, end, Some(site), " })");
    }

    fn match_expr(&mut self, m: &syn::ExprMatch) {
        self.visit_expr(&m.expr);
        let split = |p: &'_ Pat| -> (Pat, Option<Expr>) {
            match p {
                Pat::Guard(g) => ((*g.pat).clone(), Some((*g.guard).clone())),
                p => (p.clone(), None),
            }
        };
        let has_wildcard = m.arms.iter().any(|a| matches!(a.pat, Pat::Wild(_)));
        for arm in &m.arms {
            if let Some(reason) = attrs_skip_reason(&arm.attrs) {
                self.skip(reason);
                continue;
            }
            let (pat, guard) = split(&arm.pat);
            match &guard {
                Some(guard) => self.forced_bool(guard, Operator::MatchGuard),
                None if has_wildcard && !matches!(pat, Pat::Wild(_)) => {
                    let pat_text = self.text(&pat);
                    let span =
                        Span { start: Span::from(pat.span()).start, end: Span::from(arm.body.span()).end };
                    let draft = self.draft(span, Operator::MatchArmDelete, &pat_text, "", "");
                    if let Some((site, _)) = self.site(vec![draft]) {
                        let at = self.end(&pat);
                        let piece = Piece::Call { before: " if ".into(), after: " == 0".into() };
                        self.edit(at, at, Some(site), piece);
                    }
                }
                None => {}
            }
            self.visit_expr(&arm.body);
        }
    }

    fn range(&mut self, r: &syn::ExprRange) {
        let Some(end_expr) = &r.end else {
            visit::visit_expr_range(self, r);
            return;
        };
        let closed = matches!(r.limits, syn::RangeLimits::Closed(_));
        let (orig, rep) = if closed { ("..=", "..") } else { ("..", "..=") };
        let (arm, default) = if closed { ("..=(__r - 1)", "..=__r") } else { ("..(__r + 1)", "..__r") };
        let limits_span = match &r.limits {
            syn::RangeLimits::HalfOpen(t) => t.span(),
            syn::RangeLimits::Closed(t) => t.span(),
        };
        let draft = self.draft(Span::from(limits_span), Operator::RangeLimitSwap, orig, rep, "");
        let Some((site, _)) = self.site(vec![draft]) else {
            visit::visit_expr_range(self, r);
            return;
        };
        let s = Some(site);
        let (end_start, end_end) = (self.start(&**end_expr), self.end(&**end_expr));
        let (arm, default) = match &r.start {
            Some(start_expr) => {
                let (ss, se) = (self.start(&**start_expr), self.end(&**start_expr));
                self.text_edit(ss, ss, s, "({ let (__l, __r) = (");
                self.visit_expr(start_expr);
                self.text_edit(se, end_start, s, ", ");
                (format!("__l{arm}"), format!("__l{default}"))
            }
            None => {
                let start = self.start(r);
                self.text_edit(start, end_start, s, "({ let __r = (");
                (arm.to_owned(), default.to_owned())
            }
        };
        self.visit_expr(end_expr);
        let piece = Piece::Dispatch { head: "); ".into(), arms: vec![arm], default, tail: " } })".into() };
        self.edit(end_end, end_end, s, piece);
    }

    /// `break` ↔ `continue`, with the same label.
    fn jump(&mut self, e: &Expr, label: Option<&syn::Lifetime>, is_break: bool) {
        let label_name = label.map(|l| l.ident.to_string()).unwrap_or_default();
        // A label must name a loop in scope (a labelled block cannot be continued).
        let targets_loop = match label {
            None => self.labels.iter().any(|(_, is_loop)| *is_loop),
            Some(_) => self.labels.iter().rev().find(|(n, _)| *n == label_name).is_some_and(|(_, l)| *l),
        };
        if !targets_loop {
            return;
        }
        let (orig, rep) = if is_break { ("break", "continue") } else { ("continue", "break") };
        let keyword_span = match e {
            Expr::Break(b) => b.break_token.span,
            Expr::Continue(c) => c.continue_token.span,
            _ => e.span(),
        };
        let draft = self.draft(Span::from(keyword_span), Operator::BreakContinueSwap, orig, rep, "");
        if let Some((site, _)) = self.site(vec![draft]) {
            let lbl = label.map(|l| format!(" '{}", l.ident)).unwrap_or_default();
            let piece = Piece::Call {
                before: "(if ".into(),
                after: format!(" == 0 {{ {orig}{lbl} }} else {{ {rep}{lbl} }})"),
            };
            let (start, end) = (self.start(e), self.end(e));
            self.edit(start, end, Some(site), piece);
        }
    }

    fn closure(&mut self, c: &syn::ExprClosure) {
        if c.constness.is_some() {
            self.skip(SkipReason::ConstContext);
            return;
        }
        // A closure reads the switch itself rather than capturing the enclosing `__m`: a
        // returned closure must not borrow its creator's locals.
        let saved_labels = std::mem::take(&mut self.labels);
        match &*c.body {
            Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
                let at = self.body_insert_point(&b.block, &[]);
                self.text_edit(at, at, None, FRAME);
                for stmt in &b.block.stmts {
                    self.visit_stmt(stmt);
                }
            }
            body => {
                let (start, end) = (self.start(body), self.end(body));
                self.text_edit(start, start, None, format!("{{ {FRAME}"));
                self.visit_expr(body);
                self.text_edit(end, end, None, " }");
            }
        }
        self.labels = saved_labels;
    }

    fn call_statement(&mut self, e: &Expr, semi: &syn::Token![;]) {
        let callee = match e {
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                _ => None,
            },
            Expr::MethodCall(m) => Some(m.method.to_string()),
            _ => None,
        };
        let keep = callee.as_deref().is_some_and(|name| {
            !matches!(
                name,
                "exit"
                    | "abort"
                    | "panic_any"
                    | "resume_unwind"
                    | "unreachable_unchecked"
                    | "drop"
                    | "forget"
            )
        });
        if keep {
            let start = self.start(e);
            let end = self.src.offset(semi.span.end());
            let stmt_text = format!("{};", self.text(e));
            let span = Span { start: Span::from(e.span()).start, end: Span::from(semi.span).end };
            let draft = self.draft(span, Operator::CallDelete, &stmt_text, "", "");
            if let Some((site, _)) = self.site(vec![draft]) {
                let piece = Piece::Call { before: "if ".into(), after: " == 0 { ".into() };
                self.edit(start, start, Some(site), piece);
                self.visit_expr(e);
                self.text_edit(end, end, Some(site), " }");
                return;
            }
        }
        self.visit_expr(e);
    }
}

fn is_compound(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
            | BinOp::RemAssign(_)
            | BinOp::BitXorAssign(_)
            | BinOp::BitAndAssign(_)
            | BinOp::BitOrAssign(_)
            | BinOp::ShlAssign(_)
            | BinOp::ShrAssign(_)
    )
}

fn is_comparison(op: &BinOp) -> bool {
    matches!(op, BinOp::Eq(_) | BinOp::Ne(_) | BinOp::Lt(_) | BinOp::Le(_) | BinOp::Gt(_) | BinOp::Ge(_))
}

/// Does this condition bind with `let` (an `if let` or a let chain)?
fn contains_let(e: &Expr) -> bool {
    match e {
        Expr::Let(_) => true,
        Expr::Binary(b) if matches!(b.op, BinOp::And(_) | BinOp::Or(_)) => {
            contains_let(&b.left) || contains_let(&b.right)
        }
        Expr::Paren(p) => contains_let(&p.expr),
        Expr::Group(g) => contains_let(&g.expr),
        _ => false,
    }
}

fn shorten(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        let cut: String = s.chars().take(MAX - 1).collect();
        format!("{cut}…")
    }
}

/// The outer attributes of an expression, where it can carry them.
fn expr_attrs(e: &Expr) -> &[Attribute] {
    match e {
        Expr::Array(x) => &x.attrs,
        Expr::Assign(x) => &x.attrs,
        Expr::Async(x) => &x.attrs,
        Expr::Await(x) => &x.attrs,
        Expr::Binary(x) => &x.attrs,
        Expr::Block(x) => &x.attrs,
        Expr::Break(x) => &x.attrs,
        Expr::Call(x) => &x.attrs,
        Expr::Cast(x) => &x.attrs,
        Expr::Closure(x) => &x.attrs,
        Expr::Continue(x) => &x.attrs,
        Expr::Field(x) => &x.attrs,
        Expr::ForLoop(x) => &x.attrs,
        Expr::If(x) => &x.attrs,
        Expr::Index(x) => &x.attrs,
        Expr::Lit(x) => &x.attrs,
        Expr::Loop(x) => &x.attrs,
        Expr::Match(x) => &x.attrs,
        Expr::MethodCall(x) => &x.attrs,
        Expr::Paren(x) => &x.attrs,
        Expr::Range(x) => &x.attrs,
        Expr::Reference(x) => &x.attrs,
        Expr::Return(x) => &x.attrs,
        Expr::Struct(x) => &x.attrs,
        Expr::Try(x) => &x.attrs,
        Expr::Tuple(x) => &x.attrs,
        Expr::Unary(x) => &x.attrs,
        Expr::While(x) => &x.attrs,
        _ => &[],
    }
}

impl<'ast> Visit<'ast> for Walker<'_, '_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        use syn::Item;
        match item {
            Item::Fn(f) => self.function(&f.attrs, &f.sig, &f.block, true),
            Item::Impl(i) => {
                if let Some(reason) = attrs_skip_reason(&i.attrs) {
                    return self.skip(reason);
                }
                let ty = self.text(&*i.self_ty);
                let (name, is_default) = match &i.trait_ {
                    Some((path, _)) => {
                        let tr = path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
                        (format!("<impl {tr} for {ty}>"), tr == "Default")
                    }
                    None => (ty, false),
                };
                self.namespace.push(name);
                let saved = std::mem::replace(&mut self.in_default_impl, is_default);
                for it in &i.items {
                    self.visit_impl_item(it);
                }
                self.in_default_impl = saved;
                self.namespace.pop();
            }
            Item::Trait(t) => {
                if let Some(reason) = attrs_skip_reason(&t.attrs) {
                    return self.skip(reason);
                }
                self.namespace.push(t.ident.to_string());
                for it in &t.items {
                    self.visit_trait_item(it);
                }
                self.namespace.pop();
            }
            Item::Mod(m) => {
                if let Some(reason) = attrs_skip_reason(&m.attrs) {
                    return self.skip(reason);
                }
                let path_attr =
                    m.attrs.iter().find(|a| a.path().is_ident("path")).and_then(|a| match &a.meta {
                        syn::Meta::NameValue(nv) => match &nv.value {
                            Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) => Some(s.value()),
                            _ => None,
                        },
                        _ => None,
                    });
                let name = m.ident.to_string();
                self.mod_stack.push((name.clone(), path_attr));
                self.namespace.push(name);
                match &m.content {
                    Some((_, items)) => {
                        for it in items {
                            self.visit_item(it);
                        }
                    }
                    None => self.out.external_mods.push(ExternalMod { path: self.mod_stack.clone() }),
                }
                self.namespace.pop();
                self.mod_stack.pop();
            }
            Item::Const(_) | Item::Static(_) => self.skip(SkipReason::ConstContext),
            Item::Enum(e) if e.variants.iter().any(|v| v.discriminant.is_some()) => {
                self.skip(SkipReason::ConstContext)
            }
            Item::Macro(_) => self.skip(SkipReason::MacroBody),
            _ => {}
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        match item {
            syn::ImplItem::Fn(f) => {
                // Like cargo-mutants: constructors and `Default` impls rarely have another value.
                let fn_value = f.sig.ident != "new" && !self.in_default_impl;
                self.function(&f.attrs, &f.sig, &f.block, fn_value);
            }
            syn::ImplItem::Const(_) => self.skip(SkipReason::ConstContext),
            syn::ImplItem::Macro(_) => self.skip(SkipReason::MacroBody),
            _ => {}
        }
    }

    fn visit_trait_item(&mut self, item: &'ast syn::TraitItem) {
        match item {
            syn::TraitItem::Fn(f) => {
                if let Some(block) = &f.default {
                    self.function(&f.attrs, &f.sig, block, f.sig.ident != "new");
                }
            }
            syn::TraitItem::Const(c) if c.default.is_some() => self.skip(SkipReason::ConstContext),
            syn::TraitItem::Macro(_) => self.skip(SkipReason::MacroBody),
            _ => {}
        }
    }

    fn visit_stmt(&mut self, stmt: &'ast Stmt) {
        match stmt {
            Stmt::Local(local) => {
                if let Some(reason) = attrs_skip_reason(&local.attrs) {
                    return self.skip(reason);
                }
                if let Some(init) = &local.init {
                    self.visit_expr(&init.expr);
                    if let Some((_, diverge)) = &init.diverge {
                        self.visit_expr(diverge);
                    }
                }
            }
            Stmt::Item(item) => {
                // A nested item is named from the module, not the enclosing function.
                let saved = self.function.take();
                self.visit_item(item);
                self.function = saved;
            }
            Stmt::Macro(_) => self.skip(SkipReason::MacroBody),
            Stmt::Expr(e, semi) => {
                if let Some(reason) = attrs_skip_reason(expr_attrs(e)) {
                    return self.skip(reason);
                }
                match (e, semi) {
                    (Expr::Call(_) | Expr::MethodCall(_), Some(semi)) => self.call_statement(e, semi),
                    _ => self.visit_expr(e),
                }
            }
        }
    }

    fn visit_expr(&mut self, e: &'ast Expr) {
        if let Some(reason) = attrs_skip_reason(expr_attrs(e)) {
            return self.skip(reason);
        }
        match e {
            Expr::Binary(b) => self.binary(b),
            Expr::Unary(u) => self.unary(u),
            Expr::Lit(l) => self.literal(l),
            Expr::If(i) => {
                self.forced_bool(&i.cond, Operator::IfCondition);
                self.visit_block(&i.then_branch);
                if let Some((_, else_branch)) = &i.else_branch {
                    self.visit_expr(else_branch);
                }
            }
            Expr::Match(m) => self.match_expr(m),
            Expr::Range(r) => self.range(r),
            Expr::Break(b) if b.expr.is_none() => self.jump(e, b.label.as_ref(), true),
            Expr::Continue(c) => self.jump(e, c.label.as_ref(), false),
            Expr::Closure(c) => self.closure(c),
            Expr::ForLoop(f) => {
                self.visit_expr(&f.expr);
                self.loop_body(f.label.as_ref(), &f.body, &f.attrs);
            }
            Expr::While(w) => {
                self.visit_expr(&w.cond);
                self.loop_body(w.label.as_ref(), &w.body, &w.attrs);
            }
            Expr::Loop(l) => self.loop_body(l.label.as_ref(), &l.body, &l.attrs),
            Expr::Block(b) => {
                self.labels
                    .push((b.label.as_ref().map(|l| l.name.ident.to_string()).unwrap_or_default(), false));
                self.visit_block(&b.block);
                self.labels.pop();
            }
            Expr::Macro(_) => self.skip(SkipReason::MacroBody),
            Expr::Async(a) => {
                // Like a closure: the future may outlive the function that made it.
                let saved_labels = std::mem::take(&mut self.labels);
                let at = self.body_insert_point(&a.block, &a.attrs);
                self.text_edit(at, at, None, FRAME);
                for stmt in &a.block.stmts {
                    self.visit_stmt(stmt);
                }
                self.labels = saved_labels;
            }
            Expr::Unsafe(u) => {
                if self.cx.config.file.mutate_unsafe {
                    self.visit_block(&u.block);
                } else {
                    self.skip(SkipReason::Unsafe);
                }
            }
            Expr::Const(_) => self.skip(SkipReason::ConstContext),
            Expr::Repeat(r) => {
                self.visit_expr(&r.expr);
                self.skip(SkipReason::ConstContext);
            }
            _ => visit::visit_expr(self, e),
        }
    }

    // Patterns, types, paths' generic arguments and attributes are never mutated: they
    // are patterns or const contexts (array lengths, const generics).
    fn visit_pat(&mut self, _: &'ast Pat) {}
    fn visit_type(&mut self, _: &'ast syn::Type) {}
    fn visit_path_arguments(&mut self, _: &'ast syn::PathArguments) {}
    fn visit_attribute(&mut self, _: &'ast Attribute) {}
    fn visit_macro(&mut self, _: &'ast syn::Macro) {}
}
