//! Query results as PostgreSQL backend messages.

use bytes::BytesMut;
use pgwire::api::Type;
use pgwire::api::results::Tag;
use pgwire::messages::PgWireBackendMessage;
use pgwire::messages::data::{DataRow, FieldDescription, RowDescription};

use super::params::format_code;
use super::types::{EncodeError, FieldType, encode_field};
use crate::engine::{Column, Completion, Value};
use crate::sql::CommandKind;

/// Column types and wire formats of one result, worked out once per result.
pub struct RowShape {
    types: Vec<FieldType>,
    binary: Vec<bool>,
}

impl RowShape {
    pub fn new(columns: &[Column], format_codes: &[i16]) -> Self {
        RowShape {
            types: columns.iter().map(FieldType::of).collect(),
            binary: (0..columns.len())
                .map(|i| format_code(format_codes, i) == 1)
                .collect(),
        }
    }

    pub fn row_description(&self, columns: &[Column]) -> PgWireBackendMessage {
        let fields = columns
            .iter()
            .zip(&self.types)
            .zip(&self.binary)
            .map(|((column, field), binary)| {
                FieldDescription::new(
                    column.name.clone(),
                    0,
                    0,
                    field.ty.oid(),
                    type_size(&field.ty),
                    field.typmod,
                    i16::from(*binary),
                )
            })
            .collect();
        PgWireBackendMessage::RowDescription(RowDescription::new(fields))
    }

    /// A DataRow, and its size in bytes.
    pub fn data_row(&self, row: &[Value]) -> Result<(PgWireBackendMessage, usize), EncodeError> {
        let mut data = BytesMut::with_capacity(16 * row.len());
        for ((value, ty), binary) in row.iter().zip(&self.types).zip(&self.binary) {
            encode_field(&mut data, value, ty, *binary)?;
        }
        let bytes = data.len();
        Ok((
            PgWireBackendMessage::DataRow(DataRow::new(data, row.len() as i16)),
            bytes,
        ))
    }
}

/// `typlen` as PostgreSQL reports it in RowDescription (-1 for variable width).
fn type_size(ty: &Type) -> i16 {
    match *ty {
        Type::BOOL => 1,
        Type::INT2 => 2,
        Type::INT4 | Type::FLOAT4 | Type::DATE => 4,
        Type::INT8 | Type::FLOAT8 | Type::TIMESTAMP | Type::TIMESTAMPTZ | Type::TIME => 8,
        Type::UUID => 16,
        _ => -1,
    }
}

/// The CommandComplete tag: `SELECT n`, `INSERT 0 n`, `UPDATE n`, `BEGIN`, ...
pub fn command_tag(completion: &Completion, rows: usize) -> PgWireBackendMessage {
    let affected = usize::try_from(completion.rows_affected).unwrap_or(usize::MAX);
    let tag = match completion.kind {
        CommandKind::Select => Tag::new("SELECT").with_rows(rows),
        CommandKind::Insert => Tag::new("INSERT").with_oid(0).with_rows(affected),
        CommandKind::Update => Tag::new("UPDATE").with_rows(affected),
        CommandKind::Delete => Tag::new("DELETE").with_rows(affected),
        CommandKind::Begin => Tag::new("BEGIN"),
        CommandKind::Commit => Tag::new("COMMIT"),
        CommandKind::Rollback => Tag::new("ROLLBACK"),
        CommandKind::Copy => Tag::new("COPY").with_rows(affected),
        CommandKind::Fetch => Tag::new("FETCH").with_rows(rows),
        CommandKind::Other(tag) => Tag::new(tag),
    };
    PgWireBackendMessage::CommandComplete(tag.into())
}
