//! The static pass: a crate's modules read with `syn` from `lib.rs`, and the items a user
//! of the crate can name — through `pub` items of public modules and `pub use` — with the
//! path they name them by, the traits each type implements and its constructors.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use mutfuzz_mutate::modules::{ModDir, path_attr};
use quote::ToTokens;

use crate::error::Error;
use crate::expand::Macros;
use crate::names::camel;
use crate::ty::{Bound, INTEGERS, Ty, bounds, hash_container, hash_module};

/// A crate's public API as its users see it.
#[derive(Clone, Debug, Default)]
pub struct Api {
    /// The crate's name in Rust code (`my_crate`).
    pub krate: String,
    /// Public free functions and the public associated functions of public types.
    pub functions: Vec<Function>,
    /// The crate's types (public or not: a private type's traits still decide what a
    /// public function returns), by name.
    pub types: BTreeMap<String, TypeDef>,
    /// Every trait the crate defines, by name: a parameter bounded by one is put at a
    /// crate type implementing it (`read_u16::<byteorder::BigEndian>`).
    pub own_traits: BTreeSet<String>,
}

/// A function or method of the API.
#[derive(Clone, Debug)]
pub struct Function {
    /// The path a user writes: `my_crate::parse`, `my_crate::Doc::new`.
    pub path: String,
    pub name: String,
    /// The type it belongs to, for an associated function.
    pub owner: Option<String>,
    pub receiver: Option<Receiver>,
    /// Parameters: name (or `arg{i}` for a pattern) and type.
    pub params: Vec<(String, Ty)>,
    /// `None` for `()`.
    pub output: Option<Ty>,
    /// Type parameters (and `impl Trait` parameters, as written) with their bounds.
    pub generics: Vec<(String, Vec<Bound>)>,
    /// How many of `generics`, first, the signature declares (a turbofish names exactly
    /// these); the rest are its impl's.
    pub signature_generics: usize,
    /// Const generics or unsupported qualifiers: a reason it cannot be called.
    pub blocker: Option<String>,
    /// What the body touches outside the program (file system, network, …), if anything.
    pub effect: Option<&'static str>,
    /// `file:line`.
    pub location: String,
    /// The type the plan put in place of a type parameter whose trait it does not know,
    /// when it tries such a function at several types; `None` as scanned.
    pub instantiated: Option<String>,
    /// For a method of a std trait's impl (`<Version as Ord>::cmp`): that trait.
    pub trait_: Option<DrivenTrait>,
    /// For a method of the crate's trait implemented for a type from elsewhere, called
    /// through its qualified path (`<str as heck::ToSnakeCase>::to_snake_case`): the
    /// trait's path, which a written test imports to call it as a method.
    pub extension: Option<String>,
    /// Whether the first parameter is the receiver of such a method (`false` for an
    /// associated function of the trait, which has none).
    pub self_param: bool,
    /// The bounds its impl puts on its type's parameters, by the type's names for them
    /// (`T: FloatCore` of `impl<T: FloatCore> OrderedFloat<T>`): it exists only where
    /// the types put in meet them.
    pub requires: Vec<(String, Vec<Bound>)>,
    /// It is `#[deprecated]`: a written test that calls it allows that.
    pub deprecated: bool,
}

/// A std trait whose implementations' methods a type's call sequence drives: their
/// bodies are the crate's code, and its own tests often leave them out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrivenTrait {
    pub name: &'static str,
    /// The path a call names it by; `None` for a trait in the prelude, called as a method.
    pub path: Option<&'static str>,
}

/// The std traits driven, by the last segment of the implemented trait's path.
const DRIVEN_TRAITS: [DrivenTrait; 29] = {
    const fn prelude(name: &'static str) -> DrivenTrait {
        DrivenTrait { name, path: None }
    }
    const fn named(name: &'static str, path: &'static str) -> DrivenTrait {
        DrivenTrait { name, path: Some(path) }
    }
    [
        prelude("Clone"),
        prelude("PartialEq"),
        prelude("PartialOrd"),
        prelude("Ord"),
        prelude("Iterator"),
        prelude("DoubleEndedIterator"),
        prelude("ExactSizeIterator"),
        prelude("Extend"),
        named("Hasher", "std::hash::Hasher"),
        named("Index", "std::ops::Index"),
        named("Neg", "std::ops::Neg"),
        named("Not", "std::ops::Not"),
        named("Add", "std::ops::Add"),
        named("Sub", "std::ops::Sub"),
        named("Mul", "std::ops::Mul"),
        named("Div", "std::ops::Div"),
        named("Rem", "std::ops::Rem"),
        named("BitAnd", "std::ops::BitAnd"),
        named("BitOr", "std::ops::BitOr"),
        named("BitXor", "std::ops::BitXor"),
        named("Shl", "std::ops::Shl"),
        named("Shr", "std::ops::Shr"),
        named("AddAssign", "std::ops::AddAssign"),
        named("SubAssign", "std::ops::SubAssign"),
        named("MulAssign", "std::ops::MulAssign"),
        named("DivAssign", "std::ops::DivAssign"),
        named("BitAndAssign", "std::ops::BitAndAssign"),
        named("BitOrAssign", "std::ops::BitOrAssign"),
        named("BitXorAssign", "std::ops::BitXorAssign"),
    ]
};

impl Function {
    /// Puts each pair's type in for the name in its parameters and result, all at once.
    pub fn substitute_types(&mut self, pairs: &[(String, Ty)]) {
        self.map_types(|t| t.substitute_all(pairs));
        // And in its own parameters' bounds: `F: FnOnce(L) -> M` of `Either<L, R>`.
        for b in self.generics.iter_mut().flat_map(|(_, bounds)| bounds) {
            for t in b.args.iter_mut().chain(b.assoc.iter_mut().map(|(_, t)| t)) {
                *t = t.substitute_all(pairs);
            }
        }
    }

    /// Puts `f` of each type in its parameters and result.
    pub fn map_types(&mut self, f: impl Fn(&Ty) -> Ty) {
        for (_, ty) in &mut self.params {
            *ty = f(ty);
        }
        self.output = self.output.as_ref().map(f);
    }

    /// What an exclusion names: the path, with the type tried for a generic one
    /// (`itoa::Buffer::format::<u128>`).
    pub fn key(&self) -> String {
        // The types the plan names for a parameter only the result has
        // (`factor_into_iter::<Vec<i64>, Vec<i64>>`) are not part of the item's name.
        let path = match self.path.rfind("::<") {
            Some(at) if self.path.ends_with('>') => &self.path[..at],
            _ => &self.path,
        };
        match &self.instantiated {
            Some(t) => format!("{path}::<{t}>"),
            None => path.to_owned(),
        }
    }

    /// The name as written in a target or variant: `format`, `format_u128`.
    /// A function the plan makes up, with no parameters, result or receiver yet: an
    /// impl's trait method called by path (`<k::Set as std::hash::Hash>::hash`).
    pub fn made_up(path: String, name: &str, owner: &str) -> Function {
        Function {
            path,
            name: name.to_owned(),
            owner: Some(owner.to_owned()),
            receiver: None,
            params: Vec::new(),
            output: None,
            generics: Vec::new(),
            signature_generics: 0,
            blocker: None,
            effect: None,
            location: String::new(),
            instantiated: None,
            trait_: None,
            extension: None,
            self_param: false,
            requires: Vec::new(),
            deprecated: false,
        }
    }

    pub fn target_name(&self) -> String {
        self.suffixed(self.name.trim_start_matches("r#"))
    }

    /// The call of this method on `value` with `args`: `value.len()`, or through the
    /// trait's path where the prelude does not have it (`std::hash::Hasher::write(&mut
    /// hasher, &bytes)`, a crate's own trait: `k::Shape::area(&circle)`). A method taking
    /// `self` takes a clone, so the value lives on.
    pub fn call(&self, value: &str, args: &[String]) -> String {
        self.call_on(value, args, &format!("{value}.clone()"))
    }

    /// [`call`](Self::call), moving `value` where the method takes it by value.
    pub fn call_moving(&self, value: &str, args: &[String]) -> String {
        self.call_on(value, args, value)
    }

    fn call_on(&self, value: &str, args: &[String], by_value: &str) -> String {
        let args = args.join(", ");
        let path = self.trait_.and_then(|t| t.path).map(str::to_owned).or_else(|| self.extension.clone());
        match (path, self.receiver) {
            (Some(path), Some(receiver)) => {
                let value = match receiver {
                    Receiver::Ref => format!("&{value}"),
                    Receiver::RefMut => format!("&mut {value}"),
                    Receiver::Value => by_value.to_owned(),
                };
                let sep = if args.is_empty() { "" } else { ", " };
                format!("{path}::{}({value}{sep}{args})", self.name)
            }
            (_, Some(Receiver::Value)) => format!("{by_value}.{}({args})", self.name),
            _ => format!("{value}.{}({args})", self.name),
        }
    }

    /// `base`, followed by the type tried for a generic function: `digits_u128`.
    pub fn suffixed(&self, base: &str) -> String {
        match &self.instantiated {
            Some(t) => format!("{base}_{t}"),
            None => base.to_owned(),
        }
    }
}

/// How a method takes `self`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Receiver {
    Ref,
    RefMut,
    Value,
}

/// An enum variant users can write: its name, its fields (named or not), whether they are named.
pub type Variant = (String, Vec<(String, Ty)>, bool);

/// A struct or enum of the crate.
#[derive(Clone, Debug, Default)]
pub struct TypeDef {
    pub name: String,
    /// Its public path, if users can name it.
    pub path: Option<String>,
    /// Traits derived or implemented, by last segment (`Debug`, `FromStr`, …).
    pub traits: BTreeSet<String>,
    /// Its `Debug` is derived: the text is the value as written (its variant, fields).
    pub debug_derived: bool,
    /// `From<T>` / `TryFrom<T>` impls: the `T`s.
    pub from: Vec<Ty>,
    pub try_from: Vec<Ty>,
    /// `FromIterator<T>` impls: the `T`s.
    pub from_iter: Vec<Ty>,
    /// Type parameters or lifetimes: not built by generated code, unless the plan puts a
    /// concrete type in for each of its `type_params`.
    pub generic: bool,
    /// Its type parameters in order: name, bounds, and whether it has a default. Unless
    /// `fixed_generic`, the plan may build it at concrete types (`Slab::<i64>`).
    pub type_params: Vec<(String, Vec<Bound>, bool)>,
    /// Its integer const parameters: where they stand among the type parameters, and
    /// name (`ArrayVec<T, const CAP: usize>`: `(1, "CAP")`). The plan may build it at a
    /// small capacity (`ArrayVec::<i64, 16>`).
    pub const_params: Vec<(usize, String)>,
    /// It stays generic: a lifetime or a const parameter not of an integer type, or a
    /// second definition of its name (behind another `cfg`, in another module) with
    /// other parameters.
    pub fixed_generic: bool,
    /// Its only parameters are lifetimes (`BidiInfo<'text>`), in its one definition: a
    /// value borrows what it was built from, so the harness builds it from a `Make…` it
    /// keeps (`make(&self)`).
    pub borrows: bool,
    /// Another type of its name, in another module, is not driven: a signature naming it
    /// may mean either, so nothing is taken from this one's impls for it (an iterator's
    /// item type).
    pub shadowed: bool,
    /// Its name is another definition's too (behind another `cfg`, or in another module,
    /// renamed or not): a signature's `Error` may mean either, with other variants.
    pub homonym: bool,
    /// A field's type names a std hash container or its iterator (its order is random).
    pub hashed: bool,
    /// It is generic over a hasher that defaults to std's `RandomState`: its `capacity`
    /// after removals depends on the random keys.
    pub random_hasher: bool,
    /// It implements `Hash` by hand (a derived one has no code of the crate's): a call
    /// sequence compares its hash with another value's.
    pub hash_impl: bool,
    /// The methods its own `Iterator` impl writes (`next`, `size_hint`, …), and `len` where
    /// its `ExactSizeIterator` impl writes one: where a method returns it, which of them a
    /// call sequence should reach.
    pub iterator_methods: BTreeSet<String>,
    /// Its own `Iterator` impl's `type Item`.
    pub iterator_item: Option<Ty>,
    /// The bounds that impl puts on its parameters (`L: Iterator` of `impl<L, R> Iterator
    /// for Either<L, R>`).
    pub iterator_requires: Vec<(String, Vec<Bound>)>,
    /// For each parameter, the bounds of its inherent impls under which the most of their
    /// public functions exist (see `impl_bounds`): the plan builds it at types that meet
    /// them (`NotNan::<f64>`).
    pub impl_bounds: Vec<(String, Vec<Bound>)>,
    /// Field type names (for `hashed` through other crate types).
    pub field_types: Vec<String>,
    /// A struct whose fields are all public, named and not `#[non_exhaustive]`: they
    /// can be written as a literal.
    pub fields: Option<Vec<(String, Ty)>>,
    /// The public named fields of a struct that cannot be written as a literal (some
    /// fields private, or `#[non_exhaustive]`): a user sets them on a value.
    pub settable: Vec<(String, Ty)>,
    /// An enum's variants that users can write: name, fields (named or not), named.
    pub variants: Vec<Variant>,
    /// Its public constants (`pub const CONTROLS: &AsciiSet`, `impl Size { pub const
    /// ZERO: Size }`): name, path, and whether the constant is a reference to one.
    pub consts: Vec<(String, String, bool)>,
}

