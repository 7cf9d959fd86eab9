//! Schemas: litewire has one, `public`, and its catalog relations are tables of
//! each connection, so a relation qualified with `public.` or `pg_catalog.` is
//! the relation itself, and `information_schema.x` is the table
//! `information_schema_x`.

use sqlparser::ast::{DataType, Ident, ObjectName, ObjectNamePart};

use crate::sql::syntax_tree::idents;

/// Whether `part`, the schema of a qualified name, names `schema`.
pub(super) fn is_schema(part: &str, schema: &str) -> bool {
    part.eq_ignore_ascii_case(schema)
}

/// The relation `schema.relation` is here: `None` for a schema litewire does
/// not have.
pub(super) fn relation_in_schema(schema: &str, relation: &Ident) -> Option<Ident> {
    if is_schema(schema, "information_schema") {
        Some(Ident::new(format!("information_schema_{}", relation.value)))
    } else if is_schema(schema, "pg_catalog") || is_schema(schema, "public") {
        Some(relation.clone())
    } else {
        None
    }
}

/// `name` without a schema that is litewire's own (`public.t`, `"public"."t"`
/// name `t`): whether it had one. SQLite reads a qualifier as a database.
pub(super) fn unqualify(name: &mut ObjectName) -> bool {
    // The relation's identifier as written: quoted, it keeps its quotes.
    let renamed = match (idents(name).as_slice(), name.0.last()) {
        ([schema, _], Some(ObjectNamePart::Identifier(relation))) => {
            relation_in_schema(schema, relation)
        }
        _ => None,
    };
    match renamed {
        Some(relation) => {
            *name = ObjectName::from(vec![relation]);
            true
        }
        None => false,
    }
}

/// A type named with a schema that is litewire's own (`public.mood`,
/// `pg_catalog.int4`) named without it: whether it had one.
pub(super) fn unqualify_type(data_type: &mut DataType) -> bool {
    match data_type {
        DataType::Custom(name, _) => match idents(name).as_slice() {
            [schema, _] if is_schema(schema, "public") || is_schema(schema, "pg_catalog") => {
                let last = name.0.pop();
                name.0 = last.into_iter().collect();
                true
            }
            _ => false,
        },
        DataType::Array(sqlparser::ast::ArrayElemTypeDef::SquareBracket(inner, _))
        | DataType::Array(sqlparser::ast::ArrayElemTypeDef::AngleBracket(inner)) => {
            unqualify_type(inner)
        }
        _ => false,
    }
}
