//! The built-in functions: their signatures (for the checker) and their code (for the
//! interpreter, the VM and the constant folder). Every one is total: bad arguments give
//! an error message, never a panic.

use crate::ast::Type;
use crate::stdlib;
use crate::value::{Value, MAX_STR};

use Type::{Bool as B, Int as I, Str as S};

/// Name, parameter types, result type.
/// Largest argument `prime` tests: trial division up to its square root takes about a
/// millisecond; a 19-digit argument took seconds, which a fuzzer takes for a hang.
pub const PRIME_LIMIT: i64 = 1_000_000_000_000;

pub const BUILTINS: &[(&str, &[Type], Type)] = &[
    ("len", &[S], I),
    ("abs", &[I], I),
    ("min", &[I, I], I),
    ("max", &[I, I], I),
    ("clamp", &[I, I, I], I),
    ("pow", &[I, I], I),
    ("gcd", &[I, I], I),
    ("isqrt", &[I], I),
    ("sign", &[I], I),
    ("bits", &[I], I),
    ("log2", &[I], I),
    ("str", &[I], S),
    ("radix", &[I, I], S),
    ("parse", &[S], I),
    ("ord", &[S], I),
    ("chr", &[I], S),
    ("substr", &[S, I, I], S),
    ("find", &[S, S], I),
    ("repeat", &[S, I], S),
    ("upper", &[S], S),
    ("lower", &[S], S),
    ("trim", &[S], S),
    ("reverse", &[S], S),
    ("contains", &[S, S], B),
    ("starts", &[S, S], B),
    ("count", &[S, S], I),
    ("pad", &[S, I], S),
    ("hash", &[S], I),
    ("digits", &[I], I),
    ("even", &[I], B),
    ("base64", &[S], S),
    ("unbase64", &[S], S),
    ("hex", &[S], S),
    ("roman", &[I], S),
    ("unroman", &[S], I),
    ("words", &[I], S),
    ("distance", &[S, S], I),
    ("glob", &[S, S], B),
    ("caesar", &[S, I], S),
    ("date", &[I], S),
    ("days", &[S], I),
    ("hms", &[I], S),
    ("luhn", &[S], B),
    ("crc", &[S], I),
    ("prime", &[I], B),
    ("modpow", &[I, I, I], I),
    ("binom", &[I, I], I),
    ("lcm", &[I, I], I),
    ("title", &[S], S),
    ("center", &[S, I], S),
    ("squeeze", &[S], S),
    ("wrap", &[S, I], S),
    ("soundex", &[S], S),
    ("isbn", &[S], B),
    ("ordinal", &[I], S),
    ("weekday", &[I], S),
    ("leap", &[I], B),
];

/// The signature of built-in `name`.
pub fn signature(name: &str) -> Option<(&'static [Type], Type)> {
    BUILTINS.iter().find(|(n, _, _)| *n == name).map(|&(_, params, ret)| (params, ret))
}

/// Its index in [`BUILTINS`] (the VM calls built-ins by index).
pub fn index(name: &str) -> Option<usize> {
    BUILTINS.iter().position(|(n, _, _)| *n == name)
}

fn int(args: &[Value], i: usize) -> Result<i64, String> {
    args.get(i).ok_or_else(|| "missing argument".to_string())?.as_int()
}

fn text(args: &[Value], i: usize) -> Result<&str, String> {
    args.get(i).ok_or_else(|| "missing argument".to_string())?.as_str()
}

fn checked_str(s: String) -> Result<Value, String> {
    if s.len() > MAX_STR {
        Err(format!("string longer than {MAX_STR} bytes"))
    } else {
        Ok(Value::Str(s))
    }
}

