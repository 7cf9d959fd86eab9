//! `f(a, VARIADIC array)`: the array passed as the variadic parameter's
//! values. sqlparser does not read the keyword; it reads a named argument,
//! so `VARIADIC` that starts a call's argument is written as one, named
//! [`MARKER`], which the PostgreSQL translation takes back (see
//! `postgres::variadic`).

use super::lexer::{Token, TokenKind};

/// The name the argument after `VARIADIC` is given.
pub(crate) const MARKER: &str = "litewire_variadic";

/// The text with each argument's `VARIADIC` written as `MARKER =>`; `None`
/// where there is none.
pub(super) fn rewrite(text: &str, tokens: &[Token]) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (i, token) in tokens.iter().enumerate() {
        let starts_argument = i > 0
            && tokens.get(i - 1).is_some_and(|previous| {
                previous.kind == TokenKind::LeftParen || previous.text(text) == ","
            });
        if !starts_argument || !token.is_keyword(text, "VARIADIC") {
            continue;
        }
        out.push_str(&text[copied..token.start]);
        out.push_str(MARKER);
        out.push_str(" =>");
        copied = token.end;
    }
    (copied > 0).then(|| {
        out.push_str(&text[copied..]);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::lexer::tokenize;

    fn rewritten(sql: &str) -> Option<String> {
        rewrite(sql, &tokenize(sql))
    }

    #[test]
    fn variadic_arguments_become_named() {
        assert_eq!(
            rewritten("SELECT concat_ws(',', variadic array[1,2])").as_deref(),
            Some("SELECT concat_ws(',', litewire_variadic => array[1,2])")
        );
        assert_eq!(
            rewritten("SELECT concat(VARIADIC NULL::int[])").as_deref(),
            Some("SELECT concat(litewire_variadic => NULL::int[])")
        );
        for unchanged in [
            "SELECT 'variadic', \"variadic\" FROM t",
            "SELECT concat(a, b) FROM t",
        ] {
            assert_eq!(rewritten(unchanged), None, "{unchanged}");
        }
    }
}
