//! A small SQL lexer: just enough to split, classify and rewrite statements without
//! a full parse on the hot path. It knows SQLite's and PostgreSQL's quoting rules:
//! `'...'`, `E'...'`, `"..."`, `` `...` ``, `[...]`, `$tag$...$tag$`, `--` and `/* */`.

/// What a token is; the text lives in the source string at `Token::span`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// A keyword or bare identifier.
    Word,
    /// A quoted identifier (`"x"`, `` `x` ``, `[x]`).
    QuotedIdent,
    /// A string literal of any quoting style.
    String,
    Number,
    /// A positional parameter `$N`.
    Param(usize),
    /// A named parameter `?`, `?N`, `:x`, `@x`, `$x`.
    NamedParam,
    Semicolon,
    LeftParen,
    RightParen,
    /// Any other punctuation or operator character.
    Punct,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
}

impl Token {
    pub fn text<'a>(&self, sql: &'a str) -> &'a str {
        &sql[self.start..self.end]
    }

    /// Whether this token is the keyword `kw` (ASCII, case-insensitive).
    pub fn is_keyword(&self, sql: &str, kw: &str) -> bool {
        self.kind == TokenKind::Word && self.text(sql).eq_ignore_ascii_case(kw)
    }
}

/// Splits `sql` into tokens, skipping white space and comments. Unterminated quotes
/// or comments run to the end of the input: SQLite reports the syntax error.
pub fn tokenize(sql: &str) -> Vec<Token> {
    let bytes = sql.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let c = bytes[i];
        let kind = match c {
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => {
                i += 1;
                continue;
            }
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                i = find_byte(bytes, i + 2, b'\n').map_or(bytes.len(), |p| p + 1);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = find_seq(bytes, i + 2, b"*/").map_or(bytes.len(), |p| p + 2);
                continue;
            }
            b'\'' => {
                i = skip_quoted(bytes, i, b'\'', false);
                TokenKind::String
            }
            b'e' | b'E' if bytes.get(i + 1) == Some(&b'\'') => {
                i = skip_quoted(bytes, i + 1, b'\'', true);
                TokenKind::String
            }
            b'"' | b'`' => {
                i = skip_quoted(bytes, i, c, false);
                TokenKind::QuotedIdent
            }
            b'[' => {
                i = find_byte(bytes, i + 1, b']').map_or(bytes.len(), |p| p + 1);
                TokenKind::QuotedIdent
            }
            b'$' => lex_dollar(bytes, &mut i),
            b'?' | b':' | b'@' if is_param_start(bytes, i) => {
                i += 1;
                while i < bytes.len() && is_ident_byte(bytes[i]) {
                    i += 1;
                }
                TokenKind::NamedParam
            }
            b'0'..=b'9' => {
                i = skip_number(bytes, i);
                TokenKind::Number
            }
            b'.' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                i = skip_number(bytes, i);
                TokenKind::Number
            }
            b';' => {
                i += 1;
                TokenKind::Semicolon
            }
            b'(' => {
                i += 1;
                TokenKind::LeftParen
            }
            b')' => {
                i += 1;
                TokenKind::RightParen
            }
            _ if is_ident_start(c) => {
                while i < bytes.len() && is_ident_byte(bytes[i]) {
                    i += 1;
                }
                TokenKind::Word
            }
            _ => {
                // One character (whole UTF-8 sequence) of punctuation.
                i += utf8_len(c);
                TokenKind::Punct
            }
        };
        tokens.push(Token {
            kind,
            start,
            end: i.min(bytes.len()),
        });
    }
    tokens
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xf0..=0xff => 4,
        0xe0..=0xef => 3,
        0xc0..=0xdf => 2,
        _ => 1,
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

/// `::` is a cast, not a named parameter; `?` alone is an anonymous parameter.
fn is_param_start(bytes: &[u8], i: usize) -> bool {
    match bytes[i] {
        b'?' => true,
        b':' => {
            bytes.get(i + 1).is_some_and(|&c| is_ident_start(c)) && (i == 0 || bytes[i - 1] != b':')
        }
        _ => bytes.get(i + 1).is_some_and(|&c| is_ident_start(c)),
    }
}

