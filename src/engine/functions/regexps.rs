//! PostgreSQL's regular expressions: the `~` operators (through `regexp()`,
//! which the dialect translation calls) and the `regexp_*` functions, with
//! PostgreSQL's flags (`i`, `c`, `n`/`m`, `p`, `w`, `s`, `x`, `q`, and `g`
//! where a function takes it) and its replacement syntax (`\1`, `\&`).
//!
//! Patterns run on the `regex` crate: linear time, no back-references. What
//! PostgreSQL's advanced expressions spell differently is rewritten first
//! (`\y`, `\m`, `\M`, `\Z`), and PostgreSQL's default, in which `.` and bracket
//! expressions match a newline while `^` and `$` match only at the ends, is made
//! explicit. A pattern the crate cannot run is refused with 2201B, as
//! PostgreSQL refuses an invalid one.

use std::cell::RefCell;
use std::collections::HashMap;

use regex::{Captures, Regex};

use super::arrays::format_array;
use super::call::{Arg, Call, Out};
use super::definition::{Function, Volatility};
use crate::error::SqlState;

const IMMUTABLE: Volatility = Volatility::Immutable;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::helper(
        "regexp",
        super::definition::Args::Fixed(&["text", "text"]),
        IMMUTABLE,
        tilde,
    ),
    Function::helper(
        "litewire_similar",
        super::definition::Args::Fixed(&["text", "text", "text"]),
        IMMUTABLE,
        similar,
    ),
    Function::helper(
        "litewire_substring_similar",
        super::definition::Args::Fixed(&["text", "text", "text"]),
        IMMUTABLE,
        substring_similar,
    ),
    Function::helper(
        "litewire_substring_regex",
        super::definition::Args::Fixed(&["text", "text"]),
        IMMUTABLE,
        substring_regex,
    ),
    Function::pg(
        "regexp_replace",
        &["text", "text", "text"],
        "text",
        IMMUTABLE,
        replace,
    ),
    // SQLite tells overloads apart by their number of arguments only: the
    // fourth is `flags` or `start` by what it holds.
    Function::pg(
        "regexp_replace",
        &["text", "text", "text", "text"],
        "text",
        IMMUTABLE,
        replace_four,
    ),
    Function::pg(
        "regexp_replace",
        &["text", "text", "text", "int4"],
        "text",
        IMMUTABLE,
        replace_four,
    ),
    Function::pg(
        "regexp_replace",
        &["text", "text", "text", "int4", "int4"],
        "text",
        IMMUTABLE,
        replace_nth,
    ),
    Function::pg(
        "regexp_replace",
        &["text", "text", "text", "int4", "int4", "text"],
        "text",
        IMMUTABLE,
        replace_nth,
    ),
    Function::pg(
        "regexp_match",
        &["text", "text"],
        "_text",
        IMMUTABLE,
        first_match,
    ),
    Function::pg(
        "regexp_match",
        &["text", "text", "text"],
        "_text",
        IMMUTABLE,
        first_match,
    ),
    Function::pg("regexp_like", &["text", "text"], "bool", IMMUTABLE, like),
    Function::pg(
        "regexp_like",
        &["text", "text", "text"],
        "bool",
        IMMUTABLE,
        like,
    ),
    Function::pg("regexp_count", &["text", "text"], "int4", IMMUTABLE, count),
    Function::pg(
        "regexp_count",
        &["text", "text", "int4"],
        "int4",
        IMMUTABLE,
        count,
    ),
    Function::pg(
        "regexp_count",
        &["text", "text", "int4", "text"],
        "int4",
        IMMUTABLE,
        count,
    ),
    Function::pg("regexp_instr", &["text", "text"], "int4", IMMUTABLE, instr),
    Function::pg(
        "regexp_instr",
        &["text", "text", "int4"],
        "int4",
        IMMUTABLE,
        instr,
    ),
    Function::pg(
        "regexp_instr",
        &["text", "text", "int4", "int4"],
        "int4",
        IMMUTABLE,
        instr,
    ),
    Function::pg(
        "regexp_instr",
        &["text", "text", "int4", "int4", "int4"],
        "int4",
        IMMUTABLE,
        instr,
    ),
    Function::pg(
        "regexp_instr",
        &["text", "text", "int4", "int4", "int4", "text"],
        "int4",
        IMMUTABLE,
        instr,
    ),
    Function::pg(
        "regexp_instr",
        &["text", "text", "int4", "int4", "int4", "text", "int4"],
        "int4",
        IMMUTABLE,
        instr,
    ),
    Function::pg(
        "regexp_substr",
        &["text", "text"],
        "text",
        IMMUTABLE,
        substr,
    ),
    Function::pg(
        "regexp_substr",
        &["text", "text", "int4"],
        "text",
        IMMUTABLE,
        substr,
    ),
    Function::pg(
        "regexp_substr",
        &["text", "text", "int4", "int4"],
        "text",
        IMMUTABLE,
        substr,
    ),
    Function::pg(
        "regexp_substr",
        &["text", "text", "int4", "int4", "text"],
        "text",
        IMMUTABLE,
        substr,
    ),
    Function::pg(
        "regexp_substr",
        &["text", "text", "int4", "int4", "text", "int4"],
        "text",
        IMMUTABLE,
        substr,
    ),
];

