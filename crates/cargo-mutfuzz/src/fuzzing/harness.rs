//! The user's fuzz harness package (`mutfuzz/` beside their crate) and its build against
//! the schema: found in the package, copied into the scratch workspace with its manifest
//! resolving `mutfuzz` to the engine this binary carries, built through the viability
//! loop, and run.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use cargo_metadata::semver::{Version, VersionReq};
use mutfuzz_contract::{CampaignDir, HarnessCommand, UnviableRecord, write_atomic};
use mutfuzz_mutate::{Discovery, Mutant};
use toml_edit::{DocumentMut, InlineTable, Item, Table, value};

use crate::console::Console;
use crate::console::exit_code;
use crate::process::caps::Caps;
use crate::process::sandbox::{Policy, Sandbox};
use crate::schema::cargo_build::{BuildFlags, BuildWhat};
use crate::schema::schema_build;
use crate::schema::viability::BuildFailure;
use crate::workspace::engine;
use crate::workspace::fs_util::write_if_changed;
use crate::workspace::layout::{self, HARNESS_DIR, Layout};
use crate::workspace::scratch::{Scratch, absolutize_paths};
use crate::workspace::{Package, PackageChoice, Workspace};

/// A harness package on disk.
#[derive(Clone, Debug)]
pub struct Harness {
    /// Its directory (the user's, not the copy).
    pub dir: PathBuf,
    /// Its Cargo.toml.
    pub manifest: PathBuf,
}

/// The one package a harness command works on.
pub fn single_package(ws: &Workspace) -> Result<&Package> {
    match &ws.packages[..] {
        [p] => Ok(p),
        [] => Err(exit_code::usage(anyhow::anyhow!("the workspace has no package to fuzz"))),
        many => {
            let names: Vec<&str> = many.iter().map(|p| p.name.as_str()).collect();
            Err(exit_code::usage(anyhow::anyhow!(
                "this command works on one package; choose one with -p: {}",
                names.join(", ")
            )))
        }
    }
}

/// Find the harness of `package`: `mutfuzz/` in its root, else in the workspace root.
pub fn find(ws: &Workspace, package: &Package) -> Result<Harness> {
    let mut candidates = vec![package.root.join(HARNESS_DIR)];
    if ws.root != package.root {
        candidates.push(ws.root.join(HARNESS_DIR));
    }
    for dir in &candidates {
        let manifest = dir.join("Cargo.toml");
        if !manifest.is_file() {
            continue;
        }
        let text = fs::read_to_string(&manifest)
            .with_context(|| format!("failed to read {}", manifest.display()))?;
        let doc: DocumentMut =
            text.parse().with_context(|| format!("{} is not a valid manifest", manifest.display()))?;
        let marked = doc
            .get("package")
            .and_then(|p| p.get("metadata"))
            .and_then(|m| m.get("mutfuzz"))
            .and_then(Item::as_bool)
            == Some(true);
        if !marked {
            bail!(
                "{} is not a mutfuzz harness: add `[package.metadata]` with `mutfuzz = true` to it",
                manifest.display()
            );
        }
        return Ok(Harness { dir: dir.clone(), manifest });
    }
    bail!(
        "no fuzz harness: expected {}; run `cargo mutfuzz init` to make one",
        candidates[0].join("Cargo.toml").display()
    )
}

