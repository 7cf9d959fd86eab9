//! Arrays' shapes and the search and replacement of their elements:
//! `cardinality`, `array_ndims`, `array_dims`, `array_lower`, `array_upper`,
//! `array_length`, `array_position[s]`, `array_replace`, `array_fill`,
//! `trim_array` and `string_to_array`, over PostgreSQL's array text; arrays
//! of arrays made one (`ARRAY[[1, 2], [3, 4]]`) and a boolean array's text. An
//! element is found as `IS NOT DISTINCT FROM` finds it (NULL finds NULL); a
//! boolean argument arrives as the `t` or `f` the array holds (the
//! translation shows it so).

use super::arrays::{format_array, parse_array};
use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::error::SqlState;
use crate::sql::quote::parse_bool;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::helper(
        "litewire_array_nested",
        Args::Variadic("text"),
        Volatility::Immutable,
        array_nested,
    ),
    Function::helper(
        "litewire_bool_array_text",
        Args::Fixed(&["text"]),
        Volatility::Immutable,
        bool_array_text,
    ),
    Function::immutable("cardinality", &["anyarray"], "int4", cardinality),
    Function::immutable("array_ndims", &["anyarray"], "int4", array_ndims),
    Function::immutable("array_dims", &["anyarray"], "text", array_dims),
    Function::immutable("array_lower", &["anyarray", "int4"], "int4", array_lower),
    Function::immutable("array_upper", &["anyarray", "int4"], "int4", array_upper),
    Function::immutable("array_length", &["anyarray", "int4"], "int4", array_upper),
    Function::immutable(
        "array_position",
        &["anyarray", "anyelement"],
        "int4",
        array_position,
    ),
    Function::immutable(
        "array_position",
        &["anyarray", "anyelement", "int4"],
        "int4",
        array_position,
    ),
    Function::immutable(
        "array_positions",
        &["anyarray", "anyelement"],
        "_int4",
        array_positions,
    ),
    Function::immutable(
        "array_replace",
        &["anyarray", "anyelement", "anyelement"],
        "anyarray",
        array_replace,
    ),
    Function::immutable(
        "array_fill",
        &["anyelement", "_int4"],
        "anyarray",
        array_fill,
    ),
    Function::immutable("trim_array", &["anyarray", "int4"], "anyarray", trim_array),
    Function::immutable(
        "string_to_array",
        &["text", "text"],
        "_text",
        string_to_array,
    ),
    Function::immutable(
        "string_to_array",
        &["text", "text", "text"],
        "_text",
        string_to_array,
    ),
];

/// `litewire_array_nested(array, ...)`: the arrays as one array of one more
/// dimension (`ARRAY[[1, 2], [3, 4]]`); their dimensions must match (2202E).
fn array_nested(_: &Call, args: &[Arg]) -> Out {
    let rows: Vec<String> = args.iter().filter_map(Arg::text).collect();
    let shapes: Vec<Option<Vec<usize>>> = (rows.iter())
        .map(|r| array_shape(r).map(|(dims, _)| dims))
        .collect();
    if shapes.windows(2).any(|w| w[0] != w[1]) || shapes.iter().any(Option::is_none) {
        return Out::Fail(
            SqlState::ARRAY_SUBSCRIPT_ERROR,
            "multidimensional arrays must have array expressions with matching dimensions".into(),
        );
    }
    Out::Text(format!("{{{}}}", rows.join(",")))
}

/// `litewire_bool_array_text(array)`: a boolean array's text as PostgreSQL
/// shows it, its elements `t` and `f` (an array holds them as stored, 1 and 0).
fn bool_array_text(_: &Call, args: &[Arg]) -> Out {
    let Some(array) = args[0].text() else {
        return Out::Null;
    };
    match shown_bools(&array) {
        Some(text) => Out::Text(text),
        None => Out::Error(format!("malformed array literal: \"{array}\"")),
    }
}

fn shown_bools(array: &str) -> Option<String> {
    if let Some(parts) = sub_arrays(array) {
        let shown: Option<Vec<String>> = parts.into_iter().map(shown_bools).collect();
        return Some(format!("{{{}}}", shown?.join(",")));
    }
    let items: Vec<Option<String>> = (parse_array(array)?.into_iter())
        .map(|item| match item.as_deref().map(parse_bool) {
            Some(Some(b)) => Some(if b { "t" } else { "f" }.to_owned()),
            _ => item,
        })
        .collect();
    Some(format_array(&items))
}

