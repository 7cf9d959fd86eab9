//! PostgreSQL's own relations in `pg_class`, and their columns in
//! `pg_attribute`: those of `pg_catalog` and `information_schema` that
//! litewire has (see `sql::relations`), so that `\dS`, `\d pg_class`,
//! `'pg_class'::regclass` joined to `pg_class`, and counts over the catalog
//! answer as PostgreSQL's do. Written once, when a connection makes its
//! catalog: they never change.
//!
//! Made from a PostgreSQL 15 by
//!
//! ```sql
//! SELECT c.oid, n.nspname, c.relname, c.relkind,
//!        string_agg(a.attname || ':' || a.atttypid || ':' || a.atttypmod || ':'
//!                   || a.attnotnull::int || ':' || a.attcollation, ' ' ORDER BY a.attnum)
//! FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
//! JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
//! WHERE n.nspname IN ('pg_catalog', 'information_schema') AND c.relkind IN ('r', 'v')
//! GROUP BY 1, 2, 3, 4 ORDER BY 2, 3
//! ```
//!
//! with `information_schema`'s domains (`sql_identifier`, `cardinal_number`,
//! ...) as their base types, as litewire's columns of those views are.

use std::fmt::Write as _;

use super::oids::NAMESPACES;
use super::rows::{insert, relation_row};
use super::types::{category_of, storage_of};
use crate::sql::quote::literal;
use crate::sql::relations;

