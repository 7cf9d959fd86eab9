//! The relations of the emulated PostgreSQL catalog, in one list: their names,
//! their columns (PostgreSQL 15's, those clients read) and what fills them. The
//! dialect translation recognises catalog queries by these names; the engine
//! creates them as TEMP tables and views on each connection and fills them, so
//! nothing of them is ever written to the database file.
//!
//! Booleans are declared `boolean` so that they print as `t`/`f`.

use std::sync::LazyLock;

use super::pg15_information_schema::EMPTY_INFORMATION_SCHEMA;
use super::pg15_relations::EMPTY_RELATIONS;

/// One catalog relation.
#[derive(Debug)]
pub struct Relation {
    pub name: &'static str,
    pub contents: Contents,
    pub definition: Definition,
}

/// What fills a relation, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contents {
    /// Refilled from SQLite's schema whenever it changed.
    Schema,
    /// Refilled for the session (user, settings) before each catalog statement.
    Session,
    /// Refilled like `Session`, but only for a statement that names it: it
    /// may hold thousands of rows (`pg_stat_statements`).
    Statistics,
    /// Filled once, when the relations are created (types, namespaces, ...).
    Static,
    /// Always empty: SQLite has no such objects (policies, triggers, ...).
    Empty,
    /// A view over the others.
    View,
    /// litewire's own bookkeeping (the schema version the tables were filled at).
    State,
}

/// How a relation is created.
#[derive(Debug, Clone, Copy)]
pub enum Definition {
    /// `CREATE TEMP TABLE name (columns)`.
    Table(&'static str),
    /// `CREATE TEMP VIEW name <this>`: an optional column list, then `AS SELECT ...`.
    View(&'static str),
}

/// The relation named `name` (lower case, unqualified), if the catalog has it.
pub fn find(name: &str) -> Option<&'static Relation> {
    all().find(|r| r.name == name)
}

/// Every catalog relation: those with rows and state, and PostgreSQL 15's
/// others, always empty (see `pg15_relations`).
pub fn all() -> impl Iterator<Item = &'static Relation> {
    RELATIONS.iter().chain(EMPTY.iter())
}

static EMPTY: LazyLock<Vec<Relation>> = LazyLock::new(|| {
    EMPTY_RELATIONS
        .iter()
        .chain(EMPTY_INFORMATION_SCHEMA)
        .map(|(name, columns)| Relation {
            name,
            contents: Contents::Empty,
            definition: Definition::Table(columns),
        })
        .collect()
});

impl Relation {
    /// The declared type of a table's column (a parameter compared with it
    /// takes it); `None` for a view's or a column it lacks.
    pub fn column_type(&self, column: &str) -> Option<&'static str> {
        let Definition::Table(columns) = self.definition else {
            return None;
        };
        columns.split(", ").find_map(|definition| {
            let (name, rest) = definition.split_once(' ')?;
            let ty = rest
                .split(" DEFAULT")
                .next()?
                .trim_end_matches(" PRIMARY KEY");
            name.eq_ignore_ascii_case(column).then_some(ty)
        })
    }
}

