//! Queries: `WITH`, set operations (each column of one type), `VALUES`, and
//! `SELECT` with its conditions (booleans), grouping (see `grouping`) and sort
//! (see `ordering`), its FROM (see `from`), and its result columns named and
//! typed as PostgreSQL names and types them.

use sqlparser::ast::helpers::attached_token::AttachedToken;
use sqlparser::ast::{
    BinaryOperator, CaseWhen, Distinct, Expr, GroupByExpr, LimitClause, Offset, OrderBy,
    OrderByKind, Query, Select, SelectItem, SelectItemQualifiedWildcardKind, SetExpr, SetOperator,
    SetQuantifier, TableAliasColumnDef, Values,
};

use super::build::{call, ident, null, number, parsed_select, query_of, select_from};
use super::casts::{CastContext, fit};
use super::columns::QueryColumn;
use super::errors::{Fail, Result, datatype_mismatch, syntax};
use super::expressions::alias_name;
use super::grouping::{self, Reads};
use super::grouping_sets;
use super::multisets;
use super::recursion;
use super::scope::Scope;
use super::set_returning;
use super::translator::{ColumnRef, Cte, OutputColumn, Translator, Typed, Untyped, common_scale};
use super::types::{ColumnType, PgType};
use crate::sql::syntax_tree::idents;

/// A translated select list (or `RETURNING`).
pub(super) struct SelectList {
    pub(super) items: Vec<SelectItem>,
    /// Its columns, when all are known.
    pub(super) columns: Option<Vec<QueryColumn>>,
    /// What each of its expressions reads.
    pub(super) reads: Vec<Reads>,
}