/// One line per relation: oid, schema, name, kind (`r` or `v`), and the
/// columns in order, each `name:type oid:typmod:not null:collation`,
/// separated by spaces.
const SYSTEM_RELATIONS: &str = "\
13507|information_schema|_pg_foreign_data_wrappers|v|oid:26:-1:0:0 fdwowner:26:-1:0:0 fdwoptions:1009:-1:0:950 foreign_data_wrapper_catalog:19:-1:0:950 foreign_data_wrapper_name:19:-1:0:950 authorization_identifier:19:-1:0:950 foreign_data_wrapper_language:1043:-1:0:100\n\
13519|information_schema|_pg_foreign_servers|v|oid:26:-1:0:0 srvoptions:1009:-1:0:950 foreign_server_catalog:19:-1:0:950 foreign_server_name:19:-1:0:950 foreign_data_wrapper_catalog:19:-1:0:950 foreign_data_wrapper_name:19:-1:0:950 foreign_server_type:1043:-1:0:100 foreign_server_version:1043:-1:0:100 authorization_identifier:19:-1:0:950\n\
13498|information_schema|_pg_foreign_table_columns|v|nspname:19:-1:0:950 relname:19:-1:0:950 attname:19:-1:0:950 attfdwoptions:1009:-1:0:950\n\
13532|information_schema|_pg_foreign_tables|v|foreign_table_catalog:19:-1:0:950 foreign_table_schema:19:-1:0:950 foreign_table_name:19:-1:0:950 ftoptions:1009:-1:0:950 foreign_server_catalog:19:-1:0:950 foreign_server_name:19:-1:0:950 authorization_identifier:19:-1:0:950\n\
13545|information_schema|_pg_user_mappings|v|oid:26:-1:0:0 umoptions:1009:-1:0:950 umuser:26:-1:0:0 authorization_identifier:19:-1:0:950 foreign_server_catalog:19:-1:0:950 foreign_server_name:19:-1:0:950 srvowner:19:-1:0:950\n\
13241|information_schema|administrable_role_authorizations|v|grantee:19:-1:0:950 role_name:19:-1:0:950 is_grantable:1043:7:0:100\n\
13236|information_schema|applicable_roles|v|grantee:19:-1:0:950 role_name:19:-1:0:950 is_grantable:1043:7:0:100\n\
13245|information_schema|attributes|v|udt_catalog:19:-1:0:950 udt_schema:19:-1:0:950 udt_name:19:-1:0:950 attribute_name:19:-1:0:950 ordinal_position:23:-1:0:0 attribute_default:1043:-1:0:100 is_nullable:1043:7:0:100 data_type:1043:-1:0:100 character_maximum_length:23:-1:0:0 character_octet_length:23:-1:0:0 character_set_catalog:19:-1:0:950 character_set_schema:19:-1:0:950 character_set_name:19:-1:0:950 collation_catalog:19:-1:0:950 collation_schema:19:-1:0:950 collation_name:19:-1:0:950 numeric_precision:23:-1:0:0 numeric_precision_radix:23:-1:0:0 numeric_scale:23:-1:0:0 datetime_precision:23:-1:0:0 interval_type:1043:-1:0:100 interval_precision:23:-1:0:0 attribute_udt_catalog:19:-1:0:950 attribute_udt_schema:19:-1:0:950 attribute_udt_name:19:-1:0:950 scope_catalog:19:-1:0:950 scope_schema:19:-1:0:950 scope_name:19:-1:0:950 maximum_cardinality:23:-1:0:0 dtd_identifier:19:-1:0:950 is_derived_reference_attribute:1043:7:0:100\n\
13250|information_schema|character_sets|v|character_set_catalog:19:-1:0:950 character_set_schema:19:-1:0:950 character_set_name:19:-1:0:950 character_repertoire:19:-1:0:950 form_of_use:19:-1:0:950 default_collate_catalog:19:-1:0:950 default_collate_schema:19:-1:0:950 default_collate_name:19:-1:0:950\n\
13255|information_schema|check_constraint_routine_usage|v|constraint_catalog:19:-1:0:950 constraint_schema:19:-1:0:950 constraint_name:19:-1:0:950 specific_catalog:19:-1:0:950 specific_schema:19:-1:0:950 specific_name:19:-1:0:950\n\
13260|information_schema|check_constraints|v|constraint_catalog:19:-1:0:950 constraint_schema:19:-1:0:950 constraint_name:19:-1:0:950 check_clause:1043:-1:0:100\n\
13270|information_schema|collation_character_set_applicability|v|collation_catalog:19:-1:0:950 collation_schema:19:-1:0:950 collation_name:19:-1:0:950 character_set_catalog:19:-1:0:950 character_set_schema:19:-1:0:950 character_set_name:19:-1:0:950\n\
13265|information_schema|collations|v|collation_catalog:19:-1:0:950 collation_schema:19:-1:0:950 collation_name:19:-1:0:950 pad_attribute:1043:-1:0:100\n\
13275|information_schema|column_column_usage|v|table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 column_name:19:-1:0:950 dependent_column:19:-1:0:950\n\
13280|information_schema|column_domain_usage|v|domain_catalog:19:-1:0:950 domain_schema:19:-1:0:950 domain_name:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 column_name:19:-1:0:950\n\
13503|information_schema|column_options|v|table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 column_name:19:-1:0:950 option_name:19:-1:0:950 option_value:1043:-1:0:100\n\
13285|information_schema|column_privileges|v|grantor:19:-1:0:950 grantee:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 column_name:19:-1:0:950 privilege_type:1043:-1:0:100 is_grantable:1043:7:0:100\n\
13290|information_schema|column_udt_usage|v|udt_catalog:19:-1:0:950 udt_schema:19:-1:0:950 udt_name:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 column_name:19:-1:0:950\n\
13295|information_schema|columns|v|table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 column_name:19:-1:0:950 ordinal_position:23:-1:0:0 column_default:1043:-1:0:100 is_nullable:1043:7:0:100 data_type:1043:-1:0:100 character_maximum_length:23:-1:0:0 character_octet_length:23:-1:0:0 numeric_precision:23:-1:0:0 numeric_precision_radix:23:-1:0:0 numeric_scale:23:-1:0:0 datetime_precision:23:-1:0:0 interval_type:1043:-1:0:100 interval_precision:23:-1:0:0 character_set_catalog:19:-1:0:950 character_set_schema:19:-1:0:950 character_set_name:19:-1:0:950 collation_catalog:19:-1:0:950 collation_schema:19:-1:0:950 collation_name:19:-1:0:950 domain_catalog:19:-1:0:950 domain_schema:19:-1:0:950 domain_name:19:-1:0:950 udt_catalog:19:-1:0:950 udt_schema:19:-1:0:950 udt_name:19:-1:0:950 scope_catalog:19:-1:0:950 scope_schema:19:-1:0:950 scope_name:19:-1:0:950 maximum_cardinality:23:-1:0:0 dtd_identifier:19:-1:0:950 is_self_referencing:1043:7:0:100 is_identity:1043:7:0:100 identity_generation:1043:-1:0:100 identity_start:1043:-1:0:100 identity_increment:1043:-1:0:100 identity_maximum:1043:-1:0:100 identity_minimum:1043:-1:0:100 identity_cycle:1043:7:0:100 is_generated:1043:-1:0:100 generation_expression:1043:-1:0:100 is_updatable:1043:7:0:100\n\
13300|information_schema|constraint_column_usage|v|table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 column_name:19:-1:0:950 constraint_catalog:19:-1:0:950 constraint_schema:19:-1:0:950 constraint_name:19:-1:0:950\n\
13305|information_schema|constraint_table_usage|v|table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 constraint_catalog:19:-1:0:950 constraint_schema:19:-1:0:950 constraint_name:19:-1:0:950\n\
13488|information_schema|data_type_privileges|v|object_catalog:19:-1:0:950 object_schema:19:-1:0:950 object_name:19:-1:0:950 object_type:1043:-1:0:100 dtd_identifier:19:-1:0:950\n\
13310|information_schema|domain_constraints|v|constraint_catalog:19:-1:0:950 constraint_schema:19:-1:0:950 constraint_name:19:-1:0:950 domain_catalog:19:-1:0:950 domain_schema:19:-1:0:950 domain_name:19:-1:0:950 is_deferrable:1043:7:0:100 initially_deferred:1043:7:0:100\n\
13315|information_schema|domain_udt_usage|v|udt_catalog:19:-1:0:950 udt_schema:19:-1:0:950 udt_name:19:-1:0:950 domain_catalog:19:-1:0:950 domain_schema:19:-1:0:950 domain_name:19:-1:0:950\n\
13320|information_schema|domains|v|domain_catalog:19:-1:0:950 domain_schema:19:-1:0:950 domain_name:19:-1:0:950 data_type:1043:-1:0:100 character_maximum_length:23:-1:0:0 character_octet_length:23:-1:0:0 character_set_catalog:19:-1:0:950 character_set_schema:19:-1:0:950 character_set_name:19:-1:0:950 collation_catalog:19:-1:0:950 collation_schema:19:-1:0:950 collation_name:19:-1:0:950 numeric_precision:23:-1:0:0 numeric_precision_radix:23:-1:0:0 numeric_scale:23:-1:0:0 datetime_precision:23:-1:0:0 interval_type:1043:-1:0:100 interval_precision:23:-1:0:0 domain_default:1043:-1:0:100 udt_catalog:19:-1:0:950 udt_schema:19:-1:0:950 udt_name:19:-1:0:950 scope_catalog:19:-1:0:950 scope_schema:19:-1:0:950 scope_name:19:-1:0:950 maximum_cardinality:23:-1:0:0 dtd_identifier:19:-1:0:950\n\
13493|information_schema|element_types|v|object_catalog:19:-1:0:950 object_schema:19:-1:0:950 object_name:19:-1:0:950 object_type:1043:-1:0:100 collection_type_identifier:19:-1:0:950 data_type:1043:-1:0:100 character_maximum_length:23:-1:0:0 character_octet_length:23:-1:0:0 character_set_catalog:19:-1:0:950 character_set_schema:19:-1:0:950 character_set_name:19:-1:0:950 collation_catalog:19:-1:0:950 collation_schema:19:-1:0:950 collation_name:19:-1:0:950 numeric_precision:23:-1:0:0 numeric_precision_radix:23:-1:0:0 numeric_scale:23:-1:0:0 datetime_precision:23:-1:0:0 interval_type:1043:-1:0:100 interval_precision:23:-1:0:0 domain_default:1043:-1:0:100 udt_catalog:19:-1:0:950 udt_schema:19:-1:0:950 udt_name:19:-1:0:950 scope_catalog:19:-1:0:950 scope_schema:19:-1:0:950 scope_name:19:-1:0:950 maximum_cardinality:23:-1:0:0 dtd_identifier:19:-1:0:950\n\
13325|information_schema|enabled_roles|v|role_name:19:-1:0:950\n\
13511|information_schema|foreign_data_wrapper_options|v|foreign_data_wrapper_catalog:19:-1:0:950 foreign_data_wrapper_name:19:-1:0:950 option_name:19:-1:0:950 option_value:1043:-1:0:100\n\
13515|information_schema|foreign_data_wrappers|v|foreign_data_wrapper_catalog:19:-1:0:950 foreign_data_wrapper_name:19:-1:0:950 authorization_identifier:19:-1:0:950 library_name:1043:-1:0:100 foreign_data_wrapper_language:1043:-1:0:100\n\
13524|information_schema|foreign_server_options|v|foreign_server_catalog:19:-1:0:950 foreign_server_name:19:-1:0:950 option_name:19:-1:0:950 option_value:1043:-1:0:100\n\
13528|information_schema|foreign_servers|v|foreign_server_catalog:19:-1:0:950 foreign_server_name:19:-1:0:950 foreign_data_wrapper_catalog:19:-1:0:950 foreign_data_wrapper_name:19:-1:0:950 foreign_server_type:1043:-1:0:100 foreign_server_version:1043:-1:0:100 authorization_identifier:19:-1:0:950\n\
13537|information_schema|foreign_table_options|v|foreign_table_catalog:19:-1:0:950 foreign_table_schema:19:-1:0:950 foreign_table_name:19:-1:0:950 option_name:19:-1:0:950 option_value:1043:-1:0:100\n\
13541|information_schema|foreign_tables|v|foreign_table_catalog:19:-1:0:950 foreign_table_schema:19:-1:0:950 foreign_table_name:19:-1:0:950 foreign_server_catalog:19:-1:0:950 foreign_server_name:19:-1:0:950\n\
13227|information_schema|information_schema_catalog_name|v|catalog_name:19:-1:0:950\n\
13329|information_schema|key_column_usage|v|constraint_catalog:19:-1:0:950 constraint_schema:19:-1:0:950 constraint_name:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 column_name:19:-1:0:950 ordinal_position:23:-1:0:0 position_in_unique_constraint:23:-1:0:0\n\
13334|information_schema|parameters|v|specific_catalog:19:-1:0:950 specific_schema:19:-1:0:950 specific_name:19:-1:0:950 ordinal_position:23:-1:0:0 parameter_mode:1043:-1:0:100 is_result:1043:7:0:100 as_locator:1043:7:0:100 parameter_name:19:-1:0:950 data_type:1043:-1:0:100 character_maximum_length:23:-1:0:0 character_octet_length:23:-1:0:0 character_set_catalog:19:-1:0:950 character_set_schema:19:-1:0:950 character_set_name:19:-1:0:950 collation_catalog:19:-1:0:950 collation_schema:19:-1:0:950 collation_name:19:-1:0:950 numeric_precision:23:-1:0:0 numeric_precision_radix:23:-1:0:0 numeric_scale:23:-1:0:0 datetime_precision:23:-1:0:0 interval_type:1043:-1:0:100 interval_precision:23:-1:0:0 udt_catalog:19:-1:0:950 udt_schema:19:-1:0:950 udt_name:19:-1:0:950 scope_catalog:19:-1:0:950 scope_schema:19:-1:0:950 scope_name:19:-1:0:950 maximum_cardinality:23:-1:0:0 dtd_identifier:19:-1:0:950 parameter_default:1043:-1:0:100\n\
13339|information_schema|referential_constraints|v|constraint_catalog:19:-1:0:950 constraint_schema:19:-1:0:950 constraint_name:19:-1:0:950 unique_constraint_catalog:19:-1:0:950 unique_constraint_schema:19:-1:0:950 unique_constraint_name:19:-1:0:950 match_option:1043:-1:0:100 update_rule:1043:-1:0:100 delete_rule:1043:-1:0:100\n\
13344|information_schema|role_column_grants|v|grantor:19:-1:0:950 grantee:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 column_name:19:-1:0:950 privilege_type:1043:-1:0:100 is_grantable:1043:7:0:100\n\
13358|information_schema|role_routine_grants|v|grantor:19:-1:0:950 grantee:19:-1:0:950 specific_catalog:19:-1:0:950 specific_schema:19:-1:0:950 specific_name:19:-1:0:950 routine_catalog:19:-1:0:950 routine_schema:19:-1:0:950 routine_name:19:-1:0:950 privilege_type:1043:-1:0:100 is_grantable:1043:7:0:100\n\
13421|information_schema|role_table_grants|v|grantor:19:-1:0:950 grantee:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 privilege_type:1043:-1:0:100 is_grantable:1043:7:0:100 with_hierarchy:1043:7:0:100\n\
13450|information_schema|role_udt_grants|v|grantor:19:-1:0:950 grantee:19:-1:0:950 udt_catalog:19:-1:0:950 udt_schema:19:-1:0:950 udt_name:19:-1:0:950 privilege_type:1043:-1:0:100 is_grantable:1043:7:0:100\n\
13459|information_schema|role_usage_grants|v|grantor:19:-1:0:950 grantee:19:-1:0:950 object_catalog:19:-1:0:950 object_schema:19:-1:0:950 object_name:19:-1:0:950 object_type:1043:-1:0:100 privilege_type:1043:-1:0:100 is_grantable:1043:7:0:100\n\
13348|information_schema|routine_column_usage|v|specific_catalog:19:-1:0:950 specific_schema:19:-1:0:950 specific_name:19:-1:0:950 routine_catalog:19:-1:0:950 routine_schema:19:-1:0:950 routine_name:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 column_name:19:-1:0:950\n\
13353|information_schema|routine_privileges|v|grantor:19:-1:0:950 grantee:19:-1:0:950 specific_catalog:19:-1:0:950 specific_schema:19:-1:0:950 specific_name:19:-1:0:950 routine_catalog:19:-1:0:950 routine_schema:19:-1:0:950 routine_name:19:-1:0:950 privilege_type:1043:-1:0:100 is_grantable:1043:7:0:100\n\
13362|information_schema|routine_routine_usage|v|specific_catalog:19:-1:0:950 specific_schema:19:-1:0:950 specific_name:19:-1:0:950 routine_catalog:19:-1:0:950 routine_schema:19:-1:0:950 routine_name:19:-1:0:950\n\
13367|information_schema|routine_sequence_usage|v|specific_catalog:19:-1:0:950 specific_schema:19:-1:0:950 specific_name:19:-1:0:950 routine_catalog:19:-1:0:950 routine_schema:19:-1:0:950 routine_name:19:-1:0:950 sequence_catalog:19:-1:0:950 sequence_schema:19:-1:0:950 sequence_name:19:-1:0:950\n\
13372|information_schema|routine_table_usage|v|specific_catalog:19:-1:0:950 specific_schema:19:-1:0:950 specific_name:19:-1:0:950 routine_catalog:19:-1:0:950 routine_schema:19:-1:0:950 routine_name:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950\n\
13377|information_schema|routines|v|specific_catalog:19:-1:0:950 specific_schema:19:-1:0:950 specific_name:19:-1:0:950 routine_catalog:19:-1:0:950 routine_schema:19:-1:0:950 routine_name:19:-1:0:950 routine_type:1043:-1:0:100 module_catalog:19:-1:0:950 module_schema:19:-1:0:950 module_name:19:-1:0:950 udt_catalog:19:-1:0:950 udt_schema:19:-1:0:950 udt_name:19:-1:0:950 data_type:1043:-1:0:100 character_maximum_length:23:-1:0:0 character_octet_length:23:-1:0:0 character_set_catalog:19:-1:0:950 character_set_schema:19:-1:0:950 character_set_name:19:-1:0:950 collation_catalog:19:-1:0:950 collation_schema:19:-1:0:950 collation_name:19:-1:0:950 numeric_precision:23:-1:0:0 numeric_precision_radix:23:-1:0:0 numeric_scale:23:-1:0:0 datetime_precision:23:-1:0:0 interval_type:1043:-1:0:100 interval_precision:23:-1:0:0 type_udt_catalog:19:-1:0:950 type_udt_schema:19:-1:0:950 type_udt_name:19:-1:0:950 scope_catalog:19:-1:0:950 scope_schema:19:-1:0:950 scope_name:19:-1:0:950 maximum_cardinality:23:-1:0:0 dtd_identifier:19:-1:0:950 routine_body:1043:-1:0:100 routine_definition:1043:-1:0:100 external_name:1043:-1:0:100 external_language:1043:-1:0:100 parameter_style:1043:-1:0:100 is_deterministic:1043:7:0:100 sql_data_access:1043:-1:0:100 is_null_call:1043:7:0:100 sql_path:1043:-1:0:100 schema_level_routine:1043:7:0:100 max_dynamic_result_sets:23:-1:0:0 is_user_defined_cast:1043:7:0:100 is_implicitly_invocable:1043:7:0:100 security_type:1043:-1:0:100 to_sql_specific_catalog:19:-1:0:950 to_sql_specific_schema:19:-1:0:950 to_sql_specific_name:19:-1:0:950 as_locator:1043:7:0:100 created:1184:2:0:0 last_altered:1184:2:0:0 new_savepoint_level:1043:7:0:100 is_udt_dependent:1043:7:0:100 result_cast_from_data_type:1043:-1:0:100 result_cast_as_locator:1043:7:0:100 result_cast_char_max_length:23:-1:0:0 result_cast_char_octet_length:23:-1:0:0 result_cast_char_set_catalog:19:-1:0:950 result_cast_char_set_schema:19:-1:0:950 result_cast_char_set_name:19:-1:0:950 result_cast_collation_catalog:19:-1:0:950 result_cast_collation_schema:19:-1:0:950 result_cast_collation_name:19:-1:0:950 result_cast_numeric_precision:23:-1:0:0 result_cast_numeric_precision_radix:23:-1:0:0 result_cast_numeric_scale:23:-1:0:0 result_cast_datetime_precision:23:-1:0:0 result_cast_interval_type:1043:-1:0:100 result_cast_interval_precision:23:-1:0:0 result_cast_type_udt_catalog:19:-1:0:950 result_cast_type_udt_schema:19:-1:0:950 result_cast_type_udt_name:19:-1:0:950 result_cast_scope_catalog:19:-1:0:950 result_cast_scope_schema:19:-1:0:950 result_cast_scope_name:19:-1:0:950 result_cast_maximum_cardinality:23:-1:0:0 result_cast_dtd_identifier:19:-1:0:950\n\
13382|information_schema|schemata|v|catalog_name:19:-1:0:950 schema_name:19:-1:0:950 schema_owner:19:-1:0:950 default_character_set_catalog:19:-1:0:950 default_character_set_schema:19:-1:0:950 default_character_set_name:19:-1:0:950 sql_path:1043:-1:0:100\n\
13386|information_schema|sequences|v|sequence_catalog:19:-1:0:950 sequence_schema:19:-1:0:950 sequence_name:19:-1:0:950 data_type:1043:-1:0:100 numeric_precision:23:-1:0:0 numeric_precision_radix:23:-1:0:0 numeric_scale:23:-1:0:0 start_value:1043:-1:0:100 minimum_value:1043:-1:0:100 maximum_value:1043:-1:0:100 increment:1043:-1:0:100 cycle_option:1043:7:0:100\n\
13391|information_schema|sql_features|r|feature_id:1043:-1:0:100 feature_name:1043:-1:0:100 sub_feature_id:1043:-1:0:100 sub_feature_name:1043:-1:0:100 is_supported:1043:7:0:100 is_verified_by:1043:-1:0:100 comments:1043:-1:0:100\n\
13396|information_schema|sql_implementation_info|r|implementation_info_id:1043:-1:0:100 implementation_info_name:1043:-1:0:100 integer_value:23:-1:0:0 character_value:1043:-1:0:100 comments:1043:-1:0:100\n\
13401|information_schema|sql_parts|r|feature_id:1043:-1:0:100 feature_name:1043:-1:0:100 is_supported:1043:7:0:100 is_verified_by:1043:-1:0:100 comments:1043:-1:0:100\n\
13406|information_schema|sql_sizing|r|sizing_id:23:-1:0:0 sizing_name:1043:-1:0:100 supported_value:23:-1:0:0 comments:1043:-1:0:100\n\
13411|information_schema|table_constraints|v|constraint_catalog:19:-1:0:950 constraint_schema:19:-1:0:950 constraint_name:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 constraint_type:1043:-1:0:100 is_deferrable:1043:7:0:100 initially_deferred:1043:7:0:100 enforced:1043:7:0:100 nulls_distinct:1043:7:0:100\n\
13416|information_schema|table_privileges|v|grantor:19:-1:0:950 grantee:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 privilege_type:1043:-1:0:100 is_grantable:1043:7:0:100 with_hierarchy:1043:7:0:100\n\
13425|information_schema|tables|v|table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 table_type:1043:-1:0:100 self_referencing_column_name:19:-1:0:950 reference_generation:1043:-1:0:100 user_defined_type_catalog:19:-1:0:950 user_defined_type_schema:19:-1:0:950 user_defined_type_name:19:-1:0:950 is_insertable_into:1043:7:0:100 is_typed:1043:7:0:100 commit_action:1043:-1:0:100\n\
13430|information_schema|transforms|v|udt_catalog:19:-1:0:950 udt_schema:19:-1:0:950 udt_name:19:-1:0:950 specific_catalog:19:-1:0:950 specific_schema:19:-1:0:950 specific_name:19:-1:0:950 group_name:19:-1:0:950 transform_type:1043:-1:0:100\n\
13435|information_schema|triggered_update_columns|v|trigger_catalog:19:-1:0:950 trigger_schema:19:-1:0:950 trigger_name:19:-1:0:950 event_object_catalog:19:-1:0:950 event_object_schema:19:-1:0:950 event_object_table:19:-1:0:950 event_object_column:19:-1:0:950\n\
13440|information_schema|triggers|v|trigger_catalog:19:-1:0:950 trigger_schema:19:-1:0:950 trigger_name:19:-1:0:950 event_manipulation:1043:-1:0:100 event_object_catalog:19:-1:0:950 event_object_schema:19:-1:0:950 event_object_table:19:-1:0:950 action_order:23:-1:0:0 action_condition:1043:-1:0:100 action_statement:1043:-1:0:100 action_orientation:1043:-1:0:100 action_timing:1043:-1:0:100 action_reference_old_table:19:-1:0:950 action_reference_new_table:19:-1:0:950 action_reference_old_row:19:-1:0:950 action_reference_new_row:19:-1:0:950 created:1184:2:0:0\n\
13445|information_schema|udt_privileges|v|grantor:19:-1:0:950 grantee:19:-1:0:950 udt_catalog:19:-1:0:950 udt_schema:19:-1:0:950 udt_name:19:-1:0:950 privilege_type:1043:-1:0:100 is_grantable:1043:7:0:100\n\
13454|information_schema|usage_privileges|v|grantor:19:-1:0:950 grantee:19:-1:0:950 object_catalog:19:-1:0:950 object_schema:19:-1:0:950 object_name:19:-1:0:950 object_type:1043:-1:0:100 privilege_type:1043:-1:0:100 is_grantable:1043:7:0:100\n\
13463|information_schema|user_defined_types|v|user_defined_type_catalog:19:-1:0:950 user_defined_type_schema:19:-1:0:950 user_defined_type_name:19:-1:0:950 user_defined_type_category:1043:-1:0:100 is_instantiable:1043:7:0:100 is_final:1043:7:0:100 ordering_form:1043:-1:0:100 ordering_category:1043:-1:0:100 ordering_routine_catalog:19:-1:0:950 ordering_routine_schema:19:-1:0:950 ordering_routine_name:19:-1:0:950 reference_type:1043:-1:0:100 data_type:1043:-1:0:100 character_maximum_length:23:-1:0:0 character_octet_length:23:-1:0:0 character_set_catalog:19:-1:0:950 character_set_schema:19:-1:0:950 character_set_name:19:-1:0:950 collation_catalog:19:-1:0:950 collation_schema:19:-1:0:950 collation_name:19:-1:0:950 numeric_precision:23:-1:0:0 numeric_precision_radix:23:-1:0:0 numeric_scale:23:-1:0:0 datetime_precision:23:-1:0:0 interval_type:1043:-1:0:100 interval_precision:23:-1:0:0 source_dtd_identifier:19:-1:0:950 ref_dtd_identifier:19:-1:0:950\n\
13550|information_schema|user_mapping_options|v|authorization_identifier:19:-1:0:950 foreign_server_catalog:19:-1:0:950 foreign_server_name:19:-1:0:950 option_name:19:-1:0:950 option_value:1043:-1:0:100\n\
13555|information_schema|user_mappings|v|authorization_identifier:19:-1:0:950 foreign_server_catalog:19:-1:0:950 foreign_server_name:19:-1:0:950\n\
13468|information_schema|view_column_usage|v|view_catalog:19:-1:0:950 view_schema:19:-1:0:950 view_name:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 column_name:19:-1:0:950\n\
13473|information_schema|view_routine_usage|v|table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 specific_catalog:19:-1:0:950 specific_schema:19:-1:0:950 specific_name:19:-1:0:950\n\
13478|information_schema|view_table_usage|v|view_catalog:19:-1:0:950 view_schema:19:-1:0:950 view_name:19:-1:0:950 table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950\n\
13483|information_schema|views|v|table_catalog:19:-1:0:950 table_schema:19:-1:0:950 table_name:19:-1:0:950 view_definition:1043:-1:0:100 check_option:1043:-1:0:100 is_updatable:1043:7:0:100 is_insertable_into:1043:7:0:100 is_trigger_updatable:1043:7:0:100 is_trigger_deletable:1043:7:0:100 is_trigger_insertable_into:1043:7:0:100\n\
2600|pg_catalog|pg_aggregate|r|aggfnoid:24:-1:1:0 aggkind:18:-1:1:0 aggnumdirectargs:21:-1:1:0 aggtransfn:24:-1:1:0 aggfinalfn:24:-1:1:0 aggcombinefn:24:-1:1:0 aggserialfn:24:-1:1:0 aggdeserialfn:24:-1:1:0 aggmtransfn:24:-1:1:0 aggminvtransfn:24:-1:1:0 aggmfinalfn:24:-1:1:0 aggfinalextra:16:-1:1:0 aggmfinalextra:16:-1:1:0 aggfinalmodify:18:-1:1:0 aggmfinalmodify:18:-1:1:0 aggsortop:26:-1:1:0 aggtranstype:26:-1:1:0 aggtransspace:23:-1:1:0 aggmtranstype:26:-1:1:0 aggmtransspace:23:-1:1:0 agginitval:25:-1:0:950 aggminitval:25:-1:0:950\n\
2601|pg_catalog|pg_am|r|oid:26:-1:1:0 amname:19:-1:1:950 amhandler:24:-1:1:0 amtype:18:-1:1:0\n\
2602|pg_catalog|pg_amop|r|oid:26:-1:1:0 amopfamily:26:-1:1:0 amoplefttype:26:-1:1:0 amoprighttype:26:-1:1:0 amopstrategy:21:-1:1:0 amoppurpose:18:-1:1:0 amopopr:26:-1:1:0 amopmethod:26:-1:1:0 amopsortfamily:26:-1:1:0\n\
2603|pg_catalog|pg_amproc|r|oid:26:-1:1:0 amprocfamily:26:-1:1:0 amproclefttype:26:-1:1:0 amprocrighttype:26:-1:1:0 amprocnum:21:-1:1:0 amproc:24:-1:1:0\n\
2604|pg_catalog|pg_attrdef|r|oid:26:-1:1:0 adrelid:26:-1:1:0 adnum:21:-1:1:0 adbin:194:-1:1:950\n\
1249|pg_catalog|pg_attribute|r|attrelid:26:-1:1:0 attname:19:-1:1:950 atttypid:26:-1:1:0 attstattarget:23:-1:1:0 attlen:21:-1:1:0 attnum:21:-1:1:0 attndims:23:-1:1:0 attcacheoff:23:-1:1:0 atttypmod:23:-1:1:0 attbyval:16:-1:1:0 attalign:18:-1:1:0 attstorage:18:-1:1:0 attcompression:18:-1:1:0 attnotnull:16:-1:1:0 atthasdef:16:-1:1:0 atthasmissing:16:-1:1:0 attidentity:18:-1:1:0 attgenerated:18:-1:1:0 attisdropped:16:-1:1:0 attislocal:16:-1:1:0 attinhcount:23:-1:1:0 attcollation:26:-1:1:0 attacl:1034:-1:0:0 attoptions:1009:-1:0:950 attfdwoptions:1009:-1:0:950 attmissingval:2277:-1:0:0\n\
1261|pg_catalog|pg_auth_members|r|roleid:26:-1:1:0 member:26:-1:1:0 grantor:26:-1:1:0 admin_option:16:-1:1:0\n\
1260|pg_catalog|pg_authid|r|oid:26:-1:1:0 rolname:19:-1:1:950 rolsuper:16:-1:1:0 rolinherit:16:-1:1:0 rolcreaterole:16:-1:1:0 rolcreatedb:16:-1:1:0 rolcanlogin:16:-1:1:0 rolreplication:16:-1:1:0 rolbypassrls:16:-1:1:0 rolconnlimit:23:-1:1:0 rolpassword:25:-1:0:950 rolvaliduntil:1184:-1:0:0\n\
12085|pg_catalog|pg_available_extension_versions|v|name:19:-1:0:950 version:25:-1:0:100 installed:16:-1:0:0 superuser:16:-1:0:0 trusted:16:-1:0:0 relocatable:16:-1:0:0 schema:19:-1:0:950 requires:1003:-1:0:950 comment:25:-1:0:100\n\
12081|pg_catalog|pg_available_extensions|v|name:19:-1:0:950 default_version:25:-1:0:100 installed_version:25:-1:0:950 comment:25:-1:0:100\n\
12138|pg_catalog|pg_backend_memory_contexts|v|name:25:-1:0:100 ident:25:-1:0:100 parent:25:-1:0:100 level:23:-1:0:0 total_bytes:20:-1:0:0 total_nblocks:20:-1:0:0 free_bytes:20:-1:0:0 free_chunks:20:-1:0:0 used_bytes:20:-1:0:0\n\
2605|pg_catalog|pg_cast|r|oid:26:-1:1:0 castsource:26:-1:1:0 casttarget:26:-1:1:0 castfunc:26:-1:1:0 castcontext:18:-1:1:0 castmethod:18:-1:1:0\n\
1259|pg_catalog|pg_class|r|oid:26:-1:1:0 relname:19:-1:1:950 relnamespace:26:-1:1:0 reltype:26:-1:1:0 reloftype:26:-1:1:0 relowner:26:-1:1:0 relam:26:-1:1:0 relfilenode:26:-1:1:0 reltablespace:26:-1:1:0 relpages:23:-1:1:0 reltuples:700:-1:1:0 relallvisible:23:-1:1:0 reltoastrelid:26:-1:1:0 relhasindex:16:-1:1:0 relisshared:16:-1:1:0 relpersistence:18:-1:1:0 relkind:18:-1:1:0 relnatts:21:-1:1:0 relchecks:21:-1:1:0 relhasrules:16:-1:1:0 relhastriggers:16:-1:1:0 relhassubclass:16:-1:1:0 relrowsecurity:16:-1:1:0 relforcerowsecurity:16:-1:1:0 relispopulated:16:-1:1:0 relreplident:18:-1:1:0 relispartition:16:-1:1:0 relrewrite:26:-1:1:0 relfrozenxid:28:-1:1:0 relminmxid:28:-1:1:0 relacl:1034:-1:0:0 reloptions:1009:-1:0:950 relpartbound:194:-1:0:950\n\
3456|pg_catalog|pg_collation|r|oid:26:-1:1:0 collname:19:-1:1:950 collnamespace:26:-1:1:0 collowner:26:-1:1:0 collprovider:18:-1:1:0 collisdeterministic:16:-1:1:0 collencoding:23:-1:1:0 collcollate:25:-1:0:950 collctype:25:-1:0:950 colliculocale:25:-1:0:950 collversion:25:-1:0:950\n\
12130|pg_catalog|pg_config|v|name:25:-1:0:100 setting:25:-1:0:100\n\
2606|pg_catalog|pg_constraint|r|oid:26:-1:1:0 conname:19:-1:1:950 connamespace:26:-1:1:0 contype:18:-1:1:0 condeferrable:16:-1:1:0 condeferred:16:-1:1:0 convalidated:16:-1:1:0 conrelid:26:-1:1:0 contypid:26:-1:1:0 conindid:26:-1:1:0 conparentid:26:-1:1:0 confrelid:26:-1:1:0 confupdtype:18:-1:1:0 confdeltype:18:-1:1:0 confmatchtype:18:-1:1:0 conislocal:16:-1:1:0 coninhcount:23:-1:1:0 connoinherit:16:-1:1:0 conkey:1005:-1:0:0 confkey:1005:-1:0:0 conpfeqop:1028:-1:0:0 conppeqop:1028:-1:0:0 conffeqop:1028:-1:0:0 confdelsetcols:1005:-1:0:0 conexclop:1028:-1:0:0 conbin:194:-1:0:950\n\
2607|pg_catalog|pg_conversion|r|oid:26:-1:1:0 conname:19:-1:1:950 connamespace:26:-1:1:0 conowner:26:-1:1:0 conforencoding:23:-1:1:0 contoencoding:23:-1:1:0 conproc:24:-1:1:0 condefault:16:-1:1:0\n\
12077|pg_catalog|pg_cursors|v|name:25:-1:0:100 statement:25:-1:0:100 is_holdable:16:-1:0:0 is_binary:16:-1:0:0 is_scrollable:16:-1:0:0 creation_time:1184:-1:0:0\n\
1262|pg_catalog|pg_database|r|oid:26:-1:1:0 datname:19:-1:1:950 datdba:26:-1:1:0 encoding:23:-1:1:0 datlocprovider:18:-1:1:0 datistemplate:16:-1:1:0 datallowconn:16:-1:1:0 datconnlimit:23:-1:1:0 datfrozenxid:28:-1:1:0 datminmxid:28:-1:1:0 dattablespace:26:-1:1:0 datcollate:25:-1:1:950 datctype:25:-1:1:950 daticulocale:25:-1:0:950 datcollversion:25:-1:0:950 datacl:1034:-1:0:0\n\
2964|pg_catalog|pg_db_role_setting|r|setdatabase:26:-1:1:0 setrole:26:-1:1:0 setconfig:1009:-1:0:950\n\
826|pg_catalog|pg_default_acl|r|oid:26:-1:1:0 defaclrole:26:-1:1:0 defaclnamespace:26:-1:1:0 defaclobjtype:18:-1:1:0 defaclacl:1034:-1:1:0\n\
2608|pg_catalog|pg_depend|r|classid:26:-1:1:0 objid:26:-1:1:0 objsubid:23:-1:1:0 refclassid:26:-1:1:0 refobjid:26:-1:1:0 refobjsubid:23:-1:1:0 deptype:18:-1:1:0\n\
2609|pg_catalog|pg_description|r|objoid:26:-1:1:0 classoid:26:-1:1:0 objsubid:23:-1:1:0 description:25:-1:1:950\n\
3501|pg_catalog|pg_enum|r|oid:26:-1:1:0 enumtypid:26:-1:1:0 enumsortorder:700:-1:1:0 enumlabel:19:-1:1:950\n\
3466|pg_catalog|pg_event_trigger|r|oid:26:-1:1:0 evtname:19:-1:1:950 evtevent:19:-1:1:950 evtowner:26:-1:1:0 evtfoid:26:-1:1:0 evtenabled:18:-1:1:0 evttags:1009:-1:0:950\n\
3079|pg_catalog|pg_extension|r|oid:26:-1:1:0 extname:19:-1:1:950 extowner:26:-1:1:0 extnamespace:26:-1:1:0 extrelocatable:16:-1:1:0 extversion:25:-1:1:950 extconfig:1028:-1:0:0 extcondition:1009:-1:0:950\n\
12110|pg_catalog|pg_file_settings|v|sourcefile:25:-1:0:100 sourceline:23:-1:0:0 seqno:23:-1:0:0 name:25:-1:0:100 setting:25:-1:0:100 applied:16:-1:0:0 error:25:-1:0:100\n\
2328|pg_catalog|pg_foreign_data_wrapper|r|oid:26:-1:1:0 fdwname:19:-1:1:950 fdwowner:26:-1:1:0 fdwhandler:26:-1:1:0 fdwvalidator:26:-1:1:0 fdwacl:1034:-1:0:0 fdwoptions:1009:-1:0:950\n\
1417|pg_catalog|pg_foreign_server|r|oid:26:-1:1:0 srvname:19:-1:1:950 srvowner:26:-1:1:0 srvfdw:26:-1:1:0 srvtype:25:-1:0:950 srvversion:25:-1:0:950 srvacl:1034:-1:0:0 srvoptions:1009:-1:0:950\n\
3118|pg_catalog|pg_foreign_table|r|ftrelid:26:-1:1:0 ftserver:26:-1:1:0 ftoptions:1009:-1:0:950\n\
12010|pg_catalog|pg_group|v|groname:19:-1:0:950 grosysid:26:-1:0:0 grolist:1028:-1:0:0\n\
12114|pg_catalog|pg_hba_file_rules|v|line_number:23:-1:0:0 type:25:-1:0:100 database:1009:-1:0:100 user_name:1009:-1:0:100 address:25:-1:0:100 netmask:25:-1:0:100 auth_method:25:-1:0:100 options:1009:-1:0:100 error:25:-1:0:100\n\
12118|pg_catalog|pg_ident_file_mappings|v|line_number:23:-1:0:0 map_name:25:-1:0:100 sys_name:25:-1:0:100 pg_username:25:-1:0:100 error:25:-1:0:100\n\
2610|pg_catalog|pg_index|r|indexrelid:26:-1:1:0 indrelid:26:-1:1:0 indnatts:21:-1:1:0 indnkeyatts:21:-1:1:0 indisunique:16:-1:1:0 indnullsnotdistinct:16:-1:1:0 indisprimary:16:-1:1:0 indisexclusion:16:-1:1:0 indimmediate:16:-1:1:0 indisclustered:16:-1:1:0 indisvalid:16:-1:1:0 indcheckxmin:16:-1:1:0 indisready:16:-1:1:0 indislive:16:-1:1:0 indisreplident:16:-1:1:0 indkey:22:-1:1:0 indcollation:30:-1:1:0 indclass:30:-1:1:0 indoption:22:-1:1:0 indexprs:194:-1:0:950 indpred:194:-1:0:950\n\
12043|pg_catalog|pg_indexes|v|schemaname:19:-1:0:950 tablename:19:-1:0:950 indexname:19:-1:0:950 tablespace:19:-1:0:950 indexdef:25:-1:0:100\n\
2611|pg_catalog|pg_inherits|r|inhrelid:26:-1:1:0 inhparent:26:-1:1:0 inhseqno:23:-1:1:0 inhdetachpending:16:-1:1:0\n\
3394|pg_catalog|pg_init_privs|r|objoid:26:-1:1:0 classoid:26:-1:1:0 objsubid:23:-1:1:0 privtype:18:-1:1:0 initprivs:1034:-1:1:0\n\
2612|pg_catalog|pg_language|r|oid:26:-1:1:0 lanname:19:-1:1:950 lanowner:26:-1:1:0 lanispl:16:-1:1:0 lanpltrusted:16:-1:1:0 lanplcallfoid:26:-1:1:0 laninline:26:-1:1:0 lanvalidator:26:-1:1:0 lanacl:1034:-1:0:0\n\
2613|pg_catalog|pg_largeobject|r|loid:26:-1:1:0 pageno:23:-1:1:0 data:17:-1:1:0\n\
2995|pg_catalog|pg_largeobject_metadata|r|oid:26:-1:1:0 lomowner:26:-1:1:0 lomacl:1034:-1:0:0\n\
12073|pg_catalog|pg_locks|v|locktype:25:-1:0:100 database:26:-1:0:0 relation:26:-1:0:0 page:23:-1:0:0 tuple:21:-1:0:0 virtualxid:25:-1:0:100 transactionid:28:-1:0:0 classid:26:-1:0:0 objid:26:-1:0:0 objsubid:21:-1:0:0 virtualtransaction:25:-1:0:100 pid:23:-1:0:0 mode:25:-1:0:100 granted:16:-1:0:0 fastpath:16:-1:0:0 waitstart:1184:-1:0:0\n\
12038|pg_catalog|pg_matviews|v|schemaname:19:-1:0:950 matviewname:19:-1:0:950 matviewowner:19:-1:0:950 tablespace:19:-1:0:950 hasindexes:16:-1:0:0 ispopulated:16:-1:0:0 definition:25:-1:0:100\n\
2615|pg_catalog|pg_namespace|r|oid:26:-1:1:0 nspname:19:-1:1:950 nspowner:26:-1:1:0 nspacl:1034:-1:0:0\n\
2616|pg_catalog|pg_opclass|r|oid:26:-1:1:0 opcmethod:26:-1:1:0 opcname:19:-1:1:950 opcnamespace:26:-1:1:0 opcowner:26:-1:1:0 opcfamily:26:-1:1:0 opcintype:26:-1:1:0 opcdefault:16:-1:1:0 opckeytype:26:-1:1:0\n\
2617|pg_catalog|pg_operator|r|oid:26:-1:1:0 oprname:19:-1:1:950 oprnamespace:26:-1:1:0 oprowner:26:-1:1:0 oprkind:18:-1:1:0 oprcanmerge:16:-1:1:0 oprcanhash:16:-1:1:0 oprleft:26:-1:1:0 oprright:26:-1:1:0 oprresult:26:-1:1:0 oprcom:26:-1:1:0 oprnegate:26:-1:1:0 oprcode:24:-1:1:0 oprrest:24:-1:1:0 oprjoin:24:-1:1:0\n\
2753|pg_catalog|pg_opfamily|r|oid:26:-1:1:0 opfmethod:26:-1:1:0 opfname:19:-1:1:950 opfnamespace:26:-1:1:0 opfowner:26:-1:1:0\n\
6243|pg_catalog|pg_parameter_acl|r|oid:26:-1:1:0 parname:25:-1:1:950 paracl:1034:-1:0:0\n\
3350|pg_catalog|pg_partitioned_table|r|partrelid:26:-1:1:0 partstrat:18:-1:1:0 partnatts:21:-1:1:0 partdefid:26:-1:1:0 partattrs:22:-1:1:0 partclass:30:-1:1:0 partcollation:30:-1:1:0 partexprs:194:-1:0:950\n\
12018|pg_catalog|pg_policies|v|schemaname:19:-1:0:950 tablename:19:-1:0:950 policyname:19:-1:0:950 permissive:25:-1:0:100 roles:1003:-1:0:950 cmd:25:-1:0:100 qual:25:-1:0:950 with_check:25:-1:0:950\n\
3256|pg_catalog|pg_policy|r|oid:26:-1:1:0 polname:19:-1:1:950 polrelid:26:-1:1:0 polcmd:18:-1:1:0 polpermissive:16:-1:1:0 polroles:1028:-1:1:0 polqual:194:-1:0:950 polwithcheck:194:-1:0:950\n\
12095|pg_catalog|pg_prepared_statements|v|name:25:-1:0:100 statement:25:-1:0:100 prepare_time:1184:-1:0:0 parameter_types:2211:-1:0:0 from_sql:16:-1:0:0 generic_plans:20:-1:0:0 custom_plans:20:-1:0:0\n\
12090|pg_catalog|pg_prepared_xacts|v|transaction:28:-1:0:0 gid:25:-1:0:100 prepared:1184:-1:0:0 owner:19:-1:0:950 database:19:-1:0:950\n\
1255|pg_catalog|pg_proc|r|oid:26:-1:1:0 proname:19:-1:1:950 pronamespace:26:-1:1:0 proowner:26:-1:1:0 prolang:26:-1:1:0 procost:700:-1:1:0 prorows:700:-1:1:0 provariadic:26:-1:1:0 prosupport:24:-1:1:0 prokind:18:-1:1:0 prosecdef:16:-1:1:0 proleakproof:16:-1:1:0 proisstrict:16:-1:1:0 proretset:16:-1:1:0 provolatile:18:-1:1:0 proparallel:18:-1:1:0 pronargs:21:-1:1:0 pronargdefaults:21:-1:1:0 prorettype:26:-1:1:0 proargtypes:30:-1:1:0 proallargtypes:1028:-1:0:0 proargmodes:1002:-1:0:0 proargnames:1009:-1:0:950 proargdefaults:194:-1:0:950 protrftypes:1028:-1:0:0 prosrc:25:-1:1:950 probin:25:-1:0:950 prosqlbody:194:-1:0:950 proconfig:1009:-1:0:950 proacl:1034:-1:0:0\n\
6104|pg_catalog|pg_publication|r|oid:26:-1:1:0 pubname:19:-1:1:950 pubowner:26:-1:1:0 puballtables:16:-1:1:0 pubinsert:16:-1:1:0 pubupdate:16:-1:1:0 pubdelete:16:-1:1:0 pubtruncate:16:-1:1:0 pubviaroot:16:-1:1:0\n\
6237|pg_catalog|pg_publication_namespace|r|oid:26:-1:1:0 pnpubid:26:-1:1:0 pnnspid:26:-1:1:0\n\
6106|pg_catalog|pg_publication_rel|r|oid:26:-1:1:0 prpubid:26:-1:1:0 prrelid:26:-1:1:0 prqual:194:-1:0:950 prattrs:22:-1:0:0\n\
12068|pg_catalog|pg_publication_tables|v|pubname:19:-1:0:950 schemaname:19:-1:0:950 tablename:19:-1:0:950 attnames:1003:-1:0:950 rowfilter:25:-1:0:100\n\
3541|pg_catalog|pg_range|r|rngtypid:26:-1:1:0 rngsubtype:26:-1:1:0 rngmultitypid:26:-1:1:0 rngcollation:26:-1:1:0 rngsubopc:26:-1:1:0 rngcanonical:24:-1:1:0 rngsubdiff:24:-1:1:0\n\
6000|pg_catalog|pg_replication_origin|r|roident:26:-1:1:0 roname:25:-1:1:950\n\
12332|pg_catalog|pg_replication_origin_status|v|local_id:26:-1:0:0 external_id:25:-1:0:100 remote_lsn:3220:-1:0:0 local_lsn:3220:-1:0:0\n\
12257|pg_catalog|pg_replication_slots|v|slot_name:19:-1:0:950 plugin:19:-1:0:950 slot_type:25:-1:0:100 datoid:26:-1:0:0 database:19:-1:0:950 temporary:16:-1:0:0 active:16:-1:0:0 active_pid:23:-1:0:0 xmin:28:-1:0:0 catalog_xmin:28:-1:0:0 restart_lsn:3220:-1:0:0 confirmed_flush_lsn:3220:-1:0:0 wal_status:25:-1:0:100 safe_wal_size:20:-1:0:0 two_phase:16:-1:0:0\n\
2618|pg_catalog|pg_rewrite|r|oid:26:-1:1:0 rulename:19:-1:1:950 ev_class:26:-1:1:0 ev_type:18:-1:1:0 ev_enabled:18:-1:1:0 is_instead:16:-1:1:0 ev_qual:194:-1:1:950 ev_action:194:-1:1:950\n\
12000|pg_catalog|pg_roles|v|rolname:19:-1:0:950 rolsuper:16:-1:0:0 rolinherit:16:-1:0:0 rolcreaterole:16:-1:0:0 rolcreatedb:16:-1:0:0 rolcanlogin:16:-1:0:0 rolreplication:16:-1:0:0 rolconnlimit:23:-1:0:0 rolpassword:25:-1:0:100 rolvaliduntil:1184:-1:0:0 rolbypassrls:16:-1:0:0 rolconfig:1009:-1:0:950 oid:26:-1:0:0\n\
12023|pg_catalog|pg_rules|v|schemaname:19:-1:0:950 tablename:19:-1:0:950 rulename:19:-1:0:950 definition:25:-1:0:100\n\
3596|pg_catalog|pg_seclabel|r|objoid:26:-1:1:0 classoid:26:-1:1:0 objsubid:23:-1:1:0 provider:25:-1:1:950 label:25:-1:1:950\n\
12099|pg_catalog|pg_seclabels|v|objoid:26:-1:0:0 classoid:26:-1:0:0 objsubid:23:-1:0:0 objtype:25:-1:0:100 objnamespace:26:-1:0:0 objname:25:-1:0:950 provider:25:-1:0:950 label:25:-1:0:950\n\
2224|pg_catalog|pg_sequence|r|seqrelid:26:-1:1:0 seqtypid:26:-1:1:0 seqstart:20:-1:1:0 seqincrement:20:-1:1:0 seqmax:20:-1:1:0 seqmin:20:-1:1:0 seqcache:20:-1:1:0 seqcycle:16:-1:1:0\n\
12048|pg_catalog|pg_sequences|v|schemaname:19:-1:0:950 sequencename:19:-1:0:950 sequenceowner:19:-1:0:950 data_type:2206:-1:0:0 start_value:20:-1:0:0 min_value:20:-1:0:0 max_value:20:-1:0:0 increment_by:20:-1:0:0 cycle:16:-1:0:0 cache_size:20:-1:0:0 last_value:20:-1:0:0\n\
12104|pg_catalog|pg_settings|v|name:25:-1:0:100 setting:25:-1:0:100 unit:25:-1:0:100 category:25:-1:0:100 short_desc:25:-1:0:100 extra_desc:25:-1:0:100 context:25:-1:0:100 vartype:25:-1:0:100 source:25:-1:0:100 min_val:25:-1:0:100 max_val:25:-1:0:100 enumvals:1009:-1:0:100 boot_val:25:-1:0:100 reset_val:25:-1:0:100 sourcefile:25:-1:0:100 sourceline:23:-1:0:0 pending_restart:16:-1:0:0\n\
12005|pg_catalog|pg_shadow|v|usename:19:-1:0:950 usesysid:26:-1:0:0 usecreatedb:16:-1:0:0 usesuper:16:-1:0:0 userepl:16:-1:0:0 usebypassrls:16:-1:0:0 passwd:25:-1:0:950 valuntil:1184:-1:0:0 useconfig:1009:-1:0:950\n\
1214|pg_catalog|pg_shdepend|r|dbid:26:-1:1:0 classid:26:-1:1:0 objid:26:-1:1:0 objsubid:23:-1:1:0 refclassid:26:-1:1:0 refobjid:26:-1:1:0 deptype:18:-1:1:0\n\
2396|pg_catalog|pg_shdescription|r|objoid:26:-1:1:0 classoid:26:-1:1:0 description:25:-1:1:950\n\
12134|pg_catalog|pg_shmem_allocations|v|name:25:-1:0:100 off:20:-1:0:0 size:20:-1:0:0 allocated_size:20:-1:0:0\n\
3592|pg_catalog|pg_shseclabel|r|objoid:26:-1:1:0 classoid:26:-1:1:0 provider:25:-1:1:950 label:25:-1:1:950\n\
12222|pg_catalog|pg_stat_activity|v|datid:26:-1:0:0 datname:19:-1:0:950 pid:23:-1:0:0 leader_pid:23:-1:0:0 usesysid:26:-1:0:0 usename:19:-1:0:950 application_name:25:-1:0:100 client_addr:869:-1:0:0 client_hostname:25:-1:0:100 client_port:23:-1:0:0 backend_start:1184:-1:0:0 xact_start:1184:-1:0:0 query_start:1184:-1:0:0 state_change:1184:-1:0:0 wait_event_type:25:-1:0:100 wait_event:25:-1:0:100 state:25:-1:0:100 backend_xid:28:-1:0:0 backend_xmin:28:-1:0:0 query_id:20:-1:0:0 query:25:-1:0:100 backend_type:25:-1:0:100\n\
12183|pg_catalog|pg_stat_all_indexes|v|relid:26:-1:0:0 indexrelid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 indexrelname:19:-1:0:950 idx_scan:20:-1:0:0 idx_tup_read:20:-1:0:0 idx_tup_fetch:20:-1:0:0\n\
12142|pg_catalog|pg_stat_all_tables|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 seq_scan:20:-1:0:0 seq_tup_read:20:-1:0:0 idx_scan:20:-1:0:0 idx_tup_fetch:20:-1:0:0 n_tup_ins:20:-1:0:0 n_tup_upd:20:-1:0:0 n_tup_del:20:-1:0:0 n_tup_hot_upd:20:-1:0:0 n_live_tup:20:-1:0:0 n_dead_tup:20:-1:0:0 n_mod_since_analyze:20:-1:0:0 n_ins_since_vacuum:20:-1:0:0 last_vacuum:1184:-1:0:0 last_autovacuum:1184:-1:0:0 last_analyze:1184:-1:0:0 last_autoanalyze:1184:-1:0:0 vacuum_count:20:-1:0:0 autovacuum_count:20:-1:0:0 analyze_count:20:-1:0:0 autoanalyze_count:20:-1:0:0\n\
12285|pg_catalog|pg_stat_archiver|v|archived_count:20:-1:0:0 last_archived_wal:25:-1:0:100 last_archived_time:1184:-1:0:0 failed_count:20:-1:0:0 last_failed_wal:25:-1:0:100 last_failed_time:1184:-1:0:0 stats_reset:1184:-1:0:0\n\
12289|pg_catalog|pg_stat_bgwriter|v|checkpoints_timed:20:-1:0:0 checkpoints_req:20:-1:0:0 checkpoint_write_time:701:-1:0:0 checkpoint_sync_time:701:-1:0:0 buffers_checkpoint:20:-1:0:0 buffers_clean:20:-1:0:0 maxwritten_clean:20:-1:0:0 buffers_backend:20:-1:0:0 buffers_backend_fsync:20:-1:0:0 buffers_alloc:20:-1:0:0 stats_reset:1184:-1:0:0\n\
12266|pg_catalog|pg_stat_database|v|datid:26:-1:0:0 datname:19:-1:0:950 numbackends:23:-1:0:0 xact_commit:20:-1:0:0 xact_rollback:20:-1:0:0 blks_read:20:-1:0:0 blks_hit:20:-1:0:0 tup_returned:20:-1:0:0 tup_fetched:20:-1:0:0 tup_inserted:20:-1:0:0 tup_updated:20:-1:0:0 tup_deleted:20:-1:0:0 conflicts:20:-1:0:0 temp_files:20:-1:0:0 temp_bytes:20:-1:0:0 deadlocks:20:-1:0:0 checksum_failures:20:-1:0:0 checksum_last_failure:1184:-1:0:0 blk_read_time:701:-1:0:0 blk_write_time:701:-1:0:0 session_time:701:-1:0:0 active_time:701:-1:0:0 idle_in_transaction_time:701:-1:0:0 sessions:20:-1:0:0 sessions_abandoned:20:-1:0:0 sessions_fatal:20:-1:0:0 sessions_killed:20:-1:0:0 stats_reset:1184:-1:0:0\n\
12271|pg_catalog|pg_stat_database_conflicts|v|datid:26:-1:0:0 datname:19:-1:0:950 confl_tablespace:20:-1:0:0 confl_lock:20:-1:0:0 confl_snapshot:20:-1:0:0 confl_bufferpin:20:-1:0:0 confl_deadlock:20:-1:0:0\n\
12253|pg_catalog|pg_stat_gssapi|v|pid:23:-1:0:0 gss_authenticated:16:-1:0:0 principal:25:-1:0:100 encrypted:16:-1:0:0\n\
12297|pg_catalog|pg_stat_progress_analyze|v|pid:23:-1:0:0 datid:26:-1:0:0 datname:19:-1:0:950 relid:26:-1:0:0 phase:25:-1:0:100 sample_blks_total:20:-1:0:0 sample_blks_scanned:20:-1:0:0 ext_stats_total:20:-1:0:0 ext_stats_computed:20:-1:0:0 child_tables_total:20:-1:0:0 child_tables_done:20:-1:0:0 current_child_table_relid:26:-1:0:0\n\
12317|pg_catalog|pg_stat_progress_basebackup|v|pid:23:-1:0:0 phase:25:-1:0:100 backup_total:20:-1:0:0 backup_streamed:20:-1:0:0 tablespaces_total:20:-1:0:0 tablespaces_streamed:20:-1:0:0\n\
12307|pg_catalog|pg_stat_progress_cluster|v|pid:23:-1:0:0 datid:26:-1:0:0 datname:19:-1:0:950 relid:26:-1:0:0 command:25:-1:0:100 phase:25:-1:0:100 cluster_index_relid:26:-1:0:0 heap_tuples_scanned:20:-1:0:0 heap_tuples_written:20:-1:0:0 heap_blks_total:20:-1:0:0 heap_blks_scanned:20:-1:0:0 index_rebuild_count:20:-1:0:0\n\
12322|pg_catalog|pg_stat_progress_copy|v|pid:23:-1:0:0 datid:26:-1:0:0 datname:19:-1:0:950 relid:26:-1:0:0 command:25:-1:0:100 type:25:-1:0:100 bytes_processed:20:-1:0:0 bytes_total:20:-1:0:0 tuples_processed:20:-1:0:0 tuples_excluded:20:-1:0:0\n\
12312|pg_catalog|pg_stat_progress_create_index|v|pid:23:-1:0:0 datid:26:-1:0:0 datname:19:-1:0:950 relid:26:-1:0:0 index_relid:26:-1:0:0 command:25:-1:0:100 phase:25:-1:0:100 lockers_total:20:-1:0:0 lockers_done:20:-1:0:0 current_locker_pid:20:-1:0:0 blocks_total:20:-1:0:0 blocks_done:20:-1:0:0 tuples_total:20:-1:0:0 tuples_done:20:-1:0:0 partitions_total:20:-1:0:0 partitions_done:20:-1:0:0\n\
12302|pg_catalog|pg_stat_progress_vacuum|v|pid:23:-1:0:0 datid:26:-1:0:0 datname:19:-1:0:950 relid:26:-1:0:0 phase:25:-1:0:100 heap_blks_total:20:-1:0:0 heap_blks_scanned:20:-1:0:0 heap_blks_vacuumed:20:-1:0:0 index_vacuum_count:20:-1:0:0 max_dead_tuples:20:-1:0:0 num_dead_tuples:20:-1:0:0\n\
12240|pg_catalog|pg_stat_recovery_prefetch|v|stats_reset:1184:-1:0:0 prefetch:20:-1:0:0 hit:20:-1:0:0 skip_init:20:-1:0:0 skip_new:20:-1:0:0 skip_fpw:20:-1:0:0 skip_rep:20:-1:0:0 wal_distance:23:-1:0:0 block_distance:23:-1:0:0 io_depth:23:-1:0:0\n\
12227|pg_catalog|pg_stat_replication|v|pid:23:-1:0:0 usesysid:26:-1:0:0 usename:19:-1:0:950 application_name:25:-1:0:100 client_addr:869:-1:0:0 client_hostname:25:-1:0:100 client_port:23:-1:0:0 backend_start:1184:-1:0:0 backend_xmin:28:-1:0:0 state:25:-1:0:100 sent_lsn:3220:-1:0:0 write_lsn:3220:-1:0:0 flush_lsn:3220:-1:0:0 replay_lsn:3220:-1:0:0 write_lag:1186:-1:0:0 flush_lag:1186:-1:0:0 replay_lag:1186:-1:0:0 sync_priority:23:-1:0:0 sync_state:25:-1:0:100 reply_time:1184:-1:0:0\n\
12262|pg_catalog|pg_stat_replication_slots|v|slot_name:25:-1:0:100 spill_txns:20:-1:0:0 spill_count:20:-1:0:0 spill_bytes:20:-1:0:0 stream_txns:20:-1:0:0 stream_count:20:-1:0:0 stream_bytes:20:-1:0:0 total_txns:20:-1:0:0 total_bytes:20:-1:0:0 stats_reset:1184:-1:0:0\n\
12232|pg_catalog|pg_stat_slru|v|name:25:-1:0:100 blks_zeroed:20:-1:0:0 blks_hit:20:-1:0:0 blks_read:20:-1:0:0 blks_written:20:-1:0:0 blks_exists:20:-1:0:0 flushes:20:-1:0:0 truncates:20:-1:0:0 stats_reset:1184:-1:0:0\n\
12249|pg_catalog|pg_stat_ssl|v|pid:23:-1:0:0 ssl:16:-1:0:0 version:25:-1:0:100 cipher:25:-1:0:100 bits:23:-1:0:0 client_dn:25:-1:0:100 client_serial:1700:-1:0:0 issuer_dn:25:-1:0:100\n\
12244|pg_catalog|pg_stat_subscription|v|subid:26:-1:0:0 subname:19:-1:0:950 pid:23:-1:0:0 relid:26:-1:0:0 received_lsn:3220:-1:0:0 last_msg_send_time:1184:-1:0:0 last_msg_receipt_time:1184:-1:0:0 latest_end_lsn:3220:-1:0:0 latest_end_time:1184:-1:0:0\n\
12336|pg_catalog|pg_stat_subscription_stats|v|subid:26:-1:0:0 subname:19:-1:0:950 apply_error_count:20:-1:0:0 sync_error_count:20:-1:0:0 stats_reset:1184:-1:0:0\n\
12188|pg_catalog|pg_stat_sys_indexes|v|relid:26:-1:0:0 indexrelid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 indexrelname:19:-1:0:950 idx_scan:20:-1:0:0 idx_tup_read:20:-1:0:0 idx_tup_fetch:20:-1:0:0\n\
12152|pg_catalog|pg_stat_sys_tables|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 seq_scan:20:-1:0:0 seq_tup_read:20:-1:0:0 idx_scan:20:-1:0:0 idx_tup_fetch:20:-1:0:0 n_tup_ins:20:-1:0:0 n_tup_upd:20:-1:0:0 n_tup_del:20:-1:0:0 n_tup_hot_upd:20:-1:0:0 n_live_tup:20:-1:0:0 n_dead_tup:20:-1:0:0 n_mod_since_analyze:20:-1:0:0 n_ins_since_vacuum:20:-1:0:0 last_vacuum:1184:-1:0:0 last_autovacuum:1184:-1:0:0 last_analyze:1184:-1:0:0 last_autoanalyze:1184:-1:0:0 vacuum_count:20:-1:0:0 autovacuum_count:20:-1:0:0 analyze_count:20:-1:0:0 autoanalyze_count:20:-1:0:0\n\
12275|pg_catalog|pg_stat_user_functions|v|funcid:26:-1:0:0 schemaname:19:-1:0:950 funcname:19:-1:0:950 calls:20:-1:0:0 total_time:701:-1:0:0 self_time:701:-1:0:0\n\
12192|pg_catalog|pg_stat_user_indexes|v|relid:26:-1:0:0 indexrelid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 indexrelname:19:-1:0:950 idx_scan:20:-1:0:0 idx_tup_read:20:-1:0:0 idx_tup_fetch:20:-1:0:0\n\
12161|pg_catalog|pg_stat_user_tables|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 seq_scan:20:-1:0:0 seq_tup_read:20:-1:0:0 idx_scan:20:-1:0:0 idx_tup_fetch:20:-1:0:0 n_tup_ins:20:-1:0:0 n_tup_upd:20:-1:0:0 n_tup_del:20:-1:0:0 n_tup_hot_upd:20:-1:0:0 n_live_tup:20:-1:0:0 n_dead_tup:20:-1:0:0 n_mod_since_analyze:20:-1:0:0 n_ins_since_vacuum:20:-1:0:0 last_vacuum:1184:-1:0:0 last_autovacuum:1184:-1:0:0 last_analyze:1184:-1:0:0 last_autoanalyze:1184:-1:0:0 vacuum_count:20:-1:0:0 autovacuum_count:20:-1:0:0 analyze_count:20:-1:0:0 autoanalyze_count:20:-1:0:0\n\
12293|pg_catalog|pg_stat_wal|v|wal_records:20:-1:0:0 wal_fpi:20:-1:0:0 wal_bytes:1700:-1:0:0 wal_buffers_full:20:-1:0:0 wal_write:20:-1:0:0 wal_sync:20:-1:0:0 wal_write_time:701:-1:0:0 wal_sync_time:701:-1:0:0 stats_reset:1184:-1:0:0\n\
12236|pg_catalog|pg_stat_wal_receiver|v|pid:23:-1:0:0 status:25:-1:0:100 receive_start_lsn:3220:-1:0:0 receive_start_tli:23:-1:0:0 written_lsn:3220:-1:0:0 flushed_lsn:3220:-1:0:0 received_tli:23:-1:0:0 last_msg_send_time:1184:-1:0:0 last_msg_receipt_time:1184:-1:0:0 latest_end_lsn:3220:-1:0:0 latest_end_time:1184:-1:0:0 slot_name:25:-1:0:100 sender_host:25:-1:0:100 sender_port:23:-1:0:0 conninfo:25:-1:0:100\n\
12147|pg_catalog|pg_stat_xact_all_tables|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 seq_scan:20:-1:0:0 seq_tup_read:20:-1:0:0 idx_scan:20:-1:0:0 idx_tup_fetch:20:-1:0:0 n_tup_ins:20:-1:0:0 n_tup_upd:20:-1:0:0 n_tup_del:20:-1:0:0 n_tup_hot_upd:20:-1:0:0\n\
12157|pg_catalog|pg_stat_xact_sys_tables|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 seq_scan:20:-1:0:0 seq_tup_read:20:-1:0:0 idx_scan:20:-1:0:0 idx_tup_fetch:20:-1:0:0 n_tup_ins:20:-1:0:0 n_tup_upd:20:-1:0:0 n_tup_del:20:-1:0:0 n_tup_hot_upd:20:-1:0:0\n\
12280|pg_catalog|pg_stat_xact_user_functions|v|funcid:26:-1:0:0 schemaname:19:-1:0:950 funcname:19:-1:0:950 calls:20:-1:0:0 total_time:701:-1:0:0 self_time:701:-1:0:0\n\
12166|pg_catalog|pg_stat_xact_user_tables|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 seq_scan:20:-1:0:0 seq_tup_read:20:-1:0:0 idx_scan:20:-1:0:0 idx_tup_fetch:20:-1:0:0 n_tup_ins:20:-1:0:0 n_tup_upd:20:-1:0:0 n_tup_del:20:-1:0:0 n_tup_hot_upd:20:-1:0:0\n\
12196|pg_catalog|pg_statio_all_indexes|v|relid:26:-1:0:0 indexrelid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 indexrelname:19:-1:0:950 idx_blks_read:20:-1:0:0 idx_blks_hit:20:-1:0:0\n\
12209|pg_catalog|pg_statio_all_sequences|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 blks_read:20:-1:0:0 blks_hit:20:-1:0:0\n\
12170|pg_catalog|pg_statio_all_tables|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 heap_blks_read:20:-1:0:0 heap_blks_hit:20:-1:0:0 idx_blks_read:20:-1:0:0 idx_blks_hit:20:-1:0:0 toast_blks_read:20:-1:0:0 toast_blks_hit:20:-1:0:0 tidx_blks_read:20:-1:0:0 tidx_blks_hit:20:-1:0:0\n\
12201|pg_catalog|pg_statio_sys_indexes|v|relid:26:-1:0:0 indexrelid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 indexrelname:19:-1:0:950 idx_blks_read:20:-1:0:0 idx_blks_hit:20:-1:0:0\n\
12214|pg_catalog|pg_statio_sys_sequences|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 blks_read:20:-1:0:0 blks_hit:20:-1:0:0\n\
12175|pg_catalog|pg_statio_sys_tables|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 heap_blks_read:20:-1:0:0 heap_blks_hit:20:-1:0:0 idx_blks_read:20:-1:0:0 idx_blks_hit:20:-1:0:0 toast_blks_read:20:-1:0:0 toast_blks_hit:20:-1:0:0 tidx_blks_read:20:-1:0:0 tidx_blks_hit:20:-1:0:0\n\
12205|pg_catalog|pg_statio_user_indexes|v|relid:26:-1:0:0 indexrelid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 indexrelname:19:-1:0:950 idx_blks_read:20:-1:0:0 idx_blks_hit:20:-1:0:0\n\
12218|pg_catalog|pg_statio_user_sequences|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 blks_read:20:-1:0:0 blks_hit:20:-1:0:0\n\
12179|pg_catalog|pg_statio_user_tables|v|relid:26:-1:0:0 schemaname:19:-1:0:950 relname:19:-1:0:950 heap_blks_read:20:-1:0:0 heap_blks_hit:20:-1:0:0 idx_blks_read:20:-1:0:0 idx_blks_hit:20:-1:0:0 toast_blks_read:20:-1:0:0 toast_blks_hit:20:-1:0:0 tidx_blks_read:20:-1:0:0 tidx_blks_hit:20:-1:0:0\n\
2619|pg_catalog|pg_statistic|r|starelid:26:-1:1:0 staattnum:21:-1:1:0 stainherit:16:-1:1:0 stanullfrac:700:-1:1:0 stawidth:23:-1:1:0 stadistinct:700:-1:1:0 stakind1:21:-1:1:0 stakind2:21:-1:1:0 stakind3:21:-1:1:0 stakind4:21:-1:1:0 stakind5:21:-1:1:0 staop1:26:-1:1:0 staop2:26:-1:1:0 staop3:26:-1:1:0 staop4:26:-1:1:0 staop5:26:-1:1:0 stacoll1:26:-1:1:0 stacoll2:26:-1:1:0 stacoll3:26:-1:1:0 stacoll4:26:-1:1:0 stacoll5:26:-1:1:0 stanumbers1:1021:-1:0:0 stanumbers2:1021:-1:0:0 stanumbers3:1021:-1:0:0 stanumbers4:1021:-1:0:0 stanumbers5:1021:-1:0:0 stavalues1:2277:-1:0:0 stavalues2:2277:-1:0:0 stavalues3:2277:-1:0:0 stavalues4:2277:-1:0:0 stavalues5:2277:-1:0:0\n\
3381|pg_catalog|pg_statistic_ext|r|oid:26:-1:1:0 stxrelid:26:-1:1:0 stxname:19:-1:1:950 stxnamespace:26:-1:1:0 stxowner:26:-1:1:0 stxstattarget:23:-1:1:0 stxkeys:22:-1:1:0 stxkind:1002:-1:1:0 stxexprs:194:-1:0:950\n\
3429|pg_catalog|pg_statistic_ext_data|r|stxoid:26:-1:1:0 stxdinherit:16:-1:1:0 stxdndistinct:3361:-1:0:950 stxddependencies:3402:-1:0:950 stxdmcv:5017:-1:0:950 stxdexpr:10028:-1:0:0\n\
12053|pg_catalog|pg_stats|v|schemaname:19:-1:0:950 tablename:19:-1:0:950 attname:19:-1:0:950 inherited:16:-1:0:0 null_frac:700:-1:0:0 avg_width:23:-1:0:0 n_distinct:700:-1:0:0 most_common_vals:2277:-1:0:0 most_common_freqs:1021:-1:0:0 histogram_bounds:2277:-1:0:0 correlation:700:-1:0:0 most_common_elems:2277:-1:0:0 most_common_elem_freqs:1021:-1:0:0 elem_count_histogram:1021:-1:0:0\n\
12058|pg_catalog|pg_stats_ext|v|schemaname:19:-1:0:950 tablename:19:-1:0:950 statistics_schemaname:19:-1:0:950 statistics_name:19:-1:0:950 statistics_owner:19:-1:0:950 attnames:1003:-1:0:950 exprs:1009:-1:0:100 kinds:1002:-1:0:0 inherited:16:-1:0:0 n_distinct:3361:-1:0:950 dependencies:3402:-1:0:950 most_common_vals:1009:-1:0:100 most_common_val_nulls:1000:-1:0:0 most_common_freqs:1022:-1:0:0 most_common_base_freqs:1022:-1:0:0\n\
12063|pg_catalog|pg_stats_ext_exprs|v|schemaname:19:-1:0:950 tablename:19:-1:0:950 statistics_schemaname:19:-1:0:950 statistics_name:19:-1:0:950 statistics_owner:19:-1:0:950 expr:25:-1:0:100 inherited:16:-1:0:0 null_frac:700:-1:0:0 avg_width:23:-1:0:0 n_distinct:700:-1:0:0 most_common_vals:2277:-1:0:0 most_common_freqs:1021:-1:0:0 histogram_bounds:2277:-1:0:0 correlation:700:-1:0:0 most_common_elems:2277:-1:0:0 most_common_elem_freqs:1021:-1:0:0 elem_count_histogram:1021:-1:0:0\n\
6100|pg_catalog|pg_subscription|r|oid:26:-1:1:0 subdbid:26:-1:1:0 subskiplsn:3220:-1:1:0 subname:19:-1:1:950 subowner:26:-1:1:0 subenabled:16:-1:1:0 subbinary:16:-1:1:0 substream:16:-1:1:0 subtwophasestate:18:-1:1:0 subdisableonerr:16:-1:1:0 subconninfo:25:-1:1:950 subslotname:19:-1:0:950 subsynccommit:25:-1:1:950 subpublications:1009:-1:1:950\n\
6102|pg_catalog|pg_subscription_rel|r|srsubid:26:-1:1:0 srrelid:26:-1:1:0 srsubstate:18:-1:1:0 srsublsn:3220:-1:0:0\n\
12033|pg_catalog|pg_tables|v|schemaname:19:-1:0:950 tablename:19:-1:0:950 tableowner:19:-1:0:950 tablespace:19:-1:0:950 hasindexes:16:-1:0:0 hasrules:16:-1:0:0 hastriggers:16:-1:0:0 rowsecurity:16:-1:0:0\n\
1213|pg_catalog|pg_tablespace|r|oid:26:-1:1:0 spcname:19:-1:1:950 spcowner:26:-1:1:0 spcacl:1034:-1:0:0 spcoptions:1009:-1:0:950\n\
12122|pg_catalog|pg_timezone_abbrevs|v|abbrev:25:-1:0:100 utc_offset:1186:-1:0:0 is_dst:16:-1:0:0\n\
12126|pg_catalog|pg_timezone_names|v|name:25:-1:0:100 abbrev:25:-1:0:100 utc_offset:1186:-1:0:0 is_dst:16:-1:0:0\n\
3576|pg_catalog|pg_transform|r|oid:26:-1:1:0 trftype:26:-1:1:0 trflang:26:-1:1:0 trffromsql:24:-1:1:0 trftosql:24:-1:1:0\n\
2620|pg_catalog|pg_trigger|r|oid:26:-1:1:0 tgrelid:26:-1:1:0 tgparentid:26:-1:1:0 tgname:19:-1:1:950 tgfoid:26:-1:1:0 tgtype:21:-1:1:0 tgenabled:18:-1:1:0 tgisinternal:16:-1:1:0 tgconstrrelid:26:-1:1:0 tgconstrindid:26:-1:1:0 tgconstraint:26:-1:1:0 tgdeferrable:16:-1:1:0 tginitdeferred:16:-1:1:0 tgnargs:21:-1:1:0 tgattr:22:-1:1:0 tgargs:17:-1:1:0 tgqual:194:-1:0:950 tgoldtable:19:-1:0:950 tgnewtable:19:-1:0:950\n\
3602|pg_catalog|pg_ts_config|r|oid:26:-1:1:0 cfgname:19:-1:1:950 cfgnamespace:26:-1:1:0 cfgowner:26:-1:1:0 cfgparser:26:-1:1:0\n\
3603|pg_catalog|pg_ts_config_map|r|mapcfg:26:-1:1:0 maptokentype:23:-1:1:0 mapseqno:23:-1:1:0 mapdict:26:-1:1:0\n\
3600|pg_catalog|pg_ts_dict|r|oid:26:-1:1:0 dictname:19:-1:1:950 dictnamespace:26:-1:1:0 dictowner:26:-1:1:0 dicttemplate:26:-1:1:0 dictinitoption:25:-1:0:950\n\
3601|pg_catalog|pg_ts_parser|r|oid:26:-1:1:0 prsname:19:-1:1:950 prsnamespace:26:-1:1:0 prsstart:24:-1:1:0 prstoken:24:-1:1:0 prsend:24:-1:1:0 prsheadline:24:-1:1:0 prslextype:24:-1:1:0\n\
3764|pg_catalog|pg_ts_template|r|oid:26:-1:1:0 tmplname:19:-1:1:950 tmplnamespace:26:-1:1:0 tmplinit:24:-1:1:0 tmpllexize:24:-1:1:0\n\
1247|pg_catalog|pg_type|r|oid:26:-1:1:0 typname:19:-1:1:950 typnamespace:26:-1:1:0 typowner:26:-1:1:0 typlen:21:-1:1:0 typbyval:16:-1:1:0 typtype:18:-1:1:0 typcategory:18:-1:1:0 typispreferred:16:-1:1:0 typisdefined:16:-1:1:0 typdelim:18:-1:1:0 typrelid:26:-1:1:0 typsubscript:24:-1:1:0 typelem:26:-1:1:0 typarray:26:-1:1:0 typinput:24:-1:1:0 typoutput:24:-1:1:0 typreceive:24:-1:1:0 typsend:24:-1:1:0 typmodin:24:-1:1:0 typmodout:24:-1:1:0 typanalyze:24:-1:1:0 typalign:18:-1:1:0 typstorage:18:-1:1:0 typnotnull:16:-1:1:0 typbasetype:26:-1:1:0 typtypmod:23:-1:1:0 typndims:23:-1:1:0 typcollation:26:-1:1:0 typdefaultbin:194:-1:0:950 typdefault:25:-1:0:950 typacl:1034:-1:0:0\n\
12014|pg_catalog|pg_user|v|usename:19:-1:0:950 usesysid:26:-1:0:0 usecreatedb:16:-1:0:0 usesuper:16:-1:0:0 userepl:16:-1:0:0 usebypassrls:16:-1:0:0 passwd:25:-1:0:100 valuntil:1184:-1:0:0 useconfig:1009:-1:0:950\n\
1418|pg_catalog|pg_user_mapping|r|oid:26:-1:1:0 umuser:26:-1:1:0 umserver:26:-1:1:0 umoptions:1009:-1:0:950\n\
12327|pg_catalog|pg_user_mappings|v|umid:26:-1:0:0 srvid:26:-1:0:0 srvname:19:-1:0:950 umuser:26:-1:0:0 usename:19:-1:0:950 umoptions:1009:-1:0:950\n\
12028|pg_catalog|pg_views|v|schemaname:19:-1:0:950 viewname:19:-1:0:950 viewowner:19:-1:0:950 definition:25:-1:0:100\n";

