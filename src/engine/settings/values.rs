//! One session's settings: the values it set, with PostgreSQL's transaction
//! rules, over the server's defaults.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use super::parameters::{
    KNOWN, READ_ONLY, canonical, every, lookup, parse_duration, reference, unrecognized, validate,
};
use crate::error::{Error, ErrorKind};
use crate::sql::time_zone::Zone;

/// The server's defaults for settings, from its flags: shared by every session
/// (each HTTP request's too), rather than copied into each.
#[derive(Debug, Default)]
pub struct ServerDefaults {
    /// Canonical names with values that differ from the built-in defaults.
    values: Vec<(&'static str, String)>,
    timeouts: Timeouts,
}

impl ServerDefaults {
    pub fn new(values: Vec<(&'static str, String)>) -> Self {
        let mut defaults = ServerDefaults {
            values,
            timeouts: Timeouts::default(),
        };
        let timeout = |name: &str| parse_duration(defaults.get(name)?).filter(|d| !d.is_zero());
        defaults.timeouts = Timeouts {
            statement: timeout("statement_timeout"),
            lock: timeout("lock_timeout"),
            idle_in_transaction: timeout("idle_in_transaction_session_timeout"),
        };
        defaults
    }

    fn get(&self, canonical: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(name, _)| *name == canonical)
            .map(|(_, value)| value.as_str())
    }
}

#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Values that differ from the defaults, by canonical name.
    values: BTreeMap<String, String>,
    /// What `RESET` returns to: the values the client asked for at startup.
    startup: BTreeMap<String, String>,
    /// The values as they were when the current transaction began.
    at_begin: Option<BTreeMap<String, String>>,
    /// Names set with `SET LOCAL` in the current transaction, each with the
    /// value it goes back to at COMMIT: the session's, as it was then or as a
    /// later plain `SET` or `RESET` in the transaction made it (`None`: unset).
    local: BTreeMap<String, Option<String>>,
    /// Reported parameters whose value changed since the front end last asked.
    changed: Vec<String>,
    /// The time limits, parsed when they change rather than before every
    /// statement (all off by default, as their defaults are 0).
    timeouts: Timeouts,
    /// `extra_float_digits` when it is not PostgreSQL's default (1): read for
    /// every result, so parsed when it changes.
    float_digits: Option<i32>,
    /// `bytea_output = escape`: read for every result too.
    bytea_escape: bool,
    /// `TimeZone` when it is not UTC: every timestamptz shown or read without
    /// an offset needs it, so it is read when it changes.
    time_zone: Option<Zone>,
    /// The server's defaults, where they differ from PostgreSQL's.
    server: Option<Arc<ServerDefaults>>,
}

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Timeouts {
    statement: Option<Duration>,
    lock: Option<Duration>,
    idle_in_transaction: Option<Duration>,
}

impl Settings {
    /// Settings for a new session, with what the client sent at startup.
    pub fn new(startup: &[(String, String)]) -> Self {
        let mut settings = Settings::default();
        for (name, value) in startup {
            if let Some(known) = lookup(name) {
                // A zone is kept in the spelling `SHOW` gives; one that names
                // no zone is left out (the default holds).
                let value = match known.name {
                    "TimeZone" => match validate(known.name, value) {
                        Ok(value) => value,
                        Err(_) => continue,
                    },
                    _ => value.clone(),
                };
                settings.values.insert(known.name.to_owned(), value);
            }
        }
        settings.startup = settings.values.clone();
        settings.changed.clear();
        settings.refresh_derived();
        settings
    }

    /// Takes the server's defaults (from its flags) for what the client did not
    /// set at startup: `SHOW` shows them and `RESET` returns to them.
    pub fn with_server_defaults(mut self, defaults: &Arc<ServerDefaults>) -> Self {
        debug_assert!(defaults.values.iter().all(|(name, value)| {
            lookup(name).is_some_and(|k| k.name == *name && k.default != value.as_str())
        }));
        self.server = Some(defaults.clone());
        self.refresh_derived();
        self
    }

    /// The value a parameter has when nobody set it: the server's, else
    /// PostgreSQL's.
    fn default_of(&self, canonical: &str) -> Option<&str> {
        self.server
            .as_ref()
            .and_then(|server| server.get(canonical))
            .or_else(|| lookup(canonical).map(|k| k.default))
    }

