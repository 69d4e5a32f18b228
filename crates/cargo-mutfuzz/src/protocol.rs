//! The harness's stdout protocol: one line per event, parsed by the supervisor.
//!
//! `trial <hex>` comes just before the original runs on a trial's input, `mutant <id>`
//! just before a mutant runs, `input <name>` before a stored input runs (score),
//! `stats <json>` about once a second and `done <json>` at the normal end.

use serde::Deserialize;

/// Counters the harness reports in `stats` and `done` lines. Missing fields read as 0,
/// so an older or newer harness still shows what it can.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Stats {
    /// Seconds since the harness started.
    pub elapsed: f64,
    /// Trials run by this harness process.
    pub trials: u64,
    /// Saved inputs.
    pub corpus: u64,
    /// Edges the saved inputs cover.
    pub edges: u64,
    /// Mutants in the catalog it was given.
    pub mutants_total: u64,
    /// Mutants whose site some input reached.
    pub mutants_seen: u64,
    /// Mutants killed (including those read back from `kills.jsonl`).
    pub mutants_killed: u64,
    /// Distinct failures of the original.
    pub failures: u64,
    /// Trials whose input the target discarded.
    pub discards: u64,
    /// Mutant runs made.
    pub mutant_runs: u64,
}

/// One line of harness output.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// The original is about to run on these input bytes.
    Trial(Vec<u8>),
    /// This mutant is about to run.
    Mutant(u32),
    /// This stored input is about to run (score).
    Input(String),
    /// Periodic counters.
    Stats(Stats),
    /// The campaign ended normally, with these counters.
    Done(Stats),
    /// Anything else (kept for the log, ignored otherwise).
    Other(String),
}

/// Parse one line (without its newline). Malformed lines are [`Line::Other`].
pub fn parse(line: &str) -> Line {
    let line = line.trim_end_matches('\r');
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let parsed = match word {
        "trial" => decode_hex(rest).map(Line::Trial),
        "mutant" => rest.trim().parse().ok().map(Line::Mutant),
        "input" if !rest.trim().is_empty() => Some(Line::Input(rest.trim().to_owned())),
        "stats" => serde_json::from_str(rest).ok().map(Line::Stats),
        "done" => serde_json::from_str(rest).ok().map(Line::Done),
        _ => None,
    };
    parsed.unwrap_or_else(|| Line::Other(line.to_owned()))
}

/// Bytes from hex digits (an empty string is the empty input).
pub fn decode_hex(text: &str) -> Option<Vec<u8>> {
    let text = text.trim();
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    text.as_bytes().chunks_exact(2).map(|p| Some(digit(p[0])? << 4 | digit(p[1])?)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_line_parses() {
        assert_eq!(parse("trial 00ff1a"), Line::Trial(vec![0, 255, 26]));
        assert_eq!(parse("trial "), Line::Trial(vec![]));
        assert_eq!(parse("trial"), Line::Trial(vec![]));
        assert_eq!(parse("mutant 17"), Line::Mutant(17));
        assert_eq!(parse("input 0123abcd\r"), Line::Input("0123abcd".into()));
        let s = parse(
            r#"stats {"elapsed":1.5,"trials":10,"corpus":2,"edges":40,"mutants_total":9,"mutants_seen":4,"mutants_killed":3,"failures":1,"discards":0,"mutant_runs":30}"#,
        );
        assert_eq!(
            s,
            Line::Stats(Stats {
                elapsed: 1.5,
                trials: 10,
                corpus: 2,
                edges: 40,
                mutants_total: 9,
                mutants_seen: 4,
                mutants_killed: 3,
                failures: 1,
                discards: 0,
                mutant_runs: 30
            })
        );
        assert_eq!(parse(r#"done {"trials":5}"#), Line::Done(Stats { trials: 5, ..Stats::default() }));
    }

    #[test]
    fn malformed_lines_are_kept_as_other() {
        for l in ["trial 0g", "trial abc", "mutant x", "stats {", "hello", "input "] {
            assert_eq!(parse(l), Line::Other(l.to_owned()), "{l}");
        }
    }
}
