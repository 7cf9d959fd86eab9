//! `CREATE INDEX` as PostgreSQL takes it. An index is an access path: what
//! SQLite has no syntax for (`NULLS FIRST`/`LAST`, operator classes,
//! `USING btree`, `INCLUDE`, `WITH (...)`, `CONCURRENTLY`) changes no
//! answer, so it is left out; an index without a name gets the one
//! PostgreSQL would choose (`t_a_b_idx`).

use sqlparser::ast::{CreateIndex, Expr, Ident, ObjectName, ObjectNamePart};

/// PostgreSQL's longest identifier.
const NAME_LENGTH: usize = 63;

/// Rewrites `index` for SQLite; whether anything changed.
pub(super) fn create_index(index: &mut CreateIndex) -> bool {
    let mut changed = false;
    if index.name.is_none() {
        index.name = Some(ObjectName(vec![ObjectNamePart::Identifier(Ident::new(
            chosen_name(index),
        ))]));
        changed = true;
    }
    for column in &mut index.columns {
        if column.column.options.nulls_first.take().is_some() {
            changed = true;
        }
        if column.operator_class.take().is_some() {
            changed = true;
        }
    }
    if index.using.take().is_some() {
        changed = true;
    }
    if !index.include.is_empty() || !index.with.is_empty() || index.concurrently {
        index.include.clear();
        index.with.clear();
        index.concurrently = false;
        changed = true;
    }
    changed
}

/// PostgreSQL's name for an unnamed index: the table, each key column (an
/// expression is `expr`) and included column, then `idx`, cut to 63
/// characters.
fn chosen_name(index: &CreateIndex) -> String {
    let table = index
        .table_name
        .0
        .last()
        .and_then(|part| part.as_ident())
        .map_or_else(String::new, |ident| ident.value.clone());
    let mut name = table;
    for column in &index.columns {
        let key = match &column.column.expr {
            Expr::Identifier(ident) => ident.value.clone(),
            _ => "expr".to_owned(),
        };
        name.push('_');
        name.push_str(&key);
    }
    for included in &index.include {
        name.push('_');
        name.push_str(&included.value);
    }
    name.push_str("_idx");
    if name.len() > NAME_LENGTH {
        let mut end = NAME_LENGTH;
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        name.truncate(end);
    }
    name
}

#[cfg(test)]
mod tests {
    use sqlparser::ast::Statement;
    use sqlparser::dialect::PostgreSqlDialect;
    use sqlparser::parser::Parser;

    use super::*;

    fn rewritten(sql: &str) -> String {
        let mut parsed = Parser::parse_sql(&PostgreSqlDialect {}, sql).expect("parses");
        let Statement::CreateIndex(index) = &mut parsed[0] else {
            panic!("not an index: {sql}");
        };
        create_index(index);
        parsed[0].to_string()
    }

    #[test]
    fn what_sqlite_lacks_is_left_out() {
        assert_eq!(
            rewritten("CREATE INDEX fooi ON foo (f1 DESC NULLS LAST, f2 text_pattern_ops)"),
            "CREATE INDEX fooi ON foo(f1 DESC, f2)"
        );
        assert_eq!(
            rewritten(
                "CREATE UNIQUE INDEX CONCURRENTLY ON t USING btree (a, lower(b)) INCLUDE (c)"
            ),
            "CREATE UNIQUE INDEX t_a_expr_c_idx ON t(a, lower(b))"
        );
    }
}
