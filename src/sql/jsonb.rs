//! `jsonb` as PostgreSQL keeps it: one value per key (the last written wins),
//! keys in PostgreSQL's order (shorter first, then by bytes), and printed as
//! PostgreSQL prints it (`{"a": 1, "b": [1, 2]}`). litewire stores a jsonb
//! value as that text, so that it reads back, compares and prints as in
//! PostgreSQL; this module reads JSON text, writes that form, and answers the
//! operators that look inside (paths, containment).

use serde_json::Value;

/// JSON text read as a value (the error is for PostgreSQL's message).
pub fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// A value written as PostgreSQL writes `jsonb`.
pub fn format(value: &Value) -> String {
    let mut out = String::new();
    write(value, &mut out);
    out
}

/// A value as `jsonb_pretty` writes it: each member and element on a line
/// of its own, indented four spaces a level.
pub fn pretty(value: &Value) -> String {
    let mut out = String::new();
    write_pretty(value, 0, &mut out);
    out
}

fn write_pretty(value: &Value, depth: usize, out: &mut String) {
    let indent = |out: &mut String, depth: usize| out.push_str(&"    ".repeat(depth));
    match value {
        Value::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                indent(out, depth + 1);
                write_pretty(item, depth + 1, out);
            }
            if !items.is_empty() {
                out.push('\n');
            }
            indent(out, depth);
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
            out.push_str("{\n");
            for (i, key) in keys.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                indent(out, depth + 1);
                out.push_str(&Value::String((*key).clone()).to_string());
                out.push_str(": ");
                write_pretty(&map[*key], depth + 1, out);
            }
            if !keys.is_empty() {
                out.push('\n');
            }
            indent(out, depth);
            out.push('}');
        }
        scalar => write(scalar, out),
    }
}

/// JSON text in `jsonb`'s form, if it is JSON.
pub fn normalize(text: &str) -> Result<String, String> {
    parse(text).map(|v| format(&v))
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => out.push_str(&Value::String(s.clone()).to_string()),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push_str(": ");
                write(&map[key], out);
            }
            out.push('}');
        }
    }
}

/// One step of a path: an object's key, or an array's index (negative from
/// the end), as `->` and `#>` take them.
pub fn step<'v>(value: &'v Value, key: &str) -> Option<&'v Value> {
    match value {
        Value::Object(map) => map.get(key),
        Value::Array(items) => {
            let index: i64 = key.trim().parse().ok()?;
            let index = match index < 0 {
                true => usize::try_from(items.len() as i64 + index).ok()?,
                false => usize::try_from(index).ok()?,
            };
            items.get(index)
        }
        _ => None,
    }
}

/// What `->>` and `#>>` give: a string's text, anything else as JSON, JSON
/// null as SQL NULL.
pub fn as_text(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(format(other)),
    }
}

/// `a @> b`: whether `a` contains `b`, as PostgreSQL's jsonb containment
/// reads it (objects by their pairs, arrays by their elements in any order,
/// an array containing a bare scalar).
pub fn contains(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => b
            .iter()
            .all(|(k, bv)| a.get(k).is_some_and(|av| contains(av, bv))),
        (Value::Array(a), Value::Array(b)) => b.iter().all(|bv| {
            a.iter().any(|av| match (av, bv) {
                (Value::Array(_) | Value::Object(_), _)
                | (_, Value::Array(_) | Value::Object(_)) => {
                    std::mem::discriminant(av) == std::mem::discriminant(bv) && contains(av, bv)
                }
                _ => av == bv,
            })
        }),
        (Value::Array(a), scalar) if !scalar.is_array() && !scalar.is_object() => {
            a.iter().any(|av| av == scalar)
        }
        (a, b) => a == b,
    }
}

/// `j ? key`: a top-level key of an object, or a string element of an array.
pub fn has_key(value: &Value, key: &str) -> bool {
    match value {
        Value::Object(map) => map.contains_key(key),
        Value::Array(items) => items.iter().any(|i| i.as_str() == Some(key)),
        Value::String(s) => s == key,
        _ => false,
    }
}

/// `a || b`: objects merged (b's keys win), arrays and other values joined
/// as arrays.
pub fn concat(a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Object(mut a), Value::Object(b)) => {
            a.extend(b);
            Value::Object(a)
        }
        (a, b) => {
            let mut items = match a {
                Value::Array(items) => items,
                other => vec![other],
            };
            match b {
                Value::Array(more) => items.extend(more),
                other => items.push(other),
            }
            Value::Array(items)
        }
    }
}

/// `jsonb_typeof`.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonb_prints_and_compares_as_postgres() {
        assert_eq!(
            normalize(r#"{"b":1,  "a": [1,2], "b": 3}"#).unwrap(),
            r#"{"a": [1, 2], "b": 3}"#
        );
        assert_eq!(
            normalize(r#"{"aa":1,"b":2}"#).unwrap(),
            r#"{"b": 2, "aa": 1}"#
        );
        let a = parse(r#"{"a":1,"b":[1,2,{"c":3}]}"#).unwrap();
        assert!(contains(&a, &parse(r#"{"b":[{"c":3}]}"#).unwrap()));
        assert!(!contains(&a, &parse(r#"{"b":[3]}"#).unwrap()));
        assert!(contains(&parse("[1,2]").unwrap(), &parse("1").unwrap()));
        assert_eq!(
            step(&parse("[1,2,3]").unwrap(), "-1"),
            Some(&Value::from(3))
        );
    }
}
