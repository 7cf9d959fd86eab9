//! String functions: the PostgreSQL port's `LIKE` and `ILIKE` (case as
//! PostgreSQL matches it, `\` the default escape), `upper`, `lower` and
//! `initcap` on all of Unicode, `substr` with PostgreSQL's bounds (SQLite's
//! counts a negative start from the end), and the functions PostgreSQL has and
//! SQLite lacks (`repeat`, `split_part`, `lpad`, `translate`, `left`, ...),
//! all counting characters, not bytes.

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::error::SqlState;

const IMMUTABLE: Volatility = Volatility::Immutable;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg("repeat", &["text", "int4"], "text", IMMUTABLE, repeat),
    Function::pg(
        "split_part",
        &["text", "text", "int4"],
        "text",
        IMMUTABLE,
        split_part,
    ),
    Function::pg("lpad", &["text", "int4"], "text", IMMUTABLE, lpad),
    Function::pg("lpad", &["text", "int4", "text"], "text", IMMUTABLE, lpad),
    Function::pg("rpad", &["text", "int4"], "text", IMMUTABLE, rpad),
    Function::pg("rpad", &["text", "int4", "text"], "text", IMMUTABLE, rpad),
    Function::pg(
        "translate",
        &["text", "text", "text"],
        "text",
        IMMUTABLE,
        translate,
    ),
    Function::pg("ascii", &["text"], "int4", IMMUTABLE, ascii),
    Function::pg("chr", &["int4"], "text", IMMUTABLE, chr),
    Function::pg("reverse", &["text"], "text", IMMUTABLE, reverse),
    Function::pg("left", &["text", "int4"], "text", IMMUTABLE, left),
    Function::pg("right", &["text", "int4"], "text", IMMUTABLE, right),
    Function::pg(
        "starts_with",
        &["text", "text"],
        "bool",
        IMMUTABLE,
        starts_with,
    ),
    Function::helper(
        "litewire_like",
        Args::Fixed(&["text", "text", "text"]),
        Volatility::Immutable,
        like,
    ),
    Function::helper(
        "litewire_ilike",
        Args::Fixed(&["text", "text", "text"]),
        Volatility::Immutable,
        ilike,
    ),
    Function::helper(
        "litewire_upper",
        Args::Fixed(&["text"]),
        Volatility::Immutable,
        upper,
    ),
    Function::helper(
        "litewire_lower",
        Args::Fixed(&["text"]),
        Volatility::Immutable,
        lower,
    ),
    Function::helper(
        "litewire_initcap",
        Args::Fixed(&["text"]),
        Volatility::Immutable,
        initcap,
    ),
    Function::helper(
        "litewire_substr",
        Args::Variadic("any"),
        Volatility::Immutable,
        substr,
    ),
];

/// `value LIKE pattern ESCAPE escape`.
fn like(_: &Call, args: &[Arg]) -> Out {
    matches(args, false)
}

/// `value ILIKE pattern ESCAPE escape`: both lower-cased first.
fn ilike(_: &Call, args: &[Arg]) -> Out {
    matches(args, true)
}

/// An `ESCAPE` clause's character: none for the empty string, 22025 for
/// more than one.
pub(super) fn escape_character(escape: &str) -> Result<Option<char>, Out> {
    let mut escapes = escape.chars();
    match (escapes.next(), escapes.next()) {
        (escape, None) => Ok(escape),
        _ => Err(Out::Fail(
            SqlState::parse("22025").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
            "invalid escape string".into(),
        )),
    }
}

fn matches(args: &[Arg], insensitive: bool) -> Out {
    // `bytea LIKE bytea` matches bytes: each byte is read as the character
    // of that code, so `_` takes one byte.
    let text = |arg: &Arg| match (arg, &args[0]) {
        (Arg::Blob(bytes), _) => Some(bytes.iter().map(|&b| char::from(b)).collect()),
        (arg, Arg::Blob(_)) => arg.text().map(|t| t.bytes().map(char::from).collect()),
        (arg, _) => arg.text(),
    };
    let (Some(value), Some(pattern), Some(escape)) =
        (text(&args[0]), text(&args[1]), text(&args[2]))
    else {
        return Out::Null;
    };
    let escape = match escape_character(&escape) {
        Ok(escape) => escape,
        Err(out) => return out,
    };
    let (value, pattern) = match insensitive {
        true => (value.to_lowercase(), pattern.to_lowercase()),
        false => (value, pattern),
    };
    let value: Vec<char> = value.chars().collect();
    let tokens = like_tokens(&pattern, escape);
    match like_match(&value, &tokens) {
        Some(matched) => Out::Int(i64::from(matched)),
        None => Out::Fail(
            SqlState::parse("22025").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
            "LIKE pattern must not end with escape character".into(),
        ),
    }
}

