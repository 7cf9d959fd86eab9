//! Transaction modes, as `BEGIN`, `START TRANSACTION`, `SET TRANSACTION` and
//! `SET SESSION CHARACTERISTICS AS TRANSACTION` write them: an isolation level,
//! `READ ONLY | READ WRITE`, `[NOT] DEFERRABLE`, in any order, with or without
//! commas. SQLite's own `BEGIN DEFERRED | IMMEDIATE | EXCLUSIVE` is read too.
//! Also the name a savepoint statement names.

use super::lexer::Token;
use super::words::Words;
use crate::error::Error;

/// PostgreSQL's isolation levels. READ UNCOMMITTED is READ COMMITTED, as in
/// PostgreSQL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isolation {
    ReadCommitted,
    RepeatableRead,
    Serializable,
}

impl Isolation {
    /// The level `name` spells (`transaction_isolation`'s values), if any.
    pub fn parse(name: &str) -> Option<Isolation> {
        let words: Vec<String> = name
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        match words
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["read", "committed"] | ["read", "uncommitted"] => Some(Isolation::ReadCommitted),
            ["repeatable", "read"] => Some(Isolation::RepeatableRead),
            ["serializable"] => Some(Isolation::Serializable),
            _ => None,
        }
    }

    /// As `SHOW transaction_isolation` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Isolation::ReadCommitted => "read committed",
            Isolation::RepeatableRead => "repeatable read",
            Isolation::Serializable => "serializable",
        }
    }
}

/// The modes a statement asks for; `None`: not said.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TransactionModes {
    pub isolation: Option<Isolation>,
    pub read_only: Option<bool>,
    pub deferrable: Option<bool>,
}

/// `BEGIN` and `START TRANSACTION`: the modes, and whether SQLite's
/// `IMMEDIATE`/`EXCLUSIVE` asked for the write lock at once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Begin {
    pub modes: TransactionModes,
    pub immediate: bool,
}

/// Reads a `BEGIN`/`START TRANSACTION` statement.
pub(super) fn begin(sql: &str, tokens: &[Token]) -> Result<Begin, Error> {
    let w = Words { sql, tokens };
    let mut i = 1;
    let mut immediate = false;
    if w.is(0, "BEGIN") {
        if w.is(i, "DEFERRED") {
            i += 1;
        } else if w.is(i, "IMMEDIATE") || w.is(i, "EXCLUSIVE") {
            immediate = true;
            i += 1;
        }
        if w.is(i, "TRANSACTION") || w.is(i, "WORK") {
            i += 1;
        }
    } else {
        // START TRANSACTION
        i = 2;
    }
    Ok(Begin {
        modes: modes(&w, i)?,
        immediate,
    })
}

/// Whether a `COMMIT`, `END`, `ROLLBACK` or `ABORT` ends with `AND CHAIN`: a
/// new transaction with the same modes begins as the other ends. Anything
/// else after the word (but `WORK`, `TRANSACTION`, `AND NO CHAIN`) is 42601.
pub(super) fn chains(sql: &str, tokens: &[Token]) -> Result<bool, Error> {
    let w = Words { sql, tokens };
    let mut i = 1;
    if w.is(i, "WORK") || w.is(i, "TRANSACTION") {
        i += 1;
    }
    let (chain, end) = match (w.is(i, "AND"), w.is(i + 1, "NO")) {
        (false, _) => (false, i),
        (true, false) if w.is(i + 1, "CHAIN") => (true, i + 2),
        (true, true) if w.is(i + 2, "CHAIN") => (false, i + 3),
        (true, false) => return Err(w.syntax_error(i + 1)),
        (true, true) => return Err(w.syntax_error(i + 2)),
    };
    match end >= tokens.len() || tokens[end].kind == super::lexer::TokenKind::Semicolon {
        true => Ok(chain),
        false => Err(w.syntax_error(end)),
    }
}

