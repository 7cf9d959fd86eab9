//! `INSERT`, `UPDATE` and `DELETE`: the values stored made the types of
//! their columns as PostgreSQL makes them (an assignment cast: `'12'` into an
//! integer column is 12, `'abc'` is 22P02, a boolean is 42804), the
//! conditions booleans, and `RETURNING` named and typed as a select list.

use sqlparser::ast::{
    Assignment, AssignmentTarget, Delete, Expr, FromTable, Insert, InsertOverriding, ObjectName,
    OnConflictAction, OnInsert, Query, SelectItem, SetExpr, Statement as Ast, TableFactor,
    TableObject, Values,
};

use super::build::{ident, query_of};
use super::columns::QueryColumn;
use super::errors::{
    Fail, Result, generated_always, generated_column, materialized_view_written, syntax,
    undefined_column_of,
};
use super::queries::is_default;
use super::row_assignment::{RowValue, Target};
use super::scope::{Item, Scope, ScopeColumn};
use super::translator::{OutputColumn, Translator};
use super::types::{ColumnType, PgType};
use super::upsert_rows::refusing_shared_keys;
use crate::sql::syntax_tree::idents;

type Translated = (Ast, Option<Vec<OutputColumn>>);

impl Translator<'_> {
    pub(super) fn insert(&mut self, insert: &Insert) -> Result<Translated> {
        if insert.or.is_some() || insert.replace_into || insert.ignore {
            return Err(Fail::Unsupported("SQLite's INSERT"));
        }
        let TableObject::TableName(name) = &insert.table else {
            return Err(Fail::Unsupported("INSERT target"));
        };
        let (relation, columns) = self.target(name)?;
        if let Some(without) = without_generated(insert, columns.as_deref())? {
            return self.insert(&without);
        }
        let identities = self.identity_columns(&relation);
        let mut out = insert.clone();
        out.overriding = None;
        // The columns values go into, in order, with their types.
        let targets: Option<Vec<ColumnType>> = match (&columns, insert.columns.is_empty()) {
            (Some(columns), true) => Some(
                columns
                    .iter()
                    .filter(|c| !c.generated)
                    .map(|c| (c.ty.clone(), c.modifier))
                    .collect(),
            ),
            (Some(columns), false) => Some(
                insert
                    .columns
                    .iter()
                    .map(|target| {
                        let name = idents(target).last().cloned().unwrap_or_default();
                        columns
                            .iter()
                            .find(|c| c.name.eq_ignore_ascii_case(&name))
                            .map(|c| (c.ty.clone(), c.modifier))
                            .ok_or_else(|| undefined_column_of(&name, &relation))
                    })
                    .collect::<Result<_>>()?,
            ),
            (None, _) => None,
        };
        let mut hoisted = None;
        if let Some(source) = &insert.source {
            let mut source_out = (**source).clone();
            match &*source.body {
                SetExpr::Values(values) if source.with.is_none() && source.order_by.is_none() => {
                    if let Some(targets) = &targets
                        && values.rows.iter().any(|row| row.len() > targets.len())
                    {
                        return Err(syntax(
                            "INSERT has more expressions than target columns".into(),
                        ));
                    }
                    // `DEFAULT` in any row: the column's default, as SQLite
                    // would fill it (NULL where it has none).
                    let target_columns = insert_targets(insert, columns.as_deref());
                    let values = identity_values(
                        values,
                        target_columns.as_deref(),
                        &identities,
                        insert.overriding.as_ref(),
                    )?;
                    let (values, defaults) = without_defaults(&values);
                    let (mut values, _) = self.values(&values, None, targets.as_deref())?;
                    for (row, column) in defaults {
                        let default = match &target_columns {
                            Some(targets) => default_of(targets.get(column).copied())?,
                            None => return Err(Fail::Unsupported("DEFAULT of an unknown table")),
                        };
                        values.rows[row][column] = default;
                    }
                    let width = values.rows.first().map_or(0, |row| row.len());
                    fill_leading(&mut out, columns.as_deref(), width);
                    if let Some((column, default)) = self.rowid_left_out(&relation, insert, &out)? {
                        out.columns.push(column);
                        for row in &mut values.rows {
                            row.push(default.clone());
                        }
                    }
                    let targets = match out.columns.is_empty() {
                        true => fillable(columns.as_deref()),
                        false => out.columns.clone(),
                    };
                    source_out = match refusing_shared_keys(insert, &values, &targets) {
                        Some(checked) => checked,
                        None => Query {
                            body: Box::new(SetExpr::Values(values)),
                            ..source_out
                        },
                    };
                }
                _ => {
                    let target_columns =
                        insert_targets(insert, columns.as_deref()).unwrap_or_default();
                    for column in target_columns {
                        match (identity_of(&identities, &column.name), &insert.overriding) {
                            (Some(_), Some(InsertOverriding::User)) => {
                                return Err(Fail::Unsupported("OVERRIDING USER VALUE of a query"));
                            }
                            (Some('a'), None) => return Err(generated_always(&column.name, false)),
                            _ => {}
                        }
                    }
                    let (query, source_columns) = self.query(source, None)?;
                    if let (Some(targets), Some(source_columns)) = (&targets, &source_columns)
                        && source_columns.len() > targets.len()
                    {
                        return Err(syntax(
                            "INSERT has more expressions than target columns".into(),
                        ));
                    }
                    if let Some(source_columns) = &source_columns {
                        fill_leading(&mut out, columns.as_deref(), source_columns.len());
                    }
                    source_out = match self.rowid_left_out(&relation, insert, &out)? {
                        Some((column, default)) => {
                            out.columns.push(column);
                            numbered(query, default)?
                        }
                        None => query,
                    };
                }
            }
            // SQLite takes `WITH` before `INSERT`, not before its query.
            hoisted = source_out.with.take();
            out.source = Some(Box::new(source_out));
        } else if let Some((column, default)) = self.rowid_default(&relation)? {
            // `DEFAULT VALUES`: the rowid's default too.
            out.columns = vec![ObjectName::from(vec![ident(&column)])];
            out.source = Some(Box::new(one_row(default)?));
        }
        let alias = insert
            .table_alias
            .as_ref()
            .map_or_else(|| relation.clone(), |a| a.alias.value.clone());
        let mut scope = Scope::default();
        scope.items.push(item(&alias, columns.as_deref()));
        if let Some(OnInsert::OnConflict(conflict)) = &insert.on {
            if matches!(conflict.action, OnConflictAction::DoUpdate(_))
                && conflict.conflict_target.is_none()
            {
                return Err(syntax(
                    "ON CONFLICT DO UPDATE requires inference specification or constraint name"
                        .into(),
                ));
            }
            let mut conflict = conflict.clone();
            if let OnConflictAction::DoUpdate(update) = &mut conflict.action {
                let mut conflict_scope = Scope::default();
                conflict_scope.items.push(item(&alias, columns.as_deref()));
                conflict_scope
                    .items
                    .push(item("excluded", columns.as_deref()));
                update.assignments = self.assignments(
                    &update.assignments,
                    &conflict_scope,
                    columns.as_deref(),
                    &relation,
                )?;
                if let Some(condition) = &update.selection {
                    update.selection = Some(self.condition(condition, &conflict_scope, "WHERE")?);
                }
            }
            out.on = Some(OnInsert::OnConflict(conflict));
        }
        let columns = self.returning(&mut out.returning, &scope)?;
        let Some(with) = hoisted else {
            return Ok((Ast::Insert(out), columns));
        };
        let mut query = query_of(SetExpr::Insert(Ast::Insert(out)))
            .ok_or(Fail::Unsupported("INSERT ... WITH"))?;
        query.with = Some(with);
        Ok((Ast::Query(query), columns))
    }

    /// The rowid column the rows leave out, with its default (a `serial`'s
    /// or identity's `nextval`), which the INSERT then gives it, as in
    /// PostgreSQL: SQLite would number the rows itself, never asking the
    /// sequence. `out.columns`: the columns the rows fill, where the INSERT
    /// names none but fills fewer than the table has.
    fn rowid_left_out(
        &self,
        relation: &str,
        insert: &Insert,
        out: &Insert,
    ) -> Result<Option<(ObjectName, Expr)>> {
        let filled = match (insert.columns.is_empty(), out.columns.is_empty()) {
            (false, _) => &insert.columns,
            (true, false) => &out.columns,
            // Every column in the table's order, the rowid's too.
            (true, true) => return Ok(None),
        };
        let Some((column, default)) = self.rowid_default(relation)? else {
            return Ok(None);
        };
        let given = filled.iter().any(|name| {
            idents(name)
                .last()
                .is_some_and(|n| n.eq_ignore_ascii_case(&column))
        });
        Ok((!given).then(|| (ObjectName::from(vec![ident(&column)]), default)))
    }

    /// The table's rowid column with a default (a `serial`'s or identity's
    /// `nextval`): its name, and that default as SQLite evaluates it.
    fn rowid_default(&self, relation: &str) -> Result<Option<(String, Expr)>> {
        let Some(found) = self.catalog.relation(relation) else {
            return Ok(None);
        };
        let Some(rowid) = found
            .columns
            .iter()
            .find(|c| c.rowid && c.default.is_some())
        else {
            return Ok(None);
        };
        let default = default_of(Some(&ScopeColumn {
            default: rowid.default.clone(),
            ..ScopeColumn::new(rowid.name.clone(), rowid.ty.clone())
        }))?;
        Ok(Some((rowid.name.clone(), default)))
    }

    pub(super) fn update(&mut self, update: &sqlparser::ast::Update) -> Result<Translated> {
        if update.or.is_some() || !update.table.joins.is_empty() {
            return Err(Fail::Unsupported("SQLite's UPDATE"));
        }
        let TableFactor::Table { name, alias, .. } = &update.table.relation else {
            return Err(Fail::Unsupported("UPDATE target"));
        };
        let (relation, columns, mut scope) = self.target_scope(name, alias.as_ref())?;
        let mut out = update.clone();
        explicit_alias(&mut out.table.relation);
        if let Some(sqlparser::ast::UpdateTableFromKind::AfterSet(from)) = &update.from {
            // FROM's relations are seen by SET, WHERE and RETURNING; they
            // do not see the target (not even LATERAL), as in PostgreSQL.
            let mut translated = Vec::with_capacity(from.len());
            let mut relations = Scope::default();
            for item in from {
                translated.push(self.read_from(item, &mut relations)?);
            }
            scope.items.extend(relations.items);
            scope.merged.extend(relations.merged);
            out.from = Some(sqlparser::ast::UpdateTableFromKind::AfterSet(translated));
        } else if update.from.is_some() {
            return Err(Fail::Unsupported("UPDATE FROM"));
        }
        out.assignments =
            self.assignments(&update.assignments, &scope, columns.as_deref(), &relation)?;
        if let Some(condition) = &update.selection {
            out.selection = Some(self.condition(condition, &scope, "WHERE")?);
        }
        let columns = self.returning(&mut out.returning, &scope)?;
        Ok((Ast::Update(out), columns))
    }

    pub(super) fn delete(&mut self, delete: &Delete) -> Result<Translated> {
        let FromTable::WithFromKeyword(tables) = &delete.from else {
            return Err(Fail::Unsupported("DELETE without FROM"));
        };
        let [target] = tables.as_slice() else {
            return Err(Fail::Unsupported("DELETE of several tables"));
        };
        if !delete.tables.is_empty() || !target.joins.is_empty() {
            return Err(Fail::Unsupported("DELETE of several tables"));
        }
        let TableFactor::Table { name, alias, .. } = &target.relation else {
            return Err(Fail::Unsupported("DELETE target"));
        };
        let (_, _, scope) = self.target_scope(name, alias.as_ref())?;
        let mut out = delete.clone();
        if let FromTable::WithFromKeyword(tables) = &mut out.from
            && let Some(target) = tables.first_mut()
        {
            explicit_alias(&mut target.relation);
        }
        match &delete.using {
            // `USING` relations join the target in WHERE: the rows deleted
            // are those some row of them matches, which SQLite asks with
            // EXISTS (it has no DELETE ... USING).
            Some(using) => {
                if delete.returning.is_some() {
                    return Err(Fail::Unsupported("DELETE USING ... RETURNING"));
                }
                // They do not see the target, which WHERE joins them to.
                let mut relations = Scope::default();
                let mut from = Vec::with_capacity(using.len());
                for item in using {
                    from.push(self.read_from(item, &mut relations)?);
                }
                // A name both the target and a relation have is ambiguous,
                // as PostgreSQL reads them side by side (the EXISTS below
                // would read the relation's).
                if let Some(condition) = &delete.selection {
                    let side_by_side = Scope {
                        items: (scope.items.iter())
                            .chain(&relations.items)
                            .cloned()
                            .collect(),
                        merged: relations.merged.clone(),
                        ..Scope::default()
                    };
                    self.condition(condition, &side_by_side, "WHERE")?;
                }
                let mut inner = Scope::child(&scope);
                inner.items = relations.items;
                inner.merged = relations.merged;
                let condition = match &delete.selection {
                    Some(condition) => Some(self.condition(condition, &inner, "WHERE")?),
                    None => None,
                };
                let Some(mut select) = super::build::parsed_select("SELECT 1") else {
                    return Err(Fail::Unsupported("DELETE USING"));
                };
                select.from = from;
                select.selection = condition;
                let Some(query) = super::build::query_of(SetExpr::Select(select)) else {
                    return Err(Fail::Unsupported("DELETE USING"));
                };
                out.using = None;
                out.selection = Some(Expr::Exists {
                    subquery: query,
                    negated: false,
                });
            }
            None => {
                if let Some(condition) = &delete.selection {
                    out.selection = Some(self.condition(condition, &scope, "WHERE")?);
                }
            }
        }
        let columns = self.returning(&mut out.returning, &scope)?;
        Ok((Ast::Delete(out), columns))
    }

    /// The identity columns of `relation`, with their kind (`a` for `GENERATED
    /// ALWAYS`, `d` for `BY DEFAULT`).
    fn identity_columns(&self, relation: &str) -> Vec<(String, char)> {
        self.catalog
            .relation(relation)
            .map(|r| {
                r.columns
                    .into_iter()
                    .filter_map(|c| Some((c.name, c.identity?)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The table a statement writes: its name and columns, when known.
    fn target(
        &mut self,
        name: &sqlparser::ast::ObjectName,
    ) -> Result<(String, Option<Vec<ScopeColumn>>)> {
        if let Some(relation) = idents(name).last()
            && let Some(found) = self.catalog.relation(relation)
            && found.materialized.is_some()
        {
            return Err(materialized_view_written(&found.name));
        }
        self.relation_columns(name)
    }

    /// The table an UPDATE or DELETE changes, and the scope that reads it by
    /// its alias or its name.
    fn target_scope(
        &mut self,
        name: &sqlparser::ast::ObjectName,
        alias: Option<&sqlparser::ast::TableAlias>,
    ) -> Result<(String, Option<Vec<ScopeColumn>>, Scope<'static>)> {
        let (relation, columns) = self.target(name)?;
        let alias_name = alias.map_or_else(|| relation.clone(), |a| a.name.value.clone());
        let mut scope = Scope::default();
        scope.items.push(item(&alias_name, columns.as_deref()));
        Ok((relation, columns, scope))
    }

    /// `SET column = value, ...`: each value made its column's type.
    fn assignments(
        &mut self,
        assignments: &[Assignment],
        scope: &Scope,
        columns: Option<&[ScopeColumn]>,
        relation: &str,
    ) -> Result<Vec<Assignment>> {
        let mut out = Vec::with_capacity(assignments.len());
        let column_of = |target: &ObjectName| {
            let name = idents(target).last().cloned().unwrap_or_default();
            match columns {
                Some(columns) => columns
                    .iter()
                    .find(|c| c.name.eq_ignore_ascii_case(&name))
                    .map(Some)
                    .ok_or_else(|| undefined_column_of(&name, relation)),
                None => Ok(None),
            }
        };
        let identities = self.identity_columns(relation);
        let mut assigned: Vec<String> = Vec::new();
        for assignment in assignments {
            // A generated column is computed again whatever sets it: `SET g =
            // DEFAULT` says so (SQLite takes no assignment to it), any other
            // value is 428C9.
            if let AssignmentTarget::ColumnName(target) = &assignment.target
                && let Ok(Some(column)) = column_of(target)
                && column.generated
            {
                if !is_default(&assignment.value) {
                    return Err(generated_column(&column.name, true));
                }
                continue;
            }
            // A `GENERATED ALWAYS` identity column takes no value but its own.
            let values: Vec<Option<&Expr>> = match (&assignment.target, &assignment.value) {
                (AssignmentTarget::ColumnName(_), value) => vec![Some(value)],
                (AssignmentTarget::Tuple(names), Expr::Tuple(values))
                    if names.len() == values.len() =>
                {
                    values.iter().map(Some).collect()
                }
                (AssignmentTarget::Tuple(names), _) => vec![None; names.len()],
            };
            let names = match &assignment.target {
                AssignmentTarget::ColumnName(target) => std::slice::from_ref(target),
                AssignmentTarget::Tuple(names) => names.as_slice(),
            };
            for (name, value) in names.iter().zip(values) {
                let name = idents(name).last().cloned().unwrap_or_default();
                if identity_of(&identities, &name) == Some('a') && !value.is_some_and(is_default) {
                    return Err(generated_always(&name, true));
                }
            }
            let targets = names
                .iter()
                .map(|name| {
                    let column = column_of(name)?;
                    let name = column.map_or_else(
                        || idents(name).last().cloned().unwrap_or_default(),
                        |c| c.name.clone(),
                    );
                    if assigned.iter().any(|a| a.eq_ignore_ascii_case(&name)) {
                        return Err(syntax(format!(
                            "multiple assignments to same column \"{name}\""
                        )));
                    }
                    assigned.push(name);
                    Ok(Target {
                        ty: column.map_or((PgType::Opaque, None), |c| (c.ty.clone(), c.modifier)),
                        default: match column {
                            // SQLite numbers its rowid only in an INSERT.
                            Some(c) if c.primary_key && c.not_null && c.default.is_none() => {
                                super::build::call(
                                    "litewire_error",
                                    vec![
                                        super::build::string("0A000"),
                                        super::build::string(&format!(
                                            "DEFAULT for the key column \"{}\" in an UPDATE is not supported",
                                            c.name
                                        )),
                                    ],
                                )
                            }
                            _ => default_of(column)?,
                        },
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            if let AssignmentTarget::Tuple(names) = &assignment.target {
                let value = RowValue::of(&assignment.value, scope)?;
                out.extend(self.row_assignment(names, &targets, value, scope)?);
                continue;
            }
            out.push(Assignment {
                target: assignment.target.clone(),
                value: self.assigned(&assignment.value, &targets[0], scope)?,
            });
        }
        // Only generated columns set to DEFAULT: the row is written as it is.
        if out.is_empty()
            && let Some(first) = columns.and_then(|c| c.iter().find(|c| !c.generated))
        {
            out.push(Assignment {
                target: AssignmentTarget::ColumnName(ObjectName::from(vec![ident(&first.name)])),
                value: Expr::Identifier(ident(&first.name)),
            });
        }
        Ok(out)
    }

    /// A value assigned to a column: made the column's type, `DEFAULT` its
    /// default.
    pub(super) fn assigned(
        &mut self,
        value: &Expr,
        target: &Target,
        scope: &Scope,
    ) -> Result<Expr> {
        if is_default(value) {
            return Ok(target.default.clone());
        }
        let value = self.expr(value, scope)?;
        Ok(self.assign(value, &target.ty)?.expr)
    }

    /// `RETURNING ...`, as a select list over `scope`.
    fn returning(
        &mut self,
        returning: &mut Option<Vec<sqlparser::ast::SelectItem>>,
        scope: &Scope,
    ) -> Result<Option<Vec<OutputColumn>>> {
        let Some(items) = returning else {
            return Ok(None);
        };
        let list = self.select_list(items, scope)?;
        *items = list.items;
        // SQLite's RETURNING reads the target's columns by their names
        // alone: `t.c` or `alias.c` is `c` there.
        if let Some(target) = scope.items.first() {
            let _ = sqlparser::ast::visit_expressions_mut(items, |expr| {
                if let Expr::CompoundIdentifier(parts) = expr
                    && let [table, column] = parts.as_slice()
                    && table.value.eq_ignore_ascii_case(&target.name)
                {
                    *expr = Expr::Identifier(column.clone());
                }
                std::ops::ControlFlow::<()>::Continue(())
            });
        }
        let columns = list.columns;
        if let Some(columns) = &columns {
            super::shown::show_items(items, columns);
        }
        Ok(columns.map(|c| c.iter().map(QueryColumn::output).collect()))
    }
}

/// Rows of `width` values where the INSERT names no columns and the table
/// has more: the rest take their defaults, as in PostgreSQL (SQLite
/// refuses), so the INSERT names the columns filled.
fn fill_leading(out: &mut Insert, columns: Option<&[ScopeColumn]>, width: usize) {
    let fillable = fillable(columns);
    if out.columns.is_empty() && width < fillable.len() {
        out.columns = fillable[..width].to_vec();
    }
}

/// The names of the columns an INSERT that names none fills, in order.
fn fillable(columns: Option<&[ScopeColumn]>) -> Vec<ObjectName> {
    (columns.iter().copied().flatten())
        .filter(|c| !c.generated)
        .map(|c| ObjectName::from(vec![ident(&c.name)]))
        .collect()
}

/// The target's alias written with `AS`: SQLite reads `UPDATE t x SET` and
/// `DELETE FROM t x` only so.
fn explicit_alias(target: &mut TableFactor) {
    if let TableFactor::Table {
        alias: Some(alias), ..
    } = target
    {
        alias.explicit = true;
    }
}

/// A scope item for a written table.
fn item(name: &str, columns: Option<&[ScopeColumn]>) -> Item {
    Item {
        name: name.to_owned(),
        columns: columns.map(<[ScopeColumn]>::to_vec).unwrap_or_default(),
        open: columns.is_none(),
    }
}

/// The table's columns an INSERT's values go into, in order: its column
/// list's, or the table's (less generated ones).
fn insert_targets<'c>(
    insert: &Insert,
    columns: Option<&'c [ScopeColumn]>,
) -> Option<Vec<&'c ScopeColumn>> {
    let columns = columns?;
    if insert.columns.is_empty() {
        return Some(columns.iter().filter(|c| !c.generated).collect());
    }
    insert
        .columns
        .iter()
        .map(|target| {
            let name = idents(target).last().cloned().unwrap_or_default();
            columns.iter().find(|c| c.name.eq_ignore_ascii_case(&name))
        })
        .collect()
}

fn identity_of(identities: &[(String, char)], column: &str) -> Option<char> {
    identities
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(column))
        .map(|(_, kind)| *kind)
}

/// The rows as an identity column takes them: a value for a `GENERATED
/// ALWAYS` one is refused (428C9) unless `OVERRIDING SYSTEM VALUE`, and with
/// `OVERRIDING USER VALUE` every identity column's value is its default.
fn identity_values(
    values: &Values,
    targets: Option<&[&ScopeColumn]>,
    identities: &[(String, char)],
    overriding: Option<&InsertOverriding>,
) -> Result<Values> {
    let mut values = values.clone();
    let Some(targets) = targets else {
        return Ok(values);
    };
    for (position, column) in targets.iter().enumerate() {
        let Some(kind) = identity_of(identities, &column.name) else {
            continue;
        };
        for row in &mut values.rows {
            let Some(value) = row.get_mut(position) else {
                continue;
            };
            if is_default(value) {
                continue;
            }
            match overriding {
                Some(InsertOverriding::User) => *value = super::build::default_keyword(),
                Some(InsertOverriding::System) => {}
                None if kind == 'a' => return Err(generated_always(&column.name, false)),
                None => {}
            }
        }
    }
    Ok(values)
}

/// The INSERT without the generated columns it writes `DEFAULT` to (SQLite
/// takes no value for them, not even `DEFAULT`), naming the columns it
/// fills; a value other than `DEFAULT` for one is 428C9, as in PostgreSQL.
/// `None` when it writes none.
fn without_generated(insert: &Insert, columns: Option<&[ScopeColumn]>) -> Result<Option<Insert>> {
    let Some(columns) = columns.filter(|c| c.iter().any(|c| c.generated)) else {
        return Ok(None);
    };
    let values = match insert.source.as_deref().map(|s| &*s.body) {
        Some(SetExpr::Values(values)) => Some(values),
        _ => None,
    };
    // The columns written, in order: the list's, or the table's (as many as
    // the longest row fills).
    let written: Vec<&ScopeColumn> = match (insert.columns.is_empty(), values) {
        (false, _) => insert
            .columns
            .iter()
            .filter_map(|target| {
                let name = idents(target).last().cloned().unwrap_or_default();
                columns.iter().find(|c| c.name.eq_ignore_ascii_case(&name))
            })
            .collect(),
        (true, Some(values)) => {
            let width = values.rows.iter().map(|row| row.len()).max().unwrap_or(0);
            columns.iter().take(width).collect()
        }
        (true, None) => return Ok(None),
    };
    if !written.iter().any(|c| c.generated) {
        return Ok(None);
    }
    let Some(values) = values else {
        let column = written.iter().find(|c| c.generated).map_or("", |c| &c.name);
        return Err(generated_column(column, false));
    };
    let mut rows = values.rows.clone();
    for (position, column) in written.iter().enumerate().rev() {
        if !column.generated {
            continue;
        }
        for row in &mut rows {
            match row.get(position) {
                Some(value) if !is_default(value) => {
                    return Err(generated_column(&column.name, false));
                }
                Some(_) => {
                    row.remove(position);
                }
                None => {}
            }
        }
    }
    let mut without = insert.clone();
    without.columns = written
        .iter()
        .filter(|c| !c.generated)
        .map(|c| ObjectName::from(vec![ident(&c.name)]))
        .collect();
    if let Some(source) = &mut without.source {
        *source.body = SetExpr::Values(Values {
            rows,
            ..values.clone()
        });
    }
    Ok(Some(without))
}

/// `VALUES (value)`.
fn one_row(value: Expr) -> Result<Query> {
    let mut query = sqlparser::parser::Parser::new(&sqlparser::dialect::SQLiteDialect {})
        .try_with_sql("VALUES (NULL)")
        .and_then(|mut parser| parser.parse_query())
        .map_err(|_| Fail::Unsupported("an INSERT's row"))?;
    if let SetExpr::Values(values) = &mut *query.body
        && let Some(cell) = values.rows.first_mut().and_then(|row| row.first_mut())
    {
        *cell = value;
    }
    Ok(*query)
}

/// `SELECT *, default FROM (query)`: an INSERT's rows with the value of the
/// rowid column they leave out (see `rowid_left_out`).
fn numbered(query: Query, default: Expr) -> Result<Query> {
    let mut outer = sqlparser::parser::Parser::new(&sqlparser::dialect::SQLiteDialect {})
        .try_with_sql("SELECT *, NULL FROM (SELECT NULL) AS litewire_rows")
        .and_then(|mut parser| parser.parse_query())
        .map_err(|_| Fail::Unsupported("an INSERT's rows"))?;
    if let SetExpr::Select(select) = &mut *outer.body {
        if let Some(SelectItem::UnnamedExpr(value)) = select.projection.get_mut(1) {
            *value = default;
        }
        if let Some(TableFactor::Derived { subquery, .. }) =
            select.from.first_mut().map(|from| &mut from.relation)
        {
            **subquery = query;
        }
    }
    Ok(*outer)
}

/// The rows with each `DEFAULT` made NULL, and where they were.
fn without_defaults(values: &Values) -> (Values, Vec<(usize, usize)>) {
    let mut values = values.clone();
    let mut found = Vec::new();
    for (r, row) in values.rows.iter_mut().enumerate() {
        for (c, value) in row.iter_mut().enumerate() {
            if is_default(value) {
                *value = super::build::null();
                found.push((r, c));
            }
        }
    }
    (values, found)
}

/// A column's default as an expression SQLite evaluates (its own text of
/// it), or NULL.
fn default_of(column: Option<&ScopeColumn>) -> Result<Expr> {
    let Some(text) = column.and_then(|c| c.default.as_deref()) else {
        return Ok(super::build::null());
    };
    sqlparser::parser::Parser::new(&sqlparser::dialect::SQLiteDialect {})
        .try_with_sql(text)
        .and_then(|mut parser| parser.parse_expr())
        .map(super::build::nested)
        .map_err(|_| Fail::Unsupported("a column default SQLite wrote otherwise"))
}
