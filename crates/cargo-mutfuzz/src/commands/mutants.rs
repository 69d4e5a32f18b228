//! `cargo mutfuzz mutants`: discover and print (what the filters keep); builds nothing.
//! Each line is a mutant's name, exactly the text `--re` and `--exclude-re` match.

use anyhow::Result;

use crate::catalog::filter::RunFilter;
use crate::catalog::fpf;
use crate::catalog::list;
use crate::commands::options::MutantsArgs;
use crate::console::exit_code;
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
    let filter = RunFilter::new(&ws, &args.filter)?;
    let total = discovery.mutants.len();
    if filter.is_active() {
        discovery.mutants.retain(|m| filter.keeps(m));
        if discovery.mutants.is_empty() {
            eprintln!("{}", filter.matches_nothing(total));
            return Ok(exit_code::SUCCESS);
        }
    }
    if args.rank == "fpf" {
        let order = fpf::rank(&fpf::points(&discovery), args.top.unwrap_or(usize::MAX));
        discovery.mutants = order.into_iter().map(|i| discovery.mutants[i].clone()).collect();
    }
    let text = if args.json { list::json(&discovery) } else { list::text(&discovery) };
    print!("{text}");
    let shown = if args.rank == "fpf" { " (ranked by FPF)" } else { "" };
    let matching = if filter.is_active() {
        format!(" of {total} matching {}", filter.describe())
    } else {
        String::new()
    };
    eprintln!("{} mutants{matching}{shown}; {}", discovery.mutants.len(), list::skipped_line(&discovery));
    Ok(exit_code::SUCCESS)
}
