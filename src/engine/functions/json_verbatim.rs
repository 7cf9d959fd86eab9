//! `->`, `->>`, `#>`, `#>>` and `json_extract_path[_text]` of a `json`
//! value (not `jsonb`): the part's text as it was written (see
//! `sql::json_spans`), as PostgreSQL's `json` gives it.

use super::arrays::parse_array;
use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use super::json::truth;
use crate::sql::json_spans::{as_text, step};

pub(super) const FUNCTIONS: &[Function] = &[
    Function::helper(
        "litewire_json_text_get",
        Args::Fixed(&["json", "text", "bool"]),
        Volatility::Immutable,
        get,
    ),
    Function::helper(
        "litewire_json_text_path",
        Args::Fixed(&["json", "text[]", "bool"]),
        Volatility::Immutable,
        path,
    ),
    Function::helper(
        "litewire_json_text_path_of",
        Args::Variadic("text"),
        Volatility::Immutable,
        path_of,
    ),
];

/// The part `keys` lead to, as JSON or (`as_text`) as `->>` gives it.
fn answer(json: &str, keys: &[Option<String>], as_text_wanted: bool) -> Out {
    let found = keys
        .iter()
        .try_fold(json.trim(), |at, key| step(at, key.as_deref()?));
    match found {
        Some(span) if as_text_wanted => as_text(span).map_or(Out::Null, Out::Text),
        Some(span) => Out::Text(span.to_owned()),
        None => Out::Null,
    }
}

/// `litewire_json_text_get(j, key, as_text)`: `j -> key`, `j ->> key`.
fn get(_: &Call, args: &[Arg]) -> Out {
    let (Some(json), Some(key)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    answer(&json, &[Some(key)], truth(&args[2]))
}

/// `litewire_json_text_path(j, path, as_text)`: `j #> path`, `j #>> path`.
fn path(_: &Call, args: &[Arg]) -> Out {
    let (Some(json), Some(keys)) = (args[0].text(), args[1].text().and_then(|p| parse_array(&p)))
    else {
        return Out::Null;
    };
    answer(&json, &keys, truth(&args[2]))
}

/// `litewire_json_text_path_of(as_text, j, key, ...)`: `json_extract_path[_text]`.
fn path_of(_: &Call, args: &[Arg]) -> Out {
    let [flag, json, keys @ ..] = args else {
        return Out::Null;
    };
    let Some(json) = json.text() else {
        return Out::Null;
    };
    let keys: Vec<Option<String>> = keys.iter().map(Arg::text).collect();
    answer(&json, &keys, truth(flag))
}
