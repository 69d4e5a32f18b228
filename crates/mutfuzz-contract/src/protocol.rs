//! The harness's stdout protocol: one line per event, written by the engine (through
//! [`Line`]'s `Display`) and parsed by the supervisor in `cargo mutfuzz` ([`Line::parse`]),
//! so that if the harness process dies the supervisor knows what was running.
//!
//! - `trial <hex>`: the original is about to run on these input bytes;
//! - `mutant <id>`: this mutant is about to run (on the last trial's or input's bytes);
//! - `input <name>`: this stored input is about to run (scoring);
//! - `stats <json>`: the counters, about once a second;
//! - `done <json>`: the counters, at the normal end of a campaign;
//! - `note <text>`: something the user must hear once (a generated target found
//!   nondeterministic), which the supervisor shows;
//! - `engine`: the engine's own code (or a generator) panicked outside any run, so the
//!   death that follows is no mutant's and no input's;
//! - `keep <name> <hex>`: an input to store in the corpus, which a harness run with
//!   `--hand-over` may not write itself; it waits for the supervisor's [`Reply`] on its
//!   stdin (`stored <name>` or `refused <name>`) before it writes anything naming it.
//!
//! The target's own prints share stdout, so a line that is not one of these (or does
//! not parse as one) is [`Line::Other`]: kept for the log, never an error.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::stats::Stats;

/// The counters of a `stats` or `done` line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Seconds since the harness process started.
    pub elapsed: f64,
    /// The campaign's counters.
    #[serde(flatten)]
    pub stats: Stats,
}

/// One protocol line (without its newline). Writing borrows, parsing owns.
#[derive(Clone, Debug, PartialEq)]
pub enum Line<'a> {
    /// The original is about to run on these input bytes.
    Trial(Cow<'a, [u8]>),
    /// This mutant is about to run.
    Mutant(u32),
    /// This stored input is about to run (scoring).
    Input(Cow<'a, str>),
    /// The process is waiting for its mutant workers, and alive (no run starts).
    Alive,
    /// Periodic counters.
    Stats(Report),
    /// The campaign ended normally, with these counters.
    Done(Report),
    /// One line for the user, shown by the supervisor.
    Note(Cow<'a, str>),
    /// Nothing a death could be blamed on runs until the next `trial` or `mutant`: the
    /// engine (or a generator) panicked outside any run and the process is about to die
    /// of it, or the original runs again on a saved input only to record its comparisons.
    Engine,
    /// An input for the supervisor to store in the corpus as `name` (its content name).
    Keep {
        /// The name the harness gives it (the supervisor checks it against the bytes).
        name: Cow<'a, str>,
        /// Its bytes.
        bytes: Cow<'a, [u8]>,
    },
    /// Anything else the process printed.
    Other(Cow<'a, str>),
}

impl Line<'_> {
    /// Parse one line (a trailing `\r` or `\n` is ignored).
    pub fn parse(line: &str) -> Line<'static> {
        let line = line.trim_end_matches(['\r', '\n']);
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let parsed = match word {
            "trial" => decode_hex(rest).map(|b| Line::Trial(Cow::Owned(b))),
            "mutant" => rest.trim().parse().ok().map(Line::Mutant),
            "input" if !rest.trim().is_empty() => Some(Line::Input(Cow::Owned(rest.trim().to_owned()))),
            "alive" if rest.is_empty() => Some(Line::Alive),
            "engine" if rest.is_empty() => Some(Line::Engine),
            "stats" => serde_json::from_str(rest).ok().map(Line::Stats),
            "done" => serde_json::from_str(rest).ok().map(Line::Done),
            "note" if !rest.trim().is_empty() => Some(Line::Note(Cow::Owned(rest.trim().to_owned()))),
            "keep" => rest.split_once(' ').and_then(|(name, hex)| {
                let bytes = decode_hex(hex)?;
                (!name.is_empty())
                    .then(|| Line::Keep { name: Cow::Owned(name.to_owned()), bytes: Cow::Owned(bytes) })
            }),
            _ => None,
        };
        parsed.unwrap_or_else(|| Line::Other(Cow::Owned(line.to_owned())))
    }
}

/// Writes the line without allocating for `trial`, `mutant`, `input` (the per-run lines)
/// and `keep`; `stats` and `done` render their JSON.
impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Trial(bytes) => {
                f.write_str("trial ")?;
                write_hex(f, bytes)
            }
            Line::Mutant(id) => write!(f, "mutant {id}"),
            Line::Input(name) => write!(f, "input {name}"),
            Line::Alive => f.write_str("alive"),
            Line::Engine => f.write_str("engine"),
            Line::Stats(r) => write!(f, "stats {}", serde_json::to_string(r).map_err(|_| fmt::Error)?),
            Line::Done(r) => write!(f, "done {}", serde_json::to_string(r).map_err(|_| fmt::Error)?),
            // A note is one line: a newline inside would start a line of its own.
            Line::Note(text) => write!(f, "note {}", text.replace(['\n', '\r'], " ")),
            Line::Keep { name, bytes } => {
                write!(f, "keep {name} ")?;
                write_hex(f, bytes)
            }
            Line::Other(text) => f.write_str(text),
        }
    }
}