/// Write the harness manifest into the scratch copy, resolving `mutfuzz` to the engine
/// this binary carries, so the harness and the schema link one `mutfuzz-rt`:
///
/// - `mutfuzz = "<version>"` (what `init` writes) stays, and `[patch.crates-io]` points
///   every engine crate at the copy in `target/mutfuzz/engine/`, for the harness and for
///   any dependency of it that uses the engine; the version asked for must be the one
///   carried;
/// - a `path` or `git` dependency (harnesses made before) is pointed at the copy;
///
/// and paths leaving the workspace are made absolute. Returns the copy's path.
pub fn patch_manifest(ws: &Workspace, scratch: &Scratch, harness: &Harness) -> Result<PathBuf> {
    let text = fs::read_to_string(&harness.manifest)
        .with_context(|| format!("failed to read {}", harness.manifest.display()))?;
    let mut doc: DocumentMut =
        text.parse().with_context(|| format!("failed to parse {}", harness.manifest.display()))?;
    absolutize_paths(doc.as_table_mut(), &harness.dir, &ws.root);
    let layout = &scratch.layout;
    let engine_path = |name: &str| layout.engine_crate(name).to_string_lossy().into_owned();
    let deps = doc.entry("dependencies").or_insert(Item::Table(Table::new()));
    let Some(deps) = deps.as_table_like_mut() else {
        bail!("{}: [dependencies] is not a table", harness.manifest.display())
    };
    let key = deps
        .iter()
        .find(|(k, v)| v.get("package").and_then(Item::as_str).map_or(*k == "mutfuzz", |p| p == "mutfuzz"))
        .map(|(k, _)| k.to_owned());
    let Some(key) = key else {
        bail!(
            "{} does not depend on mutfuzz: add `mutfuzz = \"{}\"` to its [dependencies]",
            harness.manifest.display(),
            engine::VERSION
        )
    };
    let item = deps.get(&key).expect("found");
    let local = item.as_str().is_none() && (item.get("path").is_some() || item.get("git").is_some());
    if local {
        let mut dep = InlineTable::new();
        dep.insert("path", engine_path("mutfuzz").as_str().into());
        if key != "mutfuzz" {
            dep.insert("package", "mutfuzz".into());
        }
        deps.insert(&key, value(dep));
    } else {
        let req = item.as_str().or_else(|| item.get("version").and_then(Item::as_str)).unwrap_or("*");
        check_engine_version(req).with_context(|| format!("in {}", harness.manifest.display()))?;
    }
    let patch = doc.entry("patch").or_insert(Item::Table(Table::new()));
    let Some(patch) = patch.as_table_mut() else {
        bail!("{}: [patch] is not a table", harness.manifest.display())
    };
    patch.set_implicit(true);
    let crates_io = patch.entry("crates-io").or_insert(Item::Table(Table::new()));
    let Some(crates_io) = crates_io.as_table_like_mut() else {
        bail!("{}: [patch.crates-io] is not a table", harness.manifest.display())
    };
    for name in engine::crates() {
        let mut dep = InlineTable::new();
        dep.insert("path", engine_path(name).as_str().into());
        crates_io.insert(name, value(dep));
    }
    if !doc.contains_key("workspace") {
        doc.insert("workspace", Item::Table(Table::new()));
    }
    let copy = scratch.in_work(&harness.manifest);
    write_if_changed(&copy, &doc.to_string())?;
    Ok(copy)
}

/// Check that the engine carried satisfies the version `req` a harness asks for.
fn check_engine_version(req: &str) -> Result<()> {
    let carried = Version::parse(engine::VERSION).expect("the engine's version is semver");
    let wanted = VersionReq::parse(req).map_err(|e| {
        exit_code::usage(anyhow::anyhow!("mutfuzz = {req:?} is not a version requirement: {e}"))
    })?;
    if !wanted.matches(&carried) {
        return Err(exit_code::usage(anyhow::anyhow!(
            "the harness asks for mutfuzz {req:?}, but this cargo-mutfuzz carries mutfuzz {carried}: \
             write `mutfuzz = \"{carried}\"`, or install the cargo-mutfuzz of the version you want"
        )));
    }
    Ok(())
}

/// Check a target name before it becomes a directory name.
pub fn check_target_name(target: &str) -> Result<()> {
    let ok = !target.is_empty() && target.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !ok {
        bail!("{target:?} is not a target name: use the name of a function listed in `mutfuzz::targets!`");
    }
    if layout::RESERVED.contains(&target) {
        bail!("a target may not be named {target:?} (target/mutfuzz/{target} holds mutfuzz's own files)");
    }
    Ok(())
}