/// A module found by the walk.
#[derive(Default)]
struct Module {
    /// Its path from the crate root, by definition.
    path: Vec<String>,
    /// `pub` items by name; the value says what it is.
    items: BTreeMap<String, Def>,
    /// `pub` submodules by name, apart: a module and a function may share a name (`pub
    /// mod encode;` beside `pub fn encode`).
    submodules: BTreeMap<String, usize>,
    /// `pub use` entries: (name it is exported as, source path as written, glob).
    uses: Vec<(String, Vec<String>, bool)>,
    /// Names any `use` brings in from std (`core`, `alloc`), with their paths: the module's
    /// `Duration` is `std::time::Duration`, whatever type of the crate has the name.
    std_names: BTreeMap<String, Vec<String>>,
    /// Std's time types a `use std::time::*` brings in, where nothing else gives the name.
    std_glob_names: BTreeMap<String, Vec<String>>,
    /// Every name a `use` brings in by name, from anywhere: it shadows a glob's.
    imported: BTreeSet<String>,
    /// The names a `use` brings in from outside std: `Debug` after `use derive_more::Debug`
    /// is not std's derive.
    foreign: BTreeSet<String>,
    /// A glob `use` of another crate (`use chrono::*`): any name may be its.
    foreign_glob: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Def {
    /// A module, by index.
    Module(usize),
    /// A function or type defined in module `.0` with name `.1`.
    Item(usize, String),
}

/// Reads the crate whose root is `lib_rs`, named `krate` in code, with these features on.
pub fn read(lib_rs: &Path, krate: &str, features: &BTreeSet<String>) -> Result<Api, Error> {
    let mut walk = Walk {
        features,
        modules: Vec::new(),
        fns: Vec::new(),
        consts: Vec::new(),
        impls: Vec::new(),
        types: BTreeMap::new(),
        own_traits: BTreeSet::new(),
        pub_traits: BTreeMap::new(),
        provided: BTreeMap::new(),
        aliases: Vec::new(),
        macros: Macros::default(),
    };
    let root = walk.file(lib_rs, ModDir::of_file(lib_rs, true, ""), Vec::new())?;
    debug_assert_eq!(root, 0);
    let exported = walk.exports();
    walk.qualify_std_names();
    // Types are told apart by name in the plan and in generated code: of two types with
    // one name (`shlex::Quoter`, `shlex::bytes::Quoter`), the one with the shorter path
    // keeps it, and the other takes its module's name in front (`BytesQuoter`), in its
    // impls and in the signatures written beside it; where that name is taken too, its
    // methods are listed as skipped.
    let homes = walk.type_homes(&exported);
    let mut types = BTreeMap::new();
    for ((name, module), def) in &walk.types {
        if homes.get(name) == Some(module) {
            types.insert(name.clone(), def.clone());
        }
    }
    let mut renamed: BTreeMap<(String, usize), String> = BTreeMap::new();
    for ((name, module), def) in &walk.types {
        let Some(path) = exported.get(&Def::Item(*module, name.clone())) else { continue };
        let Some(last) = walk.modules[*module].path.last() else { continue };
        let own = format!("{}{name}", camel(last));
        if homes.get(name) == Some(module) || types.contains_key(&own) {
            continue;
        }
        let path = Some(format!("{krate}::{path}"));
        types.insert(own.clone(), TypeDef { name: own.clone(), path, ..def.clone() });
        renamed.insert((name.clone(), *module), own);
    }
    // A type of the name that no one can name from outside (`deque::Iter` in a private
    // module, beside the public `Iter`) still is what signatures beside it mean.
    for (name, module) in walk.types.keys() {
        if homes.get(name) != Some(module)
            && !renamed.contains_key(&(name.clone(), *module))
            && let Some(t) = types.get_mut(name)
        {
            t.shadowed = true;
        }
    }
    let mut modules_of: BTreeMap<&str, usize> = BTreeMap::new();
    for (name, _) in walk.types.keys() {
        *modules_of.entry(name).or_default() += 1;
    }
    for key in walk.types.keys() {
        if modules_of[key.0.as_str()] > 1
            && let Some(t) = types.get_mut(renamed.get(key).unwrap_or(&key.0))
        {
            t.homonym = true;
        }
    }
    let mut api =
        Api { krate: krate.to_owned(), functions: Vec::new(), types, own_traits: walk.own_traits.clone() };

    for (def, path) in &exported {
        if let Def::Item(module, name) = def
            && homes.get(name) == Some(module)
            && let Some(t) = api.types.get_mut(name)
        {
            t.path.get_or_insert_with(|| format!("{krate}::{path}"));
        }
    }
    // `pub type WildMatch = WildMatchPattern<'*', '?'>`: a type whose const parameters
    // an alias puts in is driven by the alias's path, and named as it (in its impls too).
    for (module, alias, ty) in &walk.aliases {
        let Some(path) = exported.get(&Def::Item(*module, alias.clone())) else { continue };
        let Some((name, home)) = ty.name().and_then(|n| Some((n.to_owned(), *homes.get(n)?))) else {
            continue;
        };
        let Some(t) = api.types.get(&name) else { continue };
        let only_consts = (t.fixed_generic || !t.const_params.is_empty())
            && t.type_params.iter().all(|(.., default)| *default);
        if !only_consts || matches!(ty, Ty::Path { lifetimes: true, .. }) || api.types.contains_key(alias) {
            continue;
        }
        let Some(mut t) = api.types.remove(&name) else { continue };
        (t.name, t.path) = (alias.clone(), Some(format!("{krate}::{path}")));
        (t.generic, t.fixed_generic) = (false, false);
        api.types.insert(alias.clone(), t);
        renamed.insert((name, home), alias.clone());
    }
    for (module, name, ty) in &walk.consts {
        let Some(path) = exported.get(&Def::Item(*module, name.clone())) else { continue };
        let (by_ref, owner) = const_type(ty, None);
        if let Some(t) = owner.and_then(|o| api.types.get_mut(o)) {
            t.consts.push((name.clone(), format!("{krate}::{path}"), by_ref));
        }
    }
    // Impls of a type named otherwise (a second type of its name, or one driven through
    // an alias) take that name; those of a second type left unnamed are listed.
    let mut shadowed = Vec::new();
    for mut imp in std::mem::take(&mut walk.impls) {
        let Some((name, m)) = walk.self_type_module(&imp) else {
            walk.impls.push(imp);
            continue;
        };
        let second = homes.get(&name).is_some_and(|home| *home != m);
        match renamed.get(&(name.clone(), m)) {
            Some(own) => {
                // An alias puts the type's (const) arguments in: it takes none.
                imp.self_ty = match imp.self_ty {
                    Ty::Ref { inner, mutable } => {
                        Ty::Ref { inner: Box::new(inner.with_name(own, second)), mutable }
                    }
                    ty => ty.with_name(own, second),
                };
                for f in imp.functions.iter_mut().chain(&mut imp.trait_fns) {
                    f.map_types(|t| t.renamed(&name, own, second));
                }
                walk.impls.push(imp);
            }
            None if second => shadowed.push((name, m, imp.functions)),
            None => walk.impls.push(imp),
        }
    }
    for (name, m, functions) in shadowed {
        let type_path = match exported.get(&Def::Item(m, name.clone())) {
            Some(p) => format!("{krate}::{p}"),
            None => continue,
        };
        let home = api.types.get(&name).and_then(|t| t.path.clone()).unwrap_or_else(|| name.clone());
        for f in functions.into_iter().filter(|f| f.trait_.is_none()) {
            api.functions.push(Function {
                path: format!("{type_path}::{}", f.name),
                blocker: Some(format!(
                    "a method of a second type named `{name}` (only `{home}` is driven: generated code tells types apart by name)"
                )),
                ..f
            });
        }
    }
    walk.impls.extend(blanket_instances(&walk.impls, &walk.own_traits));
    let extensions =
        extension_methods(&walk.impls, &walk.pub_traits, &walk.own_traits, &walk.provided, &exported, &api);
    for f in walk.fns {
        if extensions.iter().any(|(listed, _)| *listed == f.function.name) {
            // A trait's method driven below, by an impl.
        } else if let Some(path) = exported.get(&Def::Item(f.module, f.function.name.clone())) {
            api.functions.push(Function { path: format!("{krate}::{path}"), ..f.function });
        } else if f.function.name.contains("::") {
            // A public trait's method, listed (as skipped) by the trait's path, else by
            // where the trait is defined.
            let (trait_name, method) = f.function.name.split_once("::").unwrap_or_default();
            let path = match exported.get(&Def::Item(f.module, trait_name.to_owned())) {
                Some(trait_path) => format!("{krate}::{trait_path}::{method}"),
                None => {
                    let mut path = vec![krate.to_owned()];
                    path.extend(walk.modules[f.module].path.iter().cloned());
                    path.push(f.function.name.clone());
                    path.join("::")
                }
            };
            api.functions.push(Function { path, ..f.function });
        }
    }
    api.functions.extend(extensions.into_iter().map(|(_, f)| f));
    let mut inherent: BTreeMap<String, Vec<InherentImpl>> = BTreeMap::new();
    for mut imp in walk.impls {
        // A driven trait implemented for a reference (an operator: `impl BitAnd for &Set`)
        // is the type's too: its `self` is the value borrowed, and its `Self` the
        // reference. Other traits' impls hold no functions, and add no trait to the type.
        let inherent_impl = imp.trait_.is_none();
        let by_ref = match &imp.self_ty {
            Ty::Ref { inner, mutable: false } if imp.trait_.is_some() => Some(inner.as_ref().clone()),
            _ => None,
        };
        if let Some(inner) = by_ref {
            let reference = imp.self_ty.clone();
            imp.self_ty = inner;
            imp.trait_ = None;
            for f in &mut imp.functions {
                if f.receiver == Some(Receiver::Value) {
                    f.receiver = Some(Receiver::Ref);
                }
                f.substitute_types(&[("Self".to_owned(), reference.clone())]);
            }
        }
        let Some(name) = imp.self_ty.name().map(str::to_owned) else { continue };
        let Some(def) = api.types.get_mut(&name) else { continue };
        // An impl may name the type's parameters otherwise (`impl<U> Slab<U>`): its
        // functions name them as the type does, where the plan puts concrete types in.
        // All at once: `impl<B, A> Pair<B, A>` swaps them.
        let renamed: Vec<(&str, &str)> = imp
            .self_ty
            .args()
            .iter()
            .zip(&def.type_params)
            .filter_map(|(arg, (param, ..))| Some((arg.plain_name()?, param.as_str())))
            .filter(|(own, param)| own != param && imp.params.iter().any(|p| p == own))
            .collect();
        // The bounds the impl puts on the type's parameters, by the type's names for them.
        let requires: Vec<(String, Vec<Bound>)> = imp
            .self_ty
            .args()
            .iter()
            .zip(&def.type_params)
            .filter_map(|(arg, (param, ..))| {
                let (_, bounds) =
                    imp.param_bounds.iter().find(|(p, _)| Some(p.as_str()) == arg.plain_name())?;
                (!bounds.is_empty()).then(|| (param.clone(), bounds.clone()))
            })
            .collect();
        if inherent_impl {
            inherent.entry(name.clone()).or_default().push((imp.functions.len(), requires.clone()));
        }
        for f in &mut imp.functions {
            f.requires = requires.clone();
            // A method's own parameter of that name is another type.
            let pairs: Vec<(String, Ty)> = renamed
                .iter()
                .filter(|(own, _)| !f.generics.iter().any(|(g, _)| g == own))
                .map(|(own, param)| ((*own).to_owned(), Ty::named(param, Vec::new())))
                .collect();
            f.substitute_types(&pairs);
        }
        let item = imp.assoc_type("Item").cloned();
        if let Some(tr) = imp.trait_ {
            match tr.name.as_str() {
                "From" => def.from.extend(tr.args.first().cloned()),
                "TryFrom" => def.try_from.extend(tr.args.first().cloned()),
                "FromIterator" => def.from_iter.extend(tr.args.first().cloned()),
                "Hash" if !walk.own_traits.contains("Hash") => def.hash_impl = true,
                "Iterator" => {
                    def.iterator_methods.extend(imp.functions.iter().map(|f| f.name.clone()));
                    def.iterator_item = item;
                    def.iterator_requires = requires;
                }
                "ExactSizeIterator" if imp.functions.iter().any(|f| f.name == "len") => {
                    def.iterator_methods.insert("len".into());
                }
                _ => {}
            }
            def.traits.insert(tr.name);
        }
        let Some(type_path) = def.path.clone() else { continue };
        for (c, ty) in &imp.consts {
            if let (by_ref, Some(owner)) = const_type(ty, Some(&name))
                && owner == name
            {
                def.consts.push((c.clone(), format!("{type_path}::{c}"), by_ref));
            }
        }
        for mut f in imp.functions {
            if f.trait_.is_some_and(|t| walk.own_traits.contains(t.name)) {
                continue;
            }
            if def.random_hasher && f.name == "capacity" && f.blocker.is_none() {
                f.blocker = Some("returns what differs from run to run: a capacity that depends on the hasher's random keys (`RandomState`)".to_owned());
            }
            f.path = format!("{type_path}::{}", f.name);
            f.owner = Some(name.clone());
            api.functions.push(f);
        }
    }
    for (name, impls) in inherent {
        if let Some(def) = api.types.get_mut(&name) {
            def.impl_bounds = impl_bounds(&def.type_params, &impls);
        }
    }
    // A trait's method is called by its name: one of that name per type (the inherent
    // method, else the first impl's: `Index<usize>` before `Index<Range<usize>>`, or
    // the first of two crate traits').
    let by_trait = |f: &Function| f.trait_.is_some() || (f.extension.is_some() && f.owner.is_some());
    let inherent: BTreeSet<(Option<String>, String)> =
        api.functions.iter().filter(|f| !by_trait(f)).map(|f| (f.owner.clone(), f.name.clone())).collect();
    let mut seen = BTreeSet::new();
    api.functions.retain(|f| {
        let key = (f.owner.clone(), f.name.clone());
        !by_trait(f) || (!inherent.contains(&key) && seen.insert(key))
    });
    // A type holding a crate type that holds a hash container is hashed too.
    loop {
        let hashed: BTreeSet<String> =
            api.types.values().filter(|t| t.hashed).map(|t| t.name.clone()).collect();
        let mut changed = false;
        for t in api.types.values_mut() {
            if !t.hashed && t.field_types.iter().any(|f| hashed.contains(f)) {
                t.hashed = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    api.functions.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(api)
}

struct FoundFn {
    module: usize,
    function: Function,
}

/// An inherent impl of a generic type: how many public functions it holds, and the
/// bounds it puts on the type's parameters.
type InherentImpl = (usize, Vec<(String, Vec<Bound>)>);

/// For each of a type's parameters, the bounds under which the most public functions of
/// its inherent `impls` exist: `T: FloatCore` where `impl<T: FloatCore> NotNan<T>` holds
/// `new` and `impl<T> NotNan<T>` holds `into_inner`; none where an unbounded impl holds
/// more. Ties go to the fewer bounds.
fn impl_bounds(params: &[(String, Vec<Bound>, bool)], impls: &[InherentImpl]) -> Vec<(String, Vec<Bound>)> {
    let names = |bounds: &[Bound]| bounds.iter().map(|b| b.name.clone()).collect::<BTreeSet<String>>();
    let mut out = Vec::new();
    for (param, ..) in params {
        let of = |requires: &[(String, Vec<Bound>)]| {
            requires.iter().find(|(p, _)| p == param).map(|(_, bs)| bs.clone()).unwrap_or_default()
        };
        let enabled = |chosen: &BTreeSet<String>| -> usize {
            impls.iter().filter(|(_, req)| names(&of(req)).is_subset(chosen)).map(|(n, _)| n).sum()
        };
        // The first of the best: `max_by_key` would take the last.
        let best = impls
            .iter()
            .map(|(_, req)| of(req))
            .rev()
            .max_by_key(|bs| (enabled(&names(bs)), std::cmp::Reverse(bs.len())))
            .filter(|bs| enabled(&names(bs)) > enabled(&BTreeSet::new()));
        if let Some(bounds) = best {
            out.push((param.clone(), bounds));
        }
    }
    out
}

/// The methods of the crate's public traits (without parameters) implemented by
/// non-generic impls, each with the name it is listed by as a trait method
/// (`ToSnakeCase::to_snake_case`):
/// - for a type from elsewhere (`impl ToSnakeCase for str`), as free functions of that
///   type called through the trait (`<str as heck::ToSnakeCase>::to_snake_case(&value)`;
///   an associated function without `self` too); of two impls (`for str`, `for
///   String`), the first;
/// - for every type meeting std bounds (`impl<T: AsRef<[u8]>> ToHex for T`), as generic
///   free functions (`hex::ToHex::encode_hex(&value)`, `value: T`);
/// - for one of the crate's types (`impl Shape for Circle`), as methods of that type,
///   called through the trait's path (`k::Shape::area(&circle)`), and its associated
///   functions as free functions of their own, through the qualified path
///   (`<byteorder::BigEndian as byteorder::ByteOrder>::read_u16(&buf)`), one per type.
///
/// The methods the trait provides (a default body) count as each impl's where it does not
/// write them (byteorder's `impl<R: io::Read + ?Sized> ReadBytesExt for R {}`).
fn extension_methods(
    impls: &[FoundImpl],
    pub_traits: &BTreeMap<String, Vec<usize>>,
    own_traits: &BTreeSet<String>,
    provided: &BTreeMap<String, Vec<Function>>,
    exported: &BTreeMap<Def, String>,
    api: &Api,
) -> Vec<(String, Function)> {
    let mut out: Vec<(String, Function)> = Vec::new();
    // The trait methods driven for a type from elsewhere, by listed name: of two impls,
    // the first (a crate type's associated functions are each its own).
    let mut foreign: BTreeSet<String> = BTreeSet::new();
    for imp in impls {
        let Some(tr) = imp.trait_.as_ref().filter(|t| t.args.is_empty()) else { continue };
        // Over the types meeting std bounds alone (`impl<T: AsRef<[u8]>> ToHex for T`):
        // generic methods, called through the trait. Bounds naming a crate trait are
        // instantiated at its types (`blanket_instances`).
        let blanket = match &imp.blanket {
            Some(bounds) if bounds.iter().all(|b| !own_traits.contains(&b.name)) => Some(bounds),
            Some(_) => continue,
            None => None,
        };
        // By name: a name two traits share is left alone.
        let Some(&[module]) = pub_traits.get(&tr.name).map(Vec::as_slice) else { continue };
        let Some(trait_path) = exported.get(&Def::Item(module, tr.name.clone())) else { continue };
        let trait_path = format!("{}::{trait_path}", api.krate);
        let mut named = Vec::new();
        imp.self_ty.names(&mut named);
        let own_def =
            imp.self_ty.name().filter(|_| imp.self_ty.args().is_empty()).and_then(|n| api.types.get(n));
        let own = match own_def {
            _ if blanket.is_some() => None,
            Some(def) => match &def.path {
                Some(type_path) if !def.generic => Some((def.name.clone(), type_path.clone())),
                _ => continue,
            },
            None if named.iter().any(|n| api.types.contains_key(n) || n == "Self") => continue,
            None => None,
        };
        // The impl's methods, and those the trait provides that it does not write
        // (byteorder's `impl<R: io::Read + ?Sized> ReadBytesExt for R {}`).
        let written: BTreeSet<&str> = imp.trait_fns.iter().map(|f| f.name.as_str()).collect();
        let defaults =
            provided.get(&tr.name).into_iter().flatten().filter(|f| !written.contains(f.name.as_str()));
        for f in imp.trait_fns.iter().chain(defaults) {
            let listed = format!("{}::{}", tr.name, f.name);
            let mut f = f.clone();
            f.extension = Some(trait_path.clone());
            if let Some((owner, type_path)) = &own {
                if f.receiver.is_none() {
                    // An associated function, of this type's impl: called through its
                    // qualified path (`<byteorder::BigEndian as byteorder::ByteOrder>::read_u16`).
                    f.substitute_types(&[("Self".to_owned(), imp.self_ty.clone())]);
                    f.path = format!("<{type_path} as {trait_path}>::{}", f.name);
                    out.push((listed, f));
                    continue;
                }
                f.path = format!("{type_path}::{}", f.name);
                f.owner = Some(owner.clone());
                out.push((listed, f));
                continue;
            }
            if foreign.contains(&listed) || (blanket.is_some() && f.receiver.is_none()) {
                continue;
            }
            // A method takes its receiver as the first parameter; an associated function
            // (`<Vec<u8> as FromHex>::from_hex(text)`) is called as it is.
            if let Some(receiver) = f.receiver.take() {
                let inner = Box::new(imp.self_ty.clone());
                let ty = match receiver {
                    Receiver::Ref => Ty::Ref { inner, mutable: false },
                    Receiver::RefMut => Ty::Ref { inner, mutable: true },
                    Receiver::Value => imp.self_ty.clone(),
                };
                let name = ["value", "this", "receiver"]
                    .into_iter()
                    .find(|n| f.params.iter().all(|(p, _)| p != n))
                    .unwrap_or("self_value");
                f.params.insert(0, (name.to_owned(), ty));
                f.self_param = true;
            }
            // `-> Self::Owned` (a trait over `ToOwned`): `String` for `str`.
            if let Some(Ty::Path { segments, .. }) = &f.output
                && segments.len() == 2
                && segments[0] == "Self"
                && segments[1] == "Owned"
            {
                f.output = Some(match &imp.self_ty {
                    t if t.plain_name() == Some("str") => Ty::named("String", Vec::new()),
                    Ty::Slice(item) => Ty::named("Vec", vec![(**item).clone()]),
                    t => t.clone(),
                });
            }
            // `Self::Error` is the impl's `type Error`.
            let mut pairs: Vec<(String, Ty)> =
                imp.assoc_types.iter().map(|(n, t)| (format!("Self::{n}"), t.clone())).collect();
            pairs.push(("Self".to_owned(), imp.self_ty.clone()));
            f.substitute_types(&pairs);
            if let (Some(bounds), Some(param)) = (blanket, imp.params.first()) {
                // `Self` is the argument's type, which the plan chooses by the bounds.
                f.generics.push((param.clone(), bounds.clone()));
                f.path = format!("{trait_path}::{}", f.name);
            } else {
                // Qualified: `Self` is not inferred through a deref (`&String` is no `&str`).
                f.path = format!("<{} as {trait_path}>::{}", imp.self_ty, f.name);
            }
            foreign.insert(listed.clone());
            out.push((listed, f));
        }
    }
    out
}

/// Whether a constant's type is a reference, and the name of the type it is (or refers
/// to); `Self` is `owner`.
fn const_type<'a>(ty: &'a Ty, owner: Option<&'a str>) -> (bool, Option<&'a str>) {
    let (by_ref, ty) = match ty {
        Ty::Ref { inner, mutable: false } => (true, inner.as_ref()),
        ty => (false, ty),
    };
    if !ty.args().is_empty() {
        return (by_ref, None);
    }
    (by_ref, ty.name().map(|n| if n == "Self" { owner.unwrap_or(n) } else { n }))
}

/// A blanket impl of a trait over the types implementing the crate's other traits
/// (`impl<T: ?Sized + ToSnakeCase> ToSnekCase for T`), as an impl for each type the
/// crate implements all of them for without parameters (`str`), its `T` put in.
fn blanket_instances(impls: &[FoundImpl], own_traits: &BTreeSet<String>) -> Vec<FoundImpl> {
    let mut out = Vec::new();
    for imp in impls {
        let (Some(bounds), Some(tr)) = (&imp.blanket, &imp.trait_) else { continue };
        let Some(param) = imp.params.first() else { continue };
        let mut types: Option<Vec<&Ty>> = None;
        for b in bounds.iter().filter(|b| own_traits.contains(&b.name)) {
            let implementing: Vec<&Ty> = impls
                .iter()
                .filter(|i| i.blanket.is_none() && i.params.is_empty())
                .filter(|i| i.trait_.as_ref().is_some_and(|t| t.name == b.name))
                .map(|i| &i.self_ty)
                .collect();
            types = Some(match types {
                None => implementing,
                Some(kept) => kept.into_iter().filter(|t| implementing.contains(t)).collect(),
            });
        }
        for ty in types.unwrap_or_default() {
            let pairs = [(param.clone(), ty.clone())];
            let trait_fns = imp
                .trait_fns
                .iter()
                .map(|f| {
                    let mut f = f.clone();
                    f.substitute_types(&pairs);
                    f
                })
                .collect();
            out.push(FoundImpl {
                param_bounds: Vec::new(),
                module: imp.module,
                self_ty: ty.clone(),
                params: Vec::new(),
                trait_: Some(tr.clone()),
                functions: Vec::new(),
                trait_fns,
                blanket: None,
                consts: Vec::new(),
                assoc_types: imp
                    .assoc_types
                    .iter()
                    .map(|(n, t)| (n.clone(), t.substitute_all(&pairs)))
                    .collect(),
            });
        }
    }
    out
}

struct FoundImpl {
    /// The module it is written in.
    module: usize,
    self_ty: Ty,
    /// The impl's own type parameters (`U` of `impl<U> Slab<U>`).
    params: Vec<String>,
    trait_: Option<Bound>,
    functions: Vec<Function>,
    /// The methods of a non-generic impl of a trait that is not driven (a crate's own,
    /// maybe), as written.
    trait_fns: Vec<Function>,
    /// For an impl over every type meeting some bounds (`impl<T: ToSnakeCase> ToSnekCase
    /// for T`), those bounds.
    blanket: Option<Vec<Bound>>,
    /// The public associated constants of an inherent impl: name, type.
    consts: Vec<(String, Ty)>,
    /// Its associated types (`type Item = u8;`): name, type.
    assoc_types: Vec<(String, Ty)>,
    /// Its type parameters with their bounds (`where` clauses too).
    param_bounds: Vec<(String, Vec<Bound>)>,
}

impl FoundImpl {
    fn assoc_type(&self, name: &str) -> Option<&Ty> {
        self.assoc_types.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }
}

struct Walk<'a> {
    features: &'a BTreeSet<String>,
    modules: Vec<Module>,
    fns: Vec<FoundFn>,
    /// Public constants of modules: module, name, type.
    consts: Vec<(usize, String, Ty)>,
    impls: Vec<FoundImpl>,
    /// By name and defining module.
    types: BTreeMap<(String, usize), TypeDef>,
    /// Every trait the crate defines, public or not: an impl of one named like a driven
    /// std trait (a crate's own `Hasher`) is not std's.
    own_traits: BTreeSet<String>,
    /// The public traits without parameters, by name, with the modules defining one.
    pub_traits: BTreeMap<String, Vec<usize>>,
    /// The methods those traits provide (a default body), by trait name.
    provided: BTreeMap<String, Vec<Function>>,
    /// Public type aliases without parameters: module, name, the type it names.
    aliases: Vec<(usize, String, Ty)>,
    /// The crate's `macro_rules!`, learned in the order the walk meets them.
    macros: Macros,
}

impl Walk<'_> {
    fn file(&mut self, path: &Path, dir: ModDir, mod_path: Vec<String>) -> Result<usize, Error> {
        let text = fs::read_to_string(path).map_err(|e| Error::Read(path.to_owned(), e))?;
        let file = syn::parse_file(&text).map_err(|e| Error::Parse(path.to_owned(), e.to_string()))?;
        if is_hidden(&file.attrs) {
            return Ok(self.module(mod_path));
        }
        self.items(&file.items, path, &dir, mod_path)
    }

    fn module(&mut self, path: Vec<String>) -> usize {
        self.modules.push(Module { path, ..Module::default() });
        self.modules.len() - 1
    }

    fn items(
        &mut self,
        items: &[syn::Item],
        file: &Path,
        dir: &ModDir,
        mod_path: Vec<String>,
    ) -> Result<usize, Error> {
        let me = self.module(mod_path.clone());
        let items = &self.macros.expand(items);
        // Before the items: a `use` anywhere in the module says what a derive's name is.
        for item in items {
            if let syn::Item::Use(u) = item
                && self.active(&u.attrs)
            {
                self.use_item(me, u);
            }
        }
        for item in items {
            if let syn::Item::Trait(t) = item {
                self.own_traits.insert(t.ident.to_string());
            }
            match item {
                syn::Item::Mod(m) if self.active(&m.attrs) => {
                    let name = m.ident.to_string();
                    let mut sub_path = mod_path.clone();
                    sub_path.push(name.clone());
                    let attr = path_attr(&m.attrs);
                    let sub = match &m.content {
                        Some((_, inner)) => {
                            self.items(inner, file, &dir.inline(&name, attr.as_deref()), sub_path)?
                        }
                        None => {
                            let found =
                                dir.candidates(&name, attr.as_deref()).into_iter().find(|c| c.path.exists());
                            match found {
                                Some(c) => {
                                    let sub_dir = ModDir::of_file(&c.path, c.owns_dir, &name);
                                    self.file(&c.path, sub_dir, sub_path)?
                                }
                                None => continue,
                            }
                        }
                    };
                    if is_pub(&m.vis) && !is_hidden(&m.attrs) {
                        self.modules[me].submodules.insert(name, sub);
                    }
                }
                syn::Item::Const(c) if is_pub(&c.vis) && self.active(&c.attrs) && !is_hidden(&c.attrs) => {
                    let name = c.ident.to_string();
                    self.modules[me].items.insert(name.clone(), Def::Item(me, name.clone()));
                    self.consts.push((me, name, Ty::from_syn(&c.ty)));
                }
                syn::Item::Fn(f) if self.active(&f.attrs) => {
                    let function = function(&f.sig, &f.attrs, f.block.to_token_stream().to_string(), file);
                    if is_pub(&f.vis) && !is_hidden(&f.attrs) {
                        self.modules[me]
                            .items
                            .insert(function.name.clone(), Def::Item(me, function.name.clone()));
                        self.fns.push(FoundFn { module: me, function });
                    }
                }
                syn::Item::Struct(s) if self.active(&s.attrs) => {
                    let fields: Vec<Ty> = s.fields.iter().map(|f| Ty::from_syn(&f.ty)).collect();
                    self.type_def(me, &s.ident, &s.vis, &s.attrs, &s.generics, &fields);
                    let open = matches!(s.fields, syn::Fields::Named(_))
                        && s.fields.iter().all(|f| is_pub(&f.vis))
                        && !has_attr(&s.attrs, "non_exhaustive");
                    if let Some(t) = self.types.get_mut(&(s.ident.to_string(), me))
                        && let syn::Fields::Named(named) = &s.fields
                    {
                        if open {
                            t.fields = Some(named_fields(&s.fields));
                        } else {
                            t.settable = named
                                .named
                                .iter()
                                .filter(|f| is_pub(&f.vis))
                                .filter_map(|f| Some((f.ident.as_ref()?.to_string(), Ty::from_syn(&f.ty))))
                                .collect();
                        }
                    }
                }
                syn::Item::Enum(e) if self.active(&e.attrs) => {
                    let fields: Vec<Ty> = e
                        .variants
                        .iter()
                        .flat_map(|v| v.fields.iter().map(|f| Ty::from_syn(&f.ty)))
                        .collect();
                    self.type_def(me, &e.ident, &e.vis, &e.attrs, &e.generics, &fields);
                    let variants = e
                        .variants
                        .iter()
                        .filter(|v| {
                            !has_attr(&v.attrs, "non_exhaustive")
                                && !is_hidden(&v.attrs)
                                && self.active(&v.attrs)
                        })
                        .map(|v| {
                            (
                                v.ident.to_string(),
                                named_fields(&v.fields),
                                matches!(v.fields, syn::Fields::Named(_)),
                            )
                        })
                        .collect();
                    if let Some(t) = self.types.get_mut(&(e.ident.to_string(), me)) {
                        t.variants = variants;
                    }
                }
                syn::Item::Impl(i) if self.active(&i.attrs) && i.unsafety.is_none() => {
                    let trait_ = i.trait_.as_ref().and_then(|(p, _)| {
                        let last = p.segments.last()?;
                        let b = bounds(std::iter::once(&syn::TypeParamBound::Trait(syn::TraitBound {
                            paren_token: None,
                            lifetimes: None,
                            modifiers: Default::default(),
                            maybe: None,
                            path: syn::Path::from(last.clone()),
                        })));
                        b.into_iter().next()
                    });
                    // A generic impl's methods are collected too: on a type whose parameters
                    // all have defaults (`BitVec<B = u32>`) they are called on the default.
                    // So are the methods of a std trait's impl that the call sequence drives.
                    let driven =
                        trait_.as_ref().and_then(|t| DRIVEN_TRAITS.iter().find(|d| d.name == t.name));
                    let mut functions = Vec::new();
                    if trait_.is_none() || driven.is_some() {
                        for it in &i.items {
                            if let syn::ImplItem::Fn(f) = it
                                && (is_pub(&f.vis) || driven.is_some())
                                && self.active(&f.attrs)
                                && !is_hidden(&f.attrs)
                            {
                                let mut found =
                                    function(&f.sig, &f.attrs, f.block.to_token_stream().to_string(), file);
                                found.trait_ = driven.copied();
                                functions.push(found);
                            }
                        }
                    }
                    let consts = if trait_.is_none() {
                        i.items
                            .iter()
                            .filter_map(|it| match it {
                                syn::ImplItem::Const(c)
                                    if is_pub(&c.vis) && self.active(&c.attrs) && !is_hidden(&c.attrs) =>
                                {
                                    Some((c.ident.to_string(), Ty::from_syn(&c.ty)))
                                }
                                _ => None,
                            })
                            .collect()
                    } else {
                        Vec::new()
                    };
                    // Another trait's methods, for a crate trait implemented for a type
                    // from elsewhere (see `extension_methods`).
                    let mut trait_fns = Vec::new();
                    let lifetimes_only = i.generics.type_params().next().is_none()
                        && i.generics.const_params().next().is_none();
                    // `impl<T: ToSnakeCase> ToSnekCase for T`: the bounds of its `T`.
                    let blanket = match (i.generics.type_params().collect::<Vec<_>>().as_slice(), &*i.self_ty)
                    {
                        ([p], syn::Type::Path(tp))
                            if i.generics.const_params().next().is_none() && tp.path.is_ident(&p.ident) =>
                        {
                            generic_params(&i.generics).pop().map(|(_, bs)| bs)
                        }
                        _ => None,
                    };
                    if trait_.is_some() && driven.is_none() && (lifetimes_only || blanket.is_some()) {
                        for it in &i.items {
                            if let syn::ImplItem::Fn(f) = it
                                && self.active(&f.attrs)
                            {
                                trait_fns.push(function(
                                    &f.sig,
                                    &f.attrs,
                                    f.block.to_token_stream().to_string(),
                                    file,
                                ));
                            }
                        }
                    }
                    // The impl's parameters that its type does not name (`T` of `impl<T:
                    // Into<u64>> Mul<T> for Size`) are its methods' own.
                    let self_ty = Ty::from_syn(&i.self_ty);
                    let mut named = Vec::new();
                    self_ty.names(&mut named);
                    let own: Vec<_> =
                        generic_params(&i.generics).into_iter().filter(|(p, _)| !named.contains(p)).collect();
                    for f in &mut functions {
                        for (p, bs) in &own {
                            if !f.generics.iter().any(|(g, _)| g == p) {
                                f.generics.push((p.clone(), bs.clone()));
                            }
                        }
                    }
                    let params = i.generics.type_params().map(|p| p.ident.to_string()).collect();
                    self.impls.push(FoundImpl {
                        param_bounds: generic_params(&i.generics),
                        module: me,
                        self_ty,
                        params,
                        trait_,
                        functions,
                        trait_fns,
                        blanket,
                        consts,
                        assoc_types: i
                            .items
                            .iter()
                            .filter_map(|it| match it {
                                syn::ImplItem::Type(t) => Some((t.ident.to_string(), Ty::from_syn(&t.ty))),
                                _ => None,
                            })
                            .collect(),
                    });
                }
                syn::Item::Trait(t) if is_pub(&t.vis) && self.active(&t.attrs) && !is_hidden(&t.attrs) => {
                    let name = t.ident.to_string();
                    // Entered as an item so that its exported path is known.
                    if t.generics.params.is_empty() {
                        self.modules[me].items.insert(name.clone(), Def::Item(me, name.clone()));
                        self.pub_traits.entry(name.clone()).or_default().push(me);
                    }
                    for it in &t.items {
                        if let syn::TraitItem::Fn(f) = it
                            && t.generics.params.is_empty()
                            && self.active(&f.attrs)
                            && let Some(body) = &f.default
                        {
                            let provided =
                                function(&f.sig, &f.attrs, body.to_token_stream().to_string(), file);
                            self.provided.entry(name.clone()).or_default().push(provided);
                        }
                        if let syn::TraitItem::Fn(f) = it
                            && self.active(&f.attrs)
                        {
                            let mut function = function(&f.sig, &f.attrs, String::new(), file);
                            function.name = format!("{name}::{}", f.sig.ident);
                            function.blocker = Some(format!(
                                "a method of the trait `{name}` (trait methods are not driven: call them from a target of your own)"
                            ));
                            self.modules[me]
                                .items
                                .insert(function.name.clone(), Def::Item(me, function.name.clone()));
                            self.fns.push(FoundFn { module: me, function });
                        }
                    }
                }
                syn::Item::Type(t)
                    if is_pub(&t.vis)
                        && self.active(&t.attrs)
                        && !is_hidden(&t.attrs)
                        && t.generics.params.is_empty() =>
                {
                    let name = t.ident.to_string();
                    self.modules[me].items.insert(name.clone(), Def::Item(me, name.clone()));
                    self.aliases.push((me, name, Ty::from_syn(&t.ty)));
                }
                _ => {}
            }
        }
        Ok(me)
    }

    /// What an active `use` of module `me` brings in: the names it imports from std and
    /// from other crates (how the module's types and derives read), and its exports.
    fn use_item(&mut self, me: usize, u: &syn::ItemUse) {
        let mut out = Vec::new();
        use_leaves(&u.tree, Vec::new(), &mut out);
        let module = &mut self.modules[me];
        for (name, source, glob) in &out {
            let first = source.first().map(String::as_str);
            let std = matches!(first, Some("std" | "core" | "alloc"));
            let own = matches!(first, Some("crate" | "self" | "super"));
            match (glob, std) {
                (false, true) => {
                    module.std_names.insert(name.clone(), source.clone());
                }
                // `use std::time::*`: an explicit `use` of the name wins. (`core::time`
                // has no `SystemTime`.)
                (true, true) if source[1..] == ["time"] => {
                    let names = if source[0] == "core" { &STD_TIME[..1] } else { &STD_TIME[..] };
                    for name in names {
                        let path = source.iter().cloned().chain([(*name).to_owned()]).collect();
                        module.std_glob_names.entry((*name).to_owned()).or_insert(path);
                    }
                }
                (true, _) => module.foreign_glob |= !std && !own,
                (false, false) if !own => {
                    module.foreign.insert(name.clone());
                }
                _ => {}
            }
            if !glob {
                module.imported.insert(name.clone());
            }
        }
        if is_pub(&u.vis) && !is_hidden(&u.attrs) {
            module.uses.extend(out);
        }
    }

    fn type_def(
        &mut self,
        module: usize,
        ident: &syn::Ident,
        vis: &syn::Visibility,
        attrs: &[syn::Attribute],
        generics: &syn::Generics,
        fields: &[Ty],
    ) {
        let name = ident.to_string();
        // Types are entered here only: one already there was defined before (behind
        // another `cfg`).
        let again = self.types.contains_key(&(name.clone(), module));
        let mut traits = derives(attrs);
        let mut field_names = Vec::new();
        fields.iter().for_each(|f| f.names(&mut field_names));
        // A hash container, or one of its iterators (`hash_map::Iter`, or a name a `use`
        // brings from there: multimap's `IterAll`), whose order is too.
        let std_names = &self.modules[module].std_names;
        let hashed = field_names.iter().any(|n| {
            hash_container(n)
                || hash_module(n)
                || std_names.get(n).is_some_and(|path| path.iter().any(|s| hash_module(s)))
        });
        let entry = self
            .types
            .entry((name.clone(), module))
            .or_insert_with(|| TypeDef { name: name.clone(), ..TypeDef::default() });
        // Of every definition of the name (behind other `cfg`s), or none.
        let here = &self.modules[module];
        let std_debug =
            std_derives(attrs, here.foreign.contains("Debug") || here.foreign_glob).contains("Debug");
        entry.debug_derived = std_debug && (entry.debug_derived || !again);
        entry.homonym |= again;
        entry.traits.append(&mut traits);
        // Parameters with defaults (`struct BitVec<B = u32>`) leave it nameable as `BitVec`.
        entry.generic |= generics.params.iter().any(|p| match p {
            syn::GenericParam::Type(t) => t.default.is_none(),
            _ => true,
        });
        let mut consts = Vec::new();
        for (i, p) in
            generics.params.iter().filter(|p| !matches!(p, syn::GenericParam::Lifetime(_))).enumerate()
        {
            if let syn::GenericParam::Const(c) = p {
                match Ty::from_syn(&c.ty).plain_name() {
                    Some(t) if INTEGERS.contains(&t) && c.default.is_none() => {
                        consts.push((i, c.ident.to_string()))
                    }
                    _ => entry.fixed_generic = true,
                }
            }
        }
        let lifetimes =
            generics.params.iter().filter(|p| matches!(p, syn::GenericParam::Lifetime(_))).count();
        entry.fixed_generic |= lifetimes > 0;
        entry.borrows = lifetimes > 0 && lifetimes == generics.params.len() && (!again || entry.borrows);
        if again && entry.const_params != consts {
            entry.fixed_generic = true;
        }
        entry.const_params = consts;
        let mut params = Vec::new();
        for t in generics.type_params() {
            let mut b = bounds(t.bounds.iter());
            if let Some(w) = &generics.where_clause {
                for pred in &w.predicates {
                    if let syn::WherePredicate::Type(pt) = pred
                        && Ty::from_syn(&pt.bounded_ty).plain_name() == Some(&t.ident.to_string())
                    {
                        b.extend(bounds(pt.bounds.iter()));
                    }
                }
            }
            // `S = RandomState` (or `S: BuildHasher`): a hash table's layout, and so its
            // capacity after removals, differs from run to run.
            let default = t.default.as_ref().map(|(_, d)| Ty::from_syn(d));
            entry.random_hasher |= default.as_ref().and_then(Ty::name) == Some("RandomState")
                || b.iter().any(|b| b.name == "BuildHasher");
            params.push((t.ident.to_string(), b, t.default.is_some()));
        }
        if again && entry.type_params != params {
            entry.fixed_generic = true;
        }
        entry.type_params = params;
        entry.hashed |= hashed;
        entry.field_types.extend(field_names);
        if is_pub(vis) && !is_hidden(attrs) {
            self.modules[module].items.insert(name.clone(), Def::Item(module, name));
        }
    }

    /// Writes out, in the signatures of each module, the std names it imports where the
    /// plan reads a type by name: under the name of one of the crate's types (humantime's
    /// `use std::time::Duration` beside its own `Duration`), std's time types (a bare
    /// `Duration` may be chrono's), and std modules a path goes through (`time::Duration`
    /// after `use std::time`, where the crate may have a `time` module of its own).
    fn qualify_std_names(&mut self) {
        let own: BTreeSet<String> = self.types.keys().map(|(name, _)| name.clone()).collect();
        let aliased: BTreeSet<(usize, &String)> =
            self.aliases.iter().map(|(m, name, _)| (*m, name)).collect();
        for (i, module) in self.modules.iter_mut().enumerate() {
            let defined =
                |name: &String| self.types.contains_key(&(name.clone(), i)) || aliased.contains(&(i, name));
            let globbed = std::mem::take(&mut module.std_glob_names);
            for (name, path) in globbed {
                if !module.imported.contains(&name) && !defined(&name) {
                    module.std_names.insert(name, path);
                }
            }
            // A time type named alone that no `use` of the module brings from elsewhere,
            // where the crate has no type of the name: std's, re-exported to it (`use
            // super::*` below `use std::time::Duration`, `use crate::SystemTime`).
            for name in STD_TIME {
                let name = name.to_owned();
                if !module.std_names.contains_key(&name)
                    && !module.foreign.contains(&name)
                    && !module.foreign_glob
                    && !own.contains(&name)
                    && !defined(&name)
                {
                    module.std_names.insert(name.clone(), vec!["std".into(), "time".into(), name]);
                }
            }
        }
        let modules = &self.modules;
        // `use core::str;` brings the module: `str` in a type is still the primitive.
        let primitive =
            |name: &str| INTEGERS.contains(&name) || ["str", "bool", "char", "f32", "f64"].contains(&name);
        let written_out = |module: usize, ty: &Ty| {
            // A std time type under another name too (`use std::time::Duration as Span`).
            let names = modules[module].std_names.iter().filter(|(name, path)| {
                !primitive(name)
                    && (own.contains(*name)
                        || STD_TIME.contains(&name.as_str())
                        || path.last().is_some_and(|l| STD_TIME.contains(&l.as_str()))
                        // A hash container's iterator (multimap's `Keys`): its order is random.
                        || path.iter().any(|s| hash_module(s))
                        || !is_type_name(path))
            });
            names.fold(ty.clone(), |t, (name, path)| t.qualified(name, path))
        };
        for found in &mut self.fns {
            found.function.map_types(|t| written_out(found.module, t));
        }
        for imp in &mut self.impls {
            let module = imp.module;
            imp.functions
                .iter_mut()
                .chain(&mut imp.trait_fns)
                .for_each(|f| f.map_types(|t| written_out(module, t)));
            // A std type a crate's trait is implemented for is named by its whole path in
            // generated code, which has none of the crate's `use`s (path-clean's `<Path as
            // PathClean>::clean`).
            if !own.iter().any(|o| imp.self_ty.plain_name() == Some(o)) {
                let std_names = modules[module].std_names.iter().filter(|(name, _)| !primitive(name));
                imp.self_ty = std_names.fold(imp.self_ty.clone(), |t, (name, path)| t.qualified(name, path));
            }
        }
        // A struct's fields, a variant's, and an alias: built or resolved as the
        // signatures are (`pub type Stamp = SystemTime;`, `timeout: Duration`).
        for ((_, module), def) in &mut self.types {
            for (_, ty) in
                def.fields.iter_mut().flatten().chain(def.variants.iter_mut().flat_map(|v| &mut v.1))
            {
                *ty = written_out(*module, ty);
            }
        }
        for (module, _, ty) in &mut self.aliases {
            *ty = written_out(*module, ty);
        }
    }

    /// Whether `#[cfg]` lets the item in: its predicate evaluated with `test`, `doc`,
    /// `doctest`, `loom` and `miri` off and the features of the set on (`all`, `any` and `not` as
    /// cargo's); a predicate it cannot tell (a target, `debug_assertions`) lets it in.
    fn active(&self, attrs: &[syn::Attribute]) -> bool {
        attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg"))
            .all(|a| a.parse_args::<syn::Meta>().ok().and_then(|m| self.cfg(&m)).unwrap_or(true))
    }

    /// A `cfg` predicate's value; `None` when it depends on what the scan cannot tell.
    fn cfg(&self, meta: &syn::Meta) -> Option<bool> {
        match meta {
            syn::Meta::Path(p) => {
                ["test", "doc", "doctest", "loom", "miri"].iter().any(|n| p.is_ident(n)).then_some(false)
            }
            syn::Meta::NameValue(nv) if nv.path.is_ident("feature") => match &nv.value {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => {
                    Some(self.features.contains(&s.value()))
                }
                _ => None,
            },
            syn::Meta::NameValue(_) => None,
            syn::Meta::List(list) => {
                let args = list
                    .parse_args_with(
                        syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                    )
                    .ok()?;
                let values: Vec<Option<bool>> = args.iter().map(|m| self.cfg(m)).collect();
                if list.path.is_ident("all") {
                    if values.contains(&Some(false)) {
                        Some(false)
                    } else {
                        values.iter().all(Option::is_some).then_some(true)
                    }
                } else if list.path.is_ident("any") {
                    if values.contains(&Some(true)) {
                        Some(true)
                    } else {
                        values.iter().all(Option::is_some).then_some(false)
                    }
                } else if list.path.is_ident("not") && values.len() == 1 {
                    values[0].map(|v| !v)
                } else {
                    None
                }
            }
        }
    }

    /// Every exported item and module with the shortest public path (without the crate's
    /// name): public items of public modules, then `pub use` re-exports, to a fixpoint.
    fn exports(&self) -> BTreeMap<Def, String> {
        let mut paths: BTreeMap<Def, String> = BTreeMap::new();
        paths.insert(Def::Module(0), String::new());
        loop {
            let mut changed = false;
            let reachable: Vec<(usize, String)> = paths
                .iter()
                .filter_map(|(d, p)| match d {
                    Def::Module(m) => Some((*m, p.clone())),
                    Def::Item(..) => None,
                })
                .collect();
            for (m, prefix) in reachable {
                let join = |name: &str| {
                    if prefix.is_empty() { name.to_owned() } else { format!("{prefix}::{name}") }
                };
                let mut found = Vec::new();
                self.named(m, 0, &mut found);
                for (name, def) in found {
                    let path = join(&name);
                    let better = paths
                        .get(&def)
                        .is_none_or(|old| path.matches("::").count() < old.matches("::").count());
                    if better {
                        paths.insert(def, path);
                        changed = true;
                    }
                }
            }
            if !changed {
                return paths;
            }
        }
    }

    /// What module `m` lets users name, by name: the public items and submodules it
    /// defines, what it re-exports, and through a glob what the globbed module does
    /// (libm's `pub use self::math::*`, where `math` has `pub use self::sin::sin`).
    fn named(&self, m: usize, depth: usize, out: &mut Vec<(String, Def)>) {
        out.extend(self.defined(m).map(|(name, d)| (name.to_owned(), d)));
        for (alias, source, glob) in &self.modules[m].uses {
            if *glob {
                if let Some(t) = self.resolve_module(m, source).filter(|&t| t != m && depth < 8) {
                    self.named(t, depth + 1, out);
                }
            } else if alias != "_" {
                // `pub use Trait as _;` brings a trait's methods in scope, and no name.
                // `pub use inner::encode;` exports the module and the function.
                let item = self.resolve(m, source);
                let module = self.resolve_module(m, source).map(Def::Module);
                out.extend(item.into_iter().chain(module).map(|d| (alias.clone(), d)));
            }
        }
    }

    /// The public items and submodules module `m` defines, by name.
    fn defined(&self, m: usize) -> impl Iterator<Item = (&str, Def)> + '_ {
        let items = self.modules[m].items.iter().map(|(name, d)| (name.as_str(), d.clone()));
        items.chain(self.modules[m].submodules.iter().map(|(name, sub)| (name.as_str(), Def::Module(*sub))))
    }

