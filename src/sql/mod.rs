//! From client SQL to statements the engine can run.
//!
//! A query string is split into statements, each statement is classified (what it
//! does to the transaction, whether it writes, which command tag it answers with)
//! and its PostgreSQL-style `$N` parameters are rewritten to SQLite's `?N`. This is
//! one lexer pass per statement: no full parse on the hot path.

mod checks;
mod classify;
mod comments;
mod copy;
mod cursors;
mod dialect;
pub mod enums;
mod known_queries;
mod lexer;
mod params;
mod parsed;
pub mod quote;
pub mod relations;
mod session;
pub mod table_definition;
mod translate;
mod words;

use std::sync::Arc;

pub use checks::{CheckConstraint, check_constraints};
pub use classify::{Action, CommandKind};
pub use comments::COMMENTS_TABLE;
pub use copy::{CopyFormat, CopyFrom, CopyOptions, CopyTo, ForceQuote};
pub use cursors::CursorCommand;
pub use dialect::{AlterAction, AlterTable, relation_name};
use lexer::{Token, TokenKind, tokenize};
pub use params::{ParamHint, param_hints};
pub use session::SessionCommand;

use crate::error::{Error, ErrorKind};

/// One statement, ready to run on SQLite.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// SQLite SQL (positional parameters already in `?N` form).
    pub sql: Arc<str>,
    /// What running it means for the session.
    pub action: Action,
    /// The command kind (and so the command tag) of its result.
    pub kind: CommandKind,
    /// Whether it describes rows (SELECT, RETURNING, PRAGMA, ...).
    pub returns_rows: bool,
    /// How many positional parameters it takes (the highest `$N` / `?N`).
    pub param_count: usize,
    /// How the engine runs it.
    pub plan: Plan,
    /// Whether it reads the emulated PostgreSQL catalog, which the engine brings
    /// up to date with the schema before running it.
    pub catalog: bool,
    /// Declared types for result columns SQLite leaves untyped (the arrays of
    /// `array_agg`, the expressions of catalog queries), by position; `None`
    /// when there is none.
    pub column_types: Option<Arc<[Option<&'static str>]>>,
    /// Whether it is a PRAGMA, in any form: it may change its connection.
    pub pragma: bool,
    /// Whether it is `CREATE TEMP|TEMPORARY ...`: an object that lives on the
    /// session's own connection.
    pub creates_temp: bool,
}

/// How a statement runs on SQLite.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// `sql` is one SQLite statement.
    Single,
    /// Several SQLite statements that run as one, all or nothing (no parameters).
    Script(Arc<[Arc<str>]>),
    /// Nothing to run: the statement means nothing for SQLite (VACUUM of a table).
    Nothing,
    /// `COPY ... FROM STDIN`: rows arrive through the front end's copy protocol.
    CopyFrom(Arc<CopyFrom>),
    /// `COPY ... TO STDOUT`: a query whose rows leave through the copy protocol.
    CopyTo(Arc<CopyTo>),
    /// `SET`, `SHOW`, ...: answered from the session's settings, not by SQLite.
    Session(SessionCommand),
    /// `DECLARE ... CURSOR`, `FETCH`, `CLOSE`: the session's SQL-level cursors.
    Cursor(Arc<CursorCommand>),
    /// An `ALTER TABLE` SQLite has no statement for: the engine rebuilds the
    /// table under its new definition.
    Rebuild(Arc<AlterTable>),
    /// `CREATE TYPE ... AS ENUM`, `DROP TYPE`, `ALTER TYPE ... ADD VALUE`.
    Enum(Arc<enums::EnumChange>),
}

impl Statement {
    /// Whether running it needs the write permit.
    pub fn writes(&self) -> bool {
        matches!(self.action, Action::Write | Action::WriteFile)
    }
}

/// Splits a query string into its statements. Empty statements (`;;`, comments) are
/// dropped; a string with none yields an empty vector.
pub fn parse_batch(sql: &str) -> Result<Vec<Statement>, Error> {
    parsed::cached(sql, parse_uncached)
}

fn parse_uncached(sql: &str) -> Result<Vec<Statement>, Error> {
    let tokens = tokenize(sql);
    split(&tokens, sql)
        .into_iter()
        .map(|range| build(&sql[range.0..range.1], &tokens[range.2..range.3]))
        .collect()
}

