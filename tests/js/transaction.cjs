// transaction(): statements across HTTP requests on one stream, committed or
// rolled back; its batch() goes through /v3/cursor.
const assert = require("node:assert/strict");
const { client } = require("./connect.cjs");

async function main() {
  const db = client();
  await db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT UNIQUE)");

  const tx = await db.transaction("write");
  await tx.execute({ sql: "INSERT INTO notes (body) VALUES (?)", args: ["one"] });
  const inside = await tx.execute("SELECT count(*) AS n FROM notes");
  assert.equal(inside.rows[0].n, 1);
  // A failed statement undoes itself only: the transaction goes on, as in SQLite.
  await assert.rejects(
    tx.execute({ sql: "INSERT INTO notes (body) VALUES (?)", args: ["one"] }),
    (e) => e.code === "SQLITE_CONSTRAINT_UNIQUE",
  );
  const batch = await tx.batch([
    { sql: "INSERT INTO notes (body) VALUES (?)", args: ["two"] },
    "SELECT body FROM notes ORDER BY id",
  ]);
  assert.deepEqual(batch[1].rows.map((r) => r.body), ["one", "two"]);
  await tx.commit();
  assert.equal((await db.execute("SELECT count(*) AS n FROM notes")).rows[0].n, 2);

  const undone = await db.transaction("write");
  await undone.execute("INSERT INTO notes (body) VALUES ('three')");
  await undone.execute("DELETE FROM notes WHERE body = 'one'");
  assert.equal((await undone.execute("SELECT count(*) AS n FROM notes")).rows[0].n, 2);
  await undone.rollback();
  const bodies = await db.execute("SELECT body FROM notes ORDER BY id");
  assert.deepEqual(bodies.rows.map((r) => r.body), ["one", "two"]);

  // A read transaction reads, and refuses writes.
  const read = await db.transaction("read");
  assert.equal((await read.execute("SELECT count(*) AS n FROM notes")).rows[0].n, 2);
  await assert.rejects(read.execute("DELETE FROM notes"), (e) => e.code === "SQLITE_READONLY");
  await read.commit();
  assert.equal((await db.execute("SELECT count(*) AS n FROM notes")).rows[0].n, 2);

  // After close() without commit, nothing of the transaction is left.
  const abandoned = await db.transaction("write");
  await abandoned.execute("DELETE FROM notes");
  abandoned.close();
  const writer = client();
  await writer.execute("INSERT INTO notes (body) VALUES ('four')");
  assert.equal((await db.execute("SELECT count(*) AS n FROM notes")).rows[0].n, 3);
  writer.close();
  db.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
