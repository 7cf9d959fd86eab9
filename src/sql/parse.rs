//! From a query string to the [`Statement`]s it holds.
//!
//! The string is split into statements (see `split`) and each is built on its
//! own: first the recognisers of statements that are not SQLite SQL as written
//! (cursor commands, `SET CONSTRAINTS`, session commands, sequence and enum DDL,
//! the `ALTER TABLE` forms the engine runs by a rebuild, known catalog queries),
//! then the PostgreSQL dialect translation, then the statement-level rewrites,
//! and last the parameters are numbered as SQLite numbers them. Texts parsed
//! lately are not parsed again (see `parsed`).
//!
//! On the PostgreSQL port ([`Dialect::Postgres`]) queries and data changes are
//! first read with PostgreSQL's rules against the schema (see `postgres`);
//! what that reading leaves alone goes the way above.

use std::sync::Arc;

use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::classify::{self, Action, CommandKind};
use super::domains;
use super::explain;
use super::fingerprint::fingerprint;
use super::index_renames;
use super::joined_returning;
use super::lexer::{Token, tokenize};
use super::merge;
use super::modifying_ctes;
use super::param_numbering::number_params;
use super::parsed::Texts;
use super::partitions;
use super::postgres::{self, Catalog};
use super::qualified_operators;
use super::rewrite::Rewrite;
use super::row_locks;
use super::schema_names;
use super::spellings;
use super::split::split;
use super::statement::{Plan, PreparedCommand, Statement};
use super::statement_fields::{cursor_statement, statement};
use super::words::Words;
use super::{
    batch_effects, create_as, cursors, dialect, enums, grants, known_queries, literals, matviews,
    notifications, ownership, parsed, prepared, routines, schemas, session, sort_operators,
    table_locks, table_statements, transaction_modes, translate, variadic_args, views,
};
use crate::error::{Error, ErrorKind};

/// Whose meaning a statement has.
#[derive(Clone, Copy)]
pub enum Dialect<'c> {
    /// SQLite's, with PostgreSQL's spellings of it understood (the HTTP front
    /// ends).
    Sqlite,
    /// PostgreSQL's, over the tables and views `Catalog` knows (the
    /// PostgreSQL port).
    Postgres(&'c dyn Catalog),
}

/// Splits a query string into its statements. Empty statements (`;;`, comments) are
/// dropped; a string with none yields an empty vector.
pub fn parse_batch(sql: &str) -> Result<Vec<Statement>, Error> {
    parse_batch_in(sql, Dialect::Sqlite)
}

/// [`parse_batch`] in `dialect`. On the PostgreSQL port a statement sent as
/// text is read with its integer literals as parameters where that means
/// the same (see `literals`): it runs with them when bound no others.
pub fn parse_batch_in(sql: &str, dialect: Dialect) -> Result<Vec<Statement>, Error> {
    if let Dialect::Postgres(catalog) = dialect {
        // A text seen lately first: then one of its shape.
        let texts = Texts::Postgres(catalog.version());
        if let Some(statements) = parsed::find(sql, texts) {
            return Ok(statements);
        }
        if let Some(statement) = literals::read(sql, catalog.version(), |shape, n| {
            read_shape(shape, n, dialect)
        }) {
            return Ok(vec![statement]);
        }
    }
    parse_texts(sql, dialect)
}

/// [`parse_batch_in`], each text read as it is.
fn parse_texts(sql: &str, dialect: Dialect) -> Result<Vec<Statement>, Error> {
    match dialect {
        Dialect::Sqlite => parsed::cached(sql, Texts::Sqlite, |sql| parse_uncached(sql, dialect)),
        Dialect::Postgres(catalog) => {
            parsed::cached(sql, Texts::Postgres(catalog.version()), |sql| {
                parse_uncached(sql, dialect)
            })
        }
    }
}

