//! A session: one client's view of the database and of its transaction, and
//! everything it holds between statements (the behaviour is in the sibling
//! files, one concern each).
//!
//! A session takes a pooled connection on first use and keeps it (pinned) until it
//! ends, so a busy client pays for no pool round trips; it reads there. Writes go
//! to the engine's writer connection, under the write permit: a transaction opens
//! in SQLite at its first write, on the writer, and runs there to its end, so no
//! read transaction is ever held between statements on the readers' connections
//! and table locks never cross between readers and the writer (see `run`).
//! Transaction control is interpreted here, with PostgreSQL's rules: an error
//! inside a transaction fails it until ROLLBACK, COMMIT of a failed transaction
//! rolls back, and a session that ends inside a transaction rolls back.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tokio::sync::OwnedSemaphorePermit;

use crate::engine::access::Role;
use crate::engine::activity;
use crate::engine::backend_kind::BackendKind;
use crate::engine::backends::Registered;
use crate::engine::connection::HeldConnection;
use crate::engine::control::StatementControl;
use crate::engine::database::{Engine, Holding};
use crate::engine::direct;
use crate::engine::functions::ServedSession;
use crate::engine::identity::SessionIdentity;
use crate::engine::notifications::Pending;
use crate::engine::result::Column;
use crate::engine::schema::{self, SchemaCatalog, SessionCatalog};
use crate::engine::sequences::SessionValues;
use crate::engine::settings::{Settings, SharedSettings};
use crate::engine::snapshots::SharedRead;
use crate::engine::value::Value;
use crate::error::{Error, ErrorKind};
use crate::sql::Fingerprint;
use crate::sql::Isolation;
use crate::sql::Statement;
use crate::sql::postgres::Catalog;

/// Where a session stands with respect to transactions (PostgreSQL's I / T / E).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransactionState {
    Idle,
    Active,
    Failed,
}

pub struct Session {
    pub(super) engine: Arc<Engine>,
    /// The session's own connection (a reader), taken on first use and kept until
    /// the session ends.
    pub(super) conn: Option<HeldConnection>,
    pub(super) state: TransactionState,
    /// The right to write, held for a write statement or from a transaction's
    /// first write to its end, with the writer connection the writes run on.
    pub(super) write: Option<WriteLock>,
    /// The group-commit ticket of its last commit, until an fsync covers it
    /// (see `group_commit`).
    pub(super) unsynced: Option<u64>,
    /// Whether a SQLite transaction is open (on the writer connection, or on the
    /// session's own for a session that keeps TEMP objects).
    pub(super) open: bool,
    /// The session made TEMP objects, or changed its own connection with a PRAGMA,
    /// which only that connection has: it runs everything there, writes included
    /// (under the write permit).
    pub(super) local: bool,
    /// The statement running now goes to the session's own connection whatever
    /// the session holds (a PRAGMA, a TEMP object).
    pub(super) route_local: bool,
    /// The statement running now reads on the shared cache (see `snapshots`).
    pub(super) shared_read: Option<SharedRead>,
    /// A local session's transaction reads on the shared cache until it ends.
    pub(super) local_read: Option<SharedRead>,
    /// A connection with a private cache for the statement running now, which the
    /// shared cache would answer from an old snapshot.
    pub(super) fresh: Option<HeldConnection>,
    /// Statements left open between fetches, on the session's own connection.
    pub(super) cursors: HashMap<CursorId, OpenCursor>,
    pub(super) next_cursor: CursorId,
    pub(super) identity: SessionIdentity,
    /// Shared with the connections that run its statements (`set_config()`).
    pub(super) settings: SharedSettings,
    /// SQLite's rule instead of PostgreSQL's: a failed statement inside a
    /// transaction undoes only itself, and the transaction goes on.
    pub(super) errors_keep_transaction: bool,
    /// The open transaction refuses writes (`READ ONLY`, `begin_read_only`).
    pub(super) read_only: bool,
    /// The open transaction's isolation level.
    pub(super) isolation: Isolation,
    /// The open transaction is `DEFERRABLE` (which changes nothing here: a
    /// read-only transaction never fails).
    pub(super) deferrable: bool,
    /// Whether the open transaction has run a statement that reads or writes
    /// (its isolation level can no longer change).
    pub(super) began_work: bool,
    /// The schema changed in the transaction running now (see
    /// `end_transaction`).
    pub(super) changed_schema: bool,
    /// A local session's catalog, TEMP relations included (see `schema`).
    temp_schema: Option<Arc<SchemaCatalog>>,
    /// The open transaction's savepoints, oldest first, each with the
    /// transaction's read-only mode when it was set: ending it (by `RELEASE`
    /// or `ROLLBACK TO`) gives that mode back, as in PostgreSQL.
    pub(super) savepoints: Vec<(String, bool)>,
    /// A REPEATABLE READ or SERIALIZABLE transaction's snapshot, from its first
    /// statement to its end (see `isolation`).
    pub(super) snapshot: Option<Snapshot>,
    /// What the session's statements' functions reach on any connection.
    pub(super) served: Arc<ServedSession>,
    /// LISTEN, UNLISTEN and NOTIFY of the open transaction, applied at its commit.
    pub(super) channels: Pending,
    /// Whether LISTEN may be used: its notifications need a connection to
    /// arrive on (the PostgreSQL front end's), not a request; the notifier
    /// keeps an inbox for the session then.
    pub(super) can_listen: bool,
    /// Counts `conn` as held (see `Engine::has_free_connection`).
    pub(super) holding: Option<Holding>,
    /// Stops the running statement from outside (cancel, timeout, shutdown).
    pub(super) control: Registered,
    /// No statement runs past this (the HTTP front end's request limit).
    pub(super) time_limit: Option<Instant>,
    /// The session's `currval`/`lastval` values.
    pub(super) sequence_values: Arc<SessionValues>,
    /// Cursors made with `DECLARE` (see `named_cursors`).
    pub(super) named_cursors: NamedCursors,
    /// Statements kept by `PREPARE` (see `prepared`).
    pub(super) prepared: PreparedStatements,
}

