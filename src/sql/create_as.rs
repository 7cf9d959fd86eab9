//! `CREATE TABLE ... AS query` on the PostgreSQL port. SQLite's own form
//! declares the new columns by its affinities (`INT`, `TEXT`, `NUM` or
//! nothing), so a boolean column would come back as `1`, a `char(8)` as
//! text and a timestamptz as an untyped value; PostgreSQL's table has the
//! query's column types. The statement becomes two that run as one: a
//! `CREATE TABLE` declaring the query's PostgreSQL types (a column's
//! modifier kept, as in `char(8)`), and an `INSERT` of the query's rows
//! (none for `WITH NO DATA`).

use sqlparser::ast::{Ident, Statement as Ast};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::dialect;
use super::lexer::{TokenKind, tokenize};
use super::postgres::{self, Catalog, Modifier, OutputColumn, PgType};
use super::quote::unquote_identifier;
use crate::error::{Error, SqlState};

/// The statements that make and fill the table.
pub(super) struct CreateAs {
    pub(super) statements: Vec<String>,
    /// The last statement stores the rows (its completion says how many);
    /// not for `WITH NO DATA`, nor for a table `IF NOT EXISTS` finds.
    pub(super) fills: bool,
    /// The query in SQLite's terms (empty where `IF NOT EXISTS` found the
    /// table).
    pub(super) query: String,
}

/// The statements that make and fill the table, or `None` where the text is
/// not one this reading handles (the statement then runs as SQLite reads it).
pub(super) fn read(text: &str, catalog: &dyn Catalog) -> Result<Option<CreateAs>, Error> {
    let (text, with_data) = data_clause(text);
    let (text, names) = column_names(text);
    let Ok(mut parsed) = Parser::parse_sql(&PostgreSqlDialect {}, &text) else {
        return Ok(None);
    };
    let [Ast::CreateTable(create)] = parsed.as_mut_slice() else {
        return Ok(None);
    };
    let Some(query) = create.query.take() else {
        return Ok(None);
    };
    // `public.t` is `t`: litewire has the one schema.
    let parts = &create.name.0;
    let table = match parts.as_slice() {
        [schema, name]
            if schema
                .as_ident()
                .is_some_and(|s| s.value.eq_ignore_ascii_case("public")) =>
        {
            name.to_string()
        }
        _ => create.name.to_string(),
    };
    if create.if_not_exists
        && let Some(name) = create.name.0.last().and_then(|part| part.as_ident())
        && catalog.relation(&name.value).is_some()
    {
        return Ok(Some(CreateAs {
            statements: Vec::new(),
            fills: false,
            query: String::new(),
        }));
    }
    let Some(translation) = postgres::translate(&Ast::Query(query), catalog, &[])? else {
        return Ok(None);
    };
    let (Some(columns), mut select) = (translation.columns, translation.statement) else {
        return Ok(None);
    };
    let Some(select) = dialect::translate_parsed(&mut select, None) else {
        return Ok(None);
    };
    if select.script.is_some() || !translation.params.is_empty() {
        return Ok(None);
    }
    if names.len() > columns.len() {
        return Err(Error::state(
            SqlState::SYNTAX_ERROR,
            "too many column names were specified",
        ));
    }
    let definitions: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, column)| {
            let name = names.get(i).unwrap_or(&column.name);
            let quoted = Ident::with_quote('"', name.as_str()).to_string();
            match declared(column) {
                Some(ty) => format!("{quoted} {ty}"),
                None => quoted,
            }
        })
        .collect();
    let create_sql = format!(
        "CREATE {}TABLE {}{table} ({})",
        if create.temporary { "TEMP " } else { "" },
        if create.if_not_exists {
            "IF NOT EXISTS "
        } else {
            ""
        },
        definitions.join(", ")
    );
    // The new table's own translation (schema qualifiers, ...).
    let mut statements = match dialect::translate(&create_sql) {
        Some(translated) => translated.script.unwrap_or_else(|| vec![translated.sql]),
        None => vec![create_sql],
    };
    if with_data {
        statements.push(format!(
            "INSERT INTO {table} SELECT * FROM ({})",
            select.sql
        ));
    }
    Ok(Some(CreateAs {
        statements,
        fills: with_data,
        query: select.sql,
    }))
}

/// `SELECT ... INTO [TEMP] t FROM ...` as the `CREATE TABLE t AS SELECT ...`
/// it means; `None` for any other statement.
pub(super) fn select_into(text: &str) -> Option<String> {
    let mut parsed = Parser::parse_sql(&PostgreSqlDialect {}, text).ok()?;
    let [Ast::Query(query)] = parsed.as_mut_slice() else {
        return None;
    };
    let sqlparser::ast::SetExpr::Select(select) = &mut *query.body else {
        return None;
    };
    let into = select.into.take()?;
    let [target] = into.targets.as_slice() else {
        return None;
    };
    let temporary = if into.temporary { "TEMP " } else { "" };
    Some(format!("CREATE {temporary}TABLE {target} AS {query}"))
}

