//! Quoting and unquoting SQL text, and PostgreSQL's boolean spellings: one
//! helper each, for every place that writes SQL (translation, the catalog, COPY)
//! or reads a value a client spelled.

/// `text` as PostgreSQL's `quote_literal` writes it: `'it''s'`, and with a
/// backslash, `E'a\\b'` for `a\b` (each backslash doubled).
pub fn literal_as_postgres(text: &str) -> String {
    match text.contains('\\') {
        true => format!("E'{}'", text.replace('\\', "\\\\").replace('\'', "''")),
        false => literal(text),
    }
}

/// `text` as an SQL string literal: `'it''s'`.
pub fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// `text` as a string literal, or `NULL`.
pub fn optional_literal(text: Option<&str>) -> String {
    text.map_or_else(|| "NULL".to_owned(), literal)
}

/// `name` as a double-quoted identifier, always: safe for any name.
pub fn identifier(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// PostgreSQL's keywords that are not unreserved (`pg_get_keywords()` where
/// `catcode <> 'U'`): an identifier spelled as one is quoted.
const RESERVED: &[&str] = &[
    "all",
    "analyse",
    "analyze",
    "and",
    "any",
    "array",
    "as",
    "asc",
    "asymmetric",
    "authorization",
    "between",
    "bigint",
    "binary",
    "bit",
    "boolean",
    "both",
    "case",
    "cast",
    "char",
    "character",
    "check",
    "coalesce",
    "collate",
    "collation",
    "column",
    "concurrently",
    "constraint",
    "create",
    "cross",
    "current_catalog",
    "current_date",
    "current_role",
    "current_schema",
    "current_time",
    "current_timestamp",
    "current_user",
    "dec",
    "decimal",
    "default",
    "deferrable",
    "desc",
    "distinct",
    "do",
    "else",
    "end",
    "except",
    "exists",
    "extract",
    "false",
    "fetch",
    "float",
    "for",
    "foreign",
    "freeze",
    "from",
    "full",
    "grant",
    "greatest",
    "group",
    "grouping",
    "having",
    "ilike",
    "in",
    "initially",
    "inner",
    "inout",
    "int",
    "integer",
    "intersect",
    "interval",
    "into",
    "is",
    "isnull",
    "join",
    "lateral",
    "leading",
    "least",
    "left",
    "like",
    "limit",
    "localtime",
    "localtimestamp",
    "national",
    "natural",
    "nchar",
    "none",
    "normalize",
    "not",
    "notnull",
    "null",
    "nullif",
    "numeric",
    "offset",
    "on",
    "only",
    "or",
    "order",
    "out",
    "outer",
    "overlaps",
    "overlay",
    "placing",
    "position",
    "precision",
    "primary",
    "real",
    "references",
    "returning",
    "right",
    "row",
    "select",
    "session_user",
    "setof",
    "similar",
    "smallint",
    "some",
    "substring",
    "symmetric",
    "table",
    "tablesample",
    "then",
    "time",
    "timestamp",
    "to",
    "trailing",
    "treat",
    "trim",
    "true",
    "union",
    "unique",
    "user",
    "using",
    "values",
    "varchar",
    "variadic",
    "verbose",
    "when",
    "where",
    "window",
    "with",
    "xmlattributes",
    "xmlconcat",
    "xmlelement",
    "xmlexists",
    "xmlforest",
    "xmlnamespaces",
    "xmlparse",
    "xmlpi",
    "xmlroot",
    "xmlserialize",
    "xmltable",
];

/// `name` as PostgreSQL prints an identifier (`quote_ident`): bare when it is
/// all lower case letters, digits and underscores (not starting with a digit)
/// and no reserved keyword, quoted otherwise.
pub fn identifier_as_postgres(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && RESERVED.binary_search(&name).is_err();
    if plain {
        name.to_owned()
    } else {
        identifier(name)
    }
}

/// The schema a name as written qualifies it with (`s.t`, `"s"."t"`), if
/// any: a dot inside a quoted part is the part's own (`"s.t"` is one name).
pub fn qualifier(name: &str) -> Option<&str> {
    let mut quoted = false;
    for (at, c) in name.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '.' if !quoted => return Some(&name[..at]),
            _ => {}
        }
    }
    None
}

/// A name as written (`s."T"`, `"s.t"`) as its parts, unquoted, split at its
/// unquoted dots.
pub fn name_parts(name: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut rest = name;
    while let Some(schema) = qualifier(rest) {
        parts.push(unquote_identifier(schema));
        rest = &rest[schema.len() + 1..];
    }
    parts.push(unquote_identifier(rest));
    parts
}