/// The statements `PREPARE` kept, by name (see `prepared`).
#[derive(Debug, Default)]
pub(super) struct PreparedStatements(pub(super) HashMap<String, Arc<Statement>>);

/// Names an open cursor of a session.
pub type CursorId = u64;

/// A cursor and, with the shared cache, the read it keeps in flight there.
pub(super) struct OpenCursor {
    pub(super) cursor: direct::Cursor,
    /// The statement's `column_types`.
    pub(super) column_types: Option<Arc<[Option<&'static str>]>>,
    pub(super) _read: Option<SharedRead>,
    /// Whether a protocol portal reads it (a named cursor's rows are counted
    /// by its FETCHes instead).
    pub(super) portal: bool,
    /// A portal's statement, counted by `pg_stat_statements` once its last
    /// row is fetched: what it is counted under, and its time so far.
    pub(super) counted: Option<(Arc<Fingerprint>, Duration)>,
}

/// The write permit and, unless the session runs everything on its own
/// connection, the engine's writer connection, which only the permit's holder uses.
pub(super) struct WriteLock {
    pub(super) permit: OwnedSemaphorePermit,
    pub(super) conn: Option<HeldConnection>,
    /// Held to the end of the transaction (else: to the end of the statement).
    pub(super) transaction: bool,
    /// When it was taken (`/metrics` counts how long it is held).
    pub(super) since: Instant,
    /// A write ran under it (a locking read alone changes nothing).
    pub(super) wrote: bool,
}

/// The one snapshot a REPEATABLE READ or SERIALIZABLE transaction reads: a
/// SQLite read transaction held open on a connection with a private cache (the
/// session's own, or one taken for the transaction with the shared cache), and
/// the engine's count of committed writes when it was taken.
pub(super) struct Snapshot {
    /// The connection taken for the transaction; `None`: the session's own.
    pub(super) conn: Option<HeldConnection>,
    pub(super) commits: u64,
}

/// Cursors made with `DECLARE` (see `named_cursors`).
#[derive(Default)]
pub(super) struct NamedCursors {
    pub(super) by_name: HashMap<String, NamedCursor>,
}

pub(super) struct NamedCursor {
    pub(super) columns: Arc<Vec<Column>>,
    pub(super) rows: Rows,
    pub(super) hold: bool,
    /// The savepoints in play when it was declared: `ROLLBACK TO` one of
    /// those, or an earlier one, keeps it; to a later one closes it.
    pub(super) savepoints: usize,
}

pub(super) enum Rows {
    /// Read from SQLite as they are fetched.
    Open(CursorId),
    /// Run whole when declared.
    Kept(VecDeque<Vec<Value>>),
    /// Every row was fetched.
    Done,
}

impl NamedCursors {
    /// The transaction ended: its cursors go, and a COMMIT keeps `WITH HOLD` ones.
    pub(super) fn end_transaction(&mut self, committed: bool) {
        self.by_name
            .retain(|_, cursor| committed && cursor.hold && !matches!(cursor.rows, Rows::Open(_)));
    }

