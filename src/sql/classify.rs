//! Statement classification from the leading keywords.
//!
//! The engine needs to know, before running a statement, whether it controls the
//! transaction, whether it writes (and so must wait for the write permit), and which
//! command tag its result carries. The first one or two keywords decide nearly all
//! of it; `WITH` looks further for a data-modifying verb.

use super::lexer::{Token, TokenKind};
use crate::error::{Error, ErrorKind};

/// What kind of statement produced a result; front ends derive their command tags
/// and transaction bookkeeping from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandKind {
    Select,
    Insert,
    Update,
    Delete,
    Begin,
    Commit,
    Rollback,
    /// `COPY ... FROM STDIN`; `rows_affected` rows were copied.
    Copy,
    /// `FETCH` from a cursor: the rows it returned.
    Fetch,
    /// `CREATE TABLE ... AS`: tagged `SELECT n`, n the rows it stored.
    CreateTableAs,
    /// `MERGE`: tagged `MERGE n`, n the rows it inserted, updated or deleted.
    Merge,
    /// Any other statement; the text is its command tag (`CREATE TABLE`, `PRAGMA`, ...).
    Other(&'static str),
}

impl CommandKind {
    /// The command's name, as PostgreSQL's command tags and messages spell it.
    pub fn tag(self) -> &'static str {
        match self {
            CommandKind::Select => "SELECT",
            CommandKind::Insert => "INSERT",
            CommandKind::Update => "UPDATE",
            CommandKind::Delete => "DELETE",
            CommandKind::Begin => "BEGIN",
            CommandKind::Commit => "COMMIT",
            CommandKind::Rollback => "ROLLBACK",
            CommandKind::Copy => "COPY",
            CommandKind::Fetch => "FETCH",
            CommandKind::CreateTableAs => "CREATE TABLE AS",
            CommandKind::Merge => "MERGE",
            CommandKind::Other(tag) => tag,
        }
    }
}

/// What running a statement means for the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Reads only: runs concurrently with other readers.
    Read,
    /// Writes (DML, DDL, PRAGMA assignments, ...): holds the write permit.
    Write,
    /// Like `Write`, and reaches the server's filesystem (ATTACH, VACUUM INTO).
    WriteFile,
    Begin,
    Commit,
    Rollback,
    Savepoint,
    Release,
    RollbackTo,
}

impl Action {
    /// Whether the statement begins, ends or partly undoes a transaction.
    pub fn controls_transaction(self) -> bool {
        !matches!(self, Action::Read | Action::Write | Action::WriteFile)
    }
}

pub(super) struct Shape {
    pub action: Action,
    pub kind: CommandKind,
    pub returns_rows: bool,
}

impl Shape {
    fn new(action: Action, kind: CommandKind, returns_rows: bool) -> Self {
        Shape {
            action,
            kind,
            returns_rows,
        }
    }

    fn control(action: Action, kind: CommandKind) -> Self {
        Shape::new(action, kind, false)
    }

    fn ddl(tag: &'static str) -> Self {
        Shape::new(Action::Write, CommandKind::Other(tag), false)
    }
}

