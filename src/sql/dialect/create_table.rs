//! `CREATE TABLE` in SQLite's terms: a `serial` or identity column gets a
//! sequence of its own (see [`super::sequences`]), and is declared `INTEGER`
//! when it is the table's one-column primary key, which makes it SQLite's
//! rowid; expression defaults get the parentheses SQLite requires. `ALTER TABLE ... ADD COLUMN`
//! reads its column the same way (see [`mod@super::alter_table`]).

use sqlparser::ast::{
    ColumnOption, ColumnOptionDef, CreateTable, DataType, Expr, FunctionArguments, GeneratedAs,
    Ident, ObjectName, ObjectNamePart, TableConstraint,
};

use super::replacement::parse_expr;
use super::schemas::{unqualify, unqualify_type};
use super::sequences::{Options, OwnedSequence};
use super::type_names::{respell_for_sqlite, type_name};
use crate::sql::quote::{identifier_as_postgres, literal};
use crate::sql::table_definition::TableDefinition;

/// `CREATE TABLE`: a `serial`/identity column takes its values from a
/// sequence of its own, returned here (see [`super::sequences`]); the table's
/// one-column primary key stays SQLite's rowid alias, whose sequence the
/// PostgreSQL port's INSERTs ask (see `sql::postgres::dml`). Expression defaults are parenthesised as SQLite
/// requires. Returns whether anything changed, and the sequences to create;
/// `None` for identity options that make no sequence.
pub(super) fn create_table(create: &mut CreateTable) -> Option<(bool, Vec<OwnedSequence>)> {
    let mut changed = false;
    let mut owned = Vec::new();
    let table = folded_last(&create.name);
    let table_key: Option<String> = create.constraints.iter().find_map(|c| match c {
        TableConstraint::PrimaryKey(pk) if pk.columns.len() == 1 => {
            match &pk.columns[0].column.expr {
                Expr::Identifier(ident) => Some(folded(ident)),
                _ => None,
            }
        }
        _ => None,
    });
    // SQLite reads a referenced table's qualifier as a database.
    for constraint in &mut create.constraints {
        if let TableConstraint::ForeignKey(key) = constraint {
            changed |= unqualify(&mut key.foreign_table);
        }
    }
    for column in &mut create.columns {
        changed |= unqualify_type(&mut column.data_type);
        changed |= respell_for_sqlite(&mut column.data_type);
        for option in &mut column.options {
            if let ColumnOption::ForeignKey(key) = &mut option.option {
                changed |= unqualify(&mut key.foreign_table);
            }
        }
        let type_lower = type_name(&column.data_type);
        let serial = matches!(
            type_lower.as_str(),
            "serial" | "serial4" | "bigserial" | "serial8" | "smallserial" | "serial2"
        );
        let mut identity = None;
        column.options.retain(|o| match &o.option {
            ColumnOption::Generated {
                generation_expr: None,
                generated_as,
                sequence_options,
                ..
            } => {
                identity = Some((
                    if matches!(generated_as, GeneratedAs::Always) {
                        'a'
                    } else {
                        'd'
                    },
                    sequence_options.clone().unwrap_or_default(),
                ));
                false
            }
            _ => true,
        });
        if serial || identity.is_some() {
            let name = folded(&column.name);
            let primary_key = table_key.as_deref() == Some(name.as_str())
                || column
                    .options
                    .iter()
                    .any(|o| matches!(o.option, ColumnOption::PrimaryKey(_)));
            changed = true;
            let options = match &identity {
                Some((_, options)) => Options::from_ast(options).ok()?,
                None => Options::default(),
            };
            let sequence = OwnedSequence {
                table: table.clone(),
                column: name,
                column_type: type_lower.clone(),
                options,
                identity: identity.as_ref().map(|(kind, _)| *kind),
                named: None,
            };
            // The primary key is the rowid's alias, which SQLite
            // numbers itself (never by its default): declared `INTEGER`,
            // whatever its PostgreSQL type, which its sequence's row
            // keeps (see `engine::catalog::introspect`).
            let integer = match type_lower.as_str() {
                _ if primary_key => Some("INTEGER"),
                "bigserial" | "serial8" => Some("BIGINT"),
                "smallserial" | "serial2" => Some("SMALLINT"),
                _ if serial => Some("INTEGER"),
                _ => None,
            };
            if let Some(integer) = integer {
                column.data_type =
                    DataType::Custom(ObjectName::from(vec![Ident::new(integer)]), vec![]);
            }
            // The name as `regclass` text reads it back: quoted unless
            // it is all lower case.
            let name = identifier_as_postgres(&sequence.name());
            if let Some(default) = parse_expr(&format!("(nextval({}))", literal(&name))) {
                column
                    .options
                    .retain(|o| !matches!(o.option, ColumnOption::Default(_)));
                if !column
                    .options
                    .iter()
                    .any(|o| matches!(o.option, ColumnOption::NotNull))
                {
                    column.options.push(ColumnOptionDef {
                        name: None,
                        option: ColumnOption::NotNull,
                    });
                }
                column.options.push(ColumnOptionDef {
                    name: None,
                    option: ColumnOption::Default(default),
                });
                owned.push(sequence);
            }
        }
        for option in &mut column.options {
            if let ColumnOption::Default(expr) = &mut option.option
                && needs_parentheses(expr)
            {
                *expr = Expr::Nested(Box::new(expr.clone()));
                changed = true;
            }
        }
    }
    Some((changed, owned))
}

/// A name as PostgreSQL reads it: unquoted identifiers fold to lower case.
/// Whether a CHECK of the table is `NO INHERIT`, which SQLite cannot read.
pub(crate) fn has_no_inherit(create: &CreateTable) -> bool {
    let table = create
        .constraints
        .iter()
        .any(|c| matches!(c, TableConstraint::Check(check) if check.no_inherit));
    let columns = create
        .columns
        .iter()
        .flat_map(|c| &c.options)
        .any(|o| matches!(&o.option, ColumnOption::Check(check) if check.no_inherit));
    table || columns
}

/// The printed `CREATE TABLE` with each `NO INHERIT` a mark of its CHECK's
/// text (see `table_definition::Mark`).
pub(super) fn no_inherit_marked(sql: String) -> String {
    TableDefinition::parse(&sql).map_or(sql, |def| def.sql_as_written())
}

pub(super) fn folded(ident: &Ident) -> String {
    match ident.quote_style {
        Some(_) => ident.value.clone(),
        None => ident.value.to_ascii_lowercase(),
    }
}

pub(super) fn folded_last(name: &ObjectName) -> String {
    name.0
        .iter()
        .filter_map(|part| match part {
            ObjectNamePart::Identifier(ident) => Some(folded(ident)),
            ObjectNamePart::Function(_) => None,
        })
        .next_back()
        .unwrap_or_default()
}

fn needs_parentheses(expr: &Expr) -> bool {
    match expr {
        Expr::Value(_) | Expr::Nested(_) | Expr::Identifier(_) => false,
        Expr::UnaryOp { expr, .. } => needs_parentheses(expr),
        Expr::Function(f) => !matches!(f.args, FunctionArguments::None),
        _ => true,
    }
}
