//! A small JSON parser and serializer.
//!
//! [`parse`] reads JSON text (objects, arrays, strings with escapes including UTF-16
//! surrogate pairs, numbers, `true`, `false`, `null`) into a [`Value`] tree, or reports
//! a [`ParseError`] with the byte offset where the text stopped making sense.
//! [`to_string`] writes a tree back as compact JSON, and [`Value::pointer`] looks up
//! a value by a JSON Pointer (RFC 6901) such as `/items/0/name`.
//!
//! Objects keep their members in text order (duplicates included), so a tree's
//! `Debug` rendering is deterministic. It is a benchmark crate for mutfuzz.

/// How deeply arrays and objects may nest before [`parse`] gives up.
pub const MAX_DEPTH: usize = 64;

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, its members in text order.
    Object(Vec<(String, Value)>),
}

/// Why the text is not JSON, and where (a byte offset).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset of the problem.
    pub pos: usize,
    /// What the problem is.
    pub kind: ErrorKind,
}

/// The kinds of [`ParseError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The text ended inside a value.
    UnexpectedEnd,
    /// A character that cannot start or continue the value here.
    UnexpectedChar(char),
    /// A malformed number.
    InvalidNumber,
    /// An unknown escape or a bad hex digit in `\u`.
    InvalidEscape,
    /// A `\u` escape that is not a Unicode scalar value (a lone surrogate).
    InvalidUnicode,
    /// A raw control character inside a string.
    ControlInString,
    /// Arrays and objects nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// More text after the value.
    TrailingCharacters,
}

impl Value {
    /// The member `key` of an object (the first one, if repeated).
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Looks up a value by JSON Pointer: `""` is the whole value, `/a/0` the first
    /// element of member `a`; `~1` stands for `/` and `~0` for `~` in a token.
    pub fn pointer(&self, path: &str) -> Option<&Value> {
        if path.is_empty() {
            return Some(self);
        }
        let rest = path.strip_prefix('/')?;
        let mut current = self;
        for raw in rest.split('/') {
            let token = raw.replace("~1", "/").replace("~0", "~");
            current = match current {
                Value::Object(_) => current.get(&token)?,
                Value::Array(items) => {
                    if token.is_empty() || (token.len() > 1 && token.starts_with('0')) {
                        return None;
                    }
                    let index: usize = token.parse().ok()?;
                    items.get(index)?
                }
                _ => return None,
            };
        }
        Some(current)
    }
}

