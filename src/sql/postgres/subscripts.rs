//! Subscripts: `a[i]` and `a[i:j]` of an array, read as PostgreSQL reads
//! them (from 1, a slice an array, out of range NULL), and of a value
//! litewire does not type (a catalog's vector, `pg_index.indkey[0]`),
//! left to SQLite's reading of it with its parts read here.

use sqlparser::ast::{AccessExpr, DataType, Expr, Subscript};

use super::build::call;
use super::errors::Result;
use super::scope::Scope;
use super::translator::{Translator, Typed};
use super::types::PgType;

impl Translator<'_> {
    /// `a[i]`, `a[i:j]`, `(r).f`.
    pub(super) fn access(
        &mut self,
        original: &Expr,
        root: &Expr,
        chain: &[AccessExpr],
        scope: &Scope,
    ) -> Result<Typed> {
        // `t.a[i]`: the column `t.a`, subscripted.
        let qualified;
        let (root, chain) = match (root, chain) {
            (Expr::Identifier(first), [AccessExpr::Dot(Expr::Identifier(column)), rest @ ..]) => {
                qualified = Expr::CompoundIdentifier(vec![first.clone(), column.clone()]);
                (&qualified, rest)
            }
            _ => (root, chain),
        };
        let [AccessExpr::Subscript(subscript)] = chain else {
            return Ok(self.opaque(original));
        };
        let array = self.expr(root, scope)?;
        let PgType::Array(element) = array.ty.clone() else {
            // A value of a type litewire does not know (a catalog's vector):
            // subscripted as SQLite's reading of it does, its parts read.
            return match subscript {
                Subscript::Index { index } if array.ty.is_opaque() => {
                    let index = self.expr(index, scope)?;
                    Ok(Typed::new(
                        Expr::CompoundFieldAccess {
                            root: Box::new(array.expr),
                            access_chain: vec![AccessExpr::Subscript(Subscript::Index {
                                index: index.expr,
                            })],
                        },
                        PgType::Opaque,
                    ))
                }
                _ => Ok(self.opaque(original)),
            };
        };
        let name = array.name.clone();
        let typed = match subscript {
            Subscript::Index { index } => {
                let index = self.expr(index, scope)?;
                let index = self.int_argument(index, "array subscript")?;
                let element_of = call("litewire_array_element", vec![array.expr, index.expr]);
                Typed::new(self.element_value(element_of, &element), *element)
            }
            Subscript::Slice {
                lower_bound,
                upper_bound,
                stride: None,
            } => {
                let mut bound = |b: &Option<Expr>| -> Result<Expr> {
                    match b {
                        Some(b) => {
                            let b = self.expr(b, scope)?;
                            Ok(self.int_argument(b, "array subscript")?.expr)
                        }
                        None => Ok(super::build::null()),
                    }
                };
                let lower = bound(lower_bound)?;
                let upper = bound(upper_bound)?;
                Typed::new(
                    call("litewire_array_slice", vec![array.expr, lower, upper]),
                    PgType::Array(element),
                )
            }
            _ => return Ok(self.opaque(original)),
        };
        Ok(Typed { name, ..typed })
    }

    /// An array element (PostgreSQL's array text) as a value of its type.
    fn element_value(&self, element: Expr, ty: &PgType) -> Expr {
        match ty {
            PgType::Bool => super::build::boolean_read(element),
            PgType::Int2 | PgType::Int4 | PgType::Int8 | PgType::Oid => Expr::Cast {
                kind: sqlparser::ast::CastKind::Cast,
                expr: Box::new(element),
                data_type: DataType::Integer(None),
                format: None,
            },
            PgType::Float4 | PgType::Float8 | PgType::Numeric => Expr::Cast {
                kind: sqlparser::ast::CastKind::Cast,
                expr: Box::new(element),
                data_type: DataType::Real,
                format: None,
            },
            _ => element,
        }
    }
}
