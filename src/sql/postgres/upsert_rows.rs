//! `INSERT ... VALUES (...), (...) ON CONFLICT (k) DO UPDATE`: PostgreSQL
//! refuses (21000) a command that would change one row twice, which two
//! proposed rows sharing a key do (the second would update the row the
//! first inserted or updated); SQLite's upsert changes it twice. So where
//! the rows are a `VALUES` list whose keys are constants or parameters, they
//! go in only where no two non-NULL keys are equal, which a second reading of
//! the keys decides before the first row goes in. A key with a call in it is
//! left unchecked: it could mean something else read twice. Under an update
//! with a `WHERE`, which may leave a row as it was (and another proposed row
//! then may change it), two rows of a key the table does not have yet are
//! refused (the first inserts the row the second would change); two of a key
//! it has are left to the `WHERE`, unchecked.

use sqlparser::ast::{
    ConflictTarget, Expr, Insert, ObjectName, OnConflictAction, OnInsert, Query, SetExpr,
    Statement as Ast, UnaryOperator, Values,
};
use sqlparser::dialect::SQLiteDialect;
use sqlparser::parser::Parser;

use crate::sql::quote::identifier;
use crate::sql::syntax_tree::idents;

/// The rows `values` (read, for the columns `targets` name in order) as a
/// query that refuses two rows of one key, where `insert` is such an upsert
/// and its keys can be read twice; `None` where not.
pub(super) fn refusing_shared_keys(
    insert: &Insert,
    values: &Values,
    targets: &[ObjectName],
) -> Option<Query> {
    let Some(OnInsert::OnConflict(conflict)) = &insert.on else {
        return None;
    };
    let (OnConflictAction::DoUpdate(update), Some(ConflictTarget::Columns { columns, .. })) =
        (&conflict.action, &conflict.conflict_target)
    else {
        return None;
    };
    if values.rows.len() < 2 {
        return None;
    }
    let SetExpr::Values(written) = &*insert.source.as_ref()?.body else {
        return None;
    };
    let positions = columns
        .iter()
        .map(|key| {
            targets.iter().position(|target| {
                idents(target)
                    .last()
                    .is_some_and(|name| name.eq_ignore_ascii_case(&key.value))
            })
        })
        .collect::<Option<Vec<usize>>>()?;
    let constant = written.rows.iter().all(|row| {
        positions
            .iter()
            .all(|&p| row.get(p).is_some_and(is_constant))
    });
    if !constant || positions.is_empty() {
        return None;
    }
    let keys: Vec<String> = (values.rows.iter())
        .map(|row| {
            let key: Vec<String> = positions
                .iter()
                .map(|&p| row.get(p).map_or("NULL".into(), |e| e.to_string()))
                .collect();
            format!("({})", key.join(", "))
        })
        .collect();
    let names: Vec<String> = (1..=positions.len())
        .map(|n| format!("column{n}"))
        .collect();
    let present: Vec<String> = names.iter().map(|n| format!("{n} IS NOT NULL")).collect();
    let new_keys = match update.selection {
        None => String::new(),
        Some(_) => {
            let same: Vec<String> = (columns.iter().zip(&names))
                .map(|(key, name)| format!("t.{} = {name}", identifier(&key.value)))
                .collect();
            format!(
                " AND NOT EXISTS (SELECT 1 FROM {} AS t WHERE {})",
                insert.table,
                same.join(" AND ")
            )
        }
    };
    let sql = format!(
        "SELECT * FROM ({values}) WHERE (SELECT litewire_error('21000', \
         'ON CONFLICT DO UPDATE command cannot affect row a second time') \
         FROM (VALUES {}) WHERE {} GROUP BY {} HAVING count(*) > 1{new_keys}) IS NULL",
        keys.join(", "),
        present.join(" AND "),
        names.join(", ")
    );
    match Parser::parse_sql(&SQLiteDialect {}, &sql).ok()?.pop()? {
        Ast::Query(query) => Some(*query),
        _ => None,
    }
}

/// A value that reads the same each time: a literal, a parameter, either
/// cast or signed.
fn is_constant(expr: &Expr) -> bool {
    match expr {
        Expr::Value(_) | Expr::TypedString(_) => true,
        Expr::Cast { expr, .. } | Expr::Nested(expr) => is_constant(expr),
        Expr::UnaryOp {
            op: UnaryOperator::Minus | UnaryOperator::Plus,
            expr,
        } => is_constant(expr),
        _ => false,
    }
}
