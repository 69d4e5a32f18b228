//! Which code is never mutated, and the counts of what was skipped for each reason.

use std::collections::BTreeMap;

use quote::ToTokens;
use serde::{Deserialize, Serialize};
use syn::punctuated::Punctuated;
use syn::{Attribute, Meta, Token};

use crate::source::squash;

/// Why a region of code was left unmutated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// A `cfg` that holds only in test builds (`#[cfg(test)]`, `#[cfg(all(test, unix))]`),
    /// named by the attribute as written. `#[cfg(not(test))]` code is built normally
    /// (integration tests and doctests link it) and so is mutated.
    Cfg(String),
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
    /// A file glob or function regex in the config.
    Config,
    /// A call to a function named in the config's `skip_calls` (`with_capacity` by default).
    SkipCall,
}

/// How many regions were skipped, by reason.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkipCounts {
    /// Items and modules under a test-only `cfg` (all of [`SkipCounts::cfgs`]).
    pub cfg_test: usize,
    /// The same, by the attribute that caused them (`#[cfg(test)]` → 3).
    #[serde(default)]
    pub cfgs: BTreeMap<String, usize>,
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
    /// Files and functions excluded by the config.
    pub config: usize,
    /// Calls whose arguments are not mutated (`skip_calls`).
    #[serde(default)]
    pub skipped_calls: usize,
    /// Mutants not generated because they are equivalent to the original (`x + 0` →
    /// `x - 0`, the start of `(1..=n).product()` → `2`, …). Mutants, not regions.
    #[serde(default)]
    pub equivalent: usize,
}

impl SkipCounts {
    /// Count one region skipped for `reason`.
    pub fn add(&mut self, reason: SkipReason) {
        *match reason {
            SkipReason::Cfg(attr) => {
                *self.cfgs.entry(attr).or_default() += 1;
                &mut self.cfg_test
            }
            SkipReason::TestFn => &mut self.test_fn,
            SkipReason::ConstContext => &mut self.const_context,
            SkipReason::Unsafe => &mut self.unsafe_code,
            SkipReason::MacroBody => &mut self.macro_body,
            SkipReason::SkipAttribute => &mut self.skip_attribute,
            SkipReason::Config => &mut self.config,
            SkipReason::SkipCall => &mut self.skipped_calls,
        } += 1;
    }

    /// Add another file's counts.
    pub fn merge(&mut self, other: &SkipCounts) {
        self.cfg_test += other.cfg_test;
        for (attr, n) in &other.cfgs {
            *self.cfgs.entry(attr.clone()).or_default() += n;
        }
        self.test_fn += other.test_fn;
        self.const_context += other.const_context;
        self.unsafe_code += other.unsafe_code;
        self.macro_body += other.macro_body;
        self.skip_attribute += other.skip_attribute;
        self.config += other.config;
        self.skipped_calls += other.skipped_calls;
        self.equivalent += other.equivalent;
    }

    /// Total regions skipped (equivalent mutants are not regions).
    pub fn total(&self) -> usize {
        self.cfg_test
            + self.test_fn
            + self.const_context
            + self.unsafe_code
            + self.macro_body
            + self.skip_attribute
            + self.config
            + self.skipped_calls
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
    if path.is_ident("cfg")
        && let Meta::List(list) = &attr.meta
        && let Ok(predicates) = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        && predicates.len() == 1
        && eval_without_test(&predicates[0]) == Truth::False
    {
        return Some(SkipReason::Cfg(attr_text(attr)));
    }
    let tokens = attr.meta.to_token_stream().to_string();
    if path.is_ident("cfg_attr") && (tokens.contains("mutants :: skip") || tokens.contains("mutfuzz :: skip"))
    {
        return Some(SkipReason::SkipAttribute);
    }
    None
}

/// An attribute as the user wrote it, on one line.
fn attr_text(attr: &Attribute) -> String {
    let span = syn::spanned::Spanned::span(attr);
    match span.source_text() {
        Some(text) => squash(&text),
        None => squash(&attr.to_token_stream().to_string()),
    }
}

/// A cfg predicate's value when some options are unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Truth {
    False,
    True,
    Unknown,
}

