//! Finds the mutants of a Rust package and writes its mutant schema: the package's
//! source rewritten once so that it contains every mutant, each switched on at run time
//! by its id through [`mutfuzz_rt`](https://docs.rs/mutfuzz-rt).
//!
//! ```
//! use mutfuzz_mutate::{Config, Discovery};
//!
//! let src = "pub fn add(a: u32, b: u32) -> u32 { a + b }\n";
//! let d = Discovery::from_source("src/lib.rs", src, &Config::default()).unwrap();
//! let names: Vec<String> = d.mutants.iter().map(|m| m.name()).collect();
//! assert_eq!(names[0], "src/lib.rs:1:37: replace add -> u32 with 0");
//! assert!(names.contains(&"src/lib.rs:1:39: replace + with - in add".to_owned()));
//! // With every mutant enabled, the schema dispatches on the active mutant id.
//! let schema = d.render(0, &|_| true).text;
//! assert!(schema.contains("match ::mutfuzz_rt::at(__m, "));
//! ```
//!
//! Schema text is spliced into the user's file, never re-printed, so every line of the
//! schema is the same line of the user's source (see [`Rendered`]).

#![deny(missing_docs)]

pub mod config;
mod discover;
pub mod doctest;
mod fnvalue;
mod mutant;
mod operator;
mod site;
pub mod skip;
mod source;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

pub use config::Config;
pub use mutant::{LineCol, Mutant, Span};
pub use operator::Operator;
pub use site::{Owner, Rendered, Site};
pub use skip::SkipCounts;

use discover::{ExternalMod, FileContext, discover_file};
use site::{Edit, Piece};
use source::SourceText;

/// Lints that the schema's wrappers may trip; allowed at each crate root so that a
/// `#![deny(warnings)]` crate still builds.
const CRATE_ROOT_ALLOW: &str = "#![allow(unused_parens, unused_braces, unreachable_code, unused_comparisons, unknown_lints, clippy::all)] ";

/// One crate target of a package to discover from: its root file.
#[derive(Clone, Debug)]
pub struct CrateRoot {
    /// Absolute path of `lib.rs`, `main.rs`, `src/bin/x.rs`, ….
    pub path: PathBuf,
}

/// A package to discover.
#[derive(Clone, Debug)]
pub struct PackageSpec {
    /// Package name.
    pub name: String,
    /// Directory holding its `Cargo.toml`.
    pub root: PathBuf,
    /// Its library and binary targets.
    pub crate_roots: Vec<CrateRoot>,
    /// Edition 2015 needs `extern crate mutfuzz_rt;` in each crate root.
    pub edition_2015: bool,
}

/// One source file with its sites and planned edits.
#[derive(Debug)]
pub struct SchemaFile {
    /// Package it belongs to.
    pub package: String,
    /// Path relative to the workspace root, with `/` separators.
    pub rel_path: String,
    /// Absolute path of the user's file.
    pub path: PathBuf,
    /// Its sites, in id order.
    pub sites: Vec<Site>,
    /// Its doctests.
    pub doctests: Vec<doctest::Doctest>,
    source: SourceText,
    edits: Vec<Edit>,
}

impl SchemaFile {
    /// The user's source text.
    pub fn source(&self) -> &str {
        self.source.text()
    }
}

/// Everything discovered in one or more packages.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Files with their sites; every followed module file, even one with no mutants.
    pub files: Vec<SchemaFile>,
    /// All mutants, by increasing id (ids from 1 without gaps).
    pub mutants: Vec<Mutant>,
    /// Regions left unmutated, by reason.
    pub skipped: SkipCounts,
    /// Problems that did not stop discovery (a `mod` whose file is missing, …).
    pub warnings: Vec<String>,
}

impl Discovery {
    /// Discover the mutants of one source string, as the crate root `rel_path` of a package `main`.
    pub fn from_source(rel_path: &str, text: &str, config: &Config) -> Result<Discovery> {
        let mut d = Discovery::default();
        let mut next_id = 1;
        let root = Some((Some(CRATE_ROOT_ALLOW.to_owned()), false));
        d.add_file(
            "main",
            rel_path,
            Path::new(rel_path),
            text.to_owned(),
            Vec::new(),
            config,
            &mut next_id,
            root,
            false,
        )?;
        Ok(d)
    }

