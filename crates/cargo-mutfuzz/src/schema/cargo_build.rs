//! Running cargo on the scratch copy: `cargo test --no-run` for the packages' tests, or
//! `cargo build --bins` for the fuzz harness, with JSON messages, keeping each compiler
//! error once and the executables built. What the errors mean for the schema is the
//! caller's business (see `diagnostics` and `viability`).

use std::collections::{HashMap, HashSet};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use cargo_metadata::diagnostic::{Diagnostic, DiagnosticLevel};
use cargo_metadata::{Message, TargetKind};

use crate::process::interrupt;
use crate::schema::binaries::{Doctests, Runner, TestBinary};
use crate::workspace::scratch::Scratch;
use crate::workspace::{Features, Workspace, harnessless_targets};

/// What the schema is built into.
#[derive(Clone, Debug, Default)]
pub enum BuildWhat {
    /// The packages' test binaries: `cargo test --no-run`.
    #[default]
    Tests,
    /// The fuzz harness package whose manifest (in the scratch copy) is this:
    /// `cargo build --bins`, in its own target dir, with edge coverage.
    Harness(PathBuf),
}

/// Cargo flags for the build, from the command line.
#[derive(Clone, Debug, Default)]
pub struct BuildFlags {
    /// What to build.
    pub what: BuildWhat,
    /// `--features`, `--all-features`, `--no-default-features`.
    pub features: Features,
    /// Build the harness unoptimized (`--dev`); test builds always use the test profile.
    pub dev: bool,
}

/// Profile settings forced on harness builds, through cargo's `CARGO_PROFILE_<NAME>_*`
/// variables (which beat the manifests and `.cargo/config.toml`, so the user's files are
/// never changed): optimized as cargo-fuzz builds, with debug assertions and overflow
/// checks kept on because a mutant that trips one is killed by `panic`, and unwinding
/// because the engine catches each run's panic (`panic = "abort"` would end the harness
/// at the first one).
pub const RELEASE_PROFILE_ENV: [(&str, &str); 4] = [
    ("CARGO_PROFILE_RELEASE_OPT_LEVEL", "3"),
    ("CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS", "true"),
    ("CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS", "true"),
    ("CARGO_PROFILE_RELEASE_PANIC", "unwind"),
];

/// Profile settings forced on `--dev` harness builds (unoptimized), for the same reasons.
pub const DEV_PROFILE_ENV: [(&str, &str); 3] = [
    ("CARGO_PROFILE_DEV_DEBUG_ASSERTIONS", "true"),
    ("CARGO_PROFILE_DEV_OVERFLOW_CHECKS", "true"),
    ("CARGO_PROFILE_DEV_PANIC", "unwind"),
];

impl BuildFlags {
    /// The feature flags, as cargo arguments.
    pub fn cargo_args(&self) -> Vec<String> {
        self.features.cargo_args()
    }
}

/// The `--config` value that optimizes the run-time alone in `profile`, whatever the
/// user's profile says: its fuel check runs at every function entry of a mutant run, and
/// unoptimized it is a chain of calls (the thread-local's accessor, `Cell::get`, …).
fn optimized_run_time(profile: &str) -> String {
    format!("profile.{profile}.package.\"mutfuzz-rt\".opt-level=3")
}

/// `--config` arguments of every schema test build (and of the doctests run against it):
/// no debug info for the packages under test. Debug info only serves backtraces, which
/// test processes never capture (see [`crate::process::QUIET_ENV`]), and leaving it out
/// cuts the schema build by a third. Only the mutated packages: their dependencies keep
/// the settings of the user's own debug build, whose artifacts the first build reuses —
/// unless there was none to reuse ([`Scratch::cold_dependencies`]), and then they go
/// without debug info too (about a tenth of a cold build with heavy dev-dependencies).
pub fn test_profile_args(ws: &Workspace, scratch: &Scratch) -> Vec<String> {
    let mut args = Vec::new();
    let all = scratch.cold_dependencies();
    for profile in ["dev", "test"] {
        args.extend(["--config".to_owned(), optimized_run_time(profile)]);
        if all {
            args.extend(["--config".to_owned(), format!("profile.{profile}.debug=0")]);
            continue;
        }
        for p in &ws.packages {
            args.extend(["--config".to_owned(), format!("profile.{profile}.package.\"{}\".debug=0", p.name)]);
        }
    }
    args
}

