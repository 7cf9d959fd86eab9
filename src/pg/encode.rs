//! Query results as PostgreSQL backend messages.

use std::sync::Arc;

use bytes::BytesMut;
use pgwire::api::Type;
use pgwire::messages::PgWireBackendMessage;
use pgwire::messages::data::{DataRow, FieldDescription, RowDescription};
use pgwire::messages::response::CommandComplete;

use super::params::format_code;
use super::types::{EncodeError, FieldType, TextFormat, encode_field};
use crate::engine::{Column, Completion, Value};
use crate::sql::CommandKind;

/// Result columns with the PostgreSQL types they go on the wire as. Working the
/// types out from the declared types costs more than encoding a short row, so a
/// prepared statement keeps them from its Describe for every execution.
#[derive(Debug, Clone)]
pub struct TypedColumns {
    pub columns: Arc<Vec<Column>>,
    types: Arc<[FieldType]>,
}

impl TypedColumns {
    pub fn new(columns: Arc<Vec<Column>>) -> Self {
        let types = columns.iter().map(FieldType::of).collect();
        TypedColumns { columns, types }
    }

    /// The columns typed as [`TypedColumns::new`] does, except that a bare
    /// parameter's (`SELECT $1`) is typed as the client declared the parameter
    /// (`param_types`, from Parse).
    pub fn with_param_types(columns: Arc<Vec<Column>>, param_types: &[Type]) -> Self {
        TypedColumns::new(typed_by_params(columns, param_types))
    }

    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }

    /// Whether a statement's result now has other columns than these, which it
    /// had when it was described: the schema changed under a prepared
    /// statement (another count, other names). A bare parameter's column is
    /// named `?column?` in its description (see [`TypedColumns::with_param_types`]).
    pub fn differ_from(&self, columns: &[Column]) -> bool {
        self.columns.len() != columns.len()
            || self.columns.iter().zip(columns).any(|(then, now)| {
                then.name != now.name && !(then.name == "?column?" && now.name.starts_with('?'))
            })
    }
}

/// `SELECT $1`: SQLite knows nothing of a bare parameter's type, but the client
/// said what it sent, and PostgreSQL answers with that type (named `?column?`).
fn typed_by_params(columns: Arc<Vec<Column>>, param_types: &[Type]) -> Arc<Vec<Column>> {
    let param_of = |column: &Column| -> Option<&Type> {
        if column.decltype.is_some() {
            return None;
        }
        let n: usize = column.name.strip_prefix('?')?.parse().ok()?;
        param_types
            .get(n.checked_sub(1)?)
            .filter(|ty| **ty != Type::UNKNOWN)
    };
    if !columns.iter().any(|c| param_of(c).is_some()) {
        return columns;
    }
    let typed = columns
        .iter()
        .map(|column| match param_of(column) {
            Some(ty) => Column {
                name: "?column?".to_owned(),
                decltype: Some(Arc::from(ty.name())),
                storage: column.storage,
            },
            None => column.clone(),
        })
        .collect();
    Arc::new(typed)
}

/// Column types and wire formats of one result.
pub struct RowShape {
    columns: TypedColumns,
    /// Per column, whether it goes in binary; empty when every column is text.
    binary: Vec<bool>,
    /// How text output prints floats.
    digits: TextFormat,
}

impl RowShape {
    pub fn new(columns: &TypedColumns, format_codes: &[i16]) -> Self {
        let binary = match format_codes.contains(&1) {
            true => (0..columns.types.len())
                .map(|i| format_code(format_codes, i) == 1)
                .collect(),
            false => Vec::new(),
        };
        RowShape {
            columns: columns.clone(),
            binary,
            digits: TextFormat::default(),
        }
    }

    /// Floats in text printed with `digits` (the session's `extra_float_digits`).
    pub fn printing_floats(self, digits: TextFormat) -> Self {
        RowShape { digits, ..self }
    }

    fn is_binary(&self, column: usize) -> bool {
        self.binary.get(column).copied().unwrap_or(false)
    }

    pub fn row_description(&self) -> PgWireBackendMessage {
        let fields = self
            .columns
            .columns
            .iter()
            .zip(self.columns.types.iter())
            .enumerate()
            .map(|(i, (column, field))| {
                FieldDescription::new(
                    column.name.clone(),
                    0,
                    0,
                    field.ty.oid(),
                    type_size(&field.ty),
                    field.typmod,
                    i16::from(self.is_binary(i)),
                )
            })
            .collect();
        PgWireBackendMessage::RowDescription(RowDescription::new(fields))
    }

    /// A DataRow, and its size in bytes.
    pub fn data_row(&self, row: &[Value]) -> Result<(PgWireBackendMessage, usize), EncodeError> {
        let mut data = BytesMut::with_capacity(16 * row.len());
        for (i, (value, ty)) in row.iter().zip(self.columns.types.iter()).enumerate() {
            encode_field(&mut data, value, ty, self.is_binary(i), &self.digits)?;
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
/// Written straight into one string: every statement ends with one.
pub fn command_tag(completion: &Completion, rows: usize) -> PgWireBackendMessage {
    let affected = usize::try_from(completion.rows_affected).unwrap_or(usize::MAX);
    let (command, count) = match completion.kind {
        CommandKind::Select => ("SELECT", Some(rows)),
        CommandKind::Insert => ("INSERT 0", Some(affected)),
        CommandKind::Update => ("UPDATE", Some(affected)),
        CommandKind::Delete => ("DELETE", Some(affected)),
        CommandKind::Begin => ("BEGIN", None),
        CommandKind::Commit => ("COMMIT", None),
        CommandKind::Rollback => ("ROLLBACK", None),
        CommandKind::Copy => ("COPY", Some(affected)),
        CommandKind::Fetch => ("FETCH", Some(rows)),
        CommandKind::CreateTableAs => ("SELECT", Some(affected)),
        CommandKind::Merge => ("MERGE", Some(affected)),
        CommandKind::Other(tag) => (tag, None),
    };
    let mut tag = String::with_capacity(command.len() + 21);
    tag.push_str(command);
    if let Some(count) = count {
        tag.push(' ');
        tag.push_str(itoa::Buffer::new().format(count));
    }
    PgWireBackendMessage::CommandComplete(CommandComplete::new(tag))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(kind: CommandKind, rows: usize, affected: u64) -> String {
        let completion = Completion {
            kind,
            rows_affected: affected,
            last_insert_rowid: None,
        };
        match command_tag(&completion, rows) {
            PgWireBackendMessage::CommandComplete(complete) => complete.tag,
            other => panic!("not a CommandComplete: {other:?}"),
        }
    }

    #[test]
    fn command_tags_as_postgresql_writes_them() {
        assert_eq!(tag(CommandKind::Select, 0, 0), "SELECT 0");
        assert_eq!(tag(CommandKind::Select, 10, 99), "SELECT 10");
        assert_eq!(tag(CommandKind::Insert, 0, 5), "INSERT 0 5");
        assert_eq!(
            tag(CommandKind::Update, 0, 1_234_567_890),
            "UPDATE 1234567890"
        );
        assert_eq!(
            tag(CommandKind::Delete, 0, u64::MAX),
            format!("DELETE {}", usize::MAX)
        );
        assert_eq!(tag(CommandKind::Copy, 0, 100), "COPY 100");
        assert_eq!(tag(CommandKind::Fetch, 7, 0), "FETCH 7");
        assert_eq!(tag(CommandKind::Begin, 3, 3), "BEGIN");
        assert_eq!(
            tag(CommandKind::Other("CREATE TABLE"), 0, 0),
            "CREATE TABLE"
        );
    }
}