/// Call built-in `name` on `args` (already checked to have the right count).
pub fn call(name: &str, args: &[Value]) -> Result<Value, String> {
    let Some((params, _)) = signature(name) else {
        return Err(format!("no built-in function `{name}`"));
    };
    if args.len() != params.len() {
        return Err(format!("`{name}` takes {} arguments, got {}", params.len(), args.len()));
    }
    let v = match name {
        "len" => Value::Int(text(args, 0)?.chars().count() as i64),
        "abs" => {
            let n = int(args, 0)?;
            if n == i64::MIN {
                return Err("abs of the smallest int overflows".into());
            }
            Value::Int(if n < 0 { -n } else { n })
        }
        "min" => Value::Int(int(args, 0)?.min(int(args, 1)?)),
        "max" => Value::Int(int(args, 0)?.max(int(args, 1)?)),
        "clamp" => {
            let (n, lo, hi) = (int(args, 0)?, int(args, 1)?, int(args, 2)?);
            if lo > hi {
                return Err(format!("clamp: empty range {lo}..={hi}"));
            }
            Value::Int(if n < lo {
                lo
            } else if n > hi {
                hi
            } else {
                n
            })
        }
        "pow" => Value::Int(pow(int(args, 0)?, int(args, 1)?)?),
        "gcd" => Value::Int(gcd(int(args, 0)?, int(args, 1)?)),
        "isqrt" => Value::Int(isqrt(int(args, 0)?)?),
        "sign" => Value::Int(int(args, 0)?.signum()),
        "bits" => Value::Int(i64::from(int(args, 0)?.count_ones())),
        "log2" => {
            let n = int(args, 0)?;
            if n <= 0 {
                return Err(format!("log2 of {n}"));
            }
            Value::Int(63 - i64::from(n.leading_zeros()))
        }
        "str" => Value::Str(int(args, 0)?.to_string()),
        "radix" => Value::Str(radix(int(args, 0)?, int(args, 1)?)?),
        "parse" => Value::Int(parse_int(text(args, 0)?)?),
        "ord" => Value::Int(text(args, 0)?.chars().next().map_or(-1, |c| i64::from(u32::from(c)))),
        "chr" => {
            let n = int(args, 0)?;
            let c = u32::try_from(n).ok().and_then(char::from_u32);
            match c {
                Some(c) => Value::Str(c.to_string()),
                None => return Err(format!("{n} is not a character")),
            }
        }
        "substr" => Value::Str(substr(text(args, 0)?, int(args, 1)?, int(args, 2)?)),
        "find" => {
            let (hay, needle) = (text(args, 0)?, text(args, 1)?);
            match hay.find(needle) {
                Some(byte) => Value::Int(hay[..byte].chars().count() as i64),
                None => Value::Int(-1),
            }
        }
        "repeat" => {
            let (s, n) = (text(args, 0)?, int(args, 1)?);
            if n < 0 {
                return Err(format!("repeat {n} times"));
            }
            let n = n as usize;
            if s.len().saturating_mul(n) > MAX_STR {
                return Err(format!("string longer than {MAX_STR} bytes"));
            }
            Value::Str(s.repeat(n))
        }
        "upper" => Value::Str(text(args, 0)?.to_ascii_uppercase()),
        "lower" => Value::Str(text(args, 0)?.to_ascii_lowercase()),
        "trim" => Value::Str(trim(text(args, 0)?).to_string()),
        "reverse" => Value::Str(text(args, 0)?.chars().rev().collect()),
        "contains" => Value::Bool(text(args, 0)?.contains(text(args, 1)?)),
        "starts" => Value::Bool(text(args, 0)?.starts_with(text(args, 1)?)),
        "count" => Value::Int(count(text(args, 0)?, text(args, 1)?)?),
        "pad" => return checked_str(pad(text(args, 0)?, int(args, 1)?)?),
        "hash" => Value::Int(hash(text(args, 0)?)),
        "digits" => Value::Int(digits(int(args, 0)?)),
        "even" => Value::Bool(int(args, 0)? % 2 == 0),
        "base64" => return checked_str(stdlib::base64(text(args, 0)?.as_bytes())),
        "unbase64" => {
            let bytes = stdlib::unbase64(text(args, 0)?)?;
            Value::Str(String::from_utf8(bytes).map_err(|_| "decoded bytes are not UTF-8".to_string())?)
        }
        "hex" => return checked_str(stdlib::hex(text(args, 0)?.as_bytes())),
        "roman" => Value::Str(stdlib::roman(int(args, 0)?)?),
        "unroman" => Value::Int(stdlib::unroman(text(args, 0)?)?),
        "words" => Value::Str(stdlib::words(int(args, 0)?)),
        "distance" => Value::Int(stdlib::distance(text(args, 0)?, text(args, 1)?)),
        "glob" => Value::Bool(stdlib::glob(text(args, 0)?, text(args, 1)?)),
        "caesar" => Value::Str(stdlib::caesar(text(args, 0)?, int(args, 1)?)),
        "date" => Value::Str(stdlib::date(int(args, 0)?)?),
        "days" => Value::Int(stdlib::days(text(args, 0)?)?),
        "hms" => Value::Str(stdlib::hms(int(args, 0)?)),
        "luhn" => Value::Bool(stdlib::luhn(text(args, 0)?)),
        "crc" => Value::Int(i64::from(stdlib::crc32(text(args, 0)?.as_bytes()))),
        "prime" => match int(args, 0)? {
            n @ ..=PRIME_LIMIT => Value::Bool(stdlib::is_prime(n)),
            n => return Err(format!("prime({n}): over {PRIME_LIMIT}, too large to test")),
        },
        "modpow" => Value::Int(stdlib::modpow(int(args, 0)?, int(args, 1)?, int(args, 2)?)?),
        "binom" => Value::Int(stdlib::binom(int(args, 0)?, int(args, 1)?)?),
        "lcm" => Value::Int(stdlib::lcm(int(args, 0)?, int(args, 1)?)?),
        "title" => Value::Str(stdlib::title(text(args, 0)?)),
        "center" => Value::Str(stdlib::center(text(args, 0)?, int(args, 1)?)),
        "squeeze" => Value::Str(stdlib::squeeze(text(args, 0)?)),
        "wrap" => Value::Str(stdlib::wrap(text(args, 0)?, int(args, 1)?)?),
        "soundex" => Value::Str(stdlib::soundex(text(args, 0)?)),
        "isbn" => Value::Bool(stdlib::isbn(text(args, 0)?)),
        "ordinal" => Value::Str(stdlib::ordinal(int(args, 0)?)),
        "weekday" => Value::Str(stdlib::weekday(int(args, 0)?).to_string()),
        "leap" => Value::Bool(stdlib::is_leap(int(args, 0)?)),
        _ => unreachable!("every built-in is implemented"),
    };
    Ok(v)
}

