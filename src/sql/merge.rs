//! `MERGE` on the PostgreSQL port, PostgreSQL 15's form: `[WITH ...] MERGE
//! INTO t USING s ON ... WHEN [NOT] MATCHED [AND ...] THEN UPDATE SET ... |
//! DELETE | INSERT ... | DO NOTHING`.
//!
//! SQLite has no `MERGE`, so it runs in stages, all in one savepoint (see
//! `Plan::Staged`). The source's rows are copied into a temporary table; each
//! is paired with the target rows it matches (or with none) and given the
//! first `WHEN` clause whose condition holds, before anything changes, as
//! PostgreSQL decides every row against the tables as the statement found
//! them. A target row that two source rows would change is refused (21000)
//! before anything changes. Then each clause's action runs as the `UPDATE`,
//! `DELETE` or `INSERT` of its rows, each read with PostgreSQL's rules as the
//! statement it is. The command tag counts the rows inserted, updated and
//! deleted. Each stage binds the statement's parameters it uses.

use std::sync::Arc;

use sqlparser::ast::{
    Expr, MergeAction, MergeClause, MergeClauseKind, MergeInsertKind, MergeUpdateKind, Query,
    SetExpr, Statement as Ast, TableFactor,
};
use sqlparser::dialect::{PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

use super::classify::{Action, CommandKind, Shape};
use super::lexer::tokenize;
use super::modifying_ctes::{Build, Captured, holding_table, parse_query};
use super::postgres::{Catalog, PgType, RelColumn, Relation, is_default, translate_view};
use super::quote::identifier;
use super::statement::{Plan, Staged, Statement};
use super::statement_fields;
use super::syntax_tree::{alias_of, idents};
use crate::error::{Error, ErrorKind, SqlState};

/// The temporary table that holds the source's rows (its rowid names each).
const SOURCE: &str = "litewire_merge_source";
/// The temporary table that pairs each source row with the target row it
/// matches (NULL for none) and the clause it takes (0 for none).
const PAIRS: &str = "litewire_merge_pairs";

/// The staged statement `text` is, where it is a `MERGE`; `None` where it is
/// not.
pub(super) fn statement(
    text: &str,
    catalog: &dyn Catalog,
    build: Build,
) -> Result<Option<Statement>, Error> {
    let text = default_values(text);
    let parsed = Parser::parse_sql(&PostgreSqlDialect {}, &text).map_err(|e| syntax(&text, &e))?;
    let (with, merge) = match parsed.as_slice() {
        [Ast::Merge(merge)] => (None, merge),
        [Ast::Query(query)] => match &*query.body {
            SetExpr::Merge(Ast::Merge(merge)) => (query.with.as_ref(), merge),
            _ => return Ok(None),
        },
        _ => return Ok(None),
    };
    if merge.output.is_some() {
        return Err(Error::new(
            ErrorKind::Syntax,
            "syntax error at or near \"RETURNING\"",
        ));
    }
    if with.is_some_and(|w| w.recursive) {
        return Err(Error::state(
            SqlState::SYNTAX_ERROR,
            "WITH RECURSIVE is not supported for MERGE statement",
        ));
    }
    let clauses = read_clauses(&merge.clauses)?;
    let target = Target::read(&merge.table, catalog)?;
    let with = with.map_or(String::new(), |w| format!("{w} "));
    let source_name = match &merge.source {
        TableFactor::Table {
            alias: None, name, ..
        } => idents(name).last().cloned().unwrap_or_default(),
        factor => match alias_of(factor).map(|a| a.value.clone()) {
            Some(alias) => alias,
            None => {
                return Err(Error::state(
                    SqlState::SYNTAX_ERROR,
                    "subquery in FROM must have an alias",
                ));
            }
        },
    };
    let source = identifier(&source_name);
    let read_source = build(&format!("{with}SELECT * FROM {}", merge.source), catalog)?;
    let source_columns = source_columns(&with, &merge.source, catalog)?;
    let holding = Captured {
        inner: catalog,
        captured: vec![
            held(SOURCE, source_columns.clone()),
            held(
                PAIRS,
                vec![
                    RelColumn::holding("litewire_target".into(), PgType::Int8),
                    RelColumn::holding("litewire_source".into(), PgType::Int8),
                    RelColumn::holding("litewire_clause".into(), PgType::Int4),
                ],
            ),
        ],
    };
    let param_count = std::cell::Cell::new(read_source.param_count);
    let run = |sql: &str| -> Result<Vec<String>, Error> {
        let built = build(sql, &holding)?;
        param_count.set(param_count.get().max(built.param_count));
        match &built.plan {
            Plan::Single => Ok(vec![built.sql.to_string()]),
            Plan::Script(parts) => Ok(parts.iter().map(|p| p.to_string()).collect()),
            _ => Err(Error::not_supported("this MERGE")),
        }
    };
    let one = |sql: &str| -> Result<String, Error> {
        match run(sql)?.as_slice() {
            [only] => Ok(only.clone()),
            _ => Err(Error::not_supported("this MERGE")),
        }
    };

    let mut before = vec![
        holding_table(SOURCE, &source_columns),
        format!(
            "CREATE TEMP TABLE {PAIRS} (litewire_target INTEGER, litewire_source INTEGER, \
             litewire_clause INTEGER)"
        ),
    ];
    if read_source.plan != Plan::Single {
        return Err(Error::not_supported("this MERGE source"));
    }
    before.push(format!("INSERT INTO temp.{SOURCE} {}", read_source.sql));

    // Every source row's clause, decided before anything changes.
    let (table, alias) = (&target.table, &target.alias);
    let on = &merge.on;
    let held_source = format!("{SOURCE} AS {source}");
    let choice = |kind: Kind| {
        let whens: Vec<String> = (clauses.iter().enumerate())
            .filter(|(_, c)| c.kind == kind)
            .map(|(i, c)| {
                let condition = c
                    .condition
                    .as_ref()
                    .map_or("true".into(), |e| e.to_string());
                format!("WHEN {condition} THEN {}", i + 1)
            })
            .collect();
        format!("CASE {} ELSE 0 END", whens.join(" "))
    };
    if clauses.iter().any(|c| c.kind == Kind::Matched) {
        let pairs = one(&format!(
            "{with}SELECT {alias}.rowid, {source}.rowid, {} FROM {held_source} \
             JOIN {table} AS {alias} ON {on}",
            choice(Kind::Matched)
        ))?;
        before.push(format!("INSERT INTO temp.{PAIRS} {pairs}"));
    }
    if clauses.iter().any(|c| c.kind == Kind::NotMatched) {
        let pairs = one(&format!(
            "{with}SELECT NULL, {source}.rowid, {} FROM {held_source} \
             WHERE NOT EXISTS (SELECT FROM {table} AS {alias} WHERE {on})",
            choice(Kind::NotMatched)
        ))?;
        before.push(format!("INSERT INTO temp.{PAIRS} {pairs}"));
    }
    let changing: Vec<String> = (clauses.iter().enumerate())
        .filter(|(_, c)| {
            c.kind == Kind::Matched && !matches!(c.action, MergeAction::DoNothing { .. })
        })
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    if !changing.is_empty() {
        before.push(format!(
            "SELECT litewire_error('21000', 'MERGE command cannot affect row a second time') \
             FROM temp.{PAIRS} WHERE litewire_clause IN ({}) \
             GROUP BY litewire_target HAVING count(*) > 1",
            changing.join(", ")
        ));
    }

    // Each clause's action, on the rows that took it.
    let mut counted = Vec::new();
    for (i, clause) in clauses.iter().enumerate() {
        let n = i + 1;
        let taken = format!("{PAIRS}.litewire_clause = {n}");
        let paired = format!("JOIN {PAIRS} ON {source}.rowid = {PAIRS}.litewire_source");
        match &clause.action {
            MergeAction::DoNothing { .. } => continue,
            MergeAction::Delete { .. } => before.extend(run(&format!(
                "{with}DELETE FROM {table} WHERE rowid IN \
                 (SELECT litewire_target FROM {PAIRS} WHERE {taken})"
            ))?),
            MergeAction::Update(update) => {
                let MergeUpdateKind::Set(assignments) = &update.kind else {
                    return Err(syntax_near("*"));
                };
                let assignments: Vec<String> = assignments.iter().map(|a| a.to_string()).collect();
                before.extend(run(&format!(
                    "{with}UPDATE {table} AS {alias} SET {} FROM {held_source} {paired} \
                     WHERE {alias}.rowid = {PAIRS}.litewire_target AND {taken}",
                    assignments.join(", ")
                ))?);
            }
            MergeAction::Insert(insert) => {
                let MergeInsertKind::Values(values) = &insert.kind else {
                    return Err(syntax_near("VALUES"));
                };
                let [row] = values.rows.iter().map(|r| &r.content).collect::<Vec<_>>()[..] else {
                    return Err(Error::state(
                        SqlState::SYNTAX_ERROR,
                        "syntax error at or near \",\"",
                    ));
                };
                let named: Vec<String> = match insert.columns.is_empty() {
                    false => insert.columns.iter().map(|c| c.to_string()).collect(),
                    true => (target.columns.iter())
                        .filter(|c| !c.generated)
                        .map(|c| identifier(&c.name))
                        .take(row.len())
                        .collect(),
                };
                // `DEFAULT` leaves the column to its default.
                let (columns, values): (Vec<&String>, Vec<String>) = (named.iter().zip(row))
                    .filter(|(_, value)| !is_default(value))
                    .map(|(column, value)| (column, value.to_string()))
                    .unzip();
                let extra = row.len().saturating_sub(named.len());
                let values: Vec<String> = (values.into_iter())
                    .chain(row.iter().skip(named.len()).map(|v| v.to_string()))
                    .collect();
                let columns: Vec<&str> = columns.iter().map(|c| c.as_str()).collect();
                let listed = match (columns.is_empty(), extra) {
                    (true, 0) => String::new(),
                    _ => format!("({})", columns.join(", ")),
                };
                if values.is_empty() {
                    let one_row = one(&format!("INSERT INTO {table} DEFAULT VALUES"))?;
                    before.push(defaults_per_row(&one_row, &taken)?);
                } else {
                    before.extend(run(&format!(
                        "{with}INSERT INTO {table} {listed} SELECT {} FROM {held_source} \
                         {paired} WHERE {taken} ORDER BY {source}.rowid",
                        values.join(", ")
                    ))?);
                }
            }
        }
        counted.push(n.to_string());
    }
    if counted.is_empty() {
        counted.push("-1".into());
    }
    // What the tag counts: the rows that took a clause that changes one.
    let count = format!(
        "DELETE FROM temp.{PAIRS} WHERE litewire_clause IN ({})",
        counted.join(", ")
    );
    let shape = Shape {
        action: Action::Write,
        kind: CommandKind::Merge,
        returns_rows: false,
    };
    let staged = Plan::Staged(Arc::new(Staged {
        before: before.into_iter().map(Arc::from).collect(),
        after: [SOURCE, PAIRS]
            .iter()
            .map(|t| Arc::from(format!("DROP TABLE temp.{t}")))
            .collect(),
    }));
    let statement = statement_fields::statement(count.into(), &shape, param_count.get(), staged);
    Ok(Some(statement))
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Matched,
    NotMatched,
}

/// One `WHEN` clause.
struct Clause<'a> {
    kind: Kind,
    condition: Option<&'a Expr>,
    action: &'a MergeAction,
}

