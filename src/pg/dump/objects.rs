//! The schema objects of a dump, read from the catalog and written as
//! PostgreSQL's DDL: enum types, tables (CHECK constraints inline), sequences
//! and identities, views and materialized views, defaults that use a sequence,
//! comments; after the rows, sequence values, then keys, indexes and foreign
//! keys, and the materialized views' rows.

use std::io::Write;

use super::reader::{Reader, flag, integer, io_error, text};
use crate::engine::Value;
use crate::error::Error;
use crate::sql::quote::{identifier_as_postgres as ident, literal_as_postgres as literal};
use crate::sql::schema_names::FIRST_SCHEMA_OID;

/// The oid of `pg_class`, the class of relations in `pg_depend` and
/// `pg_description`.
const PG_CLASS: i64 = 1259;

/// The oid of `public`'s `pg_namespace` row.
const PUBLIC: i64 = 2200;

/// SQL that holds for a namespace oid `column` of the user's: `public` or
/// one made with `CREATE SCHEMA`.
fn users(column: &str) -> String {
    format!("({column} = {PUBLIC} OR {column} >= {FIRST_SCHEMA_OID})")
}

/// `schema.name` from two text values, each quoted where it must be.
fn qualified(schema: &Value, name: &Value) -> String {
    format!("{}.{}", ident(&text(schema)), ident(&text(name)))
}

/// Every object the dump writes. Names are written qualified with their
/// schema, as `pg_dump` writes them (`public.t`, `app.t`).
pub(super) struct Catalog {
    /// The schemas made with `CREATE SCHEMA`, as written.
    schemas: Vec<String>,
    enums: Vec<(String, Vec<String>)>,
    /// The domains, as `CREATE DOMAIN` statements.
    domains: Vec<String>,
    relations: Vec<Relation>,
    sequences: Vec<Sequence>,
    /// `(relation oid, column number or 0, text)`.
    comments: Vec<(i64, i64, String)>,
    /// The user's SQL functions, as `CREATE FUNCTION` statements.
    functions: Vec<String>,
}

/// A table, view or materialized view.
pub(super) struct Relation {
    oid: i64,
    pub(super) name: String,
    /// `r`, `p`, `v` or `m`, as `pg_class.relkind`.
    kind: String,
    /// A partitioned table's key (`LIST (region)`).
    partition_key: Option<String>,
    /// A partition's parent and bound.
    partition_of: Option<(String, String)>,
    populated: bool,
    pub(super) columns: Vec<Column>,
    /// `(name, definition)` of CHECK constraints, keys (primary and unique)
    /// and foreign keys.
    checks: Vec<(String, String)>,
    keys: Vec<(String, String)>,
    foreign_keys: Vec<(String, String)>,
    /// `CREATE INDEX` of the indexes that back no constraint.
    indexes: Vec<String>,
    /// A view's query.
    query: Option<String>,
}

pub(super) struct Column {
    number: i64,
    pub(super) name: String,
    ty: String,
    not_null: bool,
    /// `a` (ALWAYS) or `d` (BY DEFAULT) for an identity column.
    identity: Option<char>,
    pub(super) generated: bool,
    default: Option<String>,
}

struct Sequence {
    name: String,
    ty: String,
    start: i64,
    increment: i64,
    min: i64,
    max: i64,
    cycle: bool,
    /// The owning table's oid, the column's number, and `a` (a serial's) or
    /// `i` (an identity's).
    owner: Option<(i64, i64, char)>,
}

