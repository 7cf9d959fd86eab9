//! Settings functions: `current_setting()` and `set_config()`, anywhere in a
//! statement; `current_schema()` and `current_schemas()`, which follow
//! `search_path`.
//!
//! Drivers call them inside ordinary queries (asyncpg runs `SELECT
//! current_setting('jit') AS cur, set_config('jit', 'off', false) AS new`
//! before its type introspection, and later `set_config('jit', $1, false)`), so
//! they cannot be session commands answered beside SQLite. They read and change
//! the settings of the session the connection serves now (see `context`), with
//! `SET`'s rules (see `settings`).

use super::call::{Arg, Call, Out};
use super::definition::{Function, Volatility};
use std::ffi::CStr;

use super::sequences::{Bind, first_row};
use crate::engine::catalog::oids::NAMESPACES;
use crate::engine::settings::SharedSettings;
use crate::sql::schema_names::path_items;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg(
        "current_setting",
        &["text"],
        "text",
        Volatility::Stable,
        current_setting,
    ),
    Function::pg(
        "current_setting",
        &["text", "bool"],
        "text",
        Volatility::Stable,
        current_setting,
    ),
    Function::pg(
        "set_config",
        &["text", "text", "bool"],
        "text",
        Volatility::Volatile,
        set_config,
    ),
    Function::pg(
        "current_schema",
        &[],
        "name",
        Volatility::Stable,
        current_schema,
    ),
    Function::pg(
        "current_schemas",
        &["bool"],
        "name[]",
        Volatility::Stable,
        current_schemas,
    ),
];

/// The settings of the session the connection serves now.
fn settings(call: &Call) -> Result<SharedSettings, String> {
    call.context
        .served()
        .map(|served| served.settings.clone())
        .ok_or_else(|| "settings are not available on this connection".to_owned())
}

/// PostgreSQL's boolean input (`true`, `on`, `1`, `t`, ...); SQLite's are integers.
fn truth(arg: &Arg) -> Option<bool> {
    match arg {
        Arg::Null => None,
        Arg::Int(i) => Some(*i != 0),
        Arg::Real(f) => Some(*f != 0.0),
        other => match other.text()?.trim().to_ascii_lowercase().as_str() {
            "t" | "true" | "on" | "yes" | "y" | "1" => Some(true),
            _ => Some(false),
        },
    }
}

/// `current_setting(name [, missing_ok])`.
fn current_setting(call: &Call, args: &[Arg]) -> Out {
    let Some(name) = args[0].text() else {
        return Out::Null;
    };
    let missing_ok = args.get(1).and_then(truth).unwrap_or(false);
    let shared = match settings(call) {
        Ok(shared) => shared,
        Err(message) => return Out::Error(message),
    };
    let value = shared.lock().current_setting(&name, missing_ok);
    match value {
        Ok(Some(value)) => Out::Text(value),
        Ok(None) => Out::Null,
        Err(error) => Out::Error(error.message),
    }
}

/// `set_config(name, value, is_local)`: `SET [LOCAL]`, answering the new value.
/// While the statement is only described, nothing changes.
fn set_config(call: &Call, args: &[Arg]) -> Out {
    let Some(name) = args[0].text() else {
        return Out::Error("NULL value not allowed for the name of set_config".into());
    };
    let value = args[1].text().unwrap_or_default();
    let local = truth(&args[2]).unwrap_or(false);
    let shared = match settings(call) {
        Ok(shared) => shared,
        Err(message) => return Out::Error(message),
    };
    let mut current = shared.lock();
    let result = match shared.is_describing() {
        true => current.clone().set_config(&name, &value, local),
        false => current.set_config(&name, &value, local),
    };
    match result {
        Ok(value) => Out::Text(value),
        Err(error) => Out::Error(error.message),
    }
}

/// Whether `name` is a schema made with `CREATE SCHEMA`.
pub(super) fn schema_made(call: &Call, name: &str) -> bool {
    const SCHEMA: &CStr = c"SELECT 1 FROM main.litewire_schemas WHERE name = ?1";
    // SAFETY: `call.db` is the connection this function runs on.
    let found = unsafe { first_row(call.db, SCHEMA, &[Bind::Text(name)]) };
    matches!(found, Ok(Some(_)))
}

/// The schemas of the session's `search_path` that exist, in its order
/// (`"$user"` names a schema of the user's name, which is not looked for),
/// and with `implicit` `pg_catalog` first unless the path places it. A
/// schema made with `CREATE SCHEMA` exists when its row does.
pub(super) fn search_path_schemas(call: &Call, implicit: bool) -> Result<Vec<String>, String> {
    let path = settings(call)?
        .lock()
        .current_setting("search_path", true)
        .ok()
        .flatten()
        .unwrap_or_default();
    let mut schemas: Vec<String> = Vec::new();
    for name in path_items(&path) {
        let exists = NAMESPACES.iter().any(|(_, known)| *known == name)
            || (name != "$user" && schema_made(call, &name));
        if exists && !schemas.contains(&name) {
            schemas.push(name);
        }
    }
    if implicit && !schemas.iter().any(|s| s == "pg_catalog") {
        schemas.insert(0, "pg_catalog".to_owned());
    }
    Ok(schemas)
}

/// `current_schema()`: the first schema of the path that exists, NULL for none.
fn current_schema(call: &Call, _: &[Arg]) -> Out {
    match search_path_schemas(call, false) {
        Ok(schemas) => schemas
            .first()
            .map_or(Out::Null, |schema| Out::Text(schema.clone())),
        Err(message) => Out::Error(message),
    }
}

/// `current_schemas(include_implicit)`, as an array.
fn current_schemas(call: &Call, args: &[Arg]) -> Out {
    let implicit = truth(&args[0]).unwrap_or(false);
    match search_path_schemas(call, implicit) {
        Ok(schemas) => Out::Text(format!("{{{}}}", schemas.join(","))),
        Err(message) => Out::Error(message),
    }
}
