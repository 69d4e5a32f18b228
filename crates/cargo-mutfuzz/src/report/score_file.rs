//! `score.json` as a type, the one model of a score that `score`, `merge`, `report` and
//! `eval` read and write: one target's score ([`ScoreFile`]), or every target's combined
//! (`score --all`: [`ScoreFile::combine`]), each mutant's overall outcome ([`FuzzOutcome`])
//! and the table of counts ([`Table`]).

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Result, bail};
use mutfuzz_contract::{KillKind, ScoreLine, ScoreOutcome};
use serde::{Deserialize, Serialize};

use crate::catalog::selection::Shard;
use crate::console::exit_code;
use crate::console::status::percent;

/// The numbers of the score table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Killed because the output differed.
    pub output_differs: u64,
    /// Killed by a panic.
    pub panic: u64,
    /// Killed by running out of fuel, depth or wall time.
    pub timeout: u64,
    /// Killed by a crash of the process.
    pub crash: u64,
    /// Killed because it discarded an input the original accepted (or the reverse).
    pub discard: u64,
    /// Reached by some input, killed by none.
    pub survived: u64,
    /// No input reaches the site.
    pub not_covered: u64,
    /// Does not compile.
    pub unviable: u64,
    /// Every mutant.
    pub total: u64,
}

impl Table {
    /// Mutants killed, by any kind.
    pub fn killed(&self) -> u64 {
        self.output_differs + self.panic + self.timeout + self.crash + self.discard
    }

    /// Killed over viable mutants.
    pub fn score(&self) -> String {
        percent(self.killed(), self.total - self.unviable)
    }

    /// The score in percent (0 with no viable mutant, as `score.json` has it).
    pub fn score_percent(&self) -> f64 {
        let viable = self.total - self.unviable;
        if viable == 0 { 0.0 } else { self.killed() as f64 * 100.0 / viable as f64 }
    }

    /// Count one verdict (a valid line: a kill has its kind).
    pub fn count(&mut self, line: &ScoreLine) {
        *match (line.outcome, line.kind) {
            (ScoreOutcome::Killed, Some(KillKind::OutputDiffers)) => &mut self.output_differs,
            (ScoreOutcome::Killed, Some(KillKind::Panic)) => &mut self.panic,
            (ScoreOutcome::Killed, Some(KillKind::Timeout)) => &mut self.timeout,
            (ScoreOutcome::Killed, Some(KillKind::Crash)) => &mut self.crash,
            (ScoreOutcome::Killed, Some(KillKind::Discard)) => &mut self.discard,
            (ScoreOutcome::Killed, None) => unreachable!("score lines are checked when read"),
            (ScoreOutcome::Survived, _) => &mut self.survived,
            (ScoreOutcome::NotCovered, _) => &mut self.not_covered,
        } += 1;
        self.total += 1;
    }

    /// The table as printed.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let rows = [
            ("killed by output", self.output_differs),
            ("killed by panic", self.panic),
            ("killed by timeout", self.timeout),
            ("killed by crash", self.crash),
            ("killed by discard", self.discard),
            ("survived", self.survived),
            ("not covered", self.not_covered),
            ("unviable", self.unviable),
        ];
        for (what, n) in rows {
            let _ = writeln!(out, "{what:<20}{n:>6}");
        }
        let _ = writeln!(out, "{:<20}{:>6}", "total", self.total);
        let _ = writeln!(
            out,
            "score {} ({} killed of {} viable mutants)",
            self.score(),
            self.killed(),
            self.total - self.unviable
        );
        out
    }
}

/// A mutant's verdict in `score.json`: a scoring verdict, or `unviable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FuzzOutcome {
    /// Some input kills it.
    Killed,
    /// Some input reaches it, none kills it.
    Survived,
    /// No input reaches its site.
    NotCovered,
    /// It does not compile.
    Unviable,
}

