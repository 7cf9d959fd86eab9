//! Function calls: each argument translated, the call typed as PostgreSQL
//! types it (`count` is `bigint`, `sum(int4)` `bigint`, `avg` `numeric`,
//! `length` `integer`...), named after the function, and, where SQLite's
//! function of the same name means something else, replaced by the engine's
//! (`upper` on all of Unicode, `substr` with PostgreSQL's bounds). Inside
//! aggregates and window definitions, `ORDER BY` places NULLs as PostgreSQL
//! does.
//!
//! A function the translation does not know keeps its name, with its
//! arguments translated, and is typed [`PgType::Opaque`]: SQLite's own
//! (`printf`, `typeof`, `json_extract`) and litewire's catalog functions,
//! which the statement-level translation answers.

use sqlparser::ast::{
    Expr, Function, FunctionArg, FunctionArgExpr, FunctionArgumentClause, FunctionArguments,
    WindowType,
};

use super::aggregates::{is_aggregate, numeric_spread};
use super::errors::{
    Result, ambiguous_function, undefined_function, undefined_schema, wrong_object_type,
};
use super::named_calls;
use super::names::{folded_part, function_name};
use super::numeric_scales;
use super::scope::Scope;
use super::translator::{Translator, Typed};
use super::types::{ObjectKind, PgType};

/// How a known function's result is typed from its arguments.
enum Returns {
    Fixed(PgType),
    /// The first argument's type.
    First,
    /// The common type of every argument (`coalesce`, `greatest`).
    Common,
    Sum,
    Avg,
    /// `array_agg`: an array of the argument's type.
    ArrayOf,
    /// A statistics aggregate: `numeric` of integers and numerics, else
    /// double precision.
    FloatOrNumeric,
    /// A math function with a `float8` and a `numeric` form: PostgreSQL
    /// prefers the float one for integers, the numeric one when an argument
    /// is numeric and none is a float, and has only the numeric one with a
    /// second argument to `round` and `trunc`.
    Math,
}

/// What an argument of a known function must be.
#[derive(Clone, Copy)]
enum Arg {
    Text,
    Int,
    /// Text or `bytea` (`length`, `octet_length`).
    Bytes,
    /// `bytea` only: an untyped literal is read as one (`encode`).
    Bytea,
    /// A number, read as float8 (a `real` one widened as PostgreSQL widens it).
    Float,
    /// Any value, as PostgreSQL's output shows it (a boolean as `t`/`f`);
    /// last in a list, it stands for every argument from there on.
    Shown,
}

/// A known function: what it returns, what its arguments must be (in order;
/// those past the list may be anything), and the engine function that
/// answers it where SQLite's would not.
struct Known {
    returns: Returns,
    args: &'static [Arg],
    engine: Option<&'static str>,
}

const fn known(returns: Returns, args: &'static [Arg], engine: Option<&'static str>) -> Known {
    Known {
        returns,
        args,
        engine,
    }
}

/// A float8 function of one float8.
const fn trigonometric(engine: &'static str) -> Known {
    known(Returns::Fixed(PgType::Float8), &[FLOAT], Some(engine))
}

const TEXT: Arg = Arg::Text;
const INT: Arg = Arg::Int;
const FLOAT: Arg = Arg::Float;

