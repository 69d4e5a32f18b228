//! libFuzzer's command line for the harness binary, so that ClusterFuzzLite and OSS-Fuzz
//! can run mutfuzz campaigns on many machines and keep their corpora: corpus directories
//! as arguments, `-runs=`, `-max_total_time=`, `-artifact_prefix=`, `-seed=`, `-merge=1`,
//! crash artifacts named `crash-<sha1>`, and libFuzzer's status lines on stderr.
//!
//! The binary runs as one target: the one its file is named after (`<target>` or
//! `<target>_fuzzer`, as a build script copies it into `$OUT`), or `MUTFUZZ_TARGET`, or
//! its only target. Its mutant catalog is `MUTFUZZ_MUTANTS`, or `<binary>.mutants.json`
//! beside it; without one it fuzzes with coverage guidance alone. Each trial's mutants
//! run in a worker process, so a mutant that aborts or overflows its stack ends only its
//! worker (the mutant is killed by `crash`), never the fuzzer: what the fuzzer reports as
//! a crash is always the original code's.

use std::fmt::Debug;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mutfuzz_contract::command::WorkerLimits;
use mutfuzz_contract::{EXIT_LIBFUZZER_CRASH, EXIT_LIBFUZZER_ERROR, EXIT_SUCCESS, GuidanceKind};

use crate::Isolate;
use crate::campaign::Campaign;
use crate::config::CampaignConfig;
use crate::error::HarnessError;
use crate::r#gen::Gen;
use crate::input::{Limits, Rng, Source};
use crate::mutants::MutantInfo;
use crate::oracle::Oracle;
use crate::workers::Workers;

/// The entry point's name: ClusterFuzz takes a binary that holds it for a fuzz target.
pub static MARKER: [u8; 22] = *b"LLVMFuzzerTestOneInput";

/// A parsed libFuzzer command line.
#[derive(Debug, Default, PartialEq)]
pub struct Flags {
    /// `-runs=N`: stop after N runs (trials); negative or absent: no limit.
    pub runs: Option<u64>,
    /// `-max_total_time=S`: stop after S seconds.
    pub max_total_time: Option<u64>,
    /// `-artifact_prefix=P`: crash artifacts are `P` + `crash-<sha1>`.
    pub artifact_prefix: String,
    /// `-exact_artifact_path=F`: the crash artifact's whole path.
    pub exact_artifact_path: Option<String>,
    /// `-seed=S`; 0 (the default) takes one from the clock, as libFuzzer does.
    pub seed: u64,
    /// `-error_exitcode=N` (77).
    pub error_exitcode: i32,
    /// `-merge=1`: keep in the first directory the inputs of the others that add to it.
    pub merge: bool,
    /// `-print_final_stats=1`.
    pub print_final_stats: bool,
    /// `-help=1`.
    pub help: bool,
    /// Corpus directories, or input files to run once.
    pub paths: Vec<PathBuf>,
    /// Flags read and not acted on (`-timeout=25`, `-rss_limit_mb=2560`, …).
    pub ignored: Vec<String>,
}

impl Flags {
    /// Parse libFuzzer's arguments (without the program name).
    pub fn parse(argv: &[String]) -> Result<Flags, HarnessError> {
        let mut f = Flags { error_exitcode: EXIT_LIBFUZZER_CRASH, ..Flags::default() };
        for arg in argv {
            // libFuzzer leaves `--flags` to the target; this target takes none.
            if arg.starts_with("--") {
                f.ignored.push(arg.clone());
                continue;
            }
            let Some(flag) = arg.strip_prefix('-') else {
                f.paths.push(PathBuf::from(arg));
                continue;
            };
            let (name, value) = flag.split_once('=').unwrap_or((flag, "1"));
            let int = |v: &str| {
                v.parse::<i64>()
                    .map_err(|_| HarnessError::Usage(format!("-{name} takes a number, not {v:?}")))
            };
            match name {
                "runs" => f.runs = u64::try_from(int(value)?).ok(),
                "max_total_time" => f.max_total_time = u64::try_from(int(value)?).ok().filter(|&t| t > 0),
                "artifact_prefix" => f.artifact_prefix = value.to_owned(),
                "exact_artifact_path" => f.exact_artifact_path = Some(value.to_owned()),
                "seed" => f.seed = int(value)? as u64,
                "error_exitcode" => f.error_exitcode = int(value)? as i32,
                "merge" => f.merge = int(value)? != 0,
                "print_final_stats" => f.print_final_stats = int(value)? != 0,
                "help" => f.help = int(value)? != 0,
                _ => f.ignored.push(arg.clone()),
            }
        }
        Ok(f)
    }
}

