// Typed round trips through node-postgres: parameters (text, and Buffers in
// binary with no type given), results in text (the default, through pg's
// type parsers) and in binary (`binary: true`), custom parsers with
// pg.types.setTypeParser, and rowMode 'array'.
const assert = require("node:assert/strict");
const pg = require("pg");
const { connect, run } = require("./node_pg_client.cjs");

const DDL = `CREATE TABLE typed (
  k integer PRIMARY KEY, i2 smallint, i4 integer, i8 bigint, f8 double precision,
  n numeric(12,2), t text, vc varchar(20), b boolean, by bytea, d date, ts timestamp,
  tz timestamptz, u uuid, j json, jb jsonb)`;

const COLUMNS = ["k", "i2", "i4", "i8", "f8", "n", "t", "vc", "b", "by", "d", "ts", "tz", "u", "j", "jb"];

// Values as an app passes them: node-postgres writes each as text, a Buffer as
// binary bytes, an object as JSON, a Date as local time with its offset.
const ROWS = [
  [1, -12345, 2000000000, "-9000000000000", -2.25e-10, "12345678.90", "héllo, wörld", "short", true,
    Buffer.from([0, 1, 0xff, 0x5c]), "2024-02-29", "1999-12-31 23:59:59.999999",
    new Date(Date.UTC(2024, 0, 1, 10, 0, 0, 500)), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
    { a: [1, 2, null], b: "x" }, { nested: { ok: true } }],
  [2, 32767, -1, "9223372036854775807", 1e300, "-0.05", "", "O'Brien", false, Buffer.alloc(0),
    "0001-01-02", "2000-01-01 00:00:00", new Date(Date.UTC(1970, 0, 1)),
    "00000000-0000-0000-0000-000000000000", [], {}],
  [3, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null],
];

// What pg's default text parsers give back for each row.
function expected(row) {
  return Object.fromEntries(COLUMNS.map((c, i) => [c, row[i]]));
}

async function main() {
  const db = await connect();
  await db.query(DDL);
  const marks = COLUMNS.map((_, i) => `$${i + 1}`).join(", ");
  for (const row of ROWS) {
    // Without a column list: every parameter typed by its column.
    const jsonArgs = row.map((v, i) => (v !== null && COLUMNS[i].startsWith("j") ? JSON.stringify(v) : v));
    const result = await db.query(`INSERT INTO typed VALUES (${marks})`, jsonArgs);
    assert.equal(result.rowCount, 1);
    assert.equal(result.command, "INSERT");
  }

  // Text results through pg's parsers. date, int8 and numeric stay strings by
  // default; timestamp without time zone is read as local time.
  pg.types.setTypeParser(1082, (text) => text);
  pg.types.setTypeParser(1114, (text) => text);
  const text = await db.query("SELECT * FROM typed ORDER BY k");
  assert.deepEqual(
    text.fields.map((f) => f.dataTypeID),
    [23, 21, 23, 20, 701, 1700, 25, 1043, 16, 17, 1082, 1114, 1184, 2950, 114, 3802]
  );
  assert.deepEqual(text.rows, ROWS.map(expected));

  // A custom parser: int8 as BigInt, numeric as Number.
  pg.types.setTypeParser(20, (text) => BigInt(text));
  pg.types.setTypeParser(1700, (text) => Number(text));
  const custom = await db.query("SELECT i8, n FROM typed WHERE k = $1", [2]);
  assert.deepEqual(custom.rows, [{ i8: 9223372036854775807n, n: -0.05 }]);
  pg.types.setTypeParser(20, (text) => text);
  pg.types.setTypeParser(1700, (text) => text);

  // rowMode 'array'.
  const arrays = await db.query({
    text: "SELECT k, t, b FROM typed WHERE k < $1 ORDER BY k",
    values: [3],
    rowMode: "array",
  });
  assert.deepEqual(arrays.rows, [[1, "héllo, wörld", true], [2, "", false]]);
  assert.deepEqual(arrays.fields.map((f) => f.name), ["k", "t", "b"]);

  // Binary results (`binary: true`): pg's binary parsers for integers, bool
  // and text. pg-protocol reads every field as UTF-8 text before handing binary
  // ones over as Buffers, so only values whose binary form is valid UTF-8 come
  // through whole (a limitation of node-postgres, with PostgreSQL too): the row
  // is made of such values.
  await db.query("INSERT INTO typed (k, i2, i4, i8, b, t, by, jb) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", [
    20, 0x1234, 0x12345678, "72623859790382856", true, "bin", Buffer.from("abc"), '{"x": 1}',
  ]);
  const raw = (buf) => buf;
  for (const oid of [17, 3802, 1043]) pg.types.setTypeParser(oid, "binary", raw);
  const binary = await db.query({ text: "SELECT k, i2, i4, i8, b, t, by, jb FROM typed WHERE k = $1", values: [20], binary: true });
  assert.deepEqual(binary.fields.map((f) => f.format), Array(8).fill("binary"));
  const row = binary.rows[0];
  assert.equal(row.k, 20);
  assert.equal(row.i2, 0x1234);
  assert.equal(row.i4, 0x12345678);
  // 0x0102030405060708.
  assert.equal(row.i8, "72623859790382856");
  assert.equal(row.b, true);
  assert.equal(row.t, "bin");
  assert.deepEqual(row.by, Buffer.from("abc"));
  // jsonb: a version byte, then the text.
  assert.deepEqual(row.jb, Buffer.from('\x01{"x": 1}'));

  // Buffers as bytea parameters (binary, type unspecified), with and without a
  // column list, and compared in a WHERE clause.
  const bytes = Buffer.from([0xde, 0xad, 0x00, 0xbe, 0xef]);
  await db.query("INSERT INTO typed (k, by) VALUES ($1, $2)", [10, bytes]);
  await db.query("INSERT INTO typed VALUES ($1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, $2, NULL, NULL, NULL, NULL, NULL, NULL)", [11, Buffer.from([0xff])]);
  const found = await db.query("SELECT k, by, length(by)::int AS n FROM typed WHERE by = $1", [bytes]);
  assert.deepEqual(found.rows, [{ k: 10, by: bytes, n: 5 }]);
  const updated = await db.query("UPDATE typed SET by = $1 WHERE k = $2 RETURNING by", [Buffer.from("\\x"), 11]);
  assert.deepEqual(updated.rows[0].by, Buffer.from("\\x"));

  // Expressions over parameters, typed by their casts.
  const exprs = await db.query("SELECT $1::int AS a, $2::text || '!' AS b, $3::bigint AS c", [41, "hi", "5000000000"]);
  assert.deepEqual(exprs.rows, [{ a: 41, b: "hi!", c: "5000000000" }]);
  await db.end();
}

run(main);
