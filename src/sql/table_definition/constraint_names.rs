//! A definition's constraints by the names PostgreSQL gives them (`t_pkey`,
//! `t_c_key`, `t_c_fkey`, `t_c_check`, the names the emulated catalog shows):
//! listed, found, added, dropped and renamed, and the keys over given columns.

use super::constraint::{Constraint, ConstraintKind};
use super::definition::{Element, TableDefinition};
use super::errors::{constraint_exists, malformed, schema_error};
use crate::error::Error;
use crate::sql::quote::same_columns;

impl TableDefinition {
    /// Every named constraint (by the name PostgreSQL gives it) with its kind.
    pub fn constraint_names(&self) -> Vec<(String, ConstraintKind)> {
        self.named_constraints()
            .into_iter()
            .map(|(name, constraint)| (name, constraint.kind))
            .collect()
    }

    /// Every constraint PostgreSQL names, with that name.
    pub fn named_constraints(&self) -> Vec<(String, &Constraint)> {
        let mut named = Vec::new();
        let mut unnamed_checks = 0;
        for element in &self.elements {
            let (column, constraints) = match element {
                Element::Column(c) => (Some(c.name.as_str()), c.constraints.as_slice()),
                Element::Constraint(c) => (None, std::slice::from_ref(c)),
            };
            for constraint in constraints {
                if let Some(name) = self.postgres_name(column, constraint, &mut unnamed_checks) {
                    named.push((name, constraint));
                }
            }
        }
        named
    }

    /// The name PostgreSQL gives `constraint` (of `column`, for a column
    /// constraint); `None` for those it does not name (NOT NULL, DEFAULT, ...).
    fn postgres_name(
        &self,
        column: Option<&str>,
        constraint: &Constraint,
        unnamed_checks: &mut usize,
    ) -> Option<String> {
        if let Some(name) = &constraint.name
            && !matches!(
                constraint.kind,
                ConstraintKind::NotNull | ConstraintKind::Null | ConstraintKind::Default
            )
        {
            return Some(name.clone());
        }
        let table = &self.table;
        let columns = match column {
            Some(c) => c.to_owned(),
            None => constraint.columns.join("_"),
        };
        Some(match constraint.kind {
            ConstraintKind::PrimaryKey => format!("{table}_pkey"),
            ConstraintKind::Unique => format!("{table}_{columns}_key"),
            ConstraintKind::ForeignKey => format!("{table}_{columns}_fkey"),
            ConstraintKind::Check => {
                let mentioned = column
                    .map(str::to_owned)
                    .or_else(|| self.first_column(constraint.check_expression()));
                match mentioned {
                    Some(c) => format!("{table}_{c}_check"),
                    None => {
                        *unnamed_checks += 1;
                        match *unnamed_checks {
                            1 => format!("{table}_check"),
                            n => format!("{table}_check{}", n - 1),
                        }
                    }
                }
            }
            _ => return None,
        })
    }

    /// The first of the table's columns that `expr` names.
    fn first_column(&self, expr: &str) -> Option<String> {
        expr.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .find_map(|word| self.columns().find(|c| c.name.eq_ignore_ascii_case(word)))
            .map(|c| c.name.clone())
    }

    /// Where the constraint PostgreSQL calls `name` is: (element, constraint
    /// within a column).
    fn find_constraint(&self, name: &str) -> Option<(usize, Option<usize>)> {
        let mut unnamed_checks = 0;
        for (i, element) in self.elements.iter().enumerate() {
            match element {
                Element::Column(c) => {
                    for (j, constraint) in c.constraints.iter().enumerate() {
                        let pg = self.postgres_name(Some(&c.name), constraint, &mut unnamed_checks);
                        if pg.is_some_and(|n| n.eq_ignore_ascii_case(name)) {
                            return Some((i, Some(j)));
                        }
                    }
                }
                Element::Constraint(c) => {
                    let pg = self.postgres_name(None, c, &mut unnamed_checks);
                    if pg.is_some_and(|n| n.eq_ignore_ascii_case(name)) {
                        return Some((i, None));
                    }
                }
            }
        }
        None
    }

    /// Whether the definition has a constraint PostgreSQL calls `name`.
    pub fn has_constraint(&self, name: &str) -> bool {
        self.find_constraint(name).is_some()
    }

