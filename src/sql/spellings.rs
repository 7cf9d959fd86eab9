//! PostgreSQL's spellings that the SQL parser reads otherwise or not at all,
//! written as the equivalent ones it reads before the statement is parsed:
//! - `U&'d\0061t'` and `U&"d\0061t"`, with `UESCAPE 'c'` naming another escape
//!   character: Unicode escapes (`\XXXX`, `\+XXXXXX`), decoded here;
//! - `E'\u0061'` and `E'\U00000061'`: the Unicode escapes of an escape string,
//!   decoded here (its other escapes are the parser's);
//! - `'a'` followed by `'b'` on a later line: one constant, `'ab'`;
//! - `SUBSTRING(s SIMILAR p ESCAPE e)`: `SUBSTRING(s FROM p FOR e)`, which
//!   means the same for a string `p`;
//! - `INSERT INTO t (SELECT ...)`: the query without its parentheses;
//! - `CREATE RECURSIVE VIEW v (a, b) AS q`: `CREATE VIEW v AS WITH RECURSIVE
//!   v (a, b) AS (q) SELECT a, b FROM v`, which PostgreSQL documents it as;
//! - `jsonb_to_record(j) AS x (a int, b text)` (and `json_`, `_recordset`):
//!   the subquery reading those columns from the object (or each element).
//!
//! A malformed escape is refused as PostgreSQL refuses it (42601; 22025 for
//! an escape string's short `\u`).

use super::lexer::{Token, TokenKind};
use crate::error::{Error, ErrorKind, SqlState};

/// `text` with every such spelling written plainly; `None` when it has none.
pub(super) fn rewritten(text: &str, tokens: &[Token]) -> Result<Option<String>, Error> {
    if let Some(view) = recursive_view(text, tokens) {
        return Ok(Some(view));
    }
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    let replaced = keywords_replaced(text, tokens);
    while i < tokens.len() {
        let token = &tokens[i];
        if let Some(&(_, word)) = replaced.iter().find(|(at, _)| *at == i) {
            out.push_str(&text[copied..token.start]);
            out.push_str(word);
            copied = token.end;
            i += 1;
            continue;
        }
        if let Some((written, next)) = record_function(text, tokens, i) {
            out.push_str(&text[copied..token.start]);
            out.push_str(&written);
            copied = tokens[next - 1].end;
            i = next;
            continue;
        }
        if let Some((written, next)) = unicode_escaped(text, tokens, i)? {
            out.push_str(&text[copied..token.start]);
            out.push_str(&written);
            copied = tokens[next - 1].end;
            i = next;
            continue;
        }
        if is_escape_string(token.text(text)) && token.text(text).contains(['u', 'U']) {
            if let Some(decoded) = escape_string(token.text(text))? {
                out.push_str(&text[copied..token.start]);
                out.push_str(&decoded);
                copied = token.end;
            }
            i += 1;
            continue;
        }
        let continued = continuation_end(text, tokens, i);
        if continued > i + 1 {
            out.push_str(&text[copied..token.start]);
            let mut merged = token.text(text).to_owned();
            for part in &tokens[i + 1..continued] {
                merged.pop();
                merged.push_str(&part.text(text)[1..]);
            }
            out.push_str(&merged);
            copied = tokens[continued - 1].end;
            i = continued;
            continue;
        }
        i += 1;
    }
    Ok((copied > 0).then(|| {
        out.push_str(&text[copied..]);
        out
    }))
}

/// `CREATE [OR REPLACE] [TEMP] RECURSIVE VIEW name (columns) AS query`, as
/// the plain view of a recursive `WITH`.
fn recursive_view(text: &str, tokens: &[Token]) -> Option<String> {
    let is = |i: usize, word: &str| tokens.get(i).is_some_and(|t| t.is_keyword(text, word));
    if !is(0, "CREATE") {
        return None;
    }
    let recursive = (1..tokens.len().min(6)).find(|&i| is(i, "RECURSIVE"))?;
    let head_words = ["OR", "REPLACE", "TEMP", "TEMPORARY"];
    if !(1..recursive).all(|i| head_words.iter().any(|w| is(i, w))) || !is(recursive + 1, "VIEW") {
        return None;
    }
    let name = tokens.get(recursive + 2)?;
    let open = recursive + 3;
    if tokens.get(open)?.kind != TokenKind::LeftParen {
        return None;
    }
    let close = closing(tokens, open);
    if !is(close + 1, "AS") {
        return None;
    }
    let query = tokens.get(close + 2)?;
    let columns = &text[tokens[open].end..tokens[close].start];
    let name = name.text(text);
    Some(format!(
        "{} VIEW {name} AS WITH RECURSIVE {name} ({columns}) AS ({}) SELECT {columns} FROM {name}",
        &text[..tokens[recursive].start].trim_end(),
        text[query.start..].trim_end().trim_end_matches(';'),
    ))
}