/// One element of a LIKE pattern.
#[derive(Debug, Clone, Copy, PartialEq)]
enum LikeToken {
    Char(char),
    /// `_`
    One,
    /// `%`
    Any,
    /// An escape character that ends the pattern: an error once a match
    /// reaches it with text left, as in PostgreSQL.
    DanglingEscape,
}

fn like_tokens(pattern: &str, escape: Option<char>) -> Vec<LikeToken> {
    let mut tokens = Vec::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        tokens.push(match c {
            c if Some(c) == escape => match chars.next() {
                Some(next) => LikeToken::Char(next),
                None => LikeToken::DanglingEscape,
            },
            '%' => LikeToken::Any,
            '_' => LikeToken::One,
            c => LikeToken::Char(c),
        });
    }
    tokens
}

/// Whether `value` matches `pattern` (`None`: the match reached a dangling
/// escape): linear scan, backtracking only to the last `%`.
fn like_match(value: &[char], pattern: &[LikeToken]) -> Option<bool> {
    let (mut v, mut p) = (0, 0);
    let mut resume: Option<(usize, usize)> = None;
    while v < value.len() {
        match pattern.get(p) {
            Some(LikeToken::DanglingEscape) => return None,
            Some(LikeToken::Any) => {
                resume = Some((p, v));
                p += 1;
            }
            Some(LikeToken::One) => {
                v += 1;
                p += 1;
            }
            Some(LikeToken::Char(c)) if *c == value[v] => {
                v += 1;
                p += 1;
            }
            _ => match resume {
                Some((star, from)) => {
                    p = star + 1;
                    v = from + 1;
                    resume = Some((star, from + 1));
                }
                None => return Some(false),
            },
        }
    }
    Some(pattern[p..].iter().all(|t| *t == LikeToken::Any))
}

/// A character's case changed as PostgreSQL changes it: one character for
/// one (`ß` has no upper case of one letter, so it stays).
fn one_for_one(c: char, changed: impl Iterator<Item = char>) -> char {
    let mut changed = changed;
    match (changed.next(), changed.next()) {
        (Some(single), None) => single,
        _ => c,
    }
}

fn upper(_: &Call, args: &[Arg]) -> Out {
    args[0].text().map_or(Out::Null, |s| {
        Out::Text(
            s.chars()
                .map(|c| one_for_one(c, c.to_uppercase()))
                .collect(),
        )
    })
}

fn lower(_: &Call, args: &[Arg]) -> Out {
    args[0].text().map_or(Out::Null, |s| {
        Out::Text(
            s.chars()
                .map(|c| one_for_one(c, c.to_lowercase()))
                .collect(),
        )
    })
}

/// `initcap(text)`: each word's first letter upper case, the rest lower case;
/// a word is a run of letters and digits.
fn initcap(_: &Call, args: &[Arg]) -> Out {
    let Some(text) = args[0].text() else {
        return Out::Null;
    };
    let mut out = String::with_capacity(text.len());
    let mut in_word = false;
    for c in text.chars() {
        out.push(match in_word {
            true => one_for_one(c, c.to_lowercase()),
            false => one_for_one(c, c.to_uppercase()),
        });
        in_word = c.is_alphanumeric();
    }
    Out::Text(out)
}

/// `substr(text, start [, count])`: characters `start` to `start + count - 1`
/// counted from 1, those before the first not there.
fn substr(_: &Call, args: &[Arg]) -> Out {
    let (Some(text), Some(start)) = (
        args.first().and_then(Arg::text),
        args.get(1).and_then(Arg::int),
    ) else {
        return Out::Null;
    };
    let end = match args.get(2) {
        None => None,
        Some(Arg::Null) => return Out::Null,
        Some(count) => match count.int() {
            Some(n) if n < 0 => {
                return Out::Fail(
                    SqlState::parse("22011").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
                    "negative substring length not allowed".into(),
                );
            }
            Some(n) => Some(start.saturating_add(n)),
            None => return Out::Null,
        },
    };
    let first = start.max(1);
    let taken: String = text
        .chars()
        .enumerate()
        .map(|(i, c)| (i as i64 + 1, c))
        .skip_while(|(i, _)| *i < first)
        .take_while(|(i, _)| end.is_none_or(|end| *i < end))
        .map(|(_, c)| c)
        .collect();
    Out::Text(taken)
}

/// The largest text PostgreSQL makes (1 GB less its header).
const MAX_TEXT_BYTES: usize = (1 << 30) - 5;

