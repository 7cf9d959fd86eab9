//! `CREATE`, `ALTER` and `DROP SEQUENCE`, as the statements on the table of
//! sequences that do them, run as one script.

use super::names::sequence_name;
use super::options::{invalid, read_options, syntax, type_bounds};
use super::sequence_table::{CREATE_TABLE, SEQUENCES_TABLE, exists, fail_when, insert};
use crate::error::Error;
use crate::sql::lexer::Token;
use crate::sql::quote::literal;
use crate::sql::words::Words;

/// What a recognised sequence statement becomes: SQLite statements run as one.
pub(crate) fn statement(sql: &str, tokens: &[Token]) -> Result<Option<Vec<String>>, Error> {
    let w = Words { sql, tokens };
    let mut i = 1;
    if w.is(0, "CREATE") && (w.is(1, "TEMP") || w.is(1, "TEMPORARY")) {
        i = 2;
    }
    if !w.is(i, "SEQUENCE") {
        return Ok(None);
    }
    let script = if w.is(0, "CREATE") {
        create(&w, i + 1)?
    } else if w.is(0, "ALTER") {
        alter(&w, i + 1)?
    } else if w.is(0, "DROP") {
        drop_sequences(&w, i + 1)?
    } else {
        return Ok(None);
    };
    Ok(Some(script))
}

fn if_exists(w: &Words, i: usize) -> (bool, usize) {
    if w.is(i, "IF") && w.is(i + 1, "EXISTS") {
        (true, i + 2)
    } else {
        (false, i)
    }
}

/// `CREATE [TEMP] SEQUENCE [IF NOT EXISTS] name [options]`.
fn create(w: &Words, i: usize) -> Result<Vec<String>, Error> {
    let (if_not_exists, i) = if w.is(i, "IF") && w.is(i + 1, "NOT") && w.is(i + 2, "EXISTS") {
        (true, i + 3)
    } else {
        (false, i)
    };
    let (name, i) = sequence_name(w, i)?;
    let options = read_options(w, i, false)?;
    let definition = options.resolve("bigint")?;
    let owner = options.owned_by.clone().flatten();
    let mut script = vec![CREATE_TABLE.to_owned()];
    if !if_not_exists {
        script.push(fail_when(
            &exists(&name),
            &format!("relation \"{name}\" already exists"),
        ));
    }
    if let Some((table, _)) = &owner {
        script.push(owner_check(table));
    }
    script.push(insert(
        &name,
        &definition,
        owner.as_ref().map(|(t, c)| (t.as_str(), c.as_str())),
        None,
        if_not_exists,
        "true",
    ));
    Ok(script)
}

/// Fails unless `table` exists.
fn owner_check(table: &str) -> String {
    fail_when(
        &format!(
            "NOT EXISTS (SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = {} COLLATE NOCASE)",
            literal(table)
        ),
        &format!("relation \"{table}\" does not exist"),
    )
}

/// The statements that fail with PostgreSQL's error unless the sequence
/// `name` exists.
pub(crate) fn must_exist(name: &str) -> Vec<String> {
    vec![
        CREATE_TABLE.to_owned(),
        fail_when(
            &format!("NOT {}", exists(name)),
            &format!("relation \"{name}\" does not exist"),
        ),
    ]
}

/// The statements that fail with PostgreSQL's error unless a table, view or
/// sequence `name` exists (`ALTER TABLE` takes any of them).
pub(crate) fn relation_must_exist(name: &str) -> Vec<String> {
    vec![
        CREATE_TABLE.to_owned(),
        format!(
            "SELECT litewire_error('42P01', {}) WHERE NOT {} AND NOT EXISTS (SELECT 1 FROM \
             main.sqlite_schema WHERE type IN ('table', 'view') AND name = {} COLLATE NOCASE)",
            literal(&format!("relation \"{name}\" does not exist")),
            exists(name),
            literal(name)
        ),
    ]
}

