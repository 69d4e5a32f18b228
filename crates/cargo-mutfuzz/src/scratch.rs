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
}

impl Scratch {
    /// The scratch copy of `ws`.
    pub fn new(ws: &Workspace) -> Scratch {
        let layout = Layout::new(&ws.target_dir);
        Scratch { work: layout.work(), layout, root: ws.root.clone() }
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
    /// run-time crate, and patch the manifests.
    pub fn prepare(&self, ws: &Workspace, discovery: &Discovery, skip: &[PathBuf]) -> Result<()> {
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
        crate::engine::write(&self.layout)?;
        self.seed_dependency_cache(ws);
        self.patch_manifests(ws)
    }

    /// On the first run, start the schema's target dir from the user's own debug build:
    /// dependencies from registries are built the same way for both (their fingerprints
    /// do not depend on where the workspace lives), so cargo finds them fresh and the
    /// first schema build compiles only the user's crates. Files are hard-linked, never
    /// written; incremental state is not shared. Best effort: any failure just means a
    /// full first build.
    fn seed_dependency_cache(&self, ws: &Workspace) {
        let (from, to) = (ws.target_dir.join("debug"), self.layout.schema_target().join("debug"));
        if to.exists() || !from.is_dir() {
            return;
        }
        for sub in ["deps", "build", ".fingerprint"] {
            let _ = link_tree(&from.join(sub), &to.join(sub));
        }
    }

    fn patch_manifests(&self, ws: &Workspace) -> Result<()> {
        let mutated: Vec<PathBuf> = ws.packages.iter().map(|p| p.root.join("Cargo.toml")).collect();
        let mut manifests = ws.member_manifests.clone();
        let root_manifest = ws.root.join("Cargo.toml");
        if !manifests.contains(&root_manifest) && root_manifest.is_file() {
            manifests.push(root_manifest.clone());
        }
        for original in manifests {
            let copy = self.in_work(&original);
            let text = fs::read_to_string(&original)
                .with_context(|| format!("failed to read {}", original.display()))?;
            let mut doc: DocumentMut =
                text.parse().with_context(|| format!("failed to parse {}", original.display()))?;
            let dir = original.parent().unwrap_or(Path::new("."));
            absolutize_paths(doc.as_table_mut(), dir, &ws.root);
            if mutated.contains(&original) {
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
            }
            if original == root_manifest && !doc.contains_key("workspace") {
                // Keep the copy out of any workspace above the target dir.
                doc.insert("workspace", Item::Table(Table::new()));
            }
            write_if_changed(&copy, &doc.to_string())?;
        }
        Ok(())
    }
}

/// Point relative `path = …` dependencies that leave the workspace at the original files.
pub fn absolutize_paths(table: &mut dyn toml_edit::TableLike, dir: &Path, root: &Path) {
    for (key, item) in table.iter_mut() {
        if key == "path"
            && let Some(p) = item.as_str()
        {
            let target = dir.join(p);
            let inside = normalize(&target).starts_with(normalize(root));
            if !Path::new(p).is_absolute() && !inside {
                *item = value(normalize(&target).to_string_lossy().as_ref());
            }
            continue;
        }
        if let Some(t) = item.as_table_like_mut() {
            absolutize_paths(t, dir, root);
        } else if let Some(arr) = item.as_array_of_tables_mut() {
            for t in arr.iter_mut() {
                absolutize_paths(t, dir, root);
            }
        }
    }
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

/// Copy `from` into `to`, skipping `excluded` paths; unchanged files are not rewritten.
fn copy_tree(from: &Path, to: &Path, excluded: &[PathBuf]) -> Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from).with_context(|| format!("failed to read {}", from.display()))? {
        let entry = entry?;
        let path = entry.path();
        if excluded.iter().any(|e| e == &path) {
            continue;
        }
        let dest = to.join(entry.file_name());
        let ty = entry.file_type()?;
        if ty.is_dir() {
            copy_tree(&path, &dest, excluded)?;
        } else if ty.is_file() {
            let same = match (fs::metadata(&path), fs::metadata(&dest)) {
                (Ok(a), Ok(b)) => a.len() == b.len() && fs::read(&path)? == fs::read(&dest)?,
                _ => false,
            };
            if !same {
                fs::copy(&path, &dest)
                    .with_context(|| format!("failed to copy {} to {}", path.display(), dest.display()))?;
            }
        } else if ty.is_symlink() {
            // Follow the link: the copy must build on its own.
            if let Ok(meta) = fs::metadata(&path) {
                if meta.is_dir() {
                    copy_tree(&path, &dest, excluded)?;
                } else {
                    fs::copy(&path, &dest)?;
                }
            }
        }
    }
    remove_stale(from, to)
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
