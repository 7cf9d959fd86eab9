//! `pg_proc`'s rows for the functions of the user's (`CREATE FUNCTION ...
//! LANGUAGE sql`, kept in `litewire_functions`: see `sql::routines`), so
//! that `\df` and `pg_dump` find them: language `sql` (14), their argument
//! and result types, the body as `prosrc`; and their signatures as
//! `pg_get_function_arguments` and `pg_get_function_result` show them
//! (`litewire_signatures`).

use std::fmt::Write as _;

use sqlx::SqliteConnection;

use super::oids::{PUBLIC_NAMESPACE, ROLE_OID};
use super::types::{format_type, type_oid};
use crate::error::Error;
use crate::sql::quote::literal;

/// The first oid of the user's functions (beyond litewire's own, before the
/// schemas' `FIRST_SCHEMA_OID`).
const FIRST_OID: i64 = 1 << 22;

/// PostgreSQL's oid of `LANGUAGE sql`.
const SQL_LANGUAGE: i64 = 14;

/// The statements that replace the user's functions' rows.
pub(super) async fn catalog_rows(conn: &mut SqliteConnection) -> Result<String, Error> {
    type Row = (i64, String, String, String, String, String, bool, String);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT rowid, name, argtypes, argnames, returns, body, strict, volatility \
         FROM main.litewire_functions",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut script = format!(
        "DELETE FROM temp.pg_proc WHERE oid >= {FIRST_OID};\n\
         DELETE FROM temp.litewire_signatures WHERE oid >= {FIRST_OID};\n"
    );
    for (rowid, name, types, names, returns, body, strict, volatility) in rows {
        let types: Vec<&str> = types.split(',').filter(|t| !t.is_empty()).collect();
        let oids: Vec<String> = types.iter().map(|t| type_oid(t).to_string()).collect();
        let names: Vec<&str> = names.split(',').collect();
        let shown: Vec<String> = (types.iter().enumerate())
            .map(|(i, ty)| {
                let ty = format_type(type_oid(ty), None);
                match names.get(i).filter(|n| !n.is_empty()) {
                    Some(name) => format!("{name} {ty}"),
                    None => ty,
                }
            })
            .collect();
        let _ = writeln!(
            script,
            "INSERT INTO temp.litewire_signatures VALUES ({}, {}, {});",
            FIRST_OID + rowid,
            literal(&shown.join(", ")),
            literal(&format_type(type_oid(&returns), None))
        );
        let argnames = match names.iter().any(|n| !n.is_empty()) {
            true => literal(&format!("{{{}}}", names.join(","))),
            false => "NULL".to_owned(),
        };
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_proc VALUES ({oid}, {name}, {PUBLIC_NAMESPACE}, {ROLE_OID}, {SQL_LANGUAGE}, 100, 0, 0, 0, 'f', false, false, {strict}, false, {volatility}, 'u', {nargs}, 0, {result}, {argtypes}, NULL, NULL, {argnames}, NULL, NULL, {body}, NULL, NULL, NULL, NULL);",
            oid = FIRST_OID + rowid,
            name = literal(&name),
            volatility = literal(&volatility),
            nargs = types.len(),
            result = type_oid(&returns),
            argtypes = literal(&oids.join(" ")),
            body = literal(&body),
        );
    }
    Ok(script)
}
