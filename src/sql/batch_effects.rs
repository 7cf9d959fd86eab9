//! What a statement of a query string changes for how the statements after
//! it are read (see `parse`): a new schema object, a domain, a new
//! `search_path`. Each takes the statement's text and its tokens, positioned
//! in that text.

use super::classify::{self, CommandKind};
use super::lexer::Token;
use super::words::Words;

/// A statement about what SQLite has not: a materialized view (`CREATE`,
/// `REFRESH`, `DROP`), a SQL function (`CREATE [OR REPLACE]`, `DROP`), a
/// domain (`CREATE`, `DROP`). Each
/// reads the schema the statements before it leave.
pub(super) fn about_materialized_view_or_function(text: &str, tokens: &[Token]) -> bool {
    if about_domain(text, tokens) {
        return true;
    }
    let words = Words { sql: text, tokens };
    let verbs = ["CREATE", "REFRESH", "DROP"];
    verbs
        .iter()
        .any(|verb| words.starts_with(&[verb, "MATERIALIZED", "VIEW"]))
        || ["CREATE", "DROP"]
            .iter()
            .any(|verb| words.starts_with(&[verb, "FUNCTION"]))
        || words.starts_with(&["CREATE", "OR", "REPLACE", "FUNCTION"])
}

/// Whether the statement's first words are one of `verbs`, then `noun`.
fn starts_as(text: &str, tokens: &[Token], verbs: &[&str], noun: &str) -> bool {
    let words = Words { sql: text, tokens };
    verbs.iter().any(|verb| words.starts_with(&[verb, noun]))
}

/// `SET [SESSION | LOCAL] search_path`, `SET SCHEMA`, `RESET search_path`
/// or `RESET ALL`.
pub(super) fn sets_search_path(text: &str, tokens: &[Token]) -> bool {
    let w = Words { sql: text, tokens };
    let at = usize::from(w.is(1, "SESSION") || w.is(1, "LOCAL")) + 1;
    (w.is(0, "SET") && (w.is(at, "search_path") || w.is(at, "SCHEMA")))
        || (w.is(0, "RESET") && (w.is(1, "search_path") || w.is(1, "ALL")))
}

/// A statement that reads the partition tree the statements before it
/// leave (see `partitions`): `CREATE TABLE ... PARTITION OF`, `ALTER TABLE
/// ... ATTACH PARTITION`, and `DROP TABLE` or `TRUNCATE` (of a partition,
/// maybe).
pub(super) fn about_partitions(text: &str, tokens: &[Token]) -> bool {
    let words = Words { sql: text, tokens };
    let has = |first: &str, second: &str| {
        (0..tokens.len()).any(|i| words.is(i, first) && words.is(i + 1, second))
    };
    words.starts_with(&["DROP", "TABLE"])
        || words.starts_with(&["TRUNCATE"])
        || (words.starts_with(&["CREATE"]) && has("PARTITION", "OF"))
        || (words.starts_with(&["ALTER", "TABLE"]) && has("ATTACH", "PARTITION"))
}

/// `CREATE DOMAIN` or `DROP DOMAIN`.
pub(super) fn about_domain(text: &str, tokens: &[Token]) -> bool {
    starts_as(text, tokens, &["CREATE", "DROP"], "DOMAIN")
}

/// `CREATE TABLE` or `ALTER TABLE`: a statement whose columns may be of a
/// domain.
pub(super) fn makes_columns(text: &str, tokens: &[Token]) -> bool {
    starts_as(text, tokens, &["CREATE", "ALTER"], "TABLE")
}

/// A plain `CREATE TABLE` (not `... AS query`).
pub(super) fn creates_table(text: &str, tokens: &[Token]) -> bool {
    classify::classify(text, tokens)
        .is_ok_and(|shape| shape.kind == CommandKind::Other("CREATE TABLE"))
}
