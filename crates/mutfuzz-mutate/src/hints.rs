//! The static pass for input strategies: over the crate under test, the literal
//! dictionary (string, byte-string, char and integer literals) and, for every branch
//! condition, SpotOn's influencing types with their distances.
//!
//! Influencing types of a condition, by distance (SpotOn's def-use walk, made syntactic):
//! 1 — types of the variables, fields and enum paths the condition names (a parameter's
//! or annotated `let`'s type, the types of a field of that name, `Self` for `self`,
//! the enum of a variant path in an `if let`/`match` pattern); 2 — the other parameter
//! types of the function and the type arguments of distance-1 types (`Vec<Item>` gives
//! `Item`); 3 — the parameter types of the functions that call this one. Primitive
//! types are left out, as SpotOn leaves out Java's primitives: too common to tell
//! branches apart. Wrappers (`Vec`, `Option`, `Box`, references) stand for what they hold.

use std::collections::{BTreeMap, HashMap, HashSet};

use mutfuzz_contract::{Branch, Hints, Literals, TypeDistance};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, FnArg, Lit, Pat, Type};

use crate::Discovery;

/// Most literals of each kind kept (a generated table must not swamp the dictionary).
const MAX_LITERALS: usize = 1024;

/// Runs the pass over every file of `discovery` (unparsable files are skipped: the
/// schema build reports them).
pub fn analyze(discovery: &Discovery) -> Hints {
    let mut pass = Pass::default();
    let files: Vec<(String, syn::File)> = discovery
        .files
        .iter()
        .filter_map(|f| syn::parse_file(f.source()).ok().map(|ast| (f.rel_path.clone(), ast)))
        .collect();
    // Field types of every struct and enum variant, by field name; callers of each fn.
    for (_, ast) in &files {
        let mut shapes = Shapes::default();
        shapes.visit_file(ast);
        for (k, v) in shapes.fields {
            pass.fields.entry(k).or_default().extend(v);
        }
        for (callee, params) in shapes.callers {
            pass.callers.entry(callee).or_default().extend(params);
        }
    }
    for (file, ast) in &files {
        pass.file = file.clone();
        pass.visit_file(ast);
    }
    // Sites in the code each branch guards.
    for b in &mut pass.branches {
        let (file, lo, hi) = (&b.0.file, b.1, b.2);
        let mut sites: Vec<u32> = discovery
            .mutants
            .iter()
            .filter(|m| &m.file == file && (lo..=hi).contains(&(m.span.start.line, m.span.start.column)))
            .map(|m| m.site)
            .collect();
        sites.sort_unstable();
        sites.dedup();
        b.0.sites = sites;
    }
    let mut lits = pass.literals;
    lits.strings.truncate(MAX_LITERALS);
    lits.bytes.truncate(MAX_LITERALS);
    lits.chars.truncate(MAX_LITERALS);
    lits.ints.truncate(MAX_LITERALS);
    Hints {
        literals: lits,
        branches: pass.branches.into_iter().map(|b| b.0).filter(|b| !b.types.is_empty()).collect(),
    }
}

/// The names a type stands for, with the distance each adds: `Vec<Item>` → (`Item`, 0)
/// for wrappers, (`Map`, 0) and its arguments (+1) for other generic types.
fn type_names(ty: &Type, extra: u32, out: &mut Vec<(String, u32)>) {
    match ty {
        Type::Reference(r) => type_names(&r.elem, extra, out),
        Type::Paren(p) => type_names(&p.elem, extra, out),
        Type::Group(g) => type_names(&g.elem, extra, out),
        Type::Slice(s) => type_names(&s.elem, extra, out),
        Type::Array(a) => type_names(&a.elem, extra, out),
        Type::Tuple(t) => t.elems.iter().for_each(|e| type_names(e, extra, out)),
        Type::Path(p) => {
            let Some(last) = p.path.segments.last() else { return };
            let name = last.ident.to_string();
            let wrapper =
                matches!(name.as_str(), "Vec" | "Option" | "Box" | "Rc" | "Arc" | "VecDeque" | "Cow");
            if !wrapper && !is_primitive(&name) {
                out.push((name, extra));
            }
            if let syn::PathArguments::AngleBracketed(args) = &last.arguments {
                for a in &args.args {
                    if let syn::GenericArgument::Type(t) = a {
                        type_names(t, if wrapper { extra } else { extra + 1 }, out);
                    }
                }
            }
        }
        _ => {}
    }
}

