#!/usr/bin/env bash
# Opens Chancery on the Congress of Vienna module with its default scenario.
# Without a display (no DISPLAY or WAYLAND_DISPLAY) it starts the same game headless and
# prints the table and the decision it waits for. Extra arguments go to `chancery`
# (try ./run.sh --help).
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --locked --quiet -p chancery
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ "$#" -eq 0 ]; then
  echo "No display found: starting headless (chancery --headless)." >&2
  exec ./target/release/chancery --headless
fi
exec ./target/release/chancery "$@"
