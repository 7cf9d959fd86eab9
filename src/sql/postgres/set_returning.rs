//! Set-returning functions that read the row beside them: in FROM after
//! the items whose columns they take (`FROM t, jsonb_array_elements(t.doc)
//! e`, `CROSS JOIN LATERAL unnest(t.tags) WITH ORDINALITY`), and in a select
//! list, where PostgreSQL makes a row for each value (`SELECT id,
//! generate_series(1, n) FROM t`). SQLite's table-valued `json_each` may
//! take columns of the items before it, so each of these becomes a
//! `json_each` over the values as a JSON array (or the JSON value itself),
//! its columns computed from `json_each`'s row as PostgreSQL types them.

use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, GroupByExpr, InTarget,
    Select, SelectItem, TableAlias, TableFactor, visit_expressions, visit_expressions_mut,
};
use std::ops::ControlFlow;

use super::aggregates::is_aggregate;
use super::build::{binary, call, from_item, ident, number, parsed_select};
use super::casts::CastContext;
use super::errors::{Fail, Result};
use super::scope::{Item, Scope, ScopeColumn};
use super::translator::{Translator, Typed};
use super::types::PgType;
use crate::sql::quote::identifier;

/// A set-returning function called in FROM, in any form the parser gives it.
pub(super) struct RowFunction<'f> {
    /// In lower case.
    pub(super) name: String,
    pub(super) args: Vec<&'f Expr>,
    pub(super) alias: Option<&'f TableAlias>,
    pub(super) ordinality: bool,
}

impl<'f> RowFunction<'f> {
    pub(super) fn of(factor: &'f TableFactor) -> Option<RowFunction<'f>> {
        let (name, args, alias, ordinality) = match factor {
            TableFactor::Table {
                name,
                args: Some(args),
                alias,
                with_ordinality,
                ..
            } => (name, plain_args(&args.args)?, alias, *with_ordinality),
            TableFactor::Function {
                name,
                args,
                alias,
                with_ordinality,
                ..
            } => (name, plain_args(args)?, alias, *with_ordinality),
            TableFactor::UNNEST {
                alias,
                array_exprs,
                with_offset: false,
                with_ordinality,
                ..
            } => {
                return Some(RowFunction {
                    name: "unnest".to_owned(),
                    args: array_exprs.iter().collect(),
                    alias: alias.as_ref(),
                    ordinality: *with_ordinality,
                });
            }
            _ => return None,
        };
        let [part] = name.0.as_slice() else {
            return None;
        };
        Some(RowFunction {
            name: part.as_ident()?.value.to_ascii_lowercase(),
            args,
            alias: alias.as_ref(),
            ordinality,
        })
    }

    /// The name its rows are read by: the alias, else the function's.
    pub(super) fn item_name(&self) -> String {
        self.alias
            .map_or_else(|| self.name.clone(), |a| a.name.value.clone())
    }

    /// `columns` and, `WITH ORDINALITY`, the row's number in the array.
    pub(super) fn numbered(&self, columns: Vec<EachColumn>) -> Result<Vec<EachColumn>> {
        self.numbered_by(columns, "({key} + 1)")
    }

    /// `columns` and, `WITH ORDINALITY`, the row's number as `template`
    /// (over `json_each`'s row) computes it.
    pub(super) fn numbered_by(
        &self,
        mut columns: Vec<EachColumn>,
        template: &str,
    ) -> Result<Vec<EachColumn>> {
        if self.ordinality {
            columns.push(EachColumn {
                name: self.column_name(columns.len(), "ordinality"),
                computed: over_each(&self.item_name(), template)?,
                ty: PgType::Int8,
            });
        }
        Ok(columns)
    }

    /// The name the alias gives column `i`, else `default`.
    pub(super) fn column_name(&self, i: usize, default: &str) -> String {
        self.alias
            .and_then(|a| a.columns.get(i))
            .map_or_else(|| default.to_owned(), |c| c.name.value.clone())
    }
}

/// The type of an array's elements; an opaque value (a catalog's vector,
/// `pg_index.indkey`) has elements as SQLite reads them.
fn element_type(array: &PgType) -> Option<PgType> {
    match array {
        PgType::Array(element) => Some((**element).clone()),
        ty if ty.is_opaque() => Some(PgType::Opaque),
        _ => None,
    }
}

fn plain_args(args: &[FunctionArg]) -> Option<Vec<&Expr>> {
    args.iter()
        .map(|arg| match arg {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(expr)) => Some(expr),
            _ => None,
        })
        .collect()
}

