// Prisma 7 (its client over @prisma/adapter-pg, node-postgres) on a first
// day: the tables as Prisma Migrate writes them (a schema of its own, an
// enum, arrays, jsonb, decimal, bigserial, timestamptz, a unique index, a
// foreign key), then create, nested create, findMany with include and
// where, update, groupBy, aggregates, interactive and batch transactions,
// and the error codes of unique and foreign-key violations. Run by
// tests/prisma.rs with DATABASE_URL and PRISMA_CLIENT (the generated
// client's folder); exits non-zero at the first difference from what
// PostgreSQL 15 answers.
const { PrismaClient } = require(process.env.PRISMA_CLIENT);
const { PrismaPg } = require("@prisma/adapter-pg");
const { Pool } = require("pg");

const MIGRATION = `
-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "audit";

-- CreateEnum
CREATE TYPE "public"."Role" AS ENUM ('USER', 'ADMIN');

-- CreateTable
CREATE TABLE "public"."User" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "role" "public"."Role" NOT NULL DEFAULT 'USER',
    "tags" TEXT[],
    "profile" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."Post" (
    "id" SERIAL NOT NULL,
    "title" TEXT NOT NULL,
    "published" BOOLEAN NOT NULL DEFAULT false,
    "authorId" INTEGER NOT NULL,

    CONSTRAINT "Post_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit"."Event" (
    "id" BIGSERIAL NOT NULL,
    "kind" VARCHAR(40) NOT NULL,
    "amount" DECIMAL(10,2) NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "public"."User"("email");

-- CreateIndex
CREATE INDEX "Post_authorId_idx" ON "public"."Post"("authorId");

-- AddForeignKey
ALTER TABLE "public"."Post" ADD CONSTRAINT "Post_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "public"."User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
`;

function check(what, got, want) {
  const text = (v) => JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}n` : x));
  const [g, w] = [text(got), text(want)];
  if (g !== w) { console.error(`${what}: got ${g}, want ${w}`); process.exit(1); }
}

async function main() {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL });
  await pool.query(MIGRATION);
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL }) });
  const ada = await prisma.user.create({
    data: { email: "ada@example.com", name: "Ada", role: "ADMIN", tags: ["math", "engines"], profile: { born: 1815 }, posts: { create: [{ title: "Notes" }, { title: "Engines", published: true }] } },
    include: { posts: { orderBy: { id: "asc" } } },
  });
  check("nested create", [ada.id, ada.posts.map((p) => [p.title, p.published])], [1, [["Notes", false], ["Engines", true]]]);
  check("createdAt", ada.createdAt instanceof Date, true);
  check("enum, array, json", [ada.role, ada.tags, ada.profile], ["ADMIN", ["math", "engines"], { born: 1815 }]);
  const admins = await prisma.user.findMany({ where: { role: "ADMIN", tags: { has: "engines" } }, select: { email: true } });
  check("where enum and array", admins, [{ email: "ada@example.com" }]);
  await prisma.user.create({ data: { email: "grace@example.com" } });
  const found = await prisma.user.findMany({
    where: { posts: { some: { published: true } } },
    include: { posts: { where: { published: true } } },
  });
  check("findMany include where", found.map((u) => [u.name, u.posts.length]), [["Ada", 1]]);
  const filtered = await prisma.user.findMany({ where: { email: { contains: "ACE", mode: "insensitive" } }, select: { email: true } });
  check("insensitive contains", filtered, [{ email: "grace@example.com" }]);
  const updated = await prisma.post.update({ where: { id: 1 }, data: { published: true, title: { set: "Notes 2" } } });
  check("update", [updated.title, updated.published], ["Notes 2", true]);
  const many = await prisma.post.updateMany({ where: { authorId: ada.id }, data: { published: false } });
  check("updateMany", many.count, 2);
  const counted = await prisma.user.findMany({ select: { email: true, _count: { select: { posts: true } } }, orderBy: { email: "asc" } });
  check("count relation", counted.map((u) => u._count.posts), [2, 0]);
  try {
    await prisma.user.create({ data: { email: "ada@example.com" } });
    check("duplicate accepted", true, false);
  } catch (e) {
    const cause = e.meta?.driverAdapterError?.cause;
    check("unique violation", [e.code, cause?.originalCode, cause?.constraint], ["P2002", "23505", { index: "User_email_key" }]);
  }
  try {
    await prisma.$transaction(async (tx) => {
      await tx.post.create({ data: { title: "Draft", authorId: ada.id } });
      throw new Error("abandon");
    });
  } catch (e) { check("transaction error", e.message, "abandon"); }
  check("rolled back", await prisma.post.count(), 2);
  const [a, b] = await prisma.$transaction([
    prisma.post.create({ data: { title: "Batch", authorId: 2 } }),
    prisma.post.count(),
  ]);
  check("batch transaction", [a.title, b], ["Batch", 3]);
  const agg = await prisma.post.groupBy({ by: ["authorId"], _count: { _all: true }, orderBy: { authorId: "asc" } });
  check("groupBy", agg.map((g) => [g.authorId, g._count._all]), [[1, 2], [2, 1]]);
  await prisma.post.deleteMany({ where: { authorId: ada.id } });
  const gone = await prisma.user.delete({ where: { email: "ada@example.com" } });
  check("delete", gone.name, "Ada");
  try {
    await prisma.user.delete({ where: { id: 2 } });
    check("delete with a post accepted", true, false);
  } catch (e) {
    check("foreign key violation", e.code, "P2003");
    // The key, as PostgreSQL names it in the error's constraint field.
    check("the violated key", JSON.stringify(e.meta ?? {}).includes("Post_authorId_fkey"), true);
  }
  const events = await prisma.event.createManyAndReturn({
    data: [{ kind: "deposit", amount: "10.25" }, { kind: "withdrawal", amount: "-3.10" }],
  });
  check("a schema's table: bigint ids", events.map((e) => typeof e.id), ["bigint", "bigint"]);
  const total = await prisma.event.aggregate({ _sum: { amount: true }, _max: { at: true } });
  check("decimal sum", total._sum.amount.toString(), "7.15");
  check("timestamptz", total._max.at instanceof Date, true);
  const raw = await prisma.$queryRaw`SELECT count(*) AS n FROM "User" WHERE email LIKE ${"grace%"}`;
  check("queryRaw", raw, [{ n: 1n }]);
  await prisma.$disconnect();
  await pool.end();
  console.log("prisma: ok");
}
main().catch((e) => { console.error(e); process.exit(1); });
