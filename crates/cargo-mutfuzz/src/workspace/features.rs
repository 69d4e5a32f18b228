//! Cargo's feature flags for the package under test (`--features`, `--all-features`,
//! `--no-default-features`), as one value: what `test` builds with and records in
//! `outcomes.json`, and what `amplify` and `init --auto` read the API and build the
//! generated harness with. Besides the cargo arguments, it resolves what they turn on
//! from the manifest's `[features]` table: the `cfg(feature)` set the API scan evaluates,
//! the dependency a harness declares on the package, and the features a written test
//! file needs.

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// The feature flags, as given to cargo (the default: none, the package's default features).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Features {
    /// `--features`, each as given (`check,cb58`, `a b`, `pkg/feat`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    /// `--all-features`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_features: bool,
    /// `--no-default-features`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_default_features: bool,
}

/// The `[features]` table of a manifest, with the implicit feature of each optional
/// dependency no `dep:` entry names.
struct Table {
    features: Vec<(String, Vec<String>)>,
}

impl Table {
    fn read(manifest: &Path) -> Table {
        let doc = std::fs::read_to_string(manifest)
            .ok()
            .and_then(|t| t.parse::<toml_edit::DocumentMut>().ok())
            .unwrap_or_default();
        let mut features: Vec<(String, Vec<String>)> = Vec::new();
        if let Some(table) = doc.get("features").and_then(|f| f.as_table_like()) {
            for (name, list) in table.iter() {
                let list = list.as_array().map_or_else(Vec::new, |a| {
                    a.iter().filter_map(|v| v.as_str()).map(str::to_owned).collect()
                });
                features.push((name.to_owned(), list));
            }
        }
        let named_by_dep: BTreeSet<String> = features
            .iter()
            .flat_map(|(_, list)| list)
            .filter_map(|v| v.strip_prefix("dep:"))
            .map(str::to_owned)
            .collect();
        // Optional build-dependencies have an implicit feature too (dev-dependencies
        // cannot be optional).
        const KINDS: [&str; 3] = ["dependencies", "build-dependencies", "build_dependencies"];
        let mut tables: Vec<&dyn toml_edit::TableLike> = Vec::new();
        let mut scopes: Vec<&dyn toml_edit::TableLike> = vec![doc.as_table()];
        if let Some(targets) = doc.get("target").and_then(|t| t.as_table_like()) {
            scopes.extend(targets.iter().filter_map(|(_, target)| target.as_table_like()));
        }
        for scope in scopes {
            tables.extend(KINDS.iter().filter_map(|k| scope.get(k).and_then(|d| d.as_table_like())));
        }
        for deps in tables {
            for (name, dep) in deps.iter() {
                let optional = dep.get("optional").and_then(|o| o.as_bool()) == Some(true);
                if optional && !named_by_dep.contains(name) && !features.iter().any(|(f, _)| f == name) {
                    features.push((name.to_owned(), vec![format!("dep:{name}")]));
                }
            }
        }
        Table { features }
    }

    fn get(&self, name: &str) -> Option<&[String]> {
        self.features.iter().find(|(f, _)| f == name).map(|(_, list)| list.as_slice())
    }

    /// `start` and every feature they turn on, followed through the table (an optional
    /// dependency's feature `dep?/f` or `dep/f` is the dependency's; `dep/f` also turns on
    /// the implicit feature `dep`).
    fn closure(&self, start: impl IntoIterator<Item = String>) -> BTreeSet<String> {
        let mut on = BTreeSet::new();
        let mut todo: Vec<String> = start.into_iter().collect();
        while let Some(f) = todo.pop() {
            if !on.insert(f.clone()) {
                continue;
            }
            for entry in self.get(&f).unwrap_or_default() {
                if entry.starts_with("dep:") {
                    continue;
                }
                match entry.split_once('/') {
                    None => todo.push(entry.clone()),
                    Some((dep, _)) if !dep.ends_with('?') && self.get(dep).is_some() => {
                        todo.push(dep.to_owned())
                    }
                    Some(_) => {}
                }
            }
        }
        on
    }
}

impl Features {
    /// Whether these are cargo's defaults (no flag).
    pub fn is_default(&self) -> bool {
        *self == Features::default()
    }

    /// The flags, as cargo arguments.
    pub fn cargo_args(&self) -> Vec<String> {
        let mut args = Vec::new();
        for f in &self.features {
            args.extend(["--features".to_owned(), f.clone()]);
        }
        if self.all_features {
            args.push("--all-features".to_owned());
        }
        if self.no_default_features {
            args.push("--no-default-features".to_owned());
        }
        args
    }

