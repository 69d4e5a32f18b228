//! The lock on one workspace's `target/mutfuzz/`: a command that writes the scratch copy
//! and the records there (`test`, `fuzz`, `score`, `eval`, …) holds it until it exits,
//! so a second command on the same crate refuses at once, naming the first, instead of
//! rewriting the schema under its builds or interleaving its records.
//!
//! It is an advisory `flock` on `target/mutfuzz/lock`, which holds the holder's pid and
//! command line for the message. The kernel drops the lock when its holder exits however
//! it exits (SIGKILL too), so a lock file left behind never blocks anyone; the file is
//! opened close-on-exec, so the test processes and harnesses a command starts do not
//! hold it after it is gone.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result};

/// The locks this process holds, each kept open (and so held) until it exits.
static HELD: Mutex<Vec<(PathBuf, File)>> = Mutex::new(Vec::new());

/// The lock file of `target/mutfuzz/` at `root`.
pub fn path(root: &Path) -> PathBuf {
    root.join("lock")
}

/// Take the lock on `target/mutfuzz/` at `root` for the rest of this process (again:
/// nothing). Fails, naming the holder, when another process holds it.
pub fn hold(root: &Path) -> Result<()> {
    let path = path(root);
    let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
    if held.iter().any(|(p, _)| p == &path) {
        return Ok(());
    }
    fs::create_dir_all(root).with_context(|| format!("failed to create {}", root.display()))?;
    let file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .with_context(|| format!("failed to open the lock file {}", path.display()))?;
    if !try_lock(&file)? {
        let holder = fs::read_to_string(&path).unwrap_or_default();
        let holder = holder.trim();
        let holder =
            if holder.is_empty() { "another process (starting)".to_owned() } else { holder.to_owned() };
        return Err(crate::console::exit_code::usage(anyhow::anyhow!(
            "another cargo mutfuzz command is using {} ({holder}): two commands on one crate would \
             rewrite each other's scratch copy and records; wait for it to end (or stop it), then run \
             this one again",
            root.display()
        )));
    }
    // Ours now: say who we are, for the message of the next one.
    let who = format!("pid {}: {}", std::process::id(), command_line());
    file.set_len(0)
        .and_then(|()| fs::write(&path, who + "\n"))
        .with_context(|| format!("failed to write the lock file {}", path.display()))?;
    held.push((path, file));
    Ok(())
}

/// This process's command line as a user typed it: `cargo mutfuzz test -j 2`.
fn command_line() -> String {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "mutfuzz") {
        args.remove(0);
    }
    std::iter::once("cargo mutfuzz".to_owned()).chain(args).collect::<Vec<_>>().join(" ")
}

/// Take the exclusive lock without waiting: `false` when another process holds it.
#[cfg(unix)]
fn try_lock(file: &File) -> Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor this function borrows; no memory is passed.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        return Ok(false);
    }
    Err(anyhow::anyhow!("cannot lock {e}"))
}

/// Elsewhere there is no lock: commands are not kept apart.
#[cfg(not(unix))]
fn try_lock(_file: &File) -> Result<bool> {
    Ok(true)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_with_the_first_ones_pid_and_command() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("mutfuzz");
        hold(&root).unwrap();
        hold(&root).unwrap(); // again in the same process: nothing
        let text = fs::read_to_string(path(&root)).unwrap();
        assert!(text.starts_with(&format!("pid {}: cargo mutfuzz", std::process::id())), "{text}");
        // flock locks belong to the open file: a second open in this process conflicts
        // as another process's would.
        let other = File::options().read(true).write(true).open(path(&root)).unwrap();
        assert!(!try_lock(&other).unwrap());
        // A lock file whose holder is gone (left by a killed run) locks nothing.
        let free = tempfile::tempdir().unwrap();
        fs::write(path(free.path()), "pid 1: cargo mutfuzz fuzz t\n").unwrap();
        let f = File::options().read(true).write(true).open(path(free.path())).unwrap();
        assert!(try_lock(&f).unwrap());
    }
}