/// A harness built against the schema, ready to run.
pub struct Built {
    /// The user's workspace.
    pub ws: Workspace,
    /// The mutants.
    pub discovery: Discovery,
    /// The harness (the user's).
    pub harness: Harness,
    /// The harness executable.
    pub binary: PathBuf,
    /// Unviable mutants, with the compiler's reason.
    pub unviable: BTreeMap<u32, String>,
    /// Every path under `target/mutfuzz/`.
    pub layout: Layout,
    /// Campaign state: `target/mutfuzz/<target>/`.
    pub state: CampaignDir,
    /// Where the harness and the stored inputs run.
    pub cwd: PathBuf,
    /// What the harness may write (`None`: `--no-sandbox`).
    pub sandbox: Option<Policy>,
    /// The package's `mutfuzz.toml` (or its defaults).
    pub config: mutfuzz_mutate::config::ConfigFile,
    /// Memory and output caps of the harness processes: `mutfuzz.toml`'s or the defaults,
    /// until a command sets its own (see [`Built::set_caps`]).
    pub caps: Caps,
}

impl Built {
    /// The viable mutants.
    pub fn viable(&self) -> impl Iterator<Item = &Mutant> {
        self.discovery.mutants.iter().filter(|m| !self.unviable.contains_key(&m.id))
    }

    /// A command running the harness's `command`.
    pub fn command(&self, command: &HarnessCommand) -> Command {
        let mut cmd = Command::new(&self.binary);
        cmd.args(command.to_args()).current_dir(&self.cwd);
        cmd
    }

    /// A command running the harness's `command` in the sandbox, which lets it write
    /// under `target/mutfuzz/` but not in `read_only` (the corpus directory it reads).
    pub fn sandboxed_command(&self, command: &HarnessCommand, read_only: &[&Path]) -> Result<Command> {
        let mut cmd = self.command(command);
        let policy =
            self.sandbox.as_ref().map(|p| read_only.iter().fold(p.clone(), |p, dir| p.read_only(dir)));
        Sandbox::of(policy.as_ref())?.apply(&mut cmd);
        Ok(cmd)
    }

    /// The caps from the command line, else from `mutfuzz.toml`, else the defaults.
    pub fn set_caps(&mut self, memory: Option<&str>, output: Option<&str>) -> Result<()> {
        self.caps = Caps::resolve(memory, output, &self.config, true).map_err(exit_code::usage)?;
        eprintln!("Caps per harness process: {}", self.caps.describe());
        Ok(())
    }

    /// The default corpus directory of `target`: `mutfuzz/corpus/<target>` in the harness.
    pub fn default_corpus(&self, target: &str) -> PathBuf {
        self.harness.dir.join("corpus").join(target)
    }
}

/// Discover, copy, build the schema with the harness (dropping unviable mutants), write
/// the catalogs into the state directory, and check that the harness has `target`.
/// Optimized, unless `dev` (see [`crate::schema::cargo_build::RELEASE_PROFILE_ENV`]).
pub fn build(args: impl Into<PackageChoice>, target: &str, dev: bool, no_sandbox: bool) -> Result<Built> {
    check_target_name(target).map_err(exit_code::usage)?;
    let built = build_for(&args.into(), target, dev, no_sandbox, None)?;
    let targets = list_targets(&built)?;
    if !targets.iter().any(|t| t == target) {
        return Err(exit_code::usage(anyhow::anyhow!(
            "the harness has no target {target:?}; its targets are: {}",
            if targets.is_empty() { "(none)".to_owned() } else { targets.join(", ") }
        )));
    }
    Ok(built)
}

