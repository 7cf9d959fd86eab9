//! The inference: its state while it walks a statement (the scopes it is in,
//! the hints found so far), and its rules for the type of an expression and
//! for giving a parameter the type its place expects. The walk itself is in
//! `walker`, the scopes are read in `scope`, stored values in `stored_values`.

use sqlparser::ast::{
    BinaryOperator, Expr, Function, Query, SelectItem, Statement as Ast, UnaryOperator, Value,
    Visit,
};
use sqlparser::dialect::{Dialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

use super::frame::Frame;
use super::functions::{Signature, arguments, function_name, is_unifying, signature};
use super::hint::{ParamHint, declared, operand};
use super::value_types::{cast_type, literal_type};
use crate::sql::syntax_tree::{first_select, is_arithmetic, is_comparison, is_text_match};

/// A hint for each of the `count` parameters of a statement: `source` is the
/// statement as the client sent it (`$N` parameters), `sqlite` its translation
/// (`?N`), read when `source` is not PostgreSQL that sqlparser understands.
pub fn param_hints(source: &str, sqlite: &str, count: usize) -> Vec<Option<ParamHint>> {
    let mut hints = vec![None; count];
    if count == 0 {
        return hints;
    }
    let parsed = parse(&PostgreSqlDialect {}, source).or_else(|| parse(&SQLiteDialect {}, sqlite));
    if let Some(ast) = parsed {
        let mut inference = Inference {
            frames: Vec::new(),
            hints: &mut hints,
        };
        let _ = ast.visit(&mut inference);
    }
    hints
}

fn parse(dialect: &dyn Dialect, sql: &str) -> Option<Ast> {
    Parser::parse_sql(dialect, sql).ok()?.into_iter().next()
}

/// Walks a statement, giving each parameter the first type its uses imply.
pub(super) struct Inference<'a> {
    /// The relations in scope, outermost first.
    pub(super) frames: Vec<Frame>,
    pub(super) hints: &'a mut Vec<Option<ParamHint>>,
}

