//! Names qualified with a schema of the user's (`CREATE SCHEMA`, see
//! `schemas`): the relation `t` of schema `s` is the SQLite table `"s.t"`,
//! in the one database file, so a transaction spans schemas and `sqlite3`
//! reads it as `"s.t"`. On the PostgreSQL port such a name is written as that
//! one identifier before anything else reads the statement (and the catalog
//! splits it again), so every statement that takes a relation, sequence,
//! index or type takes it qualified.
//!
//! `a.b` names a relation or a type only where one stands: after `FROM`,
//! `JOIN`, `INTO`, `UPDATE`, `TABLE`, `REFERENCES`, `INDEX ... ON` and their
//! kin, in a `FROM` list or a list of names to drop, after `::` or `AS`, as a
//! column's type. Elsewhere it is column `b` of relation `a`, as in
//! PostgreSQL, and stays as it is; `s.t.c` is column `c` of `s.t`. A relation
//! read in `FROM` keeps its own name as its alias (`FROM s.t` is `FROM "s.t"
//! AS t`), so that `t.c` and `s.t.c` refer to it as they do in PostgreSQL.

use super::lexer::{Token, TokenKind};
use super::postgres::Catalog;
use super::quote::{identifier, identifier_as_postgres, unquote_identifier};

/// The oid of a schema's `pg_namespace` row: this plus its row's rowid in
/// `litewire_schemas` (see `schemas`).
pub const FIRST_SCHEMA_OID: i64 = 1 << 23;

/// The SQLite name of `name` of schema `schema`.
pub fn stored_name(schema: &str, name: &str) -> String {
    format!("{schema}.{name}")
}

/// A SQLite name as the schema (one of `schemas`) and the name in it; `None`
/// for a name of `public`.
pub fn split_stored<'a>(stored: &'a str, schemas: &[String]) -> Option<(&'a str, &'a str)> {
    let (schema, name) = stored.split_once('.')?;
    schemas
        .iter()
        .any(|s| s == schema)
        .then_some((schema, name))
}

/// The schema names a `search_path` setting lists, in order, as PostgreSQL
/// reads them (`"My Schema"` keeps its case, `App` is `app`).
pub fn path_items(setting: &str) -> Vec<String> {
    setting
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(
            |item| match item.strip_prefix('"').and_then(|i| i.strip_suffix('"')) {
                Some(quoted) => quoted.replace("\"\"", "\""),
                None => item.to_ascii_lowercase(),
            },
        )
        .collect()
}

/// A session's `search_path` setting as the schemas on it that exist, in
/// its order: `public` and those of `schemas`. Empty when it names none of
/// `schemas` (then every unqualified name is `public`'s, as before any
/// schema was made).
pub fn session_path(setting: &str, schemas: &[String]) -> Vec<String> {
    let mut path: Vec<String> = Vec::new();
    for name in path_items(setting) {
        let exists = name == "public" || schemas.contains(&name);
        if exists && !path.contains(&name) {
            path.push(name);
        }
    }
    match path.iter().any(|schema| schema != "public") {
        true => path,
        false => Vec::new(),
    }
}

