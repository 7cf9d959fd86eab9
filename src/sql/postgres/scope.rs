//! Names in a query, resolved as PostgreSQL resolves them: the relations of
//! FROM (by alias, else by name), their columns, the columns `USING` merged,
//! and, for a subquery, the queries around it. An unknown column is 42703, an
//! ambiguous one 42702, an unknown relation 42P01, each with PostgreSQL's words.
//!
//! A relation whose columns the translation cannot list (a table function, a
//! relation SQLite knows and the catalog does not) makes its scope open: a
//! name found nowhere else may be one of its columns, so it is left to SQLite.

use sqlparser::ast::Expr;

use super::errors::Fail;
use super::errors::{
    ambiguous_column, missing_from_entry, undefined_column, undefined_qualified_column,
};
use super::types::{Modifier, PgType};

/// One column a scope's relation has.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ScopeColumn {
    pub(super) name: String,
    pub(super) ty: PgType,
    /// A table column's type modifier, which values written to it are fitted to.
    pub(super) modifier: Option<Modifier>,
    /// Declared `NOT NULL` (or a primary key SQLite fills): ordering by it
    /// needs no rule for NULLs.
    pub(super) not_null: bool,
    /// A generated column of a table.
    pub(super) generated: bool,
    /// Part of its table's primary key.
    pub(super) primary_key: bool,
    /// A table's column (or a subquery's reading one as it is): SQLite
    /// reports its declared type.
    pub(super) declared: bool,
    /// A table column's default, as SQLite's text of it.
    pub(super) default: Option<String>,
    /// What reading it is, where that is not its name: a column of a
    /// set-returning function in FROM, computed from the row SQLite's
    /// `json_each` gives.
    pub(super) computed: Option<Expr>,
    /// A subquery's numeric column's display scale (see `Typed::scale`); a
    /// table's column has its modifier's.
    pub(super) scale: Option<u32>,
}

impl ScopeColumn {
    pub(super) fn new(name: impl Into<String>, ty: PgType) -> ScopeColumn {
        ScopeColumn {
            name: name.into(),
            ty,
            modifier: None,
            not_null: false,
            generated: false,
            primary_key: false,
            declared: false,
            default: None,
            computed: None,
            scale: None,
        }
    }
}

/// The columns `*` stands for, each with the relation it is read from
/// (`None` for a merged column).
pub(super) type StarColumns = Vec<(Option<String>, ScopeColumn)>;

/// One relation of FROM, as its columns are referred to.
#[derive(Debug, Clone)]
pub(super) struct Item {
    /// The name it is referred to by (its alias, else the relation's name).
    pub(super) name: String,
    pub(super) columns: Vec<ScopeColumn>,
    /// Its columns are not all known (see the module's documentation).
    pub(super) open: bool,
}

impl Item {
    /// A set-returning function's item, whose columns are computed.
    pub(super) fn computed(&self) -> bool {
        self.columns.iter().any(|c| c.computed.is_some())
    }
}

/// The relations a query's expressions see, and the queries around it.
#[derive(Debug, Default)]
pub(super) struct Scope<'p> {
    pub(super) parent: Option<&'p Scope<'p>>,
    pub(super) items: Vec<Item>,
    /// Columns merged by `JOIN ... USING` (or `NATURAL JOIN`), referred to
    /// unqualified.
    pub(super) merged: Vec<ScopeColumn>,
    /// Its columns are read from inside a `json_each` argument, where
    /// `json_each`'s own columns (`id`, `key`, `value`, ...) are in SQLite's
    /// scope too: each is written with its relation's name.
    pub(super) qualify: bool,
}

/// A column a name resolved to.
#[derive(Debug, Clone)]
pub(super) struct Resolved {
    pub(super) ty: PgType,
    /// The column's own name (what a result column reading it is named).
    pub(super) name: String,
    pub(super) not_null: bool,
    pub(super) primary_key: bool,
    pub(super) declared: bool,
    /// A table column's type modifier (`char(8)`), kept by what reads it.
    pub(super) modifier: Option<Modifier>,
    /// The expression that reads it, if not its name (see `ScopeColumn`).
    pub(super) computed: Option<Expr>,
    /// A numeric's display scale: a subquery column's, else its modifier's.
    pub(super) scale: Option<u32>,
    /// Read by its name alone beside a `json_each` item, whose own columns
    /// (`id`, `key`, `value`, ...) the name could mean to SQLite: written
    /// with its relation's name.
    pub(super) qualify: bool,
    /// The relation it belongs to (not for a merged column).
    pub(super) relation: Option<String>,
    /// Found in an enclosing query's scope.
    pub(super) outer: bool,
}

