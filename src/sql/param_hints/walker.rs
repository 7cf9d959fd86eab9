//! The walk over a statement: at each statement, query and expression, the
//! rule of its shape gives the parameters in it their types (conditions are
//! boolean, LIMIT counts bigint, an operand takes the other operand's type, a
//! function's arguments the types its signature fixes, ...).

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, Expr, Function, InTarget, LimitClause, Query, SetExpr, Statement as Ast,
    UnaryOperator, Visitor,
};

use super::functions::{arguments, function_name, is_unifying, signature};
use super::hint::{ParamHint, operand};
use super::inference::Inference;
use super::value_types::cast_type;
use crate::sql::syntax_tree::{is_arithmetic, is_comparison, is_text_match};

impl Visitor for Inference<'_> {
    type Break = ();

    fn pre_visit_statement(&mut self, statement: &Ast) -> ControlFlow<()> {
        let frame = self.frame_of_statement(statement);
        self.frames.push(frame);
        self.stored_values(statement);
        let condition = match statement {
            Ast::Update(update) => update.selection.as_ref(),
            Ast::Delete(delete) => delete.selection.as_ref(),
            _ => None,
        };
        if let Some(condition) = condition {
            self.fixed(condition, "boolean");
        }
        ControlFlow::Continue(())
    }

    fn post_visit_statement(&mut self, _: &Ast) -> ControlFlow<()> {
        self.frames.pop();
        ControlFlow::Continue(())
    }

    fn pre_visit_query(&mut self, query: &Query) -> ControlFlow<()> {
        let frame = self.frame_of_query(query);
        self.frames.push(frame);
        match &query.limit_clause {
            Some(LimitClause::LimitOffset { limit, offset, .. }) => {
                if let Some(limit) = limit {
                    self.limit_count(limit);
                }
                if let Some(offset) = offset {
                    self.limit_count(&offset.value);
                }
            }
            Some(LimitClause::OffsetCommaLimit { offset, limit }) => {
                self.limit_count(offset);
                self.limit_count(limit);
            }
            None => {}
        }
        if let Some(quantity) = query.fetch.as_ref().and_then(|f| f.quantity.as_ref()) {
            self.limit_count(quantity);
        }
        if let SetExpr::Select(select) = query.body.as_ref() {
            for condition in select.selection.iter().chain(&select.having) {
                self.fixed(condition, "boolean");
            }
        }
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
        self.frames.pop();
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<()> {
        match expr {
            Expr::BinaryOp { left, op, right } => match op {
                op if is_comparison(op) || is_arithmetic(op) => self.compared(left, right),
                // Containment and overlap, of arrays or of jsonb: both sides
                // are of one type.
                BinaryOperator::AtArrow | BinaryOperator::ArrowAt | BinaryOperator::PGOverlap => {
                    self.compared(left, right)
                }
                op if is_text_match(op) || *op == BinaryOperator::StringConcat => {
                    self.fixed(left, "text");
                    self.fixed(right, "text");
                }
                BinaryOperator::And | BinaryOperator::Or => {
                    self.fixed(left, "boolean");
                    self.fixed(right, "boolean");
                }
                // A JSON key or index: of json's (text) and (integer) forms,
                // PostgreSQL picks text for an untyped one.
                BinaryOperator::Arrow | BinaryOperator::LongArrow => self.fixed(right, "text"),
                _ => {}
            },
            Expr::UnaryOp {
                op: UnaryOperator::Not,
                expr,
            } => self.fixed(expr, "boolean"),
            Expr::IsDistinctFrom(a, b) | Expr::IsNotDistinctFrom(a, b) => self.compared(a, b),
            Expr::Like { expr, pattern, .. }
            | Expr::ILike { expr, pattern, .. }
            | Expr::SimilarTo { expr, pattern, .. } => {
                self.fixed(expr, "text");
                self.fixed(pattern, "text");
            }
            Expr::In {
                expr,
                target: InTarget::List(list),
                ..
            } => {
                for item in list {
                    self.compared(expr, item);
                }
            }
            Expr::In {
                expr,
                target: InTarget::Subquery(query),
                ..
            } => {
                if let Some(hint) = self.query_column(query) {
                    self.expect(expr, &operand(hint));
                }
            }
            Expr::Between {
                expr, low, high, ..
            } => {
                self.compared(expr, low);
                self.compared(expr, high);
            }
            Expr::AnyOp { left, right, .. } | Expr::AllOp { left, right, .. } => {
                if let Some(element) = self.infer(left) {
                    self.array_of(right, operand(element));
                }
            }
            Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                if let Some(operand) = operand {
                    for when in conditions {
                        self.compared(operand, &when.condition);
                    }
                } else {
                    for when in conditions {
                        self.fixed(&when.condition, "boolean");
                    }
                }
                let results = conditions
                    .iter()
                    .map(|when| &when.result)
                    .chain(else_result.as_deref());
                self.unified(results);
            }
            Expr::Cast {
                expr, data_type, ..
            } => {
                if let Some(name) = cast_type(data_type) {
                    self.fixed(expr, &name);
                }
            }
            Expr::Function(function) => self.function_arguments(function),
            // `substring(x FROM $1 FOR $2)`: of its (text, integer, integer) and
            // regular expression (text, text, text) forms, PostgreSQL picks the
            // text one for untyped arguments; `substr` has only the first.
            Expr::Substring {
                expr,
                substring_from,
                substring_for,
                shorthand,
                ..
            } => {
                self.fixed(expr, "text");
                let bound = if *shorthand { "integer" } else { "text" };
                for bound_expr in [substring_from, substring_for].into_iter().flatten() {
                    self.fixed(bound_expr, bound);
                }
            }
            Expr::Ceil { expr, .. } | Expr::Floor { expr, .. } => {
                self.fixed(expr, "double precision")
            }
            Expr::Trim {
                expr, trim_what, ..
            } => {
                self.fixed(expr, "text");
                if let Some(what) = trim_what {
                    self.fixed(what, "text");
                }
            }
            Expr::Position { expr, r#in } => {
                self.fixed(expr, "text");
                self.fixed(r#in, "text");
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Inference<'_> {
    fn function_arguments(&mut self, function: &Function) {
        let Some(name) = function_name(function) else {
            return;
        };
        let args = arguments(function);
        if is_unifying(&name) {
            self.unified(args.iter().copied());
            return;
        }
        if let Some(signature) = signature(&name, args.len()) {
            for (i, arg) in args.into_iter().enumerate() {
                let type_name = signature
                    .args
                    .get(i)
                    .or_else(|| signature.args.last().filter(|_| signature.variadic));
                if let Some(type_name) = type_name {
                    self.fixed(arg, type_name);
                }
            }
            return;
        }
        // Perhaps a function of the user's: its argument types decide.
        let arity = args.len();
        for (index, arg) in args.into_iter().enumerate() {
            self.expect(
                arg,
                &ParamHint::FunctionArgument {
                    name: name.clone(),
                    arity,
                    index,
                },
            );
        }
    }

    fn limit_count(&mut self, expr: &Expr) {
        self.fixed(expr, "bigint");
    }

    /// `x = ANY($1)`: `$1` is an array of `x`'s type; `x = ANY(ARRAY[$1, $2])`:
    /// each element is of `x`'s type.
    fn array_of(&mut self, expr: &Expr, element: ParamHint) {
        match expr {
            Expr::Nested(inner) => self.array_of(inner, element),
            Expr::Array(array) => {
                for item in &array.elem {
                    self.expect(item, &element);
                }
            }
            _ => self.expect(expr, &ParamHint::ArrayOf(Box::new(element))),
        }
    }
}
