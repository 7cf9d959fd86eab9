//! PostgreSQL's `format()` and the quoting functions it builds on
//! (`quote_ident`, `quote_literal`, `quote_nullable`). SQLite has a `format`
//! too, which is `printf`: on the PostgreSQL port the translation calls
//! `litewire_format`, which reads PostgreSQL's specifiers instead:
//! `%[n$][-][width]type` with `s` (text, NULL as nothing), `I` (an
//! identifier, quoted where needed) and `L` (a literal, NULL as `NULL`), a
//! width that may come from an argument (`*`, `*n$`), and `%%`.
//! `format(f, VARIADIC array)` is `litewire_format_variadic`, which takes the
//! array's elements as the arguments (a NULL array as none).

use super::arrays::parse_array;
use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::error::SqlState;
use crate::sql::quote::{identifier_as_postgres, literal_as_postgres};

pub(super) const FUNCTIONS: &[Function] = &[
    Function::helper(
        "litewire_format",
        Args::Variadic("any"),
        Volatility::Stable,
        format,
    ),
    Function::helper(
        "litewire_format_variadic",
        Args::Fixed(&["text", "anyarray"]),
        Volatility::Stable,
        format_variadic,
    ),
    Function::pg(
        "quote_ident",
        &["text"],
        "text",
        Volatility::Immutable,
        quote_ident,
    ),
    Function::pg(
        "quote_literal",
        &["text"],
        "text",
        Volatility::Immutable,
        quote_literal,
    ),
    Function::pg(
        "quote_nullable",
        &["text"],
        "text",
        Volatility::Immutable,
        quote_nullable,
    ),
];

fn quote_ident(_: &Call, args: &[Arg]) -> Out {
    match text_of(&args[0]) {
        Some(name) => Out::Text(identifier_as_postgres(&name)),
        None => Out::Null,
    }
}

fn quote_literal(_: &Call, args: &[Arg]) -> Out {
    match text_of(&args[0]) {
        Some(text) => Out::Text(literal_as_postgres(&text)),
        None => Out::Null,
    }
}

fn quote_nullable(_: &Call, args: &[Arg]) -> Out {
    match text_of(&args[0]) {
        Some(text) => Out::Text(literal_as_postgres(&text)),
        None => Out::Text("NULL".into()),
    }
}

/// A value as PostgreSQL's text output writes it (bytea in hex).
fn text_of(arg: &Arg) -> Option<String> {
    match arg {
        Arg::Blob(bytes) => {
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            Some(format!("\\x{hex}"))
        }
        other => other.text(),
    }
}

/// `format(formatstr, args...)`; NULL when the format string is.
fn format(_: &Call, args: &[Arg]) -> Out {
    let Some(template) = args.first().and_then(text_of) else {
        return Out::Null;
    };
    match Formatter::new(&args[1..]).run(&template) {
        Ok(text) => Out::Text(text),
        Err(message) if message.starts_with("null values") => {
            Out::Fail(SqlState::NULL_VALUE_NOT_ALLOWED, message)
        }
        Err(message) => Out::Fail(SqlState::INVALID_PARAMETER_VALUE, message),
    }
}

/// `format(formatstr, VARIADIC array)`.
fn format_variadic(call: &Call, args: &[Arg]) -> Out {
    let items = match args[1].text() {
        None => Vec::new(),
        Some(text) => match parse_array(&text) {
            Some(items) => items,
            None => {
                return Out::Fail(
                    SqlState::INVALID_TEXT_REPRESENTATION,
                    format!("malformed array literal: \"{text}\""),
                );
            }
        },
    };
    let mut spread = vec![args[0].clone()];
    spread.extend(
        items
            .iter()
            .map(|item| item.as_deref().map_or(Arg::Null, Arg::Text)),
    );
    format(call, &spread)
}

/// One `format()` call: its arguments and the next one a bare specifier takes.
struct Formatter<'a, 'b> {
    args: &'a [Arg<'b>],
    next: usize,
}