/// The tokens written as another word (or none): `SIMILAR` and `ESCAPE` in
/// `SUBSTRING(...)`, the parentheses around an `INSERT`'s query.
fn keywords_replaced(text: &str, tokens: &[Token]) -> Vec<(usize, &'static str)> {
    let mut replaced = Vec::new();
    let is = |i: usize, word: &str| tokens.get(i).is_some_and(|t| t.is_keyword(text, word));
    let opens = |i: usize| {
        tokens
            .get(i)
            .is_some_and(|t| t.kind == TokenKind::LeftParen)
    };
    for i in 0..tokens.len() {
        if !(is(i, "SUBSTRING") && opens(i + 1)) {
            continue;
        }
        // `SIMILAR` (not `SIMILAR TO`) and the `ESCAPE` after it, among the
        // call's own arguments.
        let (mut depth, mut similar, mut escape) = (0usize, None, None);
        let close = closing(tokens, i + 1);
        for (j, token) in tokens.iter().enumerate().take(close + 1).skip(i + 1) {
            match token.kind {
                TokenKind::LeftParen => depth += 1,
                TokenKind::RightParen => depth = depth.saturating_sub(1),
                _ if depth != 1 => {}
                _ if similar.is_none() && is(j, "SIMILAR") && !is(j + 1, "TO") => similar = Some(j),
                _ if similar.is_some() && escape.is_none() && is(j, "ESCAPE") => escape = Some(j),
                _ => {}
            }
        }
        if let (Some(similar), Some(escape)) = (similar, escape) {
            replaced.extend([(similar, "FROM"), (escape, "FOR")]);
        }
    }
    // `INSERT INTO name [[AS] alias] (query)`.
    if is(0, "INSERT") && is(1, "INTO") {
        let name_part = |t: &Token| {
            matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent) || t.text(text) == "."
        };
        let mut at = 2;
        while tokens.get(at).is_some_and(name_part)
            && !["VALUES", "SELECT", "DEFAULT", "OVERRIDING", "WITH"]
                .iter()
                .any(|w| is(at, w))
        {
            at += 1;
        }
        let query = ["SELECT", "VALUES", "WITH", "TABLE"];
        if at > 2 && opens(at) && query.iter().any(|q| is(at + 1, q)) {
            replaced.extend([(at, ""), (closing(tokens, at), "")]);
        }
    }
    replaced
}

