//! What the generated harness does with each API item: how every parameter is made from
//! a generated value, how each crate type is built (its constructors), which methods a
//! call sequence may apply, how a result is rendered — or why the item is skipped.

use std::collections::{BTreeMap, BTreeSet};

use crate::names::camel;
use crate::render::replace_ident;
use crate::scan::{Api, DrivenTrait, Function, Receiver, TypeDef};
use crate::ty::{Bound, Ty, hash_container, hash_module};

/// An item the harness drives.
#[derive(Clone, Debug)]
pub struct Call {
    /// The function, as the scan found it.
    pub function: Function,
    /// One per parameter, in order.
    pub args: Vec<Arg>,
    /// The function's result at the types the harness makes its parameters
    /// (`checked_pow`'s `Option<T>` is an `Option<i64>`).
    pub result: Option<Ty>,
    pub output: Output,
    /// For a method returning an iterator: what the sequence does with it, if not take
    /// its first items; for a function returning a builder: the method that finishes it.
    pub adapter: Option<Adapter>,
    /// Whether a call sequence renders the result with its addresses masked
    /// (`mutfuzz::debug_unaddressed`): a crate type's `Debug` may show a buffer's
    /// pointer, which differs between runs.
    pub masked: bool,
    /// For an iterator result: its items are values, not references, so a written test
    /// may compare them with literals.
    pub items_by_value: bool,
    /// A method taking the value and returning it (a builder's `fn set(self, …) -> Self`)
    /// on a type that is not `Clone`: its step puts the result in the value's place
    /// (`converter = converter.set_delim("-")`), and renders nothing of its own.
    pub rebinds: bool,
    /// For a finished builder: the steps a sequence chosen by the input may apply before
    /// the finisher (`bs58::encode(input).with_check().into_string()`), each one that
    /// [rebinds](Self::rebinds) the builder.
    pub steps: Vec<Call>,
    /// A method of a `Copy` type taking `self`: called on the value itself, which lives on
    /// (`not_nan.as_f32()`, not `not_nan.clone().as_f32()`).
    pub copies: bool,
}

/// A method called on a result before it is rendered: on an iterator, so that its own
/// trait methods run (taking items from the front never runs its `size_hint` or its
/// `next_back`, and a crate's tests often leave both out); on a builder that shows
/// nothing of itself, the method that finishes it (`bs58::encode(input).into_string()`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Adapter {
    /// `.size_hint()`, rendered instead of the items.
    SizeHint,
    /// `.rev()`: the items from the back.
    Rev,
    /// `.count()`, rendered instead of the items.
    Count,
    /// `.len()` of an `ExactSizeIterator`, rendered instead of the items.
    Len,
    /// A method taking the result by value, with no other parameter, whose result is
    /// rendered instead; `path` is the method's, as the scan names it.
    Finish { method: String, path: String },
}

impl Adapter {
    /// The method the adapter calls.
    pub fn method(&self) -> &str {
        match self {
            Adapter::SizeHint => "size_hint",
            Adapter::Rev => "rev",
            Adapter::Count => "count",
            Adapter::Len => "len",
            Adapter::Finish { method, .. } => method,
        }
    }
}

impl Call {
    /// What an exclusion names: the function's key, with the adapter's call after it
    /// (`bits::Set::ones.rev()`), so that an adapter that does not compile leaves the
    /// plain call in.
    pub fn key(&self) -> String {
        match &self.adapter {
            Some(a) => format!("{}.{}()", self.function.key(), a.method()),
            None => self.function.key(),
        }
    }

    /// Whether it compares two values' hashes (a hand-written `Hash`).
    pub fn hashes(&self) -> bool {
        self.function.trait_ == Some(HASH)
    }

    /// Whether the step changes the value in place (`&mut self`, or a builder's step
    /// that [rebinds](Self::rebinds) it): its binding is `mut`.
    pub fn changes_value(&self) -> bool {
        self.rebinds || self.function.receiver == Some(Receiver::RefMut)
    }

    /// The method called on `value` with `args`, then its adapter: `set.ones().rev()`; for
    /// a hand-written `Hash`, `mutfuzz::same_hash(&set, &other)` (or `same_hash_checked`);
    /// for a builder's step,
    /// `conv = conv.set_delim(d)`.
    pub fn method_call(&self, value: &str, args: &[String]) -> String {
        if self.hashes() {
            // A type that compares is checked against its `PartialEq` (`Option<bool>`).
            let check = match self.function.output.as_ref().and_then(Ty::name) {
                Some("Option") => "same_hash_checked",
                _ => "same_hash",
            };
            return format!("mutfuzz::{check}(&{value}, {})", args.join(", "));
        }
        if self.rebinds {
            return format!("{value} = {}", self.function.call_moving(value, args));
        }
        if self.copies {
            return format!("{}{}", self.function.call_moving(value, args), self.adapter_call());
        }
        format!("{}{}", self.function.call(value, args), self.adapter_call())
    }

    /// The path of the method that finishes the builder the function returns, if any.
    pub fn finisher(&self) -> Option<&str> {
        match &self.adapter {
            Some(Adapter::Finish { path, .. }) => Some(path),
            _ => None,
        }
    }

    /// The adapter's call written after the function's (`.into_string()`), or nothing.
    pub fn adapter_call(&self) -> String {
        self.adapter.as_ref().map(|a| format!(".{}()", a.method())).unwrap_or_default()
    }
}

/// How one parameter is made.
#[derive(Clone, Debug)]
pub struct Arg {
    /// The binding's name.
    pub name: String,
    /// The generated value's type (`Gen + Debug`), as the harness writes it.
    pub gen_ty: String,
    /// A statement turning the generated value into the owned value passed (building a
    /// crate type), if one is needed: `let x = x.make();`.
    pub convert: Option<String>,
    /// The argument expression.
    pub expr: String,
    /// Passed as `&mut`: the binding is `mut` and its value after the call is part of the
    /// result.
    pub mutated: bool,
}

/// How a call's result becomes the target's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Returned as it is, of this (nameable) type.
    Value(String),
    /// Returned as it is, in `mutfuzz::SortedDebug` (a hash container inside).
    Sorted(String),
    /// Rendered by `Debug` into a `String` (a borrowed or unnameable result).
    Debug { sorted: bool },
    /// An iterator, collected into a `Vec` and rendered by `Debug`.
    Collected,
    /// An iterator over a hash container (or of a type holding one), whose items come in
    /// an order that differs between runs: their `Debug` texts, sorted.
    Unordered,
    /// Rendered by `Display`.
    Display,
    /// Rendered by `Display` and by `Debug`, as `mutfuzz::shown` renders them: a crate
    /// type shown by hand that compares with nothing.
    Shown,
    /// Nothing returned.
    Unit,
}

/// One way to build a crate type: a variant of its generated `Make…` enum.
#[derive(Clone, Debug)]
pub struct Constructor {
    /// The variant's name.
    pub variant: String,
    pub kind: CtorKind,
    pub args: Vec<Arg>,
}

#[derive(Clone, Debug)]
pub enum CtorKind {
    /// A public associated function returning `Self`, `Result<Self, _>` or `Option<Self>`.
    Function {
        path: String,
        fallible: bool,
        /// The function itself: its parameters' types say how a test writes the values
        /// (a literal for `T: AsRef<str>`, `&[2]` for a `&[u8]`).
        function: Box<Function>,
    },
    Default,
    FromStr,
    From,
    TryFrom,
    /// `FromIterator`: a `Vec` of items, collected. `item` says how one item is made (as
    /// a parameter of its type is) and `ty` names its type, which a written test states;
    /// `array` when the type is also `From` an array of them, which a test writes instead
    /// (`IndexMap::<i64, i64>::from([(0, 1)])`).
    FromIter {
        item: Arg,
        ty: String,
        array: bool,
    },
    /// A struct literal of its public fields.
    Literal,
    /// `Default`, then each of its public fields set (a struct with private fields too, or
    /// `#[non_exhaustive]`, which no literal outside its crate builds).
    DefaultWith,
    /// An enum variant; `named` when its fields have names.
    Variant {
        name: String,
        named: bool,
    },
    /// A public constant of the type (`path`), or a reference to one, cloned.
    Const {
        path: String,
        by_ref: bool,
    },
}

/// The public constants of a crate type, chosen among for a parameter that borrows one
/// (`ascii_set: &'static AsciiSet` takes `percent_encoding::NON_ALPHANUMERIC`): a
/// `Const…` enum whose `get` gives the reference.
#[derive(Clone, Debug)]
pub struct ConstSet {
    /// The type's name (the enum is `Const{name}`).
    pub name: String,
    /// The type's path.
    pub path: String,
    /// Variant and the `&'static` expression it stands for.
    pub consts: Vec<(String, String)>,
}

/// A crate type the harness can build, with its constructors and the methods its call
/// sequence applies.
#[derive(Clone, Debug)]
pub struct Buildable {
    pub name: String,
    pub path: String,
    pub constructors: Vec<Constructor>,
    pub methods: Vec<Call>,
    pub debug: bool,
    pub display: bool,
    pub clone: bool,
    pub hashed: bool,
    /// It borrows what it is built from (`BidiInfo<'text>`): its `Make…` enum's `make`
    /// takes `&self`, and the value lives as long as the enum does.
    pub borrows: bool,
    /// Its `Make…` enum derives `Clone`: a borrowing type's constructor takes a value of
    /// it, made from a clone.
    pub cloned: bool,
}

/// An item the harness leaves out, and why.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Skipped {
    pub item: String,
    pub reason: String,
    pub location: String,
}

/// The whole plan.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub krate: String,
    /// Free and associated functions called once per input.
    pub calls: Vec<Call>,
    /// Types built by constructors, in dependency order.
    pub types: Vec<Buildable>,
    /// Constants chosen among for borrowed parameters.
    pub const_sets: Vec<ConstSet>,
    pub skipped: Vec<Skipped>,
    /// Items found in the API (functions and methods).
    pub found: usize,
    /// Enums a test may compare a result with by value.
    pub enums: Vec<ValueEnum>,
}

/// A crate enum whose `Debug` is derived, so that its text is a variant as written
/// (`PreContext(11)`), and which is `PartialEq`: a test writes the text back as source
/// (`Err(k::Incomplete::PreContext(11))`) and compares by value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueEnum {
    pub name: String,
    pub path: String,
    /// Its variants that users can write, with their fields' types.
    pub variants: Vec<(String, Vec<Ty>)>,
    /// Its type parameters (bimap's `Overwritten<L, R>`), which a result's type names.
    pub params: Vec<String>,
}

/// One of std's iterators over a hash container (`hash_map::Keys`, `hash_set::Iter`), which
/// a method of a type holding one returns (multimap's `keys`).
fn std_hash_iterator(ty: &Ty) -> bool {
    let Ty::Path { segments, .. } = ty else { return false };
    let [.., module, last] = &segments[..] else { return false };
    hash_module(module)
        && matches!(
            last.as_str(),
            "Iter"
                | "IterMut"
                | "Keys"
                | "Values"
                | "ValuesMut"
                | "IntoIter"
                | "IntoKeys"
                | "IntoValues"
                | "Drain"
        )
}

/// `Hash`, whose method a call sequence reaches through `mutfuzz::same_hash`.
const HASH: DrivenTrait = DrivenTrait { name: "Hash", path: Some("std::hash::Hash") };

/// The traits whose `impl Trait` in a result is an iterator to collect.
const ITERATOR_TRAITS: [&str; 4] = ["Iterator", "DoubleEndedIterator", "ExactSizeIterator", "FusedIterator"];

/// Items left out by the user or by a failed compile check: (function path or
/// `Type::constructor` variant) → reason.
pub type Exclusions = BTreeMap<String, String>;

pub(crate) use crate::ty::INTEGERS;
pub(crate) const PRIMITIVES: [&str; 5] = ["bool", "char", "f32", "f64", "String"];
/// std containers the engine generates, with the path the harness names them by.
const CONTAINERS: [(&str, &str); 9] = [
    ("Vec", "Vec"),
    ("Option", "Option"),
    ("Box", "Box"),
    ("Result", "Result"),
    ("VecDeque", "std::collections::VecDeque"),
    ("BTreeMap", "std::collections::BTreeMap"),
    ("BTreeSet", "std::collections::BTreeSet"),
    ("HashMap", "std::collections::HashMap"),
    ("HashSet", "std::collections::HashSet"),
];
/// Types whose presence in a signature means the item touches the world outside.
/// `Read` and `Write` are not among them: a parameter bounded by one is given a buffer in
/// memory ([`io_instance`]).
/// Nor are `Path` and `PathBuf`: a path is a text to a crate that only joins or compares
/// paths (pathdiff), and a body that asks the file system about one says so (`scan`).
const EFFECT_TYPES: [(&str, &str); 12] = [
    ("File", "the file system"),
    ("OpenOptions", "the file system"),
    ("TcpStream", "the network"),
    ("TcpListener", "the network"),
    ("UdpSocket", "the network"),
    ("Command", "processes"),
    ("Child", "processes"),
    ("SystemTime", "the clock"),
    ("Instant", "the clock"),
    ("Stdin", "the terminal"),
    ("Stdout", "the terminal"),
    ("Stderr", "the terminal"),
];

/// Makes the plan for `api`, leaving out `excluded` items.
pub fn plan(api: &Api, excluded: &Exclusions) -> Plan {
    let api_in = api;
    let api = &concrete_types(api);
    let tries: Vec<Function> = api.functions.iter().flat_map(instantiations).collect();
    // The fallback type only where the compile check left out every other try.
    let fallback_due = |f: &Function| {
        tries
            .iter()
            .filter(|g| g.path == f.path && g.instantiated.as_deref() != Some(FALLBACK))
            .all(|g| excluded.contains_key(&g.key()))
    };
    let functions = tries.iter().filter(|f| f.instantiated.as_deref() != Some(FALLBACK) || fallback_due(f));
    let api = &Api { functions: functions.cloned().collect(), ..api.clone() };
    let mut p = Planner { api, buildable: BTreeMap::new() };
    let mut out = Plan { krate: api.krate.clone(), ..Plan::default() };
    // A function tried at further types is listed as skipped once, by its first try.
    let skip = |out: &mut Plan, f: &Function, reason: String| {
        if f.instantiated.is_none() {
            out.skipped.push(Skipped { item: display_path(f), reason, location: f.location.clone() })
        }
    };

    // Types become buildable in rounds: a constructor may take only types built in an
    // earlier round, so the generated `Make…` enums never contain themselves.
    let mut order: Vec<String> = Vec::new();
    loop {
        let mut added = Vec::new();
        for (name, def) in &api.types {
            // A borrowing iterator is better driven by collecting what its constructor
            // returns than by a sequence of `next` calls.
            let borrows = def.borrows && !def.traits.contains("Iterator");
            if p.buildable.contains_key(name) || (def.generic && !borrows) || def.path.is_none() {
                continue;
            }
            let ctors = p.constructors(def, excluded);
            if !ctors.is_empty() {
                added.push((name.clone(), ctors));
            }
        }
        if added.is_empty() {
            break;
        }
        for (name, ctors) in added {
            order.push(name.clone());
            p.buildable.insert(name, ctors);
        }
    }
    // Again with every other buildable type that does not need this one: a constructor
    // may now take a type that became buildable in the same round or later.
    for name in &order {
        let allowed = p
            .buildable
            .iter()
            .filter(|(other, _)| *other != name && !p.needs(other, name, &mut BTreeSet::new()))
            .map(|(n, c)| (n.clone(), c.clone()))
            .collect();
        let sub = Planner { api, buildable: allowed };
        let ctors = sub.constructors(&api.types[name], excluded);
        p.buildable.insert(name.clone(), ctors);
    }

    let mut unmade_steps = Vec::new();
    for f in &api.functions {
        let owner_built = f.owner.as_ref().is_some_and(|o| p.buildable.contains_key(o));
        // A std trait's method is driven where its type is built, and not listed
        // otherwise: most such impls are of iterators and guards no one builds.
        if f.trait_.is_some() && !owner_built {
            continue;
        }
        if let Some(reason) = excluded.get(&f.key()) {
            skip(&mut out, f, reason.clone());
            continue;
        }
        if let Some(reason) = f.blocker.clone() {
            skip(&mut out, f, reason);
            continue;
        }
        if let Some(effect) = f.effect.or_else(|| p.signature_effect(f)) {
            skip(&mut out, f, format!("touches {effect}"));
            continue;
        }
        if f.receiver.is_some() {
            if !owner_built {
                let owner = f.owner.as_deref().unwrap_or("?");
                let why = match api.types.get(owner) {
                    // `PercentDecode<'a>` is not generic over a type to choose.
                    Some(t) if t.generic && t.type_params.is_empty() => {
                        format!(
                            "a method of `{owner}`, whose lifetime or const parameter keeps it from being built"
                        )
                    }
                    Some(t) if t.generic => format!("a method of the generic type `{owner}`"),
                    _ => format!("a method of `{owner}`, which no public constructor builds"),
                };
                skip(&mut out, f, why);
            }
            continue; // driven in its type's call sequence
        }
        if f.owner.as_ref().is_some_and(|o| p.returns_self(f, o).is_some()) && owner_built {
            continue; // a constructor: driven through the `Make…` enum
        }
        match p.call(f) {
            Ok(call) => out.calls.push(call),
            Err(reason) => match p.finished(f, excluded) {
                (finished, _) if finished.is_empty() => skip(&mut out, f, reason),
                (finished, unmade) => {
                    out.calls.extend(finished);
                    unmade_steps.extend(unmade);
                }
            },
        }
    }

    // A borrowing iterator that only `From` makes (xmlparser's `Tokenizer` of a `&str`) is
    // not built; its conversion is a call of its own, collected as a function returning
    // it is.
    for def in api.types.values() {
        let Some(path) = def.path.as_ref() else { continue };
        if !def.borrows || !def.traits.contains("Iterator") || p.buildable.contains_key(&def.name) {
            continue;
        }
        for source in &def.from {
            let f = Function {
                params: vec![("value".into(), source.clone())],
                output: Some(Ty::named(&def.name, Vec::new())),
                ..Function::made_up(format!("<{path} as From<{source}>>::from"), "from", &def.name)
            };
            if !excluded.contains_key(&f.key())
                && let Ok(call) = p.call(&f)
            {
                out.calls.push(call);
            }
        }
    }

    for name in order {
        let def = &api.types[&name];
        let constructors = p.buildable[&name].clone();
        let mut methods = Vec::new();
        for f in
            api.functions.iter().filter(|f| f.owner.as_deref() == Some(name.as_str()) && f.receiver.is_some())
        {
            if excluded.contains_key(&f.key()) || f.blocker.is_some() || f.effect.is_some() {
                continue;
            }
            if p.signature_effect(f).is_some() {
                skip(&mut out, f, format!("touches {}", p.signature_effect(f).unwrap_or_default()));
                continue;
            }
            if f.receiver == Some(Receiver::Value) && !def.traits.contains("Clone") {
                // A builder's step: its result is the value itself, shown (if at all) after
                // the sequence. Other methods consuming the value are left out.
                let step = match p.returns_self(f, &name) {
                    Some(false) => p.call(&Function { output: None, ..f.clone() }),
                    _ => Err(format!("consumes the `{name}`, which is not `Clone`")),
                };
                match step {
                    Ok(call) => methods.push(Call { rebinds: true, ..call }),
                    Err(reason) => skip(&mut out, f, reason),
                }
                continue;
            }
            match p.call(f) {
                Ok(call) => {
                    let adapted = p.adapted(&call, excluded);
                    methods.push(call);
                    methods.extend(adapted);
                }
                Err(reason) => skip(&mut out, f, reason),
            }
        }
        if def.hash_impl
            && let Some(call) = p.hash_call(def).filter(|c| !excluded.contains_key(&c.key()))
        {
            methods.push(call);
        }
        for m in &mut methods {
            m.copies = def.traits.contains("Copy");
        }
        out.types.push(Buildable {
            path: def.path.clone().unwrap_or_default(),
            name,
            constructors,
            methods,
            debug: def.traits.contains("Debug"),
            display: def.traits.contains("Display"),
            clone: def.traits.contains("Clone"),
            hashed: def.hashed,
            borrows: def.borrows,
            cloned: false,
        });
    }
    mark_cloned(&mut out.types);
    for f in &api.functions {
        if f.receiver.is_some()
            && f.blocker.is_some()
            && f.owner.as_ref().is_some_and(|o| p.buildable.contains_key(o))
        {
            skip(&mut out, f, f.blocker.clone().unwrap_or_default());
        } else if f.receiver.is_some()
            && f.effect.is_some()
            && f.owner.as_ref().is_some_and(|o| p.buildable.contains_key(o))
        {
            skip(&mut out, f, format!("touches {}", f.effect.unwrap_or_default()));
        } else if f.receiver.is_some()
            && let Some(reason) = excluded.get(&f.key())
        {
            skip(&mut out, f, reason.clone());
        }
    }
    // A function driven at another type than the first it was tried at is not skipped.
    let driven: BTreeSet<String> = out
        .calls
        .iter()
        .chain(out.calls.iter().flat_map(|c| &c.steps))
        .chain(out.types.iter().flat_map(|t| &t.methods))
        .filter(|c| c.function.instantiated.is_some())
        .map(|c| display_path(&c.function))
        .collect();
    out.skipped.retain(|s| !(driven.contains(&s.item) && s.reason.starts_with("does not compile")));
    // A method that finishes a builder is driven, though its type is not built, and so is
    // a step applied before it; a step whose parameter cannot be made says so. As
    // `display_path` writes a method's path: without the crate.
    let builder_methods: BTreeSet<String> = out
        .calls
        .iter()
        .filter_map(|c| c.finisher()?.split_once("::").map(|(_, rest)| rest.to_owned()))
        .chain(out.calls.iter().flat_map(|c| &c.steps).map(|s| display_path(&s.function)))
        .chain(unmade_steps.iter().map(|s| s.item.clone()))
        .collect();
    out.skipped.retain(|s| !builder_methods.contains(&s.item));
    out.skipped.extend(unmade_steps);
    let used: BTreeSet<&str> = out
        .calls
        .iter()
        .chain(out.calls.iter().flat_map(|c| &c.steps))
        .chain(out.types.iter().flat_map(|t| &t.methods))
        .flat_map(|c| &c.args)
        .chain(out.types.iter().flat_map(|t| t.constructors.iter().flat_map(|c| &c.args)))
        .map(|a| a.gen_ty.as_str())
        .collect();
    out.const_sets = api
        .types
        .values()
        .filter(|t| used.contains(format!("Const{}", t.name).as_str()))
        .map(|t| ConstSet {
            name: t.name.clone(),
            path: t.path.clone().unwrap_or_default(),
            consts: t
                .consts
                .iter()
                .map(|(name, path, by_ref)| {
                    (const_variant(name), if *by_ref { path.clone() } else { format!("&{path}") })
                })
                .collect(),
        })
        .collect();
    out.skipped.sort();
    out.skipped.dedup();
    out.enums = api
        .types
        .iter()
        .filter(|(_, d)| {
            d.debug_derived
                && d.traits.contains("PartialEq")
                && d.const_params.is_empty()
                && !d.shadowed
                && !d.homonym
                && !d.variants.is_empty()
        })
        .filter_map(|(name, d)| {
            let variants = d
                .variants
                .iter()
                .map(|(v, fields, _)| (v.clone(), fields.iter().map(|(_, t)| t.clone()).collect()));
            let params = d.type_params.iter().map(|(p, _, _)| p.clone()).collect();
            Some(ValueEnum {
                name: name.clone(),
                path: d.path.clone()?,
                variants: variants.collect(),
                params,
            })
        })
        .collect();
    out.found = api_in
        .functions
        .iter()
        .filter(|f| f.trait_.is_none() || f.owner.as_ref().is_some_and(|o| p.buildable.contains_key(o)))
        .count()
        + out.types.iter().filter(|t| t.methods.iter().any(Call::hashes)).count();
    out
}

