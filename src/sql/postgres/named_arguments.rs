//! Calls with arguments by name (`make_interval(days => 3)`, `jsonb_path_query(j,
//! p, silent => true)`, `:=` too), rewritten as PostgreSQL resolves them:
//! positional arguments first, then each named one in its parameter's
//! place, and every parameter left out given its default, so that what
//! follows sees a plain positional call. Only PostgreSQL's functions whose
//! parameters have names are known here; another function called with a
//! named argument is left as written (SQLite refuses it).

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, FunctionArg, FunctionArgExpr, FunctionArguments, ObjectName, Statement as Ast,
    TableFactor, Visit, VisitMut, Visitor, VisitorMut,
};

use super::build::{number, parsed_expr};
use super::errors::{Fail, Result};
use crate::error::{Error, SqlState};

/// What a parameter left out becomes.
#[derive(Clone, Copy)]
enum Given {
    /// It must be given.
    Required,
    /// This expression.
    Value(&'static str),
    /// Nothing: the call has fewer arguments (a shorter form of the function).
    Omitted,
}

use Given::{Omitted, Required, Value};

const PATH_QUERY: &[(&str, Given)] = &[
    ("target", Required),
    ("path", Required),
    ("vars", Value("'{}'")),
    ("silent", Value("false")),
];

const TIMESTAMP: &[(&str, Given)] = &[
    ("year", Required),
    ("month", Required),
    ("mday", Required),
    ("hour", Required),
    ("min", Required),
    ("sec", Required),
    ("timezone", Omitted),
];

/// The named parameters of a PostgreSQL function, in order.
fn parameters(name: &str) -> Option<&'static [(&'static str, Given)]> {
    Some(match name {
        "make_interval" => &[
            ("years", Value("0")),
            ("months", Value("0")),
            ("weeks", Value("0")),
            ("days", Value("0")),
            ("hours", Value("0")),
            ("mins", Value("0")),
            ("secs", Value("0.0")),
        ],
        "make_date" => &[("year", Required), ("month", Required), ("day", Required)],
        "make_time" => &[("hour", Required), ("min", Required), ("sec", Required)],
        "make_timestamp" => &TIMESTAMP[..6],
        "make_timestamptz" => TIMESTAMP,
        "jsonb_path_exists"
        | "jsonb_path_match"
        | "jsonb_path_query"
        | "jsonb_path_query_array"
        | "jsonb_path_query_first"
        | "jsonb_path_exists_tz"
        | "jsonb_path_match_tz"
        | "jsonb_path_query_tz"
        | "jsonb_path_query_array_tz"
        | "jsonb_path_query_first_tz" => PATH_QUERY,
        "jsonb_set" => &[
            ("jsonb_in", Required),
            ("path", Required),
            ("replacement", Required),
            ("create_if_missing", Value("true")),
        ],
        "jsonb_insert" => &[
            ("jsonb_in", Required),
            ("path", Required),
            ("replacement", Required),
            ("insert_after", Value("false")),
        ],
        _ => return None,
    })
}

/// The statement with every call by name made positional and defaults
/// filled in; `None` where nothing changes.
pub(super) fn resolved(statement: &Ast) -> std::result::Result<Option<Ast>, Error> {
    if !has_named(statement) {
        return Ok(None);
    }
    let mut statement = statement.clone();
    let mut resolver = Resolver;
    match VisitMut::visit(&mut statement, &mut resolver) {
        ControlFlow::Continue(()) => Ok(Some(statement)),
        ControlFlow::Break(Fail::Pg(error)) => Err(error),
        ControlFlow::Break(Fail::Unsupported(_)) => Ok(None),
    }
}

/// Whether a call anywhere in the statement needs resolving (see `needs`).
fn has_named(statement: &Ast) -> bool {
    Visit::visit(statement, &mut Finder).is_break()
}

struct Finder;

impl Visitor for Finder {
    type Break = ();

    fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<()> {
        match expr {
            Expr::Function(function) if matches!(&function.args, FunctionArguments::List(list) if needs(&function.name, &list.args)) => {
                ControlFlow::Break(())
            }
            _ => ControlFlow::Continue(()),
        }
    }

