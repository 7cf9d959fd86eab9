//! Materialized views: `CREATE MATERIALIZED VIEW [IF NOT EXISTS] m [(columns)]
//! AS query [WITH [NO] DATA]`, `REFRESH MATERIALIZED VIEW [CONCURRENTLY] m
//! [WITH [NO] DATA]`, `DROP MATERIALIZED VIEW [IF EXISTS] m, ... [CASCADE |
//! RESTRICT]`, on the PostgreSQL port.
//!
//! A materialized view is a table holding the query's rows (made as `CREATE
//! TABLE ... AS` makes one, with the query's PostgreSQL types), and beside it
//! a view of litewire's own, `litewire_matview_<name>`, holding the query in
//! SQLite's terms, which `REFRESH` reads the rows from again. Its PostgreSQL
//! text and whether it holds rows are a row of `litewire_matviews`. All three
//! are plain SQLite, so the file stays readable by `sqlite3` (the rows are a
//! table there), and the statements are transactional. The catalog shows the
//! table as kind `m` (`pg_matviews`, psql's `\dm`); reading one made `WITH NO
//! DATA` is 55000 and writing to one 42809, as in PostgreSQL.

use super::create_as;
use super::postgres::Catalog;
use super::quote::{identifier, literal};
use super::words::Words;
use crate::error::{Error, SqlState};

/// The table the definitions live in.
pub const MATVIEWS_TABLE: &str = "litewire_matviews";

/// The prefix of the view that holds a materialized view's query.
pub const QUERY_VIEW_PREFIX: &str = "litewire_matview_";

const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS main.litewire_matviews (\
     name TEXT PRIMARY KEY COLLATE NOCASE, definition TEXT NOT NULL, populated INTEGER NOT NULL)";

/// What a materialized view statement runs.
pub(super) struct MatviewStatement {
    pub(super) statements: Vec<String>,
    /// Its last statement stores rows, whose count the tag gives
    /// (`CREATE MATERIALIZED VIEW ... WITH DATA` answers `SELECT n`).
    pub(super) fills: bool,
}

/// The statement when it is about a materialized view.
pub(super) fn statement(
    text: &str,
    w: &Words,
    catalog: &dyn Catalog,
) -> Option<Result<MatviewStatement, Error>> {
    if w.starts_with(&["CREATE", "MATERIALIZED", "VIEW"]) {
        Some(create(text, w, catalog))
    } else if w.starts_with(&["REFRESH", "MATERIALIZED", "VIEW"]) {
        Some(refresh(w).map(|statements| MatviewStatement {
            statements,
            fills: false,
        }))
    } else if w.starts_with(&["DROP", "MATERIALIZED", "VIEW"]) {
        Some(drop(w).map(|statements| MatviewStatement {
            statements,
            fills: false,
        }))
    } else {
        None
    }
}

/// The view that holds `name`'s query.
pub fn query_view(name: &str) -> String {
    format!("{QUERY_VIEW_PREFIX}{name}")
}

/// A name as PostgreSQL folds it, its schema (`public`) dropped.
fn relation_name(w: &Words, i: usize) -> Result<(String, usize), Error> {
    let (name, next) = w.name(i).ok_or_else(|| w.syntax_error(i))?;
    if let Some(schema) = super::quote::qualifier(&name) {
        return Err(Error::state(
            SqlState::INVALID_SCHEMA_NAME,
            format!("schema \"{schema}\" does not exist"),
        ));
    }
    let folded = match name.strip_prefix('"') {
        Some(_) => super::quote::unquote_identifier(&name),
        None => name.to_ascii_lowercase(),
    };
    Ok((folded, next))
}

/// The statement that fails with `state` and `message` when the SQL
/// `condition` holds.
pub(super) fn fail(state: &str, message: &str, condition: &str) -> String {
    format!(
        "SELECT litewire_error({}, {}) WHERE {condition}",
        literal(state),
        literal(message)
    )
}

fn is_matview(name: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM main.{MATVIEWS_TABLE} WHERE name = {})",
        literal(name)
    )
}

fn is_relation(name: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM main.sqlite_schema WHERE type IN ('table', 'view') \
         AND name = {} COLLATE NOCASE)",
        literal(name)
    )
}

fn create(text: &str, w: &Words, catalog: &dyn Catalog) -> Result<MatviewStatement, Error> {
    let guarded = w.is(3, "IF") && w.is(4, "NOT") && w.is(5, "EXISTS");
    let at = if guarded { 6 } else { 3 };
    let (name, _) = relation_name(w, at)?;
    let (_, with_data) = create_as::data_clause(text);
    // The rest reads as `CREATE TABLE ... AS` does.
    let view_word = &w.tokens[2];
    let as_table = format!("CREATE TABLE{}", &text[view_word.end..]);
    let made = create_as::read(&as_table, catalog)?.ok_or_else(|| {
        Error::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            "this materialized view's query is not supported",
        )
    })?;
    if made.statements.is_empty() {
        // `IF NOT EXISTS` found the relation.
        return Ok(MatviewStatement {
            statements: Vec::new(),
            fills: false,
        });
    }
    let mut statements = vec![CREATE_TABLE.to_owned()];
    let mut made_statements = made.statements;
    let rows = match with_data {
        true => made_statements.pop(),
        false => None,
    };
    statements.extend(made_statements);
    statements.push(format!(
        "CREATE VIEW main.{} AS {}",
        identifier(&query_view(&name)),
        made.query
    ));
    let definition = w
        .tokens
        .iter()
        .position(|t| t.is_keyword(text, "AS"))
        .map(|i| text[w.tokens[i].end..].trim())
        .unwrap_or_default();
    let definition = create_as::data_clause(definition)
        .0
        .trim()
        .trim_end_matches(';');
    statements.push(format!(
        "INSERT INTO main.{MATVIEWS_TABLE} VALUES ({}, {}, {})",
        literal(&name),
        literal(definition),
        i64::from(with_data)
    ));
    statements.extend(rows);
    Ok(MatviewStatement {
        statements,
        fills: with_data,
    })
}

