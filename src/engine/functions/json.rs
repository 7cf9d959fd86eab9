//! JSON as the PostgreSQL port reads it: `->`, `->>`, `#>`, `#>>`, `@>`,
//! `<@`, `?`, `?|`, `?&`, `||` and `-` on jsonb, and `to_jsonb`,
//! `jsonb_build_object`/`_array`, `jsonb_agg`, `jsonb_object_agg`,
//! `jsonb_typeof`, `jsonb_array_length`, `jsonb_extract_path[_text]`,
//! `jsonb_set`, `jsonb_strip_nulls` and their `json_` twins. Values travel as
//! JSON text; results are in jsonb's form (`sql::jsonb`). SQLite has functions
//! of some of these names with its own meaning (and its `jsonb_*` return
//! blobs), so these are `litewire_`-named and the translation calls them.

use std::fmt::Write as _;

use serde_json::Value;

use super::aggregate::{Accumulator, callbacks};
use super::array_elements::sub_arrays;
use super::arrays::parse_array;
use super::call::{Arg, Call, Out, with_read};
use super::definition::{Args, Body, Function, Volatility};
use crate::error::SqlState;
use crate::sql::jsonb;
use crate::sql::time_zone::Zone;

const IMMUTABLE: Volatility = Volatility::Immutable;

const fn helper(name: &'static str, args: Args, body: super::call::Scalar) -> Function {
    Function::helper(name, args, IMMUTABLE, body)
}

const fn fixed(args: &'static [&'static str]) -> Args {
    Args::Fixed(args)
}

const fn aggregate<A: Accumulator>(name: &'static str, args: &'static [&'static str]) -> Function {
    Function {
        name,
        args: Args::Fixed(args),
        result: "jsonb",
        volatility: IMMUTABLE,
        body: Body::Aggregate(callbacks::<A>()),
        listed: false,
    }
}

pub(super) const FUNCTIONS: &[Function] = &[
    helper("litewire_jsonb_in", fixed(&["text"]), jsonb_in),
    helper(
        "litewire_json_expect",
        fixed(&["jsonb", "text", "text"]),
        expect,
    ),
    helper("litewire_to_jsonb", fixed(&["any", "text"]), to_jsonb),
    helper("litewire_json_get", fixed(&["jsonb", "text", "bool"]), get),
    helper(
        "litewire_json_path",
        fixed(&["jsonb", "text", "bool"]),
        path,
    ),
    helper("litewire_json_path_of", Args::Variadic("any"), path_of),
    helper(
        "litewire_jsonb_contains",
        fixed(&["jsonb", "jsonb"]),
        contains,
    ),
    helper("litewire_jsonb_exists", fixed(&["jsonb", "text"]), exists),
    helper(
        "litewire_jsonb_exists_any",
        fixed(&["jsonb", "text"]),
        exists_any,
    ),
    helper(
        "litewire_jsonb_exists_all",
        fixed(&["jsonb", "text"]),
        exists_all,
    ),
    helper("litewire_jsonb_concat", fixed(&["jsonb", "jsonb"]), concat),
    helper("litewire_jsonb_delete", fixed(&["jsonb", "any"]), delete),
    helper("litewire_jsonb_typeof", fixed(&["jsonb"]), type_of),
    helper(
        "litewire_jsonb_array_length",
        fixed(&["jsonb"]),
        array_length,
    ),
    helper(
        "litewire_jsonb_build_object",
        Args::Variadic("jsonb"),
        build_object,
    ),
    helper(
        "litewire_json_build_object",
        Args::Variadic("jsonb"),
        build_json_object,
    ),
    helper(
        "litewire_jsonb_build_array",
        Args::Variadic("jsonb"),
        build_array,
    ),
    helper("litewire_jsonb_set", Args::Variadic("any"), set),
    Function::pg("jsonb_pretty", &["jsonb"], "text", IMMUTABLE, pretty),
    // SQLite has a `jsonb_insert` of its own (the HTTP port's).
    helper("litewire_jsonb_insert", Args::Variadic("any"), insert),
    helper("litewire_jsonb_strip_nulls", fixed(&["jsonb"]), strip_nulls),
    aggregate::<ArrayAgg>("litewire_jsonb_agg", &["jsonb"]),
    aggregate::<ObjectAgg>("litewire_jsonb_object_agg", &["jsonb", "jsonb"]),
];

fn invalid(message: String) -> Out {
    Out::Fail(
        SqlState::INVALID_TEXT_REPRESENTATION,
        format!("invalid input syntax for type json: {message}"),
    )
}

/// A JSON argument; `Ok(None)` for NULL.
fn json(arg: &Arg) -> Result<Option<Value>, Out> {
    match arg.text() {
        None => Ok(None),
        Some(text) => jsonb::parse(&text).map(Some).map_err(invalid),
    }
}

fn shown(value: &Value) -> Out {
    Out::Text(jsonb::format(value))
}

pub(super) fn truth(arg: &Arg) -> bool {
    matches!(arg, Arg::Int(i) if *i != 0)
}

/// Runs `body` on a JSON argument, NULL for NULL.
fn with(arg: &Arg, body: impl FnOnce(Value) -> Out) -> Out {
    with_read(json(arg), body)
}

fn jsonb_in(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |v| shown(&v))
}