impl From<ScoreOutcome> for FuzzOutcome {
    fn from(o: ScoreOutcome) -> FuzzOutcome {
        match o {
            ScoreOutcome::Killed => FuzzOutcome::Killed,
            ScoreOutcome::Survived => FuzzOutcome::Survived,
            ScoreOutcome::NotCovered => FuzzOutcome::NotCovered,
        }
    }
}

/// One mutant in `score.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MutantScore {
    /// Its id.
    pub id: u32,
    /// Its name, as `cargo mutfuzz mutants` prints it.
    pub name: String,
    /// Its verdict.
    pub outcome: FuzzOutcome,
    /// How it was killed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<KillKind>,
    /// The stored input that killed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// The value that input generates, as the report shows it (`Debug`, bounded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_value: Option<String>,
    /// The original's output on it, for a kill the report sets side by side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_output: Option<String>,
    /// The mutant's output on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutant_output: Option<String>,
    /// In a combined score (`score --all`), the target whose corpus holds `input`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

impl MutantScore {
    /// The verdict as a score line (`None` for an unviable mutant, which has none).
    pub fn line(&self) -> Option<ScoreLine> {
        let outcome = match self.outcome {
            FuzzOutcome::Killed => ScoreOutcome::Killed,
            FuzzOutcome::Survived => ScoreOutcome::Survived,
            FuzzOutcome::NotCovered => ScoreOutcome::NotCovered,
            FuzzOutcome::Unviable => return None,
        };
        Some(ScoreLine {
            mutant: self.id,
            outcome,
            kind: self.kind,
            input: self.input.clone(),
            input_value: self.input_value.clone(),
            original_output: self.original_output.clone(),
            mutant_output: self.mutant_output.clone(),
        })
    }
}

/// `score.json`: a corpus's score (written by `score`, read back by `merge`), or the
/// combined score of every target (`score --all`, with `targets`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScoreFile {
    /// The fuzz target (`all` for a combined score).
    pub target: String,
    /// The corpus scored (for a combined score, the directory of the targets' corpora).
    pub corpus: std::path::PathBuf,
    /// Files in it.
    pub inputs: usize,
    /// Wall time (of a merged score: its longest shard's).
    pub seconds: f64,
    /// The counts.
    pub summary: Table,
    /// Killed over viable mutants, in percent.
    pub score_percent: f64,
    /// The part of the mutants this score covers (`--shard k/n`); absent for every mutant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Every mutant it covers, in catalog order.
    pub mutants: Vec<MutantScore>,
    /// A combined score's targets, each with its own counts, in the harness's order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targets: Option<Vec<TargetScore>>,
}

/// One target's part of a combined score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TargetScore {
    /// The target.
    pub target: String,
    /// Its corpus.
    pub corpus: std::path::PathBuf,
    /// Files in it.
    pub inputs: usize,
    /// Its counts, as its own `score.json` has them.
    pub summary: Table,
    /// Killed over viable mutants, in percent.
    pub score_percent: f64,
}

impl ScoreFile {
    /// The counts of a list of mutant verdicts.
    pub fn table_of(mutants: &[MutantScore]) -> Table {
        let mut table = Table::default();
        for m in mutants {
            match m.line() {
                Some(line) => table.count(&line),
                None => {
                    table.unviable += 1;
                    table.total += 1;
                }
            }
        }
        table
    }

