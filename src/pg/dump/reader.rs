//! The dump's one session, the queries it runs, and the catalog values they
//! return as the dump reads them.

use crate::engine::{Session, Value};
use crate::error::{Error, ErrorKind};
use crate::sql::{Dialect, Statement, parse_batch_in};

/// Runs the dump's queries in its one session.
pub(super) struct Reader {
    pub(super) session: Session,
}

impl Reader {
    /// Runs `sql` (one statement) and returns its rows.
    pub(super) async fn rows(&mut self, sql: &str) -> Result<Vec<Vec<Value>>, Error> {
        let mut rows = Vec::new();
        for statement in self.statements(sql).await? {
            rows = self.session.execute(&statement, &[]).await?.rows;
        }
        Ok(rows)
    }

    /// `sql` read as the PostgreSQL port reads it.
    pub(super) async fn statements(&mut self, sql: &str) -> Result<Vec<Statement>, Error> {
        self.session
            .read_against_schema(|schema| parse_batch_in(sql, Dialect::Postgres(schema)))
            .await
    }

    pub(super) async fn run(&mut self, sql: &str) -> Result<(), Error> {
        self.rows(sql).await.map(drop)
    }
}

pub(super) fn io_error(error: std::io::Error) -> Error {
    Error::new(ErrorKind::Internal, format!("writing the dump: {error}"))
}

/// A catalog value as text (NULL as the empty string).
pub(super) fn text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::Integer(i) => i.to_string(),
        Value::Real(f) => f.to_string(),
        Value::Text(t) => t.clone(),
        Value::Blob(b) => String::from_utf8_lossy(b).into_owned(),
    }
}

/// A catalog integer (0 for NULL or anything else).
pub(super) fn integer(value: &Value) -> i64 {
    match value {
        Value::Integer(i) => *i,
        Value::Text(t) => t.parse().unwrap_or(0),
        _ => 0,
    }
}

/// A catalog boolean, as the engine returns it (1/0, or `t`/`true`).
pub(super) fn flag(value: &Value) -> bool {
    match value {
        Value::Integer(i) => *i != 0,
        Value::Text(t) => matches!(t.as_str(), "t" | "true"),
        _ => false,
    }
}
