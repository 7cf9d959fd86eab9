//! FROM: the relations a query reads, put in its scope: tables and views of
//! the catalog and `WITH` queries by name (a relation the catalog does not
//! know is left to SQLite, its columns unknown), subqueries with the names an
//! alias gives their columns, joins with their conditions, and the columns
//! `USING` and `NATURAL` merge.
//!
//! A query over the emulated catalog (`pg_catalog`, `information_schema`) is
//! left to the statement-level translation, which answers catalog queries as a
//! whole.

use sqlparser::ast::{
    Expr, Join, JoinConstraint, JoinOperator, ObjectName, Query, SelectItem, SetExpr, TableAlias,
    TableFactor, TableWithJoins,
};

use super::build::{derived, ident, parsed_query, parsed_select, query_of};
use super::columns::QueryColumn;
use super::errors::{
    Fail, Result, datatype_mismatch, lateral_reference, not_populated, undefined_table,
};
use super::expressions::alias_name;
use super::scope::{Item, Scope, ScopeColumn};
use super::set_returning::RowFunction;
use super::translator::Translator;
use super::types::PgType;
use crate::sql::syntax_tree::idents;

impl Translator<'_> {
    /// One item of FROM with its joins, put in `scope`.
    pub(super) fn read_from(
        &mut self,
        from: &TableWithJoins,
        scope: &mut Scope,
    ) -> Result<TableWithJoins> {
        let relation = self.table_factor(&from.relation, scope)?;
        let mut joins = Vec::with_capacity(from.joins.len());
        for join in &from.joins {
            joins.push(self.join(join, scope)?);
        }
        Ok(TableWithJoins { relation, joins })
    }

    fn join(&mut self, join: &Join, scope: &mut Scope) -> Result<Join> {
        let left_items = scope.items.len();
        // The right side of a RIGHT or FULL join cannot read the left side
        // (PostgreSQL: 42P01 for a LATERAL reference there).
        let relation = match &join.join_operator {
            JoinOperator::Right(_) | JoinOperator::RightOuter(_) | JoinOperator::FullOuter(_) => {
                let left = std::mem::take(&mut scope.items);
                let merged = std::mem::take(&mut scope.merged);
                let relation = self.table_factor(&join.relation, scope);
                let right = std::mem::replace(&mut scope.items, left);
                scope.items.extend(right);
                scope.merged = merged;
                relation.map_err(|error| {
                    // What the right side missed is on the left.
                    let named = scope.items[..left_items].iter().find(|item| {
                        matches!(&error, Fail::Pg(e) if e.message
                            == format!("missing FROM-clause entry for table \"{}\"", item.name))
                    });
                    match named {
                        Some(item) => lateral_reference(&item.name),
                        None => error,
                    }
                })?
            }
            _ => self.table_factor(&join.relation, scope)?,
        };
        let mut out = join.clone();
        out.relation = relation;
        let constraint = match &join.join_operator {
            JoinOperator::Join(c)
            | JoinOperator::Inner(c)
            | JoinOperator::Left(c)
            | JoinOperator::LeftOuter(c)
            | JoinOperator::Right(c)
            | JoinOperator::RightOuter(c)
            | JoinOperator::FullOuter(c)
            | JoinOperator::CrossJoin(c) => c,
            _ => return Err(Fail::Unsupported("join")),
        };
        let translated = match constraint {
            JoinConstraint::On(condition) => {
                JoinConstraint::On(self.condition(condition, scope, "JOIN/ON")?)
            }
            JoinConstraint::Using(names) => {
                let names: Vec<String> = names
                    .iter()
                    .filter_map(|n| idents(n).last().cloned())
                    .collect();
                let pairs = self.merge(scope, left_items, &names)?;
                merged_on(scope, &join.join_operator, pairs).unwrap_or_else(|| constraint.clone())
            }
            JoinConstraint::Natural => {
                let right = &scope.items[left_items..];
                if scope.items.iter().any(|i| i.open) {
                    return Err(Fail::Unsupported("NATURAL JOIN of unknown columns"));
                }
                let names: Vec<String> = right
                    .iter()
                    .flat_map(|i| i.columns.iter())
                    .filter(|c| {
                        scope.items[..left_items].iter().any(|i| {
                            i.columns
                                .iter()
                                .any(|l| l.name.eq_ignore_ascii_case(&c.name))
                        })
                    })
                    .map(|c| c.name.clone())
                    .collect();
                let pairs = self.merge(scope, left_items, &names)?;
                merged_on(scope, &join.join_operator, pairs).unwrap_or_else(|| constraint.clone())
            }
            other => other.clone(),
        };
        out.join_operator = match &join.join_operator {
            JoinOperator::Join(_) => JoinOperator::Join(translated),
            JoinOperator::Inner(_) => JoinOperator::Inner(translated),
            JoinOperator::Left(_) => JoinOperator::Left(translated),
            JoinOperator::LeftOuter(_) => JoinOperator::LeftOuter(translated),
            JoinOperator::Right(_) => JoinOperator::Right(translated),
            JoinOperator::RightOuter(_) => JoinOperator::RightOuter(translated),
            JoinOperator::FullOuter(_) => JoinOperator::FullOuter(translated),
            _ => JoinOperator::CrossJoin(translated),
        };
        Ok(out)
    }

    /// Columns `USING` (or `NATURAL`) merges: referred to unqualified, and
    /// listed first by `*`. Each merged column's two sides, as expressions.
    fn merge(
        &mut self,
        scope: &mut Scope,
        left_items: usize,
        names: &[String],
    ) -> Result<Vec<Merged>> {
        let mut pairs = Vec::with_capacity(names.len());
        for name in names {
            // Merged already, by a join before this one: merged again.
            if scope
                .merged
                .iter()
                .any(|c| c.name.eq_ignore_ascii_case(name))
            {
                continue;
            }
            let find = |items: &[Item]| {
                items.iter().find_map(|item| {
                    item.columns
                        .iter()
                        .find(|c| c.name.eq_ignore_ascii_case(name))
                        .map(|c| (item.name.clone(), c.clone()))
                })
            };
            let left = find(&scope.items[..left_items]);
            let right = find(&scope.items[left_items..]);
            let (Some((left_item, left)), Some((right_item, right))) = (left, right) else {
                if scope.items.iter().any(|i| i.open) {
                    return Err(Fail::Unsupported("USING of unknown columns"));
                }
                return Err(super::errors::undefined_column(name));
            };
            let ty = match (left.ty.is_opaque(), right.ty.is_opaque()) {
                (false, false) => {
                    super::operators::common_type(&left.ty, &right.ty).ok_or_else(|| {
                        datatype_mismatch(format!(
                            "JOIN/USING types {} and {} cannot be matched",
                            left.ty.display(),
                            right.ty.display()
                        ))
                    })?
                }
                _ => PgType::Opaque,
            };
            scope.merged.push(ScopeColumn::new(left.name.clone(), ty));
            let read = |item: &str, column: &ScopeColumn| {
                column.computed.clone().unwrap_or_else(|| {
                    Expr::CompoundIdentifier(vec![ident(item), ident(&column.name)])
                })
            };
            pairs.push(Merged {
                computed: left.computed.is_some() || right.computed.is_some(),
                left: read(&left_item, &left),
                right: read(&right_item, &right),
            });
        }
        Ok(pairs)
    }

    pub(super) fn table_factor(
        &mut self,
        factor: &TableFactor,
        scope: &mut Scope,
    ) -> Result<TableFactor> {
        match factor {
            TableFactor::Table {
                name,
                alias,
                args: None,
                ..
            } if let Some(sequence) = self.sequence_named(name) => {
                self.sequence_row(&sequence, alias.as_ref(), scope)
            }
            TableFactor::Table {
                name,
                alias,
                args: None,
                ..
            } => {
                let (relation, columns) = self.relation_columns(name)?;
                let item_name = alias.as_ref().map_or(relation, |a| a.name.value.clone());
                let renamed = alias.as_ref().filter(|a| !a.columns.is_empty());
                let Some(alias) = renamed else {
                    scope.items.push(Item {
                        name: item_name,
                        open: columns.is_none(),
                        columns: columns.unwrap_or_default(),
                    });
                    return Ok(factor.clone());
                };
                // `t AS a (x, y)`: SQLite takes no column names there; each
                // renamed column reads the table's by its own name.
                let Some(columns) = columns else {
                    return Err(Fail::Unsupported("renamed columns of an unknown table"));
                };
                if alias.columns.len() > columns.len() {
                    return Err(too_many_columns(
                        "table",
                        &item_name,
                        columns.len(),
                        alias.columns.len(),
                    ));
                }
                let read: Vec<ScopeColumn> = columns
                    .into_iter()
                    .map(|c| ScopeColumn {
                        computed: Some(Expr::CompoundIdentifier(vec![
                            ident(&item_name),
                            ident(&c.name),
                        ])),
                        ..c
                    })
                    .collect();
                scope.items.push(Item {
                    name: item_name,
                    open: false,
                    columns: renamed_scope(read, Some(alias)),
                });
                let mut factor = factor.clone();
                if let TableFactor::Table {
                    alias: Some(alias), ..
                } = &mut factor
                {
                    alias.columns.clear();
                }
                Ok(factor)
            }
            // Packed for each row even when it reads nothing beside it: a
            // name it reads may be a column beside it or one of an enclosing
            // query, which only reading it with the row beside it tells.
            TableFactor::Derived {
                lateral: true,
                subquery,
                alias,
                ..
            } => self.lateral_subquery(subquery, alias.as_ref(), scope),
            TableFactor::Derived {
                lateral,
                subquery,
                alias,
                sample,
            } => {
                let (query, columns) = match lateral {
                    true => self.query(subquery, Some(scope))?,
                    false => self.query(subquery, scope.parent)?,
                };
                let columns: Option<Vec<ScopeColumn>> =
                    columns.map(|c| c.iter().map(QueryColumn::scope_column).collect());
                scope.items.push(Item {
                    name: alias
                        .as_ref()
                        .map_or_else(String::new, |a| a.name.value.clone()),
                    open: columns.is_none(),
                    columns: columns
                        .map(|c| renamed_scope(c, alias.as_ref()))
                        .unwrap_or_default(),
                });
                if let Some(alias) = alias.as_ref().filter(|a| !a.columns.is_empty()) {
                    return renamed_subquery(&query, alias, *lateral);
                }
                Ok(TableFactor::Derived {
                    lateral: *lateral,
                    subquery: Box::new(query),
                    alias: alias.clone(),
                    sample: sample.clone(),
                })
            }
            TableFactor::NestedJoin {
                table_with_joins,
                alias: Some(alias),
            } => self.aliased_join(table_with_joins, alias, scope),
            TableFactor::NestedJoin {
                table_with_joins, ..
            } => {
                // SQLite flattens a parenthesized join, so its ON conditions
                // see the tables after it too: what they name is qualified.
                let was = std::mem::replace(&mut scope.qualify, true);
                let inner = self.read_from(table_with_joins, scope);
                scope.qualify = was;
                let inner = inner?;
                Ok(TableFactor::NestedJoin {
                    table_with_joins: Box::new(inner),
                    alias: None,
                })
            }
            _ if let Some(function) = RowFunction::of(factor)
                && let Some(rows) = self.row_function(&function, scope)? =>
            {
                Ok(rows)
            }
            TableFactor::Table { .. } if let Some(series) = self.series(factor, scope)? => {
                Ok(series)
            }
            _ if let Some(function) = RowFunction::of(factor)
                && let Some(rows) = self.json_rows(&function, scope)? =>
            {
                Ok(rows)
            }
            _ if let Some(function) = RowFunction::of(factor)
                && let Some(rows) = self.function_value(&function, scope)? =>
            {
                Ok(rows)
            }
            TableFactor::Table { name, alias, .. } | TableFactor::Function { name, alias, .. } => {
                // A set-returning function: its columns are SQLite's to know.
                let item_name = alias.as_ref().map_or_else(
                    || idents(name).last().cloned().unwrap_or_default(),
                    |a| a.name.value.clone(),
                );
                scope.items.push(Item {
                    name: item_name,
                    columns: Vec::new(),
                    open: true,
                });
                Ok(factor.clone())
            }
            _ => Err(Fail::Unsupported("table factor")),
        }
    }

    /// `(a JOIN b ...) AS x [(c, ...)]`: the join's columns under the one
    /// name `x`, `a` and `b` hidden, as in PostgreSQL; a subquery for SQLite,
    /// its columns numbered (a join may repeat a name).
    fn aliased_join(
        &mut self,
        join: &TableWithJoins,
        alias: &TableAlias,
        scope: &mut Scope,
    ) -> Result<TableFactor> {
        let mut inner = Scope {
            parent: scope.parent,
            ..Scope::default()
        };
        let read = self.read_from(join, &mut inner)?;
        let columns = inner
            .star(None)?
            .ok_or(Fail::Unsupported("aliased join of unknown columns"))?;
        let name = alias.name.value.clone();
        if alias.columns.len() > columns.len() {
            return Err(too_many_columns(
                "join expression",
                &name,
                columns.len(),
                alias.columns.len(),
            ));
        }
        let mut select = parsed_select("SELECT 1").ok_or(Fail::Unsupported("aliased join"))?;
        select.projection.clear();
        let mut named = Vec::with_capacity(columns.len());
        for (i, (relation, column)) in columns.into_iter().enumerate() {
            let reading = column.computed.clone().unwrap_or_else(|| match &relation {
                Some(relation) => {
                    Expr::CompoundIdentifier(vec![ident(relation), ident(&column.name)])
                }
                None => Expr::Identifier(ident(&column.name)),
            });
            let numbered = format!("litewire_column_{i}");
            select.projection.push(SelectItem::ExprWithAlias {
                expr: reading,
                alias: ident(&numbered),
            });
            named.push(ScopeColumn {
                computed: Some(Expr::CompoundIdentifier(vec![
                    ident(&name),
                    ident(&numbered),
                ])),
                ..column
            });
        }
        select.from = vec![read];
        scope.items.push(Item {
            name: name.clone(),
            columns: renamed_scope(named, Some(alias)),
            open: false,
        });
        let subquery =
            query_of(SetExpr::Select(select)).ok_or(Fail::Unsupported("aliased join"))?;
        Ok(derived(subquery, &name))
    }

    /// The sequence a name in FROM names, where no `WITH` query, table or
    /// view has that name.
    fn sequence_named(&self, name: &ObjectName) -> Option<String> {
        let parts = idents(name);
        let sequence = match parts.as_slice() {
            [sequence] => sequence,
            [schema, sequence] if schema.eq_ignore_ascii_case("public") => sequence,
            _ => return None,
        };
        let known = self.cte_named(sequence).is_some() || self.catalog.relation(sequence).is_some();
        (!known && self.catalog.is_sequence(sequence)).then(|| sequence.to_ascii_lowercase())
    }

    /// A sequence read as a relation: its one row of `last_value`, `log_cnt`
    /// and `is_called`, as PostgreSQL shows it.
    fn sequence_row(
        &mut self,
        sequence: &str,
        alias: Option<&TableAlias>,
        scope: &mut Scope,
    ) -> Result<TableFactor> {
        let name = alias.map_or_else(|| sequence.to_owned(), |a| a.name.value.clone());
        scope.items.push(Item {
            name: name.clone(),
            columns: vec![
                ScopeColumn::new("last_value", PgType::Int8),
                ScopeColumn::new("log_cnt", PgType::Int8),
                ScopeColumn::new("is_called", PgType::Bool),
            ],
            open: false,
        });
        let query = parsed_query(&format!(
            "SELECT last_value, 0 AS log_cnt, is_called FROM main.litewire_sequences WHERE name = {}",
            crate::sql::quote::literal(sequence)
        ));
        let subquery = query.ok_or(Fail::Unsupported("a sequence's row"))?;
        Ok(derived(subquery, &name))
    }

    /// The relation a name in FROM names: a `WITH` query, a table or view of
    /// the catalog. Its name as referred to, and its columns when known.
    pub(super) fn relation_columns(
        &mut self,
        name: &ObjectName,
    ) -> Result<(String, Option<Vec<ScopeColumn>>)> {
        let parts = idents(name);
        let (schema, relation) = match parts.as_slice() {
            [relation] => (None, relation.clone()),
            [schema, relation] => (Some(schema.to_ascii_lowercase()), relation.clone()),
            _ => return Err(Fail::Unsupported("relation name")),
        };
        let lower = relation.to_ascii_lowercase();
        // `information_schema.x` is the catalog's `information_schema_x`.
        let found = match schema.as_deref() {
            None | Some("pg_catalog") => crate::sql::relations::find(&lower),
            Some("information_schema") => {
                crate::sql::relations::find(&format!("information_schema_{lower}"))
            }
            Some(_) => None,
        };
        if let Some(found) = found {
            return Ok((relation, super::catalog_relations::columns(found)));
        }
        if matches!(schema.as_deref(), Some("pg_catalog" | "information_schema"))
            || lower.starts_with("pg_")
            || lower.starts_with("sqlite_")
        {
            return Err(Fail::Unsupported("catalog"));
        }
        if schema.is_none()
            && let Some(cte) = self.cte_named(&relation)
        {
            return Ok((relation, Some(cte.columns.clone())));
        }
        match schema.as_deref() {
            None | Some("public" | "main") => {}
            Some("temp") => return Ok((relation, None)),
            Some(_) => return Err(undefined_table(&parts.join("."))),
        }
        match self.catalog.relation(&relation) {
            Some(found) if found.materialized == Some(false) => Err(not_populated(&found.name)),
            Some(found) => Ok((
                relation,
                Some(
                    found
                        .columns
                        .into_iter()
                        .map(|c| ScopeColumn {
                            name: c.name,
                            ty: c.ty,
                            modifier: c.modifier,
                            not_null: c.not_null,
                            generated: c.generated,
                            primary_key: c.primary_key,
                            declared: c.declared,
                            default: c.default,
                            computed: None,
                            scale: None,
                        })
                        .collect(),
                ),
            )),
            // Not in the catalog the translation was given (a temporary
            // table, one created since): SQLite knows, or says it is missing.
            None => Ok((relation, None)),
        }
    }
}

