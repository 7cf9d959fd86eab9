//! The errors PostgreSQL raises while it reads a statement, with its SQLSTATEs
//! and words: unknown or ambiguous names, types that do not fit, operators and
//! functions that do not exist for their arguments.

use super::types::PgType;
use crate::error::{Error, SqlState};
use crate::sql::datetime_input::InputError;
use crate::sql::interval::IntervalError;

/// Why a statement was not translated.
#[derive(Debug)]
pub(super) enum Fail {
    /// PostgreSQL refuses it: this error is the statement's answer.
    Pg(Error),
    /// Something the translation does not handle; the statement goes the
    /// older way.
    Unsupported(&'static str),
}

pub(super) type Result<T> = std::result::Result<T, Fail>;

fn fail(code: &str, message: String) -> Fail {
    let state = SqlState::parse(code).unwrap_or(SqlState::FEATURE_NOT_SUPPORTED);
    Fail::Pg(Error::state(state, message))
}

/// A syntax error (42601) in PostgreSQL's words (a `jsonpath` that does not read).
pub(super) fn syntax_error_message(message: String) -> Fail {
    fail("42601", message)
}

/// What PostgreSQL refuses as not implemented (0A000).
pub(super) fn not_implemented(message: &str) -> Fail {
    fail("0A000", message.to_owned())
}

pub(super) fn undefined_column(name: &str) -> Fail {
    fail("42703", format!("column \"{name}\" does not exist"))
}

/// `relation.name`, which PostgreSQL's message does not quote.
pub(super) fn undefined_qualified_column(relation: &str, name: &str) -> Fail {
    fail("42703", format!("column {relation}.{name} does not exist"))
}

pub(super) fn ambiguous_column(name: &str) -> Fail {
    fail("42702", format!("column reference \"{name}\" is ambiguous"))
}

/// 42P10: the right side of a RIGHT or FULL join reads its left side.
pub(super) fn lateral_reference(relation: &str) -> Fail {
    Fail::Pg(
        Error::state(
            SqlState::parse("42P10").unwrap_or(SqlState::FEATURE_NOT_SUPPORTED),
            format!("invalid reference to FROM-clause entry for table \"{relation}\""),
        )
        .with_detail("The combining JOIN type must be INNER or LEFT for a LATERAL reference."),
    )
}

pub(super) fn missing_from_entry(relation: &str) -> Fail {
    fail(
        "42P01",
        format!("missing FROM-clause entry for table \"{relation}\""),
    )
}

/// 55000: a materialized view made `WITH NO DATA` and not refreshed since.
pub(super) fn not_populated(name: &str) -> Fail {
    fail(
        "55000",
        format!("materialized view \"{name}\" has not been populated"),
    )
}

/// 42809: an INSERT, UPDATE or DELETE of a materialized view.
pub(super) fn materialized_view_written(name: &str) -> Fail {
    fail(
        "42809",
        format!("cannot change materialized view \"{name}\""),
    )
}

/// 428C9: a value for a `GENERATED ALWAYS` identity column, in an INSERT
/// (without `OVERRIDING SYSTEM VALUE`) or an UPDATE.
pub(super) fn generated_always(column: &str, update: bool) -> Fail {
    not_default(
        column,
        update,
        format!("Column \"{column}\" is an identity column defined as GENERATED ALWAYS."),
    )
}

/// 428C9: a value for a generated column (`GENERATED ALWAYS AS (expr)`).
pub(super) fn generated_column(column: &str, update: bool) -> Fail {
    not_default(
        column,
        update,
        format!("Column \"{column}\" is a generated column."),
    )
}

fn not_default(column: &str, update: bool, detail: String) -> Fail {
    let message = match update {
        true => format!("column \"{column}\" can only be updated to DEFAULT"),
        false => format!("cannot insert a non-DEFAULT value into column \"{column}\""),
    };
    Fail::Pg(
        Error::state(
            SqlState::parse("428C9").unwrap_or(SqlState::FEATURE_NOT_SUPPORTED),
            message,
        )
        .with_detail(detail),
    )
}

pub(super) fn undefined_schema(name: &str) -> Fail {
    fail("3F000", format!("schema \"{name}\" does not exist"))
}

pub(super) fn undefined_table(name: &str) -> Fail {
    fail("42P01", format!("relation \"{name}\" does not exist"))
}

pub(super) fn undefined_operator(op: &str, left: &PgType, right: &PgType) -> Fail {
    fail(
        "42883",
        format!(
            "operator does not exist: {} {op} {}",
            left.display(),
            right.display()
        ),
    )
}

pub(super) fn undefined_prefix_operator(op: &str, operand: &PgType) -> Fail {
    fail(
        "42883",
        format!("operator does not exist: {op} {}", operand.display()),
    )
}

pub(super) fn undefined_function(name: &str, args: &[PgType]) -> Fail {
    let types: Vec<String> = args.iter().map(PgType::display).collect();
    fail(
        "42883",
        format!("function {name}({}) does not exist", types.join(", ")),
    )
}

/// An object used as what it is not (42809).
pub(super) fn wrong_object_type(message: String) -> Fail {
    fail("42809", message)
}

pub(super) fn datatype_mismatch(message: String) -> Fail {
    fail("42804", message)
}

/// An argument of `AND`, `WHERE`, ... that is not a boolean.
pub(super) fn not_boolean(context: &str, ty: &PgType) -> Fail {
    datatype_mismatch(format!(
        "argument of {context} must be type boolean, not type {}",
        ty.display()
    ))
}

pub(super) fn cannot_cast(from: &PgType, to: &PgType) -> Fail {
    fail(
        "42846",
        format!("cannot cast type {} to {}", from.display(), to.display()),
    )
}

pub(super) fn invalid_input(ty: &PgType, text: &str) -> Fail {
    fail(
        "22P02",
        format!("invalid input syntax for type {}: \"{text}\"", ty.display()),
    )
}

/// A bit-string literal's digit that is no binary digit (`B'102'`).
pub(super) fn invalid_bit_digit(digit: char) -> Fail {
    fail("22P02", format!("\"{digit}\" is not a valid binary digit"))
}

pub(super) fn out_of_range(ty: &PgType, text: &str) -> Fail {
    let message = match ty {
        PgType::Int2 => "smallint out of range".to_owned(),
        PgType::Int4 => "integer out of range".to_owned(),
        PgType::Int8 => "bigint out of range".to_owned(),
        PgType::Float4 | PgType::Float8 => {
            format!("\"{text}\" is out of range for type {}", ty.display())
        }
        other => format!(
            "value \"{text}\" is out of range for type {}",
            other.display()
        ),
    };
    fail("22003", message)
}

pub(super) fn position_out_of_range(clause: &str, position: i64) -> Fail {
    fail(
        "42P10",
        format!("{clause} position {position} is not in select list"),
    )
}

pub(super) fn grouping(message: String) -> Fail {
    fail("42803", message)
}

/// 54000: past one of PostgreSQL's limits.
pub(super) fn program_limit(message: String) -> Fail {
    fail("54000", message)
}

/// 42P10: a `WITH` query's column list names more columns than it has.
pub(super) fn more_names_than_columns(query: &str, available: usize, named: usize) -> Fail {
    fail(
        "42P10",
        format!(
            "WITH query \"{query}\" has {available} columns available but {named} columns specified"
        ),
    )
}

/// 42P10: a `DISTINCT ON` whose keys do not begin the sort.
pub(super) fn distinct_on_order() -> Fail {
    fail(
        "42P10",
        "SELECT DISTINCT ON expressions must match initial ORDER BY expressions".to_owned(),
    )
}

pub(super) fn syntax(message: String) -> Fail {
    fail("42601", message)
}

pub(super) fn ambiguous_operator(op: &str, left: &PgType, right: &PgType) -> Fail {
    fail(
        "42725",
        format!(
            "operator is not unique: {} {op} {}",
            left.display(),
            right.display()
        ),
    )
}

pub(super) fn ambiguous_function(name: &str, args: &[PgType]) -> Fail {
    let types: Vec<String> = args.iter().map(PgType::display).collect();
    fail(
        "42725",
        format!("function {name}({}) is not unique", types.join(", ")),
    )
}

pub(super) fn undefined_column_of(name: &str, relation: &str) -> Fail {
    fail(
        "42703",
        format!("column \"{name}\" of relation \"{relation}\" does not exist"),
    )
}

pub(super) fn ambiguous_order(name: &str) -> Fail {
    fail("42702", format!("ORDER BY \"{name}\" is ambiguous"))
}

pub(super) fn invalid_parameter(message: String) -> Fail {
    fail("22023", message)
}

/// An interval PostgreSQL does not read.
/// An address that does not read as an `inet` or `cidr` (22P02).
pub(super) fn inet_input_error(text: &str, cidr: bool, error: crate::sql::inet::InetError) -> Fail {
    let ty = if cidr { "cidr" } else { "inet" };
    let message = match error {
        crate::sql::inet::InetError::Syntax => {
            format!("invalid input syntax for type {ty}: \"{text}\"")
        }
        crate::sql::inet::InetError::HostBits => format!("invalid cidr value: \"{text}\""),
    };
    fail("22P02", message)
}

pub(super) fn interval_input_error(text: &str, error: IntervalError) -> Fail {
    match error {
        IntervalError::Syntax => fail(
            "22007",
            format!("invalid input syntax for type interval: \"{text}\""),
        ),
        IntervalError::OutOfRange => fail(
            "22015",
            format!("interval field value out of range: \"{text}\""),
        ),
    }
}

/// A date or time PostgreSQL does not read: 22008 when a field is out of
/// range (`2024-02-30`), else 22007.
pub(super) fn datetime_input_error(ty: &PgType, text: &str, error: InputError) -> Fail {
    match error {
        InputError::BadFormat | InputError::SessionZone => fail(
            "22007",
            format!("invalid input syntax for type {}: \"{text}\"", ty.display()),
        ),
        InputError::OutOfRange => fail(
            "22008",
            format!(
                "{} out of range: \"{text}\"",
                match ty {
                    PgType::Date => "date",
                    _ => "timestamp",
                }
            ),
        ),
        InputError::FieldOverflow | InputError::MonthDayOverflow => fail(
            "22008",
            format!("date/time field value out of range: \"{text}\""),
        ),
    }
}