    /// A time setting, by its canonical name (`statement_timeout`, ...), as a
    /// duration; `None` when it is 0 (off). Read before every statement.
    pub fn duration(&self, canonical: &str) -> Option<Duration> {
        match canonical {
            "statement_timeout" => self.timeouts.statement,
            "lock_timeout" => self.timeouts.lock,
            "idle_in_transaction_session_timeout" => self.timeouts.idle_in_transaction,
            _ => self.parse_duration(canonical),
        }
    }

    /// `extra_float_digits` as a number (-15 .. 3): how text output prints
    /// floats. Read at the start of every result.
    pub fn extra_float_digits(&self) -> i32 {
        self.float_digits.unwrap_or(1)
    }

    /// The session's time zone, `None` for UTC: where timestamptz values are
    /// shown and local times read.
    pub fn time_zone(&self) -> Option<&Zone> {
        self.time_zone.as_ref()
    }

    /// Whether a commit waits for the fsync that makes it durable
    /// (`synchronous_commit`, anything but `off`; see `group_commit`).
    pub fn synchronous_commit(&self) -> bool {
        self.values
            .get("synchronous_commit")
            .is_none_or(|value| value != "off")
    }

    /// Whether text output shows `bytea` in PostgreSQL's escape format
    /// (`bytea_output = escape`) rather than hex.
    pub fn bytea_escape(&self) -> bool {
        self.bytea_escape
    }

    fn parse_duration(&self, canonical: &str) -> Option<Duration> {
        let value = match self.values.get(canonical) {
            Some(value) => value.as_str(),
            None => self.default_of(canonical)?,
        };
        if value == "0" {
            return None;
        }
        parse_duration(value).filter(|d| !d.is_zero())
    }

    fn refresh_derived(&mut self) {
        let server = self
            .server
            .as_ref()
            .map(|server| server.timeouts)
            .unwrap_or_default();
        // A value set counts; else the server's default (PostgreSQL's are all 0,
        // off: a test checks).
        let timeout = |name: &str, default: Option<Duration>| match self.values.get(name) {
            Some(value) => parse_duration(value).filter(|d| !d.is_zero()),
            None => default,
        };
        self.float_digits = match self.values.get("extra_float_digits") {
            Some(value) => value.trim().parse::<i32>().ok().filter(|n| *n != 1),
            None => None,
        };
        // Read only when set (PostgreSQL's default is UTC), and again only
        // when it changed: every session's and HTTP request's settings start
        // here.
        let zone = match self.values.get("TimeZone") {
            Some(value) => Some(value.as_str()),
            None => self
                .server
                .as_ref()
                .and_then(|server| server.get("TimeZone")),
        };
        let unchanged = match (zone, &self.time_zone) {
            (Some(value), Some(current)) => current.name() == value,
            (None, None) => true,
            _ => false,
        };
        if !unchanged {
            self.time_zone = zone.and_then(Zone::setting).filter(|zone| !zone.is_utc());
        }
        self.bytea_escape = self
            .values
            .get("bytea_output")
            .is_some_and(|value| value.trim().eq_ignore_ascii_case("escape"));
        self.timeouts = Timeouts {
            statement: timeout("statement_timeout", server.statement),
            lock: timeout("lock_timeout", server.lock),
            idle_in_transaction: timeout(
                "idle_in_transaction_session_timeout",
                server.idle_in_transaction,
            ),
        };
    }

    /// The value `RESET` restores: the startup value, else the default.
    fn reset_value(&self, canonical: &str) -> String {
        match self.startup.get(canonical) {
            Some(value) => value.clone(),
            None => self.default_of(canonical).unwrap_or_default().to_owned(),
        }
    }

    /// The current value of `name` (any spelling), or 42704 for an unknown one
    /// (a custom `prefix.name` is known once set).
    pub fn get(&self, name: &str) -> Result<String, Error> {
        let canonical = canonical(name)?;
        if lookup(&canonical).is_none() && !self.values.contains_key(&canonical) {
            return Err(unrecognized(name));
        }
        Ok(self.value_of(&canonical))
    }

    fn value_of(&self, canonical: &str) -> String {
        match self.values.get(canonical) {
            Some(value) => value.clone(),
            None => self.default_of(canonical).unwrap_or_default().to_owned(),
        }
    }