    /// Per type name, the module of the definition that is driven: of several, the one
    /// with the shortest exported path, else the first.
    fn type_homes(&self, exported: &BTreeMap<Def, String>) -> BTreeMap<String, usize> {
        let mut homes: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for (name, module) in self.types.keys() {
            let depth = exported
                .get(&Def::Item(*module, name.clone()))
                .map_or(usize::MAX, |p| p.matches("::").count());
            let best = homes.entry(name.clone()).or_insert((depth, *module));
            if depth < best.0 {
                *best = (depth, *module);
            }
        }
        homes.into_iter().map(|(name, (_, module))| (name, module)).collect()
    }

    /// The name of the crate type an impl is for and the module defining it, as the
    /// impl's module resolves it (`bytes::Quoter`, or a `Quoter` defined or publicly
    /// imported there).
    fn self_type_module(&self, imp: &FoundImpl) -> Option<(String, usize)> {
        let ty = match &imp.self_ty {
            Ty::Ref { inner, .. } => inner.as_ref(),
            ty => ty,
        };
        let Ty::Path { segments, .. } = ty else { return None };
        let name = segments.last()?.clone();
        let defined_in = |m: usize| self.types.contains_key(&(name.clone(), m));
        // A type of the impl's own module first: a private one is in no module's items.
        let here = (segments.len() == 1 && defined_in(imp.module)).then_some(imp.module);
        // A private import (`use super::Quoter;`) is not recorded: such an impl stays with
        // the name's driven type, as all impls did before types were told apart.
        let found = here.or_else(|| match self.resolve(imp.module, segments) {
            Some(Def::Item(m, _)) if defined_in(m) => Some(m),
            _ => None,
        })?;
        Some((name, found))
    }