/// `ALTER SEQUENCE [IF EXISTS] name options`.
fn alter(w: &Words, i: usize) -> Result<Vec<String>, Error> {
    let (if_exists, i) = if_exists(w, i);
    let (name, i) = sequence_name(w, i)?;
    let options = read_options(w, i, true)?;
    if options.increment == Some(0) {
        return Err(invalid("INCREMENT must not be zero"));
    }
    let mut script = vec![CREATE_TABLE.to_owned()];
    if !if_exists {
        script.push(fail_when(
            &format!("NOT {}", exists(&name)),
            &format!("relation \"{name}\" does not exist"),
        ));
    }
    let mut sets = Vec::new();
    if let Some(data_type) = &options.data_type {
        let (canonical, type_min, type_max) = type_bounds(data_type)
            .ok_or_else(|| invalid("sequence type must be smallint, integer, or bigint"))?;
        sets.push(format!("type = '{canonical}'"));
        // Bounds at the old type's limits follow the type, as in PostgreSQL.
        if options.max.is_none() {
            sets.push(format!(
                "max_value = CASE WHEN max_value > {type_max} OR max_value IN (32767, 2147483647, 9223372036854775807) THEN {type_max} ELSE max_value END"
            ));
        }
        if options.min.is_none() {
            sets.push(format!(
                "min_value = CASE WHEN min_value < {type_min} OR min_value IN (-32768, -2147483648, -9223372036854775808) THEN {type_min} ELSE min_value END"
            ));
        }
    }
    if let Some(increment) = options.increment {
        sets.push(format!("increment = {increment}"));
    }
    // `NO MINVALUE`/`NO MAXVALUE`: the defaults for the (new) increment's sign.
    let type_limit = |max: bool| {
        let (a, b) = if max {
            ("32767", "2147483647")
        } else {
            ("-32768", "-2147483648")
        };
        let big = if max { i64::MAX } else { i64::MIN };
        format!("CASE type WHEN 'smallint' THEN {a} WHEN 'integer' THEN {b} ELSE {big} END")
    };
    match options.min {
        Some(Some(min)) => sets.push(format!("min_value = {min}")),
        Some(None) => sets.push(format!(
            "min_value = CASE WHEN increment > 0 THEN 1 ELSE {} END",
            type_limit(false)
        )),
        None => {}
    }
    match options.max {
        Some(Some(max)) => sets.push(format!("max_value = {max}")),
        Some(None) => sets.push(format!(
            "max_value = CASE WHEN increment > 0 THEN {} ELSE -1 END",
            type_limit(true)
        )),
        None => {}
    }
    if let Some(start) = options.start {
        sets.push(format!("start_value = {start}"));
    }
    if let Some(cycle) = options.cycle {
        sets.push(format!("cycle = {}", i64::from(cycle)));
    }
    match &options.owned_by {
        Some(Some((table, column))) => {
            script.push(owner_check(table));
            sets.push(format!(
                "owned_table = {}, owned_column = {}",
                literal(table),
                literal(column)
            ));
        }
        Some(None) => sets.push("owned_table = NULL, owned_column = NULL".to_owned()),
        None => {}
    }
    let quoted = literal(&name);
    if !sets.is_empty() {
        script.push(format!(
            "UPDATE main.{SEQUENCES_TABLE} SET {} WHERE name = {quoted}",
            sets.join(", ")
        ));
    }
    // RESTART comes after the other changes (`RESTART` alone: the start value,
    // which the same statement may have just set).
    if let Some(restart) = options.restart {
        let value = restart.map_or_else(|| "start_value".to_owned(), |v| v.to_string());
        script.push(format!(
            "UPDATE main.{SEQUENCES_TABLE} SET last_value = {value}, is_called = 0, token = random() WHERE name = {quoted}"
        ));
    }
    // The result must still be a valid sequence.
    let row = |condition: &str| {
        format!(
            "EXISTS (SELECT 1 FROM main.{SEQUENCES_TABLE} WHERE name = {quoted} AND {condition})"
        )
    };
    script.push(fail_when(
        &row("min_value >= max_value"),
        "MINVALUE must be less than MAXVALUE",
    ));
    script.push(fail_when(
        &row("(start_value < min_value OR start_value > max_value)"),
        "START value must lie between MINVALUE and MAXVALUE",
    ));
    if options.restart.is_some() {
        script.push(fail_when(
            &row("(last_value < min_value OR last_value > max_value)"),
            "RESTART value must lie between MINVALUE and MAXVALUE",
        ));
    }
    Ok(script)
}

