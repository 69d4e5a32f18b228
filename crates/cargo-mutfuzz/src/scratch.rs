//! The scratch copy, `target/mutfuzz/work/`: the user's workspace copied and rewritten
//! into the schema, its manifests pointed at the engine crates written beside it. The
//! user's own files are never written.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use mutfuzz_mutate::Discovery;
use toml_edit::{DocumentMut, Item, Table, value};

use crate::fs_util::write_if_changed;
use crate::layout::Layout;
use crate::workspace::Workspace;

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
    /// left out of the copy (see [`crate::dev_deps`]).
    pub trim_dev_deps: bool,
}

/// Fail with the way out unless `target/mutfuzz/` can be written (a read-only crate
/// directory, or target directory).
pub fn check_writable(layout: &Layout) -> Result<()> {
    crate::fs_util::ensure_writable_dir(
        layout.root(),
        "the scratch directory",
        "set CARGO_TARGET_DIR to a writable directory (the scratch copy and builds go there)",
    )
}

impl Scratch {
    /// The scratch copy of `ws`: at `work/<parent's name>/<root's name>`, so that the
    /// ancestors of the copy can mirror the user's (see [`Scratch::prepare`]).
    pub fn new(ws: &Workspace) -> Scratch {
        let layout = Layout::new(&ws.target_dir);
        let physical = fs::canonicalize(&ws.root).unwrap_or_else(|_| ws.root.clone());
        let names: Vec<_> = physical.ancestors().take(MIRRORED_LEVELS).filter_map(Path::file_name).collect();
        let work = names.iter().rev().fold(layout.work(), |w, n| w.join(n));
        Scratch { work, layout, root: ws.root.clone(), trim_dev_deps: false }
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
        fs::create_dir_all(&self.work)
            .with_context(|| format!("failed to create {}", self.work.display()))?;
        let mut excluded: Vec<PathBuf> = vec![ws.target_dir.clone(), ws.root.join(".git")];
        excluded.extend(discovery.files.iter().map(|f| f.path.clone()));
        excluded.extend(ws.member_manifests.iter().cloned());
        excluded.push(ws.root.join("Cargo.toml"));
        excluded.push(ws.root.join("mutfuzz.out"));
        excluded.push(ws.root.join("mutfuzz.out.old"));
        excluded.extend(skip.iter().cloned());
        copy_tree(&ws.root, &self.work, &excluded)?;
        self.mirror_ancestors();
        crate::engine::write(&self.layout)?;
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
        let autotests = doc.get("package").and_then(|p| p.get("autotests")).and_then(Item::as_bool);
        let Some(package) = ws.packages.iter().find(|p| p.root.join("Cargo.toml") == manifest) else {
            return Ok(());
        };
        let has_doctests =
            discovery.files.iter().any(|f| f.package == package.name && !f.doctests.is_empty());
        if autotests != Some(false) || package.lib_name.is_none() || !has_doctests {
            return Ok(());
        }
        let file = format!("tests/{}.rs", crate::doctest_target::TARGET);
        let tests = doc.entry("test").or_insert(Item::ArrayOfTables(toml_edit::ArrayOfTables::new()));
        if let Some(tests) = tests.as_array_of_tables_mut() {
            let mut target = Table::new();
            target.insert("name", value(crate::doctest_target::TARGET));
            target.insert("path", value(file.as_str()));
            tests.push(target);
        }
        // Cargo reads every declared target's path: the file exists from the start (the
        // doctest writer fills it; with `--no-doctests` it stays an empty test).
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

    /// Make `..` from the copy lead where it leads from the user's tree, for up to
    /// [`MIRRORED_LEVELS`] levels: each ancestor of the copy under `work/` holds a symlink
    /// to every entry of the user's corresponding ancestor. So a build script's
    /// `include_str!("../../shared/x")`, or a test reading `../data`, finds the user's
    /// files. Best effort: an ancestor that cannot be read is not mirrored.
    fn mirror_ancestors(&self) {
        let physical = fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        let (mut copy, mut original) = (self.work.as_path(), physical.as_path());
        while let (Some(copy_parent), Some(original_parent)) = (copy.parent(), original.parent()) {
            if !copy_parent.starts_with(self.layout.work()) {
                break;
            }
            let _ = mirror_dir(original_parent, copy_parent, copy.file_name().unwrap_or_default());
            (copy, original) = (copy_parent, original_parent);
        }
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
                    let unused = crate::dev_deps::unused(&doc, dir, skip);
                    crate::dev_deps::remove(&mut doc, &unused);
                    let package = doc.get("package").and_then(|p| p.get("name")).and_then(Item::as_str);
                    let package = package.unwrap_or("?").to_owned();
                    trimmed.extend(unused.into_iter().map(|d| format!("{package}: {d}")));
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
                if !crate::engine::crates().contains(&name.as_str()) {
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
    for name in crate::engine::crates() {
        let mut dep = toml_edit::InlineTable::new();
        dep.insert("path", layout.engine_crate(name).to_string_lossy().as_ref().into());
        crates_io.insert(name, value(dep));
    }
    Ok(())
}

/// Whether a manifest depends on an engine crate from a registry (not by `path`), in
/// any dependency table, also a target-specific one.
fn depends_on_the_engine_by_version(manifest: &Table) -> bool {
    let tables = ["dependencies", "dev-dependencies", "build-dependencies"];
    let in_tables = |t: &dyn toml_edit::TableLike| {
        tables.iter().filter_map(|k| t.get(k).and_then(Item::as_table_like)).any(|deps| {
            deps.iter().any(|(key, item)| {
                let name = item.get("package").and_then(Item::as_str).unwrap_or(key);
                crate::engine::crates().contains(&name)
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

/// Make `copy` hold a symlink to every entry of `original` but `keep` (the copy's own
/// directory, on the way down to the copy), and nothing else.
fn mirror_dir(original: &Path, copy: &Path, keep: &std::ffi::OsStr) -> Result<()> {
    fs::create_dir_all(copy)?;
    for entry in fs::read_dir(copy)? {
        let entry = entry?;
        let name = entry.file_name();
        let want = original.join(&name);
        if name == keep || (fs::read_link(entry.path()).is_ok_and(|t| t == want) && want.exists()) {
            continue;
        }
        // Ours: a stale link, or an older layout's copy. Never followed.
        if entry.file_type()?.is_dir() {
            fs::remove_dir_all(entry.path())?;
        } else {
            fs::remove_file(entry.path())?;
        }
    }
    for entry in fs::read_dir(original)? {
        let name = entry?.file_name();
        let dest = copy.join(&name);
        if name != keep && fs::symlink_metadata(&dest).is_err() {
            link(&original.join(&name), &dest)?;
        }
    }
    Ok(())
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
    copy_dir(root, root, to, excluded)
}

fn copy_dir(root: &Path, from: &Path, to: &Path, excluded: &[PathBuf]) -> Result<()> {
    unlink(to)?;
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from).with_context(|| format!("failed to read {}", from.display()))? {
        let entry = entry?;
        let path = entry.path();
        let dest = to.join(entry.file_name());
        if excluded.iter().any(|e| e == &path) {
            // Written over by us: never through a link into the user's tree.
            unlink(&dest)?;
            continue;
        }
        let ty = entry.file_type()?;
        if ty.is_dir() {
            copy_dir(root, &path, &dest, excluded)?;
        } else if ty.is_file() {
            unlink(&dest)?;
            if let Some(text) = rewritten(&path, root) {
                write_if_changed(&dest, &text)?;
                continue;
            }
            let same = match (fs::metadata(&path), fs::metadata(&dest)) {
                (Ok(a), Ok(b)) => a.len() == b.len() && fs::read(&path)? == fs::read(&dest)?,
                _ => false,
            };
            if !same {
                fs::copy(&path, &dest)
                    .with_context(|| format!("failed to copy {} to {}", path.display(), dest.display()))?;
            }
        } else if ty.is_symlink() {
            copy_link(root, &path, &dest, excluded)?;
        }
    }
    remove_stale(from, to)
}

/// Remove `path` if it is a symlink (the copy's own; what it points to is untouched).
fn unlink(path: &Path) -> Result<()> {
    if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        fs::remove_file(path).with_context(|| format!("failed to remove {}", path.display()))?;
    }
    Ok(())
}

/// Copy the symlink `path` as a symlink: a relative link that stays inside the tree
/// keeps its text (so it points inside the copy), any other points where the user's
/// link points. A link to a directory holding files we write over (schema sources,
/// manifests) is copied as a directory, so nothing is written through it.
#[cfg(unix)]
fn copy_link(root: &Path, path: &Path, dest: &Path, excluded: &[PathBuf]) -> Result<()> {
    let target = fs::read_link(path).with_context(|| format!("failed to read link {}", path.display()))?;
    let resolved = normalize(&path.parent().unwrap_or(root).join(&target));
    if fs::metadata(path).is_ok_and(|m| m.is_dir()) && excluded.iter().any(|e| e.starts_with(path)) {
        return copy_dir(root, path, dest, excluded);
    }
    let text = if target.is_relative() && !resolved.starts_with(normalize(root)) { resolved } else { target };
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
fn copy_link(root: &Path, path: &Path, dest: &Path, excluded: &[PathBuf]) -> Result<()> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => copy_dir(root, path, dest, excluded),
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
        for name in crate::engine::crates() {
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
