//! Who may do what on a pooled connection: SQLite's authorizer
//! (`sqlite3_set_authorizer`), installed on every connection when it opens, and
//! the role of the session that holds the connection.
//!
//! SQLite itself decides, at prepare time, for every table, PRAGMA and ATTACH a
//! statement touches, so no SQL is parsed here and nothing escapes through a
//! trigger, a view, a multi-statement script or a pragma table-valued function:
//! - `readonly` sessions write nothing but their own TEMP objects (25006, as a
//!   read-only transaction in PostgreSQL);
//! - PRAGMAs that change the file or the connection for other clients
//!   (`journal_mode`, `writable_schema`, `synchronous`, `locking_mode`, ...) are
//!   for `admin` sessions only (42501); reading any PRAGMA is allowed, and so is
//!   setting the few that only touch the session's own work: `foreign_keys` (the
//!   connection is discarded when the session ends, so it lasts as long as the
//!   session), `defer_foreign_keys` (ends with the transaction), `user_version`
//!   and `application_id` (data of the file, like a row);
//! - ATTACH of a file needs `--allow-attach` and, once users are configured, an
//!   admin. VACUUM attaches an unnamed temporary database, which is allowed.
//!
//! A connection on which a session changed a setting (a PRAGMA) or made TEMP
//! objects of its own is closed when the session ends instead of serving the next
//! one: a TEMP table would shadow a table of the same name for the next session, a
//! TEMP trigger would run with its rights.
//!
//! The authorizer runs when a statement is prepared, and prepared statements are
//! cached per connection; so when a connection passes to a session of another
//! role, the authorizer is installed again, which makes SQLite expire every
//! prepared statement: each is prepared (and authorized) again before it runs.
//!
//! The per-connection state lives in SQLite's client data slot of the connection,
//! which SQLite frees when the connection closes.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use libsqlite3_sys as ffi;

use super::table_stats::TableStats;
use crate::error::{Error, ErrorKind};
use crate::sql::relations;

/// What a session may do. The default is the least: a session nobody vouched for
/// reads only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Role {
    /// Everything, including the PRAGMAs that change the file or connection.
    Admin,
    /// Read and write data and schema.
    ReadWrite,
    /// Read only (TEMP objects excepted).
    #[default]
    ReadOnly,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::ReadWrite => "readwrite",
            Role::ReadOnly => "readonly",
        }
    }

    fn from_u8(value: u8) -> Role {
        match value {
            0 => Role::Admin,
            1 => Role::ReadWrite,
            _ => Role::ReadOnly,
        }
    }

    fn to_u8(self) -> u8 {
        match self {
            Role::Admin => 0,
            Role::ReadWrite => 1,
            Role::ReadOnly => 2,
        }
    }
}

impl std::str::FromStr for Role {
    type Err = String;

    fn from_str(text: &str) -> Result<Role, String> {
        match text {
            "admin" => Ok(Role::Admin),
            "readwrite" => Ok(Role::ReadWrite),
            "readonly" => Ok(Role::ReadOnly),
            other => Err(format!(
                "unknown role \"{other}\" (admin, readwrite or readonly)"
            )),
        }
    }
}

/// The server-wide rules for ATTACH.
#[derive(Debug, Clone, Copy)]
pub(super) struct AttachRule {
    /// `--allow-attach`.
    pub allowed: bool,
    /// Users are configured: only admins may attach.
    pub admin_only: bool,
}

/// One connection's authorizer state.
#[derive(Debug)]
pub(super) struct Access {
    role: AtomicU8,
    attach: AttachRule,
    /// The server serves a file something else writes (`--read-only`): every
    /// session reads only, whatever its role.
    follower: bool,
    /// Why the authorizer last refused: SQLite only says "not authorized".
    denial: Mutex<Option<Error>>,
    /// A PRAGMA changed this connection: it must not serve another session.
    changed: AtomicBool,
    /// The rows changed per table, forgotten for a table dropped or altered
    /// (a new table of its name starts from none, as a new table's oid does).
    tables: Arc<TableStats>,
    /// Whether litewire's own statements may switch CHECKs off (see
    /// `allow_check_switch`).
    check_switch: AtomicBool,
}

/// The name of the client data slot holding the connection's `Access`.
const SLOT: &CStr = c"litewire.access";

