//! The scratch copy, `target/mutfuzz/work/`: the user's workspace copied and rewritten
//! into the schema, its manifests pointed at the engine crates written beside it. The
//! user's own files are never written.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use mutfuzz_mutate::Discovery;
use toml_edit::{DocumentMut, Item, Table, value};

use crate::workspace::Workspace;
use crate::workspace::fs_util::{remove_any, write_if_changed};
use crate::workspace::layout::Layout;

/// The name of the test target that holds a package's doctests in the scratch copy
/// (written by `doctest_target`, declared in the copy's manifest here).
pub const DOCTEST_TARGET: &str = "__mutfuzz_doctests";

/// The doctest target's file in the package at `package_root`.
pub fn doctest_file(package_root: &Path) -> PathBuf {
    package_root.join("tests").join(format!("{DOCTEST_TARGET}.rs"))
}

/// The scratch copy of one workspace.
#[derive(Clone, Debug)]
pub struct Scratch {
    /// Every path under `target/mutfuzz/`.
    pub layout: Layout,
    /// The copy of the workspace root: `layout.work()`.
    pub work: PathBuf,
    /// The user's workspace root.
    root: PathBuf,
    /// Whether the mutated packages' dev-dependencies that no test build names are
    /// left out of the copy (see `dev_deps`).
    pub trim_dev_deps: bool,
    /// Whether the packages' doctests are compiled into a generated test target (off
    /// with `test --no-doctests`: nothing declares or writes the target then).
    pub doctests: bool,
}

/// Fail with the way out unless `target/mutfuzz/` can be written (a read-only crate
/// directory, or target directory).
pub fn check_writable(layout: &Layout) -> Result<()> {
    crate::workspace::fs_util::ensure_writable_dir(
        layout.root(),
        "the scratch directory",
        "set CARGO_TARGET_DIR to a writable directory (the scratch copy and builds go there)",
    )
}

impl Scratch {
    /// The scratch copy of `ws`: at `work/<parent's name>/<root's name>`, so that the
    /// ancestors of the copy can mirror the user's (see [`Scratch::prepare`]).
    pub fn new(ws: &Workspace) -> Scratch {
        Scratch::new_at(&Layout::new(&ws.target_dir), &ws.root)
    }

    fn new_at(layout: &Layout, root: &Path) -> Scratch {
        let physical = fs::canonicalize(root).unwrap_or_else(|_| root.to_owned());
        let names: Vec<_> = physical.ancestors().take(MIRRORED_LEVELS).filter_map(Path::file_name).collect();
        let work = names.iter().rev().fold(layout.work(), |w, n| w.join(n));
        Scratch { work, layout: layout.clone(), root: root.to_owned(), trim_dev_deps: false, doctests: true }
    }

    /// Where the copy of a user's path is (paths outside the workspace are not copied).
    pub fn in_work(&self, path: &Path) -> PathBuf {
        match path.strip_prefix(&self.root) {
            Ok(rel) => self.work.join(rel),
            Err(_) => path.to_owned(),
        }
    }

    /// Copy the workspace (but not what is written over the copy anyway: the schema's
    /// sources and the manifests; nor results, nor `skip`), write the engine and the
    /// run-time crate, and patch the manifests. Returns the dev-dependencies left out
    /// (as `package: dependency`), if [`Scratch::trim_dev_deps`] is set.
    pub fn prepare(&self, ws: &Workspace, discovery: &Discovery, skip: &[PathBuf]) -> Result<Vec<String>> {
        check_writable(&self.layout)?;
        // Held until this command exits: a second command must not rewrite the copy
        // under this one's builds, nor interleave its records with this one's.
        crate::workspace::lock::hold(self.layout.root())?;
        fs::create_dir_all(&self.work)
            .with_context(|| format!("failed to create {}", self.work.display()))?;
        let mut excluded: Vec<PathBuf> = vec![ws.target_dir.clone(), ws.root.join(".git")];
        excluded.extend(discovery.files.iter().map(|f| f.path.clone()));
        excluded.extend(ws.member_manifests.iter().cloned());
        excluded.push(ws.root.join("Cargo.toml"));
        excluded.push(ws.root.join("mutfuzz.out"));
        excluded.push(ws.root.join("mutfuzz.out.old"));
        excluded.extend(skip.iter().cloned());
        self.copy_workspace(&ws.target_dir, &excluded)?;
        crate::workspace::engine::write(&self.layout)?;
        self.seed_dependency_cache(ws);
        self.patch_manifests(ws, discovery, skip)
    }

