//! `cargo mutfuzz init`: scaffold the harness package `mutfuzz/` with one example target.
//! Its manifest names the engine by version, `mutfuzz = "<version>"`, with no path of
//! this machine in it: an ordinary dependency, which a plain `cargo build` takes from the
//! registry, and which `cargo mutfuzz` resolves to the engine it carries, wherever the
//! crate lives, offline, and after any `cargo clean`.

use std::fs;

use anyhow::{Context, Result};

use crate::commands::options::InitArgs;
use crate::console::{count, exit_code};
use crate::fuzzing::auto_harness;
use crate::fuzzing::harness;
use crate::workspace::engine;
use crate::workspace::layout::HARNESS_DIR;
use crate::workspace::layout::Layout;
use crate::workspace::{Features, Workspace};
use mutfuzz_contract::write_atomic;

/// Run the command; returns the exit code.
pub fn run(args: &InitArgs) -> Result<i32> {
    if args.auto {
        return run_auto(args);
    }
    harness::check_target_name(&args.target).map_err(exit_code::usage)?;
    if !args.target.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        || args.target.contains('-')
    {
        return Err(exit_code::usage(anyhow::anyhow!(
            "{:?} is not a Rust function name; pass --target with letters, digits and `_`",
            args.target
        )));
    }
    let ws = Workspace::open(&args.package)?;
    let package = harness::single_package(&ws)?;
    let dir = package.root.join(HARNESS_DIR);
    if dir.exists() {
        return Err(exit_code::usage(anyhow::anyhow!(
            "{} already exists; remove it first to make a new harness",
            dir.display()
        )));
    }
    fs::create_dir_all(dir.join("src")).with_context(|| format!("failed to create {}", dir.display()))?;
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        fs::write(&path, text).with_context(|| format!("failed to write {}", path.display()))
    };
    let features: Features = (&args.features).into();
    write("Cargo.toml", manifest(&package.name, engine::VERSION, &dependency(package, &features)))?;
    write("src/main.rs", main_rs(&package.name, &args.target))?;
    write(".gitignore", "target/\n".to_owned())?;
    eprintln!("Created the fuzz harness {} with target `{}`", dir.display(), args.target);
    eprintln!(
        "Edit {} to call your crate, then run: cargo mutfuzz fuzz {}",
        dir.join("src/main.rs").display(),
        args.target
    );
    Ok(exit_code::SUCCESS)
}

/// `init --auto`: generate `mutfuzz/src/auto.rs` from the public API; write the manifest
/// and `main.rs` only where there are none, so a user's own targets stay.
fn run_auto(args: &InitArgs) -> Result<i32> {
    let ws = Workspace::open(&args.package)?;
    let package = harness::single_package(&ws)?;
    let layout = Layout::new(&ws.target_dir);
    let features: Features = (&args.features).into();
    let checked = auto_harness::generate(package, &layout, &features)?;
    let h = &checked.harness;
    let skipped = &h.plan.skipped;
    let with = if features.is_default() { String::new() } else { format!(" with {}", features.describe()) };
    eprintln!(
        "Read the public API of {}{with}: {}, {} driven, {} skipped",
        package.name,
        count(h.plan.found, "item"),
        h.driven(),
        skipped.len()
    );
    if args.explain {
        for s in skipped {
            eprintln!("  skipped {} ({}): {}", s.item, s.location, s.reason);
        }
    } else if !skipped.is_empty() {
        let counts: Vec<String> =
            auto_harness::reason_counts(h).iter().map(|(reason, n)| format!("{n} {reason}")).collect();
        eprintln!("  skipped: {} (--explain lists them)", counts.join("; "));
    }
    if h.module.targets.is_empty() {
        let why: Vec<String> =
            skipped.iter().map(|s| format!("  {} ({}): {}", s.item, s.location, s.reason)).collect();
        return Err(exit_code::usage(anyhow::anyhow!(
            "no item of {}'s public API can be driven, so no harness was written{}{}",
            package.name,
            if why.is_empty() { ": it has no public functions or methods" } else { ":\n" },
            why.join("\n")
        )));
    }
    let dir = package.root.join(HARNESS_DIR);
    let src = dir.join("src");
    fs::create_dir_all(&src).with_context(|| format!("failed to create {}", src.display()))?;
    let write_new = |name: &str, text: String| -> Result<bool> {
        let path = dir.join(name);
        if path.exists() {
            return Ok(false);
        }
        write_atomic(&path, text.as_bytes())?;
        Ok(true)
    };
    let dependency = dependency(package, &features);
    if !write_new("Cargo.toml", manifest(&package.name, engine::VERSION, &dependency))?
        && !features.is_default()
    {
        eprintln!(
            "note: {} is yours and stays as it is: its dependency on {} decides the features the harness \
             builds with; for {} it reads\n  {} = {dependency}",
            dir.join("Cargo.toml").display(),
            package.name,
            features.describe(),
            package.name
        );
    }
    write_new(".gitignore", "target/\n".to_owned())?;
    let fresh_main = write_new("src/main.rs", auto_harness::main_rs(&package.name))?;
    let module = auto_harness::module_path(&dir);
    write_atomic(&module, checked.text.as_bytes())?;
    eprintln!(
        "Wrote {}: {} (checked with cargo check in {})",
        module.display(),
        count(h.module.targets.len(), "target"),
        count(checked.rounds, "round")
    );
    let main = src.join("main.rs");
    if !fresh_main && !fs::read_to_string(&main).unwrap_or_default().contains("mod auto") {
        eprintln!(
            "note: {} is yours and does not use the generated targets: add `mod auto;` and list \
             `generated = auto` first in `mutfuzz::targets!`",
            main.display()
        );
    }
    eprintln!("Fuzz every target: cargo mutfuzz fuzz --all --time 2m");
    Ok(exit_code::SUCCESS)
}

