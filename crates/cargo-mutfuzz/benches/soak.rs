//! A soak of `cargo mutfuzz fuzz`: one campaign of minilang's `program` target (about
//! 5,000 mutants, the largest bundled target) from an empty corpus, sampled every few
//! seconds: the resident memory of the CLI, of its harness and of the harness's workers,
//! the corpus's files and bytes, the files of the campaign's state directory, and its
//! progress from `stats.csv`. Writes the samples (`soak.csv`) and SVG plots of them
//! (memory against time and against the corpus size, disk against trials) to the bench's
//! scratch directory, and prints what they show.
//!
//! Run: `cargo bench -p cargo-mutfuzz --bench soak [-- DURATION [SECONDS-PER-SAMPLE]
//! [FUZZ-OPTION…]]`, DURATION as `fuzz --time` takes it (`5m`, `60m`), the options
//! (`--hang-timeout 120`) passed to `fuzz` as they are. The default is `60s`, so that a
//! plain `cargo bench` stays short; a sample every 2 seconds. Each sample is written as
//! it is taken, and a campaign that fails or is stopped (Ctrl-C) is plotted too. Linux
//! only (`/proc`). `-- --plot PATH/soak.csv` draws the plots of an earlier run again, beside
//! its CSV, and prints its summary.

mod common;

use std::error::Error;
use std::fs;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use mutfuzz_contract::parse_stats_csv;
use plotters::coord::Shift;
use plotters::prelude::*;

const EXAMPLE: &str = "minilang";
const TARGET: &str = "program";
/// The harness's binary: its processes (the harness and its workers) are the CLI's
/// descendants running it, which leaves out the `cargo build` the CLI runs first.
const HARNESS_BIN: &str = "minilang-mutfuzz";

/// One sample: memory in KiB, sizes in bytes.
#[derive(Clone, Copy, Default)]
struct Sample {
    seconds: f64,
    trials: u64,
    corpus: u64,
    cli_kib: u64,
    harness_kib: u64,
    /// All workers of the harness, summed.
    workers_kib: u64,
    harness_pid: u32,
    corpus_files: u64,
    corpus_bytes: u64,
    /// What the corpus's files take on disk: a small file takes a whole block.
    corpus_disk: u64,
    stats_bytes: u64,
    kills_bytes: u64,
    state_files: u64,
    state_bytes: u64,
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if let [flag, csv] = &args[..]
        && flag == "--plot"
    {
        let csv = Path::new(csv);
        let samples = read_csv(csv);
        plots(csv.parent().unwrap_or(Path::new(".")), &samples).expect("draw the plots");
        summary(&samples);
        return;
    }
    let options = args.iter().position(|a| a.starts_with('-')).map_or_else(Vec::new, |i| args.split_off(i));
    let duration = args.first().map_or("60s", String::as_str);
    let every = Duration::from_secs_f64(args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2.0));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("soak");
    let dir = out.join(EXAMPLE);
    common::sync(&common::examples().join(EXAMPLE), &dir);
    let corpus = dir.join("mutfuzz/corpus").join(TARGET);
    let state = dir.join("target/mutfuzz").join(TARGET);

    // The schema's build (minutes, cold) goes first, so that the samples are the campaign's.
    eprintln!("== building {EXAMPLE} {TARGET}");
    let status = fuzz(&dir, &out, &["--trials", "1"], &[]).wait().expect("wait for cargo-mutfuzz");
    assert!(status.success(), "the build run failed: see {}", out.join("fuzz.log").display());
    for d in [&corpus, &state] {
        let _ = fs::remove_dir_all(d);
    }

    eprintln!("== fuzzing {TARGET} for {duration} {options:?}, a sample every {every:?}");
    // Ctrl-C stops the campaign, which then says so and exits: this process lives on to
    // plot what was sampled.
    ctrlc::set_handler(|| {}).expect("set a Ctrl-C handler");
    let mut cli = fuzz(&dir, &out, &["--time", duration], &options);
    let start = Instant::now();
    let mut csv = fs::File::create(out.join("soak.csv")).expect("create soak.csv");
    csv.write_all(CSV_HEADER.as_bytes()).expect("write soak.csv");
    let mut samples = Vec::new();
    let status = loop {
        let ended = cli.try_wait().expect("wait for cargo-mutfuzz");
        let s = sample(cli.id(), start, &corpus, &state);
        csv.write_all(s.csv_row().as_bytes()).expect("write soak.csv");
        samples.push(s);
        if let Some(status) = ended {
            break status;
        }
        let next = start + every * samples.len() as u32;
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
    };

    plots(&out, &samples).expect("draw the plots");
    summary(&samples);
    if !status.success() {
        println!("fuzz ended with {status}: see {}", out.join("fuzz.log").display());
    }
    println!("samples and plots in {}", out.display());
}

