//! Builds the schema once for every mutant: writes the schema files, runs
//! `cargo test --no-run` (or builds the fuzz harness that links the schema) with JSON
//! diagnostics, maps each compiler error back to the mutant whose replacement contains
//! it, marks those `unviable`, and rebuilds until the build is clean. An error that
//! cannot be located is found by bisection.

use std::collections::{BTreeMap, HashMap};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result};
use cargo_metadata::diagnostic::{DiagnosticLevel, DiagnosticSpan};
use cargo_metadata::{Message, TargetKind};
use mutfuzz_mutate::{Discovery, Owner, Rendered};
use serde::Serialize;

use crate::console::Console;
use crate::doctest_target::DoctestTarget;
use crate::scratch::{Scratch, write_if_changed};
use crate::workspace::{Workspace, harnessless_targets};

/// What the viability loop builds around the schema.
#[derive(Clone, Debug, Default)]
pub enum BuildWhat {
    /// The packages' test binaries: `cargo test --no-run`.
    #[default]
    Tests,
    /// The fuzz harness package whose manifest (in the scratch copy) is this:
    /// `cargo build --bins`. Its binaries are returned as harness-less.
    Harness(PathBuf),
}

/// Cargo flags for the build, from the command line.
#[derive(Clone, Debug, Default)]
pub struct BuildFlags {
    /// What to build.
    pub what: BuildWhat,
    /// `--features`.
    pub features: Vec<String>,
    /// `--all-features`.
    pub all_features: bool,
    /// `--no-default-features`.
    pub no_default_features: bool,
}

/// An executable produced by the schema build (a test binary, or the fuzz harness).
#[derive(Clone, Debug, Serialize)]
pub struct TestBinary {
    /// The executable.
    pub path: PathBuf,
    /// Package it tests.
    pub package: String,
    /// `lib`, `bin foo`, `test integration`, ….
    pub target: String,
    /// Directory to run it in (its package root in the copy), as `cargo test` does.
    #[serde(skip)]
    pub cwd: PathBuf,
    /// Built with `harness = false`: a plain program, run whole.
    pub harnessless: bool,
    /// Not an executable: the package's doctests, run through `cargo test --doc`.
    #[serde(skip)]
    pub doctests: Option<Doctests>,
}

/// How to run one package's doctests against the schema.
#[derive(Clone, Debug)]
pub struct Doctests {
    /// The copy's workspace manifest.
    pub manifest: PathBuf,
    /// The schema's target dir.
    pub target_dir: PathBuf,
    /// The package.
    pub package: String,
    /// `--features` and the like, as for the build.
    pub cargo_args: Vec<String>,
}

impl TestBinary {
    /// The doctests of `package`, as one pseudo-binary.
    pub fn doctests(ws: &Workspace, scratch: &Scratch, flags: &BuildFlags, package: &str) -> TestBinary {
        let mut cargo_args = Vec::new();
        for f in &flags.features {
            cargo_args.extend(["--features".to_owned(), f.clone()]);
        }
        if flags.all_features {
            cargo_args.push("--all-features".to_owned());
        }
        if flags.no_default_features {
            cargo_args.push("--no-default-features".to_owned());
        }
        let root = ws.packages.iter().find(|p| p.name == package).map(|p| p.root.clone()).unwrap_or_default();
        TestBinary {
            path: PathBuf::from(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())),
            package: package.to_owned(),
            target: "doctests".to_owned(),
            cwd: scratch.in_work(ws, &root),
            harnessless: false,
            doctests: Some(Doctests {
                manifest: scratch.work.join("Cargo.toml"),
                target_dir: scratch.target.clone(),
                package: package.to_owned(),
                cargo_args,
            }),
        }
    }
}

/// One build of the viability loop.
#[derive(Clone, Debug, Serialize)]
pub struct Round {
    /// Mutants in the schema for this build.
    pub mutants: usize,
    /// Compiler errors seen.
    pub errors: usize,
    /// Mutants found unviable by this round.
    pub unviable: usize,
    /// `clean`, `diagnostics` (errors inside mutants), `site` (an error across one
    /// site's wrapper), `bisection`, or `doctests` (generated doctests that did not
    /// compile were dropped).
    pub method: &'static str,
    /// Builds run (one, or several when bisecting).
    pub builds: usize,
    /// Wall time of the round, in seconds.
    pub seconds: f64,
}

