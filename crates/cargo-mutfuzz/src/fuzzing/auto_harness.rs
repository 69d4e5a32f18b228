//! The generated harness (`init --auto`): the package's public API read
//! (`mutfuzz_api`), the targets written, compile-checked against the package — an item
//! that does not compile is left out with the compiler's message, and the rest written
//! again — then formatted with rustfmt.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use mutfuzz_api::{Exclusions, Harness};
use mutfuzz_contract::write_atomic;

use crate::schema::cargo_build::cargo;
use crate::workspace::engine;
use crate::workspace::layout::Layout;
use crate::workspace::{Features, Package};

/// The generated module's file name, beside the harness's `main.rs`.
pub const MODULE: &str = "auto.rs";

/// At most this many compile rounds: each removes every item an error points at.
const MAX_ROUNDS: usize = 8;

/// A harness generated and checked.
pub struct Checked {
    pub harness: Harness,
    /// The module's text, formatted.
    pub text: String,
    /// Compile rounds run.
    pub rounds: usize,
}

/// Reads `package`'s API with the features `features` turn on (`#[cfg(feature = "…")]`
/// evaluated with them) and generates its harness module, checked with `cargo check` in
/// `layout`'s scratch harness (the package by path with those features, the engine this
/// binary carries).
pub fn generate(package: &Package, layout: &Layout, features: &Features) -> Result<Checked> {
    let Some(lib) = &package.lib_root else {
        bail!("{} has no library target: `init --auto` drives a library's public API", package.name)
    };
    let krate = package.lib_name.clone().unwrap_or_else(|| package.name.replace('-', "_"));
    let on = features.enabled(&package.root.join("Cargo.toml"), &package.name);
    let api = mutfuzz_api::read(lib, &krate, &on)?;
    let dir = layout.auto_check();
    write_check_package(&dir, package, layout, features)?;
    let mut excluded = Exclusions::new();
    let mut last = String::new();
    for round in 1..=MAX_ROUNDS {
        let harness = mutfuzz_api::generate(&api, &package.name, &excluded);
        if harness.module.targets.is_empty() {
            return Ok(Checked { text: harness.module.text.clone(), harness, rounds: round - 1 });
        }
        write_atomic(&dir.join("src").join(MODULE), harness.module.text.as_bytes())?;
        let errors = check(&dir, layout)?;
        if errors.is_empty() {
            // The harness's own edition.
            let text = rustfmt(&harness.module.text, &package.root, "2021");
            return Ok(Checked { harness, text, rounds: round });
        }
        last = errors[0].2.clone();
        let mut placed = false;
        for (line, message, _) in &errors {
            if let Some(item) = line.and_then(|l| harness.module.item_at(l)) {
                excluded.entry(item.to_owned()).or_insert_with(|| format!("does not compile: {message}"));
                placed = true;
            }
        }
        if !placed {
            // At the targets' list: a type built at parameters its impls do not accept
            // (`BinaryHeap<i64, i64, 16>`, whose `K: Kind` only the impls ask). Its
            // constructors and associated functions go, and with them what needs it.
            let unplaced: Vec<&str> = errors
                .iter()
                .filter(|(line, ..)| line.is_none_or(|l| harness.module.item_at(l).is_none()))
                .map(|(.., rendered)| rendered.as_str())
                .collect();
            let named = |path: &str| {
                // As rustc shows it: `k::Ring<i64, i64, 16>`, or `Ring<i64, i64, 16>` alone.
                let shown = path.replace("::<", "<");
                let head = shown.find('<').unwrap_or(shown.len());
                let tail = shown[..head].rfind("::").map_or(&shown[..], |at| &shown[at + 2..]);
                unplaced.iter().any(|m| m.contains(&format!("`{tail}`")) || m.contains(&format!("::{tail}`")))
            };
            let why = |path: &str| format!("does not compile: `{path}` does not meet its impls' bounds");
            // Only a type the plan put parameters in: one the crate wrote whole is not it.
            for t in harness.plan.types.iter().filter(|t| t.path.contains("::<") && named(&t.path)) {
                for c in &t.constructors {
                    excluded.entry(format!("{}::{}", t.path, c.variant)).or_insert_with(|| why(&t.path));
                    placed = true;
                }
            }
            for call in &harness.plan.calls {
                // The key has no turbofish of the call's own (`f::<Vec<i64>>`) to split in.
                if let Some((owner, _)) = call.function.key().rsplit_once("::")
                    && owner.contains("::<")
                    && named(owner)
                {
                    excluded.entry(call.key()).or_insert_with(|| why(owner));
                    placed = true;
                }
            }
        }
        if !placed {
            let (_, message, rendered) = &errors[0];
            let message = if errors[0].0.is_some() { message } else { rendered };
            bail!(
                "the generated harness does not compile, and the error is in no one item: {message}\n\
                 (the generated module is {})",
                dir.join("src").join(MODULE).display()
            );
        }
    }
    bail!(
        "the generated harness still does not compile after {MAX_ROUNDS} rounds of leaving items out, a \
         defect of cargo mutfuzz; the last error:\n{last}\n(the generated module is {})",
        dir.join("src").join(MODULE).display()
    )
}