/// The harness's dependency on `package` (its parent directory) with `features`.
fn dependency(package: &crate::workspace::Package, features: &Features) -> String {
    features.dependency("..", &package.root.join("Cargo.toml"), &package.name)
}

/// The harness's manifest: `dependency` is its dependency on `package`, an inline table.
fn manifest(package: &str, engine_version: &str, dependency: &str) -> String {
    format!(
        r#"[package]
name = "{package}-mutfuzz"
version = "0.0.0"
edition = "2021"
publish = false

# Marks this package as a mutfuzz harness.
[package.metadata]
mutfuzz = true

[dependencies]
{package} = {dependency}
# The engine, an ordinary dependency: from the registry in your own builds; the builds
# `cargo mutfuzz` runs use the copy it carries (of this version).
mutfuzz = "{engine_version}"

# A workspace of its own, so it is not taken for a member of the crate's workspace.
[workspace]
"#
    )
}

fn main_rs(package: &str, target: &str) -> String {
    let krate = package.replace('-', "_");
    format!(
        r#"//! Fuzz targets for `{package}`: run one with `cargo mutfuzz fuzz <target>`.
//!
//! A target takes one generated value (any type implementing `mutfuzz::Gen`, or your own
//! type with `#[derive(mutfuzz::Gen)]`) and returns an output. A mutant of `{package}` is
//! killed by an input when the output differs from the original's (by `Debug`), or it
//! panics or runs away.

/// An example target: replace its body with a call into `{package}`.
fn {target}(input: Vec<u8>) -> usize {{
    // For example: `{krate}::parse(&input)`; return what the call computes.
    input.len()
}}

mutfuzz::targets!({target});
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scaffold_is_marked_and_names_the_target() {
        let m = manifest("my-crate", engine::VERSION, "{ path = \"..\" }");
        let doc: toml_edit::DocumentMut = m.parse().unwrap();
        assert_eq!(doc["package"]["metadata"]["mutfuzz"].as_bool(), Some(true));
        assert_eq!(doc["dependencies"]["my-crate"]["path"].as_str(), Some(".."));
        // No path of this machine: the engine by version only.
        assert_eq!(doc["dependencies"]["mutfuzz"].as_str(), Some(engine::VERSION));
        assert!(doc.contains_key("workspace"));
        let main = main_rs("my-crate", "sort");
        assert!(
            main.contains("fn sort(input: Vec<u8>)") && main.contains("mutfuzz::targets!(sort);"),
            "{main}"
        );
        assert!(main.contains("my_crate::parse"), "{main}");
    }

    #[test]
    fn the_harness_depends_on_the_package_with_the_features_given() {
        let dir = tempfile::tempdir().unwrap();
        let text = "[package]\nname = \"my-crate\"\n\n[features]\ndefault = [\"std\"]\nstd = []\ncheck = []\ncb58 = [\"check\"]\n";
        std::fs::write(dir.path().join("Cargo.toml"), text).unwrap();
        let features = Features {
            features: vec!["check,cb58".into()],
            no_default_features: true,
            ..Features::default()
        };
        let dependency = features.dependency("..", &dir.path().join("Cargo.toml"), "my-crate");
        let doc: toml_edit::DocumentMut = manifest("my-crate", engine::VERSION, &dependency).parse().unwrap();
        let dep = &doc["dependencies"]["my-crate"];
        assert_eq!(dep["path"].as_str(), Some(".."));
        let named: Vec<&str> =
            dep["features"].as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
        assert_eq!(named, ["check", "cb58"]);
        assert_eq!(dep["default-features"].as_bool(), Some(false));
    }
}
