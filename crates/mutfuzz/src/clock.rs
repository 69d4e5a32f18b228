//! The clock a campaign's time budget is read on: the wall clock, or the CPU time of
//! the harness process and its mutant workers (so that configurations compared for
//! "equal time" on a shared machine get equal work, however loaded the machine is).

use std::time::{Duration, Instant};

/// A started clock.
#[derive(Clone, Copy, Debug)]
pub enum Clock {
    /// Wall time since the start.
    Wall(Instant),
    /// CPU time (user + system, every thread) of this process and its worker processes
    /// since the start.
    Cpu(Duration),
}

impl Clock {
    /// A clock started now: the CPU one if `cpu`.
    pub fn start(cpu: bool) -> Clock {
        if cpu { Clock::Cpu(campaign_cpu_time()) } else { Clock::Wall(Instant::now()) }
    }

    /// Time on this clock since it started.
    pub fn elapsed(&self) -> Duration {
        match self {
            Clock::Wall(start) => start.elapsed(),
            Clock::Cpu(start) => campaign_cpu_time().saturating_sub(*start),
        }
    }
}

/// CPU time this process and its mutant workers, live or ended, have used.
fn campaign_cpu_time() -> Duration {
    process_cpu_time() + crate::workers::workers_cpu_time()
}

/// CPU time this process has used: one `clock_gettime` call (a system call, so it is
/// read every few trials, not per run).
pub fn process_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec.max(0) as u64, ts.tv_nsec.clamp(0, 999_999_999) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_clock_advances_with_work() {
        // (Whether it stands still in a sleep cannot be seen here: it counts every thread
        // of the process, and other tests run beside this one. The harness's end-to-end
        // test checks that a campaign's CPU seconds stay below its wall seconds.)
        let clock = Clock::start(true);
        let mut x = 0u64;
        let busy = Instant::now();
        while busy.elapsed() < Duration::from_millis(200) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        // Busy for 200 ms of wall time: at least some of it on a CPU, even when loaded.
        assert!(clock.elapsed() > Duration::from_millis(5), "working used {:?} of CPU", clock.elapsed());
    }

    #[test]
    fn the_wall_clock_advances_with_sleep() {
        let clock = Clock::start(false);
        std::thread::sleep(Duration::from_millis(20));
        assert!(clock.elapsed() >= Duration::from_millis(20));
    }
}
