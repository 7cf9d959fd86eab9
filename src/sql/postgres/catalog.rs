//! What the translation knows of the database: its relations and their
//! columns' types. The engine answers from the schema it keeps (the `sql`
//! layer reads no file); the translation of a statement depends on it, so a
//! translation is kept only as long as the schema it was made with.

use super::types::{Modifier, PgType};

/// The relations a statement may name.
pub trait Catalog {
    /// The relation `name` names (unqualified, as written: matched without
    /// regard to case, as SQLite matches names), with its columns in order.
    fn relation(&self, name: &str) -> Option<Relation>;

    /// Changes whenever the schema may have: a statement read against
    /// another version is read again.
    fn version(&self) -> u64;

    /// Whether `name` (unqualified, as written) is a sequence, which a query
    /// may read as a relation of one row (`SELECT last_value FROM s`).
    fn is_sequence(&self, _name: &str) -> bool {
        false
    }

    /// Every table and view it knows.
    fn relations(&self) -> Vec<Relation> {
        Vec::new()
    }

    /// The schemas made with `CREATE SCHEMA` (not `public`), as named.
    fn schemas(&self) -> &[String] {
        &[]
    }

    /// The session's `search_path`, as the schemas on it that exist (`public`
    /// among them) in its order: empty unless it names one of `schemas`.
    fn search_path(&self) -> &[String] {
        &[]
    }

    /// The functions made with `CREATE FUNCTION ... LANGUAGE sql`.
    fn functions(&self) -> &[SqlFunction] {
        &[]
    }

    /// The domains made with `CREATE DOMAIN`.
    fn domains(&self) -> &[Domain] {
        &[]
    }

    /// Whether `name` (unqualified, as written) is a type of the user's:
    /// an enum type or a domain.
    fn is_type(&self, _name: &str) -> bool {
        false
    }

    /// The partitioned tables and their partitions (see `sql::partitions`).
    fn partitions(&self) -> &[PartitionNode] {
        &[]
    }
}

/// A partitioned table or one of its partitions: a row of
/// `litewire_partitions` (see `sql::partitions`).
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionNode {
    /// Its SQLite name.
    pub name: String,
    /// The partitioned table it is a partition of; `None` for the root.
    pub parent: Option<String>,
    /// How it is partitioned (`list`, `range`, `hash`); `None` for a leaf.
    pub strategy: Option<String>,
    /// Its partition key's columns and expressions, as PostgreSQL text.
    pub key: Vec<String>,
    /// Its bound (`FOR VALUES IN ('a')`, `DEFAULT`) as its condition reads
    /// it: a number for a numeric key unquoted; `None` for the root.
    pub bound: Option<String>,
    /// Its bound as PostgreSQL shows it (`pg_get_expr(relpartbound, oid)`).
    pub shown: Option<String>,
}

/// A domain (`CREATE DOMAIN`): a base type and the rules its values keep.
#[derive(Debug, Clone, PartialEq)]
pub struct Domain {
    /// Its name, in lower case unless quoted otherwise.
    pub name: String,
    /// Its base type, as written (`varchar(20)`).
    pub base: String,
    pub not_null: bool,
    /// Its default, as PostgreSQL's text of it.
    pub default: Option<String>,
    /// Its CHECK constraints: name and condition on `VALUE`, as written.
    pub checks: Vec<(String, String)>,
}

/// A function of the user's written in SQL (`CREATE FUNCTION ... LANGUAGE
/// sql`): a call of it reads as its body, with its arguments in place.
#[derive(Debug, Clone, PartialEq)]
pub struct SqlFunction {
    /// Its name, in lower case unless quoted otherwise.
    pub name: String,
    /// Its arguments' names (`None`: reached as `$n` only) and types.
    pub args: Vec<(Option<String>, PgType)>,
    pub returns: PgType,
    /// One `SELECT`, as written (a `RETURN x` body is `SELECT x`).
    pub body: String,
    /// `STRICT`: NULL when an argument is.
    pub strict: bool,
    /// `i`, `s` or `v`, as `pg_proc.provolatile`.
    pub volatility: char,
}

/// A table or view.
#[derive(Debug, Clone, PartialEq)]
pub struct Relation {
    pub name: String,
    pub columns: Vec<RelColumn>,
    pub view: bool,
    /// A materialized view, and whether it holds rows (`WITH NO DATA` makes
    /// one that does not).
    pub materialized: Option<bool>,
    /// The tables its foreign keys refer to, as written in its definition.
    pub references: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RelColumn {
    pub name: String,
    pub ty: PgType,
    /// SQLite reports `ty` as the column's declared type (not so for a view's
    /// computed column, typed by the view's header: see `sql::views`).
    pub declared: bool,
    /// `varchar(n)`'s length, `numeric(p, s)`'s precision and scale.
    pub modifier: Option<Modifier>,
    /// Declared `NOT NULL`, or the rowid's alias.
    pub not_null: bool,
    /// Generated (`GENERATED ALWAYS AS (...)`): an INSERT without a column
    /// list skips it, as SQLite does.
    pub generated: bool,
    /// Part of the table's primary key.
    pub primary_key: bool,
    /// Its default, as SQLite's text of it (`7`, `nextval('t_id_seq')`).
    pub default: Option<String>,
    /// An identity column: `a` (`GENERATED ALWAYS`) or `d` (`BY DEFAULT`).
    pub identity: Option<char>,
    /// The rowid's alias (a one-column `INTEGER PRIMARY KEY`): SQLite numbers
    /// a row that does not give it a value itself, never by its default.
    pub rowid: bool,
}

impl RelColumn {
    /// A column of a table that holds a statement's rows for a while (the
    /// rows a data change in `WITH` returned, a `MERGE`'s source): declared
    /// with its type, and nothing more.
    pub fn holding(name: String, ty: PgType) -> RelColumn {
        RelColumn {
            name,
            ty,
            declared: true,
            modifier: None,
            not_null: false,
            generated: false,
            primary_key: false,
            default: None,
            identity: None,
            rowid: false,
        }
    }
}

/// A catalog that knows nothing (every relation is unknown to it).
pub struct NoCatalog;

impl Catalog for NoCatalog {
    fn relation(&self, _name: &str) -> Option<Relation> {
        None
    }

    fn version(&self) -> u64 {
        0
    }
}
