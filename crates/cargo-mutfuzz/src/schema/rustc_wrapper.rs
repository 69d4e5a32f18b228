//! `cargo-mutfuzz` as a rustc wrapper for harness builds: SanitizerCoverage on every
//! crate but mutfuzz's own, build scripts and proc-macros (stable `-C` flags only).
//!
//! Cargo runs `$RUSTC_WRAPPER $RUSTC <args>`; with [`ENV`] set, `cargo-mutfuzz` is that
//! wrapper. RUSTFLAGS cannot do this: they reach every crate alike, and instrumented
//! build scripts fail to link (the `__sanitizer_*` callbacks live in the engine).
//! Harness builds pass `--target <host>`, so cargo hands rustc `--target` only for
//! crates of the harness binary, never for build scripts, proc-macros or their
//! dependencies: that is what tells the two apart.

use std::ffi::OsString;
use std::process::Command;

/// Set (to anything) when `cargo-mutfuzz` runs as the rustc wrapper.
pub const ENV: &str = "MUTFUZZ_RUSTC_WRAPPER";
/// A wrapper the user had (such as sccache), run inside ours.
pub const INNER_ENV: &str = "MUTFUZZ_INNER_RUSTC_WRAPPER";

/// Edge coverage with inline 8-bit counters, read by `mutfuzz::coverage`.
pub const SANCOV_FLAGS: [&str; 3] = [
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=3",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
];

/// Crates never instrumented: the engine crates this binary carries (their code is not
/// under test, and the callbacks must not count themselves).
fn not_instrumented(crate_name: &str) -> bool {
    crate::workspace::engine::crates().iter().any(|c| c.replace('-', "_") == crate_name)
}

/// If this process was started as the rustc wrapper, run rustc and return its exit code.
pub fn run_if_wrapper(args: &[OsString]) -> Option<i32> {
    std::env::var_os(ENV)?;
    let rustc = args.get(1)?;
    let rest = &args[2..];
    let mut cmd = match std::env::var_os(INNER_ENV).filter(|w| !w.is_empty()) {
        Some(inner) => {
            let mut c = Command::new(inner);
            c.arg(rustc);
            c
        }
        None => Command::new(rustc),
    };
    cmd.args(rest);
    if instrument(rest) {
        cmd.args(SANCOV_FLAGS);
    }
    Some(match cmd.status() {
        Ok(status) => status.code().unwrap_or(101),
        Err(e) => {
            eprintln!("error: cargo-mutfuzz could not run rustc {rustc:?}: {e}");
            101
        }
    })
}

/// Should this rustc invocation be instrumented?
pub fn instrument(args: &[OsString]) -> bool {
    let args: Vec<&str> = args.iter().filter_map(|a| a.to_str()).collect();
    let value_of = |flag: &str| args.windows(2).find(|w| w[0] == flag).map(|w| w[1]);
    let Some(name) = value_of("--crate-name") else {
        // `rustc -vV` and other probes.
        return false;
    };
    if not_instrumented(name) || name.starts_with("build_script_") {
        return false;
    }
    let proc_macro = args.windows(2).any(|w| w[0] == "--crate-type" && w[1] == "proc-macro");
    let for_target = args.iter().any(|a| *a == "--target" || a.starts_with("--target="));
    for_target && !proc_macro
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn only_code_under_test_and_its_dependencies_are_instrumented() {
        let t = |name: &str, ty: &str| os(&["--crate-name", name, "--crate-type", ty, "--target", "x86_64"]);
        assert!(instrument(&t("textstats", "lib")));
        assert!(instrument(&t("serde", "lib")));
        assert!(!instrument(&t("mutfuzz_rt", "lib")));
        assert!(!instrument(&t("mutfuzz", "lib")));
        assert!(!instrument(&t("mutfuzz_contract", "lib")));
        assert!(!instrument(&t("build_script_build", "bin")));
        assert!(!instrument(&t("serde_derive", "proc-macro")));
        // A host build (a proc-macro's dependency): no `--target`.
        assert!(!instrument(&os(&["--crate-name", "syn", "--crate-type", "lib"])));
        assert!(!instrument(&os(&["-vV"])));
    }
}
