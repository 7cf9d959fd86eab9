//! `OPERATOR(pg_catalog.=)`: an operator named with its schema, as psql's and
//! `pg_dump`'s catalog queries write every operator (so that no user's
//! operator of the same name is taken). There are no operators but
//! PostgreSQL's own, so it is the operator itself; written plainly, it reads
//! as any other (`x OPERATOR(pg_catalog.=) ANY (array[...])` too).

use super::lexer::{Token, TokenKind};

/// `text` with each `OPERATOR(schema.op)` as `op`; `None` when it has none.
pub(super) fn unqualified(text: &str, tokens: &[Token]) -> Option<String> {
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while i + 1 < tokens.len() {
        let opens =
            tokens[i].is_keyword(text, "OPERATOR") && tokens[i + 1].kind == TokenKind::LeftParen;
        let close = opens
            .then(|| {
                tokens[i + 2..]
                    .iter()
                    .position(|t| t.kind == TokenKind::RightParen)
            })
            .flatten()
            .map(|at| i + 2 + at);
        let Some(close) = close else {
            i += 1;
            continue;
        };
        let inner = &text[tokens[i + 1].end..tokens[close].start];
        let operator = inner.rsplit_once('.').map_or(inner, |(_, op)| op).trim();
        // Spaced from its operands, which may be operator characters too.
        let before = &text[copied..tokens[i].start];
        out.push_str(before);
        if !before.ends_with(char::is_whitespace) {
            out.push(' ');
        }
        out.push_str(operator);
        if !text[tokens[close].end..].starts_with(char::is_whitespace) {
            out.push(' ');
        }
        copied = tokens[close].end;
        i = close + 1;
    }
    (copied > 0).then(|| {
        out.push_str(&text[copied..]);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::unqualified;
    use crate::sql::lexer::tokenize;

    fn run(text: &str) -> Option<String> {
        unqualified(text, &tokenize(text))
    }

    #[test]
    fn operators_lose_their_schema() {
        assert_eq!(
            run("SELECT 1 WHERE c.relkind OPERATOR(pg_catalog.=) ANY (array['r'])").as_deref(),
            Some("SELECT 1 WHERE c.relkind = ANY (array['r'])")
        );
        assert_eq!(
            run("SELECT a OPERATOR(pg_catalog.~) '^(t)$', b OPERATOR(=) c").as_deref(),
            Some("SELECT a ~ '^(t)$', b = c")
        );
        assert_eq!(run("SELECT 'OPERATOR(pg_catalog.=)'"), None);
        assert_eq!(run("SELECT operator FROM t"), None);
    }
}