fn is_primitive(name: &str) -> bool {
    crate::syntax::is_integer_type(name) || matches!(name, "f32" | "f64" | "bool" | "char" | "str")
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        let path = a.path();
        path.is_ident("test")
            || (path.is_ident("cfg") && a.meta.require_list().is_ok_and(|l| l.tokens.to_string() == "test"))
    })
}

/// First pass: field types by field name, and the parameter types of each caller by callee name.
#[derive(Default)]
struct Shapes {
    fields: HashMap<String, Vec<Type>>,
    callers: HashMap<String, Vec<Type>>,
    params: Vec<Type>,
}

impl<'ast> Visit<'ast> for Shapes {
    fn visit_field(&mut self, f: &'ast syn::Field) {
        if let Some(name) = &f.ident {
            self.fields.entry(name.to_string()).or_default().push(f.ty.clone());
        }
        visit::visit_field(self, f);
    }

    fn visit_signature(&mut self, sig: &'ast syn::Signature) {
        self.params = sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                FnArg::Typed(t) => Some((*t.ty).clone()),
                FnArg::Receiver(_) => None,
            })
            .collect();
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let Expr::Path(p) = &*c.func
            && let Some(last) = p.path.segments.last()
        {
            self.callers.entry(last.ident.to_string()).or_default().extend(self.params.iter().cloned());
        }
        visit::visit_expr_call(self, c);
    }

    fn visit_expr_method_call(&mut self, c: &'ast syn::ExprMethodCall) {
        self.callers.entry(c.method.to_string()).or_default().extend(self.params.iter().cloned());
        visit::visit_expr_method_call(self, c);
    }
}

/// A position in a file: line (1-based) and column (1-based, as mutants' spans count).
type LineColumn = (usize, usize);

/// Second pass: literals, and branch conditions with their influencing types.
#[derive(Default)]
struct Pass {
    file: String,
    fields: HashMap<String, Vec<Type>>,
    callers: HashMap<String, Vec<Type>>,
    literals: Literals,
    seen: HashSet<String>,
    /// Each branch with where its guarded code starts and ends (line, column).
    branches: Vec<(Branch, LineColumn, LineColumn)>,
    /// The function being walked: its name, `Self`, and its typed variables.
    function: String,
    self_ty: Option<Type>,
    vars: HashMap<String, Type>,
    /// Variables bound by a variant pattern (`if let Item::Cmd { name, .. }`), with the enum.
    bound: HashMap<String, String>,
    params: Vec<Type>,
}

impl Pass {
    fn literal(&mut self, lit: &Lit, negative: bool) {
        let l = &mut self.literals;
        // Each value once, whatever its spelling (`1`, `1u32`, `0x1`).
        match lit {
            Lit::Str(s) if self.seen.insert(format!("s{}", s.value())) => l.strings.push(s.value()),
            Lit::ByteStr(b) if self.seen.insert(format!("b{:?}", b.value())) => l.bytes.push(b.value()),
            Lit::Char(c) if self.seen.insert(format!("c{}", c.value())) => l.chars.push(c.value()),
            Lit::Byte(b) if self.seen.insert(format!("c{}", char::from(b.value()))) => {
                l.chars.push(char::from(b.value()))
            }
            Lit::Int(i) => {
                let v = match i.base10_parse::<i128>() {
                    Ok(v) => Some(if negative { -v } else { v }),
                    // Above i128::MAX: kept by its bits, as a u128 field would hold it.
                    Err(_) => i.base10_parse::<u128>().ok().map(|v| v as i128),
                };
                if let Some(v) = v
                    && self.seen.insert(format!("i{v}"))
                {
                    l.ints.push(v);
                }
            }
            _ => {}
        }
    }