/// The version a statement read on `path` is read at: the schema's
/// `generation`, and the path where it matters (statements read on another
/// path are read again).
pub fn path_version(generation: u64, path: &[String]) -> u64 {
    use std::hash::{Hash, Hasher};
    if path.is_empty() {
        return generation;
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    path.hash(&mut hasher);
    // Far above any generation a server reaches.
    generation ^ (hasher.finish() | 1 << 63)
}

/// A SQLite name as PostgreSQL shows the object's name: `app.t` for `t` of
/// schema `app`, `t` for one of `public` (each part quoted where it needs it).
pub fn shown(stored: &str, schemas: &[String]) -> String {
    match split_stored(stored, schemas) {
        Some((schema, name)) => format!(
            "{}.{}",
            identifier_as_postgres(schema),
            identifier_as_postgres(name)
        ),
        None => identifier_as_postgres(stored),
    }
}

/// [`shown`], always qualified: `public.t` too.
pub fn qualified(stored: &str, schemas: &[String]) -> String {
    match split_stored(stored, schemas) {
        Some(_) => shown(stored, schemas),
        None => format!("public.{}", identifier_as_postgres(stored)),
    }
}

/// A written name (`t`, `"T"`, `public.t`, or `"s.t"` as a name of schema
/// `s` reads once qualified) as its object's SQLite name: its last
/// identifier, folded as PostgreSQL folds it.
pub(super) fn stored_written(written: &str) -> String {
    super::lexer::tokenize(written)
        .iter()
        .rev()
        .find_map(|token| folded(written, token))
        .unwrap_or_default()
}

/// An identifier token as the name PostgreSQL reads: folded to lower case
/// unless quoted.
fn folded(text: &str, token: &Token) -> Option<String> {
    match token.kind {
        TokenKind::Word => Some(token.text(text).to_ascii_lowercase()),
        TokenKind::QuotedIdent => Some(unquote_identifier(token.text(text))),
        _ => None,
    }
}

/// Words after which a name is a relation's (or a type's, stored alike).
const RELATION_WORDS: &[&str] = &[
    "FROM",
    "JOIN",
    "INTO",
    "UPDATE",
    "TABLE",
    "ONLY",
    "REFERENCES",
    "TRUNCATE",
    "VIEW",
    "SEQUENCE",
    "INDEX",
    "EXISTS",
    "TYPE",
    "DOMAIN",
    "COPY",
    "LOCK",
    "ANALYZE",
    "VACUUM",
];

/// Words after which a name is a type's.
const TYPE_WORDS: &[&str] = &["AS"];

/// Words that end a `FROM` item where an alias could stand instead.
const AFTER_ITEM: &[&str] = &[
    "WHERE",
    "JOIN",
    "INNER",
    "LEFT",
    "RIGHT",
    "FULL",
    "CROSS",
    "NATURAL",
    "ON",
    "USING",
    "GROUP",
    "ORDER",
    "LIMIT",
    "OFFSET",
    "UNION",
    "INTERSECT",
    "EXCEPT",
    "WINDOW",
    "HAVING",
    "FOR",
    "FETCH",
    "RETURNING",
    "SET",
    "TABLESAMPLE",
];

/// What a comma continues, at one depth of parentheses.
#[derive(Clone, Copy, PartialEq)]
enum List {
    /// `FROM a, b` (and `USING a, b` of a DELETE).
    From,
    /// `DROP TABLE a, b`, `TRUNCATE a, b`, ...
    Names,
    Other,
}

fn list_after(word: &str) -> Option<List> {
    const NAMES: &[&str] = &[
        "TABLE", "VIEW", "SEQUENCE", "INDEX", "TYPE", "TRUNCATE", "LOCK",
    ];
    const OTHER: &[&str] = &[
        "SELECT",
        "WHERE",
        "GROUP",
        "HAVING",
        "ORDER",
        "LIMIT",
        "OFFSET",
        "WINDOW",
        "RETURNING",
        "SET",
        "VALUES",
        "INTO",
    ];
    let is = |list: &[&str]| list.iter().any(|w| w.eq_ignore_ascii_case(word));
    if word.eq_ignore_ascii_case("FROM") || word.eq_ignore_ascii_case("USING") {
        Some(List::From)
    } else if is(NAMES) {
        Some(List::Names)
    } else if is(OTHER) {
        Some(List::Other)
    } else {
        None
    }
}

/// How a qualified name is read where it stands.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    /// A relation read in `FROM` (or `UPDATE`'s target): aliased by its name.
    FromItem,
    /// `INSERT`'s target, aliased by its name too (a column list may follow).
    InsertTarget,
    /// A relation, sequence, index or type: its stored name.
    Object,
    /// A column reference (`a.b`): left alone.
    Column,
}

/// Where an unqualified name is found: the schema of the user's the path
/// finds it in first.
type Find<'a> = &'a dyn Fn(&str) -> Option<String>;

