//! `litewire dump`: the database as a plain SQL script that `psql -v
//! ON_ERROR_STOP=1 -f` restores into PostgreSQL, in `pg_dump`'s order: schemas,
//! types, tables, sequences, views; the rows as `COPY`; sequence values; then
//! constraints, indexes and foreign keys (so the rows load before anything
//! checks them).
//!
//! It reads through litewire's own engine and catalog, as a client would, in
//! one REPEATABLE READ READ ONLY transaction with `search_path` empty: the
//! types are the ones the columns were declared with (`format_type`), the
//! definitions come qualified from `pg_get_viewdef`, `pg_get_constraintdef` and
//! `pg_get_expr`, and the rows print as `COPY ... TO STDOUT` prints them. The
//! file is opened read-only, so a dump runs beside a serving litewire and sees
//! one committed state of it. litewire's own tables are not in the catalog,
//! so never in the dump.

mod copy_rows;
mod objects;
mod reader;

use std::io::Write;

use crate::config::Config;
use crate::engine::{Engine, Role};
use crate::error::Error;

use objects::Catalog;
use reader::{Reader, io_error};

/// Writes the dump of the file `config.db` names to `out`.
pub async fn dump(config: &Config, out: &mut (dyn Write + Send)) -> Result<(), Error> {
    let mut config = config.clone();
    config.read_only = true;
    let engine = Engine::open(&config).await?;
    let mut reader = Reader {
        session: engine.session(Role::ReadOnly),
    };
    let written = write_dump(&mut reader, &config, out).await;
    reader.session.close().await;
    engine.close().await;
    written
}

async fn write_dump(
    reader: &mut Reader,
    config: &Config,
    out: &mut (dyn Write + Send),
) -> Result<(), Error> {
    // Floats with every digit (as pg_dump asks), names qualified.
    reader.run("SET extra_float_digits = 3").await?;
    reader.run("SET search_path = ''").await?;
    reader
        .run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        .await?;
    let catalog = Catalog::read(reader).await?;
    let file = config.db.display().to_string();
    write!(
        out,
        "--\n-- PostgreSQL database dump, written by litewire {} from {}\n--\n\n",
        env!("CARGO_PKG_VERSION"),
        file.replace('\n', " ")
    )
    .map_err(io_error)?;
    out.write_all(PREAMBLE.as_bytes()).map_err(io_error)?;
    catalog.write_schema(out)?;
    for table in catalog.stored_tables() {
        copy_rows::write(reader, table, out).await?;
    }
    catalog.write_sequence_values(reader, out).await?;
    catalog.write_constraints(out)?;
    out.write_all(b"--\n-- PostgreSQL database dump complete\n--\n\n")
        .map_err(io_error)?;
    out.flush().map_err(io_error)?;
    reader.run("COMMIT").await?;
    Ok(())
}

/// What every restore needs set first, as `pg_dump` writes it.
const PREAMBLE: &str = "SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET client_min_messages = warning;
SET row_security = off;

";