fn write_check_package(dir: &Path, package: &Package, layout: &Layout, features: &Features) -> Result<()> {
    engine::write(layout)?;
    let engine_path = |name: &str| layout.engine_crate(name).to_string_lossy().into_owned();
    let dependency =
        features.dependency(&package.root.to_string_lossy(), &package.root.join("Cargo.toml"), &package.name);
    let mut manifest = format!(
        "[package]\nname = \"{0}-mutfuzz\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\n{0} = {dependency}\nmutfuzz = \"{1}\"\n\n[patch.crates-io]\n",
        package.name,
        engine::VERSION
    );
    for name in engine::crates() {
        manifest.push_str(&format!("{name} = {{ path = {:?} }}\n", engine_path(name)));
    }
    manifest.push_str("\n[workspace]\n");
    crate::workspace::fs_util::write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    crate::workspace::fs_util::write_if_changed(&dir.join("src/main.rs"), &main_rs(&package.name))?;
    Ok(())
}

/// The `main.rs` of a generated harness: the module, and room for the user's targets.
pub fn main_rs(package: &str) -> String {
    format!(
        "//! Fuzz targets for `{package}`. `auto.rs` holds those `cargo mutfuzz init --auto` generated\n\
         //! from the crate's public API (run it again after the API changes; it rewrites only\n\
         //! `auto.rs`). Add your own targets here and list them after `generated = auto`.\n\
         \n\
         mod auto;\n\
         \n\
         mutfuzz::targets!(generated = auto);\n"
    )
}

/// `cargo check`'s errors in the generated module: (line in it, message, as rendered).
fn check(dir: &Path, layout: &Layout) -> Result<Vec<(Option<usize>, String, String)>> {
    let out = Command::new(cargo())
        .args(["check", "--quiet", "--message-format=json", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(layout.root().join("target-fuzz"))
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .context("failed to run cargo check on the generated harness")?;
    let mut errors = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        if msg["reason"] != "compiler-message" || msg["message"]["level"] != "error" {
            continue;
        }
        let message = msg["message"]["message"].as_str().unwrap_or("").to_owned();
        if message.starts_with("aborting due to") {
            continue;
        }
        let rendered = msg["message"]["rendered"].as_str().unwrap_or(&message).to_owned();
        // An error of another target, before the generated code compiles: the crate's own
        // (or a dependency's), as a build of it with these features would show it.
        let src = Path::new(msg["target"]["src_path"].as_str().unwrap_or(""));
        let main = dir.join("src/main.rs");
        let harness =
            src == main || src.canonicalize().ok().is_some_and(|s| main.canonicalize().is_ok_and(|m| s == m));
        if !harness {
            let target = msg["target"]["name"].as_str().unwrap_or("?");
            bail!(
                "`{target}` does not build with this toolchain and these features, before any generated \
                 code (fix it first):\n{}",
                rendered.trim_end()
            );
        }
        let spans = msg["message"]["spans"].as_array().cloned().unwrap_or_default();
        let line = spans
            .iter()
            .filter(|s| s["file_name"].as_str().is_some_and(|f| f.ends_with(MODULE)))
            .find_map(|s| s["line_start"].as_u64())
            .map(|l| l as usize);
        errors.push((line, message, rendered));
    }
    if errors.is_empty() && !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        bail!("cargo check of the generated harness failed:\n{}", stderr.trim_end());
    }
    Ok(errors)
}

