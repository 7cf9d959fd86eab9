//! Row-locking clauses of a query: `FOR UPDATE`, `FOR NO KEY UPDATE`, `FOR
//! SHARE`, `FOR KEY SHARE`, each with `OF table, ...` and `NOWAIT` or `SKIP
//! LOCKED`, anywhere PostgreSQL takes them (after `LIMIT`/`OFFSET` or before,
//! several of them, in subqueries). SQLite has no such clause: it is taken out
//! of the text, and the engine takes the lock instead, at its granularity (the
//! database's write permit; see `engine::session::transaction`).

use super::lexer::{Token, TokenKind};
use super::words::Words;
use crate::error::{Error, ErrorKind};

/// What to do when another transaction holds what a locking read needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockWait {
    /// Wait for it (up to `lock_timeout`).
    Block,
    /// `NOWAIT`: fail at once with 55P03.
    NoWait,
    /// `SKIP LOCKED`: never see what another transaction has locked.
    SkipLocked,
}

/// A query's row locks, as the engine takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowLock {
    /// The strongest wait policy of its clauses: `NOWAIT` over `SKIP LOCKED`
    /// over waiting.
    pub wait: LockWait,
}

/// The query's text without its locking clauses, and its locks; `None` when it
/// has none.
pub(super) fn strip(sql: &str, tokens: &[Token]) -> Result<Option<(String, RowLock)>, Error> {
    let w = Words { sql, tokens };
    let mut cut: Vec<(usize, usize)> = Vec::new();
    let mut lock: Option<RowLock> = None;
    // The strength of the first clause of the query itself (not a subquery's).
    let mut top_level: Option<&str> = None;
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].kind {
            TokenKind::LeftParen => depth += 1,
            TokenKind::RightParen => depth = depth.saturating_sub(1),
            _ => {}
        }
        let Some(after) = strength(&w, i) else {
            i += 1;
            continue;
        };
        if depth == 0 && top_level.is_none() {
            top_level = Some(&sql[tokens[i].start..tokens[after - 1].end]);
        }
        // Inside a recursive query: PostgreSQL refuses it (what the lock
        // would hold changes at each step).
        if depth > 0 && w.is(0, "WITH") && w.is(1, "RECURSIVE") {
            return Err(Error::state(
                crate::error::SqlState::FEATURE_NOT_SUPPORTED,
                "FOR UPDATE/SHARE in a recursive query is not implemented",
            ));
        }
        let mut end = after;
        if w.is(end, "OF") {
            end += 1;
            loop {
                let (_, next) = w.name(end).ok_or_else(|| w.syntax_error(end))?;
                end = next;
                if w.text(end) != "," {
                    break;
                }
                end += 1;
            }
        }
        let wait = if w.is(end, "NOWAIT") {
            end += 1;
            LockWait::NoWait
        } else if w.is(end, "SKIP") && w.is(end + 1, "LOCKED") {
            end += 2;
            LockWait::SkipLocked
        } else {
            LockWait::Block
        };
        lock = Some(RowLock {
            wait: match (lock.map(|l| l.wait), wait) {
                (Some(LockWait::NoWait), _) | (_, LockWait::NoWait) => LockWait::NoWait,
                (Some(LockWait::SkipLocked), _) | (_, LockWait::SkipLocked) => LockWait::SkipLocked,
                _ => LockWait::Block,
            },
        });
        cut.push((tokens[i].start, tokens[end - 1].end));
        i = end;
    }
    let Some(lock) = lock else {
        return Ok(None);
    };
    if let Some(clause) = top_level {
        refuse_where_postgres_does(&w, clause)?;
    }
    let mut text = String::with_capacity(sql.len());
    let mut copied = 0;
    for (start, end) in cut {
        text.push_str(&sql[copied..start]);
        copied = end;
    }
    text.push_str(&sql[copied..]);
    Ok(Some((text, lock)))
}

/// Whether a locking clause starts at `i` (`FOR UPDATE`, ...): the index after
/// its strength.
fn strength(w: &Words, i: usize) -> Option<usize> {
    if !w.is(i, "FOR") {
        return None;
    }
    if w.is(i + 1, "UPDATE") || w.is(i + 1, "SHARE") {
        Some(i + 2)
    } else if w.is(i + 1, "NO") && w.is(i + 2, "KEY") && w.is(i + 3, "UPDATE") {
        Some(i + 4)
    } else if w.is(i + 1, "KEY") && w.is(i + 2, "SHARE") {
        Some(i + 3)
    } else {
        None
    }
}

