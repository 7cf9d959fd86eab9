//! `CREATE EXTENSION` and `DROP EXTENSION`. The extensions litewire has are
//! built in and always installed, as `plpgsql` is in every PostgreSQL
//! database: creating one that is there is what PostgreSQL answers for an
//! installed extension (42710, or nothing with `IF NOT EXISTS`), any other is
//! not available (0A000), and a built-in one cannot be dropped (0A000).

use super::lexer::TokenKind;
use super::rewrite::Rewrite;
use super::words::Words;
use crate::error::{Error, ErrorKind, SqlState};

/// The extensions every database has: name, version, what `pg_extension`
/// shows.
pub const EXTENSIONS: &[(&str, &str)] = &[("plpgsql", "1.0"), ("pg_stat_statements", "1.10")];

/// The statement when it is `CREATE EXTENSION` or `DROP EXTENSION`.
pub(super) fn statement(w: &Words) -> Option<Result<Rewrite, Error>> {
    if w.starts_with(&["CREATE", "EXTENSION"]) {
        Some(create(w))
    } else if w.starts_with(&["DROP", "EXTENSION"]) {
        Some(drop(w))
    } else {
        None
    }
}

/// `CREATE EXTENSION [IF NOT EXISTS] name [WITH] [SCHEMA s] [VERSION v]
/// [CASCADE]`.
fn create(w: &Words) -> Result<Rewrite, Error> {
    let guarded = w.is(2, "IF") && w.is(3, "NOT") && w.is(4, "EXISTS");
    let at = if guarded { 5 } else { 2 };
    let name = extension_name(w, at)?;
    if !EXTENSIONS.iter().any(|(known, _)| *known == name) {
        return Err(Error::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            format!("extension \"{name}\" is not available"),
        ));
    }
    match guarded {
        true => Ok(Rewrite::nothing()),
        false => Err(Error::state(
            SqlState::DUPLICATE_OBJECT,
            format!("extension \"{name}\" already exists"),
        )),
    }
}

/// `DROP EXTENSION [IF EXISTS] name [, ...] [CASCADE | RESTRICT]`.
fn drop(w: &Words) -> Result<Rewrite, Error> {
    let guarded = w.is(2, "IF") && w.is(3, "EXISTS");
    let at = if guarded { 4 } else { 2 };
    let name = extension_name(w, at)?;
    if EXTENSIONS.iter().any(|(known, _)| *known == name) {
        return Err(Error::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            format!("extension \"{name}\" is built in and cannot be dropped"),
        ));
    }
    match guarded {
        true => Ok(Rewrite::nothing()),
        false => Err(Error::new(
            ErrorKind::UndefinedObject,
            format!("extension \"{name}\" does not exist"),
        )),
    }
}

/// The extension named at `at`, as PostgreSQL folds it.
fn extension_name(w: &Words, at: usize) -> Result<String, Error> {
    let name = w.ident(at).ok_or_else(|| w.syntax_error(at))?;
    Ok(match w.kind(at) {
        Some(TokenKind::Word) => name.to_lowercase(),
        _ => name,
    })
}
