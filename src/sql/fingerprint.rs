//! What `pg_stat_statements` groups statements by: a statement's text with its
//! constants written `$n`, as PostgreSQL normalizes it, and an id for that
//! form (`queryid`).
//!
//! PostgreSQL normalizes a query or data change (SELECT, INSERT, UPDATE,
//! DELETE, VALUES, WITH, TABLE, MERGE): every constant becomes a parameter
//! numbered after the statement's own, a negative number one constant with
//! its sign, while positions (`ORDER BY 1`) and type modifiers
//! (`varchar(3)`) are syntax and stay. Any other statement (a utility
//! statement: DDL, `SET`, `BEGIN`, `COPY`) keeps its text, and its id is its
//! text's. The id hashes the tokens, not the spelling: texts that differ only
//! in case, spacing or constants share one.

use super::lexer::{Token, TokenKind};

/// A statement's normalized text and its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    pub queryid: i64,
    pub text: Box<str>,
}

/// The fingerprint of `text`, one statement, as `tokens` read it.
/// `literal_params`: its parameters stand for the literals a client wrote
/// (a shape: see `literals`), and count as constants.
pub(super) fn fingerprint(text: &str, tokens: &[Token], literal_params: bool) -> Fingerprint {
    let normalizes = tokens.first().is_some_and(|first| {
        first.kind == TokenKind::LeftParen
            || [
                "select", "insert", "update", "delete", "with", "values", "table", "merge",
            ]
            .iter()
            .any(|kw| first.is_keyword(text, kw))
    });
    if !normalizes {
        let text = text.trim();
        let mut hash = Fnv::default();
        hash.write(text.as_bytes());
        return Fingerprint {
            queryid: hash.finish(),
            text: text.into(),
        };
    }
    let mut next = match literal_params {
        true => 0,
        false => tokens
            .iter()
            .filter_map(|t| match t.kind {
                TokenKind::Param(n) => Some(n),
                _ => None,
            })
            .max()
            .unwrap_or(0),
    };
    let mut normalized = String::with_capacity(text.len());
    let mut hash = Fnv::default();
    // The statement from its first token to its last character.
    let mut copied = tokens.first().map_or(0, |first| first.start);
    let end = text.trim_end().len().max(copied);
    let mut syntax = Syntax {
        literal_params,
        ..Syntax::default()
    };
    let mut i = 0;
    while i < tokens.len() {
        let token = tokens[i];
        let constant = match syntax.constant_at(text, tokens, i) {
            Some(last) => last,
            None => {
                hash.write_token(text, &token);
                i += 1;
                continue;
            }
        };
        next += 1;
        normalized.push_str(&text[copied..token.start]);
        normalized.push('$');
        normalized.push_str(&next.to_string());
        copied = tokens[constant].end;
        hash.write(b"$");
        i = constant + 1;
    }
    if copied < end {
        normalized.push_str(&text[copied..end]);
    }
    Fingerprint {
        queryid: hash.finish(),
        text: normalized.into(),
    }
}

/// Where a constant is syntax rather than a value, followed through the
/// tokens in order.
#[derive(Default)]
struct Syntax {
    /// Depth of parentheses.
    depth: usize,
    /// The depth of an `ORDER BY` / `GROUP BY` list being read.
    positions: Option<usize>,
    /// The depth inside a type's modifier list (`numeric(10, 2)`).
    modifier: Option<usize>,
    /// Whether parameters are constants (see [`fingerprint`]).
    literal_params: bool,
}

/// Types whose modifiers are written in parentheses after their name.
const MODIFIED_TYPES: &[&str] = &[
    "varchar",
    "char",
    "character",
    "varying",
    "bpchar",
    "numeric",
    "decimal",
    "timestamp",
    "timestamptz",
    "time",
    "timetz",
    "interval",
    "bit",
    "varbit",
    "float",
];

