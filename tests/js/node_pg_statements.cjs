// node-postgres: connect, DDL and command results, named prepared statements
// ({name, text, values}) reused, the statement shapes whose parameter types
// PostgreSQL infers (each value sent as text, typed by the server), and the
// catalog as an app reads it.
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { connect, run } = require("./node_pg_client.cjs");

async function main() {
  const db = await connect();
  const version = await db.query("SHOW server_version");
  assert.match(version.rows[0].server_version, /^15\./);

  // DDL and command tags, several statements in one simple query.
  const created = await db.query("CREATE TABLE probe (id serial PRIMARY KEY, v text)");
  assert.equal(created.command, "CREATE");
  const multi = await db.query("INSERT INTO probe (v) VALUES ('a'), ('b'); SELECT count(*) AS n FROM probe");
  assert.equal(multi.length, 2);
  assert.equal(multi[0].rowCount, 2);
  assert.deepEqual(multi[1].rows, [{ n: "2" }]);
  const dropped = await db.query("DROP TABLE probe");
  assert.equal(dropped.command, "DROP");

  await db.query(fs.readFileSync(path.join(__dirname, "..", "fixtures", "statement_shapes.sql"), "utf8"));

  // A named statement is parsed once per connection and reused with new values.
  const byId = { name: "item-by-id", text: "SELECT name, qty FROM items WHERE id = $1" };
  const names = [];
  for (const id of [1, 3, 2, 1]) {
    const result = await db.query({ ...byId, values: [id] });
    names.push(result.rows[0].name);
  }
  assert.deepEqual(names, ["apple", "fig", "pear", "apple"]);
  const big = await db.query({ ...byId, values: ["2"] });
  assert.deepEqual(big.rows, [{ name: "pear", qty: "5000000000" }]);
  // Another name for another statement on the same connection.
  const insert = { name: "order", text: "INSERT INTO orders (item, amount) VALUES ($1, $2)" };
  for (const [item, amount] of [[2, 1], [2, "6000000000"]]) {
    assert.equal((await db.query({ ...insert, values: [item, amount] })).rowCount, 1);
  }

  // Multi-row VALUES without a column list.
  await db.query("INSERT INTO orders VALUES ($1, $2), ($3, $4)", [9, 1, 9, 2]);
  const sums = await db.query("SELECT item, sum(amount)::bigint AS total FROM orders GROUP BY item ORDER BY item");
  assert.deepEqual(sums.rows.map((r) => [r.item, r.total]), [[1, "3"], [2, "6000000001"], [3, "40"], [9, "3"]]);

  // INSERT ... SELECT with col + $1 and $2 || col.
  const at = new Date(Date.UTC(2024, 4, 6, 7, 8, 9));
  await db.query(
    "INSERT INTO archive (id, label, price, at) SELECT id + $1, $2 || name, $3, $4 FROM items WHERE id = $5",
    [100, "old-", "9.99", at, 1]
  );
  const archived = await db.query("SELECT id, label, price, at FROM archive");
  assert.deepEqual(archived.rows, [{ id: "101", label: "old-apple", price: "9.99", at }]);

  // ON CONFLICT DO UPDATE with RETURNING.
  const upsert =
    "INSERT INTO items (id, name, qty) VALUES ($1, $2, $3) ON CONFLICT (id) " +
    "DO UPDATE SET qty = items.qty + $4, price = $5 RETURNING id, qty, name || $6 AS label";
  assert.deepEqual((await db.query(upsert, [1, "apple", 0, 5, 2.5, "!"])).rows, [{ id: 1, qty: "15", label: "apple!" }]);
  assert.deepEqual((await db.query(upsert, [4, "kiwi", 2, 5, 2.5, "?"])).rows, [{ id: 4, qty: "2", label: "kiwi?" }]);

  // Comparisons, arithmetic, LIKE, coalesce, BETWEEN, IN, LIMIT/OFFSET.
  const filtered = await db.query(
    "SELECT id FROM items WHERE qty * $1 > $2 AND name LIKE $3 AND coalesce(price, $4) BETWEEN $5 AND $6 " +
      "AND id IN ($7, $8) ORDER BY id LIMIT $9 OFFSET $10",
    [2, 10, "%i%", 3.5, 3, 4, 2, 3, 5, 0]
  );
  assert.deepEqual(filtered.rows, [{ id: 3 }]);

  // CASE and function arguments.
  const cased = await db.query(
    "SELECT CASE WHEN id = $1 THEN $2 ELSE name END AS n, upper($3) AS u FROM items " +
      "WHERE length(name) > $4 AND abs(qty) >= $5 AND id < 4 ORDER BY id",
    [2, "PEAR", "x", 3, 7]
  );
  assert.deepEqual(cased.rows, [{ n: "apple", u: "X" }, { n: "PEAR", u: "X" }]);

  // = ANY($1) with a JavaScript array (sent as array text).
  const any = await db.query("SELECT id FROM items WHERE name = ANY($1) ORDER BY id", [["fig", "apple", "none"]]);
  assert.deepEqual(any.rows, [{ id: 1 }, { id: 3 }]);

  // Subqueries.
  const sub = await db.query(
    "SELECT name FROM items WHERE id IN (SELECT item FROM orders WHERE amount > $1) " +
      "AND qty < (SELECT max(amount) FROM orders WHERE item = $2) + $3 ORDER BY id",
    [2, 3, 0]
  );
  assert.deepEqual(sub.rows, [{ name: "apple" }, { name: "fig" }]);

  // UPDATE ... SET col = col * $1 ... RETURNING, DELETE ... RETURNING.
  const updated = await db.query(
    "UPDATE items SET price = price * $1 WHERE ok = $2 AND price IS NOT NULL RETURNING id",
    [2, true]
  );
  assert.deepEqual(updated.rows.map((r) => r.id).sort(), [1, 3]);
  assert.equal(updated.rowCount, 2);
  const deleted = await db.query("DELETE FROM orders WHERE item = $1 RETURNING amount", [9]);
  assert.equal(deleted.rowCount, 2);

  // The catalog as an app reads it.
  const columns = await db.query(
    "SELECT column_name, data_type, is_nullable FROM information_schema.columns " +
      "WHERE table_name = $1 ORDER BY ordinal_position",
    ["items"]
  );
  assert.deepEqual(columns.rows.map((r) => [r.column_name, r.data_type, r.is_nullable]), [
    ["id", "integer", "NO"],
    ["name", "character varying", "NO"],
    ["price", "double precision", "YES"],
    ["qty", "bigint", "YES"],
    ["ok", "boolean", "YES"],
  ]);
  const types = await db.query("SELECT oid, typname FROM pg_type WHERE typname = ANY($1) ORDER BY oid", [["int4", "bytea", "uuid"]]);
  assert.deepEqual(types.rows, [{ oid: 17, typname: "bytea" }, { oid: 23, typname: "int4" }, { oid: 2950, typname: "uuid" }]);
  const tables = await db.query(
    "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = 'public' ORDER BY tablename"
  );
  assert.deepEqual(tables.rows.map((r) => r.tablename), ["archive", "items", "orders"]);
  await db.end();
}

run(main);