    /// Every target's score combined (`score --all`): a mutant is killed if some
    /// target's corpus kills it (the first such target in `scores`' order gives the kind,
    /// the input and the outputs, and is named), survived if some corpus reaches it and
    /// none kills it, not covered if none reaches it. Each target's counts are kept in
    /// `targets`. The scores must be of the same mutants (one catalog, one selection).
    pub fn combine(scores: &[ScoreFile], corpus: &Path, seconds: f64) -> Result<ScoreFile> {
        let Some(first) = scores.first() else { bail!("no target was scored: nothing to combine") };
        for s in scores {
            let same = s.mutants.len() == first.mutants.len()
                && s.shard == first.shard
                && s.mutants.iter().zip(&first.mutants).all(|(a, b)| a.id == b.id);
            if !same {
                bail!(
                    "the scores of {} and {} are not of the same mutants: score every target again \
                     with one command (`cargo mutfuzz score --all`)",
                    first.target,
                    s.target
                );
            }
        }
        let rank = |v: FuzzOutcome| match v {
            FuzzOutcome::Killed => 3,
            FuzzOutcome::Survived => 2,
            FuzzOutcome::NotCovered => 1,
            FuzzOutcome::Unviable => 0,
        };
        let mut mutants = Vec::with_capacity(first.mutants.len());
        for (i, m) in first.mutants.iter().enumerate() {
            // The best verdict over the targets; the first target that has it.
            let (best, score) = scores
                .iter()
                .map(|s| (s, &s.mutants[i]))
                .fold(None, |best: Option<(&ScoreFile, &MutantScore)>, (s, m)| match best {
                    Some((_, b)) if rank(b.outcome) >= rank(m.outcome) => best,
                    _ => Some((s, m)),
                })
                .expect("at least one score");
            let mut combined = score.clone();
            combined.target = (combined.outcome == FuzzOutcome::Killed).then(|| best.target.clone());
            debug_assert_eq!(combined.id, m.id);
            mutants.push(combined);
        }
        let summary = ScoreFile::table_of(&mutants);
        Ok(ScoreFile {
            target: "all".to_owned(),
            corpus: corpus.to_owned(),
            inputs: scores.iter().map(|s| s.inputs).sum(),
            seconds,
            score_percent: summary.score_percent(),
            summary,
            shard: first.shard,
            mutants,
            targets: Some(
                scores
                    .iter()
                    .map(|s| TargetScore {
                        target: s.target.clone(),
                        corpus: s.corpus.clone(),
                        inputs: s.inputs,
                        summary: s.summary.clone(),
                        score_percent: s.score_percent,
                    })
                    .collect(),
            ),
        })
    }
}

impl Table {
    /// Add another table's counts (a shard's, to the others').
    pub fn add(&mut self, other: &Table) {
        self.output_differs += other.output_differs;
        self.panic += other.panic;
        self.timeout += other.timeout;
        self.crash += other.crash;
        self.discard += other.discard;
        self.survived += other.survived;
        self.not_covered += other.not_covered;
        self.unviable += other.unviable;
        self.total += other.total;
    }

    /// One line of counts: `40 killed, 3 survived, 5 not covered, 2 unviable (score 88.9%)`.
    pub fn line(&self) -> String {
        format!(
            "{} killed, {} survived, {} not covered, {} unviable (score {})",
            self.killed(),
            self.survived,
            self.not_covered,
            self.unviable,
            self.score()
        )
    }
}

