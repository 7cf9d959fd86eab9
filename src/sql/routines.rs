//! Code the database would run: `CREATE [OR REPLACE] FUNCTION | PROCEDURE`
//! and a `CREATE TRIGGER` that executes a function (`EXECUTE FUNCTION f()`),
//! as a PostgreSQL dump or migration writes them. litewire runs no code of
//! its own users' (SQLite's `CREATE TRIGGER ... BEGIN ... END` aside), so
//! each is refused with PostgreSQL's 0A000 and a message that names the
//! object and its language: a script stops there, saying what to move by
//! hand, instead of at a syntax error.

use super::lexer::TokenKind;
use super::quote::unquote_identifier;
use super::words::Words;
use crate::error::{Error, SqlState};

/// The refusal, when the statement makes a function, a procedure or a
/// trigger that executes one.
pub(super) fn refused(w: &Words) -> Option<Error> {
    let mut at = 1;
    if w.is(at, "OR") && w.is(at + 1, "REPLACE") {
        at += 2;
    }
    if w.is(at, "FUNCTION") || w.is(at, "PROCEDURE") {
        let kind = w.text(at).to_ascii_lowercase();
        let (name, _) = w.name(at + 1)?;
        let language = (at..w.tokens.len())
            .find(|&i| w.is(i, "LANGUAGE"))
            .map(|i| unquote_identifier(w.text(i + 1)).to_ascii_lowercase());
        let language = match language {
            Some(language) => format!("LANGUAGE {}", language.trim_matches('\'')),
            None => "any language".to_owned(),
        };
        return Some(Error::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            format!("{kind} \"{name}\" cannot be created: {kind}s in {language} are not supported"),
        ));
    }
    if w.is(at, "CONSTRAINT") {
        at += 1;
    }
    if !w.is(at, "TRIGGER") {
        return None;
    }
    let (trigger, _) = w.name(at + 1)?;
    let execute = (at..w.tokens.len()).find(|&i| {
        w.is(i, "EXECUTE")
            && (w.is(i + 1, "FUNCTION") || w.is(i + 1, "PROCEDURE"))
            && w.tokens
                .get(i + 2)
                .is_some_and(|t| matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent))
    })?;
    let (function, _) = w.name(execute + 2)?;
    Some(Error::state(
        SqlState::FEATURE_NOT_SUPPORTED,
        format!(
            "trigger \"{trigger}\" cannot be created: triggers that execute a function ({function}) are not supported"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::lexer::tokenize;

    fn refusal(sql: &str) -> Option<String> {
        let tokens = tokenize(sql);
        let words = Words {
            sql,
            tokens: &tokens,
        };
        refused(&words).map(|e| e.message)
    }

    #[test]
    fn functions_and_triggers_that_run_them_are_refused_by_name() {
        assert_eq!(
            refusal("CREATE OR REPLACE FUNCTION public.touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$").as_deref(),
            Some("function \"touch\" cannot be created: functions in LANGUAGE plpgsql are not supported")
        );
        assert_eq!(
            refusal("CREATE PROCEDURE p() AS 'SELECT 1' LANGUAGE 'sql'").as_deref(),
            Some("procedure \"p\" cannot be created: procedures in LANGUAGE sql are not supported")
        );
        assert_eq!(
            refusal("CREATE TRIGGER t_touch BEFORE UPDATE ON public.items FOR EACH ROW EXECUTE FUNCTION public.touch()").as_deref(),
            Some("trigger \"t_touch\" cannot be created: triggers that execute a function (touch) are not supported")
        );
        // SQLite's own triggers are no functions.
        assert_eq!(
            refusal("CREATE TRIGGER t AFTER INSERT ON a BEGIN INSERT INTO b VALUES (NEW.x); END"),
            None
        );
        assert_eq!(refusal("CREATE TABLE f (x int)"), None);
    }
}
