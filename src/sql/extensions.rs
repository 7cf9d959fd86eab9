//! `CREATE EXTENSION` and `DROP EXTENSION`. Some extensions are built in and
//! always installed, as `plpgsql` is in every PostgreSQL database: creating
//! one that is there is what PostgreSQL answers for an installed extension
//! (42710, or nothing with `IF NOT EXISTS`), and it cannot be dropped (0A000).
//! Others are available ([`AVAILABLE`]): their functions are always there,
//! and `CREATE EXTENSION` records the extension in `litewire_extensions` (a
//! table of litewire's own, hidden from the catalog) for `pg_extension`,
//! transactionally; `DROP EXTENSION` forgets it. Any other extension is not
//! available (0A000).

use super::lexer::TokenKind;
use super::quote::literal;
use super::rewrite::Rewrite;
use super::words::Words;
use crate::error::{Error, ErrorKind, SqlState};

/// The extensions every database has: name, version, what `pg_extension`
/// shows.
pub const EXTENSIONS: &[(&str, &str)] = &[("plpgsql", "1.0"), ("pg_stat_statements", "1.10")];

/// The extensions `CREATE EXTENSION` installs: name, version.
pub const AVAILABLE: &[(&str, &str)] = &[("pgcrypto", "1.3"), ("uuid-ossp", "1.1")];

/// The table the installed ones are kept in.
pub const EXTENSIONS_TABLE: &str = "litewire_extensions";

const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS main.litewire_extensions (\
     name TEXT PRIMARY KEY, version TEXT NOT NULL)";

fn installed(name: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM main.{EXTENSIONS_TABLE} WHERE name = {})",
        literal(name)
    )
}

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
    if let Some((_, version)) = AVAILABLE.iter().find(|(known, _)| *known == name) {
        let mut script = vec![CREATE_TABLE.to_owned()];
        if !guarded {
            script.push(format!(
                "SELECT litewire_error('42710', {}) WHERE {}",
                literal(&format!("extension \"{name}\" already exists")),
                installed(&name)
            ));
        }
        script.push(format!(
            "INSERT OR IGNORE INTO main.{EXTENSIONS_TABLE} VALUES ({}, {})",
            literal(&name),
            literal(version)
        ));
        return Ok(Rewrite::script(script));
    }
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
    if AVAILABLE.iter().any(|(known, _)| *known == name) {
        let mut script = vec![CREATE_TABLE.to_owned()];
        if !guarded {
            script.push(format!(
                "SELECT litewire_error('42704', {}) WHERE NOT {}",
                literal(&format!("extension \"{name}\" does not exist")),
                installed(&name)
            ));
        }
        script.push(format!(
            "DELETE FROM main.{EXTENSIONS_TABLE} WHERE name = {}",
            literal(&name)
        ));
        return Ok(Rewrite::script(script));
    }
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