/// The clean schema build.
#[derive(Debug)]
pub struct SchemaBuild {
    /// Test executables to run.
    pub binaries: Vec<TestBinary>,
    /// Unviable mutants, with the compiler's reason.
    pub unviable: BTreeMap<u32, String>,
    /// The rounds it took.
    pub rounds: Vec<Round>,
}

impl SchemaBuild {
    /// `clean (0 unviable, 1.2s)` for each round, joined.
    pub fn rounds_summary(&self) -> String {
        let rounds: Vec<String> = self
            .rounds
            .iter()
            .map(|r| format!("{} ({} unviable, {:.1}s)", r.method, r.unviable, r.seconds))
            .collect();
        rounds.join(", ")
    }
}

/// Why the build could not be made clean.
#[derive(Debug)]
pub enum BuildFailure {
    /// The package does not build even with no mutants: the user's problem to fix first.
    Baseline(String),
    /// Something else went wrong.
    Internal(anyhow::Error),
}

impl From<anyhow::Error> for BuildFailure {
    fn from(e: anyhow::Error) -> Self {
        BuildFailure::Internal(e)
    }
}

/// A compiler error located in a schema file (`file` indexes `Discovery::files`).
struct Located {
    file: usize,
    start: usize,
    end: usize,
    message: String,
}

impl Located {
    /// Sites (indexes into the file's sites) whose schema text overlaps this error.
    fn overlapping_sites(&self, rendered: &Rendered) -> Vec<usize> {
        rendered
            .owners
            .iter()
            .filter_map(|(r, o)| match o {
                Owner::Site(s) if r.start < self.end && self.start < r.end => Some(*s),
                _ => None,
            })
            .collect()
    }
}

struct CargoResult {
    success: bool,
    errors: Vec<cargo_metadata::diagnostic::Diagnostic>,
    binaries: Vec<TestBinary>,
    stderr: String,
}

struct Builder<'a> {
    ws: &'a Workspace,
    scratch: &'a Scratch,
    discovery: &'a Discovery,
    flags: &'a BuildFlags,
    /// Copy path of each schema file → its index.
    files: HashMap<PathBuf, usize>,
    rendered: Vec<Rendered>,
    builds: usize,
    /// Doctests compiled as a test target; dropped one by one if they do not compile.
    doctests: &'a mut [DoctestTarget],
}

/// Build the schema, dropping unviable mutants until the build is clean.
pub fn build_schema(
    ws: &Workspace,
    scratch: &Scratch,
    discovery: &Discovery,
    flags: &BuildFlags,
    doctests: &mut [DoctestTarget],
    console: &Console,
) -> Result<SchemaBuild, BuildFailure> {
    let files = discovery.files.iter().enumerate().map(|(i, f)| (scratch.in_work(ws, &f.path), i)).collect();
    let mut b = Builder { ws, scratch, discovery, flags, files, rendered: Vec::new(), builds: 0, doctests };
    let max_id = discovery.mutants.last().map_or(0, |m| m.id) as usize;
    let mut enabled = vec![true; max_id + 1];
    enabled[0] = false;
    let mut unviable = BTreeMap::new();
    let mut rounds = Vec::new();
    loop {
        let start = Instant::now();
        let builds_before = b.builds;
        let in_schema = enabled.iter().filter(|e| **e).count();
        console.message(&format!("Building schema with {in_schema} mutants (round {})", rounds.len() + 1));
        let result = b.build(&enabled)?;
        if result.success {
            rounds.push(Round {
                mutants: in_schema,
                errors: 0,
                unviable: 0,
                method: "clean",
                builds: 1,
                seconds: start.elapsed().as_secs_f64(),
            });
            return Ok(SchemaBuild { binaries: result.binaries, unviable, rounds });
        }
        // Errors in the generated doctest file are the doctests' own: drop those doctests
        // (rustdoc still runs them) and build again, blaming no mutant.
        let dropped = b.drop_failing_doctests(&result.errors);
        if dropped > 0 {
            rounds.push(Round {
                mutants: in_schema,
                errors: result.errors.len(),
                unviable: 0,
                method: "doctests",
                builds: 1,
                seconds: start.elapsed().as_secs_f64(),
            });
            continue;
        }
        let located = b.locate(&result.errors);
        let mut found: BTreeMap<u32, String> = BTreeMap::new();
        for loc in &located {
            let owner = b.rendered[loc.file].owner_of(loc.start, loc.end);
            let ids: Vec<u32> = match owner {
                Some(Owner::Mutant(id)) => vec![id],
                Some(Owner::Site(s)) => {
                    let site = &discovery.files[loc.file].sites[s];
                    (site.base..site.base + site.count).filter(|&id| enabled[id as usize]).collect()
                }
                None => Vec::new(),
            };
            for id in ids {
                found.entry(id).or_insert_with(|| loc.message.clone());
            }
        }
        let method = if !found.is_empty() {
            "diagnostics"
        } else if in_schema == 0 {
            return Err(BuildFailure::Baseline(failure_text(&result)));
        } else if let Some((site_mutants, message)) = b.wrapper_culprit(&enabled, &located)? {
            // The error lies across one site's wrapper (outside its arms), and the
            // build is clean without that site: the wrapper itself does not fit here,
            // whichever of the site's mutants is enabled.
            for id in site_mutants {
                found.insert(id, message.clone());
            }
            "site"
        } else {
            // No error lies inside a mutant: find the mutant that causes one by bisection.
            let files: Vec<usize> = located.iter().map(|l| l.file).collect();
            let (culprit, message) = b.bisect(&enabled, &files, &result)?;
            found.insert(culprit, message);
            "bisection"
        };
        for &id in found.keys() {
            enabled[id as usize] = false;
        }
        rounds.push(Round {
            mutants: in_schema,
            errors: result.errors.len(),
            unviable: found.len(),
            method,
            builds: b.builds - builds_before,
            seconds: start.elapsed().as_secs_f64(),
        });
        unviable.extend(found);
    }
}

