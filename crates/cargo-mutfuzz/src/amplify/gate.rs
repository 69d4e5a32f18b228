//! Feature gates of single tests: a written test that names an item only a default
//! feature turns on (unicode-width's `width_cjk`, behind `cjk`) is `#[cfg(feature = …)]`
//! on it, so that `cargo test --no-default-features` still builds the file.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use mutfuzz_api::test_writer::TestFn;

use crate::workspace::{Features, Package};

/// What a name needs: every feature of a set on, or any one of them (an item behind
/// `cfg(any(feature = "std", feature = "alloc"))`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gate {
    All(BTreeSet<String>),
    Any(BTreeSet<String>),
}

impl Gate {
    fn predicate(&self) -> String {
        let (op, set) = match self {
            Gate::All(set) => ("all", set),
            Gate::Any(set) => ("any", set),
        };
        let features: Vec<String> = set.iter().map(|f| format!("feature = \"{f}\"")).collect();
        match &features[..] {
            [one] => one.clone(),
            all => format!("{op}({})", all.join(", ")),
        }
    }
}

/// The public names (items, enum variants, types with a trait impl) only default
/// features turn on, with what each needs: the API read with the defaults of the run off
/// against it read with them on. A feature whose removal alone loses the name is needed,
/// where those needed bring it back by themselves; else the name needs any of the
/// features that bring it back alone; else all of them. A name that stays (an item of it
/// outside the features) is not gated.
pub fn default_gated(package: &Package, features: &Features) -> Result<BTreeMap<String, Gate>> {
    gated_apart(package, features, &Features { no_default_features: true, ..features.clone() })
}

/// The public names only the features of the run (`--features serde`) turn on beyond a
/// plain build's, with what each needs, as [`default_gated`] finds them for the defaults.
pub fn extra_gated(package: &Package, features: &Features) -> Result<BTreeMap<String, Gate>> {
    gated_apart(package, features, &Features::default())
}

/// The public names `features` turn on that `lean` leaves off, with what each needs.
fn gated_apart(package: &Package, features: &Features, lean: &Features) -> Result<BTreeMap<String, Gate>> {
    let Some(lib) = &package.lib_root else { return Ok(BTreeMap::new()) };
    let manifest = package.root.join("Cargo.toml");
    let on = features.enabled(&manifest, &package.name);
    let without_default = lean.enabled(&manifest, &package.name);
    let candidates: BTreeSet<String> =
        on.iter().filter(|f| *f != "default" && !without_default.contains(*f)).cloned().collect();
    if candidates.is_empty() {
        return Ok(BTreeMap::new());
    }
    let krate = package.lib_name.clone().unwrap_or_else(|| package.name.replace('-', "_"));
    let read = |set: &BTreeSet<String>| -> Result<BTreeMap<String, usize>> {
        Ok(names(&mutfuzz_api::read(lib, &krate, set)?))
    };
    // What a set of features turns on, on top of the run's own.
    let with = |set: &BTreeSet<String>| -> BTreeSet<String> {
        let mut on = Features { features: set.iter().cloned().collect(), ..lean.clone() }
            .enabled(&manifest, &package.name);
        on.extend(without_default.iter().cloned());
        on
    };
    let full = read(&on)?;
    let bare = read(&without_default)?;
    // A method's bare name is lost only with every type's method of that name: BiBTreeMap's
    // `left_values` stays when BiHashMap's goes with `std` (`Owner::name` says which went).
    let methods: BTreeSet<&str> = full.keys().filter_map(|k| k.split_once("::").map(|(_, m)| m)).collect();
    let lost: Vec<(&String, usize)> = full
        .iter()
        .filter(|(name, n)| match bare.get(*name) {
            Some(_) if methods.contains(name.as_str()) => false,
            Some(m) => m < *n,
            None => true,
        })
        .map(|(k, n)| (k, *n))
        .collect();
    if lost.is_empty() {
        return Ok(BTreeMap::new());
    }
    let mut needs: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut brings: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut closures: BTreeMap<&String, BTreeSet<String>> = BTreeMap::new();
    for feature in &candidates {
        let mut off = on.clone();
        off.remove(feature);
        let fewer = read(&off)?;
        let alone = with(&BTreeSet::from([feature.clone()]));
        let more = read(&alone)?;
        closures.insert(feature, alone);
        for &(name, n) in &lost {
            if fewer.get(name).is_none_or(|m| *m < n) {
                needs.entry(name.clone()).or_default().insert(feature.clone());
            }
            if more.get(name).is_some_and(|m| *m >= n) {
                brings.entry(name.clone()).or_default().insert(feature.clone());
            }
        }
    }
    // A feature another of the set turns on goes without saying: `std`, not `alloc` and
    // `std`, where `std = ["alloc"]`.
    let implied = |set: BTreeSet<String>| -> BTreeSet<String> {
        let turned_on =
            |f: &String| set.iter().any(|g| g != f && closures.get(g).is_some_and(|on| on.contains(f)));
        set.iter().filter(|f| !turned_on(f)).cloned().collect()
    };
    // Whether the features of `set` bring every item of the name back (not so for
    // `cfg(all(feature = "std", any(feature = "x", feature = "y")))` and `std` alone).
    let mut enough: BTreeMap<BTreeSet<String>, BTreeMap<String, usize>> = BTreeMap::new();
    let mut gates = BTreeMap::new();
    for (name, n) in lost {
        let gate = match (needs.remove(name), brings.remove(name)) {
            (Some(all), any) => {
                let names = match enough.get(&all) {
                    Some(names) => names,
                    None => enough.entry(all.clone()).or_insert(read(&with(&all))?),
                };
                match any {
                    _ if names.get(name).is_some_and(|m| *m >= n) => Gate::All(implied(all)),
                    Some(any) => Gate::Any(any),
                    None => Gate::All(implied(candidates.clone())),
                }
            }
            (None, Some(any)) => Gate::Any(any),
            // Only features together bring it: all of them do.
            (None, None) => Gate::All(implied(candidates.clone())),
        };
        gates.insert(name.clone(), gate);
    }
    Ok(gates)
}