/// libFuzzer's rendering of a corpus size: `12b`, `3Kb`, `1Mb`.
pub fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{}Mb", bytes >> 20)
    } else if bytes >= 1 << 10 {
        format!("{}Kb", bytes >> 10)
    } else {
        format!("{bytes}b")
    }
}

/// What a status line reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Status {
    /// Runs so far.
    pub runs: u64,
    /// Edges covered.
    pub edges: usize,
    /// Inputs in the corpus.
    pub corpus: usize,
    /// Their bytes.
    pub corpus_bytes: usize,
    /// Runs per second.
    pub execs_per_sec: u64,
    /// Resident memory, in MiB.
    pub rss_mb: u64,
    /// Mutants killed (mutfuzz's own field, after libFuzzer's).
    pub kills: usize,
}

/// One of libFuzzer's status lines: `#123\tNEW    cov: 10 ft: 10 corp: 4/52b exec/s: 99 rss: 31Mb`.
pub fn status_line(event: &str, s: &Status) -> String {
    format!(
        "#{}\t{event:<6} cov: {} ft: {} corp: {}/{} exec/s: {} rss: {}Mb kills: {}",
        s.runs,
        s.edges,
        s.edges,
        s.corpus,
        size(s.corpus_bytes),
        s.execs_per_sec,
        s.rss_mb,
        s.kills
    )
}

/// Resident memory of this process in MiB (0 where `/proc` is missing).
fn rss_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb / 1024)
}

/// SHA-1 (FIPS 180-4) of `data`, as 40 hex digits: libFuzzer names artifacts by it.
pub fn sha1_hex(data: &[u8]) -> String {
    let mut h: [u32; 5] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0];
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in message.chunks_exact(64) {
        let mut w = [0u32; 80];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, &wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A82_7999),
                20..=39 => (b ^ c ^ d, 0x6ED9_EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6),
            };
            let t = a.rotate_left(5).wrapping_add(f).wrapping_add(e).wrapping_add(k).wrapping_add(wi);
            (e, d, c, b, a) = (d, c, b.rotate_left(30), a, t);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

const HELP: &str = "\
Usage: <harness> [-flag=value …] [CORPUS_DIR …] | [-flag=value …] FILE …
libFuzzer's command line, run as a mutfuzz campaign (inputs are mutfuzz choice sequences):
  -runs=N               stop after N runs (trials)
  -max_total_time=S     stop after S seconds
  -seed=S               seed of every random choice (0: from the clock)
  -artifact_prefix=P    write a crashing input to P + crash-<sha1>
  -exact_artifact_path=F  write it to F
  -error_exitcode=N     exit code when a crash is found (77)
  -merge=1              keep in the first CORPUS_DIR the inputs of the others that add to it
  -print_final_stats=1  print stat:: lines at the end
Other flags are read and ignored. New inputs go to the first CORPUS_DIR; the others are
read as seeds. With FILEs, runs each once. Environment: MUTFUZZ_TARGET (which target),
MUTFUZZ_MUTANTS (the mutant catalog; default <binary>.mutants.json).";