impl Catalog {
    pub(super) async fn read(reader: &mut Reader) -> Result<Catalog, Error> {
        let schemas = reader
            .rows(&format!(
                "SELECT nspname FROM pg_namespace WHERE oid >= {FIRST_SCHEMA_OID} ORDER BY nspname"
            ))
            .await?
            .iter()
            .map(|row| ident(&text(&row[0])))
            .collect();
        let mut enums: Vec<(String, Vec<String>)> = Vec::new();
        for row in reader
            .rows(&format!(
                "SELECT n.nspname, t.typname, e.enumlabel FROM pg_type t \
                     JOIN pg_enum e ON e.enumtypid = t.oid \
                     JOIN pg_namespace n ON n.oid = t.typnamespace \
                     WHERE {} ORDER BY t.oid, e.enumsortorder",
                users("t.typnamespace")
            ))
            .await?
        {
            let (name, label) = (qualified(&row[0], &row[1]), text(&row[2]));
            match enums.last_mut() {
                Some((last, labels)) if *last == name => labels.push(label),
                _ => enums.push((name, vec![label])),
            }
        }
        let mut domains = Vec::new();
        for row in reader
            .rows(&format!(
                "SELECT t.oid, n.nspname, t.typname, format_type(t.typbasetype, t.typtypmod), \
                     t.typnotnull, t.typdefault FROM pg_type t \
                     JOIN pg_namespace n ON n.oid = t.typnamespace \
                     WHERE t.typtype = 'd' AND {} ORDER BY t.oid",
                users("t.typnamespace")
            ))
            .await?
        {
            let mut sql = format!(
                "CREATE DOMAIN {} AS {}",
                qualified(&row[1], &row[2]),
                text(&row[3])
            );
            if let Value::Text(default) = &row[5] {
                sql += &format!(" DEFAULT {default}");
            }
            if flag(&row[4]) {
                sql += " NOT NULL";
            }
            for check in reader
                .rows(&format!(
                    "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint \
                     WHERE contypid = {} ORDER BY oid",
                    integer(&row[0])
                ))
                .await?
            {
                sql += &format!(
                    "\n    CONSTRAINT {} {}",
                    ident(&text(&check[0])),
                    text(&check[1])
                );
            }
            domains.push(sql + ";\n\n");
        }
        let mut relations = Vec::new();
        for row in reader
            .rows(&format!(
                "SELECT c.oid, n.nspname, c.relname, c.relkind, c.relispopulated FROM pg_class c \
                 JOIN pg_namespace n ON n.oid = c.relnamespace \
                 WHERE {} AND c.relkind IN ('r', 'p', 'v', 'm') ORDER BY c.oid",
                users("c.relnamespace")
            ))
            .await?
        {
            relations.push(Relation::read(reader, &row).await?);
        }
        let sequences = reader
            .rows(&format!(
                "SELECT c.relname, format_type(s.seqtypid, NULL), s.seqstart, s.seqincrement, \
                 s.seqmin, s.seqmax, s.seqcycle, d.refobjid, d.refobjsubid, d.deptype, n.nspname \
                 FROM pg_class c JOIN pg_sequence s ON s.seqrelid = c.oid \
                 JOIN pg_namespace n ON n.oid = c.relnamespace \
                 LEFT JOIN pg_depend d ON d.classid = {PG_CLASS} AND d.objid = c.oid \
                 AND d.deptype IN ('a', 'i') WHERE c.relkind = 'S' ORDER BY c.oid"
            ))
            .await?
            .iter()
            .map(|row| Sequence {
                name: qualified(&row[10], &row[0]),
                ty: text(&row[1]),
                start: integer(&row[2]),
                increment: integer(&row[3]),
                min: integer(&row[4]),
                max: integer(&row[5]),
                cycle: flag(&row[6]),
                owner: text(&row[9])
                    .chars()
                    .next()
                    .map(|kind| (integer(&row[7]), integer(&row[8]), kind)),
            })
            .collect();
        let comments = reader
            .rows(&format!(
                "SELECT objoid, objsubid, description FROM pg_description \
                 WHERE classoid = {PG_CLASS} ORDER BY objoid, objsubid"
            ))
            .await?
            .iter()
            .map(|row| (integer(&row[0]), integer(&row[1]), text(&row[2])))
            .collect();
        // Language `sql` (14), in `public` or a schema of the user's.
        let functions = reader
            .rows(&format!(
                "SELECT p.proname, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), \
                 p.provolatile, p.proisstrict, p.prosrc, n.nspname FROM pg_proc p \
                 JOIN pg_namespace n ON n.oid = p.pronamespace \
                 WHERE p.prolang = 14 AND {} ORDER BY p.oid",
                users("p.pronamespace")
            ))
            .await?
            .iter()
            .map(|row| {
                let volatility = match text(&row[3]).as_str() {
                    "i" => " IMMUTABLE",
                    "s" => " STABLE",
                    _ => "",
                };
                let strict = if flag(&row[4]) { " STRICT" } else { "" };
                format!(
                    "CREATE FUNCTION {}({}) RETURNS {}\n    LANGUAGE sql{volatility}{strict}\n    AS {};\n\n",
                    qualified(&row[6], &row[0]),
                    text(&row[1]),
                    text(&row[2]),
                    literal(&text(&row[5]))
                )
            })
            .collect();
        Ok(Catalog {
            schemas,
            enums,
            domains,
            relations,
            sequences,
            comments,
            functions,
        })
    }

