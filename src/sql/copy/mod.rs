//! `COPY`: what is copied, in which direction, in which format.
//!
//! `COPY t [(cols)] FROM STDIN` and `COPY t [(cols)] | (query) TO STDOUT` become
//! plans the PostgreSQL front end runs through its copy sub-protocol. Options come
//! in PostgreSQL's two spellings, `WITH (FORMAT csv, HEADER true, ...)` and the
//! older `WITH CSV HEADER DELIMITER AS ','` that psql's `\copy` passes through as
//! the user typed it; both are read into one list of options, then checked and
//! resolved once, so the front end sees only [`CopyOptions`] with defaults filled in.
//!
//! A file name or `PROGRAM` would be read or written by the server, on the server's
//! filesystem, on behalf of a remote client: that is refused.

mod command;
mod option_syntax;
pub(super) mod options;

pub(super) use command::parse;
pub use options::{CopyFormat, CopyOptions, ForceQuote};
