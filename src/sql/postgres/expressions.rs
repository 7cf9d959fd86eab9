//! Expressions, read with PostgreSQL's rules: each is typed (literals by
//! their form, columns by the catalog, operators and functions by their
//! operands), named as PostgreSQL names a result column computing it, and
//! rewritten where SQLite would mean something else.
//!
//! A node the translation does not know is kept as written and typed
//! [`PgType::Opaque`]: SQLite's meaning, as before, for that node alone.

use sqlparser::ast::{
    BinaryOperator, CeilFloorKind, DataType, Expr, Ident, InTarget, TrimWhereField, UnaryOperator,
    Value,
};

use super::build::{binary, call, ident, nested, number, string};
use super::bytea::Ends;
use super::casts::{CastContext, cast_type, read_exactly_by_sqlite, runtime_cast};
use super::errors::{Result, datatype_mismatch, syntax, undefined_function};
use super::names::{cast_name, folded};
use super::numeric_scales;
use super::operators::common_type;
use super::precedence;
use super::scope::{Resolved, Scope};
use super::subqueries::scalar;
use super::translator::{ColumnRef, Translator, Typed, Untyped};
use super::types::PgType;

/// Stack a nested expression's translation may take before it gets more.
const STACK_RED_ZONE: usize = 256 * 1024;
/// What it gets then.
const STACK_GROWTH: usize = 4 * 1024 * 1024;