/// The value of a cfg predicate in a build without `test`, every other option unknown:
/// `False` means the region is compiled only into test builds.
fn eval_without_test(pred: &Meta) -> Truth {
    match pred {
        Meta::Path(p) if p.is_ident("test") => Truth::False,
        Meta::List(list) => {
            let Ok(args) = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) else {
                return Truth::Unknown;
            };
            let values = args.iter().map(eval_without_test);
            if list.path.is_ident("all") {
                values.fold(Truth::True, |a, v| match (a, v) {
                    (Truth::False, _) | (_, Truth::False) => Truth::False,
                    (Truth::True, Truth::True) => Truth::True,
                    _ => Truth::Unknown,
                })
            } else if list.path.is_ident("any") {
                values.fold(Truth::False, |a, v| match (a, v) {
                    (Truth::True, _) | (_, Truth::True) => Truth::True,
                    (Truth::False, Truth::False) => Truth::False,
                    _ => Truth::Unknown,
                })
            } else if list.path.is_ident("not") && args.len() == 1 {
                match eval_without_test(&args[0]) {
                    Truth::False => Truth::True,
                    Truth::True => Truth::False,
                    Truth::Unknown => Truth::Unknown,
                }
            } else {
                Truth::Unknown
            }
        }
        _ => Truth::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(src: &str) -> Option<SkipReason> {
        let item: syn::ItemFn = syn::parse_str(&format!("{src} fn f() {{}}")).unwrap();
        attrs_skip_reason(&item.attrs)
    }

    fn cfg(attr: &str) -> Option<SkipReason> {
        Some(SkipReason::Cfg(attr.to_owned()))
    }

    #[test]
    fn attributes_map_to_skip_reasons() {
        assert_eq!(reason("#[cfg(test)]"), cfg("#[cfg(test)]"));
        assert_eq!(reason("#[cfg(all(test, unix))]"), cfg("#[cfg(all(test, unix))]"));
        assert_eq!(reason("#[cfg(testing)]"), None);
        assert_eq!(reason("#[test]"), Some(SkipReason::TestFn));
        assert_eq!(reason("#[tokio::test]"), Some(SkipReason::TestFn));
        assert_eq!(reason("#[mutants::skip]"), Some(SkipReason::SkipAttribute));
        assert_eq!(reason("#[mutfuzz::skip]"), Some(SkipReason::SkipAttribute));
        assert_eq!(reason("#[cfg_attr(test, mutants::skip)]"), Some(SkipReason::SkipAttribute));
        assert_eq!(reason("#[inline]"), None);
    }

    #[test]
    fn only_cfgs_that_need_test_skip_their_region() {
        // Built without `test` too (integration tests and doctests link it): mutated.
        assert_eq!(reason("#[cfg(not(test))]"), None);
        assert_eq!(reason("#[cfg(any(test, feature = \"testing\"))]"), None);
        assert_eq!(reason("#[cfg(all(unix, not(test)))]"), None);
        assert_eq!(reason("#[cfg(feature = \"test\")]"), None);
        // Built only with `test`.
        assert_eq!(reason("#[cfg(not(not(test)))]"), cfg("#[cfg(not(not(test)))]"));
        assert_eq!(reason("#[cfg(any(test, all(test, unix)))]"), cfg("#[cfg(any(test, all(test, unix)))]"));
        assert_eq!(reason("#[cfg(all(test, not(test)))]"), cfg("#[cfg(all(test, not(test)))]"));
    }

    #[test]
    fn counts_name_the_cfg_and_merge() {
        let mut a = SkipCounts::default();
        a.add(SkipReason::Cfg("#[cfg(test)]".into()));
        a.add(SkipReason::Cfg("#[cfg(all(test, unix))]".into()));
        let mut b = SkipCounts::default();
        b.add(SkipReason::Cfg("#[cfg(test)]".into()));
        b.add(SkipReason::SkipCall);
        a.merge(&b);
        assert_eq!(a.cfg_test, 3);
        assert_eq!(a.cfgs["#[cfg(test)]"], 2);
        assert_eq!(a.cfgs["#[cfg(all(test, unix))]"], 1);
        assert_eq!(a.skipped_calls, 1);
        assert_eq!(a.total(), 4);
        // Counts written before these fields existed still read.
        let old: SkipCounts = serde_json::from_str(
            r#"{"cfg_test":1,"test_fn":0,"const_context":0,"unsafe":0,"macro_body":0,"skip_attribute":0,"config":0}"#,
        )
        .unwrap();
        assert_eq!(old.cfg_test, 1);
    }
}
