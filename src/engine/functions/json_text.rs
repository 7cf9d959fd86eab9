//! JSON written as `json` writes it, where `jsonb` would write it otherwise:
//! `json_agg` (`, ` between values, a line break before each array or row
//! after the first), `json_object_agg` (`{ "a" : 1, "b" : 2 }`) and
//! `json_object` of text arrays (`{"a" : "1"}`, or `jsonb`'s form for
//! `jsonb_object`). The values arrive as JSON text already.

use serde_json::Value;

use super::aggregate::{Accumulator, callbacks};
use super::array_elements::{array_shape, sub_arrays};
use super::arrays::parse_array;
use super::call::{Arg, Call, Out};
use super::definition::{Args, Body, Function, Volatility};
use crate::error::SqlState;
use crate::sql::jsonb;

const fn aggregate(name: &'static str, args: &'static [&'static str], body: Body) -> Function {
    Function {
        name,
        args: Args::Fixed(args),
        result: "json",
        volatility: Volatility::Immutable,
        body,
        listed: false,
    }
}

pub(super) const FUNCTIONS: &[Function] = &[
    aggregate(
        "litewire_json_agg",
        &["json", "bool"],
        Body::Aggregate(callbacks::<JsonAgg>()),
    ),
    aggregate(
        "litewire_json_object_agg",
        &["text", "json"],
        Body::Aggregate(callbacks::<JsonObjectAgg>()),
    ),
    Function::helper(
        "litewire_json_object",
        Args::Variadic("any"),
        Volatility::Immutable,
        json_object,
    ),
];

/// `json_agg`'s state: the array so far, as PostgreSQL writes it.
#[derive(Default)]
struct JsonAgg(Option<String>);

impl Accumulator for JsonAgg {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        let value = args.first().and_then(Arg::text);
        let structured = matches!(args.get(1), Some(Arg::Int(i)) if *i != 0);
        match &mut self.0 {
            None => self.0 = Some(String::from("[")),
            Some(array) => {
                array.push_str(", ");
                // An array or row that is NULL reaches here as JSON's `null`.
                if structured && value.as_deref().is_some_and(|v| v != "null") {
                    array.push_str("\n ");
                }
            }
        }
        if let Some(array) = &mut self.0 {
            array.push_str(value.as_deref().unwrap_or("null"));
        }
        Ok(())
    }

    fn finish(self) -> Out {
        match self.0 {
            Some(mut array) => {
                array.push(']');
                Out::Text(array)
            }
            None => Out::Null,
        }
    }
}

/// `json_object_agg`'s state: the object so far, as PostgreSQL writes it.
#[derive(Default)]
struct JsonObjectAgg(Option<String>);

impl Accumulator for JsonObjectAgg {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        let Some(key) = args.first().and_then(Arg::text) else {
            return Err(Out::Fail(
                SqlState::INVALID_PARAMETER_VALUE,
                "field name must not be null".into(),
            ));
        };
        let value = args.get(1).and_then(Arg::text);
        let object = self.0.get_or_insert_with(|| String::from("{ "));
        if object.len() > 2 {
            object.push_str(", ");
        }
        object.push_str(&Value::String(key).to_string());
        object.push_str(" : ");
        object.push_str(value.as_deref().unwrap_or("null"));
        Ok(())
    }

    fn finish(self) -> Out {
        match self.0 {
            Some(mut object) => {
                object.push_str(" }");
                Out::Text(object)
            }
            None => Out::Null,
        }
    }
}

fn even(message: &str) -> Out {
    Out::Fail(SqlState::ARRAY_SUBSCRIPT_ERROR, message.into())
}

/// `litewire_json_object(jsonb, pairs)` or `(jsonb, keys, values)`:
/// `json_object` (`jsonb_object` where `jsonb` is 1) of a text array of
/// keys and values (one-dimensional, alternating, or two columns), or of an
/// array of keys and one of values.
fn json_object(_: &Call, args: &[Arg]) -> Out {
    let jsonb = matches!(args.first(), Some(Arg::Int(1)));
    let texts: Vec<Option<String>> = args[1..].iter().map(Arg::text).collect();
    let pairs = match texts.as_slice() {
        [Some(pairs)] => match sub_arrays(pairs) {
            Some(rows) => {
                let mut flat = Vec::new();
                for row in rows {
                    match parse_array(row) {
                        Some(items) if items.len() == 2 => flat.extend(items),
                        Some(_) => return even("array must have two columns"),
                        None => return even("wrong number of array subscripts"),
                    }
                }
                flat
            }
            None => match parse_array(pairs) {
                Some(items) if items.len() % 2 == 0 => items,
                Some(_) => return even("array must have even number of elements"),
                None => return even("wrong number of array subscripts"),
            },
        },
        [Some(keys), Some(values)] => {
            let (Some((key_dims, keys)), Some((value_dims, values))) =
                (array_shape(keys), array_shape(values))
            else {
                return even("wrong number of array subscripts");
            };
            if key_dims != value_dims || key_dims.len() > 1 {
                return even("mismatched array dimensions");
            }
            keys.into_iter()
                .zip(values)
                .flat_map(|(k, v)| [k, v])
                .collect()
        }
        _ => return Out::Null,
    };
    let mut object = serde_json::Map::new();
    let mut written = String::from("{");
    for pair in pairs.chunks(2) {
        let Some(key) = &pair[0] else {
            return Out::Fail(
                SqlState::NULL_VALUE_NOT_ALLOWED,
                "null value not allowed for object key".into(),
            );
        };
        let value = pair[1].clone().map_or(Value::Null, Value::String);
        if written.len() > 1 {
            written.push_str(", ");
        }
        written.push_str(&format!("{} : {value}", Value::String(key.clone())));
        object.insert(key.clone(), value);
    }
    written.push('}');
    match jsonb {
        true => Out::Text(jsonb::format(&Value::Object(object))),
        false => Out::Text(written),
    }
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    #[test]
    fn json_arrays_break_lines_before_structured_values() {
        let mut agg = JsonAgg::default();
        for value in ["{\"a\":1}", "{\"a\":2}"] {
            agg.step(&[Arg::Text(value), Arg::Int(1)]).unwrap();
        }
        agg.step(&[Arg::Null, Arg::Int(1)]).unwrap();
        assert_eq!(
            agg.finish(),
            Out::Text("[{\"a\":1}, \n {\"a\":2}, null]".into())
        );
    }

    #[test]
    fn objects_are_written_as_json_writes_them() {
        let mut agg = JsonObjectAgg::default();
        agg.step(&[Arg::Text("a"), Arg::Text("1")]).unwrap();
        agg.step(&[Arg::Text("b"), Arg::Null]).unwrap();
        assert_eq!(
            agg.finish(),
            Out::Text("{ \"a\" : 1, \"b\" : null }".into())
        );
        assert_eq!(
            call(json_object, &[Arg::Int(0), Arg::Text("{{a,1},{b,NULL}}")]),
            Out::Text("{\"a\" : \"1\", \"b\" : null}".into())
        );
        assert_eq!(
            call(
                json_object,
                &[Arg::Int(1), Arg::Text("{b,a}"), Arg::Text("{1,2}")]
            ),
            Out::Text("{\"a\": \"2\", \"b\": \"1\"}".into())
        );
    }
}
