//! PostgreSQL 15's `information_schema` views that litewire keeps no rows for
//! (privileges, foreign data, domains, triggers, SQL features, ...), each
//! with PostgreSQL 15's columns in order and the base type of each column's
//! domain (`sql_identifier` is `name`, `cardinal_number` `integer`), which is
//! the type PostgreSQL sends for it. Made from a PostgreSQL 15 by
//!
//! ```sql
//! SELECT c.relname, string_agg(quote_ident(a.attname) || ' ' || CASE WHEN t.typtype = 'd'
//!        THEN format_type(t.typbasetype, t.typtypmod) ELSE format_type(a.atttypid, a.atttypmod) END,
//!        ', ' ORDER BY a.attnum)
//! FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
//! JOIN pg_type t ON t.oid = a.atttypid
//! WHERE c.relnamespace = 'information_schema'::regnamespace AND c.relkind IN ('r', 'v')
//! GROUP BY 1 ORDER BY 1
//! ```
//!
//! less the views `relations` defines, each named `information_schema_<view>`.

/// Name and columns of each.
pub(super) const EMPTY_INFORMATION_SCHEMA: &[(&str, &str)] = &[
    (
        "information_schema__pg_foreign_data_wrappers",
        "\"oid\" oid, \"fdwowner\" oid, \"fdwoptions\" text[], \"foreign_data_wrapper_catalog\" name, \"foreign_data_wrapper_name\" name, \"authorization_identifier\" name, \"foreign_data_wrapper_language\" character varying",
    ),
    (
        "information_schema__pg_foreign_servers",
        "\"oid\" oid, \"srvoptions\" text[], \"foreign_server_catalog\" name, \"foreign_server_name\" name, \"foreign_data_wrapper_catalog\" name, \"foreign_data_wrapper_name\" name, \"foreign_server_type\" character varying, \"foreign_server_version\" character varying, \"authorization_identifier\" name",
    ),
    (
        "information_schema__pg_foreign_table_columns",
        "\"nspname\" name, \"relname\" name, \"attname\" name, \"attfdwoptions\" text[]",
    ),
    (
        "information_schema__pg_foreign_tables",
        "\"foreign_table_catalog\" name, \"foreign_table_schema\" name, \"foreign_table_name\" name, \"ftoptions\" text[], \"foreign_server_catalog\" name, \"foreign_server_name\" name, \"authorization_identifier\" name",
    ),
    (
        "information_schema__pg_user_mappings",
        "\"oid\" oid, \"umoptions\" text[], \"umuser\" oid, \"authorization_identifier\" name, \"foreign_server_catalog\" name, \"foreign_server_name\" name, \"srvowner\" name",
    ),
    (
        "information_schema_administrable_role_authorizations",
        "\"grantee\" name, \"role_name\" name, \"is_grantable\" character varying(3)",
    ),
    (
        "information_schema_attributes",
        "\"udt_catalog\" name, \"udt_schema\" name, \"udt_name\" name, \"attribute_name\" name, \"ordinal_position\" integer, \"attribute_default\" character varying, \"is_nullable\" character varying(3), \"data_type\" character varying, \"character_maximum_length\" integer, \"character_octet_length\" integer, \"character_set_catalog\" name, \"character_set_schema\" name, \"character_set_name\" name, \"collation_catalog\" name, \"collation_schema\" name, \"collation_name\" name, \"numeric_precision\" integer, \"numeric_precision_radix\" integer, \"numeric_scale\" integer, \"datetime_precision\" integer, \"interval_type\" character varying, \"interval_precision\" integer, \"attribute_udt_catalog\" name, \"attribute_udt_schema\" name, \"attribute_udt_name\" name, \"scope_catalog\" name, \"scope_schema\" name, \"scope_name\" name, \"maximum_cardinality\" integer, \"dtd_identifier\" name, \"is_derived_reference_attribute\" character varying(3)",
    ),
    (
        "information_schema_check_constraint_routine_usage",
        "\"constraint_catalog\" name, \"constraint_schema\" name, \"constraint_name\" name, \"specific_catalog\" name, \"specific_schema\" name, \"specific_name\" name",
    ),
    (
        "information_schema_collation_character_set_applicability",
        "\"collation_catalog\" name, \"collation_schema\" name, \"collation_name\" name, \"character_set_catalog\" name, \"character_set_schema\" name, \"character_set_name\" name",
    ),
    (
        "information_schema_collations",
        "\"collation_catalog\" name, \"collation_schema\" name, \"collation_name\" name, \"pad_attribute\" character varying",
    ),
    (
        "information_schema_column_column_usage",
        "\"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"column_name\" name, \"dependent_column\" name",
    ),
    (
        "information_schema_column_domain_usage",
        "\"domain_catalog\" name, \"domain_schema\" name, \"domain_name\" name, \"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"column_name\" name",
    ),
    (
        "information_schema_column_options",
        "\"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"column_name\" name, \"option_name\" name, \"option_value\" character varying",
    ),
    (
        "information_schema_column_privileges",
        "\"grantor\" name, \"grantee\" name, \"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"column_name\" name, \"privilege_type\" character varying, \"is_grantable\" character varying(3)",
    ),
    (
        "information_schema_column_udt_usage",
        "\"udt_catalog\" name, \"udt_schema\" name, \"udt_name\" name, \"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"column_name\" name",
    ),
    (
        "information_schema_constraint_table_usage",
        "\"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"constraint_catalog\" name, \"constraint_schema\" name, \"constraint_name\" name",
    ),
    (
        "information_schema_data_type_privileges",
        "\"object_catalog\" name, \"object_schema\" name, \"object_name\" name, \"object_type\" character varying, \"dtd_identifier\" name",
    ),
    (
        "information_schema_domain_udt_usage",
        "\"udt_catalog\" name, \"udt_schema\" name, \"udt_name\" name, \"domain_catalog\" name, \"domain_schema\" name, \"domain_name\" name",
    ),
    (
        "information_schema_element_types",
        "\"object_catalog\" name, \"object_schema\" name, \"object_name\" name, \"object_type\" character varying, \"collection_type_identifier\" name, \"data_type\" character varying, \"character_maximum_length\" integer, \"character_octet_length\" integer, \"character_set_catalog\" name, \"character_set_schema\" name, \"character_set_name\" name, \"collation_catalog\" name, \"collation_schema\" name, \"collation_name\" name, \"numeric_precision\" integer, \"numeric_precision_radix\" integer, \"numeric_scale\" integer, \"datetime_precision\" integer, \"interval_type\" character varying, \"interval_precision\" integer, \"domain_default\" character varying, \"udt_catalog\" name, \"udt_schema\" name, \"udt_name\" name, \"scope_catalog\" name, \"scope_schema\" name, \"scope_name\" name, \"maximum_cardinality\" integer, \"dtd_identifier\" name",
    ),
    (
        "information_schema_foreign_data_wrapper_options",
        "\"foreign_data_wrapper_catalog\" name, \"foreign_data_wrapper_name\" name, \"option_name\" name, \"option_value\" character varying",
    ),
    (
        "information_schema_foreign_data_wrappers",
        "\"foreign_data_wrapper_catalog\" name, \"foreign_data_wrapper_name\" name, \"authorization_identifier\" name, \"library_name\" character varying, \"foreign_data_wrapper_language\" character varying",
    ),
    (
        "information_schema_foreign_server_options",
        "\"foreign_server_catalog\" name, \"foreign_server_name\" name, \"option_name\" name, \"option_value\" character varying",
    ),
    (
        "information_schema_foreign_servers",
        "\"foreign_server_catalog\" name, \"foreign_server_name\" name, \"foreign_data_wrapper_catalog\" name, \"foreign_data_wrapper_name\" name, \"foreign_server_type\" character varying, \"foreign_server_version\" character varying, \"authorization_identifier\" name",
    ),
    (
        "information_schema_foreign_table_options",
        "\"foreign_table_catalog\" name, \"foreign_table_schema\" name, \"foreign_table_name\" name, \"option_name\" name, \"option_value\" character varying",
    ),
    (
        "information_schema_foreign_tables",
        "\"foreign_table_catalog\" name, \"foreign_table_schema\" name, \"foreign_table_name\" name, \"foreign_server_catalog\" name, \"foreign_server_name\" name",
    ),
    (
        "information_schema_parameters",
        "\"specific_catalog\" name, \"specific_schema\" name, \"specific_name\" name, \"ordinal_position\" integer, \"parameter_mode\" character varying, \"is_result\" character varying(3), \"as_locator\" character varying(3), \"parameter_name\" name, \"data_type\" character varying, \"character_maximum_length\" integer, \"character_octet_length\" integer, \"character_set_catalog\" name, \"character_set_schema\" name, \"character_set_name\" name, \"collation_catalog\" name, \"collation_schema\" name, \"collation_name\" name, \"numeric_precision\" integer, \"numeric_precision_radix\" integer, \"numeric_scale\" integer, \"datetime_precision\" integer, \"interval_type\" character varying, \"interval_precision\" integer, \"udt_catalog\" name, \"udt_schema\" name, \"udt_name\" name, \"scope_catalog\" name, \"scope_schema\" name, \"scope_name\" name, \"maximum_cardinality\" integer, \"dtd_identifier\" name, \"parameter_default\" character varying",
    ),
    (
        "information_schema_role_column_grants",
        "\"grantor\" name, \"grantee\" name, \"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"column_name\" name, \"privilege_type\" character varying, \"is_grantable\" character varying(3)",
    ),
    (
        "information_schema_role_routine_grants",
        "\"grantor\" name, \"grantee\" name, \"specific_catalog\" name, \"specific_schema\" name, \"specific_name\" name, \"routine_catalog\" name, \"routine_schema\" name, \"routine_name\" name, \"privilege_type\" character varying, \"is_grantable\" character varying(3)",
    ),
    (
        "information_schema_role_table_grants",
        "\"grantor\" name, \"grantee\" name, \"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"privilege_type\" character varying, \"is_grantable\" character varying(3), \"with_hierarchy\" character varying(3)",
    ),
    (
        "information_schema_role_udt_grants",
        "\"grantor\" name, \"grantee\" name, \"udt_catalog\" name, \"udt_schema\" name, \"udt_name\" name, \"privilege_type\" character varying, \"is_grantable\" character varying(3)",
    ),
    (
        "information_schema_role_usage_grants",
        "\"grantor\" name, \"grantee\" name, \"object_catalog\" name, \"object_schema\" name, \"object_name\" name, \"object_type\" character varying, \"privilege_type\" character varying, \"is_grantable\" character varying(3)",
    ),
    (
        "information_schema_routine_column_usage",
        "\"specific_catalog\" name, \"specific_schema\" name, \"specific_name\" name, \"routine_catalog\" name, \"routine_schema\" name, \"routine_name\" name, \"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"column_name\" name",
    ),
    (
        "information_schema_routine_privileges",
        "\"grantor\" name, \"grantee\" name, \"specific_catalog\" name, \"specific_schema\" name, \"specific_name\" name, \"routine_catalog\" name, \"routine_schema\" name, \"routine_name\" name, \"privilege_type\" character varying, \"is_grantable\" character varying(3)",
    ),
    (
        "information_schema_routine_routine_usage",
        "\"specific_catalog\" name, \"specific_schema\" name, \"specific_name\" name, \"routine_catalog\" name, \"routine_schema\" name, \"routine_name\" name",
    ),
    (
        "information_schema_routine_sequence_usage",
        "\"specific_catalog\" name, \"specific_schema\" name, \"specific_name\" name, \"routine_catalog\" name, \"routine_schema\" name, \"routine_name\" name, \"sequence_catalog\" name, \"sequence_schema\" name, \"sequence_name\" name",
    ),
    (
        "information_schema_routine_table_usage",
        "\"specific_catalog\" name, \"specific_schema\" name, \"specific_name\" name, \"routine_catalog\" name, \"routine_schema\" name, \"routine_name\" name, \"table_catalog\" name, \"table_schema\" name, \"table_name\" name",
    ),
    (
        "information_schema_sql_features",
        "\"feature_id\" character varying, \"feature_name\" character varying, \"sub_feature_id\" character varying, \"sub_feature_name\" character varying, \"is_supported\" character varying(3), \"is_verified_by\" character varying, \"comments\" character varying",
    ),
    (
        "information_schema_sql_implementation_info",
        "\"implementation_info_id\" character varying, \"implementation_info_name\" character varying, \"integer_value\" integer, \"character_value\" character varying, \"comments\" character varying",
    ),
    (
        "information_schema_sql_parts",
        "\"feature_id\" character varying, \"feature_name\" character varying, \"is_supported\" character varying(3), \"is_verified_by\" character varying, \"comments\" character varying",
    ),
    (
        "information_schema_sql_sizing",
        "\"sizing_id\" integer, \"sizing_name\" character varying, \"supported_value\" integer, \"comments\" character varying",
    ),
    (
        "information_schema_table_privileges",
        "\"grantor\" name, \"grantee\" name, \"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"privilege_type\" character varying, \"is_grantable\" character varying(3), \"with_hierarchy\" character varying(3)",
    ),
    (
        "information_schema_transforms",
        "\"udt_catalog\" name, \"udt_schema\" name, \"udt_name\" name, \"specific_catalog\" name, \"specific_schema\" name, \"specific_name\" name, \"group_name\" name, \"transform_type\" character varying",
    ),
    (
        "information_schema_triggered_update_columns",
        "\"trigger_catalog\" name, \"trigger_schema\" name, \"trigger_name\" name, \"event_object_catalog\" name, \"event_object_schema\" name, \"event_object_table\" name, \"event_object_column\" name",
    ),
    (
        "information_schema_triggers",
        "\"trigger_catalog\" name, \"trigger_schema\" name, \"trigger_name\" name, \"event_manipulation\" character varying, \"event_object_catalog\" name, \"event_object_schema\" name, \"event_object_table\" name, \"action_order\" integer, \"action_condition\" character varying, \"action_statement\" character varying, \"action_orientation\" character varying, \"action_timing\" character varying, \"action_reference_old_table\" name, \"action_reference_new_table\" name, \"action_reference_old_row\" name, \"action_reference_new_row\" name, \"created\" timestamptz(2)",
    ),
    (
        "information_schema_udt_privileges",
        "\"grantor\" name, \"grantee\" name, \"udt_catalog\" name, \"udt_schema\" name, \"udt_name\" name, \"privilege_type\" character varying, \"is_grantable\" character varying(3)",
    ),
    (
        "information_schema_usage_privileges",
        "\"grantor\" name, \"grantee\" name, \"object_catalog\" name, \"object_schema\" name, \"object_name\" name, \"object_type\" character varying, \"privilege_type\" character varying, \"is_grantable\" character varying(3)",
    ),
    (
        "information_schema_user_defined_types",
        "\"user_defined_type_catalog\" name, \"user_defined_type_schema\" name, \"user_defined_type_name\" name, \"user_defined_type_category\" character varying, \"is_instantiable\" character varying(3), \"is_final\" character varying(3), \"ordering_form\" character varying, \"ordering_category\" character varying, \"ordering_routine_catalog\" name, \"ordering_routine_schema\" name, \"ordering_routine_name\" name, \"reference_type\" character varying, \"data_type\" character varying, \"character_maximum_length\" integer, \"character_octet_length\" integer, \"character_set_catalog\" name, \"character_set_schema\" name, \"character_set_name\" name, \"collation_catalog\" name, \"collation_schema\" name, \"collation_name\" name, \"numeric_precision\" integer, \"numeric_precision_radix\" integer, \"numeric_scale\" integer, \"datetime_precision\" integer, \"interval_type\" character varying, \"interval_precision\" integer, \"source_dtd_identifier\" name, \"ref_dtd_identifier\" name",
    ),
    (
        "information_schema_user_mapping_options",
        "\"authorization_identifier\" name, \"foreign_server_catalog\" name, \"foreign_server_name\" name, \"option_name\" name, \"option_value\" character varying",
    ),
    (
        "information_schema_user_mappings",
        "\"authorization_identifier\" name, \"foreign_server_catalog\" name, \"foreign_server_name\" name",
    ),
    (
        "information_schema_view_column_usage",
        "\"view_catalog\" name, \"view_schema\" name, \"view_name\" name, \"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"column_name\" name",
    ),
    (
        "information_schema_view_routine_usage",
        "\"table_catalog\" name, \"table_schema\" name, \"table_name\" name, \"specific_catalog\" name, \"specific_schema\" name, \"specific_name\" name",
    ),
    (
        "information_schema_view_table_usage",
        "\"view_catalog\" name, \"view_schema\" name, \"view_name\" name, \"table_catalog\" name, \"table_schema\" name, \"table_name\" name",
    ),
];
