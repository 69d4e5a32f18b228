//! The sites of expressions and statements: each finds its mutants (drafts), makes the
//! site, and places its shape.

use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{BinOp, Expr, Lit, Pat, UnOp};

use super::Walker;
use super::numbering::Draft;
use crate::Operator;
use crate::equivalent::identity_swaps;
use crate::mutant::SourceRange;
use crate::operator::binary_replacements;
use crate::shape::{self, RangeForm};
use crate::skip::attrs_skip_reason;
use crate::syntax::{callee_name, contains_let, is_comparison, is_compound, is_pure_condition};

/// Calls whose statements are never deleted: they end or leave the program, or only
/// drop a value (which the end of the statement does anyway).
const NEVER_DELETED: [&str; 7] =
    ["exit", "abort", "panic_any", "resume_unwind", "unreachable_unchecked", "drop", "forget"];

impl Walker<'_, '_> {
    /// `a OP b`: operator swaps, minus those an identity operand makes equivalent.
    pub(super) fn binary(&mut self, b: &syn::ExprBinary) {
        let op = b.op.to_token_stream().to_string().replace(' ', "");
        let (left, right) = (&*b.left, &*b.right);
        let is_logical = matches!(b.op, BinOp::And(_) | BinOp::Or(_));
        let equivalent = identity_swaps(&op, left, right);
        let replacements: Vec<(&str, Operator)> =
            binary_replacements(&op).iter().copied().filter(|(rep, _)| !equivalent.contains(rep)).collect();
        self.out.skipped.equivalent += binary_replacements(&op).len() - replacements.len();
        if replacements.is_empty() || (is_logical && (contains_let(left) || contains_let(right))) {
            visit::visit_expr_binary(self, b);
            return;
        }
        let op_range = SourceRange::from(b.op.span());
        let drafts =
            replacements.iter().map(|&(rep, operator)| self.draft(op_range, operator, &op, rep)).collect();
        let Some((site, reps)) = self.site(drafts) else {
            visit::visit_expr_binary(self, b);
            return;
        };
        let shape = if is_logical {
            shape::short_circuit(matches!(b.op, BinOp::And(_)))
        } else if is_compound(&b.op) {
            shape::compound_assign(&op, &reps)
        } else if is_comparison(&b.op) {
            shape::comparison(&op, &reps)
        } else {
            shape::binary(&op, &reps)
        };
        let (start, end) = (self.start(left), self.end(right));
        self.place(Some(site), shape, start, end, &[left, right]);
    }

    /// `!a`, `-a`: delete the operator.
    pub(super) fn unary(&mut self, u: &syn::ExprUnary) {
        let op = match u.op {
            UnOp::Not(_) => "!",
            UnOp::Neg(_) => "-",
            _ => {
                visit::visit_expr_unary(self, u);
                return;
            }
        };
        let draft = self.draft(SourceRange::from(u.op.span()), Operator::UnaryDelete, op, "");
        let Some((site, _)) = self.site(vec![draft]) else {
            visit::visit_expr_unary(self, u);
            return;
        };
        let (start, end) = (self.start(u), self.end(u));
        self.place(Some(site), shape::unary_delete(op), start, end, &[&*u.expr]);
    }

    /// Integer literals: 0, one more, one less (minus the starts of summed or multiplied
    /// ranges that change nothing); bool literals: flipped.
    pub(super) fn literal(&mut self, l: &syn::ExprLit) {
        let (start, end) = (self.start(l), self.end(l));
        let range = SourceRange::from(l.span());
        let original = self.src.text()[start..end].to_owned();
        match &l.lit {
            Lit::Int(int) => {
                let Ok(v) = int.base10_parse::<u128>() else { return };
                let mut values = Vec::new();
                if v != 0 {
                    values.push(0);
                }
                values.extend(v.checked_add(1));
                if v > 1 {
                    values.push(v - 1);
                }
                if let Some(fold) = self.folded_starts.get(&start).copied() {
                    let before = values.len();
                    values.retain(|&n| !fold.same_start(v, n));
                    self.out.skipped.equivalent += before - values.len();
                }
                let suffix = int.suffix();
                let drafts = values
                    .into_iter()
                    .map(|n| self.draft(range, Operator::IntLiteral, &original, &format!("{n}{suffix}")))
                    .collect();
                if let Some((site, reps)) = self.site(drafts) {
                    self.place(Some(site), shape::int_literal(&original, &reps), start, end, &[]);
                }
            }
            Lit::Bool(b) => {
                let rep = if b.value { "false" } else { "true" };
                let draft = self.draft(range, Operator::BoolLiteral, &original, rep);
                if let Some((site, _)) = self.site(vec![draft]) {
                    self.place(Some(site), shape::bool_literal(b.value), start, end, &[]);
                }
            }
            _ => {}
        }
    }

