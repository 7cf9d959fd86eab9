//! The catalog's rows of partitioned tables and their partitions (see
//! `sql::partitions`): a partitioned table is `relkind` 'p' with its
//! `pg_partitioned_table` row and its key for `pg_get_partkeydef`; a
//! partition (a view of SQLite's) is a table of PostgreSQL's, `relkind` 'r'
//! unless partitioned itself, with `relispartition`, its bound in
//! `relpartbound` and its parent in `pg_inherits`.

use std::fmt::Write as _;

use sqlx::SqliteConnection;

use super::introspect::Object;
use super::rows::insert;
use crate::error::Error;
use crate::sql::partitions::{PARTITIONS_TABLE, key_list};
use crate::sql::postgres::PartitionNode;
use crate::sql::quote::literal;

/// The rows of `litewire_partitions`, parents first; none where there is no
/// such table.
pub(in crate::engine) async fn read_partitions(
    conn: &mut SqliteConnection,
) -> Result<Vec<PartitionNode>, Error> {
    let kept: Option<String> = sqlx::query_scalar(
        "SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name = ?1",
    )
    .bind(PARTITIONS_TABLE)
    .fetch_optional(&mut *conn)
    .await?;
    if kept.is_none() {
        return Ok(Vec::new());
    }
    type Row = (
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT name, parent, strategy, key, bound, shown FROM main.litewire_partitions \
         ORDER BY rowid",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(name, parent, strategy, key, bound, shown)| PartitionNode {
                name,
                parent,
                strategy,
                key: key.as_deref().map(key_list).unwrap_or_default(),
                bound,
                shown,
            },
        )
        .collect())
}

/// Whether `object` is a partition (a view of SQLite's that PostgreSQL
/// shows as a table).
pub(super) fn is_partition(object: &Object, partitions: &[PartitionNode]) -> bool {
    object.kind == "view"
        && partitions
            .iter()
            .any(|p| p.parent.is_some() && p.name.eq_ignore_ascii_case(&object.name))
}

/// The key as `pg_get_partkeydef` shows it: `RANGE (a, ((b + 0)))`.
fn key_definition(node: &PartitionNode, columns: &[String]) -> String {
    let keys: Vec<String> = node
        .key
        .iter()
        .map(|key| {
            let is_column = columns.iter().any(|c| c.eq_ignore_ascii_case(key));
            let is_call = key.ends_with(')') && !key.starts_with('(');
            match is_column || is_call {
                true => key.clone(),
                false => format!("({key})"),
            }
        })
        .collect();
    format!(
        "{} ({})",
        node.strategy
            .as_deref()
            .unwrap_or_default()
            .to_ascii_uppercase(),
        keys.join(", ")
    )
}

/// `pg_get_partkeydef(oid)` reads the key kept under `-oid` among the
/// definitions (see `sql::dialect::functions`).
pub(super) fn partition_rows(
    script: &mut String,
    objects: &[Object],
    partitions: &[PartitionNode],
    oid_of: &dyn Fn(&str) -> Option<i64>,
) {
    for node in partitions {
        let Some(oid) = oid_of(&node.name) else {
            continue;
        };
        if let Some(strategy) = &node.strategy {
            let root = partitions
                .iter()
                .find(|n| n.parent.is_none() && is_ancestor(partitions, n, node))
                .and_then(|r| {
                    objects
                        .iter()
                        .find(|o| o.name.eq_ignore_ascii_case(&r.name))
                });
            let columns: Vec<String> = root
                .map(|r| r.columns.iter().map(|c| c.name.clone()).collect())
                .unwrap_or_default();
            let _ = writeln!(
                script,
                "UPDATE temp.pg_class SET relkind = 'p', relam = 0 WHERE oid = {oid};"
            );
            insert(
                script,
                "litewire_definitions",
                &[(-oid).to_string(), literal(&key_definition(node, &columns))],
            );
            let default = partitions
                .iter()
                .filter(|n| {
                    n.parent
                        .as_deref()
                        .is_some_and(|p| p.eq_ignore_ascii_case(&node.name))
                })
                .find(|n| n.bound.as_deref() == Some("DEFAULT"))
                .and_then(|n| oid_of(&n.name))
                .unwrap_or(0);
            let attnums: Vec<String> = node
                .key
                .iter()
                .map(|k| {
                    let at = columns.iter().position(|c| c.eq_ignore_ascii_case(k));
                    at.map_or(0, |i| i + 1).to_string()
                })
                .collect();
            let strategy = match strategy.as_str() {
                "list" => "l",
                "range" => "r",
                _ => "h",
            };
            insert(
                script,
                "pg_partitioned_table",
                &[
                    oid.to_string(),
                    literal(strategy),
                    node.key.len().to_string(),
                    default.to_string(),
                    literal(&attnums.join(" ")),
                    literal(&vec!["0"; node.key.len()].join(" ")),
                    literal(&vec!["0"; node.key.len()].join(" ")),
                    "NULL".into(),
                ],
            );
        }
        let Some(parent) = node.parent.as_deref().and_then(oid_of) else {
            continue;
        };
        let _ = writeln!(
            script,
            "UPDATE temp.pg_class SET relispartition = true, relpartbound = {} WHERE oid = {oid};\n\
             UPDATE temp.pg_class SET relhassubclass = true WHERE oid = {parent};",
            literal(node.shown.as_deref().unwrap_or_default())
        );
        insert(
            script,
            "pg_inherits",
            &[
                oid.to_string(),
                parent.to_string(),
                "1".into(),
                "false".into(),
            ],
        );
    }
}

/// Whether `ancestor` is `node` or above it.
fn is_ancestor(all: &[PartitionNode], ancestor: &PartitionNode, node: &PartitionNode) -> bool {
    let mut current = Some(node);
    while let Some(n) = current {
        if n.name.eq_ignore_ascii_case(&ancestor.name) {
            return true;
        }
        current = n
            .parent
            .as_deref()
            .and_then(|p| all.iter().find(|x| x.name.eq_ignore_ascii_case(p)));
    }
    false
}
