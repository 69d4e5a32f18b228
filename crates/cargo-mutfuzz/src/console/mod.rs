//! Everything printed for people: phase messages, the progress bar, the summary (here),
//! the live status line of a campaign (`status`), the exit codes (`exit_code`) and
//! GitHub workflow commands (`annotations`).

pub(crate) mod annotations;
pub(crate) mod exit_code;
pub(crate) mod status;

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Whether `note` (a harness's: a target found nondeterministic) is new to this process:
/// it is said once, however many restarts, rounds of `fuzz --all` or `amplify`, and
/// scorings of the same target repeat it. A note of one of a target's inputs (`target t
/// gave two results on input …`) is said for its first input alone.
pub fn first_time(note: &str) -> bool {
    static SHOWN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let key = note.split_once(" on input ").map_or(note, |(target, _)| target);
    SHOWN.lock().map_or(true, |mut shown| shown.insert(key.to_owned()))
}

/// Messages go to stderr; the progress bar hides itself when stderr is not a terminal.
#[derive(Default)]
pub struct Console {
    bar: Option<ProgressBar>,
    quiet: bool,
}

impl Console {
    /// A console that shows nothing (errors go to stderr directly, not through it).
    pub fn quiet() -> Console {
        Console { bar: None, quiet: true }
    }

    /// Print a line (above the progress bar, if one is showing).
    pub fn message(&self, text: &str) {
        if self.quiet {
            return;
        }
        match &self.bar {
            // A hidden bar (stderr is not a terminal) would swallow the line.
            Some(bar) if !bar.is_hidden() => bar.println(text),
            _ => eprintln!("{text}"),
        }
    }

    /// Show a progress bar over `len` steps.
    pub fn start(&mut self, len: u64, what: &str) {
        if self.quiet {
            return;
        }
        let bar = ProgressBar::new(len);
        bar.set_style(
            ProgressStyle::with_template("{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}")
                .expect("valid template"),
        );
        bar.set_prefix(what.to_owned());
        bar.enable_steady_tick(Duration::from_millis(200));
        self.bar = Some(bar);
    }

    /// Advance the bar by one, showing `msg`.
    pub fn step(&self, msg: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(msg.to_owned());
            bar.inc(1);
        }
    }

    /// Remove the bar.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// `1 target`, `3 targets`: a count and its noun (plural by `s`).
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// `35ms`, `1.2s`, `3m04s`.
pub fn duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1.0 {
        format!("{}ms", d.as_millis())
    } else if s < 60.0 {
        format!("{s:.1}s")
    } else {
        format!("{}m{:02}s", (s / 60.0) as u64, (s % 60.0) as u64)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_note_is_new_once() {
        let note = "target console_test is nondeterministic (a note of this test alone)";
        assert!(super::first_time(note));
        assert!(!super::first_time(note));
        assert!(super::first_time("target console_test_2 is nondeterministic"));
        let input = |n: u8| format!("target console_test_3 gave two results on input {n} (…)");
        assert!(super::first_time(&input(1)));
        assert!(!super::first_time(&input(2)));
    }

    #[test]
    fn a_count_of_one_is_singular() {
        assert_eq!([0, 1, 2].map(|n| super::count(n, "target")), ["0 targets", "1 target", "2 targets"]);
    }
}
