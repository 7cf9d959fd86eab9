//! `UPDATE ... SET (a, b) = (x, y)`, `= ROW(x, y)` and `= (SELECT x, y
//! ...)`: several columns set at once. A list of values is a plain
//! assignment per column. A subquery must give one row, as PostgreSQL's
//! does (none sets NULLs, a second is 21000): SQLite's row value takes the
//! first, so the subquery's rows are counted by a window beside them and a
//! second fails; each value is made its column's type.

use std::borrow::Cow;

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
    Values(Vec<Cow<'e, Expr>>),
    Subquery(&'e sqlparser::ast::Query),
}

impl<'e> RowValue<'e> {
    /// The row `value` is, `ROW(t.*)` with the columns of `t` (as `scope`
    /// has them); anything else is 0A000, as in PostgreSQL.
    pub(super) fn of(value: &'e Expr, scope: &Scope) -> Result<RowValue<'e>> {
        use sqlparser::ast::{FunctionArg, FunctionArgExpr};
        match value {
            Expr::Tuple(values) => Ok(RowValue::Values(values.iter().map(Cow::Borrowed).collect())),
            Expr::Subquery(query) => Ok(RowValue::Subquery(query)),
            Expr::Function(function) if function.name.to_string().eq_ignore_ascii_case("row") => {
                let FunctionArguments::List(list) = &function.args else {
                    return Ok(RowValue::Values(Vec::new()));
                };
                let mut values = Vec::new();
                for arg in &list.args {
                    match arg {
                        FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => {
                            values.push(Cow::Borrowed(e))
                        }
                        FunctionArg::Unnamed(FunctionArgExpr::QualifiedWildcard(name)) => {
                            let relation = name.to_string();
                            let columns = scope.star(Some(&relation))?.ok_or(Fail::Unsupported(
                                "ROW(t.*) of a relation whose columns are not known",
                            ))?;
                            values.extend(columns.into_iter().map(|(_, column)| {
                                Cow::Owned(Expr::CompoundIdentifier(vec![
                                    ident(&relation),
                                    ident(&column.name),
                                ]))
                            }));
                        }
                        _ => return Err(Fail::Unsupported("SET (columns) = ROW(...)")),
                    }
                }
                Ok(RowValue::Values(values))
            }
            Expr::Nested(inner)
                if !matches!(**inner, Expr::QualifiedWildcard(..) | Expr::Wildcard(_)) =>
            {
                RowValue::of(inner, scope)
            }
            _ => Err(Fail::Pg(crate::error::Error::state(
                crate::error::SqlState::FEATURE_NOT_SUPPORTED,
                "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression",
            ))),
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
                        value: self.assigned(&value, target, scope)?,
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