impl Translator<'_> {
    /// An expression, translated: deeply nested ones (a long `AND` chain) on
    /// more stack as they need it.
    pub(super) fn expr(&mut self, expr: &Expr, scope: &Scope) -> Result<Typed> {
        stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || self.expr_node(expr, scope))
    }

    fn expr_node(&mut self, expr: &Expr, scope: &Scope) -> Result<Typed> {
        match expr {
            Expr::Identifier(ident) => self.identifier(ident, scope),
            Expr::CompoundIdentifier(parts) => self.compound(expr, parts, scope),
            Expr::Value(value) => self.value(expr, &value.value),
            Expr::TypedString(typed) => {
                let text = match &typed.value.value {
                    Value::SingleQuotedString(s) | Value::EscapedStringLiteral(s) => s.clone(),
                    _ => return Ok(self.opaque(expr)),
                };
                let literal = Typed {
                    untyped: Some(Untyped::Literal(text.clone())),
                    ..Typed::new(string(&text), PgType::Unknown)
                };
                self.explicit_cast(literal, &typed.data_type)
                    .map(|cast| named_by_type(cast, &typed.data_type, self.catalog.schemas()))
            }
            Expr::Nested(inner) => {
                let typed = self.expr(inner, scope)?;
                Ok(Typed {
                    expr: nested(typed.expr),
                    ..typed
                })
            }
            // `|/ x`, `||/ x`, `@ x`: PostgreSQL's prefix spellings of
            // `sqrt`, `cbrt` and `abs`, typed and checked as those are.
            Expr::UnaryOp { op, expr: operand } if precedence::function(op).is_some() => {
                let name = precedence::function(op).unwrap_or_default();
                let typed = self.expr(&call(name, vec![(**operand).clone()]), scope)?;
                Ok(Typed {
                    name: None,
                    ..typed
                })
            }
            Expr::UnaryOp {
                op: op @ (UnaryOperator::Minus | UnaryOperator::Plus),
                expr: operand,
            } if precedence::sign_binds_tighter(operand) => {
                self.expr(&precedence::sign_lowered(*op, operand), scope)
            }
            Expr::UnaryOp { op, expr: operand } => {
                let operand = self.expr(operand, scope)?;
                self.unary(op, operand)
            }
            Expr::BinaryOp { .. } if precedence::binds_looser(expr) => {
                self.expr(&precedence::lifted(expr), scope)
            }
            // `x ^ y` is `power(x, y)`, as typed and checked.
            Expr::BinaryOp {
                left,
                op: BinaryOperator::PGExp,
                right,
            } => {
                let power = call("power", vec![(**left).clone(), (**right).clone()]);
                let typed = self.expr(&power, scope)?;
                Ok(Typed {
                    name: None,
                    ..typed
                })
            }
            Expr::BinaryOp { .. } if let Some(tuples) = super::whole_rows::compared_rows(expr) => {
                self.expr(&tuples, scope)
            }
            Expr::BinaryOp { left, op, right } => {
                let left = self.expr(left, scope)?;
                let right = self.expr(right, scope)?;
                self.binary(left, op, right)
            }
            Expr::Like {
                negated,
                any: false,
                expr: value,
                pattern,
                escape_char,
            }
            | Expr::ILike {
                negated,
                any: false,
                expr: value,
                pattern,
                escape_char,
            } => {
                let insensitive = matches!(expr, Expr::ILike { .. });
                let value = self.expr(value, scope)?;
                let pattern = self.expr(pattern, scope)?;
                let escape = match escape_char {
                    Some(escape) => Some(self.expr(escape, scope)?),
                    None => None,
                };
                self.like(value, pattern, escape, insensitive, *negated)
            }
            Expr::Like {
                negated,
                any: true,
                expr: value,
                pattern,
                escape_char: None,
            }
            | Expr::ILike {
                negated,
                any: true,
                expr: value,
                pattern,
                escape_char: None,
            } => {
                let insensitive = matches!(expr, Expr::ILike { .. });
                self.like_any(value, pattern, insensitive, *negated, scope)
            }
            Expr::SimilarTo {
                negated,
                expr: value,
                pattern,
                escape_char,
            } => {
                let value = self.expr(value, scope)?;
                let pattern = self.expr(pattern, scope)?;
                let escape = match escape_char {
                    Some(escape) => Some(self.expr(escape, scope)?),
                    None => None,
                };
                self.similar(value, pattern, escape, *negated)
            }
            Expr::IsNull(operand) | Expr::IsNotNull(operand) => {
                let operand = self.expr(operand, scope)?;
                let expr = match expr {
                    Expr::IsNull(_) => Expr::IsNull(Box::new(operand.expr)),
                    _ => Expr::IsNotNull(Box::new(operand.expr)),
                };
                Ok(Typed::new(expr, PgType::Bool))
            }
            Expr::IsTrue(operand)
            | Expr::IsNotTrue(operand)
            | Expr::IsFalse(operand)
            | Expr::IsNotFalse(operand)
            | Expr::IsUnknown(operand)
            | Expr::IsNotUnknown(operand) => {
                let context = match expr {
                    Expr::IsTrue(_) | Expr::IsNotTrue(_) => "IS TRUE",
                    Expr::IsFalse(_) | Expr::IsNotFalse(_) => "IS FALSE",
                    _ => "IS UNKNOWN",
                };
                let operand = self.expr(operand, scope)?;
                let operand = Box::new(self.boolean(operand, context)?.expr);
                let expr = match expr {
                    Expr::IsTrue(_) => Expr::IsTrue(operand),
                    Expr::IsNotTrue(_) => Expr::IsNotTrue(operand),
                    Expr::IsFalse(_) => Expr::IsFalse(operand),
                    Expr::IsNotFalse(_) => Expr::IsNotFalse(operand),
                    // SQLite has no `IS UNKNOWN`: a boolean is unknown when NULL.
                    Expr::IsUnknown(_) => Expr::IsNull(operand),
                    _ => Expr::IsNotNull(operand),
                };
                Ok(Typed::new(expr, PgType::Bool))
            }
            Expr::IsDistinctFrom(left, right) | Expr::IsNotDistinctFrom(left, right) => {
                let left = self.expr(left, scope)?;
                let right = self.expr(right, scope)?;
                let (left, right) = self.comparable(left, right, "=")?;
                let (left, right) = (Box::new(left.expr), Box::new(right.expr));
                let expr = match expr {
                    Expr::IsDistinctFrom(..) => Expr::IsDistinctFrom(left, right),
                    _ => Expr::IsNotDistinctFrom(left, right),
                };
                Ok(Typed::new(expr, PgType::Bool))
            }
            Expr::In {
                expr: value,
                target: InTarget::List(list),
                negated,
                ..
            } => self.in_list(value, list, *negated, scope),
            Expr::In {
                expr: value,
                target: InTarget::Subquery(subquery),
                negated,
                global,
            } => self.in_subquery(value, subquery, *negated, *global, scope),
            Expr::Between {
                expr: value,
                negated,
                low,
                high,
            } => {
                let value = self.expr(value, scope)?;
                let low = self.expr(low, scope)?;
                let high = self.expr(high, scope)?;
                let (above, low) = self.comparable(value.clone(), low, ">=")?;
                let (below, high) = self.comparable(value, high, "<=")?;
                // Each bound compares with the value as it must (by a
                // computed numeric's key, perhaps on one side only).
                let expr = match above.expr == below.expr {
                    true => Expr::Between {
                        expr: Box::new(above.expr),
                        negated: *negated,
                        low: Box::new(low.expr),
                        high: Box::new(high.expr),
                    },
                    false => {
                        let within = binary(
                            binary(above.expr, BinaryOperator::GtEq, low.expr),
                            BinaryOperator::And,
                            binary(below.expr, BinaryOperator::LtEq, high.expr),
                        );
                        match negated {
                            true => Expr::UnaryOp {
                                op: UnaryOperator::Not,
                                expr: Box::new(nested(within)),
                            },
                            false => within,
                        }
                    }
                };
                Ok(Typed::new(expr, PgType::Bool))
            }
            Expr::AnyOp {
                left,
                compare_op,
                right,
                ..
            } => self.quantified(left, compare_op, right, false, scope),
            Expr::AllOp {
                left,
                compare_op,
                right,
            } => self.quantified(left, compare_op, right, true, scope),
            Expr::Cast {
                expr: value,
                data_type,
                format: None,
                ..
            } => {
                let value = self.expr(value, scope)?;
                let cast = self.explicit_cast(value, data_type)?;
                Ok(named_by_type(cast, data_type, self.catalog.schemas()))
            }
            Expr::Collate { expr: value, .. } => {
                // Every collation is the code-point order here (`C`).
                let value = self.expr(value, scope)?;
                Ok(Typed {
                    column: None,
                    ..value
                })
            }
            Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => self.case(
                expr,
                operand.as_deref(),
                conditions,
                else_result.as_deref(),
                scope,
            ),
            Expr::Exists { subquery, negated } => {
                let (query, _) = self.subquery(subquery, scope)?;
                Ok(Typed::new(
                    Expr::Exists {
                        subquery: Box::new(query),
                        negated: *negated,
                    },
                    PgType::Bool,
                )
                .named("exists", 2))
            }
            Expr::Subquery(subquery) => {
                let (query, columns) = self.subquery(subquery, scope)?;
                if columns.len() > 1 {
                    return Err(syntax("subquery must return only one column".into()));
                }
                let column = columns.into_iter().next();
                let ty = column.as_ref().map_or(PgType::Opaque, |c| c.ty.clone());
                let typed = Typed::new(Expr::Subquery(Box::new(scalar(query))), ty);
                Ok(match column {
                    Some(c) if c.named => typed.named(c.name, 2),
                    _ => typed,
                })
            }
            Expr::Array(array) => self.array(expr, &array.elem, scope),
            Expr::CompoundFieldAccess { root, access_chain } => {
                self.access(expr, root, access_chain, scope)
            }
            Expr::Function(function) => self.function(expr, function, scope),
            Expr::Interval(interval) => self.interval_expression(interval),
            Expr::AtTimeZone {
                timestamp,
                time_zone,
            } => self.at_time_zone(timestamp, time_zone, scope),
            Expr::Extract {
                field, expr: value, ..
            } => self.extract(field, value, scope),
            Expr::Substring {
                expr: value,
                substring_from,
                substring_for,
                shorthand,
                ..
            } => self.substring(value, substring_from, substring_for, *shorthand, scope),
            // `OVERLAY(s PLACING r FROM n [FOR k])`: what comes before `n`, `r`,
            // and what comes after the `k` characters from `n` (k: r's length).
            Expr::Overlay {
                expr: value,
                overlay_what,
                overlay_from,
                overlay_for,
            } => {
                let value = self.expr(value, scope)?;
                let value = self.text_argument(value, "overlay")?;
                let placed = self.expr(overlay_what, scope)?;
                let placed = self.text_argument(placed, "overlay")?;
                let from = self.expr(overlay_from, scope)?;
                let from = self.int_argument(from, "overlay")?.expr;
                let count = match overlay_for {
                    Some(count) => {
                        let count = self.expr(count, scope)?;
                        self.int_argument(count, "overlay")?.expr
                    }
                    None => call("length", vec![placed.expr.clone()]),
                };
                let before = call(
                    "litewire_substr",
                    vec![
                        value.expr.clone(),
                        number("1"),
                        binary(from.clone(), BinaryOperator::Minus, number("1")),
                    ],
                );
                let after = call(
                    "litewire_substr",
                    vec![value.expr, binary(from, BinaryOperator::Plus, count)],
                );
                let joined = binary(
                    binary(before, BinaryOperator::StringConcat, placed.expr),
                    BinaryOperator::StringConcat,
                    after,
                );
                Ok(Typed::new(joined, PgType::Text).named("overlay", 2))
            }
            Expr::Position { expr: needle, r#in } => {
                let needle = self.expr(needle, scope)?;
                let haystack = self.expr(r#in, scope)?;
                let needle = self.text_argument(needle, "position")?;
                let haystack = self.text_argument(haystack, "position")?;
                Ok(Typed::new(
                    call("instr", vec![haystack.expr, needle.expr]),
                    PgType::Int4,
                )
                .named("position", 2))
            }
            Expr::Trim {
                trim_where,
                trim_what,
                expr: value,
                trim_characters: None,
            } => {
                let value = self.expr(value, scope)?;
                if value.ty == PgType::Bytea {
                    let (ends, name) = match trim_where {
                        Some(TrimWhereField::Leading) => (Ends::Leading, "ltrim"),
                        Some(TrimWhereField::Trailing) => (Ends::Trailing, "rtrim"),
                        _ => (Ends::Both, "btrim"),
                    };
                    let set = match trim_what {
                        Some(what) => self.expr(what, scope)?,
                        // PostgreSQL's bytea TRIM needs the bytes to cut.
                        None => return Err(undefined_function(name, &[PgType::Bytea])),
                    };
                    return Ok(self.bytea_trim(value, set, ends, name)?.named(name, 2));
                }
                let value = self.text_argument(value, "btrim")?;
                let (function, name) = match trim_where {
                    Some(TrimWhereField::Leading) => ("ltrim", "ltrim"),
                    Some(TrimWhereField::Trailing) => ("rtrim", "rtrim"),
                    _ => ("trim", "btrim"),
                };
                let mut args = vec![value.expr];
                match trim_what {
                    Some(what) => {
                        let what = self.expr(what, scope)?;
                        args.push(self.text_argument(what, name)?.expr);
                    }
                    None => args.push(string(" ")),
                }
                Ok(Typed::new(call(function, args), PgType::Text).named(name, 2))
            }
            Expr::Ceil {
                expr: value,
                field: CeilFloorKind::DateTimeField(sqlparser::ast::DateTimeField::NoDateTime),
            }
            | Expr::Floor {
                expr: value,
                field: CeilFloorKind::DateTimeField(sqlparser::ast::DateTimeField::NoDateTime),
            } => {
                let name = match expr {
                    Expr::Ceil { .. } => "ceil",
                    _ => "floor",
                };
                let value = self.expr(value, scope)?;
                self.rounding(name, value)
            }
            _ => Ok(self.opaque(expr)),
        }
    }

    /// An expression the translation leaves as written, typed as not known.
    pub(super) fn opaque(&self, expr: &Expr) -> Typed {
        Typed::new(expr.clone(), PgType::Opaque)
    }

    fn identifier(&mut self, ident: &Ident, scope: &Scope) -> Result<Typed> {
        let resolved = match scope.column(&ident.value) {
            Ok(resolved) => resolved,
            // No column of the name: a relation's, read as a whole row.
            Err(error) => match self.whole_row(&ident.value, scope)? {
                Some(row) => return Ok(row),
                None => return Err(error),
            },
        };
        Ok(self.column_read(Expr::Identifier(ident.clone()), resolved))
    }

    /// A column read: typed and named by the column, and noted for the
    /// grouping check when it is read outside aggregates.
    fn column_read(&mut self, expr: Expr, resolved: Resolved) -> Typed {
        let expr = match (&resolved.computed, &resolved.relation, &expr) {
            (Some(computed), _, _) => computed.clone(),
            (None, Some(relation), Expr::Identifier(name))
                if resolved.qualify || self.qualify_reads =>
            {
                Expr::CompoundIdentifier(vec![ident(relation), name.clone()])
            }
            _ => expr,
        };
        let column = ColumnRef {
            relation: resolved.relation,
            name: resolved.name.clone(),
            not_null: resolved.not_null,
            primary_key: resolved.primary_key,
            declared: resolved.declared,
            modifier: resolved.modifier,
        };
        if self.aggregate_depth == 0
            && !resolved.outer
            && let Some(ungrouped) = &mut self.ungrouped
        {
            ungrouped.push(column.clone());
        }
        Typed {
            scale: resolved.scale.filter(|_| resolved.ty == PgType::Numeric),
            expr,
            ty: resolved.ty,
            untyped: None,
            name: Some((resolved.name, 2)),
            column: Some(column),
        }
    }

    pub(super) fn compound(
        &mut self,
        expr: &Expr,
        parts: &[Ident],
        scope: &Scope,
    ) -> Result<Typed> {
        let (relation, column) = match parts {
            [relation, column] => (relation, column),
            [schema, relation, column]
                if matches!(
                    schema.value.to_ascii_lowercase().as_str(),
                    "public" | "pg_catalog" | "main"
                ) =>
            {
                (relation, column)
            }
            _ => return Ok(self.opaque(expr)),
        };
        let resolved = scope.qualified(&relation.value, &column.value)?;
        Ok(self.column_read(expr.clone(), resolved))
    }

    fn value(&mut self, expr: &Expr, value: &Value) -> Result<Typed> {
        Ok(match value {
            // A fraction SQLite would read an ulp off is read by the engine.
            Value::Number(text, _)
                if text.contains(['.', 'e', 'E']) && !read_exactly_by_sqlite(text) =>
            {
                let read = runtime_cast(string(text), &PgType::Unknown, &PgType::Float8);
                Typed::new(read, number_type(text)).scaled(numeric_scales::literal_scale(text))
            }
            Value::Number(text, _) => Typed::new(expr.clone(), number_type(text))
                .scaled(numeric_scales::literal_scale(text)),
            Value::SingleQuotedString(text)
            | Value::EscapedStringLiteral(text)
            | Value::UnicodeStringLiteral(text) => Typed {
                untyped: Some(Untyped::Literal(text.clone())),
                ..Typed::new(string(text), PgType::Unknown)
            },
            Value::DollarQuotedString(dollar) => Typed {
                untyped: Some(Untyped::Literal(dollar.value.clone())),
                ..Typed::new(string(&dollar.value), PgType::Unknown)
            },
            // `B'101'`: a bit string, kept as its digits (bit strings are
            // stored as the text given).
            Value::SingleQuotedByteStringLiteral(bits) => {
                if let Some(digit) = bits.chars().find(|c| !matches!(c, '0' | '1')) {
                    return Err(super::errors::invalid_bit_digit(digit));
                }
                Typed::new(string(bits), PgType::Opaque)
            }
            Value::Boolean(_) => Typed::new(expr.clone(), PgType::Bool),
            Value::Null => Typed {
                untyped: Some(Untyped::Null),
                ..Typed::new(expr.clone(), PgType::Unknown)
            },
            Value::Placeholder(text) => match text.strip_prefix('$').map(str::parse::<usize>) {
                // PostgreSQL's limit: a higher number is the statement's error.
                Some(Ok(n)) if (1..=65535).contains(&n) => {
                    let declared = self.param_type(n, None);
                    match declared {
                        Some(ty) => Typed::new(expr.clone(), ty),
                        None => Typed {
                            untyped: Some(Untyped::Param(n)),
                            ..Typed::new(expr.clone(), PgType::Unknown)
                        },
                    }
                }
                _ => self.opaque(expr),
            },
            _ => self.opaque(expr),
        })
    }

    fn in_list(
        &mut self,
        value: &Expr,
        list: &[Expr],
        negated: bool,
        scope: &Scope,
    ) -> Result<Typed> {
        let value = self.expr(value, scope)?;
        let items = list
            .iter()
            .map(|item| self.expr(item, scope))
            .collect::<Result<Vec<_>>>()?;
        let mut all = vec![value];
        all.extend(items);
        let all = self.unify(all, "IN")?;
        let mut all = all.into_iter().map(|t| t.expr);
        let value = all.next().unwrap_or_else(super::build::null);
        Ok(Typed::new(
            Expr::In {
                expr: Box::new(value),
                target: InTarget::List(all.collect()),
                negated,
                global: false,
            },
            PgType::Bool,
        ))
    }

    fn case(
        &mut self,
        original: &Expr,
        operand: Option<&Expr>,
        conditions: &[sqlparser::ast::CaseWhen],
        else_result: Option<&Expr>,
        scope: &Scope,
    ) -> Result<Typed> {
        let operand = operand.map(|o| self.expr(o, scope)).transpose()?;
        let mut whens = Vec::with_capacity(conditions.len());
        let mut results = Vec::with_capacity(conditions.len() + 1);
        for when in conditions {
            let condition = self.expr(&when.condition, scope)?;
            let condition = match &operand {
                Some(operand) => {
                    let (_, condition) = self.comparable(operand.clone(), condition, "=")?;
                    condition
                }
                None => self.boolean(condition, "CASE/WHEN")?,
            };
            whens.push(condition.expr);
            results.push(self.expr(&when.result, scope)?);
        }
        let has_else = else_result.is_some();
        let default = match else_result {
            Some(e) => self.expr(e, scope)?,
            None => Typed {
                untyped: Some(Untyped::Null),
                ..Typed::new(super::build::null(), PgType::Unknown)
            },
        };
        // PostgreSQL names the column after the ELSE branch, when it has a name.
        let name = match &default.name {
            Some((name, 2)) => (name.clone(), 2),
            _ => ("case".to_owned(), 1),
        };
        results.push(default);
        let results = self.unify(results, "CASE")?;
        let ty = results.first().map_or(PgType::Text, |r| r.ty.clone());
        let scale = numeric_scales::common(&results);
        let mut results = results.into_iter().map(|r| r.expr);
        let Expr::Case {
            case_token,
            end_token,
            ..
        } = original
        else {
            return Ok(self.opaque(original));
        };
        let conditions = whens
            .into_iter()
            .map(|condition| sqlparser::ast::CaseWhen {
                condition,
                result: results.next().unwrap_or_else(super::build::null),
            })
            .collect();
        let else_result = results.next().filter(|_| has_else);
        Ok(Typed::new(
            Expr::Case {
                case_token: case_token.clone(),
                end_token: end_token.clone(),
                operand: operand.map(|o| Box::new(o.expr)),
                conditions,
                else_result: else_result.map(Box::new),
            },
            ty,
        )
        .scaled(scale)
        .named(name.0, name.1))
    }

    /// Values of one type, as `CASE`, `IN`, `UNION`, `VALUES` and `ARRAY`
    /// make them (PostgreSQL's `select_common_type`): untyped ones take the
    /// type of the typed ones, all untyped are text, and types that do not
    /// meet are an error.
    pub(super) fn unify(&mut self, values: Vec<Typed>, context: &str) -> Result<Vec<Typed>> {
        if values.iter().any(|v| v.ty.is_opaque()) {
            return Ok(values);
        }
        let mut target: Option<PgType> = None;
        for value in values.iter().filter(|v| v.untyped.is_none()) {
            target = Some(match target {
                None => value.ty.clone(),
                Some(t) => common_type(&t, &value.ty).ok_or_else(|| {
                    datatype_mismatch(format!(
                        "{context} types {} and {} cannot be matched",
                        t.display(),
                        value.ty.display()
                    ))
                })?,
            });
        }
        let target = target.unwrap_or(PgType::Text);
        values
            .into_iter()
            .map(|value| {
                let name = value.name.clone();
                let column = value.column.clone().filter(|_| value.ty == target);
                let cast = self.cast(value, &target, CastContext::Implicit)?;
                Ok(Typed {
                    name,
                    column,
                    ..cast
                })
            })
            .collect()
    }

    fn array(&mut self, original: &Expr, items: &[Expr], scope: &Scope) -> Result<Typed> {
        let items = items
            .iter()
            .map(|item| self.expr(item, scope))
            .collect::<Result<Vec<_>>>()?;
        let element = match items.iter().any(|i| i.ty.is_opaque()) {
            true => PgType::Opaque,
            false => {
                let unified = self.unify(items.clone(), "ARRAY")?;
                unified.first().map_or(PgType::Text, |i| i.ty.clone())
            }
        };
        let Expr::Array(array) = original else {
            return Ok(self.opaque(original));
        };
        // `ARRAY[[1, 2], [3, 4]]`: arrays of arrays are one array of more
        // dimensions.
        if let PgType::Array(_) = element {
            let rows = items.into_iter().map(|i| i.expr).collect();
            let nested = super::build::call("litewire_array_nested", rows);
            return Ok(Typed::new(nested, element).named("array", 2));
        }
        let mut array = array.clone();
        array.elem = items.into_iter().map(|i| i.expr).collect();
        Ok(Typed::new(Expr::Array(array), PgType::Array(Box::new(element))).named("array", 2))
    }

    /// An argument a function takes as text.
    pub(super) fn text_argument(&mut self, value: Typed, function: &str) -> Result<Typed> {
        if value.ty.is_opaque() {
            return Ok(value);
        }
        let ty = value.ty.clone();
        self.coerce(value, &PgType::Text)?
            .ok_or_else(|| super::errors::undefined_function(function, &[ty]))
    }

    /// An argument a function takes as an integer (an `int8` one too: its
    /// value decides).
    pub(super) fn int_argument(&mut self, value: Typed, function: &str) -> Result<Typed> {
        if value.ty.is_opaque() || value.ty.is_integer() {
            return Ok(value);
        }
        let ty = value.ty.clone();
        self.coerce(value, &PgType::Int4)?
            .ok_or_else(|| super::errors::undefined_function(function, &[ty]))
    }

    /// A subquery in an expression: its translation and columns.
    pub(super) fn subquery(
        &mut self,
        query: &sqlparser::ast::Query,
        scope: &Scope,
    ) -> Result<(sqlparser::ast::Query, Vec<super::columns::QueryColumn>)> {
        let (query, columns) = self.query(query, Some(scope))?;
        Ok((query, columns.unwrap_or_default()))
    }
}

/// The type of a number as written: an integer that fits is `int4`, then
/// `int8`; anything else `numeric`.
pub(super) fn number_type(text: &str) -> PgType {
    if text.bytes().all(|b| b.is_ascii_digit()) {
        match text.parse::<i64>() {
            Ok(n) if i32::try_from(n).is_ok() => PgType::Int4,
            Ok(_) => PgType::Int8,
            Err(_) => PgType::Numeric,
        }
    } else {
        PgType::Numeric
    }
}

/// A cast's result named as PostgreSQL names it: what is cast keeps its own
/// name; without one, the type's.
fn named_by_type(cast: Typed, data_type: &DataType, schemas: &[String]) -> Typed {
    match &cast.name {
        Some((_, 2)) => cast,
        _ => {
            let ty = cast_type(data_type).unwrap_or(PgType::Opaque);
            let name = cast_name(data_type, &ty, schemas);
            cast.named(name, 1)
        }
    }
}

/// An identifier as a result column's alias names it.
pub(super) fn alias_name(ident: &Ident) -> String {
    folded(&ident.value, ident.quote_style)
}