/// One column of a `json_each` item: its name, what computes it from
/// `json_each`'s row (see [`each_column`]), and its type.
pub(super) struct EachColumn {
    pub(super) name: String,
    pub(super) computed: Expr,
    pub(super) ty: PgType,
}

/// Column `column` (`key`, `value`, `type`) of the `json_each` item `item`.
pub(super) fn each_column(item: &str, column: &str) -> Expr {
    Expr::CompoundIdentifier(vec![ident(item), ident(column)])
}

/// An expression over `json_each`'s row, `{key}`, `{value}`, `{type}`,
/// `{json}` and `{id}` standing for the columns of `item`.
pub(super) fn over_each(item: &str, template: &str) -> Result<Expr> {
    let qualified = |column: &str| format!("{}.{column}", identifier(item));
    let text = template
        .replace("{key}", &qualified("key"))
        .replace("{id}", &qualified("id"))
        .replace("{value}", &qualified("value"))
        .replace("{type}", &qualified("type"))
        .replace("{json}", &qualified("json"));
    sqlparser::parser::Parser::new(&sqlparser::dialect::SQLiteDialect {})
        .try_with_sql(&text)
        .and_then(|mut parser| parser.parse_expr())
        .map_err(|_| Fail::Unsupported("a set-returning function's column"))
}