/// `base ^ exp`, by squaring; an error on overflow or a negative exponent.
pub fn pow(base: i64, exp: i64) -> Result<i64, String> {
    if exp < 0 {
        return Err(format!("pow with negative exponent {exp}"));
    }
    let mut result: i64 = 1;
    let mut b = base;
    let mut e = exp;
    while e > 0 {
        if e & 1 == 1 {
            result = result.checked_mul(b).ok_or("pow overflows")?;
        }
        e >>= 1;
        if e > 0 {
            b = b.checked_mul(b).ok_or("pow overflows")?;
        }
    }
    Ok(result)
}

/// Greatest common divisor, never negative (`gcd(0, 0) = 0`).
pub fn gcd(a: i64, b: i64) -> i64 {
    let (mut x, mut y) = (a.unsigned_abs(), b.unsigned_abs());
    while y != 0 {
        let t = x % y;
        x = y;
        y = t;
    }
    i64::try_from(x).unwrap_or(i64::MAX)
}

/// The integer square root, by Newton's method.
pub fn isqrt(n: i64) -> Result<i64, String> {
    if n < 0 {
        return Err(format!("isqrt of negative {n}"));
    }
    if n < 2 {
        return Ok(n);
    }
    let mut x = n;
    let mut y = x / 2 + (x & 1);
    while y < x {
        x = y;
        y = (x + n / x) / 2;
    }
    Ok(x)
}

/// `n` written in base `base` (2..=36), with a `-` for negatives.
pub fn radix(n: i64, base: i64) -> Result<String, String> {
    if !(2..=36).contains(&base) {
        return Err(format!("base {base} is not in 2..=36"));
    }
    let base = base as u64;
    let mut m = n.unsigned_abs();
    if m == 0 {
        return Ok("0".into());
    }
    let mut out = Vec::new();
    while m > 0 {
        let d = (m % base) as u8;
        out.push(if d < 10 { b'0' + d } else { b'a' + d - 10 });
        m /= base;
    }
    if n < 0 {
        out.push(b'-');
    }
    out.reverse();
    Ok(String::from_utf8(out).expect("ASCII digits"))
}

/// A decimal integer with an optional sign and surrounding blanks.
pub fn parse_int(s: &str) -> Result<i64, String> {
    let t = trim(s);
    let (negative, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() {
        return Err(format!("{s:?} is not a number"));
    }
    let mut value: i64 = 0;
    for c in digits.bytes() {
        if !c.is_ascii_digit() {
            return Err(format!("{s:?} is not a number"));
        }
        let d = i64::from(c - b'0');
        // Accumulate negatively, so the smallest int parses.
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_sub(d))
            .ok_or_else(|| format!("{s:?} is too large"))?;
    }
    if negative {
        Ok(value)
    } else {
        value.checked_neg().ok_or_else(|| format!("{s:?} is too large"))
    }
}

/// The chars from `start` (counted in chars), at most `len` of them; out-of-range parts
/// are empty, never an error.
pub fn substr(s: &str, start: i64, len: i64) -> String {
    if start < 0 || len <= 0 {
        return String::new();
    }
    s.chars().skip(start as usize).take(len as usize).collect()
}

/// Blanks (space, tab, newline, carriage return) removed at both ends.
pub fn trim(s: &str) -> &str {
    let blank = |c: char| c == ' ' || c == '\t' || c == '\n' || c == '\r';
    let start = s.find(|c: char| !blank(c)).unwrap_or(s.len());
    let end =
        s.rfind(|c: char| !blank(c)).map_or(start, |i| i + s[i..].chars().next().map_or(1, char::len_utf8));
    &s[start..end.max(start)]
}

