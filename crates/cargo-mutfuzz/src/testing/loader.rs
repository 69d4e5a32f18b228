//! The dynamic loader's search path of a test process, as `cargo test` sets it: the
//! toolchain's target library dir (a proc-macro crate's test binary links `libstd`
//! dynamically) and the directory of the executable's dependencies.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The variable the platform's loader searches, as cargo uses it.
pub const VAR: &str = if cfg!(windows) {
    "PATH"
} else if cfg!(target_os = "macos") {
    "DYLD_FALLBACK_LIBRARY_PATH"
} else {
    "LD_LIBRARY_PATH"
};

/// `rustc --print target-libdir`, asked once (`None` if rustc cannot tell).
fn target_libdir() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let out = Command::new(rustc).args(["--print", "target-libdir"]).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        let dir = PathBuf::from(text.trim());
        (out.status.success() && dir.is_dir()).then_some(dir)
    })
    .as_deref()
}

/// The search path for running `exe`: its own directory and the toolchain's library
/// dir first, then whatever the variable held (on macOS, cargo's fallback defaults when
/// it held nothing).
pub fn search_path(exe: &Path, current: Option<OsString>) -> OsString {
    let mut dirs: Vec<PathBuf> = Vec::new();
    dirs.extend(exe.parent().map(Path::to_owned));
    dirs.extend(target_libdir().map(Path::to_owned));
    match current.filter(|c| !c.is_empty()) {
        Some(c) => dirs.extend(std::env::split_paths(&c)),
        None if cfg!(target_os = "macos") => {
            if let Some(home) = std::env::var_os("HOME") {
                dirs.push(PathBuf::from(home).join("lib"));
            }
            dirs.extend(["/usr/local/lib", "/usr/lib"].map(PathBuf::from));
        }
        None => {}
    }
    std::env::join_paths(dirs).unwrap_or_default()
}

/// Set the loader's search path on `cmd`, which runs `exe`.
pub fn set(cmd: &mut Command, exe: &Path) {
    cmd.env(VAR, search_path(exe, std::env::var_os(VAR)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_path_starts_with_the_executables_dir_and_keeps_the_users() {
        let path = search_path(Path::new("/t/debug/deps/x-123"), Some(OsString::from("/opt/lib")));
        let dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
        assert_eq!(dirs.first(), Some(&PathBuf::from("/t/debug/deps")));
        assert_eq!(dirs.last(), Some(&PathBuf::from("/opt/lib")));
        // The toolchain's own dir, which holds libstd.
        let libdir = target_libdir().expect("rustc names its target-libdir");
        assert!(dirs.contains(&libdir.to_owned()), "{dirs:?}");
        assert!(std::fs::read_dir(libdir).unwrap().flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("libstd-") || name.starts_with("std-")
        }));
    }
}
