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

use super::relations;

/// The SQL function that qualifies a definition when `public` is not on the
/// session's `search_path` (the engine's, calling [`qualified`]).
pub const FUNCTION: &str = "litewire_qualified";
use super::syntax_tree::printable;

/// `definition` with the names it refers to qualified with `public`; as it
/// is where there is nothing to qualify or it cannot be read.
pub fn qualified(definition: &str) -> String {
    let trimmed = definition.trim_start();
    let head = trimmed
        .get(..6)
        .map(str::to_ascii_uppercase)
        .unwrap_or_default();
    if head == "SELECT" || head.starts_with("WITH") {
        return query(definition).unwrap_or_else(|| definition.to_owned());
    }
    let referenced = references(definition);
    sequence(&referenced)
}

/// A view's query, its relations qualified (and the `;` PostgreSQL ends it with).
fn query(definition: &str) -> Option<String> {
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
        qualify: true,
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
}

impl VisitorMut for Qualify<'_> {
    type Break = ();

    fn pre_visit_table_factor(&mut self, factor: &mut TableFactor) -> ControlFlow<()> {
        if let TableFactor::Table {
            name, args: None, ..
        } = factor
            && let [ObjectNamePart::Identifier(ident)] = name.0.as_slice()
        {
            let lower = match ident.quote_style {
                Some(_) => ident.value.clone(),
                None => ident.value.to_ascii_lowercase(),
            };
            if !self.ctes.contains(&lower) && relations::find(&lower).is_none() {
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
    }
}