/// Parses a query string that must hold at most one statement (extended protocol,
/// prepared statements). `None` is the empty query.
pub fn parse_single(sql: &str) -> Result<Option<Statement>, Error> {
    let mut statements = parse_batch(sql)?;
    match statements.len() {
        0 => Ok(None),
        1 => Ok(statements.pop()),
        _ => Err(Error::new(
            ErrorKind::Syntax,
            "cannot insert multiple commands into a prepared statement",
        )),
    }
}

/// Byte range and token range of each non-empty statement.
fn split(tokens: &[Token], sql: &str) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let mut first = 0;
    for (i, token) in tokens.iter().enumerate() {
        if token.kind != TokenKind::Semicolon || inside_trigger_body(&tokens[first..i], sql) {
            continue;
        }
        if i > first {
            out.push((tokens[first].start, tokens[i - 1].end, first, i));
        }
        first = i + 1;
    }
    if first < tokens.len() {
        out.push((
            tokens[first].start,
            tokens[tokens.len() - 1].end,
            first,
            tokens.len(),
        ));
    }
    out
}

/// Whether a semicolon after `tokens` falls inside a trigger's `BEGIN ... END` body
/// (where `CASE ... END` nests), as SQLite's own `sqlite3_complete` decides.
fn inside_trigger_body(tokens: &[Token], sql: &str) -> bool {
    if !is_create_trigger(tokens, sql) {
        return false;
    }
    let depth = tokens.iter().fold(0i32, |depth, t| {
        if t.is_keyword(sql, "BEGIN") || t.is_keyword(sql, "CASE") {
            depth + 1
        } else if t.is_keyword(sql, "END") {
            depth - 1
        } else {
            depth
        }
    });
    depth > 0
}

/// `CREATE [TEMP|TEMPORARY] TRIGGER`: its body holds semicolons up to `END`.
fn is_create_trigger(tokens: &[Token], sql: &str) -> bool {
    let mut words = tokens.iter().take(3).filter(|t| t.kind == TokenKind::Word);
    let Some(create) = words.next() else {
        return false;
    };
    if !create.is_keyword(sql, "CREATE") {
        return false;
    }
    match words.next() {
        Some(t) if t.is_keyword(sql, "TRIGGER") => true,
        Some(t) if t.is_keyword(sql, "TEMP") || t.is_keyword(sql, "TEMPORARY") => {
            words.next().is_some_and(|t| t.is_keyword(sql, "TRIGGER"))
        }
        _ => false,
    }
}

