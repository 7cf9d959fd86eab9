//! Definitions with their names qualified, as PostgreSQL shows them when the
//! schema that holds the names is not on `search_path`.
//!
//! `pg_dump` sets `search_path` to nothing and writes what `pg_get_viewdef()`,
//! `pg_get_constraintdef()` and `pg_get_expr()` answer into its script; a
//! restore then finds a relation only by a qualified name. Every relation,
//! sequence and type of the file is in `public`, so each name a definition
//! refers to gets `public.`: the relations a view reads (not its CTEs, nor
//! the catalog's relations, nor functions in FROM), the table a foreign key
//! references, the sequence of a `nextval()` default.

use std::collections::HashSet;
use std::ops::ControlFlow;

use sqlparser::ast::{
    Ident, ObjectName, ObjectNamePart, Query, Statement, TableFactor, VisitMut, VisitorMut,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::quote::identifier_as_postgres;
use super::relations;

/// The SQL function that qualifies a definition when `public` is not on the
/// session's `search_path` (the engine's, calling [`qualified`]).
pub const FUNCTION: &str = "litewire_qualified";
use super::syntax_tree::printable;

/// `definition` with the names it refers to qualified with `public`; as it
/// is where there is nothing to qualify or it cannot be read.
pub fn qualified(definition: &str) -> String {
    shown(definition, &|_| false, true)
}

/// `definition` as PostgreSQL shows it: a view's relations of a schema of the
/// user's (`is_schema`), which the file names `"s.t"`, as `s.t`, and with
/// `qualify` every other name qualified with `public`.
pub fn shown(definition: &str, is_schema: &dyn Fn(&str) -> bool, qualify: bool) -> String {
    let trimmed = definition.trim_start();
    let head = trimmed
        .get(..6)
        .map(str::to_ascii_uppercase)
        .unwrap_or_default();
    if head == "SELECT" || head.starts_with("WITH") {
        return query(definition, is_schema, qualify).unwrap_or_else(|| definition.to_owned());
    }
    if !qualify {
        return definition.to_owned();
    }
    let referenced = references(definition);
    sequence(&referenced)
}

/// A view's query, its relations qualified (and the `;` PostgreSQL ends it with).
fn query(definition: &str, is_schema: &dyn Fn(&str) -> bool, qualify: bool) -> Option<String> {
    let body = definition.trim().trim_end_matches(';');
    let mut statements = Parser::parse_sql(&PostgreSqlDialect {}, body).ok()?;
    let [Statement::Query(query)] = statements.as_mut_slice() else {
        return None;
    };
    let mut ctes = HashSet::new();
    let _ = query.visit(&mut CommonTables(&mut ctes));
    let _ = query.visit(&mut Qualify {
        ctes: &ctes,
        found: &mut Vec::new(),
        qualify,
        is_schema,
    });
    printable(query);
    let leading = &definition[..definition.len() - definition.trim_start().len()];
    Some(format!("{leading}{query};"))
}

/// The relations of the file a view's query reads (lower case, each once):
/// what the view depends on.
pub fn relations_read(definition: &str) -> Vec<String> {
    let body = definition.trim().trim_end_matches(';');
    let Ok(mut statements) = Parser::parse_sql(&PostgreSqlDialect {}, body) else {
        return Vec::new();
    };
    let [Statement::Query(query)] = statements.as_mut_slice() else {
        return Vec::new();
    };
    let mut ctes = HashSet::new();
    let _ = query.visit(&mut CommonTables(&mut ctes));
    let mut read = Vec::new();
    let _ = query.visit(&mut Qualify {
        ctes: &ctes,
        found: &mut read,
        qualify: false,
        is_schema: &|_| false,
    });
    read
}

/// The names of every CTE of a query, at any depth.
struct CommonTables<'a>(&'a mut HashSet<String>);

impl VisitorMut for CommonTables<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        if let Some(with) = &query.with {
            for cte in &with.cte_tables {
                self.0.insert(cte.alias.name.value.to_ascii_lowercase());
            }
        }
        ControlFlow::Continue(())
    }
}

/// Finds (and with `qualify`, qualifies) the file's relations a query reads:
/// names of one part in FROM that are no CTE, no catalog relation and no
/// function.
struct Qualify<'a> {
    ctes: &'a HashSet<String>,
    found: &'a mut Vec<String>,
    qualify: bool,
    /// Whether a name is a schema of the user's, whose relations the file
    /// names `"s.t"` (shown as `s.t`).
    is_schema: &'a dyn Fn(&str) -> bool,
}

