//! `ALTER {TABLE | VIEW | MATERIALIZED VIEW | FOREIGN TABLE | SEQUENCE | TYPE |
//! SCHEMA | FUNCTION | PROCEDURE | AGGREGATE | DATABASE} name OWNER TO role`, as
//! every `pg_dump` script and many migration tools write after each `CREATE`.
//!
//! litewire keeps no owner per object: every object belongs to the database's
//! one owner, which `pg_class.relowner` and friends show. So the statement checks
//! that its object exists (PostgreSQL's error where it does not) and changes
//! nothing. Who may log in is decided by the users file, not by ownership.

use super::lexer::TokenKind;
use super::quote::{qualifier, unquote_identifier};
use super::rewrite::Rewrite;
use super::words::Words;
use crate::error::{Error, SqlState};

/// The statement when it is an `ALTER ... OWNER TO`: the checks it runs.
pub(super) fn statement(w: &Words) -> Option<Result<Rewrite, Error>> {
    let len = w.tokens.len();
    if !w.is(0, "ALTER") || len < 5 || !(w.is(len - 3, "OWNER") && w.is(len - 2, "TO")) {
        return None;
    }
    if !matches!(
        w.kind(len - 1),
        Some(TokenKind::Word | TokenKind::QuotedIdent)
    ) {
        return Some(Err(w.syntax_error(len - 1)));
    }
    let (kind, mut at) = match (w.text(1).to_ascii_uppercase().as_str(), w.is(2, "VIEW")) {
        ("MATERIALIZED", true) => (Kind::Relation, 3),
        ("FOREIGN", _) if w.is(2, "TABLE") => (Kind::Relation, 3),
        ("TABLE" | "VIEW", _) => (Kind::Relation, 2),
        ("SEQUENCE", _) => (Kind::Sequence, 2),
        ("TYPE" | "DOMAIN", _) => (Kind::Type, 2),
        ("SCHEMA", _) => (Kind::Schema, 2),
        ("FUNCTION" | "PROCEDURE" | "ROUTINE" | "AGGREGATE" | "DATABASE", _) => {
            (Kind::Unchecked, 2)
        }
        _ => return None,
    };
    let if_exists = w.is(at, "IF") && w.is(at + 1, "EXISTS");
    if if_exists {
        at += 2;
    }
    Some(checks(w, kind, at, if_exists, len - 3))
}

/// What a statement names.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Relation,
    Sequence,
    Type,
    Schema,
    /// Functions (all built in) and the database: nothing to check.
    Unchecked,
}

fn checks(
    w: &Words,
    kind: Kind,
    at: usize,
    if_exists: bool,
    owner: usize,
) -> Result<Rewrite, Error> {
    if matches!(kind, Kind::Unchecked) {
        return Ok(Rewrite::nothing());
    }
    let (name, end) = w.name(at).ok_or_else(|| w.syntax_error(at))?;
    if end != owner {
        return Err(w.syntax_error(end));
    }
    if if_exists && !matches!(kind, Kind::Schema) {
        return Ok(Rewrite::nothing());
    }
    let checks = must_exist(kind, &name)?;
    Ok(match checks.is_empty() {
        true => Rewrite::nothing(),
        false => Rewrite::script(checks),
    })
}

/// The statements that fail with PostgreSQL's error unless the object of
/// `kind` named `name` (as written, maybe `public.`-qualified) exists; an
/// error at once where no such object can exist.
pub(super) fn must_exist(kind: Kind, name: &str) -> Result<Vec<String>, Error> {
    if let Some(schema) = qualifier(name) {
        return Err(Error::state(
            SqlState::INVALID_SCHEMA_NAME,
            format!("schema \"{}\" does not exist", unquote_identifier(schema)),
        ));
    }
    let name = folded(name);
    Ok(match kind {
        Kind::Schema => super::schemas::must_exist(&name),
        // `ALTER TABLE` names a sequence too (pg_dump writes it so).
        Kind::Relation => super::dialect::relation_must_exist(&name),
        Kind::Sequence => super::dialect::sequence_must_exist(&name),
        Kind::Type => super::domains::type_must_exist(&name),
        Kind::Unchecked => Vec::new(),
    })
}

/// A name as PostgreSQL reads it: folded to lower case unless quoted.
fn folded(name: &str) -> String {
    if name.starts_with('"') {
        unquote_identifier(name)
    } else {
        name.to_ascii_lowercase()
    }
}
