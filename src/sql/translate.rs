//! PostgreSQL statements that SQLite does not speak, rewritten into ones it does.
//!
//! Each rewrite works on the statement's tokens and keeps the meaning a PostgreSQL
//! client expects (pgbench's setup is the first user of all of them):
//! - `DROP TABLE a, b` (and `DROP VIEW a, b`) runs one DROP per relation, atomically,
//!   each refused (42809) for a materialized view;
//! - `CREATE TABLE ... WITH (fillfactor=100)` drops the storage parameters;
//! - `TRUNCATE [TABLE] a, b` deletes every row of each table (and with `RESTART
//!   IDENTITY` restarts the sequences their columns own);
//! - `VACUUM [ANALYZE] t` analyzes (or, SQLite having no per-table VACUUM, does
//!   nothing for) the named tables;
//! - `ALTER TABLE t ADD [CONSTRAINT n] PRIMARY KEY|UNIQUE (c)` creates the unique
//!   index PostgreSQL would create (named `t_pkey` / `t_c_key`), since SQLite cannot
//!   add constraints to an existing table;
//! - `CREATE [UNIQUE] INDEX CONCURRENTLY` and `DROP INDEX CONCURRENTLY` lose the
//!   word: SQLite's index builds lock writers out anyway; `USING btree` and
//!   operator classes (`varchar_pattern_ops`) go too;
//! - `SET CONSTRAINTS ... DEFERRED|IMMEDIATE` switches SQLite's per-transaction
//!   deferral of foreign keys (see [`set_constraints`]);
//! - `generate_series(a, b [, step]) [AS] x` in FROM becomes a recursive CTE;
//! - `COMMENT ON` keeps the description in a table of its own (see
//!   [`super::comments`]);
//! - `CREATE EXTENSION` and `DROP EXTENSION` answer for the built-in
//!   extensions (see [`super::extensions`]);
//! - `COPY` becomes the COPY plan the front end streams rows through (see
//!   [`super::copy`]).
//!
//! Statements that need none of this never get here (see [`needs_translation`]).

use super::dialect::restart_owned_sequences;
use super::lexer::{Token, TokenKind, tokenize};
use super::quote::{identifier, unquote_identifier};
use super::rewrite::Rewrite;
use super::schema_names::{stored_name, stored_written};
use super::statement::ParseQuery;
use super::words::Words;
use super::{comments, copy, extensions, matviews, routines};
use crate::error::Error;

/// Cheap check on the tokens the classifier already has: could this statement need
/// a rewrite? Everything else passes through untouched.
pub(super) fn needs_translation(sql: &str, tokens: &[Token]) -> bool {
    let Some(first) = tokens.first() else {
        return false;
    };
    let leading = [
        "DROP", "CREATE", "TRUNCATE", "VACUUM", "ALTER", "COPY", "COMMENT",
    ];
    leading.iter().any(|kw| first.is_keyword(sql, kw))
        || tokens.iter().any(|t| t.is_keyword(sql, "generate_series"))
}

/// Rewrites `sql` when it needs it; `None` leaves it as it is. The query of
/// `COPY (query) TO` is read by `parse_query`.
pub(super) fn translate(sql: &str, parse_query: ParseQuery<'_>) -> Result<Option<Rewrite>, Error> {
    let tokens = tokenize(sql);
    let words = Words {
        sql,
        tokens: &tokens,
    };
    let rewrite = if words.starts_with(&["DROP", "TABLE"]) {
        drop_list(&words, "TABLE")
    } else if words.starts_with(&["DROP", "VIEW"]) {
        drop_list(&words, "VIEW")
    } else if let Some(extension) = extensions::statement(&words) {
        Some(extension?)
    } else if let Some(refused) = words
        .starts_with(&["CREATE"])
        .then(|| routines::refused(&words))
        .flatten()
    {
        return Err(refused);
    } else if let Some(sql) = index_words(&words) {
        Some(Rewrite::single(sql))
    } else if words.starts_with(&["CREATE"]) {
        create_table_options(&words)
    } else if words.starts_with(&["TRUNCATE"]) {
        Some(truncate(&words))
    } else if words.starts_with(&["VACUUM"]) {
        vacuum(&words)
    } else if words.starts_with(&["ALTER", "TABLE"]) {
        add_constraint(&words)
    } else if words.starts_with(&["COMMENT", "ON"]) {
        // A comment on anything else is accepted and not kept.
        Some(match comments::comment(&words)? {
            Some(statements) => Rewrite::script(statements),
            None => Rewrite::nothing(),
        })
    } else if words.starts_with(&["COPY"]) {
        Some(copy::parse(&words, parse_query)?)
    } else {
        None
    };
    match rewrite {
        Some(rewrite) => Ok(Some(rewrite)),
        None => Ok(generate_series(sql, &tokens).map(Rewrite::single)),
    }
}

