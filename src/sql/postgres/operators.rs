//! Operators, resolved by their operands' types as PostgreSQL resolves them,
//! and written as SQLite expressions that mean the same:
//! - comparisons and `AND`/`OR`/`NOT` are booleans; an untyped operand takes
//!   the other's type; operands of unrelated types have no operator (42883);
//! - integer arithmetic is checked (22003 on overflow) and division and modulo
//!   by zero fail (22012), by the engine's `litewire_arith`; the result is the
//!   wider operand's type, as PostgreSQL's;
//! - `||` makes text of any operand; `date ± integer` is a date, `date - date`
//!   an integer;
//! - `LIKE`, `ILIKE` and their `~~` spellings match case as PostgreSQL does,
//!   by the engine's `litewire_like`.
//!
//! An operand whose type litewire cannot tell keeps SQLite's operator.

use sqlparser::ast::{BinaryOperator, Expr, UnaryOperator};

use super::build::{binary as node, call, not, number, numeric_key, numeric_value, string};
use super::casts::{CastContext, runtime_cast};
use super::errors::{
    Result, ambiguous_operator, not_boolean, undefined_operator, undefined_prefix_operator,
};
use super::numeric_scales;
use super::scope::Scope;
use super::translator::{Translator, Typed};
use super::types::{Category, PgType};