    /// Records the branch at `cond` guarding the code at `guarded`.
    fn branch(&mut self, cond: &[&Expr], pats: &[&Pat], guarded: proc_macro2::Span) {
        let mut names = Names::default();
        for e in cond {
            names.visit_expr(e);
        }
        for p in pats {
            names.visit_pat(p);
        }
        let mut found: Vec<(String, u32)> = Vec::new();
        for ident in &names.idents {
            if ident == "self" {
                if let Some(t) = &self.self_ty {
                    type_names(t, 1, &mut found);
                }
            } else if let Some(t) = self.vars.get(ident) {
                type_names(t, 1, &mut found);
            } else {
                // Bound by a pattern: a field of that name (shorthand), in its enum.
                for t in self.fields.get(ident).into_iter().flatten() {
                    type_names(t, 1, &mut found);
                }
                if let Some(e) = self.bound.get(ident) {
                    found.push((e.clone(), 2));
                }
            }
        }
        for field in &names.fields {
            for t in self.fields.get(field).into_iter().flatten() {
                type_names(t, 1, &mut found);
            }
        }
        for ty in &names.enums {
            if !is_primitive(ty) {
                found.push((ty.clone(), 1));
            }
        }
        for t in &self.params {
            type_names(t, 2, &mut found);
        }
        for t in self.callers.get(&self.function).into_iter().flatten() {
            type_names(t, 3, &mut found);
        }
        let mut best: BTreeMap<String, u32> = BTreeMap::new();
        for (name, d) in found {
            let e = best.entry(name).or_insert(d);
            *e = (*e).min(d);
        }
        // Variables the patterns bind are typed by their variant's enum from here on.
        if let Some(e) = names.enums.first() {
            for ident in &names.pattern_idents {
                self.bound.insert(ident.clone(), e.clone());
            }
        }
        let start = cond.first().map_or(guarded, |c| c.span()).start().line;
        let types = best.into_iter().map(|(name, distance)| TypeDistance { name, distance }).collect();
        let branch = Branch { file: self.file.clone(), line: start as u32, sites: Vec::new(), types };
        // By line and column: a condition and its `{` often share a line, and the
        // condition's own sites are reached whether or not the branch is taken.
        let (from, to) = (guarded.start(), guarded.end());
        self.branches.push((branch, (from.line, from.column + 1), (to.line, to.column + 1)));
    }

    fn function(&mut self, name: String, sig: &syn::Signature, block: &syn::Block) {
        let saved = (
            std::mem::take(&mut self.vars),
            std::mem::take(&mut self.params),
            std::mem::take(&mut self.function),
        );
        self.bound.clear();
        self.function = name;
        for arg in &sig.inputs {
            if let FnArg::Typed(t) = arg {
                self.params.push((*t.ty).clone());
                if let Pat::Ident(p) = &*t.pat {
                    self.vars.insert(p.ident.to_string(), (*t.ty).clone());
                }
            }
        }
        self.visit_block(block);
        (self.vars, self.params, self.function) = saved;
    }
}

impl<'ast> Visit<'ast> for Pass {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test_only(&m.attrs) {
            visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if is_test_only(&i.attrs) {
            return;
        }
        let saved = self.self_ty.replace((*i.self_ty).clone());
        visit::visit_item_impl(self, i);
        self.self_ty = saved;
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test_only(&f.attrs) {
            self.function(f.sig.ident.to_string(), &f.sig, &f.block);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test_only(&f.attrs) {
            self.function(f.sig.ident.to_string(), &f.sig, &f.block);
        }
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        if let Pat::Type(t) = &l.pat
            && let Pat::Ident(p) = &*t.pat
        {
            self.vars.insert(p.ident.to_string(), (*t.ty).clone());
        }
        visit::visit_local(self, l);
    }

    // Doc comments and other attributes hold string literals that no input meets.
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_lit(&mut self, lit: &'ast Lit) {
        self.literal(lit, false);
    }

    fn visit_expr_unary(&mut self, u: &'ast syn::ExprUnary) {
        if matches!(u.op, syn::UnOp::Neg(_))
            && let Expr::Lit(l) = &*u.expr
        {
            self.literal(&l.lit, true);
            return;
        }
        visit::visit_expr_unary(self, u);
    }

    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        match &*e.cond {
            Expr::Let(l) => self.branch(&[&l.expr], &[&l.pat], e.then_branch.span()),
            c => self.branch(&[c], &[], e.then_branch.span()),
        }
        visit::visit_expr_if(self, e);
    }

    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.branch(&[&e.cond], &[], e.body.span());
        visit::visit_expr_while(self, e);
    }

    fn visit_expr_match(&mut self, e: &'ast syn::ExprMatch) {
        // An arm's guard is part of its pattern (`Pat::Guard`), walked with it.
        for arm in &e.arms {
            self.branch(&[&e.expr], &[&arm.pat], arm.body.span());
        }
        visit::visit_expr_match(self, e);
    }
}

/// What a condition names: plain identifiers, field names, and the enums of variant paths.
#[derive(Default)]
struct Names {
    idents: Vec<String>,
    pattern_idents: Vec<String>,
    fields: Vec<String>,
    enums: Vec<String>,
}