    /// What a `use` path written in module `from` names inside this crate.
    fn resolve(&self, from: usize, source: &[String]) -> Option<Def> {
        self.resolve_within(from, source, RESOLVE_DEPTH, false)
    }

    /// The module a `use` path names, where a function may share its last name (a glob's
    /// source, or the module half of `pub use inner::encode;`).
    fn resolve_module(&self, from: usize, source: &[String]) -> Option<usize> {
        match self.resolve_within(from, source, RESOLVE_DEPTH, true)? {
            Def::Module(m) => Some(m),
            Def::Item(..) => None,
        }
    }

    /// [`resolve`](Self::resolve) through at most `depth` re-exports, which may name each
    /// other in a ring; with `module`, the last name is looked up as a module's.
    fn resolve_within(&self, from: usize, source: &[String], depth: usize, module: bool) -> Option<Def> {
        let depth = depth.checked_sub(1)?;
        let (mut at, rest) = match source.first()?.as_str() {
            "crate" => (0, &source[1..]),
            "self" => (from, &source[1..]),
            "super" => {
                let mut at = self.parent(from)?;
                let mut rest = &source[1..];
                while rest.first().is_some_and(|s| s == "super") {
                    at = self.parent(at)?;
                    rest = &rest[1..];
                }
                (at, rest)
            }
            // 2018 paths are relative to the module; 2015 ones to the crate root.
            first if self.lookup(from, first, depth).is_some() => (from, source),
            _ => (0, source),
        };
        if rest.is_empty() {
            return Some(Def::Module(at));
        }
        let (last, path) = rest.split_last()?;
        // Mid-path a name is a module's, though a function shares it.
        for seg in path {
            at = self.lookup_module(at, seg, depth)?;
        }
        if module {
            self.lookup_module(at, last, depth).map(Def::Module)
        } else {
            self.lookup(at, last, depth)
        }
    }