/// `DROP {TABLE | VIEW} [IF EXISTS] a, b [CASCADE|RESTRICT]`: SQLite drops
/// one at a time.
fn drop_list(w: &Words, kind: &str) -> Option<Rewrite> {
    let (if_exists, start) = if w.is(2, "IF") && w.is(3, "EXISTS") {
        (true, 4)
    } else {
        (false, 2)
    };
    let (names, _) = w.name_list(start, &["CASCADE", "RESTRICT"]);
    if names.is_empty() {
        return None;
    }
    let guard = if if_exists { "IF EXISTS " } else { "" };
    // A materialized view is a table of SQLite's, but neither a table nor a
    // view to PostgreSQL (see `matviews`).
    Some(Rewrite::script(
        names
            .iter()
            .flat_map(|n| {
                let folded = match n.starts_with('"') {
                    true => unquote_identifier(n),
                    false => n.to_ascii_lowercase(),
                };
                [
                    matviews::not_a(kind, &folded),
                    format!("DROP {kind} {guard}{n}"),
                ]
            })
            .collect(),
    ))
}

/// `CREATE [UNIQUE] INDEX` and `DROP INDEX` without the words SQLite lacks:
/// `CONCURRENTLY`, `USING btree` (SQLite's only kind of index) and operator
/// classes after a column (`name varchar_pattern_ops`, which Django adds for
/// LIKE; SQLite's LIKE uses no index either way). `None` when there are none.
fn index_words(w: &Words) -> Option<String> {
    let at = if w.starts_with(&["CREATE", "UNIQUE", "INDEX"]) {
        3
    } else if w.starts_with(&["CREATE", "INDEX"]) || w.starts_with(&["DROP", "INDEX"]) {
        2
    } else {
        return None;
    };
    let mut cuts = Vec::new();
    if w.is(at, "CONCURRENTLY") {
        cuts.push(at);
    }
    if w.is(0, "CREATE")
        && let Some(on) = (at..w.tokens.len()).find(|&i| w.is(i, "ON"))
    {
        let mut i = on + 1;
        while i < w.tokens.len() && w.kind(i) != Some(TokenKind::LeftParen) && !w.is(i, "USING") {
            i += 1;
        }
        if w.is(i, "USING") && w.is(i + 1, "btree") {
            cuts.extend([i, i + 1]);
            i += 2;
        }
        if w.kind(i) == Some(TokenKind::LeftParen) {
            let close = w.closing(i)?;
            let mut depth = 0;
            for j in i..=close {
                match w.kind(j) {
                    Some(TokenKind::LeftParen) => depth += 1,
                    Some(TokenKind::RightParen) => depth -= 1,
                    Some(TokenKind::Word)
                        if depth == 1
                            && w.text(j).to_ascii_lowercase().ends_with("_ops")
                            && !matches!(w.text(j - 1), "," | "(") =>
                    {
                        cuts.push(j);
                    }
                    _ => {}
                }
            }
        }
    }
    if cuts.is_empty() {
        return None;
    }
    let mut sql = String::with_capacity(w.sql.len());
    let mut from = 0;
    for cut in cuts {
        let token = &w.tokens[cut];
        sql.push_str(&w.sql[from..token.start]);
        from = token.end + (w.sql[token.end..].len() - w.sql[token.end..].trim_start().len());
    }
    sql.push_str(&w.sql[from..]);
    Some(sql)
}

