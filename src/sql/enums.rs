//! Enum types: `CREATE TYPE name AS ENUM ('a', 'b')`, `DROP TYPE [IF EXISTS] a, b
//! [CASCADE | RESTRICT]`, `ALTER TYPE name ADD VALUE [IF NOT EXISTS] 'c' [BEFORE |
//! AFTER 'a']`.
//!
//! SQLite has no types of its own making. A type is rows of `litewire_enums` (one
//! per label, with its sort order), a table made on first use and hidden from the
//! catalog, so enum DDL is transactional and the file stays plain SQLite. A column
//! declared with the type keeps the type's name as its declared type and gets a
//! CHECK that its value is one of the labels (`litewire_enum_<type>`, see
//! [`add_checks`]), which any SQLite tool enforces too; adding a label rebuilds
//! the tables whose columns use the type, to widen their CHECK.

use super::lexer::{Token, TokenKind};
use super::quote::{identifier, literal, unquote_literal};
use super::schema_names::stored_written;
use super::table_definition::{Constraint, ConstraintKind, TableDefinition};
use super::words::Words;
use crate::error::{Error, ErrorKind};

/// The table the labels live in.
pub const ENUMS_TABLE: &str = "litewire_enums";

/// Its definition: made by the first `CREATE TYPE`.
pub(super) const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS main.litewire_enums (\
     type TEXT NOT NULL COLLATE NOCASE, label TEXT NOT NULL, sort REAL NOT NULL, \
     PRIMARY KEY (type, label))";

/// The prefix of the CHECK constraints that hold a column to its type's labels.
pub const CHECK_PREFIX: &str = "litewire_enum_";

/// An enum type and its labels, in their sort order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumType {
    pub name: String,
    pub labels: Vec<String>,
}

/// An enum DDL statement: the SQL that records it, and for `ADD VALUE` the type
/// whose columns' CHECKs must be widened.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumChange {
    pub script: Vec<String>,
    pub widened: Option<String>,
}

/// Reads `CREATE TYPE ... AS ENUM`, `DROP TYPE` or `ALTER TYPE ... ADD VALUE`;
/// `None` for anything else.
pub(super) fn statement(sql: &str, tokens: &[Token]) -> Result<Option<EnumChange>, Error> {
    let w = Words { sql, tokens };
    if w.starts_with(&["CREATE", "TYPE"]) {
        create(&w).map(Some)
    } else if w.starts_with(&["DROP", "TYPE"]) {
        drop_types(&w).map(Some)
    } else if w.starts_with(&["ALTER", "TYPE"]) {
        add_value(&w).map(Some)
    } else {
        Ok(None)
    }
}

/// A type's SQLite name (`mood`, or `s.mood` for one of schema `s`), folded
/// as PostgreSQL folds names.
fn type_name(w: &Words, i: usize) -> Result<(String, usize), Error> {
    let (name, next) = w.name(i).ok_or_else(|| w.syntax_error(i))?;
    Ok((stored_written(&name), next))
}

pub(super) fn exists(name: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM main.{ENUMS_TABLE} WHERE type = {})",
        literal(name)
    )
}

fn fail_if(condition: &str, message: &str) -> String {
    format!(
        "SELECT litewire_error({}) WHERE {condition}",
        literal(message)
    )
}

/// `CREATE TYPE name AS ENUM ('a', ...)`.
fn create(w: &Words) -> Result<EnumChange, Error> {
    let (name, i) = type_name(w, 2)?;
    if !(w.is(i, "AS") && w.is(i + 1, "ENUM")) || w.kind(i + 2) != Some(TokenKind::LeftParen) {
        return Err(Error::new(
            ErrorKind::Unsupported,
            "only enum types can be created (CREATE TYPE name AS ENUM (...))",
        ));
    }
    let close = w.closing(i + 2).ok_or_else(|| w.syntax_error(i + 2))?;
    let mut labels: Vec<String> = Vec::new();
    // Labels and commas, in turn.
    for j in i + 3..close {
        let label_expected = (j - (i + 3)) % 2 == 0;
        match w.kind(j) {
            Some(TokenKind::String) if label_expected => labels.push(unquote_literal(w.text(j))),
            _ if !label_expected && w.text(j) == "," && j + 1 < close => {}
            _ => return Err(w.syntax_error(j)),
        }
    }
    if close + 1 != w.tokens.len() {
        return Err(w.syntax_error(close + 1));
    }
    let mut script = vec![
        CREATE_TABLE.to_owned(),
        fail_if(&exists(&name), &format!("type \"{name}\" already exists")),
    ];
    for (n, label) in labels.iter().enumerate() {
        script.push(format!(
            "INSERT INTO main.{ENUMS_TABLE} (type, label, sort) VALUES ({}, {}, {})",
            literal(&name),
            literal(label),
            n + 1
        ));
    }
    Ok(EnumChange {
        script,
        widened: None,
    })
}

