//! Walks one parsed source file: syntax → drafts (the mutants of each site) → the site's
//! schema shape spliced around the user's code; then numbers the mutants.

mod numbering;
mod sites;

use numbering::{Draft, PlannedSite, Walked};

use std::collections::HashMap;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{AttrStyle, Attribute, Block, Expr, Lit, ReturnType, Stmt};

use crate::Operator;
use crate::config::Config;
use crate::equivalent::{Fold, folded_range};
use crate::fnvalue::return_values;
use crate::modules::{Candidate, ModDir};
use crate::mutant::{Mutant, SourceRange};
use crate::shape::{self, Piece, Shape};
use crate::site::{Site, Splice};
use crate::skip::{SkipCounts, SkipReason, attrs_skip_reason};
use crate::source::{SourceText, squash};
use crate::syntax::{callee_name, cfg_features, expr_attrs, path_attr, shorten, unparen};

/// A `mod name;` declaration whose file is still to be found.
#[derive(Clone, Debug)]
pub(crate) struct ExternalMod {
    /// Module path of the declared module from the crate root.
    pub namespace: Vec<String>,
    /// Its name as written (`r#match`).
    pub name: String,
    /// Line of the declaration.
    pub line: usize,
    /// The files it may be in, in the order rustc tries them.
    pub candidates: Vec<Candidate>,
    /// The features the `cfg`s around the declaration and on it ask for.
    pub features: Vec<String>,
}

/// What discovery found in one file.
#[derive(Debug, Default)]
pub(crate) struct FileDiscovery {
    pub sites: Vec<Site>,
    pub splices: Vec<Splice>,
    pub mutants: Vec<Mutant>,
    pub skipped: SkipCounts,
    pub external_mods: Vec<ExternalMod>,
    pub warnings: Vec<String>,
}

/// Where a file sits: for naming functions and mutants, and finding its modules' files.
pub(crate) struct FileContext<'a> {
    pub rel_path: &'a str,
    pub package: &'a str,
    /// Module path of the file from the crate root (`["parse", "lexer"]`).
    pub namespace: Vec<String>,
    /// Where the file's `mod name;` declarations resolve.
    pub mod_dir: ModDir,
    pub config: &'a Config,
    /// The features the `cfg`s on the way to the file ask for.
    pub features: Vec<String>,
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
        namespace: cx.namespace.clone(),
        mod_dir: cx.mod_dir.clone(),
        function: None,
        features: cx.features.clone(),
        labels: Vec::new(),
        in_default_impl: false,
        folded_starts: HashMap::new(),
        out: Walked::default(),
    };
    if let Some(reason) = attrs_skip_reason(&file.attrs) {
        w.out.skipped.add(reason);
    } else {
        for item in &file.items {
            w.visit_item(item);
        }
    }
    w.out.number(cx, next_id)
}

