//! Arrays, kept as PostgreSQL's text form (`{a,b}`) in SQLite: the functions
//! the dialect translation builds `ARRAY[...]`, subscripts, `= ANY(...)` and
//! `array_agg` from, `array_to_string`, and the text form's reader and writer,
//! which the front ends' array encoding uses too.

use super::aggregate::{Accumulator, callbacks};
use super::call::{Arg, Call, Out};
use super::definition::{Args, Body, Function, Volatility};
use crate::error::SqlState;
use crate::sql::quote::parse_bool;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg(
        "array_to_string",
        &["anyarray", "text"],
        "text",
        Volatility::Stable,
        array_to_string,
    ),
    Function::pg(
        "array_to_string",
        &["anyarray", "text", "text"],
        "text",
        Volatility::Stable,
        array_to_string,
    ),
    Function::helper(
        "litewire_array",
        Args::Variadic("any"),
        Volatility::Immutable,
        array,
    ),
    Function::helper(
        "litewire_series_json",
        Args::Fixed(&["any", "any"]),
        Volatility::Immutable,
        series_json,
    ),
    Function::helper(
        "litewire_series_json",
        Args::Fixed(&["any", "any", "any"]),
        Volatility::Immutable,
        series_json,
    ),
    Function::helper(
        "litewire_array_bool",
        Args::Fixed(&["text"]),
        Volatility::Immutable,
        array_bool,
    ),
    Function::helper(
        "litewire_array_contains",
        Args::Fixed(&["text", "any"]),
        Volatility::Immutable,
        array_contains,
    ),
    Function::helper(
        "litewire_array_contains_all",
        Args::Fixed(&["text", "text"]),
        Volatility::Immutable,
        array_contains_all,
    ),
    Function::helper(
        "litewire_array_overlaps",
        Args::Fixed(&["text", "text"]),
        Volatility::Immutable,
        array_overlaps,
    ),
    Function::helper(
        "litewire_array_json",
        Args::Fixed(&["text"]),
        Volatility::Immutable,
        array_json,
    ),
    Function::helper(
        "litewire_arrays_json",
        Args::Variadic("text"),
        Volatility::Immutable,
        arrays_json,
    ),
    Function::helper(
        "litewire_array_length",
        Args::Fixed(&["text"]),
        Volatility::Immutable,
        array_length,
    ),
    Function::helper(
        "litewire_array_element",
        Args::Fixed(&["text", "int4"]),
        Volatility::Immutable,
        array_element,
    ),
    Function::helper(
        "litewire_array_slice",
        Args::Fixed(&["text", "int4", "int4"]),
        Volatility::Immutable,
        array_slice,
    ),
    Function::helper(
        "litewire_record_field",
        Args::Fixed(&["text", "int4"]),
        Volatility::Immutable,
        record_field,
    ),
    Function::pg(
        "array_cat",
        &["anyarray", "anyarray"],
        "anyarray",
        Volatility::Immutable,
        array_cat,
    ),
    Function::pg(
        "array_append",
        &["anyarray", "anyelement"],
        "anyarray",
        Volatility::Immutable,
        array_append,
    ),
    Function::pg(
        "array_remove",
        &["anyarray", "anyelement"],
        "anyarray",
        Volatility::Immutable,
        array_remove,
    ),
    Function::pg(
        "array_prepend",
        &["anyelement", "anyarray"],
        "anyarray",
        Volatility::Immutable,
        array_prepend,
    ),
    Function {
        name: "litewire_array_agg",
        args: Args::Fixed(&["anyelement"]),
        result: "anyarray",
        volatility: Volatility::Immutable,
        body: Body::Aggregate(callbacks::<ArrayAgg>()),
        listed: false,
    },
];

/// `array_agg`'s state: every row's value, as text.
#[derive(Default)]
struct ArrayAgg(Vec<Option<String>>);

impl Accumulator for ArrayAgg {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        self.0.push(args.first().and_then(Arg::text));
        Ok(())
    }

    fn finish(self) -> Out {
        Out::Text(format_array(&self.0))
    }
}

