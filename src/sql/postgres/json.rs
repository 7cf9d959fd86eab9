//! JSON operators and functions, typed as PostgreSQL types them and answered
//! by the engine's JSON functions (`engine/functions/json`), where SQLite's
//! operators of the same spelling mean something else (`->` minifies, `||`
//! joins text, `?` is a parameter to SQLite).

use sqlparser::ast::{BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments};

use super::build::{call, number, string};
use super::casts::CastContext;
use super::errors::{Fail, Result, undefined_function};
use super::translator::{Translator, Typed};
use super::types::PgType;

fn is_json(ty: &PgType) -> bool {
    matches!(ty, PgType::Json | PgType::Jsonb)
}

/// A value as JSON text, as `to_jsonb` converts it by its type (a row as
/// `row_to_json` writes it).
pub(super) fn to_json(value: &Typed) -> Expr {
    match record_json(value, ",") {
        Some(row) => row,
        None => call(
            "litewire_to_jsonb",
            vec![value.expr.clone(), string(&json_kind(&value.ty))],
        ),
    }
}

/// A whole row's JSON object (see `Translator::whole_row`): its columns by
/// name, members joined by `separator`; `None` for any other value.
fn record_json(value: &Typed, separator: &str) -> Option<Expr> {
    let PgType::Record(fields) = &value.ty else {
        return None;
    };
    let Expr::Function(function) = &value.expr else {
        return None;
    };
    let FunctionArguments::List(list) = &function.args else {
        return None;
    };
    let names: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
    let names = serde_json::to_string(&names).unwrap_or_default();
    let mut args = vec![string(&names)];
    // The kinds, then the values, as `litewire_record` has them; a row in
    // the row is its own JSON object.
    for (i, arg) in list.args.iter().enumerate() {
        if i == 1 {
            args.push(string(separator));
        }
        let FunctionArg::Unnamed(FunctionArgExpr::Expr(expr)) = arg else {
            return None;
        };
        let inner = match i.checked_sub(1).and_then(|field| fields.get(field)) {
            Some((_, ty @ PgType::Record(_))) => {
                record_json(&Typed::new(expr.clone(), ty.clone()), ",")
            }
            _ => None,
        };
        args.push(inner.unwrap_or_else(|| expr.clone()));
    }
    if list.args.len() == 1 {
        args.push(string(separator));
    }
    Some(call("litewire_record_json", args))
}

/// [`to_json`] as `json` writes it: an array without the spaces `jsonb`
/// puts after its commas (`[1,2]`); a row as `jsonb` writes it where
/// `jsonb`.
pub(super) fn json_text(value: &Typed, jsonb: bool) -> Expr {
    match (&value.ty, jsonb) {
        (PgType::Array(_), false) => call("json", vec![to_json(value)]),
        (PgType::Record(_), true) => call("litewire_jsonb_in", vec![to_json(value)]),
        _ => to_json(value),
    }
}

/// Whether `expr` is the constant `false`.
fn is_false(expr: &Expr) -> bool {
    match expr {
        Expr::Value(v) => {
            matches!(v.value, sqlparser::ast::Value::Boolean(false)) || v.value.to_string() == "0"
        }
        Expr::Nested(inner) => is_false(inner),
        _ => false,
    }
}

/// How `litewire_to_jsonb` converts a value of `ty`.
pub(super) fn json_kind(ty: &PgType) -> String {
    match ty {
        PgType::Bool => "bool".into(),
        PgType::Bytea => "bytea".into(),
        PgType::Record(_) => "json".into(),
        t if t.is_numeric() => "number".into(),
        t if is_json(t) => "json".into(),
        PgType::Timestamp => "timestamp".into(),
        PgType::Timestamptz => "timestamptz".into(),
        PgType::Array(element) => format!("array:{}", json_kind(element)),
        _ => "text".into(),
    }
}

