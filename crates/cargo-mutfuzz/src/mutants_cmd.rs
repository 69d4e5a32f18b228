//! `cargo mutfuzz mutants`: discover and print; builds nothing.

use anyhow::Result;

use crate::exit_code;
use crate::fpf;
use crate::list;
use crate::options::MutantsArgs;
use crate::workspace::Workspace;

/// Run the command; returns the exit code.
pub fn run(args: &MutantsArgs) -> Result<i32> {
    let ws = Workspace::open(&args.package)?;
    let (mut discovery, _) = ws.discover()?;
    for n in &discovery.notes {
        eprintln!("note: {n}");
    }
    for w in &discovery.warnings {
        eprintln!("warning: {w}");
    }
    if args.rank == "fpf" {
        let order = fpf::rank(&fpf::points(&discovery), args.top.unwrap_or(usize::MAX));
        discovery.mutants = order.into_iter().map(|i| discovery.mutants[i].clone()).collect();
    }
    let text = if args.json { list::json(&discovery) } else { list::text(&discovery) };
    print!("{text}");
    let shown = if args.rank == "fpf" { " (ranked by FPF)" } else { "" };
    eprintln!("{} mutants{shown}; {}", discovery.mutants.len(), list::skipped_line(&discovery));
    Ok(exit_code::SUCCESS)
}
