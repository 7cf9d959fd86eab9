// Drizzle (drizzle-orm over node-postgres, drizzle-kit's push and migrations)
// on a first day: push a schema into public and into a schema of its own,
// push it again and find nothing to change, apply generated migrations with
// migrate() (twice: the second finds them applied), then queries with joins,
// RETURNING and transactions. Run by tests/drizzle.rs with DATABASE_URL;
// exits non-zero at the first difference from what PostgreSQL 15 answers.
const fs = require("fs");
const os = require("os");
const path = require("path");
const { Pool } = require("pg");
const { drizzle } = require("drizzle-orm/node-postgres");
const { migrate } = require("drizzle-orm/node-postgres/migrator");
const { eq, sql, desc } = require("drizzle-orm");
const pg = require("drizzle-orm/pg-core");
const kit = require("drizzle-kit/api");

function check(what, got, want) {
  const [g, w] = [JSON.stringify(got), JSON.stringify(want)];
  if (g !== w) {
    console.error(`${what}: got ${g}, want ${w}`);
    process.exit(1);
  }
}

// What `drizzle-kit push` makes: serial, varchar, integer, boolean, timestamp,
// jsonb, a foreign key, an index, and a table in a schema of its own.
const users = pg.pgTable(
  "dz_users",
  {
    id: pg.serial("id").primaryKey(),
    name: pg.varchar("name", { length: 120 }).notNull(),
    age: pg.integer("age"),
    active: pg.boolean("active").notNull().default(true),
    createdAt: pg.timestamp("created_at").notNull().defaultNow(),
    profile: pg.jsonb("profile"),
  },
  (t) => [pg.index("dz_users_name_idx").on(t.name), pg.uniqueIndex("dz_users_age_name").on(t.age, t.name)],
);
const posts = pg.pgTable("dz_posts", {
  id: pg.serial("id").primaryKey(),
  authorId: pg.integer("author_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  title: pg.text("title").notNull(),
});
const shop = pg.pgSchema("dz_shop");
const items = shop.table("items", {
  id: pg.serial("id").primaryKey(),
  label: pg.varchar("label", { length: 40 }).notNull(),
  ownerId: pg.integer("owner_id").references(() => users.id),
});
const pushed = { users, posts, shop, items };

// What the generated migrations make.
const ledger = pg.pgSchema("dz_ledger");
const accounts = ledger.table("accounts", {
  id: pg.serial("id").primaryKey(),
  owner: pg.text("owner").notNull().unique(),
  balance: pg.integer("balance").notNull().default(0),
});
const entries = ledger.table("entries", {
  id: pg.bigserial("id", { mode: "number" }).primaryKey(),
  accountId: pg.integer("account_id").notNull().references(() => accounts.id),
  amount: pg.integer("amount").notNull(),
  at: pg.timestamp("at", { withTimezone: true }).defaultNow(),
});
const migrated = { ledger, accounts, entries };

async function push(db) {
  // Push asks on a terminal before anything destructive (a table it does
  // not know may be one renamed): it looks at these tables only.
  return kit.pushSchema(pushed, db, ["public", "dz_shop"], ["dz_*", "items"]);
}

async function main() {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  const db = drizzle(pool);
  // A PostgreSQL run again starts clean; litewire starts on a new file.
  for (const statement of [
    "DROP SCHEMA IF EXISTS dz_shop CASCADE",
    "DROP SCHEMA IF EXISTS dz_ledger CASCADE",
    "DROP SCHEMA IF EXISTS drizzle CASCADE",
    "DROP TABLE IF EXISTS dz_posts, dz_users",
  ]) {
    await pool.query(statement);
  }

  const first = await push(db);
  const creates = first.statementsToExecute.filter((s) => /^CREATE (TABLE|SCHEMA)/.test(s));
  check("first push creates", creates.length, 4);
  await first.apply();
  const second = await push(db);
  check("second push finds nothing to change", second.statementsToExecute, []);

  // Migrations as `drizzle-kit generate` writes them.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "litewire-drizzle-"));
  const statements = await kit.generateMigration(
    kit.generateDrizzleJson({}),
    kit.generateDrizzleJson(migrated),
  );
  fs.mkdirSync(path.join(folder, "meta"));
  fs.writeFileSync(
    path.join(folder, "0000_ledger.sql"),
    statements.join("\n--> statement-breakpoint\n"),
  );
  fs.writeFileSync(
    path.join(folder, "meta", "_journal.json"),
    JSON.stringify({
      version: "7",
      dialect: "postgresql",
      entries: [{ idx: 0, version: "7", when: 1764979200000, tag: "0000_ledger", breakpoints: true }],
    }),
  );
  await migrate(db, { migrationsFolder: folder });
  await migrate(db, { migrationsFolder: folder });
  const applied = await pool.query("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
  check("migrations applied once", applied.rows[0].n, 1);
  fs.rmSync(folder, { recursive: true });

  // Queries.
  const [ada] = await db
    .insert(users)
    .values({ name: "Ada", age: 36, profile: { langs: ["en", "fr"] } })
    .returning();
  check("returning id", ada.id, 1);
  check("returning default", [ada.active, ada.createdAt instanceof Date], [true, true]);
  check("returning jsonb", ada.profile, { langs: ["en", "fr"] });
  const more = await db
    .insert(users)
    .values([{ name: "Grace" }, { name: "Linus", age: 20, active: false }])
    .returning({ id: users.id, age: users.age });
  check("multi-row insert with defaults", more, [{ id: 2, age: null }, { id: 3, age: 20 }]);
  await db.insert(posts).values([
    { authorId: ada.id, title: "Notes" },
    { authorId: ada.id, title: "Engines" },
    { authorId: 2, title: "Compilers" },
  ]);
  const joined = await db
    .select({ name: users.name, title: posts.title })
    .from(posts)
    .innerJoin(users, eq(posts.authorId, users.id))
    .orderBy(desc(posts.title));
  check("inner join", joined, [
    { name: "Ada", title: "Notes" },
    { name: "Ada", title: "Engines" },
    { name: "Grace", title: "Compilers" },
  ]);
  const counted = await db
    .select({ name: users.name, n: sql`count(${posts.id})`.mapWith(Number) })
    .from(users)
    .leftJoin(posts, eq(posts.authorId, users.id))
    .groupBy(users.name)
    .orderBy(users.name);
  check("left join, grouped", counted, [
    { name: "Ada", n: 2 },
    { name: "Grace", n: 1 },
    { name: "Linus", n: 0 },
  ]);
  const renamed = await db
    .update(users)
    .set({ age: sql`${users.age} + 1` })
    .where(eq(users.name, "Ada"))
    .returning({ age: users.age });
  check("update returning", renamed, [{ age: 37 }]);
  await db.insert(items).values({ label: "lamp", ownerId: ada.id });
  const owned = await db
    .select({ label: items.label, owner: users.name })
    .from(items)
    .innerJoin(users, eq(items.ownerId, users.id));
  check("a schema's table joined", owned, [{ label: "lamp", owner: "Ada" }]);

  // Transactions: a rollback leaves nothing, a commit keeps it all.
  try {
    await db.transaction(async (tx) => {
      await tx.insert(accounts).values({ owner: "ada" });
      tx.rollback();
    });
  } catch (e) {
    check("rollback error", e.constructor.name, "TransactionRollbackError");
  }
  check("rolled back", (await db.select().from(accounts)).length, 0);
  await db.transaction(async (tx) => {
    const [account] = await tx.insert(accounts).values({ owner: "ada" }).returning();
    await tx.insert(entries).values([
      { accountId: account.id, amount: 50 },
      { accountId: account.id, amount: -20 },
    ]);
    await tx
      .update(accounts)
      .set({ balance: sql`(SELECT sum(amount) FROM ${entries} WHERE account_id = ${account.id})` })
      .where(eq(accounts.id, account.id));
  });
  const [account] = await db.select().from(accounts);
  check("committed", [account.owner, account.balance], ["ada", 30]);
  try {
    await db.insert(accounts).values({ owner: "ada" });
    check("duplicate accepted", true, false);
  } catch (e) {
    check("unique violation", e.cause?.code ?? e.code, "23505");
  }
  const deleted = await db.delete(users).where(eq(users.name, "Grace")).returning({ id: users.id });
  check("delete returning", deleted, [{ id: 2 }]);
  check("cascaded", (await db.select().from(posts)).length, 2);

  await pool.end();
  console.log("drizzle: ok");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
