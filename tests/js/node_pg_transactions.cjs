// node-postgres: transactions (BEGIN/COMMIT/ROLLBACK, savepoints, a failed
// transaction), errors with their SQLSTATE in error.code, and a pool.
const assert = require("node:assert/strict");
const pg = require("pg");
const { connect, failure, run } = require("./node_pg_client.cjs");

async function main() {
  const db = await connect();
  await db.query("CREATE TABLE ledger (id integer PRIMARY KEY, v text NOT NULL)");
  const count = async () => (await db.query("SELECT count(*)::int AS n FROM ledger")).rows[0].n;

  await db.query("BEGIN");
  await db.query("INSERT INTO ledger VALUES ($1, $2)", [1, "rolled back"]);
  assert.equal(await count(), 1);
  await db.query("ROLLBACK");
  assert.equal(await count(), 0);

  await db.query("BEGIN");
  await db.query("INSERT INTO ledger VALUES ($1, $2)", [1, "kept"]);
  await db.query("SAVEPOINT s1");
  await db.query("INSERT INTO ledger VALUES ($1, $2)", [2, "undone"]);
  const duplicate = await failure(db.query("INSERT INTO ledger VALUES ($1, $2)", [1, "dup"]));
  assert.equal(duplicate.code, "23505");
  await db.query("ROLLBACK TO SAVEPOINT s1");
  await db.query("INSERT INTO ledger VALUES ($1, $2)", [3, "after"]);
  await db.query("COMMIT");
  const rows = await db.query("SELECT id, v FROM ledger ORDER BY id");
  assert.deepEqual(rows.rows, [{ id: 1, v: "kept" }, { id: 3, v: "after" }]);

  // Errors carry their SQLSTATE; the connection carries on.
  assert.equal((await failure(db.query("INSERT INTO ledger VALUES ($1, $2)", [1, "x"]))).code, "23505");
  assert.equal((await failure(db.query("INSERT INTO ledger VALUES ($1, $2)", [5, null]))).code, "23502");
  assert.equal((await failure(db.query("SELECT * FROM no_such_table"))).code, "42P01");
  assert.equal((await failure(db.query("SELECT * FROM no_such_table WHERE id = $1", [1]))).code, "42P01");
  assert.equal((await failure(db.query("SELEC 1"))).code.slice(0, 2), "42");
  assert.equal((await failure(db.query("SELECT $1::int", ["abc"]))).code.slice(0, 2), "22");
  assert.equal(await count(), 2);

  // In a failed transaction everything else is refused until ROLLBACK, also
  // after an error in a statement that did not prepare.
  for (const bad of [["SELECT * FROM nope"], ["SELECT * FROM nope WHERE id = $1", [1]]]) {
    await db.query("BEGIN");
    await db.query("INSERT INTO ledger VALUES ($1, $2)", [7, "lost"]);
    assert.equal((await failure(db.query(...bad))).code, "42P01");
    assert.equal((await failure(db.query("SELECT 1"))).code, "25P02");
    assert.equal((await failure(db.query("SELECT $1::int", [1]))).code, "25P02");
    await db.query("ROLLBACK");
    assert.equal(await count(), 2);
  }
  await db.end();

  // A pool: its clients each run their own transaction.
  const pool = new pg.Pool({
    host: "127.0.0.1",
    port: Number(process.env.LITEWIRE_PG_PORT),
    user: "postgres",
    database: "litewire",
    max: 3,
  });
  await Promise.all(
    [10, 11, 12].map(async (id) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("INSERT INTO ledger VALUES ($1, $2)", [id, `pool ${id}`]);
        await client.query(id === 11 ? "ROLLBACK" : "COMMIT");
      } finally {
        client.release();
      }
    })
  );
  const pooled = await pool.query("SELECT id FROM ledger WHERE id >= $1 ORDER BY id", [10]);
  assert.deepEqual(pooled.rows, [{ id: 10 }, { id: 12 }]);
  await pool.end();
}

run(main);
