//! The expressions a `CREATE TABLE` gives SQLite to evaluate later: a
//! column's `DEFAULT`, a `CHECK` constraint, a generated column's
//! expression. Each is read with PostgreSQL's rules, as the same expression
//! in a query is (a CHECK or a generated column over the table's own
//! columns, a default over none, both made their column's type), so that
//! `CHECK (name LIKE 'A%')` matches case and `DEFAULT now() + interval '1
//! hour'` is a timestamp. Where the SQLite text differs from what was
//! written, the written text goes with it (see `sql::written`), for the
//! catalog to show.

use sqlparser::ast::{ColumnOption, CreateTable, Expr, TableConstraint};

use super::casts::checked_modifier;
use super::catalog::Catalog;
use super::errors::Fail;
use super::scope::{Item, Scope, ScopeColumn};
use super::translator::Translator;
use super::types::PgType;
use crate::error::Error;
use crate::sql::written;

/// Reads the table's expressions with PostgreSQL's rules, in place; whether
/// any changed. An expression the reading does not handle is left as
/// written.
pub fn table_expressions(create: &mut CreateTable, catalog: &dyn Catalog) -> Result<bool, Error> {
    let columns = create
        .columns
        .iter()
        .map(|column| {
            let decl = column.data_type.to_string();
            let ty = PgType::from_declared(&decl);
            Ok(ScopeColumn {
                modifier: checked_modifier(&ty, &decl)?,
                ..ScopeColumn::new(column.name.value.clone(), ty)
            })
        })
        .collect::<Result<Vec<ScopeColumn>, Fail>>();
    let columns = match columns {
        Ok(columns) => columns,
        Err(Fail::Pg(error)) => return Err(error),
        Err(Fail::Unsupported(_)) => return Ok(false),
    };
    let mut table = Scope::default();
    table.items.push(Item {
        name: create
            .name
            .0
            .last()
            .and_then(|part| part.as_ident())
            .map(|ident| ident.value.clone())
            .unwrap_or_default(),
        columns: columns.clone(),
        open: false,
    });
    let none = Scope::default();
    let mut changed = false;
    for (column, target) in create.columns.iter_mut().zip(&columns) {
        let target = (target.ty.clone(), target.modifier);
        for option in &mut column.options {
            let read = match &mut option.option {
                ColumnOption::Default(expr) => read(expr, catalog, |t, e| {
                    let value = t.expr(e, &none)?;
                    Ok(t.assign(value, &target)?.expr)
                })?,
                ColumnOption::Check(check) => read(&mut check.expr, catalog, |t, e| {
                    t.condition(e, &table, "CHECK")
                })?,
                ColumnOption::Generated {
                    generation_expr: Some(expr),
                    ..
                } => read(expr, catalog, |t, e| {
                    let value = t.expr(e, &table)?;
                    Ok(t.assign(value, &target)?.expr)
                })?,
                _ => false,
            };
            changed |= read;
        }
    }
    for constraint in &mut create.constraints {
        if let TableConstraint::Check(check) = constraint {
            changed |= read(&mut check.expr, catalog, |t, e| {
                t.condition(e, &table, "CHECK")
            })?;
        }
    }
    Ok(changed)
}

/// One expression read by `reading`, replaced by its SQLite form (with the
/// text it was written as) where that differs; whether it did.
fn read(
    expr: &mut Expr,
    catalog: &dyn Catalog,
    reading: impl FnOnce(&mut Translator, &Expr) -> Result<Expr, Fail>,
) -> Result<bool, Error> {
    let mut translator = Translator::new(catalog, &[], false);
    let translated = match reading(&mut translator, expr) {
        Ok(translated) => translated,
        Err(Fail::Pg(error)) => return Err(error),
        Err(Fail::Unsupported(_)) => return Ok(false),
    };
    let (written, sqlite) = (expr.to_string(), translated.to_string());
    if written == sqlite || !translator.params.is_empty() {
        return Ok(false);
    }
    *expr = super::build::call(
        written::FUNCTION,
        vec![translated, super::build::string(&written)],
    );
    Ok(true)
}
