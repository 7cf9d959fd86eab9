//! String functions: `regexp()`, which the dialect translation calls for
//! PostgreSQL's `~` operators (POSIX-style patterns, run by the `regex` crate).

use std::cell::RefCell;
use std::collections::HashMap;

use regex::Regex;

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};

pub(super) const FUNCTIONS: &[Function] = &[Function::helper(
    "regexp",
    Args::Fixed(&["text", "text"]),
    Volatility::Immutable,
    regexp,
)];

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

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

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
