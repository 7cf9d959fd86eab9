//! `CREATE SCHEMA`, `DROP SCHEMA` and `ALTER SCHEMA ... RENAME TO` on the
//! PostgreSQL port.
//!
//! A schema of the user's is a row of `litewire_schemas` in the database
//! file, and its objects are named `"schema.name"` there (see
//! `schema_names`), so creating, filling and dropping one is as transactional
//! as any other DDL, and `sqlite3` sees every table. `public`, `pg_catalog`
//! and `information_schema` are litewire's own and always there.

use super::lexer::TokenKind;
use super::matviews::fail;
use super::postgres::{Catalog, Relation};
use super::quote::{identifier, literal, unquote_identifier, unquote_literal};
use super::schema_names::stored_name;
use super::words::Words;
use crate::error::{Error, SqlState};

/// The table the schemas live in.
pub const SCHEMAS_TABLE: &str = "litewire_schemas";

const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS main.litewire_schemas (\
     name TEXT PRIMARY KEY, owner TEXT)";

/// The schemas every database has.
const BUILT_IN: &[&str] = &["public", "pg_catalog", "information_schema", "pg_toast"];

/// The statements `CREATE SCHEMA` or `DROP SCHEMA` runs.
pub(super) fn statement(w: &Words, catalog: &dyn Catalog) -> Option<Result<Vec<String>, Error>> {
    if w.starts_with(&["CREATE", "SCHEMA"]) {
        Some(create(w))
    } else if w.starts_with(&["DROP", "SCHEMA"]) {
        Some(drop(w, catalog))
    } else {
        None
    }
}

/// `ALTER SCHEMA s RENAME TO t`: what the engine renames (see
/// `engine::schema_rename`).
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaRename {
    pub from: String,
    pub to: String,
    /// What runs first: the checks that fail with PostgreSQL's errors.
    pub checks: Vec<String>,
}

/// Reads `ALTER SCHEMA s RENAME TO t`; `None` for any other statement.
pub(super) fn rename_statement(w: &Words) -> Option<Result<SchemaRename, Error>> {
    (w.starts_with(&["ALTER", "SCHEMA"]) && w.is(3, "RENAME")).then(|| rename(w))
}

/// The statements that fail with PostgreSQL's error unless schema `name`
/// exists.
pub(super) fn must_exist(name: &str) -> Vec<String> {
    if BUILT_IN.contains(&name) {
        return Vec::new();
    }
    vec![
        CREATE_TABLE.to_owned(),
        fail(
            "3F000",
            &format!("schema \"{name}\" does not exist"),
            &format!("NOT {}", schema_exists(name)),
        ),
    ]
}

/// `CREATE SCHEMA [IF NOT EXISTS] s [AUTHORIZATION role]` or `CREATE SCHEMA
/// [IF NOT EXISTS] AUTHORIZATION role` (the schema named as the role).
fn create(w: &Words) -> Result<Vec<String>, Error> {
    let guarded = w.is(2, "IF") && w.is(3, "NOT") && w.is(4, "EXISTS");
    let mut i = if guarded { 5 } else { 2 };
    let mut name = None;
    if !w.is(i, "AUTHORIZATION") {
        name = Some(w.ident(i).ok_or_else(|| w.syntax_error(i))?);
        name = name.map(|n| folded(w, i, n));
        i += 1;
    }
    let mut owner = None;
    if w.is(i, "AUTHORIZATION") {
        let role = w.ident(i + 1).ok_or_else(|| w.syntax_error(i + 1))?;
        owner = Some(folded(w, i + 1, role));
        i += 2;
    }
    if i < w.tokens.len() {
        return Err(Error::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            "CREATE SCHEMA with the objects to create in it is not supported: create them after it",
        ));
    }
    let Some(name) = name.or_else(|| owner.clone()) else {
        return Err(w.syntax_error(i));
    };
    unacceptable(&name)?;
    let exists = format!("schema \"{name}\" already exists");
    if BUILT_IN.contains(&name.as_str()) {
        return match guarded {
            true => Ok(Vec::new()),
            false => Err(Error::state(SqlState::DUPLICATE_SCHEMA, exists)),
        };
    }
    let mut script = vec![CREATE_TABLE.to_owned()];
    if !guarded {
        script.push(fail("42P06", &exists, &schema_exists(&name)));
    }
    script.push(format!(
        "INSERT OR IGNORE INTO main.{SCHEMAS_TABLE} (name, owner) VALUES ({}, {})",
        literal(&name),
        owner.as_deref().map_or_else(|| "NULL".to_owned(), literal)
    ));
    Ok(script)
}