/// `cargo mutfuzz fuzz` of the target from the default corpus, started; its output goes
/// to `fuzz.log`.
fn fuzz(dir: &Path, out: &Path, args: &[&str], options: &[String]) -> Child {
    let log = fs::File::create(out.join("fuzz.log")).expect("create fuzz.log");
    Command::new(env!("CARGO_BIN_EXE_cargo-mutfuzz"))
        .args(["mutfuzz", "fuzz", TARGET, "--seed", "1", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .args(args)
        .args(options)
        // The example's own target dir, not the bench's.
        .env_remove("CARGO_TARGET_DIR")
        .stdout(log.try_clone().expect("fuzz.log"))
        .stderr(log)
        .spawn()
        .expect("run cargo-mutfuzz")
}

fn sample(cli: u32, start: Instant, corpus: &Path, state: &Path) -> Sample {
    let seconds = start.elapsed().as_secs_f64();
    let processes = processes();
    let rss = |pid: u32| rss_kib(pid).unwrap_or(0);
    let harness: Vec<u32> = descendants(&processes, cli).filter(|&p| is_harness(p)).collect();
    let (mut harness_kib, mut workers_kib, mut harness_pid) = (0, 0, 0);
    for &pid in &harness {
        if processes.contains(&(pid, cli)) {
            (harness_kib, harness_pid) = (harness_kib + rss(pid), pid);
        } else {
            workers_kib += rss(pid);
        }
    }
    let rows = fs::read_to_string(state.join("stats.csv")).ok().and_then(|t| parse_stats_csv(&t).ok());
    let rows = rows.unwrap_or_default();
    // Each harness process counts its trials from 0 (and its corpus as it replays it).
    let trials = rows.windows(2).filter(|w| w[1].trials < w[0].trials).map(|w| w[0].trials).sum::<u64>()
        + rows.last().map_or(0, |r| r.trials);
    let (corpus_files, corpus_bytes, corpus_disk) = usage(corpus);
    let (state_files, state_bytes, _) = usage(state);
    let size = |name: &str| fs::metadata(state.join(name)).map_or(0, |m| m.len());
    Sample {
        seconds,
        trials,
        corpus: rows.last().map_or(0, |r| r.corpus),
        cli_kib: rss(cli),
        harness_kib,
        workers_kib,
        harness_pid,
        corpus_files,
        corpus_bytes,
        corpus_disk,
        stats_bytes: size("stats.csv"),
        kills_bytes: size("kills.jsonl"),
        state_files,
        state_bytes,
    }
}

/// Every process as (pid, parent pid).
fn processes() -> Vec<(u32, u32)> {
    let entries = fs::read_dir("/proc").expect("read /proc");
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse().ok()?;
            let stat = fs::read_to_string(entry.path().join("stat")).ok()?;
            // `pid (comm) state ppid …`, where comm may hold spaces and parentheses.
            let ppid = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
            Some((pid, ppid))
        })
        .collect()
}

/// The descendants of `root`.
fn descendants(processes: &[(u32, u32)], root: u32) -> impl Iterator<Item = u32> {
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(processes.iter().filter(|p| p.1 == parent).map(|p| p.0));
        i += 1;
    }
    found.into_iter().skip(1)
}

fn is_harness(pid: u32) -> bool {
    fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| exe.ends_with(HARNESS_BIN))
}

/// `VmRSS` of a process, in KiB; `None` once it is gone.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Files, bytes, and bytes allocated on disk, under `dir`.
fn usage(dir: &Path) -> (u64, u64, u64) {
    let mut total = (0, 0, 0);
    let mut dirs: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in fs::read_dir(&d).into_iter().flatten().flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                dirs.push(entry.path());
            } else {
                total = (total.0 + 1, total.1 + meta.len(), total.2 + meta.blocks() * 512);
            }
        }
    }
    total
}

const CSV_HEADER: &str = "seconds,trials,corpus,cli_kib,harness_kib,workers_kib,harness_pid,corpus_files,corpus_bytes,corpus_disk_bytes,stats_csv_bytes,kills_jsonl_bytes,state_files,state_bytes\n";

impl Sample {
    fn csv_row(&self) -> String {
        format!(
            "{:.1},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            self.seconds,
            self.trials,
            self.corpus,
            self.cli_kib,
            self.harness_kib,
            self.workers_kib,
            self.harness_pid,
            self.corpus_files,
            self.corpus_bytes,
            self.corpus_disk,
            self.stats_bytes,
            self.kills_bytes,
            self.state_files,
            self.state_bytes
        )
    }
}

