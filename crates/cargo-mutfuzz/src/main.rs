//! The `cargo-mutfuzz` binary: see the library.

fn main() {
    std::process::exit(cargo_mutfuzz::run(std::env::args_os()));
}
