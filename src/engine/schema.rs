//! The tables and views of the database file, as the PostgreSQL port's
//! reading of a statement needs them: each relation's columns in order, with
//! their types and whether they may hold NULL (see `sql::postgres`).
//!
//! Read once per schema generation (see `declared_types`) through the asking
//! session's connection, and shared by every session until the next change.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use sqlx::{Row, SqliteConnection};

use super::catalog::read_partitions;
use super::catalog::rowid_type;
use crate::error::Error;
use crate::sql::domains::{DOMAINS_TABLE, stored};
use crate::sql::enums::ENUMS_TABLE;
use crate::sql::partitions::PARTITIONS_TABLE;
use crate::sql::postgres::{
    Catalog, Domain, Modifier, PartitionNode, PgType, RelColumn, Relation, SqlFunction,
};
use crate::sql::routines::{FUNCTIONS_TABLE, stored as stored_function};
use crate::sql::schema_names::{path_version, session_path};
use crate::sql::schemas::{SCHEMAS_TABLE, referenced_tables};
use crate::sql::views;

/// The relations of one schema generation.
#[derive(Debug, Default)]
pub struct SchemaCatalog {
    generation: u64,
    /// SQLite's `schema_version` of the file when it was read.
    file_version: i64,
    /// By name in lower case (SQLite's names match without regard to case).
    relations: HashMap<String, Relation>,
    /// The sequences' names, in lower case.
    sequences: HashSet<String>,
    /// The schemas made with `CREATE SCHEMA`.
    schemas: Vec<String>,
    /// The functions made with `CREATE FUNCTION ... LANGUAGE sql`.
    functions: Vec<SqlFunction>,
    /// The domains made with `CREATE DOMAIN`.
    domains: Vec<Domain>,
    /// The enum types' names, in lower case.
    enums: HashSet<String>,
    /// The partitioned tables and their partitions.
    partitions: Vec<PartitionNode>,
}

impl Catalog for SchemaCatalog {
    fn relation(&self, name: &str) -> Option<Relation> {
        self.relations.get(&name.to_ascii_lowercase()).cloned()
    }

    fn version(&self) -> u64 {
        self.generation
    }

    fn is_sequence(&self, name: &str) -> bool {
        self.sequences.contains(&name.to_ascii_lowercase())
    }

    fn relations(&self) -> Vec<Relation> {
        self.relations.values().cloned().collect()
    }

    fn schemas(&self) -> &[String] {
        &self.schemas
    }

    fn functions(&self) -> &[SqlFunction] {
        &self.functions
    }

    fn domains(&self) -> &[Domain] {
        &self.domains
    }

    fn is_type(&self, name: &str) -> bool {
        self.enums.contains(&name.to_ascii_lowercase())
            || self
                .domains
                .iter()
                .any(|d| d.name.eq_ignore_ascii_case(name))
    }

    fn partitions(&self) -> &[PartitionNode] {
        &self.partitions
    }
}

/// The catalog as one session reads names against it: on its own
/// `search_path` (see `sql::schema_names`).
pub struct SessionCatalog<'a> {
    schema: &'a SchemaCatalog,
    path: Vec<String>,
}

impl<'a> SessionCatalog<'a> {
    /// `search_path` gives the session's setting, asked for only when the
    /// file has schemas of the user's.
    pub fn new(schema: &'a SchemaCatalog, search_path: impl FnOnce() -> String) -> Self {
        let path = match schema.schemas.is_empty() {
            true => Vec::new(),
            false => session_path(&search_path(), &schema.schemas),
        };
        SessionCatalog { schema, path }
    }
}