/// How the names of one statement are found: the schemas there are, and,
/// where `search_path` names any, the unqualified names of theirs.
struct Resolver<'a> {
    is_schema: &'a dyn Fn(&str) -> bool,
    /// The schema of the user's an unqualified name finds first on the
    /// path; `None` where `public` has it first, or nothing does.
    find: Option<Find<'a>>,
    /// Where an unqualified name is created: the path's first schema, when
    /// that is one of the user's.
    create_in: Option<String>,
}

/// The statement's text with each name qualified by one of the catalog's
/// schemas, or found in one by `search_path`, as its SQLite name; `None`
/// when it has none.
pub(super) fn resolved(text: &str, tokens: &[Token], catalog: &dyn Catalog) -> Option<String> {
    let schemas = catalog.schemas();
    if schemas.is_empty() {
        return None;
    }
    let path = catalog.search_path();
    let find = |name: &str| -> Option<String> {
        path.iter()
            .find_map(|schema| {
                let stored = match schema.as_str() {
                    "public" => name.to_owned(),
                    _ => stored_name(schema, name),
                };
                let found = catalog.relation(&stored).is_some()
                    || catalog.is_sequence(&stored)
                    || catalog.is_type(&stored);
                found.then(|| schema.clone())
            })
            .filter(|schema| schema != "public")
    };
    rewritten(
        text,
        tokens,
        &Resolver {
            is_schema: &|schema| schemas.iter().any(|s| s == schema),
            find: (!path.is_empty()).then_some(&find as Find),
            create_in: path.first().filter(|s| *s != "public").cloned(),
        },
    )
}

/// Whether a statement's names depend on the schemas there are: it names
/// one, or `search_path` finds names in them (a statement that reads or
/// changes relations, on a path with a schema of the user's).
pub(super) fn names_by_schema(text: &str, tokens: &[Token], catalog: &dyn Catalog) -> bool {
    let on_path = !catalog.search_path().is_empty()
        && [
            "SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "TRUNCATE", "WITH",
            "TABLE", "COMMENT",
        ]
        .iter()
        .any(|verb| tokens.first().is_some_and(|t| t.is_keyword(text, verb)));
    on_path || mentions_schema(text, tokens)
}

/// Whether the statement is about a schema or names an object qualified
/// with a schema other than litewire's own: read again when it runs if the
/// statements before it may have made that schema.
fn mentions_schema(text: &str, tokens: &[Token]) -> bool {
    let about = tokens.len() > 1
        && ["CREATE", "DROP", "ALTER"]
            .iter()
            .any(|verb| tokens[0].is_keyword(text, verb))
        && tokens[1].is_keyword(text, "SCHEMA");
    let is_schema = |schema: &str| {
        !["public", "pg_catalog", "information_schema", "main", "temp"].contains(&schema)
    };
    about
        || rewritten(
            text,
            tokens,
            &Resolver {
                is_schema: &is_schema,
                find: None,
                create_in: None,
            },
        )
        .is_some()
}