impl Translator<'_> {
    pub(super) fn top_query(
        &mut self,
        query: &Query,
    ) -> Result<(sqlparser::ast::Statement, Option<Vec<OutputColumn>>)> {
        if let Some(change) = self.change_after_with(query)? {
            return Ok(change);
        }
        let (mut query, columns) = self.query(query, None)?;
        if let Some(columns) = &columns {
            super::shown::show(&mut query, columns);
        }
        let columns = columns.map(|c| c.iter().map(QueryColumn::output).collect());
        Ok((sqlparser::ast::Statement::Query(Box::new(query)), columns))
    }

    /// A query, and its columns when they are all known.
    pub(super) fn query(
        &mut self,
        query: &Query,
        outer: Option<&Scope>,
    ) -> Result<(Query, Option<Vec<QueryColumn>>)> {
        if query.fetch.is_some() || !query.locks.is_empty() || query.for_clause.is_some() {
            return Err(Fail::Unsupported("FETCH, FOR UPDATE"));
        }
        let ctes = self.ctes.len();
        // Nested queries, as nested expressions, on more stack as they need it.
        let translated = stacker::maybe_grow(256 * 1024, 4 * 1024 * 1024, || {
            self.query_in_with(query, outer)
        });
        self.ctes.truncate(ctes);
        translated
    }

    fn query_in_with(
        &mut self,
        query: &Query,
        outer: Option<&Scope>,
    ) -> Result<(Query, Option<Vec<QueryColumn>>)> {
        if let Some(union) = grouping_sets::expand(query)? {
            return self.query_in_with(&union, outer);
        }
        let mut out = query.clone();
        if let Some(with) = &query.with {
            let mut with = with.clone();
            for cte in &mut with.cte_tables {
                self.cte(cte, outer, with.recursive)?;
            }
            out.with = Some(with);
        }
        let (body, columns, order_by) = match &*query.body {
            SetExpr::Select(select) => {
                let (select, columns, order_by) =
                    self.select(select, outer, query.order_by.as_ref())?;
                (SetExpr::Select(Box::new(select)), columns, order_by)
            }
            other => {
                let (body, columns) = self.set_expr(other, outer)?;
                let order_by = match &query.order_by {
                    Some(order_by) => {
                        Some(self.output_order(order_by, columns.as_deref(), outer)?)
                    }
                    None => None,
                };
                (body, columns, order_by)
            }
        };
        // SQLite orders and limits VALUES only as a subquery's rows.
        let ordered = order_by.is_some() || query.limit_clause.is_some();
        let body = match body {
            SetExpr::Values(_) if ordered => match query_of(body.clone()) {
                Some(values) => match select_from(values, "litewire_values") {
                    Ok(select) => SetExpr::Select(select),
                    Err(values) => *values.body,
                },
                None => body,
            },
            other => other,
        };
        out.body = Box::new(body);
        out.order_by = order_by;
        if let Some(limit) = &query.limit_clause {
            out.limit_clause = Some(self.limit(limit, outer)?);
        }
        Ok((out, columns))
    }

    /// A `WITH` query: translated, then in scope for what follows it.
    pub(super) fn cte(
        &mut self,
        cte: &mut sqlparser::ast::Cte,
        outer: Option<&Scope>,
        recursive: bool,
    ) -> Result<()> {
        let name = cte.alias.name.value.clone();
        let renamed: Vec<String> = cte
            .alias
            .columns
            .iter()
            .map(|c| alias_name(&c.name))
            .collect();
        let reads_itself = recursive && recursion::reads_itself(&cte.query, &name);
        if reads_itself {
            recursion::check(&cte.query, &name)?;
        }
        let mut anchor_columns = None;
        if recursive {
            // The recursive member reads the query itself: its columns are the
            // non-recursive member's.
            let anchor = match &*cte.query.body {
                SetExpr::SetOperation { left, .. } => Some(left.clone()),
                _ => None,
            };
            if let Some(anchor) = anchor {
                let (_, columns) = self.set_expr(&anchor, outer)?;
                let Some(columns) = columns else {
                    return Err(Fail::Unsupported("recursive query of unknown columns"));
                };
                anchor_columns = Some(columns.clone());
                self.ctes.push(Cte {
                    name: name.clone(),
                    columns: super::columns::renamed(&name, &columns, &renamed)?,
                });
            }
        }
        // PostgreSQL runs a WITH query that calls a volatile function once,
        // whoever reads it; SQLite may run it once per reader.
        if !recursive && cte.materialized.is_none() && calls_volatile(&cte.query) {
            cte.materialized = Some(sqlparser::ast::CteAsMaterialized::Materialized);
        }
        let (query, columns) = self.query(&cte.query, outer)?;
        *cte.query = query;
        let Some(columns) = columns else {
            return Err(Fail::Unsupported("WITH query of unknown columns"));
        };
        if let (true, Some(anchor)) = (reads_itself, &anchor_columns) {
            recursion::check_types(&name, anchor, &columns)?;
        }
        // A shorter list names the first columns; SQLite wants them all.
        if !renamed.is_empty() {
            let rest = columns.iter().skip(renamed.len());
            (cte.alias.columns).extend(rest.map(|c| TableAliasColumnDef {
                name: ident(&c.name),
                data_type: None,
            }));
        }
        let columns = super::columns::renamed(&name, &columns, &renamed)?;
        self.ctes.push(Cte { name, columns });
        Ok(())
    }

    fn set_expr(
        &mut self,
        body: &SetExpr,
        outer: Option<&Scope>,
    ) -> Result<(SetExpr, Option<Vec<QueryColumn>>)> {
        match body {
            SetExpr::Select(select) => {
                let (select, columns, _) = self.select(select, outer, None)?;
                Ok((SetExpr::Select(Box::new(select)), columns))
            }
            SetExpr::Query(query) => {
                let (query, columns) = self.query(query, outer)?;
                Ok((SetExpr::Query(Box::new(query)), columns))
            }
            SetExpr::SetOperation {
                left,
                op,
                set_quantifier,
                right,
            } => {
                let (left, left_columns) = self.set_expr(left, outer)?;
                let (right, right_columns) = self.set_expr(right, outer)?;
                let (left, right) = (member(left, false), member(right, true));
                let columns = match (left_columns, right_columns) {
                    (Some(l), Some(r)) => Some(set_columns(*op, l, r)?),
                    _ => None,
                };
                if matches!(op, SetOperator::Intersect | SetOperator::Except)
                    && matches!(set_quantifier, SetQuantifier::All)
                {
                    let columns =
                        columns.ok_or(Fail::Unsupported("EXCEPT ALL of unknown columns"))?;
                    let body = multisets::counted(left, *op, right, &columns)?;
                    return Ok((body, Some(columns)));
                }
                Ok((
                    SetExpr::SetOperation {
                        left: Box::new(left),
                        op: *op,
                        set_quantifier: *set_quantifier,
                        right: Box::new(right),
                    },
                    columns,
                ))
            }
            SetExpr::Values(values) => {
                let (values, columns) = self.values(values, outer, None)?;
                Ok((SetExpr::Values(values), Some(columns)))
            }
            // `TABLE t` is `SELECT * FROM t`.
            SetExpr::Table(table) => {
                let name = match (&table.schema_name, &table.table_name) {
                    (Some(schema), Some(name)) => format!("{schema}.{name}"),
                    (None, Some(name)) => name.to_string(),
                    _ => return Err(Fail::Unsupported("TABLE without a name")),
                };
                let select = parsed_select(&format!("SELECT * FROM {name}"))
                    .ok_or(Fail::Unsupported("TABLE"))?;
                self.set_expr(&SetExpr::Select(select), outer)
            }
            _ => Err(Fail::Unsupported("query body")),
        }
    }

    /// `VALUES (...), (...)`: each column of one type (`targets` when the rows
    /// go into columns of those types).
    pub(super) fn values(
        &mut self,
        values: &Values,
        outer: Option<&Scope>,
        targets: Option<&[ColumnType]>,
    ) -> Result<(Values, Vec<QueryColumn>)> {
        let scope = match outer {
            Some(outer) => Scope::child(outer),
            None => Scope::default(),
        };
        let width = values.rows.first().map_or(0, |row| row.len());
        let mut columns: Vec<Vec<Typed>> = vec![Vec::with_capacity(values.rows.len()); width];
        for row in &values.rows {
            if row.len() != width {
                return Err(syntax("VALUES lists must all be the same length".into()));
            }
            for (i, value) in row.iter().enumerate() {
                columns[i].push(self.expr(value, &scope)?);
            }
        }
        let mut typed_columns = Vec::with_capacity(width);
        let mut unified = Vec::with_capacity(width);
        for (i, column) in columns.into_iter().enumerate() {
            let column = match targets.and_then(|t| t.get(i)) {
                Some(target) => column
                    .into_iter()
                    .map(|v| self.assign(v, target))
                    .collect::<Result<Vec<_>>>()?,
                None => self.unify(column, "VALUES")?,
            };
            let ty = column.first().map_or(PgType::Text, |v| v.ty.clone());
            typed_columns.push(QueryColumn {
                name: format!("column{}", i + 1),
                scale: super::numeric_scales::common(&column).filter(|_| ty == PgType::Numeric),
                ty,
                named: true,
                column: false,
                modifier: None,
                not_null: false,
                untyped: None,
            });
            unified.push(column.into_iter());
        }
        let mut out = values.clone();
        for row in &mut out.rows {
            for (i, value) in row.iter_mut().enumerate() {
                *value = unified[i].next().map_or_else(null, |t| t.expr);
            }
        }
        Ok((out, typed_columns))
    }

    /// `value` stored into a column of type `target`: cast as an assignment,
    /// then fitted to the column's modifier (`varchar(n)`, `numeric(p, s)`).
    pub(super) fn assign(&mut self, value: Typed, target: &ColumnType) -> Result<Typed> {
        let (ty, modifier) = target;
        if ty.is_opaque() || is_default(&value.expr) {
            return Ok(value);
        }
        // Text for an interval type with fields is read in them (a bare `5`
        // in an `interval hour` is five hours): the fitting reads it.
        if let (
            Some(Untyped::Literal(_) | Untyped::Param(_)),
            Some(m @ super::types::Modifier::Interval(_)),
        ) = (&value.untyped, modifier)
        {
            let expr = fit(value.expr, ty, *m, CastContext::Assignment);
            return Ok(Typed::new(expr, ty.clone()));
        }
        let mut cast = self.cast(value, ty, CastContext::Assignment)?;
        if let Some(modifier) = modifier {
            cast.expr = fit(cast.expr, ty, *modifier, CastContext::Assignment);
        }
        Ok(cast)
    }

    fn select(
        &mut self,
        select: &Select,
        outer: Option<&Scope>,
        order_by: Option<&OrderBy>,
    ) -> Result<(Select, Option<Vec<QueryColumn>>, Option<OrderBy>)> {
        // `SELECT ... INTO t` is a statement of its own (see `sql::create_as`).
        if select.into.is_some() {
            return Err(Fail::Unsupported("SELECT INTO"));
        }
        if let Some(moved) = set_returning::list_function_to_from(select) {
            return self.select(&moved, outer, order_by);
        }
        let mut scope = match outer {
            Some(outer) => Scope::child(outer),
            None => Scope::default(),
        };
        let mut out = select.clone();
        out.from = select
            .from
            .iter()
            .map(|from| self.read_from(from, &mut scope))
            .collect::<Result<_>>()?;
        if let Some(condition) = &select.selection {
            out.selection = Some(self.condition(condition, &scope, "WHERE")?);
        }
        // Whether this select aggregates is its own: a subquery's aggregates
        // are the subquery's.
        let aggregated = std::mem::replace(&mut self.aggregated, false);
        let translated = self.grouped_parts(select, &scope, order_by, &mut out);
        self.aggregated = aggregated;
        let (columns, order_by) = translated?;
        if let Some(Distinct::On(keys)) = &out.distinct {
            let keys = keys.clone();
            out.distinct = None;
            let (out, order_by) =
                self.distinct_on(&keys, &scope, out, columns.as_deref(), order_by)?;
            return Ok((out, columns, order_by));
        }
        Ok((out, columns, order_by))
    }

    /// The parts of a select that grouping concerns: its list, `GROUP BY`,
    /// `HAVING` and `ORDER BY`, checked as PostgreSQL checks a grouped query.
    fn grouped_parts(
        &mut self,
        select: &Select,
        scope: &Scope,
        order_by: Option<&OrderBy>,
        out: &mut Select,
    ) -> Result<(Option<Vec<QueryColumn>>, Option<OrderBy>)> {
        let SelectList {
            items,
            columns,
            mut reads,
        } = self.select_list(&select.projection, scope)?;
        out.projection = items;
        let list_aggregates = self.aggregated;
        let mut keys = Vec::new();
        let mut grouped = false;
        if let GroupByExpr::Expressions(items, modifiers) = &select.group_by {
            for item in items {
                keys.push(self.group_key(item, scope, columns.as_deref(), &reads)?);
            }
            out.group_by = GroupByExpr::Expressions(
                keys.iter().map(|k| k.expr.clone()).collect(),
                modifiers.clone(),
            );
            // ROLLUP, CUBE, GROUPING SETS: groups of other keys too.
            grouped = !items.is_empty() && modifiers.is_empty();
        }
        if let Some(having) = &select.having {
            let (condition, ungrouped) = self.reading(|t| t.condition(having, scope, "HAVING"))?;
            out.having = Some(condition);
            // HAVING groups a select by itself: without GROUP BY all its
            // rows are one group (one row even when none match). SQLite
            // takes HAVING only where the select list aggregates: the first
            // item is given an aggregate that does not change it.
            if keys.is_empty() && !list_aggregates {
                aggregate_first_item(&mut out.projection, columns.as_deref());
            }
            grouped = true;
            reads.push(Reads {
                original: Some(having.clone()),
                ungrouped,
                ..Reads::default()
            });
        }
        let order_by = match order_by {
            Some(order_by) => {
                let (translated, ungrouped) =
                    self.reading(|t| t.select_order(order_by, scope, columns.as_deref()))?;
                let keys = match &order_by.kind {
                    OrderByKind::Expressions(items) => {
                        items.iter().map(|item| item.expr.clone()).collect()
                    }
                    OrderByKind::All(_) => Vec::new(),
                };
                reads.push(Reads {
                    original: Some(Expr::Tuple(keys)),
                    ungrouped,
                    ..Reads::default()
                });
                let order_by = translated;
                Some(order_by)
            }
            None => None,
        };
        let checked = matches!(select.group_by, GroupByExpr::Expressions(_, ref m) if m.is_empty());
        if (grouped || self.aggregated) && checked && !scope.items.iter().any(|i| i.open) {
            grouping::check(&keys, &reads, scope)?;
        }
        Ok((columns, order_by))
    }

    /// A select list (or `RETURNING`): its items, named as PostgreSQL names
    /// them, their columns when all are known, and what each reads.
    pub(super) fn select_list(
        &mut self,
        items: &[SelectItem],
        scope: &Scope,
    ) -> Result<SelectList> {
        let mut out = Vec::with_capacity(items.len());
        let mut columns = Some(Vec::with_capacity(items.len()));
        let mut reads = Vec::with_capacity(items.len());
        for item in items {
            let (expr, alias) = match item {
                SelectItem::UnnamedExpr(expr) => (expr, None),
                SelectItem::ExprWithAlias { expr, alias } => (expr, Some(alias)),
                SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..) => {
                    let star = self.star(item, scope, &mut out, &mut reads)?;
                    match (star, &mut columns) {
                        (Some(star), Some(columns)) => columns.extend(star),
                        _ => columns = None,
                    }
                    continue;
                }
                SelectItem::ExprWithAliases { .. } => return Err(Fail::Unsupported("aliases")),
            };
            let (typed, ungrouped) = self.reading(|t| t.expr(expr, scope))?;
            reads.push(Reads {
                original: Some(expr.clone()),
                column: typed.column.clone(),
                ungrouped,
            });
            let (name, mut column) = match alias {
                Some(alias) => {
                    let name = alias_name(alias);
                    let mut column = QueryColumn::of(&typed, name.clone());
                    column.named = true;
                    (name, column)
                }
                None => {
                    let name = typed
                        .name
                        .as_ref()
                        .map_or_else(|| "?column?".to_owned(), |(n, _)| n.clone());
                    (name.clone(), QueryColumn::of(&typed, name))
                }
            };
            // A column read as written keeps SQLite's name for it, which is
            // the column's; a bare parameter keeps SQLite's `?N`, which the
            // front end types by the parameter; anything else is named as
            // PostgreSQL names it.
            let bare_parameter = matches!(typed.untyped, Some(Untyped::Param(_)));
            let as_written = alias.is_none()
                && (typed.column.is_some() || bare_parameter)
                && typed.expr == *expr;
            out.push(match as_written {
                true => SelectItem::UnnamedExpr(typed.expr),
                false => SelectItem::ExprWithAlias {
                    expr: typed.expr,
                    alias: ident(&name),
                },
            });
            if let Some(columns) = &mut columns {
                column.untyped = typed.untyped;
                columns.push(column);
            }
        }
        Ok(SelectList {
            items: out,
            columns,
            reads,
        })
    }

    /// `*` and `t.*`: the columns when they are known (listed in
    /// PostgreSQL's order when `USING` merged some), else as written.
    fn star(
        &mut self,
        item: &SelectItem,
        scope: &Scope,
        out: &mut Vec<SelectItem>,
        reads: &mut Vec<Reads>,
    ) -> Result<Option<Vec<QueryColumn>>> {
        let relation = match item {
            SelectItem::QualifiedWildcard(SelectItemQualifiedWildcardKind::ObjectName(name), _) => {
                idents(name).last().cloned()
            }
            _ => None,
        };
        let Some(star) = scope.star(relation.as_deref())? else {
            out.push(item.clone());
            return Ok(None);
        };
        // Listed when `USING` merged columns, when the relation is an outer
        // query's, or when a column is computed (a set-returning function's,
        // which SQLite's `*` would not give).
        let listed = self.expand_stars
            || (relation.is_none() && !scope.merged.is_empty())
            || relation.as_deref().is_some_and(|r| !scope.has_own(r))
            || star.iter().any(|(_, column)| column.computed.is_some());
        let mut columns = Vec::with_capacity(star.len());
        for (relation, column) in star {
            let read = ColumnRef {
                relation: relation.clone(),
                name: column.name.clone(),
                not_null: column.not_null,
                primary_key: column.primary_key,
                declared: column.declared,
                modifier: column.modifier,
            };
            reads.push(Reads {
                original: None,
                column: Some(read.clone()),
                ungrouped: vec![read],
            });
            if listed {
                let expr = match (&column.computed, &relation) {
                    (Some(computed), _) => computed.clone(),
                    (None, Some(r)) => {
                        Expr::CompoundIdentifier(vec![ident(r), ident(&column.name)])
                    }
                    (None, None) => Expr::Identifier(ident(&column.name)),
                };
                out.push(SelectItem::ExprWithAlias {
                    expr,
                    alias: ident(&column.name),
                });
            }
            columns.push(QueryColumn {
                name: column.name.clone(),
                ty: column.ty.clone(),
                named: true,
                column: column.declared,
                modifier: column.modifier,
                not_null: column.not_null,
                untyped: None,
                scale: column.scale,
            });
        }
        if !listed {
            out.push(item.clone());
        }
        Ok(Some(columns))
    }

    fn limit(&mut self, limit: &LimitClause, outer: Option<&Scope>) -> Result<LimitClause> {
        let scope = match outer {
            Some(outer) => Scope::child(outer),
            None => Scope::default(),
        };
        let mut count = |e: &Expr| -> Result<Expr> {
            let typed = self.expr(e, &scope)?;
            Ok(self.cast(typed, &PgType::Int8, CastContext::Implicit)?.expr)
        };
        Ok(match limit {
            LimitClause::LimitOffset {
                limit,
                offset,
                limit_by,
            } => LimitClause::LimitOffset {
                // SQLite reads an OFFSET only after a LIMIT: `OFFSET n` alone
                // (or after `LIMIT ALL`) is every row from the n-th on.
                limit: match (limit, offset) {
                    (None, Some(_)) => Some(super::build::number("-1")),
                    _ => limit.as_ref().map(&mut count).transpose()?,
                },
                offset: match offset {
                    Some(offset) => Some(Offset {
                        value: count(&offset.value)?,
                        rows: offset.rows,
                    }),
                    None => None,
                },
                limit_by: limit_by.clone(),
            },
            other => other.clone(),
        })
    }
}

