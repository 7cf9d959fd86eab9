//! `UPDATE t ... FROM s ... RETURNING` and `DELETE FROM t USING s ...
//! RETURNING` on the PostgreSQL port: PostgreSQL's `RETURNING` reads the
//! joined rows, `s`'s columns as well as `t`'s (`RETURNING *` is both).
//!
//! SQLite's `RETURNING` reads the target alone, and it has no `DELETE ...
//! USING`. So the statement runs in stages, all in one savepoint (see
//! `Plan::Staged`): first, before anything changes, each joined relation's
//! row is copied into a temporary table of its own under the rowid of the
//! target row it joins (the first such row where several join one target
//! row: PostgreSQL, too, uses one of them); then the change runs on exactly
//! those target rows, an `UPDATE` reading the copies in the relations'
//! place, so that what it sets and what it returns come from one joined
//! row; the target's rows as the change leaves them (as it found them, for
//! `DELETE`) are copied too; last, the `RETURNING` list is read as a query
//! over the copies, joined on the rowid. The tag counts the rows returned,
//! one per target row changed.

use std::sync::Arc;

use sqlparser::ast::{
    Delete, FromTable, JoinOperator, Query, SelectItem, SetExpr, Statement as Ast, TableFactor,
    TableWithJoins, Update, UpdateTableFromKind,
};
use sqlparser::dialect::{PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

use super::classify::{Action, CommandKind};
use super::lexer::Token;
use super::modifying_ctes::{Build, Captured, holding_table, parse_query};
use super::postgres::{Catalog, RelColumn, Relation, translate_view};
use super::quote::identifier;
use super::statement::{Plan, Staged, Statement};
use super::syntax_tree::{alias_of, folded_ident, folded_last, idents};
use crate::error::Error;

/// The temporary table that holds the `n`th relation's rows (0: the target's).
fn held(n: usize) -> String {
    format!("litewire_joined_{n}")
}

/// The trigger that copies the target's rows as an `UPDATE` leaves them.
const CHANGED: &str = "litewire_joined_changed";

/// The staged statement `text` is, where it is an `UPDATE ... FROM` or a
/// `DELETE ... USING` with `RETURNING`; `None` where it is not.
pub(super) fn statement(
    text: &str,
    tokens: &[Token],
    kind: CommandKind,
    catalog: &dyn Catalog,
    build: Build,
) -> Result<Option<Statement>, Error> {
    if !may_apply(text, tokens, kind) {
        return Ok(None);
    }
    let Ok(parsed) = Parser::parse_sql(&PostgreSqlDialect {}, text) else {
        return Ok(None);
    };
    let (with, change) = match parsed.as_slice() {
        [Ast::Query(query)] if query.order_by.is_none() && query.limit_clause.is_none() => {
            let Some(with) = &query.with else {
                return Ok(None);
            };
            // A data change in WITH is another staging's (see
            // `modifying_ctes`).
            let changes = with.cte_tables.iter().any(|cte| {
                matches!(
                    *cte.query.body,
                    SetExpr::Insert(_) | SetExpr::Update(_) | SetExpr::Delete(_)
                )
            });
            match &*query.body {
                _ if changes => return Ok(None),
                SetExpr::Update(Ast::Update(update)) => {
                    (format!("{with} "), Change::update(update))
                }
                SetExpr::Delete(Ast::Delete(delete)) => {
                    (format!("{with} "), Change::delete(delete))
                }
                _ => return Ok(None),
            }
        }
        [Ast::Update(update)] => (String::new(), Change::update(update)),
        [Ast::Delete(delete)] => (String::new(), Change::delete(delete)),
        _ => return Ok(None),
    };
    let Some(change) = change else {
        return Ok(None);
    };
    change.staged(&with, catalog, build).map(Some)
}

/// Whether `text` may be such a statement (its words say so; the reading
/// decides).
pub(super) fn may_apply(text: &str, tokens: &[Token], kind: CommandKind) -> bool {
    let keyword = |kw: &str| tokens.iter().any(|t| t.is_keyword(text, kw));
    let joined = match kind {
        CommandKind::Update => keyword("FROM"),
        CommandKind::Delete => keyword("USING"),
        _ => false,
    };
    joined && keyword("RETURNING")
}

/// The parts of the change as written.
struct Change<'a> {
    update: Option<&'a Update>,
    /// The target as written (`t`, `s.t`, `t AS x`) and the name its rows go by.
    target: String,
    name: String,
    /// The joined relations: the `FROM` (`USING`) list, and the name each
    /// relation in it goes by.
    joined: &'a [TableWithJoins],
    names: Vec<String>,
    /// Whether an outer join may leave each out.
    outer: Vec<bool>,
    selection: Option<String>,
    returning: &'a [SelectItem],
}

