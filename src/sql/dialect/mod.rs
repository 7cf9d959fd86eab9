//! PostgreSQL dialect into SQLite, on sqlparser's syntax tree.
//!
//! Statements that look PostgreSQL-specific (see [`wants`]) are parsed with
//! sqlparser's PostgreSQL dialect, rewritten, and printed back as SQLite SQL:
//! - casts (`x::int`, `CAST(x AS varchar(10))`) become SQLite casts, and
//!   `::regclass`/`::regtype`/`::regnamespace` look names up in the catalog;
//! - `~`, `~*`, `!~`, `OPERATOR(pg_catalog.~)` use the `regexp()` function, `ILIKE`
//!   is SQLite's (ASCII case-insensitive) `LIKE`, `COLLATE pg_catalog.default` goes;
//! - `E'...'` strings are unescaped, arrays become PostgreSQL array text built by
//!   litewire's SQL functions, `x = ANY(...)` a membership test;
//! - schema qualifiers `public.` and `pg_catalog.` go (catalog relations are
//!   per-connection temporary tables), `information_schema.x` is
//!   `information_schema_x`;
//! - functions: `now()`, `current_user`, `version()`, `current_setting()`,
//!   `pg_get_indexdef()` and the others psql and drivers call are answered from the
//!   catalog or from litewire's SQL functions;
//! - `CREATE TABLE`: a `serial` or identity column that is the table's primary
//!   key becomes SQLite's auto-assigned `INTEGER PRIMARY KEY`; any other gets a
//!   sequence of its own (see [`sequences`]); non-constant defaults get SQLite's
//!   parentheses;
//! - `nextval('s'::regclass)` and the other sequence functions take the name as
//!   text (the sequence is no catalog relation SQLite could look up);
//! - parenthesised members of `UNION`/`EXCEPT`/`INTERSECT` are made ones SQLite
//!   accepts (see [`set_operations`]).
//!
//! A query over catalog relations that are always empty here (policies, triggers,
//! publications, inheritance, ...) is answered with no rows and its column names
//! without being translated at all: psql asks those questions in syntax SQLite has
//! no equivalent for, and the answer is known.
//!
//! Statements sqlparser cannot parse, and statements the rewrite leaves unchanged,
//! pass through as written: SQLite SQL keeps working.

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, ColumnOption, ColumnOptionDef, DataType, Expr, FunctionArg, FunctionArgExpr,
    FunctionArguments, GeneratedAs, Ident, ObjectName, ObjectNamePart, Query, Select, SelectItem,
    SetExpr, SetOperator, Statement as Ast, TableConstraint, TableFactor, Value, VisitMut,
    VisitorMut,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::lexer::{Token, TokenKind};
use super::quote::identifier;
use super::relations::{self, Contents};
use super::syntax_tree::{first_select, idents, plain_args};

mod alter_table;
mod expressions;
mod result_types;
mod sequences;
mod set_operations;
mod set_returning;

pub(super) use alter_table::statement as alter_table;
pub use alter_table::{AlterAction, AlterTable};
use expressions::{rewrite_expr, type_name};
pub use sequences::relation_name;
use sequences::{OwnedSequence, owned_sequences};
pub(super) use sequences::{restart_owned_sequences, statement as sequence_statement};

/// A translated statement.
#[derive(Debug)]
pub(super) struct Translated {
    pub sql: String,
    /// Whether it reads litewire's catalog relations (which the engine then
    /// brings up to date first).
    pub catalog: bool,
    /// Statements that run with it as one, all or nothing (`sql` among them): a
    /// `CREATE TABLE` whose columns own sequences.
    pub script: Option<Vec<String>>,
    /// The declared type of each result column that SQLite cannot type (the
    /// arrays of `array_agg`, the expressions of catalog queries), by position;
    /// empty when there is none.
    pub column_types: Vec<Option<&'static str>>,
}