pub(super) fn classify(sql: &str, tokens: &[Token]) -> Result<Shape, Error> {
    let word = |i: usize| -> String {
        tokens
            .get(i)
            .filter(|t| t.kind == TokenKind::Word)
            .map(|t| sql[t.start..t.end].to_ascii_uppercase())
            .unwrap_or_default()
    };
    let has_word = |kw: &str| {
        tokens
            .iter()
            .any(|t| t.kind == TokenKind::Word && sql[t.start..t.end].eq_ignore_ascii_case(kw))
    };
    let returning = || has_word("RETURNING");
    // A query may open with parentheses: `(SELECT 1) UNION SELECT 2`.
    let opening = tokens
        .iter()
        .take_while(|t| t.kind == TokenKind::LeftParen)
        .count();
    let first = match word(opening).as_str() {
        "SELECT" | "VALUES" | "WITH" | "TABLE" if opening > 0 => "SELECT".to_owned(),
        _ => word(0),
    };
    let shape = match first.as_str() {
        "SELECT" | "VALUES" | "EXPLAIN" | "TABLE" => {
            Shape::new(Action::Read, CommandKind::Select, true)
        }
        "WITH" => with_shape(&has_word),
        "INSERT" | "REPLACE" => Shape::new(Action::Write, CommandKind::Insert, returning()),
        "UPDATE" => Shape::new(Action::Write, CommandKind::Update, returning()),
        "DELETE" => Shape::new(Action::Write, CommandKind::Delete, returning()),
        "MERGE" => Shape::new(Action::Write, CommandKind::Merge, false),
        "PRAGMA" => {
            let assigns = tokens.iter().any(|t| sql[t.start..t.end] == *"=");
            let action = if assigns { Action::Write } else { Action::Read };
            Shape::new(action, CommandKind::Select, true)
        }
        "BEGIN" => Shape::control(Action::Begin, CommandKind::Begin),
        "START" if word(1) == "TRANSACTION" => {
            Shape::control(Action::Begin, CommandKind::Other("START TRANSACTION"))
        }
        "COMMIT" | "END" => Shape::control(Action::Commit, CommandKind::Commit),
        "ROLLBACK" | "ABORT" if has_word("TO") => {
            Shape::control(Action::RollbackTo, CommandKind::Other("ROLLBACK"))
        }
        "ROLLBACK" | "ABORT" => Shape::control(Action::Rollback, CommandKind::Rollback),
        "SAVEPOINT" => Shape::control(Action::Savepoint, CommandKind::Other("SAVEPOINT")),
        "RELEASE" => Shape::control(Action::Release, CommandKind::Other("RELEASE")),
        "CREATE" | "DROP" | "ALTER" => match ddl_tag(&first, &word) {
            "CREATE TABLE" if has_word("AS") && (has_word("SELECT") || has_word("VALUES")) => {
                Shape::new(Action::Write, CommandKind::CreateTableAs, false)
            }
            tag => Shape::ddl(tag),
        },
        "TRUNCATE" => Shape::ddl("TRUNCATE TABLE"),
        "REFRESH" => Shape::ddl("REFRESH MATERIALIZED VIEW"),
        "GRANT" => Shape::ddl("GRANT"),
        // The session keeps the statement; `EXECUTE` runs it as what it is.
        "PREPARE" => Shape::new(Action::Read, CommandKind::Other("PREPARE"), false),
        "EXECUTE" => Shape::new(Action::Read, CommandKind::Other("EXECUTE"), true),
        "LOCK" => {
            let words = super::words::Words { sql, tokens };
            let action = match super::table_locks::writes(&words) {
                true => Action::Write,
                false => Action::Read,
            };
            Shape::new(action, CommandKind::Other("LOCK TABLE"), false)
        }
        "REVOKE" => Shape::ddl("REVOKE"),
        "COPY" => Shape::new(Action::Write, CommandKind::Copy, false),
        "ANALYZE" => Shape::ddl("ANALYZE"),
        "REINDEX" => Shape::ddl("REINDEX"),
        "VACUUM" if has_word("INTO") => {
            Shape::new(Action::WriteFile, CommandKind::Other("VACUUM"), false)
        }
        "VACUUM" => Shape::ddl("VACUUM"),
        "ATTACH" => Shape::new(Action::WriteFile, CommandKind::Other("ATTACH"), false),
        // Channels the engine keeps (see `notifications`).
        "LISTEN" => Shape::new(Action::Read, CommandKind::Other("LISTEN"), false),
        "UNLISTEN" => Shape::new(Action::Read, CommandKind::Other("UNLISTEN"), false),
        "NOTIFY" => Shape::new(Action::Read, CommandKind::Other("NOTIFY"), false),
        // Session commands never reach SQLite.
        "SET" => Shape::new(Action::Read, CommandKind::Other("SET"), false),
        "RESET" => Shape::new(Action::Read, CommandKind::Other("RESET"), false),
        "SHOW" => Shape::new(Action::Read, CommandKind::Other("SHOW"), true),
        "DISCARD" => Shape::new(Action::Read, CommandKind::Other("DISCARD ALL"), false),
        "DEALLOCATE" if has_word("ALL") => {
            Shape::new(Action::Read, CommandKind::Other("DEALLOCATE ALL"), false)
        }
        "DEALLOCATE" => Shape::new(Action::Read, CommandKind::Other("DEALLOCATE"), false),
        // Kept in a table of litewire's own (see `comments`).
        "COMMENT" => Shape::ddl("COMMENT"),
        "DETACH" => Shape::ddl("DETACH"),
        "" => {
            return Err(Error::new(
                ErrorKind::Syntax,
                format!(
                    "syntax error at or near \"{}\"",
                    tokens.first().map_or("", |t| &sql[t.start..t.end])
                ),
            ));
        }
        _ => Shape::new(Action::Write, CommandKind::Other("OK"), true),
    };
    // A query that advances a sequence writes its state (see `dialect::sequences`).
    let shape = match shape.action {
        Action::Read
            if shape.kind == CommandKind::Select && (has_word("nextval") || has_word("setval")) =>
        {
            Shape {
                action: Action::Write,
                ..shape
            }
        }
        _ => shape,
    };
    Ok(shape)
}

/// A `WITH` statement is a query unless its main verb modifies data.
fn with_shape(has_word: &dyn Fn(&str) -> bool) -> Shape {
    let returns = has_word("RETURNING");
    if has_word("MERGE") {
        Shape::new(Action::Write, CommandKind::Merge, false)
    } else if has_word("INSERT") || has_word("REPLACE") {
        Shape::new(Action::Write, CommandKind::Insert, returns)
    } else if has_word("UPDATE") {
        Shape::new(Action::Write, CommandKind::Update, returns)
    } else if has_word("DELETE") {
        Shape::new(Action::Write, CommandKind::Delete, returns)
    } else {
        Shape::new(Action::Read, CommandKind::Select, true)
    }
}

