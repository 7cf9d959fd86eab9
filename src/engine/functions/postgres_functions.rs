//! PostgreSQL 15's own `pg_proc` rows for the built-in functions the
//! PostgreSQL port answers, whether the dialect translation or the engine
//! answers them (`lower`, `count`, `to_char`, `jsonb_set`, ...): with
//! PostgreSQL's oids, argument and result types and signatures, so that
//! `'lower'::regproc`, `to_regproc`, `\df lower` and a driver's look at
//! `pg_proc` find them as PostgreSQL has them.
//!
//! `postgres_functions.tsv` is made by `tools/postgres-functions.py` from a
//! PostgreSQL 15 and a running litewire: it lists a signature only where a
//! call of it runs on litewire (and `tests/catalog.rs` calls each again).

use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::sql::quote::literal;

/// One row per signature: oid, proname, prokind, proretset, provariadic,
/// prorettype, prolang, procost, prorows, proisstrict, provolatile,
/// proparallel, pronargs, pronargdefaults, proleakproof, proargtypes,
/// proallargtypes, proargmodes, proargnames, prosrc, and the arguments and
/// result as `pg_get_function_arguments` and `pg_get_function_result` show
/// them, then an aggregate's `aggkind` and `aggnumdirectargs` (empty and 0 for
/// other functions), and PostgreSQL's description of it; tab-separated, with `\t`, `\n` and `\\` escaped; an empty
/// field is NULL where the column may be NULL.
const ROWS: &str = include_str!("postgres_functions.tsv");

/// The fields of each row.
const FIELDS: usize = 25;

/// The rows read from [`ROWS`], each field unescaped.
fn rows() -> impl Iterator<Item = Vec<String>> {
    ROWS.lines()
        .map(|line| line.split('\t').map(unescape).collect::<Vec<_>>())
        .filter(|fields| fields.len() == FIELDS)
}

fn unescape(field: &str) -> String {
    let mut text = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            text.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => text.push('\t'),
            Some('n') => text.push('\n'),
            Some(other) => text.push(other),
            None => text.push('\\'),
        }
    }
    text
}

/// Whether PostgreSQL has a built-in function of this name that litewire
/// lists from PostgreSQL's own rows.
pub(super) fn is_listed(name: &str) -> bool {
    static NAMES: OnceLock<HashSet<String>> = OnceLock::new();
    NAMES
        .get_or_init(|| rows().map(|fields| fields[1].clone()).collect())
        .contains(name)
}

/// The SQL that fills `pg_proc`, `litewire_signatures`, `pg_description`
/// (what `\df+` shows) and (for aggregates) `pg_aggregate` with the rows.
pub(super) fn catalog_rows() -> &'static str {
    static SCRIPT: OnceLock<String> = OnceLock::new();
    SCRIPT.get_or_init(|| {
        let mut script = String::new();
        let rows: Vec<Vec<String>> = rows().collect();
        for chunk in rows.chunks(100) {
            let procs: Vec<String> = chunk.iter().map(|fields| proc_values(fields)).collect();
            let signatures: Vec<String> = (chunk.iter())
                .map(|f| format!("({}, {}, {})", f[0], literal(&f[20]), literal(&f[21])))
                .collect();
            let _ = writeln!(
                script,
                "INSERT INTO temp.pg_proc VALUES {};\nINSERT INTO temp.litewire_signatures VALUES {};",
                procs.join(", "),
                signatures.join(", ")
            );
        }
        let descriptions: Vec<String> = (rows.iter().filter(|f| !f[24].is_empty()))
            .map(|f| format!("({}, 1255, 0, {})", f[0], literal(&f[24])))
            .collect();
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_description VALUES {};",
            descriptions.join(", ")
        );
        let aggregates: Vec<String> = (rows.iter().filter(|f| !f[22].is_empty()))
            .map(|f| aggregate_values(&f[0], &f[22], &f[23]))
            .collect();
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_aggregate VALUES {};",
            aggregates.join(", ")
        );
        script
    })
}

/// An aggregate's row of `pg_aggregate`: its function, kind (`n` normal,
/// `o` ordered-set, `h` hypothetical-set) and direct arguments; its support
/// functions, PostgreSQL's internals, are none here (0).
pub(super) fn aggregate_values(oid: &str, kind: &str, direct: &str) -> String {
    format!(
        "({oid}, {}, {direct}, 0, 0, 0, 0, 0, 0, 0, 0, false, false, 'r', 'r', 0, 0, 0, 0, 0, NULL, NULL)",
        literal(kind)
    )
}

/// One row's values in `pg_proc`'s column order.
fn proc_values(f: &[String]) -> String {
    let text = |i: usize| literal(&f[i]);
    let flag = |i: usize| if f[i] == "t" { "true" } else { "false" };
    let or_null = |i: usize| match f[i].is_empty() {
        true => "NULL".to_owned(),
        false => literal(&f[i]),
    };
    format!(
        "({oid}, {name}, 11, 10, {lang}, {cost}, {rows}, {variadic}, 0, {kind}, false, {leakproof}, {strict}, {retset}, {volatile}, {parallel}, {nargs}, {ndefaults}, {result}, {argtypes}, {allargtypes}, {argmodes}, {argnames}, NULL, NULL, {src}, NULL, NULL, NULL, NULL)",
        oid = f[0],
        name = text(1),
        kind = text(2),
        retset = flag(3),
        variadic = f[4],
        result = f[5],
        lang = f[6],
        cost = f[7],
        rows = f[8],
        strict = flag(9),
        volatile = text(10),
        parallel = text(11),
        nargs = f[12],
        ndefaults = f[13],
        leakproof = flag(14),
        argtypes = text(15),
        allargtypes = or_null(16),
        argmodes = or_null(17),
        argnames = or_null(18),
        src = text(19),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_reads_whole() {
        let lines = ROWS.lines().count();
        assert!(lines > 600, "{lines} rows");
        assert_eq!(rows().count(), lines, "a row without its {FIELDS} fields");
        for fields in rows() {
            assert!(
                fields[0].parse::<u32>().is_ok_and(|oid| oid < 9000),
                "{fields:?}"
            );
            let nargs: usize = fields[12].parse().unwrap_or(usize::MAX);
            assert_eq!(fields[15].split_whitespace().count(), nargs, "{fields:?}");
        }
    }

    #[test]
    fn names_and_escapes() {
        assert!(is_listed("lower") && is_listed("count") && is_listed("jsonb_set"));
        assert!(!is_listed("litewire_upper") && !is_listed("sqlite_version"));
        assert_eq!(unescape(r"a\tb\\n\nc"), "a\tb\\n\nc");
        let script = catalog_rows();
        assert!(script.contains("'lower'") && script.contains("'text'"));
    }
}