/// [`parse_batch_in`] without the texts kept from lately.
pub(super) fn parse_uncached(sql: &str, dialect: Dialect) -> Result<Vec<Statement>, Error> {
    let tokens = tokenize(sql);
    let mut schema_changed = false;
    // A domain made or dropped before: a table's columns may be of it.
    let mut domains_changed = false;
    // `SET search_path` before: the names of what follows are found on the
    // new path.
    let mut path_changed = false;
    split(&tokens, sql)
        .into_iter()
        .map(|range| {
            let (text, tokens) = (&sql[range.0..range.1], &tokens[range.2..range.3]);
            let positioned = rebased(tokens);
            let statement = match (dialect, schema_changed) {
                (Dialect::Postgres(_), _) if path_changed => {
                    let shape = classify::classify(text, &rebased(tokens))?;
                    Statement {
                        read_against: Some((STALE, Arc::from(text))),
                        ..statement(text.into(), &shape, 0, Plan::Nothing)
                    }
                }
                // A new table's expressions read only its own columns (but
                // its schema may be new too: see below).
                (Dialect::Postgres(catalog), true)
                    if batch_effects::creates_table(text, &positioned)
                        && !batch_effects::about_partitions(text, &positioned)
                        && !domains_changed
                        && !schema_names::names_by_schema(text, &rebased(tokens), catalog) =>
                {
                    build(text, tokens, dialect)?
                }
                // SQLite has no materialized views nor SQL functions, and a
                // new one's query is read as PostgreSQL reads it (so is what
                // has PostgreSQL's spellings); a schema the
                // statements before may have made is not known yet: read when
                // it runs.
                (Dialect::Postgres(catalog), true)
                    if batch_effects::about_materialized_view_or_function(text, &positioned)
                        || batch_effects::about_partitions(text, &positioned)
                        || !matches!(spellings::rewritten(text, &positioned), Ok(None))
                        || (domains_changed && batch_effects::makes_columns(text, &positioned))
                        || schema_names::names_by_schema(text, &rebased(tokens), catalog) =>
                {
                    let shape = classify::classify(text, &rebased(tokens))?;
                    Statement {
                        read_against: Some((STALE, Arc::from(text))),
                        ..statement(text.into(), &shape, 0, Plan::Nothing)
                    }
                }
                // The schema it is to be read against is not there yet: the
                // statements before it change it. Read when it runs.
                (Dialect::Postgres(_), true) => {
                    let statement = build(text, tokens, Dialect::Sqlite)?;
                    Statement {
                        read_against: reread(&statement).then(|| (STALE, Arc::from(text))),
                        ..statement
                    }
                }
                _ => build(text, tokens, dialect)?,
            };
            domains_changed |= batch_effects::about_domain(text, &positioned);
            path_changed |= batch_effects::sets_search_path(text, &positioned);
            schema_changed |= statement.writes()
                && !matches!(
                    statement.kind,
                    CommandKind::Insert | CommandKind::Update | CommandKind::Delete
                );
            Ok(statement)
        })
        .collect()
}

/// A statement's tokens, positioned in the statement alone (not the batch).
fn rebased(tokens: &[Token]) -> Vec<Token> {
    let base = tokens.first().map_or(0, |t| t.start);
    let tokens: Vec<Token> = tokens
        .iter()
        .map(|t| Token {
            start: t.start - base,
            end: t.end - base,
            ..*t
        })
        .collect();
    tokens
}

/// `PREPARE` or `EXECUTE` (see `prepared`), read before `build_unlocked` and
/// boxed: a statement held in that frame would make the frame of every
/// statement's reading larger, and it recurses (`COPY (query)`, rewrites).
#[inline(never)]
fn prepared_statement(
    text: &str,
    tokens: &[Token],
    dialect: Dialect,
) -> Option<Result<Box<Statement>, Error>> {
    let words = &Words { sql: text, tokens };
    if !(words.is(0, "PREPARE") || words.is(0, "EXECUTE")) {
        return None;
    }
    let shape = match classify::classify(text, tokens) {
        Ok(shape) => shape,
        Err(error) => return Some(Err(error)),
    };
    let shape = &shape;
    let command = if let Some(prepared) = prepared::prepare(words) {
        prepared.and_then(|(name, start)| {
            let statement = parse_single_in(&text[start..], dialect)?
                .ok_or_else(|| Error::new(ErrorKind::Syntax, "syntax error at end of input"))?;
            Ok(PreparedCommand::Prepare { name, statement })
        })
    } else {
        prepared::execute(words)?
    };
    Some(command.map(|command| {
        Box::new(statement(
            text.into(),
            shape,
            0,
            Plan::Prepared(Arc::new(command)),
        ))
    }))
}