/// `litewire_json_expect(j, "array" | "object", function)`: `j` as it was
/// written (a `json` value's elements are their written text), if it is
/// what the set-returning `function` takes (22023 otherwise).
fn expect(_: &Call, args: &[Arg]) -> Out {
    let wanted = args[1].text().unwrap_or_default();
    let function = args[2].text().unwrap_or_default();
    with(&args[0], |v| {
        let fits = match wanted.as_str() {
            "array" => v.is_array(),
            _ => v.is_object(),
        };
        if fits {
            return args[0].unchanged();
        }
        let what = match &v {
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
            _ => "a scalar",
        };
        let message = match wanted.as_str() {
            "array" => format!("cannot extract elements from {what}"),
            _ => format!("cannot call {function} on a non-object"),
        };
        Out::Fail(SqlState::INVALID_PARAMETER_VALUE, message)
    })
}

/// `litewire_to_jsonb(value, kind)`: a SQL value as JSON, by its type's kind
/// (`bool`, `number`, `json`, `timestamp`, `timestamptz`, `array:<kind>` for
/// an array of that kind, or text for anything else).
fn to_jsonb(call: &Call, args: &[Arg]) -> Out {
    let kind = args[1].text().unwrap_or_default();
    match json_of(&args[0], &kind, call.time_zone().as_ref()) {
        Ok(value) => shown(&value),
        Err(out) => out,
    }
}

/// A SQL value as JSON, by its type's kind (see [`to_jsonb`]); a
/// timestamptz in the session's `zone` (`None`: UTC).
pub(super) fn json_of(arg: &Arg, kind: &str, zone: Option<&Zone>) -> Result<Value, Out> {
    Ok(match (arg, kind) {
        (Arg::Null, _) => Value::Null,
        (arg, "bool") => {
            Value::Bool(truth(arg) || matches!(arg.text().as_deref(), Some("t" | "true" | "1")))
        }
        (Arg::Int(i), "number") => Value::from(*i),
        (Arg::Real(f), "number") if f.is_finite() => Value::from(*f),
        (arg, "number") => match arg.text().and_then(|t| jsonb::parse(&t).ok()) {
            Some(number @ Value::Number(_)) => number,
            _ => Value::String(arg.display()),
        },
        (arg, "json") => json(arg)?.unwrap_or(Value::Null),
        (Arg::Blob(bytes), "bytea") => Value::String(bytea_text(bytes)),
        // JSON's timestamps are ISO 8601's: a `T` between date and time,
        // an offset in hours and minutes.
        (arg, kind @ ("timestamp" | "timestamptz")) => {
            let mut text = arg.display();
            if kind == "timestamptz"
                && let Some(shown) = zone.and_then(|zone| zone.show(&text))
            {
                text = shown;
            }
            let mut iso = text.replacen(' ', "T", 1);
            let offset = iso.rfind(['+', '-']).filter(|&at| at > 10);
            if kind == "timestamptz"
                && let Some(at) = offset
                && iso.len() - at == 3
            {
                iso.push_str(":00");
            }
            Value::String(iso)
        }
        (arg, kind) if kind.starts_with("array:") => {
            let text = arg.display();
            array_json(&text, &kind["array:".len()..], zone).ok_or_else(|| {
                Out::Fail(
                    SqlState::INVALID_TEXT_REPRESENTATION,
                    format!("malformed array literal: \"{text}\""),
                )
            })??
        }
        (arg, _) => Value::String(arg.display()),
    })
}

