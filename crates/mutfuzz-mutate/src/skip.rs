//! Which code is never mutated, and the counts of what was skipped for each reason.

use quote::ToTokens;
use serde::{Deserialize, Serialize};
use syn::Attribute;

/// Why a region of code was left unmutated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// `#[cfg(test)]` (or any `cfg` that mentions `test`).
    CfgTest,
    /// `#[test]`, `#[tokio::test]`, `#[bench]` and the like.
    TestFn,
    /// `const`/`static` items, `const fn`, array lengths, const generics, enum discriminants.
    ConstContext,
    /// `unsafe` blocks and functions (unless the config allows them).
    Unsafe,
    /// The body of a macro invocation, which `syn` cannot see into.
    MacroBody,
    /// `#[mutants::skip]` or `#[mutfuzz::skip]`.
    SkipAttribute,
    /// A file glob or function regex in `mutfuzz.toml`.
    Config,
}

/// How many regions were skipped, by reason.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkipCounts {
    /// `#[cfg(test)]` items and modules.
    pub cfg_test: usize,
    /// Test and bench functions.
    pub test_fn: usize,
    /// Const contexts.
    pub const_context: usize,
    /// Unsafe blocks and functions.
    #[serde(rename = "unsafe")]
    pub unsafe_code: usize,
    /// Macro invocations.
    pub macro_body: usize,
    /// Items and expressions with a skip attribute.
    pub skip_attribute: usize,
    /// Files and functions excluded by `mutfuzz.toml`.
    pub config: usize,
}

impl SkipCounts {
    /// Count one region skipped for `reason`.
    pub fn add(&mut self, reason: SkipReason) {
        *match reason {
            SkipReason::CfgTest => &mut self.cfg_test,
            SkipReason::TestFn => &mut self.test_fn,
            SkipReason::ConstContext => &mut self.const_context,
            SkipReason::Unsafe => &mut self.unsafe_code,
            SkipReason::MacroBody => &mut self.macro_body,
            SkipReason::SkipAttribute => &mut self.skip_attribute,
            SkipReason::Config => &mut self.config,
        } += 1;
    }

    /// Add another file's counts.
    pub fn merge(&mut self, other: &SkipCounts) {
        self.cfg_test += other.cfg_test;
        self.test_fn += other.test_fn;
        self.const_context += other.const_context;
        self.unsafe_code += other.unsafe_code;
        self.macro_body += other.macro_body;
        self.skip_attribute += other.skip_attribute;
        self.config += other.config;
    }

    /// Total regions skipped.
    pub fn total(&self) -> usize {
        self.cfg_test
            + self.test_fn
            + self.const_context
            + self.unsafe_code
            + self.macro_body
            + self.skip_attribute
            + self.config
    }
}

/// The reason to skip an item or expression carrying `attrs`, if any.
pub fn attrs_skip_reason(attrs: &[Attribute]) -> Option<SkipReason> {
    attrs.iter().find_map(attr_skip_reason)
}

fn attr_skip_reason(attr: &Attribute) -> Option<SkipReason> {
    let path = attr.path();
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let last = segments.last().map(String::as_str);
    if segments.len() == 2 && matches!(segments[0].as_str(), "mutants" | "mutfuzz") && last == Some("skip") {
        return Some(SkipReason::SkipAttribute);
    }
    if matches!(last, Some("test" | "bench")) {
        return Some(SkipReason::TestFn);
    }
    let tokens = attr.meta.to_token_stream().to_string();
    if path.is_ident("cfg") && mentions_ident(&tokens, "test") {
        return Some(SkipReason::CfgTest);
    }
    if path.is_ident("cfg_attr") && (tokens.contains("mutants :: skip") || tokens.contains("mutfuzz :: skip"))
    {
        return Some(SkipReason::SkipAttribute);
    }
    None
}

fn mentions_ident(tokens: &str, ident: &str) -> bool {
    tokens.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == ident)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(src: &str) -> Option<SkipReason> {
        let item: syn::ItemFn = syn::parse_str(&format!("{src} fn f() {{}}")).unwrap();
        attrs_skip_reason(&item.attrs)
    }

    #[test]
    fn attributes_map_to_skip_reasons() {
        assert_eq!(reason("#[cfg(test)]"), Some(SkipReason::CfgTest));
        assert_eq!(reason("#[cfg(all(test, unix))]"), Some(SkipReason::CfgTest));
        assert_eq!(reason("#[cfg(testing)]"), None);
        assert_eq!(reason("#[test]"), Some(SkipReason::TestFn));
        assert_eq!(reason("#[tokio::test]"), Some(SkipReason::TestFn));
        assert_eq!(reason("#[mutants::skip]"), Some(SkipReason::SkipAttribute));
        assert_eq!(reason("#[mutfuzz::skip]"), Some(SkipReason::SkipAttribute));
        assert_eq!(reason("#[cfg_attr(test, mutants::skip)]"), Some(SkipReason::SkipAttribute));
        assert_eq!(reason("#[inline]"), None);
    }
}