/// What one cargo run gave.
pub struct CargoRun {
    /// Whether cargo succeeded.
    pub success: bool,
    /// Compiler errors, each once.
    pub errors: Vec<Diagnostic>,
    /// The executables built.
    pub binaries: Vec<TestBinary>,
    /// Cargo's stderr (colour codes removed).
    pub stderr: String,
    /// Whether cargo got as far as compiling or running anything (else a failure is
    /// cargo's own: a manifest, a resolution, an ambiguous package).
    pub started: bool,
}

impl CargoRun {
    /// Whether cargo failed before it compiled anything: its own error, not the crate's.
    pub fn cargo_refused(&self) -> bool {
        !self.success && !self.started && self.errors.is_empty()
    }

    /// The first line of cargo's or the compiler's output that says the disk is full
    /// (ENOSPC, as the standard library words it).
    pub fn disk_full(&self) -> Option<&str> {
        let full = |l: &&str| l.contains("No space left on device");
        let messages = self.errors.iter().flat_map(|e| e.rendered.as_deref().unwrap_or(&e.message).lines());
        self.stderr.lines().chain(messages).find(full).map(str::trim)
    }

    /// What to show the user when the package itself does not build: the first rendered
    /// errors, or the end of cargo's output.
    pub fn report(&self) -> String {
        if self.cargo_refused() {
            return self.stderr.trim_end().to_owned();
        }
        let rendered: Vec<String> = self.errors.iter().filter_map(|e| e.rendered.clone()).take(5).collect();
        if rendered.is_empty() {
            let lines: Vec<&str> = self.stderr.lines().rev().take(30).collect();
            lines.into_iter().rev().collect::<Vec<_>>().join("\n")
        } else {
            rendered.join("")
        }
    }
}

