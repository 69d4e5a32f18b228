//! The user's workspace as cargo describes it (root, target dir, the packages to mutate),
//! and what is made of it before any build: the paths under `target/mutfuzz/`
//! (`layout`), the feature flags and what they turn on (`features`), the scratch copy
//! (`scratch`, `dev_deps`, `fs_util`), the engine crates written out (`engine`) and the
//! lock on `target/mutfuzz/` (`lock`).

pub(crate) mod dev_deps;
pub(crate) mod engine;
pub mod features;
pub(crate) mod fs_util;
pub mod layout;
pub(crate) mod lock;
pub mod scratch;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use cargo_metadata::{Edition, MetadataCommand, TargetKind};
use mutfuzz_mutate::{Config, CrateRoot, Discovery, PackageSpec};

pub use features::Features;

/// Whether a manifest turns off cargo's discovery of `tests/*.rs`: `autotests = false`
/// (every package normalized for crates.io), or, in edition 2015 (a manifest without
/// `edition`), any `[[test]]` listed.
pub fn tests_listed_only(doc: &toml_edit::DocumentMut) -> bool {
    let package = doc.get("package");
    match package.and_then(|p| p.get("autotests")).and_then(|a| a.as_bool()) {
        Some(auto) => !auto,
        None => {
            let edition = package.and_then(|p| p.get("edition"));
            let edition_2015 = edition.is_none_or(|e| e.as_str() == Some("2015"));
            edition_2015 && doc.get("test").is_some()
        }
    }
}

/// A package chosen for mutation.
#[derive(Clone, Debug)]
pub struct Package {
    /// Its name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Directory of its Cargo.toml.
    pub root: PathBuf,
    /// What discovery needs.
    pub spec: PackageSpec,
    /// Its library target's crate name, if it has one (and so doctests).
    pub lib_name: Option<String>,
    /// Whether its library is a proc-macro crate (its code runs in the compiler).
    pub proc_macro: bool,
    /// Its library target's root file (`src/lib.rs`), if it has one.
    pub lib_root: Option<PathBuf>,
    /// Its edition (`2021`), which a written test file is formatted for.
    pub edition: String,
}

impl Package {
    /// How cargo's `-p` names it when its root is at `root` (in the scratch copy): by
    /// package ID, `path+file://ROOT#NAME@VERSION`, since the dependency graph may hold
    /// another copy of the same crate — a parser whose dev-dependencies pull a release
    /// of itself, even of the same version — and then the bare name is ambiguous.
    pub fn cargo_spec(&self, root: &Path) -> String {
        let root: PathBuf = root.components().collect();
        format!("path+file://{}#{}@{}", root.display(), self.name, self.version)
    }
}

/// Which workspace and which of its packages a command works on (`--manifest-path`, `-p`).
#[derive(Clone, Debug, Default)]
pub struct PackageChoice {
    /// Path to the Cargo.toml of the package or workspace (default: the current directory's).
    pub manifest_path: Option<PathBuf>,
    /// The packages to mutate by name (default: the current package, or every default member).
    pub packages: Vec<String>,
}

impl From<&PackageChoice> for PackageChoice {
    fn from(choice: &PackageChoice) -> PackageChoice {
        choice.clone()
    }
}

/// The workspace and the packages chosen from it.
#[derive(Debug)]
pub struct Workspace {
    /// Workspace root directory.
    pub root: PathBuf,
    /// Cargo's target directory for it.
    pub target_dir: PathBuf,
    /// Packages to mutate.
    pub packages: Vec<Package>,
    /// Every member's manifest, for patching the scratch copy.
    pub member_manifests: Vec<PathBuf>,
}

impl Workspace {
    /// Ask cargo about the workspace at `choice.manifest_path` (or the current directory).
    pub fn open(choice: impl Into<PackageChoice>) -> Result<Workspace> {
        Workspace::open_inner(&choice.into()).map_err(crate::console::exit_code::usage)
    }

    fn open_inner(args: &PackageChoice) -> Result<Workspace> {
        let mut cmd = MetadataCommand::new();
        cmd.no_deps();
        if let Some(path) = &args.manifest_path {
            if !path.is_file() {
                bail!("no Cargo.toml at {}: pass the path of a package's manifest", path.display());
            }
            cmd.manifest_path(path);
        } else if let Ok(cwd) = std::env::current_dir()
            && !cwd.ancestors().any(|d| d.join("Cargo.toml").is_file())
        {
            bail!(
                "{} is not inside a Cargo package (no Cargo.toml here or in any parent directory): run \
                 cargo mutfuzz in your package's directory, or pass --manifest-path PATH/Cargo.toml",
                cwd.display()
            );
        }
        let meta = cmd.exec().context(
            "`cargo metadata` failed: run cargo mutfuzz inside a Cargo package, or pass --manifest-path",
        )?;
        let members: Vec<&cargo_metadata::Package> = meta.workspace_packages();
        let chosen: Vec<&cargo_metadata::Package> = if !args.packages.is_empty() {
            args.packages
                .iter()
                .map(|name| {
                    members.iter().copied().find(|p| p.name.as_str() == name).with_context(|| {
                        let names: Vec<&str> = members.iter().map(|p| p.name.as_str()).collect();
                        format!(
                            "no package {name:?} in the workspace; its packages are: {}",
                            names.join(", ")
                        )
                    })
                })
                .collect::<Result<_>>()?
        } else if let Some(root) = meta.root_package() {
            vec![root]
        } else {
            meta.workspace_default_packages()
        };
        let packages = chosen.into_iter().map(package).collect::<Result<Vec<_>>>()?;
        Ok(Workspace {
            root: meta.workspace_root.clone().into_std_path_buf(),
            target_dir: meta.target_directory.clone().into_std_path_buf(),
            member_manifests: members.iter().map(|p| p.manifest_path.clone().into_std_path_buf()).collect(),
            packages,
        })
    }

