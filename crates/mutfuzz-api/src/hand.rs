//! A hand-written harness read with `syn`, for writing its kept inputs as tests: the
//! targets its `targets!` lists by hand, each target function's parameter and result,
//! the types defined in it and its modules, and whether a test file that includes the
//! harness as a module (`mod harness;`) can name each of them.
//!
//! Such a module sees only what the harness makes visible to the whole crate: `pub` or
//! `pub(crate)` items (and `pub(super)` ones at the harness's top level), in modules that
//! are visible too, and the fields of structs likewise; an enum's variants and their
//! fields are as visible as the enum.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use mutfuzz_mutate::modules::{ModDir, path_attr};
use syn::punctuated::Punctuated;

use crate::error::Error;
use crate::ty::Ty;

/// What a test file including the harness needs to know of it.
#[derive(Clone, Debug, Default)]
pub struct HandHarness {
    /// The targets listed by hand (not through `generated = module`), in order.
    pub targets: Vec<String>,
    fns: BTreeMap<String, TargetFn>,
    /// Types by name; a name defined in two modules has two entries.
    types: BTreeMap<String, Vec<TypeDef>>,
}

/// A target function of the harness's top level.
#[derive(Clone, Debug)]
pub struct TargetFn {
    /// Its parameter's name, when the parameter is one plain identifier.
    pub param: Option<String>,
    /// Its result type (`None`: it returns `()`).
    pub output: Option<Ty>,
    /// The function itself.
    pub item: Item,
}

/// An item of the harness that a test names, and whether the including file sees it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Item {
    /// `mutfuzz/src/main.rs:12`.
    pub location: String,
    /// `struct Order`, `field items of Order`, `fn total`, `mod shapes`.
    pub what: String,
    /// Whether a file that includes the harness as a module can name it.
    pub visible: bool,
}

/// A struct or enum defined in the harness.
#[derive(Clone, Debug)]
pub struct TypeDef {
    /// Its path below the harness module: `["shapes", "Order"]`.
    pub path: Vec<String>,
    /// The type itself.
    pub item: Item,
    /// The modules on the way to it, outermost first.
    pub modules: Vec<Item>,
    /// A struct's fields by name (tuple structs: `0`, `1`, …); none for an enum.
    pub fields: Vec<(String, Item)>,
}

impl HandHarness {
    /// Reads the harness whose root is `main` (its `src/main.rs`), following its `mod`
    /// declarations; locations are shown relative to `shown_from` (the package's root).
    pub fn read(main: &Path, shown_from: &Path) -> Result<HandHarness, Error> {
        let mut reader = Reader { shown_from, harness: HandHarness::default() };
        let text = fs::read_to_string(main).map_err(|e| Error::Read(main.to_owned(), e))?;
        let file = syn::parse_file(&text).map_err(|e| Error::Parse(main.to_owned(), e.to_string()))?;
        for item in &file.items {
            match item {
                syn::Item::Macro(m) if m.mac.path.segments.last().is_some_and(|s| s.ident == "targets") => {
                    let entries = m
                        .mac
                        .parse_body_with(Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
                        .map_err(|e| Error::Parse(main.to_owned(), e.to_string()))?;
                    reader.harness.targets = entries.iter().filter_map(hand_written_target).collect();
                }
                syn::Item::Fn(f) => {
                    let item =
                        reader.item(main, f.sig.ident.span(), format!("fn {}", f.sig.ident), &f.vis, true);
                    let target = TargetFn { param: param_name(&f.sig), output: output(&f.sig.output), item };
                    reader.harness.fns.insert(f.sig.ident.to_string(), target);
                }
                _ => {}
            }
        }
        let dir = ModDir::of_file(main, true, "");
        reader.types(&file.items, main, &dir, &[], &[])?;
        Ok(reader.harness)
    }

    /// The target function `name`, defined at the harness's top level.
    pub fn target(&self, name: &str) -> Result<&TargetFn, String> {
        self.fns.get(name).ok_or_else(|| {
            format!("the target `{name}` is not a function defined at the top of the harness's src/main.rs")
        })
    }

    /// The one type named `name` (a tree names types without their path).
    pub fn type_named(&self, name: &str) -> Result<&TypeDef, String> {
        match self.types.get(name).map(Vec::as_slice) {
            Some([one]) => Ok(one),
            Some([..]) => Err(format!("two types of the harness are named `{name}`")),
            None => {
                Err(format!("the type `{name}` is not defined in the harness (src/main.rs and its modules)"))
            }
        }
    }
}

/// The name of a hand-written entry of `targets!`: `name` or `name(compare = path)`, not
/// `generated = module`.
fn hand_written_target(entry: &syn::Expr) -> Option<String> {
    let path = match entry {
        syn::Expr::Path(p) => &p.path,
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => &p.path,
            _ => return None,
        },
        _ => return None,
    };
    path.get_ident().map(ToString::to_string)
}

