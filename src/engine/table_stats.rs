//! Rows inserted, updated and deleted per table, for `pg_stat_user_tables`
//! (`n_tup_ins`, `n_tup_upd`, `n_tup_del`) and `pg_stat_database`'s
//! `tup_*`; and the highest rowid inserted, which a sequence that numbers
//! the table's rowid passes over.
//!
//! SQLite tells every connection's update hook of each row a statement
//! changes, in the table it changes (a trigger's, a cascade's, an upsert's
//! included), which is what PostgreSQL counts; like PostgreSQL's, the counts
//! include rows of transactions that rolled back. The hook runs on the
//! writing connection's thread, where the write permit makes one writer at a
//! time: its lock is never contended. SQLite does not call the hook for a
//! `DELETE` without `WHERE` (it truncates) or for a `WITHOUT ROWID` table;
//! TEMP tables and litewire's own are not counted. A table's counts are
//! forgotten when a statement that drops or alters it is prepared (see
//! `access`): a new table of the same name starts from none, as a new table
//! does in PostgreSQL, and so does a table renamed or rebuilt by `ALTER
//! TABLE`, unlike PostgreSQL's.

use std::collections::HashMap;
use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use libsqlite3_sys as ffi;

/// Rows changed in one table since the server started: inserted, updated,
/// deleted.
pub type Changes = [u64; 3];

#[derive(Debug, Default)]
pub struct TableStats {
    tables: Mutex<HashMap<Box<str>, Counts, foldhash::fast::RandomState>>,
}

/// One table's changes, and the highest rowid a row was inserted with: a
/// sequence that numbers the table's rowid passes over it (see
/// `functions::sequences`).
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    changes: Changes,
    highest_rowid: Option<i64>,
}

impl Counts {
    fn record(&mut self, change: usize, rowid: i64) {
        self.changes[change] += 1;
        if change == 0 {
            self.highest_rowid = Some(self.highest_rowid.map_or(rowid, |h| h.max(rowid)));
        }
    }
}

/// The connection's slot that keeps the hook's reference to the counts.
const SLOT: &CStr = c"litewire_table_stats";

impl TableStats {
    fn tables(&self) -> MutexGuard<'_, HashMap<Box<str>, Counts, foldhash::fast::RandomState>> {
        self.tables.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn count(&self, table: &str, change: usize, rowid: i64) {
        let mut tables = self.tables();
        match tables.get_mut(table) {
            Some(counts) => counts.record(change, rowid),
            None => {
                let mut counts = Counts::default();
                counts.record(change, rowid);
                tables.insert(table.into(), counts);
            }
        }
    }

    /// The highest rowid a row of `table` (its name as SQLite spells it) was
    /// inserted with since the server started, in a transaction that
    /// committed or not.
    pub(super) fn highest_rowid(&self, table: &str) -> Option<i64> {
        self.tables()
            .get(table)
            .and_then(|counts| counts.highest_rowid)
    }

    /// Forgets `table`'s changes: it is being dropped, renamed or rebuilt.
    pub(super) fn forget(&self, table: &str) {
        self.tables().remove(table);
    }

    /// Every table's changes, by name.
    pub fn rows(&self) -> Vec<(String, Changes)> {
        let tables = self.tables();
        tables
            .iter()
            .map(|(name, counts)| (name.to_string(), counts.changes))
            .collect()
    }

    /// The changes of every table together.
    pub fn totals(&self) -> Changes {
        self.tables().values().fold([0; 3], |sum, counts| {
            let changes = counts.changes;
            [
                sum[0] + changes[0],
                sum[1] + changes[1],
                sum[2] + changes[2],
            ]
        })
    }

    /// Counts the rows the connection `db` changes into `stats`.
    ///
    /// # Safety
    /// `db` must be a valid connection, locked for the caller.
    pub(super) unsafe fn watch(
        db: *mut ffi::sqlite3,
        stats: &Arc<TableStats>,
    ) -> Result<(), String> {
        let raw = Arc::into_raw(stats.clone()).cast_mut().cast::<c_void>();
        // SAFETY: `db` is valid and locked (caller's contract); SQLite owns `raw`
        // from here and frees it with `release` when the connection closes.
        let rc = unsafe { ffi::sqlite3_set_clientdata(db, SLOT.as_ptr(), raw, Some(release)) };
        if rc != ffi::SQLITE_OK {
            // SAFETY: SQLite did not take `raw`, which came from `Arc::into_raw`.
            drop(unsafe { Arc::from_raw(raw.cast::<TableStats>()) });
            return Err("could not attach the table counts to a connection".into());
        }
        // SAFETY: as above; `raw` lives as long as the connection (the slot
        // keeps it), so every call of the hook finds it.
        unsafe { ffi::sqlite3_update_hook(db, Some(changed), raw) };
        Ok(())
    }
}

/// SQLite's update hook: one row of `table` in `database` changed.
extern "C" fn changed(
    stats: *mut c_void,
    operation: c_int,
    database: *const c_char,
    table: *const c_char,
    rowid: i64,
) {
    // SAFETY: SQLite passes the slot's `TableStats` (see `watch`) and two
    // NUL-terminated names valid for the call.
    let (stats, database, table) = unsafe {
        (
            &*stats.cast_const().cast::<TableStats>(),
            CStr::from_ptr(database),
            CStr::from_ptr(table),
        )
    };
    if database != c"main" {
        return;
    }
    let Ok(table) = table.to_str() else {
        return;
    };
    if table.starts_with("litewire_") || table.starts_with("sqlite_") {
        return;
    }
    let change = match operation {
        ffi::SQLITE_INSERT => 0,
        ffi::SQLITE_UPDATE => 1,
        ffi::SQLITE_DELETE => 2,
        _ => return,
    };
    stats.count(table, change, rowid);
}

/// Frees the slot's reference when the connection closes.
unsafe extern "C" fn release(raw: *mut c_void) {
    // SAFETY: `raw` came from `Arc::into_raw` in `watch`, released once.
    drop(unsafe { Arc::from_raw(raw.cast_const().cast::<TableStats>()) });
}
