//! The schema build, once for every mutant: the viability loop ([`crate::schema::viability`])
//! driving cargo on the scratch copy.
//!
//! Each build of the loop writes the schema files with the mutants enabled for it (and
//! the generated doctest targets), runs cargo ([`crate::schema::cargo_build`]), and locates the
//! compiler's errors in the schema ([`crate::schema::diagnostics`]).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use anyhow::Result;
use mutfuzz_mutate::{Discovery, Rendered};

use crate::console::Console;
use crate::schema::binaries::TestBinary;
use crate::schema::cargo_build::{self, BuildFlags};
use crate::schema::diagnostics::SchemaFiles;
use crate::schema::doctest_target::DoctestTarget;
use crate::schema::viability::{self, Build, BuildFailure, Candidate, EnabledSet, Round, SchemaBuilder};
use crate::schema::viability_cache;
use crate::workspace::Workspace;
use crate::workspace::fs_util::write_if_changed;
use crate::workspace::scratch::Scratch;

/// The clean schema build.
#[derive(Debug)]
pub struct SchemaBuild {
    /// What to run: test executables, or the harness.
    pub binaries: Vec<TestBinary>,
    /// Unviable mutants, with the compiler's reason.
    pub unviable: BTreeMap<u32, String>,
    /// The rounds it took (from the cache, the rounds of the build that found them).
    pub rounds: Vec<Round>,
    /// Where the unviable mutants came from.
    pub found: Found,
}

/// How a schema build found its unviable mutants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// The viability loop's rounds.
    Rounds,
    /// The viability cache: one build, no round.
    Cache,
    /// Another build kind's result (`tests`), tried first and held: one build.
    Guess(&'static str),
}

impl SchemaBuild {
    /// `clean (0 unviable, 1.2s)` for each round, joined.
    pub fn rounds_summary(&self) -> String {
        viability::summary(&self.rounds)
    }

    /// How the build went, after "Schema built": `in 2 round(s): …`, or that the
    /// viability cache was used.
    pub fn describe(&self) -> String {
        match self.found {
            Found::Guess(kind) => {
                let seconds: f64 = self.rounds.iter().map(|r| r.seconds).sum();
                format!(
                    "in 1 build ({seconds:.1}s), without the {} mutants the {kind} build found unviable",
                    self.unviable.len(),
                )
            }
            Found::Cache => format!(
                "in 1 build with the viability cache, no round ({} unviable, found earlier in {} round(s))",
                self.unviable.len(),
                self.rounds.len()
            ),
            Found::Rounds => format!("in {} round(s): {}", self.rounds.len(), self.rounds_summary()),
        }
    }
}

