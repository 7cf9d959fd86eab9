//! The rows of the schema-derived catalog relations (`pg_class`, `pg_attribute`,
//! `pg_index`, `pg_constraint`, `pg_attrdef`, `pg_tables`, `pg_views`,
//! `pg_indexes`, ...), written as one SQL script of INSERTs from what
//! `introspect` read.

use std::fmt::Write as _;

use super::introspect::{ColumnInfo, IndexInfo, Object};
use super::oids::{CHECK, CONSTRAINT, FIRST_OID, PUBLIC_NAMESPACE, ROLE_OID, SYNTHETIC_INDEX};
use super::rules::rule_rows;
use super::types::{default_opclass, storage_of, type_modifier, type_oid};
use crate::sql::quote::{identifier_as_postgres, literal, optional_literal, same_columns};
use crate::sql::schema_names::{qualified, shown, split_stored};
use crate::sql::table_definition::{ConstraintKind, Mark, TableDefinition, index_keys};
use crate::sql::{relation_name, views, written};

pub(super) fn idents(names: &[String]) -> String {
    names
        .iter()
        .map(|n| identifier_as_postgres(n))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn insert(script: &mut String, table: &str, values: &[String]) {
    let _ = writeln!(
        script,
        "INSERT INTO temp.{table} VALUES ({});",
        values.join(", ")
    );
}

/// A relation's PostgreSQL-facing index name: SQLite's automatic indexes get
/// the names of the constraints behind them, as declared or as PostgreSQL
/// names them.
fn index_name(table: &Object, index: &IndexInfo) -> String {
    let kind = match index.origin.as_str() {
        "pk" => ConstraintKind::PrimaryKey,
        "u" => ConstraintKind::Unique,
        _ => return index.name.clone(),
    };
    definition(table)
        .and_then(|def| def.key_name(kind, &index.columns))
        .unwrap_or_else(|| match kind {
            ConstraintKind::PrimaryKey => format!("{}_pkey", table.name),
            _ => format!("{}_{}_key", table.name, index.columns.join("_")),
        })
}

/// The table's definition, read from its `CREATE TABLE` text.
pub(super) fn definition(table: &Object) -> Option<TableDefinition> {
    table
        .sql
        .as_deref()
        .and_then(|sql| TableDefinition::parse(sql).ok())
}

pub(super) fn table_rows(
    script: &mut String,
    table: &Object,
    objects: &[Object],
    oid_of: &dyn Fn(&str) -> Option<i64>,
    schemas: &[String],
) {
    let oid = FIRST_OID + table.rowid;
    let rowid_pk = rowid_primary_key(table);
    let has_index = rowid_pk.is_some() || !table.indexes.is_empty();
    // In PostgreSQL foreign keys are enforced by triggers on both tables, and psql
    // only lists keys ("Foreign-key constraints", "Referenced by") when it sees them.
    let has_triggers = !table.foreign_keys.is_empty()
        || objects.iter().any(|o| {
            o.foreign_keys
                .iter()
                .any(|k| k.table.eq_ignore_ascii_case(&table.name))
        });
    let materialized = table.kind == "matview";
    relation_row(
        script,
        oid,
        &table.name,
        PUBLIC_NAMESPACE,
        if materialized { "m" } else { "r" },
        table.columns.len(),
        (has_index, has_triggers),
    );
    storage_row(script, oid, &table.name);
    let def = definition(table);
    let generations: Vec<Option<String>> = (table.columns.iter())
        .map(|c| Some(def.as_ref()?.generation_of(&c.name)?.to_owned()))
        .collect();
    attribute_rows(script, oid, &table.columns, &generations, schemas);
    if materialized {
        // Its query as written (see `sql::matviews`), for `pg_get_viewdef`.
        let definition = format!(" {};", table.query.as_deref().unwrap_or_default());
        insert(
            script,
            "litewire_definitions",
            &[oid.to_string(), literal(&definition)],
        );
        rule_rows(script, oid, &definition, oid_of);
    } else {
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_tables VALUES ('public', {}, (SELECT user_name FROM temp.litewire_session), NULL, {has_index}, false, false, false);",
            literal(&table.name)
        );
    }
    if let Some(column) = rowid_pk {
        let name = (def.as_ref())
            .and_then(|def| def.key_name(ConstraintKind::PrimaryKey, std::slice::from_ref(&column)))
            .unwrap_or_else(|| format!("{}_pkey", table.name));
        let index = IndexInfo {
            name,
            unique: true,
            origin: "pk".into(),
            partial: false,
            columns: vec![column],
        };
        index_rows(
            script,
            table,
            oid,
            SYNTHETIC_INDEX + table.rowid,
            &index,
            None,
            schemas,
        );
    }
    for index in &table.indexes {
        let index = &as_primary_key(table, index);
        let sqlite_index = sqlite_index(objects, index);
        let sql = sqlite_index.and_then(|o| o.sql.as_deref());
        index_rows(
            script,
            table,
            oid,
            index_oid(table, objects, index),
            index,
            sql,
            schemas,
        );
    }
    check_rows(script, table, oid);
}