impl Resolved {
    fn of(column: &ScopeColumn, relation: Option<&str>) -> Resolved {
        Resolved {
            ty: column.ty.clone(),
            name: column.name.clone(),
            not_null: column.not_null,
            primary_key: column.primary_key,
            declared: column.declared,
            modifier: column.modifier,
            computed: column.computed.clone(),
            scale: column
                .scale
                .or(column.modifier.and_then(Modifier::numeric_scale)),
            qualify: false,
            relation: relation.map(str::to_owned),
            outer: false,
        }
    }

    fn outer(self) -> Resolved {
        Resolved {
            outer: true,
            ..self
        }
    }

    /// A column of a relation whose columns are not known.
    fn opaque(name: &str) -> Resolved {
        Resolved {
            ty: PgType::Opaque,
            name: name.to_owned(),
            not_null: false,
            primary_key: false,
            declared: true,
            modifier: None,
            computed: None,
            scale: None,
            qualify: false,
            relation: None,
            outer: false,
        }
    }
}

/// SQLite's names of a table's rowid, which SQL written for SQLite reads.
fn is_rowid(name: &str) -> bool {
    ["rowid", "_rowid_", "oid"]
        .iter()
        .any(|r| r.eq_ignore_ascii_case(name))
}

/// The system column every row has that says which relation it is from
/// (SQLite's reading gives a catalog relation's its oid).
fn is_tableoid(name: &str) -> bool {
    name.eq_ignore_ascii_case("tableoid")
}

fn rowid(name: &str) -> Resolved {
    Resolved {
        ty: PgType::Int8,
        name: name.to_ascii_lowercase(),
        not_null: true,
        primary_key: false,
        declared: false,
        modifier: None,
        computed: None,
        scale: None,
        qualify: false,
        relation: None,
        outer: false,
    }
}

fn find<'c>(columns: &'c [ScopeColumn], name: &str) -> Option<&'c ScopeColumn> {
    columns.iter().find(|c| c.name.eq_ignore_ascii_case(name))
}