    /// A package that turns off `autotests` (every crates.io package does: its manifest
    /// is normalized to list each test) would not build the generated doctest target
    /// (`tests/__mutfuzz_doctests.rs`), and its doctests would all go through rustdoc, a
    /// compile per run: declare it as a `[[test]]` in the copy's manifest.
    fn declare_doctest_target(
        &self,
        doc: &mut DocumentMut,
        ws: &Workspace,
        discovery: &Discovery,
        manifest: &Path,
    ) -> Result<()> {
        let Some(package) = ws.packages.iter().find(|p| p.root.join("Cargo.toml") == manifest) else {
            return Ok(());
        };
        let has_doctests =
            discovery.files.iter().any(|f| f.package == package.name && !f.doctests.is_empty());
        if !self.doctests || !super::tests_listed_only(doc) || package.lib_name.is_none() || !has_doctests {
            return Ok(());
        }
        let file = format!("tests/{DOCTEST_TARGET}.rs");
        let tests = doc.entry("test").or_insert(Item::ArrayOfTables(toml_edit::ArrayOfTables::new()));
        if let Some(tests) = tests.as_array_of_tables_mut() {
            let mut target = Table::new();
            target.insert("name", value(DOCTEST_TARGET));
            target.insert("path", value(file.as_str()));
            tests.push(target);
        }
        // Cargo reads every declared target's path: the file exists from the start (the
        // doctest writer fills it).
        let path = self.in_work(&package.root.join(&file));
        if !path.exists() {
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir).with_context(|| format!("failed to create {}", dir.display()))?;
            }
            fs::write(&path, "// Written by cargo mutfuzz: this package's doctests as ordinary tests.\n")
                .with_context(|| format!("failed to write {}", path.display()))?;
        }
        Ok(())
    }

    /// On the first run, start the schema's target dir from the user's own debug build:
    /// dependencies from registries are built the same way for both (their fingerprints
    /// do not depend on where the workspace lives), so cargo finds them fresh and the
    /// first schema build compiles only the user's crates. Files are hard-linked, never
    /// written; incremental state is not shared. Best effort: any failure just means a
    /// full first build.
    ///
    /// With no build of the user's to start from, the schema's dependencies are built
    /// without debug info ([`Scratch::cold_dependencies`]); the choice is written in the
    /// schema's target dir on the first run and kept by every later one, so cargo never
    /// rebuilds the dependencies for a changed setting.
    fn seed_dependency_cache(&self, ws: &Workspace) {
        let (from, to) = (ws.target_dir.join("debug"), self.layout.schema_target().join("debug"));
        if to.exists() {
            return;
        }
        if !from.is_dir() {
            let marker = self.cold_marker();
            let _ = marker.parent().map(fs::create_dir_all);
            let _ = fs::write(marker, "dependencies built without debug info: there was no build to reuse\n");
            return;
        }
        let _ = fs::remove_file(self.cold_marker());
        for sub in ["deps", "build", ".fingerprint"] {
            let _ = link_tree(&from.join(sub), &to.join(sub));
        }
    }

    /// Whether the schema's dependencies were first built from nothing (no `target/debug`
    /// of the user's to reuse), and so are built without debug info.
    pub fn cold_dependencies(&self) -> bool {
        self.cold_marker().is_file()
    }

    fn cold_marker(&self) -> PathBuf {
        self.layout.schema_target().join("mutfuzz-cold-dependencies")
    }

    /// The user's physical directory that `work/` stands for: the workspace root's
    /// ancestor [`MIRRORED_LEVELS`] up (fewer near `/`), and the physical root.
    fn mirror_base(&self) -> (PathBuf, PathBuf) {
        let physical = fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        let levels = self.work.strip_prefix(self.layout.work()).map_or(0, |r| r.components().count());
        let base = physical.ancestors().nth(levels).unwrap_or(Path::new("/")).to_owned();
        (base, physical)
    }

    /// Copy the workspace but `excluded` into `work/…`, and above it what its sources
    /// reach by `../` ([`Scratch::mirror_ancestors`]).
    fn copy_workspace(&self, target_dir: &Path, excluded: &[PathBuf]) -> Result<()> {
        let reached = self.reached_outside(target_dir);
        copy_dir(&Copying { root: &self.root, excluded, mirrored: &reached }, &self.root, &self.work)?;
        self.mirror_ancestors(&reached)
    }

    /// The paths outside the workspace that its sources reach by `../` and that `..`
    /// from the copy can reach (see [`reached_outside`]), cut to those under the mirrored
    /// ancestors and clear of the target dir; none inside another.
    fn reached_outside(&self, target_dir: &Path) -> Vec<PathBuf> {
        let (base, physical) = self.mirror_base();
        let target = fs::canonicalize(target_dir).unwrap_or_else(|_| target_dir.to_owned());
        let mut paths: Vec<PathBuf> = reached_outside(&physical, &target)
            .into_iter()
            .filter(|p| {
                p.starts_with(&base)
                    && p != &base
                    && !physical.starts_with(p)
                    && !p.starts_with(&physical)
                    && !p.starts_with(&target)
                    && !target.starts_with(p)
            })
            .collect();
        paths.sort();
        paths.dedup();
        let mut outermost: Vec<PathBuf> = Vec::new();
        for p in paths {
            if !outermost.last().is_some_and(|o| p.starts_with(o)) {
                outermost.push(p);
            }
        }
        outermost
    }

    /// Make `..` from the copy lead where it leads from the user's tree, for up to
    /// [`MIRRORED_LEVELS`] levels, for the paths the workspace's sources name
    /// (`reached`): each is copied to its place relative to the copy, so a build
    /// script's `include_str!("../../shared/x")`, or a test reading `../data`, finds the
    /// same bytes. Nothing else is put above the copy, and nothing there links outside
    /// `target/` — tools that follow links through `target/` (`grep -R`, `find -L`, a
    /// `**` glob, a backup) would otherwise wander through every sibling of the crate —
    /// except a reached tree past [`MIRROR_LIMIT`], which is linked (said in one line).
    fn mirror_ancestors(&self, reached: &[PathBuf]) -> Result<()> {
        let (base, _) = self.mirror_base();
        let work = self.layout.work();
        let places: Vec<PathBuf> =
            reached.iter().filter_map(|p| p.strip_prefix(&base).ok()).map(|rel| work.join(rel)).collect();
        let mut keep = places.clone();
        keep.push(self.work.clone());
        // An older layout linked every entry of the ancestors: gone, never followed.
        prune(&work, &keep)?;
        for (from, to) in reached.iter().zip(&places) {
            let (bytes, files) = tree_size(from);
            if bytes > MIRROR_LIMIT.0 || files > MIRROR_LIMIT.1 {
                eprintln!(
                    "note: {} (named by a `../` path of the crate) holds more than {} MiB or {} files: \
                     the scratch copy links to it instead of copying it",
                    from.display(),
                    MIRROR_LIMIT.0 >> 20,
                    MIRROR_LIMIT.1,
                );
                if fs::read_link(to).is_ok_and(|t| &t == from) {
                    continue;
                }
                remove_any(to)?;
                fs::create_dir_all(to.parent().unwrap_or(&work))?;
                link(from, to)?;
                continue;
            }
            fs::create_dir_all(to.parent().unwrap_or(&work))?;
            if fs::symlink_metadata(from).is_ok_and(|m| m.is_dir()) {
                copy_dir(&Copying { root: from, excluded: &[], mirrored: &[] }, from, to)?;
            } else {
                if fs::symlink_metadata(to).is_ok_and(|m| !m.is_file()) {
                    remove_any(to)?;
                }
                copy_file(from, to)?;
            }
        }
        Ok(())
    }

    fn patch_manifests(
        &self,
        ws: &Workspace,
        discovery: &Discovery,
        skip: &[PathBuf],
    ) -> Result<Vec<String>> {
        let mut trimmed = Vec::new();
        let mutated: Vec<PathBuf> = ws.packages.iter().map(|p| p.root.join("Cargo.toml")).collect();
        let mut manifests = ws.member_manifests.clone();
        let root_manifest = ws.root.join("Cargo.toml");
        if !manifests.contains(&root_manifest) && root_manifest.is_file() {
            manifests.push(root_manifest.clone());
        }
        let mut docs = Vec::new();
        let mut engine_by_version = false;
        for original in manifests {
            let text = fs::read_to_string(&original)
                .with_context(|| format!("failed to read {}", original.display()))?;
            let doc: DocumentMut =
                text.parse().with_context(|| format!("failed to parse {}", original.display()))?;
            engine_by_version |= depends_on_the_engine_by_version(doc.as_table());
            docs.push((original, doc));
        }
        for (original, mut doc) in docs {
            let copy = self.in_work(&original);
            let dir = original.parent().unwrap_or(Path::new("."));
            absolutize_paths(doc.as_table_mut(), dir, &ws.root);
            self.point_engine_at_the_carried_copy(doc.as_table_mut());
            if engine_by_version && original == root_manifest {
                patch_engine_to_the_carried_copy(&mut doc, &self.layout)
                    .with_context(|| format!("in {}", original.display()))?;
            }
            if mutated.contains(&original) {
                self.declare_doctest_target(&mut doc, ws, discovery, &original)?;
                let deps = doc.entry("dependencies").or_insert(Item::Table(Table::new()));
                if let Some(deps) = deps.as_table_like_mut() {
                    let mut rt = toml_edit::InlineTable::new();
                    rt.insert("package", "mutfuzz-rt".into());
                    rt.insert(
                        "path",
                        self.layout.engine_crate("mutfuzz-rt").to_string_lossy().as_ref().into(),
                    );
                    deps.insert("mutfuzz_rt", value(rt));
                }
                if self.trim_dev_deps {
                    let unused = crate::workspace::dev_deps::unused(&doc, dir, skip);
                    crate::workspace::dev_deps::remove(&mut doc, &unused);
                    let package = doc.get("package").and_then(|p| p.get("name")).and_then(Item::as_str);
                    let package = package.unwrap_or("?").to_owned();
                    if !unused.is_empty() {
                        trimmed.push(format!("{package}: {}", unused.join(", ")));
                    }
                }
            }
            if original == root_manifest && !doc.contains_key("workspace") {
                // Keep the copy out of any workspace above the target dir.
                doc.insert("workspace", Item::Table(Table::new()));
            }
            write_if_changed(&copy, &doc.to_string())?;
        }
        Ok(trimmed)
    }
}

