//! SQL/JSON path queries: `jsonb_path_exists`, `jsonb_path_match`,
//! `jsonb_path_query` (through `litewire_jsonb_path_query_array`, whose
//! elements the translation turns into rows), `jsonb_path_query_array`,
//! `jsonb_path_query_first`, the `@?` and `@@` operators, and `jsonpath`'s
//! input (checked and printed as PostgreSQL prints it). The path is read by
//! `sql::json_path`; this evaluates it as PostgreSQL 15 does: `lax` mode
//! unwraps arrays one level for accessors, filters, methods and comparisons
//! and ignores structural mismatches (a missing key is no item), `strict`
//! reports them; predicates are true, false or unknown (a comparison of
//! values that do not compare is unknown, never an error); `silent` turns
//! the errors it may into no result. Numbers are JSON's (integers exact,
//! others float8), where PostgreSQL's are numeric: `7 / 2` is 3.5, not
//! `3.5000000000000000`.

use std::cell::Cell;
use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::error::SqlState;
use crate::sql::json_path::{self, JsonPath, Method, Node, Op, Step};
use crate::sql::jsonb;

const fn helper(name: &'static str, body: super::call::Scalar) -> Function {
    Function::helper(name, Args::Variadic("any"), Volatility::Immutable, body)
}

pub(super) const FUNCTIONS: &[Function] = &[
    helper("litewire_jsonb_path_exists", path_exists),
    helper("litewire_jsonb_path_match", path_match),
    helper("litewire_jsonb_path_query_array", query_array),
    helper("litewire_jsonb_path_query_first", query_first),
    helper("litewire_jsonpath_in", jsonpath_in),
];

/// A failed evaluation: PostgreSQL's SQLSTATE and message, and whether
/// `silent` may turn it into no result.
struct PathError {
    code: &'static str,
    message: String,
    silenceable: bool,
}

fn error(code: &'static str, message: impl Into<String>) -> PathError {
    PathError {
        code,
        message: message.into(),
        silenceable: true,
    }
}

impl PathError {
    fn out(self) -> Out {
        Out::Fail(
            SqlState::parse(self.code).unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
            self.message,
        )
    }
}

type Items = Result<Vec<Value>, PathError>;

/// A predicate's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Truth {
    True,
    False,
    Unknown,
}

impl Truth {
    fn of(b: bool) -> Truth {
        if b { Truth::True } else { Truth::False }
    }

    fn value(self) -> Value {
        match self {
            Truth::True => Value::Bool(true),
            Truth::False => Value::Bool(false),
            Truth::Unknown => Value::Null,
        }
    }
}

/// `jsonpath` input: the path as PostgreSQL prints it, or 42601.
fn jsonpath_in(_: &Call, args: &[Arg]) -> Out {
    match args[0].text() {
        None => Out::Null,
        Some(text) => match read_path(&text) {
            Ok(path) => Out::Text(path.to_string()),
            Err(out) => out,
        },
    }
}

fn read_path(text: &str) -> Result<JsonPath, Out> {
    json_path::parse(text).map_err(|message| Out::Fail(SqlState::SYNTAX_ERROR, message))
}

/// The arguments every path function takes: target, path, `vars` (`{}`),
/// `silent` (false). `None` where one is NULL: the answer is NULL.
struct Query {
    target: Value,
    path: JsonPath,
    vars: Map<String, Value>,
    silent: bool,
}

