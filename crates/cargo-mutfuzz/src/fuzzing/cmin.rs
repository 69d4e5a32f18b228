//! Corpus minimization (`cargo mutfuzz cmin`): the smallest subset of a target's corpus
//! found that keeps its coverage and its kills.
//!
//! The harness's `cmin` command records, for every stored input, the mutant sites and the
//! edges (hit-count buckets, as the fuzz loop counts them) the original reaches, and every
//! reached viable mutant it kills, judged as `score` judges (its budget, mutants in a worker
//! process). The subset is then a greedy set cover over those elements ([`cover::choose`],
//! shared with `amplify`): each pick covers the most elements not yet covered, the smaller
//! input first among equals. Greedy cover is not always the smallest cover, but stays
//! within a logarithmic factor of it; and since every element some input covers is
//! covered by a pick, the subset has exactly the corpus's coverage and kills.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use anyhow::{Context, Result, anyhow};
use mutfuzz_contract::command::{CminRequest, HarnessCommand, WorkerLimits};
use mutfuzz_contract::{CminRecord, read_jsonl};

use crate::fuzzing::cover::{self, Candidate};
use crate::fuzzing::harness::Built;

/// What an input covers: an element of the set cover.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Element {
    /// A mutant site the original reaches.
    Site(u32),
    /// An edge with its hit-count bucket (see [`CminRecord::edges`]).
    Edge(u64),
    /// A mutant the input kills.
    Kill(u32),
}

/// The chosen subset and what it keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimized {
    /// The kept inputs' file names, in name order.
    pub kept: Vec<String>,
    /// Inputs in the corpus.
    pub inputs: usize,
    /// Bytes of the corpus, and of the kept inputs.
    pub bytes: (usize, usize),
    /// Mutants killed by the corpus (and so by the kept inputs).
    pub kills: usize,
    /// Edges (with their buckets) and sites covered.
    pub edges: usize,
    /// Sites reached.
    pub sites: usize,
}

/// Choose the subset of the inputs `records` describe.
pub fn choose(records: &[CminRecord]) -> Minimized {
    let candidates: Vec<Candidate<String, Element>> = records
        .iter()
        .map(|r| Candidate {
            item: r.input.clone(),
            size: r.size,
            kills: r
                .sites
                .iter()
                .map(|&s| Element::Site(s))
                .chain(r.edges.iter().map(|&e| Element::Edge(e)))
                .chain(r.kills.iter().map(|&k| Element::Kill(k)))
                .collect(),
        })
        .collect();
    let all: BTreeSet<&Element> = candidates.iter().flat_map(|c| &c.kills).collect();
    let chosen = cover::choose(&candidates);
    let mut kept: Vec<String> = chosen.iter().map(|c| c.item.clone()).collect();
    kept.sort();
    let count = |f: fn(&Element) -> bool| all.iter().filter(|e| f(e)).count();
    Minimized {
        kept,
        inputs: records.len(),
        bytes: (records.iter().map(|r| r.size).sum(), chosen.iter().map(|c| c.size).sum()),
        kills: count(|e| matches!(e, Element::Kill(_))),
        edges: count(|e| matches!(e, Element::Edge(_))),
        sites: count(|e| matches!(e, Element::Site(_))),
    }
}

/// Run the harness's `cmin` on `corpus` (in the sandbox, mutants in its worker) and read
/// its records back.
pub fn records(built: &Built, target: &str, corpus: &Path) -> Result<Vec<CminRecord>> {
    let tmp = built.layout.tmp();
    std::fs::create_dir_all(&tmp).with_context(|| format!("failed to create {}", tmp.display()))?;
    let out = tmp.join(format!("cmin-{}.jsonl", std::process::id()));
    let command = HarnessCommand::Cmin(CminRequest {
        target: target.to_owned(),
        corpus: corpus.to_owned(),
        catalog: built.state.viable(),
        // A generated target the campaign found nondeterministic is judged as it is there.
        state: Some(built.state.path().to_owned()),
        // A mutant run writing more than the cap is killed by `crash`, as in `fuzz`.
        workers: WorkerLimits { max_output: Some(built.caps.output.unwrap_or(0)), ..WorkerLimits::default() },
        panic_is_failure: false,
        out: out.clone(),
    });
    let mut cmd = built.sandboxed_command(&command, &[corpus])?;
    built.caps.limit_memory(&mut cmd);
    // The target's own prints are no news; its errors (stderr) are shown.
    let status = cmd
        .stdout(Stdio::null())
        .status()
        .with_context(|| format!("failed to run the harness {}", built.binary.display()))?;
    if !status.success() {
        return Err(anyhow!("the harness's cmin ended with {status}, without a result"));
    }
    let read = read_jsonl::<CminRecord>(&out)?;
    let _ = std::fs::remove_file(&out);
    Ok(read.records)
}

