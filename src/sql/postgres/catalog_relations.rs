//! The relations of the emulated catalog (`pg_class`, `pg_index`, ...) as
//! the reading sees them, so that a catalog query may use what only the
//! reading writes for SQLite (`DISTINCT ON`, `LATERAL`, a set-returning
//! function in FROM). Their columns are named (a view's as its query names
//! them); only a table's booleans and object ids
//! shown by name (`regproc`, ...) are typed, every other column left to the
//! catalog's own declared types, which the engine reports as it always has.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

use sqlparser::ast::{Expr, SelectItem, SetExpr, Statement};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::scope::ScopeColumn;
use super::types::PgType;
use crate::sql::relations::{Definition, Relation};

/// The columns of `relation`: a table's as declared, a view's as its query
/// names them (untyped).
pub(super) fn columns(relation: &Relation) -> Option<Vec<ScopeColumn>> {
    let definition = match relation.definition {
        Definition::Table(definition) => definition,
        Definition::View(query) => return view_columns(relation.name, query),
    };
    definition
        .split(", ")
        .map(|column| {
            let (name, declared) = column.split_once(' ')?;
            let ty = match declared.split(' ').next().map(PgType::from_name) {
                Some(Some(ty @ (PgType::Bool | PgType::Reg(_)))) => ty,
                _ => PgType::Opaque,
            };
            let mut column = ScopeColumn::new(name.trim_matches('"'), ty);
            column.declared = true;
            Some(column)
        })
        .collect()
}

/// Each catalog view's column names, by the view's name.
type ViewColumns = HashMap<&'static str, Option<Vec<String>>>;

/// A catalog view's columns, read once from its query's select list (each
/// item's alias, or the column it reads).
fn view_columns(name: &'static str, query: &'static str) -> Option<Vec<ScopeColumn>> {
    static VIEWS: LazyLock<Mutex<ViewColumns>> = LazyLock::new(Mutex::default);
    let mut views = VIEWS.lock().unwrap_or_else(PoisonError::into_inner);
    let names = views
        .entry(name)
        .or_insert_with(|| select_list_names(query))
        .clone()?;
    Some(
        names
            .into_iter()
            .map(|name| ScopeColumn::new(name, PgType::Opaque))
            .collect(),
    )
}

/// The names a view's definition (`AS SELECT ...`) gives its columns.
fn select_list_names(definition: &str) -> Option<Vec<String>> {
    let text = definition.trim_start().strip_prefix("AS")?;
    let parsed = Parser::parse_sql(&PostgreSqlDialect {}, text).ok()?;
    let [Statement::Query(query)] = parsed.as_slice() else {
        return None;
    };
    let SetExpr::Select(select) = &*query.body else {
        return None;
    };
    select
        .projection
        .iter()
        .map(|item| match item {
            SelectItem::ExprWithAlias { alias, .. } => Some(alias.value.clone()),
            SelectItem::UnnamedExpr(Expr::Identifier(ident)) => Some(ident.value.clone()),
            SelectItem::UnnamedExpr(Expr::CompoundIdentifier(parts)) => {
                parts.last().map(|ident| ident.value.clone())
            }
            _ => None,
        })
        .collect()
}
