//! `cargo mutfuzz mutants`: discover and print; builds nothing.

use anyhow::Result;

use crate::exit_code;
use crate::list;
use crate::options::MutantsArgs;
use crate::workspace::Workspace;

/// Run the command; returns the exit code.
pub fn run(args: &MutantsArgs) -> Result<i32> {
    let ws = Workspace::open(&args.package)?;
    let (discovery, _) = ws.discover()?;
    for n in &discovery.notes {
        eprintln!("note: {n}");
    }
    for w in &discovery.warnings {
        eprintln!("warning: {w}");
    }
    let text = if args.json { list::json(&discovery) } else { list::text(&discovery) };
    print!("{text}");
    eprintln!("{} mutants; {}", discovery.mutants.len(), list::skipped_line(&discovery));
    Ok(exit_code::SUCCESS)
}
