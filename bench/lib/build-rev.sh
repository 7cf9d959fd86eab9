# Sourced by the before/after scripts: build_rev REV OUT builds commit REV's
# release binary (in a temporary worktree, from inside it so that its own
# .cargo/config.toml applies, into target/before-after) and copies it to OUT;
# BEFORE_BIN, when set, is copied instead.
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
