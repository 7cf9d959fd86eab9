//! Schemas: `CREATE SCHEMA`, `DROP SCHEMA`, `ALTER SCHEMA ... RENAME`, names
//! qualified with a schema (quoted or not) wherever a relation, sequence or
//! index is named, transactions across schemas, and the catalog as psql,
//! drivers and ORMs read it (`pg_namespace`, `information_schema`, `\dn`,
//! `\d s.t`, `regclass`, `pg_get_serial_sequence`). Every test passes against
//! PostgreSQL 15 too (`LITEWIRE_TEST_POSTGRES=... cargo test --test schemas
//! -- --include-ignored`).

mod common;

use common::target::Target;
use common::{sqlstate, text_rows};
use tokio_postgres::Client;

against_litewire_and_postgres!(
    qualified_names_reach_a_schemas_objects,
    schemas_are_created_renamed_and_dropped,
    the_catalog_names_each_objects_schema,
    the_search_path_finds_and_creates_unqualified_names,
    introspection_reads_columns_as_schema_tools_do,
    ownership_grants_comments_and_matviews_take_qualified_names,
    types_live_in_schemas,
    a_renamed_schema_takes_all_it_holds,
    functions_live_in_schemas,
);

async fn rows(client: &Client, sql: &str) -> Vec<Vec<Option<String>>> {
    text_rows(client, sql).await
}

fn row(values: &[&str]) -> Vec<Option<String>> {
    values.iter().map(|v| Some((*v).to_owned())).collect()
}

/// One row's values, NULL as `None`.
fn cells(values: &[Option<&str>]) -> Vec<Option<String>> {
    values.iter().map(|v| v.map(str::to_owned)).collect()
}

async fn code_of(client: &Client, sql: &str) -> String {
    sqlstate(client, sql).await
}

async fn qualified_names_reach_a_schemas_objects(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP SCHEMA IF EXISTS inventory CASCADE; DROP TABLE IF EXISTS items;
             CREATE SCHEMA inventory;
             CREATE TABLE inventory.items (id serial PRIMARY KEY, name text NOT NULL UNIQUE, qty int);
             CREATE TABLE \"inventory\".\"moves\" (id bigserial PRIMARY KEY,
                 item_id int NOT NULL REFERENCES \"inventory\".\"items\" (id), delta int);
             CREATE INDEX moves_item_idx ON inventory.moves (item_id);
             CREATE VIEW inventory.stock AS SELECT name, qty FROM inventory.items;
             CREATE TABLE items (id int, label text);
             INSERT INTO items VALUES (1, 'public one');",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "INSERT INTO inventory.items (name, qty) VALUES ('bolt', 5), ('nut', 7) RETURNING items.id, name"
        )
        .await,
        [row(&["1", "bolt"]), row(&["2", "nut"])]
    );
    // The relation's own name, and the three-part name, read its columns.
    assert_eq!(
        rows(
            &client,
            "SELECT items.name, inventory.items.qty FROM inventory.items WHERE items.id = 2"
        )
        .await,
        [row(&["nut", "7"])]
    );
    assert_eq!(
        rows(
            &client,
            "UPDATE inventory.items SET qty = qty + 1 WHERE name = 'bolt' RETURNING items.qty"
        )
        .await,
        [row(&["6"])]
    );
    client
        .batch_execute(
            "INSERT INTO inventory.moves (item_id, delta) VALUES (1, 1), (2, -3), (2, 4)",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT i.name, sum(m.delta)::int FROM inventory.items i \
             JOIN \"inventory\".moves m ON m.item_id = i.id GROUP BY i.name ORDER BY i.name"
        )
        .await,
        [row(&["bolt", "1"]), row(&["nut", "1"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT name, qty FROM inventory.stock ORDER BY name"
        )
        .await,
        [row(&["bolt", "6"]), row(&["nut", "7"])]
    );
    // The foreign key holds across the qualified name.
    assert_eq!(
        code_of(
            &client,
            "INSERT INTO inventory.moves (item_id, delta) VALUES (99, 1)"
        )
        .await,
        "23503"
    );
    // `public.items` is another table.
    assert_eq!(
        rows(&client, "SELECT id, label FROM items").await,
        [row(&["1", "public one"])]
    );
    assert_eq!(
        rows(&client, "SELECT label FROM public.items").await,
        [row(&["public one"])]
    );
    // One transaction across schemas: rolled back together.
    client
        .batch_execute(
            "BEGIN; INSERT INTO inventory.items (name) VALUES ('washer');
             INSERT INTO items VALUES (2, 'gone'); ROLLBACK;",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT (SELECT count(*) FROM inventory.items), (SELECT count(*) FROM public.items)"
        )
        .await,
        [row(&["2", "1"])]
    );
    assert_eq!(
        rows(
            &client,
            "DELETE FROM inventory.moves WHERE delta < 0 RETURNING moves.delta"
        )
        .await,
        [row(&["-3"])]
    );
    // A schema that does not exist is no table's.
    assert_eq!(
        code_of(&client, "SELECT * FROM nowhere.items").await,
        "42P01"
    );
    assert_eq!(
        code_of(&client, "CREATE TABLE nowhere.t (id int)").await,
        "3F000"
    );
    client
        .batch_execute("DROP SCHEMA inventory CASCADE; DROP TABLE items")
        .await
        .unwrap();
}