/// An identifier token as the name it stands for: `"a""b"` is `a"b`, and
/// SQLite's other quotes (`` `a` ``, `[a]`) are removed too; a bare word is itself.
/// Whether two column lists name the same columns in the same order (SQLite's
/// identifiers are case-insensitive).
pub fn same_columns(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.eq_ignore_ascii_case(b))
}

pub fn unquote_identifier(token: &str) -> String {
    if let Some(inner) = token.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        return inner.replace("\"\"", "\"");
    }
    if let Some(inner) = token.strip_prefix('`').and_then(|t| t.strip_suffix('`')) {
        return inner.replace("``", "`");
    }
    match token.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        Some(inner) => inner.to_owned(),
        None => token.to_owned(),
    }
}

/// `'x'`, `E'\t'` (with its backslash escapes), `$$x$$` or `$tag$x$tag$`, or a
/// bare word, as its value.
pub fn unquote_literal(token: &str) -> String {
    if let Some(body) = token
        .strip_prefix("E'")
        .or_else(|| token.strip_prefix("e'"))
    {
        return unescape_e_string(body.strip_suffix('\'').unwrap_or(body));
    }
    if let Some(rest) = token.strip_prefix('$')
        && let Some((tag, rest)) = rest.split_once('$')
        && let Some(body) = rest.strip_suffix(&format!("${tag}$"))
    {
        return body.to_owned();
    }
    match token.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        Some(body) => body.replace("''", "'"),
        None => token.to_owned(),
    }
}

/// The body of an `E'...'` string: `\t`, `\n`, `\r`, `\b`, `\f`, `\v`, `''`, and a
/// backslash before any other character stands for that character.
fn unescape_e_string(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(escaped) = chars.next() else {
                    out.push(c);
                    break;
                };
                out.push(match escaped {
                    't' => '\t',
                    'n' => '\n',
                    'r' => '\r',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'v' => '\u{b}',
                    other => other,
                });
            }
            '\'' if chars.peek() == Some(&'\'') => {
                chars.next();
                out.push('\'');
            }
            _ => out.push(c),
        }
    }
    out
}

/// PostgreSQL's spellings of a boolean (`t`, `true`, `yes`, `on`, `1`, ...), in
/// any case and with surrounding white space.
pub fn parse_bool(text: &str) -> Option<bool> {
    let word = text.trim().to_ascii_lowercase();
    // Any prefix of `true`, `false`, `yes`, `no`; `on` and `off` need two letters.
    let prefix = |of: &str| !word.is_empty() && of.starts_with(word.as_str());
    match word.as_str() {
        "1" => Some(true),
        "0" => Some(false),
        "on" => Some(true),
        "of" | "off" => Some(false),
        _ if prefix("true") || prefix("yes") => Some(true),
        _ if prefix("false") || prefix("no") => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_identifiers() {
        assert_eq!(literal("it's"), "'it''s'");
        assert_eq!(optional_literal(None), "NULL");
        assert_eq!(identifier("a\"b"), "\"a\"\"b\"");
        assert_eq!(identifier_as_postgres("abc_1"), "abc_1");
        assert_eq!(identifier_as_postgres("Abc"), "\"Abc\"");
        assert_eq!(identifier_as_postgres("a b"), "\"a b\"");
        assert_eq!(identifier_as_postgres("1a"), "\"1a\"");
    }

    #[test]
    fn unquoting() {
        assert_eq!(unquote_identifier("\"a\"\"b\""), "a\"b");
        assert_eq!(unquote_identifier("`a``b`"), "a`b");
        assert_eq!(unquote_identifier("[a b]"), "a b");
        assert_eq!(unquote_identifier("plain"), "plain");
    }

    #[test]
    fn string_values() {
        assert_eq!(unquote_literal(r"E'\t'"), "\t");
        assert_eq!(unquote_literal(r"E'a\\b\'c'"), "a\\b'c");
        assert_eq!(unquote_literal(r"E'a\nb\'c'"), "a\nb'c");
        assert_eq!(unquote_literal("'it''s'"), "it's");
        assert_eq!(unquote_literal("csv"), "csv");
        assert_eq!(unquote_literal("$$it's$$"), "it's");
        assert_eq!(unquote_literal("$fn$a$$b$fn$"), "a$$b");
    }

    #[test]
    fn booleans() {
        assert_eq!(parse_bool(" ON "), Some(true));
        assert_eq!(parse_bool("f"), Some(false));
        assert_eq!(parse_bool("maybe"), None);
    }
}