fn invalid_regex(message: String) -> Out {
    Out::Fail(
        SqlState::parse("2201B").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
        message,
    )
}

fn invalid_parameter(message: String) -> Out {
    Out::Fail(SqlState::INVALID_PARAMETER_VALUE, message)
}

/// The flags of one call, read from PostgreSQL's option letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Flags {
    insensitive: bool,
    /// `.` and bracket expressions do not match a newline.
    newline_stops_dot: bool,
    /// `^` and `$` match at every line's ends.
    lines: bool,
    expanded: bool,
    literal: bool,
    pub(super) global: bool,
}

impl Flags {
    const DEFAULT: Flags = Flags {
        insensitive: false,
        newline_stops_dot: false,
        lines: false,
        expanded: false,
        literal: false,
        global: false,
    };

    /// Reads `options`; `g` only where the function takes it.
    fn read(options: &str, global_allowed: bool, function: &str) -> Result<Flags, Out> {
        let mut flags = Flags::DEFAULT;
        for c in options.chars() {
            match c {
                'i' => flags.insensitive = true,
                'c' => flags.insensitive = false,
                'n' | 'm' => (flags.newline_stops_dot, flags.lines) = (true, true),
                'p' => (flags.newline_stops_dot, flags.lines) = (true, false),
                'w' => (flags.newline_stops_dot, flags.lines) = (false, true),
                's' => (flags.newline_stops_dot, flags.lines) = (false, false),
                'x' => flags.expanded = true,
                't' => flags.expanded = false,
                'q' => flags.literal = true,
                'b' | 'e' => {}
                'g' if global_allowed => flags.global = true,
                'g' => {
                    return Err(invalid_parameter(format!(
                        "{function}() does not support the \"global\" option"
                    )));
                }
                other => {
                    return Err(invalid_parameter(format!(
                        "invalid regular expression option: \"{other}\""
                    )));
                }
            }
        }
        Ok(flags)
    }
}

thread_local! {
    /// Compiled patterns by their text and flags: a statement applies the same
    /// one to every row.
    static PATTERNS: RefCell<HashMap<(String, Flags), Regex>> = RefCell::new(HashMap::new());
}

/// The compiled pattern for `pattern` with `flags`.
fn compile(pattern: &str, flags: Flags) -> Result<Regex, Out> {
    let key = (
        pattern.to_owned(),
        Flags {
            global: false,
            ..flags
        },
    );
    if let Some(re) = PATTERNS.with(|cache| cache.borrow().get(&key).cloned()) {
        return Ok(re);
    }
    let body = match flags.literal {
        true => regex::escape(pattern),
        false => rewrite(pattern),
    };
    let mut letters = String::new();
    for (on, letter) in [
        (!flags.newline_stops_dot, 's'),
        (flags.lines, 'm'),
        (flags.insensitive, 'i'),
        (flags.expanded, 'x'),
    ] {
        if on {
            letters.push(letter);
        }
    }
    let source = match letters.is_empty() {
        true => body,
        false => format!("(?{letters}){body}"),
    };
    let re = Regex::new(&source)
        .map_err(|e| invalid_regex(format!("invalid regular expression: {e}")))?;
    PATTERNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= 64 {
            cache.clear();
        }
        cache.insert(key, re.clone());
    });
    Ok(re)
}