/// `index` as the table's primary key when it is one: a unique index over
/// plain columns named `<table>_pkey` on a table that declares no primary key
/// (what `ALTER TABLE t ADD PRIMARY KEY` makes, see `sql::translate`).
fn as_primary_key(table: &Object, index: &IndexInfo) -> IndexInfo {
    let is_key = index.origin == "c"
        && index.unique
        && !index.partial
        && index
            .name
            .eq_ignore_ascii_case(&format!("{}_pkey", table.name))
        && table.columns.iter().all(|c| c.pk == 0)
        && !index.columns.iter().any(|c| c == "expression");
    IndexInfo {
        origin: if is_key {
            "pk".into()
        } else {
            index.origin.clone()
        },
        ..index.clone()
    }
}

/// The schema object of one of a table's indexes (none for the synthetic
/// primary key index).
fn sqlite_index<'a>(objects: &'a [Object], index: &IndexInfo) -> Option<&'a Object> {
    objects
        .iter()
        .find(|o| o.kind == "index" && o.name == index.name)
}

/// The oid of one of `table`'s indexes.
fn index_oid(table: &Object, objects: &[Object], index: &IndexInfo) -> i64 {
    sqlite_index(objects, index).map_or(SYNTHETIC_INDEX + table.rowid, |o| FIRST_OID + o.rowid)
}

/// The oid of the unique index of `table` over exactly `columns` (what a
/// foreign key that references them relies on), 0 for none.
pub(super) fn unique_index_over(table: &Object, objects: &[Object], columns: &[String]) -> i64 {
    let same = |names: &[String]| same_columns(names, columns);
    if let Some(column) = rowid_primary_key(table)
        && same(std::slice::from_ref(&column))
    {
        return SYNTHETIC_INDEX + table.rowid;
    }
    table
        .indexes
        .iter()
        .find(|i| i.unique && !i.partial && same(&i.columns))
        .map_or(0, |i| index_oid(table, objects, i))
}