/// `json[b]_to_record(j) AS x (a int, b text)` and `json[b]_to_recordset(j)
/// AS x (...)` in FROM at `tokens[i]`: the subquery that reads each column
/// from the object (each element's, for a set) by its name, as its type
/// (`json`/`jsonb` columns the value itself, others its text cast), and the
/// index of the token after the column definitions.
fn record_function(text: &str, tokens: &[Token], i: usize) -> Option<(String, usize)> {
    let name = tokens[i].text(text);
    let j = name
        .as_bytes()
        .first()
        .is_some_and(|b| b.eq_ignore_ascii_case(&b'j'));
    if tokens[i].kind != TokenKind::Word || !j {
        return None;
    }
    let is = |n: &str| name.eq_ignore_ascii_case(n);
    let set = match () {
        _ if is("json_to_record") || is("jsonb_to_record") => false,
        _ if is("json_to_recordset") || is("jsonb_to_recordset") => true,
        _ => return None,
    };
    let open = i + 1;
    if tokens.get(open)?.kind != TokenKind::LeftParen {
        return None;
    }
    let close = closing(tokens, open);
    let mut at = close + 1;
    if tokens.get(at)?.is_keyword(text, "AS") {
        at += 1;
    }
    let alias = tokens
        .get(at)
        .filter(|t| matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent))?;
    let defs_open = at + 1;
    if tokens.get(defs_open)?.kind != TokenKind::LeftParen {
        return None;
    }
    let defs_close = closing(tokens, defs_open);
    let argument = &text[tokens[open].end..tokens[close].start];
    let object = match set {
        true => "litewire_element".to_owned(),
        false => format!("({argument})::jsonb"),
    };
    // Each definition: a name, then its type up to a comma at its level.
    let mut columns = Vec::new();
    let mut start = defs_open + 1;
    while start < defs_close {
        let mut end = start;
        let mut depth = 0usize;
        while end < defs_close {
            match tokens[end].kind {
                TokenKind::LeftParen => depth += 1,
                TokenKind::RightParen => depth = depth.saturating_sub(1),
                TokenKind::Punct if depth == 0 && tokens[end].text(text) == "," => break,
                _ => {}
            }
            end += 1;
        }
        let column = &tokens[start];
        let written = column.text(text);
        let key = match column.kind {
            TokenKind::QuotedIdent => unquoted(written, '"'),
            _ => written.to_ascii_lowercase(),
        };
        let ty = text.get(tokens.get(start + 1)?.start..tokens[end - 1].end)?;
        let key = format!("'{}'", key.replace('\'', "''"));
        let json_typed = matches!(ty.trim().to_ascii_lowercase().as_str(), "json" | "jsonb");
        columns.push(match json_typed {
            true => format!("({object} -> {key})::{ty} AS {written}"),
            false => format!("({object} ->> {key})::{ty} AS {written}"),
        });
        start = end + 1;
    }
    let rows = match set {
        true => format!(" FROM jsonb_array_elements(({argument})::jsonb) AS litewire_element"),
        false => String::new(),
    };
    let alias = alias.text(text);
    // It may read the relations before it, as a function in FROM does.
    let lateral = match i
        .checked_sub(1)
        .map(|p| tokens[p].is_keyword(text, "LATERAL"))
    {
        Some(true) => "",
        _ => "LATERAL ",
    };
    Some((
        format!("{lateral}(SELECT {}{rows}) AS {alias}", columns.join(", ")),
        defs_close + 1,
    ))
}

/// The index of the parenthesis closing the one at `open` (the last token's
/// when none does).
fn closing(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        match t.kind {
            TokenKind::LeftParen => depth += 1,
            TokenKind::RightParen => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    tokens.len().saturating_sub(1)
}

/// `U&'...'` or `U&"..."` at `tokens[i]`, with its `UESCAPE`: the plain
/// constant or name, and the index of the token after it.
fn unicode_escaped(
    text: &str,
    tokens: &[Token],
    i: usize,
) -> Result<Option<(String, usize)>, Error> {
    let [u, amp, quoted, ..] = &tokens[i..] else {
        return Ok(None);
    };
    let quoted_text = quoted.text(text);
    let quote = match quoted_text.as_bytes().first() {
        Some(b'\'') if quoted.kind == TokenKind::String => '\'',
        Some(b'"') if quoted.kind == TokenKind::QuotedIdent => '"',
        _ => return Ok(None),
    };
    if !u.text(text).eq_ignore_ascii_case("u")
        || amp.text(text) != "&"
        || u.end != amp.start
        || amp.end != quoted.start
    {
        return Ok(None);
    }
    let mut next = i + 3;
    let mut escape = '\\';
    if tokens
        .get(next)
        .is_some_and(|t| t.is_keyword(text, "UESCAPE"))
    {
        let given = tokens.get(next + 1);
        let Some(given) = given.filter(|t| t.text(text).starts_with('\'')) else {
            let near = given.map_or("", |t| t.text(text));
            return Err(syntax(format!(
                "UESCAPE must be followed by a simple string literal at or near \"{near}\""
            )));
        };
        let chosen = unquoted(given.text(text), '\'');
        let mut chars = chosen.chars();
        escape = match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_ascii_hexdigit() && !"+'\" \t\n\r\x0c".contains(c) => c,
            _ => {
                return Err(syntax(format!(
                    "invalid Unicode escape character at or near \"{}\"",
                    given.text(text)
                )));
            }
        };
        next += 2;
    }
    let decoded = decode(&unquoted(quoted_text, quote), escape)?;
    let doubled = decoded.replace(quote, &format!("{quote}{quote}"));
    Ok(Some((format!("{quote}{doubled}{quote}"), next)))
}