/// The columns of `left op right`: the left's names, each column's types
/// matched.
fn set_columns(
    op: SetOperator,
    left: Vec<QueryColumn>,
    right: Vec<QueryColumn>,
) -> Result<Vec<QueryColumn>> {
    let word = match op {
        SetOperator::Union => "UNION",
        SetOperator::Intersect => "INTERSECT",
        SetOperator::Except => "EXCEPT",
        _ => "UNION",
    };
    if left.len() != right.len() {
        return Err(syntax(format!(
            "each {word} query must have the same number of columns"
        )));
    }
    left.into_iter()
        .zip(right)
        .map(|(l, r)| {
            let ty = match (l.ty.is_opaque() || r.ty.is_opaque(), l.ty == r.ty) {
                (true, _) => PgType::Opaque,
                (false, true) if l.ty == PgType::Unknown => PgType::Text,
                (false, true) => l.ty.clone(),
                (false, false) if l.untyped.is_some() => {
                    read_as(l.untyped.as_ref(), &r.ty)?;
                    r.ty.clone()
                }
                (false, false) if r.untyped.is_some() => {
                    read_as(r.untyped.as_ref(), &l.ty)?;
                    l.ty.clone()
                }
                (false, false) => super::operators::common_type(&l.ty, &r.ty).ok_or_else(|| {
                    datatype_mismatch(format!(
                        "{word} types {} and {} cannot be matched",
                        l.ty.display(),
                        r.ty.display()
                    ))
                })?,
            };
            Ok(QueryColumn {
                column: l.column && r.column && l.ty == r.ty,
                not_null: l.not_null && r.not_null,
                untyped: None,
                scale: common_scale([l.scale, r.scale]).filter(|_| ty == PgType::Numeric),
                ty,
                ..l
            })
        })
        .collect()
}

