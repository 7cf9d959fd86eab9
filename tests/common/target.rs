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