async fn schemas_are_created_renamed_and_dropped(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP SCHEMA IF EXISTS ledger CASCADE; DROP SCHEMA IF EXISTS books CASCADE;
             CREATE SCHEMA ledger",
        )
        .await
        .unwrap();
    assert_eq!(code_of(&client, "CREATE SCHEMA ledger").await, "42P06");
    assert_eq!(code_of(&client, "CREATE SCHEMA public").await, "42P06");
    assert_eq!(code_of(&client, "CREATE SCHEMA pg_mine").await, "42939");
    client
        .batch_execute("CREATE SCHEMA IF NOT EXISTS ledger")
        .await
        .unwrap();
    client
        .batch_execute("CREATE TABLE ledger.entries (id int PRIMARY KEY, amount int)")
        .await
        .unwrap();
    // RESTRICT (the default) refuses a schema that holds anything.
    assert_eq!(code_of(&client, "DROP SCHEMA ledger").await, "2BP01");
    assert_eq!(
        code_of(&client, "DROP SCHEMA ledger RESTRICT").await,
        "2BP01"
    );
    assert_eq!(code_of(&client, "DROP SCHEMA nowhere").await, "3F000");
    client
        .batch_execute("DROP SCHEMA IF EXISTS nowhere")
        .await
        .unwrap();
    // A schema made in a transaction rolled back is not there.
    client
        .batch_execute("BEGIN; CREATE SCHEMA fleeting; ROLLBACK")
        .await
        .unwrap();
    assert_eq!(code_of(&client, "DROP SCHEMA fleeting").await, "3F000");
    // Renamed, its tables go with it.
    client
        .batch_execute(
            "INSERT INTO ledger.entries VALUES (1, 10); ALTER SCHEMA ledger RENAME TO books",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT id, amount FROM books.entries").await,
        [row(&["1", "10"])]
    );
    assert_eq!(
        code_of(&client, "SELECT * FROM ledger.entries").await,
        "42P01"
    );
    // CASCADE drops what it holds.
    client
        .batch_execute(
            "CREATE TABLE books.lines (entry_id int REFERENCES books.entries (id));
             INSERT INTO books.lines VALUES (1);
             CREATE SEQUENCE books.numbers;
             CREATE VIEW books.totals AS SELECT sum(amount) AS total FROM books.entries;
             DROP SCHEMA books CASCADE;",
        )
        .await
        .unwrap();
    for relation in ["books.entries", "books.lines", "books.totals"] {
        assert_eq!(
            code_of(&client, &format!("SELECT * FROM {relation}")).await,
            "42P01",
            "{relation}"
        );
    }
    assert_eq!(
        code_of(&client, "SELECT nextval('books.numbers')").await,
        "3F000"
    );
    assert_eq!(
        rows(
            &client,
            "SELECT count(*) FROM pg_namespace WHERE nspname IN ('ledger', 'books')"
        )
        .await,
        [row(&["0"])]
    );
}

