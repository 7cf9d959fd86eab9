//! `litewire_query_plan(sql [, analyze])`: the lines `EXPLAIN` shows for a
//! statement (see `sql::explain`), as a JSON array: SQLite's query plan of
//! it, each step under the one it belongs to, marked `->` as PostgreSQL
//! marks a plan's children. With `analyze` (1, or 2 without the times) the statement (a query: it
//! changes nothing) runs too, and its rows and times are shown as
//! PostgreSQL's `EXPLAIN ANALYZE` shows them.

use std::collections::HashMap;
use std::ffi::CString;
use std::time::Instant;

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use super::sequences::{Cell, rows};

pub(super) const FUNCTIONS: &[Function] = &[
    Function::helper(
        "litewire_query_plan",
        Args::Fixed(&["text"]),
        Volatility::Volatile,
        plan,
    ),
    Function::helper(
        "litewire_query_plan",
        Args::Fixed(&["text", "int4"]),
        Volatility::Volatile,
        plan,
    ),
];

fn plan(call: &Call, args: &[Arg]) -> Out {
    let Some(sql) = args.first().and_then(Arg::text) else {
        return Out::Null;
    };
    // 1: run it and show its times; 2: run it without them (`SUMMARY off`).
    let analyze = args.get(1).and_then(Arg::int).unwrap_or(0);
    let Ok(explain) = CString::new(format!("EXPLAIN QUERY PLAN {sql}")) else {
        return Out::Error("a statement with a NUL character".into());
    };
    // SAFETY: `call.db` is the connection this function runs on.
    let steps = match unsafe { rows(call.db, &explain, &[], usize::MAX) } {
        Ok(steps) => steps,
        Err(failure) => return Out::Error(failure.message),
    };
    let mut lines = plan_lines(&steps);
    if analyze != 0 {
        let started = Instant::now();
        let Ok(statement) = CString::new(sql) else {
            return Out::Error("a statement with a NUL character".into());
        };
        // SAFETY: as above.
        let count = match unsafe { rows(call.db, &statement, &[], usize::MAX) } {
            Ok(rows) => rows.len(),
            Err(failure) => return Out::Error(failure.message),
        };
        let took = started.elapsed().as_secs_f64() * 1000.0;
        if let Some(first) = lines.first_mut() {
            first.push_str(&format!(" (actual rows={count} loops=1)"));
        }
        if analyze == 1 {
            lines.push("Planning Time: 0.000 ms".into());
            lines.push(format!("Execution Time: {took:.3} ms"));
        }
    }
    Out::Text(serde_json::to_string(&lines).unwrap_or_default())
}

/// `EXPLAIN QUERY PLAN`'s rows (id, parent, unused, detail) as plan lines.
fn plan_lines(steps: &[Vec<Cell>]) -> Vec<String> {
    let mut depths: HashMap<i64, usize> = HashMap::new();
    let mut lines = Vec::with_capacity(steps.len());
    for step in steps {
        let [id, parent, _, detail] = step.as_slice() else {
            continue;
        };
        let depth = depths.get(&parent.int()).map_or(0, |d| d + 1);
        depths.insert(id.int(), depth);
        let detail = match detail {
            Cell::Text(text) => text.as_str(),
            _ => "",
        };
        lines.push(match depth {
            0 => detail.to_owned(),
            d => format!("{}->  {detail}", " ".repeat(6 * (d - 1) + 2)),
        });
    }
    if lines.is_empty() {
        lines.push("Result".into());
    }
    lines
}
