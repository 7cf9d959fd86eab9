//! `json` values read as the text they were written as: PostgreSQL keeps a
//! `json` value verbatim (its spacing, key order and duplicate keys), and
//! what `->`, `#>`, `json_each` and the like take out of one is the written
//! text of that part, not a re-serialized copy. This finds those parts'
//! spans in valid JSON text without building values.

/// The spans of an object's members (each key decoded) or an array's
/// elements (keys `None`), in order; `None` for a scalar or malformed text.
pub fn children(text: &str) -> Option<Vec<(Option<String>, &str)>> {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    let object = match bytes.get(at)? {
        b'{' => true,
        b'[' => false,
        _ => return None,
    };
    let close = if object { b'}' } else { b']' };
    at = skip_space(bytes, at + 1);
    let mut out = Vec::new();
    if bytes.get(at) == Some(&close) {
        return Some(out);
    }
    loop {
        let key = match object {
            true => {
                let end = string_end(bytes, at)?;
                let key: String = serde_json::from_str(text.get(at..end)?).ok()?;
                at = skip_space(bytes, end);
                if bytes.get(at) != Some(&b':') {
                    return None;
                }
                at = skip_space(bytes, at + 1);
                Some(key)
            }
            false => None,
        };
        let end = value_end(bytes, at)?;
        out.push((key, text.get(at..end)?));
        at = skip_space(bytes, end);
        match bytes.get(at)? {
            b',' => at = skip_space(bytes, at + 1),
            c if *c == close => return Some(out),
            _ => return None,
        }
    }
}

/// One step into a value: an object's member named `key` (the last, as
/// PostgreSQL's json functions take the last of duplicate keys), or an
/// array's element at `key` read as an index (from the end when negative).
pub fn step<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let children = children(text)?;
    match children.first() {
        Some((Some(_), _)) => children
            .iter()
            .rev()
            .find(|(name, _)| name.as_deref() == Some(key))
            .map(|(_, span)| *span),
        Some((None, _)) => {
            let index: i64 = key.trim().parse().ok()?;
            let len = i64::try_from(children.len()).ok()?;
            let index = if index < 0 { len + index } else { index };
            let index = usize::try_from(index).ok()?;
            children.get(index).map(|(_, span)| *span)
        }
        None => None,
    }
}

/// A span as `->>` gives it: a string unquoted, JSON null as `None`, any
/// other value as written.
pub fn as_text(span: &str) -> Option<String> {
    match span.as_bytes().first() {
        Some(b'"') => serde_json::from_str(span).ok(),
        _ if span == "null" => None,
        _ => Some(span.to_owned()),
    }
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(|b| b.is_ascii_whitespace()) {
        at += 1;
    }
    at
}

/// The end of the string starting at `at` (its closing quote's next byte).
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let mut i = at + 1;
    loop {
        match bytes.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// The end of the value starting at `at`.
fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => string_end(bytes, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match bytes.get(i)? {
                    b'"' => {
                        i = string_end(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let mut i = at;
            while bytes
                .get(i)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
            {
                i += 1;
            }
            (i > at).then_some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_keep_their_written_text() {
        let text = r#"{"a":1,  "b": [1,2, {"c" : "x\"y"}], "a": {"d":  null}}"#;
        assert_eq!(step(text, "b"), Some(r#"[1,2, {"c" : "x\"y"}]"#));
        assert_eq!(step(text, "a"), Some(r#"{"d":  null}"#));
        assert_eq!(step(text, "z"), None);
        let array = step(text, "b").unwrap_or_default();
        assert_eq!(step(array, "-1"), Some(r#"{"c" : "x\"y"}"#));
        assert_eq!(step(array, "1"), Some("2"));
        assert_eq!(step(array, "5"), None);
        assert_eq!(as_text(r#""x\"y""#).as_deref(), Some("x\"y"));
        assert_eq!(as_text("null"), None);
        assert_eq!(children(" [ ] ").map(|c| c.len()), Some(0));
        assert_eq!(children("1"), None);
    }
}
