//! The partition tree as litewire keeps it in the file: `litewire_partitions`,
//! a row per partitioned table and partition.

/// The table the partition tree lives in.
pub const PARTITIONS_TABLE: &str = "litewire_partitions";

/// Made by the first partitioned table: its name, its parent's (NULL for
/// the root), how it is partitioned and by what (NULL for a leaf), and its
/// bound as its condition reads it and as PostgreSQL shows it (NULL for the
/// root).
pub(super) const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS main.litewire_partitions (\
     name TEXT PRIMARY KEY COLLATE NOCASE, parent TEXT COLLATE NOCASE, strategy TEXT, \
     key TEXT, bound TEXT, shown TEXT)";

/// A stored key (a JSON array of PostgreSQL texts) as its expressions.
pub fn key_list(stored: &str) -> Vec<String> {
    serde_json::from_str(stored).unwrap_or_default()
}