/// Build the schema as `flags` say, dropping unviable mutants until the build is clean.
/// `doctests` are compiled into it as test targets, and dropped one by one if they do
/// not compile that way. The result comes from the viability cache when it holds one for
/// these sources (`skip`: the workspace paths left out of the scratch copy).
pub fn build_schema(
    ws: &Workspace,
    scratch: &Scratch,
    discovery: &Discovery,
    flags: &BuildFlags,
    doctests: &mut [DoctestTarget],
    skip: &[PathBuf],
    console: &Console,
) -> Result<SchemaBuild, BuildFailure> {
    let cache = viability_cache::path(scratch, flags);
    let catalog = viability_cache::catalog_hash(discovery);
    let key = viability_cache::key(ws, &catalog, flags, doctests, skip)?;
    if let Some(cached) = viability_cache::load(&cache, &key) {
        console.message(&format!(
            "Viability from the cache ({}): {} unviable mutants; building once",
            cache.display(),
            cached.unviable.len()
        ));
        viability_cache::drop_doctests(doctests, &cached.dropped_doctests);
        if let Some(binaries) = build_without(ws, scratch, discovery, flags, doctests, &cached.unviable)? {
            let dropped_doctests = viability_cache::dropped_doctests(doctests);
            if dropped_doctests != cached.dropped_doctests {
                viability_cache::save(
                    &cache,
                    &viability_cache::Cached { dropped_doctests, ..cached.clone() },
                )?;
            }
            return Ok(SchemaBuild {
                binaries,
                unviable: cached.unviable,
                rounds: cached.rounds,
                found: Found::Cache,
            });
        }
        // Something the key does not see changed (a path dependency outside the
        // workspace): find viability again.
        console.message("The cached viability no longer builds; finding it again");
        enable_doctests(doctests);
    }
    let built = match viability_cache::guess(&cache, flags, &catalog) {
        Some((kind, guess)) => {
            console.message(&format!(
                "Building schema without the {} mutants the {kind} build found unviable",
                guess.unviable.len()
            ));
            let start = std::time::Instant::now();
            let enabled = discovery.mutants.len().saturating_sub(guess.unviable.len());
            match build_without(ws, scratch, discovery, flags, doctests, &guess.unviable)? {
                Some(binaries) => {
                    let round = Round {
                        mutants: enabled,
                        errors: 0,
                        unviable: 0,
                        method: viability::Method::Clean,
                        builds: 1,
                        seconds: start.elapsed().as_secs_f64(),
                    };
                    let unviable = guess.unviable;
                    SchemaBuild { binaries, unviable, rounds: vec![round], found: Found::Guess(kind) }
                }
                None => {
                    enable_doctests(doctests);
                    build_viable(ws, scratch, discovery, flags, doctests, console)?
                }
            }
        }
        None => build_viable(ws, scratch, discovery, flags, doctests, console)?,
    };
    let cached = viability_cache::Cached {
        key,
        unviable: built.unviable.clone(),
        rounds: built.rounds.clone(),
        dropped_doctests: viability_cache::dropped_doctests(doctests),
        catalog,
    };
    viability_cache::save(&cache, &cached)?;
    Ok(built)
}

/// One build with the mutants in `unviable` left out: its binaries, or `None` when it
/// does not build. Generated doctests that do not compile are dropped as the viability
/// loop drops them.
fn build_without(
    ws: &Workspace,
    scratch: &Scratch,
    discovery: &Discovery,
    flags: &BuildFlags,
    doctests: &mut [DoctestTarget],
    unviable: &BTreeMap<u32, String>,
) -> Result<Option<Vec<TestBinary>>, BuildFailure> {
    let index = discovery.files.iter().enumerate().map(|(i, f)| (scratch.in_work(&f.path), i)).collect();
    let mut builder = CargoBuilder { ws, scratch, discovery, flags, index, doctests };
    let enabled =
        EnabledSet::of(discovery.mutants.iter().map(|m| m.id).filter(|id| !unviable.contains_key(id)));
    Ok(match viability::build_past_doctests(&mut builder, &enabled)? {
        Build::Clean(binaries) => Some(binaries),
        Build::Failed { .. } => None,
    })
}

/// Every generated doctest back in, for a viability loop from the start.
fn enable_doctests(doctests: &mut [DoctestTarget]) {
    for e in doctests.iter_mut().flat_map(|t| t.entries.iter_mut()) {
        e.enabled = true;
    }
}

/// The viability loop over cargo builds.
fn build_viable(
    ws: &Workspace,
    scratch: &Scratch,
    discovery: &Discovery,
    flags: &BuildFlags,
    doctests: &mut [DoctestTarget],
    console: &Console,
) -> Result<SchemaBuild, BuildFailure> {
    let index = discovery.files.iter().enumerate().map(|(i, f)| (scratch.in_work(&f.path), i)).collect();
    let mut builder = CargoBuilder { ws, scratch, discovery, flags, index, doctests };
    let candidates: Vec<Candidate> = discovery
        .mutants
        .iter()
        .map(|m| Candidate {
            id: m.id,
            file: discovery.files.iter().position(|f| f.rel_path == m.file).unwrap_or(usize::MAX),
        })
        .collect();
    let viable = viability::make_viable(&mut builder, &candidates, &mut |round, mutants| {
        console.message(&format!("Building schema with {mutants} mutants (round {round})"));
    })?;
    Ok(SchemaBuild {
        binaries: viable.output,
        unviable: viable.unviable,
        rounds: viable.rounds,
        found: Found::Rounds,
    })
}