/// Marks the types whose `Make…` enums a borrowing type's constructor clones (its
/// arguments' own, and theirs in turn).
fn mark_cloned(types: &mut [Buildable]) {
    let mut wanted: Vec<String> = Vec::new();
    let mut todo: Vec<usize> = (0..types.len()).filter(|&i| types[i].borrows).collect();
    while let Some(i) = todo.pop() {
        for a in types[i].constructors.iter().flat_map(|c| &c.args) {
            for word in a.gen_ty.split(|c: char| !c.is_alphanumeric() && c != '_') {
                let Some(name) = word.strip_prefix("Make") else { continue };
                if let Some(j) = types.iter().position(|t| t.name == name)
                    && !wanted.iter().any(|w| w == name)
                {
                    wanted.push(name.to_owned());
                    todo.push(j);
                }
            }
        }
    }
    for t in types.iter_mut() {
        t.cloned = wanted.contains(&t.name);
    }
}

/// `my_crate::Doc::len` → `Doc::len`; free functions keep their module path.
fn display_path(f: &Function) -> String {
    match &f.extension {
        // `<u8 as k::Halve>::halve` → `<u8 as Halve>::halve`.
        Some(tr) if f.path.starts_with('<') => {
            let krate = tr.split("::").next().unwrap_or_default();
            f.path.replacen(&format!(" as {krate}::"), " as ", 1)
        }
        _ => f.path.split_once("::").map_or(f.path.clone(), |(_, rest)| rest.to_owned()),
    }
}

struct Planner<'a> {
    api: &'a Api,
    buildable: BTreeMap<String, Vec<Constructor>>,
}

