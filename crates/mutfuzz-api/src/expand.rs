//! The crate's own `macro_rules!` invoked where items go, expanded so that the scan sees
//! the impls they write (bytes' `fmt_impl!(Debug, Bytes)` is its `Debug`).
//!
//! Only rules without repetitions are matched: each `$name:fragment` takes one token
//! tree (`ident`, `tt`, `literal`, `lifetime`) or the tokens up to what the rule expects
//! next (`ty`, `expr`, `path`, …). An invocation no rule matches, or whose expansion does
//! not parse, is left as it was: the scan then misses what it writes, as before.
//!
//! `cfg_if::cfg_if!` is expanded too, each branch's items under the `cfg` that picks it,
//! which the scan then reads as it reads any item's (ahash's `AHasher`).

use std::collections::BTreeMap;

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};

/// How deep an expansion may invoke further macros.
const DEPTH: usize = 8;

/// One rule: what it matches, and what it writes.
#[derive(Clone, Debug)]
struct Rule {
    pattern: Vec<Piece>,
    body: TokenStream,
}

#[derive(Clone, Debug)]
enum Piece {
    /// `$name:fragment`.
    Var(String, String),
    /// A token to match as written.
    Token(String),
    /// A delimited group, matched inside.
    Group(Delimiter, Vec<Piece>),
}

/// The `macro_rules!` seen so far, by name.
#[derive(Default)]
pub(crate) struct Macros {
    rules: BTreeMap<String, Vec<Rule>>,
}

impl Macros {
    /// `items` with each invocation of a known macro replaced by the items it writes; the
    /// definitions among them are learned on the way, in order.
    pub(crate) fn expand(&mut self, items: &[syn::Item]) -> Vec<syn::Item> {
        let mut out = Vec::new();
        self.expand_into(items, &mut out, 0);
        out
    }

    fn expand_into(&mut self, items: &[syn::Item], out: &mut Vec<syn::Item>, depth: usize) {
        for item in items {
            let syn::Item::Macro(m) = item else {
                out.push(item.clone());
                continue;
            };
            if m.mac.path.is_ident("macro_rules") {
                if let Some(name) = &m.ident {
                    self.rules.insert(name.to_string(), rules(m.mac.tokens.clone()));
                }
                continue;
            }
            let last = m.mac.path.segments.last().map(|s| s.ident.to_string());
            let tokens = if last.as_deref() == Some("cfg_if") {
                cfg_if(m.mac.tokens.clone())
            } else {
                m.mac
                    .path
                    .get_ident()
                    .and_then(|name| self.rules.get(&name.to_string()))
                    .and_then(|rules| rules.iter().find_map(|r| r.apply(m.mac.tokens.clone())))
            };
            let expanded =
                tokens.filter(|_| depth < DEPTH).and_then(|tokens| syn::parse2::<syn::File>(tokens).ok());
            match expanded {
                Some(file) => self.expand_into(&file.items, out, depth + 1),
                None => out.push(item.clone()),
            }
        }
    }
}

