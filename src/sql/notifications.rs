//! `LISTEN`, `UNLISTEN` and `NOTIFY`: channels between sessions, which the
//! engine keeps (SQLite has nothing of them). A channel is an identifier, folded
//! to lower case unless quoted, as PostgreSQL names it.

use super::lexer::{Token, TokenKind};
use super::quote::unquote_literal;
use super::words::Words;
use crate::error::Error;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotifyCommand {
    Listen(String),
    /// `UNLISTEN channel`, or `UNLISTEN *` (`None`).
    Unlisten(Option<String>),
    Notify {
        channel: String,
        payload: String,
    },
}

impl NotifyCommand {
    /// The command tag it answers with.
    pub fn tag(&self) -> &'static str {
        match self {
            NotifyCommand::Listen(_) => "LISTEN",
            NotifyCommand::Unlisten(_) => "UNLISTEN",
            NotifyCommand::Notify { .. } => "NOTIFY",
        }
    }
}

/// Recognises `LISTEN`, `UNLISTEN` and `NOTIFY`; `Ok(None)` for any other statement.
pub(super) fn recognise(sql: &str, tokens: &[Token]) -> Result<Option<NotifyCommand>, Error> {
    let w = Words { sql, tokens };
    let command = if w.is(0, "LISTEN") {
        NotifyCommand::Listen(channel(&w, 1)?)
    } else if w.is(0, "UNLISTEN") {
        if w.text(1) == "*" {
            end(&w, 2)?;
            NotifyCommand::Unlisten(None)
        } else {
            NotifyCommand::Unlisten(Some(channel(&w, 1)?))
        }
    } else if w.is(0, "NOTIFY") {
        let channel = channel_at(&w, 1)?;
        let payload = if w.text(2) == "," {
            match w.kind(3) {
                Some(TokenKind::String) => {
                    end(&w, 4)?;
                    unquote_literal(w.text(3))
                }
                _ => return Err(w.syntax_error(3)),
            }
        } else {
            end(&w, 2)?;
            String::new()
        };
        NotifyCommand::Notify { channel, payload }
    } else {
        return Ok(None);
    };
    Ok(Some(command))
}

/// The channel named at `i`, the last word of the statement.
fn channel(w: &Words, i: usize) -> Result<String, Error> {
    let channel = channel_at(w, i)?;
    end(w, i + 1)?;
    Ok(channel)
}

fn channel_at(w: &Words, i: usize) -> Result<String, Error> {
    let name = w.ident(i).ok_or_else(|| w.syntax_error(i))?;
    Ok(match w.kind(i) {
        Some(TokenKind::Word) => name.to_ascii_lowercase(),
        _ => name,
    })
}

fn end(w: &Words, i: usize) -> Result<(), Error> {
    match i < w.tokens.len() {
        true => Err(w.syntax_error(i)),
        false => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokenize;
    use super::*;

    fn read(sql: &str) -> Result<Option<NotifyCommand>, Error> {
        recognise(sql, &tokenize(sql))
    }

    #[test]
    fn reads_postgres_grammar() {
        assert_eq!(
            read("LISTEN Jobs").unwrap(),
            Some(NotifyCommand::Listen("jobs".into()))
        );
        assert_eq!(
            read("listen \"Jobs\"").unwrap(),
            Some(NotifyCommand::Listen("Jobs".into()))
        );
        assert_eq!(
            read("UNLISTEN *").unwrap(),
            Some(NotifyCommand::Unlisten(None))
        );
        assert_eq!(
            read("NOTIFY jobs, 'it''s done'").unwrap(),
            Some(NotifyCommand::Notify {
                channel: "jobs".into(),
                payload: "it's done".into()
            })
        );
        assert_eq!(
            read("NOTIFY jobs").unwrap(),
            Some(NotifyCommand::Notify {
                channel: "jobs".into(),
                payload: String::new()
            })
        );
        assert!(read("NOTIFY jobs, 42").is_err());
        assert!(read("LISTEN").is_err());
        assert!(read("LISTEN a b").is_err());
        assert_eq!(read("SELECT 1").unwrap(), None);
    }
}
