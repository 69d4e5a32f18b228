//! Doctests compiled once: each package's doctests written as an ordinary integration
//! test, `tests/__mutfuzz_doctests.rs`, in the scratch copy, so the schema build compiles
//! them with everything else and a mutant run costs milliseconds, not a rustdoc compile.
//!
//! A doctest that does not compile this way (crate attributes, `#[macro_use]`, …) is
//! dropped from the file and left to `cargo test --doc`, which still runs it.

use std::path::{Path, PathBuf};

use anyhow::Result;
use mutfuzz_mutate::Discovery;

use crate::workspace::Workspace;
use crate::workspace::fs_util::write_if_changed;
use crate::workspace::scratch::Scratch;

/// The test target's name and file name (declared in the scratch manifests by [`Scratch`]).
pub use crate::workspace::scratch::DOCTEST_TARGET as TARGET;

/// One doctest in the generated file.
#[derive(Clone, Debug)]
pub struct Doctest {
    /// Its file, relative to the package root, as rustdoc names it (`src/lib.rs`).
    pub file: String,
    /// Line of its opening fence.
    pub fence_line: usize,
    code: String,
    should_panic: bool,
    /// Still in the file (it compiled, or has not been tried).
    pub enabled: bool,
    /// Lines it occupies in the generated file, 1-based, inclusive.
    lines: (usize, usize),
}

impl Doctest {
    /// The test function's name (and libtest's name for it).
    pub fn test_name(&self) -> String {
        let file: String =
            self.file.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        format!("doctest_{file}_line_{}", self.fence_line)
    }
}

/// The generated doctest target of one package.
#[derive(Clone, Debug)]
pub struct DoctestTarget {
    /// The generated file, in the scratch copy.
    pub path: PathBuf,
    /// The library's crate name.
    lib: String,
    /// The doctests.
    pub entries: Vec<Doctest>,
}

impl DoctestTarget {
    /// The doctests of every package with a library, from the discovered files.
    pub fn collect(ws: &Workspace, scratch: &Scratch, discovery: &Discovery) -> Vec<DoctestTarget> {
        let mut targets = Vec::new();
        for p in &ws.packages {
            let Some(lib) = &p.lib_name else { continue };
            let entries: Vec<Doctest> = discovery
                .files
                .iter()
                .filter(|f| f.package == p.name)
                .flat_map(|f| {
                    let file = rel_slash(&f.path, &p.root);
                    f.doctests.iter().map(move |d| Doctest {
                        file: file.clone(),
                        fence_line: d.fence_line,
                        code: d.code.clone(),
                        should_panic: d.should_panic,
                        enabled: true,
                        lines: (0, 0),
                    })
                })
                .collect();
            if entries.is_empty() {
                continue;
            }
            let path = scratch.in_work(&crate::workspace::scratch::doctest_file(&p.root));
            targets.push(DoctestTarget { path, lib: lib.clone(), entries });
        }
        targets
    }

    /// Write the file with the enabled doctests.
    pub fn write(&mut self) -> Result<()> {
        let mut text = String::from(
            "// Written by cargo mutfuzz: this package's doctests as ordinary tests.\n\
             #![allow(warnings)]\n",
        );
        text.push_str(&format!("extern crate {};\n", self.lib));
        text.push_str(
            "trait __MutfuzzDoctestEnd { fn end(self); }\n\
             impl __MutfuzzDoctestEnd for () { fn end(self) {} }\n\
             impl<E: ::std::fmt::Debug> __MutfuzzDoctestEnd for ::std::result::Result<(), E> {\n\
             \x20   fn end(self) { self.unwrap() }\n}\n",
        );
        for e in &mut self.entries {
            if !e.enabled {
                e.lines = (0, 0);
                continue;
            }
            let start = text.lines().count() + 1;
            text.push_str("#[test]\n");
            if e.should_panic {
                text.push_str("#[should_panic]\n");
            }
            let name = e.test_name();
            // rustdoc wraps a doctest in `fn main`; a closure does the same and lets a
            // doctest end in `Ok::<(), E>(())` and use `?`.
            if e.code.contains("fn main") {
                text.push_str(&format!("fn {name}() {{\n{}\nlet _ = main();\n}}\n", e.code));
            } else {
                text.push_str(&format!(
                    "fn {name}() {{\n__MutfuzzDoctestEnd::end((|| {{\n{}\n}})());\n}}\n",
                    e.code
                ));
            }
            e.lines = (start, text.lines().count());
        }
        write_if_changed(&self.path, &text)?;
        Ok(())
    }

    /// Drop the doctest holding `line` of the generated file (a compile error there);
    /// without one, drop them all. Returns whether anything changed. A doctest dropped by
    /// an earlier error of the same build still holds its lines: its second error must
    /// not count as an error outside every doctest.
    pub fn disable_at(&mut self, line: usize) -> bool {
        if let Some(e) = self.entries.iter_mut().find(|e| e.lines.0 <= line && line <= e.lines.1) {
            return std::mem::replace(&mut e.enabled, false);
        }
        let any = self.entries.iter().any(|e| e.enabled);
        for e in &mut self.entries {
            e.enabled = false;
        }
        any
    }

    /// Is rustdoc's doctest `name` (`src/lib.rs - f (line 21)`) compiled here?
    pub fn covers(&self, name: &str) -> bool {
        self.entries.iter().any(|e| {
            e.enabled
                && name.starts_with(&format!("{} - ", e.file))
                && name.ends_with(&format!("(line {})", e.fence_line))
        })
    }
}

fn rel_slash(path: &Path, base: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doctests_are_written_as_tests_and_a_broken_one_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let entry = |line, code: &str, should_panic| Doctest {
            file: "src/lib.rs".into(),
            fence_line: line,
            code: code.into(),
            should_panic,
            enabled: true,
            lines: (0, 0),
        };
        let mut t = DoctestTarget {
            path: dir.path().join("t.rs"),
            lib: "demo".into(),
            entries: vec![entry(3, "assert!(true);", false), entry(9, "panic!();", true)],
        };
        t.write().unwrap();
        let text = std::fs::read_to_string(&t.path).unwrap();
        assert!(text.contains("extern crate demo;"));
        assert!(text.contains("fn doctest_src_lib_rs_line_3() {"));
        assert!(text.contains("#[should_panic]\nfn doctest_src_lib_rs_line_9() {"));
        assert!(t.covers("src/lib.rs - f (line 9)"));
        assert!(!t.covers("src/lib.rs - f (line 10)"));
        // A compile error inside the second doctest's lines drops that one only, and so
        // does a second error in it.
        let (start, _) = t.entries[1].lines;
        assert!(t.disable_at(start + 1));
        assert!(!t.disable_at(start + 2));
        assert!(t.entries[0].enabled && !t.entries[1].enabled);
        t.write().unwrap();
        assert!(!std::fs::read_to_string(&t.path).unwrap().contains("line_9"));
        assert!(!t.covers("src/lib.rs - f (line 9)"));
        // Once rewritten, the dropped doctest holds no line: an error past the first
        // doctest drops every one left.
        assert!(t.disable_at(t.entries[0].lines.1 + 1));
        assert!(!t.entries[0].enabled);
    }
}
