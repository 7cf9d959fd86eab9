//! String functions: `regexp()`, which the dialect translation calls for
//! PostgreSQL's `~` operators (POSIX-style patterns, run by the `regex` crate),
//! and the PostgreSQL port's `LIKE` and `ILIKE` (case as PostgreSQL matches
//! it, `\` the default escape), `upper`, `lower` and `initcap` on all of
//! Unicode, and `substr` with PostgreSQL's bounds (SQLite's counts a negative
//! start from the end).

use std::cell::RefCell;
use std::collections::HashMap;

use regex::Regex;

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::error::SqlState;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::helper(
        "regexp",
        Args::Fixed(&["text", "text"]),
        Volatility::Immutable,
        regexp,
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

thread_local! {
    /// Compiled patterns by their text: psql sends the same few again and again.
    static PATTERNS: RefCell<HashMap<String, Regex>> = RefCell::new(HashMap::new());
}

/// `regexp(pattern, text)`: PostgreSQL's `text ~ pattern`.
fn regexp(_: &Call, args: &[Arg]) -> Out {
    let (Some(pattern), Some(text)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    PATTERNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if !cache.contains_key(&pattern) {
            match Regex::new(&pattern) {
                Ok(re) => {
                    if cache.len() >= 64 {
                        cache.clear();
                    }
                    cache.insert(pattern.clone(), re);
                }
                Err(e) => return Out::Error(format!("invalid regular expression: {e}")),
            }
        }
        let matched = cache.get(&pattern).is_some_and(|re| re.is_match(&text));
        Out::Int(i64::from(matched))
    })
}

/// `value LIKE pattern ESCAPE escape`.
fn like(_: &Call, args: &[Arg]) -> Out {
    matches(args, false)
}

/// `value ILIKE pattern ESCAPE escape`: both lower-cased first.
fn ilike(_: &Call, args: &[Arg]) -> Out {
    matches(args, true)
}

fn matches(args: &[Arg], insensitive: bool) -> Out {
    let (Some(value), Some(pattern), Some(escape)) =
        (args[0].text(), args[1].text(), args[2].text())
    else {
        return Out::Null;
    };
    let mut escapes = escape.chars();
    let escape = match (escapes.next(), escapes.next()) {
        (escape, None) => escape,
        _ => {
            return Out::Fail(
                SqlState::parse("22025").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
                "invalid escape string".into(),
            );
        }
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

    #[test]
    fn patterns_match_as_postgres_tilde() {
        assert_eq!(
            call(regexp, &[Arg::Text("^(t)$"), Arg::Text("t")]),
            Out::Int(1)
        );
        assert_eq!(
            call(regexp, &[Arg::Text("^pg_"), Arg::Text("public")]),
            Out::Int(0)
        );
        assert!(matches!(
            call(regexp, &[Arg::Text("("), Arg::Text("x")]),
            Out::Error(_)
        ));
    }
}