/// The clauses, as PostgreSQL 15 takes them: no `BY SOURCE`, no clause after
/// one without a condition of its kind (it could never run).
fn read_clauses(clauses: &[MergeClause]) -> Result<Vec<Clause<'_>>, Error> {
    let mut read: Vec<Clause> = Vec::new();
    for clause in clauses {
        let kind = match clause.clause_kind {
            MergeClauseKind::Matched => Kind::Matched,
            MergeClauseKind::NotMatched => Kind::NotMatched,
            MergeClauseKind::NotMatchedByTarget | MergeClauseKind::NotMatchedBySource => {
                return Err(syntax_near("BY"));
            }
        };
        let oracle = match &clause.action {
            MergeAction::Update(u) => u.update_predicate.is_some() || u.delete_predicate.is_some(),
            MergeAction::Insert(i) => i.insert_predicate.is_some(),
            _ => false,
        };
        if oracle {
            return Err(syntax_near("WHERE"));
        }
        if read.iter().any(|c| c.kind == kind && c.condition.is_none()) {
            return Err(Error::state(
                SqlState::SYNTAX_ERROR,
                "unreachable WHEN clause specified after unconditional WHEN clause",
            ));
        }
        read.push(Clause {
            kind,
            condition: clause.predicate.as_ref(),
            action: &clause.action,
        });
    }
    Ok(read)
}