/// Write the schema files into the scratch copy, with the mutants that pass `enabled`.
/// Files whose text is unchanged are not touched, so rebuilds stay incremental.
pub fn write_schema(
    scratch: &Scratch,
    discovery: &Discovery,
    enabled: &dyn Fn(u32) -> bool,
) -> Result<Vec<Rendered>> {
    let mut rendered = Vec::with_capacity(discovery.files.len());
    for (i, f) in discovery.files.iter().enumerate() {
        let r = discovery.render(i, enabled);
        write_if_changed(&scratch.in_work(&f.path), &r.text)?;
        rendered.push(r);
    }
    Ok(rendered)
}

/// The [`SchemaBuilder`] that writes the scratch copy and runs cargo.
struct CargoBuilder<'a> {
    ws: &'a Workspace,
    scratch: &'a Scratch,
    discovery: &'a Discovery,
    flags: &'a BuildFlags,
    /// Copy path of each schema file → its index.
    index: HashMap<PathBuf, usize>,
    doctests: &'a mut [DoctestTarget],
}

impl SchemaBuilder for CargoBuilder<'_> {
    type Output = Vec<TestBinary>;

    fn build(&mut self, enabled: &EnabledSet) -> Result<Build<Vec<TestBinary>>> {
        for t in self.doctests.iter_mut() {
            t.write()?;
        }
        let rendered = write_schema(self.scratch, self.discovery, &|id| enabled.contains(id))?;
        let run = cargo_build::build(self.ws, self.scratch, self.flags)?;
        if run.success {
            return Ok(Build::Clean(run.binaries));
        }
        // A full disk fails the build of any crate: not the mutants', nor the user's.
        if let Some(line) = run.disk_full() {
            anyhow::bail!(
                "the disk is full: the build in {} stopped ({line}); free some space and run the \
                 same command again",
                self.scratch.layout.root().display()
            );
        }
        let files = SchemaFiles {
            work: &self.scratch.work,
            index: &self.index,
            discovery: self.discovery,
            rendered: &rendered,
            doctests: self.doctests,
        };
        Ok(Build::Failed { errors: files.locate(&run.errors), report: run.report() })
    }

    fn drop_doctests(&mut self, places: &[(usize, usize)]) -> usize {
        places.iter().filter(|&&(target, line)| self.doctests[target].disable_at(line)).count()
    }
}

/// How [`unmutated_report`] starts when cargo failed before compiling anything.
pub const CARGO_REFUSED: &str =
    "cargo refused the build before compiling anything (its error, not the crate's):";

/// When the schema does not build even with no mutant: the compiler's messages from a
/// build of the user's untouched sources in the copy (no schema text, no generated
/// doctests), so every message and `help:` suggestion shows the user's code. `None`
/// when that build succeeds (then the failure is the schema's, not the user's code).
pub fn unmutated_report(
    ws: &Workspace,
    scratch: &Scratch,
    discovery: &Discovery,
    flags: &BuildFlags,
    doctests: &[DoctestTarget],
) -> Result<Option<String>> {
    for f in &discovery.files {
        let text = std::fs::read_to_string(&f.path)?;
        write_if_changed(&scratch.in_work(&f.path), &text)?;
    }
    // Without doctests, but declared as the scratch manifest declares them: a missing
    // file would be cargo's error, not the package's.
    for t in doctests {
        write_if_changed(&t.path, "// Written by cargo mutfuzz: no doctests in this build.\n")?;
    }
    let run = cargo_build::build(ws, scratch, flags)?;
    Ok((!run.success).then(|| {
        let report = run.report();
        if run.cargo_refused() { format!("{CARGO_REFUSED}\n{report}") } else { report }
    }))
}