/// CHECK constraints, named as PostgreSQL names them when they have no name:
/// `t_col_check` after the column they are declared on or first mention, else
/// `t_check`, `t_check1`, ...
fn check_rows(script: &mut String, table: &Object, table_oid: i64) {
    use crate::sql::domains::CHECK_PREFIX as DOMAIN_CHECK;
    // An enum column's CHECK is the type's doing, not a constraint of the table.
    let checks: Vec<_> = table
        .sql
        .as_deref()
        .map(crate::sql::check_constraints)
        .unwrap_or_default()
        .into_iter()
        .filter(|c| {
            !c.name
                .as_deref()
                .is_some_and(|n| n.starts_with(crate::sql::enums::CHECK_PREFIX))
        })
        .collect();
    // So is a domain's: its column has the domain as its type.
    let checks: Vec<_> = checks
        .into_iter()
        .filter(|c| {
            let Some(domain) = c.name.as_deref().and_then(|n| n.strip_prefix(DOMAIN_CHECK)) else {
                return true;
            };
            if let Some(column) = &c.column {
                let domain = domain.split(':').next().unwrap_or(domain);
                let _ = writeln!(
                    script,
                    "INSERT INTO temp.litewire_domain_columns VALUES ({table_oid}, {}, {});",
                    literal(column),
                    literal(domain)
                );
            }
            false
        })
        .collect();
    if checks.is_empty() {
        return;
    }
    let _ = writeln!(
        script,
        "UPDATE temp.pg_class SET relchecks = {} WHERE oid = {table_oid};",
        checks.len()
    );
    let def = definition(table);
    let mut unnamed = 0;
    for (i, check) in checks.iter().enumerate() {
        let mentioned = check
            .column
            .clone()
            .or_else(|| first_column(table, &written::shown(&check.expr)));
        let name = match (&check.name, mentioned) {
            (Some(name), _) => name.clone(),
            (None, Some(column)) => format!("{}_{column}_check", table.name),
            (None, None) => {
                unnamed += 1;
                match unnamed {
                    1 => format!("{}_check", table.name),
                    n => format!("{}_check{}", table.name, n - 1),
                }
            }
        };
        let attnum = check.column.as_ref().and_then(|c| {
            table
                .columns
                .iter()
                .position(|col| col.name.eq_ignore_ascii_case(c))
        });
        let key = attnum.map_or_else(String::new, |p| format!("{{{}}}", p + 1));
        let oid = CHECK + table_oid * 64 + i as i64;
        constraint_row(
            script,
            oid,
            &name,
            "c",
            table_oid,
            0,
            0,
            &key,
            "NULL",
            ("a", "a"),
        );
        let marked = |mark| {
            def.as_ref().is_some_and(|d| {
                d.named_constraints()
                    .iter()
                    .any(|(n, c)| n.eq_ignore_ascii_case(&name) && c.marked(mark))
            })
        };
        let (not_valid, no_inherit) = (marked(Mark::NotValid), marked(Mark::NoInherit));
        let mut shown = format!("CHECK ({})", written::shown(&check.expr));
        if no_inherit {
            shown.push_str(" NO INHERIT");
        }
        mark_validity(script, oid, not_valid, &mut shown);
        let _ = writeln!(
            script,
            "UPDATE temp.pg_constraint SET connoinherit = {no_inherit} WHERE oid = {oid};"
        );
        insert(
            script,
            "litewire_definitions",
            &[oid.to_string(), literal(&shown)],
        );
    }
}

/// A constraint added `NOT VALID`: `pg_constraint.convalidated` false, and
/// its definition saying so.
pub(super) fn mark_validity(
    script: &mut String,
    oid: i64,
    not_valid: bool,
    definition: &mut String,
) {
    if not_valid {
        definition.push_str(" NOT VALID");
        let _ = writeln!(
            script,
            "UPDATE temp.pg_constraint SET convalidated = false WHERE oid = {oid};"
        );
    }
}

/// The first of `table`'s columns that `expr` names.
fn first_column(table: &Object, expr: &str) -> Option<String> {
    expr.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find_map(|word| {
            table
                .columns
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(word))
        })
        .map(|c| c.name.clone())
}

/// The column of an `INTEGER PRIMARY KEY` (the rowid alias), which has no index
/// of its own in SQLite.
fn rowid_primary_key(table: &Object) -> Option<String> {
    let pk: Vec<&ColumnInfo> = table.columns.iter().filter(|c| c.pk > 0).collect();
    let has_pk_index = table.indexes.iter().any(|i| i.origin == "pk");
    match pk.as_slice() {
        [only] if !has_pk_index => Some(only.name.clone()),
        _ => None,
    }
}

/// Where `pg_table_size()` finds a relation in SQLite's `dbstat`.
fn storage_row(script: &mut String, oid: i64, sqlite_name: &str) {
    insert(
        script,
        "litewire_storage",
        &[oid.to_string(), literal(sqlite_name)],
    );
}

