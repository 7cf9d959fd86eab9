//! `INTERSECT ALL` and `EXCEPT ALL`, which keep duplicates: a row that is
//! in the left side m times and in the right side n times is in the answer
//! min(m, n) times (`INTERSECT ALL`) or max(m - n, 0) times (`EXCEPT ALL`).
//! SQLite has only the set forms. Numbering each side's copies of a row
//! (`row_number() OVER (PARTITION BY every column)`) makes the copies
//! distinct rows, for which the set forms count exactly so; the numbers are
//! then left out.

use sqlparser::ast::{
    Expr, SelectItem, SetExpr, SetOperator, SetQuantifier, TableAliasColumnDef, WindowSpec,
    WindowType,
};

use super::build::{call, ident, parsed_query, select_from};
use super::columns::QueryColumn;
use super::errors::{Fail, Result};

const LEFT: &str = "litewire_left";
const RIGHT: &str = "litewire_right";
const COPY: &str = "litewire_copy";
const COUNTED: &str = "litewire_counted";

/// `left op ALL right` as sets of numbered copies, its columns named as
/// `columns` name them.
pub(super) fn counted(
    left: SetExpr,
    op: SetOperator,
    right: SetExpr,
    columns: &[QueryColumn],
) -> Result<SetExpr> {
    let unsupported = || Fail::Unsupported("INTERSECT ALL, EXCEPT ALL");
    let names: Vec<String> = (0..columns.len())
        .map(|i| format!("litewire_column_{i}"))
        .collect();
    let template = format!(
        "WITH {LEFT} AS (SELECT 1), {RIGHT} AS (SELECT 1) \
         SELECT 1 FROM (SELECT 1 FROM {LEFT} INTERSECT SELECT 1 FROM {RIGHT}) AS litewire_counted"
    );
    let mut query = parsed_query(&template).ok_or_else(unsupported)?;
    let with = query.with.as_mut().ok_or_else(unsupported)?;
    let [left_cte, right_cte] = with.cte_tables.as_mut_slice() else {
        return Err(unsupported());
    };
    for (cte, side) in [(left_cte, left), (right_cte, right)] {
        cte.alias.columns = names.iter().map(TableAliasColumnDef::from_name).collect();
        *cte.query.body = side;
    }
    let SetExpr::Select(outer) = &mut *query.body else {
        return Err(unsupported());
    };
    outer.projection = names
        .iter()
        .zip(columns)
        .map(|(name, column)| SelectItem::ExprWithAlias {
            expr: Expr::Identifier(ident(name)),
            alias: ident(&column.name),
        })
        .collect();
    let Some(sqlparser::ast::TableFactor::Derived { subquery, .. }) =
        outer.from.first_mut().map(|from| &mut from.relation)
    else {
        return Err(unsupported());
    };
    let SetExpr::SetOperation {
        left: numbered_left,
        op: operation,
        set_quantifier,
        right: numbered_right,
    } = &mut *subquery.body
    else {
        return Err(unsupported());
    };
    *operation = op;
    *set_quantifier = SetQuantifier::None;
    for numbered in [numbered_left, numbered_right] {
        let SetExpr::Select(select) = &mut **numbered else {
            return Err(unsupported());
        };
        let reads: Vec<Expr> = names
            .iter()
            .map(|name| Expr::Identifier(ident(name)))
            .collect();
        let mut copy = call("row_number", Vec::new());
        if let Expr::Function(function) = &mut copy {
            function.over = Some(WindowType::WindowSpec(WindowSpec {
                window_name: None,
                partition_by: reads.clone(),
                order_by: Vec::new(),
                window_frame: None,
            }));
        }
        select.projection = reads
            .into_iter()
            .map(SelectItem::UnnamedExpr)
            .chain([SelectItem::ExprWithAlias {
                expr: copy,
                alias: ident(COPY),
            }])
            .collect();
    }
    // As a select of the query, which stands where a set operation's side
    // or a query's body may (a parenthesized query may not, in SQLite).
    let select = select_from(query, COUNTED).map_err(|_| unsupported())?;
    Ok(SetExpr::Select(select))
}
