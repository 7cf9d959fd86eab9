//! The expressions a `CREATE TABLE` gives SQLite to evaluate later: a
//! column's `DEFAULT`, a `CHECK` constraint, a generated column's
//! expression. Each is read with PostgreSQL's rules, as the same expression
//! in a query is (a CHECK or a generated column over the table's own
//! columns, a default over none, both made their column's type), so that
//! `CHECK (name LIKE 'A%')` matches case and `DEFAULT now() + interval '1
//! hour'` is a timestamp. Where the SQLite text differs from what was
//! written, the written text goes with it (see `sql::written`), for the
//! catalog to show.

use sqlparser::ast::{
    AlterColumnOperation, AlterTable, AlterTableOperation, ColumnDef, ColumnOption, CreateTable,
    DataType, Expr, Ident, ObjectName, TableConstraint, visit_expressions_mut,
};
use std::ops::ControlFlow;

use super::casts::checked_modifier;
use super::catalog::Catalog;
use super::errors::Fail;
use super::scope::{Item, Scope, ScopeColumn};
use super::translator::Translator;
use super::types::PgType;
use crate::error::{Error, SqlState};
use crate::sql::written;

/// Reads the table's expressions with PostgreSQL's rules, in place; whether
/// any changed. An expression the reading does not handle is left as
/// written.
pub fn table_expressions(create: &mut CreateTable, catalog: &dyn Catalog) -> Result<bool, Error> {
    let columns = create
        .columns
        .iter()
        .map(declared_column)
        .collect::<Result<Vec<ScopeColumn>, Fail>>();
    let columns = match columns {
        Ok(columns) => columns,
        Err(Fail::Pg(error)) => return Err(error),
        Err(Fail::Unsupported(_)) => return Ok(false),
    };
    let table = table_scope(last_name(&create.name), columns.clone());
    let mut changed = false;
    for (column, target) in create.columns.iter_mut().zip(&columns) {
        changed |= column_expressions(column, target, &table, catalog)?;
    }
    for constraint in &mut create.constraints {
        changed |= check_expression(constraint, &table, catalog)?;
    }
    Ok(changed)
}

/// The expressions an `ALTER TABLE` brings (a new column's default, CHECK
/// or generated expression, an added CHECK constraint, `SET DEFAULT`), read
/// as `CREATE TABLE`'s are, over the table's columns and the new ones. A
/// table the catalog does not know is left to SQLite.
pub fn alter_expressions(alter: &mut AlterTable, catalog: &dyn Catalog) -> Result<bool, Error> {
    let name = last_name(&alter.name);
    let Some(relation) = catalog.relation(&name) else {
        return Ok(false);
    };
    // A table has one primary key at most.
    let mut keyed = relation.columns.iter().any(|c| c.primary_key);
    let mut columns: Vec<ScopeColumn> = relation
        .columns
        .into_iter()
        .map(|c| ScopeColumn {
            modifier: c.modifier,
            ..ScopeColumn::new(c.name, c.ty)
        })
        .collect();
    let mut changed = false;
    for operation in &mut alter.operations {
        let adds_key = match operation {
            AlterTableOperation::AddConstraint {
                constraint: TableConstraint::PrimaryKey(_),
                ..
            } => true,
            AlterTableOperation::AddColumn { column_def, .. } => column_def
                .options
                .iter()
                .any(|o| matches!(o.option, ColumnOption::PrimaryKey(_))),
            _ => false,
        };
        if adds_key && std::mem::replace(&mut keyed, true) {
            return Err(Error::state(
                SqlState::INVALID_TABLE_DEFINITION,
                format!("multiple primary keys for table \"{name}\" are not allowed"),
            ));
        }
        match operation {
            AlterTableOperation::AddColumn { column_def, .. } => {
                let added = match declared_column(column_def) {
                    Ok(added) => added,
                    Err(Fail::Pg(error)) => return Err(error),
                    Err(Fail::Unsupported(_)) => return Ok(changed),
                };
                columns.push(added.clone());
                let table = table_scope(name.clone(), columns.clone());
                changed |= column_expressions(column_def, &added, &table, catalog)?;
            }
            AlterTableOperation::AddConstraint { constraint, .. } => {
                let table = table_scope(name.clone(), columns.clone());
                changed |= check_expression(constraint, &table, catalog)?;
            }
            // A type changed before a default is set is the default's type.
            AlterTableOperation::AlterColumn {
                column_name,
                op: AlterColumnOperation::SetDataType { data_type, .. },
            } => {
                let decl = data_type.to_string();
                let ty = PgType::from_declared(&decl);
                let modifier = match checked_modifier(&ty, &decl) {
                    Ok(modifier) => modifier,
                    Err(Fail::Pg(error)) => return Err(error),
                    Err(Fail::Unsupported(_)) => None,
                };
                if let Some(column) = columns
                    .iter_mut()
                    .find(|c| c.name.eq_ignore_ascii_case(&column_name.value))
                {
                    column.ty = ty;
                    column.modifier = modifier;
                }
            }
            AlterTableOperation::AlterColumn {
                column_name,
                op: AlterColumnOperation::SetDefault { value },
            } => {
                let Some(target) = columns
                    .iter()
                    .find(|c| c.name.eq_ignore_ascii_case(&column_name.value))
                else {
                    continue;
                };
                let target = (target.ty.clone(), target.modifier);
                changed |= read(value, catalog, |t, e| {
                    let value = t.expr(e, &Scope::default())?;
                    Ok(t.assign(value, &target)?.expr)
                })?;
            }
            _ => {}
        }
    }
    Ok(changed)
}

