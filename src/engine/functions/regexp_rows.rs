//! Regular expressions that give many values: `regexp_split_to_array`, and
//! the set-returning `regexp_matches` and `regexp_split_to_table`, which the
//! PostgreSQL port's translation reads through `json_each` of the JSON
//! arrays `litewire_regexp_matches` and `litewire_regexp_split` make.

use regex::Regex;

use super::arrays::format_array;
use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use super::regexps::{answer, captures_from, groups, prepare};

const IMMUTABLE: Volatility = Volatility::Immutable;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg(
        "regexp_split_to_array",
        &["text", "text"],
        "_text",
        IMMUTABLE,
        split_to_array,
    ),
    Function::pg(
        "regexp_split_to_array",
        &["text", "text", "text"],
        "_text",
        IMMUTABLE,
        split_to_array,
    ),
    Function::helper(
        "litewire_regexp_matches",
        Args::Fixed(&["text", "text", "text"]),
        IMMUTABLE,
        matches_json,
    ),
    Function::helper(
        "litewire_regexp_split",
        Args::Fixed(&["text", "text", "text"]),
        IMMUTABLE,
        split_json,
    ),
];

/// `regexp_split_to_array(text, pattern [, flags])`: the text between
/// matches; an empty match splits between characters, none at either end.
fn split_to_array(_: &Call, args: &[Arg]) -> Out {
    answer(|| {
        let (text, re, _) = prepare(args, Some(2), false, "regexp_split_to_array")?.ok_or(None)?;
        Ok(Out::Text(format_array(&split(&text, &re))))
    })
}

/// `regexp_split_to_table`'s rows, as a JSON array of strings.
fn split_json(_: &Call, args: &[Arg]) -> Out {
    answer(|| {
        let (text, re, _) = prepare(args, Some(2), false, "regexp_split_to_table")?.ok_or(None)?;
        Ok(Out::Text(
            serde_json::Value::from(split(&text, &re)).to_string(),
        ))
    })
}

/// `regexp_matches`' rows (the first match, every one with the `g` flag),
/// each a `text[]`, as a JSON array of their texts.
fn matches_json(_: &Call, args: &[Arg]) -> Out {
    answer(|| {
        let (text, re, flags) = prepare(args, Some(2), true, "regexp_matches")?.ok_or(None)?;
        let rows: Vec<String> = captures_from(&re, &text, 0)
            .take(if flags.global { usize::MAX } else { 1 })
            .map(|caps| format_array(&groups(&caps)))
            .collect();
        Ok(Out::Text(serde_json::Value::from(rows).to_string()))
    })
}

fn split(text: &str, re: &Regex) -> Vec<Option<String>> {
    let mut parts = Vec::new();
    let (mut last, mut previous_end) = (0, None);
    for m in re.find_iter(text) {
        let empty = m.start() == m.end();
        let ignored =
            empty && (m.start() == 0 || m.start() == text.len() || previous_end == Some(m.start()));
        previous_end = Some(m.end());
        if ignored {
            continue;
        }
        parts.push(Some(text[last..m.start()].to_owned()));
        last = m.end();
    }
    parts.push(Some(text[last..].to_owned()));
    parts
}