/// Words that mark a statement as possibly PostgreSQL-specific. Checked on the
/// tokens the classifier already has, so SQLite SQL pays one pass over its words.
const TRIGGER_WORDS: &[&str] = &[
    "any",
    "array",
    "array_agg",
    "array_to_string",
    "collate",
    "current_catalog",
    "current_database",
    "current_role",
    "current_schema",
    "current_schemas",
    "current_setting",
    "current_user",
    "format_type",
    "gen_random_uuid",
    "identity",
    "ilike",
    "lastval",
    "currval",
    "nextval",
    "setval",
    "information_schema",
    "now",
    "obj_description",
    "col_description",
    "operator",
    "public",
    "serial",
    "bigserial",
    "smallserial",
    "serial2",
    "serial4",
    "serial8",
    "session_user",
    "some",
    "string_agg",
    "to_regclass",
    "to_regtype",
    "unnest",
    "version",
];

/// Whether `tokens` may hold PostgreSQL-only syntax worth a full parse.
pub(super) fn wants(sql: &str, tokens: &[Token]) -> bool {
    tokens.iter().enumerate().any(|(i, t)| match t.kind {
        TokenKind::Word => {
            let word = t.text(sql);
            word.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("pg_"))
                || word
                    .get(..4)
                    .is_some_and(|p| p.eq_ignore_ascii_case("has_"))
                || TRIGGER_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
        }
        TokenKind::String => t.text(sql).starts_with(['E', 'e', '$']),
        TokenKind::Punct => {
            let p = t.text(sql);
            p == "~" || (p == ":" && tokens.get(i + 1).is_some_and(|n| n.text(sql) == ":"))
        }
        _ => false,
    })
}

