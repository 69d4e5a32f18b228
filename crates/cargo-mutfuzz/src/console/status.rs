//! The live status line of a campaign: on a terminal one line redrawn in place, otherwise
//! a plain line every few seconds (so CI logs stay readable).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::console::duration;

/// What the status line shows, summed over every harness process of the campaign.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Wall time since the campaign started.
    pub elapsed: Duration,
    /// Trials, over every restart.
    pub trials: u64,
    /// Saved inputs.
    pub corpus: u64,
    /// Edges the saved inputs cover.
    pub edges: u64,
    /// Mutants killed.
    pub killed: u64,
    /// Mutants whose site some input reached.
    pub covered: u64,
    /// Viable mutants in the catalog.
    pub total: u64,
    /// Failures of the original.
    pub failures: u64,
    /// Harness restarts after a crash or hang.
    pub restarts: u32,
    /// Trials whose input the original discarded (`assume`).
    pub discards: u64,
    /// The `--edit` and `--schedule` in use (`""`: the defaults, not shown).
    pub edit: &'static str,
    pub schedule: &'static str,
    /// MUTAGEN's queued children and its R (shown with a schedule that queues).
    pub queued: u64,
    pub random_edits: u32,
    /// Children made by the input strategies: dictionary literals, comparison operands,
    /// and type-targeted picks that found their type (shown when any is non-zero).
    pub edits: [u64; 3],
}

/// `1m02s  12345 trials (199/s)  corpus 17  edges 230  mutants 40 killed / 55 covered / 80  score 50.0%  failures 0`.
pub fn format(p: &Progress) -> String {
    let secs = p.elapsed.as_secs_f64();
    let rate = if secs > 0.0 { p.trials as f64 / secs } else { 0.0 };
    let mut line = format!(
        "{}  {} trials ({:.0}/s)  corpus {}  edges {}  mutants {} killed / {} covered / {}  score {}  failures {}",
        duration(p.elapsed),
        p.trials,
        rate,
        p.corpus,
        p.edges,
        p.killed,
        p.covered,
        p.total,
        percent(p.killed, p.total),
        p.failures
    );
    if p.discards > 0 {
        let valid = p.trials.saturating_sub(p.discards);
        let valid_rate = if secs > 0.0 { valid as f64 / secs } else { 0.0 };
        line.push_str(&format!("  valid {valid} ({valid_rate:.0}/s)"));
    }
    if !p.edit.is_empty() {
        line.push_str(&format!("  edit {}", p.edit));
    }
    if !p.schedule.is_empty() {
        line.push_str(&format!("  schedule {}", p.schedule));
        if p.random_edits > 0 {
            line.push_str(&format!(" (R {}, {} queued)", p.random_edits, p.queued));
        }
    }
    if p.edits.iter().any(|&n| n > 0) {
        let [d, c, t] = p.edits;
        line.push_str(&format!("  edits: dictionary {d} compare {c} targeted {t}"));
    }
    if p.restarts > 0 {
        line.push_str(&format!("  restarts {}", p.restarts));
    }
    line
}

/// `killed / total` as a percentage with one decimal; `-` when there is nothing to score.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 { "-".to_owned() } else { format!("{:.1}%", part as f64 * 100.0 / whole as f64) }
}

/// Shows [`Progress`] on stderr.
pub struct StatusLine {
    bar: Option<ProgressBar>,
    last_plain: Option<Instant>,
    every: Duration,
    prefix: String,
}

impl StatusLine {
    /// A spinner on a terminal; plain lines every `every` otherwise.
    pub fn new(every: Duration) -> StatusLine {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        StatusLine { bar, last_plain: None, every, prefix: String::new() }
    }

    /// The status line of one slice of `fuzz --all`: it names its target, and its first
    /// plain line waits `every` like the others, so that short slices print only their
    /// own line.
    pub fn slice_of(mut self, target: &str) -> StatusLine {
        self.prefix = format!("{target}: ");
        self.last_plain = Some(Instant::now());
        self
    }

    /// Show `p` (a plain line only if `every` has passed since the last one).
    pub fn show(&mut self, p: &Progress) {
        match &self.bar {
            Some(bar) => bar.set_message(format!("{}{}", self.prefix, format(p))),
            None => {
                if self.last_plain.is_none_or(|t| t.elapsed() >= self.every) {
                    eprintln!("{}{}", self.prefix, format(p));
                    self.last_plain = Some(Instant::now());
                }
            }
        }
    }

    /// Print a message above the status line.
    pub fn message(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    /// Remove the status line.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Drop for StatusLine {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_line_shows_rate_and_score() {
        let p = Progress {
            elapsed: Duration::from_secs(62),
            trials: 12_400,
            corpus: 17,
            edges: 230,
            killed: 40,
            covered: 55,
            total: 80,
            failures: 1,
            restarts: 0,
            ..Progress::default()
        };
        assert_eq!(
            format(&p),
            "1m02s  12400 trials (200/s)  corpus 17  edges 230  mutants 40 killed / 55 covered / 80  score 50.0%  failures 1"
        );
        let q = Progress { restarts: 2, total: 0, elapsed: Duration::ZERO, ..p };
        assert!(format(&q).contains("(0/s)"), "{}", format(&q));
        assert!(format(&q).contains("score -"), "{}", format(&q));
        assert!(format(&q).ends_with("restarts 2"), "{}", format(&q));
        let m = Progress {
            discards: 12_000,
            edit: "structure",
            schedule: "mutagen",
            queued: 30,
            random_edits: 2,
            ..p
        };
        assert!(
            format(&m)
                .ends_with("failures 1  valid 400 (6/s)  edit structure  schedule mutagen (R 2, 30 queued)"),
            "{}",
            format(&m)
        );
        let e = Progress { edits: [5, 0, 7], ..p };
        assert!(
            format(&e).ends_with("failures 1  edits: dictionary 5 compare 0 targeted 7"),
            "{}",
            format(&e)
        );
    }
}
