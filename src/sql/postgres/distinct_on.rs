//! `SELECT DISTINCT ON (keys) ...`: of each set of rows equal on the keys,
//! the first by the query's `ORDER BY`. SQLite has no such select, so it is
//! written as the select with each row's rank among its equals
//! (`row_number() OVER (PARTITION BY keys ORDER BY ...)`) and an outer
//! select that keeps the rows ranked first, in the same order.

use sqlparser::ast::{
    BinaryOperator, Expr, OrderBy, OrderByExpr, OrderByKind, Select, SelectItem, SetExpr,
    WindowSpec, WindowType,
};

use super::build::{binary, call, ident, number, query_of, select_from};
use super::columns::QueryColumn;
use super::errors::{Fail, Result, distinct_on_order};
use super::ordering::position;
use super::scope::Scope;
use super::translator::Translator;

const RANK: &str = "litewire_rank";

impl Translator<'_> {
    /// `select` (translated, without its DISTINCT ON) and its translated
    /// `ORDER BY`, rewritten to keep the first row for each of `keys`.
    pub(super) fn distinct_on(
        &mut self,
        keys: &[Expr],
        scope: &Scope,
        select: Select,
        columns: Option<&[QueryColumn]>,
        order_by: Option<OrderBy>,
    ) -> Result<(Select, Option<OrderBy>)> {
        let unsupported = Fail::Unsupported("DISTINCT ON");
        let Some(columns) = columns else {
            return Err(unsupported);
        };
        let listed = ListedItems::of(&select.projection);
        // A `*` is read back by its columns' names: they must tell them
        // apart (listed items are renamed, so two may share a name).
        let unique = columns.iter().enumerate().all(|(i, c)| {
            !columns[..i]
                .iter()
                .any(|other| other.name.eq_ignore_ascii_case(&c.name))
        });
        if listed.wildcard && !unique {
            return Err(unsupported);
        }
        let mut partition = Vec::with_capacity(keys.len());
        for key in keys {
            let expr = match listed.resolve(key)? {
                Some(expr) => expr,
                None => self.expr(key, scope)?.expr,
            };
            partition.push(expr);
        }
        let mut order = Vec::new();
        if let Some(OrderBy {
            kind: OrderByKind::Expressions(items),
            ..
        }) = &order_by
        {
            for item in items {
                let expr = listed
                    .resolve(&item.expr)?
                    .unwrap_or_else(|| item.expr.clone());
                order.push(OrderByExpr {
                    expr,
                    ..item.clone()
                });
            }
        }
        // PostgreSQL: the sort must begin with the keys, in any order.
        let leading = order.iter().take(partition.len());
        if leading.clone().any(|item| {
            !partition
                .iter()
                .any(|key| key.to_string() == item.expr.to_string())
        }) {
            return Err(distinct_on_order());
        }
        let mut inner = select;
        if !listed.wildcard {
            for (i, item) in inner.projection.iter_mut().enumerate() {
                let expr = match item {
                    SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. } => {
                        expr.clone()
                    }
                    _ => return Err(unsupported),
                };
                *item = SelectItem::ExprWithAlias {
                    expr,
                    alias: ident(&format!("litewire_column_{i}")),
                };
            }
        }
        for (j, item) in order.iter().enumerate() {
            inner.projection.push(SelectItem::ExprWithAlias {
                expr: item.expr.clone(),
                alias: ident(&format!("litewire_order_{j}")),
            });
        }
        let mut rank = call("row_number", Vec::new());
        if let Expr::Function(function) = &mut rank {
            function.over = Some(WindowType::WindowSpec(WindowSpec {
                window_name: None,
                partition_by: partition,
                order_by: order.clone(),
                window_frame: None,
            }));
        }
        inner.projection.push(SelectItem::ExprWithAlias {
            expr: rank,
            alias: ident(RANK),
        });
        let mut outer = outer_select(inner)?;
        outer.projection = columns
            .iter()
            .enumerate()
            .map(|(i, column)| {
                let read = match listed.wildcard {
                    true => column.name.clone(),
                    false => format!("litewire_column_{i}"),
                };
                SelectItem::ExprWithAlias {
                    expr: Expr::Identifier(ident(&read)),
                    alias: ident(&column.name),
                }
            })
            .collect();
        let order_by = order_by.map(|order_by| OrderBy {
            kind: OrderByKind::Expressions(
                order
                    .into_iter()
                    .enumerate()
                    .map(|(j, item)| OrderByExpr {
                        expr: Expr::Identifier(ident(&format!("litewire_order_{j}"))),
                        ..item
                    })
                    .collect(),
            ),
            ..order_by
        });
        Ok((outer, order_by))
    }
}

/// A select list's items as `ORDER BY` and `DISTINCT ON` may name them.
struct ListedItems {
    items: Vec<SelectItem>,
    /// It has a `*`: positions do not name items.
    wildcard: bool,
}

impl ListedItems {
    fn of(items: &[SelectItem]) -> ListedItems {
        let wildcard = items.iter().any(|item| {
            matches!(
                item,
                SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..)
            )
        });
        ListedItems {
            items: items.to_vec(),
            wildcard,
        }
    }

    /// The item's expression a position or an alias names, if it names one.
    fn resolve(&self, expr: &Expr) -> Result<Option<Expr>> {
        if let Some(position) = position(expr) {
            if self.wildcard {
                return Err(Fail::Unsupported("DISTINCT ON by position beside *"));
            }
            let item = usize::try_from(position - 1)
                .ok()
                .and_then(|i| self.items.get(i));
            return Ok(match item {
                Some(SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. }) => {
                    Some(expr.clone())
                }
                _ => None,
            });
        }
        let Expr::Identifier(name) = expr else {
            return Ok(None);
        };
        Ok(self.items.iter().find_map(|item| match item {
            SelectItem::ExprWithAlias { expr, alias }
                if alias.value.eq_ignore_ascii_case(&name.value) =>
            {
                Some(expr.clone())
            }
            _ => None,
        }))
    }
}

/// `SELECT ... FROM (inner) WHERE litewire_rank = 1`, its list to be filled.
fn outer_select(inner: Select) -> Result<Select> {
    let inner =
        query_of(SetExpr::Select(Box::new(inner))).ok_or(Fail::Unsupported("DISTINCT ON"))?;
    let mut outer =
        select_from(inner, "litewire_distinct_on").map_err(|_| Fail::Unsupported("DISTINCT ON"))?;
    outer.selection = Some(binary(
        Expr::Identifier(ident(RANK)),
        BinaryOperator::Eq,
        number("1"),
    ));
    Ok(*outer)
}