/// A schema version no catalog has: a statement read against it is read
/// again before it runs.
const STALE: u64 = u64::MAX;

/// Whether PostgreSQL's reading of `statement` depends on the schema.
fn reread(statement: &Statement) -> bool {
    let single = matches!(
        statement.kind,
        CommandKind::Select
            | CommandKind::Insert
            | CommandKind::Update
            | CommandKind::Delete
            | CommandKind::CreateTableAs
            | CommandKind::Other("CREATE VIEW")
    ) && statement.plan == Plan::Single;
    // An ALTER TABLE's new expressions read the table's columns, whatever
    // plan runs it.
    single || statement.kind == CommandKind::Other("ALTER TABLE")
}

/// Parses a query string that must hold at most one statement (extended protocol,
/// prepared statements). `None` is the empty query.
pub fn parse_single(sql: &str) -> Result<Option<Statement>, Error> {
    parse_single_in(sql, Dialect::Sqlite)
}

/// [`parse_single`] in `dialect`: the statement takes exactly the parameters
/// it names (a prepared statement's are the client's to bind).
pub fn parse_single_in(sql: &str, dialect: Dialect) -> Result<Option<Statement>, Error> {
    // A statement's reading recurses (a cursor's or COPY's query, a prepared
    // statement's, rewrites), on more stack as it needs it.
    let mut statements =
        stacker::maybe_grow(256 * 1024, 4 * 1024 * 1024, || parse_texts(sql, dialect))?;
    match statements.len() {
        0 => Ok(None),
        1 => Ok(statements.pop()),
        _ => Err(Error::new(
            ErrorKind::Syntax,
            "cannot insert multiple commands into a prepared statement",
        )),
    }
}

/// Classifies one statement, translates what SQLite does not speak and rewrites
/// `$N` to `?N`. `tokens` are positioned in the whole batch; `text` is this
/// statement alone.
fn build(text: &str, tokens: &[Token], dialect: Dialect) -> Result<Statement, Error> {
    let tokens = rebased(tokens);
    let statement = build_rebased(text, &tokens, dialect)?;
    Ok(Statement {
        fingerprint: Some(Arc::new(fingerprint(text, &tokens, false))),
        ..statement
    })
}

/// [`build`], with `tokens` positioned in `text`.
fn build_rebased(text: &str, tokens: &[Token], dialect: Dialect) -> Result<Statement, Error> {
    // A cursor's or COPY's query means what it would mean on its own.
    let parse_query = |sql: &str| parse_single_in(sql, dialect);
    if let Some(command) = cursors::recognise(text, tokens, &parse_query)? {
        return Ok(cursor_statement(text, command));
    }
    if let Some(prepared) = prepared_statement(text, tokens, dialect) {
        return prepared.map(|boxed| *boxed);
    }
    if matches!(dialect, Dialect::Postgres(_))
        && let Some(plain) = spellings::rewritten(text, tokens)?
    {
        return build_rebased(&plain, &tokenize(&plain), dialect);
    }
    if matches!(dialect, Dialect::Postgres(_))
        && let Some(plain) = qualified_operators::unqualified(text, tokens)
    {
        return build_rebased(&plain, &tokenize(&plain), dialect);
    }
    let statement = match dialect {
        Dialect::Postgres(catalog) => match schema_names::resolved(text, tokens, catalog) {
            Some(stored) => build_resolved(&stored, &tokenize(&stored), dialect)?,
            None => build_resolved(text, tokens, dialect)?,
        },
        Dialect::Sqlite => build_resolved(text, tokens, dialect)?,
    };
    // What PostgreSQL's reading of it depends on; read again, it is the text
    // as written (its names found again, on the path of then).
    let read_against = match dialect {
        Dialect::Postgres(catalog) if reread(&statement) => {
            Some((catalog.version(), Arc::from(text)))
        }
        _ => None,
    };
    Ok(Statement {
        read_against,
        ..statement
    })
}

