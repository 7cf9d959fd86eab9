// Many clients at once: concurrent writers queue inside the server (no "database
// is locked"), and transactions on separate streams each see their own writes.
const assert = require("node:assert/strict");
const { client } = require("./connect.cjs");

const CLIENTS = 16;
const WRITES = 20;

async function main() {
  const setup = client();
  await setup.execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER)");
  await setup.execute("INSERT INTO counter VALUES (1, 0)");
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      const db = client();
      for (let i = 0; i < WRITES; i++) {
        if (i % 2 === 0) {
          await db.execute("UPDATE counter SET n = n + 1 WHERE id = 1");
        } else {
          const tx = await db.transaction("write");
          const rs = await tx.execute("SELECT n FROM counter WHERE id = 1");
          await tx.execute({ sql: "UPDATE counter SET n = ? WHERE id = 1", args: [rs.rows[0].n + 1] });
          await tx.commit();
        }
      }
      db.close();
    }),
  );
  const total = await setup.execute("SELECT n FROM counter");
  assert.equal(total.rows[0].n, CLIENTS * WRITES);
  setup.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
