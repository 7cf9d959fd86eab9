//! `LOCK [TABLE] [ONLY] name [*], ... [IN mode MODE] [NOWAIT]`, which `pg_dump`
//! takes on every table it dumps and applications take to keep other writers
//! out.
//!
//! SQLite has one writer at a time, so the locks that keep other writers out
//! (`SHARE UPDATE EXCLUSIVE` and stronger, `ACCESS EXCLUSIVE` when no mode is
//! given) make the transaction the writer: it holds the write lock until it
//! ends, as PostgreSQL holds the table lock, and a read-only transaction may
//! not take them (25006). The weaker ones (`ACCESS SHARE`, `ROW SHARE`, `ROW
//! EXCLUSIVE`) keep nothing out that SQLite would let in: the statement checks
//! its tables exist. Readers are never kept out (a WAL snapshot is never
//! blocked), which `ACCESS EXCLUSIVE` does in PostgreSQL. Outside a
//! transaction block the statement is 25P01 (see the session).

use super::quote::literal;
use super::words::Words;
use crate::error::Error;

/// The modes, weakest first, with the words that name them.
const MODES: &[&[&str]] = &[
    &["ACCESS", "SHARE"],
    &["ROW", "SHARE"],
    &["ROW", "EXCLUSIVE"],
    &["SHARE", "UPDATE", "EXCLUSIVE"],
    &["SHARE", "ROW", "EXCLUSIVE"],
    &["SHARE"],
    &["EXCLUSIVE"],
    &["ACCESS", "EXCLUSIVE"],
];

/// The first mode that keeps writers out, or that a read-only transaction
/// may not take (`SHARE UPDATE EXCLUSIVE`).
const FIRST_WRITING: usize = 3;

/// Whether the statement's mode makes the transaction the writer (the
/// classification's question: `LOCK` then is a write).
pub(super) fn writes(w: &Words) -> bool {
    read(w).map_or(true, |(_, mode)| mode >= FIRST_WRITING)
}

/// The tables and the mode's place in [`MODES`].
fn read(w: &Words) -> Result<(Vec<String>, usize), Error> {
    let mut i = 1;
    if w.is(i, "TABLE") {
        i += 1;
    }
    if w.is(i, "ONLY") {
        i += 1;
    }
    let mut names = Vec::new();
    loop {
        let (name, next) = w.name(i).ok_or_else(|| w.syntax_error(i))?;
        names.push(name);
        i = next;
        if w.text(i) == "*" {
            i += 1;
        }
        if w.text(i) != "," {
            break;
        }
        i += 1;
        if w.is(i, "ONLY") {
            i += 1;
        }
    }
    let mut mode = MODES.len() - 1;
    if w.is(i, "IN") {
        i += 1;
        let found = MODES
            .iter()
            .enumerate()
            .filter(|(_, words)| words.iter().enumerate().all(|(k, word)| w.is(i + k, word)))
            .max_by_key(|(_, words)| words.len())
            .ok_or_else(|| w.syntax_error(i))?;
        mode = found.0;
        i += found.1.len();
        if !w.is(i, "MODE") {
            return Err(w.syntax_error(i));
        }
        i += 1;
    }
    if w.is(i, "NOWAIT") {
        i += 1;
    }
    if i != w.tokens.len() {
        return Err(w.syntax_error(i));
    }
    Ok((names, mode))
}

/// The statement when it is a `LOCK`: the checks that its tables exist.
pub(super) fn statement(w: &Words) -> Option<Result<Vec<String>, Error>> {
    if !w.is(0, "LOCK") {
        return None;
    }
    Some(read(w).map(|(names, _)| {
        names
            .iter()
            .map(|name| {
                let name = match name.strip_prefix('"') {
                    Some(_) => super::quote::unquote_identifier(name),
                    None => name.to_ascii_lowercase(),
                };
                format!(
                    "SELECT litewire_error('42P01', {}) WHERE NOT EXISTS (SELECT 1 FROM \
                         main.sqlite_schema WHERE type IN ('table', 'view') AND name = {} \
                         COLLATE NOCASE)",
                    literal(&format!("relation \"{name}\" does not exist")),
                    literal(&name)
                )
            })
            .collect()
    }))
}