impl<'a, 'b> Formatter<'a, 'b> {
    fn new(args: &'a [Arg<'b>]) -> Self {
        Formatter { args, next: 0 }
    }

    fn run(&mut self, template: &str) -> Result<String, String> {
        let mut out = String::with_capacity(template.len());
        let mut chars = template.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            if chars.peek() == Some(&'%') {
                chars.next();
                out.push('%');
                continue;
            }
            let spec: String = {
                let mut spec = String::new();
                loop {
                    let Some(c) = chars.next() else {
                        return Err("unterminated format() type specifier".into());
                    };
                    spec.push(c);
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
                spec
            };
            self.specifier(&spec, &mut out)?;
        }
        Ok(out)
    }

    /// One specifier after its `%`, ending in its type letter.
    fn specifier(&mut self, spec: &str, out: &mut String) -> Result<(), String> {
        let (body, kind) = spec.split_at(spec.len() - 1);
        let (argument, rest) = position(body)?;
        let (left, rest) = match rest.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, rest),
        };
        let mut width = match rest {
            "" => None,
            star if star.starts_with('*') => {
                let (from, tail) = position(&star[1..])?;
                if !tail.is_empty() {
                    return Err(format!("unrecognized format() type specifier \"{kind}\""));
                }
                let arg = match from {
                    Some(n) => self.at(n)?,
                    None => self.take()?,
                };
                match arg {
                    Arg::Null => None,
                    other => Some(
                        other
                            .int()
                            .ok_or_else(|| "invalid width for format()".to_owned())?,
                    ),
                }
            }
            digits => Some(
                digits
                    .parse::<i64>()
                    .map_err(|_| format!("unrecognized format() type specifier \"{kind}\""))?,
            ),
        };
        if left {
            width = width.map(|w| -w.abs());
        }
        let value = match argument {
            Some(n) => self.at(n)?,
            None => self.take()?,
        };
        let text = match (kind, text_of(value)) {
            ("s", text) => text.unwrap_or_default(),
            ("I", Some(name)) => identifier_as_postgres(&name),
            ("I", None) => {
                return Err("null values cannot be formatted as an SQL identifier".into());
            }
            ("L", Some(text)) => literal_as_postgres(&text),
            ("L", None) => "NULL".into(),
            (other, _) => {
                return Err(format!("unrecognized format() type specifier \"{other}\""));
            }
        };
        pad(out, &text, width.unwrap_or(0));
        Ok(())
    }

    /// The argument a bare specifier takes: the one after the last taken.
    fn take(&mut self) -> Result<&'a Arg<'b>, String> {
        let arg = self
            .args
            .get(self.next)
            .ok_or_else(|| "too few arguments for format()".to_owned())?;
        self.next += 1;
        Ok(arg)
    }

    /// Argument `n` (from 1); the next bare specifier takes the one after it.
    fn at(&mut self, n: usize) -> Result<&'a Arg<'b>, String> {
        self.next = n - 1;
        self.take()
    }
}

/// A leading `n$` (an argument position, from 1), and what follows it.
fn position(text: &str) -> Result<(Option<usize>, &str), String> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    match text[digits..].strip_prefix('$') {
        Some(rest) if digits > 0 => {
            let n: usize = text[..digits]
                .parse()
                .map_err(|_| "argument number is out of range".to_owned())?;
            if n == 0 {
                return Err(
                    "format specifies argument 0, but arguments are numbered from 1".into(),
                );
            }
            Ok((Some(n), rest))
        }
        _ => Ok((None, text)),
    }
}

/// `text` padded to `width` characters: on the left, or on the right for a
/// negative width.
fn pad(out: &mut String, text: &str, width: i64) {
    let missing = usize::try_from(width.unsigned_abs())
        .unwrap_or(usize::MAX)
        .saturating_sub(text.chars().count());
    let spaces = " ".repeat(missing.min(1 << 20));
    if width < 0 {
        out.push_str(text);
        out.push_str(&spaces);
    } else {
        out.push_str(&spaces);
        out.push_str(text);
    }
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::{call, text};
    use super::*;

    fn run(args: &[Arg]) -> Out {
        call(format, args)
    }

    #[test]
    fn specifiers_read_as_postgres_reads_them() {
        let hello = [
            Arg::Text("INSERT INTO %I VALUES(%L,%L)"),
            Arg::Text("my tab"),
            Arg::Int(10),
            Arg::Null,
        ];
        assert_eq!(
            text(run(&hello)),
            "INSERT INTO \"my tab\" VALUES('10',NULL)"
        );
        let positions = [
            Arg::Text("Hello %s %1$s %s"),
            Arg::Text("World"),
            Arg::Text("again"),
        ];
        assert_eq!(text(run(&positions)), "Hello World World again");
        let widths = [
            Arg::Text(">>%2$*1$L<<|%-6s|%%"),
            Arg::Int(-8),
            Arg::Text("it's"),
            Arg::Text("x"),
        ];
        assert_eq!(text(run(&widths)), ">>'it''s' <<|x     |%");
        assert_eq!(
            text(run(&[Arg::Text("%I"), Arg::Text("select")])),
            "\"select\""
        );
        assert_eq!(run(&[Arg::Null, Arg::Int(1)]), Out::Null);
    }

    #[test]
    fn bad_specifiers_fail() {
        for args in [
            vec![Arg::Text("%s %s"), Arg::Int(1)],
            vec![Arg::Text("%0$s"), Arg::Int(1)],
            vec![Arg::Text("%x"), Arg::Int(1)],
            vec![Arg::Text("%I"), Arg::Null],
            vec![Arg::Text("abc %"), Arg::Int(1)],
        ] {
            assert!(matches!(run(&args), Out::Fail(..)), "{args:?}");
        }
    }
}