pub(super) fn relation_row(
    script: &mut String,
    oid: i64,
    name: &str,
    namespace: i64,
    kind: &str,
    natts: usize,
    flags: (bool, bool),
) {
    insert(
        script,
        "pg_class",
        &relation_values(oid, name, namespace, kind, natts, flags),
    );
}

/// A `pg_class` row's values.
pub(super) fn relation_values(
    oid: i64,
    name: &str,
    namespace: i64,
    kind: &str,
    natts: usize,
    (has_index, has_triggers): (bool, bool),
) -> Vec<String> {
    let am = match kind {
        "r" => 2,
        "i" => 403,
        _ => 0,
    };
    vec![
        oid.to_string(),
        literal(name),
        namespace.to_string(),
        "0".into(),
        "0".into(),
        ROLE_OID.to_string(),
        am.to_string(),
        oid.to_string(),
        "0".into(),
        "0".into(),
        "-1".into(),
        "0".into(),
        "0".into(),
        has_index.to_string(),
        "false".into(),
        "'p'".into(),
        literal(kind),
        natts.to_string(),
        "0".into(),
        "false".into(),
        has_triggers.to_string(),
        "false".into(),
        "false".into(),
        "false".into(),
        "true".into(),
        "'d'".into(),
        "false".into(),
        "0".into(),
        // relfrozenxid, relminmxid: SQLite has no transaction ids.
        "0".into(),
        "0".into(),
        "NULL".into(),
        "NULL".into(),
        "NULL".into(),
    ]
}

/// The collation of a column of type `typid`: the default one (100) for the
/// text types, none (0) for the others.
fn collation(typid: i64) -> i64 {
    if matches!(typid, 25 | 1042 | 1043) {
        100
    } else {
        0
    }
}

/// `generations`: each generated column's expression, where known.
fn attribute_rows(
    script: &mut String,
    relation: i64,
    columns: &[ColumnInfo],
    generations: &[Option<String>],
    schemas: &[String],
) {
    for (i, column) in columns.iter().enumerate() {
        let typid = type_oid(&column.decl);
        let (len, storage) = storage_of(typid);
        let generated = if column.hidden >= 2 { "'s'" } else { "''" };
        let collation = collation(typid);
        let attnum = i + 1;
        insert(
            script,
            "pg_attribute (attrelid, attname, atttypid, attstattarget, attlen, attnum, attndims, atttypmod, attstorage, attcompression, attnotnull, atthasdef, attidentity, attgenerated, attisdropped, attcollation)",
            &[
                relation.to_string(),
                literal(&column.name),
                typid.to_string(),
                "-1".into(),
                len.to_string(),
                attnum.to_string(),
                "0".into(),
                type_modifier(&column.decl).to_string(),
                literal(storage),
                "''".into(),
                (column.not_null || column.pk > 0).to_string(),
                (column.default.is_some() || generations.get(i).is_some_and(Option::is_some))
                    .to_string(),
                "''".into(),
                generated.into(),
                "false".into(),
                collation.to_string(),
            ],
        );
        let default = column
            .default
            .as_ref()
            .or(generations.get(i).and_then(Option::as_ref));
        if let Some(default) = default {
            let _ = writeln!(
                script,
                "INSERT INTO temp.pg_attrdef VALUES ({}, {relation}, {attnum}, {});",
                CONSTRAINT + relation * 64 + attnum as i64,
                literal(&shown_default(default, schemas))
            );
        }
    }
}