/// The target table: its name as written, the name its rows go by, its
/// columns.
struct Target {
    table: String,
    alias: String,
    columns: Vec<RelColumn>,
}

impl Target {
    fn read(factor: &TableFactor, catalog: &dyn Catalog) -> Result<Target, Error> {
        let TableFactor::Table { name, alias, .. } = factor else {
            return Err(syntax_near("("));
        };
        let last = idents(name).last().cloned().unwrap_or_default();
        let relation = catalog.relation(&last).ok_or_else(|| {
            Error::state(
                SqlState::UNDEFINED_TABLE,
                format!("relation \"{name}\" does not exist"),
            )
        })?;
        if relation.view || relation.materialized.is_some() {
            let what = match relation.view {
                true => "views",
                false => "materialized views",
            };
            return Err(Error::state(
                SqlState::FEATURE_NOT_SUPPORTED,
                format!("cannot execute MERGE on relation \"{last}\""),
            )
            .with_detail(format!("This operation is not supported for {what}.")));
        }
        let alias = match alias {
            Some(alias) => alias.name.to_string(),
            None => identifier(&last),
        };
        Ok(Target {
            table: name.to_string(),
            alias,
            columns: relation.columns,
        })
    }
}

/// The source's columns, as its rows are read: names and types.
fn source_columns(
    with: &str,
    source: &TableFactor,
    catalog: &dyn Catalog,
) -> Result<Vec<RelColumn>, Error> {
    let query: Query = parse_query(&format!("{with}SELECT * FROM {source}"))?;
    let Some(columns) = translate_view(&query, catalog)?.and_then(|t| t.columns) else {
        if let TableFactor::Table { name, .. } = source
            && let Some(last) = idents(name).last()
            && catalog.relation(last).is_none()
        {
            return Err(Error::state(
                SqlState::UNDEFINED_TABLE,
                format!("relation \"{name}\" does not exist"),
            ));
        }
        return Err(Error::not_supported("this MERGE source"));
    };
    Ok(columns
        .into_iter()
        .map(|c| RelColumn::holding(c.name, c.pg_type))
        .collect())
}

