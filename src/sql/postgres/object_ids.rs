//! The `reg*` types (`regclass`, `regtype`, `regproc`, `regnamespace`,
//! `regrole`): object ids that are read from a name and shown as one. In
//! between they are oids, so `c.oid = 't'::regclass` and `p.oid =
//! t.typinput` compare numbers, as in PostgreSQL.
//!
//! A name becomes its object's oid by the statement-level translation's
//! `to_regclass()` (and kin), with PostgreSQL's error where there is no such
//! object; an oid becomes the name a result column shows by `regclassout()`
//! (and kin), which only the outermost select list applies: the value stays
//! an oid for everything that reads it, `ORDER BY` included.

use sqlparser::ast::{BinaryOperator, Expr};

use super::build::{binary, call, case_when, nested, null, number, string};
use super::errors::{Result, out_of_range};
use super::types::{ObjectKind, PgType};

/// The lookup of a name as an object's oid (NULL for none).
fn lookup_function(kind: ObjectKind) -> &'static str {
    match kind {
        ObjectKind::Class => "to_regclass",
        ObjectKind::Type => "to_regtype",
        ObjectKind::Proc => "to_regproc",
        ObjectKind::Namespace => "to_regnamespace",
        ObjectKind::Role => "to_regrole",
    }
}

/// The name an oid shows as (the oid itself where there is no such object,
/// `-` for 0).
fn output_function(kind: ObjectKind) -> &'static str {
    match kind {
        ObjectKind::Class => "regclassout",
        ObjectKind::Type => "regtypeout",
        ObjectKind::Proc => "regprocout",
        ObjectKind::Namespace => "regnamespaceout",
        ObjectKind::Role => "regroleout",
    }
}

/// PostgreSQL's error for a name that names nothing: its SQLSTATE and the
/// message's words before the quoted name.
fn missing(kind: ObjectKind) -> (&'static str, &'static str) {
    match kind {
        ObjectKind::Class => ("42P01", "relation"),
        ObjectKind::Type => ("42704", "type"),
        ObjectKind::Proc => ("42883", "function"),
        ObjectKind::Namespace => ("3F000", "schema"),
        ObjectKind::Role => ("42704", "role"),
    }
}

/// `'t'::regclass`: digits are the oid itself, a name its object's oid,
/// failing as PostgreSQL fails when there is none.
pub(super) fn literal(text: &str, kind: ObjectKind) -> Result<Expr> {
    let trimmed = text.trim();
    if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) {
        return match trimmed.parse::<u32>() {
            Ok(oid) => Ok(number(oid.to_string())),
            Err(_) => Err(out_of_range(&PgType::Oid, trimmed)),
        };
    }
    // A type by any of its spellings (`int`, `double precision`).
    let name = match PgType::from_name(text).as_ref().and_then(PgType::name) {
        Some(typname) if kind == ObjectKind::Type => typname,
        _ => text,
    };
    let (state, noun) = missing(kind);
    Ok(call(
        "coalesce",
        vec![
            call(lookup_function(kind), vec![string(name)]),
            call(
                "litewire_error",
                vec![
                    string(state),
                    string(&format!("{noun} \"{text}\" does not exist")),
                ],
            ),
        ],
    ))
}

/// A text as the object it names, when the statement runs: by name only
/// (PostgreSQL's `text::regclass` reads no oid from digits, unlike a literal).
pub(super) fn looked_up(text: Expr, kind: ObjectKind) -> Expr {
    let (state, noun) = missing(kind);
    let text = nested(text);
    let concat = |left: Expr, right: Expr| binary(left, BinaryOperator::StringConcat, right);
    let message = concat(
        concat(string(&format!("{noun} \"")), text.clone()),
        string("\" does not exist"),
    );
    case_when(
        vec![(Expr::IsNull(Box::new(text.clone())), null())],
        call(
            "coalesce",
            vec![
                call(lookup_function(kind), vec![text]),
                call("litewire_error", vec![string(state), message]),
            ],
        ),
    )
}

/// A value litewire cannot type (a catalog column) as a `reg*`: a number is
/// the oid, a text the name of one.
pub(super) fn from_untyped(value: Expr, kind: ObjectKind) -> Expr {
    let value = nested(value);
    case_when(
        vec![(
            binary(
                call("typeof", vec![value.clone()]),
                BinaryOperator::Eq,
                string("text"),
            ),
            call(lookup_function(kind), vec![value.clone()]),
        )],
        value,
    )
}

/// An oid as the name it shows (`::text` of a `reg*`).
pub(super) fn shown(oid: Expr, kind: ObjectKind) -> Expr {
    call(output_function(kind), vec![oid])
}