fn param_name(sig: &syn::Signature) -> Option<String> {
    match sig.inputs.first()? {
        syn::FnArg::Typed(t) => match &*t.pat {
            syn::Pat::Ident(i) if i.subpat.is_none() && !i.ident.to_string().starts_with('_') => {
                Some(i.ident.to_string())
            }
            _ => None,
        },
        syn::FnArg::Receiver(_) => None,
    }
}

fn output(out: &syn::ReturnType) -> Option<Ty> {
    match out {
        syn::ReturnType::Default => None,
        syn::ReturnType::Type(_, ty) => match Ty::from_syn(ty) {
            Ty::Tuple(items) if items.is_empty() => None,
            ty => Some(ty),
        },
    }
}

/// Whether an item with `vis` is visible to the module that includes the harness; `top`:
/// the item is at the harness's top level, where `pub(super)` reaches that module.
fn reaches(vis: &syn::Visibility, top: bool) -> bool {
    match vis {
        syn::Visibility::Public(_) => true,
        syn::Visibility::Restricted(r) => {
            let path = &r.path;
            path.is_ident("crate") || (top && path.is_ident("super"))
        }
        syn::Visibility::Inherited => false,
    }
}

struct Reader<'a> {
    shown_from: &'a Path,
    harness: HandHarness,
}