impl Scratch {
    /// Point every `path` dependency on an engine crate (the `mutfuzz` dev-dependency of
    /// tests that `cargo mutfuzz export` wrote, pointing at the copy it vendored) at the
    /// engine this binary writes out, which the schema links: one `mutfuzz-rt` in every
    /// test binary.
    fn point_engine_at_the_carried_copy(&self, manifest: &mut Table) {
        for kind in ["dependencies", "dev-dependencies", "build-dependencies"] {
            let Some(deps) = manifest.get_mut(kind).and_then(Item::as_table_like_mut) else { continue };
            for (key, item) in deps.iter_mut() {
                let name = item.get("package").and_then(Item::as_str).unwrap_or(key.get()).to_owned();
                if !crate::workspace::engine::crates().contains(&name.as_str()) {
                    continue;
                }
                if let Some(path) = item.get_mut("path") {
                    *path = value(self.layout.engine_crate(&name).to_string_lossy().as_ref());
                }
            }
        }
    }
}

/// `[patch.crates-io]` in the copy's root manifest, pointing every engine crate at the
/// engine this binary writes out: a `mutfuzz = "0.1"` dev-dependency (of tests that
/// `cargo mutfuzz export --replay` wrote) resolves from the registry in the user's own
/// `cargo test`, and to the copy the schema links here, never to a second `mutfuzz-rt`.
fn patch_engine_to_the_carried_copy(doc: &mut DocumentMut, layout: &Layout) -> Result<()> {
    let patch = doc.entry("patch").or_insert(Item::Table(Table::new()));
    let Some(patch) = patch.as_table_mut() else { anyhow::bail!("[patch] is not a table") };
    patch.set_implicit(true);
    let crates_io = patch.entry("crates-io").or_insert(Item::Table(Table::new()));
    let Some(crates_io) = crates_io.as_table_like_mut() else {
        anyhow::bail!("[patch.crates-io] is not a table")
    };
    for name in crate::workspace::engine::crates() {
        let mut dep = toml_edit::InlineTable::new();
        dep.insert("path", layout.engine_crate(name).to_string_lossy().as_ref().into());
        crates_io.insert(name, value(dep));
    }
    Ok(())
}