impl<'ast> Visit<'ast> for Names {
    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        match segs.as_slice() {
            [one] => self.idents.push(one.clone()),
            [.., ty, variant]
                if variant.starts_with(char::is_uppercase) && ty.starts_with(char::is_uppercase) =>
            {
                self.enums.push(ty.clone())
            }
            _ => {}
        }
        visit::visit_path(self, p);
    }

    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.idents.push(p.ident.to_string());
        self.pattern_idents.push(p.ident.to_string());
        visit::visit_pat_ident(self, p);
    }

    fn visit_member(&mut self, m: &'ast syn::Member) {
        if let syn::Member::Named(n) = m {
            self.fields.push(n.to_string());
        }
    }

    fn visit_expr_method_call(&mut self, c: &'ast syn::ExprMethodCall) {
        // The receiver's fields and names count; the method's name does not.
        self.visit_expr(&c.receiver);
        c.args.iter().for_each(|a| self.visit_expr(a));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    const SOURCE: &str = r#"
/// A doc comment.
pub struct Doc { pub items: Vec<Item>, pub title: String }
pub enum Item { Cmd { name: String, code: u16 }, Pixel(u8) }
pub fn run(doc: &Doc, scale: u32) -> u32 {
    let mut n = 0;
    for item in &doc.items {
        if let Item::Cmd { name, code } = item {
            if name == "magic-keyword" && *code == 0x5eed {
                n += scale * 2;
            }
        }
    }
    if doc.title.starts_with('#') { n -= 2u32; }
    n + b"\x01"[0] as u32 - -7i32 as u32
}
pub fn outer(d: Doc) -> u32 { run(&d, 1) }
#[cfg(test)]
mod tests { fn t() { let _ = "only-in-tests"; } }
"#;

    fn hints() -> Hints {
        let d = Discovery::from_source("src/lib.rs", SOURCE, &Config::default()).unwrap();
        analyze(&d)
    }

    #[test]
    fn literals_of_every_kind_are_collected_outside_tests() {
        let h = hints();
        assert!(h.literals.strings.contains(&"magic-keyword".to_owned()));
        assert!(!h.literals.strings.contains(&"only-in-tests".to_owned()));
        assert!(h.literals.ints.contains(&0x5eed) && h.literals.ints.contains(&-7));
        assert!(h.literals.chars.contains(&'#'));
        assert_eq!(h.literals.bytes, vec![b"\x01".to_vec()]);
        assert!(!h.literals.strings.iter().any(|s| s.contains("doc comment")));
        let ones = h.literals.ints.iter().filter(|&&v| v == 2).count();
        assert_eq!(ones, 1, "{:?}", h.literals.ints);
    }

    #[test]
    fn a_deep_condition_gets_its_field_types_first_then_the_enum_and_the_callers_types() {
        let h = hints();
        let b = h.branches.iter().find(|b| b.line == 9).expect("the magic-keyword branch");
        let d = |n: &str| b.types.iter().find(|t| t.name == n).map(|t| t.distance);
        // `name` is a field of `Item::Cmd` (String) and the pattern names `Item`.
        assert_eq!(d("Item"), Some(2));
        assert_eq!(d("String"), Some(1));
        let outer = h.branches.iter().find(|b| b.line == 8).expect("the if-let branch");
        assert!(outer.types.iter().any(|t| t.name == "Item" && t.distance == 1));
        assert_eq!(d("Doc"), Some(2));
        assert!(!b.sites.is_empty(), "{b:?}");
        let title = h.branches.iter().find(|b| b.line == 14).expect("the title branch");
        assert!(title.types.iter().any(|t| t.name == "String" && t.distance == 1));
    }

    #[test]
    fn a_branch_guards_the_sites_inside_its_block_not_those_of_its_condition_on_the_same_line() {
        let source = "pub struct H { pub v: u8, pub s: bool }\n\
                      pub fn f(h: &H, x: u32) -> u32 {\n\
                      if h.v == 7 && h.s { x + 1 } else { x }\n\
                      }\n";
        let d = Discovery::from_source("src/lib.rs", source, &Config::default()).unwrap();
        let h = analyze(&d);
        let b = h.branches.iter().find(|b| b.line == 3).expect("the branch");
        let site_of = |desc: &str| {
            d.mutants.iter().find(|m| m.description.starts_with(desc)).map(|m| m.site).expect(desc)
        };
        assert!(b.sites.contains(&site_of("replace + with")), "{b:?}");
        assert!(!b.sites.contains(&site_of("replace == with")), "{b:?}");
        assert!(!b.sites.contains(&site_of("replace && with")), "{b:?}");
    }
}
