// execute() with positional and named arguments and every value type.
const assert = require("node:assert/strict");
const { client } = require("./connect.cjs");

async function main() {
  const db = client();
  await db.execute(
    "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, price REAL, qty INTEGER, raw BLOB, note TEXT)"
  );
  const inserted = await db.execute({
    sql: "INSERT INTO items (name, price, qty, raw, note) VALUES (?, ?, ?, ?, ?)",
    args: ["apple", 1.25, 9007199254740993n, new Uint8Array([0, 1, 254, 255]), null],
  });
  assert.equal(inserted.rowsAffected, 1);
  assert.equal(inserted.lastInsertRowid, 1n);

  const named = await db.execute({
    sql: "INSERT INTO items (name, price, qty) VALUES (:name, @price, $qty)",
    args: { name: "pear", price: 0.5, qty: 3 },
  });
  assert.equal(named.lastInsertRowid, 2n);

  // (qty is past 2^53: in the default "number" mode the client refuses to read it.)
  const rs = await db.execute({
    sql: "SELECT id, name, price, raw, note FROM items WHERE name = ?",
    args: ["apple"],
  });
  assert.deepEqual(rs.columns, ["id", "name", "price", "raw", "note"]);
  assert.deepEqual(rs.columnTypes, ["INTEGER", "TEXT", "REAL", "BLOB", "TEXT"]);
  const row = rs.rows[0];
  assert.equal(row.id, 1);
  assert.equal(row.name, "apple");
  assert.equal(row.price, 1.25);
  // Past 2^53 a number would lose the value: intMode "bigint" reads it exactly.
  const exact = client({ intMode: "bigint" });
  const big = await exact.execute("SELECT qty FROM items WHERE id = 1");
  assert.equal(big.rows[0].qty, 9007199254740993n);
  exact.close();
  assert.deepEqual(new Uint8Array(row.raw), new Uint8Array([0, 1, 254, 255]));
  assert.equal(row.note, null);

  const exprs = await db.execute("SELECT 1 + 1 AS two, 'x' || 'y' AS xy, x'00ff' AS b, NULL AS n, 2.5 AS f");
  assert.equal(exprs.rows[0].two, 2);
  assert.equal(exprs.rows[0].xy, "xy");
  assert.deepEqual(new Uint8Array(exprs.rows[0].b), new Uint8Array([0, 255]));
  assert.equal(exprs.rows[0].n, null);
  assert.equal(exprs.rows[0].f, 2.5);

  const updated = await db.execute({ sql: "UPDATE items SET qty = qty + 1 WHERE id = ?", args: [2] });
  assert.equal(updated.rowsAffected, 1);

  await assert.rejects(
    db.execute({ sql: "INSERT INTO items (name) VALUES (?)", args: ["apple"] }),
    (e) => e.code === "SQLITE_CONSTRAINT_UNIQUE" || e.code === "SQLITE_CONSTRAINT",
  );
  await assert.rejects(db.execute("SELEC 1"), (e) => /syntax error/.test(e.message));
  console.log(JSON.stringify(rs.toJSON(), (_, v) => (typeof v === "bigint" ? v.toString() : v)));
  db.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
