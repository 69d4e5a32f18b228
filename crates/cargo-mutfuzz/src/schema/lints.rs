//! The lints a crate denies for itself that a mutant can newly trigger in a real build
//! but not in the schema: there every mutant sits beside the original code, so a
//! variable a mutant stops using is still used by the original arm.
//!
//! So mutants that delete code (a replaced body, a deleted call or match arm) in a crate
//! that denies or forbids such a lint at crate level (or with `-D warnings` in
//! `RUSTFLAGS`) are checked alone by the lint check (`lint_check`), or with `--no-lint-check`
//! carry a note in `outcomes.json`.

use std::path::Path;

use mutfuzz_mutate::Operator;

/// Lints (and lint groups) that code a mutant deletes can trigger in what remains.
const TRIGGERED: [&str; 8] = [
    "warnings",
    "unused",
    "unused_variables",
    "unused_assignments",
    "unused_mut",
    "unused_imports",
    "dead_code",
    "unreachable_code",
];

/// Whether a mutant of `operator` removes uses of code (so what it used may become
/// unused or dead).
pub fn deletes_code(operator: Operator) -> bool {
    matches!(operator, Operator::FnReturn | Operator::CallDelete | Operator::MatchArmDelete)
}

/// The lints of `TRIGGERED` that the crate root at `path` denies or forbids with an
/// inner attribute (`#![deny(unused)]`, `#![forbid(warnings, missing_docs)]`).
pub fn denied_in(path: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    let Ok(file) = syn::parse_file(&text) else { return Vec::new() };
    let mut found = Vec::new();
    for attr in &file.attrs {
        if !matches!(attr.style, syn::AttrStyle::Inner(_))
            || !(attr.path().is_ident("deny") || attr.path().is_ident("forbid"))
        {
            continue;
        }
        let Ok(lints) =
            attr.parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
        else {
            continue;
        };
        for lint in lints {
            if let Some(name) = lint.get_ident().map(ToString::to_string)
                && TRIGGERED.contains(&name.as_str())
                && !found.contains(&name)
            {
                found.push(name);
            }
        }
    }
    found
}

/// Whether `RUSTFLAGS` makes warnings errors (`-D warnings`, `-Dwarnings`).
pub fn rustflags_deny_warnings(flags: &str) -> bool {
    let words: Vec<&str> = flags.split_whitespace().collect();
    words.contains(&"-Dwarnings")
        || words.windows(2).any(|w| matches!(w[0], "-D" | "--deny") && w[1] == "warnings")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crate_level_denials_of_unused_lints_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib.rs");
        std::fs::write(
            &lib,
            "//! Docs: `#![deny(warnings)]` here is not an attribute.\n\
             #![forbid(unused, missing_docs)]\n#![deny(clippy::all, dead_code)]\n#![allow(unused_mut)]\n\
             #[deny(unused_variables)]\nfn f() {}\n",
        )
        .unwrap();
        assert_eq!(denied_in(&lib), ["unused", "dead_code"]);
        std::fs::write(&lib, "fn f() {}\n").unwrap();
        assert!(denied_in(&lib).is_empty());
    }

    #[test]
    fn rustflags_that_deny_warnings_are_recognised() {
        assert!(rustflags_deny_warnings("-C opt-level=1 -D warnings"));
        assert!(rustflags_deny_warnings("-Dwarnings"));
        assert!(!rustflags_deny_warnings("-D missing_docs -W warnings"));
    }
}
