//! Scoring on a hand-written schema with infection probes: infection pruning gives every
//! mutant the verdict that running all of them gives, with fewer runs; a restarted score
//! runs no mutant on the inputs its progress log says are done.
//!
//! The run-time's active mutant and its tables are process-global, and sized by the first
//! recording run: every test takes `LOCK` and scores the one catalog, whose last mutant
//! ids lie past its last site id (a table sized by sites would never mark them infected).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Mutex;

use mutfuzz::contract::{ScoreProgressRecord, append_record};
use mutfuzz::score::{SCORE_BUDGET, ScoreEvent, ScoreHooks, ScoreSetup, score};
use mutfuzz::{DebugHash, Gen, Limits, MutantInfo, Prune, Rng, ScoreLine, Source};
use mutfuzz_rt::{PROBE, arith, at, at_probe, enter, infect_bool};

static LOCK: Mutex<()> = Mutex::new(());

#[derive(Debug, PartialEq, Gen)]
struct Pair {
    x: u8,
    y: u8,
}

// site 1990: mutant 1990, never reached on the corpus.
// site 2000: mutant 2000 `x > 10` → `x >= 10` (infected by x == 10, which it kills);
//            mutant 2001 → `x >= 11` (equivalent: never infected, survives).
// site 2002: mutant 2002 `x + y` → `x - y`, whose value never reaches the output
//            (infected whenever y != 0, survives).
// site 2003: mutant 2003, `double`'s body replaced by 0; no probe (killed unless x == 0).
// site 2004: mutants 2004 `y < 100` → `y <= 100`, 2005 → `y > 100`, 2006 → `y != 100`.
fn target(p: Pair) -> (bool, u16, bool) {
    let __m = enter();
    let (x, y) = (p.x, p.y);
    if x == 255 && y == 255 {
        let _ = at_probe(__m, 1990, 1);
    }
    let big = match at_probe(__m, 2000, 2) {
        1 => x >= 10,
        2 => x >= 11,
        PROBE => {
            let o = x > 10;
            infect_bool(2000, x >= 10, o);
            infect_bool(2001, x >= 11, o);
            o
        }
        _ => x > 10,
    };
    let _hidden = match at_probe(__m, 2002, 1) {
        1 => x.wrapping_sub(y),
        PROBE => {
            arith(&x, &y, "+", &[(2002, "-")]);
            x.wrapping_add(y)
        }
        _ => x.wrapping_add(y),
    };
    let small = match at_probe(__m, 2004, 3) {
        1 => y <= 100,
        2 => y > 100,
        3 => y != 100,
        PROBE => {
            let o = y < 100;
            infect_bool(2004, y <= 100, o);
            infect_bool(2005, y > 100, o);
            infect_bool(2006, y != 100, o);
            o
        }
        _ => y < 100,
    };
    (big, double(x), small)
}

fn double(x: u8) -> u16 {
    let __m = enter();
    match at(__m, 2003, 1) {
        1 => 0,
        _ => u16::from(x) * 2,
    }
}

fn catalog() -> Vec<MutantInfo> {
    let probed = |id, site| MutantInfo { id, site, probe: true };
    vec![
        probed(1990, 1990),
        probed(2000, 2000),
        probed(2001, 2000),
        probed(2002, 2002),
        MutantInfo::new(2003, 2003),
        probed(2004, 2004),
        probed(2005, 2004),
        probed(2006, 2004),
    ]
}

/// Every (x, y) of x ∈ {0, 10, 11, 200} and y ∈ {0, 100, 150}, named so that name order
/// is this order.
fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut inputs = Vec::new();
    for x in [0u8, 10, 11, 200] {
        for y in [0u8, 100, 150] {
            let bytes = vec![x, y];
            let drawn: Pair = Source::new(bytes.clone(), Rng::new(0)).draw();
            assert_eq!(drawn, Pair { x, y }, "the input's bytes are its fields");
            inputs.push((format!("x{x:03}-y{y:03}"), bytes));
        }
    }
    inputs
}

/// A score of the corpus: each mutant's line (in the order said) and the inputs each
/// mutant ran on, in order.
struct Scored {
    lines: Vec<ScoreLine>,
    runs: Vec<(String, u32)>,
}

impl Scored {
    /// Each mutant's outcome, kind and killing input, by id.
    fn verdicts(&self) -> BTreeMap<u32, String> {
        let verdict = |l: &ScoreLine| {
            let kind = l.kind.map(|k| format!(" by {k}")).unwrap_or_default();
            let input = l.input.as_deref().map(|i| format!(" on {i}")).unwrap_or_default();
            format!("{}{kind}{input}", l.outcome.name())
        };
        self.lines.iter().map(|l| (l.mutant, verdict(l))).collect()
    }
}

