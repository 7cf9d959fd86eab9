//! A staged statement (see `sql::modifying_ctes`): the statements before it,
//! it (its rows to the client, as any query's), and the statements after
//! it, in one savepoint, so that all of it is kept or none.

use std::sync::Arc;

use sqlx::Executor;

use crate::engine::declared_columns::DeclaredColumns;
use crate::engine::direct;
use crate::engine::exec::run_script;
use crate::engine::result::Column;
use crate::engine::result::{Discard, ResultSink};
use crate::engine::session::state::Session;
use crate::engine::value::Value;
use crate::error::Error;
use crate::sql::{CommandKind, Plan, Staged, Statement};

impl Session {
    /// The columns of a staged statement: it is described with the tables it
    /// reads made, and then unmade.
    pub(super) async fn describe_staged(
        &mut self,
        stmt: &Statement,
        staged: &Staged,
    ) -> Result<std::sync::Arc<Vec<Column>>, Error> {
        let conn = self.connection().await?;
        conn.execute("SAVEPOINT litewire_staged").await?;
        let made: Vec<std::sync::Arc<str>> = (staged.before.iter())
            .filter(|s| s.starts_with("CREATE TEMP TABLE"))
            .cloned()
            .collect();
        let described = run_script(conn, &made).await;
        let described = match described {
            Ok(_) => {
                let single = Statement {
                    plan: Plan::Single,
                    ..stmt.clone()
                };
                self.describe(&single).await
            }
            Err(error) => Err(error),
        };
        let conn = self.connection().await?;
        conn.execute("ROLLBACK TO litewire_staged").await?;
        conn.execute("RELEASE litewire_staged").await?;
        described
    }

    pub(super) async fn run_staged<S: ResultSink>(
        &mut self,
        stmt: &Statement,
        staged: &Staged,
        query: direct::Query<'_>,
        sink: &mut S,
    ) -> Result<(), Error> {
        self.connection()
            .await?
            .execute("SAVEPOINT litewire_staged")
            .await?;
        let ran = async {
            self.run_before(&staged.before, query.params).await?;
            match &stmt.column_types {
                Some(types) => {
                    let mut sink = DeclaredColumns::new(sink, types);
                    self.run_direct(query, &mut sink).await?;
                }
                None => self.run_direct(query, sink).await?,
            }
            run_script(self.connection().await?, &staged.after).await
        }
        .await;
        let conn = self.connection().await?;
        if ran.is_err() {
            conn.execute("ROLLBACK TO litewire_staged").await?;
        }
        conn.execute("RELEASE litewire_staged").await?;
        ran.map(|_| ())
    }

    /// The statements before a staged one, with its parameters (each stage
    /// binds those it uses), each failing as any statement does (a unique
    /// violation named by its constraint, ...).
    async fn run_before(&mut self, before: &[Arc<str>], params: &[Value]) -> Result<(), Error> {
        for sql in before {
            let stage = direct::Query {
                sql,
                params,
                kind: CommandKind::Other("STAGE"),
                returns_rows: false,
                parameters: !params.is_empty(),
            };
            self.run_direct(stage, &mut Discard).await?;
        }
        Ok(())
    }
}
