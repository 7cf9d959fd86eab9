//! The `CREATE INDEX` statements a rebuild runs again for the new table, under
//! the names they had.

use crate::sql::lexer::tokenize;
use crate::sql::quote::identifier;

/// `create_index` (a `CREATE [UNIQUE] INDEX name ON ...` statement) with the
/// index named `name`.
pub fn renamed_index(create_index: &str, name: &str) -> Option<String> {
    let tokens = tokenize(create_index);
    let on = tokens
        .iter()
        .position(|t| t.is_keyword(create_index, "ON"))?;
    let old = tokens.get(on.checked_sub(1)?)?;
    // `IF NOT EXISTS` is not a name.
    if old.is_keyword(create_index, "EXISTS") {
        return None;
    }
    Some(format!(
        "{}{}{}",
        &create_index[..old.start],
        identifier(name),
        &create_index[old.end..]
    ))
}
