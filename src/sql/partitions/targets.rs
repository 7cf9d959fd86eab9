//! An INSERT, UPDATE or DELETE aimed at a partition, run on the root's
//! table (where the partition's rows are, see the module's docs) with the
//! partition's condition: a DELETE or UPDATE reaches only the partition's
//! rows, and a row an INSERT or UPDATE leaves outside the partition is
//! refused as PostgreSQL refuses it (23514). The statement is written again
//! as PostgreSQL text, which the translation then reads as any other.

use std::ops::ControlFlow;

use sqlparser::ast::{
    AssignmentTarget, Expr, FromTable, Ident, ObjectName, Query, SetExpr, Statement, TableAlias,
    TableAliasWithoutColumns, TableFactor, TableObject, visit_expressions_mut,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::tree::Tree;
use crate::error::{Error, SqlState};
use crate::sql::classify::CommandKind;
use crate::sql::postgres::{Catalog, PartitionNode, RelColumn};
use crate::sql::quote::{identifier_as_postgres, literal};
use crate::sql::syntax_tree::folded_last;

/// `text` written against the root where it changes a partition, and with
/// the oids its `tableoid`s stand for (see `table_oids`); `None` where it
/// needs neither.
pub(in crate::sql) fn rewrite(
    text: &str,
    kind: CommandKind,
    catalog: &dyn Catalog,
) -> Result<Option<String>, Error> {
    let changes = matches!(
        kind,
        CommandKind::Insert | CommandKind::Update | CommandKind::Delete
    ) && !catalog.partitions().is_empty();
    let oids = matches!(
        kind,
        CommandKind::Select | CommandKind::Insert | CommandKind::Update | CommandKind::Delete
    ) && text
        .as_bytes()
        .windows(8)
        .any(|w| w.eq_ignore_ascii_case(b"tableoid"));
    if !changes && !oids {
        return Ok(None);
    }
    let Ok(mut parsed) = Parser::parse_sql(&PostgreSqlDialect {}, text) else {
        return Ok(None);
    };
    let [ast] = parsed.as_mut_slice() else {
        return Ok(None);
    };
    let retargeted = changes && retarget(ast, catalog)?;
    let replaced = oids && super::table_oids::replace(ast, catalog);
    Ok((retargeted || replaced).then(|| ast.to_string()))
}

/// The statement run against the root where it changes a partition;
/// whether it does.
fn retarget(ast: &mut Statement, catalog: &dyn Catalog) -> Result<bool, Error> {
    let changed = match ast {
        Statement::Insert(insert) => {
            let TableObject::TableName(name) = &insert.table else {
                return Ok(false);
            };
            let Some(target) = Target::of(name, catalog) else {
                return Ok(false);
            };
            let alias = insert.table_alias.as_ref().map(|a| a.alias.clone());
            let columns: Vec<String> = match insert.columns.is_empty() {
                true => target
                    .columns
                    .iter()
                    .filter(|c| !c.generated)
                    .map(|c| c.name.clone())
                    .collect(),
                false => insert.columns.iter().map(folded_last).collect(),
            };
            let Some(source) = insert.source.take() else {
                return Err(Error::not_supported(
                    "INSERT ... DEFAULT VALUES into a partition",
                ));
            };
            insert.source = Some(Box::new(target.checked_rows(&source, &columns)?));
            insert.columns = columns
                .iter()
                .map(|c| ObjectName::from(vec![ident(c)]))
                .collect();
            insert.table = TableObject::TableName(target.root_name());
            if alias.is_none() && (insert.returning.is_some() || insert.on.is_some()) {
                insert.table_alias = Some(TableAliasWithoutColumns {
                    explicit: true,
                    alias: ident(&target.written),
                });
            }
            true
        }
        Statement::Update(update) => {
            let TableFactor::Table { name, alias, .. } = &mut update.table.relation else {
                return Ok(false);
            };
            let Some(target) = Target::of(name, catalog) else {
                return Ok(false);
            };
            let alias_name = target.aliased(name, alias);
            update.selection = Some(target.restricted(update.selection.take(), &alias_name)?);
            target.check_assignments(&mut update.assignments, &alias_name)?;
            true
        }
        Statement::Delete(delete) => {
            let (FromTable::WithFromKeyword(from) | FromTable::WithoutKeyword(from)) =
                &mut delete.from;
            let Some(TableFactor::Table { name, alias, .. }) =
                from.first_mut().map(|t| &mut t.relation)
            else {
                return Ok(false);
            };
            let Some(target) = Target::of(name, catalog) else {
                return Ok(false);
            };
            let alias_name = target.aliased(name, alias);
            delete.selection = Some(target.restricted(delete.selection.take(), &alias_name)?);
            true
        }
        _ => false,
    };
    Ok(changed)
}

fn ident(name: &str) -> Ident {
    match name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        true => Ident::new(name),
        false => Ident::with_quote('"', name),
    }
}