impl Translator<'_> {
    /// `unnest(array)`, `regexp_matches`, `regexp_split_to_table`, and
    /// `generate_series` over integers that reads a column or is numbered
    /// (`WITH ORDINALITY`), if `function` is one.
    pub(super) fn row_function(
        &mut self,
        function: &RowFunction,
        scope: &mut Scope,
    ) -> Result<Option<TableFactor>> {
        let item = function.item_name();
        let column = function.column_name(0, &item);
        match (function.name.as_str(), function.args.as_slice()) {
            ("unnest", [array]) => {
                let typed = self.argument(array, scope)?;
                let Some(element) = element_type(&typed.ty) else {
                    return Ok(None);
                };
                let source = call("litewire_array_json", vec![typed.expr]);
                let value = self.element(each_column(&item, "value"), &element)?;
                let columns = function.numbered(vec![EachColumn {
                    name: column,
                    computed: value,
                    ty: element,
                }])?;
                self.each(scope, &item, source, columns).map(Some)
            }
            // Several arrays side by side, a row per element of the longest,
            // NULL where a shorter one has ended; each column named `unnest`
            // unless the alias names it.
            ("unnest", arrays) if arrays.len() > 1 => {
                let mut sources = Vec::with_capacity(arrays.len());
                let mut columns = Vec::with_capacity(arrays.len());
                for (i, array) in arrays.iter().enumerate() {
                    let typed = self.argument(array, scope)?;
                    let Some(element) = element_type(&typed.ty) else {
                        return Ok(None);
                    };
                    sources.push(typed.expr);
                    let text = over_each(&item, &format!("json_extract({{value}}, '$[{i}]')"))?;
                    columns.push(EachColumn {
                        name: function.column_name(i, "unnest"),
                        computed: self.element(text, &element)?,
                        ty: element,
                    });
                }
                let source = call("litewire_arrays_json", sources);
                let columns = function.numbered(columns)?;
                self.each(scope, &item, source, columns).map(Some)
            }
            ("generate_series", [_, _] | [_, _, _]) => {
                let typed: Vec<Typed> = function
                    .args
                    .iter()
                    .map(|arg| self.argument(arg, scope))
                    .collect::<Result<_>>()?;
                let integers = typed
                    .iter()
                    .all(|t| t.ty.is_integer() || t.untyped.is_some());
                if !integers || !(function.ordinality || typed.iter().any(reads_columns)) {
                    return Ok(None);
                }
                let ty = match typed.iter().any(|t| t.ty == PgType::Int8) {
                    true => PgType::Int8,
                    false => PgType::Int4,
                };
                let mut args = Vec::with_capacity(typed.len());
                for arg in typed {
                    args.push(self.cast(arg, &PgType::Int8, CastContext::Implicit)?.expr);
                }
                let source = call("litewire_series_json", args);
                let columns = function.numbered(vec![EachColumn {
                    name: column,
                    computed: each_column(&item, "value"),
                    ty,
                }])?;
                self.each(scope, &item, source, columns).map(Some)
            }
            ("generate_subscripts", [array, dimension] | [array, dimension, _]) => {
                // Arrays here have one dimension, numbered from 1; a
                // catalog's vector (`pg_index.indkey`, opaque here) from 0.
                let array = self.argument(array, scope)?;
                let first = match &array.ty {
                    PgType::Array(_) => number("1"),
                    ty if ty.is_opaque() => super::build::parsed_expr(
                        "CASE WHEN substr(ltrim(litewire_array), 1, 1) = '{' THEN 1 ELSE 0 END",
                    )
                    .map(|e| replaced(e, &[("litewire_array", array.expr.clone())]))
                    .ok_or(Fail::Unsupported("generate_subscripts"))?,
                    _ => return Ok(None),
                };
                let dimension = self.argument(dimension, scope)?;
                let dimension = self.cast(dimension, &PgType::Int4, CastContext::Implicit)?;
                let reverse = match function.args.get(2) {
                    Some(reverse) => {
                        let reverse = self.argument(reverse, scope)?;
                        self.cast(reverse, &PgType::Bool, CastContext::Implicit)?
                            .expr
                    }
                    None => super::build::boolean(false),
                };
                let source = super::build::parsed_expr(
                    "litewire_series_json(\
                     CASE WHEN litewire_reverse THEN litewire_last ELSE litewire_first END, \
                     CASE WHEN litewire_reverse THEN litewire_first ELSE litewire_last END, \
                     CASE WHEN litewire_reverse THEN -1 ELSE 1 END)",
                )
                .ok_or(Fail::Unsupported("generate_subscripts"))?;
                let length = super::build::parsed_expr(
                    "CASE WHEN litewire_dimension = 1 \
                     THEN coalesce(json_array_length(litewire_array_json(litewire_array)), 0) \
                     ELSE 0 END",
                )
                .ok_or(Fail::Unsupported("generate_subscripts"))?;
                let length = replaced(
                    length,
                    &[
                        ("litewire_dimension", dimension.expr),
                        ("litewire_array", array.expr),
                    ],
                );
                let source = replaced(
                    source,
                    &[
                        ("litewire_reverse", reverse),
                        (
                            "litewire_last",
                            binary(
                                binary(length, BinaryOperator::Plus, first.clone()),
                                BinaryOperator::Minus,
                                number("1"),
                            ),
                        ),
                        ("litewire_first", first),
                    ],
                );
                let columns = function.numbered(vec![EachColumn {
                    name: column,
                    computed: each_column(&item, "value"),
                    ty: PgType::Int4,
                }])?;
                self.each(scope, &item, source, columns).map(Some)
            }
            ("regexp_matches" | "regexp_split_to_table", [_, _] | [_, _, _]) => {
                let mut args = Vec::with_capacity(3);
                for arg in &function.args {
                    let typed = self.argument(arg, scope)?;
                    args.push(self.cast(typed, &PgType::Text, CastContext::Implicit)?.expr);
                }
                if args.len() == 2 {
                    args.push(super::build::string(""));
                }
                let (engine, ty) = match function.name.as_str() {
                    "regexp_matches" => (
                        "litewire_regexp_matches",
                        PgType::Array(Box::new(PgType::Text)),
                    ),
                    _ => ("litewire_regexp_split", PgType::Text),
                };
                let columns = function.numbered(vec![EachColumn {
                    name: column,
                    computed: each_column(&item, "value"),
                    ty,
                }])?;
                self.each(scope, &item, call(engine, args), columns)
                    .map(Some)
            }
            _ => Ok(None),
        }
    }

    /// An array's element, which `json_each` gives as text, read as its type.
    fn element(&mut self, text: Expr, element: &PgType) -> Result<Expr> {
        let text = Typed::new(text, PgType::Text);
        Ok(match element {
            PgType::Text | PgType::Varchar | PgType::Bpchar | PgType::Name | PgType::Opaque => {
                text.expr
            }
            other => self.cast(text, other, CastContext::Explicit)?.expr,
        })
    }

    /// An argument of a function that becomes `json_each`'s: the columns
    /// it reads are written with their relations' names (see `Scope`).
    pub(super) fn argument(&mut self, expr: &Expr, scope: &mut Scope) -> Result<Typed> {
        let was = std::mem::replace(&mut scope.qualify, true);
        let typed = self.expr(expr, scope);
        scope.qualify = was;
        typed
    }

    /// `json_each(source) AS item`, its columns computed from its rows,
    /// put in `scope`.
    pub(super) fn each(
        &mut self,
        scope: &mut Scope,
        item: &str,
        source: Expr,
        columns: Vec<EachColumn>,
    ) -> Result<TableFactor> {
        let scope_columns = columns
            .into_iter()
            .map(|column| ScopeColumn {
                computed: Some(column.computed),
                ..ScopeColumn::new(column.name, column.ty)
            })
            .collect();
        scope.items.push(Item {
            name: item.to_owned(),
            columns: scope_columns,
            open: false,
        });
        json_each(source, item)
    }
}

