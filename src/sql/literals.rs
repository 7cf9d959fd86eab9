//! Integer literals as parameters: a statement sent as text is read once for
//! every text that differs from it only in its integer literals.
//!
//! Reading a statement as PostgreSQL reads it (parsing, typing against the
//! schema, rewriting) costs several times what SQLite takes to run a point
//! read, and the parse cache only helps a text seen before. Clients that write
//! values into the text (pgbench's `-M simple`, psql, code that formats SQL)
//! send a new text each time. So the text is looked up with its integer
//! literals replaced by `$1`, `$2`, ... (its shape); the shape is read once,
//! its literals typed as the literals they stand for (`integer`), and each text
//! of that shape runs it with its own literals bound as parameters: one
//! reading and one SQLite prepared statement for all of them.
//!
//! Only where that means the same: one query or data change with no
//! parameters of its own, integer literals of `integer`'s range (a larger one
//! is another type, and stays in the shape), and none where its value is
//! syntax rather than a value (`ORDER BY 2`, `GROUP BY 1`, a window frame's
//! bound, a type's modifier): such a shape is marked as not read this way and
//! its texts are read one by one.

use std::ops::ControlFlow;
use std::sync::Arc;

use sqlparser::ast::{
    Expr, FunctionArg, FunctionArgExpr, FunctionArguments, GroupByExpr, OrderByKind, Query,
    SetExpr, Statement as Ast, Value, Visit, Visitor, WindowType,
};

use super::lexer::{TokenKind, tokenize};
use super::parsed::{self, Texts};
use super::statement::Statement;

/// At most this many literals are taken out of one statement.
const MOST: usize = 64;

/// The statement `sql` holds, read through its shape, or `None` when it is
/// not to be read so (see the module's docs). `read_shape(shape, n)` reads a
/// shape whose parameters `$1` to `$n` stand for integer literals, against
/// version `schema` of the schema.
pub(super) fn read(
    sql: &str,
    schema: u64,
    read_shape: impl FnOnce(&str, usize) -> Option<Statement>,
) -> Option<Statement> {
    let mut tokens = tokenize(sql);
    // One statement: a semicolon may end it, and is left out.
    let end = match tokens.last() {
        Some(last) if last.kind == TokenKind::Semicolon => {
            let end = last.start;
            tokens.pop();
            end
        }
        _ => sql.len(),
    };
    let mut shape = String::with_capacity(sql.len() + 8);
    let mut literals = Vec::new();
    let mut copied = 0;
    for token in &tokens {
        match token.kind {
            TokenKind::Param(_) | TokenKind::NamedParam | TokenKind::Semicolon => return None,
            TokenKind::Number => {
                let text = token.text(sql);
                if !text.bytes().all(|b| b.is_ascii_digit()) || literals.len() == MOST {
                    continue;
                }
                let Ok(value) = text.parse::<i32>() else {
                    continue;
                };
                literals.push(i64::from(value));
                shape.push_str(&sql[copied..token.start]);
                shape.push('$');
                shape.push_str(&literals.len().to_string());
                copied = token.end;
            }
            _ => {}
        }
    }
    if literals.is_empty() {
        return None;
    }
    shape.push_str(&sql[copied..end]);
    let read = parsed::cached(&shape, Texts::Shapes(schema), |shape| {
        // A shape that cannot be read so is kept as no statement.
        Ok::<_, ()>(read_shape(shape, literals.len()).into_iter().collect())
    });
    let mut statement = read.ok()?.pop()?;
    statement.literals = Some(Arc::from(literals));
    // Read again from its own text should the schema change.
    if let Some((version, _)) = statement.read_against {
        statement.read_against = Some((version, Arc::from(sql)));
    }
    Some(statement)
}

/// Whether a parameter of a shape stands where a literal is syntax, not a
/// value: a position in `ORDER BY` or `GROUP BY`, a window frame's bound.
pub(super) fn stand_for_syntax(statement: &Ast) -> bool {
    struct Syntax;
    impl Visitor for Syntax {
        type Break = ();
        fn pre_visit_query(&mut self, query: &Query) -> ControlFlow<()> {
            let ordered = match query.order_by.as_ref().map(|o| &o.kind) {
                Some(OrderByKind::Expressions(items)) => items.iter().any(|i| placeholder(&i.expr)),
                _ => false,
            };
            match ordered || grouped_by_position(&query.body) {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        }
        fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<()> {
            match expr {
                Expr::Function(f) if matches!(&f.over, Some(WindowType::WindowSpec(s)) if s.window_frame.is_some()) => {
                    ControlFlow::Break(())
                }
                // The dimension decides whether the subscripts pair with
                // another set-returning call over the array.
                Expr::Function(f)
                    if f.name
                        .0
                        .last()
                        .and_then(|part| part.as_ident())
                        .is_some_and(|name| {
                            name.value.eq_ignore_ascii_case("generate_subscripts")
                        })
                        && matches!(&f.args, FunctionArguments::List(list)
                            if list.args.get(1).is_some_and(|a| matches!(a,
                                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) if placeholder(e)))) =>
                {
                    ControlFlow::Break(())
                }
                _ => ControlFlow::Continue(()),
            }
        }
    }
    statement.visit(&mut Syntax).is_break()
}

fn placeholder(expr: &Expr) -> bool {
    matches!(expr, Expr::Value(v) if matches!(v.value, Value::Placeholder(_)))
}

/// A `GROUP BY` position in a select of this body, or a named window's frame.
fn grouped_by_position(body: &SetExpr) -> bool {
    match body {
        SetExpr::Select(select) => {
            matches!(&select.group_by, GroupByExpr::Expressions(keys, _) if keys.iter().any(placeholder))
                || !select.named_window.is_empty()
        }
        SetExpr::SetOperation { left, right, .. } => {
            grouped_by_position(left) || grouped_by_position(right)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse::{Dialect, read_shape};
    use super::super::postgres::NoCatalog;
    use super::*;

    fn read(sql: &str, _: &NoCatalog) -> Option<Statement> {
        super::read(sql, 0, |shape, n| {
            read_shape(shape, n, Dialect::Postgres(&NoCatalog))
        })
    }

    #[test]
    fn texts_of_one_shape_share_their_reading() {
        let first = read("SELECT 1 + 2 AS three", &NoCatalog).expect("read");
        let second = read("SELECT 40 + 2 AS three", &NoCatalog).expect("read");
        assert_eq!(first.sql, second.sql);
        assert_eq!(first.param_count, 2);
        assert_eq!(first.literals.as_deref(), Some(&[1, 2][..]));
        assert_eq!(second.literals.as_deref(), Some(&[40, 2][..]));
    }

    #[test]
    fn literals_that_are_syntax_stay_in_the_text() {
        for sql in [
            "SELECT 1 ORDER BY 1",
            "SELECT 1 GROUP BY 1",
            "SELECT 1 UNION SELECT 2 ORDER BY 1",
            "SELECT sum(x) OVER (ORDER BY x ROWS 2 PRECEDING) FROM (SELECT 1 AS x) s",
            "SELECT 'a'::varchar(3)",
            "SELECT $1 + 1",
            "SELECT 1; SELECT 2",
            "SELECT 'no integers'",
        ] {
            assert!(read(sql, &NoCatalog).is_none(), "{sql}");
        }
        // A literal past integer's range is another type: it stays.
        let big = read("SELECT 1, 3000000000", &NoCatalog).expect("read");
        assert_eq!(big.literals.as_deref(), Some(&[1][..]));
        assert!(big.sql.contains("3000000000"));
    }
}
