//! The entry of the dialect translation: whether a statement is worth a full
//! parse ([`wants`]), and the statement parsed, rewritten and printed back as
//! SQLite SQL ([`translate`]), with what the engine needs to know of it.

use sqlparser::ast::{Statement as Ast, VisitMut};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::create_index::create_index;
use super::create_table::{create_table, has_no_inherit, no_inherit_marked};
use super::empty_relations::known_empty;
use super::result_types;
use super::rewriter::Rewriter;
use super::sequences::owned_sequences;
use super::type_names::respell_for_sqlite;
use crate::sql::lexer::{Token, TokenKind};
use crate::sql::syntax_tree::printable;

/// A translated statement.
#[derive(Debug)]
pub(crate) struct Translated {
    pub sql: String,
    /// Whether it reads litewire's catalog relations (which the engine then
    /// brings up to date first).
    pub catalog: bool,
    /// Statements that run with it as one, all or nothing (`sql` among them): a
    /// `CREATE TABLE` whose columns own sequences.
    pub script: Option<Vec<String>>,
    /// The declared type of each result column that SQLite cannot type (the
    /// arrays of `array_agg`, the expressions of catalog queries), by position;
    /// empty when there is none.
    pub column_types: Vec<Option<&'static str>>,
}

/// Words that mark a statement as possibly PostgreSQL-specific. Checked on the
/// tokens the classifier already has, so SQLite SQL pays one pass over its words.
const TRIGGER_WORDS: &[&str] = &[
    "any",
    "array",
    "array_agg",
    "array_to_string",
    "collate",
    "current_catalog",
    "current_database",
    "current_role",
    "current_schema",
    "current_schemas",
    "current_setting",
    "current_user",
    "format_type",
    "gen_random_uuid",
    "generate_series",
    "identity",
    "ilike",
    "lastval",
    "currval",
    "nextval",
    "setval",
    "information_schema",
    "now",
    "obj_description",
    "col_description",
    "operator",
    "public",
    "serial",
    "bigserial",
    "smallserial",
    "serial2",
    "serial4",
    "serial8",
    "session_user",
    "some",
    "string_agg",
    "to_regclass",
    "to_regtype",
    "to_regproc",
    "to_regnamespace",
    "to_regrole",
    "regclassout",
    "regtypeout",
    "regprocout",
    "regnamespaceout",
    "regroleout",
    "unnest",
    "version",
    // `timestamp(2) without time zone`, which SQLite cannot declare.
    "zone",
];

/// Whether `tokens` may hold PostgreSQL-only syntax worth a full parse.
pub(crate) fn wants(sql: &str, tokens: &[Token]) -> bool {
    // PostgreSQL's index options SQLite lacks, and unnamed indexes.
    let index = tokens.first().is_some_and(|t| t.is_keyword(sql, "create"))
        && tokens
            .iter()
            .skip(1)
            .take(2)
            .any(|t| t.is_keyword(sql, "index"));
    index
        || tokens.iter().enumerate().any(|(i, t)| match t.kind {
            TokenKind::Word => {
                let word = t.text(sql);
                // `interval day to second`: SQLite reads no `to` in a type.
                let interval_fields = || {
                    word.eq_ignore_ascii_case("interval")
                        && tokens.get(i + 2).is_some_and(|n| n.is_keyword(sql, "to"))
                };
                interval_fields()
                    // A bit string type, declared as text (see `type_names`).
                    || word.eq_ignore_ascii_case("bit")
                    || word.eq_ignore_ascii_case("varbit")
                    || word.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("pg_"))
                    || word
                        .get(..4)
                        .is_some_and(|p| p.eq_ignore_ascii_case("has_"))
                    || TRIGGER_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
            }
            TokenKind::String => t.text(sql).starts_with(['E', 'e', '$']),
            // `"public"."t"`: a schema SQLite would read as a database.
            TokenKind::QuotedIdent => {
                tokens.get(i + 1).is_some_and(|n| n.text(sql) == ".")
                    && matches!(
                        t.text(sql),
                        "\"public\"" | "\"pg_catalog\"" | "\"information_schema\""
                    )
            }
            TokenKind::Punct => {
                let p = t.text(sql);
                p == "~" || (p == ":" && tokens.get(i + 1).is_some_and(|n| n.text(sql) == ":"))
            }
            // `varchar(20)[]`: a modifier before `[]`, which SQLite cannot declare.
            TokenKind::RightParen => tokens
                .get(i + 1)
                .is_some_and(|n| n.text(sql).starts_with('[')),
            _ => false,
        })
}