fn held(name: &str, columns: Vec<RelColumn>) -> Relation {
    Relation {
        name: name.into(),
        columns,
        view: false,
        materialized: None,
        references: Vec::new(),
    }
}

/// SQLite's statement that inserts a row of defaults, as one that inserts
/// one for each pair that took the clause: its values selected once per pair,
/// or, where it gives none, the rowid left to SQLite to number.
fn defaults_per_row(one_row: &str, taken: &str) -> Result<String, Error> {
    let unreadable = || Error::not_supported("this MERGE's INSERT DEFAULT VALUES");
    let parsed = Parser::parse_sql(&SQLiteDialect {}, one_row).map_err(|_| unreadable())?;
    let [Ast::Insert(insert)] = parsed.as_slice() else {
        return Err(unreadable());
    };
    let pairs = format!("FROM temp.{PAIRS} WHERE {taken} ORDER BY litewire_source");
    let table = &insert.table;
    let Some(source) = &insert.source else {
        return Ok(format!("INSERT INTO {table} (rowid) SELECT NULL {pairs}"));
    };
    let SetExpr::Values(values) = &*source.body else {
        return Err(unreadable());
    };
    let [row] = values.rows.iter().map(|r| &r.content).collect::<Vec<_>>()[..] else {
        return Err(unreadable());
    };
    let columns: Vec<String> = insert.columns.iter().map(|c| c.to_string()).collect();
    let values: Vec<String> = row.iter().map(|v| v.to_string()).collect();
    Ok(format!(
        "INSERT INTO {table} ({}) SELECT {} {pairs}",
        columns.join(", "),
        values.join(", ")
    ))
}

