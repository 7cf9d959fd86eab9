//! `LATERAL (subquery)`: a subquery in FROM that reads the items before it.
//! SQLite's subqueries in FROM cannot, but the arguments of its table-valued
//! `json_each` can: the subquery's rows for each row beside it are packed
//! into one JSON array of arrays by a scalar subquery (which may read that
//! row), and `json_each` unpacks them, each column read back by position
//! (`bytea` travels as hex, JSON holding no bytes; a float as its 17
//! digits, JSON keeping 15).

use sqlparser::ast::helpers::attached_token::AttachedToken;
use sqlparser::ast::{
    BinaryOperator, CaseWhen, Expr, Query, SelectItem, SetExpr, SetOperator, SetQuantifier,
    TableAlias, TableFactor,
};

use super::build::{binary, call, ident, number, parsed_select, query_of, select_from, string};
use super::columns::QueryColumn;
use super::errors::{Fail, Result};
use super::scope::Scope;
use super::set_returning::{EachColumn, each_column};
use super::translator::Translator;
use super::types::PgType;

impl Translator<'_> {
    /// `LATERAL (subquery) AS alias`, read with the items before it in scope.
    pub(super) fn lateral_subquery(
        &mut self,
        subquery: &Query,
        alias: Option<&TableAlias>,
        scope: &mut Scope,
    ) -> Result<TableFactor> {
        let unsupported = Fail::Unsupported("LATERAL subquery");
        let was = std::mem::replace(&mut scope.qualify, true);
        let read = self.query(subquery, Some(scope));
        scope.qualify = was;
        let (mut query, columns) = read?;
        let Some(columns) = columns else {
            return Err(unsupported);
        };
        let Some(names) = position_names(&mut query, &columns) else {
            return Err(unsupported);
        };
        let item = alias.map_or_else(String::new, |a| a.name.value.clone());
        if item.is_empty() {
            return Err(unsupported);
        }
        let packed: Vec<Expr> = columns
            .iter()
            .zip(&names)
            .map(|(column, name)| {
                let read = Expr::Identifier(ident(name));
                match column.ty {
                    // Marked, so that an empty value is not NULL's `hex`.
                    PgType::Bytea => Expr::Case {
                        case_token: AttachedToken::empty(),
                        end_token: AttachedToken::empty(),
                        operand: None,
                        conditions: vec![CaseWhen {
                            condition: Expr::IsNotNull(Box::new(read.clone())),
                            result: binary(
                                string("x"),
                                BinaryOperator::StringConcat,
                                call("hex", vec![read]),
                            ),
                        }],
                        else_result: None,
                    },
                    // JSON keeps 15 digits of a float: all 17 travel as text.
                    PgType::Float4 | PgType::Float8 | PgType::Numeric => Expr::Case {
                        case_token: AttachedToken::empty(),
                        end_token: AttachedToken::empty(),
                        operand: None,
                        conditions: vec![CaseWhen {
                            condition: binary(
                                call("typeof", vec![read.clone()]),
                                BinaryOperator::Eq,
                                string("real"),
                            ),
                            result: call("printf", vec![string("%!.17g"), read.clone()]),
                        }],
                        else_result: Some(Box::new(read)),
                    },
                    _ => read,
                }
            })
            .collect();
        let source = packed_rows(query, packed).ok_or(unsupported)?;
        let each = columns
            .iter()
            .enumerate()
            .map(|(i, column)| {
                let element = call(
                    "json_extract",
                    vec![each_column(&item, "value"), string(&format!("$[{i}]"))],
                );
                let name = alias
                    .and_then(|a| a.columns.get(i))
                    .map_or_else(|| column.name.clone(), |c| c.name.value.clone());
                EachColumn {
                    name,
                    computed: match column.ty {
                        PgType::Bytea => {
                            call("unhex", vec![call("substr", vec![element, number("2")])])
                        }
                        PgType::Float4 | PgType::Float8 | PgType::Numeric => call(
                            "litewire_cast",
                            vec![
                                element,
                                string("text"),
                                string(column.ty.name().unwrap_or("float8")),
                            ],
                        ),
                        _ => element,
                    },
                    ty: column.ty.clone(),
                }
            })
            .collect();
        self.each(scope, &item, source, each)
    }
}

/// Names SQLite gives the query's columns, made unique by position where
/// the query's own select list can be renamed.
fn position_names(query: &mut Query, columns: &[QueryColumn]) -> Option<Vec<String>> {
    match &mut *query.body {
        SetExpr::Select(select)
            if select.projection.iter().all(|item| {
                matches!(
                    item,
                    SelectItem::UnnamedExpr(_) | SelectItem::ExprWithAlias { .. }
                )
            }) =>
        {
            let mut names = Vec::with_capacity(select.projection.len());
            for (i, item) in select.projection.iter_mut().enumerate() {
                let (SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. }) = item
                else {
                    return None;
                };
                let name = format!("litewire_column_{i}");
                *item = SelectItem::ExprWithAlias {
                    expr: expr.clone(),
                    alias: ident(&name),
                };
                names.push(name);
            }
            Some(names)
        }
        // Rows of VALUES: SQLite names their columns by what the first row
        // reads, so they become selects, the first naming them.
        SetExpr::Values(values) => {
            let width = values.rows.first().map_or(0, |row| row.len());
            let names: Vec<String> = (0..width).map(|i| format!("litewire_column_{i}")).collect();
            let mut selects = values.rows.iter().enumerate().map(|(r, row)| {
                let mut select = *parsed_select("SELECT 1")?;
                select.projection = row
                    .iter()
                    .zip(&names)
                    .map(|(expr, name)| match r {
                        0 => SelectItem::ExprWithAlias {
                            expr: expr.clone(),
                            alias: ident(name),
                        },
                        _ => SelectItem::UnnamedExpr(expr.clone()),
                    })
                    .collect();
                Some(SetExpr::Select(Box::new(select)))
            });
            let first = selects.next()??;
            let body = selects.try_fold(first, |left, right| {
                Some(SetExpr::SetOperation {
                    op: SetOperator::Union,
                    set_quantifier: SetQuantifier::All,
                    left: Box::new(left),
                    right: Box::new(right?),
                })
            })?;
            *query.body = body;
            Some(names)
        }
        // `*` or a set operation: the columns' own names, if unique.
        _ => {
            let unique = columns.iter().enumerate().all(|(i, c)| {
                c.name != "?column?"
                    && !columns[..i]
                        .iter()
                        .any(|other| other.name.eq_ignore_ascii_case(&c.name))
            });
            unique.then(|| columns.iter().map(|c| c.name.clone()).collect())
        }
    }
}

/// `(SELECT json_group_array(json_array(packed...)) FROM (query))`.
fn packed_rows(query: Query, packed: Vec<Expr>) -> Option<Expr> {
    let mut outer = query_of(SetExpr::Select(
        select_from(Box::new(query), "litewire_lateral").ok()?,
    ))?;
    let SetExpr::Select(select) = &mut *outer.body else {
        return None;
    };
    select.projection = vec![SelectItem::UnnamedExpr(call(
        "json_group_array",
        vec![call("json_array", packed)],
    ))];
    Some(Expr::Subquery(outer))
}