/// Whether the manifest at `path` depends on an engine crate by version (see
/// [`depends_on_the_engine_by_version`]); `false` when it cannot be read.
pub(crate) fn manifest_depends_on_the_engine_by_version(path: &Path) -> bool {
    fs::read_to_string(path)
        .ok()
        .and_then(|text| text.parse::<DocumentMut>().ok())
        .is_some_and(|doc| depends_on_the_engine_by_version(doc.as_table()))
}

/// Whether a manifest depends on an engine crate from a registry (not by `path`), in
/// any dependency table, also a target-specific one.
fn depends_on_the_engine_by_version(manifest: &Table) -> bool {
    let tables = ["dependencies", "dev-dependencies", "build-dependencies"];
    let in_tables = |t: &dyn toml_edit::TableLike| {
        tables.iter().filter_map(|k| t.get(k).and_then(Item::as_table_like)).any(|deps| {
            deps.iter().any(|(key, item)| {
                let name = item.get("package").and_then(Item::as_str).unwrap_or(key);
                crate::workspace::engine::crates().contains(&name)
                    && item.get("path").is_none()
                    && item.get("git").is_none()
                    && item.get("workspace").is_none()
            })
        })
    };
    let targets = manifest.get("target").and_then(Item::as_table_like);
    let workspace = manifest.get("workspace").and_then(Item::as_table_like);
    in_tables(manifest)
        || workspace.is_some_and(in_tables)
        || targets.is_some_and(|t| t.iter().filter_map(|(_, v)| v.as_table_like()).any(in_tables))
}

/// How many levels of `..` above the workspace root resolve, from the copy, to the
/// user's directories.
const MIRRORED_LEVELS: usize = 2;

/// Bytes and files of one reached tree above which it is linked, not copied: copying it
/// (and comparing it on every run) would cost more than the run.
const MIRROR_LIMIT: (u64, u64) = (64 << 20, 10_000);

/// Remove from `dir` everything that is neither one of `keep` nor on the way to one.
/// Links are removed, never followed.
fn prune(dir: &Path, keep: &[PathBuf]) -> Result<()> {
    let Ok(entries) = fs::read_dir(dir) else { return Ok(()) };
    for entry in entries {
        let path = entry?.path();
        if keep.contains(&path) {
            continue;
        }
        if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) && keep.iter().any(|k| k.starts_with(&path))
        {
            prune(&path, keep)?;
            continue;
        }
        remove_any(&path)?;
    }
    Ok(())
}

/// Bytes and files under `path` (links not followed).
fn tree_size(path: &Path) -> (u64, u64) {
    let Ok(meta) = fs::symlink_metadata(path) else { return (0, 0) };
    if !meta.is_dir() {
        return (meta.len(), 1);
    }
    let mut total = (0, 0);
    for entry in fs::read_dir(path).into_iter().flatten().flatten() {
        let (b, f) = tree_size(&entry.path());
        total = (total.0 + b, total.1 + f);
        if total.1 > MIRROR_LIMIT.1 {
            break;
        }
    }
    total
}

/// Every path outside `root` (a physical path) that the workspace names by `../`: a
/// relative symlink in it that leaves it, and in its Rust files each string token with a
/// `..` component (`include_str!`, `include_bytes!`, `#[path]`, a build script's
/// `rerun-if-changed`, a test's `fs::read("../data/x")`, `concat!(env!
/// ("CARGO_MANIFEST_DIR"), "/../x")`), resolved from the file's directory and from its
/// package's (the working directory of tests and build scripts). Each is the longest
/// part of what the token names that exists (`"../data/{name}.txt"` names `../data`).
/// An over-approximation: a token in a comment counts too, and costs a small copy.
/// The target dir (`target`, and any directory cargo tagged with `CACHEDIR.TAG`) and
/// `.git` are not read.
pub(crate) fn reached_outside(root: &Path, target: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    scan_dir(root, root, target, &mut found);
    found.retain(|p| !p.starts_with(root));
    found
}