/// Write the schema files into the scratch copy, with the mutants that pass `enabled`.
/// Files whose text is unchanged are not touched, so rebuilds stay incremental.
pub fn write_schema(
    ws: &Workspace,
    scratch: &Scratch,
    discovery: &Discovery,
    enabled: &dyn Fn(u32) -> bool,
) -> Result<Vec<Rendered>> {
    let mut rendered = Vec::with_capacity(discovery.files.len());
    for (i, f) in discovery.files.iter().enumerate() {
        let r = discovery.render(i, enabled);
        write_if_changed(&scratch.in_work(ws, &f.path), &r.text)?;
        rendered.push(r);
    }
    Ok(rendered)
}

impl Builder<'_> {
    /// Write the schema files for `enabled` and run the build.
    /// Disable the doctests that errors point into; returns how many were dropped.
    fn drop_failing_doctests(&mut self, errors: &[cargo_metadata::diagnostic::Diagnostic]) -> usize {
        let mut dropped = 0;
        for e in errors {
            for span in e.spans.iter().filter(|s| s.is_primary) {
                let path = self.scratch.work.join(&span.file_name);
                if let Some(t) =
                    self.doctests.iter_mut().find(|t| t.path == path || Path::new(&span.file_name) == t.path)
                    && t.disable_at(span.line_start)
                {
                    dropped += 1;
                }
            }
        }
        dropped
    }

    fn build(&mut self, enabled: &[bool]) -> Result<CargoResult> {
        for t in self.doctests.iter_mut() {
            t.write()?;
        }
        self.rendered = write_schema(self.ws, self.scratch, self.discovery, &|id| {
            enabled.get(id as usize).copied().unwrap_or(false)
        })?;
        self.builds += 1;
        match &self.flags.what {
            BuildWhat::Tests => self.cargo_test_no_run(),
            BuildWhat::Harness(manifest) => self.cargo_build_harness(manifest),
        }
    }

    fn cargo_test_no_run(&self) -> Result<CargoResult> {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut cmd = Command::new(cargo);
        cmd.args(["test", "--no-run", "--message-format=json"])
            .arg("--manifest-path")
            .arg(self.scratch.work.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(&self.scratch.target);
        for p in &self.ws.packages {
            cmd.args(["-p", &p.name]);
        }
        self.feature_args(&mut cmd);
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null());
        let harnessless: HashMap<String, Vec<(String, String)>> = self
            .ws
            .packages
            .iter()
            .map(|p| (p.name.clone(), harnessless_targets(&p.root.join("Cargo.toml"))))
            .collect();
        run_cargo(cmd, |a| {
            if !a.profile.test {
                return None;
            }
            let exe = a.executable.clone()?;
            let package = self
                .ws
                .packages
                .iter()
                .find(|p| {
                    a.manifest_path.as_std_path() == self.scratch.in_work(self.ws, &p.root.join("Cargo.toml"))
                })
                .map(|p| p.name.clone())
                .unwrap_or_default();
            let kind = a.target.kind.first().cloned().unwrap_or(TargetKind::Lib);
            let kind_name = match kind {
                TargetKind::Lib
                | TargetKind::RLib
                | TargetKind::CDyLib
                | TargetKind::DyLib
                | TargetKind::StaticLib => "lib".to_owned(),
                k => k.to_string(),
            };
            let target =
                if kind_name == "lib" { kind_name.clone() } else { format!("{kind_name} {}", a.target.name) };
            let is_harnessless = harnessless.get(&package).is_some_and(|n| {
                n.iter().any(|(k, name)| *k == kind_name && *name == a.target.name.replace('-', "_"))
            });
            Some(TestBinary {
                path: exe.into_std_path_buf(),
                cwd: a.manifest_path.parent().map(|p| p.as_std_path().to_owned()).unwrap_or_default(),
                package,
                target,
                harnessless: is_harnessless,
                doctests: None,
            })
        })
    }

    /// Build the harness package (which depends on the schema crate by path).
    fn cargo_build_harness(&self, manifest: &Path) -> Result<CargoResult> {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "--bins", "--message-format=json"])
            .arg("--manifest-path")
            .arg(manifest)
            .arg("--target-dir")
            // Its own target dir: these crates carry SanitizerCoverage, which cargo cannot
            // see (the wrapper adds it), so they must never mix with the test builds.
            .arg(self.scratch.dir.join("target-fuzz"));
        // Edge coverage for the crate under test and its dependencies: this binary runs
        // as the rustc wrapper (see `rustc_wrapper`), keeping any wrapper the user had.
        let me = std::env::current_exe().context("cannot find the cargo-mutfuzz executable")?;
        if let Some(inner) = std::env::var_os("RUSTC_WRAPPER") {
            cmd.env(crate::rustc_wrapper::INNER_ENV, inner);
        }
        cmd.env("RUSTC_WRAPPER", me).env(crate::rustc_wrapper::ENV, "1");
        cmd.arg("--target").arg(host_triple()?);
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null());
        run_cargo(cmd, |a| {
            if a.manifest_path.as_std_path() != manifest || !a.target.kind.contains(&TargetKind::Bin) {
                return None;
            }
            Some(TestBinary {
                path: a.executable.clone()?.into_std_path_buf(),
                cwd: manifest.parent().map(Path::to_owned).unwrap_or_default(),
                package: a.target.name.clone(),
                target: format!("bin {}", a.target.name),
                harnessless: true,
                doctests: None,
            })
        })
    }

    fn feature_args(&self, cmd: &mut Command) {
        for f in &self.flags.features {
            cmd.args(["--features", f]);
        }
        if self.flags.all_features {
            cmd.arg("--all-features");
        }
        if self.flags.no_default_features {
            cmd.arg("--no-default-features");
        }
    }

    /// Where in the schema files each error lies (following macro expansions back to
    /// their call site when the error is inside a macro).
    fn locate(&self, errors: &[cargo_metadata::diagnostic::Diagnostic]) -> Vec<Located> {
        let mut out = Vec::new();
        for e in errors {
            let first_line = e.message.lines().next().unwrap_or_default().to_owned();
            for span in e.spans.iter().filter(|s| s.is_primary) {
                let mut cur: Option<&DiagnosticSpan> = Some(span);
                while let Some(s) = cur {
                    let path = self.scratch.work.join(&s.file_name);
                    if let Some(&file) =
                        self.files.get(&path).or_else(|| self.files.get(Path::new(&s.file_name)))
                    {
                        out.push(Located {
                            file,
                            start: s.byte_start as usize,
                            end: s.byte_end as usize,
                            message: first_line.clone(),
                        });
                        break;
                    }
                    cur = s.expansion.as_ref().map(|x| &x.span);
                }
            }
        }
        out
    }

    /// If every located error overlaps exactly one site's wrapper and the schema builds
    /// without that site, return its enabled mutants.
    fn wrapper_culprit(
        &mut self,
        enabled: &[bool],
        located: &[Located],
    ) -> Result<Option<(Vec<u32>, String)>> {
        let mut sites: Vec<(usize, usize)> = located
            .iter()
            .flat_map(|l| l.overlapping_sites(&self.rendered[l.file]).into_iter().map(move |s| (l.file, s)))
            .collect();
        sites.sort_unstable();
        sites.dedup();
        let [(file, site)] = sites[..] else { return Ok(None) };
        let site = &self.discovery.files[file].sites[site];
        let ids: Vec<u32> = (site.base..site.base + site.count).filter(|&id| enabled[id as usize]).collect();
        let mut without = enabled.to_vec();
        for &id in &ids {
            without[id as usize] = false;
        }
        if !self.build(&without)?.success {
            return Ok(None);
        }
        let message = located.first().map(|l| l.message.clone()).unwrap_or_default();
        Ok(Some((ids, message)))
    }

    /// Find one mutant whose presence breaks the build: the shortest prefix of the enabled
    /// mutants (those in the erroring files first) that fails to build ends with it.
    fn bisect(
        &mut self,
        enabled: &[bool],
        files: &[usize],
        first: &CargoResult,
    ) -> Result<(u32, String), BuildFailure> {
        let all: Vec<u32> = (0..enabled.len() as u32).filter(|&id| enabled[id as usize]).collect();
        let in_files: Vec<u32> = all
            .iter()
            .copied()
            .filter(|&id| {
                self.discovery
                    .mutant(id)
                    .is_some_and(|m| files.iter().any(|&f| self.discovery.files[f].rel_path == m.file))
            })
            .collect();
        let mut candidates = if in_files.is_empty() { all.clone() } else { in_files };
        loop {
            let mut without = enabled.to_vec();
            for &id in &candidates {
                without[id as usize] = false;
            }
            let r = self.build(&without)?;
            if r.success {
                break;
            }
            if candidates.len() == all.len() {
                // It fails with no mutant at all: the package itself does not build.
                return Err(BuildFailure::Baseline(failure_text(&r)));
            }
            candidates = all.clone();
        }
        // Invariant: without candidates[lo..] it builds; without candidates[hi..] it fails.
        let (mut lo, mut hi) = (0, candidates.len());
        let mut message = first_error(first);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            let mut with = enabled.to_vec();
            for &id in &candidates[mid..] {
                with[id as usize] = false;
            }
            let r = self.build(&with)?;
            if r.success {
                lo = mid;
            } else {
                message = first_error(&r);
                hi = mid;
            }
        }
        Ok((candidates[hi - 1], message))
    }
}

