//! Domains: `CREATE DOMAIN name [AS] type [COLLATE c] [DEFAULT expr]
//! [[CONSTRAINT name] {NOT NULL | NULL | CHECK (condition)}] ...` and `DROP
//! DOMAIN [IF EXISTS] name, ... [CASCADE | RESTRICT]`.
//!
//! A domain is a row of `litewire_domains`, a table made on first use and
//! hidden from the catalog, so domain DDL is transactional and the file stays
//! plain SQLite. A column declared with a domain is stored with the domain's
//! base type (so SQLite keeps its values as the base type's) and carries the
//! domain's rules as CHECK constraints of its own, named
//! `litewire_domain:<domain>` (NOT NULL) and `litewire_domain:<domain>:<check>`:
//! any SQLite tool enforces them, PostgreSQL's errors are told from their
//! names, and the catalog gives the column the domain as its type. The
//! domain's default is the column's when it has none. A value cast to the
//! domain is checked as PostgreSQL checks it (see `postgres::casts`).

use std::ops::ControlFlow;

use sqlparser::ast::{
    CheckConstraint, ColumnDef, ColumnOption, ColumnOptionDef, DataType, Expr, Ident,
    visit_expressions_mut,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::lexer::TokenKind;
use super::matviews::fail;
use super::postgres::{self, Catalog, Domain, PgType};
use super::quote::literal;
use super::schema_names::{split_stored, stored_written};
use super::words::Words;
use crate::error::{Error, SqlState};

/// The table the domains live in.
pub const DOMAINS_TABLE: &str = "litewire_domains";

/// The prefix of the CHECK constraints a domain gives a column.
pub const CHECK_PREFIX: &str = "litewire_domain:";

const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS main.litewire_domains (\
     name TEXT PRIMARY KEY COLLATE NOCASE, base TEXT NOT NULL, not_null INTEGER NOT NULL, \
     default_sql TEXT, checks TEXT NOT NULL)";

/// The statements `CREATE DOMAIN` or `DROP DOMAIN` runs; `None` for any other
/// statement.
pub(super) fn statement(
    text: &str,
    w: &Words,
    catalog: &dyn Catalog,
) -> Option<Result<Vec<String>, Error>> {
    if w.starts_with(&["CREATE", "DOMAIN"]) {
        Some(create(text, w, catalog))
    } else if w.starts_with(&["DROP", "DOMAIN"]) {
        Some(drop(w))
    } else {
        None
    }
}

/// Whether the word at `i` ends a domain's type or default.
fn clause_starts(w: &Words, i: usize) -> bool {
    ["COLLATE", "DEFAULT", "CONSTRAINT", "NOT", "NULL", "CHECK"]
        .iter()
        .any(|kw| w.is(i, kw))
}

/// The text of tokens `from..to`.
fn span<'a>(text: &'a str, w: &Words, from: usize, to: usize) -> &'a str {
    match (
        w.tokens.get(from),
        to.checked_sub(1).and_then(|l| w.tokens.get(l)),
    ) {
        (Some(first), Some(last)) if from < to => &text[first.start..last.end],
        _ => "",
    }
}