    /// The tables, partitioned or not.
    fn tables(&self) -> impl Iterator<Item = &Relation> {
        self.relations
            .iter()
            .filter(|r| r.kind == "r" || r.kind == "p")
    }

    /// The tables that hold rows, whose rows the dump holds (a partitioned
    /// table's are its partitions').
    pub(super) fn stored_tables(&self) -> impl Iterator<Item = &Relation> {
        self.relations.iter().filter(|r| r.kind == "r")
    }

    fn relation(&self, oid: i64) -> Option<&Relation> {
        self.relations.iter().find(|r| r.oid == oid)
    }

    /// Types, functions, tables, sequences, views, defaults and comments.
    pub(super) fn write_schema(&self, out: &mut (dyn Write + Send)) -> Result<(), Error> {
        let mut sql = String::new();
        for schema in &self.schemas {
            sql += &format!("CREATE SCHEMA {schema};\n\n");
        }
        for (name, labels) in &self.enums {
            let labels: Vec<String> = labels
                .iter()
                .map(|l| format!("    {}", literal(l)))
                .collect();
            sql += &format!(
                "CREATE TYPE {name} AS ENUM (\n{}\n);\n\n",
                labels.join(",\n")
            );
        }
        for domain in &self.domains {
            sql += domain;
        }
        // Before the tables, whose defaults and views may call them.
        for function in &self.functions {
            sql += function;
        }
        for table in self.tables() {
            let partitioned = match &table.partition_key {
                Some(key) => format!(" PARTITION BY {key}"),
                None => String::new(),
            };
            // A partition's columns are its parent's.
            if let Some((parent, bound)) = &table.partition_of {
                sql += &format!(
                    "CREATE TABLE {} PARTITION OF {parent}\n{bound}{partitioned};\n\n",
                    table.name
                );
                continue;
            }
            let mut lines: Vec<String> = table.columns.iter().map(Column::definition).collect();
            lines.extend(
                table
                    .checks
                    .iter()
                    .map(|(name, check)| format!("    CONSTRAINT {} {check}", ident(name))),
            );
            sql += &format!(
                "CREATE TABLE {} (\n{}\n){partitioned};\n\n",
                table.name,
                lines.join(",\n")
            );
        }
        for sequence in &self.sequences {
            sql += &self.sequence_definition(sequence);
        }
        for view in self
            .relations
            .iter()
            .filter(|r| r.kind == "v" || r.kind == "m")
        {
            let query = view.query.as_deref().unwrap_or_default();
            let query = query.trim_end().trim_end_matches(';');
            sql += &match view.kind.as_str() {
                "m" => format!(
                    "CREATE MATERIALIZED VIEW {} AS\n{query}\n  WITH NO DATA;\n\n",
                    view.name
                ),
                _ => format!("CREATE VIEW {} AS\n{query};\n\n", view.name),
            };
        }
        // Defaults that use a sequence, now that it is there.
        for table in self.tables() {
            for column in table.columns.iter().filter(|c| c.default_uses_a_sequence()) {
                sql += &format!(
                    "ALTER TABLE ONLY {} ALTER COLUMN {} SET DEFAULT {};\n\n",
                    table.name,
                    ident(&column.name),
                    column.default.as_deref().unwrap_or_default()
                );
            }
        }
        for (oid, number, comment) in &self.comments {
            if let Some(target) = self.comment_target(*oid, *number) {
                sql += &format!("COMMENT ON {target} IS {};\n\n", literal(comment));
            }
        }
        out.write_all(sql.as_bytes()).map_err(io_error)
    }

