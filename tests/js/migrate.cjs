// executeMultiple() (a Hrana sequence) and migrate() (foreign keys off around a
// batch, as schema migrations that rebuild tables need).
const assert = require("node:assert/strict");
const { client } = require("./connect.cjs");

async function main() {
  const db = client();
  await db.executeMultiple(`
    CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
    CREATE TABLE child (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES parent(id), note TEXT);
    INSERT INTO parent VALUES (1, 'p');
    INSERT INTO child VALUES (1, 1, 'c');
  `);
  assert.equal((await db.execute("SELECT count(*) AS n FROM child")).rows[0].n, 1);
  // A sequence stops at its first error; what ran before it stays.
  await assert.rejects(
    db.executeMultiple("INSERT INTO parent VALUES (2, 'q'); INSERT INTO nope VALUES (1); INSERT INTO parent VALUES (3, 'r');"),
    (e) => /no such table: nope/.test(e.message),
  );
  assert.equal((await db.execute("SELECT count(*) AS n FROM parent")).rows[0].n, 2);

  // Foreign keys are enforced outside migrate()...
  await assert.rejects(
    db.execute("INSERT INTO child VALUES (2, 99, 'orphan')"),
    (e) => e.code === "SQLITE_CONSTRAINT_FOREIGNKEY",
  );
  // ...and off inside it: the parent table is rebuilt under its children.
  await db.migrate([
    "CREATE TABLE parent_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '')",
    "INSERT INTO parent_new SELECT id, name FROM parent",
    "DROP TABLE parent",
    "ALTER TABLE parent_new RENAME TO parent",
  ]);
  const children = await db.execute("SELECT child.note, parent.name FROM child JOIN parent ON parent.id = child.pid");
  assert.deepEqual(children.rows.map((r) => [r.note, r.name]), [["c", "p"]]);
  const fk = await db.execute("PRAGMA foreign_keys");
  assert.equal(fk.rows[0].foreign_keys, 1);
  db.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
