//! `DECLARE name CURSOR FOR query`, `FETCH` and `CLOSE`: SQL-level cursors,
//! which drivers use to read a large result a batch at a time (psycopg2's and
//! psycopg's named cursors run `DECLARE "c" CURSOR WITHOUT HOLD FOR ...`, then
//! `FETCH FORWARD 2000 FROM "c"`). Only forward fetches are taken: `FETCH
//! NEXT`, `FETCH n`, `FETCH FORWARD [n | ALL]`, `FETCH ALL` (not `MOVE`); the engine reads
//! the rows from SQLite as they are fetched (see `engine::named_cursors`).

use std::sync::Arc;

use super::lexer::Token;
use super::statement::{CursorCommand, ParseQuery};
use super::words::Words;
use crate::error::{Error, ErrorKind};

/// The cursor command `tokens` hold, if any; a cursor's query is read by
/// `parse_query`.
pub(super) fn recognise(
    sql: &str,
    tokens: &[Token],
    parse_query: ParseQuery<'_>,
) -> Result<Option<CursorCommand>, Error> {
    let w = Words { sql, tokens };
    if w.is(0, "DECLARE") {
        declare(&w, parse_query).map(Some)
    } else if w.is(0, "FETCH") {
        fetch(&w).map(Some)
    } else if w.is(0, "MOVE") {
        Err(Error::new(
            ErrorKind::Unsupported,
            "MOVE is not supported (only forward FETCH)",
        ))
    } else if w.is(0, "CLOSE") {
        let name = match w.is(1, "ALL") {
            true => None,
            false => Some(
                w.ident(1)
                    .ok_or_else(|| syntax("CLOSE takes a cursor name"))?,
            ),
        };
        end(&w, 2)?;
        Ok(Some(CursorCommand::Close(name)))
    } else {
        Ok(None)
    }
}

fn declare(w: &Words, parse_query: ParseQuery<'_>) -> Result<CursorCommand, Error> {
    let name = w
        .ident(1)
        .ok_or_else(|| syntax("DECLARE takes a cursor name"))?;
    let mut i = 2;
    loop {
        if w.is(i, "BINARY") {
            return Err(Error::new(
                ErrorKind::Unsupported,
                "BINARY cursors are not supported",
            ));
        }
        if w.is(i, "INSENSITIVE") || w.is(i, "ASENSITIVE") || w.is(i, "SCROLL") {
            i += 1;
        } else if w.is(i, "NO") && w.is(i + 1, "SCROLL") {
            i += 2;
        } else {
            break;
        }
    }
    if !w.is(i, "CURSOR") {
        return Err(syntax("DECLARE name CURSOR FOR query"));
    }
    i += 1;
    let hold = if w.is(i, "WITH") && w.is(i + 1, "HOLD") {
        i += 2;
        true
    } else if w.is(i, "WITHOUT") && w.is(i + 1, "HOLD") {
        i += 2;
        false
    } else {
        false
    };
    if !w.is(i, "FOR") {
        return Err(syntax("DECLARE name CURSOR FOR query"));
    }
    let start = w
        .tokens
        .get(i + 1)
        .ok_or_else(|| syntax("DECLARE CURSOR needs a query"))?
        .start;
    let query = match parse_query(&w.sql[start..])? {
        Some(query) if query.returns_rows && !query.writes() => query,
        _ => {
            return Err(syntax(
                "DECLARE CURSOR takes a query that returns rows and writes nothing",
            ));
        }
    };
    Ok(CursorCommand::Declare {
        name,
        hold,
        query: Arc::new(query),
    })
}