/// Classifies one statement, translates what SQLite does not speak and rewrites
/// `$N` to `?N`. `tokens` are positioned in the whole batch; `text` is this
/// statement alone.
fn build(text: &str, tokens: &[Token]) -> Result<Statement, Error> {
    let base = tokens.first().map_or(0, |t| t.start);
    let tokens: Vec<Token> = tokens
        .iter()
        .map(|t| Token {
            start: t.start - base,
            end: t.end - base,
            ..*t
        })
        .collect();
    if let Some(command) = cursors::recognise(text, &tokens)? {
        return Ok(cursor_statement(text, command));
    }
    let shape = classify::classify(text, &tokens)?;
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
    // PostgreSQL dialect first, then the statement-level rewrites (which also
    // apply to what the dialect translation printed).
    let translated = dialect::wants(text, &tokens)
        .then(|| dialect::translate(text))
        .flatten();
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
        && let Some(rewrite) = translate::translate(text)?
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

/// A cursor command as a statement: DECLARE takes its query's parameters and
/// FETCH returns rows (the cursor's columns).
fn cursor_statement(text: &str, command: CursorCommand) -> Statement {
    let (kind, returns_rows, param_count) = match &command {
        CursorCommand::Declare { query, .. } => (
            CommandKind::Other("DECLARE CURSOR"),
            false,
            query.param_count,
        ),
        CursorCommand::Fetch { .. } => (CommandKind::Fetch, true, 0),
        CursorCommand::Close(_) => (CommandKind::Other("CLOSE CURSOR"), false, 0),
    };
    Statement {
        sql: text.into(),
        action: Action::Read,
        kind,
        returns_rows,
        param_count,
        plan: Plan::Cursor(Arc::new(command)),
        catalog: false,
        column_types: None,
        pragma: false,
        creates_temp: false,
    }
}

fn statement(sql: Arc<str>, shape: &classify::Shape, param_count: usize, plan: Plan) -> Statement {
    // Read once here, not each time the statement runs.
    let (first, rest) = first_word(&sql);
    let pragma = first.eq_ignore_ascii_case("PRAGMA");
    let creates_temp = first.eq_ignore_ascii_case("CREATE") && {
        let (second, _) = first_word(rest);
        second.eq_ignore_ascii_case("TEMP") || second.eq_ignore_ascii_case("TEMPORARY")
    };
    Statement {
        sql,
        // COPY TO reads or writes what its query does.
        action: match &plan {
            Plan::CopyTo(copy) => copy.query.action,
            _ => shape.action,
        },
        kind: shape.kind,
        returns_rows: shape.returns_rows && plan == Plan::Single,
        param_count,
        plan,
        catalog: false,
        column_types: None,
        pragma,
        creates_temp,
    }
}

/// The first word of `sql` after whitespace and comments, and what follows it.
fn first_word(sql: &str) -> (&str, &str) {
    let mut rest = sql.trim_ascii_start();
    loop {
        if let Some(line) = rest.strip_prefix("--") {
            rest = line.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(block) = rest.strip_prefix("/*") {
            rest = block.split_once("*/").map_or("", |(_, after)| after);
        } else {
            break;
        }
        rest = rest.trim_ascii_start();
    }
    let end = rest
        .bytes()
        .position(|c| !c.is_ascii_alphanumeric() && c != b'_')
        .unwrap_or(rest.len());
    rest.split_at(end)
}

/// The highest parameter number SQLite accepts (its `SQLITE_MAX_VARIABLE_NUMBER`).
/// A statement naming a higher one fails at once, before anything is sized by
/// its parameter count.
const MAX_PARAMS: usize = 32_766;

/// Rewrites `$N` to `?N` and counts parameters the way SQLite numbers them.
fn number_params(text: &str, tokens: &[Token]) -> Result<(Arc<str>, usize), Error> {
    let mut numbering = ParamNumbering::default();
    let mut rewritten: Option<String> = None;
    let mut copied = 0;
    for token in tokens {
        match token.kind {
            TokenKind::Param(n) => {
                numbering.positional(n);
                let out = rewritten.get_or_insert_with(|| String::with_capacity(text.len()));
                out.push_str(&text[copied..token.start]);
                out.push('?');
                out.push_str(&text[token.start + 1..token.end]);
                copied = token.end;
            }
            TokenKind::NamedParam => numbering.named(token.text(text)),
            _ => {}
        }
    }
    let sql = match rewritten {
        Some(mut out) => {
            out.push_str(&text[copied..]);
            out.into()
        }
        None => text.into(),
    };
    if numbering.count > MAX_PARAMS {
        return Err(Error::new(
            ErrorKind::Syntax,
            format!(
                "there is no parameter ${}: a statement takes at most {MAX_PARAMS}",
                numbering.count
            ),
        ));
    }
    Ok((sql, numbering.count))
}

/// SQLite's parameter numbering: `?N` is N, a bare `?` is one more than the largest
/// so far, and each distinct `:name`/`@name`/`$name` takes the next number once.
#[derive(Default)]
struct ParamNumbering {
    count: usize,
    names: Vec<String>,
}

impl ParamNumbering {
    fn positional(&mut self, n: usize) {
        self.count = self.count.max(n);
    }

    fn named(&mut self, token: &str) {
        if let Some(body) = token.strip_prefix('?') {
            let n = body.parse().unwrap_or(self.count + 1);
            self.positional(n);
        } else if !self.names.iter().any(|name| name == token) {
            self.names.push(token.to_owned());
            self.positional(self.count + 1);
        }
    }
}

/// Rewrites named parameters (`:x`, `@x`, `$x`) to numbered ones and returns, for
/// each number from 1, the parameter's name without its prefix. Used where values
/// come as a name → value map (the HTTP API).
pub fn number_named_params(stmt: &Statement) -> (Statement, Vec<String>) {
    let sql = &*stmt.sql;
    let mut names: Vec<String> = Vec::new();
    let mut out = String::with_capacity(sql.len());
    let mut copied = 0;
    for token in tokenize(sql) {
        if token.kind != TokenKind::NamedParam || token.text(sql).starts_with('?') {
            continue;
        }
        let name = &token.text(sql)[1..];
        let index = match names.iter().position(|n| n == name) {
            Some(i) => i + 1,
            None => {
                names.push(name.to_owned());
                names.len()
            }
        };
        out.push_str(&sql[copied..token.start]);
        out.push('?');
        out.push_str(&index.to_string());
        copied = token.end;
    }
    out.push_str(&sql[copied..]);
    let numbered = Statement {
        sql: out.into(),
        param_count: names.len().max(stmt.param_count),
        ..stmt.clone()
    };
    (numbered, names)
}

/// The name of each parameter of `sql` as SQLite numbers them (element 0 is
/// parameter 1): `:x`, `@x` or `$x` for a named one, `None` for a positional one
/// (`?`, `?N`). Used where values come by name and by position at once (Hrana).
pub fn parameter_names(sql: &str) -> Vec<Option<String>> {
    let mut numbering = ParamNumbering::default();
    let mut names: Vec<Option<String>> = Vec::new();
    for token in tokenize(sql) {
        match token.kind {
            TokenKind::Param(n) => numbering.positional(n),
            TokenKind::NamedParam => {
                let text = token.text(sql);
                let known = numbering.names.len();
                numbering.named(text);
                if !text.starts_with('?') && numbering.names.len() > known {
                    names.resize(numbering.count, None);
                    names[numbering.count - 1] = Some(text.to_owned());
                }
            }
            _ => {}
        }
    }
    names.resize(numbering.count, None);
    names
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
    fn splits_on_semicolons_outside_quotes_and_comments() {
        let batch = parse_batch("select ';'; -- x;\n select 2;; /* ; */").unwrap();
        let sqls: Vec<&str> = batch.iter().map(|s| &*s.sql).collect();
        assert_eq!(sqls, vec!["select ';'", "select 2"]);
    }

    #[test]
    fn parameter_numbers_past_sqlites_limit_are_refused() {
        let statement = parse_single("SELECT $32766").unwrap().unwrap();
        assert_eq!(statement.param_count, 32_766);
        for sql in [
            "SELECT $32767",
            "SELECT $9999999999",
            "SELECT ?99999999",
            "SELECT $99999999999999999999999",
        ] {
            let error = parse_single(sql).unwrap_err();
            assert_eq!(error.kind, ErrorKind::Syntax, "{sql}");
        }
    }

    #[test]
    fn trigger_bodies_stay_whole() {
        let sql = "create trigger t after insert on a begin insert into b values (case when 1 then 2 end); delete from c; end; select 1";
        let batch = parse_batch(sql).unwrap();
        assert_eq!(batch.len(), 2);
        assert!(batch[0].sql.ends_with("end"));
        assert_eq!(&*batch[1].sql, "select 1");
    }

    #[test]
    fn names_parameters_as_sqlite_numbers_them() {
        assert_eq!(
            parameter_names("select ?, :a, ?5, @b, :a, $c"),
            vec![
                None,
                Some(":a".to_owned()),
                None,
                None,
                None,
                Some("@b".to_owned()),
                Some("$c".to_owned()),
            ]
        );
        assert!(parameter_names("select 1").is_empty());
    }

    #[test]
    fn rewrites_positional_parameters() {
        let stmt = parse_single("select $2, '$1', $1").unwrap().unwrap();
        assert_eq!(&*stmt.sql, "select ?2, '$1', ?1");
        assert_eq!(stmt.param_count, 2);
    }

    #[test]
    fn counts_parameters_as_sqlite_numbers_them() {
        assert_eq!(
            parse_single("select ?, ?, ?5")
                .unwrap()
                .unwrap()
                .param_count,
            5
        );
        assert_eq!(
            parse_single("select :a, @b, :a")
                .unwrap()
                .unwrap()
                .param_count,
            2
        );
    }

    #[test]
    fn numbers_named_parameters() {
        let stmt = parse_single("select :a, @b, $c, :a, 'x:y'")
            .unwrap()
            .unwrap();
        let (numbered, names) = number_named_params(&stmt);
        assert_eq!(&*numbered.sql, "select ?1, ?2, ?3, ?1, 'x:y'");
        assert_eq!(names, vec!["a", "b", "c"]);
    }

    #[test]
    fn empty_and_multiple() {
        assert!(parse_single(" ;; -- nothing").unwrap().is_none());
        assert!(parse_single("select 1; select 2").is_err());
    }
}
