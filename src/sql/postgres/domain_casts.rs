//! A value cast to a domain (`x::posint`): cast to the domain's base type,
//! then held to the domain's rules as PostgreSQL holds it, failing with
//! 23502 for a NULL the domain does not allow and 23514 naming the CHECK a
//! value breaks.

use std::ops::ControlFlow;

use sqlparser::ast::{DataType, Expr, Ident, visit_expressions_mut};

use super::build::{call, case_when, nested, not, null, string};
use super::casts::CastContext;
use super::catalog::Domain;
use super::errors::{Fail, Result};
use super::scope::{Item, Scope, ScopeColumn};
use super::translator::{Translator, Typed};
use super::types::PgType;
use crate::sql::domains::{domain_of, on_value};

/// The name the domain's value has while its CHECKs are read.
const VALUE: &str = "litewire_domain_value";

impl Translator<'_> {
    /// The domain `data_type` names, if it is one of the catalog's.
    pub(super) fn domain_named(&self, data_type: &DataType) -> Option<Domain> {
        domain_of(data_type, self.catalog).cloned()
    }

    /// `value::domain`.
    pub(super) fn domain_cast(&mut self, value: Typed, domain: &Domain) -> Result<Typed> {
        let base = PgType::from_name(&domain.base).unwrap_or(PgType::Opaque);
        let name = value.name.clone();
        let cast = self.cast(value, &base, CastContext::Explicit)?;
        let scope = Scope {
            items: vec![Item {
                name: "litewire_domain".to_owned(),
                columns: vec![ScopeColumn::new(VALUE, base.clone())],
                open: false,
            }],
            ..Scope::default()
        };
        let placeholder = Expr::Identifier(Ident::new(VALUE));
        let mut conditions = Vec::new();
        for (check, condition) in &domain.checks {
            let written = on_value(condition, &placeholder).map_err(Fail::Pg)?;
            let mut read = self.condition(&written, &scope, "CHECK")?;
            let _ = visit_expressions_mut(&mut read, |e| {
                let is_value = match e {
                    Expr::Identifier(ident) => ident.value == VALUE,
                    Expr::CompoundIdentifier(parts) => {
                        parts.last().is_some_and(|ident| ident.value == VALUE)
                    }
                    _ => false,
                };
                if is_value {
                    *e = nested(cast.expr.clone());
                }
                ControlFlow::<()>::Continue(())
            });
            conditions.push((check.clone(), read));
        }
        let failure = |state: &str, message: String| {
            call("litewire_error", vec![string(state), string(&message)])
        };
        let on_null = match domain.not_null {
            true => failure(
                "23502",
                format!("domain {} does not allow null values", domain.name),
            ),
            false => null(),
        };
        let mut whens = vec![(Expr::IsNull(Box::new(nested(cast.expr.clone()))), on_null)];
        for (check, condition) in conditions {
            whens.push((
                not(condition),
                failure(
                    "23514",
                    format!(
                        "value for domain {} violates check constraint \"{check}\"",
                        domain.name
                    ),
                ),
            ));
        }
        let expr = case_when(whens, nested(cast.expr));
        Ok(Typed {
            name,
            ..Typed::new(expr, base)
        })
    }
}