/// Bytes as `bytea`'s text shows them (`\x0102`).
pub(super) fn bytea_text(bytes: &[u8]) -> String {
    let mut hex = String::with_capacity(2 + bytes.len() * 2);
    hex.push_str("\\x");
    for byte in bytes {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// An array's text (`{1,2}`, `{{1,2},{3,4}}`) as a JSON array, its elements
/// (of kind `kind`) converted as [`json_of`] converts values.
fn array_json(text: &str, kind: &str, zone: Option<&Zone>) -> Option<Result<Value, Out>> {
    // More dimensions: each sub-array read alike.
    if let Some(parts) = sub_arrays(text) {
        let values: Option<Result<Vec<Value>, Out>> = parts
            .into_iter()
            .map(|part| array_json(part, kind, zone))
            .collect();
        return Some(values?.map(Value::Array));
    }
    let items = parse_array(text)?;
    let values: Result<Vec<Value>, Out> = items
        .into_iter()
        .map(|item| match item {
            Some(item) => json_of(&Arg::Text(&item), kind, zone),
            None => Ok(Value::Null),
        })
        .collect();
    Some(values.map(Value::Array))
}

/// `j -> key` (`as_text`: `->>`): an object's member or an array's element.
fn get(_: &Call, args: &[Arg]) -> Out {
    let Some(key) = args[1].text() else {
        return Out::Null;
    };
    let as_text = truth(&args[2]);
    with(&args[0], |v| match jsonb::step(&v, &key) {
        Some(found) if as_text => jsonb::as_text(found).map_or(Out::Null, Out::Text),
        Some(found) => shown(found),
        None => Out::Null,
    })
}

/// Follows `keys` from `value`.
fn follow<'v>(value: &'v Value, keys: &[Option<String>]) -> Option<&'v Value> {
    keys.iter()
        .try_fold(value, |at, key| jsonb::step(at, key.as_deref()?))
}

fn answer(found: Option<&Value>, as_text: bool) -> Out {
    match found {
        Some(found) if as_text => jsonb::as_text(found).map_or(Out::Null, Out::Text),
        Some(found) => shown(found),
        None => Out::Null,
    }
}

/// `j #> path` (`as_text`: `#>>`), the path a `text[]`.
fn path(_: &Call, args: &[Arg]) -> Out {
    let Some(keys) = args[1].text().and_then(|p| parse_array(&p)) else {
        return Out::Null;
    };
    let as_text = truth(&args[2]);
    with(&args[0], |v| answer(follow(&v, &keys), as_text))
}

/// `litewire_json_path_of(as_text, j, key, ...)`: `jsonb_extract_path[_text]`.
fn path_of(_: &Call, args: &[Arg]) -> Out {
    let [flag, value, keys @ ..] = args else {
        return Out::Null;
    };
    let keys: Vec<Option<String>> = keys.iter().map(Arg::text).collect();
    with(value, |v| answer(follow(&v, &keys), truth(flag)))
}

fn two(args: &[Arg], body: impl FnOnce(Value, Value) -> Out) -> Out {
    match (json(&args[0]), json(&args[1])) {
        (Ok(Some(a)), Ok(Some(b))) => body(a, b),
        (Err(out), _) | (_, Err(out)) => out,
        _ => Out::Null,
    }
}

fn contains(_: &Call, args: &[Arg]) -> Out {
    two(args, |a, b| Out::Int(i64::from(jsonb::contains(&a, &b))))
}

fn exists(_: &Call, args: &[Arg]) -> Out {
    let Some(key) = args[1].text() else {
        return Out::Null;
    };
    with(&args[0], |v| Out::Int(i64::from(jsonb::has_key(&v, &key))))
}

fn keys_test(args: &[Arg], all: bool) -> Out {
    let Some(keys) = args[1].text().and_then(|p| parse_array(&p)) else {
        return Out::Null;
    };
    with(&args[0], |v| {
        let mut present = keys.iter().flatten().map(|k| jsonb::has_key(&v, k));
        Out::Int(i64::from(if all {
            present.all(|p| p)
        } else {
            present.any(|p| p)
        }))
    })
}

fn exists_any(_: &Call, args: &[Arg]) -> Out {
    keys_test(args, false)
}

fn exists_all(_: &Call, args: &[Arg]) -> Out {
    keys_test(args, true)
}

fn concat(_: &Call, args: &[Arg]) -> Out {
    two(args, |a, b| shown(&jsonb::concat(a, b)))
}