/// `array_to_string(array, separator [, null_string])`.
fn array_to_string(_: &Call, args: &[Arg]) -> Out {
    let (Some(array), Some(sep)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    let null = args.get(2).and_then(Arg::text);
    let Some(items) = parse_array(&array) else {
        return Out::Error(format!("malformed array literal: \"{array}\""));
    };
    let parts: Vec<String> = items
        .into_iter()
        .filter_map(|item| item.or_else(|| null.clone()))
        .collect();
    Out::Text(parts.join(&sep))
}

/// An array argument's elements: none for NULL; `Err` for text that is not
/// an array.
fn items_of(arg: &Arg) -> Result<Vec<Option<String>>, Out> {
    let Some(array) = arg.text() else {
        return Ok(Vec::new());
    };
    array_or_vector(&array).ok_or_else(|| {
        Out::Fail(
            SqlState::INVALID_TEXT_REPRESENTATION,
            format!("malformed array literal: \"{array}\""),
        )
    })
}

/// `array_cat(a, b)`, `a || b` of two arrays: NULL only if both are.
fn array_cat(_: &Call, args: &[Arg]) -> Out {
    if args[0] == Arg::Null && args[1] == Arg::Null {
        return Out::Null;
    }
    match (items_of(&args[0]), items_of(&args[1])) {
        (Ok(mut first), Ok(second)) => {
            first.extend(second);
            Out::Text(format_array(&first))
        }
        (Err(out), _) | (_, Err(out)) => out,
    }
}

/// `array_append(a, e)`, `a || e`: a NULL array is an empty one.
fn array_append(_: &Call, args: &[Arg]) -> Out {
    match items_of(&args[0]) {
        Ok(mut items) => {
            items.push(args[1].text());
            Out::Text(format_array(&items))
        }
        Err(out) => out,
    }
}

/// `array_remove(a, e)`: `a` without the elements equal to `e` (NULLs for a
/// NULL `e`).
fn array_remove(_: &Call, args: &[Arg]) -> Out {
    if matches!(args[0], Arg::Null) {
        return Out::Null;
    }
    match items_of(&args[0]) {
        Ok(items) => {
            let removed = args[1].text();
            let kept: Vec<Option<String>> =
                items.into_iter().filter(|item| *item != removed).collect();
            Out::Text(format_array(&kept))
        }
        Err(out) => out,
    }
}

/// `array_prepend(e, a)`, `e || a`.
fn array_prepend(_: &Call, args: &[Arg]) -> Out {
    match items_of(&args[1]) {
        Ok(items) => {
            let mut all = vec![args[0].text()];
            all.extend(items);
            Out::Text(format_array(&all))
        }
        Err(out) => out,
    }
}

/// `litewire_array(a, b, ...)`: PostgreSQL's `ARRAY[a, b, ...]`.
fn array(_: &Call, args: &[Arg]) -> Out {
    let items: Vec<Option<String>> = args.iter().map(Arg::text).collect();
    Out::Text(format_array(&items))
}

/// `litewire_array_bool(array)`: `array::boolean[]`, each element as a boolean
/// column stores it (1 or 0), whatever PostgreSQL spelling it had (`t`, `false`).
fn array_bool(_: &Call, args: &[Arg]) -> Out {
    let Some(array) = args[0].text() else {
        return Out::Null;
    };
    let Some(items) = parse_array(&array) else {
        return Out::Error(format!("malformed array literal: \"{array}\""));
    };
    let mut bools = Vec::with_capacity(items.len());
    for item in items {
        bools.push(match item.as_deref().map(parse_bool) {
            None => None,
            Some(Some(b)) => Some(i64::from(b).to_string()),
            Some(None) => {
                return Out::Error(format!(
                    "invalid input syntax for type boolean: \"{}\"",
                    item.unwrap_or_default()
                ));
            }
        });
    }
    Out::Text(format_array(&bools))
}

/// `litewire_array_contains(array, x)`: PostgreSQL's `x = ANY(array)`.
fn array_contains(_: &Call, args: &[Arg]) -> Out {
    let (Some(array), Some(needle)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    match array_or_vector(&array) {
        Some(items) => Out::Int(i64::from(items.iter().flatten().any(|i| *i == needle))),
        None => Out::Error(format!("malformed array literal: \"{array}\"")),
    }
}

/// `litewire_array_contains_all(a, b)`: PostgreSQL's `a @> b`, every
/// element of `b` among `a`'s (a NULL element is equal to nothing).
fn array_contains_all(_: &Call, args: &[Arg]) -> Out {
    both_arrays(args, |a, b| b.iter().all(|x| x.is_some() && a.contains(x)))
}

/// `litewire_array_overlaps(a, b)`: PostgreSQL's `a && b`, an element in common.
fn array_overlaps(_: &Call, args: &[Arg]) -> Out {
    both_arrays(args, |a, b| b.iter().any(|x| x.is_some() && a.contains(x)))
}

/// An array's element as text; `None` for NULL.
type Element = Option<String>;

/// `test` of two arrays' elements, as a boolean; NULL for a NULL array.
fn both_arrays(args: &[Arg], test: fn(&[Element], &[Element]) -> bool) -> Out {
    let (Some(a), Some(b)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    match (array_or_vector(&a), array_or_vector(&b)) {
        (Some(a), Some(b)) => Out::Int(i64::from(test(&a, &b))),
        (None, _) => Out::Error(format!("malformed array literal: \"{a}\"")),
        (_, None) => Out::Error(format!("malformed array literal: \"{b}\"")),
    }
}

/// An array's elements, or a vector's (`int2vector`, `oidvector`: `1 2`, as
/// `pg_index.indkey` and `indclass` hold them): `None` for text that is
/// neither.
fn array_or_vector(text: &str) -> Option<Vec<Option<String>>> {
    if text.trim_start().starts_with('{') {
        return parse_array(text);
    }
    text.split_whitespace()
        .map(|n| n.parse::<i64>().ok().map(|n| Some(n.to_string())))
        .collect()
}

/// `litewire_array_json(array)`: the elements as a JSON array, for `json_each`.
/// A vector (`int2vector`, `oidvector`: `1 2`, as `pg_index.indkey` holds its
/// column numbers) gives numbers.
fn array_json(_: &Call, args: &[Arg]) -> Out {
    let Some(array) = args[0].text() else {
        return Out::Text("[]".into());
    };
    if !array.trim_start().starts_with('{') {
        let numbers: Option<Vec<i64>> = array.split_whitespace().map(|n| n.parse().ok()).collect();
        return match numbers {
            Some(numbers) => Out::Text(serde_json::Value::from(numbers).to_string()),
            None => Out::Error(format!("malformed vector: \"{array}\"")),
        };
    }
    match parse_array(&array) {
        Some(items) => Out::Text(serde_json::Value::from(items).to_string()),
        None => Out::Error(format!("malformed array literal: \"{array}\"")),
    }
}

/// `litewire_arrays_json(a, b, ...)`: the elements of several arrays side by
/// side, `[[a1, b1], [a2, b2], [null, b3]]`, as many rows as the longest has
/// elements and NULL where a shorter one has ended: `unnest(a, b, ...)` in
/// FROM, for `json_each`. A NULL array has no elements.
fn arrays_json(_: &Call, args: &[Arg]) -> Out {
    let mut arrays = Vec::with_capacity(args.len());
    for arg in args {
        let elements = match arg.text() {
            None => Vec::new(),
            Some(text) => match parse_array(&text) {
                Some(elements) => elements,
                None => return Out::Error(format!("malformed array literal: \"{text}\"")),
            },
        };
        arrays.push(elements);
    }
    let rows = arrays.iter().map(Vec::len).max().unwrap_or(0);
    let zipped: Vec<serde_json::Value> = (0..rows)
        .map(|row| {
            let side_by_side = arrays.iter().map(|elements| {
                elements
                    .get(row)
                    .cloned()
                    .flatten()
                    .map_or(serde_json::Value::Null, serde_json::Value::String)
            });
            serde_json::Value::Array(side_by_side.collect())
        })
        .collect();
    Out::Text(serde_json::Value::Array(zipped).to_string())
}

/// The most values `litewire_series_json` makes.
const SERIES_LIMIT: i128 = 10_000_000;

/// `litewire_series_json(start, stop[, step])`: `generate_series` over
/// integers as a JSON array, for `json_each` (which, unlike a recursive
/// query, may take the columns of the row beside it). A zero step is 22023.
fn series_json(_: &Call, args: &[Arg]) -> Out {
    let numbers: Option<Vec<i64>> = args.iter().map(Arg::int).collect();
    let Some(numbers) = numbers else {
        return Out::Null;
    };
    let (start, stop, step) = match numbers.as_slice() {
        [start, stop] => (*start, *stop, 1),
        [start, stop, step] => (*start, *stop, *step),
        _ => return Out::Null,
    };
    if step == 0 {
        return Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            "step size cannot equal zero".to_owned(),
        );
    }
    // Held in memory whole: bounded, so that no statement can exhaust it.
    let count = (i128::from(stop) - i128::from(start)) / i128::from(step) + 1;
    if count > SERIES_LIMIT {
        return Out::Fail(
            SqlState::PROGRAM_LIMIT_EXCEEDED,
            format!("generate_series over a column's values is limited to {SERIES_LIMIT} values"),
        );
    }
    let mut json = String::from("[");
    let mut value = start;
    while (step > 0 && value <= stop) || (step < 0 && value >= stop) {
        if json.len() > 1 {
            json.push(',');
        }
        json.push_str(&value.to_string());
        match value.checked_add(step) {
            Some(next) => value = next,
            None => break,
        }
    }
    json.push(']');
    Out::Text(json)
}

/// The elements of an array (`{a,b}`) or of a vector (`int2vector`,
/// `oidvector`: `1 2`), and the subscript of the first one.
fn elements(text: &str) -> Option<(Vec<Option<String>>, i64)> {
    if text.trim_start().starts_with('{') {
        return parse_array(text).map(|items| (items, 1));
    }
    Some((
        text.split_whitespace()
            .map(|s| Some(s.to_owned()))
            .collect(),
        0,
    ))
}

/// `litewire_array_element(array, i)`: PostgreSQL's `array[i]` (NULL out of
/// bounds); arrays count from 1, vectors from 0.
fn array_element(_: &Call, args: &[Arg]) -> Out {
    let (Some(array), Some(index)) = (args[0].text(), args[1].int()) else {
        return Out::Null;
    };
    let Some((items, first)) = elements(&array) else {
        return Out::Error(format!("malformed array literal: \"{array}\""));
    };
    let item = usize::try_from(index - first)
        .ok()
        .and_then(|i| items.into_iter().nth(i))
        .flatten();
    match item {
        Some(item) => match item.parse::<i64>() {
            Ok(number) => Out::Int(number),
            Err(_) => Out::Text(item),
        },
        None => Out::Null,
    }
}

/// `litewire_array_slice(array, lower, upper)`: PostgreSQL's `array[lower:upper]`
/// (a NULL bound is the array's own), counted from 1 again.
fn array_slice(_: &Call, args: &[Arg]) -> Out {
    let Some(array) = args[0].text() else {
        return Out::Null;
    };
    let Some((items, first)) = elements(&array) else {
        return Out::Error(format!("malformed array literal: \"{array}\""));
    };
    let bound = |arg: &Arg, default: i64| match arg {
        Arg::Null => Some(default),
        other => other.int(),
    };
    let last = first + items.len() as i64 - 1;
    let (Some(lower), Some(upper)) = (bound(&args[1], first), bound(&args[2], last)) else {
        return Out::Null;
    };
    let slice: Vec<Option<String>> = items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| (lower..=upper).contains(&(first + *i as i64)))
        .map(|(_, item)| item)
        .collect();
    Out::Text(format_array(&slice))
}

/// `litewire_record_field(record, n)`: the `n`th field (from 1) of a record in
/// PostgreSQL's text form, `(a,b)`.
fn record_field(_: &Call, args: &[Arg]) -> Out {
    let (Some(record), Some(position)) = (args[0].text(), args[1].int()) else {
        return Out::Null;
    };
    let Some(inner) = record
        .trim()
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
    else {
        return Out::Error(format!("malformed record literal: \"{record}\""));
    };
    let field = usize::try_from(position - 1)
        .ok()
        .and_then(|i| inner.split(',').nth(i))
        .filter(|f| !f.is_empty());
    match field {
        Some(field) => match field.parse::<i64>() {
            Ok(number) => Out::Int(number),
            Err(_) => Out::Text(field.to_owned()),
        },
        None => Out::Null,
    }
}

/// `litewire_array_length(array)`: NULL for an empty array, as PostgreSQL.
fn array_length(_: &Call, args: &[Arg]) -> Out {
    let Some(array) = args[0].text() else {
        return Out::Null;
    };
    match parse_array(&array).map(|items| items.len()) {
        Some(0) | None => Out::Null,
        Some(n) => Out::Int(n as i64),
    }
}

/// PostgreSQL's text form of a one-dimensional array.
pub fn format_array(items: &[Option<String>]) -> String {
    let parts: Vec<String> = items
        .iter()
        .map(|item| match item {
            None => "NULL".to_owned(),
            Some(s) if needs_quotes(s) => {
                format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
            }
            Some(s) => s.clone(),
        })
        .collect();
    format!("{{{}}}", parts.join(","))
}

fn needs_quotes(s: &str) -> bool {
    s.is_empty()
        || s.eq_ignore_ascii_case("null")
        || s.chars()
            .any(|c| matches!(c, '{' | '}' | ',' | '"' | '\\') || c.is_whitespace())
}

/// Reads PostgreSQL's text form of a one-dimensional array; `None` if malformed.
pub fn parse_array(text: &str) -> Option<Vec<Option<String>>> {
    let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?;
    let mut items = Vec::new();
    if inner.trim().is_empty() {
        return Some(items);
    }
    let mut chars = inner.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let item = if chars.peek() == Some(&'"') {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next()? {
                    '\\' => s.push(chars.next()?),
                    '"' => break,
                    c => s.push(c),
                }
            }
            Some(s)
        } else {
            let mut s = String::new();
            while let Some(&c) = chars.peek() {
                if c == ',' {
                    break;
                }
                s.push(c);
                chars.next();
            }
            let s = s.trim().to_owned();
            (!s.eq_ignore_ascii_case("null")).then_some(s)
        };
        items.push(item);
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        match chars.next() {
            Some(',') => continue,
            None => return Some(items),
            Some(_) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::{call, text};
    use super::*;

    #[test]
    fn arrays_round_trip() {
        let items = vec![
            Some("a".into()),
            None,
            Some("b c".into()),
            Some("".into()),
            Some("q\"x".into()),
        ];
        let text_form = format_array(&items);
        assert_eq!(text_form, r#"{a,NULL,"b c","","q\"x"}"#);
        assert_eq!(parse_array(&text_form), Some(items));
        assert_eq!(parse_array("{}"), Some(vec![]));
        assert_eq!(
            parse_array("{1, 2}"),
            Some(vec![Some("1".into()), Some("2".into())])
        );
        assert_eq!(parse_array("nope"), None);
    }

    #[test]
    fn array_functions() {
        assert_eq!(
            text(call(
                array_to_string,
                &[Arg::Text("{a,NULL,b}"), Arg::Text(", ")]
            )),
            "a, b"
        );
        assert_eq!(
            call(array_contains, &[Arg::Text("{1,2}"), Arg::Int(2)]),
            Out::Int(1)
        );
        assert_eq!(call(array_length, &[Arg::Text("{}")]), Out::Null);
        assert_eq!(
            text(call(array_json, &[Arg::Text("{x,NULL}")])),
            r#"["x",null]"#
        );
        assert_eq!(text(call(array_json, &[Arg::Text("2 1")])), "[2,1]");
        assert_eq!(text(call(array_json, &[Arg::Text("")])), "[]");
        assert!(matches!(
            call(array_json, &[Arg::Text("1 x")]),
            Out::Error(_)
        ));
        assert_eq!(
            text(call(array, &[Arg::Int(1), Arg::Text("a b")])),
            r#"{1,"a b"}"#
        );
        assert_eq!(
            text(call(array_bool, &[Arg::Text("{t,false,NULL,1}")])),
            "{1,0,NULL,1}"
        );
        assert!(matches!(
            call(array_bool, &[Arg::Text("{maybe}")]),
            Out::Error(_)
        ));
    }

    #[test]
    fn series_over_columns_are_bounded() {
        let run = |args: &[Arg]| super::super::call::tests::call(series_json, args);
        assert_eq!(
            run(&[Arg::Int(3), Arg::Int(1), Arg::Int(-1)]),
            Out::Text("[3,2,1]".into())
        );
        assert_eq!(run(&[Arg::Int(1), Arg::Int(0)]), Out::Text("[]".into()));
        assert!(matches!(
            run(&[Arg::Int(1), Arg::Int(5), Arg::Int(0)]),
            Out::Fail(..)
        ));
        assert!(matches!(
            run(&[Arg::Int(0), Arg::Int(i64::from(i32::MAX))]),
            Out::Fail(..)
        ));
    }

    #[test]
    fn subscripts_and_record_fields() {
        assert_eq!(
            call(array_element, &[Arg::Text("{4,5}"), Arg::Int(2)]),
            Out::Int(5)
        );
        assert_eq!(
            call(array_element, &[Arg::Text("{4,5}"), Arg::Int(3)]),
            Out::Null
        );
        assert_eq!(
            call(array_element, &[Arg::Text("{4,5}"), Arg::Int(0)]),
            Out::Null
        );
        assert_eq!(
            call(array_element, &[Arg::Text("4 5"), Arg::Int(0)]),
            Out::Int(4)
        );
        assert_eq!(
            text(call(array_element, &[Arg::Text("{a,b}"), Arg::Int(1)])),
            "a"
        );
        assert_eq!(
            call(record_field, &[Arg::Text("(3,1)"), Arg::Int(2)]),
            Out::Int(1)
        );
        assert!(matches!(
            call(record_field, &[Arg::Text("3,1"), Arg::Int(1)]),
            Out::Error(_)
        ));
    }
}