    /// A module's name in module `m`: a submodule (public or not) or a module it
    /// re-exports, whatever item shares the name.
    fn lookup_module(&self, m: usize, name: &str, depth: usize) -> Option<usize> {
        if let Some(i) = self.child(m, name) {
            return Some(i);
        }
        self.modules[m].uses.iter().find_map(|(alias, source, glob)| {
            let named = !glob && alias == name && source.first().is_none_or(|first| first != name);
            match self.resolve_within(m, source, depth, true) {
                Some(Def::Module(t)) if named => Some(t),
                _ => None,
            }
        })
    }

    /// A name in module `m`: a submodule or item it defines (private ones too, since a
    /// `pub use` may re-export a private module's public item), or one it re-exports.
    fn lookup(&self, m: usize, name: &str, depth: usize) -> Option<Def> {
        if let Some(d) = self.modules[m].items.get(name) {
            return Some(d.clone());
        }
        if let Some(i) = self.child(m, name) {
            return Some(Def::Module(i));
        }
        if self.fns.iter().any(|f| f.module == m && f.function.name == name) {
            return Some(Def::Item(m, name.to_owned()));
        }
        for (alias, source, glob) in &self.modules[m].uses {
            // `pub use serde;` names the extern crate, not itself.
            if !glob && alias == name && source.first().is_none_or(|first| first != name) {
                return self.resolve_within(m, source, depth, false);
            }
        }
        None
    }

