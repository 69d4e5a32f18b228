//! Tests of discovery as a whole: the exact mutants found in small snippets and small
//! package layouts, and proof that each schema compiles (with `rustc`, against the real
//! run-time crate) and behaves.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use super::*;

mod config_effects;
mod layout;
mod operators;

pub(crate) fn discover(src: &str) -> Discovery {
    Discovery::from_source("src/lib.rs", src, &Config::default()).unwrap()
}

pub(crate) fn names(src: &str) -> Vec<String> {
    discover(src).mutants.iter().map(|m| m.name()).collect()
}

/// Build `mutfuzz-rt` once as an rlib for the compile checks.
pub(crate) fn rt_rlib() -> &'static PathBuf {
    static RLIB: OnceLock<PathBuf> = OnceLock::new();
    RLIB.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../mutfuzz-rt/src/lib.rs");
        let out = dir.join("libmutfuzz_rt.rlib");
        let status = Command::new(rustc())
            .args(["--edition", "2021", "--crate-type", "rlib", "--crate-name", "mutfuzz_rt", "-o"])
            .arg(&out)
            .arg(src)
            .status()
            .unwrap();
        assert!(status.success(), "mutfuzz-rt does not build");
        out
    })
}

pub(crate) fn rustc() -> String {
    std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned())
}

/// Compile `schema` with the run-time crate; `bin` builds and runs an executable with each
/// of `runs` as `MUTFUZZ_ACTIVE`, returning the outputs.
pub(crate) fn compile(schema: &str, bin: bool, runs: &[u32]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("schema.rs");
    std::fs::write(&file, schema).unwrap();
    let mut cmd = Command::new(rustc());
    cmd.args(["--edition", "2024", "--crate-name", "schema", "-Dwarnings", "--extern"])
        .arg(format!("mutfuzz_rt={}", rt_rlib().display()))
        .arg("--out-dir")
        .arg(dir.path());
    if bin {
        cmd.args(["--crate-type", "bin"]);
    } else {
        cmd.args(["--crate-type", "lib", "--emit", "metadata"]);
    }
    let out = cmd.arg(&file).output().unwrap();
    assert!(
        out.status.success(),
        "schema does not compile:\n{}\n--- schema ---\n{schema}",
        String::from_utf8_lossy(&out.stderr)
    );
    runs.iter()
        .map(|id| {
            let out = Command::new(dir.path().join("schema"))
                .env("MUTFUZZ_ACTIVE", id.to_string())
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).trim().to_owned()
        })
        .collect()
}

/// The schema of `src` with every mutant enabled; asserts that it compiles.
pub(crate) fn assert_schema_compiles(src: &str) -> Discovery {
    let d = discover(src);
    let r = d.render(0, &|_| true);
    let lines = |s: &str| s.lines().count();
    assert_eq!(lines(&r.text), lines(src), "schema keeps the line count:\n{}", r.text);
    compile(&r.text, false, &[]);
    d
}