/// PostgreSQL refuses a query's own row locks (`clause`, as written) where its
/// rows are not a table's own rows.
fn refuse_where_postgres_does(w: &Words, clause: &str) -> Result<(), Error> {
    let clause = clause
        .split_whitespace()
        .map(str::to_ascii_uppercase)
        .collect::<Vec<_>>()
        .join(" ");
    let mut depth = 0usize;
    for (i, token) in w.tokens.iter().enumerate() {
        match token.kind {
            TokenKind::LeftParen => depth += 1,
            TokenKind::RightParen => depth = depth.saturating_sub(1),
            TokenKind::Word if depth == 0 => {
                let refused = if w.is(i, "GROUP") && w.is(i + 1, "BY") {
                    Some("GROUP BY clause")
                } else if w.is(i, "HAVING") {
                    Some("HAVING clause")
                } else if w.is(i, "DISTINCT") {
                    Some("DISTINCT clause")
                } else if w.is(i, "UNION") || w.is(i, "INTERSECT") || w.is(i, "EXCEPT") {
                    Some("UNION/INTERSECT/EXCEPT")
                } else if AGGREGATES.iter().any(|a| w.is(i, a))
                    && w.kind(i + 1) == Some(TokenKind::LeftParen)
                {
                    Some("aggregate functions")
                } else {
                    None
                };
                if let Some(what) = refused {
                    return Err(Error::new(
                        ErrorKind::Unsupported,
                        format!("{clause} is not allowed with {what}"),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

const AGGREGATES: &[&str] = &[
    "count",
    "sum",
    "avg",
    "min",
    "max",
    "array_agg",
    "string_agg",
    "bool_and",
    "bool_or",
    "every",
    "json_agg",
    "jsonb_agg",
];

#[cfg(test)]
mod tests {
    use super::super::lexer::tokenize;
    use super::*;

    fn read(sql: &str) -> Option<(String, LockWait)> {
        strip(sql, &tokenize(sql)).unwrap().map(|(text, lock)| {
            (
                text.split_whitespace().collect::<Vec<_>>().join(" "),
                lock.wait,
            )
        })
    }

    #[test]
    fn clauses_come_out_of_the_text() {
        assert_eq!(read("SELECT * FROM t"), None);
        assert_eq!(
            read("SELECT * FROM t WHERE id = 1 FOR UPDATE"),
            Some(("SELECT * FROM t WHERE id = 1".into(), LockWait::Block))
        );
        assert_eq!(
            read("select id from jobs order by id for update skip locked limit 1"),
            Some((
                "select id from jobs order by id limit 1".into(),
                LockWait::SkipLocked
            ))
        );
        assert_eq!(
            read("SELECT * FROM a, b LIMIT 1 FOR NO KEY UPDATE OF a FOR KEY SHARE OF b NOWAIT"),
            Some(("SELECT * FROM a, b LIMIT 1".into(), LockWait::NoWait))
        );
        assert_eq!(
            read("SELECT * FROM (SELECT * FROM t FOR SHARE) s"),
            Some(("SELECT * FROM (SELECT * FROM t ) s".into(), LockWait::Block))
        );
        assert_eq!(
            read("SELECT count(*) FROM (SELECT * FROM t FOR UPDATE) x"),
            Some((
                "SELECT count(*) FROM (SELECT * FROM t ) x".into(),
                LockWait::Block
            ))
        );
        assert_eq!(read("SELECT substring('abc' from 1 for 2)"), None);
    }

    #[test]
    fn refused_where_postgres_refuses() {
        for (sql, message) in [
            (
                "SELECT count(*) FROM t FOR UPDATE",
                "FOR UPDATE is not allowed with aggregate functions",
            ),
            (
                "SELECT DISTINCT a FROM t FOR UPDATE",
                "FOR UPDATE is not allowed with DISTINCT clause",
            ),
            (
                "SELECT a FROM t GROUP BY a for share",
                "FOR SHARE is not allowed with GROUP BY clause",
            ),
            (
                "SELECT a FROM t UNION SELECT a FROM u FOR KEY SHARE",
                "FOR KEY SHARE is not allowed with UNION/INTERSECT/EXCEPT",
            ),
        ] {
            let error = strip(sql, &tokenize(sql)).unwrap_err();
            assert_eq!(error.kind, ErrorKind::Unsupported, "{sql}");
            assert_eq!(error.message, message);
        }
    }
}
