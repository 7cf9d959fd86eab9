//! The statements of query strings parsed lately, kept per thread.
//!
//! Reading a short statement (lexing, classifying, translating the dialect) costs
//! more instructions than SQLite takes to run it, and clients send the same texts
//! over and over: pgbench's, an ORM's, an HTTP API's. Parsing is a pure function
//! of the text, so a text seen lately gets a copy of the statements it gave
//! before. Each thread keeps its own texts (no lock, nothing shared between the
//! threads that serve connections), in two generations: a text found in the
//! older one moves to the newer, and when the newer fills up the older is
//! dropped, so what is used stays and the memory is bounded.

use std::cell::RefCell;
use std::collections::HashMap;

use super::statement::Statement;

/// Texts per generation, per thread.
const GENERATION: usize = 256;
/// Longer texts (bulk INSERTs, scripts) are parsed each time: they are seldom
/// sent twice, and keeping them would cost memory.
const LONGEST: usize = 2048;

type ByText = HashMap<Box<str>, Vec<Statement>, foldhash::fast::RandomState>;

#[derive(Default)]
struct Generations {
    newer: ByText,
    older: ByText,
    /// The schema version the texts were read against.
    schema: u64,
}

thread_local! {
    static PARSED: RefCell<Generations> = RefCell::new(Generations::default());
    /// Texts read as PostgreSQL reads them, which depends on the schema:
    /// kept for one version of it.
    static PARSED_POSTGRES: RefCell<Generations> = RefCell::new(Generations::default());
    /// Texts with their integer literals taken out (see `literals`), read as
    /// PostgreSQL reads them; none kept for a text that cannot be read so.
    static PARSED_SHAPES: RefCell<Generations> = RefCell::new(Generations::default());
}

/// Which texts a cache lookup is among.
#[derive(Clone, Copy)]
pub(super) enum Texts {
    /// SQLite's meaning: independent of the schema.
    Sqlite,
    /// PostgreSQL's, read against this version of the schema.
    Postgres(u64),
    /// PostgreSQL's, of texts whose integer literals are parameters.
    Shapes(u64),
}

/// The statements `parse` gives for `sql`, from this thread's recent texts
/// when it is one. Only successes are kept. `schema`: the version of the
/// schema the statements are read against, for a reading that depends on it.
pub(super) fn cached<E>(
    sql: &str,
    among: Texts,
    parse: impl FnOnce(&str) -> Result<Vec<Statement>, E>,
) -> Result<Vec<Statement>, E> {
    if sql.len() > LONGEST {
        return parse(sql);
    }
    if let Some(statements) = find(sql, among) {
        return Ok(statements);
    }
    let statements = parse(sql)?;
    store(among).with(|parsed| {
        parsed.borrow_mut().keep(Box::from(sql), statements.clone());
    });
    Ok(statements)
}

fn store(among: Texts) -> &'static std::thread::LocalKey<RefCell<Generations>> {
    match among {
        Texts::Sqlite => &PARSED,
        Texts::Postgres(_) => &PARSED_POSTGRES,
        Texts::Shapes(_) => &PARSED_SHAPES,
    }
}

/// The statements `sql` gave lately, if this thread has them.
pub(super) fn find(sql: &str, among: Texts) -> Option<Vec<Statement>> {
    let schema = match among {
        Texts::Sqlite => None,
        Texts::Postgres(version) | Texts::Shapes(version) => Some(version),
    };
    store(among).with(|parsed| {
        let mut parsed = parsed.borrow_mut();
        if let Some(version) = schema
            && parsed.schema != version
        {
            *parsed = Generations {
                schema: version,
                ..Generations::default()
            };
        }
        if let Some(statements) = parsed.newer.get(sql) {
            return Some(statements.clone());
        }
        let (text, statements) = parsed.older.remove_entry(sql)?;
        let copy = statements.clone();
        parsed.keep(text, statements);
        Some(copy)
    })
}

impl Generations {
    fn keep(&mut self, text: Box<str>, statements: Vec<Statement>) {
        if self.newer.len() >= GENERATION {
            self.older = std::mem::take(&mut self.newer);
        }
        self.newer.insert(text, statements);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn counting<'a>(calls: &'a Cell<usize>) -> impl Fn(&str) -> Result<Vec<Statement>, ()> + 'a {
        move |sql| {
            calls.set(calls.get() + 1);
            super::super::parse::parse_uncached(sql, super::super::parse::Dialect::Sqlite)
                .map_err(drop)
        }
    }

    #[test]
    fn a_text_seen_lately_is_not_parsed_again() {
        let calls = Cell::new(0);
        let parse = counting(&calls);
        let first = cached("SELECT 1 AS lately", Texts::Sqlite, &parse).unwrap();
        let second = cached("SELECT 1 AS lately", Texts::Sqlite, &parse).unwrap();
        assert_eq!(first, second);
        assert_eq!(calls.get(), 1);
    }

    #[test]
    fn errors_and_long_texts_are_not_kept() {
        let calls = Cell::new(0);
        let parse = counting(&calls);
        assert!(cached("SELECT $99999999999", Texts::Sqlite, &parse).is_err());
        assert!(cached("SELECT $99999999999", Texts::Sqlite, &parse).is_err());
        assert_eq!(calls.get(), 2);
        let long = format!("SELECT {}1", "1 + ".repeat(LONGEST));
        cached(&long, Texts::Sqlite, &parse).unwrap();
        cached(&long, Texts::Sqlite, &parse).unwrap();
        assert_eq!(calls.get(), 4);
    }

    #[test]
    fn memory_is_bounded_and_used_texts_stay() {
        let calls = Cell::new(0);
        let parse = counting(&calls);
        cached("SELECT 'kept'", Texts::Sqlite, &parse).unwrap();
        for i in 0..GENERATION * 3 {
            cached(&format!("SELECT {i}"), Texts::Sqlite, &parse).unwrap();
            // Used all along: it moves to each newer generation.
            cached("SELECT 'kept'", Texts::Sqlite, &parse).unwrap();
        }
        assert_eq!(calls.get(), 1 + GENERATION * 3);
        PARSED.with(|parsed| {
            let parsed = parsed.borrow();
            assert!(parsed.newer.len() <= GENERATION && parsed.older.len() <= GENERATION);
        });
        // Long gone from both generations: parsed again.
        cached("SELECT 0", Texts::Sqlite, &parse).unwrap();
        assert_eq!(calls.get(), 2 + GENERATION * 3);
    }
}
