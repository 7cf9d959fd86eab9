//! The one list of litewire's SQL functions: every family's definitions (see
//! `definition`), registered on every connection by [`register`] and listed in
//! `pg_proc` by [`catalog_rows`], so that the catalog names exactly what
//! exists: PostgreSQL's own rows for the built-ins litewire answers (see
//! `postgres_functions`), and a row of litewire's for each listed function
//! PostgreSQL has no built-in of that name for.

use std::ffi::{CString, c_void};
use std::fmt::Write as _;

use libsqlite3_sys as ffi;

use super::call::{Registered, call_scalar, release};
use super::context::{FunctionContext, ServerShared};
use super::definition::{Args, Body, Function, Volatility};
use super::{
    arithmetic, array_elements, arrays, bitwise, bytes, catalog, comparisons, conversions, crypto,
    date_parsing, dates, datetime, decimal, encoding, explain, format, formatting, intervals, json,
    json_path, json_text, json_verbatim, locks, math, modifiers, network, number_format,
    numeric_spread, ordered_sets, partitioning, postgres_functions, random, records, recovery,
    regexp_rows, regexps, sequences, settings, signals, sleep, stat_views, statistics, strings,
    subqueries, trigonometry,
};
use crate::engine::catalog::types::{format_type, type_oid};
use crate::sql::quote::literal;

/// Every family's functions.
fn families() -> [&'static [Function]; 44] {
    [
        settings::FUNCTIONS,
        arithmetic::FUNCTIONS,
        decimal::FUNCTIONS,
        math::FUNCTIONS,
        trigonometry::FUNCTIONS,
        comparisons::FUNCTIONS,
        conversions::FUNCTIONS,
        modifiers::FUNCTIONS,
        sequences::FUNCTIONS,
        locks::FUNCTIONS,
        signals::FUNCTIONS,
        recovery::FUNCTIONS,
        stat_views::FUNCTIONS,
        sleep::FUNCTIONS,
        catalog::FUNCTIONS,
        arrays::FUNCTIONS,
        array_elements::FUNCTIONS,
        bytes::FUNCTIONS,
        strings::FUNCTIONS,
        regexps::FUNCTIONS,
        regexp_rows::FUNCTIONS,
        encoding::FUNCTIONS,
        datetime::FUNCTIONS,
        dates::FUNCTIONS,
        intervals::FUNCTIONS,
        formatting::FUNCTIONS,
        date_parsing::FUNCTIONS,
        number_format::FUNCTIONS,
        json::FUNCTIONS,
        json_text::FUNCTIONS,
        json_verbatim::FUNCTIONS,
        records::FUNCTIONS,
        statistics::FUNCTIONS,
        json_path::FUNCTIONS,
        network::FUNCTIONS,
        numeric_spread::FUNCTIONS,
        bitwise::FUNCTIONS,
        ordered_sets::FUNCTIONS,
        format::FUNCTIONS,
        subqueries::FUNCTIONS,
        random::FUNCTIONS,
        crypto::FUNCTIONS,
        partitioning::FUNCTIONS,
        explain::FUNCTIONS,
    ]
}

/// Every function, in registration order.
fn all() -> impl Iterator<Item = &'static Function> {
    families().into_iter().flatten()
}

