//! Where PostgreSQL's grammar groups operators otherwise than the SQL parser
//! does, the parser's tree regrouped as PostgreSQL reads the text:
//! - the prefix operators `|/` (square root), `||/` (cube root) and `@`
//!   (absolute value), spellings of `sqrt`, `cbrt` and `abs`, bind more
//!   loosely than arithmetic (`|/ 25 + 11` is the root of 36);
//! - a sign binds more tightly than `^` (`-2 ^ 2` is 4).

use sqlparser::ast::{BinaryOperator, Expr, UnaryOperator};

use crate::sql::syntax_tree::is_arithmetic;

/// The function `op` spells; `None` for an operator that is no spelling.
pub(super) fn function(op: &UnaryOperator) -> Option<&'static str> {
    match op {
        UnaryOperator::PGSquareRoot => Some("sqrt"),
        UnaryOperator::PGCubeRoot => Some("cbrt"),
        UnaryOperator::PGAbs => Some("abs"),
        _ => None,
    }
}

/// Whether `expr` is arithmetic whose first operand is one of these prefix
/// operators, which PostgreSQL would have taken the whole of it.
pub(super) fn binds_looser(expr: &Expr) -> bool {
    let mut at = expr;
    while let Expr::BinaryOp { left, op, .. } = at {
        if !tighter(op) {
            return false;
        }
        at = left;
    }
    matches!(at, Expr::UnaryOp { op, .. } if function(op).is_some()) && !std::ptr::eq(at, expr)
}

/// `expr` ([`binds_looser`]) regrouped: `|/ a + b` as `|/ (a + b)`.
pub(super) fn lifted(expr: &Expr) -> Expr {
    match expr {
        Expr::BinaryOp { left, op, right } if tighter(op) => match lifted(left) {
            Expr::UnaryOp {
                op: prefix,
                expr: operand,
            } if function(&prefix).is_some() => Expr::UnaryOp {
                op: prefix,
                expr: Box::new(Expr::BinaryOp {
                    left: operand,
                    op: op.clone(),
                    right: right.clone(),
                }),
            },
            left => Expr::BinaryOp {
                left: Box::new(left),
                op: op.clone(),
                right: right.clone(),
            },
        },
        _ => expr.clone(),
    }
}

/// The operators PostgreSQL binds more tightly than a prefix operator.
fn tighter(op: &BinaryOperator) -> bool {
    is_arithmetic(op) || *op == BinaryOperator::PGExp
}

/// Whether `operand` of a sign is a power, which PostgreSQL's sign would
/// have bound to its base alone.
pub(super) fn sign_binds_tighter(operand: &Expr) -> bool {
    matches!(
        operand,
        Expr::BinaryOp {
            op: BinaryOperator::PGExp,
            ..
        }
    )
}

/// `sign operand` ([`sign_binds_tighter`]) regrouped: `-a ^ b` as `(-a) ^ b`.
pub(super) fn sign_lowered(sign: UnaryOperator, operand: &Expr) -> Expr {
    match operand {
        Expr::BinaryOp {
            left,
            op: op @ BinaryOperator::PGExp,
            right,
        } => Expr::BinaryOp {
            left: Box::new(sign_lowered(sign, left)),
            op: op.clone(),
            right: right.clone(),
        },
        _ => Expr::UnaryOp {
            op: sign,
            expr: Box::new(operand.clone()),
        },
    }
}
