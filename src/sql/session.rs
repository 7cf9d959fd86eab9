//! Session commands: `SET`, `SHOW`, `RESET`, `DISCARD` and `DEALLOCATE`.
//! (`set_config()` and `current_setting()` are SQL functions: see the engine.)
//!
//! None of these reach SQLite; the engine answers them from the session's settings.
//! They are recognised from tokens, in PostgreSQL's grammar for them.

use super::lexer::{Token, TokenKind};
use super::quote::unquote_literal;
use super::transaction_modes::{TransactionModes, modes};
use super::words::Words;
use crate::error::Error;

/// A command on the session's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionCommand {
    /// `SET [LOCAL] name TO value`; `None` is `DEFAULT`.
    Set {
        name: String,
        value: Option<String>,
        local: bool,
    },
    /// `SET TRANSACTION modes`: the modes of the transaction that runs now.
    SetTransaction(TransactionModes),
    /// `SET SESSION CHARACTERISTICS AS TRANSACTION modes`: the defaults of the
    /// session's transactions (`default_transaction_isolation`, ...).
    SetSessionCharacteristics(TransactionModes),
    /// `SET CONSTRAINTS name, ...`: named constraints are checked as they are
    /// declared (`SET CONSTRAINTS ALL` is a statement of its own).
    SetConstraints,
    /// `RESET name`; `None` is `RESET ALL`.
    Reset(Option<String>),
    /// `SHOW name`; `None` is `SHOW ALL`.
    Show(Option<String>),
    /// `DISCARD ALL`: settings back to defaults, prepared statements dropped.
    DiscardAll,
    /// `DISCARD PLANS|SEQUENCES|TEMP`: nothing is cached that would need it.
    DiscardNothing,
    /// `DEALLOCATE [PREPARE] name | ALL`: the front end drops prepared statements.
    Deallocate(Option<String>),
}

impl SessionCommand {
    /// Whether it answers rows (`SHOW`).
    pub fn returns_rows(&self) -> bool {
        matches!(self, SessionCommand::Show(_))
    }
}

/// Recognises a session command; `Ok(None)` for any other statement.
pub(super) fn recognise(sql: &str, tokens: &[Token]) -> Result<Option<SessionCommand>, Error> {
    let w = Words { sql, tokens };
    let command = if w.is(0, "SET") {
        Some(set(&w)?)
    } else if w.is(0, "SHOW") {
        Some(show(&w)?)
    } else if w.is(0, "RESET") {
        Some(reset(&w)?)
    } else if w.is(0, "DISCARD") {
        Some(discard(&w)?)
    } else if w.is(0, "DEALLOCATE") {
        Some(deallocate(&w)?)
    } else {
        None
    };
    Ok(command)
}

fn set(w: &Words) -> Result<SessionCommand, Error> {
    let mut i = 1;
    let local = w.is(i, "LOCAL");
    if local || w.is(i, "SESSION") {
        i += 1;
    }
    if w.is(i, "TRANSACTION") {
        return Ok(SessionCommand::SetTransaction(modes(w, i + 1)?));
    }
    if w.is(i, "CHARACTERISTICS") && w.is(i + 1, "AS") && w.is(i + 2, "TRANSACTION") {
        return Ok(SessionCommand::SetSessionCharacteristics(modes(w, i + 3)?));
    }
    if w.is(i, "CONSTRAINTS") {
        return Ok(SessionCommand::SetConstraints);
    }
    let time_zone = w.is(i, "TIME") && w.is(i + 1, "ZONE");
    let (name, after) = if time_zone {
        // `SET TIME ZONE INTERVAL '-08:00' HOUR TO MINUTE`: the setting reads
        // the words as they are written.
        if w.is(i + 2, "INTERVAL") {
            let words: Vec<&str> = (i + 2..w.tokens.len()).map(|k| w.text(k)).collect();
            let value = Some(words.join(" "));
            let name = "TimeZone".to_owned();
            return Ok(SessionCommand::Set { name, value, local });
        }
        ("TimeZone".to_owned(), i + 2)
    } else if w.is(i, "NAMES") {
        ("client_encoding".to_owned(), i + 1)
    } else {
        let (name, after) = w.dotted_name(i).ok_or_else(|| w.syntax_error(i))?;
        if !(w.is(after, "TO") || w.text(after) == "=") {
            return Err(w.syntax_error(after));
        }
        (name, after + 1)
    };
    // `SET TIME ZONE LOCAL` is its default; elsewhere `local` is a value
    // (`SET synchronous_commit = local`).
    let value = match time_zone && w.is(after, "LOCAL") && after + 1 == w.tokens.len() {
        true => None,
        false => value(w, after)?,
    };
    Ok(SessionCommand::Set { name, value, local })
}