/// The statement's text with each name the resolver places in a schema of
/// the user's as its SQLite name; `None` when it has none.
fn rewritten(text: &str, tokens: &[Token], resolver: &Resolver) -> Option<String> {
    let word = |i: usize, kw: &str| tokens.get(i).is_some_and(|t| t.is_keyword(text, kw));
    let is_dot = |i: usize| {
        tokens
            .get(i)
            .is_some_and(|t| t.kind == TokenKind::Punct && t.text(text) == ".")
    };
    let schema_at = |i: usize| -> Option<String> {
        let schema = folded(text, tokens.get(i)?)?;
        let qualifies = is_dot(i + 1)
            && tokens.get(i + 2).and_then(|t| folded(text, t)).is_some()
            && !(i > 0 && is_dot(i - 1))
            && (resolver.is_schema)(&schema);
        qualifies.then_some(schema)
    };
    let creates_index = word(0, "CREATE") && (word(1, "INDEX") || word(2, "INDEX"));
    let grants = word(0, "GRANT") || word(0, "REVOKE");
    let defines_table = (word(0, "CREATE") || word(0, "ALTER"))
        && tokens[..tokens.len().min(4)]
            .iter()
            .any(|t| t.is_keyword(text, "TABLE"));
    // A name written as a SQLite name already (`"app.t"`) stays as it is:
    // a statement is read once more after this rewrite.
    let stored = |i: usize| {
        folded(text, &tokens[i])
            .and_then(|name| name.split_once('.').map(|(s, _)| (resolver.is_schema)(s)))
            .unwrap_or(false)
    };
    let created = resolver.create_in.as_ref().and_then(|schema| {
        created_name(text, tokens)
            .filter(|&at| !stored(at))
            .map(|at| (at, schema.clone()))
    });
    let common_tables = common_table_names(text, tokens);
    let place_at = |i: usize, list: List| {
        place(
            text,
            tokens,
            i,
            list,
            creates_index || grants,
            defines_table,
        )
    };
    // An unqualified name at `i` that the path finds in a schema of the
    // user's (or creates in one), where a relation's name stands.
    let found_at = |i: usize, list: List| -> Option<String> {
        if let Some((at, schema)) = &created
            && *at == i
        {
            return Some(schema.clone());
        }
        let find = resolver.find?;
        let name = folded(text, tokens.get(i)?)?;
        let alone = !(is_dot(i + 1) || (i > 0 && is_dot(i - 1)));
        let place = place_at(i, list);
        // `FROM f(...)` calls a function.
        let called = place == Place::FromItem
            && tokens
                .get(i + 1)
                .is_some_and(|t| t.kind == TokenKind::LeftParen);
        (alone && place != Place::Column && !called && !common_tables.contains(&name))
            .then(|| find(&name))
            .flatten()
    };
    let index_name = creates_index
        .then(|| {
            index_renamed(text, tokens, &|i| {
                schema_at(i).or_else(|| found_at(i, List::Other))
            })
        })
        .flatten()
        .filter(|(at, _)| !stored(*at));

    let mut out = String::new();
    let mut copied = 0;
    let mut lists = vec![List::Other];
    // The schema of the statement's first object, where `RENAME TO` keeps it.
    let mut target_schema: Option<String> = None;
    let mut i = 0;
    while i < tokens.len() {
        if let Some((at, schema)) = &index_name
            && *at == i
        {
            out.push_str(&text[copied..tokens[i].start]);
            let name = folded(text, &tokens[i]).unwrap_or_default();
            out.push_str(&identifier(&stored_name(schema, &name)));
            copied = tokens[i].end;
            i += 1;
            continue;
        }
        if word(i, "TO")
            && i >= 1
            && word(i - 1, "RENAME")
            && let Some(schema) = &target_schema
            && let Some(name) = tokens.get(i + 1).and_then(|t| folded(text, t))
            && !is_dot(i + 2)
        {
            out.push_str(&text[copied..tokens[i + 1].start]);
            out.push_str(&identifier(&stored_name(schema, &name)));
            copied = tokens[i + 1].end;
            i += 2;
            continue;
        }
        let list = lists.last().copied().unwrap_or(List::Other);
        // The name at `i`: its schema and the index of its last token.
        let named = schema_at(i)
            .map(|schema| (schema, i + 2))
            .or_else(|| found_at(i, list).map(|schema| (schema, i)));
        let Some((schema, last)) = named else {
            let token = &tokens[i];
            match token.kind {
                TokenKind::LeftParen => lists.push(List::Other),
                TokenKind::RightParen if lists.len() > 1 => {
                    lists.pop();
                }
                TokenKind::Word => {
                    if let (Some(list), Some(last)) =
                        (list_after(token.text(text)), lists.last_mut())
                    {
                        *last = list;
                    }
                }
                _ => {}
            }
            i += 1;
            continue;
        };
        let name = folded(text, &tokens[last]).unwrap_or_default();
        let place = place_at(i, list);
        if is_dot(last + 1)
            && tokens
                .get(last + 2)
                .is_some_and(|t| folded(text, t).is_some())
        {
            // `s.t.c`: a column of `s.t`, read as `t.c` where `s.t` is read
            // under its own name; after COLUMN or OWNED BY, `"s.t".c`.
            out.push_str(&text[copied..tokens[i].start]);
            if word(i.wrapping_sub(1), "COLUMN") || word(i.wrapping_sub(1), "BY") {
                out.push_str(&identifier(&stored_name(&schema, &name)));
                copied = tokens[last].end;
            } else {
                copied = tokens[last].start;
            }
            i = last + 1;
            continue;
        }
        if place == Place::Column
            || (place == Place::FromItem
                && tokens
                    .get(last + 1)
                    .is_some_and(|t| t.kind == TokenKind::LeftParen))
        {
            i = last + 1;
            continue;
        }
        out.push_str(&text[copied..tokens[i].start]);
        out.push_str(&identifier(&stored_name(&schema, &name)));
        let aliases = match place {
            Place::FromItem => !aliased(text, tokens.get(last + 1)),
            Place::InsertTarget => !tokens
                .get(last + 1)
                .is_some_and(|t| t.is_keyword(text, "AS")),
            _ => false,
        };
        if aliases {
            out.push_str(" AS ");
            out.push_str(&identifier(&name));
        }
        copied = tokens[last].end;
        target_schema.get_or_insert(schema);
        i = last + 1;
    }
    (copied > 0).then(|| {
        out.push_str(&text[copied..]);
        out
    })
}