/// Run target `name` as libFuzzer would; returns the exit code.
pub(crate) fn run<T: Gen + Debug + 'static, O: Debug + 'static>(
    name: &str,
    argv: &[String],
    target: fn(T) -> O,
    oracle: impl Fn() -> Box<dyn Oracle<O>>,
) -> Result<i32, HarnessError> {
    let flags = Flags::parse(argv)?;
    if flags.help {
        eprintln!("{HELP}");
        return Ok(EXIT_SUCCESS);
    }
    for f in &flags.ignored {
        eprintln!("INFO: mutfuzz ignores the libFuzzer flag {f}");
    }
    let files = !flags.paths.is_empty() && flags.paths.iter().all(|p| p.is_file());
    if files {
        return Ok(run_files(&flags, target));
    }
    let seed = if flags.seed != 0 {
        flags.seed
    } else {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    };
    eprintln!("INFO: Seed: {seed}");
    let (mutants, guidance) = catalog(name)?;
    let state = std::env::temp_dir().join(format!("mutfuzz-libfuzzer-{name}-{}", std::process::id()));
    let result = fuzz(name, &flags, seed, mutants, guidance, &state, target, oracle);
    let _ = std::fs::remove_dir_all(&state);
    result
}

/// The mutant catalog: `MUTFUZZ_MUTANTS`, or `<binary>.mutants.json`; none means
/// coverage guidance alone.
fn catalog(name: &str) -> Result<(Vec<MutantInfo>, GuidanceKind), HarnessError> {
    let path = match std::env::var_os("MUTFUZZ_MUTANTS") {
        Some(p) => Some(PathBuf::from(p)),
        None => std::env::current_exe().ok().map(|exe| {
            let mut p = exe.into_os_string();
            p.push(".mutants.json");
            PathBuf::from(p)
        }),
    };
    match path.filter(|p| p.is_file()) {
        Some(p) => {
            let mutants = MutantInfo::load(&p)?;
            eprintln!(
                "INFO: mutfuzz: target {name}, {} mutants from {}, guidance mu2",
                mutants.len(),
                p.display()
            );
            Ok((mutants, GuidanceKind::Mu2))
        }
        None => {
            eprintln!(
                "INFO: mutfuzz: target {name}, no mutant catalog (<binary>.mutants.json or MUTFUZZ_MUTANTS): \
                 coverage guidance, no mutants"
            );
            Ok((Vec::new(), GuidanceKind::Coverage))
        }
    }
}

/// Every file of `dir`, in name order.
fn files_in(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, HarnessError> {
    let mut out = Vec::new();
    let entries =
        std::fs::read_dir(dir).map_err(|e| HarnessError::io(format!("read {}", dir.display()), e))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !entry.path().is_file() {
            continue;
        }
        let bytes = std::fs::read(entry.path())
            .map_err(|e| HarnessError::io(format!("read {}", entry.path().display()), e))?;
        out.push((name, bytes));
    }
    out.sort();
    Ok(out)
}

/// `FILE …`: run each once, as libFuzzer does to reproduce a crash.
fn run_files<T: Gen + Debug + 'static, O: Debug + 'static>(flags: &Flags, target: fn(T) -> O) -> i32 {
    eprintln!("INFO: Running {} inputs 1 time(s) each.", flags.paths.len());
    for path in &flags.paths {
        eprintln!("Running: {}", path.display());
        let Ok(bytes) = std::fs::read(path) else {
            eprintln!("ERROR: cannot read {}", path.display());
            return EXIT_LIBFUZZER_ERROR;
        };
        let start = Instant::now();
        let value: T = Source::new(bytes, Rng::new(0)).with_limits(Limits::default()).draw();
        // The panic hook prints the message and where.
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| target(value))).is_err() {
            eprintln!("=={}== ERROR: libFuzzer: deadly signal", std::process::id());
            return flags.error_exitcode;
        }
        eprintln!("Executed {} in {} ms", path.display(), start.elapsed().as_millis());
    }
    eprintln!(
        "***\n*** NOTE: fuzzing was not performed, you have only\n***       executed the target code on a fixed set of inputs.\n***"
    );
    EXIT_SUCCESS
}