/// A `U&` constant's or name's text with its escapes (`escape` followed by
/// four hex digits, by `+` and six, or by itself) decoded.
fn decode(body: &str, escape: char) -> Result<String, Error> {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    let mut high: Option<u32> = None;
    while let Some(c) = chars.next() {
        if c != escape {
            if high.is_some() {
                return Err(syntax("invalid Unicode surrogate pair".to_owned()));
            }
            out.push(c);
            continue;
        }
        let digits = match chars.peek() {
            Some(&c) if c == escape => {
                if high.is_some() {
                    return Err(syntax("invalid Unicode surrogate pair".to_owned()));
                }
                chars.next();
                out.push(escape);
                continue;
            }
            Some('+') => {
                chars.next();
                6
            }
            _ => 4,
        };
        let hex: String = chars.by_ref().take(digits).collect();
        let value = (hex.len() == digits && hex.chars().all(|c| c.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(&hex, 16).ok())
            .flatten()
            .ok_or_else(|| syntax("invalid Unicode escape".to_owned()))?;
        high = code_point(value, high, &mut out, || {
            syntax("invalid Unicode surrogate pair".to_owned())
        })?;
    }
    if high.is_some() {
        return Err(syntax("invalid Unicode surrogate pair".to_owned()));
    }
    Ok(out)
}

/// `E'...'` with its `\uXXXX` and `\UXXXXXXXX` escapes decoded; `None` when it
/// has none. Its other escapes are left to the parser.
fn escape_string(token: &str) -> Result<Option<String>, Error> {
    let body = &token[2..token.len().saturating_sub(1).max(2)];
    let mut out = String::with_capacity(token.len());
    out.push_str(&token[..2]);
    let mut chars = body.chars().peekable();
    let mut high: Option<u32> = None;
    let mut decoded = false;
    while let Some(c) = chars.next() {
        let digits = match (c, chars.peek()) {
            ('\\', Some('u')) => 4,
            ('\\', Some('U')) => 8,
            _ => {
                if high.is_some() {
                    return Err(surrogate_near(&c.to_string()));
                }
                out.push(c);
                if c == '\\'
                    && let Some(escaped) = chars.next()
                {
                    out.push(escaped);
                }
                continue;
            }
        };
        let letter = chars.next().unwrap_or('u');
        let hex: String = chars.clone().take(digits).collect();
        if hex.len() != digits || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(Error::state(
                SqlState::parse("22025").unwrap_or(SqlState::SYNTAX_ERROR),
                "invalid Unicode escape",
            ));
        }
        chars.nth(digits - 1);
        let value = u32::from_str_radix(&hex, 16).unwrap_or(u32::MAX);
        let near = format!("\\{letter}{hex}");
        let mut plain = String::new();
        high =
            code_point(value, high, &mut plain, || surrogate_near(&near)).map_err(|e| {
                match e.message.as_str() {
                    "invalid Unicode escape value" => syntax(format!(
                        "invalid Unicode escape value at or near \"{near}\""
                    )),
                    _ => e,
                }
            })?;
        for c in plain.chars() {
            match c {
                '\'' => out.push_str("''"),
                '\\' => out.push_str("\\\\"),
                c => out.push(c),
            }
        }
        decoded = true;
    }
    if high.is_some() {
        return Err(surrogate_near("'"));
    }
    out.push('\'');
    Ok(decoded.then_some(out))
}