/// The host's target triple, from `rustc -vV`.
fn host_triple() -> Result<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let out =
        Command::new(&rustc).arg("-vV").output().with_context(|| format!("failed to run {rustc} -vV"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .with_context(|| format!("`{rustc} -vV` did not name the host triple"))
}

/// Run a cargo build with JSON messages, keeping each compiler error once and the
/// executables that `artifact` picks.
fn run_cargo(
    mut cmd: Command,
    artifact: impl Fn(&cargo_metadata::Artifact) -> Option<TestBinary>,
) -> Result<CargoResult> {
    let mut child = cmd.spawn().context("failed to run cargo")?;
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    let stderr_thread = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
    let mut errors = Vec::new();
    let mut binaries = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for msg in Message::parse_stream(BufReader::new(stdout)) {
        match msg.context("failed to read cargo's output")? {
            // The lib is compiled twice (lib and lib test): keep each error once.
            Message::CompilerMessage(m)
                if matches!(m.message.level, DiagnosticLevel::Error | DiagnosticLevel::Ice)
                    && seen
                        .insert(m.message.rendered.clone().unwrap_or_else(|| m.message.message.clone())) =>
            {
                errors.push(m.message);
            }
            Message::CompilerArtifact(a) => binaries.extend(artifact(&a)),
            _ => {}
        }
    }
    let status = child.wait()?;
    let stderr = stderr_thread.join().unwrap_or_default();
    Ok(CargoResult { success: status.success(), errors, binaries, stderr })
}

fn first_error(r: &CargoResult) -> String {
    r.errors.first().map(|e| e.message.clone()).unwrap_or_else(|| "the schema did not build".to_owned())
}

fn failure_text(r: &CargoResult) -> String {
    let rendered: Vec<String> = r.errors.iter().filter_map(|e| e.rendered.clone()).take(5).collect();
    if rendered.is_empty() {
        r.stderr.lines().rev().take(30).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n")
    } else {
        rendered.join("")
    }
}
