//! The translation of one statement: its state (the catalog, the parameters'
//! types as they are learned, the `WITH` queries in scope), what a translated
//! expression is ([`Typed`]), and the entry for each statement it handles.
//!
//! A statement is read with PostgreSQL's rules and written as SQLite SQL that
//! means the same: names resolved, every expression typed, operators and casts
//! chosen by their operands' types, result columns named and typed as
//! PostgreSQL names and types them. What the translation does not handle yet
//! is left to the older, statement-level translation ([`Fail::Unsupported`]).

use sqlparser::ast::Statement as Ast;

use sqlparser::ast::Expr;

use super::catalog::Catalog;
use super::errors::Fail;
use super::scope::ScopeColumn;
use super::types::{Modifier, PgType};
use crate::error::Error;

/// A translated expression: its syntax tree as SQLite reads it, and its
/// PostgreSQL type.
#[derive(Debug, Clone)]
pub(super) struct Typed {
    pub(super) expr: Expr,
    pub(super) ty: PgType,
    /// What an untyped operand is, for the context to read it as a type.
    pub(super) untyped: Option<Untyped>,
    /// The name a result column of this expression gets (see `names`), and
    /// how strongly (1: a fallback such as `case`, 2: a real name).
    pub(super) name: Option<(String, u8)>,
    /// The column it reads as it is: its result column is typed by the
    /// column's declaration (with its modifiers: `varchar(10)`,
    /// `numeric(8,2)`).
    pub(super) column: Option<ColumnRef>,
    /// A `numeric`'s digits after the point where the statement fixes them
    /// (a literal's, a `numeric(p, s)` column's or cast's, arithmetic's over
    /// those: PostgreSQL's display scale); `None` where the value decides.
    pub(super) scale: Option<u32>,
}

/// A column of a relation in FROM, as an expression reads it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ColumnRef {
    /// The relation's name in FROM; `None` for a column `USING` merged.
    pub(super) relation: Option<String>,
    pub(super) name: String,
    pub(super) not_null: bool,
    pub(super) primary_key: bool,
    /// A table's column, read as it is (through subqueries too): SQLite
    /// reports its declared type, which then stands.
    pub(super) declared: bool,
    /// The column's type modifier (`char(8)`, `numeric(10,2)`).
    pub(super) modifier: Option<Modifier>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Untyped {
    /// A string literal's text.
    Literal(String),
    Null,
    /// Parameter `$n`.
    Param(usize),
}

impl Typed {
    pub(super) fn new(expr: Expr, ty: PgType) -> Typed {
        Typed {
            expr,
            ty,
            untyped: None,
            name: None,
            column: None,
            scale: None,
        }
    }

    /// With `scale` as its display scale (see [`Typed::scale`]), if it is
    /// a numeric.
    pub(super) fn scaled(mut self, scale: Option<u32>) -> Typed {
        self.scale = scale.filter(|_| self.ty == PgType::Numeric);
        self
    }

    /// Its display scale as a numeric operand: an integer's is 0.
    pub(super) fn numeric_scale(&self) -> Option<u32> {
        match self.ty {
            PgType::Int2 | PgType::Int4 | PgType::Int8 => Some(0),
            PgType::Numeric => self.scale,
            _ => None,
        }
    }

    pub(super) fn named(mut self, name: impl Into<String>, strength: u8) -> Typed {
        self.name = Some((name.into(), strength));
        self
    }

    /// A `numeric` computed here (not a table's column, not a literal),
    /// which may be text to SQLite: see `build::numeric_key`.
    pub(super) fn computed_numeric(&self) -> bool {
        self.ty == PgType::Numeric
            && !self.column.as_ref().is_some_and(|c| c.declared)
            && !matches!(self.expr, Expr::Value(_) | Expr::UnaryOp { .. })
    }
}

/// The display scale values of these scales share: PostgreSQL shows each
/// numeric with its own, so a column (`CASE`, `UNION`, `coalesce`) has one
/// only where every value has the same.
pub(super) fn common_scale(scales: impl IntoIterator<Item = Option<u32>>) -> Option<u32> {
    let mut scales = scales.into_iter();
    let first = scales.next()??;
    scales.all(|s| s == Some(first)).then_some(first)
}

/// One result column: its name and, where the translation knows it better
/// than SQLite's declared type, its type.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputColumn {
    pub name: String,
    /// `None`: SQLite's declared type stands (a column read as it is, a bare
    /// parameter, something the translation cannot type).
    pub ty: Option<PgType>,
    /// The translation cannot type it: another may.
    pub opaque: bool,
    /// Its type as the translation reads it, even where SQLite's declared
    /// type stands, with a column's modifier (what `CREATE TABLE ... AS`
    /// declares).
    pub pg_type: PgType,
    pub modifier: Option<Modifier>,
}

/// A translated statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Translation {
    /// The statement as SQLite reads it (parameters still `$n`).
    pub statement: Ast,
    /// Its result columns, when the translation knows them all (none for a
    /// statement without rows).
    pub columns: Option<Vec<OutputColumn>>,
    /// The type of each parameter (`$1` first) as the statement uses it.
    pub params: Vec<Option<PgType>>,
}

/// A `WITH` query in scope: its name and columns.
#[derive(Debug, Clone)]
pub(super) struct Cte {
    pub(super) name: String,
    pub(super) columns: Vec<ScopeColumn>,
}

