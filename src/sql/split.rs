//! Where one statement of a query string ends and the next begins: at each
//! semicolon outside quotes and comments (the lexer has those already), except
//! inside a trigger's `BEGIN ... END` body.

use super::lexer::{Token, TokenKind};

/// Byte range and token range of each non-empty statement.
pub(super) fn split(tokens: &[Token], sql: &str) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let mut first = 0;
    for (i, token) in tokens.iter().enumerate() {
        if token.kind != TokenKind::Semicolon || inside_trigger_body(&tokens[first..i], sql) {
            continue;
        }
        if i > first {
            out.push((tokens[first].start, tokens[i - 1].end, first, i));
        }
        first = i + 1;
    }
    if first < tokens.len() {
        out.push((
            tokens[first].start,
            tokens[tokens.len() - 1].end,
            first,
            tokens.len(),
        ));
    }
    out
}

/// Whether a semicolon after `tokens` falls inside a trigger's `BEGIN ... END` body
/// (where `CASE ... END` nests), as SQLite's own `sqlite3_complete` decides.
fn inside_trigger_body(tokens: &[Token], sql: &str) -> bool {
    if !is_create_trigger(tokens, sql) {
        return false;
    }
    let depth = tokens.iter().fold(0i32, |depth, t| {
        if t.is_keyword(sql, "BEGIN") || t.is_keyword(sql, "CASE") {
            depth + 1
        } else if t.is_keyword(sql, "END") {
            depth - 1
        } else {
            depth
        }
    });
    depth > 0
}

/// `CREATE [TEMP|TEMPORARY] TRIGGER`: its body holds semicolons up to `END`.
fn is_create_trigger(tokens: &[Token], sql: &str) -> bool {
    let mut words = tokens.iter().take(3).filter(|t| t.kind == TokenKind::Word);
    let Some(create) = words.next() else {
        return false;
    };
    if !create.is_keyword(sql, "CREATE") {
        return false;
    }
    match words.next() {
        Some(t) if t.is_keyword(sql, "TRIGGER") => true,
        Some(t) if t.is_keyword(sql, "TEMP") || t.is_keyword(sql, "TEMPORARY") => {
            words.next().is_some_and(|t| t.is_keyword(sql, "TRIGGER"))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::sql::parse_batch;

    #[test]
    fn splits_on_semicolons_outside_quotes_and_comments() {
        let batch = parse_batch("select ';'; -- x;\n select 2;; /* ; */").unwrap();
        let sqls: Vec<&str> = batch.iter().map(|s| &*s.sql).collect();
        assert_eq!(sqls, vec!["select ';'", "select 2"]);
    }

    #[test]
    fn trigger_bodies_stay_whole() {
        let sql = "create trigger t after insert on a begin insert into b values (case when 1 then 2 end); delete from c; end; select 1";
        let batch = parse_batch(sql).unwrap();
        assert_eq!(batch.len(), 2);
        assert!(batch[0].sql.ends_with("end"));
        assert_eq!(&*batch[1].sql, "select 1");
    }
}