fn scan_dir(root: &Path, dir: &Path, target: &Path, found: &mut Vec<PathBuf>) {
    if dir == target || dir.join("CACHEDIR.TAG").exists() || dir.file_name().is_some_and(|n| n == ".git") {
        return;
    }
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let Ok(ty) = entry.file_type() else { continue };
        if ty.is_dir() {
            scan_dir(root, &path, target, found);
        } else if ty.is_symlink() {
            if let Ok(to) = fs::read_link(&path)
                && to.is_relative()
            {
                found.extend(existing_prefix(&normalize(&dir.join(to))));
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && let Ok(text) = fs::read_to_string(&path)
        {
            let package =
                dir.ancestors().take_while(|a| a.starts_with(root)).find(|a| a.join("Cargo.toml").is_file());
            for token in parent_tokens(&text) {
                let token = token.trim_start_matches('/');
                for base in std::iter::once(dir).chain(package) {
                    found.extend(existing_prefix(&normalize(&base.join(token))));
                }
            }
        }
    }
}

/// The runs of path characters in `text` that have a `..` component.
fn parent_tokens(text: &str) -> impl Iterator<Item = &str> {
    let path_char = |c: char| c.is_alphanumeric() || "_-./+@~".contains(c);
    text.split(move |c: char| !path_char(c)).filter(|t| t.starts_with("../") || t.contains("/../"))
}

/// The longest prefix of `path` that exists.
fn existing_prefix(path: &Path) -> Option<PathBuf> {
    path.ancestors().find(|a| fs::symlink_metadata(a).is_ok()).map(Path::to_owned)
}

#[cfg(unix)]
fn link(target: &Path, dest: &Path) -> Result<()> {
    Ok(std::os::unix::fs::symlink(target, dest)?)
}

/// Where links need privileges there is no mirror.
#[cfg(not(unix))]
fn link(_target: &Path, _dest: &Path) -> Result<()> {
    Ok(())
}

/// Point relative `path = …` dependencies that leave the workspace at the original files.
/// (Also `build = "../build.rs"`: every path a manifest names relative to itself.)
pub fn absolutize_paths(table: &mut dyn toml_edit::TableLike, dir: &Path, root: &Path) {
    absolutize(table, dir, root, &["path", "build"]);
}

/// Point the relative paths of a cargo config (`paths = [...]`, `[patch]` and
/// `[source]` entries, `[env]` values with `relative = true`) that leave the workspace at
/// the original places; `dir` is the directory holding its `.cargo`.
fn absolutize_config(doc: &mut DocumentMut, dir: &Path, root: &Path) {
    absolutize(doc.as_table_mut(), dir, root, &["path", "directory", "local-registry"]);
    if let Some(paths) = doc.get_mut("paths").and_then(Item::as_array_mut) {
        for p in paths.iter_mut() {
            if let Some(abs) = p.as_str().and_then(|p| leaving(p, dir, root)) {
                *p = abs.into();
            }
        }
    }
    if let Some(env) = doc.get_mut("env").and_then(Item::as_table_like_mut) {
        for (_, item) in env.iter_mut() {
            let Some(t) = item.as_table_like_mut() else { continue };
            if t.get("relative").and_then(Item::as_bool) == Some(true)
                && let Some(abs) = t.get("value").and_then(Item::as_str).and_then(|p| leaving(p, dir, root))
            {
                t.insert("value", value(abs));
            }
        }
    }
}

/// `p` as an absolute path, if it is relative to `dir` and leaves `root`.
fn leaving(p: &str, dir: &Path, root: &Path) -> Option<String> {
    let target = normalize(&dir.join(p));
    let inside = target.starts_with(normalize(root));
    (!Path::new(p).is_absolute() && !inside).then(|| target.to_string_lossy().into_owned())
}

fn absolutize(table: &mut dyn toml_edit::TableLike, dir: &Path, root: &Path, keys: &[&str]) {
    for (key, item) in table.iter_mut() {
        if keys.contains(&key.get())
            && let Some(p) = item.as_str()
        {
            if let Some(abs) = leaving(p, dir, root) {
                *item = value(abs);
            }
            continue;
        }
        if let Some(t) = item.as_table_like_mut() {
            absolutize(t, dir, root, keys);
        } else if let Some(arr) = item.as_array_of_tables_mut() {
            for t in arr.iter_mut() {
                absolutize(t, dir, root, keys);
            }
        }
    }
}

/// A file that names paths relative to itself: a manifest (not a member's, which
/// [`Scratch::prepare`] writes) or a cargo config. Its text for the copy, with every
/// relative path that leaves the workspace made absolute; `None` for any other file.
fn rewritten(path: &Path, root: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let dir = path.parent()?;
    let is_config = matches!(name, "config.toml" | "config") && dir.file_name()? == ".cargo";
    if name != "Cargo.toml" && !is_config {
        return None;
    }
    let mut doc: DocumentMut = fs::read_to_string(path).ok()?.parse().ok()?;
    if is_config {
        absolutize_config(&mut doc, dir.parent()?, root);
    } else {
        absolutize_paths(doc.as_table_mut(), dir, root);
    }
    Some(doc.to_string())
}

/// Resolve `.` and `..` without touching the filesystem.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Hard-link every file under `from` into `to` (copying where links are impossible).
fn link_tree(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let dest = to.join(entry.file_name());
        let ty = entry.file_type()?;
        if ty.is_dir() {
            link_tree(&entry.path(), &dest)?;
        } else if ty.is_file() && fs::hard_link(entry.path(), &dest).is_err() {
            fs::copy(entry.path(), &dest)?;
        }
    }
    Ok(())
}

/// Copy the tree `root` into `to`, skipping `excluded` paths; unchanged files are not
/// rewritten. Symlinks stay symlinks (see [`copy_link`]); manifests and cargo configs
/// get their paths that leave the tree made absolute, so every relative path the build
/// reads resolves to the same place as from the user's tree.
pub(crate) fn copy_tree(root: &Path, to: &Path, excluded: &[PathBuf]) -> Result<()> {
    copy_dir(&Copying { root, excluded, mirrored: &[] }, root, to)
}

