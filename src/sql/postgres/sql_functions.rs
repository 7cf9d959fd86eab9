//! A call of a function of the user's written in SQL (`CREATE FUNCTION ...
//! LANGUAGE sql`), read as its body with the arguments in place, as
//! PostgreSQL's planner inlines such a function. The body sees its
//! arguments, by name (`a`, `f.a`) or number (`$1`), and nothing of the
//! caller's query; a column of a relation the body reads wins over an
//! argument of the same name, as in PostgreSQL. A body of one expression
//! becomes that expression; one that reads relations, a subquery giving its
//! first row (NULL for none), as a SQL function returns.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, GroupByExpr, Ident, Query, SelectItem, SetExpr, Statement as Ast, TableAlias,
    TableFactor, Value, VisitMut, VisitorMut, visit_expressions, visit_expressions_mut,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::aggregates::is_aggregate;
use super::build::{null, number};
use super::casts::CastContext;
use super::catalog::SqlFunction;
use super::errors::{Fail, Result, undefined_function};
use super::names::without_schema;
use super::scope::{Item, Scope, ScopeColumn};
use super::translator::{Translator, Typed};
use super::types::PgType;
use crate::error::Error;

impl Translator<'_> {
    /// The call of the user's function `name` with `args`; `None` when the
    /// user has no function of that name and number of arguments.
    pub(super) fn user_function(
        &mut self,
        name: &str,
        args: &[Expr],
        scope: &Scope,
    ) -> Result<Option<Typed>> {
        let candidates: Vec<SqlFunction> = (self.catalog.functions().iter())
            .filter(|f| f.name == name && f.args.len() == args.len())
            .cloned()
            .collect();
        if candidates.is_empty() {
            return Ok(None);
        }
        // Qualified, as they are read inside the body, whose relations are
        // renamed apart (see `renamed_relations`).
        let qualify = std::mem::replace(&mut self.qualify_reads, true);
        let typed: Result<Vec<Typed>> = (args.iter()).map(|arg| self.expr(arg, scope)).collect();
        self.qualify_reads = qualify;
        let typed = typed?;
        for function in &candidates {
            if let Some(coerced) = self.fitted(&typed, function)? {
                return self.inline(function, coerced).map(Some);
            }
        }
        let types: Vec<PgType> = typed.iter().map(|t| t.ty.clone()).collect();
        Err(undefined_function(name, &types))
    }

    /// `args` as `function`'s argument types, where PostgreSQL would pass
    /// them (each the same type, or cast implicitly); `None` otherwise.
    fn fitted(&mut self, args: &[Typed], function: &SqlFunction) -> Result<Option<Vec<Typed>>> {
        let mut fitted = Vec::with_capacity(args.len());
        for (arg, (_, ty)) in args.iter().zip(&function.args) {
            if arg.ty == *ty && arg.untyped.is_none() {
                fitted.push(arg.clone());
                continue;
            }
            match self.coerce(arg.clone(), ty)? {
                Some(arg) => fitted.push(arg),
                None => return Ok(None),
            }
        }
        Ok(Some(fitted))
    }

    /// `function`'s body with `args` in place of its arguments, of its
    /// return type.
    fn inline(&mut self, function: &SqlFunction, args: Vec<Typed>) -> Result<Typed> {
        let mut query = body(function).map_err(Fail::Pg)?;
        numbered_as_named(&mut query);
        renamed_relations(&mut query);
        let mut columns = Vec::with_capacity(args.len() * 2);
        for (i, (arg, (name, _))) in args.iter().zip(&function.args).enumerate() {
            let column = |name: String| ScopeColumn {
                computed: Some(arg.expr.clone()),
                ..ScopeColumn::new(name, arg.ty.clone())
            };
            columns.push(column(numbered(i + 1)));
            if let Some(name) = name {
                columns.push(column(name.clone()));
            }
        }
        let arguments = Scope {
            items: vec![Item {
                // Its own name, without its schema (`f.a` reads argument `a`).
                name: without_schema(&function.name, self.catalog.schemas()).to_owned(),
                columns,
                open: false,
            }],
            ..Scope::default()
        };
        // What the body reads is the body's: not the caller's grouped
        // columns nor aggregates.
        let ungrouped = self.ungrouped.take();
        let aggregated = std::mem::replace(&mut self.aggregated, false);
        let result = match lone_expression(&query) {
            Some(expr) => self.expr(expr, &arguments),
            None => self.first_row(&query, &arguments, function),
        };
        self.ungrouped = ungrouped;
        self.aggregated = aggregated;
        let result = result?;
        let result = match result.ty == function.returns {
            true => result,
            false => {
                let actual = result.ty.clone();
                self.cast(result, &function.returns, CastContext::Assignment)
                    .map_err(|_| return_type_mismatch(function, &actual))?
            }
        };
        if !function.strict || args.is_empty() {
            return Ok(result);
        }
        // `STRICT`: NULL when an argument is, the body not evaluated.
        let any_null = args
            .iter()
            .map(|arg| Expr::IsNull(Box::new(arg.expr.clone())))
            .reduce(|a, b| super::build::binary(a, sqlparser::ast::BinaryOperator::Or, b));
        let Some(any_null) = any_null else {
            return Ok(result);
        };
        let guarded = Expr::Case {
            case_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
            end_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
            operand: None,
            conditions: vec![sqlparser::ast::CaseWhen {
                condition: any_null,
                result: null(),
            }],
            else_result: Some(Box::new(result.expr)),
        };
        Ok(Typed::new(guarded, result.ty))
    }

    /// A body that reads relations: its first row's one column.
    fn first_row(
        &mut self,
        query: &Query,
        arguments: &Scope,
        function: &SqlFunction,
    ) -> Result<Typed> {
        let (mut translated, columns) = self.query(query, Some(arguments))?;
        let ty = match columns.as_deref() {
            Some([column]) => column.ty.clone(),
            Some(_) => {
                return Err(Fail::Pg(
                    return_type_mismatch_error(function)
                        .with_detail("Final statement must return exactly one column."),
                ));
            }
            None => PgType::Opaque,
        };
        if translated.limit_clause.is_none() {
            translated.limit_clause = Some(sqlparser::ast::LimitClause::LimitOffset {
                limit: Some(number("1")),
                offset: None,
                limit_by: Vec::new(),
            });
        }
        Ok(Typed::new(Expr::Subquery(Box::new(translated)), ty))
    }
}