fn find_byte(bytes: &[u8], from: usize, b: u8) -> Option<usize> {
    bytes[from.min(bytes.len())..]
        .iter()
        .position(|&c| c == b)
        .map(|p| p + from)
}

fn find_seq(bytes: &[u8], from: usize, seq: &[u8]) -> Option<usize> {
    bytes[from.min(bytes.len())..]
        .windows(seq.len())
        .position(|w| w == seq)
        .map(|p| p + from)
}

/// Skips a quoted run starting at `open`; a doubled quote escapes itself, and with
/// `backslash` (PostgreSQL `E'...'`) so does a backslash.
fn skip_quoted(bytes: &[u8], open: usize, quote: u8, backslash: bool) -> usize {
    let mut i = open + 1;
    while i < bytes.len() {
        let c = bytes[i];
        if backslash && c == b'\\' {
            i += 2;
        } else if c == quote {
            if bytes.get(i + 1) == Some(&quote) {
                i += 2;
            } else {
                return i + 1;
            }
        } else {
            i += 1;
        }
    }
    bytes.len()
}

fn skip_number(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len()
        && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_')
    {
        // Exponent signs: 1e-5.
        if (bytes[i] == b'e' || bytes[i] == b'E') && matches!(bytes.get(i + 1), Some(b'+' | b'-')) {
            i += 1;
        }
        i += 1;
    }
    i
}

/// `$1` (positional), `$name` (SQLite named), or `$tag$ ... $tag$` (dollar quoting).
fn lex_dollar(bytes: &[u8], i: &mut usize) -> TokenKind {
    let start = *i;
    let mut j = start + 1;
    if bytes.get(j).is_some_and(u8::is_ascii_digit) {
        let mut n = 0usize;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            n = n
                .saturating_mul(10)
                .saturating_add(usize::from(bytes[j] - b'0'));
            j += 1;
        }
        *i = j;
        return TokenKind::Param(n);
    }
    while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
        j += 1;
    }
    if bytes.get(j) == Some(&b'$') {
        let tag = &bytes[start..=j];
        *i = find_seq(bytes, j + 1, tag).map_or(bytes.len(), |p| p + tag.len());
        return TokenKind::String;
    }
    *i = j.max(start + 1);
    TokenKind::NamedParam
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(sql: &str) -> Vec<(TokenKind, &str)> {
        tokenize(sql)
            .iter()
            .map(|t| (t.kind, t.text(sql)))
            .collect()
    }

    #[test]
    fn skips_comments_and_keeps_strings_whole() {
        let sql = "select 'a;b' -- c;\n, /* ; */ \"x;y\" from [t;]";
        let toks = kinds(sql);
        assert_eq!(toks[0], (TokenKind::Word, "select"));
        assert_eq!(toks[1], (TokenKind::String, "'a;b'"));
        assert_eq!(toks[2], (TokenKind::Punct, ","));
        assert_eq!(toks[3], (TokenKind::QuotedIdent, "\"x;y\""));
        assert_eq!(toks[5], (TokenKind::QuotedIdent, "[t;]"));
    }

    #[test]
    fn parameters_casts_and_dollar_quotes() {
        let sql = "select $1, $12::int, :name, ?, $$a $1 b$$, $q$x$q$";
        let toks = kinds(sql);
        assert_eq!(toks[1].0, TokenKind::Param(1));
        assert_eq!(toks[3].0, TokenKind::Param(12));
        assert_eq!(toks[4], (TokenKind::Punct, ":"));
        assert_eq!(toks[5], (TokenKind::Punct, ":"));
        assert_eq!(toks[8], (TokenKind::NamedParam, ":name"));
        assert_eq!(toks[10], (TokenKind::NamedParam, "?"));
        assert_eq!(toks[12], (TokenKind::String, "$$a $1 b$$"));
        assert_eq!(toks[14], (TokenKind::String, "$q$x$q$"));
    }

    #[test]
    fn escape_strings_allow_backslash_quotes() {
        let toks = kinds(r"select E'it\'s', 'x''y'");
        assert_eq!(toks[1], (TokenKind::String, r"E'it\'s'"));
        assert_eq!(toks[3], (TokenKind::String, "'x''y'"));
    }
}