/// The partition a statement changes.
struct Target {
    /// The partition's name as the statement wrote it (its last part).
    written: String,
    partition: String,
    root: String,
    /// The rows' condition, PostgreSQL text over the root's bare columns.
    condition: Expr,
    columns: Vec<RelColumn>,
}

impl Target {
    fn of(name: &ObjectName, catalog: &dyn Catalog) -> Option<Target> {
        let partition = folded_last(name);
        let tree = Tree::of(catalog.partitions(), &partition)?;
        let root = tree.root().name.clone();
        if root.eq_ignore_ascii_case(&partition) {
            return None;
        }
        let keys = |node: &PartitionNode| node.key.clone();
        let condition = Parser::new(&PostgreSqlDialect {})
            .try_with_sql(&tree.condition(&partition, &keys))
            .and_then(|mut p| p.parse_expr())
            .ok()?;
        let columns = catalog.relation(&root)?.columns;
        Some(Target {
            written: partition.clone(),
            partition: tree.node(&partition)?.name.clone(),
            root,
            condition,
            columns,
        })
    }

    fn root_name(&self) -> ObjectName {
        ObjectName::from(vec![ident(&self.root)])
    }

    fn refusal(&self) -> String {
        format!(
            "litewire_error('23514', {})",
            literal(&format!(
                "new row for relation \"{}\" violates partition constraint",
                self.partition
            ))
        )
    }

    /// The statement's table becomes the root, under the partition's name
    /// unless it had an alias; the name its columns are read by.
    fn aliased(&self, name: &mut ObjectName, alias: &mut Option<TableAlias>) -> String {
        *name = self.root_name();
        match alias {
            Some(alias) => alias.name.value.clone(),
            None => {
                *alias = Some(TableAlias {
                    explicit: true,
                    name: ident(&self.written),
                    columns: Vec::new(),
                    at: None,
                });
                self.written.clone()
            }
        }
    }

