//! Decoding the JSON body of `POST /`.
//!
//! `{"statements": [ "SQL" | {"q": "SQL", "params": [..] | {"name": v}} ]}`. Every
//! malformed part is reported precisely (which statement, which field); nothing
//! runs unless the whole request is valid.
//!
//! The body is decoded straight into the request's parts, with no JSON tree in
//! between. Decoding fails only on malformed JSON: a part of the wrong kind is
//! kept as such and judged afterwards, so that a request is judged as a whole
//! document, in the same order whatever the order of its keys (a syntax error
//! anywhere first, then the top-level keys, then each statement in turn; among
//! unknown keys, the first in sorted order).

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use base64::Engine as _;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::engine::Value;
use crate::sql::{self, Plan, Statement};

/// A request that could not be understood: HTTP 400 with this message.
#[derive(Debug)]
pub struct BadRequest(pub String);

fn bad(message: impl Into<String>) -> BadRequest {
    BadRequest(message.into())
}

/// Decodes and prepares every statement of the body.
pub fn parse(body: &[u8]) -> Result<Vec<(Statement, Vec<Value>)>, BadRequest> {
    let body: Body = serde_json::from_slice(body).map_err(|e| bad(format!("invalid JSON: {e}")))?;
    let Body::Object {
        unknown_key,
        statements,
    } = body
    else {
        return Err(bad(
            "the body must be a JSON object with a \"statements\" array",
        ));
    };
    if let Some(key) = unknown_key {
        return Err(bad(format!("unknown key \"{key}\"")));
    }
    let Some(Statements::Array(statements)) = statements else {
        return Err(bad("\"statements\" must be an array"));
    };
    statements
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            parse_statement(item).map_err(|BadRequest(m)| bad(format!("statements[{i}]: {m}")))
        })
        .collect()
}

fn parse_statement(item: Item) -> Result<(Statement, Vec<Value>), BadRequest> {
    let (sql, params) = match item {
        Item::Sql(sql) => (sql, Params::Absent),
        Item::Object {
            unknown_key,
            q,
            params,
        } => {
            if let Some(key) = unknown_key {
                return Err(bad(format!("unknown key \"{key}\"")));
            }
            let Text(Some(sql)) = q else {
                return Err(bad("\"q\" must be a string"));
            };
            (sql, params)
        }
        Item::Other => return Err(bad("a statement is a string or an object with \"q\"")),
    };
    let statement = match sql::parse_single(&sql) {
        Ok(Some(statement)) => statement,
        Ok(None) => return Err(bad("empty statement")),
        Err(error) => return Err(bad(error.message)),
    };
    if matches!(statement.plan, Plan::CopyFrom(_) | Plan::CopyTo(_)) {
        return Err(bad(
            "COPY needs the PostgreSQL protocol's copy mode: over HTTP, run the SELECT or \
             INSERT itself",
        ));
    }
    match params {
        Params::Absent | Params::Null => Ok((statement, Vec::new())),
        Params::Positional(values) => {
            let values = values
                .into_iter()
                .map(|Param(value)| value)
                .collect::<Result<Vec<_>, _>>()?;
            Ok((statement, values))
        }
        Params::Named(map) => bind_named(statement, map),
        Params::Other => Err(bad("\"params\" must be an array or an object")),
    }
}

/// Named values match `:x`, `@x` and `$x` in the SQL, keyed with or without prefix.
fn bind_named(
    statement: Statement,
    mut map: BTreeMap<String, Param>,
) -> Result<(Statement, Vec<Value>), BadRequest> {
    let (statement, names) = sql::number_named_params(&statement);
    let mut values = Vec::with_capacity(names.len());
    for name in &names {
        let Param(value) = [
            name.clone(),
            format!(":{name}"),
            format!("@{name}"),
            format!("${name}"),
        ]
        .iter()
        .find_map(|key| map.remove(key))
        .ok_or_else(|| bad(format!("no value for parameter \"{name}\"")))?;
        values.push(value?);
    }
    if let Some(extra) = map.keys().next() {
        return Err(bad(format!(
            "parameter \"{extra}\" does not appear in the statement"
        )));
    }
    Ok((statement, values))
}

