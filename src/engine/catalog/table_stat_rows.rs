//! `pg_stat_user_tables`' rows: every table of the schema (as `pg_class`
//! lists it) with the rows changed in it since the server started (see
//! `table_stats`). What SQLite cannot tell is 0 or NULL: scans (it keeps no
//! count of them), live and dead tuples (there is no estimate without
//! reading the table), vacuums and analyzes (there are no background ones).

use std::fmt::Write as _;

use super::oids::PUBLIC_NAMESPACE;
use crate::engine::table_stats::Changes;
use crate::sql::quote::literal;

pub(super) fn catalog_rows(script: &mut String, tables: &[(String, Changes)]) {
    // The changes as rows to join with, or one row that matches nothing.
    let mut changes = String::from("SELECT NULL AS name, 0 AS ins, 0 AS upd, 0 AS del");
    for (name, [inserted, updated, deleted]) in tables {
        let _ = write!(
            changes,
            " UNION ALL SELECT {}, {inserted}, {updated}, {deleted}",
            literal(name)
        );
    }
    let _ = writeln!(
        script,
        "DELETE FROM temp.pg_stat_user_tables;\n\
         INSERT INTO temp.pg_stat_user_tables SELECT c.oid, 'public', c.relname, \
         0, 0, NULL, NULL, coalesce(t.ins, 0), coalesce(t.upd, 0), coalesce(t.del, 0), \
         0, 0, 0, 0, 0, NULL, NULL, NULL, NULL, 0, 0, 0, 0 \
         FROM temp.pg_class c LEFT JOIN ({changes}) t ON t.name = c.relname \
         WHERE c.relkind IN ('r', 'p') AND c.relnamespace = {PUBLIC_NAMESPACE} ORDER BY c.oid;"
    );
}