/// PostgreSQL's escapes that the `regex` crate spells otherwise, outside
/// bracket expressions: `\y` (word boundary), `\Y`, `\m` (word start), `\M`
/// (word end), `\Z` (end of text).
fn rewrite(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut chars = pattern.chars().peekable();
    let mut in_brackets = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('y') if !in_brackets => out.push_str("\\b"),
                Some('Y') if !in_brackets => out.push_str("\\B"),
                Some('m') if !in_brackets => out.push_str("\\b{start}"),
                Some('M') if !in_brackets => out.push_str("\\b{end}"),
                Some('Z') if !in_brackets => out.push_str("\\z"),
                Some(next) => {
                    out.push('\\');
                    out.push(next);
                }
                None => out.push('\\'),
            },
            '[' if !in_brackets => {
                in_brackets = true;
                out.push('[');
                // A `]` right after `[` or `[^` is a member, not the end.
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            '[' if chars.peek() == Some(&':')
                || chars.peek() == Some(&'.')
                || chars.peek() == Some(&'=') =>
            {
                // A class name (`[:alpha:]`) inside brackets: copied whole.
                out.push('[');
                for d in chars.by_ref() {
                    out.push(d);
                    if d == ']' {
                        break;
                    }
                }
            }
            '[' => out.push_str("\\["),
            ']' if in_brackets => {
                in_brackets = false;
                out.push(']');
            }
            c => out.push(c),
        }
    }
    out
}

/// The text, pattern and compiled flags of a call whose flags are argument
/// `flags_at` (if given); `None` for a NULL argument.
pub(super) fn prepare(
    args: &[Arg],
    flags_at: Option<usize>,
    global_allowed: bool,
    function: &str,
) -> Result<Option<(String, Regex, Flags)>, Out> {
    let (Some(text), Some(pattern)) = (args[0].text(), args[1].text()) else {
        return Ok(None);
    };
    let options = match flags_at.and_then(|i| args.get(i)) {
        Some(Arg::Null) => return Ok(None),
        Some(arg) => arg.text().unwrap_or_default(),
        None => String::new(),
    };
    let flags = Flags::read(&options, global_allowed, function)?;
    Ok(Some((text, compile(&pattern, flags)?, flags)))
}

/// An integer argument at `i`, if given; `Err(None)` for NULL.
fn int_at(args: &[Arg], i: usize, default: i64) -> Result<i64, Option<Out>> {
    match args.get(i) {
        None => Ok(default),
        Some(Arg::Null) => Err(None),
        Some(arg) => arg.int().ok_or(None),
    }
}

/// Runs a body that may return early with NULL (`Err(None)`) or an error.
pub(super) fn answer(body: impl FnOnce() -> Result<Out, Option<Out>>) -> Out {
    match body() {
        Ok(out) | Err(Some(out)) => out,
        Err(None) => Out::Null,
    }
}

/// Byte offset of the `start`th character (from 1); an error below 1.
fn start_offset(text: &str, start: i64) -> Result<usize, Option<Out>> {
    if start < 1 {
        return Err(Some(invalid_parameter(format!(
            "invalid value for parameter \"start\": {start}"
        ))));
    }
    let skip = usize::try_from(start - 1).unwrap_or(usize::MAX);
    Ok(text.char_indices().nth(skip).map_or(text.len(), |(i, _)| i))
}

fn positive(name: &str, value: i64) -> Result<usize, Option<Out>> {
    match usize::try_from(value) {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(Some(invalid_parameter(format!(
            "invalid value for parameter \"{name}\": {value}"
        )))),
    }
}