pub(super) struct Translator<'c> {
    pub(super) catalog: &'c dyn Catalog,
    /// Each parameter's type, as declared by the client or learned from use.
    pub(super) params: Vec<Option<PgType>>,
    /// The `WITH` queries in scope, innermost last.
    pub(super) ctes: Vec<Cte>,
    /// Inside an aggregate's arguments: how deep.
    pub(super) aggregate_depth: usize,
    /// An aggregate was called (outside any window) in the select being read.
    pub(super) aggregated: bool,
    /// The columns of the select being read that its expressions read outside
    /// aggregates, when it collects them (see `grouping`).
    pub(super) ungrouped: Option<Vec<ColumnRef>>,
    /// `*` is written as the columns it stands for now (a view's query).
    pub(super) expand_stars: bool,
    /// Every column read is written with its relation's name (an argument of
    /// a SQL function read inside its body's subquery, see `sql_functions`).
    pub(super) qualify_reads: bool,
}

/// Translates a statement the PostgreSQL port received, given the types the
/// client declared for its parameters (`None` where it left one to the
/// server). `Ok(None)`: the translation does not handle it.
pub fn translate(
    statement: &Ast,
    catalog: &dyn Catalog,
    declared: &[Option<PgType>],
) -> std::result::Result<Option<Translation>, Error> {
    run(statement, catalog, declared, false)
}

/// Translates a view's query: as [`translate`] does, with each `*` written
/// as the columns it stands for now, which the view keeps.
pub fn translate_view(
    query: &sqlparser::ast::Query,
    catalog: &dyn Catalog,
) -> std::result::Result<Option<Translation>, Error> {
    run(&Ast::Query(Box::new(query.clone())), catalog, &[], true)
}

fn run(
    statement: &Ast,
    catalog: &dyn Catalog,
    declared: &[Option<PgType>],
    expand_stars: bool,
) -> std::result::Result<Option<Translation>, Error> {
    // Arguments by name (`make_interval(days => 3)`) in their places.
    let positional;
    let statement = match super::named_arguments::resolved(statement)? {
        Some(resolved) => {
            positional = resolved;
            &positional
        }
        None => statement,
    };
    let mut translator = Translator::new(catalog, declared, expand_stars);
    // `WITH ... INSERT INTO t SELECT ...` reads as `INSERT INTO t WITH ...
    // SELECT ...`: the queries of the WITH are the source's to read.
    let inserting;
    let statement = match with_moved_into_insert(statement) {
        Some(insert) => {
            inserting = insert;
            &inserting
        }
        None => statement,
    };
    let translated = match statement {
        Ast::Query(query) => translator.top_query(query),
        Ast::Insert(insert) => translator.insert(insert),
        Ast::Update(update) => translator.update(update),
        Ast::Delete(delete) => translator.delete(delete),
        _ => return Ok(None),
    };
    match translated {
        Ok((mut statement, columns)) => Ok(Some(Translation {
            statement: {
                crate::sql::syntax_tree::exists_with_columns(&mut statement);
                statement
            },
            columns,
            params: translator.params,
        })),
        Err(Fail::Pg(error)) => Err(error),
        Err(Fail::Unsupported(what)) => {
            tracing::trace!(what, "left to the statement-level translation");
            Ok(None)
        }
    }
}

/// `WITH q INSERT INTO t source` as `INSERT INTO t WITH q source`; `None`
/// for any other statement.
fn with_moved_into_insert(statement: &Ast) -> Option<Ast> {
    let Ast::Query(query) = statement else {
        return None;
    };
    let (Some(with), sqlparser::ast::SetExpr::Insert(Ast::Insert(insert))) =
        (&query.with, &*query.body)
    else {
        return None;
    };
    // Only where the source alone reads them (not ON CONFLICT, RETURNING).
    let names: Vec<String> = (with.cte_tables.iter())
        .map(|cte| cte.alias.name.value.to_ascii_lowercase())
        .collect();
    let mut elsewhere = false;
    let mut look = |name: &sqlparser::ast::ObjectName| {
        let read = crate::sql::syntax_tree::idents(name)
            .last()
            .cloned()
            .unwrap_or_default();
        elsewhere |= names.contains(&read.to_ascii_lowercase());
        std::ops::ControlFlow::<()>::Continue(())
    };
    let _ = sqlparser::ast::visit_relations(&insert.on, &mut look);
    let _ = sqlparser::ast::visit_relations(&insert.returning, &mut look);
    if elsewhere {
        return None;
    }
    let mut insert = insert.clone();
    let source = insert.source.as_mut()?;
    match &mut source.with {
        Some(own) => {
            let mut ctes = with.cte_tables.clone();
            ctes.append(&mut own.cte_tables);
            own.cte_tables = ctes;
            own.recursive |= with.recursive;
        }
        None => source.with = Some(with.clone()),
    }
    Some(Ast::Insert(insert))
}

impl<'c> Translator<'c> {
    pub(super) fn new(
        catalog: &'c dyn Catalog,
        declared: &[Option<PgType>],
        expand_stars: bool,
    ) -> Translator<'c> {
        Translator {
            catalog,
            params: declared.to_vec(),
            ctes: Vec::new(),
            aggregate_depth: 0,
            aggregated: false,
            ungrouped: None,
            expand_stars,
            qualify_reads: false,
        }
    }

    /// Parameter `$n` (from 1) used where a value of type `ty` is expected: its
    /// type is learned from the first such use, unless the client declared one.
    pub(super) fn param_type(&mut self, n: usize, ty: Option<&PgType>) -> Option<PgType> {
        if self.params.len() < n {
            self.params.resize(n, None);
        }
        let slot = &mut self.params[n - 1];
        if slot.is_none()
            && let Some(ty) = ty
            && *ty != PgType::Unknown
        {
            *slot = Some(ty.clone());
        }
        slot.clone()
    }

    /// The columns of a `WITH` query named `name`, if one is in scope.
    pub(super) fn cte_named(&self, name: &str) -> Option<&Cte> {
        self.ctes
            .iter()
            .rev()
            .find(|cte| cte.name.eq_ignore_ascii_case(name))
    }
}
