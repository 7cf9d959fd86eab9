//! `GROUP BY GROUPING SETS (...)`, `ROLLUP (...)` and `CUBE (...)`: one
//! select grouping its rows several ways. SQLite groups one way, so the
//! select is written as the `UNION ALL` of one select per grouping set, in
//! which the grouping expressions the set leaves out read NULL (outside
//! aggregates) and `GROUPING(...)` is the set's bit mask, as PostgreSQL
//! computes it. The union is then read as any query.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, FunctionArg, FunctionArgExpr, FunctionArguments, GroupByExpr, Ident, Query, Select,
    SelectItem, SetExpr, SetOperator, SetQuantifier, Value, VisitMut, VisitorMut,
    visit_expressions_mut,
};

use super::aggregates::is_aggregate;
use super::build::{ident, number};
use super::errors::{Fail, Result};
use super::names::{folded, function_name};

/// PostgreSQL's limit on the grouping sets one select may have.
const MOST_SETS: usize = 4096;

/// The query with its grouping sets written as a union, or `None` when its
/// select groups one way.
pub(super) fn expand(query: &Query) -> Result<Option<Query>> {
    let SetExpr::Select(select) = &*query.body else {
        return Ok(None);
    };
    let GroupByExpr::Expressions(items, modifiers) = &select.group_by else {
        return Ok(None);
    };
    if !items.iter().any(is_set_list) {
        return Ok(None);
    }
    if !modifiers.is_empty() || select.distinct.is_some() {
        return Err(Fail::Unsupported("grouping sets with DISTINCT"));
    }
    let sets = sets_of(items)?;
    let all: Vec<Expr> = sets.iter().flatten().fold(Vec::new(), |mut all, expr| {
        if !all.contains(expr) {
            all.push(expr.clone());
        }
        all
    });
    let mut branches = sets.iter().map(|set| branch(select, set, &all));
    let Some(first) = branches.next() else {
        return Ok(None);
    };
    let body = branches.try_fold(first?, |left, right| {
        Ok::<_, Fail>(SetExpr::SetOperation {
            op: SetOperator::Union,
            set_quantifier: SetQuantifier::All,
            left: Box::new(left),
            right: Box::new(right?),
        })
    })?;
    Ok(Some(Query {
        body: Box::new(body),
        ..query.clone()
    }))
}

fn is_set_list(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::GroupingSets(_) | Expr::Rollup(_) | Expr::Cube(_)
    )
}

/// Every grouping set the `GROUP BY` items make: the product of each item's
/// sets (a plain expression is one set of one).
fn sets_of(items: &[Expr]) -> Result<Vec<Vec<Expr>>> {
    let mut product: Vec<Vec<Expr>> = vec![Vec::new()];
    for item in items {
        let choices: Vec<Vec<Expr>> = match item {
            Expr::GroupingSets(sets) => sets.clone(),
            Expr::Rollup(groups) => (0..=groups.len())
                .rev()
                .map(|n| groups[..n].concat())
                .collect(),
            Expr::Cube(groups) => {
                let n = groups.len();
                if n > 12 {
                    return Err(too_many());
                }
                // Largest sets first, as PostgreSQL lists them.
                let mut masks: Vec<u32> = (0..1u32 << n).collect();
                masks.sort_by_key(|mask| std::cmp::Reverse(mask.count_ones()));
                masks
                    .into_iter()
                    .map(|mask| {
                        (0..n)
                            .filter(|i| mask & (1 << (n - 1 - i)) != 0)
                            .flat_map(|i| groups[i].clone())
                            .collect()
                    })
                    .collect()
            }
            plain => vec![vec![plain.clone()]],
        };
        if choices.iter().flatten().any(is_set_list) {
            return Err(Fail::Unsupported("nested grouping sets"));
        }
        product = product
            .iter()
            .flat_map(|prefix| {
                choices.iter().map(move |choice| {
                    let mut set = prefix.clone();
                    set.extend(choice.iter().cloned());
                    set
                })
            })
            .collect();
        if product.len() > MOST_SETS {
            return Err(too_many());
        }
    }
    Ok(product)
}

fn too_many() -> Fail {
    super::errors::program_limit("too many grouping sets present (maximum 4096)".to_owned())
}