/// [`build`] once for every target of the harness (`HARNESS list`), in the order it lists
/// them: the catalogs are written into each target's state directory, and the `Built`'s
/// own `state` is the first target's (every target's catalogs are the same).
pub fn build_all(
    args: impl Into<PackageChoice>,
    dev: bool,
    no_sandbox: bool,
) -> Result<(Built, Vec<String>)> {
    build_all_with(args, None, dev, no_sandbox)
}

/// [`build_all`] with `harness` instead of the package's own, when given (`amplify`'s,
/// generated under `target/mutfuzz/`).
pub fn build_all_with(
    args: impl Into<PackageChoice>,
    harness: Option<&Harness>,
    dev: bool,
    no_sandbox: bool,
) -> Result<(Built, Vec<String>)> {
    // The catalogs go to a target's directory: the first's, once the list is known.
    let built = build_for(&args.into(), "", dev, no_sandbox, harness)?;
    let targets = list_targets(&built)?;
    if targets.is_empty() {
        return Err(exit_code::usage(anyhow::anyhow!(
            "the harness {} lists no target: name at least one function in `mutfuzz::targets!`",
            built.harness.dir.display()
        )));
    }
    for t in &targets {
        check_target_name(t).map_err(|e| exit_code::usage(e.context("the harness lists a target")))?;
        write_catalogs(&built.layout.campaign(t), &built.discovery, &built.unviable)?;
    }
    let built = Built { state: built.layout.campaign(&targets[0]), ..built };
    Ok((built, targets))
}

/// The mutant catalog, the unviable and viable mutants, and the static pass's hints, in a
/// target's state directory.
fn write_catalogs(
    state: &CampaignDir,
    discovery: &Discovery,
    unviable: &BTreeMap<u32, String>,
) -> Result<()> {
    fs::create_dir_all(state.path())
        .with_context(|| format!("failed to create {}", state.path().display()))?;
    write_atomic(&state.catalog(), crate::catalog::list::json(discovery).as_bytes())?;
    let records: Vec<UnviableRecord> =
        unviable.iter().map(|(&id, reason)| UnviableRecord { id, reason: reason.clone() }).collect();
    write_atomic(&state.unviable(), (serde_json::to_string_pretty(&records)? + "\n").as_bytes())?;
    let viable: Vec<&Mutant> = discovery.mutants.iter().filter(|m| !unviable.contains_key(&m.id)).collect();
    write_atomic(&state.viable(), (serde_json::to_string_pretty(&viable)? + "\n").as_bytes())?;
    // The static pass for input strategies: literals and influencing types of branches.
    let hints = mutfuzz_mutate::hints::analyze(discovery);
    write_atomic(&state.hints(), (serde_json::to_string(&hints)? + "\n").as_bytes())?;
    Ok(())
}

