//! A table's rows in a dump: `COPY s.t (columns) FROM stdin;`, one line
//! per row as `COPY ... TO STDOUT` writes it (the same encoder), then `\.`.
//! Rows go to the output as the query produces them: a table of any size
//! takes no more memory than a row.

use std::io::Write;
use std::sync::Arc;

use super::super::copy_out::CopyEncoder;
use super::super::types::TextFormat;
use super::objects::Relation;
use super::reader::{Reader, io_error};
use crate::engine::{Column, Completion, ResultSink, Value};
use crate::error::Error;
use crate::sql::quote::identifier_as_postgres as ident;
use crate::sql::{CopyFormat, CopyOptions, ForceQuote};

/// Writes `COPY` of the table's rows (its generated columns left out, as
/// PostgreSQL computes them).
pub(super) async fn write(
    reader: &mut Reader,
    table: &Relation,
    out: &mut (dyn Write + Send),
) -> Result<(), Error> {
    let columns: Vec<String> = table
        .columns
        .iter()
        .filter(|c| !c.generated)
        .map(|c| ident(&c.name))
        .collect();
    let list = columns.join(", ");
    let name = &table.name;
    writeln!(out, "COPY {name} ({list}) FROM stdin;").map_err(io_error)?;
    let options = CopyOptions {
        format: CopyFormat::Text,
        delimiter: b'\t',
        null: "\\N".to_owned(),
        header: false,
        quote: b'"',
        escape: b'"',
        force_quote: ForceQuote::None,
    };
    let mut lines = Lines {
        options: &options,
        encoder: None,
        out,
    };
    for statement in reader
        .statements(&format!("SELECT {list} FROM {name}"))
        .await?
    {
        reader
            .session
            .execute_into(&statement, &[], &mut lines)
            .await?;
    }
    lines.out.write_all(b"\\.\n\n\n").map_err(io_error)
}

/// The sink the rows are written through.
struct Lines<'a> {
    options: &'a CopyOptions,
    encoder: Option<CopyEncoder<'a>>,
    out: &'a mut (dyn Write + Send),
}

impl ResultSink for Lines<'_> {
    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        // Floats with every digit, as pg_dump's `extra_float_digits = 3`.
        let digits = TextFormat {
            float_digits: 3,
            ..TextFormat::default()
        };
        self.encoder = Some(CopyEncoder::new(self.options, columns, digits));
        Ok(())
    }

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error> {
        if let Some(encoder) = &mut self.encoder {
            self.out.write_all(&encoder.row(&row)).map_err(io_error)?;
        }
        Ok(())
    }

    fn finish_statement(&mut self, _completion: Completion) -> Result<(), Error> {
        Ok(())
    }
}