fn fetch(w: &Words) -> Result<CursorCommand, Error> {
    let mut i = 1;
    let count = if w.is(i, "NEXT") {
        i += 1;
        Some(1)
    } else if w.is(i, "ALL") {
        i += 1;
        None
    } else if w.is(i, "FORWARD") {
        i += 1;
        if w.is(i, "ALL") {
            i += 1;
            None
        } else if let Some(n) = count_at(w, i) {
            i += 1;
            Some(n)
        } else {
            Some(1)
        }
    } else if let Some(n) = count_at(w, i) {
        i += 1;
        Some(n)
    } else if ["PRIOR", "FIRST", "LAST", "ABSOLUTE", "RELATIVE", "BACKWARD"]
        .iter()
        .any(|kw| w.is(i, kw))
        || w.text(i).starts_with('-')
    {
        return Err(Error::new(
            ErrorKind::Unsupported,
            "only forward FETCH is supported (NEXT, n, FORWARD [n | ALL], ALL)",
        ));
    } else {
        Some(1)
    };
    if count == Some(0) {
        return Err(Error::new(
            ErrorKind::Unsupported,
            "FETCH 0 (the current row again) is not supported",
        ));
    }
    if w.is(i, "FROM") || w.is(i, "IN") {
        i += 1;
    }
    let name = w
        .ident(i)
        .ok_or_else(|| syntax("FETCH takes a cursor name"))?;
    end(w, i + 1)?;
    Ok(CursorCommand::Fetch { name, count })
}

/// A row count at `i`.
fn count_at(w: &Words, i: usize) -> Option<u64> {
    w.text(i).parse().ok()
}

fn end(w: &Words, i: usize) -> Result<(), Error> {
    match w.tokens.get(i) {
        None => Ok(()),
        Some(_) => Err(syntax(&format!("unexpected \"{}\"", w.text(i)))),
    }
}

fn syntax(message: &str) -> Error {
    Error::new(ErrorKind::Syntax, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::parse_single;

    fn command(sql: &str) -> CursorCommand {
        match parse_single(sql)
            .expect("parses")
            .expect("a statement")
            .plan
        {
            crate::sql::Plan::Cursor(command) => (*command).clone(),
            other => panic!("not a cursor command: {other:?}"),
        }
    }

    #[test]
    fn declare_fetch_close() {
        let CursorCommand::Declare { name, hold, query } = command(
            "DECLARE \"C 1\" NO SCROLL CURSOR WITHOUT HOLD FOR SELECT a FROM t WHERE b = $1",
        ) else {
            panic!("not a DECLARE");
        };
        assert_eq!((name.as_str(), hold), ("C 1", false));
        assert_eq!(&*query.sql, "SELECT a FROM t WHERE b = ?1");
        assert_eq!(query.param_count, 1);
        assert!(matches!(
            command("declare c cursor with hold for values (1)"),
            CursorCommand::Declare { hold: true, .. }
        ));
        for (sql, count) in [
            ("FETCH FORWARD 2000 FROM \"c\"", Some(2000)),
            ("FETCH FORWARD ALL FROM c", None),
            ("FETCH ALL IN c", None),
            ("FETCH NEXT FROM c", Some(1)),
            ("FETCH 5 c", Some(5)),
            ("FETCH c", Some(1)),
        ] {
            assert_eq!(
                command(sql),
                CursorCommand::Fetch {
                    name: "c".into(),
                    count
                },
                "{sql}"
            );
        }
        assert_eq!(command("CLOSE c"), CursorCommand::Close(Some("c".into())));
        assert_eq!(command("CLOSE ALL"), CursorCommand::Close(None));
    }

    #[test]
    fn what_is_refused() {
        let kind = |sql: &str| parse_single(sql).expect_err(sql).kind;
        assert_eq!(kind("FETCH PRIOR FROM c"), ErrorKind::Unsupported);
        assert_eq!(kind("FETCH BACKWARD 2 FROM c"), ErrorKind::Unsupported);
        assert_eq!(
            kind("DECLARE c BINARY CURSOR FOR SELECT 1"),
            ErrorKind::Unsupported
        );
        assert_eq!(
            kind("DECLARE c CURSOR FOR DELETE FROM t"),
            ErrorKind::Syntax
        );
        assert_eq!(kind("DECLARE c CURSOR SELECT 1"), ErrorKind::Syntax);
        assert_eq!(kind("FETCH 2 FROM c extra"), ErrorKind::Syntax);
        assert_eq!(kind("MOVE 2 IN c"), ErrorKind::Unsupported);
    }
}
