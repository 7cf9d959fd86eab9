//! Portals read a batch at a time: a read-only query opened as a cursor on the
//! session's own connection, its rows fetched as the client asks for them
//! (an Execute with a row limit, a named cursor that streams).

use std::time::{Duration, Instant};

use super::execute::Counted;
use super::state::{CursorId, OpenCursor, Session, TransactionState};
use crate::engine::control::StatementControl;
use crate::engine::declared_columns::DeclaredColumns;
use crate::engine::direct;
use crate::engine::result::ResultSink;
use crate::engine::value::Value;
use crate::error::{Error, ErrorKind};
use crate::sql::{Action, Plan, Statement};

impl Session {
    /// Opens a read-only query as a cursor, to fetch its rows a batch at a time
    /// (a portal run with a row limit). `None`: the statement cannot be one (it
    /// writes, or must run elsewhere than on the session's own connection): run it
    /// with `execute_into` instead.
    pub async fn open_cursor(
        &mut self,
        stmt: &Statement,
        params: &[Value],
    ) -> Result<Option<CursorId>, Error> {
        let eligible = matches!(stmt.plan, Plan::Single)
            && stmt.action == Action::Read
            && stmt.returns_rows
            && params.len() == stmt.param_count
            && self.state != TransactionState::Failed
            && self.write.is_none()
            && !self.local
            && !stmt.pragma;
        if !eligible {
            return Ok(None);
        }
        let read = match &self.engine.shared_reads {
            Some(reads) => match reads.begin(false) {
                Some(read) => Some(read),
                // The shared cache's snapshot is old: run it whole, elsewhere.
                None => return Ok(None),
            },
            None => None,
        };
        let opened = self.open_cursor_here(stmt, params).await;
        let cursor = match opened {
            Ok(cursor) => cursor,
            Err(error) => {
                self.fail_transaction();
                return Err(error);
            }
        };
        let id = self.next_cursor;
        self.next_cursor += 1;
        self.cursors.insert(
            id,
            OpenCursor {
                cursor,
                column_types: stmt.column_types.clone(),
                _read: read,
                portal: false,
                counted: None,
            },
        );
        Ok(Some(id))
    }

    pub(super) async fn open_cursor_here(
        &mut self,
        stmt: &Statement,
        params: &[Value],
    ) -> Result<direct::Cursor, Error> {
        if stmt.catalog {
            Box::pin(self.prepare_catalog(stmt)).await?;
        }
        let (handle, _) = self.held().await?.direct().await?;
        direct::Cursor::open(
            handle,
            direct::Query {
                sql: &stmt.sql,
                params,
                kind: stmt.kind,
                returns_rows: true,
                parameters: !params.is_empty(),
            },
        )
    }

    /// Counts the portal read through cursor `id` as one run of `stmt`: in
    /// `pg_stat_statements` once its last row is fetched, in the rows metric
    /// as they are. (A named cursor's query is not counted: its `DECLARE` and
    /// `FETCH`es are.)
    pub fn count_portal(&mut self, id: CursorId, stmt: &Statement) {
        let counts = self.engine.shared.statements.counts();
        if let Some(open) = self.cursors.get_mut(&id) {
            open.portal = true;
            open.counted = stmt
                .fingerprint
                .as_ref()
                .filter(|_| counts)
                .map(|fingerprint| (fingerprint.clone(), Duration::ZERO));
        }
    }

    /// Hands up to `max_rows` more rows of cursor `id` to `sink` (0: all of
    /// them), finishing the statement when none is left. Returns whether rows are
    /// left; a cursor with none left, or that failed, is closed.
    pub async fn fetch<S: ResultSink>(
        &mut self,
        id: CursorId,
        max_rows: usize,
        sink: &mut S,
    ) -> Result<bool, Error> {
        let began = Instant::now();
        let mut sink = Counted::new(sink);
        let fetched = match sink.begin_statement() {
            Ok(()) => {
                let control = self.control.control().clone();
                control.start(self.deadline());
                let fetched = self.fetch_from(id, max_rows, &control, &mut sink).await;
                control.finish();
                fetched.map_err(|error| control.explain(error))
            }
            Err(error) => Err(error),
        };
        if self.cursors.get(&id).is_some_and(|open| open.portal) {
            let metrics = &self.engine.shared.metrics;
            metrics
                .rows_returned
                .fetch_add(sink.streamed, std::sync::atomic::Ordering::Relaxed);
        }
        // Its time is every fetch's; its rows, as PostgreSQL counts a portal's,
        // the last fetch's.
        if let (Ok(left), Some(open)) = (&fetched, self.cursors.get_mut(&id))
            && let Some((fingerprint, ran)) = &mut open.counted
        {
            *ran += began.elapsed();
            if !left {
                let (fingerprint, ran) = (fingerprint.clone(), *ran);
                self.count_statement(&fingerprint, ran, sink.streamed);
            }
        }
        let sink = sink.into_inner();
        match &fetched {
            Ok(true) => {}
            Ok(false) => self.close_cursor(id),
            Err(error) => {
                sink.error(error);
                self.close_cursor(id);
                self.fail_transaction();
            }
        }
        fetched
    }

    pub(super) async fn fetch_from<S: ResultSink>(
        &mut self,
        id: CursorId,
        max_rows: usize,
        control: &StatementControl,
        sink: &mut S,
    ) -> Result<bool, Error> {
        let (Some(open), Some(conn)) = (self.cursors.get_mut(&id), self.conn.as_mut()) else {
            return Err(Error::new(
                ErrorKind::UndefinedObject,
                "the portal's transaction has ended",
            ));
        };
        let (handle, _) = conn.direct().await?;
        match &open.column_types {
            Some(types) => {
                let mut sink = DeclaredColumns::new(sink, types);
                open.cursor
                    .fetch(handle, Some(control), max_rows, &mut sink)
                    .await
            }
            None => {
                open.cursor
                    .fetch(handle, Some(control), max_rows, sink)
                    .await
            }
        }
    }

    /// Closes a cursor (its statement is finalized).
    pub fn close_cursor(&mut self, id: CursorId) {
        self.cursors.remove(&id);
    }
}
