//! Where the file of `mod name;` is, by rustc's rules: mod-rs and non-mod-rs files,
//! inline modules, `#[path]` (on the declaration and on enclosing inline modules) and raw
//! identifiers (`mod r#match;` is `match.rs`).

use std::path::{Path, PathBuf};

/// The `#[path = "…"]` of a module declaration.
pub use crate::syntax::path_attr;

/// The directory that a module's `mod name;` declarations resolve against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModDir {
    /// The directory of the file the module is in, extended by inline modules.
    dir: PathBuf,
    /// In a non-mod-rs file `a.rs`, declarations resolve under `a/`: this is `a`, until an
    /// inline module takes it into its own directory.
    relative: Option<String>,
}

/// A file that may hold a declared module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The file.
    pub path: PathBuf,
    /// Its own declarations resolve beside it (a `mod.rs` or a `#[path]` file), not under
    /// a directory named after the module.
    pub owns_dir: bool,
}

impl ModDir {
    /// The top level of `file`, which is a crate root, a `mod.rs` or a `#[path]` file when
    /// `owns_dir`, or else the non-mod-rs file of module `name`.
    pub fn of_file(file: &Path, owns_dir: bool, name: &str) -> ModDir {
        let dir = file.parent().map(Path::to_owned).unwrap_or_default();
        ModDir { dir, relative: (!owns_dir).then(|| unraw(name).to_owned()) }
    }

    /// Inside `mod name { … }`, with its `#[path]` if it has one (which names a directory,
    /// relative to this module's directory).
    pub fn inline(&self, name: &str, path_attr: Option<&str>) -> ModDir {
        match path_attr {
            Some(p) => ModDir { dir: self.dir.join(p), relative: None },
            None => {
                let mut dir = self.dir.clone();
                if let Some(r) = &self.relative {
                    dir.push(r);
                }
                dir.push(unraw(name));
                ModDir { dir, relative: None }
            }
        }
    }

    /// The files that may hold `mod name;` declared here, in the order rustc tries them.
    pub fn candidates(&self, name: &str, path_attr: Option<&str>) -> Vec<Candidate> {
        if let Some(p) = path_attr {
            return vec![Candidate { path: self.dir.join(p), owns_dir: true }];
        }
        let mut dir = self.dir.clone();
        if let Some(r) = &self.relative {
            dir.push(r);
        }
        let name = unraw(name);
        vec![
            Candidate { path: dir.join(format!("{name}.rs")), owns_dir: false },
            Candidate { path: dir.join(name).join("mod.rs"), owns_dir: true },
        ]
    }
}

/// `r#match` → `match`: a raw identifier names the same file as the plain one.
pub fn unraw(name: &str) -> &str {
    name.strip_prefix("r#").unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(c: Vec<Candidate>) -> Vec<(String, bool)> {
        c.into_iter().map(|c| (c.path.to_string_lossy().into_owned(), c.owns_dir)).collect()
    }

    #[test]
    fn declarations_follow_rustcs_directory_rules() {
        let root = ModDir::of_file(Path::new("src/lib.rs"), true, "");
        assert_eq!(
            paths(root.candidates("r#match", None)),
            [("src/match.rs".into(), false), ("src/match/mod.rs".into(), true)]
        );
        assert_eq!(paths(root.candidates("b", Some("other/b.rs"))), [("src/other/b.rs".into(), true)]);
        // A non-mod-rs file's declarations go under a directory named after its module.
        let a = ModDir::of_file(Path::new("src/a.rs"), false, "a");
        assert_eq!(paths(a.candidates("x", None))[0], ("src/a/x.rs".into(), false));
        // ... but its `#[path]` declarations are relative to its own directory.
        assert_eq!(paths(a.candidates("x", Some("y.rs"))), [("src/y.rs".into(), true)]);
        // Inline modules add a directory each; their `#[path]` names the directory.
        let inline = a.inline("inner", None);
        assert_eq!(paths(inline.candidates("x", None))[0], ("src/a/inner/x.rs".into(), false));
        assert_eq!(paths(inline.candidates("x", Some("z.rs"))), [("src/a/inner/z.rs".into(), true)]);
        let renamed = a.inline("thread", Some("thread_files"));
        assert_eq!(
            paths(renamed.candidates("tls", Some("tls.rs"))),
            [("src/thread_files/tls.rs".into(), true)]
        );
        assert_eq!(
            paths(renamed.inline("deeper", None).candidates("d", None))[0],
            ("src/thread_files/deeper/d.rs".into(), false)
        );
        // A `#[path]` file's declarations are its siblings.
        let by_path = ModDir::of_file(Path::new("src/other/b.rs"), true, "b");
        assert_eq!(paths(by_path.candidates("c", None))[0], ("src/other/c.rs".into(), false));
    }
}
