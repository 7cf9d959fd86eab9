//! The system column `tableoid` of catalog relations: the oid of the
//! relation a row comes from, which `pg_dump` reads beside every object's
//! oid (`SELECT x.tableoid, x.oid, ... FROM pg_extension x`). litewire's
//! catalog relations are tables of SQLite's without it, and each holds the rows
//! of one PostgreSQL relation, so a reference to it is that relation's oid.

use std::ops::ControlFlow;

use sqlparser::ast::{Expr, Ident, Select, SelectItem, TableFactor, Value, visit_expressions_mut};

use crate::sql::syntax_tree::idents;

/// PostgreSQL 15's oids of its catalog's tables and views, every one of which
/// litewire answers (`SELECT relname, oid FROM pg_class WHERE relnamespace =
/// 'pg_catalog'::regnamespace AND relkind IN ('r', 'v')`).
const RELATION_OIDS: &[(&str, u32)] = &[
    ("pg_aggregate", 2600),
    ("pg_am", 2601),
    ("pg_amop", 2602),
    ("pg_amproc", 2603),
    ("pg_attrdef", 2604),
    ("pg_attribute", 1249),
    ("pg_auth_members", 1261),
    ("pg_authid", 1260),
    ("pg_available_extension_versions", 12085),
    ("pg_available_extensions", 12081),
    ("pg_backend_memory_contexts", 12138),
    ("pg_cast", 2605),
    ("pg_class", 1259),
    ("pg_collation", 3456),
    ("pg_config", 12130),
    ("pg_constraint", 2606),
    ("pg_conversion", 2607),
    ("pg_cursors", 12077),
    ("pg_database", 1262),
    ("pg_db_role_setting", 2964),
    ("pg_default_acl", 826),
    ("pg_depend", 2608),
    ("pg_description", 2609),
    ("pg_enum", 3501),
    ("pg_event_trigger", 3466),
    ("pg_extension", 3079),
    ("pg_file_settings", 12110),
    ("pg_foreign_data_wrapper", 2328),
    ("pg_foreign_server", 1417),
    ("pg_foreign_table", 3118),
    ("pg_group", 12010),
    ("pg_hba_file_rules", 12114),
    ("pg_ident_file_mappings", 12118),
    ("pg_index", 2610),
    ("pg_indexes", 12043),
    ("pg_inherits", 2611),
    ("pg_init_privs", 3394),
    ("pg_language", 2612),
    ("pg_largeobject", 2613),
    ("pg_largeobject_metadata", 2995),
    ("pg_locks", 12073),
    ("pg_matviews", 12038),
    ("pg_namespace", 2615),
    ("pg_opclass", 2616),
    ("pg_operator", 2617),
    ("pg_opfamily", 2753),
    ("pg_parameter_acl", 6243),
    ("pg_partitioned_table", 3350),
    ("pg_policies", 12018),
    ("pg_policy", 3256),
    ("pg_prepared_statements", 12095),
    ("pg_prepared_xacts", 12090),
    ("pg_proc", 1255),
    ("pg_publication", 6104),
    ("pg_publication_namespace", 6237),
    ("pg_publication_rel", 6106),
    ("pg_publication_tables", 12068),
    ("pg_range", 3541),
    ("pg_replication_origin", 6000),
    ("pg_replication_origin_status", 12332),
    ("pg_replication_slots", 12257),
    ("pg_rewrite", 2618),
    ("pg_roles", 12000),
    ("pg_rules", 12023),
    ("pg_seclabel", 3596),
    ("pg_seclabels", 12099),
    ("pg_sequence", 2224),
    ("pg_sequences", 12048),
    ("pg_settings", 12104),
    ("pg_shadow", 12005),
    ("pg_shdepend", 1214),
    ("pg_shdescription", 2396),
    ("pg_shmem_allocations", 12134),
    ("pg_shseclabel", 3592),
    ("pg_stat_activity", 12222),
    ("pg_stat_all_indexes", 12183),
    ("pg_stat_all_tables", 12142),
    ("pg_stat_archiver", 12285),
    ("pg_stat_bgwriter", 12289),
    ("pg_stat_database", 12266),
    ("pg_stat_database_conflicts", 12271),
    ("pg_stat_gssapi", 12253),
    ("pg_stat_progress_analyze", 12297),
    ("pg_stat_progress_basebackup", 12317),
    ("pg_stat_progress_cluster", 12307),
    ("pg_stat_progress_copy", 12322),
    ("pg_stat_progress_create_index", 12312),
    ("pg_stat_progress_vacuum", 12302),
    ("pg_stat_recovery_prefetch", 12240),
    ("pg_stat_replication", 12227),
    ("pg_stat_replication_slots", 12262),
    ("pg_stat_slru", 12232),
    ("pg_stat_ssl", 12249),
    ("pg_stat_subscription", 12244),
    ("pg_stat_subscription_stats", 12336),
    ("pg_stat_sys_indexes", 12188),
    ("pg_stat_sys_tables", 12152),
    ("pg_stat_user_functions", 12275),
    ("pg_stat_user_indexes", 12192),
    ("pg_stat_user_tables", 12161),
    ("pg_stat_wal", 12293),
    ("pg_stat_wal_receiver", 12236),
    ("pg_stat_xact_all_tables", 12147),
    ("pg_stat_xact_sys_tables", 12157),
    ("pg_stat_xact_user_functions", 12280),
    ("pg_stat_xact_user_tables", 12166),
    ("pg_statio_all_indexes", 12196),
    ("pg_statio_all_sequences", 12209),
    ("pg_statio_all_tables", 12170),
    ("pg_statio_sys_indexes", 12201),
    ("pg_statio_sys_sequences", 12214),
    ("pg_statio_sys_tables", 12175),
    ("pg_statio_user_indexes", 12205),
    ("pg_statio_user_sequences", 12218),
    ("pg_statio_user_tables", 12179),
    ("pg_statistic", 2619),
    ("pg_statistic_ext", 3381),
    ("pg_statistic_ext_data", 3429),
    ("pg_stats", 12053),
    ("pg_stats_ext", 12058),
    ("pg_stats_ext_exprs", 12063),
    ("pg_subscription", 6100),
    ("pg_subscription_rel", 6102),
    ("pg_tables", 12033),
    ("pg_tablespace", 1213),
    ("pg_timezone_abbrevs", 12122),
    ("pg_timezone_names", 12126),
    ("pg_transform", 3576),
    ("pg_trigger", 2620),
    ("pg_ts_config", 3602),
    ("pg_ts_config_map", 3603),
    ("pg_ts_dict", 3600),
    ("pg_ts_parser", 3601),
    ("pg_ts_template", 3764),
    ("pg_type", 1247),
    ("pg_user", 12014),
    ("pg_user_mapping", 1418),
    ("pg_user_mappings", 12327),
    ("pg_views", 12028),
];