    fn is_column(&self, name: &str) -> bool {
        self.columns
            .iter()
            .any(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// The condition with each bare column `replace` gives an expression for
    /// replaced.
    fn condition_with(&self, replace: &dyn Fn(&str) -> Option<Expr>) -> Expr {
        let mut condition = self.condition.clone();
        let _ = visit_expressions_mut(&mut condition, |e| {
            if let Expr::Identifier(ident) = e
                && let Some(new) = replace(&ident.value.to_ascii_lowercase())
            {
                *e = new;
            }
            ControlFlow::<()>::Continue(())
        });
        condition
    }

    fn qualified(&self, alias: &str, column: &str) -> Option<Expr> {
        self.is_column(column)
            .then(|| Expr::CompoundIdentifier(vec![ident(alias), ident(column)]))
    }

    /// `selection AND` the partition's condition.
    fn restricted(&self, selection: Option<Expr>, alias: &str) -> Result<Expr, Error> {
        let condition = self.condition_with(&|c| self.qualified(alias, c));
        Ok(match selection {
            Some(selection) => Expr::BinaryOp {
                left: Box::new(Expr::Nested(Box::new(selection))),
                op: sqlparser::ast::BinaryOperator::And,
                right: Box::new(Expr::Nested(Box::new(condition))),
            },
            None => condition,
        })
    }

    /// The INSERT's rows, each checked against the partition's condition
    /// (columns it leaves out read as their defaults).
    fn checked_rows(&self, source: &Query, columns: &[String]) -> Result<Query, Error> {
        let given = |c: &str| columns.iter().any(|g| g.eq_ignore_ascii_case(c));
        let condition = self.condition_with(&|c| match given(c) {
            true => None,
            false => Some(self.default_of(c)),
        });
        // A VALUES list's literals take the columns' types, as they would
        // in the INSERT itself.
        let values = matches!(*source.body, SetExpr::Values(_));
        let items: Vec<String> = columns
            .iter()
            .map(|c| {
                let read = format!("litewire_new.{}", identifier_as_postgres(c));
                let ty = self
                    .columns
                    .iter()
                    .find(|col| col.name.eq_ignore_ascii_case(c))
                    .and_then(|col| col.ty.name());
                match (values, ty) {
                    (true, Some(ty)) => format!("{read}::{ty}"),
                    _ => read,
                }
            })
            .collect();
        let names: Vec<String> = columns.iter().map(|c| identifier_as_postgres(c)).collect();
        let sql = format!(
            "SELECT {} FROM ({source}) AS litewire_new ({}) WHERE CASE WHEN {condition} THEN true ELSE {} END",
            items.join(", "),
            names.join(", "),
            self.refusal()
        );
        Parser::new(&PostgreSqlDialect {})
            .try_with_sql(&sql)
            .and_then(|mut p| p.parse_query())
            .map(|q| *q)
            .map_err(|e| Error::state(SqlState::SYNTAX_ERROR, e.to_string()))
    }

    /// A column's default as an expression (NULL where it has none or one
    /// not written as PostgreSQL reads it).
    fn default_of(&self, column: &str) -> Expr {
        self.columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(column))
            .and_then(|c| c.default.as_deref())
            .and_then(|d| {
                Parser::new(&PostgreSqlDialect {})
                    .try_with_sql(d)
                    .and_then(|mut p| p.parse_expr())
                    .ok()
            })
            .unwrap_or(Expr::Value(sqlparser::ast::Value::Null.into()))
    }

    /// An UPDATE that sets a column of the partition's condition keeps its
    /// rows in the partition: the first assignment refuses a row the new
    /// values would move out.
    fn check_assignments(
        &self,
        assignments: &mut [sqlparser::ast::Assignment],
        alias: &str,
    ) -> Result<(), Error> {
        let mut set = Vec::new();
        for assignment in assignments.iter() {
            match &assignment.target {
                AssignmentTarget::ColumnName(name) => {
                    set.push((folded_last(name), assignment.value.clone()))
                }
                AssignmentTarget::Tuple(names) => {
                    if names.iter().any(|n| self.mentions(&folded_last(n))) {
                        return Err(Error::not_supported(
                            "a multiple-column assignment to a partition's key",
                        ));
                    }
                }
            }
        }
        if !set.iter().any(|(c, _)| self.mentions(c)) {
            return Ok(());
        }
        let condition = self.condition_with(&|c| match set.iter().find(|(s, _)| s == c) {
            Some((_, value)) => Some(Expr::Nested(Box::new(value.clone()))),
            None => self.qualified(alias, c),
        });
        let Some(first) = assignments
            .iter_mut()
            .find(|a| matches!(a.target, AssignmentTarget::ColumnName(_)))
        else {
            return Ok(());
        };
        let AssignmentTarget::ColumnName(name) = &first.target else {
            return Ok(());
        };
        let ty = self
            .columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(&folded_last(name)))
            .and_then(|c| c.ty.name());
        let value = match ty {
            Some(ty) => format!("({})::{ty}", first.value),
            None => format!("({})", first.value),
        };
        let sql = format!(
            "CASE WHEN {condition} THEN {value} ELSE {} END",
            self.refusal()
        );
        first.value = Parser::new(&PostgreSqlDialect {})
            .try_with_sql(&sql)
            .and_then(|mut p| p.parse_expr())
            .map_err(|e| Error::state(SqlState::SYNTAX_ERROR, e.to_string()))?;
        Ok(())
    }

    /// Whether the condition reads `column`.
    fn mentions(&self, column: &str) -> bool {
        let mut found = false;
        let mut condition = self.condition.clone();
        let _ = visit_expressions_mut(&mut condition, |e| {
            if let Expr::Identifier(ident) = e
                && ident.value.eq_ignore_ascii_case(column)
            {
                found = true;
            }
            ControlFlow::<()>::Continue(())
        });
        found
    }
}
