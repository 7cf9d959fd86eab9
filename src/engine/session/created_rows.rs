//! `CREATE TABLE ... AS` answers `SELECT n` in PostgreSQL, n the rows it
//! stored. SQLite does not count them (its change counter skips the copy), so
//! the statement's completion is held back, the new table counted on the same
//! connection, in the same transaction, and the completion sent with that count.

use std::sync::Arc;

use crate::engine::direct;
use crate::engine::result::{Column, Completion, ResultSink};
use crate::engine::session::state::Session;
use crate::engine::value::Value;
use crate::error::Error;

/// A sink that passes everything on but the statement's completion.
struct HeldCompletion<'s, S> {
    sink: &'s mut S,
    completion: Option<Completion>,
}

impl<S: ResultSink> ResultSink for HeldCompletion<'_, S> {
    fn begin_statement(&mut self) -> Result<(), Error> {
        self.sink.begin_statement()
    }

    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        self.sink.columns(columns)
    }

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error> {
        self.sink.row(row)
    }

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error> {
        self.completion = Some(completion);
        Ok(())
    }

    fn error(&mut self, error: &Error) {
        self.sink.error(error);
    }
}

/// The table a `CREATE TABLE ... AS` (as SQLite runs it) makes, quoted.
fn created_table(sql: &str) -> Option<String> {
    let statements =
        sqlparser::parser::Parser::parse_sql(&sqlparser::dialect::SQLiteDialect {}, sql).ok()?;
    match statements.first()? {
        sqlparser::ast::Statement::CreateTable(create) if create.query.is_some() => {
            Some(create.name.to_string())
        }
        _ => None,
    }
}

impl Session {
    /// Runs a `CREATE TABLE ... AS` and completes it with the rows it stored.
    pub(super) async fn run_create_table_as<S: ResultSink>(
        &mut self,
        query: direct::Query<'_>,
        sink: &mut S,
    ) -> Result<(), Error> {
        let table = created_table(query.sql);
        let mut held = HeldCompletion {
            sink,
            completion: None,
        };
        self.run_direct(query, &mut held).await?;
        let Some(mut completion) = held.completion else {
            return Ok(());
        };
        if let Some(table) = table {
            // The name comes from the statement just run, as SQLite's parser
            // printed it (quoted where it needs to be).
            let count_sql = format!("SELECT count(*) FROM {table}");
            let count: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(count_sql))
                .fetch_one(self.connection().await?)
                .await?;
            completion.rows_affected = u64::try_from(count).unwrap_or(0);
        }
        held.sink.finish_statement(completion)
    }
}