/// The index of the name a `CREATE {TABLE | VIEW | SEQUENCE | TYPE |
/// MATERIALIZED VIEW} [IF NOT EXISTS] name` makes, unqualified (a TEMP
/// one's excepted: it is no schema's of the user's).
fn created_name(text: &str, tokens: &[Token]) -> Option<usize> {
    let word = |i: usize, kw: &str| tokens.get(i).is_some_and(|t| t.is_keyword(text, kw));
    if !word(0, "CREATE") {
        return None;
    }
    let mut i = 1;
    if word(i, "OR") && word(i + 1, "REPLACE") {
        i += 2;
    }
    if ["TEMP", "TEMPORARY"].iter().any(|kw| word(i, kw)) {
        return None;
    }
    if word(i, "UNLOGGED") || word(i, "MATERIALIZED") {
        i += 1;
    }
    if !["TABLE", "VIEW", "SEQUENCE", "TYPE"]
        .iter()
        .any(|kw| word(i, kw))
    {
        return None;
    }
    i += 1;
    if word(i, "IF") && word(i + 1, "NOT") && word(i + 2, "EXISTS") {
        i += 3;
    }
    let bare = tokens
        .get(i)
        .is_some_and(|t| matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent))
        && tokens.get(i + 1).is_none_or(|t| t.text(text) != ".");
    bare.then_some(i)
}