    /// `SET [LOCAL] name = value`.
    pub fn set(
        &mut self,
        name: &str,
        value: &str,
        local: bool,
        in_transaction: bool,
    ) -> Result<(), Error> {
        let canonical = canonical(name)?;
        if !READ_ONLY.contains(&canonical.as_str())
            && let Some(parameter) = reference(&canonical)
        {
            parameter.settable()?;
        }
        if READ_ONLY.contains(&canonical.as_str()) {
            return Err(Error::new(
                ErrorKind::CantChangeRuntimeParam,
                format!("parameter \"{canonical}\" cannot be changed"),
            ));
        }
        let value = validate(&canonical, value)?;
        if local && !in_transaction {
            // PostgreSQL warns and ignores it: there is no transaction to scope it to.
            return Ok(());
        }
        if local {
            let session = self.values.get(&canonical).cloned();
            self.local.entry(canonical.clone()).or_insert(session);
        } else {
            // A session-level SET outlives the transaction, and a SET LOCAL
            // before it in the transaction with it.
            self.local.remove(&canonical);
        }
        self.assign(canonical, value);
        Ok(())
    }

    /// `set_config(name, value, is_local)`: `SET` as a function, in or out of
    /// the session's transaction; returns the value now in effect, which for
    /// `is_local` outside a transaction is the new one only for the statement.
    pub fn set_config(&mut self, name: &str, value: &str, local: bool) -> Result<String, Error> {
        let in_transaction = self.at_begin.is_some();
        self.set(name, value, local, in_transaction)?;
        match local && !in_transaction {
            true => validate(&canonical(name)?, value),
            false => self.get(name),
        }
    }