/// The items of a `cfg_if!` (`if #[cfg(a)] { … } else if #[cfg(b)] { … } else { … }`),
/// each under the `cfg` of its branch: `all(not(a), b)` for the second.
fn cfg_if(tokens: TokenStream) -> Option<TokenStream> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut earlier: Vec<TokenStream> = Vec::new();
    let mut out = TokenStream::new();
    let mut i = 0;
    loop {
        let predicate = match trees.get(i) {
            Some(TokenTree::Ident(word)) if word == "if" => {
                let (Some(TokenTree::Punct(hash)), Some(TokenTree::Group(attr))) =
                    (trees.get(i + 1), trees.get(i + 2))
                else {
                    return None;
                };
                let inner: Vec<TokenTree> = attr.stream().into_iter().collect();
                let (true, [TokenTree::Ident(cfg), TokenTree::Group(pred)]) =
                    (hash.as_char() == '#', &inner[..])
                else {
                    return None;
                };
                if cfg != "cfg" {
                    return None;
                }
                i += 3;
                Some(pred.stream())
            }
            _ => None,
        };
        let Some(TokenTree::Group(body)) = trees.get(i) else { return None };
        let not_earlier = quote::quote!(not(any(#(#earlier),*)));
        let condition = match &predicate {
            Some(p) if earlier.is_empty() => p.clone(),
            Some(p) => quote::quote!(all(#not_earlier, #p)),
            None => not_earlier,
        };
        let items = syn::parse2::<syn::File>(body.stream()).ok()?.items;
        out.extend(items.iter().map(|item| quote::quote!(#[cfg(#condition)] #item)));
        i += 1;
        match (predicate, trees.get(i), trees.get(i + 1)) {
            (Some(p), Some(TokenTree::Ident(e)), Some(next)) if e == "else" => {
                earlier.push(p);
                i += 1;
                // `else if …` goes round again; a last `else { … }` is read next round.
                if !matches!(next, TokenTree::Ident(w) if w == "if") && !matches!(next, TokenTree::Group(_)) {
                    return None;
                }
            }
            (_, None, _) => return Some(out),
            _ => return None,
        }
    }
}

/// The rules of a `macro_rules!` body: `(pattern) => { body };` each. A rule with a
/// repetition is left out.
fn rules(tokens: TokenStream) -> Vec<Rule> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 3 <= trees.len() {
        if let (
            TokenTree::Group(pattern),
            TokenTree::Punct(eq),
            TokenTree::Punct(gt),
            Some(TokenTree::Group(body)),
        ) = (&trees[i], &trees[i + 1], &trees[i + 2], trees.get(i + 3))
            && eq.as_char() == '='
            && gt.as_char() == '>'
        {
            if let Some(pattern) = pieces(pattern.stream()) {
                out.push(Rule { pattern, body: body.stream() });
            }
            i += 4;
            // The `;` between rules.
            if matches!(trees.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ';') {
                i += 1;
            }
        } else {
            break;
        }
    }
    out
}

fn pieces(tokens: TokenStream) -> Option<Vec<Piece>> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Punct(p) if p.as_char() == '$' => {
                match (trees.get(i + 1), trees.get(i + 2), trees.get(i + 3)) {
                    (
                        Some(TokenTree::Ident(name)),
                        Some(TokenTree::Punct(colon)),
                        Some(TokenTree::Ident(frag)),
                    ) if colon.as_char() == ':' => {
                        out.push(Piece::Var(name.to_string(), frag.to_string()));
                        i += 4;
                    }
                    // A repetition, or `$crate`.
                    _ => return None,
                }
            }
            TokenTree::Group(g) => {
                out.push(Piece::Group(g.delimiter(), pieces(g.stream())?));
                i += 1;
            }
            other => {
                out.push(Piece::Token(other.to_string()));
                i += 1;
            }
        }
    }
    Some(out)
}

impl Rule {
    /// The rule's body with the invocation's tokens put in, if they match.
    fn apply(&self, tokens: TokenStream) -> Option<TokenStream> {
        let input: Vec<TokenTree> = tokens.into_iter().collect();
        let mut bound = BTreeMap::new();
        matches(&self.pattern, &input, &mut bound).then(|| substitute(self.body.clone(), &bound))
    }
}

/// Whether `input` matches `pattern` whole, binding its variables.
fn matches(pattern: &[Piece], input: &[TokenTree], bound: &mut BTreeMap<String, Vec<TokenTree>>) -> bool {
    let Some((first, rest)) = pattern.split_first() else { return input.is_empty() };
    match first {
        Piece::Token(t) => {
            matches!(input.first(), Some(tt) if !matches!(tt, TokenTree::Group(_)) && tt.to_string() == *t)
                && matches(rest, &input[1..], bound)
        }
        Piece::Group(delimiter, inner) => match input.first() {
            Some(TokenTree::Group(g)) if g.delimiter() == *delimiter => {
                let inside: Vec<TokenTree> = g.stream().into_iter().collect();
                matches(inner, &inside, bound) && matches(rest, &input[1..], bound)
            }
            _ => false,
        },
        Piece::Var(name, frag) => {
            let single = matches!(frag.as_str(), "ident" | "tt" | "literal" | "lifetime");
            // A single token tree, or the tokens up to where the rest of the rule matches
            // (the shortest such run that is not empty): up to the token the rule writes
            // next, or all of them where it is the last piece.
            let next = match rest.first() {
                Some(Piece::Token(t)) => Some(t),
                _ => None,
            };
            let ends: Vec<usize> = match (single, rest.is_empty()) {
                (true, _) => vec![1],
                (false, true) => vec![input.len()],
                (false, false) => (1..=input.len())
                    .filter(|&e| {
                        next.is_none_or(|t| {
                            matches!(input.get(e), Some(tt) if !matches!(tt, TokenTree::Group(_)) && tt.to_string() == *t)
                        })
                    })
                    .collect(),
            };
            for end in ends.into_iter().filter(|&e| e <= input.len() && e > 0) {
                let mut trial = bound.clone();
                trial.insert(name.clone(), input[..end].to_vec());
                if matches(rest, &input[end..], &mut trial) {
                    *bound = trial;
                    return true;
                }
            }
            false
        }
    }
}

/// `body` with each `$name` replaced by what it bound, and `$crate` by `crate`.
fn substitute(body: TokenStream, bound: &BTreeMap<String, Vec<TokenTree>>) -> TokenStream {
    let trees: Vec<TokenTree> = body.into_iter().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < trees.len() {
        match (&trees[i], trees.get(i + 1)) {
            (TokenTree::Punct(p), Some(TokenTree::Ident(name))) if p.as_char() == '$' => {
                match bound.get(&name.to_string()) {
                    Some(tokens) => out.extend(tokens.iter().cloned()),
                    None if name == "crate" => {
                        out.push(TokenTree::Ident(proc_macro2::Ident::new("crate", name.span())))
                    }
                    None => out.push(TokenTree::Ident(name.clone())),
                }
                i += 2;
            }
            (TokenTree::Group(g), _) => {
                let mut group = Group::new(g.delimiter(), substitute(g.stream(), bound));
                group.set_span(g.span());
                out.push(TokenTree::Group(group));
                i += 1;
            }
            (other, _) => {
                out.push(other.clone());
                i += 1;
            }
        }
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expanded(source: &str) -> Vec<String> {
        let file = syn::parse_file(source).unwrap();
        let mut macros = Macros::default();
        macros.expand(&file.items).iter().map(|i| quote::quote!(#i).to_string()).collect()
    }

    #[test]
    fn an_impl_written_by_a_macro_is_seen() {
        let items = expanded(
            "macro_rules! fmt_impl { ($tr:ident, $ty:ty) => { impl $tr for $ty { fn fmt(&self) {} } }; }\n\
             fmt_impl!(Debug, Bytes);\n\
             fmt_impl!(LowerHex, Vec<u8>);\n\
             pub struct Bytes;\n",
        );
        assert_eq!(
            items,
            [
                "impl Debug for Bytes { fn fmt (& self) { } }",
                "impl LowerHex for Vec < u8 > { fn fmt (& self) { } }",
                "pub struct Bytes ;"
            ]
        );
    }

    #[test]
    fn each_branch_of_a_cfg_if_is_under_the_cfg_that_picks_it() {
        let items = expanded(
            "cfg_if::cfg_if! {\n\
                 if #[cfg(feature = \"a\")] { pub fn f() {} }\n\
                 else if #[cfg(unix)] { pub fn g() {} pub fn h() {} }\n\
                 else { pub fn k() {} }\n\
             }\n",
        );
        assert_eq!(
            items,
            [
                "# [cfg (feature = \"a\")] pub fn f () { }",
                "# [cfg (all (not (any (feature = \"a\")) , unix))] pub fn g () { }",
                "# [cfg (all (not (any (feature = \"a\")) , unix))] pub fn h () { }",
                "# [cfg (not (any (feature = \"a\" , unix)))] pub fn k () { }",
            ]
        );
    }

    #[test]
    fn rules_are_tried_in_order_and_an_invocation_none_matches_is_left() {
        let items = expanded(
            "macro_rules! two { (one $a:ident) => { pub struct $a; }; ($a:ident and $b:ident) => { two!(one $a); two!(one $b); }; }\n\
             two!(A and B);\n\
             two!(1, 2);\n\
             macro_rules! rep { ($($a:ident),*) => {}; }\n\
             rep!(C);\n",
        );
        assert_eq!(items, ["pub struct A ;", "pub struct B ;", "two ! (1 , 2) ;", "rep ! (C) ;"]);
    }
}
