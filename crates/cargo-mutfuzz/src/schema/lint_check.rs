//! Lint checks: a real build of each mutant that deletes code, in a crate that denies
//! lints such code can trigger (see [`crate::schema::lints`]). The schema cannot tell: there a
//! variable the mutant stops using is still used by the original arm beside it.
//!
//! Each such mutant is written into the scratch copy alone, as a plain edit of the
//! user's source, and `cargo check` runs; a lint error (a diagnostic whose code is a lint
//! name, not `E…`) makes it unviable, as a rebuild per mutant would. Other errors are
//! ignored: the schema build already judged the mutant's types. Runs after the mutant
//! runs, when the copy's schema text is no longer needed (the next run rewrites it).

use std::collections::BTreeMap;

use anyhow::Result;
use mutfuzz_mutate::{Discovery, LineCol, Mutant};

use crate::console::Console;
use crate::schema::cargo_build::{self, BuildFlags};
use crate::workspace::Package;
use crate::workspace::fs_util::write_if_changed;
use crate::workspace::scratch::Scratch;

/// Check `mutants` (all of package `package`); returns the unviable ones with the lint's
/// message. Nothing is judged if the unmutated sources do not check clean.
pub fn check(
    scratch: &Scratch,
    discovery: &Discovery,
    flags: &BuildFlags,
    package: &Package,
    mutants: &[&Mutant],
    console: &mut Console,
) -> Result<BTreeMap<u32, String>> {
    let (spec, package) = (package.cargo_spec(&scratch.in_work(&package.root)), package.name.as_str());
    let files: Vec<(usize, String)> = discovery
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.package == package)
        .map(|(i, f)| (i, f.source().to_owned()))
        .collect();
    for &(i, ref text) in &files {
        write_if_changed(&scratch.in_work(&discovery.files[i].path), text)?;
    }
    let mut unviable = BTreeMap::new();
    if lint_error(&cargo_build::check(scratch, flags, &spec)?).is_some() {
        console
            .message(&format!("note: {package} does not check clean unmutated; its lint check is skipped"));
        return Ok(unviable);
    }
    console.start(mutants.len() as u64, "lint check");
    for m in mutants {
        let Some(&(i, ref original)) = files.iter().find(|(i, _)| discovery.files[*i].rel_path == m.file)
        else {
            continue;
        };
        let path = scratch.in_work(&discovery.files[i].path);
        let Some(edited) = apply(original, m) else { continue };
        write_if_changed(&path, &edited)?;
        let run = cargo_build::check(scratch, flags, &spec);
        write_if_changed(&path, original)?;
        if let Some(message) = lint_error(&run?) {
            unviable.insert(m.id, message);
        }
        console.step(&m.name());
    }
    console.finish();
    Ok(unviable)
}

/// The first error that a lint gave, as its message.
fn lint_error(run: &cargo_build::CargoRun) -> Option<String> {
    run.errors.iter().find_map(|e| {
        let code = &e.code.as_ref()?.code;
        let compiler_error = code.starts_with('E') && code[1..].chars().all(|c| c.is_ascii_digit());
        (!compiler_error).then(|| e.message.clone())
    })
}

/// `text` with mutant `m` applied as a plain edit: its span replaced by its replacement
/// (a replaced body's span is the body inside its braces).
pub fn apply(text: &str, m: &Mutant) -> Option<String> {
    let (start, end) = (offset(text, m.span.start)?, offset(text, m.span.end)?);
    (start <= end).then(|| format!("{}{}{}", &text[..start], m.replacement, &text[end..]))
}

/// Byte offset of a 1-based line and 1-based column in chars.
fn offset(text: &str, at: LineCol) -> Option<usize> {
    let line_start =
        if at.line == 1 { 0 } else { text.match_indices('\n').nth(at.line - 2).map(|(i, _)| i + 1)? };
    let line = &text[line_start..];
    let column = at.column.checked_sub(1)?;
    let within = line.char_indices().map(|(i, _)| i).chain([line.len()]).nth(column)?;
    Some(line_start + within)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mutant_applies_as_a_plain_edit_of_its_span() {
        let src = "fn f(x: u8) -> u8 {\n    let é = x;\n    é + 1\n}\n";
        let d = Discovery::from_source("src/lib.rs", src, &Default::default()).unwrap();
        let body = d.mutants.iter().find(|m| m.replacement == "0").unwrap();
        assert_eq!(apply(src, body).unwrap(), "fn f(x: u8) -> u8 {\n    0\n}\n");
        let plus = d.mutants.iter().find(|m| m.original == "+" && m.replacement == "-").unwrap();
        assert_eq!(apply(src, plus).unwrap(), "fn f(x: u8) -> u8 {\n    let é = x;\n    é - 1\n}\n");
    }
}