/// `text` formatted by rustfmt with the package's own settings, for `edition` (a written
/// test is formatted as the crate's `cargo fmt` formats it), or as it is when rustfmt is
/// not installed.
pub fn rustfmt(text: &str, package_root: &Path, edition: &str) -> String {
    let child = Command::new("rustfmt")
        .args(["--edition", edition, "--emit", "stdout", "--quiet"])
        .current_dir(package_root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else { return text.to_owned() };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(text.as_bytes());
    }
    match child.wait_with_output() {
        Ok(out) if out.status.success() && !out.stdout.is_empty() => {
            String::from_utf8_lossy(&out.stdout).into_owned()
        }
        _ => text.to_owned(),
    }
}

/// Skip reasons grouped for the summary: (reason class, count), most frequent first.
pub fn reason_counts(harness: &Harness) -> Vec<(String, usize)> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for s in &harness.plan.skipped {
        *counts.entry(reason_class(&s.reason)).or_default() += 1;
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

fn reason_class(reason: &str) -> String {
    let classes = [
        ("touches ", None),
        ("parameter ", Some("a parameter cannot be generated")),
        ("no known type meets", Some("generic bounds with no known instance")),
        ("does not compile", Some("does not compile")),
        ("returns ", Some("result has neither Debug nor Display")),
        ("a method of the trait", Some("method of a crate trait (not driven)")),
        ("a method of the generic type", Some("method of a generic type")),
        ("a method of ", Some("method of a type with no public constructor")),
        ("consumes ", Some("consumes a value that is not Clone")),
    ];
    for (prefix, class) in classes {
        if reason.starts_with(prefix) {
            return class.map_or_else(|| reason.to_owned(), str::to_owned);
        }
    }
    reason.to_owned()
}

/// The generated item around `line` of the harness's `auto.rs`: what a build error
/// there names, for a harness generated before the crate's API changed.
pub fn item_at_line(harness_dir: &Path, line: usize) -> Option<String> {
    let text = fs::read_to_string(harness_dir.join("src").join(MODULE)).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    let upto = line.min(lines.len());
    lines[..upto].iter().rev().find_map(|l| {
        let l = l.trim_start();
        ["pub fn ", "pub enum ", "impl "].iter().find_map(|p| l.strip_prefix(p)).map(|rest| {
            rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("").to_owned()
        })
    })
}

/// The line of the first error in the harness's `auto.rs` in a build's messages.
pub fn first_error_line(messages: &str) -> Option<usize> {
    messages.lines().find_map(|l| {
        let i = l.find(&format!("src/{MODULE}:"))?;
        l[i + MODULE.len() + 5..].split(':').next()?.parse().ok()
    })
}

/// Where the harness's generated module is.
pub fn module_path(harness_dir: &Path) -> PathBuf {
    harness_dir.join("src").join(MODULE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_error_in_the_module_names_the_item_around_it() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("src")).unwrap();
        let text = "//! x\n\n/// `k::f`\npub fn f(a: u8) -> u8 {\n    k::f(a)\n}\n\npub enum MakeDoc {\n    New,\n}\n";
        fs::write(dir.path().join("src/auto.rs"), text).unwrap();
        assert_eq!(item_at_line(dir.path(), 5).as_deref(), Some("f"));
        assert_eq!(item_at_line(dir.path(), 9).as_deref(), Some("MakeDoc"));
        assert_eq!(item_at_line(dir.path(), 1), None);
        let messages = "error[E0425]: cannot find function `f` in crate `k`\n --> src/auto.rs:5:8\n";
        assert_eq!(first_error_line(messages), Some(5));
    }
}