/// A SET value: `DEFAULT` (`None`), or one or more comma-separated words,
/// strings or numbers, joined as PostgreSQL shows a list.
fn value(w: &Words, mut i: usize) -> Result<Option<String>, Error> {
    if w.is(i, "DEFAULT") && i + 1 == w.tokens.len() {
        return Ok(None);
    }
    let mut items = Vec::new();
    loop {
        let mut item = String::new();
        if matches!(w.text(i), "-" | "+") {
            item.push_str(w.text(i));
            i += 1;
        }
        let token = w.tokens.get(i).ok_or_else(|| w.syntax_error(i))?;
        match token.kind {
            TokenKind::String => item.push_str(&unquote_literal(token.text(w.sql))),
            TokenKind::Word | TokenKind::Number | TokenKind::QuotedIdent => {
                item.push_str(token.text(w.sql))
            }
            _ => return Err(w.syntax_error(i)),
        }
        items.push(item);
        i += 1;
        match w.text(i) {
            "," => i += 1,
            "" => break,
            _ => return Err(w.syntax_error(i)),
        }
    }
    Ok(Some(items.join(", ")))
}

fn show(w: &Words) -> Result<SessionCommand, Error> {
    if w.is(1, "ALL") && w.tokens.len() == 2 {
        return Ok(SessionCommand::Show(None));
    }
    let name = special_name(w, 1)
        .or_else(|| w.dotted_name(1))
        .ok_or_else(|| w.syntax_error(1))?;
    if name.1 != w.tokens.len() {
        return Err(w.syntax_error(name.1));
    }
    Ok(SessionCommand::Show(Some(name.0)))
}

fn reset(w: &Words) -> Result<SessionCommand, Error> {
    if w.is(1, "ALL") && w.tokens.len() == 2 {
        return Ok(SessionCommand::Reset(None));
    }
    let name = special_name(w, 1)
        .or_else(|| w.dotted_name(1))
        .ok_or_else(|| w.syntax_error(1))?;
    Ok(SessionCommand::Reset(Some(name.0)))
}

/// The multi-word names PostgreSQL's grammar spells out.
fn special_name(w: &Words, i: usize) -> Option<(String, usize)> {
    if w.is(i, "TIME") && w.is(i + 1, "ZONE") {
        Some(("TimeZone".to_owned(), i + 2))
    } else if w.is(i, "TRANSACTION") && w.is(i + 1, "ISOLATION") && w.is(i + 2, "LEVEL") {
        Some(("transaction_isolation".to_owned(), i + 3))
    } else if w.is(i, "SESSION") && w.is(i + 1, "AUTHORIZATION") {
        Some(("session_authorization".to_owned(), i + 2))
    } else {
        None
    }
}

fn discard(w: &Words) -> Result<SessionCommand, Error> {
    if w.tokens.len() != 2 {
        return Err(w.syntax_error(2));
    }
    if w.is(1, "ALL") {
        Ok(SessionCommand::DiscardAll)
    } else if w.is(1, "PLANS") || w.is(1, "SEQUENCES") || w.is(1, "TEMP") || w.is(1, "TEMPORARY") {
        Ok(SessionCommand::DiscardNothing)
    } else {
        Err(w.syntax_error(1))
    }
}