/// `DROP SCHEMA [IF EXISTS] s, ... [CASCADE | RESTRICT]`: with CASCADE, what
/// it holds goes too (views, then tables, then sequences and types).
fn drop(w: &Words, catalog: &dyn Catalog) -> Result<Vec<String>, Error> {
    let guarded = w.is(2, "IF") && w.is(3, "EXISTS");
    let mut i = if guarded { 4 } else { 2 };
    let mut names = Vec::new();
    loop {
        let name = w.ident(i).ok_or_else(|| w.syntax_error(i))?;
        names.push(folded(w, i, name));
        i += 1;
        if w.text(i) != "," {
            break;
        }
        i += 1;
    }
    let cascade = w.is(i, "CASCADE");
    if cascade || w.is(i, "RESTRICT") {
        i += 1;
    }
    if i < w.tokens.len() {
        return Err(w.syntax_error(i));
    }
    let mut script = vec![CREATE_TABLE.to_owned()];
    for name in &names {
        if BUILT_IN.contains(&name.as_str()) {
            return Err(Error::state(
                SqlState::DEPENDENT_OBJECTS_STILL_EXIST,
                format!("cannot drop schema {name} because it is required by the database system"),
            ));
        }
        if !guarded {
            script.push(fail(
                "3F000",
                &format!("schema \"{name}\" does not exist"),
                &format!("NOT {}", schema_exists(name)),
            ));
        }
        let contents = Contents::of(name, catalog);
        if cascade {
            script.extend(contents.dropped());
        } else {
            script.push(fail(
                "2BP01",
                &format!("cannot drop schema {name} because other objects depend on it"),
                &contents.any(),
            ));
        }
        script.push(format!(
            "DELETE FROM main.{SCHEMAS_TABLE} WHERE name = {}",
            literal(name)
        ));
    }
    Ok(script)
}

/// `ALTER SCHEMA s RENAME TO t`, checked: `s` exists (3F000), `t` does not
/// (42P06).
fn rename(w: &Words) -> Result<SchemaRename, Error> {
    let from = w.ident(2).map(|n| folded(w, 2, n));
    let to = w.ident(5).map(|n| folded(w, 5, n));
    let (Some(from), Some(to), true, 6) = (from, to, w.is(4, "TO"), w.tokens.len()) else {
        return Err(w.syntax_error(w.tokens.len().min(6)));
    };
    if BUILT_IN.contains(&from.as_str()) {
        return Err(Error::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            format!("schema \"{from}\" cannot be renamed here"),
        ));
    }
    unacceptable(&to)?;
    let checks = vec![
        CREATE_TABLE.to_owned(),
        fail(
            "3F000",
            &format!("schema \"{from}\" does not exist"),
            &format!("NOT {}", schema_exists(&from)),
        ),
        fail(
            "42P06",
            &format!("schema \"{to}\" already exists"),
            &match BUILT_IN.contains(&to.as_str()) {
                true => "1".to_owned(),
                false => schema_exists(&to),
            },
        ),
    ];
    Ok(SchemaRename { from, to, checks })
}

/// The prefixes before a schema's SQLite name in the names litewire makes
/// from it: a materialized view's query, an enum's or a domain's CHECK.
const NAME_PREFIXES: &[&str] = &[
    "",
    super::matviews::QUERY_VIEW_PREFIX,
    super::enums::CHECK_PREFIX,
    super::domains::CHECK_PREFIX,
];

impl SchemaRename {
    /// `name` (a SQLite name, or one litewire makes from it) in the schema's
    /// new name, if it is one of the schema's.
    pub fn renamed(&self, name: &str) -> Option<String> {
        NAME_PREFIXES.iter().find_map(|prefix| {
            let rest = name.strip_prefix(prefix)?.strip_prefix(&self.from)?;
            let rest = rest.strip_prefix('.')?;
            Some(format!("{prefix}{}.{rest}", self.to))
        })
    }