/// A column default as PostgreSQL would show it: the expressions the dialect
/// translation wrote for `now()` and `gen_random_uuid()` read back as those.
fn shown_default(default: &str, schemas: &[String]) -> String {
    let default = &written::shown(default);
    let bare = default
        .strip_prefix('(')
        .and_then(|d| d.strip_suffix(')'))
        .unwrap_or(default);
    match bare {
        "strftime('%Y-%m-%d %H:%M:%f+00', 'now')" => "now()".to_owned(),
        "gen_random_uuid()" => "gen_random_uuid()".to_owned(),
        // A sequence's name, as PostgreSQL shows it.
        _ if bare.starts_with("nextval('") && bare.ends_with("')") && !bare.contains("::") => {
            let name = &bare["nextval('".len()..bare.len() - 2];
            match relation_name(name) {
                Some(stored) => format!("nextval('{}'::regclass)", shown(&stored, schemas)),
                None => format!("{}::regclass)", &bare[..bare.len() - 1]),
            }
        }
        _ => default.to_owned(),
    }
}

fn index_rows(
    script: &mut String,
    table: &Object,
    table_oid: i64,
    oid: i64,
    index: &IndexInfo,
    sql: Option<&str>,
    schemas: &[String],
) {
    let name = index_name(table, index);
    let primary = index.origin == "pk";
    let attnums = attnum_list(table, &index.columns);
    let types: Vec<i64> = index
        .columns
        .iter()
        .map(|c| {
            let decl = table
                .columns
                .iter()
                .find(|col| col.name.eq_ignore_ascii_case(c))
                .map_or("", |col| col.decl.as_str());
            type_oid(decl)
        })
        .collect();
    let collations: Vec<String> = types.iter().map(|t| collation(*t).to_string()).collect();
    let classes: Vec<String> = types
        .iter()
        .map(|t| default_opclass(*t).to_string())
        .collect();
    relation_row(
        script,
        oid,
        &name,
        PUBLIC_NAMESPACE,
        "i",
        index.columns.len(),
        (false, false),
    );
    if oid < SYNTHETIC_INDEX {
        // A synthetic primary key index has no b-tree of its own.
        storage_row(script, oid, &index.name);
    }
    let unique = if index.unique { "UNIQUE " } else { "" };
    let predicate = sql
        .filter(|_| index.partial)
        .and_then(|s| {
            let upper = s.to_ascii_uppercase();
            upper.rfind(" WHERE ").map(|at| s[at..].to_owned())
        })
        .unwrap_or_default();
    let definition = format!(
        "CREATE {unique}INDEX {} ON {} USING btree ({}){predicate}",
        identifier_as_postgres(split_stored(&name, schemas).map_or(name.as_str(), |(_, n)| n)),
        qualified(&table.name, schemas),
        // An index on expressions as its statement lists them.
        match sql.and_then(index_keys) {
            Some(keys) if index.columns.iter().any(|c| c == "expression") => keys.to_owned(),
            _ => idents(&index.columns),
        }
    );
    insert(
        script,
        "pg_index",
        &[
            oid.to_string(),
            table_oid.to_string(),
            index.columns.len().to_string(),
            index.columns.len().to_string(),
            index.unique.to_string(),
            "false".into(),
            primary.to_string(),
            "false".into(),
            "true".into(),
            "false".into(),
            "true".into(),
            "false".into(),
            "true".into(),
            "true".into(),
            "false".into(),
            literal(&attnums.join(" ")),
            literal(&collations.join(" ")),
            literal(&classes.join(" ")),
            literal(&vec!["0"; attnums.len()].join(" ")),
            "NULL".into(),
            optional_literal(
                index
                    .partial
                    .then_some(predicate.trim_start_matches(" WHERE ")),
            ),
        ],
    );
    index_attributes(script, table, oid, index);
    insert(
        script,
        "litewire_definitions",
        &[oid.to_string(), literal(&definition)],
    );
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_indexes VALUES ('public', {}, {}, NULL, {});",
        literal(&table.name),
        literal(&name),
        literal(&definition)
    );
    let contype = match index.origin.as_str() {
        "pk" => "p",
        "u" => "u",
        _ => return,
    };
    let keyword = if primary { "PRIMARY KEY" } else { "UNIQUE" };
    let constraint = CONSTRAINT + oid;
    constraint_row(
        script,
        constraint,
        &name,
        contype,
        table_oid,
        oid,
        0,
        &format!("{{{}}}", attnums.join(",")),
        "NULL",
        ("a", "a"),
    );
    insert(
        script,
        "litewire_definitions",
        &[
            constraint.to_string(),
            literal(&format!("{keyword} ({})", idents(&index.columns))),
        ],
    );
}

