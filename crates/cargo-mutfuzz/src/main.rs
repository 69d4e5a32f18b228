//! The `cargo-mutfuzz` binary: see the library.

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Harness builds run this binary as the rustc wrapper, to add edge coverage.
    if let Some(code) = cargo_mutfuzz::rustc_wrapper::run_if_wrapper(&args) {
        std::process::exit(code);
    }
    std::process::exit(cargo_mutfuzz::run(args));
}
