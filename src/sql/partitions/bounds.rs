//! A partition's bound (`FOR VALUES IN (...)`, `FOR VALUES FROM (...) TO
//! (...)`, `FOR VALUES WITH (MODULUS m, REMAINDER r)`, `DEFAULT`) as the
//! condition a row meets to belong to it, written over its parent's key
//! expressions. The same text serves SQLite (the views, the routing
//! triggers) and PostgreSQL (a statement aimed at a partition, read by the
//! translation): it uses only what both read alike (row comparisons, `IN`,
//! `IS NULL`, `coalesce`).

use sqlparser::ast::{Expr, ForValues, PartitionBoundValue, Statement, UnaryOperator, Value};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use crate::error::{Error, SqlState};
use crate::sql::postgres::PgType;

/// The function a hash partition's condition calls (see
/// `engine::functions::partitions`).
pub(super) const HASH_FUNCTION: &str = "litewire_partition_hash";

/// A stored bound (`FOR VALUES ...` or `DEFAULT`) read back.
pub(super) fn parse(text: &str) -> Option<ForValues> {
    let sql = format!("CREATE TABLE litewire_bound PARTITION OF litewire_parent {text}");
    let parsed = Parser::parse_sql(&PostgreSqlDialect {}, &sql).ok()?;
    match parsed.into_iter().next()? {
        Statement::CreateTable(create) => create.for_values,
        _ => None,
    }
}

/// `bound` with each quoted number for a key of a numeric type (by
/// `types`, the key's types) written as the number.
pub(super) fn numbers_unquoted(bound: &ForValues, types: &[Option<PgType>]) -> ForValues {
    let numeric = |i: usize| matches!(types.get(i), Some(Some(ty)) if ty.is_numeric());
    let value = |i: usize, value: &Expr| match value {
        Expr::Value(v) if numeric(i) => match &v.value {
            Value::SingleQuotedString(s) if s.trim().parse::<f64>().is_ok_and(f64::is_finite) => {
                Parser::new(&PostgreSqlDialect {})
                    .try_with_sql(s.trim())
                    .and_then(|mut p| p.parse_expr())
                    .unwrap_or_else(|_| value.clone())
            }
            _ => value.clone(),
        },
        _ => value.clone(),
    };
    match bound {
        ForValues::In(values) => ForValues::In(values.iter().map(|v| value(0, v)).collect()),
        ForValues::From { from, to } => {
            let side = |values: &[PartitionBoundValue]| {
                values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| match v {
                        PartitionBoundValue::Expr(e) => PartitionBoundValue::Expr(value(i, e)),
                        other => other.clone(),
                    })
                    .collect()
            };
            ForValues::From {
                from: side(from),
                to: side(to),
            }
        }
        other => other.clone(),
    }
}

