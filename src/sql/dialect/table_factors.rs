//! Items of FROM that SQLite has no form for, as the relations that give the
//! same rows.
//!
//! Set-returning functions: `unnest(array) [AS] x` gives the array's elements
//! as rows of column `x`; `generate_series(start, stop[, step]) [AS] s(n)` the
//! integers from `start` to `stop`, by a recursive CTE.
//!
//! `unnest(a, b, ...) [WITH ORDINALITY] [AS] t(x, y, ..., n)` is a
//! select over `json_each` of the arrays side by side by position, a row per
//! element of the longest (Django's bulk `INSERT ... SELECT * FROM unnest(...)`),
//! with the position counted from 1 as the last column when asked for
//! (Django's index introspection).
//!
//! `(VALUES ...) AS t(a, b)`: SQLite names the columns of VALUES itself and
//! takes no column list after an alias.

use sqlparser::ast::{SetExpr, TableAlias, TableFactor};

use super::replacement::parse_query;
use crate::sql::quote::identifier;
use crate::sql::syntax_tree::idents;

/// Set-returning functions in FROM, as the SQLite relations that give the same
/// rows: `unnest(array) [AS] x`, the array's elements as rows of column `x`;
/// `generate_series(start, stop[, step]) [AS] s(n)`, the integers from `start`
/// to `stop`.
pub(super) fn table_factor(factor: &TableFactor) -> Option<TableFactor> {
    let (function, args, alias, ordinality) = match factor {
        TableFactor::UNNEST {
            array_exprs,
            alias,
            with_ordinality,
            ..
        } => (
            "unnest".to_owned(),
            array_exprs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<String>>(),
            alias,
            *with_ordinality,
        ),
        TableFactor::Table {
            name,
            args: Some(args),
            alias,
            with_ordinality,
            ..
        } => (
            idents(name).last()?.to_ascii_lowercase(),
            args.args.iter().map(ToString::to_string).collect(),
            alias,
            *with_ordinality,
        ),
        _ => return None,
    };
    let name = alias
        .as_ref()
        .map_or_else(|| function.clone(), |a| a.name.value.clone());
    // The column: the alias's column list names it, else the alias itself does.
    let column = alias
        .as_ref()
        .and_then(|a| a.columns.first())
        .map_or_else(|| name.clone(), |c| c.name.value.clone());
    let (name, column) = (identifier(&name), identifier(&column));
    let rows = match (function.as_str(), args.as_slice()) {
        ("unnest", arrays) if !arrays.is_empty() => {
            unnest_rows(arrays, alias.as_ref(), &column, ordinality)
        }
        // The session's channels, as the array the engine's helper gives.
        ("pg_listening_channels", []) => unnest_rows(
            &["litewire_listening_channels()".to_owned()],
            alias.as_ref(),
            &column,
            ordinality,
        ),
        // No relation, column or server has options here (`reloptions` and
        // the like are NULL): no rows, with the function's columns.
        ("pg_options_to_table", [_]) => {
            "SELECT NULL AS option_name, NULL AS option_value WHERE false".to_owned()
        }
        // The relation and the partitioned tables above it, nearest first.
        ("pg_partition_ancestors", [relation]) => {
            // Its column is `relid` unless the alias names it.
            let named = alias.as_ref().and_then(|a| a.columns.first());
            let column = identifier(named.map_or("relid", |c| c.name.value.as_str()));
            let depth = match ordinality {
                true => {
                    let named = alias.as_ref().and_then(|a| a.columns.get(1));
                    let depth = named.map_or("ordinality".to_owned(), |c| c.name.value.clone());
                    format!(", depth AS {}", identifier(&depth))
                }
                false => String::new(),
            };
            format!(
                "WITH RECURSIVE litewire_ancestors(relid, depth) AS (\
                 SELECT CAST({relation} AS INTEGER), 1 UNION ALL \
                 SELECT i.inhparent, a.depth + 1 FROM pg_inherits i \
                 JOIN litewire_ancestors a ON i.inhrelid = a.relid) \
                 SELECT relid AS {column}{depth} FROM litewire_ancestors"
            )
        }
        ("generate_series", [start, stop, step @ ..]) if step.len() <= 1 && !ordinality => {
            // Up to `stop` with a positive step, down to it with a negative
            // one; a zero step fails (22023) rather than never ending.
            let step = step.first().map_or("1", String::as_str);
            format!(
                "WITH RECURSIVE litewire_series(n, step, stop) AS (\
                 SELECT {start}, litewire_series_step({step}), {stop} \
                 UNION ALL SELECT n + step, step, stop FROM litewire_series \
                 WHERE (step > 0 AND n + step <= stop) OR (step < 0 AND n + step >= stop)) \
                 SELECT n AS {column} FROM litewire_series \
                 WHERE (step > 0 AND n <= stop) OR (step < 0 AND n >= stop)"
            )
        }
        _ => return None,
    };
    from_item(&format!("SELECT * FROM ({rows}) AS {name}"))
}

/// `(VALUES (...), ...) AS t(a, b)`: SQLite names the columns of VALUES
/// `column1`, `column2`, ... and takes no column list after an alias, so the
/// rows are read through a select that names them.
pub(super) fn named_values(factor: &TableFactor) -> Option<TableFactor> {
    let TableFactor::Derived {
        subquery,
        alias: Some(alias),
        ..
    } = factor
    else {
        return None;
    };
    if alias.columns.is_empty() || !matches!(*subquery.body, SetExpr::Values(_)) {
        return None;
    }
    let columns: Vec<String> = alias
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| format!("column{} AS {}", i + 1, identifier(&c.name.value)))
        .collect();
    from_item(&format!(
        "SELECT * FROM (SELECT {} FROM ({subquery})) AS {}",
        columns.join(", "),
        identifier(&alias.name.value)
    ))
}

/// The one FROM item of `SELECT * FROM <item>`, parsed.
fn from_item(sql: &str) -> Option<TableFactor> {
    let query = parse_query(sql)?;
    let SetExpr::Select(select) = *query.body else {
        return None;
    };
    select.from.into_iter().next().map(|t| t.relation)
}

/// The rows of `unnest(arrays) [WITH ORDINALITY] [AS] alias(columns)` in FROM, as
/// a select. `single` is the column of a one-array unnest when the alias names
/// none (the alias itself, else `unnest`), already quoted.
fn unnest_rows(
    arrays: &[String],
    alias: Option<&TableAlias>,
    single: &str,
    ordinality: bool,
) -> String {
    let named = |i: usize, default: &str| {
        alias
            .and_then(|a| a.columns.get(i))
            .map_or_else(|| identifier(default), |c| identifier(&c.name.value))
    };
    // One array's elements, or several side by side (as many rows as the
    // longest has elements, NULL where a shorter one has ended).
    let (mut columns, source) = match arrays {
        [array] => (
            vec![format!("e.value AS {single}")],
            format!("litewire_array_json({array})"),
        ),
        _ => (
            (0..arrays.len())
                .map(|i| format!("json_extract(e.value, '$[{i}]') AS {}", named(i, "unnest")))
                .collect(),
            format!("litewire_arrays_json({})", arrays.join(", ")),
        ),
    };
    if ordinality {
        columns.push(format!(
            "e.key + 1 AS {}",
            named(arrays.len(), "ordinality")
        ));
    }
    format!(
        "SELECT {} FROM json_each({source}) AS e",
        columns.join(", ")
    )
}
