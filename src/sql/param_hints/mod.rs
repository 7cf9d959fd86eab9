//! Parameter types, inferred from where each parameter is used.
//!
//! SQLite does not type parameters, but PostgreSQL drivers ask for them
//! (Describe answers with ParameterDescription) and then encode values to match:
//! tokio-postgres refuses to send an `i32` for a parameter described as text, and
//! asyncpg refuses an `int` for one described as text. PostgreSQL gives an
//! untyped parameter the type its use implies, and so does this module, over
//! the statement as the client wrote it (where casts such as `$1::date` still
//! say their type) and, when that does not parse as PostgreSQL, over its SQLite
//! translation:
//!
//! - a value stored into a column (INSERT with or without a column list, each
//!   row of VALUES, the select list of INSERT ... SELECT, UPDATE's and ON
//!   CONFLICT's SET) takes the column's declared type;
//! - an operand of a comparison, arithmetic, BETWEEN, IN, `@>`, `<@` or `&&`
//!   takes the type of the other operand (a column, a literal, a cast, a
//!   function's result, a scalar subquery's column); `x = ANY($1)` takes an
//!   array of `x`'s type;
//! - `||`, LIKE and regular expressions take text, AND/OR/NOT and WHERE boolean;
//! - the arguments of `coalesce`, `nullif`, `greatest`, `least` and the results
//!   of a CASE take the type of whichever of them has one;
//! - arguments of functions whose signature PostgreSQL fixes (`length` text,
//!   `substr` text and integers, ...) take that type;
//! - `LIMIT`/`OFFSET`/`FETCH` counts take bigint; a cast takes the cast's type.
//!
//! Columns resolve against the tables of the innermost query first, then of
//! the queries around it (a correlated subquery sees its outer query's
//! tables). The engine turns the hints into declared types against the schema;
//! a parameter nothing types is text, as in PostgreSQL.

mod frame;
mod functions;
mod hint;
mod inference;
mod scope;
mod stored_values;
mod value_types;
mod walker;

pub use hint::ParamHint;
pub use inference::param_hints;