/// The index of the first token from `i` at depth 0 where `stop` holds.
fn until(w: &Words, mut i: usize, stop: impl Fn(usize) -> bool) -> usize {
    let mut depth = 0usize;
    while i < w.tokens.len() {
        match w.kind(i) {
            Some(TokenKind::LeftParen) => depth += 1,
            Some(TokenKind::RightParen) => depth = depth.saturating_sub(1),
            _ if depth == 0 && stop(i) => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

fn create(text: &str, w: &Words, catalog: &dyn Catalog) -> Result<Vec<String>, Error> {
    let (written, mut i) = w.name(2).ok_or_else(|| w.syntax_error(2))?;
    let name = stored_written(&written);
    if w.is(i, "AS") {
        i += 1;
    }
    let type_end = until(w, i, |j| clause_starts(w, j));
    let base = span(text, w, i, type_end).trim().to_owned();
    if base.is_empty() {
        return Err(w.syntax_error(i));
    }
    if PgType::from_name(&base).is_none() {
        return Err(Error::state(
            SqlState::UNDEFINED_OBJECT,
            format!("type \"{base}\" does not exist"),
        ));
    }
    i = type_end;
    let mut domain = Domain {
        name: name.clone(),
        base,
        not_null: false,
        default: None,
        checks: Vec::new(),
    };
    while i < w.tokens.len() {
        if w.is(i, "COLLATE") {
            i = w.name(i + 1).ok_or_else(|| w.syntax_error(i + 1))?.1;
        } else if w.is(i, "DEFAULT") {
            // The default's first word is its own, whatever it is (`DEFAULT
            // NULL`).
            let end = until(w, i + 2, |j| clause_starts(w, j) && !w.is(j, "DEFAULT"));
            domain.default = Some(span(text, w, i + 1, end).to_owned());
            i = end;
        } else {
            let mut constraint = None;
            if w.is(i, "CONSTRAINT") {
                let (named, next) = w.name(i + 1).ok_or_else(|| w.syntax_error(i + 1))?;
                constraint = Some(stored_written(&named));
                i = next;
            }
            if w.is(i, "NOT") && w.is(i + 1, "NULL") {
                domain.not_null = true;
                i += 2;
            } else if w.is(i, "NULL") {
                domain.not_null = false;
                i += 1;
            } else if w.is(i, "CHECK") && w.kind(i + 1) == Some(TokenKind::LeftParen) {
                let close = w.closing(i + 1).ok_or_else(|| w.syntax_error(i + 1))?;
                let condition = span(text, w, i + 2, close).to_owned();
                let check_name = constraint.unwrap_or_else(|| {
                    let bare = split_stored(&name, catalog.schemas()).map_or(&*name, |(_, n)| n);
                    unused_name(bare, &domain)
                });
                domain.checks.push((check_name, condition));
                i = close + 1;
            } else {
                return Err(w.syntax_error(i));
            }
        }
    }
    check_rules(&domain, catalog)?;
    let checks = serde_json::to_string(&domain.checks)
        .map_err(|e| Error::state(SqlState::SYNTAX_ERROR, e.to_string()))?;
    Ok(vec![
        CREATE_TABLE.to_owned(),
        fail(
            "42710",
            &format!("type \"{name}\" already exists"),
            &format!(
                "EXISTS (SELECT 1 FROM main.{DOMAINS_TABLE} WHERE name = {})",
                literal(&name)
            ),
        ),
        format!(
            "INSERT INTO main.{DOMAINS_TABLE} (name, base, not_null, default_sql, checks) \
             VALUES ({}, {}, {}, {}, {})",
            literal(&name),
            literal(&domain.base),
            i64::from(domain.not_null),
            domain.default.as_deref().map_or("NULL".to_owned(), literal),
            literal(&checks)
        ),
    ])
}

/// PostgreSQL's name for a domain's next unnamed CHECK: `d_check`,
/// `d_check1`, ..., `bare` being the domain's name without its schema.
fn unused_name(bare: &str, domain: &Domain) -> String {
    (0..)
        .map(|n| match n {
            0 => format!("{bare}_check"),
            n => format!("{bare}_check{n}"),
        })
        .find(|candidate| domain.checks.iter().all(|(name, _)| name != candidate))
        .unwrap_or_default()
}

/// The domain's default and CHECKs read as a column of it would read them,
/// so that a mistake in them fails now, with PostgreSQL's error.
fn check_rules(domain: &Domain, catalog: &dyn Catalog) -> Result<(), Error> {
    let mut column = parsed_column(&format!("\"value\" {}", domain.base))?;
    apply(&mut column, domain)?;
    let create = format!("CREATE TABLE litewire_domain_check ({column})");
    let mut parsed = Parser::parse_sql(&PostgreSqlDialect {}, &create)
        .map_err(|e| Error::state(SqlState::SYNTAX_ERROR, e.to_string()))?;
    if let Some(sqlparser::ast::Statement::CreateTable(table)) = parsed.first_mut() {
        postgres::table_expressions(table, catalog)?;
    }
    Ok(())
}

fn parsed_column(text: &str) -> Result<ColumnDef, Error> {
    Parser::new(&PostgreSqlDialect {})
        .try_with_sql(text)
        .and_then(|mut parser| parser.parse_column_def())
        .map_err(|e| Error::state(SqlState::SYNTAX_ERROR, e.to_string()))
}

fn parsed_expr(text: &str) -> Result<Expr, Error> {
    Parser::new(&PostgreSqlDialect {})
        .try_with_sql(text)
        .and_then(|mut parser| parser.parse_expr())
        .map_err(|e| Error::state(SqlState::SYNTAX_ERROR, e.to_string()))
}

/// `condition` with each `VALUE` in it the expression `value`.
pub fn on_value(condition: &str, value: &Expr) -> Result<Expr, Error> {
    let mut expr = parsed_expr(condition)?;
    let _ = visit_expressions_mut(&mut expr, |e| {
        if let Expr::Identifier(ident) = e
            && ident.quote_style.is_none()
            && ident.value.eq_ignore_ascii_case("value")
        {
            *e = value.clone();
        }
        ControlFlow::<()>::Continue(())
    });
    Ok(expr)
}

/// The domain `data_type` names (a column's, a cast's), if it is one of
/// `catalog`'s.
pub fn domain_of<'c>(data_type: &DataType, catalog: &'c dyn Catalog) -> Option<&'c Domain> {
    let domains = catalog.domains();
    if domains.is_empty() {
        return None;
    }
    let DataType::Custom(name, modifiers) = data_type else {
        return None;
    };
    let last = name.0.last()?.as_ident()?;
    let wanted = match last.quote_style {
        Some(_) => last.value.clone(),
        None => last.value.to_ascii_lowercase(),
    };
    modifiers.is_empty().then_some(())?;
    domains.iter().find(|d| d.name == wanted)
}

/// Each column of a domain as its base type with the domain's rules (see the
/// module's note); whether any was.
pub fn apply_to_columns<'a>(
    columns: impl Iterator<Item = &'a mut ColumnDef>,
    catalog: &dyn Catalog,
) -> Result<bool, Error> {
    let mut changed = false;
    for column in columns {
        if let Some(domain) = domain_of(&column.data_type, catalog) {
            apply(column, domain)?;
            changed = true;
        }
    }
    Ok(changed)
}