/// A column `USING` merges: its two sides, and whether either is computed
/// (a renamed column: SQLite's `USING` would not find it by that name).
struct Merged {
    computed: bool,
    left: Expr,
    right: Expr,
}

/// `USING` or `NATURAL` over a computed column, as the `ON` SQLite reads:
/// each merged column then reads its side (both, for a FULL join). `None`
/// where SQLite's own `USING` finds the columns.
fn merged_on(
    scope: &mut Scope,
    operator: &JoinOperator,
    pairs: Vec<Merged>,
) -> Option<JoinConstraint> {
    if !pairs.iter().any(|p| p.computed) {
        return None;
    }
    let first = scope.merged.len() - pairs.len();
    let mut condition: Option<Expr> = None;
    for (pair, merged) in pairs.into_iter().zip(&mut scope.merged[first..]) {
        let equal = Expr::BinaryOp {
            left: Box::new(pair.left.clone()),
            op: sqlparser::ast::BinaryOperator::Eq,
            right: Box::new(pair.right.clone()),
        };
        condition = Some(match condition {
            Some(before) => Expr::BinaryOp {
                left: Box::new(before),
                op: sqlparser::ast::BinaryOperator::And,
                right: Box::new(equal),
            },
            None => equal,
        });
        merged.computed = Some(match operator {
            JoinOperator::Right(_) | JoinOperator::RightOuter(_) => pair.right,
            JoinOperator::FullOuter(_) => {
                super::build::call("coalesce", vec![pair.left, pair.right])
            }
            _ => pair.left,
        });
    }
    condition.map(JoinConstraint::On)
}