/// Translates one statement; `None` leaves it as written.
pub(super) fn translate(sql: &str) -> Option<Translated> {
    let mut statements = Parser::parse_sql(&PostgreSqlDialect {}, sql).ok()?;
    let [ast] = statements.as_mut_slice() else {
        return None;
    };
    if let Ast::Query(query) = ast
        && let Some(sql) = known_empty(query)
    {
        return Some(Translated {
            sql,
            catalog: false,
            script: None,
            column_types: Vec::new(),
        });
    }
    // Typed on the statement as written; kept whole only for catalog queries.
    let (catalog_types, plain_types) = match ast {
        Ast::Query(query) => (
            result_types::of(query, true),
            result_types::of(query, false),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let mut rewriter = Rewriter::default();
    let _ = ast.visit(&mut rewriter);
    let mut owned = Vec::new();
    if let Ast::CreateTable(create) = ast {
        // Malformed identity options leave the statement to SQLite, which
        // refuses it.
        let (changed, sequences) = create_table(create)?;
        rewriter.changed |= changed;
        owned = sequences;
    }
    if !owned.is_empty() {
        let mut script = owned_sequences(&owned, false).ok()?;
        let sql = ast.to_string();
        script.push(sql.clone());
        return Some(Translated {
            sql,
            catalog: rewriter.catalog,
            script: Some(script),
            column_types: Vec::new(),
        });
    }
    let column_types = if rewriter.catalog {
        catalog_types
    } else {
        plain_types
    };
    let sql = match (rewriter.changed, rewriter.catalog) {
        (true, _) => ast.to_string(),
        // Unchanged, but it reads catalog relations that must be filled first.
        (false, true) => sql.to_owned(),
        (false, false) => return None,
    };
    Some(Translated {
        sql,
        catalog: rewriter.catalog,
        script: None,
        column_types,
    })
}

#[derive(Default)]
struct Rewriter {
    changed: bool,
    catalog: bool,
}

impl VisitorMut for Rewriter {
    type Break = ();

    fn pre_visit_relation(&mut self, relation: &mut ObjectName) -> ControlFlow<()> {
        let parts = idents(relation);
        let renamed = match parts.as_slice() {
            [schema, name] if is_schema(schema, "information_schema") => {
                Some(format!("information_schema_{name}"))
            }
            [schema, name] if is_schema(schema, "pg_catalog") || is_schema(schema, "public") => {
                Some(name.clone())
            }
            _ => None,
        };
        if let Some(name) = renamed {
            *relation = ObjectName::from(vec![Ident::new(name)]);
            self.changed = true;
        }
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
            if let SelectItem::UnnamedExpr(expr) = item
                && !matches!(expr, Expr::Identifier(_) | Expr::CompoundIdentifier(_))
            {
                let alias = Ident::with_quote('"', expr_name(expr));
                *item = SelectItem::ExprWithAlias {
                    expr: expr.clone(),
                    alias,
                };
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
        self.changed |= set_returning::expand(select);
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
        if let Some(rewrite) = expressions::name_of_reg_cast(expr) {
            *expr = rewrite.expr;
            self.catalog |= rewrite.catalog;
            self.changed = true;
        }
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        self.changed |= set_operations::unwrap_members(&mut query.body);
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

/// An expression's replacement, and whether it reads the catalog.
struct Rewrite {
    expr: Expr,
    catalog: bool,
}

fn plain(sql: String) -> Option<Rewrite> {
    Some(Rewrite {
        expr: parse_expr(&sql)?,
        catalog: false,
    })
}

fn from_catalog(sql: String) -> Option<Rewrite> {
    Some(Rewrite {
        expr: parse_expr(&sql)?,
        catalog: true,
    })
}

fn parse_expr(sql: &str) -> Option<Expr> {
    Parser::new(&PostgreSqlDialect {})
        .try_with_sql(sql)
        .and_then(|mut p| p.parse_expr())
        .ok()
}

/// Set-returning functions in FROM, as the SQLite relations that give the same
/// rows: `unnest(array) [AS] x`, the array's elements as rows of column `x`;
/// `generate_series(start, stop[, step]) [AS] s(n)`, the integers from `start`
/// to `stop`.
fn table_factor(factor: &TableFactor) -> Option<TableFactor> {
    let (function, args, alias, ordinality) = match factor {
        TableFactor::UNNEST {
            array_exprs,
            alias,
            with_ordinality,
            ..
        } => (
            "unnest".to_owned(),
            array_exprs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<String>>(),
            alias,
            *with_ordinality,
        ),
        TableFactor::Table {
            name,
            args: Some(args),
            alias,
            with_ordinality,
            ..
        } => (
            idents(name).last()?.to_ascii_lowercase(),
            args.args.iter().map(ToString::to_string).collect(),
            alias,
            *with_ordinality,
        ),
        _ => return None,
    };
    let name = alias
        .as_ref()
        .map_or_else(|| function.clone(), |a| a.name.value.clone());
    // The column: the alias's column list names it, else the alias itself does.
    let column = alias
        .as_ref()
        .and_then(|a| a.columns.first())
        .map_or_else(|| name.clone(), |c| c.name.value.clone());
    let (name, column) = (identifier(&name), identifier(&column));
    let rows = match (function.as_str(), args.as_slice()) {
        ("unnest", arrays) if !arrays.is_empty() => {
            set_returning::unnest_rows(arrays, alias.as_ref(), &column, ordinality)
        }
        ("generate_series", [start, stop, step @ ..]) if step.len() <= 1 && !ordinality => {
            let step = step.first().map_or("1", String::as_str);
            format!(
                "WITH RECURSIVE litewire_series(n) AS (SELECT {start} UNION ALL SELECT n + ({step}) FROM litewire_series WHERE n + ({step}) <= {stop}) \
                 SELECT n AS {column} FROM litewire_series WHERE n <= {stop}"
            )
        }
        _ => return None,
    };
    from_item(&format!("SELECT * FROM ({rows}) AS {name}"))
}

/// `(VALUES (...), ...) AS t(a, b)`: SQLite names the columns of VALUES
/// `column1`, `column2`, ... and takes no column list after an alias, so the
/// rows are read through a select that names them.
fn named_values(factor: &TableFactor) -> Option<TableFactor> {
    let TableFactor::Derived {
        subquery,
        alias: Some(alias),
        ..
    } = factor
    else {
        return None;
    };
    if alias.columns.is_empty() || !matches!(*subquery.body, SetExpr::Values(_)) {
        return None;
    }
    let columns: Vec<String> = alias
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| format!("column{} AS {}", i + 1, identifier(&c.name.value)))
        .collect();
    from_item(&format!(
        "SELECT * FROM (SELECT {} FROM ({subquery})) AS {}",
        columns.join(", "),
        identifier(&alias.name.value)
    ))
}

/// The one FROM item of `SELECT * FROM <item>`, parsed.
fn from_item(sql: &str) -> Option<TableFactor> {
    let query = Parser::new(&PostgreSqlDialect {})
        .try_with_sql(sql)
        .and_then(|mut p| p.parse_query())
        .ok()?;
    let SetExpr::Select(select) = *query.body else {
        return None;
    };
    select.from.into_iter().next().map(|t| t.relation)
}

/// `CREATE TABLE`: a `serial`/identity column that is the table's one-column
/// primary key becomes SQLite's rowid alias (the only auto-assigned column it
/// has); any other takes its values from a sequence of its own, returned here
/// (see [`sequences`]). Expression defaults are parenthesised as SQLite
/// requires. Returns whether anything changed, and the sequences to create;
/// `None` for identity options that make no sequence.
fn create_table(create: &mut sqlparser::ast::CreateTable) -> Option<(bool, Vec<OwnedSequence>)> {
    let mut changed = false;
    let mut owned = Vec::new();
    let table = folded_last(&create.name);
    let table_key: Option<String> = create.constraints.iter().find_map(|c| match c {
        TableConstraint::PrimaryKey(pk) if pk.columns.len() == 1 => {
            match &pk.columns[0].column.expr {
                Expr::Identifier(ident) => Some(folded(ident)),
                _ => None,
            }
        }
        _ => None,
    });
    for column in &mut create.columns {
        let type_lower = type_name(&column.data_type);
        let serial = matches!(
            type_lower.as_str(),
            "serial" | "serial4" | "bigserial" | "serial8" | "smallserial" | "serial2"
        );
        let mut identity = None;
        column.options.retain(|o| match &o.option {
            ColumnOption::Generated {
                generation_expr: None,
                generated_as,
                sequence_options,
                ..
            } => {
                identity = Some((
                    if matches!(generated_as, GeneratedAs::Always) {
                        'a'
                    } else {
                        'd'
                    },
                    sequence_options.clone().unwrap_or_default(),
                ));
                false
            }
            _ => true,
        });
        if serial || identity.is_some() {
            let name = folded(&column.name);
            let primary_key = table_key.as_deref() == Some(name.as_str())
                || column
                    .options
                    .iter()
                    .any(|o| matches!(o.option, ColumnOption::PrimaryKey(_)));
            changed = true;
            if primary_key {
                column.data_type =
                    DataType::Custom(ObjectName::from(vec![Ident::new("INTEGER")]), vec![]);
            } else {
                let options = match &identity {
                    Some((_, options)) => sequences::Options::from_ast(options).ok()?,
                    None => sequences::Options::default(),
                };
                let sequence = OwnedSequence {
                    table: table.clone(),
                    column: name,
                    column_type: type_lower.clone(),
                    options,
                    identity: identity.as_ref().map(|(kind, _)| *kind),
                };
                if serial {
                    let integer = match type_lower.as_str() {
                        "bigserial" | "serial8" => "BIGINT",
                        "smallserial" | "serial2" => "SMALLINT",
                        _ => "INTEGER",
                    };
                    column.data_type =
                        DataType::Custom(ObjectName::from(vec![Ident::new(integer)]), vec![]);
                }
                // The name as `regclass` text reads it back: quoted unless
                // it is all lower case.
                let name = crate::sql::quote::identifier_as_postgres(&sequence.name());
                if let Some(default) =
                    parse_expr(&format!("(nextval({}))", crate::sql::quote::literal(&name)))
                {
                    column
                        .options
                        .retain(|o| !matches!(o.option, ColumnOption::Default(_)));
                    if !column
                        .options
                        .iter()
                        .any(|o| matches!(o.option, ColumnOption::NotNull))
                    {
                        column.options.push(ColumnOptionDef {
                            name: None,
                            option: ColumnOption::NotNull,
                        });
                    }
                    column.options.push(ColumnOptionDef {
                        name: None,
                        option: ColumnOption::Default(default),
                    });
                    owned.push(sequence);
                }
            }
        }
        for option in &mut column.options {
            if let ColumnOption::Default(expr) = &mut option.option
                && needs_parentheses(expr)
            {
                *expr = Expr::Nested(Box::new(expr.clone()));
                changed = true;
            }
        }
    }
    Some((changed, owned))
}

/// A name as PostgreSQL reads it: unquoted identifiers fold to lower case.
fn folded(ident: &Ident) -> String {
    match ident.quote_style {
        Some(_) => ident.value.clone(),
        None => ident.value.to_ascii_lowercase(),
    }
}

fn folded_last(name: &ObjectName) -> String {
    name.0
        .iter()
        .filter_map(|part| match part {
            ObjectNamePart::Identifier(ident) => Some(folded(ident)),
            ObjectNamePart::Function(_) => None,
        })
        .next_back()
        .unwrap_or_default()
}

fn needs_parentheses(expr: &Expr) -> bool {
    match expr {
        Expr::Value(_) | Expr::Nested(_) | Expr::Identifier(_) => false,
        Expr::UnaryOp { expr, .. } => needs_parentheses(expr),
        Expr::Function(f) => !matches!(f.args, FunctionArguments::None),
        _ => true,
    }
}

/// A query that must return no rows because it reads, at its top level and not
/// through an outer join, a relation that is always empty: answered as
/// `SELECT NULL AS col, ... WHERE false` with the query's column names.
fn known_empty(query: &Query) -> Option<String> {
    if !set_is_empty(&query.body) {
        return None;
    }
    let select = first_select(&query.body)?;
    let names = select
        .projection
        .iter()
        .map(output_name)
        .collect::<Option<Vec<_>>>()?;
    let columns = names
        .iter()
        .map(|n| format!("NULL AS {}", identifier(n)))
        .collect::<Vec<_>>()
        .join(", ");
    Some(format!("SELECT {columns} WHERE false"))
}

fn set_is_empty(body: &SetExpr) -> bool {
    match body {
        SetExpr::Select(select) => select_is_empty(select),
        SetExpr::Query(query) => set_is_empty(&query.body),
        SetExpr::SetOperation {
            op, left, right, ..
        } => match op {
            SetOperator::Union => set_is_empty(left) && set_is_empty(right),
            SetOperator::Intersect => set_is_empty(left) || set_is_empty(right),
            _ => set_is_empty(left),
        },
        _ => false,
    }
}

fn select_is_empty(select: &Select) -> bool {
    use sqlparser::ast::JoinOperator as J;
    select.from.iter().any(|table| {
        is_empty_relation(&table.relation)
            || table.joins.iter().any(|join| {
                matches!(
                    join.join_operator,
                    J::Join(_) | J::Inner(_) | J::CrossJoin(_)
                ) && is_empty_relation(&join.relation)
            })
    })
}

fn is_empty_relation(factor: &TableFactor) -> bool {
    match factor {
        TableFactor::Table {
            name, args: None, ..
        } => idents(name)
            .last()
            .and_then(|n| relations::find(&n.to_ascii_lowercase()))
            .is_some_and(|r| r.contents == Contents::Empty),
        _ => false,
    }
}

/// The name PostgreSQL gives a result column.
fn output_name(item: &SelectItem) -> Option<String> {
    match item {
        SelectItem::ExprWithAlias { alias, .. } => Some(alias.value.clone()),
        SelectItem::UnnamedExpr(expr) => Some(expr_name(expr)),
        _ => None,
    }
}

fn expr_name(expr: &Expr) -> String {
    match expr {
        Expr::Identifier(ident) => ident.value.clone(),
        Expr::CompoundIdentifier(parts) => {
            parts.last().map_or_else(String::new, |p| p.value.clone())
        }
        Expr::Cast {
            expr, data_type, ..
        } => match **expr {
            Expr::Identifier(_) | Expr::CompoundIdentifier(_) => expr_name(expr),
            _ => internal_type_name(&type_name(data_type)),
        },
        Expr::Function(f) => idents(&f.name).last().cloned().unwrap_or_default(),
        Expr::Case { .. } => "case".into(),
        _ => "?column?".into(),
    }
}

/// PostgreSQL's own name for a type (`boolean` is `bool`), as it names the
/// column of a cast.
fn internal_type_name(name: &str) -> String {
    match name {
        "boolean" => "bool",
        "integer" | "int" => "int4",
        "bigint" => "int8",
        "smallint" => "int2",
        "real" => "float4",
        "double precision" | "double" | "float" => "float8",
        "character varying" => "varchar",
        "character" | "char" => "bpchar",
        "decimal" => "numeric",
        "timestamp with time zone" => "timestamptz",
        other => other,
    }
    .to_owned()
}

fn is_schema(part: &str, schema: &str) -> bool {
    part.eq_ignore_ascii_case(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::lexer::tokenize;

    #[test]
    fn sqlite_and_pgbench_statements_skip_the_parser() {
        for sql in [
            "SELECT abalance FROM pgbench_accounts WHERE aid = $1",
            "UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2",
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)",
            "SELECT * FROM t WHERE a = ?1 AND b LIKE 'pg_%'",
            "INSERT OR REPLACE INTO kv VALUES ('now', json('[1]'))",
        ] {
            assert!(!wants(sql, &tokenize(sql)), "{sql}");
        }
        for sql in [
            "SELECT x::int",
            "SELECT * FROM pg_class",
            "SELECT E'a'",
            "SELECT now()",
        ] {
            assert!(wants(sql, &tokenize(sql)), "{sql}");
        }
    }

    fn tr(sql: &str) -> String {
        translate(sql).map_or_else(|| "<unchanged>".into(), |t| t.sql)
    }

    #[test]
    fn unnest_of_several_arrays_in_from() {
        assert_eq!(
            tr(
                "INSERT INTO t (a, b) SELECT * FROM UNNEST(($1)::varchar[], ($2)::integer[]) RETURNING t.id"
            ),
            "INSERT INTO t (a, b) SELECT * FROM (SELECT e0.value AS \"unnest\", e1.value AS \"unnest\" \
             FROM json_each(litewire_array_json(($1))) AS e0 LEFT JOIN json_each(litewire_array_json(($2))) AS e1 \
             ON e1.key = e0.key) AS \"unnest\" RETURNING t.id"
        );
    }

    #[test]
    fn casts() {
        assert_eq!(
            tr("SELECT x::int, CAST(y AS varchar(3))"),
            "SELECT CAST(x AS INT) AS \"x\", CAST(y AS VARCHAR(3)) AS \"y\""
        );
        assert_eq!(
            tr("SELECT x::pg_catalog.text"),
            "SELECT CAST(x AS TEXT) AS \"x\""
        );
        assert_eq!(tr("SELECT 't'::boolean"), "SELECT true AS \"bool\"");
        assert_eq!(tr("SELECT '\\xdead'::bytea"), "SELECT X'dead' AS \"bytea\"");
        assert_eq!(
            tr("SELECT '16384'::regclass"),
            "SELECT 16384 AS \"regclass\""
        );
        assert_eq!(
            tr("SELECT c.oid::pg_catalog.regclass FROM pg_catalog.pg_class c"),
            "SELECT (SELECT litewire_name FROM (SELECT oid AS litewire_oid, relname AS litewire_name FROM pg_class) WHERE litewire_oid = c.oid) AS \"oid\" FROM pg_class c"
        );
    }

    #[test]
    fn operators_and_strings() {
        assert_eq!(
            tr("SELECT 1 WHERE n OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default"),
            "SELECT 1 AS \"?column?\" WHERE regexp('^(t)$', n)"
        );
        assert_eq!(
            tr("SELECT 1 WHERE n !~ '^pg_'"),
            "SELECT 1 AS \"?column?\" WHERE NOT regexp('^pg_', n)"
        );
        assert_eq!(
            tr("SELECT 1 WHERE a ILIKE 'x%'"),
            "SELECT 1 AS \"?column?\" WHERE a LIKE 'x%'"
        );
        assert_eq!(tr("SELECT E'a\\nb'"), "SELECT 'a\nb' AS \"?column?\"");
        assert_eq!(
            tr("SELECT 1 WHERE x = ANY(ARRAY[1, 2])"),
            "SELECT 1 AS \"?column?\" WHERE x IN (1, 2)"
        );
    }

    #[test]
    fn functions_and_names() {
        assert_eq!(tr("SELECT * FROM public.t"), "SELECT * FROM t");
        assert_eq!(
            tr("SELECT table_name FROM information_schema.tables"),
            "SELECT table_name FROM information_schema_tables"
        );
        assert!(tr("SELECT now()").contains("strftime"));
        assert!(translate("SELECT current_user").unwrap().catalog);
        assert_eq!(
            tr("SELECT pg_catalog.lower('A')"),
            "SELECT lower('A') AS \"lower\""
        );
        assert_eq!(tr("SELECT 1 FROM t WHERE now = 1"), "<unchanged>");
        let unchanged_catalog = translate("SELECT count(*) FROM pg_tables").unwrap();
        assert!(unchanged_catalog.catalog);
        assert_eq!(unchanged_catalog.sql, "SELECT count(*) FROM pg_tables");
    }

    #[test]
    fn create_table_serial_and_defaults() {
        assert_eq!(
            tr(
                "CREATE TABLE IF NOT EXISTS t (id serial PRIMARY KEY, ts timestamptz DEFAULT now(), n numeric(10,2))"
            ),
            "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, ts TIMESTAMPTZ DEFAULT (strftime('%Y-%m-%d %H:%M:%f+00', 'now')), n NUMERIC(10,2))"
        );
        assert_eq!(
            tr("CREATE TABLE t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text)"),
            "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"
        );
    }

    #[test]
    fn serial_and_identity_columns_own_sequences() {
        let translated = translate(
            "CREATE TABLE T (id int PRIMARY KEY, n serial, g bigint GENERATED ALWAYS AS IDENTITY (START WITH 5))",
        )
        .unwrap();
        let script = translated.script.unwrap();
        assert!(
            script[0].starts_with("CREATE TABLE IF NOT EXISTS main.litewire_sequences"),
            "{script:?}"
        );
        assert!(
            script.contains(&translated.sql)
                && translated
                    .sql
                    .contains("n INTEGER NOT NULL DEFAULT (nextval('t_n_seq'))")
                && translated
                    .sql
                    .contains("g BIGINT NOT NULL DEFAULT (nextval('t_g_seq'))"),
            "{script:?}"
        );
        assert!(
            script.iter().any(|s| s.contains(
                "SELECT 't_g_seq', 'bigint', 5, 1, 1, 9223372036854775807, 0, 5, 0, random(), 't', 'g', 'a' WHERE NOT EXISTS"
            )),
            "{script:?}"
        );
        // A name with capitals is quoted inside the text, as `regclass` reads it.
        let quoted = translate("CREATE TABLE \"T\" (k text, n serial)").unwrap();
        assert!(
            quoted.sql.contains("DEFAULT (nextval('\"T_n_seq\"'))"),
            "{}",
            quoted.sql
        );
        // The one-column primary key stays SQLite's rowid, with no sequence.
        let rowid = translate("CREATE TABLE p (id serial, v text, PRIMARY KEY (id))").unwrap();
        assert!(rowid.script.is_none());
        assert!(rowid.sql.contains("id INTEGER,"), "{}", rowid.sql);
    }

    #[test]
    fn sequence_functions_name_the_sequence_as_text() {
        assert_eq!(
            tr("SELECT nextval('s'::regclass)"),
            "SELECT (nextval('s') + 0) AS \"nextval\""
        );
        assert_eq!(
            tr("INSERT INTO t VALUES (nextval('public.s'::regclass))"),
            "INSERT INTO t VALUES (nextval('public.s'))"
        );
    }

    #[test]
    fn names_of_reg_casts() {
        for sql in [
            "SELECT 'parent'::regclass::text",
            "SELECT $1::regtype::text",
            "SELECT CAST('16385'::regclass AS varchar)",
        ] {
            let translated = translate(sql).expect("translated");
            assert!(translated.catalog, "{sql}");
            // The outer select reads a name, of the oid the inner one finds.
            assert!(
                translated
                    .sql
                    .starts_with("SELECT (SELECT litewire_name FROM")
                    || translated
                        .sql
                        .starts_with("SELECT format_type((SELECT litewire_oid"),
                "{sql}: {}",
                translated.sql
            );
        }
        // The cast to an oid alone stays an oid.
        assert!(tr("SELECT 'parent'::regclass").starts_with("SELECT (SELECT litewire_oid FROM"));
    }

    #[test]
    fn catalog_queries_as_drivers_write_them() {
        assert_eq!(
            tr(
                "SELECT pg_catalog.pg_class.relname FROM pg_catalog.pg_class WHERE pg_catalog.pg_class.oid > 0"
            ),
            "SELECT pg_class.relname FROM pg_class WHERE pg_class.oid > 0"
        );
        assert_eq!(
            tr("SELECT information_schema.tables.table_name FROM information_schema.tables"),
            "SELECT information_schema_tables.table_name FROM information_schema_tables"
        );
        assert_eq!(
            tr(
                "SELECT c.relname, unnest(i.indkey) AS attnum, generate_subscripts(i.indkey, $1) AS ord FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
            ),
            "SELECT c.relname, litewire_elements.value AS attnum, CASE WHEN $1 = 1 THEN litewire_elements.key + 1 END AS ord \
             FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid, json_each(litewire_array_json(i.indkey)) AS litewire_elements"
        );
        assert_eq!(
            tr(
                "SELECT (information_schema._pg_expandarray(i.indkey)).n AS k, information_schema._pg_expandarray(i.indkey) AS keys FROM pg_index i"
            ),
            "SELECT litewire_elements.key + 1 AS k, '(' || litewire_elements.value || ',' || (litewire_elements.key + 1) || ')' AS keys \
             FROM pg_index i, json_each(litewire_array_json(i.indkey)) AS litewire_elements"
        );
        assert_eq!(
            tr("SELECT (r.keys).x, c.conkey[1] FROM r, pg_constraint c"),
            "SELECT litewire_record_field((r.keys), 1) AS \"?column?\", litewire_array_element(c.conkey, 1) AS \"?column?\" FROM r, pg_constraint c"
        );
        assert_eq!(
            tr("SELECT pos.n FROM pg_catalog.generate_series(1, 32) pos(n)"),
            "SELECT pos.n FROM (WITH RECURSIVE litewire_series (n) AS (SELECT 1 UNION ALL SELECT n + (1) FROM litewire_series WHERE n + (1) <= 32) \
             SELECT n AS \"n\" FROM litewire_series WHERE n <= 32) AS \"pos\""
        );
        assert_eq!(
            tr(
                "SELECT trim(both '\"' from pg_get_indexdef(i.indexrelid, 1, false)) FROM pg_index i"
            ),
            "SELECT TRIM(CASE WHEN (1) = 0 THEN (SELECT litewire_name FROM (SELECT oid AS litewire_oid, definition AS litewire_name FROM litewire_definitions) WHERE litewire_oid = i.indexrelid) \
             ELSE (SELECT litewire_name FROM (SELECT attrelid * 10000 + attnum AS litewire_oid, attname AS litewire_name FROM pg_attribute) WHERE litewire_oid = (i.indexrelid) * 10000 + (1)) END, '\"') AS \"?column?\" FROM pg_index i"
        );
        // A parameter the rewrite does not need stays in the statement.
        assert_eq!(
            tr("SELECT pg_get_constraintdef(c.oid, $1) FROM pg_constraint c"),
            "SELECT CASE WHEN ($1) IS NULL THEN NULL ELSE (SELECT litewire_name FROM (SELECT oid AS litewire_oid, definition AS litewire_name FROM litewire_definitions) WHERE litewire_oid = c.oid) END AS \"pg_get_constraintdef\" FROM pg_constraint c"
        );
        assert_eq!(
            tr(
                "SELECT relname, (SELECT json_build_object('a', polname) FROM pg_policy) FROM pg_class WHERE EXISTS (SELECT 1 FROM pg_inherits)"
            ),
            "SELECT relname, NULL AS \"?column?\" FROM pg_class WHERE false"
        );
        assert_eq!(
            tr(
                "SELECT array_agg(a ORDER BY b), bool_and(c), json_build_object('k', d) FROM t GROUP BY e"
            ),
            "SELECT litewire_array_agg(a ORDER BY b) AS \"array_agg\", min(c) AS \"bool_and\", json_object('k', d) AS \"json_build_object\" FROM t GROUP BY e"
        );
    }

    #[test]
    fn values_with_column_names() {
        assert_eq!(
            tr(
                "INSERT INTO t (a) SELECT p0::INTEGER FROM (VALUES ($1, 0), ($2, 1)) AS imp(p0, n) ORDER BY n"
            ),
            "INSERT INTO t (a) SELECT CAST(p0 AS INTEGER) AS \"p0\" FROM (SELECT column1 AS \"p0\", column2 AS \"n\" FROM (VALUES ($1, 0), ($2, 1))) AS \"imp\" ORDER BY n"
        );
    }

    #[test]
    fn empty_catalog_relations_answer_no_rows() {
        let sql = "SELECT pol.polname, pol.polpermissive, CASE WHEN pol.polroles = '{0}' THEN NULL END, pg_catalog.pg_get_expr(pol.polqual, pol.polrelid) FROM pg_catalog.pg_policy pol WHERE pol.polrelid = '1' ORDER BY 1";
        assert_eq!(
            tr(sql),
            "SELECT NULL AS \"polname\", NULL AS \"polpermissive\", NULL AS \"case\", NULL AS \"pg_get_expr\" WHERE false"
        );
    }
}