impl Access {
    /// Installs the authorizer on a new connection; the connection starts with
    /// the admin role (the pool's own statements), until a session takes it.
    ///
    /// # Safety
    /// `db` must be a valid connection, locked for the caller.
    pub(super) unsafe fn install(
        db: *mut ffi::sqlite3,
        attach: AttachRule,
        follower: bool,
        tables: Arc<TableStats>,
    ) -> Result<(), String> {
        let access = Arc::new(Access {
            role: AtomicU8::new(Role::Admin.to_u8()),
            attach,
            follower,
            denial: Mutex::new(None),
            changed: AtomicBool::new(false),
            check_switch: AtomicBool::new(false),
            tables,
        });
        let raw = Arc::into_raw(access) as *mut c_void;
        // SAFETY: `db` is valid (caller's contract); SQLite owns `raw` from here
        // and releases it with `release` when the connection closes.
        let rc = unsafe { ffi::sqlite3_set_clientdata(db, SLOT.as_ptr(), raw, Some(release)) };
        if rc != ffi::SQLITE_OK {
            // SAFETY: SQLite did not take `raw`; it came from `Arc::into_raw` above.
            drop(unsafe { Arc::from_raw(raw as *const Access) });
            return Err("could not attach the authorizer state to a connection".to_owned());
        }
        // SAFETY: `raw` lives as long as the connection (client data above).
        unsafe { authorize_with(db, raw) };
        Ok(())
    }

    /// The state installed on `db`.
    ///
    /// # Safety
    /// `db` must be a valid connection, locked for the caller.
    pub(super) unsafe fn of(db: *mut ffi::sqlite3) -> Option<Arc<Access>> {
        // SAFETY: `db` is valid; the slot holds an `Arc<Access>` pointer or null.
        let raw = unsafe { ffi::sqlite3_get_clientdata(db, SLOT.as_ptr()) } as *const Access;
        if raw.is_null() {
            return None;
        }
        // SAFETY: the slot keeps one strong count for as long as the connection
        // lives; this adds one for the returned `Arc`.
        unsafe {
            Arc::increment_strong_count(raw);
            Some(Arc::from_raw(raw))
        }
    }

    /// Gives the connection to a session of `role`. When the role changes, the
    /// connection's prepared statements are expired, to be authorized again.
    ///
    /// # Safety
    /// `db` must be the connection this state is installed on, locked for the caller.
    pub(super) unsafe fn set_role(self: &Arc<Self>, db: *mut ffi::sqlite3, role: Role) {
        self.take_denial();
        if self.role.swap(role.to_u8(), Ordering::Relaxed) != role.to_u8() {
            // SAFETY: `db` is valid and the pointer is the one held in its client
            // data slot, alive as long as the connection.
            unsafe { authorize_with(db, Arc::as_ptr(self) as *mut c_void) };
        }
    }

    /// Lets litewire's own statements set `ignore_check_constraints` (a
    /// rebuild's copy, see `rebuild`), until called again with `false`; a
    /// client's never may, but an admin's.
    pub(super) fn allow_check_switch(&self, allowed: bool) {
        self.check_switch.store(allowed, Ordering::Relaxed);
    }

    /// The role a session of `role` works under: read-only on a follower, as
    /// every session of a PostgreSQL standby is.
    pub(super) fn session_role(&self, role: Role) -> Role {
        if self.follower { Role::ReadOnly } else { role }
    }

    /// Whether a PRAGMA or a TEMP object of a client's changed the connection since
    /// it opened.
    pub(super) fn changed(&self) -> bool {
        self.changed.load(Ordering::Relaxed)
    }

    /// The reason of the last refusal, once.
    pub(super) fn take_denial(&self) -> Option<Error> {
        self.denial.lock().ok().and_then(|mut denial| denial.take())
    }

    /// Replaces SQLite's "not authorized" with why the authorizer refused.
    pub(super) fn explain(&self, error: Error) -> Error {
        match error.sqlite_code() {
            Some(code) if code & 0xff == ffi::SQLITE_AUTH => self.take_denial().unwrap_or(error),
            _ => error,
        }
    }

    fn role(&self) -> Role {
        Role::from_u8(self.role.load(Ordering::Relaxed))
    }