/// The std traits whose use a written test spells with the type's name, and the word it
/// calls them by: `"x".parse::<T>()`, `T::from(…)`, `T::try_from(…)`, `T::default()`,
/// `.collect::<T>()`; `std::error::Error` behind `std` gates no test.
const WRITTEN_THROUGH_TYPE: [(&str, &str); 5] = [
    ("FromStr", "parse"),
    ("From", "from"),
    ("TryFrom", "try_from"),
    ("Default", "default"),
    ("FromIterator", "collect"),
];

/// How many public functions, types, enum variants and trait impls have each name. A
/// type's impls count as `Type::word` (`Kind::parse`: `"x".parse::<k::Kind>()` needs
/// `Kind`'s `FromStr`, while a test of `Kind::new()` needs none of them); a method counts
/// under its bare name and as `Owner::name` too. A type counts once more for each
/// parameter default: a test writes `PriorityQueue::<i64, i64>`, which priority-queue's
/// definition without `std` (no `H = RandomState`) does not take.
fn names(api: &mutfuzz_api::Api) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let bare = |f: &mutfuzz_api::scan::Function| f.name.rsplit("::").next().unwrap_or(&f.name).to_owned();
    let owned = api.functions.iter().filter_map(|f| Some(format!("{}::{}", f.owner.as_ref()?, bare(f))));
    let functions = api.functions.iter().map(bare).chain(owned);
    let types = api.types.values().flat_map(|t| {
        let variants = t.variants.iter().map(|(v, _, _)| v.clone());
        // Each `From` impl apart (`From<u8>` always, `From<String>` behind `std`).
        let impls = WRITTEN_THROUGH_TYPE.iter().flat_map(|(trait_name, word)| {
            let each = match *trait_name {
                "From" => t.from.len(),
                "TryFrom" => t.try_from.len(),
                "FromIterator" => t.from_iter.len(),
                _ => 0,
            };
            std::iter::repeat_n(
                format!("{}::{word}", t.name),
                each + usize::from(t.traits.contains(*trait_name)),
            )
        });
        let defaults = t.type_params.iter().filter(|(_, _, default)| *default).count();
        std::iter::repeat_n(t.name.clone(), 1 + defaults).chain(impls).chain(variants)
    });
    for name in functions.chain(types) {
        *out.entry(name).or_default() += 1;
    }
    out
}

