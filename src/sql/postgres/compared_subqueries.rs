//! Values compared with a subquery's rows: `x IN (subquery)`, `(a, b) IN
//! (subquery)` and `x op ANY | ALL (subquery)`. PostgreSQL types each value
//! against the subquery's column it meets, as in `x = y` (`bigint = text` is
//! 42883, an unknown literal takes the column's type), and wants as many
//! columns as values (42601); SQLite compares whatever it is given.

use sqlparser::ast::{BinaryOperator, Expr, FunctionArguments, InTarget, Query};

use super::build::{ident, parsed_expr, parsed_query};
use super::columns::QueryColumn;
use super::errors::{Fail, Result, syntax};
use super::scope::Scope;
use super::translator::{Translator, Typed};
use super::types::PgType;

impl Translator<'_> {
    /// `value [NOT] IN (subquery)`.
    pub(super) fn in_subquery(
        &mut self,
        value: &Expr,
        subquery: &Query,
        negated: bool,
        global: bool,
        scope: &Scope,
    ) -> Result<Typed> {
        let (query, columns) = self.subquery(subquery, scope)?;
        let value = self.compared_values(value, &columns, "=", scope)?;
        Ok(Typed::new(
            Expr::In {
                expr: Box::new(value),
                target: InTarget::Subquery(Box::new(query)),
                negated,
                global,
            },
            PgType::Bool,
        ))
    }

    /// `left op ANY | ALL (right)`, `right` an array or a subquery. SQLite
    /// has neither: `= ANY (subquery)` is `IN`, `<> ALL (subquery)` is `NOT
    /// IN`; any other operator over a subquery is its comparisons' verdict,
    /// PostgreSQL's three-valued one (ANY: true if one is, else NULL if one
    /// is NULL, else false; ALL the other way round).
    pub(super) fn quantified(
        &mut self,
        left: &Expr,
        op: &BinaryOperator,
        right: &Expr,
        all: bool,
        scope: &Scope,
    ) -> Result<Typed> {
        let subquery = match right {
            Expr::Subquery(query) => Some(query),
            Expr::Nested(inner) => match &**inner {
                Expr::Subquery(query) => Some(query),
                _ => None,
            },
            _ => None,
        };
        let Some(subquery) = subquery else {
            // Any other comparison over an array's elements is over them as
            // over a subquery's rows; a NULL array gives NULL.
            if all || *op != BinaryOperator::Eq {
                let over = format!(
                    "CASE WHEN ({right}) IS NULL THEN NULL ELSE \
                     {left} {op} {} (SELECT unnest({right})) END",
                    if all { "ALL" } else { "ANY" }
                );
                let over = parsed_expr(&over).ok_or(Fail::Unsupported("ANY or ALL"))?;
                return self.expr(&over, scope).map(|t| Typed { name: None, ..t });
            }
            let (left, right) = (
                Box::new(self.expr(left, scope)?.expr),
                Box::new(self.expr(right, scope)?.expr),
            );
            let compare_op = op.clone();
            let expr = match all {
                true => Expr::AllOp {
                    left,
                    compare_op,
                    right,
                },
                false => Expr::AnyOp {
                    left,
                    compare_op,
                    right,
                    is_some: false,
                },
            };
            return Ok(Typed::new(expr, PgType::Bool));
        };
        match (op, all) {
            (BinaryOperator::Eq, false) => {
                return self.in_subquery(left, subquery, false, false, scope);
            }
            (BinaryOperator::NotEq, true) => {
                return self.in_subquery(left, subquery, true, false, scope);
            }
            _ => {}
        }
        let (mut query, columns) = self.subquery(subquery, scope)?;
        let [column] = columns.as_slice() else {
            return Err(Fail::Unsupported("ANY or ALL over a row"));
        };
        let value = self.expr(left, scope)?;
        let probe = Typed::new(
            Expr::Identifier(ident(QUANTIFIED_VALUE)),
            compared_type(column),
        );
        let (value, probe) = self.comparable(value, probe, &op.to_string())?;
        crate::sql::syntax_tree::printable(&mut query);
        let verdict = match all {
            false => "CASE WHEN max(c) THEN 1 WHEN count(*) > count(c) THEN NULL ELSE 0 END",
            true => "CASE WHEN NOT min(c) THEN 0 WHEN count(*) > count(c) THEN NULL ELSE 1 END",
        };
        let sql = format!(
            "SELECT {verdict} FROM (WITH litewire_quantified ({QUANTIFIED_VALUE}) AS ({query}) \
             SELECT ({} {op} {}) AS c FROM litewire_quantified)",
            value.expr, probe.expr
        );
        let verdict = parsed_query(&sql).ok_or(Fail::Unsupported("ANY or ALL"))?;
        Ok(Typed::new(Expr::Subquery(verdict), PgType::Bool))
    }

    /// One value, or a row of them, made comparable with the subquery's
    /// columns, one each.
    fn compared_values(
        &mut self,
        value: &Expr,
        columns: &[QueryColumn],
        symbol: &str,
        scope: &Scope,
    ) -> Result<Expr> {
        let items: Vec<&Expr> = match value {
            Expr::Tuple(items) => items.iter().collect(),
            other => vec![other],
        };
        // A subquery whose columns are not known is compared as it is.
        if !columns.is_empty() {
            if columns.len() > items.len() {
                return Err(syntax("subquery has too many columns".into()));
            }
            if columns.len() < items.len() {
                return Err(syntax("subquery has too few columns".into()));
            }
        }
        let mut compared = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let typed = self.expr(item, scope)?;
            compared.push(match columns.get(i) {
                Some(column) => {
                    let probe = Typed::new(typed.expr.clone(), compared_type(column));
                    self.comparable(typed, probe, symbol)?.0.expr
                }
                None => typed.expr,
            });
        }
        Ok(match value {
            Expr::Tuple(_) => Expr::Tuple(compared),
            _ => compared.pop().unwrap_or_else(super::build::null),
        })
    }

    /// `x LIKE ANY (array)`: whether one of the array's patterns matches
    /// (NULL for a NULL array, false for an empty one).
    pub(super) fn like_any(
        &mut self,
        value: &Expr,
        pattern: &Expr,
        insensitive: bool,
        negated: bool,
        scope: &Scope,
    ) -> Result<Typed> {
        let array = match pattern {
            Expr::Tuple(items) if items.len() == 1 => &items[0],
            Expr::Nested(inner) => &**inner,
            other => other,
        };
        let like = match (insensitive, negated) {
            (false, false) => "LIKE",
            (false, true) => "NOT LIKE",
            (true, false) => "ILIKE",
            (true, true) => "NOT ILIKE",
        };
        let over = format!(
            "CASE WHEN ({array}) IS NULL THEN NULL ELSE coalesce((SELECT bool_or(({value}) \
             {like} litewire_pattern) FROM unnest({array}) AS litewire_pattern), false) END"
        );
        let over = parsed_expr(&over).ok_or(Fail::Unsupported("LIKE ANY"))?;
        Ok(Typed {
            name: None,
            ..self.expr(&over, scope)?
        })
    }

    /// `ARRAY(query)`: the query read as any subquery, its one column's
    /// values in an array (which the statement-level translation builds).
    pub(super) fn array_of_query(
        &mut self,
        function: &sqlparser::ast::Function,
        query: &Query,
        scope: &Scope,
    ) -> Result<Typed> {
        let (query, columns) = self.subquery(query, scope)?;
        let [column] = columns.as_slice() else {
            return Err(syntax("subquery must return only one column".into()));
        };
        let element = match &column.ty {
            PgType::Opaque | PgType::Unknown => PgType::Text,
            ty => ty.clone(),
        };
        let mut translated = function.clone();
        translated.args = FunctionArguments::Subquery(Box::new(query));
        let ty = PgType::Array(Box::new(element));
        Ok(Typed::new(Expr::Function(translated), ty).named("array", 2))
    }
}

/// The name a quantified comparison gives the subquery's column.
const QUANTIFIED_VALUE: &str = "litewire_quantified_value";

/// A subquery column's type as a comparison sees it: an unknown literal's
/// is text by then, as in PostgreSQL.
fn compared_type(column: &QueryColumn) -> PgType {
    match &column.ty {
        PgType::Unknown => PgType::Text,
        ty => ty.clone(),
    }
}
