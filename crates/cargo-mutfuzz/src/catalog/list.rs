//! `cargo mutfuzz mutants`: the catalog as one line per mutant, or as JSON.

use mutfuzz_mutate::Discovery;

/// One line per mutant: `src/lib.rs:64:22: replace != with == in generic_hamming`.
pub fn text(d: &Discovery) -> String {
    let mut out = String::new();
    for m in &d.mutants {
        out.push_str(&m.name());
        out.push('\n');
    }
    out
}

/// The catalog as a JSON array of mutants.
pub fn json(d: &Discovery) -> String {
    serde_json::to_string_pretty(&d.mutants).expect("mutants serialize") + "\n"
}

/// Print where the config came from (when that needs saying), discovery's warnings and
/// its one-line summary.
pub fn report(console: &crate::console::Console, d: &Discovery) {
    for n in &d.notes {
        console.message(&format!("note: {n}"));
    }
    for w in &d.warnings {
        console.message(&format!("warning: {w}"));
    }
    console.message(&format!(
        "Found {} mutants in {} files ({})",
        d.mutants.len(),
        d.files.len(),
        skipped_line(d)
    ));
}

/// What was skipped, for stderr: `skipped regions: 3 #[cfg(test)], 1 const context, …`.
pub fn skipped_line(d: &Discovery) -> String {
    let s = &d.skipped;
    let cfgs = s.cfgs.iter().map(|(attr, n)| (*n, attr.as_str()));
    let parts: Vec<String> = cfgs
        .chain([
            (s.test_fn, "test fn"),
            (s.const_context, "const context"),
            (s.unsafe_code, "unsafe"),
            (s.macro_body, "macro body"),
            (s.skip_attribute, "skip attribute"),
            (s.config, "excluded by config"),
            (s.skipped_calls, "skipped call"),
            (s.equivalent, "equivalent mutant"),
        ])
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    if parts.is_empty() {
        "skipped: nothing".to_owned()
    } else {
        format!("skipped regions: {}", parts.join(", "))
    }
}