/// An index's columns, as `pg_attribute` rows of the index relation.
fn index_attributes(script: &mut String, table: &Object, oid: i64, index: &IndexInfo) {
    let columns: Vec<ColumnInfo> = index
        .columns
        .iter()
        .map(|name| ColumnInfo {
            name: name.clone(),
            decl: table
                .columns
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(name))
                .map_or_else(String::new, |c| c.decl.clone()),
            not_null: false,
            default: None,
            pk: 0,
            hidden: 0,
        })
        .collect();
    // No defaults: no names to show.
    attribute_rows(script, oid, &columns, &[], &[]);
}

#[allow(clippy::too_many_arguments)]
pub(super) fn constraint_row(
    script: &mut String,
    oid: i64,
    name: &str,
    contype: &str,
    relation: i64,
    index: i64,
    foreign: i64,
    key: &str,
    foreign_key: &str,
    actions: (&str, &str),
) {
    insert(
        script,
        "pg_constraint",
        &[
            oid.to_string(),
            literal(name),
            PUBLIC_NAMESPACE.to_string(),
            literal(contype),
            "false".into(),
            "false".into(),
            "true".into(),
            relation.to_string(),
            "0".into(),
            index.to_string(),
            "0".into(),
            foreign.to_string(),
            literal(actions.0),
            literal(actions.1),
            "'s'".into(),
            "true".into(),
            "0".into(),
            "true".into(),
            literal(key),
            foreign_key.to_owned(),
            // conpfeqop, conppeqop, conffeqop, confdelsetcols, conexclop, conbin.
            "NULL".into(),
            "NULL".into(),
            "NULL".into(),
            "NULL".into(),
            "NULL".into(),
            "NULL".into(),
        ],
    );
}

/// The `{1,2}` array of the attnums of `table`'s columns `names` (0 for a
/// name it lacks).
pub(super) fn attnums(table: &Object, names: &[String]) -> String {
    format!("{{{}}}", attnum_list(table, names).join(","))
}

/// The attnum of each of `table`'s columns `names`, in order (0 for a name it
/// lacks).
fn attnum_list(table: &Object, names: &[String]) -> Vec<String> {
    names
        .iter()
        .map(|c| {
            table
                .columns
                .iter()
                .position(|col| col.name.eq_ignore_ascii_case(c))
                .map_or(0, |p| p + 1)
                .to_string()
        })
        .collect()
}

pub(super) fn view_rows(
    script: &mut String,
    view: &Object,
    oid_of: &dyn Fn(&str) -> Option<i64>,
    schemas: &[String],
) {
    let oid = FIRST_OID + view.rowid;
    relation_row(
        script,
        oid,
        &view.name,
        PUBLIC_NAMESPACE,
        "v",
        view.columns.len(),
        (false, false),
    );
    attribute_rows(script, oid, &view.columns, &[], schemas);
    // The query as written, if litewire made the view and SQLite has not
    // rewritten it since; else SQLite's text of it.
    let written = view
        .sql
        .as_deref()
        .and_then(views::header)
        .and_then(|(_, query)| query);
    let definition = written
        .or_else(|| {
            let sql = view.sql.as_deref()?;
            let at = sql.to_ascii_uppercase().find(" AS ")?;
            Some(views::body(&sql[at + 4..]).to_owned())
        })
        .map(|query| format!(" {};", query.trim()))
        .unwrap_or_default();
    insert(
        script,
        "litewire_definitions",
        &[oid.to_string(), literal(&definition)],
    );
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_views VALUES ('public', {}, (SELECT user_name FROM temp.litewire_session), {});",
        literal(&view.name),
        literal(&definition)
    );
    rule_rows(script, oid, &definition, oid_of);
}