/// One copy of a tree: its root, what is left out, and the physical paths outside it
/// that the copy's ancestors mirror (a relative link to one keeps its text).
struct Copying<'a> {
    root: &'a Path,
    excluded: &'a [PathBuf],
    mirrored: &'a [PathBuf],
}

fn copy_dir(c: &Copying, from: &Path, to: &Path) -> Result<()> {
    unlink(to)?;
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from).with_context(|| format!("failed to read {}", from.display()))? {
        let entry = entry?;
        let path = entry.path();
        let dest = to.join(entry.file_name());
        if c.excluded.iter().any(|e| e == &path) {
            // Written over by us: never through a link into the user's tree.
            unlink(&dest)?;
            continue;
        }
        let ty = entry.file_type()?;
        if ty.is_dir() {
            copy_dir(c, &path, &dest)?;
        } else if ty.is_file() {
            unlink(&dest)?;
            if let Some(text) = rewritten(&path, c.root) {
                write_if_changed(&dest, &text)?;
                continue;
            }
            copy_file(&path, &dest)?;
        } else if ty.is_symlink() {
            copy_link(c, &path, &dest)?;
        }
    }
    remove_stale(from, to)
}

/// Copy the file `path` to `dest` unless `dest` already holds the same bytes.
fn copy_file(path: &Path, dest: &Path) -> Result<()> {
    let same = match (fs::metadata(path), fs::metadata(dest)) {
        (Ok(a), Ok(b)) => a.len() == b.len() && fs::read(path)? == fs::read(dest)?,
        _ => false,
    };
    if !same {
        fs::copy(path, dest)
            .with_context(|| format!("failed to copy {} to {}", path.display(), dest.display()))?;
    }
    Ok(())
}

/// Remove `path` if it is a symlink (the copy's own; what it points to is untouched).
fn unlink(path: &Path) -> Result<()> {
    if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        fs::remove_file(path).with_context(|| format!("failed to remove {}", path.display()))?;
    }
    Ok(())
}

/// Copy the symlink `path` as a symlink: a relative link that stays inside the tree, or
/// leads to a path the copy's ancestors mirror, keeps its text (so it points inside the
/// copy), any other points where the user's link points. A link to a directory holding
/// files we write over (schema sources, manifests) is copied as a directory, so nothing
/// is written through it.
#[cfg(unix)]
fn copy_link(c: &Copying, path: &Path, dest: &Path) -> Result<()> {
    let target = fs::read_link(path).with_context(|| format!("failed to read link {}", path.display()))?;
    let parent = path.parent().unwrap_or(c.root);
    let resolved = normalize(&parent.join(&target));
    if fs::metadata(path).is_ok_and(|m| m.is_dir()) && c.excluded.iter().any(|e| e.starts_with(path)) {
        return copy_dir(c, path, dest);
    }
    let physical = fs::canonicalize(parent).map(|p| normalize(&p.join(&target)));
    let mirrored = physical.is_ok_and(|p| c.mirrored.iter().any(|m| p.starts_with(m)));
    let leaves = target.is_relative() && !resolved.starts_with(normalize(c.root)) && !mirrored;
    let text = if leaves { resolved } else { target };
    if fs::read_link(dest).is_ok_and(|t| t == text) {
        return Ok(());
    }
    match fs::symlink_metadata(dest) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(dest)?,
        Ok(_) => fs::remove_file(dest)?,
        Err(_) => {}
    }
    std::os::unix::fs::symlink(&text, dest)
        .with_context(|| format!("failed to link {} to {}", dest.display(), text.display()))
}

/// Where links need privileges, copy what the link points to.
#[cfg(not(unix))]
fn copy_link(c: &Copying, path: &Path, dest: &Path) -> Result<()> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => copy_dir(c, path, dest),
        Ok(_) => fs::copy(path, dest).map(drop).map_err(Into::into),
        Err(_) => Ok(()),
    }
}

/// Files of ours in the copy with no counterpart in the user's tree, kept between runs.
const GENERATED: [&str; 2] = ["Cargo.lock", "__mutfuzz_doctests.rs"];