/// `text ~ pattern` (`regexp(pattern, text)`, SQLite's argument order).
fn tilde(_: &Call, args: &[Arg]) -> Out {
    let (Some(pattern), Some(text)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    match compile(&pattern, Flags::DEFAULT) {
        Ok(re) => Out::Int(i64::from(re.is_match(&text))),
        Err(out) => out,
    }
}

/// `value SIMILAR TO pattern ESCAPE escape`: the SQL pattern made a
/// regular expression as PostgreSQL makes it, matched against the whole value.
fn similar(_: &Call, args: &[Arg]) -> Out {
    let (text, pattern, escape) = match similar_args(args) {
        Ok(Some(read)) => read,
        Ok(None) => return Out::Null,
        Err(out) => return out,
    };
    match compile(&similar_to_regex(&pattern, escape), Flags::DEFAULT) {
        Ok(re) => Out::Int(i64::from(re.is_match(&text))),
        Err(out) => out,
    }
}

/// The value, pattern and escape character of a `SIMILAR` call; `None`
/// when one is NULL.
type SimilarArgs = (String, String, Option<char>);

fn similar_args(args: &[Arg]) -> Result<Option<SimilarArgs>, Out> {
    let (Some(text), Some(pattern), Some(escape)) =
        (args[0].text(), args[1].text(), args[2].text())
    else {
        return Ok(None);
    };
    let escape = super::strings::escape_character(&escape)?;
    Ok(Some((text, pattern, escape)))
}

/// A `SIMILAR TO` pattern as a regular expression: `%` any text, `_` any
/// character, groups not capturing, the escape making the next character
/// literal, anchored at both ends. An escaped `"` (which marks what
/// `SUBSTRING ... SIMILAR` returns) is a plain boundary here.
fn similar_to_regex(pattern: &str, escape: Option<char>) -> String {
    format!("^(?:{})$", similar_parts(pattern, escape).concat())
}

/// A `SIMILAR TO` pattern as regular expressions, one for each part the
/// escaped `"` separators divide it into.
fn similar_parts(pattern: &str, escape: Option<char>) -> Vec<String> {
    let mut parts = vec![String::new()];
    let (mut after_escape, mut in_class) = (false, false);
    for c in pattern.chars() {
        let Some(out) = parts.last_mut() else {
            break;
        };
        if after_escape {
            if c != '"' || in_class {
                out.push_str(&regex::escape(&c.to_string()));
            } else {
                parts.push(String::new());
            }
            after_escape = false;
        } else if Some(c) == escape {
            after_escape = true;
        } else if in_class {
            if c == '\\' {
                out.push('\\');
            }
            out.push(c);
            in_class = c != ']';
        } else {
            match c {
                '[' => {
                    out.push('[');
                    in_class = true;
                }
                '%' => out.push_str(".*"),
                '_' => out.push('.'),
                '(' => out.push_str("(?:"),
                '\\' | '.' | '^' | '$' => {
                    out.push('\\');
                    out.push(c);
                }
                c => out.push(c),
            }
        }
    }
    parts
}

/// `substring(text SIMILAR pattern ESCAPE escape)` (and `substring(text
/// FROM pattern FOR escape)`): the part of a matching value between the
/// pattern's two escaped `"` (all of it without them). As PostgreSQL reads
/// the pattern, what comes before the first separator matches as little
/// as it can, what follows it as much.
fn substring_similar(_: &Call, args: &[Arg]) -> Out {
    let (text, pattern, escape) = match similar_args(args) {
        Ok(Some(read)) => read,
        Ok(None) => return Out::Null,
        Err(out) => return out,
    };
    let source = match similar_parts(&pattern, escape).as_slice() {
        [whole] => format!("^({whole})$"),
        [before, part] => format!("^(?U:{before})({part})$"),
        [before, part, after] => format!("^(?U:{before})({part})(?:{after})$"),
        _ => {
            return Out::Fail(
                SqlState::parse("2200C").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
                "SQL regular expression may not contain more than two escape-double-quote separators"
                    .to_owned(),
            );
        }
    };
    let re = match Regex::new(&source) {
        Ok(re) => re,
        Err(e) => return invalid_regex(format!("invalid regular expression: {e}")),
    };
    match re.captures(&text).and_then(|caps| caps.get(1)) {
        Some(part) => Out::Text(part.as_str().to_owned()),
        None => Out::Null,
    }
}

/// `substring(text FROM pattern)`: the part of the first match the pattern's
/// first parenthesized subexpression matched, or the whole match when it has
/// none.
fn substring_regex(_: &Call, args: &[Arg]) -> Out {
    let (Some(text), Some(pattern)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    let re = match compile(&pattern, Flags::DEFAULT) {
        Ok(re) => re,
        Err(out) => return out,
    };
    let Some(caps) = re.captures(&text) else {
        return Out::Null;
    };
    let part = match re.captures_len() > 1 {
        true => caps.get(1),
        false => caps.get(0),
    };
    part.map_or(Out::Null, |m| Out::Text(m.as_str().to_owned()))
}

/// `regexp_like(text, pattern [, flags])`.
fn like(_: &Call, args: &[Arg]) -> Out {
    match prepare(args, Some(2), false, "regexp_like") {
        Ok(Some((text, re, _))) => Out::Int(i64::from(re.is_match(&text))),
        Ok(None) => Out::Null,
        Err(out) => out,
    }
}

/// Every match from byte `from` on, as PostgreSQL finds them: each search
/// starts where the last match ended (one character on after an empty one),
/// so an empty match right after a longer one counts, which `captures_iter`
/// skips; the text before `from` is still seen by `^` and `\b`.
pub(super) fn captures_from<'t>(
    re: &'t Regex,
    text: &'t str,
    from: usize,
) -> impl Iterator<Item = Captures<'t>> + 't {
    let mut at = Some(from);
    std::iter::from_fn(move || {
        let caps = re.captures_at(text, at?)?;
        let whole = caps.get(0)?;
        at = match whole.end() > whole.start() {
            true => Some(whole.end()),
            // An empty match: the next search starts one character on.
            false => text[whole.end()..]
                .chars()
                .next()
                .map(|c| whole.end() + c.len_utf8()),
        };
        Some(caps)
    })
}

/// A replacement in PostgreSQL's syntax: `\1`-`\9` a group, `\&` the match,
/// `\\` a backslash.
fn expand(replacement: &str, caps: &Captures, out: &mut String) {
    let mut chars = replacement.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(d @ '1'..='9') => {
                let group = d as usize - '0' as usize;
                out.push_str(caps.get(group).map_or("", |m| m.as_str()));
            }
            Some('&') => out.push_str(caps.get(0).map_or("", |m| m.as_str())),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
}

/// Replaces matches from byte `from` on: the `nth` (from 1), or every one
/// (`nth` = 0).
fn replace_matches(text: &str, re: &Regex, replacement: &str, from: usize, nth: usize) -> String {
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..from]);
    let mut last = from;
    for (index, caps) in captures_from(re, text, from).enumerate() {
        let Some(whole) = caps.get(0) else { continue };
        if nth != 0 && index + 1 != nth {
            continue;
        }
        out.push_str(&text[last..whole.start()]);
        expand(replacement, &caps, &mut out);
        last = whole.end();
        if nth != 0 {
            break;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// `regexp_replace(text, pattern, replacement [, flags])`: the first match,
/// or every one with `g`.
fn replace(_: &Call, args: &[Arg]) -> Out {
    answer(|| {
        let (text, re, flags) = prepare(args, Some(3), true, "regexp_replace")?.ok_or(None)?;
        let replacement = args[2].text().ok_or(None)?;
        let nth = usize::from(!flags.global);
        Ok(Out::Text(replace_matches(&text, &re, &replacement, 0, nth)))
    })
}

/// `regexp_replace` with four arguments: the fourth is `start` if it is an
/// integer, else `flags`.
fn replace_four(call: &Call, args: &[Arg]) -> Out {
    match args[3] {
        Arg::Int(_) => replace_nth(call, args),
        _ => replace(call, args),
    }
}

/// `regexp_replace(text, pattern, replacement, start [, n [, flags]])`: from
/// character `start`, the `n`th match (every one for 0; by default every one
/// with `g`, else the first).
fn replace_nth(_: &Call, args: &[Arg]) -> Out {
    answer(|| {
        let (text, re, flags) = prepare(args, Some(5), true, "regexp_replace")?.ok_or(None)?;
        let replacement = args[2].text().ok_or(None)?;
        let from = start_offset(&text, int_at(args, 3, 1)?)?;
        let default = i64::from(!flags.global);
        let nth = int_at(args, 4, default)?;
        let nth = usize::try_from(nth).map_err(|_| {
            Some(invalid_parameter(format!(
                "invalid value for parameter \"n\": {nth}"
            )))
        })?;
        Ok(Out::Text(replace_matches(
            &text,
            &re,
            &replacement,
            from,
            nth,
        )))
    })
}

/// `regexp_match(text, pattern [, flags])`: the first match's groups (or the
/// whole match, for a pattern without groups) as `text[]`; NULL for none.
fn first_match(_: &Call, args: &[Arg]) -> Out {
    answer(|| {
        let (text, re, _) = prepare(args, Some(2), false, "regexp_match")?.ok_or(None)?;
        let caps = re.captures(&text).ok_or(None)?;
        Ok(Out::Text(format_array(&groups(&caps))))
    })
}

/// A match as `regexp_match` gives it: its groups (NULL for one that took
/// no part), or the whole match for a pattern without groups.
pub(super) fn groups(caps: &Captures) -> Vec<Option<String>> {
    match caps.len() {
        1 => vec![caps.get(0).map(|m| m.as_str().to_owned())],
        n => (1..n)
            .map(|i| caps.get(i).map(|m| m.as_str().to_owned()))
            .collect(),
    }
}

/// `regexp_count(text, pattern [, start [, flags]])`.
fn count(_: &Call, args: &[Arg]) -> Out {
    answer(|| {
        let (text, re, _) = prepare(args, Some(3), false, "regexp_count")?.ok_or(None)?;
        let from = start_offset(&text, int_at(args, 2, 1)?)?;
        Ok(Out::Int(captures_from(&re, &text, from).count() as i64))
    })
}

/// The `nth` match from character `start`, and the group `subexpr` of it
/// (0: the whole match).
fn nth_match<'t>(
    text: &'t str,
    re: &'t Regex,
    start: i64,
    nth: i64,
    subexpr: i64,
) -> Result<Option<regex::Match<'t>>, Option<Out>> {
    let from = start_offset(text, start)?;
    let nth = positive("n", nth)?;
    let subexpr = usize::try_from(subexpr).map_err(|_| {
        Some(invalid_parameter(format!(
            "invalid value for parameter \"subexpr\": {subexpr}"
        )))
    })?;
    Ok(captures_from(re, text, from)
        .nth(nth - 1)
        .and_then(|caps| caps.get(subexpr)))
}

