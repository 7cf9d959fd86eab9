// node-postgres logs in with SCRAM-SHA-256, runs a query, and reports the SQLSTATE of
// a wrong password. Usage: node pg_login.cjs PORT USER PASSWORD (NODE_PATH finds pg).
const { Client } = require("pg");

async function main() {
  const [port, user, password] = process.argv.slice(2);
  const config = { host: "127.0.0.1", port: Number(port), user, database: "litewire" };
  const client = new Client({ ...config, password });
  await client.connect();
  const result = await client.query("SELECT 6 * 7 AS answer");
  console.log("answer", result.rows[0].answer);
  await client.end();
  const wrong = new Client({ ...config, password: password + "-wrong" });
  try {
    await wrong.connect();
    console.log("wrong password accepted");
  } catch (error) {
    console.log("refused", error.code, error.message);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