    /// `sql` (a definition from `sqlite_schema`, or litewire's text of one)
    /// with every name of the schema in its new name: quoted identifiers
    /// (`"s.t"`), names in string literals (`nextval('"s.q"')`, a written
    /// default's `'x'::s.mood`) and in a view's header comment.
    pub fn renamed_sql(&self, sql: &str) -> String {
        let tokens = super::lexer::tokenize(sql);
        let mut out = String::with_capacity(sql.len());
        let mut copied = 0;
        for (i, token) in tokens.iter().enumerate() {
            // A view's header comment names its relations in JSON (`\"s.t\"`).
            out.push_str(&self.renamed_after(&sql[copied..token.start], &["\""]));
            let text = token.text(sql);
            match token.kind {
                TokenKind::QuotedIdent if text.starts_with('"') => {
                    match self.renamed(&unquote_identifier(text)) {
                        Some(name) => out.push_str(&identifier(&name)),
                        None => out.push_str(text),
                    }
                }
                TokenKind::String if text.starts_with('\'') => {
                    let content = unquote_literal(text);
                    // A sequence named in a call (`nextval('s.q')`); any
                    // other string is data, but for the names quoted or cast
                    // in a written expression.
                    let called = i >= 2
                        && tokens[i - 1].kind == TokenKind::LeftParen
                        && ["nextval", "currval", "setval"]
                            .iter()
                            .any(|f| tokens[i - 2].text(sql).eq_ignore_ascii_case(f));
                    let renamed = match self.renamed(&content) {
                        Some(name) if called => name,
                        _ => self.renamed_after(&content, &["\"", "'", "::"]),
                    };
                    match renamed == content {
                        true => out.push_str(text),
                        false => out.push_str(&literal(&renamed)),
                    }
                }
                _ => out.push_str(text),
            }
            copied = token.end;
        }
        out.push_str(&self.renamed_after(&sql[copied..], &["\""]));
        out
    }

    /// `text` with each name of the schema after one of `markers` in its
    /// new name.
    fn renamed_after(&self, text: &str, markers: &[&str]) -> String {
        let mut out = text.to_owned();
        for marker in markers {
            out = out.replace(
                &format!("{marker}{}.", self.from),
                &format!("{marker}{}.", self.to),
            );
        }
        out
    }
}

/// The tables a `CREATE TABLE` statement's foreign keys refer to.
pub fn referenced_tables(create: &str) -> Vec<String> {
    let tokens = super::lexer::tokenize(create);
    let w = Words {
        sql: create,
        tokens: &tokens,
    };
    (0..tokens.len())
        .filter(|&i| w.is(i, "REFERENCES"))
        .filter_map(|i| w.ident(i + 1))
        .collect()
}

/// The objects of one schema, as the catalog knows them.
struct Contents {
    prefix: String,
    tables: Vec<Relation>,
    views: Vec<String>,
    materialized: Vec<String>,
    sequences: bool,
    enums: bool,
    domains: bool,
    functions: bool,
}

impl Contents {
    fn of(schema: &str, catalog: &dyn Catalog) -> Contents {
        let prefix = stored_name(schema, "");
        let mut contents = Contents {
            sequences: catalog.relation("litewire_sequences").is_some(),
            enums: catalog.relation(super::enums::ENUMS_TABLE).is_some(),
            domains: catalog.relation(super::domains::DOMAINS_TABLE).is_some(),
            functions: catalog.relation(super::routines::FUNCTIONS_TABLE).is_some(),
            prefix,
            tables: Vec::new(),
            views: Vec::new(),
            materialized: Vec::new(),
        };
        for relation in catalog.relations() {
            let name = relation.name.clone();
            let starts = name
                .get(..contents.prefix.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(&contents.prefix));
            if !starts {
                continue;
            }
            match (relation.view, relation.materialized) {
                (_, Some(_)) => contents.materialized.push(name),
                (true, None) => contents.views.push(name),
                (false, None) => contents.tables.push(relation),
            }
        }
        contents
    }

    /// `name` of SQLite's `table` starts with the schema's prefix.
    fn named_in(&self, column: &str) -> String {
        format!(
            "substr({column}, 1, {}) = {} COLLATE NOCASE",
            self.prefix.chars().count(),
            literal(&self.prefix)
        )
    }

    /// SQL that holds when the schema holds anything.
    fn any(&self) -> String {
        let mut tests = vec![format!(
            "EXISTS (SELECT 1 FROM main.sqlite_schema WHERE {})",
            self.named_in("name")
        )];
        tests.extend(self.own_row_tests());
        tests.join(" OR ")
    }

    /// Its rows in litewire's tables of sequences and types: each table and
    /// the condition on its rows.
    fn own_rows(&self) -> Vec<(&'static str, String)> {
        let mut rows = Vec::new();
        if self.sequences {
            rows.push(("litewire_sequences", self.named_in("name")));
        }
        if self.enums {
            rows.push((super::enums::ENUMS_TABLE, self.named_in("type")));
        }
        if self.domains {
            rows.push((super::domains::DOMAINS_TABLE, self.named_in("name")));
        }
        if self.functions {
            rows.push((super::routines::FUNCTIONS_TABLE, self.named_in("name")));
        }
        rows
    }