async fn the_catalog_names_each_objects_schema(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP SCHEMA IF EXISTS shop CASCADE;
             CREATE SCHEMA shop;
             CREATE TABLE shop.orders (id serial PRIMARY KEY, ref text UNIQUE, total int);
             CREATE TABLE shop.lines (order_id int REFERENCES shop.orders (id), qty int);
             CREATE INDEX lines_order_idx ON shop.lines (order_id);
             CREATE VIEW shop.big AS SELECT id FROM shop.orders WHERE total > 100;",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT schema_name FROM information_schema.schemata WHERE schema_name = 'shop'"
        )
        .await,
        [row(&["shop"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT table_schema, table_name, table_type FROM information_schema.tables \
             WHERE table_schema = 'shop' ORDER BY table_name"
        )
        .await,
        [
            row(&["shop", "big", "VIEW"]),
            row(&["shop", "lines", "BASE TABLE"]),
            row(&["shop", "orders", "BASE TABLE"]),
        ]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT table_name, column_name FROM information_schema.columns \
             WHERE table_schema = 'shop' AND table_name = 'orders' ORDER BY ordinal_position"
        )
        .await,
        [
            row(&["orders", "id"]),
            row(&["orders", "ref"]),
            row(&["orders", "total"]),
        ]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = 'shop' ORDER BY c.relname"
        )
        .await,
        [
            row(&["big", "v"]),
            row(&["lines", "r"]),
            row(&["lines_order_idx", "i"]),
            row(&["orders", "r"]),
            row(&["orders_id_seq", "S"]),
            row(&["orders_pkey", "i"]),
            row(&["orders_ref_key", "i"]),
        ]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT schemaname, tablename, indexname FROM pg_indexes \
             WHERE schemaname = 'shop' ORDER BY indexname"
        )
        .await,
        [
            row(&["shop", "lines", "lines_order_idx"]),
            row(&["shop", "orders", "orders_pkey"]),
            row(&["shop", "orders", "orders_ref_key"]),
        ]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT constraint_name, constraint_type FROM information_schema.table_constraints \
             WHERE table_schema = 'shop' AND constraint_type <> 'CHECK' ORDER BY constraint_name"
        )
        .await,
        [
            row(&["lines_order_id_fkey", "FOREIGN KEY"]),
            row(&["orders_pkey", "PRIMARY KEY"]),
            row(&["orders_ref_key", "UNIQUE"]),
        ]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT schemaname, sequencename FROM pg_sequences WHERE schemaname = 'shop'"
        )
        .await,
        [row(&["shop", "orders_id_seq"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT pg_get_serial_sequence('shop.orders', 'id'), nextval('shop.orders_id_seq'), \
             'shop.orders'::regclass::oid = (SELECT c.oid FROM pg_class c JOIN pg_namespace n \
             ON n.oid = c.relnamespace WHERE n.nspname = 'shop' AND c.relname = 'orders'), \
             to_regclass('shop.nothing') IS NULL"
        )
        .await,
        [row(&["shop.orders_id_seq", "1", "t", "t"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'lines_order_id_fkey'"
        )
        .await,
        [row(&["FOREIGN KEY (order_id) REFERENCES shop.orders(id)"])]
    );
    // psql's \dn and \d read the same catalog.
    let psql = |command: &str| target.psql(command);
    assert!(psql("\\dn").contains(" shop "), "\\dn lists the schema");
    let described = psql("\\d shop.orders");
    for line in [
        "Table \"shop.orders\"",
        "nextval('shop.orders_id_seq'::regclass)",
        "\"orders_pkey\" PRIMARY KEY, btree (id)",
        "TABLE \"shop.lines\" CONSTRAINT \"lines_order_id_fkey\" FOREIGN KEY (order_id) REFERENCES shop.orders(id)",
    ] {
        assert!(
            described.contains(line),
            "\\d shop.orders shows {line}:\n{described}"
        );
    }
    let tables = psql("\\dt shop.*");
    assert!(
        tables.contains(" shop   | lines  | table") && tables.contains(" shop   | orders | table"),
        "\\dt shop.*:\n{tables}"
    );
    client
        .batch_execute("DROP SCHEMA shop CASCADE")
        .await
        .unwrap();
}

async fn the_search_path_finds_and_creates_unqualified_names(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP SCHEMA IF EXISTS tenant CASCADE; DROP TABLE IF EXISTS notes;
             CREATE SCHEMA tenant;
             CREATE TABLE notes (id int, body text);
             INSERT INTO notes VALUES (1, 'public');",
        )
        .await
        .unwrap();
    client
        .batch_execute("SET search_path TO tenant, public")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT current_schema(), current_schemas(false)::text"
        )
        .await,
        [row(&["tenant", "{tenant,public}"])]
    );
    // Made in the path's first schema, and found there first.
    client
        .batch_execute(
            "CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL);
             CREATE INDEX notes_body_idx ON notes (body);
             INSERT INTO notes (body) VALUES ('tenant');",
        )
        .await
        .unwrap();
    let read = "SELECT notes.id, body FROM notes ORDER BY id";
    assert_eq!(rows(&client, read).await, [row(&["1", "tenant"])]);
    // A statement with literals, sent alone (read once for every statement
    // of its shape), finds its names on the path too.
    for change in [
        "INSERT INTO notes (body) VALUES ('second')",
        "UPDATE notes SET body = 'again' WHERE id = 2",
    ] {
        client.batch_execute(change).await.unwrap();
    }
    assert_eq!(
        rows(&client, "SELECT body FROM notes WHERE id = 2").await,
        [row(&["again"])]
    );
    client
        .batch_execute("DELETE FROM notes WHERE id = 2")
        .await
        .unwrap();
    assert_eq!(rows(&client, read).await, [row(&["1", "tenant"])]);
    // The extended protocol reads the same text the same way on this path
    // and, after SET, on the next one.
    let prepared: Vec<(i32, String)> = client
        .query(read, &[])
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(prepared, [(1, "tenant".to_owned())]);
    assert_eq!(
        rows(
            &client,
            "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE c.relname = 'notes_body_idx'"
        )
        .await,
        [row(&["tenant"])]
    );
    // psql's visibility: the public table of that name is hidden.
    assert_eq!(
        rows(
            &client,
            "SELECT n.nspname, pg_table_is_visible(c.oid) FROM pg_class c \
             JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'notes' ORDER BY 1"
        )
        .await,
        [row(&["public", "f"]), row(&["tenant", "t"])]
    );
    assert_eq!(
        rows(&client, "SELECT body FROM public.notes").await,
        [row(&["public"])]
    );
    let kept = client.prepare(read).await.unwrap();
    client
        .batch_execute("SET search_path TO public")
        .await
        .unwrap();
    assert_eq!(rows(&client, read).await, [row(&["1", "public"])]);
    // A statement prepared before finds its names again on the new path.
    let bodies: Vec<String> = client
        .query(&kept, &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(1))
        .collect();
    assert_eq!(bodies, ["public"]);
    let prepared: Vec<String> = client
        .query("SELECT body FROM notes", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(prepared, ["public"]);
    // Another session, on the default path, reads public's.
    let other = target.connect().await;
    assert_eq!(
        rows(&other, "SELECT body FROM notes").await,
        [row(&["public"])]
    );
    client
        .batch_execute("DROP SCHEMA tenant CASCADE; DROP TABLE notes")
        .await
        .unwrap();
}