impl Inference<'_> {
    fn set(&mut self, n: usize, hint: ParamHint) {
        if let Some(slot) = n.checked_sub(1).and_then(|i| self.hints.get_mut(i))
            && slot.is_none()
        {
            *slot = Some(hint);
        }
    }

    /// The type an expression has, as far as the statement shows it.
    pub(super) fn infer(&mut self, expr: &Expr) -> Option<ParamHint> {
        match expr {
            Expr::Identifier(ident) => self.column(None, &ident.value),
            Expr::CompoundIdentifier(parts) => match parts.as_slice() {
                [.., qualifier, column] => self.column(Some(&qualifier.value), &column.value),
                _ => None,
            },
            Expr::Nested(inner) => self.infer(inner),
            Expr::Cast { data_type, .. } => cast_type(data_type).map(ParamHint::Declared),
            Expr::TypedString(typed) => cast_type(&typed.data_type).map(ParamHint::Declared),
            Expr::Value(value) => literal_type(&value.value).map(declared),
            Expr::BinaryOp { left, op, right } => match op {
                op if is_arithmetic(op) => match self.infer(left) {
                    Some(hint) => Some(hint),
                    None => self.infer(right),
                },
                BinaryOperator::StringConcat | BinaryOperator::LongArrow => Some(declared("text")),
                op if is_comparison(op) || is_text_match(op) => Some(declared("boolean")),
                BinaryOperator::And | BinaryOperator::Or => Some(declared("boolean")),
                _ => None,
            },
            Expr::UnaryOp { op, expr } => match op {
                UnaryOperator::Minus | UnaryOperator::Plus => self.infer(expr),
                UnaryOperator::Not => Some(declared("boolean")),
                _ => None,
            },
            Expr::IsNull(_)
            | Expr::IsNotNull(_)
            | Expr::IsTrue(_)
            | Expr::IsFalse(_)
            | Expr::IsDistinctFrom(..)
            | Expr::IsNotDistinctFrom(..)
            | Expr::In { .. }
            | Expr::Between { .. }
            | Expr::Like { .. }
            | Expr::ILike { .. }
            | Expr::SimilarTo { .. }
            | Expr::Exists { .. }
            | Expr::AnyOp { .. }
            | Expr::AllOp { .. } => Some(declared("boolean")),
            Expr::Trim { .. } | Expr::Substring { .. } | Expr::Overlay { .. } => {
                Some(declared("text"))
            }
            Expr::Position { .. } => Some(declared("integer")),
            Expr::Ceil { expr, .. } | Expr::Floor { expr, .. } => self.infer(expr),
            Expr::Case {
                conditions,
                else_result,
                ..
            } => {
                let results: Vec<&Expr> = conditions
                    .iter()
                    .map(|when| &when.result)
                    .chain(else_result.as_deref())
                    .collect();
                self.first_known(results)
            }
            Expr::Function(function) => self.function_result(function),
            Expr::Subquery(query) => self.query_column(query),
            _ => None,
        }
    }

    fn first_known<'e>(&mut self, exprs: impl IntoIterator<Item = &'e Expr>) -> Option<ParamHint> {
        exprs.into_iter().find_map(|e| self.infer(e))
    }

    /// The type of a scalar subquery: its first column's, in its own scope.
    pub(super) fn query_column(&mut self, query: &Query) -> Option<ParamHint> {
        let select = first_select(&query.body)?;
        let expr = match select.projection.first()? {
            SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. } => expr,
            _ => return None,
        };
        let frame = self.frame_of_query(query);
        self.frames.push(frame);
        let hint = self.infer(expr);
        self.frames.pop();
        hint
    }

    fn function_result(&mut self, function: &Function) -> Option<ParamHint> {
        let name = function_name(function)?;
        let args = arguments(function);
        match name.as_str() {
            "count" => Some(declared("bigint")),
            "avg" => Some(declared("numeric")),
            "now"
            | "current_timestamp"
            | "transaction_timestamp"
            | "statement_timestamp"
            | "clock_timestamp" => Some(declared("timestamptz")),
            "current_date" => Some(declared("date")),
            "random" => Some(declared("double precision")),
            "gen_random_uuid" => Some(declared("uuid")),
            "abs" | "min" | "max" | "coalesce" | "nullif" | "greatest" | "least" => {
                self.first_known(args)
            }
            _ => match signature(&name, args.len()) {
                Some(Signature { result, .. }) => result.map(declared),
                None => None,
            },
        }
    }

    /// Gives `expr` the type `hint` where it is a parameter, or a parameter that
    /// decides its value (a CASE result, an argument of `coalesce`).
    pub(super) fn expect(&mut self, expr: &Expr, hint: &ParamHint) {
        match expr {
            Expr::Nested(inner) => self.expect(inner, hint),
            Expr::Case {
                conditions,
                else_result,
                ..
            } => {
                for when in conditions {
                    self.expect(&when.result, hint);
                }
                if let Some(result) = else_result {
                    self.expect(result, hint);
                }
            }
            Expr::Function(function)
                if function_name(function).is_some_and(|name| is_unifying(&name)) =>
            {
                for arg in arguments(function) {
                    self.expect(arg, hint);
                }
            }
            _ => {
                if let Some(n) = placeholder(expr) {
                    self.set(n, hint.clone());
                }
            }
        }
    }

    /// Each side of a comparison (or arithmetic) takes the other's type; row
    /// values (`(a, b) = ($1, $2)`) element by element.
    pub(super) fn compared(&mut self, a: &Expr, b: &Expr) {
        if let (Expr::Tuple(left), Expr::Tuple(right)) = (a, b) {
            for (a, b) in left.iter().zip(right) {
                self.compared(a, b);
            }
            return;
        }
        if let Some(hint) = self.infer(a) {
            self.expect(b, &operand(hint));
        }
        if let Some(hint) = self.infer(b) {
            self.expect(a, &operand(hint));
        }
    }

    /// Values that meet in one result (CASE branches, `coalesce` arguments): the
    /// untyped ones take the type of the first that has one.
    pub(super) fn unified<'e>(&mut self, exprs: impl IntoIterator<Item = &'e Expr> + Clone) {
        if let Some(hint) = self.first_known(exprs.clone()) {
            for expr in exprs {
                self.expect(expr, &hint);
            }
        }
    }

    pub(super) fn fixed(&mut self, expr: &Expr, type_name: &str) {
        self.expect(expr, &declared(type_name));
    }
}