    /// Discover the mutants of `package`, whose files are named relative to `workspace_root`,
    /// continuing the ids after those already found.
    pub fn add_package(
        &mut self,
        package: &PackageSpec,
        workspace_root: &Path,
        config: &Config,
    ) -> Result<()> {
        let mut next_id = self.mutants.last().map_or(1, |m| m.id + 1);
        let mut seen: HashSet<PathBuf> = self.files.iter().map(|f| f.path.clone()).collect();
        // (file, is a crate root or mod.rs, module path)
        let mut queue: Vec<(PathBuf, bool, Vec<String>, bool)> =
            package.crate_roots.iter().map(|r| (r.path.clone(), true, Vec::new(), true)).collect();
        queue.reverse();
        while let Some((path, mod_rs, namespace, is_root)) = queue.pop() {
            let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
            if !seen.insert(canonical) {
                continue;
            }
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("failed to read source file {}", path.display()))?;
            let rel_path = rel_slash(&path, workspace_root);
            let pkg_rel = rel_slash(&path, &package.root);
            let cfg_excluded = config.excludes_file(&pkg_rel);
            let prelude = is_root.then(|| CRATE_ROOT_ALLOW.to_owned());
            let externals = self.add_file(
                &package.name,
                &rel_path,
                &path,
                text,
                namespace.clone(),
                config,
                &mut next_id,
                Some((prelude, cfg_excluded)),
                package.edition_2015,
            )?;
            let mut children = Vec::new();
            for m in externals {
                match resolve_mod(&path, mod_rs, &m) {
                    Some(child) => {
                        let child_mod_rs = child.file_name().is_some_and(|n| n == "mod.rs");
                        let mut ns = namespace.clone();
                        ns.extend(m.path.iter().map(|(n, _)| n.clone()));
                        children.push((child, child_mod_rs, ns, false));
                    }
                    None => self.warnings.push(format!(
                        "{rel_path}: no file found for `mod {}`; its code is not mutated",
                        m.path.last().map(|(n, _)| n.as_str()).unwrap_or("?")
                    )),
                }
            }
            children.reverse();
            queue.extend(children);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn add_file(
        &mut self,
        package: &str,
        rel_path: &str,
        path: &Path,
        text: String,
        namespace: Vec<String>,
        config: &Config,
        next_id: &mut u32,
        root: Option<(Option<String>, bool)>,
        edition_2015: bool,
    ) -> Result<Vec<ExternalMod>> {
        let (prelude, excluded) = root.unwrap_or((None, false));
        // A byte-order mark is not part of the token stream; positions count from after it.
        let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let file = syn::parse_file(&text[bom..]).with_context(|| format!("failed to parse {rel_path}"))?;
        let source = SourceText::new(text[bom..].to_owned());
        let cx = FileContext { rel_path, package, namespace, config };
        let mut found = if excluded {
            let mut skipped = SkipCounts::default();
            skipped.add(skip::SkipReason::Config);
            // Still follow its modules: only this file is excluded.
            let mut id = *next_id;
            let d = discover_file(&source, &file, &cx, &mut id);
            discover::FileDiscovery { external_mods: d.external_mods, skipped, ..Default::default() }
        } else {
            discover_file(&source, &file, &cx, next_id)
        };
        if let Some(prelude) = prelude {
            // After the last `#![…]` (a later `#![deny(warnings)]` would override the
            // allowance), but never after a `//!` comment, which would swallow it.
            let at = file
                .attrs
                .iter()
                .filter(|a| matches!(a.style, syn::AttrStyle::Inner(_)))
                .map(|a| {
                    let span = syn::spanned::Spanned::span(a);
                    (source.offset(span.start()), source.offset(span.end()))
                })
                .filter(|&(start, _)| source.text()[start..].starts_with("#!"))
                .map(|(_, end)| end)
                .max()
                .unwrap_or(0);
            found.edits.insert(0, Edit { start: at, end: at, site: None, piece: Piece::Text(prelude) });
            if edition_2015 {
                // An item: it must follow every inner attribute and doc comment, so it
                // goes just before the first item (or at the end of an item-less file).
                let first_item = file
                    .items
                    .first()
                    .map(|i| source.offset(syn::spanned::Spanned::span(i).start()))
                    .unwrap_or(source.text().len());
                let piece = Piece::Text("extern crate mutfuzz_rt; ".to_owned());
                found.edits.push(Edit { start: first_item, end: first_item, site: None, piece });
            }
            found.edits.sort_by_key(|e| e.start);
        }
        let edits = found.edits;
        self.skipped.merge(&found.skipped);
        self.mutants.extend(found.mutants);
        self.files.push(SchemaFile {
            package: package.to_owned(),
            rel_path: rel_path.to_owned(),
            path: path.to_owned(),
            sites: found.sites,
            doctests: doctest::doctests(&file),
            source,
            edits,
        });
        Ok(found.external_mods)
    }

    /// Render file `index` of [`Discovery::files`] with the mutants that pass `enabled`.
    pub fn render(&self, index: usize, enabled: &dyn Fn(u32) -> bool) -> Rendered {
        let f = &self.files[index];
        site::render(f.source.text(), &f.edits, &f.sites, enabled)
    }

    /// The mutant with this id.
    pub fn mutant(&self, id: u32) -> Option<&Mutant> {
        let i = id.checked_sub(1)? as usize;
        self.mutants.get(i).filter(|m| m.id == id)
    }
}

fn rel_slash(path: &Path, base: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// Find the file of `mod name;` declared in `parent` (a crate root or `mod.rs` when `mod_rs`).
fn resolve_mod(parent: &Path, mod_rs: bool, m: &ExternalMod) -> Option<PathBuf> {
    let ((name, path_attr), inline) = m.path.split_last()?;
    let parent_dir = parent.parent()?;
    let mut dir = if mod_rs || (path_attr.is_some() && inline.is_empty()) {
        parent_dir.to_owned()
    } else {
        parent.with_extension("")
    };
    for (inline_name, inline_path) in inline {
        dir.push(inline_path.as_deref().unwrap_or(inline_name));
    }
    let candidates = match path_attr {
        Some(p) => vec![dir.join(p)],
        None => vec![dir.join(format!("{name}.rs")), dir.join(name).join("mod.rs")],
    };
    candidates.into_iter().find(|c| c.is_file())
}

#[cfg(test)]
mod tests;