/// `SET CONSTRAINTS {ALL | name, ...} {DEFERRED | IMMEDIATE}`, as the PRAGMA
/// that does it in SQLite: `defer_foreign_keys` defers every foreign key of
/// the transaction to its COMMIT (and ends with it), which is what `ALL
/// DEFERRED` means for the only constraints SQLite can defer. `IMMEDIATE`
/// turns that off; keys declared `INITIALLY DEFERRED` stay deferred.
pub(super) fn set_constraints(sql: &str, tokens: &[Token]) -> Option<&'static str> {
    let w = Words { sql, tokens };
    if !w.starts_with(&["SET", "CONSTRAINTS"]) {
        return None;
    }
    let last = tokens.len().checked_sub(1)?;
    if w.is(last, "DEFERRED") {
        Some("PRAGMA defer_foreign_keys = ON")
    } else if w.is(last, "IMMEDIATE") {
        Some("PRAGMA defer_foreign_keys = OFF")
    } else {
        None
    }
}

/// `CREATE TABLE ... (...) WITH (storage params) [TABLESPACE x]`: SQLite has neither.
fn create_table_options(w: &Words) -> Option<Rewrite> {
    let open = w
        .tokens
        .iter()
        .position(|t| t.kind == TokenKind::LeftParen)?;
    let close = w.closing(open)?;
    let mut i = close + 1;
    let mut cut = None;
    while i < w.tokens.len() {
        if w.is(i, "WITH") && w.kind(i + 1) == Some(TokenKind::LeftParen) {
            cut.get_or_insert(i);
            i = w.closing(i + 1)? + 1;
        } else if w.is(i, "TABLESPACE") || w.is(i, "WITHOUT") && w.is(i + 1, "OIDS") {
            cut.get_or_insert(i);
            i += 2;
        } else {
            return None;
        }
    }
    let cut = cut?;
    Some(Rewrite::single(
        w.sql[..w.tokens[cut].start].trim_end().to_owned(),
    ))
}

/// `TRUNCATE [TABLE] [ONLY] a, b [RESTART|CONTINUE IDENTITY] [CASCADE|RESTRICT]`;
/// `RESTART IDENTITY` restarts the sequences the tables' columns own.
fn truncate(w: &Words) -> Rewrite {
    let mut i = 1;
    while w.is(i, "TABLE") || w.is(i, "ONLY") {
        i += 1;
    }
    let (names, end) = w.name_list(i, &["RESTART", "CONTINUE", "CASCADE", "RESTRICT"]);
    let mut statements: Vec<String> = names.iter().map(|n| format!("DELETE FROM {n}")).collect();
    if w.is(end, "RESTART") && w.is(end + 1, "IDENTITY") {
        statements.extend(restart_owned_sequences(&names));
    }
    Rewrite::script(statements)
}

/// `VACUUM [FULL] [FREEZE] [VERBOSE] [ANALYZE] [(options)] [table, ...]`.
fn vacuum(w: &Words) -> Option<Rewrite> {
    let mut i = 1;
    let mut analyze = false;
    loop {
        if w.kind(i) == Some(TokenKind::LeftParen) {
            let close = w.closing(i)?;
            analyze |= (i..close).any(|j| w.is(j, "ANALYZE") || w.is(j, "ANALYSE"));
            i = close + 1;
        } else if ["FULL", "FREEZE", "VERBOSE"].iter().any(|kw| w.is(i, kw)) {
            i += 1;
        } else if w.is(i, "ANALYZE") || w.is(i, "ANALYSE") {
            analyze = true;
            i += 1;
        } else {
            break;
        }
    }
    let (tables, _) = w.name_list(i, &["INTO"]);
    // SQLite's own `VACUUM [schema] [INTO file]` passes through.
    let sqlite_form =
        !analyze && (tables.is_empty() || w.is(i + 1, "INTO") || is_schema_name(&tables[0]));
    if sqlite_form && i == 1 {
        return None;
    }
    let statements = match (analyze, tables.is_empty()) {
        (true, true) => vec!["ANALYZE".to_owned()],
        (true, false) => tables.iter().map(|t| format!("ANALYZE {t}")).collect(),
        (false, true) => vec!["VACUUM".to_owned()],
        // Per-table VACUUM does not exist in SQLite, and a whole-file VACUUM is far
        // more than was asked for: there is nothing to do.
        (false, false) => return Some(Rewrite::nothing()),
    };
    Some(Rewrite::script(statements))
}