fn query(args: &[Arg]) -> Result<Option<Query>, Out> {
    if args.len() < 2 || args.len() > 4 {
        return Err(Out::Fail(
            SqlState::UNDEFINED_FUNCTION,
            "a jsonb path function takes a target, a path, vars and silent".to_owned(),
        ));
    }
    if args.contains(&Arg::Null) {
        return Ok(None);
    }
    let json = |arg: &Arg| -> Result<Value, Out> {
        jsonb::parse(&arg.text().unwrap_or_default()).map_err(|e| {
            Out::Fail(
                SqlState::INVALID_TEXT_REPRESENTATION,
                format!("invalid input syntax for type json: {e}"),
            )
        })
    };
    let target = json(&args[0])?;
    let path = read_path(&args[1].text().unwrap_or_default())?;
    let vars = match args.get(2).map(json).transpose()? {
        None => Map::new(),
        Some(Value::Object(map)) => map,
        Some(_) => {
            return Err(Out::Fail(
                SqlState::INVALID_PARAMETER_VALUE,
                "\"vars\" argument is not an object".to_owned(),
            ));
        }
    };
    let silent = args.get(3).is_some_and(super::json::truth);
    Ok(Some(Query {
        target,
        path,
        vars,
        silent,
    }))
}

/// The items a query's path finds; `Ok(None)` for an error `silent` hides.
fn run(query: &Query) -> Result<Option<Vec<Value>>, Out> {
    let eval = Eval {
        strict: query.path.strict,
        root: &query.target,
        vars: &query.vars,
        lenient: Cell::new(false),
    };
    match eval.items(&query.path.expr, &query.target, None) {
        Ok(items) => Ok(Some(items)),
        Err(e) if query.silent && e.silenceable => Ok(None),
        Err(e) => Err(e.out()),
    }
}

fn with_items(args: &[Arg], answer: impl FnOnce(Option<Vec<Value>>) -> Out) -> Out {
    match query(args).and_then(|q| q.map(|q| run(&q)).transpose()) {
        Ok(Some(found)) => answer(found),
        Ok(None) => Out::Null,
        Err(out) => out,
    }
}

fn path_exists(_: &Call, args: &[Arg]) -> Out {
    with_items(args, |found| match found {
        Some(items) => Out::Int(i64::from(!items.is_empty())),
        None => Out::Null,
    })
}

fn path_match(_: &Call, args: &[Arg]) -> Out {
    let silent = args.get(3).is_some_and(super::json::truth);
    with_items(args, |found| match found.as_deref() {
        Some([Value::Bool(b)]) => Out::Int(i64::from(*b)),
        Some([Value::Null]) | None => Out::Null,
        Some(_) if silent => Out::Null,
        Some(_) => Out::Fail(
            SqlState::parse("22038").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
            "single boolean result is expected".to_owned(),
        ),
    })
}

fn query_array(_: &Call, args: &[Arg]) -> Out {
    with_items(args, |found| {
        Out::Text(jsonb::format(&Value::Array(found.unwrap_or_default())))
    })
}

fn query_first(_: &Call, args: &[Arg]) -> Out {
    with_items(args, |found| {
        match found.and_then(|f| f.into_iter().next()) {
            Some(item) => Out::Text(jsonb::format(&item)),
            None => Out::Null,
        }
    })
}

struct Eval<'a> {
    strict: bool,
    root: &'a Value,
    vars: &'a Map<String, Value>,
    /// Past a `.**`, strict mode too ignores structural mismatches (a
    /// descendant without the key is no item), as PostgreSQL does.
    lenient: Cell<bool>,
}

