//! Values that can replace a function body, chosen from its declared return type.
//!
//! The choices follow cargo-mutants' conventions (so shared mutants have the same
//! replacement text); anything unrecognised becomes `Default::default()`, and the
//! schema's viability check marks the ones that do not compile.

use syn::{GenericArgument, PathArguments, ReturnType, Type};

/// Replacement expressions for a body returning `ret`; empty when none makes sense. A
/// `Result` (at any depth) also gets `Err(e)` for each of the configured `errors`.
pub fn return_values(ret: &ReturnType, errors: &[String]) -> Vec<String> {
    match ret {
        ReturnType::Default => vec!["()".to_owned()],
        ReturnType::Type(_, ty) => Values { errors }.of(ty, 0),
    }
}

const MAX_DEPTH: usize = 3;

/// Values of a type, with the configured error values.
struct Values<'a> {
    errors: &'a [String],
}

impl Values<'_> {
    fn of(&self, ty: &Type, depth: usize) -> Vec<String> {
        if depth > MAX_DEPTH {
            return vec!["Default::default()".to_owned()];
        }
        match ty {
            Type::Paren(p) => self.of(&p.elem, depth),
            Type::Group(g) => self.of(&g.elem, depth),
            Type::Never(_) | Type::ImplTrait(_) | Type::Infer(_) | Type::Macro(_) => Vec::new(),
            Type::Tuple(t) if t.elems.is_empty() => vec!["()".to_owned()],
            Type::Tuple(t) => {
                let mut combos = vec![Vec::new()];
                for elem in &t.elems {
                    let vals = self.of(elem, depth + 1);
                    if vals.is_empty() {
                        return Vec::new();
                    }
                    combos = combos
                        .iter()
                        .flat_map(|prefix| {
                            vals.iter().map(move |v| {
                                let mut c: Vec<String> = prefix.clone();
                                c.push(v.clone());
                                c
                            })
                        })
                        .take(16)
                        .collect();
                }
                combos.into_iter().map(|c| format!("({})", c.join(", "))).collect()
            }
            Type::Array(a) => {
                let len = crate::source::squash(&quote::ToTokens::to_token_stream(&a.len).to_string());
                self.of(&a.elem, depth + 1).into_iter().map(|v| format!("[{v}; {len}]")).collect()
            }
            Type::Slice(s) => self.leaked_vecs(&s.elem, depth),
            Type::Reference(r) => match &*r.elem {
                Type::Path(p) if r.mutability.is_none() && p.path.is_ident("str") => {
                    vec!["\"\"".to_owned(), "\"xyzzy\"".to_owned()]
                }
                Type::Slice(s) => self.leaked_vecs(&s.elem, depth),
                elem => self
                    .of(elem, depth + 1)
                    .into_iter()
                    .map(|v| format!("Box::leak(Box::new({v}))"))
                    .collect(),
            },
            Type::Path(p) if p.qself.is_none() => self.path_values(&p.path, depth),
            _ => vec!["Default::default()".to_owned()],
        }
    }

    fn leaked_vecs(&self, elem: &Type, depth: usize) -> Vec<String> {
        std::iter::once("Vec::leak(Vec::new())".to_owned())
            .chain(self.of(elem, depth + 1).into_iter().map(|v| format!("Vec::leak(vec![{v}])")))
            .collect()
    }

    fn path_values(&self, path: &syn::Path, depth: usize) -> Vec<String> {
        let Some(last) = path.segments.last() else {
            return Vec::new();
        };
        let name = last.ident.to_string();
        let args: Vec<&Type> = match &last.arguments {
            PathArguments::AngleBracketed(a) => a
                .args
                .iter()
                .filter_map(|a| match a {
                    GenericArgument::Type(t) => Some(t),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let strs = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let single = path.segments.len() == 1;
        match (name.as_str(), args.as_slice()) {
            ("bool", []) if single => strs(&["true", "false"]),
            ("String", []) => strs(&["String::new()", "\"xyzzy\".into()"]),
            ("str", []) => strs(&["\"\"", "\"xyzzy\""]),
            ("u8" | "u16" | "u32" | "u64" | "u128" | "usize", []) if single => strs(&["0", "1"]),
            ("i8" | "i16" | "i32" | "i64" | "i128" | "isize", []) if single => strs(&["0", "1", "-1"]),
            ("f32" | "f64", []) if single => strs(&["0.0", "1.0", "-1.0"]),
            ("char", []) if single => strs(&["'\\0'", "'A'"]),
            ("Result", [ok, ..]) => self
                .of(ok, depth + 1)
                .into_iter()
                .map(|v| format!("Ok({v})"))
                .chain(self.errors.iter().map(|e| format!("Err({e})")))
                .collect(),
            ("Result", []) => std::iter::once("Ok(Default::default())".to_owned())
                .chain(self.errors.iter().map(|e| format!("Err({e})")))
                .collect(),
            ("Option", [inner]) => std::iter::once("None".to_owned())
                .chain(self.of(inner, depth + 1).into_iter().map(|v| format!("Some({v})")))
                .collect(),
            ("Vec", [inner]) => std::iter::once("vec![]".to_owned())
                .chain(self.of(inner, depth + 1).into_iter().map(|v| format!("vec![{v}]")))
                .collect(),
            ("Cow", [inner]) => self
                .of(inner, depth + 1)
                .into_iter()
                .flat_map(|v| [format!("Cow::Borrowed({v})"), format!("Cow::Owned({v}.to_owned())")])
                .collect(),
            ("Box" | "Rc" | "Arc" | "Cell" | "RefCell" | "Mutex", [inner]) => {
                self.of(inner, depth + 1).into_iter().map(|v| format!("{name}::new({v})")).collect()
            }
            ("BinaryHeap" | "BTreeSet" | "HashSet" | "LinkedList" | "VecDeque", [inner]) => {
                std::iter::once(format!("{name}::new()"))
                    .chain(self.of(inner, depth + 1).into_iter().map(|v| format!("{name}::from_iter([{v}])")))
                    .collect()
            }
            ("HashMap" | "BTreeMap", [k, v]) => {
                let keys = self.of(k, depth + 1);
                let vals = self.of(v, depth + 1);
                let name = &name;
                std::iter::once(format!("{name}::new()"))
                    .chain(
                        keys.iter()
                            .flat_map(|k| {
                                vals.iter().map(move |v| format!("{name}::from_iter([({k}, {v})])"))
                            })
                            .take(8),
                    )
                    .collect()
            }
            _ => strs(&["Default::default()"]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vals(ret: &str) -> Vec<String> {
        let f: syn::ItemFn = syn::parse_str(&format!("fn f() {ret} {{}}")).unwrap();
        return_values(&f.sig.output, &[])
    }

    #[test]
    fn values_follow_the_return_type() {
        assert_eq!(vals(""), ["()"]);
        assert_eq!(vals("-> bool"), ["true", "false"]);
        assert_eq!(vals("-> u32"), ["0", "1"]);
        assert_eq!(vals("-> i64"), ["0", "1", "-1"]);
        assert_eq!(vals("-> String"), ["String::new()", "\"xyzzy\".into()"]);
        assert_eq!(vals("-> &'static str"), ["\"\"", "\"xyzzy\""]);
        assert_eq!(vals("-> Option<bool>"), ["None", "Some(true)", "Some(false)"]);
        assert_eq!(vals("-> Vec<u8>"), ["vec![]", "vec![0]", "vec![1]"]);
        assert_eq!(vals("-> Result<(), E>"), ["Ok(())"]);
        assert_eq!(vals("-> io::Result<usize>"), ["Ok(0)", "Ok(1)"]);
        assert_eq!(vals("-> (bool, u8)"), ["(true, 0)", "(true, 1)", "(false, 0)", "(false, 1)"]);
        assert_eq!(vals("-> &[u8]"), ["Vec::leak(Vec::new())", "Vec::leak(vec![0])", "Vec::leak(vec![1])"]);
        assert_eq!(vals("-> Self"), ["Default::default()"]);
        assert!(vals("-> !").is_empty());
        assert!(vals("-> impl Iterator<Item = u8>").is_empty());
    }

    #[test]
    fn error_values_are_returned_from_results_at_any_depth() {
        let errors = ["anyhow!(\"m\")".to_owned()];
        let vals = |ret: &str| {
            let f: syn::ItemFn = syn::parse_str(&format!("fn f() {ret} {{}}")).unwrap();
            return_values(&f.sig.output, &errors)
        };
        assert_eq!(vals("-> Result<bool>"), ["Ok(true)", "Ok(false)", "Err(anyhow!(\"m\"))"]);
        assert_eq!(vals("-> fmt::Result"), ["Ok(Default::default())", "Err(anyhow!(\"m\"))"]);
        assert_eq!(vals("-> Option<Result<(), E>>"), ["None", "Some(Ok(()))", "Some(Err(anyhow!(\"m\")))"]);
        assert_eq!(vals("-> u8"), ["0", "1"]);
    }
}