/// The body: an object (its `"statements"`, and the first of its other keys,
/// which it must not have), or anything else.
enum Body {
    Object {
        unknown_key: Option<String>,
        statements: Option<Statements>,
    },
    Other,
}

/// `"statements"`: an array, or anything else.
enum Statements {
    Array(Vec<Item>),
    Other,
}

/// One statement: its SQL, an object, or anything else.
enum Item {
    Sql(String),
    Object {
        unknown_key: Option<String>,
        q: Text,
        params: Params,
    },
    Other,
}

/// `"params"`: absent, `null`, an array, an object, or anything else.
enum Params {
    Absent,
    Null,
    Positional(Vec<Param>),
    Named(BTreeMap<String, Param>),
    Other,
}

/// A parameter's value, or why it cannot be one.
struct Param(Result<Value, BadRequest>);

/// A string, or (`None`) anything else.
struct Text(Option<String>);

/// The keys of the body and of a statement object: the known ones, or another.
enum Key {
    Statements,
    Q,
    Params,
    Other(String),
}

/// Any JSON value, read through to check its syntax and dropped.
struct Skip;

/// Keeps the first of the keys in sorted order, as a JSON object's map lists them.
fn keep_first(kept: &mut Option<String>, key: String) {
    if kept.as_ref().is_none_or(|first| key < *first) {
        *kept = Some(key);
    }
}

impl Key {
    fn into_name(self) -> String {
        match self {
            Key::Statements => "statements".to_owned(),
            Key::Q => "q".to_owned(),
            Key::Params => "params".to_owned(),
            Key::Other(name) => name,
        }
    }
}

impl Kind for Body {
    const EXPECTING: &'static str = "a request body";

    fn other() -> Self {
        Body::Other
    }

    fn map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut unknown_key = None;
        let mut statements = None;
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Statements => statements = Some(map.next_value()?),
                key => {
                    map.next_value::<Skip>()?;
                    keep_first(&mut unknown_key, key.into_name());
                }
            }
        }
        Ok(Body::Object {
            unknown_key,
            statements,
        })
    }
}

impl Kind for Statements {
    const EXPECTING: &'static str = "an array of statements";

    fn other() -> Self {
        Statements::Other
    }

    fn seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Statements::Array(items))
    }
}

impl Kind for Item {
    const EXPECTING: &'static str = "a statement";

    fn other() -> Self {
        Item::Other
    }

    fn string(s: &str) -> Self {
        Item::Sql(s.to_owned())
    }

    fn map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut unknown_key = None;
        let mut q = Text(None);
        let mut params = Params::Absent;
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Q => q = map.next_value()?,
                Key::Params => params = map.next_value()?,
                key => {
                    map.next_value::<Skip>()?;
                    keep_first(&mut unknown_key, key.into_name());
                }
            }
        }
        Ok(Item::Object {
            unknown_key,
            q,
            params,
        })
    }
}

impl Kind for Params {
    const EXPECTING: &'static str = "parameters";

    fn other() -> Self {
        Params::Other
    }

    fn null() -> Self {
        Params::Null
    }

    fn seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut values = Vec::new();
        while let Some(value) = seq.next_element()? {
            values.push(value);
        }
        Ok(Params::Positional(values))
    }

    fn map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut values = BTreeMap::new();
        while let Some((name, value)) = map.next_entry()? {
            // A repeated name: the last value counts.
            values.insert(name, value);
        }
        Ok(Params::Named(values))
    }
}

impl Kind for Param {
    const EXPECTING: &'static str = "a parameter value";

    fn other() -> Self {
        Param(Err(bad(
            "a value must be null, a number, a string, a boolean or {\"base64\": \"...\"}",
        )))
    }