/// The rows of the relations litewire has.
pub(super) fn catalog_rows(script: &mut String) {
    for line in SYSTEM_RELATIONS.lines() {
        let [oid, schema, name, kind, columns] = line.split('|').collect::<Vec<_>>()[..] else {
            continue;
        };
        let Ok(oid) = oid.parse::<i64>() else {
            continue;
        };
        let found = match schema {
            "information_schema" => relations::find(&format!("information_schema_{name}")),
            _ => relations::find(name),
        };
        let namespace = NAMESPACES.iter().find(|(_, n)| *n == schema);
        let (Some(_), Some(&(namespace, _))) = (found, namespace) else {
            continue;
        };
        let columns: Vec<Vec<&str>> = columns.split(' ').map(|c| c.split(':').collect()).collect();
        relation_row(
            script,
            oid,
            name,
            namespace,
            kind,
            columns.len(),
            (false, false),
        );
        for (i, column) in columns.iter().enumerate() {
            let [attname, typid, typmod, not_null, _] = column.as_slice() else {
                continue;
            };
            let typid: i64 = typid.parse().unwrap_or(0);
            let (len, storage) = storage_of(typid);
            // The collation litewire's `pg_type` gives the type (psql shows
            // a column's only where it differs).
            let collation = if category_of(typid) == "S" { 100 } else { 0 };
            insert(
                script,
                "pg_attribute (attrelid, attname, atttypid, attstattarget, attlen, attnum, attndims, \
                 atttypmod, attstorage, attcompression, attnotnull, atthasdef, attidentity, \
                 attgenerated, attisdropped, attcollation)",
                &[
                    oid.to_string(),
                    literal(attname),
                    typid.to_string(),
                    "-1".into(),
                    len.to_string(),
                    (i + 1).to_string(),
                    "0".into(),
                    (*typmod).to_owned(),
                    literal(storage),
                    "''".into(),
                    (*not_null == "1").to_string(),
                    "false".into(),
                    "''".into(),
                    "''".into(),
                    "false".into(),
                    collation.to_string(),
                ],
            );
        }
    }
    let _ = writeln!(script);
}
