//! Helpers shared by the end-to-end tests.

use std::path::Path;

/// Copy a crate tree without its build output, corpus or results.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" || name == "corpus" || name.to_string_lossy().starts_with("mutfuzz.out") {
            continue;
        }
        let dest = to.join(&name);
        let ty = entry.file_type().unwrap();
        if ty.is_symlink() {
            // Kept a link, as the user's tree has it.
            #[cfg(unix)]
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), dest).unwrap();
        } else if ty.is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// `cargo mutfuzz <args>` in `cwd`, without the variables of ours (`MUTFUZZ_*`,
/// `CARGO_TARGET_DIR`) that the environment running the tests may set.
#[allow(dead_code)]
pub fn mutfuzz_command(cwd: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("cargo-mutfuzz").unwrap();
    cmd.arg("mutfuzz").args(args).current_dir(cwd);
    for (k, _) in std::env::vars() {
        if k.starts_with("MUTFUZZ_") || k == "CARGO_TARGET_DIR" {
            cmd.env_remove(k);
        }
    }
    cmd
}

/// Processes whose command line mentions `dir` (test binaries of its copy, cargo).
// Each test crate includes this module and uses part of it.
#[allow(dead_code)]
#[cfg(target_os = "linux")]
pub fn processes_under(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(&needle) {
            found.push(format!("{}: {cmdline}", entry.file_name().to_string_lossy()));
        }
    }
    found
}

/// `outcome  file:line:col: description`, one line per mutant of an `outcomes.json`.
#[allow(dead_code)]
pub fn outcome_lines(outcomes: &serde_json::Value) -> String {
    let mut text = String::new();
    for o in outcomes["outcomes"].as_array().unwrap() {
        let m = &o["mutant"];
        text.push_str(&format!(
            "{:<12}{}:{}:{}: {}\n",
            o["outcome"].as_str().unwrap(),
            m["file"].as_str().unwrap(),
            m["span"]["start"]["line"],
            m["span"]["start"]["column"],
            m["description"].as_str().unwrap()
        ));
    }
    text
}
