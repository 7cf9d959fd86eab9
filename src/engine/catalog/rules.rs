//! The rule that makes a view (or a materialized view) in `pg_rewrite`, and
//! in `pg_depend` the relations its query reads: what `pg_dump` orders views
//! after.

use std::fmt::Write as _;

use super::oids::REWRITE_RULE;
use crate::sql::qualified_names::relations_read;

/// A view's (or materialized view's) rule, and what the rule reads:
/// `pg_dump` makes a view after them.
pub(super) fn rule_rows(
    script: &mut String,
    oid: i64,
    definition: &str,
    oid_of: &dyn Fn(&str) -> Option<i64>,
) {
    let rule = REWRITE_RULE + oid;
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_rewrite VALUES ({rule}, '_RETURN', {oid}, '1', 'O', true, NULL, NULL);"
    );
    for read in relations_read(definition) {
        if let Some(relation) = oid_of(&read) {
            let _ = writeln!(
                script,
                "INSERT INTO temp.pg_depend VALUES (2618, {rule}, 0, 1259, {relation}, 0, 'n');"
            );
        }
    }
}