/// A column as its declaration types it; a system column's name is
/// PostgreSQL's own (42701).
fn declared_column(column: &ColumnDef) -> Result<ScopeColumn, Fail> {
    const SYSTEM: &[&str] = &["tableoid", "xmin", "cmin", "xmax", "cmax", "ctid"];
    if SYSTEM.contains(&column.name.value.to_ascii_lowercase().as_str()) {
        return Err(Fail::Pg(Error::state(
            SqlState::DUPLICATE_COLUMN,
            format!(
                "column name \"{}\" conflicts with a system column name",
                column.name.value.to_ascii_lowercase()
            ),
        )));
    }
    let decl = column.data_type.to_string();
    let ty = PgType::from_declared(&decl);
    Ok(ScopeColumn {
        modifier: checked_modifier(&ty, &decl)?,
        ..ScopeColumn::new(column.name.value.clone(), ty)
    })
}

fn last_name(name: &ObjectName) -> String {
    name.0
        .last()
        .and_then(|part| part.as_ident())
        .map(|ident| ident.value.clone())
        .unwrap_or_default()
}

/// The table's row, as its CHECKs and generated columns read it.
fn table_scope(name: String, columns: Vec<ScopeColumn>) -> Scope<'static> {
    let mut table = Scope::default();
    table.items.push(Item {
        name,
        columns,
        open: false,
    });
    table
}

/// A column's default, CHECK and generated expression, read in place.
fn column_expressions(
    column: &mut ColumnDef,
    target: &ScopeColumn,
    table: &Scope,
    catalog: &dyn Catalog,
) -> Result<bool, Error> {
    let target = (target.ty.clone(), target.modifier);
    let none = Scope::default();
    let mut changed = false;
    for option in &mut column.options {
        changed |= match &mut option.option {
            ColumnOption::Default(expr) => read(expr, catalog, |t, e| {
                let value = t.expr(e, &none)?;
                Ok(t.assign(value, &target)?.expr)
            })?,
            ColumnOption::Check(check) => read(&mut check.expr, catalog, |t, e| {
                t.condition(e, table, "CHECK")
            })?,
            ColumnOption::Generated {
                generation_expr: Some(expr),
                ..
            } => read(expr, catalog, |t, e| {
                let value = t.expr(e, table)?;
                Ok(t.assign(value, &target)?.expr)
            })?,
            _ => false,
        };
    }
    Ok(changed)
}

/// A table CHECK constraint's condition, read in place.
fn check_expression(
    constraint: &mut TableConstraint,
    table: &Scope,
    catalog: &dyn Catalog,
) -> Result<bool, Error> {
    match constraint {
        TableConstraint::Check(check) => read(&mut check.expr, catalog, |t, e| {
            t.condition(e, table, "CHECK")
        }),
        _ => Ok(false),
    }
}

/// An expression's text as PostgreSQL prints it: its casts' types in lower
/// case (`'s'::regclass`, where the parser prints `REGCLASS`).
fn written_text(expr: &Expr) -> String {
    let mut printed = expr.clone();
    let _ = visit_expressions_mut(&mut printed, |part| {
        if let Expr::Cast { data_type, .. } = part {
            let name = data_type.to_string();
            if !name.contains('"') {
                *data_type = DataType::Custom(
                    ObjectName::from(vec![Ident::new(name.to_ascii_lowercase())]),
                    Vec::new(),
                );
            }
        }
        ControlFlow::<()>::Continue(())
    });
    printed.to_string()
}

/// One expression read by `reading`, replaced by its SQLite form (with the
/// text it was written as) where that differs; whether it did.
fn read(
    expr: &mut Expr,
    catalog: &dyn Catalog,
    reading: impl FnOnce(&mut Translator, &Expr) -> Result<Expr, Fail>,
) -> Result<bool, Error> {
    // Read once already (a statement read again after its rewrite).
    if matches!(expr, Expr::Function(f) if f.name.to_string().eq_ignore_ascii_case(written::FUNCTION))
    {
        return Ok(false);
    }
    let mut translator = Translator::new(catalog, &[], false);
    let translated = match reading(&mut translator, expr) {
        Ok(translated) => translated,
        Err(Fail::Pg(error)) => return Err(error),
        Err(Fail::Unsupported(_)) => return Ok(false),
    };
    let (written, sqlite) = (written_text(expr), translated.to_string());
    if written == sqlite || !translator.params.is_empty() {
        return Ok(false);
    }
    *expr = super::build::call(
        written::FUNCTION,
        vec![translated, super::build::string(&written)],
    );
    Ok(true)
}