/// The exit code of a score with `--min-score`: below it [`exit_code::BELOW_MIN_SCORE`].
/// A score of no viable mutant passes (there is nothing to kill).
pub fn min_score_exit(table: &Table, min_score: Option<f64>) -> i32 {
    let Some(min) = min_score else { return exit_code::SUCCESS };
    let viable = table.total - table.unviable;
    let below = viable > 0 && table.score_percent() < min;
    eprintln!(
        "Mutation score {:.1}% (killed over viable mutants): {} --min-score {min}",
        table.score_percent(),
        if below { "below" } else { "at or above" }
    );
    if below { exit_code::BELOW_MIN_SCORE } else { exit_code::SUCCESS }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mutant(id: u32, outcome: FuzzOutcome, input: Option<&str>) -> MutantScore {
        MutantScore {
            id,
            name: format!("m{id}"),
            outcome,
            kind: (outcome == FuzzOutcome::Killed).then_some(KillKind::OutputDiffers),
            input: input.map(str::to_owned),
            input_value: None,
            original_output: None,
            mutant_output: None,
            target: None,
        }
    }

    fn target_score(target: &str, inputs: usize, mutants: Vec<MutantScore>) -> ScoreFile {
        let summary = ScoreFile::table_of(&mutants);
        ScoreFile {
            target: target.to_owned(),
            corpus: format!("corpus/{target}").into(),
            inputs,
            seconds: 1.0,
            score_percent: summary.score_percent(),
            summary,
            shard: None,
            mutants,
            targets: None,
        }
    }

    #[test]
    fn a_combined_score_kills_what_any_target_kills_and_keeps_each_target_s_counts() {
        use FuzzOutcome::*;
        let a = target_score(
            "a",
            3,
            vec![
                mutant(1, Killed, Some("a1")),
                mutant(2, Survived, None),
                mutant(3, NotCovered, None),
                mutant(4, NotCovered, None),
                mutant(5, Unviable, None),
            ],
        );
        let b = target_score(
            "b",
            2,
            vec![
                mutant(1, Killed, Some("b1")),
                mutant(2, Killed, Some("b2")),
                mutant(3, Survived, None),
                mutant(4, NotCovered, None),
                mutant(5, Unviable, None),
            ],
        );
        let c = ScoreFile::combine(&[a.clone(), b.clone()], Path::new("corpus"), 2.0).unwrap();
        let got: Vec<(u32, FuzzOutcome, Option<&str>, Option<&str>)> =
            c.mutants.iter().map(|m| (m.id, m.outcome, m.input.as_deref(), m.target.as_deref())).collect();
        assert_eq!(
            got,
            vec![
                // Killed by both: the first target's kill.
                (1, Killed, Some("a1"), Some("a")),
                (2, Killed, Some("b2"), Some("b")),
                (3, Survived, None, None),
                (4, NotCovered, None, None),
                (5, Unviable, None, None),
            ]
        );
        assert_eq!(
            (
                c.summary.killed(),
                c.summary.survived,
                c.summary.not_covered,
                c.summary.unviable,
                c.summary.total
            ),
            (2, 1, 1, 1, 5)
        );
        assert_eq!((c.target.as_str(), c.inputs, c.score_percent), ("all", 5, 50.0));
        let targets = c.targets.as_ref().unwrap();
        assert_eq!(targets.iter().map(|t| t.target.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!((targets[0].summary.killed(), targets[1].summary.killed()), (1, 2));
        // It reads back as a score.json.
        let text = serde_json::to_string(&c).unwrap();
        let back: ScoreFile = serde_json::from_str(&text).unwrap();
        assert_eq!(back.targets.unwrap()[1], targets[1]);
        // A target's own score.json has no `targets`, nor a `target` per mutant.
        let own = serde_json::to_value(&a).unwrap();
        assert!(own.get("targets").is_none() && own["mutants"][0].get("target").is_none(), "{own}");
        // Scores of different mutants do not combine.
        let mut other = b;
        other.mutants.pop();
        let err = ScoreFile::combine(&[a, other], Path::new("corpus"), 2.0).unwrap_err().to_string();
        assert!(err.contains("not of the same mutants"), "{err}");
    }

    #[test]
    fn the_table_adds_up() {
        let mut t = Table::default();
        let line = |outcome, kind| ScoreLine {
            mutant: 1,
            outcome,
            kind,
            input: None,
            input_value: None,
            original_output: None,
            mutant_output: None,
        };
        for l in [
            line(ScoreOutcome::Killed, Some(KillKind::OutputDiffers)),
            line(ScoreOutcome::Killed, Some(KillKind::Panic)),
            line(ScoreOutcome::Killed, Some(KillKind::Crash)),
            line(ScoreOutcome::Survived, None),
            line(ScoreOutcome::NotCovered, None),
        ] {
            t.count(&l);
        }
        t.unviable += 1;
        t.total += 1;
        assert_eq!((t.killed(), t.total, t.score()), (3, 6, "60.0%".to_owned()));
        let text = t.render();
        assert!(text.contains("killed by crash          1\n"), "{text}");
        assert!(text.contains("total                    6\n"), "{text}");
        assert!(text.ends_with("score 60.0% (3 killed of 5 viable mutants)\n"), "{text}");
    }
}
