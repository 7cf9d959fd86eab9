//! A function that returns one value, called in FROM (`SELECT * FROM
//! current_schema()`, `FROM lower(name) AS l`): PostgreSQL reads it as a
//! relation of one row whose one column is named by the alias's column
//! list, else the alias, else the function. SQLite takes only table-valued
//! functions there, so the call becomes a subquery of one row. A call that
//! reads the items before it (implicitly LATERAL) is left as it is.

use sqlparser::ast::{SelectItem, SetExpr, TableFactor};

use super::aggregates::is_aggregate;
use super::build::{call, derived, ident, parsed_select, query_of};
use super::errors::{Fail, Result, grouping};
use super::scope::{Item, Scope, ScopeColumn};
use super::set_returning::{RowFunction, reads_columns};
use super::translator::Translator;
use super::types::PgType;

impl Translator<'_> {
    /// `function` as a one-row subquery, if it is a function of one value
    /// that reads nothing beside it.
    pub(super) fn function_value(
        &mut self,
        function: &RowFunction,
        scope: &mut Scope,
    ) -> Result<Option<TableFactor>> {
        if is_aggregate(&function.name) {
            return Err(grouping(
                "aggregate functions are not allowed in functions in FROM".into(),
            ));
        }
        let args = function.args.iter().map(|arg| (*arg).clone()).collect();
        let typed = match self.argument(&call(&function.name, args), scope) {
            Ok(typed) => typed,
            Err(Fail::Unsupported(_)) => return Ok(None),
            Err(error) => return Err(error),
        };
        if matches!(typed.ty, PgType::Opaque | PgType::Unknown) || reads_columns(&typed) {
            return Ok(None);
        }
        let item = function.item_name();
        let column = function.column_name(0, &item);
        let mut select = parsed_select("SELECT NULL").ok_or(Fail::Unsupported("FROM value"))?;
        select.projection = vec![SelectItem::ExprWithAlias {
            expr: typed.expr,
            alias: ident(&column),
        }];
        let mut columns = vec![ScopeColumn::new(column, typed.ty)];
        if function.ordinality {
            let name = function.column_name(1, "ordinality");
            select.projection.push(SelectItem::ExprWithAlias {
                expr: super::build::number("1"),
                alias: ident(&name),
            });
            columns.push(ScopeColumn::new(name, PgType::Int8));
        }
        scope.items.push(Item {
            name: item.clone(),
            columns,
            open: false,
        });
        let subquery = query_of(SetExpr::Select(select)).ok_or(Fail::Unsupported("FROM value"))?;
        Ok(Some(derived(subquery, &item)))
    }
}
