//! A foreign key's rows: its `pg_constraint` row and its definition as
//! `pg_get_constraintdef()` shows it.

use std::fmt::Write as _;

use super::introspect::{ColumnInfo, ForeignKey, Object};
use super::oids::FOREIGN_KEY;
use super::rows::{
    attnums, constraint_row, definition, idents, insert, mark_validity, unique_index_over,
};
use crate::sql::quote::literal;
use crate::sql::schema_names::shown;
use crate::sql::table_definition::Mark;

pub(super) fn foreign_key_rows(
    script: &mut String,
    table: &Object,
    table_oid: i64,
    key: &ForeignKey,
    objects: &[Object],
    oid_of: &dyn Fn(&str) -> Option<i64>,
    schemas: &[String],
) {
    let referenced = objects
        .iter()
        .find(|o| o.kind == "table" && o.name.eq_ignore_ascii_case(&key.table));
    let name = definition(table)
        .and_then(|def| def.foreign_key_name(&key.from))
        .unwrap_or_else(|| format!("{}_{}_fkey", table.name, key.from.join("_")));
    let deferral =
        definition(table).map_or((false, false), |def| def.foreign_key_deferral(&key.from));
    let not_valid = definition(table)
        .and_then(|def| def.foreign_key(&key.from).map(|k| k.marked(Mark::NotValid)))
        .unwrap_or(false);
    let to: Vec<String> = key.to.iter().flatten().cloned().collect();
    // A key that names no columns references the primary key.
    let referenced_columns = match referenced {
        Some(parent) if to.is_empty() => {
            let mut pk: Vec<&ColumnInfo> = parent.columns.iter().filter(|c| c.pk > 0).collect();
            pk.sort_by_key(|c| c.pk);
            pk.into_iter().map(|c| c.name.clone()).collect()
        }
        _ => to.clone(),
    };
    let foreign_key = referenced.map_or_else(
        || "NULL".to_owned(),
        |parent| literal(&attnums(parent, &referenced_columns)),
    );
    let index = referenced.map_or(0, |parent| {
        unique_index_over(parent, objects, &referenced_columns)
    });
    let references = if referenced_columns.is_empty() {
        shown(&key.table, schemas)
    } else {
        format!(
            "{}({})",
            shown(&key.table, schemas),
            idents(&referenced_columns)
        )
    };
    let mut definition = format!(
        "FOREIGN KEY ({}) REFERENCES {references}",
        idents(&key.from)
    );
    for (event, action) in [("UPDATE", &key.on_update), ("DELETE", &key.on_delete)] {
        if action != "NO ACTION" {
            let _ = write!(definition, " ON {event} {action}");
        }
    }
    let (deferrable, deferred) = deferral;
    match (deferrable, deferred) {
        (true, true) => definition.push_str(" DEFERRABLE INITIALLY DEFERRED"),
        (true, false) => definition.push_str(" DEFERRABLE"),
        _ => {}
    }
    let oid = FOREIGN_KEY + table_oid * 64 + key.id;
    constraint_row(
        script,
        oid,
        &name,
        "f",
        table_oid,
        index,
        oid_of(&key.table).unwrap_or(0),
        &attnums(table, &key.from),
        &foreign_key,
        (action_code(&key.on_update), action_code(&key.on_delete)),
    );
    if deferrable {
        let _ = writeln!(
            script,
            "UPDATE temp.pg_constraint SET condeferrable = true, condeferred = {deferred} WHERE oid = {oid};"
        );
    }
    mark_validity(script, oid, not_valid, &mut definition);
    insert(
        script,
        "litewire_definitions",
        &[oid.to_string(), literal(&definition)],
    );
}

/// `pg_constraint.confupdtype` / `confdeltype` for SQLite's action names.
fn action_code(action: &str) -> &'static str {
    match action {
        "RESTRICT" => "r",
        "CASCADE" => "c",
        "SET NULL" => "n",
        "SET DEFAULT" => "d",
        _ => "a",
    }
}
