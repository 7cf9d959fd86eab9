//! Result columns typed by what the statement's translation knows: SQLite
//! types a column only by the table column it reads, so an array the dialect
//! translation built (`array_agg`) would go out as text, and
//! drivers read it as a list only when it is announced as an array type; and
//! on the PostgreSQL port every expression has PostgreSQL's type (`x::int8`
//! of an `integer` column is `int8`, `a > b` is `bool`).
//! `Statement::column_types` names those types; where it names one, it stands
//! over SQLite's declared type, both when a statement is described and when
//! its rows go to a sink. SQLite's booleans are 0 and 1: a `bool[]`'s
//! elements are written as PostgreSQL writes them, `t` and `f`.

use std::future::Future;
use std::sync::Arc;

use super::functions::{format_array, parse_array};
use super::result::{Column, Completion, ResultSink};
use super::value::Value;
use crate::error::Error;

/// `columns` with `types` declared where SQLite declared none.
pub(super) fn declared(columns: &[Column], types: &[Option<&'static str>]) -> Vec<Column> {
    columns
        .iter()
        .zip(types.iter().chain(std::iter::repeat(&None)))
        .map(|(column, ty)| match ty {
            Some(ty) => Column {
                decltype: Some(Arc::from(*ty)),
                ..column.clone()
            },
            _ => column.clone(),
        })
        .collect()
}

/// A sink whose statements' columns are announced with `types` declared.
pub(super) struct DeclaredColumns<'a, S> {
    sink: &'a mut S,
    types: &'a [Option<&'static str>],
    /// The positions of the columns declared `bool[]` here.
    booleans: Vec<usize>,
}

impl<'a, S> DeclaredColumns<'a, S> {
    pub(super) fn new(sink: &'a mut S, types: &'a [Option<&'static str>]) -> Self {
        DeclaredColumns {
            sink,
            types,
            booleans: Vec::new(),
        }
    }
}

/// An array of SQLite booleans (`{1,0}`) as PostgreSQL writes a `bool[]`
/// (`{t,f}`); anything else as it is.
fn boolean_array(text: &str) -> Option<String> {
    let items = parse_array(text)?
        .into_iter()
        .map(|item| {
            item.map(|v| match v.as_str() {
                "0" => "f".to_owned(),
                "1" => "t".to_owned(),
                _ => v,
            })
        })
        .collect::<Vec<_>>();
    Some(format_array(&items))
}

impl<S: ResultSink> ResultSink for DeclaredColumns<'_, S> {
    fn begin_statement(&mut self) -> Result<(), Error> {
        self.sink.begin_statement()
    }

    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        self.booleans = columns
            .iter()
            .zip(self.types)
            .enumerate()
            .filter(|(_, (_, ty))| **ty == Some("_bool"))
            .map(|(i, _)| i)
            .collect();
        self.sink.columns(&Arc::new(declared(columns, self.types)))
    }

    fn row(&mut self, mut row: Vec<Value>) -> Result<(), Error> {
        for &i in &self.booleans {
            if let Some(Value::Text(text)) = row.get_mut(i)
                && let Some(booleans) = boolean_array(text)
            {
                *text = booleans;
            }
        }
        self.sink.row(row)
    }

    fn wants_flush(&self) -> bool {
        self.sink.wants_flush()
    }

    fn flush(&mut self) -> impl Future<Output = Result<(), Error>> + Send {
        self.sink.flush()
    }

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error> {
        self.sink.finish_statement(completion)
    }

    fn error(&mut self, error: &Error) {
        self.sink.error(error);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boolean_arrays_print_as_postgresql_prints_them() {
        assert_eq!(boolean_array("{1,0,NULL}").as_deref(), Some("{t,f,NULL}"));
        assert_eq!(boolean_array("{}").as_deref(), Some("{}"));
        assert_eq!(boolean_array("nope"), None);
    }

    #[test]
    fn declared_types_stand_over_sqlite_ones() {
        let column = |name: &str, decltype: Option<&str>| Column {
            name: name.to_owned(),
            decltype: decltype.map(Arc::from),
            storage: None,
        };
        let columns = [
            column("a", Some("int")),
            column("b", None),
            column("c", None),
        ];
        let typed = declared(&columns, &[None, Some("_bool")]);
        assert_eq!(typed[0].decltype.as_deref(), Some("int"));
        assert_eq!(typed[1].decltype.as_deref(), Some("_bool"));
        assert_eq!(typed[2].decltype, None);
    }
}
