//! Describing without running: a statement's result columns (declared types
//! first, then inferred ones) and its parameters' types (from the hints the
//! statement's shape gives, resolved against the schema).

use std::sync::Arc;

use super::state::{Session, TransactionState};
use crate::engine::catalog;
use crate::engine::commands;
use crate::engine::declared_columns::declared;
use crate::engine::direct;
use crate::engine::exec;
use crate::engine::result::Column;
use crate::error::Error;
use crate::sql::postgres::Catalog as _;
use crate::sql::{CursorCommand, ParamHint, Plan, Statement, relations};

/// PostgreSQL's varchar, which its operators take as text.
const VARCHAR_OID: i64 = 1043;

impl Session {
    /// The result columns `stmt` would produce, without running it.
    pub async fn describe(&mut self, stmt: &Statement) -> Result<Arc<Vec<Column>>, Error> {
        if !stmt.returns_rows {
            return Ok(Arc::new(Vec::new()));
        }
        if let Plan::Cursor(command) = &stmt.plan {
            return match &**command {
                CursorCommand::Fetch { name, .. } => self.named_cursors.columns(name),
                _ => Ok(Arc::new(Vec::new())),
            };
        }
        if let Plan::Session(command) = &stmt.plan {
            // `SHOW`: its columns are those of its answer, which changes nothing.
            let in_transaction = self.state != TransactionState::Idle;
            let mut settings = self.settings.snapshot();
            let result = commands::run(&mut settings, in_transaction, command, stmt.kind)?;
            return Ok(result.columns);
        }
        if let Plan::Staged(staged) = &stmt.plan {
            return Box::pin(self.describe_staged(stmt, staged)).await;
        }
        if stmt.catalog {
            // The catalog's tables must exist for SQLite to prepare the statement.
            Box::pin(self.prepare_catalog(stmt)).await?;
        }
        let (handle, statements) = self.held().await?.direct().await?;
        let parameters = stmt.param_count > 0;
        let described = direct::describe(handle, statements, &stmt.sql, parameters).await;
        let mut columns = described.map_err(|error| self.explain(error))?;
        if let Some(types) = &stmt.column_types {
            columns = declared(&columns, types);
        }
        if columns.iter().any(|c| c.decltype.is_none()) {
            // The inference may run a query's first step: no sequence may
            // advance for it (see `sequences`).
            let describing = (
                self.sequence_values.describing(),
                self.settings.describing(),
            );
            let conn = self.connection().await?;
            exec::infer_expression_types(conn, stmt, &mut columns).await;
            drop(describing);
        }
        Ok(Arc::new(columns))
    }

    /// The declared type of each parameter, resolving `hints` (from
    /// [`crate::sql::param_hints`]) against the schema; an array's is its
    /// element's with `[]` appended.
    pub async fn describe_params(
        &mut self,
        hints: Vec<Option<ParamHint>>,
    ) -> Result<Vec<Option<Arc<str>>>, Error> {
        let mut types = Vec::with_capacity(hints.len());
        for mut hint in hints {
            let (mut dimensions, mut operand) = (0, false);
            let hint = loop {
                match hint {
                    Some(ParamHint::ArrayOf(element)) => {
                        dimensions += 1;
                        hint = Some(*element);
                    }
                    Some(ParamHint::Operand(beside)) => {
                        operand = true;
                        hint = Some(*beside);
                    }
                    other => break other,
                }
            };
            let declared = match hint {
                Some(hint) => self.declared_type_of(hint).await?,
                None => None,
            };
            // PostgreSQL's operators take a varchar as text.
            let declared = match declared {
                Some(decl) if operand && catalog::type_oid(&decl) == VARCHAR_OID => {
                    Some(Arc::from("text"))
                }
                other => other,
            };
            types.push(declared.map(|name| match dimensions {
                0 => name,
                n => Arc::from(format!("{name}{}", "[]".repeat(n))),
            }));
        }
        Ok(types)
    }

    pub(super) async fn declared_type_of(
        &mut self,
        hint: ParamHint,
    ) -> Result<Option<Arc<str>>, Error> {
        let engine = self.engine.clone();
        Ok(match hint {
            ParamHint::Declared(name) => Some(Arc::from(name)),
            ParamHint::Column { tables, column } => {
                // The catalog's relations are declared in one list, and need
                // not exist on this connection yet.
                let catalog_type = tables.iter().find_map(|table| {
                    relations::find(&table.to_ascii_lowercase())?.column_type(&column)
                });
                if let Some(declared) = catalog_type {
                    return Ok(Some(Arc::from(declared)));
                }
                let conn = self.connection().await?;
                let mut found = None;
                for table in &tables {
                    found = engine.declared_types.decltype(conn, table, &column).await?;
                    if found.is_some() {
                        break;
                    }
                }
                found
            }
            ParamHint::Position { table, index } => {
                let conn = self.connection().await?;
                engine
                    .declared_types
                    .insertable_decltype(conn, &table, index)
                    .await?
            }
            ParamHint::FunctionArgument { name, arity, index } => {
                let schema = self.schema().await?;
                let found = (schema.functions().iter())
                    .find(|f| f.name.eq_ignore_ascii_case(&name) && f.args.len() == arity);
                found
                    .and_then(|f| f.args.get(index))
                    .and_then(|(_, ty)| ty.name())
                    .map(Arc::from)
            }
            // Unwrapped by the caller.
            ParamHint::ArrayOf(_) | ParamHint::Operand(_) => None,
        })
    }
}
