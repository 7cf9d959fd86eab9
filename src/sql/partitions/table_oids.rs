//! The system column `tableoid` of the user's relations: the oid of the
//! relation a row is stored in. Of a table it is the table's oid; of a
//! partitioned table, the oid of the partition whose condition the row meets
//! (its rows are the root's, see the module's docs). PostgreSQL reserves the
//! name, so no column of the user's is called so.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, Ident, Query, SelectItem, SetExpr, Statement, TableFactor, Visit, VisitMut, Visitor,
    VisitorMut,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::tree::Tree;
use crate::sql::postgres::{Catalog, PartitionNode};
use crate::sql::quote::{identifier_as_postgres, literal};
use crate::sql::syntax_tree::folded_last;

/// The relations a statement reads, each with the name its columns are read
/// by (its alias, or its own name).
#[derive(Default)]
struct Relations(Vec<(String, String)>);

impl Visitor for Relations {
    type Break = ();

    fn pre_visit_statement(&mut self, statement: &Statement) -> ControlFlow<()> {
        if let Statement::Insert(insert) = statement
            && let sqlparser::ast::TableObject::TableName(name) = &insert.table
        {
            let stored = folded_last(name);
            let by =
                (insert.table_alias.as_ref()).map_or(stored.clone(), |a| a.alias.value.clone());
            self.0.push((stored, by));
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_table_factor(&mut self, factor: &TableFactor) -> ControlFlow<()> {
        if let TableFactor::Table {
            name,
            alias,
            args: None,
            ..
        } = factor
        {
            let stored = folded_last(name);
            let by = alias
                .as_ref()
                .map_or(stored.clone(), |a| a.name.value.clone());
            self.0.push((stored, by));
        }
        ControlFlow::Continue(())
    }
}

struct Replace<'a> {
    relations: Vec<(String, String)>,
    catalog: &'a dyn Catalog,
    changed: bool,
}

/// Whether `expr` is the column `tableoid`, cast or not: the name
/// PostgreSQL gives its result column.
fn names_tableoid(expr: &Expr) -> bool {
    match expr {
        Expr::Identifier(i) => i.value.eq_ignore_ascii_case("tableoid"),
        Expr::CompoundIdentifier(parts) => parts
            .last()
            .is_some_and(|i| i.value.eq_ignore_ascii_case("tableoid")),
        Expr::Cast { expr, .. } | Expr::Nested(expr) => names_tableoid(expr),
        _ => false,
    }
}

/// Each item that is `tableoid` keeps that name once it is replaced.
fn named(items: &mut [SelectItem]) {
    for item in items {
        if let SelectItem::UnnamedExpr(expr) = item
            && names_tableoid(expr)
        {
            *item = SelectItem::ExprWithAlias {
                expr: expr.clone(),
                alias: Ident::new("tableoid"),
            };
        }
    }
}

impl VisitorMut for Replace<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        if let SetExpr::Select(select) = &mut *query.body {
            named(&mut select.projection);
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_statement(&mut self, statement: &mut Statement) -> ControlFlow<()> {
        let returning = match statement {
            Statement::Insert(insert) => &mut insert.returning,
            Statement::Update(update) => &mut update.returning,
            Statement::Delete(delete) => &mut delete.returning,
            _ => return ControlFlow::Continue(()),
        };
        if let Some(items) = returning {
            named(items);
        }
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        let by = match expr {
            Expr::Identifier(i) if i.value.eq_ignore_ascii_case("tableoid") => None,
            Expr::CompoundIdentifier(parts)
                if parts.len() == 2 && parts[1].value.eq_ignore_ascii_case("tableoid") =>
            {
                Some(parts[0].value.clone())
            }
            _ => return ControlFlow::Continue(()),
        };
        let mut user = self.relations.iter().filter(|(stored, name)| {
            self.catalog.relation(stored).is_some()
                && by.as_ref().is_none_or(|by| by.eq_ignore_ascii_case(name))
        });
        // A bare `tableoid` is the one relation's.
        if let (Some((stored, name)), None) = (user.next(), user.next())
            && let Some(oid) = oid_of(stored, name, self.catalog)
        {
            *expr = oid;
            self.changed = true;
        }
        ControlFlow::Continue(())
    }
}

/// The oid of the relation a row of `stored` (read by `name`) is in.
fn oid_of(stored: &str, name: &str, catalog: &dyn Catalog) -> Option<Expr> {
    let oid = |relation: &str| {
        format!(
            "{}::regclass::oid",
            literal(&identifier_as_postgres(relation))
        )
    };
    let sql = match Tree::of(catalog.partitions(), stored) {
        Some(tree) if tree.node(stored).is_some_and(|n| n.strategy.is_some()) => {
            let keys = |node: &PartitionNode| node.key.clone();
            let partitions: Vec<String> = tree
                .subtree(stored)
                .iter()
                .filter(|n| tree.node(n).is_some_and(|n| n.strategy.is_none()))
                .map(|leaf| format!("WHEN {} THEN {}", tree.condition(leaf, &keys), oid(leaf)))
                .collect();
            match partitions.is_empty() {
                true => "NULL::oid".to_owned(),
                false => format!("CASE {} END", partitions.join(" ")),
            }
        }
        _ => oid(stored),
    };
    let mut expr = Parser::new(&PostgreSqlDialect {})
        .try_with_sql(&sql)
        .and_then(|mut p| p.parse_expr())
        .ok()?;
    // The condition's columns are the relation's, read by its name here.
    let _ = sqlparser::ast::visit_expressions_mut(&mut expr, |e| {
        if let Expr::Identifier(column) = e {
            *e = Expr::CompoundIdentifier(vec![
                sqlparser::ast::Ident::with_quote('"', name),
                column.clone(),
            ]);
        }
        ControlFlow::<()>::Continue(())
    });
    Some(expr)
}

/// `ast` with its `tableoid`s of the user's relations as their oids;
/// whether it had any.
pub(super) fn replace(ast: &mut Statement, catalog: &dyn Catalog) -> bool {
    let mut relations = Relations::default();
    let _ = Visit::visit(&*ast, &mut relations);
    let mut replace = Replace {
        relations: relations.0,
        catalog,
        changed: false,
    };
    let _ = VisitMut::visit(ast, &mut replace);
    replace.changed
}
