//! Hands this crate's directory to the build script of `cargo-mutfuzz`, which embeds
//! the sources (see its `build.rs`). Dropped from the copy that `cargo mutfuzz` writes out.

fn main() {
    println!("cargo::metadata=root={}", std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    println!("cargo::rerun-if-changed=build.rs");
}