/// An array argument's text and the lengths of its dimensions
/// (`{{1,2},{3,4}}`: 2 and 2; none for `{}`); `Ok(None)` for NULL.
fn shape(arg: &Arg) -> Result<Option<(String, Vec<usize>)>, Out> {
    let Some(text) = arg.text() else {
        return Ok(None);
    };
    match dimensions(&text) {
        Some(dims) => Ok(Some((text, dims))),
        None => Err(malformed(&text)),
    }
}

fn malformed(text: &str) -> Out {
    Out::Fail(
        SqlState::INVALID_TEXT_REPRESENTATION,
        format!("malformed array literal: \"{text}\""),
    )
}

/// The lengths of the dimensions of an array's text, measured along its
/// first elements (PostgreSQL's arrays are rectangular).
fn dimensions(text: &str) -> Option<Vec<usize>> {
    let mut dims = Vec::new();
    let mut level = text.trim();
    loop {
        let inner = level.strip_prefix('{')?.strip_suffix('}')?;
        let items = top_level_items(inner)?;
        if items.is_empty() {
            return dims.is_empty().then_some(dims);
        }
        dims.push(items.len());
        match items[0].trim() {
            first if first.starts_with('{') => level = first,
            _ => return Some(dims),
        }
    }
}

/// The sub-arrays of a multidimensional array's text (`{{1,2},{3,4}}`: `{1,2}`
/// and `{3,4}`); `None` for a one-dimensional array or other text.
pub fn sub_arrays(text: &str) -> Option<Vec<&str>> {
    let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?;
    if !inner.trim_start().starts_with('{') {
        return None;
    }
    let parts = top_level_items(inner)?;
    Some(parts.into_iter().map(str::trim).collect())
}

/// An array's dimensions and its elements in order, however many dimensions
/// it has (`{{1,2},{3,4}}`: 2 and 2, then 1, 2, 3 and 4).
pub fn array_shape(text: &str) -> Option<(Vec<usize>, Vec<Option<String>>)> {
    // One dimension, the common case: one pass over the text.
    if sub_arrays(text).is_none() {
        let items = parse_array(text)?;
        let dims = match items.len() {
            0 => Vec::new(),
            n => vec![n],
        };
        return Some((dims, items));
    }
    let dims = dimensions(text)?;
    let mut items = Vec::new();
    collect_items(text, &mut items)?;
    Some((dims, items))
}

fn collect_items(text: &str, items: &mut Vec<Option<String>>) -> Option<()> {
    match sub_arrays(text) {
        Some(parts) => parts.into_iter().try_for_each(|p| collect_items(p, items)),
        None => {
            items.extend(parse_array(text)?);
            Some(())
        }
    }
}

