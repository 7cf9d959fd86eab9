//! Sessions: a client's view of the database and of its transaction.
//!
//! `state` holds what a session keeps between statements; each other file is
//! one concern of its behaviour: running statements (`execute`), transactions
//! and the write permit (`transaction`), where a statement runs (`routing`),
//! isolation levels and their snapshots (`isolation`), row locks (`locking`),
//! LISTEN/NOTIFY (`channels`), portals read a batch at a time (`portals`),
//! describing (`describe`), `DECLARE`/`FETCH`/`CLOSE` (`named_cursors`) and
//! COPY (`copy`).

mod channels;
mod copy;
mod created_rows;
mod describe;
mod execute;
mod isolation;
mod locking;
mod named_cursors;
mod portals;
mod prepared;
mod routing;
mod staged;
mod state;
mod transaction;

pub use copy::CopyIn;
pub use execute::Blocks;
pub use state::{CursorId, Session, TransactionState};
