//! Code the database would run: `CREATE [OR REPLACE] FUNCTION | PROCEDURE`
//! and a `CREATE TRIGGER` that executes a function (`EXECUTE FUNCTION f()`),
//! as a PostgreSQL dump or migration writes them.
//!
//! A function in SQL (`LANGUAGE sql`) of one `SELECT` (or `RETURN x`) and a
//! scalar result is kept, on the PostgreSQL port, as a row of
//! `litewire_functions` in the database file, and a call of it reads as its
//! body (see `postgres::sql_functions`); `DROP FUNCTION` removes it. Other
//! code (PL/pgSQL, procedures, set-returning functions, triggers that execute
//! a function) is refused with PostgreSQL's 0A000 and a message that names the
//! object and its language: a script stops there, saying what to move by
//! hand, instead of at a syntax error.
//!
//! `DROP TRIGGER [IF EXISTS] name ON table [CASCADE | RESTRICT]` drops the
//! table's trigger by its name (SQLite's triggers have no `ON`).

use sqlparser::ast::{
    ArgMode, CreateFunctionBody, DataType, Expr, FunctionBehavior, FunctionCalledOnNull,
    FunctionReturnType, ObjectName, OperateFunctionArg, Statement as Ast, Value,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::lexer::TokenKind;
use super::matviews::fail;
use super::postgres::{Catalog, PgType, SqlFunction, check_body};
use super::quote::{identifier, literal, unquote_identifier};
use super::schema_names::{stored_name, stored_written};
use super::words::Words;
use crate::error::{Error, SqlState};

/// The table the functions live in.
pub const FUNCTIONS_TABLE: &str = "litewire_functions";

const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS main.litewire_functions (\
     name TEXT NOT NULL, argtypes TEXT NOT NULL, argnames TEXT NOT NULL, returns TEXT NOT NULL, \
     body TEXT NOT NULL, strict INTEGER NOT NULL, volatility TEXT NOT NULL, \
     PRIMARY KEY (name, argtypes))";

/// The statements `CREATE FUNCTION ... LANGUAGE sql` or `DROP FUNCTION`
/// runs; `None` for any other statement (a function in another language is
/// [`refused`]).
pub(super) fn statement(
    text: &str,
    w: &Words,
    catalog: &dyn Catalog,
) -> Option<Result<Vec<String>, Error>> {
    if w.starts_with(&["DROP", "FUNCTION"]) {
        return Some(drop(text, catalog));
    }
    if w.starts_with(&["DROP", "TRIGGER"]) {
        return drop_trigger(w);
    }
    let at = match w.is(1, "OR") && w.is(2, "REPLACE") {
        true => 3,
        false => 1,
    };
    if !(w.is(0, "CREATE") && w.is(at, "FUNCTION")) {
        return None;
    }
    let sql = (at..w.tokens.len())
        .find(|&i| w.is(i, "LANGUAGE"))
        .is_some_and(|i| {
            unquote_identifier(w.text(i + 1))
                .trim_matches('\'')
                .eq_ignore_ascii_case("sql")
        });
    sql.then(|| create(text, catalog))
}

fn parsed(text: &str) -> Result<Ast, Error> {
    let mut statements = Parser::parse_sql(&PostgreSqlDialect {}, text)
        .map_err(|e| Error::state(SqlState::SYNTAX_ERROR, e.to_string()))?;
    match statements.len() {
        1 => Ok(statements.remove(0)),
        _ => Err(Error::state(
            SqlState::SYNTAX_ERROR,
            "one statement expected",
        )),
    }
}

fn unsupported(name: &str, what: &str) -> Error {
    Error::state(
        SqlState::FEATURE_NOT_SUPPORTED,
        format!("function \"{name}\" cannot be created: {what} are not supported"),
    )
}

/// A function's SQLite name: `f` for one of `public`, `s.f` for one of the
/// user's schema `s` (see `schema_names`). An unqualified name is made in
/// the first schema of the session's path (`creating`), else found there
/// first.
fn function_name(
    name: &ObjectName,
    catalog: &dyn Catalog,
    creating: bool,
) -> Result<String, Error> {
    let parts: Vec<String> = (name.0.iter())
        .map(|part| match part.as_ident() {
            Some(ident) if ident.quote_style.is_some() => ident.value.clone(),
            Some(ident) => ident.value.to_ascii_lowercase(),
            None => part.to_string(),
        })
        .collect();
    let in_schema = |schema: &str, name: &str| match schema {
        "public" => name.to_owned(),
        _ => stored_name(schema, name),
    };
    match parts.as_slice() {
        [name] => {
            let path = catalog.search_path();
            let found = match creating {
                true => path.first().map(|schema| in_schema(schema, name)),
                false => path
                    .iter()
                    .map(|schema| in_schema(schema, name))
                    .find(|stored| catalog.functions().iter().any(|f| f.name == *stored)),
            };
            Ok(found.unwrap_or_else(|| name.clone()))
        }
        [schema, name] if schema == "public" || catalog.schemas().contains(schema) => {
            Ok(in_schema(schema, name))
        }
        [schema, name] if schema == "pg_catalog" => Err(unsupported(
            name,
            &format!("functions in schema \"{schema}\""),
        )),
        [schema, _] => Err(Error::state(
            SqlState::INVALID_SCHEMA_NAME,
            format!("schema \"{schema}\" does not exist"),
        )),
        _ => Err(Error::state(
            SqlState::SYNTAX_ERROR,
            format!("improper qualified name: {name}"),
        )),
    }
}

fn type_of(name: &str, data_type: &DataType) -> Result<PgType, Error> {
    match PgType::from_name(&data_type.to_string()) {
        Some(ty) if ty.name().is_some() => Ok(ty),
        _ => Err(unsupported(
            name,
            &format!("arguments and results of type {data_type}"),
        )),
    }
}

/// The arguments' names and types.
fn arguments(
    name: &str,
    args: &[OperateFunctionArg],
) -> Result<Vec<(Option<String>, PgType)>, Error> {
    args.iter()
        .map(|arg| {
            if matches!(arg.mode, Some(ArgMode::Out | ArgMode::InOut)) {
                return Err(unsupported(name, "OUT and INOUT arguments"));
            }
            if arg.default_expr.is_some() {
                return Err(unsupported(name, "argument defaults"));
            }
            let arg_name = arg.name.as_ref().map(|n| match n.quote_style {
                Some(_) => n.value.clone(),
                None => n.value.to_ascii_lowercase(),
            });
            Ok((arg_name, type_of(name, &arg.data_type)?))
        })
        .collect()
}

/// `CREATE [OR REPLACE] FUNCTION name(args) RETURNS type LANGUAGE sql ...`.
fn create(text: &str, catalog: &dyn Catalog) -> Result<Vec<String>, Error> {
    let Ast::CreateFunction(create) = parsed(text)? else {
        return Err(Error::state(
            SqlState::SYNTAX_ERROR,
            "CREATE FUNCTION expected",
        ));
    };
    let name = function_name(&create.name, catalog, true)?;
    let args = arguments(&name, create.args.as_deref().unwrap_or_default())?;
    let returns = match &create.return_type {
        Some(FunctionReturnType::DataType(data_type)) => type_of(&name, data_type)?,
        Some(FunctionReturnType::SetOf(_)) => {
            return Err(unsupported(&name, "functions returning sets"));
        }
        None => {
            return Err(Error::state(
                SqlState::INVALID_FUNCTION_DEFINITION,
                "function result type must be specified",
            ));
        }
    };
    let body = match &create.function_body {
        Some(
            CreateFunctionBody::AsBeforeOptions { body, .. }
            | CreateFunctionBody::AsAfterOptions(body),
        ) => match body {
            Expr::Value(value) => match &value.value {
                Value::SingleQuotedString(s) => s.clone(),
                Value::DollarQuotedString(s) => s.value.clone(),
                _ => {
                    return Err(Error::state(
                        SqlState::SYNTAX_ERROR,
                        "a function body is a string",
                    ));
                }
            },
            _ => {
                return Err(Error::state(
                    SqlState::SYNTAX_ERROR,
                    "a function body is a string",
                ));
            }
        },
        Some(CreateFunctionBody::Return(expr)) => format!("SELECT {expr}"),
        _ => return Err(unsupported(&name, "bodies other than one SELECT or RETURN")),
    };
    let body = body.trim().trim_end_matches(';').trim().to_owned();
    let function = SqlFunction {
        name,
        args,
        returns,
        body,
        strict: matches!(
            create.called_on_null,
            Some(FunctionCalledOnNull::Strict | FunctionCalledOnNull::ReturnsNullOnNullInput)
        ),
        volatility: match create.behavior {
            Some(FunctionBehavior::Immutable) => 'i',
            Some(FunctionBehavior::Stable) => 's',
            _ => 'v',
        },
    };
    check_body(&function, catalog)?;
    let argtypes = stored_types(&function.args);
    let key = format!(
        "name = {} AND argtypes = {}",
        literal(&function.name),
        literal(&argtypes)
    );
    let mut script = vec![CREATE_TABLE.to_owned()];
    script.push(match create.or_replace {
        false => fail(
            "42723",
            &format!(
                "function \"{}\" already exists with same argument types",
                function.name
            ),
            &format!("EXISTS (SELECT 1 FROM main.{FUNCTIONS_TABLE} WHERE {key})"),
        ),
        true => fail(
            "42P13",
            "cannot change return type of existing function",
            &format!(
                "EXISTS (SELECT 1 FROM main.{FUNCTIONS_TABLE} WHERE {key} AND returns <> {})",
                literal(function.returns.name().unwrap_or_default())
            ),
        ),
    });
    let names: Vec<&str> = (function.args.iter())
        .map(|(name, _)| name.as_deref().unwrap_or(""))
        .collect();
    script.push(format!(
        "INSERT OR REPLACE INTO main.{FUNCTIONS_TABLE} VALUES ({}, {}, {}, {}, {}, {}, '{}')",
        literal(&function.name),
        literal(&argtypes),
        literal(&names.join(",")),
        literal(function.returns.name().unwrap_or_default()),
        literal(&function.body),
        i32::from(function.strict),
        function.volatility
    ));
    Ok(script)
}

/// The arguments' types as `litewire_functions.argtypes` keeps them.
fn stored_types(args: &[(Option<String>, PgType)]) -> String {
    let names: Vec<&str> = (args.iter())
        .map(|(_, ty)| ty.name().unwrap_or_default())
        .collect();
    names.join(",")
}

/// The functions `litewire_functions` holds, as a catalog gives them.
pub fn stored(
    name: String,
    argtypes: &str,
    argnames: &str,
    returns: &str,
    body: String,
    strict: bool,
    volatility: &str,
) -> Option<SqlFunction> {
    let types: Vec<&str> = argtypes.split(',').filter(|t| !t.is_empty()).collect();
    let names: Vec<&str> = argnames.split(',').collect();
    let args = (types.iter().enumerate())
        .map(|(i, ty)| {
            let name = names
                .get(i)
                .filter(|n| !n.is_empty())
                .map(|n| (*n).to_owned());
            PgType::from_name(ty).map(|ty| (name, ty))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(SqlFunction {
        name,
        args,
        returns: PgType::from_name(returns)?,
        body,
        strict,
        volatility: volatility.chars().next().unwrap_or('v'),
    })
}

/// `DROP FUNCTION [IF EXISTS] name [(types)], ... [CASCADE | RESTRICT]`.
fn drop(text: &str, catalog: &dyn Catalog) -> Result<Vec<String>, Error> {
    let Ast::DropFunction(drop) = parsed(text)? else {
        return Err(Error::state(
            SqlState::SYNTAX_ERROR,
            "DROP FUNCTION expected",
        ));
    };
    let mut script = vec![CREATE_TABLE.to_owned()];
    for desc in &drop.func_desc {
        let name = function_name(&desc.name, catalog, false)?;
        let named = format!("name = {}", literal(&name));
        match &desc.args {
            Some(args) => {
                let args = arguments(&name, args)?;
                let key = format!("{named} AND argtypes = {}", literal(&stored_types(&args)));
                if !drop.if_exists {
                    let types: Vec<String> = args.iter().map(|(_, ty)| ty.display()).collect();
                    script.push(fail(
                        "42883",
                        &format!("function {name}({}) does not exist", types.join(", ")),
                        &format!("NOT EXISTS (SELECT 1 FROM main.{FUNCTIONS_TABLE} WHERE {key})"),
                    ));
                }
                script.push(format!("DELETE FROM main.{FUNCTIONS_TABLE} WHERE {key}"));
            }
            None => {
                if !drop.if_exists {
                    script.push(fail(
                        "42883",
                        &format!("could not find a function named \"{name}\""),
                        &format!("NOT EXISTS (SELECT 1 FROM main.{FUNCTIONS_TABLE} WHERE {named})"),
                    ));
                }
                script.push(fail(
                    "42725",
                    &format!("function name \"{name}\" is not unique"),
                    &format!("(SELECT count(*) FROM main.{FUNCTIONS_TABLE} WHERE {named}) > 1"),
                ));
                script.push(format!("DELETE FROM main.{FUNCTIONS_TABLE} WHERE {named}"));
            }
        }
    }
    Ok(script)
}

/// The refusal, when the statement makes a function, a procedure or a
/// trigger that executes one.
pub(super) fn refused(w: &Words) -> Option<Error> {
    let mut at = 1;
    if w.is(at, "OR") && w.is(at + 1, "REPLACE") {
        at += 2;
    }
    if w.is(at, "FUNCTION") || w.is(at, "PROCEDURE") {
        let kind = w.text(at).to_ascii_lowercase();
        let (name, _) = w.name(at + 1)?;
        let language = (at..w.tokens.len())
            .find(|&i| w.is(i, "LANGUAGE"))
            .map(|i| unquote_identifier(w.text(i + 1)).to_ascii_lowercase());
        let language = match language {
            Some(language) => format!("LANGUAGE {}", language.trim_matches('\'')),
            None => "any language".to_owned(),
        };
        return Some(Error::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            format!("{kind} \"{name}\" cannot be created: {kind}s in {language} are not supported"),
        ));
    }
    if w.is(at, "CONSTRAINT") {
        at += 1;
    }
    if !w.is(at, "TRIGGER") {
        return None;
    }
    let (trigger, _) = w.name(at + 1)?;
    let execute = (at..w.tokens.len()).find(|&i| {
        w.is(i, "EXECUTE")
            && (w.is(i + 1, "FUNCTION") || w.is(i + 1, "PROCEDURE"))
            && w.tokens
                .get(i + 2)
                .is_some_and(|t| matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent))
    })?;
    let (function, _) = w.name(execute + 2)?;
    Some(Error::state(
        SqlState::FEATURE_NOT_SUPPORTED,
        format!(
            "trigger \"{trigger}\" cannot be created: triggers that execute a function ({function}) are not supported"
        ),
    ))
}

/// `DROP TRIGGER [IF EXISTS] name ON table`: 42704 where the table has no
/// trigger of that name (nothing, with `IF EXISTS`); `None` for SQLite's own
/// form, without `ON`. SQLite's trigger names are the database's, not a
/// table's: one of another table's is not dropped (0A000).
fn drop_trigger(w: &Words) -> Option<Result<Vec<String>, Error>> {
    let if_exists = w.is(2, "IF") && w.is(3, "EXISTS");
    let (trigger, on) = w.name(if if_exists { 4 } else { 2 })?;
    if !w.is(on, "ON") {
        return None;
    }
    let (table, end) = w.name(on + 1)?;
    let end = end + usize::from(w.is(end, "CASCADE") || w.is(end, "RESTRICT"));
    if end < w.tokens.len() {
        return Some(Err(w.syntax_error(end)));
    }
    let (trigger, table) = (stored_written(&trigger), stored_written(&table));
    let named = format!(
        "FROM main.sqlite_schema WHERE type = 'trigger' AND name = {} COLLATE NOCASE",
        literal(&trigger)
    );
    let on_table = format!("tbl_name = {} COLLATE NOCASE", literal(&table));
    let mut script = Vec::new();
    if !if_exists {
        script.push(format!(
        "SELECT litewire_error('42P01', {}) WHERE NOT EXISTS \
         (SELECT 1 FROM main.sqlite_schema WHERE type IN ('table', 'view') AND name = {} COLLATE NOCASE)",
        literal(&format!("relation \"{table}\" does not exist")),
        literal(&table)
    ));
        script.push(format!(
            "SELECT litewire_error('42704', {}) WHERE NOT EXISTS (SELECT 1 {named} AND {on_table})",
            literal(&format!(
                "trigger \"{trigger}\" for table \"{table}\" does not exist"
            ))
        ));
    }
    script.push(format!(
        "SELECT litewire_error('0A000', {}) WHERE EXISTS (SELECT 1 {named} AND NOT {on_table})",
        literal(&format!(
            "trigger \"{trigger}\" is another table's (SQLite's trigger names are unique in the database)"
        ))
    ));
    script.push(format!("DROP TRIGGER IF EXISTS {}", identifier(&trigger)));
    Some(Ok(script))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::lexer::tokenize;

    fn refusal(sql: &str) -> Option<String> {
        let tokens = tokenize(sql);
        let words = Words {
            sql,
            tokens: &tokens,
        };
        refused(&words).map(|e| e.message)
    }

    #[test]
    fn a_trigger_is_dropped_from_its_table() {
        let dropped = |sql: &str| {
            let tokens = tokenize(sql);
            drop_trigger(&Words {
                sql,
                tokens: &tokens,
            })
        };
        let script = dropped("DROP TRIGGER t_log ON Items CASCADE")
            .unwrap()
            .unwrap();
        assert_eq!(script.len(), 4);
        assert!(script[1].contains("trigger \"t_log\" for table \"items\" does not exist"));
        assert_eq!(script[3], "DROP TRIGGER IF EXISTS \"t_log\"");
        assert_eq!(
            dropped("DROP TRIGGER IF EXISTS t ON x")
                .unwrap()
                .unwrap()
                .len(),
            2
        );
        assert!(dropped("DROP TRIGGER t").is_none());
        assert!(dropped("DROP TRIGGER t ON x y").unwrap().is_err());
    }

    #[test]
    fn functions_and_triggers_that_run_them_are_refused_by_name() {
        assert_eq!(
            refusal("CREATE OR REPLACE FUNCTION public.touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$").as_deref(),
            Some("function \"touch\" cannot be created: functions in LANGUAGE plpgsql are not supported")
        );
        assert_eq!(
            refusal("CREATE PROCEDURE p() AS 'SELECT 1' LANGUAGE 'sql'").as_deref(),
            Some("procedure \"p\" cannot be created: procedures in LANGUAGE sql are not supported")
        );
        assert_eq!(
            refusal("CREATE TRIGGER t_touch BEFORE UPDATE ON public.items FOR EACH ROW EXECUTE FUNCTION public.touch()").as_deref(),
            Some("trigger \"t_touch\" cannot be created: triggers that execute a function (touch) are not supported")
        );
        // SQLite's own triggers are no functions.
        assert_eq!(
            refusal("CREATE TRIGGER t AFTER INSERT ON a BEGIN INSERT INTO b VALUES (NEW.x); END"),
            None
        );
        assert_eq!(refusal("CREATE TABLE f (x int)"), None);
    }
}