/// `$N` or `?N` (1-based), looking through parentheses.
fn placeholder(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Value(v) => match &v.value {
            Value::Placeholder(p) => p
                .strip_prefix('$')
                .or_else(|| p.strip_prefix('?'))?
                .parse()
                .ok()
                .filter(|n| *n > 0),
            _ => None,
        },
        Expr::Nested(inner) => placeholder(inner),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(table: &str, column: &str) -> Option<ParamHint> {
        Some(ParamHint::Column {
            tables: vec![table.into()],
            column: column.into(),
        })
    }

    fn hints(sql: &str, count: usize) -> Vec<Option<ParamHint>> {
        param_hints(sql, sql, count)
    }

    fn named(name: &str) -> Option<ParamHint> {
        Some(declared(name))
    }

    fn beside(hint: Option<ParamHint>) -> Option<ParamHint> {
        hint.map(operand)
    }

    #[test]
    fn hints_from_use() {
        assert_eq!(
            hints("INSERT INTO t (a, b) VALUES (?1, ?2)", 2),
            vec![column("t", "a"), column("t", "b")]
        );
        let position = |index| {
            Some(ParamHint::Position {
                table: "t".into(),
                index,
            })
        };
        assert_eq!(
            hints("INSERT INTO t VALUES ($1, 'x', $2), ($3, $4, $5)", 5),
            vec![
                position(0),
                position(2),
                position(0),
                position(1),
                position(2)
            ]
        );
        assert_eq!(
            hints("INSERT INTO t (b, a) VALUES ($1, $2), ($3, $4)", 4),
            vec![
                column("t", "b"),
                column("t", "a"),
                column("t", "b"),
                column("t", "a")
            ]
        );
        assert_eq!(
            hints("UPDATE t SET a = $2 WHERE id = $1", 2),
            vec![beside(column("t", "id")), column("t", "a")]
        );
        assert_eq!(
            hints(
                "SELECT * FROM t AS x JOIN u ON u.k = x.k WHERE x.a > $1 AND u.b IN ($2) LIMIT $3",
                3
            ),
            vec![
                beside(column("t", "a")),
                beside(column("u", "b")),
                named("bigint")
            ]
        );
        assert_eq!(
            hints("SELECT CAST(?1 AS INTEGER)", 1),
            vec![named("INTEGER")]
        );
        assert_eq!(hints("SELECT $1", 1), vec![None]);
        assert_eq!(hints("not sql at all", 1), vec![None]);
    }

    #[test]
    fn the_source_is_read_before_its_translation() {
        // The cast's type survives only in the client's text.
        assert_eq!(
            param_hints("SELECT $1::date", "SELECT CAST(?1 AS TEXT)", 1),
            vec![named("DATE")]
        );
        assert_eq!(
            param_hints("SELECT $1::pg_catalog.int8[]", "SELECT ?1", 1),
            vec![named("int8[]")]
        );
        // Catalog lookups by name stay text.
        assert_eq!(
            param_hints("SELECT $1::regclass", "SELECT ?1", 1),
            vec![None]
        );
        // Not PostgreSQL that sqlparser reads: the translation is.
        assert_eq!(
            param_hints(
                "INSERT OR REPLACE INTO t (a) VALUES ($1) garbage(",
                "INSERT INTO t (a) VALUES (?1)",
                1
            ),
            vec![column("t", "a")]
        );
    }

    #[test]
    fn insert_select_on_conflict_and_returning() {
        assert_eq!(
            hints("INSERT INTO t (a, b) SELECT $1, x FROM u WHERE y = $2", 2),
            vec![
                column("t", "a"),
                beside(Some(ParamHint::Column {
                    tables: vec!["u".into(), "t".into()],
                    column: "y".into()
                }))
            ]
        );
        assert_eq!(
            hints(
                "INSERT INTO t VALUES ($1, $2) ON CONFLICT (a) DO UPDATE SET b = $3, c = excluded.c + $4 RETURNING a + $5",
                5
            ),
            vec![
                Some(ParamHint::Position {
                    table: "t".into(),
                    index: 0
                }),
                Some(ParamHint::Position {
                    table: "t".into(),
                    index: 1
                }),
                column("t", "b"),
                beside(column("t", "c")),
                beside(column("t", "a"))
            ]
        );
    }

    #[test]
    fn operators_functions_and_case() {
        assert_eq!(
            hints(
                "SELECT a + $1, $2 || a, b LIKE $3, coalesce(c, $4), length($5) FROM t WHERE c BETWEEN $6 AND $7",
                7
            ),
            vec![
                beside(column("t", "a")),
                named("text"),
                named("text"),
                column("t", "c"),
                named("text"),
                beside(column("t", "c")),
                beside(column("t", "c"))
            ]
        );
        assert_eq!(
            hints(
                "SELECT CASE WHEN a = $1 THEN $2 ELSE b END, CASE c WHEN $3 THEN 1 END FROM t",
                3
            ),
            vec![
                beside(column("t", "a")),
                column("t", "b"),
                beside(column("t", "c"))
            ]
        );
        assert_eq!(
            hints("SELECT substr($1, $2), $3 = 7, $4 = 'x' OR $5", 5),
            vec![
                named("text"),
                named("integer"),
                beside(named("integer")),
                beside(named("text")),
                named("boolean")
            ]
        );
        assert_eq!(
            hints(
                "SELECT abs($1), round($2, $3), ceil($4), power($5, 2), greatest($6, 1), nullif($7, 2.5), substring($8 FROM $9 FOR $10)",
                10
            ),
            vec![
                named("double precision"),
                named("numeric"),
                named("integer"),
                named("double precision"),
                named("double precision"),
                named("integer"),
                named("numeric"),
                named("text"),
                named("text"),
                named("text")
            ]
        );
        assert_eq!(
            hints(
                "UPDATE t SET (a, b) = ($1, $2) WHERE (c, d) = ($3, $4) AND j ->> $5 = $6",
                6
            ),
            vec![
                column("t", "a"),
                column("t", "b"),
                beside(column("t", "c")),
                beside(column("t", "d")),
                named("text"),
                beside(named("text"))
            ]
        );
        // The other operand's type wins over the surrounding comparison.
        assert_eq!(
            hints("SELECT 1 FROM t WHERE a = length($1) + $2", 2),
            vec![named("text"), beside(named("integer"))]
        );
    }

    #[test]
    fn derived_tables_and_with_queries() {
        assert_eq!(
            hints(
                "WITH big AS (SELECT id, qty * 2 AS twice FROM t) SELECT * FROM big b JOIN (SELECT name AS n FROM u) AS s ON s.n = $1 WHERE b.twice > $2 AND id = $3 AND n LIKE $4",
                4
            ),
            vec![
                beside(column("u", "name")),
                beside(column("t", "qty")),
                beside(column("t", "id")),
                named("text")
            ]
        );
        // Columns renamed by the alias; a later WITH query reads an earlier one.
        assert_eq!(
            hints(
                "WITH a AS (SELECT k FROM t), b AS (SELECT k AS j FROM a) SELECT * FROM (SELECT j FROM b) AS s(x) WHERE x = $1",
                1
            ),
            vec![beside(column("t", "k"))]
        );
    }

    #[test]
    fn arrays_and_subqueries() {
        assert_eq!(
            hints(
                "SELECT * FROM t WHERE a = ANY($1) OR b = ANY(ARRAY[$2, $3])",
                3
            ),
            vec![
                Some(ParamHint::ArrayOf(Box::new(operand(ParamHint::Column {
                    tables: vec!["t".into()],
                    column: "a".into()
                })))),
                beside(column("t", "b")),
                beside(column("t", "b"))
            ]
        );
        // The subquery's own table first, then the outer one.
        assert_eq!(
            hints(
                "SELECT * FROM t WHERE id IN (SELECT tid FROM u WHERE x = $1) AND $2 IN (SELECT y FROM u) AND a > (SELECT max(z) FROM v) + $3",
                3
            ),
            vec![
                beside(Some(ParamHint::Column {
                    tables: vec!["u".into(), "t".into()],
                    column: "x".into()
                })),
                beside(Some(ParamHint::Column {
                    tables: vec!["u".into(), "t".into()],
                    column: "y".into()
                })),
                beside(Some(ParamHint::Column {
                    tables: vec!["v".into(), "t".into()],
                    column: "z".into()
                }))
            ]
        );
        assert_eq!(
            hints("SELECT * FROM t ORDER BY a LIMIT $1 OFFSET $2", 2),
            vec![named("bigint"), named("bigint")]
        );
    }
}
