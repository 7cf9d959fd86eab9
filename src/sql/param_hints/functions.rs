//! Functions as PostgreSQL's signatures type them: the arguments and result
//! each fixes, and the functions whose arguments and result share one type.

use sqlparser::ast::{Expr, Function, FunctionArguments, ObjectNamePart};

use crate::sql::syntax_tree::plain_args;

/// What PostgreSQL's signature of a function fixes: the type of each argument
/// (the last repeats for a variadic one) and, where it is one type, the result's.
pub(super) struct Signature {
    pub(super) args: &'static [&'static str],
    pub(super) variadic: bool,
    pub(super) result: Option<&'static str>,
}

pub(super) fn signature(name: &str, argc: usize) -> Option<Signature> {
    const TEXT: &[&str] = &["text"];
    const FLOAT: &[&str] = &["double precision"];
    fn fixed(args: &'static [&'static str], result: Option<&'static str>) -> Option<Signature> {
        Some(Signature::new(args, false, result))
    }
    match (name, argc) {
        ("length" | "char_length" | "character_length" | "octet_length" | "bit_length", _)
        | ("ascii", _) => fixed(TEXT, Some("integer")),
        (
            "lower" | "upper" | "initcap" | "reverse" | "md5" | "quote_ident" | "quote_literal",
            _,
        ) => fixed(TEXT, Some("text")),
        ("btrim" | "ltrim" | "rtrim", _) => fixed(&["text", "text"], Some("text")),
        ("strpos", _) => fixed(&["text", "text"], Some("integer")),
        ("starts_with", _) => fixed(&["text", "text"], Some("boolean")),
        ("replace" | "translate" | "regexp_replace", _) => {
            fixed(&["text", "text", "text"], Some("text"))
        }
        ("substr", _) => fixed(&["text", "integer", "integer"], Some("text")),
        ("left" | "right" | "repeat", _) => fixed(&["text", "integer"], Some("text")),
        ("lpad" | "rpad", _) => fixed(&["text", "integer", "text"], Some("text")),
        ("split_part", _) => fixed(&["text", "text", "integer"], Some("text")),
        ("concat" | "concat_ws", _) => Some(Signature::new(TEXT, true, Some("text"))),
        ("chr", _) => fixed(&["integer"], Some("text")),
        ("date_trunc" | "date_part", _) => fixed(TEXT, None),
        // Of the numeric overloads, PostgreSQL picks the one of its preferred
        // numeric type for an untyped argument; the result follows the argument.
        ("abs" | "sqrt" | "cbrt" | "exp" | "ln" | "sign" | "round", 1) => fixed(FLOAT, None),
        ("power" | "pow", 2) => fixed(&["double precision", "double precision"], None),
        ("round", 2) => fixed(&["numeric", "integer"], Some("numeric")),
        ("to_timestamp", 1) => fixed(FLOAT, Some("timestamptz")),
        ("to_timestamp", 2) => fixed(&["text", "text"], Some("timestamptz")),
        (
            "pg_advisory_lock"
            | "pg_advisory_lock_shared"
            | "pg_advisory_xact_lock"
            | "pg_advisory_xact_lock_shared"
            | "pg_try_advisory_lock"
            | "pg_try_advisory_lock_shared"
            | "pg_try_advisory_xact_lock"
            | "pg_try_advisory_xact_lock_shared"
            | "pg_advisory_unlock"
            | "pg_advisory_unlock_shared",
            1,
        ) => fixed(&["bigint"], None),
        (
            "pg_advisory_lock"
            | "pg_advisory_lock_shared"
            | "pg_advisory_xact_lock"
            | "pg_advisory_xact_lock_shared"
            | "pg_try_advisory_lock"
            | "pg_try_advisory_lock_shared"
            | "pg_try_advisory_xact_lock"
            | "pg_try_advisory_xact_lock_shared"
            | "pg_advisory_unlock"
            | "pg_advisory_unlock_shared",
            2,
        ) => fixed(&["integer", "integer"], None),
        ("pg_blocking_pids" | "pg_cancel_backend" | "pg_terminate_backend", 1) => {
            fixed(&["integer"], None)
        }
        ("pg_terminate_backend", 2) => fixed(&["integer", "bigint"], None),
        ("pg_notify", 2) => fixed(&["text", "text"], None),
        ("pg_sleep", 1) => fixed(&["double precision"], None),
        ("pg_sleep_for", 1) => fixed(&["interval"], None),
        ("pg_stat_statements_reset", n @ 1..=3) => fixed(&["oid", "oid", "bigint"][..n], None),
        _ => None,
    }
}

impl Signature {
    fn new(args: &'static [&'static str], variadic: bool, result: Option<&'static str>) -> Self {
        Signature {
            args,
            variadic,
            result,
        }
    }
}

/// Functions whose arguments and result share one type.
pub(super) fn is_unifying(name: &str) -> bool {
    matches!(name, "coalesce" | "nullif" | "greatest" | "least")
}

pub(super) fn function_name(function: &Function) -> Option<String> {
    match function.name.0.last()? {
        ObjectNamePart::Identifier(ident) => Some(ident.value.to_ascii_lowercase()),
        ObjectNamePart::Function(_) => None,
    }
}

/// The plain argument expressions of a call.
pub(super) fn arguments(function: &Function) -> Vec<&Expr> {
    match &function.args {
        FunctionArguments::List(list) => plain_args(list),
        _ => Vec::new(),
    }
}