/// `DROP TYPE [IF EXISTS] a, b [CASCADE | RESTRICT]`. A type a column uses
/// stays (2BP01), even with CASCADE: dropping the column is the user's call.
fn drop_types(w: &Words) -> Result<EnumChange, Error> {
    let (if_exists, start) = if w.is(2, "IF") && w.is(3, "EXISTS") {
        (true, 4)
    } else {
        (false, 2)
    };
    let (names, end) = w.name_list(start, &["CASCADE", "RESTRICT"]);
    if names.is_empty() {
        return Err(w.syntax_error(start));
    }
    if end < w.tokens.len() && !(w.is(end, "CASCADE") || w.is(end, "RESTRICT")) {
        return Err(w.syntax_error(end));
    }
    let mut script = vec![CREATE_TABLE.to_owned()];
    for written in &names {
        // Read each name again through the same folding as CREATE.
        let single = Words {
            sql: written,
            tokens: &super::lexer::tokenize(written),
        };
        let (name, _) = type_name(&single, 0)?;
        if !if_exists {
            script.push(fail_if(
                &format!("NOT {}", exists(&name)),
                &format!("type \"{name}\" does not exist"),
            ));
        }
        script.push(fail_if(
            &format!(
                "EXISTS (SELECT 1 FROM main.sqlite_schema AS m, pragma_table_info(m.name) AS c \
                 WHERE m.type = 'table' AND c.type = {} COLLATE NOCASE)",
                literal(&name)
            ),
            &format!("cannot drop type {name} because other objects depend on it"),
        ));
        script.push(format!(
            "DELETE FROM main.{ENUMS_TABLE} WHERE type = {}",
            literal(&name)
        ));
    }
    Ok(EnumChange {
        script,
        widened: None,
    })
}

/// `ALTER TYPE name ADD VALUE [IF NOT EXISTS] 'label' [BEFORE | AFTER 'other']`.
fn add_value(w: &Words) -> Result<EnumChange, Error> {
    let (name, mut i) = type_name(w, 2)?;
    if !(w.is(i, "ADD") && w.is(i + 1, "VALUE")) {
        return Err(Error::new(
            ErrorKind::Unsupported,
            "only ALTER TYPE ... ADD VALUE is supported for enum types",
        ));
    }
    i += 2;
    let if_not_exists = w.is(i, "IF") && w.is(i + 1, "NOT") && w.is(i + 2, "EXISTS");
    if if_not_exists {
        i += 3;
    }
    if w.kind(i) != Some(TokenKind::String) {
        return Err(w.syntax_error(i));
    }
    let label = unquote_literal(w.text(i));
    i += 1;
    let table = format!("main.{ENUMS_TABLE}");
    let of_type = format!("type = {}", literal(&name));
    // Where the new label sorts: last, or halfway to its neighbour.
    let sort = if w.is(i, "BEFORE") || w.is(i, "AFTER") {
        let before = w.is(i, "BEFORE");
        if w.kind(i + 1) != Some(TokenKind::String) {
            return Err(w.syntax_error(i + 1));
        }
        let other = literal(&unquote_literal(w.text(i + 1)));
        i += 2;
        let (cmp, agg, edge) = if before {
            ("<", "max", "- 1")
        } else {
            (">", "min", "+ 1")
        };
        format!(
            "(SELECT coalesce((SELECT ({agg}(sort) + o.sort) / 2 FROM {table} WHERE {of_type} AND sort {cmp} o.sort), o.sort {edge}) \
             FROM {table} AS o WHERE o.{of_type} AND o.label = {other})"
        )
    } else {
        format!("(SELECT coalesce(max(sort), 0) + 1 FROM {table} WHERE {of_type})")
    };
    if i != w.tokens.len() {
        return Err(w.syntax_error(i));
    }
    let label_exists = format!(
        "EXISTS (SELECT 1 FROM {table} WHERE {of_type} AND label = {})",
        literal(&label)
    );
    let mut script = vec![
        CREATE_TABLE.to_owned(),
        fail_if(
            &format!("NOT {}", exists(&name)),
            &format!("type \"{name}\" does not exist"),
        ),
    ];
    if !if_not_exists {
        script.push(fail_if(
            &label_exists,
            &format!("enum label \"{label}\" already exists"),
        ));
    }
    script.push(fail_if(
        &format!("{sort} IS NULL"),
        "invalid enum label: the label to put it beside is not one of the type's",
    ));
    script.push(format!(
        "INSERT INTO {table} (type, label, sort) SELECT {}, {}, {sort} WHERE NOT {label_exists}",
        literal(&name),
        literal(&label)
    ));
    Ok(EnumChange {
        script,
        widened: Some(name),
    })
}