/// Checks that an untyped literal reads as `ty` (PostgreSQL's error when it
/// does not).
fn read_as(untyped: Option<&Untyped>, ty: &PgType) -> Result<()> {
    match untyped {
        Some(Untyped::Literal(text)) => super::casts::literal(text, ty).map(drop),
        _ => Ok(()),
    }
}

/// `DEFAULT` in `VALUES`.
pub(crate) fn is_default(expr: &Expr) -> bool {
    matches!(expr, Expr::Identifier(i) if i.quote_style.is_none() && i.value.eq_ignore_ascii_case("default"))
}

/// Whether a query calls a function whose value changes from call to call
/// (`random()`, `nextval()`, ...).
fn calls_volatile(query: &Query) -> bool {
    const VOLATILE: &[&str] = &[
        "random",
        "gen_random_uuid",
        "uuid_generate_v4",
        "uuid_generate_v1",
        "uuid_generate_v1mc",
        "gen_random_bytes",
        "nextval",
        "setval",
        "clock_timestamp",
        "timeofday",
    ];
    let visit = sqlparser::ast::visit_expressions(query, |expr| match expr {
        Expr::Function(f)
            if VOLATILE
                .iter()
                .any(|v| super::names::function_name(f).eq_ignore_ascii_case(v)) =>
        {
            std::ops::ControlFlow::Break(())
        }
        _ => std::ops::ControlFlow::Continue(()),
    });
    visit.is_break()
}

