//! `SET`, `SHOW`, `RESET`, `DISCARD` and `DEALLOCATE`: session
//! commands that never reach SQLite, answered from the session's [`Settings`]
//! with PostgreSQL's rules (a `SET` inside a transaction is undone by its rollback,
//! `SET LOCAL` lasts until its end).

use super::QueryResult;
use super::settings::Settings;
use crate::error::{Error, ErrorKind};
use crate::sql::{CommandKind, SessionCommand};

/// `SET`, `SHOW`, `RESET`, `DISCARD`: answered from the
/// session's settings.
pub(super) fn run(
    settings: &mut Settings,
    in_transaction: bool,
    command: &SessionCommand,
    kind: CommandKind,
) -> Result<QueryResult, Error> {
    match command {
        SessionCommand::Set {
            name,
            value: Some(value),
            local,
        } => settings.set(name, value, *local, in_transaction)?,
        SessionCommand::Set {
            name, value: None, ..
        }
        | SessionCommand::Reset(Some(name)) => settings.reset(name)?,
        SessionCommand::Reset(None) => settings.reset_all(),
        // The session applies these to its transaction before they get here.
        SessionCommand::SetTransaction(_)
        | SessionCommand::SetSessionCharacteristics(_)
        | SessionCommand::SetConstraints
        | SessionCommand::DiscardNothing
        | SessionCommand::Deallocate(_) => {}
        SessionCommand::DiscardAll if in_transaction => {
            return Err(Error::new(
                ErrorKind::ActiveTransaction,
                "DISCARD ALL cannot run inside a transaction block",
            ));
        }
        SessionCommand::DiscardAll => settings.reset_all(),
        SessionCommand::Show(Some(name)) => {
            let value = settings.get(name)?;
            let column = canonical_show_name(name);
            return Ok(QueryResult::text(kind, &[&column], vec![vec![value]]));
        }
        SessionCommand::Show(None) => {
            let rows = settings
                .all()
                .into_iter()
                .map(|(name, value, description)| vec![name, value, description.to_owned()])
                .collect();
            return Ok(QueryResult::text(
                kind,
                &["name", "setting", "description"],
                rows,
            ));
        }
    }
    Ok(QueryResult::empty(kind))
}

/// The column name PostgreSQL gives `SHOW x`: the parameter's own spelling.
fn canonical_show_name(name: &str) -> String {
    match Settings::default()
        .all()
        .into_iter()
        .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
    {
        Some((canonical, _, _)) => canonical,
        None => name.to_ascii_lowercase(),
    }
}
