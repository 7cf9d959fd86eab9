// The connection every node_pg_*.cjs script uses: node-postgres's Client pointed
// at the server under test (LITEWIRE_PG_PORT), as an app would point it at
// PostgreSQL; and a runner that fails the script with the error's code.
const { Client } = require("pg");

async function connect(options = {}) {
  const client = new Client({
    host: "127.0.0.1",
    port: Number(process.env.LITEWIRE_PG_PORT),
    user: "postgres",
    database: "litewire",
    ...options,
  });
  await client.connect();
  return client;
}

// The error a promise is rejected with (it must be rejected).
async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the statement to fail");
}

function run(main) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { connect, failure, run };
