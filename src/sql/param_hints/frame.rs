//! What is in scope where an expression is read: the relations of a query or
//! statement, by the name their columns are qualified with, and the WITH
//! queries it defines, with the types of their columns.

use super::hint::ParamHint;

/// The relations one query (or statement) reads, by the name its columns are
/// qualified with (an alias, else the relation's own name), and the WITH
/// queries it defines.
#[derive(Default)]
pub(super) struct Frame {
    /// (lower-case qualifier, where its columns come from).
    pub(super) entries: Vec<(String, Source)>,
    /// (lower-case name, output columns) of each WITH query.
    pub(super) ctes: Vec<(String, Columns)>,
}

/// Where a relation's columns come from.
pub(super) enum Source {
    /// A table of the schema: its columns' declared types.
    Table(String),
    /// A derived table or WITH query: each column's type, as inferred from
    /// its select list.
    Derived(Columns),
}

/// Output columns by name (lower-case), with the type each was inferred to have.
pub(super) type Columns = Vec<(String, Option<ParamHint>)>;

impl Frame {
    pub(super) fn add(&mut self, qualifier: &str, source: Source) {
        self.entries.push((qualifier.to_ascii_lowercase(), source));
    }
}