/// [`build_rebased`], with every name in its schema's SQLite name.
fn build_resolved(text: &str, tokens: &[Token], dialect: Dialect) -> Result<Statement, Error> {
    // A query's row locks are the engine's to take: the rest is the statement.
    let statement = match row_locks::strip(text, tokens)? {
        Some((unlocked, lock)) => {
            let tokens = tokenize(&unlocked);
            let stmt = build_unlocked(&unlocked, &tokens, dialect)?;
            Statement {
                row_lock: Some(lock),
                ..stmt
            }
        }
        None => build_unlocked(text, tokens, dialect)?,
    };
    Ok(statement)
}

/// [`build`] of a statement without row locks.
fn build_unlocked(text: &str, tokens: &[Token], dialect: Dialect) -> Result<Statement, Error> {
    let tokens = tokens.to_vec();
    let shape = classify::classify(text, &tokens)?;
    if shape.action == Action::Begin {
        let begin = transaction_modes::begin(text, &tokens)?;
        return Ok(statement(text.into(), &shape, 0, Plan::Begin(begin)));
    }
    if matches!(shape.action, Action::Commit | Action::Rollback)
        && transaction_modes::chains(text, &tokens)?
    {
        return Ok(statement(text.into(), &shape, 0, Plan::Chain));
    }
    if let Some(command) = notifications::recognise(text, &tokens)? {
        return Ok(statement(
            text.into(),
            &shape,
            0,
            Plan::Notify(Arc::new(command)),
        ));
    }
    if let Some(pragma) = translate::set_constraints(text, &tokens) {
        // It changes the writer's transaction, so it runs where writes do.
        return Ok(Statement {
            action: Action::Write,
            ..statement(
                text.into(),
                &shape,
                0,
                Plan::Script(Arc::from([Arc::from(pragma)])),
            )
        });
    }
    if let Some(command) = session::recognise(text, &tokens)? {
        return Ok(Statement {
            returns_rows: command.returns_rows(),
            ..statement(text.into(), &shape, 0, Plan::Session(command))
        });
    }
    let words = Words {
        sql: text,
        tokens: &tokens,
    };
    if let Dialect::Postgres(_) = dialect
        && let Some(explained) =
            explain::statement(&words, &|sql| build_unlocked(sql, &tokenize(sql), dialect))
    {
        return explained;
    }
    if let Some(plan) = index_renames::statement(&words) {
        let plan = statement(text.into(), &shape, 0, plan?);
        return Ok(Statement {
            action: Action::Write,
            ..plan
        });
    }
    if matches!(dialect, Dialect::Postgres(_))
        && let Some(rename) = schemas::rename_statement(&words)
    {
        return Ok(Statement {
            action: Action::Write,
            ..statement(
                text.into(),
                &shape,
                0,
                Plan::RenameSchema(Arc::new(rename?)),
            )
        });
    }
    if let Dialect::Postgres(catalog) = dialect
        && let Some(plan) = partitions::statement(&words, catalog, &|sql| {
            build_unlocked(sql, &tokenize(sql), dialect)
        })
    {
        let plan = statement(text.into(), &shape, 0, plan?);
        return Ok(Statement {
            action: Action::Write,
            ..plan
        });
    }
    if let Dialect::Postgres(catalog) = dialect
        && let Some(script) = schemas::statement(&words, catalog)
            .or_else(|| routines::statement(text, &words, catalog))
            .or_else(|| domains::statement(text, &words, catalog))
    {
        let plan = Plan::Script(script?.iter().map(|p| Arc::from(p.as_str())).collect());
        return Ok(statement(text.into(), &shape, 0, plan));
    }
    if let Some(rewrite) = ownership::statement(&words)
        .or_else(|| grants::statement(&words))
        .or_else(|| table_locks::statement(&words).map(|checks| checks.map(Rewrite::script)))
    {
        let rewrite = rewrite?;
        return Ok(statement(rewrite.sql.into(), &shape, 0, rewrite.plan));
    }
    if let Some(parts) = dialect::sequence_statement(text, &tokens)? {
        return Ok(statement(
            parts.join("; ").into(),
            &shape,
            0,
            Plan::Script(parts.into_iter().map(Arc::from).collect()),
        ));
    }
    if let Some(change) = enums::statement(text, &tokens)? {
        return Ok(Statement {
            action: Action::Write,
            ..statement(text.into(), &shape, 0, Plan::Enum(Arc::new(change)))
        });
    }
    if let Some(change) = dialect::identity_statement(text, &tokens)? {
        let plan = match change {
            dialect::IdentityChange::Rebuild(alter) => Plan::Rebuild(Arc::new(alter)),
            dialect::IdentityChange::Script(parts) => {
                Plan::Script(parts.into_iter().map(Arc::from).collect())
            }
        };
        return Ok(Statement {
            action: Action::Write,
            ..statement(text.into(), &shape, 0, plan)
        });
    }
    if let Dialect::Postgres(catalog) = dialect
        && let Some(read) = table_statements::alter_table(text, &tokens, catalog)?
    {
        return build_unlocked(&read, &tokenize(&read), dialect);
    }
    if let Some(alter) = dialect::alter_table(text, &tokens)? {
        return Ok(statement(
            text.into(),
            &shape,
            0,
            Plan::Rebuild(Arc::new(alter)),
        ));
    }
    if let Some(sql) = known_queries::recognise(text, &tokens) {
        return Ok(Statement {
            catalog: true,
            ..statement(sql.into(), &shape, 0, Plan::Single)
        });
    }
    if let Dialect::Postgres(_) = dialect
        && let Some(sorted) = sort_operators::rewrite(text, &tokens)
    {
        return build_unlocked(&sorted, &tokenize(&sorted), dialect);
    }
    if let Dialect::Postgres(_) = dialect
        && let Some(named) = variadic_args::rewrite(text, &tokens)
    {
        return build_unlocked(&named, &tokenize(&named), dialect);
    }
    // `TABLE t ...` is `SELECT * FROM t ...` (the parser reads it only
    // inside a set operation).
    if let (Dialect::Postgres(_), Some(first)) = (dialect, tokens.first())
        && first.is_keyword(text, "TABLE")
    {
        let select = format!("SELECT * FROM{}", &text[first.end..]);
        return build_unlocked(&select, &tokenize(&select), dialect);
    }
    // `SELECT ... INTO t` makes a table as `CREATE TABLE t AS` does.
    if let Dialect::Postgres(_) = dialect
        && shape.kind == CommandKind::Select
        && tokens.iter().any(|t| t.is_keyword(text, "INTO"))
        && let Some(create) = create_as::select_into(text)
    {
        return build_unlocked(&create, &tokenize(&create), dialect);
    }
    if let Dialect::Postgres(catalog) = dialect
        && let Some(matview) = matviews::statement(text, &words, catalog)
    {
        let matview = matview?;
        // With its rows stored, PostgreSQL's tag counts them.
        let shape = match matview.fills {
            true => classify::Shape {
                kind: CommandKind::CreateTableAs,
                ..shape
            },
            false => shape,
        };
        let parts = matview.statements;
        let plan = match parts.is_empty() {
            true => Plan::Nothing,
            false => Plan::Script(parts.iter().map(|p| Arc::from(p.as_str())).collect()),
        };
        return Ok(statement(parts.join("; ").into(), &shape, 0, plan));
    }
    if let Dialect::Postgres(catalog) = dialect
        && shape.kind == CommandKind::CreateTableAs
        && let Some(create) = create_as::read(text, catalog)?
    {
        // Without rows to store, PostgreSQL's tag has no count.
        let shape = match create.fills {
            true => shape,
            false => classify::Shape {
                kind: CommandKind::Other("CREATE TABLE AS"),
                ..shape
            },
        };
        let parts = create.statements;
        return Ok(statement(
            parts.join("; ").into(),
            &shape,
            0,
            Plan::Script(parts.into_iter().map(Arc::from).collect()),
        ));
    }
    if let Dialect::Postgres(catalog) = dialect
        && shape.kind == CommandKind::Other("CREATE VIEW")
        && let Some(parts) = views::create(text, catalog)?
    {
        return Ok(statement(
            parts.join("; ").into(),
            &shape,
            0,
            Plan::Script(parts.into_iter().map(Arc::from).collect()),
        ));
    }
    if let Dialect::Postgres(catalog) = dialect
        && shape.kind == CommandKind::Merge
        && let Some(staged) = merge::statement(text, catalog, &|sql, catalog| {
            build_unlocked(sql, &tokenize(sql), Dialect::Postgres(catalog))
        })?
    {
        return Ok(staged);
    }
    if let Dialect::Postgres(catalog) = dialect
        && let Some(staged) =
            joined_returning::statement(text, &tokens, shape.kind, catalog, &|sql, catalog| {
                build_unlocked(sql, &tokenize(sql), Dialect::Postgres(catalog))
            })?
    {
        return Ok(staged);
    }
    if let Dialect::Postgres(catalog) = dialect
        && let Some(staged) = modifying_ctes::statement(text, catalog, &|sql, catalog| {
            build_unlocked(sql, &tokenize(sql), Dialect::Postgres(catalog))
        })?
    {
        return Ok(staged);
    }
    if let Dialect::Postgres(catalog) = dialect
        && let Some(sql) = partitions::rewrite(text, shape.kind, catalog)?
    {
        return build_unlocked(&sql, &tokenize(&sql), dialect);
    }
    if let Dialect::Postgres(catalog) = dialect
        && matches!(
            shape.kind,
            CommandKind::Select | CommandKind::Insert | CommandKind::Update | CommandKind::Delete
        )
        && let Some(statement) = read_as_postgres(text, &shape, catalog, 0)?
    {
        return Ok(statement);
    }
    if shape.kind == CommandKind::Other("CREATE TABLE")
        && let Some(sql) = table_statements::without_not_valid(text, &tokens)?
    {
        return build_unlocked(&sql, &tokenize(&sql), dialect);
    }
    // PostgreSQL dialect first, then the statement-level rewrites (which also
    // apply to what the dialect translation printed).
    let translated = match dialect {
        Dialect::Postgres(catalog) if shape.kind == CommandKind::Other("CREATE TABLE") => {
            table_statements::create_table(text, catalog)?
        }
        _ => None,
    };
    let translated = translated.or_else(|| {
        dialect::wants(text, &tokens)
            .then(|| dialect::translate(text))
            .flatten()
    });
    let catalog = translated.as_ref().is_some_and(|t| t.catalog);
    if let Some(parts) = translated.as_ref().and_then(|t| t.script.clone()) {
        return Ok(Statement {
            catalog,
            ..statement(
                parts.join("; ").into(),
                &shape,
                0,
                Plan::Script(parts.into_iter().map(Arc::from).collect()),
            )
        });
    }
    let column_types = translated
        .as_ref()
        .filter(|t| !t.column_types.is_empty())
        .map(|t| Arc::from(t.column_types.as_slice()));
    let (text, tokens) = match &translated {
        Some(t) => (t.sql.as_str(), tokenize(&t.sql)),
        None => (text, tokens),
    };
    if translate::needs_translation(text, &tokens)
        && let Some(rewrite) =
            translate::translate(text, &|sql: &str| parse_single_in(sql, dialect))?
    {
        // A rewritten statement is passed through the parameter rewrite again.
        let tokens = tokenize(&rewrite.sql);
        let (sql, params) = number_params(&rewrite.sql, &tokens)?;
        return Ok(statement(sql, &shape, params, rewrite.plan));
    }
    let (sql, params) = number_params(text, &tokens)?;
    Ok(Statement {
        catalog,
        column_types,
        ..statement(sql, &shape, params, Plan::Single)
    })
}