    /// The decision for one action SQLite asks about.
    fn decide(
        &self,
        action: c_int,
        arg1: Option<&str>,
        arg2: Option<&str>,
        db: Option<&str>,
    ) -> Result<(), Error> {
        let role = self.role();
        if makes_client_temp_object(action, arg1, db) {
            self.changed.store(true, Ordering::Relaxed);
        }
        match action {
            ffi::SQLITE_PRAGMA => self.pragma(role, arg1.unwrap_or(""), arg2),
            ffi::SQLITE_ATTACH => self.attach(role, arg1.unwrap_or("")),
            // A schema change writes the schema table first; the check of the
            // change itself, which follows, names the command.
            ffi::SQLITE_INSERT | ffi::SQLITE_UPDATE | ffi::SQLITE_DELETE
                if role == Role::ReadOnly
                    && db != Some("temp")
                    && !matches!(arg1, Some("sqlite_master" | "sqlite_schema")) =>
            {
                Err(read_only(match action {
                    ffi::SQLITE_INSERT => "INSERT",
                    ffi::SQLITE_UPDATE => "UPDATE",
                    _ => "DELETE",
                }))
            }
            ffi::SQLITE_ALTER_TABLE if role == Role::ReadOnly && arg1 != Some("temp") => {
                Err(read_only("ALTER TABLE"))
            }
            _ if role == Role::ReadOnly && db != Some("temp") => match schema_change(action) {
                Some(command) => Err(read_only(command)),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }

    fn pragma(&self, role: Role, name: &str, value: Option<&str>) -> Result<(), Error> {
        let name = name.to_ascii_lowercase();
        let Some(_value) = value else {
            return match name.as_str() {
                "optimize" | "incremental_vacuum" | "wal_checkpoint" if role == Role::ReadOnly => {
                    Err(read_only("PRAGMA"))
                }
                _ => Ok(()),
            };
        };
        if OBJECT_ARGUMENT_PRAGMAS.contains(&name.as_str()) {
            return Ok(());
        }
        match (name.as_str(), role) {
            ("user_version" | "application_id", Role::ReadOnly) => Err(read_only("PRAGMA")),
            ("user_version" | "application_id" | "defer_foreign_keys", _) => Ok(()),
            ("ignore_check_constraints", _) if self.check_switch.load(Ordering::Relaxed) => Ok(()),
            ("foreign_keys", _) | (_, Role::Admin) => {
                self.changed.store(true, Ordering::Relaxed);
                Ok(())
            }
            _ => Err(Error::new(
                ErrorKind::InsufficientPrivilege,
                format!(
                    "permission denied to set PRAGMA {name}: it changes the database file or \
                     the connection for other clients, which only admin users may do"
                ),
            )),
        }
    }

    fn attach(&self, role: Role, file: &str) -> Result<(), Error> {
        // VACUUM (and `ATTACH ''`) attach a private temporary database.
        if file.is_empty() {
            return match role {
                Role::ReadOnly => Err(read_only("VACUUM")),
                _ => Ok(()),
            };
        }
        if !self.attach.allowed {
            return Err(Error::new(
                ErrorKind::InsufficientPrivilege,
                "ATTACH and VACUUM INTO are disabled on this server (see --allow-attach)",
            ));
        }
        match role {
            Role::ReadOnly => Err(read_only("ATTACH")),
            Role::ReadWrite if self.attach.admin_only => Err(Error::new(
                ErrorKind::InsufficientPrivilege,
                "permission denied to ATTACH a database file: only admin users may",
            )),
            _ => Ok(()),
        }
    }

    fn deny(&self, error: Error) {
        if let Ok(mut denial) = self.denial.lock() {
            *denial = Some(error);
        }
    }
}

/// PRAGMAs whose argument names a table or index, or a row limit: they only read.
const OBJECT_ARGUMENT_PRAGMAS: &[&str] = &[
    "table_info",
    "table_xinfo",
    "table_list",
    "index_info",
    "index_xinfo",
    "index_list",
    "foreign_key_list",
    "foreign_key_check",
    "integrity_check",
    "quick_check",
];

/// Whether `action` creates a TEMP object of the client's own (the emulated
/// catalog's TEMP tables and views are litewire's): such an object would outlive
/// the session on the connection, and shadow tables or fire triggers for the next
/// session on it, with that session's rights.
fn makes_client_temp_object(action: c_int, name: Option<&str>, db: Option<&str>) -> bool {
    match action {
        ffi::SQLITE_CREATE_TEMP_TABLE | ffi::SQLITE_CREATE_TEMP_VIEW => {
            name.is_none_or(|name| relations::find(name).is_none())
        }
        ffi::SQLITE_CREATE_TEMP_TRIGGER | ffi::SQLITE_CREATE_TEMP_INDEX => true,
        ffi::SQLITE_CREATE_VTABLE => db == Some("temp"),
        _ => false,
    }
}

/// The command a schema-changing action is, for a read-only refusal.
fn schema_change(action: c_int) -> Option<&'static str> {
    Some(match action {
        ffi::SQLITE_CREATE_TABLE => "CREATE TABLE",
        ffi::SQLITE_CREATE_INDEX => "CREATE INDEX",
        ffi::SQLITE_CREATE_VIEW => "CREATE VIEW",
        ffi::SQLITE_CREATE_TRIGGER => "CREATE TRIGGER",
        ffi::SQLITE_CREATE_VTABLE => "CREATE VIRTUAL TABLE",
        ffi::SQLITE_DROP_TABLE => "DROP TABLE",
        ffi::SQLITE_DROP_INDEX => "DROP INDEX",
        ffi::SQLITE_DROP_VIEW => "DROP VIEW",
        ffi::SQLITE_DROP_TRIGGER => "DROP TRIGGER",
        ffi::SQLITE_DROP_VTABLE => "DROP VIRTUAL TABLE",
        ffi::SQLITE_REINDEX => "REINDEX",
        ffi::SQLITE_ANALYZE => "ANALYZE",
        _ => return None,
    })
}

fn read_only(command: &str) -> Error {
    Error::new(
        ErrorKind::ReadOnlyTransaction,
        format!("cannot execute {command} in a read-only transaction"),
    )
}

/// Installs (or installs again, expiring prepared statements) the authorizer.
///
/// # Safety
/// `db` must be valid and locked for the caller; `access` must point to the
/// `Access` held in `db`'s client data slot.
unsafe fn authorize_with(db: *mut ffi::sqlite3, access: *mut c_void) {
    // SAFETY: per this function's contract.
    unsafe { ffi::sqlite3_set_authorizer(db, Some(authorize), access) };
}

/// SQLite's authorizer callback.
unsafe extern "C" fn authorize(
    data: *mut c_void,
    action: c_int,
    arg1: *const c_char,
    arg2: *const c_char,
    db: *const c_char,
    _trigger: *const c_char,
) -> c_int {
    // SAFETY: `data` is the `Access` of this connection, alive while it is open.
    let access = unsafe { &*(data as *const Access) };
    // SAFETY: SQLite passes NUL-terminated strings or null.
    let (arg1, arg2, db) = unsafe { (text(arg1), text(arg2), text(db)) };
    let decided = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        access.decide(action, arg1, arg2, db)
    }));
    match decided {
        Ok(Ok(())) => {
            let altered = match action {
                ffi::SQLITE_DROP_TABLE if db == Some("main") => arg1,
                ffi::SQLITE_ALTER_TABLE if arg1 == Some("main") => arg2,
                _ => None,
            };
            if let Some(table) = altered {
                access.tables.forget(table);
            }
            ffi::SQLITE_OK
        }
        Ok(Err(error)) => {
            access.deny(error);
            ffi::SQLITE_DENY
        }
        Err(_) => ffi::SQLITE_DENY,
    }
}

/// # Safety
/// `text` is null or a NUL-terminated string that outlives the returned borrow.
unsafe fn text<'a>(text: *const c_char) -> Option<&'a str> {
    if text.is_null() {
        None
    } else {
        // SAFETY: per this function's contract.
        unsafe { CStr::from_ptr(text) }.to_str().ok()
    }
}

/// Frees a connection's `Access` when SQLite closes the connection.
unsafe extern "C" fn release(raw: *mut c_void) {
    // SAFETY: `raw` came from `Arc::into_raw` in `install`; SQLite calls this once.
    drop(unsafe { Arc::from_raw(raw as *const Access) });
}