    /// Module `m`'s submodule `name`, public or not.
    fn child(&self, m: usize, name: &str) -> Option<usize> {
        let mut child = self.modules[m].path.clone();
        child.push(name.to_owned());
        self.modules.iter().position(|x| x.path == child)
    }

    fn parent(&self, m: usize) -> Option<usize> {
        let path = &self.modules[m].path;
        let parent = &path[..path.len().checked_sub(1)?];
        self.modules.iter().position(|x| x.path == parent)
    }
}

/// How many re-exports a path is followed through before it is taken to name nothing
/// (each step may look its first segment up twice: keep it small).
const RESOLVE_DEPTH: usize = 8;

/// The time types of std the plan builds from numbers (`Duration::from_nanos`,
/// `UNIX_EPOCH + …`).
const STD_TIME: [&str; 2] = ["Duration", "SystemTime"];

/// Whether a `use` path names a type (or trait), not a module: `std::time::Duration`, not
/// `std::time`.
fn is_type_name(path: &[String]) -> bool {
    path.last().and_then(|l| l.chars().next()).is_some_and(char::is_uppercase)
}

fn use_leaves(tree: &syn::UseTree, prefix: Vec<String>, out: &mut Vec<(String, Vec<String>, bool)>) {
    match tree {
        syn::UseTree::Path(p) => {
            let mut next = prefix;
            next.push(p.ident.to_string());
            use_leaves(&p.tree, next, out);
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut source = prefix;
            if name == "self" {
                let alias = source.last().cloned().unwrap_or_default();
                out.push((alias, source, false));
            } else {
                source.push(name.clone());
                out.push((name, source, false));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut source = prefix;
            if r.ident != "self" {
                source.push(r.ident.to_string());
            }
            out.push((r.rename.to_string(), source, false));
        }
        syn::UseTree::Glob(_) => out.push((String::new(), prefix, true)),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_leaves(t, prefix.clone(), out)),
    }
}

fn has_attr(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.path().is_ident(name))
}

/// Fields with their names (`arg{i}` for a tuple's).
fn named_fields(fields: &syn::Fields) -> Vec<(String, Ty)> {
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            (f.ident.as_ref().map_or_else(|| format!("arg{i}"), ToString::to_string), Ty::from_syn(&f.ty))
        })
        .collect()
}

fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

/// `#[doc(hidden)]`: not part of the documented API.
fn is_hidden(attrs: &[syn::Attribute]) -> bool {
    // `#[doc(hidden)]` (or `#[doc(hidden, alias = "…")]`), not a doc comment saying "hidden".
    attrs.iter().any(|a| {
        let syn::Meta::List(list) = &a.meta else { return false };
        list.path.is_ident("doc")
            && list
                .parse_args_with(syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
                .is_ok_and(|metas| metas.iter().any(|m| m.path().is_ident("hidden")))
    })
}

/// The traits std derives in `attrs`: `Debug`, not `derive_more::Debug`, whose text is
/// the crate's own; a bare name only where `bare_foreign` is false (no `use` of the
/// module may bring another crate's derive of it).
fn std_derives(attrs: &[syn::Attribute], bare_foreign: bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = a.parse_nested_meta(|m| {
            let segments: Vec<String> = m.path.segments.iter().map(|s| s.ident.to_string()).collect();
            if let [.., last] = &segments[..]
                && ((segments.len() == 1 && !bare_foreign)
                    || matches!(segments[0].as_str(), "std" | "core" | "alloc"))
            {
                out.insert(last.clone());
            }
            Ok(())
        });
    }
    out
}

fn derives(attrs: &[syn::Attribute]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for a in attrs {
        if a.path().is_ident("derive") {
            let _ = a.parse_nested_meta(|m| {
                if let Some(last) = m.path.segments.last() {
                    out.insert(last.ident.to_string());
                }
                Ok(())
            });
        }
    }
    out
}

