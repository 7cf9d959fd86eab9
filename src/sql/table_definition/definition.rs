//! A table's definition: its `CREATE TABLE` text cut at its top-level commas
//! into columns and table constraints, printed back as written but for what an
//! edit touched, and the edits of its columns. Its constraints, by the names
//! PostgreSQL gives them, are in `constraint_names`.

use super::column::Column;
use super::constraint::{Constraint, ConstraintKind};
use super::errors::{malformed, no_such_column, schema_error};
use super::tokens::{ident, is, mentions, skip_group};
use crate::error::Error;
use crate::sql::lexer::{Token, TokenKind, tokenize};
use crate::sql::quote::identifier;

/// One part of the table's definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Element {
    Column(Column),
    Constraint(Constraint),
}

/// A table's definition, read from its `CREATE TABLE` text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDefinition {
    /// The table's name, unquoted.
    pub table: String,
    /// The statement as written up to its opening parenthesis.
    head: String,
    pub(super) elements: Vec<Element>,
    /// What follows the closing parenthesis (`WITHOUT ROWID`, `STRICT`).
    tail: String,
}

impl TableDefinition {
    /// Reads `create_table` (a `CREATE TABLE name (...) [options]` statement).
    pub fn parse(create_table: &str) -> Result<TableDefinition, Error> {
        let sql = create_table;
        let tokens = tokenize(sql);
        let open = tokens
            .iter()
            .position(|t| t.kind == TokenKind::LeftParen)
            .ok_or_else(|| malformed(sql))?;
        let close = skip_group(&tokens, open) - 1;
        if tokens.get(close).map(|t| t.kind) != Some(TokenKind::RightParen) || open == 0 {
            return Err(malformed(sql));
        }
        let table = ident(sql, &tokens, open - 1).ok_or_else(|| malformed(sql))?;
        let mut elements = Vec::new();
        let mut start = open + 1;
        let mut at = start;
        while at <= close {
            if at == close || tokens[at].text(sql) == "," {
                if at > start {
                    let text = &sql[tokens[start].start..tokens[at - 1].end];
                    elements.push(if starts_table_constraint(sql, &tokens, start) {
                        Element::Constraint(Constraint::parse(text)?)
                    } else {
                        Element::Column(Column::parse(text)?)
                    });
                }
                start = at + 1;
                at += 1;
            } else {
                at = skip_group(&tokens, at);
            }
        }
        Ok(TableDefinition {
            table,
            head: sql[..tokens[open].start].trim().to_owned(),
            elements,
            tail: sql[tokens[close].end..].trim().to_owned(),
        })
    }

    /// The `CREATE TABLE` statement for this definition under `name`.
    pub fn create_sql(&self, name: &str) -> String {
        self.statement(&format!("CREATE TABLE {}", identifier(name)))
    }

    /// The statement for this definition, with its head (`CREATE TABLE IF NOT
    /// EXISTS t`) as it was written.
    pub fn sql_as_written(&self) -> String {
        self.statement(&self.head)
    }

    fn statement(&self, head: &str) -> String {
        let parts: Vec<String> = self
            .elements
            .iter()
            .map(|e| match e {
                Element::Column(c) => c.sql(),
                Element::Constraint(c) => c.sql(),
            })
            .collect();
        let mut sql = format!("{head} ({})", parts.join(", "));
        if !self.tail.is_empty() {
            sql.push(' ');
            sql.push_str(&self.tail);
        }
        sql
    }

    /// Whether the table has no rowid.
    pub fn without_rowid(&self) -> bool {
        let upper = self.tail.to_ascii_uppercase();
        upper.contains("WITHOUT") && upper.contains("ROWID")
    }

    /// The expression of the generated column `name`, if it is one.
    pub fn generation_of(&self, name: &str) -> Option<&str> {
        self.columns()
            .find(|c| c.name.eq_ignore_ascii_case(name))?
            .generation()
    }

    pub fn columns(&self) -> impl Iterator<Item = &Column> {
        self.elements.iter().filter_map(|e| match e {
            Element::Column(c) => Some(c),
            Element::Constraint(_) => None,
        })
    }

    /// The column `name`, to edit.
    pub fn column_mut(&mut self, name: &str) -> Result<&mut Column, Error> {
        let table = self.table.clone();
        self.elements
            .iter_mut()
            .find_map(|e| match e {
                Element::Column(c) if c.name.eq_ignore_ascii_case(name) => Some(c),
                _ => None,
            })
            .ok_or_else(|| no_such_column(name, &table))
    }

    /// Adds a column (already in SQLite's dialect); `42701` if the name is taken.
    pub fn add_column(&mut self, column: Column) -> Result<(), Error> {
        if self
            .columns()
            .any(|c| c.name.eq_ignore_ascii_case(&column.name))
        {
            return Err(schema_error(format!(
                "duplicate column name: column \"{}\" of relation \"{}\" already exists",
                column.name, self.table
            )));
        }
        // Columns come before the table's constraints.
        let at = self
            .elements
            .iter()
            .rposition(|e| matches!(e, Element::Column(_)))
            .map_or(0, |i| i + 1);
        self.elements.insert(at, Element::Column(column));
        Ok(())
    }