    /// `current_setting(name, missing_ok)`: the value, or `None` for an
    /// unknown name when `missing_ok`.
    pub fn current_setting(&self, name: &str, missing_ok: bool) -> Result<Option<String>, Error> {
        match self.get(name) {
            Ok(value) => Ok(Some(value)),
            Err(_) if missing_ok => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// `RESET name`: back to the session's startup value.
    pub fn reset(&mut self, name: &str) -> Result<(), Error> {
        let canonical = canonical(name)?;
        let value = self.reset_value(&canonical);
        self.local.remove(&canonical);
        self.assign(canonical, value);
        Ok(())
    }

    /// `RESET ALL` / `DISCARD ALL`.
    pub fn reset_all(&mut self) {
        let names: Vec<String> = self.values.keys().cloned().collect();
        self.local.clear();
        for name in names {
            if !READ_ONLY.contains(&name.as_str()) {
                let value = self.reset_value(&name);
                self.assign(name, value);
            }
        }
    }

    fn assign(&mut self, canonical: String, value: String) {
        if self.value_of(&canonical) != value
            && lookup(&canonical).is_some_and(|k| k.reported)
            && !self.changed.contains(&canonical)
        {
            self.changed.push(canonical.clone());
        }
        self.values.insert(canonical, value);
        self.refresh_derived();
    }

    /// Every parameter with its value and description, for `SHOW ALL` and
    /// `pg_settings`, in name order.
    pub fn all(&self) -> Vec<(String, String, &'static str)> {
        let mut out: Vec<(String, String, &'static str)> = every()
            .map(|k| (k.name.to_owned(), self.value_of(k.name), k.description))
            .collect();
        for (name, value) in &self.values {
            if lookup(name).is_none() {
                out.push((name.clone(), value.clone(), ""));
            }
        }
        out.sort_by_key(|(name, _, _)| name.to_ascii_lowercase());
        out
    }

    /// The reported parameters and their values, as sent at startup.
    pub fn reported(&self) -> Vec<(String, String)> {
        KNOWN
            .iter()
            .filter(|k| k.reported)
            .map(|k| (k.name.to_owned(), self.value_of(k.name)))
            .collect()
    }

    /// Reported parameters that changed since the last call, with their values.
    pub fn take_changes(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.changed)
            .into_iter()
            .map(|name| {
                let value = self.value_of(&name);
                (name, value)
            })
            .collect()
    }

    pub(in crate::engine) fn begin_transaction(&mut self) {
        self.at_begin = Some(self.values.clone());
        self.local.clear();
    }

    /// At COMMIT, `SET LOCAL` values end; at ROLLBACK every change in the
    /// transaction is undone.
    pub(in crate::engine) fn end_transaction(&mut self, committed: bool) {
        let Some(before) = self.at_begin.take() else {
            return;
        };
        let local = std::mem::take(&mut self.local);
        let undo: Vec<(String, Option<String>)> = if committed {
            local.into_iter().collect()
        } else {
            self.values
                .keys()
                .chain(before.keys())
                .map(|name| (name.clone(), before.get(name).cloned()))
                .collect()
        };
        for (name, value) in undo {
            let value =
                value.unwrap_or_else(|| self.default_of(&name).unwrap_or_default().to_owned());
            self.assign(name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_parameters_are_found_in_any_case() {
        for known in KNOWN {
            assert!(lookup(known.name).is_some_and(|k| k.name == known.name));
            assert!(lookup(&known.name.to_ascii_uppercase()).is_some());
        }
        assert!(lookup("no_such_parameter").is_none());
    }

    #[test]
    fn timeouts_are_off_by_default() {
        for name in [
            "statement_timeout",
            "lock_timeout",
            "idle_in_transaction_session_timeout",
        ] {
            assert_eq!(lookup(name).map(|k| k.default), Some("0"));
            assert_eq!(Settings::default().duration(name), None);
        }
    }

    #[test]
    fn set_show_reset() {
        let mut s = Settings::new(&[("application_name".into(), "psql".into())]);
        assert_eq!(s.get("APPLICATION_NAME").unwrap(), "psql");
        assert!(s.take_changes().is_empty());
        s.set("application_name", "app", false, false).unwrap();
        assert_eq!(s.get("application_name").unwrap(), "app");
        assert_eq!(
            s.take_changes(),
            vec![("application_name".to_owned(), "app".to_owned())]
        );
        s.reset("application_name").unwrap();
        assert_eq!(s.get("application_name").unwrap(), "psql");
        assert!(s.get("no_such_thing").is_err());
        assert!(s.set("server_version", "1", false, false).is_err());
        assert!(s.set("client_encoding", "latin1", false, false).is_err());
        assert!(s.get("myapp.tenant").is_err());
        assert_eq!(s.current_setting("myapp.tenant", true).unwrap(), None);
        s.set("myapp.tenant", "7", false, false).unwrap();
        assert_eq!(s.get("MyApp.Tenant").unwrap(), "7");
        assert_eq!(
            s.current_setting("myapp.tenant", true).unwrap().as_deref(),
            Some("7")
        );
    }

    #[test]
    fn timeouts_parse_as_postgresql_does() {
        assert_eq!(parse_duration("250"), Some(Duration::from_millis(250)));
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration(" 2 min"), Some(Duration::from_secs(120)));
        assert_eq!(parse_duration("0"), Some(Duration::ZERO));
        assert_eq!(
            parse_duration("2147483647"),
            Some(Duration::from_millis(2_147_483_647))
        );
        assert_eq!(parse_duration("2147483648"), None);
        assert_eq!(parse_duration("soon"), None);
        assert_eq!(parse_duration("-1"), None);
        assert_eq!(parse_duration("5 fortnights"), None);
        let defaults = Arc::new(ServerDefaults::new(vec![(
            "statement_timeout",
            "3000".to_owned(),
        )]));
        let mut s = Settings::default().with_server_defaults(&defaults);
        assert_eq!(
            s.duration("statement_timeout"),
            Some(Duration::from_secs(3))
        );
        s.set("statement_timeout", "1s", false, false).unwrap();
        assert_eq!(
            s.duration("statement_timeout"),
            Some(Duration::from_secs(1))
        );
        s.reset("statement_timeout").unwrap();
        assert_eq!(s.get("statement_timeout").unwrap(), "3000");
        s.set("statement_timeout", "0", false, false).unwrap();
        assert_eq!(s.duration("statement_timeout"), None);
        assert!(s.set("lock_timeout", "forever", false, false).is_err());
    }

    #[test]
    fn transactions_scope_settings() {
        let mut s = Settings::default();
        s.begin_transaction();
        s.set("search_path", "a", false, true).unwrap();
        s.end_transaction(false);
        assert_eq!(s.get("search_path").unwrap(), "\"$user\", public");

        s.begin_transaction();
        s.set("search_path", "b", false, true).unwrap();
        s.set("statement_timeout", "5s", true, true).unwrap();
        s.end_transaction(true);
        assert_eq!(s.get("search_path").unwrap(), "b");
        assert_eq!(s.get("statement_timeout").unwrap(), "0");

        // set_config: SET as a function, answering the value in effect.
        assert_eq!(s.set_config("jit", "on", false).unwrap(), "on");
        assert_eq!(s.get("jit").unwrap(), "on");
        assert_eq!(s.set_config("jit", "off", true).unwrap(), "off");
        assert_eq!(s.get("jit").unwrap(), "on");
        s.begin_transaction();
        assert_eq!(s.set_config("jit", "off", true).unwrap(), "off");
        assert_eq!(s.get("jit").unwrap(), "off");
        s.end_transaction(true);
        assert_eq!(s.get("jit").unwrap(), "on");
        assert!(s.set_config("server_version", "1", false).is_err());
    }
}
