//! Fuzz targets for `json-lite`: parse raw strings and near-JSON token soups, round-trip
//! generated value trees through the serializer and the parser, and look values up by
//! JSON Pointer. Every target returns its results, so a mutant is killed when it parses,
//! prints or finds anything differently from the original.

use json_lite::{ParseError, Value};
use mutfuzz::Gen;

/// A generated JSON value tree. Arrays and objects hold at most four entries, so the
/// tree stays small; the engine's depth budget ends the recursion.
#[derive(Debug, Gen)]
enum GValue {
    Null,
    Bool(bool),
    Int(#[mutfuzz(range = -1000..=1000)] i32),
    /// `digits / 10^scale`: numbers with a fraction.
    Decimal(#[mutfuzz(range = -99_999..=99_999)] i32, #[mutfuzz(range = 1..=6)] u8),
    /// Any `f64`, including huge, tiny and non-finite ones.
    Float(f64),
    Str(GText),
    Array(#[mutfuzz(len = 0..=4)] Vec<GValue>),
    Object(#[mutfuzz(len = 0..=4)] Vec<(GKey, GValue)>),
}

/// A string: arbitrary chars, or chars from a set that needs escaping.
#[derive(Debug, Gen)]
enum GText {
    Plain(#[mutfuzz(len = 0..=6)] String),
    Tricky(#[mutfuzz(len = 0..=6)] Vec<TrickyChar>),
}

#[derive(Debug, Gen)]
struct TrickyChar(#[mutfuzz(range = 0..=12)] u8);

const TRICKY: [char; 13] =
    ['a', '"', '\\', '/', '\n', '\r', '\t', '\u{1}', '\u{1f}', '\u{8}', '\u{c}', 'é', '😀'];

/// An object key from a small set, so lookups hit and keys repeat.
#[derive(Debug, Gen)]
struct GKey(#[mutfuzz(range = 0..=4)] u8);

const KEYS: [&str; 5] = ["a", "b", "a/b", "~t", ""];

impl GText {
    fn text(&self) -> String {
        match self {
            GText::Plain(s) => s.clone(),
            GText::Tricky(chars) => chars.iter().map(|c| TRICKY[usize::from(c.0)]).collect(),
        }
    }
}

impl GValue {
    fn to_value(&self) -> Value {
        match self {
            GValue::Null => Value::Null,
            GValue::Bool(b) => Value::Bool(*b),
            GValue::Int(n) => Value::Number(f64::from(*n)),
            GValue::Decimal(digits, scale) => {
                Value::Number(f64::from(*digits) / 10f64.powi(i32::from(*scale)))
            }
            GValue::Float(x) => Value::Number(*x),
            GValue::Str(text) => Value::String(text.text()),
            GValue::Array(items) => Value::Array(items.iter().map(GValue::to_value).collect()),
            GValue::Object(members) => Value::Object(
                members.iter().map(|(k, v)| (KEYS[usize::from(k.0)].to_string(), v.to_value())).collect(),
            ),
        }
    }
}

/// A fragment of (mostly) JSON text; a sequence of them makes near-valid documents.
#[derive(Debug, Gen)]
struct Token(#[mutfuzz(range = 0..=27)] u8);

const FRAGMENTS: [&str; 28] = [
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    " ",
    "\n",
    "\"k\"",
    "\"a\\\"b\"",
    "\"\\u00e9\"",
    "\"\\ud83d\\ude00\"",
    "\"\\ud83d\"",
    "\"\\ude00\"",
    "\"\\x\"",
    "\"\\u12\"",
    "\"\u{1}\"",
    "\"",
    "0",
    "-12",
    "3.25",
    "1e-3",
    "01",
    "1.",
    "-",
    "true",
    "fals",
    "null",
];

/// Raw strings: mostly errors at the first character, which tests the error paths.
fn parse_text(text: String) -> Result<Value, ParseError> {
    json_lite::parse(&text)
}

/// Token soups: documents that are often almost JSON.
fn parse_tokens(tokens: Vec<Token>) -> (String, Result<Value, ParseError>) {
    let text: String = tokens.iter().map(|t| FRAGMENTS[usize::from(t.0)]).collect();
    let parsed = json_lite::parse(&text);
    (text, parsed)
}

/// Serialize a generated tree, then parse the text back.
fn roundtrip(value: GValue) -> (String, Result<Value, ParseError>) {
    let text = json_lite::to_string(&value.to_value());
    let parsed = json_lite::parse(&text);
    (text, parsed)
}

/// A tree and a JSON Pointer made of keys, indices and raw tokens.
#[derive(Debug, Gen)]
struct Lookup {
    value: GValue,
    #[mutfuzz(len = 0..=3)]
    path: Vec<Segment>,
}

#[derive(Debug, Gen)]
enum Segment {
    Key(GKey),
    Index(#[mutfuzz(range = 0..=4)] u8),
    Raw(#[mutfuzz(len = 0..=3)] Vec<PointerChar>),
}

/// A char of a raw pointer token: `~0` and `~1` are escapes, other `~` uses are not.
#[derive(Debug, Gen)]
struct PointerChar(#[mutfuzz(range = 0..=4)] u8);

const POINTER_CHARS: [char; 5] = ['~', '0', '1', 'a', 'b'];

/// Look a value up by pointer; keys are escaped as RFC 6901 says.
fn pointer(lookup: Lookup) -> (String, Option<Value>) {
    let mut path = String::new();
    for segment in &lookup.path {
        path.push('/');
        match segment {
            Segment::Key(k) => path.push_str(&KEYS[usize::from(k.0)].replace('~', "~0").replace('/', "~1")),
            Segment::Index(i) => path.push_str(&i.to_string()),
            Segment::Raw(chars) => path.extend(chars.iter().map(|c| POINTER_CHARS[usize::from(c.0)])),
        }
    }
    let found = lookup.value.to_value().pointer(&path).cloned();
    (path, found)
}

mutfuzz::targets!(parse_text, parse_tokens, roundtrip, pointer);