    /// The columns `FETCH` from cursor `name` returns.
    pub(super) fn columns(&self, name: &str) -> Result<Arc<Vec<Column>>, Error> {
        Ok(self.find(name)?.columns.clone())
    }

    pub(super) fn find(&self, name: &str) -> Result<&NamedCursor, Error> {
        self.by_name.get(name).ok_or_else(|| no_cursor(name))
    }
}

pub(super) fn no_cursor(name: &str) -> Error {
    Error::new(
        ErrorKind::InvalidCursorName,
        format!("cursor \"{name}\" does not exist"),
    )
}

/// Sessions are made by the engine, with its shared parts.
impl Engine {
    /// A new session: a client's view of the database, with its own transaction,
    /// and what it may do (see `access`). Every caller says which role: the one
    /// its client logged in with, or read-only until it knows.
    pub fn session(self: &Arc<Self>, role: Role) -> Session {
        let identity = SessionIdentity {
            role,
            ..SessionIdentity::default()
        };
        Session::new(self.clone(), identity, Settings::default())
    }

    /// A session for a client that said who it is and what it wants set.
    pub fn session_for(self: &Arc<Self>, identity: SessionIdentity, settings: Settings) -> Session {
        Session::new(self.clone(), identity, settings)
    }
}

impl Session {
    pub(in crate::engine) fn new(
        engine: Arc<Engine>,
        mut identity: SessionIdentity,
        settings: Settings,
    ) -> Self {
        let settings = SharedSettings::new(settings.with_server_defaults(&engine.server_defaults));
        engine
            .shared
            .metrics
            .sessions
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let control = engine.shared.backends.register(
            identity.role,
            settings.clone(),
            &engine.shared.metrics,
        );
        identity.backend_pid = control.pid();
        control.activity().identify(&identity);
        let served = Arc::new(ServedSession::new(
            settings.clone(),
            control.id(),
            control.pid(),
        ));
        Session {
            engine,
            conn: None,
            state: TransactionState::Idle,
            write: None,
            unsynced: None,
            open: false,
            local: false,
            route_local: false,
            shared_read: None,
            local_read: None,
            fresh: None,
            cursors: HashMap::new(),
            next_cursor: 0,
            identity,
            settings: settings.clone(),
            errors_keep_transaction: false,
            read_only: false,
            isolation: Isolation::ReadCommitted,
            deferrable: false,
            began_work: false,
            changed_schema: false,
            temp_schema: None,
            savepoints: Vec::new(),
            snapshot: None,
            served: served.clone(),
            channels: Pending::default(),
            can_listen: false,
            holding: None,
            control,
            time_limit: None,
            sequence_values: served.sequence_values.clone(),
            named_cursors: NamedCursors::default(),
            prepared: PreparedStatements::default(),
        }
    }

    /// Switches the session to SQLite's rule for errors in a transaction (the
    /// failed statement alone is undone), for clients that expect SQLite's
    /// behaviour rather than PostgreSQL's (Hrana).
    pub fn keep_transaction_on_error(&mut self) {
        self.errors_keep_transaction = true;
    }

    /// What stops this session's running statement from outside.
    pub fn control(&self) -> Arc<StatementControl> {
        self.control.control().clone()
    }

    /// The pid the session is known by (BackendKeyData, `pg_backend_pid()`,
    /// `pg_stat_activity`).
    pub fn pid(&self) -> i32 {
        self.control.pid()
    }

