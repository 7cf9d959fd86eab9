//! `COMMENT ON`: descriptions of tables, views, indexes, sequences and columns.
//!
//! SQLite has nowhere to keep them, so they are rows of `litewire_comments`, a
//! table litewire makes on first use (hidden from the catalog, plain data for
//! `sqlite3`), keyed by the object's name: the catalog's `pg_description` is
//! filled from it, which `obj_description()`, `col_description()` and psql's
//! `\d+` read. A comment is set in the caller's transaction, like any write.
//! Comments on other objects (schemas, functions, constraints, ...) are accepted
//! and not kept.

use super::lexer::TokenKind;
use super::quote::{literal, name_parts, unquote_literal};
use super::words::Words;
use crate::error::{Error, ErrorKind};

/// The table comments live in.
pub const COMMENTS_TABLE: &str = "litewire_comments";

const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS main.litewire_comments (\
     relation TEXT NOT NULL COLLATE NOCASE, \
     column_name TEXT NOT NULL COLLATE NOCASE, \
     description TEXT NOT NULL, \
     PRIMARY KEY (relation, column_name))";

/// `COMMENT ON {TABLE | VIEW | MATERIALIZED VIEW | INDEX | SEQUENCE | FOREIGN TABLE}
/// name IS 'text' | NULL`, `COMMENT ON COLUMN relation.column IS ...`: the
/// statements that check the object exists and keep (or, for NULL or '', drop)
/// the description. `None` for a comment on anything else.
pub(super) fn comment(w: &Words) -> Result<Option<Vec<String>>, Error> {
    let mut i = 2;
    let column = w.is(i, "COLUMN");
    let relation_kind = ["TABLE", "VIEW", "INDEX", "SEQUENCE"]
        .iter()
        .any(|kind| w.is(i, kind));
    if column || relation_kind {
        i += 1;
    } else if (w.is(i, "MATERIALIZED") && w.is(i + 1, "VIEW"))
        || (w.is(i, "FOREIGN") && w.is(i + 1, "TABLE"))
    {
        i += 2;
    } else {
        return Ok(None);
    }
    let sequence = w.is(2, "SEQUENCE");
    let (name, after) = w.name(i).ok_or_else(|| w.syntax_error(i))?;
    if !w.is(after, "IS") {
        return Err(w.syntax_error(after));
    }
    let description = match w.tokens.get(after + 1) {
        Some(_) if w.is(after + 1, "NULL") => None,
        Some(token) if token.kind == TokenKind::String => Some(unquote_literal(token.text(w.sql))),
        _ => return Err(w.syntax_error(after + 1)),
    };
    if after + 2 != w.tokens.len() {
        return Err(w.syntax_error(after + 2));
    }
    // `Words::name` has taken `public.` off already.
    let parts = name_parts(&name);
    let (relation, column_name) = match (column, parts.as_slice()) {
        (false, [relation]) => (relation.as_str(), ""),
        (true, [relation, column]) => (relation.as_str(), column.as_str()),
        _ => {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!("cannot comment on \"{name}\": only the public schema exists"),
            ));
        }
    };
    let mut script = Vec::new();
    if !sequence {
        // Sequences are rows of their own table (see `dialect::sequences`).
        script.push(format!(
            "SELECT litewire_error({}) WHERE NOT EXISTS (SELECT 1 FROM main.sqlite_schema \
             WHERE name = {} COLLATE NOCASE AND type IN ('table', 'view', 'index'))",
            literal(&format!("relation \"{relation}\" does not exist")),
            literal(relation)
        ));
    }
    if column {
        script.push(format!(
            "SELECT litewire_error({}) WHERE NOT EXISTS (SELECT 1 FROM pragma_table_info({}) \
             WHERE name = {} COLLATE NOCASE)",
            literal(&format!(
                "column \"{column_name}\" of relation \"{relation}\" does not exist"
            )),
            literal(relation),
            literal(column_name)
        ));
    }
    script.push(CREATE_TABLE.to_owned());
    script.push(match description.filter(|d| !d.is_empty()) {
        Some(description) => format!(
            "INSERT INTO main.{COMMENTS_TABLE} VALUES ({}, {}, {}) \
             ON CONFLICT (relation, column_name) DO UPDATE SET description = excluded.description",
            literal(relation),
            literal(column_name),
            literal(&description)
        ),
        None => format!(
            "DELETE FROM main.{COMMENTS_TABLE} WHERE relation = {} AND column_name = {}",
            literal(relation),
            literal(column_name)
        ),
    });
    Ok(Some(script))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::lexer::tokenize;

    fn script(sql: &str) -> Result<Option<Vec<String>>, Error> {
        let tokens = tokenize(sql);
        comment(&Words {
            sql,
            tokens: &tokens,
        })
    }

    #[test]
    fn comments_on_relations_and_columns() {
        let set = script("COMMENT ON TABLE public.items IS 'Things ''we'' sell'")
            .unwrap()
            .unwrap();
        assert_eq!(set.len(), 3);
        assert!(set[0].contains("name = 'items' COLLATE NOCASE"));
        assert!(set[2].contains("VALUES ('items', '', 'Things ''we'' sell')"));
        let column = script("comment on column items.\"Name\" is 'shown'")
            .unwrap()
            .unwrap();
        assert_eq!(column.len(), 4);
        assert!(column[1].contains("pragma_table_info('items')"));
        assert!(column[3].contains("VALUES ('items', 'Name', 'shown')"));
        let drop = script("COMMENT ON VIEW v IS NULL").unwrap().unwrap();
        assert!(drop[2].starts_with("DELETE FROM main.litewire_comments"));
        let sequence = script("COMMENT ON SEQUENCE s IS 'ids'").unwrap().unwrap();
        assert_eq!(sequence.len(), 2);
        assert_eq!(script("COMMENT ON SCHEMA public IS 'x'").unwrap(), None);
        assert!(script("COMMENT ON TABLE t IS").is_err());
        assert!(script("COMMENT ON TABLE t IS 'a' 'b'").is_err());
        assert!(script("COMMENT ON COLUMN t IS 'a'").is_err());
    }
}