impl Planner<'_> {
    /// Whether building `from` builds a `to` somewhere (its constructors' arguments).
    fn needs(&self, from: &str, to: &str, seen: &mut BTreeSet<String>) -> bool {
        if !seen.insert(from.to_owned()) {
            return false;
        }
        let Some(ctors) = self.buildable.get(from) else { return false };
        ctors.iter().flat_map(|c| &c.args).any(|a| {
            self.buildable
                .keys()
                .any(|n| mentions(&a.gen_ty, &format!("Make{n}")) && (n == to || self.needs(n, to, seen)))
        })
    }

    fn signature_effect(&self, f: &Function) -> Option<&'static str> {
        let mut names = Vec::new();
        // A `SystemTime` given is a value, made from a number (see `arg`); one returned
        // may be the clock's.
        let given_time = |t: &Ty| match t {
            Ty::Ref { mutable: false, inner } => Self::std_time(inner, "SystemTime"),
            t => Self::std_time(t, "SystemTime"),
        };
        for (_, t) in f.params.iter().filter(|(_, t)| !given_time(t)) {
            t.names(&mut names);
        }
        for (_, bs) in &f.generics {
            names.extend(bs.iter().map(|b| b.name.clone()));
        }
        if let Some(o) = &f.output {
            o.names(&mut names);
        }
        names.iter().find_map(|n| EFFECT_TYPES.iter().find(|(t, _)| t == n).map(|(_, e)| *e))
    }

    /// Whether `f` (associated with `owner`) returns the type itself: `Some(fallible)`.
    fn returns_self(&self, f: &Function, owner: &str) -> Option<bool> {
        // `Bag<T>` of `impl<T> Bag<T>`, its `T` made concrete, is `Self` too.
        let is_self = |t: &Ty| matches!(t.name(), Some(n) if n == "Self" || n == owner);
        let out = f.output.as_ref()?;
        if is_self(out) {
            return Some(false);
        }
        match out.name() {
            Some("Result" | "Option") if out.args().first().is_some_and(is_self) => Some(true),
            _ => None,
        }
    }

    fn constructors(&self, def: &TypeDef, excluded: &Exclusions) -> Vec<Constructor> {
        let mut out = self.all_constructors(def, excluded);
        if def.borrows {
            // Its `make(&self)` makes such an argument from a clone, which the value
            // cannot borrow.
            out.retain(|c| !c.args.iter().any(|a| a.convert.is_some() && a.expr.starts_with('&')));
        }
        out
    }

    fn all_constructors(&self, def: &TypeDef, excluded: &Exclusions) -> Vec<Constructor> {
        let mut out = Vec::new();
        let owner = &def.name;
        let type_path = def.path.clone().unwrap_or_default();
        let mut ctor = |variant: String, kind: CtorKind, args: Vec<Arg>| {
            if !excluded.contains_key(&format!("{type_path}::{variant}"))
                && !out.iter().any(|c: &Constructor| c.variant == variant)
            {
                out.push(Constructor { variant, kind, args });
            }
        };
        // Its associated functions, and free functions that return it and take none of
        // it (humantime's `format_duration`): the type's methods are reached through them.
        let free = |f: &Function| {
            let own =
                |t: &Ty| matches!(t, Ty::Path { segments, .. } if own_name(segments) == Some(owner.as_str()));
            let returned = f.output.as_ref().is_some_and(|o| {
                own(o) || (matches!(o.name(), Some("Result" | "Option")) && o.args().first().is_some_and(own))
            });
            let mut names = Vec::new();
            f.params.iter().for_each(|(_, t)| t.names(&mut names));
            f.generics.is_empty() && returned && !names.contains(owner)
        };
        let ctors = self.api.functions.iter().filter(|f| {
            f.receiver.is_none()
                && match &f.owner {
                    Some(o) => o == owner,
                    None => free(f),
                }
        });
        for f in ctors {
            // A constructor is built at its first try only: a `Make…` variant per try would
            // need typed literals in every test that builds the type.
            if f.blocker.is_some()
                || f.effect.is_some()
                || f.instantiated.is_some()
                || self.signature_effect(f).is_some()
                || excluded.contains_key(&f.key())
            {
                continue;
            }
            let Some(fallible) = self.returns_self(f, owner) else { continue };
            let Ok(args) = self.args(f) else { continue };
            let kind = CtorKind::Function { path: f.path.clone(), fallible, function: Box::new(f.clone()) };
            ctor(camel(&f.name), kind, args);
        }
        if let Some(fields) = &def.fields
            && let Some(args) = self.fields(fields, owner)
        {
            ctor("Literal".into(), CtorKind::Literal, args);
        }
        for (name, fields, named) in &def.variants {
            if let Some(args) = self.fields(fields, owner) {
                ctor(name.clone(), CtorKind::Variant { name: name.clone(), named: *named }, args);
            }
        }
        if def.traits.contains("Default") {
            ctor("Default".into(), CtorKind::Default, Vec::new());
            if let Some(args) = self.fields(&def.settable, owner).filter(|a| !a.is_empty()) {
                ctor("DefaultWith".into(), CtorKind::DefaultWith, args);
            }
        }
        // A constant is a value of its own; one behind a reference, a clone of it.
        for (name, path, by_ref) in &def.consts {
            if !by_ref || def.traits.contains("Clone") {
                let kind = CtorKind::Const { path: path.clone(), by_ref: *by_ref };
                ctor(const_variant(name), kind, Vec::new());
            }
        }
        if def.traits.contains("FromStr") {
            let arg = Arg {
                name: "text".into(),
                gen_ty: "String".into(),
                convert: None,
                expr: "text".into(),
                mutated: false,
            };
            ctor("Parse".into(), CtorKind::FromStr, vec![arg]);
        }
        for (kind, sources) in [(CtorKind::From, &def.from), (CtorKind::TryFrom, &def.try_from)] {
            for (i, source) in sources.iter().enumerate() {
                let Ok(arg) = self.arg("value", source, &[], None) else { continue };
                // The value as it is, or std's `Duration` from nanoseconds (see `std_made`),
                // or for a borrowing type, lent (`From<&'a str>`).
                let lent = def.borrows && arg.expr == "&value";
                if arg.convert.is_some()
                    || (arg.expr != "value" && !lent && self.std_made(source, "value").is_none())
                {
                    continue;
                }
                let base = if matches!(kind, CtorKind::From) { "From" } else { "TryFrom" };
                let variant = match source.plain_name() {
                    Some(n) => format!("{base}{}", camel(n)),
                    None => format!("{base}{i}"),
                };
                ctor(variant, kind.clone(), vec![arg]);
            }
        }
        for item in &def.from_iter {
            // Each item is made as a parameter of its type is (a `usize` is bounded), so
            // that a set of bits does not ask for more memory than there is. An item that
            // borrows (`&str`) would borrow from the iterator's own temporaries.
            let Ok(one) = self.arg("item", item, &[], None) else { continue };
            let Some(ty) = self.nameable(item, Some(&def.name)) else { continue };
            // A `usize` inside an item (a `VecMap`'s `(usize, V)`) is drawn at full range:
            // a key of 10^18 asks for that many slots.
            if one.convert.is_some() || one.mutated || one.gen_ty.contains("usize") {
                continue;
            }
            let expr = match one.expr.strip_suffix("(item)") {
                _ if one.expr == "item" => "items.into_iter()".to_owned(),
                Some(f) if f.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':') => {
                    format!("items.into_iter().map({f})")
                }
                _ => continue,
            };
            let arg = Arg {
                name: "items".into(),
                gen_ty: format!("Vec<{}>", one.gen_ty),
                convert: None,
                expr,
                mutated: false,
            };
            let variant = match item.plain_name() {
                Some(n) => format!("FromIter{}", camel(n)),
                None => "FromIter".to_owned(),
            };
            // Only an array of any length (`From<[(K, V); N]>` with the impl's `N`), not
            // a fixed one (`[u8; 4]`, or the type's own capacity).
            let array = def.from.iter().any(|f| {
                matches!(f, Ty::Array(elem, n) if **elem == *item
                    && n.chars().all(|c| c.is_alphanumeric() || c == '_')
                    && !n.starts_with(|c: char| c.is_ascii_digit())
                    && !def.const_params.iter().any(|(_, c)| c == n))
            });
            ctor(variant, CtorKind::FromIter { item: one, ty, array }, vec![arg]);
        }
        out
    }

    /// Arguments for fields written by name (or `arg{i}`), if every field can be made.
    fn fields(&self, fields: &[(String, Ty)], owner: &str) -> Option<Vec<Arg>> {
        fields
            .iter()
            .map(|(name, ty)| {
                if let Some((gen_ty, expr)) = self.std_made(ty, name) {
                    return Some(Arg::simple(name, gen_ty, expr));
                }
                // A range's two ends, as a parameter's (unicode-bidi's `ParagraphInfo`).
                if matches!(ty.name(), Some("Range" | "RangeInclusive")) {
                    return self.arg(name, ty, &[], None).ok();
                }
                let (gen_ty, convert) = self.owned(name, ty, &[], None).ok()?;
                // A field of the type itself would make its `Make…` enum contain itself.
                let mut names = Vec::new();
                ty.names(&mut names);
                if names.iter().any(|n| n == owner || n == "Self") {
                    return None;
                }
                Some(Arg { name: name.clone(), gen_ty, convert, expr: name.clone(), mutated: false })
            })
            .collect()
    }

    fn args(&self, f: &Function) -> Result<Vec<Arg>, String> {
        f.params.iter().map(|(name, ty)| self.arg(name, ty, &f.generics, f.owner.as_deref())).collect()
    }

    fn call(&self, f: &Function) -> Result<Call, String> {
        let args = self.args(f)?;
        let f = &self.turbofished(f)?;
        let result = f.output.as_ref().map(|t| self.concrete(t, &f.generics)).transpose()?;
        let output = match &result {
            None => Output::Unit,
            Some(t) => self.output(t, f.owner.as_deref())?,
        };
        // Only a crate type's `Debug` is masked: std's show no addresses but a pointer's.
        let masked = matches!(output, Output::Value(_) | Output::Debug { sorted: false })
            && f.output.as_ref().is_some_and(|t| {
                let mut names = Vec::new();
                t.names(&mut names);
                names.iter().any(|n| n == "Self" || self.api.types.contains_key(n))
            });
        let items_by_value = output == Output::Collected
            && f.output.as_ref().and_then(|t| self.iterator_item(t, f.owner.as_deref())).is_some_and(
                |item| {
                    let mut names = Vec::new();
                    item.names(&mut names);
                    // A `String` equals a string literal; in a tuple or an `Option` only
                    // its own type does.
                    let value = item.plain_name() == Some("String") || literal_typed(&item);
                    value && names.iter().all(|n| !self.api.types.contains_key(n))
                },
            );
        Ok(Call {
            function: f.clone(),
            args,
            result,
            output,
            adapter: None,
            masked,
            items_by_value,
            rebinds: false,
            steps: Vec::new(),
            copies: false,
        })
    }

    /// [`std_made`], where `ty` is not one of the crate's own types (a `Path` of its own).
    fn std_made(&self, ty: &Ty, name: &str) -> Option<(String, String)> {
        let own = matches!(ty, Ty::Path { segments, .. } if segments.len() == 1 && self.api.types.contains_key(&segments[0]));
        std_made(ty, name).filter(|_| !own)
    }

    /// Whether `ty` is std's `time::{name}` (`Duration`, `SystemTime`): written through
    /// `std` or `core`, as the scan writes out every name a module imports from there (a
    /// bare `Duration` or `time::Duration` may be chrono's or the `time` crate's).
    fn std_time(ty: &Ty, name: &str) -> bool {
        let Ty::Path { segments, args, .. } = ty else { return false };
        args.is_empty()
            && segments.len() > 1
            && segments.last().is_some_and(|l| l == name)
            && matches!(segments[0].as_str(), "std" | "core")
    }

    /// The comparison of a value's hash with another's, for a type whose `Hash` is written
    /// by hand: `std::hash::Hash::hash` is generic over its hasher, so the sequence calls
    /// it through `mutfuzz::same_hash`.
    fn hash_call(&self, def: &TypeDef) -> Option<Call> {
        let own = Ty::named("Self", Vec::new());
        let bool_ty = Ty::named("bool", Vec::new());
        // `None` where equal values hash apart (see `mutfuzz::same_hash_checked`).
        let answer = match def.traits.contains("PartialEq") {
            true => Ty::named("Option", vec![bool_ty]),
            false => bool_ty,
        };
        // Not `k::Set::hash`: an inherent `hash` has that key.
        let path = format!("<{} as std::hash::Hash>::hash", def.path.as_ref()?);
        let function = Function {
            receiver: Some(Receiver::Ref),
            params: vec![("other".into(), Ty::Ref { mutable: false, inner: Box::new(own) })],
            output: Some(answer),
            trait_: Some(HASH),
            ..Function::made_up(path, "hash", &def.name)
        };
        self.call(&function).ok()
    }

    /// The adapted copies of `call`, for a method returning an iterator whose own
    /// `size_hint`, `next_back`, `count` or `len` is the crate's code.
    fn adapted(&self, call: &Call, excluded: &Exclusions) -> Vec<Call> {
        let iterates = matches!(call.output, Output::Collected | Output::Unordered);
        let Some(ty) = call.function.output.as_ref().filter(|_| iterates) else {
            return Vec::new();
        };
        let (hint, back, count, len) = match ty {
            Ty::Impl(bounds) => {
                let has = |name: &str| bounds.iter().any(|b| b.name == name);
                (has("ExactSizeIterator"), has("DoubleEndedIterator"), false, false)
            }
            Ty::Path { segments, .. } if !self_assoc(segments) => {
                match own_name(segments).and_then(|n| self.api.types.get(n)) {
                    Some(def) => (
                        def.iterator_methods.contains("size_hint"),
                        def.traits.contains("DoubleEndedIterator"),
                        def.iterator_methods.contains("count"),
                        def.iterator_methods.contains("len"),
                    ),
                    None => (false, false, false, false),
                }
            }
            _ => (false, false, false, false),
        };
        let adapters = [
            (hint, Adapter::SizeHint, Output::Value("(usize, Option<usize>)".into())),
            (back, Adapter::Rev, call.output.clone()),
            (count, Adapter::Count, Output::Value("usize".into())),
            (len, Adapter::Len, Output::Value("usize".into())),
        ];
        adapters
            .into_iter()
            .filter(|(wanted, ..)| *wanted)
            .map(|(_, adapter, output)| Call {
                output,
                adapter: Some(adapter),
                masked: false,
                ..call.clone()
            })
            .filter(|c| !excluded.contains_key(&c.key()))
            .collect()
    }

    /// `f` finished, once per finishing method of its result, for a function whose result
    /// is a crate type that renders nothing of itself (a builder): the method takes the
    /// value and nothing else, and its own result is rendered
    /// (`bs58::encode(input).into_string()`). Each may first apply the builder's
    /// [steps](Self::steps); those whose parameters cannot be made come second.
    fn finished(&self, f: &Function, excluded: &Exclusions) -> (Vec<Call>, Vec<Skipped>) {
        let Some(ty) = f.output.as_ref().and_then(|t| self.concrete(t, &f.generics).ok()) else {
            return Default::default();
        };
        let Some(def) = self.own_type(&ty, f.owner.as_deref()) else { return Default::default() };
        // A parameter only the result names would be left to inference by the finisher.
        let mut in_params = Vec::new();
        for (_, t) in &f.params {
            t.names(&mut in_params);
        }
        if f.generics.iter().any(|(g, _)| !in_params.contains(g)) {
            return Default::default();
        }
        let (steps, unmade): (Vec<_>, Vec<_>) =
            self.steps(def, excluded).into_iter().partition(Result::is_ok);
        let steps: Vec<Call> = steps.into_iter().filter_map(Result::ok).collect();
        let own_params: Vec<&str> = def.type_params.iter().map(|(name, ..)| name.as_str()).collect();
        let finished = self
            .api
            .functions
            .iter()
            .filter(|m| self.consumes(m, def, excluded) && m.params.is_empty() && m.generics.is_empty())
            .filter_map(|m| {
                let out = m.output.as_ref()?;
                let mut names = Vec::new();
                out.names(&mut names);
                // What the type's own parameters stand for is the builder's business.
                if names.iter().any(|n| n == "Self" || own_params.contains(&n.as_str())) {
                    return None;
                }
                let call = self.call(&Function { output: Some(out.clone()), ..f.clone() }).ok()?;
                let finish = Adapter::Finish { method: m.name.clone(), path: m.path.clone() };
                (call.output != Output::Unit).then(|| Call {
                    adapter: Some(finish),
                    steps: steps.clone(),
                    ..call
                })
            })
            .filter(|c| !excluded.contains_key(&c.key()))
            .collect();
        (finished, unmade.into_iter().filter_map(Result::err).collect())
    }

    /// Whether `m` is a method of the builder `def` that takes it by value, of its own
    /// (not a trait's), callable and not excluded: a finisher or a step.
    fn consumes(&self, m: &Function, def: &TypeDef, excluded: &Exclusions) -> bool {
        m.owner.as_deref() == Some(def.name.as_str())
            && m.receiver == Some(Receiver::Value)
            && m.trait_.is_none()
            && m.blocker.is_none()
            && m.effect.is_none()
            && self.signature_effect(m).is_none()
            && !excluded.contains_key(&m.key())
    }

    /// The steps of the builder `def` (`fn with_check(self) -> Self`): its methods taking
    /// it by value and returning it, each a call that rebinds the builder, or why one is
    /// skipped, for a step whose parameter cannot be made.
    fn steps(&self, def: &TypeDef, excluded: &Exclusions) -> Vec<Result<Call, Skipped>> {
        self.api
            .functions
            .iter()
            .filter(|m| self.consumes(m, def, excluded) && self.returns_self(m, &def.name) == Some(false))
            .filter_map(|m| match self.call(&Function { output: None, ..m.clone() }) {
                Ok(step) => Some(Ok(Call { rebinds: true, ..step })),
                // Listed once, by its first try, as other items are.
                Err(_) if m.instantiated.is_some() => None,
                Err(reason) => {
                    Some(Err(Skipped { item: display_path(m), reason, location: m.location.clone() }))
                }
            })
            .collect()
    }

    /// `f` called with its result's type named where no argument decides it
    /// (`hex::ToHex::encode_hex::<String>`): a written test compares the result with a
    /// literal, which leaves that type unknown. A parameter nothing else names, a marker
    /// bounded by a crate trait (byteorder's `read_u16::<T: ByteOrder>`), is put at a
    /// crate type implementing it.
    fn turbofished(&self, f: &Function) -> Result<Function, String> {
        let mut in_params = Vec::new();
        for (_, t) in &f.params {
            t.names(&mut in_params);
        }
        // Named by another parameter's bound (`U` of `F: Fn(T) -> U`), it is no marker.
        let mut in_bounds = Vec::new();
        for b in f.generics.iter().flat_map(|(_, bs)| bs) {
            for t in b.args.iter().chain(b.assoc.iter().map(|(_, t)| t)) {
                t.names(&mut in_bounds);
            }
        }
        let mut in_output = Vec::new();
        if let Some(o) = &f.output {
            o.names(&mut in_output);
        }
        let own = &f.generics[..f.signature_generics.min(f.generics.len())];
        // A try at another type (`instantiations`) has put it in where it was named.
        let marker = |g: &String| {
            f.instantiated.is_none()
                && !in_params.contains(g)
                && !in_output.contains(g)
                && !in_bounds.contains(g)
        };
        let output_only = |g: &String| (in_output.contains(g) && !in_params.contains(g)) || marker(g);
        // A function with an `impl Trait` parameter takes no turbofish.
        let impls = f.params.iter().any(|(_, t)| matches!(t, Ty::Impl(_)));
        if impls || !own.iter().any(|(g, _)| output_only(g)) {
            return Ok(f.clone());
        }
        let mut named = Vec::new();
        let mut output = f.output.clone();
        for (g, bounds) in own {
            if !output_only(g) {
                named.push("_".to_owned());
                continue;
            }
            let ty = match marker(g) {
                true => self.implementor(bounds).or_else(|| instance(bounds)),
                false => instance(bounds),
            };
            let ty = ty.ok_or_else(|| format!("no known type meets `{g}: {}`", bound_list(bounds)))?;
            named.push(ty.to_string());
            output = output.map(|o| o.substitute(g, &ty));
        }
        Ok(Function { path: format!("{}::<{}>", f.path, named.join(", ")), output, ..f.clone() })
    }

    /// The first public crate type (by name) implementing every crate trait of `bounds`
    /// and the value traits among them, if they name a crate trait.
    fn implementor(&self, bounds: &[Bound]) -> Option<Ty> {
        let auto = ["Sized", "Send", "Sync", "Unpin"];
        let asked: Vec<&str> = bounds
            .iter()
            .map(|b| b.name.as_str())
            .filter(|n| self.api.own_traits.contains(*n) || (VALUE_TRAITS.contains(n) && !auto.contains(n)))
            .collect();
        if !asked.iter().any(|n| self.api.own_traits.contains(*n)) {
            return None;
        }
        // One the harness builds first (base64's `GeneralPurpose`, not the `Avx2` no public
        // constructor makes).
        let meets =
            |d: &&TypeDef| d.path.is_some() && !d.generic && asked.iter().all(|n| d.traits.contains(*n));
        let mut meeting = self.api.types.values().filter(meets);
        let first =
            meeting.clone().find(|d| self.buildable.contains_key(&d.name)).or_else(|| meeting.next())?;
        let path = first.path.as_ref()?;
        let segments = path.split("::").map(str::to_owned).collect();
        Some(Ty::Path { segments, args: Vec::new(), assoc: Vec::new(), lifetimes: false })
    }

    /// For `impl Into<Options>` of a crate type (textwrap's `fill(text, width_or_options)`),
    /// a number or a string the type is made `From`, as a person passes it: `fill(text, 20)`.
    fn source_for_into(&self, bounds: &[Bound]) -> Option<Ty> {
        let auto = ["Sized", "Send", "Sync", "Unpin", "Copy", "Clone"];
        let mut asked = bounds.iter().filter(|b| !auto.contains(&b.name.as_str()));
        let (Some(into), None) = (asked.next(), asked.next()) else { return None };
        let Some(Ty::Path { segments, .. }) = into.args.first().filter(|_| into.name == "Into") else {
            return None;
        };
        let def = own_name(segments).and_then(|n| self.api.types.get(n))?;
        def.from.iter().find(|t| literal_typed(t) || t.plain_name() == Some("String")).cloned()
    }

    /// A closure for parameter `name` bounded by `bound` (`Fn(&T) -> bool`, `FnMut(T) -> T`,
    /// `FnOnce(&mut T)`) over numbers, made from a generated number `name`: a predicate
    /// compares its first argument with it (`|x| *x > name`), a map adds it
    /// (`|x| x.wrapping_add(name)`), one taking `&mut` adds it in place, one taking
    /// nothing returns it. A written test shows the number: `|x| *x > 3`. The error says
    /// which closure is not made.
    fn closure(&self, name: &str, bound: &Bound, generics: &[(String, Vec<Bound>)]) -> Result<Arg, String> {
        let x = if name == "x" { "y" } else { "x" };
        let int = |t: &Ty| t.plain_name().filter(|n| INTEGERS.contains(n)).map(str::to_owned);
        // The first argument: how many references deep, whether the last is `&mut`, its number type.
        let first = match bound.args.first() {
            None => None,
            Some(arg) => {
                let (mut t, mut depth, mut mutable) = (self.concrete(arg, generics)?, 0, false);
                while let Ty::Ref { inner, mutable: m } = t {
                    (t, depth, mutable) = (*inner, depth + 1, m);
                }
                Some((
                    depth,
                    mutable,
                    int(&t).ok_or(format!("taking `{arg}` (closures are made over numbers only)"))?,
                ))
            }
        };
        let output = match bound.assoc.iter().find(|(n, _)| n == "Output") {
            None => None,
            // A result only the function's own parameters name (`map_left<F, M>` where
            // `F: FnOnce(L) -> M`) is the type the plan names for it.
            Some((_, t)) => Some(self.concrete(t, generics)?),
        };
        let params = |rest: &str| {
            let others = bound.args.len().saturating_sub(1);
            std::iter::once(rest.to_owned())
                .chain(std::iter::repeat_n("_".to_owned(), others))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (gen_ty, body) = match (&first, output.as_ref()) {
            (Some((depth, _, t)), Some(o)) if o.plain_name() == Some("bool") => {
                (t.clone(), format!("{}{x} > {name}", "*".repeat(*depth)))
            }
            (Some((depth, _, t)), Some(o)) if int(o).is_some() => {
                // A method call sees through the references.
                let o = int(o).unwrap_or_default();
                let value =
                    if *t == o { x.to_owned() } else { format!("({}{x} as {o})", "*".repeat(*depth)) };
                (o, format!("{value}.wrapping_add({name})"))
            }
            (Some((depth @ 1.., true, t)), None) => {
                (t.clone(), format!("{}{x} = {x}.wrapping_add({name})", "*".repeat(*depth)))
            }
            (None, Some(o)) if int(o).is_some() || o.plain_name() == Some("bool") => {
                (o.plain_name().unwrap_or_default().to_owned(), name.to_owned())
            }
            _ => {
                return Err("of a shape not made (numbers in, a number, a `bool` or a change out)".to_owned());
            }
        };
        let x = if first.is_some() { params(x) } else { String::new() };
        Ok(Arg::simple(name, gen_ty, format!("|{x}| {body}")))
    }

    /// `ty` with its type parameters (and `impl Trait`s) replaced by concrete types.
    fn concrete(&self, ty: &Ty, generics: &[(String, Vec<Bound>)]) -> Result<Ty, String> {
        let mut ty = ty.clone();
        for (name, bounds) in generics {
            let mut names = Vec::new();
            ty.names(&mut names);
            if names.iter().any(|n| n == name) {
                let concrete = instance(bounds)
                    .ok_or_else(|| format!("no known type meets `{name}: {}`", bound_list(bounds)))?;
                ty = ty.substitute(name, &concrete);
            }
        }
        Ok(ty)
    }

    /// A reader parameter (`R: Read`, `&mut impl BufRead`): the generated bytes behind a
    /// `Cursor`, made where the call takes it (a reader's position after the call is not
    /// an output).
    fn reader(&self, name: &str, ty: &Ty, generics: &[(String, Vec<Bound>)]) -> Option<Arg> {
        let (amp, inner) = match ty {
            Ty::Ref { inner, mutable } => (if *mutable { "&mut " } else { "&" }, inner.as_ref()),
            ty => ("", ty),
        };
        let inner = match inner {
            Ty::Impl(bounds) => instance(bounds)?,
            inner => self.concrete(inner, generics).ok()?,
        };
        (inner == cursor())
            .then(|| Arg::simple(name, "Vec<u8>".into(), format!("{amp}std::io::Cursor::new({name})")))
    }

    /// How to make parameter `name: ty`.
    fn arg(
        &self,
        name: &str,
        ty: &Ty,
        generics: &[(String, Vec<Bound>)],
        owner: Option<&str>,
    ) -> Result<Arg, String> {
        let bad = |why: &str| Err(format!("parameter `{name}: {ty}` {why}"));
        if let Some(arg) = self.reader(name, ty, generics) {
            return Ok(arg);
        }
        // `impl Trait` arguments.
        if let Ty::Impl(bounds) = ty {
            if let Some(b) = bounds.iter().find(|b| iterates(b)) {
                // Items of any type (`choice<I: IntoIterator>(iter: I) -> Option<I::Item>`):
                // numbers, which every such function accepts.
                let item = item_of(bounds).cloned().unwrap_or_else(|| Ty::named("i64", vec![]));
                // `String::chars` is double-ended, but not of an exact size.
                let exact = bounds.iter().any(|b| b.name == "ExactSizeIterator");
                if item.plain_name() == Some("char") && !exact {
                    return Ok(Arg::simple(name, "String".into(), format!("{name}.chars()")));
                }
                let inner = self.arg(name, &item, generics, owner)?;
                // Borrowed items (`IntoIterator<Item = &str>`): borrowed from a `Vec`.
                if b.name == "IntoIterator"
                    && inner.convert.is_none()
                    && inner.expr == format!("&{name}")
                    && let Ty::Ref { inner: item, .. } = &item
                {
                    let map = match &**item {
                        i if i.plain_name() == Some("str") => ".map(String::as_str)",
                        Ty::Slice(_) => ".map(Vec::as_slice)",
                        _ => "",
                    };
                    return Ok(Arg::simple(
                        name,
                        format!("Vec<{}>", inner.gen_ty),
                        format!("{name}.iter(){map}"),
                    ));
                }
                if inner.convert.is_some() || inner.expr != name {
                    return bad("iterates over values that need building");
                }
                let into = if b.name == "IntoIterator" { "" } else { ".into_iter()" };
                return Ok(Arg::simple(name, format!("Vec<{}>", inner.gen_ty), format!("{name}{into}")));
            }
            if let Some(b) = bounds.iter().find(|b| b.parenthesized) {
                return self.closure(name, b, generics).or_else(|why| bad(&format!("is a closure {why}")));
            }
            let concrete = self
                .source_for_into(bounds)
                .or_else(|| self.implementor(bounds))
                .or_else(|| instance(bounds))
                .ok_or_else(|| format!("parameter `{name}: {ty}`: no known type meets it"))?;
            return self.arg(name, &concrete, generics, owner);
        }
        if let Some(n) = ty.plain_name()
            && let Some((_, bounds)) = generics.iter().find(|(g, _)| g == n)
        {
            if let Some(b) = bounds.iter().find(|b| b.parenthesized) {
                return self
                    .closure(name, b, generics)
                    .map_err(|why| format!("parameter `{name}: {n}` is a closure {why}"));
            }
            if bounds.iter().any(iterates) {
                return self.arg(name, &Ty::Impl(bounds.clone()), generics, owner);
            }
            // A crate type implementing the crate's trait it is bounded by (base64's
            // `E: Engine`), before a number tried at random.
            let concrete = self
                .source_for_into(bounds)
                .or_else(|| self.implementor(bounds))
                .or_else(|| instance(bounds))
                .ok_or_else(|| format!("no known type meets `{n}: {}`", bound_list(bounds)))?;
            return self.arg(name, &concrete, generics, owner);
        }
        let (by_value, inner) = match ty {
            Ty::Ref { mutable: false, inner } => (false, &**inner),
            ty => (true, ty),
        };
        if let Some((gen_ty, made)) = self.std_made(inner, name) {
            let expr = match by_value {
                true => made,
                // `Path::new` lends a `&Path` already.
                false if made.starts_with("std::path::Path::new") => made,
                false if made.contains('+') => format!("&({made})"),
                false => format!("&{made}"),
            };
            return Ok(Arg::simple(name, gen_ty, expr));
        }
        match ty {
            // `&mut impl fmt::Write`: a reference to the type that meets the bounds (a
            // shared one would be written `&"ab"`, a `str`, which no `impl` takes).
            Ty::Ref { mutable: true, inner } if let Ty::Impl(bounds) = &**inner => {
                if bounds.iter().any(|b| iterates(b) || b.parenthesized) {
                    return bad("borrows an iterator or a closure");
                }
                let concrete = instance(bounds)
                    .ok_or_else(|| format!("parameter `{name}: {ty}`: no known type meets it"))?;
                self.arg(name, &Ty::Ref { mutable: true, inner: Box::new(concrete) }, generics, owner)
            }
            // `&Range<K>` (rangemap's `overlaps`): the range made as below, borrowed.
            Ty::Ref { mutable: false, inner }
                if matches!(inner.name(), Some("Range" | "RangeInclusive")) && inner.args().len() == 1 =>
            {
                let range = self.arg(name, inner, generics, owner)?;
                Ok(Arg { expr: format!("&({})", range.expr), ..range })
            }
            Ty::Ref { mutable, inner } => {
                let (gen_ty, convert) = match &**inner {
                    Ty::Path { .. } if inner.plain_name() == Some("str") => {
                        if *mutable {
                            return bad("is `&mut str`");
                        }
                        ("String".to_owned(), None)
                    }
                    Ty::Slice(elem) => {
                        let e = self.owned(name, elem, generics, owner)?;
                        self.vec_of(name, e)
                    }
                    // One of the type's public constants, where the crate offers them by
                    // reference (its functions may want them `'static`, as percent-encoding's
                    // `&'static AsciiSet`), or where no constructor builds the type.
                    other
                        if !*mutable
                            && let Ty::Path { segments, .. } = other
                            && let Some(def) = own_name(segments).and_then(|n| self.api.types.get(n))
                            && !def.consts.is_empty()
                            && !def.generic
                            && def.path.is_some()
                            && other.args().is_empty()
                            && (def.consts.iter().any(|(_, _, by_ref)| *by_ref)
                                || !self.buildable.contains_key(&def.name)) =>
                    {
                        return Ok(Arg::simple(name, format!("Const{}", def.name), format!("{name}.get()")));
                    }
                    other => {
                        let a = self.owned(name, other, generics, owner)?;
                        (a.0, a.1)
                    }
                };
                let amp = if *mutable { "&mut " } else { "&" };
                Ok(Arg {
                    name: name.into(),
                    gen_ty,
                    convert,
                    expr: format!("{amp}{name}"),
                    mutated: *mutable,
                })
            }
            Ty::Path { .. }
                if matches!(ty.name(), Some("Option"))
                    && ty.args().first().is_some_and(|a| matches!(a, Ty::Ref { .. })) =>
            {
                let Some(Ty::Ref { mutable: false, inner }) = ty.args().first() else {
                    return bad("borrows mutably");
                };
                let (gen_ty, method) = if inner.plain_name() == Some("str") {
                    ("String".to_owned(), "as_deref")
                } else {
                    let (g, convert) = self.owned(name, inner, generics, owner)?;
                    if convert.is_some() {
                        return bad("borrows a value that needs building");
                    }
                    (g, "as_ref")
                };
                Ok(Arg::simple(name, format!("Option<{gen_ty}>"), format!("{name}.{method}()")))
            }
            Ty::Path { .. } if ty.name() == Some("Cow") => {
                let inner = ty.args().first();
                if inner.and_then(Ty::plain_name) == Some("str") {
                    Ok(Arg::simple(name, "String".into(), format!("{name}.into()")))
                } else {
                    bad("is a `Cow` of something other than `str`")
                }
            }
            // A range: its two ends, each made as a parameter of their type is, and
            // joined by the range's operator (`usize::from(r.0)..=usize::from(r.1)`).
            Ty::Path { .. }
                if matches!(ty.name(), Some("Range" | "RangeInclusive")) && ty.args().len() == 1 =>
            {
                let end = self.arg(name, &ty.args()[0], generics, owner)?;
                if end.convert.is_some() || end.mutated {
                    return bad("is a range of values that need building");
                }
                let op = if ty.name() == Some("Range") { ".." } else { "..=" };
                let at = |i: u8| replace_ident(&end.expr, name, &format!("{name}.{i}"));
                Ok(Arg::simple(name, format!("({0}, {0})", end.gen_ty), format!("{}{op}{}", at(0), at(1))))
            }
            // A size or an index: drawn below 65,536, since a full-range size asks for
            // more memory than any machine has and the original aborts on most inputs.
            _ if ty.plain_name() == Some("usize") => {
                Ok(Arg::simple(name, "u16".into(), format!("usize::from({name})")))
            }
            _ => {
                let (gen_ty, convert) = self.owned(name, ty, generics, owner)?;
                Ok(Arg { name: name.into(), gen_ty, convert, expr: name.into(), mutated: false })
            }
        }
    }

    /// An owned value of `ty`: the generated type and the statement that builds it.
    fn owned(
        &self,
        name: &str,
        ty: &Ty,
        generics: &[(String, Vec<Bound>)],
        owner: Option<&str>,
    ) -> Result<(String, Option<String>), String> {
        let bad = |why: String| Err(format!("parameter `{name}`: {why}"));
        if let Some(n) = ty.plain_name()
            && let Some((_, bounds)) = generics.iter().find(|(g, _)| g == n)
        {
            let concrete = self
                .implementor(bounds)
                .or_else(|| instance(bounds))
                .ok_or_else(|| format!("no known type meets `{n}: {}`", bound_list(bounds)))?;
            return self.owned(name, &concrete, generics, owner);
        }
        match ty {
            Ty::Path { segments, .. } if self_assoc(segments) => {
                bad(format!("`{ty}` is an associated type the harness cannot name"))
            }
            Ty::Path { segments, args, .. } => {
                let last = segments.last().map(String::as_str).unwrap_or("");
                let last = if last == "Self" { owner.unwrap_or("Self") } else { last };
                if args.is_empty() && (INTEGERS.contains(&last) || PRIMITIVES.contains(&last)) {
                    return Ok((last.to_owned(), None));
                }
                if let Some((_, path)) = CONTAINERS.iter().find(|(n, _)| *n == last) {
                    let mut gens = Vec::new();
                    for a in args {
                        let (g, convert) = self.owned(name, a, generics, owner)?;
                        if convert.is_some() {
                            if let Some(def) = g.strip_prefix("Make").and_then(|t| self.api.types.get(t))
                                && def.borrows
                            {
                                return bad(format!(
                                    "`{ty}` holds values that borrow what they are built from"
                                ));
                            }
                            // Only one level of building: `Vec<Make…>` and `Option<Make…>`.
                            if args.len() == 1 && matches!(last, "Vec" | "Option") {
                                let make = format!("{g}::make");
                                let conv = if last == "Vec" {
                                    format!("let {name}: Vec<_> = {name}.into_iter().map({make}).collect();")
                                } else {
                                    format!("let {name} = {name}.map({make});")
                                };
                                return Ok((format!("{last}<{g}>"), Some(conv)));
                            }
                            return bad(format!("`{ty}` holds values that need building"));
                        }
                        gens.push(g);
                    }
                    return Ok((format!("{path}<{}>", gens.join(", ")), None));
                }
                let own = own_name(segments).is_some();
                if own && self.buildable.contains_key(last) {
                    return Ok((format!("Make{last}"), Some(format!("let {name} = {name}.make();"))));
                }
                if let Some(def) = self.api.types.get(last).filter(|_| own) {
                    return bad(match (&def.path, def.generic) {
                        (None, _) => format!("`{last}` is not public"),
                        (_, true) if def.type_params.is_empty() && def.const_params.is_empty() => {
                            format!("`{last}` has a lifetime parameter")
                        }
                        (_, true) => format!("`{last}` is generic"),
                        _ => format!("`{last}` has no public constructor the harness can call"),
                    });
                }
                bad(format!("`{ty}` cannot be generated"))
            }
            Ty::Tuple(ts) => {
                let mut gens = Vec::new();
                for t in ts {
                    let (g, convert) = self.owned(name, t, generics, owner)?;
                    if convert.is_some() {
                        return bad(format!("`{ty}` holds values that need building"));
                    }
                    gens.push(g);
                }
                Ok((
                    if gens.len() == 1 {
                        format!("({},)", gens[0])
                    } else {
                        format!("({})", gens.join(", "))
                    },
                    None,
                ))
            }
            Ty::Array(t, n) => {
                let (g, convert) = self.owned(name, t, generics, owner)?;
                if convert.is_some() || n.parse::<usize>().map_or(true, |n| n > 64) {
                    return bad(format!("`{ty}` cannot be generated"));
                }
                Ok((format!("[{g}; {n}]"), None))
            }
            Ty::Slice(_) => bad("an unsized slice".into()),
            Ty::Ref { .. } => bad(format!("`{ty}` borrows inside a value")),
            Ty::Impl(bounds) if bounds.iter().any(|b| b.parenthesized) => bad("takes a closure".into()),
            Ty::Impl(_) => bad(format!("`{ty}` cannot be generated here")),
            Ty::Other(s) if s.starts_with("fn") || s.contains("Fn") => bad("takes a function".into()),
            Ty::Other(s) => bad(format!("`{s}` cannot be generated")),
        }
    }

    fn vec_of(&self, name: &str, elem: (String, Option<String>)) -> (String, Option<String>) {
        match elem {
            (g, None) => (format!("Vec<{g}>"), None),
            (g, Some(_)) => (
                format!("Vec<{g}>"),
                Some(format!("let {name}: Vec<_> = {name}.into_iter().map({g}::make).collect();")),
            ),
        }
    }

    /// How a result of type `ty` is rendered.
    fn output(&self, ty: &Ty, owner: Option<&str>) -> Result<Output, String> {
        // What an iterator yields says more than its `Debug`, if it has one (its state).
        if self.iterator(ty, owner) {
            // A crate iterator type says by its fields (bimap's `Iter` holds a `hash_map::Iter`,
            // lru's walks its own list in order); an `impl Iterator` of a method of a type
            // holding a hash container may be that container's order.
            let owner_hashed = owner.and_then(|o| self.api.types.get(o)).is_some_and(|d| d.hashed);
            let unordered = match self.own_type(ty, owner) {
                // A name two modules define (bimap's `btree::Iter` and `hash::Iter`) may be
                // either: the method's type decides.
                Some(def) => def.hashed || (def.homonym && owner_hashed),
                None => std_hash_iterator(ty) || owner_hashed,
            };
            return Ok(if unordered { Output::Unordered } else { Output::Collected });
        }
        let render = self.render(ty, owner);
        let sorted = render.hashed;
        if !render.debug {
            return if render.display {
                Ok(Output::Display)
            } else {
                Err(format!("returns `{ty}`, which has neither `Debug` nor `Display`"))
            };
        }
        if ty.borrows() || matches!(ty, Ty::Impl(_)) {
            return Ok(Output::Debug { sorted });
        }
        // A crate type that compares with nothing and is shown by hand (humantime's
        // `Rfc3339Timestamp`, `FormattedDuration`): its `Display` is what the crate
        // computes, its derived `Debug` what it was given, which the first may leave out.
        if render.display
            && self.own_type(ty, owner).is_some_and(|def| {
                def.debug_derived && !def.traits.contains("PartialEq") && !def.traits.contains("Iterator")
            })
        {
            return Ok(if sorted { Output::Display } else { Output::Shown });
        }
        match self.nameable(ty, owner) {
            Some(name) if sorted => Ok(Output::Sorted(name)),
            Some(name) => Ok(Output::Value(name)),
            None => Ok(Output::Debug { sorted }),
        }
    }

    /// The item type of an iterator result: an `impl Iterator<Item = T>`'s, or a crate
    /// type's own `Iterator` impl's (`Self` of a constructor of one included).
    fn iterator_item(&self, ty: &Ty, owner: Option<&str>) -> Option<Ty> {
        match ty {
            Ty::Impl(bounds) => item_of(bounds).cloned(),
            _ => {
                self.own_type(ty, owner).filter(|def| !def.shadowed).and_then(|def| def.iterator_item.clone())
            }
        }
    }

    /// The crate type `ty` names (`Self` is `owner`), unless it is an associated type.
    fn own_type(&self, ty: &Ty, owner: Option<&str>) -> Option<&TypeDef> {
        let Ty::Path { segments, .. } = ty else { return None };
        if self_assoc(segments) {
            return None;
        }
        let name = own_name(segments)?;
        self.api.types.get(if name == "Self" { owner? } else { name })
    }

    /// Whether `ty` is an iterator: an `impl Iterator`, or a crate type implementing it
    /// (`Self` of a constructor of one included).
    fn iterator(&self, ty: &Ty, owner: Option<&str>) -> bool {
        match ty {
            Ty::Impl(bounds) => {
                let iterates = bounds.iter().any(|b| ITERATOR_TRAITS.contains(&b.name.as_str()));
                // Items that cannot be rendered leave the iterator to the checks below.
                iterates && item_of(bounds).is_none_or(|t| self.render(t, None).debug)
            }
            _ => {
                std_hash_iterator(ty)
                    || self.own_type(ty, owner).is_some_and(|def| def.traits.contains("Iterator"))
            }
        }
    }

    /// The harness's spelling of `ty`, when it can name it.
    fn nameable(&self, ty: &Ty, owner: Option<&str>) -> Option<String> {
        match ty {
            Ty::Path { segments, .. } if self_assoc(segments) => None,
            Ty::Path { segments, args, .. } => {
                let last = segments.last()?.as_str();
                let last = if last == "Self" { owner? } else { last };
                let args: Option<Vec<String>> = args.iter().map(|a| self.nameable(a, owner)).collect();
                let args = args?;
                let base = if args.is_empty() && (INTEGERS.contains(&last) || PRIMITIVES.contains(&last)) {
                    last.to_owned()
                } else if let Some((_, path)) = CONTAINERS.iter().find(|(n, _)| *n == last) {
                    // `Result<T>` is a module's alias (`pub type Result<T> = …`), whose error
                    // type is not named here; `fmt::Result` is std's.
                    if last == "Result" && args.len() < 2 {
                        return ty.is_fmt_result().then(|| "std::fmt::Result".to_owned());
                    }
                    (*path).to_owned()
                } else if let Some(def) = self.api.types.get(last)
                    && !def
                        .path
                        .as_deref()
                        .is_some_and(|p| p.ends_with(&format!("::{}", segments.join("::"))))
                    && let Some(std_path) = std_path(segments)
                {
                    // `io::Error` is std's, though the crate names an error of its own so.
                    std_path
                } else {
                    let def = self.api.types.get(last)?;
                    if def.generic {
                        return None;
                    }
                    let path = def.path.clone()?;
                    // Built at concrete types, its path names them already.
                    if path.contains("::<") {
                        return Some(path);
                    }
                    path
                };
                Some(if args.is_empty() { base } else { format!("{base}<{}>", args.join(", ")) })
            }
            Ty::Tuple(ts) => {
                let parts: Option<Vec<String>> = ts.iter().map(|t| self.nameable(t, owner)).collect();
                let parts = parts?;
                Some(if parts.len() == 1 {
                    format!("({},)", parts[0])
                } else {
                    format!("({})", parts.join(", "))
                })
            }
            Ty::Array(t, n) => Some(format!("[{}; {n}]", self.nameable(t, owner)?)),
            _ => None,
        }
    }

    /// What rendering a value of `ty` can use: `Debug`, `Display`, and whether a hash
    /// container inside makes its `Debug` order random. A type from another crate is
    /// taken to be `Debug` (the compile check removes the item if not).
    fn render(&self, ty: &Ty, owner: Option<&str>) -> Rendering {
        match ty {
            Ty::Path { segments, args, assoc, .. } => {
                let last = segments.last().map(String::as_str).unwrap_or("");
                let last = if last == "Self" { owner.unwrap_or(last) } else { last };
                let inner = args.iter().chain(assoc.iter().map(|(_, t)| t)).map(|a| self.render(a, owner));
                let inner =
                    inner.fold(Rendering { debug: true, display: true, hashed: false }, Rendering::and);
                let own = if let Some(def) =
                    self.api.types.get(last).filter(|_| !self_assoc(segments) && own_name(segments).is_some())
                {
                    Rendering {
                        debug: def.traits.contains("Debug"),
                        display: def.traits.contains("Display"),
                        hashed: def.hashed,
                    }
                } else {
                    let display = INTEGERS.contains(&last) || PRIMITIVES.contains(&last) || last == "str";
                    Rendering { debug: true, display, hashed: hash_container(last) }
                };
                Rendering {
                    debug: own.debug && inner.debug,
                    display: own.display && args.is_empty(),
                    hashed: own.hashed || inner.hashed,
                }
            }
            Ty::Ref { inner, .. } | Ty::Slice(inner) | Ty::Array(inner, _) => {
                let r = self.render(inner, owner);
                Rendering { display: r.display && matches!(**inner, Ty::Path { .. }), ..r }
            }
            Ty::Tuple(ts) => {
                let r = ts
                    .iter()
                    .map(|t| self.render(t, owner))
                    .fold(Rendering { debug: true, display: false, hashed: false }, Rendering::and);
                Rendering { display: false, ..r }
            }
            Ty::Impl(bounds) => match item_of(bounds) {
                Some(t) if bounds.iter().any(|b| ITERATOR_TRAITS.contains(&b.name.as_str())) => {
                    self.render(t, owner)
                }
                _ => Rendering {
                    debug: bounds.iter().any(|b| b.name == "Debug"),
                    display: bounds.iter().any(|b| b.name == "Display"),
                    hashed: false,
                },
            },
            Ty::Other(_) => Rendering { debug: false, display: false, hashed: false },
        }
    }
}