pub const RELATIONS: &[Relation] = &[
    Relation {
        name: "litewire_catalog_state",
        contents: Contents::State,
        definition: Definition::Table("schema_version INTEGER"),
    },
    Relation {
        name: "litewire_session",
        contents: Contents::Session,
        definition: Definition::Table(
            "user_name TEXT, database_name TEXT, backend_pid INTEGER, role TEXT",
        ),
    },
    Relation {
        name: "litewire_definitions",
        contents: Contents::Schema,
        definition: Definition::Table("oid INTEGER PRIMARY KEY, definition TEXT"),
    },
    // The columns declared with a domain (see `sql::domains`), which give
    // them the domain as their type.
    Relation {
        name: "litewire_domain_columns",
        contents: Contents::Schema,
        definition: Definition::Table("attrelid INTEGER, attname TEXT, domain TEXT"),
    },
    Relation {
        name: "litewire_signatures",
        contents: Contents::Static,
        definition: Definition::Table("oid INTEGER PRIMARY KEY, arguments TEXT, result TEXT"),
    },
    Relation {
        name: "litewire_storage",
        contents: Contents::Schema,
        definition: Definition::Table("oid INTEGER PRIMARY KEY, name TEXT"),
    },
    Relation {
        name: "pg_namespace",
        contents: Contents::Static,
        definition: Definition::Table("oid INTEGER, nspname TEXT, nspowner INTEGER, nspacl TEXT"),
    },
    Relation {
        name: "pg_class",
        contents: Contents::Schema,
        definition: Definition::Table(
            "oid INTEGER PRIMARY KEY, relname TEXT, relnamespace INTEGER, reltype INTEGER, reloftype INTEGER, relowner INTEGER, relam INTEGER, relfilenode INTEGER, reltablespace INTEGER, relpages INTEGER, reltuples REAL, relallvisible INTEGER, reltoastrelid INTEGER, relhasindex boolean, relisshared boolean, relpersistence TEXT, relkind TEXT, relnatts INTEGER, relchecks INTEGER, relhasrules boolean, relhastriggers boolean, relhassubclass boolean, relrowsecurity boolean, relforcerowsecurity boolean, relispopulated boolean, relreplident TEXT, relispartition boolean, relrewrite INTEGER, relfrozenxid INTEGER, relminmxid INTEGER, relacl TEXT, reloptions TEXT, relpartbound TEXT",
        ),
    },
    Relation {
        name: "pg_attribute",
        contents: Contents::Schema,
        definition: Definition::Table(
            "attrelid INTEGER, attname TEXT, atttypid INTEGER, attstattarget INTEGER, attlen INTEGER, attnum INTEGER, attndims INTEGER, attcacheoff INTEGER DEFAULT -1, atttypmod INTEGER, attbyval boolean DEFAULT false, attalign TEXT DEFAULT 'i', attstorage TEXT, attcompression TEXT, attnotnull boolean, atthasdef boolean, atthasmissing boolean DEFAULT false, attidentity TEXT, attgenerated TEXT, attisdropped boolean, attislocal boolean DEFAULT true, attinhcount INTEGER DEFAULT 0, attcollation INTEGER, attacl TEXT, attoptions TEXT, attfdwoptions TEXT, attmissingval TEXT",
        ),
    },
    Relation {
        name: "pg_attrdef",
        contents: Contents::Schema,
        definition: Definition::Table("oid INTEGER, adrelid INTEGER, adnum INTEGER, adbin TEXT"),
    },
    Relation {
        name: "pg_index",
        contents: Contents::Schema,
        definition: Definition::Table(
            "indexrelid INTEGER, indrelid INTEGER, indnatts INTEGER, indnkeyatts INTEGER, indisunique boolean, indnullsnotdistinct boolean, indisprimary boolean, indisexclusion boolean, indimmediate boolean, indisclustered boolean, indisvalid boolean, indcheckxmin boolean, indisready boolean, indislive boolean, indisreplident boolean, indkey TEXT, indcollation TEXT, indclass TEXT, indoption TEXT, indexprs TEXT, indpred TEXT",
        ),
    },
    Relation {
        name: "pg_constraint",
        contents: Contents::Schema,
        definition: Definition::Table(
            "oid INTEGER, conname TEXT, connamespace INTEGER, contype TEXT, condeferrable boolean, condeferred boolean, convalidated boolean, conrelid INTEGER, contypid INTEGER, conindid INTEGER, conparentid INTEGER, confrelid INTEGER, confupdtype TEXT, confdeltype TEXT, confmatchtype TEXT, conislocal boolean, coninhcount INTEGER, connoinherit boolean, conkey TEXT, confkey TEXT, conpfeqop TEXT, conppeqop TEXT, conffeqop TEXT, confdelsetcols TEXT, conexclop TEXT, conbin TEXT",
        ),
    },
    Relation {
        name: "pg_type",
        contents: Contents::Static,
        definition: Definition::Table(
            "oid INTEGER, typname TEXT, typnamespace INTEGER, typowner INTEGER, typlen INTEGER, typbyval boolean, typtype TEXT, typcategory TEXT, typispreferred boolean, typisdefined boolean, typdelim TEXT, typrelid INTEGER, typsubscript regproc DEFAULT 0, typelem INTEGER, typarray INTEGER, typinput regproc DEFAULT 0, typoutput regproc DEFAULT 0, typreceive regproc DEFAULT 0, typsend regproc DEFAULT 0, typmodin regproc DEFAULT 0, typmodout regproc DEFAULT 0, typanalyze regproc DEFAULT 0, typalign TEXT DEFAULT 'i', typstorage TEXT DEFAULT 'p', typnotnull boolean DEFAULT false, typbasetype INTEGER, typtypmod INTEGER, typndims INTEGER, typcollation INTEGER, typdefaultbin TEXT, typdefault TEXT, typacl TEXT",
        ),
    },
    Relation {
        name: "pg_language",
        contents: Contents::Static,
        definition: Definition::Table(
            "oid oid, lanname name, lanowner oid, lanispl boolean, lanpltrusted boolean, lanplcallfoid oid, laninline oid, lanvalidator oid, lanacl TEXT",
        ),
    },
    Relation {
        name: "pg_timezone_abbrevs",
        contents: Contents::Static,
        definition: Definition::Table("abbrev text, utc_offset interval, is_dst boolean"),
    },
    Relation {
        name: "pg_timezone_names",
        contents: Contents::Static,
        definition: Definition::Table(
            "name text, abbrev text, utc_offset interval, is_dst boolean",
        ),
    },
    Relation {
        name: "pg_am",
        contents: Contents::Static,
        definition: Definition::Table("oid INTEGER, amname TEXT, amhandler TEXT, amtype TEXT"),
    },
    Relation {
        name: "pg_collation",
        contents: Contents::Static,
        definition: Definition::Table(
            "oid INTEGER, collname TEXT, collnamespace INTEGER, collowner INTEGER, collprovider TEXT, collisdeterministic boolean, collencoding INTEGER, collcollate TEXT, collctype TEXT, colliculocale TEXT, collversion TEXT",
        ),
    },
    Relation {
        name: "pg_tablespace",
        contents: Contents::Static,
        definition: Definition::Table(
            "oid INTEGER, spcname TEXT, spcowner INTEGER, spcacl TEXT, spcoptions TEXT",
        ),
    },
    Relation {
        name: "pg_description",
        contents: Contents::Static,
        definition: Definition::Table(
            "objoid INTEGER, classoid INTEGER, objsubid INTEGER, description TEXT",
        ),
    },
    Relation {
        name: "pg_database",
        contents: Contents::Session,
        definition: Definition::Table(
            "oid INTEGER, datname TEXT, datdba INTEGER, encoding INTEGER, datlocprovider TEXT, datistemplate boolean, datallowconn boolean, datconnlimit INTEGER, datfrozenxid INTEGER, datminmxid INTEGER, dattablespace INTEGER, datcollate TEXT, datctype TEXT, daticulocale TEXT, datcollversion TEXT, datacl TEXT",
        ),
    },
    Relation {
        name: "pg_roles",
        contents: Contents::Session,
        definition: Definition::Table(
            "rolname TEXT, rolsuper boolean, rolinherit boolean, rolcreaterole boolean, rolcreatedb boolean, rolcanlogin boolean, rolreplication boolean, rolconnlimit INTEGER, rolpassword TEXT, rolvaliduntil TEXT, rolbypassrls boolean, rolconfig TEXT, oid INTEGER",
        ),
    },
    Relation {
        name: "pg_user",
        contents: Contents::Session,
        definition: Definition::Table(
            "usename TEXT, usesysid INTEGER, usecreatedb boolean, usesuper boolean, userepl boolean, usebypassrls boolean, passwd TEXT, valuntil TEXT, useconfig TEXT",
        ),
    },
    Relation {
        name: "pg_settings",
        contents: Contents::Session,
        definition: Definition::Table(
            "name TEXT, setting TEXT, unit TEXT, category TEXT, short_desc TEXT, extra_desc TEXT, context TEXT, vartype TEXT, source TEXT, min_val TEXT, max_val TEXT, enumvals TEXT, boot_val TEXT, reset_val TEXT, sourcefile TEXT, sourceline INTEGER, pending_restart boolean",
        ),
    },
    Relation {
        name: "pg_tables",
        contents: Contents::Schema,
        definition: Definition::Table(
            "schemaname TEXT, tablename TEXT, tableowner TEXT, tablespace TEXT, hasindexes boolean, hasrules boolean, hastriggers boolean, rowsecurity boolean",
        ),
    },
    Relation {
        name: "pg_views",
        contents: Contents::Schema,
        definition: Definition::Table(
            "schemaname TEXT, viewname TEXT, viewowner TEXT, definition TEXT",
        ),
    },
    Relation {
        name: "pg_indexes",
        contents: Contents::Schema,
        definition: Definition::Table(
            "schemaname TEXT, tablename TEXT, indexname TEXT, tablespace TEXT, indexdef TEXT",
        ),
    },
    Relation {
        name: "pg_auth_members",
        contents: Contents::Empty,
        definition: Definition::Table(
            "roleid INTEGER, member INTEGER, grantor INTEGER, admin_option boolean",
        ),
    },
    Relation {
        name: "pg_depend",
        contents: Contents::Schema,
        definition: Definition::Table(
            "classid INTEGER, objid INTEGER, objsubid INTEGER, refclassid INTEGER, refobjid INTEGER, refobjsubid INTEGER, deptype TEXT",
        ),
    },
    Relation {
        name: "pg_event_trigger",
        contents: Contents::Empty,
        definition: Definition::Table(
            "oid INTEGER, evtname TEXT, evtevent TEXT, evtowner INTEGER, evtfoid INTEGER, evtenabled TEXT, evttags TEXT",
        ),
    },
    Relation {
        name: "pg_extension",
        contents: Contents::Static,
        definition: Definition::Table(
            "oid INTEGER, extname TEXT, extowner INTEGER, extnamespace INTEGER, extrelocatable boolean, extversion TEXT, extconfig TEXT, extcondition TEXT",
        ),
    },
    Relation {
        name: "pg_foreign_data_wrapper",
        contents: Contents::Empty,
        definition: Definition::Table(
            "oid INTEGER, fdwname TEXT, fdwowner INTEGER, fdwhandler INTEGER, fdwvalidator INTEGER, fdwacl TEXT, fdwoptions TEXT",
        ),
    },
    Relation {
        name: "pg_foreign_server",
        contents: Contents::Empty,
        definition: Definition::Table(
            "oid INTEGER, srvname TEXT, srvowner INTEGER, srvfdw INTEGER, srvtype TEXT, srvversion TEXT, srvacl TEXT, srvoptions TEXT",
        ),
    },
    Relation {
        name: "pg_foreign_table",
        contents: Contents::Empty,
        definition: Definition::Table("ftrelid INTEGER, ftserver INTEGER, ftoptions TEXT"),
    },
    Relation {
        name: "pg_inherits",
        contents: Contents::Schema,
        definition: Definition::Table(
            "inhrelid INTEGER, inhparent INTEGER, inhseqno INTEGER, inhdetachpending boolean",
        ),
    },
    Relation {
        name: "pg_opclass",
        contents: Contents::Static,
        definition: Definition::Table(
            "oid INTEGER, opcmethod INTEGER, opcname TEXT, opcnamespace INTEGER, opcowner INTEGER, opcfamily INTEGER, opcintype INTEGER, opcdefault boolean, opckeytype INTEGER",
        ),
    },
    Relation {
        name: "pg_partitioned_table",
        contents: Contents::Schema,
        definition: Definition::Table(
            "partrelid INTEGER, partstrat TEXT, partnatts INTEGER, partdefid INTEGER, partattrs TEXT, partclass TEXT, partcollation TEXT, partexprs TEXT",
        ),
    },
    Relation {
        name: "pg_policy",
        contents: Contents::Empty,
        definition: Definition::Table(
            "oid INTEGER, polname TEXT, polrelid INTEGER, polcmd TEXT, polpermissive boolean, polroles TEXT, polqual TEXT, polwithcheck TEXT",
        ),
    },
    Relation {
        name: "pg_locks",
        contents: Contents::Session,
        definition: Definition::Table(
            "locktype TEXT, database oid, relation oid, page INTEGER, tuple smallint, virtualxid TEXT, transactionid xid, classid oid, objid oid, objsubid smallint, virtualtransaction TEXT, pid INTEGER, mode TEXT, granted boolean, fastpath boolean, waitstart timestamptz",
        ),
    },
    Relation {
        name: "pg_stat_database",
        contents: Contents::Session,
        definition: Definition::Table(
            "datid oid, datname name, numbackends INTEGER, xact_commit bigint, xact_rollback bigint, blks_read bigint, blks_hit bigint, tup_returned bigint, tup_fetched bigint, tup_inserted bigint, tup_updated bigint, tup_deleted bigint, conflicts bigint, temp_files bigint, temp_bytes bigint, deadlocks bigint, checksum_failures bigint, checksum_last_failure timestamptz, blk_read_time float8, blk_write_time float8, session_time float8, active_time float8, idle_in_transaction_time float8, sessions bigint, sessions_abandoned bigint, sessions_fatal bigint, sessions_killed bigint, stats_reset timestamptz",
        ),
    },
    Relation {
        name: "pg_stat_statements",
        contents: Contents::Statistics,
        definition: Definition::Table(
            "userid oid, dbid oid, toplevel boolean, queryid bigint, query TEXT, plans bigint, total_plan_time float8, min_plan_time float8, max_plan_time float8, mean_plan_time float8, stddev_plan_time float8, calls bigint, total_exec_time float8, min_exec_time float8, max_exec_time float8, mean_exec_time float8, stddev_exec_time float8, rows bigint, shared_blks_hit bigint, shared_blks_read bigint, shared_blks_dirtied bigint, shared_blks_written bigint, local_blks_hit bigint, local_blks_read bigint, local_blks_dirtied bigint, local_blks_written bigint, temp_blks_read bigint, temp_blks_written bigint, blk_read_time float8, blk_write_time float8, temp_blk_read_time float8, temp_blk_write_time float8, wal_records bigint, wal_fpi bigint, wal_bytes numeric, jit_functions bigint, jit_generation_time float8, jit_inlining_count bigint, jit_inlining_time float8, jit_optimization_count bigint, jit_optimization_time float8, jit_emission_count bigint, jit_emission_time float8",
        ),
    },
    Relation {
        name: "pg_stat_user_indexes",
        contents: Contents::Schema,
        definition: Definition::Table(
            "relid oid, indexrelid oid, schemaname name, relname name, indexrelname name, idx_scan bigint, idx_tup_read bigint, idx_tup_fetch bigint",
        ),
    },
    Relation {
        name: "pg_stat_user_tables",
        contents: Contents::Statistics,
        definition: Definition::Table(
            "relid oid, schemaname name, relname name, seq_scan bigint, seq_tup_read bigint, idx_scan bigint, idx_tup_fetch bigint, n_tup_ins bigint, n_tup_upd bigint, n_tup_del bigint, n_tup_hot_upd bigint, n_live_tup bigint, n_dead_tup bigint, n_mod_since_analyze bigint, n_ins_since_vacuum bigint, last_vacuum timestamptz, last_autovacuum timestamptz, last_analyze timestamptz, last_autoanalyze timestamptz, vacuum_count bigint, autovacuum_count bigint, analyze_count bigint, autoanalyze_count bigint",
        ),
    },
    Relation {
        name: "pg_stat_statements_info",
        contents: Contents::Statistics,
        definition: Definition::Table("dealloc bigint, stats_reset timestamptz"),
    },
    Relation {
        name: "pg_stat_activity",
        contents: Contents::Session,
        definition: Definition::Table(
            "datid oid, datname name, pid INTEGER, leader_pid INTEGER, usesysid oid, usename name, application_name TEXT, client_addr inet, client_hostname TEXT, client_port INTEGER, backend_start timestamptz, xact_start timestamptz, query_start timestamptz, state_change timestamptz, wait_event_type TEXT, wait_event TEXT, state TEXT, backend_xid xid, backend_xmin xid, query_id bigint, query TEXT, backend_type TEXT",
        ),
    },
    // Filled with the aggregates `pg_proc` lists (see the engine's functions).
    Relation {
        name: "pg_aggregate",
        contents: Contents::Static,
        definition: Definition::Table(
            "\"aggfnoid\" regproc, \"aggkind\" \"char\", \"aggnumdirectargs\" smallint, \"aggtransfn\" regproc, \"aggfinalfn\" regproc, \"aggcombinefn\" regproc, \"aggserialfn\" regproc, \"aggdeserialfn\" regproc, \"aggmtransfn\" regproc, \"aggminvtransfn\" regproc, \"aggmfinalfn\" regproc, \"aggfinalextra\" boolean, \"aggmfinalextra\" boolean, \"aggfinalmodify\" \"char\", \"aggmfinalmodify\" \"char\", \"aggsortop\" oid, \"aggtranstype\" oid, \"aggtransspace\" integer, \"aggmtranstype\" oid, \"aggmtransspace\" integer, \"agginitval\" text, \"aggminitval\" text",
        ),
    },
    Relation {
        name: "pg_proc",
        contents: Contents::Static,
        definition: Definition::Table(
            "oid INTEGER, proname TEXT, pronamespace INTEGER, proowner INTEGER, prolang INTEGER, procost REAL, prorows REAL, provariadic INTEGER, prosupport regproc, prokind TEXT, prosecdef boolean, proleakproof boolean, proisstrict boolean, proretset boolean, provolatile TEXT, proparallel TEXT, pronargs INTEGER, pronargdefaults INTEGER, prorettype INTEGER, proargtypes TEXT, proallargtypes TEXT, proargmodes TEXT, proargnames TEXT, proargdefaults TEXT, protrftypes TEXT, prosrc TEXT, probin TEXT, prosqlbody TEXT, proconfig TEXT, proacl TEXT",
        ),
    },
    Relation {
        name: "pg_publication",
        contents: Contents::Empty,
        definition: Definition::Table(
            "oid INTEGER, pubname TEXT, pubowner INTEGER, puballtables boolean, pubinsert boolean, pubupdate boolean, pubdelete boolean, pubtruncate boolean, pubviaroot boolean",
        ),
    },
    Relation {
        name: "pg_publication_namespace",
        contents: Contents::Empty,
        definition: Definition::Table("oid INTEGER, pnpubid INTEGER, pnnspid INTEGER"),
    },
    Relation {
        name: "pg_publication_rel",
        contents: Contents::Empty,
        definition: Definition::Table(
            "oid INTEGER, prpubid INTEGER, prrelid INTEGER, prqual TEXT, prattrs TEXT",
        ),
    },
    Relation {
        name: "pg_rewrite",
        contents: Contents::Schema,
        definition: Definition::Table(
            "oid INTEGER, rulename TEXT, ev_class INTEGER, ev_type TEXT, ev_enabled TEXT, is_instead boolean, ev_qual TEXT, ev_action TEXT",
        ),
    },
    Relation {
        name: "pg_matviews",
        contents: Contents::Schema,
        definition: Definition::Table(
            "schemaname name, matviewname name, matviewowner name, tablespace name, hasindexes boolean, ispopulated boolean, definition text",
        ),
    },
    Relation {
        name: "pg_sequences",
        contents: Contents::Schema,
        definition: Definition::Table(
            "schemaname name, sequencename name, sequenceowner name, data_type regtype, start_value bigint, min_value bigint, max_value bigint, increment_by bigint, cycle boolean, cache_size bigint, last_value bigint",
        ),
    },
    Relation {
        name: "pg_sequence",
        contents: Contents::Schema,
        definition: Definition::Table(
            "seqrelid INTEGER, seqtypid INTEGER, seqstart INTEGER, seqincrement INTEGER, seqmax INTEGER, seqmin INTEGER, seqcache INTEGER, seqcycle boolean",
        ),
    },
    Relation {
        name: "pg_statistic_ext",
        contents: Contents::Empty,
        definition: Definition::Table(
            "oid INTEGER, stxrelid INTEGER, stxname TEXT, stxnamespace INTEGER, stxowner INTEGER, stxstattarget INTEGER, stxkeys TEXT, stxkind TEXT, stxexprs TEXT",
        ),
    },
    Relation {
        name: "pg_subscription",
        contents: Contents::Empty,
        definition: Definition::Table(
            "oid INTEGER, subdbid INTEGER, subskiplsn TEXT, subname TEXT, subowner INTEGER, subenabled boolean, subbinary boolean, substream boolean, subtwophasestate TEXT, subdisableonerr boolean, subconninfo TEXT, subslotname TEXT, subsynccommit TEXT, subpublications TEXT",
        ),
    },
    Relation {
        name: "pg_trigger",
        contents: Contents::Empty,
        definition: Definition::Table(
            "oid INTEGER, tgrelid INTEGER, tgparentid INTEGER, tgname TEXT, tgfoid INTEGER, tgtype INTEGER, tgenabled TEXT, tgisinternal boolean, tgconstrrelid INTEGER, tgconstrindid INTEGER, tgconstraint INTEGER, tgdeferrable boolean, tginitdeferred boolean, tgnargs INTEGER, tgattr TEXT, tgargs BLOB, tgqual TEXT, tgoldtable TEXT, tgnewtable TEXT",
        ),
    },
    Relation {
        name: "pg_enum",
        contents: Contents::Schema,
        definition: Definition::Table(
            "oid INTEGER, enumtypid INTEGER, enumsortorder REAL, enumlabel TEXT",
        ),
    },
    Relation {
        name: "pg_range",
        contents: Contents::Empty,
        definition: Definition::Table(
            "rngtypid INTEGER, rngsubtype INTEGER, rngmultitypid INTEGER, rngcollation INTEGER, rngsubopc INTEGER, rngcanonical INTEGER, rngsubdiff INTEGER",
        ),
    },
    Relation {
        name: "information_schema_schemata",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS catalog_name, nspname AS schema_name,
         (SELECT user_name FROM litewire_session) AS schema_owner, NULL AS default_character_set_catalog,
         NULL AS default_character_set_schema, NULL AS default_character_set_name, NULL AS sql_path
  FROM pg_namespace"#,
        ),
    },
    Relation {
        name: "information_schema_tables",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS table_catalog, (SELECT nspname FROM pg_namespace WHERE oid = relnamespace) AS table_schema,
         relname AS table_name, CASE relkind WHEN 'v' THEN 'VIEW' ELSE 'BASE TABLE' END AS table_type,
         NULL AS self_referencing_column_name, NULL AS reference_generation,
         NULL AS user_defined_type_catalog, NULL AS user_defined_type_schema, NULL AS user_defined_type_name,
         CASE relkind WHEN 'v' THEN 'NO' ELSE 'YES' END AS is_insertable_into, 'NO' AS is_typed, NULL AS commit_action
  FROM pg_class WHERE relkind IN ('r', 'v')"#,
        ),
    },
    Relation {
        name: "information_schema_routines",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS specific_catalog,
         (SELECT nspname FROM pg_namespace WHERE oid = p.pronamespace) AS specific_schema,
         p.proname || '_' || p.oid AS specific_name,
         (SELECT database_name FROM litewire_session) AS routine_catalog,
         (SELECT nspname FROM pg_namespace WHERE oid = p.pronamespace) AS routine_schema,
         p.proname AS routine_name,
         CASE p.prokind WHEN 'f' THEN 'FUNCTION' WHEN 'p' THEN 'PROCEDURE' END AS routine_type,
         NULL AS module_catalog, NULL AS module_schema, NULL AS module_name, NULL AS udt_catalog,
         NULL AS udt_schema, NULL AS udt_name,
         CASE WHEN t.typcategory = 'A' THEN 'ARRAY' WHEN t.typtype = 'e' THEN 'USER-DEFINED' ELSE format_type(p.prorettype, NULL) END AS data_type,
         NULL AS character_maximum_length, NULL AS character_octet_length,
         NULL AS character_set_catalog, NULL AS character_set_schema, NULL AS character_set_name,
         NULL AS collation_catalog, NULL AS collation_schema, NULL AS collation_name,
         NULL AS numeric_precision, NULL AS numeric_precision_radix, NULL AS numeric_scale,
         NULL AS datetime_precision, NULL AS interval_type, NULL AS interval_precision,
         (SELECT database_name FROM litewire_session) AS type_udt_catalog,
         (SELECT nspname FROM pg_namespace WHERE oid = t.typnamespace) AS type_udt_schema,
         t.typname AS type_udt_name, NULL AS scope_catalog, NULL AS scope_schema, NULL AS scope_name,
         NULL AS maximum_cardinality, '0' AS dtd_identifier,
         CASE p.prolang WHEN 14 THEN 'SQL' ELSE 'EXTERNAL' END AS routine_body,
         p.prosrc AS routine_definition,
         NULL AS external_name,
         CASE p.prolang WHEN 14 THEN 'SQL' ELSE 'INTERNAL' END AS external_language,
         'GENERAL' AS parameter_style,
         CASE p.provolatile WHEN 'i' THEN 'YES' ELSE 'NO' END AS is_deterministic,
         'MODIFIES' AS sql_data_access,
         CASE WHEN p.proisstrict THEN 'YES' ELSE 'NO' END AS is_null_call, NULL AS sql_path,
         'YES' AS schema_level_routine, 0 AS max_dynamic_result_sets, NULL AS is_user_defined_cast,
         NULL AS is_implicitly_invocable,
         CASE WHEN p.prosecdef THEN 'DEFINER' ELSE 'INVOKER' END AS security_type,
         NULL AS to_sql_specific_catalog, NULL AS to_sql_specific_schema,
         NULL AS to_sql_specific_name, 'NO' AS as_locator, NULL AS created, NULL AS last_altered,
         NULL AS new_savepoint_level, 'NO' AS is_udt_dependent, NULL AS result_cast_from_data_type,
         NULL AS result_cast_as_locator, NULL AS result_cast_char_max_length,
         NULL AS result_cast_char_octet_length, NULL AS result_cast_char_set_catalog,
         NULL AS result_cast_char_set_schema, NULL AS result_cast_char_set_name,
         NULL AS result_cast_collation_catalog, NULL AS result_cast_collation_schema,
         NULL AS result_cast_collation_name, NULL AS result_cast_numeric_precision,
         NULL AS result_cast_numeric_precision_radix, NULL AS result_cast_numeric_scale,
         NULL AS result_cast_datetime_precision, NULL AS result_cast_interval_type,
         NULL AS result_cast_interval_precision, NULL AS result_cast_type_udt_catalog,
         NULL AS result_cast_type_udt_schema, NULL AS result_cast_type_udt_name,
         NULL AS result_cast_scope_catalog, NULL AS result_cast_scope_schema,
         NULL AS result_cast_scope_name, NULL AS result_cast_maximum_cardinality,
         NULL AS result_cast_dtd_identifier
  FROM pg_proc p LEFT JOIN pg_type t ON t.oid = p.prorettype"#,
        ),
    },
    Relation {
        name: "information_schema_information_schema_catalog_name",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS SELECT (SELECT database_name FROM litewire_session) AS catalog_name"#,
        ),
    },
    Relation {
        name: "information_schema_enabled_roles",
        contents: Contents::View,
        definition: Definition::View(r#"AS SELECT rolname AS role_name FROM pg_roles"#),
    },
    Relation {
        name: "information_schema_applicable_roles",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS SELECT NULL AS grantee, NULL AS role_name, NULL AS is_grantable WHERE false"#,
        ),
    },
    Relation {
        name: "information_schema_character_sets",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT NULL AS character_set_catalog, NULL AS character_set_schema, 'UTF8' AS character_set_name,
         'UCS' AS character_repertoire, 'UTF8' AS form_of_use, (SELECT database_name FROM litewire_session) AS default_collate_catalog,
         NULL AS default_collate_schema, NULL AS default_collate_name"#,
        ),
    },
    Relation {
        name: "information_schema_check_constraints",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS constraint_catalog, (SELECT nspname FROM pg_namespace WHERE oid = c.connamespace) AS constraint_schema,
         c.conname AS constraint_name,
         (SELECT CASE WHEN d.definition LIKE 'CHECK %' THEN substr(d.definition, 7) ELSE d.definition END
          FROM litewire_definitions d WHERE d.oid = c.oid) AS check_clause
  FROM pg_constraint c WHERE c.contype = 'c'"#,
        ),
    },
    Relation {
        name: "information_schema_sequences",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS sequence_catalog, s.schemaname AS sequence_schema, s.sequencename AS sequence_name,
         CASE s.data_type WHEN 21 THEN 'smallint' WHEN 23 THEN 'integer' ELSE 'bigint' END AS data_type,
         CASE s.data_type WHEN 21 THEN 16 WHEN 23 THEN 32 ELSE 64 END AS numeric_precision,
         2 AS numeric_precision_radix, 0 AS numeric_scale, CAST(s.start_value AS TEXT) AS start_value,
         CAST(s.min_value AS TEXT) AS minimum_value, CAST(s.max_value AS TEXT) AS maximum_value,
         CAST(s.increment_by AS TEXT) AS increment, CASE WHEN s.cycle THEN 'YES' ELSE 'NO' END AS cycle_option
  FROM pg_sequences s"#,
        ),
    },
    Relation {
        name: "information_schema_domains",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS domain_catalog, (SELECT nspname FROM pg_namespace WHERE oid = t.typnamespace) AS domain_schema,
         t.typname AS domain_name, format_type(t.typbasetype, NULL) AS data_type,
         CASE WHEN t.typbasetype IN (1042, 1043) AND t.typtypmod >= 4 THEN t.typtypmod - 4 END AS character_maximum_length,
         CASE WHEN t.typbasetype IN (1042, 1043) AND t.typtypmod >= 4 THEN (t.typtypmod - 4) * 4
              WHEN t.typbasetype IN (25, 1042, 1043) THEN 1073741824 END AS character_octet_length,
         NULL AS character_set_catalog, NULL AS character_set_schema, NULL AS character_set_name,
         NULL AS collation_catalog, NULL AS collation_schema, NULL AS collation_name,
         CASE WHEN t.typbasetype = 1700 AND t.typtypmod >= 4 THEN (t.typtypmod - 4) >> 16
              WHEN t.typbasetype = 21 THEN 16 WHEN t.typbasetype = 23 THEN 32 WHEN t.typbasetype = 20 THEN 64
              WHEN t.typbasetype = 700 THEN 24 WHEN t.typbasetype = 701 THEN 53 END AS numeric_precision,
         CASE WHEN t.typbasetype IN (20, 21, 23, 700, 701) THEN 2 WHEN t.typbasetype = 1700 THEN 10 END AS numeric_precision_radix,
         CASE WHEN t.typbasetype = 1700 AND t.typtypmod >= 4 THEN (t.typtypmod - 4) & 65535
              WHEN t.typbasetype IN (20, 21, 23) THEN 0 END AS numeric_scale,
         NULL AS datetime_precision, NULL AS interval_type, NULL AS interval_precision,
         t.typdefault AS domain_default, (SELECT database_name FROM litewire_session) AS udt_catalog, 'pg_catalog' AS udt_schema,
         (SELECT b.typname FROM pg_type b WHERE b.oid = t.typbasetype) AS udt_name,
         NULL AS scope_catalog, NULL AS scope_schema, NULL AS scope_name, NULL AS maximum_cardinality,
         '1' AS dtd_identifier
  FROM pg_type t WHERE t.typtype = 'd'"#,
        ),
    },
    Relation {
        name: "information_schema_domain_constraints",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS constraint_catalog, (SELECT nspname FROM pg_namespace WHERE oid = c.connamespace) AS constraint_schema,
         c.conname AS constraint_name, (SELECT database_name FROM litewire_session) AS domain_catalog,
         (SELECT nspname FROM pg_namespace WHERE oid = t.typnamespace) AS domain_schema, t.typname AS domain_name,
         'NO' AS is_deferrable, 'NO' AS initially_deferred
  FROM pg_constraint c JOIN pg_type t ON t.oid = c.contypid WHERE c.contypid <> 0"#,
        ),
    },
    Relation {
        name: "information_schema_views",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS table_catalog, schemaname AS table_schema,
         viewname AS table_name, definition AS view_definition, 'NONE' AS check_option,
         'NO' AS is_updatable, 'NO' AS is_insertable_into, 'NO' AS is_trigger_updatable,
         'NO' AS is_trigger_deletable, 'NO' AS is_trigger_insertable_into
  FROM pg_views"#,
        ),
    },
    Relation {
        name: "information_schema_columns",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS table_catalog, (SELECT nspname FROM pg_namespace WHERE oid = c.relnamespace) AS table_schema,
         c.relname AS table_name, a.attname AS column_name, a.attnum AS ordinal_position,
         CASE WHEN a.attgenerated = '' THEN d.adbin END AS column_default,
         CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END AS is_nullable,
         CASE WHEN t.typtype = 'e' THEN 'USER-DEFINED' WHEN t.typcategory = 'A' THEN 'ARRAY'
              ELSE format_type(t.oid, NULL) END AS data_type,
         CASE WHEN t.oid IN (1042, 1043) AND a.atttypmod >= 4 THEN a.atttypmod - 4 END AS character_maximum_length,
         CASE WHEN t.oid IN (1042, 1043) AND a.atttypmod >= 4 THEN (a.atttypmod - 4) * 4
              WHEN t.oid IN (25, 1042, 1043) THEN 1073741824 END AS character_octet_length,
         CASE WHEN t.oid = 1700 AND a.atttypmod >= 4 THEN (a.atttypmod - 4) >> 16
              WHEN t.oid = 21 THEN 16 WHEN t.oid = 23 THEN 32 WHEN t.oid = 20 THEN 64
              WHEN t.oid = 700 THEN 24 WHEN t.oid = 701 THEN 53 END AS numeric_precision,
         CASE WHEN t.oid IN (20, 21, 23, 700, 701) THEN 2 WHEN t.oid = 1700 THEN 10 END AS numeric_precision_radix,
         CASE WHEN t.oid = 1700 AND a.atttypmod >= 4 THEN (a.atttypmod - 4) & 65535
              WHEN t.oid IN (20, 21, 23) THEN 0 END AS numeric_scale,
         CASE WHEN t.oid = 1082 THEN 0
              WHEN t.oid IN (1083, 1114, 1184, 1266, 1186) THEN CASE WHEN a.atttypmod >= 0 THEN a.atttypmod ELSE 6 END
              END AS datetime_precision,
         NULL AS interval_type, NULL AS interval_precision,
         NULL AS character_set_catalog, NULL AS character_set_schema, NULL AS character_set_name,
         NULL AS collation_catalog, NULL AS collation_schema, NULL AS collation_name,
         CASE WHEN dt.typtype = 'd' THEN (SELECT database_name FROM litewire_session) END AS domain_catalog,
         CASE WHEN dt.typtype = 'd' THEN (SELECT nspname FROM pg_namespace WHERE oid = dt.typnamespace) END AS domain_schema,
         CASE WHEN dt.typtype = 'd' THEN dt.typname END AS domain_name,
         (SELECT database_name FROM litewire_session) AS udt_catalog,
         (SELECT nspname FROM pg_namespace WHERE oid = t.typnamespace) AS udt_schema, t.typname AS udt_name,
         NULL AS scope_catalog, NULL AS scope_schema, NULL AS scope_name, NULL AS maximum_cardinality,
         CAST(a.attnum AS TEXT) AS dtd_identifier, 'NO' AS is_self_referencing,
         CASE WHEN a.attidentity IN ('a', 'd') THEN 'YES' ELSE 'NO' END AS is_identity,
         CASE a.attidentity WHEN 'a' THEN 'ALWAYS' WHEN 'd' THEN 'BY DEFAULT' END AS identity_generation,
         CAST(q.seqstart AS TEXT) AS identity_start, CAST(q.seqincrement AS TEXT) AS identity_increment,
         CAST(q.seqmax AS TEXT) AS identity_maximum, CAST(q.seqmin AS TEXT) AS identity_minimum,
         CASE WHEN q.seqrelid IS NULL THEN NULL WHEN q.seqcycle THEN 'YES' ELSE 'NO' END AS identity_cycle,
         CASE WHEN a.attgenerated = '' THEN 'NEVER' ELSE 'ALWAYS' END AS is_generated,
         CASE WHEN a.attgenerated <> '' THEN d.adbin END AS generation_expression,
         'YES' AS is_updatable
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_type dt ON dt.oid = a.atttypid
  JOIN pg_type t ON t.oid = CASE WHEN dt.typtype = 'd' THEN dt.typbasetype ELSE dt.oid END
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  LEFT JOIN pg_depend dep ON a.attidentity IN ('a', 'd') AND dep.refobjid = a.attrelid
       AND dep.refobjsubid = a.attnum AND dep.deptype = 'i'
  LEFT JOIN pg_sequence q ON q.seqrelid = dep.objid
  WHERE c.relkind IN ('r', 'v') AND a.attnum > 0"#,
        ),
    },
    Relation {
        name: "litewire_constraint_columns",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT c.oid AS constraint_oid, c.conname AS constraint_name, c.contype AS contype,
         r.relname AS table_name, a.attname AS column_name, k.key + 1 AS ordinal_position,
         f.relname AS referenced_table_name, fa.attname AS referenced_column_name,
         r.relnamespace AS table_namespace, f.relnamespace AS referenced_namespace
  FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid,
       json_each(litewire_array_json(c.conkey)) k
  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.value
  LEFT JOIN pg_class f ON f.oid = c.confrelid
  LEFT JOIN pg_attribute fa ON fa.attrelid = c.confrelid
       AND fa.attnum = json_extract(litewire_array_json(c.confkey), '$[' || k.key || ']')"#,
        ),
    },
    Relation {
        name: "information_schema_table_constraints",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS constraint_catalog, (SELECT nspname FROM pg_namespace WHERE oid = c.connamespace) AS constraint_schema,
         c.conname AS constraint_name, (SELECT database_name FROM litewire_session) AS table_catalog,
         (SELECT nspname FROM pg_namespace WHERE oid = r.relnamespace) AS table_schema, r.relname AS table_name,
         CASE c.contype WHEN 'p' THEN 'PRIMARY KEY' WHEN 'u' THEN 'UNIQUE' WHEN 'f' THEN 'FOREIGN KEY' ELSE 'CHECK' END AS constraint_type,
         CASE WHEN c.condeferrable THEN 'YES' ELSE 'NO' END AS is_deferrable,
         CASE WHEN c.condeferred THEN 'YES' ELSE 'NO' END AS initially_deferred,
         'YES' AS enforced, CASE WHEN c.contype IN ('p', 'u') THEN 'YES' END AS nulls_distinct
  FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
  WHERE c.contype IN ('p', 'u', 'f', 'c')"#,
        ),
    },
    Relation {
        name: "information_schema_key_column_usage",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS constraint_catalog, (SELECT nspname FROM pg_namespace WHERE oid = table_namespace) AS constraint_schema,
         constraint_name, (SELECT database_name FROM litewire_session) AS table_catalog,
         (SELECT nspname FROM pg_namespace WHERE oid = table_namespace) AS table_schema, table_name, column_name, ordinal_position,
         CASE WHEN contype = 'f' THEN ordinal_position END AS position_in_unique_constraint
  FROM litewire_constraint_columns WHERE contype IN ('p', 'u', 'f')"#,
        ),
    },
    Relation {
        name: "information_schema_referential_constraints",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT (SELECT database_name FROM litewire_session) AS constraint_catalog, (SELECT nspname FROM pg_namespace WHERE oid = c.connamespace) AS constraint_schema,
         c.conname AS constraint_name,
         CASE WHEN u.conname IS NOT NULL THEN (SELECT database_name FROM litewire_session) END AS unique_constraint_catalog,
         CASE WHEN u.conname IS NOT NULL THEN (SELECT nspname FROM pg_namespace WHERE oid = u.connamespace) END AS unique_constraint_schema,
         u.conname AS unique_constraint_name, 'NONE' AS match_option,
         CASE c.confupdtype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' WHEN 'r' THEN 'RESTRICT' ELSE 'NO ACTION' END AS update_rule,
         CASE c.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' WHEN 'r' THEN 'RESTRICT' ELSE 'NO ACTION' END AS delete_rule
  FROM pg_constraint c
  LEFT JOIN pg_constraint u ON u.conrelid = c.confrelid AND u.contype IN ('p', 'u') AND u.conkey = c.confkey
  WHERE c.contype = 'f'"#,
        ),
    },
    Relation {
        name: "information_schema_constraint_column_usage",
        contents: Contents::View,
        definition: Definition::View(
            r#"AS
  SELECT DISTINCT (SELECT database_name FROM litewire_session) AS table_catalog,
         (SELECT nspname FROM pg_namespace WHERE oid = CASE WHEN contype = 'f' THEN referenced_namespace ELSE table_namespace END) AS table_schema,
         CASE WHEN contype = 'f' THEN referenced_table_name ELSE table_name END AS table_name,
         CASE WHEN contype = 'f' THEN referenced_column_name ELSE column_name END AS column_name,
         (SELECT database_name FROM litewire_session) AS constraint_catalog, (SELECT nspname FROM pg_namespace WHERE oid = table_namespace) AS constraint_schema,
         constraint_name
  FROM litewire_constraint_columns"#,
        ),
    },
];
