//! Sequences as SQL text: `CREATE`/`ALTER`/`DROP SEQUENCE`, and the sequences
//! that `serial` and identity columns own.
//!
//! A sequence is a row of `litewire_sequences`, a table of litewire's own in the
//! database file (made on first use, hidden from the catalog's table lists): its
//! definition (type, start, increment, bounds, cycle, owner) and its persisted
//! state (`last_value`, `is_called`). Sequence DDL is therefore ordinary,
//! transactional SQL on that table, run as one script (all or nothing), and it
//! rolls back with the transaction as PostgreSQL's does. Values are handed out by
//! the engine's `nextval()` (see `engine::sequences`), which keeps the counters
//! that ROLLBACK must not undo.
//!
//! Each definition carries a random `token`, drawn again whenever the sequence
//! is (re)created or restarted: it tells the engine that its in-memory counter
//! belongs to an older incarnation and must be read again from the row.
//!
//! A `serial` or identity column that is not the table's one-column primary key
//! becomes a column whose default is `nextval('t_col_seq')`, with the sequence
//! owned by the column; SQLite evaluates a non-deterministic function in a
//! DEFAULT for every row it inserts, so explicit values, multi-row VALUES and
//! `INSERT ... SELECT` behave as in PostgreSQL without triggers or a rewrite of
//! every INSERT. The one-column `INTEGER PRIMARY KEY` keeps SQLite's rowid
//! assignment (no sequence at all): the fast path, and the storage every SQLite
//! tool expects.
//!
//! SQLite has no DROP hook, so the sequences of a dropped table are not dropped
//! with it: they stay out of the catalog (their owner is gone) and are removed
//! when a table of that name is created again.

mod identity;
mod names;
mod options;
mod owned;
mod sequence_table;
mod statements;

pub(crate) use identity::{IdentityChange, statement as identity_statement};
pub use names::relation_name;
pub(crate) use options::Options;
pub(crate) use owned::{OwnedSequence, owned_sequences, restart_owned_sequences};
pub(crate) use statements::{must_exist as sequence_must_exist, relation_must_exist, statement};