#[derive(Clone, Copy)]
struct Rendering {
    debug: bool,
    display: bool,
    hashed: bool,
}

impl Rendering {
    fn and(self, o: Rendering) -> Rendering {
        Rendering {
            debug: self.debug && o.debug,
            display: self.display && o.display,
            hashed: self.hashed || o.hashed,
        }
    }
}

impl Arg {
    pub(crate) fn simple(name: &str, gen_ty: String, expr: String) -> Arg {
        Arg { name: name.into(), gen_ty, convert: None, expr, mutated: false }
    }
}

/// Whether `text` holds `word` as a whole identifier.
fn mentions(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().last();
        let after = text[i + word.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}

/// Types a parameter bounded by a trait the plan does not know is tried at, in order: such
/// a trait is most often numeric, and its implementations often take a separate path for
/// the widest integers and for each float width (a 128-bit division, a formatter per
/// float). The first is the parameter's [`instance`]; the compile check leaves out the
/// tries that do not meet the trait.
const TRIED: [&str; 4] = ["i64", "u128", "f64", "f32"];

/// The type tried last, only once the compile check has left out every type of [`TRIED`]:
/// a trait implemented for the narrower unsigned integers alone (humansize's `Unsigned`,
/// for `u8` to `u64` and `usize`). Tried with the others, it would double the targets of
/// every trait `i64` meets.
const FALLBACK: &str = "u64";

/// Traits a plain value meets (`i64`, `String`): what an item type is bounded by.
const VALUE_TRAITS: [&str; 14] = [
    "Clone",
    "Copy",
    "Debug",
    "Display",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "Default",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
];

/// The value an integer const parameter of a type is put at: `ArrayVec::<i64, 16>`.
const CONST_ARG: usize = 16;

/// `api` with each generic type whose parameters are all types or integer consts (no
/// lifetime) put at concrete ones, the first a parameter with its bounds is tried at:
/// `Slab<T>` becomes `Slab::<i64>` (a path that serves as a type and in an expression),
/// and its methods' `T` an `i64`; a const at [`CONST_ARG`]. A collection generic over its
/// items is most crates' main type.
fn concrete_types(api: &Api) -> Api {
    let mut api = api.clone();
    let mut put: BTreeMap<String, Vec<(String, Ty)>> = BTreeMap::new();
    // What the impls of each type's methods ask of its parameters (`S: AsRef<str>` of
    // unicase's `impl<S: AsRef<str>> UniCase<S>`).
    let mut asked: BTreeMap<(String, String), Vec<Bound>> = BTreeMap::new();
    for f in &api.functions {
        let Some(owner) = &f.owner else { continue };
        for (param, bounds) in &f.requires {
            let entry = asked.entry((owner.clone(), param.clone())).or_default();
            for b in bounds {
                if !entry.contains(b) {
                    entry.push(b.clone());
                }
            }
        }
    }
    for def in api.types.values_mut() {
        let Some(path) = def.path.clone().filter(|_| def.generic && !def.fixed_generic) else {
            continue;
        };
        // Parameters with defaults come last, and stay at their defaults. Only items' own
        // parameters are put in: bounded by value traits (`T: Ord + Hash`), a float's or an
        // I/O trait, or nothing, by the type or by its main impl.
        let chosen: Option<Vec<(String, Ty)>> = def
            .type_params
            .iter()
            .filter(|(.., default)| !default)
            .map(|(name, own, _)| {
                let mut bounds = own.clone();
                bounds
                    .extend(def.impl_bounds.iter().filter(|(p, _)| p == name).flat_map(|(_, bs)| bs.clone()));
                let at = |bounds: &[Bound]| {
                    let items = bounds.iter().all(|b| {
                        let n = b.name.as_str();
                        (b.args.is_empty()
                            && (VALUE_TRAITS.contains(&n)
                                || FLOAT_TRAITS.contains(&n)
                                || IO_TRAITS.contains(&n)))
                            || string_bound(b)
                    });
                    instance(bounds).filter(|_| items)
                };
                // A text the methods' impls ask for (unicase's `S: AsRef<str>`): a `String`.
                let methods =
                    asked.get(&(def.name.clone(), name.clone())).filter(|bs| bs.iter().any(string_bound));
                let text = methods.and_then(|bs| at(&[own.as_slice(), bs].concat()));
                // Where the impls ask a trait the plan does not know (num-traits' `PrimInt`),
                // the type's own bounds, and the compile check keeps what compiles; not
                // where a number cannot meet them (`I: AsRef<[u8]>` of a builder).
                let numbers_may = !bounds.iter().any(|b| NOT_NUMBER_TRAITS.contains(&b.name.as_str()));
                text.or_else(|| at(&bounds))
                    .or_else(|| at(own).filter(|_| numbers_may))
                    .map(|t| (name.clone(), t))
            })
            .collect();
        let Some(mut chosen) = chosen else { continue };
        let mut args: Vec<String> = chosen.iter().map(|(_, t)| t.to_string()).collect();
        // An integer const parameter, a capacity most often: small enough that a few
        // calls fill it, so that what happens when it is full is tried too.
        for (at, name) in &def.const_params {
            args.insert((*at).min(args.len()), CONST_ARG.to_string());
            chosen.push((name.clone(), Ty::named(&CONST_ARG.to_string(), vec![])));
        }
        def.path = Some(format!("{path}::<{}>", args.join(", ")));
        def.generic = false;
        // A derived `Copy` holds only where the parameters are `Copy` (a `Cursor` is not).
        let copy = |t: &Ty| {
            t.plain_name().is_some_and(|n| {
                INTEGERS.contains(&n)
                    || matches!(n, "f32" | "f64" | "bool" | "char")
                    || n.parse::<usize>().is_ok()
            })
        };
        if !chosen.iter().all(|(_, t)| copy(t)) {
            def.traits.remove("Copy");
        }
        // `impl<L: Iterator, R> Iterator for Either<L, R>` is no iterator at `L = i64`.
        if unmet(&def.iterator_requires, &chosen).is_some() {
            def.iterator_item = None;
            def.iterator_methods.clear();
            def.traits.remove("Iterator");
        }
        // What its constructors are made of names the parameters too.
        for ty in def.from.iter_mut().chain(&mut def.try_from).chain(&mut def.from_iter) {
            *ty = ty.substitute_all(&chosen);
        }
        for (_, ty) in def.fields.iter_mut().flatten().chain(def.variants.iter_mut().flat_map(|v| &mut v.1)) {
            *ty = ty.substitute_all(&chosen);
        }
        put.insert(def.name.clone(), chosen);
    }
    for f in &mut api.functions {
        let Some(owner) = f.owner.clone() else { continue };
        let Some(chosen) = put.get(&owner) else { continue };
        // An associated function is called through the path with the types: nothing else
        // may say what `T` is (`Slab::<i64>::new()`).
        if f.receiver.is_none()
            && let Some(path) = &api.types[&owner].path
        {
            f.path = format!("{path}::{}", f.name);
        }
        if f.blocker.is_none() {
            f.blocker = unmet(&f.requires, chosen);
        }
        f.substitute_types(chosen);
    }
    api
}

/// A bound a `String` meets for its text: `AsRef<str>`, `Borrow<str>`, `Into<String>`.
fn string_bound(b: &Bound) -> bool {
    let arg = b.args.first().and_then(Ty::plain_or_std_name);
    matches!((b.name.as_str(), arg), ("AsRef" | "Borrow", Some("str")) | ("Into", Some("String")))
}

/// Why a function whose impl `requires` bounds on its type's parameters is not there at
/// the types `chosen` for them, where a number cannot meet one (`L: Iterator` with `L =
/// i64`); the compile check finds the rest.
fn unmet(requires: &[(String, Vec<Bound>)], chosen: &[(String, Ty)]) -> Option<String> {
    requires.iter().find_map(|(param, bounds)| {
        let (_, ty) = chosen.iter().find(|(c, _)| c == param)?;
        let n = ty.plain_name()?;
        let float = matches!(n, "f32" | "f64");
        if !float && !INTEGERS.contains(&n) {
            return None;
        }
        let b = bounds.iter().find(|b| {
            NOT_NUMBER_TRAITS.contains(&b.name.as_str())
                || (!float && FLOAT_TRAITS.contains(&b.name.as_str()))
        })?;
        Some(format!("is for `{param}: {}` only, and the harness puts `{param}` at `{ty}`", b.name))
    })
}

/// A std value the harness makes from a generated integer `name`, as the generated
/// type and the expression: a `Duration` from nanoseconds (every `u64` makes one without
/// a panic), a `SystemTime` as that long after the epoch, an IP address from its bits, a
/// `NonZeroUsize` (or another `NonZero…`) from its integer, `0` made `MIN`; `None` for
/// another type.
fn std_made(ty: &Ty, name: &str) -> Option<(String, String)> {
    if let Some((path @ ("Path" | "PathBuf"), [])) = std_in(ty, "path") {
        let new = if path == "Path" { format!("new(&{name})") } else { format!("from({name})") };
        Some(("String".into(), format!("std::path::{path}::{new}")))
    } else if Planner::std_time(ty, "Duration") {
        Some(("u64".into(), format!("std::time::Duration::from_nanos({name})")))
    } else if Planner::std_time(ty, "SystemTime") {
        Some(("u64".into(), format!("std::time::UNIX_EPOCH + std::time::Duration::from_nanos({name})")))
    } else if let Some(ip) = std_ip(ty) {
        Some(match ip {
            "Ipv4Addr" => ("u32".into(), format!("std::net::Ipv4Addr::from({name})")),
            "Ipv6Addr" => ("u128".into(), format!("std::net::Ipv6Addr::from({name})")),
            // Small numbers make IPv4 addresses, the others IPv6 ones.
            _ => ("u128".into(), format!("mutfuzz::ip_addr({name})")),
        })
    } else if let Some(int) = std_nonzero(ty) {
        let nonzero = format!("std::num::NonZero{}{}", int[..1].to_uppercase(), &int[1..]);
        // A size drawn below 65,536, as a `usize` parameter is.
        let (gen_ty, value) = match int {
            "usize" => ("u16", format!("usize::from({name})")),
            _ => (int, name.to_owned()),
        };
        Some((gen_ty.into(), format!("{nonzero}::new({value}).unwrap_or({nonzero}::MIN)")))
    } else {
        None
    }
}

/// std's `Ipv4Addr`, `Ipv6Addr` or `IpAddr`, bare or through `std::net` (`core::net`).
fn std_ip(ty: &Ty) -> Option<&'static str> {
    let (name, []) = std_in(ty, "net")? else { return None };
    ["Ipv4Addr", "Ipv6Addr", "IpAddr"].into_iter().find(|ip| *ip == name)
}

