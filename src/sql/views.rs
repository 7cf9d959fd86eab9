//! `CREATE [OR REPLACE] VIEW` on the PostgreSQL port. The view's query is
//! read with PostgreSQL's rules, as any query is, and stored as the SQLite
//! query that means the same; its columns get the names PostgreSQL gives
//! them (`sum`, `?column?`) and its `*` the columns it stood for when the
//! view was made. SQLite declares no type for a computed view column, so
//! the columns' PostgreSQL types, with the query as it was written (what
//! `pg_get_viewdef` answers), are kept in a comment at the head of the
//! stored query ([`Header`]), which travels with the view wherever SQLite
//! keeps it.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use sqlparser::ast::{Ident, Statement as Ast};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::create_as::declared;
use super::dialect;
use super::postgres::{self, Catalog};
use crate::error::{Error, SqlState};

/// What the head of a view's stored query says of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Each column's PostgreSQL type, spelled as a declaration (`int8`,
    /// `numeric(10,2)`); empty where the reading could not type it.
    pub types: Vec<String>,
    /// The query as the client wrote it.
    pub query: String,
    /// A fingerprint of the stored SQLite query: a view SQLite rewrote since
    /// (a renamed table or column) no longer has the query written above.
    body: String,
}

const OPEN: &str = "/* litewire view: ";
const CLOSE: &str = " */";

/// The statements that make the view, or `None` where the text is not one
/// this reading handles (the statement then runs as SQLite reads it).
pub(super) fn create(text: &str, catalog: &dyn Catalog) -> Result<Option<Vec<String>>, Error> {
    let Ok(mut parsed) = Parser::parse_sql(&PostgreSqlDialect {}, text) else {
        return Ok(None);
    };
    let [Ast::CreateView(view)] = parsed.as_mut_slice() else {
        return Ok(None);
    };
    if view.materialized || view.to.is_some() || view.params.is_some() {
        return Ok(None);
    }
    let name = match view.name.0.as_slice() {
        [schema, name]
            if schema
                .as_ident()
                .is_some_and(|s| s.value.eq_ignore_ascii_case("public")) =>
        {
            name.to_string()
        }
        _ => view.name.to_string(),
    };
    let Some(translation) = postgres::translate_view(&view.query, catalog)? else {
        return Ok(None);
    };
    let (Some(columns), mut select) = (translation.columns, translation.statement) else {
        return Ok(None);
    };
    let Some(select) = dialect::translate_parsed(&mut select, None) else {
        return Ok(None);
    };
    if select.script.is_some() || select.catalog {
        return Ok(None);
    }
    if !translation.params.is_empty() {
        return Err(Error::state(
            SqlState::UNDEFINED_PARAMETER,
            "there is no parameter $1",
        ));
    }
    if view.columns.len() > columns.len() {
        return Err(Error::state(
            SqlState::SYNTAX_ERROR,
            "CREATE VIEW specifies more column names than columns",
        ));
    }
    let names: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, column)| {
            view.columns
                .get(i)
                .map_or_else(|| column.name.clone(), |c| c.name.value.clone())
        })
        .collect();
    let mut seen = HashSet::new();
    if let Some(twice) = names.iter().find(|n| !seen.insert(n.to_ascii_lowercase())) {
        return Err(Error::state(
            SqlState::DUPLICATE_COLUMN,
            format!("column \"{twice}\" specified more than once"),
        ));
    }
    let written = view.query.to_string();
    if let Some(existing) = view.name.0.last().and_then(|part| part.as_ident())
        && let Some(existing) = catalog.relation(&existing.value)
        && view.or_replace
    {
        replaceable(&existing, &names)?;
    }
    let header = Header {
        types: columns
            .iter()
            .map(|c| declared(c).unwrap_or_default())
            .collect(),
        query: written,
        body: fingerprint(&select.sql),
    };
    let Ok(json) = serde_json::to_string(&header) else {
        return Ok(None);
    };
    // JSON may hold `*/`; `\/` is its other spelling of `/`.
    let json = json.replace("*/", "*\\/");
    let listed: Vec<String> = names
        .iter()
        .map(|n| Ident::with_quote('"', n.as_str()).to_string())
        .collect();
    let create = format!(
        "CREATE {}VIEW {}{name}({}) AS {OPEN}{json}{CLOSE} {}",
        if view.temporary { "TEMP " } else { "" },
        if view.if_not_exists {
            "IF NOT EXISTS "
        } else {
            ""
        },
        listed.join(", "),
        select.sql
    );
    let mut statements = Vec::with_capacity(2);
    if view.or_replace {
        statements.push(format!("DROP VIEW IF EXISTS {name}"));
    }
    statements.push(create);
    Ok(Some(statements))
}

/// `CREATE OR REPLACE VIEW` keeps the columns a view has, in order, by name,
/// and may add more after them; only a view is replaced.
fn replaceable(existing: &postgres::Relation, names: &[String]) -> Result<(), Error> {
    if !existing.view {
        return Err(Error::state(
            SqlState::WRONG_OBJECT_TYPE,
            format!("\"{}\" is not a view", existing.name),
        ));
    }
    if names.len() < existing.columns.len() {
        return Err(Error::state(
            SqlState::INVALID_TABLE_DEFINITION,
            "cannot drop columns from view",
        ));
    }
    for (old, new) in existing.columns.iter().zip(names) {
        if old.name != *new {
            return Err(Error::state(
                SqlState::INVALID_TABLE_DEFINITION,
                format!(
                    "cannot change name of view column \"{}\" to \"{new}\"",
                    old.name
                ),
            ));
        }
    }
    Ok(())
}

/// The header of a view's stored `CREATE VIEW` text, if litewire wrote one.
/// Its `query` is `None` when SQLite rewrote the view since.
pub fn header(sql: &str) -> Option<(Vec<String>, Option<String>)> {
    let start = sql.find(OPEN)? + OPEN.len();
    let end = start + sql[start..].find(CLOSE)?;
    let header: Header = serde_json::from_str(&sql[start..end]).ok()?;
    let body = sql[end + CLOSE.len()..].trim();
    let current = header.body == fingerprint(body);
    Some((header.types, current.then_some(header.query)))
}

/// A stored view query without its header.
pub fn body(query: &str) -> &str {
    match query.find(OPEN).and_then(|start| {
        let end = start + query[start..].find(CLOSE)?;
        Some(end + CLOSE.len())
    }) {
        Some(end) => query[end..].trim_start(),
        None => query,
    }
}

/// FNV-1a of the text, in hex: enough to tell a rewritten query from the
/// one stored.
fn fingerprint(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_reads_back_and_notices_a_rewrite() {
        let written = Header {
            types: vec!["int8".into(), String::new()],
            query: "SELECT '*/' AS a, count(*) FROM t".into(),
            body: fingerprint("SELECT 1"),
        };
        let json = serde_json::to_string(&written)
            .expect("a header serializes")
            .replace("*/", "*\\/");
        let sql = format!("CREATE VIEW v(a, b) AS {OPEN}{json}{CLOSE} SELECT 1");
        assert_eq!(
            header(&sql),
            Some((
                vec!["int8".to_owned(), String::new()],
                Some("SELECT '*/' AS a, count(*) FROM t".to_owned())
            ))
        );
        let rewritten = sql.replace("SELECT 1", "SELECT 2");
        assert_eq!(header(&rewritten).and_then(|(_, query)| query), None);
        assert_eq!(header("CREATE VIEW v AS SELECT 1"), None);
    }
}