impl Catalog for SessionCatalog<'_> {
    fn relation(&self, name: &str) -> Option<Relation> {
        self.schema.relation(name)
    }

    fn version(&self) -> u64 {
        path_version(self.schema.generation, &self.path)
    }

    fn is_sequence(&self, name: &str) -> bool {
        self.schema.is_sequence(name)
    }

    fn relations(&self) -> Vec<Relation> {
        self.schema.relations()
    }

    fn schemas(&self) -> &[String] {
        &self.schema.schemas
    }

    fn search_path(&self) -> &[String] {
        &self.path
    }

    fn functions(&self) -> &[SqlFunction] {
        &self.schema.functions
    }

    fn is_type(&self, name: &str) -> bool {
        self.schema.is_type(name)
    }

    fn domains(&self) -> &[Domain] {
        &self.schema.domains
    }

    fn partitions(&self) -> &[PartitionNode] {
        &self.schema.partitions
    }
}

impl SchemaCatalog {
    /// The schema generation it was read at.
    pub(super) fn version_read(&self) -> u64 {
        self.generation
    }

    /// Whether the file's schema moved on since it was read (another process
    /// changed it, see `file_watch`), as `conn` sees the file now.
    pub(super) async fn is_behind(&self, conn: &mut SqliteConnection) -> bool {
        file_version(conn)
            .await
            .is_ok_and(|version| version != self.file_version)
    }
}

async fn file_version(conn: &mut SqliteConnection) -> Result<i64, Error> {
    Ok(sqlx::query_scalar("PRAGMA main.schema_version")
        .fetch_one(&mut *conn)
        .await?)
}

/// The catalog of the latest generation read.
#[derive(Debug, Default)]
pub(super) struct SchemaCache {
    kept: Mutex<Option<Arc<SchemaCatalog>>>,
    /// Whether a catalog with schemas of the user's was ever kept: until
    /// then, no session's `search_path` can matter.
    schemas_seen: AtomicBool,
}

impl SchemaCache {
    /// The catalog of `generation`, if it is the one kept.
    pub(super) fn get(&self, generation: u64) -> Option<Arc<SchemaCatalog>> {
        let kept = self.kept.lock().ok()?;
        kept.as_ref()
            .filter(|catalog| catalog.generation == generation)
            .cloned()
    }

    /// Whether any catalog kept had schemas of the user's.
    pub(super) fn schemas_seen(&self) -> bool {
        self.schemas_seen.load(Ordering::Relaxed)
    }

    pub(super) fn keep(&self, catalog: Arc<SchemaCatalog>) {
        if !catalog.schemas.is_empty() {
            self.schemas_seen.store(true, Ordering::Relaxed);
        }
        if let Ok(mut kept) = self.kept.lock()
            && kept
                .as_ref()
                .is_none_or(|k| k.generation <= catalog.generation)
        {
            *kept = Some(catalog);
        }
    }
}

/// Reads the main schema's tables and views. A relation whose columns
/// cannot be read (a view over a table dropped since) is left out: the
/// translation leaves what it is not told of to SQLite.
pub(super) async fn read(
    conn: &mut SqliteConnection,
    generation: u64,
) -> Result<SchemaCatalog, Error> {
    read_schemas(conn, generation, false).await
}

/// Reads the main schema's relations and the connection's TEMP ones, which
/// stand over a main relation of the same name.
pub(super) async fn read_with_temp(
    conn: &mut SqliteConnection,
    generation: u64,
) -> Result<SchemaCatalog, Error> {
    read_schemas(conn, generation, true).await
}

const MAIN_RELATIONS: &str = "SELECT name, type, sql FROM main.sqlite_schema \
     WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'";

/// The client's TEMP relations, less the emulated catalog's tables that
/// live there too.
const TEMP_RELATIONS: &str = "SELECT name, type, sql FROM temp.sqlite_schema \
     WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' \
     AND name NOT LIKE 'pg\\_%' ESCAPE '\\' AND name NOT LIKE 'litewire\\_%' ESCAPE '\\'";