fn deallocate(w: &Words) -> Result<SessionCommand, Error> {
    let i = if w.is(1, "PREPARE") { 2 } else { 1 };
    if w.tokens.len() != i + 1 {
        return Err(w.syntax_error(i + 1));
    }
    if w.is(i, "ALL") {
        return Ok(SessionCommand::Deallocate(None));
    }
    let name = w.ident(i).ok_or_else(|| w.syntax_error(i))?;
    Ok(SessionCommand::Deallocate(Some(name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::lexer::tokenize;

    fn parse(sql: &str) -> Option<SessionCommand> {
        recognise(sql, &tokenize(sql)).unwrap()
    }

    fn set(name: &str, value: Option<&str>, local: bool) -> Option<SessionCommand> {
        Some(SessionCommand::Set {
            name: name.into(),
            value: value.map(Into::into),
            local,
        })
    }

    #[test]
    fn set_forms() {
        assert_eq!(
            parse("SET application_name = 'x'"),
            set("application_name", Some("x"), false)
        );
        assert_eq!(
            parse("set local statement_timeout to 5000"),
            set("statement_timeout", Some("5000"), true)
        );
        assert_eq!(
            parse("SET search_path TO \"$user\", public"),
            set("search_path", Some("\"$user\", public"), false)
        );
        assert_eq!(
            parse("SET TIME ZONE 'UTC'"),
            set("TimeZone", Some("UTC"), false)
        );
        assert_eq!(
            parse("SET NAMES 'UTF8'"),
            set("client_encoding", Some("UTF8"), false)
        );
        assert_eq!(
            parse("SET extra_float_digits = -1"),
            set("extra_float_digits", Some("-1"), false)
        );
        assert_eq!(
            parse("SET datestyle TO DEFAULT"),
            set("datestyle", None, false)
        );
        assert_eq!(
            parse("SET myapp.user_id = 7"),
            set("myapp.user_id", Some("7"), false)
        );
        assert_eq!(
            parse("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"),
            Some(SessionCommand::SetTransaction(TransactionModes {
                isolation: Some(crate::sql::Isolation::Serializable),
                ..TransactionModes::default()
            }))
        );
        assert_eq!(
            parse("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"),
            Some(SessionCommand::SetSessionCharacteristics(
                TransactionModes {
                    read_only: Some(true),
                    ..TransactionModes::default()
                }
            ))
        );
        assert_eq!(
            parse("SET CONSTRAINTS fk_a DEFERRED"),
            Some(SessionCommand::SetConstraints)
        );
        assert!(recognise("SET x", &tokenize("SET x")).is_err());
    }

    #[test]
    fn show_reset_discard_deallocate() {
        assert_eq!(parse("SHOW ALL"), Some(SessionCommand::Show(None)));
        assert_eq!(
            parse("show DateStyle"),
            Some(SessionCommand::Show(Some("DateStyle".into())))
        );
        assert_eq!(
            parse("SHOW TRANSACTION ISOLATION LEVEL"),
            Some(SessionCommand::Show(Some("transaction_isolation".into())))
        );
        assert_eq!(parse("RESET ALL"), Some(SessionCommand::Reset(None)));
        assert_eq!(parse("DISCARD ALL"), Some(SessionCommand::DiscardAll));
        assert_eq!(
            parse("DEALLOCATE ALL"),
            Some(SessionCommand::Deallocate(None))
        );
        assert_eq!(
            parse("deallocate prepare s1"),
            Some(SessionCommand::Deallocate(Some("s1".into())))
        );
        assert_eq!(parse("SELECT set_config('a', 'b', true)"), None);
        assert_eq!(parse("SELECT 1"), None);
    }
}