impl Syntax {
    /// Whether the token at `i` starts a constant that becomes a parameter:
    /// the index of its last token if so.
    fn constant_at(&mut self, text: &str, tokens: &[Token], i: usize) -> Option<usize> {
        let token = tokens[i];
        let previous = i.checked_sub(1).map(|p| tokens[p]);
        let keyword = |t: Option<Token>, kws: &[&str]| {
            t.is_some_and(|t| kws.iter().any(|kw| t.is_keyword(text, kw)))
        };
        match token.kind {
            TokenKind::LeftParen => {
                self.depth += 1;
                if self.modifier.is_none()
                    && previous.is_some_and(|p| p.kind == TokenKind::Word)
                    && keyword(previous, MODIFIED_TYPES)
                {
                    self.modifier = Some(self.depth);
                }
                return None;
            }
            TokenKind::RightParen => {
                if self.modifier == Some(self.depth) {
                    self.modifier = None;
                }
                if self.positions.is_some_and(|d| d >= self.depth) {
                    self.positions = None;
                }
                self.depth = self.depth.saturating_sub(1);
                return None;
            }
            TokenKind::Word if token.is_keyword(text, "by") => {
                if keyword(previous, &["order", "group"]) {
                    self.positions = Some(self.depth);
                }
                return None;
            }
            TokenKind::Word
                if [
                    "limit",
                    "offset",
                    "having",
                    "window",
                    "fetch",
                    "for",
                    "union",
                    "intersect",
                    "except",
                    "returning",
                ]
                .iter()
                .any(|kw| token.is_keyword(text, kw)) =>
            {
                if self.positions == Some(self.depth) {
                    self.positions = None;
                }
                return None;
            }
            _ => {}
        }
        if self.modifier.is_some() {
            return None;
        }
        match token.kind {
            TokenKind::Number => {
                let at_position = self.positions == Some(self.depth)
                    && previous.is_some_and(|p| p.is_keyword(text, "by") || punct(text, p, ","))
                    && tokens.get(i + 1).is_none_or(|n| {
                        punct(text, *n, ",")
                            || n.kind == TokenKind::RightParen
                            || n.kind == TokenKind::Word
                    });
                (!at_position).then_some(i)
            }
            TokenKind::String => Some(i),
            TokenKind::Param(_) if self.literal_params => Some(i),
            // A sign in front of a number, where no value precedes it.
            TokenKind::Punct
                if punct(text, token, "-")
                    && tokens.get(i + 1).is_some_and(|n| {
                        n.start == token.end
                            && (n.kind == TokenKind::Number
                                || (self.literal_params && matches!(n.kind, TokenKind::Param(_))))
                    })
                    && !previous.is_some_and(|p| ends_value(text, p)) =>
            {
                Some(i + 1)
            }
            // `X'1f'`, `B'101'`, `N'x'`: one constant.
            TokenKind::Word
                if tokens.get(i + 1).is_some_and(|n| {
                    n.kind == TokenKind::String
                        && n.start == token.end
                        && ["x", "b", "n"].iter().any(|p| token.is_keyword(text, p))
                }) =>
            {
                Some(i + 1)
            }
            TokenKind::Word
                if ["true", "false", "null"]
                    .iter()
                    .any(|kw| token.is_keyword(text, kw))
                    && !keyword(previous, &["is", "not"]) =>
            {
                Some(i)
            }
            _ => None,
        }
    }
}

/// Whether `token` is the punctuation `p`.
fn punct(text: &str, token: Token, p: &str) -> bool {
    token.kind == TokenKind::Punct && token.text(text) == p
}

