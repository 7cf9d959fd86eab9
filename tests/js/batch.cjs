// batch() in write, read and deferred mode; a failing statement applies nothing.
const assert = require("node:assert/strict");
const { client } = require("./connect.cjs");

async function main() {
  const db = client();
  const created = await db.batch(
    [
      "CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT UNIQUE, balance INTEGER NOT NULL)",
      { sql: "INSERT INTO accounts (owner, balance) VALUES (?, ?)", args: ["ann", 100] },
      { sql: "INSERT INTO accounts (owner, balance) VALUES (:o, :b)", args: { o: "bob", b: 50 } },
      "SELECT owner, balance FROM accounts ORDER BY id",
    ],
    "write",
  );
  assert.equal(created.length, 4);
  assert.equal(created[1].lastInsertRowid, 1n);
  assert.equal(created[2].rowsAffected, 1);
  assert.deepEqual(
    created[3].rows.map((r) => [r.owner, r.balance]),
    [["ann", 100], ["bob", 50]],
  );

  // The third statement breaks a constraint: the first two are undone with it.
  await assert.rejects(
    db.batch(
      [
        "UPDATE accounts SET balance = balance - 30 WHERE owner = 'ann'",
        "UPDATE accounts SET balance = balance + 30 WHERE owner = 'bob'",
        "INSERT INTO accounts (owner, balance) VALUES ('ann', 0)",
      ],
      "write",
    ),
    (e) => e.code === "SQLITE_CONSTRAINT_UNIQUE" && e.statementIndex === 2,
  );
  const after = await db.execute("SELECT sum(balance) AS total, max(balance) AS top FROM accounts");
  assert.equal(after.rows[0].total, 150);
  assert.equal(after.rows[0].top, 100);

  // Read mode: queries run; a write is refused, and refused as a whole.
  const read = await db.batch(
    ["SELECT count(*) AS n FROM accounts", "SELECT owner FROM accounts WHERE balance > 60"],
    "read",
  );
  assert.equal(read[0].rows[0].n, 2);
  assert.equal(read[1].rows[0].owner, "ann");
  await assert.rejects(
    db.batch(["SELECT 1", "DELETE FROM accounts"], "read"),
    (e) => e.code === "SQLITE_READONLY",
  );
  assert.equal((await db.execute("SELECT count(*) AS n FROM accounts")).rows[0].n, 2);

  // Deferred mode: the transaction takes the write lock at its first write.
  const deferred = await db.batch(
    [
      "SELECT balance FROM accounts WHERE owner = 'bob'",
      "UPDATE accounts SET balance = 75 WHERE owner = 'bob'",
    ],
    "deferred",
  );
  assert.equal(deferred[0].rows[0].balance, 50);
  assert.equal(deferred[1].rowsAffected, 1);
  const bob = await db.execute("SELECT balance FROM accounts WHERE owner = 'bob'");
  assert.equal(bob.rows[0].balance, 75);
  db.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