/// A select list's one set-returning function (`SELECT id,
/// generate_series(1, n) FROM t`) moved to FROM, after the items there,
/// its call in the list reading the new item's column: a row for each
/// value, as PostgreSQL makes them.
pub(super) fn list_function_to_from(select: &Select) -> Option<Select> {
    // A grouped select makes its rows first, then their values: not this.
    let grouped = !matches!(&select.group_by, GroupByExpr::Expressions(keys, _) if keys.is_empty())
        || select.having.is_some();
    if grouped || select.distinct.is_some() {
        return None;
    }
    let mut calls = Vec::new();
    let mut aggregates = false;
    for item in &select.projection {
        let (SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. }) = item else {
            continue;
        };
        // A subquery's functions are its own select's.
        let mut own = expr.clone();
        let _ = visit_expressions_mut(&mut own, |part| {
            match part {
                Expr::Subquery(_) | Expr::Exists { .. } => *part = super::build::null(),
                Expr::In {
                    expr,
                    target: InTarget::Subquery(_),
                    ..
                } => *part = (**expr).clone(),
                _ => {}
            }
            ControlFlow::<()>::Continue(())
        });
        let _ = visit_expressions(&own, |part| {
            if let Expr::Function(function) = part {
                if is_moved(function) {
                    calls.push(part.clone());
                }
                aggregates |= function.over.is_none()
                    && is_aggregate(&function.name.to_string().to_ascii_lowercase());
            }
            ControlFlow::<()>::Continue(())
        });
    }
    if calls.is_empty() || aggregates {
        return None;
    }
    if !in_step(&calls) {
        return zipped_arrays(select, &calls).or_else(|| padded(select, &calls));
    }
    // Several calls advance together: each numbered, joined on the number.
    let several = calls.len() > 1;
    let mut items = Vec::with_capacity(calls.len());
    for (i, found) in calls.iter().enumerate() {
        let Expr::Function(function) = found else {
            return None;
        };
        let name = function.name.to_string().to_ascii_lowercase();
        let item = moved_item(i);
        let text = match several {
            true => format!(
                "{}() WITH ORDINALITY AS {item}({MOVED_COLUMN}, {POSITION})",
                identifier(&name)
            ),
            false => format!("{}() AS {item}({MOVED_COLUMN})", identifier(&name)),
        };
        items.push((found, name, item, text));
    }
    let from = items
        .iter()
        .map(|(_, _, item, text)| match item.as_str() {
            MOVED => text.clone(),
            _ => format!("{text} ON {item}.{POSITION} = {MOVED}.{POSITION}"),
        })
        .collect::<Vec<_>>()
        .join(" JOIN ");
    let mut moved = parsed_select(&format!("SELECT 1 FROM {from}"))?
        .from
        .pop()?;
    let mut out = select.clone();
    let factors =
        std::iter::once(&mut moved.relation).chain(moved.joins.iter_mut().map(|j| &mut j.relation));
    for (factor, (found, ..)) in factors.zip(&items) {
        let Expr::Function(function) = found else {
            return None;
        };
        let FunctionArguments::List(list) = &function.args else {
            return None;
        };
        if let TableFactor::Table {
            args: Some(args), ..
        } = factor
        {
            args.args = list.args.clone();
        }
    }
    out.from.push(moved);
    for (found, name, item, _) in &items {
        let read = Expr::CompoundIdentifier(vec![ident(item), ident(MOVED_COLUMN)]);
        read_from_moved(&mut out, found, name, &read);
    }
    Some(out)
}

