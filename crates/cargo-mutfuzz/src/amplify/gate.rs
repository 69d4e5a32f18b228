//! Feature gates of single tests: a written test that names an item only a default
//! feature turns on (unicode-width's `width_cjk`, behind `cjk`) is `#[cfg(feature = …)]`
//! on it, so that `cargo test --no-default-features` still builds the file.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use mutfuzz_api::test_writer::TestFn;

use crate::workspace::{Features, Package};

/// The public items only a default feature turns on, by name, with the features each
/// needs: the API read with every such feature of the run off in turn, against it read
/// with all of them on. A name that stays (an item of that name outside the feature) is
/// not gated: an item of it the test may call needs no feature.
pub fn default_gated(package: &Package, features: &Features) -> Result<BTreeMap<String, BTreeSet<String>>> {
    let Some(lib) = &package.lib_root else { return Ok(BTreeMap::new()) };
    let manifest = package.root.join("Cargo.toml");
    let on = features.enabled(&manifest, &package.name);
    let without_default =
        Features { no_default_features: true, ..features.clone() }.enabled(&manifest, &package.name);
    let krate = package.lib_name.clone().unwrap_or_else(|| package.name.replace('-', "_"));
    let mut gated: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let candidates = on.iter().filter(|f| *f != "default" && !without_default.contains(*f));
    let mut full = None;
    for feature in candidates {
        let full = match &full {
            Some(names) => names,
            None => full.insert(names(&mutfuzz_api::read(lib, &krate, &on)?)),
        };
        let mut off = on.clone();
        off.remove(feature);
        let fewer = names(&mutfuzz_api::read(lib, &krate, &off)?);
        for (name, n) in full {
            if fewer.get(name).is_none_or(|m| m < n) {
                gated.entry(name.clone()).or_default().insert(feature.clone());
            }
        }
    }
    Ok(gated)
}

/// How many public functions and types have each name.
fn names(api: &mutfuzz_api::Api) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let functions = api.functions.iter().map(|f| f.name.rsplit("::").next().unwrap_or(&f.name));
    for name in functions.chain(api.types.keys().map(String::as_str)) {
        *out.entry(name.to_owned()).or_default() += 1;
    }
    out
}

/// `test` (and its lean form) `#[cfg]` on the features the `gated` names it uses need.
pub fn apply(mut test: TestFn, gated: &BTreeMap<String, BTreeSet<String>>) -> TestFn {
    let needs = |text: &str| -> BTreeSet<String> {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter_map(|word| gated.get(word))
            .flatten()
            .cloned()
            .collect()
    };
    let mut features = needs(&test.text);
    if let Some(lean) = &test.lean {
        features.extend(needs(lean));
    }
    if features.is_empty() {
        return test;
    }
    let cfg = match features.iter().map(|f| format!("feature = \"{f}\"")).collect::<Vec<_>>()[..] {
        [ref one] => format!("#[cfg({one})]\n"),
        ref all => format!("#[cfg(all({}))]\n", all.join(", ")),
    };
    let gate = |text: &mut String| {
        if let Some(at) = text.find("#[test]") {
            text.insert_str(at, &cfg);
        }
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
        let cjk = BTreeSet::from(["cjk".to_owned()]);
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
        let plain = apply(test("#[test]\nfn t() {\n    assert_eq!(w::width(\"a\"), 1);\n}\n"), &gated);
        assert!(!plain.text.contains("cfg"), "{}", plain.text);
    }
}
