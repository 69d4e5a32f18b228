//! Rust identifiers made from other names: a function's name as a type's, and back.

/// `to_lower_case` → `ToLowerCase`.
pub fn camel(name: &str) -> String {
    let out: String = name
        .split('_')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let mut c = s.chars();
            c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        })
        .collect();
    // An identifier still: bech32's constant `Fe32::_6` is the variant `V6`, not `6`.
    if out.starts_with(|c: char| !c.is_alphabetic()) || out.is_empty() { format!("V{out}") } else { out }
}

/// `LowerCase` → `lower_case`.
pub fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_turn_between_snake_and_camel_case() {
        assert_eq!(camel("from_str_radix"), "FromStrRadix");
        assert_eq!(camel("sip128"), "Sip128");
        assert_eq!(snake("LowerCase"), "lower_case");
        assert_eq!(snake(&camel("bytes_quoter")), "bytes_quoter");
        // Still identifiers: bech32's `Fe32::_6`.
        assert_eq!((camel("_6"), camel("_")), ("V6".to_owned(), "V".to_owned()));
    }
}
