//! Prisma 7 against a real litewire process: the node program
//! `tests/js/prisma.cjs` creates the tables of `tests/js/prisma/schema.prisma`
//! with the SQL Prisma Migrate writes for them (Migrate's schema engine is a
//! binary this machine cannot download; the client needs none), then drives
//! the generated client over `@prisma/adapter-pg`: create, nested create,
//! findMany with include and where (an enum, an array's `has`, a relation's
//! `some`, a case-insensitive `contains`), update, updateMany, groupBy,
//! aggregates over a table in a schema of its own (decimal, bigint,
//! timestamptz), interactive and batch transactions, raw queries, and the
//! error codes of unique (P2002, with the index's name) and foreign-key
//! (P2003) violations. The npm packages are pinned in `tests/js/package.json`.
//! It passes against PostgreSQL 15 too (`LITEWIRE_TEST_POSTGRES=... cargo test
//! --test prisma -- --include-ignored`), in a database of its own there.

mod common;

use common::clients;
use common::target::Target;

against_litewire_and_postgres!(a_first_day_with_prisma);

async fn a_first_day_with_prisma(target: &Target) {
    let client = clients::prisma_client();
    let url = target.fresh_database_url("litewire_prisma").await;
    let mut command = clients::node_program("prisma.cjs");
    command
        .env("PRISMA_CLIENT", client)
        .env("DATABASE_URL", url);
    clients::assert_passes(&mut command, "prisma");
}