/// Non-overlapping occurrences of `needle`.
pub fn count(hay: &str, needle: &str) -> Result<i64, String> {
    if needle.is_empty() {
        return Err("count of the empty string".into());
    }
    let mut n = 0;
    let mut rest = hay;
    while let Some(i) = rest.find(needle) {
        n += 1;
        rest = &rest[i + needle.len()..];
    }
    Ok(n)
}

/// Padded with spaces to `width` chars: on the left for a positive width, on the right
/// for a negative one.
pub fn pad(s: &str, width: i64) -> Result<String, String> {
    let have = s.chars().count() as i64;
    let want = width.unsigned_abs().min(MAX_STR as u64 + 1) as i64;
    if want <= have {
        return Ok(s.to_string());
    }
    let fill = " ".repeat((want - have) as usize);
    Ok(if width > 0 { format!("{fill}{s}") } else { format!("{s}{fill}") })
}

/// FNV-1a over the bytes, as a non-negative int.
pub fn hash(s: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h >> 1) as i64
}

/// Decimal digits of `n` (its sign not counted; `digits(0) = 1`).
pub fn digits(n: i64) -> i64 {
    let mut m = n.unsigned_abs();
    let mut d = 1;
    while m >= 10 {
        m /= 10;
        d += 1;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(name: &str, args: &[Value]) -> Result<Value, String> {
        call(name, args)
    }

    #[test]
    fn prime_tests_up_to_its_limit_and_refuses_larger_arguments() {
        assert_eq!(run("prime", &[Value::Int(999_999_999_989)]), Ok(Value::Bool(true)));
        assert_eq!(run("prime", &[Value::Int(PRIME_LIMIT)]), Ok(Value::Bool(false)));
        let err = run("prime", &[Value::Int(1_467_266_475_606_674_557)]).unwrap_err();
        assert!(err.contains("too large"), "{err}");
    }

    #[test]
    fn every_builtin_is_implemented() {
        for (name, params, ret) in BUILTINS {
            let args: Vec<Value> = params.iter().map(|&t| Value::zero(t)).collect();
            if let Ok(v) = run(name, &args) {
                assert_eq!(v.ty(), *ret, "{name}");
            }
        }
        assert!(run("nope", &[]).is_err());
        assert!(run("abs", &[]).is_err());
    }

    #[test]
    fn number_functions() {
        assert_eq!(pow(3, 4), Ok(81));
        assert_eq!(pow(-2, 63), Ok(i64::MIN));
        assert!(pow(2, 63).is_err());
        assert_eq!(pow(7, 0), Ok(1));
        assert_eq!(gcd(-12, 18), 6);
        assert_eq!(gcd(0, 0), 0);
        assert_eq!(isqrt(99), Ok(9));
        assert_eq!(isqrt(100), Ok(10));
        assert_eq!(isqrt(i64::MAX), Ok(3_037_000_499));
        assert_eq!(radix(-255, 16), Ok("-ff".into()));
        assert_eq!(radix(5, 2), Ok("101".into()));
        assert_eq!(radix(0, 7), Ok("0".into()));
        assert!(radix(1, 37).is_err());
        assert_eq!(digits(-1000), 4);
        assert_eq!(digits(9), 1);
        assert_eq!(run("log2", &[Value::Int(1024)]), Ok(Value::Int(10)));
        assert_eq!(run("clamp", &[Value::Int(9), Value::Int(0), Value::Int(5)]), Ok(Value::Int(5)));
        assert_eq!(run("abs", &[Value::Int(-4)]), Ok(Value::Int(4)));
    }

    #[test]
    fn string_functions() {
        assert_eq!(parse_int(" -9223372036854775808 "), Ok(i64::MIN));
        assert_eq!(parse_int("+42"), Ok(42));
        assert!(parse_int("9223372036854775808").is_err());
        assert!(parse_int("-").is_err());
        assert!(parse_int("1x").is_err());
        assert_eq!(substr("héllo", 1, 3), "éll");
        assert_eq!(substr("abc", 5, 1), "");
        assert_eq!(trim("  a b\n"), "a b");
        assert_eq!(trim("   "), "");
        assert_eq!(count("aaaa", "aa"), Ok(2));
        assert_eq!(pad("ab", 4), Ok("  ab".into()));
        assert_eq!(pad("ab", -3), Ok("ab ".into()));
        assert_eq!(run("find", &[Value::Str("héllo".into()), Value::Str("l".into())]), Ok(Value::Int(2)));
        assert_eq!(run("chr", &[Value::Int(65)]), Ok(Value::Str("A".into())));
        assert!(run("chr", &[Value::Int(0xD800)]).is_err());
        assert_eq!(hash(""), (0xcbf2_9ce4_8422_2325u64 >> 1) as i64);
        assert_ne!(hash("a"), hash("b"));
    }
}