/// The main schema's relations, and with `temp` the TEMP ones over them.
async fn read_schemas(
    conn: &mut SqliteConnection,
    generation: u64,
    temp: bool,
) -> Result<SchemaCatalog, Error> {
    let file_version = file_version(conn).await?;
    let mut rows: Vec<(String, String, Option<String>)> =
        sqlx::query_as(MAIN_RELATIONS).fetch_all(&mut *conn).await?;
    if temp {
        rows.extend(
            sqlx::query_as::<_, (String, String, Option<String>)>(TEMP_RELATIONS)
                .fetch_all(&mut *conn)
                .await?,
        );
    }
    let identities = identity_columns(conn).await?;
    let materialized = materialized_views(conn).await?;
    let mut relations = HashMap::with_capacity(rows.len());
    for (name, kind, sql) in rows {
        let view = kind == "view";
        // A view litewire made names its computed columns' types.
        let header = sql.as_deref().filter(|_| view).and_then(views::header);
        let types = header.map(|(types, _)| types).unwrap_or_default();
        if let Ok(mut columns) = read_columns(conn, &name, &types).await {
            for column in &mut columns {
                column.identity = identities
                    .get(&(name.to_ascii_lowercase(), column.name.to_ascii_lowercase()))
                    .copied();
            }
            relations.insert(
                name.to_ascii_lowercase(),
                Relation {
                    materialized: materialized.get(&name.to_ascii_lowercase()).copied(),
                    references: sql.as_deref().map(referenced_tables).unwrap_or_default(),
                    name,
                    columns,
                    view,
                },
            );
        }
    }
    let sequences = match sequences_kept(conn).await? {
        true => sqlx::query_scalar::<_, String>("SELECT lower(name) FROM main.litewire_sequences")
            .fetch_all(&mut *conn)
            .await?
            .into_iter()
            .collect(),
        false => HashSet::new(),
    };
    let schemas = match relations.contains_key(SCHEMAS_TABLE) {
        true => {
            sqlx::query_scalar("SELECT name FROM main.litewire_schemas ORDER BY name")
                .fetch_all(&mut *conn)
                .await?
        }
        false => Vec::new(),
    };
    let functions = match relations.contains_key(FUNCTIONS_TABLE) {
        true => functions(conn).await?,
        false => Vec::new(),
    };
    let domains = match relations.contains_key(DOMAINS_TABLE) {
        true => domains(conn).await?,
        false => Vec::new(),
    };
    let enums = match relations.contains_key(ENUMS_TABLE) {
        true => {
            sqlx::query_scalar::<_, String>("SELECT DISTINCT lower(type) FROM main.litewire_enums")
                .fetch_all(&mut *conn)
                .await?
                .into_iter()
                .collect()
        }
        false => HashSet::new(),
    };
    let partitions = match relations.contains_key(PARTITIONS_TABLE) {
        true => read_partitions(conn).await?,
        false => Vec::new(),
    };
    Ok(SchemaCatalog {
        generation,
        file_version,
        relations,
        sequences,
        schemas,
        functions,
        domains,
        enums,
        partitions,
    })
}

/// The rows of `litewire_functions` (see `sql::routines`).
async fn functions(conn: &mut SqliteConnection) -> Result<Vec<SqlFunction>, Error> {
    type Row = (String, String, String, String, String, bool, String);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT name, argtypes, argnames, returns, body, strict, volatility \
         FROM main.litewire_functions ORDER BY name, argtypes",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(name, types, names, returns, body, strict, volatility)| {
            stored_function(name, &types, &names, &returns, body, strict, &volatility)
        })
        .collect())
}

/// The rows of `litewire_domains` (see `sql::domains`).
async fn domains(conn: &mut SqliteConnection) -> Result<Vec<Domain>, Error> {
    type Row = (String, String, bool, Option<String>, String);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT name, base, not_null, default_sql, checks FROM main.litewire_domains ORDER BY name",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(name, base, not_null, default, checks)| {
            stored(name, base, not_null, default, &checks)
        })
        .collect())
}