fn write_hex(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    for b in bytes {
        write!(f, "{b:02x}")?;
    }
    Ok(())
}

/// The supervisor's answer to a `keep` line, one line on the harness's stdin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The input is in the corpus under this name.
    Stored(String),
    /// The line was not stored: the name does not match the bytes (a line garbled on the
    /// way, or not the harness's own).
    Refused(String),
}

impl Reply {
    /// Parse one line; `None` for anything else.
    pub fn parse(line: &str) -> Option<Reply> {
        match line.trim_end_matches(['\r', '\n']).split_once(' ')? {
            ("stored", name) if !name.is_empty() => Some(Reply::Stored(name.to_owned())),
            ("refused", name) if !name.is_empty() => Some(Reply::Refused(name.to_owned())),
            _ => None,
        }
    }

    /// The input's name.
    pub fn name(&self) -> &str {
        match self {
            Reply::Stored(name) | Reply::Refused(name) => name,
        }
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Stored(name) => write!(f, "stored {name}"),
            Reply::Refused(name) => write!(f, "refused {name}"),
        }
    }
}

/// Longest stdout line the supervisor reads whole: a longer one comes in pieces, each
/// [`Line::Other`]. Far longer than a protocol line (an input's hex) ever is.
pub const MAX_LINE: usize = 1 << 20;

/// Reads one line (with its newline) into `buf`, or its first `max` bytes (the rest comes
/// as the next lines); returns its length, or `None` at the end of the stream. A process
/// that prints without newlines cannot make its reader hold more than `max` bytes.
pub fn read_line_capped(reader: &mut impl std::io::BufRead, buf: &mut Vec<u8>, max: usize) -> Option<u64> {
    buf.clear();
    let mut len = 0u64;
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) => return (len > 0).then_some(len),
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return (len > 0).then_some(len),
        };
        let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let take = take.min(max - buf.len());
        buf.extend_from_slice(&chunk[..take]);
        reader.consume(take);
        len += take as u64;
        if end || buf.len() == max {
            return Some(len);
        }
    }
}

// The exit codes of a harness process, each named once: the engine exits with them and
// `cargo mutfuzz` reads them. Besides these a harness ends as any process may: killed by
// a signal, or with whatever code a mutant passes to `process::exit`, so the supervisor
// trusts [`EXIT_SUCCESS`] only with a `done` line, and the others only when no mutant runs.

/// The command did what it was asked (`fuzz` and `score` print `done` before).
pub const EXIT_SUCCESS: i32 = 0;

/// Bad arguments, or a command that cannot go on (a hand-written target found
/// nondeterministic, an unreadable file): the reason is on stderr, and `fuzz` and `score`
/// print a `stats` line before, so the supervisor blames no mutant. Restarting would not help.
pub const EXIT_ERROR: i32 = 2;

/// Exit code of a harness whose global state drifted (see [`DriftRecord`](crate::DriftRecord)):
/// the supervisor restarts it in a clean process, blaming nothing.
pub const EXIT_DRIFT: i32 = 3;

/// Exit code of `shrink`/`tmin` when the given input lacks the property to keep: it does
/// not kill every named mutant (or the original's run on it is not valid), or (`tmin`)
/// the original does not panic on it. Nothing is written.
pub const EXIT_NOT_KEPT: i32 = 5;

/// Exit code of `run` when the original panicked on the input (a Rust program's exit code
/// on a panic; the panic hook printed the message).
pub const EXIT_PANIC: i32 = 101;

