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
mod equivalent;
mod error;
pub mod filter;
mod fnvalue;
pub mod hints;
pub mod modules;
mod mutant;
mod operator;
mod shape;
mod site;
pub mod skip;
mod source;
mod syntax;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

pub use config::Config;
pub use error::{Error, SyntaxError};
pub use filter::{MutantFilter, PatternKind};
pub use mutant::{LineCol, Mutant, SourceRange};
pub use operator::Operator;
pub use site::{Owner, Rendered, Site};
pub use skip::SkipCounts;

use discover::{ExternalMod, FileContext, discover_file};
use modules::ModDir;
use shape::Piece;
use site::Splice;
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

/// One source file with its sites and planned splices.
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
    splices: Vec<Splice>,
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
    /// Where each package's config came from, when the user should be told (a
    /// cargo-mutants config and the keys used from it); each note once.
    pub notes: Vec<String>,
}

impl Discovery {
    /// Discover the mutants of one source string, as the crate root `rel_path` of a package
    /// `main`. A syntax error is a [`SyntaxError`].
    pub fn from_source(rel_path: &str, text: &str, config: &Config) -> Result<Discovery, Error> {
        let mut d = Discovery::default();
        let mut next_id = 1;
        let file = FileSpec {
            package: "main",
            rel_path,
            path: Path::new(rel_path),
            namespace: Vec::new(),
            mod_dir: ModDir::of_file(Path::new(rel_path), true, ""),
            crate_root: true,
            excluded: false,
            edition_2015: false,
            features: Vec::new(),
        };
        d.add_file(&file, text.to_owned(), config, &mut next_id)?;
        Ok(d)
    }

    /// Discover the mutants of `package`, whose files are named relative to `workspace_root`,
    /// continuing the ids after those already found. A syntax error is a [`SyntaxError`].
    pub fn add_package(
        &mut self,
        package: &PackageSpec,
        workspace_root: &Path,
        config: &Config,
    ) -> Result<(), Error> {
        if let Some(note) = config.source_note()
            && !self.notes.contains(&note)
        {
            self.notes.push(note);
        }
        let mut next_id = self.mutants.last().map_or(1, |m| m.id + 1);
        let mut seen: HashSet<PathBuf> = self.files.iter().map(|f| f.path.clone()).collect();
        struct Queued {
            path: PathBuf,
            namespace: Vec<String>,
            mod_dir: ModDir,
            crate_root: bool,
            features: Vec<String>,
        }
        let mut queue: Vec<Queued> = package
            .crate_roots
            .iter()
            .rev()
            .map(|r| Queued {
                path: r.path.clone(),
                namespace: Vec::new(),
                mod_dir: ModDir::of_file(&r.path, true, ""),
                crate_root: true,
                features: Vec::new(),
            })
            .collect();
        while let Some(q) = queue.pop() {
            let canonical = q.path.canonicalize().unwrap_or_else(|_| q.path.clone());
            if !seen.insert(canonical) {
                continue;
            }
            let text = std::fs::read_to_string(&q.path)
                .map_err(|source| Error::ReadSource { path: q.path.clone(), source })?;
            let rel_path = rel_slash(&q.path, workspace_root);
            let file = FileSpec {
                package: &package.name,
                rel_path: &rel_path,
                path: &q.path,
                namespace: q.namespace,
                mod_dir: q.mod_dir,
                crate_root: q.crate_root,
                excluded: config.skips_source(&q.path, &package.root),
                edition_2015: package.edition_2015,
                features: q.features,
            };
            let externals = self.add_file(&file, text, config, &mut next_id)?;
            let mut children = Vec::new();
            for m in externals {
                match m.candidates.iter().find(|c| c.path.is_file()) {
                    Some(c) => children.push(Queued {
                        mod_dir: ModDir::of_file(&c.path, c.owns_dir, &m.name),
                        path: c.path.clone(),
                        namespace: m.namespace,
                        crate_root: false,
                        features: m.features,
                    }),
                    None => {
                        let tried: Vec<String> =
                            m.candidates.iter().map(|c| rel_slash(&c.path, workspace_root)).collect();
                        self.warnings.push(format!(
                            "{rel_path}:{}: no file found for `mod {}` (looked for {}); its code is not mutated",
                            m.line,
                            m.name,
                            tried.join(" and ")
                        ));
                    }
                }
            }
            queue.extend(children.into_iter().rev());
        }
        Ok(())
    }

    fn add_file(
        &mut self,
        spec: &FileSpec<'_>,
        text: String,
        config: &Config,
        next_id: &mut u32,
    ) -> Result<Vec<ExternalMod>, Error> {
        // A byte-order mark is not part of the token stream; positions count from after it.
        let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let file = syn::parse_file(&text[bom..]).map_err(|e| SyntaxError::new(spec.rel_path, &e))?;
        let source = SourceText::new(text[bom..].to_owned());
        let cx = FileContext {
            rel_path: spec.rel_path,
            package: spec.package,
            namespace: spec.namespace.clone(),
            mod_dir: spec.mod_dir.clone(),
            config,
            features: spec.features.clone(),
        };
        let mut found = if spec.excluded {
            // Still follow its modules: only this file is excluded.
            let mut id = *next_id;
            let d = discover_file(&source, &file, &cx, &mut id);
            let mut skipped = SkipCounts::default();
            skipped.add(skip::SkipReason::Config);
            discover::FileDiscovery { external_mods: d.external_mods, skipped, ..Default::default() }
        } else {
            discover_file(&source, &file, &cx, next_id)
        };
        if spec.crate_root {
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
            let prelude = Splice { start: at, end: at, site: None, piece: Piece::text(CRATE_ROOT_ALLOW) };
            found.splices.insert(0, prelude);
            if spec.edition_2015 {
                // An item: it must follow every inner attribute and doc comment, so it
                // goes just before the first item (or at the end of an item-less file).
                let first_item = file
                    .items
                    .first()
                    .map(|i| source.offset(syn::spanned::Spanned::span(i).start()))
                    .unwrap_or(source.text().len());
                let piece = Piece::text("extern crate mutfuzz_rt; ");
                found.splices.push(Splice { start: first_item, end: first_item, site: None, piece });
            }
            found.splices.sort_by_key(|e| e.start);
        }
        self.skipped.merge(&found.skipped);
        self.mutants.extend(found.mutants);
        self.warnings.extend(found.warnings);
        self.files.push(SchemaFile {
            package: spec.package.to_owned(),
            rel_path: spec.rel_path.to_owned(),
            path: spec.path.to_owned(),
            sites: found.sites,
            doctests: doctest::doctests(&file),
            source,
            splices: found.splices,
        });
        Ok(found.external_mods)
    }

    /// Render file `index` of [`Discovery::files`] with the mutants that pass `enabled`.
    pub fn render(&self, index: usize, enabled: &dyn Fn(u32) -> bool) -> Rendered {
        let f = &self.files[index];
        site::render(f.source.text(), &f.splices, &f.sites, enabled)
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

/// One file to discover, and where it sits.
struct FileSpec<'a> {
    package: &'a str,
    rel_path: &'a str,
    path: &'a Path,
    namespace: Vec<String>,
    mod_dir: ModDir,
    /// A crate root gets the lint allowance (and, in edition 2015, `extern crate`).
    crate_root: bool,
    /// Left unmutated by the config; its modules are still followed.
    excluded: bool,
    edition_2015: bool,
    /// The features the `cfg`s on the way to the file ask for.
    features: Vec<String>,
}

#[cfg(test)]
mod tests;