/// Cargo, as the user's cargo invoked us.
pub fn cargo() -> PathBuf {
    PathBuf::from(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
}

/// Build the schema as `flags` say.
pub fn build(ws: &Workspace, scratch: &Scratch, flags: &BuildFlags) -> Result<CargoRun> {
    match &flags.what {
        BuildWhat::Tests => test_no_run(ws, scratch, flags),
        BuildWhat::Harness(manifest) => {
            run_harness_build(harness_command(scratch, manifest, flags.dev)?, manifest)
        }
    }
}

/// `cargo test --no-run` of the chosen packages in the copy.
fn test_no_run(ws: &Workspace, scratch: &Scratch, flags: &BuildFlags) -> Result<CargoRun> {
    let mut cmd = Command::new(cargo());
    cmd.args(["test", "--no-run", "--message-format=json"])
        .arg("--manifest-path")
        .arg(scratch.work.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(scratch.layout.schema_target());
    for p in &ws.packages {
        cmd.args(["-p", &p.cargo_spec(&scratch.in_work(&p.root))]);
    }
    cmd.args(flags.cargo_args()).args(test_profile_args(ws, scratch));
    let harnessless: HashMap<String, Vec<(String, String)>> = ws
        .packages
        .iter()
        .map(|p| (p.name.clone(), harnessless_targets(&p.root.join("Cargo.toml"))))
        .collect();
    run(cmd, |a| {
        if !a.profile.test {
            return None;
        }
        let exe = a.executable.clone()?.into_std_path_buf();
        let package = ws
            .packages
            .iter()
            .find(|p| a.manifest_path.as_std_path() == scratch.in_work(&p.root.join("Cargo.toml")))
            .map(|p| p.name.clone())
            .unwrap_or_default();
        let kind = a.target.kind.first().cloned().unwrap_or(TargetKind::Lib);
        let kind_name = match kind {
            TargetKind::Lib
            | TargetKind::RLib
            | TargetKind::CDyLib
            | TargetKind::DyLib
            | TargetKind::StaticLib
            | TargetKind::ProcMacro => "lib".to_owned(),
            k => k.to_string(),
        };
        let target =
            if kind_name == "lib" { kind_name.clone() } else { format!("{kind_name} {}", a.target.name) };
        let plain = harnessless.get(&package).is_some_and(|n| {
            n.iter().any(|(k, name)| *k == kind_name && *name == a.target.name.replace('-', "_"))
        });
        Some(TestBinary {
            cwd: a.manifest_path.parent().map(|p| p.as_std_path().to_owned()).unwrap_or_default(),
            package,
            target,
            runner: if plain { Runner::Plain(exe) } else { Runner::Libtest(exe) },
        })
    })
}

/// The doctests of `package`, run through `cargo test --doc` against the schema build.
pub fn doctests(ws: &Workspace, scratch: &Scratch, flags: &BuildFlags, package: &str) -> TestBinary {
    let found = ws.packages.iter().find(|p| p.name == package);
    let root = found.map(|p| p.root.clone()).unwrap_or_default();
    TestBinary {
        package: package.to_owned(),
        target: "doctests".to_owned(),
        cwd: scratch.in_work(&root),
        runner: Runner::Doctests(Doctests {
            spec: found.map_or_else(|| package.to_owned(), |p| p.cargo_spec(&scratch.in_work(&p.root))),
            cargo: cargo(),
            manifest: scratch.work.join("Cargo.toml"),
            target_dir: scratch.layout.schema_target(),
            cargo_args: [flags.cargo_args(), test_profile_args(ws, scratch)].concat(),
        }),
    }
}

/// `cargo check -p package` of the copy (its lib and bins), with JSON messages: what
/// the lint check reads. `package` is a package ID spec ([`Package::cargo_spec`]).
///
/// [`Package::cargo_spec`]: crate::workspace::Package::cargo_spec
pub fn check(scratch: &Scratch, flags: &BuildFlags, package: &str) -> Result<CargoRun> {
    let mut cmd = Command::new(cargo());
    cmd.args(["check", "--message-format=json"])
        .arg("--manifest-path")
        .arg(scratch.work.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(scratch.layout.schema_target())
        .args(["-p", package])
        .args(flags.cargo_args());
    run(cmd, |_| None)
}

/// The cargo command that builds the harness package (which depends on the schema crate
/// by path): optimized, or unoptimized with `dev`. Both profiles share one target dir,
/// where cargo keeps them apart (`<triple>/release/`, `<triple>/debug/`), so switching
/// between them rebuilds nothing that is fresh.
pub fn harness_command(scratch: &Scratch, manifest: &Path, dev: bool) -> Result<Command> {
    let mut cmd = Command::new(cargo());
    cmd.args(["build", "--bins", "--message-format=json"])
        .arg("--manifest-path")
        .arg(manifest)
        .arg("--target-dir")
        .arg(scratch.layout.harness_target());
    set_profile(&mut cmd, dev);
    // Edge coverage for the crate under test and its dependencies: this binary runs
    // as the rustc wrapper (see `rustc_wrapper`), keeping any wrapper the user had.
    let me = wrapper_copy(&scratch.layout.wrapper())?;
    if let Some(inner) = std::env::var_os("RUSTC_WRAPPER") {
        cmd.env(crate::schema::rustc_wrapper::INNER_ENV, inner);
    }
    cmd.env("RUSTC_WRAPPER", me).env(crate::schema::rustc_wrapper::ENV, "1");
    cmd.arg("--target").arg(host_triple()?);
    Ok(cmd)
}

/// This executable, copied into `dir` once per build of it, for cargo to run as the rustc
/// wrapper: cargo runs the wrapper for each crate, and a `cargo install` that replaces
/// this binary during a long run (an `eval` builds harnesses for minutes) would leave
/// every later build failing to start `cargo-mutfuzz (deleted)`. Chosen once per process,
/// while the executable is still there; copies of other builds are removed.
fn wrapper_copy(dir: &Path) -> Result<PathBuf> {
    static COPY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    if let Some(copy) = COPY.get() {
        return Ok(copy.clone());
    }
    let me = std::env::current_exe().context("cannot find the cargo-mutfuzz executable")?;
    let copy = copy_of_build(&me, dir)
        .with_context(|| format!("cannot copy {} into {}", me.display(), dir.display()))?;
    Ok(COPY.get_or_init(|| copy).clone())
}

/// `exe` copied into `dir` under a name that tells its build apart (size and mtime), unless
/// that copy is there already; other copies in `dir` are removed.
fn copy_of_build(exe: &Path, dir: &Path) -> Result<PathBuf> {
    let meta = std::fs::metadata(exe)?;
    let mtime = meta.modified()?.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let name = format!("cargo-mutfuzz-{}-{}", meta.len(), mtime.as_nanos());
    let copy = dir.join(&name);
    if !copy.exists() {
        std::fs::create_dir_all(dir)?;
        let tmp = dir.join(format!(".{name}.{}", std::process::id()));
        std::fs::copy(exe, &tmp)?;
        std::fs::rename(&tmp, &copy)?;
        // Another process may be copying into a hidden file right now: those go only
        // once they are an hour old (left by an interrupted copy).
        let stale = |e: &std::fs::DirEntry| {
            e.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok())
                > Some(std::time::Duration::from_secs(3600))
        };
        for entry in std::fs::read_dir(dir)?.flatten() {
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            if entry.file_name() != name.as_str() && (!hidden || stale(&entry)) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    Ok(copy)
}

/// Choose the harness's profile on a `cargo build` command, forcing what the engine needs.
fn set_profile(cmd: &mut Command, dev: bool) {
    if dev {
        cmd.envs(DEV_PROFILE_ENV).arg("--config").arg(optimized_run_time("dev"));
    } else {
        cmd.arg("--release").envs(RELEASE_PROFILE_ENV);
    }
}

/// Run the harness build `cmd`, keeping the harness's executables.
fn run_harness_build(cmd: Command, manifest: &Path) -> Result<CargoRun> {
    run(cmd, |a| {
        if a.manifest_path.as_std_path() != manifest || !a.target.kind.contains(&TargetKind::Bin) {
            return None;
        }
        Some(TestBinary {
            cwd: manifest.parent().map(Path::to_owned).unwrap_or_default(),
            package: a.target.name.clone(),
            target: format!("bin {}", a.target.name),
            runner: Runner::Plain(a.executable.clone()?.into_std_path_buf()),
        })
    })
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
/// executables that `artifact` picks. Cargo runs in a process group of its own, which
/// an interrupt kills.
fn run(
    mut cmd: Command,
    artifact: impl Fn(&cargo_metadata::Artifact) -> Option<TestBinary>,
) -> Result<CargoRun> {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null());
    interrupt::own_group(&mut cmd);
    let mut child = cmd.spawn().context("failed to run cargo")?;
    let registered = interrupt::register(child.id());
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    let stderr_thread = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
    let mut errors = Vec::new();
    let mut binaries = Vec::new();
    let mut seen = HashSet::new();
    let mut started = false;
    for msg in Message::parse_stream(BufReader::new(stdout)) {
        let msg = msg.context("failed to read cargo's output")?;
        started |= !matches!(msg, Message::TextLine(_) | Message::BuildFinished(_));
        match msg {
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
    drop(registered);
    if interrupt::interrupted() {
        return Err(crate::console::exit_code::interrupted());
    }
    let stderr = strip_colours(&stderr_thread.join().unwrap_or_default());
    Ok(CargoRun { success: status.success(), errors, binaries, stderr, started })
}

/// `text` without ANSI escape sequences (a user's `CARGO_TERM_COLOR=always` colours even
/// piped output): each `ESC [ … final-byte` removed whole.
pub fn strip_colours(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'[') {
            chars.next();
            // Parameter and intermediate bytes, then one final byte in `@`..=`~`.
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            chars.next();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wrapper_is_a_copy_per_build_and_older_copies_go() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("cargo-mutfuzz");
        std::fs::write(&exe, b"build one").unwrap();
        let wrappers = dir.path().join("wrapper");
        let first = copy_of_build(&exe, &wrappers).unwrap();
        assert_eq!(std::fs::read(&first).unwrap(), b"build one");
        assert_eq!(copy_of_build(&exe, &wrappers).unwrap(), first);
        // A new build (another size) replaces it, and the original may then go.
        std::fs::write(&exe, b"build number two").unwrap();
        let second = copy_of_build(&exe, &wrappers).unwrap();
        assert_ne!(second, first);
        assert!(!first.exists());
        std::fs::remove_file(&exe).unwrap();
        assert_eq!(std::fs::read(&second).unwrap(), b"build number two");
        assert_eq!(std::fs::read_dir(&wrappers).unwrap().count(), 1);
    }

    #[test]
    fn colour_codes_are_removed_whole() {
        let coloured =
            "\u{1b}[1m\u{1b}[31merror\u{1b}[0m: the specification\u{1b}[0m `p` is ambiguous\u{1b}[K";
        assert_eq!(strip_colours(coloured), "error: the specification `p` is ambiguous");
        assert_eq!(strip_colours("plain [1m text"), "plain [1m text");
    }

    #[test]
    fn a_full_disk_is_found_in_cargos_output() {
        let run = |stderr: &str| CargoRun {
            success: false,
            errors: Vec::new(),
            binaries: Vec::new(),
            stderr: stderr.to_owned(),
            started: true,
        };
        let full = run(
            "   Compiling demo v0.1.0\nerror: failed to write `x.rlib`: No space left on device (os error 28)\n",
        );
        assert_eq!(
            full.disk_full(),
            Some("error: failed to write `x.rlib`: No space left on device (os error 28)")
        );
        assert_eq!(run("error: could not compile `demo`\n").disk_full(), None);
    }

    fn env_of(cmd: &Command) -> Vec<(String, String)> {
        cmd.get_envs().filter_map(|(k, v)| Some((k.to_str()?.to_owned(), v?.to_str()?.to_owned()))).collect()
    }

    #[test]
    fn harness_builds_are_optimized_with_checks_and_unwinding_unless_dev() {
        let mut cmd = Command::new("cargo");
        set_profile(&mut cmd, false);
        assert!(cmd.get_args().any(|a| a == "--release"));
        let env = env_of(&cmd);
        for (k, v) in [
            ("CARGO_PROFILE_RELEASE_OPT_LEVEL", "3"),
            ("CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS", "true"),
            ("CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS", "true"),
            ("CARGO_PROFILE_RELEASE_PANIC", "unwind"),
        ] {
            assert!(env.contains(&(k.to_owned(), v.to_owned())), "{k} in {env:?}");
        }

        let mut cmd = Command::new("cargo");
        set_profile(&mut cmd, true);
        assert!(!cmd.get_args().any(|a| a == "--release"));
        let env = env_of(&cmd);
        assert!(env.contains(&("CARGO_PROFILE_DEV_PANIC".to_owned(), "unwind".to_owned())), "{env:?}");
        let args: Vec<_> = cmd.get_args().collect();
        assert!(
            args.windows(2).any(|w| w == ["--config", r#"profile.dev.package."mutfuzz-rt".opt-level=3"#])
        );
        assert!(env.iter().all(|(k, _)| !k.starts_with("CARGO_PROFILE_RELEASE")), "{env:?}");
    }
}
