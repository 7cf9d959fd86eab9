//! Parenthesised members of a compound select: PostgreSQL accepts
//! `(SELECT ...) UNION ALL (SELECT ...)` (sqlx's `describe` sends its
//! nullability query so), SQLite only bare selects around `UNION`/`EXCEPT`/
//! `INTERSECT`. A parenthesised member that is a plain select loses its
//! parentheses; so does a compound on the left, since SQLite applies the
//! operators left to right, as the parentheses did. Any other member (one with
//! its own ORDER BY, LIMIT or WITH, a compound on the right) becomes
//! `SELECT * FROM (...)`, which SQLite takes as a member and which keeps its
//! meaning.

use sqlparser::ast::{Query, SetExpr};

use super::replacement::parse_query;

/// Rewrites the parenthesised members of `body`'s set operations, at any depth
/// of the compound (not inside subqueries, which the visitor reaches on its
/// own); returns whether anything changed.
pub(super) fn unwrap_members(body: &mut SetExpr) -> bool {
    let SetExpr::SetOperation { left, right, .. } = body else {
        return false;
    };
    let mut changed = unwrap_members(left) | unwrap_members(right);
    changed |= unwrap(left, true);
    changed |= unwrap(right, false);
    changed
}

/// Replaces the parenthesised query `member` with a member SQLite accepts.
fn unwrap(member: &mut SetExpr, on_the_left: bool) -> bool {
    let SetExpr::Query(query) = member else {
        return false;
    };
    let bare = query.with.is_none()
        && query.order_by.is_none()
        && query.limit_clause.is_none()
        && query.fetch.is_none()
        && query.locks.is_empty();
    let replacement = match &*query.body {
        SetExpr::Select(_) | SetExpr::Values(_) if bare => Some((*query.body).clone()),
        SetExpr::SetOperation { .. } if bare && on_the_left => {
            let mut inner = (*query.body).clone();
            unwrap_members(&mut inner);
            Some(inner)
        }
        _ => select_all_from(query),
    };
    match replacement {
        Some(replacement) => {
            *member = replacement;
            true
        }
        None => false,
    }
}

/// `SELECT * FROM (<query>)`.
fn select_all_from(query: &Query) -> Option<SetExpr> {
    let wrapped = parse_query(&format!("SELECT * FROM ({query})"))?;
    Some(*wrapped.body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::dialect::PostgreSqlDialect;
    use sqlparser::parser::Parser;

    fn rewritten(sql: &str) -> String {
        let mut query = Parser::new(&PostgreSqlDialect {})
            .try_with_sql(sql)
            .and_then(|mut p| p.parse_query())
            .expect("parses");
        unwrap_members(&mut query.body);
        query.to_string()
    }

    #[test]
    fn plain_members_lose_their_parentheses() {
        assert_eq!(
            rewritten("( SELECT $1::int4 AS idx ) UNION ALL ( SELECT $2::int4 ) ORDER BY idx"),
            "SELECT $1::INT4 AS idx UNION ALL SELECT $2::INT4 ORDER BY idx"
        );
        assert_eq!(
            rewritten("((SELECT 1) UNION (SELECT 2)) EXCEPT (SELECT 3)"),
            "SELECT 1 UNION SELECT 2 EXCEPT SELECT 3"
        );
        assert_eq!(
            rewritten("SELECT 1 UNION SELECT 2"),
            "SELECT 1 UNION SELECT 2"
        );
    }

    #[test]
    fn members_with_their_own_clauses_become_subqueries() {
        assert_eq!(
            rewritten("SELECT 1 UNION (SELECT 2 EXCEPT SELECT 3)"),
            "SELECT 1 UNION SELECT * FROM (SELECT 2 EXCEPT SELECT 3)"
        );
        assert_eq!(
            rewritten("(SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL SELECT 2"),
            "SELECT * FROM (SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL SELECT 2"
        );
    }
}