/// The names a `WITH` defines (`name AS (`, `name (columns) AS (`), which an
/// unqualified name refers to before any schema's relation.
fn common_table_names(text: &str, tokens: &[Token]) -> Vec<String> {
    let mut names = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let Some(name) = folded(text, token) else {
            continue;
        };
        let mut next = i + 1;
        if tokens
            .get(next)
            .is_some_and(|t| t.kind == TokenKind::LeftParen)
        {
            let mut depth = 0usize;
            for (j, t) in tokens.iter().enumerate().skip(next) {
                match t.kind {
                    TokenKind::LeftParen => depth += 1,
                    TokenKind::RightParen => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            next = j + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        let defines = tokens.get(next).is_some_and(|t| t.is_keyword(text, "AS"))
            && tokens.get(next + 1).is_some_and(|t| {
                t.kind == TokenKind::LeftParen
                    || t.is_keyword(text, "MATERIALIZED")
                    || t.is_keyword(text, "NOT")
            });
        if defines {
            names.push(name);
        }
    }
    names
}

/// How the qualified name at `i` reads, by the tokens before it.
fn place(
    text: &str,
    tokens: &[Token],
    i: usize,
    list: List,
    on_names_relation: bool,
    defines_table: bool,
) -> Place {
    let Some(before) = i.checked_sub(1).and_then(|p| tokens.get(p)) else {
        return Place::Column;
    };
    let word = |p: usize, kw: &str| tokens.get(p).is_some_and(|t| t.is_keyword(text, kw));
    let from_word = |p: usize| {
        ["FROM", "JOIN", "UPDATE", "USING"]
            .iter()
            .any(|kw| word(p, kw))
            || (tokens.get(p).is_some_and(|t| t.text(text) == ",") && list == List::From)
    };
    let prev = i - 1;
    if from_word(prev) || (word(prev, "ONLY") && prev >= 1 && from_word(prev - 1)) {
        // `DELETE FROM`, `COPY ... FROM` and `TRUNCATE` name a relation
        // only; an alias there is harmless for DELETE and wrong elsewhere.
        let copy_from = tokens.first().is_some_and(|t| t.is_keyword(text, "COPY"));
        return match copy_from {
            true => Place::Object,
            false => Place::FromItem,
        };
    }
    if word(prev, "INTO") && prev >= 1 && word(prev - 1, "INSERT") {
        return Place::InsertTarget;
    }
    let is_colon = |p: usize| tokens.get(p).is_some_and(|t| t.text(text) == ":");
    if RELATION_WORDS.iter().any(|kw| word(prev, kw))
        || TYPE_WORDS.iter().any(|kw| word(prev, kw))
        || (before.text(text) == "," && list == List::Names)
        || (word(prev, "ON") && on_names_relation)
        || (is_colon(prev) && prev >= 1 && is_colon(prev - 1))
    {
        return Place::Object;
    }
    // A column's type: `(c s.t`, `, c s.t`, `ADD [COLUMN] c s.t`.
    let column_name = matches!(before.kind, TokenKind::Word | TokenKind::QuotedIdent);
    let opens_column = prev >= 1
        && tokens.get(prev - 1).is_some_and(|t| {
            matches!(t.text(text), "(" | ",")
                || t.is_keyword(text, "COLUMN")
                || t.is_keyword(text, "ADD")
        });
    if defines_table && column_name && opens_column {
        return Place::Object;
    }
    Place::Column
}

/// Whether the token after a `FROM` item is its alias (or `AS`).
fn aliased(text: &str, next: Option<&Token>) -> bool {
    match next {
        Some(t) if t.kind == TokenKind::QuotedIdent => true,
        Some(t) if t.kind == TokenKind::Word => {
            let word = t.text(text);
            word.eq_ignore_ascii_case("AS")
                || !AFTER_ITEM.iter().any(|w| w.eq_ignore_ascii_case(word))
        }
        _ => false,
    }
}

/// In `CREATE INDEX name ON s.t`, the index's name token and the schema it
/// goes in (PostgreSQL puts an index in its table's schema).
fn index_renamed(
    text: &str,
    tokens: &[Token],
    schema_at: &dyn Fn(usize) -> Option<String>,
) -> Option<(usize, String)> {
    let on = tokens
        .iter()
        .position(|t| t.is_keyword(text, "ON"))
        .filter(|&on| on >= 1)?;
    let schema = schema_at(on + 1)?;
    let name = &tokens[on - 1];
    let named = matches!(name.kind, TokenKind::Word | TokenKind::QuotedIdent)
        && !["INDEX", "CONCURRENTLY", "EXISTS"]
            .iter()
            .any(|kw| name.is_keyword(text, kw));
    named.then_some((on - 1, schema))
}

#[cfg(test)]
mod tests {
    use super::resolved;
    use crate::sql::lexer::tokenize;
    use crate::sql::postgres::{Catalog, Relation};

    /// A catalog of two schemas, `app` holding `t` and `only_app`, `public`
    /// holding `t` too, with `search_path` as given.
    struct Schemas(Vec<String>, Vec<String>);

    impl Catalog for Schemas {
        fn relation(&self, name: &str) -> Option<Relation> {
            ["t", "app.t", "app.only_app"]
                .contains(&name)
                .then(|| Relation {
                    name: name.to_owned(),
                    columns: Vec::new(),
                    view: false,
                    materialized: None,
                    references: Vec::new(),
                })
        }

        fn version(&self) -> u64 {
            0
        }

        fn schemas(&self) -> &[String] {
            &self.0
        }

        fn search_path(&self) -> &[String] {
            &self.1
        }
    }

    fn on_path(path: &[&str], text: &str) -> String {
        let catalog = Schemas(
            vec!["app".to_owned(), "Odd".to_owned()],
            path.iter().map(|s| (*s).to_owned()).collect(),
        );
        resolved(text, &tokenize(text), &catalog).unwrap_or_else(|| text.to_owned())
    }

    fn run(text: &str) -> String {
        on_path(&[], text)
    }

    #[test]
    fn relations_become_one_name() {
        assert_eq!(
            run("SELECT t.a, app.t.b FROM app.t WHERE x = 1"),
            "SELECT t.a, t.b FROM \"app.t\" AS \"t\" WHERE x = 1"
        );
        assert_eq!(
            run("SELECT * FROM app.t x, \"Odd\".\"U\" JOIN app.v ON v.a = x.a"),
            "SELECT * FROM \"app.t\" x, \"Odd.U\" AS \"U\" JOIN \"app.v\" AS \"v\" ON v.a = x.a"
        );
        assert_eq!(
            run("INSERT INTO app.t (a) SELECT a FROM public.u"),
            "INSERT INTO \"app.t\" AS \"t\" (a) SELECT a FROM public.u"
        );
        assert_eq!(
            run("CREATE TABLE APP.T (id int REFERENCES app.u(id), m app.mood, n \"Odd\".e[])"),
            "CREATE TABLE \"app.t\" (id int REFERENCES \"app.u\"(id), m \"app.mood\", n \"Odd.e\"[])"
        );
        assert_eq!(
            run("DROP TABLE app.a, app.b"),
            "DROP TABLE \"app.a\", \"app.b\""
        );
        assert_eq!(
            run("SELECT 'a'::app.mood, CAST(x AS app.mood)"),
            "SELECT 'a'::\"app.mood\", CAST(x AS \"app.mood\")"
        );
    }

    #[test]
    fn columns_stay_columns() {
        // `app` is a relation's name here, as PostgreSQL reads it.
        assert_eq!(
            run("SELECT app.x FROM t AS app WHERE app.y = 1"),
            "SELECT app.x FROM t AS app WHERE app.y = 1"
        );
        assert_eq!(
            run("SELECT other.t FROM other"),
            "SELECT other.t FROM other"
        );
    }

    #[test]
    fn indexes_and_renames_stay_in_their_schema() {
        assert_eq!(
            run("CREATE UNIQUE INDEX i ON app.t (a)"),
            "CREATE UNIQUE INDEX \"app.i\" ON \"app.t\" (a)"
        );
        assert_eq!(
            run("ALTER TABLE app.t RENAME TO u"),
            "ALTER TABLE \"app.t\" RENAME TO \"app.u\""
        );
        assert_eq!(
            run("COMMENT ON COLUMN app.t.c IS 'x'"),
            "COMMENT ON COLUMN \"app.t\".c IS 'x'"
        );
    }

    #[test]
    fn the_search_path_finds_and_creates_names() {
        let path = &["app", "public"];
        assert_eq!(
            on_path(path, "SELECT t.x FROM t JOIN only_app o ON true"),
            "SELECT t.x FROM \"app.t\" AS \"t\" JOIN \"app.only_app\" o ON true"
        );
        assert_eq!(
            on_path(&["public", "app"], "SELECT * FROM t, only_app"),
            "SELECT * FROM t, \"app.only_app\" AS \"only_app\""
        );
        assert_eq!(
            on_path(path, "CREATE TABLE IF NOT EXISTS n (id int REFERENCES t)"),
            "CREATE TABLE IF NOT EXISTS \"app.n\" (id int REFERENCES \"app.t\")"
        );
        assert_eq!(
            on_path(path, "CREATE INDEX i ON t (x)"),
            "CREATE INDEX \"app.i\" ON \"app.t\" (x)"
        );
        assert_eq!(
            on_path(path, "WITH t AS (SELECT 1) SELECT * FROM t"),
            "WITH t AS (SELECT 1) SELECT * FROM t"
        );
        assert_eq!(
            on_path(path, "CREATE TEMP TABLE n (id int)"),
            "CREATE TEMP TABLE n (id int)"
        );
        assert_eq!(
            on_path(path, "SELECT t FROM nothing"),
            "SELECT t FROM nothing"
        );
    }
}
