//! Ctrl-C, SIGTERM and SIGHUP: the first one stops the command in good order, the
//! second exits at once with [`EXIT_CODE`].
//!
//! Every child process `cargo mutfuzz` starts (cargo builds, test processes, the fuzz
//! harness) runs in its own process group, so a signal from the terminal does not reach
//! it; it is registered here while it runs, and the first signal kills every registered
//! group. The commands then see [`interrupted`], record what finished, and exit with
//! [`EXIT_CODE`].

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code of an interrupted command.
pub const EXIT_CODE: i32 = crate::console::exit_code::INTERRUPTED;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Process groups of the children now running.
static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Install the handler (once per process; later calls do nothing).
pub fn install() {
    // The handler runs on a thread of its own, not in signal context: locking is fine.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_CODE);
        }
        for &pid in GROUPS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            kill_group(pid);
        }
    });
}

/// Whether the command was interrupted.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// A running child's process group, registered until dropped.
#[derive(Debug)]
pub struct Registered(u32);

/// Register the process group led by `pid` (a child started with `process_group(0)`).
/// If the command was interrupted already, the group is killed at once.
pub fn register(pid: u32) -> Registered {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner()).push(pid);
    if interrupted() {
        kill_group(pid);
    }
    Registered(pid)
}

impl Drop for Registered {
    fn drop(&mut self) {
        // Forgotten once the child is reaped: its id may be reused.
        GROUPS.lock().unwrap_or_else(|e| e.into_inner()).retain(|&p| p != self.0);
    }
}

/// Kill the process group led by `pid`.
pub fn kill_group(pid: u32) {
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(pid)
        && pid > 0
    {
        // SAFETY: killpg only sends a signal; the group is a child's own (process_group(0)).
        unsafe {
            libc::killpg(pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// Put `cmd`'s child in a process group of its own (led by the child).
pub fn own_group(cmd: &mut std::process::Command) {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(cmd, 0);
    #[cfg(not(unix))]
    let _ = cmd;
}