/// The body of `function` as a query.
pub(crate) fn body(function: &SqlFunction) -> std::result::Result<Query, Error> {
    let parsed = Parser::parse_sql(&PostgreSqlDialect {}, &function.body)
        .map_err(|e| Error::state(crate::error::SqlState::SYNTAX_ERROR, e.to_string()))?;
    match parsed.as_slice() {
        [Ast::Query(query)] => Ok((**query).clone()),
        _ => Err(Error::state(
            crate::error::SqlState::FEATURE_NOT_SUPPORTED,
            format!(
                "function \"{}\" cannot be created: only a body of one SELECT is supported in SQL functions",
                function.name
            ),
        )),
    }
}

/// The body's one expression, when it reads no relation (`SELECT a + b`).
fn lone_expression(query: &Query) -> Option<&Expr> {
    let SetExpr::Select(select) = &*query.body else {
        return None;
    };
    let plain = query.with.is_none()
        && query.order_by.is_none()
        && query.limit_clause.is_none()
        && select.from.is_empty()
        && select.selection.is_none()
        && select.having.is_none()
        && select.distinct.is_none()
        && matches!(&select.group_by, GroupByExpr::Expressions(keys, _) if keys.is_empty());
    match select.projection.as_slice() {
        [SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. }]
            if plain && !calls_aggregate(expr) =>
        {
            Some(expr)
        }
        _ => None,
    }
}

/// Whether `expr` calls an aggregate (it would aggregate the caller's rows
/// if read in place).
fn calls_aggregate(expr: &Expr) -> bool {
    visit_expressions(expr, |part| match part {
        Expr::Function(f) if is_aggregate(&f.name.to_string().to_ascii_lowercase()) => {
            ControlFlow::Break(())
        }
        _ => ControlFlow::Continue(()),
    })
    .is_break()
}