fn is_schema_name(name: &str) -> bool {
    matches!(
        unquote_identifier(name).to_ascii_lowercase().as_str(),
        "main" | "temp"
    )
}

/// `ALTER TABLE [ONLY] t ADD [CONSTRAINT n] PRIMARY KEY|UNIQUE (cols)`.
fn add_constraint(w: &Words) -> Option<Rewrite> {
    let mut i = 2;
    if w.is(i, "ONLY") {
        i += 1;
    }
    let (table, mut i) = w.name(i)?;
    if !w.is(i, "ADD") {
        return None;
    }
    i += 1;
    let mut constraint = None;
    if w.is(i, "CONSTRAINT") {
        constraint = Some(stored_written(w.text(i + 1)));
        i += 2;
    }
    let primary = w.is(i, "PRIMARY") && w.is(i + 1, "KEY");
    if primary {
        i += 2;
    } else if w.is(i, "UNIQUE") {
        i += 1;
    } else {
        return None;
    }
    if w.kind(i) != Some(TokenKind::LeftParen) {
        return None;
    }
    let close = w.closing(i)?;
    let columns = &w.sql[w.tokens[i].start..w.tokens[close].end];
    // A table of a schema is `"s.t"` by now, and its index goes in `s`.
    let stored_table = stored_written(&table);
    let (schema, bare_table) = match stored_table.split_once('.') {
        Some((schema, bare)) if table.starts_with('"') => (Some(schema), bare),
        _ => (None, stored_table.as_str()),
    };
    let index = constraint.unwrap_or_else(|| {
        if primary {
            format!("{bare_table}_pkey")
        } else {
            let cols: Vec<String> = (i + 1..close)
                .filter(|j| matches!(w.kind(*j), Some(TokenKind::Word | TokenKind::QuotedIdent)))
                .map(|j| unquote_identifier(w.text(j)))
                .collect();
            format!("{bare_table}_{}_key", cols.join("_"))
        }
    });
    let index = identifier(&schema.map_or_else(|| index.clone(), |s| stored_name(s, &index)));
    Some(Rewrite::single(format!(
        "CREATE UNIQUE INDEX {index} ON {table} {columns}"
    )))
}