/// A text whose integer literals are its parameters `$1` to `$literals` (see
/// `literals`), read as a query or data change with PostgreSQL's rules, the
/// parameters typed as the literals they stand for; `None` where it cannot
/// be read so.
pub(super) fn read_shape(text: &str, literals: usize, dialect: Dialect) -> Option<Statement> {
    let Dialect::Postgres(catalog) = dialect else {
        return None;
    };
    let written = tokenize(text);
    // Its names in their schemas' SQLite names, as `build` reads them.
    let resolved = schema_names::resolved(text, &written, catalog);
    let resolved_tokens;
    let (read, tokens): (&str, &[Token]) = match &resolved {
        Some(stored) => {
            resolved_tokens = tokenize(stored);
            (stored, &resolved_tokens)
        }
        None => (text, &written),
    };
    let shape = classify::classify(read, tokens).ok()?;
    let plain = matches!(
        shape.kind,
        CommandKind::Select | CommandKind::Insert | CommandKind::Update | CommandKind::Delete
    ) && row_locks::strip(read, tokens).ok()?.is_none()
        && known_queries::recognise(read, tokens).is_none()
        && !joined_returning::may_apply(read, tokens, shape.kind)
        // `ORDER BY x USING <` is rewritten before it is read (see `build`).
        && sort_operators::rewrite(read, tokens).is_none()
        && spellings::rewritten(read, tokens).ok()?.is_none()
        && partitions::rewrite(read, shape.kind, catalog).ok()?.is_none();
    if !plain {
        return None;
    }
    let statement = read_as_postgres(read, &shape, catalog, literals).ok()??;
    (statement.param_count == literals && !statement.catalog).then(|| Statement {
        read_against: Some((catalog.version(), Arc::from(text))),
        fingerprint: Some(Arc::new(fingerprint(text, &written, true))),
        ..statement
    })
}

