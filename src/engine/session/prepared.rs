//! The statements a session keeps by name at the SQL level (`PREPARE`,
//! `EXECUTE`, `DEALLOCATE`: see `sql::prepared`). `EXECUTE` is resolved before
//! anything else runs: the kept statement then runs as if it had been sent
//! with the values as its parameters (its own transaction rules, its routing,
//! its result and command tag).

use std::sync::Arc;

use super::state::Session;
use crate::engine::value::Value;
use crate::error::{Error, ErrorKind, SqlState};
use crate::sql::Statement;

impl Session {
    /// `PREPARE name AS statement`: 42P05 for a name taken.
    pub(super) fn prepare(&mut self, name: &str, statement: &Statement) -> Result<(), Error> {
        if self.prepared.0.contains_key(name) {
            return Err(Error::state(
                SqlState::parse("42P05").unwrap_or(SqlState::DUPLICATE_OBJECT),
                format!("prepared statement \"{name}\" already exists"),
            ));
        }
        self.prepared
            .0
            .insert(name.to_owned(), Arc::new(statement.clone()));
        Ok(())
    }

    /// `EXECUTE name (args)`: the statement and its parameters.
    pub(super) fn prepared_execution(
        &self,
        name: &str,
        args: &[(Option<String>, bool)],
    ) -> Result<(Arc<Statement>, Vec<Value>), Error> {
        let statement = self.prepared.0.get(name).ok_or_else(|| {
            Error::state(
                SqlState::parse("26000").unwrap_or(SqlState::UNDEFINED_TABLE),
                format!("prepared statement \"{name}\" does not exist"),
            )
        })?;
        if args.len() != statement.param_count {
            return Err(Error::new(
                ErrorKind::Syntax,
                format!("wrong number of parameters for prepared statement \"{name}\""),
            )
            .with_detail(format!(
                "Expected {} parameters but got {}.",
                statement.param_count,
                args.len()
            )));
        }
        let values = args
            .iter()
            .map(|(text, number)| match (text, number) {
                (None, _) => Value::Null,
                (Some(text), true) => text
                    .parse::<i64>()
                    .map(Value::Integer)
                    .or_else(|_| text.parse::<f64>().map(Value::Real))
                    .unwrap_or_else(|_| Value::Text(text.as_str().into())),
                (Some(text), false) => Value::Text(text.as_str().into()),
            })
            .collect();
        Ok((statement.clone(), values))
    }

    /// `DEALLOCATE name` (every one for `None`).
    pub(super) fn deallocate(&mut self, name: Option<&str>) {
        match name {
            Some(name) => {
                self.prepared.0.remove(name);
            }
            None => self.prepared.0.clear(),
        }
    }
}
