//! `hints.json`: what the static pass over the crate under test found for input
//! strategies. The CLI writes it into a campaign's state directory; the engine reads it
//! at campaign start: the literal dictionary (string, byte-string, char and integer
//! literals) and SpotOn's influencing types of each branch, with their distances.

use serde::{Deserialize, Serialize};

/// Whether a type (by its last path segment, without generic arguments) is one SpotOn
/// never targets (its §III-B: strings, primitives and their wrappers "are too common and
/// do not provide sufficient distinction"), std containers and tuples included. The
/// static pass reports what flows into a branch (strings too); the engine targets none
/// of these.
pub fn is_common_type(name: &str) -> bool {
    matches!(
        name,
        "bool"
            | "char"
            | "str"
            | "String"
            | "u8"
            | "u16"
            | "u32"
            | "u64"
            | "u128"
            | "usize"
            | "i8"
            | "i16"
            | "i32"
            | "i64"
            | "i128"
            | "isize"
            | "f32"
            | "f64"
            | "()"
            | "Vec"
            | "VecDeque"
            | "Option"
            | "Box"
            | "Rc"
            | "Arc"
            | "Result"
            | "HashMap"
            | "BTreeMap"
            | "HashSet"
            | "BTreeSet"
            | "Cow"
    ) || name.starts_with(['(', '[', '&'])
}

/// The static pass's result.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hints {
    /// Literals of the crate under test, each once, in source order.
    pub literals: Literals,
    /// Branch conditions of the crate under test (SpotOn's code targets).
    pub branches: Vec<Branch>,
}

/// Literals of the crate under test.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Literals {
    /// String literals.
    pub strings: Vec<String>,
    /// Byte-string literals.
    pub bytes: Vec<Vec<u8>>,
    /// Char literals (and byte literals, as chars).
    pub chars: Vec<char>,
    /// Integer literals (their value; a negated literal is negative).
    pub ints: Vec<i128>,
}

/// One branch condition and the types whose values can flow into it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Branch {
    /// Source file, relative to the package root.
    pub file: String,
    /// Line of the condition (1-based).
    pub line: u32,
    /// Sites (base ids) in the code the branch guards: the branch is uncovered while a
    /// saved input has not reached one of them. Empty when no site lies there.
    pub sites: Vec<u32>,
    /// Influencing types, each with its distance from the condition (1 = used in it).
    pub types: Vec<TypeDistance>,
}

/// A type (its last path segment, without generic arguments: `Item`, `String`) and
/// how far its values are from a branch condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeDistance {
    /// The type's name.
    pub name: String,
    /// Its distance.
    pub distance: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_round_trip_through_json_with_wide_integers() {
        let hints = Hints {
            literals: Literals {
                strings: vec!["magic-keyword".into()],
                bytes: vec![b"\x00\xff".to_vec()],
                chars: vec!['.'],
                ints: vec![0x5eed, -1, i128::from(u64::MAX)],
            },
            branches: vec![Branch {
                file: "src/lib.rs".into(),
                line: 3,
                sites: vec![4],
                types: vec![TypeDistance { name: "Item".into(), distance: 1 }],
            }],
        };
        let text = serde_json::to_string(&hints).unwrap();
        assert_eq!(serde_json::from_str::<Hints>(&text).unwrap(), hints);
    }
}