/// Translates one statement; `None` leaves it as written.
pub(crate) fn translate(sql: &str) -> Option<Translated> {
    let mut statements = Parser::parse_sql(&PostgreSqlDialect {}, sql).ok()?;
    let [ast] = statements.as_mut_slice() else {
        return None;
    };
    translate_parsed(ast, Some(sql))
}

/// Translates a statement already parsed (and, on the PostgreSQL port, read
/// with PostgreSQL's rules); `original` is its text when it was not changed
/// since. `None` leaves it as written.
pub(crate) fn translate_parsed(ast: &mut Ast, original: Option<&str>) -> Option<Translated> {
    if let Ast::Query(query) = ast
        && let Some(sql) = known_empty(query)
    {
        return Some(Translated {
            sql,
            catalog: false,
            script: None,
            column_types: Vec::new(),
        });
    }
    // Typed on the statement as written; kept whole only for catalog queries.
    let (catalog_types, plain_types) = match ast {
        Ast::Query(query) => (
            result_types::of(query, true),
            result_types::of(query, false),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let mut rewriter = Rewriter::default();
    let _ = ast.visit(&mut rewriter);
    let mut owned = Vec::new();
    let mut no_inherit = false;
    if let Ast::CreateIndex(index) = ast {
        rewriter.changed |= create_index(index);
    }
    if let Ast::AlterTable(alter) = ast {
        for operation in &mut alter.operations {
            if let sqlparser::ast::AlterTableOperation::AddColumn { column_def, .. } = operation {
                rewriter.changed |= respell_for_sqlite(&mut column_def.data_type);
            }
        }
    }
    if let Ast::CreateTable(create) = ast {
        // Malformed identity options leave the statement to SQLite, which
        // refuses it.
        let (changed, sequences) = create_table(create)?;
        no_inherit = has_no_inherit(create);
        rewriter.changed |= changed || no_inherit;
        owned = sequences;
    }
    let printed = |ast: &mut Ast| match no_inherit {
        true => no_inherit_marked(printed(ast)),
        false => printed(ast),
    };
    if !owned.is_empty() {
        let mut script = owned_sequences(&owned, false).ok()?;
        let sql = printed(ast);
        script.push(sql.clone());
        return Some(Translated {
            sql,
            catalog: rewriter.catalog,
            script: Some(script),
            column_types: Vec::new(),
        });
    }
    let column_types = if rewriter.catalog {
        catalog_types
    } else {
        plain_types
    };
    let sql = match (rewriter.changed, rewriter.catalog, original) {
        (false, true, Some(original)) if !rewriter.named => original.to_owned(),
        // Unchanged, but it reads catalog relations that must be filled first.
        (false, true, _) => printed(ast),
        // Unchanged, but its columns have types to announce (and the names
        // PostgreSQL gives them), or it was read with PostgreSQL's rules.
        (true, _, _) | (false, false, None) => printed(ast),
        (false, false, Some(_)) if !column_types.is_empty() => printed(ast),
        (false, false, Some(_)) => return None,
    };
    Some(Translated {
        sql,
        catalog: rewriter.catalog,
        script: None,
        column_types,
    })
}

/// The statement as SQLite text (see [`printable`]).
fn printed(ast: &mut Ast) -> String {
    printable(ast);
    ast.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::lexer::tokenize;

    #[test]
    fn literals_keep_their_quotes() {
        let sql = r"SELECT 'a''''b', '\''', 'it''s'";
        let mut ast = Parser::parse_sql(&PostgreSqlDialect {}, sql)
            .expect("parses")
            .remove(0);
        assert_eq!(printed(&mut ast), sql);
    }

    #[test]
    fn sqlite_and_pgbench_statements_skip_the_parser() {
        for sql in [
            "SELECT abalance FROM pgbench_accounts WHERE aid = $1",
            "UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2",
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)",
            "SELECT * FROM t WHERE a = ?1 AND b LIKE 'pg_%'",
            "INSERT OR REPLACE INTO kv VALUES ('now', json('[1]'))",
        ] {
            assert!(!wants(sql, &tokenize(sql)), "{sql}");
        }
        for sql in [
            "SELECT x::int",
            "SELECT * FROM pg_class",
            "SELECT E'a'",
            "SELECT now()",
        ] {
            assert!(wants(sql, &tokenize(sql)), "{sql}");
        }
    }

    fn tr(sql: &str) -> String {
        translate(sql).map_or_else(|| "<unchanged>".into(), |t| t.sql)
    }

    #[test]
    fn unnest_of_several_arrays_in_from() {
        assert_eq!(
            tr(
                "INSERT INTO t (a, b) SELECT * FROM UNNEST(($1)::varchar[], ($2)::integer[]) RETURNING t.id"
            ),
            "INSERT INTO t (a, b) SELECT * FROM (SELECT json_extract(e.value, '$[0]') AS \"unnest\", \
             json_extract(e.value, '$[1]') AS \"unnest\" \
             FROM json_each(litewire_arrays_json(($1), ($2))) AS e) AS \"unnest\" RETURNING t.id"
        );
    }

    #[test]
    fn casts() {
        assert_eq!(
            tr("SELECT x::int, CAST(y AS varchar(3))"),
            "SELECT CAST(x AS INT) AS \"x\", CAST(y AS VARCHAR(3)) AS \"y\""
        );
        assert_eq!(
            tr("SELECT x::pg_catalog.text"),
            "SELECT CAST(x AS TEXT) AS \"x\""
        );
        assert_eq!(tr("SELECT 't'::boolean"), "SELECT true AS \"bool\"");
        assert_eq!(tr("SELECT '\\xdead'::bytea"), "SELECT X'dead' AS \"bytea\"");
        assert_eq!(
            tr("SELECT '16384'::regclass"),
            "SELECT 16384 AS \"regclass\""
        );
        assert_eq!(
            tr("SELECT c.oid::pg_catalog.regclass FROM pg_catalog.pg_class c"),
            "SELECT (SELECT litewire_name FROM (SELECT oid AS litewire_oid, CASE WHEN relnamespace IN (11, 2200) THEN relname ELSE (SELECT nspname FROM pg_namespace WHERE oid = relnamespace) || '.' || relname END AS litewire_name FROM pg_class) WHERE litewire_oid = c.oid) AS \"oid\" FROM pg_class c"
        );
    }

    #[test]
    fn operators_and_strings() {
        assert_eq!(
            tr("SELECT 1 WHERE n OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default"),
            "SELECT 1 AS \"?column?\" WHERE regexp('^(t)$', n)"
        );
        assert_eq!(
            tr("SELECT 1 WHERE n !~ '^pg_'"),
            "SELECT 1 AS \"?column?\" WHERE NOT regexp('^pg_', n)"
        );
        assert_eq!(
            tr("SELECT 1 WHERE a ILIKE 'x%'"),
            "SELECT 1 AS \"?column?\" WHERE a LIKE 'x%'"
        );
        assert_eq!(tr("SELECT E'a\\nb'"), "SELECT 'a\nb' AS \"?column?\"");
        assert_eq!(
            tr("SELECT 1 WHERE x = ANY(ARRAY[1, 2])"),
            "SELECT 1 AS \"?column?\" WHERE x IN (1, 2)"
        );
    }

    #[test]
    fn functions_and_names() {
        assert_eq!(tr("SELECT * FROM public.t"), "SELECT * FROM t");
        assert_eq!(
            tr("SELECT table_name FROM information_schema.tables"),
            "SELECT table_name FROM information_schema_tables"
        );
        assert!(tr("SELECT now()").contains("strftime"));
        assert!(translate("SELECT current_user").unwrap().catalog);
        assert_eq!(
            tr("SELECT pg_catalog.lower('A')"),
            "SELECT lower('A') AS \"lower\""
        );
        assert_eq!(tr("SELECT 1 FROM t WHERE now = 1"), "<unchanged>");
        let unchanged_catalog = translate("SELECT relname FROM pg_class").unwrap();
        assert!(unchanged_catalog.catalog);
        assert_eq!(unchanged_catalog.sql, "SELECT relname FROM pg_class");
        // A column SQLite would name by its text is named as PostgreSQL names it.
        let named = translate("SELECT count(*) FROM pg_tables").unwrap();
        assert_eq!(named.sql, "SELECT count(*) AS \"count\" FROM pg_tables");
    }

    #[test]
    fn create_table_serial_and_defaults() {
        let translated = translate(
            "CREATE TABLE IF NOT EXISTS t (id serial PRIMARY KEY, ts timestamptz DEFAULT now(), n numeric(10,2))",
        )
        .unwrap();
        assert_eq!(
            translated.sql,
            "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY NOT NULL DEFAULT (nextval('t_id_seq')), ts TIMESTAMPTZ DEFAULT (strftime('%Y-%m-%d %H:%M:%f+00', 'now')), n NUMERIC(10,2))"
        );
        let identity = translate(
            "CREATE TABLE t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text)",
        )
        .unwrap();
        assert_eq!(
            identity.sql,
            "CREATE TABLE t (id INTEGER PRIMARY KEY NOT NULL DEFAULT (nextval('t_id_seq')), v TEXT)"
        );
        // The sequence keeps the column's PostgreSQL type, SQLite's rowid
        // needs `INTEGER`.
        assert!(identity.script.is_some_and(|script| {
            script
                .iter()
                .any(|s| s.contains("SELECT 't_id_seq', 'bigint', 1, 1, 1, 9223372036854775807"))
        }),);
    }

    #[test]
    fn serial_and_identity_columns_own_sequences() {
        let translated = translate(
            "CREATE TABLE T (id int PRIMARY KEY, n serial, g bigint GENERATED ALWAYS AS IDENTITY (START WITH 5))",
        )
        .unwrap();
        let script = translated.script.unwrap();
        assert!(
            script[0].starts_with("CREATE TABLE IF NOT EXISTS main.litewire_sequences"),
            "{script:?}"
        );
        assert!(
            script.contains(&translated.sql)
                && translated
                    .sql
                    .contains("n INTEGER NOT NULL DEFAULT (nextval('t_n_seq'))")
                && translated
                    .sql
                    .contains("g BIGINT NOT NULL DEFAULT (nextval('t_g_seq'))"),
            "{script:?}"
        );
        assert!(
            script.iter().any(|s| s.contains(
                "SELECT 't_g_seq', 'bigint', 5, 1, 1, 9223372036854775807, 0, 5, 0, random(), 't', 'g', 'a' WHERE NOT EXISTS"
            )),
            "{script:?}"
        );
        // A name with capitals is quoted inside the text, as `regclass` reads it.
        let quoted = translate("CREATE TABLE \"T\" (k text, n serial)").unwrap();
        assert!(
            quoted.sql.contains("DEFAULT (nextval('\"T_n_seq\"'))"),
            "{}",
            quoted.sql
        );
        // The one-column primary key stays SQLite's rowid, with a sequence
        // (which the INSERTs of the PostgreSQL port number its rows by).
        let rowid = translate("CREATE TABLE p (id serial, v text, PRIMARY KEY (id))").unwrap();
        assert!(rowid.script.is_some());
        assert!(
            rowid
                .sql
                .contains("id INTEGER NOT NULL DEFAULT (nextval('p_id_seq')),"),
            "{}",
            rowid.sql
        );
    }

    #[test]
    fn sequence_functions_name_the_sequence_as_text() {
        assert_eq!(
            tr("SELECT nextval('s'::regclass)"),
            "SELECT (nextval('s') + 0) AS \"nextval\""
        );
        assert_eq!(
            tr("INSERT INTO t VALUES (nextval('public.s'::regclass))"),
            "INSERT INTO t VALUES (nextval('public.s'))"
        );
    }

    #[test]
    fn names_of_reg_casts() {
        for sql in [
            "SELECT 'parent'::regclass::text",
            "SELECT $1::regtype::text",
            "SELECT CAST('16385'::regclass AS varchar)",
        ] {
            let translated = translate(sql).expect("translated");
            assert!(translated.catalog, "{sql}");
            // The outer select reads a name, of the oid the inner one finds.
            assert!(
                translated
                    .sql
                    .starts_with("SELECT (SELECT litewire_name FROM")
                    || translated
                        .sql
                        .starts_with("SELECT format_type((SELECT litewire_oid"),
                "{sql}: {}",
                translated.sql
            );
        }
        // The cast to an oid alone stays an oid.
        assert!(tr("SELECT 'parent'::regclass").starts_with("SELECT (SELECT litewire_oid FROM"));
    }

    #[test]
    fn catalog_queries_as_drivers_write_them() {
        assert_eq!(
            tr(
                "SELECT pg_catalog.pg_class.relname FROM pg_catalog.pg_class WHERE pg_catalog.pg_class.oid > 0"
            ),
            "SELECT pg_class.relname FROM pg_class WHERE pg_class.oid > 0"
        );
        assert_eq!(
            tr("SELECT information_schema.tables.table_name FROM information_schema.tables"),
            "SELECT information_schema_tables.table_name FROM information_schema_tables"
        );
        assert_eq!(
            tr(
                "SELECT c.relname, unnest(i.indkey) AS attnum, generate_subscripts(i.indkey, $1) AS ord FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
            ),
            "SELECT c.relname, litewire_elements.value AS attnum, CASE WHEN $1 = 1 THEN litewire_elements.key + \
             CASE WHEN SUBSTR(ltrim(i.indkey), 1, 1) = '{' THEN 1 ELSE 0 END END AS ord \
             FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid, json_each(litewire_array_json(i.indkey)) AS litewire_elements"
        );
        assert_eq!(
            tr(
                "SELECT (information_schema._pg_expandarray(i.indkey)).n AS k, information_schema._pg_expandarray(i.indkey) AS keys FROM pg_index i"
            ),
            "SELECT litewire_elements.key + 1 AS k, '(' || litewire_elements.value || ',' || (litewire_elements.key + 1) || ')' AS keys \
             FROM pg_index i, json_each(litewire_array_json(i.indkey)) AS litewire_elements"
        );
        assert_eq!(
            tr("SELECT (r.keys).x, c.conkey[1] FROM r, pg_constraint c"),
            "SELECT litewire_record_field((r.keys), 1) AS \"?column?\", litewire_array_element(c.conkey, 1) AS \"?column?\" FROM r, pg_constraint c"
        );
        assert_eq!(
            tr("SELECT pos.n FROM pg_catalog.generate_series(1, 32) pos(n)"),
            "SELECT pos.n FROM (WITH RECURSIVE litewire_series (n, step, stop) AS (SELECT 1, litewire_series_step(1), 32 \
             UNION ALL SELECT n + step, step, stop FROM litewire_series \
             WHERE (step > 0 AND n + step <= stop) OR (step < 0 AND n + step >= stop)) \
             SELECT n AS \"n\" FROM litewire_series WHERE (step > 0 AND n <= stop) OR (step < 0 AND n >= stop)) AS \"pos\""
        );
        assert_eq!(
            tr(
                "SELECT trim(both '\"' from pg_get_indexdef(i.indexrelid, 1, false)) FROM pg_index i"
            ),
            "SELECT TRIM(CASE WHEN (1) = 0 THEN (SELECT litewire_name FROM (SELECT oid AS litewire_oid, definition AS litewire_name FROM litewire_definitions) WHERE litewire_oid = i.indexrelid) \
             ELSE (SELECT litewire_name FROM (SELECT attrelid * 10000 + attnum AS litewire_oid, attname AS litewire_name FROM pg_attribute) WHERE litewire_oid = (i.indexrelid) * 10000 + (1)) END, '\"') AS \"?column?\" FROM pg_index i"
        );
        // A parameter the rewrite does not need stays in the statement.
        assert_eq!(
            tr("SELECT pg_get_constraintdef(c.oid, $1) FROM pg_constraint c"),
            "SELECT CASE WHEN ($1) IS NULL THEN NULL ELSE litewire_qualified((SELECT litewire_name FROM (SELECT oid AS litewire_oid, definition AS litewire_name FROM litewire_definitions) WHERE litewire_oid = c.oid)) END AS \"pg_get_constraintdef\" FROM pg_constraint c"
        );
        assert_eq!(
            tr(
                "SELECT relname, (SELECT json_build_object('a', polname) FROM pg_policy) FROM pg_class WHERE EXISTS (SELECT 1 FROM pg_foreign_table)"
            ),
            "SELECT relname, NULL AS \"?column?\" FROM pg_class WHERE false"
        );
        assert_eq!(
            tr(
                "SELECT array_agg(a ORDER BY b), bool_and(c), json_build_object('k', d) FROM t GROUP BY e"
            ),
            "SELECT litewire_array_agg(a ORDER BY b) AS \"array_agg\", min(c) AS \"bool_and\", json_object('k', d) AS \"json_build_object\" FROM t GROUP BY e"
        );
    }

    #[test]
    fn values_with_column_names() {
        assert_eq!(
            tr(
                "INSERT INTO t (a) SELECT p0::INTEGER FROM (VALUES ($1, 0), ($2, 1)) AS imp(p0, n) ORDER BY n"
            ),
            "INSERT INTO t (a) SELECT CAST(p0 AS INTEGER) AS \"p0\" FROM (SELECT column1 AS \"p0\", column2 AS \"n\" FROM (VALUES ($1, 0), ($2, 1))) AS \"imp\" ORDER BY n"
        );
    }

    #[test]
    fn empty_catalog_relations_answer_no_rows() {
        let sql = "SELECT pol.polname, pol.polpermissive, CASE WHEN pol.polroles = '{0}' THEN NULL END, pg_catalog.pg_get_expr(pol.polqual, pol.polrelid) FROM pg_catalog.pg_policy pol WHERE pol.polrelid = '1' ORDER BY 1";
        assert_eq!(
            tr(sql),
            "SELECT NULL AS \"polname\", NULL AS \"polpermissive\", NULL AS \"case\", NULL AS \"pg_get_expr\" WHERE false"
        );
    }
}