fn too_large() -> Out {
    Out::Fail(
        SqlState::PROGRAM_LIMIT_EXCEEDED,
        "requested length too large".into(),
    )
}

/// The text and integer arguments of a `(text, int)` function; `None` if
/// either is NULL.
fn text_and_int(args: &[Arg]) -> Option<(String, i64)> {
    Some((args[0].text()?, args[1].int()?))
}

/// `repeat(text, n)`: empty for n < 1.
fn repeat(_: &Call, args: &[Arg]) -> Out {
    let Some((text, n)) = text_and_int(args) else {
        return Out::Null;
    };
    let n = usize::try_from(n).unwrap_or(0);
    match text.len().checked_mul(n) {
        Some(len) if len <= MAX_TEXT_BYTES => Out::Text(text.repeat(n)),
        _ => too_large(),
    }
}

/// `split_part(text, delimiter, n)`: the nth field (from the end for n < 0).
fn split_part(_: &Call, args: &[Arg]) -> Out {
    let (Some(text), Some(delimiter), Some(n)) = (args[0].text(), args[1].text(), args[2].int())
    else {
        return Out::Null;
    };
    if n == 0 {
        return Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            "field position must not be zero".into(),
        );
    }
    // An empty delimiter makes the whole text the one field.
    let fields: Vec<&str> = match delimiter.is_empty() {
        true if text.is_empty() => Vec::new(),
        true => vec![text.as_str()],
        false => text.split(delimiter.as_str()).collect(),
    };
    let index = match n > 0 {
        true => usize::try_from(n - 1).ok(),
        false => usize::try_from(-n)
            .ok()
            .and_then(|back| fields.len().checked_sub(back)),
    };
    Out::Text(
        index
            .and_then(|i| fields.get(i))
            .map_or(String::new(), |f| (*f).to_owned()),
    )
}

/// `lpad`/`rpad(text, length [, fill])`: the text cut or filled to `length`
/// characters (fill ' ' by default; an empty fill only cuts).
fn pad(args: &[Arg], left: bool) -> Out {
    let Some((text, length)) = text_and_int(args) else {
        return Out::Null;
    };
    let fill = match args.get(2) {
        Some(arg) => match arg.text() {
            Some(fill) => fill,
            None => return Out::Null,
        },
        None => " ".to_owned(),
    };
    let length = usize::try_from(length).unwrap_or(0);
    if length.saturating_mul(4) > MAX_TEXT_BYTES {
        return too_large();
    }
    let chars = text.chars().count();
    if chars >= length || fill.is_empty() {
        return Out::Text(text.chars().take(length).collect());
    }
    let padding: String = fill.chars().cycle().take(length - chars).collect();
    Out::Text(match left {
        true => padding + &text,
        false => text + &padding,
    })
}

fn lpad(_: &Call, args: &[Arg]) -> Out {
    pad(args, true)
}

fn rpad(_: &Call, args: &[Arg]) -> Out {
    pad(args, false)
}

/// `translate(text, from, to)`: each character of `from` replaced by the one
/// at its place in `to`, or removed where `to` is shorter.
fn translate(_: &Call, args: &[Arg]) -> Out {
    let (Some(text), Some(from), Some(to)) = (args[0].text(), args[1].text(), args[2].text())
    else {
        return Out::Null;
    };
    let from: Vec<char> = from.chars().collect();
    let to: Vec<char> = to.chars().collect();
    Out::Text(
        text.chars()
            .filter_map(|c| match from.iter().position(|f| *f == c) {
                Some(i) => to.get(i).copied(),
                None => Some(c),
            })
            .collect(),
    )
}

/// `ascii(text)`: the first character's code point (0 for empty text).
fn ascii(_: &Call, args: &[Arg]) -> Out {
    args[0].text().map_or(Out::Null, |text| {
        Out::Int(text.chars().next().map_or(0, |c| i64::from(u32::from(c))))
    })
}

/// `chr(code)`: the character with that code point.
fn chr(_: &Call, args: &[Arg]) -> Out {
    let Some(code) = args[0].int() else {
        return Out::Null;
    };
    match u32::try_from(code).ok().map(char::from_u32) {
        _ if code == 0 => Out::Fail(
            SqlState::PROGRAM_LIMIT_EXCEEDED,
            "null character not permitted".into(),
        ),
        Some(Some(c)) => Out::Text(c.to_string()),
        _ if code < 0 => Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            "character number must be positive".into(),
        ),
        _ => Out::Fail(
            SqlState::PROGRAM_LIMIT_EXCEEDED,
            format!("requested character too large for encoding: {code}"),
        ),
    }
}