/// The samples of a `soak.csv` written before (`--plot`).
fn read_csv(path: &Path) -> Vec<Sample> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<f64> = line.split(',').map(|v| v.parse().expect("a number in soak.csv")).collect();
            let n = |i: usize| f[i] as u64;
            Sample {
                seconds: f[0],
                trials: n(1),
                corpus: n(2),
                cli_kib: n(3),
                harness_kib: n(4),
                workers_kib: n(5),
                harness_pid: n(6) as u32,
                corpus_files: n(7),
                corpus_bytes: n(8),
                corpus_disk: n(9),
                stats_bytes: n(10),
                kills_bytes: n(11),
                state_files: n(12),
                state_bytes: n(13),
            }
        })
        .collect()
}

/// The samples taken while the harness ran.
fn running(samples: &[Sample]) -> impl Iterator<Item = &Sample> {
    samples.iter().filter(|s| s.harness_kib > 0)
}

/// What the curves show, after a warm-up of the first tenth of the run.
fn summary(samples: &[Sample]) {
    let end = *running(samples).last().expect("the harness ran");
    let warm: Vec<&Sample> = running(samples).filter(|s| s.seconds >= end.seconds / 10.0).collect();
    let first = warm[0];
    // A restarted harness starts its memory afresh: growth is measured in one process.
    let one: Vec<&Sample> = warm.iter().copied().take_while(|s| s.harness_pid == first.harness_pid).collect();
    let last = one[one.len() - 1];
    let mib = |kib: u64| kib as f64 / 1024.0;
    let restarts = {
        let mut pids: Vec<u32> = running(samples).map(|s| s.harness_pid).collect();
        pids.dedup();
        pids.len() - 1
    };
    println!("{} samples over {:.0} s; harness restarts: {restarts}", samples.len(), end.seconds);
    let mut rows = vec![("after warm-up", first)];
    if last.harness_pid != end.harness_pid {
        rows.push(("before restart", last));
    }
    rows.push(("at the end", &end));
    for (when, s) in rows {
        println!(
            "{when:>14} ({:>5.0} s, {:>9} trials, corpus {:>6}): CLI {:>6.1} MiB, harness {:>6.1} MiB, workers {:>6.1} MiB",
            s.seconds,
            s.trials,
            s.corpus,
            mib(s.cli_kib),
            mib(s.harness_kib),
            mib(s.workers_kib)
        );
    }
    let per_input = |kib: fn(&Sample) -> u64| slope(one.iter().map(|s| (s.corpus as f64, kib(s) as f64)));
    println!(
        "after warm-up, per kept input (least squares, one harness process): harness {:+.1} KiB, CLI {:+.1} KiB; the corpus's own bytes per input: {:.2} KiB",
        per_input(|s| s.harness_kib),
        per_input(|s| s.cli_kib),
        end.corpus_bytes as f64 / end.corpus_files.max(1) as f64 / 1024.0
    );
    println!(
        "largest workers' RSS: {:.1} MiB",
        mib(samples.iter().map(|s| s.workers_kib).max().unwrap_or(0))
    );
    let per_k =
        |bytes: fn(&Sample) -> u64| slope(warm.iter().map(|s| (s.trials as f64, bytes(s) as f64))) * 1000.0;
    println!(
        "at the end: corpus {} files, {:.1} MiB ({:.1} MiB on disk); stats.csv {:.1} KiB; kills.jsonl {:.1} KiB; state {} files, {:.1} MiB",
        end.corpus_files,
        end.corpus_bytes as f64 / 1048576.0,
        end.corpus_disk as f64 / 1048576.0,
        end.stats_bytes as f64 / 1024.0,
        end.kills_bytes as f64 / 1024.0,
        end.state_files,
        end.state_bytes as f64 / 1048576.0
    );
    println!(
        "after warm-up, per 1000 trials: corpus {:+.2} files, {:+.1} KiB; stats.csv {:+.2} KiB; kills.jsonl {:+.1} KiB",
        per_k(|s| s.corpus_files),
        per_k(|s| s.corpus_bytes) / 1024.0,
        per_k(|s| s.stats_bytes) / 1024.0,
        per_k(|s| s.kills_bytes) / 1024.0
    );
}

/// The least-squares slope of y over x (0 without spread in x).
fn slope(points: impl Iterator<Item = (f64, f64)>) -> f64 {
    let points: Vec<(f64, f64)> = points.collect();
    let n = points.len() as f64;
    let (mx, my) = points.iter().fold((0.0, 0.0), |(a, b), p| (a + p.0 / n, b + p.1 / n));
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx > 0.0 { sxy / sxx } else { 0.0 }
}

/// Width and height of one chart, in pixels.
const SIZE: (u32, u32) = (560, 340);