/// The integer of std's `NonZeroU8` … `NonZeroIsize` (or `NonZero<u8>` …), bare or
/// through `std::num`.
fn std_nonzero(ty: &Ty) -> Option<&'static str> {
    let int = match std_in(ty, "num")? {
        ("NonZero", [arg]) => arg.plain_name()?.to_owned(),
        (name, []) => name.strip_prefix("NonZero")?.to_lowercase(),
        _ => return None,
    };
    INTEGERS.iter().copied().find(|i| *i == int)
}

/// The name and type arguments of a path type written bare or through std's (or core's)
/// `module`: `Ipv4Addr`, `std::net::Ipv4Addr`.
fn std_in<'t>(ty: &'t Ty, module: &str) -> Option<(&'t str, &'t [Ty])> {
    let Ty::Path { segments, args, .. } = ty else { return None };
    let (last, prefix) = segments.split_last()?;
    match prefix {
        [] => Some((last, args)),
        [root, m] if matches!(root.as_str(), "std" | "core") && m == module => Some((last, args)),
        _ => None,
    }
}

/// Whether a value of `ty` equals the literal its `Debug` writes: a number, a `bool`, a
/// `char`, a `&str`, or a tuple or an `Option` of them (not a `String`, whose literal is
/// a `&str`, an `OsString` or a `NonZeroUsize`).
fn literal_typed(ty: &Ty) -> bool {
    match ty {
        Ty::Ref { inner, .. } => inner.plain_name() == Some("str"),
        Ty::Tuple(parts) => !parts.is_empty() && parts.iter().all(literal_typed),
        Ty::Path { .. } if ty.name() == Some("Option") && ty.args().len() == 1 => {
            literal_typed(&ty.args()[0])
        }
        _ => ty
            .plain_name()
            .is_some_and(|n| INTEGERS.contains(&n) || (PRIMITIVES.contains(&n) && n != "String")),
    }
}

/// The name by which a path may mean one of the crate's types: its last segment, unless
/// it goes through std (the scan writes `std::time::Duration` where a module imports it
/// beside the crate's own `Duration`).
fn own_name(segments: &[String]) -> Option<&str> {
    match segments.first().map(String::as_str) {
        Some("std" | "core" | "alloc") if segments.len() > 1 => None,
        _ => segments.last().map(String::as_str),
    }
}

/// The full path of a type written through a std module (`io::Error`, `fmt::Error`,
/// `core::num::ParseIntError` as `std::…`), which the caller reads as std's where the
/// crate's type of that name is not at that path.
fn std_path(segments: &[String]) -> Option<String> {
    let (first, rest) = segments.split_first().filter(|_| segments.len() > 1)?;
    match first.as_str() {
        "std" | "core" | "alloc" => Some(format!("std::{}", rest.join("::"))),
        "io" | "fmt" | "num" => Some(format!("std::{}", segments.join("::"))),
        _ => None,
    }
}

/// Traits no number implements.
const NOT_NUMBER_TRAITS: [&str; 19] = [
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "FusedIterator",
    "Read",
    "BufRead",
    "Write",
    "Seek",
    "Future",
    "Deref",
    "DerefMut",
    "Error",
    "Fn",
    "FnMut",
    "FnOnce",
    "Extend",
    "AsRef",
    "AsMut",
];

/// num-traits' float traits, which `f64` and `f32` meet.
const FLOAT_TRAITS: [&str; 3] = ["Float", "FloatCore", "Real"];

/// `f` as the plan drives it: as scanned, then once per further type in [`TRIED`] when a
/// type parameter (or `impl Trait` parameter) is bounded by a trait the plan does not know.
fn instantiations(f: &Function) -> Vec<Function> {
    let unknown = |bounds: &[Bound]| instances(bounds).len() > 1;
    let mut names = Vec::new();
    for (_, t) in &f.params {
        t.names(&mut names);
    }
    if let Some(o) = &f.output {
        o.names(&mut names);
    }
    let generic: Vec<&str> = f
        .generics
        .iter()
        .filter(|(g, bounds)| names.contains(g) && unknown(bounds))
        .map(|(g, _)| g.as_str())
        .collect();
    let impls = f.params.iter().any(|(_, t)| matches!(t, Ty::Impl(bounds) if unknown(bounds)));
    if generic.is_empty() && !impls {
        return vec![f.clone()];
    }
    let mut out = vec![f.clone()];
    for tried in TRIED[1..].iter().chain(&[FALLBACK]) {
        let to = Ty::named(tried, vec![]);
        let put = |t: &Ty| generic.iter().fold(t.clone(), |t, g| t.substitute(g, &to));
        // `impl Trait` is a parameter's own type; returned, it stays opaque.
        let put_param = |t: &Ty| match t {
            Ty::Impl(bounds) if unknown(bounds) => to.clone(),
            t => put(t),
        };
        out.push(Function {
            params: f.params.iter().map(|(n, t)| (n.clone(), put_param(t))).collect(),
            output: f.output.as_ref().map(put),
            instantiated: Some((*tried).to_owned()),
            ..f.clone()
        });
    }
    out
}

/// The `Item` of an iterator's bounds, on whichever bound declares it.
fn item_of(bounds: &[Bound]) -> Option<&Ty> {
    bounds.iter().find_map(|b| b.assoc.iter().find(|(n, _)| n == "Item")).map(|(_, t)| t)
}

/// Whether a bound makes an iterator of a parameter: `IntoIterator`, `Iterator`,
/// `DoubleEndedIterator`, … (its items by `Item`, maybe on another bound).
fn iterates(b: &Bound) -> bool {
    b.name == "IntoIterator" || ITERATOR_TRAITS.contains(&b.name.as_str())
}

/// A concrete type meeting every bound of a type parameter, by the common bounds:
/// string-like bounds → `String`, byte-like → `Vec<u8>`, value bounds → `i64`.
pub fn instance(bounds: &[Bound]) -> Option<Ty> {
    instances(bounds).into_iter().next()
}

/// The types a parameter with `bounds` is tried at: one by the common bounds (`f64` for
/// num-traits' float traits, a buffer in memory for I/O ones), or each of [`TRIED`] for a
/// trait the plan does not know; none when nothing can meet them.
fn instances(bounds: &[Bound]) -> Vec<Ty> {
    const VALUE: [&str; 14] = VALUE_TRAITS;
    const NUMERIC: [&str; 8] = ["Add", "Sub", "Mul", "Div", "Rem", "Neg", "Sum", "Product"];
    let names: BTreeSet<&str> = bounds.iter().map(|b| b.name.as_str()).collect();
    let arg_of = |trait_: &str| {
        bounds.iter().find(|b| b.name == trait_).and_then(|b| b.args.first()).and_then(Ty::plain_or_std_name)
    };
    let string_like = names.iter().all(|n| {
        matches!(
            *n,
            "Clone"
                | "Debug"
                | "Display"
                | "PartialEq"
                | "Eq"
                | "PartialOrd"
                | "Ord"
                | "Hash"
                | "Default"
                | "Send"
                | "Sync"
                | "Sized"
                | "ToString"
                | "AsRef"
                | "Into"
                | "Borrow"
        )
    });
    if let Some(io) = io_instance(&names) {
        return io.into_iter().collect();
    }
    // A text writer: a `String` the call writes into.
    if names.contains(crate::ty::FMT_WRITE) {
        let plain = names.iter().all(|n| *n == crate::ty::FMT_WRITE || VALUE_TRAITS.contains(n));
        return if plain { vec![Ty::named("String", vec![])] } else { Vec::new() };
    }
    // `impl RangeBounds<T>`: an inclusive range of `T`, which any pair of ends makes.
    if names.contains("RangeBounds") {
        let elem = arg_of("RangeBounds").filter(|t| INTEGERS.contains(t) || *t == "char");
        let plain = names.iter().all(|n| VALUE_TRAITS.contains(n) || *n == "RangeBounds");
        return match elem {
            Some(t) if plain => vec![Ty::named("RangeInclusive", vec![Ty::named(t, vec![])])],
            _ => Vec::new(),
        };
    }
    // `R: Borrow<Range<K>>` (rangemap's `overlapping`): the type itself, as std's
    // `impl<T> Borrow<T> for T` lends it.
    if let [only] = bounds
        && only.name == "Borrow"
        && let Some(target @ Ty::Path { .. }) = only.args.first()
        && !target.args().is_empty()
    {
        return vec![target.clone()];
    }
    if names.contains("AsRef") || names.contains("Borrow") || names.contains("Into") {
        let target = arg_of("AsRef").or_else(|| arg_of("Borrow")).or_else(|| arg_of("Into"));
        let one = match target {
            // A path or an `OsStr` is made from a `String` too; a function that touches the
            // file system is left out before (by its signature's types and body's calls).
            Some("str" | "String" | "OsStr" | "Path") if string_like => Some(Ty::named("String", vec![])),
            Some("OsStr" | "Path") => None,
            Some(t) if INTEGERS.contains(&t) && names.len() == 1 && names.contains("Into") => {
                Some(Ty::named(t, vec![]))
            }
            // `impl AsRef<FormatSizeOptions>`: the type itself, which a crate that asks for
            // it implements `AsRef` of (the compile check drops the item if not).
            Some(t) if names.len() == 1 && names.contains("AsRef") && t.starts_with(char::is_uppercase) => {
                Some(Ty::named(t, vec![]))
            }
            None if bounds.iter().any(|b| b.args.first().is_some_and(|a| matches!(a, Ty::Slice(_)))) => {
                Some(Ty::named("Vec", vec![Ty::named("u8", vec![])]))
            }
            _ => None,
        };
        return one.into_iter().collect();
    }
    // A result collected from items (`U: FromIterator<char>`).
    if names.len() == 1 && names.contains("FromIterator") {
        return match arg_of("FromIterator") {
            Some("char" | "String") => vec![Ty::named("String", vec![])],
            Some(n) if INTEGERS.contains(&n) || PRIMITIVES.contains(&n) => {
                vec![Ty::named("Vec", vec![Ty::named(n, vec![])])]
            }
            _ => Vec::new(),
        };
    }
    if bounds.iter().any(iterates) {
        let item = item_of(bounds);
        let elem = match item.map(Ty::plain_name) {
            // Items of any type: numbers.
            None => Ty::named("i64", vec![]),
            Some(Some(n)) if INTEGERS.contains(&n) || PRIMITIVES.contains(&n) => Ty::named(n, vec![]),
            // A type parameter of its own (bounded elsewhere by value traits).
            Some(Some(n)) if n.chars().next().is_some_and(char::is_uppercase) => Ty::named("i64", vec![]),
            _ => return Vec::new(),
        };
        return vec![Ty::named("Vec", vec![elem])];
    }
    if names.contains("ToString") && string_like {
        return vec![Ty::named("String", vec![])];
    }
    if names.iter().all(|n| VALUE.contains(n) || NUMERIC.contains(n)) {
        return vec![Ty::named("i64", vec![])];
    }
    if names.iter().any(|n| FLOAT_TRAITS.contains(n)) {
        return vec![Ty::named("f64", vec![])];
    }
    // A trait of the crate (or another) that numbers may implement: tried at each of
    // `TRIED`, and the compile check leaves out the tries that do not meet it.
    let opaque = bounds.iter().any(|b| b.parenthesized)
        || names.iter().any(|n| matches!(*n, "Any" | "Error" | "Future"));
    if opaque { Vec::new() } else { TRIED.iter().map(|t| Ty::named(t, vec![])).collect() }
}

/// The I/O traits a buffer in memory meets: a `std::io::Cursor<Vec<u8>>` all four, a
/// `Vec<u8>` `Write`.
const IO_TRAITS: [&str; 4] = ["Read", "BufRead", "Seek", "Write"];

/// For bounds naming an I/O trait, the buffer in memory that meets them (`Some(None)`:
/// none does, as with `Read + Copy`): a reader is a `Cursor` over the generated bytes,
/// a writer a `Vec<u8>` the call writes into. A `File` or a socket would touch the world;
/// these are what a crate's own tests pass.
fn io_instance(names: &BTreeSet<&str>) -> Option<Option<Ty>> {
    if !names.iter().any(|n| IO_TRAITS.contains(n)) {
        return None;
    }
    let plain = names.iter().all(|n| {
        IO_TRAITS.contains(n)
            || matches!(
                *n,
                "Debug" | "Send" | "Sync" | "Sized" | "Unpin" | "Clone" | "Default" | "PartialEq" | "Eq"
            )
    });
    Some(plain.then(|| {
        if names.iter().all(|n| *n != "Read" && *n != "BufRead" && *n != "Seek") {
            Ty::named("Vec", vec![Ty::named("u8", vec![])])
        } else {
            cursor()
        }
    }))
}

/// `std::io::Cursor<Vec<u8>>`.
fn cursor() -> Ty {
    Ty::Path {
        segments: ["std", "io", "Cursor"].map(str::to_owned).to_vec(),
        args: vec![Ty::named("Vec", vec![Ty::named("u8", vec![])])],
        assoc: Vec::new(),
        lifetimes: false,
    }
}

/// `Self::Output`, `Self::Item`: an associated type, whatever the crate's own types are named.
fn self_assoc(segments: &[String]) -> bool {
    segments.len() > 1 && segments[0] == "Self"
}

fn bound_list(bounds: &[Bound]) -> String {
    let bound = |b: &Bound| {
        let args = b.args.iter().map(ToString::to_string);
        let assoc = b.assoc.iter().map(|(name, t)| format!("{name} = {t}"));
        let args: Vec<String> = args.chain(assoc).collect();
        match (args.is_empty(), b.parenthesized) {
            (true, _) => b.name.clone(),
            (false, true) => format!("{}({})", b.name, args.join(", ")),
            (false, false) => format!("{}<{}>", b.name, args.join(", ")),
        }
    };
    bounds.iter().map(bound).collect::<Vec<_>>().join(" + ")
}