/// What a schema tool (drizzle-kit) asks first of every table: whether a
/// default exists (`EXISTS (SELECT FROM ...)`, a subquery of no columns),
/// and `information_schema.columns` with every column PostgreSQL 15 has.
async fn introspection_reads_columns_as_schema_tools_do(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP SCHEMA IF EXISTS intro CASCADE; CREATE SCHEMA intro;
             CREATE TABLE intro.parts (
                 id int GENERATED BY DEFAULT AS IDENTITY (START WITH 10 INCREMENT BY 5),
                 code varchar(12) NOT NULL,
                 price numeric(8, 2) DEFAULT 0,
                 made timestamp(3),
                 doubled int GENERATED ALWAYS AS (id * 2) STORED);",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT a.attname, EXISTS (SELECT FROM pg_attrdef d WHERE d.adrelid = a.attrelid \
             AND d.adnum = a.attnum) FROM pg_attribute a WHERE a.attrelid = 'intro.parts'::regclass \
             AND a.attnum > 0 ORDER BY a.attnum"
        )
        .await,
        [
            row(&["id", "f"]),
            row(&["code", "f"]),
            row(&["price", "t"]),
            row(&["made", "f"]),
            row(&["doubled", "t"]),
        ]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT column_name, data_type, column_default, character_maximum_length, \
             numeric_precision, numeric_scale, datetime_precision, udt_schema, udt_name, \
             is_identity, identity_generation, identity_start, identity_increment, \
             is_generated, is_updatable, dtd_identifier \
             FROM information_schema.columns WHERE table_schema = 'intro' ORDER BY ordinal_position"
        )
        .await,
        [
            cells(&[
                Some("id"),
                Some("integer"),
                None,
                None,
                Some("32"),
                Some("0"),
                None,
                Some("pg_catalog"),
                Some("int4"),
                Some("YES"),
                Some("BY DEFAULT"),
                Some("10"),
                Some("5"),
                Some("NEVER"),
                Some("YES"),
                Some("1")
            ]),
            cells(&[
                Some("code"),
                Some("character varying"),
                None,
                Some("12"),
                None,
                None,
                None,
                Some("pg_catalog"),
                Some("varchar"),
                Some("NO"),
                None,
                None,
                None,
                Some("NEVER"),
                Some("YES"),
                Some("2")
            ]),
            cells(&[
                Some("price"),
                Some("numeric"),
                Some("0"),
                None,
                Some("8"),
                Some("2"),
                None,
                Some("pg_catalog"),
                Some("numeric"),
                Some("NO"),
                None,
                None,
                None,
                Some("NEVER"),
                Some("YES"),
                Some("3")
            ]),
            cells(&[
                Some("made"),
                Some("timestamp without time zone"),
                None,
                None,
                None,
                None,
                Some("3"),
                Some("pg_catalog"),
                Some("timestamp"),
                Some("NO"),
                None,
                None,
                None,
                Some("NEVER"),
                Some("YES"),
                Some("4")
            ]),
            cells(&[
                Some("doubled"),
                Some("integer"),
                None,
                None,
                Some("32"),
                Some("0"),
                None,
                Some("pg_catalog"),
                Some("int4"),
                Some("NO"),
                None,
                None,
                None,
                Some("ALWAYS"),
                Some("YES"),
                Some("5")
            ]),
        ]
    );
    // How drizzle-kit tells a serial column: its default calls the sequence
    // `pg_get_serial_sequence` names, as `regclass` shows that name.
    client
        .batch_execute(
            "CREATE TABLE intro.tags (id serial PRIMARY KEY, big bigserial, label text);
             CREATE INDEX tags_label_idx ON intro.tags (label, id);",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT a.attname, CASE WHEN a.atttypid = ANY ('{int,int8,int2}'::regtype[]) \
             AND EXISTS (SELECT FROM pg_attrdef ad WHERE ad.adrelid = a.attrelid AND ad.adnum = a.attnum \
             AND pg_get_expr(ad.adbin, ad.adrelid) = 'nextval(''' \
             || pg_get_serial_sequence(a.attrelid::regclass::text, a.attname)::regclass || '''::regclass)') \
             THEN CASE a.atttypid WHEN 'int'::regtype THEN 'serial' WHEN 'int8'::regtype THEN 'bigserial' END \
             ELSE format_type(a.atttypid, a.atttypmod) END \
             FROM pg_attribute a WHERE a.attrelid = 'intro.tags'::regclass AND a.attnum > 0 ORDER BY a.attnum"
        )
        .await,
        [
            row(&["id", "serial"]),
            row(&["big", "bigserial"]),
            row(&["label", "text"]),
        ]
    );
    // Each index column's operator class is its type's default.
    assert_eq!(
        rows(
            &client,
            "SELECT opc.opcname FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid \
             JOIN pg_opclass opc ON opc.oid = ANY (i.indclass) \
             WHERE ic.relname = 'tags_label_idx' ORDER BY 1"
        )
        .await,
        [row(&["int4_ops"]), row(&["text_ops"])]
    );
    // ActiveRecord's readings: a boolean compared with its text, a vector's
    // subscripts from 0.
    assert_eq!(
        rows(
            &client,
            "SELECT ic.relname FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid \
             WHERE i.indrelid = 'intro.tags'::regclass AND i.indisprimary = 'f'"
        )
        .await,
        [row(&["tags_label_idx"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT a.attname, i.idx FROM (SELECT indrelid, indkey, generate_subscripts(indkey, 1) idx \
             FROM pg_index WHERE indrelid = 'intro.tags'::regclass AND indisprimary) i \
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[i.idx] ORDER BY i.idx"
        )
        .await,
        [row(&["id", "0"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT schemaname, relname, indexrelname FROM pg_stat_user_indexes \
             WHERE schemaname = 'intro' ORDER BY indexrelname"
        )
        .await,
        [
            row(&["intro", "tags", "tags_label_idx"]),
            row(&["intro", "tags", "tags_pkey"]),
        ]
    );
    // `serial` is no type a column can be changed to.
    assert_eq!(
        code_of(
            &client,
            "ALTER TABLE intro.parts ALTER COLUMN doubled SET DATA TYPE serial"
        )
        .await,
        "42704"
    );
    client
        .batch_execute("DROP SCHEMA intro CASCADE")
        .await
        .unwrap();
}

async fn ownership_grants_comments_and_matviews_take_qualified_names(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP SCHEMA IF EXISTS reports CASCADE; CREATE SCHEMA reports;
             CREATE TABLE reports.sales (id int PRIMARY KEY, amount int);
             INSERT INTO reports.sales VALUES (1, 10), (2, 20);
             ALTER TABLE reports.sales OWNER TO postgres;
             ALTER SCHEMA reports OWNER TO postgres;
             GRANT SELECT ON reports.sales TO PUBLIC;
             GRANT USAGE ON SCHEMA reports TO PUBLIC;
             COMMENT ON TABLE reports.sales IS 'what was sold';
             COMMENT ON COLUMN reports.sales.amount IS 'in cents';
             CREATE MATERIALIZED VIEW reports.totals AS SELECT sum(amount)::int AS total FROM reports.sales;",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT obj_description('reports.sales'::regclass, 'pg_class'), \
             col_description('reports.sales'::regclass, 2)"
        )
        .await,
        [row(&["what was sold", "in cents"])]
    );
    client
        .batch_execute(
            "INSERT INTO reports.sales VALUES (3, 5); REFRESH MATERIALIZED VIEW reports.totals",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT total FROM reports.totals").await,
        [row(&["35"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT schemaname, matviewname FROM pg_matviews WHERE schemaname = 'reports'"
        )
        .await,
        [row(&["reports", "totals"])]
    );
    assert_eq!(
        code_of(&client, "ALTER TABLE nowhere.sales OWNER TO postgres").await,
        "3F000"
    );
    assert_eq!(
        code_of(&client, "GRANT USAGE ON SCHEMA nowhere TO PUBLIC").await,
        "3F000"
    );
    client
        .batch_execute("DROP MATERIALIZED VIEW reports.totals; DROP SCHEMA reports CASCADE")
        .await
        .unwrap();
}

/// Enum types and domains made in a schema: their columns hold to them,
/// casts name them, the catalog places them in their schema, the search path
/// finds them, and the schema's CASCADE drops them.
async fn types_live_in_schemas(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP SCHEMA IF EXISTS shop CASCADE;
             CREATE SCHEMA shop;
             CREATE TYPE shop.status AS ENUM ('open', 'paid');
             CREATE DOMAIN shop.cents AS int CHECK (VALUE >= 0);
             CREATE TABLE shop.orders (id int PRIMARY KEY, status shop.status, total shop.cents);
             INSERT INTO shop.orders VALUES (1, 'open', 250);",
        )
        .await
        .unwrap();
    assert_eq!(
        code_of(&client, "INSERT INTO shop.orders VALUES (2, 'lost', 1)").await,
        "22P02"
    );
    let refused = client
        .batch_execute("INSERT INTO shop.orders VALUES (2, 'paid', -1)")
        .await
        .unwrap_err();
    let refused = refused.as_db_error().expect("a database error");
    assert_eq!(refused.code().code(), "23514");
    assert_eq!(
        refused.message(),
        "value for domain shop.cents violates check constraint \"cents_check\""
    );
    assert_eq!(
        rows(
            &client,
            "SELECT 'paid'::shop.status, 5::shop.cents, status, total FROM shop.orders"
        )
        .await,
        [row(&["paid", "5", "open", "250"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT t.typname, n.nspname, t.typtype FROM pg_type t \
             JOIN pg_namespace n ON n.oid = t.typnamespace \
             WHERE t.typname IN ('status', 'cents') ORDER BY 1"
        )
        .await,
        [row(&["cents", "shop", "d"]), row(&["status", "shop", "e"])]
    );
    // Unqualified, on the path.
    client
        .batch_execute(
            "SET search_path = shop, public;
             CREATE TABLE refunds (id int, status status, amount cents);",
        )
        .await
        .unwrap();
    let stated = client.simple_query("SELECT 'paid'::status").await.unwrap();
    let tokio_postgres::SimpleQueryMessage::Row(first) = &stated[1] else {
        panic!("a row: {stated:?}");
    };
    assert_eq!(first.columns()[0].name(), "status");
    assert_eq!(
        code_of(&client, "INSERT INTO refunds VALUES (1, 'paid', -5)").await,
        "23514"
    );
    client.batch_execute("RESET search_path").await.unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute \
             WHERE attrelid = 'shop.refunds'::regclass AND attnum > 0 ORDER BY attnum"
        )
        .await,
        [
            row(&["integer"]),
            row(&["shop.status"]),
            row(&["shop.cents"])
        ]
    );
    client
        .batch_execute("DROP SCHEMA shop CASCADE")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT count(*) FROM pg_type WHERE typname IN ('status', 'cents')"
        )
        .await,
        [row(&["0"])]
    );
}