/// Several `unnest(array)` calls of one select list over arrays of other
/// lengths: PostgreSQL makes as many rows as the longest has elements, the
/// others NULL once they end, which is `unnest(a, b, ...)` in FROM.
fn zipped_arrays(select: &Select, calls: &[Expr]) -> Option<Select> {
    let mut arrays = Vec::with_capacity(calls.len());
    for call in calls {
        let Expr::Function(function) = call else {
            return None;
        };
        let FunctionArguments::List(list) = &function.args else {
            return None;
        };
        match list.args.as_slice() {
            [array] if function.name.to_string().eq_ignore_ascii_case("unnest") => {
                arrays.push(array.clone());
            }
            _ => return None,
        }
    }
    let columns: Vec<String> = (0..calls.len())
        .map(|i| format!("{MOVED_COLUMN}{i}"))
        .collect();
    let mut moved = parsed_select(&format!(
        "SELECT 1 FROM unnest(NULL) AS {MOVED}({})",
        columns.join(", ")
    ))?
    .from
    .pop()?;
    // The parser reads `unnest(...)` in FROM as its own form (and takes no
    // call of no arguments there): its arrays are put in place.
    match &mut moved.relation {
        TableFactor::UNNEST { array_exprs, .. } => {
            *array_exprs = plain_args(&arrays)?.into_iter().cloned().collect();
        }
        TableFactor::Table {
            args: Some(args), ..
        } => args.args = arrays,
        _ => return None,
    }
    let mut out = select.clone();
    out.from.push(moved);
    for (found, column) in calls.iter().zip(&columns) {
        let read = Expr::CompoundIdentifier(vec![ident(MOVED), ident(column)]);
        read_from_moved(&mut out, found, "unnest", &read);
    }
    Some(out)
}

/// Several set-returning calls of one select list that may give other
/// numbers of rows (`SELECT generate_series(1, x), generate_series(1, 2)`):
/// PostgreSQL makes as many rows as the longest gives, the others NULL once
/// they end. Each call's rows, numbered, are joined to the row numbers up to
/// the longest's count.
fn padded(select: &Select, calls: &[Expr]) -> Option<Select> {
    let counts: Vec<String> = calls
        .iter()
        .map(|call| format!("((SELECT count(*) FROM {call}))"))
        .collect();
    let mut from = format!(
        "generate_series(1, (SELECT max(n) FROM (VALUES {}) AS counts(n))) \
         AS {NUMBERS}({POSITION})",
        counts.join(", ")
    );
    let mut items = Vec::with_capacity(calls.len());
    for (i, call) in calls.iter().enumerate() {
        let Expr::Function(function) = call else {
            return None;
        };
        let item = moved_item(i);
        from.push_str(&format!(
            " LEFT JOIN {call} WITH ORDINALITY AS {item}({MOVED_COLUMN}, {POSITION}) \
             ON {item}.{POSITION} = {NUMBERS}.{POSITION}"
        ));
        items.push((call, function.name.to_string().to_ascii_lowercase(), item));
    }
    let moved = parsed_select(&format!("SELECT 1 FROM {from}"))?
        .from
        .pop()?;
    let mut out = select.clone();
    out.from.push(moved);
    for (call, name, item) in &items {
        let read = Expr::CompoundIdentifier(vec![ident(item), ident(MOVED_COLUMN)]);
        read_from_moved(&mut out, call, name, &read);
    }
    Some(out)
}

/// `select`'s list with the call `found` read from its moved item (`read`);
/// an item that was the call keeps its name.
fn read_from_moved(select: &mut Select, found: &Expr, name: &str, read: &Expr) {
    for select_item in &mut select.projection {
        let (SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. }) = select_item
        else {
            continue;
        };
        let bare = named_by(expr, found);
        let _ = visit_expressions_mut(expr, |part| {
            if part == found {
                *part = read.clone();
            }
            ControlFlow::<()>::Continue(())
        });
        if bare && let SelectItem::UnnamedExpr(expr) = select_item {
            *select_item = SelectItem::ExprWithAlias {
                expr: expr.clone(),
                alias: ident(name),
            };
        }
    }
}