impl VisitorMut for Qualify<'_> {
    type Break = ();

    fn pre_visit_table_factor(&mut self, factor: &mut TableFactor) -> ControlFlow<()> {
        // Qualified with `public` already (as a restored dump writes it).
        if let TableFactor::Table {
            name, args: None, ..
        } = factor
            && let [
                ObjectNamePart::Identifier(schema),
                ObjectNamePart::Identifier(ident),
            ] = name.0.as_slice()
            && schema.value.eq_ignore_ascii_case("public")
        {
            let lower = folded(ident);
            if !self.found.contains(&lower) {
                self.found.push(lower);
            }
            return ControlFlow::Continue(());
        }
        if let TableFactor::Table {
            name,
            args: None,
            alias,
            ..
        } = factor
            && let [ObjectNamePart::Identifier(ident)] = name.0.as_slice()
        {
            let lower = folded(ident);
            let in_schema = ident.quote_style.and(lower.split_once('.'));
            if let Some((schema, relation)) = in_schema
                && (self.is_schema)(schema)
            {
                // Read under its own name (`FROM "s.t" AS t`), as `FROM s.t`.
                if alias
                    .as_ref()
                    .is_some_and(|a| a.name.value == relation && a.columns.is_empty())
                {
                    *alias = None;
                }
                *name = ObjectName(vec![
                    ObjectNamePart::Identifier(postgres_ident(schema)),
                    ObjectNamePart::Identifier(postgres_ident(relation)),
                ]);
            } else if !self.ctes.contains(&lower) && relations::find(&lower).is_none() {
                if !self.found.contains(&lower) {
                    self.found.push(lower);
                }
                if self.qualify {
                    *name = ObjectName(vec![
                        ObjectNamePart::Identifier(Ident::new("public")),
                        ObjectNamePart::Identifier(ident.clone()),
                    ]);
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// An identifier as PostgreSQL reads it: folded to lower case unless quoted.
fn folded(ident: &Ident) -> String {
    match ident.quote_style {
        Some(_) => ident.value.clone(),
        None => ident.value.to_ascii_lowercase(),
    }
}

/// A name as PostgreSQL writes it: quoted only where it must be.
fn postgres_ident(name: &str) -> Ident {
    match identifier_as_postgres(name).starts_with('"') {
        true => Ident::with_quote('"', name),
        false => Ident::new(name),
    }
}

/// `... REFERENCES t(id) ...` with `public.t`.
fn references(definition: &str) -> String {
    qualify_after(definition, "REFERENCES ", '(')
}

/// `nextval('s'::regclass)` with `'public.s'`.
fn sequence(definition: &str) -> String {
    qualify_after(definition, "nextval('", '\'')
}

/// `definition` with `public.` before the name that follows `marker` (up to
/// `end`), unless that name is qualified already.
fn qualify_after(definition: &str, marker: &str, end: char) -> String {
    let Some(at) = definition.find(marker) else {
        return definition.to_owned();
    };
    let name_at = at + marker.len();
    let rest = &definition[name_at..];
    let name = &rest[..rest.find(end).unwrap_or(rest.len())];
    if name.contains('.') {
        return definition.to_owned();
    }
    format!("{}public.{rest}", &definition[..name_at])
}

#[cfg(test)]
mod tests {
    use super::qualified;

    #[test]
    fn names_get_their_schema() {
        assert_eq!(
            qualified(" SELECT id, name FROM p WHERE price > 1;"),
            " SELECT id, name FROM public.p WHERE price > 1;"
        );
        assert_eq!(
            qualified(
                "WITH x AS (SELECT * FROM t) SELECT * FROM x JOIN \"U\" ON true, generate_series(1, 2), pg_class"
            ),
            "WITH x AS (SELECT * FROM public.t) SELECT * FROM x JOIN public.\"U\" ON true, generate_series(1, 2), pg_class;"
        );
        assert_eq!(
            qualified("FOREIGN KEY (p_id) REFERENCES p(id) ON DELETE CASCADE"),
            "FOREIGN KEY (p_id) REFERENCES public.p(id) ON DELETE CASCADE"
        );
        assert_eq!(
            qualified("FOREIGN KEY (p_id) REFERENCES public.p(id)"),
            "FOREIGN KEY (p_id) REFERENCES public.p(id)"
        );
        assert_eq!(
            qualified("nextval('c_id_seq'::regclass)"),
            "nextval('public.c_id_seq'::regclass)"
        );
        assert_eq!(qualified("CHECK (price >= 0)"), "CHECK (price >= 0)");
        assert_eq!(qualified("'ok'"), "'ok'");
    }

    #[test]
    fn a_view_reads_its_relations() {
        assert_eq!(
            super::relations_read(
                " WITH x AS (SELECT * FROM t) SELECT * FROM x JOIN u ON true, pg_class, t;"
            ),
            ["t", "u"]
        );
        assert_eq!(
            super::relations_read(" SELECT * FROM public.t JOIN \"app.u\" ON true;"),
            ["t", "app.u"]
        );
    }
}