/// `<corpus>.cmin` beside the corpus.
pub fn default_output(corpus: &Path) -> PathBuf {
    let mut name = corpus.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".cmin");
    corpus.with_file_name(name)
}

/// Copy the kept inputs of `corpus` to `output` (made anew: it must not hold other files).
pub fn write_to(corpus: &Path, kept: &[String], output: &Path) -> Result<()> {
    if output.exists() && std::fs::read_dir(output).map(|mut d| d.next().is_some()).unwrap_or(true) {
        return Err(crate::console::exit_code::usage(anyhow!(
            "{} exists and is not empty: pass another with --output DIR, or remove it",
            output.display()
        )));
    }
    std::fs::create_dir_all(output).with_context(|| format!("failed to create {}", output.display()))?;
    for name in kept {
        std::fs::copy(corpus.join(name), output.join(name)).with_context(|| {
            format!("failed to copy {} to {}", corpus.join(name).display(), output.display())
        })?;
    }
    Ok(())
}

/// `--in-place`: remove from `corpus` every input not kept (the others stay as they are).
pub fn remove_others(corpus: &Path, records: &[CminRecord], kept: &[String]) -> Result<usize> {
    let kept: BTreeSet<&String> = kept.iter().collect();
    let mut removed = 0;
    for r in records.iter().filter(|r| !kept.contains(&r.input)) {
        let path = corpus.join(&r.input);
        std::fs::remove_file(&path).with_context(|| format!("failed to remove {}", path.display()))?;
        removed += 1;
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(input: &str, size: usize, sites: &[u32], edges: &[u64], kills: &[u32]) -> CminRecord {
        CminRecord {
            input: input.into(),
            size,
            sites: sites.to_vec(),
            edges: edges.to_vec(),
            kills: kills.to_vec(),
        }
    }

    #[test]
    fn the_subset_keeps_every_edge_site_and_kill_with_the_fewest_inputs_found() {
        let records = [
            record("a", 10, &[1], &[8, 16], &[3]),
            // Covers what `a` covers and more: `a` is not needed.
            record("b", 30, &[1, 5], &[8, 16, 24], &[3, 7]),
            // The same as `b`, but smaller: chosen instead.
            record("c", 20, &[1, 5], &[8, 16, 24], &[3, 7]),
            // Only a kill nothing else has.
            record("d", 50, &[5], &[8], &[9]),
            // Only an edge bucket nothing else has.
            record("e", 5, &[], &[17], &[]),
            record("f", 1, &[], &[], &[]),
        ];
        let m = choose(&records);
        assert_eq!(m.kept, ["c", "d", "e"]);
        assert_eq!((m.inputs, m.bytes, m.kills, m.edges, m.sites), (6, (116, 75), 3, 4, 2));
    }

    #[test]
    fn inputs_are_copied_out_or_the_others_removed_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpus");
        std::fs::create_dir(&corpus).unwrap();
        for name in ["a", "b", "c"] {
            std::fs::write(corpus.join(name), name).unwrap();
        }
        let out = default_output(&corpus);
        assert_eq!(out, dir.path().join("corpus.cmin"));
        write_to(&corpus, &["b".into()], &out).unwrap();
        assert_eq!(std::fs::read_to_string(out.join("b")).unwrap(), "b");
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
        let err = write_to(&corpus, &["b".into()], &out).unwrap_err().to_string();
        assert!(err.contains("is not empty: pass another with --output DIR"), "{err}");
        let records: Vec<CminRecord> = ["a", "b", "c"].iter().map(|n| record(n, 1, &[], &[], &[])).collect();
        assert_eq!(remove_others(&corpus, &records, &["b".into()]).unwrap(), 2);
        assert_eq!(std::fs::read_dir(&corpus).unwrap().count(), 1);
    }
}
