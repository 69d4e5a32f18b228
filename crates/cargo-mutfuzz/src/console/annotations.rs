//! `--annotations auto|github|none`: GitHub Actions workflow commands for the mutants a
//! run left alive (`::warning file=src/lib.rs,line=12,col=5,…::Missed mutant: …`), which
//! GitHub shows on the pull request's lines, as cargo-mutants' `--annotations` does.
//!
//! They go to stdout (the runner reads workflow commands there). Paths are relative to
//! the repository root, which is where GitHub places an annotation; a workspace in a
//! subdirectory of its repository has that directory put in front.

use std::path::Path;

use mutfuzz_mutate::Mutant;

/// Whether `--annotations WHEN` prints them: `github` always, `none` never, `auto` when
/// running under GitHub Actions (it sets `GITHUB_ACTIONS=true` in every step).
pub fn enabled(when: &str) -> bool {
    match when {
        "github" => true,
        "none" => false,
        _ => std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true"),
    }
}

/// The workspace root's path from its repository's root (the nearest directory above
/// with a `.git`), with a trailing `/`; empty at the root or outside a repository.
pub fn repository_prefix(workspace_root: &Path) -> String {
    let Some(top) = workspace_root.ancestors().find(|d| d.join(".git").exists()) else {
        return String::new();
    };
    let rel = workspace_root.strip_prefix(top).unwrap_or(Path::new(""));
    let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if parts.is_empty() { String::new() } else { format!("{}/", parts.join("/")) }
}

/// One `::warning` command for mutant `m`: `what` is the message's head (`Missed mutant`).
pub fn warning(prefix: &str, m: &Mutant, what: &str) -> String {
    format!(
        "::warning file={},line={},col={},endLine={},endColumn={},title={}::{}: {}",
        property(&format!("{prefix}{}", m.file)),
        m.span.start.line,
        m.span.start.column,
        m.span.end.line,
        m.span.end.column,
        property(what),
        data(what),
        data(&m.description)
    )
}

/// A message, escaped as the runner unescapes it (`%`, CR and LF).
fn data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A property value: a message's escapes plus `:` and `,`, which end a property.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_points_at_the_mutant_with_escaped_text() {
        let m: Mutant = serde_json::from_value(serde_json::json!({
            "id": 1, "site": 1, "package": "p", "file": "src/a,b.rs",
            "span": {"start": {"line": 12, "column": 5}, "end": {"line": 12, "column": 9}},
            "function": "f", "operator": "fn_return", "original": "x", "replacement": "true",
            "description": "replace f -> bool with true (100%)\nin f"
        }))
        .unwrap();
        assert_eq!(
            warning("crates/p/", &m, "Missed mutant"),
            "::warning file=crates/p/src/a%2Cb.rs,line=12,col=5,endLine=12,endColumn=9,title=Missed mutant::\
             Missed mutant: replace f -> bool with true (100%25)%0Ain f"
        );
    }

    #[test]
    fn paths_are_from_the_repository_root_and_the_switch_follows_the_flag() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join(".git")).unwrap();
        std::fs::create_dir_all(tmp.path().join("rust/ws")).unwrap();
        assert_eq!(repository_prefix(&tmp.path().join("rust/ws")), "rust/ws/");
        assert_eq!(repository_prefix(tmp.path()), "");
        assert!(enabled("github") && !enabled("none"));
    }
}