    /// Adds a table constraint, under the name PostgreSQL would give it when it
    /// has none. A primary key makes its columns NOT NULL, as in PostgreSQL.
    pub fn add_constraint(&mut self, mut constraint: Constraint) -> Result<(), Error> {
        let mut unnamed = 0;
        let name = self
            .postgres_name(None, &constraint, &mut unnamed)
            .ok_or_else(|| malformed(&constraint.body))?;
        if constraint.kind == ConstraintKind::PrimaryKey {
            if self
                .constraint_names()
                .iter()
                .any(|(_, kind)| *kind == ConstraintKind::PrimaryKey)
            {
                return Err(schema_error(format!(
                    "multiple primary keys for table \"{}\" are not allowed",
                    self.table
                )));
            }
            for column in constraint.columns.clone() {
                self.column_mut(&column)?.set_not_null(true);
            }
        }
        if self.has_constraint(&name) {
            return Err(constraint_exists(&name, &self.table));
        }
        constraint.name = Some(name);
        self.elements.push(Element::Constraint(constraint));
        Ok(())
    }

    /// Drops the constraint PostgreSQL calls `name`; `false` if there is none.
    pub fn drop_constraint(&mut self, name: &str) -> bool {
        match self.find_constraint(name) {
            Some((i, Some(j))) => {
                if let Element::Column(c) = &mut self.elements[i] {
                    c.constraints.remove(j);
                }
                true
            }
            Some((i, None)) => {
                self.elements.remove(i);
                true
            }
            None => false,
        }
    }

    /// Renames the constraint PostgreSQL calls `from`; `false` if there is none.
    pub fn rename_constraint(&mut self, from: &str, to: &str) -> Result<bool, Error> {
        if self.has_constraint(to) {
            return Err(constraint_exists(to, &self.table));
        }
        let Some(constraint) = self.constraint_mut(from) else {
            return Ok(false);
        };
        constraint.name = Some(to.to_owned());
        Ok(true)
    }

    /// The constraint PostgreSQL calls `name`, to edit.
    pub fn constraint_mut(&mut self, name: &str) -> Option<&mut Constraint> {
        match self.find_constraint(name)? {
            (i, Some(j)) => match &mut self.elements[i] {
                Element::Column(c) => c.constraints.get_mut(j),
                Element::Constraint(_) => None,
            },
            (i, None) => match &mut self.elements[i] {
                Element::Constraint(c) => Some(c),
                Element::Column(_) => None,
            },
        }
    }
}

impl TableDefinition {
    /// The name PostgreSQL gives the foreign key over `columns`.
    pub fn foreign_key_name(&self, columns: &[String]) -> Option<String> {
        self.key_name(ConstraintKind::ForeignKey, columns)
    }

    /// The name PostgreSQL gives the constraint of `kind` (a primary key,
    /// unique or foreign key) over `columns`.
    pub fn key_name(&self, kind: ConstraintKind, columns: &[String]) -> Option<String> {
        let (column, constraint) = self.key(kind, columns)?;
        // Unnamed CHECKs are not keys: their counter plays no part here.
        self.postgres_name(column, constraint, &mut 0)
    }

    /// The foreign key over `columns`.
    pub fn foreign_key(&self, columns: &[String]) -> Option<&Constraint> {
        self.key(ConstraintKind::ForeignKey, columns)
            .map(|(_, constraint)| constraint)
    }

    /// When the foreign key over `columns` is checked: (`DEFERRABLE`,
    /// `INITIALLY DEFERRED`).
    pub fn foreign_key_deferral(&self, columns: &[String]) -> (bool, bool) {
        let Some((_, key)) = self.key(ConstraintKind::ForeignKey, columns) else {
            return (false, false);
        };
        let words: Vec<String> = key
            .body
            .split_whitespace()
            .map(str::to_ascii_uppercase)
            .collect();
        let after =
            |first: &str, second: &str| words.windows(2).any(|w| w[0] == first && w[1] == second);
        let deferrable = words.iter().any(|w| w == "DEFERRABLE") && !after("NOT", "DEFERRABLE");
        (deferrable, deferrable && after("INITIALLY", "DEFERRED"))
    }

    /// The constraint of `kind` over `columns`, with the column it is declared
    /// on for a column constraint.
    fn key(&self, kind: ConstraintKind, columns: &[String]) -> Option<(Option<&str>, &Constraint)> {
        for element in &self.elements {
            let (column, constraints) = match element {
                Element::Column(c) => (Some(c), c.constraints.as_slice()),
                Element::Constraint(c) => (None, std::slice::from_ref(c)),
            };
            for constraint in constraints {
                let over = match column {
                    Some(c) => std::slice::from_ref(&c.name),
                    None => constraint.columns.as_slice(),
                };
                if constraint.kind == kind && same_columns(over, columns) {
                    return Some((column.map(|c| c.name.as_str()), constraint));
                }
            }
        }
        None
    }
}