impl Eval<'_> {
    /// The items `node` yields at `current` (`last`: the subscripted
    /// array's last index).
    fn items(&self, node: &Node, current: &Value, last: Option<usize>) -> Items {
        Ok(match node {
            Node::Root => vec![self.root.clone()],
            Node::Current => vec![current.clone()],
            Node::Last => vec![Value::from(last.map_or(-1, |l| l as i64))],
            Node::Variable(name) => match self.vars.get(name) {
                Some(value) => vec![value.clone()],
                None => {
                    return Err(PathError {
                        code: "42704",
                        message: format!("could not find jsonpath variable \"{name}\""),
                        silenceable: false,
                    });
                }
            },
            Node::Null => vec![Value::Null],
            Node::Bool(b) => vec![Value::Bool(*b)],
            Node::Number(n) => vec![number_literal(n)],
            Node::String(s) => vec![Value::String(s.clone())],
            Node::Binary(op, left, right) if op.is_arithmetic() => {
                vec![self.arithmetic(*op, left, right, current, last)?]
            }
            Node::Sign(plus, inner) => {
                let mut out = Vec::new();
                for item in self.unwrapped(self.items(inner, current, last)?) {
                    let Value::Number(n) = &item else {
                        return Err(error(
                            "22036",
                            format!(
                                "operand of unary jsonpath operator {} is not a numeric value",
                                if *plus { "+" } else { "-" }
                            ),
                        ));
                    };
                    out.push(if *plus { item.clone() } else { negated(n) });
                }
                out
            }
            Node::Chain(primary, steps) => {
                let mut items = self.items(primary, current, last)?;
                let lenient = self.lenient.get();
                for step in steps {
                    let mut next = Vec::new();
                    for item in &items {
                        if let Err(e) = self.step(step, item, &mut next) {
                            self.lenient.set(lenient);
                            return Err(e);
                        }
                    }
                    if matches!(step, Step::Descent(..)) {
                        self.lenient.set(true);
                    }
                    items = next;
                }
                self.lenient.set(lenient);
                items
            }
            predicate => vec![self.truth(predicate, current, last).value()],
        })
    }

    /// Whether a structural mismatch is an error: in strict mode, not past
    /// a `.**`.
    fn structural(&self) -> bool {
        self.strict && !self.lenient.get()
    }

    /// A sequence with its arrays' elements in their place, in lax mode.
    fn unwrapped(&self, items: Vec<Value>) -> Vec<Value> {
        if self.strict {
            return items;
        }
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Value::Array(elements) => out.extend(elements),
                other => out.push(other),
            }
        }
        out
    }

    /// Applies an accessor, filter or method to one item.
    fn step(&self, step: &Step, item: &Value, out: &mut Vec<Value>) -> Result<(), PathError> {
        // Lax mode applies these to an array's elements instead.
        let unwraps = matches!(
            step,
            Step::Key(_)
                | Step::AnyKey
                | Step::Filter(_)
                | Step::Method(
                    Method::Double
                        | Method::Ceiling
                        | Method::Floor
                        | Method::Abs
                        | Method::KeyValue
                        | Method::Datetime(_)
                )
        );
        if let (Value::Array(elements), false, true) = (item, self.strict, unwraps) {
            for element in elements {
                match (step, element) {
                    // An element that is itself an array is not unwrapped again.
                    (Step::Key(_) | Step::AnyKey, Value::Array(_)) => {}
                    _ => self.step_on(step, element, out)?,
                }
            }
            return Ok(());
        }
        self.step_on(step, item, out)
    }

    fn step_on(&self, step: &Step, item: &Value, out: &mut Vec<Value>) -> Result<(), PathError> {
        match step {
            Step::Key(key) => match item {
                Value::Object(map) => match map.get(key) {
                    Some(value) => out.push(value.clone()),
                    None if self.structural() => {
                        return Err(error(
                            "2203A",
                            format!("JSON object does not contain key \"{key}\""),
                        ));
                    }
                    None => {}
                },
                _ if self.structural() => {
                    return Err(error(
                        "2203A",
                        "jsonpath member accessor can only be applied to an object",
                    ));
                }
                _ => {}
            },
            Step::AnyKey => match item {
                Value::Object(map) => out.extend(map.values().cloned()),
                _ if self.structural() => {
                    return Err(error(
                        "2203C",
                        "jsonpath wildcard member accessor can only be applied to an object",
                    ));
                }
                _ => {}
            },
            Step::AnyIndex => match item {
                Value::Array(elements) => out.extend(elements.iter().cloned()),
                _ if self.structural() => {
                    return Err(error(
                        "22039",
                        "jsonpath wildcard array accessor can only be applied to an array",
                    ));
                }
                other => out.push(other.clone()),
            },
            Step::Indexes(list) => self.subscripts(list, item, out)?,
            Step::Descent(first, last) => {
                if *first == 0 {
                    out.push(item.clone());
                }
                descend(item, 1, *first, *last, out);
            }
            Step::Filter(predicate) => {
                if self.truth(predicate, item, None) == Truth::True {
                    out.push(item.clone());
                }
            }
            Step::Method(method) => out.extend(self.method(method, item)?),
        }
        Ok(())
    }

    fn subscripts(
        &self,
        list: &[(Node, Option<Node>)],
        item: &Value,
        out: &mut Vec<Value>,
    ) -> Result<(), PathError> {
        let single = [item.clone()];
        let elements: &[Value] = match item {
            Value::Array(elements) => elements,
            _ if self.structural() => {
                return Err(error(
                    "22039",
                    "jsonpath array accessor can only be applied to an array",
                ));
            }
            _ => &single,
        };
        let last = elements.len().checked_sub(1);
        for (from, to) in list {
            let start = self.index(from, item, last)?;
            let end = match to {
                Some(to) => self.index(to, item, last)?,
                None => start,
            };
            let size = elements.len() as i64;
            if self.structural() && (start < 0 || start > end || end >= size) {
                return Err(error("22033", "jsonpath array subscript is out of bounds"));
            }
            let (start, end) = (start.max(0), end.min(size - 1));
            for i in start..=end {
                if let Some(element) = elements.get(i as usize) {
                    out.push(element.clone());
                }
            }
        }
        Ok(())
    }

    /// A subscript: one number, truncated to an integer.
    fn index(&self, node: &Node, item: &Value, last: Option<usize>) -> Result<i64, PathError> {
        let found = self.items(node, item, Some(last.unwrap_or(usize::MAX)))?;
        // An empty array's `last` is -1.
        let found = match (last, node) {
            (None, Node::Last) => vec![Value::from(-1)],
            _ => found,
        };
        match found.as_slice() {
            [Value::Number(n)] => {
                let value = n
                    .as_i64()
                    .map_or_else(|| n.as_f64().unwrap_or(0.0).trunc(), |i| i as f64);
                if value.abs() > f64::from(i32::MAX) {
                    return Err(error(
                        "22033",
                        "jsonpath array subscript is out of integer range",
                    ));
                }
                Ok(value as i64)
            }
            _ => Err(error(
                "22033",
                "jsonpath array subscript is not a single numeric value",
            )),
        }
    }

    fn method(&self, method: &Method, item: &Value) -> Items {
        let name = method.name();
        let numeric = |f: fn(f64) -> f64, int: fn(i64) -> Option<i64>| -> Items {
            match item {
                Value::Number(n) => Ok(vec![match n.as_i64().and_then(int) {
                    Some(i) => Value::from(i),
                    None => float_value(f(n.as_f64().unwrap_or(f64::NAN)), true),
                }]),
                _ => Err(error(
                    "22036",
                    format!(
                        "jsonpath item method .{name}() can only be applied to a numeric value"
                    ),
                )),
            }
        };
        match method {
            Method::Type => Ok(vec![Value::from(jsonb::type_name(item))]),
            Method::Size => match item {
                Value::Array(elements) => Ok(vec![Value::from(elements.len())]),
                _ if self.structural() => Err(error(
                    "22039",
                    "jsonpath item method .size() can only be applied to an array",
                )),
                _ => Ok(vec![Value::from(1)]),
            },
            Method::Abs => numeric(f64::abs, i64::checked_abs),
            Method::Floor => numeric(f64::floor, Some),
            Method::Ceiling => numeric(f64::ceil, Some),
            Method::Double => {
                let value = match item {
                    Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
                    Value::String(s) => s.trim().parse::<f64>().map_err(|_| {
                        error(
                            "22036",
                            "string argument of jsonpath item method .double() is not a valid representation of a double precision number",
                        )
                    })?,
                    _ => {
                        return Err(error(
                            "22036",
                            "jsonpath item method .double() can only be applied to a string or numeric value",
                        ));
                    }
                };
                if !value.is_finite() {
                    return Err(error(
                        "22036",
                        "numeric argument of jsonpath item method .double() is out of range for type double precision",
                    ));
                }
                Ok(vec![float_value(value, false)])
            }
            Method::KeyValue => match item {
                // PostgreSQL numbers an object by where it lies in its document:
                // the document itself is 0, which is all that is known here.
                Value::Object(map) if item == self.root => Ok(map
                    .iter()
                    .map(|(key, value)| {
                        let mut pair = Map::new();
                        pair.insert("id".to_owned(), Value::from(0));
                        pair.insert("key".to_owned(), Value::String(key.clone()));
                        pair.insert("value".to_owned(), value.clone());
                        Value::Object(pair)
                    })
                    .collect()),
                Value::Object(_) => Err(PathError {
                    code: "0A000",
                    message: "jsonpath item method .keyvalue() is supported here only on the document itself".to_owned(),
                    silenceable: false,
                }),
                _ => Err(error(
                    "2203C",
                    "jsonpath item method .keyvalue() can only be applied to an object",
                )),
            },
            Method::Datetime(_) => Err(PathError {
                code: "0A000",
                message: "jsonpath item method .datetime() is not supported".to_owned(),
                silenceable: false,
            }),
        }
    }

    fn arithmetic(
        &self,
        op: Op,
        left: &Node,
        right: &Node,
        current: &Value,
        last: Option<usize>,
    ) -> Result<Value, PathError> {
        let operand = |node: &Node, side: &str| -> Result<Number, PathError> {
            let items = self.unwrapped(self.items(node, current, last)?);
            match items.as_slice() {
                [Value::Number(n)] => Ok(n.clone()),
                _ => Err(error(
                    "22038",
                    format!(
                        "{side} operand of jsonpath operator {} is not a single numeric value",
                        op.symbol()
                    ),
                )),
            }
        };
        let (a, b) = (operand(left, "left")?, operand(right, "right")?);
        if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
            let exact = match op {
                Op::Add => x.checked_add(y),
                Op::Subtract => x.checked_sub(y),
                Op::Multiply => x.checked_mul(y),
                Op::Modulo | Op::Divide if y == 0 => {
                    return Err(error("22012", "division by zero"));
                }
                Op::Modulo => x.checked_rem(y),
                Op::Divide if x % y == 0 => x.checked_div(y),
                _ => None,
            };
            if let Some(value) = exact {
                return Ok(Value::from(value));
            }
        }
        let (x, y) = (
            a.as_f64().unwrap_or(f64::NAN),
            b.as_f64().unwrap_or(f64::NAN),
        );
        let value = match op {
            Op::Add => x + y,
            Op::Subtract => x - y,
            Op::Multiply => x * y,
            Op::Divide | Op::Modulo if y == 0.0 => return Err(error("22012", "division by zero")),
            Op::Divide => x / y,
            _ => x % y,
        };
        Ok(float_value(value, false))
    }

    /// A predicate's value at `current`; errors in its operands make it
    /// unknown.
    fn truth(&self, node: &Node, current: &Value, last: Option<usize>) -> Truth {
        match node {
            Node::Binary(Op::And, left, right) => {
                let l = self.truth(left, current, last);
                if l == Truth::False {
                    return Truth::False;
                }
                match self.truth(right, current, last) {
                    Truth::True => l,
                    other => other,
                }
            }
            Node::Binary(Op::Or, left, right) => {
                let l = self.truth(left, current, last);
                if l == Truth::True {
                    return Truth::True;
                }
                match self.truth(right, current, last) {
                    Truth::False => l,
                    other => other,
                }
            }
            Node::Not(inner) => match self.truth(inner, current, last) {
                Truth::True => Truth::False,
                Truth::False => Truth::True,
                Truth::Unknown => Truth::Unknown,
            },
            Node::IsUnknown(inner) => Truth::of(self.truth(inner, current, last) == Truth::Unknown),
            Node::Exists(inner) => match self.items(inner, current, last) {
                Ok(items) => Truth::of(!items.is_empty()),
                Err(_) => Truth::Unknown,
            },
            Node::Binary(op, left, right) if op.is_comparison() => {
                let (Ok(l), Ok(r)) = (
                    self.operand(left, current, last),
                    self.operand(right, current, last),
                ) else {
                    return Truth::Unknown;
                };
                self.any(&l, &r, |a, b| compare(*op, a, b))
            }
            Node::LikeRegex(inner, pattern, flags) => {
                let Ok(items) = self.operand(inner, current, last) else {
                    return Truth::Unknown;
                };
                let Ok(regex) = like_regex(pattern, flags) else {
                    return Truth::Unknown;
                };
                self.any(&items, &[Value::Null], |a, _| match a {
                    Value::String(s) => Truth::of(regex.is_match(s)),
                    _ => Truth::Unknown,
                })
            }
            Node::StartsWith(inner, prefix) => {
                let (Ok(items), Ok(prefix)) = (
                    self.operand(inner, current, last),
                    self.items(prefix, current, last),
                ) else {
                    return Truth::Unknown;
                };
                let [Value::String(prefix)] = prefix.as_slice() else {
                    return Truth::Unknown;
                };
                self.any(&items, &[Value::Null], |a, _| match a {
                    Value::String(s) => Truth::of(s.starts_with(prefix.as_str())),
                    _ => Truth::Unknown,
                })
            }
            // A path where a predicate belongs: its value, if boolean.
            other => match self.items(other, current, last).as_deref() {
                Ok([Value::Bool(b)]) => Truth::of(*b),
                _ => Truth::Unknown,
            },
        }
    }

    /// A predicate's operand: its items, arrays unwrapped in lax mode.
    fn operand(&self, node: &Node, current: &Value, last: Option<usize>) -> Items {
        Ok(self.unwrapped(self.items(node, current, last)?))
    }

    /// PostgreSQL's `executePredicate`: true if a pair is true (lax: at
    /// once; strict: unless a pair is unknown), unknown if one is.
    fn any(
        &self,
        left: &[Value],
        right: &[Value],
        test: impl Fn(&Value, &Value) -> Truth,
    ) -> Truth {
        let (mut found, mut unknown) = (false, false);
        for a in left {
            for b in right {
                match test(a, b) {
                    Truth::Unknown if self.strict => return Truth::Unknown,
                    Truth::Unknown => unknown = true,
                    Truth::True if !self.strict => return Truth::True,
                    Truth::True => found = true,
                    Truth::False => {}
                }
            }
        }
        match (found, unknown) {
            (true, _) => Truth::True,
            (false, true) => Truth::Unknown,
            (false, false) => Truth::False,
        }
    }
}