/// `j - key` (a text key, or an integer index of an array).
fn delete(_: &Call, args: &[Arg]) -> Out {
    let key = args[1].clone();
    with(&args[0], |mut v| {
        match (&mut v, &key) {
            (Value::Object(map), key) => {
                if let Some(k) = key.text() {
                    map.remove(&k);
                }
            }
            (Value::Array(items), Arg::Int(i)) => {
                let index = if *i < 0 { items.len() as i64 + i } else { *i };
                if let Ok(index) = usize::try_from(index)
                    && index < items.len()
                {
                    items.remove(index);
                }
            }
            (Value::Array(items), key) => {
                let key = key.text();
                items.retain(|item| item.as_str() != key.as_deref());
            }
            _ => {
                return Out::Fail(
                    SqlState::INVALID_PARAMETER_VALUE,
                    "cannot delete from scalar".to_owned(),
                );
            }
        }
        shown(&v)
    })
}

fn type_of(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |v| Out::Text(jsonb::type_name(&v).to_owned()))
}

fn array_length(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |v| match v {
        Value::Array(items) => Out::Int(items.len() as i64),
        Value::Object(_) => Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            "cannot get array length of a non-array".to_owned(),
        ),
        _ => Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            "cannot get array length of a scalar".to_owned(),
        ),
    })
}

/// Every argument as JSON (NULL as `null`).
fn values(args: &[Arg]) -> Result<Vec<Value>, Out> {
    args.iter()
        .map(|a| json(a).map(|v| v.unwrap_or(Value::Null)))
        .collect()
}

/// A builder's arguments as (key, value) pairs: keys as text (22004 for a
/// NULL one), an odd count 22023.
fn pairs(args: &[Arg]) -> Result<Vec<(String, Value)>, Out> {
    if !args.len().is_multiple_of(2) {
        return Err(Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            "argument list must have even number of elements".to_owned(),
        ));
    }
    let values = values(args)?;
    values
        .chunks(2)
        .map(|pair| {
            let key = match &pair[0] {
                Value::Null => {
                    return Err(Out::Fail(
                        SqlState::NULL_VALUE_NOT_ALLOWED,
                        "argument 1: key must not be null".to_owned(),
                    ));
                }
                Value::String(s) => s.clone(),
                other => jsonb::format(other),
            };
            Ok((key, pair[1].clone()))
        })
        .collect()
}

fn build_object(_: &Call, args: &[Arg]) -> Out {
    match pairs(args) {
        Ok(pairs) => shown(&Value::Object(pairs.into_iter().collect())),
        Err(out) => out,
    }
}

/// `json_build_object`: the pairs in the order given (duplicates kept), as
/// `json` writes them (`{"a" : 1, "b" : 2}`).
fn build_json_object(_: &Call, args: &[Arg]) -> Out {
    match pairs(args) {
        Ok(pairs) => {
            let written: Vec<String> = pairs
                .into_iter()
                .map(|(key, value)| format!("{} : {}", Value::String(key), jsonb::format(&value)))
                .collect();
            Out::Text(format!("{{{}}}", written.join(", ")))
        }
        Err(out) => out,
    }
}

fn build_array(_: &Call, args: &[Arg]) -> Out {
    match values(args) {
        Ok(values) => shown(&Value::Array(values)),
        Err(out) => out,
    }
}

/// `jsonb_set(target, path, new [, create_if_missing])`.
fn set(_: &Call, args: &[Arg]) -> Out {
    let Some((keys, new)) = path_and_value(args) else {
        return Out::Null;
    };
    let create = args.get(3).is_none_or(truth);
    with(&args[0], |mut target| {
        set_at(&mut target, &keys, new, create);
        shown(&target)
    })
}

/// A path's keys (`'{a,0}'`) and a JSON value, the second and third
/// arguments of `jsonb_set` and `jsonb_insert`; `None` where one is NULL.
fn path_and_value(args: &[Arg]) -> Option<(Vec<String>, Value)> {
    let path = args
        .get(1)
        .and_then(Arg::text)
        .and_then(|p| parse_array(&p))?;
    let new = args.get(2).map_or(Ok(None), json).ok()??;
    Some((path.into_iter().flatten().collect(), new))
}

fn pretty(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |v| Out::Text(jsonb::pretty(&v)))
}

