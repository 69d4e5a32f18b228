//! The harness's `shrink` and `tmin` run in the sandbox, their result line read back
//! (for `tmin` and `amplify`).

use std::fmt;
use std::io::BufReader;
use std::process::{ExitStatus, Stdio};

use anyhow::{Context, Result};
use mutfuzz_contract::{EXIT_NOT_KEPT, EXIT_SUCCESS, HarnessCommand, ShrinkLine, read_line_capped};

use crate::fuzzing::harness::Built;

/// When the harness's stderr is not shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quiet {
    /// Always shown.
    Never,
    /// Not when it refused the input ([`EXIT_NOT_KEPT`]).
    OnRefusal,
    /// Only when it failed with an exit code: the target's own panics while shrinking are
    /// no news, and a death is the caller's to report.
    Unless,
}

/// Longest stdout line read from the harness at once (the target's own prints share it).
const MAX_LINE: usize = 1 << 20;

/// Runs the harness's `command` (`shrink` or `tmin`) in the sandbox: its exit code and its
/// result line. Its stderr is passed on, unless `quiet` says it is expected.
pub fn shrink_with(
    built: &Built,
    command: &HarnessCommand,
    quiet: Quiet,
) -> Result<(i32, Option<ShrinkLine>)> {
    let mut cmd = built.sandboxed_command(command, &[])?;
    built.caps.limit_memory(&mut cmd);
    // No backtraces: each of the target's own panics would print one, and a death's last
    // words must be what it printed last.
    cmd.envs(crate::process::QUIET_ENV);
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("failed to run the harness {}", built.binary.display()))?;
    // Read on its own thread: a full stderr pipe must not stall the harness.
    let mut stderr = child.stderr.take().expect("piped stderr");
    let errors = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut text);
        text
    });
    let mut reader = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut buf = Vec::new();
    let mut line = None;
    while read_line_capped(&mut reader, &mut buf, MAX_LINE).is_some() {
        if let Some(parsed) = ShrinkLine::parse(&String::from_utf8_lossy(&buf)) {
            line = Some(parsed);
        }
    }
    let status = child.wait().context("failed to wait for the harness")?;
    let errors = errors.join().unwrap_or_default();
    let errors = String::from_utf8_lossy(&errors);
    let expected = match quiet {
        Quiet::Never => false,
        Quiet::OnRefusal => status.code() == Some(EXIT_NOT_KEPT),
        // A death is the caller's to report, with the last line the harness printed.
        Quiet::Unless => matches!(status.code(), None | Some(EXIT_SUCCESS | EXIT_NOT_KEPT)),
    };
    if !expected {
        eprint!("{errors}");
    }
    match status.code() {
        Some(code) => Ok((code, line)),
        None => {
            let last_words = crate::process::last_words(errors.lines()).map(str::to_owned);
            Err(HarnessDied { status, last_words }.into())
        }
    }
}

/// The harness ended by a signal while shrinking (an abort, a stack overflow): an input
/// it tried ended the process.
#[derive(Debug)]
pub struct HarnessDied {
    pub status: ExitStatus,
    /// The last line it printed: what std prints as it aborts, if anything.
    pub last_words: Option<String>,
}

impl fmt::Display for HarnessDied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the harness died while shrinking ({})", self.status)?;
        match &self.last_words {
            Some(line) => write!(f, ": {line}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for HarnessDied {}