/// Remove what the user has deleted since the last run: a stale `tests/old.rs` in the
/// copy would still be compiled and run.
fn remove_stale(from: &Path, to: &Path) -> Result<()> {
    for entry in fs::read_dir(to)? {
        let entry = entry?;
        let name = entry.file_name();
        if fs::symlink_metadata(from.join(&name)).is_ok() || GENERATED.iter().any(|g| name == *g) {
            continue;
        }
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            remove_stale(&from.join(&name), &path)?;
            // Kept only if it still holds something generated.
            let _ = fs::remove_dir(&path);
        } else {
            fs::remove_file(&path).with_context(|| format!("failed to remove stale {}", path.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_follows_deletions_but_keeps_generated_files() {
        let (from, to) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let put = |root: &Path, rel: &str| {
            let p = root.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, rel).unwrap();
        };
        put(from.path(), "src/lib.rs");
        put(from.path(), "tests/old.rs");
        put(from.path(), "old/a.rs");
        copy_tree(from.path(), to.path(), &[]).unwrap();
        put(to.path(), "tests/__mutfuzz_doctests.rs");
        put(to.path(), "Cargo.lock");
        fs::remove_file(from.path().join("tests/old.rs")).unwrap();
        fs::remove_dir_all(from.path().join("old")).unwrap();
        copy_tree(from.path(), to.path(), &[]).unwrap();
        assert!(to.path().join("src/lib.rs").is_file());
        assert!(!to.path().join("tests/old.rs").exists());
        assert!(!to.path().join("old").exists());
        assert!(to.path().join("tests/__mutfuzz_doctests.rs").is_file());
        assert!(to.path().join("Cargo.lock").is_file());
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_stay_symlinks_pointing_where_the_users_point() {
        use std::os::unix::fs::symlink;
        let outer = tempfile::tempdir().unwrap();
        let (from, to) = (outer.path().join("ws"), outer.path().join("copy"));
        fs::create_dir_all(from.join("data/dir")).unwrap();
        fs::create_dir_all(from.join("src")).unwrap();
        fs::write(from.join("data/real.txt"), "real").unwrap();
        fs::write(outer.path().join("shared.txt"), "shared").unwrap();
        fs::write(from.join("src/lib.rs"), "user's").unwrap();
        symlink("real.txt", from.join("data/inside.txt")).unwrap();
        symlink("dir", from.join("data/dirlink")).unwrap();
        symlink("../../shared.txt", from.join("data/outside.txt")).unwrap();
        symlink(outer.path().join("shared.txt"), from.join("data/absolute.txt")).unwrap();
        // A linked directory holding a file we write over is copied as a directory.
        symlink("src", from.join("alias")).unwrap();
        let excluded = [from.join("src/lib.rs"), from.join("alias/lib.rs")];
        copy_tree(&from, &to, &excluded).unwrap();
        let link = |rel: &str| fs::read_link(to.join(rel)).unwrap();
        assert_eq!(link("data/inside.txt"), Path::new("real.txt"));
        assert_eq!(link("data/dirlink"), Path::new("dir"));
        assert_eq!(link("data/outside.txt"), outer.path().join("shared.txt"));
        assert_eq!(link("data/absolute.txt"), outer.path().join("shared.txt"));
        assert_eq!(fs::read_to_string(to.join("data/outside.txt")).unwrap(), "shared");
        assert!(fs::symlink_metadata(to.join("alias")).unwrap().is_dir());
        fs::write(to.join("alias/lib.rs"), "schema").unwrap();
        assert_eq!(fs::read_to_string(from.join("src/lib.rs")).unwrap(), "user's");
        // A second copy changes nothing, and a link the user replaced by a file follows.
        copy_tree(&from, &to, &excluded).unwrap();
        assert_eq!(link("data/inside.txt"), Path::new("real.txt"));
        fs::remove_file(from.join("data/inside.txt")).unwrap();
        fs::write(from.join("data/inside.txt"), "now a file").unwrap();
        copy_tree(&from, &to, &excluded).unwrap();
        assert!(fs::symlink_metadata(to.join("data/inside.txt")).unwrap().is_file());
        assert_eq!(fs::read_to_string(from.join("data/real.txt")).unwrap(), "real");
    }

    #[test]
    fn cargo_configs_and_manifests_in_the_tree_keep_their_places() {
        let outer = tempfile::tempdir().unwrap();
        let (from, to) = (outer.path().join("ws"), outer.path().join("copy"));
        fs::create_dir_all(from.join(".cargo")).unwrap();
        fs::create_dir_all(from.join("vendored")).unwrap();
        fs::write(
            from.join(".cargo/config.toml"),
            "paths = [\"../dep\", \"inside\"]\n[patch.crates-io]\nx = { path = \"../x\" }\n\
             [source.v]\ndirectory = \"../vendor\"\n[env]\nDATA = { value = \"../data\", relative = true }\n\
             PLAIN = \"../plain\"\n",
        )
        .unwrap();
        fs::write(from.join("vendored/Cargo.toml"), "[dependencies]\ny = { path = \"../../y\" }\n").unwrap();
        copy_tree(&from, &to, &[]).unwrap();
        let out = outer.path().display();
        let config = fs::read_to_string(to.join(".cargo/config.toml")).unwrap();
        for want in [
            format!("paths = [\"{out}/dep\", \"inside\"]"),
            format!("x = {{ path = \"{out}/x\" }}"),
            format!("directory = \"{out}/vendor\""),
            format!("DATA = {{ value = \"{out}/data\", relative = true }}"),
            "PLAIN = \"../plain\"".to_owned(),
        ] {
            assert!(config.contains(&want), "{want} in {config}");
        }
        let manifest = fs::read_to_string(to.join("vendored/Cargo.toml")).unwrap();
        assert!(manifest.contains(&format!("y = {{ path = \"{out}/y\" }}")), "{manifest}");
    }

    /// Every path under `dir`, links followed, each canonicalized; a link loop or a
    /// dangling link is an error.
    fn walk_following_links(dir: &Path, seen: &mut std::collections::HashSet<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let real = fs::canonicalize(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if seen.insert(real.clone()) && real.is_dir() {
                walk_following_links(&path, seen);
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn above_the_copy_is_only_what_the_sources_name_copied_never_linked() {
        use std::os::unix::fs::symlink;
        let outer = tempfile::tempdir().unwrap();
        let home = fs::canonicalize(outer.path()).unwrap().join("home");
        let root = home.join("src/app");
        let put = |p: &Path, text: &str| {
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        };
        put(&root.join("Cargo.toml"), "[package]\nname = \"app\"\n");
        // From src/: `../../shared` is home/src/shared; from the package: `../shared`.
        put(&root.join("src/lib.rs"), "const G: &str = include_str!(\"../../shared/greet.txt\");\n");
        put(&root.join("tests/it.rs"), "fs::read(format!(\"../data/{name}.bin\"))\n");
        put(&root.join("build.rs"), "concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/../../notes.txt\")\n");
        put(&home.join("src/shared/greet.txt"), "hello");
        put(&home.join("src/shared/unnamed.txt"), "not named, not copied");
        put(&home.join("src/data/a.bin"), "a");
        put(&home.join("src/linked/x.txt"), "x");
        put(&home.join("src/sibling/secret.txt"), "a sibling project");
        put(&home.join("notes.txt"), "notes");
        put(&home.join("private.txt"), "private");
        symlink("../../linked", root.join("tests/linked")).unwrap();
        let layout = Layout::new(&root.join("target"));
        let work = layout.work().join("src/app");
        // What an older layout left: a link to every entry of both ancestors.
        fs::create_dir_all(layout.work().join("src")).unwrap();
        symlink(home.join("private.txt"), layout.work().join("private.txt")).unwrap();
        symlink(home.join("src/sibling"), layout.work().join("src/sibling")).unwrap();
        symlink(home.join("src/shared"), layout.work().join("src/shared")).unwrap();
        let scratch = Scratch {
            layout: layout.clone(),
            work: work.clone(),
            root: root.clone(),
            trim_dev_deps: false,
            doctests: true,
        };
        assert_eq!(scratch.work, Scratch::new_at(&layout, &root).work);
        for _ in 0..2 {
            scratch.copy_workspace(&root.join("target"), &[root.join("target")]).unwrap();
            let read = |rel: &str| fs::read_to_string(work.join(rel)).unwrap();
            assert_eq!(read("src/../../shared/greet.txt"), "hello");
            assert_eq!(read("../data/a.bin"), "a");
            assert_eq!(read("../../notes.txt"), "notes");
            assert_eq!(read("tests/linked/x.txt"), "x");
            assert_eq!(fs::read_link(work.join("tests/linked")).unwrap(), Path::new("../../linked"));
            // The literal names greet.txt alone: its directory's other files stay out.
            assert!(!work.join("../shared/unnamed.txt").exists());
            assert!(!work.join("../sibling").exists() && !work.join("../../private.txt").exists());
            let mut seen = std::collections::HashSet::new();
            walk_following_links(layout.root(), &mut seen);
            let leaving: Vec<_> = seen.iter().filter(|p| !p.starts_with(&root)).collect();
            assert!(leaving.is_empty(), "outside the workspace: {leaving:?}");
            assert!(seen.len() > 6, "{seen:?}");
        }
    }

    #[test]
    fn tokens_with_a_parent_component_are_found_in_any_rust_text() {
        let text = "include_str!(\"../x/y.txt\"); #[path = \"a/../../b.rs\"] \"/../c\" 0..n \"..\" x..=y";
        assert_eq!(parent_tokens(text).collect::<Vec<_>>(), ["../x/y.txt", "a/../../b.rs", "/../c"]);
    }

    #[test]
    fn an_engine_dependency_by_version_is_patched_to_the_carried_copy() {
        let by_version =
            |text: &str| depends_on_the_engine_by_version(text.parse::<DocumentMut>().unwrap().as_table());
        assert!(by_version("[dev-dependencies]\nmutfuzz = \"0.1\"\n"));
        assert!(by_version("[dev-dependencies]\nengine = { package = \"mutfuzz\", version = \"0.1\" }\n"));
        assert!(by_version("[target.'cfg(unix)'.dev-dependencies]\nmutfuzz = { version = \"0.1\" }\n"));
        assert!(by_version("[workspace.dependencies]\nmutfuzz = \"0.1\"\n"));
        assert!(!by_version("[dev-dependencies]\nmutfuzz = { path = \"mutfuzz/engine/mutfuzz\" }\n"));
        assert!(!by_version("[dev-dependencies]\nmutfuzz = { workspace = true }\nserde = \"1\"\n"));
        assert!(!by_version("[dependencies]\nserde = \"1\"\n"));

        let layout = Layout::new(Path::new("/t"));
        let mut doc: DocumentMut =
            "[package]\nname = \"p\"\n\n[patch.crates-io]\nmutfuzz = { path = \"elsewhere\" }\nx = { path = \"x\" }\n"
                .parse()
                .unwrap();
        patch_engine_to_the_carried_copy(&mut doc, &layout).unwrap();
        let patch = &doc["patch"]["crates-io"];
        for name in crate::workspace::engine::crates() {
            assert_eq!(
                patch[name]["path"].as_str(),
                Some(layout.engine_crate(name).to_str().unwrap()),
                "{doc}"
            );
        }
        assert_eq!(patch["x"]["path"].as_str(), Some("x"), "{doc}");
    }

    #[test]
    fn relative_paths_leaving_the_workspace_become_absolute() {
        let mut doc: DocumentMut =
            "[dependencies]\na = { path = \"../outside\" }\nb = { path = \"inside\" }\n".parse().unwrap();
        absolutize_paths(doc.as_table_mut(), Path::new("/ws/pkg"), Path::new("/ws/pkg"));
        let text = doc.to_string();
        assert!(text.contains("a = { path = \"/ws/outside\" }"), "{text}");
        assert!(text.contains("b = { path = \"inside\" }"), "{text}");
    }
}
