//! `GRANT` and `REVOKE` of privileges on tables, sequences, schemas, the
//! database and functions, and of roles, as `pg_dump` and migration tools
//! write them.
//!
//! What a session may do is its role's (see `engine::access`: `admin`,
//! `readwrite`, `readonly`, from the users file), not a privilege per object:
//! so a grant checks that its objects exist (PostgreSQL's error where one does
//! not) and changes nothing, and `has_table_privilege` answers from the role.

use super::ownership::{Kind, must_exist};
use super::rewrite::Rewrite;
use super::words::Words;
use crate::error::Error;

/// The statement when it is a `GRANT` or `REVOKE`: the checks it runs.
pub(super) fn statement(w: &Words) -> Option<Result<Rewrite, Error>> {
    if !(w.is(0, "GRANT") || w.is(0, "REVOKE")) {
        return None;
    }
    Some(checks(w))
}

fn checks(w: &Words) -> Result<Rewrite, Error> {
    let target = match w.is(0, "GRANT") {
        true => "TO",
        false => "FROM",
    };
    // The privileges end at `ON` (a column list may come in parentheses);
    // a grant of roles has none.
    let mut depth = 0usize;
    let mut on = None;
    for i in 1..w.tokens.len() {
        match w.text(i) {
            "(" => depth += 1,
            ")" => depth = depth.saturating_sub(1),
            _ if depth == 0 && w.is(i, "ON") => {
                on = Some(i);
                break;
            }
            _ if depth == 0 && w.is(i, target) => break,
            _ => {}
        }
    }
    let Some(on) = on else {
        return Ok(Rewrite::nothing());
    };
    let mut i = on + 1;
    let kind = if w.is(i, "ALL") && w.is(i + 2, "IN") && w.is(i + 3, "SCHEMA") {
        // `ALL TABLES | SEQUENCES | FUNCTIONS ... IN SCHEMA s, ...`.
        i += 4;
        Kind::Schema
    } else if w.is(i, "TABLE") {
        i += 1;
        Kind::Relation
    } else if w.is(i, "SEQUENCE") {
        i += 1;
        Kind::Sequence
    } else if w.is(i, "SCHEMA") {
        i += 1;
        Kind::Schema
    } else if w.is(i, "TYPE") || w.is(i, "DOMAIN") {
        i += 1;
        Kind::Type
    } else if [
        "DATABASE",
        "FUNCTION",
        "PROCEDURE",
        "ROUTINE",
        "LANGUAGE",
        "LARGE",
        "FOREIGN",
    ]
    .iter()
    .any(|kind| w.is(i, kind))
    {
        return Ok(Rewrite::nothing());
    } else {
        Kind::Relation
    };
    let (names, end) = w.name_list(i, &[target]);
    if names.is_empty() {
        return Err(w.syntax_error(i));
    }
    if !w.is(end, target) {
        return Err(w.syntax_error(end));
    }
    let mut script = Vec::new();
    for name in names {
        for check in must_exist(kind, &name)? {
            if !script.contains(&check) {
                script.push(check);
            }
        }
    }
    Ok(match script.is_empty() {
        true => Rewrite::nothing(),
        false => Rewrite::script(script),
    })
}
