//! What forking at the first infection would cost a mutant run (AccMut, WinMut): a fork
//! of a process holding R MiB, a child that writes K pages and exits, and the wait for
//! it, side by side in one run with what it would replace, starting a process.
//!
//! Run: `cargo bench -p cargo-mutfuzz --bench fork_cost [-- FORKS]` (Linux).

use std::process::Command;
use std::time::Instant;

/// Resident sizes of the forking process, in MiB: a small test binary, a fuzz harness
/// on a large example, a large test binary.
const RESIDENT_MIB: [usize; 3] = [8, 70, 300];
/// Pages the child writes before it exits (each a copy-on-write fault).
const DIRTIED: [usize; 2] = [10, 200];

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--exit") {
        return;
    }
    let forks: u32 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(200);
    let exe = std::env::current_exe().expect("the bench's executable");
    let start = Instant::now();
    for _ in 0..forks {
        let status = Command::new(&exe).arg("--exit").status().expect("start the bench again");
        assert!(status.success());
    }
    let spawn = per_run_ms(start, forks);
    println!("process start (spawn, exit, wait): {spawn:.3} ms");
    for mib in RESIDENT_MIB {
        let mut heap = vec![1u8; mib << 20];
        // Touch every page, so that all of it is resident and mapped.
        for i in (0..heap.len()).step_by(4096) {
            heap[i] = (i % 251) as u8;
        }
        for pages in DIRTIED {
            let ms = fork_ms(&mut heap, pages, forks);
            println!(
                "fork of {mib} MiB, child writes {pages} pages: {ms:.3} ms ({:.2} of a process start)",
                ms / spawn
            );
        }
        std::hint::black_box(&heap);
    }
}

/// Milliseconds per fork, `pages` writes in the child, `_exit` and `waitpid`.
fn fork_ms(heap: &mut [u8], pages: usize, forks: u32) -> f64 {
    let start = Instant::now();
    for _ in 0..forks {
        // SAFETY: this process has one thread; the child only writes its own copy of
        // `heap` and leaves by `_exit`, running no destructor or atexit handler.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            for p in 0..pages {
                let i = (p * 7 * 4096) % heap.len();
                heap[i] = heap[i].wrapping_add(1);
            }
            // SAFETY: ends the child at once.
            unsafe { libc::_exit(0) };
        }
        let mut status = 0;
        // SAFETY: waits for the child just forked.
        unsafe { libc::waitpid(pid, &mut status, 0) };
    }
    per_run_ms(start, forks)
}

fn per_run_ms(start: Instant, runs: u32) -> f64 {
    start.elapsed().as_secs_f64() * 1e3 / f64::from(runs)
}
