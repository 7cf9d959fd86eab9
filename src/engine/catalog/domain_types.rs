//! The catalog's rows for domains (see `sql::domains`): a `pg_type` row of
//! type `d` over its base type, a `pg_constraint` row for each of its CHECKs
//! (`contypid`, shown by `pg_get_constraintdef` as written on `VALUE`), and
//! the domain as the type (`atttypid`) of each column declared with it.

use std::fmt::Write as _;

use sqlx::SqliteConnection;

use super::oids::{DOMAIN_CHECK, DOMAIN_TYPE, PUBLIC_NAMESPACE, ROLE_OID};
use super::type_functions::of_type;
use super::types::{self, storage_of, type_modifier, type_oid};
use crate::error::Error;
use crate::sql::domains::DOMAINS_TABLE;
use crate::sql::quote::literal;

/// PostgreSQL's `domain_in` and `domain_recv`: a domain reads its values
/// through them, and writes them with its base type's functions.
const DOMAIN_IN: i64 = 2597;
const DOMAIN_RECV: i64 = 2598;

/// The statements that replace the domains' rows, and the domains' oids and
/// names (for `format_type`).
pub(super) async fn catalog_rows(
    conn: &mut SqliteConnection,
) -> Result<(String, Vec<(i64, String)>), Error> {
    type Row = (i64, String, String, bool, Option<String>, String);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT rowid, name, base, not_null, default_sql, checks FROM main.litewire_domains",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut script = format!(
        "DELETE FROM temp.pg_type WHERE typtype = 'd';\n\
         DELETE FROM temp.pg_constraint WHERE oid >= {DOMAIN_CHECK} AND oid < {DOMAIN_CHECK} + {DOMAIN_TYPE};\n\
         DELETE FROM temp.litewire_definitions WHERE oid >= {DOMAIN_CHECK} AND oid < {DOMAIN_CHECK} + {DOMAIN_TYPE};\n"
    );
    let mut names = Vec::new();
    for (rowid, name, base, not_null, default, checks) in rows {
        let oid = DOMAIN_TYPE + rowid;
        let base_oid = type_oid(&base);
        let (len, storage) = storage_of(base_oid);
        let category = types::category_of(base_oid);
        let [_, output, _, send, ..] = of_type(base_oid);
        let collation = if category == "S" { 100 } else { 0 };
        let default = default.as_deref().map_or("NULL".to_owned(), literal);
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_type (oid, typname, typnamespace, typowner, typlen, typbyval, typtype, typcategory, \
             typispreferred, typisdefined, typdelim, typrelid, typelem, typarray, typbasetype, typtypmod, typndims, \
             typcollation, typdefault, typdefaultbin, typacl, typstorage, typnotnull, typinput, typoutput, typreceive, typsend) \
             VALUES ({oid}, {}, {PUBLIC_NAMESPACE}, {ROLE_OID}, {len}, {}, 'd', {}, false, true, ',', 0, 0, 0, \
             {base_oid}, {}, 0, {collation}, {default}, {default}, NULL, {}, {not_null}, {DOMAIN_IN}, {output}, {DOMAIN_RECV}, {send});",
            literal(&name),
            len > 0 && len <= 8,
            literal(category),
            type_modifier(&base),
            literal(storage),
        );
        let checks: Vec<(String, String)> = serde_json::from_str(&checks).unwrap_or_default();
        for (i, (check, condition)) in checks.iter().enumerate() {
            let check_oid = DOMAIN_CHECK + rowid * 64 + i as i64;
            let _ = writeln!(
                script,
                "INSERT INTO temp.pg_constraint VALUES ({check_oid}, {}, {PUBLIC_NAMESPACE}, 'c', false, false, true, \
                 0, {oid}, 0, 0, 0, ' ', ' ', ' ', true, 0, false, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);\n\
                 INSERT INTO temp.litewire_definitions VALUES ({check_oid}, {});",
                literal(check),
                literal(&format!("CHECK ({condition})")),
            );
        }
        names.push((oid, name));
    }
    let _ = writeln!(
        script,
        "UPDATE temp.pg_attribute SET atttypid = t.oid FROM temp.litewire_domain_columns d \
         JOIN temp.pg_type t ON t.typtype = 'd' AND t.typname = d.domain COLLATE NOCASE \
         WHERE pg_attribute.attrelid = d.attrelid AND pg_attribute.attname = d.attname COLLATE NOCASE;"
    );
    Ok((script, names))
}

/// Whether the file has domains.
pub(super) fn kept(own_tables: &[String]) -> bool {
    own_tables.iter().any(|t| t == DOMAINS_TABLE)
}