/// The variant naming a constant: `NON_ALPHANUMERIC` → `NonAlphanumeric`.
fn const_variant(name: &str) -> String {
    camel(&name.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The API of a crate `k` whose `lib.rs` is `src`.
    fn api(src: &str) -> Api {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), src).unwrap();
        crate::read(&dir.path().join("src/lib.rs"), "k", &BTreeSet::new()).unwrap()
    }

    fn bound(name: &str, arg: Option<&str>) -> Bound {
        Bound {
            name: name.into(),
            args: arg.map(|a| vec![Ty::from_syn(&syn::parse_str(a).unwrap())]).unwrap_or_default(),
            assoc: Vec::new(),
            parenthesized: false,
        }
    }

    #[test]
    fn a_function_bounded_by_an_unknown_trait_is_tried_at_each_type_and_kept_where_it_compiles() {
        let api = api("pub trait Integer {}\n\
             #[derive(Debug)] pub struct Buffer(u8);\n\
             impl Buffer { pub fn new() -> Buffer { Buffer(0) }\n\
             pub fn format<I: Integer>(&mut self, i: I) -> &str { \"\" }\n\
             pub fn with<I: Integer>(i: I) -> Buffer { Buffer(0) } }\n\
             pub fn digits(n: impl Integer) -> usize { 0 }\n\
             pub fn max<T: Ord>(a: T, b: T) -> T { a }\n\
             pub fn spread(n: impl Integer) -> impl Integer { n }\n");
        let keys = |excluded: &Exclusions| {
            let p = plan(&api, excluded);
            let keys: Vec<String> =
                p.calls.iter().chain(&p.types[0].methods).map(|c| c.function.key()).collect();
            let skipped: Vec<String> = p.skipped.iter().map(|s| s.item.clone()).collect();
            (keys, skipped)
        };
        // `Ord` is a value bound, tried at one type; `Integer` is the crate's own.
        let (all, skipped) = keys(&Exclusions::new());
        assert_eq!(
            all,
            [
                "k::digits",
                "k::digits::<u128>",
                "k::digits::<f64>",
                "k::digits::<f32>",
                "k::max",
                "k::Buffer::format",
                "k::Buffer::format::<u128>",
                "k::Buffer::format::<f64>",
                "k::Buffer::format::<f32>"
            ]
        );
        assert_eq!(skipped, ["spread"], "returns a value it cannot render");
        // A constructor is built at its first try only.
        let ctors: Vec<String> =
            plan(&api, &Exclusions::new()).types[0].constructors.iter().map(|c| c.variant.clone()).collect();
        assert_eq!(ctors, ["New", "With"]);
        // A returned `impl Trait` stays opaque in a try; a parameter's takes the type.
        let spread = api.functions.iter().find(|f| f.name == "spread").unwrap();
        let tries = instantiations(spread);
        assert_eq!(tries.len(), TRIED.len() + 1);
        assert_eq!(tries[1].params[0].1.to_string(), "u128");
        assert!(matches!(tries[1].output, Some(Ty::Impl(_))));
        // The compile check left out `i64` and `f64`: the function is driven at `u128` and
        // not listed as skipped.
        let failed = |key: &str| (key.to_owned(), "does not compile: `I: Integer` is not met".to_owned());
        let excluded: Exclusions =
            ["k::Buffer::format", "k::Buffer::format::<f64>", "k::Buffer::format::<f32>"]
                .into_iter()
                .map(failed)
                .collect();
        let (kept, skipped) = keys(&excluded);
        assert!(kept.contains(&"k::Buffer::format::<u128>".to_owned()), "{kept:?}");
        assert_eq!(kept.iter().filter(|k| k.starts_with("k::Buffer::format")).count(), 1, "{kept:?}");
        assert_eq!(skipped, ["spread"]);
        // Left out at every type, it is listed once.
        // Left out at each of them, it is tried at `u64` (an unsigned-only trait).
        let mut excluded: Exclusions =
            ["k::digits", "k::digits::<u128>", "k::digits::<f64>", "k::digits::<f32>"]
                .into_iter()
                .map(failed)
                .collect();
        let (kept, skipped) = keys(&excluded);
        assert_eq!(
            kept.iter().filter(|k| k.starts_with("k::digits")).collect::<Vec<_>>(),
            ["k::digits::<u64>"]
        );
        assert_eq!(skipped, ["spread"]);
        // Left out at every type, it is listed once.
        excluded.extend([failed("k::digits::<u64>")]);
        assert_eq!(keys(&excluded).1, ["digits", "spread"]);
    }

    #[test]
    fn iterator_bounds_of_every_kind_and_an_impls_own_parameters_are_met() {
        let api = api("pub fn width<S: DoubleEndedIterator<Item = char>>(s: S) -> usize { 0 }\n\
             pub fn exact<I: ExactSizeIterator<Item = char>>(i: I) -> usize { 0 }\n\
             pub fn total<I>(i: I) -> u64 where I: Iterator<Item = u64> + DoubleEndedIterator { 0 }\n\
             #[derive(Debug, Clone, Copy)] pub struct Size { pub bytes: u64 }\n\
             impl<T> std::ops::Mul<T> for Size where T: Into<u64> {\n\
                 type Output = Size; fn mul(self, rhs: T) -> Size { Size { bytes: self.bytes * rhs.into() } }\n\
             }\n");
        let p = plan(&api, &Exclusions::new());
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);
        let args: Vec<(String, String)> =
            p.calls.iter().map(|c| (c.args[0].gen_ty.clone(), c.args[0].expr.clone())).collect();
        let expected =
            [("Vec<char>", "i.into_iter()"), ("Vec<u64>", "i.into_iter()"), ("String", "s.chars()")];
        assert_eq!(args, expected.map(|(g, e)| (g.to_owned(), e.to_owned())));
        // `T` of the impl is the method's: `rhs` is the `u64` it converts from.
        let mul = &p.types[0].methods.iter().find(|m| m.function.name == "mul").unwrap().args[0];
        assert_eq!((mul.name.as_str(), mul.gen_ty.as_str()), ("rhs", "u64"));
    }

    #[test]
    fn public_constants_build_values_and_are_chosen_among_for_borrowed_parameters() {
        let api = api("#[derive(Debug, PartialEq, Eq)] pub struct AsciiSet { mask: [u32; 4] }\n\
             pub const CONTROLS: &AsciiSet = &AsciiSet { mask: [1; 4] };\n\
             pub const NON_ALPHANUMERIC: &AsciiSet = &CONTROLS.add(b' ');\n\
             impl AsciiSet {\n\
                 pub const EMPTY: AsciiSet = AsciiSet { mask: [0; 4] };\n\
                 pub const fn add(&self, b: u8) -> Self { AsciiSet { mask: self.mask } }\n\
             }\n\
             pub fn encode(input: &[u8], set: &'static AsciiSet) -> usize { 0 }\n\
             #[derive(Debug, Clone)] pub struct Engine { pad: bool }\n\
             pub const STANDARD: Engine = Engine { pad: true };\n\
             impl Engine { pub fn pad(&self) -> bool { self.pad } }\n");
        let p = plan(&api, &Exclusions::new());
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);
        let encode = p.calls.iter().find(|c| c.function.name == "encode").unwrap();
        assert_eq!(
            (encode.args[1].gen_ty.as_str(), encode.args[1].expr.as_str()),
            ("ConstAsciiSet", "set.get()")
        );
        let set = &p.const_sets[0];
        let consts: Vec<(&str, &str)> = set.consts.iter().map(|(v, e)| (v.as_str(), e.as_str())).collect();
        assert_eq!(
            consts,
            [
                ("Controls", "k::CONTROLS"),
                ("NonAlphanumeric", "k::NON_ALPHANUMERIC"),
                ("Empty", "&k::AsciiSet::EMPTY")
            ]
        );
        // A constant by value builds the type; one by reference, only a `Clone` type.
        let ctors = |name: &str| -> Vec<String> {
            let t = p.types.iter().find(|t| t.name == name).unwrap();
            t.constructors.iter().map(|c| c.variant.clone()).collect()
        };
        assert_eq!(ctors("AsciiSet"), ["Empty"]);
        assert_eq!(ctors("Engine"), ["Standard"]);
        let module = crate::render::render(&p, "k").text;
        for rendered in [
            "k::encode(&input, set.get())",
            "pub fn get(self) -> &'static k::AsciiSet {",
            "ConstAsciiSet::Empty => &k::AsciiSet::EMPTY,",
            "MakeEngine::Standard => k::STANDARD,",
        ] {
            assert!(module.contains(rendered), "no `{rendered}` in:\n{module}");
        }
    }

    #[test]
    fn a_crate_trait_implemented_for_a_std_type_or_a_crate_type_is_driven_through_its_path() {
        let api = api("mod case {\n\
                 pub trait ToSnake: ToOwned { fn to_snake(&self) -> Self::Owned; }\n\
                 impl ToSnake for str { fn to_snake(&self) -> Self::Owned { self.to_lowercase() } }\n\
                 impl ToSnake for String { fn to_snake(&self) -> String { String::new() } }\n\
                 pub trait Shout { fn shout(self, times: u8) -> Self; fn loud() -> u8; }\n\
                 impl<T: Clone> Shout for Vec<T> { fn shout(self, times: u8) -> Self { self } fn loud() -> u8 { 1 } }\n\
                 impl Shout for crate::Word { fn shout(self, times: u8) -> Self { self } fn loud() -> u8 { 2 } }\n\
                 impl Shout for crate::Mute { fn shout(self, times: u8) -> Self { self } fn loud() -> u8 { 0 } }\n\
             }\n\
             pub use case::{Shout, ToSnake};\n\
             #[derive(Debug, Clone)] pub struct Word(u8);\n\
             impl Word { pub fn new(x: u8) -> Word { Word(x) } }\n\
             #[derive(Debug)] pub struct Mute(u8);\n");
        let p = plan(&api, &Exclusions::new());
        let calls: Vec<(String, Vec<String>)> = p
            .calls
            .iter()
            .map(|c| {
                (c.function.path.clone(), c.function.params.iter().map(|(_, t)| t.to_string()).collect())
            })
            .collect();
        // `loud`, an associated function, of each crate type's impl; `to_snake` of the
        // first impl, for `str`, where `Self` is `str`, and `self` its first parameter.
        let call =
            |path: &str, params: &[&str]| (path.to_owned(), params.iter().map(|p| p.to_string()).collect());
        assert_eq!(
            calls,
            [
                call("<k::Mute as k::Shout>::loud", &[]),
                call("<k::Word as k::Shout>::loud", &[]),
                call("<str as k::ToSnake>::to_snake", &["&str"])
            ]
        );
        // `Self::Owned` of `str`.
        assert_eq!(p.calls[2].function.output.as_ref().map(Ty::to_string).as_deref(), Some("String"));
        // On a crate type it is a method of its sequence, called through the trait.
        let word = p.types.iter().find(|t| t.name == "Word").unwrap();
        let methods: Vec<String> = word.methods.iter().map(|c| c.function.key()).collect();
        assert_eq!(methods, ["k::Word::shout"]);
        assert_eq!(word.methods[0].function.call("word", &["3".into()]), "k::Shout::shout(word.clone(), 3)");
        // What is not driven is listed: the method of a type nothing builds.
        let skipped: Vec<&str> = p.skipped.iter().map(|s| s.item.as_str()).collect();
        assert_eq!(skipped, ["Mute::shout"], "{:?}", p.skipped);
        let module = crate::render::render(&p, "k").text;
        assert!(module.contains("<str as k::ToSnake>::to_snake(&value)"), "{module}");
        assert!(module.contains("k::Shout::shout(word.clone(), times)"), "{module}");
    }

    #[test]
    fn a_blanket_impl_over_std_bounds_is_driven_at_a_type_meeting_them_with_its_result_named() {
        let api = api("pub trait ToHex { fn encode_hex<U: FromIterator<char>>(&self) -> U; }\n\
             impl<T: AsRef<[u8]>> ToHex for T {\n\
                 fn encode_hex<U: FromIterator<char>>(&self) -> U { self.as_ref().iter().map(|_| '0').collect() }\n\
             }\n");
        let p = plan(&api, &Exclusions::new());
        let f = &p.calls[0].function;
        // The result's type is named: no argument decides it, and a test compares it with
        // a literal.
        assert_eq!(f.path, "k::ToHex::encode_hex::<String>");
        assert_eq!(f.output.as_ref().map(Ty::to_string).as_deref(), Some("String"));
        let params: Vec<String> = p.calls[0].args.iter().map(|a| a.gen_ty.to_string()).collect();
        assert_eq!(params, ["Vec<u8>"]);
        let module = crate::render::render(&p, "k").text;
        assert!(module.contains("k::ToHex::encode_hex::<String>(&value)"), "{module}");
    }

    #[test]
    fn a_builders_steps_on_a_type_that_is_not_clone_put_their_result_in_the_values_place() {
        let api = api("pub struct Conv { delim: String }\n\
             impl Conv {\n\
                 pub fn new() -> Conv { Conv { delim: String::new() } }\n\
                 pub fn set_delim(self, d: &str) -> Self { Conv { delim: d.into() } }\n\
                 pub fn finish(self) -> String { self.delim }\n\
                 pub fn convert(&self, s: &str) -> String { s.replace(' ', &self.delim) }\n\
             }\n");
        let p = plan(&api, &Exclusions::new());
        let conv = p.types.iter().find(|t| t.name == "Conv").unwrap();
        let steps: Vec<(String, bool)> =
            conv.methods.iter().map(|m| (m.function.name.clone(), m.rebinds)).collect();
        assert_eq!(steps, [("convert".to_owned(), false), ("set_delim".to_owned(), true)]);
        assert_eq!(conv.methods[1].method_call("conv", &["d".into()]), "conv = conv.set_delim(d)");
        // A method consuming it for something else still needs a clone.
        let skipped: Vec<&str> = p.skipped.iter().map(|s| s.item.as_str()).collect();
        assert_eq!(skipped, ["Conv::finish"]);
        let module = crate::render::render(&p, "k").text;
        assert!(module.contains("let mut conv = conv.make();"), "{module}");
        assert!(module.contains("conv = conv.set_delim(&d);\n                String::new()"), "{module}");
    }

    #[test]
    fn a_builder_a_function_returns_is_finished_by_each_method_that_takes_it_alone() {
        let api = api("pub struct Encode<'a, I: AsRef<[u8]>> { input: I, alpha: &'a str }\n\
             pub fn encode<I: AsRef<[u8]>>(input: I) -> Encode<'static, I> { Encode { input, alpha: \"\" } }\n\
             impl<'a, I: AsRef<[u8]>> Encode<'a, I> {\n\
                 pub fn with_input(self, input: I) -> Encode<'a, I> { self }\n\
                 pub fn into_string(self) -> String { String::new() }\n\
                 pub fn into_vec(self) -> Vec<u8> { Vec::new() }\n\
                 pub fn into_input(self) -> I { self.input }\n\
                 pub fn onto(self, out: &mut Vec<u8>) -> usize { 0 }\n\
                 pub fn into_path(self) -> std::path::PathBuf { std::path::Path::new(\"a\").canonicalize().unwrap() }\n\
                 pub fn done(self) -> u8 { 0 }\n\
             }\n\
             pub fn encode_done(n: u8) -> u8 { n }\n\
             pub fn blank<I: AsRef<[u8]> + Default>(n: u8) -> Encode<'static, I> { encode(I::default()) }\n");
        let p = plan(&api, &Exclusions::new());
        let keys: Vec<String> = p.calls.iter().map(Call::key).collect();
        // Not `into_path` (it touches the file system), nor `blank`'s (`I` would be left to
        // inference).
        assert_eq!(
            keys,
            ["k::encode.done()", "k::encode.into_string()", "k::encode.into_vec()", "k::encode_done"]
        );
        let module = crate::render::render(&p, "k").text;
        assert!(
            module.contains(
                "pub fn encode_into_string(input: Vec<u8>) -> String {\n    k::encode(input).into_string()\n}"
            ),
            "{module}"
        );
        assert!(module.contains("pub fn encode_into_vec(input: Vec<u8>) -> Vec<u8> {"), "{module}");
        // The finishers are driven; the other methods of the type are not, nor a step
        // whose parameter cannot be made (which leaves the target without steps).
        let skipped: Vec<(&str, &str)> =
            p.skipped.iter().map(|s| (s.item.as_str(), s.reason.as_str())).collect();
        assert_eq!(
            skipped.iter().map(|(item, _)| *item).collect::<Vec<_>>(),
            ["Encode::into_input", "Encode::into_path", "Encode::onto", "Encode::with_input", "blank"]
        );
        assert_eq!(skipped[3].1, "parameter `input`: `I` cannot be generated");
        // A function keeps its name; a finished builder's name gives way.
        assert!(module.contains("pub fn encode_done(n: u8) -> u8 {\n    k::encode_done(n)"), "{module}");
        assert!(module.contains("pub fn encode_done_2(input: Vec<u8>) -> u8 {"), "{module}");
        // Excluded (it did not compile), a finisher leaves the others.
        let excluded = Exclusions::from([("k::encode.into_vec()".to_owned(), "does not compile".to_owned())]);
        let keys: Vec<String> = plan(&api, &excluded).calls.iter().map(Call::key).collect();
        assert_eq!(keys, ["k::encode.done()", "k::encode.into_string()", "k::encode_done"]);
    }

    #[test]
    fn a_finished_builders_steps_are_applied_in_the_order_its_input_chooses() {
        let api = api("pub struct Alphabet { chars: [u8; 58] }\n\
             impl Alphabet { pub const BITCOIN: &'static Self = &Alphabet { chars: [0; 58] }; }\n\
             pub struct Encode<'a, I: AsRef<[u8]>> { input: I, alpha: &'a Alphabet }\n\
             pub fn encode<I: AsRef<[u8]>>(input: I) -> Encode<'static, I> { todo!() }\n\
             impl<'a, I: AsRef<[u8]>> Encode<'a, I> {\n\
                 pub fn with_alphabet(self, alpha: &'a Alphabet) -> Encode<'a, I> { self }\n\
                 pub fn with_check(self) -> Encode<'a, I> { self }\n\
                 pub fn with_check_version(self, expected_ver: u8) -> Encode<'a, I> { self }\n\
                 pub fn as_cb58(self, expected_ver: Option<u8>) -> Self { self }\n\
                 pub fn with_hook(self, f: impl Fn(&str) -> usize) -> Self { self }\n\
                 pub fn into_string(self) -> String { String::new() }\n\
             }\n");
        let h = crate::generate(&api, "k", &Exclusions::new());
        let [call] = &h.plan.calls[..] else { panic!("{:?}", h.plan.calls) };
        let steps: Vec<(&str, bool, Vec<&str>)> = call
            .steps
            .iter()
            .map(|s| {
                (s.function.name.as_str(), s.rebinds, s.args.iter().map(|a| a.gen_ty.as_str()).collect())
            })
            .collect();
        assert_eq!(
            steps,
            [
                ("as_cb58", true, vec!["Option<u8>"]),
                ("with_alphabet", true, vec!["ConstAlphabet"]),
                ("with_check", true, vec![]),
                ("with_check_version", true, vec!["u8"])
            ]
        );
        // The steps are driven; one whose parameter cannot be made is listed, with why.
        let skipped: Vec<(&str, &str)> =
            h.plan.skipped.iter().map(|s| (s.item.as_str(), s.reason.as_str())).collect();
        assert_eq!(
            skipped,
            [(
                "Encode::with_hook",
                "parameter `f: impl Fn` is a closure taking `&str` (closures are made over numbers only)"
            )]
        );
        assert_eq!(h.driven(), 6, "`encode`, `into_string` and four steps");
        let module = &h.module.text;
        syn::parse_file(module).unwrap();
        for rendered in [
            "pub enum EncodeStep {\n    AsCb58 { expected_ver: Option<u8> },\n    \
             WithAlphabet { alpha: ConstAlphabet },\n    WithCheck,\n    WithCheckVersion { expected_ver: u8 },\n}",
            "pub fn encode_into_string((input, calls): (Vec<u8>, Vec<EncodeStep>)) -> String {\n    \
             let mut encode = k::encode(input);\n    for call in calls {\n        match call {\n            \
             EncodeStep::AsCb58 { expected_ver } => encode = encode.as_cb58(expected_ver),\n            \
             EncodeStep::WithAlphabet { alpha } => encode = encode.with_alphabet(alpha.get()),\n            \
             EncodeStep::WithCheck => encode = encode.with_check(),\n",
            "expected_ver),\n        }\n    }\n    encode.into_string()\n}",
            "ConstAlphabet::Bitcoin => k::Alphabet::BITCOIN,",
        ] {
            assert!(module.contains(rendered), "no `{rendered}` in:\n{module}");
        }
        // A step's lines are its own: one that does not compile is left out alone, and
        // listed with why.
        let line = module.lines().position(|l| l.contains("encode.with_check_version(")).unwrap() + 1;
        assert_eq!(h.module.item_at(line), Some("k::Encode::with_check_version"));
        let variant = module.lines().position(|l| l.contains("WithCheckVersion {")).unwrap() + 1;
        assert_eq!(h.module.item_at(variant), Some("k::Encode::with_check_version"));
        let excluded = Exclusions::from([(
            "k::Encode::with_check_version".to_owned(),
            "does not compile: mismatched types".to_owned(),
        )]);
        let p = plan(&api, &excluded);
        let steps: Vec<&str> = p.calls[0].steps.iter().map(|s| s.function.name.as_str()).collect();
        assert_eq!(steps, ["as_cb58", "with_alphabet", "with_check"]);
        let skipped: Vec<&str> = p.skipped.iter().map(|s| s.item.as_str()).collect();
        assert_eq!(skipped, ["Encode::with_check_version", "Encode::with_hook"]);
    }

    #[test]
    fn the_methods_of_std_trait_impls_are_driven_where_the_type_is_built() {
        let api = api("use std::hash::Hasher;\n\
             #[derive(Debug, Clone, PartialEq, Eq, PartialOrd)] pub struct Sum(u64);\n\
             impl Sum { pub fn new() -> Sum { Sum(1) } pub fn index(&self) -> u64 { self.0 } }\n\
             impl Hasher for Sum { fn finish(&self) -> u64 { self.0 } fn write(&mut self, b: &[u8]) {} }\n\
             impl Ord for Sum { fn cmp(&self, other: &Self) -> std::cmp::Ordering { self.0.cmp(&other.0) } }\n\
             impl std::ops::Index<usize> for Sum { type Output = u64; fn index(&self, i: usize) -> &u64 { &self.0 } }\n\
             impl std::ops::Add for Sum { type Output = Sum; fn add(self, o: Sum) -> Sum { Sum(self.0 + o.0) } }\n\
             impl std::fmt::Write for Sum { fn write_str(&mut self, s: &str) -> std::fmt::Result { Ok(()) } }\n\
             impl std::ops::Neg for Sum { type Output = Sum; fn neg(self) -> Self::Output { self } }\n\
             #[derive(Debug)] pub struct Output(pub u8);\n\
             trait Not { fn not(&self) -> u8; }\n\
             impl Not for Sum { fn not(&self) -> u8 { 0 } }\n\
             pub struct Iter<'a>(&'a [u8]);\n\
             impl<'a> Iterator for Iter<'a> { type Item = u8; fn next(&mut self) -> Option<u8> { println!(); None } }\n");
        let p = plan(&api, &Exclusions::new());
        let sum = p.types.iter().find(|t| t.name == "Sum").unwrap();
        let methods: Vec<String> = sum.methods.iter().map(|c| c.function.key()).collect();
        // The inherent `index` stands for the name; `fmt::Write` is not driven, nor the
        // crate's own `Not`.
        assert_eq!(
            methods,
            ["k::Sum::add", "k::Sum::cmp", "k::Sum::finish", "k::Sum::index", "k::Sum::neg", "k::Sum::write"]
        );
        // `Self::Output` is the impl's, not the crate's type of that name.
        let neg = sum.methods.iter().find(|c| c.function.name == "neg").unwrap();
        assert_eq!(neg.output, Output::Debug { sorted: false });
        // `Iter` is not built: its `next` is neither driven nor listed, though it prints.
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);
        assert_eq!(p.found, 7, "`new`, `index` and five trait methods");
        let module = crate::render::render(&p, "k").text;
        for call in [
            "sum.cmp(&other)",
            "std::hash::Hasher::finish(&sum)",
            "std::hash::Hasher::write(&mut sum, &b)",
            "std::ops::Add::add(sum.clone(), o)",
        ] {
            assert!(module.contains(call), "no `{call}` in:\n{module}");
        }
    }

    #[test]
    fn an_iterator_returned_is_collected() {
        let api = api("#[derive(Debug)] pub struct Bits(u8);\n\
             impl Bits { pub fn new(b: u8) -> Bits { Bits(b) } pub fn iter(&self) -> Iter<'_> { Iter(self, 0) } }\n\
             pub struct Iter<'a>(&'a Bits, u8);\n\
             impl Iterator for Iter<'_> { type Item = bool; fn next(&mut self) -> Option<bool> { None } }\n\
             pub fn evens(n: u8) -> impl Iterator<Item = u8> { (0..n).step_by(2) }\n\
             pub struct Words<'a>(&'a str);\n\
             impl<'a> Words<'a> { pub fn new(s: &'a str) -> Self { Words(s) } }\n\
             impl Iterator for Words<'_> { type Item = String; fn next(&mut self) -> Option<String> { None } }\n");
        let p = plan(&api, &Exclusions::new());
        assert_eq!(p.calls[0].output, Output::Collected);
        assert_eq!(p.types[0].methods[0].output, Output::Collected);
        let module = crate::render::render(&p, "k").text;
        for rendered in [
            "mutfuzz::debug_bounded(&bits.iter().take(64).collect::<Vec<_>>())",
            "mutfuzz::debug_bounded(&k::evens(n).take(64).collect::<Vec<_>>())",
            // A constructor of an iterator without `Debug` (shlex's `Shlex::new`).
            "mutfuzz::debug_bounded(&k::Words::new(&s).take(64).collect::<Vec<_>>())",
        ] {
            assert!(module.contains(rendered), "no `{rendered}` in:\n{module}");
        }
    }

    #[test]
    fn a_parameter_bounded_by_a_crate_trait_is_a_crate_type_implementing_it() {
        let api = api("pub trait Engine { fn go(&self, x: u8) -> u8; }\n\
             #[derive(Debug)] pub struct Avx(u8);\n\
             impl Engine for Avx { fn go(&self, x: u8) -> u8 { x } }\n\
             #[derive(Debug)] pub struct Fast(u8);\n\
             impl Fast { pub fn new(n: u8) -> Fast { Fast(n) } }\n\
             impl Engine for Fast { fn go(&self, x: u8) -> u8 { x } }\n\
             pub fn encode<E: Engine>(input: u8, engine: &E) -> u8 { engine.go(input) }\n");
        let p = plan(&api, &Exclusions::new());
        let encode =
            p.calls.iter().find(|c| c.function.name == "encode" && c.function.instantiated.is_none());
        let args: Vec<(&str, &str)> =
            encode.unwrap().args.iter().map(|a| (a.gen_ty.as_str(), a.expr.as_str())).collect();
        // Not `Avx`, which no public constructor builds.
        assert_eq!(args, [("u8", "input"), ("MakeFast", "&engine")]);
    }

    #[test]
    fn a_type_that_borrows_what_it_is_built_from_is_made_by_reference() {
        let api = api("#[derive(Clone, Copy, Debug)] pub struct Level(u8);\n\
             impl Level { pub fn new(n: u8) -> Option<Level> { None } }\n\
             #[derive(Debug)] pub struct Info<'text> { text: &'text str, level: Level }\n\
             impl<'text> Info<'text> {\n\
                 pub fn new(text: &'text str, level: Option<Level>) -> Info<'text> { todo!() }\n\
                 pub fn first(&self) -> &'text str { self.text }\n\
                 pub fn line(&self, span: &Span) -> &'text str { self.text }\n\
             }\n\
             #[derive(Debug)] pub struct Span { pub range: std::ops::Range<usize>, pub level: Level }\n\
             impl<'a> From<&'a str> for Info<'a> { fn from(text: &'a str) -> Self { todo!() } }\n\
             pub struct Toks<'a>(&'a str);\n\
             impl<'a> From<&'a str> for Toks<'a> { fn from(s: &'a str) -> Self { Toks(s) } }\n\
             impl Iterator for Toks<'_> { type Item = char; fn next(&mut self) -> Option<char> { None } }\n\
             pub fn count(infos: Vec<Info<'_>>) -> usize { infos.len() }\n\
             pub fn width(info: &Info<'_>) -> usize { 0 }\n");
        let p = plan(&api, &Exclusions::new());
        let info = p.types.iter().find(|t| t.name == "Info").expect("`Info` is built");
        assert!(info.borrows && !info.cloned);
        assert_eq!(info.methods.len(), 2);
        // The `Level` its constructor takes is made from a clone.
        assert!(p.types.iter().find(|t| t.name == "Level").unwrap().cloned);
        assert!(info.constructors.iter().any(|c| matches!(c.kind, CtorKind::From)));
        // A borrowing iterator made by `From` alone: the conversion is a call, collected.
        let calls: Vec<(&str, &Output)> =
            p.calls.iter().map(|c| (c.function.path.as_str(), &c.output)).collect();
        assert_eq!(
            calls,
            [
                ("k::width", &Output::Value("usize".into())),
                ("<k::Toks as From<&str>>::from", &Output::Collected)
            ]
        );
        let why = &p.skipped.iter().find(|s| s.item == "count").unwrap().reason;
        assert!(why.contains("borrow what they are built from"), "{why}");
        let module = crate::render::render(&p, "k").text;
        for line in [
            "#[derive(Clone, Debug, Gen)]\npub enum MakeLevel {",
            "pub fn make(&self) -> k::Info {",
            "let level = level.clone(); let level = level.map(MakeLevel::make);",
            "k::Info::new(&**text, level)",
            "let info = info.make();",
            // A range field is made as a range parameter is.
            "k::Span { range: usize::from(range.0)..usize::from(range.1), level }",
        ] {
            assert!(module.contains(line), "no `{line}` in:\n{module}");
        }
    }

    #[test]
    fn an_iterator_named_in_two_modules_is_unordered_as_its_methods_type_is() {
        // bimap: `btree::Iter` walks a tree in order, `hash::Iter` a hash map.
        let api = api("pub mod tree {\n\
                 #[derive(Debug, Default)] pub struct Tree(Vec<u8>);\n\
                 impl Tree { pub fn iter(&self) -> Iter<'_> { Iter(self.0.iter()) } }\n\
                 pub struct Iter<'a>(std::slice::Iter<'a, u8>);\n\
                 impl<'a> Iterator for Iter<'a> { type Item = &'a u8; fn next(&mut self) -> Option<&'a u8> { self.0.next() } }\n\
             }\n\
             pub mod hash {\n\
                 #[derive(Debug, Default)] pub struct Hash(std::collections::HashSet<u8>);\n\
                 impl Hash { pub fn iter(&self) -> Iter<'_> { Iter(self.0.iter()) } }\n\
                 pub struct Iter<'a>(std::collections::hash_set::Iter<'a, u8>);\n\
                 impl<'a> Iterator for Iter<'a> { type Item = &'a u8; fn next(&mut self) -> Option<&'a u8> { self.0.next() } }\n\
             }\n");
        let p = plan(&api, &Exclusions::new());
        let output = |ty: &str| {
            let t = p.types.iter().find(|t| t.name == ty).expect("the type is driven");
            t.methods.iter().find(|m| m.key().ends_with("::iter")).map(|m| m.output.clone())
        };
        assert_eq!(output("Hash"), Some(Output::Unordered));
        assert_eq!(output("Tree"), Some(Output::Collected));
    }

    #[test]
    fn an_iterator_over_a_hash_container_is_rendered_with_its_items_sorted() {
        let api = api(
            "#[derive(Debug, Default)] pub struct Index { words: std::collections::HashMap<u8, u8>, order: Vec<u8> }\n\
             impl Index {\n\
                 pub fn keys(&self) -> Keys<'_> { Keys { inner: self.words.keys() } }\n\
                 pub fn firsts(&self) -> impl Iterator<Item = &u8> { self.order.iter() }\n\
                 pub fn words(&self) -> std::collections::hash_map::Keys<'_, u8, u8> { self.words.keys() }\n\
             }\n\
             #[derive(Debug, Default)] pub struct List(Vec<u8>);\n\
             impl List { pub fn items(&self) -> impl Iterator<Item = &u8> { self.0.iter() } }\n\
             pub struct Keys<'a> { inner: std::collections::hash_map::Keys<'a, u8, u8> }\n\
             impl<'a> Iterator for Keys<'a> {\n\
                 type Item = &'a u8;\n\
                 fn next(&mut self) -> Option<&'a u8> { self.inner.next() }\n\
                 fn size_hint(&self) -> (usize, Option<usize>) { self.inner.size_hint() }\n\
             }\n",
        );
        let p = plan(&api, &Exclusions::new());
        let outputs: Vec<(String, Output)> = p
            .types
            .iter()
            .flat_map(|t| t.methods.iter().map(|m| (m.key(), m.output.clone())))
            .filter(|(key, _)| !key.contains('.'))
            .collect();
        // A method of a type holding a hash container: an `impl Iterator` may be in the
        // container's order, as is a crate iterator over one. Another type's keeps its order.
        assert!(outputs.contains(&("k::Index::keys".into(), Output::Unordered)), "{outputs:?}");
        assert!(outputs.contains(&("k::Index::firsts".into(), Output::Unordered)), "{outputs:?}");
        // std's iterators over a hash container are iterators too (multimap's `keys`).
        assert!(outputs.contains(&("k::Index::words".into(), Output::Unordered)), "{outputs:?}");
        assert!(outputs.contains(&("k::List::items".into(), Output::Collected)), "{outputs:?}");
        let module = crate::render::render(&p, "k").text;
        let rendered = "IndexCall::Keys => mutfuzz::debug_unordered(index.keys()),";
        assert!(module.contains(rendered), "no `{rendered}` in:\n{module}");
        // Its `size_hint` is the crate's, and counts what the container holds.
        let rendered = "IndexCall::KeysSizeHint => format!(\"{:?}\", index.keys().size_hint()),";
        assert!(module.contains(rendered), "no `{rendered}` in:\n{module}");
    }

    #[test]
    fn a_returned_iterator_whose_size_hint_or_back_is_the_crates_is_adapted() {
        let api = api("#[derive(Debug)] pub struct Bits(u8);\n\
             impl Bits {\n\
                 pub fn new(b: u8) -> Bits { Bits(b) }\n\
                 pub fn iter(&self) -> Iter<'_> { Iter(self, 0) }\n\
                 pub fn plain(&self) -> Plain { Plain }\n\
                 pub fn evens(&self) -> impl DoubleEndedIterator<Item = u8> { (0..self.0).step_by(2) }\n\
                 pub fn halves(&self) -> impl ExactSizeIterator<Item = u8> { vec![self.0 / 2].into_iter() }\n\
                 pub fn first(&self) -> u8 { self.0 }\n\
                 pub fn order(&self) -> std::cmp::Ordering { std::cmp::Ordering::Less }\n\
             }\n\
             impl Clone for Bits { fn clone(&self) -> Self { Bits(self.0) } }\n\
             pub struct Iter<'a>(&'a Bits, u8);\n\
             impl Iterator for Iter<'_> {\n\
                 type Item = bool;\n\
                 fn next(&mut self) -> Option<bool> { None }\n\
                 fn size_hint(&self) -> (usize, Option<usize>) { (0, Some(8)) }\n\
             }\n\
             impl DoubleEndedIterator for Iter<'_> { fn next_back(&mut self) -> Option<bool> { None } }\n\
             pub struct Plain;\n\
             impl Iterator for Plain { type Item = u8; fn next(&mut self) -> Option<u8> { None } }\n");
        let keys = |excluded: &Exclusions| -> Vec<String> {
            plan(&api, excluded).types[0].methods.iter().map(Call::key).collect()
        };
        assert_eq!(
            keys(&Exclusions::new()),
            [
                "k::Bits::clone",
                "k::Bits::evens",
                "k::Bits::evens.rev()",
                "k::Bits::first",
                "k::Bits::halves",
                "k::Bits::halves.size_hint()",
                "k::Bits::iter",
                "k::Bits::iter.size_hint()",
                "k::Bits::iter.rev()",
                "k::Bits::order",
                "k::Bits::plain",
            ]
        );
        // An adapter that does not compile leaves the plain call in.
        let excluded: Exclusions = [("k::Bits::iter.rev()".to_owned(), "does not compile".to_owned())].into();
        assert!(!keys(&excluded).contains(&"k::Bits::iter.rev()".to_owned()));
        assert!(keys(&excluded).contains(&"k::Bits::iter".to_owned()));

        let p = plan(&api, &Exclusions::new());
        let module = crate::render::render(&p, "k").text;
        for rendered in [
            "BitsCall::IterSizeHint => format!(\"{:?}\", bits.iter().size_hint()),",
            "mutfuzz::debug_bounded(&bits.iter().rev().take(64).collect::<Vec<_>>())",
            "mutfuzz::debug_bounded(&bits.evens().rev().take(64).collect::<Vec<_>>())",
            // A crate type's `Debug` may show an address; std's `Ordering` and a `u8` do not.
            "BitsCall::Clone => mutfuzz::debug_unaddressed(&bits.clone()),",
            "BitsCall::Order => format!(\"{:?}\", bits.order()),",
            "BitsCall::First => format!(\"{:?}\", bits.first()),",
        ] {
            assert!(module.contains(rendered), "no `{rendered}` in:\n{module}");
        }
    }

    #[test]
    fn a_collected_constructor_and_an_operator_on_a_reference_are_driven() {
        let api = api("#[derive(Debug)] pub struct Set(Vec<u8>);\n\
             impl Set { pub fn new() -> Set { Set(Vec::new()) } }\n\
             impl FromIterator<u8> for Set {\n\
                 fn from_iter<I: IntoIterator<Item = u8>>(i: I) -> Set { Set(i.into_iter().collect()) }\n\
             }\n\
             impl FromIterator<usize> for Set {\n\
                 fn from_iter<I: IntoIterator<Item = usize>>(i: I) -> Set { Set(vec![]) }\n\
             }\n\
             impl<'a> std::ops::BitAnd for &'a Set { type Output = Set; fn bitand(self, o: &Set) -> Set { Set(vec![]) } }\n\
             impl std::ops::Sub for &Set { type Output = Set; fn sub(self, rhs: Self) -> Set { Set(vec![]) } }\n");
        let p = plan(&api, &Exclusions::new());
        let set = &p.types[0];
        assert_eq!(
            set.constructors.iter().map(|c| c.variant.as_str()).collect::<Vec<_>>(),
            ["New", "FromIterU8", "FromIterUsize"]
        );
        assert_eq!(set.methods.iter().map(Call::key).collect::<Vec<_>>(), ["k::Set::bitand", "k::Set::sub"]);
        let module = crate::render::render(&p, "k").text;
        for rendered in [
            "MakeSet::FromIterU8 { items } => items.into_iter().collect(),",
            // Items made as parameters of their type are: a `usize` bounded.
            "FromIterUsize { items: Vec<u16> },",
            "MakeSet::FromIterUsize { items } => items.into_iter().map(usize::from).collect(),",
            "mutfuzz::debug_unaddressed(&std::ops::BitAnd::bitand(&set, &o))",
            // `Self` of an impl for `&Set` is the reference.
            "mutfuzz::debug_unaddressed(&std::ops::Sub::sub(&set, &rhs))",
        ] {
            assert!(module.contains(rendered), "no `{rendered}` in:\n{module}");
        }
    }

    #[test]
    fn a_hash_written_by_hand_is_compared_through_same_hash_and_a_derived_one_is_not() {
        let api = api("#[derive(Debug)] pub struct Set(Vec<u8>);\n\
             impl Set { pub fn new() -> Set { Set(Vec::new()) } }\n\
             impl std::hash::Hash for Set { fn hash<H: std::hash::Hasher>(&self, h: &mut H) { self.0.hash(h) } }\n\
             #[derive(Debug, Hash)] pub struct Tag(u8);\n\
             impl Tag { pub fn new() -> Tag { Tag(0) } pub fn get(&self) -> u8 { self.0 } }\n");
        let p = plan(&api, &Exclusions::new());
        let keys = |name: &str| -> Vec<String> {
            p.types.iter().find(|t| t.name == name).unwrap().methods.iter().map(Call::key).collect()
        };
        assert_eq!(keys("Set"), ["<k::Set as std::hash::Hash>::hash"]);
        assert_eq!(keys("Tag"), ["k::Tag::get"]);
        let module = crate::render::render(&p, "k").text;
        let compared = "SetCall::Hash { other } => {\n                let other = other.make();\n                \
                        format!(\"{:?}\", mutfuzz::same_hash(&set, &other))";
        assert!(module.contains(compared), "no `{compared}` in:\n{module}");
        // A type that compares is checked against its `PartialEq` too.
        let api = self::api(
            "#[derive(Debug, PartialEq)] pub struct Set(Vec<u8>);\n\
             impl Set { pub fn new() -> Set { Set(Vec::new()) } }\n\
             impl std::hash::Hash for Set { fn hash<H: std::hash::Hasher>(&self, h: &mut H) { self.0.hash(h) } }\n",
        );
        let module = crate::render::render(&plan(&api, &Exclusions::new()), "k").text;
        assert!(module.contains("mutfuzz::same_hash_checked(&set, &other)"), "{module}");
    }

    #[test]
    fn a_type_generic_over_its_items_is_built_at_a_concrete_type() {
        let api = api("#[derive(Debug)] pub struct Bag<T> { items: Vec<T> }\n\
             impl<U> Bag<U> {\n\
                 pub fn new() -> Bag<U> { Bag { items: Vec::new() } }\n\
                 pub fn push(&mut self, item: U) { self.items.push(item) }\n\
                 pub fn get(&self, i: usize) -> Option<&U> { self.items.get(i) }\n\
             }\n\
             impl<T> FromIterator<(usize, T)> for Bag<T> { fn from_iter<I: IntoIterator<Item = (usize, T)>>(i: I) -> Self { todo!() } }\n\
             #[derive(Debug)] pub struct View<'a, T>(&'a [T]);\n\
             impl<'a, T> View<'a, T> { pub fn new(s: &'a [T]) -> Self { View(s) } pub fn len(&self) -> usize { 0 } }\n\
             #[derive(Debug)] pub struct Grid<T: Ord + Clone, S = u8>(Vec<T>, S);\n\
             impl<T: Ord + Clone> Grid<T> { pub fn new() -> Self { todo!() } pub fn width(&self) -> usize { 0 } }\n\
             #[derive(Debug)] pub struct Keyed<K: AsRef<str>>(K);\n\
             impl<K: AsRef<str>> Keyed<K> { pub fn new(k: K) -> Self { Keyed(k) } pub fn len(&self) -> usize { 0 } }\n\
             #[derive(Debug)] pub struct Point<T> { pub x: T, pub y: T }\n\
             impl<T> Point<T> { pub fn swap(&mut self) { std::mem::swap(&mut self.x, &mut self.y) } }\n\
             impl<T> From<Vec<T>> for Point<T> { fn from(v: Vec<T>) -> Self { todo!() } }\n\
             pub mod a { #[derive(Debug)] pub struct Pair<T>(T); impl<T> Pair<T> { pub fn new(t: T) -> Self { Pair(t) } pub fn n(&self) -> u8 { 0 } } }\n\
             mod b { pub struct Pair<T, U>(T, U); }\n");
        let p = plan(&api, &Exclusions::new());
        // A default stays; an item parameter bounded by value traits takes `i64`, one its
        // impls ask a text of (`AsRef<str>`) a `String`. Of two `Pair`s, the public one is built.
        let paths: Vec<&str> = p.types.iter().map(|t| t.path.as_str()).collect();
        assert_eq!(
            paths,
            ["k::Bag::<i64>", "k::Grid::<i64>", "k::Keyed::<String>", "k::a::Pair::<i64>", "k::Point::<i64>"]
        );
        // Asked by another impl than the constructor's (unicase's `Ascii`).
        let ascii = self::api(
            "#[derive(Debug)] pub struct Ascii<S>(S);\n\
             impl<S> Ascii<S> { pub fn new(s: S) -> Self { Ascii(s) } pub fn into_inner(self) -> S { self.0 } }\n\
             impl<S: AsRef<str>> Ascii<S> { pub fn is_empty(&self) -> bool { true } }\n",
        );
        assert_eq!(plan(&ascii, &Exclusions::new()).types[0].path, "k::Ascii::<String>");
        // Its fields and `From` sources name the chosen type too.
        let point = &p.types[4];
        let ctors: Vec<(&str, Vec<&str>)> = point
            .constructors
            .iter()
            .map(|c| (c.variant.as_str(), c.args.iter().map(|a| a.gen_ty.as_str()).collect()))
            .collect();
        assert_eq!(ctors, [("Literal", vec!["i64", "i64"]), ("From0", vec!["Vec<i64>"])]);
        let bag = &p.types[0];
        // Its `(usize, T)` items would hold full-range keys: not a constructor.
        assert_eq!(bag.constructors.iter().map(|c| c.variant.as_str()).collect::<Vec<_>>(), ["New"]);
        let module = crate::render::render(&p, "k").text;
        for rendered in [
            "pub fn make(self) -> k::Bag::<i64> {",
            "MakeBag::New => k::Bag::<i64>::new(),",
            "Push { item: i64 },",
            "BagCall::Get { i } => format!(\"{:?}\", bag.get(usize::from(i))),",
        ] {
            assert!(module.contains(rendered), "no `{rendered}` in:\n{module}");
        }
        assert_eq!(bag.methods.len(), 2);
        // A type that borrows is not built.
        assert!(p.skipped.iter().any(|s| s.item == "View::len"), "{:?}", p.skipped);
    }

    #[test]
    fn a_type_with_an_integer_const_parameter_is_built_at_a_small_capacity() {
        let api = api("#[derive(Debug)] pub struct Ring<T, const CAP: usize> { items: [Option<T>; CAP] }\n\
             impl<T, const CAP: usize> Ring<T, CAP> {\n\
                 pub fn new() -> Self { todo!() }\n\
                 pub fn push(&mut self, item: T) -> bool { false }\n\
                 pub fn all(&self) -> [Option<T>; CAP] { todo!() }\n\
             }\n\
             #[derive(Debug)] pub struct Text<const N: u8>([u8; 4]);\n\
             impl<const N: u8> Text<N> { pub fn new() -> Self { todo!() } pub fn len(&self) -> u8 { N } }\n\
             #[derive(Debug)] pub struct Flag<const ON: bool>;\n\
             impl<const ON: bool> Flag<ON> { pub fn new() -> Self { Flag } pub fn on(&self) -> bool { ON } }\n");
        let p = plan(&api, &Exclusions::new());
        // A `bool` const has no small value to choose: the type stays generic.
        let paths: Vec<&str> = p.types.iter().map(|t| t.path.as_str()).collect();
        assert_eq!(paths, ["k::Ring::<i64, 16>", "k::Text::<16>"]);
        let module = crate::render::render(&p, "k").text;
        for rendered in
            ["MakeRing::New => k::Ring::<i64, 16>::new(),", "MakeText::New => k::Text::<16>::new(),"]
        {
            assert!(module.contains(rendered), "no `{rendered}` in:\n{module}");
        }
        let ring = &p.types[0];
        let methods: Vec<&str> = ring.methods.iter().map(|m| m.function.name.as_str()).collect();
        assert_eq!(methods, ["all", "push"]);
        assert_eq!(ring.methods[0].function.output.as_ref().unwrap().to_string(), "[Option<i64>; 16]");
    }

    #[test]
    fn items_of_an_iterator_type_whose_name_another_module_shares_are_not_taken_for_values() {
        // The public `pairs::Iter` yields values; the private `queue::Iter` that `Queue::iter`
        // returns yields references, and its test may not compare them with literals.
        let api = api("pub mod pairs {\n\
                 #[derive(Debug)] pub struct Iter(Vec<u8>);\n\
                 impl Iterator for Iter { type Item = u8; fn next(&mut self) -> Option<u8> { self.0.pop() } }\n\
                 impl Iter { pub fn new() -> Iter { Iter(Vec::new()) } }\n\
             }\n\
             mod queue {\n\
                 #[derive(Debug)] pub struct Iter<'a>(std::slice::Iter<'a, u8>);\n\
                 impl<'a> Iterator for Iter<'a> { type Item = &'a u8; fn next(&mut self) -> Option<&'a u8> { self.0.next() } }\n\
                 #[derive(Debug)] pub struct Queue(Vec<u8>);\n\
                 impl Queue { pub fn new() -> Queue { Queue(Vec::new()) } pub fn iter(&self) -> Iter<'_> { Iter(self.0.iter()) } }\n\
             }\n\
             pub use queue::Queue;\n");
        let p = plan(&api, &Exclusions::new());
        let queue = p.types.iter().find(|t| t.name == "Queue").unwrap();
        let iter = queue.methods.iter().find(|m| m.function.name == "iter").unwrap();
        assert_eq!((iter.output.clone(), iter.items_by_value), (Output::Collected, false));
    }

    #[test]
    fn an_iterator_of_tuples_compares_with_literals_unless_a_string_is_in_them() {
        // An `OsString` or a `NonZeroUsize` has no literal either.
        let api = api("use std::ffi::OsString;\n\
             pub fn indices(s: &str) -> impl Iterator<Item = (usize, &str)> { s.split(' ').map(|w| (0, w)) }\n\
             pub fn owned(s: &str) -> impl Iterator<Item = (usize, String)> { std::iter::empty() }\n\
             pub fn os(s: &str) -> impl Iterator<Item = (char, OsString)> { std::iter::empty() }\n\
             pub fn nonzero(s: &str) -> impl Iterator<Item = (bool, NonZeroUsize)> { std::iter::empty() }\n\
             pub fn lone(s: &str) -> impl Iterator<Item = std::num::NonZeroUsize> { std::iter::empty() }\n\
             pub fn words(s: &str) -> impl Iterator<Item = String> { std::iter::empty() }\n\
             pub fn maybe(s: &str) -> impl Iterator<Item = Option<u8>> { std::iter::empty() }\n");
        let p = plan(&api, &Exclusions::new());
        let by_value = |name: &str| p.calls.iter().find(|c| c.function.name == name).unwrap().items_by_value;
        let names = ["indices", "owned", "os", "nonzero", "lone", "words", "maybe"];
        assert_eq!(names.map(by_value), [true, false, false, false, false, true, true]);
    }

    #[test]
    fn std_duration_is_told_from_the_crates_type_of_its_name_and_made_from_nanoseconds() {
        // humantime's modules `use std::time::Duration` beside its own `Duration`.
        let api = api("mod duration {\n\
                 use std::time::Duration;\n\
                 pub fn parse(s: &str) -> Option<Duration> { None }\n\
                 pub fn seconds(d: Duration) -> u64 { d.as_secs() }\n\
                 pub fn borrowed(d: &Duration) -> u64 { 0 }\n\
             }\n\
             mod wrapper {\n\
                 #[derive(Debug)] pub struct Duration(std::time::Duration);\n\
                 impl Duration { pub fn new() -> Duration { Duration(std::time::Duration::ZERO) } }\n\
                 pub fn own(d: Duration) -> u8 { 0 }\n\
             }\n\
             pub use duration::{borrowed, parse, seconds};\n\
             pub use wrapper::{own, Duration};\n");
        let p = plan(&api, &Exclusions::new());
        let call = |name: &str| p.calls.iter().find(|c| c.function.name == name).expect(name);
        assert_eq!(call("seconds").args[0].expr, "std::time::Duration::from_nanos(d)");
        assert_eq!(call("borrowed").args[0].expr, "&std::time::Duration::from_nanos(d)");
        assert_eq!(call("parse").result.as_ref().unwrap().to_string(), "Option<std::time::Duration>");
        // The crate's own is built as its constructor says.
        assert_eq!(call("own").args[0].gen_ty, "MakeDuration");
    }

    #[test]
    fn a_free_function_returning_a_type_builds_it_for_its_methods() {
        let api = api("#[derive(Debug)] pub struct Stamp { secs: u64 }\n\
             impl Stamp { pub fn is_exact(&self) -> bool { self.secs % 60 == 0 } }\n\
             pub fn stamp(secs: u64) -> Stamp { Stamp { secs } }\n\
             pub fn parse(s: &str) -> Option<Stamp> { None }\n\
             pub fn later(s: Stamp) -> Stamp { s }\n\
             #[derive(Debug)] pub struct Duration(u64);\n\
             impl Duration { pub fn get(&self) -> u64 { self.0 } }\n\
             pub fn std_one() -> std::time::Duration { std::time::Duration::ZERO }\n");
        let p = plan(&api, &Exclusions::new());
        let stamp = p.types.iter().find(|t| t.name == "Stamp").unwrap();
        let ctors: Vec<(&str, bool)> = stamp
            .constructors
            .iter()
            .map(|c| match &c.kind {
                CtorKind::Function { path, fallible, .. } => (path.as_str(), *fallible),
                _ => ("?", false),
            })
            .collect();
        // Not `later`, which takes one to make one.
        assert_eq!(ctors, [("k::parse", true), ("k::stamp", false)]);
        assert!(stamp.methods.iter().any(|m| m.function.name == "is_exact"));
        // std's `Duration` is not the crate's.
        assert!(p.types.iter().find(|t| t.name == "Duration").is_none_or(|t| t.constructors.is_empty()));
    }

    #[test]
    fn only_a_duration_imported_from_std_is_made_from_nanoseconds() {
        let api = api("mod time {\n\
                 #[derive(Debug)] pub struct Duration(u64);\n\
                 impl Duration { pub fn new(n: u64) -> Duration { Duration(n) } }\n\
             }\n\
             pub fn wait(d: time::Duration) -> u8 { 0 }\n\
             mod clock { use std::time; pub fn secs(d: time::Duration) -> u64 { d.as_secs() } }\n\
             mod glob { use std::time::*; pub fn millis(d: Duration) -> u128 { d.as_millis() } }\n\
             mod chrono_like { use chrono::Duration; pub fn later(d: Duration) -> u8 { 0 } }\n\
             mod config { use std::time::Duration; #[derive(Debug)] pub struct Config { pub timeout: Duration } }\n\
             pub use config::Config;\n\
             pub use time::Duration;\n\
             pub use clock::secs;\n\
             pub use glob::millis;\n\
             pub use chrono_like::later;\n");
        let p = plan(&api, &Exclusions::new());
        let arg =
            |name: &str| p.calls.iter().find(|c| c.function.name == name).map(|c| c.args[0].expr.clone());
        assert_eq!(arg("secs").as_deref(), Some("std::time::Duration::from_nanos(d)"));
        assert_eq!(arg("millis").as_deref(), Some("std::time::Duration::from_nanos(d)"));
        // The crate's `time::Duration` is built by its constructor; chrono's is not std's.
        assert_eq!(
            p.calls.iter().find(|c| c.function.name == "wait").unwrap().args[0].gen_ty,
            "MakeDuration"
        );
        let later =
            p.calls.iter().any(|c| c.function.name == "later") || p.skipped.iter().any(|s| s.item == "later");
        assert!(later && !arg("later").is_some_and(|a| a.contains("from_nanos")));
        // A field's `Duration` is std's too, not built as the crate's.
        let config = p.types.iter().find(|t| t.name == "Config").unwrap();
        let args: Vec<(&str, &str)> =
            config.constructors[0].args.iter().map(|a| (a.gen_ty.as_str(), a.expr.as_str())).collect();
        assert_eq!(args, [("u64", "std::time::Duration::from_nanos(timeout)")]);
    }

    #[test]
    fn a_std_time_type_reexported_or_renamed_is_still_stds() {
        let api = api("use std::time::Duration;\n\
             pub mod a { use super::*; pub fn wait(d: Duration) -> u64 { d.as_secs() } }\n\
             pub use std::time::SystemTime;\n\
             pub mod b { use crate::SystemTime; pub fn at(t: SystemTime) -> u8 { 0 } }\n\
             pub mod c { use std::time::Duration as Span; pub fn span(s: Span) -> u64 { 0 } }\n\
             pub mod d { use std::time::*; pub type Duration = u64; pub fn plain(d: Duration) -> u64 { d } }\n\
             pub mod e { use chrono::*; pub fn later(d: Duration) -> u8 { 0 } }\n");
        let p = plan(&api, &Exclusions::new());
        let arg =
            |name: &str| p.calls.iter().find(|c| c.function.name == name).map(|c| c.args[0].expr.clone());
        assert_eq!(arg("wait").as_deref(), Some("std::time::Duration::from_nanos(d)"));
        assert_eq!(arg("at").as_deref(), Some("std::time::UNIX_EPOCH + std::time::Duration::from_nanos(t)"));
        assert_eq!(arg("span").as_deref(), Some("std::time::Duration::from_nanos(s)"));
        // Not a module's own alias of the name, nor a name another crate's glob may bring.
        for name in ["plain", "later"] {
            let made = arg(name).is_some_and(|a| a.contains("from_nanos"));
            let listed = p.calls.iter().any(|c| c.function.name == name)
                || p.skipped.iter().any(|s| s.item.ends_with(name));
            assert!(listed && !made, "{name}");
        }
    }

    #[test]
    fn a_crate_type_shown_by_hand_that_compares_with_nothing_is_rendered_by_display() {
        let api = api("use std::fmt;\n\
             #[derive(Debug)] pub struct Stamp(u64);\n\
             impl fmt::Display for Stamp { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, \"{}s\", self.0) } }\n\
             #[derive(Debug, PartialEq)] pub struct Same(u64);\n\
             impl fmt::Display for Same { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, \"{}\", self.0) } }\n\
             #[derive(Debug)] pub struct Plain(u64);\n\
             pub fn stamp(n: u64) -> Stamp { Stamp(n) }\n\
             pub fn same(n: u64) -> Same { Same(n) }\n\
             pub fn plain(n: u64) -> Plain { Plain(n) }\n");
        let p = plan(&api, &Exclusions::new());
        let output = |name: &str| p.calls.iter().find(|c| c.function.name == name).unwrap().output.clone();
        assert_eq!(output("stamp"), Output::Shown);
        // A value that compares keeps its `Debug`, as does one with no `Display`.
        assert_eq!(output("same"), Output::Value("k::Same".into()));
        assert_eq!(output("plain"), Output::Value("k::Plain".into()));
    }

    #[test]
    fn readers_and_writers_are_buffers_in_memory() {
        let api = api("use std::io::{self, BufRead, Read, Write};\n\
             pub fn read_u<R: Read>(r: &mut R) -> io::Result<u64> { Ok(0) }\n\
             pub fn lines(r: impl BufRead) -> usize { 0 }\n\
             pub fn write_u<W: Write>(w: &mut W, v: u64) -> Result<usize, io::Error> { Ok(0) }\n\
             #[derive(Debug)] pub struct Error;\n\
             pub fn open(p: &std::path::Path) -> usize { p.exists() as usize }\n\
             pub fn rel<P: AsRef<std::path::Path>>(p: P, base: &std::path::Path) -> Option<std::path::PathBuf> { None }\n\
             pub fn join(p: std::path::PathBuf) -> std::path::PathBuf { p }\n\
             pub fn hex<W: std::fmt::Write>(out: &mut W, b: u8) -> std::fmt::Result { Ok(()) }\n\
             pub fn dump(out: &mut impl std::fmt::Write) -> std::fmt::Result { Ok(()) }\n");
        let p = plan(&api, &Exclusions::new());
        let args = |path: &str| -> Vec<(String, String, bool)> {
            let call = p.calls.iter().find(|c| c.function.path == path).expect(path);
            call.args.iter().map(|a| (a.gen_ty.clone(), a.expr.clone(), a.mutated)).collect()
        };
        let arg = |gen_ty: &str, expr: &str, mutated| (gen_ty.to_owned(), expr.to_owned(), mutated);
        // A reader's bytes are generated; what a writer was given is an output.
        assert_eq!(args("k::read_u"), [arg("Vec<u8>", "&mut std::io::Cursor::new(r)", false)]);
        assert_eq!(args("k::lines"), [arg("Vec<u8>", "std::io::Cursor::new(r)", false)]);
        assert_eq!(args("k::write_u"), [arg("Vec<u8>", "&mut w", true), arg("u64", "v", false)]);
        // A text writer is a `String`, not taken for an I/O one.
        assert_eq!(args("k::hex"), [arg("String", "&mut out", true), arg("u8", "b", false)]);
        assert_eq!(args("k::dump"), [arg("String", "&mut out", true)]);
        // A path is a text; only a body that asks the file system about it is left out.
        assert_eq!(
            args("k::rel"),
            [arg("String", "p", false), arg("String", "std::path::Path::new(&base)", false)]
        );
        assert_eq!(args("k::join"), [arg("String", "std::path::PathBuf::from(p)", false)]);
        // Its `io::Error` is not the crate's `Error`.
        let module = crate::generate(&api, "k", &Exclusions::new()).module.text;
        assert!(module.contains("-> (Result<usize, std::io::Error>, Vec<u8>) {"), "{module}");
        assert!(module.contains("-> (std::fmt::Result, String) {"), "{module}");
        let skipped: Vec<(&str, &str)> =
            p.skipped.iter().map(|s| (s.item.as_str(), s.reason.as_str())).collect();
        assert_eq!(skipped, [("open", "touches the file system")]);
    }

    #[test]
    fn a_type_is_built_at_types_that_meet_its_impls_bounds() {
        let api = api("pub trait FloatCore {}\n\
             #[derive(Clone, Debug)] pub struct Ordered<T>(T);\n\
             impl<T: FloatCore> Ordered<T> { pub fn new(v: T) -> Self { Ordered(v) } }\n\
             impl<T> Ordered<T> { pub fn into_inner(self) -> T { self.0 } }\n\
             #[derive(Debug)] pub struct Source<R>(R);\n\
             impl<R: std::io::Read> Source<R> { pub fn new(r: R) -> Self { Source(r) }\n\
             pub fn read_all(&mut self) -> usize { 0 } }\n\
             #[derive(Clone, Debug)] pub enum Either<L, R> { Left(L), Right(R) }\n\
             impl<L, R> Either<L, R> { pub fn is_left(&self) -> bool { true } }\n\
             impl<L, R> Iterator for Either<L, R> where L: Iterator, R: Iterator<Item = L::Item> {\n\
             type Item = L::Item; fn next(&mut self) -> Option<L::Item> { None } }\n\
             pub trait PrimInt {}\n\
             #[derive(Clone, Debug)] pub struct Wrap<T>(T);\n\
             impl<T: PrimInt> Wrap<T> { pub fn new(v: T) -> Self { Wrap(v) } }\n");
        let p = plan(&api, &Exclusions::new());
        let paths: Vec<&str> = p.types.iter().map(|t| t.path.as_str()).collect();
        // A trait the plan does not know leaves the type at its own bounds' type, for the
        // compile check to judge.
        assert_eq!(
            paths,
            [
                "k::Either::<i64, i64>",
                "k::Ordered::<f64>",
                "k::Source::<std::io::Cursor<Vec<u8>>>",
                "k::Wrap::<i64>"
            ]
        );
        let methods =
            |i: usize| p.types[i].methods.iter().map(|c| c.function.name.as_str()).collect::<Vec<_>>();
        assert_eq!([methods(0), methods(1), methods(2)], [["is_left"], ["into_inner"], ["read_all"]]);
        let ctor = &p.types[2].constructors[0];
        assert_eq!(
            (ctor.args[0].gen_ty.as_str(), ctor.args[0].expr.as_str()),
            ("Vec<u8>", "std::io::Cursor::new(r)")
        );
        // `Either<i64, i64>` is no iterator.
        let skipped: Vec<(&str, &str)> =
            p.skipped.iter().map(|s| (s.item.as_str(), s.reason.as_str())).collect();
        assert_eq!(
            skipped,
            [("Either::next", "is for `L: Iterator` only, and the harness puts `L` at `i64`")]
        );
    }

    #[test]
    fn a_crate_traits_associated_functions_and_provided_methods_are_driven() {
        let api = api("pub trait Order { fn read(buf: &[u8]) -> u16; fn twice(buf: &[u8]) -> u32 { 0 } }\n\
             #[derive(Debug)] pub enum Big {}\n\
             impl Order for Big { fn read(buf: &[u8]) -> u16 { 0 } }\n\
             #[derive(Debug)] pub enum Little {}\n\
             impl Order for Little { fn read(buf: &[u8]) -> u16 { 1 } }\n\
             pub trait ReadExt: std::io::Read {\n\
                 fn read_one(&mut self) -> u8 where Self: Sized { 0 }\n\
                 fn read_in<T: Order>(&mut self) -> u16 { 0 }\n\
             }\n\
             impl<R: std::io::Read + ?Sized> ReadExt for R {}\n");
        let h = crate::generate(&api, "k", &Exclusions::new());
        let paths: Vec<&str> = h.plan.calls.iter().map(|c| c.function.path.as_str()).collect();
        // A parameter only a crate trait bounds is put at the first type implementing it.
        assert_eq!(
            paths,
            [
                "<k::Big as k::Order>::read",
                "<k::Big as k::Order>::twice",
                "<k::Little as k::Order>::read",
                "<k::Little as k::Order>::twice",
                "k::ReadExt::read_in::<k::Big>",
                "k::ReadExt::read_one"
            ]
        );
        // Named for the type where two impls share a function's name.
        assert_eq!(
            h.module.targets,
            ["big_read", "big_twice", "little_read", "little_twice", "read_in", "read_one"]
        );
        let reader = &h.plan.calls[5].args[0];
        assert_eq!(reader.expr, "&mut std::io::Cursor::new(value)");
    }

    #[test]
    fn a_copy_types_method_taking_self_is_called_on_the_value() {
        let api = api("#[derive(Clone, Copy, Debug)] pub struct P(u8);\n\
             #[derive(Clone, Debug)] pub struct S(u8);\n\
             impl P { pub fn new(x: u8) -> P { P(x) } pub fn twice(self) -> u8 { 0 } }\n\
             impl S { pub fn new(x: u8) -> S { S(x) } pub fn twice(self) -> u8 { 0 } }\n");
        let p = plan(&api, &Exclusions::new());
        let calls: Vec<String> = p.types.iter().map(|t| t.methods[0].method_call("v", &[])).collect();
        assert_eq!(calls, ["v.twice()", "v.clone().twice()"]);
    }

    #[test]
    fn a_hash_tables_capacity_is_not_compared() {
        let api = api("use std::collections::hash_map::RandomState;\n\
             #[derive(Clone, Debug)] pub struct Map<K, S = RandomState>(Vec<K>, S);\n\
             impl<K> Map<K> { pub fn new() -> Self { todo!() } }\n\
             impl<K, S> Map<K, S> { pub fn capacity(&self) -> usize { 0 } pub fn len(&self) -> usize { 0 } }\n");
        let p = plan(&api, &Exclusions::new());
        let methods: Vec<&str> = p.types[0].methods.iter().map(|c| c.function.name.as_str()).collect();
        assert_eq!(methods, ["len"]);
        let skipped: Vec<&str> = p.skipped.iter().map(|s| s.reason.as_str()).collect();
        assert_eq!(
            skipped,
            [
                "returns what differs from run to run: a capacity that depends on the hasher's random keys (`RandomState`)"
            ]
        );
    }

    #[test]
    fn common_bounds_have_instances() {
        let t = |bs: &[Bound]| instance(bs).map(|t| t.to_string());
        assert_eq!(t(&[bound("AsRef", Some("str"))]).as_deref(), Some("String"));
        assert_eq!(t(&[bound("Into", Some("String"))]).as_deref(), Some("String"));
        assert_eq!(t(&[bound("AsRef", Some("[u8]"))]).as_deref(), Some("Vec<u8>"));
        assert_eq!(
            t(&[bound("Ord", None), bound("Copy", None), bound("Hash", None)]).as_deref(),
            Some("i64")
        );
        assert_eq!(t(&[]).as_deref(), Some("i64"));
        assert_eq!(t(&[bound("AsRef", Some("Path"))]).as_deref(), Some("String"));
        assert_eq!(t(&[bound("RangeBounds", Some("usize"))]).as_deref(), Some("RangeInclusive<usize>"));
        assert_eq!(t(&[bound("RangeBounds", Some("String"))]), None);
        // An iterator whose items no bound names: of numbers.
        assert_eq!(t(&[bound("IntoIterator", None)]).as_deref(), Some("Vec<i64>"));
        assert_eq!(t(&[bound("AsRef", Some("Options"))]).as_deref(), Some("Options"));
        assert_eq!(t(&[bound("FromIterator", Some("char"))]).as_deref(), Some("String"));
        assert_eq!(t(&[bound("FromIterator", Some("u8"))]).as_deref(), Some("Vec<u8>"));
        assert_eq!(t(&[bound("Integer", None)]).as_deref(), Some("i64"));
        assert_eq!(t(&[bound("Read", None)]).as_deref(), Some("std::io::Cursor<Vec<u8>>"));
        assert_eq!(
            t(&[bound("BufRead", None), bound("Seek", None)]).as_deref(),
            Some("std::io::Cursor<Vec<u8>>")
        );
        assert_eq!(t(&[bound("Write", None), bound("Debug", None)]).as_deref(), Some("Vec<u8>"));
        assert_eq!(
            t(&[bound("Read", None), bound("Clone", None)]).as_deref(),
            Some("std::io::Cursor<Vec<u8>>")
        );
        assert_eq!(t(&[bound("Read", None), bound("Copy", None)]), None);
        assert_eq!(t(&[bound("FloatCore", None), bound("Display", None)]).as_deref(), Some("f64"));
    }
}
