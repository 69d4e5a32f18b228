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
    /// Trials on whose input the original panicked (every one, not only new failures):
    /// with `discards`, how a supervisor tells a target that accepts no input.
    #[serde(default)]
    pub panics: u64,
    /// Distinct failures (by panic message) of the original.
    pub failures: usize,
    /// Saved inputs.
    pub corpus: usize,
    /// Edges (SanitizerCoverage counters) the saved inputs cover.
    pub edges: usize,
    /// Saved inputs marked favoured.
    pub favoured: usize,
    /// Mutants in the catalog (only the targets when the campaign has some: every
    /// `mutants_` count is then of targets only).
    pub mutants_total: usize,
    /// Mutants whose site the original hit on some input.
    pub mutants_seen: usize,
    /// Mutants killed (including kills read back when resuming).
    pub mutants_killed: usize,
    /// Surviving targets with an infection probe that a saved input infected when it was
    /// kept (counted by the `infection` guidance only).
    #[serde(default)]
    pub mutants_infected: usize,
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
    /// Inputs on which a generated target's original panicked (panics by contract, not
    /// failures; inputs replayed after a restart are not counted again).
    #[serde(default)]
    pub contract_panics: u64,
    /// Children waiting in the schedule's queues (MUTAGEN's batches; 0 for Zest's).
    #[serde(default)]
    pub queued: u64,
    /// How many times each random edit of a batch is sampled (MUTAGEN's adaptive R; 0
    /// for a schedule without batches).
    #[serde(default)]
    pub random_edits: u32,
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
    /// Saved inputs generated again for their spans, which only the most recently used
    /// inputs keep (so that memory does not grow with the corpus).
    #[serde(default)]
    pub spans_regenerated: u64,
    /// Parents the original ran on again to record their comparison operands, which only
    /// the most recently used inputs keep.
    #[serde(default)]
    pub recorded_again: u64,
}

impl Stats {
    /// Whether every target mutant is killed (meaningful for a campaign aimed at given
    /// mutants, whose counts are of them only): nothing is left for its budget to kill.
    pub fn all_killed(&self) -> bool {
        self.mutants_total > 0 && self.mutants_killed >= self.mutants_total
    }

    /// The header line of `stats.csv` (with its newline).
    pub const CSV_HEADER: &'static str = "seconds,trials,corpus,mutants_seen,mutants_killed,failures,edges,discards,queued,random_edits,dictionary_edits,compare_edits,targeted_edits\n";

    /// One row of `stats.csv` (with its newline), `seconds` into the campaign.
    pub fn csv_row(&self, seconds: f64) -> String {
        format!(
            "{seconds:.0},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            self.trials,
            self.corpus,
            self.mutants_seen,
            self.mutants_killed,
            self.failures,
            self.edges,
            self.discards,
            self.queued,
            self.random_edits,
            self.dictionary_edits,
            self.compare_edits,
            self.targeted_edits
        )
    }
}

/// One row of `stats.csv`, as read back (for the report's plots).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatsRow {
    /// Seconds into the campaign, over all its harness processes.
    pub seconds: u64,
    /// Trials run.
    pub trials: u64,
    /// Saved inputs.
    pub corpus: u64,
    /// Mutants whose site some input reached.
    pub mutants_seen: u64,
    /// Mutants killed.
    pub mutants_killed: u64,
    /// Distinct failures of the original.
    pub failures: u64,
    /// Edges covered (`None` in files written before the column existed).
    pub edges: Option<u64>,
}

/// The rows of a `stats.csv` text. Each harness process counts its seconds from 0, so
/// when they go back the later rows are shifted to follow the earlier ones. Header lines
/// (one per process that found the file empty) are skipped; a torn last line (a process
/// killed while writing) is dropped; any other bad row is an error naming its line.
pub fn parse_stats_csv(text: &str) -> Result<Vec<StatsRow>, String> {
    let mut rows: Vec<StatsRow> = Vec::new();
    let (mut offset, mut last) = (0u64, 0u64);
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("seconds") {
            continue;
        }
        let fields: Result<Vec<u64>, _> = line.split(',').map(str::parse::<u64>).collect();
        let torn = i + 1 == lines.len() && !text.ends_with('\n');
        let fields = match fields {
            // 6: before edges were counted; 7: before the input-strategy counters; 13: now.
            Ok(f) if matches!(f.len(), 6 | 7 | 13) => f,
            _ if torn => break,
            _ => return Err(format!("line {}: not a row of 6, 7 or 13 counters: {line:?}", i + 1)),
        };
        if fields[0] < last {
            offset += last;
        }
        last = fields[0];
        rows.push(StatsRow {
            seconds: offset + fields[0],
            trials: fields[1],
            corpus: fields[2],
            mutants_seen: fields[3],
            mutants_killed: fields[4],
            failures: fields[5],
            edges: fields.get(6).copied(),
        });
    }
    Ok(rows)
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
            edges: 57,
            ..Stats::default()
        };
        assert_eq!(s.csv_row(1.6), "2,10,2,4,3,1,57,0,0,0,0,0,0\n");
        assert_eq!(Stats::CSV_HEADER.split(',').count(), s.csv_row(0.0).split(',').count());
        let text = format!("{}{}", Stats::CSV_HEADER, s.csv_row(1.6));
        let rows = parse_stats_csv(&text).unwrap();
        assert_eq!(
            rows,
            [StatsRow {
                seconds: 2,
                trials: 10,
                corpus: 2,
                mutants_seen: 4,
                mutants_killed: 3,
                failures: 1,
                edges: Some(57)
            }]
        );
    }

    #[test]
    fn stats_of_restarted_processes_follow_each_other_and_old_rows_read() {
        let text = "seconds,trials,corpus,mutants_seen,mutants_killed,failures\n1,5,1,2,1,0\n3,9,2,3,2,0\n\
                    seconds,trials,corpus,mutants_seen,mutants_killed,failures,edges\n1,12,2,3,2,0,40\n2,1";
        let rows = parse_stats_csv(text).unwrap();
        let seconds: Vec<u64> = rows.iter().map(|r| r.seconds).collect();
        assert_eq!(seconds, [1, 3, 4]);
        assert_eq!((rows[0].edges, rows[2].edges), (None, Some(40)));
        let err = parse_stats_csv("1,2,x,4,5,6\n").unwrap_err();
        assert!(err.starts_with("line 1:"), "{err}");
    }
}