/// The identity columns, by (table, column) in lower case: their sequences'
/// rows say so (see `sql::dialect::sequences`).
async fn identity_columns(
    conn: &mut SqliteConnection,
) -> Result<HashMap<(String, String), char>, Error> {
    if !sequences_kept(conn).await? {
        return Ok(HashMap::new());
    }
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT owned_table, owned_column, identity FROM main.litewire_sequences \
         WHERE identity IS NOT NULL AND owned_table IS NOT NULL AND owned_column IS NOT NULL",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(table, column, kind)| {
            let kind = kind.chars().next()?;
            Some((
                (table.to_ascii_lowercase(), column.to_ascii_lowercase()),
                kind,
            ))
        })
        .collect())
}

/// Whether the file has sequences (their table, `litewire_sequences`).
async fn sequences_kept(conn: &mut SqliteConnection) -> Result<bool, Error> {
    let kept: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = 'litewire_sequences'",
    )
    .fetch_optional(&mut *conn)
    .await?;
    Ok(kept.is_some())
}

/// The materialized views, by name in lower case, and whether each holds
/// rows (see `sql::matviews`).
async fn materialized_views(conn: &mut SqliteConnection) -> Result<HashMap<String, bool>, Error> {
    let kept: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = 'litewire_matviews'",
    )
    .fetch_optional(&mut *conn)
    .await?;
    if kept.is_none() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT name, populated FROM main.litewire_matviews")
            .fetch_all(&mut *conn)
            .await?;
    Ok(rows
        .into_iter()
        .map(|(name, populated)| (name.to_ascii_lowercase(), populated != 0))
        .collect())
}

/// One relation's columns, in order.
/// `types` are a view's columns' PostgreSQL types from its header (see
/// `sql::views`), which stand over what SQLite declares.
async fn read_columns(
    conn: &mut SqliteConnection,
    name: &str,
    types: &[String],
) -> Result<Vec<RelColumn>, Error> {
    // `hidden` is 1 for a virtual table's hidden column, 2 and 3 for generated
    // ones (which are columns like any other to a query).
    let rows = sqlx::query(
        "SELECT name, type, \"notnull\", pk, hidden, \
         (SELECT count(*) FROM pragma_table_info(?1) WHERE pk > 0), dflt_value \
         FROM pragma_table_xinfo(?1) WHERE hidden <> 1 ORDER BY cid",
    )
    .bind(name)
    .fetch_all(&mut *conn)
    .await?;
    let mut rowid_decl = None;
    for row in &rows {
        let (primary_key, key_columns): (i64, i64) = (row.try_get(3)?, row.try_get(5)?);
        if primary_key == 1 && key_columns == 1 {
            let (column, decl, default): (String, String, Option<String>) =
                (row.try_get(0)?, row.try_get(1)?, row.try_get(6)?);
            rowid_decl = rowid_type(conn, name, &column, &decl, default.as_deref()).await?;
        }
    }
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            let sqlite_type: String = row.try_get::<Option<String>, _>(1)?.unwrap_or_default();
            let primary_key: i64 = row.try_get(3)?;
            let key_columns: i64 = row.try_get(5)?;
            // A one-column `INTEGER PRIMARY KEY` is the rowid: never NULL.
            let rowid =
                primary_key == 1 && key_columns == 1 && sqlite_type.eq_ignore_ascii_case("integer");
            let reported = match &rowid_decl {
                Some(ty) if rowid => ty.clone(),
                _ => sqlite_type,
            };
            // The header's type is PostgreSQL's; SQLite's declared type,
            // which may name the same type with its modifier, stands where
            // it agrees.
            let (decl, declared) = match types.get(i) {
                Some(ty)
                    if !ty.is_empty()
                        && PgType::from_declared(ty) != PgType::from_declared(&reported) =>
                {
                    (ty.as_str(), false)
                }
                _ => (reported.as_str(), true),
            };
            let ty = PgType::from_declared(decl);
            Ok(RelColumn {
                name: row.try_get(0)?,
                modifier: Modifier::of(&ty, decl),
                ty,
                declared,
                not_null: row.try_get::<i64, _>(2)? != 0 || rowid,
                generated: row.try_get::<i64, _>(4)? != 0,
                primary_key: primary_key > 0,
                default: row.try_get(6)?,
                identity: None,
                rowid,
            })
        })
        .collect()
}