impl Translator<'_> {
    pub(super) fn binary(
        &mut self,
        left: Typed,
        op: &BinaryOperator,
        right: Typed,
    ) -> Result<Typed> {
        use BinaryOperator as B;
        if let Some(json) = self.json_operator(&left, op, &right)? {
            return Ok(json);
        }
        if let Some(network) = self.network_operator(&left, op, &right)? {
            return Ok(network);
        }
        let array = |t: &Typed| matches!(t.ty, PgType::Array(_));
        if matches!(op, B::AtArrow | B::ArrowAt | B::PGOverlap) && (array(&left) || array(&right)) {
            return self.array_containment(left, op, right);
        }
        match op {
            B::And | B::Or => {
                let word = if *op == B::And { "AND" } else { "OR" };
                let left = self.boolean(left, word)?;
                let right = self.boolean(right, word)?;
                Ok(Typed::new(
                    node(left.expr, op.clone(), right.expr),
                    PgType::Bool,
                ))
            }
            B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq => {
                let (left, right) = self.comparable(left, right, symbol(op))?;
                if left.ty == PgType::Interval && right.ty == PgType::Interval {
                    return Ok(self.interval_comparison(left, op, right));
                }
                Ok(Typed::new(
                    node(left.expr, op.clone(), right.expr),
                    PgType::Bool,
                ))
            }
            B::Plus | B::Minus | B::Multiply | B::Divide | B::Modulo => {
                self.arithmetic(left, op, right)
            }
            B::StringConcat => self.concat(left, right),
            B::PGLikeMatch | B::PGNotLikeMatch | B::PGILikeMatch | B::PGNotILikeMatch => {
                let negated = matches!(op, B::PGNotLikeMatch | B::PGNotILikeMatch);
                let insensitive = matches!(op, B::PGILikeMatch | B::PGNotILikeMatch);
                self.like(left, right, None, insensitive, negated)
            }
            B::PGRegexMatch | B::PGRegexIMatch | B::PGRegexNotMatch | B::PGRegexNotIMatch => {
                let text = self.text_operand(left, symbol(op))?;
                let pattern = self.text_operand(right, symbol(op))?;
                // The statement-level translation writes these as `regexp()`.
                Ok(Typed::new(
                    node(text.expr, op.clone(), pattern.expr),
                    PgType::Bool,
                ))
            }
            B::BitwiseAnd | B::BitwiseOr | B::PGBitwiseShiftLeft | B::PGBitwiseShiftRight => {
                let (left, right, ty) = self.integers(left, right, symbol(op))?;
                Ok(Typed::new(node(left.expr, op.clone(), right.expr), ty))
            }
            B::PGBitwiseXor => {
                let (left, right, ty) = self.integers(left, right, "#")?;
                // a # b = (a | b) - (a & b)
                let or = node(left.expr.clone(), B::BitwiseOr, right.expr.clone());
                let and = node(left.expr, B::BitwiseAnd, right.expr);
                Ok(Typed::new(node(or, B::Minus, and), ty))
            }
            // JSON, arrays, ranges...: as SQLite reads them, of a type not known.
            _ => Ok(Typed::new(
                node(left.expr, op.clone(), right.expr),
                PgType::Opaque,
            )),
        }
    }

    pub(super) fn unary(&mut self, op: &UnaryOperator, operand: Typed) -> Result<Typed> {
        match op {
            UnaryOperator::Not => {
                let operand = self.boolean(operand, "NOT")?;
                Ok(Typed::new(not(operand.expr), PgType::Bool))
            }
            UnaryOperator::Minus | UnaryOperator::Plus => {
                let symbol = if *op == UnaryOperator::Minus {
                    "-"
                } else {
                    "+"
                };
                let operand = match operand.untyped.is_some() {
                    true => self.cast(operand, &PgType::Numeric, CastContext::Implicit)?,
                    false => operand,
                };
                let ty = operand.ty.clone();
                if !ty.is_numeric() && ty.category() != Category::Timespan && !ty.is_opaque() {
                    return Err(undefined_prefix_operator(symbol, &ty));
                }
                let scale = operand.scale;
                if *op == UnaryOperator::Plus {
                    return Ok(Typed::new(operand.expr, ty).scaled(scale));
                }
                if ty == PgType::Interval {
                    return Ok(self.interval_negation(operand));
                }
                let expr = match checked(&ty) {
                    Some(key) => arith("-", number("0"), operand.expr, key),
                    None => Expr::Nested(Box::new(Expr::UnaryOp {
                        op: UnaryOperator::Minus,
                        expr: Box::new(operand.expr),
                    })),
                };
                Ok(Typed::new(expr, ty).scaled(scale))
            }
            _ => Ok(Typed::new(
                Expr::UnaryOp {
                    op: *op,
                    expr: Box::new(operand.expr),
                },
                PgType::Opaque,
            )),
        }
    }

    /// A clause's condition (`WHERE`, `HAVING`, `FILTER`, ...): read in
    /// `scope`, and a boolean.
    pub(super) fn condition(&mut self, expr: &Expr, scope: &Scope, clause: &str) -> Result<Expr> {
        let condition = self.expr(expr, scope)?;
        Ok(self.boolean(condition, clause)?.expr)
    }

    /// An operand that must be a boolean (`AND`, `WHERE`, ...).
    pub(super) fn boolean(&mut self, value: Typed, context: &str) -> Result<Typed> {
        if value.ty == PgType::Bool || value.ty.is_opaque() {
            return Ok(value);
        }
        match self.coerce(value.clone(), &PgType::Bool)? {
            Some(coerced) => Ok(coerced),
            None => Err(not_boolean(context, &value.ty)),
        }
    }

    /// `<<`, `>>` (strictly within, containing) and `&&` (either within the
    /// other) of addresses; `None` for any other operator or operands.
    fn network_operator(
        &mut self,
        left: &Typed,
        op: &BinaryOperator,
        right: &Typed,
    ) -> Result<Option<Typed>> {
        use BinaryOperator as B;
        let address = |t: &Typed| matches!(t.ty, PgType::Inet | PgType::Cidr);
        let (inner, outer, function) = match op {
            B::PGBitwiseShiftLeft => (left, right, "litewire_inet_within"),
            B::PGBitwiseShiftRight => (right, left, "litewire_inet_within"),
            B::PGOverlap => (left, right, "litewire_inet_overlaps"),
            _ => return Ok(None),
        };
        if !(address(left) || address(right)) {
            return Ok(None);
        }
        let mut operands = Vec::with_capacity(2);
        for operand in [inner, outer] {
            let read = self.coerce(operand.clone(), &PgType::Inet)?;
            operands.push(
                read.ok_or_else(|| undefined_operator(symbol(op), &left.ty, &right.ty))?
                    .expr,
            );
        }
        Ok(Some(Typed::new(call(function, operands), PgType::Bool)))
    }

    /// Two operands of a comparison, made comparable as PostgreSQL makes them.
    pub(super) fn comparable(
        &mut self,
        left: Typed,
        right: Typed,
        symbol: &str,
    ) -> Result<(Typed, Typed)> {
        if left.ty.is_opaque() || right.ty.is_opaque() {
            return Ok((left, right));
        }
        let target = match (left.untyped.is_some(), right.untyped.is_some()) {
            (true, true) => PgType::Text,
            (true, false) => right.ty.clone(),
            (false, true) => left.ty.clone(),
            (false, false) => common_type(&left.ty, &right.ty)
                .ok_or_else(|| undefined_operator(symbol, &left.ty, &right.ty))?,
        };
        let (left, right) = self.both_as(left, right, &target, symbol)?;
        if target == PgType::Numeric && (left.computed_numeric() || right.computed_numeric()) {
            return Ok(computed_numerics_compared(left, right));
        }
        Ok((comparable_form(left), comparable_form(right)))
    }

    /// `value [NOT] LIKE|ILIKE pattern [ESCAPE escape]`.
    pub(super) fn like(
        &mut self,
        value: Typed,
        pattern: Typed,
        escape: Option<Typed>,
        insensitive: bool,
        negated: bool,
    ) -> Result<Typed> {
        let symbol = match (insensitive, negated) {
            (false, false) => "~~",
            (false, true) => "!~~",
            (true, false) => "~~*",
            (true, true) => "!~~*",
        };
        let function = if insensitive {
            "litewire_ilike"
        } else {
            "litewire_like"
        };
        self.pattern_match(function, symbol, value, pattern, escape, negated)
    }

    /// `value SIMILAR TO pattern [ESCAPE e]`: PostgreSQL's SQL regular
    /// expressions, by the engine's `litewire_similar`.
    pub(super) fn similar(
        &mut self,
        value: Typed,
        pattern: Typed,
        escape: Option<Typed>,
        negated: bool,
    ) -> Result<Typed> {
        let symbol = if negated { "!~" } else { "~" };
        self.pattern_match("litewire_similar", symbol, value, pattern, escape, negated)
    }

    /// A text operand matched against a pattern by the engine's `function`
    /// (`\` the escape unless one is given).
    fn pattern_match(
        &mut self,
        function: &str,
        symbol: &str,
        value: Typed,
        pattern: Typed,
        escape: Option<Typed>,
        negated: bool,
    ) -> Result<Typed> {
        // `bytea LIKE bytea`: the engine matches bytes.
        if value.ty == PgType::Bytea && symbol.ends_with("~~") {
            let pattern = self.bytea_operand(pattern, symbol, &value)?;
            let escape = match escape {
                Some(escape) => self.bytea_operand(escape, symbol, &value)?.expr,
                None => string("\\"),
            };
            let matched = call(function, vec![value.expr, pattern.expr, escape]);
            let expr = if negated { not(matched) } else { matched };
            return Ok(Typed::new(expr, PgType::Bool));
        }
        let value = self.text_operand(value, symbol)?;
        let pattern = self.text_operand(pattern, symbol)?;
        let escape = match escape {
            Some(escape) => self.text_operand(escape, symbol)?.expr,
            None => string("\\"),
        };
        let matched = call(function, vec![value.expr, pattern.expr, escape]);
        let expr = match negated {
            true => not(matched),
            false => matched,
        };
        Ok(Typed::new(expr, PgType::Bool))
    }

    fn arithmetic(&mut self, left: Typed, op: &BinaryOperator, right: Typed) -> Result<Typed> {
        let symbol = symbol(op);
        // An untyped operand beside an interval is one.
        let (left, right) = match (&left.ty, &right.ty) {
            (PgType::Interval, _) if right.untyped.is_some() && matches!(symbol, "+" | "-") => {
                let right = self.cast(right, &PgType::Interval, CastContext::Implicit)?;
                (left, right)
            }
            (_, PgType::Interval) if left.untyped.is_some() && matches!(symbol, "+" | "-") => {
                let left = self.cast(left, &PgType::Interval, CastContext::Implicit)?;
                (left, right)
            }
            _ => (left, right),
        };
        if let Some(moved) = self.interval_arithmetic(&left, symbol, &right)? {
            return Ok(moved);
        }
        if let Some(dated) = self.date_arithmetic(&left, symbol, &right)? {
            return Ok(dated);
        }
        if left.ty.is_opaque() || right.ty.is_opaque() {
            // SQLite's arithmetic, but never its NULL for a division by zero.
            let expr = match symbol {
                "/" | "%" => arith(symbol, left.expr, right.expr, "unknown"),
                _ => node(left.expr, op.clone(), right.expr),
            };
            return Ok(Typed::new(expr, PgType::Opaque));
        }
        let (left, right) = match (left.untyped.is_some(), right.untyped.is_some()) {
            (true, true) => {
                return Err(ambiguous_operator(
                    symbol,
                    &PgType::Unknown,
                    &PgType::Unknown,
                ));
            }
            (true, false) => {
                let target = numeric_operand(&right.ty)
                    .ok_or_else(|| undefined_operator(symbol, &PgType::Unknown, &right.ty))?;
                (self.cast(left, &target, CastContext::Implicit)?, right)
            }
            (false, true) => {
                let target = numeric_operand(&left.ty)
                    .ok_or_else(|| undefined_operator(symbol, &left.ty, &PgType::Unknown))?;
                let right = self.cast(right, &target, CastContext::Implicit)?;
                (left, right)
            }
            (false, false) => (left, right),
        };
        let Some(mut ty) = left.ty.wider_numeric(&right.ty) else {
            return Err(undefined_operator(symbol, &left.ty, &right.ty));
        };
        // float4's operators take float4 or float8: with any other number the
        // arithmetic is float8's.
        if ty == PgType::Float4 && left.ty != right.ty {
            ty = PgType::Float8;
        }
        // Every type's arithmetic is checked: integers by their width, floats
        // for overflow and underflow, all of them for division by zero.
        let scale = match ty {
            PgType::Numeric => numeric_scales::arithmetic(symbol, &left, &right),
            _ => None,
        };
        if let Some(divided) = numeric_scales::division(symbol, &ty, &left, &right) {
            return Ok(Typed::new(divided, ty));
        }
        let expr = match checked(&ty) {
            Some(key) => arith(symbol, left.expr, right.expr, key),
            None => node(left.expr, op.clone(), right.expr),
        };
        Ok(Typed::new(expr, ty).scaled(scale))
    }

    /// `date ± integer` (days) and `date - date` (days between).
    fn date_arithmetic(
        &mut self,
        left: &Typed,
        symbol: &str,
        right: &Typed,
    ) -> Result<Option<Typed>> {
        let days = |dated: Expr, days: Expr, sign: &str| {
            let days = match sign {
                "-" => Expr::UnaryOp {
                    op: sqlparser::ast::UnaryOperator::Minus,
                    expr: Box::new(Expr::Nested(Box::new(days))),
                },
                _ => days,
            };
            call("litewire_date_plus", vec![dated, days])
        };
        let integer_like = |t: &Typed| t.ty.is_integer() || t.untyped.is_some();
        Ok(Some(match (&left.ty, symbol, &right.ty) {
            (PgType::Date, "+" | "-", _) if integer_like(right) => {
                let n = self.cast(right.clone(), &PgType::Int4, CastContext::Implicit)?;
                let sign = if symbol == "+" { "+" } else { "-" };
                Typed::new(days(left.expr.clone(), n.expr, sign), PgType::Date)
            }
            (_, "+", PgType::Date) if integer_like(left) => {
                let n = self.cast(left.clone(), &PgType::Int4, CastContext::Implicit)?;
                Typed::new(days(right.expr.clone(), n.expr, "+"), PgType::Date)
            }
            (PgType::Date, "-", PgType::Date) => Typed::new(
                call(
                    "litewire_date_minus",
                    vec![left.expr.clone(), right.expr.clone()],
                ),
                PgType::Int4,
            ),
            _ => return Ok(None),
        }))
    }

    fn concat(&mut self, left: Typed, right: Typed) -> Result<Typed> {
        let array = |t: &Typed| matches!(t.ty, PgType::Array(_));
        let json = |t: &Typed| t.ty == PgType::Jsonb;
        if array(&left) || array(&right) {
            return self.array_concat(left, right);
        }
        if json(&left) && json(&right) {
            return Ok(Typed::new(
                node(left.expr, BinaryOperator::StringConcat, right.expr),
                PgType::Opaque,
            ));
        }
        let stringy = |t: &Typed| t.ty.is_string() || t.untyped.is_some() || t.ty.is_opaque();
        if !stringy(&left) && !stringy(&right) {
            return Err(undefined_operator("||", &left.ty, &right.ty));
        }
        let left = self.as_text(left)?;
        let right = self.as_text(right)?;
        Ok(Typed::new(
            node(left.expr, BinaryOperator::StringConcat, right.expr),
            PgType::Text,
        ))
    }

    /// `||` with an array: arrays joined (an untyped literal is an array),
    /// or an element added at the end or the front, made the element type.
    fn array_concat(&mut self, left: Typed, right: Typed) -> Result<Typed> {
        let (array, other, appended) = match (&left.ty, &right.ty) {
            (PgType::Array(_), _) => (left, right, true),
            _ => (right, left, false),
        };
        let PgType::Array(element) = array.ty.clone() else {
            return Err(undefined_operator("||", &array.ty, &other.ty));
        };
        let ty = array.ty.clone();
        let (function, args) = if other.ty == array.ty || other.untyped.is_some() {
            let other = self.cast(other, &ty, CastContext::Implicit)?;
            let args = match appended {
                true => vec![array.expr, other.expr],
                false => vec![other.expr, array.expr],
            };
            ("array_cat", args)
        } else {
            let Some(value) = self.coerce(other.clone(), &element)? else {
                return Err(match appended {
                    true => undefined_operator("||", &ty, &other.ty),
                    false => undefined_operator("||", &other.ty, &ty),
                });
            };
            match appended {
                true => ("array_append", vec![array.expr, value.expr]),
                false => ("array_prepend", vec![value.expr, array.expr]),
            }
        };
        Ok(Typed::new(call(function, args), ty))
    }

    /// `a @> b` (every element of `b` is one of `a`'s), `a <@ b`, `a && b`
    /// (an element in common) between arrays of one type; an untyped
    /// operand (`'{x}'`, a parameter) is an array of the other's type.
    fn array_containment(
        &mut self,
        left: Typed,
        op: &BinaryOperator,
        right: Typed,
    ) -> Result<Typed> {
        let ty = match (&left.ty, &right.ty) {
            (PgType::Array(_), _) => left.ty.clone(),
            _ => right.ty.clone(),
        };
        let operand = |me: &mut Self, side: Typed| -> Result<Typed> {
            if let Some(super::translator::Untyped::Param(n)) = side.untyped {
                me.param_type(n, Some(&ty));
            }
            match side.ty == ty || side.untyped.is_some() {
                true => me.cast(side, &ty, CastContext::Implicit),
                false => Err(undefined_operator(symbol(op), &left.ty, &right.ty)),
            }
        };
        let (left_expr, right_expr) = (operand(self, left.clone())?, operand(self, right.clone())?);
        let (function, args) = match op {
            BinaryOperator::AtArrow => (
                "litewire_array_contains_all",
                vec![left_expr.expr, right_expr.expr],
            ),
            BinaryOperator::ArrowAt => (
                "litewire_array_contains_all",
                vec![right_expr.expr, left_expr.expr],
            ),
            _ => (
                "litewire_array_overlaps",
                vec![left_expr.expr, right_expr.expr],
            ),
        };
        Ok(Typed::new(call(function, args), PgType::Bool))
    }

    /// Any value as text, in its type's output format.
    pub(super) fn as_text(&mut self, value: Typed) -> Result<Typed> {
        if value.ty.is_string() || value.untyped.is_some() || value.ty.is_opaque() {
            return self.cast(value, &PgType::Text, CastContext::Implicit);
        }
        // SQLite prints integers and text as PostgreSQL does.
        if value.ty.is_integer() {
            return Ok(Typed::new(value.expr, PgType::Text));
        }
        if let PgType::Reg(kind) = value.ty {
            return Ok(Typed::new(
                super::object_ids::shown(value.expr, kind),
                PgType::Text,
            ));
        }
        if let (PgType::Numeric, Some(scale)) = (&value.ty, value.scale) {
            let shown = numeric_scales::shown(value.expr, scale);
            return Ok(Typed::new(shown, PgType::Text));
        }
        Ok(Typed::new(
            runtime_cast(value.expr, &value.ty, &PgType::Text),
            PgType::Text,
        ))
    }

    /// An operand of a text operator (`~`, `LIKE`): text or untyped.
    pub(super) fn text_operand(&mut self, value: Typed, symbol: &str) -> Result<Typed> {
        if value.ty.is_opaque() {
            return Ok(value);
        }
        let ty = value.ty.clone();
        self.coerce(value, &PgType::Text)?
            .ok_or_else(|| undefined_operator(symbol, &ty, &PgType::Text))
    }

    fn integers(
        &mut self,
        left: Typed,
        right: Typed,
        symbol: &str,
    ) -> Result<(Typed, Typed, PgType)> {
        if left.ty.is_opaque() || right.ty.is_opaque() {
            return Ok((left, right, PgType::Opaque));
        }
        let target = match (&left.ty, &right.ty) {
            (a, b) if a.is_integer() && b.is_integer() => {
                a.wider_numeric(b).unwrap_or(PgType::Int8)
            }
            (a, _) if a.is_integer() => a.clone(),
            (_, b) if b.is_integer() => b.clone(),
            _ => PgType::Int4,
        };
        let (left, right) = self.both_as(left, right, &target, symbol)?;
        Ok((left, right, target))
    }

    /// Both operands of `symbol` made `target`, where PostgreSQL would cast
    /// them implicitly; 42883 naming their types otherwise.
    fn both_as(
        &mut self,
        left: Typed,
        right: Typed,
        target: &PgType,
        symbol: &str,
    ) -> Result<(Typed, Typed)> {
        let (lt, rt) = (left.ty.clone(), right.ty.clone());
        let left = self
            .coerce(left, target)?
            .ok_or_else(|| undefined_operator(symbol, &lt, &rt))?;
        let right = self
            .coerce(right, target)?
            .ok_or_else(|| undefined_operator(symbol, &lt, &rt))?;
        Ok((left, right))
    }
}

