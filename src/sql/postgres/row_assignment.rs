//! `UPDATE ... SET (a, b) = (x, y)`, `= ROW(x, y)` and `= (SELECT x, y
//! ...)`: several columns set at once. A list of values is a plain
//! assignment per column. A subquery must give one row, as PostgreSQL's
//! does (none sets NULLs, a second is 21000): SQLite's row value takes the
//! first, so the subquery's rows are counted by a window beside them and a
//! second fails; each value is made its column's type.

use sqlparser::ast::{Assignment, AssignmentTarget, Expr, FunctionArguments, ObjectName};

use super::build::{ident, parsed_query};
use super::columns::QueryColumn;
use super::errors::{Fail, Result, syntax};
use super::scope::Scope;
use super::translator::{Translator, Typed};
use super::types::ColumnType;

/// A column an UPDATE assigns: its type, and what `DEFAULT` means for it.
pub(super) struct Target {
    pub ty: ColumnType,
    pub default: Expr,
}

/// What a row of columns is set to.
pub(super) enum RowValue<'e> {
    /// One value per column.
    Values(Vec<&'e Expr>),
    Subquery(&'e sqlparser::ast::Query),
}

impl<'e> RowValue<'e> {
    pub(super) fn of(value: &'e Expr) -> Option<RowValue<'e>> {
        match value {
            Expr::Tuple(values) => Some(RowValue::Values(values.iter().collect())),
            Expr::Subquery(query) => Some(RowValue::Subquery(query)),
            Expr::Function(function) if function.name.to_string().eq_ignore_ascii_case("row") => {
                let FunctionArguments::List(list) = &function.args else {
                    return None;
                };
                list.args
                    .iter()
                    .map(|arg| match arg {
                        sqlparser::ast::FunctionArg::Unnamed(
                            sqlparser::ast::FunctionArgExpr::Expr(e),
                        ) => Some(e),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()
                    .map(RowValue::Values)
            }
            Expr::Nested(inner) => RowValue::of(inner),
            _ => None,
        }
    }
}

impl Translator<'_> {
    /// `(columns) = value`, as SQLite's assignments, each column with its
    /// type.
    pub(super) fn row_assignment(
        &mut self,
        columns: &[ObjectName],
        targets: &[Target],
        value: RowValue,
        scope: &Scope,
    ) -> Result<Vec<Assignment>> {
        let mismatch = || syntax("number of columns does not match number of values".into());
        match value {
            RowValue::Values(values) => {
                if values.len() != columns.len() {
                    return Err(mismatch());
                }
                let mut out = Vec::with_capacity(values.len());
                for ((column, target), value) in columns.iter().zip(targets).zip(values) {
                    out.push(Assignment {
                        target: AssignmentTarget::ColumnName(column.clone()),
                        value: self.assigned(value, target, scope)?,
                    });
                }
                Ok(out)
            }
            RowValue::Subquery(query) => {
                let (mut query, read) = self.query(query, Some(scope))?;
                let Some(read) = read else {
                    return Err(Fail::Unsupported("a row subquery of unknown columns"));
                };
                if read.len() != columns.len() {
                    return Err(mismatch());
                }
                let names: Vec<String> = (0..read.len())
                    .map(|i| format!("litewire_column_{i}"))
                    .collect();
                let mut values = Vec::with_capacity(read.len());
                for ((name, column), target) in names.iter().zip(&read).zip(targets) {
                    let typed = Typed::new(
                        Expr::Identifier(ident(name)),
                        QueryColumn::read_type(column),
                    );
                    values.push(self.assign(typed, &target.ty)?.expr.to_string());
                }
                crate::sql::syntax_tree::printable(&mut query);
                let sql = format!(
                    "SELECT {} FROM (SELECT *, count(*) OVER () AS litewire_rows FROM \
                     (WITH litewire_row ({}) AS ({query}) SELECT * FROM litewire_row)) \
                     WHERE litewire_rows = 1 OR litewire_error('21000', \
                     'more than one row returned by a subquery used as an expression')",
                    values.join(", "),
                    names.join(", "),
                );
                let one_row = parsed_query(&sql).ok_or(Fail::Unsupported("row subquery"))?;
                Ok(vec![Assignment {
                    target: AssignmentTarget::Tuple(columns.to_vec()),
                    value: Expr::Subquery(one_row),
                }])
            }
        }
    }
}
