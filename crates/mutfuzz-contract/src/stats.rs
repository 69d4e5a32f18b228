//! A campaign's counters: kept by the engine, printed by the harness in its `stats` and
//! `done` lines and in `stats.csv`, and shown by `cargo mutfuzz` in its status line.

use serde::{Deserialize, Serialize};

/// Counters of a campaign (of one harness process, under a supervisor).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// Trials run.
    pub trials: u64,
    /// Trials whose input the original discarded (`mutfuzz::assume`).
    pub discards: u64,
    /// Distinct failures (by panic message) of the original.
    pub failures: usize,
    /// Saved inputs.
    pub corpus: usize,
    /// Edges (SanitizerCoverage counters) the saved inputs cover.
    pub edges: usize,
    /// Saved inputs marked favoured.
    pub favoured: usize,
    /// Mutants in the catalog.
    pub mutants_total: usize,
    /// Mutants whose site the original hit on some input.
    pub mutants_seen: usize,
    /// Mutants killed (including kills read back when resuming).
    pub mutants_killed: usize,
    /// Mutant runs made.
    pub mutant_runs: u64,
    /// Summed over trials that run mutants: the surviving mutants whose site the original
    /// executed (what execution pruning alone would run). `mutant_runs` over this is
    /// what infection pruning and sampling save.
    #[serde(default)]
    pub mutants_reached: u64,
    /// Runs of mutants that infection pruning skipped, made anyway to check that each
    /// survives (only with pruning verification on; a kill stops the campaign).
    #[serde(default)]
    pub pruned_verified: u64,
    /// Saved inputs whose children the guidance multiplied (μZest's KILL_FACTOR).
    #[serde(default)]
    pub boosted: usize,
    /// Saved inputs whose children the guidance divided (N-μZest, old kills only).
    #[serde(default)]
    pub reduced: usize,
    /// Inputs on which a background mutant panicked and the original does not (distinct
    /// messages; mutants-first phases only).
    #[serde(default)]
    pub mutant_panics: usize,
    /// Children made by writing a dictionary literal into a span.
    #[serde(default)]
    pub dictionary_edits: u64,
    /// Children made by writing a comparison operand into a span.
    #[serde(default)]
    pub compare_edits: u64,
    /// Type-targeted picks that found a span of the picked type (SpotOn).
    #[serde(default)]
    pub targeted_edits: u64,
    /// Type-targeted picks whose type the parent had no span of.
    #[serde(default)]
    pub target_misses: u64,
}

impl Stats {
    /// The header line of `stats.csv` (with its newline).
    pub const CSV_HEADER: &'static str = "seconds,trials,corpus,mutants_seen,mutants_killed,failures,dictionary_edits,compare_edits,targeted_edits\n";

    /// One row of `stats.csv` (with its newline), `seconds` into the campaign.
    pub fn csv_row(&self, seconds: f64) -> String {
        format!(
            "{seconds:.0},{},{},{},{},{},{},{},{}\n",
            self.trials,
            self.corpus,
            self.mutants_seen,
            self.mutants_killed,
            self.failures,
            self.dictionary_edits,
            self.compare_edits,
            self.targeted_edits
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csv_row_matches_the_header() {
        let s = Stats {
            trials: 10,
            corpus: 2,
            mutants_seen: 4,
            mutants_killed: 3,
            failures: 1,
            ..Stats::default()
        };
        assert_eq!(s.csv_row(1.6), "2,10,2,4,3,1,0,0,0\n");
        assert_eq!(Stats::CSV_HEADER.split(',').count(), s.csv_row(0.0).split(',').count());
    }
}
