//! A statement's fields besides its plan, read once from its text when it
//! is built (whether it is a PRAGMA, makes a TEMP object, waits for an
//! advisory lock), not each time it runs.

use std::sync::Arc;

use super::classify::{self, Action, CommandKind};
use super::lexer::tokenize;
use super::statement::{CursorCommand, Plan, Statement};

/// A cursor command as a statement: DECLARE takes its query's parameters and
/// FETCH returns rows (the cursor's columns).
pub(super) fn cursor_statement(text: &str, command: CursorCommand) -> Statement {
    let (kind, returns_rows, param_count) = match &command {
        CursorCommand::Declare { query, .. } => (
            CommandKind::Other("DECLARE CURSOR"),
            false,
            query.param_count,
        ),
        CursorCommand::Fetch { .. } => (CommandKind::Fetch, true, 0),
        CursorCommand::Close(_) => (CommandKind::Other("CLOSE CURSOR"), false, 0),
    };
    Statement {
        sql: text.into(),
        action: Action::Read,
        kind,
        returns_rows,
        param_count,
        plan: Plan::Cursor(Arc::new(command)),
        catalog: false,
        column_types: None,
        pragma: false,
        creates_temp: false,
        row_lock: None,
        waits_for_locks: false,
        read_against: None,
        literals: None,
        fingerprint: None,
    }
}

pub(super) fn statement(
    sql: Arc<str>,
    shape: &classify::Shape,
    param_count: usize,
    plan: Plan,
) -> Statement {
    // Read once here, not each time the statement runs.
    let (first, rest) = first_word(&sql);
    let pragma = first.eq_ignore_ascii_case("PRAGMA");
    let creates_temp = first.eq_ignore_ascii_case("CREATE") && {
        let (second, _) = first_word(rest);
        second.eq_ignore_ascii_case("TEMP") || second.eq_ignore_ascii_case("TEMPORARY")
    };
    let waits_for_locks = calls_waiting_lock_function(&sql);
    Statement {
        sql,
        // COPY TO reads or writes what its query does.
        action: match &plan {
            Plan::CopyTo(copy) => copy.query.action,
            _ => shape.action,
        },
        kind: shape.kind,
        returns_rows: shape.returns_rows && plan == Plan::Single,
        param_count,
        plan,
        catalog: false,
        column_types: None,
        pragma,
        creates_temp,
        row_lock: None,
        waits_for_locks,
        read_against: None,
        literals: None,
        fingerprint: None,
    }
}

/// The functions that wait for an advisory lock (the `pg_try_` ones do not).
const WAITING_LOCK_FUNCTIONS: &[&str] = &[
    "pg_advisory_lock",
    "pg_advisory_lock_shared",
    "pg_advisory_xact_lock",
    "pg_advisory_xact_lock_shared",
];

/// Whether `sql` calls one of [`WAITING_LOCK_FUNCTIONS`]: a look at its
/// bytes first, its words only when it may.
fn calls_waiting_lock_function(sql: &str) -> bool {
    let maybe = sql
        .as_bytes()
        .windows(8)
        .any(|w| w.eq_ignore_ascii_case(b"advisory"));
    maybe
        && tokenize(sql).iter().any(|t| {
            WAITING_LOCK_FUNCTIONS
                .iter()
                .any(|name| t.is_keyword(sql, name))
        })
}

/// The first word of `sql` after whitespace and comments, and what follows it.
fn first_word(sql: &str) -> (&str, &str) {
    let mut rest = sql.trim_ascii_start();
    loop {
        if let Some(line) = rest.strip_prefix("--") {
            rest = line.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(block) = rest.strip_prefix("/*") {
            rest = block.split_once("*/").map_or("", |(_, after)| after);
        } else {
            break;
        }
        rest = rest.trim_ascii_start();
    }
    let end = rest
        .bytes()
        .position(|c| !c.is_ascii_alphanumeric() && c != b'_')
        .unwrap_or(rest.len());
    rest.split_at(end)
}