/// `.**{first to last}` below `item`, each child before its own.
fn descend(item: &Value, level: u32, first: u32, last: u32, out: &mut Vec<Value>) {
    let children: Vec<&Value> = match item {
        Value::Object(map) => map.values().collect(),
        Value::Array(elements) => elements.iter().collect(),
        _ => return,
    };
    for child in children {
        if level >= first {
            out.push(child.clone());
        }
        if level < last {
            descend(child, level + 1, first, last, out);
        }
    }
}

fn compare(op: Op, a: &Value, b: &Value) -> Truth {
    let order = match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) | (_, Value::Null) => return Truth::of(op == Op::NotEqual),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => {
                let (x, y) = (
                    x.as_f64().unwrap_or(f64::NAN),
                    y.as_f64().unwrap_or(f64::NAN),
                );
                match x.partial_cmp(&y) {
                    Some(order) => order,
                    None => return Truth::Unknown,
                }
            }
        },
        (Value::String(x), Value::String(y)) => x.cmp(y),
        _ => return Truth::Unknown,
    };
    Truth::of(match op {
        Op::Equal => order == Ordering::Equal,
        Op::NotEqual => order != Ordering::Equal,
        Op::Less => order == Ordering::Less,
        Op::LessEqual => order != Ordering::Greater,
        Op::Greater => order == Ordering::Greater,
        _ => order != Ordering::Less,
    })
}