/// `jsonb_insert(target, path, new [, insert_after])`: `new` put at `path`,
/// before (or after) the array element there, or as the object's new key
/// (an existing key is 22023: `jsonb_set` replaces).
fn insert(_: &Call, args: &[Arg]) -> Out {
    let Some((keys, new)) = path_and_value(args) else {
        return Out::Null;
    };
    let after = args.get(3).is_some_and(truth);
    with(&args[0], |mut target| {
        match insert_at(&mut target, &keys, new, after) {
            Ok(()) => shown(&target),
            Err(out) => out,
        }
    })
}

fn insert_at(at: &mut Value, keys: &[String], new: Value, after: bool) -> Result<(), Out> {
    let Some((key, rest)) = keys.split_first() else {
        return Ok(());
    };
    match at {
        Value::Object(map) if rest.is_empty() => match map.contains_key(key) {
            true => Err(Out::Fail(
                SqlState::INVALID_PARAMETER_VALUE,
                "cannot replace existing key".into(),
            )),
            false => {
                map.insert(key.clone(), new);
                Ok(())
            }
        },
        Value::Object(map) => match map.get_mut(key) {
            Some(child) => insert_at(child, rest, new, after),
            None => Ok(()),
        },
        Value::Array(items) => {
            let Ok(index) = key.trim().parse::<i64>() else {
                return Err(Out::Fail(
                    SqlState::INVALID_TEXT_REPRESENTATION,
                    format!("path element at position 1 is not an integer: \"{key}\""),
                ));
            };
            let len = items.len() as i64;
            let at_index = if index < 0 { len + index } else { index };
            if !rest.is_empty() {
                return match usize::try_from(at_index) {
                    Ok(i) if i < items.len() => insert_at(&mut items[i], rest, new, after),
                    _ => Ok(()),
                };
            }
            let place = match at_index {
                i if i < 0 => 0,
                i if i >= len => items.len(),
                i => usize::try_from(i + i64::from(after)).unwrap_or(items.len()),
            };
            items.insert(place, new);
            Ok(())
        }
        _ => Ok(()),
    }
}

fn set_at(at: &mut Value, keys: &[String], new: Value, create: bool) {
    let Some((key, rest)) = keys.split_first() else {
        *at = new;
        return;
    };
    match at {
        Value::Object(map) => match map.get_mut(key) {
            Some(child) => set_at(child, rest, new, create),
            None if rest.is_empty() && create => {
                map.insert(key.clone(), new);
            }
            None => {}
        },
        Value::Array(items) => {
            let Ok(index) = key.trim().parse::<i64>() else {
                return;
            };
            let len = items.len() as i64;
            let at_index = if index < 0 { len + index } else { index };
            match usize::try_from(at_index) {
                Ok(i) if i < items.len() => set_at(&mut items[i], rest, new, create),
                _ if rest.is_empty() && create => match index < 0 {
                    true => items.insert(0, new),
                    false => items.push(new),
                },
                _ => {}
            }
        }
        _ => {}
    }
}

fn strip(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, strip(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(strip).collect()),
        other => other,
    }
}

fn strip_nulls(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |v| shown(&strip(v)))
}

/// `jsonb_agg`: every row's value (NULL as `null`) in an array; NULL over
/// no rows.
#[derive(Default)]
struct ArrayAgg(Option<Vec<Value>>);

impl Accumulator for ArrayAgg {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        let value = json(&args[0])?.unwrap_or(Value::Null);
        self.0.get_or_insert_with(Vec::new).push(value);
        Ok(())
    }

    fn finish(self) -> Out {
        self.0
            .map_or(Out::Null, |items| shown(&Value::Array(items)))
    }
}

/// `jsonb_object_agg(key, value)`.
#[derive(Default)]
struct ObjectAgg(Option<serde_json::Map<String, Value>>);

impl Accumulator for ObjectAgg {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        let key = match json(&args[0])? {
            None | Some(Value::Null) => {
                return Err(Out::Fail(
                    SqlState::NULL_VALUE_NOT_ALLOWED,
                    "field name must not be null".to_owned(),
                ));
            }
            Some(Value::String(s)) => s,
            Some(other) => jsonb::format(&other),
        };
        let value = json(&args[1])?.unwrap_or(Value::Null);
        self.0
            .get_or_insert_with(Default::default)
            .insert(key, value);
        Ok(())
    }

    fn finish(self) -> Out {
        self.0.map_or(Out::Null, |map| shown(&Value::Object(map)))
    }
}