    /// Tests for any of [`Self::own_rows`].
    fn own_row_tests(&self) -> Vec<String> {
        self.own_rows()
            .into_iter()
            .map(|(table, condition)| {
                format!("EXISTS (SELECT 1 FROM main.{table} WHERE {condition})")
            })
            .collect()
    }

    /// The statements that drop all of it.
    fn dropped(&self) -> Vec<String> {
        let mut script = Vec::new();
        for matview in &self.materialized {
            script.extend(super::matviews::dropped(matview));
        }
        for view in &self.views {
            script.push(format!("DROP VIEW IF EXISTS main.{}", identifier(view)));
        }
        // A table another one refers to goes after it: SQLite checks the
        // foreign keys of the rows a dropped table held.
        let mut tables: Vec<&Relation> = self.tables.iter().collect();
        let mut ordered = Vec::with_capacity(tables.len());
        while !tables.is_empty() {
            let unreferenced = tables.iter().position(|t| {
                !tables.iter().any(|other| {
                    other.name != t.name
                        && other
                            .references
                            .iter()
                            .any(|r| r.eq_ignore_ascii_case(&t.name))
                })
            });
            // A cycle of references: what is left goes in any order.
            ordered.push(tables.remove(unreferenced.unwrap_or(0)));
        }
        for table in ordered {
            script.push(format!(
                "DROP TABLE IF EXISTS main.{}",
                identifier(&table.name)
            ));
        }
        for (table, condition) in self.own_rows() {
            script.push(format!("DELETE FROM main.{table} WHERE {condition}"));
        }
        script
    }
}

/// A name no new schema may have: PostgreSQL's `pg_` prefix (42939), and a
/// dot, which would make its objects' SQLite names ambiguous (0A000).
fn unacceptable(name: &str) -> Result<(), Error> {
    if name.starts_with("pg_") {
        return Err(Error::state(
            SqlState::RESERVED_NAME,
            format!("unacceptable schema name \"{name}\""),
        ));
    }
    if name.contains('.') {
        return Err(Error::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            format!("schema name \"{name}\" has a dot, which litewire's schemas cannot have"),
        ));
    }
    Ok(())
}

/// The identifier at `i` as PostgreSQL folds it.
fn folded(w: &Words, i: usize, name: String) -> String {
    match w.kind(i) {
        Some(super::lexer::TokenKind::QuotedIdent) => name,
        _ => name.to_ascii_lowercase(),
    }
}

/// SQL that holds when schema `name` exists.
fn schema_exists(name: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM main.{SCHEMAS_TABLE} WHERE name = {})",
        literal(name)
    )
}

#[cfg(test)]
mod tests {
    use super::SchemaRename;

    #[test]
    fn a_rename_reaches_every_name_of_the_schema() {
        let rename = SchemaRename {
            from: "app".into(),
            to: "books".into(),
            checks: Vec::new(),
        };
        assert_eq!(
            rename.renamed_sql(
                "CREATE TABLE \"app.t\" (\"id\" INTEGER DEFAULT (nextval('\"app.t_id_seq\"')), \
                 \"m\" \"app.mood\" CONSTRAINT \"litewire_enum_app.mood\" CHECK (\"m\" IN ('app.x')), \
                 \"d\" DEFAULT (litewire_written(nextval('app.s'), 'nextval(''app.s''::regclass)')), \
                 FOREIGN KEY (id) REFERENCES \"app.u\"(id), \"apps.v\" TEXT)"
            ),
            "CREATE TABLE \"books.t\" (\"id\" INTEGER DEFAULT (nextval('\"books.t_id_seq\"')), \
             \"m\" \"books.mood\" CONSTRAINT \"litewire_enum_books.mood\" CHECK (\"m\" IN ('app.x')), \
             \"d\" DEFAULT (litewire_written(nextval('books.s'), 'nextval(''books.s''::regclass)')), \
             FOREIGN KEY (id) REFERENCES \"books.u\"(id), \"apps.v\" TEXT)"
        );
        assert_eq!(
            rename.renamed_sql(
                "CREATE VIEW \"app.v\" AS /* litewire view: {\"query\":\"SELECT a FROM \\\"app.t\\\"\"} */ \
                 SELECT a FROM \"app.t\" AS \"t\""
            ),
            "CREATE VIEW \"books.v\" AS /* litewire view: {\"query\":\"SELECT a FROM \\\"books.t\\\"\"} */ \
             SELECT a FROM \"books.t\" AS \"t\""
        );
        assert_eq!(
            rename.renamed("litewire_matview_app.m").as_deref(),
            Some("litewire_matview_books.m")
        );
        assert_eq!(rename.renamed("application.t"), None);
    }
}
