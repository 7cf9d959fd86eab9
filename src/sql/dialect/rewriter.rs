//! The visitor that rewrites a parsed statement into SQLite's dialect: at each
//! relation, select, expression, query, table factor and value, the rewrite of
//! its kind (see the module list of [`super`]).

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, Ident, ObjectName,
    Query, Select, SelectItem, TableFactor, Value, VisitorMut,
};

use super::column_names::expr_name;
use super::expressions::{name_of_reg_cast, rewrite_expr};
use super::schemas::unqualify;
use super::set_operations::unwrap_members;
use super::set_returning::expand;
use super::system_columns::table_oids;
use super::table_factors::{named_values, table_factor};
use super::type_names::type_name;
use crate::sql::relations::{self, Contents};
use crate::sql::syntax_tree::{idents, is_parameter};

/// Rewrites a statement's syntax tree in place, node by node.
#[derive(Default)]
pub(super) struct Rewriter {
    /// Whether anything was rewritten.
    pub(super) changed: bool,
    /// Whether the statement reads litewire's catalog relations.
    pub(super) catalog: bool,
    /// Whether a result column was given PostgreSQL's name for it (`count`
    /// for `count(*)`), which SQLite would name by its text.
    pub(super) named: bool,
}

impl VisitorMut for Rewriter {
    type Break = ();

    fn pre_visit_relation(&mut self, relation: &mut ObjectName) -> ControlFlow<()> {
        self.changed |= unqualify(relation);
        if let Some(last) = idents(relation).last() {
            let last = last.to_ascii_lowercase();
            if relations::find(&last).is_some_and(|r| r.contents != Contents::State) {
                self.catalog = true;
            }
        }
        ControlFlow::Continue(())
    }

    /// Result columns keep the names PostgreSQL gives them (`count`, `now`,
    /// `?column?`), not the text of the SQLite expression they became.
    ///
    /// A sequence function's column is `bigint`, as in PostgreSQL: Describe types
    /// expression columns from the statement's bytecode, where an application
    /// function's result has no type, so the call is added to an integer `0`.
    fn pre_visit_select(&mut self, select: &mut Select) -> ControlFlow<()> {
        for item in &mut select.projection {
            // A bare parameter keeps SQLite's name for it (`?1`), by which the
            // front end types its column as the parameter's.
            if let SelectItem::UnnamedExpr(expr) = item
                && !matches!(expr, Expr::Identifier(_) | Expr::CompoundIdentifier(_))
                && !is_parameter(expr)
            {
                let alias = Ident::with_quote('"', expr_name(expr));
                *item = SelectItem::ExprWithAlias {
                    expr: expr.clone(),
                    alias,
                };
                self.named = true;
            }
            if let SelectItem::ExprWithAlias { expr, .. } = item
                && is_sequence_call(expr)
            {
                *expr = Expr::Nested(Box::new(Expr::BinaryOp {
                    left: Box::new(expr.clone()),
                    op: BinaryOperator::Plus,
                    right: Box::new(Expr::value(Value::Number("0".into(), false))),
                }));
                self.changed = true;
            }
        }
        self.changed |= expand(select);
        self.changed |= table_oids(select);
        ControlFlow::Continue(())
    }

    /// `nextval('s'::regclass)`: the name as text, before the cast inside is
    /// turned into a catalog lookup (children are visited after this); and
    /// `'t'::regclass::text`, the name, for the same reason.
    fn pre_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        if let Some(first) = sequence_name_argument(expr)
            && let Expr::Cast {
                expr: inner,
                data_type,
                ..
            } = &*first
            && type_name(data_type) == "regclass"
            && matches!(**inner, Expr::Value(_))
        {
            *first = (**inner).clone();
            self.changed = true;
        }
        if let Some(rewrite) = name_of_reg_cast(expr) {
            *expr = rewrite.expr;
            self.catalog |= rewrite.catalog;
            self.changed = true;
        }
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        self.changed |= unwrap_members(&mut query.body);
        ControlFlow::Continue(())
    }

    fn post_visit_table_factor(&mut self, factor: &mut TableFactor) -> ControlFlow<()> {
        if let Some(replacement) = table_factor(factor).or_else(|| named_values(factor)) {
            *factor = replacement;
            self.changed = true;
        }
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        if let Some(rewrite) = rewrite_expr(expr) {
            self.catalog |= rewrite.catalog;
            *expr = rewrite.expr;
            self.changed = true;
        }
        ControlFlow::Continue(())
    }

    fn post_visit_value(&mut self, value: &mut sqlparser::ast::ValueWithSpan) -> ControlFlow<()> {
        match &value.value {
            Value::EscapedStringLiteral(s) => {
                value.value = Value::SingleQuotedString(s.clone());
                self.changed = true;
            }
            Value::DollarQuotedString(s) => {
                value.value = Value::SingleQuotedString(s.value.clone());
                self.changed = true;
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

/// Whether `expr` calls one of the functions that return a sequence's value.
fn is_sequence_call(expr: &Expr) -> bool {
    matches!(expr, Expr::Function(function)
    if idents(&function.name).last().is_some_and(|name| {
        matches!(
            name.to_ascii_lowercase().as_str(),
            "nextval" | "currval" | "setval" | "lastval"
        )
    }))
}

/// The first argument of a call of `nextval`, `currval` or `setval`.
fn sequence_name_argument(expr: &mut Expr) -> Option<&mut Expr> {
    let Expr::Function(function) = expr else {
        return None;
    };
    let name = idents(&function.name).last()?.to_ascii_lowercase();
    if !matches!(name.as_str(), "nextval" | "currval" | "setval") {
        return None;
    }
    let FunctionArguments::List(list) = &mut function.args else {
        return None;
    };
    match list.args.first_mut()? {
        FunctionArg::Unnamed(FunctionArgExpr::Expr(first)) => Some(first),
        _ => None,
    }
}
