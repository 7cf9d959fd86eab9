//! The catalog's rows of the file's schema, refilled when it changed: every
//! table's (with its indexes, constraints and foreign keys), every view's, and
//! `pg_stat_user_indexes`.

use std::fmt::Write as _;

use super::foreign_key_rows::foreign_key_rows;
use super::introspect::Object;
use super::oids::FIRST_OID;
use super::partition_rows::{is_partition, partition_rows};
use super::rows::{table_rows, view_rows};
use crate::sql::postgres::PartitionNode;
use crate::sql::relations::{Contents, RELATIONS};

pub(super) fn schema_rows(
    script: &mut String,
    objects: &[Object],
    schemas: &[String],
    partitions: &[PartitionNode],
) {
    for relation in RELATIONS.iter().filter(|r| r.contents == Contents::Schema) {
        // PostgreSQL's own relations stay (see `system_relations`).
        let _ = match relation.name {
            "pg_class" => writeln!(
                script,
                "DELETE FROM temp.pg_class WHERE oid >= {FIRST_OID};"
            ),
            "pg_attribute" => writeln!(
                script,
                "DELETE FROM temp.pg_attribute WHERE attrelid >= {FIRST_OID};"
            ),
            name => writeln!(script, "DELETE FROM temp.{name};"),
        };
    }
    let oid_of = |name: &str| {
        objects
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name) && o.kind != "index")
            .map(|o| FIRST_OID + o.rowid)
    };
    for object in objects {
        match object.kind.as_str() {
            "table" | "matview" => {
                table_rows(script, object, objects, &oid_of, schemas);
                for key in &object.foreign_keys {
                    foreign_key_rows(
                        script,
                        object,
                        FIRST_OID + object.rowid,
                        key,
                        objects,
                        &oid_of,
                        schemas,
                    );
                }
            }
            // A partition is a view of SQLite's and a table of PostgreSQL's.
            "view" if is_partition(object, partitions) => {
                table_rows(script, object, objects, &oid_of, schemas)
            }
            "view" => view_rows(script, object, &oid_of, schemas),
            _ => {}
        }
    }
    partition_rows(script, objects, partitions, &oid_of);
    // Every index, as the statistics view lists it (no scans are counted).
    script.push_str(
        "INSERT INTO temp.pg_stat_user_indexes SELECT i.indrelid, i.indexrelid, 'public', t.relname, \
         c.relname, 0, 0, 0 FROM temp.pg_index i JOIN temp.pg_class t ON t.oid = i.indrelid \
         JOIN temp.pg_class c ON c.oid = i.indexrelid ORDER BY i.indexrelid;\n",
    );
}
