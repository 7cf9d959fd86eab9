//! `COPY partition FROM STDIN`: the rows go into the root's table (where
//! the partition's rows are), each held to the partition's condition as an
//! INSERT aimed at the partition is (see `targets`).

use super::ddl::sqlite_keys;
use super::tree::Tree;
use crate::sql::postgres::{Catalog, PartitionNode};
use crate::sql::quote::{identifier, literal};
use crate::sql::schema_names::stored_written;

/// Where a COPY into a partition writes its rows.
#[derive(Debug, Clone)]
pub struct CopyTarget {
    root: String,
    /// The partition's condition, SQLite's text over the root's columns.
    condition: String,
    partition: String,
}

/// The root a COPY into `table` writes to, where `table` is a partition.
pub fn copy_target(catalog: &dyn Catalog, table: &str) -> Option<CopyTarget> {
    let name = stored_written(table);
    let tree = Tree::of(catalog.partitions(), &name)?;
    let root = tree.root().name.clone();
    if root.eq_ignore_ascii_case(&name) {
        return None;
    }
    let keys = |node: &PartitionNode| sqlite_keys(catalog, &root, node);
    Some(CopyTarget {
        condition: tree.condition(&name, &keys),
        partition: tree.node(&name)?.name.clone(),
        root,
    })
}

impl CopyTarget {
    /// The INSERT of `rows` rows of `columns` (a quoted column list) as
    /// parameters, each refused (23514) unless the partition takes it.
    pub fn insert(&self, column_list: &str, columns: usize, rows: usize) -> String {
        let row = format!("({})", vec!["?"; columns].join(","));
        format!(
            "WITH litewire_new ({column_list}) AS (VALUES {}) \
             INSERT INTO main.{root} ({column_list}) SELECT {column_list} FROM litewire_new AS {root} \
             WHERE CASE WHEN {} THEN 1 ELSE litewire_error('23514', {}) END",
            vec![row; rows].join(","),
            self.condition,
            literal(&format!(
                "new row for relation \"{}\" violates partition constraint",
                self.partition
            )),
            root = identifier(&self.root),
        )
    }
}