/// Parses one JSON value, with optional whitespace around it.
pub fn parse(text: &str) -> Result<Value, ParseError> {
    let mut parser = Parser { text, pos: 0, depth: 0 };
    parser.skip_ws();
    let value = parser.value()?;
    parser.skip_ws();
    if parser.pos < text.len() {
        return Err(parser.error(ErrorKind::TrailingCharacters));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn error(&self, kind: ErrorKind) -> ParseError {
        ParseError { pos: self.pos, kind }
    }

    fn unexpected(&self) -> ParseError {
        match self.peek() {
            Some(c) => self.error(ErrorKind::UnexpectedChar(c)),
            None => self.error(ErrorKind::UnexpectedEnd),
        }
    }

    fn skip_ws(&mut self) {
        while let Some(' ' | '\t' | '\n' | '\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn value(&mut self) -> Result<Value, ParseError> {
        match self.peek() {
            Some('{') => self.object(),
            Some('[') => self.array(),
            Some('"') => Ok(Value::String(self.string()?)),
            Some('t') => self.literal("true", Value::Bool(true)),
            Some('f') => self.literal("false", Value::Bool(false)),
            Some('n') => self.literal("null", Value::Null),
            Some(c) if c == '-' || c.is_ascii_digit() => self.number(),
            _ => Err(self.unexpected()),
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, ParseError> {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.unexpected())
        }
    }

    /// Steps into an array or object, past its opening bracket.
    fn enter(&mut self) -> Result<(), ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(ErrorKind::TooDeep));
        }
        self.depth += 1;
        self.pos += 1;
        self.skip_ws();
        Ok(())
    }

    /// After an element: a comma (more to come, `Ok(true)`) or the closing bracket.
    fn separator(&mut self, close: char) -> Result<bool, ParseError> {
        self.skip_ws();
        match self.peek() {
            Some(',') => {
                self.pos += 1;
                self.skip_ws();
                Ok(true)
            }
            Some(c) if c == close => {
                self.pos += 1;
                self.depth -= 1;
                Ok(false)
            }
            _ => Err(self.unexpected()),
        }
    }

    fn array(&mut self) -> Result<Value, ParseError> {
        self.enter()?;
        let mut items = Vec::new();
        if self.peek() == Some(']') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            if !self.separator(']')? {
                return Ok(Value::Array(items));
            }
        }
    }

    fn object(&mut self) -> Result<Value, ParseError> {
        self.enter()?;
        let mut members = Vec::new();
        if self.peek() == Some('}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Value::Object(members));
        }
        loop {
            if self.peek() != Some('"') {
                return Err(self.unexpected());
            }
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(':') {
                return Err(self.unexpected());
            }
            self.pos += 1;
            self.skip_ws();
            let value = self.value()?;
            members.push((key, value));
            if !self.separator('}')? {
                return Ok(Value::Object(members));
            }
        }
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error(ErrorKind::UnexpectedEnd)),
                Some('"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some('\\') => {
                    self.pos += 1;
                    out.push(self.escape()?);
                }
                Some(c) if c < ' ' => return Err(self.error(ErrorKind::ControlInString)),
                Some(c) => {
                    out.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    /// The character an escape stands for; `pos` is just past the backslash.
    fn escape(&mut self) -> Result<char, ParseError> {
        let c = match self.peek() {
            Some(c) => c,
            None => return Err(self.error(ErrorKind::UnexpectedEnd)),
        };
        let simple = match c {
            '"' => '"',
            '\\' => '\\',
            '/' => '/',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'u' => {
                self.pos += 1;
                return self.unicode_escape();
            }
            _ => return Err(self.error(ErrorKind::InvalidEscape)),
        };
        self.pos += 1;
        Ok(simple)
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`; `pos` is just past the `u`.
    fn unicode_escape(&mut self) -> Result<char, ParseError> {
        let start = self.pos - 2;
        let invalid = ParseError { pos: start, kind: ErrorKind::InvalidUnicode };
        let high = self.hex4()?;
        if !(0xD800..0xDC00).contains(&high) {
            return char::from_u32(high).ok_or(invalid);
        }
        if !self.text[self.pos..].starts_with("\\u") {
            return Err(invalid);
        }
        self.pos += 2;
        let low = self.hex4()?;
        if !(0xDC00..0xE000).contains(&low) {
            return Err(invalid);
        }
        let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        char::from_u32(code).ok_or(invalid)
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = match self.peek() {
                None => return Err(self.error(ErrorKind::UnexpectedEnd)),
                Some(c) => c.to_digit(16).ok_or(self.error(ErrorKind::InvalidEscape))?,
            };
            code = code * 16 + digit;
            self.pos += 1;
        }
        Ok(code)
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.pos;
        let invalid = ParseError { pos: start, kind: ErrorKind::InvalidNumber };
        if self.peek() == Some('-') {
            self.pos += 1;
        }
        match self.peek() {
            Some('0') => self.pos += 1,
            Some(c) if c.is_ascii_digit() => {
                self.digits();
            }
            _ => return Err(invalid),
        }
        if self.peek() == Some('.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(invalid);
            }
        }
        if let Some('e' | 'E') = self.peek() {
            self.pos += 1;
            if let Some('+' | '-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(invalid);
            }
        }
        let n: f64 = self.text[start..self.pos].parse().map_err(|_| invalid)?;
        Ok(Value::Number(n))
    }

    /// Skips a run of ASCII digits, returning how many there were.
    fn digits(&mut self) -> usize {
        let start = self.pos;
        while let Some('0'..='9') = self.peek() {
            self.pos += 1;
        }
        self.pos - start
    }
}

/// Writes `value` as compact JSON (no whitespace).
///
/// Integral numbers below 10^15 in magnitude are written without a fraction; numbers
/// that JSON cannot express (NaN, infinities) become `null`.
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, &mut out);
    out
}

fn write_value(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(*n, out),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_value(item, out);
            }
            out.push('}');
        }
    }
}

fn write_number(n: f64, out: &mut String) {
    if !n.is_finite() {
        out.push_str("null");
    } else if n.fract() == 0.0 && n.abs() < 1e15 {
        out.push_str(&(n as i64).to_string());
    } else {
        out.push_str(&n.to_string());
    }
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: f64) -> Value {
        Value::Number(n)
    }

    #[test]
    fn parses_literals_and_numbers() {
        assert_eq!(parse("true"), Ok(Value::Bool(true)));
        assert_eq!(parse(" null "), Ok(Value::Null));
        assert_eq!(parse("-12.5e1"), Ok(num(-125.0)));
        assert_eq!(parse("0"), Ok(num(0.0)));
    }

    #[test]
    fn parses_nested_structures() {
        let v = parse(r#"{"a": [1, 2, {"b": false}], "c": "x"}"#).unwrap();
        assert_eq!(v.get("c"), Some(&Value::String("x".into())));
        assert_eq!(v.pointer("/a/2/b"), Some(&Value::Bool(false)));
        assert_eq!(v.pointer("/a/1"), Some(&num(2.0)));
        assert_eq!(v.pointer("/a/9"), None);
    }

    #[test]
    fn parses_escapes() {
        assert_eq!(parse(r#""a\nb\"c""#), Ok(Value::String("a\nb\"c".into())));
        assert_eq!(parse(r#""\u00e9""#), Ok(Value::String("é".into())));
        assert_eq!(parse(r#""\ud83d\ude00""#), Ok(Value::String("😀".into())));
    }

    #[test]
    fn reports_errors() {
        assert_eq!(parse("[1,").unwrap_err().kind, ErrorKind::UnexpectedEnd);
        assert_eq!(parse("[1 2]").unwrap_err(), ParseError { pos: 3, kind: ErrorKind::UnexpectedChar('2') });
        assert_eq!(parse("01").unwrap_err().kind, ErrorKind::TrailingCharacters);
        assert_eq!(parse("1.").unwrap_err().kind, ErrorKind::InvalidNumber);
        assert_eq!(parse(r#""\q""#).unwrap_err().kind, ErrorKind::InvalidEscape);
    }

    #[test]
    fn rejects_deep_nesting() {
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(parse(&deep).unwrap_err().kind, ErrorKind::TooDeep);
    }

    #[test]
    fn serializes_compactly() {
        let v = Value::Object(vec![
            ("k".into(), Value::Array(vec![num(1.0), num(2.5), Value::Null])),
            ("s".into(), Value::String("q\"\n".into())),
        ]);
        assert_eq!(to_string(&v), r#"{"k":[1,2.5,null],"s":"q\"\n"}"#);
    }

    #[test]
    fn round_trips() {
        let text = r#"{"a":[true,false,null],"b":{"c":-3}}"#;
        assert_eq!(to_string(&parse(text).unwrap()), text);
    }
}