/// `INSERT DEFAULT VALUES` (which the parser does not read in a `MERGE`) as
/// `INSERT VALUES (DEFAULT)`, which means the same: the first column's
/// default and, left out, every other column's.
fn default_values(text: &str) -> std::borrow::Cow<'_, str> {
    let tokens = tokenize(text);
    let found = tokens.windows(3).find(|w| {
        w[0].is_keyword(text, "INSERT")
            && w[1].is_keyword(text, "DEFAULT")
            && w[2].is_keyword(text, "VALUES")
    });
    match found {
        Some(w) => {
            let rest = default_values(&text[w[2].end..]).into_owned();
            format!("{}VALUES (DEFAULT){rest}", &text[..w[1].start]).into()
        }
        None => text.into(),
    }
}

fn syntax_near(near: &str) -> Error {
    Error::new(
        ErrorKind::Syntax,
        format!("syntax error at or near \"{near}\""),
    )
}

/// PostgreSQL's words for what the parser could not read: the token it
/// stopped at, found by the line and column the parser gives.
fn syntax(text: &str, error: &sqlparser::parser::ParserError) -> Error {
    let message = error.to_string();
    let number = |label: &str| -> Option<usize> {
        let (_, rest) = message.rsplit_once(label)?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    };
    let at = match (number("Line: "), number("Column: ")) {
        (Some(line), Some(column)) => (text.split_inclusive('\n'))
            .take(line.saturating_sub(1))
            .map(str::len)
            .sum::<usize>()
            .checked_add(column.saturating_sub(1)),
        _ => None,
    };
    let token = at.and_then(|at| tokenize(text).into_iter().find(|t| t.end > at));
    match token {
        Some(token) => syntax_near(token.text(text)),
        None => Error::new(ErrorKind::Syntax, "syntax error at end of input"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_values_are_written_as_a_row_of_defaults() {
        assert_eq!(
            default_values(
                "MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN insert  default values"
            ),
            "MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN insert  VALUES (DEFAULT)"
        );
        let kept = "MERGE INTO t USING s ON true WHEN NOT MATCHED THEN INSERT VALUES (DEFAULT)";
        assert_eq!(default_values(kept), kept);
    }

    #[test]
    fn parse_errors_name_the_token_found() {
        let error = |sql: &str| {
            let parsed = Parser::parse_sql(&PostgreSqlDialect {}, sql);
            syntax(sql, &parsed.expect_err(sql)).message
        };
        assert_eq!(
            error("MERGE INTO t USING s ON true\nWHEN MATCHED THEN INSERT VALUES (1)"),
            "syntax error at or near \"INSERT\""
        );
        assert_eq!(
            error("MERGE INTO t USING s ON true WHEN MATCHED THEN UPDATE SET a = 1 ("),
            "syntax error at or near \"(\""
        );
        assert_eq!(
            error("MERGE INTO t USING s ON"),
            "syntax error at end of input"
        );
    }

    #[test]
    fn rows_of_defaults_are_inserted_once_per_pair() {
        let taken = "litewire_clause = 1";
        assert_eq!(
            defaults_per_row("INSERT INTO \"t\" DEFAULT VALUES", taken).unwrap(),
            "INSERT INTO \"t\" (rowid) SELECT NULL FROM temp.litewire_merge_pairs \
             WHERE litewire_clause = 1 ORDER BY litewire_source"
        );
        assert_eq!(
            defaults_per_row(
                "INSERT INTO \"t\" (\"id\") VALUES (nextval('t_id_seq'))",
                taken
            )
            .unwrap(),
            "INSERT INTO \"t\" (\"id\") SELECT nextval('t_id_seq') FROM temp.litewire_merge_pairs \
             WHERE litewire_clause = 1 ORDER BY litewire_source"
        );
    }
}