/// The names a test's code reaches through a path or a method call (`w::width_cjk`,
/// `.width_cjk()`, `Kind::Io`): not its own bindings (adler's `let adler32 = …` beside the
/// function `adler::adler32`), nor the words of its comment, which names the mutants
/// killed, in any function.
fn reached(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|line| !line.trim_start().starts_with("//")).flat_map(|line| {
        let mut out = Vec::new();
        let mut rest = line;
        while let Some(at) = rest.find(|c: char| c.is_alphanumeric() || c == '_') {
            let end =
                rest[at..].find(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(rest.len(), |e| at + e);
            if rest[..at].ends_with("::") || rest[..at].ends_with('.') {
                out.push(&rest[at..end]);
            }
            rest = &rest[end..];
        }
        out
    })
}

/// `test` (and its lean form) `#[cfg]` on the features the `gated` names it reaches need.
pub fn apply(mut test: TestFn, gated: &BTreeMap<String, Gate>) -> TestFn {
    let mut words: BTreeSet<&str> = reached(&test.text).collect();
    if let Some(lean) = &test.lean {
        words.extend(reached(lean));
    }
    // `Owner::method` where the test names both (`BiHashMap::new()`, then `.left_values()`).
    let named = |key: &String| match key.split_once("::") {
        Some((owner, method)) => words.contains(owner) && words.contains(method),
        None => words.contains(key.as_str()),
    };
    let gates: Vec<&Gate> = gated.iter().filter(|(key, _)| named(key)).map(|(_, gate)| gate).collect();
    // One `all` of every feature needed, and each `any` none of them meets.
    let needed: BTreeSet<&String> = gates
        .iter()
        .filter_map(|g| if let Gate::All(set) = g { Some(set) } else { None })
        .flatten()
        .collect();
    let mut predicates: Vec<String> = needed.iter().map(|f| format!("feature = \"{f}\"")).collect();
    let anys: BTreeSet<String> = gates
        .iter()
        .filter(|g| matches!(g, Gate::Any(set) if !set.iter().any(|f| needed.contains(f))))
        .map(|g| g.predicate())
        .collect();
    predicates.extend(anys);
    if predicates.is_empty() {
        return test;
    }
    let gate = |text: &mut String| {
        let Some(at) = text.find("#[test]") else { return };
        // A feature `cfg` already there (a default feature's, gated first) takes these in.
        let mut all = predicates.clone();
        let mut from = at;
        let line_start = text[..at].trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
        if let Some(earlier) =
            text[line_start..at].trim_end().strip_prefix("#[cfg(").and_then(|c| c.strip_suffix(")]"))
            && earlier.starts_with("feature = ")
        {
            all.insert(0, earlier.to_owned());
            from = line_start;
        }
        let cfg = match &all[..] {
            [one] => format!("#[cfg({one})]\n"),
            all => format!("#[cfg(all({}))]\n", all.join(", ")),
        };
        text.replace_range(from..at, &cfg);
    };
    gate(&mut test.text);
    if let Some(lean) = &mut test.lean {
        gate(lean);
    }
    test
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(lib: &str, manifest: &str) -> (tempfile::TempDir, Package) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), lib).unwrap();
        std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        let package = Package {
            name: "w".into(),
            version: "0.1.0".into(),
            edition: "2021".into(),
            root: dir.path().to_owned(),
            spec: mutfuzz_mutate::PackageSpec {
                name: "w".into(),
                root: dir.path().to_owned(),
                crate_roots: Vec::new(),
                edition_2015: false,
            },
            lib_name: None,
            proc_macro: false,
            lib_root: Some(dir.path().join("src/lib.rs")),
        };
        (dir, package)
    }

    #[test]
    fn a_test_naming_an_item_of_a_default_feature_is_gated_on_it() {
        let (_dir, package) = package(
            "pub fn width(s: &str) -> usize { s.len() }\n\
             #[cfg(feature = \"cjk\")] pub fn width_cjk(s: &str) -> usize { s.len() }\n\
             #[cfg(feature = \"extra\")] pub fn extra() -> u8 { 0 }\n\
             pub trait Wide { fn wide(&self) -> usize; #[cfg(feature = \"cjk\")] fn wide_cjk(&self) -> usize; }\n\
             impl Wide for char {\n\
                 fn wide(&self) -> usize { 1 }\n\
                 #[cfg(feature = \"cjk\")] fn wide_cjk(&self) -> usize { 2 }\n\
             }\n",
            "[package]\nname = \"w\"\nversion = \"0.1.0\"\n\n[features]\ndefault = [\"cjk\"]\ncjk = []\nextra = []\n",
        );
        // `extra` is the run's own (`--features extra`): the file's `cfg` says so.
        let features = Features { features: vec!["extra".into()], ..Features::default() };
        let gated = default_gated(&package, &features).unwrap();
        let cjk = Gate::All(BTreeSet::from(["cjk".to_owned()]));
        // A trait's method too (unicode-width's `UnicodeWidthChar::width_cjk`).
        assert_eq!(gated, BTreeMap::from([("wide_cjk".into(), cjk.clone()), ("width_cjk".into(), cjk)]));
        let test = |text: &str| TestFn {
            name: "t".into(),
            text: text.into(),
            base: "t".into(),
            harness: false,
            uses: Vec::new(),
            args_name: None,
            lean: None,
        };
        let cjk = apply(
            test("// Kills x\n#[test]\nfn t() {\n    assert_eq!(w::width_cjk(\"a\"), 1);\n}\n"),
            &gated,
        );
        assert_eq!(
            cjk.text,
            "// Kills x\n#[cfg(feature = \"cjk\")]\n#[test]\nfn t() {\n    assert_eq!(w::width_cjk(\"a\"), 1);\n}\n"
        );
        // Not for a word of the comment, which names the mutants killed.
        let plain = apply(
            test(
                "// Kills replace width_cjk -> usize with 0\n#[test]\nfn t() {\n    assert_eq!(w::width(\"a\"), 1);\n}\n",
            ),
            &gated,
        );
        assert!(!plain.text.contains("cfg"), "{}", plain.text);
        // Gated again on another feature (the run's own, after the defaults'): one `cfg`.
        let extra =
            BTreeMap::from([("width_cjk".to_owned(), Gate::All(BTreeSet::from(["extra".to_owned()])))]);
        let both = apply(cjk, &extra);
        assert!(
            both.text
                .starts_with("// Kills x\n#[cfg(all(feature = \"cjk\", feature = \"extra\"))]\n#[test]\n"),
            "{}",
            both.text
        );
    }

    #[test]
    fn a_second_from_impl_and_a_mixed_cfg_are_gated_on_what_brings_them_back() {
        let (_dir, package) = package(
            "pub struct Level(u8);\n\
             impl From<u8> for Level { fn from(n: u8) -> Level { Level(n) } }\n\
             #[cfg(feature = \"std\")] impl From<String> for Level { fn from(s: String) -> Level { Level(0) } }\n\
             #[cfg(all(feature = \"std\", any(feature = \"x\", feature = \"y\")))] pub fn mixed() -> u8 { 0 }\n",
            "[package]\nname = \"w\"\nversion = \"0.1.0\"\n\n[features]\ndefault = [\"std\", \"x\", \"y\"]\n\
             std = []\nx = []\ny = []\n",
        );
        let gated = default_gated(&package, &Features::default()).unwrap();
        let set = |fs: &[&str]| fs.iter().map(|f| f.to_string()).collect::<BTreeSet<_>>();
        assert_eq!(
            gated,
            BTreeMap::from([
                ("Level::from".into(), Gate::All(set(&["std"]))),
                // `std` alone does not bring it back: every default feature it may need.
                ("mixed".into(), Gate::All(set(&["std", "x", "y"]))),
            ])
        );
    }

    #[test]
    fn items_behind_any_feature_variants_and_trait_impls_are_gated() {
        let (_dir, package) = package(
            "#[cfg(any(feature = \"std\", feature = \"alloc\"))] pub fn owned() -> u8 { 0 }\n\
             #[derive(Debug, PartialEq)] pub enum Kind { A, #[cfg(feature = \"std\")] Io }\n\
             pub struct Level(u8);\n\
             #[cfg(feature = \"std\")] impl std::str::FromStr for Level {\n\
                 type Err = (); fn from_str(s: &str) -> Result<Level, ()> { Ok(Level(0)) }\n\
             }\n\
             #[cfg(feature = \"std\")] impl std::error::Error for Kind {}\n\
             #[cfg(all(feature = \"std\", feature = \"fast\"))] pub fn both() -> u8 { 0 }\n\
             #[cfg(all(feature = \"alloc\", feature = \"std\"))] pub fn pair() -> u8 { 0 }\n",
            "[package]\nname = \"w\"\nversion = \"0.1.0\"\n\n[features]\ndefault = [\"std\", \"fast\"]\n\
             std = [\"alloc\"]\nalloc = []\nfast = []\n",
        );
        let gated = default_gated(&package, &Features::default()).unwrap();
        let set = |fs: &[&str]| fs.iter().map(|f| f.to_string()).collect::<BTreeSet<_>>();
        assert_eq!(
            gated,
            BTreeMap::from([
                ("Io".into(), Gate::All(set(&["std"]))),
                // `Kind`'s `Error` impl is no name a test writes; `Level`'s `FromStr` is
                // called by `parse`.
                ("Level::parse".into(), Gate::All(set(&["std"]))),
                ("both".into(), Gate::All(set(&["fast", "std"]))),
                ("owned".into(), Gate::Any(set(&["alloc", "std"]))),
                // `std` turns `alloc` on.
                ("pair".into(), Gate::All(set(&["std"]))),
            ])
        );
        let test = TestFn {
            name: "t".into(),
            text: "#[test]\nfn t() {\n    assert_eq!(w::owned(), \"0\".parse::<w::Level>().map(|_| 0).unwrap());\n}\n"
                .into(),
            base: "t".into(),
            harness: false,
            uses: Vec::new(),
            args_name: None,
            lean: None,
        };
        // An `any` that a feature needed meets goes without saying.
        let text = apply(test.clone(), &gated).text;
        assert!(text.starts_with("#[cfg(feature = \"std\")]\n#[test]"), "{text}");
        // A binding of the name is no call of it.
        let binding = TestFn {
            text: "#[test]\nfn t() {\n    let owned = 1;\n    assert_eq!(owned, 1);\n}\n".into(),
            ..test
        };
        assert!(!apply(binding.clone(), &gated).text.contains("cfg"));
        // Naming the type is not parsing it.
        let named =
            TestFn { text: "#[test]\nfn t() {\n    let _ = w::Level::new(1);\n}\n".into(), ..binding };
        assert!(!apply(named, &gated).text.contains("cfg"));
    }

    #[test]
    fn a_type_whose_parameter_default_needs_a_feature_is_gated_on_it() {
        let (_dir, package) = package(
            "#[cfg(feature = \"std\")] pub struct Queue<I, H = std::collections::hash_map::RandomState>(I, H);\n\
             #[cfg(not(feature = \"std\"))] pub struct Queue<I, H>(I, H);\n\
             pub struct Plain<I>(I);\n",
            "[package]\nname = \"w\"\nversion = \"0.1.0\"\n\n[features]\ndefault = [\"std\"]\nstd = []\n",
        );
        let gated = default_gated(&package, &Features::default()).unwrap();
        let std = Gate::All(BTreeSet::from(["std".to_owned()]));
        // `w::Queue::<i64>` takes no hasher only with `std`.
        assert_eq!(gated, BTreeMap::from([("Queue".to_owned(), std)]));
    }

    #[test]
    fn a_method_is_gated_with_its_type_not_with_another_types_method_of_its_name() {
        let (_dir, package) = package(
            "pub struct Tree(u8);\n\
             impl Tree { pub fn new() -> Tree { Tree(0) } pub fn values(&self) -> u8 { self.0 } }\n\
             #[cfg(feature = \"std\")] pub struct Hash(u8);\n\
             #[cfg(feature = \"std\")] impl Hash { pub fn new() -> Hash { Hash(0) } pub fn values(&self) -> u8 { self.0 } }\n\
             impl Tree { #[cfg(feature = \"std\")] pub fn sorted(&self) -> u8 { self.0 } }\n",
            "[package]\nname = \"w\"\nversion = \"0.1.0\"\n\n[features]\ndefault = [\"std\"]\nstd = []\n",
        );
        let gated = default_gated(&package, &Features::default()).unwrap();
        let test = |body: &str| TestFn {
            name: "t".into(),
            text: format!("#[test]\nfn t() {{\n    {body}\n}}\n"),
            base: "t".into(),
            harness: false,
            uses: Vec::new(),
            args_name: None,
            lean: None,
        };
        let std = "#[cfg(feature = \"std\")]";
        // Tree's `values` stays without `std`; Hash's goes with its type.
        let tree = apply(test("assert_eq!(w::Tree::new().values(), 0);"), &gated).text;
        assert!(!tree.contains("cfg"), "{tree}");
        let hash = apply(test("assert_eq!(w::Hash::new().values(), 0);"), &gated).text;
        assert!(hash.starts_with(std), "{hash}");
        // A method gone from every type is gated by its name alone.
        let sorted = apply(test("assert_eq!(w::Tree::new().sorted(), 0);"), &gated).text;
        assert!(sorted.starts_with(std), "{sorted}");
    }
}