struct Walker<'a, 'c> {
    src: &'a SourceText,
    cx: &'a FileContext<'c>,
    namespace: Vec<String>,
    mod_dir: ModDir,
    /// Qualified name of the function being walked.
    function: Option<String>,
    /// The features the `cfg`s around the code being walked ask for.
    features: Vec<String>,
    /// Labels in scope, and whether each names a loop (not a block).
    labels: Vec<(String, bool)>,
    in_default_impl: bool,
    /// Start literals (by byte offset) of ranges that are summed or multiplied.
    folded_starts: HashMap<usize, Fold>,
    out: Walked,
}

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

    fn skip(&mut self, reason: SkipReason) {
        self.out.skipped.add(reason);
    }

    fn qualify(&self, name: &str) -> String {
        let mut parts = self.namespace.clone();
        parts.push(name.to_owned());
        parts.join("::")
    }

    /// A mutant of the site at `range`, described in cargo-mutants' words where it has them.
    fn draft(&self, range: SourceRange, operator: Operator, original: &str, replacement: &str) -> Draft {
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
            range,
            operator,
            original: original.to_owned(),
            replacement: replacement.to_owned(),
            description,
            probe: operator.has_infection_probe(),
        }
    }

    /// Make a site of the drafts that the config keeps; returns the site and the
    /// replacements of its mutants, in id order, for its shape.
    fn site(&mut self, drafts: Vec<Draft>) -> Option<(usize, Vec<String>)> {
        let function = self.function.clone()?;
        let config = self.cx.config;
        let drafts: Vec<Draft> =
            drafts.into_iter().filter(|d| !config.excludes_operator(d.operator)).collect();
        if drafts.is_empty() {
            return None;
        }
        let replacements = drafts.iter().map(|d| d.replacement.clone()).collect();
        let features = self.features.clone();
        self.out.sites.push(PlannedSite { function, drafts, features, cancelled: false });
        Some((self.out.sites.len() - 1, replacements))
    }

    /// Splice `shape` over the source bytes `start..end`, keeping the user's code of each
    /// of `holes` (in source order, inside the range) and walking it in between: so a
    /// nested site's splices lie inside a hole, opening after and closing before its
    /// parent's, and never overlap them.
    fn place(&mut self, site: Option<usize>, shape: Shape, start: usize, end: usize, holes: &[&Expr]) {
        let ranges: Vec<(usize, usize)> = holes.iter().map(|h| (self.start(*h), self.end(*h))).collect();
        let mut pos = start;
        let in_order = ranges.iter().all(|&(s, e)| {
            let ok = pos <= s && s <= e;
            pos = e;
            ok
        }) && pos <= end;
        if shape.holes() != holes.len() || !in_order {
            if let Some(s) = site {
                self.out.cancel(self.cx, s, "its operands are out of order");
            }
            for h in holes {
                self.visit_expr(h);
            }
            return;
        }
        let mut pieces = shape.into_pieces().into_iter();
        let mut pos = start;
        for (hole, (hole_start, hole_end)) in holes.iter().zip(ranges) {
            self.splice(pos, hole_start, site, pieces.next().expect("a piece before each hole"));
            self.visit_expr(hole);
            pos = hole_end;
        }
        self.splice(pos, end, site, pieces.next().expect("a piece after the last hole"));
    }

    fn splice(&mut self, start: usize, end: usize, site: Option<usize>, piece: Piece) {
        if start < end || !piece.is_empty() {
            self.out.splices.push(Splice { start, end, site, piece });
        }
    }

    /// Insert a shape without holes at `at`.
    fn insert(&mut self, at: usize, site: Option<usize>, shape: Shape) {
        self.place(site, shape, at, at, &[]);
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
        let outer = self.features.len();
        self.features.extend(cfg_features(attrs));
        self.function_body(name, &sig.output, block, attrs, fn_value);
        self.features.truncate(outer);
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
        let twice = can_compile_twice(Some(output), false, |o| o.visit_block(block));
        let first_site = self.out.sites.len();
        let frame = self.out.splices.len();
        self.insert(at, None, shape::frame());
        if fn_value && let (Some(first), Some(last)) = (block.stmts.first(), block.stmts.last()) {
            let body = squash(self.src.slice(first.span().start(), last.span().end()));
            let range = SourceRange {
                start: SourceRange::from(first.span()).start,
                end: SourceRange::from(last.span()).end,
            };
            let ret = match output {
                ReturnType::Default => String::new(),
                ReturnType::Type(_, ty) => format!(" -> {}", self.text(ty)),
            };
            let drafts: Vec<Draft> = return_values(output, self.cx.config.error_values())
                .into_iter()
                .filter(|v| *v != body)
                .map(|v| {
                    let mut d = self.draft(range, Operator::FnReturn, &body, &v);
                    d.description = format!("replace {name}{ret} with {v}");
                    d
                })
                .collect();
            if let Some((site, values)) = self.site(drafts) {
                self.insert(at, Some(site), shape::return_values(&values));
            }
        }
        for stmt in &block.stmts {
            self.visit_stmt(stmt);
        }
        if twice {
            self.compile_twice(frame, first_site, block);
        }
        self.labels = saved_labels;
        self.function = saved_fn;
    }

    /// Turn the frame splice `frame` of `block`, whose sites were planned from
    /// `first_site` on, into [`shape::twice_frame`] and close it before the `}`; a body
    /// without sites keeps its one copy.
    fn compile_twice(&mut self, frame: usize, first_site: usize, block: &Block) {
        let sites = first_site..self.out.sites.len();
        if !sites.is_empty() {
            self.out.splices[frame].piece = shape::twice_frame(sites).into_pieces().remove(0);
            let close = self.src.offset(block.brace_token.span.close().start());
            self.insert(close, None, shape::twice_close());
        }
    }

    /// A loop body: one unit of fuel per iteration.
    fn loop_body(&mut self, label: Option<&syn::Label>, block: &Block, attrs: &[Attribute]) {
        let at = self.body_insert_point(block, attrs);
        self.insert(at, None, shape::tick());
        self.labels.push((label.map(|l| l.name.ident.to_string()).unwrap_or_default(), true));
        for stmt in &block.stmts {
            self.visit_stmt(stmt);
        }
        self.labels.pop();
    }

    /// A closure reads the switch itself rather than capturing the enclosing `__m`: a
    /// returned closure must not borrow its creator's locals.
    fn closure(&mut self, c: &syn::ExprClosure) {
        if c.constness.is_some() {
            self.skip(SkipReason::ConstContext);
            return;
        }
        let saved_labels = std::mem::take(&mut self.labels);
        match &*c.body {
            Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
                let at = self.body_insert_point(&b.block, &[]);
                let (first_site, frame) = (self.out.sites.len(), self.out.splices.len());
                self.insert(at, None, shape::frame());
                for stmt in &b.block.stmts {
                    self.visit_stmt(stmt);
                }
                if c.asyncness.is_none() && can_compile_twice(None, true, |o| o.visit_block(&b.block)) {
                    self.compile_twice(frame, first_site, &b.block);
                }
            }
            body => {
                let (start, end) = (self.start(body), self.end(body));
                let (first_site, frame) = (self.out.sites.len(), self.out.splices.len());
                self.place(None, shape::closure_frame(), start, end, &[body]);
                let sites = first_site..self.out.sites.len();
                let last = self.out.splices.len() - 1;
                let placed = |i: usize, at: usize| {
                    self.out.splices.get(i).is_some_and(|s| s.site.is_none() && s.start == at && s.end == at)
                };
                if c.asyncness.is_none()
                    && !sites.is_empty()
                    && last > frame
                    && placed(frame, start)
                    && placed(last, end)
                    && can_compile_twice(None, true, |o| o.visit_expr(body))
                {
                    let mut pieces = shape::twice_closure_frame(sites).into_pieces();
                    self.out.splices[last].piece = pieces.pop().expect("a piece after the body");
                    self.out.splices[frame].piece = pieces.remove(0);
                }
            }
        }
        self.labels = saved_labels;
    }

    /// A module: inline ones are walked, declared ones are queued for their files.
    fn module(&mut self, m: &syn::ItemMod) {
        if let Some(reason) = attrs_skip_reason(&m.attrs) {
            return self.skip(reason);
        }
        let path = path_attr(&m.attrs);
        let name = m.ident.to_string();
        self.namespace.push(name.clone());
        let outer = self.features.len();
        self.features.extend(cfg_features(&m.attrs));
        match &m.content {
            Some((_, items)) => {
                let inner = self.mod_dir.inline(&name, path.as_deref());
                let outer = std::mem::replace(&mut self.mod_dir, inner);
                for it in items {
                    self.visit_item(it);
                }
                self.mod_dir = outer;
            }
            None => self.out.external_mods.push(ExternalMod {
                namespace: self.namespace.clone(),
                candidates: self.mod_dir.candidates(&name, path.as_deref()),
                line: m.mod_token.span.start().line,
                name,
                features: self.features.clone(),
            }),
        }
        self.features.truncate(outer);
        self.namespace.pop();
    }

    /// Is this call to a function named in `skip_calls`? Then nothing in it is mutated.
    fn skipped_call(&mut self, e: &Expr) -> bool {
        let skipped = callee_name(e).is_some_and(|name| self.cx.config.skips_call(&name));
        if skipped {
            self.skip(SkipReason::SkipCall);
        }
        skipped
    }

    /// Remember the start literal of a range that `e` sums or multiplies.
    fn note_folded_range(&mut self, e: &Expr) {
        if let Some((range, fold)) = folded_range(e)
            && let Some(start) = &range.start
            && let Expr::Lit(syn::ExprLit { lit: Lit::Int(_), .. }) = unparen(start)
        {
            let at = self.start(unparen(start));
            self.folded_starts.insert(at, fold);
        }
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
                let outer = self.features.len();
                self.features.extend(cfg_features(&i.attrs));
                let saved = std::mem::replace(&mut self.in_default_impl, is_default);
                for it in &i.items {
                    self.visit_impl_item(it);
                }
                self.in_default_impl = saved;
                self.features.truncate(outer);
                self.namespace.pop();
            }
            Item::Trait(t) => {
                if let Some(reason) = attrs_skip_reason(&t.attrs) {
                    return self.skip(reason);
                }
                self.namespace.push(t.ident.to_string());
                let outer = self.features.len();
                self.features.extend(cfg_features(&t.attrs));
                for it in &t.items {
                    self.visit_trait_item(it);
                }
                self.features.truncate(outer);
                self.namespace.pop();
            }
            Item::Mod(m) => self.module(m),
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
            Expr::Range(r) => self.range(r, false),
            Expr::Index(ix) => {
                self.visit_expr(&ix.expr);
                match unparen(&ix.index) {
                    Expr::Range(r) if expr_attrs(&ix.index).is_empty() => self.range(r, true),
                    _ => self.visit_expr(&ix.index),
                }
            }
            Expr::Break(b) if b.expr.is_none() => self.jump(e, b.label.as_ref(), true),
            Expr::Continue(c) => self.jump(e, c.label.as_ref(), false),
            Expr::Closure(c) => self.closure(c),
            Expr::Call(_) | Expr::MethodCall(_) => {
                if !self.skipped_call(e) {
                    self.note_folded_range(e);
                    visit::visit_expr(self, e);
                }
            }
            Expr::ForLoop(f) => {
                self.note_folded_range(e);
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
                self.insert(at, None, shape::frame());
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
    fn visit_pat(&mut self, _: &'ast syn::Pat) {}
    fn visit_type(&mut self, _: &'ast syn::Type) {}
    fn visit_path_arguments(&mut self, _: &'ast syn::PathArguments) {}
    fn visit_attribute(&mut self, _: &'ast Attribute) {}
    fn visit_macro(&mut self, _: &'ast syn::Macro) {}
}

/// Whether a body may be compiled twice ([`shape::twice_frame`]): it defines no items,
/// which may have to exist once (an `impl`, a `static`, a `thread_local!`), and its
/// value cannot be a closure or future, which would have a different type in each copy:
/// a function's return type is not `impl Trait`, and a closure's body (whose type is
/// inferred) has no closure or `async` block in it.
fn can_compile_twice(output: Option<&ReturnType>, closure: bool, walk: impl FnOnce(&mut Once)) -> bool {
    let mut once = Once { found: false, closure };
    if let Some(output) = output {
        once.visit_return_type(output);
    }
    walk(&mut once);
    !once.found
}

/// Finds what a body compiled twice must not have: see [`can_compile_twice`].
struct Once {
    found: bool,
    closure: bool,
}

impl<'ast> Visit<'ast> for Once {
    fn visit_item(&mut self, _: &'ast syn::Item) {
        self.found = true;
    }
    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        self.found |= self.closure;
        visit::visit_expr_closure(self, c);
    }
    fn visit_expr_async(&mut self, a: &'ast syn::ExprAsync) {
        self.found |= self.closure;
        visit::visit_expr_async(self, a);
    }
    fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
        self.found = true;
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // Macros that define items; an unknown macro expanding to a `static` is missed.
        let name = m.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
        if matches!(name.as_str(), "thread_local" | "lazy_static" | "macro_rules") {
            self.found = true;
        }
    }
}