fn lookup(name: &str) -> Option<Known> {
    use PgType::*;
    use Returns::*;
    Some(match name {
        "count" => known(Fixed(Int8), &[], None),
        "sum" => known(Sum, &[], None),
        "avg" => known(Avg, &[], None),
        "min" | "max" => known(First, &[], None),
        "bit_and" | "bit_or" | "bit_xor" => known(First, &[], None),
        "bool_and" | "bool_or" | "every" => known(Fixed(Bool), &[], None),
        "var_pop" | "var_samp" | "variance" | "stddev_pop" | "stddev_samp" | "stddev" => {
            known(FloatOrNumeric, &[FLOAT], None)
        }
        "regr_count" => known(Fixed(Int8), &[FLOAT, FLOAT], None),
        "regr_sxx" | "regr_syy" | "regr_sxy" | "regr_avgx" | "regr_avgy" | "regr_r2"
        | "regr_slope" | "regr_intercept" | "covar_pop" | "covar_samp" | "corr" => {
            known(Fixed(Float8), &[FLOAT, FLOAT], None)
        }
        "string_agg" => known(Fixed(Text), &[TEXT, TEXT], None),
        "array_agg" => known(ArrayOf, &[], None),
        // Arrays' shapes, and their elements found.
        "cardinality" | "array_ndims" | "array_lower" | "array_upper" | "array_length" => {
            known(Fixed(Int4), &[], None)
        }
        "array_dims" | "timeofday" => known(Fixed(Text), &[], None),
        "num_nulls" | "num_nonnulls" => known(Fixed(Int4), &[], None),
        "bit_length" => known(Fixed(Int4), &[Arg::Bytes], None),
        "convert_to" => known(Fixed(Bytea), &[TEXT, TEXT], None),
        "convert_from" => known(Fixed(Text), &[Arg::Bytea, TEXT], None),
        "factorial" => known(Fixed(Numeric), &[INT], None),
        "array_position" => known(Fixed(Int4), &[], None),
        "array_positions" => known(Fixed(PgType::Array(Box::new(Int4))), &[], None),
        "array_remove" | "array_replace" | "trim_array" => known(First, &[], None),
        "array_fill" => known(ArrayOf, &[], None),
        "string_to_array" => known(Fixed(PgType::Array(Box::new(Text))), &[TEXT], None),
        "row_number" | "rank" | "dense_rank" | "ntile" => known(Fixed(Int8), &[], None),
        "percent_rank" | "cume_dist" => known(Fixed(Float8), &[], None),
        "lag" | "lead" | "first_value" | "last_value" | "nth_value" => known(First, &[], None),
        "length" => known(Fixed(Int4), &[Arg::Bytes], None),
        "char_length" | "character_length" => known(Fixed(Int4), &[TEXT], Some("length")),
        "octet_length" => known(Fixed(Int4), &[Arg::Bytes], None),
        "upper" => known(Fixed(Text), &[TEXT], Some("litewire_upper")),
        "lower" => known(Fixed(Text), &[TEXT], Some("litewire_lower")),
        "initcap" => known(Fixed(Text), &[TEXT], Some("litewire_initcap")),
        "substr" | "substring" => known(Fixed(Text), &[TEXT, INT, INT], Some("litewire_substr")),
        "replace" => known(Fixed(Text), &[TEXT, TEXT, TEXT], None),
        "unistr" => known(Fixed(Text), &[TEXT], Some("litewire_unistr")),
        "btrim" => known(Fixed(Text), &[TEXT, TEXT], Some("trim")),
        "ltrim" | "rtrim" => known(Fixed(Text), &[TEXT, TEXT], None),
        "strpos" => known(Fixed(Int4), &[TEXT, TEXT], Some("instr")),
        "format" => known(Fixed(Text), &[TEXT, Arg::Shown], Some("litewire_format")),
        "quote_ident" | "quote_literal" | "quote_nullable" => known(Fixed(Text), &[], None),
        "abs" => known(First, &[], None),
        "round" | "trunc" | "ceil" | "ceiling" | "floor" | "sign" => known(Math, &[], None),
        "sqrt" => known(Math, &[], Some("litewire_sqrt")),
        "exp" => known(Math, &[], Some("litewire_exp")),
        "ln" => known(Math, &[], Some("litewire_ln")),
        "log" | "log10" => known(Math, &[], Some("litewire_log10")),
        "power" | "pow" => known(Math, &[], Some("litewire_power")),
        "pi" => known(Fixed(Float8), &[], None),
        "isfinite" => known(Fixed(Bool), &[], None),
        "random" => known(Fixed(Float8), &[], Some("litewire_random")),
        "gcd" => known(First, &[], Some("litewire_gcd")),
        "lcm" => known(First, &[], Some("litewire_lcm")),
        "div" => known(Fixed(Numeric), &[], Some("litewire_div")),
        // A numeric's digits after the point: shown, fewest, trimmed.
        "scale" => known(Fixed(Int4), &[], Some("litewire_numeric_scale")),
        "min_scale" => known(Fixed(Int4), &[], Some("litewire_min_scale")),
        "trim_scale" => known(Fixed(Numeric), &[], Some("litewire_trim_scale")),
        "width_bucket" => known(
            Fixed(Int4),
            &[FLOAT, FLOAT, FLOAT, INT],
            Some("litewire_width_bucket"),
        ),
        "sin" => trigonometric("litewire_sin"),
        "cos" => trigonometric("litewire_cos"),
        "tan" => trigonometric("litewire_tan"),
        "cot" => trigonometric("litewire_cot"),
        "asin" => trigonometric("litewire_asin"),
        "acos" => trigonometric("litewire_acos"),
        "atan" => trigonometric("litewire_atan"),
        "atan2" => known(Fixed(Float8), &[FLOAT, FLOAT], Some("litewire_atan2")),
        "sind" => trigonometric("litewire_sind"),
        "cosd" => trigonometric("litewire_cosd"),
        "tand" => trigonometric("litewire_tand"),
        "cotd" => trigonometric("litewire_cotd"),
        "asind" => trigonometric("litewire_asind"),
        "acosd" => trigonometric("litewire_acosd"),
        "atand" => trigonometric("litewire_atand"),
        "atan2d" => known(Fixed(Float8), &[FLOAT, FLOAT], Some("litewire_atan2d")),
        "sinh" => trigonometric("litewire_sinh"),
        "cosh" => trigonometric("litewire_cosh"),
        "tanh" => trigonometric("litewire_tanh"),
        "asinh" => trigonometric("litewire_asinh"),
        "acosh" => trigonometric("litewire_acosh"),
        "atanh" => trigonometric("litewire_atanh"),
        "degrees" => trigonometric("litewire_degrees"),
        "radians" => trigonometric("litewire_radians"),
        "cbrt" => trigonometric("litewire_cbrt"),
        "coalesce" => known(Common, &[], None),
        "greatest" => known(Common, &[], Some("litewire_greatest")),
        "least" => known(Common, &[], Some("litewire_least")),
        "nullif" => known(First, &[], None),
        "now" | "transaction_timestamp" | "statement_timestamp" | "clock_timestamp" => {
            known(Fixed(Timestamptz), &[], None)
        }
        "gen_random_uuid" | "uuid_generate_v4" | "uuid_generate_v1" | "uuid_generate_v1mc"
        | "uuid_nil" | "uuid_ns_dns" | "uuid_ns_url" | "uuid_ns_oid" | "uuid_ns_x500"
        | "uuid_generate_v3" | "uuid_generate_v5" => known(Fixed(Uuid), &[], None),
        "digest" => known(Fixed(Bytea), &[Arg::Bytes, TEXT], None),
        "hmac" => known(Fixed(Bytea), &[Arg::Bytes, Arg::Bytes, TEXT], None),
        "gen_random_bytes" => known(Fixed(Bytea), &[INT], None),
        "version" | "current_setting" => known(Fixed(Text), &[], None),
        "current_schema" | "current_database" => known(Fixed(Name), &[], None),
        "to_regclass" => known(Fixed(Reg(ObjectKind::Class)), &[TEXT], None),
        "to_regtype" => known(Fixed(Reg(ObjectKind::Type)), &[TEXT], None),
        "to_regproc" => known(Fixed(Reg(ObjectKind::Proc)), &[TEXT], None),
        "to_regnamespace" => known(Fixed(Reg(ObjectKind::Namespace)), &[TEXT], None),
        "to_regrole" => known(Fixed(Reg(ObjectKind::Role)), &[TEXT], None),
        "repeat" | "left" | "right" => known(Fixed(Text), &[TEXT, INT], None),
        "split_part" => known(Fixed(Text), &[TEXT, TEXT, INT], None),
        "lpad" | "rpad" => known(Fixed(Text), &[TEXT, INT, TEXT], None),
        "translate" => known(Fixed(Text), &[TEXT, TEXT, TEXT], None),
        "ascii" => known(Fixed(Int4), &[TEXT], None),
        "chr" => known(Fixed(Text), &[INT], None),
        "reverse" => known(Fixed(Text), &[TEXT], None),
        "starts_with" => known(Fixed(Bool), &[TEXT, TEXT], None),
        "concat" => known(Fixed(Text), &[Arg::Shown], None),
        "concat_ws" => known(Fixed(Text), &[TEXT, Arg::Shown], None),
        "regexp_replace" => known(Fixed(Text), &[TEXT, TEXT, TEXT], None),
        "regexp_match" | "regexp_split_to_array" => {
            known(Fixed(Array(Box::new(Text))), &[TEXT, TEXT, TEXT], None)
        }
        "regexp_like" => known(Fixed(Bool), &[TEXT, TEXT, TEXT], None),
        "regexp_count" => known(Fixed(Int4), &[TEXT, TEXT, INT, TEXT], None),
        "regexp_instr" => known(Fixed(Int4), &[TEXT, TEXT, INT, INT, INT, TEXT, INT], None),
        "regexp_substr" => known(Fixed(Text), &[TEXT, TEXT, INT, INT, TEXT, INT], None),
        "md5" => known(Fixed(Text), &[Arg::Bytes], None),
        "sha224" | "sha256" | "sha384" | "sha512" => known(Fixed(Bytea), &[Arg::Bytes], None),
        "encode" => known(Fixed(Text), &[Arg::Bytea, TEXT], None),
        "get_bit" | "get_byte" => known(Fixed(Int4), &[Arg::Bytea, INT], None),
        "set_bit" | "set_byte" => known(Fixed(Bytea), &[Arg::Bytea, INT, INT], None),
        "bit_count" => known(Fixed(Int8), &[Arg::Bytea], None),
        "decode" => known(Fixed(Bytea), &[TEXT, TEXT], None),
        "to_hex" => known(Fixed(Text), &[INT], None),
        "to_timestamp" => known(Fixed(Timestamptz), &[FLOAT], None),
        "make_date" => known(Fixed(Date), &[INT, INT, INT], None),
        "make_time" => known(Fixed(Time), &[INT, INT, FLOAT], None),
        "make_timestamp" => known(Fixed(Timestamp), &[INT, INT, INT, INT, INT, FLOAT], None),
        "make_timestamptz" => known(Fixed(Timestamptz), &[INT, INT, INT, INT, INT, FLOAT], None),
        "json_agg" => known(Fixed(Json), &[], Some("litewire_json_agg")),
        "jsonb_agg" => known(Fixed(Jsonb), &[], Some("litewire_jsonb_agg")),
        "json_object_agg" => known(Fixed(Json), &[], Some("litewire_json_object_agg")),
        "jsonb_object_agg" => known(Fixed(Jsonb), &[], Some("litewire_jsonb_object_agg")),
        // Addresses' parts (see the engine's `network`).
        "host" | "abbrev" => known(Fixed(Text), &[], None),
        "masklen" | "family" => known(Fixed(Int4), &[], None),
        "network" => known(Fixed(Cidr), &[], None),
        "broadcast" | "netmask" | "hostmask" | "set_masklen" => known(Fixed(Inet), &[], None),
        "age" | "justify_days" | "justify_hours" | "justify_interval" | "make_interval" => {
            known(Fixed(Interval), &[], None)
        }
        "nextval" | "currval" | "setval" | "lastval" => known(Fixed(Int8), &[], None),
        _ => return None,
    })
}

