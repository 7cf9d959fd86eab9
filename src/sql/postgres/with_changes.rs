//! A data change after `WITH` (`WITH keys AS (SELECT ...) DELETE FROM t
//! USING keys ...`): the `WITH` queries are read as any are, then in scope
//! for the change, which is read as it would be alone. SQLite runs `WITH`
//! before `INSERT`, `UPDATE` and `DELETE` as it is. (Changes inside `WITH`
//! are `sql::modifying_ctes`'.)

use sqlparser::ast::{Query, SetExpr, Statement as Ast};

use super::errors::{Fail, Result};
use super::translator::{OutputColumn, Translator};

impl Translator<'_> {
    /// The change `query` is, read; `None` where it is a query.
    pub(super) fn change_after_with(
        &mut self,
        query: &Query,
    ) -> Result<Option<(Ast, Option<Vec<OutputColumn>>)>> {
        let (
            Some(with),
            SetExpr::Insert(change) | SetExpr::Update(change) | SetExpr::Delete(change),
        ) = (&query.with, &*query.body)
        else {
            return Ok(None);
        };
        if query.order_by.is_some() || query.limit_clause.is_some() {
            return Err(Fail::Unsupported("ORDER BY or LIMIT after a data change"));
        }
        let ctes = self.ctes.len();
        let mut with = with.clone();
        let read = (|| {
            for cte in &mut with.cte_tables {
                self.cte(cte, None, with.recursive)?;
            }
            match change {
                Ast::Insert(insert) => self.insert(insert),
                Ast::Update(update) => self.update(update),
                Ast::Delete(delete) => self.delete(delete),
                _ => Err(Fail::Unsupported("data change")),
            }
        })();
        self.ctes.truncate(ctes);
        let (change, columns) = read?;
        let mut out = query.clone();
        out.body = Box::new(match change {
            Ast::Insert(_) => SetExpr::Insert(change),
            Ast::Update(_) => SetExpr::Update(change),
            Ast::Delete(_) => SetExpr::Delete(change),
            // An INSERT whose query had its own `WITH`: one list, outer first.
            Ast::Query(inner) => {
                if let Some(inner_with) = inner.with {
                    with.recursive |= inner_with.recursive;
                    with.cte_tables.extend(inner_with.cte_tables);
                }
                *inner.body
            }
            _ => return Err(Fail::Unsupported("data change")),
        });
        out.with = Some(with);
        Ok(Some((Ast::Query(Box::new(out)), columns)))
    }
}