impl Reader<'_> {
    fn item(
        &self,
        file: &Path,
        span: proc_macro2::Span,
        what: String,
        vis: &syn::Visibility,
        top: bool,
    ) -> Item {
        let shown = file.strip_prefix(self.shown_from).unwrap_or(file);
        let location = format!("{}:{}", shown.to_string_lossy().replace('\\', "/"), span.start().line);
        Item { location, what, visible: reaches(vis, top) }
    }

    /// The structs and enums of `items` (in module `path`, reached through `modules`), and
    /// of the modules among them.
    fn types(
        &mut self,
        items: &[syn::Item],
        file: &Path,
        dir: &ModDir,
        path: &[String],
        modules: &[Item],
    ) -> Result<(), Error> {
        let top = path.is_empty();
        for item in items {
            match item {
                syn::Item::Struct(s) => {
                    let name = s.ident.to_string();
                    let fields = s
                        .fields
                        .iter()
                        .enumerate()
                        .map(|(i, f)| {
                            let field = f.ident.as_ref().map_or_else(|| i.to_string(), ToString::to_string);
                            let span = f.ident.as_ref().map_or_else(|| s.ident.span(), syn::Ident::span);
                            let what = format!("field {field} of {name}");
                            (field, self.item(file, span, what, &f.vis, top))
                        })
                        .collect();
                    let item = self.item(file, s.ident.span(), format!("struct {name}"), &s.vis, top);
                    self.add(path, name, item, modules, fields);
                }
                syn::Item::Enum(e) => {
                    let name = e.ident.to_string();
                    let item = self.item(file, e.ident.span(), format!("enum {name}"), &e.vis, top);
                    self.add(path, name, item, modules, Vec::new());
                }
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let mut inner_path = path.to_vec();
                    inner_path.push(name.clone());
                    let mut inner_modules = modules.to_vec();
                    inner_modules.push(self.item(file, m.ident.span(), format!("mod {name}"), &m.vis, top));
                    let attr = path_attr(&m.attrs);
                    match &m.content {
                        Some((_, inner)) => {
                            let dir = dir.inline(&name, attr.as_deref());
                            self.types(inner, file, &dir, &inner_path, &inner_modules)?;
                        }
                        None => {
                            let found: Option<(PathBuf, bool)> = dir
                                .candidates(&name, attr.as_deref())
                                .into_iter()
                                .find(|c| c.path.exists())
                                .map(|c| (c.path, c.owns_dir));
                            // A module rustc would not find fails the harness's own build.
                            let Some((sub, owns_dir)) = found else { continue };
                            let text = fs::read_to_string(&sub).map_err(|e| Error::Read(sub.clone(), e))?;
                            let parsed = syn::parse_file(&text)
                                .map_err(|e| Error::Parse(sub.clone(), e.to_string()))?;
                            let dir = ModDir::of_file(&sub, owns_dir, &name);
                            self.types(&parsed.items, &sub, &dir, &inner_path, &inner_modules)?;
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn add(
        &mut self,
        path: &[String],
        name: String,
        item: Item,
        modules: &[Item],
        fields: Vec<(String, Item)>,
    ) {
        let mut full = path.to_vec();
        full.push(name.clone());
        let def = TypeDef { path: full, item, modules: modules.to_vec(), fields };
        self.harness.types.entry(name).or_default().push(def);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(files: &[(&str, &str)]) -> HandHarness {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        HandHarness::read(&dir.path().join("mutfuzz/src/main.rs"), dir.path()).unwrap()
    }

    #[test]
    fn targets_types_and_what_an_including_module_sees() {
        let h = read(&[
            (
                "mutfuzz/src/main.rs",
                "use mutfuzz::Gen;\nmod auto;\npub(crate) mod shapes;\n\n\
                 #[derive(Debug, Gen)]\nstruct Order {\n    items: Vec<u8>,\n    pub(crate) coupon: Option<u8>,\n}\n\n\
                 #[derive(Debug, Gen)]\npub(super) struct Pair(pub u8, u8);\n\n\
                 pub(crate) fn total(order: Order) -> u32 { 0 }\n\
                 fn check((a, b): (u8, u8)) {}\n\
                 fn unit(_x: u8) -> () {}\n\
                 mutfuzz::targets!(generated = auto, total, check(compare = same), unit,);\n",
            ),
            ("mutfuzz/src/auto.rs", "pub fn mean(v: Vec<u8>) -> u32 { 0 }\n"),
            (
                "mutfuzz/src/shapes.rs",
                "mod inner { pub(crate) enum Deep { A } }\npub(super) enum Shape { Dot }\npub(crate) enum Order { X }\n",
            ),
        ]);
        assert_eq!(h.targets, ["total", "check", "unit"]);
        let total = h.target("total").unwrap();
        assert_eq!(total.param.as_deref(), Some("order"));
        assert_eq!(total.output.as_ref().map(ToString::to_string).as_deref(), Some("u32"));
        let shown = |i: &Item| format!("{} {} {}", i.location, i.what, i.visible);
        assert_eq!(shown(&total.item), "mutfuzz/src/main.rs:14 fn total true");
        let check = h.target("check").unwrap();
        assert_eq!((check.param.as_deref(), check.output.is_none()), (None, true));
        assert!(h.target("unit").unwrap().output.is_none() && h.target("unit").unwrap().param.is_none());
        assert!(h.target("mean").is_err());

        assert_eq!(h.type_named("Order").unwrap_err(), "two types of the harness are named `Order`");
        let pair = h.type_named("Pair").unwrap();
        assert_eq!(shown(&pair.item), "mutfuzz/src/main.rs:12 struct Pair true");
        let fields: Vec<String> = pair.fields.iter().map(|(n, i)| format!("{n}: {}", shown(i))).collect();
        assert_eq!(
            fields,
            [
                "0: mutfuzz/src/main.rs:12 field 0 of Pair true",
                "1: mutfuzz/src/main.rs:12 field 1 of Pair false"
            ]
        );
        // `pub(super)` below the top level reaches the harness only.
        let shape = h.type_named("Shape").unwrap();
        assert_eq!(shape.path, ["shapes", "Shape"]);
        assert_eq!(shown(&shape.item), "mutfuzz/src/shapes.rs:2 enum Shape false");
        let deep = h.type_named("Deep").unwrap();
        assert_eq!(deep.path, ["shapes", "inner", "Deep"]);
        let modules: Vec<String> = deep.modules.iter().map(shown).collect();
        assert_eq!(
            modules,
            ["mutfuzz/src/main.rs:3 mod shapes true", "mutfuzz/src/shapes.rs:1 mod inner false"]
        );
        assert!(h.type_named("Missing").unwrap_err().contains("not defined in the harness"));
    }
}