/// A side of a set operation as SQLite takes it: no parentheses. A query
/// in parentheses with nothing but its body is its body (a set operation
/// too on the left, where SQLite's left-to-right order keeps the meaning);
/// else it is read from as a subquery.
fn member(side: SetExpr, right: bool) -> SetExpr {
    let SetExpr::Query(query) = side else {
        return side;
    };
    let bare = query.with.is_none()
        && query.order_by.is_none()
        && query.limit_clause.is_none()
        && query.fetch.is_none();
    match &*query.body {
        SetExpr::Select(_) | SetExpr::Values(_) if bare => *query.body,
        SetExpr::SetOperation { .. } if bare && !right => *query.body,
        _ => match select_from(query, "litewire_member") {
            Ok(select) => SetExpr::Select(select),
            Err(query) => SetExpr::Query(query),
        },
    }
}

/// The first item of a select list made an aggregate with the same value
/// (`CASE WHEN count(1) >= 0 THEN item END`), named as it was.
fn aggregate_first_item(items: &mut [SelectItem], columns: Option<&[QueryColumn]>) {
    let always = |expr: Expr| Expr::Case {
        case_token: AttachedToken::empty(),
        end_token: AttachedToken::empty(),
        operand: None,
        conditions: vec![CaseWhen {
            condition: Expr::BinaryOp {
                left: Box::new(call("count", vec![number("1")])),
                op: BinaryOperator::GtEq,
                right: Box::new(number("0")),
            },
            result: expr,
        }],
        else_result: None,
    };
    let Some(first) = items.first_mut() else {
        return;
    };
    *first = match first.clone() {
        SelectItem::ExprWithAlias { expr, alias } => SelectItem::ExprWithAlias {
            expr: always(expr),
            alias,
        },
        SelectItem::UnnamedExpr(expr) => match columns.and_then(|c| c.first()) {
            Some(column) => SelectItem::ExprWithAlias {
                expr: always(expr),
                alias: ident(&column.name),
            },
            None => SelectItem::UnnamedExpr(always(expr)),
        },
        other => other,
    };
}