/// One line of a chart: its label, color and points.
type Series = (&'static str, RGBColor, Vec<(f64, f64)>);

fn plots(out: &Path, samples: &[Sample]) -> Result<(), Box<dyn Error>> {
    let line = |label, color, point: &dyn Fn(&Sample) -> (f64, f64)| -> Series {
        (label, color, running(samples).map(point).collect())
    };
    let mib = |kib: u64| kib as f64 / 1024.0;
    let memory = |x: fn(&Sample) -> f64| {
        [
            line("CLI", BLUE, &|s| (x(s), mib(s.cli_kib))),
            line("harness", RED, &|s| (x(s), mib(s.harness_kib))),
        ]
    };
    let (time, corpus, workers, disk) = (
        out.join("soak-memory-time.svg"),
        out.join("soak-memory-corpus.svg"),
        out.join("soak-workers.svg"),
        out.join("soak-disk.svg"),
    );
    let area = SVGBackend::new(&time, SIZE).into_drawing_area();
    chart(&area, "Resident memory", "seconds", "MiB", &memory(|s| s.seconds))?;
    area.present()?;
    let area = SVGBackend::new(&corpus, SIZE).into_drawing_area();
    chart(&area, "Resident memory against the corpus", "kept inputs", "MiB", &memory(|s| s.corpus as f64))?;
    area.present()?;
    let area = SVGBackend::new(&workers, SIZE).into_drawing_area();
    let all = line("all workers", MAGENTA, &|s| (s.seconds, mib(s.workers_kib)));
    chart(&area, "Resident memory of the harness's workers", "seconds", "MiB", &[all])?;
    area.present()?;

    // Three panels: the corpus and the state directory, the files that grow by the
    // line, and the count of files.
    let area = SVGBackend::new(&disk, (3 * SIZE.0 * 4 / 5, SIZE.1)).into_drawing_area();
    let panels = area.split_evenly((1, 3));
    let trials = |s: &Sample| s.trials as f64;
    let (mb, kb) = (|b: u64| b as f64 / 1048576.0, |b: u64| b as f64 / 1024.0);
    chart(
        &panels[0],
        "Corpus and state against trials",
        "trials",
        "MiB",
        &[
            line("corpus on disk", MAGENTA, &|s| (trials(s), mb(s.corpus_disk))),
            line("corpus bytes", RED, &|s| (trials(s), mb(s.corpus_bytes))),
            line("state dir", BLUE, &|s| (trials(s), mb(s.state_bytes))),
        ],
    )?;
    chart(
        &panels[1],
        "Records against trials",
        "trials",
        "KiB",
        &[
            line("kills.jsonl", GREEN, &|s| (trials(s), kb(s.kills_bytes))),
            line("stats.csv", BLACK, &|s| (trials(s), kb(s.stats_bytes))),
        ],
    )?;
    chart(
        &panels[2],
        "Files against trials",
        "trials",
        "files",
        &[
            line("corpus", RED, &|s| (trials(s), s.corpus_files as f64)),
            line("state dir", BLUE, &|s| (trials(s), s.state_files as f64)),
        ],
    )?;
    area.present()?;
    Ok(())
}

/// A point above this many times the chart's 99th percentile is a spike (a mutant's
/// allocation the memory cap ended): the chart is clipped below it, to show the rest, and
/// its title names the highest.
const SPIKE: f64 = 2.0;

/// Draws `series` in `area` (presented by the caller, once per file).
fn chart(
    area: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
) -> Result<(), Box<dyn Error>> {
    area.fill(&WHITE)?;
    let points = || series.iter().flat_map(|s| &s.2);
    let x_max = points().map(|p| p.0).fold(1.0, f64::max);
    let mut ys: Vec<f64> = points().map(|p| p.1).collect();
    ys.sort_unstable_by(f64::total_cmp);
    let spike = SPIKE * ys.get(ys.len() * 99 / 100).copied().unwrap_or(1.0);
    let y_max = ys.into_iter().filter(|&y| y <= spike).fold(1.0, f64::max) * 1.1;
    let title = match points().filter(|p| p.1 > spike).max_by(|a, b| a.1.total_cmp(&b.1)) {
        Some((x, y)) => format!("{title} (clipped: peak {y:.0} {y_desc} at {x:.0} {x_desc})"),
        None => title.to_owned(),
    };
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 15))
        .margin(10)
        .x_label_area_size(32)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| if y_max >= 10.0 { format!("{y:.0}") } else { format!("{y:.1}") })
        .light_line_style(RGBColor(238, 238, 238))
        .label_style(("sans-serif", 11))
        .draw()?;
    for (label, color, points) in series {
        let color = *color;
        // A line breaks where x goes back: a restarted harness counts its corpus afresh.
        let mut runs = points.chunk_by(|a, b| b.0 >= a.0);
        let first = runs.next().unwrap_or_default();
        chart
            .draw_series(LineSeries::new(first.iter().copied(), color.stroke_width(2)))?
            .label(*label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2)));
        for run in runs {
            chart.draw_series(LineSeries::new(run.iter().copied(), color.stroke_width(2)))?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 11))
        .draw()?;
    Ok(())
}