fn run_score(prune: Prune, done: &HashSet<u32>, progress: Option<&Path>) -> Scored {
    let inputs = corpus();
    let mut scored = Scored { lines: Vec::new(), runs: Vec::new() };
    let mut input = String::new();
    let mut runs = Vec::new();
    let setup =
        ScoreSetup { limits: Limits::default(), budget: SCORE_BUDGET, prune, jobs: 1, drift: None, progress };
    score(
        ScoreHooks::default(),
        target,
        &DebugHash,
        &catalog(),
        &inputs,
        done,
        setup,
        None,
        |l| scored.lines.push(l.clone()),
        |e| match e {
            ScoreEvent::Input(name) => input = name.to_owned(),
            ScoreEvent::Mutant(id) => runs.push((input.clone(), id)),
        },
    )
    .unwrap();
    scored.runs = runs;
    scored
}

fn expected(entries: &[(u32, &str)]) -> BTreeMap<u32, String> {
    entries.iter().map(|&(id, v)| (id, v.to_owned())).collect()
}

#[test]
fn infection_pruning_gives_the_verdicts_of_running_every_reached_mutant_with_fewer_runs() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let all = run_score(Prune::Execution, &HashSet::new(), None);
    let pruned = run_score(Prune::Infection, &HashSet::new(), None);
    let verdicts = expected(&[
        (1990, "not-covered"),
        (2000, "killed by output-differs on x010-y000"),
        (2001, "survived"),
        (2002, "survived"),
        (2003, "killed by output-differs on x010-y000"),
        (2004, "killed by output-differs on x000-y100"),
        (2005, "killed by output-differs on x000-y000"),
        (2006, "killed by output-differs on x000-y150"),
    ]);
    assert_eq!(all.verdicts(), verdicts);
    assert_eq!(pruned.verdicts(), verdicts);
    assert_eq!(pruned.lines.len(), 8, "each mutant said once");
    // Running all: each reached mutant on each input until it is killed (4 + 12 + 12 +
    // 4 + 2 + 1 + 3). Pruned: 2000, 2004, 2005 and 2006 on the input that infects (and
    // kills) them, 2001 never, 2002 on the 8 inputs with y != 0, unprobed 2003 as before.
    assert_eq!(all.runs.len(), 38);
    assert_eq!(pruned.runs.len(), 1 + 8 + 4 + 1 + 1 + 1);
    let count = |id| pruned.runs.iter().filter(|&&(_, m)| m == id).count();
    assert_eq!([2000, 2001, 2002, 2003, 2004, 2005, 2006].map(count), [1, 0, 8, 4, 1, 1, 1]);
}

#[test]
fn a_restarted_score_runs_no_mutant_on_the_inputs_its_progress_log_says_are_done() {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("score.jsonl.progress.jsonl");
    // An earlier process killed 2005 and got through the first three inputs (x == 0).
    let done = HashSet::from([2005]);
    let record = ScoreProgressRecord { input: "x000-y150".into(), decided: 1 };
    append_record(&log, &record).unwrap();
    let resumed = run_score(Prune::Infection, &done, Some(&log));
    assert!(resumed.runs.iter().all(|(input, _)| !input.starts_with("x000")), "{:?}", resumed.runs);
    // 2004 and 2006, which those inputs killed in the first score, are killed on the
    // first later input that infects them; the inputs replayed still cover 2001.
    assert_eq!(
        resumed.verdicts(),
        expected(&[
            (1990, "not-covered"),
            (2000, "killed by output-differs on x010-y000"),
            (2001, "survived"),
            (2002, "survived"),
            (2003, "killed by output-differs on x010-y000"),
            (2004, "killed by output-differs on x010-y100"),
            (2006, "killed by output-differs on x010-y150"),
        ])
    );
    assert!(!log.exists(), "a finished score leaves nothing to resume");

    // A log that knew more decided mutants than the score now does is another score's.
    let record = ScoreProgressRecord { input: "x200-y150".into(), decided: 2 };
    append_record(&log, &record).unwrap();
    let fresh = run_score(Prune::Infection, &done, Some(&log));
    assert_eq!(fresh.runs, run_score(Prune::Infection, &done, None).runs);
    assert_eq!(fresh.runs.first().map(|(input, _)| input.as_str()), Some("x000-y000"));
}