/// `column` as the domain's base type, with its rules.
fn apply(column: &mut ColumnDef, domain: &Domain) -> Result<(), Error> {
    let base = parsed_column(&format!("x {}", domain.base))?;
    column.data_type = base.data_type;
    let value = Expr::Identifier(column.name.clone());
    let has_default = column
        .options
        .iter()
        .any(|o| matches!(o.option, ColumnOption::Default(_)));
    if !has_default && let Some(default) = &domain.default {
        column.options.push(ColumnOptionDef {
            name: None,
            option: ColumnOption::Default(parsed_expr(default)?),
        });
    }
    let mut rules = Vec::new();
    if domain.not_null {
        rules.push((
            format!("{CHECK_PREFIX}{}", domain.name),
            Expr::IsNotNull(Box::new(value.clone())),
        ));
    }
    for (name, condition) in &domain.checks {
        rules.push((
            format!("{CHECK_PREFIX}{}:{name}", domain.name),
            on_value(condition, &value)?,
        ));
    }
    for (name, expr) in rules {
        column.options.push(ColumnOptionDef {
            name: Some(Ident::with_quote('"', name)),
            option: ColumnOption::Check(CheckConstraint {
                name: None,
                expr: Box::new(expr),
                no_inherit: false,
                enforced: None,
            }),
        });
    }
    Ok(())
}

/// `DROP DOMAIN [IF EXISTS] a, b [CASCADE | RESTRICT]`. A domain a column
/// uses stays (2BP01), even with CASCADE: dropping the column is the user's
/// call.
fn drop(w: &Words) -> Result<Vec<String>, Error> {
    let mut i = 2;
    let if_exists = w.is(i, "IF") && w.is(i + 1, "EXISTS");
    if if_exists {
        i += 2;
    }
    let (names, end) = w.name_list(i, &["CASCADE", "RESTRICT"]);
    if names.is_empty() {
        return Err(w.syntax_error(i));
    }
    let rest = end + usize::from(w.is(end, "CASCADE") || w.is(end, "RESTRICT"));
    if rest < w.tokens.len() {
        return Err(w.syntax_error(rest));
    }
    let mut script = vec![CREATE_TABLE.to_owned()];
    for written in &names {
        let name = stored_written(written);
        let named = format!("name = {}", literal(&name));
        if !if_exists {
            script.push(fail(
                "42704",
                &format!("type \"{name}\" does not exist"),
                &format!("NOT EXISTS (SELECT 1 FROM main.{DOMAINS_TABLE} WHERE {named})"),
            ));
        }
        script.push(fail(
            "2BP01",
            &format!("cannot drop type {name} because other objects depend on it"),
            &format!(
                "EXISTS (SELECT 1 FROM main.sqlite_schema WHERE type = 'table' \
                 AND (instr(sql, {}) > 0 OR instr(sql, {}) > 0))",
                literal(&format!("\"{CHECK_PREFIX}{name}\"")),
                literal(&format!("\"{CHECK_PREFIX}{name}:"))
            ),
        ));
        script.push(format!("DELETE FROM main.{DOMAINS_TABLE} WHERE {named}"));
    }
    Ok(script)
}

/// The statements that fail with PostgreSQL's error unless a type `name`
/// (folded) of the user's exists: an enum type or a domain.
pub(super) fn type_must_exist(name: &str) -> Vec<String> {
    vec![
        super::enums::CREATE_TABLE.to_owned(),
        CREATE_TABLE.to_owned(),
        fail(
            "42704",
            &format!("type \"{name}\" does not exist"),
            &format!(
                "NOT {} AND NOT EXISTS (SELECT 1 FROM main.{DOMAINS_TABLE} WHERE name = {})",
                super::enums::exists(name),
                literal(name)
            ),
        ),
    ]
}

/// A domain from its row of `litewire_domains`.
pub fn stored(
    name: String,
    base: String,
    not_null: bool,
    default: Option<String>,
    checks: &str,
) -> Option<Domain> {
    Some(Domain {
        name,
        base,
        not_null,
        default,
        checks: serde_json::from_str(checks).ok()?,
    })
}