impl<'a> Change<'a> {
    fn update(update: &'a Update) -> Option<Change<'a>> {
        let Some(UpdateTableFromKind::AfterSet(joined)) = &update.from else {
            return None;
        };
        if !update.table.joins.is_empty() {
            return None;
        }
        Change::read(
            Some(update),
            &update.table.relation,
            joined,
            update.selection.as_ref(),
            update.returning.as_deref()?,
        )
    }

    fn delete(delete: &'a Delete) -> Option<Change<'a>> {
        let FromTable::WithFromKeyword(tables) = &delete.from else {
            return None;
        };
        let [target] = tables.as_slice() else {
            return None;
        };
        if !delete.tables.is_empty() || !target.joins.is_empty() {
            return None;
        }
        Change::read(
            None,
            &target.relation,
            delete.using.as_deref()?,
            delete.selection.as_ref(),
            delete.returning.as_deref()?,
        )
    }

    fn read(
        update: Option<&'a Update>,
        target: &TableFactor,
        joined: &'a [TableWithJoins],
        selection: Option<&sqlparser::ast::Expr>,
        returning: &'a [SelectItem],
    ) -> Option<Change<'a>> {
        let name = factor_name(target)?;
        let (mut names, mut outer) = (Vec::new(), Vec::new());
        for item in joined {
            let outer_joined = item.joins.iter().any(|j| !inner(&j.join_operator));
            for factor in relations(item) {
                names.push(factor_name(factor)?);
                outer.push(outer_joined);
            }
        }
        Some(Change {
            update,
            target: target.to_string(),
            name,
            joined,
            names,
            outer,
            selection: selection.map(|s| s.to_string()),
            returning,
        })
    }

    /// The `FROM` (`USING`) list with each relation's copy in its place,
    /// under its name.
    fn held_from(&self) -> Result<String, Error> {
        let mut n = 0;
        let mut items = Vec::with_capacity(self.joined.len());
        for item in self.joined {
            let mut item = item.clone();
            let factors = std::iter::once(&mut item.relation)
                .chain(item.joins.iter_mut().map(|j| &mut j.relation));
            for factor in factors {
                n += 1;
                let name = self.names.get(n - 1).map_or("", |name| name.as_str());
                let read =
                    parse_query(&format!("SELECT FROM {} AS {}", held(n), identifier(name)))?;
                if let Some(select) = super::syntax_tree::first_select(&read.body)
                    && let Some(copy) = select.from.first()
                {
                    *factor = copy.relation.clone();
                }
            }
            items.push(item.to_string());
        }
        Ok(items.join(", "))
    }

    /// The stages, each query after `with` (the statement's `WITH`, or
    /// nothing).
    fn staged(&self, with: &str, catalog: &dyn Catalog, build: Build) -> Result<Statement, Error> {
        let joined: Vec<String> = self.joined.iter().map(|j| j.to_string()).collect();
        let from = format!("{}, {}", self.target, joined.join(", "));
        let condition = self
            .selection
            .as_ref()
            .map_or(String::new(), |s| format!(" WHERE {s}"));
        // Each relation's columns, as a query over the join shows them.
        let mut relations = Vec::with_capacity(self.names.len() + 1);
        for name in std::iter::once(&self.name).chain(&self.names) {
            let query = parse_query(&format!("{with}SELECT {} FROM {from}", star(name)))?;
            let columns = match translate_view(&query, catalog)?.and_then(|t| t.columns) {
                Some(columns) => columns,
                // What cannot be read so fails as the statement would.
                None => return Err(build_error(build, &query, catalog)),
            };
            relations.push(
                (columns.into_iter())
                    .map(|c| RelColumn {
                        modifier: c.modifier,
                        ..RelColumn::holding(c.name, c.pg_type)
                    })
                    .collect::<Vec<_>>(),
            );
        }
        let holding = Captured {
            inner: catalog,
            captured: (relations.iter().enumerate())
                .map(|(n, columns)| Relation {
                    name: held(n),
                    columns: columns.clone(),
                    view: false,
                    materialized: None,
                    references: Vec::new(),
                })
                .collect(),
        };
        let mut param_count = 0;
        let mut one = |sql: &str| -> Result<Statement, Error> {
            let built = build(sql, &holding)?;
            param_count = param_count.max(built.param_count);
            match built.plan {
                Plan::Single => Ok(built),
                _ => Err(Error::not_supported(
                    "this UPDATE ... FROM or DELETE ... USING",
                )),
            }
        };
        let mut before: Vec<String> = (relations.iter().enumerate())
            .map(|(n, columns)| holding_table(&held(n), columns))
            .collect();
        // The joined rows, before anything changes; for an UPDATE, the
        // target's own are copied as the change leaves them.
        let copied = match self.update {
            Some(_) => 1,
            None => 0,
        };
        for (n, (name, columns)) in std::iter::once(&self.name)
            .chain(&self.names)
            .zip(&relations)
            .enumerate()
            .skip(copied)
        {
            let read = one(&format!(
                "{with}SELECT {}.rowid, {} FROM {from}{condition}",
                identifier(&self.name),
                star(name)
            ))?;
            before.push(format!(
                "INSERT OR IGNORE INTO temp.{} (rowid{}) {}",
                held(n),
                listed(columns, ""),
                read.sql
            ));
        }
        // The relations' copies in their places, each read where it joins
        // the same target row (or nowhere, where an outer join left it out).
        let held_from = self.held_from()?;
        let same_rows: Vec<String> = (self.names.iter().zip(&self.outer))
            .map(|(name, outer)| {
                let (name, target) = (identifier(name), identifier(&self.name));
                match outer {
                    false => format!("{name}.rowid = {target}.rowid"),
                    true => format!("({name}.rowid = {target}.rowid OR {name}.rowid IS NULL)"),
                }
            })
            .collect();
        let same_rows = same_rows.join(" AND ");
        match self.update {
            Some(update) => {
                let assignments: Vec<String> =
                    update.assignments.iter().map(|a| a.to_string()).collect();
                let change = one(&format!(
                    "{with}UPDATE {} SET {} FROM {held_from} WHERE {same_rows}",
                    self.target,
                    assignments.join(", "),
                ))?;
                let table = changed_table(&change.sql)?;
                let target = &relations[0];
                before.push(format!(
                    "CREATE TEMP TRIGGER {CHANGED} AFTER UPDATE ON {} BEGIN \
                     INSERT OR REPLACE INTO {} (rowid{}) VALUES (OLD.rowid{}); END",
                    identifier(&table),
                    held(0),
                    listed(target, ""),
                    listed(target, "NEW."),
                ));
                before.push(change.sql.to_string());
                before.push(format!("DROP TRIGGER temp.{CHANGED}"));
            }
            None => {
                let change = one(&format!(
                    "DELETE FROM {} WHERE rowid IN (SELECT rowid FROM {})",
                    self.target,
                    held(0)
                ))?;
                before.push(change.sql.to_string());
            }
        }
        let after: Vec<String> = (0..relations.len())
            .map(|n| format!("DROP TABLE temp.{}", held(n)))
            .collect();
        let list: Vec<String> = self.returning.iter().map(|i| i.to_string()).collect();
        let main = one(&format!(
            "{with}SELECT {} FROM {} AS {}, {held_from} WHERE {same_rows}",
            list.join(", "),
            held(0),
            identifier(&self.name),
        ))?;
        Ok(Statement {
            action: Action::Write,
            kind: match self.update {
                Some(_) => CommandKind::Update,
                None => CommandKind::Delete,
            },
            param_count: param_count.max(main.param_count),
            plan: Plan::Staged(Arc::new(Staged {
                before: before.into_iter().map(Arc::from).collect(),
                after: after.into_iter().map(Arc::from).collect(),
            })),
            ..main
        })
    }
}

/// The relations of a `FROM` item, in order.
fn relations(item: &TableWithJoins) -> impl Iterator<Item = &TableFactor> {
    std::iter::once(&item.relation).chain(item.joins.iter().map(|j| &j.relation))
}

/// Whether a join keeps only the rows that match.
fn inner(join: &JoinOperator) -> bool {
    matches!(
        join,
        JoinOperator::Join(_) | JoinOperator::Inner(_) | JoinOperator::CrossJoin(_)
    )
}

/// The name a relation's rows go by: its alias, or a table's own name.
fn factor_name(factor: &TableFactor) -> Option<String> {
    match (alias_of(factor), factor) {
        (Some(alias), _) => Some(folded_ident(alias)),
        (None, TableFactor::Table { name, .. }) => Some(folded_last(name)),
        _ => None,
    }
}

fn star(name: &str) -> String {
    format!("{}.*", identifier(name))
}

/// `, prefix"c1", prefix"c2"`: the columns, each after a comma.
fn listed(columns: &[RelColumn], prefix: &str) -> String {
    columns
        .iter()
        .map(|c| format!(", {prefix}{}", identifier(&c.name)))
        .collect()
}

/// The table SQLite's `UPDATE` changes.
fn changed_table(sql: &str) -> Result<String, Error> {
    let unreadable = || Error::not_supported("this UPDATE ... FROM");
    let parsed = Parser::parse_sql(&SQLiteDialect {}, sql).map_err(|_| unreadable())?;
    let update = match parsed.as_slice() {
        [Ast::Update(update)] => Some(update),
        [Ast::Query(query)] => match &*query.body {
            SetExpr::Update(Ast::Update(update)) => Some(update),
            _ => None,
        },
        _ => None,
    };
    match update {
        Some(update) => match &update.table.relation {
            TableFactor::Table { name, .. } => idents(name).last().cloned().ok_or_else(unreadable),
            _ => Err(unreadable()),
        },
        _ => Err(unreadable()),
    }
}

/// The error reading `query` gives, or one saying it cannot be read.
fn build_error(build: Build, query: &Query, catalog: &dyn Catalog) -> Error {
    match build(&query.to_string(), catalog) {
        Err(error) => error,
        Ok(_) => Error::not_supported("this UPDATE ... FROM or DELETE ... USING"),
    }
}