    /// Which front end serves the session (`pg_stat_activity`).
    pub fn serves(&self, kind: BackendKind) {
        self.control.activity().serves(kind);
    }

    /// Where the session's client connects from (`pg_stat_activity`).
    pub fn client_address(&self, client: Option<activity::ClientAddress>) {
        self.control.activity().client(client);
    }

    /// A client's query starts: `pg_stat_activity` shows it running, and a
    /// cancel from now on stops it (one sent before is forgotten).
    pub fn report_query(&self, text: &str) {
        self.report_query_parts([text]);
    }

    /// [`Self::report_query`] for a query of several statements' texts.
    pub fn report_query_parts<'a>(&self, parts: impl IntoIterator<Item = &'a str>) {
        self.control.control().query_starts();
        self.control.activity().query_starts(parts);
    }

    /// The session goes back to wait for its client: `pg_stat_activity`
    /// shows it idle (in a transaction, or not).
    pub fn report_idle(&self) {
        let state = match self.state {
            TransactionState::Idle => activity::State::Idle,
            TransactionState::Active => activity::State::IdleInTransaction,
            TransactionState::Failed => activity::State::IdleInFailedTransaction,
        };
        self.control.activity().waits_for_client(state);
    }

    /// No statement of this session runs past `limit` (`None`: no limit but
    /// `statement_timeout`).
    pub fn limit_until(&mut self, limit: Option<Instant>) {
        self.time_limit = limit;
    }

    /// How long the session may sit idle inside a transaction before it is ended
    /// (`idle_in_transaction_session_timeout`); `None`: no limit.
    pub fn idle_in_transaction_timeout(&self) -> Option<std::time::Duration> {
        self.settings
            .lock()
            .duration("idle_in_transaction_session_timeout")
    }

    pub fn transaction_state(&self) -> TransactionState {
        self.state
    }

    /// Records who the client is and what it asked for at startup, before its
    /// first statement.
    pub fn identify(&mut self, mut identity: SessionIdentity, settings: Settings) {
        identity.backend_pid = self.control.pid();
        self.control.activity().identify(&identity);
        self.identity = identity;
        self.settings
            .replace(settings.with_server_defaults(&self.engine.server_defaults));
    }

    /// The session's settings as they are now.
    pub fn settings(&self) -> Settings {
        self.settings.snapshot()
    }

    /// The session's settings as they change, for a front end that reads one
    /// of them while a batch runs (`extra_float_digits` for each result).
    pub fn shared_settings(&self) -> SharedSettings {
        self.settings.clone()
    }

    /// Reported settings that changed since the last call (for ParameterStatus).
    pub fn take_setting_changes(&mut self) -> Vec<(String, String)> {
        self.settings.lock().take_changes()
    }

    /// Changes whenever a statement may have changed the schema: parameter
    /// types described under another value may be stale.
    pub fn schema_generation(&self) -> u64 {
        let generation = self.engine.declared_types.generation();
        // Until the file has schemas of the user's, no path matters (a
        // statement read against an unkept catalog that has some is read
        // again: correct, if slower, until the catalog is kept).
        if !self.local && !self.engine.schema.schemas_seen() {
            return generation;
        }
        let kept = match self.local {
            true => self.temp_schema.clone(),
            false => self.engine.schema.get(generation),
        };
        match kept {
            Some(schema) if schema.version_read() == generation => {
                SessionCatalog::new(&schema, || self.search_path()).version()
            }
            _ => generation,
        }
    }