/// A query or data change read with PostgreSQL's rules (see `postgres`), then
/// through the dialect translation; `None` when that reading leaves it alone
/// (SQLite's own syntax, what the reading does not handle). Parameters up to
/// `literals` stand for integer literals (see `literals`).
fn read_as_postgres(
    text: &str,
    shape: &classify::Shape,
    catalog: &dyn Catalog,
    literals: usize,
) -> Result<Option<Statement>, Error> {
    let Ok(mut parsed) = Parser::parse_sql(&PostgreSqlDialect {}, text) else {
        return Ok(None);
    };
    let [ast] = parsed.as_mut_slice() else {
        return Ok(None);
    };
    if literals > 0 && literals::stand_for_syntax(ast) {
        return Ok(None);
    }
    let declared = vec![Some(postgres::PgType::Int4); literals];
    let Some(translation) = postgres::translate(ast, catalog, &declared)? else {
        return Ok(None);
    };
    let mut ast = translation.statement;
    let Some(translated) = dialect::translate_parsed(&mut ast, None) else {
        return Ok(None);
    };
    if translated.script.is_some() {
        return Ok(None);
    }
    // The reading's types, and the dialect translation's where the reading
    // cannot type a column.
    let columns = translation.columns.unwrap_or_default();
    let mut column_types: Vec<Option<&'static str>> = columns
        .iter()
        .map(|c| c.ty.as_ref().and_then(|t| t.name()))
        .collect();
    for (i, ty) in translated.column_types.iter().enumerate() {
        match (column_types.get_mut(i), columns.get(i)) {
            (Some(slot), Some(column)) if column.opaque => *slot = *ty,
            (None, None) => column_types.push(*ty),
            _ => {}
        }
    }
    // A catalog query's columns are typed from the catalog's list as the
    // query is written, so that describing it needs no look at SQLite's plan
    // (seconds for the joins drivers send).
    if translated.catalog
        && column_types.iter().any(Option::is_none)
        && let Some(written) = dialect::translate(text)
    {
        for (slot, ty) in column_types.iter_mut().zip(&written.column_types) {
            if slot.is_none() {
                *slot = *ty;
            }
        }
    }
    let column_types = column_types
        .iter()
        .any(Option::is_some)
        .then(|| Arc::from(column_types.as_slice()));
    let tokens = tokenize(&translated.sql);
    let (sql, params) = number_params(&translated.sql, &tokens)?;
    Ok(Some(Statement {
        catalog: translated.catalog,
        column_types,
        ..statement(sql, shape, params, Plan::Single)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_that_leave_state_on_their_connection() {
        let flags = |sql: &str| {
            let stmt = parse_single(sql).unwrap().unwrap();
            (stmt.pragma, stmt.creates_temp)
        };
        assert_eq!(flags("PRAGMA table_info(t)"), (true, false));
        assert_eq!(flags("  /* a */ -- b\n pragma foreign_keys"), (true, false));
        assert_eq!(flags("CREATE TEMP TABLE t (x)"), (false, true));
        assert_eq!(
            flags("create /* x */ temporary view v as select 1"),
            (false, true)
        );
        assert_eq!(flags("CREATE TABLE temp_t (x)"), (false, false));
        assert_eq!(flags("SELECT 1"), (false, false));
    }

    #[test]
    fn empty_and_multiple() {
        assert!(parse_single(" ;; -- nothing").unwrap().is_none());
        assert!(parse_single("select 1; select 2").is_err());
    }
}
