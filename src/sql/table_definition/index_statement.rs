//! The `CREATE INDEX` statements a rebuild runs again for the new table, under
//! the names they had, and the keys an index's statement lists.

use super::tokens::skip_group;
use crate::sql::lexer::{TokenKind, tokenize};
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

/// The keys `create_index` lists, as written between its parentheses
/// (`lower("name"), id DESC`): what an index on expressions is made of.
pub fn index_keys(create_index: &str) -> Option<&str> {
    let tokens = tokenize(create_index);
    let on = tokens
        .iter()
        .position(|t| t.is_keyword(create_index, "ON"))?;
    let open = (on..tokens.len()).find(|&i| tokens[i].kind == TokenKind::LeftParen)?;
    let close = tokens.get(skip_group(&tokens, open).checked_sub(1)?)?;
    create_index
        .get(tokens[open].end..close.start)
        .map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_keys_are_the_text_between_the_parentheses() {
        assert_eq!(
            index_keys("CREATE UNIQUE INDEX i ON \"T x\" (lower(\"a\"), b DESC) WHERE b > 0"),
            Some("lower(\"a\"), b DESC")
        );
        assert_eq!(index_keys("CREATE INDEX i ON t"), None);
    }
}