/// Registers every function on a new connection, with the state they share.
///
/// # Safety
/// `db` must be a valid, open connection handle that nobody else uses meanwhile.
pub(in crate::engine) unsafe fn register(
    db: *mut ffi::sqlite3,
    server: &ServerShared,
) -> Result<(), String> {
    let context = FunctionContext::new(server.clone());
    // SAFETY: per the caller.
    unsafe { FunctionContext::attach(db, &context) }?;
    for function in all() {
        let name = CString::new(function.name).map_err(|e| e.to_string())?;
        let deterministic = match function.volatility {
            Volatility::Immutable => ffi::SQLITE_DETERMINISTIC,
            Volatility::Stable | Volatility::Volatile => 0,
        };
        let flags = ffi::SQLITE_UTF8 | deterministic;
        let rc = match function.body {
            Body::Scalar(body) => {
                let registered = Box::into_raw(Box::new(Registered {
                    body,
                    context: context.clone(),
                }));
                // SAFETY: the caller guarantees `db`; the name is copied by SQLite;
                // SQLite owns `registered` from here and frees it with `release`
                // (also when registration fails).
                unsafe {
                    ffi::sqlite3_create_function_v2(
                        db,
                        name.as_ptr(),
                        function.arity(),
                        flags,
                        registered.cast::<c_void>(),
                        Some(call_scalar),
                        None,
                        None,
                        Some(release),
                    )
                }
            }
            // SAFETY: as above; the aggregate keeps its state in SQLite's
            // aggregate context and needs no user data.
            Body::Aggregate(aggregate) => unsafe {
                ffi::sqlite3_create_function_v2(
                    db,
                    name.as_ptr(),
                    function.arity(),
                    flags,
                    std::ptr::null_mut(),
                    None,
                    Some(aggregate.step),
                    Some(aggregate.finish),
                    None,
                )
            },
        };
        if rc != ffi::SQLITE_OK {
            return Err(format!("registering {}: SQLite error {rc}", function.name));
        }
    }
    Ok(())
}

/// The first oid of litewire's functions in `pg_proc` (after PostgreSQL's
/// built-in objects, before user objects' 16384 + rowid).
const FIRST_OID: i64 = 9000;

/// The oids of PostgreSQL's pseudo-types, which functions take and return but
/// no column has.
const PSEUDO_TYPES: &[(&str, i64)] = &[
    ("any", 2276),
    ("anyarray", 2277),
    ("anyelement", 2283),
    ("record", 2249),
    ("void", 2278),
    ("regclass", 2205),
];

fn oid_of(type_name: &str) -> i64 {
    PSEUDO_TYPES
        .iter()
        .find(|(name, _)| *name == type_name)
        .map_or_else(|| type_oid(type_name), |(_, oid)| *oid)
}

/// The SQL that fills `pg_proc` (and `litewire_signatures`, what
/// `pg_get_function_arguments` and `pg_get_function_result` show) with one
/// row per listed function.
pub(in crate::engine) fn catalog_rows() -> String {
    let mut script = postgres_functions::catalog_rows().to_owned();
    let own = (all().filter(|f| f.listed).enumerate())
        .filter(|(_, f)| !postgres_functions::is_listed(f.name));
    for (index, function) in own {
        let oid = FIRST_OID + index as i64;
        let (argtypes, variadic, nargs) = match function.args {
            Args::Fixed(args) => {
                let oids: Vec<String> = args.iter().map(|a| oid_of(a).to_string()).collect();
                (oids.join(" "), 0, args.len())
            }
            Args::Variadic(element) => (oid_of(element).to_string(), oid_of(element), 1),
        };
        let (kind, volatility) = (
            match function.body {
                Body::Scalar(_) => "f",
                Body::Aggregate(_) => "a",
            },
            match function.volatility {
                Volatility::Immutable => "i",
                Volatility::Stable => "s",
                Volatility::Volatile => "v",
            },
        );
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_proc VALUES ({oid}, {name}, 11, 10, 12, 1, 0, {variadic}, 0, '{kind}', false, false, true, false, '{volatility}', 's', {nargs}, 0, {result}, {argtypes}, NULL, NULL, NULL, NULL, NULL, {name}, NULL, NULL, NULL, NULL);",
            name = literal(function.name),
            result = oid_of(function.result),
            argtypes = literal(&argtypes),
        );
        let shown = |name: &str| format_type(oid_of(name), None);
        let arguments = match function.args {
            Args::Fixed(args) => args.iter().map(|a| shown(a)).collect::<Vec<_>>().join(", "),
            Args::Variadic("any") => "VARIADIC \"any\"".to_owned(),
            Args::Variadic(element) => format!("VARIADIC {}[]", shown(element)),
        };
        if kind == "a" {
            let row = postgres_functions::aggregate_values(&oid.to_string(), "n", "0");
            let _ = writeln!(script, "INSERT INTO temp.pg_aggregate VALUES {row};");
        }
        let _ = writeln!(
            script,
            "INSERT INTO temp.litewire_signatures VALUES ({oid}, {}, {});",
            literal(&arguments),
            literal(&shown(function.result)),
        );
    }
    script
}