    /// Find the mutants of every chosen package; ids run on across packages.
    pub fn discover(&self) -> Result<(Discovery, Config)> {
        let mut discovery = Discovery::default();
        let mut first_config = None;
        for p in &self.packages {
            let config = Config::load(&[&p.root, &self.root]).map_err(crate::console::exit_code::usage)?;
            discovery.add_package(&p.spec, &self.root, &config).map_err(|e| {
                // A syntax error in the user's source is theirs to fix, at `file:line:col`.
                if matches!(e, mutfuzz_mutate::Error::Syntax(_)) {
                    crate::console::exit_code::usage(e)
                } else {
                    e.into()
                }
            })?;
            first_config.get_or_insert(config);
        }
        Ok((discovery, first_config.unwrap_or_default()))
    }
}

fn package(p: &cargo_metadata::Package) -> Result<Package> {
    let root =
        p.manifest_path.parent().context("manifest path has no directory")?.to_owned().into_std_path_buf();
    let crate_roots = p
        .targets
        .iter()
        .filter(|t| {
            t.kind.iter().any(|k| {
                matches!(
                    k,
                    TargetKind::Lib
                        | TargetKind::RLib
                        | TargetKind::DyLib
                        | TargetKind::CDyLib
                        | TargetKind::StaticLib
                        | TargetKind::ProcMacro
                        | TargetKind::Bin
                )
            })
        })
        .map(|t| CrateRoot { path: t.src_path.clone().into_std_path_buf() })
        .collect();
    let lib = p.targets.iter().find(|t| {
        t.kind.iter().any(|k| matches!(k, TargetKind::Lib | TargetKind::RLib | TargetKind::ProcMacro))
    });
    let lib_name = lib.map(|t| t.name.replace('-', "_"));
    let lib_root = lib.map(|t| t.src_path.clone().into_std_path_buf());
    let proc_macro = p.targets.iter().any(|t| t.kind.contains(&TargetKind::ProcMacro));
    Ok(Package {
        lib_name,
        lib_root,
        proc_macro,
        name: p.name.to_string(),
        version: p.version.to_string(),
        edition: p.edition.to_string(),
        spec: PackageSpec {
            name: p.name.to_string(),
            root: root.clone(),
            crate_roots,
            edition_2015: p.edition == Edition::E2015,
        },
        root,
    })
}

/// The targets declared with `harness = false` in a manifest, as (kind, name) with kind
/// `lib`, `bin`, `test` or `bench`: their binaries are plain programs, run whole, not
/// through libtest's filters. The kind matters: a `[[bench]]` may share the lib's name.
pub fn harnessless_targets(manifest: &Path) -> Vec<(String, String)> {
    let Ok(text) = std::fs::read_to_string(manifest) else { return Vec::new() };
    let Ok(doc) = text.parse::<toml_edit::DocumentMut>() else { return Vec::new() };
    let mut found = Vec::new();
    for key in ["test", "bench", "bin"] {
        if let Some(arr) = doc.get(key).and_then(|i| i.as_array_of_tables()) {
            for t in arr.iter() {
                if t.get("harness").and_then(|h| h.as_bool()) == Some(false)
                    && let Some(name) = t.get("name").and_then(|n| n.as_str())
                {
                    found.push((key.to_owned(), name.replace('-', "_")));
                }
            }
        }
    }
    if let Some(lib) = doc.get("lib")
        && lib.get("harness").and_then(|h| h.as_bool()) == Some(false)
    {
        // The lib target's name defaults to the package's, with `-` as `_`.
        let name = lib
            .get("name")
            .and_then(|n| n.as_str())
            .or_else(|| doc.get("package").and_then(|p| p.get("name")).and_then(|n| n.as_str()))
            .unwrap_or("");
        found.push(("lib".to_owned(), name.replace('-', "_")));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_names_the_package_by_its_id_in_the_copy() {
        let p = Package {
            name: "primal-check".into(),
            version: "0.3.4".into(),
            edition: "2021".into(),
            root: "/src/primal-check".into(),
            spec: PackageSpec {
                name: "primal-check".into(),
                root: "/src/primal-check".into(),
                crate_roots: Vec::new(),
                edition_2015: false,
            },
            lib_name: None,
            proc_macro: false,
            lib_root: None,
        };
        // The copy's path as `in_work` joins it, with a trailing slash: cargo's IDs have none.
        assert_eq!(
            p.cargo_spec(Path::new("/t/work/src/primal-check/")),
            "path+file:///t/work/src/primal-check#primal-check@0.3.4"
        );
    }

    #[test]
    fn harnessless_targets_carry_their_kind() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = dir.path().join("Cargo.toml");
        std::fs::write(
            &manifest,
            "[package]\nname = \"hex-lib\"\n[[bench]]\nname = \"hex\"\nharness = false\n[lib]\nharness = false\n",
        )
        .unwrap();
        assert_eq!(
            harnessless_targets(&manifest),
            [("bench".to_owned(), "hex".to_owned()), ("lib".to_owned(), "hex_lib".to_owned())]
        );
    }
}
