//! The PostgreSQL wire protocol front end (crate pgwire).
//!
//! Each accepted socket gets its own [`PgConnection`] (session, prepared statements,
//! portals). When the client goes away, for whatever reason, the connection's
//! session is closed, which rolls back any transaction it left open.
//!
//! - `serve`: the accept loop and each connection's message loop, with the
//!   checks pgwire's own loop lacks; `frames` checks the client's bytes before
//!   pgwire decodes them, `cancel` holds the cancel keys.
//! - `login` and `startup`: logging in through the [`Gate`] and the startup
//!   replies.
//! - `connection`: what one connection owns; the protocols on top of it have a
//!   file each: `simple`, `extended`, `copy_in` and `copy_out` (with
//!   `copy_decoder`).
//! - `rows`, `encode` and `reply`: results on their way to the client;
//!   `errors`: engine errors as ErrorResponses.
//! - `types`, `numeric` and `uuid`: values in PostgreSQL's wire formats (dates
//!   and times with `sql::datetime`); `params` and `param_types`: Bind's
//!   parameters and their types.

mod cancel;
mod connection;
mod connection_log;
pub(crate) mod copy_decoder;
mod copy_in;
mod copy_out;
pub mod dump;
mod encode;
mod errors;
mod extended;
pub mod frames;
mod login;
mod numeric;
mod param_types;
mod params;
mod reply;
mod rows;
mod serve;
mod simple;
mod startup;
mod types;
mod uuid;

pub use connection::PgConnection;
pub use login::Gate;
pub use serve::serve;