/// PostgreSQL's spelling of an operator, for its messages.
pub(super) fn symbol(op: &BinaryOperator) -> &'static str {
    use BinaryOperator as B;
    match op {
        B::Eq => "=",
        B::NotEq => "<>",
        B::Lt => "<",
        B::LtEq => "<=",
        B::Gt => ">",
        B::GtEq => ">=",
        B::Plus => "+",
        B::Minus => "-",
        B::Multiply => "*",
        B::Divide => "/",
        B::Modulo => "%",
        B::StringConcat => "||",
        B::BitwiseAnd => "&",
        B::BitwiseOr => "|",
        B::PGBitwiseShiftLeft => "<<",
        B::PGBitwiseShiftRight => ">>",
        B::PGRegexMatch => "~",
        B::PGRegexIMatch => "~*",
        B::PGRegexNotMatch => "!~",
        B::PGRegexNotIMatch => "!~*",
        B::AtArrow => "@>",
        B::ArrowAt => "<@",
        B::PGOverlap => "&&",
        _ => "?",
    }
}

/// `litewire_arith(op, left, right, type)`: the engine's checked arithmetic.
fn arith(symbol: &str, left: Expr, right: Expr, ty: &str) -> Expr {
    call(
        "litewire_arith",
        vec![string(symbol), left, right, string(ty)],
    )
}

