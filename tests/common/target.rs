//! The server a behaviour is checked against: litewire (a fresh process, in one
//! cache mode), or, to calibrate a test, a real PostgreSQL whose libpq
//! connection string is in `LITEWIRE_TEST_POSTGRES`
//! (`host=127.0.0.1 port=55432 user=postgres dbname=calibration`). A test that
//! PostgreSQL 15 does not pass is wrong about PostgreSQL.

use super::TestServer;

pub enum Target {
    Litewire(TestServer),
    Postgres(String),
}

impl Target {
    pub fn litewire(cache: &str) -> Target {
        Target::Litewire(TestServer::start(cache, &[]))
    }

    pub fn postgres() -> Target {
        let conninfo = std::env::var("LITEWIRE_TEST_POSTGRES").expect(
            "LITEWIRE_TEST_POSTGRES names the PostgreSQL to calibrate against \
             (a libpq connection string)",
        );
        Target::Postgres(conninfo)
    }

    /// The libpq connection string of the server.
    pub fn conninfo(&self) -> String {
        match self {
            Target::Litewire(server) => format!(
                "host=127.0.0.1 port={} user=postgres dbname=litewire",
                server.pg.port()
            ),
            Target::Postgres(conninfo) => conninfo.clone(),
        }
    }

    /// What psql prints for `command` (a backslash command or a statement),
    /// which must succeed.
    pub fn psql(&self, command: &str) -> String {
        let mut psql = std::process::Command::new("psql");
        super::clients::without_pg_environment(&mut psql);
        let output = psql
            .args(["-X", "-d", &self.conninfo(), "-c", command])
            .output()
            .expect("run psql");
        assert!(
            output.status.success(),
            "{command}: {}",
            super::stderr(&output)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// The server as a `postgres://` URL (what ORMs take).
    pub fn url(&self) -> String {
        let conninfo = self.conninfo();
        let field = |key: &str| {
            conninfo
                .split_whitespace()
                .find_map(|pair| pair.strip_prefix(&format!("{key}=")))
                .unwrap_or_default()
                .to_owned()
        };
        format!(
            "postgres://{}@{}:{}/{}",
            field("user"),
            field("host"),
            field("port"),
            field("dbname")
        )
    }

    /// The URL of a database of its own for a test whose tool reads the whole
    /// database: on PostgreSQL `dbname`, made anew; litewire, which starts on
    /// a new file, as it is.
    pub async fn fresh_database_url(&self, dbname: &str) -> String {
        let url = self.url();
        if self.is_litewire() {
            return url;
        }
        let client = self.connect().await;
        for statement in [
            format!("DROP DATABASE IF EXISTS {dbname}"),
            format!("CREATE DATABASE {dbname}"),
        ] {
            client
                .batch_execute(&statement)
                .await
                .unwrap_or_else(|e| panic!("{statement}: {e}"));
        }
        match url.rsplit_once('/') {
            Some((server, _)) => format!("{server}/{dbname}"),
            None => url,
        }
    }

    /// A connected tokio-postgres client; its connection task runs in the background.
    pub async fn connect(&self) -> tokio_postgres::Client {
        let (client, connection) = tokio_postgres::connect(&self.conninfo(), tokio_postgres::NoTls)
            .await
            .expect("connect with tokio-postgres");
        tokio::spawn(async move {
            let _ = connection.await;
        });
        client
    }

    pub fn is_litewire(&self) -> bool {
        matches!(self, Target::Litewire(_))
    }
}

/// Runs each named `async fn(target: &Target)` against litewire in both cache
/// modes, and, ignored unless asked for (`cargo test -- --ignored` with
/// `LITEWIRE_TEST_POSTGRES` set), against a real PostgreSQL.
#[macro_export]
macro_rules! against_litewire_and_postgres {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn shared() {
                    super::$name(&$crate::common::target::Target::litewire("shared")).await
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn private() {
                    super::$name(&$crate::common::target::Target::litewire("private")).await
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[ignore = "calibration: needs LITEWIRE_TEST_POSTGRES"]
                async fn postgres() {
                    super::$name(&$crate::common::target::Target::postgres()).await
                }
            }
        )*
    };
}