/// The type parameters of `generics` with their bounds, the `where` clause's included.
fn generic_params(generics: &syn::Generics) -> Vec<(String, Vec<Bound>)> {
    let mut params: Vec<(String, Vec<Bound>)> =
        generics.type_params().map(|p| (p.ident.to_string(), bounds(p.bounds.iter()))).collect();
    if let Some(w) = &generics.where_clause {
        for pred in &w.predicates {
            if let syn::WherePredicate::Type(t) = pred {
                let mut ty = Ty::from_syn(&t.bounded_ty);
                // `&'a I: IntoIterator<Item = E>` bounds `I` (a collection borrowed).
                if let Ty::Ref { inner, .. } = &ty
                    && inner.plain_name().is_some()
                {
                    ty = (**inner).clone();
                }
                match params.iter_mut().find(|(n, _)| Some(n.as_str()) == ty.plain_name()) {
                    Some((_, bs)) => bs.extend(bounds(t.bounds.iter())),
                    None => params.push((ty.to_string(), bounds(t.bounds.iter()))),
                }
            }
        }
    }
    params
}

fn function(sig: &syn::Signature, attrs: &[syn::Attribute], body: String, file: &Path) -> Function {
    let generics = generic_params(&sig.generics);
    let mut blocker = None;
    if sig.generics.const_params().next().is_some() {
        blocker = Some("has const generic parameters".to_owned());
    }
    if !matches!(sig.safety, syn::Safety::Default | syn::Safety::Safe(_)) {
        blocker = Some("is an `unsafe fn`".to_owned());
    }
    if sig.asyncness.is_some() {
        blocker = Some("is an `async fn`".to_owned());
    }
    if sig.abi.is_some() || sig.variadic.is_some() {
        blocker = Some("has a foreign ABI".to_owned());
    }
    let receiver = sig.receiver().map(|r| match &r.kind {
        syn::ReceiverKind::Reference(_, _, Some(_)) => Receiver::RefMut,
        syn::ReceiverKind::Reference(_, _, None) => Receiver::Ref,
        syn::ReceiverKind::Value => Receiver::Value,
        _ => {
            blocker.get_or_insert_with(|| "takes `self` through a smart pointer".to_owned());
            Receiver::Value
        }
    });
    let params = sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            syn::FnArg::Typed(p) => Some(p),
            syn::FnArg::Receiver(_) => None,
        })
        .enumerate()
        .map(|(i, p)| {
            let name = match &*p.pat {
                syn::Pat::Ident(id) => id.ident.to_string().trim_start_matches('_').to_owned(),
                _ => String::new(),
            };
            let name = if name.is_empty() || name == "self" { format!("arg{i}") } else { name };
            (name, Ty::from_syn(&p.ty))
        })
        .collect();
    let output = match &sig.output {
        syn::ReturnType::Default => None,
        syn::ReturnType::Type(_, t) => Some(Ty::from_syn(t)).filter(|t| *t != Ty::Tuple(Vec::new())),
    };
    let line = sig.ident.span().start().line;
    Function {
        path: String::new(),
        name: sig.ident.to_string(),
        owner: None,
        receiver,
        params,
        output,
        // The declared ones, first: a `where` clause's `Self: Sized` is none.
        signature_generics: sig.generics.type_params().count(),
        generics,
        blocker,
        effect: effect(&body, sig.to_token_stream().to_string().contains("Path")),
        location: format!("{}:{line}", file_name(file)),
        instantiated: None,
        trait_: None,
        extension: None,
        self_param: false,
        requires: Vec::new(),
        deprecated: attrs.iter().any(|a| a.path().is_ident("deprecated")),
    }
}

fn file_name(file: &Path) -> String {
    // Relative to the package root: the part from `src/` on, where there is one.
    let s = file.to_string_lossy();
    match s.rfind("/src/") {
        Some(i) => s[i + 1..].to_owned(),
        None => s.into_owned(),
    }
}

/// What a function body touches outside the program, judged from the names it calls
/// (the body only: what its callees do is not followed).
fn effect(body: &str, takes_path: bool) -> Option<&'static str> {
    // Token text from `quote` separates path segments as `fs :: read`.
    const EFFECTS: [(&str, &str); 17] = [
        ("fs ::", "the file system"),
        (". canonicalize ()", "the file system"),
        (". read_dir ()", "the file system"),
        ("File ::", "the file system"),
        ("OpenOptions", "the file system"),
        ("net ::", "the network"),
        ("TcpStream", "the network"),
        ("UdpSocket", "the network"),
        ("process ::", "processes"),
        ("Command ::", "processes"),
        ("env ::", "the environment"),
        ("SystemTime ::", "the clock"),
        ("Instant ::", "the clock"),
        ("thread :: sleep", "the clock"),
        // `t.elapsed()` on a `SystemTime` or an `Instant` given or held. A crate's own
        // method of the name is taken for it too: an item skipped, rather than a test
        // that passes today and fails later.
        (". elapsed ()", "the clock"),
        ("stdin ()", "standard input"),
        ("println !", "standard output"),
    ];
    // What a path asks the file system, where the signature has a path: elsewhere these
    // are often a crate's own methods (url's `SchemeType::is_file`).
    const PATH_QUERIES: [&str; 5] =
        [". exists ()", ". try_exists ()", ". is_file ()", ". is_dir ()", ". metadata ()"];
    if takes_path && PATH_QUERIES.iter().any(|q| body.contains(q)) {
        return Some("the file system");
    }
    EFFECTS.iter().find(|(needle, _)| body.contains(needle)).map(|(_, what)| *what)
}

