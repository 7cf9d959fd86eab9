//! `ALTER TABLE` forms SQLite has no statement for (`ADD CONSTRAINT`, `DROP
//! CONSTRAINT`, `ALTER COLUMN ... TYPE`, `SET/DROP NOT NULL`, `SET/DROP
//! DEFAULT`, `RENAME CONSTRAINT`, a column `ADD COLUMN` cannot add, several
//! actions at once), read into the plan the engine rebuilds the table by (see
//! `engine::rebuild`). Expressions (defaults, `USING`, `CHECK`) are translated
//! as in any other statement.
//!
//! `DROP COLUMN` is a rebuild too: SQLite's own refuses a column an index or a
//! constraint uses, which PostgreSQL drops with it.
//!
//! What SQLite does itself stays with SQLite: `RENAME TO`, `RENAME COLUMN`, an
//! `ADD COLUMN` it can add, and a lone `ADD PRIMARY KEY`,
//! which becomes a unique index named as the key (see `translate`: pgbench's
//! setup adds its keys that way to tables already full; the catalog shows the
//! index as the table's primary key).

use sqlparser::ast::{
    AlterColumnOperation, AlterTableOperation, NullsDistinctOption, Statement as Ast,
    TableConstraint, VisitMut,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::create_table::{create_table, folded, folded_last};
use super::rebuild_plan::{AlterAction, AlterTable};
use super::rewriter::Rewriter;
use super::schemas::unqualify;
use super::sequences::owned_sequences;
use super::type_names::respell_for_sqlite;
use crate::error::{Error, ErrorKind};
use crate::sql::lexer::Token;
use crate::sql::quote::{identifier, unquote_identifier};
use crate::sql::table_definition::{Column, Constraint, Mark, TableDefinition};

/// `ALTER TABLE [IF EXISTS] t ALTER CONSTRAINT c [NOT] DEFERRABLE [INITIALLY
/// DEFERRED|IMMEDIATE]`, which sqlparser does not read; `None` for any other
/// `ALTER TABLE`.
fn alter_constraint(sql: &str, tokens: &[Token]) -> Result<Option<AlterTable>, Error> {
    let is = |i: usize, kw: &str| tokens.get(i).is_some_and(|t| t.is_keyword(sql, kw));
    let name = |i: usize| {
        tokens.get(i).map(|t| {
            let text = t.text(sql);
            match text.starts_with('"') {
                true => unquote_identifier(text),
                false => text.to_ascii_lowercase(),
            }
        })
    };
    let mut at = 2;
    let if_exists = is(2, "IF") && is(3, "EXISTS");
    if if_exists {
        at = 4;
    }
    // The table's name: its last part, if qualified.
    let mut table_at = at;
    while tokens.get(table_at + 1).is_some_and(|t| t.text(sql) == ".") {
        table_at += 2;
    }
    at = table_at + 1;
    if !(is(at, "ALTER") && is(at + 1, "CONSTRAINT")) {
        return Ok(None);
    }
    let (Some(table), Some(constraint)) = (name(table_at), name(at + 2)) else {
        return Ok(None);
    };
    let (mut deferrable, mut deferred) = (false, false);
    let mut i = at + 3;
    while i < tokens.len() {
        if is(i, "DEFERRABLE") {
            deferrable = true;
            i += 1;
        } else if is(i, "NOT") && is(i + 1, "DEFERRABLE") {
            i += 2;
        } else if is(i, "INITIALLY") && (is(i + 1, "DEFERRED") || is(i + 1, "IMMEDIATE")) {
            deferred = is(i + 1, "DEFERRED");
            i += 2;
        } else if tokens[i].text(sql) == ";" {
            i += 1;
        } else {
            return Err(Error::new(
                ErrorKind::Syntax,
                format!("syntax error at or near \"{}\"", tokens[i].text(sql)),
            ));
        }
    }
    let not_deferrable = (at + 3..tokens.len()).any(|i| is(i, "NOT") && is(i + 1, "DEFERRABLE"));
    if deferred && not_deferrable {
        return Err(Error::new(
            ErrorKind::Syntax,
            "constraint declared INITIALLY DEFERRED must be DEFERRABLE",
        ));
    }
    Ok(Some(AlterTable {
        table,
        if_exists,
        only_if: None,
        before: Vec::new(),
        actions: vec![AlterAction::AlterConstraint {
            name: constraint,
            deferrable: deferrable || deferred,
            deferred,
        }],
    }))
}

/// Reads `sql` as an `ALTER TABLE` to run by a rebuild; `None` for any other
/// statement, and for the forms SQLite runs itself.
pub(crate) fn statement(sql: &str, tokens: &[Token]) -> Result<Option<AlterTable>, Error> {
    let starts = |i: usize, kw: &str| tokens.get(i).is_some_and(|t| t.is_keyword(sql, kw));
    if !(starts(0, "ALTER") && starts(1, "TABLE")) {
        return Ok(None);
    }
    if let Some(alter) = alter_constraint(sql, tokens)? {
        return Ok(Some(alter));
    }
    let Ok(mut statements) = Parser::parse_sql(&PostgreSqlDialect {}, sql) else {
        return Ok(None);
    };
    let [ast] = statements.as_mut_slice() else {
        return Ok(None);
    };
    let _ = ast.visit(&mut Rewriter::default());
    let Ast::AlterTable(alter) = ast else {
        return Ok(None);
    };
    let table = folded_last(&alter.name);
    let mut plan = AlterTable {
        table: table.clone(),
        if_exists: alter.if_exists,
        only_if: None,
        before: Vec::new(),
        actions: Vec::new(),
    };
    for operation in &alter.operations {
        let action = match operation {
            AlterTableOperation::AddConstraint {
                constraint,
                not_valid,
            } => {
                let refused = match constraint {
                    TableConstraint::PrimaryKey(_) => Some("PRIMARY KEY"),
                    TableConstraint::Unique(_) => Some("UNIQUE"),
                    TableConstraint::Check(_) | TableConstraint::ForeignKey(_) => None,
                    _ => Some("such"),
                };
                if let (true, Some(kind)) = (*not_valid, refused) {
                    return Err(Error::state(
                        crate::error::SqlState::FEATURE_NOT_SUPPORTED,
                        format!("{kind} constraints cannot be marked NOT VALID"),
                    ));
                }
                if alter.operations.len() == 1
                    && matches!(constraint, TableConstraint::PrimaryKey(_))
                {
                    return Ok(None);
                }
                let mut constraint = constraint.clone();
                let mut no_inherit = false;
                match &mut constraint {
                    TableConstraint::ForeignKey(key) => {
                        unqualify(&mut key.foreign_table);
                    }
                    TableConstraint::Check(check) => {
                        no_inherit = std::mem::take(&mut check.no_inherit);
                    }
                    _ => {}
                }
                let mut constraint = Constraint::parse(&sqlite_constraint(&constraint)?)?;
                // PostgreSQL folds an unquoted name to lower case.
                constraint.name = constraint_name(operation).or(constraint.name);
                constraint.set_mark(Mark::NotValid, *not_valid);
                constraint.set_mark(Mark::NoInherit, no_inherit);
                AlterAction::AddConstraint(constraint)
            }
            AlterTableOperation::ValidateConstraint { name } => {
                AlterAction::ValidateConstraint { name: folded(name) }
            }
            AlterTableOperation::AddColumn {
                column_def,
                if_not_exists,
                ..
            } => {
                let mut column_def = column_def.clone();
                respell_for_sqlite(&mut column_def.data_type);
                let (column, before) = new_column(&table, &column_def.to_string())?;
                if alter.operations.len() == 1
                    && !*if_not_exists
                    && before.is_empty()
                    && column.addable_in_place()
                {
                    return Ok(None);
                }
                plan.before.extend(before);
                AlterAction::AddColumn {
                    column,
                    if_not_exists: *if_not_exists,
                }
            }
            AlterTableOperation::DropConstraint {
                if_exists, name, ..
            } => AlterAction::DropConstraint {
                name: folded(name),
                if_exists: *if_exists,
            },
            AlterTableOperation::RenameConstraint { .. } if alter.operations.len() > 1 => {
                return Err(Error::new(
                    ErrorKind::Syntax,
                    "syntax error: RENAME CONSTRAINT is an ALTER TABLE of its own",
                ));
            }
            AlterTableOperation::RenameConstraint { old_name, new_name } => {
                AlterAction::RenameConstraint {
                    from: folded(old_name),
                    to: folded(new_name),
                }
            }
            AlterTableOperation::AlterColumn { column_name, op } => {
                let column = folded(column_name);
                match op {
                    AlterColumnOperation::SetNotNull => AlterAction::SetNotNull {
                        column,
                        not_null: true,
                    },
                    AlterColumnOperation::DropNotNull => AlterAction::SetNotNull {
                        column,
                        not_null: false,
                    },
                    AlterColumnOperation::SetDefault { value } => AlterAction::SetDefault {
                        column,
                        expr: Some(value.to_string()),
                    },
                    AlterColumnOperation::DropDefault => {
                        AlterAction::SetDefault { column, expr: None }
                    }
                    AlterColumnOperation::SetDataType {
                        data_type, using, ..
                    } => {
                        let mut data_type = data_type.clone();
                        respell_for_sqlite(&mut data_type);
                        let type_sql = data_type.to_string();
                        // `serial` is CREATE TABLE's shorthand, no type.
                        if [
                            "serial",
                            "bigserial",
                            "smallserial",
                            "serial4",
                            "serial8",
                            "serial2",
                        ]
                        .contains(&type_sql.to_ascii_lowercase().as_str())
                        {
                            return Err(Error::state(
                                crate::error::SqlState::UNDEFINED_OBJECT,
                                format!(
                                    "type \"{}\" does not exist",
                                    type_sql.to_ascii_lowercase()
                                ),
                            ));
                        }
                        AlterAction::SetType {
                            column,
                            type_sql,
                            using: using.as_ref().map(ToString::to_string),
                        }
                    }
                    _ => return Ok(None),
                }
            }
            AlterTableOperation::DropColumn {
                column_names,
                if_exists,
                ..
            } => {
                plan.actions
                    .extend(column_names.iter().map(|name| AlterAction::DropColumn {
                        column: folded(name),
                        if_exists: *if_exists,
                    }));
                continue;
            }
            // Renames are SQLite's own, and PostgreSQL takes them only alone.
            _ => return Ok(None),
        };
        plan.actions.push(action);
    }
    if plan.actions.is_empty() {
        return Err(Error::new(
            ErrorKind::Syntax,
            "ALTER TABLE without an action",
        ));
    }
    Ok(Some(plan))
}

/// A table constraint as SQLite writes it: `NULLS DISTINCT` is what SQLite's
/// UNIQUE does anyway; `NULLS NOT DISTINCT` it cannot do.
fn sqlite_constraint(constraint: &TableConstraint) -> Result<String, Error> {
    match constraint {
        TableConstraint::Unique(unique) => match unique.nulls_distinct {
            NullsDistinctOption::NotDistinct => Err(Error::new(
                ErrorKind::Unsupported,
                "UNIQUE NULLS NOT DISTINCT is not supported (SQLite's unique constraints take NULLs as distinct)",
            )),
            _ => {
                let mut unique = unique.clone();
                unique.nulls_distinct = NullsDistinctOption::None;
                Ok(TableConstraint::Unique(unique).to_string())
            }
        },
        other => Ok(other.to_string()),
    }
}

/// The name an `ADD CONSTRAINT name ...` gives, folded as PostgreSQL folds it.
fn constraint_name(operation: &AlterTableOperation) -> Option<String> {
    let AlterTableOperation::AddConstraint { constraint, .. } = operation else {
        return None;
    };
    let name = match constraint {
        TableConstraint::Unique(c) => c.name.as_ref(),
        TableConstraint::PrimaryKey(c) => c.name.as_ref(),
        TableConstraint::ForeignKey(c) => c.name.as_ref(),
        TableConstraint::Check(c) => c.name.as_ref(),
        _ => None,
    };
    name.map(folded)
}

/// A column being added, translated as `CREATE TABLE` translates it (a
/// `serial` column gets its sequence, whose statements come back too).
fn new_column(table: &str, column_def: &str) -> Result<(Column, Vec<String>), Error> {
    let create = format!("CREATE TABLE {} ({column_def})", identifier(table));
    let mut statements = Parser::parse_sql(&PostgreSqlDialect {}, &create)
        .map_err(|e| Error::new(ErrorKind::Syntax, e.to_string()))?;
    let Some(Ast::CreateTable(definition)) = statements.first_mut() else {
        return Err(Error::new(ErrorKind::Syntax, "ADD COLUMN without a column"));
    };
    let (_, owned) = create_table(definition)
        .ok_or_else(|| Error::new(ErrorKind::Syntax, "invalid identity options"))?;
    let before = if owned.is_empty() {
        Vec::new()
    } else {
        owned_sequences(&owned, true)?
    };
    let sql = definition.to_string();
    let mut column = TableDefinition::parse(&sql)?
        .columns()
        .next()
        .cloned()
        .ok_or_else(|| Error::new(ErrorKind::Syntax, "ADD COLUMN without a column"))?;
    column.source = None;
    Ok((column, before))
}

#[cfg(test)]
mod tests {
    use super::super::super::lexer::tokenize;
    use super::*;

    fn plan(sql: &str) -> Option<AlterTable> {
        statement(sql, &tokenize(sql)).unwrap()
    }

    #[test]
    fn sqlites_own_forms_stay_with_sqlite() {
        for sql in [
            "ALTER TABLE t RENAME TO u",
            "ALTER TABLE t RENAME COLUMN a TO b",
            "ALTER TABLE t ADD COLUMN a int DEFAULT 1",
            "ALTER TABLE t ADD PRIMARY KEY (a)",
            "SELECT 1",
        ] {
            assert_eq!(plan(sql), None, "{sql}");
        }
    }

    #[test]
    fn reads_the_actions() {
        let alter = plan(
            "ALTER TABLE IF EXISTS public.T ADD CONSTRAINT Fk FOREIGN KEY (a) REFERENCES p (id) ON DELETE CASCADE, \
             ALTER COLUMN b SET DATA TYPE bigint USING b::bigint, ALTER b SET NOT NULL, ALTER c DROP DEFAULT, \
             ALTER d SET DEFAULT now(), DROP CONSTRAINT IF EXISTS t_c_check, ADD CHECK (a > 0), ADD UNIQUE (c)",
        )
        .unwrap();
        assert_eq!(alter.table, "t");
        assert!(alter.if_exists);
        let AlterAction::AddConstraint(fk) = &alter.actions[0] else {
            panic!("{alter:?}");
        };
        assert_eq!(fk.name.as_deref(), Some("fk"));
        assert_eq!(fk.columns, ["a"]);
        assert!(
            fk.body
                .starts_with("FOREIGN KEY (a) REFERENCES p(id) ON DELETE CASCADE")
        );
        let AlterAction::SetType { using, .. } = &alter.actions[1] else {
            panic!("{alter:?}");
        };
        assert_eq!(using.as_deref(), Some("CAST(b AS BIGINT)"));
        let AlterAction::SetDefault { expr, .. } = &alter.actions[4] else {
            panic!("{alter:?}");
        };
        assert!(
            expr.as_deref().unwrap().starts_with("strftime("),
            "{expr:?}"
        );
        assert_eq!(alter.actions.len(), 8);
    }

    #[test]
    fn serial_columns_bring_their_sequence() {
        let alter = plan("ALTER TABLE t ADD COLUMN n serial").unwrap();
        assert!(!alter.before.is_empty());
        let AlterAction::AddColumn { column, .. } = &alter.actions[0] else {
            panic!("{alter:?}");
        };
        assert!(column.default().unwrap().contains("nextval"), "{column:?}");
    }

    #[test]
    fn validate_and_alter_constraint() {
        let alter = plan("ALTER TABLE t VALIDATE CONSTRAINT C, ALTER a TYPE int").unwrap();
        assert_eq!(
            alter.actions[0],
            AlterAction::ValidateConstraint { name: "c".into() }
        );
        let alter =
            plan("ALTER TABLE IF EXISTS s.T ALTER CONSTRAINT \"Fk\" INITIALLY DEFERRED").unwrap();
        assert_eq!(alter.table, "t");
        assert_eq!(
            alter.actions,
            [AlterAction::AlterConstraint {
                name: "Fk".into(),
                deferrable: true,
                deferred: true
            }]
        );
        let sql = "ALTER TABLE t ALTER CONSTRAINT f NOT DEFERRABLE INITIALLY DEFERRED";
        assert!(statement(sql, &tokenize(sql)).is_err());
        let sql = "ALTER TABLE t ADD UNIQUE (a) NOT VALID";
        assert!(statement(sql, &tokenize(sql)).is_err());
        let AlterAction::AddConstraint(check) =
            &plan("ALTER TABLE t ADD CHECK (a > 0) NO INHERIT NOT VALID")
                .unwrap()
                .actions[0]
        else {
            panic!();
        };
        assert!(check.marked(Mark::NotValid) && check.marked(Mark::NoInherit));
    }
}