/// Gives each column of `def` declared with one of `enums` the CHECK that holds
/// it to the type's labels, and takes it from columns no longer declared so.
/// Returns whether anything changed.
pub fn add_checks(def: &mut TableDefinition, enums: &[EnumType]) -> bool {
    let mut changed = false;
    let names: Vec<String> = def.columns().map(|c| c.name.clone()).collect();
    for name in names {
        let Ok(column) = def.column_mut(&name) else {
            continue;
        };
        let declared = declared_enum(&column.type_sql, enums);
        let check = declared.map(|e| Constraint {
            name: Some(format!("{CHECK_PREFIX}{}", e.name)),
            kind: ConstraintKind::Check,
            body: format!(
                "CHECK ({} IN ({}))",
                identifier(&column.name),
                e.labels
                    .iter()
                    .map(|l| literal(l))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            columns: Vec::new(),
        });
        let before = column.constraints.len();
        let had = column
            .constraints
            .iter()
            .find(|c| is_enum_check(c))
            .cloned();
        if had == check {
            continue;
        }
        column.constraints.retain(|c| !is_enum_check(c));
        changed |= column.constraints.len() != before;
        if let Some(check) = check {
            column.constraints.push(check);
            changed = true;
        }
    }
    changed
}

fn is_enum_check(c: &Constraint) -> bool {
    c.kind == ConstraintKind::Check
        && c.name
            .as_deref()
            .is_some_and(|n| n.starts_with(CHECK_PREFIX))
}

/// The enum a declared type names, if any.
fn declared_enum<'a>(type_sql: &str, enums: &'a [EnumType]) -> Option<&'a EnumType> {
    let name = stored_written(type_sql);
    enums.iter().find(|e| e.name.eq_ignore_ascii_case(&name))
}

/// `create_table` with the enum CHECKs its columns need; `None` when it needs
/// none (or is no statement this module can read).
pub fn create_table_with_checks(create_table: &str, enums: &[EnumType]) -> Option<String> {
    let mut def = TableDefinition::parse(create_table).ok()?;
    add_checks(&mut def, enums).then(|| def.sql_as_written())
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokenize;
    use super::*;

    fn change(sql: &str) -> Result<EnumChange, Error> {
        statement(sql, &tokenize(sql)).map(|c| c.expect(sql))
    }

    #[test]
    fn reads_enum_ddl() {
        let created = change("CREATE TYPE public.Mood AS ENUM ('sad', 'o''k')").unwrap();
        assert!(
            created.script[2].contains("'mood', 'sad', 1"),
            "{created:?}"
        );
        assert!(created.script[3].contains("'o''k', 2"), "{created:?}");
        let added = change("ALTER TYPE mood ADD VALUE IF NOT EXISTS 'meh' BEFORE 'sad'").unwrap();
        assert_eq!(added.widened.as_deref(), Some("mood"));
        assert!(change("DROP TYPE IF EXISTS mood, \"Other\" CASCADE").is_ok());
        assert!(change("CREATE TYPE c AS (a int)").is_err());
        assert!(change("CREATE TYPE m AS ENUM ('a' 'b')").is_err());
        assert!(
            statement("SELECT 1", &tokenize("SELECT 1"))
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn columns_of_an_enum_type_get_a_check() {
        let enums = [EnumType {
            name: "mood".into(),
            labels: vec!["sad".into(), "happy".into()],
        }];
        let sql = create_table_with_checks(
            "CREATE TABLE IF NOT EXISTS t (id int, m public.mood NOT NULL, n text)",
            &enums,
        )
        .unwrap();
        assert_eq!(
            sql,
            "CREATE TABLE IF NOT EXISTS t (\"id\" int, \"m\" public.mood NOT NULL CONSTRAINT \"litewire_enum_mood\" CHECK (\"m\" IN ('sad', 'happy')), \"n\" text)"
        );
        assert_eq!(create_table_with_checks(&sql, &enums), None);
        assert_eq!(
            create_table_with_checks("CREATE TABLE t (a int)", &enums),
            None
        );
    }
}
