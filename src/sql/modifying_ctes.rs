//! Data-modifying `WITH` on the PostgreSQL port: `WITH moved AS (DELETE FROM
//! a ... RETURNING *) INSERT INTO b SELECT * FROM moved`, and any query or
//! data change with `INSERT`, `UPDATE` or `DELETE` queries in its `WITH`.
//!
//! SQLite takes a data change only as a statement of its own, and its
//! `RETURNING` only as the statement's result. So each data change of the
//! `WITH` runs first, as it would alone, with temporary triggers copying the
//! rows it returns into a temporary table, which the main statement then
//! reads in its place; all in one savepoint, so the whole is all or nothing
//! (see `Plan::Staged`). Every data change runs once, whether the main
//! statement reads it or not, as in PostgreSQL. PostgreSQL's main statement
//! reads the tables as they were before the changes; here it would read them
//! after, so a statement that reads a table its `WITH` changes is refused
//! (0A000) rather than answered otherwise. Each stage binds the statement's
//! parameters it uses.

use std::ops::ControlFlow;
use std::sync::Arc;

use sqlparser::ast::{
    Query, SelectItem, SetExpr, Statement as Ast, TableFactor, TableObject, visit_relations,
};
use sqlparser::dialect::{PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

use super::classify::Action;
use super::create_as::with_modifier;
use super::postgres::{Catalog, Domain, PartitionNode, PgType, RelColumn, Relation, SqlFunction};
use super::quote::{identifier, identifier_as_postgres};
use super::statement::{Plan, Staged, Statement};
use super::syntax_tree::idents;
use crate::error::{Error, SqlState};

/// Reads a statement with the catalog given.
pub(super) type Build<'a> = &'a dyn Fn(&str, &dyn Catalog) -> Result<Statement, Error>;

/// The staged statement `text` is, where its `WITH` changes data; `None`
/// where it does not.
pub(super) fn statement(
    text: &str,
    catalog: &dyn Catalog,
    build: Build,
) -> Result<Option<Statement>, Error> {
    let starts_with = text
        .trim_start()
        .get(..4)
        .is_some_and(|w| w.eq_ignore_ascii_case("WITH"));
    if !starts_with {
        return Ok(None);
    }
    let Ok(mut parsed) = Parser::parse_sql(&PostgreSqlDialect {}, text) else {
        return Ok(None);
    };
    let [Ast::Query(query)] = parsed.as_mut_slice() else {
        return Ok(None);
    };
    let Some(with) = &mut query.with else {
        return Ok(None);
    };
    let changes: Vec<usize> = (with.cte_tables.iter().enumerate())
        .filter(|(_, cte)| changes_data(&cte.query))
        .map(|(i, _)| i)
        .collect();
    if changes.is_empty() {
        return Ok(None);
    }
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut captured = Vec::new();
    let mut changed_tables = Vec::new();
    let mut param_count = 0;
    for (n, &i) in changes.iter().enumerate() {
        let cte = &mut with.cte_tables[i];
        let (SetExpr::Insert(change) | SetExpr::Update(change) | SetExpr::Delete(change)) =
            &*cte.query.body
        else {
            continue;
        };
        let built = build(&change.to_string(), catalog)?;
        param_count = param_count.max(built.param_count);
        if built.plan != Plan::Single {
            return Err(Error::not_supported("this data change in WITH"));
        }
        let table = format!("litewire_cte_{n}");
        let stage = Stage::read(&built, catalog)?;
        let renamed: Vec<String> = cte
            .alias
            .columns
            .iter()
            .map(|c| c.name.value.clone())
            .collect();
        let columns: Vec<RelColumn> = stage
            .columns
            .iter()
            .enumerate()
            .map(|(i, (name, ty))| {
                let name = renamed.get(i).cloned().unwrap_or_else(|| name.clone());
                RelColumn::holding(name, ty.clone())
            })
            .collect();
        changed_tables.push(stage.target.clone());
        // Without RETURNING, only the change runs (and reads as no rows).
        if columns.is_empty() {
            before.push(stage.change.clone());
            *cte.query = parse_query("SELECT NULL WHERE false")?;
            continue;
        }
        before.extend(stage.statements(&table, &columns));
        after.push(format!("DROP TABLE temp.{}", identifier(&table)));
        // The main statement reads the rows returned in the table's place.
        let names: Vec<String> = columns
            .iter()
            .map(|c| identifier_as_postgres(&c.name))
            .collect();
        let read = format!("SELECT {} FROM {table}", names.join(", "));
        *cte.query = parse_query(&read)?;
        cte.alias.columns.clear();
        captured.push(Relation {
            name: table,
            columns,
            view: false,
            materialized: None,
            references: Vec::new(),
        });
    }
    let mut read_changed = None;
    let _ = visit_relations(&*query, |name| {
        let read = idents(name).last().cloned().unwrap_or_default();
        if changed_tables.iter().any(|t| t.eq_ignore_ascii_case(&read)) {
            read_changed = Some(read);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if let Some(table) = read_changed {
        return Err(Error::not_supported(&format!(
            "reading table \"{table}\" in a statement whose WITH changes it"
        )));
    }
    let with_captured = Captured {
        inner: catalog,
        captured,
    };
    let main = build(&query.to_string(), &with_captured)?;
    if main.plan != Plan::Single {
        return Err(Error::not_supported(
            "this statement with a data change in WITH",
        ));
    }
    Ok(Some(Statement {
        action: Action::Write,
        param_count: param_count.max(main.param_count),
        plan: Plan::Staged(Arc::new(Staged {
            before: before.into_iter().map(Arc::from).collect(),
            after: after.into_iter().map(Arc::from).collect(),
        })),
        ..main
    }))
}

fn changes_data(query: &Query) -> bool {
    matches!(
        *query.body,
        SetExpr::Insert(_) | SetExpr::Update(_) | SetExpr::Delete(_)
    )
}

pub(super) fn parse_query(sql: &str) -> Result<Query, Error> {
    Parser::new(&PostgreSqlDialect {})
        .try_with_sql(sql)
        .and_then(|mut p| p.parse_query())
        .map(|q| *q)
        .map_err(|e| Error::state(SqlState::SYNTAX_ERROR, e.to_string()))
}

/// One data change of the `WITH`, as SQLite runs it.
struct Stage {
    /// The change without its `RETURNING`.
    change: String,
    /// The table it changes.
    target: String,
    /// The target's columns.
    target_columns: Vec<String>,
    /// What `RETURNING` computed, SQLite's text over the target's columns.
    returning: Vec<String>,
    /// The returned columns: names and types.
    columns: Vec<(String, PgType)>,
    /// The events whose rows it returns, each with the row it reads (`NEW`
    /// or `OLD`).
    events: Vec<(&'static str, &'static str)>,
}

impl Stage {
    fn read(built: &Statement, catalog: &dyn Catalog) -> Result<Stage, Error> {
        let unreadable = || Error::not_supported("this data change in WITH");
        let mut parsed =
            Parser::parse_sql(&SQLiteDialect {}, &built.sql).map_err(|_| unreadable())?;
        let Some(change) = parsed.first_mut() else {
            return Err(unreadable());
        };
        let (target, returning, events) = match change {
            Ast::Insert(insert) => {
                let TableObject::TableName(name) = &insert.table else {
                    return Err(unreadable());
                };
                let upsert = matches!(
                    &insert.on,
                    Some(sqlparser::ast::OnInsert::OnConflict(conflict))
                        if matches!(conflict.action, sqlparser::ast::OnConflictAction::DoUpdate(_))
                );
                let mut events = vec![("INSERT", "NEW")];
                if upsert {
                    events.push(("UPDATE", "NEW"));
                }
                (name.clone(), insert.returning.take(), events)
            }
            Ast::Update(update) => {
                let TableFactor::Table { name, .. } = &update.table.relation else {
                    return Err(unreadable());
                };
                (
                    name.clone(),
                    update.returning.take(),
                    vec![("UPDATE", "NEW")],
                )
            }
            Ast::Delete(delete) => {
                let (sqlparser::ast::FromTable::WithFromKeyword(from)
                | sqlparser::ast::FromTable::WithoutKeyword(from)) = &delete.from;
                let Some(TableFactor::Table { name, .. }) = from.first().map(|t| &t.relation)
                else {
                    return Err(unreadable());
                };
                (
                    name.clone(),
                    delete.returning.take(),
                    vec![("DELETE", "OLD")],
                )
            }
            _ => return Err(unreadable()),
        };
        let target = idents(&target).last().cloned().unwrap_or_default();
        let declared: Vec<RelColumn> = catalog
            .relation(&target)
            .map(|r| r.columns)
            .unwrap_or_default();
        let target_columns: Vec<String> = declared.iter().map(|c| c.name.clone()).collect();
        let types = built.column_types.clone().unwrap_or_else(|| Arc::from([]));
        // A column returned as it is has its declared type; the reading
        // types the others.
        let typed = |i: usize, expr: &str| {
            let column = declared
                .iter()
                .find(|c| identifier(&c.name) == expr || c.name == expr);
            match column {
                Some(column) => column.ty.clone(),
                None => column_type(&types, i),
            }
        };
        let mut columns = Vec::new();
        let mut computed = Vec::new();
        for item in returning.unwrap_or_default() {
            let (expr, name) = match item {
                SelectItem::ExprWithAlias { expr, alias } => (expr.to_string(), alias.value),
                SelectItem::UnnamedExpr(expr) => {
                    let name = match &expr {
                        sqlparser::ast::Expr::Identifier(i) => i.value.clone(),
                        other => other.to_string(),
                    };
                    (expr.to_string(), name)
                }
                // `RETURNING *`: the target's columns.
                _ => {
                    for column in &declared {
                        columns.push((column.name.clone(), column.ty.clone()));
                        computed.push(identifier(&column.name));
                    }
                    continue;
                }
            };
            columns.push((name, typed(columns.len(), &expr)));
            computed.push(expr);
        }
        Ok(Stage {
            change: change.to_string(),
            target,
            target_columns,
            returning: computed,
            columns,
            events,
        })
    }

    /// The statements that run it: the capture table and triggers, the
    /// change, the triggers dropped (the table goes after the main statement).
    fn statements(&self, table: &str, columns: &[RelColumn]) -> Vec<String> {
        let mut statements = vec![holding_table(table, columns)];
        let mut triggers = Vec::new();
        for (event, row) in &self.events {
            let trigger = format!("{table}_{}", event.to_ascii_lowercase());
            let read: Vec<String> = self
                .target_columns
                .iter()
                .map(|c| format!("{row}.{} AS {}", identifier(c), identifier(c)))
                .collect();
            let values = match self.returning.is_empty() {
                true => "NULL".to_owned(),
                false => self.returning.join(", "),
            };
            statements.push(format!(
                "CREATE TEMP TRIGGER {} AFTER {event} ON {} BEGIN \
                 INSERT INTO {} SELECT {values} FROM (SELECT {}) AS {}; END",
                identifier(&trigger),
                identifier(&self.target),
                identifier(table),
                read.join(", "),
                identifier(&self.target)
            ));
            triggers.push(format!("DROP TRIGGER temp.{}", identifier(&trigger)));
        }
        statements.push(self.change.clone());
        statements.extend(triggers);
        statements
    }
}

/// SQLite's `CREATE TEMP TABLE` of a table that holds a statement's rows for
/// a while, its columns declared with their PostgreSQL types.
pub(super) fn holding_table(table: &str, columns: &[RelColumn]) -> String {
    let declared: Vec<String> = columns
        .iter()
        .map(|c| {
            let ty = with_modifier(c.ty.name().unwrap_or("").to_owned(), c.modifier);
            format!("{} {ty}", identifier(&c.name))
        })
        .collect();
    format!(
        "CREATE TEMP TABLE {} ({})",
        identifier(table),
        declared.join(", ")
    )
}

fn column_type(types: &[Option<&'static str>], i: usize) -> PgType {
    types
        .get(i)
        .copied()
        .flatten()
        .and_then(PgType::from_name)
        .unwrap_or(PgType::Text)
}

/// The session's catalog with the tables holding the rows each data change
/// returned.
pub(super) struct Captured<'a> {
    pub(super) inner: &'a dyn Catalog,
    pub(super) captured: Vec<Relation>,
}

impl Catalog for Captured<'_> {
    fn relation(&self, name: &str) -> Option<Relation> {
        (self.captured.iter())
            .find(|r| r.name.eq_ignore_ascii_case(name))
            .cloned()
            .or_else(|| self.inner.relation(name))
    }

    fn version(&self) -> u64 {
        self.inner.version()
    }

    fn is_sequence(&self, name: &str) -> bool {
        self.inner.is_sequence(name)
    }

    fn relations(&self) -> Vec<Relation> {
        let mut all = self.inner.relations();
        all.extend(self.captured.iter().cloned());
        all
    }

    fn schemas(&self) -> &[String] {
        self.inner.schemas()
    }

    fn search_path(&self) -> &[String] {
        self.inner.search_path()
    }

    fn functions(&self) -> &[SqlFunction] {
        self.inner.functions()
    }

    fn domains(&self) -> &[Domain] {
        self.inner.domains()
    }

    fn is_type(&self, name: &str) -> bool {
        self.inner.is_type(name)
    }

    fn partitions(&self) -> &[PartitionNode] {
        self.inner.partitions()
    }
}
