//! Drizzle against a real litewire process: the node program
//! `tests/js/drizzle.cjs` pushes a schema with `drizzle-kit` (serial, varchar,
//! integer, boolean, timestamp, jsonb, a foreign key, indexes, a table in a
//! schema of its own: drizzle-kit reads the catalog with `DISTINCT ON`,
//! `LATERAL` and `generate_subscripts` over `pg_index`), pushes it again and
//! finds nothing to change, applies generated migrations with `migrate()`
//! (its own `drizzle` schema and journal table), then queries with joins,
//! `returning` and transactions through `drizzle-orm` on node-postgres. The
//! npm packages are pinned in `tests/js/package.json`. It passes against
//! PostgreSQL 15 too (`LITEWIRE_TEST_POSTGRES=... cargo test --test drizzle
//! -- --include-ignored`), in a database of its own there.

mod common;

use common::clients;
use common::target::Target;

against_litewire_and_postgres!(a_first_day_with_drizzle);

async fn a_first_day_with_drizzle(target: &Target) {
    let url = target.fresh_database_url("litewire_drizzle").await;
    let mut command = clients::node_program("drizzle.cjs");
    command.env("DATABASE_URL", url);
    clients::assert_passes(&mut command, "drizzle");
}