/// `regexp_instr(text, pattern [, start [, n [, endoption [, flags [, subexpr]]]]])`:
/// the character position of a match (after it, with `endoption` 1); 0 for none.
fn instr(_: &Call, args: &[Arg]) -> Out {
    answer(|| {
        let (text, re, _) = prepare(args, Some(5), false, "regexp_instr")?.ok_or(None)?;
        let end = match int_at(args, 4, 0)? {
            0 => false,
            1 => true,
            other => {
                return Err(Some(invalid_parameter(format!(
                    "invalid value for parameter \"endoption\": {other}"
                ))));
            }
        };
        let found = nth_match(
            &text,
            &re,
            int_at(args, 2, 1)?,
            int_at(args, 3, 1)?,
            int_at(args, 6, 0)?,
        )?;
        Ok(Out::Int(found.map_or(0, |m| {
            let at = if end { m.end() } else { m.start() };
            text[..at].chars().count() as i64 + 1
        })))
    })
}

/// `regexp_substr(text, pattern [, start [, n [, flags [, subexpr]]]])`.
fn substr(_: &Call, args: &[Arg]) -> Out {
    answer(|| {
        let (text, re, _) = prepare(args, Some(4), false, "regexp_substr")?.ok_or(None)?;
        let found = nth_match(
            &text,
            &re,
            int_at(args, 2, 1)?,
            int_at(args, 3, 1)?,
            int_at(args, 5, 0)?,
        )?;
        Ok(found.map_or(Out::Null, |m| Out::Text(m.as_str().to_owned())))
    })
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    fn text(out: Out) -> String {
        super::super::call::tests::text(out)
    }

    #[test]
    fn tilde_matches_newlines_as_postgres_does() {
        assert_eq!(
            call(tilde, &[Arg::Text("^(t)$"), Arg::Text("t")]),
            Out::Int(1)
        );
        assert_eq!(
            call(tilde, &[Arg::Text("a.b"), Arg::Text("a\nb")]),
            Out::Int(1)
        );
        assert_eq!(
            call(tilde, &[Arg::Text("^b"), Arg::Text("a\nb")]),
            Out::Int(0)
        );
        assert_eq!(
            call(tilde, &[Arg::Text("\\yfoo\\y"), Arg::Text("a foo b")]),
            Out::Int(1)
        );
        assert!(matches!(
            call(tilde, &[Arg::Text("("), Arg::Text("x")]),
            Out::Fail(..)
        ));
    }

    #[test]
    fn replacements_use_postgres_syntax() {
        let args = [
            Arg::Text("abcabc"),
            Arg::Text("(b)(c)"),
            Arg::Text("[\\2\\1\\&]"),
            Arg::Text("g"),
        ];
        assert_eq!(text(call(replace, &args)), "a[cbbc]a[cbbc]");
        let args = [
            Arg::Text("abcabc"),
            Arg::Text("b"),
            Arg::Text("X"),
            Arg::Int(1),
            Arg::Int(2),
        ];
        assert_eq!(text(call(replace_nth, &args)), "abcaXc");
        let args = [
            Arg::Text("A"),
            Arg::Text("a"),
            Arg::Text("x"),
            Arg::Text("z"),
        ];
        assert!(matches!(call(replace, &args), Out::Fail(..)));
    }
}