/// The key of an integer type whose arithmetic the engine checks.
fn checked(ty: &PgType) -> Option<&'static str> {
    match ty {
        PgType::Int2 => Some("int2"),
        PgType::Int4 => Some("int4"),
        PgType::Int8 => Some("int8"),
        PgType::Numeric => Some("numeric"),
        PgType::Float4 => Some("float4"),
        PgType::Float8 => Some("float8"),
        _ => None,
    }
}

/// The type an untyped operand takes next to a numeric one of type `ty`.
fn numeric_operand(ty: &PgType) -> Option<PgType> {
    ty.is_numeric().then(|| ty.clone())
}

/// The type two typed operands are compared as, if PostgreSQL has an
/// operator for them.
pub(super) fn common_type(a: &PgType, b: &PgType) -> Option<PgType> {
    if a == b {
        return Some(a.clone());
    }
    if let Some(wider) = a.wider_numeric(b) {
        return Some(wider);
    }
    if a.is_string() && b.is_string() {
        return Some(if *a == PgType::Text || *b == PgType::Text {
            PgType::Text
        } else {
            a.clone()
        });
    }
    if a.casts_implicitly_to(b) {
        return Some(b.clone());
    }
    if b.casts_implicitly_to(a) {
        return Some(a.clone());
    }
    None
}