impl Translator<'_> {
    /// `left op right` with a JSON left operand (or `||`, `@>`, `<@` between
    /// JSON values); `None` when it is not a JSON operator.
    pub(super) fn json_operator(
        &mut self,
        left: &Typed,
        op: &BinaryOperator,
        right: &Typed,
    ) -> Result<Option<Typed>> {
        use BinaryOperator as B;
        let contained = is_json(&right.ty) && matches!(op, B::ArrowAt | B::AtArrow);
        if !(is_json(&left.ty) || contained) {
            return Ok(None);
        }
        let json_type = if is_json(&left.ty) {
            left.ty.clone()
        } else {
            right.ty.clone()
        };
        let as_json = |me: &mut Self, t: &Typed| -> Result<Typed> {
            match is_json(&t.ty) {
                true => Ok(t.clone()),
                false => me.cast(t.clone(), &json_type, CastContext::Implicit),
            }
        };
        let text_array = PgType::Array(Box::new(PgType::Text));
        let typed = |expr: Expr, ty: PgType| Ok(Some(Typed::new(expr, ty)));
        match op {
            B::Arrow | B::LongArrow => {
                let key = match right.ty.is_integer() {
                    true => right.expr.clone(),
                    false => self.text_argument(right.clone(), "->")?.expr,
                };
                let text = *op == B::LongArrow;
                // A `json` value's parts are its written text.
                let function = match left.ty {
                    PgType::Json => "litewire_json_text_get",
                    _ => "litewire_json_get",
                };
                let expr = call(
                    function,
                    vec![left.expr.clone(), key, number(if text { "1" } else { "0" })],
                );
                typed(expr, if text { PgType::Text } else { json_type })
            }
            B::HashArrow | B::HashLongArrow => {
                let path = self.cast(right.clone(), &text_array, CastContext::Implicit)?;
                let text = *op == B::HashLongArrow;
                let function = match left.ty {
                    PgType::Json => "litewire_json_text_path",
                    _ => "litewire_json_path",
                };
                let expr = call(
                    function,
                    vec![
                        left.expr.clone(),
                        path.expr,
                        number(if text { "1" } else { "0" }),
                    ],
                );
                typed(expr, if text { PgType::Text } else { json_type })
            }
            B::AtArrow | B::ArrowAt => {
                let (a, b) = (as_json(self, left)?, as_json(self, right)?);
                let (outer, inner) = if *op == B::AtArrow { (a, b) } else { (b, a) };
                typed(
                    call("litewire_jsonb_contains", vec![outer.expr, inner.expr]),
                    PgType::Bool,
                )
            }
            B::Question => {
                let key = self.text_argument(right.clone(), "?")?;
                typed(
                    call("litewire_jsonb_exists", vec![left.expr.clone(), key.expr]),
                    PgType::Bool,
                )
            }
            // `@?` and `@@`: the path functions, silent.
            B::AtQuestion | B::AtAt if left.ty == PgType::Jsonb => {
                let path = self.cast(right.clone(), &PgType::Jsonpath, CastContext::Implicit)?;
                let function = match op {
                    B::AtQuestion => "litewire_jsonb_path_exists",
                    _ => "litewire_jsonb_path_match",
                };
                let args = vec![left.expr.clone(), path.expr, string("{}"), number("1")];
                typed(call(function, args), PgType::Bool)
            }
            B::QuestionPipe | B::QuestionAnd => {
                let keys = self.cast(right.clone(), &text_array, CastContext::Implicit)?;
                let function = if *op == B::QuestionPipe {
                    "litewire_jsonb_exists_any"
                } else {
                    "litewire_jsonb_exists_all"
                };
                typed(
                    call(function, vec![left.expr.clone(), keys.expr]),
                    PgType::Bool,
                )
            }
            B::StringConcat if is_json(&right.ty) || right.untyped.is_some() => {
                let right = as_json(self, right)?;
                typed(
                    call("litewire_jsonb_concat", vec![left.expr.clone(), right.expr]),
                    json_type,
                )
            }
            B::Minus => {
                let key = match right.ty.is_integer() {
                    true => right.expr.clone(),
                    false => self.text_argument(right.clone(), "-")?.expr,
                };
                typed(
                    call("litewire_jsonb_delete", vec![left.expr.clone(), key]),
                    json_type,
                )
            }
            _ => Ok(None),
        }
    }

    /// A path function's arguments past the target: the path, `vars`
    /// (jsonb, `{}` if not given) and `silent` (false if not given).
    pub(super) fn path_arguments(&mut self, args: &[Typed], target: Expr) -> Result<Vec<Expr>> {
        let mut out = vec![target];
        let types = [PgType::Jsonpath, PgType::Jsonb, PgType::Bool];
        for (arg, ty) in args[1..].iter().zip(&types) {
            out.push(self.cast(arg.clone(), ty, CastContext::Implicit)?.expr);
        }
        if out.len() < 3 {
            out.push(string("{}"));
        }
        Ok(out)
    }

    /// A JSON function PostgreSQL has (`to_jsonb`, `jsonb_build_object`,
    /// ...), if `name` is one, with its arguments translated.
    pub(super) fn json_function(&mut self, name: &str, args: &[Typed]) -> Result<Option<Typed>> {
        // `ROW(a, b)`: a row, which the JSON functions read as an object.
        if name == "row" && !args.is_empty() {
            return self.row_value(args).map(Some);
        }
        let jsonb = name.starts_with("jsonb") || name == "to_jsonb";
        let ty = if jsonb { PgType::Jsonb } else { PgType::Json };
        let types: Vec<PgType> = args.iter().map(|a| a.ty.clone()).collect();
        let first_json = |me: &mut Self| -> Result<Expr> {
            let first = args
                .first()
                .ok_or_else(|| undefined_function(name, &types))?;
            if is_json(&first.ty) || first.ty.is_opaque() {
                return Ok(first.expr.clone());
            }
            let cast = me.coerce(first.clone(), &ty)?;
            cast.map(|c| c.expr)
                .ok_or_else(|| undefined_function(name, &types))
        };
        let (expr, result) = match name {
            "row_to_json" => match args {
                [row] if matches!(row.ty, PgType::Record(_)) => (to_json(row), PgType::Json),
                [row, pretty] if matches!(row.ty, PgType::Record(_)) => {
                    let separator = match pretty.expr.to_string().to_ascii_lowercase().as_str() {
                        "true" | "1" => ",\n ",
                        "false" | "0" => ",",
                        _ => return Err(Fail::Unsupported("row_to_json's pretty flag")),
                    };
                    let json = record_json(row, separator).unwrap_or_else(|| to_json(row));
                    (json, PgType::Json)
                }
                _ => return Err(undefined_function(name, &types)),
            },
            "to_json" | "to_jsonb" => match args {
                [value] => (json_text(value, jsonb), ty),
                _ => return Err(undefined_function(name, &types)),
            },
            // Pretty-printed, PostgreSQL puts a line break between the
            // elements: only the compact form is here.
            "array_to_json"
                if matches!(args.first().map(|a| &a.ty), Some(PgType::Array(_)))
                    && args.get(1).is_none_or(|pretty| is_false(&pretty.expr)) =>
            {
                (json_text(&args[0], false), PgType::Json)
            }
            "json_build_object" | "jsonb_build_object" => {
                let values = args.iter().map(|a| json_text(a, jsonb)).collect();
                let function = match jsonb {
                    true => "litewire_jsonb_build_object",
                    false => "litewire_json_build_object",
                };
                (call(function, values), ty)
            }
            "json_build_array" | "jsonb_build_array" => {
                let values = args.iter().map(|a| json_text(a, jsonb)).collect();
                (call("litewire_jsonb_build_array", values), ty)
            }
            "json_typeof" | "jsonb_typeof" => (
                call("litewire_jsonb_typeof", vec![first_json(self)?]),
                PgType::Text,
            ),
            "json_array_length" | "jsonb_array_length"
                if args
                    .first()
                    .is_some_and(|a| is_json(&a.ty) || a.untyped.is_some()) =>
            {
                (
                    call("litewire_jsonb_array_length", vec![first_json(self)?]),
                    PgType::Int4,
                )
            }
            "json_extract_path"
            | "jsonb_extract_path"
            | "json_extract_path_text"
            | "jsonb_extract_path_text" => {
                let text = name.ends_with("_text");
                let mut call_args = vec![number(if text { "1" } else { "0" }), first_json(self)?];
                for key in &args[1..] {
                    call_args.push(self.text_argument(key.clone(), name)?.expr);
                }
                let function = match ty {
                    PgType::Json => "litewire_json_text_path_of",
                    _ => "litewire_json_path_of",
                };
                let result = if text { PgType::Text } else { ty };
                (call(function, call_args), result)
            }
            "jsonb_set" if (3..=4).contains(&args.len()) => {
                let path = self.cast(
                    args[1].clone(),
                    &PgType::Array(Box::new(PgType::Text)),
                    CastContext::Implicit,
                )?;
                let new = self.cast(args[2].clone(), &PgType::Jsonb, CastContext::Implicit)?;
                let mut call_args = vec![first_json(self)?, path.expr, new.expr];
                if let Some(create) = args.get(3) {
                    call_args.push(
                        self.cast(create.clone(), &PgType::Bool, CastContext::Implicit)?
                            .expr,
                    );
                }
                (call("litewire_jsonb_set", call_args), PgType::Jsonb)
            }
            "json_object" | "jsonb_object" if (1..=2).contains(&args.len()) => {
                let mut call_args = vec![number(if jsonb { "1" } else { "0" })];
                call_args.extend(args.iter().map(|a| a.expr.clone()));
                (call("litewire_json_object", call_args), ty)
            }
            "jsonb_pretty" => (call("jsonb_pretty", vec![first_json(self)?]), PgType::Text),
            path if (2..=4).contains(&args.len())
                && let Some((engine, result)) = path_function(path) =>
            {
                let target = first_json(self)?;
                let call_args = self.path_arguments(args, target)?;
                (call(engine, call_args), result)
            }
            "jsonb_insert" if (3..=4).contains(&args.len()) => {
                let mut call_args = vec![first_json(self)?];
                call_args.extend(args[1..].iter().map(|a| a.expr.clone()));
                (call("litewire_jsonb_insert", call_args), PgType::Jsonb)
            }
            "json_strip_nulls" | "jsonb_strip_nulls" => (
                call("litewire_jsonb_strip_nulls", vec![first_json(self)?]),
                ty,
            ),
            _ => return Ok(None),
        };
        Ok(Some(Typed::new(expr, result).named(name.to_owned(), 2)))
    }
}

/// A scalar SQL/JSON path function (with or without `_tz`): the engine's
/// function and the result type.
fn path_function(name: &str) -> Option<(&'static str, PgType)> {
    Some(match name.trim_end_matches("_tz") {
        "jsonb_path_exists" => ("litewire_jsonb_path_exists", PgType::Bool),
        "jsonb_path_match" => ("litewire_jsonb_path_match", PgType::Bool),
        "jsonb_path_query_array" => ("litewire_jsonb_path_query_array", PgType::Jsonb),
        "jsonb_path_query_first" => ("litewire_jsonb_path_query_first", PgType::Jsonb),
        _ => return None,
    })
}