/// Whether a `-` after `token` subtracts (a value ends there) rather than
/// negates.
fn ends_value(text: &str, token: Token) -> bool {
    match token.kind {
        TokenKind::Number
        | TokenKind::String
        | TokenKind::QuotedIdent
        | TokenKind::Param(_)
        | TokenKind::NamedParam
        | TokenKind::RightParen => true,
        TokenKind::Word => ![
            "select",
            "where",
            "and",
            "or",
            "not",
            "then",
            "else",
            "when",
            "by",
            "limit",
            "offset",
            "values",
            "set",
            "return",
            "returning",
            "in",
            "between",
            "like",
            "is",
            "case",
            "on",
            "having",
            "as",
        ]
        .iter()
        .any(|kw| token.is_keyword(text, kw)),
        TokenKind::Punct => token.text(text) == "]",
        _ => false,
    }
}

/// FNV-1a, 64 bits: the same id for the same statement in every run.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// A token as it means: a keyword or bare name whatever its case.
    fn write_token(&mut self, text: &str, token: &Token) {
        let spelled = token.text(text);
        match token.kind {
            TokenKind::Word => {
                for byte in spelled.bytes() {
                    self.write(&[byte.to_ascii_lowercase()]);
                }
            }
            _ => self.write(spelled.as_bytes()),
        }
        // Tokens apart stay apart: `a b` is not `ab`.
        self.write(b" ");
    }

    fn finish(&self) -> i64 {
        self.0 as i64
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokenize;
    use super::*;

    fn normalized(sql: &str) -> String {
        fingerprint(sql, &tokenize(sql), false).text.into_string()
    }

    fn id(sql: &str) -> i64 {
        fingerprint(sql, &tokenize(sql), false).queryid
    }

    #[test]
    fn constants_become_parameters_as_postgres_writes_them() {
        // Each answer as PostgreSQL 15's pg_stat_statements shows it.
        for (sql, expected) in [
            ("SELECT 1", "SELECT $1"),
            (
                "SELECT 'abc', 1.5, -3, true, null, 1e10, x'1f'",
                "SELECT $1, $2, $3, $4, $5, $6, $7",
            ),
            (
                "select a from tt where a = 5 and b = 'x' limit 10",
                "select a from tt where a = $1 and b = $2 limit $3",
            ),
            ("select a from tt order by 1", "select a from tt order by 1"),
            (
                "insert into tt values (1, 'a'), (2, 'b')",
                "insert into tt values ($1, $2), ($3, $4)",
            ),
            (
                "select interval '1 day', date '2024-01-01', 'x'::text, cast(3 as bigint)",
                "select interval $1, date $2, $3::text, cast($4 as bigint)",
            ),
            (
                "select 5 - 3, a - 1 from t",
                "select $1 - $2, a - $3 from t",
            ),
            (
                "select * from t where a = $1 and b = 'x'",
                "select * from t where a = $1 and b = $2",
            ),
            (
                "select 'a'::varchar(3), x is null",
                "select $1::varchar(3), x is null",
            ),
            (
                "select a from t group by 1, 2 order by 2 desc",
                "select a from t group by 1, 2 order by 2 desc",
            ),
            ("set work_mem = '8MB'", "set work_mem = '8MB'"),
        ] {
            assert_eq!(normalized(sql), expected, "{sql}");
        }
    }

    #[test]
    fn a_shapes_parameters_are_the_literals_it_was_written_with() {
        let shape = "SELECT $2, 'abc', -$1, 1.5";
        let normalized = fingerprint(shape, &tokenize(shape), true);
        assert_eq!(&*normalized.text, "SELECT $1, $2, $3, $4");
    }

    #[test]
    fn space_around_the_statement_is_not_its_text() {
        assert_eq!(normalized("\n  SELECT 1 \n"), "SELECT $1");
        assert_eq!(normalized(" BEGIN "), "BEGIN");
    }

    #[test]
    fn the_id_ignores_case_spacing_and_constants() {
        assert_eq!(id("SELECT 1"), id("select  2"));
        assert_eq!(
            id("select a from t where a = 1"),
            id("SELECT a FROM t WHERE a = 7")
        );
        assert_ne!(id("select a from t"), id("select b from t"));
        assert_ne!(id("begin"), id("commit"));
    }
}