/// The oid of the catalog relation `name` (its PostgreSQL name).
pub(super) fn relation_oid(name: &str) -> Option<u32> {
    RELATION_OIDS
        .iter()
        .find(|(relation, _)| relation.eq_ignore_ascii_case(name))
        .map(|(_, oid)| *oid)
}

/// The name of the catalog relation whose oid the SQL expression `oid` is
/// (NULL for none), as an SQL expression.
pub(super) fn relation_named(oid: &str) -> String {
    relations_case(oid, |name, oid| (oid.to_string(), format!("'{name}'")))
}

/// The oid of the catalog relation the SQL expression `name` (lower case,
/// unqualified) names (NULL for none), as an SQL expression.
pub(super) fn relation_oid_named(name: &str) -> String {
    relations_case(name, |relation, oid| {
        (format!("'{relation}'"), oid.to_string())
    })
}

/// `CASE operand WHEN ... THEN ... END` over every catalog relation, each
/// `WHEN` and `THEN` made by `arm` from the relation's name and oid.
fn relations_case(operand: &str, arm: impl Fn(&str, u32) -> (String, String)) -> String {
    let arms: String = RELATION_OIDS
        .iter()
        .map(|(name, oid)| {
            let (when, then) = arm(name, *oid);
            format!(" WHEN {when} THEN {then}")
        })
        .collect();
    format!("(CASE {operand}{arms} END)")
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