/// A bound as PostgreSQL shows it (`pg_get_expr(relpartbound, oid)`):
/// a number is quoted unless it is a non-negative `integer` or `numeric`
/// (as PostgreSQL prints constants), by `types`, the key's types (`None`
/// for an expression's).
pub(super) fn shown(bound: &ForValues, types: &[Option<PgType>]) -> String {
    let value = |i: usize, value: &Expr| {
        let number = match value {
            Expr::Value(v) => matches!(v.value, Value::Number(..)),
            Expr::UnaryOp {
                op: UnaryOperator::Minus,
                expr,
            } => {
                matches!(&**expr, Expr::Value(v) if matches!(v.value, Value::Number(..)))
            }
            _ => false,
        };
        let plain = matches!(value, Expr::Value(_))
            && matches!(types.get(i), Some(Some(PgType::Int4 | PgType::Numeric)));
        match (number, types.get(i)) {
            (true, Some(Some(_))) if !plain => format!("'{value}'"),
            _ => value.to_string(),
        }
    };
    let listed = |values: &[PartitionBoundValue]| {
        values
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                PartitionBoundValue::Expr(e) => value(i, e),
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match bound {
        ForValues::With { modulus, remainder } => {
            format!("FOR VALUES WITH (modulus {modulus}, remainder {remainder})")
        }
        ForValues::In(values) => format!(
            "FOR VALUES IN ({})",
            values
                .iter()
                .map(|v| value(0, v))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ForValues::From { from, to } => {
            format!("FOR VALUES FROM ({}) TO ({})", listed(from), listed(to))
        }
        ForValues::Default => "DEFAULT".into(),
    }
}

/// The condition a row with key `keys` meets to belong to a partition of
/// `bound`; `siblings` are the other partitions' bounds, which a DEFAULT
/// partition's rows meet none of. Never NULL.
pub(super) fn condition(bound: &ForValues, keys: &[String], siblings: &[ForValues]) -> String {
    match bound {
        ForValues::Default => {
            let taken: Vec<String> = siblings
                .iter()
                .filter(|b| !matches!(b, ForValues::Default))
                .map(|b| condition(b, keys, &[]))
                .collect();
            match taken.is_empty() {
                true => "true".into(),
                false => format!("NOT ({})", taken.join(" OR ")),
            }
        }
        ForValues::In(values) => {
            let key = keys.first().map_or("NULL", String::as_str);
            let (nulls, values): (Vec<&Expr>, Vec<&Expr>) = values.iter().partition(|v| is_null(v));
            let mut taken = Vec::new();
            if !values.is_empty() {
                taken.push(format!("{key} IN ({})", joined(&values)));
            }
            if !nulls.is_empty() {
                taken.push(format!("{key} IS NULL"));
            }
            match taken.is_empty() {
                true => "false".into(),
                false => format!("coalesce({}, false)", taken.join(" OR ")),
            }
        }
        ForValues::From { from, to } => {
            let mut parts: Vec<String> = keys.iter().map(|k| format!("{k} IS NOT NULL")).collect();
            parts.extend(side(keys, from, true));
            parts.extend(side(keys, to, false));
            format!("coalesce({}, false)", parts.join(" AND "))
        }
        ForValues::With { modulus, remainder } => format!(
            "coalesce({HASH_FUNCTION}({modulus}, {remainder}, {}), false)",
            keys.join(", ")
        ),
    }
}

fn is_null(value: &Expr) -> bool {
    matches!(value, Expr::Value(v) if matches!(v.value, Value::Null))
}

fn joined(values: &[&Expr]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One side of a range: the key at or above `values` (`lower`) or below it.
/// A `MINVALUE` or `MAXVALUE` ends the values compared and decides whether
/// the prefix before it is itself in the range; `None` where any key is.
fn side(keys: &[String], values: &[PartitionBoundValue], lower: bool) -> Option<String> {
    let prefix: Vec<String> = values
        .iter()
        .map_while(|v| match v {
            PartitionBoundValue::Expr(e) => Some(e.to_string()),
            _ => None,
        })
        .collect();
    let max_after = matches!(
        values.get(prefix.len()),
        Some(PartitionBoundValue::MaxValue)
    );
    let operator = match (lower, max_after) {
        (true, false) => ">=",
        (true, true) => ">",
        (false, false) => "<",
        (false, true) => "<=",
    };
    if prefix.is_empty() {
        // Every key is above MINVALUE and below MAXVALUE; none is above
        // MAXVALUE or below MINVALUE.
        return match operator {
            ">=" | "<=" => None,
            _ => Some("false".into()),
        };
    }
    let n = prefix.len().min(keys.len());
    Some(format!(
        "({}) {operator} ({})",
        keys[..n].join(", "),
        prefix[..n].join(", ")
    ))
}

/// The checks PostgreSQL makes of a new partition's bound against its
/// parent's strategy and key.
pub(super) fn validate(bound: &ForValues, strategy: &str, keys: usize) -> Result<(), Error> {
    let invalid = |message: String| Err(Error::state(SqlState::INVALID_TABLE_DEFINITION, message));
    match (strategy, bound) {
        ("hash", ForValues::Default) => {
            invalid("a hash-partitioned table may not have a default partition".into())
        }
        (_, ForValues::Default) | ("list", ForValues::In(_)) => Ok(()),
        ("range", ForValues::From { from, to }) => {
            for (side, values) in [("FROM", from), ("TO", to)] {
                if values.len() != keys {
                    return invalid(format!(
                        "{side} must specify exactly one value per partitioning column"
                    ));
                }
                // After MINVALUE or MAXVALUE, every value must be the same.
                let first = values
                    .iter()
                    .position(|v| !matches!(v, PartitionBoundValue::Expr(_)));
                if let Some(first) = first
                    && values[first..].iter().any(|v| v != &values[first])
                {
                    return invalid(
                        "every bound following MAXVALUE must also be MAXVALUE".replace(
                            "MAXVALUE",
                            match values[first] {
                                PartitionBoundValue::MinValue => "MINVALUE",
                                _ => "MAXVALUE",
                            },
                        ),
                    );
                }
            }
            Ok(())
        }
        ("hash", ForValues::With { modulus, remainder }) => {
            if *modulus == 0 {
                return Err(Error::state(
                    SqlState::INVALID_PARAMETER_VALUE,
                    "modulus for hash partition must be an integer value greater than zero",
                ));
            }
            if remainder >= modulus {
                return Err(Error::state(
                    SqlState::INVALID_PARAMETER_VALUE,
                    "remainder for hash partition must be less than modulus",
                ));
            }
            Ok(())
        }
        (strategy, _) => invalid(format!(
            "invalid bound specification for a {strategy} partition"
        )),
    }
}

/// Whether two list bounds share a value (compared as written).
pub(super) fn lists_overlap(a: &ForValues, b: &ForValues) -> bool {
    match (a, b) {
        (ForValues::In(a), ForValues::In(b)) => a
            .iter()
            .any(|x| b.iter().any(|y| x.to_string() == y.to_string())),
        _ => false,
    }
}

/// Whether hash bounds overlap: one's remainder class holds the other's.
pub(super) fn hashes_overlap(a: &ForValues, b: &ForValues) -> bool {
    match (a, b) {
        (
            ForValues::With {
                modulus: m1,
                remainder: r1,
            },
            ForValues::With {
                modulus: m2,
                remainder: r2,
            },
        ) => {
            let (small, large) = match m1 <= m2 {
                true => ((m1, r1), (m2, r2)),
                false => ((m2, r2), (m1, r1)),
            };
            large.1 % small.0 == *small.1
        }
        _ => false,
    }
}

/// SQL true where range bound `a` sorts before range bound `b` (values
/// compared as SQLite compares them; MINVALUE below and MAXVALUE above all).
pub(super) fn before(a: &[PartitionBoundValue], b: &[PartitionBoundValue]) -> String {
    let mut prefix_a = Vec::new();
    let mut prefix_b = Vec::new();
    for (x, y) in a.iter().zip(b) {
        match (x, y) {
            (PartitionBoundValue::Expr(x), PartitionBoundValue::Expr(y)) => {
                prefix_a.push(x.to_string());
                prefix_b.push(y.to_string());
            }
            (x, y) => {
                // Equal up to here, the first infinity decides.
                let tie = match (x, y) {
                    (PartitionBoundValue::MinValue, PartitionBoundValue::MinValue)
                    | (PartitionBoundValue::MaxValue, PartitionBoundValue::MaxValue) => false,
                    (PartitionBoundValue::MinValue, _) => true,
                    (_, PartitionBoundValue::MaxValue) => true,
                    _ => false,
                };
                return match prefix_a.is_empty() {
                    true => tie.to_string(),
                    false => format!(
                        "(({pa}) < ({pb}) OR (({pa}) = ({pb}) AND {tie}))",
                        pa = prefix_a.join(", "),
                        pb = prefix_b.join(", ")
                    ),
                };
            }
        }
    }
    match prefix_a.is_empty() {
        true => "false".into(),
        false => format!("(({}) < ({}))", prefix_a.join(", "), prefix_b.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(k: &[&str]) -> Vec<String> {
        k.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn conditions_follow_the_bound() {
        let list = parse("FOR VALUES IN ('aa', 'bb', NULL)").expect("list");
        assert_eq!(
            condition(&list, &keys(&["lower(a)"]), &[]),
            "coalesce(lower(a) IN ('aa', 'bb') OR lower(a) IS NULL, false)"
        );
        let range = parse("FOR VALUES FROM ('a', 1) TO ('a', MAXVALUE)").expect("range");
        assert_eq!(
            condition(&range, &keys(&["a", "b"]), &[]),
            "coalesce(a IS NOT NULL AND b IS NOT NULL AND (a, b) >= ('a', 1) AND (a) <= ('a'), false)"
        );
        let unbounded = parse("FOR VALUES FROM (MINVALUE) TO (10)").expect("range");
        assert_eq!(
            condition(&unbounded, &keys(&["b"]), &[]),
            "coalesce(b IS NOT NULL AND (b) < (10), false)"
        );
        let default = parse("DEFAULT").expect("default");
        assert_eq!(
            condition(
                &default,
                &keys(&["b"]),
                &[unbounded.clone(), default.clone()]
            ),
            "NOT (coalesce(b IS NOT NULL AND (b) < (10), false))"
        );
        assert_eq!(condition(&default, &keys(&["b"]), &[]), "true");
    }

    #[test]
    fn bounds_are_checked_against_the_strategy() {
        let list = parse("FOR VALUES IN (1)").expect("list");
        assert!(validate(&list, "range", 1).is_err());
        let short = parse("FOR VALUES FROM (1) TO (2)").expect("range");
        assert!(validate(&short, "range", 2).is_err());
        let mixed = parse("FOR VALUES FROM (MINVALUE, 1) TO (2, 3)").expect("range");
        assert!(validate(&mixed, "range", 2).is_err());
        let hash = parse("FOR VALUES WITH (MODULUS 4, REMAINDER 4)").expect("hash");
        assert!(validate(&hash, "hash", 1).is_err());
        let a = parse("FOR VALUES WITH (MODULUS 4, REMAINDER 1)").expect("hash");
        let b = parse("FOR VALUES WITH (MODULUS 8, REMAINDER 5)").expect("hash");
        assert!(hashes_overlap(&a, &b));
        assert_eq!(
            before(
                &[PartitionBoundValue::MinValue],
                &[PartitionBoundValue::MinValue]
            ),
            "false"
        );
    }
}