fn reverse(_: &Call, args: &[Arg]) -> Out {
    args[0]
        .text()
        .map_or(Out::Null, |text| Out::Text(text.chars().rev().collect()))
}

/// How many characters `left`/`right` keep: `n`, or all but `-n`.
fn kept(text: &str, n: i64) -> usize {
    let chars = text.chars().count();
    match usize::try_from(n) {
        Ok(n) => n.min(chars),
        Err(_) => chars.saturating_sub(usize::try_from(n.unsigned_abs()).unwrap_or(usize::MAX)),
    }
}

/// `left(text, n)`: the first n characters (all but the last -n for n < 0).
fn left(_: &Call, args: &[Arg]) -> Out {
    let Some((text, n)) = text_and_int(args) else {
        return Out::Null;
    };
    Out::Text(text.chars().take(kept(&text, n)).collect())
}

/// `right(text, n)`: the last n characters (all but the first -n for n < 0).
fn right(_: &Call, args: &[Arg]) -> Out {
    let Some((text, n)) = text_and_int(args) else {
        return Out::Null;
    };
    let skip = text.chars().count() - kept(&text, n);
    Out::Text(text.chars().skip(skip).collect())
}

fn starts_with(_: &Call, args: &[Arg]) -> Out {
    match (args[0].text(), args[1].text()) {
        (Some(text), Some(prefix)) => Out::Int(i64::from(text.starts_with(&prefix))),
        _ => Out::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    fn like_of(value: &str, pattern: &str, insensitive: bool) -> Out {
        let body = if insensitive { ilike } else { like };
        call(
            body,
            &[Arg::Text(value), Arg::Text(pattern), Arg::Text("\\")],
        )
    }

    #[test]
    fn like_matches_case_as_postgres_does() {
        assert_eq!(like_of("abc", "ABC", false), Out::Int(0));
        assert_eq!(like_of("abc", "ABC", true), Out::Int(1));
        assert_eq!(like_of("Émile", "émile", true), Out::Int(1));
        assert_eq!(like_of("abc", "a%", false), Out::Int(1));
        assert_eq!(like_of("abc", "%b%", false), Out::Int(1));
        assert_eq!(like_of("abc", "a_c", false), Out::Int(1));
        assert_eq!(like_of("abc", "a_", false), Out::Int(0));
        assert_eq!(like_of("a%c", "a\\%c", false), Out::Int(1));
        assert_eq!(like_of("abc", "a\\%c", false), Out::Int(0));
        assert_eq!(like_of("aXbXc", "%X%c", false), Out::Int(1));
        // PostgreSQL fails only when the match reaches a dangling escape.
        assert_eq!(like_of("a", "a\\", false), Out::Int(0));
        assert!(matches!(like_of("ab", "a\\", false), Out::Fail(..)));
        assert_eq!(
            call(like, &[Arg::Null, Arg::Text("a"), Arg::Text("\\")]),
            Out::Null
        );
        // `ESCAPE ''`: no escape character at all.
        assert_eq!(
            call(like, &[Arg::Text("a\\b"), Arg::Text("a\\b"), Arg::Text("")]),
            Out::Int(1)
        );
    }

    #[test]
    fn case_on_all_of_unicode() {
        assert_eq!(call(upper, &[Arg::Text("é")]), Out::Text("É".into()));
        assert_eq!(
            call(upper, &[Arg::Text("straße")]),
            Out::Text("STRAßE".into())
        );
        assert_eq!(call(lower, &[Arg::Text("ÀB")]), Out::Text("àb".into()));
        assert_eq!(
            call(initcap, &[Arg::Text("hello wORLD-élan 2x")]),
            Out::Text("Hello World-Élan 2x".into())
        );
    }

    #[test]
    fn substr_has_postgres_bounds() {
        let sub = |args: &[Arg]| call(substr, args);
        assert_eq!(
            sub(&[Arg::Text("abcdef"), Arg::Int(2), Arg::Int(3)]),
            Out::Text("bcd".into())
        );
        assert_eq!(
            sub(&[Arg::Text("abcdef"), Arg::Int(-1), Arg::Int(3)]),
            Out::Text("a".into())
        );
        assert_eq!(
            sub(&[Arg::Text("abcdef"), Arg::Int(0)]),
            Out::Text("abcdef".into())
        );
        assert_eq!(
            sub(&[Arg::Text("héllo"), Arg::Int(2), Arg::Int(2)]),
            Out::Text("él".into())
        );
        assert!(matches!(
            sub(&[Arg::Text("a"), Arg::Int(1), Arg::Int(-1)]),
            Out::Fail(..)
        ));
    }
}