/// `ALTER SCHEMA ... RENAME TO` moves every object the schema holds (tables,
/// indexes, sequences and the defaults that use them, views, a materialized
/// view, enum types, domains, comments) and every reference to them, from
/// its own objects and from `public`'s.
async fn a_renamed_schema_takes_all_it_holds(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP SCHEMA IF EXISTS depot CASCADE; DROP SCHEMA IF EXISTS store CASCADE;
             DROP VIEW IF EXISTS crate_count; DROP TABLE IF EXISTS shipments;
             CREATE SCHEMA depot;
             CREATE TYPE depot.state AS ENUM ('full', 'empty');
             CREATE DOMAIN depot.weight AS int CHECK (VALUE > 0);
             CREATE TABLE depot.crates (id serial PRIMARY KEY, label text UNIQUE,
                 state depot.state, kg depot.weight);
             CREATE INDEX crates_label_idx ON depot.crates (lower(label));
             CREATE SEQUENCE depot.tickets START 7;
             CREATE VIEW depot.full_crates AS SELECT id, label FROM depot.crates WHERE state = 'full';
             CREATE MATERIALIZED VIEW depot.labels AS SELECT label FROM depot.crates;
             CREATE TABLE shipments (id int PRIMARY KEY, crate int REFERENCES depot.crates (id));
             CREATE VIEW crate_count AS SELECT count(*) AS n FROM depot.crates;
             COMMENT ON TABLE depot.crates IS 'what we hold';
             INSERT INTO depot.crates (label, state, kg) VALUES ('a', 'full', 5), ('b', 'empty', 2);
             INSERT INTO shipments VALUES (1, 2);",
        )
        .await
        .unwrap();
    assert_eq!(
        code_of(&client, "ALTER SCHEMA depot RENAME TO public").await,
        "42P06"
    );
    client
        .batch_execute("ALTER SCHEMA depot RENAME TO store")
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT id, label FROM store.full_crates").await,
        [row(&["1", "a"])]
    );
    assert_eq!(
        rows(&client, "SELECT n FROM crate_count").await,
        [row(&["2"])]
    );
    assert_eq!(
        rows(&client, "SELECT nextval('store.tickets')").await,
        [row(&["7"])]
    );
    assert_eq!(
        rows(
            &client,
            "INSERT INTO store.crates (label, state, kg) VALUES ('c', 'full', 1) RETURNING id, state"
        )
        .await,
        [row(&["3", "full"])]
    );
    for (sql, code) in [
        (
            "INSERT INTO store.crates (label, state) VALUES ('d', 'lost')",
            "22P02",
        ),
        (
            "INSERT INTO store.crates (label, kg) VALUES ('d', 0)",
            "23514",
        ),
        ("INSERT INTO store.crates (label) VALUES ('a')", "23505"),
        ("INSERT INTO shipments VALUES (2, 99)", "23503"),
        ("SELECT * FROM depot.crates", "42P01"),
    ] {
        assert_eq!(code_of(&client, sql).await, code, "{sql}");
    }
    client
        .batch_execute("REFRESH MATERIALIZED VIEW store.labels")
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT count(*) FROM store.labels").await,
        [row(&["3"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT obj_description('store.crates'::regclass), \
             format_type(a.atttypid, a.atttypmod) FROM pg_attribute a \
             WHERE a.attrelid = 'store.crates'::regclass AND a.attname = 'state'"
        )
        .await,
        [row(&["what we hold", "store.state"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'store' ORDER BY 1"
        )
        .await,
        [
            row(&["crates_label_idx"]),
            row(&["crates_label_key"]),
            row(&["crates_pkey"])
        ]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT pg_get_serial_sequence('store.crates', 'id')"
        )
        .await,
        [row(&["store.crates_id_seq"])]
    );
    client
        .batch_execute("DROP VIEW crate_count; DROP TABLE shipments; DROP SCHEMA store CASCADE")
        .await
        .unwrap();
}

/// `CREATE FUNCTION s.f ... LANGUAGE sql`: called as `s.f(...)`, found on the
/// search path before `public`'s of the same name, listed in its schema, and
/// dropped alone or with its schema.
async fn functions_live_in_schemas(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP SCHEMA IF EXISTS calc CASCADE; DROP FUNCTION IF EXISTS twice(int);
             CREATE SCHEMA calc;
             CREATE FUNCTION calc.twice(x int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT x * 2';
             CREATE FUNCTION twice(x int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT x * 3';
             CREATE FUNCTION calc.half(x int) RETURNS int LANGUAGE sql AS 'SELECT x / 2';",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT calc.twice(2), twice(2), public.twice(2)").await,
        [row(&["4", "6", "6"])]
    );
    client
        .batch_execute("SET search_path = calc, public")
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT twice(2), half(9)").await,
        [row(&["4", "4"])]
    );
    client.batch_execute("RESET search_path").await.unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT n.nspname, p.proname FROM pg_proc p JOIN pg_namespace n \
             ON n.oid = p.pronamespace WHERE p.proname IN ('twice', 'half') ORDER BY 1, 2"
        )
        .await,
        [
            row(&["calc", "half"]),
            row(&["calc", "twice"]),
            row(&["public", "twice"])
        ]
    );
    for (sql, code) in [
        ("SELECT calc.nothing(1)", "42883"),
        ("SELECT nowhere.twice(1)", "3F000"),
        (
            "CREATE FUNCTION nowhere.f() RETURNS int LANGUAGE sql AS 'SELECT 1'",
            "3F000",
        ),
        ("SELECT half(4)", "42883"),
    ] {
        assert_eq!(code_of(&client, sql).await, code, "{sql}");
    }
    client
        .batch_execute("DROP FUNCTION calc.twice(int)")
        .await
        .unwrap();
    assert_eq!(code_of(&client, "SELECT calc.twice(2)").await, "42883");
    assert_eq!(rows(&client, "SELECT twice(2)").await, [row(&["6"])]);
    client
        .batch_execute("DROP SCHEMA calc CASCADE; DROP FUNCTION twice(int)")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT count(*) FROM pg_proc WHERE proname IN ('twice', 'half')"
        )
        .await,
        [row(&["0"])]
    );
    assert_eq!(code_of(&client, "SELECT nowhere.f()").await, "3F000");
}