/// One escaped code unit `value`, pushed onto `out` (a high surrogate waits
/// for its low one): the high surrogate still waiting, if any.
fn code_point(
    value: u32,
    high: Option<u32>,
    out: &mut String,
    unpaired: impl Fn() -> Error,
) -> Result<Option<u32>, Error> {
    let invalid_value = || syntax("invalid Unicode escape value".to_owned());
    match (high, value) {
        (None, 0xD800..=0xDBFF) => Ok(Some(value)),
        (Some(h), 0xDC00..=0xDFFF) => {
            let combined = 0x10000 + ((h - 0xD800) << 10) + (value - 0xDC00);
            out.push(char::from_u32(combined).ok_or_else(invalid_value)?);
            Ok(None)
        }
        (Some(_), _) | (None, 0xDC00..=0xDFFF) => Err(unpaired()),
        (None, 0) => Err(invalid_value()),
        (None, v) => {
            out.push(char::from_u32(v).ok_or_else(invalid_value)?);
            Ok(None)
        }
    }
}

/// The end of the string constants continuing the one at `tokens[i]`: each
/// a plain `'...'` after only white space that holds a line break.
fn continuation_end(text: &str, tokens: &[Token], i: usize) -> usize {
    let first = tokens[i].text(text);
    if tokens[i].kind != TokenKind::String || !(first.starts_with('\'') || is_escape_string(first))
    {
        return i + 1;
    }
    let mut end = i + 1;
    while let Some(next) = tokens.get(end) {
        let gap = &text[tokens[end - 1].end..next.start];
        let continues = next.kind == TokenKind::String
            && next.text(text).starts_with('\'')
            && gap.contains('\n')
            && gap.chars().all(char::is_whitespace);
        if !continues {
            break;
        }
        end += 1;
    }
    end
}

fn is_escape_string(token: &str) -> bool {
    token.len() > 1
        && token.as_bytes()[0].eq_ignore_ascii_case(&b'e')
        && token.as_bytes()[1] == b'\''
}

/// A quoted token's text without its quotes, a doubled quote made one.
fn unquoted(token: &str, quote: char) -> String {
    let inner = token
        .strip_prefix(quote)
        .map(|rest| rest.strip_suffix(quote).unwrap_or(rest))
        .unwrap_or(token);
    inner.replace(&format!("{quote}{quote}"), &quote.to_string())
}

fn syntax(message: String) -> Error {
    Error::new(ErrorKind::Syntax, message)
}

fn surrogate_near(near: &str) -> Error {
    syntax(format!(
        "invalid Unicode surrogate pair at or near \"{near}\""
    ))
}

#[cfg(test)]
mod tests {
    use super::rewritten;
    use crate::sql::lexer::tokenize;

    fn run(text: &str) -> Result<Option<String>, String> {
        rewritten(text, &tokenize(text)).map_err(|e| e.message)
    }