/// `like_regex`'s pattern with its XQuery flags (`q`: the pattern is text).
fn like_regex(pattern: &str, flags: &str) -> Result<regex::Regex, regex::Error> {
    let body = match flags.contains('q') {
        true => regex::escape(pattern),
        false => pattern.to_owned(),
    };
    let inline: String = flags.chars().filter(|c| "ismx".contains(*c)).collect();
    match inline.is_empty() {
        true => regex::Regex::new(&body),
        false => regex::Regex::new(&format!("(?{inline}){body}")),
    }
}

/// A path's number literal: an integer where it is one.
fn number_literal(text: &str) -> Value {
    match text.parse::<i64>() {
        Ok(i) => Value::from(i),
        Err(_) => float_value(text.parse().unwrap_or(f64::NAN), false),
    }
}

/// A float as a JSON number; `integral`: a whole result shown as an integer
/// (`floor`, `ceiling`).
fn float_value(f: f64, integral: bool) -> Value {
    if integral && f.fract() == 0.0 && f.abs() < 9.0e15 {
        return Value::from(f as i64);
    }
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

fn negated(n: &Number) -> Value {
    match n.as_i64().and_then(i64::checked_neg) {
        Some(i) => Value::from(i),
        None => float_value(-n.as_f64().unwrap_or(f64::NAN), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(target: &str, path: &str) -> String {
        let query = Query {
            target: jsonb::parse(target).expect("json"),
            path: json_path::parse(path).expect("path"),
            vars: Map::new(),
            silent: false,
        };
        match run(&query) {
            Ok(Some(items)) => jsonb::format(&Value::Array(items)),
            Ok(None) => "silenced".to_owned(),
            Err(Out::Fail(state, message)) => format!("ERROR {state:?} {message}"),
            Err(_) => "other".to_owned(),
        }
    }

    #[test]
    fn lax_and_strict_paths_find_what_postgres_finds() {
        let doc = r#"{"a": [1, 2, 3, {"b": 4}], "c": {"d": "x"}, "e": null}"#;
        for (path, want) in [
            ("$.a[*] ? (@ > 1)", "[2, 3]"),
            ("$.a ? (@ > 1)", "[2, 3]"),
            ("$.a.b", "[4]"),
            ("$.a[last]", "[{\"b\": 4}]"),
            (
                "$.a[1 to last].type()",
                "[\"number\", \"number\", \"object\"]",
            ),
            ("$.a.size()", "[4]"),
            ("$.c.size()", "[1]"),
            ("$.zz", "[]"),
            // Lax mode unwraps the array `.**` also finds: 4 twice, as in PostgreSQL.
            ("$.**.b", "[4, 4]"),
            ("strict $.**.b", "[4]"),
            ("$.c.d starts with \"x\"", "[true]"),
            ("$.a[0] + 2 * 3", "[7]"),
            ("$.e == null", "[true]"),
            ("$.a[*] ? (@ == \"1\")", "[]"),
            (
                "$.a[*] ? ((@ == \"1\") is unknown)",
                "[1, 2, 3, {\"b\": 4}]",
            ),
            ("$.c ? (exists (@.d))", "[{\"d\": \"x\"}]"),
            ("$.c.d ? (@ like_regex \"^X\" flag \"i\")", "[\"x\"]"),
            ("$.a[10]", "[]"),
            ("-$.a[0 to 1]", "[-1, -2]"),
        ] {
            assert_eq!(found(doc, path), want, "{path}");
        }
        assert!(found(doc, "strict $.zz").contains("does not contain key"));
        assert!(found(doc, "strict $.a[10]").contains("out of bounds"));
        assert!(found(doc, "$.a + 1").contains("not a single numeric value"));
        assert!(found(doc, "$.a[0] / 0").contains("division by zero"));
    }
}