/// `DROP SEQUENCE [IF EXISTS] a [, b ...] [CASCADE | RESTRICT]`. A sequence a
/// column's default uses is dropped only with CASCADE, as in PostgreSQL (which
/// also drops the default; SQLite cannot change a column's default, so the
/// column keeps it and inserts that rely on it fail).
fn drop_sequences(w: &Words, i: usize) -> Result<Vec<String>, Error> {
    let (if_exists, mut i) = if_exists(w, i);
    let mut names = Vec::new();
    loop {
        let (name, next) = sequence_name(w, i)?;
        names.push(name);
        i = next;
        if w.text(i) == "," {
            i += 1;
            continue;
        }
        break;
    }
    let cascade = w.is(i, "CASCADE");
    if cascade || w.is(i, "RESTRICT") {
        i += 1;
    }
    if i < w.tokens.len() {
        return Err(syntax(format!("syntax error at or near \"{}\"", w.text(i))));
    }
    let mut script = vec![CREATE_TABLE.to_owned()];
    for name in names {
        let quoted = literal(&name);
        if !if_exists {
            script.push(fail_when(
                &format!("NOT {}", exists(&name)),
                &format!("sequence \"{name}\" does not exist"),
            ));
        }
        if !cascade {
            script.push(fail_when(
                &format!(
                    "EXISTS (SELECT 1 FROM main.{SEQUENCES_TABLE} s WHERE s.name = {quoted} \
                     AND EXISTS (SELECT 1 FROM main.sqlite_schema m WHERE m.type = 'table' \
                     AND m.name = s.owned_table COLLATE NOCASE))"
                ),
                &format!(
                    "cannot drop sequence {name} because other objects depend on it (use DROP ... CASCADE)"
                ),
            ));
        }
        script.push(format!(
            "DELETE FROM main.{SEQUENCES_TABLE} WHERE name = {quoted}"
        ));
    }
    Ok(script)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::sql::lexer::tokenize;

    fn script(sql: &str) -> Result<Vec<String>, Error> {
        statement(sql, &tokenize(sql)).map(Option::unwrap_or_default)
    }

    #[test]
    fn create_resolves_postgres_defaults() {
        let s = script(
            "CREATE SEQUENCE public.Seq START 5 INCREMENT BY -1 MINVALUE -3 MAXVALUE 9 CYCLE",
        )
        .unwrap();
        assert_eq!(s[0], CREATE_TABLE);
        assert!(s[1].contains("relation \"seq\" already exists"), "{s:?}");
        assert!(
            s[2].contains("SELECT 'seq', 'bigint', 5, -1, -3, 9, 1, 5, 0, random(), NULL, NULL, NULL WHERE true"),
            "{s:?}"
        );
        let s = script("create sequence if not exists \"S\" as smallint").unwrap();
        assert_eq!(s.len(), 2);
        assert!(
            s[1].starts_with("INSERT OR IGNORE")
                && s[1].contains("SELECT 'S', 'smallint', 1, 1, 1, 32767, 0, 1,"),
            "{s:?}"
        );
    }

    #[test]
    fn bad_options_are_refused() {
        assert_eq!(
            script("create sequence s increment 0").unwrap_err().kind,
            ErrorKind::InvalidParameterValue
        );
        assert!(
            script("create sequence s minvalue 5 maxvalue 5")
                .unwrap_err()
                .message
                .contains("must be less than")
        );
        assert!(
            script("create sequence s start 0")
                .unwrap_err()
                .message
                .contains("cannot be less than MINVALUE")
        );
        assert_eq!(
            script("create sequence s bogus").unwrap_err().kind,
            ErrorKind::Syntax
        );
        assert!(script("create sequence s as text").is_err());
    }

    #[test]
    fn alter_and_drop() {
        let s = script("ALTER SEQUENCE s RESTART WITH 10 INCREMENT 2").unwrap();
        assert!(s.iter().any(|p| p.contains("SET increment = 2")), "{s:?}");
        assert!(
            s.iter()
                .any(|p| p.contains("SET last_value = 10, is_called = 0, token = random()")),
            "{s:?}"
        );
        let s = script("ALTER SEQUENCE IF EXISTS s RESTART").unwrap();
        assert!(!s.iter().any(|p| p.contains("does not exist")), "{s:?}");
        assert!(s.iter().any(|p| p.contains("SET last_value = start_value")));
        let s = script("DROP SEQUENCE a, b CASCADE").unwrap();
        assert_eq!(s.len(), 5, "{s:?}");
        assert_eq!(script("DROP SEQUENCE IF EXISTS a").unwrap().len(), 3);
        assert!(
            script("DROP SEQUENCE a")
                .unwrap()
                .iter()
                .any(|p| p.contains("because other objects depend on it"))
        );
        assert!(
            statement("DROP TABLE a", &tokenize("DROP TABLE a"))
                .unwrap()
                .is_none()
        );
    }
}