    fn null() -> Self {
        Param(Ok(Value::Null))
    }

    fn boolean(b: bool) -> Self {
        Param(Ok(Value::Integer(i64::from(b))))
    }

    fn integer(i: i64) -> Self {
        Param(Ok(Value::Integer(i)))
    }

    fn real(f: f64) -> Self {
        Param(Ok(Value::Real(f)))
    }

    fn string(s: &str) -> Self {
        Param(Ok(Value::Text(s.to_owned())))
    }

    /// `{"base64": "..."}`: a blob. (A repeated key counts once, its last value.)
    fn map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut entries = BTreeMap::new();
        while let Some((key, Text(value))) = map.next_entry::<String, Text>()? {
            entries.insert(key, value);
        }
        if entries.len() != 1 {
            return Ok(Param::other());
        }
        Ok(Param(match entries.remove("base64") {
            Some(Some(b64)) => base64::engine::general_purpose::STANDARD
                .decode(b64)
                .map(Value::Blob)
                .map_err(|e| bad(format!("invalid base64: {e}"))),
            _ => Err(bad("an object value must be {\"base64\": \"...\"}")),
        }))
    }
}

impl Kind for Text {
    const EXPECTING: &'static str = "a string";

    fn other() -> Self {
        Text(None)
    }

    fn string(s: &str) -> Self {
        Text(Some(s.to_owned()))
    }
}

impl Kind for Key {
    const EXPECTING: &'static str = "a key";

    /// Never: a JSON object's keys are strings.
    fn other() -> Self {
        Key::Other(String::new())
    }

    fn string(s: &str) -> Self {
        match s {
            "statements" => Key::Statements,
            "q" => Key::Q,
            "params" => Key::Params,
            other => Key::Other(other.to_owned()),
        }
    }
}

impl Kind for Skip {
    const EXPECTING: &'static str = "any value";

    fn other() -> Self {
        Skip
    }
}

/// A part of the request that takes some kinds of JSON value: each kind it
/// takes is decoded as it comes; any other is read through (its syntax checked,
/// as for the rest of the body) and stands as [`Kind::other`].
trait Kind: Sized {
    const EXPECTING: &'static str;

    /// A value of a kind this part does not take.
    fn other() -> Self;

    fn null() -> Self {
        Self::other()
    }

    fn boolean(_: bool) -> Self {
        Self::other()
    }

    fn integer(_: i64) -> Self {
        Self::other()
    }

    fn real(_: f64) -> Self {
        Self::other()
    }

    fn string(_: &str) -> Self {
        Self::other()
    }

    fn seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Self::other())
    }

    fn map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        Ok(Self::other())
    }
}

/// Every part decodes whatever JSON value it finds (`deserialize_any`): the
/// decoder reads each value just as it reads one into a JSON tree, with the
/// same errors for malformed JSON.
struct KindVisitor<T>(PhantomData<T>);