    fn pre_visit_table_factor(&mut self, factor: &TableFactor) -> ControlFlow<()> {
        match factor {
            TableFactor::Table {
                name,
                args: Some(args),
                ..
            } if needs(name, &args.args) => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    }
}

fn is_named(arg: &FunctionArg) -> bool {
    matches!(
        arg,
        FunctionArg::Named { .. } | FunctionArg::ExprNamed { .. }
    )
}

/// Whether a call needs resolving: it names an argument, or leaves out a
/// parameter with a default (`make_interval(1)`).
fn needs(name: &ObjectName, args: &[FunctionArg]) -> bool {
    let name = name.to_string().to_ascii_lowercase();
    args.iter().any(is_named)
        || parameters(&name)
            .and_then(|p| p.get(args.len()))
            .is_some_and(|(_, given)| matches!(given, Value(_)))
}

struct Resolver;

impl VisitorMut for Resolver {
    type Break = Fail;

    fn pre_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<Fail> {
        if let Expr::Function(function) = expr
            && let FunctionArguments::List(list) = &mut function.args
            && needs(&function.name, &list.args)
        {
            let name = function.name.to_string().to_ascii_lowercase();
            if let Err(fail) = positional(&name, &mut list.args) {
                return ControlFlow::Break(fail);
            }
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_table_factor(&mut self, factor: &mut TableFactor) -> ControlFlow<Fail> {
        if let TableFactor::Table {
            name,
            args: Some(args),
            ..
        } = factor
            && needs(name, &args.args)
        {
            let name = name.to_string().to_ascii_lowercase();
            if let Err(fail) = positional(&name, &mut args.args) {
                return ControlFlow::Break(fail);
            }
        }
        ControlFlow::Continue(())
    }
}

/// `args` of a call of `name` in parameter order, defaults filled in.
fn positional(name: &str, args: &mut Vec<FunctionArg>) -> Result<()> {
    let Some(parameters) = parameters(name) else {
        return Ok(());
    };
    let mut slots: Vec<Option<Expr>> = vec![None; parameters.len()];
    let mut named_seen = false;
    for (i, arg) in args.drain(..).enumerate() {
        let (given, value) = match arg {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(value)) if !named_seen => (None, value),
            FunctionArg::Unnamed(_) => {
                return Err(syntax("positional argument cannot follow named argument"));
            }
            FunctionArg::Named {
                name,
                arg: FunctionArgExpr::Expr(value),
                ..
            } => (Some(name.value), value),
            FunctionArg::ExprNamed {
                name: Expr::Identifier(name),
                arg: FunctionArgExpr::Expr(value),
                ..
            } => (Some(name.value), value),
            _ => return Err(Fail::Unsupported("a named argument that is no name")),
        };
        let index = match given {
            None => i,
            Some(given) => {
                named_seen = true;
                let lower = given.to_ascii_lowercase();
                parameters
                    .iter()
                    .position(|(p, _)| *p == lower)
                    .ok_or_else(|| no_such_function(name))?
            }
        };
        let slot = slots.get_mut(index).ok_or_else(|| no_such_function(name))?;
        if slot.is_some() {
            return Err(syntax(&format!(
                "argument name \"{}\" used more than once",
                parameters[index].0
            )));
        }
        *slot = Some(value);
    }
    // The last parameter given: those after it that may be omitted are.
    let given = slots.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
    for (i, slot) in slots.into_iter().enumerate() {
        let value = match (slot, parameters[i].1) {
            (Some(value), _) => value,
            (None, Value(text)) => parsed_expr(text).unwrap_or_else(|| number("0")),
            (None, Omitted) if i >= given => break,
            (None, Omitted | Required) => return Err(no_such_function(name)),
        };
        args.push(FunctionArg::Unnamed(FunctionArgExpr::Expr(value)));
    }
    Ok(())
}

fn no_such_function(name: &str) -> Fail {
    Fail::Pg(Error::state(
        SqlState::UNDEFINED_FUNCTION,
        format!("function {name} with these named arguments does not exist"),
    ))
}

fn syntax(message: &str) -> Fail {
    Fail::Pg(Error::state(SqlState::SYNTAX_ERROR, message.to_owned()))
}