    /// An `if` condition or match guard forced to `true` and `false`.
    pub(super) fn forced_bool(&mut self, cond: &Expr, operator: Operator) {
        if contains_let(cond) {
            self.visit_expr(cond);
            return;
        }
        let original = self.text(cond);
        let range = SourceRange::from(cond.span());
        // The mutants skip the condition: only a pure one's value tells whether they differ.
        let probed = is_pure_condition(cond);
        let drafts = ["true", "false"]
            .iter()
            .map(|v| Draft { probe: probed, ..self.draft(range, operator, &original, v) })
            .collect();
        let Some((site, reps)) = self.site(drafts) else {
            self.visit_expr(cond);
            return;
        };
        let (start, end) = (self.start(cond), self.end(cond));
        self.place(Some(site), shape::forced_bool(&reps, probed), start, end, &[cond]);
    }

    /// Guards forced both ways; arms deleted where a `_` arm catches what they matched.
    pub(super) fn match_expr(&mut self, m: &syn::ExprMatch) {
        self.visit_expr(&m.expr);
        let has_wildcard = m.arms.iter().any(|a| matches!(a.pat, Pat::Wild(_)));
        for arm in &m.arms {
            if let Some(reason) = attrs_skip_reason(&arm.attrs) {
                self.skip(reason);
                continue;
            }
            let (pat, guard) = match &arm.pat {
                Pat::Guard(g) => (&*g.pat, Some(&*g.guard)),
                p => (p, None),
            };
            match guard {
                Some(guard) => self.forced_bool(guard, Operator::MatchGuard),
                None if has_wildcard && !matches!(pat, Pat::Wild(_)) => {
                    let pat_text = self.text(pat);
                    let range = SourceRange {
                        start: SourceRange::from(pat.span()).start,
                        end: SourceRange::from(arm.body.span()).end,
                    };
                    let draft = self.draft(range, Operator::MatchArmDelete, &pat_text, "");
                    if let Some((site, _)) = self.site(vec![draft]) {
                        let at = self.end(pat);
                        self.insert(at, Some(site), shape::match_arm_delete());
                    }
                }
                None => {}
            }
            self.visit_expr(&arm.body);
        }
    }

    /// `..` ↔ `..=` on a range with an end; `in_index` when it is a slice index (`v[..=b]`).
    pub(super) fn range(&mut self, r: &syn::ExprRange, in_index: bool) {
        let Some(end_expr) = &r.end else {
            visit::visit_expr_range(self, r);
            return;
        };
        let closed = matches!(r.limits, syn::RangeLimits::Closed(_));
        let (orig, rep) = if closed { ("..=", "..") } else { ("..", "..=") };
        let limits_span = match &r.limits {
            syn::RangeLimits::HalfOpen(t) => t.span(),
            syn::RangeLimits::Closed(t) => t.span(),
        };
        let draft = self.draft(SourceRange::from(limits_span), Operator::RangeLimitSwap, orig, rep);
        let Some((site, _)) = self.site(vec![draft]) else {
            visit::visit_expr_range(self, r);
            return;
        };
        let (start, end) = (self.start(r), self.end(r));
        match &r.start {
            Some(start_expr) => {
                let form = if closed { RangeForm::StartClosed } else { RangeForm::StartHalfOpen };
                self.place(
                    Some(site),
                    shape::range_limit_swap(form),
                    start,
                    end,
                    &[&**start_expr, &**end_expr],
                );
            }
            None => {
                let form = match (closed, in_index) {
                    (true, true) => RangeForm::IndexClosed,
                    (true, false) => RangeForm::Closed,
                    (false, _) => RangeForm::HalfOpen,
                };
                self.place(Some(site), shape::range_limit_swap(form), start, end, &[&**end_expr]);
            }
        }
    }

    /// `break` ↔ `continue`, with the same label.
    pub(super) fn jump(&mut self, e: &Expr, label: Option<&syn::Lifetime>, is_break: bool) {
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
        let draft = self.draft(SourceRange::from(keyword_span), Operator::BreakContinueSwap, orig, rep);
        if let Some((site, _)) = self.site(vec![draft]) {
            let (start, end) = (self.start(e), self.end(e));
            let label = label.map(|_| label_name.as_str());
            self.place(Some(site), shape::jump_swap(orig, rep, label), start, end, &[]);
        }
    }

    /// A call statement `f(x);`: deleted, unless it ends the program or only drops a value;
    /// a call named in `skip_calls` is left whole.
    pub(super) fn call_statement(&mut self, e: &Expr, semi: &syn::Token![;]) {
        if self.skipped_call(e) {
            return;
        }
        let deletable = callee_name(e).is_some_and(|name| !NEVER_DELETED.contains(&name.as_str()));
        if deletable {
            let stmt_text = format!("{};", self.text(e));
            let range = SourceRange {
                start: SourceRange::from(e.span()).start,
                end: SourceRange::from(semi.span).end,
            };
            let draft = self.draft(range, Operator::CallDelete, &stmt_text, "");
            if let Some((site, _)) = self.site(vec![draft]) {
                let (start, end) = (self.start(e), self.src.offset(semi.span.end()));
                self.place(Some(site), shape::call_delete(), start, end, &[e]);
                return;
            }
        }
        self.visit_expr(e);
    }
}
