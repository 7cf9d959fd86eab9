//! A query's result columns as the query around it sees them (a subquery's,
//! a `WITH` query's, a set operation's sides) and as the client is told of
//! them.

use super::errors::Result;
use super::scope::ScopeColumn;
use super::translator::{OutputColumn, Typed, Untyped};
use super::types::{Modifier, PgType};

/// One result column of a query, as the query around it sees it.
#[derive(Debug, Clone)]
pub(super) struct QueryColumn {
    pub(super) name: String,
    pub(super) ty: PgType,
    /// PostgreSQL gave it a real name (not `?column?`, not a fallback).
    pub(super) named: bool,
    /// It reads a column as it is (its declared type stands).
    pub(super) column: bool,
    /// The modifier of the column it reads as it is.
    pub(super) modifier: Option<Modifier>,
    pub(super) not_null: bool,
    /// An untyped literal or NULL, which a set operation reads as the other
    /// side's type.
    pub(super) untyped: Option<Untyped>,
    /// A numeric's display scale, where the query fixes it (see
    /// `Typed::scale`).
    pub(super) scale: Option<u32>,
}

impl QueryColumn {
    pub(super) fn of(typed: &Typed, name: String) -> QueryColumn {
        QueryColumn {
            named: typed
                .name
                .as_ref()
                .is_some_and(|(_, strength)| *strength == 2),
            name,
            ty: typed.ty.clone(),
            column: typed.column.as_ref().is_some_and(|c| c.declared),
            modifier: typed.column.as_ref().and_then(|c| c.modifier),
            not_null: typed.column.as_ref().is_some_and(|c| c.not_null),
            untyped: typed.untyped.clone(),
            scale: typed.scale.filter(|_| typed.ty == PgType::Numeric),
        }
    }

    pub(super) fn scope_column(&self) -> ScopeColumn {
        ScopeColumn {
            not_null: self.not_null,
            declared: self.column,
            modifier: self.modifier,
            scale: self.scale,
            ..ScopeColumn::new(self.name.clone(), self.read_type())
        }
    }

    /// Its type to a query reading it: an untyped literal's column is text.
    pub(super) fn read_type(&self) -> PgType {
        match self.ty {
            PgType::Unknown => PgType::Text,
            _ => self.ty.clone(),
        }
    }

    /// As the client is told of it.
    pub(super) fn output(&self) -> OutputColumn {
        OutputColumn {
            name: self.name.clone(),
            ty: match self.column || self.ty.is_opaque() || self.ty == PgType::Unknown {
                true => None,
                false => Some(self.ty.clone()),
            },
            opaque: !self.column && self.ty.is_opaque(),
            pg_type: self.ty.clone(),
            modifier: self.modifier,
        }
    }
}

/// A `WITH` query's columns under the names its column list gives them (the
/// first ones, for a shorter list); 42P10 for a list longer than the columns.
pub(super) fn renamed(
    query: &str,
    columns: &[QueryColumn],
    renamed: &[String],
) -> Result<Vec<ScopeColumn>> {
    if renamed.len() > columns.len() {
        return Err(super::errors::more_names_than_columns(
            query,
            columns.len(),
            renamed.len(),
        ));
    }
    Ok(columns
        .iter()
        .enumerate()
        .map(|(i, c)| ScopeColumn {
            not_null: c.not_null,
            ..ScopeColumn::new(
                renamed.get(i).cloned().unwrap_or_else(|| c.name.clone()),
                c.read_type(),
            )
        })
        .collect())
}
