//! Declarative partitioning: `CREATE TABLE ... PARTITION BY {LIST | RANGE |
//! HASH} (key)`, `CREATE TABLE ... PARTITION OF parent {FOR VALUES ... |
//! DEFAULT}`, and the statements that read and change them.
//!
//! A partitioned table keeps every row of all its partitions in one SQLite
//! table, the root's, so a statement on the root (an INSERT that routes, an
//! UPDATE that moves a row to another partition, ON CONFLICT, RETURNING, a
//! unique index over every partition) is SQLite's own. Each partition is a
//! view of the root's rows that meet its bound (and its ancestors'), which
//! every SQLite tool reads too; a BEFORE INSERT and a BEFORE UPDATE trigger on
//! the root refuse a row no partition takes (23514), from any client. The
//! tree is a table of litewire's, `litewire_partitions`: a row per
//! partitioned table and partition, with its strategy and key (as PostgreSQL
//! text) and its bound (as PostgreSQL shows it), so partition DDL is
//! transactional. A data change aimed at a partition runs on the root with
//! the partition's condition added (see `targets`); `tableoid` names the
//! partition a row is in (see `table_oids`); a COPY into a partition
//! writes to the root (see `copies`).

mod bounds;
mod copies;
mod ddl;
mod stored;
mod table_oids;
mod targets;
mod tree;

pub use copies::{CopyTarget, copy_target};
pub(super) use ddl::statement;
pub use stored::{PARTITIONS_TABLE, key_list};
pub(super) use targets::rewrite;
