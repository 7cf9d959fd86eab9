//! What a statement-level rewrite (see `sql::translate`) produces: the plan, and
//! for single statements the new SQL. The rewrites of `COPY` and `COMMENT ON`
//! live in files of their own and produce it too.

use std::sync::Arc;

use super::statement::Plan;

/// What a rewrite produced: the plan, and for single statements the new SQL.
pub(super) struct Rewrite {
    pub sql: String,
    pub plan: Plan,
}

impl Rewrite {
    /// One SQLite statement.
    pub(super) fn single(sql: String) -> Rewrite {
        Rewrite {
            sql,
            plan: Plan::Single,
        }
    }

    /// Statements that run as one, all or nothing.
    pub(super) fn script(statements: Vec<String>) -> Rewrite {
        let parts: Vec<Arc<str>> = statements.into_iter().map(Arc::from).collect();
        Rewrite {
            sql: parts.iter().map(|s| &**s).collect::<Vec<_>>().join("; "),
            plan: Plan::Script(parts.into()),
        }
    }

    /// A statement accepted with nothing to run.
    pub(super) fn nothing() -> Rewrite {
        Rewrite {
            sql: String::new(),
            plan: Plan::Nothing,
        }
    }
}