/// `generate_series(start, stop [, step]) [AS] alias` in a FROM clause, as a
/// recursive CTE named and aliased like PostgreSQL's set-returning function.
fn generate_series(sql: &str, tokens: &[Token]) -> Option<String> {
    let w = Words { sql, tokens };
    let at = (0..tokens.len())
        .find(|&i| w.is(i, "generate_series") && w.kind(i + 1) == Some(TokenKind::LeftParen))?;
    let close = w.closing(at + 1)?;
    let mut args = Vec::new();
    let mut depth = 0;
    let mut arg_start = at + 2;
    for j in at + 2..=close {
        match tokens[j].kind {
            TokenKind::LeftParen => depth += 1,
            TokenKind::RightParen if depth > 0 => depth -= 1,
            _ if (tokens[j].kind == TokenKind::RightParen || w.text(j) == ",") && depth == 0 => {
                if arg_start < j {
                    args.push(&sql[tokens[arg_start].start..tokens[j - 1].end]);
                }
                arg_start = j + 1;
            }
            _ => {}
        }
    }
    let (start, stop, step) = match args.as_slice() {
        [start, stop] => (*start, *stop, "1"),
        [start, stop, step] => (*start, *stop, *step),
        _ => return None,
    };
    let mut end = close + 1;
    if w.is(end, "AS") {
        end += 1;
    }
    let alias = match w.kind(end) {
        Some(TokenKind::Word | TokenKind::QuotedIdent)
            if ![
                "WHERE", "JOIN", "ON", "GROUP", "ORDER", "LIMIT", "CROSS", "LEFT", "INNER", "UNION",
            ]
            .iter()
            .any(|kw| w.is(end, kw)) =>
        {
            end += 1;
            w.text(end - 1).to_owned()
        }
        _ => "generate_series".to_owned(),
    };
    let series = format!(
        "(WITH RECURSIVE litewire_series(v) AS (SELECT {start} UNION ALL SELECT v + ({step}) FROM litewire_series \
         WHERE v + ({step}) <= {stop}) SELECT v AS {alias} FROM litewire_series WHERE v <= {stop}) AS {alias}"
    );
    let replace_end = tokens.get(end - 1).map_or(sql.len(), |t| t.end);
    Some(format!(
        "{}{}{}",
        &sql[..tokens[at].start],
        series,
        &sql[replace_end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::{Plan, parse_single};

    fn rewrite(sql: &str) -> (String, Plan) {
        let r = translate(sql, &parse_single)
            .unwrap()
            .unwrap_or(Rewrite::single(sql.to_owned()));
        (r.sql, r.plan)
    }

    #[test]
    fn pgbench_setup_statements() {
        let (_, plan) = rewrite("drop table if exists pgbench_accounts, pgbench_branches");
        // Each table's drop, after the check that it is no materialized view.
        let Plan::Script(parts) = plan else {
            panic!("{plan:?}");
        };
        assert_eq!(parts.len(), 4);
        assert!(parts[0].contains("'litewire_matview_pgbench_accounts'"));
        assert_eq!(&*parts[1], "DROP TABLE IF EXISTS pgbench_accounts");
        assert_eq!(&*parts[3], "DROP TABLE IF EXISTS pgbench_branches");
        assert_eq!(
            rewrite("create table t(tid int not null,filler char(84)) with (fillfactor=100)").0,
            "create table t(tid int not null,filler char(84))"
        );
        assert_eq!(
            rewrite("truncate table a, public.b").0,
            "DELETE FROM a; DELETE FROM b"
        );
        assert!(
            rewrite("truncate a restart identity cascade")
                .0
                .contains("SET last_value = start_value, is_called = 0, token = random() WHERE owned_table COLLATE NOCASE IN ('a')")
        );
        assert_eq!(
            rewrite("vacuum analyze pgbench_tellers").0,
            "ANALYZE pgbench_tellers"
        );
        assert!(matches!(rewrite("vacuum pgbench_tellers").1, Plan::Nothing));
        assert_eq!(
            rewrite("alter table pgbench_accounts add primary key (aid)").0,
            "CREATE UNIQUE INDEX \"pgbench_accounts_pkey\" ON pgbench_accounts (aid)"
        );
        assert_eq!(
            rewrite("create unique index concurrently if not exists i on t (a)").0,
            "create unique index if not exists i on t (a)"
        );
        assert_eq!(rewrite("DROP INDEX CONCURRENTLY i").0, "DROP INDEX i");
        assert_eq!(
            rewrite(r#"CREATE INDEX "g_name_like" ON "g" ("name" varchar_pattern_ops)"#).0,
            r#"CREATE INDEX "g_name_like" ON "g" ("name" )"#
        );
        assert_eq!(
            rewrite(
                "create index concurrently i on public.t using btree (a text_pattern_ops, lower(b))"
            )
            .0,
            "create index i on public.t (a , lower(b))"
        );
        assert_eq!(
            rewrite("alter table t add constraint t_u unique (a, b)").0,
            "CREATE UNIQUE INDEX \"t_u\" ON t (a, b)"
        );
    }

    #[test]
    fn statements_sqlite_understands_are_left_alone() {
        for sql in [
            "create table t (a int)",
            "vacuum",
            "vacuum main",
            "alter table t add column b int",
        ] {
            assert!(translate(sql, &parse_single).unwrap().is_none(), "{sql}");
        }
    }

    #[test]
    fn generate_series_becomes_a_recursive_cte() {
        let (sql, _) =
            rewrite("insert into t(aid) select aid from generate_series(1, 100000) as aid");
        assert!(
            sql.starts_with("insert into t(aid) select aid from (WITH RECURSIVE"),
            "{sql}"
        );
        assert!(
            sql.ends_with("SELECT v AS aid FROM litewire_series WHERE v <= 100000) AS aid"),
            "{sql}"
        );
    }
}