impl<'p> Scope<'p> {
    pub(super) fn child(parent: &'p Scope<'p>) -> Scope<'p> {
        Scope {
            parent: Some(parent),
            ..Scope::default()
        }
    }

    /// Whether some relation's columns are not all known.
    fn open(&self) -> bool {
        self.items.iter().any(|item| item.open)
    }

    /// An unqualified column name.
    pub(super) fn column(&self, name: &str) -> Result<Resolved, Fail> {
        if let Some(column) = find(&self.merged, name) {
            return Ok(Resolved::of(column, None));
        }
        // A relation may repeat a name (a subquery's, a join's under an
        // alias): the name is then as ambiguous as in two relations.
        let mut found = self.items.iter().flat_map(|item| {
            item.columns
                .iter()
                .filter(|c| c.name.eq_ignore_ascii_case(name))
                .map(move |c| (item, c))
        });
        match (found.next(), found.next()) {
            (Some((item, column)), None) => Ok(Resolved {
                qualify: self.qualify || self.items.iter().any(Item::computed),
                ..Resolved::of(column, Some(&item.name))
            }),
            (Some(_), Some(_)) => Err(ambiguous_column(name)),
            (None, _) if self.open() => Ok(Resolved::opaque(name)),
            (None, _) if is_rowid(name) && !self.items.is_empty() => Ok(rowid(name)),
            (None, _) if is_tableoid(name) && !self.items.is_empty() => Ok(Resolved::opaque(name)),
            // A function of one column in FROM, named by its alias: the
            // alias reads that column (`FROM jsonb_array_elements(x) e`).
            (None, _) if let Some((item, column)) = self.single_valued(name) => Ok(Resolved {
                name: item.name.clone(),
                ..Resolved::of(column, Some(&item.name))
            }),
            (None, _) => match self.parent {
                Some(parent) => parent.column(name).map(Resolved::outer),
                None => Err(undefined_column(name)),
            },
        }
    }

    /// The item `name` names, if it is a set-returning function of one column.
    fn single_valued(&self, name: &str) -> Option<(&Item, &ScopeColumn)> {
        let item = self
            .items
            .iter()
            .find(|item| item.name.eq_ignore_ascii_case(name))?;
        match item.columns.as_slice() {
            [column] if column.computed.is_some() => Some((item, column)),
            _ => None,
        }
    }

    /// A column named with its relation (`t.x`).
    pub(super) fn qualified(&self, relation: &str, name: &str) -> Result<Resolved, Fail> {
        let item = self
            .items
            .iter()
            .find(|item| item.name.eq_ignore_ascii_case(relation));
        match item {
            Some(item) => {
                // A relation may repeat a name: the name is then ambiguous.
                let mut found = item
                    .columns
                    .iter()
                    .filter(|c| c.name.eq_ignore_ascii_case(name));
                match (found.next(), found.next()) {
                    (Some(_), Some(_)) => Err(ambiguous_column(name)),
                    (Some(column), None) => Ok(Resolved::of(column, Some(&item.name))),
                    (None, _) if item.open => Ok(Resolved::opaque(name)),
                    (None, _) if is_rowid(name) => Ok(rowid(name)),
                    (None, _) if is_tableoid(name) => Ok(Resolved::opaque(name)),
                    (None, _) => Err(undefined_qualified_column(&item.name, name)),
                }
            }
            None => match self.parent {
                Some(parent) => parent.qualified(relation, name).map(Resolved::outer),
                None => Err(missing_from_entry(relation)),
            },
        }
    }

    /// The relation of FROM `name` names (here or in a query around this
    /// one), when its columns are all known: its name and columns.
    pub(super) fn row(&self, name: &str) -> Option<(String, Vec<ScopeColumn>)> {
        match self
            .items
            .iter()
            .find(|i| i.name.eq_ignore_ascii_case(name))
        {
            Some(item) if item.open => None,
            Some(item) => Some((item.name.clone(), item.columns.clone())),
            None => self.parent?.row(name),
        }
    }

    /// The columns of `relation.*` (every item's for `None`), in order, each
    /// with the relation it is read from (`None` for a merged column); `None`
    /// when they are not all known.
    pub(super) fn star(&self, relation: Option<&str>) -> Result<Option<StarColumns>, Fail> {
        let mut columns = Vec::new();
        if relation.is_none() {
            columns.extend(self.merged.iter().map(|c| (None, c.clone())));
        }
        let mut matched = false;
        for item in &self.items {
            if relation.is_some_and(|r| !item.name.eq_ignore_ascii_case(r)) {
                continue;
            }
            matched = true;
            if item.open {
                return Ok(None);
            }
            for column in &item.columns {
                let merged = relation.is_none() && find(&self.merged, &column.name).is_some();
                if !merged {
                    columns.push((Some(item.name.clone()), column.clone()));
                }
            }
        }
        match (relation, matched, self.parent) {
            (Some(relation), false, Some(parent)) => parent.star(Some(relation)),
            (Some(relation), false, None) => Err(missing_from_entry(relation)),
            _ => Ok(Some(columns)),
        }
    }

    /// Whether `relation` is one of this scope's own (not an outer one).
    pub(super) fn has_own(&self, relation: &str) -> bool {
        self.items
            .iter()
            .any(|item| item.name.eq_ignore_ascii_case(relation))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, columns: &[&str], open: bool) -> Item {
        Item {
            name: name.into(),
            columns: columns
                .iter()
                .map(|c| ScopeColumn::new(*c, PgType::Int4))
                .collect(),
            open,
        }
    }

    #[test]
    fn names_resolve_as_postgres_resolves_them() {
        let outer = Scope {
            items: vec![item("o", &["z"], false)],
            ..Scope::default()
        };
        let mut inner = Scope::child(&outer);
        inner.items = vec![item("a", &["x", "y"], false), item("b", &["y"], false)];
        assert_eq!(inner.column("X").unwrap().name, "x");
        assert_eq!(inner.column("z").unwrap().relation.as_deref(), Some("o"));
        assert!(matches!(inner.column("y"), Err(Fail::Pg(e)) if e.message.contains("ambiguous")));
        assert!(
            matches!(inner.column("w"), Err(Fail::Pg(e)) if e.message.contains("does not exist"))
        );
        assert!(inner.qualified("b", "y").is_ok());
        assert!(
            matches!(inner.qualified("c", "y"), Err(Fail::Pg(e)) if e.message.contains("missing FROM-clause"))
        );
        // A relation whose columns are not known takes the names found nowhere.
        inner.items.push(item("f", &[], true));
        assert_eq!(inner.column("w").unwrap().ty, PgType::Opaque);
        assert!(inner.star(None).unwrap().is_none());
        assert_eq!(inner.star(Some("a")).unwrap().unwrap().len(), 2);
    }
}
