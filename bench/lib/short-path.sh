# Sourced by the scripts that measure the short-statement path of a revision
# against the working tree (before-after.sh, instructions.sh). They set
# PG_PORT, HTTP_PORT and work (a temporary directory) first.

# The legacy HTTP body both measure: the seed query of bench/http.sh.
BODY='{ "statements": [{"q" : "SELECT * FROM t"}] }'
# Both compare builds made with the project's own flags, not the shell's.
unset LIBSQLITE3_FLAGS

# need COMMAND PACKAGE: installs PACKAGE when COMMAND is missing.
need() {
  command -v "$1" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null; }
}

# The server started last (its pid in `server`), stopped.
server=
stop() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  server=
}

# The data both measure, on the running server: pgbench's tables (scale 1) and
# the seed query's table of ten rows.
seed() {
  local values
  pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -i -s 1 -q postgres >/dev/null 2>&1
  values=$(seq 1 10 | sed "s/.*/(&, 'value &')/" | paste -sd, -)
  curl -fs -d "{\"statements\": [\"CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)\", \"INSERT INTO t VALUES $values\"]}" \
    "http://127.0.0.1:$HTTP_PORT/" >/dev/null
}

# build_rev REV OUT builds commit REV's release binary (in a temporary
# worktree, from inside it so that its own .cargo/config.toml applies, into
# target/before-after) and copies it to OUT; BEFORE_BIN, when set, is copied
# instead.
build_rev() {
  local rev=$1 out=$2 root tree
  if [ -n "${BEFORE_BIN:-}" ]; then
    cp "$BEFORE_BIN" "$out"
    return
  fi
  root=$(pwd)
  tree=$(mktemp -d)/rev
  git worktree add --quiet --detach "$tree" "$rev"
  (cd "$tree" && CARGO_TARGET_DIR="$root/target/before-after" cargo build --release --quiet --bin litewire)
  git worktree remove --force "$tree"
  cp target/before-after/release/litewire "$out"
}