#[allow(clippy::too_many_arguments)]
fn fuzz<T: Gen + Debug + 'static, O: Debug + 'static>(
    name: &str,
    flags: &Flags,
    seed: u64,
    mutants: Vec<MutantInfo>,
    guidance: GuidanceKind,
    state: &Path,
    target: fn(T) -> O,
    oracle: impl Fn() -> Box<dyn Oracle<O>>,
) -> Result<i32, HarnessError> {
    let out_dir = flags.paths.first();
    if let Some(dir) = out_dir {
        std::fs::create_dir_all(dir).map_err(|e| HarnessError::io(format!("create {}", dir.display()), e))?;
    }
    let config = CampaignConfig {
        seed,
        guidance,
        // Every mutant run goes to the worker, so a mutant that kills its process ends
        // only the worker.
        isolate: Isolate::All,
        dir: out_dir.map(|_| state.to_path_buf()),
        corpus_dir: out_dir.cloned(),
        ..CampaignConfig::default()
    };
    let has_mutants = !mutants.is_empty();
    let mut campaign = Campaign::new(config, mutants, target)?.with_oracle(oracle());
    if has_mutants {
        let workers = Workers::of_harness(1, name, &WorkerLimits::default())?;
        campaign = campaign.with_workers(workers);
    }
    // The first directory is the campaign's own corpus; the others are seeds.
    let mut seeds = campaign.resume_from_dir()?;
    let mut seed_bytes = 0;
    for dir in flags.paths.iter().skip(1) {
        let files = files_in(dir)?;
        eprintln!("INFO: {} files found in {}", files.len(), dir.display());
        for (_, bytes) in files {
            seed_bytes += bytes.len();
            campaign.add_seed(bytes);
            seeds += 1;
        }
    }
    if let Some(dir) = out_dir {
        let own: usize = files_in(dir)?.iter().map(|(_, b)| b.len()).sum();
        seed_bytes += own;
    }
    eprintln!("INFO: seed corpus: files: {seeds} total: {} rss: {}Mb", size(seed_bytes), rss_mb());

    let start = Instant::now();
    let deadline = flags.max_total_time.map(|t| start + Duration::from_secs(t));
    let limit = flags.runs;
    let status = |c: &Campaign<T, O>| {
        let s = c.stats();
        let secs = start.elapsed().as_secs();
        Status {
            runs: s.trials,
            edges: s.edges,
            corpus: s.corpus,
            corpus_bytes: c.corpus().entries().iter().map(|e| e.input.as_bytes().len()).sum(),
            execs_per_sec: s.trials.checked_div(secs).unwrap_or(s.trials),
            rss_mb: rss_mb(),
            kills: s.mutants_killed,
        }
    };
    let mut inited = seeds == 0;
    if inited {
        eprintln!("{}", status_line("INITED", &status(&campaign)));
    }
    let mut corpus = campaign.stats().corpus;
    let mut next_pulse = 2u64;
    loop {
        let s = campaign.stats();
        if limit.is_some_and(|n| s.trials >= n) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        if flags.merge && s.trials >= seeds as u64 {
            break;
        }
        campaign.run_trials(1)?;
        let s = campaign.stats();
        if let Some(failure) = campaign.failures().first() {
            // libFuzzer never keeps a crashing input in the corpus; the campaign may
            // have (it reached new code).
            if let Some(dir) = out_dir {
                let _ = std::fs::remove_file(dir.join(&failure.name));
            }
            return crash(flags, failure.input.as_bytes(), &failure.message, failure.location.as_deref());
        }
        if !inited && s.trials >= seeds as u64 {
            inited = true;
            eprintln!("{}", status_line("INITED", &status(&campaign)));
        } else if s.corpus > corpus {
            eprintln!("{}", status_line("NEW", &status(&campaign)));
        } else if s.trials >= next_pulse {
            eprintln!("{}", status_line("pulse", &status(&campaign)));
        }
        corpus = s.corpus;
        while next_pulse <= s.trials {
            next_pulse *= 2;
        }
    }
    let end = status(&campaign);
    if flags.merge {
        eprintln!("MERGE-OUTER: {} inputs tried, corpus now {} inputs", end.runs, end.corpus);
    }
    eprintln!("{}", status_line("DONE", &end));
    if flags.print_final_stats {
        let secs = start.elapsed().as_secs_f64();
        eprintln!("stat::number_of_executed_units: {}", end.runs);
        eprintln!("stat::average_exec_per_sec:     {}", end.execs_per_sec);
        eprintln!("stat::new_units_added:          {}", end.corpus.saturating_sub(seeds));
        eprintln!("stat::slowest_unit_time_sec:    0");
        eprintln!("stat::peak_rss_mb:              {}", end.rss_mb);
        eprintln!("stat::mutfuzz_mutants_killed:   {} in {secs:.1}s", end.kills);
    }
    eprintln!("Done {} runs in {} second(s)", end.runs, start.elapsed().as_secs());
    Ok(EXIT_SUCCESS)
}

