//! Enum types as the catalog knows them: read from `litewire_enums` (see
//! `sql::enums` for how they are kept), remembered for `format_type` and
//! `type_oid`, and listed in `pg_type` and `pg_enum`.

use sqlx::{AssertSqlSafe, Row, SqliteConnection};

use super::oids::ENUM_TYPE;
use super::types;
use crate::error::Error;
use crate::sql::enums::{ENUMS_TABLE, EnumType};

/// Every enum type of the file, with its labels in order (none before the first
/// `CREATE TYPE`).
pub(in crate::engine) async fn load(conn: &mut SqliteConnection) -> Result<Vec<EnumType>, Error> {
    let made: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = 'litewire_enums'",
    )
    .fetch_optional(&mut *conn)
    .await?;
    if made.is_none() {
        return Ok(Vec::new());
    }
    let rows = sqlx::query("SELECT type, label FROM main.litewire_enums ORDER BY type, sort")
        .fetch_all(&mut *conn)
        .await?;
    let mut enums: Vec<EnumType> = Vec::new();
    for row in rows {
        let (name, label): (String, String) = (row.try_get(0)?, row.try_get(1)?);
        match enums.last_mut() {
            Some(last) if last.name == name => last.labels.push(label),
            _ => enums.push(EnumType {
                name,
                labels: vec![label],
            }),
        }
    }
    Ok(enums)
}

/// Reads the file's enum types into what `format_type` and `type_oid` know of
/// them (at startup, after enum DDL, and with the catalog).
pub(in crate::engine) async fn remember_enums(conn: &mut SqliteConnection) -> Result<(), Error> {
    let made: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = 'litewire_enums'",
    )
    .fetch_optional(&mut *conn)
    .await?;
    let names: Vec<(i64, String)> = match made {
        Some(_) => {
            sqlx::query_as(AssertSqlSafe(format!(
                "SELECT {ENUM_TYPE} + min(rowid), type FROM main.litewire_enums GROUP BY type"
            )))
            .fetch_all(&mut *conn)
            .await?
        }
        None => Vec::new(),
    };
    types::remember_enums(names);
    Ok(())
}

/// The SQL that fills the catalog's rows for enum types (`pg_type` rows of
/// type `e`, `pg_enum`, and the `atttypid` of the columns declared with one,
/// stored plain as their type is).
pub(super) fn catalog_rows(type_oid: i64, label_oid: i64) -> String {
    let [input, output, receive, send, ..] = super::type_functions::ENUM_FUNCTIONS;
    format!(
        "DELETE FROM temp.pg_type WHERE typtype = 'e';\n\
         DELETE FROM temp.pg_enum;\n\
         INSERT INTO temp.pg_type (oid, typname, typnamespace, typowner, typlen, typbyval, typtype, typcategory, \
         typispreferred, typisdefined, typdelim, typrelid, typelem, typarray, typbasetype, typtypmod, typndims, \
         typcollation, typdefault, typacl, typinput, typoutput, typreceive, typsend) \
         SELECT {type_oid} + min(rowid), type, 2200, 10, 4, true, 'e', 'E', false, true, ',', 0, 0, 0, 0, -1, 0, 0, NULL, NULL, \
         {input}, {output}, {receive}, {send} \
         FROM main.{ENUMS_TABLE} GROUP BY type;\n\
         INSERT INTO temp.pg_enum SELECT {label_oid} + e.rowid, t.oid, e.sort, e.label \
         FROM main.{ENUMS_TABLE} AS e JOIN temp.pg_type AS t ON t.typtype = 'e' AND t.typname = e.type;\n\
         UPDATE temp.pg_attribute SET atttypid = e.oid, attlen = 4, attstorage = 'p', attcollation = 0 FROM \
         (SELECT 16384 + m.rowid AS rel, c.cid + 1 AS num, t.oid AS oid \
          FROM main.sqlite_schema AS m, pragma_table_info(m.name) AS c, temp.pg_type AS t \
          WHERE m.type IN ('table', 'view') AND t.typtype = 'e' \
          AND (c.type = t.typname COLLATE NOCASE OR c.type = 'public.' || t.typname COLLATE NOCASE)) AS e \
         WHERE attrelid = e.rel AND attnum = e.num;\n"
    )
}