/// Whether the first argument is of type `ty`.
fn first_is(args: &[Typed], ty: &PgType) -> bool {
    args.first().is_some_and(|a| a.ty == *ty)
}

impl Translator<'_> {
    pub(super) fn function(
        &mut self,
        original: &Expr,
        function: &Function,
        scope: &Scope,
    ) -> Result<Typed> {
        let name = function_name(function);
        if let FunctionArguments::Subquery(query) = &function.args
            && name == "array"
        {
            return self.array_of_query(function, query, scope);
        }
        let FunctionArguments::List(list) = &function.args else {
            if let Some(now) = super::datetimes::local_now(&name) {
                return Ok(now);
            }
            // `CURRENT_TIMESTAMP`, `CURRENT_USER`, ...: the statement-level
            // translation answers them.
            let ty = match name.as_str() {
                "current_timestamp" => PgType::Timestamptz,
                "current_time" => PgType::Other("timetz".into()),
                "current_user" | "session_user" | "user" | "current_role" | "current_catalog"
                | "current_schema" => PgType::Name,
                _ => PgType::Opaque,
            };
            return Ok(Typed::new(original.clone(), ty).named(name, 2));
        };
        if let Some(call) = self.user_call(function, list, &name, scope)? {
            return Ok(call.named(name, 2));
        }
        if let Some(cast) = named_calls::function_style_cast(function, list, &name)?
            .or_else(|| named_calls::comparison_function(function, list, &name))
        {
            return Ok(self.expr(&cast, scope)?.named(name, 2));
        }
        if let Some(call) = self.variadic_call(list, &name, lookup(&name).is_some(), scope)? {
            return Ok(call);
        }
        // `rank(x) WITHIN GROUP (ORDER BY y)` is an aggregate too.
        let aggregate =
            (is_aggregate(&name) || !function.within_group.is_empty()) && function.over.is_none();
        if aggregate {
            self.aggregated = true;
            self.aggregate_depth += 1;
        }
        let translated = self.call(original, function, list, &name, scope);
        if aggregate {
            self.aggregate_depth -= 1;
        }
        translated
    }

    /// A plain call of a function of the user's (PostgreSQL's own of the
    /// same name come first, as `pg_catalog` is searched first).
    fn user_call(
        &mut self,
        function: &Function,
        list: &sqlparser::ast::FunctionArgumentList,
        name: &str,
        scope: &Scope,
    ) -> Result<Option<Typed>> {
        // A qualified name's schema must exist, whether or not the user has
        // functions.
        if self.catalog.functions().is_empty() && function.name.0.len() == 1 {
            return Ok(None);
        }
        // Its SQLite name (`s.f` for one of schema `s`, see `schema_names`):
        // as qualified, else the first the path finds.
        let schemas = self.catalog.schemas();
        let in_schema = |schema: &str| match schema {
            "public" => name.to_owned(),
            _ => format!("{schema}.{name}"),
        };
        let stored = match function.name.0.as_slice() {
            [_] => {
                let defined =
                    |stored: &String| self.catalog.functions().iter().any(|f| f.name == *stored);
                self.catalog
                    .search_path()
                    .iter()
                    .map(|schema| in_schema(schema))
                    .find(defined)
                    .unwrap_or_else(|| name.to_owned())
            }
            [schema, _] => {
                let schema = folded_part(schema);
                if matches!(schema.as_str(), "pg_catalog" | "information_schema") {
                    return Ok(None);
                }
                if schema != "public" && !schemas.contains(&schema) {
                    return Err(undefined_schema(&schema));
                }
                in_schema(&schema)
            }
            _ => return Ok(None),
        };
        // Named in a schema of the user's, it is the user's or none.
        let only_users = function.name.0.len() == 2 && stored != name;
        if (function.name.0.len() == 1 && lookup(name).is_some())
            || function.over.is_some()
            || function.filter.is_some()
            || !function.within_group.is_empty()
            || !list.clauses.is_empty()
            || list.duplicate_treatment.is_some()
        {
            return Ok(None);
        }
        let mut args = Vec::with_capacity(list.args.len());
        for arg in &list.args {
            match arg {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => args.push(e.clone()),
                _ => return Ok(None),
            }
        }
        match self.user_function(&stored, &args, scope)? {
            None if only_users => {
                let mut types = Vec::with_capacity(args.len());
                for arg in &args {
                    types.push(self.expr(arg, scope)?.ty);
                }
                Err(undefined_function(&stored, &types))
            }
            found => Ok(found),
        }
    }

    fn call(
        &mut self,
        original: &Expr,
        function: &Function,
        list: &sqlparser::ast::FunctionArgumentList,
        name: &str,
        scope: &Scope,
    ) -> Result<Typed> {
        let _ = original;
        // An ordered-set aggregate called with what its arguments and sort
        // key would be.
        let ordered_arity = match name {
            "percentile_cont" | "percentile_disc" => 2,
            "mode" => 1,
            _ => 0,
        };
        if function.within_group.is_empty() && ordered_arity > 0 && list.args.len() == ordered_arity
        {
            return Err(wrong_object_type(format!(
                "WITHIN GROUP is required for ordered-set aggregate {name}"
            )));
        }
        let name = name.to_owned();
        let mut translated = function.clone();
        let mut args = Vec::with_capacity(list.args.len());
        let mut plain = true;
        let names_sequence = matches!(name.as_str(), "nextval" | "currval" | "setval");
        let direct = !function.within_group.is_empty() && self.aggregate_depth > 0;
        let aggregated_before = self.aggregated;
        for arg in &list.args {
            match arg {
                // `nextval('s'::regclass)`: the sequence is named as written,
                // which is how the sequence functions find it.
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e))
                    if names_sequence && args.is_empty() && is_literal_regclass(e) =>
                {
                    args.push(Typed::new(e.clone(), PgType::Reg(ObjectKind::Class)));
                }
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) if direct => {
                    // An ordered-set aggregate's direct arguments are
                    // evaluated once per group, outside the aggregate.
                    self.aggregate_depth -= 1;
                    let arg = self.expr(e, scope);
                    self.aggregate_depth += 1;
                    args.push(arg?);
                }
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => args.push(self.expr(e, scope)?),
                // `count(*)` counts rows: it takes no value.
                FunctionArg::Unnamed(FunctionArgExpr::Wildcard) if name == "count" => {}
                // `f(t.*)`: the row of `t`.
                FunctionArg::Unnamed(FunctionArgExpr::QualifiedWildcard(relation))
                    if let Some(last) = relation.0.last().and_then(|p| p.as_ident())
                        && let Some(row) = self.whole_row(&last.value, scope)? =>
                {
                    args.push(row);
                }
                _ => plain = false,
            }
        }
        if !function.within_group.is_empty() && plain {
            return self.ordered_set(function, &name, args, scope);
        }
        if name == "mod" && plain && args.len() == 2 && function.over.is_none() {
            let right = args.pop();
            let left = args.pop();
            if let (Some(left), Some(right)) = (left, right) {
                let modulo = self.binary(left, &sqlparser::ast::BinaryOperator::Modulo, right)?;
                return Ok(modulo.named(name, 2));
            }
        }
        // The type is known here, before anything runs.
        if name == "pg_typeof"
            && plain
            && function.over.is_none()
            && let [arg] = args.as_slice()
            && !arg.ty.is_opaque()
        {
            let shown = match arg.untyped {
                Some(_) => "unknown".to_owned(),
                None => arg.ty.display(),
            };
            // PostgreSQL's type is `regtype`, whose binary form is the type's
            // oid; as text, which every client reads, the name.
            let shown = super::build::string(&shown);
            // Of an aggregate, the aggregate still makes the query one.
            let shown = match self.aggregated && !aggregated_before {
                true => super::build::case_when(
                    vec![(
                        Expr::IsNull(Box::new(super::build::nested(arg.expr.clone()))),
                        shown.clone(),
                    )],
                    shown,
                ),
                false => shown,
            };
            return Ok(Typed::new(shown, PgType::Text).named(name, 2));
        }
        if plain
            && function.over.is_none()
            && let Some(typed) = self.date_function(&name, &args)?
        {
            return Ok(typed);
        }
        if plain
            && function.over.is_none()
            && function.filter.is_none()
            && let Some(typed) = self.json_function(&name, &args)?
        {
            return Ok(typed);
        }
        if plain
            && function.over.is_none()
            && let Some(typed) = self.bytea_function(&name, &args)?
        {
            return Ok(typed);
        }
        // `string_agg` of bytes joins bytes.
        let bytes_joined = plain && name == "string_agg" && first_is(&args, &PgType::Bytea);
        if bytes_joined {
            self.bytea_delimiter(&mut args)?;
        }
        // `scale(x)` is the display scale the statement fixes, if it does.
        if let ("scale", [value]) = (name.as_str(), args.as_slice()) {
            let shown = value.numeric_scale().map_or(-1, i64::from);
            args.push(Typed::new(
                super::build::number(shown.to_string()),
                PgType::Int4,
            ));
        }
        // JSON aggregates take each value as JSON.
        if plain
            && matches!(
                name.as_str(),
                "json_agg" | "jsonb_agg" | "json_object_agg" | "jsonb_object_agg"
            )
        {
            // `json_agg` writes as PostgreSQL's does: arrays compact, a line
            // break before each array or row after the first.
            if let ("json_agg", [arg]) = (name.as_str(), args.as_mut_slice()) {
                let structured = matches!(arg.ty, PgType::Array(_) | PgType::Record(_));
                arg.expr = super::json::json_text(arg, false);
                let flag = super::build::number(if structured { "1" } else { "0" });
                args.push(Typed::new(flag, PgType::Bool));
            } else if let ("json_object_agg", [_, value]) = (name.as_str(), args.as_mut_slice()) {
                value.expr = super::json::json_text(value, false);
            } else {
                for arg in &mut args {
                    arg.expr = super::json::to_json(arg);
                }
            }
        }
        let known = lookup(&name).filter(|_| plain && !bytes_joined);
        let ty = match &known {
            None if bytes_joined => PgType::Bytea,
            Some(known) => {
                args = self.known_arguments(&name, known, args)?;
                if matches!(known.returns, Returns::Common) {
                    args = self.unify(args, &name.to_ascii_uppercase())?;
                }
                self.returns(&name, &known.returns, &args)?
            }
            None => PgType::Opaque,
        };
        let scale = match ty {
            PgType::Numeric => numeric_scales::function_result(&name, &args),
            _ => None,
        };
        // A boolean array shows its elements as `t` and `f` where it is text.
        if name == "array_to_string" && plain && first_is(&args, &PgType::bool_array()) {
            args[0].expr =
                super::build::call("litewire_bool_array_text", vec![args[0].expr.clone()]);
        }
        // `avg(real)` reads each value widened, as PostgreSQL does.
        if name == "avg" && plain && function.over.is_none() && first_is(&args, &PgType::Float4) {
            let value = args[0].expr.clone();
            args[0].expr = super::build::call("litewire_float4_value", vec![value]);
        }
        let engine = match (name.as_str(), &ty) {
            // Half to even, where SQLite's rounds half away from zero; to places in decimal.
            ("round", PgType::Float8) if args.len() == 1 => Some("litewire_rint"),
            ("round", PgType::Numeric) if args.len() == 2 => Some("litewire_numeric_round"),
            ("trunc", PgType::Numeric) if args.len() == 2 => Some("litewire_numeric_trunc"),
            // `log(base, x)`; `log(x)` is base 10.
            ("log", _) if args.len() == 2 => Some("litewire_log"),
            // Sums and averages as PostgreSQL's (in a window, SQLite's own).
            ("string_agg", PgType::Bytea) => Some("litewire_bytea_agg"),
            _ if function.over.is_some() => known.as_ref().and_then(|k| k.engine),
            ("sum", PgType::Float8) if first_is(&args, &PgType::Float8) => {
                Some("litewire_float_sum")
            }
            ("sum", PgType::Float4) => Some("litewire_float4_sum"),
            // numeric adds in decimal (see the engine's `decimal`).
            ("sum", PgType::Numeric) if first_is(&args, &PgType::Numeric) => {
                Some("litewire_numeric_sum")
            }
            ("avg", PgType::Numeric) if first_is(&args, &PgType::Numeric) => {
                Some("litewire_numeric_avg")
            }
            ("avg", PgType::Float8) => Some("litewire_float_avg"),
            ("avg", PgType::Numeric) if args.first().is_some_and(|a| a.ty.is_integer()) => {
                Some("litewire_int_avg")
            }
            // Intervals add and compare by their parts, not their text.
            ("sum" | "avg" | "min" | "max", PgType::Interval) => match name.as_str() {
                "sum" => Some("litewire_interval_sum"),
                "avg" => Some("litewire_interval_avg"),
                "min" => Some("litewire_interval_min"),
                _ => Some("litewire_interval_max"),
            },
            (_, PgType::Numeric) if numeric_spread(&name).is_some() => numeric_spread(&name),
            ("abbrev", _) if first_is(&args, &PgType::Cidr) => Some("litewire_cidr_abbrev"),
            // int4's `gcd` and `lcm` are checked against int4's range.
            ("gcd", PgType::Int4 | PgType::Int2) => Some("litewire_gcd4"),
            ("lcm", PgType::Int4 | PgType::Int2) => Some("litewire_lcm4"),
            // `to_hex(integer)` shows a negative number in 32 bits.
            ("to_hex", _) if args.first().is_some_and(|a| a.ty != PgType::Int8) => {
                Some("litewire_to_hex4")
            }
            _ => known.as_ref().and_then(|k| k.engine),
        };
        if let Some(engine) = engine {
            translated.name =
                sqlparser::ast::ObjectName::from(vec![sqlparser::ast::Ident::new(engine)]);
        }
        let mut list = list.clone();
        let mut translated_args = args.into_iter().map(|a| a.expr);
        for arg in &mut list.args {
            if let FunctionArg::Unnamed(
                e @ (FunctionArgExpr::Expr(_) | FunctionArgExpr::QualifiedWildcard(_)),
            ) = arg
                && let Some(t) = translated_args.next()
            {
                *e = FunctionArgExpr::Expr(t);
            }
        }
        // Arguments the translation added (`json_agg`'s flag).
        list.args
            .extend(translated_args.map(|t| FunctionArg::Unnamed(FunctionArgExpr::Expr(t))));
        for clause in &mut list.clauses {
            if let FunctionArgumentClause::OrderBy(items) = clause {
                *items = self.order_items(items, scope, None)?;
            }
        }
        translated.args = FunctionArguments::List(list);
        if let Some(filter) = &function.filter {
            translated.filter = Some(Box::new(self.condition(filter, scope, "FILTER")?));
        }
        if let Some(WindowType::WindowSpec(spec)) = &function.over {
            let mut spec = spec.clone();
            spec.partition_by = spec
                .partition_by
                .iter()
                .map(|e| self.expr(e, scope).map(|t| t.expr))
                .collect::<Result<_>>()?;
            spec.order_by = self.order_items(&spec.order_by, scope, None)?;
            translated.over = Some(WindowType::WindowSpec(spec));
        }
        Ok(Typed::new(Expr::Function(translated), ty)
            .scaled(scale)
            .named(name, 2))
    }

    /// `CEIL(x)`, `FLOOR(x)` written as keywords.
    pub(super) fn rounding(&mut self, name: &str, value: Typed) -> Result<Typed> {
        let ty = self.returns(name, &Returns::Math, std::slice::from_ref(&value))?;
        Ok(Typed::new(super::build::call(name, vec![value.expr]), ty)
            .scaled(Some(0))
            .named(name, 2))
    }

    /// A known function's arguments, made the types it takes.
    fn known_arguments(
        &mut self,
        name: &str,
        known: &Known,
        args: Vec<Typed>,
    ) -> Result<Vec<Typed>> {
        let types: Vec<PgType> = args.iter().map(|a| a.ty.clone()).collect();
        let mut out = Vec::with_capacity(args.len());
        let rest = known.args.last().filter(|a| matches!(a, Arg::Shown));
        for (i, arg) in args.into_iter().enumerate() {
            out.push(match known.args.get(i).or(rest) {
                Some(Arg::Shown) if arg.ty == PgType::Bool => {
                    Typed::new(super::build::boolean_shown(arg.expr), PgType::Text)
                }
                Some(Arg::Shown) => arg,
                Some(Arg::Bytes | Arg::Bytea) if arg.ty == PgType::Bytea => arg,
                Some(Arg::Bytea) if arg.untyped.is_some() => {
                    self.cast(arg, &PgType::Bytea, super::casts::CastContext::Implicit)?
                }
                Some(Arg::Bytea) if !arg.ty.is_opaque() => {
                    return Err(undefined_function(name, &types));
                }
                Some(Arg::Bytea) => arg,
                Some(Arg::Text | Arg::Bytes) => self
                    .text_argument(arg, name)
                    .map_err(|_| undefined_function(name, &types))?,
                Some(Arg::Float) if arg.ty == PgType::Float4 => Typed::new(
                    super::build::call("litewire_float4_value", vec![arg.expr]),
                    PgType::Float8,
                ),
                Some(Arg::Float) if arg.ty.is_numeric() || arg.ty.is_opaque() => arg,
                Some(Arg::Float) => self
                    .coerce(arg, &PgType::Float8)?
                    .ok_or_else(|| undefined_function(name, &types))?,
                Some(Arg::Int) => self
                    .int_argument(arg, name)
                    .map_err(|_| undefined_function(name, &types))?,
                None => arg,
            });
        }
        Ok(out)
    }

    fn returns(&mut self, name: &str, returns: &Returns, args: &[Typed]) -> Result<PgType> {
        let types: Vec<PgType> = args.iter().map(|a| a.ty.clone()).collect();
        let first = args.first();
        if first.is_some_and(|a| a.ty.is_opaque()) {
            return Ok(match returns {
                Returns::Fixed(ty) => ty.clone(),
                _ => PgType::Opaque,
            });
        }
        Ok(match returns {
            Returns::Fixed(ty) => ty.clone(),
            Returns::First => match first {
                Some(a) if a.untyped.is_some() => PgType::Text,
                Some(a) => a.ty.clone(),
                None => PgType::Opaque,
            },
            // Unified by the caller.
            Returns::Common => first.map_or(PgType::Opaque, |a| match a.untyped {
                Some(_) => PgType::Text,
                None => a.ty.clone(),
            }),
            Returns::Sum | Returns::Avg => {
                let Some(a) = first else {
                    return Err(undefined_function(name, &types));
                };
                if a.untyped.is_some() {
                    return Err(ambiguous_function(name, &types));
                }
                match (&a.ty, returns) {
                    (PgType::Int2 | PgType::Int4, Returns::Sum) => PgType::Int8,
                    (PgType::Int8 | PgType::Numeric, _) => PgType::Numeric,
                    (PgType::Int2 | PgType::Int4, _) => PgType::Numeric,
                    (PgType::Float4, Returns::Sum) => PgType::Float4,
                    (PgType::Float4 | PgType::Float8, _) => PgType::Float8,
                    (PgType::Interval, _) => PgType::Interval,
                    _ => return Err(undefined_function(name, &types)),
                }
            }
            Returns::ArrayOf => match first {
                Some(a) if a.untyped.is_some() => PgType::Array(Box::new(PgType::Text)),
                Some(a) => PgType::Array(Box::new(a.ty.clone())),
                None => PgType::Opaque,
            },
            Returns::Math => {
                let typed = |a: &&Typed| a.untyped.is_none();
                let float = args
                    .iter()
                    .filter(typed)
                    .any(|a| matches!(a.ty, PgType::Float4 | PgType::Float8));
                let numeric = args.iter().filter(typed).any(|a| a.ty == PgType::Numeric);
                match first.map(|a| &a.ty) {
                    _ if args.len() == 2 && matches!(name, "round" | "trunc") => PgType::Numeric,
                    _ if numeric && !float => PgType::Numeric,
                    Some(ty) if ty.is_numeric() => PgType::Float8,
                    Some(_) if first.is_some_and(|a| a.untyped.is_some()) => PgType::Float8,
                    None => PgType::Float8,
                    Some(_) => return Err(undefined_function(name, &types)),
                }
            }
            Returns::FloatOrNumeric => match first.map(|a| &a.ty) {
                Some(PgType::Numeric | PgType::Int2 | PgType::Int4 | PgType::Int8) => {
                    PgType::Numeric
                }
                Some(PgType::Float4 | PgType::Float8) | None => PgType::Float8,
                Some(_) if first.is_some_and(|a| a.untyped.is_some()) => PgType::Float8,
                Some(_) => return Err(undefined_function(name, &types)),
            },
        })
    }
}

/// `'name'::regclass`.
fn is_literal_regclass(expr: &Expr) -> bool {
    matches!(expr, Expr::Cast { expr, data_type, .. }
        if super::casts::cast_type(data_type) == Some(PgType::Reg(ObjectKind::Class))
            && matches!(&**expr, Expr::Value(v) if matches!(v.value, sqlparser::ast::Value::SingleQuotedString(_))))
}