    /// `CREATE SEQUENCE` and `OWNED BY` for a sequence of its own or a
    /// serial's; `ADD GENERATED ... AS IDENTITY` for an identity's.
    fn sequence_definition(&self, sequence: &Sequence) -> String {
        let options = format!(
            "    START WITH {}\n    INCREMENT BY {}\n    MINVALUE {}\n    MAXVALUE {}\n    CACHE 1{}",
            sequence.start,
            sequence.increment,
            sequence.min,
            sequence.max,
            if sequence.cycle { "\n    CYCLE" } else { "" }
        );
        let owner = sequence.owner.and_then(|(oid, number, kind)| {
            let table = self.relation(oid)?;
            let column = table.columns.iter().find(|c| c.number == number)?;
            Some((table, column, kind))
        });
        match owner {
            Some((table, column, 'i')) => format!(
                "ALTER TABLE {} ALTER COLUMN {} ADD GENERATED {} AS IDENTITY (\n    SEQUENCE NAME {}\n{options}\n);\n\n",
                table.name,
                ident(&column.name),
                match column.identity {
                    Some('a') => "ALWAYS",
                    _ => "BY DEFAULT",
                },
                sequence.name,
            ),
            _ => {
                let mut sql = format!(
                    "CREATE SEQUENCE {}\n    AS {}\n{options};\n\n",
                    sequence.name, sequence.ty
                );
                if let Some((table, column, _)) = owner {
                    sql += &format!(
                        "ALTER SEQUENCE {} OWNED BY {}.{};\n\n",
                        sequence.name,
                        table.name,
                        ident(&column.name)
                    );
                }
                sql
            }
        }
    }

    /// What `COMMENT ON` names for a relation's comment or its column's.
    fn comment_target(&self, oid: i64, number: i64) -> Option<String> {
        if let Some(relation) = self.relation(oid) {
            let name = &relation.name;
            if number == 0 {
                let kind = match relation.kind.as_str() {
                    "v" => "VIEW",
                    "m" => "MATERIALIZED VIEW",
                    _ => "TABLE",
                };
                return Some(format!("{kind} {name}"));
            }
            let column = relation.columns.iter().find(|c| c.number == number)?;
            return Some(format!("COLUMN {name}.{}", ident(&column.name)));
        }
        None
    }

    /// `setval` of every sequence: where it was left, or past the highest
    /// value of the column that owns it (rows SQLite numbered itself).
    pub(super) async fn write_sequence_values(
        &self,
        reader: &mut Reader,
        out: &mut (dyn Write + Send),
    ) -> Result<(), Error> {
        let mut sql = String::new();
        for sequence in &self.sequences {
            let name = &sequence.name;
            let rows = reader
                .rows(&format!("SELECT last_value, is_called FROM {name}"))
                .await?;
            let Some(row) = rows.first() else {
                continue;
            };
            let (mut value, mut called) = (integer(&row[0]), flag(&row[1]));
            let owner = sequence.owner.and_then(|(oid, number, _)| {
                let table = self.relation(oid)?;
                Some((table, table.columns.iter().find(|c| c.number == number)?))
            });
            if let Some((table, column)) = owner
                && sequence.increment > 0
            {
                let highest = reader
                    .rows(&format!(
                        "SELECT max({}) FROM {}",
                        ident(&column.name),
                        table.name
                    ))
                    .await?;
                if let Some(Value::Integer(highest)) = highest.first().map(|row| &row[0])
                    && (!called || *highest > value)
                    && *highest >= sequence.start
                {
                    (value, called) = (*highest, true);
                }
            }
            sql += &format!(
                "SELECT pg_catalog.setval({}, {value}, {called});\n\n",
                literal(name)
            );
        }
        out.write_all(sql.as_bytes()).map_err(io_error)
    }

    /// Keys, indexes and foreign keys (after the rows, as `pg_dump` puts
    /// them), then the materialized views' rows.
    pub(super) fn write_constraints(&self, out: &mut (dyn Write + Send)) -> Result<(), Error> {
        let mut sql = String::new();
        // A partitioned table's key covers its partitions: no ONLY.
        let add = |table: &Relation, (name, definition): &(String, String)| {
            format!(
                "ALTER TABLE {}{}\n    ADD CONSTRAINT {} {definition};\n\n",
                if table.kind == "p" { "" } else { "ONLY " },
                table.name,
                ident(name)
            )
        };
        for table in self.tables() {
            for key in &table.keys {
                sql += &add(table, key);
            }
        }
        for relation in &self.relations {
            for index in &relation.indexes {
                sql += &format!("{index};\n\n");
            }
        }
        for table in self.tables() {
            for key in &table.foreign_keys {
                sql += &add(table, key);
            }
        }
        for view in self
            .relations
            .iter()
            .filter(|r| r.kind == "m" && r.populated)
        {
            sql += &format!("REFRESH MATERIALIZED VIEW {};\n\n", view.name);
        }
        out.write_all(sql.as_bytes()).map_err(io_error)
    }
}