/// `CREATE TABLE`, `DROP INDEX`, `ALTER TABLE`, ...: the verb and its object, skipping
/// SQLite's modifiers (`TEMP`, `UNIQUE`, `VIRTUAL`).
fn ddl_tag(verb: &str, word: &dyn Fn(usize) -> String) -> &'static str {
    let object = (1..4)
        .map(word)
        .find(|w| {
            !matches!(
                w.as_str(),
                "TEMP" | "TEMPORARY" | "UNIQUE" | "VIRTUAL" | "OR" | "REPLACE"
            )
        })
        .unwrap_or_default();
    match (verb, object.as_str()) {
        ("CREATE", "TABLE") => "CREATE TABLE",
        ("CREATE", "INDEX") => "CREATE INDEX",
        ("CREATE", "VIEW") => "CREATE VIEW",
        ("CREATE", "TRIGGER") => "CREATE TRIGGER",
        ("DROP", "TABLE") => "DROP TABLE",
        ("DROP", "INDEX") => "DROP INDEX",
        ("DROP", "VIEW") => "DROP VIEW",
        ("DROP", "TRIGGER") => "DROP TRIGGER",
        ("CREATE", "SEQUENCE") => "CREATE SEQUENCE",
        ("DROP", "SEQUENCE") => "DROP SEQUENCE",
        ("ALTER", "SEQUENCE") => "ALTER SEQUENCE",
        ("CREATE", "TYPE") => "CREATE TYPE",
        ("CREATE", "EXTENSION") => "CREATE EXTENSION",
        ("DROP", "EXTENSION") => "DROP EXTENSION",
        ("DROP", "TYPE") => "DROP TYPE",
        ("ALTER", "TYPE") => "ALTER TYPE",
        ("ALTER", "VIEW") => "ALTER VIEW",
        ("ALTER", "MATERIALIZED") => "ALTER MATERIALIZED VIEW",
        ("CREATE", "MATERIALIZED") => "CREATE MATERIALIZED VIEW",
        ("DROP", "MATERIALIZED") => "DROP MATERIALIZED VIEW",
        ("ALTER", "SCHEMA") => "ALTER SCHEMA",
        ("CREATE", "SCHEMA") => "CREATE SCHEMA",
        ("DROP", "SCHEMA") => "DROP SCHEMA",
        ("ALTER", "FUNCTION") => "ALTER FUNCTION",
        ("CREATE", "FUNCTION") => "CREATE FUNCTION",
        ("DROP", "FUNCTION") => "DROP FUNCTION",
        ("ALTER", "PROCEDURE") => "ALTER PROCEDURE",
        ("ALTER", "ROUTINE") => "ALTER ROUTINE",
        ("ALTER", "AGGREGATE") => "ALTER AGGREGATE",
        ("ALTER", "DATABASE") => "ALTER DATABASE",
        ("ALTER", "DOMAIN") => "ALTER DOMAIN",
        ("CREATE", "DOMAIN") => "CREATE DOMAIN",
        ("DROP", "DOMAIN") => "DROP DOMAIN",
        ("ALTER", "INDEX") => "ALTER INDEX",
        ("ALTER", _) => "ALTER TABLE",
        ("CREATE", _) => "CREATE",
        _ => "DROP",
    }
}

#[cfg(test)]
mod tests {
    use super::CommandKind;
    use crate::sql::{Action, parse_single};

    fn shape(sql: &str) -> (Action, CommandKind, bool) {
        let s = parse_single(sql).unwrap().unwrap();
        (s.action, s.kind, s.returns_rows)
    }

    #[test]
    fn classifies_common_statements() {
        assert_eq!(shape("select 1"), (Action::Read, CommandKind::Select, true));
        assert_eq!(
            shape("insert into t values (1)"),
            (Action::Write, CommandKind::Insert, false)
        );
        assert_eq!(
            shape("insert into t values (1) returning id"),
            (Action::Write, CommandKind::Insert, true)
        );
        assert_eq!(shape("END").1, CommandKind::Commit);
        assert_eq!(shape("start transaction").0, Action::Begin);
        assert_eq!(shape("rollback to savepoint a").0, Action::RollbackTo);
        assert_eq!(
            shape("create unique index i on t(a)").1,
            CommandKind::Other("CREATE INDEX")
        );
        assert_eq!(
            shape("create temp table x(a)").1,
            CommandKind::Other("CREATE TABLE")
        );
        assert_eq!(
            shape("create table x as select 1").1,
            CommandKind::CreateTableAs
        );
        assert_eq!(
            shape("with x as (select 1) delete from t").1,
            CommandKind::Delete
        );
        assert_eq!(shape("pragma user_version = 3").0, Action::Write);
        assert_eq!(shape("pragma table_info(t)").0, Action::Read);
        assert_eq!(shape("vacuum into '/tmp/x'").0, Action::WriteFile);
        assert_eq!(shape("attach 'x' as y").0, Action::WriteFile);
        assert_eq!(shape("select nextval('s')").0, Action::Write);
        assert_eq!(shape("select currval('s')").0, Action::Read);
        assert_eq!(
            shape("create temp sequence s").1,
            CommandKind::Other("CREATE SEQUENCE")
        );
        assert_eq!(
            shape("alter sequence s restart").1,
            CommandKind::Other("ALTER SEQUENCE")
        );
    }
}
