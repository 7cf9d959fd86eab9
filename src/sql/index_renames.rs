//! `ALTER INDEX [IF EXISTS] name RENAME TO new` (SQLite renames no index:
//! the engine makes it again under its new name, see
//! `engine::index_rename`), and `ALTER INDEX name {ALTER [COLUMN] n SET
//! STATISTICS k | SET (...) | RESET (...)}`, settings for PostgreSQL's
//! planner that SQLite has no use for: accepted once the index is found.
//! `ALTER VIEW [IF EXISTS] name RENAME TO new` is made again the same way
//! (SQLite's `ALTER TABLE ... RENAME` refuses a view).

use std::sync::Arc;

use super::lexer::{TokenKind, tokenize};
use super::quote::{identifier, literal};
use super::schema_names::stored_written;
use super::statement::{IndexRename, Plan};
use super::words::Words;
use crate::error::Error;

/// The plan of an `ALTER INDEX` litewire answers; `None` for any other
/// statement.
pub(super) fn statement(w: &Words) -> Option<Result<Plan, Error>> {
    let view = w.starts_with(&["ALTER", "VIEW"]);
    if !(view || w.starts_with(&["ALTER", "INDEX"])) {
        return None;
    }
    let (if_exists, at) = match w.is(2, "IF") && w.is(3, "EXISTS") {
        true => (true, 4),
        false => (false, 2),
    };
    let (written, next) = w.name(at)?;
    let from = stored_written(&written);
    if w.is(next, "RENAME") && w.is(next + 1, "TO") {
        let (to, end) = w.name(next + 2)?;
        if end < w.tokens.len() {
            return Some(Err(w.syntax_error(end)));
        }
        let rename = IndexRename {
            from,
            to: stored_written(&to),
            if_exists,
            view,
        };
        return Some(Ok(Plan::RenameIndex(Arc::new(rename))));
    }
    if view || !(w.is(next, "ALTER") || w.is(next, "SET") || w.is(next, "RESET")) {
        return None;
    }
    let found = format!(
        "EXISTS (SELECT 1 FROM main.sqlite_schema WHERE type = 'index' AND name = {} COLLATE NOCASE)",
        literal(&from)
    );
    let mut checks = vec![format!(
        "SELECT litewire_error('42P01', {}) WHERE NOT {found}",
        literal(&format!("relation \"{from}\" does not exist"))
    )];
    // `ALTER [COLUMN] n SET STATISTICS k`: PostgreSQL keeps statistics of
    // an expression's column only.
    let column = next + 1 + usize::from(w.is(next + 1, "COLUMN"));
    if w.is(next, "ALTER") && w.kind(column) == Some(TokenKind::Number) {
        let n = w.text(column);
        let info = format!(
            "(SELECT cid, name FROM pragma_index_xinfo({}) WHERE seqno = {n} - 1 AND key)",
            literal(&from)
        );
        checks.push(format!(
            "SELECT litewire_error('42703', {}) WHERE {found} AND NOT EXISTS {info}",
            literal(&format!(
                "column number {n} of relation \"{from}\" does not exist"
            ))
        ));
        checks.push(format!(
            "SELECT litewire_error('0A000', 'cannot alter statistics on non-expression column \"' \
             || name || '\" of index \"' || {} || '\"') FROM {info} WHERE cid >= 0",
            literal(&from)
        ));
    }
    Some(Ok(match if_exists {
        true => Plan::Nothing,
        false => Plan::Script(checks.iter().map(|c| Arc::from(c.as_str())).collect()),
    }))
}

/// An index's `CREATE INDEX` text (or a view's `CREATE VIEW`: `keyword` says
/// which), as SQLite keeps it, with the object named `to`; `None` where it has
/// no name where one is expected.
pub fn renamed_sql(sql: &str, keyword: &str, to: &str) -> Option<String> {
    let tokens = tokenize(sql);
    let w = Words {
        sql,
        tokens: &tokens,
    };
    let mut at = (0..tokens.len()).find(|&i| w.is(i, keyword))? + 1;
    if w.is(at, "IF") && w.is(at + 1, "NOT") && w.is(at + 2, "EXISTS") {
        at += 3;
    }
    let (_, end) = w.name(at)?;
    if !matches!(w.kind(at), Some(TokenKind::Word | TokenKind::QuotedIdent)) {
        return None;
    }
    let name = tokens.get(at)?.start..tokens.get(end - 1)?.end;
    Some(format!(
        "{}{}{}",
        &sql[..name.start],
        identifier(to),
        &sql[name.end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_is_made_again_under_its_new_name() {
        assert_eq!(
            renamed_sql(
                "CREATE UNIQUE INDEX \"Old\" ON t (a) WHERE a > 0",
                "INDEX",
                "new"
            )
            .as_deref(),
            Some("CREATE UNIQUE INDEX \"new\" ON t (a) WHERE a > 0")
        );
        assert_eq!(
            renamed_sql("CREATE INDEX IF NOT EXISTS old ON t (b)", "INDEX", "b_idx").as_deref(),
            Some("CREATE INDEX IF NOT EXISTS \"b_idx\" ON t (b)")
        );
        assert_eq!(
            renamed_sql("CREATE VIEW v AS /* x */ SELECT 1 AS v", "VIEW", "w").as_deref(),
            Some("CREATE VIEW \"w\" AS /* x */ SELECT 1 AS v")
        );
    }
}
