//! Object ids in the emulated catalog. A schema object's oid is 16384 plus its
//! `sqlite_schema` rowid; what has no rowid of its own (a synthetic primary-key
//! index, constraints, enum types and labels) gets an oid in a range of its own,
//! derived from the ids of what it belongs to.

pub(super) const FIRST_OID: i64 = 16384;
pub(super) const SYNTHETIC_INDEX: i64 = 1 << 24;
pub(super) const CONSTRAINT: i64 = 1 << 25;
pub(super) const FOREIGN_KEY: i64 = 1 << 26;
pub(super) const CHECK: i64 = 1 << 27;
/// Domains: this plus their row's rowid (`pg_type.oid`).
pub(super) const DOMAIN_TYPE: i64 = 1 << 28;
/// A domain's CHECKs (`pg_constraint.oid`): this plus 64 times the domain's
/// rowid plus the CHECK's place.
pub(super) const DOMAIN_CHECK: i64 = DOMAIN_TYPE + (1 << 27);
/// Enum types: this plus the rowid of their first label's row.
pub(super) const ENUM_TYPE: i64 = 1 << 29;
/// A view's rule (`pg_rewrite.oid`, which `pg_depend` names as what depends
/// on the relations the view reads): this plus the view's oid.
pub(super) const REWRITE_RULE: i64 = 3 << 28;
/// Enum labels (`pg_enum.oid`): this plus their row's rowid.
pub(super) const ENUM_LABEL: i64 = 1 << 30;
pub(in crate::engine) const ROLE_OID: i64 = 10;
/// `pg_database_owner`: the owner of `public`, as in PostgreSQL 15 (whoever
/// owns the database).
pub(super) const DATABASE_OWNER_ROLE: i64 = 6171;
pub(super) const PUBLIC_NAMESPACE: i64 = 2200;
/// The schemas made with `CREATE SCHEMA`: this plus their row's rowid.
pub(super) const SCHEMA_NAMESPACES: i64 = crate::sql::schema_names::FIRST_SCHEMA_OID;

/// The schemas there are: PostgreSQL's own, and `public` that holds the file's
/// relations.
pub(in crate::engine) const NAMESPACES: &[(i64, &str)] = &[
    (11, "pg_catalog"),
    (99, "pg_toast"),
    (PUBLIC_NAMESPACE, "public"),
    (13183, "information_schema"),
];
pub(in crate::engine) const DATABASE_OID: i64 = 16383;
/// The built-in extensions (`pg_extension.oid`): this plus their place in
/// `sql::extensions::EXTENSIONS` (plpgsql's is PostgreSQL 15's).
pub(super) const EXTENSION_OIDS: i64 = 13559;