/// The comma-separated parts of an array level's inside, braces and quotes
/// kept whole.
fn top_level_items(inner: &str) -> Option<Vec<&str>> {
    if inner.trim().is_empty() {
        return Some(Vec::new());
    }
    let (mut depth, mut quoted, mut escaped, mut start) = (0usize, false, false, 0);
    let mut items = Vec::new();
    for (at, c) in inner.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => quoted = !quoted,
            '{' if !quoted => depth += 1,
            '}' if !quoted => depth = depth.checked_sub(1)?,
            ',' if !quoted && depth == 0 => {
                items.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    Some(items)
}

fn int(n: usize) -> Out {
    Out::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

/// The dimension `arg` names (1 for the first), if the array has it.
fn dimension(dims: &[usize], arg: &Arg) -> Option<usize> {
    let d = usize::try_from(arg.int()?).ok()?;
    (1..=dims.len()).contains(&d).then_some(d - 1)
}

fn cardinality(_: &Call, args: &[Arg]) -> Out {
    match shape(&args[0]) {
        Ok(Some((_, dims))) if dims.is_empty() => Out::Int(0),
        Ok(Some((_, dims))) => int(dims.iter().product()),
        Ok(None) => Out::Null,
        Err(out) => out,
    }
}

fn array_ndims(_: &Call, args: &[Arg]) -> Out {
    match shape(&args[0]) {
        Ok(Some((_, dims))) if !dims.is_empty() => int(dims.len()),
        Ok(_) => Out::Null,
        Err(out) => out,
    }
}

fn array_dims(_: &Call, args: &[Arg]) -> Out {
    match shape(&args[0]) {
        Ok(Some((_, dims))) if !dims.is_empty() => {
            Out::Text(dims.iter().map(|n| format!("[1:{n}]")).collect())
        }
        Ok(_) => Out::Null,
        Err(out) => out,
    }
}

fn array_lower(_: &Call, args: &[Arg]) -> Out {
    match shape(&args[0]) {
        Ok(Some((_, dims))) if dimension(&dims, &args[1]).is_some() => Out::Int(1),
        Ok(_) => Out::Null,
        Err(out) => out,
    }
}

/// `array_upper(a, d)`, `array_length(a, d)`: the length of dimension `d`.
fn array_upper(_: &Call, args: &[Arg]) -> Out {
    match shape(&args[0]) {
        Ok(Some((_, dims))) => dimension(&dims, &args[1]).map_or(Out::Null, |d| int(dims[d])),
        Ok(None) => Out::Null,
        Err(out) => out,
    }
}

/// A one-dimensional array's elements (searching a deeper one is 0A000, as
/// in PostgreSQL); `Ok(None)` for NULL.
fn elements(arg: &Arg) -> Result<Option<Vec<Option<String>>>, Out> {
    let Some((text, dims)) = shape(arg)? else {
        return Ok(None);
    };
    if dims.len() > 1 {
        return Err(Out::Fail(
            SqlState::FEATURE_NOT_SUPPORTED,
            "searching for elements in multidimensional arrays is not supported".into(),
        ));
    }
    parse_array(&text).map(Some).ok_or_else(|| malformed(&text))
}

/// Whether an element is the value `wanted`, as `IS NOT DISTINCT FROM`
/// compares them: numbers by value, anything else by its text.
fn matches(element: &Option<String>, wanted: &Arg) -> bool {
    match (element, wanted) {
        (None, Arg::Null) => true,
        (None, _) | (_, Arg::Null) => false,
        (Some(text), Arg::Int(i)) => {
            text.trim().parse::<i64>() == Ok(*i) || text.trim().parse::<f64>() == Ok(*i as f64)
        }
        (Some(text), Arg::Real(f)) => text.trim().parse::<f64>() == Ok(*f),
        (Some(text), other) => other.text().as_deref() == Some(text.as_str()),
    }
}

fn array_position(_: &Call, args: &[Arg]) -> Out {
    let items = match elements(&args[0]) {
        Ok(Some(items)) => items,
        Ok(None) => return Out::Null,
        Err(out) => return out,
    };
    let start = match args.get(2) {
        None => 1,
        Some(Arg::Null) => {
            return Out::Fail(
                SqlState::NULL_VALUE_NOT_ALLOWED,
                "initial position must not be null".into(),
            );
        }
        Some(start) => start.int().unwrap_or(1).max(1),
    };
    let skip = usize::try_from(start - 1).unwrap_or(0);
    (items.iter().enumerate().skip(skip))
        .find(|(_, item)| matches(item, &args[1]))
        .map_or(Out::Null, |(i, _)| int(i + 1))
}

fn array_positions(_: &Call, args: &[Arg]) -> Out {
    match elements(&args[0]) {
        Ok(Some(items)) => {
            let found: Vec<Option<String>> = (items.iter().enumerate())
                .filter(|(_, item)| matches(item, &args[1]))
                .map(|(i, _)| Some((i + 1).to_string()))
                .collect();
            Out::Text(format_array(&found))
        }
        Ok(None) => Out::Null,
        Err(out) => out,
    }
}

fn array_replace(_: &Call, args: &[Arg]) -> Out {
    match elements(&args[0]) {
        Ok(Some(items)) => {
            let replaced: Vec<Option<String>> = (items.into_iter())
                .map(|item| match matches(&item, &args[1]) {
                    true => args[2].text(),
                    false => item,
                })
                .collect();
            Out::Text(format_array(&replaced))
        }
        Ok(None) => Out::Null,
        Err(out) => out,
    }
}

/// `array_fill(value, dimensions)`: an array of those dimensions, every
/// element `value`.
fn array_fill(_: &Call, args: &[Arg]) -> Out {
    let Some(text) = args[1].text() else {
        return Out::Fail(
            SqlState::NULL_VALUE_NOT_ALLOWED,
            "dimension array or low bound array cannot be null".into(),
        );
    };
    let Some(lengths) = parse_array(&text) else {
        return malformed(&text);
    };
    let lengths: Option<Vec<usize>> = (lengths.iter())
        .map(|n| n.as_deref().and_then(|n| n.trim().parse().ok()))
        .collect();
    let Some(lengths) = lengths else {
        return Out::Fail(
            SqlState::NULL_VALUE_NOT_ALLOWED,
            "dimension values cannot be null".into(),
        );
    };
    if lengths.contains(&0) || lengths.is_empty() {
        return Out::Text("{}".into());
    }
    if lengths.iter().product::<usize>() > 134_217_727 {
        return Out::Fail(
            SqlState::PROGRAM_LIMIT_EXCEEDED,
            "array size exceeds the maximum allowed (134217727)".into(),
        );
    }
    let element = format_array(&[args[0].text()]);
    let element = &element[1..element.len() - 1];
    let mut level = element.to_owned();
    for n in lengths.iter().rev() {
        level = format!("{{{}}}", vec![level; *n].join(","));
    }
    Out::Text(level)
}

fn trim_array(_: &Call, args: &[Arg]) -> Out {
    let items = match elements(&args[0]) {
        Ok(Some(items)) => items,
        Ok(None) => return Out::Null,
        Err(out) => return out,
    };
    let n = args[1].int().and_then(|n| usize::try_from(n).ok());
    match n {
        Some(n) if n <= items.len() => Out::Text(format_array(&items[..items.len() - n])),
        _ => Out::Fail(
            SqlState::ARRAY_SUBSCRIPT_ERROR,
            format!(
                "number of elements to trim must be between 0 and {}",
                items.len()
            ),
        ),
    }
}

/// `string_to_array(text, delimiter [, null_string])`: the pieces between
/// delimiters (each character where the delimiter is NULL, the whole text
/// where it is empty), those equal to `null_string` NULL.
fn string_to_array(_: &Call, args: &[Arg]) -> Out {
    let Some(text) = args[0].text() else {
        return Out::Null;
    };
    if text.is_empty() {
        return Out::Text("{}".into());
    }
    let null = args.get(2).and_then(Arg::text);
    let pieces: Vec<String> = match args[1].text() {
        None => text.chars().map(String::from).collect(),
        Some(delimiter) if delimiter.is_empty() => vec![text],
        Some(delimiter) => text.split(delimiter.as_str()).map(str::to_owned).collect(),
    };
    let items: Vec<Option<String>> = (pieces.into_iter())
        .map(|piece| (Some(&piece) != null.as_ref()).then_some(piece))
        .collect();
    Out::Text(format_array(&items))
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    #[test]
    fn shapes_are_measured_along_the_first_elements() {
        assert_eq!(dimensions("{}"), Some(vec![]));
        assert_eq!(dimensions("{1,2,3}"), Some(vec![3]));
        assert_eq!(dimensions("{{1,2},{3,4},{5,6}}"), Some(vec![3, 2]));
        assert_eq!(dimensions("{\"a,{b\",c}"), Some(vec![2]));
        assert_eq!(dimensions("1,2"), None);
        assert_eq!(
            call(array_dims, &[Arg::Text("{{1,2},{3,4},{5,6}}")]),
            Out::Text("[1:3][1:2]".into())
        );
        assert_eq!(
            call(cardinality, &[Arg::Text("{{1,2},{3,4}}")]),
            Out::Int(4)
        );
    }

    #[test]
    fn elements_are_found_as_not_distinct() {
        let array = || Arg::Text("{1,NULL,3,1}");
        assert_eq!(call(array_position, &[array(), Arg::Int(1)]), Out::Int(1));
        assert_eq!(
            call(array_position, &[array(), Arg::Int(1), Arg::Int(2)]),
            Out::Int(4)
        );
        assert_eq!(call(array_position, &[array(), Arg::Null]), Out::Int(2));
        assert_eq!(
            call(array_positions, &[array(), Arg::Int(1)]),
            Out::Text("{1,4}".into())
        );
        assert_eq!(
            call(array_replace, &[array(), Arg::Null, Arg::Int(0)]),
            Out::Text("{1,0,3,1}".into())
        );
    }

    #[test]
    fn text_splits_at_its_delimiter() {
        let split = |args: &[Arg]| call(string_to_array, args);
        assert_eq!(
            split(&[Arg::Text("a,b,,c"), Arg::Text(","), Arg::Text("")]),
            Out::Text("{a,b,NULL,c}".into())
        );
        assert_eq!(
            split(&[Arg::Text("abc"), Arg::Null]),
            Out::Text("{a,b,c}".into())
        );
        assert_eq!(
            split(&[Arg::Text("a b"), Arg::Text("")]),
            Out::Text("{\"a b\"}".into())
        );
        assert_eq!(
            split(&[Arg::Text(""), Arg::Text(",")]),
            Out::Text("{}".into())
        );
        assert_eq!(
            call(array_fill, &[Arg::Int(7), Arg::Text("{2,3}")]),
            Out::Text("{{7,7,7},{7,7,7}}".into())
        );
    }
}
