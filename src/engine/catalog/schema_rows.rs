//! The catalog's rows of the file's schema, refilled when it changed: every
//! table's (with its indexes, constraints and foreign keys) and every view's.

use std::fmt::Write as _;

use super::foreign_key_rows::foreign_key_rows;
use super::introspect::Object;
use super::oids::FIRST_OID;
use super::rows::{table_rows, view_rows};
use crate::sql::relations::{Contents, RELATIONS};

pub(super) fn schema_rows(script: &mut String, objects: &[Object], schemas: &[String]) {
    for relation in RELATIONS.iter().filter(|r| r.contents == Contents::Schema) {
        let _ = writeln!(script, "DELETE FROM temp.{};", relation.name);
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
            "view" => view_rows(script, object, &oid_of, schemas),
            _ => {}
        }
    }
}