/// `(query) AS a(x, y)`: SQLite takes no column names after an alias, but
/// does after a `WITH` query's name.
fn renamed_subquery(query: &Query, alias: &TableAlias, lateral: bool) -> Result<TableFactor> {
    let columns: Vec<String> = alias
        .columns
        .iter()
        .map(|c| ident(&alias_name(&c.name)).to_string())
        .collect();
    let mut query = query.clone();
    crate::sql::syntax_tree::printable(&mut query);
    let sql = format!(
        "SELECT * FROM {}(WITH litewire_renamed ({}) AS ({query}) SELECT * FROM litewire_renamed) AS {}",
        if lateral { "LATERAL " } else { "" },
        columns.join(", "),
        ident(&alias.name.value),
    );
    let parsed = sqlparser::parser::Parser::new(&sqlparser::dialect::PostgreSqlDialect {})
        .try_with_sql(&sql)
        .and_then(|mut p| p.parse_query())
        .map_err(|_| Fail::Unsupported("renamed subquery"))?;
    match *parsed.body {
        SetExpr::Select(select) => select
            .from
            .into_iter()
            .next()
            .map(|from| from.relation)
            .ok_or(Fail::Unsupported("renamed subquery")),
        _ => Err(Fail::Unsupported("renamed subquery")),
    }
}

/// An alias that names more columns than its relation (a table, or a
/// join: `kind`) has (42P10).
fn too_many_columns(kind: &str, relation: &str, available: usize, specified: usize) -> Fail {
    Fail::Pg(crate::error::Error::state(
        crate::error::SqlState::parse("42P10").unwrap_or(crate::error::SqlState::SYNTAX_ERROR),
        format!(
            "{kind} \"{relation}\" has {available} columns available but {specified} columns specified"
        ),
    ))
}

fn renamed_scope(columns: Vec<ScopeColumn>, alias: Option<&TableAlias>) -> Vec<ScopeColumn> {
    let Some(alias) = alias else {
        return columns;
    };
    columns
        .into_iter()
        .enumerate()
        .map(|(i, mut c)| {
            if let Some(renamed) = alias.columns.get(i) {
                c.name = alias_name(&renamed.name);
            }
            c
        })
        .collect()
}
