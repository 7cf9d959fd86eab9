// The client every script uses: @libsql/client pointed at the server under test
// (LITEWIRE_URL), as an app would point it at sqld.
const { createClient } = require("@libsql/client");

function client(options = {}) {
  return createClient({ url: process.env.LITEWIRE_URL, ...options });
}

module.exports = { client };