/// Whether the set-returning `calls` of one select list give their rows in
/// step: one call, or several that each give a row per element of the same
/// array (`unnest(a)`, `generate_subscripts(a, 1)`), so that numbering
/// their rows pairs them as PostgreSQL does. Others (of other lengths, which
/// PostgreSQL pads with NULLs) are not moved.
fn in_step(calls: &[Expr]) -> bool {
    let array = |call: &Expr| -> Option<String> {
        let Expr::Function(function) = call else {
            return None;
        };
        let FunctionArguments::List(list) = &function.args else {
            return None;
        };
        let args = crate::sql::syntax_tree::plain_args(list);
        let name = function.name.to_string().to_ascii_lowercase();
        match (name.as_str(), args.as_slice()) {
            ("unnest", [array]) => Some(array.to_string()),
            ("generate_subscripts", [array, dimension]) if dimension.to_string() == "1" => {
                Some(array.to_string())
            }
            _ => None,
        }
    };
    match calls {
        [_] => true,
        [first, rest @ ..] => {
            let Some(first) = array(first) else {
                return false;
            };
            rest.iter().all(|call| array(call).as_ref() == Some(&first))
        }
        [] => false,
    }
}

/// Whether PostgreSQL names a select item `expr` after the call `found`:
/// the call itself, or the call subscripted, cast or in parentheses.
fn named_by(expr: &Expr, found: &Expr) -> bool {
    match expr {
        _ if expr == found => true,
        Expr::Nested(inner) | Expr::Cast { expr: inner, .. } => named_by(inner, found),
        Expr::CompoundFieldAccess { root, .. } => named_by(root, found),
        _ => false,
    }
}

/// The FROM item a select list's set-returning function becomes.
const MOVED: &str = "litewire_rows";
const MOVED_COLUMN: &str = "value";
/// The row number several moved calls are paired by.
const POSITION: &str = "litewire_position";
/// The FROM item the `i`th moved call of a select list becomes.
fn moved_item(i: usize) -> String {
    match i {
        0 => MOVED.to_owned(),
        _ => format!("{MOVED}_{i}"),
    }
}

/// The row numbers calls of other lengths are padded to.
const NUMBERS: &str = "litewire_row_numbers";

/// The set-returning functions a select list's call of which moves to FROM.
fn is_moved(function: &sqlparser::ast::Function) -> bool {
    let name = function.name.to_string().to_ascii_lowercase();
    function.over.is_none()
        && matches!(
            name.as_str(),
            "generate_series"
                | "generate_subscripts"
                | "unnest"
                | "regexp_matches"
                | "regexp_split_to_table"
                | "json_array_elements"
                | "jsonb_array_elements"
                | "json_array_elements_text"
                | "jsonb_array_elements_text"
                | "json_object_keys"
                | "jsonb_object_keys"
                | "jsonb_path_query"
                | "jsonb_path_query_tz"
        )
}

/// `expr` with each identifier named in `by` replaced by its expression.
fn replaced(mut expr: Expr, by: &[(&str, Expr)]) -> Expr {
    let _ = visit_expressions_mut(&mut expr, |part| {
        if let Expr::Identifier(name) = part
            && let Some((_, with)) = by.iter().find(|(n, _)| name.value == *n)
        {
            *part = with.clone();
        }
        ControlFlow::<()>::Continue(())
    });
    expr
}

/// Whether a translated argument reads a column (of an item beside it).
pub(super) fn reads_columns(typed: &Typed) -> bool {
    let mut found = false;
    let _ = visit_expressions(&typed.expr, |part| {
        if matches!(part, Expr::Identifier(_) | Expr::CompoundIdentifier(_)) {
            found = true;
        }
        ControlFlow::<()>::Continue(())
    });
    found
}

/// `json_each(source) AS "item"`.
fn json_each(source: Expr, item: &str) -> Result<TableFactor> {
    let mut factor = from_item(&format!("json_each(NULL) AS {}", identifier(item)))
        .ok_or(Fail::Unsupported("json_each"))?;
    if let TableFactor::Table {
        args: Some(args), ..
    } = &mut factor
    {
        args.args = vec![FunctionArg::Unnamed(FunctionArgExpr::Expr(source))];
    }
    Ok(factor)
}
