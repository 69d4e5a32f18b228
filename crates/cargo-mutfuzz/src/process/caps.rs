//! What one process running mutants may use: a memory cap (`RLIMIT_DATA`, set in the
//! child before it starts) and an output cap (bytes of stdout and stderr per mutant run,
//! counted by whoever reads them), so one mutant cannot exhaust the machine or the disk.
//!
//! `RLIMIT_DATA` (Linux ≥ 4.7) counts the heap and every private writable mapping, so a
//! huge `Vec` fails to allocate (the process aborts: a `crash`, or a caught mutant) while
//! address space reserved but not writable (guard pages, `PROT_NONE` arenas) is free.

use std::process::Command;

use anyhow::{Result, bail};

/// Memory cap of a harness process when neither the command line nor `mutfuzz.toml`
/// sets one (libFuzzer's default RSS limit): a mutant that drops a size guard grows a
/// string or vector until the cap stops it, and copying gigabytes on the way is seconds
/// of a campaign's time per such mutant, spent before the harness restarts.
pub const HARNESS_MEMORY: u64 = 2 << 30;

/// Output cap when neither the command line nor `mutfuzz.toml` sets one: far more than a
/// test or a harness run prints, far less than a full disk.
pub const DEFAULT_MAX_OUTPUT: u64 = 64 << 20;

/// The caps of one command: `None` is no cap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caps {
    /// Bytes of data memory each process may allocate.
    pub memory: Option<u64>,
    /// Bytes of stdout and stderr one mutant run may write.
    pub output: Option<u64>,
}

impl Caps {
    /// The caps from the command line (`--max-memory`, `--max-output`), else
    /// `mutfuzz.toml` (`max_memory`, `max_output`), else the defaults: for test processes
    /// half the machine's memory, for a harness process (`harness`) [`HARNESS_MEMORY`]
    /// at most; [`DEFAULT_MAX_OUTPUT`]. A size of 0 turns a cap off.
    pub fn resolve(
        memory: Option<&str>,
        output: Option<&str>,
        config: &mutfuzz_mutate::config::ConfigFile,
        harness: bool,
    ) -> Result<Caps> {
        let pick = |cli: Option<&str>, file: Option<&String>, key: &str| -> Result<Option<u64>> {
            match (cli, file) {
                (Some(text), _) => parse_size(text).map(Some).map_err(anyhow::Error::msg),
                (None, Some(text)) => match parse_size(text) {
                    Ok(n) => Ok(Some(n)),
                    Err(e) => bail!("{key} in mutfuzz.toml: {e}"),
                },
                (None, None) => Ok(None),
            }
        };
        let default = || default_memory().map(|half| if harness { half.min(HARNESS_MEMORY) } else { half });
        let memory = pick(memory, config.max_memory.as_ref(), "max_memory")?.or_else(default);
        let output = pick(output, config.max_output.as_ref(), "max_output")?.unwrap_or(DEFAULT_MAX_OUTPUT);
        Ok(Caps { memory: memory.filter(|&n| n > 0), output: Some(output).filter(|&n| n > 0) })
    }

    /// Set the memory cap in `cmd`'s child before it runs (its children inherit it).
    pub fn limit_memory(&self, cmd: &mut Command) {
        #[cfg(target_os = "linux")]
        if let Some(bytes) = self.memory {
            use std::os::unix::process::CommandExt;
            // SAFETY: the closure calls only setrlimit, which is async-signal-safe, and
            // touches no memory shared with the parent.
            unsafe {
                cmd.pre_exec(move || {
                    let limit =
                        libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
                    if libc::setrlimit(libc::RLIMIT_DATA, &limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = cmd;
    }

    /// Words for the summary: `memory 12.0 GiB, output 64.0 MiB`.
    pub fn describe(&self) -> String {
        let show = |n: Option<u64>| n.map_or_else(|| "no cap".to_owned(), human);
        format!("memory {}, output {}", show(self.memory), show(self.output))
    }
}

/// Half the machine's physical memory: one runaway mutant may not take more.
fn default_memory() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf only reads system constants.
        let (pages, size) =
            unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
        if pages > 0 && size > 0 {
            return Some(pages as u64 * size as u64 / 2);
        }
    }
    None
}

/// `4096`, `512k`, `64MiB`, `2G`, `1.5GiB` (binary units; `b`, `iB` and case optional).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let scale: u64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return Err(format!("{text:?} is not a size: write bytes or KiB, MiB, GiB (`512MiB`, `2GiB`)")),
    };
    match number.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n >= 0.0 => Ok((n * scale as f64) as u64),
        _ => Err(format!("{text:?} is not a size: write bytes or KiB, MiB, GiB (`512MiB`, `2GiB`)")),
    }
}

/// `64.0 MiB`.
pub fn human(bytes: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{bytes} B") } else { format!("{value:.1} {}", units[unit]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_binary_units_and_bad_ones_say_how_to_write_them() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("512k"), Ok(512 << 10));
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("1.5 GiB"), Ok(3 << 29));
        assert_eq!(parse_size("0"), Ok(0));
        assert!(parse_size("lots").unwrap_err().contains("`512MiB`"));
        assert!(parse_size("-1G").is_err());
        assert_eq!(human(64 << 20), "64.0 MiB");
    }

    #[test]
    fn the_command_line_beats_the_config_and_zero_turns_a_cap_off() {
        let config = mutfuzz_mutate::config::ConfigFile {
            max_memory: Some("1GiB".into()),
            max_output: Some("1MiB".into()),
            ..Default::default()
        };
        let caps = Caps::resolve(None, None, &config, false).unwrap();
        assert_eq!(caps, Caps { memory: Some(1 << 30), output: Some(1 << 20) });
        let caps = Caps::resolve(Some("0"), Some("2k"), &config, false).unwrap();
        assert_eq!(caps, Caps { memory: None, output: Some(2048) });
        let defaults = Caps::resolve(None, None, &Default::default(), false).unwrap();
        assert_eq!(defaults.output, Some(DEFAULT_MAX_OUTPUT));
        // A harness process gets at most libFuzzer's 2 GiB by default, a test process more
        // where the machine has more than 4 GiB; a size given is a size given for both.
        let harness = Caps::resolve(None, None, &Default::default(), true).unwrap();
        if cfg!(target_os = "linux") {
            assert_eq!(harness.memory, defaults.memory.map(|half| half.min(HARNESS_MEMORY)));
        }
        assert_eq!(Caps::resolve(None, None, &config, true).unwrap().memory, Some(1 << 30));
        let bad =
            mutfuzz_mutate::config::ConfigFile { max_output: Some("much".into()), ..Default::default() };
        assert!(
            Caps::resolve(None, None, &bad, false)
                .unwrap_err()
                .to_string()
                .starts_with("max_output in mutfuzz.toml")
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_process_past_the_memory_cap_cannot_allocate() {
        let caps = Caps { memory: Some(64 << 20), output: None };
        // `head -c` of 256 MiB through a shell variable would need the memory; `sh` alone
        // starts within the cap. A 256 MiB allocation in a capped child fails.
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "x=$(head -c 268435456 /dev/zero | tr '\\0' a); echo ${#x}"]);
        caps.limit_memory(&mut cmd);
        let out = cmd.output().unwrap();
        assert!(!String::from_utf8_lossy(&out.stdout).starts_with("268435456"), "{out:?}");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo fine"]);
        caps.limit_memory(&mut cmd);
        assert_eq!(String::from_utf8_lossy(&cmd.output().unwrap().stdout), "fine\n");
    }
}