/// Exit code of the libFuzzer command line when the original crashed on an input
/// (libFuzzer's default `-error_exitcode`).
pub const EXIT_LIBFUZZER_CRASH: i32 = 77;

/// Exit code of the libFuzzer command line when it cannot go on (an input file it cannot
/// read), as libFuzzer's.
pub const EXIT_LIBFUZZER_ERROR: i32 = 1;

/// Hex digits of `bytes`, as `decode_hex` reads them.
pub fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
    fn every_kind_of_line_round_trips() {
        let stats = Stats {
            trials: 10,
            corpus: 2,
            edges: 40,
            mutants_total: 9,
            mutants_seen: 4,
            mutants_killed: 3,
            mutants_infected: 2,
            failures: 1,
            discards: 0,
            panics: 2,
            favoured: 1,
            mutant_runs: 30,
            mutants_reached: 45,
            pruned_verified: 5,
            boosted: 2,
            reduced: 1,
            mutant_panics: 1,
            contract_panics: 3,
            queued: 12,
            random_edits: 4,
            dictionary_edits: 6,
            compare_edits: 7,
            targeted_edits: 8,
            target_misses: 9,
            spans_regenerated: 10,
            recorded_again: 11,
        };
        for line in [
            Line::Trial(Cow::Borrowed(&[0, 255, 26])),
            Line::Trial(Cow::Borrowed(&[])),
            Line::Mutant(17),
            Line::Input(Cow::Borrowed("0123abcd")),
            Line::Alive,
            Line::Engine,
            Line::Stats(Report { elapsed: 1.5, stats }),
            Line::Done(Report { elapsed: 0.25, stats: Stats::default() }),
            Line::Other(Cow::Borrowed("hello from the target")),
            Line::Note(Cow::Borrowed("target t is nondeterministic")),
            Line::Keep { name: Cow::Borrowed("0123abcd"), bytes: Cow::Borrowed(&[0, 255]) },
            Line::Keep { name: Cow::Borrowed("e"), bytes: Cow::Borrowed(&[]) },
        ] {
            assert_eq!(Line::parse(&line.to_string()), line, "{line}");
        }
        assert_eq!(Line::Trial(Cow::Borrowed(&[0, 15, 16, 255])).to_string(), "trial 000f10ff");
        // A long line comes in pieces of at most the cap, every byte counted once.
        let mut reader = std::io::BufReader::with_capacity(3, &b"abcdefg\nhi"[..]);
        let mut buf = Vec::new();
        let mut pieces = Vec::new();
        while let Some(len) = read_line_capped(&mut reader, &mut buf, 4) {
            pieces.push((String::from_utf8(buf.clone()).unwrap(), len));
        }
        let expected = [("abcd", 4), ("efg\n", 4), ("hi", 2)];
        assert_eq!(pieces, expected.map(|(t, n)| (t.to_owned(), n)));
        assert!(
            Line::Stats(Report { elapsed: 1.5, stats })
                .to_string()
                .starts_with(r#"stats {"elapsed":1.5,"trials":10,"#)
        );
        assert_eq!(Line::parse("trial"), Line::Trial(Cow::Owned(vec![])));
        assert_eq!(Line::Note(Cow::Borrowed("a\nb")).to_string(), "note a b");
        assert_eq!(Line::parse("input 0123abcd\r"), Line::Input(Cow::Owned("0123abcd".into())));
        assert_eq!(
            Line::Keep { name: Cow::Borrowed("ab"), bytes: Cow::Borrowed(&[1, 2]) }.to_string(),
            "keep ab 0102"
        );
        for reply in [Reply::Stored("ab12".into()), Reply::Refused("cd".into())] {
            assert_eq!(Reply::parse(&format!("{reply}\n")), Some(reply));
        }
        assert_eq!(Reply::parse("stored"), None);
        assert_eq!(Reply::parse("kept ab"), None);
    }

    #[test]
    fn other_output_is_kept_as_other() {
        for l in [
            "trial 0g",
            "trial abc",
            "mutant x",
            "stats {",
            "stats are fun",
            "hello",
            "input ",
            "done {\"x\":1}",
            "note ",
            "keep",
            "keep ab",
            "keep ab 0g",
            "keep  0102",
        ] {
            assert_eq!(Line::parse(l), Line::Other(Cow::Owned(l.to_owned())), "{l}");
        }
    }
}
