//! Declared column types, cached.
//!
//! sqlx tells us which table column a result column comes from, but not the type
//! that column was declared with, and PostgreSQL clients want exactly that (`int` is
//! int4, `bigint` int8, `varchar(10)` varchar). The cache answers from
//! the catalog's column reader once per table and is dropped whenever litewire
//! runs DDL.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use sqlx::SqliteConnection;

use super::catalog::read_columns;
use crate::error::Error;

/// One table's declared types.
#[derive(Debug, Default)]
struct Table {
    /// Column name to declared type. Names are kept as SQLite reports them: both
    /// `pragma_table_info` and a result column's origin give the canonical
    /// spelling from the schema, so no case folding (and no allocation) per lookup.
    by_name: HashMap<String, Arc<str>>,
    /// The declared types of the columns an INSERT without a column list
    /// fills, in order, as PostgreSQL numbers them (a generated column's
    /// position takes `DEFAULT`); `None` for an untyped one.
    insertable: Vec<Option<Arc<str>>>,
}

type TableTypes = Arc<Table>;

#[derive(Debug, Default)]
pub struct DeclaredTypes {
    tables: RwLock<HashMap<String, TableTypes>>,
    /// How many times the cache was dropped: what was worked out from declared
    /// types under another generation may be stale. Shared with the
    /// connections' statement caches (see `direct::Statements`).
    generation: Arc<AtomicU64>,
}

impl DeclaredTypes {
    /// Forgets everything: called after any statement that may change the schema.
    pub fn invalidate(&self) {
        if let Ok(mut tables) = self.tables.write() {
            tables.clear();
        }
        self.generation.fetch_add(1, Ordering::Release);
    }

    /// Changes whenever the cache is dropped (see `invalidate`).
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The generation as a counter to watch, for what is kept across
    /// statements and must be dropped with the schema it was made against.
    pub(super) fn counter(&self) -> Arc<AtomicU64> {
        self.generation.clone()
    }

    /// The declared type of `table.column`, `None` for an untyped column.
    pub async fn decltype(
        &self,
        conn: &mut SqliteConnection,
        table: &str,
        column: &str,
    ) -> Result<Option<Arc<str>>, Error> {
        let types = match self.cached(table) {
            Some(types) => types,
            None => self.load(conn, table).await?,
        };
        // A name from a client's SQL may be spelled in another case than the
        // schema's (SQLite's names are case-insensitive): looked for only on a miss.
        let found = types.by_name.get(column).or_else(|| {
            types
                .by_name
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(column))
                .map(|(_, decl)| decl)
        });
        Ok(found.cloned())
    }

    /// The declared type of the `index`th column an INSERT without a column list
    /// fills in `table`, `None` for an untyped or missing one.
    pub async fn insertable_decltype(
        &self,
        conn: &mut SqliteConnection,
        table: &str,
        index: usize,
    ) -> Result<Option<Arc<str>>, Error> {
        let types = match self.cached(table) {
            Some(types) => types,
            None => self.load(conn, table).await?,
        };
        Ok(types.insertable.get(index).cloned().flatten())
    }

    fn cached(&self, table: &str) -> Option<TableTypes> {
        let tables = self.tables.read().ok()?;
        tables.get(table).cloned()
    }

    async fn load(&self, conn: &mut SqliteConnection, table: &str) -> Result<TableTypes, Error> {
        // sqlx names columns of attached databases `schema.table`.
        let (schema, name) = table.split_once('.').unwrap_or(("main", table));
        let mut types = Table::default();
        for column in read_columns(conn, schema, name).await? {
            let decl = (!column.decl.is_empty()).then(|| Arc::<str>::from(column.decl));
            // `hidden` is 0 for an ordinary column, 2 or 3 for a generated
            // one, which has a position in VALUES (where only DEFAULT goes).
            if column.hidden != 1 {
                types.insertable.push(decl.clone());
            }
            if let Some(decl) = decl {
                types.by_name.insert(column.name, decl);
            }
        }
        let types = Arc::new(types);
        if let Ok(mut tables) = self.tables.write() {
            tables.insert(table.to_owned(), types.clone());
        }
        Ok(types)
    }
}