/// The build of [`build`], with the catalogs written for `target` (none for `""`).
fn build_for(
    args: &PackageChoice,
    target: &str,
    dev: bool,
    no_sandbox: bool,
    given: Option<&Harness>,
) -> Result<Built> {
    let console = Console::default();
    let ws = Workspace::open(args)?;
    let package = single_package(&ws)?.clone();
    let harness = match given {
        Some(h) => h.clone(),
        None => find(&ws, &package).map_err(exit_code::usage)?,
    };
    let (discovery, config) = ws.discover()?;
    let caps = Caps::resolve(None, None, &config.file, true).map_err(exit_code::usage)?;
    crate::catalog::list::report(&console, &discovery);
    let scratch = Scratch::new(&ws);
    // The harness's manifest is patched into the copy; its build output and corpus stay out.
    let skip = [harness.manifest.clone(), harness.dir.join("target"), harness.dir.join("corpus")];
    scratch.prepare(&ws, &discovery, &skip)?;
    if harness.dir.starts_with(&ws.target_dir) {
        // Under the target dir, which the copy leaves out: its sources go in by hand.
        crate::workspace::scratch::copy_tree(
            &harness.dir.join("src"),
            &scratch.in_work(&harness.dir.join("src")),
            &[],
        )?;
    }
    let manifest_copy = patch_manifest(&ws, &scratch, &harness)?;

    let flags = BuildFlags { what: BuildWhat::Harness(manifest_copy.clone()), dev, ..BuildFlags::default() };
    let build = match schema_build::build_schema(&ws, &scratch, &discovery, &flags, &mut [], &skip, &console)
    {
        Ok(b) => b,
        Err(_) if crate::process::interrupt::interrupted() => return Err(exit_code::interrupted()),
        Err(BuildFailure::Baseline(text)) => {
            // The user's own code's messages, from a build of the untouched sources.
            let text = schema_build::unmutated_report(&ws, &scratch, &discovery, &flags, &[])
                .ok()
                .flatten()
                .unwrap_or(text);
            if let Some(item) = crate::fuzzing::auto_harness::first_error_line(&text)
                .and_then(|line| crate::fuzzing::auto_harness::item_at_line(&harness.dir, line))
            {
                return Err(exit_code::baseline(anyhow::anyhow!(
                    "the generated harness no longer builds with the package: `{item}` in {} does not \
                     match the crate's API any more; run `cargo mutfuzz init --auto` to generate it \
                     again:\n{text}",
                    crate::fuzzing::auto_harness::module_path(&harness.dir).display()
                )));
            }
            return Err(exit_code::baseline(anyhow::anyhow!(
                "the harness does not build with the package, even without mutants; fix it first \
                 (try `cargo check` in {}):\n{text}",
                harness.dir.display()
            )));
        }
        Err(BuildFailure::Internal(e)) => return Err(e),
    };
    console.message(&format!("Schema and harness built {}", build.describe()));
    let Some(binary) = build.binaries.first().and_then(|b| b.executable().cloned()) else {
        bail!("building {} produced no executable: the harness needs src/main.rs", harness.dir.display());
    };

    // `build_all` names the state once the harness has listed its targets.
    let state = if target.is_empty() {
        CampaignDir::new(scratch.layout.root().to_owned())
    } else {
        let state = scratch.layout.campaign(target);
        write_catalogs(&state, &discovery, &build.unviable)?;
        state
    };

    let built = Built {
        cwd: manifest_copy.parent().map(Path::to_owned).unwrap_or_default(),
        ws,
        discovery,
        harness,
        binary,
        unviable: build.unviable,
        sandbox: Policy::of(&scratch.layout, &config, no_sandbox),
        layout: scratch.layout.clone(),
        state,
        config: config.file,
        caps,
    };
    Ok(built)
}

/// `HARNESS list`: the target names.
pub fn list_targets(built: &Built) -> Result<Vec<String>> {
    let out = built
        .command(&HarnessCommand::List)
        .output()
        .with_context(|| format!("failed to run the harness {}", built.binary.display()))?;
    if !out.status.success() {
        bail!(
            "the harness {} failed to list its targets ({}):\n{}",
            built.binary.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_names_are_checked() {
        assert!(check_target_name("sort_ok").is_ok());
        assert!(check_target_name("../x").is_err());
        assert!(check_target_name("").is_err());
        for reserved in layout::RESERVED {
            assert!(check_target_name(reserved).is_err(), "{reserved}");
        }
        assert!(check_target_name("target-fuzz").is_err());
    }

    #[test]
    fn the_engine_version_asked_for_must_be_the_one_carried() {
        assert!(check_engine_version(engine::VERSION).is_ok());
        assert!(check_engine_version(&format!("={}", engine::VERSION)).is_ok());
        assert!(check_engine_version("*").is_ok());
        let err = check_engine_version("99.0").unwrap_err().to_string();
        assert!(err.contains("carries mutfuzz") && err.contains(engine::VERSION), "{err}");
        assert!(check_engine_version("not a version").is_err());
    }
}