/// Reads the modes from token `i` to the end.
pub(super) fn modes(w: &Words, mut i: usize) -> Result<TransactionModes, Error> {
    let mut modes = TransactionModes::default();
    while i < w.tokens.len() {
        if w.is(i, "ISOLATION") && w.is(i + 1, "LEVEL") {
            let (level, after) = if w.is(i + 2, "SERIALIZABLE") {
                (Isolation::Serializable, i + 3)
            } else if w.is(i + 2, "REPEATABLE") && w.is(i + 3, "READ") {
                (Isolation::RepeatableRead, i + 4)
            } else if w.is(i + 2, "READ")
                && (w.is(i + 3, "COMMITTED") || w.is(i + 3, "UNCOMMITTED"))
            {
                (Isolation::ReadCommitted, i + 4)
            } else {
                return Err(w.syntax_error(i + 2));
            };
            modes.isolation = Some(level);
            i = after;
        } else if w.is(i, "READ") && w.is(i + 1, "ONLY") {
            modes.read_only = Some(true);
            i += 2;
        } else if w.is(i, "READONLY") {
            // libsql's spelling (`BEGIN TRANSACTION READONLY`).
            modes.read_only = Some(true);
            i += 1;
        } else if w.is(i, "READ") && w.is(i + 1, "WRITE") {
            modes.read_only = Some(false);
            i += 2;
        } else if w.is(i, "DEFERRABLE") {
            modes.deferrable = Some(true);
            i += 1;
        } else if w.is(i, "NOT") && w.is(i + 1, "DEFERRABLE") {
            modes.deferrable = Some(false);
            i += 2;
        } else {
            return Err(w.syntax_error(i));
        }
        if w.text(i) == "," {
            i += 1;
        }
    }
    Ok(modes)
}

/// The savepoint `SAVEPOINT x`, `RELEASE [SAVEPOINT] x` or `ROLLBACK TO
/// [SAVEPOINT] x` names: its last word, folded to lower case unless quoted.
pub fn savepoint_name(sql: &str) -> Option<String> {
    let tokens = super::lexer::tokenize(sql);
    let last = tokens.last()?;
    let text = last.text(sql);
    match last.kind {
        super::lexer::TokenKind::Word => Some(text.to_ascii_lowercase()),
        super::lexer::TokenKind::QuotedIdent => Some(super::quote::unquote_identifier(text)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokenize;
    use super::*;

    fn read(sql: &str) -> Result<Begin, Error> {
        begin(sql, &tokenize(sql))
    }

    #[test]
    fn reads_every_way_of_asking() {
        let serializable = TransactionModes {
            isolation: Some(Isolation::Serializable),
            ..TransactionModes::default()
        };
        assert_eq!(read("BEGIN").unwrap(), Begin::default());
        assert_eq!(
            read("begin isolation level serializable").unwrap().modes,
            serializable
        );
        assert_eq!(
            read("START TRANSACTION ISOLATION LEVEL SERIALIZABLE")
                .unwrap()
                .modes,
            serializable
        );
        assert_eq!(
            read("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY, DEFERRABLE")
                .unwrap()
                .modes,
            TransactionModes {
                isolation: Some(Isolation::RepeatableRead),
                read_only: Some(true),
                deferrable: Some(true),
            }
        );
        assert_eq!(
            read("begin work read write not deferrable isolation level read uncommitted")
                .unwrap()
                .modes,
            TransactionModes {
                isolation: Some(Isolation::ReadCommitted),
                read_only: Some(false),
                deferrable: Some(false),
            }
        );
        assert!(read("BEGIN IMMEDIATE").unwrap().immediate);
        assert_eq!(
            read("BEGIN TRANSACTION READONLY").unwrap().modes.read_only,
            Some(true)
        );
        assert!(read("BEGIN EXCLUSIVE TRANSACTION").unwrap().immediate);
        assert!(read("BEGIN ISOLATION LEVEL sometimes").is_err());
        assert!(read("BEGIN READ").is_err());
        assert_eq!(
            Isolation::parse("Repeatable  Read"),
            Some(Isolation::RepeatableRead)
        );
        assert_eq!(Isolation::parse("snapshot"), None);
        assert_eq!(savepoint_name("SAVEPOINT Sp1").as_deref(), Some("sp1"));
        assert_eq!(
            savepoint_name("ROLLBACK TO SAVEPOINT \"A b\"").as_deref(),
            Some("A b")
        );
        assert_eq!(savepoint_name("release x").as_deref(), Some("x"));
    }
}
