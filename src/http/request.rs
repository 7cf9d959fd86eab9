//! Decoding the JSON body of `POST /`.
//!
//! `{"statements": [ "SQL" | {"q": "SQL", "params": [..] | {"name": v}} ]}`. Every
//! malformed part is reported precisely (which statement, which field); nothing
//! runs unless the whole request is valid.

use base64::Engine as _;
use serde_json::{Map, Value as Json};

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
    let json: Json = serde_json::from_slice(body).map_err(|e| bad(format!("invalid JSON: {e}")))?;
    let Json::Object(mut top) = json else {
        return Err(bad(
            "the body must be a JSON object with a \"statements\" array",
        ));
    };
    if let Some(key) = top.keys().find(|k| *k != "statements") {
        return Err(bad(format!("unknown key \"{key}\"")));
    }
    let Some(Json::Array(statements)) = top.remove("statements") else {
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

fn parse_statement(item: Json) -> Result<(Statement, Vec<Value>), BadRequest> {
    let (sql, params) = match item {
        Json::String(sql) => (sql, None),
        Json::Object(mut fields) => {
            if let Some(key) = fields
                .keys()
                .find(|k| !matches!(k.as_str(), "q" | "params"))
            {
                return Err(bad(format!("unknown key \"{key}\"")));
            }
            let Some(Json::String(sql)) = fields.remove("q") else {
                return Err(bad("\"q\" must be a string"));
            };
            (sql, fields.remove("params"))
        }
        _ => return Err(bad("a statement is a string or an object with \"q\"")),
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
        None | Some(Json::Null) => Ok((statement, Vec::new())),
        Some(Json::Array(values)) => {
            let values = values
                .into_iter()
                .map(value)
                .collect::<Result<Vec<_>, _>>()?;
            Ok((statement, values))
        }
        Some(Json::Object(map)) => bind_named(statement, map),
        Some(_) => Err(bad("\"params\" must be an array or an object")),
    }
}

/// Named values match `:x`, `@x` and `$x` in the SQL, keyed with or without prefix.
fn bind_named(
    statement: Statement,
    mut map: Map<String, Json>,
) -> Result<(Statement, Vec<Value>), BadRequest> {
    let (statement, names) = sql::number_named_params(&statement);
    let mut values = Vec::with_capacity(names.len());
    for name in &names {
        let json = [
            name.clone(),
            format!(":{name}"),
            format!("@{name}"),
            format!("${name}"),
        ]
        .iter()
        .find_map(|key| map.remove(key))
        .ok_or_else(|| bad(format!("no value for parameter \"{name}\"")))?;
        values.push(value(json)?);
    }
    if let Some(extra) = map.keys().next() {
        return Err(bad(format!(
            "parameter \"{extra}\" does not appear in the statement"
        )));
    }
    Ok((statement, values))
}

fn value(json: Json) -> Result<Value, BadRequest> {
    Ok(match json {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Integer(i64::from(b)),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Real(
                n.as_f64()
                    .ok_or_else(|| bad(format!("number {n} is out of range")))?,
            ),
        },
        Json::String(s) => Value::Text(s),
        Json::Object(mut o) if o.len() == 1 => match o.remove("base64") {
            Some(Json::String(b64)) => Value::Blob(
                base64::engine::general_purpose::STANDARD
                    .decode(b64)
                    .map_err(|e| bad(format!("invalid base64: {e}")))?,
            ),
            _ => return Err(bad("an object value must be {\"base64\": \"...\"}")),
        },
        _ => {
            return Err(bad(
                "a value must be null, a number, a string, a boolean or {\"base64\": \"...\"}",
            ));
        }
    })
}

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
}
