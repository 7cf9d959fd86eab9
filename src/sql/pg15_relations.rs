//! PostgreSQL 15's catalog relations that litewire keeps no rows for beyond
//! those [`super::relations`] defines (statistics, replication, text search,
//! operators, ...), each with PostgreSQL 15's columns and types in order, so
//! that a query naming one reads no rows rather than failing. Made from a
//! PostgreSQL 15 by
//!
//! ```sql
//! SELECT c.relname, string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod),
//!        ', ' ORDER BY a.attnum)
//! FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
//! WHERE c.relnamespace = 'pg_catalog'::regnamespace AND c.relkind IN ('r', 'v')
//! GROUP BY 1 ORDER BY 1
//! ```
//!
//! less the relations `relations` defines; the names quoted (`transaction` is a word
//! of SQLite's).

/// Name and columns of each.
pub(super) const EMPTY_RELATIONS: &[(&str, &str)] = &[
    (
        "pg_amop",
        "\"oid\" oid, \"amopfamily\" oid, \"amoplefttype\" oid, \"amoprighttype\" oid, \"amopstrategy\" smallint, \"amoppurpose\" \"char\", \"amopopr\" oid, \"amopmethod\" oid, \"amopsortfamily\" oid",
    ),
    (
        "pg_amproc",
        "\"oid\" oid, \"amprocfamily\" oid, \"amproclefttype\" oid, \"amprocrighttype\" oid, \"amprocnum\" smallint, \"amproc\" regproc",
    ),
    (
        "pg_authid",
        "\"oid\" oid, \"rolname\" name, \"rolsuper\" boolean, \"rolinherit\" boolean, \"rolcreaterole\" boolean, \"rolcreatedb\" boolean, \"rolcanlogin\" boolean, \"rolreplication\" boolean, \"rolbypassrls\" boolean, \"rolconnlimit\" integer, \"rolpassword\" text, \"rolvaliduntil\" timestamp with time zone",
    ),
    (
        "pg_available_extension_versions",
        "\"name\" name, \"version\" text, \"installed\" boolean, \"superuser\" boolean, \"trusted\" boolean, \"relocatable\" boolean, \"schema\" name, \"requires\" name[], \"comment\" text",
    ),
    (
        "pg_available_extensions",
        "\"name\" name, \"default_version\" text, \"installed_version\" text, \"comment\" text",
    ),
    (
        "pg_backend_memory_contexts",
        "\"name\" text, \"ident\" text, \"parent\" text, \"level\" integer, \"total_bytes\" bigint, \"total_nblocks\" bigint, \"free_bytes\" bigint, \"free_chunks\" bigint, \"used_bytes\" bigint",
    ),
    (
        "pg_cast",
        "\"oid\" oid, \"castsource\" oid, \"casttarget\" oid, \"castfunc\" oid, \"castcontext\" \"char\", \"castmethod\" \"char\"",
    ),
    ("pg_config", "\"name\" text, \"setting\" text"),
    (
        "pg_conversion",
        "\"oid\" oid, \"conname\" name, \"connamespace\" oid, \"conowner\" oid, \"conforencoding\" integer, \"contoencoding\" integer, \"conproc\" regproc, \"condefault\" boolean",
    ),
    (
        "pg_cursors",
        "\"name\" text, \"statement\" text, \"is_holdable\" boolean, \"is_binary\" boolean, \"is_scrollable\" boolean, \"creation_time\" timestamp with time zone",
    ),
    (
        "pg_db_role_setting",
        "\"setdatabase\" oid, \"setrole\" oid, \"setconfig\" text[]",
    ),
    (
        "pg_default_acl",
        "\"oid\" oid, \"defaclrole\" oid, \"defaclnamespace\" oid, \"defaclobjtype\" \"char\", \"defaclacl\" aclitem[]",
    ),
    (
        "pg_file_settings",
        "\"sourcefile\" text, \"sourceline\" integer, \"seqno\" integer, \"name\" text, \"setting\" text, \"applied\" boolean, \"error\" text",
    ),
    (
        "pg_group",
        "\"groname\" name, \"grosysid\" oid, \"grolist\" oid[]",
    ),
    (
        "pg_hba_file_rules",
        "\"line_number\" integer, \"type\" text, \"database\" text[], \"user_name\" text[], \"address\" text, \"netmask\" text, \"auth_method\" text, \"options\" text[], \"error\" text",
    ),
    (
        "pg_ident_file_mappings",
        "\"line_number\" integer, \"map_name\" text, \"sys_name\" text, \"pg_username\" text, \"error\" text",
    ),
    (
        "pg_init_privs",
        "\"objoid\" oid, \"classoid\" oid, \"objsubid\" integer, \"privtype\" \"char\", \"initprivs\" aclitem[]",
    ),
    (
        "pg_largeobject",
        "\"loid\" oid, \"pageno\" integer, \"data\" bytea",
    ),
    (
        "pg_largeobject_metadata",
        "\"oid\" oid, \"lomowner\" oid, \"lomacl\" aclitem[]",
    ),
    (
        "pg_operator",
        "\"oid\" oid, \"oprname\" name, \"oprnamespace\" oid, \"oprowner\" oid, \"oprkind\" \"char\", \"oprcanmerge\" boolean, \"oprcanhash\" boolean, \"oprleft\" oid, \"oprright\" oid, \"oprresult\" oid, \"oprcom\" oid, \"oprnegate\" oid, \"oprcode\" regproc, \"oprrest\" regproc, \"oprjoin\" regproc",
    ),
    (
        "pg_opfamily",
        "\"oid\" oid, \"opfmethod\" oid, \"opfname\" name, \"opfnamespace\" oid, \"opfowner\" oid",
    ),
    (
        "pg_parameter_acl",
        "\"oid\" oid, \"parname\" text, \"paracl\" aclitem[]",
    ),
    (
        "pg_policies",
        "\"schemaname\" name, \"tablename\" name, \"policyname\" name, \"permissive\" text, \"roles\" name[], \"cmd\" text, \"qual\" text, \"with_check\" text",
    ),
    (
        "pg_prepared_statements",
        "\"name\" text, \"statement\" text, \"prepare_time\" timestamp with time zone, \"parameter_types\" regtype[], \"from_sql\" boolean, \"generic_plans\" bigint, \"custom_plans\" bigint",
    ),
    (
        "pg_prepared_xacts",
        "\"transaction\" xid, \"gid\" text, \"prepared\" timestamp with time zone, \"owner\" name, \"database\" name",
    ),
    (
        "pg_publication_tables",
        "\"pubname\" name, \"schemaname\" name, \"tablename\" name, \"attnames\" name[], \"rowfilter\" text",
    ),
    ("pg_replication_origin", "\"roident\" oid, \"roname\" text"),
    (
        "pg_replication_origin_status",
        "\"local_id\" oid, \"external_id\" text, \"remote_lsn\" pg_lsn, \"local_lsn\" pg_lsn",
    ),
    (
        "pg_replication_slots",
        "\"slot_name\" name, \"plugin\" name, \"slot_type\" text, \"datoid\" oid, \"database\" name, \"temporary\" boolean, \"active\" boolean, \"active_pid\" integer, \"xmin\" xid, \"catalog_xmin\" xid, \"restart_lsn\" pg_lsn, \"confirmed_flush_lsn\" pg_lsn, \"wal_status\" text, \"safe_wal_size\" bigint, \"two_phase\" boolean",
    ),
    (
        "pg_rules",
        "\"schemaname\" name, \"tablename\" name, \"rulename\" name, \"definition\" text",
    ),
    (
        "pg_seclabel",
        "\"objoid\" oid, \"classoid\" oid, \"objsubid\" integer, \"provider\" text, \"label\" text",
    ),
    (
        "pg_seclabels",
        "\"objoid\" oid, \"classoid\" oid, \"objsubid\" integer, \"objtype\" text, \"objnamespace\" oid, \"objname\" text, \"provider\" text, \"label\" text",
    ),
    (
        "pg_shadow",
        "\"usename\" name, \"usesysid\" oid, \"usecreatedb\" boolean, \"usesuper\" boolean, \"userepl\" boolean, \"usebypassrls\" boolean, \"passwd\" text, \"valuntil\" timestamp with time zone, \"useconfig\" text[]",
    ),
    (
        "pg_shdepend",
        "\"dbid\" oid, \"classid\" oid, \"objid\" oid, \"objsubid\" integer, \"refclassid\" oid, \"refobjid\" oid, \"deptype\" \"char\"",
    ),
    (
        "pg_shdescription",
        "\"objoid\" oid, \"classoid\" oid, \"description\" text",
    ),
    (
        "pg_shmem_allocations",
        "\"name\" text, \"off\" bigint, \"size\" bigint, \"allocated_size\" bigint",
    ),
    (
        "pg_shseclabel",
        "\"objoid\" oid, \"classoid\" oid, \"provider\" text, \"label\" text",
    ),
    (
        "pg_stat_all_indexes",
        "\"relid\" oid, \"indexrelid\" oid, \"schemaname\" name, \"relname\" name, \"indexrelname\" name, \"idx_scan\" bigint, \"idx_tup_read\" bigint, \"idx_tup_fetch\" bigint",
    ),
    (
        "pg_stat_all_tables",
        "\"relid\" oid, \"schemaname\" name, \"relname\" name, \"seq_scan\" bigint, \"seq_tup_read\" bigint, \"idx_scan\" bigint, \"idx_tup_fetch\" bigint, \"n_tup_ins\" bigint, \"n_tup_upd\" bigint, \"n_tup_del\" bigint, \"n_tup_hot_upd\" bigint, \"n_live_tup\" bigint, \"n_dead_tup\" bigint, \"n_mod_since_analyze\" bigint, \"n_ins_since_vacuum\" bigint, \"last_vacuum\" timestamp with time zone, \"last_autovacuum\" timestamp with time zone, \"last_analyze\" timestamp with time zone, \"last_autoanalyze\" timestamp with time zone, \"vacuum_count\" bigint, \"autovacuum_count\" bigint, \"analyze_count\" bigint, \"autoanalyze_count\" bigint",
    ),
    (
        "pg_stat_archiver",
        "\"archived_count\" bigint, \"last_archived_wal\" text, \"last_archived_time\" timestamp with time zone, \"failed_count\" bigint, \"last_failed_wal\" text, \"last_failed_time\" timestamp with time zone, \"stats_reset\" timestamp with time zone",
    ),
    (
        "pg_stat_bgwriter",
        "\"checkpoints_timed\" bigint, \"checkpoints_req\" bigint, \"checkpoint_write_time\" double precision, \"checkpoint_sync_time\" double precision, \"buffers_checkpoint\" bigint, \"buffers_clean\" bigint, \"maxwritten_clean\" bigint, \"buffers_backend\" bigint, \"buffers_backend_fsync\" bigint, \"buffers_alloc\" bigint, \"stats_reset\" timestamp with time zone",
    ),
    (
        "pg_stat_database_conflicts",
        "\"datid\" oid, \"datname\" name, \"confl_tablespace\" bigint, \"confl_lock\" bigint, \"confl_snapshot\" bigint, \"confl_bufferpin\" bigint, \"confl_deadlock\" bigint",
    ),
    (
        "pg_stat_gssapi",
        "\"pid\" integer, \"gss_authenticated\" boolean, \"principal\" text, \"encrypted\" boolean",
    ),
    (
        "pg_stat_progress_analyze",
        "\"pid\" integer, \"datid\" oid, \"datname\" name, \"relid\" oid, \"phase\" text, \"sample_blks_total\" bigint, \"sample_blks_scanned\" bigint, \"ext_stats_total\" bigint, \"ext_stats_computed\" bigint, \"child_tables_total\" bigint, \"child_tables_done\" bigint, \"current_child_table_relid\" oid",
    ),
    (
        "pg_stat_progress_basebackup",
        "\"pid\" integer, \"phase\" text, \"backup_total\" bigint, \"backup_streamed\" bigint, \"tablespaces_total\" bigint, \"tablespaces_streamed\" bigint",
    ),
    (
        "pg_stat_progress_cluster",
        "\"pid\" integer, \"datid\" oid, \"datname\" name, \"relid\" oid, \"command\" text, \"phase\" text, \"cluster_index_relid\" oid, \"heap_tuples_scanned\" bigint, \"heap_tuples_written\" bigint, \"heap_blks_total\" bigint, \"heap_blks_scanned\" bigint, \"index_rebuild_count\" bigint",
    ),
    (
        "pg_stat_progress_copy",
        "\"pid\" integer, \"datid\" oid, \"datname\" name, \"relid\" oid, \"command\" text, \"type\" text, \"bytes_processed\" bigint, \"bytes_total\" bigint, \"tuples_processed\" bigint, \"tuples_excluded\" bigint",
    ),
    (
        "pg_stat_progress_create_index",
        "\"pid\" integer, \"datid\" oid, \"datname\" name, \"relid\" oid, \"index_relid\" oid, \"command\" text, \"phase\" text, \"lockers_total\" bigint, \"lockers_done\" bigint, \"current_locker_pid\" bigint, \"blocks_total\" bigint, \"blocks_done\" bigint, \"tuples_total\" bigint, \"tuples_done\" bigint, \"partitions_total\" bigint, \"partitions_done\" bigint",
    ),
    (
        "pg_stat_progress_vacuum",
        "\"pid\" integer, \"datid\" oid, \"datname\" name, \"relid\" oid, \"phase\" text, \"heap_blks_total\" bigint, \"heap_blks_scanned\" bigint, \"heap_blks_vacuumed\" bigint, \"index_vacuum_count\" bigint, \"max_dead_tuples\" bigint, \"num_dead_tuples\" bigint",
    ),
    (
        "pg_stat_recovery_prefetch",
        "\"stats_reset\" timestamp with time zone, \"prefetch\" bigint, \"hit\" bigint, \"skip_init\" bigint, \"skip_new\" bigint, \"skip_fpw\" bigint, \"skip_rep\" bigint, \"wal_distance\" integer, \"block_distance\" integer, \"io_depth\" integer",
    ),
    (
        "pg_stat_replication",
        "\"pid\" integer, \"usesysid\" oid, \"usename\" name, \"application_name\" text, \"client_addr\" inet, \"client_hostname\" text, \"client_port\" integer, \"backend_start\" timestamp with time zone, \"backend_xmin\" xid, \"state\" text, \"sent_lsn\" pg_lsn, \"write_lsn\" pg_lsn, \"flush_lsn\" pg_lsn, \"replay_lsn\" pg_lsn, \"write_lag\" interval, \"flush_lag\" interval, \"replay_lag\" interval, \"sync_priority\" integer, \"sync_state\" text, \"reply_time\" timestamp with time zone",
    ),
    (
        "pg_stat_replication_slots",
        "\"slot_name\" text, \"spill_txns\" bigint, \"spill_count\" bigint, \"spill_bytes\" bigint, \"stream_txns\" bigint, \"stream_count\" bigint, \"stream_bytes\" bigint, \"total_txns\" bigint, \"total_bytes\" bigint, \"stats_reset\" timestamp with time zone",
    ),
    (
        "pg_stat_slru",
        "\"name\" text, \"blks_zeroed\" bigint, \"blks_hit\" bigint, \"blks_read\" bigint, \"blks_written\" bigint, \"blks_exists\" bigint, \"flushes\" bigint, \"truncates\" bigint, \"stats_reset\" timestamp with time zone",
    ),
    (
        "pg_stat_ssl",
        "\"pid\" integer, \"ssl\" boolean, \"version\" text, \"cipher\" text, \"bits\" integer, \"client_dn\" text, \"client_serial\" numeric, \"issuer_dn\" text",
    ),
    (
        "pg_stat_subscription",
        "\"subid\" oid, \"subname\" name, \"pid\" integer, \"relid\" oid, \"received_lsn\" pg_lsn, \"last_msg_send_time\" timestamp with time zone, \"last_msg_receipt_time\" timestamp with time zone, \"latest_end_lsn\" pg_lsn, \"latest_end_time\" timestamp with time zone",
    ),
    (
        "pg_stat_subscription_stats",
        "\"subid\" oid, \"subname\" name, \"apply_error_count\" bigint, \"sync_error_count\" bigint, \"stats_reset\" timestamp with time zone",
    ),
    (
        "pg_stat_sys_indexes",
        "\"relid\" oid, \"indexrelid\" oid, \"schemaname\" name, \"relname\" name, \"indexrelname\" name, \"idx_scan\" bigint, \"idx_tup_read\" bigint, \"idx_tup_fetch\" bigint",
    ),
    (
        "pg_stat_sys_tables",
        "\"relid\" oid, \"schemaname\" name, \"relname\" name, \"seq_scan\" bigint, \"seq_tup_read\" bigint, \"idx_scan\" bigint, \"idx_tup_fetch\" bigint, \"n_tup_ins\" bigint, \"n_tup_upd\" bigint, \"n_tup_del\" bigint, \"n_tup_hot_upd\" bigint, \"n_live_tup\" bigint, \"n_dead_tup\" bigint, \"n_mod_since_analyze\" bigint, \"n_ins_since_vacuum\" bigint, \"last_vacuum\" timestamp with time zone, \"last_autovacuum\" timestamp with time zone, \"last_analyze\" timestamp with time zone, \"last_autoanalyze\" timestamp with time zone, \"vacuum_count\" bigint, \"autovacuum_count\" bigint, \"analyze_count\" bigint, \"autoanalyze_count\" bigint",
    ),
    (
        "pg_stat_user_functions",
        "\"funcid\" oid, \"schemaname\" name, \"funcname\" name, \"calls\" bigint, \"total_time\" double precision, \"self_time\" double precision",
    ),
    (
        "pg_stat_wal",
        "\"wal_records\" bigint, \"wal_fpi\" bigint, \"wal_bytes\" numeric, \"wal_buffers_full\" bigint, \"wal_write\" bigint, \"wal_sync\" bigint, \"wal_write_time\" double precision, \"wal_sync_time\" double precision, \"stats_reset\" timestamp with time zone",
    ),
    (
        "pg_stat_wal_receiver",
        "\"pid\" integer, \"status\" text, \"receive_start_lsn\" pg_lsn, \"receive_start_tli\" integer, \"written_lsn\" pg_lsn, \"flushed_lsn\" pg_lsn, \"received_tli\" integer, \"last_msg_send_time\" timestamp with time zone, \"last_msg_receipt_time\" timestamp with time zone, \"latest_end_lsn\" pg_lsn, \"latest_end_time\" timestamp with time zone, \"slot_name\" text, \"sender_host\" text, \"sender_port\" integer, \"conninfo\" text",
    ),
    (
        "pg_stat_xact_all_tables",
        "\"relid\" oid, \"schemaname\" name, \"relname\" name, \"seq_scan\" bigint, \"seq_tup_read\" bigint, \"idx_scan\" bigint, \"idx_tup_fetch\" bigint, \"n_tup_ins\" bigint, \"n_tup_upd\" bigint, \"n_tup_del\" bigint, \"n_tup_hot_upd\" bigint",
    ),
    (
        "pg_stat_xact_sys_tables",
        "\"relid\" oid, \"schemaname\" name, \"relname\" name, \"seq_scan\" bigint, \"seq_tup_read\" bigint, \"idx_scan\" bigint, \"idx_tup_fetch\" bigint, \"n_tup_ins\" bigint, \"n_tup_upd\" bigint, \"n_tup_del\" bigint, \"n_tup_hot_upd\" bigint",
    ),
    (
        "pg_stat_xact_user_functions",
        "\"funcid\" oid, \"schemaname\" name, \"funcname\" name, \"calls\" bigint, \"total_time\" double precision, \"self_time\" double precision",
    ),
    (
        "pg_stat_xact_user_tables",
        "\"relid\" oid, \"schemaname\" name, \"relname\" name, \"seq_scan\" bigint, \"seq_tup_read\" bigint, \"idx_scan\" bigint, \"idx_tup_fetch\" bigint, \"n_tup_ins\" bigint, \"n_tup_upd\" bigint, \"n_tup_del\" bigint, \"n_tup_hot_upd\" bigint",
    ),
    (
        "pg_statio_all_indexes",
        "\"relid\" oid, \"indexrelid\" oid, \"schemaname\" name, \"relname\" name, \"indexrelname\" name, \"idx_blks_read\" bigint, \"idx_blks_hit\" bigint",
    ),
    (
        "pg_statio_all_sequences",
        "\"relid\" oid, \"schemaname\" name, \"relname\" name, \"blks_read\" bigint, \"blks_hit\" bigint",
    ),
    (
        "pg_statio_all_tables",
        "\"relid\" oid, \"schemaname\" name, \"relname\" name, \"heap_blks_read\" bigint, \"heap_blks_hit\" bigint, \"idx_blks_read\" bigint, \"idx_blks_hit\" bigint, \"toast_blks_read\" bigint, \"toast_blks_hit\" bigint, \"tidx_blks_read\" bigint, \"tidx_blks_hit\" bigint",
    ),
    (
        "pg_statio_sys_indexes",
        "\"relid\" oid, \"indexrelid\" oid, \"schemaname\" name, \"relname\" name, \"indexrelname\" name, \"idx_blks_read\" bigint, \"idx_blks_hit\" bigint",
    ),
    (
        "pg_statio_sys_sequences",
        "\"relid\" oid, \"schemaname\" name, \"relname\" name, \"blks_read\" bigint, \"blks_hit\" bigint",
    ),
    (
        "pg_statio_sys_tables",
        "\"relid\" oid, \"schemaname\" name, \"relname\" name, \"heap_blks_read\" bigint, \"heap_blks_hit\" bigint, \"idx_blks_read\" bigint, \"idx_blks_hit\" bigint, \"toast_blks_read\" bigint, \"toast_blks_hit\" bigint, \"tidx_blks_read\" bigint, \"tidx_blks_hit\" bigint",
    ),
    (
        "pg_statio_user_indexes",
        "\"relid\" oid, \"indexrelid\" oid, \"schemaname\" name, \"relname\" name, \"indexrelname\" name, \"idx_blks_read\" bigint, \"idx_blks_hit\" bigint",
    ),
    (
        "pg_statio_user_sequences",
        "\"relid\" oid, \"schemaname\" name, \"relname\" name, \"blks_read\" bigint, \"blks_hit\" bigint",
    ),
    (
        "pg_statio_user_tables",
        "\"relid\" oid, \"schemaname\" name, \"relname\" name, \"heap_blks_read\" bigint, \"heap_blks_hit\" bigint, \"idx_blks_read\" bigint, \"idx_blks_hit\" bigint, \"toast_blks_read\" bigint, \"toast_blks_hit\" bigint, \"tidx_blks_read\" bigint, \"tidx_blks_hit\" bigint",
    ),
    (
        "pg_statistic",
        "\"starelid\" oid, \"staattnum\" smallint, \"stainherit\" boolean, \"stanullfrac\" real, \"stawidth\" integer, \"stadistinct\" real, \"stakind1\" smallint, \"stakind2\" smallint, \"stakind3\" smallint, \"stakind4\" smallint, \"stakind5\" smallint, \"staop1\" oid, \"staop2\" oid, \"staop3\" oid, \"staop4\" oid, \"staop5\" oid, \"stacoll1\" oid, \"stacoll2\" oid, \"stacoll3\" oid, \"stacoll4\" oid, \"stacoll5\" oid, \"stanumbers1\" real[], \"stanumbers2\" real[], \"stanumbers3\" real[], \"stanumbers4\" real[], \"stanumbers5\" real[], \"stavalues1\" anyarray, \"stavalues2\" anyarray, \"stavalues3\" anyarray, \"stavalues4\" anyarray, \"stavalues5\" anyarray",
    ),
    (
        "pg_statistic_ext_data",
        "\"stxoid\" oid, \"stxdinherit\" boolean, \"stxdndistinct\" pg_ndistinct, \"stxddependencies\" pg_dependencies, \"stxdmcv\" pg_mcv_list, \"stxdexpr\" pg_statistic[]",
    ),
    (
        "pg_stats",
        "\"schemaname\" name, \"tablename\" name, \"attname\" name, \"inherited\" boolean, \"null_frac\" real, \"avg_width\" integer, \"n_distinct\" real, \"most_common_vals\" anyarray, \"most_common_freqs\" real[], \"histogram_bounds\" anyarray, \"correlation\" real, \"most_common_elems\" anyarray, \"most_common_elem_freqs\" real[], \"elem_count_histogram\" real[]",
    ),
    (
        "pg_stats_ext",
        "\"schemaname\" name, \"tablename\" name, \"statistics_schemaname\" name, \"statistics_name\" name, \"statistics_owner\" name, \"attnames\" name[], \"exprs\" text[], \"kinds\" \"char\"[], \"inherited\" boolean, \"n_distinct\" pg_ndistinct, \"dependencies\" pg_dependencies, \"most_common_vals\" text[], \"most_common_val_nulls\" boolean[], \"most_common_freqs\" double precision[], \"most_common_base_freqs\" double precision[]",
    ),
    (
        "pg_stats_ext_exprs",
        "\"schemaname\" name, \"tablename\" name, \"statistics_schemaname\" name, \"statistics_name\" name, \"statistics_owner\" name, \"expr\" text, \"inherited\" boolean, \"null_frac\" real, \"avg_width\" integer, \"n_distinct\" real, \"most_common_vals\" anyarray, \"most_common_freqs\" real[], \"histogram_bounds\" anyarray, \"correlation\" real, \"most_common_elems\" anyarray, \"most_common_elem_freqs\" real[], \"elem_count_histogram\" real[]",
    ),
    (
        "pg_subscription_rel",
        "\"srsubid\" oid, \"srrelid\" oid, \"srsubstate\" \"char\", \"srsublsn\" pg_lsn",
    ),
    (
        "pg_transform",
        "\"oid\" oid, \"trftype\" oid, \"trflang\" oid, \"trffromsql\" regproc, \"trftosql\" regproc",
    ),
    (
        "pg_ts_config",
        "\"oid\" oid, \"cfgname\" name, \"cfgnamespace\" oid, \"cfgowner\" oid, \"cfgparser\" oid",
    ),
    (
        "pg_ts_config_map",
        "\"mapcfg\" oid, \"maptokentype\" integer, \"mapseqno\" integer, \"mapdict\" oid",
    ),
    (
        "pg_ts_dict",
        "\"oid\" oid, \"dictname\" name, \"dictnamespace\" oid, \"dictowner\" oid, \"dicttemplate\" oid, \"dictinitoption\" text",
    ),
    (
        "pg_ts_parser",
        "\"oid\" oid, \"prsname\" name, \"prsnamespace\" oid, \"prsstart\" regproc, \"prstoken\" regproc, \"prsend\" regproc, \"prsheadline\" regproc, \"prslextype\" regproc",
    ),
    (
        "pg_ts_template",
        "\"oid\" oid, \"tmplname\" name, \"tmplnamespace\" oid, \"tmplinit\" regproc, \"tmpllexize\" regproc",
    ),
    (
        "pg_user_mapping",
        "\"oid\" oid, \"umuser\" oid, \"umserver\" oid, \"umoptions\" text[]",
    ),
    (
        "pg_user_mappings",
        "\"umid\" oid, \"srvid\" oid, \"srvname\" name, \"umuser\" oid, \"usename\" name, \"umoptions\" text[]",
    ),
];
