//! The scopes of the inference: which relations a query or statement reads
//! (tables, derived tables, WITH queries), the types of a derived relation's
//! columns, and what a column reference resolves to, innermost query first.

use sqlparser::ast::{
    Expr, FromTable, Query, SelectItem, SetExpr, Statement as Ast, TableAliasColumnDef,
    TableFactor, TableObject, TableWithJoins, UpdateTableFromKind,
};

use super::frame::{Columns, Frame, Source};
use super::functions::function_name;
use super::hint::ParamHint;
use super::inference::Inference;
use crate::sql::syntax_tree::{first_select, last_ident};

impl Inference<'_> {
    /// The type of a column reference: a derived relation's column's, or the
    /// declared type of the column in the first of the tables in scope that has
    /// it (the innermost query's first).
    pub(super) fn column(&self, qualifier: Option<&str>, column: &str) -> Option<ParamHint> {
        let named = |columns: &Columns| {
            columns
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(column))
                .map(|(_, hint)| hint.clone())
        };
        let mut tables: Vec<String> = Vec::new();
        for frame in self.frames.iter().rev() {
            if let Some(qualifier) = qualifier {
                let found = frame
                    .entries
                    .iter()
                    .find(|(name, _)| name.eq_ignore_ascii_case(qualifier));
                match found {
                    Some((_, Source::Table(table))) => tables.push(table.clone()),
                    Some((_, Source::Derived(columns))) => return named(columns).flatten(),
                    None => continue,
                }
                break;
            }
            let derived = frame.entries.iter().find_map(|(_, source)| match source {
                Source::Derived(columns) => named(columns),
                Source::Table(_) => None,
            });
            if let Some(hint) = derived {
                // A table of a nearer query may have the column too.
                if tables.is_empty() {
                    return hint;
                }
                break;
            }
            for (_, source) in &frame.entries {
                if let Source::Table(table) = source
                    && !tables.contains(table)
                {
                    tables.push(table.clone());
                }
            }
        }
        if tables.is_empty() {
            // A qualifier not in scope may still name a table.
            tables.extend(qualifier.map(str::to_owned));
        }
        (!tables.is_empty()).then(|| ParamHint::Column {
            tables,
            column: column.to_owned(),
        })
    }

    /// The relations a query's own SELECTs read (not those of queries nested in
    /// them), after the WITH queries it defines.
    pub(super) fn frame_of_query(&mut self, query: &Query) -> Frame {
        // The WITH queries first, in a frame of their own while the rest is
        // read: each sees the ones before it, and the FROM lists see them all.
        self.frames.push(Frame::default());
        for cte in query.with.iter().flat_map(|with| &with.cte_tables) {
            let columns = self.output_columns(&cte.query, &cte.alias.columns);
            if let Some(frame) = self.frames.last_mut() {
                frame
                    .ctes
                    .push((cte.alias.name.value.to_ascii_lowercase(), columns));
            }
        }
        let mut frame = Frame::default();
        self.add_body(&mut frame, &query.body);
        frame.ctes = self.frames.pop().map(|f| f.ctes).unwrap_or_default();
        frame
    }

    fn add_body(&mut self, frame: &mut Frame, body: &SetExpr) {
        match body {
            SetExpr::Select(select) => self.add_from(frame, &select.from),
            SetExpr::SetOperation { left, right, .. } => {
                self.add_body(frame, left);
                self.add_body(frame, right);
            }
            SetExpr::Query(query) => self.add_body(frame, &query.body),
            _ => {}
        }
    }

    /// The relations an INSERT, UPDATE or DELETE names itself.
    pub(super) fn frame_of_statement(&mut self, statement: &Ast) -> Frame {
        let mut frame = Frame::default();
        match statement {
            Ast::Insert(insert) => {
                if let TableObject::TableName(name) = &insert.table
                    && let Some(table) = last_ident(name)
                {
                    if let Some(alias) = &insert.table_alias {
                        frame.add(&alias.alias.value, Source::Table(table.clone()));
                    }
                    frame.add(&table, Source::Table(table.clone()));
                    // ON CONFLICT ... DO UPDATE reads the proposed row as `excluded`.
                    frame.add("excluded", Source::Table(table));
                }
            }
            Ast::Update(update) => {
                self.add_from(&mut frame, std::slice::from_ref(&update.table));
                if let Some(
                    UpdateTableFromKind::BeforeSet(from) | UpdateTableFromKind::AfterSet(from),
                ) = &update.from
                {
                    self.add_from(&mut frame, from);
                }
            }
            Ast::Delete(delete) => {
                let (FromTable::WithFromKeyword(from) | FromTable::WithoutKeyword(from)) =
                    &delete.from;
                self.add_from(&mut frame, from);
                if let Some(using) = &delete.using {
                    self.add_from(&mut frame, using);
                }
            }
            _ => {}
        }
        frame
    }

    fn add_from(&mut self, frame: &mut Frame, from: &[TableWithJoins]) {
        for table in from {
            self.add_factor(frame, &table.relation);
            for join in &table.joins {
                self.add_factor(frame, &join.relation);
            }
        }
    }

    fn add_factor(&mut self, frame: &mut Frame, factor: &TableFactor) {
        match factor {
            TableFactor::Table { name, alias, .. } => {
                let Some(table) = last_ident(name) else {
                    return;
                };
                let source = match self.cte(frame, &table) {
                    Some(columns) => Source::Derived(columns),
                    None => Source::Table(table.clone()),
                };
                frame.add(alias.as_ref().map_or(&table, |a| &a.name.value), source);
            }
            TableFactor::Derived {
                subquery, alias, ..
            } => {
                let renames = alias.as_ref().map_or(&[][..], |a| &a.columns);
                let columns = self.output_columns(subquery, renames);
                if let Some(alias) = alias {
                    frame.add(&alias.name.value, Source::Derived(columns));
                }
            }
            TableFactor::NestedJoin {
                table_with_joins, ..
            } => self.add_from(frame, std::slice::from_ref(table_with_joins.as_ref())),
            _ => {}
        }
    }

    /// The output columns of the WITH query `name` in scope, nearest first.
    fn cte(&self, frame: &Frame, name: &str) -> Option<Columns> {
        std::iter::once(frame)
            .chain(self.frames.iter().rev())
            .flat_map(|f| f.ctes.iter())
            .find(|(cte, _)| cte.eq_ignore_ascii_case(name))
            .map(|(_, columns)| columns.clone())
    }

    /// A subquery's output columns, named as its select list (or `renames`)
    /// names them, each with its type inferred in the subquery's own scope.
    fn output_columns(&mut self, query: &Query, renames: &[TableAliasColumnDef]) -> Columns {
        let Some(select) = first_select(&query.body) else {
            return Vec::new();
        };
        let frame = self.frame_of_query(query);
        self.frames.push(frame);
        let mut columns: Columns = Vec::new();
        for item in &select.projection {
            let (name, expr) = match item {
                SelectItem::UnnamedExpr(expr) => (output_name(expr), expr),
                SelectItem::ExprWithAlias { expr, alias } => (alias.value.clone(), expr),
                // Whose columns a wildcard stands for is not known here.
                _ => break,
            };
            let hint = self.infer(expr);
            columns.push((name.to_ascii_lowercase(), hint));
        }
        self.frames.pop();
        for ((name, _), rename) in columns.iter_mut().zip(renames) {
            *name = rename.name.value.to_ascii_lowercase();
        }
        columns
    }
}

/// The name PostgreSQL gives an unaliased output column: a column reference's
/// column, a function's name, else `?column?`.
fn output_name(expr: &Expr) -> String {
    match expr {
        Expr::Identifier(ident) => ident.value.clone(),
        Expr::CompoundIdentifier(parts) => parts
            .last()
            .map_or_else(|| "?column?".to_owned(), |p| p.value.clone()),
        Expr::Function(function) => {
            function_name(function).unwrap_or_else(|| "?column?".to_owned())
        }
        Expr::Cast { expr, .. } | Expr::Nested(expr) => output_name(expr),
        _ => "?column?".to_owned(),
    }
}