    /// Whether both turn on the same features the same way, however they were written
    /// (`--features a,b` is `--features b --features a`).
    pub fn same_as(&self, other: &Features) -> bool {
        let sorted = |f: &Features| {
            let mut named = f.named(None);
            named.sort();
            named
        };
        sorted(self) == sorted(other)
            && self.all_features == other.all_features
            && self.no_default_features == other.no_default_features
    }

    /// As a command line would give them: `--features check,cb58`; `the default features`
    /// with none.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let named = self.named(None);
        if !named.is_empty() {
            parts.push(format!("--features {}", named.join(",")));
        }
        if self.all_features {
            parts.push("--all-features".to_owned());
        }
        if self.no_default_features {
            parts.push("--no-default-features".to_owned());
        }
        if parts.is_empty() { "the default features".to_owned() } else { parts.join(" ") }
    }

    /// The features named with `--features`, split as cargo splits them (commas and
    /// spaces); with `package`, `package/f` is the package's own `f`.
    fn named(&self, package: Option<&str>) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for f in self.features.iter().flat_map(|f| f.split([',', ' '])).filter(|f| !f.is_empty()) {
            let f = match (package, f.split_once('/')) {
                (Some(p), Some((pkg, own))) if pkg == p => own,
                _ => f,
            };
            if !out.iter().any(|o| o == f) {
                out.push(f.to_owned());
            }
        }
        out
    }

    /// The features a build of the package (manifest `manifest`, named `package`) with
    /// these flags turns on: what `#[cfg(feature = "…")]` sees, `default` included when on.
    pub fn enabled(&self, manifest: &Path, package: &str) -> BTreeSet<String> {
        let table = Table::read(manifest);
        let mut start: Vec<String> = Vec::new();
        if !self.no_default_features {
            start.push("default".to_owned());
        }
        if self.all_features {
            start.extend(table.features.iter().map(|(f, _)| f.clone()));
        }
        for f in self.named(Some(package)) {
            match f.split_once('/') {
                // A dependency's feature turns on the optional dependency itself.
                Some((dep, _)) if !dep.ends_with('?') && table.get(dep).is_some() => {
                    start.push(dep.to_owned())
                }
                Some(_) => {}
                None => start.push(f),
            }
        }
        let mut on = table.closure(start);
        if table.get("default").is_none() && !self.no_default_features {
            // No `default` in the table: the name is not a feature cfg sees.
            on.remove("default");
        }
        on
    }

    /// The dependency on the package at `path` that a harness declares so that it builds
    /// the package with these flags, as a TOML inline table:
    /// `{ path = "..", features = ["check", "cb58"], default-features = false }`.
    pub fn dependency(&self, path: &str, manifest: &Path, package: &str) -> String {
        let mut dep = toml_edit::InlineTable::new();
        dep.insert("path", path.into());
        let mut names = self.named(Some(package));
        if self.all_features {
            names = Table::read(manifest)
                .features
                .into_iter()
                .map(|(f, _)| f)
                .filter(|f| f != "default")
                .collect();
        }
        if !names.is_empty() {
            dep.insert("features", toml_edit::Value::Array(names.iter().collect()));
        }
        if self.no_default_features {
            dep.insert("default-features", false.into());
        }
        dep.fmt();
        dep.to_string()
    }

    /// The flags a harness (its manifest at `harness_manifest`) builds `package` with:
    /// the `features` and `default-features` of its dependency on it.
    pub fn of_dependency(harness_manifest: &Path, package: &str) -> Features {
        let doc = std::fs::read_to_string(harness_manifest)
            .ok()
            .and_then(|t| t.parse::<toml_edit::DocumentMut>().ok())
            .unwrap_or_default();
        let Some(deps) = doc.get("dependencies").and_then(|d| d.as_table_like()) else {
            return Features::default();
        };
        let dep = deps.iter().find(|(key, dep)| {
            dep.get("package").and_then(|p| p.as_str()).map_or(*key == package, |p| p == package)
        });
        let Some((_, dep)) = dep else { return Features::default() };
        let features: Vec<String> = dep
            .get("features")
            .and_then(|f| f.as_array())
            .map(|a| a.iter().filter_map(|v| v.as_str()).map(str::to_owned).collect())
            .unwrap_or_default();
        Features {
            features: if features.is_empty() { Vec::new() } else { vec![features.join(",")] },
            all_features: false,
            // Cargo also reads the older spelling `default_features`.
            no_default_features: ["default-features", "default_features"]
                .iter()
                .any(|k| dep.get(k).and_then(|d| d.as_bool()) == Some(false)),
        }
    }

    /// The features `manifest` declares that this run leaves off.
    pub fn left_off(&self, manifest: &Path, package: &str) -> Vec<String> {
        let on = self.enabled(manifest, package);
        let doc =
            std::fs::read_to_string(manifest).ok().and_then(|t| t.parse::<toml_edit::DocumentMut>().ok());
        let declared: Vec<String> = doc
            .as_ref()
            .and_then(|doc| doc.get("features")?.as_table_like())
            .map(|t| t.iter().map(|(k, _)| k.to_owned()).collect())
            .unwrap_or_default();
        declared.into_iter().filter(|f| f != "default" && !on.contains(f)).collect()
    }

    /// What tests written with these flags may depend on that a plain build differs in,
    /// for the file's `#![cfg(…)]`: the features they turn on that the defaults leave off
    /// (an optional dependency's own included), and those the defaults turn on that they
    /// leave off (`--no-default-features`). Both empty with the defaults.
    /// A feature another of them turns on is left out of each list (`check` turns on
    /// the optional dependency `sha2`: the gate names `check`).
    pub fn gate(&self, manifest: &Path, package: &str) -> (Vec<String>, Vec<String>) {
        let table = Table::read(manifest);
        let on = self.enabled(manifest, package);
        let default = Features::default().enabled(manifest, package);
        let apart = |a: &BTreeSet<String>, b: &BTreeSet<String>| -> Vec<String> {
            let differ: Vec<&String> = a.difference(b).filter(|f| *f != "default").collect();
            let implied = |f: &String| {
                differ.iter().any(|&g| {
                    g != f
                        && table.closure([g.clone()]).contains(f)
                        && !table.closure([f.clone()]).contains(g)
                })
            };
            differ.iter().filter(|f| !implied(f)).map(|f| (*f).clone()).collect()
        };
        (apart(&on, &default), apart(&default, &on))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// bs58 0.5.1's features and optional dependencies.
    const BS58: &str = "[package]\nname = \"bs58\"\n\n\
        [dependencies.sha2]\nversion = \"0.10\"\noptional = true\n\n\
        [dependencies.smallvec]\nversion = \"1\"\noptional = true\n\n\
        [target.'cfg(unix)'.dependencies]\ntinyvec = { version = \"1\", optional = true }\n\n\
        [features]\nalloc = [\"tinyvec?/alloc\"]\ncb58 = [\"sha2\"]\ncheck = [\"sha2\"]\n\
        default = [\"std\"]\nstd = [\"alloc\", \"tinyvec?/std\"]\n";

    fn manifest(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("Cargo.toml");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    fn on(f: &Features, m: &Path) -> Vec<String> {
        f.enabled(m, "bs58").into_iter().collect()
    }

    #[test]
    fn the_declared_features_a_run_leaves_off_are_listed() {
        let (_dir, m) = manifest(BS58);
        assert_eq!(Features::default().left_off(&m, "bs58"), ["cb58", "check"]);
        let bare = Features { no_default_features: true, ..Features::default() };
        assert_eq!(bare.left_off(&m, "bs58"), ["alloc", "cb58", "check", "std"]);
    }

    #[test]
    fn the_enabled_set_follows_the_features_table() {
        let (_dir, m) = manifest(BS58);
        assert_eq!(on(&Features::default(), &m), ["alloc", "default", "std"]);
        let checked = Features { features: vec!["check,cb58".into()], ..Features::default() };
        assert_eq!(on(&checked, &m), ["alloc", "cb58", "check", "default", "sha2", "std"]);
        let bare =
            Features { features: vec!["bs58/cb58".into()], no_default_features: true, ..Default::default() };
        assert_eq!(on(&bare, &m), ["cb58", "sha2"]);
        let all = Features { all_features: true, ..Features::default() };
        assert_eq!(on(&all, &m), ["alloc", "cb58", "check", "default", "sha2", "smallvec", "std", "tinyvec"]);
        // A dependency's feature turns the optional dependency on.
        let dep = Features {
            features: vec!["smallvec/union".into()],
            no_default_features: true,
            ..Default::default()
        };
        assert_eq!(on(&dep, &m), ["smallvec"]);
        let (_dir, plain) = manifest("[package]\nname = \"p\"\n[features]\nstd = []\n");
        assert!(Features::default().enabled(&plain, "p").is_empty());
    }

    #[test]
    fn an_optional_build_dependency_is_a_feature_too() {
        let (_dir, m) = manifest(
            "[package]\nname = \"p\"\n[build-dependencies]\ncc = { version = \"1\", optional = true }\n\
             [target.'cfg(unix)'.build-dependencies]\npkg-config = { version = \"0.3\", optional = true }\n\
             [features]\nvendored = [\"cc\"]\n",
        );
        let all = Features { all_features: true, ..Features::default() };
        assert_eq!(all.enabled(&m, "p").into_iter().collect::<Vec<_>>(), ["cc", "pkg-config", "vendored"]);
        let vendored = Features { features: vec!["vendored".into()], ..Features::default() };
        assert_eq!(vendored.gate(&m, "p"), (vec!["vendored".to_owned()], vec![]));
    }

    #[test]
    fn a_harness_depends_on_the_package_with_the_same_features() {
        let (_dir, m) = manifest(BS58);
        let dep = |f: &Features| f.dependency("..", &m, "bs58");
        assert_eq!(dep(&Features::default()), "{ path = \"..\" }");
        let checked =
            Features { features: vec!["check, cb58".into(), "bs58/check".into()], ..Features::default() };
        assert_eq!(dep(&checked), "{ path = \"..\", features = [\"check\", \"cb58\"] }");
        let bare =
            Features { features: vec!["alloc".into()], no_default_features: true, ..Default::default() };
        assert_eq!(dep(&bare), "{ path = \"..\", features = [\"alloc\"], default-features = false }");
        let all = Features { all_features: true, ..Features::default() };
        assert_eq!(
            dep(&all),
            "{ path = \"..\", features = [\"alloc\", \"cb58\", \"check\", \"std\", \"sha2\", \"smallvec\", \"tinyvec\"] }"
        );
        assert_eq!(checked.describe(), "--features check,cb58,bs58/check");
        let bare_all = Features { all_features: true, no_default_features: true, ..Features::default() };
        assert_eq!(bare_all.describe(), "--all-features --no-default-features");
        assert_eq!(Features::default().describe(), "the default features");
        let reordered = Features {
            features: vec!["cb58".into(), "bs58/check".into(), "check".into()],
            ..Features::default()
        };
        assert!(checked.same_as(&reordered) && !checked.same_as(&Features::default()));
        let gate = |f: &Features| f.gate(&m, "bs58");
        // `sha2` is left out: `check` turns it on.
        assert_eq!(gate(&checked), (vec!["cb58".to_owned(), "check".to_owned()], vec![]));
        assert_eq!(gate(&all).0, ["cb58", "check", "smallvec", "tinyvec"]);
        assert_eq!(gate(&Features::default()), (vec![], vec![]));
        // A dependency's feature gates on the dependency; no default features, on `std` off.
        let dep = Features { features: vec!["smallvec/union".into()], ..Default::default() };
        assert_eq!(gate(&dep), (vec!["smallvec".to_owned()], vec![]));
        assert_eq!(gate(&bare), (vec![], vec!["std".to_owned()]));
        // A feature the defaults turn on already needs no gate.
        let std = Features { features: vec!["std".into()], ..Default::default() };
        assert_eq!(gate(&std), (vec![], vec![]));
    }

    #[test]
    fn a_harness_manifest_says_which_features_it_builds_the_package_with() {
        let (_dir, m) = manifest(
            "[dependencies]\nbs58 = { path = \"..\", features = [\"check\", \"cb58\"], default-features = false }\n",
        );
        let f = Features::of_dependency(&m, "bs58");
        assert_eq!(
            f,
            Features { features: vec!["check,cb58".into()], no_default_features: true, ..Default::default() }
        );
        let (_dir, plain) = manifest("[dependencies]\nmine = { path = \"..\", package = \"bs58\" }\n");
        assert!(Features::of_dependency(&plain, "bs58").is_default());
        // The older spelling, which cargo still reads.
        let (_dir, old) = manifest("[dependencies]\nbs58 = { path = \"..\", default_features = false }\n");
        assert!(Features::of_dependency(&old, "bs58").no_default_features);
    }

    #[test]
    fn results_without_the_flags_mean_the_defaults() {
        let f: Features = serde_json::from_str("{}").unwrap();
        assert!(f.is_default());
        assert_eq!(serde_json::to_string(&Features::default()).unwrap(), "{}");
        let checked = Features { features: vec!["check".into()], ..Features::default() };
        assert_eq!(serde_json::to_string(&checked).unwrap(), "{\"features\":[\"check\"]}");
    }
}