/// Where the library's root file is, from `Cargo.toml`'s `[lib] path` or the default.
pub fn lib_root(package_root: &Path, lib_path: Option<&Path>) -> PathBuf {
    lib_path.map(Path::to_owned).unwrap_or_else(|| package_root.join("src/lib.rs"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn api(files: &[(&str, &str)]) -> Api {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = dir.path().join(path);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        }
        read(&dir.path().join("src/lib.rs"), "k", &BTreeSet::from(["std".to_owned()])).unwrap()
    }

    #[test]
    fn a_glob_of_a_private_module_exports_what_it_re_exports_and_cfg_if_items_are_read() {
        let api = api(&[
            (
                "src/lib.rs",
                "mod math;\npub use self::math::*;\n\
                 cfg_if::cfg_if! { if #[cfg(feature = \"off\")] { pub fn slow() {} } else { pub fn fast() {} } }\n",
            ),
            ("src/math/mod.rs", "mod sin;\npub use self::sin::sin;\n"),
            ("src/math/sin.rs", "pub fn sin(x: f64) -> f64 { x }\n"),
        ]);
        let paths: Vec<&str> = api.functions.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["k::fast", "k::sin"]);
    }

    #[test]
    fn a_path_query_is_an_effect_only_where_the_signature_has_a_path() {
        let api = api(&[(
            "src/lib.rs",
            "pub fn here(p: &std::path::Path) -> bool { p.is_file() }\n\
             pub fn local(s: &Scheme) -> bool { s.is_file() }\n\
             pub struct Scheme;\n\
             impl Scheme { pub fn is_file(&self) -> bool { true } }\n",
        )]);
        let effects: Vec<(&str, Option<&str>)> =
            api.functions.iter().map(|f| (f.name.as_str(), f.effect)).collect();
        assert_eq!(effects, [("is_file", None), ("here", Some("the file system")), ("local", None)]);
    }

    #[test]
    fn a_std_type_a_crate_trait_is_implemented_for_is_named_by_its_whole_path() {
        let api = api(&[(
            "src/lib.rs",
            "use std::path::Path;\npub trait Clean { fn clean(&self) -> u8; }\n\
             impl Clean for Path { fn clean(&self) -> u8 { 0 } }\n",
        )]);
        let paths: Vec<&str> = api.functions.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["<std::path::Path as k::Clean>::clean"]);
    }

    #[test]
    fn a_str_module_imported_leaves_str_the_primitive() {
        let api = api(&[(
            "src/lib.rs",
            "use core::str;\npub fn len(s: &str) -> usize { str::from_utf8(s.as_bytes()).map_or(0, str::len) }\n",
        )]);
        let f = &api.functions[0];
        assert_eq!(f.params[0].1.to_string(), "&str");
    }

    #[test]
    fn an_items_key_leaves_out_the_types_a_call_names_for_its_result() {
        let f = |path: &str, instantiated: Option<&str>| Function {
            path: path.to_owned(),
            instantiated: instantiated.map(str::to_owned),
            ..api(&[("src/lib.rs", "pub fn f() {}\n")]).functions[0].clone()
        };
        // A key excluded after a failed compile must be the one the plan looks up.
        assert_eq!(
            f("k::Either::factor_into_iter::<Vec<i64>, Vec<i64>>", None).key(),
            "k::Either::factor_into_iter"
        );
        assert_eq!(f("k::Slab::<i64>::new", None).key(), "k::Slab::<i64>::new");
        assert_eq!(f("k::Buffer::format", Some("u128")).key(), "k::Buffer::format::<u128>");
    }

    #[test]
    fn cfg_is_evaluated_with_the_features_given_and_those_they_imply_already_in_the_set() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("src")).unwrap();
        fs::write(
            dir.path().join("src/lib.rs"),
            "#[cfg(feature = \"check\")] pub fn check() {}\n\
             #[cfg(any(feature = \"check\", feature = \"cb58\"))] pub fn either() {}\n\
             #[cfg(all(feature = \"check\", feature = \"cb58\"))] pub fn both() {}\n\
             #[cfg(not(feature = \"std\"))] pub fn no_std() {}\n\
             #[cfg(all(feature = \"check\", not(test)))] pub fn not_test() {}\n\
             #[cfg(all(feature = \"check\", target_os = \"linux\"))] pub fn on_a_target() {}\n\
             #[cfg(any(test, doc))] pub fn docs() {}\n\
             #[cfg(doctest)] pub fn doctest_only() {}\n\
             #[cfg(feature = \"test-utils\")] pub fn utils() {}\n\
             #[cfg(feature = \"check\")] pub mod checked { pub fn inner() {} }\n\
             pub fn always() {}\n",
        )
        .unwrap();
        let paths = |features: &[&str]| -> Vec<String> {
            let on = features.iter().map(|f| f.to_string()).collect();
            let api = read(&dir.path().join("src/lib.rs"), "k", &on).unwrap();
            api.functions.iter().map(|f| f.path.trim_start_matches("k::").to_owned()).collect()
        };
        assert_eq!(paths(&["default", "std"]), ["always"]);
        assert_eq!(
            paths(&["default", "std", "check", "cb58", "sha2"]),
            ["always", "both", "check", "checked::inner", "either", "not_test", "on_a_target"]
        );
        assert_eq!(
            paths(&["check", "test-utils"]),
            ["always", "check", "checked::inner", "either", "no_std", "not_test", "on_a_target", "utils"]
        );
    }

    #[test]
    fn a_type_holding_a_hash_containers_iterator_by_any_name_is_hashed() {
        let api = api(&[(
            "src/lib.rs",
            "use std::collections::hash_map::Keys;\npub use std::collections::hash_map::Iter as IterAll;\n\
             pub struct Named<'a> { inner: Keys<'a, u8, u8> }\n\
             pub struct Renamed<'a> { inner: IterAll<'a, u8, u8> }\n\
             pub struct Listed<'a> { inner: std::slice::Iter<'a, u8> }\n",
        )]);
        let hashed = |name: &str| api.types[name].hashed;
        assert!(hashed("Named") && hashed("Renamed"));
        assert!(!hashed("Listed"));
    }

    #[test]
    fn public_paths_follow_pub_mod_and_pub_use() {
        let api = api(&[
            (
                "src/lib.rs",
                "//! No hidden state: a doc comment saying so hides nothing.\n\
                 mod inner; pub mod open; pub use inner::{Doc, parse as read};\n\
                 pub use open::deep::*; fn private() {}\n#[cfg(test)] pub fn t() {}\n\
                 #[doc(hidden)] pub fn hidden() {}\n#[doc(hidden, alias = \"h\")] pub fn aliased() {}\n\
                 #[cfg(feature = \"off\")] pub fn gated() {}\n/// Finds the hidden value.\npub fn seek() {}",
            ),
            (
                "src/inner.rs",
                "#[derive(Debug, Clone)] pub struct Doc { m: std::collections::HashMap<u8, u8> }\n\
                 impl Doc { pub fn new() -> Doc { todo!() } fn hidden(&self) {} pub fn len(&self) -> usize { 0 } }\n\
                 impl std::str::FromStr for Doc { type Err = (); fn from_str(_: &str) -> Result<Doc, ()> { todo!() } }\n\
                 impl From<u8> for Doc { fn from(_: u8) -> Doc { todo!() } }\n\
                 pub fn parse(s: &str) -> Doc { todo!() }\npub fn unexported() {}",
            ),
            (
                "src/open.rs",
                "pub mod deep { pub fn f<T: AsRef<str>>(t: T) where T: Clone { std::fs::read(\"x\"); } }",
            ),
        ]);
        let paths: Vec<&str> = api.functions.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["k::Doc::len", "k::Doc::new", "k::f", "k::read", "k::seek"]);
        let doc = &api.types["Doc"];
        assert_eq!(doc.path.as_deref(), Some("k::Doc"));
        assert!(doc.hashed);
        assert_eq!(doc.traits, BTreeSet::from(["Clone", "Debug", "From", "FromStr"].map(String::from)));
        assert_eq!(doc.from, [Ty::named("u8", vec![])]);
        let f = api.functions.iter().find(|f| f.name == "f").unwrap();
        assert_eq!(f.generics[0].0, "T");
        assert_eq!(f.generics[0].1.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(), ["AsRef", "Clone"]);
        assert_eq!(f.effect, Some("the file system"));
        assert_eq!(f.location, "src/open.rs:1");
        let len = api.functions.iter().find(|f| f.name == "len").unwrap();
        assert_eq!((len.receiver, len.owner.as_deref()), (Some(Receiver::Ref), Some("Doc")));
    }

    #[test]
    fn of_two_types_with_one_name_the_shorter_path_keeps_it_and_the_other_takes_its_modules() {
        let api = api(&[(
            "src/lib.rs",
            "pub mod bytes {\n\
                 #[derive(Debug)] pub struct Quoter { pub nul: bool }\n\
                 impl Quoter { pub fn quote(&self, b: &[u8]) -> Vec<u8> { b.to_vec() } }\n\
             }\n\
             #[derive(Debug)] pub struct Quoter { inner: bytes::Quoter }\n\
             impl Quoter { pub fn quote(&self, s: &str) -> String { s.to_owned() } }\n\
             impl bytes::Quoter { pub fn nul(&self) -> bool { self.nul } }\n\
             pub mod extra { pub struct Quoter; impl Quoter { pub fn new() -> Quoter { Quoter } } }\n\
             pub struct ExtraQuoter;\n",
        )]);
        let quoter = &api.types["Quoter"];
        assert_eq!(quoter.path.as_deref(), Some("k::Quoter"));
        // The root one's private field, not the other's public one.
        assert!(quoter.fields.is_none());
        let bytes = &api.types["BytesQuoter"];
        assert_eq!((bytes.path.as_deref(), bytes.fields.is_some()), (Some("k::bytes::Quoter"), true));
        let listed: Vec<(&str, Option<&str>, bool)> = api
            .functions
            .iter()
            .map(|f| (f.path.as_str(), f.owner.as_deref(), f.blocker.is_some()))
            .collect();
        assert_eq!(
            listed,
            [
                ("k::Quoter::quote", Some("Quoter"), false),
                ("k::bytes::Quoter::nul", Some("BytesQuoter"), false),
                ("k::bytes::Quoter::quote", Some("BytesQuoter"), false),
                ("k::extra::Quoter::new", None, true),
            ]
        );
        // A third `Quoter`, whose module's name is taken by another type, is listed.
        assert!(api.functions[3].blocker.as_deref().unwrap().contains("only `k::Quoter` is driven"));
        let quote = &api.functions[0];
        assert_eq!(quote.params[0].1.to_string(), "&str");
    }

    #[test]
    fn a_blanket_impl_is_driven_at_the_types_implementing_its_crate_trait_or_at_a_generic() {
        let api = api(&[(
            "src/lib.rs",
            "pub trait ToSnake { fn to_snake(&self) -> String; }\n\
             impl ToSnake for str { fn to_snake(&self) -> String { self.to_lowercase() } }\n\
             pub trait ToSnek: ToSnake { fn to_snek(&self) -> String; }\n\
             impl<T: ?Sized + ToSnake> ToSnek for T { fn to_snek(&self) -> String { self.to_snake() } }\n\
             pub trait Loud { fn loud(&self) -> String; }\n\
             impl<T: std::fmt::Display> Loud for T { fn loud(&self) -> String { self.to_string() } }\n",
        )]);
        let listed: Vec<(&str, bool)> =
            api.functions.iter().map(|f| (f.path.as_str(), f.blocker.is_some())).collect();
        assert_eq!(
            listed,
            [
                ("<str as k::ToSnake>::to_snake", false),
                ("<str as k::ToSnek>::to_snek", false),
                ("k::Loud::loud", false)
            ]
        );
        let snek = &api.functions[1];
        assert_eq!(snek.params[0].1.to_string(), "&str");
        // Over a std trait alone (`Display`): generic, at a type the plan chooses.
        let loud = &api.functions[2];
        assert_eq!(loud.params[0].1.to_string(), "&T");
        assert_eq!(loud.generics[0].1[0].name, "Display");
    }

    #[test]
    fn a_time_given_whose_age_is_read_touches_the_clock() {
        let api = api(&[(
            "src/lib.rs",
            "use std::time::SystemTime;\n\
             pub fn age(t: SystemTime) -> u64 { t.elapsed().map_or(0, |d| d.as_secs()) }\n\
             pub fn since(t: SystemTime) -> u64 { t.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()) }\n",
        )]);
        let effect = |name: &str| api.functions.iter().find(|f| f.name == name).unwrap().effect;
        assert_eq!((effect("age"), effect("since")), (Some("the clock"), None));
    }

    #[test]
    fn an_associated_function_of_a_crate_trait_for_a_std_type_is_called_through_the_trait() {
        let api = api(&[(
            "src/lib.rs",
            "#[derive(Debug)] pub enum HexError { Odd }\n\
             pub trait FromHex: Sized { type Error; fn from_hex<T: AsRef<[u8]>>(hex: T) -> Result<Self, Self::Error>; }\n\
             impl FromHex for Vec<u8> {\n\
                 type Error = HexError;\n\
                 fn from_hex<T: AsRef<[u8]>>(hex: T) -> Result<Self, Self::Error> { Err(HexError::Odd) }\n\
             }\n",
        )]);
        let from_hex = &api.functions[0];
        assert_eq!(from_hex.path, "<Vec<u8> as k::FromHex>::from_hex");
        assert_eq!((from_hex.blocker.as_deref(), from_hex.self_param), (None, false));
        let params: Vec<String> = from_hex.params.iter().map(|(n, t)| format!("{n}: {t}")).collect();
        assert_eq!(params, ["hex: T"]);
        assert_eq!(from_hex.output.as_ref().unwrap().to_string(), "Result<Vec<u8>, HexError>");
    }

    #[test]
    fn a_type_whose_const_parameters_an_alias_puts_in_is_driven_by_the_aliass_path_and_name() {
        let api = api(&[(
            "src/lib.rs",
            "pub struct Pattern<const ANY: char> { text: String }\n\
             pub type Glob = Pattern<'*'>;\n\
             impl<const ANY: char> Pattern<ANY> {\n\
                 pub fn new(text: &str) -> Self { todo!() }\n\
                 pub fn lower(text: &str) -> Pattern<ANY> { todo!() }\n\
             }\n\
             pub struct Window<'a, const N: usize>(&'a [u8; N]);\n\
             pub type Frame<'a> = Window<'a, 4>;\n",
        )]);
        // Named as the alias, which its impls' functions follow.
        assert!(!api.types.contains_key("Pattern"));
        let glob = &api.types["Glob"];
        assert_eq!(
            (glob.name.as_str(), glob.path.as_deref(), glob.generic),
            ("Glob", Some("k::Glob"), false)
        );
        let new = &api.functions[1];
        assert_eq!((new.path.as_str(), new.owner.as_deref()), ("k::Glob::new", Some("Glob")));
        // A signature naming the type with its parameters names the alias.
        let lower = &api.functions[0];
        assert_eq!(lower.output.as_ref().map(Ty::to_string).as_deref(), Some("Glob"));
        // An alias with a lifetime parameter names no one type.
        assert!(api.types["Window"].generic);
    }

    #[test]
    fn re_exports_of_extern_crates_and_rings_of_re_exports_end() {
        let api = api(&[(
            "src/lib.rs",
            "pub mod reexports { pub use serde; pub use regex::regex; }\n\
             pub mod a { pub use crate::b::X as Y; }\n\
             pub mod b { pub use crate::a::Y as X; }\n\
             pub mod prelude { pub use crate::inner::Pair as _; pub use crate::inner; }\n\
             pub mod inner { #[derive(Debug)] pub struct Pair(pub u8); }\n",
        )]);
        assert_eq!(api.types["Pair"].path.as_deref(), Some("k::inner::Pair"));
    }

    #[test]
    fn a_module_and_a_function_of_one_name_are_both_read() {
        let api = api(&[
            (
                "src/lib.rs",
                "pub mod encode;\n\
                 pub fn encode(input: Vec<u8>) -> encode::Builder { encode::Builder(input) }\n\
                 pub use other::*;\n\
                 mod other { pub mod glob { pub struct Deep(pub u8); } }\n\
                 mod inner { pub fn enc() {} pub mod enc { pub struct Inner(pub u8); } \
                             pub fn dec() {} pub mod dec { pub struct Far(pub u8); } }\n\
                 pub use inner::enc;\n\
                 pub mod flat { pub use crate::inner::dec::*; }\n",
            ),
            (
                "src/encode.rs",
                "pub struct Builder(pub Vec<u8>);\nimpl Builder { pub fn len(&self) -> usize { 0 } }\n",
            ),
        ]);
        assert_eq!(api.types["Builder"].path.as_deref(), Some("k::encode::Builder"));
        assert_eq!(api.types["Deep"].path.as_deref(), Some("k::glob::Deep"));
        // A re-export of the name brings both; a glob of it, the module's items.
        assert_eq!(api.types["Inner"].path.as_deref(), Some("k::enc::Inner"));
        assert_eq!(api.types["Far"].path.as_deref(), Some("k::flat::Far"));
        let paths: Vec<&str> = api.functions.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["k::enc", "k::encode", "k::encode::Builder::len"]);
    }

    #[test]
    fn traits_are_items_of_their_own_and_one_name_two_traits_share_is_left_alone() {
        let api = api(&[(
            "src/lib.rs",
            "pub mod de { pub trait Value { fn v(&self) -> u8; } impl Value for str { fn v(&self) -> u8 { 1 } } }\n\
             pub mod value { #[derive(Debug)] pub struct Value(pub u8); }\n\
             pub mod a { pub trait Enc { fn enc(&self) -> u8; } impl Enc for str { fn enc(&self) -> u8 { 1 } } }\n\
             pub mod b { pub trait Enc { fn enc(&self) -> u16; } impl Enc for u8 { fn enc(&self) -> u16 { 2 } } }\n",
        )]);
        // A trait of a type's name does not take the type's path.
        assert_eq!(api.types["Value"].path.as_deref(), Some("k::value::Value"));
        let paths: Vec<&str> = api.functions.iter().map(|f| f.path.as_str()).collect();
        // `Enc` names two traits: listed, not driven.
        assert_eq!(paths, ["<str as k::de::Value>::v", "k::a::Enc::enc", "k::b::Enc::enc"]);
    }

    #[test]
    fn an_impl_naming_the_parameters_otherwise_is_read_as_the_type_names_them() {
        let api = api(&[(
            "src/lib.rs",
            "pub struct Two<A, B>(A, B);\n\
             impl<B, A> Two<B, A> { pub fn first(&self) -> &B { &self.0 } pub fn pick<B2>(&self, b: B2, a: A) {} }\n",
        )]);
        let two = &api.types["Two"];
        assert_eq!(two.type_params.iter().map(|(n, ..)| n.as_str()).collect::<Vec<_>>(), ["A", "B"]);
        let ty = |name: &str| api.functions.iter().find(|f| f.name == name).unwrap().clone();
        // The impl's `B` is the type's `A`, and its `A` the type's `B`: swapped at once.
        assert_eq!(ty("first").output.unwrap().to_string(), "&A");
        let pick: Vec<String> = ty("pick").params.iter().map(|(_, t)| t.to_string()).collect();
        assert_eq!(pick, ["B2", "B"]);
    }
}
