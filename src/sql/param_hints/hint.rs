//! What a parameter's type should be, as the inference finds it: the declared
//! type of a column, a type the statement names, an array of a hinted type, or
//! the type beside it in an operator. The engine turns a hint into a declared
//! type against the schema.

/// What a parameter's type should be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamHint {
    /// The declared type of `column` in the first of `tables` that has it.
    Column { tables: Vec<String>, column: String },
    /// The declared type of the `index`th (0-based) column that an INSERT without
    /// a column list fills in `table`: its columns in order, less generated ones.
    Position { table: String, index: usize },
    /// A type named in the statement (a cast) or implied by an operator or a
    /// function, as SQLite would declare it (`bigint`, `text`, `date`, `int[]`).
    Declared(String),
    /// The type of argument `index` (0-based) of the user's function `name`
    /// of `arity` arguments (`CREATE FUNCTION ... LANGUAGE sql`), if it has one.
    FunctionArgument {
        name: String,
        arity: usize,
        index: usize,
    },
    /// An array whose elements have the hinted type (`x = ANY($1)`).
    ArrayOf(Box<ParamHint>),
    /// Beside a value of the hinted type in an operator (a comparison,
    /// arithmetic, BETWEEN, IN): that type, except that varchar has no operators
    /// of its own (PostgreSQL compares it as text), so beside a varchar a
    /// parameter is text.
    Operand(Box<ParamHint>),
}

pub(super) fn operand(hint: ParamHint) -> ParamHint {
    ParamHint::Operand(Box::new(hint))
}

pub(super) fn declared(name: &str) -> ParamHint {
    ParamHint::Declared(name.to_owned())
}
