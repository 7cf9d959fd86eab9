//! Rows as values on the PostgreSQL port. A whole-row reference (`t` for the
//! row of `t` in `SELECT t FROM t`, `row_to_json(t)`, `json_agg(t)`) reaches
//! SQLite as the row's columns, each with its kind (how `sql::postgres::json`
//! names a type's JSON conversion, `bytea` besides): `litewire_record` writes
//! PostgreSQL's text of the row (`(1,x,t,"{1,2}")`), `litewire_record_json`
//! its JSON object as `row_to_json` writes it (compact, the columns in their
//! order).

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use super::json::{bytea_text, json_of};
use crate::sql::time_zone::Zone;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::helper(
        "litewire_record",
        Args::Variadic("any"),
        Volatility::Immutable,
        record,
    ),
    Function::helper(
        "litewire_record_json",
        Args::Variadic("any"),
        Volatility::Immutable,
        record_json,
    ),
];

/// The kinds of a row's columns, as the translation lists them (`number,text`).
fn kinds(arg: &Arg) -> Vec<String> {
    let kinds = arg.text().unwrap_or_default();
    kinds.split(',').map(str::to_owned).collect()
}

/// `litewire_record(kinds, value, ...)`: the row's text, as PostgreSQL's
/// `record_out` writes it: each value in its type's text, NULL as nothing,
/// quoted where it is empty or holds a quote, backslash, parenthesis, comma
/// or white space.
fn record(call: &Call, args: &[Arg]) -> Out {
    let Some((kinds_arg, values)) = args.split_first() else {
        return Out::Null;
    };
    if all_null(values) {
        return Out::Null;
    }
    let kinds = kinds(kinds_arg);
    let zone = call.time_zone();
    let mut text = String::from("(");
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        let kind = kinds.get(i).map_or("text", String::as_str);
        let Some(shown) = value_text(value, kind, zone.as_ref()) else {
            continue;
        };
        let quoted = shown.is_empty()
            || shown
                .chars()
                .any(|c| matches!(c, '"' | '\\' | '(' | ')' | ',') || c.is_whitespace());
        if !quoted {
            text.push_str(&shown);
            continue;
        }
        text.push('"');
        for c in shown.chars() {
            if matches!(c, '"' | '\\') {
                text.push(c);
            }
            text.push(c);
        }
        text.push('"');
    }
    text.push(')');
    Out::Text(text)
}

/// A column's value as its type's text (`t` for true, `\x..` for bytes).
fn value_text(value: &Arg, kind: &str, zone: Option<&Zone>) -> Option<String> {
    match (value, kind) {
        (Arg::Null, _) => None,
        (Arg::Text(text), "timestamptz") if let Some(shown) = zone.and_then(|z| z.show(text)) => {
            Some(shown)
        }
        (Arg::Int(i), "bool") => Some(if *i != 0 { "t" } else { "f" }.to_owned()),
        (Arg::Blob(bytes), "bytea") => Some(bytea_text(bytes)),
        (value, _) => value.text(),
    }
}

/// Whether every column of a row is NULL: the row an outer join makes up
/// where nothing matched, which PostgreSQL reads as NULL (a stored row of
/// NULLs reads so too here).
fn all_null(values: &[Arg]) -> bool {
    values.iter().all(|v| matches!(v, Arg::Null))
}

/// `litewire_record_json(names, kinds, separator, value, ...)`: the row as a
/// JSON object, its columns named by `names` (a JSON array) in order, each
/// value converted by its kind, members joined by `separator` (`,`, or `,\n `
/// for `row_to_json(t, true)`).
fn record_json(call: &Call, args: &[Arg]) -> Out {
    let [names, kinds_arg, separator, values @ ..] = args else {
        return Out::Null;
    };
    if all_null(values) {
        return Out::Null;
    }
    let names: Vec<String> = names
        .text()
        .and_then(|n| serde_json::from_str(&n).ok())
        .unwrap_or_default();
    let kinds = kinds(kinds_arg);
    let zone = call.time_zone();
    let separator = separator.text().unwrap_or_else(|| ",".into());
    let mut json = String::from("{");
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            json.push_str(&separator);
        }
        let name = names.get(i).map_or("", String::as_str);
        json.push_str(&serde_json::Value::from(name).to_string());
        json.push(':');
        let kind = kinds.get(i).map_or("text", String::as_str);
        // A JSON value goes in as its text is, as PostgreSQL's output of it.
        if let (Arg::Text(text), "json") = (value, kind)
            && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
        {
            json.push_str(text.trim());
            continue;
        }
        match json_of(value, kind, zone.as_ref()) {
            Ok(value) => json.push_str(&value.to_string()),
            Err(out) => return out,
        }
    }
    json.push('}');
    Out::Text(json)
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    #[test]
    fn rows_are_written_as_record_out_writes_them() {
        let args = [
            Arg::Text("number,text,bool,text,text"),
            Arg::Int(1),
            Arg::Text("a b"),
            Arg::Int(1),
            Arg::Null,
            Arg::Text("say \"hi\""),
        ];
        assert_eq!(
            call(record, &args),
            Out::Text("(1,\"a b\",t,,\"say \"\"hi\"\"\")".into())
        );
        let args = [
            Arg::Text("[\"a\",\"b c\"]"),
            Arg::Text("number,array:number"),
            Arg::Text(","),
            Arg::Int(1),
            Arg::Text("{1,2}"),
        ];
        assert_eq!(
            call(record_json, &args),
            Out::Text("{\"a\":1,\"b c\":[1,2]}".into())
        );
    }
}
