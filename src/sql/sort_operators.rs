//! `ORDER BY x USING <` and `USING >`: a sort by the type's own less-than or
//! greater-than operator, which is `ASC` or `DESC` (with their NULL places).
//! sqlparser does not read the form; any other operator is left to fail.

use super::lexer::{Token, TokenKind};

/// The text with each `USING <` / `USING >` of a sort written as `ASC` /
/// `DESC`; `None` where there is none.
pub(super) fn rewrite(text: &str, tokens: &[Token]) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (i, token) in tokens.iter().enumerate() {
        if !token.is_keyword(text, "USING") {
            continue;
        }
        let Some(operator) = tokens.get(i + 1).filter(|t| t.kind == TokenKind::Punct) else {
            continue;
        };
        let direction = match operator.text(text) {
            "<" => "ASC",
            ">" => "DESC",
            _ => continue,
        };
        // The operator alone: not the start of `<=`, `<>` or `~<~`.
        let alone = tokens.get(i + 2).is_none_or(|next| {
            next.start > operator.end
                || !matches!(next.kind, TokenKind::Punct)
                || matches!(next.text(text), "," | ";" | ")")
        });
        if !alone {
            continue;
        }
        out.push_str(&text[copied..token.start]);
        out.push_str(direction);
        copied = operator.end;
        if text[copied..].starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            out.push(' ');
        }
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
    fn sort_operators_become_directions() {
        assert_eq!(
            rewritten("SELECT a FROM t ORDER BY a using >, b USING <").as_deref(),
            Some("SELECT a FROM t ORDER BY a DESC, b ASC")
        );
        assert_eq!(
            rewritten("SELECT a FROM t WHERE a < 20 ORDER BY a using >;").as_deref(),
            Some("SELECT a FROM t WHERE a < 20 ORDER BY a DESC;")
        );
        assert_eq!(
            rewritten("SELECT * FROM (SELECT a FROM t ORDER BY a USING >) s").as_deref(),
            Some("SELECT * FROM (SELECT a FROM t ORDER BY a DESC) s")
        );
        assert_eq!(
            rewritten("SELECT a FROM t ORDER BY a USING >NULLS FIRST").as_deref(),
            Some("SELECT a FROM t ORDER BY a DESC NULLS FIRST")
        );
        for unchanged in [
            "SELECT * FROM a JOIN b USING (x)",
            "SELECT a FROM t ORDER BY a USING ~<~",
            "SELECT a FROM t ORDER BY a USING <=",
            "DELETE FROM t USING u WHERE t.a = u.a",
        ] {
            assert_eq!(rewritten(unchanged), None, "{unchanged}");
        }
    }
}