    /// Drops column `name` and the table constraints that use it (keys listing
    /// it, CHECKs naming it); `false` if there is no such column.
    pub fn drop_column(&mut self, name: &str) -> bool {
        let before = self.elements.len();
        self.elements
            .retain(|e| !matches!(e, Element::Column(c) if c.name.eq_ignore_ascii_case(name)));
        if self.elements.len() == before {
            return false;
        }
        self.elements.retain(|e| match e {
            Element::Constraint(c) => {
                let lists = c.columns.iter().any(|col| col.eq_ignore_ascii_case(name));
                let checks =
                    c.kind == ConstraintKind::Check && mentions(c.check_expression(), name);
                !(lists || checks)
            }
            Element::Column(_) => true,
        });
        true
    }
}

/// Whether the part of a definition starting at `i` is a table constraint.
fn starts_table_constraint(sql: &str, tokens: &[Token], i: usize) -> bool {
    ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]
        .iter()
        .any(|kw| is(sql, tokens, i, kw))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQL: &str = "CREATE TABLE \"child\" (id INTEGER PRIMARY KEY, pid int REFERENCES parent(id) ON DELETE SET NULL NOT DEFERRABLE, \
         note text DEFAULT 'x' NOT NULL COLLATE NOCASE, n numeric(10,2) CHECK (n > 0), \
         d TEXT DEFAULT (strftime('%Y', 'now')), CONSTRAINT u UNIQUE (note, n), CHECK (n < 100), CHECK (1 = 1)) WITHOUT ROWID";

    #[test]
    fn reads_columns_and_constraints_as_postgresql_names_them() {
        let def = TableDefinition::parse(SQL).unwrap();
        assert_eq!(def.table, "child");
        let names: Vec<String> = def.constraint_names().into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "child_pkey",
                "child_pid_fkey",
                "child_n_check",
                "u",
                "child_n_check",
                "child_check"
            ]
        );
        let pid = def.columns().nth(1).unwrap();
        assert_eq!(pid.type_sql, "int");
        assert_eq!(pid.constraints.len(), 1);
        let note = def.columns().nth(2).unwrap();
        assert_eq!(note.default(), Some("'x'"));
        assert_eq!(note.constraints.len(), 3);
        assert!(def.without_rowid());
        // Printed back, it reads the same.
        let again = TableDefinition::parse(&def.create_sql("child")).unwrap();
        assert_eq!(again, def);
    }

    #[test]
    fn edits() {
        let mut def = TableDefinition::parse(SQL).unwrap();
        assert!(def.drop_constraint("child_pid_fkey"));
        assert!(!def.drop_constraint("nope"));
        assert!(def.drop_constraint("u"));
        def.column_mut("NOTE").unwrap().set_not_null(false);
        def.column_mut("note")
            .unwrap()
            .set_default(Some("lower('A')"));
        def.column_mut("n").unwrap().set_default(Some("-1"));
        def.add_constraint(Constraint::parse("UNIQUE (pid)").unwrap())
            .unwrap();
        assert!(
            def.add_constraint(Constraint::parse("PRIMARY KEY (n)").unwrap())
                .is_err()
        );
        assert!(
            def.add_constraint(Constraint::parse("UNIQUE (pid)").unwrap())
                .is_err()
        );
        assert!(def.rename_constraint("child_pid_key", "k").unwrap());
        assert_eq!(
            def.create_sql("t"),
            "CREATE TABLE \"t\" (\"id\" INTEGER PRIMARY KEY, \"pid\" int, \"note\" text COLLATE NOCASE DEFAULT (lower('A')), \
             \"n\" numeric(10,2) CHECK (n > 0) DEFAULT -1, \"d\" TEXT DEFAULT (strftime('%Y', 'now')), CHECK (n < 100), CHECK (1 = 1), \
             CONSTRAINT \"k\" UNIQUE (pid)) WITHOUT ROWID"
        );
        assert!(def.column_mut("zz").is_err());
    }

    #[test]
    fn marks_and_deferral_live_in_the_text() {
        use super::super::constraint::Mark;
        let mut def = TableDefinition::parse(
            "CREATE TABLE t (a int CHECK (a > 0) NO INHERIT, CONSTRAINT c CHECK (a < 9) NOT VALID, \
             CONSTRAINT f FOREIGN KEY (a) REFERENCES p(id) DEFERRABLE INITIALLY DEFERRED)",
        )
        .unwrap();
        let sql = def.create_sql("t");
        assert!(sql.contains("CHECK /*NO INHERIT*/ (a > 0)"), "{sql}");
        assert!(sql.contains("CHECK /*NOT VALID*/ (a < 9)"), "{sql}");
        let c = def.constraint_mut("c").unwrap();
        assert!(c.marked(Mark::NotValid) && !c.marked(Mark::NoInherit));
        assert_eq!(c.check_expression(), "a < 9");
        c.set_mark(Mark::NotValid, false);
        assert_eq!(c.body, "CHECK (a < 9)");
        let f = def.constraint_mut("f").unwrap();
        f.set_deferral(true, false);
        assert_eq!(
            f.body,
            "FOREIGN KEY (a) REFERENCES p(id) DEFERRABLE INITIALLY IMMEDIATE"
        );
        f.set_deferral(false, false);
        f.set_mark(Mark::NotValid, true);
        assert_eq!(f.body, "FOREIGN /*NOT VALID*/ KEY (a) REFERENCES p(id)");
        assert_eq!(f.columns, ["a"]);
        // Read back, it is the same.
        let again = TableDefinition::parse(&def.create_sql("t")).unwrap();
        assert_eq!(again.elements, def.elements);
    }
}