    #[test]
    fn unicode_escapes_are_decoded() {
        assert_eq!(
            run(r#"SELECT U&'d\0061t\+000061' AS U&"d\0061t\+000061""#),
            Ok(Some(r#"SELECT 'data' AS "data""#.to_owned()))
        );
        assert_eq!(
            run(r#"SELECT U&'d!0061t\+000061' UESCAPE '!' AS U&"d*0061t\+000061" UESCAPE '*'"#),
            Ok(Some(r#"SELECT 'dat\+000061' AS "dat\+000061""#.to_owned()))
        );
        assert_eq!(
            run(r"SELECT U&' \' UESCAPE '!'"),
            Ok(Some(r"SELECT ' \'".to_owned()))
        );
        assert_eq!(
            run(r"SELECT U&'it\0027s'"),
            Ok(Some("SELECT 'it''s'".to_owned()))
        );
        assert_eq!(
            run(r"SELECT E'd\u0061t\U00000061'"),
            Ok(Some("SELECT E'data'".to_owned()))
        );
        assert_eq!(run(r"SELECT E'\\u0061'"), Ok(None));
        assert_eq!(run("SELECT u FROM t WHERE a & b"), Ok(None));
    }

    #[test]
    fn malformed_escapes_are_refused() {
        assert_eq!(
            run(r"SELECT U&'wrong: \061'"),
            Err("invalid Unicode escape".into())
        );
        assert_eq!(
            run(r"SELECT U&'wrong: \db99\\'"),
            Err("invalid Unicode surrogate pair".into())
        );
        assert_eq!(
            run(r"SELECT U&'wrong: \db99xy'"),
            Err("invalid Unicode surrogate pair".into())
        );
        assert_eq!(
            run(r"SELECT U&'wrong: \+2FFFFF'"),
            Err("invalid Unicode escape value".into())
        );
        assert_eq!(
            run("SELECT U&'wrong: +0061' UESCAPE '+'"),
            Err("invalid Unicode escape character at or near \"'+'\"".into())
        );
        assert_eq!(
            run("SELECT U&'wrong: +0061' UESCAPE +"),
            Err("UESCAPE must be followed by a simple string literal at or near \"+\"".into())
        );
        assert_eq!(
            run(r"SELECT E'wrong: \u061'"),
            Err("invalid Unicode escape".into())
        );
        assert_eq!(
            run(r"SELECT E'wrong: \udb99\u0061'"),
            Err("invalid Unicode surrogate pair at or near \"\\u0061\"".into())
        );
        assert_eq!(
            run(r"SELECT E'wrong: \U002FFFFF'"),
            Err("invalid Unicode escape value at or near \"\\U002FFFFF\"".into())
        );
    }

    #[test]
    fn constants_continue_on_later_lines() {
        assert_eq!(
            run("SELECT 'first line'\n' - next line'\n\t' - third' AS x"),
            Ok(Some(
                "SELECT 'first line - next line - third' AS x".to_owned()
            ))
        );
        assert_eq!(run("SELECT 'a' 'b'"), Ok(None));
    }

    #[test]
    fn substring_similar_and_parenthesized_insert_queries() {
        assert_eq!(
            run("SELECT SUBSTRING('abc' SIMILAR 'a#\"b#\"c' ESCAPE '#')"),
            Ok(Some(
                "SELECT SUBSTRING('abc' FROM 'a#\"b#\"c' FOR '#')".to_owned()
            ))
        );
        assert_eq!(
            run("SELECT substring(x similar to 'a' similar 'b' escape '#') FROM t"),
            Ok(Some(
                "SELECT substring(x similar to 'a' FROM 'b' FOR '#') FROM t".to_owned()
            ))
        );
        assert_eq!(run("SELECT x SIMILAR TO 'a' ESCAPE '#'"), Ok(None));
        assert_eq!(
            run("INSERT INTO s.t (select 1, NULL)"),
            Ok(Some("INSERT INTO s.t select 1, NULL".to_owned()))
        );
        assert_eq!(run("INSERT INTO t (a, b) SELECT 1, 2"), Ok(None));
        assert_eq!(run("INSERT INTO t VALUES ((SELECT 1))"), Ok(None));
        assert_eq!(
            run("INSERT INTO t WITH s AS (SELECT 1) SELECT * FROM s"),
            Ok(None)
        );
    }

    #[test]
    fn recursive_views_are_views_of_recursive_queries() {
        assert_eq!(
            run("CREATE OR REPLACE RECURSIVE VIEW nums (n) AS VALUES (1) UNION ALL SELECT n+1 FROM nums WHERE n < 5"),
            Ok(Some("CREATE OR REPLACE VIEW nums AS WITH RECURSIVE nums (n) AS (VALUES (1) UNION ALL SELECT n+1 FROM nums WHERE n < 5) SELECT n FROM nums".to_owned()))
        );
        assert_eq!(run("CREATE RECURSIVE VIEW v AS SELECT 1"), Ok(None));
    }

    #[test]
    fn record_functions_read_their_columns_by_name() {
        let plain = |sql: &str| rewritten(sql, &tokenize(sql)).unwrap().unwrap();
        assert_eq!(
            plain("SELECT * FROM jsonb_to_record(t.doc) AS x(a int, \"B\" jsonb)"),
            "SELECT * FROM LATERAL (SELECT ((t.doc)::jsonb ->> 'a')::int AS a, \
             ((t.doc)::jsonb -> 'B')::jsonb AS \"B\") AS x"
        );
        assert_eq!(
            plain("SELECT * FROM t, LATERAL json_to_recordset(t.j) r (n numeric(5, 2))"),
            "SELECT * FROM t, LATERAL (SELECT (litewire_element ->> 'n')::numeric(5, 2) AS n \
             FROM jsonb_array_elements((t.j)::jsonb) AS litewire_element) AS r"
        );
    }
}