fn refresh(w: &Words) -> Result<Vec<String>, Error> {
    let concurrently = w.is(3, "CONCURRENTLY");
    let at = if concurrently { 4 } else { 3 };
    let (name, mut i) = relation_name(w, at)?;
    let mut with_data = true;
    if w.is(i, "WITH") && w.is(i + 1, "NO") && w.is(i + 2, "DATA") {
        with_data = false;
        i += 3;
    } else if w.is(i, "WITH") && w.is(i + 1, "DATA") {
        i += 2;
    }
    if i != w.tokens.len() {
        return Err(w.syntax_error(i));
    }
    if concurrently && !with_data {
        return Err(Error::state(
            SqlState::SYNTAX_ERROR,
            "CONCURRENTLY and WITH NO DATA options cannot be used together",
        ));
    }
    let mut script = vec![
        CREATE_TABLE.to_owned(),
        fail(
            "42P01",
            &format!("relation \"{name}\" does not exist"),
            &format!("NOT {}", is_relation(&name)),
        ),
        fail(
            "0A000",
            &format!("\"{name}\" is not a materialized view"),
            &format!("NOT {}", is_matview(&name)),
        ),
    ];
    if concurrently {
        script.push(fail(
            "0A000",
            "CONCURRENTLY cannot be used when the materialized view is not populated",
            &format!(
                "EXISTS (SELECT 1 FROM main.{MATVIEWS_TABLE} WHERE name = {} AND populated = 0)",
                literal(&name)
            ),
        ));
        script.push(fail(
            "55000",
            &format!("cannot refresh materialized view \"public.{name}\" concurrently"),
            &format!(
                "NOT EXISTS (SELECT 1 FROM pragma_index_list({}) WHERE \"unique\" AND NOT partial)",
                literal(&name)
            ),
        ));
    }
    script.push(format!("DELETE FROM main.{}", identifier(&name)));
    if with_data {
        script.push(format!(
            "INSERT INTO main.{} SELECT * FROM main.{}",
            identifier(&name),
            identifier(&query_view(&name))
        ));
    }
    script.push(format!(
        "UPDATE main.{MATVIEWS_TABLE} SET populated = {} WHERE name = {}",
        i64::from(with_data),
        literal(&name)
    ));
    Ok(script)
}

fn drop(w: &Words) -> Result<Vec<String>, Error> {
    let guarded = w.is(3, "IF") && w.is(4, "EXISTS");
    let mut i = if guarded { 5 } else { 3 };
    let mut names = Vec::new();
    loop {
        let (name, next) = relation_name(w, i)?;
        names.push(name);
        i = next;
        if w.text(i) != "," {
            break;
        }
        i += 1;
    }
    if w.is(i, "CASCADE") || w.is(i, "RESTRICT") {
        i += 1;
    }
    if i != w.tokens.len() {
        return Err(w.syntax_error(i));
    }
    let mut script = vec![CREATE_TABLE.to_owned()];
    for name in names {
        if !guarded {
            script.push(fail(
                "42P01",
                &format!("materialized view \"{name}\" does not exist"),
                &format!("NOT {}", is_relation(&name)),
            ));
        }
        // A table or view of that name is not one, with or without IF EXISTS.
        script.push(fail(
            "42809",
            &format!("\"{name}\" is not a materialized view"),
            &format!("{} AND NOT {}", is_relation(&name), is_matview(&name)),
        ));
        script.extend(dropped(&name));
    }
    Ok(script)
}

/// The statements that drop materialized view `name`, which exists.
pub(super) fn dropped(name: &str) -> [String; 3] {
    [
        format!("DROP TABLE IF EXISTS main.{}", identifier(name)),
        format!("DROP VIEW IF EXISTS main.{}", identifier(&query_view(name))),
        format!(
            "DELETE FROM main.{MATVIEWS_TABLE} WHERE name = {}",
            literal(name)
        ),
    ]
}

/// The check a `DROP TABLE` or `DROP VIEW` of `name` runs first: a
/// materialized view is neither (42809).
pub(super) fn not_a(kind: &str, name: &str) -> String {
    fail(
        "42809",
        &format!("\"{name}\" is not a {}", kind.to_ascii_lowercase()),
        &format!(
            "EXISTS (SELECT 1 FROM main.sqlite_schema WHERE type = 'view' AND name = {} COLLATE NOCASE)",
            literal(&query_view(name))
        ),
    )
}