/// Two numerics compared, one computed at least (whose value may be its
/// digits as text, which SQLite would compare as text): beside a stored
/// column, which holds an integer or a float, as numbers (the column as it
/// is, so that an index on it serves); else by both sides' order keys, every
/// digit counted (`avg(x) * 3 = 7` is false for `2.3333333333333333`).
fn computed_numerics_compared(left: Typed, right: Typed) -> (Typed, Typed) {
    let stored = |t: &Typed| t.column.as_ref().is_some_and(|c| c.declared);
    let form = match stored(&left) || stored(&right) {
        true => |value: Typed| match value.computed_numeric() {
            true => Typed::new(numeric_value(value.expr), PgType::Numeric),
            false => value,
        },
        false => |value: Typed| Typed::new(numeric_key(value.expr), PgType::Numeric),
    };
    (form(left), form(right))
}

/// A value as SQLite must compare it: a `bpchar`'s trailing spaces do not
/// count, as in PostgreSQL; an address compares by PostgreSQL's order.
fn comparable_form(value: Typed) -> Typed {
    match value.ty {
        PgType::Bpchar => Typed::new(call("rtrim", vec![value.expr, string(" ")]), PgType::Bpchar),
        // An address compares in PostgreSQL's order, not its text's.
        PgType::Inet | PgType::Cidr => {
            let ty = value.ty.clone();
            Typed::new(call("litewire_inet_key", vec![value.expr]), ty)
        }
        _ => value,
    }
}