/// The text without a trailing `WITH [NO] DATA`, and whether rows are wanted.
pub(super) fn data_clause(text: &str) -> (&str, bool) {
    let body = text.trim_end().trim_end_matches(';').trim_end();
    let words: Vec<&str> = body.rsplitn(4, char::is_whitespace).collect();
    let is = |word: &str, expected: &str| word.eq_ignore_ascii_case(expected);
    match words.as_slice() {
        [data, no, with, rest] if is(data, "data") && is(no, "no") && is(with, "with") => {
            (rest, false)
        }
        [data, with, ..] if is(data, "data") && is(with, "with") => {
            let cut = body.len() - data.len() - with.len() - 1;
            (body[..cut].trim_end(), true)
        }
        _ => (text, true),
    }
}

/// The text without the new columns' names (`CREATE TABLE t (a, b) AS`),
/// which the parser does not read, and those names.
fn column_names(text: &str) -> (String, Vec<String>) {
    let tokens = tokenize(text);
    // The list comes before the `AS` that starts the query.
    let Some(open) = tokens
        .iter()
        .take_while(|t| !t.is_keyword(text, "AS"))
        .position(|t| t.kind == TokenKind::LeftParen)
    else {
        return (text.to_owned(), Vec::new());
    };
    let Some(close) = tokens[open..]
        .iter()
        .position(|t| t.kind == TokenKind::RightParen)
        .map(|i| open + i)
    else {
        return (text.to_owned(), Vec::new());
    };
    let listed = &tokens[open + 1..close];
    let names: Option<Vec<String>> = listed
        .iter()
        .enumerate()
        .map(|(i, token)| match (i % 2, token.kind) {
            (0, TokenKind::Word) => Some(Some(token.text(text).to_ascii_lowercase())),
            (0, TokenKind::QuotedIdent) => Some(Some(unquote_identifier(token.text(text)))),
            (1, TokenKind::Punct) if token.text(text) == "," => Some(None),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()
        .map(|names| names.into_iter().flatten().collect());
    let followed_by_as = tokens
        .get(close + 1)
        .is_some_and(|t| t.is_keyword(text, "AS"));
    match names {
        Some(names) if followed_by_as && listed.len() % 2 == 1 => {
            let start = tokens[open].start;
            let end = tokens[close].end;
            (format!("{}{}", &text[..start], &text[end..]), names)
        }
        _ => (text.to_owned(), Vec::new()),
    }
}

/// The type a new column is declared with: the query's PostgreSQL type, its
/// modifier kept; none where the translation cannot type it.
pub(super) fn declared(column: &OutputColumn) -> Option<String> {
    Some(with_modifier(spelled(&column.pg_type)?, column.modifier))
}

/// A type's name `base` with its modifier: `numeric(8,2)`, `varchar(10)`.
pub(super) fn with_modifier(base: String, modifier: Option<Modifier>) -> String {
    match modifier {
        Some(Modifier::Length(n)) => format!("{base}({n})"),
        Some(Modifier::Numeric { precision, scale }) => format!("{base}({precision},{scale})"),
        Some(Modifier::Precision(digits)) => format!("{base}({digits})"),
        Some(Modifier::Interval(fields)) => fields.declared(),
        None => base,
    }
}

fn spelled(ty: &PgType) -> Option<String> {
    match ty {
        PgType::Opaque | PgType::Void => None,
        PgType::Other(name) => Some(name.clone()),
        PgType::Array(element) => Some(format!("{}[]", spelled(element)?)),
        // An untyped literal's column is text, as in PostgreSQL.
        other => other.name().map(str::to_owned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_clause_is_read_off_the_end() {
        assert_eq!(
            data_clause("CREATE TABLE t AS SELECT 1 WITH NO DATA;"),
            ("CREATE TABLE t AS SELECT 1", false)
        );
        assert_eq!(
            data_clause("CREATE TABLE t AS SELECT 1 with data"),
            ("CREATE TABLE t AS SELECT 1", true)
        );
        assert_eq!(
            data_clause("CREATE TABLE t AS SELECT data"),
            ("CREATE TABLE t AS SELECT data", true)
        );
    }

    #[test]
    fn column_names_are_read_off_the_head() {
        assert_eq!(
            column_names("CREATE TABLE t (a, \"B\") AS SELECT 1, 2"),
            (
                "CREATE TABLE t  AS SELECT 1, 2".to_owned(),
                vec!["a".to_owned(), "B".to_owned()]
            )
        );
        for unlisted in [
            "CREATE TABLE t AS SELECT f(1)",
            "CREATE TABLE t AS SELECT (a) AS b",
        ] {
            assert_eq!(column_names(unlisted).1, Vec::<String>::new());
        }
    }
}