impl Relation {
    /// The relation of a `pg_class` row (oid, name, kind, populated) with its
    /// columns, constraints, indexes and query.
    async fn read(reader: &mut Reader, row: &[Value]) -> Result<Relation, Error> {
        let oid = integer(&row[0]);
        let columns = reader
            .rows(&format!(
                "SELECT a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, \
                 a.attidentity, a.attgenerated, pg_get_expr(d.adbin, d.adrelid) \
                 FROM pg_attribute a LEFT JOIN pg_attrdef d \
                 ON d.adrelid = a.attrelid AND d.adnum = a.attnum \
                 WHERE a.attrelid = {oid} AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum"
            ))
            .await?
            .iter()
            .map(|c| Column {
                number: integer(&c[0]),
                name: text(&c[1]),
                ty: text(&c[2]),
                not_null: flag(&c[3]),
                identity: text(&c[4]).chars().next(),
                generated: !text(&c[5]).is_empty(),
                default: Some(text(&c[6])).filter(|d| !d.is_empty()),
            })
            .collect();
        let mut relation = Relation {
            oid,
            name: qualified(&row[1], &row[2]),
            kind: text(&row[3]),
            partition_key: None,
            partition_of: None,
            populated: flag(&row[4]),
            columns,
            checks: Vec::new(),
            keys: Vec::new(),
            foreign_keys: Vec::new(),
            indexes: Vec::new(),
            query: None,
        };
        for constraint in reader
            .rows(&format!(
                "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint \
                 WHERE conrelid = {oid} ORDER BY conname"
            ))
            .await?
        {
            let named = (text(&constraint[0]), text(&constraint[2]));
            match text(&constraint[1]).as_str() {
                // A CHECK added NOT VALID comes after the rows it does not hold
                // for, as `pg_dump` writes it.
                "c" if named.1.ends_with(" NOT VALID") => relation.keys.push(named),
                "c" => relation.checks.push(named),
                "p" | "u" => relation.keys.push(named),
                "f" => relation.foreign_keys.push(named),
                _ => {}
            }
        }
        relation.indexes = reader
            .rows(&format!(
                "SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i \
                 JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = {oid} \
                 AND c.relname NOT IN (SELECT conname FROM pg_constraint \
                 WHERE conrelid = {oid} AND contype IN ('p', 'u')) ORDER BY c.relname"
            ))
            .await?
            .iter()
            .map(|row| text(&row[0]))
            .collect();
        if relation.kind == "p" {
            let key = reader
                .rows(&format!("SELECT pg_get_partkeydef({oid})"))
                .await?;
            relation.partition_key = key.first().map(|row| text(&row[0]));
        }
        let parent = reader
            .rows(&format!(
                "SELECT n.nspname, p.relname, pg_get_expr(c.relpartbound, c.oid) \
                 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid \
                 JOIN pg_class p ON p.oid = i.inhparent \
                 JOIN pg_namespace n ON n.oid = p.relnamespace WHERE i.inhrelid = {oid}"
            ))
            .await?;
        relation.partition_of = parent
            .first()
            .map(|row| (qualified(&row[0], &row[1]), text(&row[2])));
        if relation.kind == "v" || relation.kind == "m" {
            let query = reader
                .rows(&format!("SELECT pg_get_viewdef({oid})"))
                .await?;
            relation.query = query.first().map(|row| text(&row[0]));
        }
        Ok(relation)
    }
}

impl Column {
    /// The column's line in `CREATE TABLE`; a default that uses a sequence
    /// comes after the sequence, an identity's with its `ADD GENERATED`.
    fn definition(&self) -> String {
        let mut line = format!("    {} {}", ident(&self.name), self.ty);
        match &self.default {
            Some(expr) if self.generated => {
                line += &format!(" GENERATED ALWAYS AS ({expr}) STORED");
            }
            Some(expr) if self.identity.is_none() && !self.default_uses_a_sequence() => {
                line += &format!(" DEFAULT {expr}");
            }
            _ => {}
        }
        if self.not_null {
            line += " NOT NULL";
        }
        line
    }

    fn default_uses_a_sequence(&self) -> bool {
        !self.generated
            && self.identity.is_none()
            && self
                .default
                .as_deref()
                .is_some_and(|d| d.contains("nextval("))
    }
}
