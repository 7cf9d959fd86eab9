//! `--log-connections` and `--log-disconnections`: PostgreSQL's lines for a
//! connection received, authorized (who, to which database, with which
//! application) and ended (after how long), each with the session's pid.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pgwire::api::{ClientInfo, METADATA_DATABASE, METADATA_USER};

use crate::engine::ClientAddress;

/// What one connection logs.
pub(super) struct ConnectionLog {
    peer: ClientAddress,
    pid: i32,
    started: Instant,
    connections: bool,
    disconnections: bool,
    /// The client logged in (only such a session's end is logged).
    logged_in: AtomicBool,
}

impl ConnectionLog {
    /// A connection from `peer` served by the session `pid`; logged now if
    /// `connections` asks.
    pub(super) fn received(
        peer: ClientAddress,
        pid: i32,
        connections: bool,
        disconnections: bool,
    ) -> ConnectionLog {
        if connections {
            tracing::info!(
                target: "litewire::connections",
                pid,
                "connection received: {}",
                host_and_port(peer)
            );
        }
        ConnectionLog {
            peer,
            pid,
            started: Instant::now(),
            connections,
            disconnections,
            logged_in: AtomicBool::new(false),
        }
    }

    /// The client logged in (called once).
    pub(super) fn authorized(&self, client: &impl ClientInfo) {
        self.logged_in.store(true, Ordering::Relaxed);
        if !self.connections {
            return;
        }
        let (user, database) = who(client);
        let application = client
            .metadata()
            .get("application_name")
            .cloned()
            .unwrap_or_default();
        tracing::info!(
            target: "litewire::connections",
            pid = self.pid,
            "connection authorized: user={user} database={database} application_name={application}"
        );
    }

    /// The session ended.
    pub(super) fn ended(&self, client: &impl ClientInfo) {
        if !self.disconnections || !self.logged_in.load(Ordering::Relaxed) {
            return;
        }
        let (user, database) = who(client);
        tracing::info!(
            target: "litewire::connections",
            pid = self.pid,
            "disconnection: session time: {} user={user} database={database} {}",
            session_time(self.started.elapsed()),
            host_and_port(self.peer)
        );
    }
}

/// PostgreSQL's `host=... port=...`, or `host=[local]` for a Unix-domain socket.
fn host_and_port(peer: ClientAddress) -> String {
    match peer {
        ClientAddress::Tcp(address) => format!("host={} port={}", address.ip(), address.port()),
        ClientAddress::Local => "host=[local]".to_owned(),
    }
}

fn who(client: &impl ClientInfo) -> (String, String) {
    let metadata = client.metadata();
    let user = metadata.get(METADATA_USER).cloned().unwrap_or_default();
    let database = metadata
        .get(METADATA_DATABASE)
        .cloned()
        .unwrap_or_else(|| user.clone());
    (user, database)
}

/// `H:MM:SS.mmm`, as PostgreSQL prints a session's time.
fn session_time(time: Duration) -> String {
    let millis = time.as_millis();
    let (hours, rest) = (millis / 3_600_000, millis % 3_600_000);
    format!(
        "{hours}:{:02}:{:02}.{:03}",
        rest / 60_000,
        rest % 60_000 / 1000,
        rest % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_time_reads_as_postgres_prints_it() {
        assert_eq!(session_time(Duration::from_millis(1234)), "0:00:01.234");
        assert_eq!(
            session_time(Duration::from_millis(3_723_004)),
            "1:02:03.004"
        );
    }
}
