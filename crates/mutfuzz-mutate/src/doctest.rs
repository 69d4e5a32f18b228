//! Doctests found in doc comments, so they can be compiled once into an ordinary test
//! target of the schema build instead of by rustdoc on every mutant run.

use syn::visit::Visit;

/// One runnable Rust code block of a doc comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doctest {
    /// Line of the opening fence (what rustdoc names it by: `src/lib.rs - f (line N)`).
    pub fence_line: usize,
    /// The code, hidden lines (`# `) included, as rustdoc compiles it.
    pub code: String,
    /// Marked `should_panic`.
    pub should_panic: bool,
}

/// Doctests of a parsed file, in source order. Blocks marked `ignore`, `no_run`,
/// `compile_fail` or `test_harness`, and blocks in another language, are left out.
pub fn doctests(file: &syn::File) -> Vec<Doctest> {
    let mut lines = DocLines::default();
    lines.visit_file(file);
    let mut found = Vec::new();
    let mut open: Option<(usize, bool, bool, Vec<String>)> = None;
    // A block ends at its closing fence or, unclosed, at the end of its comment: rustdoc
    // (Markdown) runs it to there, so it is a doctest all the same.
    let close = |block: Option<(usize, bool, bool, Vec<String>)>, found: &mut Vec<Doctest>| {
        if let Some((fence_line, true, should_panic, code)) = block {
            found.push(Doctest { fence_line, code: code.join("\n"), should_panic });
        }
    };
    let mut previous_line = 0;
    for (line, text) in lines.lines {
        // Doc lines of different comments never share a code block.
        if line != previous_line + 1 {
            close(open.take(), &mut found);
        }
        previous_line = line;
        let Some(text) = text else { continue };
        let text = text.strip_prefix(' ').unwrap_or(&text).to_owned();
        let trimmed = text.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            match open.take() {
                Some(block) => close(Some(block), &mut found),
                None => {
                    let info = trimmed.trim_start_matches(['`', '~']).trim();
                    let (runs, should_panic) = classify(info);
                    open = Some((line, runs, should_panic, Vec::new()));
                }
            }
            continue;
        }
        if let Some((_, _, _, code)) = &mut open {
            code.push(unhide(&text));
        }
    }
    close(open, &mut found);
    found
}

/// Whether a fence's info string marks a runnable Rust doctest, and `should_panic`.
fn classify(info: &str) -> (bool, bool) {
    let mut runs = true;
    let mut should_panic = false;
    for word in info.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()) {
        match word {
            "rust" | "allow_fail" => {}
            "should_panic" => should_panic = true,
            "ignore" | "no_run" | "compile_fail" | "test_harness" | "standalone_crate" => runs = false,
            w if w.starts_with("edition") => {}
            // Another language (`text`, `toml`, `sh`, …): not a doctest.
            _ => runs = false,
        }
    }
    (runs, should_panic)
}

/// rustdoc's hidden lines: `# code` is compiled but not shown; `##` is a literal `#`.
fn unhide(line: &str) -> String {
    let t = line.trim_start();
    if t == "#" {
        String::new()
    } else if let Some(rest) = t.strip_prefix("##") {
        format!("#{rest}")
    } else if let Some(rest) = t.strip_prefix("# ") {
        rest.to_owned()
    } else {
        line.to_owned()
    }
}

/// Every `#[doc = "…"]` line (from `///` and `//!` comments) with its line number, and
/// those of `#[cfg_attr(…, doc = "…")]`, taken as on, except one whose condition is
/// `not` that of the line before: deunicode opens its fences with
/// `#[cfg_attr(feature = "alloc", doc = "```rust")]`, then the same under
/// `not(feature = "alloc")` with `ignore`, and closes them with `#[doc = "```"]`, which
/// without the first would read as an opening.
#[derive(Default)]
struct DocLines {
    /// Each line, `None` where its `cfg_attr` is taken as off.
    lines: Vec<(usize, Option<String>)>,
    /// The line and condition of the last `cfg_attr` doc line.
    last_cfg: Option<(usize, String)>,
}

impl DocLines {
    fn push(&mut self, meta: &syn::Meta, line: usize) {
        if meta.path().is_ident("doc")
            && let syn::Meta::NameValue(nv) = meta
            && let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = &nv.value
        {
            // A `/** … */` block holds several lines in one attribute.
            for (i, l) in s.value().split('\n').enumerate() {
                self.lines.push((line + i, Some(l.to_owned())));
            }
        }
    }
}

impl<'ast> Visit<'ast> for DocLines {
    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        let line = syn::spanned::Spanned::span(attr).start().line;
        if attr.path().is_ident("cfg_attr") {
            let parser = syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated;
            if let Ok(metas) = attr.parse_args_with(parser)
                && let Some(condition) = metas.first()
            {
                let condition = quote::ToTokens::to_token_stream(condition).to_string();
                let negated = condition.strip_prefix("not (").and_then(|c| c.strip_suffix(')'));
                let previous = self.last_cfg.replace((line, condition.clone()));
                if previous.is_some_and(|(l, c)| l + 1 == line && Some(c.trim()) == negated.map(str::trim)) {
                    // Off, but a line of the comment: the block goes on past it.
                    self.lines.push((line, None));
                    return;
                }
                for meta in metas.iter().skip(1) {
                    self.push(meta, line);
                }
            }
        } else {
            self.push(&attr.meta, line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_opened_by_a_cfg_attr_doc_is_closed_by_the_plain_doc_after_it() {
        let src = "#[cfg_attr(feature = \"alloc\", doc = \"```rust\")]\n\
                   #[cfg_attr(not(feature = \"alloc\"), doc = \"```ignore\")]\n\
                   #[doc = \"assert_eq!(1, 1);\"]\n\
                   #[doc = \"```\"]\n\
                   pub fn f() {}\n";
        let found = doctests(&syn::parse_file(src).unwrap());
        // One doctest: its condition taken as on, the `not` of it as off.
        let codes: Vec<&str> = found.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["assert_eq!(1, 1);"]);
    }

    #[test]
    fn runnable_blocks_are_found_with_hidden_lines_and_their_fence_line() {
        let src = r#"//! Crate.
//!
//! ```
//! # use std::collections::HashMap;
//! assert_eq!(1 + 1, 2);
//! ```

/// Adds.
///
/// ```rust,should_panic
/// panic!("x");
/// ```
///
/// ```text
/// not code
/// ```
///
/// ```ignore
/// nope();
/// ```
pub fn add() {}
"#;
        let file = syn::parse_file(src).unwrap();
        let found = doctests(&file);
        assert_eq!(
            found,
            [
                Doctest {
                    fence_line: 3,
                    code: "use std::collections::HashMap;\nassert_eq!(1 + 1, 2);".into(),
                    should_panic: false
                },
                Doctest { fence_line: 10, code: "panic!(\"x\");".into(), should_panic: true },
            ]
        );
    }

    #[test]
    fn an_unclosed_block_runs_to_the_end_of_its_comment_as_in_rustdoc() {
        let src = r#"/// Makes one.
///
/// ```
/// let one = 1;
/// assert_eq!(one, 1);
pub fn one() {}

/// Two, no code.
pub fn two() {}

/// ```should_panic
/// panic!("last");
pub fn three() {}
"#;
        let found = doctests(&syn::parse_file(src).unwrap());
        assert_eq!(
            found,
            [
                Doctest {
                    fence_line: 3,
                    code: "let one = 1;\nassert_eq!(one, 1);".into(),
                    should_panic: false
                },
                Doctest { fence_line: 11, code: "panic!(\"last\");".into(), should_panic: true },
            ]
        );
    }
}
