// node-postgres: LISTEN/NOTIFY through the client's 'notification' event.
// Notifications arrive once per listener at commit, in commit order, with the
// sender's pid; nothing comes from a rolled-back transaction.
const assert = require("node:assert/strict");
const { connect, failure, run } = require("./node_pg_client.cjs");

// Resolves with the first `count` notifications `client` receives.
function collect(client, count) {
  const got = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`got only ${JSON.stringify(got)}`)), 5000);
    client.on("notification", (message) => {
      got.push([message.channel, message.payload, message.processId]);
      if (got.length === count) {
        clearTimeout(timer);
        resolve(got);
      }
    });
  });
}

async function main() {
  const listener = await connect();
  const sender = await connect();
  const other = await connect();
  await listener.query("LISTEN orders");
  const arriving = collect(listener, 4);
  const senderPid = (await sender.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;
  const otherPid = (await other.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;

  await sender.query("NOTIFY orders, 'placed'");
  await sender.query("BEGIN");
  await sender.query("NOTIFY orders, 'rolled back'");
  await sender.query("ROLLBACK");
  await sender.query("BEGIN");
  await sender.query("SELECT pg_notify('orders', 'paid')");
  await other.query("BEGIN");
  await other.query("NOTIFY orders, 'shipped'");
  await other.query("COMMIT");
  await sender.query("COMMIT");
  await sender.query("NOTIFY orders, $$done$$");

  assert.deepEqual(await arriving, [
    ["orders", "placed", senderPid],
    ["orders", "shipped", otherPid],
    ["orders", "paid", senderPid],
    ["orders", "done", senderPid],
  ]);
  assert.equal((await failure(listener.query("NOTIFY orders, 42"))).code, "42601");
  await Promise.all([listener.end(), sender.end(), other.end()]);
}

run(main);
