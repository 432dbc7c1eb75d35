#!/usr/bin/env bash
# Runs every test of Chancery: formatting, lints, the Rust tests of all crates (which also
# run each module's own Lua tests), installing what a fresh Debian machine lacks.
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the tests need: a virtual display for the window smoke test.
need=""
for p in xvfb xauth; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
  else
    echo "Missing packages:$need (install them with apt-get, or run as root)" >&2
  fi
fi

export CARGO_PROFILE_DEV_DEBUG=0
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
