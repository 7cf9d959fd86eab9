//! Declared column types, cached.
//!
//! sqlx tells us which table column a result column comes from, but not the type
//! that column was declared with, and PostgreSQL clients want exactly that (`int` is
//! int4, `bigint` int8, `varchar(10)` varchar). The cache answers from
//! `pragma_table_info` once per table and is dropped whenever litewire runs DDL.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use sqlx::{Row, SqliteConnection};

use crate::error::Error;

/// Column name to declared type, for one table. Names are kept as SQLite reports
/// them: both `pragma_table_info` and a result column's origin give the canonical
/// spelling from the schema, so no case folding (and no allocation) per lookup.
type TableTypes = Arc<HashMap<String, Arc<str>>>;

#[derive(Debug, Default)]
pub struct SchemaCache {
    tables: RwLock<HashMap<String, TableTypes>>,
}

impl SchemaCache {
    /// Forgets everything: called after any statement that may change the schema.
    pub fn invalidate(&self) {
        if let Ok(mut tables) = self.tables.write() {
            tables.clear();
        }
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
        Ok(types.get(column).cloned())
    }

    fn cached(&self, table: &str) -> Option<TableTypes> {
        let tables = self.tables.read().ok()?;
        tables.get(table).cloned()
    }

    async fn load(&self, conn: &mut SqliteConnection, table: &str) -> Result<TableTypes, Error> {
        // sqlx names columns of attached databases `schema.table`.
        let (schema, name) = table.split_once('.').unwrap_or(("main", table));
        let rows = sqlx::query("SELECT name, type FROM pragma_table_info(?1, ?2)")
            .bind(name)
            .bind(schema)
            .fetch_all(&mut *conn)
            .await?;
        let mut types = HashMap::with_capacity(rows.len());
        for row in rows {
            let column: String = row.try_get(0)?;
            let decltype: String = row.try_get(1)?;
            if !decltype.is_empty() {
                types.insert(column, Arc::from(decltype));
            }
        }
        let types = Arc::new(types);
        if let Ok(mut tables) = self.tables.write() {
            tables.insert(table.to_owned(), types.clone());
        }
        Ok(types)
    }
}