/// The select grouped by `set`: what the set leaves out of `all` reads NULL.
fn branch(select: &Select, set: &[Expr], all: &[Expr]) -> Result<SetExpr> {
    let absent: Vec<&Expr> = all.iter().filter(|e| !set.contains(e)).collect();
    let mut out = select.clone();
    out.group_by = GroupByExpr::Expressions(set.to_vec(), Vec::new());
    for item in &mut out.projection {
        if let SelectItem::UnnamedExpr(expr) = item {
            // The column keeps the name it has before NULL replaces it.
            let name = written_name(expr);
            let mut replaced = expr.clone();
            replace(&mut replaced, set, &absent);
            if replaced != *expr {
                *item = SelectItem::ExprWithAlias {
                    expr: replaced,
                    alias: ident(&name),
                };
            }
        } else if let SelectItem::ExprWithAlias { expr, .. } = item {
            replace(expr, set, &absent);
        }
    }
    if let Some(having) = &mut out.having {
        replace(having, set, &absent);
    }
    // The empty set is one group, even of no rows.
    if set.is_empty() && out.having.is_none() {
        out.having = Some(Expr::Value(Value::Boolean(true).into()));
    }
    Ok(SetExpr::Select(Box::new(out)))
}

/// `expr` with each `GROUPING(...)` as its bit mask for `set`, and the
/// grouping expressions `absent` as NULL, but inside aggregates, window
/// functions and subqueries, which read the rows, where they have values.
fn replace(expr: &mut Expr, set: &[Expr], absent: &[&Expr]) {
    let _ = visit_expressions_mut(expr, |part| {
        if let Expr::Function(function) = part
            && function.name.to_string().eq_ignore_ascii_case("grouping")
            && let FunctionArguments::List(list) = &function.args
        {
            let mut mask = 0u64;
            for arg in &list.args {
                mask <<= 1;
                if let FunctionArg::Unnamed(FunctionArgExpr::Expr(arg)) = arg
                    && !set.contains(arg)
                {
                    mask |= 1;
                }
            }
            *part = number(mask.to_string());
        }
        ControlFlow::<()>::Continue(())
    });
    let mut nulls = AbsentAsNull {
        absent,
        kept: Vec::new(),
    };
    let _ = expr.visit(&mut nulls);
    let kept = nulls.kept;
    // Put back what was set aside.
    let _ = visit_expressions_mut(expr, |part| {
        if let Expr::Identifier(name) = part
            && let Some(index) = name.value.strip_prefix(KEPT)
            && let Some(original) = index.parse::<usize>().ok().and_then(|i| kept.get(i))
        {
            *part = original.clone();
        }
        ControlFlow::<()>::Continue(())
    });
}

/// Names what is set aside while the rest is rewritten.
const KEPT: &str = "litewire_kept_";

/// Replaces absent grouping expressions with NULL from the top down, setting
/// aside (as placeholders) the parts that read rows.
struct AbsentAsNull<'a> {
    absent: &'a [&'a Expr],
    kept: Vec<Expr>,
}

impl VisitorMut for AbsentAsNull<'_> {
    type Break = ();

    fn pre_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        let reads_rows = match expr {
            Expr::Function(function) => {
                function.over.is_some()
                    || is_aggregate(&function.name.to_string().to_ascii_lowercase())
            }
            Expr::Subquery(_) | Expr::Exists { .. } => true,
            _ => false,
        };
        if reads_rows {
            let placeholder = Expr::Identifier(Ident::new(format!("{KEPT}{}", self.kept.len())));
            self.kept.push(std::mem::replace(expr, placeholder));
        } else if self.absent.contains(&&*expr) {
            *expr = Expr::Value(Value::Null.into());
        }
        ControlFlow::Continue(())
    }
}

/// The name PostgreSQL gives a select item written as `expr`, for the item
/// that NULL replaces in a branch.
fn written_name(expr: &Expr) -> String {
    match expr {
        Expr::Identifier(ident) => folded(&ident.value, ident.quote_style),
        Expr::CompoundIdentifier(parts) => parts.last().map_or_else(
            || "?column?".to_owned(),
            |p| folded(&p.value, p.quote_style),
        ),
        Expr::Function(function) => function_name(function),
        Expr::Nested(inner) => written_name(inner),
        _ => "?column?".to_owned(),
    }
}