/// The original panicked on `input`: write it as libFuzzer names a crash, say so as
/// libFuzzer does, and return `-error_exitcode`.
fn crash(flags: &Flags, input: &[u8], message: &str, location: Option<&str>) -> Result<i32, HarnessError> {
    let path = match &flags.exact_artifact_path {
        Some(p) => p.clone(),
        None => format!("{}crash-{}", flags.artifact_prefix, sha1_hex(input)),
    };
    let pid = std::process::id();
    let at = location.map(|l| format!(" at {l}")).unwrap_or_default();
    eprintln!("thread '<unnamed>' panicked{at}:\n{message}");
    eprintln!("=={pid}== ERROR: libFuzzer: deadly signal");
    eprintln!("NOTE: mutfuzz: the original code (no mutant active) panicked on this input");
    eprintln!("MS: 0 ; base unit: 0000000000000000000000000000000000000000");
    std::fs::write(&path, input)
        .map_err(|e| HarnessError::io(format!("write the crash artifact {path}"), e))?;
    eprintln!("artifact_prefix='{}'; Test unit written to {path}", flags.artifact_prefix);
    let _ = std::io::stderr().flush();
    Ok(flags.error_exitcode)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn libfuzzer_flags_parse_and_unknown_ones_are_kept_aside() {
        let f = Flags::parse(&argv(&[
            "-runs=100",
            "-max_total_time=30",
            "-artifact_prefix=out/",
            "-seed=7",
            "-timeout=25",
            "-rss_limit_mb=2560",
            "corpus",
            "seeds",
        ]))
        .unwrap();
        assert_eq!((f.runs, f.max_total_time, f.seed), (Some(100), Some(30), 7));
        assert_eq!(f.artifact_prefix, "out/");
        assert_eq!(f.paths, [PathBuf::from("corpus"), PathBuf::from("seeds")]);
        assert_eq!(f.ignored, ["-timeout=25", "-rss_limit_mb=2560"]);
        assert_eq!(f.error_exitcode, EXIT_LIBFUZZER_CRASH);
        // -runs=-1 is libFuzzer's "no limit".
        assert_eq!(Flags::parse(&argv(&["-runs=-1"])).unwrap().runs, None);
        assert!(Flags::parse(&argv(&["-merge=1"])).unwrap().merge);
        assert!(Flags::parse(&argv(&["-runs=x"])).unwrap_err().to_string().contains("-runs takes a number"));
    }

    #[test]
    fn sha1_matches_the_standard_vectors() {
        assert_eq!(sha1_hex(b""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
        assert_eq!(
            sha1_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        );
    }

    #[test]
    fn status_lines_read_as_libfuzzer_s() {
        let s = Status {
            runs: 123,
            edges: 10,
            corpus: 4,
            corpus_bytes: 2048,
            execs_per_sec: 99,
            rss_mb: 31,
            kills: 3,
        };
        assert_eq!(
            status_line("NEW", &s),
            "#123\tNEW    cov: 10 ft: 10 corp: 4/2Kb exec/s: 99 rss: 31Mb kills: 3"
        );
        assert_eq!(size(12), "12b");
        assert_eq!(size(3 << 20), "3Mb");
    }
}