impl<'de, T: Kind> Visitor<'de> for KindVisitor<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(T::EXPECTING)
    }

    fn visit_unit<E>(self) -> Result<T, E> {
        Ok(T::null())
    }

    fn visit_bool<E>(self, b: bool) -> Result<T, E> {
        Ok(T::boolean(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<T, E> {
        Ok(T::integer(i))
    }

    /// Past `i64`, an integer is taken as a float (as a JSON tree's number is).
    fn visit_u64<E>(self, u: u64) -> Result<T, E> {
        Ok(match i64::try_from(u) {
            Ok(i) => T::integer(i),
            Err(_) => T::real(u as f64),
        })
    }

    fn visit_f64<E>(self, f: f64) -> Result<T, E> {
        Ok(T::real(f))
    }

    fn visit_str<E>(self, s: &str) -> Result<T, E> {
        Ok(T::string(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::map(map)
    }
}

macro_rules! deserialize_kind {
    ($($kind:ty),*) => {$(
        impl<'de> Deserialize<'de> for $kind {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_any(KindVisitor(PhantomData))
            }
        }
    )*};
}

deserialize_kind!(Body, Statements, Item, Params, Param, Text, Key, Skip);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_strings_and_objects() {
        let batch =
            parse(br#"{"statements": ["select 1", {"q": "select ?", "params": [1.5]}]}"#).unwrap();
        assert_eq!(batch.len(), 2);
        assert_eq!(batch[1].1, vec![Value::Real(1.5)]);
    }

    #[test]
    fn named_parameters_with_or_without_prefix() {
        let (stmt, values) =
            parse(br#"{"statements": [{"q": "select :a, @b", "params": {"a": 1, "@b": {"base64": "AAE="}}}]}"#)
                .unwrap()
                .remove(0);
        assert_eq!(&*stmt.sql, "select ?1, ?2");
        assert_eq!(values, vec![Value::Integer(1), Value::Blob(vec![0, 1])]);
    }

    #[test]
    fn rejects_what_it_does_not_understand() {
        for body in [
            &b"{"[..],
            br#"{"statements": "select 1"}"#,
            br#"{"statements": [], "x": 1}"#,
            br#"{"statements": [{"q": "select 1", "parms": []}]}"#,
            br#"{"statements": [{"q": 1}]}"#,
            br#"{"statements": [{"q": "select ?", "params": [[1]]}]}"#,
            br#"{"statements": [{"q": "select :a", "params": {"b": 1}}]}"#,
        ] {
            assert!(parse(body).is_err(), "{}", String::from_utf8_lossy(body));
        }
    }

    /// Each malformed request gets the message it always got, whatever the
    /// order of its keys (syntax errors first, the first unknown key in
    /// sorted order, the last of a repeated key).
    #[test]
    fn the_same_message_for_each_malformed_request() {
        let cases = [
            (
                r##"{"##,
                r##"invalid JSON: EOF while parsing an object at line 1 column 1"##,
            ),
            (
                r##"not json"##,
                r##"invalid JSON: expected ident at line 1 column 2"##,
            ),
            (
                r##"[]"##,
                r##"the body must be a JSON object with a "statements" array"##,
            ),
            (
                r##""statements""##,
                r##"the body must be a JSON object with a "statements" array"##,
            ),
            (
                r##"{"statements": [1,2]"##,
                r##"invalid JSON: EOF while parsing an object at line 1 column 20"##,
            ),
            (
                r##"{"statements": [], "x": 1e400}"##,
                r##"invalid JSON: number out of range at line 1 column 29"##,
            ),
            (
                r##"{"statements": [{"q": 7}], "zz": 1, "aa": 2}"##,
                r##"unknown key "aa""##,
            ),
            (
                r##"{"statements": "select 1"}"##,
                r##""statements" must be an array"##,
            ),
            (
                r##"{"statements": null}"##,
                r##""statements" must be an array"##,
            ),
            (
                r##"{"extra": 1, "statements": []}"##,
                r##"unknown key "extra""##,
            ),
            (
                r##"{"statements": [], "statements": "x"}"##,
                r##""statements" must be an array"##,
            ),
            (r##"{}"##, r##""statements" must be an array"##),
            (r##"{"statements": [], "x": 1}"##, r##"unknown key "x""##),
            (
                r##"{"statements": [{"q": "select 1", "parms": []}]}"##,
                r##"statements[0]: unknown key "parms""##,
            ),
            (
                r##"{"statements": [{"params": 5, "q": "select 1", "x": 1, "b": 2}]}"##,
                r##"statements[0]: unknown key "b""##,
            ),
            (
                r##"{"statements": [{"q": 1}]}"##,
                r##"statements[0]: "q" must be a string"##,
            ),
            (
                r##"{"statements": [{"q": "select 1", "q": 1}]}"##,
                r##"statements[0]: "q" must be a string"##,
            ),
            (
                r##"{"statements": [{}]}"##,
                r##"statements[0]: "q" must be a string"##,
            ),
            (
                r##"{"statements": [7]}"##,
                r##"statements[0]: a statement is a string or an object with "q""##,
            ),
            (
                r##"{"statements": [["select 1"]]}"##,
                r##"statements[0]: a statement is a string or an object with "q""##,
            ),
            (
                r##"{"statements": ["select 1", 7]}"##,
                r##"statements[1]: a statement is a string or an object with "q""##,
            ),
            (
                r##"{"statements": ["select 1", ""]}"##,
                r##"statements[1]: empty statement"##,
            ),
            (
                r##"{"statements": ["select 1; select 2"]}"##,
                r##"statements[0]: cannot insert multiple commands into a prepared statement"##,
            ),
            (
                r##"{"statements": ["COPY t TO STDOUT"]}"##,
                r##"statements[0]: COPY needs the PostgreSQL protocol's copy mode: over HTTP, run the SELECT or INSERT itself"##,
            ),
            (
                r##"{"statements": [{"q": "select ?", "params": [[1]]}]}"##,
                r##"statements[0]: a value must be null, a number, a string, a boolean or {"base64": "..."}"##,
            ),
            (
                r##"{"statements": [{"q": "select ?", "params": [{"base64": "!!"}]}]}"##,
                r##"statements[0]: invalid base64: Invalid symbol 33, offset 0."##,
            ),
            (
                r##"{"statements": [{"q": "select ?", "params": [{"base64": 1}]}]}"##,
                r##"statements[0]: an object value must be {"base64": "..."}"##,
            ),
            (
                r##"{"statements": [{"q": "select ?", "params": [{"b64": "AA=="}]}]}"##,
                r##"statements[0]: an object value must be {"base64": "..."}"##,
            ),
            (
                r##"{"statements": [{"q": "select ?", "params": [{}]}]}"##,
                r##"statements[0]: a value must be null, a number, a string, a boolean or {"base64": "..."}"##,
            ),
            (
                r##"{"statements": [{"q": "select ?", "params": [{"base64": "AA==", "x": 1}]}]}"##,
                r##"statements[0]: a value must be null, a number, a string, a boolean or {"base64": "..."}"##,
            ),
            (
                r##"{"statements": [{"q": "select ?", "params": [{"base64": "AAE=", "base64": 1}]}]}"##,
                r##"statements[0]: an object value must be {"base64": "..."}"##,
            ),
            (
                r##"{"statements": [{"q": "select ?, ?", "params": [[1], {"base64": "!!"}]}]}"##,
                r##"statements[0]: a value must be null, a number, a string, a boolean or {"base64": "..."}"##,
            ),
            (
                r##"{"statements": [{"q": "select :a", "params": {"b": 1}}]}"##,
                r##"statements[0]: no value for parameter "a""##,
            ),
            (
                r##"{"statements": [{"q": "select :a", "params": {"a": 1, "c": 2, "b": 3}}]}"##,
                r##"statements[0]: parameter "b" does not appear in the statement"##,
            ),
            (
                r##"{"statements": [{"q": "select :a, :b", "params": {"b": [1]}}]}"##,
                r##"statements[0]: no value for parameter "a""##,
            ),
            (
                r##"{"statements": [{"q": "select :a, :b", "params": {"b": [1], "a": {}}}]}"##,
                r##"statements[0]: a value must be null, a number, a string, a boolean or {"base64": "..."}"##,
            ),
            (
                r##"{"statements": [{"q": "select :a", "params": {"a": 1, ":a": 2}}]}"##,
                r##"statements[0]: parameter ":a" does not appear in the statement"##,
            ),
            (
                r##"{"statements": [{"q": "select :a", "params": {"a": 1, "a": [2]}}]}"##,
                r##"statements[0]: a value must be null, a number, a string, a boolean or {"base64": "..."}"##,
            ),
            (
                r##"{"statements": [{"q": "select 1", "params": 5}]}"##,
                r##"statements[0]: "params" must be an array or an object"##,
            ),
            (
                r##"{"statements": [{"q": "select 1", "params": "x"}]}"##,
                r##"statements[0]: "params" must be an array or an object"##,
            ),
            (
                r##"{"statements": [{"q": "selec 1", "params": 5}]}"##,
                r##"statements[0]: "params" must be an array or an object"##,
            ),
            (
                r##"{"statements": [{"q": "select ?", "params": [1]}, 7]}"##,
                r##"statements[1]: a statement is a string or an object with "q""##,
            ),
            (
                r##"{"statements": ["select 1"]} x"##,
                r##"invalid JSON: trailing characters at line 1 column 30"##,
            ),
            (
                r##"{"statements": ["\ud800"]}"##,
                r##"invalid JSON: unexpected end of hex escape at line 1 column 24"##,
            ),
            (
                r##"{"statements": [], }"##,
                r##"invalid JSON: trailing comma at line 1 column 20"##,
            ),
            (
                r##"{"statements": [,]}"##,
                r##"invalid JSON: expected value at line 1 column 17"##,
            ),
            (
                r##"{"statements": [1e400]}"##,
                r##"invalid JSON: number out of range at line 1 column 21"##,
            ),
            (
                r##"{"statements": [{"q": "select 1", "params": [1e400]}]}"##,
                r##"invalid JSON: number out of range at line 1 column 50"##,
            ),
        ];
        for (body, message) in cases {
            match parse(body.as_bytes()) {
                Err(BadRequest(got)) => assert_eq!(got, message, "{body}"),
                Ok(_) => panic!("{body} was accepted"),
            }
        }
        let nested = |depth| {
            format!(
                "{{\"statements\": [{}{}]}}",
                "[".repeat(depth),
                "]".repeat(depth)
            )
        };
        let Err(BadRequest(too_deep)) = parse(nested(200).as_bytes()) else {
            panic!("200 nested arrays were accepted");
        };
        assert!(too_deep.starts_with("invalid JSON: recursion limit exceeded"));
        let Err(BadRequest(nested)) = parse(nested(100).as_bytes()) else {
            panic!("a statement of nested arrays was accepted");
        };
        assert_eq!(
            nested,
            r#"statements[0]: a statement is a string or an object with "q""#
        );
    }

    /// Values of every kind; a repeated key counts with its last value.
    #[test]
    fn decodes_every_kind_of_value() {
        let decoded = |body: &str| {
            parse(body.as_bytes())
                .unwrap()
                .into_iter()
                .map(|(statement, values)| (statement.sql.to_string(), values))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            decoded(
                r#"{"statements": [{"q": "select ?, ?, ?, ?, ?, ?, ?, ?, ?", "params": [null, true, false, -5, 18446744073709551615, 1.5e3, 9223372036854775807, "a\"b\\c\n\u00e9", {"base64": 1, "base64": "AAE="}]}]}"#
            ),
            vec![(
                "select ?, ?, ?, ?, ?, ?, ?, ?, ?".to_owned(),
                vec![
                    Value::Null,
                    Value::Integer(1),
                    Value::Integer(0),
                    Value::Integer(-5),
                    Value::Real(18446744073709551615.0),
                    Value::Real(1500.0),
                    Value::Integer(i64::MAX),
                    Value::Text("a\"b\\c\né".into()),
                    Value::Blob(vec![0, 1]),
                ]
            )]
        );
        assert_eq!(
            decoded(
                r#"{"statements": "x", "\u0073tatements": [{"q": 1, "\u0071": "select 1", "params": null}, {"q": "select 2", "params": {}}, {"q": "select 3", "params": []}]}"#
            ),
            vec![
                ("select 1".to_owned(), vec![]),
                ("select 2".to_owned(), vec![]),
                ("select 3".to_owned(), vec![]),
            ]
        );
    }
}