    /// The session's `search_path` setting.
    pub(super) fn search_path(&self) -> String {
        self.settings
            .lock()
            .current_setting("search_path", true)
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// The tables and views statements are read against on the PostgreSQL
    /// port, as of the current schema generation.
    pub async fn schema(&mut self) -> Result<Arc<SchemaCatalog>, Error> {
        let generation = self.engine.declared_types.generation();
        if self.local {
            return self.local_schema(generation).await;
        }
        if let Some(catalog) = self.engine.schema.get(generation) {
            return Ok(catalog);
        }
        // Inside a transaction that writes, the schema read may not be
        // committed yet: it is this session's alone.
        let uncommitted = self.write.as_ref().is_some_and(|w| w.transaction);
        let conn = self.connection().await?;
        let catalog = Arc::new(schema::read(conn, generation).await?);
        if !uncommitted {
            self.engine.schema.keep(catalog.clone());
        }
        Ok(catalog)
    }

    /// Reads a statement with `read` against the schema. A name the cached
    /// schema lacks may be one that another process has just made (a
    /// follower's writer, a `sqlite3` shell): when the read fails and the
    /// file's schema has moved on since the cache was read, the cache is
    /// dropped and the statement read once more. Only failures pay the look.
    pub async fn read_against_schema<T>(
        &mut self,
        read: impl Fn(&dyn Catalog) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let schema = self.schema().await?;
        let error = match read(&SessionCatalog::new(&schema, || self.search_path())) {
            Ok(done) => return Ok(done),
            Err(error) => error,
        };
        if !schema.is_behind(self.connection().await?).await {
            return Err(error);
        }
        self.engine.declared_types.invalidate();
        let schema = self.schema().await?;
        read(&SessionCatalog::new(&schema, || self.search_path()))
    }

    /// The catalog of a session with TEMP objects, read on its own
    /// connection, where they are (over the main schema's relations of the
    /// same name, as SQLite and PostgreSQL both resolve a name), and kept
    /// for it alone.
    async fn local_schema(&mut self, generation: u64) -> Result<Arc<SchemaCatalog>, Error> {
        if let Some(catalog) = &self.temp_schema
            && catalog.version_read() == generation
        {
            return Ok(catalog.clone());
        }
        let routed = std::mem::replace(&mut self.route_local, true);
        let read = match self.connection().await {
            Ok(conn) => schema::read_with_temp(conn, generation).await,
            Err(error) => Err(error),
        };
        self.route_local = routed;
        let catalog = Arc::new(read?);
        self.temp_schema = Some(catalog.clone());
        Ok(catalog)
    }

    /// Ends the session: rolls back an open transaction and returns the connection.
    /// A query still counted as running ends here (counted, and logged if slow).
    pub async fn close(mut self) {
        self.report_idle();
        if self.state != TransactionState::Idle
            && let Err(error) = self.rollback().await
        {
            tracing::warn!(%error, "rollback at session end failed");
        }
    }

    /// Marks an open transaction as failed (after an error outside `execute`:
    /// a statement that did not prepare, parameters that did not bind).
    pub fn fail_transaction(&mut self) {
        if self.state == TransactionState::Active {
            self.state = TransactionState::Failed;
        }
    }

    /// Why the authorizer refused, when it did (SQLite says only "not authorized").
    pub(super) fn explain(&self, error: Error) -> Error {
        let writer = self.write.as_ref().and_then(|w| w.conn.as_ref());
        [writer, self.fresh.as_ref(), self.conn.as_ref()]
            .into_iter()
            .flatten()
            .fold(error, |error, conn| conn.explain(error))
    }
}

/// A session that ends outside a transaction leaves its connection, and the
/// statements prepared on it, to the next session. A connection left inside a
/// transaction (a session dropped without `close`) goes back to the pool, whose
/// release hook rolls it back. One whose settings a PRAGMA changed (see
/// `access`) is closed: the next session gets a new one.
impl Drop for Session {
    fn drop(&mut self) {
        // Cursors' statements are finalized while their connection is still ours.
        self.cursors.clear();
        let own_in_transaction = self.open
            && self.write.as_ref().is_none_or(|w| w.conn.is_none())
            && self.snapshot.as_ref().is_none_or(|s| s.conn.is_none());
        self.snapshot = None;
        self.release_write();
        // Only a session that took advisory locks, or could listen, left
        // anything in the lock table or the notifier.
        let session = self.served.session;
        if self.served.took_advisory_locks.load(Ordering::Acquire) {
            self.engine.shared.locks.session_ended(session);
        }
        if self.can_listen {
            self.engine.shared.notifier.session_ended(session);
        }
        match self.conn.take() {
            Some(conn) if conn.changed() => conn.discard(),
            Some(conn) if !own_in_transaction => self.engine.park(conn),
            _ => {}
        }
    }
}
