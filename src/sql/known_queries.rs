//! Catalog queries that clients send verbatim and that cannot be translated
//! statement by statement (LATERAL joins, column alias lists, array functions).
//! Each one is recognised here, in one place, and answered from SQLite's own
//! schema, so the answer is true for the database being served.

use super::lexer::{Token, TokenKind};

/// The SQLite query that answers `sql`, if it is one of the known catalog queries.
pub(super) fn recognise(sql: &str, tokens: &[Token]) -> Option<String> {
    pgbench_partitions(sql, tokens)
}

/// pgbench (13+) asks whether `pgbench_accounts` is partitioned before each run:
/// `select o.n, p.partstrat, pg_catalog.count(i.inhparent) from pg_catalog.pg_class
/// ... where c.relname = 'pgbench_accounts' ...`. One row means "exists, not
/// partitioned" (SQLite has no partitions); no row means the table is missing, as
/// PostgreSQL would answer.
fn pgbench_partitions(sql: &str, tokens: &[Token]) -> Option<String> {
    let has = |word: &str| tokens.iter().any(|t| t.is_keyword(sql, word));
    if !(has("partstrat") && has("pg_partitioned_table") && has("inhparent")) {
        return None;
    }
    let relname = tokens.windows(3).find_map(|w| {
        (w[0].is_keyword(sql, "relname") && w[1].text(sql) == "=" && w[2].kind == TokenKind::String)
            .then(|| w[2].text(sql))
    })?;
    Some(format!(
        "SELECT 1 AS n, NULL AS partstrat, 0 AS count FROM sqlite_schema \
         WHERE type = 'table' AND name = {relname}"
    ))
}

#[cfg(test)]
mod tests {
    use crate::sql::parse_single;

    #[test]
    fn pgbench_partition_query() {
        let sql = "select o.n, p.partstrat, pg_catalog.count(i.inhparent) from pg_catalog.pg_class as c join pg_catalog.pg_namespace as n on (n.oid = c.relnamespace) cross join lateral (select pg_catalog.array_position(pg_catalog.current_schemas(true), n.nspname)) as o(n) left join pg_catalog.pg_partitioned_table as p on (p.partrelid = c.oid) left join pg_catalog.pg_inherits as i on (c.oid = i.inhparent) where c.relname = 'pgbench_accounts' and o.n is not null group by 1, 2 order by 1 asc limit 1";
        let stmt = parse_single(sql).unwrap().unwrap();
        assert!(
            stmt.sql.contains("name = 'pgbench_accounts'"),
            "{}",
            stmt.sql
        );
        assert!(stmt.sql.starts_with("SELECT 1 AS n"));
    }
}