/// The body's relations named apart from the caller's: each one read by its
/// own name gets an alias of litewire's (`t` becomes `t AS litewire_body_1`,
/// `t.c` then `litewire_body_1.c`), so that an argument read from the
/// caller's `t` inside the body's subquery is not taken for the body's.
fn renamed_relations(query: &mut Query) {
    /// Lists the relations read by their own name, then renames those read
    /// once: a name read twice (a self-join, a subquery of the same table)
    /// is left to each read's own scope, its qualified columns keep it.
    struct Renamer {
        read: Vec<String>,
        renaming: bool,
        renamed: Vec<(String, String)>,
    }
    impl VisitorMut for Renamer {
        type Break = ();
        fn pre_visit_table_factor(&mut self, factor: &mut TableFactor) -> ControlFlow<()> {
            let TableFactor::Table {
                name,
                alias: alias @ None,
                args: None,
                ..
            } = factor
            else {
                return ControlFlow::Continue(());
            };
            let Some(last) = name.0.last().and_then(|part| part.as_ident()) else {
                return ControlFlow::Continue(());
            };
            let own = last.value.to_ascii_lowercase();
            if !self.renaming {
                self.read.push(own);
            } else if self.read.iter().filter(|n| **n == own).count() == 1 {
                let renamed = format!("litewire_body_{}", self.renamed.len() + 1);
                *alias = Some(TableAlias {
                    explicit: true,
                    name: Ident::new(renamed.clone()),
                    columns: Vec::new(),
                    at: None,
                });
                self.renamed.push((own, renamed));
            }
            ControlFlow::Continue(())
        }
    }
    let mut renamer = Renamer {
        read: Vec::new(),
        renaming: false,
        renamed: Vec::new(),
    };
    let _ = query.visit(&mut renamer);
    renamer.renaming = true;
    let _ = query.visit(&mut renamer);
    let _ = visit_expressions_mut(query, |expr| {
        if let Expr::CompoundIdentifier(parts) = expr
            && let [relation, _] = parts.as_mut_slice()
            && let Some((_, alias)) =
                (renamer.renamed.iter()).find(|(name, _)| relation.value.eq_ignore_ascii_case(name))
        {
            *relation = Ident::new(alias.clone());
        }
        ControlFlow::<()>::Continue(())
    });
}

/// The name an argument is reached by as `$n`.
fn numbered(n: usize) -> String {
    format!("litewire_arg_{n}")
}

/// `$n` in the body as the argument's name (a parameter of the body is its
/// function's argument, not the statement's).
fn numbered_as_named(query: &mut Query) {
    let _ = visit_expressions_mut(query, |expr| {
        if let Expr::Value(value) = expr
            && let Value::Placeholder(text) = &value.value
            && let Some(n) = text.strip_prefix('$').and_then(|n| n.parse::<usize>().ok())
        {
            *expr = Expr::Identifier(Ident::new(numbered(n)));
        }
        ControlFlow::<()>::Continue(())
    });
}

fn return_type_mismatch_error(function: &SqlFunction) -> Error {
    Error::state(
        crate::error::SqlState::INVALID_FUNCTION_DEFINITION,
        format!(
            "return type mismatch in function declared to return {}",
            function.returns.display()
        ),
    )
}

fn return_type_mismatch(function: &SqlFunction, actual: &PgType) -> Fail {
    Fail::Pg(
        return_type_mismatch_error(function)
            .with_detail(format!("Actual return type is {}.", actual.display())),
    )
}

/// Reads `function`'s body as a call of it will be read (PostgreSQL checks
/// a SQL function's body when it is created): the relations and columns it
/// names, its type against the declared one.
pub fn check_body(
    function: &SqlFunction,
    catalog: &dyn super::catalog::Catalog,
) -> std::result::Result<(), Error> {
    let query = body(function)?;
    // A relation the reading does not know is left to SQLite when a
    // statement runs; a body is checked before it ever does.
    let ctes: Vec<String> = (query.with.iter())
        .flat_map(|with| &with.cte_tables)
        .map(|cte| cte.alias.name.value.to_ascii_lowercase())
        .collect();
    let missing = sqlparser::ast::visit_relations(&query, |name| {
        let shown = name.to_string();
        let last = (name.0.last())
            .and_then(|part| part.as_ident())
            .map(|ident| super::names::folded(&ident.value, ident.quote_style))
            .unwrap_or_default();
        let known = ctes.contains(&last.to_ascii_lowercase())
            || catalog.relation(&last).is_some()
            || catalog.is_sequence(&last)
            || crate::sql::relations::find(&last.to_ascii_lowercase()).is_some()
            || name.0.len() > 1;
        match known {
            true => ControlFlow::Continue(()),
            false => ControlFlow::Break(shown),
        }
    });
    if let ControlFlow::Break(name) = missing {
        return Err(Error::state(
            crate::error::SqlState::UNDEFINED_TABLE,
            format!("relation \"{name}\" does not exist"),
        ));
    }
    let mut translator = Translator::new(catalog, &[], false);
    let args = (function.args.iter())
        .map(|(_, ty)| Typed::new(null(), ty.clone()))
        .collect();
    match translator.inline(function, args) {
        Ok(_) => Ok(()),
        Err(Fail::Pg(error)) => Err(error),
        Err(Fail::Unsupported(what)) => Err(Error::state(
            crate::error::SqlState::FEATURE_NOT_SUPPORTED,
            format!(
                "function \"{}\" cannot be created: its body uses what SQL functions do not support here ({what})",
                function.name
            ),
        )),
    }
}
