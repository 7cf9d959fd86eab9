//! The system column `tableoid` of catalog relations: the oid of the
//! relation a row comes from, which `pg_dump` reads beside every object's
//! oid (`SELECT x.tableoid, x.oid, ... FROM pg_extension x`). litewire's
//! catalog relations are tables of SQLite's without it, and each holds the rows
//! of one PostgreSQL relation, so a reference to it is that relation's oid.

use std::ops::ControlFlow;

use sqlparser::ast::{Expr, Ident, Select, SelectItem, TableFactor, Value, visit_expressions_mut};

use crate::sql::syntax_tree::idents;

/// PostgreSQL 15's oids of the catalog relations litewire answers.
const RELATION_OIDS: &[(&str, u32)] = &[
    ("pg_aggregate", 2600),
    ("pg_am", 2601),
    ("pg_attrdef", 2604),
    ("pg_attribute", 1249),
    ("pg_authid", 1260),
    ("pg_cast", 2605),
    ("pg_class", 1259),
    ("pg_collation", 3456),
    ("pg_constraint", 2606),
    ("pg_conversion", 2607),
    ("pg_database", 1262),
    ("pg_default_acl", 826),
    ("pg_depend", 2608),
    ("pg_description", 2609),
    ("pg_enum", 3501),
    ("pg_event_trigger", 3466),
    ("pg_extension", 3079),
    ("pg_foreign_data_wrapper", 2328),
    ("pg_foreign_server", 1417),
    ("pg_foreign_table", 3118),
    ("pg_index", 2610),
    ("pg_inherits", 2611),
    ("pg_init_privs", 3394),
    ("pg_language", 2612),
    ("pg_largeobject_metadata", 2995),
    ("pg_namespace", 2615),
    ("pg_opclass", 2616),
    ("pg_operator", 2617),
    ("pg_opfamily", 2753),
    ("pg_partitioned_table", 3350),
    ("pg_policy", 3256),
    ("pg_proc", 1255),
    ("pg_publication", 6104),
    ("pg_publication_namespace", 6237),
    ("pg_publication_rel", 6106),
    ("pg_range", 3541),
    ("pg_rewrite", 2618),
    ("pg_seclabel", 3596),
    ("pg_sequence", 2224),
    ("pg_shdescription", 2396),
    ("pg_statistic_ext", 3381),
    ("pg_subscription", 6100),
    ("pg_tablespace", 1213),
    ("pg_transform", 3576),
    ("pg_trigger", 2620),
    ("pg_ts_config", 3602),
    ("pg_ts_dict", 3600),
    ("pg_ts_parser", 3601),
    ("pg_ts_template", 3764),
    ("pg_type", 1247),
    ("pg_user_mapping", 1418),
];

/// The oid of the catalog relation `name` (its PostgreSQL name).
pub(super) fn relation_oid(name: &str) -> Option<u32> {
    RELATION_OIDS
        .iter()
        .find(|(relation, _)| relation.eq_ignore_ascii_case(name))
        .map(|(_, oid)| *oid)
}

/// Each `tableoid` of a catalog relation the select reads (`x.tableoid`, or
/// `tableoid` where it reads one relation) as that relation's oid: whether
/// any was.
pub(super) fn table_oids(select: &mut Select) -> bool {
    let mut items: Vec<(String, u32)> = Vec::new();
    for from in &select.from {
        for factor in std::iter::once(&from.relation).chain(from.joins.iter().map(|j| &j.relation))
        {
            if let TableFactor::Table {
                name,
                alias,
                args: None,
                ..
            } = factor
                && let Some(relation) = idents(name).last()
                && let Some(oid) = relation_oid(relation)
            {
                let referred = alias
                    .as_ref()
                    .map_or_else(|| relation.clone(), |a| a.name.value.clone());
                items.push((referred, oid));
            }
        }
    }
    if items.is_empty() {
        return false;
    }
    let alone = select.from.len() == 1 && select.from[0].joins.is_empty();
    // The result column keeps its name.
    for item in &mut select.projection {
        if let SelectItem::UnnamedExpr(expr) = item
            && is_tableoid(expr)
        {
            *item = SelectItem::ExprWithAlias {
                expr: expr.clone(),
                alias: Ident::with_quote('"', "tableoid"),
            };
        }
    }
    let mut changed = false;
    let oid_of = |qualifier: Option<&str>| match qualifier {
        Some(q) => items
            .iter()
            .find(|(referred, _)| referred.eq_ignore_ascii_case(q))
            .map(|(_, oid)| *oid),
        None if alone => items.first().map(|(_, oid)| *oid),
        None => None,
    };
    let _ = visit_expressions_mut(select, |expr| {
        let oid = match expr {
            Expr::CompoundIdentifier(parts)
                if parts.len() == 2 && parts[1].value.eq_ignore_ascii_case("tableoid") =>
            {
                oid_of(Some(&parts[0].value))
            }
            Expr::Identifier(ident) if ident.value.eq_ignore_ascii_case("tableoid") => oid_of(None),
            _ => None,
        };
        if let Some(oid) = oid {
            *expr = Expr::value(Value::Number(oid.to_string(), false));
            changed = true;
        }
        ControlFlow::<()>::Continue(())
    });
    changed
}

fn is_tableoid(expr: &Expr) -> bool {
    match expr {
        Expr::CompoundIdentifier(parts) => {
            parts.len() == 2 && parts[1].value.eq_ignore_ascii_case("tableoid")
        }
        Expr::Identifier(ident) => ident.value.eq_ignore_ascii_case("tableoid"),
        _ => false,
    }
}
